//! The state machine of a game file: accepting, the coin flips, play, offers, claims and the
//! end. [`State::apply`] takes one record whose signature and chain are already checked.

use super::{ErrorKind, Protocol, Seat, Step};
use crate::digest::Digest;
use crate::flip::{self, Coin};
use crate::log::{Action, GameFile, Settlement};
use crate::rules::{Decision, Line, MoveError};
use std::fmt;

/// What the game waits for. Seats are indices: 0 is the creator, 1 the opponent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The opponent must accept the header's terms.
    AwaitingAccept(usize),
    /// This player must commit to a coin flip (a Run-Off is due).
    AwaitingCommit(usize),
    /// This player must answer a commitment with a nonce.
    AwaitingNonce(usize),
    /// This player owes the reveal of a coin flip.
    AwaitingReveal(usize),
    /// This player won the toss and moves first or defers.
    Choosing(usize),
    /// This player is to move.
    Playing(usize),
    /// The game is over.
    Over(Verdict),
}

impl Phase {
    /// The seat the game awaits: whose turn it is to sign the next record (`None` once over).
    #[must_use]
    pub fn awaited(&self) -> Option<usize> {
        match self {
            Phase::AwaitingAccept(i)
            | Phase::AwaitingCommit(i)
            | Phase::AwaitingNonce(i)
            | Phase::AwaitingReveal(i)
            | Phase::Choosing(i)
            | Phase::Playing(i) => Some(*i),
            Phase::Over(_) => None,
        }
    }

    /// In words, naming the players.
    #[must_use]
    pub fn describe<S: fmt::Display>(&self, seats: &[Seat<S>; 2]) -> String {
        let who = |i: &usize| seats[*i].to_string();
        match self {
            Phase::AwaitingAccept(i) => format!("waiting for {} to accept the game", who(i)),
            Phase::AwaitingCommit(i) => {
                format!("waiting for {} to commit to the coin flip", who(i))
            }
            Phase::AwaitingNonce(i) => format!("waiting for {} to answer the coin flip", who(i)),
            Phase::AwaitingReveal(i) => format!("waiting for {} to reveal the coin flip", who(i)),
            Phase::Choosing(i) => format!("{} won the toss: to move first or defer", who(i)),
            Phase::Playing(i) => format!("{} to move", who(i)),
            Phase::Over(v) => format!("game over: {}", v.describe(seats)),
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The winner's seat (0: the creator); `None` for a draw.
    pub winner: Option<usize>,
    /// Why, in words: `fact-check`, `alice (tails) resigned`, ...
    pub reason: String,
}

impl Verdict {
    /// In words: `heads wins: fact-check` (or the winner's name while sides are undecided).
    #[must_use]
    pub fn describe<S: fmt::Display>(&self, seats: &[Seat<S>; 2]) -> String {
        match self.winner.map(|w| &seats[w]) {
            Some(Seat {
                side: Some(side), ..
            }) => format!("{side} wins: {}", self.reason),
            Some(Seat {
                name, side: None, ..
            }) => format!("{name} wins: {}", self.reason),
            None => format!("draw: {}", self.reason),
        }
    }
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
    /// A settlement (`runoff`, `draw`) was offered.
    Offered(&'static str),
    /// The standing offer lapsed: the other player did something else.
    OfferLapsed,
    /// The offer was accepted.
    OfferAccepted(&'static str),
    /// A settlement (`runoff`, `draw`) was claimed.
    Claimed(&'static str),
    /// The signer resigned.
    Resigned,
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
            Event::Offered(what) => write!(f, "offers a {}", settlement_words(what)),
            Event::OfferLapsed => f.write_str("the offer lapses"),
            Event::OfferAccepted(what) => write!(f, "accepts the {}", settlement_words(what)),
            Event::Claimed(what) => write!(f, "claims the {}", settlement_words(what)),
            Event::Resigned => f.write_str("resigns"),
            Event::Over(verdict) => write!(f, "game over: {verdict}"),
        }
    }
}

fn settlement_words(name: &str) -> &str {
    if name == "runoff" { "run-off" } else { name }
}

/// What a coin flip under way will decide.
#[derive(Clone, Debug)]
enum Purpose<O> {
    /// Who moves first (Campaign).
    FirstMove,
    /// Who plays which side: heads gives the creator the first of the game's sides.
    Sides,
    /// Who wins, after this game outcome.
    RunOff(O),
}

#[derive(Clone, Debug)]
struct Flip<O> {
    /// The document that carries the commitment.
    document: usize,
    commitment: Digest,
    binding: Digest,
    committer: usize,
    response: Option<Digest>,
    purpose: Purpose<O>,
}

pub(super) struct State<G: Protocol> {
    game_id: Digest,
    seats: [Seat<G::Side>; 2],
    options: G::Options,
    phase: Phase,
    flip: Option<Flip<G::Outcome>>,
    /// The outcome whose Run-Off awaits its commitment.
    due: Option<G::Outcome>,
    line: Option<Line<G>>,
    offer: Option<usize>,
}

type Applied = Result<Vec<super::Event>, ErrorKind>;

impl<G: Protocol> State<G> {
    pub(super) fn new(
        file: &GameFile,
        seats: [Seat<G::Side>; 2],
        options: G::Options,
    ) -> Result<Self, String> {
        let header = file.header();
        let sides_by_toss = seats[0].side.is_none();
        let purpose = if G::TOSS_FOR_FIRST_MOVE {
            Some(Purpose::FirstMove)
        } else if sides_by_toss {
            Some(Purpose::Sides)
        } else {
            None
        };
        let flip = match (purpose, header.commitment) {
            (Some(purpose), Some(commitment)) => Some(Flip {
                document: 0,
                commitment,
                binding: file
                    .binding(0)
                    .expect("a header with a commitment has a binding"),
                committer: 0,
                response: None,
                purpose,
            }),
            (Some(Purpose::FirstMove), None) => {
                return Err(format!(
                    "in {} a coin flip decides who moves first: the header needs the creator's \
                     commitment",
                    G::NAME
                ));
            }
            (Some(_), None) => {
                return Err(
                    "the sides are left to a coin flip: the header needs the creator's commitment"
                        .into(),
                );
            }
            (None, Some(_)) => {
                return Err(
                    "the sides are fixed: there is no opening coin flip to commit to".into(),
                );
            }
            (None, None) => None,
        };
        let line = flip.is_none().then(|| Line::new(G::start(&options)));
        Ok(State {
            game_id: file.game_id(),
            seats,
            options,
            phase: Phase::AwaitingAccept(1),
            flip,
            due: None,
            line,
            offer: None,
        })
    }

    /// The game id the coin flips are bound to.
    pub(super) fn game_id(&self) -> Digest {
        self.game_id
    }

    /// The seats (with the sides a coin flip may have assigned) and the moves played.
    pub(super) fn into_parts(self) -> ([Seat<G::Side>; 2], Option<Line<G>>) {
        (self.seats, self.line)
    }

    fn position(&self) -> G {
        match &self.line {
            Some(line) => line.current().clone(),
            None => G::start(&self.options),
        }
    }

    pub(super) fn step(
        &self,
        document: usize,
        line: usize,
        signer: usize,
        events: Vec<Event>,
    ) -> Step<G> {
        let position = self.position();
        let phase_text = self.phase.describe(&self.seats);
        let offer = self.offer.map_or(String::new(), |o| format!("offer:{o}"));
        let state_hash = Digest::of_parts(&[
            b"correspond/state/v1\0",
            position.to_string().as_bytes(),
            b"\0",
            phase_text.as_bytes(),
            b"\0",
            offer.as_bytes(),
        ]);
        Step {
            document,
            line,
            signer,
            events,
            position,
            phase: self.phase.clone(),
            offer: self.offer,
            state_hash,
        }
    }

    fn name(&self, seat: usize) -> String {
        self.seats[seat].to_string()
    }

    fn seat_of(&self, side: G::Side) -> usize {
        self.seats
            .iter()
            .position(|s| s.side == Some(side))
            .expect("once play has begun, each side has a seat")
    }

    fn not_your_turn(&self, signer: usize) -> ErrorKind {
        ErrorKind::NotYourTurn {
            signer: self.seats[signer].name.clone(),
            expected: self.phase.describe(&self.seats),
        }
    }

    /// Applies one record, signed by seat `signer`, found at `document`.
    pub(super) fn apply(
        &mut self,
        file: &GameFile,
        signer: usize,
        action: &Action,
        document: usize,
    ) -> Applied {
        if let Phase::Over(verdict) = &self.phase {
            return Err(ErrorKind::AfterEnd(verdict.describe(&self.seats)));
        }
        if *action == Action::Resign {
            if let Phase::AwaitingAccept(by) = self.phase {
                return Err(ErrorKind::Protocol(format!(
                    "the game has not been accepted yet, so there is nothing to resign: {} \
                     accepts it, or does nothing",
                    self.name(by)
                )));
            }
            let reason = format!("{} resigned", self.name(signer));
            return Ok(self.end(vec![Event::Resigned], Some(1 - signer), reason));
        }
        let mut events = Vec::new();
        // A standing offer lapses at the other player's next record, unless that accepts it.
        if self.offer.is_some_and(|offerer| offerer != signer)
            && !matches!(action, Action::AcceptOffer(_))
        {
            self.offer = None;
            events.push(Event::OfferLapsed);
        }
        let more = match self.phase.clone() {
            Phase::AwaitingAccept(by) => self.accept(signer, by, action),
            Phase::AwaitingReveal(by) => self.reveal(signer, by, action),
            Phase::AwaitingCommit(by) => self.commit(file, signer, by, action, document),
            Phase::AwaitingNonce(by) => self.answer(signer, by, action),
            Phase::Choosing(by) => self.choose(signer, by, action),
            Phase::Playing(by) => self.play(signer, by, action),
            Phase::Over(_) => unreachable!("checked above"),
        }?;
        events.extend(more);
        Ok(events)
    }

    fn end(&mut self, mut events: Vec<Event>, winner: Option<usize>, reason: String) -> Vec<Event> {
        let verdict = Verdict { winner, reason };
        events.push(Event::Over(verdict.describe(&self.seats)));
        self.phase = Phase::Over(verdict);
        self.offer = None;
        events
    }

    fn accept(&mut self, signer: usize, by: usize, action: &Action) -> Applied {
        let Action::Accept { nonce } = action else {
            return Err(if signer == by {
                ErrorKind::Protocol(format!(
                    "the game has not been accepted yet: {} must accept first",
                    self.name(by)
                ))
            } else {
                self.not_your_turn(signer)
            });
        };
        if signer != by {
            return Err(ErrorKind::Protocol(format!(
                "{} created the game and cannot accept it; {} accepts",
                self.name(signer),
                self.name(by)
            )));
        }
        match (&mut self.flip, nonce) {
            (Some(flip), Some(nonce)) => {
                flip.response = Some(*nonce);
                self.phase = Phase::AwaitingReveal(flip.committer);
                Ok(vec![Event::Accepted, Event::Answered])
            }
            (Some(_), None) => Err(ErrorKind::Protocol(
                "the accept must carry a nonce for the opening coin flip".into(),
            )),
            (None, Some(_)) => Err(ErrorKind::Protocol(
                "this game has no coin flip to answer".into(),
            )),
            (None, None) => {
                self.phase = self.playing_phase();
                Ok(vec![Event::Accepted])
            }
        }
    }

    fn reveal(&mut self, signer: usize, by: usize, action: &Action) -> Applied {
        if signer != by {
            return Err(self.not_your_turn(signer));
        }
        let Action::FlipReveal(nonce) = action else {
            return Err(ErrorKind::Protocol(format!(
                "{} owes the reveal of the coin flip: only the reveal or a resignation may come next",
                self.name(by)
            )));
        };
        let flip = self
            .flip
            .take()
            .expect("a reveal is awaited only while a flip is under way");
        if flip::commitment(&flip.binding, nonce) != flip.commitment {
            return Err(ErrorKind::Protocol(format!(
                "the revealed nonce does not match the commitment made in {}",
                if flip.document == 0 {
                    "the header".to_owned()
                } else {
                    format!("record {}", flip.document)
                }
            )));
        }
        let response = flip.response.expect("the reveal comes after the answer");
        let coin = flip::coin(&self.game_id, flip.document as u64, nonce, &response);
        let side = G::SIDES[usize::from(coin == Coin::Tails)];
        match flip.purpose {
            Purpose::FirstMove => {
                let winner = self.seat_of(side);
                self.phase = Phase::Choosing(winner);
                let meaning = format!("{} wins the toss", self.name(winner));
                Ok(vec![Event::Coin(coin, meaning)])
            }
            Purpose::Sides => {
                let other = *G::SIDES.iter().find(|s| **s != side).expect("two sides");
                self.seats[0].side = Some(side);
                self.seats[1].side = Some(other);
                self.line = Some(Line::new(G::start(&self.options)));
                self.phase = self.playing_phase();
                let meaning = format!(
                    "{} plays {side} and {} plays {other}",
                    self.seats[0].name, self.seats[1].name
                );
                Ok(vec![Event::Coin(coin, meaning)])
            }
            Purpose::RunOff(outcome) => {
                let meaning = format!("{side} wins the run-off");
                let reason = format!("{} (the coin showed {coin})", G::reason(&outcome));
                let winner = self.seat_of(side);
                Ok(self.end(vec![Event::Coin(coin, meaning)], Some(winner), reason))
            }
        }
    }

    fn commit(
        &mut self,
        file: &GameFile,
        signer: usize,
        by: usize,
        action: &Action,
        document: usize,
    ) -> Applied {
        if signer != by {
            return Err(self.not_your_turn(signer));
        }
        let Action::FlipCommit(commitment) = action else {
            return Err(ErrorKind::Protocol(format!(
                "a run-off is due: {} must commit to its coin flip first",
                self.name(by)
            )));
        };
        let outcome = self
            .due
            .take()
            .expect("a commitment is awaited only while a run-off is due");
        let binding = file
            .binding(document)
            .expect("a flip-commit record has a commitment line");
        self.flip = Some(Flip {
            document,
            commitment: *commitment,
            binding,
            committer: signer,
            response: None,
            purpose: Purpose::RunOff(outcome),
        });
        self.phase = Phase::AwaitingNonce(1 - signer);
        Ok(vec![Event::Committed])
    }

    fn answer(&mut self, signer: usize, by: usize, action: &Action) -> Applied {
        if signer != by {
            return Err(self.not_your_turn(signer));
        }
        let Action::FlipNonce(nonce) = action else {
            return Err(ErrorKind::Protocol(format!(
                "{} must answer the coin flip with a nonce",
                self.name(by)
            )));
        };
        let flip = self
            .flip
            .as_mut()
            .expect("an answer is awaited only while a flip is under way");
        flip.response = Some(*nonce);
        self.phase = Phase::AwaitingReveal(flip.committer);
        Ok(vec![Event::Answered])
    }

    fn choose(&mut self, signer: usize, by: usize, action: &Action) -> Applied {
        let first = match action {
            Action::Move(_) | Action::Defer if signer != by => {
                return Err(self.not_your_turn(signer));
            }
            Action::Move(_) => signer,
            Action::Defer => 1 - signer,
            _ => {
                return Err(ErrorKind::Protocol(format!(
                    "{} won the toss and must move first or defer",
                    self.name(by)
                )));
            }
        };
        let side = self.seats[first]
            .side
            .expect("when the toss decides the first move, the sides are fixed");
        self.line = Some(Line::new(G::start_with(&self.options, side)));
        self.phase = Phase::Playing(first);
        if *action == Action::Defer {
            return Ok(vec![Event::Deferred(self.name(first))]);
        }
        self.play(signer, first, action)
    }

    fn playing_phase(&self) -> Phase {
        let side = self
            .line
            .as_ref()
            .expect("play has started")
            .current()
            .side_to_move();
        Phase::Playing(self.seat_of(side))
    }

    /// Checks that an offer or claim names the settlement this game has.
    fn settlement(&self, asked: Settlement) -> Result<(), ErrorKind> {
        match G::SETTLEMENT {
            Some(s) if s == asked => Ok(()),
            Some(s) => Err(ErrorKind::Protocol(format!(
                "{} is settled by a {}, not a {}",
                G::NAME,
                settlement_words(s.name()),
                settlement_words(asked.name()),
            ))),
            None => Err(ErrorKind::Protocol(format!(
                "{} has no offers or claims",
                G::NAME
            ))),
        }
    }

    fn play(&mut self, signer: usize, to_move: usize, action: &Action) -> Applied {
        match action {
            Action::Move(_) | Action::Claim(..) if signer != to_move => {
                Err(self.not_your_turn(signer))
            }
            Action::Move(text) => self.play_move(text),
            Action::Claim(settlement, name) => {
                self.settlement(*settlement)?;
                self.claim(signer, *settlement, name)
            }
            Action::Offer(settlement) => {
                self.settlement(*settlement)?;
                if self.offer == Some(signer) {
                    return Err(ErrorKind::Protocol(format!(
                        "{}'s offer already stands",
                        self.name(signer)
                    )));
                }
                self.offer = Some(signer);
                Ok(vec![Event::Offered(settlement.name())])
            }
            Action::AcceptOffer(settlement) => {
                self.settlement(*settlement)?;
                let Some(outcome) = G::agreement().filter(|_| self.offer == Some(1 - signer))
                else {
                    return Err(ErrorKind::Protocol(format!(
                        "there is no {} offer from {} to accept",
                        settlement_words(settlement.name()),
                        self.name(1 - signer)
                    )));
                };
                self.offer = None;
                let mut events = vec![Event::OfferAccepted(settlement.name())];
                events.extend(self.settle(outcome));
                Ok(events)
            }
            Action::Accept { .. } => {
                Err(ErrorKind::Protocol("the game was already accepted".into()))
            }
            Action::Defer => Err(ErrorKind::Protocol(
                "only the toss winner defers, instead of the first move".into(),
            )),
            Action::FlipCommit(_) | Action::FlipNonce(_) | Action::FlipReveal(_) => {
                Err(ErrorKind::Protocol("no coin flip is under way".into()))
            }
            Action::Resign => unreachable!("resignations are handled before the phase"),
        }
    }

    fn play_move(&mut self, text: &str) -> Applied {
        let line = self.line.as_mut().expect("play has started");
        let before = line.current().clone();
        let mv = before.parse_move(text).map_err(|e| match e {
            MoveError::Illegal(reason) => ErrorKind::Illegal {
                mv: text.to_owned(),
                reason: reason.to_string(),
            },
            other => ErrorKind::Illegal {
                mv: text.to_owned(),
                reason: other.to_string(),
            },
        })?;
        if mv.to_string() != text {
            return Err(ErrorKind::Protocol(format!(
                "`{text}` is not in canonical notation; the file stores `{mv}`"
            )));
        }
        let notes = before.describe(&mv);
        let shown = before.display_move(&mv);
        let after = line
            .play(&mv)
            .expect("parse_move returns playable moves")
            .clone();
        let mut events = vec![Event::Moved(shown, notes)];
        if after.in_check() && after.outcome().is_none() {
            events.push(Event::Check);
        }
        let outcome = self.line.as_ref().expect("play has started").outcome();
        match outcome {
            Some(outcome) => events.extend(self.settle(outcome)),
            None => self.phase = self.playing_phase(),
        }
        Ok(events)
    }

    fn claim(&mut self, signer: usize, settlement: Settlement, name: &str) -> Applied {
        let Some(outcome) = G::claim(name) else {
            let claims = match G::claim_names() {
                [] => "it has none".to_owned(),
                names => format!("its claims are {}", names.join(", ")),
            };
            return Err(ErrorKind::Protocol(format!(
                "`{name}` is not a claim in {}: {claims}",
                G::NAME
            )));
        };
        let line = self.line.as_ref().expect("play has started");
        if !line.claimable().contains(&outcome) {
            return Err(ErrorKind::Protocol(format!(
                "{} claims {name}, but it cannot be claimed in this position ({}; it has \
                 occurred {} time(s))",
                self.name(signer),
                line.current(),
                line.repetitions(),
            )));
        }
        let mut events = vec![Event::Claimed(settlement.name())];
        events.extend(self.settle(outcome));
        Ok(events)
    }

    /// Ends the game on an outcome, or starts the coin flip it calls for.
    fn settle(&mut self, outcome: G::Outcome) -> Vec<Event> {
        match G::decision(&outcome) {
            Decision::Win(side) => {
                let winner = self.seat_of(side);
                self.end(Vec::new(), Some(winner), G::reason(&outcome))
            }
            Decision::Draw => self.end(Vec::new(), None, G::reason(&outcome)),
            Decision::CoinFlip => {
                let to_move = self
                    .line
                    .as_ref()
                    .expect("play has started")
                    .current()
                    .side_to_move();
                let committer = self.seat_of(to_move);
                let event = Event::CoinFlipDue(outcome.to_string());
                self.due = Some(outcome);
                self.phase = Phase::AwaitingCommit(committer);
                self.offer = None;
                vec![event]
            }
        }
    }
}
