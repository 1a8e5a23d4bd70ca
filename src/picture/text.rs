//! Board pictures for the terminal, as text: Unicode by default, plain ASCII on request. Each
//! game draws its own (`src/games/NAME/text.rs`); the command line prints them.
//!
//! Colour is written as ANSI styles, which the command line keeps where the reader sees them and
//! strips elsewhere (`NO_COLOR`, or output that is not a terminal).

use crate::rules::{Game, Line};
use anstyle::{AnsiColor, Style};
use std::fmt::{self, Write};

/// Which characters to draw with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charset {
    /// Chess-like figurines and a middle dot for empty squares.
    Unicode,
    /// Position-string letters and `.` for empty squares.
    Ascii,
}

/// How a board is drawn: with which characters, and from which side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// The characters drawn with.
    pub charset: Charset,
    /// Turned half a turn: the side that moves first (White, Heads, the Guerrilla) at the top,
    /// as its opponent sits.
    pub flipped: bool,
    /// The game was over at the position drawn, whatever ended it (its rules, a resignation,
    /// an agreement, a timeout, an arbiter): nobody is to move.
    pub over: bool,
}

impl View {
    /// Files (or ranks) `0..n` in the order they are drawn: left to right for files, top to
    /// bottom for ranks when `descending`.
    pub(crate) fn order(self, n: u8, descending: bool) -> impl Iterator<Item = u8> {
        let down = descending != self.flipped;
        (0..n).map(move |i| if down { n - 1 - i } else { i })
    }

    /// What the first line says after the game's name: whose turn it is, or that the game is
    /// over, by what ended it outside the position or by the position itself (`ended`).
    pub(crate) fn turn(self, ended: bool, to_move: impl std::fmt::Display) -> String {
        super::turn(self.over || ended, to_move)
    }
}

/// A game that can draw itself.
pub trait Render: Game {
    /// Examples of its move notation, for help texts: `` `c2c3`, `b6b7g` ``.
    const NOTATION: &'static str;

    /// Draws the current position of `line`, marking the last move played.
    fn render(line: &Line<Self>, view: View, out: &mut dyn Write) -> fmt::Result;

    /// [`Render::render`] into a string, styles and all.
    fn text(line: &Line<Self>, view: View) -> String {
        let mut text = String::new();
        // Writing to a string cannot fail, and no picture fails of itself.
        let _ = Self::render(line, view, &mut text);
        text
    }

    /// The number of the first move of a line from `start`, for a move list: the position's
    /// full-move number where it has one.
    fn first_move_number(start: &Self) -> u32 {
        let _ = start;
        1
    }
}

pub(crate) const CHECK: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)));
pub(crate) const LAST: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Green)));
pub(crate) const DIM: Style = Style::new().dimmed();
pub(crate) const BOLD: Style = Style::new().bold();
