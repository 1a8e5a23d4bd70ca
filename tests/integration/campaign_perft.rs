//! The perft data file `tests/perft/campaign.perft`, replayed through the engine (every entry)
//! and through the naive implementation (the entries small enough for a debug build).

use crate::campaign_naive::Naive;
use correspond::rules::Game;
use correspond::rules::campaign::Campaign;

struct Entry {
    position: String,
    depth: u32,
    nodes: u64,
    line: usize,
}

fn entries() -> Vec<Entry> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft/campaign.perft");
    let text = std::fs::read_to_string(&path).expect("read the perft file");
    let mut position = None;
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(epd) = line.strip_prefix("epd ") {
            position = Some(epd.to_owned());
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (depth, nodes) = rest.split_once(' ').expect("perft <depth> <nodes>");
            entries.push(Entry {
                position: position.clone().expect("an epd line comes first"),
                depth: depth.parse().expect("depth"),
                nodes: nodes.parse().expect("nodes"),
                line: i + 1,
            });
        } else {
            assert!(
                line.is_empty() || line.starts_with('#'),
                "line {}: unexpected `{line}`",
                i + 1
            );
        }
    }
    entries
}

#[test]
fn the_engine_matches_every_entry() {
    let entries = entries();
    assert!(
        entries.len() > 40,
        "the file holds {} entries",
        entries.len()
    );
    for e in entries {
        let pos = Campaign::parse_position(&e.position).expect("a valid position");
        assert_eq!(
            pos.perft(e.depth),
            e.nodes,
            "line {}: perft {} of {}",
            e.line,
            e.depth,
            e.position
        );
    }
}

#[test]
fn the_naive_implementation_matches_the_small_entries() {
    for e in entries().into_iter().filter(|e| e.nodes <= 20_000) {
        let naive = Naive::parse(&e.position);
        assert_eq!(
            naive.perft(e.depth),
            e.nodes,
            "line {}: perft {} of {}",
            e.line,
            e.depth,
            e.position
        );
    }
}
