//! What one more record costs as a game grows: `play` of one move on games of 250, 1,000 and
//! 2,000 documents, run as a user runs it (the release binary, a process each, the player's
//! signing journal holding the records they signed). The report is each game's cost against
//! the shortest's: 1 would be linear in total; 8 for the longest is what work proportional to
//! the file on each move gives, as checking every signature again did.
//!
//! What still grows with the file, by design, is work on its bytes: the file is read and
//! hashed, its records parsed and their moves replayed once (the signatures before the mover's
//! last record are not checked again: this program checked them before signing it), and a whole
//! new copy written and renamed into place (so that a crash never leaves half a record). No
//! design that checks the file it signs after can avoid reading and hashing all of it, so none
//! is strictly linear in total; the target is on what each document already in the file costs a
//! move, against one signature check (1 / R1, measured in the same run): checking the file's
//! signatures again on each move would cost at least 1, and at most 0.25 means that no more
//! than a quarter of them could be. The estimated time to grow a game to 2,000 documents through
//! the command line, split into its part linear in the length and its part quadratic, is printed
//! too.
//!
//! Beside each `play`, the benchmark times itself started again as a process that does nothing
//! but byte work (see [`floor`]), at two floors: the file read and hashed, the least that any
//! `play` checking the file it signs after must do; and that with the mover's journal read and a
//! synced copy of the file written, as `play` does today. The shortest game's `play` plus how
//! much that work grows from the shortest game to the longest, against the shortest game's
//! `play`, is the ratio a design doing no other work that grows with the game would score.
//!
//! Each round times every size (the fastest of five runs, each on a fresh copy of the game and
//! of the mover's journal, so that each signs its record anew); the median of nine rounds is
//! printed with its range. Run with `cargo bench --bench growth`; building the games (signing
//! about 3,250 records) is not timed.

mod common;
use common::{KeptJournal, best, grow, key_path, ms, opening, raw_rate, run};
use std::path::{Path, PathBuf};
use std::time::Duration;

const SIZES: [usize; 3] = [250, 1000, 2000];
const ROUNDS: usize = 9;
/// What each document already in the file may cost a move, in signature checks on one core.
const TARGET: f64 = 0.25;
/// The argument that makes this benchmark a floor process: `FLOOR DIR JOURNAL whole|read`.
const FLOOR: &str = "--byte-floor";

/// A game of one size, ready for its next move.
struct Game {
    documents: usize,
    dir: PathBuf,
    next: &'static str,
    key: PathBuf,
    /// The mover's signing journal, holding the records they signed.
    journal: KeptJournal,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).is_some_and(|a| a == FLOOR) {
        let [_, _, dir, journal, whole] = args.as_slice() else {
            panic!("usage: {FLOOR} DIR JOURNAL whole|read");
        };
        floor(Path::new(dir), Path::new(journal), whole == "whole");
        return;
    }
    if !args.iter().any(|a| a == "--bench") {
        println!("growth: run with `cargo bench --bench growth`");
        return;
    }
    let root = tempfile::tempdir().expect("temp dir");
    let games: Vec<Game> = SIZES.iter().map(|&n| build(root.path(), n)).collect();
    let mut rounds: Vec<Vec<Duration>> = Vec::with_capacity(ROUNDS);
    let mut floors: Vec<Vec<[Duration; 2]>> = Vec::with_capacity(ROUNDS);
    let mut r1: Vec<f64> = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        r1.push(raw_rate(1));
        rounds.push(games.iter().map(play).collect());
        floors.push(
            games
                .iter()
                .map(|g| [false, true].map(|whole| floor_run(g, whole)))
                .collect(),
        );
    }
    let shortest = &games[0];
    for (i, game) in games.iter().enumerate() {
        let mut times: Vec<Duration> = rounds.iter().map(|r| r[i]).collect();
        times.sort();
        let mut ratios: Vec<f64> = rounds
            .iter()
            .map(|r| r[i].as_secs_f64() / r[0].as_secs_f64())
            .collect();
        ratios.sort_by(f64::total_cmp);
        println!(
            "play on a game of {:>4} documents: {} (median of {ROUNDS} rounds), {:.2} × the \
             {}-document game's (rounds {:.2} to {:.2})",
            game.documents,
            ms(times[ROUNDS / 2]),
            ratios[ROUNDS / 2],
            shortest.documents,
            ratios[0],
            ratios[ROUNDS - 1]
        );
    }
    let last = games.len() - 1;
    let mut ratios: Vec<f64> = rounds
        .iter()
        .map(|r| r[last].as_secs_f64() / r[0].as_secs_f64())
        .collect();
    ratios.sort_by(f64::total_cmp);
    let ratio = ratios[ROUNDS / 2];
    println!(
        "one more record at {} documents against at {}: {ratio:.2} (linear in total: 1; work \
         proportional to the file: {:.0})",
        games[last].documents,
        shortest.documents,
        games[last].documents as f64 / shortest.documents as f64,
    );
    report_floors(&games, &rounds, &floors);
    report_per_document(&games, &rounds, &r1);
}

/// What each document already in the file costs a move (the growth of `play` from the shortest
/// game to the longest, per document), against one signature check on one core, within each
/// round; and the time to grow a game to the longest size move by move, from the medians.
fn report_per_document(games: &[Game], rounds: &[Vec<Duration>], r1: &[f64]) {
    let last = games.len() - 1;
    let more = (games[last].documents - games[0].documents) as f64;
    let per_document = |r: &Vec<Duration>| (r[last].as_secs_f64() - r[0].as_secs_f64()) / more;
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2], v[0], v[v.len() - 1])
    };
    let (ratio, low, high) = median(
        rounds
            .iter()
            .zip(r1)
            .map(|(r, r1)| per_document(r) * r1)
            .collect(),
    );
    let (slope, _, _) = median(rounds.iter().map(per_document).collect());
    let (rate, _, _) = median(r1.to_vec());
    println!(
        "each document already in the file costs a move {:.2} µs, {ratio:.2} (rounds {low:.2} to \
         {high:.2}) × one signature check on one core (R1 {rate:.0}/s; checking every signature \
         again: at least 1); target at most {TARGET}: {}",
        slope * 1e6,
        if ratio <= TARGET { "met" } else { "NOT met" }
    );
    // play(n) = fixed + slope × n, so n moves cost fixed × n + slope × n² / 2.
    let (first, _, _) = median(rounds.iter().map(|r| r[0].as_secs_f64()).collect());
    let fixed = first - slope * games[0].documents as f64;
    let n = games[last].documents as f64;
    println!(
        "growing a game to {n} documents move by move: about {:.1} s, of which {:.1} s grows \
         with the square of its length",
        fixed * n + slope * n * n / 2.0,
        slope * n * n / 2.0
    );
}

/// For each floor, how much the floor process's time grows from the shortest game to the
/// longest, and the ratio `play` would score if its own time grew by only that much: the bound
/// on any design that does that byte work, as long as `play` on the shortest game costs what it
/// costs today (a design faster there scores a higher ratio for the same growth).
fn report_floors(games: &[Game], rounds: &[Vec<Duration>], floors: &[Vec<[Duration; 2]>]) {
    let last = games.len() - 1;
    for (k, what) in [
        "the file read and hashed",
        "the file read and hashed, the journal read, a synced copy written",
    ]
    .iter()
    .enumerate()
    {
        // A round where the longer game's floor came out faster (noise) grows by nothing.
        let grown = |f: &Vec<[Duration; 2]>| f[last][k].saturating_sub(f[0][k]);
        let mut growth: Vec<Duration> = floors.iter().map(grown).collect();
        growth.sort();
        let mut bounds: Vec<f64> = rounds
            .iter()
            .zip(floors)
            .map(|(r, f)| (r[0] + grown(f)).as_secs_f64() / r[0].as_secs_f64())
            .collect();
        bounds.sort_by(f64::total_cmp);
        println!(
            "a process doing only byte work ({what}) takes {} more at {} documents than at \
             {}; play growing by only that much: {:.2} (rounds {:.2} to {:.2})",
            ms(growth[ROUNDS / 2]),
            games[last].documents,
            games[0].documents,
            bounds[ROUNDS / 2],
            bounds[0],
            bounds[ROUNDS - 1]
        );
    }
}

/// A game of `documents` documents in its own folder under `root`, each player's signing
/// journal holding their records.
fn build(root: &Path, documents: usize) -> Game {
    let dir = root.join(documents.to_string());
    std::fs::create_dir(&dir).expect("mkdir");
    let path = dir.join("game.yaml");
    let mut text = opening(&dir, &path);
    let opened = text.lines().filter(|l| *l == "---").count();
    let journals = [dir.join("alice-journal"), dir.join("bob-journal")];
    let (next, mover) = grow(
        &mut text,
        documents - opened,
        Some(journals.each_ref().map(PathBuf::as_path)),
        |_| {},
    );
    std::fs::write(&path, &text).expect("write");
    Game {
        documents,
        dir,
        next,
        key: key_path(["alice", "bob"][mover.index()]),
        journal: KeptJournal::keep(&journals[mover.index()]),
    }
}

/// The time of one move on a fresh copy of `game` and of its mover's journal, the fastest of a
/// few runs.
fn play(game: &Game) -> Duration {
    let key = game.key.to_str().expect("UTF-8");
    best(|| {
        std::fs::copy(game.dir.join("game.yaml"), game.dir.join("played.yaml")).expect("copy");
        let journal = game.journal.restore();
        let args = [
            "play",
            "played.yaml",
            game.next,
            "--key",
            key,
            "--no-commit",
        ];
        run(&game.dir, &args, Some(journal))
    })
}

/// A floor process for `game`, timed from its start to its end as [`run`] times `play`: the
/// file read and hashed, and with `whole` the mover's journal read and a synced copy written.
fn floor_run(game: &Game, whole: bool) -> Duration {
    let journal = game.journal.restore();
    best(|| {
        common::time(
            std::process::Command::new(std::env::current_exe().expect("this benchmark"))
                .arg(FLOOR)
                .arg(&game.dir)
                .arg(journal)
                .arg(if whole { "whole" } else { "read" }),
        )
    })
}

/// The floor process itself: reads `dir`'s game file and hashes it, as `play` does to check
/// the chain; with `whole`, also reads each file of the journal folder `journal` and writes a
/// copy of the game file with one record more (its last, again) beside it, synced and renamed
/// into place, as `play` appends.
fn floor(dir: &Path, journal: &Path, whole: bool) {
    use sha2::Digest as _;
    use std::io::Write as _;
    let bytes = std::fs::read(dir.join("game.yaml")).expect("read the game");
    let digest = sha2::Sha256::digest(&bytes);
    assert_ne!(digest[..], [0; 32], "a digest");
    if !whole {
        return;
    }
    for entry in std::fs::read_dir(journal).expect("the journal folder") {
        let read = std::fs::read(entry.expect("an entry").path()).expect("read the journal");
        assert!(!read.is_empty(), "an empty journal file");
    }
    let last = bytes
        .windows(4)
        .rposition(|w| w == b"---\n")
        .expect("a last document");
    let mut copy = tempfile::NamedTempFile::new_in(dir).expect("a temporary file");
    copy.write_all(&bytes).expect("write");
    copy.write_all(&bytes[last..]).expect("write");
    copy.as_file().sync_all().expect("sync");
    copy.persist(dir.join("floor.yaml")).expect("rename");
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .expect("sync the folder");
}
