//! The evaluation proper: attack maps, pieces, threats, passed pawns and
//! king danger, summed as feature counts times weights.

use crate::endgame::{self, Material, Special, SCALE_NORMAL};
use crate::features::*;
use crate::masks::*;
use crate::pawns::{evaluate_pawns, PawnCache, PawnEntry};
use crate::weights::WEIGHTS;
use crate::{Tracer, S, TOTAL_PHASE};
use movegen::attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks};
use movegen::{Bitboard, Board, CastleSide, Color, PieceKind, Square};

const P: usize = 0;
const N: usize = 1;
const B: usize = 2;
const R: usize = 3;
const Q: usize = 4;
const K: usize = 5;

const COLORS: [Color; 2] = [Color::White, Color::Black];

/// Evaluations are kept inside this bound, far from mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

struct Eval<'a, T: Tracer> {
    board: &'a Board,
    t: &'a mut T,
    score: [S; 2],
    occ: u64,
    pieces: [[u64; 6]; 2],
    colored: [u64; 2],
    king: [usize; 2],
    attacked_by: [[u64; 6]; 2],
    attacked: [u64; 2],
    attacked2: [u64; 2],
    mobility_area: [u64; 2],
    king_zone: [u64; 2],
    /// Pieces of each colour (knight .. queen) attacking the enemy king zone.
    ks_attackers: [[i32; 4]; 2],
    ks_count: [i32; 2],
    /// Attacked squares of the enemy king zone, summed over the attackers.
    ks_attacks: [i32; 2],
    /// The squares that each side's pawns attack or may attack as they advance.
    pawn_span: [u64; 2],
}

/// The result of one evaluation, from White's side.
pub(crate) struct Outcome {
    pub white: i32,
    pub phase: i32,
    pub scale: i32,
    pub special: Option<Special>,
}

#[inline(always)]
fn sq(index: usize) -> Square {
    Bitboard(1u64 << index).lsb()
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
) -> Outcome {
    let m = [
        Material::of(board, Color::White),
        Material::of(board, Color::Black),
    ];
    let phase = phase_of(&m);
    if let Some((special, white)) = endgame::special(board, &m) {
        return Outcome {
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
    Outcome {
        white: v.clamp(-EVAL_LIMIT, EVAL_LIMIT),
        phase,
        scale,
        special: None,
    }
}

impl<'a, T: Tracer> Eval<'a, T> {
    fn new(board: &'a Board, t: &'a mut T) -> Eval<'a, T> {
        let mut pieces = [[0u64; 6]; 2];
        for c in 0..2 {
            for k in PieceKind::ALL {
                pieces[c][k.index()] = board.pieces_of(COLORS[c], k).0;
            }
        }
        let colored = [board.colored(Color::White).0, board.colored(Color::Black).0];
        let king = [
            board.king_square(Color::White).index(),
            board.king_square(Color::Black).index(),
        ];
        let occ = colored[0] | colored[1];
        let mut attacked_by = [[0u64; 6]; 2];
        let mut attacked = [0u64; 2];
        let mut attacked2 = [0u64; 2];
        let mut king_zone = [0u64; 2];
        let mut pawn_span = [0u64; 2];
        for c in 0..2 {
            let pa = pawn_attacks(c, pieces[c][P]);
            let ka = king_attacks(sq(king[c])).0;
            attacked_by[c][P] = pa;
            attacked_by[c][K] = ka;
            attacked[c] = pa | ka;
            attacked2[c] = (pa & ka) | pawn_double_attacks(c, pieces[c][P]);
            let f = (king[c] % 8).clamp(1, 6);
            let r = (king[c] / 8).clamp(1, 6);
            let centre = r * 8 + f;
            king_zone[c] = king_attacks(sq(centre)).0 | (1u64 << centre);
            pawn_span[c] = fill_forward(c, pa);
        }
        let mut mobility_area = [0u64; 2];
        for c in 0..2 {
            let them = c ^ 1;
            let low_ranks = if c == 0 {
                rank_mask(1) | rank_mask(2)
            } else {
                rank_mask(6) | rank_mask(5)
            };
            let stuck = pieces[c][P] & (push(them, occ) | low_ranks);
            mobility_area[c] = !(attacked_by[them][P] | stuck | pieces[c][K] | pieces[c][Q]);
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
    fn record(&mut self, c: usize, kind: usize, att: u64) {
        self.attacked2[c] |= self.attacked[c] & att;
        self.attacked[c] |= att;
        self.attacked_by[c][kind] |= att;
        let zone = att & self.king_zone[c ^ 1];
        if zone != 0 {
            self.ks_attackers[c][kind - 1] += 1;
            self.ks_count[c] += 1;
            self.ks_attacks[c] += popcount(zone);
        }
    }

    fn pieces(&mut self, c: usize) {
        let them = c ^ 1;
        let occ = self.occ;
        let own_pawns = self.pieces[c][P];
        let all_pawns = own_pawns | self.pieces[them][P];
        let area = self.mobility_area[c];
        let outpost_ranks = if c == 0 {
            rank_mask(3) | rank_mask(4) | rank_mask(5)
        } else {
            rank_mask(4) | rank_mask(3) | rank_mask(2)
        };
        let outposts = outpost_ranks & self.attacked_by[c][P] & !self.pawn_span[them];
        let back_rank = rank_mask(if c == 0 { 0 } else { 7 });
        // Corner squares (a1, h1 from the owner's side), the pawn square in
        // front of them diagonally, and the square in front of that pawn.
        let corners = [
            (
                relative_square(c, 0),
                relative_square(c, 9),
                relative_square(c, 17),
            ),
            (
                relative_square(c, 7),
                relative_square(c, 14),
                relative_square(c, 22),
            ),
        ];

        // Knights.
        for s in squares(self.pieces[c][N]) {
            self.term(MATERIAL + N, c, 1);
            self.term(PST + N * 64 + relative_square(c, s), c, 1);
            let att = knight_attacks(sq(s)).0;
            self.record(c, N, att);
            self.term(MOBILITY_KNIGHT + popcount(att & area) as usize, c, 1);
            self.term(KING_PROTECTOR, c, distance(s, self.king[c]));
            if outposts & (1 << s) != 0 {
                self.term(KNIGHT_OUTPOST, c, 1);
            }
            if push(c, 1 << s) & all_pawns != 0 {
                self.term(MINOR_BEHIND_PAWN, c, 1);
            }
        }

        // Bishops.
        let bishops = self.pieces[c][B];
        if bishops & LIGHT != 0 && bishops & DARK != 0 {
            self.term(BISHOP_PAIR, c, 1);
        }
        for s in squares(bishops) {
            self.term(MATERIAL + B, c, 1);
            self.term(PST + B * 64 + relative_square(c, s), c, 1);
            let att = bishop_attacks(sq(s), Bitboard(occ ^ self.pieces[c][Q])).0;
            self.record(c, B, att);
            self.term(MOBILITY_BISHOP + popcount(att & area) as usize, c, 1);
            self.term(KING_PROTECTOR + 1, c, distance(s, self.king[c]));
            if (1u64 << s) & LONG_DIAGONALS != 0
                && popcount(bishop_attacks(sq(s), Bitboard(all_pawns)).0 & CENTRE) > 1
            {
                self.term(LONG_DIAGONAL, c, 1);
            }
            if outposts & (1 << s) != 0 {
                self.term(BISHOP_OUTPOST, c, 1);
            }
            if push(c, 1 << s) & all_pawns != 0 {
                self.term(MINOR_BEHIND_PAWN, c, 1);
            }
            let colour = if (1u64 << s) & LIGHT != 0 {
                LIGHT
            } else {
                DARK
            };
            let same = popcount(own_pawns & colour);
            if same != 0 {
                self.term(BISHOP_PAWNS, c, same);
            }
            for &(corner, pawn, front) in &corners {
                if s == corner && own_pawns & (1 << pawn) != 0 {
                    self.term(CORNER_BISHOP, c, 1);
                    if occ & (1 << front) != 0 {
                        self.term(CORNER_BISHOP_BLOCKED, c, 1);
                    }
                }
            }
        }

        let undeveloped = popcount((self.pieces[c][N] | bishops) & back_rank);
        if undeveloped != 0 {
            self.term(UNDEVELOPED_MINOR, c, undeveloped);
        }

        // Rooks.
        let enemy_king_rank = relative_rank(c, self.king[them]);
        let seventh = rank_mask(if c == 0 { 6 } else { 1 });
        for s in squares(self.pieces[c][R]) {
            self.term(MATERIAL + R, c, 1);
            self.term(PST + R * 64 + relative_square(c, s), c, 1);
            let att = rook_attacks(sq(s), Bitboard(occ ^ self.pieces[c][R] ^ self.pieces[c][Q])).0;
            self.record(c, R, att);
            let mob = popcount(att & area);
            self.term(MOBILITY_ROOK + mob as usize, c, 1);
            let file = file_mask(s % 8);
            if file & all_pawns == 0 {
                self.term(ROOK_OPEN, c, 1);
            } else if file & own_pawns == 0 {
                self.term(ROOK_HALF_OPEN, c, 1);
            }
            if (1u64 << s) & seventh != 0
                && (enemy_king_rank == 7 || self.pieces[them][P] & seventh != 0)
            {
                self.term(ROOK_SEVENTH, c, 1);
            }
            if mob <= 3 {
                let kf = self.king[c] % 8;
                let rf = s % 8;
                if (kf < 4) == (rf < kf) {
                    let rights = self.board.castling_rights().has_any(COLORS[c]);
                    self.term(ROOK_TRAPPED, c, if rights { 1 } else { 2 });
                }
            }
        }

        // Queens.
        for s in squares(self.pieces[c][Q]) {
            self.term(MATERIAL + Q, c, 1);
            self.term(PST + Q * 64 + relative_square(c, s), c, 1);
            let att = queen_attacks(sq(s), Bitboard(occ)).0;
            self.record(c, Q, att);
            self.term(MOBILITY_QUEEN + popcount(att & area) as usize, c, 1);
            for &(corner, pawn, _) in &corners {
                if s == corner && own_pawns & (1 << pawn) != 0 {
                    self.term(CORNER_QUEEN, c, 1);
                }
            }
        }

        let rights = self.board.castling_rights();
        let held = CastleSide::BOTH
            .iter()
            .filter(|&&side| rights.rook_file(COLORS[c], side).is_some())
            .count() as i32;
        if held != 0 {
            self.term(CASTLING_RIGHTS, c, held);
        }
        if all_pawns & king_flank(self.king[c] % 8) == 0 {
            self.term(PAWNLESS_FLANK, c, 1);
        }
    }

    /// Safe room for `c`'s pieces behind its pawns, which matters while
    /// there are pieces to use it.
    fn space(&mut self, c: usize) {
        let them = c ^ 1;
        let own_pawns = self.pieces[c][P];
        let centre_files = file_mask(2) | file_mask(3) | file_mask(4) | file_mask(5);
        let own_ranks = if c == 0 {
            rank_mask(1) | rank_mask(2) | rank_mask(3)
        } else {
            rank_mask(6) | rank_mask(5) | rank_mask(4)
        };
        let safe = centre_files & own_ranks & !own_pawns & !self.attacked_by[them][P];
        let behind = fill_forward(them, push(them, own_pawns)) & !self.attacked[them];
        let room = popcount(safe) + popcount(safe & behind);
        let pieces = popcount(self.colored[c] & !own_pawns & !self.pieces[c][K]).min(7);
        if room != 0 {
            self.term(SPACE + pieces as usize, c, room);
        }
    }

    /// The danger to `c`'s king from the other side's pieces.
    fn king_danger(&mut self, c: usize) {
        let att = c ^ 1;
        let queens = popcount(self.pieces[att][Q]);
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
        let flank = king_flank(ksq % 8) & camp(c);
        f[KS_FLANK_ATTACK - KS_START] =
            popcount(self.attacked[att] & flank) + popcount(self.attacked2[att] & flank);
        f[KS_FLANK_DEFENSE - KS_START] = popcount(self.attacked[c] & flank);
        let weak = self.attacked[att]
            & !self.attacked2[c]
            & (!self.attacked[c] | self.attacked_by[c][K] | self.attacked_by[c][Q]);
        f[KS_WEAK - KS_START] = popcount(weak & zone);
        let safe = !self.colored[att] & (!self.attacked[c] | (weak & self.attacked2[att]));
        let knight_checks = knight_attacks(sq(ksq)).0 & self.attacked_by[att][N];
        let bishop_lines = bishop_attacks(sq(ksq), Bitboard(self.occ)).0;
        let rook_lines = rook_attacks(sq(ksq), Bitboard(self.occ)).0;
        let bishop_checks = bishop_lines & self.attacked_by[att][B];
        let rook_checks = rook_lines & self.attacked_by[att][R];
        let queen_checks = (bishop_lines | rook_lines) & self.attacked_by[att][Q];
        f[KS_SAFE_CHECK - KS_START] = popcount(knight_checks & safe);
        f[KS_SAFE_CHECK - KS_START + 1] = popcount(bishop_checks & safe);
        f[KS_SAFE_CHECK - KS_START + 2] = popcount(rook_checks & safe);
        f[KS_SAFE_CHECK - KS_START + 3] = popcount(queen_checks & safe);
        f[KS_UNSAFE_CHECK - KS_START] =
            popcount((knight_checks | bishop_checks | rook_checks) & !safe & !self.colored[att]);
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
        let them = c ^ 1;
        let enemies = self.colored[them] & !self.pieces[them][K];
        let pawn_defended = self.attacked_by[them][P];
        let by_pawn = self.attacked_by[c][P];
        if by_pawn & enemies & !self.pieces[them][P] != 0 {
            for k in N..=Q {
                let n = popcount(by_pawn & self.pieces[them][k]);
                if n != 0 {
                    self.term(THREAT_BY_PAWN + k - 1, c, n);
                }
            }
        }
        let heavy = self.pieces[them][R] | self.pieces[them][Q];
        let by_minor = (self.attacked_by[c][N] | self.attacked_by[c][B])
            & ((enemies & !pawn_defended) | heavy);
        if by_minor != 0 {
            for k in P..=Q {
                let n = popcount(by_minor & self.pieces[them][k]);
                if n != 0 {
                    self.term(THREAT_BY_MINOR + k, c, n);
                }
            }
        }
        let by_rook = self.attacked_by[c][R] & ((enemies & !pawn_defended) | self.pieces[them][Q]);
        if by_rook != 0 {
            for k in P..=Q {
                let n = popcount(by_rook & self.pieces[them][k]);
                if n != 0 {
                    self.term(THREAT_BY_ROOK + k, c, n);
                }
            }
        }
        let undefended = enemies & !self.attacked[them];
        let by_king = popcount(self.attacked_by[c][K] & undefended);
        if by_king != 0 {
            self.term(THREAT_BY_KING, c, by_king);
        }
        let hanging = popcount(undefended & !self.pieces[them][P] & self.attacked[c]);
        if hanging != 0 {
            self.term(HANGING, c, hanging);
        }
        let strongly_protected =
            self.attacked_by[them][P] | (self.attacked2[them] & !self.attacked2[c]);
        let restricted = popcount(self.attacked[them] & self.attacked[c] & !strongly_protected);
        if restricted != 0 {
            self.term(RESTRICTED, c, restricted);
        }
        // Pawn pushes to safe squares that attack a piece.
        let third = rank_mask(if c == 0 { 2 } else { 5 });
        let mut pushes = push(c, self.pieces[c][P]) & !self.occ;
        pushes |= push(c, pushes & third) & !self.occ;
        pushes &= !self.attacked_by[them][P] & (self.attacked[c] | !self.attacked[them]);
        let n = popcount(pawn_attacks(c, pushes) & enemies & !self.pieces[them][P]);
        if n != 0 {
            self.term(PAWN_PUSH_THREAT, c, n);
        }
    }

    /// Passed pawns of `c` with the pieces on the board.
    fn passed(&mut self, c: usize, passed: u64) {
        let them = c ^ 1;
        let enemy_has_pieces = self.colored[them] & !self.pieces[them][P] & !self.pieces[them][K];
        let them_to_move = self.board.side_to_move().index() == them;
        for s in squares(passed) {
            let r = relative_rank(c, s);
            let front = push(c, 1 << s);
            if front & self.occ != 0 {
                self.term(PASSED_BLOCKED + r, c, 1);
            } else if front & self.attacked[them] == 0 {
                self.term(PASSED_FREE + r, c, 1);
            }
            let path = FORWARD_FILE[c][s];
            if path & (self.occ | self.attacked[them]) == 0 {
                self.term(PASSED_SAFE_PATH, c, 1);
            }
            if enemy_has_pieces == 0 && path & self.occ == 0 {
                // The rule of the square.
                let promotion = if c == 0 { 56 + s % 8 } else { s % 8 };
                let moves = (7 - r as i32).min(5);
                let king_moves = distance(self.king[them], promotion) - i32::from(them_to_move);
                if king_moves > moves {
                    self.term(PASSED_UNSTOPPABLE, c, 1);
                }
            }
        }
    }
}
