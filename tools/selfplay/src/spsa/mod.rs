//! `hoeven spsa`: tunes the search's parameters (engine::TUNABLES) by SPSA
//! in self-play. Each iteration perturbs every parameter up or down at
//! random and plays one game pair (same opening, colours swapped) between
//! the two perturbed sets; the result moves the parameters. Pairs run in
//! blocks on every core, and the state file is rewritten after each block,
//! so that a stopped run resumes from it.

mod args;
mod block;
mod schedule;
mod state;

pub use args::{Args, Config, SpsaArgError};
pub use schedule::{Schedule, Theta};
pub use state::{State, StateError};

use std::fmt;
use std::process::ExitCode;

#[derive(Debug)]
pub enum SpsaError {
    State(StateError),
    Play(block::PlayError),
}

impl fmt::Display for SpsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpsaError::State(e) => write!(f, "{e}"),
            SpsaError::Play(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SpsaError {}

/// Runs `config` from its state file (or a new state) and prints the tuned
/// values at the end.
pub fn run(config: &Config) -> ExitCode {
    match tune(config, &mut |line| println!("{line}")) {
        Ok(state) => {
            println!("spsa: {} pairs; the values, for params.rs:", state.pairs);
            let words = state.theta.words();
            for word in &words {
                println!("{word}");
            }
            println!("for selfplay: --compare \"{}\" \"\"", words.join(" "));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("spsa: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Plays the blocks `config` asks for, saving the state after each, and
/// returns the last state; `report` gets a line per block.
pub fn tune(config: &Config, report: &mut dyn FnMut(String)) -> Result<State, SpsaError> {
    let mut state = if config.state.exists() {
        let state = State::load(&config.state, &config.params).map_err(SpsaError::State)?;
        report(format!(
            "spsa: resuming {} at pair {} of {}, seed {}",
            config.state.display(),
            state.pairs,
            state.schedule.iterations,
            state.seed
        ));
        state
    } else {
        State {
            seed: config.seed,
            schedule: config.schedule,
            pairs: 0,
            theta: Theta::defaults(&config.params),
        }
    };
    let player = block::Players::new(config).map_err(SpsaError::Play)?;
    for block in 0..config.blocks.unwrap_or(u64::MAX) {
        let left = state.schedule.iterations.saturating_sub(state.pairs);
        if left == 0 {
            break;
        }
        let pairs = config.pairs_per_block.min(left);
        let score = block::play(&player, &mut state, pairs).map_err(SpsaError::Play)?;
        state.save(&config.state).map_err(SpsaError::State)?;
        report(format!(
            "block {}: pairs {}/{}, plus - minus {score:+}: {}",
            block + 1,
            state.pairs,
            state.schedule.iterations,
            state
                .theta
                .params
                .iter()
                .map(|(t, v)| format!("{}={v:.2}", t.name))
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    Ok(state)
}
