//! A replayer for whichever game a file's header names, for the commands that take any game
//! file (`verify`, `audit`, forks, mail) and so cannot name the game's type. The game is looked
//! up in the registry ([`crate::games`]); nothing here names a game.

use super::GameKind;
use crate::log::GameFile;
use crate::replay::{ErrorKind, Protocol, ReplayError, Replayer, Seat, Summary};

/// A [`Replayer`] of the game a header names.
pub struct AnyReplayer(Box<dyn Erased>);

/// What [`AnyReplayer`] asks of a [`Replayer`], whatever its game.
trait Erased {
    fn advance(
        self: Box<Self>,
        file: &GameFile,
        threads: usize,
        vouched: usize,
    ) -> Result<Box<dyn Erased>, ReplayError>;
    fn awaited(&self) -> Option<Seat>;
    fn summary(self: Box<Self>) -> Summary;
}

impl<G: Protocol + 'static> Erased for Replayer<G> {
    fn advance(
        self: Box<Self>,
        file: &GameFile,
        threads: usize,
        vouched: usize,
    ) -> Result<Box<dyn Erased>, ReplayError> {
        Ok(Box::new((*self).advance_vouched(file, threads, vouched)?))
    }

    fn awaited(&self) -> Option<Seat> {
        self.last().phase.awaited()
    }

    fn summary(self: Box<Self>) -> Summary {
        Summary::of(&(*self).finish())
    }
}

impl AnyReplayer {
    /// Starts replaying `file` as the game its header names.
    ///
    /// # Errors
    /// An unknown game, or what is wrong with the header.
    pub fn start(file: &GameFile) -> Result<AnyReplayer, ReplayError> {
        let name = file.header().game.as_str();
        let Some(kind) = GameKind::named(name) else {
            return Err(ReplayError {
                document: Some(0),
                line: file.line(0),
                kind: ErrorKind::UnknownGame(name.to_owned(), GameKind::names_in_words()),
            });
        };
        let erased: Box<dyn Erased> =
            crate::with_game!(kind, G => Box::new(Replayer::<G>::start(file)?));
        Ok(AnyReplayer(erased))
    }

    /// Replays the records of `file` not yet replayed (see [`Replayer::advance`]).
    ///
    /// # Errors
    /// The first defect among them.
    pub fn advance(self, file: &GameFile) -> Result<AnyReplayer, ReplayError> {
        self.advance_with(file, 1)
    }

    /// [`AnyReplayer::advance`] with up to `threads` threads (see [`Replayer::advance_with`]).
    ///
    /// # Errors
    /// The first defect among them.
    pub fn advance_with(self, file: &GameFile, threads: usize) -> Result<AnyReplayer, ReplayError> {
        Ok(AnyReplayer(self.0.advance(file, threads, 0)?))
    }

    /// [`AnyReplayer::advance_with`], the signatures before document `vouched` taken on its
    /// caller's word (see [`Replayer::advance_vouched`]).
    ///
    /// # Errors
    /// The first defect among the records not yet replayed.
    pub fn advance_vouched(
        self,
        file: &GameFile,
        threads: usize,
        vouched: usize,
    ) -> Result<AnyReplayer, ReplayError> {
        Ok(AnyReplayer(self.0.advance(file, threads, vouched)?))
    }

    /// The seat the game awaits after the records replayed so far (`None` once it is over).
    #[must_use]
    pub fn awaited(&self) -> Option<Seat> {
        self.0.awaited()
    }

    /// The game summed up as replayed so far.
    #[must_use]
    pub fn summary(self) -> Summary {
        self.0.summary()
    }
}

/// Parses and replays a game file as the game its header names, and sums it up.
///
/// # Errors
/// The first defect, naming its document and line.
pub fn verify(bytes: &[u8]) -> Result<Summary, ReplayError> {
    verify_with(bytes, 1)
}

/// [`verify`] with up to `threads` threads; the result is the same for any number.
///
/// # Errors
/// The first defect, naming its document and line.
pub fn verify_with(bytes: &[u8], threads: usize) -> Result<Summary, ReplayError> {
    let file = GameFile::parse_with(bytes, threads)?;
    let mut summary = AnyReplayer::start(&file)?
        .advance_with(&file, threads)?
        .summary();
    summary.last_time = Some(match file.records().last() {
        Some(record) => record.time.clone(),
        None => file.header().created.clone(),
    });
    summary.header = Some(Box::new(file.header().clone()));
    Ok(summary)
}
