//! How the protocol writes a score: `cp` or `mate`, and the win/draw/loss
//! chances `UCI_ShowWDL` adds.

use engine::score::{is_mate, HumanScore};

/// The score as an `info ... score` field writes it: `cp 35`, `mate -2`.
pub fn text(score: i32) -> String {
    match HumanScore::from_score(score) {
        HumanScore::Centipawns(cp) => format!("cp {cp}"),
        HumanScore::Mate(n) => format!("mate {n}"),
    }
}

/// Win/draw/loss chances in permille for a score, from a logistic model of
/// the score's meaning (a rough fit; it grows with the engine's data).
pub fn wdl(score: i32) -> (u32, u32, u32) {
    if is_mate(score) {
        return if score > 0 {
            (1000, 0, 0)
        } else {
            (0, 0, 1000)
        };
    }
    let model = |x: f64| 1000.0 / (1.0 + ((200.0 - x) / 70.0).exp());
    let win = model(score as f64).round() as u32;
    let loss = model(-score as f64).round() as u32;
    (win, 1000 - win - loss, loss)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::score::{mate_in, mated_in};

    #[test]
    fn scores_are_written_in_centipawns_or_moves_to_mate() {
        assert_eq!(text(35), "cp 35");
        assert_eq!(text(-120), "cp -120");
        assert_eq!(text(mate_in(3)), "mate 2");
        assert_eq!(text(mated_in(2)), "mate -1");
    }

    #[test]
    fn wdl_sums_to_1000_and_is_symmetric() {
        for s in [-900, -100, 0, 50, 400] {
            let (w, d, l) = wdl(s);
            assert_eq!(w + d + l, 1000);
            assert_eq!(wdl(-s), (l, d, w));
        }
        assert!(wdl(300).0 > wdl(100).0);
        assert_eq!(wdl(mate_in(5)), (1000, 0, 0));
    }
}
