//! The evaluation graph: one panel per game, White's expected score over
//! the plies (light area: White's share, dark: Black's), inaccuracies,
//! mistakes and blunders marked with dots that name the move on hover.
//! Hand-written SVG 1.1: a few shapes need no drawing library, and the
//! file opens in any browser.

use super::analysis::{GameAnalysis, MoveAnalysis};
use super::judgement::{expected_score, Judgement};
use std::fmt::Write;

const WIDTH: f64 = 800.0;
const LEFT: f64 = 50.0;
const RIGHT: f64 = 20.0;
/// Room for the game's title above its plot.
const TOP: f64 = 36.0;
const PLOT_HEIGHT: f64 = 180.0;
/// Room for the move numbers below the plot.
const BOTTOM: f64 = 34.0;
const PANEL_HEIGHT: f64 = TOP + PLOT_HEIGHT + BOTTOM;
const LEGEND_HEIGHT: f64 = 30.0;
/// At most this many move numbers along a plot.
const MAX_TICKS: u16 = 12;

/// One game's graph.
pub struct Panel<'a> {
    pub title: String,
    pub analysis: &'a GameAnalysis,
}

pub fn render(panels: &[Panel]) -> String {
    let height = LEGEND_HEIGHT + PANEL_HEIGHT * panels.len() as f64;
    let mut svg = String::new();
    let _ = writeln!(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(
        svg,
        "<title>Hoeven analysis: White's expected score</title>"
    );
    let _ = writeln!(
        svg,
        "<rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{height}\" fill=\"#ffffff\"/>"
    );
    legend(&mut svg);
    for (i, panel) in panels.iter().enumerate() {
        let top = LEGEND_HEIGHT + PANEL_HEIGHT * i as f64;
        let _ = writeln!(svg, "<g transform=\"translate(0,{top})\">");
        panel_body(&mut svg, panel);
        let _ = writeln!(svg, "</g>");
    }
    svg.push_str("</svg>\n");
    svg
}

fn colour(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Inaccuracy => "#56b4e9",
        Judgement::Mistake => "#e69f00",
        Judgement::Blunder => "#d55e00",
    }
}

fn legend(svg: &mut String) {
    let mut x = LEFT;
    for j in Judgement::ALL {
        let _ = writeln!(
            svg,
            "<circle cx=\"{}\" cy=\"15\" r=\"5\" fill=\"{}\" stroke=\"#000000\"/>\
             <text x=\"{}\" y=\"19\">{} ({})</text>",
            x + 5.0,
            colour(j),
            x + 14.0,
            j.name(),
            xml_escape(j.glyph())
        );
        x += 130.0;
    }
    let _ = writeln!(
        svg,
        "<text x=\"{x}\" y=\"19\" fill=\"#555555\">curve: White's expected score</text>"
    );
}

fn panel_body(svg: &mut String, panel: &Panel) {
    let moves = &panel.analysis.moves;
    let plies = moves.len().max(1) as f64;
    let x = |ply: usize| LEFT + (WIDTH - LEFT - RIGHT) * ply as f64 / plies;
    let y = |score: f64| TOP + PLOT_HEIGHT * (1.0 - score);
    let bottom = TOP + PLOT_HEIGHT;
    let points: Vec<(f64, f64)> = std::iter::once(panel.analysis.initial)
        .chain(moves.iter().map(MoveAnalysis::white_after))
        .enumerate()
        .map(|(ply, score)| (x(ply), y(expected_score(score))))
        .collect();
    let path = |pts: &[(f64, f64)]| {
        pts.iter()
            .map(|(px, py)| format!("{px:.1},{py:.1}"))
            .collect::<Vec<_>>()
            .join(" ")
    };

    let _ = writeln!(
        svg,
        "<text x=\"{LEFT}\" y=\"22\" font-size=\"14\" font-weight=\"bold\">{}</text>",
        xml_escape(&panel.title)
    );
    // Black's share is the background, White's the area under the curve.
    let _ = writeln!(
        svg,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{}\" height=\"{PLOT_HEIGHT}\" fill=\"#3a3a3a\"/>",
        WIDTH - LEFT - RIGHT
    );
    let mut area = vec![(LEFT, bottom)];
    area.extend(&points);
    area.push((points.last().map_or(LEFT, |p| p.0), bottom));
    let _ = writeln!(
        svg,
        "<polygon points=\"{}\" fill=\"#f2f2f2\"/>",
        path(&area)
    );
    let _ = writeln!(
        svg,
        "<line x1=\"{LEFT}\" y1=\"{mid}\" x2=\"{}\" y2=\"{mid}\" stroke=\"#999999\" stroke-dasharray=\"4 4\"/>",
        WIDTH - RIGHT,
        mid = y(0.5)
    );
    let _ = writeln!(
        svg,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#c09030\" stroke-width=\"1.5\"/>",
        path(&points)
    );
    for (label, score) in [("100%", 1.0), ("50%", 0.5), ("0%", 0.0)] {
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{label}</text>",
            LEFT - 6.0,
            y(score) + 4.0
        );
    }
    ticks(svg, moves, &x, bottom);
    for (i, m) in moves.iter().enumerate() {
        let Some(judgement) = m.judgement else {
            continue;
        };
        let (cx, cy) = points[i + 1];
        let dots = if m.mover == chess::Color::White {
            "."
        } else {
            "..."
        };
        let _ = writeln!(
            svg,
            "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"5\" fill=\"{}\" stroke=\"#000000\">\
             <title>{}{dots} {}{} {}: {:.0}% to {:.0}% for White</title></circle>",
            colour(judgement),
            m.fullmove,
            xml_escape(&m.san),
            xml_escape(judgement.glyph()),
            judgement.name(),
            100.0 * expected_score(m.white_before()),
            100.0 * expected_score(m.white_after()),
        );
    }
}

/// Move numbers under the plot, at White's moves, at most `MAX_TICKS`.
fn ticks(svg: &mut String, moves: &[MoveAnalysis], x: &impl Fn(usize) -> f64, bottom: f64) {
    let (Some(first), Some(last)) = (moves.first(), moves.last()) else {
        return;
    };
    let span = last.fullmove.saturating_sub(first.fullmove) + 1;
    let step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
        .into_iter()
        .find(|s| span / s <= MAX_TICKS)
        .unwrap_or(u16::MAX);
    for (i, m) in moves.iter().enumerate() {
        if m.mover == chess::Color::White && m.fullmove % step == 0 {
            let _ = writeln!(
                svg,
                "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                x(i),
                bottom + 16.0,
                m.fullmove
            );
        }
    }
}

fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters other than tab and newline are not XML.
            c if c.is_control() && c != '\t' && c != '\n' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Evaluation;
    use chess::Board;

    fn analysis() -> GameAnalysis {
        let mut board = Board::startpos();
        let mut moves = Vec::new();
        for (i, san) in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
            .iter()
            .enumerate()
        {
            let mv = board.parse_san(san).unwrap();
            let mover = board.side_to_move();
            let fullmove = board.fullmove_number();
            let san = board.san(mv);
            board.make_move(mv);
            moves.push(MoveAnalysis {
                mv,
                san,
                mover,
                fullmove,
                before: Evaluation::Final(0),
                after: Evaluation::Final(if i == 6 {
                    engine::score::mated_in(0)
                } else {
                    20
                }),
                centipawn_loss: 0,
                judgement: (i == 5).then_some(Judgement::Blunder),
            });
        }
        GameAnalysis { initial: 15, moves }
    }

    #[test]
    fn panels_mark_judged_moves_and_escape_titles() {
        let a = analysis();
        let svg = render(&[
            Panel {
                title: "Game 1: A & <B>".into(),
                analysis: &a,
            },
            Panel {
                title: "Game 2".into(),
                analysis: &a,
            },
        ]);
        assert!(svg.starts_with(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""
        ));
        assert!(svg.ends_with("</svg>\n"));
        assert!(svg.contains("Game 1: A &amp; &lt;B&gt;"), "{svg}");
        assert_eq!(svg.matches("<g transform").count(), 2);
        assert_eq!(svg.matches("3... Nf6?? Blunder").count(), 2, "{svg}");
        // The blunder's dot is in the blunder's colour.
        assert!(svg.contains("fill=\"#d55e00\" stroke=\"#000000\"><title>3... Nf6??"));
        // The mate takes the curve to the top of the plot: 100% for White.
        assert!(svg.contains(&format!(",{TOP:.1}\"")), "{svg}");
    }

    #[test]
    fn control_characters_do_not_reach_the_xml() {
        assert_eq!(xml_escape("a\u{1}b'\""), "a\u{fffd}b&apos;&quot;");
    }
}
