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
}

impl Event {
    pub(crate) fn new(dir: &Path) -> Event {
        Event {
            dir: dir.to_owned(),
            // 2026-03-02T09:00:00Z.
            minute: 29_541_600,
            transcript: String::new(),
        }
    }

    /// `correspond ARGS --key tests/keys/WHO --no-commit`, which must succeed with nothing on
    /// standard error; its line of the transcript, and what it printed.
    pub(crate) fn by(&mut self, who: &str, args: &[&str]) -> String {
        self.minute += 1;
        let (code, out, err) = transcript(
            correspond()
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
        let shown: Vec<String> = args
            .iter()
            .map(|a| {
                if a.contains(' ') {
                    format!("'{a}'")
                } else {
                    (*a).to_owned()
                }
            })
            .collect();
        self.transcript
            .push_str(&format!("$ correspond {} # {who}\n{out}", shown.join(" ")));
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

/// Plays the example event in `dir` (its folder `tournament/`), up to and including the
/// director's decision on erin's withdrawal.
pub(crate) fn play(event: &mut Event) {
    let keys = keys_dir();
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
            "annul-under-half",
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
    let _ = keys;
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
            "default",
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
    play(&mut event);
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
