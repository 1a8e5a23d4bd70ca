//! Unit tests of what the games share: a line's count of repetitions.

use super::campaign::Campaign;
use super::chess::{Chess, Insurrection};
use super::{Game, Line};

/// Plays `games` games of mostly quiet moves, often back to a position seen before (so that
/// positions recur), picked by a fixed sequence of numbers, checking at every move that the line's count of repetitions, which
/// looks back only as far as the halfmove clock, is the count over the whole line. Returns the
/// most repetitions seen.
fn repetitions_agree_with_the_whole_line<G: Game>(start: &G, games: u64) -> usize {
    let mut most = 0;
    for game in 0..games {
        let mut state = game.wrapping_mul(6_364_136_223_846_793_005) | 1;
        let mut next = |n: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize % n
        };
        let mut line = Line::new(start.clone());
        let mut seen = vec![start.clone()];
        for _ in 0..400 {
            if line.outcome().is_some() {
                break;
            }
            let current = line.current().clone();
            let moves = current.legal_moves();
            let quiet: Vec<G::Move> = moves
                .iter()
                .filter(|m| {
                    current
                        .play(m)
                        .is_ok_and(|p| p.repeatable_within() != Some(0))
                })
                .cloned()
                .collect();
            // Half the time a move back to a position seen before, when there is one.
            let back: Vec<&G::Move> = quiet
                .iter()
                .filter(|m| {
                    current
                        .play(m)
                        .is_ok_and(|p| seen.iter().any(|s| s.is_repetition_of(&p)))
                })
                .collect();
            let mv = if !back.is_empty() && next(2) == 0 {
                back[next(back.len())].clone()
            } else if !quiet.is_empty() && next(8) != 0 {
                quiet[next(quiet.len())].clone()
            } else {
                moves[next(moves.len())].clone()
            };
            let after = line.play(&mv).expect("a legal move").clone();
            seen.push(after.clone());
            let whole = seen.iter().filter(|p| p.is_repetition_of(&after)).count();
            assert_eq!(line.repetitions(), whole, "game {game}, after {after}");
            most = most.max(whole);
        }
    }
    most
}

#[test]
fn repetitions_counted_since_the_last_irreversible_move_are_all_of_them() {
    // Positions recur in these games, three times and more, so the counts compared are not
    // all ones.
    let most = [
        repetitions_agree_with_the_whole_line(&Chess::start(&()), 30),
        repetitions_agree_with_the_whole_line(&Insurrection::start(&Default::default()), 30),
        repetitions_agree_with_the_whole_line(&Campaign::start(&Default::default()), 30),
    ];
    assert!(most.iter().all(|&m| m >= 3), "{most:?}");
}
