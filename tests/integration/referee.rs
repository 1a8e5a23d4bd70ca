//! The referee through real git: a bare repository with the hook `correspond referee install`
//! writes, and two players' clones pushing over `file://`. Valid pushes land; each kind of bad
//! push is refused with the lines git shows the player, and leaves the server as it was.

use crate::util::{correspond, git, keys_dir, ssh_sign, transcript};
use correspond::log::{Action, GameFile, Record, Timestamp, record_unsigned};
use std::path::PathBuf;

/// A bare repository with the referee, its clock pinned, and alice's and bob's clones.
pub(crate) struct Server {
    dir: tempfile::TempDir,
    /// The time the referee's clock is pinned to.
    now: std::cell::RefCell<String>,
}

/// What git's push said: whether it landed, and the hook's `remote:` lines.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Pushed {
    pub(crate) landed: bool,
    pub(crate) remote: Vec<String>,
}

impl Server {
    pub(crate) fn new() -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        git(
            dir.path(),
            &["init", "-q", "--bare", "-b", "main", "server.git"],
        );
        let (code, out, err) = transcript(correspond().current_dir(dir.path()).args([
            "referee",
            "install",
            "server.git",
        ]));
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (
                0,
                "installed the referee as the pre-receive and reference-transaction hooks of \
                 server.git: pushes that break a game's rules are refused, one at a time, and \
                 records must be dated within 10 minutes of this server's clock\nchecked 0 game \
                 files on 0 branches: all valid, each game one line; the index holds 0 games\n",
                ""
            )
        );
        for (who, name) in [("alice", "Alice Liddell"), ("bob", "Bob Cratchit")] {
            let url = format!("file://{}", dir.path().join("server.git").display());
            git(dir.path(), &["clone", "-q", &url, who]);
            let clone = dir.path().join(who);
            git(&clone, &["config", "user.name", name]);
            git(
                &clone,
                &["config", "user.email", &format!("{who}@example.org")],
            );
            git(&clone, &["checkout", "-q", "-b", "main"]);
        }
        Server {
            dir,
            now: std::cell::RefCell::default(),
        }
    }

    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Pins the referee's clock, as a test may (and a player cannot).
    pub(crate) fn clock(&self, time: &str) {
        self.now.replace(time.to_owned());
        git(
            &self.path("server.git"),
            &["config", "correspond.refereeTime", time],
        );
    }

    /// `who` signs in their clone at `time` (the command commits).
    pub(crate) fn sign(&self, who: &str, time: &str, args: &[&str]) {
        let (code, _, err) = transcript(
            correspond()
                .current_dir(self.path(who))
                .env("CORRESPOND_TIME", time)
                .args(args)
                .arg("--key")
                .arg(keys_dir().join(who)),
        );
        assert_eq!((code, err.as_str()), (0, ""), "{who} {args:?}");
    }

    pub(crate) fn git(&self, who: &str, args: &[&str]) -> String {
        git(&self.path(who), args)
    }

    /// `who` pushes with `args` after `git push`.
    pub(crate) fn push(&self, who: &str, args: &[&str]) -> Pushed {
        let args: Vec<&[u8]> = args.iter().map(|a| a.as_bytes()).collect();
        self.push_bytes(who, &args)
    }

    /// `who` pushes with `args` after `git push`, which may not be UTF-8 (a branch's name).
    pub(crate) fn push_bytes(&self, who: &str, args: &[&[u8]]) -> Pushed {
        use std::os::unix::ffi::OsStrExt as _;
        let out = std::process::Command::new("git")
            .current_dir(self.path(who))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .arg("push")
            .args(args.iter().map(|a| std::ffi::OsStr::from_bytes(a)))
            .output()
            .expect("run git");
        let remote = String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter_map(|l| l.strip_prefix("remote: "))
            .map(|l| l.trim_end().to_owned())
            .collect();
        Pushed {
            landed: out.status.success(),
            remote,
        }
    }

    /// Everything the server holds: its references and its objects.
    pub(crate) fn state(&self) -> String {
        let server = self.path("server.git");
        git(&server, &["for-each-ref"])
            + &git(
                &server,
                &["cat-file", "--batch-all-objects", "--batch-check"],
            )
    }

    /// alice creates a chess game at 10:00 (she plays White) with `terms` (more arguments
    /// for `new`), bob accepts at 10:05 and alice plays e4 at 10:09, each pushing at once.
    pub(crate) fn opening(&self, terms: &[&str]) {
        self.clock("2026-03-01T10:00:00Z");
        let bob = keys_dir().join("bob.pub");
        let mut new = vec![
            "new",
            "chess",
            "game.yaml",
            "--name",
            "alice",
            "--side",
            "white",
            "--opponent",
            "bob",
            "--opponent-key",
            bob.to_str().expect("UTF-8"),
        ];
        new.extend(terms);
        self.sign("alice", "2026-03-01T10:00:00Z", &new);
        assert_eq!(
            self.push("alice", &["-q", "-u", "origin", "main"]),
            self.landed(&[
                "refs/heads/main: game.yaml: a new game, verified; waiting for bob (black) to accept \
                 the game",
            ])
        );
        self.clock("2026-03-01T10:06:00Z");
        self.git("bob", &["pull", "-q", "origin", "main"]);
        self.git("bob", &["branch", "-q", "--set-upstream-to", "origin/main"]);
        self.sign("bob", "2026-03-01T10:05:00Z", &["accept", "game.yaml"]);
        assert_eq!(
            self.push("bob", &["-q"]),
            self.landed(&["refs/heads/main: game.yaml: record 1 taken; alice (white) to move"])
        );
        self.clock("2026-03-01T10:10:00Z");
        self.git("alice", &["pull", "-q"]);
        self.sign(
            "alice",
            "2026-03-01T10:09:00Z",
            &["play", "game.yaml", "e4"],
        );
        assert_eq!(
            self.push("alice", &["-q"]),
            self.landed(&["refs/heads/main: game.yaml: record 2 taken; bob (black) to move"])
        );
        self.git("bob", &["pull", "-q"]);
    }

    /// A record of bob's for the game in his clone, `action` at `time`, signed by `key`'s
    /// holder with OpenSSH (not by this program, which would refuse to sign it), and committed.
    pub(crate) fn forge(&self, key: &str, action: Action, time: &str) {
        let path = self.path("bob").join("game.yaml");
        let bytes = std::fs::read(&path).expect("the game");
        let file = GameFile::parse(&bytes).expect("well-formed");
        let record = Record {
            seq: file.documents() as u64,
            prev: file.digest(file.documents() - 1),
            signer: "bob".into(),
            action,
            time: Timestamp::parse(time).expect("a time"),
            comment: None,
        };
        let unsigned = record_unsigned(&record);
        let signature = ssh_sign(self.dir.path(), key, &unsigned);
        let grown = [
            bytes,
            format!("{unsigned}signature: {signature}\n").into_bytes(),
        ]
        .concat();
        std::fs::write(&path, grown).expect("write");
        self.git("bob", &["commit", "-q", "-am", "a record made by hand"]);
    }
}

impl Server {
    /// A push that landed: the hook's lines, after its note of the pinned clock.
    pub(crate) fn landed(&self, lines: &[&str]) -> Pushed {
        self.said(true, lines)
    }

    /// A push refused: the hook's lines, and its last.
    pub(crate) fn refused(&self, lines: &[&str]) -> Pushed {
        self.said(false, lines)
    }

    pub(crate) fn said(&self, landed: bool, lines: &[&str]) -> Pushed {
        let mut remote = vec![format!(
            "correspond referee: the clock is pinned to {} by correspond.refereeTime, which is \
             for tests only",
            self.now.borrow()
        )];
        remote.extend(lines.iter().map(|l| format!("correspond referee: {l}")));
        if !landed {
            let n = lines.iter().filter(|l| l.starts_with("refused")).count();
            remote.push(format!(
                "correspond referee: push refused ({n} {}); nothing was changed",
                if n == 1 { "problem" } else { "problems" }
            ));
        }
        Pushed { landed, remote }
    }
}

#[test]
fn valid_pushes_land_and_each_bad_push_is_refused_and_changes_nothing() {
    let server = Server::new();
    server.opening(&[]);
    server.clock("2026-03-01T10:20:00Z");
    type Forged<'a> = (&'a str, &'a dyn Fn(&Server), Vec<&'a str>);
    let refusals: [Forged<'_>; 4] = [
        (
            "an illegal move",
            &|s: &Server| s.forge("bob", Action::Move("e7e4".into()), "2026-03-01T10:19:00Z"),
            vec![
                "refused refs/heads/main: game.yaml: record 3 (line 33): illegal move e7e4: a \
                 pawn on e7 cannot move to e4",
            ],
        ),
        (
            "a record signed with another key",
            &|s: &Server| s.forge("carol", Action::Move("e7e5".into()), "2026-03-01T10:19:00Z"),
            vec![
                "refused refs/heads/main: game.yaml: record 3 (line 33): bad signature: made \
                 with the key SHA256:0LfYJQ9mKakoqO6Wwop8fxBWNHS1ZPaQVYyH6YnC/PQ, which is not \
                 bob's",
            ],
        ),
        (
            "a backdated record",
            &|s: &Server| s.forge("bob", Action::Move("e7e5".into()), "2026-03-01T10:09:30Z"),
            vec![
                "refused refs/heads/main: game.yaml: record 3 (line 33): dated \
                 2026-03-01T10:09:30Z, 11 minutes behind the referee's clock \
                 (2026-03-01T10:20:00Z); a document pushed here must be dated within 10 \
                 minutes of it",
            ],
        ),
        (
            "a record dated in the future",
            &|s: &Server| s.forge("bob", Action::Move("e7e5".into()), "2026-03-01T11:00:00Z"),
            vec![
                "refused refs/heads/main: game.yaml: record 3 (line 33): dated \
                 2026-03-01T11:00:00Z, 40 minutes ahead of the referee's clock \
                 (2026-03-01T10:20:00Z); a document pushed here must be dated within 10 \
                 minutes of it",
            ],
        ),
    ];
    for (what, forge, lines) in refusals {
        let before = server.state();
        forge(&server);
        assert_eq!(
            server.push("bob", &["-q"]),
            server.refused(&lines),
            "{what}"
        );
        assert_eq!(server.state(), before, "{what}: the server is as it was");
        server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    }
    // After all that, bob's real move lands.
    server.sign("bob", "2026-03-01T10:19:00Z", &["play", "game.yaml", "e5"]);
    assert_eq!(
        server.push("bob", &["-q"]),
        server.landed(&["refs/heads/main: game.yaml: record 3 taken; alice (white) to move"])
    );
}

#[test]
fn no_game_is_rewritten_deleted_moved_or_forced_away() {
    let server = Server::new();
    server.opening(&[]);
    server.clock("2026-03-01T10:15:00Z");
    let game = server.path("alice").join("game.yaml");
    let text = std::fs::read_to_string(&game).expect("the game");
    let rewritten = text.replace(
        "time: \"2026-03-01T10:09:00Z\"",
        "time: \"2026-03-01T10:08:00Z\"",
    );
    assert_ne!(rewritten, text);
    type Push = (
        &'static str,
        Box<dyn Fn(&Server)>,
        Vec<String>,
        Vec<&'static str>,
    );
    let rewrite = rewritten.clone();
    let cases: Vec<Push> = vec![
        (
            "a record rewritten",
            Box::new(move |s: &Server| {
                std::fs::write(s.path("alice").join("game.yaml"), &rewrite).expect("write");
                s.git("alice", &["commit", "-q", "-am", "e4 a minute earlier"]);
            }),
            // Line 31 is record 2's time, the line changed.
            vec![
                "refused refs/heads/main: game.yaml: this push rewrites the game: record 2 \
                 (line 31): this document was changed; a later version may only append records"
                    .to_owned(),
            ],
            vec!["-q"],
        ),
        (
            "a rewrite undone by the next commit",
            Box::new(move |s: &Server| {
                std::fs::write(s.path("alice").join("game.yaml"), &rewritten).expect("write");
                s.git("alice", &["commit", "-q", "-am", "e4 a minute earlier"]);
                s.git("alice", &["revert", "--no-edit", "HEAD"]);
            }),
            vec!["COMMIT".to_owned()],
            vec!["-q"],
        ),
        (
            "the game deleted",
            Box::new(|s: &Server| {
                s.git("alice", &["rm", "-q", "game.yaml"]);
                s.git("alice", &["commit", "-q", "-m", "tidy up"]);
            }),
            vec![
                "refused refs/heads/main: game.yaml: the game file is deleted; a referee keeps \
                 every game file where it is (never deleted, moved or renamed)"
                    .to_owned(),
            ],
            vec!["-q"],
        ),
        (
            "a force-push taking e4 back",
            Box::new(|s: &Server| {
                s.git("alice", &["reset", "-q", "--hard", "HEAD~1"]);
            }),
            vec![
                "refused refs/heads/main: this is a force-push to a branch that holds 1 game \
                 file, which could take records away; put your commits on top of the branch \
                 (git pull) and push again"
                    .to_owned(),
            ],
            vec!["-q", "--force"],
        ),
    ];
    for (what, change, lines, push) in cases {
        let before = server.state();
        change(&server);
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let pushed = server.push("alice", &push);
        let lines = if lines == ["COMMIT"] {
            let commit = server.git("alice", &["rev-parse", "--short=12", "HEAD~1"]);
            vec![format!(
                "refused refs/heads/main: game.yaml: commit {} holds a version of the game that \
                 the pushed file does not extend (a record changed there and restored later is \
                 a rewrite too); push a history that only appends",
                commit.trim()
            )]
        } else {
            lines.iter().map(|l| (*l).to_owned()).collect()
        };
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(pushed, server.refused(&lines), "{what}");
        assert_eq!(server.state(), before, "{what}: the server is as it was");
        server.git("alice", &["reset", "-q", "--hard", "origin/main"]);
    }
    // A branch made from main holds the same game: nothing new is judged, and it lands; then
    // it cannot be deleted.
    assert_eq!(
        server.push("alice", &["-q", "origin", "main:club"]),
        server.landed(&[])
    );
    let before = server.state();
    assert_eq!(
        server.push("alice", &["-q", "origin", ":club"]),
        server.refused(&[
            "refused refs/heads/club: this deletes a branch that holds 1 game file; \
                          a referee keeps every game"
        ])
    );
    assert_eq!(server.state(), before);
    // A game moved is a game deleted; its new copy is the same game, bringing nothing new.
    server.git("alice", &["mv", "game.yaml", "moved.yaml"]);
    server.git("alice", &["commit", "-q", "-m", "rename"]);
    assert_eq!(
        server.push("alice", &["-q"]),
        server.refused(&[
            "refused refs/heads/main: game.yaml: the game file is deleted; a referee keeps \
             every game file where it is (never deleted, moved or renamed)",
            "refs/heads/main: moved.yaml: nothing added; bob (black) to move",
        ])
    );
}

#[test]
fn a_claim_on_time_lands_only_once_the_referees_clock_has_passed_the_deadline() {
    let server = Server::new();
    server.opening(&["--time-control", "1/move"]);
    // bob does not move; his deadline is 10:09 the next day. alice's claim, dated 10:10, is
    // pushed at 09:55 by the server's clock: a time the referee has not reached is refused.
    server.clock("2026-03-02T09:55:00Z");
    server.sign(
        "alice",
        "2026-03-02T10:10:00Z",
        &["claim-timeout", "game.yaml"],
    );
    let before = server.state();
    assert_eq!(
        server.push("alice", &["-q"]),
        server.refused(&[
            "refused refs/heads/main: game.yaml: record 3 (line 35): dated \
             2026-03-02T10:10:00Z, 15 minutes ahead of the referee's clock \
             (2026-03-02T09:55:00Z); a document pushed here must be dated within 10 minutes \
             of it",
        ])
    );
    assert_eq!(server.state(), before);
    // At 10:12 it lands, and ends the game.
    server.clock("2026-03-02T10:12:00Z");
    assert_eq!(
        server.push("alice", &["-q"]),
        server.landed(&[
            "refs/heads/main: game.yaml: record 3 taken; game over: white wins: bob (black) ran \
             out of time",
        ])
    );
}

#[test]
fn a_merge_lands_and_another_line_of_a_game_on_a_branch_is_refused() {
    let server = Server::new();
    server.opening(&[]);
    server.clock("2026-03-01T10:20:00Z");
    // bob writes a note, then plays e5 on top, and pushes both.
    std::fs::write(server.path("bob").join("notes.md"), "e5, I think\n").expect("write");
    server.git("bob", &["add", "notes.md"]);
    server.git("bob", &["commit", "-q", "-m", "a note"]);
    server.sign("bob", "2026-03-01T10:19:00Z", &["play", "game.yaml", "e5"]);
    assert_eq!(
        server.push("bob", &["-q"]),
        server.landed(&["refs/heads/main: game.yaml: record 3 taken; alice (white) to move"])
    );
    // alice wrote a note of her own before she saw e5; she merges, plays, and pushes: her
    // note's commit holds the game as it was before e5, a version the game passed through.
    std::fs::write(server.path("alice").join("plan.md"), "Nf3 next\n").expect("write");
    server.git("alice", &["add", "plan.md"]);
    server.git("alice", &["commit", "-q", "-m", "a plan"]);
    server.git("alice", &["pull", "-q", "--no-rebase", "--no-edit"]);
    server.sign(
        "alice",
        "2026-03-01T10:20:00Z",
        &["play", "game.yaml", "Nf3"],
    );
    assert_eq!(
        server.push("alice", &["-q"]),
        server.landed(&["refs/heads/main: game.yaml: record 4 taken; bob (black) to move"])
    );
    // bob, on another machine (another signing journal), signs d5 where he played e5, on a
    // branch of his own: one game, two lines.
    server.git("bob", &["pull", "-q"]);
    server.git("bob", &["checkout", "-q", "-b", "alt", "HEAD~2"]);
    let (code, _, err) = transcript(
        correspond()
            .current_dir(server.path("bob"))
            .env("CORRESPOND_TIME", "2026-03-01T10:20:00Z")
            .env("CORRESPOND_JOURNAL", server.path("bob-elsewhere"))
            .args(["play", "game.yaml", "d5", "--key"])
            .arg(keys_dir().join("bob")),
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let before = server.state();
    assert_eq!(
        server.push("bob", &["-q", "origin", "alt"]),
        server.refused(&[
            "refused refs/heads/alt: game.yaml: game.yaml on refs/heads/main holds another line \
             of this game, which parts from this one at record 3 (line 33); a game has one line \
             of records in the repository, whatever its copies are called and wherever they \
             lie",
        ])
    );
    assert_eq!(server.state(), before);
}
