//! Properties of the chess engine over random playouts, for orthodox chess, Insurrection and
//! Assassination: the move list agrees with the move checker and with perft, SAN and UCI read back
//! as the move they name, the position string reads back as the same position, and Insurrection's
//! invariants hold (each side keeps a government piece; the side that has just moved is not in
//! check).

use correspond::games::chess::{
    Chess, Color, Insurrection, InsurrectionOptions, Move, Position, Role, Square,
};
use correspond::rules::{Game, MoveError};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The positions of a random game. Each pick chooses a move; when its flag is set and a capture
/// is available it chooses among the captures, so that ranks change and coups happen often.
fn playout<G: Game<Move = Move>>(
    start: G,
    inner: fn(&G) -> &Position,
    picks: &[(bool, u16)],
) -> Vec<G> {
    let mut pos = start;
    let mut seen = vec![pos.clone()];
    for (prefer_capture, pick) in picks {
        let moves = pos.legal_moves();
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| inner(&pos).is_capture(*m))
            .collect();
        let pool = if *prefer_capture && !captures.is_empty() {
            &captures
        } else {
            &moves
        };
        let Some(mv) = pool.get(usize::from(*pick) % pool.len().max(1)) else {
            break;
        };
        pos = pos.play(mv).expect("listed moves play");
        seen.push(pos.clone());
    }
    seen
}

fn picks() -> impl Strategy<Value = Vec<(bool, u16)>> {
    prop::collection::vec((any::<bool>(), any::<u16>()), 0..90)
}

fn government_pieces(pos: &Position, color: Color) -> usize {
    Square::all()
        .filter_map(|sq| pos.piece_at(sq))
        .filter(|p| p.color == color && p.role == pos.government(color))
        .count()
}

/// The notation and position-string properties of one position.
fn check_notation<G: Game<Move = Move>>(
    pos: &G,
    options: &G::Options,
    inner: fn(&G) -> &Position,
) -> Result<(), TestCaseError> {
    let moves = pos.legal_moves();
    prop_assert_eq!(pos.perft(1), moves.len() as u64, "{}", pos);
    // Options such as Assassination are the game's, not the position string's.
    let reread = G::parse_position_with(&pos.to_string(), options);
    prop_assert_eq!(reread.as_ref(), Ok(pos), "the position string reads back");
    let mut sans = BTreeSet::new();
    for mv in &moves {
        prop_assert_eq!(
            pos.parse_move(&mv.to_string()),
            Ok(*mv),
            "UCI {} in {}",
            mv,
            pos
        );
        let san = inner(pos).san(*mv);
        prop_assert_eq!(pos.parse_move(&san), Ok(*mv), "SAN {} in {}", san, pos);
        let after = pos.play(mv).expect("listed moves play");
        let mate = matches!(
            after.outcome().map(|o| G::decision(&o)),
            Some(correspond::rules::Decision::Win(_))
        );
        prop_assert_eq!(san.ends_with('#'), mate, "{} in {}", san, pos);
        prop_assert_eq!(
            san.ends_with('+'),
            !mate && inner(&after).is_check(),
            "{} in {}",
            san,
            pos
        );
        prop_assert!(
            sans.insert(san.clone()),
            "two moves write as {} in {}",
            san,
            pos
        );
    }
    Ok(())
}

/// Every move of one of the mover's pieces to any square (with each promotion for a pawn on its
/// seventh rank, and a queen promotion tried on every other pawn move) plays exactly when listed;
/// a refusal is an error, never a panic, and the move's text is refused as well (a promotion
/// is never guessed).
fn check_move_checker<G: Game<Move = Move>>(
    pos: &G,
    inner: fn(&G) -> &Position,
) -> Result<(), TestCaseError> {
    let legal: BTreeSet<Move> = pos.legal_moves().into_iter().collect();
    let p = inner(pos);
    for from in Square::all() {
        let Some(piece) = p.piece_at(from).filter(|piece| piece.color == p.turn()) else {
            continue;
        };
        let seventh = match piece.color {
            Color::White => 6,
            Color::Black => 1,
        };
        for to in Square::all() {
            let promotions: &[Option<Role>] = if piece.role == Role::Pawn && from.rank() == seventh
            {
                &[
                    None,
                    Some(Role::Knight),
                    Some(Role::Bishop),
                    Some(Role::Rook),
                    Some(Role::Queen),
                    Some(Role::King),
                    Some(Role::Pawn),
                ]
            } else if piece.role == Role::Pawn {
                &[None, Some(Role::Queen)]
            } else {
                &[None]
            };
            for promotion in promotions {
                let mv = Move {
                    from,
                    to,
                    promotion: *promotion,
                };
                let played = pos.play(&mv);
                prop_assert_eq!(played.is_ok(), legal.contains(&mv), "{} in {}", mv, pos);
                if let Err(reason) = played {
                    prop_assert!(!reason.to_string().is_empty());
                    let text = mv.to_string();
                    let refused = matches!(
                        pos.parse_move(&text),
                        Err(MoveError::Illegal(_)
                            | MoveError::Invalid(_)
                            | MoveError::Ambiguous(_))
                    );
                    prop_assert!(refused, "{} in {} read as a move", text, pos);
                }
            }
        }
    }
    Ok(())
}

fn insurrection(assassination: bool) -> Insurrection {
    Insurrection::start(&InsurrectionOptions { assassination })
}

/// Rule 4 keeps a government piece on each side. (That the side which has just moved left no
/// protected government piece attacked is checked by the position string reading back: the
/// reader refuses such positions.)
fn check_insurrection(pos: &Insurrection) -> Result<(), TestCaseError> {
    let p = &pos.0;
    for color in [Color::White, Color::Black] {
        prop_assert!(
            government_pieces(p, color) >= 1,
            "{} has no government piece in {}",
            color,
            pos
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn chess_notation_and_position_strings(picks in picks()) {
        for pos in playout(Chess::start(&()), |c| &c.0, &picks) {
            check_notation(&pos, &(), |c| &c.0)?;
        }
    }

    #[test]
    fn insurrection_notation_and_position_strings(picks in picks(), assassination in any::<bool>()) {
        for pos in playout(insurrection(assassination), |c| &c.0, &picks) {
            check_notation(&pos, &InsurrectionOptions { assassination }, |c| &c.0)?;
            check_insurrection(&pos)?;
        }
    }

    #[test]
    fn chess_moves_play_exactly_when_listed(picks in picks()) {
        for pos in playout(Chess::start(&()), |c| &c.0, &picks).iter().step_by(12) {
            check_move_checker(pos, |c| &c.0)?;
        }
    }

    #[test]
    fn insurrection_moves_play_exactly_when_listed(picks in picks(), assassination in any::<bool>()) {
        for pos in playout(insurrection(assassination), |c| &c.0, &picks).iter().step_by(12) {
            check_move_checker(pos, |c| &c.0)?;
        }
    }
}
