//! The book: the starts within the bound as EPD, in Shredder-FEN (the form
//! fastchess and Cute Chess read for Chess960), with the score (`ce`) and
//! depth (`acd`) as operations.

use crate::Scored;
use chess::chess960::BadStartNumber;
use chess::CastlingNotation;

/// The book's text: the starts whose |score| is at most `bound`, most
/// balanced first, ties by start number.
pub fn book(scored: &[Scored], bound: u32) -> Result<String, BadStartNumber> {
    let mut kept: Vec<&Scored> = scored.iter().filter(|s| s.within(bound)).collect();
    kept.sort_by_key(|s| (s.score.unsigned_abs(), s.id));
    let mut text = String::new();
    for s in kept {
        text.push_str(&line(s)?);
        text.push('\n');
    }
    Ok(text)
}

fn line(s: &Scored) -> Result<String, BadStartNumber> {
    let fen = s.id.board()?.to_fen(CastlingNotation::Shredder);
    // EPD: the FEN without its move counters.
    let fields: Vec<&str> = fen.split(' ').take(4).collect();
    Ok(format!(
        "{} ce {}; acd {}; id \"{}\";",
        fields.join(" "),
        s.score,
        s.depth,
        s.id
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::starts::StartId;

    fn scored(white: u32, black: u32, score: i32) -> Scored {
        Scored {
            id: StartId { white, black },
            score,
            depth: 6,
        }
    }

    #[test]
    fn lines_are_shredder_epd_with_score_depth_and_id() {
        assert_eq!(
            line(&scored(518, 518, -12)).unwrap(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - ce -12; acd 6; id \"chess960 518\";"
        );
        assert_eq!(
            line(&scored(0, 959, 31)).unwrap(),
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - ce 31; acd 6; id \"dfrc 0 959\";"
        );
    }

    #[test]
    fn the_bound_filters_and_the_order_is_by_size_then_start() {
        let all = [
            scored(5, 5, 40),
            scored(3, 3, -20),
            scored(9, 9, 20),
            scored(1, 1, -41),
            scored(2, 2, 0),
            scored(4, 4, -40),
        ];
        let ids: Vec<String> = book(&all, 40)
            .unwrap()
            .lines()
            .map(|l| l.rsplit("id ").next().unwrap().to_string())
            .collect();
        assert_eq!(
            ids,
            [
                "\"chess960 2\";",
                "\"chess960 3\";",
                "\"chess960 9\";",
                "\"chess960 4\";",
                "\"chess960 5\";"
            ]
        );
        assert_eq!(book(&all, 0).unwrap().lines().count(), 1);
        assert_eq!(book(&[], 100).unwrap(), "");
    }
}
