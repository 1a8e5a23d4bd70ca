//! The perft data files in `tests/perft/`, replayed through each engine (every entry) and
//! through the naive second implementations where a game has one (the entries small enough for
//! a debug build).

use crate::campaign_naive::Naive as NaiveCampaign;
use crate::guerrilla_naive::Naive as NaiveGuerrilla;
use correspond::games::campaign::Campaign;
use correspond::games::chess::Chess;
use correspond::games::guerrilla::Guerrilla;
use correspond::rules::Game;

struct Entry {
    position: String,
    depth: u32,
    nodes: u64,
    line: usize,
}

fn entries(name: &str) -> Vec<Entry> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/perft")
        .join(name);
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
                "{name} line {}: unexpected `{line}`",
                i + 1
            );
        }
    }
    assert!(entries.len() > 15, "{name} holds {} entries", entries.len());
    entries
}

/// A second implementation's perft: position text and depth to leaf count.
type NaivePerft<'a> = &'a dyn Fn(&str, u32) -> u64;

/// `naive` is the second implementation, where the game has one.
fn check<G: Game>(name: &str, naive: Option<NaivePerft>) {
    for e in entries(name) {
        let pos = G::parse_position(&e.position)
            .unwrap_or_else(|err| panic!("{name} line {}: {err}", e.line));
        assert_eq!(
            pos.perft(e.depth),
            e.nodes,
            "{name} line {}: perft {} of {}",
            e.line,
            e.depth,
            e.position
        );
        if let Some(naive) = naive.filter(|_| e.nodes <= 20_000) {
            assert_eq!(
                naive(&e.position, e.depth),
                e.nodes,
                "{name} line {}: naive perft",
                e.line
            );
        }
    }
}

#[test]
fn campaign_perft_file() {
    check::<Campaign>(
        "campaign.perft",
        Some(&|p, d| NaiveCampaign::parse(p).perft(d)),
    );
}

#[test]
fn guerrilla_perft_file() {
    check::<Guerrilla>(
        "guerrilla.perft",
        Some(&|p, d| NaiveGuerrilla::parse(p).perft(d)),
    );
}

/// The published orthodox counts, every one of them: about eighteen million leaves, a few seconds
/// even in a debug build, because perft counts the last ply without playing it.
#[test]
fn chess_perft_file() {
    check::<Chess>("chess.perft", None);
}
