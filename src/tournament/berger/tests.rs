//! The closed form against FIDE's published tables (Handbook C.05, Annex 1, as Chris Fox's
//! chess pages print them), board by board, for 4 to 14 players.

use super::{Schedule, ScheduleError, double, single};

/// A table as printed: one line a round, `white-black` games.
fn table(text: &str) -> Vec<Vec<(usize, usize)>> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|line| {
            line.split(", ")
                .map(|game| {
                    let (w, b) = game.split_once('-').expect("white-black");
                    (w.parse().expect("a number"), b.parse().expect("a number"))
                })
                .collect()
        })
        .collect()
}

const FOUR: &str = "
    1-4, 2-3
    4-3, 1-2
    2-4, 3-1";

const SIX: &str = "
    1-6, 2-5, 3-4
    6-4, 5-3, 1-2
    2-6, 3-1, 4-5
    6-5, 1-4, 2-3
    3-6, 4-2, 5-1";

const EIGHT: &str = "
    1-8, 2-7, 3-6, 4-5
    8-5, 6-4, 7-3, 1-2
    2-8, 3-1, 4-7, 5-6
    8-6, 7-5, 1-4, 2-3
    3-8, 4-2, 5-1, 6-7
    8-7, 1-6, 2-5, 3-4
    4-8, 5-3, 6-2, 7-1";

const TEN: &str = "
    1-10, 2-9, 3-8, 4-7, 5-6
    10-6, 7-5, 8-4, 9-3, 1-2
    2-10, 3-1, 4-9, 5-8, 6-7
    10-7, 8-6, 9-5, 1-4, 2-3
    3-10, 4-2, 5-1, 6-9, 7-8
    10-8, 9-7, 1-6, 2-5, 3-4
    4-10, 5-3, 6-2, 7-1, 8-9
    10-9, 1-8, 2-7, 3-6, 4-5
    5-10, 6-4, 7-3, 8-2, 9-1";

const TWELVE: &str = "
    1-12, 2-11, 3-10, 4-9, 5-8, 6-7
    12-7, 8-6, 9-5, 10-4, 11-3, 1-2
    2-12, 3-1, 4-11, 5-10, 6-9, 7-8
    12-8, 9-7, 10-6, 11-5, 1-4, 2-3
    3-12, 4-2, 5-1, 6-11, 7-10, 8-9
    12-9, 10-8, 11-7, 1-6, 2-5, 3-4
    4-12, 5-3, 6-2, 7-1, 8-11, 9-10
    12-10, 11-9, 1-8, 2-7, 3-6, 4-5
    5-12, 6-4, 7-3, 8-2, 9-1, 10-11
    12-11, 1-10, 2-9, 3-8, 4-7, 5-6
    6-12, 7-5, 8-4, 9-3, 10-2, 11-1";

/// The first six rounds of the table for 14 players.
const FOURTEEN: &str = "
    1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8
    14-8, 9-7, 10-6, 11-5, 12-4, 13-3, 1-2
    2-14, 3-1, 4-13, 5-12, 6-11, 7-10, 8-9
    14-9, 10-8, 11-7, 12-6, 13-5, 1-4, 2-3
    3-14, 4-2, 5-1, 6-13, 7-12, 8-11, 9-10
    14-10, 11-9, 12-8, 13-7, 1-6, 2-5, 3-4";

#[test]
fn the_closed_form_is_fides_tables_board_by_board() {
    for (players, printed) in [(4, FOUR), (6, SIX), (8, EIGHT), (10, TEN), (12, TWELVE)] {
        assert_eq!(
            single(players).expect("a table").rounds,
            table(printed),
            "{players}"
        );
    }
    let fourteen = single(14).expect("a table").rounds;
    assert_eq!(fourteen.len(), 13);
    assert_eq!(fourteen[..6], table(FOURTEEN)[..], "14");
}

/// An odd number of players plays the next even table, the highest number a bye.
#[test]
fn an_odd_count_plays_the_next_table_with_a_bye() {
    for players in [5, 7, 9, 11, 13] {
        let odd = single(players).expect("a table").rounds;
        let even = single(players + 1).expect("a table").rounds;
        let without_bye: Vec<Vec<(usize, usize)>> =
            even.iter().map(|round| round[1..].to_vec()).collect();
        assert_eq!(odd, without_bye, "{players}");
    }
}

/// Every pair meets once, each player once a round, and the colours as balanced as an even
/// count allows (each player's whites and blacks differ by at most one).
#[test]
fn every_pair_meets_once_and_the_colours_balance() {
    for players in 2..=30 {
        let Schedule { rounds } = single(players).expect("a table");
        let mut met = std::collections::BTreeSet::new();
        let mut whites = vec![0i32; players + 1];
        for round in &rounds {
            let mut seen = std::collections::BTreeSet::new();
            for &(w, b) in round {
                assert!(
                    seen.insert(w) && seen.insert(b),
                    "{players}: twice in a round"
                );
                assert!(met.insert((w.min(b), w.max(b))), "{players}: {w}-{b} again");
                whites[w] += 1;
                whites[b] -= 1;
            }
        }
        assert_eq!(met.len(), players * (players - 1) / 2, "{players}");
        assert!(
            whites[1..].iter().all(|d| d.abs() <= 1),
            "{players}: {whites:?}"
        );
    }
}

/// A double round robin: the last two rounds of the first cycle swapped, the second cycle the
/// first with colours reversed, and nobody three times running with one colour where the first
/// cycle is FIDE's.
#[test]
fn a_double_round_robin_reverses_colours_and_swaps_the_first_cycles_last_rounds() {
    let single6 = single(6).expect("a table").rounds;
    let double6 = double(6).expect("a table").rounds;
    assert_eq!(double6.len(), 10);
    assert_eq!(double6[3], single6[4]);
    assert_eq!(double6[4], single6[3]);
    let reversed: Vec<(usize, usize)> = single6[0].iter().map(|&(w, b)| (b, w)).collect();
    assert_eq!(double6[5], reversed);
    for players in [4, 6, 8, 10, 12, 14] {
        let rounds = double(players).expect("a table").rounds;
        for player in 1..=players {
            let colours: Vec<bool> = rounds
                .iter()
                .map(|round| round.iter().any(|&(w, _)| w == player))
                .collect();
            let streak = colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]);
            assert!(
                !streak,
                "{players}: player {player} has one colour three times running"
            );
        }
    }
}

#[test]
fn too_few_or_too_many_players_are_refused() {
    assert_eq!(single(1), Err(ScheduleError::TooFew(1)));
    assert_eq!(double(0), Err(ScheduleError::TooFew(0)));
    assert_eq!(single(101), Err(ScheduleError::TooMany(101)));
    assert_eq!(single(2).expect("a game").rounds, vec![vec![(1, 2)]]);
}
