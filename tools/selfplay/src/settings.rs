//! The engine settings one player of a game uses: `--hash` for both sides
//! in plain self-play, or one of the two option sets of `--compare`.

use std::fmt;
use uci::options::MAX_HASH_MB;

/// Options a `--compare` set may name; more join as parameters become
/// settable.
const KNOWN: &str = "Hash";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub hash_mb: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsError {
    /// A word that is not `name=value`.
    Syntax(String),
    UnknownOption(String),
    BadValue {
        name: String,
        value: String,
    },
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::Syntax(w) => write!(f, "'{w}' is not name=value"),
            SettingsError::UnknownOption(n) => {
                write!(f, "unknown option '{n}' (known: {KNOWN})")
            }
            SettingsError::BadValue { name, value } => {
                write!(
                    f,
                    "{name}={value}: expected a whole number of MB from 1 to {MAX_HASH_MB}"
                )
            }
        }
    }
}

impl Settings {
    /// Reads `name=value` words, separated by spaces or commas, over
    /// `base`; names are case-insensitive as in UCI `setoption`.
    pub fn parse(text: &str, base: &Settings) -> Result<Settings, SettingsError> {
        let mut settings = base.clone();
        for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
            let Some((name, value)) = word.split_once('=') else {
                return Err(SettingsError::Syntax(word.to_string()));
            };
            if !name.eq_ignore_ascii_case("hash") {
                return Err(SettingsError::UnknownOption(name.to_string()));
            }
            settings.hash_mb = value
                .parse::<usize>()
                .ok()
                .filter(|mb| (1..=MAX_HASH_MB).contains(mb))
                .ok_or_else(|| SettingsError::BadValue {
                    name: name.to_string(),
                    value: value.to_string(),
                })?;
        }
        Ok(settings)
    }
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hash={}", self.hash_mb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: Settings = Settings { hash_mb: 16 };

    #[test]
    fn options_override_the_base() {
        assert_eq!(Settings::parse("", &BASE), Ok(BASE));
        assert_eq!(
            Settings::parse("hash=64", &BASE),
            Ok(Settings { hash_mb: 64 })
        );
        assert_eq!(
            Settings::parse(" Hash=2, ", &BASE).map(|s| s.hash_mb),
            Ok(2)
        );
        assert_eq!(Settings { hash_mb: 8 }.to_string(), "Hash=8");
    }

    #[test]
    fn bad_sets_are_refused_with_the_reason() {
        assert_eq!(
            Settings::parse("Hash", &BASE),
            Err(SettingsError::Syntax("Hash".into()))
        );
        assert!(matches!(
            Settings::parse("Threads=2", &BASE),
            Err(SettingsError::UnknownOption(n)) if n == "Threads"
        ));
        for bad in ["Hash=0", "Hash=-1", "Hash=x", "Hash=99999999999"] {
            assert!(
                matches!(
                    Settings::parse(bad, &BASE),
                    Err(SettingsError::BadValue { .. })
                ),
                "{bad}"
            );
        }
    }
}
