//! A game's time control, as its header states it: the terms both players agree to by creating
//! and accepting the game. No control means no clock, as before time controls existed.
//!
//! Two forms, those of the correspondence services players know: a number of days for each
//! move, the clock set again after every turn (lichess and chess.com "daily" games); and a
//! number of moves in a number of days, time saved carried over to the next block (ICCF's "10
//! moves in 50 days"). The terms may also give each player days of leave for the game, which
//! they take with signed `leave` records and which stop their clock. What a clock charges, and
//! when, is the replayer's business ([`crate::replay`]); this module only reads and writes the
//! terms.

use serde::Deserialize;
use std::fmt;

/// The most days a time control may name: a year.
pub const MAX_DAYS: u32 = 365;
/// The most moves a block may hold.
pub const MAX_MOVES: u32 = 100;
/// The most days of leave a player may have for a game.
pub const MAX_LEAVE_DAYS: u32 = 365;

/// The time each player has, as the header states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// `days` days for each turn, counted from the record that gave the turn; time not used is
    /// not kept.
    PerMove {
        /// Days a turn (1 to [`MAX_DAYS`]).
        days: u32,
    },
    /// `days` days for the first `moves` moves, and `days` more for each `moves` moves after;
    /// time not used is kept.
    Block {
        /// Moves a block (1 to [`MAX_MOVES`]).
        moves: u32,
        /// Days a block (1 to [`MAX_DAYS`]).
        days: u32,
    },
}

impl TimeControl {
    /// The header's lines for it, after a `time-control:` line.
    pub(crate) fn lines(self) -> String {
        match self {
            TimeControl::PerMove { days } => format!("  days-per-move: {days}\n"),
            TimeControl::Block { moves, days } => format!("  moves: {moves}\n  days: {days}\n"),
        }
    }

    /// Reads the terms as a command line gives them: `3/move` or `10/50` (moves / days).
    ///
    /// # Errors
    /// What is wrong, in words.
    pub fn parse_terms(text: &str) -> Result<TimeControl, String> {
        let (left, right) = text.split_once('/').ok_or_else(|| {
            format!(
                "`{}` is not a time control: write DAYS/move, or MOVES/DAYS",
                crate::text::shown(text)
            )
        })?;
        let number = |s: &str, what: &str| {
            s.parse::<u32>()
                .ok()
                .filter(|n| n.to_string() == s)
                .ok_or_else(|| {
                    format!(
                        "`{}` is not a time control: `{}` is not a number of {what}; write \
                         DAYS/move, or MOVES/DAYS",
                        crate::text::shown(text),
                        crate::text::shown(s)
                    )
                })
        };
        let control = if right == "move" {
            TimeControl::PerMove {
                days: number(left, "days")?,
            }
        } else {
            TimeControl::Block {
                moves: number(left, "moves")?,
                days: number(right, "days")?,
            }
        };
        control.check()?;
        Ok(control)
    }

    /// Checks that the numbers are within bounds.
    fn check(self) -> Result<(), String> {
        let days = match self {
            TimeControl::PerMove { days } | TimeControl::Block { days, .. } => days,
        };
        if !(1..=MAX_DAYS).contains(&days) {
            return Err(format!(
                "a time control gives 1 to {MAX_DAYS} days, not {days}"
            ));
        }
        if let TimeControl::Block { moves, .. } = self
            && !(1..=MAX_MOVES).contains(&moves)
        {
            return Err(format!(
                "a block of a time control holds 1 to {MAX_MOVES} moves, not {moves}"
            ));
        }
        Ok(())
    }

    /// The seconds in `days` days.
    #[must_use]
    pub fn seconds(days: u32) -> u64 {
        u64::from(days) * 86_400
    }
}

/// In words: `3 days per move`, `10 moves in 50 days`.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural =
            |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        match *self {
            TimeControl::PerMove { days } => {
                write!(f, "{} per move", plural(days, "day", "days"))
            }
            TimeControl::Block { moves, days } => write!(
                f,
                "{} in {}",
                plural(moves, "move", "moves"),
                plural(days, "day", "days")
            ),
        }
    }
}

/// The header's line for each player's days of leave, when there are any.
pub(crate) fn leave_line(days: u32) -> String {
    if days == 0 {
        String::new()
    } else {
        format!("  leave-days: {days}\n")
    }
}

/// Checks days of leave given on a command line: 1 to [`MAX_LEAVE_DAYS`].
///
/// # Errors
/// What is wrong, in words.
pub fn parse_leave_days(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|n| n.to_string() == text && (1..=MAX_LEAVE_DAYS).contains(n))
        .ok_or_else(|| format!("`{text}` is not a number of days from 1 to {MAX_LEAVE_DAYS}"))
}

/// The `time-control` mapping as YAML holds it, before it is checked.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTimeControl {
    #[serde(rename = "days-per-move", default)]
    days_per_move: Option<u32>,
    #[serde(default)]
    moves: Option<u32>,
    #[serde(default)]
    days: Option<u32>,
    #[serde(rename = "leave-days", default)]
    leave_days: Option<u32>,
}

impl RawTimeControl {
    /// The terms, and each player's days of leave (0: none), once checked: one form of terms,
    /// and every number within its bounds.
    ///
    /// # Errors
    /// What is wrong, in words.
    pub(crate) fn validate(self) -> Result<(TimeControl, u32), String> {
        let leave = match self.leave_days {
            None => 0,
            Some(days) if (1..=MAX_LEAVE_DAYS).contains(&days) => days,
            Some(days) => {
                return Err(format!(
                    "`time-control`: `leave-days` is 1 to {MAX_LEAVE_DAYS}, not {days}"
                ));
            }
        };
        let control = match (self.days_per_move, self.moves, self.days) {
            (Some(days), None, None) => TimeControl::PerMove { days },
            (None, Some(moves), Some(days)) => TimeControl::Block { moves, days },
            _ => {
                return Err(
                    "`time-control` holds either `days-per-move`, or `moves` and `days`".into(),
                );
            }
        };
        control
            .check()
            .map_err(|e| format!("`time-control`: {e}"))?;
        Ok((control, leave))
    }
}

#[cfg(test)]
mod tests {
    use super::TimeControl;

    #[test]
    fn terms_are_read_in_one_spelling_and_said_in_words() {
        let per_move = TimeControl::parse_terms("3/move").expect("per move");
        assert_eq!(per_move, TimeControl::PerMove { days: 3 });
        assert_eq!(per_move.to_string(), "3 days per move");
        assert_eq!(per_move.lines(), "  days-per-move: 3\n");
        let block = TimeControl::parse_terms("10/50").expect("a block");
        assert_eq!(
            block,
            TimeControl::Block {
                moves: 10,
                days: 50
            }
        );
        assert_eq!(block.to_string(), "10 moves in 50 days");
        assert_eq!(block.lines(), "  moves: 10\n  days: 50\n");
        assert_eq!(
            TimeControl::parse_terms("1/1").map(|c| c.to_string()),
            Ok("1 move in 1 day".into())
        );
        for (bad, why) in [
            (
                "3",
                "`3` is not a time control: write DAYS/move, or MOVES/DAYS",
            ),
            (
                "03/move",
                "`03/move` is not a time control: `03` is not a number of days; write DAYS/move, or MOVES/DAYS",
            ),
            ("0/move", "a time control gives 1 to 365 days, not 0"),
            ("366/move", "a time control gives 1 to 365 days, not 366"),
            (
                "10/x",
                "`10/x` is not a time control: `x` is not a number of days; write DAYS/move, or MOVES/DAYS",
            ),
            (
                "101/50",
                "a block of a time control holds 1 to 100 moves, not 101",
            ),
            (
                "+3/move",
                "`+3/move` is not a time control: `+3` is not a number of days; write DAYS/move, or MOVES/DAYS",
            ),
            (
                "/move",
                "`/move` is not a time control: `` is not a number of days; write DAYS/move, or \
                 MOVES/DAYS",
            ),
            (
                "3/move/",
                "`3/move/` is not a time control: `move/` is not a number of days; write \
                 DAYS/move, or MOVES/DAYS",
            ),
        ] {
            assert_eq!(TimeControl::parse_terms(bad), Err(why.into()), "{bad}");
        }
    }
}
