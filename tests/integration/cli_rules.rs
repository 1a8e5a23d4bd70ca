//! The rules commands through the real binary: output, error messages and exit codes.

use crate::util::{correspond, failure, stdout_of, transcript};
use predicates::prelude::*;

#[test]
fn moves_lists_the_legal_moves_sorted() {
    assert_eq!(
        stdout_of(&["moves", "campaign"]),
        "a2a3\nb2b3\nc2c3\nd2d3\ne2e3\n"
    );
    let open = "h1c1h/iiiii/5/5/5/IIIII/H1C1H h AEae 0 1";
    let listed = stdout_of(&["moves", "campaign", "--position", open]);
    assert_eq!(
        listed
            .lines()
            .filter(|m| m.starts_with("c1"))
            .collect::<Vec<_>>(),
        ["c1a1", "c1b1", "c1d1", "c1e1"]
    );
}

#[test]
fn moves_prints_nothing_when_the_game_is_over() {
    assert_eq!(
        stdout_of(&[
            "moves",
            "campaign",
            "--position",
            "1h2c/5/h4/5/5/5/C4 h - 0 1"
        ]),
        ""
    );
}

#[test]
fn perft_prints_the_count_on_the_last_line() {
    assert_eq!(stdout_of(&["perft", "campaign", "4"]), "1445\n");
    assert_eq!(stdout_of(&["perft", "campaign", "0"]), "1\n");
    let divided = stdout_of(&["perft", "campaign", "3", "--divide"]);
    let lines: Vec<&str> = divided.lines().collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[5], "190");
    let sum: u64 = lines[..5]
        .iter()
        .map(|l| {
            l.split(' ')
                .nth(1)
                .and_then(|n| n.parse::<u64>().ok())
                .expect("move count")
        })
        .sum();
    assert_eq!(sum, 190);
    assert!(lines[0].starts_with("a2a3 "));
}

#[test]
fn position_plays_moves_and_reports_the_outcome() {
    assert_eq!(
        stdout_of(&["position", "campaign", "c2c3", "c6c5"]),
        "hgcgh/ii1ii/2i2/5/2I2/II1II/HGCGH h AEae 0 2\n"
    );
    assert_eq!(
        stdout_of(&[
            "position",
            "campaign",
            "--position",
            "1h2c/5/4h/5/5/5/C4 t - 0 1",
            "e5a5"
        ]),
        "1h2c/5/h4/5/5/5/C4 h - 1 2\nfact-check: tails wins\n"
    );
    assert_eq!(
        stdout_of(&[
            "position",
            "campaign",
            "--position",
            "4c/5/5/5/5/1i3/C4 h - 0 1",
            "a1b2"
        ]),
        "4c/5/5/5/5/1C3/5 t - 0 1\nrun-off: bare candidates\n"
    );
}

#[test]
fn an_illegal_move_names_the_move_its_number_and_the_rule() {
    let err = failure(&["position", "campaign", "a2a3", "c6c5", "c1c3"], 1);
    assert_eq!(
        err,
        "error: move 3: c1c3: a candidate moves one square\n\
         hint: `correspond moves campaign --position 'hgcgh/ii1ii/2i2/5/I4/1IIII/HGCGH h AEae 0 2'` \
         lists the legal moves there\n"
    );
    let err = failure(&["position", "campaign", "c2c3", "c1c2"], 1);
    assert!(
        err.starts_with(
            "error: move 2: c1c2: the piece on c1 belongs to heads; it is tails to move\n"
        ),
        "{err}"
    );
    let err = failure(&["position", "campaign", "c2c3", "c6c5", "c1d2"], 1);
    assert!(
        err.starts_with("error: move 3: c1d2: d2 holds your own intern\n"),
        "{err}"
    );
}

#[test]
fn malformed_and_ambiguous_moves_are_told_apart() {
    let err = failure(&["position", "campaign", "c2-c3"], 1);
    assert_eq!(
        err,
        "error: move 1: c2-c3: `c2-c3` is not a move: write the from-square and the to-square, like c2c3 or b6b7g\n"
    );
    let err = failure(
        &[
            "position",
            "campaign",
            "--position",
            "4c/1I3/5/5/5/5/2C2 h - 0 1",
            "b6b7",
        ],
        1,
    );
    assert!(
        err.starts_with("error: move 1: b6b7: ambiguous: it could be b6b7g or b6b7h\n"),
        "{err}"
    );
}

#[test]
fn a_bad_position_names_the_field() {
    let err = failure(
        &[
            "moves",
            "campaign",
            "--position",
            "hgcgh/iiiii/5/5/5/IIIII/HGCGH x AEae 0 1",
        ],
        1,
    );
    assert_eq!(
        err,
        "error: --position: side to move: expected `h` (heads) or `t` (tails), found `x`\n\
         hint: the start position is `hgcgh/iiiii/5/5/5/IIIII/HGCGH h AEae 0 1`; see \
         docs/rules/campaign.md for the format\n"
    );
    for command in ["perft", "position", "show"] {
        let mut args = vec![command, "campaign", "--position", "5/5/5/5/5/5/5 h - 0 1"];
        if command == "perft" {
            args.push("1");
        }
        let err = failure(&args, 1);
        assert!(
            err.starts_with("error: --position: placement: heads has 0 candidates"),
            "{command}: {err}"
        );
    }
}

#[test]
fn usage_errors_exit_with_2() {
    // The games as the registry lists them, in words: `campaign, guerrilla ... or chess`.
    let games = correspond::games::GameKind::names_joined("or");
    let err = failure(&["moves", "checkers"], 2);
    assert_eq!(
        err,
        format!("error: `checkers` is neither a game ({games}) nor a game file\n")
    );
    // A word nearly a game's name, to every command that takes a game or a game file.
    for command in ["moves", "position", "show", "perft"] {
        for (typed, meant) in [
            ("chesss", "chess"),
            ("Campaign", "campaign"),
            ("gurilla", "guerrilla"),
        ] {
            let mut args = vec![command, typed];
            if command == "perft" {
                args.push("1");
            }
            assert_eq!(
                failure(&args, 2),
                format!(
                    "error: `{typed}` is neither a game ({games}) nor a game file\nhint: did \
                     you mean `{meant}`?\n"
                ),
                "{args:?}"
            );
        }
    }
    // With moves, `show` says they need a game, and which one was meant.
    assert_eq!(
        failure(&["show", "chss", "e4"], 2),
        format!(
            "error: `chss` is not a game ({games}), and moves and --position are for a game, not \
             a game file\nhint: did you mean `chess`?\n"
        )
    );
    failure(&["moves", "campaign", "--fast"], 2);
    failure(&["perft", "campaign"], 2);
    failure(&["perft", "campaign", "-1"], 2);
    failure(&[], 2);
}

#[test]
fn help_and_version_succeed() {
    correspond()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("moves"));
    correspond()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("correspond "));
}

#[test]
fn show_draws_the_board_in_ascii() {
    let out = stdout_of(&[
        "show",
        "campaign",
        "--ascii",
        "--position",
        "h1c1h/iiiii/5/5/4g/III1I/H1C1H h AEae 0 1",
    ]);
    insta::assert_snapshot!(out, @r"
    Campaign, move 1, heads to move

       a b c d e
     7 h . c . h 7   tails  spin: a e
     6 i i i i i 6
     5 . . . . . 5
     4 . . . . . 4
     3 . . . . g 3
     2 I I I . I 2
     1 H . C . H 1   heads  spin: A E  <- to move
       a b c d e

    check: the heads candidate on c1 is attacked by the guard on e3
    halfmove clock: 0
    position: h1c1h/iiiii/5/5/4g/III1I/H1C1H h AEae 0 1
    C candidate  S stacked candidate  G guard  H handler  I intern  (upper case: heads, lower case: tails)
    ");
}

#[test]
fn show_draws_unicode_by_default_marks_the_last_move_and_the_outcome() {
    let out = stdout_of(&[
        "show",
        "campaign",
        "--position",
        "1h2c/5/4h/5/5/5/C4 t - 0 1",
        "e5a5",
    ]);
    insta::assert_snapshot!(out, @r"
    Campaign, move 2, game over

       a b c d e
     7 · ♜ · · ♚ 7   tails  spin: none
     6 · · · · · 6
     5 ♜ · · · · 5
     4 · · · · · 4
     3 · · · · · 3
     2 · · · · · 2
     1 ♔ · · · · 1   heads  spin: none
       a b c d e

    last move: e5a5
    check: the heads candidate on a1 is attacked by the handler on a5
    game over: fact-check: tails wins
    halfmove clock: 1
    position: 1h2c/5/h4/5/5/5/C4 h - 1 2
    ♔ candidate  ♕ stacked candidate  ♗ guard  ♖ handler  ♙ intern  (white: heads, black: tails)
    moves: 1... e5a5
    ");
}

/// A game ended by a resignation, which the position does not show: nobody is to move, and
/// neither the title nor the side notes say otherwise.
#[test]
fn show_of_a_resigned_game_says_it_is_over_not_whose_turn_it_is() {
    let (code, out, err) =
        transcript(correspond().args(["show", "--ascii", "games/campaign/resignation.yaml"]));
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!(out, @r"
    games/campaign/resignation.yaml: alice (heads) v bob (tails), record 11 of 11
    game over: heads wins: bob (tails) resigned

    Campaign, move 5, game over

       a b c d e
     7 h g c . h 7   tails  spin: a e
     6 . i i . g 6
     5 i . . i i 5
     4 . . I . G 4
     3 . . . . . 3
     2 I I C I I 2
     1 H . . G H 1   heads  spin: none
       a b c d e

    last move: d6d5
    halfmove clock: 0
    position: hgc1h/1ii1g/i2ii/2I1G/5/IICII/H2GH h ae 0 5
    C candidate  S stacked candidate  G guard  H handler  I intern  (upper case: heads, lower case: tails)
    moves: 1. c2c3 e6e5 2. c3c4 a6a5 3. b1e4 d7e6 4. c1c2 d6d5
    ");
    // The record before the resignation: heads was to move then.
    let before = stdout_of(&[
        "show",
        "--ascii",
        "games/campaign/resignation.yaml",
        "--at",
        "10",
    ]);
    assert!(
        before.contains("\nCampaign, move 5, heads to move\n"),
        "{before}"
    );
    assert!(
        before.contains("heads  spin: none  <- to move\n"),
        "{before}"
    );
}

#[test]
fn show_reports_what_can_be_claimed() {
    let out = stdout_of(&[
        "show",
        "campaign",
        "--ascii",
        "--position",
        "4c/5/5/5/5/I4/2C2 h - 0 1",
        "c1d1",
        "e7e6",
        "d1c1",
        "e6e7",
        "c1d1",
        "e7e6",
        "d1c1",
        "e6e7",
    ]);
    assert!(
        out.contains("claimable by heads: run-off: threefold repetition\n"),
        "{out}"
    );
    let out = stdout_of(&[
        "show",
        "campaign",
        "--position",
        "4c/5/5/5/5/I4/2C2 h - 100 60",
    ]);
    assert!(
        out.contains("claimable by heads: run-off: 100 plies without capture or intern move\n"),
        "{out}"
    );
}

#[test]
fn show_uses_colour_only_on_a_terminal() {
    // The tests' stdout is a pipe, not a terminal: no escape sequences, with or without NO_COLOR.
    let plain = stdout_of(&[
        "show",
        "campaign",
        "--position",
        "1h2c/5/h4/5/5/5/C4 h - 0 1",
    ]);
    assert!(!plain.contains('\u{1b}'));
    let out = correspond()
        .env("NO_COLOR", "1")
        .env("CLICOLOR_FORCE", "1")
        .args(["show", "campaign"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(!out.contains(&0x1b), "NO_COLOR wins over CLICOLOR_FORCE");
    let forced = correspond()
        .env("CLICOLOR_FORCE", "1")
        .args([
            "show",
            "campaign",
            "--position",
            "1h2c/5/h4/5/5/5/C4 h - 0 1",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(
        forced.contains(&0x1b),
        "styles are written when colour is forced"
    );
}
