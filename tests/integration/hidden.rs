//! Hidden conditional lines through the commands, as whole transcripts
//! (docs/conditional-moves.md): replies revealed by their author's `play`, charged no time; a
//! deviation answered by a disclosure before the author's move; everything else refused while
//! the answer is owed; an author who never answers, claimed on time; an author whose machine
//! does not keep the lines; a game by mail, and a withdrawal that crosses the opponent's move
//! there; and the merge driver, with a conditional reply on one side and hidden lines on the
//! other. Hostile records of each kind are in `tests/invalid/hidden-*.yaml`.

use crate::conditional::Table;

#[test]
fn replies_are_revealed_charged_no_time_and_a_deviation_is_answered_by_a_disclosure() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut t = Table::chess(dir.path(), &["--time-control", "3/10"]);
    t.sign(
        "alice",
        &[
            "play",
            "g.yaml",
            "e4",
            "--if",
            "e5 Nf3 Nc6 Bb5",
            "--if",
            "c5 Nf3",
            "--hidden",
        ],
    );
    // On alice's machine, whose journal keeps the lines, and on bob's, which does not.
    t.run(None, &["status", "g.yaml"]);
    t.journal = Some(dir.path().join("bob's journal"));
    t.run(None, &["status", "g.yaml"]);
    t.journal = None;
    t.sign("bob", &["play", "g.yaml", "e5"]);
    // Until alice answers, bob can neither move nor offer, and his `play --if` says why first.
    t.run(Some("bob"), &["play", "g.yaml", "Nc6"]);
    t.run(Some("bob"), &["offer-draw", "g.yaml"]);
    t.run(None, &["status", "g.yaml"]);
    // alice's own promise decides her move.
    t.run(Some("alice"), &["play", "g.yaml", "Nc3"]);
    t.sign("alice", &["play", "g.yaml", "Nf3"]);
    t.run(
        Some("bob"),
        &["play", "g.yaml", "d6", "--if", "d4 exd4", "--hidden"],
    );
    t.sign("bob", &["play", "g.yaml", "d6"]);
    t.sign("alice", &["play", "g.yaml", "d4", "-m", "no line for d6"]);
    t.run(None, &["status", "g.yaml"]);
    t.run(None, &["status", "g.yaml", "--json"]);
    t.run(None, &["log", "g.yaml"]);
    t.run(None, &["pgn", "g.yaml"]);
    t.run(None, &["verify", "g.yaml"]);
    insta::assert_snapshot!(t.said);
}

#[test]
fn an_author_who_does_not_answer_is_claimed_on_time_and_lines_not_kept_cannot_answer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut t = Table::chess(dir.path(), &["--time-control", "10/3"]);
    t.sign(
        "alice",
        &["play", "g.yaml", "d4", "--if", "d5 c4", "--hidden"],
    );
    t.sign("bob", &["play", "g.yaml", "d5"]);
    // On a machine whose journal does not keep the lines, alice can neither reveal nor
    // disclose, and nothing is signed.
    let elsewhere = dir.path().join("elsewhere");
    t.journal = Some(elsewhere);
    t.run(Some("alice"), &["play", "g.yaml", "c4"]);
    t.journal = None;
    // Her clock runs while her answer is owed: past her three days, bob claims the game.
    t.hour += 72;
    t.run(None, &["status", "g.yaml"]);
    t.sign("bob", &["claim-timeout", "g.yaml"]);
    t.run(None, &["status", "g.yaml"]);
    insta::assert_snapshot!(t.said);
}

#[test]
fn a_reveal_past_the_deadline_is_charged_and_leave_may_come_while_an_answer_is_owed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut t = Table::chess(dir.path(), &["--time-control", "10/3", "--leave", "5"]);
    t.sign(
        "alice",
        &["play", "g.yaml", "d4", "--if", "d5 c4", "--hidden"],
    );
    t.sign("bob", &["play", "g.yaml", "d5"]);
    // bob's move ended any leave of his; he may take one while her answer is owed.
    t.sign("bob", &["leave", "g.yaml", "2"]);
    t.hour += 72;
    // Unclaimed past her deadline, her reveal is charged whole, and she is overdue.
    t.sign("alice", &["play", "g.yaml", "c4"]);
    t.run(None, &["status", "g.yaml"]);
    insta::assert_snapshot!(t.said);
}

#[test]
fn a_reveal_in_time_gives_back_the_whole_wait_a_leave_in_between_included() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut t = Table::chess(dir.path(), &["--time-control", "10/3", "--leave", "5"]);
    t.sign(
        "alice",
        &["play", "g.yaml", "d4", "--if", "d5 c4", "--hidden"],
    );
    t.sign("bob", &["play", "g.yaml", "d5"]);
    // bob's leave, a day after his move, charges that day to alice, whose answer is owed...
    t.hour += 24;
    t.sign("bob", &["leave", "g.yaml", "1"]);
    t.run(None, &["status", "g.yaml"]);
    // ...and her reveal in time gives it back with the rest of the wait: her d4's hour is all.
    t.sign("alice", &["play", "g.yaml", "c4", "--offer-draw"]);
    t.run(None, &["status", "g.yaml"]);
    insta::assert_snapshot!(t.said);
}

#[test]
fn a_reply_that_ends_the_lines_withdraws_them_and_disclose_comes_before_an_offer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut t = Table::chess(dir.path(), &[]);
    t.sign(
        "alice",
        &["play", "g.yaml", "e4", "--if", "e5 Nf3 Nc6 Bb5", "--hidden"],
    );
    t.sign("bob", &["play", "g.yaml", "e5"]);
    // Her answer comes first: no withdrawal now, no offer with a reply her line goes on from,
    // and no disclosure where a line answers.
    t.run(Some("alice"), &["withdraw", "g.yaml"]);
    t.run(Some("alice"), &["play", "g.yaml", "Nf3", "--offer-draw"]);
    t.run(Some("alice"), &["disclose", "g.yaml"]);
    t.sign("alice", &["play", "g.yaml", "Nf3"]);
    t.sign("bob", &["play", "g.yaml", "Nc6"]);
    // Bb5 ends her only line: her `play` withdraws the lines after it.
    t.sign("alice", &["play", "g.yaml", "Bb5"]);
    t.sign("bob", &["play", "g.yaml", "a6"]);
    t.sign(
        "alice",
        &["play", "g.yaml", "Ba4", "--if", "b5 Bb3", "--hidden"],
    );
    t.sign("bob", &["play", "g.yaml", "d6"]);
    // d6 meets no line: she discloses them alone, then offers a draw instead of moving.
    t.run(
        Some("alice"),
        &["disclose", "g.yaml", "-m", "here they are"],
    );
    t.sign("alice", &["disclose", "g.yaml"]);
    t.sign("alice", &["offer-draw", "g.yaml"]);
    t.run(None, &["log", "g.yaml"]);
    insta::assert_snapshot!(t.said);
}

/// A game by mail in which alice's e4 commits to the hidden line `e5 Nf3`, and bob's e5, which
/// owes her answer, is in the mail to her as `e5.eml`.
fn e5_in_the_mail(root: &std::path::Path) -> (crate::crossing::Player, crate::crossing::Player) {
    let (alice, bob) = crate::crossing::started_with(root, &[]);
    alice.sign(&["play", "game.yaml", "e4", "--if", "e5 Nf3", "--hidden"]);
    crate::crossing::exchange(&alice, &bob);
    bob.sign(&["play", "game.yaml", "e5"]);
    bob.mail_to(&alice, "e5.eml");
    (alice, bob)
}

#[test]
fn by_mail_a_hidden_reply_travels_with_its_proof_and_both_copies_agree() {
    let root = tempfile::tempdir().expect("temp dir");
    let (alice, bob) = e5_in_the_mail(root.path());
    let mut said = String::new();
    alice.transcribe(&mut said, "alice", &["receive", "game.yaml", "e5.eml"]);
    alice.transcribe(&mut said, "alice", &["status", "game.yaml"]);
    let alice_key = crate::crossing::key("alice");
    let reveal = ["play", "game.yaml", "Nf3", "--key", &alice_key];
    alice.transcribe(&mut said, "alice", &reveal);
    alice.mail_to(&bob, "nf3.eml");
    bob.transcribe(&mut said, "bob", &["receive", "game.yaml", "nf3.eml"]);
    bob.transcribe(&mut said, "bob", &["status", "game.yaml"]);
    bob.transcribe(&mut said, "bob", &["verify", "game.yaml"]);
    insta::assert_snapshot!(crate::crossing::without_keys_dir(&said));
    assert_eq!(alice.file(), bob.file());
}

#[test]
fn a_withdrawal_of_hidden_lines_that_crosses_the_opponents_move_is_too_late() {
    let root = tempfile::tempdir().expect("temp dir");
    // bob's e5 owes her answer; she withdraws before it reaches her.
    let (alice, bob) = e5_in_the_mail(root.path());
    alice.sign(&["withdraw", "game.yaml"]);
    alice.mail_to(&bob, "withdraw.eml");
    let mut said = String::new();
    bob.transcribe(&mut said, "bob", &["receive", "game.yaml", "withdraw.eml"]);
    let alice_key = crate::crossing::key("alice");
    let settle = [
        "receive",
        "--settle",
        "game.yaml",
        "e5.eml",
        "--key",
        &alice_key,
    ];
    alice.transcribe(&mut said, "alice", &settle);
    // Her promise stands: her `play` reveals Nf3, and refuses any other move first.
    for mv in ["d4", "Nf3"] {
        alice.transcribe(
            &mut said,
            "alice",
            &["play", "game.yaml", mv, "--key", &alice_key],
        );
    }
    alice.mail_to(&bob, "nf3.eml");
    bob.transcribe(&mut said, "bob", &["receive", "game.yaml", "nf3.eml"]);
    bob.transcribe(&mut said, "bob", &["log", "game.yaml"]);
    insta::assert_snapshot!(crate::crossing::without_keys_dir(&said));
    assert_eq!(alice.file(), bob.file());
}

#[test]
fn the_merge_driver_reads_conditional_replies_and_hidden_lines() {
    use crate::disputes::{Club, file, try_git};
    use crate::forks::setup;
    let club = Club::new();
    club.play(&["e4", "e5"]);
    setup(&club);
    // alice plays Nf3 with a line and pushes; bob had it by mail, committed it, and his Nc6
    // meets the line, so his `play` appends her Bb5.
    club.sign("alice", &["play", "game.yaml", "Nf3", "--if", "Nc6 Bb5"]);
    club.git("alice", &["push", "-q"]);
    let by_mail = |from: &str, to: &str| {
        std::fs::copy(
            club.clone(from).join("game.yaml"),
            club.clone(to).join("game.yaml"),
        )
        .expect("the mailed copy");
        club.git(to, &["commit", "-q", "-am", "by mail"]);
    };
    by_mail("alice", "bob");
    club.sign("bob", &["play", "game.yaml", "Nc6"]);
    let (merged, out) = try_git(&club, "bob", &["pull", "--no-rebase", "--no-edit"]);
    assert!(merged, "{out}");
    assert!(
        out.contains("game.yaml: ours extends theirs; keeping ours"),
        "{out}"
    );
    assert!(file(&club, "bob").contains("kind: applied\nmove: f1b5\n"));
    club.git("bob", &["push", "-q"]);
    club.git("alice", &["pull", "-q", "--no-rebase"]);
    // Now bob's hidden lines: alice's Ba4, by mail, owes his answer, and her merge keeps it.
    club.sign(
        "bob",
        &["play", "game.yaml", "a6", "--if", "Ba4 Nf6", "--hidden"],
    );
    club.git("bob", &["push", "-q"]);
    by_mail("bob", "alice");
    club.sign("alice", &["play", "game.yaml", "Ba4"]);
    let (merged, out) = try_git(&club, "alice", &["pull", "--no-rebase", "--no-edit"]);
    assert!(merged, "{out}");
    assert!(
        out.contains("game.yaml: ours extends theirs; keeping ours"),
        "{out}"
    );
    club.git("alice", &["push", "-q"]);
    club.git("bob", &["pull", "-q", "--no-rebase"]);
    club.sign("bob", &["play", "game.yaml", "Nf6"]);
    club.git("bob", &["push", "-q"]);
    assert!(file(&club, "bob").contains("kind: reveal\nmove: g8f6\n"));
    let (code, audit) = club.audit("bob", &[]);
    assert_eq!(code, 0, "{audit}");
    assert!(audit.contains("0 violations"), "{audit}");
}
