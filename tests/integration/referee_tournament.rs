//! The referee and a tournament's folder: the example event pushed whole is taken, its
//! tournament file then only grows by records of the event (a rewrite or a deletion refused),
//! and a new game that names the event must be its pairing's one game, beside its tournament
//! file. Each refused push leaves the server as it was.

use crate::referee::Server;
use crate::util::{correspond, keys_dir, transcript};

/// The example event's folder, as its clones hold it.
const FOLDER: &str = "club-championship-2026";

/// The example event's id.
const EVENT: &str = "3b8367e193cccc715de1f5810136b3b46f314543956eba4446ca9eedf76b5f8b";

/// A server whose referee takes documents within an hour of its clock (the example's are dated
/// over an hour of 2026-03-03), with the example event pushed by alice.
fn with_the_event() -> Server {
    let server = Server::new();
    let (code, out, err) = transcript(correspond().current_dir(server.path(".")).args([
        "referee",
        "install",
        "server.git",
        "--max-skew",
        "60",
    ]));
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            "installed the referee as the pre-receive and reference-transaction hooks of \
             server.git: pushes that break a game's rules are refused, one at a time, and \
             records must be dated within 60 minutes of this server's clock\nchecked 0 game \
             files on 0 branches: all valid, each game one line; the index holds 0 games\n",
            ""
        )
    );
    let example =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/chess/club-championship-2026");
    let folder = server.path("alice").join(FOLDER);
    std::fs::create_dir(&folder).expect("mkdir");
    for entry in std::fs::read_dir(&example).expect("the example event") {
        let path = entry.expect("an entry").path();
        std::fs::copy(&path, folder.join(path.file_name().expect("a name"))).expect("copy");
    }
    server.git("alice", &["add", "-A"]);
    server.git("alice", &["commit", "-q", "-m", "the club championship"]);
    server.clock("2026-03-03T00:32:00Z");
    let games = [
        (
            "round-1-board-1",
            "game over: white wins: bob (black) resigned",
        ),
        (
            "round-1-board-2",
            "waiting for erin (black) to accept the game",
        ),
        ("round-2-board-1", "bob (white) to move"),
        (
            "round-2-board-2",
            "game over: black wins: alice (white) resigned",
        ),
        ("round-3-board-1", "game over: draw: agreement"),
        ("round-3-board-2", "erin (white) to move"),
        (
            "round-4-board-1",
            "game over: black wins: alice (white) resigned",
        ),
        (
            "round-4-board-2",
            "game over: white wins: adjudicated by the arbiter (the game was abandoned)",
        ),
        ("round-5-board-1", "frank (black) to move"),
        ("round-5-board-2", "game over: white wins: checkmate"),
    ];
    let mut lines: Vec<String> = games
        .iter()
        .map(|(name, status)| {
            format!("refs/heads/main: {FOLDER}/{name}.yaml: a new game, verified; {status}")
        })
        .collect();
    lines.push(format!(
        "refs/heads/main: {FOLDER}/tournament.yaml: a new tournament file, verified; the lot is \
         drawn; the games are played"
    ));
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    assert_eq!(
        server.push("alice", &["-q", "-u", "origin", "main"]),
        server.landed(&lines)
    );
    server
}

/// `who` signs `args` in alice's clone at `time` (the command commits).
fn sign_as(server: &Server, who: &str, time: &str, args: &[&str]) {
    let (code, _, err) = transcript(
        correspond()
            .current_dir(server.path("alice"))
            .env("CORRESPOND_TIME", time)
            .args(args)
            .arg("--key")
            .arg(keys_dir().join(who)),
    );
    assert_eq!((code, err.as_str()), (0, ""), "{who} {args:?}");
}

/// `white` makes, at `time`, a chess game at `path` in alice's clone against `black`, with the
/// event's terms and the tags of round 1, board 1.
fn round_1_board_1(server: &Server, path: &str, (white, black): (&str, &str), time: &str) {
    let black_key = keys_dir().join(format!("{black}.pub"));
    let gina = keys_dir().join("gina.pub");
    let tournament = format!("Tournament={EVENT}");
    sign_as(
        server,
        white,
        time,
        &[
            "new",
            "chess",
            path,
            "--name",
            white,
            "--side",
            "white",
            "--opponent",
            black,
            "--opponent-key",
            black_key.to_str().expect("UTF-8"),
            "--time-control",
            "10/50",
            "--leave",
            "30",
            "--arbiter",
            "gina",
            "--arbiter-key",
            gina.to_str().expect("UTF-8"),
            "--tag",
            "Board=1",
            "--tag",
            "Event=Correspond Club Championship 2026",
            "--tag",
            "Round=1",
            "--tag",
            "Site=correspond",
            "--tag",
            &tournament,
        ],
    );
}

#[test]
fn a_tournament_file_pushed_only_grows_by_records_of_its_event() {
    let server = with_the_event();
    // The index holds the games; the tournament file is checked beside them.
    let (code, out, err) = transcript(correspond().current_dir(server.path(".")).args([
        "referee",
        "repair",
        "server.git",
    ]));
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            "checked 10 game files and 1 tournament file on 1 branch: all valid, each game one \
             line; the index holds 10 games\n",
            ""
        )
    );
    let tournament = server.path("alice").join(FOLDER).join("tournament.yaml");
    let text = std::fs::read_to_string(&tournament).expect("the tournament file");
    // bob's entry, dated a minute later.
    let rewritten = text.replace(
        "time: \"2026-03-03T00:03:00Z\"",
        "time: \"2026-03-03T00:03:30Z\"",
    );
    assert_ne!(rewritten, text);
    server.clock("2026-03-03T01:10:00Z");
    let cases: [(&str, &dyn Fn(), String); 2] = [
        (
            "a record rewritten",
            &|| std::fs::write(&tournament, &rewritten).expect("write"),
            format!(
                "refused refs/heads/main: {FOLDER}/tournament.yaml: this push rewrites the \
                 tournament file: record 2 (line 44): this document was changed; a later \
                 version may only append records"
            ),
        ),
        (
            "the file deleted",
            &|| std::fs::remove_file(&tournament).expect("remove"),
            format!(
                "refused refs/heads/main: {FOLDER}/tournament.yaml: the tournament file is \
                 deleted; a referee keeps every tournament file where it is (never deleted, \
                 moved or renamed)"
            ),
        ),
    ];
    for (what, change, line) in cases {
        let before = server.state();
        change();
        server.git("alice", &["commit", "-q", "-am", what]);
        assert_eq!(
            server.push("alice", &["-q"]),
            server.refused(&[&line]),
            "{what}"
        );
        assert_eq!(server.state(), before, "{what}: the server is as it was");
        server.git("alice", &["reset", "-q", "--hard", "origin/main"]);
    }
    // A record of the event, signed now, is taken.
    sign_as(
        &server,
        "carol",
        "2026-03-03T01:09:00Z",
        &["tournament", "withdraw", FOLDER],
    );
    assert_eq!(
        server.push("alice", &["-q"]),
        server.landed(&[&format!(
            "refs/heads/main: {FOLDER}/tournament.yaml: record 15 taken; the lot is drawn; the \
             games are played"
        )])
    );
}

#[test]
fn a_new_game_that_names_the_event_must_be_its_pairings_one_game() {
    let server = with_the_event();
    server.clock("2026-03-03T01:10:00Z");
    let advice = "a game of an event is kept beside the event's tournament.yaml, where \
                  `correspond tournament start` makes it";
    type Case<'a> = (&'a str, &'a str, (&'a str, &'a str), String);
    let cases: [Case<'_>; 3] = [
        (
            "another pairing's players",
            "club-championship-2026/erin-v-frank.yaml",
            ("erin", "frank"),
            "it is not round 1, board 1 of the event: frank plays white there, but the game \
             gives that seat to erin; a game that names an event (its `Tournament` tag) must be \
             exactly the game of its pairing, as `correspond tournament start` makes it"
                .to_owned(),
        ),
        (
            "a second game for round 1, board 1",
            "club-championship-2026/round-1-board-1-again.yaml",
            ("frank", "bob"),
            "round 1, board 1 of the event has another game (another game id) beside it, \
             club-championship-2026/round-1-board-1.yaml: one pairing is one game, so this one \
             is refused; play the game there"
                .to_owned(),
        ),
        (
            "the pairing's game away from its event",
            "elsewhere/round-1-board-1.yaml",
            ("frank", "bob"),
            format!(
                "it names round 1, board 1 of the event {EVENT} (its `Tournament` tag), but \
                 there is no tournament.yaml beside it; {advice}"
            ),
        ),
    ];
    for (n, (what, path, players, why)) in cases.into_iter().enumerate() {
        std::fs::create_dir_all(server.path("alice").join(path).parent().expect("a folder"))
            .expect("mkdir");
        let before = server.state();
        let time = format!("2026-03-03T01:0{}:00Z", 7 + n);
        round_1_board_1(&server, path, players, &time);
        assert_eq!(
            server.push("alice", &["-q"]),
            server.refused(&[&format!("refused refs/heads/main: {path}: {why}")]),
            "{what}"
        );
        assert_eq!(server.state(), before, "{what}: the server is as it was");
        server.git("alice", &["reset", "-q", "--hard", "origin/main"]);
    }
}
