//! `correspond pgn` read by another program's PGN reader (the pgn-reader crate), its moves
//! played by shakmaty: the tags a header keeps come back (`Event`, `Site`, `Date`, `Round` and
//! others, `Site "?"` when unknown), `Termination` is one of PGN's own values, the players'
//! signed comments are PGN comments, and the moves reach the position `correspond position`
//! gives. And a PGN game imported, exported and read again keeps its tags and comments.

use crate::util::{chess_accepted, correspond, keys_dir, signed, transcript};
use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position};
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::Path;

/// A game as the other reader sees it.
#[derive(Debug, Default)]
struct Read {
    tags: Vec<(String, String)>,
    /// Each comment with the number of moves played before it.
    comments: Vec<(usize, String)>,
    moves: usize,
    /// The position after the moves, as shakmaty writes it.
    fen: String,
    /// The result token the movetext ends with.
    outcome: String,
    /// A move shakmaty refused, if any.
    refused: Option<String>,
}

struct Collect;

impl Visitor for Collect {
    type Tags = Vec<(String, String)>;
    type Movetext = (Read, Chess);
    type Output = Read;

    fn begin_tags(&mut self) -> ControlFlow<Read, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Read> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Read, Self::Movetext> {
        ControlFlow::Continue((
            Read {
                tags,
                ..Read::default()
            },
            Chess::default(),
        ))
    }

    fn san(&mut self, (read, pos): &mut Self::Movetext, san: SanPlus) -> ControlFlow<Read> {
        match san.san.to_move(pos) {
            Ok(mv) if read.refused.is_none() => {
                pos.play_unchecked(mv);
                read.moves += 1;
            }
            _ => read.refused = read.refused.take().or(Some(san.to_string())),
        }
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        (read, _): &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Read> {
        let text = String::from_utf8_lossy(comment.as_bytes());
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        read.comments.push((read.moves, text));
        ControlFlow::Continue(())
    }

    fn outcome(
        &mut self,
        (read, _): &mut Self::Movetext,
        outcome: pgn_reader::Outcome,
    ) -> ControlFlow<Read> {
        read.outcome = outcome.to_string();
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, (mut read, pos): Self::Movetext) -> Read {
        read.fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        read
    }
}

/// Every game of a PGN text, as the other reader reads it.
fn read_all(pgn: &str) -> Vec<Read> {
    let mut reader = Reader::new(std::io::Cursor::new(pgn.as_bytes()));
    let mut games = Vec::new();
    while let Some(game) = reader
        .read_game(&mut Collect)
        .expect("PGN the reader reads")
    {
        games.push(game);
    }
    games
}

fn run(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_TIME", "2026-03-01T12:00:00Z")
            .args(args),
    );
    assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
    out
}

/// The standard's values for `Termination`.
const TERMINATIONS: [&str; 8] = [
    "abandoned",
    "adjudication",
    "death",
    "emergency",
    "normal",
    "rules infraction",
    "time forfeit",
    "unterminated",
];

#[test]
fn the_example_chess_games_read_by_another_pgn_reader() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let chess = root.join("games/chess");
    let mut files: Vec<_> = std::fs::read_dir(&chess)
        .expect("games/chess")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 7);
    for file in files {
        let name = file.strip_prefix(root).expect("in the project");
        let name = name.to_str().expect("UTF-8");
        let pgn = run(root, &["pgn", name]);
        let games = read_all(&pgn);
        assert_eq!(games.len(), 1, "{name}");
        let game = &games[0];
        assert_eq!(game.refused, None, "{name}");
        let position = run(root, &["position", name]);
        assert_eq!(Some(game.fen.as_str()), position.lines().next(), "{name}");
        let tags: BTreeMap<&str, &str> = game
            .tags
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        let roster: Vec<&str> = game.tags.iter().take(7).map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            roster,
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"],
            "{name}"
        );
        assert_eq!(tags["Result"], game.outcome, "{name}");
        assert!(TERMINATIONS.contains(&tags["Termination"]), "{name}");
        let status = run(root, &["status", name, "--json"]);
        let status: serde_json::Value = serde_json::from_str(&status).expect("JSON");
        assert_eq!(tags["GameId"], status["game_id"], "{name}");
    }
    // The classic games came from games/chess/classics.pgn: their tags came with them.
    let opera = run(root, &["pgn", "games/chess/morphy-opera-game-1858.yaml"]);
    let opera = &read_all(&opera)[0];
    let roster: Vec<(&str, &str)> = opera
        .tags
        .iter()
        .take(7)
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        roster,
        [
            ("Event", "Paris"),
            ("Site", "Paris FRA"),
            ("Date", "1858.??.??"),
            ("Round", "?"),
            ("White", "Paul Morphy"),
            ("Black", "Duke Karl / Count Isouard"),
            ("Result", "1-0"),
        ]
    );
}

#[test]
fn a_club_game_keeps_its_tags_comments_and_ending_for_another_reader() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let key = |who: &str| keys_dir().join(who).display().to_string();
    let time = "2026-03-01T12:00:00Z";
    let tags = [
        "--tag",
        "Event=Club championship, spring",
        "--tag",
        "Round=3",
        "--tag",
        "Annotator=the club",
    ];
    chess_accepted(dir, time, "g.yaml", &tags);
    let sign = |who: &str, args: &[&str]| signed(dir, time, who, args);
    sign("alice", &["play", "g.yaml", "e4", "-m", "the king's pawn"]);
    sign("bob", &["play", "g.yaml", "c5"]);
    sign("alice", &["play", "g.yaml", "Nf3", "-m", "calm"]);
    sign(
        "bob",
        &["resign", "g.yaml", "-m", "too strong, well played"],
    );
    let pgn = run(dir, &["pgn", "g.yaml"]);
    let game = &read_all(&pgn)[0];
    let tags: Vec<(&str, &str)> = game
        .tags
        .iter()
        .filter(|(n, _)| n != "GameId")
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        tags,
        [
            ("Event", "Club championship, spring"),
            ("Site", "?"),
            ("Date", "2026.03.01"),
            ("Round", "3"),
            ("White", "alice"),
            ("Black", "bob"),
            ("Result", "1-0"),
            ("Annotator", "the club"),
            ("PlyCount", "3"),
            ("Termination", "normal"),
        ]
    );
    assert_eq!(
        game.comments,
        [
            (1, "alice (white): the king's pawn".to_owned()),
            (3, "alice (white): calm".to_owned()),
            (3, "bob (black) resigns: too strong, well played".to_owned()),
        ]
    );
    assert_eq!((game.moves, game.outcome.as_str()), (3, "1-0"));
    // Imported again, and written out again: the same tags, comments and moves.
    let pgn_file = dir.join("g.pgn");
    std::fs::write(&pgn_file, &pgn).expect("write");
    run(
        dir,
        &[
            "import-pgn",
            "g.pgn",
            "again.yaml",
            "--white-key",
            &key("alice"),
            "--black-key",
            &key("bob"),
            "--no-commit",
        ],
    );
    let again = run(dir, &["pgn", "again.yaml"]);
    let again = &read_all(&again)[0];
    let without_id = |tags: &[(String, String)]| -> Vec<(String, String)> {
        tags.iter()
            .filter(|(n, _)| n != "GameId")
            .cloned()
            .collect()
    };
    assert_eq!(without_id(&again.tags), without_id(&game.tags));
    // The resignation, in words after the last move, is bob's resignation again, with his
    // comment.
    assert_eq!(
        again.comments,
        [
            (1, "alice (white): the king's pawn".to_owned()),
            (3, "alice (white): calm".to_owned()),
            (3, "bob (black) resigns: too strong, well played".to_owned()),
        ]
    );
    assert_eq!(
        (again.moves, again.fen.as_str()),
        (game.moves, game.fen.as_str())
    );
    assert_eq!(again.outcome, "1-0");
    // Each comment is signed by the one who wrote it: bob's with his resignation, not with
    // alice's last move.
    let file = std::fs::read_to_string(dir.join("again.yaml")).expect("read");
    let signed: Vec<(String, String)> = file
        .split("---\n")
        .skip(2)
        .filter_map(|r| {
            let field = |name: &str| {
                r.lines()
                    .find_map(|l| l.strip_prefix(name))
                    .map(|v| v.trim_matches('"').to_owned())
            };
            Some((field("signer: ")?, field("comment: ")?))
        })
        .collect();
    assert_eq!(
        signed,
        [
            ("alice".to_owned(), "the king's pawn".to_owned()),
            ("alice".to_owned(), "calm".to_owned()),
            ("bob".to_owned(), "too strong, well played".to_owned()),
        ]
    );
    // Another program's comment, with no name before it, is the mover's; a coup comment that
    // is no coup `correspond pgn` wrote is kept.
    std::fs::write(
        &pgn_file,
        "[White \"alice\"]\n[Black \"bob\"]\n\n1. e4 {coup: a surprise; best by test} e5 *\n",
    )
    .expect("write");
    run(
        dir,
        &[
            "import-pgn",
            "g.pgn",
            "third.yaml",
            "--white-key",
            &key("alice"),
            "--black-key",
            &key("bob"),
            "--no-commit",
        ],
    );
    let third = std::fs::read_to_string(dir.join("third.yaml")).expect("read");
    assert!(
        third.contains("\ncomment: \"coup: a surprise; best by test\"\n"),
        "{third}"
    );
}

#[test]
fn a_timeout_an_abandoned_game_and_a_game_going_on_have_the_standard_terminations() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let key = |who: &str| keys_dir().join(who).display().to_string();
    let at = |time: &str, who: &str, args: &[&str]| {
        let mut all = args.to_vec();
        let key = key(who);
        all.extend(["--key", &key, "--no-commit"]);
        let (code, _, err) = transcript(
            correspond()
                .current_dir(dir)
                .env("CORRESPOND_TIME", time)
                .args(&all),
        );
        assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
    };
    let (bob, carol) = (key("bob.pub"), key("carol.pub"));
    for file in ["t.yaml", "a.yaml"] {
        at(
            "2026-03-01T12:00:00Z",
            "alice",
            &[
                "new",
                "chess",
                file,
                "--name",
                "alice",
                "--side",
                "white",
                "--opponent",
                "bob",
                "--opponent-key",
                &bob,
                "--time-control",
                "3/move",
                "--arbiter",
                "carol",
                "--arbiter-key",
                &carol,
            ],
        );
        at("2026-03-01T12:00:00Z", "bob", &["accept", file]);
        at("2026-03-01T12:00:00Z", "alice", &["play", file, "d4"]);
    }
    let termination = |file: &str| -> (String, String) {
        let game = &read_all(&run(dir, &["pgn", file]))[0];
        let tag = |name: &str| {
            game.tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        assert_eq!(tag("Result"), game.outcome);
        (tag("Termination"), game.outcome.clone())
    };
    assert_eq!(
        termination("t.yaml"),
        ("unterminated".to_owned(), "*".to_owned())
    );
    at(
        "2026-03-05T12:00:00Z",
        "alice",
        &["claim-timeout", "t.yaml"],
    );
    assert_eq!(
        termination("t.yaml"),
        ("time forfeit".to_owned(), "1-0".to_owned())
    );
    // The clock, as PGN's TimeControl: one period of MOVES/SECONDS, as daily games write it.
    let time_control = |file: &str| {
        read_all(&run(dir, &["pgn", file]))[0]
            .tags
            .iter()
            .find(|(name, _)| name == "TimeControl")
            .map(|(_, value)| value.clone())
    };
    assert_eq!(time_control("t.yaml").as_deref(), Some("1/259200"));
    // A game of alice's against carol, made with `extra` arguments: what `new` says.
    let carol_pub = key("carol.pub");
    let alice = key("alice");
    let new = |file: &str, extra: &[&str]| {
        let mut args = vec![
            "new",
            "chess",
            file,
            "--name",
            "alice",
            "--side",
            "white",
            "--opponent",
            "carol",
            "--opponent-key",
            &carol_pub,
            "--key",
            &alice,
            "--no-commit",
        ];
        args.extend(extra);
        transcript(
            correspond()
                .current_dir(dir)
                .env("CORRESPOND_TIME", "2026-03-01T12:00:00Z")
                .args(&args),
        )
    };
    assert_eq!(new("iccf.yaml", &["--time-control", "10/50"]).0, 0);
    assert_eq!(time_control("iccf.yaml").as_deref(), Some("10/4320000"));
    // Without a clock, none; and a tag cannot give a clock's terms, with a clock or without.
    assert_eq!(new("free.yaml", &[]).0, 0);
    assert_eq!(time_control("free.yaml"), None);
    let refused = "error: the tag TimeControl is the game's clock, which --time-control sets; \
                   PGN writes it from there\n";
    assert_eq!(
        new(
            "both.yaml",
            &["--time-control", "3/move", "--tag", "TimeControl=1/86400"]
        ),
        (2, String::new(), refused.to_owned())
    );
    assert_eq!(
        new("tagged.yaml", &["--tag", "TimeControl=1/86400"]),
        (
            2,
            String::new(),
            format!(
                "{refused}hint: give the game a clock with --time-control DAYS/move or \
                 MOVES/DAYS\n"
            )
        )
    );
}

/// `pgn`, then `import-pgn`, then `pgn` keeps the acceptance's comment (before the moves, which
/// is black's to sign again), a comment of the longest length a record holds, and the count of
/// half-moves; a `PlyCount` the moves do not make, and more tags than a header holds, are
/// refused with what cannot be kept, and nothing is written.
#[test]
fn a_round_trip_keeps_the_acceptances_comment_long_comments_and_the_ply_count() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let time = "2026-03-01T10:00:00Z";
    let bob = keys_dir().join("bob.pub");
    let new = [
        "new",
        "chess",
        "g.yaml",
        "--name",
        "alice",
        "--side",
        "white",
        "--opponent",
        "bob",
        "--opponent-key",
        bob.to_str().expect("UTF-8"),
    ];
    signed(dir, time, "alice", &new);
    signed(dir, time, "bob", &["accept", "g.yaml", "-m", "good luck"]);
    let long = "x".repeat(280);
    signed(dir, time, "alice", &["play", "g.yaml", "e4", "-m", &long]);
    signed(dir, time, "bob", &["play", "g.yaml", "e5"]);
    let pgn = run(dir, &["pgn", "g.yaml"]);
    assert!(pgn.contains("[PlyCount \"2\"]\n"), "{pgn}");
    assert!(
        pgn.contains("\n\n{bob (black): good luck} 1. e4 {alice (white):\n"),
        "{pgn}"
    );
    std::fs::write(dir.join("g.pgn"), &pgn).expect("write");
    let key = |who: &str| keys_dir().join(who).display().to_string();
    let import = |pgn: &str, file: &str| {
        transcript(
            correspond()
                .current_dir(dir)
                .env("CORRESPOND_TIME", "2026-03-01T12:00:00Z")
                .args(["import-pgn", pgn, file, "--white-key", &key("alice")])
                .args(["--black-key", &key("bob"), "--no-commit"]),
        )
    };
    assert_eq!(import("g.pgn", "again.yaml").0, 0);
    let again = run(dir, &["pgn", "again.yaml"]);
    let id = |text: &str| -> String {
        text.lines()
            .filter(|l| !l.starts_with("[GameId "))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    assert_eq!(id(&again), id(&pgn), "all but the new game's id");
    // A count the moves do not make.
    std::fs::write(
        dir.join("short.pgn"),
        pgn.replace("[PlyCount \"2\"]", "[PlyCount \"89\"]"),
    )
    .expect("write");
    assert_eq!(
        import("short.pgn", "short.yaml"),
        (
            1,
            String::new(),
            "error: short.pgn: the PlyCount tag says 89, but the game has 2 half-moves\n\
             hint: is the PGN cut short? nothing was written\n"
                .to_owned()
        )
    );
    // Thirty-four tags a header would keep (the PGN's Date, and 33 more): the last ones in the
    // PGN's order cannot be, unless --lossy leaves them out.
    let many: String = (1..=33).map(|i| format!("[Extra{i:02} \"x\"]\n")).collect();
    std::fs::write(
        dir.join("many.pgn"),
        pgn.replace("[Result \"*\"]\n", &format!("[Result \"*\"]\n{many}")),
    )
    .expect("write");
    assert_eq!(
        import("many.pgn", "many.yaml"),
        (
            1,
            String::new(),
            "error: many.pgn: game 1 cannot be imported as the PGN has it:\n  \
             line 39: the tag `Extra32` is left out: a header keeps at most 32 tags\n  \
             line 40: the tag `Extra33` is left out: a header keeps at most 32 tags\n\
             hint: `--lossy` imports it with these changes; nothing was written\n"
                .to_owned()
        )
    );
    assert!(!dir.join("short.yaml").exists() && !dir.join("many.yaml").exists());
    let (code, out, err) = transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_TIME", "2026-03-01T12:00:00Z")
            .args([
                "import-pgn",
                "many.pgn",
                "many.yaml",
                "--white-key",
                &key("alice"),
            ])
            .args(["--black-key", &key("bob"), "--no-commit", "--lossy"]),
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            "imported 2 moves into many.yaml: chess, alice (white) v bob (black)\n\
             alice (white) to move\n\
             changed, as --lossy allows:\n  \
             line 39: the tag `Extra32` is left out: a header keeps at most 32 tags\n  \
             line 40: the tag `Extra33` is left out: a header keeps at most 32 tags\n",
            ""
        )
    );
    let kept = run(dir, &["pgn", "many.yaml"]);
    assert!(
        kept.contains("[Extra31 \"x\"]\n") && !kept.contains("[Extra32 "),
        "{kept}"
    );
}
