//! Board pictures for the terminal: Unicode by default, plain ASCII on request.
//!
//! Colour is written as ANSI styles, which `Out::picture` keeps where the reader sees them and
//! strips elsewhere (`NO_COLOR`, or output that is not a terminal).

mod campaign;
mod chess;
mod guerrilla;

use anstyle::{AnsiColor, Style};
use correspond::rules::{Game, Line};
use std::io::{self, Write};

/// Which characters to draw with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Charset {
    /// Chess-like figurines and a middle dot for empty squares.
    Unicode,
    /// Position-string letters and `.` for empty squares.
    Ascii,
}

/// A game that can draw itself.
pub(crate) trait Render: Game {
    /// Examples of its move notation, for help texts: `` `c2c3`, `b6b7g` ``.
    const NOTATION: &'static str;

    /// Draws the current position of `line`, marking the last move played.
    fn render(line: &Line<Self>, charset: Charset, out: &mut dyn Write) -> io::Result<()>;
}

pub(super) const CHECK: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)));
pub(super) const LAST: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Green)));
pub(super) const DIM: Style = Style::new().dimmed();
pub(super) const BOLD: Style = Style::new().bold();
