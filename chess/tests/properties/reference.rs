//! `legal_moves` against a slow generator written here from the rules alone:
//! pseudo-legal moves on a plain 64-square array, each made on a copy and
//! kept only if the mover's king is then not attacked.

use crate::suite_positions;
use chess::{
    Board, CastleSide, Color, File, Move, MoveKind, MoveList, Piece, PieceKind, Rank, Square,
};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::HashSet;
use testkit::games::{random_game, random_positions, Played};

type Squares = [Option<Piece>; 64];

const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const PROMOTIONS: [PieceKind; 4] = [
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
];

fn at(file: i8, rank: i8) -> Option<Square> {
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Square::from_index((rank * 8 + file) as u8)
    } else {
        None
    }
}

fn coords(sq: Square) -> (i8, i8) {
    (sq.file().index() as i8, sq.rank().index() as i8)
}

fn squares_of(board: &Board) -> Squares {
    let mut squares = [None; 64];
    for sq in Square::all() {
        squares[sq.index()] = board.piece_on(sq);
    }
    squares
}

fn attacked(squares: &Squares, sq: Square, by: Color) -> bool {
    let (f, r) = coords(sq);
    let holds = |s: Option<Square>, kinds: &[PieceKind]| {
        s.and_then(|s| squares[s.index()])
            .is_some_and(|p| p.color() == by && kinds.contains(&p.kind()))
    };
    // A pawn of `by` attacks diagonally forward, so it stands one rank back.
    let back = if by == Color::White { -1 } else { 1 };
    if holds(at(f - 1, r + back), &[PieceKind::Pawn])
        || holds(at(f + 1, r + back), &[PieceKind::Pawn])
    {
        return true;
    }
    if KNIGHT_STEPS
        .iter()
        .any(|&(df, dr)| holds(at(f + df, r + dr), &[PieceKind::Knight]))
    {
        return true;
    }
    if KING_STEPS
        .iter()
        .any(|&(df, dr)| holds(at(f + df, r + dr), &[PieceKind::King]))
    {
        return true;
    }
    for (dirs, slider) in [(ORTHOGONAL, PieceKind::Rook), (DIAGONAL, PieceKind::Bishop)] {
        for (df, dr) in dirs {
            let (mut x, mut y) = (f + df, r + dr);
            while let Some(s) = at(x, y) {
                if let Some(p) = squares[s.index()] {
                    if p.color() == by && (p.kind() == slider || p.kind() == PieceKind::Queen) {
                        return true;
                    }
                    break;
                }
                x += df;
                y += dr;
            }
        }
    }
    false
}

/// The squares after `m`, made the plain way.
fn play(squares: &Squares, m: Move, us: Color) -> Squares {
    let mut after = *squares;
    let from = m.from();
    let to = m.to();
    match m.kind() {
        MoveKind::Castle => {
            let back = Rank::R1.relative(us);
            let (king_file, rook_file) = if to.file() > from.file() {
                (File::G, File::F)
            } else {
                (File::C, File::D)
            };
            after[from.index()] = None;
            after[to.index()] = None;
            after[Square::new(king_file, back).index()] = Some(Piece::new(us, PieceKind::King));
            after[Square::new(rook_file, back).index()] = Some(Piece::new(us, PieceKind::Rook));
        }
        MoveKind::EnPassant => {
            after[to.index()] = after[from.index()].take();
            after[Square::new(to.file(), from.rank()).index()] = None;
        }
        MoveKind::Promotion => {
            after[from.index()] = None;
            after[to.index()] = m.promotion_piece().map(|k| Piece::new(us, k));
        }
        MoveKind::Normal => {
            after[to.index()] = after[from.index()].take();
        }
    }
    after
}

fn king_of(squares: &Squares, color: Color) -> Option<Square> {
    Square::all().find(|s| squares[s.index()] == Some(Piece::new(color, PieceKind::King)))
}

/// Every legal move, given the en-passant target that the last move made
/// (if any).
pub fn reference_moves(board: &Board, ep_target: Option<Square>) -> HashSet<Move> {
    let us = board.side_to_move();
    let them = !us;
    let squares = squares_of(board);
    let free = |s: Square| squares[s.index()].is_none();
    let enemy = |s: Square| squares[s.index()].is_some_and(|p| p.color() == them);
    let mut pseudo = Vec::new();
    for from in Square::all() {
        let Some(piece) = squares[from.index()].filter(|p| p.color() == us) else {
            continue;
        };
        let (f, r) = coords(from);
        match piece.kind() {
            PieceKind::Pawn => {
                let up = if us == Color::White { 1 } else { -1 };
                let last = Rank::R8.relative(us);
                let push = |to: Square, pseudo: &mut Vec<Move>| {
                    if to.rank() == last {
                        pseudo.extend(PROMOTIONS.map(|k| Move::promotion(from, to, k)));
                    } else {
                        pseudo.push(Move::new(from, to));
                    }
                };
                if let Some(one) = at(f, r + up).filter(|&s| free(s)) {
                    push(one, &mut pseudo);
                    if from.rank() == Rank::R2.relative(us) {
                        if let Some(two) = at(f, r + 2 * up).filter(|&s| free(s)) {
                            pseudo.push(Move::new(from, two));
                        }
                    }
                }
                for df in [-1, 1] {
                    let Some(to) = at(f + df, r + up) else {
                        continue;
                    };
                    if enemy(to) {
                        push(to, &mut pseudo);
                    } else if Some(to) == ep_target
                        && free(to)
                        && squares[Square::new(to.file(), from.rank()).index()]
                            == Some(Piece::new(them, PieceKind::Pawn))
                    {
                        pseudo.push(Move::en_passant(from, to));
                    }
                }
            }
            PieceKind::Knight | PieceKind::King => {
                let steps = if piece.kind() == PieceKind::Knight {
                    KNIGHT_STEPS
                } else {
                    KING_STEPS
                };
                for (df, dr) in steps {
                    if let Some(to) = at(f + df, r + dr).filter(|&s| free(s) || enemy(s)) {
                        pseudo.push(Move::new(from, to));
                    }
                }
            }
            kind => {
                let mut dirs = Vec::new();
                if kind != PieceKind::Bishop {
                    dirs.extend(ORTHOGONAL);
                }
                if kind != PieceKind::Rook {
                    dirs.extend(DIAGONAL);
                }
                for (df, dr) in dirs {
                    let (mut x, mut y) = (f + df, r + dr);
                    while let Some(to) = at(x, y) {
                        if free(to) || enemy(to) {
                            pseudo.push(Move::new(from, to));
                        }
                        if !free(to) {
                            break;
                        }
                        x += df;
                        y += dr;
                    }
                }
            }
        }
    }
    pseudo.extend(castling_candidates(board, &squares));
    pseudo
        .into_iter()
        .filter(|&m| {
            let after = play(&squares, m, us);
            king_of(&after, us).is_some_and(|k| !attacked(&after, k, them))
        })
        .collect()
}

/// Castling moves whose paths are clear and whose king does not start on or
/// cross an attacked square; that it does not end in check is left to the
/// make-and-check filter, like every other move.
fn castling_candidates(board: &Board, squares: &Squares) -> Vec<Move> {
    let us = board.side_to_move();
    let back = Rank::R1.relative(us);
    let mut moves = Vec::new();
    let Some(king) = king_of(squares, us) else {
        return moves;
    };
    for side in CastleSide::BOTH {
        let Some(rook) = board.castling_rights().rook_square(us, side) else {
            continue;
        };
        assert_eq!(
            king.rank(),
            back,
            "{board:?}: castling right with the king off its rank"
        );
        assert_eq!(
            squares[rook.index()],
            Some(Piece::new(us, PieceKind::Rook)),
            "{board:?}"
        );
        let (king_to, rook_to) = match side {
            CastleSide::King => (File::G, File::F),
            CastleSide::Queen => (File::C, File::D),
        };
        let span = |a: File, b: File| {
            let (lo, hi) = (a.min(b).index() as u8, a.max(b).index() as u8);
            (lo..=hi)
                .filter_map(File::new)
                .map(move |f| Square::new(f, back))
        };
        let clear = span(king.file(), king_to)
            .chain(span(rook.file(), rook_to))
            .all(|s| s == king || s == rook || squares[s.index()].is_none());
        let safe = span(king.file(), king_to).all(|s| !attacked(squares, s, !us));
        if clear && safe {
            moves.push(Move::castle(king, rook));
        }
    }
    moves
}

/// The en-passant target that a double pawn step just made, read off the
/// move rather than the board.
pub fn ep_target_after(played: &Played) -> Option<Square> {
    let m = played.last_move?;
    let pawn = played.board.piece_on(m.to())?.kind() == PieceKind::Pawn;
    let (from, to) = (m.from().index(), m.to().index());
    (pawn && from.abs_diff(to) == 16).then(|| Square::from_index(((from + to) / 2) as u8))?
}

fn check_position(board: &Board, ep_target: Option<Square>, what: &str) {
    let reference = reference_moves(board, ep_target);
    let list = board.legal_moves();
    let ours: HashSet<Move> = list.iter().copied().collect();
    assert_eq!(
        ours.len(),
        list.len(),
        "{what} {board:?}: duplicates in {list:?}"
    );
    assert_eq!(board.legal_move_count(), list.len(), "{what} {board:?}");
    if ours != reference {
        let mut missing: Vec<_> = reference.difference(&ours).collect();
        let mut extra: Vec<_> = ours.difference(&reference).collect();
        missing.sort_by_key(|m| m.to_bits());
        extra.sort_by_key(|m| m.to_bits());
        panic!("{what} {board:?}: missing {missing:?}, not legal {extra:?}");
    }
    // The board keeps an en-passant square only when it can be used.
    let ep_move = reference.iter().find(|m| m.is_en_passant()).map(|m| m.to());
    assert_eq!(board.en_passant(), ep_move, "{what} {board:?}");
    assert_eq!(board.has_legal_move(), !reference.is_empty());

    let mut noisy = MoveList::new();
    let mut quiet = MoveList::new();
    board.noisy_moves(&mut noisy);
    board.quiet_moves(&mut quiet);
    let noisy: Vec<Move> = noisy.iter().copied().collect();
    let quiet: Vec<Move> = quiet.iter().copied().collect();
    assert_eq!(noisy.len() + quiet.len(), list.len(), "{what} {board:?}");
    let union: HashSet<Move> = noisy.iter().chain(&quiet).copied().collect();
    assert_eq!(union, ours, "{what} {board:?}");
    let them = board.colored(!board.side_to_move());
    for &m in &noisy {
        let captures = m.is_en_passant() || (!m.is_castle() && them.contains(m.to()));
        assert!(
            captures || m.is_promotion(),
            "{what} {board:?}: {m:?} is not noisy"
        );
    }
    for &m in &quiet {
        assert!(
            !m.is_promotion() && !m.is_en_passant(),
            "{what} {board:?}: {m:?}"
        );
        assert!(
            m.is_castle() || !them.contains(m.to()),
            "{what} {board:?}: {m:?}"
        );
    }
}

#[test]
fn legal_moves_equal_the_reference_along_random_games() {
    let positions = random_positions(0x4ef_0001, 200_000, 200);
    let mut seen = [0usize; 4];
    for played in &positions {
        check_position(&played.board, ep_target_after(played), "random game");
        for m in played.board.legal_moves().iter() {
            seen[m.kind() as usize] += 1;
        }
    }
    // Every kind of move has come up many times.
    eprintln!("moves by kind (normal, promotion, en passant, castle): {seen:?}");
    assert!(seen.iter().all(|&n| n > 300), "{seen:?}");
}

fn fen_ep_target(fen: &str) -> Option<Square> {
    fen.split(' ').nth(3).and_then(Square::parse)
}

#[test]
fn legal_moves_equal_the_reference_on_the_suites_and_games_from_them() {
    let mut rng = StdRng::seed_from_u64(0x5417e);
    for p in suite_positions() {
        let what = format!("{}:{}", p.file, p.line);
        check_position(&p.board, fen_ep_target(&p.fen), &what);
        // The small files hold the odd positions; play on from them.
        if !p.file.starts_with("chess960_startpos") && !p.file.starts_with("chess960_fischer") {
            for _ in 0..4 {
                for played in random_game(&mut rng, p.board.clone(), 40).iter().skip(1) {
                    check_position(&played.board, ep_target_after(played), &what);
                }
            }
        }
    }
}
