//! What the replayer needs to know about Guerrilla Checkers beyond its rules of play ([`Protocol`]).

use crate::games::guerrilla::{self, Guerrilla};
use crate::log::Settlement;
use crate::replay::{Protocol, Switch};
use crate::rules::Game as _;

impl Protocol for Guerrilla {
    const SIDES: [guerrilla::Side; 2] = [guerrilla::Side::Guerrilla, guerrilla::Side::Coin];
    const TOSS_FOR_FIRST_MOVE: bool = false;
    const PGN: bool = false;
    const SETTLEMENT: Option<Settlement> = None;
    const OPTIONS: &'static [Switch<()>] = &[];

    fn side_named(name: &str) -> Option<guerrilla::Side> {
        match name {
            "guerrilla" => Some(guerrilla::Side::Guerrilla),
            "coin" => Some(guerrilla::Side::Coin),
            _ => None,
        }
    }

    fn start_with((): &(), _first: guerrilla::Side) -> Guerrilla {
        // The Guerrilla always moves first.
        Guerrilla::start(&())
    }

    fn agreement() -> Option<guerrilla::Outcome> {
        None
    }

    fn claim(_name: &str) -> Option<guerrilla::Outcome> {
        None
    }

    fn claim_names() -> &'static [&'static str] {
        &[]
    }

    fn reason_code(outcome: &guerrilla::Outcome) -> &'static str {
        match outcome {
            guerrilla::Outcome::AllCheckersCaptured => "all-checkers-captured",
            guerrilla::Outcome::SupplyExhausted => "supply-exhausted",
            guerrilla::Outcome::BoardCleared => "board-cleared",
            guerrilla::Outcome::AntiStall => "anti-stall",
        }
    }

    fn reason(outcome: &guerrilla::Outcome) -> String {
        outcome.reason().to_owned()
    }

    fn in_check(&self) -> bool {
        false
    }

    fn describe(&self, mv: &guerrilla::Move) -> Vec<String> {
        Guerrilla::describe(self, mv)
    }
}
