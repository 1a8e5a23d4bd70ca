//! The games of an event: each pairing of the schedule is one game, whose header is exactly
//! what the event's terms and the lot make it (the game, its options, its clock, the director
//! as arbiter, the two entrants with their colours, and tags naming the event, round and
//! board), so that anyone can prove a game is the pairing it claims, or is not.

use crate::digest::Digest;
use crate::log::{Arbiter, Header, Player, Timestamp};
use crate::text::shown;
use crate::tournament::event::Event;
use crate::tournament::tags::{BOARD_TAG, ROUND_TAG, TOURNAMENT_TAG, game_tags};

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pairing {
    /// The round, from 1.
    pub round: usize,
    /// The board, from 1.
    pub board: usize,
    /// The number of the player of the game's first side (White), who creates the game.
    pub white: usize,
    /// The number of the player of the second side.
    pub black: usize,
}

impl Event {
    /// Every pairing, round by round, board by board; none before the lot is drawn.
    #[must_use]
    pub fn pairings(&self) -> Vec<Pairing> {
        let Some(schedule) = &self.schedule else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (r, games) in schedule.rounds.iter().enumerate() {
            for (b, &(white, black)) in games.iter().enumerate() {
                out.push(Pairing {
                    round: r + 1,
                    board: b + 1,
                    white,
                    black,
                });
            }
        }
        out
    }

    /// The entrant (an index into `entrants`) who drew `number`.
    #[must_use]
    pub fn numbered(&self, number: usize) -> Option<usize> {
        self.numbers.as_ref()?.get(number.checked_sub(1)?).copied()
    }

    /// The number entrant `e` drew.
    #[must_use]
    pub fn number_of(&self, e: usize) -> Option<usize> {
        Some(self.numbers.as_ref()?.iter().position(|&x| x == e)? + 1)
    }

    /// The header of `pairing`'s game, created at `created` with `salt` (its commitment, where
    /// the game opens with a coin flip, is the creator's to add).
    #[must_use]
    pub fn game_header(&self, pairing: &Pairing, created: Timestamp, salt: Digest) -> Header {
        let sides = crate::with_game!(self.kind, G => {
            use crate::replay::Protocol as _;
            [G::SIDES[0].to_string(), G::SIDES[1].to_string()]
        });
        let player = |number: usize, side: &str| {
            let e = &self.entrants[self.numbered(number).unwrap_or_default()];
            Player {
                name: e.name.clone(),
                side: side.to_owned(),
                key: e.key.clone(),
            }
        };
        let h = &self.header;
        Header {
            game: h.game.clone(),
            options: h.options.clone(),
            players: [
                player(pairing.white, &sides[0]),
                player(pairing.black, &sides[1]),
            ],
            created,
            salt,
            commitment: None,
            time_control: Some(h.time_control),
            leave_days: h.leave_days,
            arbiter: Some(Arbiter {
                name: h.director.name.clone(),
                key: h.director.key.clone(),
            }),
            tags: game_tags(h, self.id, pairing.round, pairing.board),
        }
    }

    /// The pairing a game's header is, when it is exactly that pairing's game.
    ///
    /// # Errors
    /// What differs, in words: the game names a round and board the event does not have, or
    /// differs from that pairing's header in its terms, players, colours or tags.
    pub fn pairing_of(&self, header: &Header) -> Result<Pairing, String> {
        let wanted = |tag: &str| -> Result<usize, String> {
            header
                .tags
                .get(tag)
                .and_then(|v| v.parse::<usize>().ok().filter(|n| n.to_string() == *v))
                .ok_or_else(|| format!("it names no `{tag}` as a number"))
        };
        let (round, board) = (wanted(ROUND_TAG)?, wanted(BOARD_TAG)?);
        let Some(pairing) = self
            .pairings()
            .into_iter()
            .find(|p| p.round == round && p.board == board)
        else {
            return Err(if self.schedule.is_none() {
                "the event's lot is not drawn yet, so it has no pairings".to_owned()
            } else {
                format!("the event has no round {round}, board {board}")
            });
        };
        let expected = self.game_header(&pairing, header.created.clone(), header.salt);
        difference(&expected, header).map_or(Ok(pairing), |what| {
            Err(format!(
                "it is not round {round}, board {board} of the event: {what}"
            ))
        })
    }

    /// A pairing's players in words: `carol (white) v alice (black)`.
    #[must_use]
    pub fn matchup(&self, pairing: &Pairing) -> String {
        let header = self.game_header(pairing, self.header.created.clone(), Digest([0; 32]));
        let [a, b] = &header.players;
        format!("{} ({}) v {} ({})", a.name, a.side, b.name, b.side)
    }
}

/// The event a game's header names, by its `Tournament` tag.
#[must_use]
pub fn claimed(header: &Header) -> Option<Digest> {
    header
        .tags
        .get(TOURNAMENT_TAG)
        .and_then(|v| Digest::parse(v))
}

/// The first way `found` differs from `expected` but for its time, salt and commitment.
fn difference(expected: &Header, found: &Header) -> Option<String> {
    if expected.game != found.game {
        return Some(format!(
            "it is a game of {}, not {}",
            found.game, expected.game
        ));
    }
    if expected.options != found.options {
        return Some("its options are not the event's".into());
    }
    if (expected.time_control, expected.leave_days) != (found.time_control, found.leave_days) {
        return Some("its clock is not the event's time control and leave".into());
    }
    if expected.arbiter != found.arbiter {
        return Some("its arbiter is not the event's director".into());
    }
    for (want, got) in expected.players.iter().zip(&found.players) {
        if want.key.key_data() != got.key.key_data() {
            return Some(format!(
                "{} plays {} there, but the game gives that seat to {}",
                want.name,
                want.side,
                shown(&got.name)
            ));
        }
        if want.name != got.name || want.side != got.side {
            return Some(format!(
                "{} ({}) is named {} ({}) in the game",
                want.name,
                want.side,
                shown(&got.name),
                shown(&got.side)
            ));
        }
    }
    if expected.tags != found.tags {
        let tag = expected
            .tags
            .iter()
            .find(|(k, v)| found.tags.get(*k) != Some(v))
            .map(|(k, _)| k.clone())
            .or_else(|| {
                found
                    .tags
                    .keys()
                    .find(|k| !expected.tags.contains_key(*k))
                    .cloned()
            })
            .unwrap_or_default();
        return Some(format!("its tag `{}` is not the event's", shown(&tag)));
    }
    None
}
