//! Chess and Insurrection boards: figurines or letters, White at the bottom. In Insurrection
//! the governments are named with the squares of their pieces (underlined on a terminal).

use crate::games::chess::{
    Chess, Color, Insurrection, Move, Piece, Position, Role, Square, Variant, coup_name,
};
use crate::picture::text::{BOLD, CHECK, Charset, DIM, LAST, Render, View};
use crate::rules::{Game, Line};
use anstyle::Style;
use std::fmt::{self, Write};

fn glyph(piece: Option<Piece>, charset: Charset) -> char {
    match (piece, charset) {
        (None, Charset::Ascii) => '.',
        (None, Charset::Unicode) => '·',
        (Some(p), Charset::Ascii) => p.letter(),
        (Some(p), Charset::Unicode) => {
            let white = ['♙', '♘', '♗', '♖', '♕', '♔'];
            let black = ['♟', '♞', '♝', '♜', '♛', '♚'];
            let i = Role::ALL.iter().position(|r| *r == p.role).expect("a role");
            if p.color == Color::White {
                white[i]
            } else {
                black[i]
            }
        }
    }
}

/// The board of `line`, whose positions are chess or Insurrection positions seen through `inner`.
fn draw<G: Game<Move = crate::games::chess::Move, Outcome = crate::games::chess::Outcome>>(
    line: &Line<G>,
    inner: impl Fn(&G) -> &Position,
    view: View,
    out: &mut dyn Write,
) -> fmt::Result {
    let pos = inner(line.current());
    let last = line.moves().last();
    let insurrection = pos.variant() != Variant::Chess;
    let title = match pos.variant() {
        Variant::Chess => "Chess",
        Variant::Insurrection => "Insurrection",
        Variant::Assassination => "Insurrection (Assassination)",
    };
    let turn = view.turn(line.outcome().is_some(), pos.turn());
    writeln!(out, "{BOLD}{title}{BOLD:#}, {turn}")?;
    writeln!(out)?;
    grid(pos, last, view, out)?;
    if insurrection {
        for color in [Color::White, Color::Black] {
            let role = pos.government(color);
            let squares: Vec<String> = Square::all()
                .filter(|sq| pos.piece_at(*sq) == Some(Piece { color, role }))
                .map(|sq| sq.to_string())
                .collect();
            writeln!(
                out,
                "{color}'s government: {}s ({}) on {}",
                role.name(),
                coup_name(role),
                squares.join(", ")
            )?;
        }
    }
    if let (Some(mv), [.., before, _]) = (last, line.positions()) {
        writeln!(out, "last move: {}", inner(before).san(*mv))?;
    }
    if pos.is_check() {
        let role = pos.government(pos.turn()).name();
        let attacked: Vec<String> = pos
            .attacked_government_squares(pos.turn())
            .map(|sq| format!("{role} on {sq}"))
            .collect();
        let verb = if attacked.len() > 1 {
            "are attacked (a forked check)"
        } else {
            "is attacked"
        };
        writeln!(
            out,
            "{CHECK}check:{CHECK:#} {}'s {} {verb}",
            pos.turn(),
            attacked.join(" and ")
        )?;
    }
    if let Some(outcome) = line.outcome() {
        writeln!(out, "{BOLD}game over:{BOLD:#} {outcome}")?;
    }
    // A game over by a resignation or an agreement leaves nothing to claim.
    for claim in line.claimable().into_iter().filter(|_| !view.over) {
        writeln!(out, "claimable by {}: {claim}", pos.turn())?;
    }
    writeln!(out, "position: {pos}")?;
    Ok(())
}

/// The squares, rank by rank, between file letters: the governing pieces of Insurrection
/// underlined, the last move's square and a government in check marked.
fn grid(pos: &Position, last: Option<&Move>, view: View, out: &mut dyn Write) -> fmt::Result {
    let insurrection = pos.variant() != Variant::Chess;
    let charset = view.charset;
    let files: String = view
        .order(8, false)
        .map(|f| format!(" {}", char::from(b'a' + f)))
        .collect();
    writeln!(out, "   {files}")?;
    for rank in view.order(8, true) {
        write!(out, " {} ", rank + 1)?;
        for file in view.order(8, false) {
            let sq = Square::new(file, rank).expect("on the board");
            let piece = pos.piece_at(sq);
            let governing =
                piece.is_some_and(|p| insurrection && pos.government(p.color) == p.role);
            let style =
                if piece.is_some_and(|p| p.color == pos.turn()) && governing && pos.is_check() {
                    CHECK
                } else if last.is_some_and(|m| m.to == sq) {
                    LAST
                } else if governing {
                    BOLD.underline()
                } else if piece.is_none() {
                    DIM
                } else {
                    Style::new()
                };
            write!(out, " {style}{}{style:#}", glyph(piece, charset))?;
        }
        writeln!(out, "  {}", rank + 1)?;
    }
    writeln!(out, "   {files}")?;
    writeln!(out)?;
    Ok(())
}

/// How chess and Insurrection moves are typed.
const SAN_OR_UCI: &str = "SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`) or UCI (`g1f3`)";

impl Render for Chess {
    const NOTATION: &'static str = SAN_OR_UCI;

    fn render(line: &Line<Chess>, view: View, out: &mut dyn Write) -> fmt::Result {
        draw(line, |g| &g.0, view, out)
    }

    fn first_move_number(start: &Chess) -> u32 {
        start.0.fullmove_number()
    }
}

impl Render for Insurrection {
    const NOTATION: &'static str = SAN_OR_UCI;

    fn render(line: &Line<Insurrection>, view: View, out: &mut dyn Write) -> fmt::Result {
        draw(line, |g| &g.0, view, out)
    }

    fn first_move_number(start: &Insurrection) -> u32 {
        start.0.fullmove_number()
    }
}
