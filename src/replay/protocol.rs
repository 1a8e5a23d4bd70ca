//! What the replayer needs to know about a game beyond its rules of play: its sides and their
//! names, its options, what the opening coin flip decides, and what claims and agreements lead
//! to.

use crate::rules::campaign::{self, Campaign, RunOffReason};
use crate::rules::guerrilla::{self, Guerrilla};
use crate::rules::{Game, Line};
use std::collections::BTreeMap;

/// A game as played through a signed game file.
pub trait Protocol: Game {
    /// The two sides, in coin order: the first wins a coin flip that shows heads.
    const SIDES: [Self::Side; 2];

    /// Whether the opening coin flip decides who moves first (Campaign). Otherwise the start
    /// position says who does.
    const TOSS_FOR_FIRST_MOVE: bool;

    /// The side a header's `side` field names.
    fn side_named(name: &str) -> Option<Self::Side>;

    /// The options a header's `options` map sets. Every option must be present, and no other.
    ///
    /// # Errors
    /// A sentence naming the unknown or missing option.
    fn options_from(map: &BTreeMap<String, bool>) -> Result<Self::Options, String>;

    /// The `options` map a header holds for these options.
    fn options_map(options: &Self::Options) -> BTreeMap<String, bool>;

    /// The start position with `first` to move.
    fn start_with(options: &Self::Options, first: Self::Side) -> Self;

    /// What both players agreeing to end the game leads to, if the game allows it.
    fn agreement() -> Option<Self::Outcome>;

    /// What a claim of this name leads to, if the game has such a claim.
    fn claim(name: &str) -> Option<Self::Outcome>;

    /// The names of the game's claims, for messages.
    fn claim_names() -> &'static [&'static str];

    /// Why the game ended, without who won: `fact-check`, `run-off: stalemate`.
    fn reason(outcome: &Self::Outcome) -> String;

    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;

    /// What a legal move does besides moving, in words: captures, promotions, and the like.
    fn describe(&self, mv: &Self::Move) -> Vec<String>;

    /// Each side's stake in cents, in [`Protocol::SIDES`] order, when the options play for
    /// stakes (Campaign's Playing for Keeps).
    fn stakes(options: &Self::Options, line: &Line<Self>) -> Option<[u32; 2]> {
        let _ = (options, line);
        None
    }
}

impl Protocol for Campaign {
    const SIDES: [campaign::Side; 2] = [campaign::Side::Heads, campaign::Side::Tails];
    const TOSS_FOR_FIRST_MOVE: bool = true;

    fn side_named(name: &str) -> Option<campaign::Side> {
        match name {
            "heads" => Some(campaign::Side::Heads),
            "tails" => Some(campaign::Side::Tails),
            _ => None,
        }
    }

    fn options_from(map: &BTreeMap<String, bool>) -> Result<campaign::Options, String> {
        const NAMES: [&str; 2] = ["playing-for-keeps", "spin-doctoring"];
        if let Some(unknown) = map.keys().find(|k| !NAMES.contains(&k.as_str())) {
            return Err(format!(
                "campaign has no option `{unknown}` (its options are playing-for-keeps and \
                 spin-doctoring)"
            ));
        }
        let get = |name: &str| {
            map.get(name)
                .copied()
                .ok_or_else(|| format!("the option `{name}` must be given, true or false"))
        };
        Ok(campaign::Options {
            playing_for_keeps: get("playing-for-keeps")?,
            spin_doctoring: get("spin-doctoring")?,
        })
    }

    fn options_map(options: &campaign::Options) -> BTreeMap<String, bool> {
        BTreeMap::from([
            ("playing-for-keeps".to_owned(), options.playing_for_keeps),
            ("spin-doctoring".to_owned(), options.spin_doctoring),
        ])
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

impl Protocol for Guerrilla {
    const SIDES: [guerrilla::Side; 2] = [guerrilla::Side::Guerrilla, guerrilla::Side::Coin];
    const TOSS_FOR_FIRST_MOVE: bool = false;

    fn side_named(name: &str) -> Option<guerrilla::Side> {
        match name {
            "guerrilla" => Some(guerrilla::Side::Guerrilla),
            "coin" => Some(guerrilla::Side::Coin),
            _ => None,
        }
    }

    fn options_from(map: &BTreeMap<String, bool>) -> Result<(), String> {
        match map.keys().next() {
            None => Ok(()),
            Some(name) => Err(format!("guerrilla has no options, and no option `{name}`")),
        }
    }

    fn options_map((): &()) -> BTreeMap<String, bool> {
        BTreeMap::new()
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
