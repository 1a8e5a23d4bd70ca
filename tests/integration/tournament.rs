//! The example tournament in `games/chess/club-championship-2026/` is made with the commands:
//! a director announces a five-player round robin, the players enter with their own keys, the lot is
//! drawn from every party's nonce, the players start their games, and the event runs to a
//! withdrawal, the director's decision on it, and an adjudication, some games still in play.
//! Played again here through the binary with the test keys and pinned times, it must come out
//! byte for byte the same, and its commands' transcripts, its check and its crosstable are
//! held whole. To rewrite the files after a deliberate change to the format:
//! `CORRESPOND_UPDATE_GAMES=1 cargo test --test integration tournament`.

use crate::util::{correspond, keys_dir, transcript};
use correspond::log::Timestamp;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The event's folder, in `games/chess/` and in a test's folder.
const FOLDER: &str = "club-championship-2026";

/// Runs the event's commands in a folder, a minute apart, and keeps their transcript.
pub(crate) struct Event {
    pub(crate) dir: PathBuf,
    minute: u64,
    pub(crate) transcript: String,
    /// More environment for every command (a pairing program's PATH).
    pub(crate) env: Vec<(String, std::ffi::OsString)>,
}

impl Event {
    pub(crate) fn new(dir: &Path) -> Event {
        Event {
            dir: dir.to_owned(),
            // 2026-03-02T09:00:00Z.
            minute: 29_541_600,
            transcript: String::new(),
            env: Vec::new(),
        }
    }

    /// `correspond ARGS --key tests/keys/WHO --no-commit`, which must succeed with nothing on
    /// standard error; its line of the transcript, and what it printed.
    pub(crate) fn by(&mut self, who: &str, args: &[&str]) -> String {
        self.minute += 1;
        let (code, out, err) = transcript(
            correspond()
                .envs(self.env.iter().map(|(k, v)| (k, v)))
                .current_dir(&self.dir)
                .env(
                    "CORRESPOND_TIME",
                    Timestamp::from_unix(self.minute * 60).as_str(),
                )
                .args(args)
                .arg("--key")
                .arg(keys_dir().join(who))
                .arg("--no-commit"),
        );
        assert_eq!((code, err.as_str()), (0, ""), "{who}: {args:?}");
        self.transcript.push_str(&format!(
            "$ correspond {} # {who}\n{out}",
            crate::util::shown_args(args)
        ));
        out
    }

    /// The event's game files, by their players' names (sorted), with White's name.
    pub(crate) fn games(&self) -> BTreeMap<(String, String), (String, String)> {
        let mut games = BTreeMap::new();
        for entry in std::fs::read_dir(self.dir.join(FOLDER)).expect("the event's folder") {
            let path = entry.expect("an entry").path();
            let name = path
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            if !name.starts_with("round-") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a game file");
            // `# correspond game file: chess, WHITE (white) v BLACK (black).`
            let first = text.lines().next().expect("a first line");
            let players = first
                .trim_start_matches("# correspond game file: chess, ")
                .trim_end_matches(" (black).");
            let (white, black) = players.split_once(" (white) v ").expect("two players");
            let mut pair = [white.to_owned(), black.to_owned()];
            pair.sort();
            let [a, b] = pair;
            games.insert((a, b), (format!("{FOLDER}/{name}"), white.to_owned()));
        }
        games
    }
}

/// The players, and the director.
pub(crate) const PLAYERS: [&str; 5] = ["alice", "bob", "carol", "erin", "frank"];
pub(crate) const DIRECTOR: &str = "gina";

/// A game's plan: its two players (in name order), the moves, then (who, command)s.
type Plan = (
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

/// How each pairing's game goes, by its players: the moves (White first), then what follows,
/// by colour (`white`, `black`) or by the director.
const PLAN: &[Plan] = &[
    ("alice", "bob", "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7", &[]),
    (
        "alice",
        "carol",
        "e2e4 e7e5",
        &[("white", "offer-draw"), ("black", "accept-draw")],
    ),
    ("alice", "erin", "d2d4 d7d5", &[("alice", "resign")]),
    ("alice", "frank", "e2e4 c7c5", &[("white", "resign")]),
    ("bob", "carol", "e2e4 e7e6 d2d4 d7d5", &[]),
    ("bob", "erin", "d2d4 g8f6", &[]),
    ("bob", "frank", "e2e4 e7e5 g1f3", &[("black", "resign")]),
    (
        "carol",
        "frank",
        "e2e4 e7e5 g1f3 b8c6",
        &[("gina", "adjudicate --winner white --reason abandoned")],
    ),
    ("erin", "frank", "c2c4", &[]),
];

/// Plays the example event in `event`'s folder, its rule for withdrawals `rule`, up to and
/// including the director's `decision` on erin's withdrawal.
pub(crate) fn play(event: &mut Event, rule: &str, decision: &str) {
    event.by(
        DIRECTOR,
        &[
            "tournament",
            "new",
            FOLDER,
            "--event",
            "Correspond Club Championship 2026",
            "--game",
            "chess",
            "--time-control",
            "10/50",
            "--leave",
            "30",
            "--withdrawals",
            rule,
            "--tag",
            "Site=correspond",
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
    for player in PLAYERS {
        event.by(player, &["tournament", "start", FOLDER]);
    }
    let games = event.games();
    assert_eq!(games.len(), 10, "{games:?}");
    for (a, b, moves, then) in PLAN {
        let (file, white) = games[&((*a).to_owned(), (*b).to_owned())].clone();
        let black = if white == *a { *b } else { *a };
        let white = white.as_str();
        event.by(black, &["accept", &file]);
        for (i, mv) in moves.split_whitespace().enumerate() {
            let who = if i % 2 == 0 { white } else { black };
            event.by(who, &["play", &file, mv]);
        }
        for (who, command) in *then {
            let who = match *who {
                "white" => white,
                "black" => black,
                other => other,
            };
            let mut args: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
            args.insert(1, file.clone());
            if let Some(w) = args.iter_mut().find(|a| *a == "white") {
                *w = white.to_owned();
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            event.by(who, &args);
        }
    }
    event.by("erin", &["tournament", "withdraw", FOLDER]);
    event.by(
        DIRECTOR,
        &[
            "tournament",
            "decide",
            FOLDER,
            "--player",
            "erin",
            "--decision",
            decision,
        ],
    );
}

/// Every file of the event's folder, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("the event's folder")
        .map(|e| {
            let path = e.expect("an entry").path();
            let name = path
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read(&path).expect("a file"))
        })
        .collect()
}

#[test]
fn the_example_tournament_is_made_with_the_commands() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut event = Event::new(dir.path());
    play(&mut event, "default", "default");
    let made = files(&dir.path().join(FOLDER));
    let kept_dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games/chess")
        .join(FOLDER);
    if std::env::var_os("CORRESPOND_UPDATE_GAMES").is_some() {
        let _ = std::fs::remove_dir_all(&kept_dir);
        std::fs::create_dir_all(&kept_dir).expect("the folder");
        for (name, bytes) in &made {
            std::fs::write(kept_dir.join(name), bytes).expect("write");
        }
    }
    let kept = files(&kept_dir);
    assert_eq!(
        made.keys().collect::<Vec<_>>(),
        kept.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &made {
        assert!(
            *bytes == kept[name],
            "games/{FOLDER}/{name} differs from what the commands make now"
        );
    }
    insta::assert_snapshot!("tournament_transcript", event.transcript);
}

/// The example event copied into `dir`, to change: its folder there.
fn copy_of_example(dir: &Path) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games/chess")
        .join(FOLDER);
    let to = dir.join(FOLDER);
    std::fs::create_dir_all(&to).expect("a folder");
    for (name, bytes) in files(&from) {
        std::fs::write(to.join(name), bytes).expect("a copy");
    }
    to
}

/// `correspond ARGS` in `dir`: (exit code, stdout, stderr).
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    transcript(correspond().current_dir(dir).args(args))
}

/// The event id of the example.
fn event_id() -> String {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("games/chess")
            .join(FOLDER)
            .join("tournament.yaml"),
    )
    .expect("the tournament file");
    let start = text.find("---\n").expect("a header");
    let end = text[start..].find("\n---\n").expect("a record") + start + 1;
    correspond::digest::Digest::of(&text.as_bytes()[start..end]).to_string()
}

/// `correspond new` of a game that names the example event's round 1, board 1 (bob v carol),
/// made by `creator` against `opponent` on `clock`, in `dir` as `file`.
fn claimed_game(dir: &Path, file: &str, creator: &str, opponent: &str, clock: &str, salt: &str) {
    let key = keys_dir().join(format!("{opponent}.pub"));
    let gina = keys_dir().join("gina.pub");
    let (code, _, err) = transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_TIME", "2026-03-04T10:00:00Z")
            .env("CORRESPOND_SALT", salt)
            .args(["new", "chess", file, "--name", creator, "--side", "white"])
            .args(["--opponent", opponent, "--opponent-key"])
            .arg(&key)
            .args([
                "--time-control",
                clock,
                "--leave",
                "30",
                "--arbiter",
                "gina",
            ])
            .arg("--arbiter-key")
            .arg(&gina)
            .args(["--tag", &format!("Tournament={}", event_id())])
            .args([
                "--tag",
                "Round=1",
                "--tag",
                "Board=1",
                "--tag",
                "Site=correspond",
            ])
            .args(["--tag", "Event=Correspond Club Championship 2026"])
            .arg("--key")
            .arg(keys_dir().join(creator))
            .arg("--no-commit"),
    );
    assert_eq!((code, err.as_str()), (0, ""));
}

#[test]
fn verify_checks_the_event_and_holds_each_game_to_its_pairing() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (code, out, err) = run_in(root, &["verify", "games/chess/club-championship-2026"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with("  ")).collect();
    insta::assert_snapshot!(lines.join("\n"), @r"
    games/chess/club-championship-2026/round-1-board-1.yaml: valid: chess, frank (white) v bob (black), 5 records: white wins: bob (black) resigned
    games/chess/club-championship-2026/round-1-board-2.yaml: valid: chess, carol (white) v erin (black), 0 records: in progress, waiting for erin (black) to accept the game
    games/chess/club-championship-2026/round-2-board-1.yaml: valid: chess, bob (white) v carol (black), 5 records: in progress, bob (white) to move
    games/chess/club-championship-2026/round-2-board-2.yaml: valid: chess, alice (white) v frank (black), 4 records: black wins: alice (white) resigned
    games/chess/club-championship-2026/round-3-board-1.yaml: valid: chess, carol (white) v alice (black), 5 records: draw: agreement
    games/chess/club-championship-2026/round-3-board-2.yaml: valid: chess, erin (white) v bob (black), 3 records: in progress, erin (white) to move
    games/chess/club-championship-2026/round-4-board-1.yaml: valid: chess, alice (white) v erin (black), 4 records: black wins: alice (white) resigned
    games/chess/club-championship-2026/round-4-board-2.yaml: valid: chess, frank (white) v carol (black), 6 records: white wins: adjudicated by the arbiter (the game was abandoned)
    games/chess/club-championship-2026/round-5-board-1.yaml: valid: chess, erin (white) v frank (black), 2 records: in progress, frank (black) to move
    games/chess/club-championship-2026/round-5-board-2.yaml: valid: chess, bob (white) v alice (black), 8 records: white wins: checkmate
    games/chess/club-championship-2026/tournament.yaml: valid: tournament Correspond Club Championship 2026: chess, round-robin, 5 players, directed by gina: 10 games: 6 finished, 3 defaulted, 1 in play
    11 files: 11 valid, 0 invalid
    ");

    // Round 1, board 1 is frank (white) v bob (black): bob makes a game of it as White.
    let dir = tempfile::tempdir().expect("temp dir");
    copy_of_example(dir.path());
    let mine = "club-championship-2026/mine.yaml";
    claimed_game(dir.path(), mine, "bob", "frank", "10/50", crate::util::SALT);
    let (code, out, err) = run_in(dir.path(), &["verify", FOLDER]);
    assert_eq!((code, err.as_str()), (1, ""));
    assert!(
        out.contains(
            "club-championship-2026/mine.yaml: INVALID: chess, bob (white) v frank (black), 0 \
             records: in progress, waiting for frank (black) to accept the game: it is not round \
             1, board 1 of the event: frank plays white there, but the game gives that seat to \
             bob (club-championship-2026/tournament.yaml)\n"
        ),
        "{out}"
    );
    assert!(out.ends_with("12 files: 11 valid, 1 invalid\n"), "{out}");

    // frank makes it on another clock: refused.
    std::fs::remove_file(dir.path().join(mine)).expect("removed");
    claimed_game(
        dir.path(),
        mine,
        "frank",
        "bob",
        "3/move",
        crate::util::SALT,
    );
    let (code, out, _) = run_in(dir.path(), &["verify", FOLDER]);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "it is not round 1, board 1 of the event: its clock is not the event's time control \
             and leave (club-championship-2026/tournament.yaml)\n"
        ),
        "{out}"
    );
    // A second game for the pairing, as the event fixes it, which bob never accepted: refused,
    // and the game bob accepted (and lost) stands.
    std::fs::remove_file(dir.path().join(mine)).expect("removed");
    let again = "club-championship-2026/again.yaml";
    claimed_game(
        dir.path(),
        again,
        "frank",
        "bob",
        "10/50",
        crate::util::SALT,
    );
    let (code, out, _) = run_in(dir.path(), &["verify", FOLDER]);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "club-championship-2026/again.yaml: INVALID: chess, frank (white) v bob (black), 0 \
             records: in progress, waiting for bob (black) to accept the game: round 1, board 1 \
             has another game here, which its Black player accepted: one pairing is one game, \
             and this one was never accepted (club-championship-2026/tournament.yaml)\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("club-championship-2026/round-1-board-1.yaml: valid: "),
        "{out}"
    );
    // bob accepts it too: both players signed two games for one pairing, and neither counts.
    let (code, _, err) = transcript(
        correspond()
            .current_dir(dir.path())
            .env("CORRESPOND_TIME", "2026-03-04T11:00:00Z")
            .args(["accept", again, "--no-commit", "--key"])
            .arg(keys_dir().join("bob")),
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let (code, out, _) = run_in(dir.path(), &["tournament", "standings", FOLDER]);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "round 1, board 1: frank (white) v bob (black): disputed: 2 games accepted for one \
             pairing (again.yaml, round-1-board-1.yaml)\n"
        ),
        "{out}"
    );
    assert_eq!(
        out.matches(
            ": round 1, board 1 has 2 games here that its Black player accepted: one pairing is \
             one game, so none of them counts\n"
        )
        .count(),
        2,
        "{out}"
    );
}

#[test]
fn the_commands_refuse_what_the_event_does_not_allow() {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_of_example(dir.path());
    let keys = keys_dir();
    let run = |who: &str, args: &[&str]| {
        transcript(
            correspond()
                .current_dir(dir.path())
                .env("CORRESPOND_TIME", "2026-03-10T10:00:00Z")
                .args(args)
                .arg("--key")
                .arg(keys.join(who))
                .arg("--no-commit"),
        )
    };
    let before = std::fs::read(dir.path().join(FOLDER).join("tournament.yaml")).expect("read");
    // A late entry; a reveal again; a player's decision.
    let henry = crate::util::keygen(dir.path(), "henry");
    assert_eq!(
        transcript(
            correspond()
                .current_dir(dir.path())
                .args([
                    "tournament",
                    "enter",
                    FOLDER,
                    "--name",
                    "henry",
                    "--no-commit",
                    "--key"
                ])
                .arg(&henry)
        ),
        (
            1,
            String::new(),
            "error: the entries closed before this record: nobody enters after the lot's \
             commitments are fixed\nhint: nothing was written\n"
                .to_owned()
        )
    );
    assert_eq!(
        run("alice", &["tournament", "reveal", FOLDER]).2,
        "error: alice revealed their nonce already\nhint: nothing was written\n"
    );
    assert_eq!(
        run(
            "alice",
            &[
                "tournament",
                "decide",
                FOLDER,
                "--player",
                "bob",
                "--decision",
                "cancel"
            ]
        ),
        (
            2,
            String::new(),
            format!(
                "error: only the director, gina, signs this; the key {} is not theirs\n\
                 hint: choose the director's key with --key PATH\n",
                fingerprint("alice")
            )
        )
    );
    // frank withdraws; the event's rule is `default`: no annulment.
    assert_eq!(run("frank", &["tournament", "withdraw", FOLDER]).0, 0);
    let (code, out, err) = run(
        "gina",
        &[
            "tournament",
            "decide",
            FOLDER,
            "--player",
            "frank",
            "--decision",
            "annul",
        ],
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            1,
            "",
            "error: the event's rule for withdrawals is `default`, which does not allow \
             `annul`\nhint: nothing was written\n"
        )
    );
    let after = std::fs::read(dir.path().join(FOLDER).join("tournament.yaml")).expect("read");
    assert!(after.starts_with(&before) && after.len() > before.len());
}

/// The SHA256 fingerprint of a test key, as ssh-keygen prints it.
fn fingerprint(who: &str) -> String {
    let key = std::fs::read_to_string(keys_dir().join(format!("{who}.pub"))).expect("a key");
    let key = ssh_key::PublicKey::from_openssh(&key).expect("a public key");
    correspond::sign::fingerprint(&key)
}

#[test]
fn an_annulment_under_half_takes_every_result_of_the_player_and_the_rule_decides() {
    // The example under `annul-under-half`: erin finished 1 of her 4 games, so gina annuls.
    let dir = tempfile::tempdir().expect("temp dir");
    let mut event = Event::new(dir.path());
    play(&mut event, "annul-under-half", "annul");
    let (code, out, err) = run_in(dir.path(), &["tournament", "standings", FOLDER]);
    assert_eq!((code, err.as_str()), (0, ""));
    let table: Vec<&str> = out.lines().skip(5).take(8).collect();
    // Without erin's results: alice beat frank (0 points) and bob (1), drew with carol (1½).
    insta::assert_snapshot!(table.join("\n"), @r"
    place  no  player  1  2  3  4  5  points  wins    SB  DE
        1   4  alice   a  1  1  ×  ½      2½     2  1.75   0
        2   5  carol   a  ·  1  ½  ×      1½     1  1.25   0
        3   2  bob     a  ×  1  0  ·       1     1     0   0
        4   3  frank   a  0  ×  0  0       0     0     0   0
        -   1  erin    ×  a  a  a  a       0     0     0   0
    1 ½ 0: won, drawn, lost; + -: won or lost by default; x: cancelled; a: annulled; ·: not finished; (lot): parted by the lot
    withdrawn: erin (record 13); the director decided annul (record 14)
    ");
    // frank withdraws with 3 of his 4 games finished: the rule calls for a default.
    let run = |who: &str, args: &[&str]| {
        transcript(
            correspond()
                .current_dir(dir.path())
                .env("CORRESPOND_TIME", "2026-03-10T10:00:00Z")
                .args(args)
                .arg("--key")
                .arg(keys_dir().join(who))
                .arg("--no-commit"),
        )
    };
    assert_eq!(run("frank", &["tournament", "withdraw", FOLDER]).0, 0);
    let decide = |decision: &str| {
        run(
            "gina",
            &[
                "tournament",
                "decide",
                FOLDER,
                "--player",
                "frank",
                "--decision",
                decision,
            ],
        )
    };
    assert_eq!(
        decide("annul"),
        (
            1,
            String::new(),
            "error: not signed: 3 of the 4 games of frank are finished, so the event's rule, \
             annul-under-half, calls for `default`, not `annul`\n\
             hint: `correspond tournament standings` shows which of their games are finished\n"
                .to_owned()
        )
    );
    assert_eq!(decide("default").0, 0);
}

#[test]
fn standings_json_and_the_tournament_file_are_held_to_their_schemas() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let header = crate::schema::schema("header.schema.json");
    let build = |name: &str| {
        jsonschema::options()
            .with_retriever(crate::schema::Local(header.clone()))
            .build(&crate::schema::schema(name))
            .expect("a valid schema")
    };
    let standings = build("tournament-standings.schema.json");
    let (code, out, _) = run_in(
        root,
        &[
            "tournament",
            "standings",
            "games/chess/club-championship-2026",
            "--json",
        ],
    );
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let errors: Vec<String> = standings
        .iter_errors(&value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(value["players"][0]["name"], "frank");
    assert_eq!(value["players"][0]["tie_breaks"][1]["value"], 5.0);
    assert_eq!(value["players"][2]["tie_breaks"][1]["value"], 1.25);
    let documents = holds_to_the_tournament_schema(
        &root
            .join("games/chess")
            .join(FOLDER)
            .join("tournament.yaml"),
    );
    assert_eq!(documents, 15);
}

/// Holds every document of the tournament file at `path` to
/// schemas/tournament-file.schema.json, and each changed to what the format forbids to its
/// refusal: how many documents it holds.
pub(crate) fn holds_to_the_tournament_schema(path: &Path) -> usize {
    let header = crate::schema::schema("header.schema.json");
    let file = jsonschema::options()
        .with_retriever(crate::schema::Local(header))
        .build(&crate::schema::schema("tournament-file.schema.json"))
        .expect("a valid schema");
    let text = std::fs::read_to_string(path).expect("read");
    let start = text.find("---\n").expect("a header");
    let mut documents = 0;
    for doc in text[start..].split("---\n").filter(|d| !d.is_empty()) {
        let value: serde_json::Value = serde_saphyr::from_str(doc).expect("YAML");
        let errors: Vec<String> = file.iter_errors(&value).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{doc}: {errors:?}");
        documents += 1;
        // What the format forbids, the schema refuses.
        let mut bad = value.clone();
        if bad.get("kind").is_some() {
            bad["kind"] = "move".into();
        } else {
            bad["game"] = "campaign".into();
        }
        assert!(!file.is_valid(&bad), "{bad}");
        if bad.get("kind").is_some_and(|k| k == "pair")
            || value.get("kind").is_some_and(|k| k == "pair")
        {
            let mut bad = value.clone();
            bad["games"] = serde_json::json!([[1, 2, 3]]);
            assert!(!file.is_valid(&bad), "{bad}");
        }
    }
    documents
}

#[test]
fn the_report_file_is_read_by_another_reader() {
    let python = std::env::var("CORRESPOND_TRF_PYTHON").unwrap_or_else(|_| "python3".into());
    if !crate::util::tool_present(
        &python,
        &["-c", "import trf"],
        "the TRF test needs PyPI's trf (pip install trf==1.1.1)",
    ) {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (code, trf, err) = run_in(
        root,
        &["tournament", "trf", "games/chess/club-championship-2026"],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("event.trf");
    std::fs::write(&file, &trf).expect("write");
    let out = std::process::Command::new(&python)
        .arg(root.join("tests/trf/read.py"))
        .arg(&file)
        .output()
        .expect("python");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(read["name"], "Correspond Club Championship 2026");
    // Each player as the crosstable has them: number, name, points, place, and every round's
    // opponent, colour and result (the reader drops a last round without a game).
    let (_, json, _) = run_in(
        root,
        &[
            "tournament",
            "standings",
            "games/chess/club-championship-2026",
            "--json",
        ],
    );
    let standings: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let mut players = read["players"].as_array().expect("players").clone();
    players.sort_by_key(|p| p["rank"].as_u64());
    for (p, s) in players
        .iter()
        .zip(standings["players"].as_array().expect("players"))
    {
        assert_eq!(p["rank_start"], s["number"]);
        assert_eq!(p["name"], s["name"]);
        assert_eq!(p["points"], s["points"]);
        assert_eq!(p["rank"], s["place"]);
    }
    let rounds: Vec<String> = players
        .iter()
        .map(|p| {
            let rounds: Vec<String> = p["rounds"]
                .as_array()
                .expect("rounds")
                .iter()
                .map(|r| {
                    format!(
                        "{} {}{}",
                        r[0],
                        r[1].as_str().unwrap_or("?"),
                        r[2].as_str().unwrap_or("?")
                    )
                })
                .collect();
            format!(
                "{}: {}",
                p["name"].as_str().unwrap_or("?"),
                rounds.join(", ")
            )
        })
        .collect();
    insta::assert_snapshot!(rounds.join("\n"), @r"
    frank: 5 w1, 1 b1, 0 - , 3 w1, 4 b+
    bob: 2 b0, 3 w , 4 b+, 0 - , 1 w1
    carol: 4 w+, 5 b , 1 w=, 2 b0
    erin: 3 b-, 0 - , 5 w-, 1 b1, 2 w-
    alice: 0 - , 2 w0, 3 b=, 4 w0, 5 b0
    ");
}

#[test]
fn the_site_gives_the_event_a_page_that_a_browser_shows() {
    let Some(browser) = crate::browser::chromium() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    let site = dir.path().join("site");
    let (code, out, err) = transcript(
        correspond()
            .current_dir(root)
            .args(["site", "games/chess/club-championship-2026", "-o"])
            .arg(&site),
    );
    assert_eq!(
        (
            code,
            out.replace(&site.display().to_string(), "SITE"),
            err.as_str()
        ),
        (
            0,
            "wrote index.html, 10 game pages and 1 tournament page into SITE\n".to_owned(),
            ""
        )
    );
    let page = site.join("games-chess-club-championship-2026-tournament.html");
    let (dom, log) = crate::browser::run(
        &browser,
        &dir.path().join("profile"),
        &["--dump-dom"],
        &format!("file://{}", page.display()),
    );
    assert!(!log.contains("Uncaught"), "{log}");
    // The crosstable's rows, as the browser holds them: each cell's text.
    let rows: Vec<String> = dom
        .split("<tr>")
        .skip(2)
        .take(5)
        .map(|row| {
            row.split("</td>")
                .map(|cell| {
                    cell.rsplit('>')
                        .next()
                        .unwrap_or_default()
                        .trim()
                        .to_owned()
                })
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    insta::assert_snapshot!(rows.join("\n"), @r"
    1 2 frank 1 × 1 + 1 4 4 5 0
    2 5 bob 1 0 · + × 2 2 1.5 0
    3 3 carol ½ 0 × + · 1½ 1 1.25 0
    4 4 erin 1 - - × - 1 1 0.5 0
    5 1 alice × 0 ½ 0 0 ½ 0 0.75 0
    ");
    // Every link of the page leads to a page of the site.
    for link in dom
        .split("href=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap_or(0)])
    {
        assert!(site.join(link).is_file(), "{link}");
    }
}
