//! The coin flips of the state machine: a commitment (for a Run-Off), the other player's
//! answer, and the reveal that settles the flip (who moves first, who plays which side, or who
//! wins the Run-Off).

use super::{Applied, Flip, Purpose, State, reason};
use crate::flip::{self, Coin};
use crate::log::{Action, GameFile};
use crate::replay::phase::{Ending, Event, Phase, Seat};
use crate::replay::refusal::ProtocolError;
use crate::replay::{ErrorKind, Protocol};
use crate::rules::Line;

impl<G: Protocol> State<G> {
    pub(super) fn reveal(&mut self, signer: Seat, by: Seat, action: &Action) -> Applied {
        if signer != by {
            return Err(self.not_your_turn(signer));
        }
        let Action::FlipReveal(nonce) = action else {
            return Err(ErrorKind::Protocol(ProtocolError::RevealOwed {
                by: self.name(by),
            }));
        };
        let flip = self
            .flip
            .take()
            .expect("a reveal is awaited only while a flip is under way");
        if flip::commitment(&flip.binding, nonce) != flip.commitment {
            return Err(ErrorKind::Protocol(ProtocolError::RevealMismatch {
                committed_in: flip.document,
            }));
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
                self.seats[Seat::Creator].side = Some(side);
                self.seats[Seat::Opponent].side = Some(other);
                self.line = Some(Line::new(G::start(&self.options)));
                self.phase = self.playing_phase();
                let meaning = format!(
                    "{} plays {side} and {} plays {other}",
                    self.seats[Seat::Creator].name,
                    self.seats[Seat::Opponent].name
                );
                Ok(vec![Event::Coin(coin, meaning)])
            }
            Purpose::RunOff(outcome) => {
                let meaning = format!("{side} wins the run-off");
                let ending = Ending::RunOff {
                    outcome: reason::<G>(&outcome),
                    coin,
                };
                let winner = self.seat_of(side);
                Ok(self.end(vec![Event::Coin(coin, meaning)], Some(winner), ending))
            }
        }
    }

    pub(super) fn commit(
        &mut self,
        file: &GameFile,
        signer: Seat,
        by: Seat,
        action: &Action,
        document: usize,
    ) -> Applied {
        if signer != by {
            return Err(self.not_your_turn(signer));
        }
        let Action::FlipCommit(commitment) = action else {
            return Err(ErrorKind::Protocol(ProtocolError::CommitDue {
                by: self.name(by),
            }));
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
        self.phase = Phase::AwaitingNonce(signer.other());
        Ok(vec![Event::Committed])
    }

    pub(super) fn answer(&mut self, signer: Seat, by: Seat, action: &Action) -> Applied {
        if signer != by {
            return Err(self.not_your_turn(signer));
        }
        let Action::FlipNonce(nonce) = action else {
            return Err(ErrorKind::Protocol(ProtocolError::NonceDue {
                by: self.name(by),
            }));
        };
        let flip = self
            .flip
            .as_mut()
            .expect("an answer is awaited only while a flip is under way");
        flip.response = Some(*nonce);
        self.phase = Phase::AwaitingReveal(flip.committer);
        Ok(vec![Event::Answered])
    }
}
