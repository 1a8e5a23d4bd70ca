//! The replayer: a game file's bytes in; every state, every event and the verdict out, or the
//! first defect, naming its record and line.
//!
//! Replaying is a pure function: it reads no clock, environment or file, so two replays of the
//! same bytes agree everywhere. For each record, in order, it checks the signature (by the
//! player the record names, over the record's exact bytes), the chain (number and `prev`), and
//! only then what the record does: whose turn it is, whether the move is legal, whether the coin
//! flip protocol is followed, and whether the game is already over.

mod check;
mod clock;
mod phase;
mod protocol;
mod refusal;
mod state;
mod summary;

pub use clock::Clocks;
pub use phase::{Ending, Event, Offer, Phase, Reason, Seat, Signatory, Verdict, state_hash};
pub use protocol::{Protocol, Switch, no_option};
pub use refusal::ProtocolError;
pub use summary::Summary;

use crate::digest::Digest;
use crate::log::{self, GameFile, LogError, LogErrorKind, Timestamp};
use crate::rules::Line;
use crate::sign;
use check::{Ahead, Keys};
use state::State;
pub use state::{HiddenLines, StandingLines, check_conditional, shown_line, shown_move};

/// One replayed document: who signed it, what it did, and the state after it.
#[derive(Clone, Debug)]
pub struct Step<G: Protocol> {
    /// The document: 0 for the header, then the records.
    pub document: usize,
    /// Its 1-based line in the file.
    pub line: usize,
    /// Who signed it: a player, by seat, or the arbiter.
    pub signer: Signatory,
    /// What happened, in order.
    pub events: Vec<Event>,
    /// The position after it (the start position until the game begins).
    pub position: G,
    /// What the game waits for after it.
    pub phase: Phase,
    /// The offer that stands after it, if any.
    pub offer: Option<Offer>,
    /// The conditional lines that stand after it, if any.
    pub conditional: Option<StandingLines>,
}

impl<G: Protocol> Step<G> {
    /// The seat whose conditional reply this document played (an `applied` record), whoever
    /// appended it.
    #[must_use]
    pub fn reply_of(&self) -> Option<Seat> {
        self.events.iter().find_map(|e| match e {
            Event::Replied(seat, _) => Some(*seat),
            _ => None,
        })
    }

    /// A digest of the position, phase and offer, to compare two replays step by step (see
    /// [`state_hash`]). Made when asked for: a replay has thousands of steps, and only a few
    /// reports compare them.
    #[must_use]
    pub fn state_hash(&self) -> Digest {
        phase::state_hash_with(
            &self.position.to_string(),
            &self.phase,
            self.offer,
            self.conditional.as_ref(),
        )
    }
}

/// A player as the replay knows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player<S> {
    /// The name records use.
    pub name: String,
    /// The side they play; `None` until a coin flip decides the sides.
    pub side: Option<S>,
    /// Their key's SHA-256 fingerprint: who they are, where a name is only what they call
    /// themselves.
    pub fingerprint: String,
}

impl<S: std::fmt::Display> std::fmt::Display for Player<S> {
    /// `alice (heads)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.side {
            Some(side) => write!(f, "{} ({side})", self.name),
            None => f.write_str(&self.name),
        }
    }
}

/// A whole replayed game.
#[derive(Clone, Debug)]
pub struct Replay<G: Protocol> {
    /// The SHA-256 digest of the header.
    pub game_id: Digest,
    /// The creator, then the opponent.
    pub seats: [Player<G::Side>; 2],
    /// The variant options.
    pub options: G::Options,
    /// The header, then every record.
    pub steps: Vec<Step<G>>,
    /// The moves played and the positions they led to.
    pub line: Option<Line<G>>,
    /// The clocks after the last record, when the header sets a time control.
    pub clocks: Option<Clocks>,
    /// The arbiter the header names, if any (with no side).
    pub arbiter: Option<Player<G::Side>>,
}

impl<G: Protocol> Replay<G> {
    /// Who signed, in words: `alice (heads)`, or `the arbiter carol`.
    #[must_use]
    pub fn signed_by(&self, signer: Signatory) -> String {
        signer.describe(&self.seats, self.arbiter.as_ref())
    }

    /// The state after the last record.
    #[must_use]
    pub fn last(&self) -> &Step<G> {
        self.steps
            .last()
            .expect("a replay holds at least the header")
    }

    /// The verdict, once the game is over.
    #[must_use]
    pub fn verdict(&self) -> Option<&Verdict> {
        match &self.last().phase {
            Phase::Over(v) => Some(v),
            _ => None,
        }
    }

    /// Who plays whom: `alice (heads) v bob (tails)`.
    #[must_use]
    pub fn matchup(&self) -> String {
        format!("{} v {}", self.seats[0], self.seats[1])
    }
}

/// The first defect of a game file: where, and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {kind}", log::place(*document, *line))]
pub struct ReplayError {
    /// The document at fault (0: the header), if the fault lies in one.
    pub document: Option<usize>,
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub kind: ErrorKind,
}

/// The kinds of defect, one per way a file can be wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file is not a well-formed game file.
    #[error("unreadable: {0}")]
    Unparseable(LogErrorKind),
    /// The header names a game this program does not know.
    #[error("unknown game `{0}` (this program plays {1})")]
    UnknownGame(String, String),
    /// The header's terms are not valid for its game.
    #[error("invalid header: {0}")]
    Header(String),
    /// The signature is not a valid signature of these bytes by the named player.
    #[error("bad signature: {0}")]
    BadSignature(String),
    /// Signed with one player's key, but naming the other as signer.
    #[error("signed by {actual}'s key, but names {named} as its signer")]
    WrongSigner {
        /// The name in the record.
        named: String,
        /// The player whose key made the signature.
        actual: String,
    },
    /// The signer is not a player of this game.
    #[error("`{0}` is not a player of this game")]
    UnknownSigner(String),
    /// A record number is missing.
    #[error(
        "broken chain: expected record number {expected}, found {found} (a record is missing, or \
         records are out of order)"
    )]
    Gap {
        /// The number that should come next.
        expected: u64,
        /// The number found.
        found: u64,
    },
    /// A record number comes again, or out of order.
    #[error(
        "broken chain: expected record number {expected}, found {found} again (records are \
         repeated or out of order)"
    )]
    Repeated {
        /// The number that should come next.
        expected: u64,
        /// The number found.
        found: u64,
    },
    /// The `prev` digest does not match the previous document.
    #[error(
        "broken chain: `prev` is {found}, but the previous document's digest is {expected} (a \
         record was changed, removed, or comes from another game)"
    )]
    BrokenChain {
        /// The previous document's digest.
        expected: Digest,
        /// What the record holds.
        found: Digest,
    },
    /// A record dated before the document it follows.
    #[error(
        "dated {}, before the document it follows ({}): the times of a game file never go \
         backwards",
        found.as_str(),
        before.as_str()
    )]
    TimeBackwards {
        /// The time of the document before.
        before: Timestamp,
        /// The record's time.
        found: Timestamp,
    },
    /// The signer may not act now.
    #[error("not {signer}'s turn: {expected}")]
    NotYourTurn {
        /// Who signed.
        signer: String,
        /// What the game waits for.
        expected: String,
    },
    /// A move the rules forbid.
    #[error("illegal move {mv}: {reason}")]
    Illegal {
        /// The move as written.
        mv: String,
        /// The rule it breaks.
        reason: String,
    },
    /// A record that breaks the protocol: the order of accepting, flipping and playing.
    #[error("{0}")]
    Protocol(ProtocolError),
    /// A record after the game ended.
    #[error("the game was already over ({0}); nothing may follow")]
    AfterEnd(String),
}

impl From<LogError> for ReplayError {
    fn from(e: LogError) -> Self {
        ReplayError {
            document: e.document,
            line: e.line,
            kind: ErrorKind::Unparseable(e.kind),
        }
    }
}

/// Replays a parsed game file as game `G` (the header must name it).
///
/// # Errors
/// The first defect, naming its document and line.
pub fn replay<G: Protocol>(file: &GameFile) -> Result<Replay<G>, ReplayError> {
    Ok(Replayer::start(file)?.advance(file)?.finish())
}

/// A replay carried forward as its file grows. [`Replayer::advance`] checks only the records it
/// has not seen yet, so following a history of appends (`correspond audit`) costs each record
/// once, not the whole game again for every version.
#[derive(Clone)]
pub struct Replayer<G: Protocol> {
    keys: Keys,
    options: G::Options,
    state: State<G>,
    steps: Vec<Step<G>>,
    arbiter: Option<Player<G::Side>>,
}

impl<G: Protocol> Replayer<G> {
    /// Checks the header: the game, its signature, the options and the players.
    ///
    /// # Errors
    /// What is wrong with the header.
    pub fn start(file: &GameFile) -> Result<Self, ReplayError> {
        let header = file.header();
        let at_header = |kind| ReplayError {
            document: Some(0),
            line: file.line(0),
            kind,
        };
        if header.game != G::NAME {
            return Err(at_header(ErrorKind::Header(format!(
                "it is a game of {}, not {}",
                header.game,
                G::NAME
            ))));
        }
        let keys = Keys::of(file);
        keys.check_signature(file, 0, Signatory::Player(Seat::Creator))?;
        let options =
            G::options_from(&header.options).map_err(|e| at_header(ErrorKind::Header(e)))?;
        let named = seats::<G>(file).map_err(|e| at_header(ErrorKind::Header(e)))?;
        crate::log::check_game_tags(header, G::PGN).map_err(|e| at_header(ErrorKind::Header(e)))?;
        let state = State::<G>::new(file, named, options.clone())
            .map_err(|e| at_header(ErrorKind::Header(e)))?;
        let creator = Signatory::Player(Seat::Creator);
        let steps = vec![state.step(0, file.line(0), creator, vec![Event::Created])];
        let arbiter = header.arbiter.as_ref().map(|a| Player {
            name: a.name.clone(),
            side: None,
            fingerprint: sign::fingerprint(&a.key),
        });
        Ok(Replayer {
            keys,
            options,
            state,
            steps,
            arbiter,
        })
    }

    /// Replays the records of `file` after those already replayed. `file` must be the file this
    /// replayer has followed so far, grown by appends (see [`GameFile::extend`]).
    ///
    /// # Errors
    /// The first defect among the new records; the replayer is consumed, since a record that
    /// fails may have been half applied.
    pub fn advance(self, file: &GameFile) -> Result<Self, ReplayError> {
        self.advance_with(file, 1)
    }

    /// [`Replayer::advance`] with up to `threads` threads: the others check signatures and the
    /// chain ahead of the replay (see `src/replay/check.rs`). The result is the same for any
    /// number of threads.
    ///
    /// # Errors
    /// The first defect among the new records.
    pub fn advance_with(self, file: &GameFile, threads: usize) -> Result<Self, ReplayError> {
        self.advance_vouched(file, threads, 0)
    }

    /// [`Replayer::advance_with`], the signatures of the documents before document `vouched`
    /// left unchecked; everything else about them is checked (their signers' names, numbers,
    /// `prev` digests and meaning), and so is every signature from document `vouched` on.
    ///
    /// Sound only when document `vouched` was signed by a program that checked every document
    /// before it first: its `prev` digest binds them all, byte for byte, so they are the
    /// documents that were checked then. The caller answers for that; the writer does it for
    /// a document its user's signing journal holds (see [`crate::writer::Writer::of_vouched`]).
    ///
    /// # Errors
    /// The first defect among the new records.
    pub fn advance_vouched(
        mut self,
        file: &GameFile,
        threads: usize,
        vouched: usize,
    ) -> Result<Self, ReplayError> {
        let ahead = Ahead::new(&self.keys, file, self.steps.len(), vouched);
        let helpers = ahead.helpers(threads);
        let colour = crate::parallel::stack_colour();
        std::thread::scope(|scope| {
            for _ in 0..helpers {
                scope.spawn(|| crate::parallel::coloured(colour, || ahead.help()));
            }
            let replayed: Result<(), ReplayError> = (self.steps.len()..file.documents())
                .try_for_each(|document| {
                    let signer = ahead.verdict(document)?;
                    let record = &file.records()[document - 1];
                    let line = file.line(document);
                    let events = self
                        .state
                        .apply(file, signer, &record.action, document)
                        .map_err(|kind| ReplayError {
                            document: Some(document),
                            line,
                            kind,
                        })?;
                    self.steps
                        .push(self.state.step(document, line, signer, events));
                    Ok(())
                });
            ahead.finish();
            replayed
        })?;
        Ok(self)
    }

    /// Checks the signatures of documents `documents` of `file`, the file replayed: those that
    /// [`Replayer::advance_vouched`] left unchecked, when their voucher's word is not enough.
    ///
    /// # Errors
    /// The first signature that is not its signer's.
    pub fn check_signatures(
        &self,
        file: &GameFile,
        documents: std::ops::Range<usize>,
    ) -> Result<(), ReplayError> {
        documents
            .filter(|&document| document >= 1)
            .try_for_each(|document| {
                self.keys
                    .check_signature(file, document, self.steps[document].signer)
            })
    }

    /// How many documents have been replayed, the header included.
    #[must_use]
    pub fn documents(&self) -> usize {
        self.steps.len()
    }

    /// The state after the last document replayed.
    #[must_use]
    pub fn last(&self) -> &Step<G> {
        self.steps
            .last()
            .expect("a replayer holds at least the header")
    }

    /// The players, with the sides a coin flip may have assigned (as [`Replay::seats`]).
    #[must_use]
    pub fn seats(&self) -> &[Player<G::Side>; 2] {
        self.state.seats()
    }

    /// The variant options.
    #[must_use]
    pub fn options(&self) -> &G::Options {
        &self.options
    }

    /// The clocks, when the header sets a time control (as [`Replay::clocks`]).
    #[must_use]
    pub fn clocks(&self) -> Option<&Clocks> {
        self.state.clocks()
    }

    /// The moves played and the positions they led to (as [`Replay::line`]).
    #[must_use]
    pub fn line(&self) -> Option<&Line<G>> {
        self.state.line()
    }

    /// The whole replay so far.
    #[must_use]
    pub fn finish(self) -> Replay<G> {
        let game_id = self.state.game_id();
        let state::Parts {
            seats,
            line,
            clocks,
        } = self.state.into_parts();
        Replay {
            game_id,
            seats,
            options: self.options,
            steps: self.steps,
            line,
            clocks,
            arbiter: self.arbiter,
        }
    }
}

/// The seat of the header's player who goes by `name`, if one does.
#[must_use]
pub fn seat_named(file: &GameFile, name: &str) -> Option<Seat> {
    let players = &file.header().players;
    players
        .iter()
        .position(|p| p.name == name)
        .and_then(Seat::at)
}

/// Who goes by `name` in the header: a player, or the arbiter.
#[must_use]
pub fn signatory_named(file: &GameFile, name: &str) -> Option<Signatory> {
    seat_named(file, name).map(Signatory::Player).or_else(|| {
        let arbiter = file.header().arbiter.as_ref()?;
        (arbiter.name == name).then_some(Signatory::Arbiter)
    })
}

/// Whose key this is in the header: a player's, or the arbiter's.
#[must_use]
pub fn signatory_of_key(file: &GameFile, key: &ssh_key::PublicKey) -> Option<Signatory> {
    seat_of_key(file, key).map(Signatory::Player).or_else(|| {
        let arbiter = file.header().arbiter.as_ref()?;
        (arbiter.key.key_data() == key.key_data()).then_some(Signatory::Arbiter)
    })
}

/// The seat of the header's player whose key this is, if one's is.
#[must_use]
pub fn seat_of_key(file: &GameFile, key: &ssh_key::PublicKey) -> Option<Seat> {
    let players = &file.header().players;
    players
        .iter()
        .position(|p| p.key.key_data() == key.key_data())
        .and_then(Seat::at)
}

/// Checks what makes record `document` (1 or more) part of its file, before its meaning: that it
/// names a player of the game (or its arbiter), is signed by that one's key over its exact bytes,
/// and has the right number and the digest of the document before it. Returns who signed it.
///
/// # Errors
/// The first of those that fails.
///
/// # Panics
/// If the file has no document `document`, or it is the header.
pub fn check_record(file: &GameFile, document: usize) -> Result<Signatory, ReplayError> {
    Keys::of(file).check_record(file, document)
}

/// The players' seats: both sides fixed and different, or (where the game allows it) both left
/// to the opening coin flip.
fn seats<G: Protocol>(file: &GameFile) -> Result<[Player<G::Side>; 2], String> {
    let players = &file.header().players;
    let names: Vec<String> = G::SIDES.iter().map(ToString::to_string).collect();
    let toss = players.iter().filter(|p| p.side == TOSS).count();
    match toss {
        2 if G::TOSS_FOR_FIRST_MOVE => {
            return Err(format!(
                "in {} the players choose their sides ({}); a coin flip decides who moves first",
                G::NAME,
                names.join(" or ")
            ));
        }
        2 => {
            return Ok(players.clone().map(|p| Player {
                fingerprint: sign::fingerprint(&p.key),
                name: p.name,
                side: None,
            }));
        }
        1 => return Err("either both sides are left to the coin flip, or neither".into()),
        _ => {}
    }
    let side = |p: &log::Player| {
        G::side_named(&p.side).ok_or_else(|| {
            format!(
                "{} has side `{}`; in {} each player takes a side: {}{}",
                p.name,
                crate::text::shown(&p.side),
                G::NAME,
                names.join(" or "),
                if G::TOSS_FOR_FIRST_MOVE {
                    ""
                } else {
                    ", or both `toss`"
                }
            )
        })
    };
    let seats = [
        Player {
            name: players[0].name.clone(),
            side: Some(side(&players[0])?),
            fingerprint: sign::fingerprint(&players[0].key),
        },
        Player {
            name: players[1].name.clone(),
            side: Some(side(&players[1])?),
            fingerprint: sign::fingerprint(&players[1].key),
        },
    ];
    if seats[0].side == seats[1].side {
        return Err(format!(
            "both players have the same side, {}",
            players[0].side
        ));
    }
    Ok(seats)
}

/// The `side` of both players when a coin flip is to decide the sides.
pub const TOSS: &str = "toss";

#[cfg(test)]
mod tests;
