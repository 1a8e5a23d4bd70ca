//! The SVG document a game draws its position on, which also keeps the board square by square:
//! what each square shows, in the square's own coordinates. Pictures made of squares (an
//! animation, whose frames redraw only the squares that changed; a replay page, which draws each
//! position from every square's look, each look written once) come from the same drawing as the
//! SVG, so that no game draws twice.

use super::{LINE, MARGIN, SQUARE, TEXT, WIDTH, escape};
use std::fmt::Write as _;

/// What an element of the board is drawn relative to, and so which squares it touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum At {
    /// A square's top-left corner, as the picture shows it: the element stays inside it.
    Square(u8, u8),
    /// The point where four squares meet (see [`Canvas::crossing`]): the element may reach
    /// into all four, no further than half a square from the point.
    Crossing(u8, u8),
}

/// An SVG document being written: a board of `files` by `ranks` squares, drawn from one side.
pub(crate) struct Canvas {
    out: String,
    files: u8,
    ranks: u8,
    flipped: bool,
    width: u32,
    height: u32,
    title: String,
    defs: String,
    definitions: Vec<String>,
    coordinates: String,
    /// What each square shows, by `rank * files + file`: its elements in drawing order, each
    /// drawn with the square's top-left corner at (0, 0).
    squares: Vec<String>,
}

/// A finished picture: its SVG document, and its board square by square.
#[derive(Clone, Debug)]
pub struct Picture {
    /// The standalone SVG document.
    pub svg: String,
    /// The board alone, square by square.
    pub board: Board,
    /// Its title (the game, and whose turn it is), as text.
    pub title: String,
    /// The lines under the board, as text, broken as they are drawn.
    pub captions: Vec<String>,
}

/// A picture's board as squares: what each shows, to be drawn (or compared) one at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Squares across.
    pub files: u8,
    /// Squares down.
    pub ranks: u8,
    /// Drawn turned half a turn.
    pub flipped: bool,
    /// The whole picture's size in its own units (the board, its margins and the captions).
    pub size: (u32, u32),
    /// The definitions the squares use (the pieces' drawings), as SVG.
    pub defs: String,
    /// The same, one element each.
    definitions: Vec<String>,
    /// What each square shows, SVG elements drawn in a square of [`Board::SQUARE`] units from
    /// (0, 0), by the square's place in the picture: row by row from the top left, as seen.
    pub squares: Vec<String>,
    /// The file letters and rank numbers round the board, as SVG elements.
    pub coordinates: String,
}

impl Board {
    /// The side of a square, in the picture's units.
    pub const SQUARE: u32 = SQUARE;
    /// The margin round the board, in the picture's units.
    pub const MARGIN: u32 = MARGIN;
    /// The height of a caption line, in the picture's units.
    pub const LINE: u32 = LINE;
    /// A caption line's element, before and after its `y`, but for its text (its colour is
    /// the coordinates', `TEXT`).
    pub const CAPTION: [&str; 2] = ["<text x=\"20\"", " font-size=\"13\" fill=\"#222\">"];

    /// The height of the board and its margins, without captions, in the picture's units.
    #[must_use]
    pub fn board_height(&self) -> u32 {
        board_height(self.ranks)
    }

    /// Where the first caption line's text stands (its `y`); each next is [`Board::LINE`]
    /// lower.
    #[must_use]
    pub fn first_caption(&self) -> u32 {
        first_caption(self.ranks)
    }

    /// The definitions the squares use, one SVG element each (the glow of a check, the
    /// pieces'), without the `<defs>` round them.
    #[must_use]
    pub fn definitions(&self) -> &[String] {
        &self.definitions
    }

    /// The top-left corner, in the picture's units, of the square shown `index`-th (row by
    /// row from the top left).
    #[must_use]
    pub fn corner(&self, index: usize) -> (u32, u32) {
        let files = usize::from(self.files.max(1));
        let (column, row) = (index % files, index / files);
        (
            MARGIN + SQUARE * u32::try_from(column).unwrap_or(0),
            MARGIN + SQUARE * u32::try_from(row).unwrap_or(0),
        )
    }
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
        Canvas::sized(title, files, ranks, flipped, captions, position, false)
    }

    /// A picture shown at its own size, a pixel a unit, rather than 400 pixels wide: for one
    /// drawn into pixels at a scale of its units exactly (an animation's ground, under squares
    /// drawn alone), where the rounded height of [`Canvas::new`]'s would scale it a little
    /// less than its width.
    pub(crate) fn own_size(files: u8, ranks: u8, flipped: bool, captions: &[String]) -> Canvas {
        Canvas::sized("", files, ranks, flipped, captions, "", true)
    }

    fn sized(
        title: &str,
        files: u8,
        ranks: u8,
        flipped: bool,
        captions: &[String],
        position: &str,
        own_size: bool,
    ) -> Canvas {
        let width = u32::from(files) * SQUARE + 2 * MARGIN;
        let lines = u32::try_from(wrapped(captions, files).len()).unwrap_or(0);
        let height = board_height(ranks) + LINE * lines;
        let (shown_width, shown_height) = if own_size {
            (width, height)
        } else {
            (WIDTH, shown_height(width, height))
        };
        let mut out = String::with_capacity(16 * 1024);
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
             version=\"1.1\" viewBox=\"0 0 {width} {height}\" width=\"{shown_width}\" height=\"{shown_height}\" \
             data-position=\"{}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n<title>{}</title>\n",
            escape(position),
            escape(title)
        );
        let _ = writeln!(
            out,
            "<rect width=\"{width}\" height=\"{height}\" fill=\"#fff\"/>"
        );
        Canvas {
            out,
            files,
            ranks,
            flipped,
            width,
            height,
            title: title.to_owned(),
            defs: String::new(),
            definitions: Vec::new(),
            coordinates: String::new(),
            squares: vec![String::new(); usize::from(files) * usize::from(ranks)],
        }
    }

    /// The top-left corner of square (`file`, `rank`), 0-based from White's or Heads' a1.
    pub(crate) fn corner(&self, file: u8, rank: u8) -> (u32, u32) {
        let (column, row) = self.shown(file, rank);
        (
            MARGIN + u32::from(column) * SQUARE,
            MARGIN + u32::from(row) * SQUARE,
        )
    }

    /// Where square (`file`, `rank`) is shown: its column from the left and row from the top.
    fn shown(&self, file: u8, rank: u8) -> (u8, u8) {
        if self.flipped {
            (self.files - 1 - file, rank)
        } else {
            (file, self.ranks - 1 - rank)
        }
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

    /// The definitions the board's elements use (see [`super::pieces::defs`]), written once
    /// before them.
    pub(crate) fn defs(&mut self, defs: &[String]) {
        let all = super::pieces::defs(defs);
        self.out.push_str(&all);
        self.defs = all;
        self.definitions = super::pieces::shared()
            .into_iter()
            .chain(defs.iter().cloned())
            .collect();
    }

    /// An element of the board, drawn by `draw` from the point `at` names (a square's corner
    /// or a crossing): into the document, and into each square it touches from that square's
    /// own corner.
    pub(crate) fn place(&mut self, at: At, draw: impl Fn(i64, i64) -> String) {
        let (point, touched) = match at {
            At::Square(file, rank) => (self.corner(file, rank), vec![(file, rank)]),
            At::Crossing(file, rank) => (
                self.crossing(file, rank),
                [(0, 0), (1, 0), (0, 1), (1, 1)]
                    .into_iter()
                    .map(|(f, r)| (file + f, rank + r))
                    .filter(|&(f, r)| f < self.files && r < self.ranks)
                    .collect(),
            ),
        };
        let (x, y) = (i64::from(point.0), i64::from(point.1));
        self.out.push_str(&draw(x, y));
        for (file, rank) in touched {
            let (left, top) = self.corner(file, rank);
            let (column, row) = self.shown(file, rank);
            let index = usize::from(row) * usize::from(self.files) + usize::from(column);
            self.squares[index].push_str(&draw(x - i64::from(left), y - i64::from(top)));
        }
    }

    /// A square filled with `colour`, with a class naming it for style sheets.
    pub(crate) fn square(&mut self, file: u8, rank: u8, colour: &str, class: &str) {
        self.place(At::Square(file, rank), |x, y| {
            format!(
                "<rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{colour}\"/>\n"
            )
        });
    }

    /// The board's squares, light and dark, the last move's squares tinted.
    pub(crate) fn checkered(&mut self, marked: &[(u8, u8)]) {
        for rank in 0..self.ranks {
            for file in 0..self.files {
                let dark = (file + rank) % 2 == 0;
                let (colour, class) = match (marked.contains(&(file, rank)), dark) {
                    (true, _) => (super::LAST_MOVE, "square last"),
                    (false, true) => (super::DARK, "square dark"),
                    (false, false) => (super::LIGHT, "square light"),
                };
                self.square(file, rank, colour, class);
            }
        }
    }

    /// A red glow on a square: a piece in check.
    pub(crate) fn check(&mut self, file: u8, rank: u8) {
        let half = i64::from(SQUARE / 2);
        self.place(At::Square(file, rank), |x, y| {
            format!(
                "<circle class=\"check\" cx=\"{}\" cy=\"{}\" r=\"{half}\" fill=\"url(#check)\"/>\n",
                x + half,
                y + half
            )
        });
    }

    /// A piece drawn from the definitions, on a square.
    pub(crate) fn piece(&mut self, file: u8, rank: u8, id: &str) {
        self.place(At::Square(file, rank), |x, y| {
            format!("<use xlink:href=\"#{id}\" href=\"#{id}\" x=\"{x}\" y=\"{y}\"/>\n")
        });
    }

    /// A ring round a square's piece: an Insurrection government's, say.
    pub(crate) fn ring(&mut self, file: u8, rank: u8, colour: &str) {
        let half = i64::from(SQUARE / 2);
        self.place(At::Square(file, rank), |x, y| {
            format!(
                "<circle class=\"ring\" cx=\"{}\" cy=\"{}\" r=\"20\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"3\"/>\n",
                x + half,
                y + half
            )
        });
    }

    /// The file letters under (and over) the board and the rank numbers beside it.
    pub(crate) fn coordinates(&mut self) {
        let bottom = MARGIN + u32::from(self.ranks) * SQUARE;
        let mut marks = String::new();
        for file in 0..self.files {
            let (x, _) = self.corner(file, 0);
            let letter = char::from(b'a' + file);
            for y in [MARGIN - 6, bottom + 14] {
                let _ = writeln!(
                    marks,
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
                    marks,
                    "<text x=\"{x}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"{TEXT}\">{}</text>",
                    y + SQUARE / 2 + 4,
                    rank + 1
                );
            }
        }
        self.out.push_str(&marks);
        self.coordinates = marks;
    }

    /// The caption lines under the board, and the end of the document.
    pub(crate) fn finish(mut self, captions: &[String]) -> Picture {
        let lines = wrapped(captions, self.files);
        let [before, after] = Board::CAPTION;
        for (i, caption) in lines.iter().enumerate() {
            let y = first_caption(self.ranks) + LINE * u32::try_from(i).unwrap_or(0);
            let _ = writeln!(
                self.out,
                "{before} y=\"{y}\"{after}{}</text>",
                escape(caption)
            );
        }
        self.out.push_str("</svg>\n");
        Picture {
            svg: self.out,
            title: self.title,
            captions: lines,
            board: Board {
                files: self.files,
                ranks: self.ranks,
                flipped: self.flipped,
                size: (self.width, self.height),
                defs: self.defs,
                definitions: self.definitions,
                squares: self.squares,
                coordinates: self.coordinates,
            },
        }
    }
}

/// The height of a board of `ranks` squares and its margins, in the picture's units.
fn board_height(ranks: u8) -> u32 {
    u32::from(ranks) * SQUARE + 2 * MARGIN
}

/// Where the first caption line under a board of `ranks` squares stands (its `y`).
fn first_caption(ranks: u8) -> u32 {
    board_height(ranks) + 12
}

/// The height in pixels a picture `width` by `height` units asks to be shown at, being shown
/// [`WIDTH`] pixels wide.
#[must_use]
pub fn shown_height(width: u32, height: u32) -> u32 {
    WIDTH * height / width.max(1)
}

/// The caption lines broken between words to fit under a board `files` squares wide (at
/// about 7.5 units a character of the caption's size), a word too long for a line cut.
pub(crate) fn wrapped(captions: &[String], files: u8) -> Vec<String> {
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
