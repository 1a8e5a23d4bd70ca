//! The program itself: the signing journal, shell completions and manual pages.

pub(crate) mod completions;
pub(crate) mod journal;
pub(crate) mod man;
