//! Campaign's board: 5 files by 7 ranks, chess figurines for the coins.

use crate::games::campaign::{Campaign, FILES, Move, Piece, RANKS, Role, Side, Square, Wing};
use crate::picture::text::{BOLD, CHECK, Charset, DIM, LAST, Render, View};
use crate::rules::{Game, Line};
use anstyle::Style;
use std::fmt::{self, Write};

fn glyph(piece: Option<Piece>, charset: Charset) -> char {
    match (piece, charset) {
        (None, Charset::Ascii) => '.',
        (None, Charset::Unicode) => '·',
        (Some(p), Charset::Ascii) => p.letter(),
        (Some(p), Charset::Unicode) => match (p.side, p.role) {
            (Side::Heads, Role::Candidate) => '♔',
            (Side::Heads, Role::Stacked) => '♕',
            (Side::Heads, Role::Guard) => '♗',
            (Side::Heads, Role::Handler) => '♖',
            (Side::Heads, Role::Intern) => '♙',
            (Side::Tails, Role::Candidate) => '♚',
            (Side::Tails, Role::Stacked) => '♛',
            (Side::Tails, Role::Guard) => '♝',
            (Side::Tails, Role::Handler) => '♜',
            (Side::Tails, Role::Intern) => '♟',
        },
    }
}

fn side_note(pos: &Campaign, side: Side, view: View) -> String {
    let rights: Vec<&str> = Wing::BOTH
        .into_iter()
        .filter(|&w| pos.spin_rights().has(side, w))
        .map(|w| match (side, w) {
            (Side::Heads, Wing::A) => "A",
            (Side::Heads, Wing::E) => "E",
            (Side::Tails, Wing::A) => "a",
            (Side::Tails, Wing::E) => "e",
        })
        .collect();
    let spin = if rights.is_empty() {
        "none".to_owned()
    } else {
        rights.join(" ")
    };
    let turn = match (
        pos.side_to_move() == side && pos.outcome().is_none() && !view.over,
        view.charset,
    ) {
        (false, _) => "",
        (true, Charset::Unicode) => "  ← to move",
        // ASCII means ASCII: mail bodies and plain terminals.
        (true, Charset::Ascii) => "  <- to move",
    };
    format!("{side}  spin: {spin}{turn}")
}

impl Render for Campaign {
    const NOTATION: &'static str = "`c2c3`, `b6b7g`";

    fn first_move_number(start: &Campaign) -> u32 {
        start.fullmove_number()
    }

    fn render(line: &Line<Campaign>, view: View, out: &mut dyn Write) -> fmt::Result {
        let charset = view.charset;
        let pos = line.current();
        let last = line.moves().last();
        let checked = pos.is_check().then(|| pos.candidate(pos.side_to_move()));
        writeln!(
            out,
            "{BOLD}Campaign{BOLD:#}, move {}, {}",
            pos.fullmove_number(),
            view.turn(pos.outcome().is_some(), pos.side_to_move())
        )?;
        writeln!(out)?;
        grid(pos, last, checked, view, out)?;
        if let Some(mv) = last {
            writeln!(out, "last move: {mv}")?;
        }
        let checkers = pos.checkers();
        if let Some(sq) = checked {
            let by: Vec<String> = checkers
                .iter()
                .map(|c| {
                    let role = pos.piece_at(*c).map_or("piece", |p| p.role.name());
                    format!("the {role} on {c}")
                })
                .collect();
            writeln!(
                out,
                "{CHECK}check:{CHECK:#} the {} candidate on {sq} is attacked by {}",
                pos.side_to_move(),
                by.join(" and ")
            )?;
        }
        if let Some(outcome) = pos.outcome() {
            writeln!(out, "{BOLD}game over:{BOLD:#} {outcome}")?;
        }
        // A game over by a resignation or an agreement leaves nothing to claim.
        for claim in line.claimable().into_iter().filter(|_| !view.over) {
            writeln!(out, "claimable by {}: {claim}", pos.side_to_move())?;
        }
        writeln!(out, "halfmove clock: {}", pos.halfmove_clock())?;
        writeln!(out, "position: {pos}")?;
        let legend = match charset {
            Charset::Unicode => {
                "♔ candidate  ♕ stacked candidate  ♗ guard  ♖ handler  ♙ intern  \
                 (white: heads, black: tails)"
            }
            Charset::Ascii => {
                "C candidate  S stacked candidate  G guard  H handler  I intern  \
                 (upper case: heads, lower case: tails)"
            }
        };
        writeln!(out, "{DIM}{legend}{DIM:#}")
    }
}

/// The squares, rank by rank, between file letters, with each side's note beside its home
/// rank: the candidate in check and the last move's square marked.
fn grid(
    pos: &Campaign,
    last: Option<&Move>,
    checked: Option<Square>,
    view: View,
    out: &mut dyn Write,
) -> fmt::Result {
    let charset = view.charset;
    let files: String = view
        .order(FILES, false)
        .map(|f| format!(" {}", char::from(b'a' + f)))
        .collect();
    writeln!(out, "  {files}")?;
    for rank in view.order(RANKS, true) {
        write!(out, " {}", rank + 1)?;
        for file in view.order(FILES, false) {
            let sq = Square::new(file, rank).expect("on the board");
            let piece = pos.piece_at(sq);
            let style = if Some(sq) == checked {
                CHECK
            } else if last.is_some_and(|m| m.to == sq) {
                LAST
            } else if piece.is_none() {
                DIM
            } else {
                Style::new()
            };
            write!(out, " {style}{}{style:#}", glyph(piece, charset))?;
        }
        write!(out, " {}", rank + 1)?;
        let note = match rank {
            r if r == RANKS - 1 => Some(side_note(pos, Side::Tails, view)),
            0 => Some(side_note(pos, Side::Heads, view)),
            _ => None,
        };
        match note {
            Some(note) => writeln!(out, "   {note}")?,
            None => writeln!(out)?,
        }
    }
    writeln!(out, "  {files}")?;
    writeln!(out)?;
    Ok(())
}
