//! Unit tests of what the games share: a line's count of repetitions, and a move played
//! unchecked once it is known legal.

use super::{Game, Line};
use crate::games::campaign::{self, Campaign};
use crate::games::chess::{Chess, DrawReason, Insurrection, InsurrectionOptions, Outcome};
use crate::games::guerrilla::Guerrilla;

/// Plays `games` games of mostly quiet moves, often back to a position seen before (so that
/// positions recur), picked by a fixed sequence of numbers, checking at every move that the line's
/// count of repetitions, which looks back only as far as the halfmove clock, is the count over the
/// whole line. Returns the most repetitions seen.
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

#[test]
fn repetitions_agree_under_the_options_that_change_the_rules() {
    // Spin doctoring is part of what makes Campaign positions the same; Assassination changes
    // which moves Insurrection allows.
    let spin = campaign::Options {
        spin_doctoring: true,
        playing_for_keeps: false,
    };
    let assassination = InsurrectionOptions {
        assassination: true,
    };
    let most = [
        repetitions_agree_with_the_whole_line(&Campaign::start(&spin), 20),
        repetitions_agree_with_the_whole_line(&Insurrection::start(&assassination), 20),
    ];
    assert!(most.iter().all(|&m| m >= 3), "{most:?}");
}

#[test]
fn a_line_from_a_position_string_counts_its_start_when_the_clock_reaches_before_it() {
    // The halfmove clock says 40 quiet moves came before this position, more than the line
    // holds: the count looks back over the whole line, its start included.
    let start = Chess::parse_position("4k3/8/8/8/8/8/8/R3K3 w - - 40 60").expect("a position");
    let mut line = Line::new(start);
    assert_eq!(line.repetitions(), 1);
    for (round, expected) in [(1, 2), (2, 3)] {
        for text in ["Ra2", "Kd8", "Ra1", "Ke8"] {
            let mv = line.current().parse_move(text).expect("a legal move");
            line.play(&mv).expect("a legal move");
        }
        assert_eq!(line.repetitions(), expected, "after round {round}");
    }
    assert_eq!(line.current().repeatable_within(), Some(48));
    // Threefold repetition is chess's claim, not its end.
    assert_eq!(line.outcome(), None);
    assert_eq!(
        line.claimable(),
        [Outcome::Draw(DrawReason::ThreefoldRepetition)]
    );
}

/// Walks `games` games of random legal moves from `start`, picked by a fixed sequence of
/// numbers, checking in every position that each legal move, and each move read back from each
/// of its `spellings`, plays unchecked ([`Game::play_legal`]) to the very position
/// [`Game::play`] gives; in debug builds `play_legal` also asserts that `play` accepts it.
/// Returns how many moves were compared.
fn play_legal_is_play<G: Game>(
    start: &G,
    games: u64,
    spellings: impl Fn(&G, &G::Move) -> Vec<String>,
) -> usize {
    let mut compared = 0;
    for game in 0..games {
        let mut state = game.wrapping_mul(2_862_933_555_777_941_757) | 1;
        let mut line = Line::new(start.clone());
        for _ in 0..300 {
            let current = line.current().clone();
            let moves = current.legal_moves();
            if moves.is_empty() || line.outcome().is_some() {
                break;
            }
            for mv in &moves {
                let played = current.play(mv).expect("a legal move");
                assert_eq!(current.play_legal(mv), played, "{mv} in {current}");
                for text in spellings(&current, mv) {
                    let read = current
                        .parse_move(&text)
                        .expect("a spelling of a legal move");
                    assert_eq!(current.play_legal(&read), played, "{text} in {current}");
                }
                compared += 1;
            }
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            line.play_legal(&moves[(state >> 33) as usize % moves.len()]);
        }
    }
    compared
}

#[test]
fn a_legal_move_played_unchecked_gives_the_position_play_gives() {
    let spin = campaign::Options {
        spin_doctoring: true,
        playing_for_keeps: false,
    };
    let assassination = InsurrectionOptions {
        assassination: true,
    };
    let compared = [
        play_legal_is_play(&Campaign::start(&Default::default()), 6, |_, m| {
            vec![m.to_string()]
        }),
        play_legal_is_play(&Campaign::start(&spin), 6, |_, m| vec![m.to_string()]),
        play_legal_is_play(&Guerrilla::start(&()), 6, |_, m| vec![m.to_string()]),
        // Chess reads SAN as well as its notation.
        play_legal_is_play(&Chess::start(&()), 6, |p, m| {
            vec![m.to_string(), p.0.san(*m)]
        }),
        play_legal_is_play(&Insurrection::start(&assassination), 6, |p, m| {
            vec![m.to_string(), p.0.san(*m)]
        }),
    ];
    // Every game had moves to compare, many of them.
    assert!(compared.iter().all(|&n| n > 1000), "{compared:?}");
}
