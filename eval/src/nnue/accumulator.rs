//! The first layer's outputs for both perspectives, one entry per ply of
//! the search. Making a move records which pieces it moved; the entry is
//! computed from its parent's only when a position at that ply is
//! evaluated, so that moves cut off before their evaluation cost nothing.
//! A perspective whose view of the board changed on the way (its king
//! crossed to the other half of the board, or into another king bucket) is
//! refreshed instead, from the refresh cache.

use super::network::{Inputs, Network, View};
use chess::{Bitboard, Board, Color, Move, Piece, PieceKind, Square};

/// The pieces a move took away and put down: at most two of each
/// (castling moves king and rook; a capture removes two pieces).
#[derive(Clone, Copy, Debug, Default)]
struct PieceDelta {
    added: [Option<(Piece, Square)>; 2],
    removed: [Option<(Piece, Square)>; 2],
    /// Whether the move changed the view of each perspective (by colour
    /// index): its king moved to another half or bucket.
    view_changed: [bool; 2],
}

impl PieceDelta {
    /// What `m` changes on `board`, the position before it, for a network
    /// whose inputs are `inputs`.
    fn of(board: &Board, m: Move, inputs: Inputs) -> PieceDelta {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = board.piece_on(from) else {
            return PieceDelta::default();
        };
        let color = piece.color();
        let mut view_changed = [false; 2];
        let mut king_moves = |king_to: Square| {
            view_changed[color.index()] = inputs.view(color, from) != inputs.view(color, king_to);
        };
        if m.is_castle() {
            let (king_to, rook_to) = m.castle_destinations();
            let rook = Piece::new(color, PieceKind::Rook);
            king_moves(king_to);
            return PieceDelta {
                added: [Some((piece, king_to)), Some((rook, rook_to))],
                removed: [Some((piece, from)), Some((rook, to))],
                view_changed,
            };
        }
        if piece.kind() == PieceKind::King {
            king_moves(to);
        }
        let captured = if m.is_en_passant() {
            let sq = Square::new(to.file(), from.rank());
            Some((Piece::new(!color, PieceKind::Pawn), sq))
        } else {
            board.piece_on(to).map(|p| (p, to))
        };
        let placed = m
            .promotion_piece()
            .map_or(piece, |kind| Piece::new(color, kind));
        PieceDelta {
            added: [Some((placed, to)), None],
            removed: [Some((piece, from)), captured],
            view_changed,
        }
    }
}

const PERSPECTIVES: [Color; 2] = [Color::White, Color::Black];

pub(crate) struct Accumulators {
    hidden: usize,
    /// Entry `ply` is `values[ply * 2 * hidden..]`: White's perspective,
    /// then Black's.
    values: Vec<i16>,
    /// The change from the entry below; unused for the root.
    changes: Vec<PieceDelta>,
    /// Whether each perspective (by colour index) of an entry is up to date.
    computed: Vec<[bool; 2]>,
    top: usize,
    cache: RefreshCache,
}

impl Accumulators {
    pub fn new(hidden: usize) -> Accumulators {
        Accumulators {
            hidden,
            values: Vec::new(),
            changes: Vec::new(),
            computed: Vec::new(),
            top: 0,
            cache: RefreshCache::new(hidden),
        }
    }

    /// Starts again from `board`, refreshed.
    pub fn refresh(&mut self, net: &Network, board: &Board) {
        self.top = 0;
        self.reserve(0);
        for perspective in PERSPECTIVES {
            self.refresh_perspective(net, board, perspective);
        }
    }

    /// The current entry's `perspective`, brought up to `board` in the
    /// refresh cache and copied from there.
    fn refresh_perspective(&mut self, net: &Network, board: &Board, perspective: Color) {
        let h = self.hidden;
        let at = (self.top * 2 + perspective.index()) * h;
        let view = net.inputs().view_of(perspective, board);
        self.values[at..at + h].copy_from_slice(self.cache.update(net, view, board));
        self.computed[self.top][perspective.index()] = true;
    }

    /// Makes room for entry `ply`; the stack only grows, so the search
    /// allocates once per new depth and never after.
    fn reserve(&mut self, ply: usize) {
        if self.computed.len() <= ply {
            self.values.resize((ply + 1) * 2 * self.hidden, 0);
            self.changes.resize(ply + 1, PieceDelta::default());
            self.computed.resize(ply + 1, [false; 2]);
        }
    }

    /// `m` is about to be played on `board`.
    pub fn push_move(&mut self, net: &Network, board: &Board, m: Move) {
        self.push(PieceDelta::of(board, m, net.inputs()));
    }

    /// A null move: the pieces stay, the entry is a copy.
    pub fn push_null(&mut self) {
        self.push(PieceDelta::default());
    }

    fn push(&mut self, change: PieceDelta) {
        self.top += 1;
        self.reserve(self.top);
        self.changes[self.top] = change;
        self.computed[self.top] = [false; 2];
    }

    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "more unmakes than makes");
        self.top = self.top.saturating_sub(1);
    }

    /// The current entry, which must be `board`'s, brought up to date for
    /// each perspective from its nearest computed entry below, or from
    /// scratch where its view changed since: (White's perspective,
    /// Black's).
    pub fn current(&mut self, net: &Network, board: &Board) -> (&[i16], &[i16]) {
        for perspective in PERSPECTIVES {
            let side = perspective.index();
            if self.computed[self.top][side] {
                continue;
            }
            let base = (0..self.top)
                .rev()
                .find(|&ply| self.computed[ply][side])
                .unwrap_or(0);
            let path = base + 1..=self.top;
            if path.clone().any(|ply| self.changes[ply].view_changed[side]) {
                self.refresh_perspective(net, board, perspective);
                continue;
            }
            // The view never changed on the way: every entry on it had the
            // view that `board` gives.
            let view = net.inputs().view_of(perspective, board);
            let h = self.hidden;
            for ply in path {
                let (below, above) = self.values.split_at_mut((ply * 2 + side) * h);
                let parent = &below[((ply - 1) * 2 + side) * h..][..h];
                apply(net, view, &self.changes[ply], parent, &mut above[..h]);
                self.computed[ply][side] = true;
            }
        }
        let entry = &self.values[self.top * 2 * self.hidden..(self.top + 1) * 2 * self.hidden];
        entry.split_at(self.hidden)
    }
}

/// The refresh cache (the "Finny table" of other engines): for each view a
/// perspective can take, the first layer's output for the pieces it saw
/// when last refreshed in that view. A refresh adds and removes only the
/// pieces that differ since, a handful where a king stepped across and back,
/// instead of adding a row for every piece on the board.
struct RefreshCache {
    /// One slot a view, each as wide as the hidden layer: slot `view.index()`
    /// starts at `values[view.index() * hidden]`.
    values: Vec<i16>,
    /// The pieces each slot holds, by [`Piece::index`]; `None` until the
    /// slot is first used, when its values are still to be set to the bias.
    pieces: Vec<Option<[Bitboard; 12]>>,
}

impl RefreshCache {
    fn new(hidden: usize) -> RefreshCache {
        RefreshCache {
            values: vec![0; View::COUNT * hidden],
            pieces: vec![None; View::COUNT],
        }
    }

    /// `view`'s slot brought up to `board`'s pieces.
    fn update(&mut self, net: &Network, view: View, board: &Board) -> &[i16] {
        let h = self.values.len() / View::COUNT;
        let acc = &mut self.values[view.index() * h..][..h];
        let held = self.pieces[view.index()].get_or_insert_with(|| {
            acc.copy_from_slice(net.bias());
            [Bitboard::EMPTY; 12]
        });
        for color in [Color::White, Color::Black] {
            for kind in PieceKind::ALL {
                let piece = Piece::new(color, kind);
                let now = board.pieces_of(color, kind);
                let was = std::mem::replace(&mut held[piece.index()], now);
                for sq in now & !was {
                    add(acc, net.row(view.feature(piece, sq)));
                }
                for sq in was & !now {
                    sub(acc, net.row(view.feature(piece, sq)));
                }
            }
        }
        acc
    }
}

/// `to = from` plus the rows of the added pieces minus those of the removed
/// ones. The common shapes (a quiet move, a capture) go in one pass.
#[inline(always)]
fn apply(net: &Network, view: View, change: &PieceDelta, from: &[i16], to: &mut [i16]) {
    let row =
        |entry: Option<(Piece, Square)>| entry.map(|(piece, sq)| net.row(view.feature(piece, sq)));
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
                sub(to, r);
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

#[inline(always)]
fn sub(acc: &mut [i16], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(w);
    }
}
