//! The crossing rule with leave (time controls): a leave that crossed a move is void and
//! signed again like an offer, and a leave signed instead of a void resignation is that
//! resignation withdrawn.

use crate::crossing::{exchange, key, started_with};

#[test]
fn a_leave_and_a_resignation_that_crossed_a_move_are_signed_again_and_taken_alike() {
    // bob moves while alice, whom the game did not await, takes leave and resigns: both of hers
    // are void, and `receive --settle` signs them again, in order, on top of his move. bob then
    // receives her void records and her settlement from one mailbox: the leave signed again
    // before the resignation is no resignation withdrawn.
    let root = tempfile::tempdir().expect("temp dir");
    let (alice, bob) = started_with(root.path(), &["--time-control", "3/move", "--leave", "5"]);
    alice.sign(&["play", "game.yaml", "e4"]);
    exchange(&alice, &bob);
    bob.sign(&["play", "game.yaml", "e5"]);
    bob.mail_to(&alice, "move.eml");
    alice.sign(&["leave", "game.yaml", "2"]);
    alice.sign(&["resign", "game.yaml"]);
    let (code, void, err) = alice.run(&["mail", "game.yaml", "--from", "a@example.org"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = alice.run(&[
        "receive",
        "--settle",
        "game.yaml",
        "move.eml",
        "--key",
        &key("alice"),
    ]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    // alice's clock is a day behind bob's: her records take the time of his, the last.
    let behind = "this machine's clock (2026-07-01T10:09:00Z) is behind the last record's time \
                  (2026-07-02T10:05:00Z): the record is dated 2026-07-02T10:05:00Z, since under \
                  a time control the times of a game never go backwards";
    assert_eq!(
        out.lines().take(6).collect::<Vec<_>>(),
        [
            "your records 3-4 void by the crossing rule (the game awaited the other player): \
             dropped",
            behind,
            behind,
            "record 3: bob (black) e5",
            "record 4: alice (white) takes 2 days of leave",
            "record 5: alice (white) resigns; game over: black wins: alice (white) resigned",
        ]
    );
    let (code, settled, err) = alice.run(&["mail", "game.yaml", "--from", "a@example.org"]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(
        bob.dir.join("in.mbox"),
        format!(
            "From alice Wed Jul  1 10:00:00 2026\n{void}\nFrom alice Wed Jul  1 10:30:00 2026\n\
             {settled}\n"
        ),
    )
    .expect("write");
    let (code, out, err) = bob.run(&["receive", "game.yaml", "--mbox", "in.mbox"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(
        out.lines()
            .map(|l| l.split(" ([correspond]").next().unwrap_or(l))
            .collect::<Vec<_>>(),
        [
            "record 4: alice (white) takes 2 days of leave",
            "record 5: alice (white) resigns; game over: black wins: alice (white) resigned",
            "passed over in.mbox, message 1",
            "result: black wins: alice (white) resigned",
        ],
        "{out}"
    );
    assert!(
        out.contains(
            "its record 3 (alice: leave 2 days) crossed the record 3 already received (signed by \
             bob, whom the game awaited) and is void by the crossing rule"
        ),
        "{out}"
    );
    assert_eq!(alice.file(), bob.file());
}

#[test]
fn a_fresh_leave_instead_of_a_void_resignation_signed_again_is_a_resignation_withdrawn() {
    // alice resigns while bob moves, which voids her resignation; instead of signing it again
    // she drops it by hand, takes bob's copy, and takes leave on top of his move. A leave that
    // her void copy does not hold is the game going on, so her resignation is not simply
    // crossed: whichever of her messages comes first, bob takes neither, is told that the
    // crossing rule does not settle it and that her leave is not taken, and keeps her void
    // version for an arbiter, to whom `compare` shows a resignation withdrawn.
    let root = tempfile::tempdir().expect("temp dir");
    let (alice, bob) = started_with(root.path(), &["--time-control", "3/move", "--leave", "5"]);
    alice.sign(&["play", "game.yaml", "e4"]);
    exchange(&alice, &bob);
    bob.sign(&["play", "game.yaml", "e5"]);
    alice.sign(&["resign", "game.yaml"]);
    let (code, void, err) = alice.run(&["mail", "game.yaml", "--from", "a@example.org"]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(alice.dir.join("game.yaml"), bob.file()).expect("write");
    alice.sign(&["leave", "game.yaml", "2"]);
    let (code, fresh, err) = alice.run(&["mail", "game.yaml", "--from", "a@example.org"]);
    assert_eq!(code, 0, "{err}");
    // The game's short id, as the subject line gives it.
    let subject_id = |message: &str| {
        let at = message.find("[correspond] chess ").expect("a subject") + 19;
        message[at..at + 8].to_owned()
    };
    let before = bob.file();
    for (n, messages) in [[&void, &fresh], [&fresh, &void]].iter().enumerate() {
        let mbox = format!("in-{n}.mbox");
        std::fs::write(
            bob.dir.join(&mbox),
            format!(
                "From alice Wed Jul  1 10:00:00 2026\n{}\nFrom alice Wed Jul  1 10:30:00 2026\n\
                 {}\n",
                messages[0], messages[1]
            ),
        )
        .expect("write");
        let (code, out, err) = bob.run(&["receive", "game.yaml", "--mbox", &mbox]);
        assert_eq!((code, err.as_str()), (1, ""), "{out}");
        assert_eq!(
            out,
            format!(
                "nothing taken: game.yaml holds records 0 to 3; what was received and not \
                 taken:\n\
                 passed over {mbox}, message {} ([correspond] chess {}: alice v bob): its record 3 \
                 (signed by alice) differs from the record 3 already received (signed by bob), \
                 and the crossing rule does not settle them: alice's resignation is void by the \
                 crossing rule, but alice's next record in the file, 4, is not that resignation \
                 signed again: a resignation stays a resignation\n  \
                 the other version is in game.rival-3.copy: `correspond compare game.yaml \
                 game.rival-3.copy` sets the two side by side\n\
                 passed over record 4 (alice: leave 2 days), received now, is not taken: \
                 alice's resignation, record 3, is void by the crossing rule, and what was signed \
                 in its place would withdraw it, which is for an arbiter\n",
                n + 1,
                subject_id(&void)
            )
        );
        assert_eq!(bob.file(), before, "nothing was written");
    }
    // An arbiter sets alice's own copy beside the one bob kept: she withdrew her resignation.
    let (code, out, err) = bob.run(&["compare", "../alice/game.yaml", "game.rival-3.copy"]);
    assert_eq!((code, err.as_str()), (1, ""), "{out}");
    assert_eq!(
        out,
        "../alice/game.yaml and game.rival-3.copy fork at record 3: bob signed move e7e5 in \
         ../alice/game.yaml (line 36), alice signed resign in game.rival-3.copy (line 36)\n\
         the crossing rule voids alice's resignation in game.rival-3.copy, and alice was to \
         sign it again on top of ../alice/game.yaml's record 3; alice's record 4 in \
         ../alice/game.yaml is something else instead: a resignation withdrawn, for an arbiter \
         (a resignation stays a resignation)\n"
    );
}
