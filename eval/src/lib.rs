//! Static evaluation: material and piece-square tables, tapered between the
//! middlegame and the endgame by the material left on the board.
//!
//! This is the search core's evaluation; the tuned evaluation replaces it.

mod pst;

use movegen::{Board, Color, PieceKind};
pub use pst::{piece_square, PHASE_WEIGHTS, TOTAL_PHASE};

/// A middlegame and an endgame value, interpolated by game phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tapered {
    pub mg: i32,
    pub eg: i32,
}

impl Tapered {
    pub const fn new(mg: i32, eg: i32) -> Tapered {
        Tapered { mg, eg }
    }

    /// The value at `phase` (TOTAL_PHASE = opening material, 0 = bare kings).
    pub fn at(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (TOTAL_PHASE - phase)) / TOTAL_PHASE
    }
}

impl std::ops::Add for Tapered {
    type Output = Tapered;
    fn add(self, o: Tapered) -> Tapered {
        Tapered::new(self.mg + o.mg, self.eg + o.eg)
    }
}

impl std::ops::Sub for Tapered {
    type Output = Tapered;
    fn sub(self, o: Tapered) -> Tapered {
        Tapered::new(self.mg - o.mg, self.eg - o.eg)
    }
}

/// Piece values in centipawns, middlegame and endgame.
pub const PIECE_VALUES: [Tapered; 6] = [
    Tapered::new(82, 94),
    Tapered::new(337, 281),
    Tapered::new(365, 297),
    Tapered::new(477, 512),
    Tapered::new(1025, 936),
    Tapered::new(0, 0),
];

/// A bonus for the side to move: having the move is worth something.
pub const TEMPO: i32 = 10;

/// The game phase: 24 with all pieces on the board, 0 with none.
pub fn phase(board: &Board) -> i32 {
    let phase: i32 = PieceKind::ALL
        .iter()
        .map(|&k| board.pieces(k).count() as i32 * PHASE_WEIGHTS[k.index()])
        .sum();
    phase.min(TOTAL_PHASE)
}

/// Material and placement of one side.
pub fn side_score(board: &Board, color: Color) -> Tapered {
    let mut score = Tapered::default();
    for kind in PieceKind::ALL {
        for sq in board.pieces_of(color, kind) {
            score = score + PIECE_VALUES[kind.index()] + piece_square(kind, color, sq);
        }
    }
    score
}

/// The evaluation in centipawns from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    if board.is_insufficient_material() {
        return 0;
    }
    let us = board.side_to_move();
    let diff = side_score(board, us) - side_score(board, !us);
    diff.at(phase(board)) + TEMPO
}

/// A table of every term for both sides, for the `eval` command. Ends with
/// `Final evaluation: <cp> (white side)`.
pub fn trace(board: &Board) -> String {
    let phase = phase(board);
    let mut out = String::new();
    out.push_str("     Term    |    White    |    Black    |    Total\n");
    out.push_str("             |   MG    EG  |   MG    EG  |   MG    EG\n");
    out.push_str("-------------+-------------+-------------+------------\n");
    let material = |c: Color| {
        PieceKind::ALL.iter().fold(Tapered::default(), |acc, &k| {
            let n = board.pieces_of(c, k).count() as i32;
            acc + Tapered::new(
                PIECE_VALUES[k.index()].mg * n,
                PIECE_VALUES[k.index()].eg * n,
            )
        })
    };
    let placement = |c: Color| side_score(board, c) - material(c);
    for (name, term) in [
        ("Material", &material as &dyn Fn(Color) -> Tapered),
        ("Placement", &placement),
    ] {
        let (w, b) = (term(Color::White), term(Color::Black));
        out.push_str(&format!(
            "{name:>12} | {:5} {:5} | {:5} {:5} | {:5} {:5}\n",
            w.mg,
            w.eg,
            b.mg,
            b.eg,
            w.mg - b.mg,
            w.eg - b.eg
        ));
    }
    let white = evaluate_white(board);
    out.push_str(&format!("\nPhase: {phase} / {TOTAL_PHASE}\n"));
    out.push_str(&format!("Tempo: {TEMPO} for the side to move\n"));
    out.push_str(&format!("\nFinal evaluation: {white} (white side)\n"));
    out
}

/// The evaluation from White's point of view.
pub fn evaluate_white(board: &Board) -> i32 {
    evaluate(board) * board.side_to_move().sign()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Board::startpos()), TEMPO);
    }

    #[test]
    fn mirrored_positions_evaluate_alike() {
        for (fen, mirror) in [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1",
            ),
            (
                "4k3/8/8/3q4/8/2N5/PP6/4K3 w - - 0 1",
                "4k3/pp6/2n5/8/3Q4/8/8/4K3 b - - 0 1",
            ),
        ] {
            let a = Board::from_fen(fen).unwrap();
            let b = Board::from_fen(mirror).unwrap();
            assert_eq!(evaluate(&a), evaluate(&b), "{fen}");
            assert_eq!(evaluate_white(&a), -evaluate_white(&b), "{fen}");
        }
    }

    #[test]
    fn insufficient_material_is_a_draw_and_extra_material_wins() {
        assert_eq!(
            evaluate(&Board::from_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1").unwrap()),
            0
        );
        assert!(evaluate(&Board::from_fen("8/8/4k3/8/8/3QK3/8/8 w - - 0 1").unwrap()) > 800);
        assert!(evaluate(&Board::from_fen("8/8/4k3/8/8/3QK3/8/8 b - - 0 1").unwrap()) < -800);
    }

    #[test]
    fn trace_ends_with_final_evaluation() {
        let board = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        let text = trace(&board);
        let last = text.lines().last().unwrap();
        assert_eq!(
            last,
            format!("Final evaluation: {} (white side)", evaluate_white(&board))
        );
        assert!(evaluate_white(&board) > 0);
    }
}
