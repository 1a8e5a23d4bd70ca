//! Orthodox perft beside the `shakmaty` crate, on the same positions in the same run: the
//! published test positions at the depths the perft data file checks. Both count the last ply
//! without playing it. Prints each engine's leaf nodes per second (the best of a few runs) and
//! the speed ratio; the target is at least 0.8 of shakmaty's speed.
//!
//! Run with `cargo bench --bench vs_shakmaty`. Also refuses to report if the two engines
//! disagree on a count.

use correspond::games::chess::Chess;
use correspond::rules::Game;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess as Shakmaty};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Chess Programming Wiki's "Perft Results" positions 1-6, with the depth benchmarked.
const POSITIONS: &[(&str, &str, u32)] = &[
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
    ),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    (
        "position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        4,
    ),
    (
        "position 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        4,
    ),
    (
        "position 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        4,
    ),
];

const RUNS: usize = 5;

/// The best of `RUNS` timings of `f`, and its result.
fn best(f: impl Fn() -> u64) -> (u64, Duration) {
    let mut fastest = Duration::MAX;
    let mut nodes = 0;
    for _ in 0..RUNS {
        let started = Instant::now();
        nodes = black_box(f());
        fastest = fastest.min(started.elapsed());
    }
    (nodes, fastest)
}

fn rate(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64() / 1e6
}

fn main() {
    // `cargo test --benches` runs benchmarks with `--bench` absent; keep that quick.
    if !std::env::args().any(|a| a == "--bench") {
        println!("vs_shakmaty: run with `cargo bench --bench vs_shakmaty`");
        return;
    }
    println!(
        "{:<12} {:>5} {:>10} {:>12} {:>12} {:>7}",
        "position", "depth", "nodes", "ours Mn/s", "shakmaty", "ratio"
    );
    let (mut ours_total, mut theirs_total, mut nodes_total) =
        (Duration::ZERO, Duration::ZERO, 0u64);
    for (name, fen, depth) in POSITIONS {
        let ours = Chess::parse_position(fen).expect("a valid position");
        let theirs: Shakmaty = Fen::from_ascii(fen.as_bytes())
            .expect("valid FEN")
            .into_position(CastlingMode::Standard)
            .expect("a legal position");
        let (n_ours, t_ours) = best(|| black_box(&ours).perft(*depth));
        let (n_theirs, t_theirs) = best(|| shakmaty::perft(black_box(&theirs), *depth));
        assert_eq!(
            n_ours, n_theirs,
            "{name}: the engines disagree at depth {depth}"
        );
        println!(
            "{name:<12} {depth:>5} {n_ours:>10} {:>12.1} {:>12.1} {:>7.2}",
            rate(n_ours, t_ours),
            rate(n_theirs, t_theirs),
            t_theirs.as_secs_f64() / t_ours.as_secs_f64()
        );
        ours_total += t_ours;
        theirs_total += t_theirs;
        nodes_total += n_ours;
    }
    let ratio = theirs_total.as_secs_f64() / ours_total.as_secs_f64();
    println!(
        "{:<12} {:>5} {nodes_total:>10} {:>12.1} {:>12.1} {ratio:>7.2}",
        "all",
        "",
        rate(nodes_total, ours_total),
        rate(nodes_total, theirs_total),
    );
    println!(
        "speed ratio (ours / shakmaty): {ratio:.2}; target at least 0.8: {}",
        if ratio >= 0.8 { "met" } else { "NOT met" }
    );
}
