//! `correspond verify` and `play` against the floor of their work, the raw Ed25519 verification
//! rate, measured in the same run: R1 on one core, R2 on every core (one thread per core).
//! Prints, as ratios to the floor:
//!
//! - `verify` of one game of 2,000 records, in documents checked per second, against R1
//!   (target at least 0.8; with every core, at least 1.4);
//! - `verify` of a folder of 40 games of 50 records, against R2 (target at least 0.8);
//! - `play` of one move on the long game, against `verify` of it (target at most 1.2).
//!
//! It also times a bare process, this benchmark started again to do nothing but the folder's
//! verifications (one key, messages made beforehand) on every core, and prints its rate
//! against R2 (measured again just before it) and the folder's time against its time. Process
//! start, and verifying signatures once each rather than again and again in a warm loop, cost
//! any command: that process shows how near to R2 a command can come, and how much of the rest
//! is `correspond`'s own.
//!
//! Each ratio is taken within one round, the floor measured just before the command, and the median
//! of nine rounds is printed with their range. The commands are run as a user runs them (the
//! release binary, a process each), so process start and file reading count. Run with `cargo bench
//! --bench verify`; building the games (signing about 4,000 records) is not timed.

mod common;
use common::{
    KeptJournal, MESSAGE, best, grow, key_path, ms, opening, raw_rate, run, signed_messages, time,
};
use correspond::replay::Seat;
use ed25519_dalek::{SigningKey, Verifier as _};
use std::path::{Path, PathBuf};
use std::time::Duration;

const LONG: usize = 2000;
const GAMES: usize = 40;
const SHORT: usize = 50;
const ROUNDS: usize = 9;

/// The argument that makes this benchmark the bare process: `BARE file threads`.
const BARE: &str = "--bare-verifications";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).is_some_and(|a| a == BARE) {
        let [_, _, file, threads] = args.as_slice() else {
            panic!("usage: {BARE} FILE THREADS");
        };
        bare(
            Path::new(file),
            threads.parse().expect("a number of threads"),
        );
        return;
    }
    if !args.iter().any(|a| a == "--bench") {
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
    /// The mover's signing journal, holding the records they signed.
    journal: KeptJournal,
    /// The long game's next move, and who plays it.
    next: &'static str,
    mover: Seat,
    folder_documents: usize,
    /// The bare process's key and signed messages, as many as the folder's documents.
    bare: PathBuf,
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
    // Each game's header is signed and checked too.
    let folder_documents = GAMES * (SHORT + 1);
    let bare = dir.join("bare-signatures");
    write_bare(&bare, folder_documents);
    Games {
        bare,
        dir: dir.to_owned(),
        long,
        long_documents,
        journal: KeptJournal::keep(&journals[mover.index()]),
        next,
        mover,
        folder_documents,
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
    let r2_bare = raw_rate(cores);
    let bare_time = best(|| bare_run(&games.bare, cores));
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
        let journal = games.journal.restore();
        run(dir, &args, Some(journal))
    });
    let long_rate = games.long_documents as f64 / long_time.as_secs_f64();
    let folder_rate = games.folder_documents as f64 / folder_time.as_secs_f64();
    Round {
        r1,
        r2,
        long_time,
        folder_time,
        bare_time,
        play_time,
        long: long_rate / r1,
        folder: folder_rate / r2,
        bare: games.folder_documents as f64 / bare_time.as_secs_f64() / r2_bare,
        folder_to_bare: folder_time.as_secs_f64() / bare_time.as_secs_f64(),
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
    let (_, bare) = median(|r| r.bare);
    let (_, against) = median(|r| r.folder_to_bare);
    println!(
        "a bare process doing only the folder's {} verifications on {cores} cores (middle \
         round {}): {bare} × R2; verify of the folder takes {against} × its time",
        games.folder_documents,
        ms(typical.bare_time)
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
    bare_time: Duration,
    play_time: Duration,
    long: f64,
    folder: f64,
    /// The bare process's rate against R2.
    bare: f64,
    /// The folder's time against the bare process's.
    folder_to_bare: f64,
    play: f64,
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "NOT met" }
}

/// The documents in a game file: its `---` lines.
fn documents(text: &str) -> usize {
    text.lines().filter(|l| *l == "---").count()
}

/// Writes, for the bare process, a public key and `n` messages each with its signature.
fn write_bare(path: &Path, n: usize) {
    let signer = SigningKey::from_bytes(&[9; 32]);
    let mut bytes = signer.verifying_key().to_bytes().to_vec();
    for (message, signature) in signed_messages(&signer, n) {
        bytes.extend_from_slice(&message);
        bytes.extend_from_slice(&signature.to_bytes());
    }
    std::fs::write(path, bytes).expect("write");
}

/// The bare process, timed from its start to its end as [`run`] times a command.
fn bare_run(file: &Path, threads: usize) -> Duration {
    time(
        std::process::Command::new(std::env::current_exe().expect("this benchmark"))
            .arg(BARE)
            .arg(file)
            .arg(threads.to_string()),
    )
}

/// The bare process itself: reads the file [`write_bare`] wrote and verifies every signature,
/// the messages shared out among `threads` threads.
fn bare(file: &Path, threads: usize) {
    let bytes = std::fs::read(file).expect("read");
    let (key, signed) = bytes.split_at(32);
    let key =
        ed25519_dalek::VerifyingKey::from_bytes(key.try_into().expect("32 bytes")).expect("a key");
    let pairs: Vec<&[u8]> = signed.chunks(MESSAGE + 64).collect();
    assert!(
        !pairs.is_empty(),
        "no signed messages in {}",
        file.display()
    );
    // Its threads are placed as `correspond`'s are: see `raw_rate`.
    let colour = correspond::parallel::stack_colour();
    std::thread::scope(|scope| {
        for share in pairs.chunks(pairs.len().div_ceil(threads.max(1))) {
            scope.spawn(move || {
                correspond::parallel::coloured(colour, || {
                    for pair in share {
                        let (message, signature) = pair.split_at(MESSAGE);
                        let signature =
                            ed25519_dalek::Signature::from_slice(signature).expect("64 bytes");
                        assert!(key.verify(message, &signature).is_ok());
                    }
                });
            });
        }
    });
}
