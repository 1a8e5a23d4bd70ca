//! Paths and keys given wrong, each refused before anything is signed or written, with the
//! option or folder at fault named and what to do: a folder that does not exist, a key file
//! that is not there or not Ed25519, one key for both players, a journal that is a file, a
//! folder where one game file is read, a record number the file lacks.

use crate::util::{correspond, keys_dir, transcript};
use std::path::Path;

/// `correspond ARGS` in `dir`, with its own journal there: (exit code, stdout, stderr).
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    transcript(
        correspond()
            .current_dir(dir)
            .env("CORRESPOND_JOURNAL", dir.join("journal"))
            .env("CORRESPOND_TIME", "2026-04-01T10:00:00Z")
            .args(args),
    )
}

/// A folder holding the test keys alice, bob and bob.pub, an RSA and an ECDSA key made by
/// ssh-keygen, and a PGN file.
fn desk() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["alice", "bob", "bob.pub"] {
        let to = dir.path().join(name);
        std::fs::copy(keys_dir().join(name), &to).expect("copy");
        std::fs::set_permissions(&to, std::os::unix::fs::PermissionsExt::from_mode(0o600))
            .expect("chmod");
    }
    for (kind, name) in [("rsa", "rsa_key"), ("ecdsa", "ecdsa_key")] {
        let status = std::process::Command::new("ssh-keygen")
            .args(["-q", "-t", kind, "-N", "", "-C", name, "-f"])
            .arg(dir.path().join(name))
            .status()
            .expect("ssh-keygen");
        assert!(status.success());
    }
    std::fs::write(
        dir.path().join("game.pgn"),
        "[White \"alice\"]\n[Black \"bob\"]\n[Result \"*\"]\n\n1. e4 e5 *\n",
    )
    .expect("write");
    dir
}

const NEW: [&str; 9] = [
    "new",
    "chess",
    "PATH",
    "--name",
    "alice",
    "--side",
    "white",
    "--opponent",
    "bob",
];

fn new<'a>(path: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args: Vec<&str> = NEW
        .iter()
        .map(|a| if *a == "PATH" { path } else { a })
        .collect();
    args.extend(rest);
    args.push("--no-commit");
    args
}

#[test]
fn a_new_game_in_a_folder_that_does_not_exist_is_refused_before_it_is_signed() {
    let dir = desk();
    let dir = dir.path();
    let with_keys = ["--opponent-key", "bob.pub", "--key", "alice"];
    assert_eq!(
        run(dir, &new("nodir/game.yaml", &with_keys)),
        (
            2,
            String::new(),
            "error: nodir/game.yaml: the folder nodir does not exist\n\
             hint: make it first (mkdir -p nodir), or give another path; nothing was signed\n"
                .to_owned()
        )
    );
    assert!(!dir.join("journal").exists(), "nothing was signed");
    assert_eq!(
        run(
            dir,
            &[
                "import-pgn",
                "game.pgn",
                "nodir/game.yaml",
                "--white-key",
                "alice",
                "--black-key",
                "bob"
            ]
        ),
        (
            2,
            String::new(),
            "error: nodir/game.yaml: the folder nodir does not exist\n\
             hint: make it first (mkdir -p nodir), or give another path; nothing was signed\n"
                .to_owned()
        )
    );
    assert!(!dir.join("journal").exists(), "nothing was signed");
    // A page: the folder is named, not the temporary copy's random name.
    assert_eq!(
        run(dir, &new("game.yaml", &with_keys)).0,
        0,
        "a game to draw"
    );
    assert_eq!(
        run(dir, &["html", "game.yaml", "-o", "nodir/game.html"]),
        (
            2,
            String::new(),
            "error: nodir/game.html: the folder nodir does not exist\n".to_owned()
        )
    );
}

#[test]
fn a_key_file_missing_or_not_ed25519_is_named_with_its_option() {
    let dir = desk();
    let dir = dir.path();
    assert_eq!(
        run(
            dir,
            &new(
                "game.yaml",
                &["--opponent-key", "nope.pub", "--key", "alice"]
            )
        ),
        (
            2,
            String::new(),
            "error: nope.pub: No such file or directory (os error 2)\n\
             hint: --opponent-key takes a public key file (a .pub), or the key's own text in \
             quotes\n"
                .to_owned()
        )
    );
    for (key, kind) in [
        ("rsa_key", "an RSA key (ssh-rsa)"),
        ("ecdsa_key", "an ECDSA key (ecdsa-sha2-nistp256)"),
    ] {
        assert_eq!(
            run(
                dir,
                &new("game.yaml", &["--opponent-key", "bob.pub", "--key", key])
            ),
            (
                2,
                String::new(),
                format!(
                    "error: cannot sign: {key} is {kind}; correspond signs with Ed25519 keys \
                     only\n\
                     hint: make an Ed25519 key (ssh-keygen -t ed25519) and choose it with --key \
                     PATH\n"
                )
            )
        );
    }
    let import = |white: &str, black: &str| {
        run(
            dir,
            &[
                "import-pgn",
                "game.pgn",
                "game.yaml",
                "--white-key",
                white,
                "--black-key",
                black,
            ],
        )
    };
    assert_eq!(
        import("nope", "bob"),
        (
            2,
            String::new(),
            "error: cannot sign with --white-key: cannot read the key nope: No such file or \
             directory (os error 2)\n\
             hint: --white-key takes the path of the player's private key\n"
                .to_owned()
        )
    );
    assert_eq!(
        import("alice", "rsa_key"),
        (
            2,
            String::new(),
            "error: cannot sign with --black-key: rsa_key is an RSA key (ssh-rsa); correspond \
             signs with Ed25519 keys only\n\
             hint: make an Ed25519 key (ssh-keygen -t ed25519) and give it with --black-key\n"
                .to_owned()
        )
    );
    assert_eq!(
        import("alice", "alice"),
        (
            2,
            String::new(),
            "error: --white-key and --black-key are the same key: the two players must have \
             different keys\n\
             hint: give each player's own key; nothing was written\n"
                .to_owned()
        )
    );
    assert!(!dir.join("game.yaml").exists());
    assert!(!dir.join("journal").exists(), "nothing was signed");
}

#[test]
fn a_journal_that_is_a_file_is_named_as_such() {
    let dir = desk();
    let dir = dir.path();
    std::fs::write(dir.join("journal"), "not a folder\n").expect("write");
    assert_eq!(
        run(
            dir,
            &new(
                "game.yaml",
                &["--opponent-key", "bob.pub", "--key", "alice"]
            )
        ),
        (
            2,
            String::new(),
            format!(
                "error: the signing journal {0}: it is a file, not a folder; nothing was signed\n\
                 hint: check that {0} can be read and written\n",
                dir.join("journal").display()
            )
        )
    );
    assert!(!dir.join("game.yaml").exists());
}

#[test]
fn a_new_game_where_head_holds_a_file_the_work_tree_lost_is_refused() {
    let dir = desk();
    let dir = dir.path();
    crate::util::git(dir, &["init", "-q", "-b", "main"]);
    crate::util::git(dir, &["config", "user.name", "Alice"]);
    crate::util::git(dir, &["config", "user.email", "alice@example.org"]);
    let args = |path| {
        let mut args = new(path, &["--opponent-key", "bob.pub", "--key", "alice"]);
        args.pop();
        args
    };
    let (code, _, err) = run(dir, &args("game.yaml"));
    assert_eq!((code, err.as_str()), (0, ""));
    let head = crate::util::git(dir, &["rev-parse", "HEAD"]);
    std::fs::remove_file(dir.join("game.yaml")).expect("remove");
    assert_eq!(
        run(dir, &args("game.yaml")),
        (
            2,
            String::new(),
            "error: game.yaml is not in the work tree, but HEAD holds a file there: a new game in \
             its place would be committed over it\n\
             hint: bring it back (git checkout -- game.yaml), or choose another name; nothing was \
             written\n"
                .to_owned()
        )
    );
    assert!(!dir.join("game.yaml").exists());
    assert_eq!(crate::util::git(dir, &["rev-parse", "HEAD"]), head);
}

/// A folder given where one game file is read is named as a folder, with the command that reads
/// the games in a folder; a record number the file lacks is a usage error (2) with the command
/// that lists the records, alike for the three commands that take one.
#[test]
fn a_folder_for_a_game_file_or_a_record_the_file_lacks_says_what_to_run() {
    let dir = desk();
    let dir = dir.path();
    std::fs::create_dir(dir.join("club")).expect("mkdir");
    let with_keys = ["--opponent-key", "bob.pub", "--key", "alice"];
    assert_eq!(run(dir, &new("game.yaml", &with_keys)).0, 0);
    for command in ["status", "log", "show"] {
        assert_eq!(
            run(dir, &[command, "club"]),
            (
                2,
                String::new(),
                "error: club: not a regular file\n\
                 hint: this command takes one game file; `correspond games club` lists the games \
                 in a folder\n"
                    .to_owned()
            ),
            "{command}"
        );
    }
    let hint = "hint: `correspond log game.yaml` lists the records\n";
    for (args, says) in [
        (
            &["show", "game.yaml", "--at", "3"][..],
            "error: game.yaml has records 0 to 0; there is no record 3\n",
        ),
        (
            &["extract", "game.yaml", "3", "--signature"][..],
            "error: game.yaml: there is no document 3: the file has documents 0 to 0\n",
        ),
        (
            &[
                "mail",
                "game.yaml",
                "--from",
                "a@b.org",
                "--to",
                "c@d.org",
                "--since",
                "3",
            ][..],
            "error: --since 3: game.yaml has records 0 to 0\n",
        ),
    ] {
        assert_eq!(
            run(dir, args),
            (2, String::new(), format!("{says}{hint}")),
            "{args:?}"
        );
    }
}
