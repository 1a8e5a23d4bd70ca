//! The registry of the games this program plays: one line per game, in
//! [`for_each_game!`](crate::for_each_game!).
//!
//! Everything that must know every game is generated from that line: the [`GameKind`] enum and
//! its list, the names and descriptions the command line offers, and
//! [`with_game!`](crate::with_game!), which runs code with a type parameter standing for the
//! game a [`GameKind`] names. A game is a folder here: its rules, its [`Protocol`], its SVG
//! picture ([`Draw`]) and its terminal picture ([`Render`]), which together make it
//! [`Playable`]; registering it is one line in [`for_each_game!`](crate::for_each_game!), which
//! checks that it is (see docs/adding-a-game.md).

pub mod campaign;
pub mod chess;
pub mod guerrilla;

// The registry's check comes before any use of a game, so that the first error a missing piece
// makes is here (the compiler reports in the order it meets items).
crate::for_each_game!(__game_pieces!());

mod any;

pub use any::{AnyReplayer, verify, verify_with};

use crate::picture::Draw;
use crate::picture::text::Render;
use crate::replay::Protocol;
use crate::rules::Game;

/// Everything a registered game provides, each in its own file of its folder: its rules
/// ([`Game`]), its protocol ([`Protocol`], `protocol.rs`), its SVG picture ([`Draw`],
/// `picture.rs`) and its terminal picture ([`Render`], `text.rs`). The registry checks each
/// game against it, so that a game without one of them fails to build there, naming the piece.
pub trait Playable: Game + Protocol + Draw + Render + 'static {}

impl<G: Game + Protocol + Draw + Render + 'static> Playable for G {}

/// The registry itself: calls the macro `$callback` (one of this crate's exported macros) with
/// `($($args)*)` and then, for each game, `Variant => type, "description";`.
///
/// The games are listed in the order help texts name them.
#[macro_export]
#[doc(hidden)]
macro_rules! for_each_game {
    ($callback:ident ! ($($args:tt)*)) => {
        $crate::$callback! { ($($args)*)
            Campaign => $crate::games::campaign::Campaign,
                "Campaign (Buck 20): chess-like, on 5 × 7 squares, with coins";
            Guerrilla => $crate::games::guerrilla::Guerrilla,
                "Guerrilla Checkers: two stones a turn against six checkers";
            Insurrection => $crate::games::chess::Insurrection,
                "Insurrection: chess in which captures change ranks and overthrow governments";
            Chess => $crate::games::chess::Chess,
                "Orthodox chess";
        }
    };
}

/// Runs `$body` with the type `$g` standing for the game that the [`GameKind`] `$kind` names:
/// `with_game!(kind, G => replay::<G>(&file))`.
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $g:ident => $body:expr) => {
        $crate::for_each_game!(__game_dispatch!($kind, $g, $body))
    };
}

/// [`with_game!`]'s match, one arm per registered game.
#[macro_export]
#[doc(hidden)]
macro_rules! __game_dispatch {
    (($kind:expr, $g:ident, $body:expr) $($variant:ident => $ty:ty, $about:literal;)*) => {
        match $kind {
            $($crate::games::GameKind::$variant => {
                type $g = $ty;
                $body
            })*
        }
    };
}

/// [`GameKind`] and its list, from the registry (invoked once, below).
#[macro_export]
#[doc(hidden)]
macro_rules! __game_kind {
    (() $($variant:ident => $ty:ty, $about:literal;)*) => {
        /// One of the games this program plays.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum GameKind {
            $(#[doc = $about] $variant,)*
        }

        impl GameKind {
            /// Every game, in the registry's order.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant),*];

            /// The game in a few words, for help texts.
            #[must_use]
            pub fn about(self) -> &'static str {
                match self {
                    $(GameKind::$variant => $about,)*
                }
            }
        }
    };
}

crate::for_each_game!(__game_kind!());

/// The registry's check that each game has every piece ([`Playable`]): a game without one fails
/// to build here, with the missing trait named.
#[macro_export]
#[doc(hidden)]
macro_rules! __game_pieces {
    (() $($variant:ident => $ty:ty, $about:literal;)*) => {
        const _: fn() = || {
            fn registered<G: $crate::games::Playable>() {}
            $(registered::<$ty>();)*
        };
    };
}

impl GameKind {
    /// The name a game file's header and the command line use: `campaign`.
    #[must_use]
    pub fn name(self) -> &'static str {
        use crate::rules::Game as _;
        crate::with_game!(self, G => G::NAME)
    }

    /// The game a name stands for, if this program plays it.
    #[must_use]
    pub fn named(name: &str) -> Option<GameKind> {
        GameKind::ALL
            .iter()
            .copied()
            .find(|kind| kind.name() == name)
    }

    /// Every game's name, in words: `campaign, guerrilla, insurrection and chess`.
    #[must_use]
    pub fn names_in_words() -> String {
        GameKind::names_joined("and")
    }

    /// Every game's name, the last two joined by `word`: `campaign, guerrilla, insurrection or
    /// chess`.
    #[must_use]
    pub fn names_joined(word: &str) -> String {
        let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => {
                format!("{} {word} {last}", rest.join(", "))
            }
            _ => names.concat(),
        }
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::GameKind;

    #[test]
    fn each_game_is_found_by_its_own_name_and_the_names_differ() {
        for kind in GameKind::ALL {
            assert_eq!(GameKind::named(kind.name()), Some(*kind));
        }
        let mut names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), GameKind::ALL.len());
        assert_eq!(GameKind::named("draughts"), None);
        // Every game, in the registry's order, the last after "and".
        let words = GameKind::names_in_words();
        let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
        let listed: Vec<String> = words
            .replacen(" and ", ", ", 1)
            .split(", ")
            .map(str::to_owned)
            .collect();
        assert_eq!(listed, names);
        assert!(words.ends_with(&format!(" and {}", names[names.len() - 1])));
        assert_eq!(GameKind::names_joined("or").matches(" or ").count(), 1);
    }
}
