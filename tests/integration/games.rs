//! The example games in `games/` are made with the commands. Each one is played again here,
//! through the binary, with the test keys in `tests/keys` and pinned times, and must come out
//! byte for byte the same. To rewrite them after a deliberate change to the format:
//! `CORRESPOND_UPDATE_GAMES=1 cargo test --test integration games`.

use crate::util::{correspond, keys_dir};
use correspond::log::Timestamp;
use std::path::Path;

/// One step of a game's script.
enum Step {
    /// Heads to move first: the toss winner moves first if it is Heads, defers if it is Tails.
    HeadsFirst,
    /// Moves, played alternately by the side to move.
    Moves(&'static str),
    /// A command signed by one player: (player, command, extra arguments).
    By(&'static str, &'static str, &'static [&'static str]),
    /// The three steps of a Run-Off coin flip, starting with the side to move.
    RunOff,
}

struct Script {
    name: &'static str,
    /// Minutes after the Unix epoch at which the game is created; records follow a minute apart.
    day: u64,
    variants: &'static [&'static str],
    steps: &'static [Step],
}

/// Heads is alice, Tails is bob, in every game.
const SCRIPTS: &[Script] = &[
    Script {
        name: "fact-check",
        day: 20_400,
        variants: &["spin-doctoring"],
        steps: &[
            Step::HeadsFirst,
            Step::Moves(
                "b2b3 b6b5 d2d3 c7b6 a2a3 e6e5 a3a4 b6c5 c2c3 c5b6 b1c2 e5e4 a4a5 b6c5 c1a1 \
                 e7e6 b1b2 c5d5 c3c4 b5c4 b3c4 d5d4 e2e3 d4c3 b2b3 c3d2 b3b7 d2c1s b7b1 c1a3",
            ),
        ],
    },
    Script {
        name: "run-off-bare-candidates",
        day: 20_401,
        variants: &["playing-for-keeps", "spin-doctoring"],
        steps: &[
            Step::HeadsFirst,
            Step::Moves(
                "c2c3 e6e5 c3c4 a6a5 b1e4 d7e6 c1c2 d6d5 a1c1 c7e7 c1a1 d5c4 d2d3 a5a4 c2c1 \
                 b6b5 d1a4 d7d3 b2b3 d3d7 a4b5 e7d6 e1d1 d6c7 b3c4 e6c4 b5c6 a7a5 c1c2 a5d5 \
                 a1b1 c4d3 c2d2 d3c2 d2e1 c2b1 d1d5 b7c6 d5d7 c7d7 e4c6 d7d6 c6e4 b1c2 e4c6 \
                 d6c6 e1d2 c6c7 d2e3 c2d1 e3e4 d1e2 e4e5 e2d1 e5e4 c7b6 e4d5 b6a5 d5d6 a5b6 \
                 d6d7s d1b3 d7d2 b6b5 a2a3 b3c4 d2e1 c4b3 e1e2 b5a4 e2e7 b3a2 e7b7 a4a3 b7a6 \
                 a3b4 a6a2",
            ),
            Step::RunOff,
        ],
    },
    Script {
        name: "run-off-stalemate",
        day: 20_402,
        variants: &["spin-doctoring"],
        steps: &[
            Step::HeadsFirst,
            Step::Moves(
                "c2c3 b6b5 b1d3 a6a5 d3b5 a7a6 b5a4 e6e5 c1a1 d7e6 d1b3 c7e7 a2a3 e6b3 e1c1 \
                 b3d1 c1c2 a6b6 a4b5 d1c2 c3c4 d7c7 d2d3 b6b5 a1a2 c2b1 a2a1 b5b2 e2e3 c6c5 \
                 e3e4 b2b6 a3a4 b7e4 d3e4 c7a7",
            ),
            Step::RunOff,
        ],
    },
    Script {
        name: "run-off-claim",
        day: 20_403,
        variants: &["spin-doctoring"],
        steps: &[
            Step::HeadsFirst,
            Step::Moves("c2c3 c6c5 d1c2 d7c6 c2d1 c6d7 d1c2 d7c6 c2d1 c6d7"),
            Step::By("alice", "claim-runoff", &["repetition"]),
            Step::RunOff,
        ],
    },
    Script {
        name: "run-off-agreement",
        day: 20_404,
        variants: &[],
        steps: &[
            Step::HeadsFirst,
            Step::Moves("b2b3 b6b5 d2d3 c7b6"),
            Step::By("alice", "offer-runoff", &[]),
            Step::Moves("a2a3 e6e5"),
            Step::By("bob", "offer-runoff", &[]),
            Step::By("alice", "accept-runoff", &[]),
            Step::RunOff,
        ],
    },
    Script {
        name: "resignation",
        day: 20_405,
        variants: &["spin-doctoring"],
        steps: &[
            Step::HeadsFirst,
            Step::Moves("c2c3 e6e5 c3c4 a6a5 b1e4 d7e6 c1c2 d6d5"),
            Step::By("bob", "resign", &[]),
        ],
    },
];

/// Plays a script in `dir` and returns the game file's bytes.
fn play(script: &Script, dir: &Path) -> Vec<u8> {
    let file = dir.join(format!("{}.yaml", script.name));
    let keys = keys_dir();
    let mut minute = script.day * 24 * 60 + 9 * 60;
    let mut run = |who: &str, args: &[&str]| -> String {
        minute += 1;
        let out = correspond()
            .env(
                "CORRESPOND_TIME",
                Timestamp::from_unix(minute * 60).as_str(),
            )
            .args(args)
            .arg("--key")
            .arg(keys.join(who))
            .arg("--no-commit")
            .output()
            .expect("run correspond");
        assert!(
            out.status.success(),
            "{}: {who}: {args:?}: {}",
            script.name,
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let path = file.to_str().expect("UTF-8 path");
    let bob_pub = keys.join("bob.pub");
    let mut new_args = vec![
        "new",
        "campaign",
        path,
        "--name",
        "alice",
        "--side",
        "heads",
        "--opponent",
        "bob",
    ];
    new_args.extend(["--opponent-key", bob_pub.to_str().expect("UTF-8 path")]);
    for v in script.variants {
        new_args.extend(["--variant", v]);
    }
    run("alice", &new_args);
    run("bob", &["accept", path]);
    let toss = run("alice", &["reveal", path]);
    // Whose turn it is: true for Heads (alice).
    let mut heads_turn = true;
    for step in script.steps {
        match step {
            Step::HeadsFirst => {
                if toss.contains("bob (tails) wins the toss") {
                    run("bob", &["play", path, "--defer"]);
                }
            }
            Step::Moves(moves) => {
                for mv in moves.split_whitespace() {
                    let who = if heads_turn { "alice" } else { "bob" };
                    run(who, &["play", path, mv]);
                    heads_turn = !heads_turn;
                }
            }
            Step::By(who, command, extra) => {
                let mut args = vec![*command, path];
                args.extend_from_slice(extra);
                run(who, &args);
            }
            Step::RunOff => {
                let (first, second) = if heads_turn {
                    ("alice", "bob")
                } else {
                    ("bob", "alice")
                };
                run(first, &["flip", path]);
                run(second, &["flip", path]);
                run(first, &["reveal", path]);
            }
        }
    }
    std::fs::read(&file).expect("the game file")
}

#[test]
fn the_example_games_are_made_with_the_commands() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/campaign");
    let update = std::env::var_os("CORRESPOND_UPDATE_GAMES").is_some();
    for script in SCRIPTS {
        let made = play(script, dir.path());
        let path = games.join(format!("{}.yaml", script.name));
        if update {
            std::fs::create_dir_all(&games).expect("games folder");
            std::fs::write(&path, &made).expect("write game");
            continue;
        }
        let kept = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            made == kept,
            "{} differs from what its script makes now",
            path.display()
        );
    }
}
