//! The report printed when a run ends.

use super::args::Config;
use super::progress::clock;
use super::runner::Totals;
use super::sprt::{ALPHA, BETA};
use super::stats::{Estimate, Pentanomial};
use std::fmt::Write;

pub fn write(config: &Config, t: &Totals) -> String {
    let mut s = String::new();
    let rate = t.positions as f64 / t.elapsed.as_secs_f64().max(1e-3);
    let _ = writeln!(
        s,
        "finished {} games, {} positions in {} ({rate:.0} positions/s), seed {}",
        t.games,
        t.positions,
        clock(t.elapsed),
        t.seed
    );
    if let Some(path) = &config.data {
        let per = t.data_bytes as f64 / t.records.max(1) as f64;
        let _ = writeln!(
            s,
            "data: {} quiet positions, {} bytes ({per:.1} bytes each) appended to {}",
            t.records,
            t.data_bytes,
            path.display()
        );
    }
    let r = &t.results;
    let wdl = format!("+{} ={} -{}", r.tally.wins, r.tally.draws, r.tally.losses);
    let score = r
        .tally
        .score()
        .map_or(String::new(), |x| format!(", score {:.1}%", 100.0 * x));
    match config.players.as_slice() {
        [a, b] => {
            let _ = writeln!(s, "A ({a}) against B ({b}): {wdl}{score}");
            let p = &r.pentanomial;
            if p.pairs() > 0 {
                let _ = writeln!(s, "Elo difference A - B: {}", pentanomial_elo(p));
            } else {
                let _ = writeln!(
                    s,
                    "Elo difference A - B: {} (95%, trinomial over {} games)",
                    shown(r.tally.elo()),
                    r.tally.games()
                );
            }
            if let (Some(sprt), Some(d)) = (config.sprt, t.sprt) {
                if sprt.prior.pairs() > 0 {
                    let _ = writeln!(
                        s,
                        "with the earlier pairs of --sprt-prior: {}",
                        pentanomial_elo(&(sprt.prior + *p))
                    );
                }
                let (lower, upper) = sprt.bounds();
                let verdict = d
                    .accepted
                    .map_or("not decided".to_string(), |v| v.to_string());
                let _ = writeln!(
                    s,
                    "SPRT A - B [{}, {}] Elo (alpha {ALPHA}, beta {BETA}): LLR {:.2} \
                     (bounds {lower:.2}, {upper:.2}), {verdict} after {} pairs",
                    sprt.elo0, sprt.elo1, d.llr, d.pairs
                );
            }
        }
        _ => {
            let _ = writeln!(s, "White {wdl}{score}");
        }
    }
    let endings: Vec<String> = r
        .endings
        .iter()
        .map(|(e, n)| format!("{} {n}", e.name()))
        .collect();
    let _ = writeln!(s, "endings: {}", endings.join(", "));
    s
}

/// An Elo estimate, or why there is none.
fn shown(estimate: Option<Estimate>) -> String {
    estimate.map_or(
        "not finite (one side scored everything or nothing)".to_string(),
        |e| e.to_string(),
    )
}

/// `<Elo> (95%, pentanomial N0 N1 N2 N3 N4 over N pairs)`.
fn pentanomial_elo(p: &Pentanomial) -> String {
    let c = p.counts;
    format!(
        "{} (95%, pentanomial {} {} {} {} {} over {} pairs)",
        shown(p.elo()),
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        p.pairs()
    )
}
