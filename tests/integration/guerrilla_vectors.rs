//! Test vectors from other Guerrilla Checkers implementations, translated to our coordinates in
//! the research notes (section 3), where our rulings agree with them.

use correspond::games::guerrilla::Guerrilla;
use correspond::rules::Game;

fn after(start: &str, moves: &[&str]) -> Guerrilla {
    moves.iter().fold(
        Guerrilla::parse_position(start).expect("start"),
        |pos, m| {
            let mv = pos
                .parse_move(m)
                .unwrap_or_else(|e| panic!("{m} in {pos}: {e}"));
            pos.play(&mv).expect("legal")
        },
    )
}

const START: &str = "7/7/7/7/7/7/7 8/8/4C3/3C1C2/2C1C3/3C4/8/8 g 66";

/// Vector A: the ECCO tutorial, played through; T2's chain chooses one of two branches.
#[test]
fn the_ecco_tutorial_ends_where_it_says() {
    let pos = after(
        START,
        &[
            "d3,c3", "e6-d7", "c2,d2", "e4xd3xe2", "d2,d1", "e2xd1", "c1,d1",
        ],
    );
    // Stones c1 c2 c3 d1 d2; checkers c4 d5 f5 d7; supply 58.
    assert_eq!(
        pos.to_string(),
        "7/7/7/7/2S4/2SS3/2SS3 8/3C4/8/3C1C2/2C5/8/8/8 c 58"
    );
    let t2 = after(START, &["d3,c3", "e6-d7", "c2,d2"]);
    assert_eq!(t2.checkers_on_board(), 5, "T2's second stone closes d3");
    let chains: Vec<String> = t2
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .filter(|m| m.starts_with("e4x"))
        .collect();
    assert_eq!(
        chains,
        ["e4xd3xc2", "e4xd3xe2"],
        "at d3 the checker may take either stone"
    );
}

/// Vector C: the AbstractPlay tests.
#[test]
fn the_abstractplay_tests() {
    let pos =
        Guerrilla::parse_position("7/7/7/7/4S2/5S1/7 8/8/8/8/4C3/8/8/8 c 62").expect("position");
    let captures: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .filter(|m| m.contains('x'))
        .collect();
    assert_eq!(captures, ["e4xf3xg2"]);
    let pos = after("7/7/4S2/4SS1/7/7/7 8/8/8/5C2/8/8/8/8 g 60", &["f5,f6"]);
    assert_eq!(pos.checkers_on_board(), 0, "placing f5 closes the cell f5");
}

/// Vector B: the ECCO specs that hold under our rules (some use cells our checkers never reach).
#[test]
fn the_ecco_specs() {
    let pos = after("7/7/7/7/7/7/7 8/8/8/8/C7/8/8/8 g 66", &["a3,a4"]);
    assert_eq!(
        pos.checkers_on_board(),
        0,
        "a4's corners are a3, a4 and the edge"
    );
    let pos =
        Guerrilla::parse_position("7/7/5S1/7/7/7/7 8/8/8/5C2/8/8/8/8 c 64").expect("position");
    let mv = pos
        .parse_move("f5-g6")
        .expect("a step over a stone reads as the capture");
    assert_eq!(mv.to_string(), "f5xg6");
}
