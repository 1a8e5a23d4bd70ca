//! `correspond`: board games by correspondence.
//!
//! The library holds everything the `correspond` binary does but talk to a person, so that it can
//! be tested and reused without a terminal: it never prints, and reads no environment or clock
//! (libgit2 alone finds git's own configuration files, as git does; times are given). The command
//! line lives in the binary crate (`src/main.rs` and `src/cli/`), so the compiler holds that line.
//! Dependencies point inward: the command line uses everything; the domain ([`fork`], [`mail`],
//! [`audit`], [`referee`], ...) uses the [`games`]; each game uses [`replay`] and [`picture`],
//! which use [`rules`] and the small shared pieces; [`rules`] uses nothing.
//!
//! - [`rules`]: the trait every game's rules implement, and lines of play;
//! - [`games`]: one folder per game (its rules, protocol and pictures) and their registry;
//! - [`files`]: opening what users name without waiting on pipes or reading without end;
//! - [`log`]: the game file, its exact signed bytes and its hash chain;
//! - [`sign`]: SSH signatures (SSHSIG) with players' existing keys;
//! - [`flip`]: fair coin flips by commitment and reveal;
//! - [`hidden`]: hidden conditional lines, committed whole and revealed one reply at a time;
//! - [`replay`]: a game file's bytes in, every state and the verdict out (pure);
//! - [`audit`]: a file's versions in, each checked as an append of the one before (pure);
//! - [`ledger`]: playing for keeps: each key's balance over many games;
//! - [`journal`]: what a user's keys signed, so that none signs twice at one place;
//! - [`fork`]: two copies of a game compared, and proofs of equivocation (pure);
//! - [`mail`]: records sent and received as mail messages (pure);
//! - [`git`]: committing records and reading a file's history;
//! - [`interrupt`]: the steps a signal must let finish, and the temporary files it removes;
//! - [`ratings`]: Glicko-2 and FIDE-style Elo, the same to the bit on every machine (pure);
//! - [`picture`]: what every game's board pictures share, as SVG and as text (pure);
//! - [`text`]: text from others (files, file names, git, mail) made safe to show;
//! - [`tournament`]: the lot of a round robin's numbers, its pairings (FIDE's Berger tables)
//!   and its crosstable with tie-breaks (pure);
//! - [`writer`]: the one way a record is made: numbered, chained, journaled, signed, checked.

#![forbid(unsafe_code)]

pub mod audit;
pub mod digest;
pub mod files;
pub mod flip;
pub mod fork;
pub mod games;
pub mod git;
pub mod hidden;
pub mod interrupt;
pub mod journal;
pub mod ledger;
pub mod log;
pub mod mail;
pub mod parallel;
pub mod pgn;
pub mod picture;
pub mod ratings;
pub mod referee;
pub mod replay;
pub mod rules;
pub mod sign;
pub mod standings;
pub mod text;
pub mod tournament;
pub mod writer;
