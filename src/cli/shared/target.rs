//! The first argument of `moves`, `position` and `perft`: a game, or a game file whose current
//! position is meant. Here, beside `record` (which reads and verifies files), rather than in
//! `game`, which `record` itself uses.

use crate::cli::CliError;
use crate::cli::shared::game::{CliGame, GameKind, PositionArgs, Target, start};
use std::path::Path;

impl PositionArgs {
    /// The game these arguments name, and the file's bytes when they name a game file.
    pub(crate) fn resolve(&self) -> Result<(GameKind, Option<Vec<u8>>), CliError> {
        match &self.game {
            Target::Game(kind) => Ok((*kind, None)),
            Target::File(path) => {
                if self.position.is_some() || !self.variants.is_empty() {
                    return Err(CliError::usage(
                        "--position and --variant are for a game; a game file has its own \
                         position and variants",
                    ));
                }
                if let Some(error) = neither_game_nor_file(path) {
                    return Err(error);
                }
                let (kind, bytes) = crate::cli::shared::record::read_game(path)?;
                Ok((kind, Some(bytes)))
            }
        }
    }

    /// The position these arguments name: `file`'s current one (the bytes [`Self::resolve`]
    /// read), or the one `--position` names, or the start.
    pub(crate) fn start<G: CliGame>(&self, file: Option<&[u8]>) -> Result<G, CliError> {
        match (&self.game, file) {
            (Target::File(path), Some(bytes)) => {
                let (_, replay) = crate::cli::shared::record::verified::<G>(path, bytes)?;
                Ok(replay.last().position.clone())
            }
            _ => start(self.position.as_deref(), &self.variants),
        }
    }

    /// As [`Self::start`], for the moves that can be played: a game file whose game is over
    /// (by a resignation, an agreement, an arbiter, a clock or the rules) is refused, since
    /// none can, whatever its last position would allow.
    pub(crate) fn playable<G: CliGame>(&self, file: Option<&[u8]>) -> Result<G, CliError> {
        match (&self.game, file) {
            (Target::File(path), Some(bytes)) => {
                let (_, replay) = crate::cli::shared::record::verified::<G>(path, bytes)?;
                let last = replay.last();
                if let correspond::replay::Phase::Over(_) = &last.phase {
                    return Err(CliError::rejected(format!(
                        "{}: no move can be played: {}",
                        correspond::text::path(path),
                        last.phase.describe(&replay.seats)
                    ))
                    .hint(format!(
                        "`correspond position {}` shows its last position",
                        correspond::text::path(path)
                    )));
                }
                Ok(last.position.clone())
            }
            _ => start(self.position.as_deref(), &self.variants),
        }
    }
}

/// A bare word that is no file was meant as a game: the error that says what games there are,
/// and the one it nearly names. `None` for anything else, which is read as a game file.
pub(crate) fn neither_game_nor_file(path: &Path) -> Option<CliError> {
    let word = path.extension().is_none() && path.components().count() == 1;
    if !word || path.exists() {
        return None;
    }
    let error = CliError::usage(format!(
        "`{}` is neither a game ({}) nor a game file",
        correspond::text::path(path),
        GameKind::names_joined("or")
    ));
    Some(with_near_game(error, &path.to_string_lossy()))
}

/// `error`, with a hint naming the game `typed` nearly names (two letters off, any case), if
/// one.
pub(crate) fn with_near_game(error: CliError, typed: &str) -> CliError {
    let typed = typed.to_lowercase();
    let near = GameKind::ALL
        .iter()
        .map(|kind| {
            (
                crate::cli::shared::places::edits(&typed, kind.name()),
                kind.name(),
            )
        })
        .filter(|&(distance, _)| distance <= 2)
        .min();
    match near {
        Some((_, name)) => error.hint(format!("did you mean `{name}`?")),
        None => error,
    }
}
