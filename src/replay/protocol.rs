//! What the replayer needs to know about a game beyond its rules of play: its sides and their
//! names, its options, what the opening coin flip decides, and what claims and agreements lead
//! to. Each game implements it in its own folder (`src/games/NAME/protocol.rs`); nothing here
//! names a game.

use crate::log::Settlement;
use crate::rules::{Game, Line};
use std::collections::BTreeMap;

/// A game as played through a signed game file.
pub trait Protocol: Game<Options: 'static> {
    /// The two sides, in coin order: the first wins a coin flip that shows heads.
    const SIDES: [Self::Side; 2];

    /// Whether the opening coin flip decides who moves first (Campaign). Otherwise the start
    /// position says who does.
    const TOSS_FOR_FIRST_MOVE: bool;

    /// Whether `correspond pgn` writes the game (chess and its variants): only such a game's
    /// header holds PGN tags.
    const PGN: bool;

    /// The side a header's `side` field names.
    fn side_named(name: &str) -> Option<Self::Side>;

    /// The game's variant options, one row each, sorted by name: the one table from which the
    /// header's `options` map is read and written and the command line's `--variant` is read.
    const OPTIONS: &'static [Switch<Self::Options>];

    /// The options a header's `options` map sets. Every option must be present, and no other.
    ///
    /// # Errors
    /// A sentence naming the unknown or missing option.
    fn options_from(map: &BTreeMap<String, bool>) -> Result<Self::Options, String> {
        if let Some(unknown) = map.keys().find(|k| Self::switch(k).is_none()) {
            return Err(no_option::<Self>(unknown));
        }
        let mut options = Self::Options::default();
        for switch in Self::OPTIONS {
            let on = map.get(switch.name).copied().ok_or_else(|| {
                format!("the option `{}` must be given, true or false", switch.name)
            })?;
            (switch.set)(&mut options, on);
        }
        Ok(options)
    }

    /// The `options` map a header holds for these options.
    fn options_map(options: &Self::Options) -> BTreeMap<String, bool> {
        Self::OPTIONS
            .iter()
            .map(|switch| (switch.name.to_owned(), (switch.get)(options)))
            .collect()
    }

    /// The options the game is usually played with, where a command is given none (Campaign:
    /// spin doctoring on).
    fn usual_options() -> Self::Options {
        Self::Options::default()
    }

    /// The option of this name, if the game has it.
    fn switch(name: &str) -> Option<&'static Switch<Self::Options>> {
        Self::OPTIONS.iter().find(|switch| switch.name == name)
    }

    /// The start position with `first` to move.
    fn start_with(options: &Self::Options, first: Self::Side) -> Self;

    /// How the game ends by agreement or claim, if it can.
    const SETTLEMENT: Option<Settlement>;

    /// What both players agreeing to end the game leads to, if the game allows it.
    fn agreement() -> Option<Self::Outcome>;

    /// What a claim of this name leads to, if the game has such a claim.
    fn claim(name: &str) -> Option<Self::Outcome>;

    /// The names of the game's claims, for messages.
    fn claim_names() -> &'static [&'static str];

    /// Why the game ended, without who won: `fact-check`, `run-off: stalemate`.
    fn reason(outcome: &Self::Outcome) -> String;

    /// The same as a stable code in kebab case, which no rewording changes: `fact-check`,
    /// `run-off-stalemate`, `fifty-moves`.
    fn reason_code(outcome: &Self::Outcome) -> &'static str;

    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;

    /// What a legal move does besides moving, in words: captures, promotions, and the like.
    fn describe(&self, mv: &Self::Move) -> Vec<String>;

    /// Whether a move as reports show it ([`Protocol::display_move`]) says that it gives check,
    /// as SAN's `+` does, so that a report need not say it again.
    const MOVES_SAY_CHECK: bool = false;

    /// A move as reports show it: the canonical notation, or SAN for chess.
    fn display_move(&self, mv: &Self::Move) -> String {
        mv.to_string()
    }

    /// Whether `side` could still win from this position by some series of legal moves, however
    /// unlikely. A claim on time by a side that could not is a draw (FIDE Laws art. 6.9); in a
    /// game with no such rule, always.
    fn could_win(&self, side: Self::Side) -> bool {
        let _ = side;
        true
    }

    /// Each side's stake in cents, in [`Protocol::SIDES`] order, when the options play for
    /// stakes (Campaign's Playing for Keeps).
    fn stakes(options: &Self::Options, line: &Line<Self>) -> Option<[u32; 2]> {
        let _ = (options, line);
        None
    }
}

/// A variant option: its name in the header's `options` map (and `--variant`), and where it
/// lives in the game's options.
pub struct Switch<O> {
    /// The name: `spin-doctoring`.
    pub name: &'static str,
    /// Whether it is on.
    pub get: fn(&O) -> bool,
    /// Turns it on or off.
    pub set: fn(&mut O, bool),
}

/// The refusal of an option the game does not have, naming the ones it has.
#[must_use]
pub fn no_option<G: Protocol>(unknown: &str) -> String {
    let names: Vec<&str> = G::OPTIONS.iter().map(|s| s.name).collect();
    match names.split_last() {
        None => format!("{} has no options, and no option `{unknown}`", G::NAME),
        Some((only, [])) => format!(
            "{} has no option `{unknown}` (its option is {only})",
            G::NAME
        ),
        Some((last, rest)) => format!(
            "{} has no option `{unknown}` (its options are {} and {last})",
            G::NAME,
            rest.join(", ")
        ),
    }
}
