//! Orthodox chess beside a second implementation, the shakmaty crate, over random games: at
//! every position both write the same FEN, list the same legal moves (in UCI), write each move
//! the same in SAN (check and mate suffixes included), and agree on check, checkmate,
//! stalemate and insufficient material.

use correspond::games::chess::{Chess, DrawReason, Outcome};
use correspond::rules::Game;
use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, EnPassantMode, Position};
use std::collections::BTreeMap;

/// Checks one position against shakmaty's; returns the moves, by UCI, in order.
fn agree(ours: &Chess, theirs: &shakmaty::Chess) -> Result<Vec<String>, TestCaseError> {
    let fen = Fen::from_position(theirs, EnPassantMode::Legal).to_string();
    prop_assert_eq!(ours.to_string(), fen.clone(), "FEN");
    let their_moves: BTreeMap<String, shakmaty::Move> = theirs
        .legal_moves()
        .into_iter()
        .map(|m| (m.to_uci(CastlingMode::Standard).to_string(), m))
        .collect();
    let mut our_moves: Vec<String> = ours.legal_moves().iter().map(ToString::to_string).collect();
    our_moves.sort();
    prop_assert_eq!(
        &our_moves,
        &their_moves.keys().cloned().collect::<Vec<_>>(),
        "legal moves in {}",
        fen
    );
    for mv in ours.legal_moves() {
        let theirs_san = SanPlus::from_move(theirs.clone(), their_moves[&mv.to_string()]);
        prop_assert_eq!(ours.0.san(mv), theirs_san.to_string(), "SAN in {}", fen);
    }
    prop_assert_eq!(ours.0.is_check(), theirs.is_check(), "check in {}", fen);
    let outcome = ours.outcome();
    prop_assert_eq!(
        matches!(outcome, Some(Outcome::Checkmate { .. })),
        theirs.is_checkmate(),
        "checkmate in {}",
        fen
    );
    prop_assert_eq!(
        matches!(outcome, Some(Outcome::Draw(DrawReason::Stalemate))),
        theirs.is_stalemate(),
        "stalemate in {}",
        fen
    );
    if !theirs.is_checkmate() && !theirs.is_stalemate() {
        prop_assert_eq!(
            matches!(
                outcome,
                Some(Outcome::Draw(DrawReason::InsufficientMaterial))
            ),
            theirs.is_insufficient_material(),
            "insufficient material in {}",
            fen
        );
    }
    Ok(our_moves)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_games_agree_with_shakmaty(picks in prop::collection::vec(any::<u16>(), 0..240)) {
        let mut ours = Chess::start(&());
        let mut theirs = shakmaty::Chess::default();
        for pick in picks {
            let moves = agree(&ours, &theirs)?;
            if moves.is_empty() || ours.outcome().is_some() {
                break;
            }
            let uci = &moves[usize::from(pick) % moves.len()];
            let mv = ours.parse_move(uci).expect("a listed move");
            ours = ours.play(&mv).expect("a listed move plays");
            let theirs_move = uci
                .parse::<shakmaty::uci::UciMove>()
                .expect("UCI")
                .to_move(&theirs)
                .expect("legal for shakmaty");
            theirs = theirs.play(theirs_move).expect("legal for shakmaty");
        }
    }
}
