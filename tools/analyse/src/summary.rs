//! The summary printed at the end: for each game and side the counts of
//! inaccuracies, mistakes and blunders and the average centipawn loss,
//! and with several games the same per named player over all of them.

use super::analysis::GameAnalysis;
use chess::Color;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub moves: u32,
    pub centipawn_loss: i64,
    /// Indexed by `Judgement as usize`, in the order of `Judgement::ALL`.
    pub judged: [u32; 3],
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.moves += other.moves;
        self.centipawn_loss += other.centipawn_loss;
        for (a, b) in self.judged.iter_mut().zip(other.judged) {
            *a += b;
        }
    }

    pub fn average_loss(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.centipawn_loss as f64 / f64::from(self.moves)
        }
    }
}

/// One analysed game's names, result and tallies (White's, Black's).
pub struct GameSummary {
    pub number: usize,
    pub names: [String; 2],
    pub result: String,
    pub tallies: [Tally; 2],
}

impl GameSummary {
    pub fn new(number: usize, names: [String; 2], result: String, analysis: &GameAnalysis) -> Self {
        let mut tallies = [Tally::default(); 2];
        for m in &analysis.moves {
            let t = &mut tallies[usize::from(m.mover != Color::White)];
            t.moves += 1;
            t.centipawn_loss += i64::from(m.centipawn_loss);
            if let Some(j) = m.judgement {
                t.judged[j as usize] += 1;
            }
        }
        GameSummary {
            number,
            names,
            result,
            tallies,
        }
    }
}

pub fn write(games: &[GameSummary]) -> String {
    let mut text = String::new();
    for g in games {
        let _ = writeln!(
            text,
            "Game {}: {} - {}, {}",
            g.number, g.names[0], g.names[1], g.result
        );
        let width = g.names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
        for (side, (name, tally)) in ["White", "Black"]
            .iter()
            .zip(g.names.iter().zip(&g.tallies))
        {
            let _ = writeln!(text, "  {side}  {name:<width$}  {}", counts(tally));
        }
    }
    if games.len() > 1 {
        let mut players: Vec<(&str, u32, Tally)> = Vec::new();
        for g in games {
            for (name, tally) in g.names.iter().zip(&g.tallies) {
                // Unknown players are not one person.
                if name.is_empty() || name == "?" {
                    continue;
                }
                match players.iter_mut().find(|(n, _, _)| n == name) {
                    Some((_, count, total)) => {
                        *count += 1;
                        total.add(tally);
                    }
                    None => players.push((name, 1, *tally)),
                }
            }
        }
        let _ = writeln!(text, "Players over {} games:", games.len());
        let width = players
            .iter()
            .map(|(n, _, _)| n.chars().count())
            .max()
            .unwrap_or(0);
        for (name, count, tally) in players {
            let _ = writeln!(
                text,
                "  {name:<width$}  {count} {}, {}",
                plural(count, "game", "games"),
                counts(&tally)
            );
        }
    }
    text
}

fn counts(t: &Tally) -> String {
    let [i, m, b] = t.judged;
    format!(
        "{} {}, {i} {}, {m} {}, {b} {}, average centipawn loss {:.0}",
        t.moves,
        plural(t.moves, "move", "moves"),
        plural(i, "inaccuracy", "inaccuracies"),
        plural(m, "mistake", "mistakes"),
        plural(b, "blunder", "blunders"),
        t.average_loss()
    )
}

fn plural(n: u32, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(number: usize, white: &str, black: &str, tallies: [Tally; 2]) -> GameSummary {
        GameSummary {
            number,
            names: [white.into(), black.into()],
            result: "1-0".into(),
            tallies,
        }
    }

    #[test]
    fn per_game_lines_and_per_player_totals() {
        let a = Tally {
            moves: 10,
            centipawn_loss: 355,
            judged: [1, 0, 2],
        };
        let b = Tally {
            moves: 1,
            centipawn_loss: 0,
            judged: [0, 1, 0],
        };
        let text = write(&[
            game(1, "Ann", "Bartholomew", [a, b]),
            game(3, "Cy", "Ann", [b, a]),
        ]);
        assert_eq!(
            text,
            "Game 1: Ann - Bartholomew, 1-0\n\
             \x20 White  Ann          10 moves, 1 inaccuracy, 0 mistakes, 2 blunders, average centipawn loss 36\n\
             \x20 Black  Bartholomew  1 move, 0 inaccuracies, 1 mistake, 0 blunders, average centipawn loss 0\n\
             Game 3: Cy - Ann, 1-0\n\
             \x20 White  Cy   1 move, 0 inaccuracies, 1 mistake, 0 blunders, average centipawn loss 0\n\
             \x20 Black  Ann  10 moves, 1 inaccuracy, 0 mistakes, 2 blunders, average centipawn loss 36\n\
             Players over 2 games:\n\
             \x20 Ann          2 games, 20 moves, 2 inaccuracies, 0 mistakes, 4 blunders, average centipawn loss 36\n\
             \x20 Bartholomew  1 game, 1 move, 0 inaccuracies, 1 mistake, 0 blunders, average centipawn loss 0\n\
             \x20 Cy           1 game, 1 move, 0 inaccuracies, 1 mistake, 0 blunders, average centipawn loss 0\n"
        );
        assert_eq!(Tally::default().average_loss(), 0.0);
        let unknown = write(&[game(1, "?", "Ann", [a, b]), game(2, "Ann", "?", [b, a])]);
        assert!(
            unknown.ends_with(
                "Players over 2 games:\n\
                 \x20 Ann  2 games, 2 moves, 0 inaccuracies, 2 mistakes, 0 blunders, average centipawn loss 0\n"
            ),
            "{unknown}"
        );
    }
}
