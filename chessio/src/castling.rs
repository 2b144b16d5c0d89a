//! Which castling rules a start position needs: what a game file must say
//! about its variant.

use chess::{Board, CastleSide, Color, File};

/// Whether the castling rights are the classical ones: king on the e-file,
/// rooks on the a- and h-files. Any other needs Chess960 castling rules.
pub fn castling_is_classical(board: &Board) -> bool {
    Color::BOTH.into_iter().all(|color| {
        let rights = board.castling_rights();
        let king_on_e = board.king_square(color).file() == File::E;
        [(CastleSide::King, File::H), (CastleSide::Queen, File::A)]
            .into_iter()
            .all(|(side, file)| {
                rights
                    .rook_file(color, side)
                    .is_none_or(|f| f == file && king_on_e)
            })
    })
}
