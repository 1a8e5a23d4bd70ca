//! What the replayer needs to know about a game beyond its rules of play: its sides and their
//! names, its options, what the opening coin flip decides, and what claims and agreements lead
//! to.

use crate::log::Settlement;
use crate::rules::campaign::{self, Campaign, RunOffReason};
use crate::rules::chess::{self, Chess, Insurrection};
use crate::rules::guerrilla::{self, Guerrilla};
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
