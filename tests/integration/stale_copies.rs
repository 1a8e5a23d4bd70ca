//! A player with two copies of a game (a desk and a laptop, one signing journal) who signs on
//! the copy that is behind: a record there would fork from a record of the other player's that
//! they had built on, which reads as taking it back, evidence against them. The journal sees
//! it and nothing is signed. Records of theirs that crossed the other's in the mail and were
//! signed again on top of it are no such fork (tests/integration/crossing.rs plays those).

use crate::util::{correspond, keys_dir, transcript};
use std::path::{Path, PathBuf};

const ALICE: &str = "SHA256:emKI0eGvaPwYizUW9RXDn4NMH5hnUkJacDU90clW98w";

/// A copy of the game in its own folder, played with a journal and key.
struct Copy {
    dir: PathBuf,
    journal: PathBuf,
    key: &'static str,
}

impl Copy {
    fn new(root: &Path, name: &str, journal: &str, key: &'static str) -> Copy {
        let dir = root.join(name);
        std::fs::create_dir(&dir).expect("mkdir");
        Copy {
            dir,
            journal: root.join(journal),
            key,
        }
    }

    fn run(&self, args: &[&str]) -> (i32, String, String) {
        transcript(
            correspond()
                .current_dir(&self.dir)
                .env("CORRESPOND_JOURNAL", &self.journal)
                .env("CORRESPOND_TIME", "2026-07-01T10:00:00Z")
                .args(args),
        )
    }

    fn sign(&self, args: &[&str]) -> (i32, String, String) {
        let key = keys_dir().join(self.key);
        let mut all = args.to_vec();
        all.extend(["--key", key.to_str().expect("UTF-8")]);
        self.run(&all)
    }

    fn signed(&self, args: &[&str]) {
        let (code, out, err) = self.sign(args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
    }

    /// Mails this copy's latest records to `to`, which receives them (`--new` for a first).
    fn mail_to(&self, to: &Copy, new: bool) {
        let (code, message, err) = self.run(&["mail", "game.yaml", "--from", "x@example.org"]);
        assert_eq!(code, 0, "{err}");
        std::fs::write(to.dir.join("in.eml"), message).expect("write");
        let args: &[&str] = if new {
            &["receive", "--new", "game.yaml", "in.eml"]
        } else {
            &["receive", "game.yaml", "in.eml"]
        };
        let (code, out, err) = to.run(args);
        assert_eq!(code, 0, "{out}{err}");
    }

    fn file(&self) -> Vec<u8> {
        std::fs::read(self.dir.join("game.yaml")).expect("read")
    }
}

/// alice's desk and laptop (one journal) and bob, a game of `game` created by alice on her
/// desk and accepted by bob, the desk holding his acceptance and the laptop the header alone.
fn three(root: &Path, game: &str, side: &str) -> [Copy; 3] {
    let desk = Copy::new(root, "desk", "alice-journal", "alice");
    let laptop = Copy::new(root, "laptop", "alice-journal", "alice");
    let bob = Copy::new(root, "bob", "bob-journal", "bob");
    let bob_pub = keys_dir().join("bob.pub");
    desk.signed(&[
        "new",
        game,
        "game.yaml",
        "--name",
        "alice",
        "--side",
        side,
        "--opponent",
        "bob",
        "--opponent-key",
        bob_pub.to_str().expect("UTF-8"),
    ]);
    std::fs::write(laptop.dir.join("game.yaml"), desk.file()).expect("copy");
    desk.mail_to(&bob, true);
    bob.signed(&["accept", "game.yaml"]);
    bob.mail_to(&desk, false);
    [desk, laptop, bob]
}

#[test]
fn a_copy_behind_the_one_played_on_cannot_take_back_what_its_player_built_on() {
    let root = tempfile::tempdir().expect("temp dir");
    let [desk, laptop, bob] = three(root.path(), "chess", "white");
    std::fs::write(laptop.dir.join("game.yaml"), desk.file()).expect("copy");
    // bob offers a draw out of turn; alice sees it on her desk and plays on (the offer lapses).
    bob.signed(&["offer-draw", "game.yaml"]);
    bob.mail_to(&desk, false);
    desk.signed(&["play", "game.yaml", "e4"]);
    let laptop_before = laptop.file();
    let refusal = format!(
        "error: your key {ALICE} already signed record 3 (move e2e4, signed \
         2026-07-01T10:00:00Z) of this game, on top of a record 2 by another, and game.yaml does \
         not have that record 2: a record signed here would take back what you built on, \
         evidence against you; nothing was signed\n\
         hint: bring the copy you played on here (git pull, or correspond receive the other \
         player's mail), and sign there\n"
    );
    for args in [
        &["play", "game.yaml", "d4"][..],
        &["resign", "game.yaml"],
        &["offer-draw", "game.yaml"],
    ] {
        assert_eq!(
            laptop.sign(args),
            (1, String::new(), refusal.clone()),
            "{args:?}"
        );
    }
    assert_eq!(laptop.file(), laptop_before, "nothing was written");
    // Brought up to date, the laptop signs on.
    bob.mail_to(&laptop, false);
    desk.mail_to(&laptop, false);
    assert_eq!(laptop.file(), desk.file());
    laptop.signed(&["offer-draw", "game.yaml"]);
}

#[test]
fn a_second_version_of_the_other_players_record_gets_no_second_answer() {
    // Campaign: bob's acceptance answers alice's coin flip, and alice reveals it. A second
    // acceptance by bob (here with a comment; by a cheat, with a nonce chosen after seeing the
    // reveal) reaches alice's laptop: revealing again there would answer it too.
    let root = tempfile::tempdir().expect("temp dir");
    let [desk, laptop, bob] = three(root.path(), "campaign", "heads");
    desk.signed(&["reveal", "game.yaml"]);
    let bob_again = Copy::new(root.path(), "bob-again", "bob-again-journal", "bob");
    std::fs::write(bob_again.dir.join("game.yaml"), laptop.file()).expect("copy");
    bob_again.signed(&["accept", "game.yaml", "--comment", "once more"]);
    bob_again.mail_to(&laptop, false);
    let laptop_before = laptop.file();
    assert_eq!(
        laptop.sign(&["reveal", "game.yaml"]),
        (
            1,
            String::new(),
            format!(
                "error: your key {ALICE} already signed record 2 (flip-reveal, signed \
                 2026-07-01T10:00:00Z) of this game, on top of a record 1 by another, and \
                 game.yaml holds another record 1: a record signed here would take back what \
                 you built on, evidence against you; nothing was signed\n\
                 hint: the other player signed two records 1: set the copy you played on beside \
                 this one with `correspond compare`, which proves it, and take both to the \
                 game's arbiter\n"
            )
        )
    );
    assert_eq!(laptop.file(), laptop_before, "nothing was written");
    // As the hint says: the two copies prove bob's two records 1.
    let (code, out, _) = desk.run(&["compare", "game.yaml", "../laptop/game.yaml"]);
    assert_eq!(
        (code, out.as_str()),
        (
            1,
            "EQUIVOCATION: bob signed two different records numbered 1: accept in game.yaml \
             (line 21), accept in ../laptop/game.yaml (line 21) (the same action, signed twice: \
             the records differ in their comment)\n\
             proof written to game.equivocation-1.proof: check it with `correspond check-proof \
             game.equivocation-1.proof`, or with OpenSSH alone (see the README)\n"
        )
    );
    drop(bob);
}

#[test]
fn a_copy_from_before_a_settlement_is_behind_and_accuses_no_one() {
    // bob's offer crosses alice's Nf3 in the mail and is void; he settles it (signed again as
    // record 5), then signs on a copy kept from before: it holds his own void offer where the
    // settlement holds her Nf3, which is no second record of hers.
    let root = tempfile::tempdir().expect("temp dir");
    let [desk, _laptop, bob] = three(root.path(), "chess", "white");
    desk.signed(&["play", "game.yaml", "e4"]);
    desk.mail_to(&bob, false);
    bob.signed(&["play", "game.yaml", "e5"]);
    bob.mail_to(&desk, false);
    desk.signed(&["play", "game.yaml", "Nf3"]);
    let (code, message, err) = desk.run(&["mail", "game.yaml", "--from", "x@example.org"]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(bob.dir.join("nf3.eml"), message).expect("write");
    bob.signed(&["offer-draw", "game.yaml"]);
    let old = Copy::new(root.path(), "bob-old", "bob-journal", "bob");
    std::fs::write(old.dir.join("game.yaml"), bob.file()).expect("copy");
    bob.signed(&["receive", "--settle", "game.yaml", "nf3.eml"]);
    assert_eq!(
        old.sign(&["resign", "game.yaml"]),
        (
            1,
            String::new(),
            "error: your key SHA256:7lbdfvoKgRes1tFovb9RRc5LHhXiprHwlUv0ZiagV8U already signed \
             record 5 (offer-draw, signed 2026-07-01T10:00:00Z) of this game, on top of a record \
             4 by another, and game.yaml does not have that record 4: a record signed here would \
             take back what you built on, evidence against you; nothing was signed\n\
             hint: bring the copy you played on here (git pull, or correspond receive the other \
             player's mail), and sign there\n"
                .to_owned()
        )
    );
}
