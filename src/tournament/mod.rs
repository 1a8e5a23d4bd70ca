//! Tournaments: the pieces of a round-robin section or a Swiss event that anyone can recompute from the files,
//! pure and with no I/O: the lot that numbers the players, which no one party steers ([`lot`]);
//! FIDE's Berger tables, which give each number its pairings and colours ([`berger`]); and the
//! crosstable with its tie-breaks ([`crosstable`]); the tournament file that holds an event's
//! terms, entries and lot ([`file`]), checked into an [`event`]; the games of its pairings,
//! each proven to be exactly its pairing's ([`pairing`]) by the tags that name it ([`tags`]); and the event's standing from those
//! games ([`table`]), which FIDE's report file carries to other programs ([`trf`]); and a Swiss event's rounds,
//! each paired by a pairing program whose input anyone can make again ([`swiss`]).

pub mod berger;
pub mod crosstable;
pub mod event;
pub mod file;
pub mod lot;
pub mod pairing;
pub mod swiss;
pub mod table;
pub mod tags;
pub mod trf;
