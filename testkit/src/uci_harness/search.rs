//! What a search says: `info` lines, scores, `bestmove`, and the checks
//! that every move in them is legal.

use super::*;
use chess::{Board, Move};
use std::time::Duration;

/// A UCI score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i64),
    Mate(i64),
}

/// An `info` line, read strictly: every keyword must be known and every
/// numeric field an integer.
#[derive(Clone, Debug, Default)]
pub struct Info {
    pub raw: String,
    pub depth: Option<i64>,
    pub seldepth: Option<i64>,
    pub multipv: Option<i64>,
    pub score: Option<Score>,
    /// `lowerbound` or `upperbound`.
    pub bound: Option<String>,
    pub wdl: Option<[i64; 3]>,
    pub nodes: Option<i64>,
    pub nps: Option<i64>,
    pub time: Option<i64>,
    pub hashfull: Option<i64>,
    pub tbhits: Option<i64>,
    pub currmove: Option<String>,
    pub currmovenumber: Option<i64>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

/// Whether `s` looks like a UCI move (`e2e4`, `e7e8q`).
pub fn looks_like_move(s: &str) -> bool {
    let b = s.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
}

impl Info {
    pub fn parse(line: &str) -> Result<Info, String> {
        let err = |what: &str| Err(format!("bad info line ({what}): '{line}'"));
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") {
            return err("does not start with 'info'");
        }
        let mut info = Info {
            raw: line.to_string(),
            ..Info::default()
        };
        let int = |i: usize| -> Result<i64, String> {
            words
                .get(i)
                .and_then(|w| w.parse::<i64>().ok())
                .ok_or_else(|| {
                    format!(
                        "bad info line (field '{}' needs an integer): '{line}'",
                        words[i - 1]
                    )
                })
        };
        let mut i = 1;
        while i < words.len() {
            let key = words[i];
            match key {
                "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "time" | "hashfull"
                | "tbhits" | "currmovenumber" => {
                    let v = int(i + 1)?;
                    if v < 0 {
                        return err("negative count");
                    }
                    let slot = match key {
                        "depth" => &mut info.depth,
                        "seldepth" => &mut info.seldepth,
                        "multipv" => &mut info.multipv,
                        "nodes" => &mut info.nodes,
                        "nps" => &mut info.nps,
                        "time" => &mut info.time,
                        "hashfull" => &mut info.hashfull,
                        "tbhits" => &mut info.tbhits,
                        _ => &mut info.currmovenumber,
                    };
                    if slot.replace(v).is_some() {
                        return err("repeated field");
                    }
                    i += 2;
                }
                "score" => {
                    let v = int(i + 2)?;
                    info.score = Some(match words.get(i + 1) {
                        Some(&"cp") => Score::Cp(v),
                        Some(&"mate") => Score::Mate(v),
                        _ => return err("score is neither cp nor mate"),
                    });
                    i += 3;
                    if let Some(&b @ ("lowerbound" | "upperbound")) = words.get(i) {
                        info.bound = Some(b.to_string());
                        i += 1;
                    }
                }
                "wdl" => {
                    info.wdl = Some([int(i + 1)?, int(i + 2)?, int(i + 3)?]);
                    i += 4;
                }
                "currmove" => {
                    match words.get(i + 1) {
                        Some(m) if looks_like_move(m) => info.currmove = Some(m.to_string()),
                        _ => return err("currmove is not a move"),
                    }
                    i += 2;
                }
                "pv" => {
                    info.pv = words[i + 1..].iter().map(|s| s.to_string()).collect();
                    if info.pv.is_empty() || !info.pv.iter().all(|m| looks_like_move(m)) {
                        return err("pv is empty or holds a non-move");
                    }
                    i = words.len();
                }
                "string" => {
                    info.string = Some(words[i + 1..].join(" "));
                    i = words.len();
                }
                _ => return err(&format!("unknown keyword '{key}'")),
            }
        }
        Ok(info)
    }
}

/// The output of one search, up to and including its `bestmove`.
#[derive(Clone, Debug)]
pub struct Search {
    pub lines: Vec<String>,
    /// Every `info` line other than `info string`, parsed.
    pub infos: Vec<Info>,
    pub bestmove: String,
    pub ponder: Option<String>,
    /// From sending `go` (or whatever the caller timed from) to the `bestmove`.
    pub elapsed: Duration,
}

impl Search {
    pub(super) fn parse(lines: Vec<String>, elapsed: Duration) -> Result<Search, String> {
        let mut infos = Vec::new();
        let (last, before) = lines.split_last().ok_or("no lines")?;
        for l in before {
            if l.starts_with("info string") {
                continue;
            }
            if is_bestmove(l) {
                return Err(format!("two bestmoves in one search: {lines:?}"));
            }
            if !l.starts_with("info ") {
                return Err(format!("unexpected line during a search: '{l}'"));
            }
            infos.push(Info::parse(l)?);
        }
        let words: Vec<&str> = last.split_whitespace().collect();
        let (bestmove, ponder) = match words.as_slice() {
            ["bestmove", b] => (b.to_string(), None),
            ["bestmove", b, "ponder", p] => (b.to_string(), Some(p.to_string())),
            _ => return Err(format!("malformed bestmove line '{last}'")),
        };
        if bestmove != "(none)" && !looks_like_move(&bestmove) {
            return Err(format!("bestmove '{bestmove}' is not a move"));
        }
        if ponder.as_deref().is_some_and(|p| !looks_like_move(p)) {
            return Err(format!("ponder move in '{last}' is not a move"));
        }
        Ok(Search {
            lines,
            infos,
            bestmove,
            ponder,
            elapsed,
        })
    }

    /// Infos that carry a principal variation.
    pub fn pv_infos(&self) -> Vec<&Info> {
        self.infos.iter().filter(|i| !i.pv.is_empty()).collect()
    }

    /// The last info line before the bestmove.
    pub fn last_info(&self) -> Option<&Info> {
        self.infos.last()
    }

    /// The score of the last info line.
    pub fn final_score(&self) -> Option<Score> {
        self.last_info().and_then(|i| i.score)
    }

    /// The checks every normal search must pass: the last info before the
    /// bestmove has an exact score; the last main line (multipv 1, or no
    /// multipv) starts with the bestmove, and the ponder move, if any, is its
    /// second move when it has one; the lines reported after the main line
    /// (the other MultiPV lines) have exact scores too.
    pub fn check_final_report(&self) -> Result<(), String> {
        let last = self
            .last_info()
            .ok_or_else(|| format!("no info line before the bestmove: {:?}", self.lines))?;
        if last.score.is_none() || last.bound.is_some() {
            return Err(format!(
                "last info before the bestmove must have an exact score: '{}'",
                last.raw
            ));
        }
        let main_at = self
            .infos
            .iter()
            .rposition(|i| !i.pv.is_empty() && matches!(i.multipv, None | Some(1)))
            .ok_or_else(|| format!("no main line before the bestmove: {:?}", self.lines))?;
        let main = &self.infos[main_at];
        for i in &self.infos[main_at..] {
            if i.score.is_none() || i.bound.is_some() || i.pv.is_empty() {
                return Err(format!(
                    "the final lines must have exact scores and pvs: '{}'",
                    i.raw
                ));
            }
        }
        if main.pv.first() != Some(&self.bestmove) {
            return Err(format!(
                "the last main pv should start with the bestmove {}: '{}'",
                self.bestmove, main.raw
            ));
        }
        if let (Some(p), Some(second)) = (&self.ponder, main.pv.get(1)) {
            if p != second {
                return Err(format!(
                    "ponder {p} is not the pv's second move {second}: '{}'",
                    main.raw
                ));
            }
        }
        Ok(())
    }
}

/// The board after `moves` (UCI strings in the given notation) from `fen`.
pub fn board_after(fen: &str, moves: &[&str], chess960: bool) -> Board {
    let mut board = Board::from_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"));
    for m in moves {
        let mv = find_move(&board, m, chess960)
            .unwrap_or_else(|| panic!("{m} is not legal in {fen} after {moves:?}"));
        board.make_move(mv);
    }
    board
}

/// The legal move written exactly `text` in the given notation.
pub fn find_move(board: &Board, text: &str, chess960: bool) -> Option<Move> {
    board
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.to_uci(chess960) == text)
}

/// Checks that `line` is a legal sequence of moves from `board`, each in
/// exactly the notation of the mode.
pub fn check_line(board: &Board, line: &[String], chess960: bool) -> Result<(), String> {
    let mut b = board.clone();
    for (i, text) in line.iter().enumerate() {
        match find_move(&b, text, chess960) {
            Some(m) => b.make_move(m),
            None => {
                return Err(format!(
                    "move {} of {line:?}, '{text}', is not a legal move written in {} notation",
                    i + 1,
                    if chess960 { "Chess960" } else { "standard" }
                ))
            }
        }
    }
    Ok(())
}

impl EngineProcess {
    /// Checks a finished search from `board`: the bestmove is legal and in
    /// the notation of the mode, the final report is consistent, and every
    /// PV is a legal line.
    #[track_caller]
    pub fn check_search(&mut self, board: &Board, chess960: bool, search: &Search) {
        let problem = check_line(board, std::slice::from_ref(&search.bestmove), chess960)
            .map_err(|e| format!("bestmove: {e}"))
            .and_then(|_| search.check_final_report())
            .and_then(|_| {
                search
                    .pv_infos()
                    .iter()
                    .try_for_each(|i| check_line(board, &i.pv, chess960))
            })
            .and_then(|_| match &search.ponder {
                Some(p) => check_line(board, &[search.bestmove.clone(), p.clone()], chess960)
                    .map_err(|e| format!("ponder: {e}")),
                None => Ok(()),
            });
        if let Err(e) = problem {
            self.fail(&e);
        }
    }
}
