//! Lists worked from the paper's example and by hand, and the promises of a list: the same from
//! the games in any order, another digest from other games or other parameters.

use super::{List, ListError, RatedGame, System, list};
use crate::digest::Digest;
use crate::ratings::Score;
use crate::ratings::glicko2::Rating;

const DAY: i64 = 86_400;

fn key(name: &str) -> Digest {
    Digest::of(name.as_bytes())
}

fn game(n: u8, ended: i64, white: &str, black: &str, score: Score) -> RatedGame {
    RatedGame {
        id: Digest::of(&[n]),
        ended,
        white: key(white),
        black: key(black),
        score,
    }
}

fn rating_of(list: &List, name: &str) -> (f64, Option<f64>, u32) {
    let entry = list
        .entries
        .iter()
        .find(|e| e.key == key(name))
        .expect("on the list");
    (entry.rating, entry.deviation, entry.games)
}

/// Elo, one period: a and b new at 2000 (K 40). a beats b: each expected ½, a +20, b −20.
/// Next period (K 40 still, one game rated): a 2020 draws c, new at 2000: a's expected score
/// 1 / (1 + 10^(−20/400)) = 1 / 1.8912509 = 0.5287506, so a −40 × 0.0287506 = −1.150023, c
/// +1.150023.
#[test]
fn elo_period_by_period() {
    let games = [
        game(1, DAY, "a", "b", Score::Win),
        game(2, 2 * DAY + 5, "c", "a", Score::Draw),
    ];
    let system = System::Elo {
        initial: 2000.0,
        period: DAY,
    };
    let made = list(&games, &system).expect("a list");
    let (a, _, a_games) = rating_of(&made, "a");
    assert!((a - (2020.0 - 1.150_023)).abs() < 1e-5, "{a}");
    assert_eq!(a_games, 2);
    assert!((rating_of(&made, "b").0 - 1980.0).abs() < 1e-9);
    assert!((rating_of(&made, "c").0 - 2_001.150_023).abs() < 1e-5);
    let order: Vec<Digest> = made.entries.iter().map(|e| e.key).collect();
    assert_eq!(order, [key("a"), key("c"), key("b")]);
}

/// Glicko-2: in one period, each player's games against their opponents' ratings at its start,
/// whoever had White, in any order; the next period starts from the ratings the first made,
/// and a player with no game in a period only widens their deviation.
#[test]
fn glicko2_period_by_period() {
    use crate::ratings::glicko2::period;
    let initial = Rating {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
    };
    let system = System::Glicko2 {
        tau: 0.5,
        initial,
        period: DAY,
    };
    let games = [
        game(1, 10, "me", "x", Score::Win),
        game(2, 20, "y", "me", Score::Win),
        game(3, 30, "z", "me", Score::Win),
    ];
    let once = list(&games, &system).expect("a list");
    let mut reversed = games;
    reversed.reverse();
    assert_eq!(list(&reversed, &system).expect("a list"), once);
    let three = [
        (initial, Score::Win),
        (initial, Score::Loss),
        (initial, Score::Loss),
    ];
    let me = period(initial, &three, 0.5).expect("a rating").rating;
    assert_eq!(rating_of(&once, "me"), (me.rating, Some(me.deviation), 3));
    let x = period(initial, &[(initial, Score::Loss)], 0.5)
        .expect("a rating")
        .rating;
    assert_eq!(rating_of(&once, "x"), (x.rating, Some(x.deviation), 1));
    // A second period, two days on: me draws x, each against the other's rating after the
    // first; y and z, who do not play in it or in the empty day between, only widen.
    let mut later = games.to_vec();
    later.push(game(4, 2 * DAY + 1, "x", "me", Score::Draw));
    let twice = list(&later, &system).expect("a list");
    let idle = |r: Rating| period(r, &[], 0.5).expect("a rating").rating;
    let me_idle = idle(me);
    let x_idle = idle(x);
    let me_after = period(me_idle, &[(x_idle, Score::Draw)], 0.5)
        .expect("a rating")
        .rating;
    assert_eq!(
        rating_of(&twice, "me"),
        (me_after.rating, Some(me_after.deviation), 4)
    );
    let y = period(initial, &[(initial, Score::Win)], 0.5)
        .expect("a rating")
        .rating;
    let y_after = idle(idle(y));
    assert_eq!(
        rating_of(&twice, "y"),
        (y_after.rating, Some(y_after.deviation), 1)
    );
}

#[test]
fn the_digests_name_the_games_and_the_parameters() {
    let games = [
        game(1, DAY, "a", "b", Score::Win),
        game(2, 2 * DAY, "c", "a", Score::Draw),
    ];
    let elo = System::Elo {
        initial: 2000.0,
        period: DAY,
    };
    let all = list(&games, &elo).expect("a list");
    let fewer = list(&games[..1], &elo).expect("a list");
    assert_ne!(all.inputs, fewer.inputs);
    assert_eq!(all.parameters, fewer.parameters);
    let other = System::Elo {
        initial: 1500.0,
        period: DAY,
    };
    assert_ne!(
        list(&games, &other).expect("a list").parameters,
        all.parameters
    );
    let mut changed = games;
    changed[1].score = Score::Win;
    assert_ne!(list(&changed, &elo).expect("a list").inputs, all.inputs);
}

#[test]
fn a_game_twice_or_of_one_key_is_refused() {
    let elo = System::Elo {
        initial: 2000.0,
        period: DAY,
    };
    let one = game(1, DAY, "a", "b", Score::Win);
    assert_eq!(
        list(&[one, one], &elo),
        Err(ListError::Twice(Digest::of(&[1]).short()))
    );
    let alone = game(2, DAY, "a", "a", Score::Draw);
    assert_eq!(
        list(&[alone], &elo),
        Err(ListError::OneKey(Digest::of(&[2]).short()))
    );
    let no_period = System::Elo {
        initial: 2000.0,
        period: 0,
    };
    assert_eq!(list(&[one], &no_period), Err(ListError::Period));
    assert_eq!(list(&[], &elo).expect("an empty list").entries, []);
}

/// A game dated far ahead (its ending record's time is its signer's word) costs no more to rate
/// than one the next day, and leaves no deviation above a new player's.
#[test]
fn a_game_dated_far_ahead_costs_nothing_and_no_deviation_passes_a_strangers() {
    let glicko = System::Glicko2 {
        tau: 0.5,
        initial: Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        },
        period: DAY,
    };
    let games = [
        game(1, DAY, "a", "b", Score::Win),
        game(2, 2 * DAY, "b", "c", Score::Draw),
        // 9999-12-30: about 2.9 million daily periods later.
        game(3, 253_402_128_000, "c", "a", Score::Loss),
    ];
    let started = std::time::Instant::now();
    let made = list(&games, &glicko).expect("a list");
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
    for entry in &made.entries {
        let deviation = entry.deviation.expect("Glicko-2");
        assert!(deviation <= 350.0, "{entry:?}");
        assert!(entry.rating > 1000.0 && entry.rating < 2000.0, "{entry:?}");
    }
    // The idle periods at once are the periods one by one, to the last bits the square root
    // of a sum rounds.
    let one = Rating {
        rating: 1500.0,
        deviation: 50.0,
        volatility: 0.06,
    };
    let mut stepped = one;
    for _ in 0..10 {
        stepped = crate::ratings::glicko2::period(stepped, &[], 0.5)
            .expect("a rating")
            .rating;
    }
    let at_once = crate::ratings::glicko2::idle(one, 10, 350.0);
    assert!(
        (stepped.deviation - at_once.deviation).abs() < 1e-9,
        "{stepped:?} {at_once:?}"
    );
    assert_eq!(
        crate::ratings::glicko2::idle(one, 1_000_000, 350.0).deviation,
        350.0
    );
}

/// The history a chart draws: a point for each period a player played in, at the period's end,
/// and the list's own figures last (under Glicko-2, a deviation that widened while the player
/// sat out the last period is a point at that period's end).
#[test]
fn the_history_has_a_point_per_period_played_ending_at_the_list() {
    let games = [
        game(1, DAY, "a", "b", Score::Win),
        game(2, 2 * DAY + 5, "c", "a", Score::Draw),
        game(3, 4 * DAY, "b", "c", Score::Loss),
    ];
    for system in [
        System::Elo {
            initial: 2000.0,
            period: DAY,
        },
        System::Glicko2 {
            tau: 0.5,
            initial: Rating {
                rating: 1500.0,
                deviation: 350.0,
                volatility: 0.06,
            },
            period: DAY,
        },
    ] {
        let (made, history) = super::list_with_history(&games, &system).expect("a list");
        assert_eq!(made, list(&games, &system).expect("a list"));
        let ends = |name: &str| -> Vec<i64> { history[&key(name)].iter().map(|p| p.end).collect() };
        let widened = matches!(system, System::Glicko2 { .. });
        let a: &[i64] = if widened {
            &[2 * DAY, 3 * DAY, 5 * DAY]
        } else {
            &[2 * DAY, 3 * DAY]
        };
        assert_eq!(ends("a"), a);
        assert_eq!(ends("b"), [2 * DAY, 5 * DAY]);
        assert_eq!(ends("c"), [3 * DAY, 5 * DAY]);
        for entry in &made.entries {
            let last = history[&entry.key].last().expect("a point");
            assert_eq!(
                (last.rating.to_bits(), last.deviation.map(f64::to_bits)),
                (entry.rating.to_bits(), entry.deviation.map(f64::to_bits))
            );
        }
    }
}
