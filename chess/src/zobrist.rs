//! Zobrist hashing keys, generated at compile time from a fixed seed.

use crate::{Bitboard, CastlingRights, File, Piece, Rank, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

struct Keys {
    pieces: [[u64; 64]; 12],
    castling: [[u64; 8]; 2],
    en_passant: [u64; 8],
    side: u64,
}

static KEYS: Keys = {
    let mut state = 0x486F_6576_656E_1842; // "Hoeven", 1842
    let mut keys = Keys {
        pieces: [[0; 64]; 12],
        castling: [[0; 8]; 2],
        en_passant: [0; 8],
        side: 0,
    };
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            let (next, key) = splitmix(state);
            state = next;
            keys.pieces[p][s] = key;
            s += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut f = 0;
        while f < 8 {
            let (next, key) = splitmix(state);
            state = next;
            keys.castling[c][f] = key;
            f += 1;
        }
        c += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (next, key) = splitmix(state);
        state = next;
        keys.en_passant[f] = key;
        f += 1;
    }
    keys.side = splitmix(state).1;
    keys
};

#[inline(always)]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece.index()][sq.index()]
}

#[inline(always)]
pub fn side() -> u64 {
    KEYS.side
}

#[inline(always)]
pub fn en_passant(file: File) -> u64 {
    KEYS.en_passant[file.index()]
}

/// The key of a set of castling rights: one key per colour and rook file.
pub fn castling(rights: &CastlingRights) -> u64 {
    castling_rooks(rights.rook_squares())
}

/// The castling key of rooks on `squares`, which are on the first rank
/// (White's) or the eighth (Black's): a right's key needs only its rook square.
#[inline]
pub(crate) fn castling_rooks(squares: Bitboard) -> u64 {
    squares.fold(0, |k, sq| {
        let color = usize::from(sq.rank() != Rank::R1);
        k ^ KEYS.castling[color][sq.file().index()]
    })
}
