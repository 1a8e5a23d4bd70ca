//! What the commands share: choosing the game, reading `--position`, playing a list of moves.

use super::CliError;
use crate::rules::campaign::{self, Campaign};
use crate::rules::{Game, Line, MoveError};

/// The games the commands know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum GameName {
    /// Campaign (Buck 20): chess-like, on 5 × 7 squares, with coins.
    Campaign,
    /// Guerrilla Checkers: two stones a turn against six checkers.
    Guerrilla,
}

impl GameName {
    /// The game a file's header names.
    pub(crate) fn of_file(name: &str) -> Option<GameName> {
        match name {
            "campaign" => Some(GameName::Campaign),
            "guerrilla" => Some(GameName::Guerrilla),
            _ => None,
        }
    }
}

/// Runs `$body` with `$g` standing for the game type that `$name` selects.
macro_rules! with_game {
    ($name:expr, $g:ident => $body:expr) => {
        match $name {
            $crate::cli::game::GameName::Campaign => {
                type $g = $crate::rules::campaign::Campaign;
                $body
            }
            $crate::cli::game::GameName::Guerrilla => {
                type $g = $crate::rules::guerrilla::Guerrilla;
                $body
            }
        }
    };
}
pub(crate) use with_game;

/// The arguments that pick a game and a position.
#[derive(Debug, clap::Args)]
pub(crate) struct PositionArgs {
    /// The game.
    pub game: GameName,
    /// Start from this position string instead of the start position. Without it, Campaign
    /// starts with Heads to move and spin doctoring on.
    #[arg(long, value_name = "POS")]
    pub position: Option<String>,
}

/// What the command line needs of a game beyond its rules.
pub(crate) trait CliGame: Game + crate::replay::Protocol + super::render::Render {
    /// The position the commands start from when no `--position` is given.
    fn default_start() -> Self;
}

impl CliGame for crate::rules::guerrilla::Guerrilla {
    fn default_start() -> Self {
        Self::start(&())
    }
}

impl CliGame for Campaign {
    fn default_start() -> Campaign {
        Campaign::start(&campaign::Options {
            spin_doctoring: true,
            playing_for_keeps: false,
        })
    }
}

/// The position `--position` names, or the default start.
pub(crate) fn start<G: CliGame>(position: Option<&str>) -> Result<G, CliError> {
    match position {
        None => Ok(G::default_start()),
        Some(text) => G::parse_position(text).map_err(|e| {
            CliError::rejected(format!("--position: {e}")).hint(format!(
                "the start position is `{}`; see docs/rules/{}.md for the format",
                G::default_start(),
                G::NAME
            ))
        }),
    }
}

/// Plays `moves` from `start`, stopping at the first that cannot be played, with the move's
/// number (from 1) and the reason.
pub(crate) fn play_moves<G: CliGame>(start: G, moves: &[String]) -> Result<Line<G>, CliError> {
    let mut line = Line::new(start);
    for (i, text) in moves.iter().enumerate() {
        let number = i + 1;
        let mv = line.current().parse_move(text).map_err(|e| {
            let error = CliError::rejected(format!("move {number}: {text}: {e}"));
            match e {
                MoveError::Invalid(_) => error,
                MoveError::Illegal(_) | MoveError::Ambiguous(_) => error.hint(format!(
                    "`correspond moves {} --position '{}'` lists the legal moves there",
                    G::NAME,
                    line.current()
                )),
            }
        })?;
        line.play(&mv)
            .expect("parse_move returns only moves that play");
    }
    Ok(line)
}
