//! Tournaments: the pieces of a round-robin section that anyone can recompute from the files,
//! pure and with no I/O: the lot that numbers the players, which no one party steers ([`lot`]);
//! FIDE's Berger tables, which give each number its pairings and colours ([`berger`]); and the
//! crosstable with its tie-breaks ([`crosstable`]). The tournament file and the games of the
//! event build on these.

pub mod berger;
pub mod crosstable;
pub mod lot;
