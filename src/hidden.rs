//! Hidden conditional lines (docs/conditional-moves.md): a commitment to a player's lines that
//! binds every reply, reveals one reply at a time, and says nothing else about the lines.
//!
//! The lines are a tree: each *place* in it is the moves since the commitment, ending with an
//! opponent's move, and holds one reply. The commitment is the root of a sparse Merkle tree
//! over the 256-bit [`key`] of each place, which anyone can compute from the moves: a key has
//! one position in the tree, so one place has one reply, and a second reply to the same moves
//! cannot be committed. A subtree with one leaf is that leaf, which names its key, so a reveal
//! proves a reply with about ten digests, not 256.
//!
//! - **Binding.** Walking down a key's path from the root, each node has one preimage (an inner
//!   node, a leaf or the empty subtree, told apart by their labels): two proofs of one key that
//!   end at different leaves, or at different depths, are a SHA-256 collision.
//! - **Hiding.** Every tree holds [`LEAVES`] leaves: the real places and padding at keys no
//!   moves can have, made from the secret seed. A leaf's hash holds a secret salt, so a proof's
//!   siblings say nothing of the replies or the keys beneath them. What a proof does show is
//!   which sibling subtrees are empty: an opponent who computes the key of a move they might
//!   play learns that no line answers it only where the sibling there is empty or the key
//!   shares the revealed leaf's whole path: about one move in 360 (`cargo bench --bench
//!   hidden` measures it).
//! - **No storage for the salts.** The seed is derived from the author's SSH key, as a coin
//!   flip's nonce is ([`crate::flip`]), so any machine holding the key makes the same tree again
//!   from the lines. A disclosure publishes the seed and the lines, from which anyone builds the
//!   tree again and compares its root with the commitment.
//!
//! Every hash input starts with its own domain label, and every other part is a fixed 32 bytes
//! or length-prefixed, so no two different inputs are spelled alike.

use crate::digest::Digest;

/// How many leaves every tree holds, real and padding: more than the most places lines can
/// have ([`crate::log::Conditional::MAX_LINES`] lines of
/// [`crate::log::Conditional::MAX_PLIES`] moves, half of them the opponent's: 450).
pub const LEAVES: usize = 512;

/// The longest proof a reveal may carry. 512 keys made by SHA-256 share their first 64 bits
/// with a chance of about one in 10^14; a tree that needs more is refused when it is built.
pub const MAX_PROOF: usize = 64;

/// The empty subtree's hash: no input hashes to it.
const EMPTY: Digest = Digest([0; 32]);

/// The key of a place: the commitment's binding (the digest of the move the lines follow) and
/// the moves since, each length-prefixed.
#[must_use]
pub fn key(binding: &Digest, moves: &[String]) -> Digest {
    let mut bytes = Vec::with_capacity(moves.len() * 8);
    for mv in moves {
        bytes.extend_from_slice(&(mv.len() as u64).to_be_bytes());
        bytes.extend_from_slice(mv.as_bytes());
    }
    Digest::of_parts(&[b"correspond/lines/key/v1\0", &binding.0, &bytes])
}

/// The message whose `correspond-nonce` signature derives the seed of the lines that follow
/// the move with this binding.
#[must_use]
pub fn seed_message(binding: &Digest) -> Vec<u8> {
    [&b"correspond/lines/seed/v1\0"[..], &binding.0].concat()
}

/// A seed from the raw bytes of a deterministic signature over [`seed_message`].
#[must_use]
pub fn seed_from_signature(signature: &[u8]) -> Digest {
    Digest::of_parts(&[b"correspond/lines/seed/v1\0", signature])
}

/// The salt of the leaf at `key`.
#[must_use]
pub fn salt(seed: &Digest, key: &Digest) -> Digest {
    Digest::of_parts(&[b"correspond/lines/salt/v1\0", &seed.0, &key.0])
}

/// A leaf: its key, its salt and its reply (empty for padding).
#[must_use]
pub fn leaf(key: &Digest, salt: &Digest, reply: &str) -> Digest {
    Digest::of_parts(&[
        b"correspond/lines/leaf/v1\0",
        &key.0,
        &salt.0,
        reply.as_bytes(),
    ])
}

fn node(left: &Digest, right: &Digest) -> Digest {
    Digest::of_parts(&[b"correspond/lines/node/v1\0", &left.0, &right.0])
}

/// Bit `depth` of `key`, from the most significant.
fn bit(key: &Digest, depth: usize) -> bool {
    key.0[depth / 8] & (0x80 >> (depth % 8)) != 0
}

/// What a reveal carries beside its reply: the leaf's salt and the siblings on its path, from
/// the root down.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The leaf's salt.
    pub salt: Digest,
    /// The sibling of each node on the path, from the root's children down.
    pub proof: Vec<Digest>,
}

impl Opening {
    /// Whether this opening shows `reply` at `key` in the tree whose root is `root`.
    #[must_use]
    pub fn opens(&self, root: &Digest, key: &Digest, reply: &str) -> bool {
        if self.proof.len() > MAX_PROOF {
            return false;
        }
        let mut hash = leaf(key, &self.salt, reply);
        for (depth, sibling) in self.proof.iter().enumerate().rev() {
            hash = if bit(key, depth) {
                node(sibling, &hash)
            } else {
                node(&hash, sibling)
            };
        }
        hash == *root
    }

    /// Whether this opening, of the leaf at `key`, shows anyone that no leaf is at `other`:
    /// where `other`'s path leaves `key`'s, the sibling there is the empty subtree, or it
    /// never leaves it before the leaf, whose subtree holds that leaf alone. This is all a
    /// proof tells of the places it does not open.
    #[must_use]
    pub fn shows_absent(&self, key: &Digest, other: &Digest) -> bool {
        match (0..self.proof.len().min(MAX_PROOF))
            .find(|&depth| bit(key, depth) != bit(other, depth))
        {
            Some(depth) => self.proof[depth] == EMPTY,
            None => key != other,
        }
    }
}

/// Why lines cannot be made a tree.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    /// Two keys share too long a start for a proof to reach them.
    #[error("two places of the lines share the first {MAX_PROOF} bits of their keys")]
    TooDeep,
}

/// A tree of hidden lines: its leaves, sorted by key, each with its salt and reply, and their
/// hashes, which the root and every opening are made from.
#[derive(Clone, Debug)]
pub struct Tree {
    leaves: Vec<(Digest, Digest, String)>,
    /// Each leaf's key and hash, in the leaves' order.
    hashes: Vec<(Digest, Digest)>,
    root: Digest,
}

impl Tree {
    /// The tree of `lines` (in their one spelling, [`crate::log::Conditional::lines`]), which
    /// follow the move with digest `binding`, salted from `seed`.
    ///
    /// # Errors
    /// [`TreeError::TooDeep`], which no honest seed meets in practice.
    pub fn new(binding: &Digest, seed: &Digest, lines: &[Vec<String>]) -> Result<Tree, TreeError> {
        let mut leaves: Vec<(Digest, Digest, String)> = Vec::with_capacity(LEAVES);
        for line in lines {
            // Each opponent's move in a line ends a place; one spelling of the lines gives
            // each place one reply, so a place met twice is the same leaf.
            for end in (1..line.len()).step_by(2) {
                let at = key(binding, &line[..end]);
                if !leaves.iter().any(|(k, _, _)| *k == at) {
                    leaves.push((at, salt(seed, &at), line[end].clone()));
                }
            }
        }
        let mut index: u64 = 0;
        while leaves.len() < LEAVES {
            let at = Digest::of_parts(&[
                b"correspond/lines/padding/v1\0",
                &seed.0,
                &index.to_be_bytes(),
            ]);
            leaves.push((at, salt(seed, &at), String::new()));
            index += 1;
        }
        leaves.sort_by_key(|l| l.0.0);
        let hashes: Vec<(Digest, Digest)> = leaves
            .iter()
            .map(|(k, s, reply)| (*k, leaf(k, s, reply)))
            .collect();
        let root = subtree(&hashes, 0)?;
        Ok(Tree {
            leaves,
            hashes,
            root,
        })
    }

    /// The commitment: the tree's root.
    #[must_use]
    pub fn root(&self) -> Digest {
        self.root
    }

    /// The reply at `key` and its opening, if the lines have a place there.
    #[must_use]
    pub fn open(&self, key: &Digest) -> Option<(String, Opening)> {
        let at = self.leaves.binary_search_by(|l| l.0.0.cmp(&key.0)).ok()?;
        let (_, salt, reply) = &self.leaves[at];
        if reply.is_empty() {
            return None;
        }
        let mut proof = Vec::new();
        let mut span = &self.hashes[..];
        let mut depth = 0;
        while span.len() > 1 {
            let split = span.partition_point(|(k, _)| !bit(k, depth));
            let (left, right) = span.split_at(split);
            let (mine, other) = if bit(key, depth) {
                (right, left)
            } else {
                (left, right)
            };
            proof.push(subtree(other, depth + 1).ok()?);
            span = mine;
            depth += 1;
        }
        Some((reply.clone(), Opening { salt: *salt, proof }))
    }
}

/// The hash of the subtree at `depth` holding `leaves` (sorted, all sharing their first `depth`
/// bits).
fn subtree(leaves: &[(Digest, Digest)], depth: usize) -> Result<Digest, TreeError> {
    match leaves {
        [] => Ok(EMPTY),
        [(_, hash)] => Ok(*hash),
        _ if depth >= MAX_PROOF => Err(TreeError::TooDeep),
        _ => {
            let split = leaves.partition_point(|(k, _)| !bit(k, depth));
            let (left, right) = leaves.split_at(split);
            Ok(node(
                &subtree(left, depth + 1)?,
                &subtree(right, depth + 1)?,
            ))
        }
    }
}

/// What is left, after `played` (the moves since the commitment), of each line that goes on
/// from there, in the lines' order.
pub fn rest_after<'a>(
    lines: &'a [Vec<String>],
    played: &'a [String],
) -> impl Iterator<Item = &'a [String]> {
    lines
        .iter()
        .filter(move |line| line.len() > played.len() && line.starts_with(played))
        .map(move |line| &line[played.len()..])
}

/// The reply the lines give after `played` (ending with the opponent's move), if one of them
/// does: one spelling of the lines gives one.
#[must_use]
pub fn reply_after<'a>(lines: &'a [Vec<String>], played: &'a [String]) -> Option<&'a str> {
    rest_after(lines, played)
        .next()
        .map(|rest| rest[0].as_str())
}

#[cfg(test)]
mod tests;
