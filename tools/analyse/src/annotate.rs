//! An analysed game as PGN: its tags, each move followed by the engine's
//! evaluation as lichess writes it (`{ [%eval 0.35] }`, pawns from White's
//! side, `#3` / `#-3` for mates), and for an inaccuracy or worse its NAG,
//! a comment naming the best move, and the engine's lines as variations.

use super::analysis::{GameAnalysis, MoveAnalysis};
use super::search::{Evaluation, Variation};
use chess::{Board, Color};
use chessio::pgn::{move_number, start_tags, tag, wrap, PgnGame};
use engine::score::{HumanScore, MATE_BOUND};

/// Variations are cut to this many plies: the start of a line shows the
/// idea, its far end is the search's guess.
pub const VARIATION_PLIES: usize = 12;

/// Tags written from the analysis rather than copied.
const REWRITTEN: &[&str] = &["Variant", "SetUp", "FEN", "Result", "Annotator"];

/// `annotator` names the engine and its limit for the `Annotator` tag.
pub fn write(game: &PgnGame, analysis: &GameAnalysis, annotator: &str) -> String {
    let mut pgn = String::new();
    for (name, value) in &game.tags {
        if !REWRITTEN.contains(&name.as_str()) {
            pgn.push_str(&tag(name, value));
        }
    }
    pgn.push_str(&tag("Result", &game.result));
    pgn.push_str(&start_tags(
        &game.start,
        game.chess960,
        game.tag("FEN").is_some(),
    ));
    pgn.push_str(&tag("Annotator", annotator));
    pgn.push('\n');

    let mut tokens = Vec::new();
    // The start position's evaluation: the "before" of the first move.
    let start_side = game.start.side_to_move();
    let start_score = if start_side == Color::White {
        analysis.initial
    } else {
        -analysis.initial
    };
    tokens.push(format!("{{ {} }}", eval_tag(start_score, start_side)));
    let mut board = game.start.clone();
    for m in &analysis.moves {
        move_tokens(&board, m, &mut tokens);
        board.make_move(m.mv);
    }
    tokens.push(game.result.clone());
    pgn.push_str(&wrap(&tokens));
    pgn.push('\n');
    pgn
}

/// The move, its NAG, its comment and, when judged, the better lines.
fn move_tokens(board: &Board, m: &MoveAnalysis, tokens: &mut Vec<String>) {
    tokens.push(format!("{} {}", move_number(board), m.san));
    let after_side = !m.mover;
    let eval = match m.after {
        // No evaluation of a mate on the board: it is the result.
        Evaluation::Final(score) if score != 0 => None,
        _ => Some(eval_tag(m.after.score(), after_side)),
    };
    let Some(judgement) = m.judgement else {
        tokens.extend(eval.map(|e| format!("{{ {e} }}")));
        return;
    };
    // The NAG stays on the line of its move.
    if let Some(last) = tokens.last_mut() {
        last.push_str(&format!(" ${}", judgement.nag()));
    }
    let best = m
        .before
        .best_move()
        .map(|b| format!(" {} was best.", board.san(b)))
        .unwrap_or_default();
    let eval = eval.map(|e| format!("{e} ")).unwrap_or_default();
    tokens.push(format!("{{ {eval}{}.{best} }}", judgement.name()));
    for line in m
        .before
        .lines()
        .iter()
        .filter(|l| l.moves.first() != Some(&m.mv))
    {
        variation_tokens(board, line, tokens);
    }
}

/// `(12... Nc6 { [%eval 0.35] } 13. d4 ...)`: the line with the
/// evaluation after its first move.
fn variation_tokens(board: &Board, line: &Variation, tokens: &mut Vec<String>) {
    let mut b = board.clone();
    // The first move, and a Black move after the comment, carry a number.
    let mut numbered = true;
    for (ply, &mv) in line.moves.iter().take(VARIATION_PLIES).enumerate() {
        let san = b.san(mv);
        let mut token = if numbered || b.side_to_move() == Color::White {
            format!("{} {san}", move_number(&b))
        } else {
            san
        };
        if ply == 0 {
            token.insert(0, '(');
        }
        tokens.push(token);
        b.make_move(mv);
        numbered = ply == 0;
        if ply == 0 {
            let score = one_ply_later(line.score);
            tokens.push(format!("{{ {} }}", eval_tag(score, b.side_to_move())));
        }
    }
    if let Some(last) = tokens.last_mut() {
        last.push(')');
    }
}

/// A score of the side to move, seen from the other side one ply later:
/// negated, and a mate one ply nearer.
fn one_ply_later(score: i32) -> i32 {
    if score >= MATE_BOUND {
        -score - 1
    } else if score <= -MATE_BOUND {
        -score + 1
    } else {
        -score
    }
}

/// `[%eval 0.35]` from a score of `side`, turned to White's side: pawns
/// with two decimals, or `#N` / `#-N` moves to mate.
pub fn eval_tag(score: i32, side: Color) -> String {
    let sign = if side == Color::White { 1 } else { -1 };
    let text = match HumanScore::from_score(score) {
        HumanScore::Centipawns(cp) => {
            let cp = cp * sign;
            let minus = if cp < 0 { "-" } else { "" };
            format!("{minus}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
        }
        HumanScore::Mate(n) => format!("#{}", n * sign),
    };
    format!("[%eval {text}]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::Judgement;
    use chessio::pgn;
    use engine::score::{mate_in, mated_in};

    #[test]
    fn evals_read_as_lichess_writes_them() {
        assert_eq!(eval_tag(35, Color::White), "[%eval 0.35]");
        assert_eq!(eval_tag(35, Color::Black), "[%eval -0.35]");
        assert_eq!(eval_tag(-5, Color::White), "[%eval -0.05]");
        assert_eq!(eval_tag(0, Color::Black), "[%eval 0.00]");
        assert_eq!(eval_tag(-1250, Color::Black), "[%eval 12.50]");
        // Mate in 2 moves (3 plies) for the side to move.
        assert_eq!(eval_tag(mate_in(3), Color::White), "[%eval #2]");
        assert_eq!(eval_tag(mate_in(3), Color::Black), "[%eval #-2]");
        assert_eq!(eval_tag(mated_in(2), Color::White), "[%eval #-1]");
        assert_eq!(eval_tag(mated_in(2), Color::Black), "[%eval #1]");
    }

    #[test]
    fn a_ply_later_mates_come_nearer() {
        assert_eq!(one_ply_later(mate_in(3)), mated_in(2));
        assert_eq!(one_ply_later(mated_in(4)), mate_in(3));
        assert_eq!(one_ply_later(40), -40);
    }

    fn analysed(
        text: &str,
        evals: &[i32],
        best: &[&str],
        judged: &[Option<Judgement>],
    ) -> (PgnGame, GameAnalysis) {
        let game = pgn::read(text).remove(0).unwrap();
        let mut board = game.start.clone();
        let mut moves = Vec::new();
        let eval = |board: &Board, i: usize| Evaluation::Searched {
            score: evals[i],
            lines: vec![Variation {
                score: evals[i],
                moves: vec![board.parse_san(best[i]).unwrap()],
            }],
        };
        for (i, &mv) in game.moves.iter().enumerate() {
            let before = eval(&board, i);
            let san = board.san(mv);
            let (mover, fullmove) = (board.side_to_move(), board.fullmove_number());
            board.make_move(mv);
            moves.push(MoveAnalysis {
                mv,
                san,
                mover,
                fullmove,
                before,
                after: eval(&board, i + 1),
                centipawn_loss: 0,
                judgement: judged[i],
            });
        }
        let analysis = GameAnalysis {
            initial: evals[0],
            moves,
        };
        (game, analysis)
    }

    #[test]
    fn judged_moves_get_nag_comment_and_variation() {
        let text = "[White \"A \\\"B\\\"\"]\n[Result \"*\"]\n1. e4 e5 2. Qh5 Nc6 *";
        let (game, analysis) = analysed(
            text,
            &[20, -25, 30, -80, 150],
            &["e4", "e5", "Nf3", "Nc6", "Bc4"],
            &[None, None, Some(Judgement::Inaccuracy), None],
        );
        let pgn = write(&game, &analysis, "Hoeven");
        assert_eq!(
            pgn,
            "[White \"A \\\"B\\\"\"]\n[Result \"*\"]\n[Annotator \"Hoeven\"]\n\n\
             { [%eval 0.20] } 1. e4 { [%eval 0.25] } 1... e5 { [%eval 0.30] } 2. Qh5 $6\n\
             { [%eval 0.80] Inaccuracy. Nf3 was best. } (2. Nf3 { [%eval 0.30] }) 2... Nc6\n\
             { [%eval 1.50] } *\n\n"
        );
    }

    #[test]
    fn chess960_tags_are_normalised_and_mates_carry_no_eval() {
        let text = "[Variant \"fischerandom\"]\n[FEN \"bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w HEhe - 0 1\"]\n[Annotator \"someone\"]\n\n1. Nf3 *";
        let (game, mut analysis) = analysed(text, &[10, 0], &["Nf3", "Nf6"], &[None]);
        analysis.moves[0].after = Evaluation::Final(mated_in(0));
        let pgn = write(&game, &analysis, "Hoeven d1");
        assert!(
            pgn.starts_with(
                "[Result \"*\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
             [FEN \"bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w KQkq - 0 1\"]\n\
             [Annotator \"Hoeven d1\"]\n\n"
            ),
            "{pgn}"
        );
        assert!(pgn.ends_with("{ [%eval 0.10] } 1. Nf3 *\n\n"), "{pgn}");
    }

    #[test]
    fn black_variations_number_their_moves() {
        let board =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let mut b = board.clone();
        let moves = ["c5", "Nf3", "d6"]
            .iter()
            .map(|s| {
                let m = b.parse_san(s).unwrap();
                b.make_move(m);
                m
            })
            .collect();
        let mut tokens = Vec::new();
        variation_tokens(&board, &Variation { score: 15, moves }, &mut tokens);
        assert_eq!(tokens, ["(1... c5", "{ [%eval -0.15] }", "2. Nf3", "d6)"]);
    }
}
