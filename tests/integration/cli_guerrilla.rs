//! Guerrilla Checkers through the rules commands.

use crate::util::{correspond, stdout_of};
use std::io::{BufRead, BufReader};

/// A crowded board: one checker among 48 stones has more than 36 million capture chains.
const CROWDED: &str =
    "SSSSSSS/SSSSSSS/SSSSSSS/SSS1SSS/SSSSSSS/SSSSSSS/SSSSSSS 8/8/8/8/4C3/8/8/8 c 18";

#[test]
fn moves_perft_and_position() {
    let moves = stdout_of(&["moves", "guerrilla"]);
    assert_eq!(moves.lines().count(), 168);
    assert!(moves.starts_with("a1,a2\na1,b1\na2,a1\n"));
    assert_eq!(stdout_of(&["perft", "guerrilla", "2"]), "1680\n");
    assert_eq!(
        stdout_of(&["position", "guerrilla", "b2,b3", "c4xb3xc2"]),
        "7/7/7/7/7/7/7 8/8/4C3/3C1C2/4C3/3C4/2C5/8 g 64\nboard cleared: coin wins\n"
    );
    let err = correspond()
        .args(["position", "guerrilla", "d4,e5"])
        .assert()
        .code(1)
        .get_output()
        .stderr
        .clone();
    assert_eq!(
        String::from_utf8_lossy(&err).lines().next(),
        Some(
            "error: move 1: d4,e5: the second stone must go orthogonally next to the first; e5 is not next to d4"
        )
    );
    let err = correspond()
        .args(["position", "guerrilla", "d4d5"])
        .assert()
        .code(1)
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8_lossy(&err).starts_with("error: move 1: d4d5: `d4d5` is not a move"));
}

#[test]
fn a_flood_of_moves_is_streamed_and_a_closed_pipe_ends_it_quietly() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("correspond"))
        .args(["moves", "guerrilla", "--position", CROWDED])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    assert_eq!(lines.next().map(Result::ok), Some(Some("e4-d5".to_owned())));
    assert_eq!(
        lines.next().map(Result::ok),
        Some(Some("e4xd3xc2xb1xa2xb3xa4xb5xa6xb7xa8".to_owned()))
    );
    drop(lines);
    let out = child.wait_with_output().expect("wait");
    assert!(
        out.status.success(),
        "a closed pipe is not an error: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_long_chain_is_checked_without_listing_the_others() {
    let chain = "e4xd3xc2xb1xa2xb3xa4xb5xa6xb7xa8";
    let out = stdout_of(&["position", "guerrilla", "--position", CROWDED, chain]);
    assert!(out.ends_with(" g 18\n"), "{out}");
    // Cut short, the chain is one of millions: ambiguous, with some of the chains it could be.
    let err = correspond()
        .args(["position", "guerrilla", "--position", CROWDED, "e4xd3"])
        .assert()
        .code(1)
        .get_output()
        .stderr
        .clone();
    assert!(
        String::from_utf8_lossy(&err)
            .starts_with("error: move 1: e4xd3: ambiguous: it could be e4xd3xc2xb1xa2"),
        "{}",
        String::from_utf8_lossy(&err)
    );
}

#[test]
fn show_draws_both_grids() {
    let out = stdout_of(&["show", "guerrilla", "--ascii", "d4,d5", "f5-g6"]);
    insta::assert_snapshot!(out, @r"
    Guerrilla Checkers, guerrilla to move; supply 64, stones on the board 2, checkers 6

         a   b   c   d   e   f   g   h    cells
     8   .       .       .       .      8
           +   +   +   +   +   +   +       7
     7       .       .       .       .  7
           +   +   +   +   +   +   +       6
     6   .       .       C       C      6
           +   +   +   S   +   +   +       5
     5       .       C       .       .  5
           +   +   +   S   +   +   +       4
     4   .       C       C       .      4
           +   +   +   +   +   +   +       3
     3       .       C       .       .  3
           +   +   +   +   +   +   +       2
     2   .       .       .       .      2
           +   +   +   +   +   +   +       1
     1       .       .       .       .  1
           a   b   c   d   e   f   g       points

    last move: f5-g6
    position: 7/7/3S3/3S3/7/7/7 8/8/4C1C1/3C4/2C1C3/3C4/8/8 g 64
    C checker (COIN)  S stone (Guerrilla)  + empty point  . empty cell
    moves: 1. d4,d5 f5-g6
    ");
}
