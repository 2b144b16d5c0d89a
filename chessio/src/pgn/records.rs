//! Training records from scored games: the PGN that match runners write
//! (fastchess for OpenBench's data generation, cutechess, Hoeven's own
//! self-play) puts each engine move's score in the comment after it,
//! `{+0.35/12 0.512s}`: the score in pawns for the side that moved, or
//! `+M5` / `-M5` for a mate, then `/depth`. Each scored position becomes a
//! `Record` with that score and the game's result, kept or left out by the
//! same rule as self-play's data ([`crate::record::is_training_position`]).

use super::read::PgnGame;
use crate::record::{is_training_position, GameResult, Record};
use chess::Color;

/// A move comment's score, from the point of view of the side that moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentScore {
    Centipawns(i32),
    /// Mate in this many moves; negative when the mover is mated.
    Mate(i32),
}

/// The score and depth at the start of a comment: `+0.35/12`, `-1.20/8,`,
/// `+M3/20`; `None` for `book` and anything else.
pub fn comment_score(comment: &str) -> Option<(CommentScore, u32)> {
    let word = comment
        .split(|c: char| c.is_whitespace() || c == ',')
        .next()?;
    let (score, depth) = word.split_once('/')?;
    let depth = depth.parse().ok()?;
    let mate = |n: &str| n.parse::<i32>().ok().filter(|&n| n >= 0);
    let score = if let Some(n) = score.strip_prefix("+M").or(score.strip_prefix("M")) {
        CommentScore::Mate(mate(n)?)
    } else if let Some(n) = score.strip_prefix("-M") {
        CommentScore::Mate(-mate(n)?)
    } else {
        let pawns: f64 = score.parse().ok().filter(|p: &f64| p.is_finite())?;
        let cp = (pawns * 100.0).round();
        if cp.abs() > f64::from(i32::MAX) {
            return None;
        }
        CommentScore::Centipawns(cp as i32)
    };
    Some((score, depth))
}

/// How many of a game's positions became records, and why the rest did not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub records: u64,
    /// Book moves and moves without a score comment.
    pub unscored: u64,
    /// Mate scores, and scores beyond what a record holds.
    pub mate_or_huge: u64,
    /// In check, or the move captured or promoted.
    pub not_quiet: u64,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.records += o.records;
        self.unscored += o.unscored;
        self.mate_or_huge += o.mate_or_huge;
        self.not_quiet += o.not_quiet;
    }
}

/// The game's result for White; `None` for an unfinished game (`*`).
fn white_result(game: &PgnGame) -> Option<GameResult> {
    match game.result.as_str() {
        "1-0" => Some(GameResult::Win),
        "0-1" => Some(GameResult::Loss),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}

/// The records of a finished game, and the counts; none for an unfinished
/// game, whose result is unknown.
pub fn records(game: &PgnGame) -> (Vec<Record>, Counts) {
    let mut out = Vec::new();
    let mut counts = Counts::default();
    let Some(white) = white_result(game) else {
        return (out, counts);
    };
    let mut board = game.start.clone();
    for (&m, comment) in game.moves.iter().zip(&game.comments) {
        let result = match board.side_to_move() {
            Color::White => white,
            Color::Black => white.flipped(),
        };
        match comment_score(comment) {
            None => counts.unscored += 1,
            Some((CommentScore::Mate(_), _)) => counts.mate_or_huge += 1,
            Some((CommentScore::Centipawns(cp), _)) => match i16::try_from(cp) {
                Err(_) => counts.mate_or_huge += 1,
                Ok(_) if !is_training_position(&board, m) => counts.not_quiet += 1,
                Ok(score) => match Record::new(board.clone(), score, result) {
                    Ok(record) => {
                        out.push(record);
                        counts.records += 1;
                    }
                    Err(_) => counts.mate_or_huge += 1,
                },
            },
        }
        board.make_move(m);
    }
    (out, counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::read;

    #[test]
    fn scores_read_as_match_runners_write_them() {
        use CommentScore::*;
        for (text, expected) in [
            ("+0.35/12 0.512s", Some((Centipawns(35), 12))),
            ("-1.20/8, 0.101s, n=1234", Some((Centipawns(-120), 8))),
            ("0.00/1", Some((Centipawns(0), 1))),
            ("+M3/20 0.3s", Some((Mate(3), 20))),
            ("-M1/5", Some((Mate(-1), 5))),
            ("+12.34/30 White mates", Some((Centipawns(1234), 30))),
            ("book", None),
            ("", None),
            ("+0.35", None),
            ("+x/3", None),
            ("+0.35/-1", None),
            ("-M-2/4", None),
            ("NaN/3", None),
        ] {
            assert_eq!(comment_score(text), expected, "{text:?}");
        }
    }

    #[test]
    fn a_fastchess_game_gives_its_quiet_scored_positions() {
        // As fastchess writes an OpenBench data-generation game: a Chess960
        // start, scores for the mover, the termination in the last comment.
        let text = r#"[Event "Fastchess Tournament"]
[White "hoeven"]
[Black "hoeven"]
[Result "0-1"]
[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]
[SetUp "1"]
[Variant "Chess960"]

9. g3 {+0.25/14 0.311s} Nd5 {-0.18/13, 0.250s} 10. e4 {book} Nxf4
{+M2/3 0.01s} 11. gxf4 {-3.10/12 0.2s} e5 {+2.95/12 0.2s, Black wins by adjudication} 0-1

[Event "unfinished"]
[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]
[Variant "Chess960"]

9. g3 {+0.25/14} *
"#;
        let games: Vec<PgnGame> = read(text).into_iter().map(Result::unwrap).collect();
        let (kept, counts) = records(&games[0]);
        let lines: Vec<String> = kept.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9 | 25 | 0.0",
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P2P1/NPP1P2P/BQ1BNRKR b KQkq - 0 9 | -18 | 1.0",
                "bqnb1rkr/pp3ppp/3pp3/2p5/4PP2/P2P4/NPP4P/BQ1BNRKR b KQkq - 0 11 | 295 | 1.0",
            ]
        );
        assert_eq!(
            counts,
            Counts {
                records: 3,
                unscored: 1,
                mate_or_huge: 1,
                not_quiet: 1
            }
        );
        assert_eq!(records(&games[1]).1, Counts::default());
    }
}
