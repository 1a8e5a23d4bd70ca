//! What the commands share: errors and output, keys, the game and position arguments, records written and committed.

pub(crate) mod checked;
pub(crate) mod clocks;
pub(crate) mod commit;
pub(crate) mod copies;
pub(crate) mod error;
pub(crate) mod game;
pub(crate) mod hidden;
pub(crate) mod keys;
pub(crate) mod next;
pub(crate) mod places;
pub(crate) mod progress;
pub(crate) mod recap;
pub(crate) mod record;
pub(crate) mod signing_journal;
pub(crate) mod target;
