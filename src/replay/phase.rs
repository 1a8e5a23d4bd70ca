//! What a replay says about a game at each step, as types: the two seats, what the game waits
//! for ([`Phase`]), how it ended ([`Verdict`]), a standing offer, and what a record did
//! ([`Event`]). Words for people are made from these by `Display` and `describe`; the state
//! hash ([`state_hash`]) is made from a canonical encoding of them, so that rewording a message
//! changes no hash.

use super::Player;
use crate::digest::Digest;
use crate::flip::Coin;
use crate::log::{AdjudicationReason, Settlement};
use std::fmt;
use std::ops::{Index, IndexMut};

/// One of the two seats at a game: the creator (who wrote the header) or the opponent (who
/// accepts it). Sides (heads, white, ...) are what the seats play; the seats are fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Seat {
    /// The player who created the game: the header's first player.
    Creator,
    /// The player who accepts it: the header's second player.
    Opponent,
}

impl Seat {
    /// Both seats, in the header's order.
    pub const BOTH: [Seat; 2] = [Seat::Creator, Seat::Opponent];

    /// The other seat.
    #[must_use]
    pub const fn other(self) -> Seat {
        match self {
            Seat::Creator => Seat::Opponent,
            Seat::Opponent => Seat::Creator,
        }
    }

    /// The seat's place in the header's list of players: 0 or 1.
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Seat::Creator => 0,
            Seat::Opponent => 1,
        }
    }

    /// The seat at a place in the header's list of players.
    #[must_use]
    pub const fn at(index: usize) -> Option<Seat> {
        match index {
            0 => Some(Seat::Creator),
            1 => Some(Seat::Opponent),
            _ => None,
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Seat::Creator => "creator",
            Seat::Opponent => "opponent",
        })
    }
}

impl<T> Index<Seat> for [T; 2] {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self[seat.index()]
    }
}

impl<T> IndexMut<Seat> for [T; 2] {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self[seat.index()]
    }
}

/// Who signed a record: a player, by seat, or the header's arbiter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Signatory {
    /// The player in this seat.
    Player(Seat),
    /// The arbiter the header names.
    Arbiter,
}

impl From<Seat> for Signatory {
    fn from(seat: Seat) -> Signatory {
        Signatory::Player(seat)
    }
}

impl Signatory {
    /// The seat, when a player signed.
    #[must_use]
    pub const fn seat(self) -> Option<Seat> {
        match self {
            Signatory::Player(seat) => Some(seat),
            Signatory::Arbiter => None,
        }
    }

    /// Who signed, in words: the player as `alice (heads)`, or `the arbiter carol`.
    #[must_use]
    pub fn describe<S: fmt::Display>(
        self,
        seats: &[Player<S>; 2],
        arbiter: Option<&Player<S>>,
    ) -> String {
        match (self, arbiter) {
            (Signatory::Player(seat), _) => seats[seat].to_string(),
            (Signatory::Arbiter, Some(arbiter)) => format!("the arbiter {}", arbiter.name),
            (Signatory::Arbiter, None) => "the arbiter".to_owned(),
        }
    }
}

/// What the game waits for, and from whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The opponent must accept the header's terms.
    AwaitingAccept(Seat),
    /// This player must commit to a coin flip (a Run-Off is due).
    AwaitingCommit(Seat),
    /// This player must answer a commitment with a nonce.
    AwaitingNonce(Seat),
    /// This player owes the reveal of a coin flip.
    AwaitingReveal(Seat),
    /// This player won the toss and moves first or defers.
    Choosing(Seat),
    /// This player is to move.
    Playing(Seat),
    /// The game is over.
    Over(Verdict),
}

impl Phase {
    /// The seat the game awaits: whose turn it is to sign the next record (`None` once over).
    #[must_use]
    pub fn awaited(&self) -> Option<Seat> {
        match self {
            Phase::AwaitingAccept(s)
            | Phase::AwaitingCommit(s)
            | Phase::AwaitingNonce(s)
            | Phase::AwaitingReveal(s)
            | Phase::Choosing(s)
            | Phase::Playing(s) => Some(*s),
            Phase::Over(_) => None,
        }
    }

    /// In words, naming the players.
    #[must_use]
    pub fn describe<S: fmt::Display>(&self, seats: &[Player<S>; 2]) -> String {
        let who = |s: &Seat| seats[*s].to_string();
        match self {
            Phase::AwaitingAccept(s) => format!("waiting for {} to accept the game", who(s)),
            Phase::AwaitingCommit(s) => {
                format!("waiting for {} to commit to the coin flip", who(s))
            }
            Phase::AwaitingNonce(s) => format!("waiting for {} to answer the coin flip", who(s)),
            Phase::AwaitingReveal(s) => format!("waiting for {} to reveal the coin flip", who(s)),
            Phase::Choosing(s) => format!("{} won the toss: to move first or defer", who(s)),
            Phase::Playing(s) => format!("{} to move", who(s)),
            Phase::Over(v) => format!("game over: {}", v.describe(seats)),
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The winner's seat; `None` for a draw.
    pub winner: Option<Seat>,
    /// Why.
    pub ending: Ending,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// This seat resigned.
    Resigned(Seat),
    /// The rules ended it, by a move, an agreement or a claim.
    Rules(Reason),
    /// This seat was past its deadline, and the other player claimed the game on time.
    Timeout(Seat),
    /// The arbiter decided it, for this reason.
    Adjudicated(AdjudicationReason),
    /// A Run-Off's coin flip decided it, after an outcome that called for one.
    RunOff {
        /// That outcome.
        outcome: Reason,
        /// What the coin showed.
        coin: Coin,
    },
}

/// Why the rules ended a game: a stable code (`checkmate`, `run-off-stalemate`), and the
/// game's words for it (`checkmate`, `run-off: stalemate`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    /// The code, in kebab case; it never changes with the wording.
    pub code: &'static str,
    /// In words.
    pub words: String,
}

impl Verdict {
    /// Why, in words: `fact-check`, `alice (tails) resigned`, ...
    #[must_use]
    pub fn reason<S: fmt::Display>(&self, seats: &[Player<S>; 2]) -> String {
        match &self.ending {
            Ending::Resigned(seat) => format!("{} resigned", seats[*seat]),
            Ending::Rules(reason) => reason.words.clone(),
            Ending::Timeout(late) if self.winner.is_some() => {
                format!("{} ran out of time", seats[*late])
            }
            Ending::Timeout(late) => format!(
                "{} ran out of time, and {} could not have won",
                seats[*late],
                seats[late.other()]
            ),
            Ending::RunOff { outcome, coin } => {
                format!("{} (the coin showed {coin})", outcome.words)
            }
            Ending::Adjudicated(reason) => {
                format!("adjudicated by the arbiter ({})", reason.words())
            }
        }
    }

    /// How it ended, as stable codes for programs: the kind of ending (`resignation`, `rules`,
    /// `timeout`, `run-off`, `adjudication`) and, where it has one, its code (the outcome's,
    /// as `checkmate` or `fact-check`, or the arbiter's reason).
    #[must_use]
    pub fn codes(&self) -> (&'static str, Option<&'static str>) {
        match &self.ending {
            Ending::Resigned(_) => ("resignation", None),
            Ending::Rules(reason) => ("rules", Some(reason.code)),
            Ending::Timeout(_) => ("timeout", None),
            Ending::RunOff { outcome, .. } => ("run-off", Some(outcome.code)),
            Ending::Adjudicated(reason) => ("adjudication", Some(reason.name())),
        }
    }

    /// In words: `heads wins: fact-check` (or the winner's name while sides are undecided).
    #[must_use]
    pub fn describe<S: fmt::Display>(&self, seats: &[Player<S>; 2]) -> String {
        let reason = self.reason(seats);
        match self.winner.map(|w| &seats[w]) {
            Some(Player {
                side: Some(side), ..
            }) => format!("{side} wins: {reason}"),
            Some(Player {
                name, side: None, ..
            }) => format!("{name} wins: {reason}"),
            None => format!("draw: {reason}"),
        }
    }
}

/// A standing offer to settle the game: who made it, and what it settles by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    /// The seat that offered.
    pub by: Seat,
    /// A Run-Off or a draw, as the game settles.
    pub settlement: Settlement,
}

/// Something that happened in a record, for reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The header: the game is proposed.
    Created,
    /// The opponent accepted.
    Accepted,
    /// A commitment to a coin flip.
    Committed,
    /// The answer to a commitment.
    Answered,
    /// A coin flip settled: what it showed and what that decides.
    Coin(Coin, String),
    /// The toss winner let the other move first.
    Deferred(String),
    /// A move, in canonical notation, with what it did.
    Moved(String, Vec<String>),
    /// The move gives check.
    Check,
    /// The game ended in an outcome that a coin flip settles.
    CoinFlipDue(String),
    /// A settlement was offered.
    Offered(Settlement),
    /// The standing offer lapsed: the other player did something else.
    OfferLapsed,
    /// The offer was accepted.
    OfferAccepted(Settlement),
    /// A settlement was claimed.
    Claimed(Settlement),
    /// The signer resigned.
    Resigned,
    /// The signer claimed the game on time: this player is past their deadline.
    ClaimedOnTime(String),
    /// What a claim on time gave, when the game goes on: the toss.
    Forfeit(String),
    /// The signer takes this many days of leave.
    Leave(u32),
    /// The arbiter adjudicated the game, for this reason.
    Adjudicated(AdjudicationReason),
    /// The signer promises conditional replies, in this many lines.
    Promised(usize),
    /// The signer withdraws their conditional lines.
    Withdrawn,
    /// The move matches this player's conditional line: this reply, in the file's notation,
    /// is due.
    ReplyDue(String, String),
    /// The move is this player's conditional reply: their seat and name.
    Replied(Seat, String),
    /// This player's conditional lines are void, for this reason.
    LinesVoid(String, String),
    /// The signer commits to hidden conditional lines.
    HiddenPromised,
    /// The move is answered first by this player's hidden lines: a reveal or a disclosure.
    AnswerOwed(String),
    /// The signer disclosed their hidden lines: none answers the move just played.
    Disclosed,
    /// The game ended.
    Over(String),
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Created => f.write_str("game proposed"),
            Event::Accepted => f.write_str("accepted"),
            Event::Committed => f.write_str("committed to a coin flip"),
            Event::Answered => f.write_str("answered the coin flip"),
            Event::Coin(coin, meaning) => write!(f, "the coin shows {coin}: {meaning}"),
            Event::Deferred(first) => write!(f, "deferred: {first} moves first"),
            Event::Moved(mv, notes) if notes.is_empty() => write!(f, "{mv}"),
            Event::Moved(mv, notes) => write!(f, "{mv} ({})", notes.join(", ")),
            Event::Check => f.write_str("check"),
            Event::CoinFlipDue(outcome) => write!(f, "{outcome}, decided by a coin flip"),
            Event::Offered(what) => write!(f, "offers a {}", what.words()),
            Event::OfferLapsed => f.write_str("the offer lapses"),
            Event::OfferAccepted(what) => write!(f, "accepts the {}", what.words()),
            Event::Claimed(what) => write!(f, "claims the {}", what.words()),
            Event::Resigned => f.write_str("resigns"),
            Event::ClaimedOnTime(late) => write!(f, "claims on time: {late} is past the deadline"),
            Event::Forfeit(meaning) => write!(f, "by forfeit, {meaning}"),
            Event::Leave(1) => f.write_str("takes a day of leave"),
            Event::Leave(days) => write!(f, "takes {days} days of leave"),
            Event::Adjudicated(reason) => write!(f, "adjudicates: {}", reason.words()),
            Event::Promised(1) => f.write_str("promises a conditional line"),
            Event::Promised(n) => write!(f, "promises {n} conditional lines"),
            Event::Withdrawn => f.write_str("withdraws the conditional lines"),
            Event::ReplyDue(author, reply) => {
                write!(f, "{author}'s conditional reply {reply} is due")
            }
            Event::Replied(_, author) => write!(f, "{author}'s conditional reply"),
            Event::LinesVoid(author, why) => {
                write!(f, "{author}'s conditional lines are void: {why}")
            }
            Event::HiddenPromised => f.write_str("commits to hidden conditional lines"),
            Event::AnswerOwed(author) => {
                write!(f, "{author}'s hidden conditional lines answer it first")
            }
            Event::Disclosed => f.write_str(
                "discloses the hidden conditional lines: none answers the move just played",
            ),
            Event::Over(verdict) => write!(f, "game over: {verdict}"),
        }
    }
}

/// The state hash of a step: SHA-256 over a canonical encoding of the position, the phase and
/// the standing offer, so that two replays can be compared step by step. The encoding (see
/// docs/file-format.md) is the domain label `correspond/state/v2`, then NUL-separated fields:
/// the position string; the phase as a word and the seat index (`accept 1`, `commit 0`,
/// `nonce 1`, `reveal 0`, `choose 0`, `play 1`); for a game over, `over`, the winner's seat
/// index or `draw`, and the ending (`resigned 0`, `rules CODE`, `run-off CODE COIN`, with CODE
/// the outcome's [`Reason::code`], `timeout 0`, `adjudicated CODE` with CODE the reason's
/// name); and the offer (`offer 0 draw`) or nothing.
#[must_use]
pub fn state_hash(position: &str, phase: &Phase, offer: Option<Offer>) -> Digest {
    state_hash_with(position, phase, offer, None)
}

/// [`state_hash`], with the conditional lines that stand: where some do, one more field, the
/// author's seat, the reply due (or `-`) and, if any is left, the lines, each its moves
/// separated by spaces, separated by `|` (`conditional 0 - c7c5 g1f3|e7e5 g1f3`,
/// `conditional 0 g1f3`); for hidden lines, `hidden`, the author's seat, the commitment, the
/// binding, `owed` or `-`, and the moves played since, each after a space. Where none do, the
/// hash is
/// [`state_hash`]'s, so a game without conditionals hashes as before they existed.
#[must_use]
pub fn state_hash_with(
    position: &str,
    phase: &Phase,
    offer: Option<Offer>,
    conditional: Option<&super::StandingLines>,
) -> Digest {
    let phase = match phase {
        Phase::AwaitingAccept(s) => format!("accept {}", s.index()),
        Phase::AwaitingCommit(s) => format!("commit {}", s.index()),
        Phase::AwaitingNonce(s) => format!("nonce {}", s.index()),
        Phase::AwaitingReveal(s) => format!("reveal {}", s.index()),
        Phase::Choosing(s) => format!("choose {}", s.index()),
        Phase::Playing(s) => format!("play {}", s.index()),
        Phase::Over(verdict) => {
            let winner = verdict
                .winner
                .map_or_else(|| "draw".to_owned(), |w| w.index().to_string());
            let ending = match &verdict.ending {
                Ending::Resigned(s) => format!("resigned {}", s.index()),
                Ending::Rules(reason) => format!("rules {}", reason.code),
                Ending::Timeout(s) => format!("timeout {}", s.index()),
                Ending::RunOff { outcome, coin } => format!("run-off {} {coin}", outcome.code),
                Ending::Adjudicated(reason) => format!("adjudicated {}", reason.name()),
            };
            format!("over {winner} {ending}")
        }
    };
    let offer = offer.map_or_else(String::new, |o| {
        format!("offer {} {}", o.by.index(), o.settlement.name())
    });
    let conditional = conditional.map(|c| {
        if let Some(h) = &c.hidden {
            return format!(
                "hidden {} {} {} {}{}",
                c.author.index(),
                h.commitment,
                h.binding,
                if h.owed { "owed" } else { "-" },
                h.played.iter().map(|m| format!(" {m}")).collect::<String>()
            );
        }
        let mut field = format!(
            "conditional {} {}",
            c.author.index(),
            c.due.as_deref().unwrap_or("-")
        );
        let lines: Vec<String> = c.lines.iter().map(|line| line.join(" ")).collect();
        if !lines.is_empty() {
            field.push(' ');
            field.push_str(&lines.join("|"));
        }
        field
    });
    let mut parts: Vec<&[u8]> = vec![
        b"correspond/state/v2\0",
        position.as_bytes(),
        b"\0",
        phase.as_bytes(),
        b"\0",
        offer.as_bytes(),
    ];
    if let Some(conditional) = &conditional {
        parts.extend([&b"\0"[..], conditional.as_bytes()]);
    }
    Digest::of_parts(&parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_hash_is_of_the_canonical_encoding_and_tells_states_apart() {
        let position = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let expected =
            Digest::of(format!("correspond/state/v2\0{position}\0play 0\0offer 1 draw").as_bytes());
        let offer = Offer {
            by: Seat::Opponent,
            settlement: Settlement::Draw,
        };
        let hash = state_hash(position, &Phase::Playing(Seat::Creator), Some(offer));
        assert_eq!(hash, expected);
        let others = [
            state_hash(position, &Phase::Playing(Seat::Opponent), Some(offer)),
            state_hash(position, &Phase::Playing(Seat::Creator), None),
            state_hash(position, &Phase::Choosing(Seat::Creator), Some(offer)),
        ];
        assert!(others.iter().all(|other| *other != hash));
        // Standing conditional lines are one more field, only where they stand.
        let play = Phase::Playing(Seat::Opponent);
        let lines = crate::replay::StandingLines {
            author: Seat::Creator,
            lines: vec![
                vec!["c7c5".to_owned(), "g1f3".to_owned()],
                vec!["e7e5".to_owned(), "g1f3".to_owned()],
            ],
            due: None,
            hidden: None,
        };
        assert_eq!(
            state_hash_with(position, &play, None, Some(&lines)),
            Digest::of(
                format!(
                    "correspond/state/v2\0{position}\0play 1\0\0conditional 0 - c7c5 g1f3|e7e5 g1f3"
                )
                .as_bytes()
            )
        );
        assert_eq!(
            state_hash_with(position, &play, None, None),
            state_hash(position, &play, None)
        );
        let due = crate::replay::StandingLines {
            due: Some("g1f3".to_owned()),
            lines: Vec::new(),
            ..lines.clone()
        };
        assert_eq!(
            state_hash_with(position, &play, None, Some(&due)),
            Digest::of(
                format!("correspond/state/v2\0{position}\0play 1\0\0conditional 0 g1f3").as_bytes()
            )
        );
        let root = Digest::of(b"root");
        let binding = Digest::of(b"binding");
        let hidden = crate::replay::StandingLines {
            lines: Vec::new(),
            hidden: Some(crate::replay::HiddenLines {
                commitment: root,
                binding,
                played: vec!["e7e5".to_owned()],
                owed: true,
            }),
            ..lines.clone()
        };
        assert_eq!(
            state_hash_with(position, &play, None, Some(&hidden)),
            Digest::of(
                format!(
                    "correspond/state/v2\0{position}\0play 1\0\0hidden 0 {root} {binding} owed e7e5"
                )
                .as_bytes()
            )
        );
        let resigned = |by: Seat| {
            let verdict = Verdict {
                winner: Some(by.other()),
                ending: Ending::Resigned(by),
            };
            state_hash(position, &Phase::Over(verdict), None)
        };
        assert_ne!(resigned(Seat::Creator), resigned(Seat::Opponent));
        // The code is hashed, not the words: rewording an outcome changes no hash.
        let ended = |code: &'static str, words: &str| {
            let verdict = Verdict {
                winner: None,
                ending: Ending::Rules(Reason {
                    code,
                    words: words.to_owned(),
                }),
            };
            state_hash(position, &Phase::Over(verdict), None)
        };
        assert_eq!(
            ended("stalemate", "stalemate"),
            ended("stalemate", "no move")
        );
        assert_ne!(
            ended("stalemate", "stalemate"),
            ended("agreement", "stalemate")
        );
    }

    #[test]
    fn a_seat_indexes_a_pair_and_has_one_other() {
        let mut pair = ["alice", "bob"];
        assert_eq!(pair[Seat::Creator], "alice");
        assert_eq!(pair[Seat::Creator.other()], "bob");
        pair[Seat::Opponent] = "carol";
        assert_eq!(pair, ["alice", "carol"]);
        assert_eq!(Seat::BOTH.map(Seat::index), [0, 1]);
        assert_eq!(Seat::at(1), Some(Seat::Opponent));
        assert_eq!(Seat::at(2), None);
    }
}
