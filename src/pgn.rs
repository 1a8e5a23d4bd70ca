//! PGN, the Portable Game Notation (1994 standard): reading games (lax, as the standard asks
//! of importers) and writing them (strict: the seven-tag roster first, lines under 80
//! characters).
//!
//! This is notation only. Playing the moves, and deciding whether they are legal, is the rules'
//! business; the command line joins the two. The reader keeps what it does not use in a note
//! ([`PgnGame::set_aside`]) rather than dropping it without a word, and each comment as it was
//! written, one per `{...}`, so that a caller can tell a game it keeps whole from one it
//! would change.

use std::fmt::Write as _;

/// One game read from PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs, in file order.
    pub tags: Vec<PgnTag>,
    /// The comments before the first move of the main line, in order.
    pub before: Vec<PgnComment>,
    /// The moves of the main line, in order.
    pub moves: Vec<PgnMove>,
    /// The result token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// What the reader read but a game's main line does not hold: variations and glyphs.
    pub set_aside: Vec<SetAside>,
}

/// A tag pair, and the line it is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnTag {
    /// The tag's name, as written.
    pub name: String,
    /// Its value, escapes undone.
    pub value: String,
    /// The 1-based line.
    pub line: usize,
}

/// A comment of the main line: a `{...}`, or a `;` to the end of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnComment {
    /// The text, its braces and the ASCII white space at either end taken off, and each line
    /// break, with the ASCII white space around it, read as one space.
    pub text: String,
    /// The 1-based line it begins on.
    pub line: usize,
}

/// A move of a game's main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// In SAN, as written: any move number, and any `!` or `?` after it (a glyph, set aside),
    /// taken off.
    pub san: String,
    /// The 1-based line it is on.
    pub line: usize,
    /// The comments that follow it in the main line, in order.
    pub comments: Vec<PgnComment>,
}

/// Something read that is not part of a game's main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetAside {
    /// The 1-based line it begins on.
    pub line: usize,
    /// What it is.
    pub what: Aside,
}

/// What was set aside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Aside {
    /// A variation `( ... )`, with the moves and comments inside it.
    Variation,
    /// An annotation glyph: `$1`, or `!` and `?` after a move.
    Glyph(String),
}

impl std::fmt::Display for Aside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Aside::Variation => f.write_str("a variation"),
            Aside::Glyph(glyph) => {
                write!(f, "the annotation glyph `{}`", crate::text::shown(glyph))
            }
        }
    }
}

impl PgnGame {
    /// A tag's value (the first, if the tag is there twice).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
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
    /// The open comment's text so far, its line breaks kept.
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
        self.game().tags.push(PgnTag {
            name,
            value,
            line: line_no,
        });
        Ok(())
    }

    fn game(&mut self) -> &mut PgnGame {
        self.current.get_or_insert_with(empty)
    }

    /// Reads a line of movetext: moves, results, comments and variations (set aside).
    fn movetext(&mut self, line_no: usize, line: &str) -> Result<(), PgnError> {
        let mut token = String::new();
        if self.comment_from.is_some() {
            self.comment.push('\n');
        }
        for (at, c) in line.char_indices() {
            if let Some(from) = self.comment_from {
                if c == '}' {
                    self.comment_from = None;
                    let text = std::mem::take(&mut self.comment);
                    self.attach(&text, from);
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
                ';' => {
                    self.flush(&mut token, line_no);
                    self.attach(&line[at + 1..], line_no);
                    return Ok(());
                }
                '(' => {
                    self.flush(&mut token, line_no);
                    if self.depth == 0 {
                        self.set_aside(line_no, Aside::Variation);
                    }
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

    fn set_aside(&mut self, line: usize, what: Aside) {
        self.game().set_aside.push(SetAside { line, what });
    }

    /// Takes the token read so far (if any) into the current game: a result, a move (its number
    /// dropped, a glyph after it set aside), or a numeric annotation glyph (`$1`, set aside).
    fn flush(&mut self, token: &mut String, line_no: usize) {
        if token.is_empty() {
            return;
        }
        self.in_moves = true;
        let t = std::mem::take(token);
        match t.as_str() {
            "1-0" | "0-1" | "1/2-1/2" | "*" => self.game().result = t,
            _ if t.starts_with('$') => self.set_aside(line_no, Aside::Glyph(t)),
            _ => {
                let numbered = t
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .trim_start_matches('.');
                let san = numbered.trim_end_matches(['!', '?']);
                let glyph = &numbered[san.len()..];
                if !glyph.is_empty() {
                    self.set_aside(line_no, Aside::Glyph(glyph.to_owned()));
                }
                if !san.is_empty() {
                    self.game().moves.push(PgnMove {
                        san: san.to_owned(),
                        line: line_no,
                        comments: Vec::new(),
                    });
                }
            }
        }
    }

    /// A comment read, given to the move before it, or to the game's start before the first
    /// move; one inside a variation is the variation's, set aside with it.
    fn attach(&mut self, text: &str, line: usize) {
        if self.depth > 0 {
            return;
        }
        // Only ASCII white space is PGN's layout: a no-break space, say, is the comment's own.
        let text = text
            .split('\n')
            .map(|piece| piece.trim_matches(|c: char| c.is_ascii_whitespace()))
            .filter(|piece| !piece.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        if text.is_empty() {
            return;
        }
        let game = self.game();
        let comments = match game.moves.last_mut() {
            Some(last) => &mut last.comments,
            None => &mut game.before,
        };
        comments.push(PgnComment { text, line });
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

fn empty() -> PgnGame {
    PgnGame {
        tags: Vec::new(),
        before: Vec::new(),
        moves: Vec::new(),
        result: "*".into(),
        set_aside: Vec::new(),
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

/// A comment as tokens that a line may break between, so that a long comment wraps like the
/// moves (a comment runs to its `}` over lines, and PGN lines stay under 80 characters). A
/// line breaks only at a single space, which the reader reads back as one: a run of spaces,
/// or any other white space, stays inside a token, so the comment reads back as it was.
fn comment_tokens(comment: &str, tokens: &mut Vec<String>) {
    let chars: Vec<char> = comment
        .chars()
        .map(|c| if c == '}' { ')' } else { c })
        .collect();
    let mut word = String::from("{");
    for (i, &c) in chars.iter().enumerate() {
        let single = c == ' '
            && i > 0
            && chars[i - 1] != ' '
            && chars.get(i + 1).is_some_and(|&next| next != ' ');
        if single {
            tokens.push(std::mem::take(&mut word));
        } else {
            word.push(c);
        }
    }
    word.push('}');
    tokens.push(word);
}

/// Writes one game: the tags (quoted and escaped), then the comments before the moves, the
/// moves numbered, each followed by its comments, the last comments (why the result is what it
/// is), then the result; each comment in its own braces; lines wrap before 80 characters, except
/// inside a word longer than a line.
#[must_use]
pub fn write(
    tags: &[(String, String)],
    (before, moves): (&[String], &[(String, Vec<String>)]),
    last: &[String],
    result: &str,
) -> String {
    let mut out = String::new();
    for (name, value) in tags {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{name} \"{escaped}\"]");
    }
    out.push('\n');
    let mut tokens = Vec::new();
    for comment in before {
        comment_tokens(comment, &mut tokens);
    }
    for (i, (san, comments)) in moves.iter().enumerate() {
        // A move number stays on the line of its move; Black's move after a comment is
        // numbered again (`1... e5`), as the export format asks.
        let after_comment = i > 0 && !moves[i - 1].1.is_empty();
        if i % 2 == 0 {
            tokens.push(format!("{}. {san}", i / 2 + 1));
        } else if after_comment {
            tokens.push(format!("{}... {san}", i / 2 + 1));
        } else {
            tokens.push(san.clone());
        }
        for comment in comments {
            comment_tokens(comment, &mut tokens);
        }
    }
    for comment in last {
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

    fn texts(comments: &[PgnComment]) -> Vec<&str> {
        comments.iter().map(|c| c.text.as_str()).collect()
    }

    #[test]
    fn reads_tags_moves_comments_variations_and_results() {
        let text = "[Event \"Casual \\\"game\\\"\"]\n[White \"Morphy\"]\n\n1. e4 {best by test} e5 2. Nf3 (2. f4 {the gambit} exf4) 2... d6 $1 {a\n  long  one}\n3. d4 ; a line comment\nBg4!? 1-0\n\n[Event \"Second\"]\n1. d4 *\n";
        let games = parse(text).expect("valid PGN");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("Casual \"game\""));
        assert_eq!(games[0].tags[1].line, 2);
        let sans: Vec<&str> = games[0].moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e4", "e5", "Nf3", "d6", "d4", "Bg4"]);
        assert_eq!(games[0].moves[4].line, 6, "the line of 3. d4");
        let comments: Vec<Vec<&str>> = games[0].moves.iter().map(|m| texts(&m.comments)).collect();
        // A variation's comment is no main-line move's; a line break is one space, the spaces
        // inside a line are kept; a `;` comment runs to the end of its line.
        assert_eq!(
            comments,
            [
                vec!["best by test"],
                vec![],
                vec![],
                vec!["a long  one"],
                vec!["a line comment"],
                vec![],
            ]
        );
        assert_eq!(games[0].moves[3].comments[0].line, 4, "where it begins");
        // What the main line does not hold is set aside, not dropped without a word.
        assert_eq!(
            games[0].set_aside,
            [
                SetAside {
                    line: 4,
                    what: Aside::Variation
                },
                SetAside {
                    line: 4,
                    what: Aside::Glyph("$1".into())
                },
                SetAside {
                    line: 7,
                    what: Aside::Glyph("!?".into())
                },
            ]
        );
        assert_eq!(games[0].result, "1-0");
        assert_eq!(games[1].result, "*");
        assert!(games[1].set_aside.is_empty());
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
        assert_eq!(parse("1. e4 ) e5").expect_err("close").line, 1);
    }

    #[test]
    fn writes_what_it_reads() {
        let tags = vec![
            ("Event".to_owned(), "A \"b\"".to_owned()),
            ("Result".to_owned(), "1-0".to_owned()),
        ];
        let moves: Vec<(String, Vec<String>)> = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
            .iter()
            .map(|m| ((*m).to_owned(), Vec::new()))
            .collect();
        let text = write(&tags, (&[], &moves), &[], "1-0");
        assert!(text.contains("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"));
        let mut commented = moves.clone();
        commented[0].1 = vec!["the king's pawn".to_owned(), "alice (white): hi".to_owned()];
        commented[2].1 = vec!["early".to_owned()];
        let text = write(&tags, (&[], &commented), &[], "1-0");
        assert!(
            text.replace('\n', " ").contains(
                "1. e4 {the king's pawn} {alice (white): hi} 1... e5 2. Qh5 {early} 2... Nc6 3. \
                 Bc4 Nf6"
            ),
            "{text}"
        );
        let back = parse(&text).expect("valid");
        assert_eq!(back[0].tag("Event"), Some("A \"b\""));
        assert_eq!(back[0].moves.len(), 7);
        assert_eq!(
            texts(&back[0].moves[0].comments),
            ["the king's pawn", "alice (white): hi"]
        );
        let long: Vec<(String, Vec<String>)> =
            (0..200).map(|_| ("Nf3".to_owned(), Vec::new())).collect();
        assert!(
            write(&[], (&[], &long), &[], "*")
                .lines()
                .all(|l| l.len() < 80)
        );
        let ended = write(
            &[],
            (&[], &[]),
            &["alice won by resignation, } before colours".to_owned()],
            "*",
        );
        assert_eq!(ended, "\n{alice won by resignation, ) before colours} *\n");
        // A comment before the moves (an acceptance's), read back as the game's, not a move's.
        let one = [("e4".to_owned(), Vec::new())];
        let text = write(
            &[],
            (&["bob (black): good luck".to_owned()], &one),
            &[],
            "*",
        );
        assert_eq!(text, "\n{bob (black): good luck} 1. e4 *\n");
        let game = &parse(&text).expect("PGN")[0];
        assert_eq!(texts(&game.before), ["bob (black): good luck"]);
        assert!(game.moves[0].comments.is_empty());
    }

    #[test]
    fn a_comment_reads_back_as_written_however_it_wraps() {
        let words = "word ".repeat(55);
        let spaced = "ab\u{a0} ".repeat(40);
        let odd = [
            "two  spaces,   three, and a last word",
            "a\u{a0}no-break space and\ta tab",
            "ends in a no-break space\u{a0}",
            spaced.trim_end(),
            words.trim_end(),
            &format!("{}  {}", "x".repeat(90), "y".repeat(10)),
        ];
        for comment in odd {
            let moves = [("e4".to_owned(), vec![comment.to_owned()])];
            let text = write(&[], (&[], &moves), &[], "*");
            let game = &parse(&text).expect("PGN")[0];
            assert_eq!(texts(&game.moves[0].comments), [comment], "{text}");
        }
    }
}
