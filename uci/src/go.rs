//! Parsing the arguments of `go`.

use chess::Board;
use engine::Limits;
use std::time::Duration;

const KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// What `go` asked for: a search, or a perft count.
#[derive(Debug)]
pub enum Go {
    Search(Limits),
    Perft(u32),
}

/// Parses `go` arguments. Problems with single values are reported in
/// `warnings` and the value is ignored; the search still starts.
pub fn parse(args: &[&str], board: &Board, chess960: bool, warnings: &mut Vec<String>) -> Go {
    let mut limits = Limits::default();
    let mut i = 0;
    let number = |i: usize, name: &str, warnings: &mut Vec<String>| -> Option<i64> {
        match args.get(i + 1).map(|v| v.parse::<i64>()) {
            Some(Ok(n)) => Some(n),
            Some(Err(_)) => {
                warnings.push(format!("go {name}: '{}' is not a number", args[i + 1]));
                None
            }
            None => {
                warnings.push(format!("go {name}: missing value"));
                None
            }
        }
    };
    // Negative clock values (some GUIs send them when flagging) count as zero.
    let ms = |n: i64| Duration::from_millis(n.max(0) as u64);
    while i < args.len() {
        let word = args[i];
        match word {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while i + 1 < args.len() && !KEYWORDS.contains(&args[i + 1]) {
                    i += 1;
                    match board.parse_uci_move(args[i], chess960) {
                        Ok(m) => limits.search_moves.push(m),
                        Err(e) => warnings.push(format!("go searchmoves: {e}")),
                    }
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate"
            | "movetime" | "perft" => {
                let value = number(i, word, warnings);
                if value.is_some() || args.get(i + 1).is_some_and(|v| !KEYWORDS.contains(v)) {
                    i += 1;
                }
                if let Some(n) = value {
                    match word {
                        "wtime" => limits.time[0] = Some(ms(n)),
                        "btime" => limits.time[1] = Some(ms(n)),
                        "winc" => limits.increment[0] = Some(ms(n)),
                        "binc" => limits.increment[1] = Some(ms(n)),
                        "movestogo" => {
                            limits.moves_to_go = Some(n.clamp(1, u32::MAX as i64) as u32)
                        }
                        "depth" => limits.depth = Some(n.clamp(1, 1000) as i32),
                        "nodes" => limits.nodes = Some(n.max(1) as u64),
                        "mate" => limits.mate = Some(n.clamp(1, 1000) as u32),
                        "movetime" => limits.move_time = Some(ms(n)),
                        _ => return Go::Perft(n.clamp(0, 64) as u32),
                    }
                }
            }
            other => warnings.push(format!("go: unknown parameter '{other}' ignored")),
        }
        i += 1;
    }
    Go::Search(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(s: &str) -> (Go, Vec<String>) {
        let mut warnings = Vec::new();
        let args: Vec<&str> = s.split_whitespace().collect();
        (
            parse(&args, &Board::startpos(), false, &mut warnings),
            warnings,
        )
    }

    #[test]
    fn clocks_and_limits() {
        let (Go::Search(l), w) =
            go("wtime 1000 btime -50 winc 10 movestogo 5 depth 7 nodes 100 mate 2 movetime 30")
        else {
            panic!("expected a search");
        };
        assert!(w.is_empty());
        assert_eq!(
            l.time,
            [Some(Duration::from_millis(1000)), Some(Duration::ZERO)]
        );
        assert_eq!(l.increment[0], Some(Duration::from_millis(10)));
        assert_eq!(
            (l.moves_to_go, l.depth, l.nodes, l.mate),
            (Some(5), Some(7), Some(100), Some(2))
        );
        assert_eq!(l.move_time, Some(Duration::from_millis(30)));
    }

    #[test]
    fn searchmoves_stop_at_the_next_keyword() {
        let (Go::Search(l), w) = go("searchmoves e2e4 d2d4 e7e5 infinite") else {
            panic!("expected a search");
        };
        assert_eq!(l.search_moves.len(), 2);
        assert!(l.infinite);
        assert_eq!(w.len(), 1, "{w:?}");
    }

    #[test]
    fn bad_values_warn_and_perft_is_recognised() {
        let (Go::Search(l), w) = go("depth x wtime") else {
            panic!("expected a search");
        };
        assert_eq!(l.depth, None);
        assert_eq!(w.len(), 2);
        assert!(matches!(go("perft 3").0, Go::Perft(3)));
    }
}
