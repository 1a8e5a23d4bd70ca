//! The state machine of a game file: accepting, the coin flips, play, offers, claims and the
//! end. [`State::apply`] takes one record whose signature and chain are already checked.

use super::clock::Clocks;
use super::phase::{Ending, Event, Offer, Phase, Reason, Seat, Signatory, Verdict};
use super::refusal::ProtocolError;
use super::{ErrorKind, Player, Protocol, Step};
use crate::digest::Digest;
use crate::log::{Action, Adjudged, GameFile, Settlement};
use crate::rules::{Decision, Line, MoveError};

mod conditional;
mod flips;
mod hidden;
mod time;

pub use conditional::{HiddenLines, StandingLines, check_conditional, shown_line, shown_move};

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
    committer: Seat,
    response: Option<Digest>,
    purpose: Purpose<O>,
}

#[derive(Clone)]
pub(super) struct State<G: Protocol> {
    game_id: Digest,
    seats: [Player<G::Side>; 2],
    options: G::Options,
    phase: Phase,
    flip: Option<Flip<G::Outcome>>,
    /// The outcome whose Run-Off awaits its commitment.
    due: Option<G::Outcome>,
    line: Option<Line<G>>,
    offer: Option<Offer>,
    /// The clocks, when the header sets a time control.
    clocks: Option<Clocks>,
    /// The arbiter's name, when the header names one.
    arbiter: Option<String>,
    /// The conditional lines that stand, if any.
    conditional: Option<StandingLines>,
    /// The player whose `move` record is the last record, who may sign a conditional now.
    just_moved: Option<Seat>,
}

type Applied = Result<Vec<Event>, ErrorKind>;

/// What a finished replay keeps of the state.
pub(super) struct Parts<G: Protocol> {
    pub(super) seats: [Player<G::Side>; 2],
    pub(super) line: Option<Line<G>>,
    pub(super) clocks: Option<Clocks>,
}

impl<G: Protocol> State<G> {
    pub(super) fn new(
        file: &GameFile,
        seats: [Player<G::Side>; 2],
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
                committer: Seat::Creator,
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
            phase: Phase::AwaitingAccept(Seat::Opponent),
            flip,
            due: None,
            line,
            offer: None,
            clocks: header
                .time_control
                .map(|control| Clocks::new(control, header.leave_days, &header.created)),
            arbiter: header.arbiter.as_ref().map(|a| a.name.clone()),
            conditional: None,
            just_moved: None,
        })
    }

    /// The game id the coin flips are bound to.
    pub(super) fn game_id(&self) -> Digest {
        self.game_id
    }

    /// The seats, with the sides a coin flip may have assigned.
    pub(super) fn seats(&self) -> &[Player<G::Side>; 2] {
        &self.seats
    }

    /// The moves played and the positions they led to, once play has begun.
    pub(super) fn line(&self) -> Option<&Line<G>> {
        self.line.as_ref()
    }

    /// The clocks, when the header sets a time control.
    pub(super) fn clocks(&self) -> Option<&Clocks> {
        self.clocks.as_ref()
    }

    /// The seats (with the sides a coin flip may have assigned), the moves played and the
    /// clocks.
    pub(super) fn into_parts(self) -> Parts<G> {
        Parts {
            seats: self.seats,
            line: self.line,
            clocks: self.clocks,
        }
    }

    /// The seat the game waits for with a clock running: any but the one owed an acceptance.
    fn clocked(&self) -> Option<Seat> {
        match self.phase {
            Phase::AwaitingAccept(_) | Phase::Over(_) => None,
            ref phase => phase.awaited(),
        }
    }

    /// The position as the game stands: before play begins, the start; once a toss has been
    /// won, the start with the winner to move, since the winner moves first unless they defer
    /// (docs/rules/campaign.md), so that every report of it names the side the game awaits.
    fn position(&self) -> G {
        match (&self.line, &self.phase) {
            (Some(line), _) => line.current().clone(),
            (None, Phase::Choosing(winner)) => match self.seats[*winner].side {
                Some(side) => G::start_with(&self.options, side),
                None => G::start(&self.options),
            },
            (None, _) => G::start(&self.options),
        }
    }

    pub(super) fn step(
        &self,
        document: usize,
        line: usize,
        signer: Signatory,
        events: Vec<Event>,
    ) -> Step<G> {
        let position = self.position();
        Step {
            document,
            line,
            signer,
            events,
            position,
            phase: self.phase.clone(),
            offer: self.offer,
            conditional: self.conditional.clone(),
        }
    }

    fn name(&self, seat: Seat) -> String {
        self.seats[seat].to_string()
    }

    fn seat_of(&self, side: G::Side) -> Seat {
        Seat::BOTH
            .into_iter()
            .find(|s| self.seats[*s].side == Some(side))
            .expect("once play has begun, each side has a seat")
    }

    fn not_your_turn(&self, signer: Seat) -> ErrorKind {
        ErrorKind::NotYourTurn {
            signer: self.seats[signer].name.clone(),
            expected: self.phase.describe(&self.seats),
        }
    }

    /// Applies one record, signed by `signer`, found at `document`, and charges the time since
    /// the document before it to the clocks.
    pub(super) fn apply(
        &mut self,
        file: &GameFile,
        signer: Signatory,
        action: &Action,
        document: usize,
    ) -> Applied {
        let signer = match (signer, action) {
            (Signatory::Arbiter, _) => return self.adjudicate(action),
            (Signatory::Player(_), Action::Adjudicate(_)) => {
                return Err(ErrorKind::Protocol(match &self.arbiter {
                    Some(arbiter) => ProtocolError::NotTheArbiter {
                        arbiter: arbiter.clone(),
                    },
                    None => ProtocolError::NoArbiter,
                }));
            }
            (Signatory::Player(seat), _) => seat,
        };
        let before = self.clocked();
        let owing = std::mem::discriminant(&self.phase);
        let events = self.act(file, signer, action, document)?;
        let after = self.clocked();
        // Something new is owed when the game waits for another player or another kind of
        // record; an offer or a leave leaves the same thing owed.
        let owed = before != after || owing != std::mem::discriminant(&self.phase);
        if let Some(clocks) = &mut self.clocks {
            let time = &file.records()[document - 1].time;
            clocks.record(time, signer, action, (before, after), owed);
        }
        Ok(events)
    }

    /// What one record does to the game: what a standing conditional makes of it, then the
    /// usual rules.
    fn act(&mut self, file: &GameFile, signer: Seat, action: &Action, document: usize) -> Applied {
        if let Phase::Over(verdict) = &self.phase {
            return Err(ErrorKind::AfterEnd(verdict.describe(&self.seats)));
        }
        let events = match self.conditional_first(file, signer, action, document)? {
            Some(events) => events,
            None => {
                let mut events = self.act_usually(file, signer, action, document)?;
                self.conditional_after(action, &mut events);
                events
            }
        };
        // Only a `move` record (not a reply, which was promised) lets its signer promise next.
        self.just_moved = (matches!(action, Action::Move(_))
            && !matches!(self.phase, Phase::Over(_)))
        .then_some(signer);
        Ok(events)
    }

    /// What one record does to the game by the rules that know no conditional.
    fn act_usually(
        &mut self,
        file: &GameFile,
        signer: Seat,
        action: &Action,
        document: usize,
    ) -> Applied {
        if *action == Action::ClaimTimeout {
            return self.claim_timeout(signer, &file.records()[document - 1].time);
        }
        if let Action::Leave(days) = action {
            return self.take_leave(signer, *days, &file.records()[document - 1].time);
        }
        if *action == Action::Resign {
            if let Phase::AwaitingAccept(by) = self.phase {
                return Err(ErrorKind::Protocol(ProtocolError::NothingToResign {
                    accepter: self.name(by),
                }));
            }
            let ending = Ending::Resigned(signer);
            return Ok(self.end(vec![Event::Resigned], Some(signer.other()), ending));
        }
        let mut events = Vec::new();
        // A standing offer lapses at the other player's next record, unless that accepts it.
        if self.offer.is_some_and(|offer| offer.by != signer)
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

    /// The arbiter's record: an adjudication ends the game, once the opponent has accepted it
    /// (and with it the arbiter). No clock is charged: the game is over.
    fn adjudicate(&mut self, action: &Action) -> Applied {
        if let Phase::Over(verdict) = &self.phase {
            return Err(ErrorKind::AfterEnd(verdict.describe(&self.seats)));
        }
        let Action::Adjudicate(adjudication) = action else {
            return Err(ErrorKind::Protocol(ProtocolError::ArbiterOnlyAdjudicates {
                arbiter: self.arbiter.clone().unwrap_or_default(),
            }));
        };
        if let Phase::AwaitingAccept(_) = self.phase {
            return Err(ErrorKind::Protocol(ProtocolError::AdjudicateBeforeAccept));
        }
        let winner = match adjudication.result {
            Adjudged::CreatorWins => Some(Seat::Creator),
            Adjudged::OpponentWins => Some(Seat::Opponent),
            Adjudged::Draw => None,
        };
        let reason = adjudication.reason;
        Ok(self.end(
            vec![Event::Adjudicated(reason)],
            winner,
            Ending::Adjudicated(reason),
        ))
    }

    fn end(&mut self, mut events: Vec<Event>, winner: Option<Seat>, ending: Ending) -> Vec<Event> {
        let verdict = Verdict { winner, ending };
        events.push(Event::Over(verdict.describe(&self.seats)));
        self.phase = Phase::Over(verdict);
        self.offer = None;
        self.conditional = None;
        events
    }

    fn accept(&mut self, signer: Seat, by: Seat, action: &Action) -> Applied {
        let Action::Accept { nonce } = action else {
            return Err(if signer == by {
                ErrorKind::Protocol(ProtocolError::NotAccepted {
                    accepter: self.name(by),
                })
            } else {
                self.not_your_turn(signer)
            });
        };
        if signer != by {
            return Err(ErrorKind::Protocol(ProtocolError::CreatorAccepts {
                creator: self.name(signer),
                accepter: self.name(by),
            }));
        }
        match (&mut self.flip, nonce) {
            (Some(flip), Some(nonce)) => {
                flip.response = Some(*nonce);
                self.phase = Phase::AwaitingReveal(flip.committer);
                Ok(vec![Event::Accepted, Event::Answered])
            }
            (Some(_), None) => Err(ErrorKind::Protocol(ProtocolError::AcceptWithoutNonce)),
            (None, Some(_)) => Err(ErrorKind::Protocol(ProtocolError::NoFlipToAnswer)),
            (None, None) => {
                self.phase = self.playing_phase();
                Ok(vec![Event::Accepted])
            }
        }
    }

    fn choose(&mut self, signer: Seat, by: Seat, action: &Action) -> Applied {
        let first = match action {
            Action::Move(_) | Action::Defer if signer != by => {
                return Err(self.not_your_turn(signer));
            }
            Action::Move(_) => signer,
            Action::Defer => signer.other(),
            _ => {
                return Err(ErrorKind::Protocol(ProtocolError::ChooseDue {
                    by: self.name(by),
                }));
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
            Some(settled_by) => Err(ErrorKind::Protocol(ProtocolError::WrongSettlement {
                game: G::NAME,
                settled_by,
                asked,
            })),
            None => Err(ErrorKind::Protocol(ProtocolError::NoSettlement {
                game: G::NAME,
            })),
        }
    }

    fn play(&mut self, signer: Seat, to_move: Seat, action: &Action) -> Applied {
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
                if self.offer.is_some_and(|offer| offer.by == signer) {
                    return Err(ErrorKind::Protocol(ProtocolError::OfferStands {
                        by: self.name(signer),
                    }));
                }
                self.offer = Some(Offer {
                    by: signer,
                    settlement: *settlement,
                });
                Ok(vec![Event::Offered(*settlement)])
            }
            Action::AcceptOffer(settlement) => {
                self.settlement(*settlement)?;
                let from = signer.other();
                let standing = self.offer.is_some_and(|offer| offer.by == from);
                let Some(outcome) = G::agreement().filter(|_| standing) else {
                    return Err(ErrorKind::Protocol(ProtocolError::NoOffer {
                        settlement: *settlement,
                        from: self.name(from),
                    }));
                };
                self.offer = None;
                let mut events = vec![Event::OfferAccepted(*settlement)];
                events.extend(self.settle(outcome));
                Ok(events)
            }
            Action::Accept { .. } => Err(ErrorKind::Protocol(ProtocolError::AlreadyAccepted)),
            Action::Defer => Err(ErrorKind::Protocol(ProtocolError::DeferNow)),
            Action::FlipCommit(_) | Action::FlipNonce(_) | Action::FlipReveal(_) => {
                Err(ErrorKind::Protocol(ProtocolError::NoFlip))
            }
            Action::Resign
            | Action::ClaimTimeout
            | Action::Leave(_)
            | Action::Adjudicate(_)
            | Action::Conditional(_)
            | Action::Applied(_)
            | Action::Withdraw
            | Action::HiddenConditional(_)
            | Action::Reveal(_)
            | Action::Disclose(_) => {
                unreachable!(
                    "resignations, claims on time, leave and conditionals are handled before the \
                     phase"
                )
            }
        }
    }

    fn play_move(&mut self, text: &str) -> Applied {
        let line = self.line.as_mut().expect("play has started");
        let before = line.current();
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
        let canonical = mv.to_string();
        if canonical != text {
            return Err(ErrorKind::Protocol(ProtocolError::NotCanonical {
                written: text.to_owned(),
                canonical,
            }));
        }
        let moved = Event::Moved(before.display_move(&mv), before.describe(&mv));
        // parse_move checked the move: it is played without checking it again.
        line.play_legal(&mv);
        let outcome = line.outcome();
        let after = line.current();
        let mut events = vec![moved];
        // A check is said unless the position itself ends the game (a repetition that ends it
        // leaves the check said); the position's outcome is worked out again only then.
        if after.in_check() && (outcome.is_none() || after.outcome().is_none()) {
            events.push(Event::Check);
        }
        match outcome {
            Some(outcome) => events.extend(self.settle(outcome)),
            None => self.phase = self.playing_phase(),
        }
        Ok(events)
    }

    fn claim(&mut self, signer: Seat, settlement: Settlement, name: &str) -> Applied {
        let Some(outcome) = G::claim(name) else {
            return Err(ErrorKind::Protocol(ProtocolError::UnknownClaim {
                claim: name.to_owned(),
                game: G::NAME,
                known: G::claim_names(),
            }));
        };
        let line = self.line.as_ref().expect("play has started");
        if !line.claimable().contains(&outcome) {
            return Err(ErrorKind::Protocol(ProtocolError::NotClaimable {
                claimant: self.name(signer),
                claim: name.to_owned(),
                position: line.current().to_string(),
                repetitions: line.repetitions(),
            }));
        }
        let mut events = vec![Event::Claimed(settlement)];
        events.extend(self.settle(outcome));
        Ok(events)
    }

    /// Ends the game on an outcome, or starts the coin flip it calls for.
    fn settle(&mut self, outcome: G::Outcome) -> Vec<Event> {
        match G::decision(&outcome) {
            Decision::Win(side) => {
                let winner = self.seat_of(side);
                self.end(
                    Vec::new(),
                    Some(winner),
                    Ending::Rules(reason::<G>(&outcome)),
                )
            }
            Decision::Draw => self.end(Vec::new(), None, Ending::Rules(reason::<G>(&outcome))),
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

/// Why the rules ended a game, as the game codes and words it.
fn reason<G: Protocol>(outcome: &G::Outcome) -> Reason {
    Reason {
        code: G::reason_code(outcome),
        words: G::reason(outcome),
    }
}
