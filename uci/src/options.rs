//! The UCI options: their declarations for `uci`, and `setoption` parsing.

use engine::skill::{Strength, SKILL_LEVEL_MAX};
use std::fmt::Write;

pub const DEFAULT_HASH_MB: usize = 16;
pub const MAX_HASH_MB: usize = 1 << 20;
pub const MAX_THREADS: usize = 1024;
pub const MAX_MULTI_PV: usize = 256;
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
pub const MAX_SYZYGY_PROBE_DEPTH: i32 = 100;
pub const MAX_SYZYGY_PROBE_LIMIT: u32 = 7;

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
            syzygy_path: "<empty>".to_string(),
            syzygy_probe_depth: 1,
            syzygy_50_move_rule: true,
            syzygy_probe_limit: MAX_SYZYGY_PROBE_LIMIT,
            skill_level: SKILL_LEVEL_MAX,
            limit_strength: false,
            elo: engine::skill::ELO_MIN,
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

/// The `option ...` lines sent in answer to `uci`.
pub fn declarations() -> String {
    let d = Options::default();
    let mut s = String::new();
    let _ = writeln!(s, "option name Debug Log File type string default {EMPTY}");
    let _ = writeln!(
        s,
        "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
        d.hash_mb
    );
    let _ = writeln!(
        s,
        "option name Threads type spin default {} min 1 max {MAX_THREADS}",
        d.threads
    );
    let _ = writeln!(
        s,
        "option name MultiPV type spin default {} min 1 max {MAX_MULTI_PV}",
        d.multi_pv
    );
    let _ = writeln!(s, "option name Ponder type check default {}", d.ponder);
    let _ = writeln!(
        s,
        "option name Move Overhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
        d.move_overhead_ms
    );
    let _ = writeln!(s, "option name Clear Hash type button");
    let _ = writeln!(
        s,
        "option name UCI_Chess960 type check default {}",
        d.chess960
    );
    let _ = writeln!(
        s,
        "option name UCI_ShowWDL type check default {}",
        d.show_wdl
    );
    let _ = writeln!(
        s,
        "option name UCI_AnalyseMode type check default {}",
        d.analyse_mode
    );
    let _ = writeln!(
        s,
        "option name SyzygyPath type string default {}",
        d.syzygy_path
    );
    let _ = writeln!(
        s,
        "option name SyzygyProbeDepth type spin default {} min 1 max {MAX_SYZYGY_PROBE_DEPTH}",
        d.syzygy_probe_depth
    );
    let _ = writeln!(
        s,
        "option name Syzygy50MoveRule type check default {}",
        d.syzygy_50_move_rule
    );
    let _ = writeln!(
        s,
        "option name SyzygyProbeLimit type spin default {} min 0 max {MAX_SYZYGY_PROBE_LIMIT}",
        d.syzygy_probe_limit
    );
    let _ = writeln!(
        s,
        "option name Skill Level type spin default {} min 0 max {SKILL_LEVEL_MAX}",
        d.skill_level
    );
    let _ = writeln!(
        s,
        "option name UCI_LimitStrength type check default {}",
        d.limit_strength
    );
    let _ = writeln!(
        s,
        "option name UCI_Elo type spin default {} min {} max {}",
        d.elo,
        engine::skill::ELO_MIN,
        engine::skill::ELO_MAX
    );
    let eval_file = crate::evaluation::default_eval_file();
    let _ = writeln!(
        s,
        "option name EvalFile type string default {}",
        if eval_file.is_empty() {
            EMPTY
        } else {
            eval_file
        }
    );
    s
}

/// How UCI writes an empty string option.
pub(crate) const EMPTY: &str = "<empty>";

/// A `setoption` understood: what to change.
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
}

/// The result of parsing `setoption`: the change, and a note when the value
/// had to be clamped into range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub change: Change,
    pub note: Option<String>,
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
    // Stockfish joins the name's words with single spaces: so do we.
    let key = name
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase();
    let spin = |min: u64, max: u64| -> Result<(u64, Option<String>), String> {
        let v = value.ok_or_else(|| format!("option '{name}' needs a value"))?;
        let n: i128 = v
            .parse()
            .map_err(|_| format!("option '{name}': '{v}' is not a number"))?;
        let clamped = n.clamp(min as i128, max as i128) as u64;
        let note = (clamped as i128 != n).then(|| {
            format!("option '{name}': {n} is out of range {min}..{max}, set to {clamped}")
        });
        Ok((clamped, note))
    };
    // A path as given, spaces and all; `<empty>` is none.
    let path = || match value.unwrap_or("") {
        EMPTY => String::new(),
        path => path.to_string(),
    };
    let check = || -> Result<bool, String> {
        match value.map(str::to_ascii_lowercase).as_deref() {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(v) => Err(format!("option '{name}': '{v}' is not true or false")),
            None => Err(format!("option '{name}' needs a value true or false")),
        }
    };
    let (change, note) = match key.as_str() {
        "hash" => spin(1, MAX_HASH_MB as u64).map(|(v, n)| (Change::Hash(v as usize), n))?,
        "threads" => spin(1, MAX_THREADS as u64).map(|(v, n)| (Change::Threads(v as usize), n))?,
        "multipv" => spin(1, MAX_MULTI_PV as u64).map(|(v, n)| (Change::MultiPv(v as usize), n))?,
        "move overhead" => {
            spin(0, MAX_MOVE_OVERHEAD_MS).map(|(v, n)| (Change::MoveOverhead(v), n))?
        }
        "ponder" => (Change::Ponder(check()?), None),
        "uci_chess960" => (Change::Chess960(check()?), None),
        "uci_showwdl" => (Change::ShowWdl(check()?), None),
        "uci_analysemode" => (Change::AnalyseMode(check()?), None),
        "skill level" => {
            spin(0, u64::from(SKILL_LEVEL_MAX)).map(|(v, n)| (Change::SkillLevel(v as u32), n))?
        }
        "uci_limitstrength" => (Change::LimitStrength(check()?), None),
        "uci_elo" => spin(
            u64::from(engine::skill::ELO_MIN),
            u64::from(engine::skill::ELO_MAX),
        )
        .map(|(v, n)| (Change::Elo(v as u32), n))?,
        "clear hash" => (Change::ClearHash, None),
        // A path may contain spaces: everything after `value`, as given.
        "syzygypath" => (Change::SyzygyPath(value.unwrap_or("").to_string()), None),
        "syzygyprobedepth" => spin(1, MAX_SYZYGY_PROBE_DEPTH as u64)
            .map(|(v, n)| (Change::SyzygyProbeDepth(v as i32), n))?,
        "syzygy50moverule" => (Change::Syzygy50MoveRule(check()?), None),
        "syzygyprobelimit" => spin(0, u64::from(MAX_SYZYGY_PROBE_LIMIT))
            .map(|(v, n)| (Change::SyzygyProbeLimit(v as u32), n))?,
        "evalfile" => (Change::EvalFile(path()), None),
        "debug log file" => (Change::DebugLogFile(path()), None),
        _ => return Err(format!("unknown option '{name}'")),
    };
    Ok(Parsed { change, note })
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

    #[test]
    fn names_are_case_insensitive_and_may_contain_spaces() {
        assert_eq!(
            parse("name hash value 64").unwrap().change,
            Change::Hash(64)
        );
        for spaced in [
            "name Move Overhead value 100",
            "name  move \t OVERHEAD  value 100",
        ] {
            assert_eq!(parse(spaced).unwrap().change, Change::MoveOverhead(100));
        }
        assert_eq!(
            parse("name uci_chess960 value TRUE").unwrap().change,
            Change::Chess960(true)
        );
        assert_eq!(parse("name Clear Hash").unwrap().change, Change::ClearHash);
        assert_eq!(
            parse("name SyzygyPath value /tb/a b:/tb/c").unwrap().change,
            Change::SyzygyPath("/tb/a b:/tb/c".to_string())
        );
        assert_eq!(
            parse("name syzygyprobelimit value 9").unwrap().change,
            Change::SyzygyProbeLimit(MAX_SYZYGY_PROBE_LIMIT)
        );
        assert_eq!(
            parse("name Syzygy50MoveRule value false").unwrap().change,
            Change::Syzygy50MoveRule(false)
        );
        assert_eq!(
            parse("name SyzygyProbeDepth value 0").unwrap().change,
            Change::SyzygyProbeDepth(1)
        );
        assert_eq!(
            parse("name Debug Log File value /tmp/a log.txt")
                .unwrap()
                .change,
            Change::DebugLogFile("/tmp/a log.txt".to_string())
        );
        assert_eq!(
            parse("name debug log file value <empty>").unwrap().change,
            Change::DebugLogFile(String::new())
        );
        assert_eq!(
            parse("name Skill Level value 3").unwrap().change,
            Change::SkillLevel(3)
        );
        assert_eq!(
            parse("name UCI_LimitStrength value true").unwrap().change,
            Change::LimitStrength(true)
        );
        assert_eq!(
            parse("name UCI_Elo value 2000").unwrap().change,
            Change::Elo(2000)
        );
        assert_eq!(
            parse("name evalfile value /nets/a b.nnue").unwrap().change,
            Change::EvalFile("/nets/a b.nnue".to_string())
        );
        for empty in ["name EvalFile value <empty>", "name EvalFile"] {
            assert_eq!(
                parse(empty).unwrap().change,
                Change::EvalFile(String::new())
            );
        }
    }

    #[test]
    fn out_of_range_values_are_clamped_and_reported() {
        let p = parse("name Threads value 0").unwrap();
        assert_eq!(p.change, Change::Threads(1));
        assert!(p.note.unwrap().contains("out of range"));
        let p = parse("name UCI_Elo value 100").unwrap();
        assert_eq!(p.change, Change::Elo(engine::skill::ELO_MIN));
        assert!(p.note.unwrap().contains("out of range"));
        let p = parse("name Hash value 99999999999999999999").unwrap();
        assert_eq!(p.change, Change::Hash(MAX_HASH_MB));
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
}
