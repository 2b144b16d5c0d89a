//! The evaluation proper: attack maps, pieces, threats, passed pawns and
//! king danger, summed as feature counts times weights.

use crate::endgame::{self, Material, Special, SCALE_NORMAL};
use crate::features::*;
use crate::masks::{camp, forward_file, king_flank, LONG_DIAGONALS};
use crate::pawns::{evaluate_pawns, PawnCache, PawnEntry};
use crate::weights::WEIGHTS;
use crate::{Tracer, S, TOTAL_PHASE};
use chess::attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks};
use chess::{Bitboard, Board, CastleSide, Color, File, PieceKind, Rank, Square};

const P: usize = 0;
const N: usize = 1;
const B: usize = 2;
const R: usize = 3;
const Q: usize = 4;
const K: usize = 5;

/// Evaluations are kept inside this bound, far from mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

struct Eval<'a, T: Tracer> {
    board: &'a Board,
    t: &'a mut T,
    score: [S; 2],
    occ: Bitboard,
    pieces: [[Bitboard; 6]; 2],
    colored: [Bitboard; 2],
    king: [Square; 2],
    attacked_by: [[Bitboard; 6]; 2],
    attacked: [Bitboard; 2],
    attacked2: [Bitboard; 2],
    mobility_area: [Bitboard; 2],
    king_zone: [Bitboard; 2],
    /// Pieces of each colour (knight .. queen) attacking the enemy king zone.
    ks_attackers: [[i32; 4]; 2],
    ks_count: [i32; 2],
    /// Attacked squares of the enemy king zone, summed over the attackers.
    ks_attacks: [i32; 2],
    /// The squares that each side's pawns attack or may attack as they advance.
    pawn_span: [Bitboard; 2],
}

/// The result of one evaluation, from White's side.
pub(crate) struct Assessment {
    pub white: i32,
    pub phase: i32,
    pub scale: i32,
    pub special: Option<Special>,
}

/// Game phase: 24 with all pieces on the board, 0 with none.
#[inline]
pub(crate) fn phase_of(m: &[Material; 2]) -> i32 {
    let p: i32 = m
        .iter()
        .map(|s| s.knights + s.bishops + 2 * s.rooks + 4 * s.queens)
        .sum();
    p.min(TOTAL_PHASE)
}

/// Evaluates `board` from White's side; the pawn entry comes from `cache`
/// when there is one and tracing is off.
pub(crate) fn evaluate<T: Tracer>(
    board: &Board,
    cache: Option<&mut PawnCache>,
    t: &mut T,
) -> Assessment {
    let m = [
        Material::of(board, Color::White),
        Material::of(board, Color::Black),
    ];
    let phase = phase_of(&m);
    if let Some((special, white)) = endgame::special(board, &m) {
        return Assessment {
            white: white.clamp(-EVAL_LIMIT, EVAL_LIMIT),
            phase,
            scale: SCALE_NORMAL,
            special: Some(special),
        };
    }
    let pawn_entry = match cache {
        Some(cache) if !T::ON => cache.probe(board),
        _ => evaluate_pawns(board, t),
    };
    let mut e = Eval::new(board, t);
    e.score[0] += pawn_entry.score;
    e.run(&pawn_entry);
    let total = e.score[0] - e.score[1];
    let scale = endgame::scale_factor(board, &m, total.eg, pawn_entry.passed);
    let v = (total.mg * phase * SCALE_NORMAL + total.eg * (TOTAL_PHASE - phase) * scale)
        / (TOTAL_PHASE * SCALE_NORMAL);
    Assessment {
        white: v.clamp(-EVAL_LIMIT, EVAL_LIMIT),
        phase,
        scale,
        special: None,
    }
}

impl<'a, T: Tracer> Eval<'a, T> {
    fn new(board: &'a Board, t: &'a mut T) -> Eval<'a, T> {
        let mut pieces = [[Bitboard::EMPTY; 6]; 2];
        for (own, color) in pieces.iter_mut().zip(Color::BOTH) {
            for k in PieceKind::ALL {
                own[k.index()] = board.pieces_of(color, k);
            }
        }
        let colored = Color::BOTH.map(|color| board.colored(color));
        let king = Color::BOTH.map(|color| board.king_square(color));
        let occ = colored[0] | colored[1];
        let mut attacked_by = [[Bitboard::EMPTY; 6]; 2];
        let mut attacked = [Bitboard::EMPTY; 2];
        let mut attacked2 = [Bitboard::EMPTY; 2];
        let mut king_zone = [Bitboard::EMPTY; 2];
        let mut pawn_span = [Bitboard::EMPTY; 2];
        for (c, us) in Color::BOTH.into_iter().enumerate() {
            let pa = pieces[c][P].pawn_attacks(us);
            let ka = king_attacks(king[c]);
            attacked_by[c][P] = pa;
            attacked_by[c][K] = ka;
            attacked[c] = pa | ka;
            attacked2[c] = (pa & ka) | pieces[c][P].pawn_double_attacks(us);
            let f = king[c].file().index().clamp(1, 6);
            let r = king[c].rank().index().clamp(1, 6);
            let centre = Square::new(File::ALL[f], Rank::ALL[r]);
            king_zone[c] = king_attacks(centre) | centre;
            pawn_span[c] = pa.fill_forward(us);
        }
        let mut mobility_area = [Bitboard::EMPTY; 2];
        for (c, us) in Color::BOTH.into_iter().enumerate() {
            let them = !us;
            let low_ranks =
                Bitboard::rank(Rank::R2.relative(us)) | Bitboard::rank(Rank::R3.relative(us));
            let stuck = pieces[c][P] & (occ.forward(them) | low_ranks);
            mobility_area[c] =
                !(attacked_by[them.index()][P] | stuck | pieces[c][K] | pieces[c][Q]);
        }
        Eval {
            board,
            t,
            score: [S::default(); 2],
            occ,
            pieces,
            colored,
            king,
            attacked_by,
            attacked,
            attacked2,
            mobility_area,
            king_zone,
            ks_attackers: [[0; 4]; 2],
            ks_count: [0; 2],
            ks_attacks: [0; 2],
            pawn_span,
        }
    }

    #[inline(always)]
    fn term(&mut self, f: usize, c: usize, n: i32) {
        self.score[c] += WEIGHTS[f] * n;
        if T::ON {
            self.t.add(f, c, n);
        }
    }

    fn run(&mut self, pawns: &PawnEntry) {
        self.pieces(0);
        self.pieces(1);
        for c in 0..2 {
            self.space(c);
            self.king_danger(c);
            self.threats(c);
            self.passed(c, pawns.passed & self.pieces[c][P]);
        }
        let stm = self.board.side_to_move().index();
        self.term(TEMPO, stm, 1);
    }

    #[inline(always)]
    fn record(&mut self, c: usize, kind: usize, att: Bitboard) {
        self.attacked2[c] |= self.attacked[c] & att;
        self.attacked[c] |= att;
        self.attacked_by[c][kind] |= att;
        let zone = att & self.king_zone[c ^ 1];
        if zone.is_nonempty() {
            self.ks_attackers[c][kind - 1] += 1;
            self.ks_count[c] += 1;
            self.ks_attacks[c] += zone.count() as i32;
        }
    }

    fn pieces(&mut self, c: usize) {
        let us = Color::BOTH[c];
        let them = c ^ 1;
        let occ = self.occ;
        let own_pawns = self.pieces[c][P];
        let all_pawns = own_pawns | self.pieces[them][P];
        let area = self.mobility_area[c];
        let outpost_ranks = Bitboard::rank(Rank::R4.relative(us))
            | Bitboard::rank(Rank::R5.relative(us))
            | Bitboard::rank(Rank::R6.relative(us));
        let outposts = outpost_ranks & self.attacked_by[c][P] & !self.pawn_span[them];
        let back_rank = Bitboard::rank(Rank::R1.relative(us));
        // Corner squares (a1, h1 from the owner's side), the pawn square in
        // front of them diagonally, and the square in front of that pawn.
        let relative = |file: File, rank: Rank| Square::new(file, rank).relative(us);
        let corners = [
            (
                relative(File::A, Rank::R1),
                relative(File::B, Rank::R2),
                relative(File::B, Rank::R3),
            ),
            (
                relative(File::H, Rank::R1),
                relative(File::G, Rank::R2),
                relative(File::G, Rank::R3),
            ),
        ];

        // Knights.
        for s in self.pieces[c][N] {
            self.term(MATERIAL + N, c, 1);
            self.term(PST + N * 64 + s.relative(us).index(), c, 1);
            let att = knight_attacks(s);
            self.record(c, N, att);
            self.term(MOBILITY_KNIGHT + (att & area).count() as usize, c, 1);
            self.term(KING_PROTECTOR, c, s.distance(self.king[c]));
            if outposts.contains(s) {
                self.term(KNIGHT_OUTPOST, c, 1);
            }
            if (Bitboard::from_square(s).forward(us) & all_pawns).is_nonempty() {
                self.term(MINOR_BEHIND_PAWN, c, 1);
            }
        }

        // Bishops.
        let bishops = self.pieces[c][B];
        if (bishops & Bitboard::LIGHT_SQUARES).is_nonempty()
            && (bishops & Bitboard::DARK_SQUARES).is_nonempty()
        {
            self.term(BISHOP_PAIR, c, 1);
        }
        for s in bishops {
            self.term(MATERIAL + B, c, 1);
            self.term(PST + B * 64 + s.relative(us).index(), c, 1);
            let att = bishop_attacks(s, occ ^ self.pieces[c][Q]);
            self.record(c, B, att);
            self.term(MOBILITY_BISHOP + (att & area).count() as usize, c, 1);
            self.term(KING_PROTECTOR + 1, c, s.distance(self.king[c]));
            if LONG_DIAGONALS.contains(s)
                && (bishop_attacks(s, all_pawns) & Bitboard::CENTRE).count() > 1
            {
                self.term(LONG_DIAGONAL, c, 1);
            }
            if outposts.contains(s) {
                self.term(BISHOP_OUTPOST, c, 1);
            }
            if (Bitboard::from_square(s).forward(us) & all_pawns).is_nonempty() {
                self.term(MINOR_BEHIND_PAWN, c, 1);
            }
            let colour = if Bitboard::LIGHT_SQUARES.contains(s) {
                Bitboard::LIGHT_SQUARES
            } else {
                Bitboard::DARK_SQUARES
            };
            let same = (own_pawns & colour).count() as i32;
            if same != 0 {
                self.term(BISHOP_PAWNS, c, same);
            }
            for &(corner, pawn, front) in &corners {
                if s == corner && own_pawns.contains(pawn) {
                    self.term(CORNER_BISHOP, c, 1);
                    if occ.contains(front) {
                        self.term(CORNER_BISHOP_BLOCKED, c, 1);
                    }
                }
            }
        }

        let undeveloped = ((self.pieces[c][N] | bishops) & back_rank).count() as i32;
        if undeveloped != 0 {
            self.term(UNDEVELOPED_MINOR, c, undeveloped);
        }

        // Rooks.
        let enemy_king_rank = self.king[them].rank().relative(us);
        let seventh = Bitboard::rank(Rank::R7.relative(us));
        for s in self.pieces[c][R] {
            self.term(MATERIAL + R, c, 1);
            self.term(PST + R * 64 + s.relative(us).index(), c, 1);
            let att = rook_attacks(s, occ ^ self.pieces[c][R] ^ self.pieces[c][Q]);
            self.record(c, R, att);
            let mob = (att & area).count();
            self.term(MOBILITY_ROOK + mob as usize, c, 1);
            let file = Bitboard::file(s.file());
            if (file & all_pawns).is_empty() {
                self.term(ROOK_OPEN, c, 1);
            } else if (file & own_pawns).is_empty() {
                self.term(ROOK_HALF_OPEN, c, 1);
            }
            if seventh.contains(s)
                && (enemy_king_rank == Rank::R8 || (self.pieces[them][P] & seventh).is_nonempty())
            {
                self.term(ROOK_SEVENTH, c, 1);
            }
            if mob <= 3 {
                let kf = self.king[c].file();
                let rf = s.file();
                if (kf < File::E) == (rf < kf) {
                    let rights = self.board.castling_rights().has_any(us);
                    self.term(ROOK_TRAPPED, c, if rights { 1 } else { 2 });
                }
            }
        }

        // Queens.
        for s in self.pieces[c][Q] {
            self.term(MATERIAL + Q, c, 1);
            self.term(PST + Q * 64 + s.relative(us).index(), c, 1);
            let att = queen_attacks(s, occ);
            self.record(c, Q, att);
            self.term(MOBILITY_QUEEN + (att & area).count() as usize, c, 1);
            for &(corner, pawn, _) in &corners {
                if s == corner && own_pawns.contains(pawn) {
                    self.term(CORNER_QUEEN, c, 1);
                }
            }
        }

        let rights = self.board.castling_rights();
        let held = CastleSide::BOTH
            .iter()
            .filter(|&&side| rights.rook_file(us, side).is_some())
            .count() as i32;
        if held != 0 {
            self.term(CASTLING_RIGHTS, c, held);
        }
        if (all_pawns & king_flank(self.king[c].file())).is_empty() {
            self.term(PAWNLESS_FLANK, c, 1);
        }
    }

    /// Safe room for `c`'s pieces behind its pawns, which matters while
    /// there are pieces to use it.
    fn space(&mut self, c: usize) {
        let us = Color::BOTH[c];
        let them = c ^ 1;
        let own_pawns = self.pieces[c][P];
        let centre_files = Bitboard::file(File::C)
            | Bitboard::file(File::D)
            | Bitboard::file(File::E)
            | Bitboard::file(File::F);
        let own_ranks = Bitboard::rank(Rank::R2.relative(us))
            | Bitboard::rank(Rank::R3.relative(us))
            | Bitboard::rank(Rank::R4.relative(us));
        let safe = centre_files & own_ranks & !own_pawns & !self.attacked_by[them][P];
        let behind = own_pawns.forward(!us).fill_forward(!us) & !self.attacked[them];
        let room = safe.count() as i32 + (safe & behind).count() as i32;
        let pieces = ((self.colored[c] & !own_pawns & !self.pieces[c][K]).count() as usize).min(7);
        if room != 0 {
            self.term(SPACE + pieces, c, room);
        }
    }

    /// The danger to `c`'s king from the other side's pieces.
    fn king_danger(&mut self, c: usize) {
        let att = c ^ 1;
        let queens = self.pieces[att][Q].count() as i32;
        if self.ks_count[att] <= 1 - queens {
            return;
        }
        let ksq = self.king[c];
        let zone = self.king_zone[c];
        let mut f = [0i32; NUM_SAFETY];
        for k in 0..4 {
            f[KS_ATTACKER - KS_START + k] = self.ks_attackers[att][k];
        }
        f[KS_ATTACKS - KS_START] = self.ks_attacks[att];
        let flank = king_flank(ksq.file()) & camp(Color::BOTH[c]);
        f[KS_FLANK_ATTACK - KS_START] = (self.attacked[att] & flank).count() as i32
            + (self.attacked2[att] & flank).count() as i32;
        f[KS_FLANK_DEFENSE - KS_START] = (self.attacked[c] & flank).count() as i32;
        let weak = self.attacked[att]
            & !self.attacked2[c]
            & (!self.attacked[c] | self.attacked_by[c][K] | self.attacked_by[c][Q]);
        f[KS_WEAK - KS_START] = (weak & zone).count() as i32;
        let safe = !self.colored[att] & (!self.attacked[c] | (weak & self.attacked2[att]));
        let knight_checks = knight_attacks(ksq) & self.attacked_by[att][N];
        let bishop_lines = bishop_attacks(ksq, self.occ);
        let rook_lines = rook_attacks(ksq, self.occ);
        let bishop_checks = bishop_lines & self.attacked_by[att][B];
        let rook_checks = rook_lines & self.attacked_by[att][R];
        let queen_checks = (bishop_lines | rook_lines) & self.attacked_by[att][Q];
        f[KS_SAFE_CHECK - KS_START] = (knight_checks & safe).count() as i32;
        f[KS_SAFE_CHECK - KS_START + 1] = (bishop_checks & safe).count() as i32;
        f[KS_SAFE_CHECK - KS_START + 2] = (rook_checks & safe).count() as i32;
        f[KS_SAFE_CHECK - KS_START + 3] = (queen_checks & safe).count() as i32;
        f[KS_UNSAFE_CHECK - KS_START] =
            ((knight_checks | bishop_checks | rook_checks) & !safe & !self.colored[att]).count()
                as i32;
        f[KS_NO_QUEEN - KS_START] = i32::from(queens == 0);
        f[KS_BASE - KS_START] = 1;
        let mut s = S::default();
        for (j, &n) in f.iter().enumerate() {
            s += WEIGHTS[KS_START + j] * n;
        }
        let value = S::new(-s.mg * s.mg.max(0) / 720, -s.eg.max(0) / 20);
        self.score[c] += value;
        if T::ON {
            self.t.safety(c, &f, value);
        }
    }

    /// Threats by `c` against the other side's pieces.
    fn threats(&mut self, c: usize) {
        let us = Color::BOTH[c];
        let them = c ^ 1;
        let enemies = self.colored[them] & !self.pieces[them][K];
        let pawn_defended = self.attacked_by[them][P];
        let by_pawn = self.attacked_by[c][P];
        if (by_pawn & enemies & !self.pieces[them][P]).is_nonempty() {
            for k in N..=Q {
                let n = (by_pawn & self.pieces[them][k]).count() as i32;
                if n != 0 {
                    self.term(THREAT_BY_PAWN + k - 1, c, n);
                }
            }
        }
        let heavy = self.pieces[them][R] | self.pieces[them][Q];
        let by_minor = (self.attacked_by[c][N] | self.attacked_by[c][B])
            & ((enemies & !pawn_defended) | heavy);
        if by_minor.is_nonempty() {
            for k in P..=Q {
                let n = (by_minor & self.pieces[them][k]).count() as i32;
                if n != 0 {
                    self.term(THREAT_BY_MINOR + k, c, n);
                }
            }
        }
        let by_rook = self.attacked_by[c][R] & ((enemies & !pawn_defended) | self.pieces[them][Q]);
        if by_rook.is_nonempty() {
            for k in P..=Q {
                let n = (by_rook & self.pieces[them][k]).count() as i32;
                if n != 0 {
                    self.term(THREAT_BY_ROOK + k, c, n);
                }
            }
        }
        let undefended = enemies & !self.attacked[them];
        let by_king = (self.attacked_by[c][K] & undefended).count() as i32;
        if by_king != 0 {
            self.term(THREAT_BY_KING, c, by_king);
        }
        let hanging = (undefended & !self.pieces[them][P] & self.attacked[c]).count() as i32;
        if hanging != 0 {
            self.term(HANGING, c, hanging);
        }
        let strongly_protected =
            self.attacked_by[them][P] | (self.attacked2[them] & !self.attacked2[c]);
        let restricted =
            (self.attacked[them] & self.attacked[c] & !strongly_protected).count() as i32;
        if restricted != 0 {
            self.term(RESTRICTED, c, restricted);
        }
        // Pawn pushes to safe squares that attack a piece.
        let third = Bitboard::rank(Rank::R3.relative(us));
        let mut pushes = self.pieces[c][P].forward(us) & !self.occ;
        pushes |= (pushes & third).forward(us) & !self.occ;
        pushes &= !self.attacked_by[them][P] & (self.attacked[c] | !self.attacked[them]);
        let n = (pushes.pawn_attacks(us) & enemies & !self.pieces[them][P]).count() as i32;
        if n != 0 {
            self.term(PAWN_PUSH_THREAT, c, n);
        }
    }

    /// Passed pawns of `c` with the pieces on the board.
    fn passed(&mut self, c: usize, passed: Bitboard) {
        let us = Color::BOTH[c];
        let them = c ^ 1;
        let enemy_has_pieces = self.colored[them] & !self.pieces[them][P] & !self.pieces[them][K];
        let them_to_move = self.board.side_to_move().index() == them;
        for s in passed {
            let r = s.rank().relative(us).index();
            let front = Bitboard::from_square(s).forward(us);
            if (front & self.occ).is_nonempty() {
                self.term(PASSED_BLOCKED + r, c, 1);
            } else if (front & self.attacked[them]).is_empty() {
                self.term(PASSED_FREE + r, c, 1);
            }
            let path = forward_file(us, s);
            if (path & (self.occ | self.attacked[them])).is_empty() {
                self.term(PASSED_SAFE_PATH, c, 1);
            }
            if enemy_has_pieces.is_empty() && (path & self.occ).is_empty() {
                // The rule of the square.
                let promotion = Square::new(s.file(), Rank::R8.relative(us));
                let moves = (7 - r as i32).min(5);
                let king_moves = self.king[them].distance(promotion) - i32::from(them_to_move);
                if king_moves > moves {
                    self.term(PASSED_UNSTOPPABLE, c, 1);
                }
            }
        }
    }
}
