//! Reading a game: its state, its board, its records, its moves, and its exports (PGN, a page).

pub(crate) mod extract;
pub(crate) mod gif;
pub(crate) mod html;
pub(crate) mod import_pgn;
pub(crate) mod log;
pub(crate) mod moves;
pub(crate) mod page;
pub(crate) mod perft;
pub(crate) mod pgn;
pub(crate) mod position;
pub(crate) mod show;
pub(crate) mod show_json;
pub(crate) mod status;
pub(crate) mod status_json;
