//! SSH signatures (the SSHSIG format of `ssh-keygen -Y sign`) over game-file documents.
//!
//! Records are signed in the namespace `correspond`, so a move's signature can never pass for a
//! git commit's or an email's, and the other way round. Signatures are stored as one line of
//! base64: the body of the `-----BEGIN SSH SIGNATURE-----` armour, which [`armor`] restores for
//! OpenSSH.
//!
//! Only Ed25519 keys are used: their signatures are deterministic, which the coin flips rely
//! on (see [`crate::flip`]) and which makes files reproducible.

mod agent;
mod keys;
mod verifier;

pub use agent::agent_keys;
pub use keys::{KeySource, Passphrase, key_kind, load_signer, private_key, public_key};
pub use verifier::Verifier;

use ssh_encoding::{Decode, Encode};
use ssh_key::public::KeyData;
use ssh_key::{HashAlg, LineEnding, PrivateKey, PublicKey, SshSig};
use std::path::PathBuf;

/// The SSH signature namespace of game-file documents.
pub const NAMESPACE: &str = "correspond";

/// An ssh-key error as our errors carry it. Its text can quote, byte for byte, what it was
/// reading (an algorithm's name, a label) from a game file, a key file or an agent: escaped
/// here, where it enters our errors, so that no layer above can print it raw.
pub(crate) fn foreign(e: &impl std::fmt::Display) -> String {
    crate::text::escape(&e.to_string()).into_owned()
}

/// Why signing or checking a signature failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SignError {
    /// A key file could not be read.
    #[error("cannot read the key {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file that is not an OpenSSH key.
    #[error("{path} is not an OpenSSH key: {reason}")]
    KeyFormat {
        /// The file.
        path: PathBuf,
        /// The parser's reason.
        reason: String,
    },
    /// A key of another type than Ed25519: the key (or its file), and its kind in words.
    #[error("{0} is {1}; correspond signs with Ed25519 keys only")]
    NotEd25519(String, String),
    /// The passphrase did not decrypt the key.
    #[error("the passphrase for {0} is wrong")]
    WrongPassphrase(PathBuf),
    /// An encrypted key and no way to ask for its passphrase.
    #[error("{0} is protected by a passphrase and there is no terminal to ask for it")]
    NoPassphrase(PathBuf),
    /// Only a public key was given and no running agent holds its private half.
    #[error("no private key for {0}: give the private key file, or load the key into ssh-agent")]
    NoPrivateKey(String),
    /// The SSH agent failed.
    #[error("ssh-agent: {0}")]
    Agent(String),
    /// Text that is not an OpenSSH public key: the parser's reason.
    #[error("{0}")]
    NotAKey(String),
    /// The signature text is not an SSH signature.
    #[error("the signature is not a valid SSH signature: {0}")]
    Malformed(String),
    /// The signature was made for another purpose.
    #[error("the signature is for namespace `{}`, not `correspond`", crate::text::shown(.0))]
    Namespace(String),
    /// A valid SSH signature, but not in the one spelling game files use.
    #[error(
        "{0}; a correspond signature has one spelling: SHA-512, namespace `correspond`, no reserved data"
    )]
    Spelling(String),
    /// The signature was made with another key than the one expected.
    #[error("the signature was made with the key {0}")]
    OtherKey(String),
    /// The signature does not match the bytes.
    #[error("the signature does not match the signed bytes")]
    Mismatch,
    /// Signing failed.
    #[error("signing failed: {0}")]
    Signing(String),
}

/// Something that can make SSH signatures with one key: a private key file, or an agent.
pub trait Signer {
    /// The key's public half.
    fn public_key(&self) -> &PublicKey;

    /// Signs `message` in `namespace`, returning the raw SSHSIG.
    ///
    /// # Errors
    /// When the key or the agent cannot sign.
    fn sign_raw(&self, namespace: &str, message: &[u8]) -> Result<SshSig, SignError>;

    /// Signs a document's bytes for a game file: the one-line base64 signature.
    ///
    /// # Errors
    /// When the key or the agent cannot sign.
    fn sign(&self, message: &[u8]) -> Result<String, SignError> {
        Ok(encode(&self.sign_raw(NAMESPACE, message)?))
    }
}

/// A signer holding the private key in memory.
pub struct KeySigner {
    key: PrivateKey,
}

impl KeySigner {
    /// A signer for a decrypted Ed25519 private key.
    ///
    /// # Errors
    /// [`SignError::NotEd25519`] for other key types.
    pub fn new(key: PrivateKey) -> Result<KeySigner, SignError> {
        if !key.public_key().key_data().is_ed25519() {
            return Err(SignError::NotEd25519(
                fingerprint(key.public_key()),
                key_kind(key.algorithm().as_str()),
            ));
        }
        Ok(KeySigner { key })
    }
}

impl Signer for KeySigner {
    fn public_key(&self) -> &PublicKey {
        self.key.public_key()
    }

    fn sign_raw(&self, namespace: &str, message: &[u8]) -> Result<SshSig, SignError> {
        self.key
            .sign(namespace, HashAlg::Sha512, message)
            .map_err(|e| SignError::Signing(foreign(&e)))
    }
}

/// The key's SHA-256 fingerprint, as `ssh-keygen -l` prints it.
#[must_use]
pub fn fingerprint(key: &PublicKey) -> String {
    key.fingerprint(HashAlg::Sha256).to_string()
}

/// The one-line base64 form of a signature, as game files store it.
#[must_use]
pub fn encode(sig: &SshSig) -> String {
    let pem = sig
        .to_pem(LineEnding::LF)
        .expect("an SSH signature always has a PEM encoding");
    pem.lines().filter(|l| !l.starts_with("-----")).collect()
}

/// The `-----BEGIN SSH SIGNATURE-----` armour that `ssh-keygen -Y verify` reads.
#[must_use]
pub fn armor(base64: &str) -> String {
    let mut out = String::from("-----BEGIN SSH SIGNATURE-----\n");
    for chunk in base64.as_bytes().chunks(70) {
        out.push_str(&String::from_utf8_lossy(chunk));
        out.push('\n');
    }
    out.push_str("-----END SSH SIGNATURE-----\n");
    out
}

/// Reads a stored signature.
///
/// # Errors
/// [`SignError::Malformed`] when it is not an SSH signature.
pub fn decode(base64: &str) -> Result<SshSig, SignError> {
    let sig = SshSig::from_pem(armor(base64)).map_err(|e| SignError::Malformed(foreign(&e)))?;
    // Only the canonical encoding is accepted, so that one signature has one spelling.
    if encode(&sig) != base64 {
        return Err(SignError::Malformed("not in its canonical encoding".into()));
    }
    Ok(sig)
}

/// Checks that `base64` is a `correspond` signature by `key` over exactly `message`, spelled the
/// one way game files spell signatures: canonical base64 of an SSHSIG in namespace
/// `correspond`, hashed with SHA-512, with no reserved data.
///
/// # Errors
/// Why not: malformed, another namespace, another spelling, another key, or not matching the
/// bytes.
pub fn verify(key: &PublicKey, message: &[u8], base64: &str) -> Result<(), SignError> {
    let sig = decode(base64)?;
    if sig.namespace() != NAMESPACE {
        return Err(SignError::Namespace(sig.namespace().to_owned()));
    }
    // OpenSSH would accept version 0, SHA-256 and reserved data too; one document, one
    // signature.
    if sig.version() != 1 {
        return Err(SignError::Spelling(format!(
            "the signature is of SSHSIG version {}",
            sig.version()
        )));
    }
    if sig.hash_alg() != HashAlg::Sha512 {
        return Err(SignError::Spelling(format!(
            "the signature hashes the document with {}",
            sig.hash_alg()
        )));
    }
    if !sig.reserved().is_empty() {
        let n = sig.reserved().len();
        return Err(SignError::Spelling(format!(
            "the signature carries {n} byte{} of reserved data",
            if n == 1 { "" } else { "s" }
        )));
    }
    if sig.public_key() != key.key_data() {
        let other = PublicKey::new(sig.public_key().clone(), "");
        return Err(SignError::OtherKey(fingerprint(&other)));
    }
    // The key is the player's, so an Ed25519 key: its signature ends with S.
    if !canonical_s(sig.signature_bytes()) {
        return Err(SignError::Spelling(
            "the Ed25519 signature's S is not below the group order (OpenSSH accepts this second \
             spelling of a signature; correspond does not)"
                .into(),
        ));
    }
    key.verify(NAMESPACE, message, &sig)
        .map_err(|_| SignError::Mismatch)
}

/// Whether an Ed25519 signature's `S` (its last 32 bytes, little-endian) is below the group
/// order `L`, as RFC 8032 requires: `S + L` verifies the same equation, so without this rule
/// every signature would have a second spelling.
fn canonical_s(signature: &[u8]) -> bool {
    /// L = 2^252 + 27742317777372353535851937790883648493, little-endian.
    const L: [u8; 32] = [
        0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde,
        0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
    ];
    let Some(s) = signature.get(32..64) else {
        return false;
    };
    // Compared from the most significant byte down.
    for (a, b) in s.iter().rev().zip(L.iter().rev()) {
        if a != b {
            return a < b;
        }
    }
    false
}

/// Encodes a public key's wire form (for the agent protocol).
fn key_blob(key: &KeyData) -> Vec<u8> {
    let mut blob = Vec::new();
    key.encode(&mut blob)
        .expect("encoding into a Vec cannot fail");
    blob
}

fn decode_signature(blob: &[u8]) -> Result<ssh_key::Signature, SignError> {
    let mut reader = blob;
    ssh_key::Signature::decode(&mut reader).map_err(|e| SignError::Agent(foreign(&e)))
}

#[cfg(test)]
mod tests;
