//! The tags that name an event's game: its own `Event`, `Tournament` (the event id), `Round`
//! and `Board`, beside the event's other tags; what an event's tags may be, so that every game
//! of it has a header that can hold them.

use crate::digest::Digest;
use crate::games::GameKind;
use crate::log::{Header, Player};
use crate::tournament::file::TournamentHeader;
use std::collections::BTreeMap;

/// The tag that names a game's event, by the event id.
pub const TOURNAMENT_TAG: &str = "Tournament";
/// The tag that names its round, from 1.
pub const ROUND_TAG: &str = "Round";
/// The tag that names its board in the round, from 1, in the Berger tables' order.
pub const BOARD_TAG: &str = "Board";
/// The tag that holds the event's name.
pub const EVENT_TAG: &str = "Event";

/// The tags a game's header has from its pairing, which the event's own tags may not name;
/// nor `White` and `Black`, which PGN export writes from the players.
pub const PAIRING_TAGS: [&str; 6] = [
    EVENT_TAG,
    TOURNAMENT_TAG,
    ROUND_TAG,
    BOARD_TAG,
    "White",
    "Black",
];

/// The tags of the game of a round and board: the event's own, then its name, id, round and
/// board.
pub(crate) fn game_tags(
    h: &TournamentHeader,
    id: Digest,
    round: usize,
    board: usize,
) -> BTreeMap<String, String> {
    let mut tags = h.tags.clone();
    tags.insert(EVENT_TAG.to_owned(), h.event.clone());
    tags.insert(TOURNAMENT_TAG.to_owned(), id.to_string());
    tags.insert(ROUND_TAG.to_owned(), round.to_string());
    tags.insert(BOARD_TAG.to_owned(), board.to_string());
    tags
}

/// Checks that the event's tags can stand in every game's header: none a pairing writes, and
/// all of them, with those, what a header of the game holds ([`crate::log::check_game_tags`]).
///
/// # Errors
/// Which tag is at fault, and why.
pub fn check_tags(header: &TournamentHeader, kind: GameKind) -> Result<(), String> {
    let pgn = crate::with_game!(kind, G => {
        use crate::replay::Protocol as _;
        G::PGN
    });
    if !pgn {
        let with_tags: Vec<&str> = GameKind::ALL
            .iter()
            .filter(|k| {
                crate::with_game!(**k, G => {
                    use crate::replay::Protocol as _;
                    G::PGN
                })
            })
            .map(|k| k.name())
            .collect();
        return Err(format!(
            "a game of {kind} holds no tags, so it cannot name its event, round and board: a \
             tournament is of a game PGN export writes ({})",
            with_tags.join(" or ")
        ));
    }
    if let Some(tag) = header
        .tags
        .keys()
        .find(|k| PAIRING_TAGS.iter().any(|p| p.eq_ignore_ascii_case(k)))
    {
        return Err(format!(
            "the tag `{tag}` is written into each game from its pairing; the event cannot set it"
        ));
    }
    let sample = Header {
        game: header.game.clone(),
        options: header.options.clone(),
        players: [0, 1].map(|_| Player {
            name: "x".into(),
            side: "white".into(),
            key: header.director.key.clone(),
        }),
        created: header.created.clone(),
        salt: Digest([0; 32]),
        commitment: None,
        time_control: Some(header.time_control),
        leave_days: header.leave_days,
        arbiter: None,
        tags: game_tags(header, Digest([0; 32]), 1, 1),
    };
    crate::log::check_tags(&sample.tags)?;
    crate::log::check_game_tags(&sample, pgn)
}
