//! What the benchmarks share: the test keys, a Campaign game's opening made by the program
//! itself, long games grown from it by the library's writer, and the raw Ed25519 verification
//! rate that the commands are measured against.
#![allow(dead_code, reason = "each benchmark uses some of these")]

use correspond::games::campaign::Campaign;
use correspond::journal::Journal;
use correspond::log::{Action, Timestamp};
use correspond::replay::Seat;
use correspond::sign::KeySigner;
use correspond::writer::Writer;
use ed25519_dalek::{Signer as _, SigningKey, Verifier as _};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How many times each command is timed; the fastest counts.
pub const RUNS: usize = 5;

/// The path of a test key in tests/keys.
pub fn key_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/keys")
        .join(name)
}

/// A test key from tests/keys, as a signer.
pub fn key(name: &str) -> KeySigner {
    let path = key_path(name);
    KeySigner::new(ssh_key::PrivateKey::read_openssh_file(&path).expect("a test key"))
        .expect("ed25519")
}

/// The game's header, acceptance and toss, written to `file` in `dir` by the program itself;
/// heads to move; the documents signed go into the signing journal `dir/opening-journal`, not
/// the user's. Returns the file's text.
pub fn opening(dir: &Path, file: &Path) -> String {
    let keys = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/keys");
    let run = |who: &str, args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_correspond"))
            .current_dir(dir)
            .env("CORRESPOND_TIME", "2026-01-01T00:00:00Z")
            .env("CORRESPOND_JOURNAL", dir.join("opening-journal"))
            .args(args)
            .arg("--key")
            .arg(keys.join(who))
            .arg("--no-commit")
            .output()
            .expect("run correspond");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let path = file.to_str().expect("UTF-8");
    let bob = keys.join("bob.pub");
    run(
        "alice",
        &[
            "new",
            "campaign",
            path,
            "--name",
            "alice",
            "--side",
            "heads",
            "--opponent",
            "bob",
            "--opponent-key",
            bob.to_str().expect("UTF-8"),
        ],
    );
    run("bob", &["accept", path]);
    if run("alice", &["reveal", path]).contains("bob (tails) wins the toss") {
        run("bob", &["play", path, "--defer"]);
    }
    std::fs::read_to_string(file).expect("the opening")
}

/// Grows a Campaign game (`text`, an [`opening`] with heads to move) by `records` moves, signed
/// by the library's writer: the handlers shuffle, which Campaign allows for ever (repetition is
/// only a claim). With `journals` (alice's folder, then bob's), each player's records go into
/// their signing journal, as the signing commands put them. `each` sees the text after every
/// record. Returns the next legal move and the seat that may play it.
pub fn grow(
    text: &mut String,
    records: usize,
    journals: Option<[&Path; 2]>,
    mut each: impl FnMut(&str),
) -> (&'static str, Seat) {
    let signers = [key("alice"), key("bob")];
    let cycle = ["a2a3", "a6a5", "a1a2", "a7a6", "a2a1", "a6a7"];
    let mut moves = cycle[..2].iter().chain(cycle[2..].iter().cycle());
    let mut writer = Writer::<Campaign>::open(text.as_bytes()).expect("a valid opening");
    let game = writer.file().game_id();
    let mut journals = journals
        .map(|dirs| dirs.map(|dir| Journal::at(dir.to_owned()).game(game).expect("a journal")));
    let time = Timestamp::parse("2026-01-01T00:00:00Z").expect("time");
    for n in 0..records {
        let mover = Seat::BOTH[n % 2];
        let action = Action::Move((*moves.next().expect("a cycle")).into());
        let record = writer.next(mover, action, time.clone());
        let journal = journals.as_mut().map(|j| &mut j[mover.index()]);
        let written = writer
            .write(record, &signers[mover.index()], journal)
            .expect("a legal move");
        text.push_str(&written.text);
        writer = written.writer;
        each(text);
    }
    (moves.next().expect("a cycle"), Seat::BOTH[records % 2])
}

/// Runs the release binary in `dir`, with `journal` as the signing journal; the time it took.
pub fn run(dir: &Path, args: &[&str], journal: Option<&Path>) -> Duration {
    let mut command = Command::new(env!("CARGO_BIN_EXE_correspond"));
    command
        .current_dir(dir)
        .env("CORRESPOND_TIME", "2026-01-01T00:00:00Z")
        .args(args);
    if let Some(journal) = journal {
        command.env("CORRESPOND_JOURNAL", journal);
    }
    time(&mut command)
}

/// The time `command` took from its start to its end, its output collected; it must succeed.
pub fn time(command: &mut Command) -> Duration {
    let started = Instant::now();
    let out = command.output().expect("run the command");
    let took = started.elapsed();
    assert!(
        out.status.success(),
        "{command:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    took
}

/// A signing journal's files as they were once, kept beside it: put back before each timed
/// `play`, they make it sign its record anew, as a user's `play` does, where it would otherwise
/// find the record signed by the run before and take that one.
pub struct KeptJournal {
    journal: PathBuf,
    kept: PathBuf,
}

impl KeptJournal {
    /// Keeps a copy of the journal `journal` (a folder) as it is now.
    pub fn keep(journal: &Path) -> KeptJournal {
        let kept = journal.with_extension("kept");
        copy_folder(journal, &kept);
        KeptJournal {
            journal: journal.to_owned(),
            kept,
        }
    }

    /// Puts the kept copy back in the journal's place; returns the journal's path.
    pub fn restore(&self) -> &Path {
        std::fs::remove_dir_all(&self.journal).expect("remove the journal");
        copy_folder(&self.kept, &self.journal);
        &self.journal
    }
}

/// Copies the files of the folder `from` into a new folder `to`.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read the folder") {
        let entry = entry.expect("an entry");
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
    }
}

/// The fastest of `RUNS` timings.
pub fn best(f: impl Fn() -> Duration) -> Duration {
    (0..RUNS).map(|_| f()).min().expect("runs")
}

/// A duration in milliseconds, for the reports.
pub fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// Ed25519 verifications per second on `threads` threads, each checking its own signatures
/// over messages the size of SSHSIG's signed data ([`MESSAGE`]); the best of four runs, each
/// with the threads' stacks about a quarter of a page further down. Where a stack sits within its page
/// can slow the signature library by a tenth or more (see `correspond::parallel`): the floor is
/// the rate at the best place, as `best` takes a command's fastest run, each run placing its
/// threads anew.
pub fn raw_rate(threads: usize) -> f64 {
    let signer = SigningKey::from_bytes(&[7; 32]);
    let signed = signed_messages(&signer, 256);
    let public = signer.verifying_key();
    const PASSES: usize = 8;
    (0..4)
        .map(|quarter| {
            let started = Instant::now();
            std::thread::scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(|| {
                        correspond::parallel::coloured(quarter * 1024, || {
                            for _ in 0..PASSES {
                                for (message, signature) in &signed {
                                    assert!(public.verify(message, signature).is_ok());
                                }
                            }
                        });
                    });
                }
            });
            (threads * PASSES * signed.len()) as f64 / started.elapsed().as_secs_f64()
        })
        .fold(0.0, f64::max)
}

/// The size of a message the bare process verifies: SSHSIG's signed data.
pub const MESSAGE: usize = 102;

/// `n` different messages of [`MESSAGE`] bytes, each with its signature by `signer`.
pub fn signed_messages(
    signer: &SigningKey,
    n: usize,
) -> Vec<([u8; MESSAGE], ed25519_dalek::Signature)> {
    (0..n as u64)
        .map(|i| {
            let mut message = [0u8; MESSAGE];
            message[..8].copy_from_slice(&i.to_be_bytes());
            (message, signer.sign(&message))
        })
        .collect()
}
