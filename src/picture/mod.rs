//! Board pictures for mail, forums, issues and the replay page: every game drawn by this program
//! as SVG (no font or image fetched), the same bytes for the same position, legible from 200 to
//! 800 pixels wide; and from that drawing, PNG ([`raster`]) and animated GIF ([`animation`]).
//!
//! A picture is a function of a line of play (the position, and the move that reached it) and
//! the options; what a game file adds (names, a coin, a verdict) comes in as caption lines.
//! Pure: nothing here prints or reads anything. A rating history chart is drawn here too
//! ([`chart`]).

pub mod animation;
mod canvas;
pub mod chart;
pub(crate) mod pieces;
pub mod raster;
pub mod text;

pub(crate) use canvas::{At, Canvas};
pub use canvas::{Board, Picture, shown_height};

use crate::rules::{Game, Line};

/// How a picture is drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Turned half a turn: the side that moves first (White, Heads, the Guerrilla) at the top.
    pub flipped: bool,
    /// Lines of text under the board, after the game's own (whose turn, check, the outcome):
    /// what a game file adds, such as the players or a comment.
    pub captions: Vec<String>,
    /// How the game ended, as a game file says it (a resignation, a Run-Off and its coin), said
    /// in place of what the position alone shows.
    pub verdict: Option<String>,
}

impl Options {
    /// The first caption: the verdict given, else the position's own line.
    pub(crate) fn first_line(&self, own: String) -> String {
        self.verdict.clone().unwrap_or(own)
    }

    /// What the title says after the game's name: whose turn it is, or that nobody's is, the
    /// game being over by its rules (`over`) or by what the file says (a verdict).
    pub(crate) fn turn(&self, over: bool, to_move: impl std::fmt::Display) -> String {
        turn(over || self.verdict.is_some(), to_move)
    }
}

/// What a picture's first line says after the game's name: that the game is `over`, else whose
/// turn it is. The terminal's pictures say it the same way.
#[must_use]
pub fn turn(over: bool, to_move: impl std::fmt::Display) -> String {
    if over {
        "game over".to_owned()
    } else {
        format!("{to_move} to move")
    }
}

/// A game that can draw its positions as SVG.
pub trait Draw: Game {
    /// The picture of the current position of `line`, with its last move marked: the SVG
    /// document, and its board square by square.
    fn picture(line: &Line<Self>, options: &Options) -> Picture;

    /// The SVG document of [`Draw::picture`].
    fn svg(line: &Line<Self>, options: &Options) -> String {
        Self::picture(line, options).svg
    }
}

/// The side of one square, in the picture's units.
const SQUARE: u32 = 45;
/// The margin round the board, where the coordinates are.
const MARGIN: u32 = 20;
/// The height of a caption line.
const LINE: u32 = 18;
/// The width the picture asks to be shown at, in pixels; it scales to any other.
pub const WIDTH: u32 = 400;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
pub(crate) const LAST_MOVE: &str = "#cdd16a";
const TEXT: &str = "#222";

/// Text made safe inside an SVG element or attribute, and shown as it would be in a terminal
/// (see [`crate::text::escape`]).
#[must_use]
pub fn escape(text: &str) -> String {
    let shown = crate::text::escape(text);
    let mut out = String::with_capacity(shown.len());
    for c in shown.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
