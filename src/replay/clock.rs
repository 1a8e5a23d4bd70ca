//! The players' clocks, from the times in the signed records alone: no server keeps them, so
//! anyone can check them, afterwards, from the file.
//!
//! The time between two records is charged to the player the game was waiting for after the
//! first of them: the player to move, or to commit, answer or reveal a coin flip, or to choose
//! after the toss. Nothing is charged before the opponent accepts (accepting is not owed) nor
//! after the end. A record made by the player who is not awaited (an offer while the opponent
//! thinks) changes nobody's clock, and a player on leave is charged nothing. Times are the
//! signers' own (see docs/file-format.md, "Time controls", for what they are worth); under a
//! time control they never go backwards, which the chain check enforces.

use super::Seat;
use crate::log::{Action, TimeControl, Timestamp};

/// The clocks of a game with a time control, after some document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    control: TimeControl,
    /// Seconds charged to each seat.
    used: [u64; 2],
    /// Moves each seat has made.
    moves: [u32; 2],
    /// The time of the last document, in seconds since 1970.
    last: u64,
    /// The seat the game waits for, with a clock running, and the seconds charged to it since
    /// its turn began.
    turn: Option<(Seat, u64)>,
    /// Each seat's latest leave, `[start, end)` in seconds since 1970.
    leave: [Option<(u64, u64)>; 2],
    /// Each seat's seconds of leave not yet taken.
    leave_left: [u64; 2],
    /// The days of leave the header gives each player.
    leave_days: u32,
}

/// Seconds as whole days and hours, for messages: `2 days 3 hours`, `0 days`.
pub(super) fn days_and_hours(seconds: u64) -> String {
    let (days, hours) = (seconds / 86_400, seconds / 3_600 % 24);
    let plural = |n: u64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    if hours == 0 {
        plural(days, "day")
    } else {
        format!("{} {}", plural(days, "day"), plural(hours, "hour"))
    }
}

/// Why a leave cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum LeaveRefusal {
    /// The player is on leave until then.
    OnLeave(Timestamp),
    /// The player has this many seconds of leave left, fewer than asked for.
    TooLong(u64),
    /// The game waits for the player, who is past this deadline: a leave cannot stop a clock
    /// that has run out (it would move the deadline into the future, out of the claim's
    /// reach).
    Overdue(Timestamp),
}

impl Clocks {
    /// Clocks stopped, as a game is before its opponent accepts: nothing charged yet, and each
    /// player with `leave_days` days of leave.
    pub(super) fn new(control: TimeControl, leave_days: u32, created: &Timestamp) -> Clocks {
        let leave = TimeControl::seconds(leave_days);
        Clocks {
            control,
            used: [0, 0],
            moves: [0, 0],
            last: created.to_unix(),
            turn: None,
            leave: [None, None],
            leave_left: [leave, leave],
            leave_days,
        }
    }

    /// Whether `seat` may take `days` days of leave from `time`.
    pub(super) fn may_leave(
        &self,
        seat: Seat,
        days: u32,
        time: &Timestamp,
    ) -> Result<(), LeaveRefusal> {
        if let Some((_, end)) = self.leave[seat]
            && end > time.to_unix()
        {
            return Err(LeaveRefusal::OnLeave(Timestamp::from_unix(end)));
        }
        if let Some((awaited, deadline)) = self.deadline_time()
            && awaited == seat
            && *time > deadline
        {
            return Err(LeaveRefusal::Overdue(deadline));
        }
        if TimeControl::seconds(days) > self.leave_left[seat] {
            return Err(LeaveRefusal::TooLong(self.leave_left[seat]));
        }
        Ok(())
    }

    /// Charges the time up to a record made at `time` by `signer` doing `action`, `before`
    /// being the seat the game waited for with a clock running (if any), and `after` the one it
    /// waits for now; `owed` says whether the record left something new owed (the game waits
    /// for another player, or for another kind of record), which begins a turn. A player's own
    /// record, other than a leave, ends their leave, and the days not taken are theirs again.
    pub(super) fn record(
        &mut self,
        time: &Timestamp,
        signer: Seat,
        action: &Action,
        (before, after): (Option<Seat>, Option<Seat>),
        owed: bool,
    ) {
        let time = time.to_unix();
        if let Some(seat) = before {
            let on_leave = self.leave[seat].map_or(0, |(start, end)| {
                end.min(time).saturating_sub(start.max(self.last))
            });
            let elapsed = time.saturating_sub(self.last) - on_leave;
            // A hidden line's reveal is the author's promise, not a choice made now: made in
            // time, the whole wait since the opponent's move is given back (the turn's time,
            // which a leave in between charged already); made past the deadline, it is
            // charged, as a late move is, and leaves its author overdue.
            let in_time = || i64::try_from(elapsed).is_ok_and(|e| e <= self.left(seat));
            let charged = if matches!(action, Action::Reveal(_)) && in_time() {
                if let Some((awaited, spent)) = self.turn
                    && awaited == seat
                {
                    self.used[seat] = self.used[seat].saturating_sub(spent);
                }
                0
            } else {
                elapsed
            };
            self.used[seat] += charged;
            if let Some((awaited, spent)) = &mut self.turn
                && *awaited == seat
            {
                *spent += charged;
            }
        }
        match action {
            Action::Move(_) | Action::Reveal(_) => self.moves[signer] += 1,
            // The reply is the move of the seat the game waited for, whoever appended it.
            Action::Applied(_) => {
                if let Some(seat) = before {
                    self.moves[seat] += 1;
                }
            }
            Action::Leave(days) => {
                let length = TimeControl::seconds(*days);
                self.leave_left[signer] = self.leave_left[signer].saturating_sub(length);
                self.leave[signer] = Some((time, time + length));
            }
            _ => {}
        }
        if !matches!(action, Action::Leave(_))
            && let Some((start, end)) = self.leave[signer]
            && end > time
        {
            self.leave_left[signer] += end - time.max(start);
            self.leave[signer] = Some((start, time.max(start)));
        }
        self.last = time;
        // A turn begins when something new is owed; an offer or a leave, by either player, is
        // not an answer, and the turn goes on.
        self.turn = match (after, self.turn) {
            (None, _) => None,
            (Some(seat), Some((was, spent))) if was == seat && !owed => Some((seat, spent)),
            (Some(seat), _) => Some((seat, 0)),
        };
    }

    /// The terms.
    #[must_use]
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The seconds charged to `seat` up to the last record.
    #[must_use]
    pub fn used(&self, seat: Seat) -> u64 {
        self.used[seat]
    }

    /// The seconds `seat` has left as of the last record (negative: overdue by that much).
    /// For the player not awaited under a time per move, a whole turn.
    #[must_use]
    pub fn left(&self, seat: Seat) -> i64 {
        let signed = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        match self.control {
            TimeControl::PerMove { days } => match self.turn {
                Some((awaited, spent)) if awaited == seat => {
                    signed(TimeControl::seconds(days)) - signed(spent)
                }
                _ => signed(TimeControl::seconds(days)),
            },
            TimeControl::Block { moves, days } => {
                // A block of no moves is refused when the header is read.
                let blocks = u64::from(self.moves[seat] / moves.max(1)) + 1;
                signed(blocks * TimeControl::seconds(days)) - signed(self.used[seat])
            }
        }
    }

    /// The days of leave the header gives each player.
    #[must_use]
    pub fn leave_days(&self) -> u32 {
        self.leave_days
    }

    /// The seconds of leave `seat` has not taken.
    #[must_use]
    pub fn leave_left(&self, seat: Seat) -> u64 {
        self.leave_left[seat]
    }

    /// When `seat`'s leave ends, while they are on leave as of the last record.
    #[must_use]
    pub fn on_leave_until(&self, seat: Seat) -> Option<Timestamp> {
        match self.leave[seat] {
            Some((_, end)) if end > self.last => Some(Timestamp::from_unix(end)),
            _ => None,
        }
    }

    /// The player the game waits for with a clock running, and the moment their time runs
    /// out, in seconds since 1970 (before the last record's time when already overdue): their
    /// clock runs from the last record, or from the end of their leave.
    #[must_use]
    pub fn deadline(&self) -> Option<(Seat, i64)> {
        let (seat, _) = self.turn?;
        let resumes = match self.leave[seat] {
            Some((_, end)) if end > self.last => end,
            _ => self.last,
        };
        let resumes = i64::try_from(resumes).unwrap_or(i64::MAX);
        Some((seat, resumes.saturating_add(self.left(seat))))
    }

    /// The moment the awaited player's time runs out, as a record would write it (the first
    /// moment of 1970 for one that would be earlier).
    #[must_use]
    pub fn deadline_time(&self) -> Option<(Seat, Timestamp)> {
        self.deadline()
            .map(|(seat, at)| (seat, Timestamp::from_unix(u64::try_from(at).unwrap_or(0))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: u64 = 86_400;

    fn moved() -> Action {
        Action::Move("a2a3".into())
    }

    fn other() -> Action {
        Action::Offer(crate::log::Settlement::Draw)
    }

    fn at(seconds: u64) -> Timestamp {
        Timestamp::from_unix(1_800_000_000 + seconds)
    }

    #[test]
    fn a_time_per_move_is_set_again_each_turn_and_not_kept() {
        let mut clocks = Clocks::new(TimeControl::PerMove { days: 3 }, 0, &at(0));
        let (alice, bob) = (Seat::Creator, Seat::Opponent);
        // bob accepts a day after the game was made: no clock ran; alice is to move.
        clocks.record(&at(DAY), bob, &other(), (None, Some(alice)), true);
        assert_eq!(
            clocks.deadline(),
            Some((alice, (1_800_000_000 + 4 * DAY) as i64))
        );
        // alice moves after two days; bob offers a draw at once, his turn goes on.
        clocks.record(
            &at(3 * DAY),
            alice,
            &moved(),
            (Some(alice), Some(bob)),
            true,
        );
        assert_eq!(clocks.used(alice), 2 * DAY);
        assert_eq!(clocks.left(alice), (3 * DAY) as i64, "a whole turn, later");
        clocks.record(
            &at(3 * DAY + 60),
            alice,
            &other(),
            (Some(bob), Some(bob)),
            false,
        );
        assert_eq!(clocks.used(bob), 60);
        assert_eq!(
            clocks.deadline(),
            Some((bob, (1_800_000_000 + 6 * DAY) as i64)),
            "alice's offer does not set bob's turn again"
        );
        // bob moves a day late: overdue, and the clock says by how much.
        clocks.record(&at(7 * DAY), bob, &moved(), (Some(bob), Some(alice)), true);
        assert_eq!(clocks.used(bob), 4 * DAY);
        clocks.record(
            &at(11 * DAY),
            alice,
            &moved(),
            (Some(alice), Some(bob)),
            true,
        );
        assert_eq!(clocks.left(alice), (3 * DAY) as i64);
        clocks.record(&at(11 * DAY), bob, &other(), (Some(bob), None), false);
        assert_eq!(clocks.deadline(), None, "over: no one is awaited");
    }

    #[test]
    fn a_block_keeps_time_saved_and_grows_by_a_block_each_block_of_moves() {
        let mut clocks = Clocks::new(TimeControl::Block { moves: 2, days: 10 }, 0, &at(0));
        let (alice, bob) = (Seat::Creator, Seat::Opponent);
        clocks.record(&at(0), bob, &other(), (None, Some(alice)), true);
        let mut now = 0;
        // alice takes 1, 2 and 3 days for her first three moves, bob 1 day each.
        for days in [1, 2, 3] {
            now += days * DAY;
            clocks.record(&at(now), alice, &moved(), (Some(alice), Some(bob)), true);
            now += DAY;
            clocks.record(&at(now), bob, &moved(), (Some(bob), Some(alice)), true);
        }
        assert_eq!(clocks.used(alice), 6 * DAY);
        // Three moves made: the second block's 10 days are hers, 14 days left of 20.
        assert_eq!(clocks.left(alice), (14 * DAY) as i64);
        assert_eq!(clocks.left(bob), (17 * DAY) as i64);
        assert_eq!(
            clocks.deadline(),
            Some((alice, (1_800_000_000 + now + 14 * DAY) as i64))
        );
        // She spends 15 days on her fourth move, a day past her time (which a claim would have
        // ended the game for); moved, she has the third block: 30 days less 21 used.
        now += 15 * DAY;
        clocks.record(&at(now), alice, &moved(), (Some(alice), Some(bob)), true);
        assert_eq!(clocks.used(alice), 21 * DAY);
        assert_eq!(clocks.left(alice), (9 * DAY) as i64);
    }
}
