//! A Swiss event run through the binary with a real pairing program: PyPI's py4swiss, a FIDE
//! Dutch engine its authors test against bbpPairings (`.ci/run` installs it; set
//! `CORRESPOND_PY4SWISS` to its script, or have `py4swiss` on the PATH). Five players, three
//! rounds: each round paired by the program from the report file the games give, a bye each
//! round while the count is odd, a withdrawal defaulted by the director, and the next round
//! paired without the player. The whole transcript is held; then every round is run again
//! (`pair --check`), the tournament file is held to its schema, and a game taken away is named
//! at the round paired from it.

use crate::tournament::Event;
use crate::util::{correspond, keys_dir, transcript};
use correspond::log::Timestamp;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

const FOLDER: &str = "open";
const PLAYERS: [&str; 5] = ["alice", "bob", "carol", "erin", "frank"];
const DIRECTOR: &str = "gina";

/// py4swiss's script, or `None` (the test says it was skipped) where it is not installed.
fn py4swiss() -> Option<PathBuf> {
    let program = std::env::var_os("CORRESPOND_PY4SWISS")
        .map_or_else(|| PathBuf::from("py4swiss"), PathBuf::from);
    let name = program.to_string_lossy().into_owned();
    if !crate::util::tool_present(
        &name,
        &["--help"],
        "the Swiss tests need a pairing program, py4swiss (pip install py4swiss==0.3.1)",
    ) {
        return None;
    }
    if program.components().count() > 1 {
        return Some(program);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join(&program))
        .find(|p| p.is_file())
}

/// A PATH that finds py4swiss (and the system's programs).
fn path_with(program: &Path) -> OsString {
    let mut dirs = vec![program.parent().expect("a folder").to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).expect("a PATH")
}

/// `correspond ARGS --key tests/keys/WHO --no-commit` at the event's next minute, which must
/// fail: its transcript, added to the event's.
fn refused(event: &mut Event, who: &str, args: &[&str], path: &OsString) -> (i32, String) {
    let (code, out, err) = transcript(
        correspond()
            .env("PATH", path)
            .env(
                "CORRESPOND_TIME",
                Timestamp::from_unix(1_772_442_000).as_str(),
            )
            .current_dir(&event.dir)
            .args(args)
            .arg("--key")
            .arg(keys_dir().join(who))
            .arg("--no-commit"),
    );
    assert_ne!(code, 0, "{args:?}");
    event.transcript.push_str(&format!(
        "$ correspond {} # {who}\n{out}{err}[exit {code}]\n",
        args.join(" ")
    ));
    (code, err)
}

/// The boards `pair` printed: (White, Black) by board.
fn boards(said: &str) -> Vec<(String, String)> {
    said.lines()
        .filter_map(|l| l.strip_prefix("board "))
        .map(|l| {
            let (_, players) = l.split_once(": ").expect("board N: players");
            let (white, black) = players.split_once(" (white) v ").expect("two players");
            (
                white.to_owned(),
                black.trim_end_matches(" (black)").to_owned(),
            )
        })
        .collect()
}

/// Plays board `board` of `round`: White starts it, Black accepts, and it ends as `end` says.
fn play(
    event: &mut Event,
    round: usize,
    board: usize,
    (white, black): &(String, String),
    end: &str,
) {
    let file = format!("{FOLDER}/round-{round}-board-{board}.yaml");
    event.by(white, &["tournament", "start", FOLDER]);
    event.by(black, &["accept", &file]);
    event.by(white, &["play", &file, "e2e4"]);
    match end {
        "black resigns" => {
            event.by(black, &["resign", &file]);
        }
        "white resigns" => {
            event.by(black, &["play", &file, "e7e5"]);
            event.by(white, &["resign", &file]);
        }
        _ => {
            event.by(black, &["play", &file, "e7e5"]);
            event.by(white, &["offer-draw", &file]);
            event.by(black, &["accept-draw", &file]);
        }
    }
}

#[test]
fn a_swiss_event_is_paired_round_by_round_by_an_installed_program() {
    let Some(program) = py4swiss() else {
        return;
    };
    let path = path_with(&program);
    let dir = tempfile::tempdir().expect("temp dir");
    let mut event = Event::new(dir.path());
    event.env.push(("PATH".into(), path.clone()));
    event.by(
        DIRECTOR,
        &[
            "tournament",
            "new",
            FOLDER,
            "--event",
            "Correspond Open 2026",
            "--game",
            "chess",
            "--system",
            "swiss",
            "--rounds",
            "3",
            "--time-control",
            "10/50",
            "--withdrawals",
            "default",
            "--director",
            DIRECTOR,
        ],
    );
    for player in PLAYERS {
        event.by(player, &["tournament", "enter", FOLDER, "--name", player]);
    }
    event.by(DIRECTOR, &["tournament", "close", FOLDER]);
    for party in std::iter::once(DIRECTOR).chain(PLAYERS) {
        event.by(party, &["tournament", "reveal", FOLDER]);
    }
    let pair = ["tournament", "pair", FOLDER, "--engine", "py4swiss"];
    let one = boards(&event.by(DIRECTOR, &pair));
    assert_eq!(one.len(), 2, "{one:?}");
    play(&mut event, 1, 1, &one[0], "black resigns");
    // Round 2 waits for every game of round 1.
    event.by(&one[1].0, &["tournament", "start", FOLDER]);
    let (code, err) = refused(&mut event, DIRECTOR, &pair, &path);
    assert_eq!(code, 2, "{err}");
    let board = format!("{FOLDER}/round-1-board-2.yaml");
    event.by(&one[1].1, &["accept", &board]);
    event.by(&one[1].0, &["play", &board, "d2d4"]);
    event.by(&one[1].1, &["play", &board, "d7d5"]);
    event.by(&one[1].0, &["offer-draw", &board]);
    event.by(&one[1].1, &["accept-draw", &board]);
    // Without a pairing program, nothing is paired, and the director is told where to get one.
    let empty = tempfile::tempdir().expect("temp dir");
    let (code, _) = refused(
        &mut event,
        DIRECTOR,
        &["tournament", "pair", FOLDER],
        &empty.path().as_os_str().to_owned(),
    );
    assert_eq!(code, 2);
    let two = boards(&event.by(DIRECTOR, &pair));
    assert_eq!(two.len(), 2, "{two:?}");
    play(&mut event, 2, 2, &two[1], "white resigns");
    // Board 1's Black withdraws before starting; the director defaults the game.
    let gone = two[0].1.clone();
    event.by(&two[0].0, &["tournament", "start", FOLDER]);
    event.by(&gone, &["tournament", "withdraw", FOLDER]);
    event.by(
        DIRECTOR,
        &[
            "tournament",
            "decide",
            FOLDER,
            "--player",
            &gone,
            "--decision",
            "default",
        ],
    );
    // Four players are left: two games, no bye.
    let three = boards(&event.by(DIRECTOR, &pair));
    assert_eq!(three.len(), 2, "{three:?}");
    assert!(three.iter().all(|(w, b)| *w != gone && *b != gone));
    play(&mut event, 3, 1, &three[0], "draw");
    play(&mut event, 3, 2, &three[1], "black resigns");
    let (code, _) = refused(&mut event, DIRECTOR, &pair, &path);
    assert_eq!(code, 2);
    for args in [
        &["verify", FOLDER][..],
        &["tournament", "standings", FOLDER],
        &[
            "tournament",
            "pair",
            FOLDER,
            "--check",
            "--engine",
            "py4swiss",
        ],
        &["tournament", "trf", FOLDER],
        &["tournament", "trf", FOLDER, "--round", "3"],
    ] {
        let (code, out, err) = transcript(
            correspond()
                .env("PATH", &path)
                .current_dir(dir.path())
                .args(args),
        );
        assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
        event
            .transcript
            .push_str(&format!("$ correspond {}\n{out}", args.join(" ")));
    }
    insta::assert_snapshot!("swiss_transcript", event.transcript);

    // The tournament file is held to its schema.
    let file = dir.path().join(FOLDER).join("tournament.yaml");
    crate::tournament::holds_to_the_tournament_schema(&file);

    // A round-1 game taken away: round 2 was paired from a result that is not here. `verify`
    // says so (and the event stands: a result can change after a round is paired without
    // anyone cheating); running the rounds again fails.
    std::fs::remove_file(dir.path().join(FOLDER).join("round-1-board-2.yaml")).expect("removed");
    let mut after = String::new();
    let check = [
        "tournament",
        "pair",
        FOLDER,
        "--check",
        "--engine",
        "py4swiss",
    ];
    for (args, expected) in [(&["verify", FOLDER][..], 0), (&check[..], 1)] {
        let (code, out, err) = transcript(
            correspond()
                .env("PATH", &path)
                .current_dir(dir.path())
                .args(args),
        );
        assert_eq!(code, expected, "{args:?}");
        after.push_str(&format!(
            "$ correspond {}\n{out}{err}[exit {code}]\n",
            args.join(" ")
        ));
    }
    insta::assert_snapshot!("swiss_a_game_taken_away", after);
}
