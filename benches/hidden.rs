//! Hidden conditional lines against the floor of any record, one Ed25519 check, at the raw rate
//! measured in the same run (one core). Prints, as ratios to that floor:
//!
//! - checking a reveal's proof (what every reader pays per reveal, beside its signature; the
//!   target is at most 0.5 of a signature check, so that a file of hidden replies verifies
//!   within 1.5 times a file of plain moves);
//! - making a tree of the most lines a player may sign (30 lines of 30 moves: 450 places, with
//!   the padding 512 leaves), which a disclosure costs every reader and a commitment its
//!   author;
//! - and, for 100, 1,000 and 10,000 reveals (a club's season of them), the time of their proofs
//!   against their signatures, to show the cost grows as the signatures' does.
//!
//! It also prints a proof's length (the digests a reveal carries) over every place of the
//! largest lines, and what proofs say of moves no line answers: the share of other keys that a
//! revealed path shows to be in no line (an empty sibling, or the revealed leaf's own subtree).
//!
//! Run with `cargo bench --bench hidden`.

mod common;
use common::{best, raw_rate};
use correspond::digest::Digest;
use correspond::hidden::{Opening, Tree, key};
use std::time::{Duration, Instant};

/// The fastest of `best`'s runs of `run`.
fn fastest(run: impl Fn()) -> Duration {
    best(|| {
        let started = Instant::now();
        run();
        started.elapsed()
    })
}

/// The most lines a player may sign: 30 lines of 30 moves, no two sharing a place.
fn largest() -> Vec<Vec<String>> {
    let mut lines: Vec<Vec<String>> = (0..30)
        .map(|i| {
            (0..30)
                .map(|j| format!("m{i}x{j}"))
                .collect::<Vec<String>>()
        })
        .collect();
    lines.sort();
    lines
}

/// Every place of `lines`: the moves up to each opponent's move.
fn places(lines: &[Vec<String>]) -> Vec<Vec<String>> {
    lines
        .iter()
        .flat_map(|line| (1..line.len()).step_by(2).map(|end| line[..end].to_vec()))
        .collect()
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("hidden: run with `cargo bench --bench hidden`");
        return;
    }
    let rate = raw_rate(1);
    let signature = 1.0 / rate;
    println!("raw Ed25519 verification: {rate:.0}/s on one core");
    let binding = Digest::of(b"the move the lines follow");
    let seed = Digest::of(b"the author's seed");
    let lines = largest();
    let tree = Tree::new(&binding, &seed, &lines).expect("a tree");
    let places = places(&lines);
    let openings: Vec<(Digest, String, Opening)> = places
        .iter()
        .map(|place| {
            let at = key(&binding, place);
            let (reply, opening) = tree.open(&at).expect("a place of the lines");
            (at, reply, opening)
        })
        .collect();
    let lengths: Vec<usize> = openings.iter().map(|(_, _, o)| o.proof.len()).collect();
    println!(
        "a proof over {} places: {:.1} digests on average, {} to {}",
        places.len(),
        lengths.iter().sum::<usize>() as f64 / lengths.len() as f64,
        lengths.iter().min().unwrap_or(&0),
        lengths.iter().max().unwrap_or(&0)
    );
    let root = tree.root();
    let check = fastest(|| {
        for (at, reply, opening) in &openings {
            assert!(opening.opens(&root, at, reply));
        }
    })
    .as_secs_f64()
        / openings.len() as f64;
    println!(
        "a proof's check: {:.2} µs, {:.3} of a signature check (target: at most 0.5)",
        check * 1e6,
        check / signature
    );
    let build = fastest(|| {
        let made = Tree::new(&binding, &seed, &lines).expect("a tree");
        assert_eq!(made.root(), root);
    })
    .as_secs_f64();
    println!(
        "the tree of 450 places (a disclosure, or a commitment): {:.2} ms, {:.1} signature checks",
        build * 1e3,
        build / signature
    );
    for n in [100, 1000, 10_000] {
        let time = fastest(|| {
            for i in 0..n {
                let (at, reply, opening) = &openings[i % openings.len()];
                assert!(opening.opens(&root, at, reply));
            }
        })
        .as_secs_f64();
        println!(
            "{n} reveals: proofs {:.2} ms, their signatures at least {:.2} ms: {:.3} of them",
            time * 1e3,
            n as f64 * signature * 1e3,
            time / (n as f64 * signature)
        );
    }
    // Keys of moves no line holds, against every revealed path.
    let others: Vec<Digest> = (0..200u32)
        .map(|i| key(&binding, &[format!("other{i}")]))
        .collect();
    let tried = others.len() * openings.len();
    let shown = openings
        .iter()
        .map(|(at, _, opening)| {
            others
                .iter()
                .filter(|other| opening.shows_absent(at, other))
                .count()
        })
        .sum::<usize>();
    println!(
        "other keys a revealed path shows in no line: {shown} of {tried} ({:.3}%)",
        100.0 * shown as f64 / tried as f64
    );
}
