//! One block of SPSA pairs, played at once on a thread pool with the
//! self-play game runner: every pair perturbs the same parameters, and the
//! updates follow in pair order, so the result depends only on the seed.

use super::args::{Config, SpsaVariant};
use super::state::State;
use crate::adjudication::AdjudicationRules;
use crate::game;
use crate::limits::MoveLimit;
use crate::openings::Source;
use crate::player::Player;
use crate::settings::{PlayerSettings, SettingsError};
use chess::openings::Variant;
use chess::Color;
use engine::{AllocError, SearchParams};
use rand::rngs::StdRng;
use rand::SeedableRng;
use rayon::prelude::*;
use std::fmt;

#[derive(Debug)]
pub enum PlayError {
    PlayerSettings(SettingsError),
    Hash(AllocError),
    Threads(rayon::ThreadPoolBuildError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::PlayerSettings(e) => write!(f, "{e}"),
            PlayError::Hash(e) => write!(f, "hash table: {e}"),
            PlayError::Threads(e) => write!(f, "cannot start the game threads: {e}"),
        }
    }
}

/// What every pair shares.
pub struct Players {
    settings: PlayerSettings,
    limit: MoveLimit,
    variant: SpsaVariant,
    pool: rayon::ThreadPool,
}

impl Players {
    pub fn new(config: &Config) -> Result<Players, PlayError> {
        Ok(Players {
            settings: PlayerSettings::new(config.hash_mb).map_err(PlayError::PlayerSettings)?,
            limit: MoveLimit {
                nodes: Some(config.nodes),
                ..MoveLimit::default()
            },
            variant: config.variant,
            pool: rayon::ThreadPoolBuilder::new()
                .num_threads(config.concurrency)
                .thread_name(|i| format!("spsa-{i}"))
                .build()
                .map_err(PlayError::Threads)?,
        })
    }

    fn player(&self, params: SearchParams) -> Result<Player, PlayError> {
        let mut settings = self.settings.clone();
        settings.params = params;
        Player::new(&settings).map_err(PlayError::Hash)
    }

    /// Pair `k`: the plus set's score minus the minus set's, -2 to 2.
    fn pair(
        &self,
        k: u64,
        seed: u64,
        plus: SearchParams,
        minus: SearchParams,
    ) -> Result<f64, PlayError> {
        let mut players = [self.player(plus)?, self.player(minus)?];
        let variant = match (self.variant, k % 2) {
            (SpsaVariant::Chess960, _) | (SpsaVariant::Both, 0) => Variant::Chess960,
            (SpsaVariant::Dfrc, _) | (SpsaVariant::Both, _) => Variant::Dfrc,
        };
        let mut rng = StdRng::seed_from_u64(seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let opening = Source::Random(variant).opening(k, &mut rng);
        let mut plus_points = 0.0;
        for (seats, plus_colour) in [([0, 1], Color::White), ([1, 0], Color::Black)] {
            let game = game::play(
                opening.clone(),
                &mut players,
                seats,
                &self.limit,
                AdjudicationRules::default(),
            );
            plus_points += game.outcome.points(plus_colour);
        }
        Ok(2.0 * plus_points - 2.0)
    }
}

/// Plays `pairs` pairs from `state` and applies their updates; returns
/// their summed results.
pub fn play(players: &Players, state: &mut State, pairs: u64) -> Result<f64, PlayError> {
    let first = state.pairs;
    let perturbations: Vec<_> = (first..first + pairs)
        .map(|k| {
            let mut rng = StdRng::seed_from_u64(
                state
                    .seed
                    .wrapping_add(k)
                    .wrapping_mul(0xD129_0C35_4E5A_7B27),
            );
            state.schedule.perturb(&state.theta, k, &mut rng)
        })
        .collect();
    let theta = &state.theta;
    let seed = state.seed;
    let results: Vec<f64> = players.pool.install(|| {
        perturbations
            .par_iter()
            .enumerate()
            .map(|(i, p)| {
                let k = first + i as u64;
                players.pair(
                    k,
                    seed,
                    theta.engine_params(p, 1.0),
                    theta.engine_params(p, -1.0),
                )
            })
            .collect::<Result<_, _>>()
    })?;
    for (i, (p, result)) in perturbations.iter().zip(&results).enumerate() {
        state
            .schedule
            .update(&mut state.theta, p, first + i as u64, *result);
    }
    state.pairs += pairs;
    Ok(results.iter().sum())
}
