//! Time controls in the replayer: times that never go backwards, and claims on time.

use super::*;

#[test]
fn under_a_time_control_times_never_go_backwards_and_claims_wait_for_the_deadline() {
    use crate::log::TimeControl;
    let per_move = Some(TimeControl::PerMove { days: 1 });
    // The header is dated 2026-01-01T00:00:00Z; a record before it, or before the record it
    // follows, is refused; the same time again is not.
    let timed = || {
        Builder::with_clock(per_move)
            .at("2026-01-02T00:00:00Z")
            .started()
    };
    let backwards = timed().error_after(|b| b.at("2026-01-01T23:59:59Z").moves("a2a3"));
    assert_eq!(
        backwards.to_string(),
        "dated 2026-01-01T23:59:59Z, before the document it follows (2026-01-02T00:00:00Z): \
         the times of a game file never go backwards"
    );
    timed().moves("a2a3").replay().expect("the same time again");
    // Without a time control the times are only said: the same file, untimed, is valid.
    Builder::new()
        .at("2026-01-02T00:00:00Z")
        .started()
        .at("2026-01-01T00:00:01Z")
        .moves("a2a3")
        .replay()
        .expect("an untimed game's times are informational");
    let claim = |b: Builder, seat: usize| b.add(seat, Action::ClaimTimeout);
    assert_eq!(
        Builder::new().started().error_after(|b| claim(b, 1)),
        ErrorKind::Protocol(ProtocolError::NoClock)
    );
    // alice (heads) is to move from 2026-01-02 with a day per move: bob may claim after it.
    assert_eq!(
        timed().error_after(|b| claim(b.at("2026-01-03T00:00:00Z"), 1)),
        ErrorKind::Protocol(ProtocolError::NotLate {
            late: "alice (heads)".into(),
            deadline: Timestamp::parse("2026-01-03T00:00:00Z").expect("time"),
        })
    );
    assert_eq!(
        timed().error_after(|b| claim(b.at("2026-01-04T00:00:00Z"), 0)),
        ErrorKind::Protocol(ProtocolError::OwnClock {
            by: "alice (heads)".into()
        })
    );
    let won = claim(timed().at("2026-01-03T00:00:01Z"), 1)
        .replay()
        .expect("a claim after the deadline");
    assert_eq!(
        won.verdict(),
        Some(&Verdict {
            winner: Some(Seat::Opponent),
            ending: Ending::Timeout(Seat::Creator)
        })
    );
}

#[test]
fn leave_is_one_at_a_time_and_within_the_days_the_header_gives() {
    use crate::log::TimeControl;
    // The builder's header gives each player two days of leave.
    let timed = || {
        Builder::with_clock(Some(TimeControl::PerMove { days: 1 }))
            .at("2026-01-02T00:00:00Z")
            .started()
    };
    let leave = |b: Builder, seat: usize, days: u32| b.add(seat, Action::Leave(days));
    assert_eq!(
        Builder::new().started().error_after(|b| leave(b, 0, 1)),
        ErrorKind::Protocol(ProtocolError::NoClock)
    );
    assert_eq!(
        timed().error_after(|b| leave(leave(b, 0, 1), 0, 1)),
        ErrorKind::Protocol(ProtocolError::OnLeave {
            by: "alice (heads)".into(),
            until: Timestamp::parse("2026-01-03T00:00:00Z").expect("time"),
        })
    );
    assert_eq!(
        timed().error_after(|b| leave(b, 1, 3)),
        ErrorKind::Protocol(ProtocolError::LeaveTooLong {
            by: "bob (tails)".into(),
            days: 3,
            left: 2 * 86_400,
        })
    );
    assert_eq!(
        ProtocolError::LeaveTooLong {
            by: "bob (tails)".into(),
            days: 3,
            left: 86_400 + 7_200,
        }
        .to_string(),
        "bob (tails) asks for 3 days of leave, but has 1 day 2 hours left"
    );
    // alice, to move, takes a day of leave: a claim on time waits for her deadline, a day later.
    let on_leave = leave(timed(), 0, 1).at("2026-01-03T12:00:00Z");
    assert_eq!(
        on_leave.error_after(|b| b.add(1, Action::ClaimTimeout)),
        ErrorKind::Protocol(ProtocolError::NotLate {
            late: "alice (heads)".into(),
            deadline: Timestamp::parse("2026-01-04T00:00:00Z").expect("time"),
        })
    );
}

#[test]
fn an_offer_by_the_late_player_neither_answers_a_claim_nor_begins_a_turn() {
    use crate::log::{Settlement, TimeControl};
    // alice (heads) is to move from 2026-01-02 with a day per move; she offers a Run-Off an
    // hour before her deadline, and is still to move: her turn goes on, and so does her clock.
    let offered = Builder::with_clock(Some(TimeControl::PerMove { days: 1 }))
        .at("2026-01-02T00:00:00Z")
        .started()
        .at("2026-01-02T23:00:00Z")
        .add(0, Action::Offer(Settlement::RunOff));
    let claimed = offered
        .at("2026-01-03T00:00:01Z")
        .add(1, Action::ClaimTimeout)
        .replay()
        .expect("the deadline stands");
    assert_eq!(
        claimed.verdict().map(|v| (v.winner, &v.ending)),
        Some((Some(Seat::Opponent), &Ending::Timeout(Seat::Creator)))
    );
}
