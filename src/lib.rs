//! `correspond`: board games by correspondence.
//!
//! The library holds everything the `correspond` binary does, so that it can be tested and reused
//! without a terminal:
//!
//! - [`rules`]: each game's rules as pure functions over positions;
//! - [`cli`]: the command line, the only layer that reads files, the environment or the
//!   terminal, and the only one that prints.

#![forbid(unsafe_code)]

pub mod cli;
pub mod rules;
