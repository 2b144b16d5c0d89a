//! A game in progress: the board with every position that led to it, so
//! that the rules which look back (repetition) can be decided, and moves
//! taken back.
//!
//! Copy-make, like the board itself: a move pushes a fresh board, and
//! taking it back pops it, so nothing needs undoing.

use crate::{Board, Color, Move};

/// How the rules of chess end a game on their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Checkmate {
        winner: Color,
    },
    Stalemate,
    /// The position occurred for the third time.
    Repetition,
    /// A hundred half-moves without a capture or a pawn move.
    FiftyMoves,
    InsufficientMaterial,
}

impl Verdict {
    /// `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Verdict::Checkmate { winner } => Some(winner),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Position {
    /// The game's first position; the later ones follow in `later`.
    first: Board,
    later: Vec<Board>,
    /// The key of every position, the first one first.
    keys: Vec<u64>,
    /// The plies (indices into `keys`) of positions reached by a null move,
    /// which no repetition reaches across.
    nulls: Vec<usize>,
}

impl Position {
    /// A game that starts at `board`.
    pub fn new(board: Board) -> Position {
        Position {
            keys: vec![board.key()],
            first: board,
            later: Vec::new(),
            nulls: Vec::new(),
        }
    }

    /// The current position.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        self.later.last().unwrap_or(&self.first)
    }

    /// The game's first position.
    pub fn first(&self) -> &Board {
        &self.first
    }

    /// Half-moves played since the first position.
    #[inline(always)]
    pub fn ply(&self) -> usize {
        self.later.len()
    }

    /// Room for `plies` more moves without reallocating, for a search.
    pub fn reserve(&mut self, plies: usize) {
        self.later.reserve(plies);
        self.keys.reserve(plies);
    }

    /// Plays `m`, which must be legal here.
    #[inline(always)]
    pub fn make_move(&mut self, m: Move) {
        let next = self.push_copy();
        next.make_move(m);
        let key = next.key();
        self.keys.push(key);
    }

    /// Passes the move to the other side (the search's null move); the side
    /// to move must not be in check.
    #[inline(always)]
    pub fn make_null_move(&mut self) {
        let next = self.push_copy();
        next.make_null_move();
        let key = next.key();
        self.keys.push(key);
        self.nulls.push(self.later.len());
    }

    /// A copy of the current board on top of the stack.
    #[inline(always)]
    fn push_copy(&mut self) -> &mut Board {
        let top = self.board().clone();
        self.later.push(top);
        let n = self.later.len();
        &mut self.later[n - 1]
    }

    /// Takes back the last move (or null move); at the first position there
    /// is none, and the call says so.
    #[inline(always)]
    pub fn unmake_move(&mut self) -> bool {
        let Some(ply) = self.later.len().checked_sub(1) else {
            return false;
        };
        // Truncating, not popping: nothing is copied out.
        self.later.truncate(ply);
        if self.nulls.last() == Some(&(ply + 1)) {
            self.nulls.pop();
        }
        self.keys.truncate(ply + 1);
        true
    }

    /// Whether the current position repeats an earlier one such that the
    /// game can be taken as drawn: once is enough when the earlier occurrence
    /// is at ply `since` or later (inside a search from there), twice
    /// before it. With `since` the current ply this is the threefold rule.
    #[inline]
    pub fn is_repetition(&self, since: usize) -> bool {
        self.repeats(self.board(), since)
    }

    #[inline(always)]
    fn repeats(&self, board: &Board, since: usize) -> bool {
        let n = self.keys.len();
        let current = n - 1;
        let key = board.key();
        let after_null = self.nulls.last().map_or(usize::MAX, |&p| current - p);
        // Only positions since the last capture, pawn move or null move can
        // repeat, and only with the same side to move, four plies back at least.
        let reach = (board.halfmove_clock() as usize).min(after_null);
        let mut seen = 0;
        let mut back = 4;
        while back <= reach && back < n {
            let index = current - back;
            if self.keys[index] == key {
                if index >= since {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// The fifty-move rule: a hundred half-moves without a capture or a pawn
    /// move draw, unless the last of them mated.
    #[inline]
    pub fn is_fifty_move_draw(&self) -> bool {
        fifty_moves_drawn(self.board())
    }

    /// Whether the search may score the current position as a draw:
    /// insufficient material, the fifty-move rule, or a repetition as
    /// [`Position::is_repetition`] counts them from ply `since`.
    #[inline]
    pub fn is_draw(&self, since: usize) -> bool {
        let board = self.board();
        board.is_insufficient_material() || fifty_moves_drawn(board) || self.repeats(board, since)
    }

    /// Whether the rules end the game here, and how.
    pub fn verdict(&self) -> Option<Verdict> {
        let board = self.board();
        if !board.has_legal_move() {
            return Some(if board.in_check() {
                Verdict::Checkmate {
                    winner: !board.side_to_move(),
                }
            } else {
                Verdict::Stalemate
            });
        }
        if board.is_insufficient_material() {
            return Some(Verdict::InsufficientMaterial);
        }
        if board.halfmove_clock() >= 100 {
            return Some(Verdict::FiftyMoves);
        }
        self.is_repetition(self.ply())
            .then_some(Verdict::Repetition)
    }
}

#[inline(always)]
fn fifty_moves_drawn(board: &Board) -> bool {
    board.halfmove_clock() >= 100 && (!board.in_check() || board.has_legal_move())
}

impl From<Board> for Position {
    fn from(board: Board) -> Position {
        Position::new(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> Position {
        Position::new(Board::from_fen(fen).unwrap())
    }

    fn play(pos: &mut Position, sans: &[&str]) {
        for san in sans {
            let m = pos.board().parse_san(san).unwrap();
            pos.make_move(m);
        }
    }

    #[test]
    fn rules_endings_are_found() {
        let mate = position("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1");
        assert_eq!(
            mate.verdict(),
            Some(Verdict::Checkmate {
                winner: Color::White
            })
        );
        assert_eq!(mate.verdict().and_then(Verdict::winner), Some(Color::White));
        let stalemate = position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(stalemate.verdict(), Some(Verdict::Stalemate));
        let bare = position("8/8/4k3/8/8/3NK3/8/8 w - - 0 1");
        assert_eq!(bare.verdict(), Some(Verdict::InsufficientMaterial));
        assert!(bare.is_draw(0));
        let fifty = position("8/8/4k3/8/8/3RK3/8/8 w - - 100 80");
        assert_eq!(fifty.verdict(), Some(Verdict::FiftyMoves));
        assert!(fifty.is_fifty_move_draw());
        // Mate on the hundredth half-move is still mate.
        let late_mate = position("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80");
        assert!(matches!(
            late_mate.verdict(),
            Some(Verdict::Checkmate { .. })
        ));
        assert!(!late_mate.is_fifty_move_draw());
        assert_eq!(Position::new(Board::startpos()).verdict(), None);
    }

    #[test]
    fn the_third_occurrence_is_a_draw() {
        let mut pos = Position::new(Board::startpos());
        for (i, san) in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
            .iter()
            .enumerate()
        {
            play(&mut pos, &[san]);
            assert_eq!(pos.verdict(), None, "after ply {i}");
        }
        play(&mut pos, &["Ng8"]);
        assert_eq!(pos.verdict(), Some(Verdict::Repetition));
    }

    #[test]
    fn a_search_counts_a_repetition_inside_it_at_once() {
        let mut pos = Position::new(Board::startpos());
        play(&mut pos, &["Nf3", "Nf6"]);
        let root = pos.ply();
        play(&mut pos, &["Ng1", "Ng8", "Nf3", "Nf6"]);
        // The root's position again, once: a draw inside the search from the
        // root, not yet by the rules of the game.
        assert!(pos.is_repetition(root));
        assert!(pos.is_draw(root));
        assert!(!pos.is_repetition(root + 1));
        assert_eq!(pos.verdict(), None);
    }

    #[test]
    fn no_repetition_reaches_across_a_null_move() {
        let mut pos = Position::new(Board::startpos());
        play(&mut pos, &["Nf3"]);
        pos.make_null_move();
        play(&mut pos, &["Ng1"]);
        pos.make_null_move();
        // The start position again, four plies on, but across null moves.
        assert_eq!(pos.board().key(), pos.first().key());
        assert_eq!(pos.board().halfmove_clock(), 4);
        assert!(!pos.is_repetition(0));
        for _ in 0..4 {
            assert!(pos.unmake_move());
        }
        play(&mut pos, &["Nf3", "Nf6", "Ng1", "Ng8"]);
        assert!(pos.is_repetition(0));
    }

    #[test]
    fn unmaking_restores_every_position() {
        let mut pos = Position::new(Board::startpos());
        assert!(!pos.unmake_move());
        let before = pos.board().clone();
        play(&mut pos, &["e4", "e5", "Nf3"]);
        assert_eq!(pos.ply(), 3);
        assert!(pos.unmake_move() && pos.unmake_move() && pos.unmake_move());
        assert_eq!(pos.board(), &before);
        assert_eq!(pos.ply(), 0);
        assert_eq!(pos.keys, vec![before.key()]);
        assert_eq!(pos.first(), &before);
    }
}
