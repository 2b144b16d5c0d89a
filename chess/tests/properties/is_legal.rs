//! `is_legal` guards the search against corrupt hash moves, so it has to say
//! yes to exactly the moves `legal_moves` makes, of all 65536 encodings.

use crate::suite_positions;
use chess::{Board, Move};
use testkit::games::random_positions;

fn check_every_encoding(board: &Board, what: &str) {
    let mut legal = vec![false; 1 << 16];
    for m in board.legal_moves().iter() {
        legal[m.to_bits() as usize] = true;
    }
    for bits in 0..=u16::MAX {
        let m = Move::from_bits(bits);
        assert_eq!(
            board.is_legal(m),
            legal[bits as usize],
            "{what} {board:?}: is_legal({m:?}, bits {bits:#06x})"
        );
    }
}

#[test]
fn is_legal_agrees_with_legal_moves_on_every_encoding() {
    let positions = random_positions(0x15_1e6a1, 400, 120);
    // Take every few plies so that the positions come from many games.
    for played in positions.iter().step_by(3) {
        check_every_encoding(&played.board, "random game");
    }
    // Many of the suite positions are built to be tricky for legality.
    let suites = suite_positions();
    for p in suites
        .iter()
        .filter(|p| !p.file.starts_with("chess960_startpos"))
        .step_by(4)
    {
        check_every_encoding(&p.board, &format!("{}:{}", p.file, p.line));
    }
}
