//! Splits PGN text into tokens, each with the line it starts on: tags,
//! movetext symbols, `{...}` comments (where engines and match runners
//! write each move's score), NAGs and variation parentheses. Rest-of-line
//! `;` comments and `%` escape lines are passed over.

/// One piece of PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// `[Name "value"]`, the value with its `\"` and `\\` escapes undone.
    Tag {
        name: &'a str,
        value: String,
    },
    /// A `[` that does not open a well-formed tag; the text up to the
    /// closing `]` or the end of the line.
    BadTag(&'a str),
    /// A run of movetext characters: a move, a move number, a result, an
    /// annotation glyph, or garbage for the reader to refuse.
    Symbol(&'a str),
    /// The text between `{` and `}`.
    Comment(&'a str),
    /// `$n`.
    Nag,
    Open,
    Close,
    /// A `{` comment still open when a tag line or the end of the text
    /// came; the token carries the line of the `{`.
    UnterminatedComment,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lexed<'a> {
    pub line: usize,
    pub token: Token<'a>,
}

pub struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    /// 1-based line of `pos`.
    line: usize,
}

/// Characters that end a movetext symbol.
const DELIMITERS: &[u8] = b"[]{}();$";

impl<'a> Lexer<'a> {
    pub fn new(text: &'a str) -> Lexer<'a> {
        // Editors on Windows put a byte order mark in front of UTF-8 files.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Lexer {
            text,
            pos: 0,
            line: 1,
        }
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.bytes()[self.pos - 1] == b'\n'
    }

    /// Moves to the next newline (not past it).
    fn skip_to_line_end(&mut self) {
        let rest = &self.bytes()[self.pos..];
        self.pos += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    }

    /// Passes over a `{` comment. A comment that is still open at a line
    /// which begins a tag has surely lost its `}`: it ends there, so that the
    /// games after it are still read.
    fn skip_comment(&mut self) -> Result<(), ()> {
        while let Some(&b) = self.bytes().get(self.pos) {
            self.pos += 1;
            match b {
                b'}' => return Ok(()),
                b'\n' => {
                    self.line += 1;
                    if looks_like_tag(self.current_line()) {
                        return Err(());
                    }
                }
                _ => {}
            }
        }
        Err(())
    }

    /// The text from `pos` to the end of its line.
    fn current_line(&self) -> &'a str {
        let rest = &self.text[self.pos..];
        rest.split('\n').next().unwrap_or(rest)
    }

    /// Reads `[Name "value"]` from `pos` (at the `[`).
    fn tag(&mut self) -> Token<'a> {
        let line = self.current_line();
        match parse_tag(line) {
            Some((name, value, len)) => {
                self.pos += len;
                Token::Tag { name, value }
            }
            None => {
                let len = line.find(']').map_or(line.len(), |i| i + 1);
                self.pos += len;
                Token::BadTag(line[..len].trim_end())
            }
        }
    }

    fn symbol(&mut self) -> &'a str {
        let start = self.pos;
        let rest = &self.bytes()[start..];
        let len = rest
            .iter()
            .position(|b| b.is_ascii_whitespace() || DELIMITERS.contains(b))
            .unwrap_or(rest.len());
        // A delimiter first (a stray `]` or `}`) is a symbol of its own.
        // Delimiters and whitespace are ASCII bytes, so both ends fall on
        // character boundaries.
        self.pos += len.max(1);
        &self.text[start..self.pos]
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Lexed<'a>;

    fn next(&mut self) -> Option<Lexed<'a>> {
        loop {
            let &b = self.bytes().get(self.pos)?;
            let line = self.line;
            match b {
                b'\n' => {
                    self.line += 1;
                    self.pos += 1;
                }
                b if b.is_ascii_whitespace() => self.pos += 1,
                b'%' if self.at_line_start() => self.skip_to_line_end(),
                b';' => self.skip_to_line_end(),
                b'{' => {
                    self.pos += 1;
                    let start = self.pos;
                    let token = match self.skip_comment() {
                        Ok(()) => Token::Comment(&self.text[start..self.pos - 1]),
                        Err(()) => Token::UnterminatedComment,
                    };
                    return Some(Lexed { line, token });
                }
                b'[' => {
                    return Some(Lexed {
                        line,
                        token: self.tag(),
                    })
                }
                b'(' | b')' => {
                    self.pos += 1;
                    let token = if b == b'(' { Token::Open } else { Token::Close };
                    return Some(Lexed { line, token });
                }
                b'$' if self
                    .bytes()
                    .get(self.pos + 1)
                    .is_some_and(u8::is_ascii_digit) =>
                {
                    self.pos += 1;
                    let digits = self.bytes()[self.pos..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    self.pos += digits;
                    return Some(Lexed {
                        line,
                        token: Token::Nag,
                    });
                }
                _ => {
                    let symbol = self.symbol();
                    return Some(Lexed {
                        line,
                        token: Token::Symbol(symbol),
                    });
                }
            }
        }
    }
}

/// Whether a line begins like a tag, `[Name "`, well-formed or not. Lines
/// of comments rarely do; `[%clk ...]` and the like do not.
fn looks_like_tag(line: &str) -> bool {
    let Some(inner) = line.trim_start().strip_prefix('[') else {
        return false;
    };
    let inner = inner.trim_start();
    let name_len = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    inner.starts_with(|c: char| c.is_ascii_alphabetic())
        && inner[name_len..].trim_start().starts_with('"')
}

/// The name, unescaped value and length in bytes of the tag at the start of
/// `text`.
fn parse_tag(text: &str) -> Option<(&str, String, usize)> {
    let inner = text.strip_prefix('[')?;
    let name_start = inner.len() - inner.trim_start().len();
    let after_ws = &inner[name_start..];
    let name_len = after_ws
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(after_ws.len());
    let name = &after_ws[..name_len];
    let rest = &after_ws[name_len..];
    let quote = rest.trim_start();
    if name.is_empty() {
        return None;
    }
    let mut value = String::new();
    let mut chars = quote.strip_prefix('"')?.char_indices();
    let end = loop {
        match chars.next()? {
            (_, '\\') => value.push(chars.next()?.1),
            (i, '"') => break i,
            (_, c) => value.push(c),
        }
    };
    // `end` indexes the text after the opening quote.
    let after_value = &quote[1 + end + 1..];
    let close = after_value.trim_start();
    close.strip_prefix(']')?;
    let len = text.len() - close.len() + 1;
    Some((name, value, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<(usize, Token<'_>)> {
        Lexer::new(text).map(|l| (l.line, l.token)).collect()
    }

    #[test]
    fn tags_moves_nags_and_variations_with_their_lines() {
        let text = "\u{feff}[Event \"a \\\"quoted\\\" \\\\ name\"][Site \"x\"]\n\
                    \n\
                    1. e4 $1 {a {comment}\n\
                    ; rest of line (\n\
                    % escape ( line\n\
                    e5 (1... c5) 2.Nf3! 1-0";
        assert_eq!(
            tokens(text),
            vec![
                (
                    1,
                    Token::Tag {
                        name: "Event",
                        value: "a \"quoted\" \\ name".into()
                    }
                ),
                (
                    1,
                    Token::Tag {
                        name: "Site",
                        value: "x".into()
                    }
                ),
                (3, Token::Symbol("1.")),
                (3, Token::Symbol("e4")),
                (3, Token::Nag),
                (3, Token::Comment("a {comment")),
                (6, Token::Symbol("e5")),
                (6, Token::Open),
                (6, Token::Symbol("1...")),
                (6, Token::Symbol("c5")),
                (6, Token::Close),
                (6, Token::Symbol("2.Nf3!")),
                (6, Token::Symbol("1-0")),
            ]
        );
    }

    #[test]
    fn bad_tags_end_at_their_bracket_or_line() {
        assert_eq!(
            tokens("[Event unquoted] e4\n[White \"open\n1. d4"),
            vec![
                (1, Token::BadTag("[Event unquoted]")),
                (1, Token::Symbol("e4")),
                (2, Token::BadTag("[White \"open")),
                (3, Token::Symbol("1.")),
                (3, Token::Symbol("d4")),
            ]
        );
        assert_eq!(tokens("[]")[0].1, Token::BadTag("[]"));
        assert_eq!(tokens("[ \"x\"]")[0].1, Token::BadTag("[ \"x\"]"));
    }

    #[test]
    fn an_open_comment_ends_at_the_next_tag_line_or_the_end() {
        let text =
            "1. e4 { lost brace\n[%clk 0:01] is no tag\n\n[Event \"next\"]\n1. d4 {\n[Site \"open";
        assert_eq!(
            tokens(text),
            vec![
                (1, Token::Symbol("1.")),
                (1, Token::Symbol("e4")),
                (1, Token::UnterminatedComment),
                (
                    4,
                    Token::Tag {
                        name: "Event",
                        value: "next".into()
                    }
                ),
                (5, Token::Symbol("1.")),
                (5, Token::Symbol("d4")),
                (5, Token::UnterminatedComment),
                (6, Token::BadTag("[Site \"open")),
            ]
        );
    }

    #[test]
    fn a_dollar_without_digits_and_non_ascii_text_are_symbols() {
        assert_eq!(
            tokens("$ e4 ½-½ $12"),
            vec![
                (1, Token::Symbol("$")),
                (1, Token::Symbol("e4")),
                (1, Token::Symbol("½-½")),
                (1, Token::Nag),
            ]
        );
    }
}
