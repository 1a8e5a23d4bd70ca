//! Properties of Guerrilla Checkers over random playouts: the four invariants of the research
//! notes (section 5), and the agreement of the move list, the move checker, the notation and the
//! position string.

use correspond::games::guerrilla::{Cell, Guerrilla, Move, Point, SUPPLY, Side};
use correspond::rules::{Game, MoveError};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The positions of a random game, with the number of stones placed before each.
fn playout(picks: &[u16]) -> Vec<(Guerrilla, u32)> {
    let mut pos = Guerrilla::start(&());
    let mut placed = 0;
    let mut seen = vec![(pos.clone(), placed)];
    for pick in picks {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = &moves[usize::from(*pick) % moves.len()];
        if matches!(mv, Move::Place(..)) {
            placed += 2;
        }
        pos = pos.play(mv).expect("listed moves play");
        seen.push((pos.clone(), placed));
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn the_invariants_hold_in_every_position(picks in prop::collection::vec(any::<u16>(), 0..120)) {
        for (pos, placed) in playout(&picks) {
            // Supply = 66 - stones placed.
            prop_assert_eq!(u32::from(pos.supply()), u32::from(SUPPLY) - placed);
            for cell in Cell::all().filter(|c| pos.has_checker(*c)) {
                // Checkers stay on playable cells.
                prop_assert!(cell.is_playable(), "{} in {}", cell, pos);
            }
            // No checker sits in a fully surrounded cell: the position string would refuse it.
            let reread = Guerrilla::parse_position(&pos.to_string());
            prop_assert_eq!(reread.as_ref(), Ok(&pos));
            // COIN always has a move while it has a checker.
            if pos.side_to_move() == Side::Coin && pos.checkers_on_board() > 0 && pos.supply() > 0 {
                prop_assert!(pos.outcome().is_none() && !pos.legal_moves().is_empty(), "{}", pos);
            }
        }
    }

    #[test]
    fn listed_moves_are_exactly_the_moves_that_play(picks in prop::collection::vec(any::<u16>(), 0..100)) {
        for (pos, _) in playout(&picks) {
            let legal: BTreeSet<Move> = pos.legal_moves().into_iter().collect();
            prop_assert_eq!(pos.perft(1), legal.len() as u64);
            match pos.side_to_move() {
                Side::Guerrilla => {
                    for a in Point::all() {
                        for b in Point::all() {
                            let mv = Move::Place(a, b);
                            prop_assert_eq!(pos.play(&mv).is_ok(), legal.contains(&mv), "{} in {}", mv, pos);
                        }
                    }
                }
                Side::Coin => {
                    for from in Cell::all() {
                        for to in Cell::all() {
                            let mv = Move::Step(from, to);
                            prop_assert_eq!(pos.play(&mv).is_ok(), legal.contains(&mv), "{} in {}", mv, pos);
                        }
                    }
                    for mv in legal.iter().filter(|m| matches!(m, Move::Capture(_))) {
                        prop_assert!(pos.play(mv).is_ok());
                    }
                }
            }
        }
    }

    #[test]
    fn moves_are_sorted_and_notation_and_positions_round_trip(picks in prop::collection::vec(any::<u16>(), 0..150)) {
        for (pos, _) in playout(&picks) {
            let moves = pos.legal_moves();
            let texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
            let mut sorted = texts.clone();
            sorted.sort();
            prop_assert_eq!(&texts, &sorted, "notation order in {}", pos);
            let mut ordered = moves.clone();
            ordered.sort();
            prop_assert_eq!(&ordered, &moves, "Ord agrees with the notation");
            for (mv, text) in moves.iter().zip(&texts) {
                prop_assert_eq!(pos.parse_move(text), Ok(*mv));
            }
        }
    }

    #[test]
    fn any_text_as_a_move_never_panics(text in "\\PC{0,12}|[a-h][0-9][-x,][a-h][0-9](x[a-h][0-9]){0,4}", picks in prop::collection::vec(any::<u16>(), 0..60)) {
        let positions = playout(&picks);
        let (pos, _) = positions.last().expect("the start at least");
        match pos.parse_move(&text) {
            Ok(mv) => prop_assert!(pos.play(&mv).is_ok()),
            Err(MoveError::Ambiguous(moves)) => prop_assert!(moves.len() > 1),
            Err(_) => {}
        }
    }

    #[test]
    fn position_like_text_never_panics(text in "[S1-8/]{7,24} [C1-9/]{8,30} [gcx] [0-9]{1,3}") {
        if let Ok(pos) = Guerrilla::parse_position(&text) {
            prop_assert_eq!(pos.to_string(), text);
        }
    }
}
