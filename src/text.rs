//! Text that comes from others (game files, file names, git, mail), made safe to show.
//!
//! A terminal obeys some characters instead of showing them: an escape sequence can hide or
//! recolour the rest of a report, a newline or U+2028 can forge a line of it, a bidi control
//! such as U+202E or U+061C can reorder it, and invisible letters make two names look alike.
//! [`escape`] is the one function that every report, error and JSON output passes such text
//! through: it writes each character that is not plain visible text as `\u{...}`, by its
//! Unicode general category (controls, format characters, line and paragraph separators,
//! private use, surrogates and unassigned code points) and by the Default_Ignorable_Code_Point
//! property (fillers and variation selectors that draw nothing).
//!
//! Player names refuse those characters outright ([`is_unsafe`] is part of the name rule), so
//! a name is shown as it is written, and `bob` and `bob\u{3164}` cannot both be names.

use std::borrow::Cow;
use std::fmt;
use std::path::Path;
use unicode_general_category::{GeneralCategory, get_general_category};

/// Whether `c` must not reach a terminal as it is: a control, a format character (every bidi
/// mark among them), a line or paragraph separator, a private-use, surrogate or unassigned code
/// point, or a default-ignorable one.
#[must_use]
pub fn is_unsafe(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    matches!(
        get_general_category(c),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
            | GeneralCategory::PrivateUse
            | GeneralCategory::Surrogate
            | GeneralCategory::Unassigned
    ) || is_default_ignorable(c)
}

/// Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt, Unicode 16):
/// code points that a renderer shows as nothing when it does not support them. Most are format
/// characters; the letters and marks among them (Hangul fillers, variation selectors, the
/// Khmer inherent vowels, the Mongolian free variation selectors) are why the list is needed.
#[must_use]
pub fn is_default_ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFF8}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// `text` with every [`is_unsafe`] character written as `\u{...}`; borrowed when nothing needed
/// escaping. The result holds no character a terminal would act on.
#[must_use]
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push(&mut out, c);
    }
    Cow::Owned(out)
}

/// Free text that another wrote (a record's comment), as a line of a report quotes it:
/// [`escape`]d, each run of space separators (U+0020, U+00A0, U+3000 and the others) shown as
/// one space, and a combining mark at its start, which would draw over the opening quote,
/// escaped. A terminal wraps a long line, so spaces padding a comment out to the terminal's width
/// would start a wrapped row with what follows them, and the comment could pass for another
/// record or a result line of the report; padded with visible characters, it shows what it is.
#[must_use]
pub fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut spaced = false;
    for (i, c) in text.chars().enumerate() {
        let space = c == ' ' || get_general_category(c) == GeneralCategory::SpaceSeparator;
        if space {
            if !spaced {
                out.push(' ');
            }
        } else if i == 0 && is_mark(c) {
            out.extend(c.escape_unicode());
        } else {
            push(&mut out, c);
        }
        spaced = space;
    }
    out
}

fn is_mark(c: char) -> bool {
    matches!(
        get_general_category(c),
        GeneralCategory::NonspacingMark
            | GeneralCategory::SpacingMark
            | GeneralCategory::EnclosingMark
    )
}

/// [`escape`], cut at 80 characters (with `…`): for values quoted inside a message.
#[must_use]
pub fn shown(text: &str) -> String {
    const MAX: usize = 80;
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == MAX {
            out.push('…');
            break;
        }
        push(&mut out, c);
    }
    out
}

fn push(out: &mut String, c: char) {
    if is_unsafe(c) {
        out.extend(c.escape_unicode());
    } else {
        out.push(c);
    }
}

/// Bytes that should be text and may not be (a branch's name, a path in a git tree) as a
/// message shows them: each run of UTF-8 [`escape`]d, each byte that is not UTF-8 as `\xNN`, and
/// a backslash as `\\`, so that two names that differ show differently.
#[must_use]
pub fn bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(&escape(&chunk.valid().replace('\\', "\\\\")));
        for byte in chunk.invalid() {
            out.push_str(&format!("\\x{byte:02x}"));
        }
    }
    out
}

/// A path as a message shows it: lossily decoded where it is not UTF-8, then [`escape`]d.
#[must_use]
pub fn path(path: &Path) -> Shown<'_> {
    Shown(path)
}

/// A path made safe to print (see [`path`]).
#[derive(Clone, Copy, Debug)]
pub struct Shown<'a>(&'a Path);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&escape(&self.0.to_string_lossy()))
    }
}

/// A JSON text with every [`is_unsafe`] character that `serde_json` writes raw (those beyond
/// ASCII: bidi marks, U+2028, U+2029) written as a `\uXXXX` escape instead. Such characters can
/// only stand inside strings, so the JSON value is unchanged; only its spelling is safe to show.
#[must_use]
pub fn json(text: String) -> String {
    if !text.chars().any(|c| !c.is_ascii() && is_unsafe(c)) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if !c.is_ascii() && is_unsafe(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A file name as a shell reads it back as one word, so that a command the program shows can
/// be pasted without running anything a name hides (`$(...)`, `;`): as it is when it holds only
/// letters, digits and `. _ / + : @ % = , -` and does not start with `-` (which a command would
/// read as an option: `./` is put before it); else in single quotes. For text already escaped
/// for the terminal ([`path`], [`escape`]).
#[must_use]
pub fn shell_word(text: &str) -> String {
    let word = if text.starts_with('-') {
        format!("./{text}")
    } else {
        text.to_owned()
    };
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._/+:@%=,-".contains(c));
    if plain {
        word
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_name_is_shown_as_one_shell_word() {
        assert_eq!(shell_word("round-2/g.yaml"), "round-2/g.yaml");
        assert_eq!(shell_word("my game.yaml"), "'my game.yaml'");
        assert_eq!(shell_word("$(rm -rf ~).yaml"), "'$(rm -rf ~).yaml'");
        assert_eq!(shell_word("it's.yaml"), "'it'\\''s.yaml'");
        assert_eq!(shell_word("-x.yaml"), "./-x.yaml");
    }

    #[test]
    fn prose_shows_each_run_of_spaces_as_one_and_no_mark_over_its_quote() {
        for (raw, shown) in [
            ("good game", "good game"),
            ("gg      4  2026  resigns", "gg 4 2026 resigns"),
            ("gg\u{a0}\u{a0}\u{3000} x", "gg x"),
            ("\u{338}bob", "\\u{338}bob"),
            ("bo\u{338}b", "bo\u{338}b"),
            ("a\u{1b}[2K  b", "a\\u{1b}[2K b"),
        ] {
            assert_eq!(prose(raw), shown, "{raw:?}");
        }
    }

    #[test]
    fn what_a_terminal_would_obey_is_escaped() {
        for (raw, safe) in [
            ("a\u{1b}[2Kb", "a\\u{1b}[2Kb"),
            ("x\ny", "x\\u{a}y"),
            ("ok\u{202e}lmth.exe", "ok\\u{202e}lmth.exe"),
            ("\u{61c}", "\\u{61c}"),
            ("a\u{2028}b\u{2029}c", "a\\u{2028}b\\u{2029}c"),
            ("bob\u{3164}", "bob\\u{3164}"),
            ("\u{85}\u{9b}", "\\u{85}\\u{9b}"),
            ("\u{e000}", "\\u{e000}"),
            ("\u{e0041}", "\\u{e0041}"),
            ("tab\there", "tab\\u{9}here"),
        ] {
            assert_eq!(escape(raw), safe, "{raw:?}");
        }
    }

    #[test]
    fn plain_text_in_any_script_is_left_alone() {
        for text in [
            "alice",
            "Zoë Ångström",
            "Иван",
            "王小明",
            "עברית",
            "♜ ♝ ·",
            "a\\u{1b}",
        ] {
            assert!(matches!(escape(text), Cow::Borrowed(_)), "{text}");
        }
    }

    #[test]
    fn escaping_twice_changes_nothing_more() {
        let once = escape("a\u{1b}\u{202e}\n").into_owned();
        assert_eq!(escape(&once), once);
    }

    #[test]
    fn quoted_values_are_cut_at_80_characters() {
        assert_eq!(shown(&"x".repeat(100)), format!("{}…", "x".repeat(80)));
        assert_eq!(shown("a\u{7}"), "a\\u{7}");
    }

    #[test]
    fn json_keeps_its_value_and_loses_its_raw_marks() {
        let value = serde_json::json!({"file": "a\u{202e}b\u{2028}\u{1b}\u{e0041}"});
        let text = json(serde_json::to_string(&value).expect("JSON"));
        assert!(!text.chars().any(is_unsafe), "{text}");
        let back: serde_json::Value = serde_json::from_str(&text).expect("still JSON");
        assert_eq!(back, value);
    }

    #[test]
    fn every_format_character_and_bidi_mark_is_unsafe() {
        for c in [
            '\u{200e}', '\u{200f}', '\u{2066}', '\u{2069}', '\u{feff}', '\u{ad}', '\u{600}',
        ] {
            assert!(is_unsafe(c), "{c:?}");
        }
        assert!(!is_unsafe('é') && !is_unsafe(' ') && !is_unsafe('\u{301}'));
    }
}
