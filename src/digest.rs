//! SHA-256 digests as the game file writes them: 64 lower-case hex digits.
//!
//! Game ids, chain links, coin-flip commitments and nonces are all 32-byte values; one type
//! with one spelling keeps them from being written two ways.

use sha2::{Digest as _, Sha256};
use std::fmt;

/// A 32-byte value: a SHA-256 digest, or a coin-flip nonce.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Digest(pub [u8; 32]);

impl Digest {
    /// The SHA-256 digest of `bytes`.
    #[must_use]
    pub fn of(bytes: &[u8]) -> Digest {
        Digest(Sha256::digest(bytes).into())
    }

    /// The SHA-256 digest of several parts, each a fixed-length value or a domain label, in
    /// order. The caller keeps the parts unambiguous (fixed lengths, or a label first).
    #[must_use]
    pub fn of_parts(parts: &[&[u8]]) -> Digest {
        let mut hasher = Sha256::new();
        for part in parts {
            hasher.update(part);
        }
        Digest(hasher.finalize().into())
    }

    /// Reads 64 lower-case hex digits (upper case is another spelling, and refused).
    #[must_use]
    pub fn parse(text: &str) -> Option<Digest> {
        let mut out = [0u8; 32];
        match base16ct::lower::decode(text, &mut out) {
            Ok(decoded) if decoded.len() == 32 => Some(Digest(out)),
            _ => None,
        }
    }

    /// The first eight bytes as 16 hex digits, for reports.
    #[must_use]
    pub fn short(&self) -> String {
        self.to_string()[..16].to_owned()
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut hex = [0u8; 64];
        let text = base16ct::lower::encode_str(&self.0, &mut hex).map_err(|_| fmt::Error)?;
        f.write_str(text)
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_only_lower_case_is_read() {
        let d = Digest::of(b"abc");
        assert_eq!(
            d.to_string(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(Digest::parse(&d.to_string()), Some(d));
        assert_eq!(Digest::parse(&d.to_string().to_uppercase()), None);
        assert_eq!(Digest::parse("ab"), None);
        assert_eq!(Digest::parse(&"g".repeat(64)), None);
        assert_eq!(Digest::of_parts(&[b"a", b"bc"]), d);
    }
}
