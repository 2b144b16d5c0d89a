//! The staged move picker: the hash move first, before anything is
//! generated; then captures and promotions that do not lose material, by
//! victim and attacker; then the killers; then quiet moves by history; and
//! the losing captures last.

use crate::history::{capture_key, Context, History, PieceTo};
use crate::see::{see_ge, value};
use arrayvec::ArrayVec;
use chess::{Board, Move, MoveList, PieceKind};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    HashMove,
    GenerateNoisy,
    GoodNoisy,
    Killers,
    GenerateQuiet,
    Quiet,
    BadNoisy,
    Done,
}

pub struct MovePicker {
    stage: Stage,
    hash_move: Move,
    killers: [Move; 2],
    killer_index: usize,
    /// Quiet moves are skipped (quiescence outside check, or pruned).
    noisy_only: bool,
    moves: MoveList,
    /// The score of each of `moves`, index for index.
    scores: ArrayVec<i32, { chess::MAX_MOVES }>,
    index: usize,
    bad_noisy: MoveList,
    bad_index: usize,
    context: Context,
}

impl MovePicker {
    /// A picker for the main search (`noisy_only` false) or quiescence.
    /// `hash_move` must already be checked with `is_legal`, or be `NONE`.
    pub fn new(
        hash_move: Move,
        killers: [Move; 2],
        noisy_only: bool,
        context: Context,
    ) -> MovePicker {
        MovePicker {
            stage: if hash_move.is_none() {
                Stage::GenerateNoisy
            } else {
                Stage::HashMove
            },
            hash_move,
            killers,
            killer_index: 0,
            noisy_only,
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            index: 0,
            bad_noisy: MoveList::new(),
            bad_index: 0,
            context,
        }
    }

    /// From now on, yields no more quiet moves (late-move and futility pruning).
    pub fn skip_quiets(&mut self) {
        self.noisy_only = true;
        if self.stage >= Stage::Killers && self.stage <= Stage::Quiet {
            self.stage = Stage::BadNoisy;
        }
    }

    /// Whether the move just yielded came from the winning captures, and so
    /// is already known not to lose material in the exchange.
    pub fn yielded_winning_capture(&self) -> bool {
        self.stage == Stage::GoodNoisy
    }

    /// Takes the best-scored move left from `index` onwards.
    fn select_best(&mut self) -> Option<Move> {
        let len = self.moves.len();
        if self.index >= len {
            return None;
        }
        let mut best = self.index;
        for i in self.index + 1..len {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.as_mut_slice().swap(self.index, best);
        self.scores.swap(self.index, best);
        let m = self.moves.as_slice()[self.index];
        self.index += 1;
        Some(m)
    }

    pub fn next(&mut self, board: &Board, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::GenerateNoisy;
                    return Some(self.hash_move);
                }
                Stage::GenerateNoisy => {
                    self.moves.clear();
                    board.noisy_moves(&mut self.moves);
                    self.scores.clear();
                    for &m in self.moves.iter() {
                        let victim = if m.is_en_passant() {
                            value(PieceKind::Pawn)
                        } else {
                            board.piece_on(m.to()).map_or(0, |p| value(p.kind()))
                        };
                        let attacker = board
                            .piece_on(m.from())
                            .map_or(0, |p| p.kind().index() as i32);
                        let promotion = m.promotion_piece().map_or(0, value);
                        let learnt = capture_key(board, m).map_or(0, |k| history.capture(k));
                        let score = (victim + promotion) * 8 - attacker + learnt / 8;
                        let _ = self.scores.try_push(score);
                    }
                    self.index = 0;
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => match self.select_best() {
                    Some(m) if m == self.hash_move => {}
                    Some(m) => {
                        // Under-promotions and losing captures wait until the end.
                        let under = m.promotion_piece().is_some_and(|p| p != PieceKind::Queen);
                        if !under && see_ge(board, m, 0) {
                            return Some(m);
                        }
                        self.bad_noisy.push(m);
                    }
                    None => {
                        self.stage = if self.noisy_only {
                            Stage::BadNoisy
                        } else {
                            Stage::Killers
                        };
                    }
                },
                Stage::Killers => {
                    if self.killer_index >= 2 {
                        self.stage = Stage::GenerateQuiet;
                        continue;
                    }
                    let k = self.killers[self.killer_index];
                    let repeated = self.killer_index == 1 && k == self.killers[0];
                    self.killer_index += 1;
                    if !k.is_none()
                        && !repeated
                        && k != self.hash_move
                        && is_quiet(board, k)
                        && board.is_legal(k)
                    {
                        return Some(k);
                    }
                }
                Stage::GenerateQuiet => {
                    self.moves.clear();
                    board.quiet_moves(&mut self.moves);
                    let us = board.side_to_move();
                    self.scores.clear();
                    for &m in self.moves.iter() {
                        let score = board.piece_on(m.from()).map_or(0, |p| {
                            history.quiet(us, m, PieceTo::new(p, m.to()), &self.context)
                        });
                        let _ = self.scores.try_push(score);
                    }
                    self.index = 0;
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => match self.select_best() {
                    Some(m) if m == self.hash_move || self.killers.contains(&m) => {}
                    Some(m) => return Some(m),
                    None => self.stage = Stage::BadNoisy,
                },
                Stage::BadNoisy => {
                    let m = self.bad_noisy.as_slice().get(self.bad_index).copied();
                    self.bad_index += 1;
                    match m {
                        Some(m) => return Some(m),
                        None => self.stage = Stage::Done,
                    }
                }
                Stage::Done => return None,
            }
        }
    }
}

/// Neither a capture nor a promotion.
#[inline(always)]
pub fn is_quiet(board: &Board, m: Move) -> bool {
    !m.is_promotion() && !m.is_en_passant() && (m.is_castle() || board.piece_on(m.to()).is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every legal move comes out exactly once, whatever the hash move and
    /// killers are.
    #[test]
    fn yields_each_legal_move_once() {
        let history = History::default();
        for fen in [
            chess::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let legal = board.legal_moves();
            let hash = legal.as_slice()[legal.len() / 2];
            let killers = [legal.as_slice()[0], legal.as_slice()[legal.len() - 1]];
            let mut picker = MovePicker::new(hash, killers, false, Context::NONE);
            let mut seen = Vec::new();
            while let Some(m) = picker.next(&board, &history) {
                seen.push(m);
            }
            let mut expected: Vec<Move> = legal.iter().copied().collect();
            expected.sort_by_key(|m| m.to_bits());
            seen.sort_by_key(|m| m.to_bits());
            assert_eq!(seen, expected, "{fen}");
        }
    }

    /// The moves flagged as winning captures are exactly the queen
    /// promotions and captures that do not lose material (the hash move
    /// excepted, which comes before any is scored).
    #[test]
    fn winning_captures_are_flagged_as_such() {
        let history = History::default();
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/2p5/3p4/2P5/8/8/3QK3 w - - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let mut picker = MovePicker::new(Move::NONE, [Move::NONE; 2], true, Context::NONE);
            let (mut winning, mut other) = (0, 0);
            while let Some(m) = picker.next(&board, &history) {
                let under = m.promotion_piece().is_some_and(|p| p != PieceKind::Queen);
                let expected = !under && see_ge(&board, m, 0);
                assert_eq!(picker.yielded_winning_capture(), expected, "{fen} {m:?}");
                if expected {
                    winning += 1;
                } else {
                    other += 1;
                }
            }
            assert!(winning > 0 && other > 0, "{fen}: {winning} {other}");
        }
    }

    #[test]
    fn noisy_only_yields_captures_and_promotions() {
        let history = History::default();
        let board =
            Board::from_fen("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1")
                .unwrap();
        let mut picker = MovePicker::new(Move::NONE, [Move::NONE; 2], true, Context::NONE);
        let mut count = 0;
        while let Some(m) = picker.next(&board, &history) {
            assert!(!is_quiet(&board, m), "{m:?}");
            count += 1;
        }
        let mut noisy = MoveList::new();
        board.noisy_moves(&mut noisy);
        assert_eq!(count, noisy.len());
    }
}
