//! The PGN's tags as `import-pgn` keeps them: in the header, under the header's one rule
//! ([`log::check_tags`], [`log::check_game_tags`]); those PGN export writes from the game itself
//! checked against the game instead of kept; anything a header cannot hold as it is noted as a
//! change, which only `--lossy` lets through.

use super::Changes;
use crate::cli::CliError;
use correspond::log::{self, Header};
use correspond::pgn::{PgnGame, PgnTag};
use correspond::text::shown;
use std::collections::BTreeMap;
use std::path::Path;

/// The tags of the PGN game that its header keeps: every tag but those PGN export writes from
/// the game itself ([`log::DERIVED_TAGS`], checked against the game: [`plies_counted`],
/// [`termination`]) and those that say nothing export would not say without them (`White` and
/// `Black` as the players' names, `Site "?"`, `Round "-"`). A tag a header cannot hold as it is
/// (a value with `"`, a name of another shape, a date that is no PGN date, a second tag of one
/// name, one past the most a header holds) is a change: made fit, or left out.
pub(super) fn kept(
    pgn: &PgnGame,
    header: &Header,
    changes: &mut Changes,
) -> BTreeMap<String, String> {
    // The players by colour, whichever of them made the game.
    let named = |side: &str| {
        let player = header.players.iter().find(|p| p.side == side);
        player.map_or("", |p| p.name.as_str())
    };
    let names = [named("white"), named("black")];
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut candidates: Vec<(String, String, usize)> = Vec::new();
    for tag in &pgn.tags {
        let name = tag.name.as_str();
        if let Some(first) = seen.get(name) {
            changes.push(
                tag.line,
                format!(
                    "the tag `{}` again (line {first} has it) is left out",
                    shown(name)
                ),
            );
            continue;
        }
        seen.insert(name, tag.line);
        if log::DERIVED_TAGS
            .iter()
            .any(|d| d.eq_ignore_ascii_case(name))
        {
            continue;
        }
        let implied = match name {
            "White" => tag.value == names[0],
            "Black" => tag.value == names[1],
            "Site" => tag.value == "?",
            "Round" => tag.value == "-",
            "Event" => tag.value == crate::cli::reading::pgn::DEFAULT_EVENT,
            _ => false,
        };
        if implied {
            continue;
        }
        if let Some(value) = fit(tag, header, changes) {
            candidates.push((name.to_owned(), value, tag.line));
        }
    }
    within_room(candidates, header, changes)
}

/// A tag's value as a header would hold it, if it can (a change where that is not the PGN's).
fn fit(tag: &PgnTag, header: &Header, changes: &mut Changes) -> Option<String> {
    let name = tag.name.as_str();
    let value = log::clean_tag_value(&tag.value);
    let alone = Header {
        tags: BTreeMap::from([(name.to_owned(), value.clone())]),
        ..header.clone()
    };
    let holds = log::check_tags(&alone.tags).and_then(|()| log::check_game_tags(&alone, true));
    if let Err(why) = holds {
        changes.push(
            tag.line,
            format!("the tag `{}` is left out: {why}", shown(name)),
        );
        return None;
    }
    if value != tag.value {
        changes.push(
            tag.line,
            format!(
                "the tag `{name}` is `{}`, which a game file keeps as `{}`",
                shown(&tag.value),
                shown(&value)
            ),
        );
    }
    Some(value)
}

/// The tags a header keeps of `candidates` (name, value, PGN line), in the PGN's order, as many
/// as it holds beside those PGN export writes from `header` ([`log::exported_beside`]: the day
/// the game was made where there is no `Date`). The others are changes.
fn within_room(
    candidates: Vec<(String, String, usize)>,
    header: &Header,
    changes: &mut Changes,
) -> BTreeMap<String, String> {
    let all = Header {
        tags: candidates
            .iter()
            .map(|(name, value, _)| (name.clone(), value.clone()))
            .collect(),
        ..header.clone()
    };
    let beside = log::exported_beside(&all);
    let room = log::MAX_TAGS - beside.len();
    let mut kept = BTreeMap::new();
    for (name, value, line) in candidates {
        if kept.len() == room {
            let why = if beside.is_empty() {
                format!("a header keeps at most {room} tags")
            } else {
                let written = beside.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>();
                format!(
                    "a header keeps at most {room} tags beside the {} PGN export writes",
                    written.join(" and ")
                )
            };
            changes.push(line, format!("the tag `{name}` is left out: {why}"));
            continue;
        }
        kept.insert(name, value);
    }
    kept
}

/// A PGN's `PlyCount`, where it has one, is the number of its moves (half-moves, as PGN counts
/// them): the tag is written from the game itself, so it is checked, not kept.
///
/// # Errors
/// A count the moves do not make.
pub(super) fn plies_counted(pgn: &PgnGame, path: &Path) -> Result<(), CliError> {
    let Some(count) = pgn.tag("PlyCount") else {
        return Ok(());
    };
    if count.parse::<usize>().ok() == Some(pgn.moves.len()) {
        return Ok(());
    }
    Err(CliError::rejected(format!(
        "{}: the PlyCount tag says {}, but the game has {} half-moves",
        correspond::text::path(path),
        shown(count),
        pgn.moves.len()
    ))
    .hint("is the PGN cut short? nothing was written"))
}

/// A PGN's `Variant`, where it has one, against the game imported (`made`, the value PGN export
/// writes for it; none for chess, as `Standard` says too): a game imported as another variant
/// (by `--game` or `--variant`) is a change.
pub(super) fn variant(pgn: &PgnGame, made: Option<&str>, changes: &mut Changes) {
    let Some(tag) = pgn.tags.iter().find(|t| t.name == "Variant") else {
        return;
    };
    let chess = ["standard", "chess"]
        .iter()
        .any(|c| tag.value.eq_ignore_ascii_case(c));
    let same = match made {
        None => chess,
        Some(made) => tag.value.eq_ignore_ascii_case(made),
    };
    if !same {
        changes.push(
            tag.line,
            format!(
                "the tag `Variant` is `{}`, but the game is imported as {}",
                shown(&tag.value),
                made.unwrap_or("chess")
            ),
        );
    }
}

/// A PGN's `Termination`, where it has one, against how the imported game ends (`made`, the
/// value PGN export writes for it): an imported game has no clock, arbiter or coin flip, so a
/// game lost on time becomes the loser's resignation, a change.
pub(super) fn termination(pgn: &PgnGame, made: &str, changes: &mut Changes) {
    let Some(tag) = pgn.tags.iter().find(|t| t.name == "Termination") else {
        return;
    };
    if !tag.value.eq_ignore_ascii_case(made) {
        changes.push(
            tag.line,
            format!(
                "the tag `Termination` is `{}`, but the imported game, which has no clock, \
                 arbiter or coin flip, ends `{made}`",
                shown(&tag.value)
            ),
        );
    }
}
