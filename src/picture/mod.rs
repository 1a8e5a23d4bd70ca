//! Board pictures as SVG, for mail, forums, issues and the replay page: every game drawn by
//! this program (no font or image fetched), the same bytes for the same position, legible from
//! 200 to 800 pixels wide.
//!
//! A picture is a function of a line of play (the position, and the move that reached it) and
//! the options; what a game file adds (names, a coin, a verdict) comes in as caption lines.
//! Pure: nothing here prints or reads anything. A rating history chart is drawn here too
//! ([`chart`]).

pub mod chart;
pub(crate) mod pieces;
pub mod text;

use crate::rules::{Game, Line};
use std::fmt::Write as _;

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
    /// The picture of the current position of `line`, with its last move marked.
    fn svg(line: &Line<Self>, options: &Options) -> String;
}

/// The side of one square, in the picture's units.
const SQUARE: u32 = 45;
/// The margin round the board, where the coordinates are.
const MARGIN: u32 = 20;
/// The height of a caption line.
const LINE: u32 = 18;
/// The width the picture asks to be shown at, in pixels; it scales to any other.
const WIDTH: u32 = 400;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
pub(crate) const LAST_MOVE: &str = "#cdd16a";
const TEXT: &str = "#222";

/// An SVG document being written: a board of `files` by `ranks` squares, drawn from one side.
pub(crate) struct Canvas {
    out: String,
    files: u8,
    ranks: u8,
    flipped: bool,
}

impl Canvas {
    /// Starts a picture of a `files` by `ranks` board with `captions` lines under it.
    /// `position` is the position string, kept in a data attribute for programs (the replay
    /// page's tests read it).
    pub(crate) fn new(
        title: &str,
        files: u8,
        ranks: u8,
        flipped: bool,
        captions: &[String],
        position: &str,
    ) -> Canvas {
        let width = u32::from(files) * SQUARE + 2 * MARGIN;
        let lines = u32::try_from(wrapped(captions, files).len()).unwrap_or(0);
        let height = u32::from(ranks) * SQUARE + 2 * MARGIN + LINE * lines;
        let shown = WIDTH * height / width;
        let mut out = String::with_capacity(16 * 1024);
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
             version=\"1.1\" viewBox=\"0 0 {width} {height}\" width=\"{WIDTH}\" height=\"{shown}\" \
             data-position=\"{}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n<title>{}</title>\n",
            escape(position),
            escape(title)
        );
        out.push_str(&format!(
            "<rect width=\"{width}\" height=\"{height}\" fill=\"#fff\"/>\n"
        ));
        Canvas {
            out,
            files,
            ranks,
            flipped,
        }
    }

    /// The top-left corner of square (`file`, `rank`), 0-based from White's or Heads' a1.
    pub(crate) fn corner(&self, file: u8, rank: u8) -> (u32, u32) {
        let (column, row) = if self.flipped {
            (self.files - 1 - file, rank)
        } else {
            (file, self.ranks - 1 - rank)
        };
        (
            MARGIN + u32::from(column) * SQUARE,
            MARGIN + u32::from(row) * SQUARE,
        )
    }

    /// The point where the corners of four squares meet: the one above and right of
    /// (`file`, `rank`) from a1's side.
    pub(crate) fn crossing(&self, file: u8, rank: u8) -> (u32, u32) {
        let (x, y) = self.corner(file, rank);
        if self.flipped {
            (x, y + SQUARE)
        } else {
            (x + SQUARE, y)
        }
    }

    /// A square filled with `colour`, with a class naming it for style sheets.
    pub(crate) fn square(&mut self, file: u8, rank: u8, colour: &str, class: &str) {
        let (x, y) = self.corner(file, rank);
        let _ = writeln!(
            self.out,
            "<rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{colour}\"/>"
        );
    }

    /// The board's squares, light and dark, the last move's squares tinted.
    pub(crate) fn checkered(&mut self, marked: &[(u8, u8)]) {
        for rank in 0..self.ranks {
            for file in 0..self.files {
                let dark = (file + rank) % 2 == 0;
                let (colour, class) = match (marked.contains(&(file, rank)), dark) {
                    (true, _) => (LAST_MOVE, "square last"),
                    (false, true) => (DARK, "square dark"),
                    (false, false) => (LIGHT, "square light"),
                };
                self.square(file, rank, colour, class);
            }
        }
    }

    /// A red glow on a square: a piece in check.
    pub(crate) fn check(&mut self, file: u8, rank: u8) {
        let (x, y) = self.corner(file, rank);
        let (cx, cy, r) = (x + SQUARE / 2, y + SQUARE / 2, SQUARE / 2);
        let _ = writeln!(
            self.out,
            "<circle class=\"check\" cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"url(#check)\"/>"
        );
    }

    /// A piece drawn from the definitions, on a square.
    pub(crate) fn piece(&mut self, file: u8, rank: u8, id: &str) {
        let (x, y) = self.corner(file, rank);
        let _ = writeln!(
            self.out,
            "<use xlink:href=\"#{id}\" href=\"#{id}\" x=\"{x}\" y=\"{y}\"/>"
        );
    }

    /// A ring round a square's piece: an Insurrection government's, say.
    pub(crate) fn ring(&mut self, file: u8, rank: u8, colour: &str) {
        let (x, y) = self.corner(file, rank);
        let _ = writeln!(
            self.out,
            "<circle class=\"ring\" cx=\"{}\" cy=\"{}\" r=\"20\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"3\"/>",
            x + SQUARE / 2,
            y + SQUARE / 2
        );
    }

    /// Raw SVG elements.
    pub(crate) fn raw(&mut self, svg: &str) {
        self.out.push_str(svg);
    }

    /// The file letters under (and over) the board and the rank numbers beside it.
    pub(crate) fn coordinates(&mut self) {
        let bottom = MARGIN + u32::from(self.ranks) * SQUARE;
        for file in 0..self.files {
            let (x, _) = self.corner(file, 0);
            let letter = char::from(b'a' + file);
            for y in [MARGIN - 6, bottom + 14] {
                let _ = writeln!(
                    self.out,
                    "<text x=\"{}\" y=\"{y}\" font-size=\"12\" text-anchor=\"middle\" fill=\"{TEXT}\">{letter}</text>",
                    x + SQUARE / 2
                );
            }
        }
        let right = MARGIN + u32::from(self.files) * SQUARE;
        for rank in 0..self.ranks {
            let (_, y) = self.corner(0, rank);
            for x in [MARGIN / 2, right + MARGIN / 2] {
                let _ = writeln!(
                    self.out,
                    "<text x=\"{x}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"{TEXT}\">{}</text>",
                    y + SQUARE / 2 + 4,
                    rank + 1
                );
            }
        }
    }

    /// The caption lines under the board, and the end of the document.
    pub(crate) fn finish(mut self, captions: &[String]) -> String {
        let top = 2 * MARGIN + u32::from(self.ranks) * SQUARE;
        for (i, caption) in wrapped(captions, self.files).iter().enumerate() {
            let y = top + LINE * u32::try_from(i).unwrap_or(0) + 12;
            let _ = writeln!(
                self.out,
                "<text x=\"{MARGIN}\" y=\"{y}\" font-size=\"13\" fill=\"{TEXT}\">{}</text>",
                escape(caption)
            );
        }
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// The caption lines broken between words to fit under a board `files` squares wide (at
/// about 7.5 units a character of the caption's size), a word too long for a line cut.
fn wrapped(captions: &[String], files: u8) -> Vec<String> {
    let room = usize::from(files) * SQUARE as usize * 2 / 15;
    let mut lines = Vec::new();
    for caption in captions {
        let mut line = String::new();
        for word in caption.split(' ') {
            let word: String = word.chars().take(room).collect();
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > room {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        lines.push(line);
    }
    lines
}

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
