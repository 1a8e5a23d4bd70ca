//! Guerrilla Checkers' two grids in one picture: COIN's checkers on the dark cells, the
//! Guerrilla's stones on the points where four cells meet, and the supply under the board.

use crate::games::guerrilla::{Cell, Guerrilla, Move, Point};
use crate::picture::{At, Canvas, Draw, LAST_MOVE, Options, Picture};
use crate::rules::{Game, Line};

const CELL_LIGHT: &str = "#f0e6cf";
const CELL_DARK: &str = "#8fa37b";

impl Draw for Guerrilla {
    fn picture(line: &Line<Guerrilla>, options: &Options) -> Picture {
        let pos = line.current();
        let last = line.moves().last();
        let captions = captions(line, options);
        let mut canvas = Canvas::new(
            &format!(
                "Guerrilla Checkers, {}",
                options.turn(pos.outcome().is_some(), pos.side_to_move())
            ),
            8,
            8,
            options.flipped,
            &captions,
            &pos.to_string(),
        );
        canvas.defs(&[]);
        let marked_cells: Vec<Cell> = match last {
            Some(Move::Step(from, to)) => vec![*from, *to],
            Some(Move::Capture(chain)) => chain.cells().to_vec(),
            _ => Vec::new(),
        };
        for cell in Cell::all() {
            let colour = if marked_cells.contains(&cell) {
                LAST_MOVE
            } else if cell.is_playable() {
                CELL_DARK
            } else {
                CELL_LIGHT
            };
            canvas.square(cell.x(), cell.y(), colour, "cell");
        }
        pieces(&mut canvas, pos, last);
        canvas.coordinates();
        canvas.finish(&captions)
    }
}

/// The lines under the board: where the game stands, the last move, the supply and the
/// pieces' count, what the marks mean, then the options' own.
fn captions(line: &Line<Guerrilla>, options: &Options) -> Vec<String> {
    let pos = line.current();
    let mut captions = vec![options.first_line(match pos.outcome() {
        Some(outcome) => format!("game over: {outcome}"),
        None => format!("{} to move", pos.side_to_move()),
    })];
    if let Some(mv) = line.moves().last() {
        captions.push(format!("last move: {mv}"));
    }
    captions.push(format!(
        "supply: {} stones; on the board: {} stones, {} checkers",
        pos.supply(),
        pos.stones_on_board(),
        pos.checkers_on_board()
    ));
    captions.push("white discs: COIN's checkers; black dots: the Guerrilla's stones".into());
    captions.extend(options.captions.iter().cloned());
    captions
}

/// COIN's checkers on their cells and, at each point, a stone, or a cross where there is none;
/// the points the last move placed stones on ringed.
fn pieces(canvas: &mut Canvas, pos: &Guerrilla, last: Option<&Move>) {
    for cell in Cell::all().filter(|c| pos.has_checker(*c)) {
        canvas.place(At::Square(cell.x(), cell.y()), |x, y| {
            let (cx, cy) = (x + 22, y + 22);
            format!(
                "<g class=\"checker\"><circle cx=\"{cx}\" cy=\"{cy}\" r=\"16\" fill=\"#fff\" \
                 stroke=\"#000\" stroke-width=\"1.5\"/><circle cx=\"{cx}\" cy=\"{cy}\" r=\"10\" \
                 fill=\"none\" stroke=\"#000\" stroke-width=\"1\"/></g>\n"
            )
        });
    }
    let placed: Vec<Point> = match last {
        Some(Move::Place(a, b)) => vec![*a, *b],
        _ => Vec::new(),
    };
    for j in 0..7u8 {
        for i in 0..7u8 {
            let Some(point) = Point::new(i, j) else {
                continue;
            };
            if placed.contains(&point) {
                canvas.place(At::Crossing(i, j), |x, y| {
                    format!(
                        "<circle class=\"last\" cx=\"{x}\" cy=\"{y}\" r=\"12\" fill=\"{LAST_MOVE}\"/>\n"
                    )
                });
            }
            if pos.has_stone(point) {
                canvas.place(At::Crossing(i, j), |x, y| {
                    format!(
                        "<circle class=\"stone\" cx=\"{x}\" cy=\"{y}\" r=\"8\" fill=\"#111\" \
                         stroke=\"#fff\" stroke-width=\"1.5\"/>\n"
                    )
                });
            } else {
                canvas.place(At::Crossing(i, j), |x, y| {
                    format!(
                        "<path class=\"point\" d=\"M{} {y}h8M{x} {}v8\" stroke=\"#555\" \
                         stroke-width=\"1\"/>\n",
                        x - 4,
                        y - 4
                    )
                });
            }
        }
    }
}
