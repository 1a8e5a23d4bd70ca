//! A game file as the commands that take many (`verify`, `games`, `standings`, `site`) found
//! it, shared by them and by the check of a folder's tournaments, which refuses a game that is
//! not its pairing's.

use correspond::replay::{ReplayError, Summary};

/// A file checked: what it holds, its first defect, or why it cannot be read.
pub(crate) enum Checked {
    Valid(Box<Summary>),
    Invalid(ReplayError),
    Unreadable(String),
    /// A valid game that names a tournament whose file is here, and is not its pairing's game
    /// (see `src/cli/tournament/check.rs`): why.
    Refused(Box<Summary>, String),
}
