//! The PGN tags a header may carry (`Event`, `Site`, `Date`, `Round`, and any other), so that a
//! game imported from PGN, or one a club names, is written back to PGN with them. Each value
//! has one spelling in YAML: quoted, with nothing YAML would escape.

use super::format::Header;
use crate::text::shown;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The most tags a header holds.
pub const MAX_TAGS: usize = 32;

/// The longest tag value, in characters: PGN's own limit for a string.
pub const MAX_TAG_VALUE: usize = 255;

/// Tags PGN export writes from the game itself (its result, its start, its variant, how it
/// ended, its id), which a header therefore cannot set.
pub const DERIVED_TAGS: [&str; 7] = [
    "Result",
    "FEN",
    "SetUp",
    "Variant",
    "Termination",
    "PlyCount",
    "GameId",
];

/// A PGN tag name: 1 to 40 ASCII letters, digits and `_`, starting with a letter, and not a
/// word YAML reads as something other than text (`true`, `Null`, ...).
#[must_use]
pub fn valid_tag_name(name: &str) -> bool {
    let yaml_word = matches!(
        name.to_ascii_lowercase().as_str(),
        "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
    );
    (1..=40).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !yaml_word
}

/// A tag value: up to [`MAX_TAG_VALUE`] characters on one line, with no control character, none
/// a terminal would obey (see [`crate::text::is_unsafe`]), no `"` or `\` (so that its quoted
/// YAML spelling is the text itself), and no space at either end.
#[must_use]
pub fn valid_tag_value(value: &str) -> bool {
    value.chars().count() <= MAX_TAG_VALUE
        && !value.starts_with(' ')
        && !value.ends_with(' ')
        && value
            .chars()
            .all(|c| !c.is_control() && !crate::text::is_unsafe(c) && !"\"\\".contains(c))
}

/// A PGN date: `YYYY.MM.DD`, any part `?`s where unknown (`1858.??.??`).
#[must_use]
pub fn valid_date(value: &str) -> bool {
    let parts: Vec<&str> = value.split('.').collect();
    matches!(parts.as_slice(), [y, m, d] if y.len() == 4 && m.len() == 2 && d.len() == 2)
        && parts
            .iter()
            .all(|part| part.bytes().all(|b| b.is_ascii_digit()) || part.bytes().all(|b| b == b'?'))
}

/// A PGN tag value made fit for a header: control characters as spaces, `"` as `'`, `\` as `/`,
/// spaces trimmed, cut to [`MAX_TAG_VALUE`] characters.
#[must_use]
pub fn clean_tag_value(value: &str) -> String {
    let replaced: String = value
        .chars()
        .filter(|&c| !crate::text::is_unsafe(c) || c.is_control())
        .map(|c| match c {
            '"' => '\'',
            '\\' => '/',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    let cut: String = replaced.trim().chars().take(MAX_TAG_VALUE).collect();
    cut.trim_end().to_owned()
}

/// Checks a header's tags.
///
/// # Errors
/// Says which tag is at fault, and why.
pub fn check_tags(tags: &BTreeMap<String, String>) -> Result<(), String> {
    if tags.len() > MAX_TAGS {
        return Err(format!(
            "`tags` holds {} tags; at most {MAX_TAGS}",
            tags.len()
        ));
    }
    for (name, value) in tags {
        if !valid_tag_name(name) {
            return Err(format!(
                "`{}` is not a PGN tag name (1 to 40 letters, digits and `_`, starting with a \
                 letter)",
                shown(name)
            ));
        }
        if DERIVED_TAGS.iter().any(|d| d.eq_ignore_ascii_case(name)) {
            return Err(format!(
                "the tag `{name}` is written from the game itself; a header cannot set it"
            ));
        }
        if name == "Date" && !valid_date(value) {
            return Err(format!(
                "the tag `Date` is `{}`, not a PGN date like 2026.03.01 (`??` for what is unknown)",
                shown(value)
            ));
        }
        if !valid_tag_value(value) {
            return Err(format!(
                "the tag `{name}` has a value that cannot be stored: `{}` (at most \
                 {MAX_TAG_VALUE} characters, no control character, `\"` or `\\`, no space at \
                 either end)",
                shown(value)
            ));
        }
    }
    Ok(())
}

/// Checks a header's tags against the game it describes, after [`check_tags`] (`pgn`: whether
/// `correspond pgn` writes the game): tags only on a game PGN export writes; `White` and `Black` only as the PGN spelling of that player's name
/// (the name once [`crate::log::name_from_pgn`] reads it, as `import-pgn` names players: so
/// `Kasparov, Garry` for the player `Kasparov Garry`); no tag about one colour (`White...` or
/// `Black...`, as `WhiteElo`) while a coin flip has still to say who plays it; no
/// `TimeControl` beside the game's own clock, which PGN export writes in its place; and no
/// more than [`MAX_TAGS`] with those PGN export writes from the header beside them
/// ([`exported_beside`]), which `import-pgn` keeps as tags: so that a game exported imports
/// whole.
///
/// # Errors
/// Says which tag is at fault, and why.
pub fn check_game_tags(header: &Header, pgn: bool) -> Result<(), String> {
    let game = &header.game;
    if !pgn && !header.tags.is_empty() {
        return Err(format!(
            "`tags` are for PGN export, which {game} does not have; a header of {game} holds none"
        ));
    }
    let beside = exported_beside(header);
    if !header.tags.is_empty() && header.tags.len() + beside.len() > MAX_TAGS {
        return Err(format!(
            "`tags` holds {} tags, and PGN export writes {} from the header beside them: at most \
             {MAX_TAGS} in all, which a game imported from that PGN keeps",
            header.tags.len(),
            beside.join(" and ")
        ));
    }
    // PGN's colours, as the header names the players' sides (`toss` until a coin flip).
    let playing = |side: &str| {
        let player = header.players.iter().find(|p| p.side == side);
        player.map(|p| p.name.as_str())
    };
    for (name, value) in &header.tags {
        let colour = [("White", playing("white")), ("Black", playing("black"))]
            .into_iter()
            .find(|(colour, _)| name.starts_with(colour));
        match colour {
            Some((colour, None)) => {
                return Err(format!(
                    "the tag `{name}` is about {}, and a coin flip has still to say who plays it",
                    colour.to_ascii_lowercase()
                ));
            }
            Some((colour, Some(player)))
                if name == colour && !names_the_player(value, player, colour) =>
            {
                return Err(format!(
                    "the tag `{name}` is `{}`, which is not a spelling of the name of the player \
                     of {} (`{player}`): PGN export writes that name",
                    shown(value),
                    colour.to_ascii_lowercase()
                ));
            }
            _ => {}
        }
        if name == "TimeControl" && header.time_control.is_some() {
            return Err(
                "the tag `TimeControl` stands beside the game's clock (`time-control`), which \
                 PGN export writes in its place"
                    .into(),
            );
        }
    }
    Ok(())
}

/// The tags PGN export writes from the header beside its `tags`, which `import-pgn` keeps as tags
/// of the game it makes: `Date` (the day the game was created) where the header has no `Date`
/// tag, and `TimeControl` (the clock) where it has a clock.
#[must_use]
pub fn exported_beside(header: &Header) -> Vec<&'static str> {
    let date = (!header.tags.contains_key("Date")).then_some("Date");
    let clock = header.time_control.is_some().then_some("TimeControl");
    date.into_iter().chain(clock).collect()
}

/// Whether a `White` or `Black` tag's value may stand for `player`, who plays `colour`: it is
/// a spelling of their name ([`crate::log::name_from_pgn`]), or it names no one (`?`, as PGN
/// writes an unknown player), or the player is named by their colour (`white`), as
/// `import-pgn` names a player whose PGN name it cannot use, and keeps that name in the tag.
fn names_the_player(value: &str, player: &str, colour: &str) -> bool {
    match crate::log::name_from_pgn(value) {
        Some(name) => name == player || player.eq_ignore_ascii_case(colour),
        None => true,
    }
}

/// The `tags:` lines of a header, names in byte order; nothing when there are none.
pub(crate) fn tag_lines(tags: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    if !tags.is_empty() {
        out.push_str("tags:\n");
        for (name, value) in tags {
            let _ = writeln!(out, "  {name}: \"{value}\"");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_values_have_one_spelling() {
        for good in ["Event", "Round", "WhiteElo", "X_1"] {
            assert!(valid_tag_name(good), "{good}");
        }
        for bad in [
            "",
            "1Event",
            "_x",
            "Ev ent",
            "Évent",
            "True",
            "null",
            "NO",
            &"A".repeat(41),
        ] {
            assert!(!valid_tag_name(bad), "{bad}");
        }
        for good in [
            "",
            "F/S Return Match",
            "Belgrade, Serbia JUG",
            "{braces} # and: colons",
        ] {
            assert!(valid_tag_value(good), "{good}");
        }
        for bad in [
            " x",
            "x ",
            "a\"b",
            "a\\b",
            "a\nb",
            "a\u{202e}b",
            &"x".repeat(256),
        ] {
            assert!(!valid_tag_value(bad), "{bad}");
        }
        assert_eq!(
            clean_tag_value("  Casual \"game\"\\1\t "),
            "Casual 'game'/1"
        );
        assert!(valid_tag_value(&clean_tag_value(&"é".repeat(300))));
    }

    #[test]
    fn derived_tags_and_too_many_are_refused() {
        for date in ["1858.??.??", "2026.03.01", "????.??.??"] {
            assert!(valid_date(date), "{date}");
        }
        for date in [
            "yesterday",
            "2024.01.0",
            "2026-03-01",
            "2026.3.01",
            "2026.0?.01",
        ] {
            assert!(!valid_date(date), "{date}");
        }
        let lower = BTreeMap::from([("result".to_owned(), "1-0".to_owned())]);
        assert!(
            check_tags(&lower).is_err(),
            "a derived tag in other letters"
        );
        let mut tags = BTreeMap::from([("Result".to_owned(), "1-0".to_owned())]);
        assert_eq!(
            check_tags(&tags),
            Err("the tag `Result` is written from the game itself; a header cannot set it".into())
        );
        tags.clear();
        for i in 0..=MAX_TAGS {
            tags.insert(format!("T{i}"), String::new());
        }
        assert!(check_tags(&tags).is_err());
        tags.pop_first();
        assert_eq!(check_tags(&tags), Ok(()));
        assert_eq!(
            tag_lines(&BTreeMap::from([("Site".to_owned(), "?".to_owned())])),
            "tags:\n  Site: \"?\"\n"
        );
    }
}
