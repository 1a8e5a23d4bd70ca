//! Text from others never reaches the terminal raw: file names, the contents of game files,
//! git's authors, branches and reflogs, and mail, each carrying escape sequences, newlines,
//! bidi controls, line and paragraph separators and invisible letters, through every command
//! that reads them. Every byte printed (standard output and error) is checked: no control or
//! format character but the newline.

use crate::util::{correspond, git, keys_dir};
use std::path::Path;

/// The characters a hostile name or field carries.
const HOSTILE: &str =
    "\u{1b}[2K\u{1b}]0;x\u{7}\n\r\u{202e}\u{61c}\u{2028}\u{2029}\u{3164}\u{200b}\u{9b}";

/// Runs `correspond args` in `dir` and checks that nothing it printed would act on a terminal;
/// returns (exit code, stdout and stderr).
fn clean(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = correspond()
        .current_dir(dir)
        .env("CORRESPOND_TIME", "2026-07-01T10:00:00Z")
        .args(args)
        .output()
        .expect("run correspond");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let raw: Vec<char> = text
        .chars()
        .filter(|c| *c != '\n' && correspond::text::is_unsafe(*c))
        .collect();
    assert!(
        raw.is_empty(),
        "correspond {args:?} printed {raw:?} raw:\n{}",
        text.escape_debug()
    );
    (out.status.code().unwrap_or(-1), text)
}

fn example(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("games")
            .join(name),
    )
    .expect("read")
}

#[test]
fn hostile_file_names_are_escaped_everywhere() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games = dir.path().join("games");
    std::fs::create_dir(&games).expect("mkdir");
    let name = format!("a{HOSTILE}.yaml");
    let game = example("chess/morphy-opera-game-1858.yaml");
    std::fs::write(games.join(&name), &game).expect("write");
    // A second name that would forge a line of the report if printed raw.
    std::fs::write(
        games.join("x.yaml: valid: chess, forged\n1 file: 1 valid.yaml"),
        b"not a game",
    )
    .expect("write");
    let (code, out) = clean(dir.path(), &["verify", "games"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("a\\u{1b}[2K\\u{1b}]0;x\\u{7}\\u{a}\\u{d}\\u{202e}"),
        "{out}"
    );
    // Not a game file, so passed over, and named escaped.
    assert!(
        out.ends_with(
            "passed over 1 file that is not a game file: games/x.yaml: valid: chess, \
             forged\\u{a}1 file: 1 valid.yaml\n"
        ),
        "{out}"
    );
    clean(dir.path(), &["verify", "games", "--json"]);
    clean(dir.path(), &["games", "games"]);
    clean(dir.path(), &["games", "games", "--json"]);
    let path = format!("games/{name}");
    let other = "games/x.yaml: valid: chess, forged\n1 file: 1 valid.yaml";
    for args in [
        vec!["verify", path.as_str()],
        vec!["status", &path],
        vec!["show", &path],
        vec!["log", &path],
        vec!["pgn", &path],
        vec!["extract", &path, "3", "--signed-bytes"],
        vec!["extract", &path, "3", "--signature"],
        vec!["extract", &path, "0", "--allowed-signers"],
        vec!["compare", &path, &path],
        vec!["compare", &path, other],
        vec!["check-proof", &path],
        vec!["audit", &path],
        vec!["mail", &path, "--from", "a@example.org"],
        vec!["receive", &path, other],
        vec!["play", &path, "e4", "--no-commit"],
        vec!["status", other],
        vec!["journal", "restore", &path],
    ] {
        clean(dir.path(), &args);
    }
    // Arguments clap refuses are quoted in its error: escaped too.
    let dash = format!("-{HOSTILE}x");
    for args in [
        vec!["verify", dash.as_str()],
        vec!["help", HOSTILE],
        vec!["extract", &path, HOSTILE, "--signature"],
        vec!["extract", &path, "18446744073709551615", "--signed-bytes"],
    ] {
        let (code, _) = clean(dir.path(), &args);
        assert_eq!(code, 2, "{args:?}");
    }
    // The message mail writes tells the other player a file name to receive into: never one
    // that could forge a line of the message.
    let (code, out) = clean(dir.path(), &["mail", &path, "--from", "a@example.org"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("correspond receive GAME.yaml MESSAGE"),
        "{out}"
    );
    let key = keys_dir().join("alice");
    let key = key.to_str().expect("UTF-8");
    let bob = keys_dir().join("bob.pub");
    let bob = bob.to_str().expect("UTF-8");
    let made = format!("new{HOSTILE}.yaml");
    let (code, out) = clean(
        dir.path(),
        &[
            "new",
            "chess",
            &made,
            "--name",
            "alice",
            "--side",
            "white",
            "--opponent",
            "bob",
            "--opponent-key",
            bob,
            "--key",
            key,
            "--no-commit",
        ],
    );
    assert_eq!(code, 0, "{out}");
    // Names with invisible letters are refused, and quoted escaped.
    let (code, out) = clean(
        dir.path(),
        &[
            "new",
            "chess",
            "n.yaml",
            "--name",
            "bob\u{3164}",
            "--side",
            "white",
            "--opponent",
            "bob",
            "--opponent-key",
            bob,
            "--key",
            key,
            "--no-commit",
        ],
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("`bob\\u{3164}` is not a valid player name"),
        "{out}"
    );
}

/// `text` with the rest of its first line that starts with `start` replaced by `rest`.
fn first_line_replaced(text: &str, start: &str, rest: &str) -> String {
    let at = text.find(&format!("\n{start}")).expect("such a line") + 1 + start.len();
    let end = at + text[at..].find('\n').expect("a whole line");
    format!("{}{rest}{}", &text[..at], &text[end..])
}

/// An Ed25519 key's wire form whose algorithm name is hostile (ESC, CR, a bidi override), and
/// an SSH signature (SSHSIG) carrying that key, both in base64: each passes the file's own
/// checks (plain base64) and is refused by the ssh-key library with the name quoted.
fn hostile_inside_ssh() -> (String, String) {
    use base64ct::{Base64, Encoding};
    fn string(out: &mut Vec<u8>, bytes: &[u8]) {
        out.extend(u32::try_from(bytes.len()).expect("short").to_be_bytes());
        out.extend(bytes);
    }
    let mut key = Vec::new();
    string(&mut key, "\u{1b}[2K\r\u{202e}x".as_bytes());
    string(&mut key, &[7; 32]);
    let mut inner = Vec::new();
    string(&mut inner, b"ssh-ed25519");
    string(&mut inner, &[0; 64]);
    let mut sig = b"SSHSIG".to_vec();
    sig.extend(1u32.to_be_bytes());
    for field in [&key[..], b"correspond", b"", b"sha512", &inner] {
        string(&mut sig, field);
    }
    (Base64::encode_string(&key), Base64::encode_string(&sig))
}

#[test]
fn hostile_contents_of_game_files_are_escaped_in_every_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = String::from_utf8(example("campaign/resignation.yaml")).expect("UTF-8");
    let hostile = HOSTILE.replace(['\n', '\r'], "");
    let cases = [
        text.replacen("game: campaign", &format!("game: {hostile}"), 1),
        text.replacen("side: heads", &format!("side: \"{hostile}\""), 1),
        text.replacen("kind: accept", &format!("kind: \"{hostile}\""), 1),
        text.replacen("move: ", &format!("move: \"{hostile}\"\nx: "), 1),
        text.replacen("name: \"alice\"", &format!("name: \"alice{hostile}\""), 1),
        text.replacen("format: correspond/1", &format!("format: \"{hostile}\""), 1),
        text.replacen("spin-doctoring: true", &format!("\"{hostile}\": true"), 1),
        text.replacen("\nsignature: ", &format!("\nsignature: {hostile}"), 2),
        text.replacen("---\nseq: 3", &format!("# {hostile}\n---\nseq: 3"), 1),
        text.replacen("\nseq: 2", &format!("\n{hostile}: 2"), 1),
        // The ssh-key library quotes an algorithm's name it refuses byte for byte: one inside
        // record 1's signature, and one inside alice's key.
        first_line_replaced(&text, "signature: ", &hostile_inside_ssh().1),
        first_line_replaced(&text, "  key: ssh-ed25519 ", &hostile_inside_ssh().0),
    ];
    for (i, case) in cases.iter().enumerate() {
        let name = format!("case{i}.yaml");
        std::fs::write(dir.path().join(&name), case).expect("write");
        for args in [
            vec!["verify", name.as_str()],
            vec!["verify", &name, "--json"],
            vec!["games", &name],
            vec!["status", &name],
            vec!["log", &name],
            vec!["extract", &name, "1", "--signed-bytes"],
            vec!["extract", &name, "2", "--signed-bytes"],
            vec!["extract", &name, "2", "--signature"],
            vec!["extract", &name, "0", "--allowed-signers"],
            vec!["compare", &name, "case0.yaml"],
            vec!["check-proof", &name],
            vec!["mail", &name, "--from", "a@example.org"],
        ] {
            let (code, out) = clean(dir.path(), &args);
            if args[0] == "verify" || args[0] == "games" {
                assert_eq!(code, 1, "case {i}: {args:?}: {out}");
            }
        }
    }
}

#[test]
fn hostile_git_authors_branches_and_reflogs_are_escaped_in_audits() {
    let club = crate::disputes::Club::new();
    club.play(&["e4", "e5"]);
    let alice = club.clone("alice");
    // git itself refuses newlines in an identity; everything else goes in.
    let hostile = HOSTILE.replace(['\n', '\r'], "");
    git(
        &alice,
        &["config", "user.name", &format!("Mallory{hostile}")],
    );
    git(
        &alice,
        &["config", "user.email", &format!("m{hostile}@example.org")],
    );
    git(&alice, &["checkout", "-q", "-b", "main\u{202e}x"]);
    club.sign("alice", &["play", "game.yaml", "Nf3"]);
    git(
        &alice,
        &[
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            &format!("note{HOSTILE}"),
        ],
    );
    // A take-back recorded in the reflog with a hostile message.
    let tip = git(&alice, &["rev-parse", "HEAD~2"]);
    git(
        &alice,
        &[
            "update-ref",
            "-m",
            &format!("reset{HOSTILE}"),
            "HEAD",
            tip.trim(),
        ],
    );
    git(&alice, &["checkout", "-q", "HEAD", "--", "game.yaml"]);
    club.sign_elsewhere("alice", &["play", "game.yaml", "d4"]);
    let (code, out) = clean(&alice, &["audit", "game.yaml"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Mallory\\u{1b}[2K"), "{out}");
    assert!(out.contains("reset\\u{1b}[2K"), "{out}");
    let (code, _) = clean(&alice, &["audit", "game.yaml", "--json"]);
    assert_eq!(code, 1);
}

#[test]
fn hostile_mail_is_escaped_when_received() {
    let dir = tempfile::tempdir().expect("temp dir");
    let game = example("chess/morphy-opera-game-1858.yaml");
    std::fs::write(dir.path().join("g.yaml"), &game).expect("write");
    let subject = HOSTILE.replace(['\n', '\r'], " ");
    let message = format!(
        "From: m{HOSTILE}@example.org\nSubject: {subject}\nContent-Type: text/plain\n\n\
         -----BEGIN CORRESPOND RECORDS-----\nGame: {HOSTILE}\nDocuments: 1{HOSTILE}\n\
         -----END CORRESPOND RECORDS-----\n"
    );
    std::fs::write(dir.path().join("m.eml"), &message).expect("write");
    let mbox = format!("From m Sun Mar  1 12:00:00 2026\n{message}\n");
    std::fs::write(dir.path().join("box.mbox"), mbox).expect("write");
    let (code, out) = clean(dir.path(), &["receive", "g.yaml", "m.eml", "--no-commit"]);
    assert_ne!(code, 0, "{out}");
    clean(
        dir.path(),
        &["receive", "g.yaml", "--mbox", "box.mbox", "--no-commit"],
    );
    clean(
        dir.path(),
        &["receive", "--new", "n.yaml", "m.eml", "--no-commit"],
    );
}

/// A comment padded with spaces to a terminal's width would start a wrapped row with what
/// follows, and pass for a record or a result line: each run of spaces, whatever their kind, is
/// shown as one, in every report that quotes a comment.
#[test]
fn a_comment_padded_with_spaces_cannot_pass_for_a_line_of_the_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sign = |key: &str, args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--key", key, "--no-commit"]);
        let mut cmd = correspond();
        cmd.current_dir(dir.path())
            .env("CORRESPOND_JOURNAL", dir.path().join("journal"))
            .env("CORRESPOND_TIME", "2026-07-01T10:00:00Z")
            .args(&all);
        crate::util::transcript(&mut cmd)
    };
    let alice = keys_dir().join("alice");
    let bob = keys_dir().join("bob");
    let [alice, bob] = [&alice, &bob].map(|k| k.to_str().expect("UTF-8").to_owned());
    let bob_pub = format!("{bob}.pub");
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
        &bob_pub,
    ];
    assert_eq!(sign(&alice, &new).0, 0);
    assert_eq!(sign(&bob, &["accept", "g.yaml"]).0, 0);
    assert_eq!(sign(&alice, &["play", "g.yaml", "e4"]).0, 0);
    let padded = format!(
        "gg{}   4  2026-07-01T10:00:00Z  alice (white)  resigns{}result: bob (black) wins",
        " ".repeat(30),
        "\u{a0}\u{3000}".repeat(20)
    );
    let shown = "gg 4 2026-07-01T10:00:00Z alice (white) resigns result: bob (black) wins";
    assert_eq!(
        sign(&bob, &["play", "g.yaml", "e5", "--comment", &padded]),
        (
            0,
            format!("record 3: bob (black) e5; says \"{shown}\"\nnow: alice (white) to move\n"),
            String::new()
        )
    );
    let (code, log) = clean(dir.path(), &["log", "g.yaml"]);
    assert_eq!(code, 0, "{log}");
    assert!(
        log.lines()
            .any(|l| l.ends_with(&format!("bob (black)    e5; says \"{shown}\""))),
        "{log}"
    );
    for args in [["status", "g.yaml"], ["show", "g.yaml"]] {
        let (code, out) = clean(dir.path(), &args);
        assert_eq!(code, 0, "{out}");
        assert!(
            out.contains(&format!("bob (black) says \"{shown}\"")),
            "{args:?}: {out}"
        );
        assert!(!out.contains("  resigns"), "{args:?}: {out}");
    }
}
