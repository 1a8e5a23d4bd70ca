//! A replayer for whichever game a file's header names, for the commands that take any game
//! file (`verify`, `audit`) and so cannot name the game's type.

use super::{ErrorKind, ReplayError, Replayer, Summary};
use crate::log::GameFile;
use crate::rules::Game;
use crate::rules::campaign::Campaign;
use crate::rules::chess::{Chess, Insurrection};
use crate::rules::guerrilla::Guerrilla;

/// A [`Replayer`] of the game a header names.
pub enum AnyReplayer {
    /// Campaign.
    Campaign(Replayer<Campaign>),
    /// Guerrilla Checkers.
    Guerrilla(Replayer<Guerrilla>),
    /// Insurrection.
    Insurrection(Replayer<Insurrection>),
    /// Orthodox chess.
    Chess(Replayer<Chess>),
}

macro_rules! each {
    ($value:expr, $r:ident => $body:expr) => {
        match $value {
            AnyReplayer::Campaign($r) => AnyReplayer::Campaign($body),
            AnyReplayer::Guerrilla($r) => AnyReplayer::Guerrilla($body),
            AnyReplayer::Insurrection($r) => AnyReplayer::Insurrection($body),
            AnyReplayer::Chess($r) => AnyReplayer::Chess($body),
        }
    };
}

impl AnyReplayer {
    /// Starts replaying `file` as the game its header names.
    ///
    /// # Errors
    /// An unknown game, or what is wrong with the header.
    pub fn start(file: &GameFile) -> Result<AnyReplayer, ReplayError> {
        Ok(match file.header().game.as_str() {
            Campaign::NAME => AnyReplayer::Campaign(Replayer::start(file)?),
            Guerrilla::NAME => AnyReplayer::Guerrilla(Replayer::start(file)?),
            Insurrection::NAME => AnyReplayer::Insurrection(Replayer::start(file)?),
            Chess::NAME => AnyReplayer::Chess(Replayer::start(file)?),
            other => {
                return Err(ReplayError {
                    document: Some(0),
                    line: file.line(0),
                    kind: ErrorKind::UnknownGame(other.to_owned()),
                });
            }
        })
    }

    /// Replays the records of `file` not yet replayed (see [`Replayer::advance`]).
    ///
    /// # Errors
    /// The first defect among them.
    pub fn advance(self, file: &GameFile) -> Result<AnyReplayer, ReplayError> {
        Ok(each!(self, r => r.advance(file)?))
    }

    /// The seat the game awaits after the records replayed so far (`None` once it is over).
    #[must_use]
    pub fn awaited(&self) -> Option<usize> {
        match self {
            AnyReplayer::Campaign(r) => r.last().phase.awaited(),
            AnyReplayer::Guerrilla(r) => r.last().phase.awaited(),
            AnyReplayer::Insurrection(r) => r.last().phase.awaited(),
            AnyReplayer::Chess(r) => r.last().phase.awaited(),
        }
    }

    /// The game summed up as replayed so far.
    #[must_use]
    pub fn summary(self) -> Summary {
        match self {
            AnyReplayer::Campaign(r) => Summary::of(&r.finish()),
            AnyReplayer::Guerrilla(r) => Summary::of(&r.finish()),
            AnyReplayer::Insurrection(r) => Summary::of(&r.finish()),
            AnyReplayer::Chess(r) => Summary::of(&r.finish()),
        }
    }
}
