//! One search thread: iterative deepening with aspiration windows over a
//! principal variation search with quiescence at the leaves.

use crate::history::{self, capture_key, Context, History, PieceTo};
use crate::job::Job;
use crate::movepick::{is_quiet, MovePicker};
use crate::params::*;
use crate::report::PvInfo;
use crate::score::{is_decisive, is_mate, mate_in, mated_in, DRAW, INFINITE, MATE_BOUND, MAX_PLY};
use crate::tt::{Bound, TtHit};
use arrayvec::ArrayVec;
use chess::{Bitboard, Board, Move, PieceKind, Position};
use eval::Evaluator;
use std::sync::atomic::Ordering;

/// Late-move reductions by depth and move number.
pub(crate) struct LmrTable([[i32; 64]; 64]);

impl LmrTable {
    pub fn new(params: &SearchParams) -> LmrTable {
        let (base, divisor) = params.lmr_shape();
        let mut t = [[0; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
            }
        }
        LmrTable(t)
    }

    #[inline(always)]
    fn get(&self, depth: i32, moves: usize) -> i32 {
        self.0[(depth as usize).min(63)][moves.min(63)]
    }
}

#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// Nodes searched under this move in the current iteration.
    pub nodes: u64,
    /// At a root in the tables, the move's rank and score there.
    pub tb_rank: i32,
    pub tb_score: Option<i32>,
}

impl RootMove {
    /// The score to report: at a root in the tables, the tables' verdict
    /// unless the search has found a mate (as Stockfish shows it).
    pub fn shown_score(&self) -> i32 {
        match self.tb_score {
            Some(tb) if !is_mate(self.score) => tb,
            _ => self.score,
        }
    }
}

/// The result of a thread's last completed iteration.
#[derive(Clone, Debug, Default)]
pub(crate) struct Completed {
    pub depth: i32,
    /// Every searched line, best first (MultiPV lines are the first ones).
    pub lines: Vec<RootMove>,
}

#[derive(Clone, Copy, Default)]
struct Frame {
    static_eval: i32,
    /// The move that led to this node, for continuation history.
    moved: Option<PieceTo>,
    null_move: bool,
    /// A move left out of this node's search (the singular-extension test).
    excluded: Move,
    /// Double extensions along the line to this node.
    double_extensions: u32,
}

impl Frame {
    /// A node just entered: no evaluation yet, no move excluded.
    fn child(moved: Option<PieceTo>, null_move: bool, double_extensions: u32) -> Frame {
        Frame {
            static_eval: -INFINITE,
            moved,
            null_move,
            excluded: Move::NONE,
            double_extensions,
        }
    }
}

pub(crate) struct Searcher<'a> {
    job: &'a Job,
    history: &'a mut History,
    evaluator: &'a mut Evaluator,
    id: usize,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// The game ply of the root: a position seen since then repeats at once.
    root_ply: usize,
    stack: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    root_moves: Vec<RootMove>,
    pv_index: usize,
    /// The end of the root moves ranked as the line `pv_index` searches for.
    pv_last: usize,
    multi_pv: usize,
    /// Iterations in a row that ended with the same best move.
    stability: u32,
    pub completed: Completed,
}

impl<'a> Searcher<'a> {
    pub fn new(
        job: &'a Job,
        history: &'a mut History,
        evaluator: &'a mut Evaluator,
        id: usize,
    ) -> Searcher<'a> {
        let root_moves = job
            .root_moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| RootMove {
                mv,
                score: -INFINITE,
                seldepth: 0,
                pv: vec![mv],
                nodes: 0,
                tb_rank: job.root_tb.get(i).map_or(0, |r| r.rank),
                tb_score: job.root_tb.get(i).map(|r| r.score),
            })
            .collect::<Vec<_>>();
        let multi_pv = if id == 0 {
            job.options.multi_pv.clamp(1, root_moves.len().max(1))
        } else {
            1
        };
        let stack = vec![Frame::default(); MAX_PLY + 4];
        Searcher {
            job,
            history,
            evaluator,
            id,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_ply: job.position.ply(),
            stack,
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_moves,
            pv_index: 0,
            pv_last: 0,
            multi_pv,
            stability: 0,
            completed: Completed::default(),
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    // ----- Iterative deepening -----

    pub fn iterate(&mut self) {
        let max_depth = self
            .job
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let mut pos = self.job.position.clone();
        pos.reserve(MAX_PLY + 4);
        self.evaluator.reset(pos.board());
        for depth in 1..=max_depth {
            // Lazy SMP: helper threads skip some depths, each in its own
            // pattern, so that the threads spread over several depths and
            // fill the shared table with different parts of the tree.
            if !self.is_main() && depth > 1 {
                let size = 1 + ((self.id - 1) / 2) % 3;
                let phase = (self.id - 1) % (2 * size);
                if ((depth as usize + phase) / size) % 2 == 1 {
                    continue;
                }
            }
            let previous_best = self.root_moves[0].mv;
            for rm in &mut self.root_moves {
                rm.score = -INFINITE;
                rm.nodes = 0;
            }
            // Tablebase rank groups: at a root in the tables each line is the
            // best of the moves ranked as high as the best one left, so that
            // no line puts a move the tables rank lower above a better one.
            // Elsewhere every move has the same rank: one group.
            let mut pv_first = 0;
            self.pv_last = 0;
            for pv_index in 0..self.multi_pv {
                if pv_index == self.pv_last {
                    pv_first = pv_index;
                    let rank = self.root_moves[pv_first].tb_rank;
                    self.pv_last = pv_first
                        + self.root_moves[pv_first..]
                            .iter()
                            .take_while(|rm| rm.tb_rank == rank)
                            .count();
                }
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.aspiration(&mut pos, depth);
                // Lines already settled this iteration keep their order.
                self.root_moves[pv_first..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.stability = if self.root_moves[0].mv == previous_best {
                self.stability + 1
            } else {
                0
            };
            self.completed = Completed {
                depth,
                lines: self.root_moves.clone(),
            };
            self.publish_nodes();
            if self.is_main() {
                for i in 0..self.multi_pv {
                    self.report_line(i, depth, None);
                }
                if self.should_end_after_iteration() {
                    break;
                }
            }
        }
        self.publish_nodes();
    }

    /// Searches the root with a narrow window around the last score,
    /// widening it on a fail-high or fail-low.
    fn aspiration(&mut self, pos: &mut Position, depth: i32) {
        let prev = self.root_moves[self.pv_index].score;
        let mut delta = self.job.params.aspiration_delta;
        let (mut alpha, mut beta) =
            if depth >= ASPIRATION_MIN_DEPTH && prev > -INFINITE && !is_mate(prev) {
                ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
            } else {
                (-INFINITE, INFINITE)
            };
        loop {
            let score = self.search::<true>(pos, alpha, beta, depth, 0);
            self.root_moves[self.pv_index..self.pv_last]
                .sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return;
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                Some(Bound::Upper)
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
                Some(Bound::Lower)
            } else {
                return;
            };
            if self.is_main() && self.job.time.elapsed().as_millis() > 3000 {
                self.report_line(self.pv_index, depth, bound);
            }
            delta += delta / 2;
        }
    }

    fn should_end_after_iteration(&self) -> bool {
        let limits = &self.job.limits;
        let best = self.root_moves[0].score;
        if let Some(mate) = limits.mate {
            if best >= MATE_BOUND && mate_in(0) - best <= 2 * mate as i32 {
                return true;
            }
        }
        let total: u64 = self.root_moves.iter().map(|rm| rm.nodes).sum();
        let share = self.root_moves[0].nodes as f64 / total.max(1) as f64;
        !self.job.control.pondering.load(Ordering::Relaxed)
            && self.job.time.iterations_done(self.stability, share)
    }

    fn report_line(&self, index: usize, depth: i32, bound: Option<Bound>) {
        let rm = &self.root_moves[index];
        self.job.reporter.pv(&PvInfo {
            depth,
            seldepth: rm.seldepth.max(1),
            multipv: index + 1,
            score: rm.shown_score(),
            bound,
            nodes: self.job.total_nodes(),
            time: self.job.time.elapsed(),
            hashfull: self.job.tt.hashfull(),
            tbhits: self.job.tb_hits.load(Ordering::Relaxed),
            pv: rm.pv.clone(),
        });
    }

    // ----- Stopping -----

    fn publish_nodes(&self) {
        self.job.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Whether to abandon the search. The main thread also watches the clock
    /// and the node limit. Depth 1 of the main thread always completes, so
    /// that there is a move to play.
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let job = self.job;
        if self.is_main() {
            if self.completed.depth == 0 {
                return false;
            }
            if let Some(limit) = job.limits.nodes {
                let total = if job.nodes.len() == 1 {
                    self.nodes
                } else {
                    job.total_nodes()
                };
                if total >= limit {
                    job.control.stop.store(true, Ordering::Relaxed);
                }
            }
            if self.nodes.is_multiple_of(1024)
                && !job.control.pondering.load(Ordering::Relaxed)
                && job.time.hard_expired()
            {
                job.control.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.nodes.is_multiple_of(512) {
            self.publish_nodes();
        }
        self.stopped = job.control.stop.load(Ordering::Relaxed);
        self.stopped
    }

    /// Counts a node, starts its PV empty, and says whether to go on
    /// searching (false once the search has been stopped).
    #[inline(always)]
    fn enter_node<const PV: bool>(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        if PV {
            self.pv_len[ply] = ply;
            self.seldepth = self.seldepth.max(ply + 1);
        }
        !self.should_stop()
    }

    /// A node's evaluation before the correction histories: the table's,
    /// which kept it, or the evaluator's.
    #[inline(always)]
    fn raw_eval(&mut self, board: &Board, hit: Option<TtHit>) -> i32 {
        match hit {
            Some(h) => h.eval,
            None => self.evaluator.evaluate(board),
        }
    }

    // ----- Moves along the line -----

    /// Plays `m` on the board and in the evaluator, and opens the child's
    /// frame at `ply + 1`.
    #[inline(always)]
    fn make_move(
        &mut self,
        pos: &mut Position,
        m: Move,
        ply: usize,
        moved: Option<PieceTo>,
        double_extensions: u32,
    ) {
        self.job.tt.prefetch(pos.board().key_after(m));
        self.evaluator.make_move(pos.board(), m);
        pos.make_move(m);
        self.stack[ply + 1] = Frame::child(moved, false, double_extensions);
    }

    /// Passes the move (null-move pruning), the child's frame marked so.
    fn make_null_move(&mut self, pos: &mut Position, ply: usize) {
        self.evaluator.make_null_move();
        pos.make_null_move();
        self.job.tt.prefetch(pos.board().key());
        self.stack[ply + 1] = Frame::child(None, true, self.stack[ply].double_extensions);
    }

    /// Takes back the last move or null move, on the board and in the
    /// evaluator.
    #[inline(always)]
    fn unmake(&mut self, pos: &mut Position) {
        pos.unmake_move();
        self.evaluator.unmake();
    }

    // ----- Principal variation search -----

    fn search<const PV: bool>(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
    ) -> i32 {
        if depth <= 0 {
            return self.quiescence::<PV>(pos, alpha, beta, ply);
        }
        let board = pos.board();
        let root = ply == 0;
        if !self.enter_node::<PV>(ply) {
            return 0;
        }
        if !root {
            if pos.is_draw(self.root_ply) {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return if board.in_check() {
                    DRAW
                } else {
                    self.evaluator.evaluate(board)
                };
            }
            // Mate distance pruning: no line from here can beat a mate
            // already found closer to the root.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        self.history.clear_killers(ply + 2);

        // Transposition table: a cutoff outside the PV, a move to try first.
        let tt = &*self.job.tt;
        let key = board.key();
        let excluded = self.stack[ply].excluded;
        let hit = tt.probe(key, ply);
        let mut hash_move = Move::NONE;
        if let Some(h) = hit {
            if !h.mv.is_none() && board.is_legal(h.mv) {
                hash_move = h.mv;
            }
            if !PV
                && excluded.is_none()
                && h.depth >= depth
                && h.bound.settles(h.score, alpha, beta)
            {
                return h.score;
            }
        }

        // Tablebases: a win or loss bounds the score, a draw is exact; a
        // bound that cuts ends the node, else it limits the PV node's score.
        let mut tb_floor = -INFINITE;
        let mut tb_ceiling = INFINITE;
        if let Some(wdl) = (!root && excluded.is_none())
            .then(|| self.job.probe_wdl(board, depth))
            .flatten()
        {
            let (score, bound) = self.job.syzygy.score(wdl, ply);
            if bound.settles(score, alpha, beta) {
                let raw_eval = if board.in_check() {
                    0
                } else {
                    self.raw_eval(board, hit)
                };
                let tb_depth = (depth + TB_DEPTH_BONUS).min(MAX_PLY as i32 - 1);
                tt.store(key, Move::NONE, score, raw_eval, tb_depth, bound, ply);
                return score;
            }
            if PV {
                if bound == Bound::Lower {
                    tb_floor = score;
                    alpha = alpha.max(score);
                } else {
                    tb_ceiling = score;
                }
            }
        }

        // Internal iterative reduction: without a move from the table this
        // node is probably less important than its depth says.
        if depth >= IIR_MIN_DEPTH && hash_move.is_none() && excluded.is_none() {
            depth -= 1;
        }

        let in_check = board.in_check();
        // The table keeps the raw evaluation; the correction histories adjust
        // it for what searches of this pawn structure and these piece
        // placements have found.
        let raw_eval = if in_check {
            0
        } else {
            self.raw_eval(board, hit)
        };
        let static_eval = if in_check {
            -INFINITE
        } else {
            (raw_eval + self.history.correction(board)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
        };
        self.stack[ply].static_eval = static_eval;
        // Improving: the side to move stands better than two plies ago, so
        // a fail high here is more likely and pruning can be bolder.
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        // The table's bound, where it is tighter, is a better guess than the evaluation.
        let eval = match hit {
            Some(h) if !in_check && !is_mate(h.score) => match h.bound {
                Bound::Lower if h.score > static_eval => h.score,
                Bound::Upper if h.score < static_eval => h.score,
                Bound::Exact => h.score,
                _ => static_eval,
            },
            _ => static_eval,
        };

        // Reverse futility pruning: far enough above beta that no quiet
        // continuation is likely to bring the opponent back.
        if !PV
            && !in_check
            && excluded.is_none()
            && depth <= self.job.params.rfp_max_depth
            && eval - self.job.params.rfp_margin * (depth - i32::from(improving)) >= beta
            && beta > -MATE_BOUND
            && eval < MATE_BOUND
        {
            return eval;
        }

        // Null-move pruning: if passing still fails high, a real move would
        // too. Not in check, not right after another null move, and not with
        // only pawns left, where zugzwang is common.
        if !PV
            && !in_check
            && excluded.is_none()
            && depth >= NMP_MIN_DEPTH
            && eval >= beta
            && !self.stack[ply].null_move
            && beta > -MATE_BOUND
            && has_non_pawn_material(board)
        {
            let params = &self.job.params;
            let reduction = params.nmp_base_reduction + depth / params.nmp_depth_divisor;
            self.make_null_move(pos, ply);
            let score = -self.search::<false>(pos, -beta, -beta + 1, depth - reduction, ply + 1);
            self.unmake(pos);
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return if is_decisive(score) { beta } else { score };
            }
        }

        let board = pos.board();
        let us = board.side_to_move();
        let context = Context {
            earlier: [
                self.stack[ply].moved,
                if ply >= 1 {
                    self.stack[ply - 1].moved
                } else {
                    None
                },
            ],
            threats: board.attacks_by(!us),
        };
        let mut picker = MovePicker::new(hash_move, self.history.killers(ply), false, context);
        let mut best_score = tb_floor;
        let mut best_move = Move::NONE;
        let mut moves_searched = 0usize;
        // Moves searched without a cutoff, to be penalised when another
        // move cuts; fixed-capacity lists keep allocation off the hot path
        // (moves past their capacity go unrecorded).
        let mut quiets_tried: ArrayVec<(Move, PieceTo), 64> = ArrayVec::new();
        let mut captures_tried: ArrayVec<usize, 32> = ArrayVec::new();

        loop {
            let board = pos.board();
            let Some(m) = picker.next(board, self.history) else {
                break;
            };
            if m == excluded
                || (root
                    && !self.root_moves[self.pv_index..self.pv_last]
                        .iter()
                        .any(|rm| rm.mv == m))
            {
                continue;
            }
            let quiet = is_quiet(board, m);
            let moved = board.piece_on(m.from()).map(|p| PieceTo::new(p, m.to()));

            // Shallow-depth pruning, never before a move has been found that
            // avoids being mated.
            if !root && best_score > -MATE_BOUND {
                let params = &self.job.params;
                if quiet {
                    // Late-move pruning: late quiet moves at low depth rarely
                    // matter once the best ones have been tried.
                    let lmp_limit = (params.lmp_base + depth * depth) / (2 - i32::from(improving));
                    if depth <= LMP_MAX_DEPTH && moves_searched as i32 >= lmp_limit {
                        picker.skip_quiets();
                        continue;
                    }
                    // Futility pruning: a quiet move cannot lift a hopeless
                    // static evaluation up to alpha.
                    if !in_check
                        && depth <= FP_MAX_DEPTH
                        && eval + params.fp_base + params.fp_margin * depth <= alpha
                    {
                        picker.skip_quiets();
                        continue;
                    }
                }
                // SEE pruning: moves that lose material in the exchange (the
                // picker's winning captures are known not to).
                let see_margin = if quiet {
                    params.see_quiet_margin
                } else {
                    params.see_noisy_margin
                };
                if depth <= SEE_PRUNE_MAX_DEPTH
                    && !picker.yielded_winning_capture()
                    && !crate::see::see_ge(board, m, -see_margin * depth)
                {
                    continue;
                }
            }
            if root && self.is_main() && self.job.time.elapsed().as_millis() > 1000 {
                self.job
                    .reporter
                    .current_move(depth, m, self.pv_index + moves_searched + 1);
            }

            // Singular extensions: when the table's move beats every other
            // move by a margin in a reduced search without it, it is the
            // only good move here and deserves a deeper look. If instead
            // another move also beats beta, the node is cut at once
            // (multi-cut); if the table's move merely looks good, it is
            // searched a little shallower.
            let mut extension = 0;
            if let Some(h) = hit.filter(|h| {
                !root
                    && m == hash_move
                    && excluded.is_none()
                    && depth >= SE_MIN_DEPTH
                    && h.depth >= depth - 3
                    && h.bound != Bound::Upper
                    && !is_mate(h.score)
            }) {
                let singular_beta = h.score - self.job.params.se_margin * depth;
                self.stack[ply].excluded = m;
                let score = self.search::<false>(
                    pos,
                    singular_beta - 1,
                    singular_beta,
                    (depth - 1) / 2,
                    ply,
                );
                self.stack[ply].excluded = Move::NONE;
                if self.stopped {
                    return 0;
                }
                if score < singular_beta {
                    extension = 1;
                    if !PV
                        && score < singular_beta - self.job.params.se_double_margin
                        && self.stack[ply].double_extensions < SE_MAX_DOUBLE
                    {
                        extension = 2;
                    }
                } else if singular_beta >= beta {
                    return singular_beta;
                } else if h.score >= beta {
                    extension = -1;
                }
            }

            let nodes_before = self.nodes;
            let double_extensions = self.stack[ply].double_extensions + u32::from(extension == 2);
            self.make_move(pos, m, ply, moved, double_extensions);
            let gives_check = pos.board().in_check();
            let new_depth = depth - 1 + extension;

            let mut score;
            if moves_searched == 0 {
                score = -self.search::<PV>(pos, -beta, -alpha, new_depth, ply + 1);
            } else {
                // The null-window searches below leave no line in the child's
                // PV row. Should this move be taken without the PV re-search
                // (a fail high against a beta narrowed by mate distance
                // pruning, or against the aspiration window at the root), its
                // line ends here rather than borrowing a stale tail.
                if PV {
                    self.pv_len[ply + 1] = ply + 1;
                }
                // Late-move reductions: quiet moves ordered late are searched
                // shallower with a null window, and again at full depth only
                // if they surprise.
                let mut reduction = 0;
                if depth >= LMR_MIN_DEPTH
                    && moves_searched >= LMR_MIN_MOVES
                    && quiet
                    && !in_check
                    && !gives_check
                {
                    reduction = self.job.lmr.get(depth, moves_searched);
                    reduction -= i32::from(PV);
                    if let Some(pt) = moved {
                        reduction -= self.history.quiet(us, m, pt, &context)
                            / self.job.params.lmr_history_divisor;
                    }
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                score =
                    -self.search::<false>(pos, -alpha - 1, -alpha, new_depth - reduction, ply + 1);
                if score > alpha && reduction > 0 {
                    score = -self.search::<false>(pos, -alpha - 1, -alpha, new_depth, ply + 1);
                }
                if PV && score > alpha && score < beta {
                    score = -self.search::<true>(pos, -beta, -alpha, new_depth, ply + 1);
                }
            }
            self.unmake(pos);
            if self.stopped {
                return 0;
            }
            moves_searched += 1;
            let board = pos.board();

            if root {
                if let Some(rm) = self.root_moves.iter_mut().find(|rm| rm.mv == m) {
                    rm.nodes += self.nodes - nodes_before;
                }
                self.update_root_move(m, score, alpha, moves_searched == 1);
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    if PV && !root {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        let best_capture = if quiet { None } else { capture_key(board, m) };
                        let bonus = history::bonus(depth, &self.job.params);
                        self.history
                            .update_captures(best_capture, &captures_tried, bonus);
                        if let (true, Some(pt)) = (quiet, moved) {
                            self.history.update_quiet(
                                us,
                                (m, pt),
                                &quiets_tried,
                                &context,
                                bonus,
                                ply,
                            );
                        }
                        break;
                    }
                    alpha = score;
                    // Alpha-raise reduction: once one move beats alpha, the
                    // moves after it are less likely to matter; search them
                    // (and record the node) a ply shallower.
                    if !root
                        && depth > ALPHA_RAISE_MIN_DEPTH
                        && depth < ALPHA_RAISE_MAX_DEPTH
                        && !is_decisive(score)
                    {
                        depth -= 1;
                    }
                }
            }
            if !quiet && m != best_move {
                if let Some(k) = capture_key(board, m) {
                    let _ = captures_tried.try_push(k);
                }
            }
            if let (true, Some(pt)) = (quiet && m != best_move, moved) {
                let _ = quiets_tried.try_push((m, pt));
            }
        }

        let board = pos.board();
        if moves_searched == 0 {
            if !excluded.is_none() {
                return alpha;
            }
            return if in_check { mated_in(ply) } else { DRAW };
        }
        best_score = best_score.min(tb_ceiling);

        let bound = if best_score >= beta {
            Bound::Lower
        } else if PV && !best_move.is_none() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded.is_none() && !(root && self.pv_index > 0) {
            tt.store(key, best_move, best_score, raw_eval, depth, bound, ply);
        }
        // Learn how far off the static evaluation was, from results that
        // are not just bounds on the wrong side of it, and not about captures.
        if !in_check
            && excluded.is_none()
            && (best_move.is_none() || is_quiet(board, best_move))
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.history.update_correction(
                board,
                depth,
                best_score - static_eval,
                &self.job.params,
            );
        }
        best_score
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply] = m;
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }

    fn update_root_move(&mut self, m: Move, score: i32, alpha: i32, first: bool) {
        let child_len = self.pv_len[1].max(1);
        let seldepth = self.seldepth;
        let Some(rm) = self.root_moves.iter_mut().find(|rm| rm.mv == m) else {
            return;
        };
        if first || score > alpha {
            rm.score = score;
            rm.seldepth = seldepth;
            rm.pv.clear();
            rm.pv.push(m);
            rm.pv.extend_from_slice(&self.pv[1][1..child_len]);
        } else {
            // Only its rank among the other moves matters: below all of them.
            rm.score = -INFINITE;
        }
    }

    // ----- Quiescence -----

    /// Searches captures and promotions until the position is quiet, so that
    /// the evaluation is never taken in the middle of an exchange. In check,
    /// every evasion is searched.
    fn quiescence<const PV: bool>(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if !self.enter_node::<PV>(ply) {
            return 0;
        }
        if pos.is_draw(self.root_ply) {
            return DRAW;
        }
        let board = pos.board();
        let in_check = board.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                DRAW
            } else {
                self.evaluator.evaluate(board)
            };
        }

        let tt = &*self.job.tt;
        let key = board.key();
        let hit = tt.probe(key, ply);
        let mut hash_move = Move::NONE;
        if let Some(h) = hit {
            if !PV && h.bound.settles(h.score, alpha, beta) {
                return h.score;
            }
            if !h.mv.is_none() && (in_check || !is_quiet(board, h.mv)) && board.is_legal(h.mv) {
                hash_move = h.mv;
            }
        }

        let mut raw_eval = 0;
        let mut best_score;
        if in_check {
            best_score = -INFINITE;
        } else {
            // Stand pat: the side to move may decline every capture.
            raw_eval = self.raw_eval(board, hit);
            best_score =
                (raw_eval + self.history.correction(board)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        // Out of check only captures are searched, which the quiet history
        // does not order.
        let context = Context {
            threats: if in_check {
                board.attacks_by(!board.side_to_move())
            } else {
                Bitboard::EMPTY
            },
            ..Context::NONE
        };
        let mut picker = MovePicker::new(hash_move, [Move::NONE; 2], !in_check, context);
        let mut best_move = Move::NONE;
        let mut moves_searched = 0;
        loop {
            let board = pos.board();
            let Some(m) = picker.next(board, self.history) else {
                break;
            };
            // Outside check, captures that lose material are not worth a look.
            if !in_check && !picker.yielded_winning_capture() && !crate::see::see_ge(board, m, 0) {
                continue;
            }
            let moved = board.piece_on(m.from()).map(|p| PieceTo::new(p, m.to()));
            self.make_move(pos, m, ply, moved, self.stack[ply].double_extensions);
            let score = -self.quiescence::<PV>(pos, -beta, -alpha, ply + 1);
            self.unmake(pos);
            if self.stopped {
                return 0;
            }
            moves_searched += 1;
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && moves_searched == 0 {
            return mated_in(ply);
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        tt.store(key, best_move, best_score, raw_eval, 0, bound, ply);
        best_score
    }
}

fn has_non_pawn_material(board: &Board) -> bool {
    let us = board.side_to_move();
    (board.colored(us) & !board.pieces(PieceKind::Pawn) & !board.pieces(PieceKind::King))
        .is_nonempty()
}
