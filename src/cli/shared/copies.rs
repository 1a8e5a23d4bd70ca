//! Copies of one game among the files a listing was given: a club's folder, or a repository
//! with each player's copy checked out side by side. Each copy can verify on its own while two
//! of them fork, and then neither is the game: one player signed two different records at one
//! place (equivocation), or both players appended at once (a race that the crossing rule
//! settles). `games` and `standings` say so rather than list or count either copy as the game.

use correspond::digest::Digest;
use correspond::fork::{self, Fork, Relation};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Two files, by their index among those checked, that are copies of one game and fork.
pub(crate) struct Forked {
    pub a: usize,
    pub b: usize,
    /// The game's id.
    pub game: Digest,
    pub fork: Box<Fork>,
}

/// The pairs of valid files among `files` (each with its game's id, `None` for a file that is no
/// valid game) that are copies of one game and fork, in the order of the files. Copies are read
/// again only where a game has more than one, and replayed only where neither is the start of
/// the other; one that can no longer be read or compared (changed since) is passed over.
pub(crate) fn forks(files: &[PathBuf], games: &[Option<Digest>]) -> Vec<Forked> {
    let mut by_game: BTreeMap<Digest, Vec<usize>> = BTreeMap::new();
    for (i, game) in games.iter().enumerate() {
        if let Some(game) = game {
            by_game.entry(*game).or_default().push(i);
        }
    }
    let mut forked = Vec::new();
    for (game, copies) in by_game.iter().filter(|(_, copies)| copies.len() > 1) {
        let bytes: Vec<(usize, Vec<u8>)> = copies
            .iter()
            .filter_map(|&i| Some((i, correspond::log::read_limited(&files[i]).ok()?)))
            .collect();
        for (n, (a, a_bytes)) in bytes.iter().enumerate() {
            for (b, b_bytes) in &bytes[n + 1..] {
                // Both verify, so one that is the start of the other is that copy with records
                // appended (a player behind): no fork, and no need to replay either.
                if a_bytes.starts_with(b_bytes) || b_bytes.starts_with(a_bytes) {
                    continue;
                }
                if let Ok(Relation::Fork(fork)) = fork::compare(a_bytes, b_bytes) {
                    forked.push(Forked {
                        a: *a,
                        b: *b,
                        game: *game,
                        fork,
                    });
                }
            }
        }
    }
    forked.sort_by_key(|f| (f.a, f.b));
    forked
}

/// What a listing says of a fork, in one line: where, who signed, and what to run.
pub(crate) fn words(forked: &Forked, a: &Path, b: &Path) -> String {
    let (a, b) = (
        correspond::text::path(a).to_string(),
        correspond::text::path(b).to_string(),
    );
    let command = format!(
        "correspond compare {} {}",
        correspond::text::shell_word(&a),
        correspond::text::shell_word(&b)
    );
    let fork = &forked.fork;
    let [(signer_a, _), (signer_b, _)] = &fork.records;
    let (signer_a, signer_b) = (
        correspond::text::escape(signer_a),
        correspond::text::escape(signer_b),
    );
    let n = fork.document;
    if fork.equivocation {
        format!(
            "{a} and {b} are copies of one game that fork at record {n}: EQUIVOCATION: \
             {signer_a} signed a different record {n} in each (`{command}` writes the proof)"
        )
    } else {
        format!(
            "{a} and {b} are copies of one game that fork at record {n}, signed by {signer_a} \
             in one and {signer_b} in the other (`{command}` says which stands)"
        )
    }
}

/// Another copy of a file's game that forks with it, in the JSON of `games` and `verify`.
#[derive(Clone, serde::Serialize)]
pub(crate) struct ForkRow {
    /// The other copy.
    with: String,
    /// The first record that differs.
    pub record: usize,
    /// Whether one player signed both records there.
    pub equivocation: bool,
}

impl ForkRow {
    /// The other copy's file.
    pub(crate) fn with(&self) -> &Path {
        Path::new(&self.with)
    }
}

/// The copies file `i` (of `named`) forks with, as its JSON row names them.
pub(crate) fn rows(i: usize, forks: &[Forked], named: &[PathBuf]) -> Vec<ForkRow> {
    forks
        .iter()
        .filter_map(|f| {
            let with = match i {
                _ if i == f.a => f.b,
                _ if i == f.b => f.a,
                _ => return None,
            };
            Some(ForkRow {
                with: named[with].to_string_lossy().into_owned(),
                record: f.fork.document,
                equivocation: f.fork.equivocation,
            })
        })
        .collect()
}
