//! The trace of an evaluation: the count of every feature for each side,
//! for the tuner and for the `eval` command.

use crate::endgame::{Special, SCALE_NORMAL};
use crate::features::*;
use crate::weights::WEIGHTS;
use crate::{evaluate, Tracer, S, TOTAL_PHASE};
use chess::{Board, Color};
use std::fmt::Write;

/// Every feature count of one evaluation.
#[derive(Clone, Debug)]
pub struct Trace {
    /// Counts of each feature for White and Black.
    pub coef: Vec<[i32; 2]>,
    /// The king-danger counts against each side's king, when that term applied.
    pub safety: [Option<[i32; NUM_SAFETY]>; 2],
    /// The king-danger score of each side.
    pub safety_value: [S; 2],
    pub phase: i32,
    /// The endgame scale factor, out of `SCALE_NORMAL`.
    pub scale: i32,
    pub side_to_move: Color,
    /// Set when the evaluation is a known result rather than the weighted sum.
    pub special: Option<Special>,
    /// The evaluation from White's side.
    pub white: i32,
}

impl Tracer for Trace {
    const ON: bool = true;

    fn add(&mut self, f: usize, c: usize, n: i32) {
        self.coef[f][c] += n;
    }

    fn safety(&mut self, c: usize, counts: &[i32; NUM_SAFETY], value: S) {
        self.safety[c] = Some(*counts);
        self.safety_value[c] = value;
    }
}

impl Trace {
    fn empty(board: &Board) -> Trace {
        Trace {
            coef: vec![[0; 2]; NUM_FEATURES],
            safety: [None; 2],
            safety_value: [S::default(); 2],
            phase: 0,
            scale: SCALE_NORMAL,
            side_to_move: board.side_to_move(),
            special: None,
            white: 0,
        }
    }

    /// The score of colour `c` on the features of `term`, with `weights`.
    pub fn term_score(&self, term: Term, c: usize, weights: &[S]) -> S {
        if term == Term::KingDanger {
            return self.safety_value[c];
        }
        let mut s = S::default();
        for g in GROUPS.iter().filter(|g| g.term == term) {
            let range = g.start..g.start + g.len;
            for (w, n) in weights[range.clone()].iter().zip(&self.coef[range]) {
                s += *w * n[c];
            }
        }
        s
    }

    /// The evaluation from White's side rebuilt from the counts with
    /// `weights`, in floating point (the tuner's model).
    pub fn model_eval(&self, weights: &[S]) -> f64 {
        let mut mg = 0.0;
        let mut eg = 0.0;
        for (f, w) in weights.iter().enumerate().take(KS_START) {
            let n = f64::from(self.coef[f][0] - self.coef[f][1]);
            mg += n * f64::from(w.mg);
            eg += n * f64::from(w.eg);
        }
        for c in 0..2 {
            if let Some(counts) = &self.safety[c] {
                let (mut smg, mut seg) = (0.0, 0.0);
                for (j, &n) in counts.iter().enumerate() {
                    smg += f64::from(n) * f64::from(weights[KS_START + j].mg);
                    seg += f64::from(n) * f64::from(weights[KS_START + j].eg);
                }
                let sign = if c == 0 { 1.0 } else { -1.0 };
                mg -= sign * smg * smg.max(0.0) / 720.0;
                eg -= sign * seg.max(0.0) / 20.0;
            }
        }
        let phase = f64::from(self.phase);
        let total = f64::from(TOTAL_PHASE);
        (mg * phase + eg * (total - phase) * f64::from(self.scale) / f64::from(SCALE_NORMAL))
            / total
    }
}

/// The evaluation of `board` with every feature count recorded.
pub fn trace_position(board: &Board) -> Trace {
    let mut t = Trace::empty(board);
    let out = evaluate::evaluate(board, None, &mut t);
    t.phase = out.phase;
    t.scale = out.scale;
    t.special = out.special;
    t.white = out.white;
    t
}

/// A table of every term for both sides, middlegame and endgame, for the
/// `eval` command. Ends with `Final evaluation: <cp> (white side)`.
pub fn trace(board: &Board) -> String {
    let t = trace_position(board);
    let mut out = String::new();
    let _ = writeln!(out, "         Term |    White    |    Black    |    Total");
    let _ = writeln!(
        out,
        "              |   MG    EG  |   MG    EG  |   MG    EG"
    );
    let _ = writeln!(
        out,
        "--------------+-------------+-------------+------------"
    );
    let mut total = [S::default(); 2];
    for term in Term::ALL {
        let w = t.term_score(term, 0, &WEIGHTS);
        let b = t.term_score(term, 1, &WEIGHTS);
        total[0] += w;
        total[1] += b;
        let _ = writeln!(out, "{}", row(term.label(), w, b));
    }
    let _ = writeln!(
        out,
        "--------------+-------------+-------------+------------"
    );
    let _ = writeln!(out, "{}", row("Total", total[0], total[1]));
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Phase: {} / {TOTAL_PHASE} (middlegame weight)",
        t.phase
    );
    let _ = writeln!(out, "Endgame scale: {} / {SCALE_NORMAL}", t.scale);
    let _ = writeln!(
        out,
        "Side to move: {} (tempo included above)",
        if t.side_to_move == Color::White {
            "white"
        } else {
            "black"
        }
    );
    match t.special {
        Some(Special::Draw) => {
            let _ = writeln!(out, "Known draw: neither side has mating material");
        }
        Some(Special::Mating) => {
            let _ = writeln!(out, "Known win: a lone king against mating material");
        }
        None => {}
    }
    let _ = writeln!(out, "\nFinal evaluation: {} (white side)", t.white);
    out
}

fn row(label: &str, w: S, b: S) -> String {
    format!(
        "{label:>13} | {:5} {:5} | {:5} {:5} | {:5} {:5}",
        w.mg,
        w.eg,
        b.mg,
        b.eg,
        w.mg - b.mg,
        w.eg - b.eg
    )
}
