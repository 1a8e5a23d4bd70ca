//! The Guerrilla Checkers engine against the naive second implementation: perft from the start,
//! and the legal moves, position strings and outcomes of thousands of positions from random
//! games, some played by a Guerrilla that goes after the checkers.

use crate::guerrilla_naive::{Naive, run_length};
use crate::util::Rng;
use correspond::games::guerrilla::Guerrilla;
use correspond::rules::Game;
use std::collections::BTreeMap;

#[test]
fn perft_from_the_start_matches_the_naive_generator_to_depth_3() {
    let engine = Guerrilla::start(&());
    let naive = Naive::start();
    assert_eq!(engine.to_string(), naive.to_string());
    for depth in 0..=3 {
        assert_eq!(
            engine.perft(depth),
            naive.perft(depth),
            "perft({depth}) from the start"
        );
    }
}

/// A move for a random game: with `hunt`, the Guerrilla prefers moves that capture a checker
/// and COIN prefers moves that capture stones, so that games reach every ending.
fn pick(pos: &Guerrilla, moves: &[String], rng: &mut Rng, hunt: bool) -> String {
    if hunt && rng.below(4) != 0 {
        let mut scored: Vec<(u32, &String)> = moves
            .iter()
            .map(|m| {
                let next = pos
                    .play(&pos.parse_move(m).expect("listed"))
                    .expect("legal");
                let gain = match pos.side_to_move() {
                    correspond::games::guerrilla::Side::Guerrilla => {
                        pos.checkers_on_board() - next.checkers_on_board()
                    }
                    correspond::games::guerrilla::Side::Coin => {
                        pos.stones_on_board() - next.stones_on_board()
                    }
                };
                (gain, m)
            })
            .collect();
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        if scored[0].0 > 0 {
            return scored[0].1.clone();
        }
    }
    moves[rng.below(moves.len())].clone()
}

#[test]
fn random_games_agree_with_the_naive_generator_position_by_position() {
    let mut rng = Rng::new(7);
    let mut positions = 0;
    let mut endings = BTreeMap::<String, usize>::new();
    for game in 0..120 {
        let mut engine = Guerrilla::start(&());
        let mut naive = Naive::start();
        for _turn in 0..200 {
            positions += 1;
            let moves: Vec<String> = engine
                .legal_moves()
                .iter()
                .map(ToString::to_string)
                .collect();
            assert_eq!(moves, naive.legal_moves(), "legal moves of {engine}");
            let outcome = engine.outcome().map(|o| o.to_string());
            assert_eq!(outcome, naive.outcome(), "outcome of {engine}");
            if let Some(outcome) = outcome {
                *endings.entry(outcome).or_default() += 1;
                break;
            }
            let mv = pick(&engine, &moves, &mut rng, game % 2 == 0);
            engine = engine
                .play(&engine.parse_move(&mv).expect("listed"))
                .expect("legal");
            naive = naive.play(&mv);
            assert_eq!(engine.to_string(), naive.to_string(), "position after {mv}");
            assert_eq!(
                Guerrilla::parse_position(&engine.to_string()).as_ref(),
                Ok(&engine)
            );
        }
    }
    assert!(positions > 5_000, "only {positions} positions compared");
    for ending in [
        "all checkers captured: guerrilla wins",
        "supply exhausted: coin wins",
        "board cleared: coin wins",
    ] {
        assert!(
            endings.contains_key(ending),
            "random play never reached `{ending}`: {endings:?}"
        );
    }
}

/// Random crowded boards, COIN to move: the capture chains (where the engine's streaming and
/// the naive recursion differ most) agree, move for move and two turns deep.
#[test]
fn crowded_boards_agree_with_the_naive_generator() {
    let mut rng = Rng::new(11);
    let mut compared = 0;
    let mut longest = 0;
    while compared < 150 {
        let density = [50, 70, 85][rng.below(3)];
        let stones: Vec<bool> = (0..49).map(|_| rng.below(100) < density).collect();
        let count = stones.iter().filter(|s| **s).count();
        let points: Vec<String> = (0..7)
            .rev()
            .map(|j| run_length((0..7).map(|i| stones[j * 7 + i]), 'S'))
            .collect();
        // One or two checkers on playable cells.
        let mut cells = [[false; 8]; 8];
        for _ in 0..1 + rng.below(2) {
            let (x, y) = (rng.below(8), rng.below(8));
            if (x + y) % 2 == 1 {
                cells[y][x] = true;
            }
        }
        let cell_ranks: Vec<String> = (0..8)
            .rev()
            .map(|y| run_length(cells[y].iter().copied(), 'C'))
            .collect();
        let supply = (66 - count) / 2 * 2;
        let text = format!("{} {} c {supply}", points.join("/"), cell_ranks.join("/"));
        let Ok(engine) = Guerrilla::parse_position(&text) else {
            continue; // no checker, or one already surrounded
        };
        let count = engine.perft(1);
        if count > 20_000 {
            continue;
        }
        let naive = Naive::parse(&text);
        let moves: Vec<String> = engine
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(moves, naive.legal_moves(), "moves of {text}");
        longest = longest.max(moves.iter().map(String::len).max().unwrap_or(0));
        if count < 300 {
            assert_eq!(engine.perft(2), naive.perft(2), "perft 2 of {text}");
        }
        compared += 1;
    }
    assert!(
        longest > 30,
        "the boards held long chains (longest {longest} characters)"
    );
}
