//! The UCI text of the engine's options (`engine::options`): the `option`
//! lines sent in answer to `uci`, and the words of `setoption`.

use engine::options::{self, Declaration, Kind, Parsed};
use std::fmt::Write;

/// The `option ...` lines sent in answer to `uci`.
pub fn declarations() -> String {
    let mut s = String::new();
    for Declaration { name, kind } in options::declarations() {
        let _ = match kind {
            Kind::Check { default } => {
                writeln!(s, "option name {name} type check default {default}")
            }
            Kind::Spin { default, min, max } => writeln!(
                s,
                "option name {name} type spin default {default} min {min} max {max}"
            ),
            Kind::Button => writeln!(s, "option name {name} type button"),
            Kind::Text { default } => {
                writeln!(s, "option name {name} type string default {default}")
            }
        };
    }
    s
}

/// Parses the words after `setoption`: `name <name...> [value <value...>]`.
pub fn parse(args: &str) -> Result<Parsed, String> {
    let args = args.trim();
    let Some(rest) = strip_keyword(args, "name") else {
        return Err("setoption needs 'name <option>'".to_string());
    };
    let (name, value) = match find_keyword(rest, "value") {
        Some((name, value)) => (name.trim(), Some(value.trim())),
        None => (rest.trim(), None),
    };
    options::parse(name, value).map_err(|e| e.to_string())
}

/// `s` without a leading `keyword` (case-insensitive, whole word).
fn strip_keyword<'a>(s: &'a str, keyword: &str) -> Option<&'a str> {
    let (first, rest) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
    first.eq_ignore_ascii_case(keyword).then_some(rest)
}

/// Splits `s` at the first whole word `keyword`.
fn find_keyword<'a>(s: &'a str, keyword: &str) -> Option<(&'a str, &'a str)> {
    let mut offset = 0;
    for word in s.split(' ') {
        if word.eq_ignore_ascii_case(keyword) {
            return Some((&s[..offset], &s[(offset + word.len()).min(s.len())..]));
        }
        offset += word.len() + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::options::Change;

    #[test]
    fn name_and_value_are_split_at_their_keywords() {
        assert_eq!(
            parse("name hash value 64").unwrap().change,
            Change::Hash(64)
        );
        for spaced in [
            "name Move Overhead value 100",
            "NAME  move \t OVERHEAD  VALUE 100",
        ] {
            assert_eq!(parse(spaced).unwrap().change, Change::MoveOverhead(100));
        }
        assert_eq!(parse("name Clear Hash").unwrap().change, Change::ClearHash);
        assert_eq!(
            parse("name SyzygyPath value /tb/a b:/tb/c").unwrap().change,
            Change::SyzygyPath("/tb/a b:/tb/c".to_string())
        );
        assert_eq!(
            parse("name Debug Log File value /tmp/a log.txt")
                .unwrap()
                .change,
            Change::DebugLogFile("/tmp/a log.txt".to_string())
        );
        for empty in ["name EvalFile value <empty>", "name EvalFile"] {
            assert_eq!(
                parse(empty).unwrap().change,
                Change::EvalFile(String::new())
            );
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(parse("name Hash value lots")
            .unwrap_err()
            .contains("not a number"));
        assert!(parse("name Nonsense value 1")
            .unwrap_err()
            .contains("unknown option"));
        assert!(parse("Hash value 1").is_err());
        assert!(parse("name Ponder value maybe").is_err());
        assert!(parse("name Hash").is_err());
    }

    #[test]
    fn every_option_is_declared_in_uci_form() {
        let lines = declarations();
        assert!(lines.starts_with("option name Debug Log File type string default <empty>\n"));
        assert!(lines.contains("option name Hash type spin default 16 min 1 max 1048576\n"));
        assert!(lines.contains("option name Clear Hash type button\n"));
        assert!(lines.contains("option name UCI_Chess960 type check default false\n"));
        assert_eq!(lines.lines().count(), options::declarations().len());
    }
}
