//! The board: piece placement, side to move, castling rights, en passant,
//! counters, the Zobrist key, and making moves.
//!
//! Boards are copied to make a move (copy-make): the struct is small, a copy
//! is a few cache lines, and nothing needs undoing.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::{
    zobrist, Bitboard, CastleSide, CastlingRights, Color, Move, MoveKind, Piece, PieceKind, Rank,
    Square,
};

#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    by_kind: [Bitboard; 6],
    by_color: [Bitboard; 2],
    mailbox: [Option<Piece>; 64],
    side: Color,
    castling: CastlingRights,
    /// Set only when the side to move has a legal en-passant capture, so that
    /// positions that differ only by an unusable target square hash alike.
    ep: Option<Square>,
    halfmove: u16,
    fullmove: u16,
    key: u64,
    pawn_key: u64,
    /// Pieces giving check to the side to move.
    checkers: Bitboard,
    /// Pieces of the side to move pinned to their own king.
    pinned: Bitboard,
}

impl Board {
    /// An empty board, to be filled by the FEN reader.
    pub(crate) fn empty() -> Board {
        Board {
            by_kind: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [None; 64],
            side: Color::White,
            castling: CastlingRights::NONE,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            pawn_key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        }
    }

    /// The classical start position.
    pub fn startpos() -> Board {
        Board::from_fen(crate::fen::STARTPOS).expect("the start position FEN is valid")
    }

    // ----- Queries -----

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }

    #[inline(always)]
    pub fn pieces(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    #[inline(always)]
    pub fn colored(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline(always)]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces_of(color, PieceKind::King).lsb()
    }

    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.is_nonempty()
    }

    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    #[inline(always)]
    pub fn castling_rights(&self) -> &CastlingRights {
        &self.castling
    }

    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The Zobrist key of the position (placement, side, castling, en passant).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key the position will have after `m`, but for the castling rights
    /// and the en passant square, which it leaves as they are: what a table
    /// needs to start loading the child's entry before the move is made.
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.mailbox[from.index()] else {
            return self.key;
        };
        let mut key = self.key ^ zobrist::side() ^ zobrist::piece(piece, from);
        if m.kind() == MoveKind::Castle {
            let (king_to, rook_to) = m.castle_destinations();
            let rook = Piece::new(piece.color(), PieceKind::Rook);
            return key
                ^ zobrist::piece(rook, to)
                ^ zobrist::piece(piece, king_to)
                ^ zobrist::piece(rook, rook_to);
        }
        let captured_on = if m.kind() == MoveKind::EnPassant {
            Square::new(to.file(), from.rank())
        } else {
            to
        };
        if let Some(captured) = self.mailbox[captured_on.index()] {
            key ^= zobrist::piece(captured, captured_on);
        }
        let placed = m
            .promotion_piece()
            .map_or(piece, |kind| Piece::new(piece.color(), kind));
        key ^ zobrist::piece(placed, to)
    }

    /// The Zobrist key of the pawns and kings alone, for a pawn-structure cache.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// Bishops and queens (diagonal sliders) of `color`.
    #[inline(always)]
    pub fn diagonal_sliders(&self, color: Color) -> Bitboard {
        (self.pieces(PieceKind::Bishop) | self.pieces(PieceKind::Queen)) & self.colored(color)
    }

    /// Rooks and queens (orthogonal sliders) of `color`.
    #[inline(always)]
    pub fn orthogonal_sliders(&self, color: Color) -> Bitboard {
        (self.pieces(PieceKind::Rook) | self.pieces(PieceKind::Queen)) & self.colored(color)
    }

    /// All pieces of both colours that attack `sq`, with `occ` as the blockers.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        (pawn_attacks(Color::White, sq) & self.pieces_of(Color::Black, PieceKind::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces_of(Color::White, PieceKind::Pawn))
            | (knight_attacks(sq) & self.pieces(PieceKind::Knight))
            | (king_attacks(sq) & self.pieces(PieceKind::King))
            | (bishop_attacks(sq, occ)
                & (self.pieces(PieceKind::Bishop) | self.pieces(PieceKind::Queen)))
            | (rook_attacks(sq, occ)
                & (self.pieces(PieceKind::Rook) | self.pieces(PieceKind::Queen)))
    }

    /// Whether a piece of `by` attacks `sq`, with `occ` as the blockers.
    #[inline]
    pub fn is_attacked_by(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.colored(by);
        (pawn_attacks(!by, sq) & self.pieces(PieceKind::Pawn) & them).is_nonempty()
            || (knight_attacks(sq) & self.pieces(PieceKind::Knight) & them).is_nonempty()
            || (king_attacks(sq) & self.pieces(PieceKind::King) & them).is_nonempty()
            || (bishop_attacks(sq, occ) & self.diagonal_sliders(by)).is_nonempty()
            || (rook_attacks(sq, occ) & self.orthogonal_sliders(by)).is_nonempty()
    }

    /// Pieces of either colour that block a slider of `by` from `target`:
    /// the pins when they are `target`'s own pieces, discovered-check
    /// candidates when they are `by`'s.
    pub fn blockers_for(&self, target: Square, by: Color) -> Bitboard {
        let occ = self.occupied();
        let snipers = (rook_attacks(target, Bitboard::EMPTY) & self.orthogonal_sliders(by))
            | (bishop_attacks(target, Bitboard::EMPTY) & self.diagonal_sliders(by));
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let b = between(target, sniper) & occ;
            if b.is_nonempty() && !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    // ----- Castling and en passant legality (shared by generation and `is_legal`) -----

    /// Whether the side to move may castle on `side` now: the right exists, the
    /// king is not in check, every square either piece travels over or lands
    /// on is empty but for the two of them, the king crosses no attacked
    /// square, and the king is not in check once the rook has moved (the rook
    /// may have been shielding it along the back rank).
    pub fn castle_is_legal(&self, side: CastleSide) -> bool {
        let us = self.side;
        let Some(rook_from) = self.castling.rook_square(us, side) else {
            return false;
        };
        if self.in_check() || !self.castle_path_is_clear(side, rook_from) {
            return false;
        }
        let (king_to, _) = side.destinations(us);
        let occ = self.occupied();
        between(self.king_square(us), king_to).all(|sq| !self.is_attacked_by(sq, !us, occ))
            && self.castle_lands_safely(side, rook_from)
    }

    /// `castle_is_legal` for the generator, which knows that the king is not
    /// in check and has `danger`: the squares the opponent attacks with the
    /// king lifted off the board. That map still has the rook on its square,
    /// so only a rank attack that the rook was blocking needs another look.
    #[inline]
    pub(crate) fn castle_is_legal_given(
        &self,
        side: CastleSide,
        rook_from: Square,
        danger: impl FnOnce() -> Bitboard,
    ) -> bool {
        let us = self.side;
        let king_from = self.king_square(us);
        let (king_to, rook_to) = side.destinations(us);
        if !self.castle_path_is_clear(side, rook_from)
            || ((between(king_from, king_to) | king_to) & danger()).is_nonempty()
        {
            return false;
        }
        let after = (self.occupied() ^ king_from ^ rook_from) | king_to | rook_to;
        (rook_attacks(king_to, after) & self.orthogonal_sliders(!us)).is_empty()
    }

    /// Whether every square the king and the rook travel over or land on is
    /// empty but for the two of them.
    #[inline]
    fn castle_path_is_clear(&self, side: CastleSide, rook_from: Square) -> bool {
        let king_from = self.king_square(self.side);
        let (king_to, rook_to) = side.destinations(self.side);
        let movers = Bitboard::from(king_from) | rook_from;
        let path = between(king_from, king_to) | king_to | between(rook_from, rook_to) | rook_to;
        (path & self.occupied() & !movers).is_empty()
    }

    /// Whether the king is safe on its castling square with the rook moved.
    #[inline]
    fn castle_lands_safely(&self, side: CastleSide, rook_from: Square) -> bool {
        let king_from = self.king_square(self.side);
        let (king_to, rook_to) = side.destinations(self.side);
        let after = (self.occupied() ^ king_from ^ rook_from) | king_to | rook_to;
        !self.is_attacked_by(king_to, !self.side, after)
    }

    /// Whether the pawn on `from` may capture en passant onto `ep` without
    /// leaving its king attacked (the captured pawn may be pinned along the
    /// rank together with the capturing one).
    pub(crate) fn ep_capture_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.side;
        let captured = Square::new(ep.file(), from.rank());
        let occ = (self.occupied() ^ from ^ captured) | ep;
        let king = self.king_square(us);
        let attackers =
            self.attackers_to(king, occ) & self.colored(!us) & !Bitboard::from(captured);
        attackers.is_empty()
    }

    // ----- Making moves -----

    fn put(&mut self, piece: Piece, sq: Square) {
        self.by_kind[piece.kind().index()] |= sq;
        self.by_color[piece.color().index()] |= sq;
        self.mailbox[sq.index()] = Some(piece);
        let k = zobrist::piece(piece, sq);
        self.key ^= k;
        if matches!(piece.kind(), PieceKind::Pawn | PieceKind::King) {
            self.pawn_key ^= k;
        }
    }

    fn remove(&mut self, piece: Piece, sq: Square) {
        self.by_kind[piece.kind().index()] ^= sq;
        self.by_color[piece.color().index()] ^= sq;
        self.mailbox[sq.index()] = None;
        let k = zobrist::piece(piece, sq);
        self.key ^= k;
        if matches!(piece.kind(), PieceKind::Pawn | PieceKind::King) {
            self.pawn_key ^= k;
        }
    }

    /// `remove` from `from` and `put` on `to` in one go.
    fn shift(&mut self, piece: Piece, from: Square, to: Square) {
        let squares = Bitboard::from(from) | to;
        self.by_kind[piece.kind().index()] ^= squares;
        self.by_color[piece.color().index()] ^= squares;
        self.mailbox[from.index()] = None;
        self.mailbox[to.index()] = Some(piece);
        let k = zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
        self.key ^= k;
        if matches!(piece.kind(), PieceKind::Pawn | PieceKind::King) {
            self.pawn_key ^= k;
        }
    }

    /// Places a piece while building a position (FEN reader).
    pub(crate) fn place(&mut self, piece: Piece, sq: Square) {
        self.put(piece, sq);
    }

    pub(crate) fn set_side(&mut self, side: Color) {
        self.side = side;
    }

    pub(crate) fn set_castling(&mut self, rights: CastlingRights) {
        self.castling = rights;
    }

    pub(crate) fn set_counters(&mut self, halfmove: u16, fullmove: u16) {
        self.halfmove = halfmove;
        self.fullmove = fullmove;
    }

    /// Finishes a position built piece by piece: computes the key, the check
    /// information and whether the en-passant square `ep` is usable.
    pub(crate) fn finish(&mut self, ep: Option<Square>) {
        self.update_check_info();
        self.ep = ep.filter(|&sq| self.has_legal_ep_capture(sq));
        self.key = self.compute_key();
    }

    /// The same position with the colours exchanged: the ranks mirrored,
    /// every piece of the other colour, the other side to move, and the
    /// castling rights and en-passant square mirrored with them. A sound
    /// evaluation scores it as it scores `self`, from the side to move.
    pub fn flipped(&self) -> Board {
        let mirror = |sq: Square| sq.relative(Color::Black);
        let mut board = Board::empty();
        for sq in self.occupied() {
            if let Some(p) = self.piece_on(sq) {
                board.place(Piece::new(!p.color(), p.kind()), mirror(sq));
            }
        }
        let mut rights = CastlingRights::NONE;
        for (color, side, rook) in self.castling.iter() {
            rights.set(!color, side, Some(rook.file()));
        }
        board.set_side(!self.side);
        board.set_castling(rights);
        board.set_counters(self.halfmove, self.fullmove);
        board.finish(self.ep.map(mirror));
        board
    }

    fn update_check_info(&mut self) {
        self.update_check_info_for(self.side);
    }

    #[inline(always)]
    fn update_check_info_for(&mut self, us: Color) {
        let them = !us;
        let king = self.king_square(us);
        let occ = self.occupied();
        // `attackers_to` for one side and without kings, which never check.
        let leapers = (pawn_attacks(us, king) & self.pieces(PieceKind::Pawn))
            | (knight_attacks(king) & self.pieces(PieceKind::Knight));
        self.checkers = (leapers & self.colored(them))
            | (bishop_attacks(king, occ) & self.diagonal_sliders(them))
            | (rook_attacks(king, occ) & self.orthogonal_sliders(them));
        self.pinned = self.blockers_for(king, them) & self.colored(us);
    }

    fn has_legal_ep_capture(&self, ep: Square) -> bool {
        let us = self.side;
        let mut capturers = pawn_attacks(!us, ep) & self.pieces_of(us, PieceKind::Pawn);
        if capturers.is_empty() || ep.rank() != Rank::R6.relative(us) {
            return false;
        }
        let pushed = Square::new(ep.file(), Rank::R5.relative(us));
        if self.piece_on(pushed) != Some(Piece::new(!us, PieceKind::Pawn))
            || self.piece_on(ep).is_some()
        {
            return false;
        }
        capturers.any(|from| self.ep_capture_is_legal(from, ep))
    }

    /// Plays a move known to be legal (from the generator, or checked with
    /// `is_legal`). The key is updated incrementally.
    pub fn make_move(&mut self, m: Move) {
        // With the side a constant, every colour-dependent index folds away.
        match self.side {
            Color::White => self.make_move_for::<true>(m),
            Color::Black => self.make_move_for::<false>(m),
        }
    }

    #[inline(always)]
    fn make_move_for<const WHITE: bool>(&mut self, m: Move) {
        let us = if WHITE { Color::White } else { Color::Black };
        let them = !us;
        let from = m.from();
        let to = m.to();
        let castling_before = self.castling.rook_squares();

        if let Some(ep) = self.ep.take() {
            self.key ^= zobrist::en_passant(ep.file());
        }
        self.halfmove += 1;
        let mut ep_candidate = None;

        if m.kind() == MoveKind::Castle {
            let (king_to, rook_to) = m.castle_destinations();
            let king = Piece::new(us, PieceKind::King);
            let rook = Piece::new(us, PieceKind::Rook);
            self.remove(king, from);
            self.remove(rook, to);
            self.put(king, king_to);
            self.put(rook, rook_to);
            self.castling.clear(us);
        } else {
            let Some(piece) = self.mailbox[from.index()] else {
                debug_assert!(false, "make_move {m:?}: no piece on {from}");
                return;
            };
            if m.kind() == MoveKind::EnPassant {
                let captured = Square::new(to.file(), from.rank());
                self.remove(Piece::new(them, PieceKind::Pawn), captured);
            } else if let Some(captured) = self.mailbox[to.index()] {
                self.remove(captured, to);
                self.halfmove = 0;
            }
            match m.promotion_piece() {
                Some(kind) => {
                    self.remove(piece, from);
                    self.put(Piece::new(us, kind), to);
                }
                None => self.shift(piece, from, to),
            }
            match piece.kind() {
                PieceKind::Pawn => {
                    self.halfmove = 0;
                    if from.index() ^ to.index() == 16 {
                        ep_candidate = Square::from_index(((from.index() + to.index()) / 2) as u8);
                    }
                }
                PieceKind::King => self.castling.clear(us),
                _ => {}
            }
            self.castling.remove_rook_squares(Bitboard::from(from) | to);
        }

        let lost_rights = castling_before ^ self.castling.rook_squares();
        if lost_rights.is_nonempty() {
            self.key ^= zobrist::castling_rooks(lost_rights);
        }
        self.side = them;
        self.key ^= zobrist::side();
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.update_check_info_for(them);
        if let Some(ep) = ep_candidate {
            if self.has_legal_ep_capture(ep) {
                self.ep = Some(ep);
                self.key ^= zobrist::en_passant(ep.file());
            }
        }
    }

    /// Passes the move to the opponent (for null-move pruning). Not legal in check.
    pub fn make_null_move(&mut self) {
        debug_assert!(!self.in_check());
        if let Some(ep) = self.ep.take() {
            self.key ^= zobrist::en_passant(ep.file());
        }
        self.side = !self.side;
        self.key ^= zobrist::side();
        self.halfmove += 1;
        self.update_check_info();
    }

    /// The key computed from scratch; always equal to `key()`.
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied() {
            if let Some(p) = self.piece_on(sq) {
                key ^= zobrist::piece(p, sq);
            }
        }
        key ^= zobrist::castling(&self.castling);
        if let Some(ep) = self.ep {
            key ^= zobrist::en_passant(ep.file());
        }
        if self.side == Color::Black {
            key ^= zobrist::side();
        }
        key
    }

    // ----- Draws -----

    /// Neither side can possibly mate: bare kings, a single minor piece, or
    /// only bishops all on squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.pieces(PieceKind::Pawn)
            | self.pieces(PieceKind::Rook)
            | self.pieces(PieceKind::Queen);
        if heavy.is_nonempty() {
            return false;
        }
        let knights = self.pieces(PieceKind::Knight);
        let bishops = self.pieces(PieceKind::Bishop);
        let minors = knights | bishops;
        if minors.count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty()
                || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }

    /// Whether `to` lies on the line through the king and the pinned piece on
    /// `from` (so the pinned piece may move there).
    #[inline(always)]
    pub(crate) fn pin_allows(&self, from: Square, to: Square) -> bool {
        !self.pinned.contains(from) || line(self.king_square(self.side), from).contains(to)
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Board({})",
            self.to_fen(crate::CastlingNotation::Shredder)
        )
    }
}
