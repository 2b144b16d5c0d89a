//! What the command-line tools (`selfplay`, `analyse`) share in reading
//! their arguments.

use std::fmt;
use std::process::ExitCode;

/// A command line read: a request for the help text, or a run.
#[derive(Debug, PartialEq, Eq)]
pub enum Parsed<C> {
    Help,
    Run(C),
}

/// The configuration of a run, or the exit code after the help text was
/// printed (success) or a bad command line was reported (2).
pub fn config_or_exit<C, E: fmt::Display>(
    command: &str,
    help: &str,
    parsed: Result<Parsed<C>, E>,
) -> Result<C, ExitCode> {
    match parsed {
        Ok(Parsed::Help) => {
            println!("{help}");
            Err(ExitCode::SUCCESS)
        }
        Ok(Parsed::Run(config)) => Ok(config),
        Err(e) => {
            eprintln!("{command}: {e} (hoeven {command} --help lists the options)");
            Err(ExitCode::from(2))
        }
    }
}
