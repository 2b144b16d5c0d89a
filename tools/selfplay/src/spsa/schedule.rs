//! SPSA's gain sequences and its step, as Spall describes them and
//! OpenBench sets them per parameter: the perturbation `c_k` shrinks to the
//! parameter's step by the last iteration, and the learning rate
//! `r_k = a_k / c_k^2` to `r_end`.

use engine::{SearchParams, Tunable};
use rand::Rng;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// The pairs the gains are planned for.
    pub iterations: u64,
    /// The stability constant: larger keeps early steps from overshooting.
    pub a: f64,
    /// Every parameter's final perturbation is its step times this.
    pub c: f64,
    pub alpha: f64,
    pub gamma: f64,
    pub r_end: f64,
}

/// The parameters being tuned and their current values, unrounded.
#[derive(Clone, Debug, PartialEq)]
pub struct Theta {
    pub params: Vec<(&'static Tunable, f64)>,
}

/// One iteration's perturbation: a sign and a size per parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    pub signs: Vec<f64>,
    pub sizes: Vec<f64>,
}

impl Schedule {
    /// Iteration `k`'s perturbation size and learning rate for a parameter
    /// whose step is `step`.
    fn gains(&self, step: f64, k: u64) -> (f64, f64) {
        let n = self.iterations as f64;
        let c_end = step * self.c;
        let c = c_end * n.powf(self.gamma);
        let a = self.r_end * c_end * c_end * (self.a + n).powf(self.alpha);
        let c_k = c / (k as f64 + 1.0).powf(self.gamma);
        let a_k = a / (self.a + k as f64 + 1.0).powf(self.alpha);
        (c_k, a_k / (c_k * c_k))
    }

    /// Draws iteration `k`'s perturbation: each parameter up or down.
    pub fn perturb(&self, theta: &Theta, k: u64, rng: &mut impl Rng) -> Perturbation {
        let signs = theta
            .params
            .iter()
            .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let sizes = theta
            .params
            .iter()
            .map(|(t, _)| self.gains(f64::from(t.step), k).0)
            .collect();
        Perturbation { signs, sizes }
    }

    /// Moves `theta` after iteration `k`, whose pair scored `result` for
    /// the plus side over the minus side (-2 to 2).
    pub fn update(&self, theta: &mut Theta, p: &Perturbation, k: u64, result: f64) {
        for ((t, value), sign) in theta.params.iter_mut().zip(&p.signs) {
            let (c_k, r_k) = self.gains(f64::from(t.step), k);
            *value = (*value + r_k * c_k * result * sign).clamp(f64::from(t.min), f64::from(t.max));
        }
    }
}

impl Theta {
    /// `tunables` at their defaults.
    pub fn defaults(tunables: &[&'static Tunable]) -> Theta {
        Theta {
            params: tunables
                .iter()
                .map(|&t| (t, f64::from(t.default)))
                .collect(),
        }
    }

    /// The engine parameters at `theta + direction * perturbation`, rounded
    /// and kept in range; the untuned ones at their defaults.
    pub fn engine_params(&self, p: &Perturbation, direction: f64) -> SearchParams {
        let mut params = SearchParams::default();
        for (((t, value), sign), size) in self.params.iter().zip(&p.signs).zip(&p.sizes) {
            let v = (value + direction * sign * size).round();
            let v = v.clamp(f64::from(t.min), f64::from(t.max)) as i64;
            // In range by the clamp, and named by the table.
            let _ = params.set(t.name, v);
        }
        params
    }

    /// `NAME=value` words, rounded as the engine would use them.
    pub fn words(&self) -> Vec<String> {
        self.params
            .iter()
            .map(|(t, v)| format!("{}={}", t.name, v.round() as i64))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::TUNABLES;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    fn schedule(iterations: u64) -> Schedule {
        Schedule {
            iterations,
            a: iterations as f64 / 10.0,
            c: 1.0,
            alpha: 0.602,
            gamma: 0.101,
            r_end: 0.002,
        }
    }

    #[test]
    fn the_gains_end_at_the_step_and_r_end() {
        let s = schedule(1000);
        let (c_end, r_end) = s.gains(8.0, 999);
        assert!((c_end - 8.0).abs() < 1e-9, "{c_end}");
        assert!((r_end - 0.002).abs() < 1e-9, "{r_end}");
        let (c_0, _) = s.gains(8.0, 0);
        assert!(c_0 > 1.5 * c_end);
    }

    #[test]
    fn theta_climbs_a_synthetic_objective() {
        // Two parameters whose best values lie above and below the
        // defaults; a pair scores the difference of a concave objective,
        // as a match would score the better side.
        let rfp = TUNABLES.iter().find(|t| t.name == "RFP_MARGIN").unwrap();
        let fp = TUNABLES.iter().find(|t| t.name == "FP_BASE").unwrap();
        let (rfp_best, fp_best) = (120.0, 40.0);
        let objective = |params: &SearchParams| {
            -((f64::from(params.rfp_margin) - rfp_best) / 40.0).powi(2)
                - ((f64::from(params.fp_base) - fp_best) / 50.0).powi(2)
        };
        let s = Schedule {
            r_end: 0.05,
            ..schedule(2000)
        };
        let mut theta = Theta::defaults(&[rfp, fp]);
        let mut rng = StdRng::seed_from_u64(1);
        for k in 0..s.iterations {
            let p = s.perturb(&theta, k, &mut rng);
            let diff = objective(&theta.engine_params(&p, 1.0))
                - objective(&theta.engine_params(&p, -1.0));
            s.update(&mut theta, &p, k, (diff * 20.0).clamp(-2.0, 2.0));
        }
        let (rfp_now, fp_now) = (theta.params[0].1, theta.params[1].1);
        assert!((rfp_now - rfp_best).abs() < 10.0, "{rfp_now}");
        assert!((fp_now - fp_best).abs() < 12.0, "{fp_now}");
    }

    #[test]
    fn perturbed_params_stay_in_range_and_leave_the_rest_alone() {
        let rfp = TUNABLES.iter().find(|t| t.name == "RFP_MARGIN").unwrap();
        let mut theta = Theta::defaults(&[rfp]);
        theta.params[0].1 = f64::from(rfp.max) - 0.4;
        let p = Perturbation {
            signs: vec![1.0],
            sizes: vec![8.0],
        };
        let plus = theta.engine_params(&p, 1.0);
        let minus = theta.engine_params(&p, -1.0);
        assert_eq!(plus.rfp_margin, rfp.max);
        assert_eq!(minus.rfp_margin, rfp.max - 8);
        assert_eq!(
            SearchParams {
                rfp_margin: 0,
                ..plus
            },
            SearchParams {
                rfp_margin: 0,
                ..SearchParams::default()
            }
        );
        assert_eq!(theta.words(), ["RFP_MARGIN=200"]);
    }
}
