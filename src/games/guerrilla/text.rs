//! Guerrilla Checkers' two grids in one picture: checkers in the cells, stones on the points
//! between them. Cell rows alternate with point rows; cell files are labelled above, point
//! files below, cell ranks on the left and point ranks on the right.

use crate::games::guerrilla::{Cell, Guerrilla, Move, Point};
use crate::picture::text::{BOLD, Charset, DIM, LAST, Render, View};
use crate::rules::{Game, Line};
use anstyle::Style;
use std::fmt::{self, Write};

impl Render for Guerrilla {
    const NOTATION: &'static str = "`b4,c4`, `f5-g4`, `c4xb3`";

    fn render(line: &Line<Guerrilla>, view: View, out: &mut dyn Write) -> fmt::Result {
        let charset = view.charset;
        let pos = line.current();
        let last = line.moves().last();
        let glyphs = match charset {
            Charset::Unicode => Glyphs {
                checker: '⛂',
                stone: '●',
                cell: '·',
                point: '┼',
            },
            Charset::Ascii => Glyphs {
                checker: 'C',
                stone: 'S',
                cell: '.',
                point: '+',
            },
        };
        writeln!(
            out,
            "{BOLD}Guerrilla Checkers{BOLD:#}, {}; supply {}, stones on the board {}, checkers {}",
            view.turn(pos.outcome().is_some(), pos.side_to_move()),
            pos.supply(),
            pos.stones_on_board(),
            pos.checkers_on_board()
        )?;
        writeln!(out)?;
        let files: String = view
            .order(8, false)
            .map(|x| format!("  {} ", char::from(b'a' + x)))
            .collect();
        writeln!(out, "   {files}   cells")?;
        let ranks: Vec<u8> = view.order(8, true).collect();
        let board = Board {
            pos,
            last,
            view,
            glyphs,
        };
        for (row, &y) in ranks.iter().enumerate() {
            board.cell_row(y, out)?;
            let Some(&below) = ranks.get(row + 1) else {
                break;
            };
            // The points of rank y sit between cell ranks y and y + 1.
            board.point_row(y.min(below), out)?;
        }
        let point_files: String = view
            .order(7, false)
            .map(|i| format!("  {} ", char::from(b'a' + i)))
            .collect();
        writeln!(out, "     {point_files}      points")?;
        writeln!(out)?;
        if let Some(mv) = last {
            writeln!(out, "last move: {mv}")?;
        }
        if let Some(outcome) = pos.outcome() {
            writeln!(out, "{BOLD}game over:{BOLD:#} {outcome}")?;
        }
        writeln!(out, "position: {pos}")?;
        let legend = match charset {
            Charset::Unicode => {
                "⛂ checker (COIN)  ● stone (Guerrilla)  ┼ empty point  · empty cell"
            }
            Charset::Ascii => "C checker (COIN)  S stone (Guerrilla)  + empty point  . empty cell",
        };
        writeln!(out, "{DIM}{legend}{DIM:#}")
    }
}

/// The characters the board is drawn with, in the charset chosen.
struct Glyphs {
    checker: char,
    stone: char,
    cell: char,
    point: char,
}

/// The board being drawn: the position, the move that led to it, and how it is drawn.
struct Board<'a> {
    pos: &'a Guerrilla,
    last: Option<&'a Move>,
    view: View,
    glyphs: Glyphs,
}

impl Board<'_> {
    /// The cells of rank `y`, with its number on either side; the last move's checker marked.
    fn cell_row(&self, y: u8, out: &mut dyn Write) -> fmt::Result {
        let marked = |c: Cell| match self.last {
            Some(Move::Step(_, to)) => *to == c,
            Some(Move::Capture(chain)) => chain.cells().last() == Some(&c),
            _ => false,
        };
        write!(out, " {} ", y + 1)?;
        for x in self.view.order(8, false) {
            let c = Cell::new(x, y).expect("on the board");
            let (glyph, style) = if self.pos.has_checker(c) {
                (self.glyphs.checker, if marked(c) { LAST } else { BOLD })
            } else if c.is_playable() {
                (self.glyphs.cell, DIM)
            } else {
                (' ', Style::new())
            };
            write!(out, "  {style}{glyph}{style:#} ")?;
        }
        writeln!(out, " {}", y + 1)
    }

    /// The points of rank `y`, with its number on the right; the last move's stones marked.
    fn point_row(&self, y: u8, out: &mut dyn Write) -> fmt::Result {
        let marked = |p: Point| matches!(self.last, Some(Move::Place(a, b)) if *a == p || *b == p);
        write!(out, "     ")?;
        for i in self.view.order(7, false) {
            let p = Point::new(i, y).expect("a point");
            let (glyph, style) = if self.pos.has_stone(p) {
                (self.glyphs.stone, if marked(p) { LAST } else { BOLD })
            } else {
                (self.glyphs.point, DIM)
            };
            write!(out, "  {style}{glyph}{style:#} ")?;
        }
        writeln!(out, "      {}", y + 1)
    }
}
