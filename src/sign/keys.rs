//! Finding a player's signing key: a private key file (decrypted with a passphrase if need
//! be), or a key held by a running ssh-agent.
//!
//! Which key to use is the command line's decision (`--key`, git's `user.signingKey`, or
//! `~/.ssh/id_ed25519`); this module only turns that choice into a [`Signer`]. Private keys are
//! read into memory for one command and never written anywhere.

use super::agent::AgentSigner;
use super::{KeySigner, SignError, Signer, fingerprint};
use ssh_key::{PrivateKey, PublicKey};
use std::path::{Path, PathBuf};

/// Where the signing key comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeySource {
    /// A key file: a private key, or a public key whose private half is in the agent or in the
    /// file of the same name without `.pub`.
    File(PathBuf),
    /// A public key written out, as git's `user.signingKey = key::ssh-ed25519 ...` allows; the
    /// agent must hold its private half.
    Literal(PublicKey),
}

/// Asks for the passphrase of an encrypted key file; `None` when nobody can be asked.
pub type Passphrase<'a> = &'a dyn Fn(&Path) -> Option<String>;

/// Turns a key choice into a signer. An agent that holds the key is preferred, so that a
/// passphrase is asked for only when there is no other way.
///
/// # Errors
/// When the key cannot be read, decrypted, or found in the agent; or is not Ed25519.
pub fn load_signer(
    source: &KeySource,
    agent: Option<&Path>,
    passphrase: Passphrase<'_>,
) -> Result<Box<dyn Signer>, SignError> {
    match source {
        KeySource::Literal(key) => {
            from_agent(agent, key)?.ok_or_else(|| SignError::NoPrivateKey(fingerprint(key)))
        }
        KeySource::File(path) => load_file(path, agent, passphrase),
    }
}

fn from_agent(agent: Option<&Path>, key: &PublicKey) -> Result<Option<Box<dyn Signer>>, SignError> {
    check_ed25519(key)?;
    let Some(socket) = agent else {
        return Ok(None);
    };
    // An agent that cannot be reached is no reason to fail when the key file can sign.
    match AgentSigner::find(socket, key) {
        Ok(found) => Ok(found.map(|s| Box::new(s) as Box<dyn Signer>)),
        Err(_) => Ok(None),
    }
}

fn check_ed25519(key: &PublicKey) -> Result<(), SignError> {
    if key.key_data().is_ed25519() {
        Ok(())
    } else {
        Err(SignError::NotEd25519(
            fingerprint(key),
            key.algorithm().to_string(),
        ))
    }
}

fn load_file(
    path: &Path,
    agent: Option<&Path>,
    passphrase: Passphrase<'_>,
) -> Result<Box<dyn Signer>, SignError> {
    let text = std::fs::read_to_string(path).map_err(|source| SignError::Read {
        path: path.to_owned(),
        source,
    })?;
    let format_error = |reason: String| SignError::KeyFormat {
        path: path.to_owned(),
        reason,
    };
    if text
        .trim_start()
        .starts_with("-----BEGIN OPENSSH PRIVATE KEY-----")
    {
        let private = PrivateKey::from_openssh(&text).map_err(|e| format_error(e.to_string()))?;
        if let Some(signer) = from_agent(agent, private.public_key())? {
            return Ok(signer);
        }
        let private = if private.is_encrypted() {
            let secret =
                passphrase(path).ok_or_else(|| SignError::NoPassphrase(path.to_owned()))?;
            private
                .decrypt(secret.as_bytes())
                .map_err(|_| SignError::WrongPassphrase(path.to_owned()))?
        } else {
            private
        };
        return Ok(Box::new(KeySigner::new(private)?));
    }
    let public = PublicKey::from_openssh(text.trim())
        .map_err(|e| format_error(format!("neither a private key nor a public key ({e})")))?;
    if let Some(signer) = from_agent(agent, &public)? {
        return Ok(signer);
    }
    let private_path = path
        .to_string_lossy()
        .strip_suffix(".pub")
        .map(PathBuf::from);
    match private_path {
        Some(p) if p.exists() => load_file(&p, agent, passphrase),
        _ => Err(SignError::NoPrivateKey(fingerprint(&public))),
    }
}
