//! What the replayer needs to know about chess and Insurrection beyond its rules of play ([`Protocol`]).

use crate::games::chess::{self, Chess, Insurrection};
use crate::log::Settlement;
use crate::replay::{Protocol, Switch};
use crate::rules::Game as _;

/// What a chess or Insurrection move did, in words: captures, castling, succession and
/// decline, coups with their names, promotions.
fn chess_notes(before: &chess::Position, mv: chess::Move) -> Vec<String> {
    let Ok((_, effects)) = before.play_move(mv) else {
        return Vec::new();
    };
    let mut notes = Vec::new();
    if let Some(role) = effects.captured {
        notes.push(format!("takes a {}", role.name()));
    }
    if let Some(role) = effects.changed_rank {
        notes.push(format!("becomes a {}", role.name()));
    }
    if let Some(role) = mv.promotion {
        notes.push(format!("promotes to a {}", role.name()));
    }
    if let Some(role) = effects.coup {
        let them = before.turn().opponent();
        notes.push(format!(
            "coup: {them}'s government is now its {}s ({})",
            role.name(),
            chess::coup_name(role)
        ));
    }
    notes
}

macro_rules! chess_protocol {
    ($game:ty, $options:expr) => {
        impl Protocol for $game {
            const OPTIONS: &'static [Switch<Self::Options>] = $options;
            const SIDES: [chess::Color; 2] = [chess::Color::White, chess::Color::Black];
            const TOSS_FOR_FIRST_MOVE: bool = false;
            const PGN: bool = true;
            const SETTLEMENT: Option<Settlement> = Some(Settlement::Draw);
            const MOVES_SAY_CHECK: bool = true;

            fn side_named(name: &str) -> Option<chess::Color> {
                match name {
                    "white" => Some(chess::Color::White),
                    "black" => Some(chess::Color::Black),
                    _ => None,
                }
            }

            fn start_with(options: &Self::Options, _first: chess::Color) -> Self {
                // White always moves first.
                Self::start(options)
            }

            fn agreement() -> Option<chess::Outcome> {
                Some(chess::Outcome::Draw(chess::DrawReason::Agreement))
            }

            fn claim(name: &str) -> Option<chess::Outcome> {
                match name {
                    "repetition" => {
                        Some(chess::Outcome::Draw(chess::DrawReason::ThreefoldRepetition))
                    }
                    "fifty-moves" => Some(chess::Outcome::Draw(chess::DrawReason::FiftyMoves)),
                    _ => None,
                }
            }

            fn claim_names() -> &'static [&'static str] {
                &["repetition", "fifty-moves"]
            }

            fn reason_code(outcome: &chess::Outcome) -> &'static str {
                use chess::DrawReason as D;
                match outcome {
                    chess::Outcome::Checkmate { .. } => "checkmate",
                    chess::Outcome::Draw(D::Stalemate) => "stalemate",
                    chess::Outcome::Draw(D::InsufficientMaterial) => "insufficient-material",
                    chess::Outcome::Draw(D::SeventyFiveMoves) => "seventy-five-moves",
                    chess::Outcome::Draw(D::FivefoldRepetition) => "fivefold-repetition",
                    chess::Outcome::Draw(D::ThreefoldRepetition) => "threefold-repetition",
                    chess::Outcome::Draw(D::FiftyMoves) => "fifty-moves",
                    chess::Outcome::Draw(D::Agreement) => "agreement",
                }
            }

            fn reason(outcome: &chess::Outcome) -> String {
                match outcome {
                    chess::Outcome::Checkmate { .. } => "checkmate".to_owned(),
                    chess::Outcome::Draw(reason) => reason.to_string(),
                }
            }

            fn in_check(&self) -> bool {
                self.0.is_check()
            }

            fn describe(&self, mv: &chess::Move) -> Vec<String> {
                chess_notes(&self.0, *mv)
            }

            fn display_move(&self, mv: &chess::Move) -> String {
                self.0.san(*mv)
            }

            fn could_win(&self, side: chess::Color) -> bool {
                self.0.could_checkmate(side)
            }
        }
    };
}

chess_protocol!(Chess, &[]);
chess_protocol!(
    Insurrection,
    &[Switch {
        name: "assassination",
        get: |o: &chess::InsurrectionOptions| o.assassination,
        set: |o: &mut chess::InsurrectionOptions, on| o.assassination = on,
    }]
);
