//! The pieces of PGN export that do not depend on what is written: tag
//! pairs with their escapes, and movetext wrapped into lines as the PGN
//! export format asks. Shared by the self-play writer (`selfplay/pgn.rs`)
//! and the annotated games of `analyse` (`analyse/annotate.rs`).

/// Movetext lines are wrapped before this width.
pub const LINE_WIDTH: usize = 80;

/// `[Name "value"]` and a newline, `\` and `"` in the value escaped.
pub fn tag(name: &str, value: &str) -> String {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{value}\"]\n")
}

/// Tokens joined by single spaces into lines shorter than `LINE_WIDTH`;
/// a token longer than a line stands on a line of its own. Ends with a
/// newline.
pub fn wrap(tokens: &[String]) -> String {
    let mut text = String::new();
    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() >= LINE_WIDTH {
            text.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            text.push(' ');
            line_len += 1;
        }
        text.push_str(token);
        line_len += token.len();
    }
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_escape_quotes_and_backslashes() {
        assert_eq!(
            tag("White", "a \"b\" \\c"),
            "[White \"a \\\"b\\\" \\\\c\"]\n"
        );
    }

    #[test]
    fn lines_stay_short_and_keep_every_token() {
        let tokens: Vec<String> = (0..60).map(|i| format!("{i}. Nf3")).collect();
        let text = wrap(&tokens);
        assert!(text.lines().all(|l| l.len() < LINE_WIDTH), "{text}");
        assert!(text.lines().count() > 5);
        assert_eq!(text.split_whitespace().count(), 120);
        let long = "x".repeat(100);
        assert_eq!(
            wrap(&["a".into(), long.clone(), "b".into()]),
            format!("a\n{long}\nb\n")
        );
    }
}
