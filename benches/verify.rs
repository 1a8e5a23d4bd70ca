//! `correspond verify` and `play` against the floor of their work, the raw Ed25519 verification
//! rate, measured in the same run: R1 on one core, R2 on every core (one thread per core).
//! Prints, as ratios to the floor:
//!
//! - `verify` of one game of 2,000 records, in documents checked per second, against R1
//!   (target at least 0.8; with every core, at least 1.4);
//! - `verify` of a folder of 40 games of 50 records, against R2 (target at least 0.8);
//! - `play` of one move on the long game, against `verify` of it (target at most 1.2).
//!
//! Each ratio is taken within one round, the floor measured just before the command, and the median
//! of nine rounds is printed with their range. The commands are run as a user runs them (the
//! release binary, a process each), so process start and file reading count. Run with `cargo bench
//! --bench verify`; building the games (signing about 4,000 records) is not timed.

mod common;
use common::{best, grow, key_path, ms, opening, run};
use correspond::replay::Seat;
use ed25519_dalek::{Signer as _, SigningKey, Verifier as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const LONG: usize = 2000;
const GAMES: usize = 40;
const SHORT: usize = 50;
const ROUNDS: usize = 9;

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("verify: run with `cargo bench --bench verify`");
        return;
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let dir = tempfile::tempdir().expect("temp dir");
    let games = build(dir.path());
    // Each ratio is taken within one round, the floor measured just before the command, so
    // that a machine whose speed drifts (a shared host, a CPU changing its clock) skews both
    // alike; the median round is reported, with the range.
    let rounds: Vec<Round> = (0..ROUNDS).map(|_| round(&games, cores)).collect();
    report(&rounds, &games, cores);
}

/// The games timed: one long, with the signing journals `play` reads, and a folder of short
/// ones.
struct Games {
    dir: PathBuf,
    long: PathBuf,
    long_documents: usize,
    journals: [PathBuf; 2],
    /// The long game's next move, and who plays it.
    next: &'static str,
    mover: Seat,
    folder_documents: usize,
}

/// Signs the games in `dir` (not timed).
fn build(dir: &Path) -> Games {
    let long = dir.join("long.yaml");
    let mut text = opening(dir, &long);
    let opened = documents(&text);
    // Each player's signing journal holds their half of the game, as it would after playing
    // it with the signing commands: `play` reads it.
    let journals = [dir.join("alice-journal"), dir.join("bob-journal")];
    let (next, mover) = grow(
        &mut text,
        LONG + 1 - opened,
        Some(journals.each_ref().map(PathBuf::as_path)),
        |_| {},
    );
    std::fs::write(&long, &text).expect("write");
    let long_documents = documents(&text);
    let folder = dir.join("folder");
    std::fs::create_dir(&folder).expect("mkdir");
    for n in 0..GAMES {
        let file = folder.join(format!("game-{n:02}.yaml"));
        let mut text = opening(&folder, &file);
        let opened = documents(&text);
        let _ = grow(&mut text, SHORT + 1 - opened, None, |_| {});
        std::fs::write(&file, &text).expect("write");
    }
    Games {
        dir: dir.to_owned(),
        long,
        long_documents,
        journals,
        next,
        mover,
        folder_documents: GAMES * (SHORT + 1),
    }
}

/// One round: each command timed just after the floor it is compared with.
fn round(games: &Games, cores: usize) -> Round {
    let dir = games.dir.as_path();
    let key = key_path(["alice", "bob"][games.mover.index()]);
    let key = key.to_str().expect("UTF-8");
    let r1 = raw_rate(1);
    let long_time = best(|| run(dir, &["verify", "long.yaml"], None));
    let r2 = raw_rate(cores);
    let folder_time = best(|| run(dir, &["verify", "folder"], None));
    let play_time = best(|| {
        std::fs::copy(&games.long, dir.join("played.yaml")).expect("copy");
        let args = [
            "play",
            "played.yaml",
            games.next,
            "--key",
            key,
            "--no-commit",
        ];
        run(dir, &args, Some(&games.journals[games.mover.index()]))
    });
    let long_rate = games.long_documents as f64 / long_time.as_secs_f64();
    let folder_rate = games.folder_documents as f64 / folder_time.as_secs_f64();
    Round {
        r1,
        r2,
        long_time,
        folder_time,
        play_time,
        long: long_rate / r1,
        folder: folder_rate / r2,
        play: play_time.as_secs_f64() / long_time.as_secs_f64(),
    }
}

/// Prints a middle round's times, then each ratio's median and range against its target.
fn report(rounds: &[Round], games: &Games, cores: usize) {
    let median = |ratio: fn(&Round) -> f64| {
        let mut values: Vec<f64> = rounds.iter().map(ratio).collect();
        values.sort_by(f64::total_cmp);
        let text = format!(
            "{:.2} (rounds {:.2} to {:.2})",
            values[values.len() / 2],
            values[0],
            values[values.len() - 1]
        );
        (values[values.len() / 2], text)
    };
    let typical = {
        let mut sorted: Vec<&Round> = rounds.iter().collect();
        sorted.sort_by(|a, b| a.long.total_cmp(&b.long));
        sorted[sorted.len() / 2]
    };
    println!(
        "raw Ed25519 verification (a middle round): R1 {:.0}/s on one core, R2 {:.0}/s on \
         {cores} cores; verify of the long game {}, of the folder {}, play {}",
        typical.r1,
        typical.r2,
        ms(typical.long_time),
        ms(typical.folder_time),
        ms(typical.play_time)
    );
    let (long, text) = median(|r| r.long);
    println!(
        "verify, one game of {} documents: {text} × R1; target ≥ 0.8: {}, stretch ≥ 1.4 with \
         every core: {}",
        games.long_documents,
        verdict(long >= 0.8),
        verdict(long >= 1.4)
    );
    let (folder, text) = median(|r| r.folder);
    println!(
        "verify, a folder of {GAMES} games of {} documents: {text} × R2; target ≥ 0.8: {}",
        SHORT + 1,
        verdict(folder >= 0.8)
    );
    let (play, text) = median(|r| r.play);
    println!(
        "play, one move on that game: {text} × verify of it; target ≤ 1.2: {}",
        verdict(play <= 1.2)
    );
}

/// One round's measurements, and its ratios.
struct Round {
    r1: f64,
    r2: f64,
    long_time: Duration,
    folder_time: Duration,
    play_time: Duration,
    long: f64,
    folder: f64,
    play: f64,
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "NOT met" }
}

/// The documents in a game file: its `---` lines.
fn documents(text: &str) -> usize {
    text.lines().filter(|l| *l == "---").count()
}

/// Ed25519 verifications per second on `threads` threads, each checking its own signatures
/// over messages the size of SSHSIG's signed data (102 bytes); the best of three runs.
fn raw_rate(threads: usize) -> f64 {
    let signer = SigningKey::from_bytes(&[7; 32]);
    let signed: Vec<([u8; 102], ed25519_dalek::Signature)> = (0..256u32)
        .map(|i| {
            let mut message = [0u8; 102];
            message[..4].copy_from_slice(&i.to_be_bytes());
            (message, signer.sign(&message))
        })
        .collect();
    let public = signer.verifying_key();
    const PASSES: usize = 8;
    (0..3)
        .map(|_| {
            let started = Instant::now();
            std::thread::scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(|| {
                        for _ in 0..PASSES {
                            for (message, signature) in &signed {
                                assert!(public.verify(message, signature).is_ok());
                            }
                        }
                    });
                }
            });
            (threads * PASSES * signed.len()) as f64 / started.elapsed().as_secs_f64()
        })
        .fold(0.0, f64::max)
}
