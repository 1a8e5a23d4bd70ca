//! Chess and Insurrection boards: White at the bottom unless turned, the last move's squares
//! tinted, a government in check glowing red; in Insurrection each government's pieces ringed
//! in gold and named under the board.

use crate::games::chess::{
    Chess, Color, Insurrection, Move, Piece, Position, Role, Square, Variant, coup_name,
};
use crate::picture::pieces::{self, Shape};
use crate::picture::{Canvas, Draw, Options, Picture};
use crate::rules::{Game, Line};

const GOVERNMENT: &str = "#d4a017";

fn shape(role: Role) -> Shape {
    match role {
        Role::Pawn => Shape::Pawn,
        Role::Knight => Shape::Knight,
        Role::Bishop => Shape::Bishop,
        Role::Rook => Shape::Rook,
        Role::Queen => Shape::Queen,
        Role::King => Shape::King,
    }
}

fn id(piece: Piece) -> String {
    let colour = if piece.color == Color::White {
        "white"
    } else {
        "black"
    };
    format!("{colour}-{}", piece.role.name())
}

/// The picture of `line`, whose positions are chess or Insurrection positions seen through
/// `inner`.
fn draw<G: Game<Move = Move, Outcome = crate::games::chess::Outcome>>(
    line: &Line<G>,
    inner: impl Fn(&G) -> &Position,
    options: &Options,
) -> Picture {
    let pos = inner(line.current());
    let insurrection = pos.variant() != Variant::Chess;
    let title = match pos.variant() {
        Variant::Chess => "Chess",
        Variant::Insurrection => "Insurrection",
        Variant::Assassination => "Insurrection (Assassination)",
    };
    let captions = captions(line, &inner, options);
    let mut canvas = Canvas::new(
        &format!(
            "{title}, {}",
            options.turn(line.outcome().is_some(), pos.turn())
        ),
        8,
        8,
        options.flipped,
        &captions,
        &pos.to_string(),
    );
    canvas.defs(&definitions(pos));
    let marked: Vec<(u8, u8)> = line
        .moves()
        .last()
        .map(|mv| {
            vec![
                (mv.from.file(), mv.from.rank()),
                (mv.to.file(), mv.to.rank()),
            ]
        })
        .unwrap_or_default();
    canvas.checkered(&marked);
    if pos.is_check() {
        for sq in pos.attacked_government_squares(pos.turn()) {
            canvas.check(sq.file(), sq.rank());
        }
    }
    for sq in Square::all() {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        if insurrection && pos.government(piece.color) == piece.role {
            canvas.ring(sq.file(), sq.rank(), GOVERNMENT);
        }
        canvas.piece(sq.file(), sq.rank(), &id(piece));
    }
    canvas.coordinates();
    canvas.finish(&captions)
}

/// The lines under the board: where the game stands, the last move in SAN, Insurrection's
/// governments, then the options' own.
fn captions<G: Game<Move = Move, Outcome = crate::games::chess::Outcome>>(
    line: &Line<G>,
    inner: &impl Fn(&G) -> &Position,
    options: &Options,
) -> Vec<String> {
    let pos = inner(line.current());
    let mut captions = vec![options.first_line(match line.outcome() {
        Some(outcome) => format!("game over: {outcome}"),
        None if pos.is_check() => format!("{} to move, in check", pos.turn()),
        None => format!("{} to move", pos.turn()),
    })];
    if let (Some(mv), [.., before, _]) = (line.moves().last(), line.positions()) {
        captions.push(format!("last move: {}", inner(before).san(*mv)));
    }
    if pos.variant() != Variant::Chess {
        for color in [Color::White, Color::Black] {
            let role = pos.government(color);
            captions.push(format!(
                "{color}'s government: {}s ({})",
                role.name(),
                coup_name(role)
            ));
        }
    }
    captions.extend(options.captions.iter().cloned());
    captions
}

/// The drawing of each kind of piece on the board, white's first, in the order of the roles:
/// each is drawn once and used wherever it stands.
fn definitions(pos: &Position) -> Vec<String> {
    let mut used: Vec<Piece> = Square::all().filter_map(|sq| pos.piece_at(sq)).collect();
    used.sort_by_key(|p| {
        (
            p.color != Color::White,
            Role::ALL.iter().position(|r| *r == p.role),
        )
    });
    used.dedup();
    used.iter()
        .map(|p| pieces::definition(&id(*p), shape(p.role), p.color == Color::White))
        .collect()
}

impl Draw for Chess {
    fn picture(line: &Line<Chess>, options: &Options) -> Picture {
        draw(line, |g| &g.0, options)
    }
}

impl Draw for Insurrection {
    fn picture(line: &Line<Insurrection>, options: &Options) -> Picture {
        draw(line, |g| &g.0, options)
    }
}
