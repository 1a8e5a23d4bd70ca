//! Invalid game files, each with exactly one defect, made from the valid game
//! `games/campaign/resignation.yaml` by changing one thing. Where the defect is not the
//! signature itself, the changed record is signed again with the test keys, so that the
//! replayer has to find the defect on its own merits. The defective record is the last one.
//!
//! `tests/invalid/*.yaml` must be exactly what this makes (and nothing else may be there);
//! `CORRESPOND_UPDATE_GAMES=1 cargo test --test integration invalid` rewrites them. Their
//! reports are pinned by the snapshot tests in `reports.rs`.

use crate::util::keys_dir;
use correspond::digest::Digest;
use correspond::sign::{KeySigner, Signer};
use std::path::Path;

/// A game file cut into its preamble and documents.
#[derive(Clone)]
struct Game {
    preamble: String,
    docs: Vec<String>,
}

impl Game {
    fn load(name: &str) -> Game {
        Game::load_from("games/campaign", name)
    }

    fn load_from(folder: &str, name: &str) -> Game {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(folder)
            .join(name);
        let text = std::fs::read_to_string(path).expect("an example game");
        let start = text.find("---\n").expect("a header");
        let docs: Vec<String> =
            text[start..]
                .split_inclusive("\n")
                .fold(Vec::new(), |mut docs, line| {
                    if line == "---\n" {
                        docs.push(String::new());
                    }
                    docs.last_mut().expect("starts with ---").push_str(line);
                    docs
                });
        Game {
            preamble: text[..start].to_owned(),
            docs,
        }
    }

    fn keep(mut self, documents: usize) -> Game {
        self.docs.truncate(documents);
        self
    }

    fn text(&self) -> String {
        self.preamble.clone() + &self.docs.concat()
    }

    /// Replaces the line `field: ...` of document `i` (without signing again).
    fn set(mut self, i: usize, field: &str, line: &str) -> Game {
        let doc = &self.docs[i];
        let start = doc.find(&format!("\n{field}: ")).expect("the field") + 1;
        let end = start + doc[start..].find('\n').expect("a line");
        self.docs[i] = format!("{}{line}{}", &doc[..start], &doc[end..]);
        self
    }

    /// Signs document `i` again, with `who`'s key.
    fn sign(mut self, i: usize, who: &str) -> Game {
        let doc = &self.docs[i];
        let unsigned = &doc[..doc.rfind("signature: ").expect("a signature line")];
        let key =
            ssh_key::PrivateKey::read_openssh_file(&keys_dir().join(who)).expect("a test key");
        let signature = KeySigner::new(key)
            .expect("ed25519")
            .sign(unsigned.as_bytes())
            .expect("sign");
        self.docs[i] = format!("{unsigned}signature: {signature}\n");
        self
    }

    /// Replaces `from` with `to` in document `i` (without signing again).
    fn replace(mut self, i: usize, from: &str, to: &str) -> Game {
        assert!(self.docs[i].contains(from), "{from:?} in document {i}");
        self.docs[i] = self.docs[i].replacen(from, to, 1);
        self
    }

    fn digest(&self, i: usize) -> Digest {
        Digest::of(self.docs[i].as_bytes())
    }

    /// Points document `i` at the one before it and signs it again with `who`'s key.
    fn rechain(self, i: usize, who: &str) -> Game {
        let prev = self.digest(i - 1);
        self.set(i, "prev", &format!("prev: {prev}")).sign(i, who)
    }
}

/// Each fixture: its file name, and how it is made from the valid game. Records 1 to 11 of the
/// base game: bob accepts; alice reveals (heads wins the toss); alice c2c3; bob e6e5; alice
/// c3c4; bob a6a5; alice b1e4; bob d7e6; alice c1c2; bob d6d5; bob resigns.
fn fixtures() -> Vec<(&'static str, String)> {
    let base = || Game::load("resignation.yaml");
    let other = Game::load("run-off-claim.yaml");
    let mut out = vec![
        (
            "unparseable.yaml",
            base().keep(5).set(4, "move", "move e6e5").text(),
        ),
        (
            "duplicate-key.yaml",
            base()
                .keep(5)
                .set(4, "kind", "kind: move\nkind: move")
                .sign(4, "bob")
                .text(),
        ),
        (
            "yaml-anchor.yaml",
            base()
                .keep(5)
                .set(4, "signer", "signer: &who \"bob\"")
                .sign(4, "bob")
                .text(),
        ),
        (
            "yaml-tag.yaml",
            base()
                .keep(5)
                .set(4, "move", "move: !!str e6e5")
                .sign(4, "bob")
                .text(),
        ),
        (
            "yaml-comment.yaml",
            base()
                .keep(5)
                .set(4, "move", "move: e6e5 # the king's pawn")
                .sign(4, "bob")
                .text(),
        ),
        ("crlf.yaml", base().keep(5).text().replace('\n', "\r\n")),
        ("truncated.yaml", {
            let text = base().keep(6).text();
            let cut = text.rfind("kind: move\n").expect("a move") + "kind: move\n".len();
            text[..cut].to_owned()
        }),
        (
            "forged-move.yaml",
            base().keep(6).set(5, "move", "move: c3c5").text(),
        ),
        ("forged-header.yaml", base().keep(3).sign(0, "bob").text()),
        ("wrong-signer.yaml", base().keep(5).sign(4, "alice").text()),
        (
            "unknown-signer.yaml",
            base()
                .keep(5)
                .set(4, "signer", "signer: \"carol\"")
                .sign(4, "carol")
                .text(),
        ),
        (
            "not-your-turn.yaml",
            base()
                .keep(5)
                .set(4, "signer", "signer: \"alice\"")
                .set(4, "move", "move: a2a3")
                .sign(4, "alice")
                .text(),
        ),
        ("broken-chain.yaml", {
            let game = base().keep(6);
            let prev = game.digest(3);
            game.set(5, "prev", &format!("prev: {prev}"))
                .sign(5, "alice")
                .text()
        }),
        ("gap.yaml", {
            let mut game = base().keep(7);
            game.docs.remove(5);
            game.rechain(5, "bob").text()
        }),
        ("duplicate-number.yaml", {
            let mut game = base().keep(6);
            game.docs.push(game.docs[5].clone());
            game.set(6, "move", "move: b2b3").rechain(6, "alice").text()
        }),
        ("reordered.yaml", {
            let mut game = base().keep(7);
            game.docs.swap(5, 6);
            game.text()
        }),
        ("from-another-game.yaml", {
            let mut game = base().keep(3);
            game.docs.push(other.docs[3].clone());
            game.text()
        }),
        (
            "illegal-move.yaml",
            base()
                .keep(6)
                .set(5, "move", "move: c3c5")
                .sign(5, "alice")
                .text(),
        ),
        (
            "move-before-toss.yaml",
            base()
                .keep(3)
                .set(2, "kind", "kind: move")
                .set(2, "nonce", "move: c2c3")
                .sign(2, "alice")
                .text(),
        ),
        (
            "bad-reveal.yaml",
            base()
                .keep(3)
                .set(2, "nonce", &format!("nonce: {}", Digest::of(b"a guess")))
                .sign(2, "alice")
                .text(),
        ),
        ("accept-twice.yaml", {
            let mut game = base().keep(5);
            let accept = game.docs[1].replace("seq: 1\n", "seq: 4\n");
            game.docs[4] = accept;
            game.rechain(4, "bob").text()
        }),
    ];
    out.extend(conditional_fixtures());
    out.extend(hidden_fixtures());
    let mut after_end = base();
    after_end
        .docs
        .push(after_end.docs[9].replace("seq: 9\n", "seq: 12\n"));
    out.push((
        "after-the-end.yaml",
        after_end
            .set(12, "move", "move: c2c3")
            .rechain(12, "alice")
            .text(),
    ));
    out
}

/// Hostile records of each conditional kind, made from `games/chess/conditional-moves.yaml`.
/// Its records: 1 bob accepts; 2 alice e2e4; 3 her conditional (`c7c5 g1f3 d7d6 d2d4`,
/// `e7e5 g1f3 b8c6 f1b5`); 4 bob e7e5; 5 her reply g1f3, appended by bob; 6 bob b8c6; 7 her
/// reply f1b5, appended by bob; 8 bob a7a6; 9 his conditional; ... 18 bob's withdrawal.
fn conditional_fixtures() -> Vec<(&'static str, String)> {
    let base = || Game::load_from("games/chess", "conditional-moves.yaml");
    vec![
        (
            "conditional-forged-reply.yaml",
            base()
                .keep(6)
                .set(5, "move", "move: d2d4")
                .sign(5, "bob")
                .text(),
        ),
        (
            "conditional-after-another-move.yaml",
            base()
                .keep(6)
                .set(4, "move", "move: d7d5")
                .sign(4, "bob")
                .rechain(5, "bob")
                .text(),
        ),
        (
            "conditional-two-replies.yaml",
            base()
                .keep(4)
                .replace(3, "- \"c7c5 g1f3 d7d6 d2d4\"\n", "")
                .replace(3, "lines:\n", "lines:\n- \"e7e5 b1c3\"\n")
                .sign(3, "alice")
                .text(),
        ),
        (
            "conditional-illegal-line.yaml",
            base()
                .keep(4)
                .replace(3, "c7c5 g1f3 d7d6", "c7c5 g1f5 d7d6")
                .sign(3, "alice")
                .text(),
        ),
        ("conditional-not-after-move.yaml", {
            let mut game = base().keep(4);
            game.docs.push(game.docs[3].replace("seq: 3\n", "seq: 4\n"));
            game.set(4, "signer", "signer: \"bob\"")
                .rechain(4, "bob")
                .text()
        }),
        (
            "conditional-reply-at-another-time.yaml",
            base()
                .keep(6)
                .set(5, "time", "time: \"2025-12-08T09:05:00Z\"")
                .sign(5, "bob")
                .text(),
        ),
        (
            "conditional-reply-with-a-comment.yaml",
            base()
                .keep(6)
                .replace(5, "time: ", "comment: \"as promised\"\ntime: ")
                .sign(5, "bob")
                .text(),
        ),
        (
            "conditional-move-instead-of-reply.yaml",
            base()
                .keep(6)
                .set(5, "signer", "signer: \"alice\"")
                .set(5, "kind", "kind: move")
                .sign(5, "alice")
                .text(),
        ),
        (
            "conditional-withdrawn-too-late.yaml",
            base()
                .keep(6)
                .set(5, "signer", "signer: \"alice\"")
                .set(5, "kind", "kind: withdraw")
                .replace(5, "move: g1f3\n", "")
                .sign(5, "alice")
                .text(),
        ),
        ("conditional-promised-over-a-due-reply.yaml", {
            let mut game = base().keep(5);
            game.docs.push(game.docs[3].replace("seq: 3\n", "seq: 5\n"));
            game.set(5, "signer", "signer: \"bob\"")
                .rechain(5, "bob")
                .text()
        }),
        ("conditional-withdrawn-with-none.yaml", {
            let mut game = base().keep(2);
            game.docs.push(game.docs[0].clone());
            game.docs[2] = base().docs[18].replace("seq: 18\n", "seq: 2\n");
            game.set(2, "signer", "signer: \"alice\"")
                .rechain(2, "alice")
                .text()
        }),
    ]
}

#[test]
fn the_invalid_fixtures_are_made_from_a_valid_game_with_one_change() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/invalid");
    let fixtures = fixtures();
    if std::env::var_os("CORRESPOND_UPDATE_GAMES").is_some() {
        std::fs::create_dir_all(&dir).expect("folder");
        for (name, text) in &fixtures {
            std::fs::write(dir.join(name), text).expect("write");
        }
    }
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/invalid")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut expected: Vec<String> = fixtures.iter().map(|(n, _)| (*n).to_owned()).collect();
    expected.sort();
    assert_eq!(
        on_disk, expected,
        "tests/invalid holds exactly the fixtures made here"
    );
    for (name, text) in fixtures {
        let kept = std::fs::read(dir.join(name)).expect("read");
        assert!(
            kept == text.as_bytes(),
            "tests/invalid/{name} differs from what is made here"
        );
        let verdict = correspond::games::verify(&kept);
        assert!(
            verdict.is_err(),
            "tests/invalid/{name} verifies: {verdict:?}"
        );
    }
}

/// Hostile records of each hidden conditional kind, made from
/// `games/chess/hidden-conditional-moves.yaml`. Its records: 1 bob accepts; 2 alice e2e4; 3 her
/// `hidden-conditional`; 4 bob e7e5; 5 her `reveal` of g1f3; 6 bob b8c6; 7 her `reveal` of
/// f1b5; 8 bob a7a6; 9 her `reveal` of b5a4; 10 bob g8f6; 11 her `disclose`; ... 15 bob's
/// withdrawal; ... 26 bob's offer.
fn hidden_fixtures() -> Vec<(&'static str, String)> {
    let base = || Game::load_from("games/chess", "hidden-conditional-moves.yaml");
    // Document `from` of the example game, renumbered as document `at` of `game`.
    let moved = |game: &mut Game, from: usize, at: usize| {
        let doc = base().docs[from].replace(&format!("seq: {from}\n"), &format!("seq: {at}\n"));
        game.docs.push(doc);
    };
    vec![
        (
            "hidden-forged-reveal.yaml",
            base()
                .keep(6)
                .set(5, "move", "move: b1c3")
                .sign(5, "alice")
                .text(),
        ),
        ("hidden-reveal-of-another-place.yaml", {
            let mut game = base().keep(5);
            moved(&mut game, 7, 5);
            game.rechain(5, "alice").text()
        }),
        (
            "hidden-reveal-by-the-opponent.yaml",
            base()
                .keep(6)
                .set(5, "signer", "signer: \"bob\"")
                .sign(5, "bob")
                .text(),
        ),
        ("hidden-reveal-with-nothing-owed.yaml", {
            let mut game = base().keep(4);
            moved(&mut game, 5, 4);
            game.rechain(4, "alice").text()
        }),
        ("hidden-move-before-the-answer.yaml", {
            let mut game = base().keep(6);
            let doc = &game.docs[5];
            let (salt, time) = (
                doc.find("salt: ").expect("salt"),
                doc.find("time: ").expect("time"),
            );
            game.docs[5] = format!("{}{}", &doc[..salt], &doc[time..]);
            game.set(5, "kind", "kind: move").sign(5, "alice").text()
        }),
        ("hidden-offer-before-the-answer.yaml", {
            let mut game = base().keep(5);
            moved(&mut game, 26, 5);
            game.rechain(5, "bob").text()
        }),
        ("hidden-withdrawn-too-late.yaml", {
            let mut game = base().keep(5);
            moved(&mut game, 15, 5);
            game.set(5, "signer", "signer: \"alice\"")
                .rechain(5, "alice")
                .text()
        }),
        ("hidden-disclosed-over-a-reply.yaml", {
            let mut game = base().keep(5);
            moved(&mut game, 11, 5);
            game.rechain(5, "alice").text()
        }),
        (
            "hidden-disclosed-with-another-seed.yaml",
            base()
                .keep(12)
                .set(11, "seed", &format!("seed: {}", "0".repeat(63) + "1"))
                .sign(11, "alice")
                .text(),
        ),
        (
            "hidden-disclosed-with-other-lines.yaml",
            base()
                .keep(12)
                .replace(11, "- \"c7c5 g1f3\"\n", "")
                .sign(11, "alice")
                .text(),
        ),
        ("hidden-conditional-not-after-move.yaml", {
            let mut game = base().keep(4);
            moved(&mut game, 3, 4);
            game.set(4, "signer", "signer: \"bob\"")
                .rechain(4, "bob")
                .text()
        }),
    ]
}
