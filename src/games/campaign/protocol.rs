//! What the replayer needs to know about Campaign beyond its rules of play ([`Protocol`]).

use crate::games::campaign::{self, Campaign, RunOffReason};
use crate::log::Settlement;
use crate::replay::{Protocol, Switch};
use crate::rules::{Game as _, Line};

impl Protocol for Campaign {
    const SIDES: [campaign::Side; 2] = [campaign::Side::Heads, campaign::Side::Tails];
    const TOSS_FOR_FIRST_MOVE: bool = true;
    const PGN: bool = false;
    const SETTLEMENT: Option<Settlement> = Some(Settlement::RunOff);
    const OPTIONS: &'static [Switch<campaign::Options>] = &[
        Switch {
            name: "playing-for-keeps",
            get: |o| o.playing_for_keeps,
            set: |o, on| o.playing_for_keeps = on,
        },
        Switch {
            name: "spin-doctoring",
            get: |o| o.spin_doctoring,
            set: |o, on| o.spin_doctoring = on,
        },
    ];

    fn side_named(name: &str) -> Option<campaign::Side> {
        match name {
            "heads" => Some(campaign::Side::Heads),
            "tails" => Some(campaign::Side::Tails),
            _ => None,
        }
    }

    fn usual_options() -> campaign::Options {
        campaign::Options {
            spin_doctoring: true,
            playing_for_keeps: false,
        }
    }

    fn start_with(options: &campaign::Options, first: campaign::Side) -> Campaign {
        Campaign::start_with(options, first)
    }

    fn agreement() -> Option<campaign::Outcome> {
        Some(campaign::Outcome::RunOff(RunOffReason::Agreement))
    }

    fn claim(name: &str) -> Option<campaign::Outcome> {
        match name {
            "repetition" => Some(campaign::Outcome::RunOff(RunOffReason::Repetition)),
            "halfmove-clock" => Some(campaign::Outcome::RunOff(RunOffReason::HalfmoveClock)),
            _ => None,
        }
    }

    fn claim_names() -> &'static [&'static str] {
        &["repetition", "halfmove-clock"]
    }

    fn reason_code(outcome: &campaign::Outcome) -> &'static str {
        match outcome {
            campaign::Outcome::FactCheck { .. } => "fact-check",
            campaign::Outcome::RunOff(RunOffReason::Stalemate) => "run-off-stalemate",
            campaign::Outcome::RunOff(RunOffReason::BareCandidates) => "run-off-bare-candidates",
            campaign::Outcome::RunOff(RunOffReason::Repetition) => "run-off-repetition",
            campaign::Outcome::RunOff(RunOffReason::HalfmoveClock) => "run-off-halfmove-clock",
            campaign::Outcome::RunOff(RunOffReason::Agreement) => "run-off-agreement",
        }
    }

    fn reason(outcome: &campaign::Outcome) -> String {
        match outcome {
            campaign::Outcome::FactCheck { .. } => "fact-check".to_owned(),
            campaign::Outcome::RunOff(_) => outcome.to_string(),
        }
    }

    fn in_check(&self) -> bool {
        self.is_check()
    }

    fn describe(&self, mv: &campaign::Move) -> Vec<String> {
        Campaign::describe(self, *mv)
    }

    fn stakes(options: &campaign::Options, line: &Line<Campaign>) -> Option<[u32; 2]> {
        if !options.playing_for_keeps {
            return None;
        }
        let mut stakes = [campaign::STARTING_STAKE; 2];
        for (pos, mv) in line.positions().iter().zip(line.moves()) {
            let seat = usize::from(pos.side_to_move() == campaign::Side::Tails);
            stakes[seat] += pos.stake_added(*mv);
        }
        Some(stakes)
    }
}
