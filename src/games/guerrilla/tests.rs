//! One test per rule of Guerrilla Checkers and per edge case of the research notes that the
//! rulings decide (their section 4, in our coordinates). Positions are built from lists of
//! point and cell names.

use super::*;
use crate::rules::MoveError;

fn point(name: &str) -> Point {
    Point::parse(name.as_bytes()).expect("test point")
}

fn cell(name: &str) -> Cell {
    Cell::parse(name.as_bytes()).expect("test cell")
}

/// A position with stones on `points`, checkers on `cells`, `side` to move and `supply` left.
/// It must be one the position string accepts.
fn pos(points: &[&str], cells: &[&str], side: Side, supply: u8) -> Guerrilla {
    let p = Guerrilla {
        stones: points.iter().fold(0, |acc, n| acc | point(n).bit()),
        checkers: cells.iter().fold(0, |acc, n| acc | cell(n).bit()),
        turn: side,
        supply,
    };
    assert_eq!(
        Guerrilla::parse_position(&p.to_string()).as_ref(),
        Ok(&p),
        "a valid test position"
    );
    p
}

fn moves(p: &Guerrilla) -> Vec<String> {
    p.legal_moves().iter().map(ToString::to_string).collect()
}

fn illegal(p: &Guerrilla, text: &str) -> Illegal {
    match p.parse_move(text) {
        Err(MoveError::Illegal(reason)) => reason,
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    }
}

fn play(p: &Guerrilla, text: &str) -> Guerrilla {
    p.play(&p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}")))
        .expect("legal")
}

const START: &str = "7/7/7/7/7/7/7 8/8/4C3/3C1C2/2C1C3/3C4/8/8 g 66";

#[test]
fn the_start_position() {
    let start = Guerrilla::start(&());
    assert_eq!(start.to_string(), START);
    assert_eq!(
        start.outcome(),
        None,
        "an empty board at the start is not a COIN win (case 20)"
    );
    assert_eq!(
        start.perft(1),
        168,
        "every point, then each of its neighbours"
    );
}

#[test]
fn the_opening_stone_may_go_anywhere_and_the_second_next_to_it() {
    let start = Guerrilla::start(&());
    assert!(moves(&start).contains(&"a1,b1".to_owned()), "case 1");
    let firsts: std::collections::BTreeSet<String> =
        moves(&start).iter().map(|m| m[..2].to_owned()).collect();
    assert_eq!(firsts.len(), 49, "any of the 49 points may open");
    assert_eq!(
        illegal(&start, "d4,e5"),
        Illegal::SecondNotNext(point("d4"), point("e5")),
        "case 2"
    );
    assert_eq!(
        illegal(&start, "d4,f4"),
        Illegal::SecondNotNext(point("d4"), point("f4")),
        "case 3"
    );
    assert!(
        moves(&start).contains(&"d3,d4".to_owned()),
        "case 8: stones next to checkers"
    );
}

#[test]
fn points_off_the_grid_are_not_points() {
    let start = Guerrilla::start(&());
    assert!(
        matches!(start.parse_move("h4,g4"), Err(MoveError::Invalid(SyntaxError::Point(p))) if p == "h4")
    );
    assert!(
        matches!(start.parse_move("a8,a7"), Err(MoveError::Invalid(SyntaxError::Point(p))) if p == "a8")
    );
}

#[test]
fn later_first_stones_join_the_group_and_seconds_touch_the_first() {
    let p = pos(&["d6", "d7"], &["d3"], Side::Guerrilla, 64);
    assert_eq!(
        illegal(&p, "b2,b3"),
        Illegal::AwayFromGroup(point("b2")),
        "case 5"
    );
    assert!(moves(&p).contains(&"c6,c5".to_owned()), "case 5");
    let p = pos(&["d6"], &["d3"], Side::Guerrilla, 64);
    assert_eq!(
        illegal(&p, "d7,c6"),
        Illegal::SecondNotNext(point("d7"), point("c6")),
        "case 6"
    );
    assert!(moves(&p).contains(&"d7,c7".to_owned()), "case 6");
    assert_eq!(
        illegal(&p, "d6,d5"),
        Illegal::Occupied(point("d6")),
        "case 7"
    );
    assert_eq!(
        illegal(&p, "d5,d6"),
        Illegal::Occupied(point("d6")),
        "case 7"
    );
    assert_eq!(illegal(&p, "d5,d5"), Illegal::SamePoint(point("d5")));
    assert_eq!(
        Illegal::SamePoint(point("d5")).to_string(),
        "both stones are on d5: the two stones of a move go on two different points"
    );
}

#[test]
fn the_order_of_the_stones_is_part_of_the_move() {
    let p = pos(&["d6"], &["d3"], Side::Guerrilla, 64);
    let listed = moves(&p);
    assert!(
        listed.contains(&"c6,c5".to_owned()),
        "c6 touches the stone on d6"
    );
    assert!(!listed.contains(&"c5,c6".to_owned()), "c5 does not");
    let start = Guerrilla::start(&());
    let both = moves(&start);
    assert!(both.contains(&"c3,d3".to_owned()) && both.contains(&"d3,c3".to_owned()));
    assert_eq!(
        play(&start, "c3,d3"),
        play(&start, "d3,c3"),
        "the same position, two moves"
    );
}

#[test]
fn a_first_stone_with_no_empty_neighbour_cannot_be_played() {
    // Case 9: the pocket at a1.
    let p = pos(&["a2", "b2", "b1"], &["d3"], Side::Guerrilla, 60);
    assert!(!moves(&p).iter().any(|m| m.starts_with("a1")));
    assert_eq!(illegal(&p, "a1,b1"), Illegal::Occupied(point("b1")));
}

#[test]
fn a_surrounded_checker_is_captured_by_the_stone_that_closes_it() {
    // Case 10: c4's corners are b3, c3, b4 and c4.
    let p = pos(
        &["c4", "c3", "b3", "a3"],
        &["c4", "f5"],
        Side::Guerrilla,
        58,
    );
    assert!(
        !play(&p, "b4,a4").has_checker(cell("c4")),
        "closed by the first stone"
    );
    assert!(
        !play(&p, "a4,b4").has_checker(cell("c4")),
        "closed by the second stone"
    );
    assert!(
        play(&p, "a2,a1").has_checker(cell("c4")),
        "stones elsewhere take nothing"
    );
}

#[test]
fn the_edge_counts_as_the_guerrillas() {
    // Case 11: e8's corners are d7, e7 and the edge.
    let p = pos(&["c7"], &["e8", "b3"], Side::Guerrilla, 64);
    let after = play(&p, "d7,e7");
    assert!(!after.has_checker(cell("e8")));
    assert_eq!(
        p.describe(&p.parse_move("d7,e7").expect("legal")),
        ["captures a checker"]
    );
    // Case 12: h1 has one corner that is a point, g1.
    let p = pos(&["f1"], &["h1", "b3"], Side::Guerrilla, 64);
    assert!(
        !play(&p, "g1,g2").has_checker(cell("h1")),
        "the first stone takes it"
    );
}

#[test]
fn one_stone_can_take_two_checkers() {
    // Case 13.
    // The first stone leaves both cells one corner short; the second, d4, closes both.
    let p = pos(
        &["d3", "e3", "c4", "c5", "d5"],
        &["e4", "d5", "a2"],
        Side::Guerrilla,
        60,
    );
    let after = play(&p, "e4,d4");
    assert_eq!(after.checkers_on_board(), 1);
    assert_eq!(
        p.describe(&p.parse_move("e4,d4").expect("legal")),
        ["captures 2 checkers"]
    );
}

#[test]
fn the_turn_is_two_stones_even_when_the_first_takes_the_last_checker() {
    // Case 25: the first stone takes h1, the last checker; the second must still be legal.
    let p = pos(&["f1"], &["h1"], Side::Guerrilla, 60);
    let after = play(&p, "g1,g2");
    assert_eq!(after.outcome(), Some(Outcome::AllCheckersCaptured));
    assert!(
        after.legal_moves().is_empty(),
        "a finished game has no legal moves"
    );
    assert_eq!(after.supply(), 58);
}

#[test]
fn checkers_step_diagonally_onto_empty_cells() {
    // Case 14.
    let p = play(&Guerrilla::start(&()), "a1,b1");
    assert_eq!(illegal(&p, "d3-e4"), Illegal::CellOccupied(cell("e4")));
    assert!(moves(&p).contains(&"f5-g6".to_owned()));
    assert_eq!(
        illegal(&p, "d3-d4"),
        Illegal::NotDiagonal(cell("d3"), cell("d4"))
    );
    assert_eq!(illegal(&p, "a2-b3"), Illegal::NoChecker(cell("a2")));
    assert_eq!(
        illegal(&Guerrilla::start(&()), "f5-g6"),
        Illegal::NotYourTurn(Side::Guerrilla)
    );
    assert_eq!(illegal(&p, "a2,a3"), Illegal::NotYourTurn(Side::Coin));
}

#[test]
fn capturing_is_optional_to_start() {
    // Case 15.
    let p = pos(&["f5", "a1"], &["f5"], Side::Coin, 60);
    let listed = moves(&p);
    assert!(listed.contains(&"f5xg6".to_owned()) && listed.contains(&"f5-e4".to_owned()));
    let after = play(&p, "f5xg6");
    assert!(!after.has_stone(point("f5")));
    assert_eq!(
        after.supply(),
        60,
        "case 22: captures do not refill the supply"
    );
}

#[test]
fn a_stone_between_two_checkers_cannot_be_jumped() {
    // Case 16: point d3 touches the playable cells d3 and e4, both occupied at the start.
    let p = play(&Guerrilla::start(&()), "d3,c3");
    assert!(
        !moves(&p).iter().any(|m| m.contains('x')),
        "{:?}",
        moves(&p)
    );
}

#[test]
fn a_capture_chain_goes_on_while_it_can() {
    // Case 17.
    let p = pos(&["b3", "c4", "c5"], &["b3"], Side::Coin, 60);
    let chains: Vec<String> = moves(&p).into_iter().filter(|m| m.contains('x')).collect();
    assert_eq!(chains, ["b3xc4xd5xc6"]);
    let short = Move::Capture({
        let mut c = Chain::start(cell("b3"));
        c.push(cell("c4"));
        c
    });
    assert_eq!(p.play(&short), Err(Illegal::ChainNotFinished(cell("c4"))));
    // As input, a chain cut short stands for the one chain that begins so.
    assert_eq!(
        p.parse_move("b3xc4").map(|m| m.to_string()),
        Ok("b3xc4xd5xc6".to_owned())
    );
    assert_eq!(
        p.parse_move("b3-c4").map(|m| m.to_string()),
        Ok("b3xc4xd5xc6".to_owned())
    );
    assert_eq!(
        p.describe(&p.parse_move("b3xc4").expect("legal")),
        ["captures 3 stones"]
    );
    assert_eq!(illegal(&p, "b3xa4"), Illegal::NothingToCapture(point("a3")));
}

#[test]
fn the_player_chooses_between_branches() {
    // Case 18.
    let p = pos(&["d2", "c2"], &["d3"], Side::Coin, 62);
    let chains: Vec<String> = moves(&p).into_iter().filter(|m| m.contains('x')).collect();
    assert_eq!(chains, ["d3xc2", "d3xe2"]);
}

#[test]
fn a_chain_that_can_go_two_ways_is_ambiguous_when_cut_short() {
    let p = pos(&["d4", "e4", "d5", "e5"], &["e4"], Side::Coin, 62);
    let chains: Vec<String> = moves(&p).into_iter().filter(|m| m.contains('x')).collect();
    assert_eq!(
        chains,
        ["e4xd5xe6xf5xe4", "e4xf5xe6xd5xe4"],
        "a loop, taken either way round"
    );
    let after = play(&p, "e4xd5xe6xf5xe4");
    assert!(after.has_checker(cell("e4")), "back where it started");
    assert_eq!(after.stones_on_board(), 0);
    let q = pos(&["d2", "c2", "b1"], &["d3"], Side::Coin, 60);
    assert!(matches!(q.parse_move("d3-c2"), Ok(Move::Capture(_))));
    let r = pos(&["c3", "e3", "d2"], &["d3"], Side::Coin, 60);
    match r.parse_move("d3xe4") {
        Err(MoveError::Illegal(Illegal::NothingToCapture(_))) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn coin_wins_by_clearing_the_board() {
    // Case 19.
    let p = play(&Guerrilla::start(&()), "b2,b3");
    let after = play(&p, "c4xb3xc2");
    assert_eq!(after.stones_on_board(), 0);
    assert_eq!(after.outcome(), Some(Outcome::BoardCleared));
    assert_eq!(
        after.outcome().map(|o| o.to_string()),
        Some("board cleared: coin wins".into())
    );
}

#[test]
fn a_checker_may_enter_a_cell_with_three_corners_taken() {
    // Case 21: the step into d5 does not capture it; the next stone on c4 does.
    let p = pos(&["d4", "c5", "d5"], &["c4", "g2"], Side::Coin, 60);
    let after = play(&p, "c4-d5");
    assert!(after.has_checker(cell("d5")));
    assert!(!play(&after, "c4,b4").has_checker(cell("d5")));
}

#[test]
fn the_supply_runs_out() {
    // Cases 23 and 24: the turn that places the 66th stone.
    let p = pos(&["a1"], &["h1", "a8"], Side::Guerrilla, 2);
    let after = play(&p, "a2,a3");
    assert_eq!(after.supply(), 0);
    assert_eq!(after.outcome(), Some(Outcome::SupplyExhausted));
    let p = pos(&["f1", "f2"], &["h1"], Side::Guerrilla, 2);
    let after = play(&p, "g1,g2");
    assert_eq!(
        after.outcome(),
        Some(Outcome::AllCheckersCaptured),
        "taking the last checker wins first"
    );
}

#[test]
fn a_guerrilla_with_no_legal_turn_wins_by_the_house_rule() {
    // Case 26: stones on every point with i + j odd.
    let odd: Vec<String> = Point::all()
        .filter(|p| (p.i() + p.j()) % 2 == 1)
        .map(|p| p.to_string())
        .collect();
    let names: Vec<&str> = odd.iter().map(String::as_str).collect();
    let p = pos(&names, &["d3", "c4", "e4"], Side::Guerrilla, 42);
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.outcome(), Some(Outcome::AntiStall));
    assert_eq!(
        Guerrilla::decision(&Outcome::AntiStall),
        Decision::Win(Side::Guerrilla)
    );
}

#[test]
fn position_strings_round_trip_and_name_their_faults() {
    let p = Guerrilla::parse_position(START).expect("start");
    assert_eq!(p.to_string(), START);
    let err = |text: &str| Guerrilla::parse_position(text).expect_err(text).to_string();
    assert_eq!(
        err("7/7/7/7/7/7/7 8/8/4C3/3C1C2/2C1C3/3C4/8/8 g 65"),
        "supply: expected an even number from 0 to 66, without sign or leading zeros, found `65`"
    );
    assert_eq!(
        err("7/7/7/7/7/7/7 8/8/4C3/3C1C2/2C1C3/3C4/8/8 g 68"),
        "supply: expected an even number from 0 to 66, without sign or leading zeros, found `68`"
    );
    assert_eq!(
        err("7/7/7/7/7/7/7 8/8/4C3/3C1C2/2C1C3/1C1C4/8/8 g 66"),
        "cells: 7 checkers; COIN has six at most"
    );
    assert_eq!(
        err("7/7/7/7/7/7/7 8/8/4C3/3C1C2/2C1C3/2C5/8/8 g 66"),
        "cells: the checker on c3 stands on an unplayable cell (checkers stay on the colour of b1)"
    );
    assert_eq!(
        err("7/7/7/7/7/7/6S 8/8/8/8/8/8/8/7C g 64"),
        "cells: the checker on h1 is surrounded on all four corners, so it was captured"
    );
    assert_eq!(
        err("7/7/7/7/7/7/SS5 8/8/4C3/3C1C2/2C1C3/3C4/8/8 g 66"),
        "points: 2 stones on the board, but a supply of 66 means only 0 were placed"
    );
    assert_eq!(
        err("7/7/7/7/7/7 8/8/4C3/3C1C2/2C1C3/3C4/8/8 g 66"),
        "points: expected 7 ranks separated by `/`, found 6"
    );
    assert_eq!(
        err("7/7/7/7/7/7/7 8/8/4C3/3C1C2/2C1C3/3C4/8/8 x 66"),
        "side to move: expected `g` (guerrilla) or `c` (coin), found `x`"
    );
    assert!(
        err("7/7/7/7/7/7/8 8/8/4C3/3C1C2/2C1C3/3C4/8/8 g 66")
            .starts_with("points: rank 1: `8` is not `S`")
    );
    assert!(
        err("7/7/7/7/7/7/34 8/8/4C3/3C1C2/2C1C3/3C4/8/8 g 66").starts_with("points: rank 1: a run")
    );
    assert!(
        err("7/7/7/7/7/7/7 8/8/4C3/3C1C2/2C1C3/3C4/8/8 g").starts_with("a position has 4 fields")
    );
}

#[test]
fn the_listing_spells_every_move_as_its_notation() {
    // Crowded boards, where chains share long prefixes and branch at every depth; steps between
    // a checker's chains and the next checker's; the Guerrilla's placements; a finished game.
    for position in [
        "SSSSSSS/SSS1SSS/SSSSSSS/SS1S1SS/SSSSSSS/SSS1SSS/SSSSSSS 8/8/8/8/4C3/8/8/8 c 18",
        "SSSS3/SSSS3/SSSS3/SSSS3/7/7/7 8/8/8/8/4C3/8/8/8 c 30",
        "1S1S1S1/SSSSSSS/1S1S1S1/SSSSSSS/7/7/7 8/8/8/3C4/8/1C6/8/8 c 10",
        "1S1S1S1/SSSSSSS/1S1S1S1/SSSSSSS/7/7/7 8/8/2C5/8/4C3/8/8/8 c 10",
        START,
        "7/7/7/7/7/7/7 8/8/8/8/8/8/8/8 g 10",
    ] {
        let pos = Guerrilla::parse_position(position).expect(position);
        let mut shown = Vec::new();
        let _ = pos.for_each_legal_move(&mut |mv| {
            shown.push(mv.to_string());
            ControlFlow::Continue(())
        });
        let mut listed = Vec::new();
        let _ = pos.for_each_legal_move_text(&mut |text| {
            listed.push(text.to_owned());
            ControlFlow::Continue(())
        });
        assert_eq!(listed, shown, "{position}");
    }
}
