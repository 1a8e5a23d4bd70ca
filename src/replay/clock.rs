//! The players' clocks, from the times in the signed records alone: no server keeps them, so
//! anyone can check them, afterwards, from the file.
//!
//! The time between two records is charged to the player the game was waiting for after the
//! first of them: the player to move, or to commit, answer or reveal a coin flip, or to choose
//! after the toss. Nothing is charged before the opponent accepts (accepting is not owed) nor
//! after the end. A record made by the player who is not awaited (an offer while the opponent
//! thinks) changes nobody's clock. Times are the signers' own (see docs/file-format.md, "Time
//! controls", for what that means and how a referee repository witnesses them); the file's
//! times never go backwards, which the chain check enforces.

use super::Seat;
use crate::log::{TimeControl, Timestamp};

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
    /// The seat the game waits for, with a clock running, and when its turn began.
    turn: Option<(Seat, u64)>,
}

impl Clocks {
    /// Clocks stopped, as a game is before its opponent accepts: nothing charged yet.
    pub(super) fn new(control: TimeControl, created: &Timestamp) -> Clocks {
        Clocks {
            control,
            used: [0, 0],
            moves: [0, 0],
            last: created.to_unix(),
            turn: None,
        }
    }

    /// Charges the time up to a record made at `time` by `signer`, `before` being the seat the
    /// game waited for with a clock running (if any), and `after` the one it waits for now.
    pub(super) fn record(
        &mut self,
        time: &Timestamp,
        signer: Seat,
        moved: bool,
        before: Option<Seat>,
        after: Option<Seat>,
    ) {
        let time = time.to_unix();
        if let Some(seat) = before {
            self.used[seat] += time.saturating_sub(self.last);
        }
        if moved {
            self.moves[signer] += 1;
        }
        self.last = time;
        // A turn begins when the game comes to wait for another player, or when the awaited
        // player acted and is awaited again; another player's record does not end it.
        self.turn = match (after, self.turn) {
            (None, _) => None,
            (Some(seat), Some((was, began))) if was == seat && signer != seat => {
                Some((seat, began))
            }
            (Some(seat), _) => Some((seat, time)),
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
                Some((awaited, began)) if awaited == seat => {
                    signed(began + TimeControl::seconds(days)) - signed(self.last)
                }
                _ => signed(TimeControl::seconds(days)),
            },
            TimeControl::Block { moves, days } => {
                let blocks = u64::from(self.moves[seat] / moves) + 1;
                signed(blocks * TimeControl::seconds(days)) - signed(self.used[seat])
            }
        }
    }

    /// The player the game waits for with a clock running, and the moment their time runs
    /// out, in seconds since 1970 (before the last record's time when already overdue).
    #[must_use]
    pub fn deadline(&self) -> Option<(Seat, i64)> {
        let (seat, _) = self.turn?;
        let last = i64::try_from(self.last).unwrap_or(i64::MAX);
        Some((seat, last.saturating_add(self.left(seat))))
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

    fn at(seconds: u64) -> Timestamp {
        Timestamp::from_unix(1_800_000_000 + seconds)
    }

    #[test]
    fn a_time_per_move_is_set_again_each_turn_and_not_kept() {
        let mut clocks = Clocks::new(TimeControl::PerMove { days: 3 }, &at(0));
        let (alice, bob) = (Seat::Creator, Seat::Opponent);
        // bob accepts a day after the game was made: no clock ran; alice is to move.
        clocks.record(&at(DAY), bob, false, None, Some(alice));
        assert_eq!(
            clocks.deadline(),
            Some((alice, (1_800_000_000 + 4 * DAY) as i64))
        );
        // alice moves after two days; bob offers a draw at once, his turn goes on.
        clocks.record(&at(3 * DAY), alice, true, Some(alice), Some(bob));
        assert_eq!(clocks.used(alice), 2 * DAY);
        assert_eq!(clocks.left(alice), (3 * DAY) as i64, "a whole turn, later");
        clocks.record(&at(3 * DAY + 60), alice, false, Some(bob), Some(bob));
        assert_eq!(clocks.used(bob), 60);
        assert_eq!(
            clocks.deadline(),
            Some((bob, (1_800_000_000 + 6 * DAY) as i64)),
            "alice's offer does not set bob's turn again"
        );
        // bob moves a day late: overdue, and the clock says by how much.
        clocks.record(&at(7 * DAY), bob, true, Some(bob), Some(alice));
        assert_eq!(clocks.used(bob), 4 * DAY);
        clocks.record(&at(11 * DAY), alice, true, Some(alice), Some(bob));
        assert_eq!(clocks.left(alice), (3 * DAY) as i64);
        clocks.record(&at(11 * DAY), bob, false, Some(bob), None);
        assert_eq!(clocks.deadline(), None, "over: no one is awaited");
    }

    #[test]
    fn a_block_keeps_time_saved_and_grows_by_a_block_each_block_of_moves() {
        let mut clocks = Clocks::new(TimeControl::Block { moves: 2, days: 10 }, &at(0));
        let (alice, bob) = (Seat::Creator, Seat::Opponent);
        clocks.record(&at(0), bob, false, None, Some(alice));
        let mut now = 0;
        // alice takes 1, 2 and 3 days for her first three moves, bob 1 day each.
        for days in [1, 2, 3] {
            now += days * DAY;
            clocks.record(&at(now), alice, true, Some(alice), Some(bob));
            now += DAY;
            clocks.record(&at(now), bob, true, Some(bob), Some(alice));
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
        clocks.record(&at(now), alice, true, Some(alice), Some(bob));
        assert_eq!(clocks.used(alice), 21 * DAY);
        assert_eq!(clocks.left(alice), (9 * DAY) as i64);
    }
}
