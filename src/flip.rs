//! Fair coin flips between two players who do not trust each other, with no third party:
//! commit, respond, reveal.
//!
//! 1. Player A publishes a *commitment*: the SHA-256 digest of a secret 32-byte nonce, bound to
//!    the document that carries it (see [`commitment`]).
//! 2. Player B publishes its own nonce in the clear.
//! 3. A reveals its nonce; anyone can check it against the commitment.
//!
//! The coin is derived from both nonces, the game id and the flip ([`coin`]). A fixed its nonce
//! before seeing B's, and B chose its nonce without knowing A's, so neither can choose the
//! result. A can still refuse to reveal once it sees the result it would get; the game rules
//! then allow A nothing but the reveal or resigning.
//!
//! **Nonces need no storage.** A's nonce is the SHA-256 digest of an Ed25519 signature, made with
//! A's own SSH key, over a message naming the flip ([`nonce_message`]). Ed25519 signatures are
//! deterministic, so A can derive the same nonce again on any machine holding the key, and reveal
//! long after committing. B cannot predict it: computing that signature needs A's private key,
//! and without the key an Ed25519 signature is indistinguishable from random bytes. The
//! signature is made in its own SSH signature namespace (`correspond-nonce`), never used for
//! anything that is published, so the nonce cannot leak through a record's signature.
//!
//! Every hash input starts with a domain label, and every other part is a fixed 32 bytes (or a
//! fixed 8-byte number), so no two different inputs can be spelled alike.

use crate::digest::Digest;
use std::fmt;

/// The SSH signature namespace of the signatures that nonces are derived from.
pub const NONCE_NAMESPACE: &str = "correspond-nonce";

/// A side of the coin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Coin {
    /// Heads.
    Heads,
    /// Tails.
    Tails,
}

impl fmt::Display for Coin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Coin::Heads => "heads",
            Coin::Tails => "tails",
        })
    }
}

/// Which part of a flip a nonce is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The committing player's secret nonce.
    Commit,
    /// The responding player's public nonce.
    Respond,
}

/// The message whose `correspond-nonce` signature derives a nonce: the part, and the binding of
/// the flip (the digest of the committing document's bytes before its commitment).
#[must_use]
pub fn nonce_message(part: Part, binding: &Digest) -> Vec<u8> {
    let label: &[u8] = match part {
        Part::Commit => b"correspond/nonce/v1/commit\0",
        Part::Respond => b"correspond/nonce/v1/respond\0",
    };
    [label, &binding.0].concat()
}

/// A nonce from the raw bytes of a deterministic signature over [`nonce_message`].
#[must_use]
pub fn nonce_from_signature(signature: &[u8]) -> Digest {
    Digest::of_parts(&[b"correspond/nonce/v1\0", signature])
}

/// The commitment to `nonce` for the flip with this binding.
#[must_use]
pub fn commitment(binding: &Digest, nonce: &Digest) -> Digest {
    Digest::of_parts(&[b"correspond/commitment/v1\0", &binding.0, &nonce.0])
}

/// The coin of a flip: `flip` is the number of the document that carries the commitment (0 for
/// the header), `committed` the revealed nonce, `response` the other player's nonce.
#[must_use]
pub fn coin(game: &Digest, flip: u64, committed: &Digest, response: &Digest) -> Coin {
    let digest = Digest::of_parts(&[
        b"correspond/coin/v1\0",
        &game.0,
        &flip.to_be_bytes(),
        &committed.0,
        &response.0,
    ]);
    if digest.0[0] & 1 == 0 {
        Coin::Heads
    } else {
        Coin::Tails
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commitment_opens_only_with_its_nonce_and_binding() {
        let binding = Digest::of(b"header");
        let nonce = Digest::of(b"nonce");
        let c = commitment(&binding, &nonce);
        assert_eq!(commitment(&binding, &nonce), c);
        assert_ne!(commitment(&binding, &Digest::of(b"other")), c);
        assert_ne!(commitment(&Digest::of(b"other header"), &nonce), c);
    }

    #[test]
    fn the_coin_depends_on_every_input_and_is_fair_over_many_flips() {
        let game = Digest::of(b"game");
        let mut heads = 0;
        for i in 0..2000u32 {
            let a = Digest::of(&i.to_be_bytes());
            if coin(&game, 0, &a, &Digest::of(b"b")) == Coin::Heads {
                heads += 1;
            }
        }
        assert!((900..1100).contains(&heads), "{heads} heads in 2000");
        let a = Digest::of(b"a");
        let b = Digest::of(b"b");
        let flips: Vec<Coin> = (0..64).map(|n| coin(&game, n, &a, &b)).collect();
        assert!(flips.contains(&Coin::Heads) && flips.contains(&Coin::Tails));
    }

    #[test]
    fn nonce_messages_differ_by_part() {
        let binding = Digest::of(b"x");
        assert_ne!(
            nonce_message(Part::Commit, &binding),
            nonce_message(Part::Respond, &binding)
        );
    }
}
