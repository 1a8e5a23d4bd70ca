//! Tournaments: the pieces of a round-robin section that anyone can recompute from the files,
//! pure and with no I/O: FIDE's Berger tables for the pairings and colours ([`berger`]), and
//! the crosstable with its tie-breaks ([`crosstable`]). The tournament file, the lot of the
//! players' numbers and the games of the event build on these.

pub mod berger;
pub mod crosstable;
