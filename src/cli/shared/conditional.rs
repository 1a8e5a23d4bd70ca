//! Conditional lines as players read them: in the game's own notation (SAN in chess), from the
//! position they are played from.

use correspond::replay::Protocol;

/// A move in the file's notation, as the game shows it in `position` (SAN in chess).
pub(crate) fn shown_move<G: Protocol>(position: &G, text: &str) -> String {
    correspond::replay::shown_line(position, std::slice::from_ref(&text.to_owned()))
}
