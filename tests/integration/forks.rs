//! Two copies of one game that disagree: equivocation proved and checked (by `check-proof` and
//! by OpenSSH alone), a race told from cheating, and the git merge driver taking the longer
//! game or refusing a fork with what to do. The club and its helpers are in `disputes.rs`.

use crate::disputes::{Club, before_document, file, run, try_git, try_sh};
use crate::util::{correspond, keys_dir};

#[test]
fn equivocation_is_proved_and_the_proof_checks_with_openssh() {
    let club = Club::new();
    club.play(&["e4", "e5"]);
    // alice's second laptop holds a copy from before her third move; she moves on both.
    let laptop = club.dir.path().join("laptop.yaml");
    std::fs::copy(club.clone("alice").join("game.yaml"), &laptop).expect("copy");
    club.sign("alice", &["play", "game.yaml", "Nf3"]);
    club.sign_elsewhere(
        "alice",
        &["play", laptop.to_str().expect("UTF-8"), "d4", "--no-commit"],
    );
    let (code, out, err) = run(&club, "alice", &["compare", "game.yaml", "../laptop.yaml"]);
    assert_eq!(code, 1, "{err}");
    // Compared again, the proof already there is the same proof: said alike, not refused.
    let proof =
        std::fs::read(club.clone("alice").join("game.equivocation-4.proof")).expect("proof");
    assert_eq!(
        run(&club, "alice", &["compare", "game.yaml", "../laptop.yaml"]),
        (1, out.clone(), err.clone())
    );
    assert_eq!(
        std::fs::read(club.clone("alice").join("game.equivocation-4.proof")).expect("proof"),
        proof
    );
    let text = file(&club, "alice");
    let at = text.match_indices("\n---\n").nth(4).expect("record 4").0 + 1;
    let line = 1 + text[..at].matches('\n').count();
    assert_eq!(
        out,
        format!(
            "EQUIVOCATION: alice signed two different records numbered 4: move g1f3 in game.yaml \
             (line {line}), move d2d4 in ../laptop.yaml (line {line})\n\
             proof written to game.equivocation-4.proof: check it with `correspond check-proof \
             game.equivocation-4.proof`, or with OpenSSH alone (see the README)\n"
        )
    );
    let (code, out, _) = run(
        &club,
        "alice",
        &["check-proof", "game.equivocation-4.proof"],
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("valid proof: in game ")
            && out.contains(
                "alice signed two different records numbered 4: move g1f3 and move d2d4\n"
            )
            && out.contains("alice's key in the proof is SHA256:"),
        "{out}"
    );
    // An arbiter with OpenSSH alone: both records verify as alice's.
    let dir = club.clone("alice");
    let (_, signers, _) = run(
        &club,
        "alice",
        &[
            "extract",
            "game.equivocation-4.proof",
            "0",
            "--allowed-signers",
        ],
    );
    std::fs::write(dir.join("allowed"), signers).expect("write");
    for document in ["4", "5"] {
        let (_, bytes, _) = run(
            &club,
            "alice",
            &[
                "extract",
                "game.equivocation-4.proof",
                document,
                "--signed-bytes",
            ],
        );
        let (_, sig, _) = run(
            &club,
            "alice",
            &[
                "extract",
                "game.equivocation-4.proof",
                document,
                "--signature",
            ],
        );
        assert!(bytes.starts_with("---\nseq: 4\n"), "{bytes}");
        std::fs::write(dir.join("bytes"), &bytes).expect("write");
        std::fs::write(dir.join("sig"), sig).expect("write");
        let out = std::process::Command::new("ssh-keygen")
            .current_dir(&dir)
            .args([
                "-Y",
                "verify",
                "-f",
                "allowed",
                "-I",
                "alice",
                "-n",
                "correspond",
                "-s",
                "sig",
            ])
            .stdin(std::fs::File::open(dir.join("bytes")).expect("bytes"))
            .output()
            .expect("ssh-keygen");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // No proof is written over another file, and the verdict still stands.
    let proof = club.clone("alice").join("game.equivocation-4.proof");
    std::fs::write(&proof, "notes\n").expect("write");
    let (code, out, _) = run(&club, "alice", &["compare", "game.yaml", "../laptop.yaml"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("EQUIVOCATION: "), "{out}");
    assert!(
        out.contains("no proof written: game.equivocation-4.proof: "),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&proof).expect("read"), "notes\n");
}

#[test]
fn two_players_appending_at_once_is_a_race_not_equivocation() {
    let club = Club::new();
    club.play(&["e4", "e5"]);
    club.sign("bob", &["resign", "game.yaml"]);
    club.sign("alice", &["play", "game.yaml", "Nf3"]);
    club.git("alice", &["push", "-q"]);
    club.git("bob", &["fetch", "-q"]);
    let theirs = club.git("bob", &["show", "origin/main:game.yaml"]);
    std::fs::write(club.clone("bob").join("theirs.yaml"), theirs).expect("write");
    let (code, out, _) = run(&club, "bob", &["compare", "game.yaml", "theirs.yaml"]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with(
            "game.yaml and theirs.yaml fork at record 4: bob signed resign in game.yaml"
        ),
        "{out}"
    );
    assert!(
        out.contains("alice signed move g1f3 in theirs.yaml"),
        "{out}"
    );
    assert!(!club.clone("bob").join("game.equivocation-4.proof").exists());
    // Without bob's resignation, his copy is behind theirs, and nothing is in dispute.
    club.git("bob", &["reset", "-q", "--hard", "HEAD~1"]);
    let (code, out, _) = run(&club, "bob", &["compare", "game.yaml", "theirs.yaml"]);
    assert_eq!(code, 0, "{out}");
}

/// alice sets up the merge driver and commits `.gitattributes`; bob pulls it and sets up his
/// clone.
pub(crate) fn setup(club: &Club) {
    let said = |first: &str, second: &str| {
        format!(
            "{first}\n{second}\n\
             this clone's git configuration now runs `correspond merge-driver` for those files; \
             each player runs `correspond setup-git` once in their own clone\n\
             reflogs are kept for ever in this clone (gc.reflogExpire and \
             gc.reflogExpireUnreachable = never): they show a force-push to `correspond audit`\n\
             git pull merges diverged histories here (pull.rebase = false), so that the merge \
             driver runs\n"
        )
    };
    let (code, out, err) = run(club, "alice", &["setup-git"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        said(
            "added to .gitattributes: `*.yaml merge=correspond -text` (game files are merged \
             by correspond and kept byte for byte): commit it, so that every clone uses it",
            "added to .gitattributes: `*.yml merge=correspond -text` (game files are merged by \
             correspond and kept byte for byte): commit it, so that every clone uses it"
        )
    );
    club.git("alice", &["add", ".gitattributes"]);
    club.git(
        "alice",
        &["commit", "-q", "-m", "merge game files with correspond"],
    );
    club.git("alice", &["push", "-q"]);
    club.git("bob", &["pull", "-q"]);
    let (code, out, err) = run(club, "bob", &["setup-git"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        said(
            ".gitattributes already has `*.yaml merge=correspond -text`",
            ".gitattributes already has `*.yml merge=correspond -text`"
        )
    );
    for who in ["alice", "bob"] {
        assert_eq!(
            club.git(who, &["config", "--local", "gc.reflogExpire"]),
            "never\n"
        );
        assert_eq!(
            club.git(who, &["config", "--local", "gc.reflogExpireUnreachable"]),
            "never\n"
        );
        assert_eq!(
            club.git(who, &["config", "--local", "pull.rebase"]),
            "false\n"
        );
    }
}

#[test]
fn the_merge_driver_takes_the_longer_game_and_refuses_a_fork() {
    let club = Club::new();
    club.play(&["e4", "e5"]);
    setup(&club);
    assert_eq!(
        std::fs::read_to_string(club.clone("bob").join(".gitattributes")).expect("attributes"),
        "*.yaml merge=correspond -text\n*.yml merge=correspond -text\n"
    );
    // Other YAML files under the same pattern merge as git would merge them.
    std::fs::write(
        club.clone("alice").join("ci.yaml"),
        "a: 1\nb: 2\nc: 3\nd: 4\n",
    )
    .expect("write");
    club.git("alice", &["add", "ci.yaml"]);
    club.git("alice", &["commit", "-q", "-m", "ci"]);
    club.git("alice", &["push", "-q"]);
    club.git("bob", &["pull", "-q"]);
    std::fs::write(
        club.clone("alice").join("ci.yaml"),
        "a: 10\nb: 2\nc: 3\nd: 4\n",
    )
    .expect("write");
    club.git("alice", &["commit", "-q", "-am", "a"]);
    club.git("alice", &["push", "-q"]);
    std::fs::write(
        club.clone("bob").join("ci.yaml"),
        "a: 1\nb: 2\nc: 3\nd: 40\n",
    )
    .expect("write");
    club.git("bob", &["commit", "-q", "-am", "d"]);
    let (merged, out) = try_git(&club, "bob", &["pull", "--no-rebase", "--no-edit"]);
    assert!(merged, "{out}");
    assert_eq!(
        std::fs::read_to_string(club.clone("bob").join("ci.yaml")).expect("read"),
        "a: 10\nb: 2\nc: 3\nd: 40\n"
    );
    club.git("bob", &["push", "-q"]);
    club.git("alice", &["pull", "-q", "--no-rebase"]);
    // alice plays Nf3 and pushes; bob had it by mail, committed it, and answered Nc6.
    club.sign("alice", &["play", "game.yaml", "Nf3"]);
    club.git("alice", &["push", "-q"]);
    std::fs::copy(
        club.clone("alice").join("game.yaml"),
        club.clone("bob").join("game.yaml"),
    )
    .expect("the mailed copy");
    club.git("bob", &["commit", "-q", "-am", "alice's Nf3, by mail"]);
    club.sign("bob", &["play", "game.yaml", "Nc6"]);
    let (merged, out) = try_git(&club, "bob", &["pull", "--no-rebase", "--no-edit"]);
    assert!(merged, "{out}");
    assert!(
        out.contains("game.yaml: ours extends theirs; keeping ours"),
        "{out}"
    );
    assert!(file(&club, "bob").contains("move: b8c6"));
    let (code, audit) = club.audit("bob", &[]);
    assert_eq!(code, 0, "{audit}");
    club.git("bob", &["push", "-q"]);
    club.git("alice", &["pull", "-q", "--no-rebase"]);
    // Now both append record 6 at once: alice's Bb5 reaches the branch first; bob resigned,
    // with work of his own besides: notes committed before, and a draft not committed.
    club.sign("alice", &["play", "game.yaml", "Bb5"]);
    club.git("alice", &["push", "-q"]);
    let bob = club.clone("bob");
    std::fs::write(bob.join("notes.txt"), "bob's notes\n").expect("write");
    club.git("bob", &["add", "notes.txt"]);
    club.git("bob", &["commit", "-q", "-m", "notes"]);
    club.sign("bob", &["resign", "game.yaml"]);
    std::fs::write(bob.join("draft.txt"), "not committed\n").expect("write");
    let before = file(&club, "bob");
    let shared = club.git("alice", &["rev-parse", "HEAD"]);
    let (merged, out) = try_git(&club, "bob", &["pull", "--no-rebase", "--no-edit"]);
    assert!(!merged, "{out}");
    let resolve = "git checkout --ours -- ':(top,literal)game.yaml' && git add ':(top,literal)game.yaml' && git rebase \
                   --continue";
    let advice = format!(
        "game.yaml: both sides appended record 6: alice signed move f1b5 as record 6 while bob \
         signed resign here: the shared version stands, so drop your local record and take the \
         shared version (`git merge --abort && git rebase --autostash {}`, then, where the \
         rebase stops at your record, `{resolve}`: your other commits and changes are kept; \
         your record was never shared)",
        &shared.trim()[..12]
    );
    assert!(out.contains(&advice), "{out}");
    assert!(!out.contains("reset --hard"), "{out}");
    assert_eq!(
        file(&club, "bob"),
        before,
        "bob's version is left as it was"
    );
    let (code, verified, _) = run(&club, "bob", &["verify", "game.yaml"]);
    assert_eq!(code, 0, "{verified}");
    // The advice, followed as written: the rebase stops at bob's record, where the driver says
    // how to drop it, and then goes on.
    let commands: Vec<&str> = advice.split('`').skip(1).step_by(2).collect();
    assert_eq!(commands.len(), 2, "{advice}");
    let (rebased, out) = try_sh(&club, "bob", commands[0]);
    assert!(!rebased, "{out}");
    assert!(
        out.contains(&format!(
            "game.yaml: both sides appended record 6: alice signed move f1b5 as record 6 while \
             bob signed resign here: the shared version stands, so drop your local record and \
             take the shared version (`{resolve}`: your other commits and changes are kept; \
             your record was never shared)"
        )),
        "{out}"
    );
    let (rebased, out) = try_sh(&club, "bob", commands[1]);
    assert!(rebased, "{out}");
    // The shared game, bob's notes still committed on top, his draft still there.
    assert_eq!(file(&club, "bob"), file(&club, "alice"));
    assert_eq!(
        club.git("bob", &["log", "--format=%s", "-2"]),
        format!(
            "notes\n{}",
            club.git("alice", &["log", "--format=%s", "-1"])
        )
    );
    assert_eq!(
        std::fs::read_to_string(bob.join("draft.txt")).expect("the draft"),
        "not committed\n"
    );
    // The shared branch stays clean once bob pushes his notes.
    club.git("bob", &["push", "-q"]);
    club.git("alice", &["pull", "-q", "--no-rebase"]);
    let (code, out) = club.audit("alice", &[]);
    assert_eq!(code, 0, "{out}");
    // bob's own branch was moved back over his void resignation, as the advice said: his
    // audit reads that as the crossing rule's, not as a record taken back.
    let (code, out) = club.audit("bob", &[]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("VIOLATION"), "{out}");
    // The same race met by `git pull --rebase`, where git swaps ours and theirs.
    club.sign("bob", &["play", "game.yaml", "a6"]);
    club.git("bob", &["push", "-q"]);
    club.git("alice", &["pull", "-q"]);
    club.sign("alice", &["play", "game.yaml", "Ba4"]);
    club.git("alice", &["push", "-q"]);
    club.sign("bob", &["resign", "game.yaml"]);
    let onto = club.git("alice", &["rev-parse", "HEAD"]);
    let (rebased, out) = try_git(&club, "bob", &["pull", "--rebase", "--autostash"]);
    assert!(!rebased, "{out}");
    assert!(
        out.contains(&format!(
            "game.yaml: both sides appended record 8: alice signed move b5a4 as record 8 while \
             bob signed resign here: the shared version stands, so drop your local record and \
             take the shared version (`{resolve}`: your other commits and changes are kept; \
             your record was never shared)"
        )),
        "{out}"
    );
    let (rebased, out) = try_sh(&club, "bob", resolve);
    assert!(rebased, "{out}");
    assert!(file(&club, "bob").contains("move: b5a4"));
    assert_eq!(club.git("bob", &["rev-parse", "HEAD"]), onto);
    assert_eq!(
        std::fs::read_to_string(bob.join("draft.txt")).expect("the draft"),
        "not committed\n"
    );
}

#[test]
fn the_merge_driver_proves_equivocation() {
    let club = Club::new();
    club.play(&["e4", "e5"]);
    setup(&club);
    // alice, on two machines, signs two different third moves; one reaches the branch.
    std::fs::copy(
        club.clone("alice").join("game.yaml"),
        club.clone("bob").join("game.yaml"),
    )
    .expect("alice's second machine");
    club.sign("alice", &["play", "game.yaml", "Nf3"]);
    club.git("alice", &["push", "-q"]);
    let other = club.clone("bob").join("game.yaml");
    let out = correspond()
        .current_dir(club.clone("bob"))
        .env("CORRESPOND_JOURNAL", club.dir.path().join("alice-laptop"))
        .env("CORRESPOND_TIME", "2026-03-01T11:00:00Z")
        .args([
            "play",
            other.to_str().expect("UTF-8"),
            "d4",
            "--no-commit",
            "--key",
        ])
        .arg(keys_dir().join("alice"))
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    club.git("bob", &["commit", "-q", "-am", "alice's d4"]);
    let (merged, out) = try_git(&club, "bob", &["pull", "--no-rebase", "--no-edit"]);
    assert!(!merged, "{out}");
    assert!(
        out.contains(
            "game.yaml: both sides claim record 4, and alice signed both (move g1f3 in the shared \
             version, move d2d4 in the local one): that is equivocation; the proof is in \
             game.equivocation-4.proof"
        ),
        "{out}"
    );
    let (code, checked, _) = run(&club, "bob", &["check-proof", "game.equivocation-4.proof"]);
    assert_eq!(code, 0, "{checked}");
}

#[test]
fn the_merge_driver_takes_theirs_when_it_extends_ours_and_never_writes_a_bad_file() {
    let club = Club::new();
    club.play(&["e4", "e5", "Nf3"]);
    let dir = club.clone("alice");
    let full = file(&club, "alice");
    let short = before_document(&full, 4).to_owned();
    std::fs::write(dir.join("base"), before_document(&full, 3)).expect("write");
    std::fs::write(dir.join("ours"), &short).expect("write");
    std::fs::write(dir.join("theirs"), &full).expect("write");
    let (code, out, err) = run(
        &club,
        "alice",
        &["merge-driver", "base", "ours", "theirs", "game.yaml"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "game.yaml: theirs extends ours by record 4; taking theirs\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("ours")).expect("read"),
        full
    );
    // Theirs longer but forged: nothing is written.
    std::fs::write(dir.join("ours"), &short).expect("write");
    std::fs::write(dir.join("theirs"), full.replace("move: g1f3", "move: g1h3")).expect("write");
    let (code, _, err) = run(
        &club,
        "alice",
        &["merge-driver", "base", "ours", "theirs", "game.yaml"],
    );
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: game.yaml: the shared version does not verify: record 4"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("ours")).expect("read"),
        short
    );
}

/// `text` with a move record appended, signed by `who`: numbered, chained and signed as the
/// record writer does, but not checked, since `correspond` itself refuses to sign a move out
/// of turn or an illegal one.
fn hand_made(text: &str, who: &str, mv: &str) -> String {
    use correspond::log::{Action, GameFile, Timestamp};
    use correspond::writer::{next_record, sign_record};
    let game = GameFile::parse(text.as_bytes()).expect("a game file");
    let seat = correspond::replay::seat_named(&game, who).expect("a player");
    let time = Timestamp::parse("2026-03-01T11:30:00Z").expect("time");
    let record = next_record(&game, seat, Action::Move(mv.to_owned()), time);
    let key = ssh_key::PrivateKey::read_openssh_file(&keys_dir().join(who)).expect("key");
    let signer = correspond::sign::KeySigner::new(key).expect("ed25519");
    format!("{text}{}", sign_record(&record, &signer).expect("sign"))
}

/// `who` appends to their copy a move signed out of turn, and commits it.
fn out_of_turn(club: &Club, who: &str, mv: &str) {
    crate::disputes::write(club, who, &hand_made(&file(club, who), who, mv));
    club.git(who, &["commit", "-q", "-am", &format!("{who} plays {mv}")]);
}

#[test]
fn a_rival_that_breaks_the_rules_is_never_the_one_kept() {
    // bob, at alice's turn, pushes a move of his own first; alice has played Nf3 meanwhile.
    let club = Club::new();
    club.play(&["e4", "e5"]);
    setup(&club);
    out_of_turn(&club, "bob", "b8c6");
    club.git("bob", &["push", "-q"]);
    club.sign("alice", &["play", "game.yaml", "Nf3"]);
    let before = file(&club, "alice");
    let line = 1 + before[..before.rfind("---\nseq: 4").expect("record 4")]
        .matches('\n')
        .count();
    let (merged, out) = try_git(&club, "alice", &["pull", "--no-rebase", "--no-edit"]);
    assert!(!merged, "{out}");
    assert!(
        out.contains(&format!(
            "error: game.yaml: both sides appended record 4 (bob signed move b8c6 in the shared \
             version, alice signed move g1f3 in the local one): the shared version does not \
             verify (record 4 (line {line}): not bob's turn: alice (white) to move), so it is no \
             game to take; keep your version (`git merge --abort`) and show the shared history \
             to an arbiter (`correspond audit game.yaml` after fetching)\n\
             hint: nothing was merged; your version is left as it was\n"
        )),
        "{out}"
    );
    assert!(!out.contains("reset --hard"), "{out}");
    assert_eq!(file(&club, "alice"), before);
    // compare, in alice's clone, says the same.
    club.git("alice", &["merge", "--abort"]);
    let shared = club.git("alice", &["show", "origin/main:game.yaml"]);
    std::fs::write(club.clone("alice").join("shared.yaml"), shared).expect("write");
    let (code, out, err) = run(&club, "alice", &["compare", "game.yaml", "shared.yaml"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            1,
            format!(
                "game.yaml and shared.yaml fork at record 4: alice signed move g1f3 in game.yaml \
                 (line {line}), bob signed move b8c6 in shared.yaml (line {line})\n\
                 shared.yaml does not verify: record 4 (line {line}): not bob's turn: alice \
                 (white) to move\n\
                 game.yaml stands: keep it\n"
            )
            .as_str(),
            ""
        )
    );
    // The other way round: the invalid record is the local one, and the shared version stands.
    let club = Club::new();
    club.play(&["e4", "e5"]);
    setup(&club);
    club.sign("alice", &["play", "game.yaml", "Nf3"]);
    club.git("alice", &["push", "-q"]);
    out_of_turn(&club, "bob", "b8c6");
    let (merged, out) = try_git(&club, "bob", &["pull", "--no-rebase", "--no-edit"]);
    assert!(!merged, "{out}");
    let shared = club.git("bob", &["rev-parse", "origin/main"]);
    assert!(
        out.contains(&format!(
            "error: game.yaml: both sides appended record 4: your version does not verify \
             (record 4 (line {line}): not bob's turn: alice (white) to move): the shared version \
             stands, so drop your local record and take the shared version (`git merge --abort \
             && git rebase --autostash {}`, then, where the rebase stops at your record, `git \
             checkout --ours -- ':(top,literal)game.yaml' && git add ':(top,literal)game.yaml' && git rebase --continue`: \
             your other commits and changes are kept; your record was never shared)\n",
            &shared.trim()[..12]
        )),
        "{out}"
    );
    // Both copies broken (bob's move out of turn; alice's illegal one): neither is kept.
    let before_bob = before_document(&file(&club, "bob"), 4).to_owned();
    std::fs::write(
        club.clone("bob").join("other.yaml"),
        hand_made(&before_bob, "alice", "a1a8"),
    )
    .expect("write");
    let (code, out, _) = run(&club, "bob", &["compare", "game.yaml", "other.yaml"]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        format!(
            "game.yaml and other.yaml fork at record 4: bob signed move b8c6 in game.yaml (line \
             {line}), alice signed move a1a8 in other.yaml (line {line})\n\
             game.yaml does not verify: record 4 (line {line}): not bob's turn: alice (white) to \
             move\n\
             other.yaml does not verify: record 4 (line {line}): illegal move a1a8: a rook on a1 \
             cannot move to a8\n\
             neither copy verifies: keep a copy that ends before record 4, and show both to an \
             arbiter\n"
        )
    );
}
