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
    /// A move by the side to move, with the conditional lines it promises (`play --if`).
    PlayIf(&'static str, &'static [&'static str]),
    /// The same, the lines hidden (`play --if ... --hidden`).
    PlayHidden(&'static str, &'static [&'static str]),
}

struct Script {
    game: &'static str,
    name: &'static str,
    /// alice's side (she creates every game); bob takes the other, or `toss` leaves it to a flip.
    side: &'static str,
    /// Minutes after the Unix epoch at which the game is created; records follow a minute apart.
    day: u64,
    variants: &'static [&'static str],
    steps: &'static [Step],
}

/// alice creates every game against bob; in Campaign she plays Heads.
const SCRIPTS: &[Script] = &[
    Script {
        game: "campaign",
        side: "heads",
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
        game: "campaign",
        side: "heads",
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
        game: "campaign",
        side: "heads",
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
        game: "campaign",
        side: "heads",
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
        game: "campaign",
        side: "heads",
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
        game: "campaign",
        side: "heads",
        name: "resignation",
        day: 20_405,
        variants: &["spin-doctoring"],
        steps: &[
            Step::HeadsFirst,
            Step::Moves("c2c3 e6e5 c3c4 a6a5 b1e4 d7e6 c1c2 d6d5"),
            Step::By("bob", "resign", &[]),
        ],
    },
    Script {
        game: "guerrilla",
        side: "guerrilla",
        name: "all-checkers-captured",
        day: 20_410,
        variants: &[],
        steps: &[Step::Moves(
            "e4,d4 e6-f7 e3,d3 f7-e6 e5,f5 d3-c2 f4,g4 e6-f7 c4,b4 f7-e8 b3,c3 c2-d3 c2,d2 \
             e8-d7 d5,c5 d7-e6 e6,d6",
        )],
    },
    Script {
        game: "guerrilla",
        side: "toss",
        name: "board-cleared",
        day: 20_411,
        variants: &[],
        steps: &[Step::Moves("c5,b5 d5xc6xb5")],
    },
    Script {
        game: "guerrilla",
        side: "coin",
        name: "supply-exhausted",
        day: 20_412,
        variants: &[],
        steps: &[Step::Moves(
            "b4,c4 f5-g4 c5,b5 g4-h3 c6,c7 e4-f3 a5,a6 f3-e4 b6,b7 e6-f5 c3,c2 h3-g2 d2,e2 \
             f5-g4 d5,e5 c4-b3 d6,d7 g4-h5 b3,b2 g2-f3 f2,g2 h5-g4 b1,c1 e4-f5 a2,a1 f5-e4 \
             f5,f6 e4-f5 e4,e3 d5-e4 d1,e1 b3-a4 g6,g5 a4-b5 e7,f7 g4-h3 g1,f1 h3-g4 g4,g3 \
             e4-d5 a3,a4 d5-e4 d3,d4 \
             f3xe2xd1xc2xb1xa2xb3xa4xb5xa6xb7xc6xb5xc4xb3xc2xd3xc4xd5xe4xf3xg2xh3 f3,f2 h3-g2 \
             c3,c2 g2-h3 b6,b5 h3-g2 b4,a4 g2-h3 a3,b3 h3-g2 a5,a6 g2-h3 e3,e2 h3-g2 b2,b1 \
             g2-h3 d1,c1 h3-g2 d4,c4 g2-h3 a1,a2",
        )],
    },
    Script {
        game: "guerrilla",
        side: "toss",
        name: "anti-stall",
        day: 20_413,
        variants: &[],
        steps: &[Step::Moves(
            "b4,b5 f5-g4 b3,c3 e4-f5 c5,d5 d3-e4 a5,a6 e4-d3 d6,d7 g4-h5 b2,b1 d3-e4 c6,c7 \
             e4-f3 b6,b7 f3-g2 e6,f6 f5-g6 g6,g5 g2-f1 a3,a2 e6-f5 e5,e4 f1-e2 d3,d2 d5-e4 \
             f7,e7 e2-d1 e3,e2 d1-c2 f4,f3 c2-d3 g3,g2 e4-d5 d1,c1 d5-e4 e1,f1 c4-d5 d4,c4 \
             h5-g4",
        )],
    },
    Script {
        game: "insurrection",
        side: "white",
        name: "anarcho-syndicalist-mate",
        day: 20_420,
        variants: &[],
        steps: &[Step::Moves("d4 b5 Bg5 Nc6 Bxe7 Nxd4 exd8+ Kxd8 Qxd4#")],
    },
    Script {
        game: "insurrection",
        side: "toss",
        name: "stalemate",
        day: 20_421,
        variants: &[],
        steps: &[Step::Moves(
            "c4 h6 d4 a5 Bxh6 Rxh6 Qa4 e5 Qxd7+ Bxd7 dxe5 Qh4 g4 Qxh2 Rxh2 Bb4+ Nc3 Ba3 bxa3 \
             c6 Nb1 f6 exf6 b5 cxb5 Kd8 fxg7 Ne7 Bxe7 Na6 bxa6 Rxa6 h3 Nb8 g8=Q+ Kxe7 Qxb8 \
             Kf8 Nxd7 a4 Nxf8 c5 e3",
        )],
    },
    Script {
        game: "chess",
        side: "white",
        name: "threefold-repetition-claimed",
        day: 20_422,
        variants: &[],
        steps: &[
            Step::Moves("e4 e5 Nf3 Nc6 Ng1 Nb8 Nf3 Nc6 Ng1 Nb8"),
            Step::By("alice", "claim-draw", &["repetition"]),
        ],
    },
    Script {
        game: "chess",
        side: "white",
        name: "conditional-moves",
        day: 20_430,
        variants: &[],
        steps: &[
            // alice's lines: bob's e5 and Nc6 meet them, and her replies are played at once.
            Step::PlayIf("e4", &["e5 Nf3 Nc6 Bb5", "c5 Nf3 d6 d4"]),
            Step::Moves("e5 Nc6"),
            // bob's: alice's Ba4 meets one.
            Step::PlayIf("a6", &["Ba4 Nf6", "Bxc6 dxc6"]),
            Step::Moves("Ba4"),
            // alice's: bob's b5 is in none of them, and they are void.
            Step::PlayIf("O-O", &["Be7 Re1 b5 Bb3", "Nxe4 d4"]),
            Step::Moves("b5 Bb3"),
            // bob's: he withdraws them before alice moves.
            Step::PlayIf("Be7", &["Re1 d6"]),
            Step::By("bob", "withdraw", &[]),
            Step::Moves("Re1"),
            // bob's: alice's offer voids them, as any record but a move they expect.
            Step::PlayIf("d6", &["c3 O-O"]),
            Step::By("alice", "offer-draw", &[]),
            Step::Moves("c3 O-O"),
            Step::By("alice", "offer-draw", &[]),
            Step::By("bob", "accept-draw", &[]),
        ],
    },
    Script {
        game: "chess",
        side: "white",
        name: "hidden-conditional-moves",
        day: 20_431,
        variants: &[],
        steps: &[
            // alice's hidden lines: her own `play` reveals the replies to bob's e5, Nc6 and
            // a6, and discloses the lines before her move when his Nf6 meets none.
            Step::PlayHidden("e4", &["e5 Nf3 Nc6 Bb5 a6 Ba4 b5 Bb3", "c5 Nf3"]),
            Step::Moves("e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O"),
            // bob's: he withdraws them before alice moves.
            Step::PlayHidden("Be7", &["Re1 b5"]),
            Step::By("bob", "withdraw", &[]),
            Step::Moves("Re1 b5"),
            // alice's: bob's d6 meets her line, whose last reply c3 withdraws it.
            Step::PlayHidden("Bb3", &["d6 c3"]),
            Step::Moves("d6 c3 O-O"),
            // alice's: bob's offer voids them, as any record but a move.
            Step::PlayHidden("h3", &["Na5 Bc2"]),
            Step::By("bob", "offer-draw", &[]),
            Step::By("alice", "accept-draw", &[]),
        ],
    },
    Script {
        game: "insurrection",
        side: "black",
        name: "assassination-draw-agreed",
        day: 20_423,
        variants: &["assassination"],
        steps: &[
            Step::Moves("e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6"),
            Step::By("bob", "offer-draw", &[]),
            Step::By("alice", "accept-draw", &[]),
        ],
    },
];

/// The salt of an example game, pinned so that it is made the same each time: the digest of
/// its name, which looks as random as a real one.
fn salt(game: &str, name: &str) -> String {
    correspond::digest::Digest::of(format!("correspond example game: {game}/{name}").as_bytes())
        .to_string()
}

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
            .env("CORRESPOND_SALT", salt(script.game, script.name))
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
        script.game,
        path,
        "--name",
        "alice",
        "--side",
        script.side,
        "--opponent",
        "bob",
    ];
    new_args.extend(["--opponent-key", bob_pub.to_str().expect("UTF-8 path")]);
    for v in script.variants {
        new_args.extend(["--variant", v]);
    }
    run("alice", &new_args);
    run("bob", &["accept", path]);
    let toss = if script.game == "campaign" || script.side == "toss" {
        run("alice", &["reveal", path])
    } else {
        String::new()
    };
    // Whose turn it is: true for alice. In Campaign she plays Heads and moves first (see
    // HeadsFirst); in Guerrilla Checkers the Guerrilla moves first.
    let first = match script.game {
        "campaign" => "heads",
        "guerrilla" => "guerrilla",
        _ => "white",
    };
    let mut alice_turn = script.side == first || toss.contains(&format!("alice plays {first}"));
    for step in script.steps {
        match step {
            Step::HeadsFirst => {
                if toss.contains("bob (tails) wins the toss") {
                    run("bob", &["play", path, "--defer"]);
                }
            }
            Step::Moves(moves) => {
                for mv in moves.split_whitespace() {
                    let who = if alice_turn { "alice" } else { "bob" };
                    let said = run(who, &["play", path, mv]);
                    // A move that meets a conditional line brings its reply.
                    alice_turn ^= !said.contains("(conditional reply, appended by");
                }
            }
            Step::PlayIf(mv, lines) | Step::PlayHidden(mv, lines) => {
                let who = if alice_turn { "alice" } else { "bob" };
                let mut args = vec!["play", path, mv];
                for line in *lines {
                    args.extend(["--if", line]);
                }
                if matches!(step, Step::PlayHidden(..)) {
                    args.push("--hidden");
                }
                run(who, &args);
                alice_turn = !alice_turn;
            }
            Step::By(who, command, extra) => {
                let mut args = vec![*command, path];
                args.extend_from_slice(extra);
                run(who, &args);
            }
            Step::RunOff => {
                let (first, second) = if alice_turn {
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

/// The public-domain games of `games/chess/classics.pgn`, imported: (file name, game number).
const IMPORTS: &[(&str, usize)] = &[
    ("morphy-opera-game-1858", 1),
    ("anderssen-immortal-game-1851", 2),
    ("anderssen-evergreen-game-1852", 3),
    ("steinitz-von-bardeleben-1895", 4),
];

fn import(name: &str, index: usize, dir: &Path) -> Vec<u8> {
    let file = dir.join(format!("{name}.yaml"));
    let pgn = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/chess/classics.pgn");
    let out = correspond()
        .env("CORRESPOND_TIME", "2025-12-01T12:00:00Z")
        .env("CORRESPOND_SALT", salt("chess", name))
        .arg("import-pgn")
        .arg(&pgn)
        .arg(&file)
        .args(["--index", &index.to_string(), "--no-commit", "--white-key"])
        .arg(keys_dir().join("alice"))
        .arg("--black-key")
        .arg(keys_dir().join("bob"))
        .output()
        .expect("run correspond");
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(&file).expect("the game file")
}

#[test]
fn the_example_games_are_made_with_the_commands() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let update = std::env::var_os("CORRESPOND_UPDATE_GAMES").is_some();
    let made = SCRIPTS
        .iter()
        .map(|script| (script.game, script.name, play(script, dir.path())))
        .chain(
            IMPORTS
                .iter()
                .map(|(name, index)| ("chess", *name, import(name, *index, dir.path()))),
        );
    for (game, name, made) in made {
        let path = games.join(game).join(format!("{name}.yaml"));
        if update {
            std::fs::create_dir_all(games.join(game)).expect("games folder");
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
