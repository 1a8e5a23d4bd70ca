//! Campaign's board: 5 files by 7 ranks, Heads at the bottom unless turned. The figures are
//! drawn as the terminal shows them, with chess men's shapes (candidate: king, stacked
//! candidate: queen, guard: bishop, handler: rook, intern: pawn; Heads light, Tails dark), and
//! each side's spin-doctoring rights are written under the board.

use crate::games::campaign::{Campaign, FILES, Piece, RANKS, Role, Side, Square, Wing};
use crate::picture::pieces::{self, Shape};
use crate::picture::{Canvas, Draw, Options, Picture};
use crate::rules::{Game, Line};

const ROLES: [Role; 5] = [
    Role::Intern,
    Role::Guard,
    Role::Handler,
    Role::Stacked,
    Role::Candidate,
];

fn shape(role: Role) -> Shape {
    match role {
        Role::Candidate => Shape::King,
        Role::Stacked => Shape::Queen,
        Role::Guard => Shape::Bishop,
        Role::Handler => Shape::Rook,
        Role::Intern => Shape::Pawn,
    }
}

fn id(piece: Piece) -> String {
    format!("{}-{}", piece.side, piece.role.name().replace(' ', "-"))
}

fn spin(pos: &Campaign, side: Side) -> String {
    let rights: Vec<&str> = Wing::BOTH
        .into_iter()
        .filter(|&w| pos.spin_rights().has(side, w))
        .map(|w| if w == Wing::A { "a-file" } else { "e-file" })
        .collect();
    if rights.is_empty() {
        "none".to_owned()
    } else {
        rights.join(" and ")
    }
}

impl Draw for Campaign {
    fn picture(line: &Line<Campaign>, options: &Options) -> Picture {
        let pos = line.current();
        let turn = pos.side_to_move();
        let mut captions = vec![options.first_line(match pos.outcome() {
            Some(outcome) => format!("game over: {outcome}"),
            None if pos.is_check() => format!("{turn} to move, its candidate attacked"),
            None => format!("{turn} to move"),
        })];
        if let Some(mv) = line.moves().last() {
            captions.push(format!("last move: {mv}"));
        }
        captions.push(format!(
            "spin doctoring: heads {}; tails {}",
            spin(pos, Side::Heads),
            spin(pos, Side::Tails)
        ));
        captions.push(
            "king: candidate, queen: stacked, bishop: guard, rook: handler, pawn: intern".into(),
        );
        captions.extend(options.captions.iter().cloned());
        let mut canvas = Canvas::new(
            &format!("Campaign, {}", options.turn(pos.outcome().is_some(), turn)),
            FILES,
            RANKS,
            options.flipped,
            &captions,
            &pos.to_string(),
        );
        let defs: Vec<String> = [Side::Heads, Side::Tails]
            .into_iter()
            .flat_map(|side| ROLES.map(|role| Piece { side, role }))
            .filter(|p| Square::all().any(|sq| pos.piece_at(sq) == Some(*p)))
            .map(|p| pieces::definition(&id(p), shape(p.role), p.side == Side::Heads))
            .collect();
        canvas.defs(&defs);
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
            let sq = pos.candidate(turn);
            canvas.check(sq.file(), sq.rank());
        }
        for sq in Square::all() {
            if let Some(piece) = pos.piece_at(sq) {
                canvas.piece(sq.file(), sq.rank(), &id(piece));
            }
        }
        canvas.coordinates();
        canvas.finish(&captions)
    }
}
