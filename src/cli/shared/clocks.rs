//! The clocks of a game with a time control, as the commands say them: each player's time used
//! and left, and the deadline of the player the game waits for, measured against now. The
//! replayer computes the clocks from the file alone; only here is the clock of this machine read.

use correspond::log::{TimeControl, Timestamp};
use correspond::replay::{Clocks, Player, Seat};
use std::fmt::Display;

/// The lines `status` prints for a game with clocks: the terms, the clocks and the deadline,
/// this last measured against `now`.
pub(crate) fn lines<S: Display>(
    clocks: &Clocks,
    seats: &[Player<S>; 2],
    now: &Timestamp,
    file: &str,
) -> Vec<String> {
    let names = seats.each_ref().map(ToString::to_string);
    let mut lines = vec![
        format!("time control: {}", terms(clocks)),
        format!("clocks: {} (as of the last record)", each(clocks, &names)),
    ];
    if clocks.leave_days() > 0 {
        lines.push(format!("leave: {}", leave(clocks, &names, Some(now))));
    }
    if let Some((seat, at)) = clocks.deadline() {
        let now = i64::try_from(now.to_unix()).unwrap_or(i64::MAX);
        // A claim must be dated after the deadline: at the deadline itself there is none yet.
        let when = if at >= now {
            format!("in {}", duration(at - now))
        } else {
            format!(
                "passed {} ago: {} may claim the game on time with `correspond claim-timeout \
                 {}`",
                duration(now - at),
                names[seat.other().index()],
                correspond::text::shell_word(file)
            )
        };
        lines.push(format!(
            "deadline: {} must act by {} ({when})",
            names[seat.index()],
            deadline(clocks)
        ));
    }
    lines
}

/// The line `verify` prints for a game with clocks: what the file says, with no now.
pub(crate) fn summary(clocks: &Clocks, names: &[String; 2]) -> String {
    let mut line = format!("{}: {}", terms(clocks), each(clocks, names));
    if clocks.leave_days() > 0 {
        line.push_str(&format!("; leave: {}", leave(clocks, names, None)));
    }
    if let Some((seat, _)) = clocks.deadline() {
        line.push_str(&format!(
            "; {} must act by {}",
            names[seat.index()],
            deadline(clocks)
        ));
    }
    line
}

/// The terms, in words.
fn terms(clocks: &Clocks) -> String {
    let control = clocks.control();
    let kept = match control {
        TimeControl::PerMove { .. } => "time not used not kept",
        TimeControl::Block { .. } => "time saved carried over",
    };
    match clocks.leave_days() {
        0 => format!("{control}, {kept}"),
        1 => format!("{control}, {kept}, a day of leave each"),
        days => format!("{control}, {kept}, {days} days of leave each"),
    }
}

/// Each player's leave left, and a leave under way as of the last record: said as ended where
/// `now` is past its end.
fn leave(clocks: &Clocks, names: &[String; 2], now: Option<&Timestamp>) -> String {
    Seat::BOTH
        .iter()
        .map(|&seat| {
            let left = duration(i64::try_from(clocks.leave_left(seat)).unwrap_or(i64::MAX));
            let name = &names[seat.index()];
            match clocks.on_leave_until(seat) {
                Some(until) if now.is_some_and(|now| *now >= until) => {
                    format!("{name} {left} left (a leave ended {})", until.as_str())
                }
                Some(until) => format!("{name} on leave until {}, {left} left", until.as_str()),
                None => format!("{name} {left} left"),
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Each player's time used, and while a clock runs, left.
fn each(clocks: &Clocks, names: &[String; 2]) -> String {
    let running = clocks.deadline().is_some();
    Seat::BOTH
        .iter()
        .map(|&seat| {
            let used = duration(i64::try_from(clocks.used(seat)).unwrap_or(i64::MAX));
            let name = &names[seat.index()];
            if running {
                format!("{name} {used} used, {} left", duration(clocks.left(seat)))
            } else {
                format!("{name} {used} used")
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The awaited player's deadline, as a record would write the time.
fn deadline(clocks: &Clocks) -> String {
    clocks
        .deadline_time()
        .map(|(_, at)| at.as_str().to_owned())
        .unwrap_or_default()
}

/// A length of time in days, hours and minutes: `2d 3h 5m`, `40m`, `-1d 2h` when overdue.
pub(crate) fn duration(seconds: i64) -> String {
    let sign = if seconds < 0 { "-" } else { "" };
    let minutes = seconds.unsigned_abs() / 60;
    let (days, hours, minutes) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    let parts: Vec<String> = [(days, "d"), (hours, "h"), (minutes, "m")]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, unit)| format!("{n}{unit}"))
        .collect();
    if parts.is_empty() {
        "0m".to_owned()
    } else {
        format!("{sign}{}", parts.join(" "))
    }
}

/// The clocks of a game with a time control: the terms, each seat's seconds used and left as
/// of the last record (creator first; negative when overdue), and the awaited seat's deadline.
#[derive(serde::Serialize)]
pub(crate) struct ClockReport {
    time_control: TermsReport,
    used_seconds: [u64; 2],
    /// `None` once no clock runs (before the acceptance, after the end).
    left_seconds: Option<[i64; 2]>,
    deadline: Option<DeadlineReport>,
    leave_days: u32,
    leave_left_seconds: [u64; 2],
    on_leave_until: [Option<String>; 2],
}

#[derive(serde::Serialize)]
#[serde(untagged)]
enum TermsReport {
    PerMove { days_per_move: u32 },
    Block { moves: u32, days: u32 },
}

#[derive(serde::Serialize)]
struct DeadlineReport {
    /// 0: the creator, 1: the opponent.
    seat: usize,
    time: String,
}

impl ClockReport {
    pub(crate) fn of(clocks: &correspond::replay::Clocks) -> ClockReport {
        use correspond::log::TimeControl;
        use correspond::replay::Seat;
        ClockReport {
            time_control: match clocks.control() {
                TimeControl::PerMove { days } => TermsReport::PerMove {
                    days_per_move: days,
                },
                TimeControl::Block { moves, days } => TermsReport::Block { moves, days },
            },
            used_seconds: Seat::BOTH.map(|s| clocks.used(s)),
            left_seconds: clocks
                .deadline()
                .map(|_| Seat::BOTH.map(|s| clocks.left(s))),
            leave_days: clocks.leave_days(),
            leave_left_seconds: Seat::BOTH.map(|s| clocks.leave_left(s)),
            on_leave_until: Seat::BOTH
                .map(|s| clocks.on_leave_until(s).map(|t| t.as_str().to_owned())),
            deadline: clocks.deadline_time().map(|(seat, at)| DeadlineReport {
                seat: seat.index(),
                time: at.as_str().to_owned(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::duration;

    #[test]
    fn durations_are_days_hours_and_minutes() {
        assert_eq!(duration(0), "0m");
        assert_eq!(duration(59), "0m");
        assert_eq!(duration(60), "1m");
        assert_eq!(duration(3 * 86_400 + 3_600 * 2 + 300), "3d 2h 5m");
        assert_eq!(duration(86_400), "1d");
        assert_eq!(duration(-(86_400 + 7_200)), "-1d 2h");
    }
}
