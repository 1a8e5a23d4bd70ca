//! What a time control adds to the state machine: leave, and claims on time.
//!
//! A player takes leave with a `leave` record: whole days from the record's time, within the
//! days the header gives them, one leave at a time; their clock stops while it lasts, and their
//! own next record ends it (the [`Clocks`] keep the account).
//!
//! Once the player the game waits for is past their deadline, the other player
//! may sign a `claim-timeout` record, dated after the deadline, and the game ends on it. The
//! file holds no record of the late player's since the deadline, or the game would no longer
//! wait for them: a late move that reaches the file first is a move, and the clocks go on.
//!
//! What the claim gives depends on what was owed:
//! - a move (or the toss winner's choice): the claimant wins, unless no series of legal moves
//!   could let the claimant win, which is a draw (FIDE Laws art. 6.9; see
//!   [`Protocol::could_win`]);
//! - a Run-Off's coin flip (its commitment, answer or reveal): the claimant wins the Run-Off,
//!   and so the game;
//! - the opening coin flip's reveal: the claimant wins the toss, and the game goes on.

use super::{Applied, Purpose, State};
use crate::log::Timestamp;
use crate::replay::clock::{Clocks, LeaveRefusal};
use crate::replay::phase::{Ending, Event, Phase, Seat};
use crate::replay::refusal::ProtocolError;
use crate::replay::{ErrorKind, Protocol};
use crate::rules::Line;

impl<G: Protocol> State<G> {
    /// `days` days of leave for `signer`, from `time`: checked here, taken by the clocks.
    pub(super) fn take_leave(&mut self, signer: Seat, days: u32, time: &Timestamp) -> Applied {
        let refused = |e| Err(ErrorKind::Protocol(e));
        let Some(clocks) = &self.clocks else {
            return refused(ProtocolError::NoClock);
        };
        if matches!(self.phase, Phase::AwaitingAccept(_)) {
            return refused(ProtocolError::NoClockRunning {
                waiting: self.phase.describe(&self.seats),
            });
        }
        match Clocks::may_leave(clocks, signer, days, time) {
            Ok(()) => Ok(vec![Event::Leave(days)]),
            Err(LeaveRefusal::OnLeave(until)) => refused(ProtocolError::OnLeave {
                by: self.name(signer),
                until,
            }),
            Err(LeaveRefusal::TooLong(left)) => refused(ProtocolError::LeaveTooLong {
                by: self.name(signer),
                days,
                left,
            }),
            Err(LeaveRefusal::Overdue(deadline)) => refused(ProtocolError::LeaveOverdue {
                by: self.name(signer),
                deadline,
            }),
        }
    }

    /// A claim on time by `signer`, made at `time`.
    pub(super) fn claim_timeout(&mut self, signer: Seat, time: &Timestamp) -> Applied {
        let refused = |e| Err(ErrorKind::Protocol(e));
        let Some(clocks) = &self.clocks else {
            return refused(ProtocolError::NoClock);
        };
        let Some((late, deadline)) = clocks.deadline() else {
            return refused(ProtocolError::NoClockRunning {
                waiting: self.phase.describe(&self.seats),
            });
        };
        if late == signer {
            return refused(ProtocolError::OwnClock {
                by: self.name(signer),
            });
        }
        if i64::try_from(time.to_unix()).unwrap_or(i64::MAX) <= deadline {
            let (_, at) = clocks.deadline_time().expect("a deadline has its time");
            return refused(ProtocolError::NotLate {
                late: self.name(late),
                deadline: at,
            });
        }
        let mut events = vec![Event::ClaimedOnTime(self.name(late))];
        let forfeit = Ending::Timeout(late);
        match self.phase.clone() {
            Phase::Playing(_) | Phase::Choosing(_) => {
                let side = self.seats[signer]
                    .side
                    .expect("once a move is owed, each seat has a side");
                let winner = self.position().could_win(side).then_some(signer);
                Ok(self.end(events, winner, forfeit))
            }
            Phase::AwaitingCommit(_) => Ok(self.end(events, Some(signer), forfeit)),
            Phase::AwaitingNonce(_) | Phase::AwaitingReveal(_) => {
                let flip = self
                    .flip
                    .take()
                    .expect("an answer or a reveal is owed only while a flip is under way");
                match flip.purpose {
                    Purpose::RunOff(_) => Ok(self.end(events, Some(signer), forfeit)),
                    Purpose::FirstMove => {
                        self.phase = Phase::Choosing(signer);
                        events.push(Event::Forfeit(format!(
                            "{} wins the toss",
                            self.name(signer)
                        )));
                        Ok(events)
                    }
                    Purpose::Sides => {
                        // The claimant takes the side the coin's heads would have given the
                        // creator: the first of the game's sides.
                        let [first, second] = G::SIDES;
                        self.seats[signer].side = Some(first);
                        self.seats[signer.other()].side = Some(second);
                        self.line = Some(Line::new(G::start(&self.options)));
                        self.phase = self.playing_phase();
                        events.push(Event::Forfeit(format!(
                            "{} plays {first} and {} plays {second}",
                            self.seats[signer].name,
                            self.seats[signer.other()].name
                        )));
                        Ok(events)
                    }
                }
            }
            Phase::AwaitingAccept(_) | Phase::Over(_) => {
                unreachable!("no clock runs before the acceptance or after the end")
            }
        }
    }
}
