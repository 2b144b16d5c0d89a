//! The engine settings one player of a game uses: `--hash` for both sides
//! in plain self-play, or one of the two option sets of `--compare`, which
//! may set any UCI option (`EvalFile` above all, to play two networks, or a
//! network and the hand-crafted evaluation, against each other).

use engine::options::{self, Change};
use engine::{EvalFile, SearchOptions, SearchParams};
use std::fmt;
use std::time::Duration;

#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSettings {
    pub hash_mb: usize,
    pub threads: usize,
    pub multi_pv: usize,
    pub move_overhead_ms: u64,
    pub evaluation: EvalFile,
    /// The search's tunables: the defaults, or what a tuning build's
    /// `--compare` sets or `hoeven spsa` tries.
    pub params: SearchParams,
    /// The `name=value` words of a `--compare` set, for the players' names.
    words: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsError {
    /// A word that is not `name=value`.
    Syntax(String),
    /// An option or value that UCI `setoption` would refuse or clamp, or a
    /// network file that cannot be used; the reason.
    Refused(String),
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::Syntax(w) => write!(f, "'{w}' is not name=value"),
            SettingsError::Refused(why) => write!(f, "{why}"),
        }
    }
}

/// Splits `name=value` words; a name may hold spaces (`Move Overhead=50`),
/// a value may not.
fn pairs(text: &str) -> Result<Vec<(String, String)>, SettingsError> {
    let mut out = Vec::new();
    let mut name = Vec::new();
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        match word.split_once('=') {
            Some((last, value)) => {
                name.push(last);
                out.push((name.join(" "), value.to_string()));
                name.clear();
            }
            None => name.push(word),
        }
    }
    if !name.is_empty() {
        return Err(SettingsError::Syntax(name.join(" ")));
    }
    Ok(out)
}

impl PlayerSettings {
    /// Plain self-play's settings: a table of `hash_mb` MB, the rest as a
    /// UCI engine starts (the binary's default evaluation among them).
    pub fn new(hash_mb: usize) -> Result<PlayerSettings, SettingsError> {
        let defaults = options::Options::default();
        Ok(PlayerSettings {
            hash_mb,
            threads: defaults.threads,
            multi_pv: defaults.multi_pv,
            move_overhead_ms: defaults.move_overhead_ms,
            evaluation: EvalFile::builtin()
                .map_err(|(_, why)| SettingsError::Refused(why.to_string()))?,
            params: SearchParams::default(),
            words: Vec::new(),
        })
    }

    /// Reads `name=value` words, separated by spaces or commas, over
    /// `base`; names and values as in UCI `setoption`, except that a value
    /// out of range is refused rather than clamped. Options that mean
    /// nothing to a self-play game (`Ponder`, `UCI_ShowWDL`, ...) are
    /// accepted and change nothing.
    pub fn parse(text: &str, base: &PlayerSettings) -> Result<PlayerSettings, SettingsError> {
        let mut settings = base.clone();
        for (name, value) in pairs(text)? {
            let parsed = options::parse(&name, Some(&value))
                .map_err(|e| SettingsError::Refused(e.to_string()))?;
            if let Some(clamped) = parsed.clamped {
                return Err(SettingsError::Refused(clamped.to_string()));
            }
            match parsed.change {
                Change::Hash(mb) => settings.hash_mb = mb,
                Change::Threads(n) => settings.threads = n,
                Change::MultiPv(n) => settings.multi_pv = n,
                Change::MoveOverhead(ms) => settings.move_overhead_ms = ms,
                Change::EvalFile(path) => {
                    settings.evaluation =
                        EvalFile::load(&path).map_err(|e| SettingsError::Refused(e.to_string()))?;
                }
                Change::SearchParam { name, value } => settings
                    .params
                    .set(name, value.into())
                    .map_err(|e| SettingsError::Refused(e.to_string()))?,
                Change::Ponder(_)
                | Change::ClearHash
                | Change::Chess960(_)
                | Change::ShowWdl(_)
                | Change::AnalyseMode(_) => {}
                // Self-play's engines have no tables and play at full
                // strength: refusing says so instead of ignoring the word.
                Change::DebugLogFile(_)
                | Change::SyzygyPath(_)
                | Change::SyzygyProbeDepth(_)
                | Change::Syzygy50MoveRule(_)
                | Change::SyzygyProbeLimit(_)
                | Change::SkillLevel(_)
                | Change::LimitStrength(_)
                | Change::Elo(_) => {
                    return Err(SettingsError::Refused(format!(
                        "{name} is not available in self-play"
                    )))
                }
            }
            settings.words.push(format!("{name}={value}"));
        }
        Ok(settings)
    }

    pub fn search_options(&self) -> SearchOptions {
        SearchOptions {
            threads: self.threads,
            multi_pv: self.multi_pv,
            move_overhead: Duration::from_millis(self.move_overhead_ms),
        }
    }
}

impl fmt::Display for PlayerSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hash={}", self.hash_mb)?;
        for word in self.words.iter().filter(|w| {
            !w.split_once('=')
                .is_some_and(|(n, _)| n.eq_ignore_ascii_case("hash"))
        }) {
            write!(f, " {word}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> PlayerSettings {
        PlayerSettings::new(16).unwrap()
    }

    #[test]
    fn options_override_the_base() {
        assert_eq!(PlayerSettings::parse("", &base()), Ok(base()));
        let s = PlayerSettings::parse("hash=64", &base()).unwrap();
        assert_eq!(s.hash_mb, 64);
        assert_eq!(s.to_string(), "Hash=64");
        assert_eq!(
            PlayerSettings::parse(" Hash=2, ", &base()).map(|s| s.hash_mb),
            Ok(2)
        );
        let s = PlayerSettings::parse("Threads=2 Move Overhead=50,MultiPV=3 Ponder=true", &base())
            .unwrap();
        assert_eq!((s.threads, s.multi_pv, s.move_overhead_ms), (2, 3, 50));
        assert_eq!(s.search_options().threads, 2);
        assert_eq!(
            s.to_string(),
            "Hash=16 Threads=2 Move Overhead=50 MultiPV=3 Ponder=true"
        );
        assert_eq!(PlayerSettings::new(8).unwrap().to_string(), "Hash=8");
    }

    #[test]
    fn search_tunables_are_set_in_a_tuning_build() {
        let s = PlayerSettings::parse("RFP_MARGIN=90", &base());
        if options::TUNING {
            let s = s.unwrap();
            assert_eq!(s.params.rfp_margin, 90);
            assert_eq!(s.to_string(), "Hash=16 RFP_MARGIN=90");
            assert!(PlayerSettings::parse("RFP_MARGIN=100000", &base()).is_err());
        } else {
            assert!(
                matches!(s, Err(SettingsError::Refused(why)) if why.contains("unknown option"))
            );
        }
    }

    #[test]
    fn eval_file_loads_the_network() {
        let s = PlayerSettings::parse("EvalFile=<empty>", &base()).unwrap();
        assert!(s.evaluation.network().is_none());
        assert!(matches!(
            PlayerSettings::parse("EvalFile=/nonexistent/net.nnue", &base()),
            Err(SettingsError::Refused(why)) if why.contains("/nonexistent/net.nnue")
        ));
    }

    #[test]
    fn bad_sets_are_refused_with_the_reason() {
        assert_eq!(
            PlayerSettings::parse("Hash", &base()),
            Err(SettingsError::Syntax("Hash".into()))
        );
        assert!(matches!(
            PlayerSettings::parse("Frobnicate=2", &base()),
            Err(SettingsError::Refused(why)) if why.contains("unknown option")
        ));
        for bad in [
            "Hash=0",
            "Hash=-1",
            "Hash=x",
            "Hash=99999999999",
            "Ponder=maybe",
        ] {
            assert!(
                matches!(
                    PlayerSettings::parse(bad, &base()),
                    Err(SettingsError::Refused(_))
                ),
                "{bad}"
            );
        }
    }
}
