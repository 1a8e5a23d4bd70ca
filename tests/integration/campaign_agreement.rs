//! The engine against the naive second implementation: perft from the start, and the legal
//! moves, position strings and outcomes of thousands of positions from random games.

use crate::campaign_naive::Naive;
use crate::util::Rng;
use correspond::games::campaign::{Campaign, Options};
use correspond::rules::Game;

fn start() -> Campaign {
    Campaign::start(&Options {
        spin_doctoring: true,
        playing_for_keeps: false,
    })
}

#[test]
fn perft_from_the_start_matches_the_naive_generator_to_depth_5() {
    let engine = start();
    let naive = Naive::start();
    assert_eq!(engine.to_string(), naive.to_string());
    for depth in 0..=5 {
        assert_eq!(
            engine.perft(depth),
            naive.perft(depth),
            "perft({depth}) from the start"
        );
    }
}

/// Plays random games and compares every position reached. Random play reaches stacking,
/// promotions, spin doctoring, Fact Check, stalemates and bare candidates many times over; the
/// test counts them to make sure it did.
#[test]
fn random_games_agree_with_the_naive_generator_position_by_position() {
    let mut rng = Rng::new(2);
    let mut positions = 0;
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for game in 0..300 {
        let mut engine = if game % 5 == 4 {
            Campaign::start(&Options::default())
        } else {
            start()
        };
        let mut naive = Naive::parse(&engine.to_string());
        for _ply in 0..200 {
            positions += 1;
            let moves: Vec<String> = engine
                .legal_moves()
                .iter()
                .map(ToString::to_string)
                .collect();
            assert_eq!(moves, naive.legal_moves(), "legal moves of {engine}");
            let outcome = engine.outcome().map(|o| o.to_string());
            assert_eq!(outcome, naive.outcome(), "outcome of {engine}");
            assert_eq!(engine.is_check(), naive.in_check(), "check in {engine}");
            if let Some(outcome) = outcome {
                *seen
                    .entry(if outcome.starts_with("fact") {
                        "fact-check"
                    } else if outcome.contains("stalemate") {
                        "stalemate"
                    } else {
                        "bare"
                    })
                    .or_default() += 1;
                break;
            }
            let pick = &moves[rng.below(moves.len())];
            if pick.len() == 5 {
                *seen
                    .entry(if pick.ends_with('s') {
                        "stack"
                    } else {
                        "promotion"
                    })
                    .or_default() += 1;
            }
            if pick.starts_with("c1") && (pick.starts_with("c1a1") || pick.starts_with("c1e1"))
                || pick.starts_with("c7a7")
                || pick.starts_with("c7e7")
            {
                *seen.entry("spin").or_default() += 1;
            }
            let mv = engine.parse_move(pick).expect("a listed move parses");
            engine = engine.play(&mv).expect("a listed move plays");
            naive = naive.play(pick);
            assert_eq!(
                engine.to_string(),
                naive.to_string(),
                "position after {pick}"
            );
        }
    }
    assert!(positions > 10_000, "only {positions} positions compared");
    for kind in [
        "fact-check",
        "stalemate",
        "bare",
        "stack",
        "promotion",
        "spin",
    ] {
        assert!(
            seen.get(kind).copied().unwrap_or(0) > 0,
            "random play never reached {kind}: {seen:?}"
        );
    }
}
