//! What the free text of a document may hold: names, the words of games, sides and claims, move
//! notation, and comments. Each rule keeps a value to one spelling in YAML, and out of reach of
//! a terminal's escape sequences.

/// A player's name: 1 to 40 characters, letters, digits, spaces and `. _ - ' @`, with no space
/// at either end, no two spaces together, and no invisible or default-ignorable character
/// (U+3164 HANGUL FILLER is a letter, but `bob` and `bob\u{3164}` would look the same).
#[must_use]
pub fn valid_name(name: &str) -> bool {
    let count = name.chars().count();
    (1..=40).contains(&count)
        && !name.starts_with(' ')
        && !name.ends_with(' ')
        && !name.contains("  ")
        && name.chars().all(|c| {
            (c.is_alphanumeric() || matches!(c, ' ' | '.' | '_' | '-' | '\'' | '@'))
                && !crate::text::is_unsafe(c)
        })
}

/// A name as a PGN tag spells it (`Kasparov, Garry`), read as a player's name: every character a
/// name cannot hold read as a space, spaces run together, cut to 40 characters; `None` when
/// nothing is left that is a name (PGN's `?` for an unknown player leaves nothing). `import-pgn` names
/// players so, and a header's `White` and `Black` tags must read as their players' names.
#[must_use]
pub fn name_from_pgn(text: &str) -> Option<String> {
    let spaced: String = text
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '\'' | '@') {
                c
            } else {
                ' '
            }
        })
        .collect();
    let joined = spaced.split_whitespace().collect::<Vec<_>>().join(" ");
    let name = joined
        .chars()
        .take(40)
        .collect::<String>()
        .trim_end()
        .to_owned();
    valid_name(&name).then_some(name)
}

/// A lower-case word with hyphens: game names, sides, options, claims.
pub(crate) fn valid_word(word: &str) -> bool {
    !word.is_empty()
        && word.len() <= 40
        && word
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !word.starts_with('-')
}

/// Move notation as stored: lower-case letters, digits, `,` and `-`; up to 160 bytes, room for
/// the longest capture chain (50 cells).
pub(super) fn valid_move_text(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 160
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b',' || b == b'-')
}

/// The longest comment a record may carry, in characters.
pub const MAX_COMMENT: usize = 280;

/// A record's comment: 1 to [`MAX_COMMENT`] characters on one line, none of them a control
/// character or one a terminal would obey (see [`crate::text::is_unsafe`]), and no `"` or `\`
/// (so that its quoted YAML spelling is the text itself) and no `{` or `}` (so that it is a PGN
/// comment as it is); no space at either end.
#[must_use]
pub fn valid_comment(comment: &str) -> bool {
    let count = comment.chars().count();
    (1..=MAX_COMMENT).contains(&count)
        && !comment.starts_with(' ')
        && !comment.ends_with(' ')
        && comment
            .chars()
            .all(|c| !c.is_control() && !crate::text::is_unsafe(c) && !"\"\\{}".contains(c))
}

/// A comment from elsewhere (a PGN's) made fit for a record, as [`valid_comment`] asks: control
/// characters as spaces, `"` as `'`, `\` as `/`, braces as parentheses, what a terminal would
/// obey left out, spaces trimmed, cut to [`MAX_COMMENT`] characters.
#[must_use]
pub fn clean_comment(text: &str) -> String {
    let replaced: String = text
        .chars()
        .filter(|&c| !crate::text::is_unsafe(c) || c.is_control())
        .map(|c| match c {
            '"' => '\'',
            '\\' => '/',
            '{' => '(',
            '}' => ')',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    let cut: String = replaced.trim().chars().take(MAX_COMMENT).collect();
    cut.trim_end().to_owned()
}

/// The bytes a signature's text may hold: base64's alphabet and its padding. A table, since a
/// file's signatures are a third of its bytes and each is looked at here.
const BASE64_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'+' || c == b'/' || c == b'=';
        b += 1;
    }
    table
};

/// Checks the signature field's syntax: standard base64, as OpenSSH armours it, on one line.
pub(crate) fn check_signature_text(text: &str) -> Result<(), String> {
    let ok = !text.is_empty() && text.bytes().all(|b| BASE64_BYTES[usize::from(b)]);
    if ok {
        Ok(())
    } else {
        Err("`signature` must be one line of base64".into())
    }
}
