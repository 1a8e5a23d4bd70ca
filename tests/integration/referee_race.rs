//! Pushes that race: alice, from two or four machines (each with its own signing journal), signs
//! different records at one place of a game and pushes them all at once, each to a branch of
//! its own. git runs their hooks side by side; the referee judges them one at a time, so in
//! every round exactly one lands and the others are refused against it.

use crate::referee::Server;
use crate::util::{correspond, git, keys_dir, transcript};

const MOVES: [&str; 4] = ["e4", "d4", "c4", "Nf3"];

#[test]
fn of_pushes_racing_to_sign_one_place_exactly_one_lands_every_round() {
    let server = Server::new();
    let rounds: Vec<usize> = [2; 6].into_iter().chain([4; 4]).collect();
    server.clock("2026-03-01T10:05:00Z");
    let bob = keys_dir().join("bob.pub");
    for round in 0..rounds.len() {
        let file = format!("g{round}.yaml");
        // Made at different times, the games differ (the salt of test games is pinned).
        let made = format!("2026-03-01T10:00:{round:02}Z");
        server.sign(
            "alice",
            &made,
            &[
                "new",
                "chess",
                &file,
                "--name",
                "alice",
                "--side",
                "white",
                "--opponent",
                "bob",
                "--opponent-key",
                bob.to_str().expect("UTF-8"),
            ],
        );
        let (code, _, err) = transcript(
            correspond()
                .current_dir(server.path("alice"))
                .env("CORRESPOND_TIME", "2026-03-01T10:01:00Z")
                .args(["accept", &file, "--key"])
                .arg(keys_dir().join("bob")),
        );
        assert_eq!((code, err.as_str()), (0, ""), "bob accepts {file}");
    }
    assert!(server.push("alice", &["-q", "origin", "main"]).landed);
    let url = format!("file://{}", server.path("server.git").display());
    for (round, pushers) in rounds.iter().enumerate() {
        let file = format!("g{round}.yaml");
        let mut machines = Vec::new();
        for (n, mv) in MOVES.iter().take(*pushers).enumerate() {
            let name = format!("r{round}-m{n}");
            git(&server.path("."), &["clone", "-q", &url, &name]);
            let clone = server.path(&name);
            git(&clone, &["config", "user.name", "Alice Liddell"]);
            git(&clone, &["config", "user.email", "alice@example.org"]);
            let (code, _, err) = transcript(
                correspond()
                    .current_dir(&clone)
                    .env("CORRESPOND_TIME", "2026-03-01T10:04:00Z")
                    .env(
                        "CORRESPOND_JOURNAL",
                        server.path(&format!("{name}.journal")),
                    )
                    .args(["play", &file, mv, "--key"])
                    .arg(keys_dir().join("alice")),
            );
            assert_eq!((code, err.as_str()), (0, ""), "{name} {mv}");
            machines.push(name);
        }
        // All at once.
        // Every other machine's server side runs as `git -c ... receive-pack`, as some servers
        // start it: the referee must know it for the push's process all the same.
        let racing: Vec<std::process::Child> = machines
            .iter()
            .enumerate()
            .map(|(n, name)| {
                let receive = if n % 2 == 1 {
                    "--receive-pack=git -c core.quotepath=off receive-pack"
                } else {
                    "--receive-pack=git-receive-pack"
                };
                std::process::Command::new("git")
                    .current_dir(server.path(name))
                    .env("GIT_CONFIG_NOSYSTEM", "1")
                    .env("GIT_CONFIG_GLOBAL", "/dev/null")
                    .args([
                        "push",
                        "-q",
                        receive,
                        "origin",
                        &format!("HEAD:refs/heads/{name}"),
                    ])
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .expect("git push")
            })
            .collect();
        let results: Vec<(bool, String)> = racing
            .into_iter()
            .map(|child| {
                let out = child.wait_with_output().expect("git push ends");
                (
                    out.status.success(),
                    String::from_utf8_lossy(&out.stderr).into_owned(),
                )
            })
            .collect();
        let landed: Vec<usize> = (0..results.len()).filter(|&i| results[i].0).collect();
        assert_eq!(landed.len(), 1, "round {round}: {results:#?}");
        let winner = &machines[landed[0]];
        assert!(
            results[landed[0]].1.contains(&format!(
                "remote: correspond referee: refs/heads/{winner}: {file}: record 2 taken; bob \
                 (black) to move"
            )),
            "{results:#?}"
        );
        for (i, (_, said)) in results.iter().enumerate().filter(|(i, _)| *i != landed[0]) {
            assert!(
                said.contains(&format!(
                    "remote: correspond referee: refused refs/heads/{}: {file}: {file} on \
                     refs/heads/{winner} holds another line of this game, which parts from \
                     this one at record 2 (line 25)",
                    machines[i]
                )),
                "round {round}: {said}"
            );
        }
        // The server holds one record 2 of the game, on the winner's branch alone.
        let branches = git(
            &server.path("server.git"),
            &["for-each-ref", "--format=%(refname:short)", "refs/heads/"],
        );
        let held: Vec<&str> = branches
            .lines()
            .filter(|b| b.starts_with(&format!("r{round}-")))
            .collect();
        assert_eq!(held, [winner.as_str()], "round {round}");
    }
    // Nothing is left holding the lock, and the index took every winner.
    let holder = server.path("server.git/correspond-referee/holder");
    assert_eq!(std::fs::read_to_string(holder).expect("read"), "");
    let (code, out, _) = transcript(correspond().current_dir(server.path(".")).args([
        "referee",
        "repair",
        "server.git",
    ]));
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            "checked 110 game files on 11 branches: all valid, each game one line; the index holds \
             10 games\n"
        )
    );
}
