//! The engine's options: their values, their declarations (name, type,
//! default and range) and the reading of one `name`/`value` pair into the
//! change it asks for. The protocol prints the declarations and hands over
//! what `setoption` names; self-play's `--compare` sets read the same way.

use crate::params::Tunable;
use crate::skill::{Strength, ELO_MAX, ELO_MIN, SKILL_LEVEL_MAX};
use std::fmt;

pub const DEFAULT_HASH_MB: usize = 16;
pub const MAX_HASH_MB: usize = 1 << 20;
pub const MAX_THREADS: usize = 1024;
pub const MAX_MULTI_PV: usize = 256;
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
pub const MAX_SYZYGY_PROBE_DEPTH: i32 = 100;
pub const MAX_SYZYGY_PROBE_LIMIT: u32 = 7;

/// Whether this is a tuning build (feature `tune-search`): the search's
/// tunables are options of their own.
pub const TUNING: bool = cfg!(feature = "tune-search");

/// How UCI writes an empty string option; as a path it names nothing.
pub const EMPTY: &str = "<empty>";

#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub multi_pv: usize,
    pub ponder: bool,
    pub move_overhead_ms: u64,
    pub chess960: bool,
    pub show_wdl: bool,
    pub analyse_mode: bool,
    /// `SyzygyPath` as given; `<empty>` for none.
    pub syzygy_path: String,
    pub syzygy_probe_depth: i32,
    pub syzygy_50_move_rule: bool,
    pub syzygy_probe_limit: u32,
    pub skill_level: u32,
    pub limit_strength: bool,
    pub elo: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multi_pv: 1,
            ponder: false,
            move_overhead_ms: 10,
            chess960: false,
            show_wdl: false,
            analyse_mode: false,
            syzygy_path: EMPTY.to_string(),
            syzygy_probe_depth: 1,
            syzygy_50_move_rule: true,
            syzygy_probe_limit: MAX_SYZYGY_PROBE_LIMIT,
            skill_level: SKILL_LEVEL_MAX,
            limit_strength: false,
            elo: ELO_MIN,
        }
    }
}

impl Options {
    /// The strength to play at: `UCI_Elo`'s with `UCI_LimitStrength`, else
    /// `Skill Level`'s below its top; `None` for full strength.
    pub fn strength(&self) -> Option<Strength> {
        if self.limit_strength {
            Some(Strength::from_elo(self.elo))
        } else {
            (self.skill_level < SKILL_LEVEL_MAX)
                .then(|| Strength::from_skill_level(self.skill_level))
        }
    }
}

/// What kind of value an option takes, with its default and range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Check {
        default: bool,
    },
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Button,
    /// A string; `<empty>` is written for the empty default.
    Text {
        default: String,
    },
}

/// One option the engine offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    pub name: &'static str,
    pub kind: Kind,
}

/// Every option, in the order the engine announces them.
pub fn declarations() -> Vec<Declaration> {
    let d = Options::default();
    let spin = |default: i64, min: i64, max: i64| Kind::Spin { default, min, max };
    let text = |default: &str| Kind::Text {
        default: if default.is_empty() { EMPTY } else { default }.to_string(),
    };
    let option = |name, kind| Declaration { name, kind };
    let mut all = vec![
        option("Debug Log File", text("")),
        option("Hash", spin(d.hash_mb as i64, 1, MAX_HASH_MB as i64)),
        option("Threads", spin(d.threads as i64, 1, MAX_THREADS as i64)),
        option("MultiPV", spin(d.multi_pv as i64, 1, MAX_MULTI_PV as i64)),
        option("Ponder", Kind::Check { default: d.ponder }),
        option(
            "Move Overhead",
            spin(d.move_overhead_ms as i64, 0, MAX_MOVE_OVERHEAD_MS as i64),
        ),
        option("Clear Hash", Kind::Button),
        option(
            "UCI_Chess960",
            Kind::Check {
                default: d.chess960,
            },
        ),
        option(
            "UCI_ShowWDL",
            Kind::Check {
                default: d.show_wdl,
            },
        ),
        option(
            "UCI_AnalyseMode",
            Kind::Check {
                default: d.analyse_mode,
            },
        ),
        option("SyzygyPath", text(&d.syzygy_path)),
        option(
            "SyzygyProbeDepth",
            spin(
                i64::from(d.syzygy_probe_depth),
                1,
                i64::from(MAX_SYZYGY_PROBE_DEPTH),
            ),
        ),
        option(
            "Syzygy50MoveRule",
            Kind::Check {
                default: d.syzygy_50_move_rule,
            },
        ),
        option(
            "SyzygyProbeLimit",
            spin(
                i64::from(d.syzygy_probe_limit),
                0,
                i64::from(MAX_SYZYGY_PROBE_LIMIT),
            ),
        ),
        option(
            "Skill Level",
            spin(i64::from(d.skill_level), 0, i64::from(SKILL_LEVEL_MAX)),
        ),
        option(
            "UCI_LimitStrength",
            Kind::Check {
                default: d.limit_strength,
            },
        ),
        option(
            "UCI_Elo",
            spin(i64::from(d.elo), i64::from(ELO_MIN), i64::from(ELO_MAX)),
        ),
        option("EvalFile", text(crate::eval_file::default_name())),
    ];
    // OpenBench's SPSA sets the tunables as options of a tuning build.
    if TUNING {
        all.extend(crate::params::TUNABLES.iter().map(|t| {
            let kind = spin(t.default.into(), t.min.into(), t.max.into());
            option(t.name, kind)
        }));
    }
    all
}

/// The search tunable an option name stands for: in a tuning build each is
/// an option of its own, elsewhere none is.
fn tunable_option(key: &str) -> Option<&'static Tunable> {
    if TUNING {
        crate::params::tunable(key).ok().map(|(_, t)| t)
    } else {
        None
    }
}

/// An option set: what to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    DebugLogFile(String),
    Hash(usize),
    Threads(usize),
    MultiPv(usize),
    Ponder(bool),
    MoveOverhead(u64),
    ClearHash,
    Chess960(bool),
    ShowWdl(bool),
    AnalyseMode(bool),
    SyzygyPath(String),
    SyzygyProbeDepth(i32),
    Syzygy50MoveRule(bool),
    SyzygyProbeLimit(u32),
    SkillLevel(u32),
    LimitStrength(bool),
    Elo(u32),
    EvalFile(String),
    /// A search tunable (`SearchParams::set`), in a tuning build only.
    SearchParam {
        name: &'static str,
        value: i32,
    },
}

/// A change read, and whether its value had to be clamped into range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub change: Change,
    pub clamped: Option<Clamped>,
}

/// A number out of its option's range, and the value it was set to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clamped {
    pub name: String,
    pub given: i128,
    pub min: u64,
    pub max: u64,
    pub set: u64,
}

impl fmt::Display for Clamped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "option '{}': {} is out of range {}..{}, set to {}",
            self.name, self.given, self.min, self.max, self.set
        )
    }
}

/// Why a `name`/`value` pair changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    NoNumber(String),
    NotANumber { name: String, value: String },
    NoBoolean(String),
    NotABoolean { name: String, value: String },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unknown option '{name}'"),
            OptionError::NoNumber(name) => write!(f, "option '{name}' needs a value"),
            OptionError::NotANumber { name, value } => {
                write!(f, "option '{name}': '{value}' is not a number")
            }
            OptionError::NoBoolean(name) => {
                write!(f, "option '{name}' needs a value true or false")
            }
            OptionError::NotABoolean { name, value } => {
                write!(f, "option '{name}': '{value}' is not true or false")
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// Reads option `name` (case-insensitive, words joined by single spaces as
/// Stockfish does) set to `value`; a number out of range is clamped.
pub fn parse(name: &str, value: Option<&str>) -> Result<Parsed, OptionError> {
    let key = name
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase();
    let spin = |min: u64, max: u64| -> Result<(u64, Option<Clamped>), OptionError> {
        let v = value.ok_or_else(|| OptionError::NoNumber(name.to_string()))?;
        let n: i128 = v.parse().map_err(|_| OptionError::NotANumber {
            name: name.to_string(),
            value: v.to_string(),
        })?;
        let set = n.clamp(min as i128, max as i128) as u64;
        let clamped = (set as i128 != n).then(|| Clamped {
            name: name.to_string(),
            given: n,
            min,
            max,
            set,
        });
        Ok((set, clamped))
    };
    // A path as given, spaces and all; `<empty>` is none.
    let path = || match value.unwrap_or("") {
        EMPTY => String::new(),
        path => path.to_string(),
    };
    let check = || -> Result<bool, OptionError> {
        match value.map(str::to_ascii_lowercase).as_deref() {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(v) => Err(OptionError::NotABoolean {
                name: name.to_string(),
                value: v.to_string(),
            }),
            None => Err(OptionError::NoBoolean(name.to_string())),
        }
    };
    let (change, clamped) = match key.as_str() {
        "hash" => spin(1, MAX_HASH_MB as u64).map(|(v, c)| (Change::Hash(v as usize), c))?,
        "threads" => spin(1, MAX_THREADS as u64).map(|(v, c)| (Change::Threads(v as usize), c))?,
        "multipv" => spin(1, MAX_MULTI_PV as u64).map(|(v, c)| (Change::MultiPv(v as usize), c))?,
        "move overhead" => {
            spin(0, MAX_MOVE_OVERHEAD_MS).map(|(v, c)| (Change::MoveOverhead(v), c))?
        }
        "ponder" => (Change::Ponder(check()?), None),
        "uci_chess960" => (Change::Chess960(check()?), None),
        "uci_showwdl" => (Change::ShowWdl(check()?), None),
        "uci_analysemode" => (Change::AnalyseMode(check()?), None),
        "skill level" => {
            spin(0, u64::from(SKILL_LEVEL_MAX)).map(|(v, c)| (Change::SkillLevel(v as u32), c))?
        }
        "uci_limitstrength" => (Change::LimitStrength(check()?), None),
        "uci_elo" => {
            spin(u64::from(ELO_MIN), u64::from(ELO_MAX)).map(|(v, c)| (Change::Elo(v as u32), c))?
        }
        "clear hash" => (Change::ClearHash, None),
        // A path may contain spaces: everything after `value`, as given.
        "syzygypath" => (Change::SyzygyPath(value.unwrap_or("").to_string()), None),
        "syzygyprobedepth" => spin(1, MAX_SYZYGY_PROBE_DEPTH as u64)
            .map(|(v, c)| (Change::SyzygyProbeDepth(v as i32), c))?,
        "syzygy50moverule" => (Change::Syzygy50MoveRule(check()?), None),
        "syzygyprobelimit" => spin(0, u64::from(MAX_SYZYGY_PROBE_LIMIT))
            .map(|(v, c)| (Change::SyzygyProbeLimit(v as u32), c))?,
        "evalfile" => (Change::EvalFile(path()), None),
        "debug log file" => (Change::DebugLogFile(path()), None),
        _ => match tunable_option(&key) {
            Some(t) => spin(t.min as u64, t.max as u64).map(|(v, c)| {
                let value = v as i32;
                (
                    Change::SearchParam {
                        name: t.name,
                        value,
                    },
                    c,
                )
            })?,
            None => return Err(OptionError::Unknown(name.to_string())),
        },
    };
    Ok(Parsed { change, clamped })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_may_contain_spaces() {
        let change = |name: &str, value: Option<&str>| parse(name, value).unwrap().change;
        assert_eq!(change("hash", Some("64")), Change::Hash(64));
        for spaced in ["Move Overhead", " move \t OVERHEAD "] {
            assert_eq!(change(spaced, Some("100")), Change::MoveOverhead(100));
        }
        assert_eq!(change("uci_chess960", Some("TRUE")), Change::Chess960(true));
        assert_eq!(change("Clear Hash", None), Change::ClearHash);
        assert_eq!(
            change("SyzygyPath", Some("/tb/a b:/tb/c")),
            Change::SyzygyPath("/tb/a b:/tb/c".to_string())
        );
        assert_eq!(
            change("syzygyprobelimit", Some("9")),
            Change::SyzygyProbeLimit(MAX_SYZYGY_PROBE_LIMIT)
        );
        assert_eq!(
            change("Syzygy50MoveRule", Some("false")),
            Change::Syzygy50MoveRule(false)
        );
        assert_eq!(
            change("SyzygyProbeDepth", Some("0")),
            Change::SyzygyProbeDepth(1)
        );
        assert_eq!(
            change("Debug Log File", Some("/tmp/a log.txt")),
            Change::DebugLogFile("/tmp/a log.txt".to_string())
        );
        assert_eq!(
            change("debug log file", Some(EMPTY)),
            Change::DebugLogFile(String::new())
        );
        assert_eq!(change("Skill Level", Some("3")), Change::SkillLevel(3));
        assert_eq!(
            change("UCI_LimitStrength", Some("true")),
            Change::LimitStrength(true)
        );
        assert_eq!(change("UCI_Elo", Some("2000")), Change::Elo(2000));
        assert_eq!(
            change("evalfile", Some("/nets/a b.nnue")),
            Change::EvalFile("/nets/a b.nnue".to_string())
        );
        for empty in [Some(EMPTY), None] {
            assert_eq!(change("EvalFile", empty), Change::EvalFile(String::new()));
        }
    }

    #[test]
    fn out_of_range_values_are_clamped_and_reported() {
        let p = parse("Threads", Some("0")).unwrap();
        assert_eq!(p.change, Change::Threads(1));
        assert_eq!(
            p.clamped.unwrap().to_string(),
            "option 'Threads': 0 is out of range 1..1024, set to 1"
        );
        let p = parse("UCI_Elo", Some("100")).unwrap();
        assert_eq!(p.change, Change::Elo(ELO_MIN));
        assert!(p.clamped.is_some());
        let p = parse("Hash", Some("99999999999999999999")).unwrap();
        assert_eq!(p.change, Change::Hash(MAX_HASH_MB));
        assert!(parse("Hash", Some("64")).unwrap().clamped.is_none());
    }

    #[test]
    fn bad_values_and_unknown_names_are_errors() {
        assert_eq!(
            parse("Hash", Some("lots")).unwrap_err().to_string(),
            "option 'Hash': 'lots' is not a number"
        );
        assert_eq!(
            parse("Nonsense", Some("1")).unwrap_err(),
            OptionError::Unknown("Nonsense".to_string())
        );
        assert_eq!(
            parse("Ponder", Some("Maybe")).unwrap_err().to_string(),
            "option 'Ponder': 'maybe' is not true or false"
        );
        assert_eq!(
            parse("Hash", None).unwrap_err(),
            OptionError::NoNumber("Hash".to_string())
        );
        assert_eq!(
            parse("Ponder", None).unwrap_err(),
            OptionError::NoBoolean("Ponder".to_string())
        );
    }

    #[test]
    fn search_tunables_are_options_only_in_a_tuning_build() {
        let declared = declarations();
        let tunables = crate::params::TUNABLES;
        let listed = |name: &str| declared.iter().any(|d| d.name == name);
        let parsed = parse("rfp_margin", Some("90")).map(|p| p.change);
        if TUNING {
            assert!(tunables.iter().all(|t| listed(t.name)));
            assert_eq!(
                parsed,
                Ok(Change::SearchParam {
                    name: "RFP_MARGIN",
                    value: 90
                })
            );
            let p = parse("RFP_MARGIN", Some("100000")).unwrap();
            assert!(p.clamped.is_some());
        } else {
            assert!(!tunables.iter().any(|t| listed(t.name)));
            assert_eq!(parsed, Err(OptionError::Unknown("rfp_margin".into())));
        }
    }

    #[test]
    fn every_declared_option_is_understood_and_every_spin_range_is_enforced() {
        for d in declarations() {
            let value = match &d.kind {
                Kind::Check { default } => default.to_string(),
                Kind::Spin { default, .. } => default.to_string(),
                Kind::Button => String::new(),
                Kind::Text { default } => default.clone(),
            };
            let value = (!value.is_empty()).then_some(value.as_str());
            let parsed = parse(d.name, value).unwrap_or_else(|e| panic!("{}: {e}", d.name));
            assert!(parsed.clamped.is_none(), "{}", d.name);
            if let Kind::Spin { min, max, .. } = d.kind {
                for outside in [min - 1, max + 1] {
                    let clamped = parse(d.name, Some(&outside.to_string())).unwrap().clamped;
                    assert_eq!(
                        clamped.map(|c| (c.min as i64, c.max as i64)),
                        Some((min, max)),
                        "{}",
                        d.name
                    );
                }
            }
        }
    }
}
