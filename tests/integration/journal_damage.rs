//! The signing journal damaged: a command that needs a damaged part of it refuses to sign and
//! says where the damage is and what to do, and one that does not need that part goes on. A
//! damaged line never lets an honest player sign a second record at one place.

use crate::journal::{accepted, accepted_apart, created, desk, key, run};
use crate::util::{correspond, keys_dir};

#[test]
fn where_the_journal_lives_and_a_damaged_one_stops_signing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = |envs: &[(&str, &str)]| {
        let mut cmd = correspond();
        cmd.env_remove("CORRESPOND_JOURNAL")
            .env_remove("XDG_STATE_HOME");
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let out = cmd.args(["journal", "path"]).output().expect("run");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_eq!(
        path(&[("HOME", "/home/zoe")]),
        "/home/zoe/.local/state/correspond/journal\n"
    );
    assert_eq!(
        path(&[("HOME", "/home/zoe"), ("XDG_STATE_HOME", "/var/zoe")]),
        "/var/zoe/correspond/journal\n"
    );
    assert_eq!(
        path(&[("HOME", "/home/zoe"), ("XDG_STATE_HOME", "relative")]),
        "/home/zoe/.local/state/correspond/journal\n",
        "a relative XDG_STATE_HOME is ignored, as the XDG rules say"
    );
    assert_eq!(
        path(&[("HOME", "/home/zoe"), ("CORRESPOND_JOURNAL", "/srv/j")]),
        "/srv/j\n"
    );
    // A relative folder would be another journal in each folder a command runs in.
    let out = correspond()
        .env("CORRESPOND_JOURNAL", ".journal")
        .args(["journal", "path"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: CORRESPOND_JOURNAL is `.journal`, a relative path; nothing was signed\nhint: \
         give the journal's folder as an absolute path\n"
    );
    // A damaged journal: nothing is signed, and the hint says not to delete it.
    let journal = dir.path().join("journal");
    accepted(dir.path(), &journal, "game.yaml");
    let part = std::fs::read_dir(&journal)
        .expect("the journal")
        .next()
        .expect("a game's part")
        .expect("entry")
        .path();
    std::fs::write(&part, "{\"damaged\": true}\n").expect("damage");
    let before = std::fs::read(dir.path().join("game.yaml")).expect("read");
    let (code, out, err) = run(
        dir.path(),
        &journal,
        "2026-05-01T10:02:00Z",
        &[
            "play",
            "game.yaml",
            "e4",
            "--key",
            &key("alice"),
            "--no-commit",
        ],
    );
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains(", line 1: unknown field `damaged`")
            && err.contains("; nothing was signed\nhint: the journal keeps you from signing twice"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(dir.path().join("game.yaml")).expect("read"),
        before
    );
}

#[test]
fn a_line_damaged_past_its_place_stops_signing_only_where_it_is_looked_up() {
    let dir = tempfile::tempdir().expect("temp dir");
    let [alices, bobs] = ["alice", "bob"].map(|who| dir.path().join(format!("{who}-journal")));
    accepted_apart(dir.path(), [&alices, &bobs], "game.yaml");
    let play = |who: &str, mv: &str, minute: u32| {
        let journal = if who == "alice" { &alices } else { &bobs };
        run(
            dir.path(),
            journal,
            &format!("2026-05-01T10:{minute:02}:00Z"),
            &["play", "game.yaml", mv, "--key", &key(who), "--no-commit"],
        )
    };
    for (i, (who, mv)) in [
        ("alice", "e4"),
        ("bob", "e5"),
        ("alice", "Nf3"),
        ("bob", "Nc6"),
    ]
    .into_iter()
    .enumerate()
    {
        let (code, _, err) = play(who, mv, 2 + i as u32);
        assert_eq!(code, 0, "{mv}: {err}");
    }
    let part = std::fs::read_dir(&alices)
        .expect("alice's journal")
        .next()
        .expect("the game's part")
        .expect("entry")
        .path();
    // Alice's lines: the header, then records 2 (e4) and 4 (Nf3). Line 2's move is changed
    // inside its text: the line still starts as record 2's does.
    let damage = |line: usize, from: &str, to: &str| {
        let text = std::fs::read_to_string(&part).expect("read");
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        assert!(lines[line - 1].contains(from), "{}", lines[line - 1]);
        lines[line - 1] = lines[line - 1].replacen(from, to, 1);
        std::fs::write(&part, lines.join("\n") + "\n").expect("damage");
    };
    damage(2, "move: e2e4", "move: d2d4");
    // Signing record 6 looks up record 6's place and alice's last record in the file (4),
    // which vouches for what she checked: record 2's place is not looked up.
    let (code, out, err) = play("alice", "Bc4", 6);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            "record 6: alice (white) Bc4\nnow: bob (black) to move\n",
            ""
        )
    );
    let (code, _, err) = play("bob", "Nf6", 7);
    assert_eq!(code, 0, "{err}");
    // Her last record's line damaged the same way: the place that vouches is looked up, and
    // nothing is signed.
    damage(4, "move: f1c4", "move: f1b5");
    let before = std::fs::read(dir.path().join("game.yaml")).expect("read");
    let (code, out, err) = play("alice", "d3", 8);
    let err = err.replace(&part.display().to_string(), "PART");
    assert_eq!(
        (code, out.as_str(), err),
        (
            2,
            "",
            damaged_journal(
                4,
                "`digest` is not the SHA-256 of `text`",
                "nothing was signed"
            )
        )
    );
    assert_eq!(
        std::fs::read(dir.path().join("game.yaml")).expect("read"),
        before
    );
    // An export reads every line, and names the first damaged one.
    let (code, out, err) = run(
        dir.path(),
        &alices,
        "2026-05-01T10:09:00Z",
        &["journal", "export", "-o", "journal.json"],
    );
    let err = err.replace(&part.display().to_string(), "PART");
    assert_eq!(
        (code, out.as_str(), err),
        (
            2,
            "",
            damaged_journal(
                2,
                "`digest` is not the SHA-256 of `text`",
                "nothing was exported"
            )
        )
    );
}

#[test]
fn a_restored_backup_and_a_damaged_journal_line_never_make_a_second_record() {
    let (dir, journal) = desk();
    accepted(dir.path(), &journal, "game.yaml");
    let backup = std::fs::read(dir.path().join("game.yaml")).expect("read");
    let play = |mv: &str| {
        let args = [
            "play",
            "game.yaml",
            mv,
            "--key",
            &key("alice"),
            "--no-commit",
        ];
        run(dir.path(), &journal, "2026-05-01T10:02:00Z", &args)
    };
    let (code, _, err) = play("e4");
    assert_eq!(code, 0, "{err}");
    let part = std::fs::read_dir(&journal)
        .expect("the journal")
        .next()
        .expect("the game's part")
        .expect("entry")
        .path();
    let whole = std::fs::read_to_string(&part).expect("read");
    // Lines: alice's header, bob's acceptance, alice's e4 (record 2).
    let e4 = whole.lines().nth(2).expect("line 3");
    assert!(
        e4.contains("\"document\":2,") && e4.contains("move: e2e4"),
        "{e4}"
    );
    let bobs_key = std::fs::read_to_string(keys_dir().join("bob.pub")).expect("bob's key");
    let bobs_key = bobs_key
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    let alices_key = whole
        .lines()
        .next()
        .expect("line 1")
        .split('"')
        .nth(9)
        .expect("key");
    assert!(alices_key.starts_with("ssh-ed25519 "), "{alices_key}");
    let with_e4 = |damaged: &str| whole.replacen(e4, damaged, 1);
    // Record 2's number changed where the line starts, alice's key changed into bob's, or the
    // newline before the line lost (a bit flipped): each would leave record 2's place looking
    // empty, and let d4 be signed there.
    let acceptance = whole.lines().nth(1).expect("line 2");
    for (damaged, line, reason) in [
        (
            with_e4(&e4.replacen("\"document\":2,", "\"document\":3,", 1)),
            3,
            "the record is numbered 2, not 3".to_owned(),
        ),
        (
            with_e4(&e4.replacen(alices_key, &bobs_key, 1)),
            3,
            "its signature: the signature was made with the key \
             SHA256:emKI0eGvaPwYizUW9RXDn4NMH5hnUkJacDU90clW98w"
                .to_owned(),
        ),
        (
            whole.replacen(&format!("{acceptance}\n"), &format!("{acceptance}\u{b}"), 1),
            2,
            format!(
                "trailing characters at line 1 column {}",
                acceptance.chars().count() + 1
            ),
        ),
    ] {
        std::fs::write(&part, damaged).expect("damage");
        std::fs::write(dir.path().join("game.yaml"), &backup).expect("restore the backup");
        let (code, out, err) = play("d4");
        assert_eq!(
            (
                code,
                out.as_str(),
                err.replace(&part.display().to_string(), "PART")
            ),
            (2, "", damaged_journal(line, &reason, "nothing was signed"))
        );
        assert_eq!(
            std::fs::read(dir.path().join("game.yaml")).expect("read"),
            backup
        );
    }
}

/// What a command says when the journal's part at PART is damaged at `line`, and what it did
/// not do (`nothing was signed`).
fn damaged_journal(line: usize, reason: &str, nothing: &str) -> String {
    format!(
        "error: the signing journal PART, line {line}: {reason}; {nothing}\nhint: the journal \
         keeps you from signing twice at one place: repair the line, or restore the journal from \
         a backup; never delete it to get past this\n"
    )
}

#[test]
fn a_journal_line_that_cannot_be_written_whole_is_taken_back() {
    // A full disk, as a file size limit makes one: the journal's write fails part-way. The
    // line cut short is taken back, so the next command, once there is room, signs.
    let (dir, journal) = desk();
    let dir = dir.path();
    accepted(dir, &journal, "game.yaml");
    let part = std::fs::read_dir(&journal)
        .expect("the journal")
        .next()
        .expect("a game's part")
        .expect("entry")
        .path();
    let size = || std::fs::metadata(&part).expect("the part").len();
    let moves = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1",
    ];
    let play = |n: usize, limit: Option<u64>| {
        let (who, time) = (["alice", "bob"][n % 2], format!("2026-05-01T11:{n:02}:00Z"));
        let args = [
            "play",
            "game.yaml",
            moves[n],
            "--key",
            &key(who),
            "--no-commit",
        ];
        match limit {
            None => run(dir, &journal, &time, &args),
            // bash counts the limit in KiB; SIGXFSZ ignored, a write past it fails instead.
            Some(kib) => crate::util::transcript(
                assert_cmd::Command::new("bash")
                    .current_dir(dir)
                    .env("CORRESPOND_JOURNAL", &journal)
                    .env("CORRESPOND_TIME", &time)
                    .args([
                        "-c",
                        &format!("trap '' XFSZ; ulimit -f {kib}; exec \"$0\" \"$@\""),
                    ])
                    .arg(assert_cmd::cargo::cargo_bin("correspond"))
                    .args(args),
            ),
        }
    };
    // Moves until the next journal line, some 600 bytes, cannot fit under the next KiB.
    let mut n = 0;
    while (size() / 1024 + 1) * 1024 - size() > 300 {
        let (code, out, err) = play(n, None);
        assert_eq!(code, 0, "{out}{err}");
        n += 1;
    }
    let (before, file) = (size(), std::fs::read(dir.join("game.yaml")).expect("read"));
    let (code, out, err) = play(n, Some(before / 1024 + 1));
    let part_shown = part.display();
    assert_eq!(
        (code, out.as_str(), err),
        (
            2,
            "",
            format!(
                "error: the signing journal {part_shown}: File too large (os error 27); nothing \
                 was signed\nhint: check that {part_shown} can be read and written\n"
            )
        )
    );
    assert_eq!(size(), before, "the line cut short was taken back");
    assert_eq!(std::fs::read(dir.join("game.yaml")).expect("read"), file);
    let (code, out, err) = play(n, None);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
}

#[test]
fn an_import_stopped_by_damage_says_what_it_imported_and_a_second_one_adds_the_rest() {
    let (dir, desktop) = desk();
    let dir = dir.path();
    created(dir, &desktop, "2026-05-01T10:00:00Z", "one.yaml");
    created(dir, &desktop, "2026-05-01T10:30:00Z", "two.yaml");
    let export = ["journal", "export", "-o", "journal.json"];
    assert_eq!(run(dir, &desktop, "2026-05-01T11:00:00Z", &export).0, 0);
    let mut parts: Vec<String> = std::fs::read_dir(&desktop)
        .expect("the journal")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    parts.sort();
    assert_eq!(parts.len(), 2, "{parts:?}");
    // On the laptop, the part of the game whose id comes last is damaged.
    let laptop = dir.join("laptop");
    std::fs::create_dir(&laptop).expect("mkdir");
    let damaged = laptop.join(&parts[1]);
    std::fs::write(&damaged, "{\"damaged\": true}\n").expect("write");
    let import = ["journal", "import", "journal.json"];
    let (code, out, err) = run(dir, &laptop, "2026-05-01T11:01:00Z", &import);
    assert_eq!(
        (code, out.as_str(), err),
        (
            2,
            "",
            format!(
                "error: the signing journal {}, line 1: unknown field `damaged`, expected one of \
                 `game`, `document`, `key`, `digest`, `text` at line 1 column 10; the games whose \
                 ids come before this one were imported, the others not; once this is mended, \
                 import the file again: only what is missing is added\n\
                 hint: the journal keeps you from signing twice at one place: repair the line, \
                 or restore the journal from a backup; never delete it to get past this\n",
                damaged.display()
            )
        )
    );
    assert_eq!(
        std::fs::read(laptop.join(&parts[0])).expect("imported"),
        std::fs::read(desktop.join(&parts[0])).expect("exported"),
        "the first game was imported"
    );
    assert_eq!(
        std::fs::read_to_string(&damaged).expect("read"),
        "{\"damaged\": true}\n"
    );
    // Mended (the damaged line taken out), a second import adds only what is missing.
    std::fs::write(&damaged, "").expect("mend");
    assert_eq!(
        run(dir, &laptop, "2026-05-01T11:02:00Z", &import),
        (
            0,
            "imported journal.json: 1 new, 1 already here\n".to_owned(),
            String::new()
        )
    );
}
