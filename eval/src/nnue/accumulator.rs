//! The first layer's outputs for both perspectives, one entry per ply of
//! the search. Making a move records which pieces it moved; the entry is
//! computed from its parent's only when a position at that ply is
//! evaluated, so that moves cut off before their evaluation cost nothing.

use super::network::{feature, Network};
use movegen::{Board, Color, Move, Piece, PieceKind, Square};

/// The pieces a move took away and put down: at most two of each
/// (castling moves king and rook; a capture removes two pieces).
#[derive(Clone, Copy, Debug, Default)]
struct Change {
    added: [Option<(Piece, Square)>; 2],
    removed: [Option<(Piece, Square)>; 2],
}

impl Change {
    /// What `m` changes on `board`, the position before it.
    fn of(board: &Board, m: Move) -> Change {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = board.piece_on(from) else {
            return Change::default();
        };
        if m.is_castle() {
            let (king_to, rook_to) = m.castle_destinations();
            let rook = Piece::new(piece.color(), PieceKind::Rook);
            return Change {
                added: [Some((piece, king_to)), Some((rook, rook_to))],
                removed: [Some((piece, from)), Some((rook, to))],
            };
        }
        let captured = if m.is_en_passant() {
            let sq = Square::new(to.file(), from.rank());
            Some((Piece::new(!piece.color(), PieceKind::Pawn), sq))
        } else {
            board.piece_on(to).map(|p| (p, to))
        };
        let placed = m
            .promotion_piece()
            .map_or(piece, |kind| Piece::new(piece.color(), kind));
        Change {
            added: [Some((placed, to)), None],
            removed: [Some((piece, from)), captured],
        }
    }
}

pub(crate) struct Accumulators {
    hidden: usize,
    /// Entry `ply` is `values[ply * 2 * hidden..]`: White's perspective,
    /// then Black's.
    values: Vec<i16>,
    /// The change from the entry below; unused for the root.
    changes: Vec<Change>,
    computed: Vec<bool>,
    top: usize,
}

impl Accumulators {
    pub fn new(hidden: usize) -> Accumulators {
        Accumulators {
            hidden,
            values: Vec::new(),
            changes: Vec::new(),
            computed: Vec::new(),
            top: 0,
        }
    }

    /// Starts again from `board`, computed from scratch.
    pub fn refresh(&mut self, net: &Network, board: &Board) {
        self.top = 0;
        self.reserve(0);
        let h = self.hidden;
        let entry = &mut self.values[..2 * h];
        for (perspective, acc) in [Color::White, Color::Black]
            .into_iter()
            .zip(entry.chunks_exact_mut(h))
        {
            acc.copy_from_slice(net.bias());
            for sq in board.occupied() {
                if let Some(piece) = board.piece_on(sq) {
                    add(acc, net.row(feature(perspective, piece, sq)));
                }
            }
        }
        self.computed[0] = true;
    }

    /// Makes room for entry `ply`; the stack only grows, so the search
    /// allocates once per new depth and never after.
    fn reserve(&mut self, ply: usize) {
        if self.computed.len() <= ply {
            self.values.resize((ply + 1) * 2 * self.hidden, 0);
            self.changes.resize(ply + 1, Change::default());
            self.computed.resize(ply + 1, false);
        }
    }

    /// `m` is about to be played on `board`.
    pub fn push_move(&mut self, board: &Board, m: Move) {
        self.push(Change::of(board, m));
    }

    /// A null move: the pieces stay, the entry is a copy.
    pub fn push_null(&mut self) {
        self.push(Change::default());
    }

    fn push(&mut self, change: Change) {
        self.top += 1;
        self.reserve(self.top);
        self.changes[self.top] = change;
        self.computed[self.top] = false;
    }

    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "more unmakes than makes");
        self.top = self.top.saturating_sub(1);
    }

    /// The current entry, brought up to date from the nearest computed one
    /// below it: (White's perspective, Black's).
    pub fn current(&mut self, net: &Network) -> (&[i16], &[i16]) {
        let h = self.hidden;
        let base = (0..=self.top)
            .rev()
            .find(|&ply| self.computed[ply])
            .unwrap_or(0);
        for ply in base + 1..=self.top {
            let (below, above) = self.values.split_at_mut(ply * 2 * h);
            let parent = &below[(ply - 1) * 2 * h..];
            let child = &mut above[..2 * h];
            let change = self.changes[ply];
            for (perspective, (from, to)) in [Color::White, Color::Black]
                .into_iter()
                .zip(parent.chunks_exact(h).zip(child.chunks_exact_mut(h)))
            {
                apply(net, perspective, &change, from, to);
            }
            self.computed[ply] = true;
        }
        let entry = &self.values[self.top * 2 * h..(self.top + 1) * 2 * h];
        entry.split_at(h)
    }
}

/// `to = from` plus the rows of the added pieces minus those of the removed
/// ones. The common shapes (a quiet move, a capture) go in one pass.
#[inline(always)]
fn apply(net: &Network, perspective: Color, change: &Change, from: &[i16], to: &mut [i16]) {
    let row = |entry: Option<(Piece, Square)>| {
        entry.map(|(piece, sq)| net.row(feature(perspective, piece, sq)))
    };
    match (
        row(change.added[0]),
        row(change.added[1]),
        row(change.removed[0]),
        row(change.removed[1]),
    ) {
        (Some(a), None, Some(r), None) => {
            for (((t, &f), &a), &r) in to.iter_mut().zip(from).zip(a).zip(r) {
                *t = f.wrapping_add(a).wrapping_sub(r);
            }
        }
        (Some(a), None, Some(r1), Some(r2)) => {
            for ((((t, &f), &a), &r1), &r2) in to.iter_mut().zip(from).zip(a).zip(r1).zip(r2) {
                *t = f.wrapping_add(a).wrapping_sub(r1).wrapping_sub(r2);
            }
        }
        (a1, a2, r1, r2) => {
            to.copy_from_slice(from);
            for a in [a1, a2].into_iter().flatten() {
                add(to, a);
            }
            for r in [r1, r2].into_iter().flatten() {
                for (t, &w) in to.iter_mut().zip(r) {
                    *t = t.wrapping_sub(w);
                }
            }
        }
    }
}

#[inline(always)]
fn add(acc: &mut [i16], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
}
