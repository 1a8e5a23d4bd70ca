//! Properties over random playouts: the move list, the move checker, the notation and the
//! position string must all agree with each other in every position reached.

use correspond::games::campaign::{Campaign, Move, Options, Promotion, Square};
use correspond::rules::{Game, MoveError};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Plays the moves picked by `picks` (each an index into the legal moves, modulo their
/// number) and returns every position reached, the start first.
fn playout(spin: bool, picks: &[u16]) -> Vec<Campaign> {
    let mut pos = Campaign::start(&Options {
        spin_doctoring: spin,
        playing_for_keeps: false,
    });
    let mut seen = vec![pos.clone()];
    for pick in picks {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos
            .play(&moves[usize::from(*pick) % moves.len()])
            .expect("listed moves play");
        seen.push(pos.clone());
    }
    seen
}

/// Every from-to pair with every suffix: all the moves the notation can name.
fn every_move() -> Vec<Move> {
    let promotions = [
        None,
        Some(Promotion::Guard),
        Some(Promotion::Handler),
        Some(Promotion::Stack),
    ];
    let mut all = Vec::new();
    for from in Square::all() {
        for to in Square::all() {
            for promotion in promotions {
                all.push(Move {
                    from,
                    to,
                    promotion,
                });
            }
        }
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn listed_moves_are_exactly_the_moves_that_play(spin: bool, picks in prop::collection::vec(any::<u16>(), 0..80)) {
        let all = every_move();
        for pos in playout(spin, &picks) {
            let legal: BTreeSet<Move> = pos.legal_moves().into_iter().collect();
            prop_assert_eq!(legal.len(), pos.legal_moves().len(), "no duplicates in {}", pos);
            prop_assert_eq!(pos.perft(1), legal.len() as u64);
            for mv in &all {
                let played = pos.play(mv);
                prop_assert_eq!(played.is_ok(), legal.contains(mv), "{} in {}: {:?}", mv, pos, played.err());
            }
        }
    }

    #[test]
    fn moves_are_sorted_by_notation_and_notation_round_trips(spin: bool, picks in prop::collection::vec(any::<u16>(), 0..150)) {
        for pos in playout(spin, &picks) {
            let moves = pos.legal_moves();
            let texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
            let mut sorted = texts.clone();
            sorted.sort();
            prop_assert_eq!(&texts, &sorted, "sorted by byte order in {}", pos);
            for (mv, text) in moves.iter().zip(&texts) {
                prop_assert_eq!(pos.parse_move(text), Ok(*mv));
            }
        }
    }

    #[test]
    fn position_strings_round_trip(spin: bool, picks in prop::collection::vec(any::<u16>(), 0..150)) {
        for pos in playout(spin, &picks) {
            let text = pos.to_string();
            let back = Campaign::parse_position(&text);
            prop_assert_eq!(back.as_ref(), Ok(&pos), "{}", text);
            prop_assert_eq!(back.map(|p| p.to_string()), Ok(text));
        }
    }

    /// Text that looks roughly like a position string: parsing never panics, and whatever
    /// parses writes back to exactly the same text.
    #[test]
    fn position_like_text_never_panics(text in "[cshgiCSHGI0-7/]{5,30} [htx] (-|[AEae]{1,4}) [0-9+]{1,3} [0-9]{1,3}") {
        if let Ok(pos) = Campaign::parse_position(&text) {
            prop_assert_eq!(pos.to_string(), text);
        }
    }

    /// Any text as a move: never a panic; a move that parses writes back to the same text.
    #[test]
    fn arbitrary_move_text_never_panics(text in "\\PC{0,8}|[a-f][0-8][a-f][0-8][a-z]?", picks in prop::collection::vec(any::<u16>(), 0..40)) {
        let positions = playout(true, &picks);
        let pos = positions.last().expect("a playout holds its start");
        match pos.parse_move(&text) {
            Ok(mv) => prop_assert_eq!(mv.to_string(), text),
            Err(MoveError::Ambiguous(moves)) => prop_assert!(moves.len() > 1),
            Err(_) => {}
        }
    }
}
