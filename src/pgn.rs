//! PGN, the Portable Game Notation (1994 standard): reading games (lax, as the standard asks
//! of importers) and writing them (strict: the seven-tag roster first, lines under 80
//! characters).
//!
//! This is notation only. Playing the moves, and deciding whether they are legal, is the rules'
//! business; the command line joins the two.

use std::fmt::Write as _;

/// One game read from PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs, in file order.
    pub tags: Vec<(String, String)>,
    /// The comments before the first move of the main line, joined by a space.
    pub before: Option<String>,
    /// The moves of the main line, in order.
    pub moves: Vec<PgnMove>,
    /// The result token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// A move of a game's main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// In SAN, as written (any move number stripped).
    pub san: String,
    /// The 1-based line it is on.
    pub line: usize,
    /// The comments that follow it in the main line, joined by a space, with their braces and
    /// surrounding spaces taken off.
    pub comment: Option<String>,
}

impl PgnGame {
    /// A tag's value.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a text is not PGN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("PGN line {line}: {message}")]
pub struct PgnError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads every game of a PGN text.
///
/// # Errors
/// A [`PgnError`] naming the line of a malformed tag, an unclosed comment or variation, or a
/// game with no moves and no result.
pub fn parse(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut reader = Reader::default();
    for (i, raw) in text.lines().enumerate() {
        reader.line(i + 1, raw.trim_end_matches('\r'))?;
    }
    reader.finish()
}

/// A PGN text read line by line: the games so far, and where the reading stands.
#[derive(Default)]
struct Reader {
    games: Vec<PgnGame>,
    current: Option<PgnGame>,
    /// The current game's movetext has begun: a tag now starts the next game.
    in_moves: bool,
    /// How many variations `(` are open.
    depth: usize,
    /// The lines read so far.
    lines: usize,
    /// The line an open comment `{` began on.
    comment_from: Option<usize>,
    /// The open comment's text so far.
    comment: String,
}

impl Reader {
    /// Reads line `line_no`: an escape (`%`), a tag pair, or movetext. Inside a comment or a
    /// variation a line is movetext, whatever it starts with: a comment may quote a tag.
    fn line(&mut self, line_no: usize, line: &str) -> Result<(), PgnError> {
        self.lines = line_no;
        if self.comment_from.is_none() && self.depth == 0 {
            if line.starts_with('%') {
                return Ok(());
            }
            if line.trim_start().starts_with('[') {
                return self.tag(line_no, line);
            }
        }
        self.movetext(line_no, line)
    }

    /// Reads a tag pair: after movetext, it starts the next game.
    fn tag(&mut self, line_no: usize, line: &str) -> Result<(), PgnError> {
        if self.in_moves {
            if let Some(game) = self.current.take() {
                self.games.push(game);
            }
            self.in_moves = false;
        }
        let (name, value) = tag(line.trim()).ok_or_else(|| PgnError {
            line: line_no,
            message: format!("`{line}` is not a tag pair like [Event \"...\"]"),
        })?;
        self.current
            .get_or_insert_with(empty)
            .tags
            .push((name, value));
        Ok(())
    }

    /// Reads a line of movetext: moves, results, comments and variations (skipped).
    fn movetext(&mut self, line_no: usize, line: &str) -> Result<(), PgnError> {
        let mut token = String::new();
        if self.comment_from.is_some() {
            // A comment that goes on over lines: its line break is a space.
            self.comment.push(' ');
        }
        for c in line.chars() {
            if self.comment_from.is_some() {
                if c == '}' {
                    self.comment_from = None;
                    let text = std::mem::take(&mut self.comment);
                    // A comment before anything else is the game's, before its first move.
                    let game = self.current.get_or_insert_with(empty);
                    attach(Some(game), self.depth, &text);
                } else {
                    self.comment.push(c);
                }
                continue;
            }
            match c {
                '{' => {
                    self.flush(&mut token, line_no);
                    self.comment_from = Some(line_no);
                }
                ';' => break,
                '(' => {
                    self.flush(&mut token, line_no);
                    self.depth += 1;
                }
                ')' => {
                    self.flush(&mut token, line_no);
                    self.depth = self.depth.checked_sub(1).ok_or_else(|| PgnError {
                        line: line_no,
                        message: "`)` closes no variation".into(),
                    })?;
                }
                _ if self.depth > 0 => {}
                c if c.is_whitespace() => self.flush(&mut token, line_no),
                '.' if token.chars().all(|c| c.is_ascii_digit()) => token.clear(),
                _ => token.push(c),
            }
        }
        self.flush(&mut token, line_no);
        Ok(())
    }

    /// Takes the token read so far (if any) into the current game: a result, a move (its number
    /// dropped), or a numeric annotation glyph (`$1`, dropped).
    fn flush(&mut self, token: &mut String, line_no: usize) {
        if token.is_empty() {
            return;
        }
        let game = self.current.get_or_insert_with(empty);
        self.in_moves = true;
        let t = std::mem::take(token);
        match t.as_str() {
            "1-0" | "0-1" | "1/2-1/2" | "*" => game.result = t,
            _ if t.starts_with('$') => {}
            _ => {
                let san = t
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .trim_start_matches('.');
                if !san.is_empty() {
                    game.moves.push(PgnMove {
                        san: san.to_owned(),
                        line: line_no,
                        comment: None,
                    });
                }
            }
        }
    }

    /// The games read, once the text has ended.
    fn finish(mut self) -> Result<Vec<PgnGame>, PgnError> {
        if let Some(line) = self.comment_from {
            return Err(PgnError {
                line,
                message: "a comment `{` is never closed".into(),
            });
        }
        if self.depth > 0 {
            return Err(PgnError {
                line: self.lines,
                message: "a variation `(` is never closed".into(),
            });
        }
        // A comment alone, with no tag, move or result, is no game.
        if let Some(game) = self
            .current
            .filter(|g| !g.tags.is_empty() || !g.moves.is_empty() || g.result != "*")
        {
            self.games.push(game);
        }
        Ok(self.games)
    }
}

/// A comment read in the main line, given to the move before it, or to the game's start
/// before the first move; one inside a variation belongs to no move of the main line.
fn attach(game: Option<&mut PgnGame>, depth: usize, text: &str) {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let Some(game) = game.filter(|_| depth == 0) else {
        return;
    };
    if text.is_empty() {
        return;
    }
    let slot = match game.moves.last_mut() {
        Some(last) => &mut last.comment,
        None => &mut game.before,
    };
    *slot = Some(match slot.take() {
        Some(before) => format!("{before} {text}"),
        None => text,
    });
}

fn empty() -> PgnGame {
    PgnGame {
        tags: Vec::new(),
        before: None,
        moves: Vec::new(),
        result: "*".into(),
    }
}

/// `[Name "value"]`, with `\"` and `\\` escapes.
fn tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut escaped = false;
    for c in quoted.chars() {
        match (escaped, c) {
            (false, '\\') => escaped = true,
            (_, c) => {
                value.push(c);
                escaped = false;
            }
        }
    }
    Some((name.to_owned(), value))
}

/// A comment as tokens, one per word, so that a long comment wraps like the moves (a comment
/// runs to its `}` over lines, and PGN lines stay under 80 characters).
fn comment_tokens(comment: &str, tokens: &mut Vec<String>) {
    let words: Vec<&str> = comment.split_whitespace().collect();
    for (i, word) in words.iter().enumerate() {
        let open = if i == 0 { "{" } else { "" };
        let close = if i + 1 == words.len() { "}" } else { "" };
        tokens.push(format!("{open}{}{close}", word.replace('}', ")")));
    }
}

/// Writes one game: the tags (quoted and escaped), then an optional comment before the moves,
/// the moves numbered, with optional comments after moves, an optional last comment (why the
/// result is what it is), then the result; lines wrap before 80 characters, except inside a
/// comment longer than a line.
#[must_use]
pub fn write(
    tags: &[(String, String)],
    (first_comment, moves): (Option<&str>, &[(String, Option<String>)]),
    last_comment: Option<&str>,
    result: &str,
) -> String {
    let mut out = String::new();
    for (name, value) in tags {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{name} \"{escaped}\"]");
    }
    out.push('\n');
    let mut tokens = Vec::new();
    if let Some(comment) = first_comment {
        comment_tokens(comment, &mut tokens);
    }
    for (i, (san, comment)) in moves.iter().enumerate() {
        // A move number stays on the line of its move; Black's move after a comment is
        // numbered again (`1... e5`), as the export format asks.
        let after_comment = i > 0 && moves[i - 1].1.is_some();
        if i % 2 == 0 {
            tokens.push(format!("{}. {san}", i / 2 + 1));
        } else if after_comment {
            tokens.push(format!("{}... {san}", i / 2 + 1));
        } else {
            tokens.push(san.clone());
        }
        if let Some(comment) = comment {
            comment_tokens(comment, &mut tokens);
        }
    }
    if let Some(comment) = last_comment {
        comment_tokens(comment, &mut tokens);
    }
    tokens.push(result.to_owned());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_moves_comments_variations_and_results() {
        let text = "[Event \"Casual \\\"game\\\"\"]\n[White \"Morphy\"]\n\n1. e4 {best by test} e5 2. Nf3 (2. f4 {the gambit} exf4) 2... d6 $1 {a\n  long  one}\n3. d4 ; a line comment\nBg4 1-0\n\n[Event \"Second\"]\n1. d4 *\n";
        let games = parse(text).expect("valid PGN");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("Casual \"game\""));
        let sans: Vec<&str> = games[0].moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e4", "e5", "Nf3", "d6", "d4", "Bg4"]);
        assert_eq!(games[0].moves[4].line, 6, "the line of 3. d4");
        let comments: Vec<Option<&str>> = games[0]
            .moves
            .iter()
            .map(|m| m.comment.as_deref())
            .collect();
        // A variation's comment is no main-line move's; one over lines is joined.
        assert_eq!(
            comments,
            [
                Some("best by test"),
                None,
                None,
                Some("a long one"),
                None,
                None
            ]
        );
        assert_eq!(games[0].result, "1-0");
        assert_eq!(games[1].result, "*");
    }

    #[test]
    fn malformed_pgn_names_its_line() {
        assert_eq!(parse("[Event \"x\"\n1. e4").expect_err("bad tag").line, 1);
        assert_eq!(
            parse("1. e4 {never closed\n2. d4")
                .expect_err("comment")
                .line,
            1
        );
        assert!(parse("1. e4 (1. d4").is_err());
    }

    #[test]
    fn writes_what_it_reads() {
        let tags = vec![
            ("Event".to_owned(), "A \"b\"".to_owned()),
            ("Result".to_owned(), "1-0".to_owned()),
        ];
        let moves: Vec<(String, Option<String>)> =
            ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
                .iter()
                .map(|m| ((*m).to_owned(), None))
                .collect();
        let text = write(&tags, (None, &moves), None, "1-0");
        assert!(text.contains("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"));
        let mut commented = moves.clone();
        commented[0].1 = Some("the king's pawn".to_owned());
        commented[2].1 = Some("early".to_owned());
        assert!(write(&tags, (None, &commented), None, "1-0").contains(
            "1. e4 {the king's pawn} 1... e5 2. Qh5 {early} 2... Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"
        ));
        let back = parse(&text).expect("valid");
        assert_eq!(back[0].tag("Event"), Some("A \"b\""));
        assert_eq!(back[0].moves.len(), 7);
        let long: Vec<(String, Option<String>)> =
            (0..200).map(|_| ("Nf3".to_owned(), None)).collect();
        assert!(
            write(&[], (None, &long), None, "*")
                .lines()
                .all(|l| l.len() < 80)
        );
        let ended = write(
            &[],
            (None, &[]),
            Some("alice won by resignation, } before colours"),
            "*",
        );
        assert_eq!(ended, "\n{alice won by resignation, ) before colours} *\n");
        // A comment before the moves (an acceptance's), read back as the game's, not a move's.
        let one = [("e4".to_owned(), None)];
        let text = write(&[], (Some("bob (black): good luck"), &one), None, "*");
        assert_eq!(text, "\n{bob (black): good luck} 1. e4 *\n");
        let game = &parse(&text).expect("PGN")[0];
        assert_eq!(game.before.as_deref(), Some("bob (black): good luck"));
        assert_eq!(game.moves[0].comment, None);
    }
}
