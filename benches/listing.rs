//! `correspond moves` against `correspond perft` on the same crowded Guerrilla Checkers
//! position (one checker among 48 stones: 36,377,482 capture chains, about 4 GB of text):
//! the listing writes every chain that perft only counts. Prints both times and the ratio of
//! their rates (target: the listing at least half as fast as the count). Output goes to the
//! null device, so the pipe a reader would use is not measured.
//!
//! Run with `cargo bench --bench listing`.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CROWDED: &str =
    "SSSSSSS/SSSSSSS/SSSSSSS/SSS1SSS/SSSSSSS/SSSSSSS/SSSSSSS 8/8/8/8/4C3/8/8/8 c 18";
const RUNS: usize = 3;

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("listing: run with `cargo bench --bench listing`");
        return;
    }
    let perft = best(&["perft", "guerrilla", "1", "--position", CROWDED]);
    let moves = best(&["moves", "guerrilla", "--position", CROWDED]);
    println!(
        "perft 1 of the crowded position: {:.2} s",
        perft.as_secs_f64()
    );
    println!(
        "moves of the crowded position:   {:.2} s",
        moves.as_secs_f64()
    );
    let ratio = perft.as_secs_f64() / moves.as_secs_f64();
    println!(
        "listing rate / perft rate: {ratio:.2}; target at least 0.5: {}",
        if ratio >= 0.5 { "met" } else { "NOT met" }
    );
}

/// The fastest of `RUNS` runs of the release binary, its output thrown away.
fn best(args: &[&str]) -> Duration {
    (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            let status = Command::new(env!("CARGO_BIN_EXE_correspond"))
                .args(args)
                .stdout(Stdio::null())
                .status()
                .expect("run correspond");
            assert!(status.success(), "{args:?}");
            started.elapsed()
        })
        .min()
        .expect("runs")
}
