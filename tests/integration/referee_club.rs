//! The referee of a club's repository, tried from outside as a player trying to get around it
//! would: copies of a game under other names and on other branches, planted early and forked
//! later; games under names a folder's check passes over, links and submodules; attribute
//! files that would change checkout bytes; branch names that are not UTF-8; and the referee's
//! index lost, damaged, out of step or wrong. Each refused push leaves the server as it was.

use crate::referee::{Pushed, Server};
use crate::util::{correspond, keys_dir, transcript};

/// `who` signs `args` in their clone at `time` with a signing journal of its own (`journal`),
/// as from another machine; the command commits.
fn sign_elsewhere(server: &Server, who: &str, journal: &str, time: &str, args: &[&str]) {
    let (code, _, err) = transcript(
        correspond()
            .current_dir(server.path(who))
            .env("CORRESPOND_TIME", time)
            .env("CORRESPOND_JOURNAL", server.path(journal))
            .args(args)
            .arg("--key")
            .arg(keys_dir().join(who)),
    );
    assert_eq!((code, err.as_str()), (0, ""), "{who} {args:?}");
}

/// bob's clone commits everything as it is, with `message`.
fn commit_all(server: &Server, who: &str, message: &str) {
    server.git(who, &["add", "-A"]);
    server.git(who, &["commit", "-q", "-m", message]);
}

const FORKED: &str = "holds another line of this game, which parts from this one at record 3 \
                      (line 33); a game has one line of records in the repository, whatever its \
                      copies are called and wherever they lie";

#[test]
fn copies_of_a_game_planted_anywhere_early_cannot_be_forked_later() {
    let server = Server::new();
    server.opening(&[]);
    server.clock("2026-03-01T10:12:00Z");
    // bob plants copies of the game under other names, in the game's first minutes, and a
    // branch holding it: each is the same game, and brings nothing new.
    let game = std::fs::read(server.path("bob").join("game.yaml")).expect("the game");
    let names = [
        "copy.yaml",
        "G.yaml",
        "other/g.yml",
        ".games/g.yaml",
        "g.txt",
        "G.YAML",
    ];
    for name in names {
        let path = server.path("bob").join(name);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        std::fs::write(path, &game).expect("write");
    }
    commit_all(&server, "bob", "copies, for safe keeping");
    let mut lines: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    lines.sort();
    let lines: Vec<String> = lines
        .iter()
        .map(|n| format!("refs/heads/main: {n}: nothing added; bob (black) to move"))
        .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    assert_eq!(server.push("bob", &["-q"]), server.landed(&lines));
    assert_eq!(
        server.push("bob", &["-q", "origin", "main:refs/heads/spare"]),
        server.landed(&[])
    );
    // Days later... well, minutes: bob plays e5 in the game, and c5 in a copy, in one push.
    server.clock("2026-03-01T10:20:00Z");
    server.sign("bob", "2026-03-01T10:19:00Z", &["play", "game.yaml", "e5"]);
    sign_elsewhere(
        &server,
        "bob",
        "journal-c5",
        "2026-03-01T10:19:00Z",
        &["play", "copy.yaml", "c5"],
    );
    let before = server.state();
    assert_eq!(
        server.push("bob", &["-q"]),
        server.refused(&[
            "refs/heads/main: copy.yaml: record 3 taken; alice (white) to move",
            &format!("refused refs/heads/main: game.yaml: copy.yaml on refs/heads/main {FORKED}"),
        ])
    );
    assert_eq!(server.state(), before, "nothing landed");
    // e5 alone lands; then c5 in any copy, on any branch, is refused against it.
    server.git("bob", &["reset", "-q", "--hard", "HEAD~2"]);
    server.sign("bob", "2026-03-01T10:19:00Z", &["play", "game.yaml", "e5"]);
    assert_eq!(
        server.push("bob", &["-q"]),
        server.landed(&["refs/heads/main: game.yaml: record 3 taken; alice (white) to move"])
    );
    for (n, name) in names.iter().enumerate().skip(1) {
        let journal = format!("journal-{n}");
        sign_elsewhere(
            &server,
            "bob",
            &journal,
            "2026-03-01T10:19:00Z",
            &["play", name, "c5"],
        );
        let before = server.state();
        assert_eq!(
            server.push("bob", &["-q"]),
            server.refused(&[&format!(
                "refused refs/heads/main: {name}: game.yaml on refs/heads/main {FORKED}"
            )]),
            "{name}"
        );
        assert_eq!(server.state(), before, "{name}");
        server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    }
    server.git("bob", &["checkout", "-q", "-b", "spare", "origin/spare"]);
    sign_elsewhere(
        &server,
        "bob",
        "journal-spare",
        "2026-03-01T10:19:00Z",
        &["play", "game.yaml", "c5"],
    );
    assert_eq!(
        server.push("bob", &["-q", "origin", "spare"]),
        server.refused(&[&format!(
            "refused refs/heads/spare: game.yaml: game.yaml on refs/heads/main {FORKED}"
        )])
    );
}

#[test]
fn a_game_is_refereed_by_its_content_and_links_in_a_games_place_are_refused() {
    let server = Server::new();
    server.opening(&[]);
    server.clock("2026-03-01T10:12:00Z");
    let invalid = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/invalid");
    let illegal = std::fs::read(invalid.join("illegal-move.yaml")).expect("read");
    let reason = correspond::games::verify(&illegal)
        .expect_err("invalid")
        .to_string();
    for name in [
        ".games/g.yaml",
        "g.txt",
        "G.YAML",
        "g.yaml.bak",
        "notes/.hidden/x",
    ] {
        let path = server.path("bob").join(name);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        std::fs::write(&path, &illegal).expect("write");
        commit_all(&server, "bob", "a game under another name");
        let before = server.state();
        assert_eq!(
            server.push("bob", &["-q"]),
            server.refused(&[&format!("refused refs/heads/main: {name}: {reason}")]),
            "{name}"
        );
        assert_eq!(server.state(), before, "{name}");
        server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    }
    // A symbolic link under a game file's name, or in a game's place; a submodule.
    std::os::unix::fs::symlink("game.yaml", server.path("bob").join("evil.yaml")).expect("link");
    commit_all(&server, "bob", "a link");
    let link = "a referee takes a game file only as a file (a link or a submodule under a name \
                ending in .yaml or .yml, or in place of a game, could show another file)";
    assert_eq!(
        server.push("bob", &["-q"]),
        server.refused(&[&format!(
            "refused refs/heads/main: evil.yaml: a symbolic link under a game file's name; {link}"
        )])
    );
    server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    std::fs::remove_file(server.path("bob").join("game.yaml")).expect("remove");
    std::os::unix::fs::symlink("/etc/hostname", server.path("bob").join("game.yaml"))
        .expect("link");
    commit_all(&server, "bob", "a link in the game's place");
    assert_eq!(
        server.push("bob", &["-q"]),
        server.refused(&[
            &format!(
                "refused refs/heads/main: game.yaml: a symbolic link in place of a game file; \
                 {link}"
            ),
            "refused refs/heads/main: game.yaml: the game file is deleted; a referee keeps \
             every game file where it is (never deleted, moved or renamed)",
        ])
    );
    server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    let head = server.git("bob", &["rev-parse", "HEAD"]);
    let info = format!("160000,{},sub.yml", head.trim());
    server.git("bob", &["update-index", "--add", "--cacheinfo", &info]);
    server.git("bob", &["commit", "-q", "-m", "a submodule"]);
    assert_eq!(
        server.push("bob", &["-q"]),
        server.refused(&[&format!(
            "refused refs/heads/main: sub.yml: a submodule under a game file's name; {link}"
        )])
    );
    server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    // What is plainly not a game, under any name, is left alone; so is a link elsewhere.
    std::fs::write(
        server.path("bob").join("README.md"),
        "# Our club\n\nWe play with correspond; see game.yaml.\n---\nformat: a table\n",
    )
    .expect("write");
    // A workflow that names the program, where `verify .` does not look either.
    let workflows = server.path("bob").join(".github/workflows");
    std::fs::create_dir_all(&workflows).expect("mkdir");
    std::fs::write(workflows.join("verify.yml"), "run: correspond verify .\n").expect("write");
    std::os::unix::fs::symlink("README.md", server.path("bob").join("LIESMICH")).expect("link");
    commit_all(&server, "bob", "a readme");
    assert_eq!(server.push("bob", &["-q"]), server.landed(&[]));
}

#[test]
fn attributes_that_would_change_checkout_bytes_are_refused_with_their_line() {
    let server = Server::new();
    server.opening(&[]);
    server.clock("2026-03-01T10:12:00Z");
    let write = |path: &str, text: &str| {
        let path = server.path("bob").join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    let rule = "which would make git check files out with other bytes than the ones signed; only \
                unsetting text, crlf, eol, filter, ident and working-tree-encoding (`-text`, as \
                `correspond setup-git` writes) is taken here";
    for (path, text, said) in [
        (
            ".gitattributes",
            "*.png binary\n*.yaml text eol=crlf\n",
            "line 2 (`*.yaml text eol=crlf`) sets `text`",
        ),
        (
            "games/.gitattributes",
            "# line endings\n* text=auto\n",
            "line 2 (`* text=auto`) sets `text=auto`",
        ),
        (
            ".gitattributes",
            "*.yaml merge=correspond -text\n*.yaml !text\n",
            "line 2 (`*.yaml !text`) sets `!text`",
        ),
        (
            ".gitattributes",
            "*.yaml filter=lfs\n",
            "line 1 (`*.yaml filter=lfs`) sets `filter=lfs`",
        ),
    ] {
        write(path, text);
        commit_all(&server, "bob", "attributes");
        let before = server.state();
        assert_eq!(
            server.push("bob", &["-q"]),
            server.refused(&[&format!("refused refs/heads/main: {path}: {said}, {rule}")]),
            "{text}"
        );
        assert_eq!(server.state(), before);
        server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    }
    // Set in one pushed commit and taken back in the next: a checkout of the first would
    // still convert.
    write(".gitattributes", "*.yaml eol=crlf\n");
    commit_all(&server, "bob", "crlf");
    let commit = server.git("bob", &["rev-parse", "--short=12", "HEAD"]);
    write(".gitattributes", "*.yaml merge=correspond -text\n");
    commit_all(&server, "bob", "no, not crlf");
    assert_eq!(
        server.push("bob", &["-q"]),
        server.refused(&[&format!(
            "refused refs/heads/main: .gitattributes: line 1 (`*.yaml eol=crlf`) sets \
             `eol=crlf`, {} (commit {}); only unsetting text, crlf, eol, filter, ident and \
             working-tree-encoding (`-text`, as `correspond setup-git` writes) is taken here",
            "which would make git check files out with other bytes than the ones signed",
            commit.trim()
        )])
    );
    // setup-git's own line lands.
    server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    write(
        ".gitattributes",
        "*.yaml merge=correspond -text\n*.png binary\n",
    );
    commit_all(&server, "bob", "setup-git's line");
    assert_eq!(server.push("bob", &["-q"]), server.landed(&[]));
}

#[test]
fn a_branch_whose_name_is_not_utf8_is_judged_and_shown_escaped() {
    let server = Server::new();
    server.opening(&[]);
    server.clock("2026-03-01T10:20:00Z");
    let branch: &[u8] = b"refs/heads/caf\xe9";
    // An illegal move on that branch is refused, naming it with its byte escaped.
    server.forge(
        "bob",
        correspond::log::Action::Move("e7e4".into()),
        "2026-03-01T10:19:00Z",
    );
    let refspec = [b"HEAD:".as_slice(), branch].concat();
    let before = server.state();
    assert_eq!(
        server.push_bytes("bob", &[b"-q", b"origin", &refspec]),
        server.refused(&[
            "refused refs/heads/caf\\xe9: game.yaml: record 3 (line 33): illegal move e7e4: a \
             pawn on e7 cannot move to e4"
        ])
    );
    assert_eq!(server.state(), before);
    // A legal one lands there, and the branch is one the index takes.
    server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    server.sign("bob", "2026-03-01T10:19:00Z", &["play", "game.yaml", "e5"]);
    assert_eq!(
        server.push_bytes("bob", &[b"-q", b"origin", &refspec]),
        server.landed(&["refs/heads/caf\\xe9: game.yaml: record 3 taken; alice (white) to move"])
    );
    // Another line on main is refused against it.
    server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    sign_elsewhere(
        &server,
        "bob",
        "journal-d5",
        "2026-03-01T10:19:00Z",
        &["play", "game.yaml", "d5"],
    );
    assert_eq!(
        server.push("bob", &["-q"]),
        server.refused(&[&format!(
            "refused refs/heads/main: game.yaml: game.yaml on refs/heads/caf\\xe9 {FORKED}"
        )])
    );
    let (code, out, err) = transcript(correspond().current_dir(server.path(".")).args([
        "referee",
        "repair",
        "server.git",
    ]));
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            "checked 2 game files on 2 branches: all valid, each game one line; the index \
             holds 1 game\n",
            ""
        )
    );
}

#[test]
fn the_index_is_built_again_when_lost_damaged_or_out_of_step_and_never_believed_over_the_games() {
    let server = Server::new();
    server.opening(&[]);
    let index = server.path("server.git/correspond-referee");
    let entry = || {
        std::fs::read_dir(index.join("games"))
            .expect("games")
            .flatten()
            .flat_map(|d| std::fs::read_dir(d.path()).expect("a folder").flatten())
            .map(|e| e.path())
            .next()
            .expect("the game's entry")
    };
    let mut time = 10;
    let mut play = |mv: &str| {
        time += 1;
        let now = format!("2026-03-01T10:{time}:00Z");
        server.clock(&now);
        let who = if time % 2 == 1 { "bob" } else { "alice" };
        server.git(who, &["pull", "-q"]);
        server.sign(who, &now, &["play", "game.yaml", mv]);
        server.push(who, &["-q"])
    };
    // Lost.
    std::fs::remove_dir_all(&index).expect("remove the index");
    let pushed = play("e5");
    assert_eq!(
        pushed.remote[1..],
        [
            "correspond referee: the referee's index was missing; built again from 1 game file \
             on 1 branch",
            "correspond referee: refs/heads/main: game.yaml: record 3 taken; alice (white) to \
             move",
        ]
    );
    // Damaged: an entry cut short.
    let text = std::fs::read_to_string(entry()).expect("read");
    std::fs::write(entry(), &text[..text.len() / 2]).expect("write");
    let pushed = play("Nf3");
    assert_eq!(
        pushed.remote[1..],
        [
            "correspond referee: the referee's index was damaged; built again from 1 game file \
             on 1 branch",
            "correspond referee: refs/heads/main: game.yaml: record 4 taken; bob (black) to move",
        ]
    );
    // Out of step: a branch made on the server by hand, not by a push.
    server.git("server.git", &["branch", "by-hand", "main"]);
    let pushed = play("Nc6");
    assert_eq!(
        pushed.remote[1..2],
        [
            "correspond referee: the referee's index was out of step with the branches; built \
          again from 2 game files on 2 branches"
        ]
    );
    // Wrong: an entry that says another line was taken. The copies say otherwise, and win.
    let text = std::fs::read_to_string(entry()).expect("read");
    let lines: Vec<&str> = text.lines().collect();
    let wrong = text.replace(lines[4], &format!("document {}", "ab".repeat(32)));
    std::fs::write(entry(), wrong).expect("write");
    let pushed = play("Bb5");
    assert!(pushed.landed, "{pushed:?}");
    assert_eq!(
        std::fs::read_to_string(entry())
            .expect("read")
            .lines()
            .nth(4),
        Some(lines[4])
    );
}

#[test]
fn a_push_waits_for_one_that_holds_the_lock_and_a_holder_that_is_gone_holds_nothing() {
    let server = Server::new();
    let (code, _, err) = transcript(correspond().current_dir(server.path(".")).args([
        "referee",
        "install",
        "server.git",
        "--wait",
        "1",
    ]));
    assert_eq!((code, err.as_str()), (0, ""));
    server.opening(&[]);
    server.clock("2026-03-01T10:20:00Z");
    server.sign("bob", "2026-03-01T10:19:00Z", &["play", "game.yaml", "e5"]);
    let holder = server.path("server.git/correspond-referee/holder");
    // A push that is still being judged or landing: here, a process that lives on.
    let mut other = std::process::Command::new("sleep")
        .arg("30")
        .spawn()
        .expect("sleep");
    let start = std::fs::read_to_string(format!("/proc/{}/stat", other.id())).expect("stat");
    let start = start[start.rfind(')').expect("a name") + 1..]
        .split_whitespace()
        .nth(19)
        .expect("a start time")
        .to_owned();
    std::fs::write(&holder, format!("holder {} {start}\n", other.id())).expect("write");
    let before = server.state();
    let pushed = server.push("bob", &["-q"]);
    let pid = other.id();
    assert_eq!(
        pushed,
        Pushed {
            landed: false,
            remote: vec![
                "correspond referee: the clock is pinned to 2026-03-01T10:20:00Z by \
                 correspond.refereeTime, which is for tests only"
                    .to_owned(),
                format!(
                    "correspond referee: waiting for another push to this repository (git \
                     receive-pack, process {pid}) to be judged and land, up to 1 s"
                ),
                format!(
                    "error: another push to this repository (git receive-pack, process {pid}) \
                     has been judged or landing for 1 s, longer than the referee waits: nothing \
                     was changed"
                ),
                "hint: push again in a while; if it stays, that process has hung: its ending \
                 frees the referee"
                    .to_owned(),
            ],
        }
    );
    assert_eq!(server.state(), before);
    // Its process ends (killed, crashed): it holds nothing, and the push lands.
    other.kill().expect("kill");
    other.wait().expect("wait");
    assert_eq!(
        server.push("bob", &["-q"]),
        server.landed(&["refs/heads/main: game.yaml: record 3 taken; alice (white) to move"])
    );
    assert_eq!(
        std::fs::read_to_string(&holder).expect("read"),
        "",
        "released"
    );
}

#[test]
fn a_mode_changed_alone_a_tree_naming_a_file_twice_and_too_many_branches_are_seen() {
    let server = Server::new();
    server.opening(&[]);
    server.clock("2026-03-01T10:20:00Z");
    // A forked copy of the game kept as a symbolic link's target text (no game: a link's
    // content is a path), then made a file without changing a byte: now it is a game, forked.
    server.sign("bob", "2026-03-01T10:19:00Z", &["play", "game.yaml", "e5"]);
    assert!(server.push("bob", &["-q"]).landed);
    server.git("bob", &["reset", "-q", "--hard", "HEAD~1"]);
    sign_elsewhere(
        &server,
        "bob",
        "journal-c5",
        "2026-03-01T10:19:00Z",
        &["play", "game.yaml", "c5"],
    );
    let forked = server.git("bob", &["hash-object", "-w", "game.yaml"]);
    server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    let link = format!("120000,{},a.txt", forked.trim());
    server.git("bob", &["update-index", "--add", "--cacheinfo", &link]);
    server.git("bob", &["commit", "-q", "-m", "a link"]);
    assert_eq!(server.push("bob", &["-q"]), server.landed(&[]));
    let file = format!("100644,{},a.txt", forked.trim());
    server.git("bob", &["update-index", "--cacheinfo", &file]);
    server.git("bob", &["commit", "-q", "-m", "a file"]);
    let before = server.state();
    assert_eq!(
        server.push("bob", &["-q"]),
        server.refused(&[&format!(
            "refused refs/heads/main: a.txt: game.yaml on refs/heads/main {FORKED}"
        )])
    );
    assert_eq!(server.state(), before);
    // The game made a submodule with the same object: a game file gone.
    server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    let game = server.git("bob", &["rev-parse", "HEAD:game.yaml"]);
    server.git("bob", &["rm", "-q", "--cached", "game.yaml"]);
    let submodule = format!("160000,{},game.yaml", game.trim());
    server.git("bob", &["update-index", "--add", "--cacheinfo", &submodule]);
    server.git("bob", &["commit", "-q", "-m", "a submodule"]);
    let pushed = server.push("bob", &["-q"]);
    assert!(!pushed.landed, "{pushed:?}");
    assert!(
        pushed.remote.contains(
            &"correspond referee: refused refs/heads/main: game.yaml: the game \
                                 file is deleted; a referee keeps every game file where it is \
                                 (never deleted, moved or renamed)"
                .to_owned()
        ),
        "{pushed:?}"
    );
    server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    // A tree that names game.yaml twice, the fork first: git never writes one.
    let tree = server.git("bob", &["rev-parse", "HEAD^{tree}"]);
    let listing = server.git("bob", &["cat-file", "-p", tree.trim()]);
    let twice = format!("{listing}100644 blob {}\tgame.yaml\n", forked.trim());
    let made = std::process::Command::new("python3")
        .current_dir(server.path("bob"))
        .args([
            "-c",
            "import sys, subprocess\n\
             entries = b''\n\
             for line in sys.stdin.read().splitlines():\n\
             \x20   meta, name = line.split('\\t')\n\
             \x20   mode, kind, oid = meta.split()\n\
             \x20   entries += mode.encode() + b' ' + name.encode() + b'\\0' + bytes.fromhex(oid)\n\
             out = subprocess.run(['git', 'hash-object', '-w', '-t', 'tree', '--literally', \
             '--stdin'], input=entries, capture_output=True, check=True)\n\
             print(out.stdout.decode().strip())",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write as _;
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(twice.as_bytes())?;
            child.wait_with_output()
        })
        .expect("python3 writes the tree");
    assert!(made.status.success(), "{made:?}");
    let tree = String::from_utf8(made.stdout).expect("an id");
    let commit = server.git(
        "bob",
        &["commit-tree", tree.trim(), "-p", "HEAD", "-m", "twice"],
    );
    server.git("bob", &["reset", "-q", "--soft", commit.trim()]);
    let pushed = server.push("bob", &["-q", "--no-verify", "origin", "HEAD:main"]);
    assert!(!pushed.landed, "{pushed:?}");
    assert!(
        pushed.remote.iter().any(|l| l.ends_with(
            "a tree names game.yaml twice, or out of git's order, which git never writes (git \
             fsck calls it duplicateEntries or treeNotSorted)"
        )),
        "{pushed:?}"
    );
    server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    // More branches in one push than the referee judges at once.
    let refs: Vec<String> = (0..101)
        .map(|n| format!("HEAD:refs/heads/b{n:03}"))
        .collect();
    let mut args: Vec<&str> = vec!["-q", "origin"];
    args.extend(refs.iter().map(String::as_str));
    assert_eq!(
        server.push("bob", &args),
        Pushed {
            landed: false,
            remote: vec![
                "correspond referee: the clock is pinned to 2026-03-01T10:20:00Z by \
                 correspond.refereeTime, which is for tests only"
                    .to_owned(),
                "correspond referee: refused: this push updates 101 branches; the referee \
                 judges at most 100 in one push: push them in parts"
                    .to_owned(),
            ],
        }
    );
}

#[test]
fn a_gitattributes_link_and_a_dropped_line_that_keeps_bytes_are_refused() {
    let server = Server::new();
    server.opening(&[]);
    server.clock("2026-03-01T10:12:00Z");
    std::fs::write(
        server.path("bob").join(".gitattributes"),
        "*.yaml merge=correspond -text\n",
    )
    .expect("write");
    commit_all(&server, "bob", "setup-git's line");
    assert_eq!(server.push("bob", &["-q"]), server.landed(&[]));
    // Dropped: each user's core.autocrlf would decide again.
    std::fs::write(server.path("bob").join(".gitattributes"), "*.png binary\n").expect("write");
    commit_all(&server, "bob", "tidy");
    assert_eq!(
        server.push("bob", &["-q"]),
        server.refused(&[
            "refused refs/heads/main: .gitattributes: drops line 1 (`*.yaml \
                          merge=correspond -text`), which keeps files' bytes as they are on \
                          checkout; without it, a clone made with core.autocrlf converts them"
        ])
    );
    server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    server.git("bob", &["rm", "-q", ".gitattributes"]);
    server.git("bob", &["commit", "-q", "-m", "gone"]);
    assert!(!server.push("bob", &["-q"]).landed, "deleted");
    server.git("bob", &["reset", "-q", "--hard", "origin/main"]);
    // A link: git would read the file it points at.
    std::fs::write(server.path("bob").join("attrs"), "*.yaml eol=crlf\n").expect("write");
    let nested = server.path("bob").join("games");
    std::fs::create_dir_all(&nested).expect("mkdir");
    std::os::unix::fs::symlink("../attrs", nested.join(".gitattributes")).expect("link");
    commit_all(&server, "bob", "attributes elsewhere");
    assert_eq!(
        server.push("bob", &["-q"]),
        server.refused(&[
            "refused refs/heads/main: games/.gitattributes: a symbolic link or a \
                          submodule; a .gitattributes must be a file of at most 67108864 bytes, \
                          which the referee reads"
        ])
    );
}

#[test]
fn a_branch_made_without_a_game_or_a_kept_line_of_the_branch_it_grows_from_is_refused() {
    let server = Server::new();
    server.opening(&[]);
    server.clock("2026-03-01T10:12:00Z");
    std::fs::write(
        server.path("bob").join(".gitattributes"),
        "*.yaml merge=correspond -text\n",
    )
    .expect("write");
    commit_all(&server, "bob", "setup-git's line");
    assert_eq!(server.push("bob", &["-q"]), server.landed(&[]));
    server.git("bob", &["rm", "-q", "game.yaml", ".gitattributes"]);
    server.git("bob", &["commit", "-q", "-m", "a clean slate"]);
    let before = server.state();
    assert_eq!(
        server.push("bob", &["-q", "origin", "HEAD:refs/heads/slate"]),
        server.refused(&[
            "refused refs/heads/slate: .gitattributes: drops line 1 (`*.yaml merge=correspond \
             -text`), which keeps files' bytes as they are on checkout; without it, a clone made \
             with core.autocrlf converts them",
            "refused refs/heads/slate: game.yaml: the game file is deleted; a referee keeps every \
             game file where it is (never deleted, moved or renamed)",
        ])
    );
    assert_eq!(server.state(), before);
}
