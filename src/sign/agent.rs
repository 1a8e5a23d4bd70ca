//! A minimal ssh-agent client: list the keys, and sign with one. Just the two messages of the
//! agent protocol (draft-miller-ssh-agent) that signing needs, so that keys held only by an
//! agent (hardware-backed or passphrase-protected and unlocked once) work.

use super::{SignError, Signer, decode_signature, key_blob};
use ssh_key::{HashAlg, PublicKey, SshSig};
use std::path::{Path, PathBuf};

const REQUEST_IDENTITIES: u8 = 11;
const IDENTITIES_ANSWER: u8 = 12;
const SIGN_REQUEST: u8 = 13;
const SIGN_RESPONSE: u8 = 14;

/// A key held by a running agent.
pub(super) struct AgentSigner {
    socket: PathBuf,
    key: PublicKey,
}

impl AgentSigner {
    /// The agent's signer for `key`, if the agent at `socket` holds it.
    pub(super) fn find(socket: &Path, key: &PublicKey) -> Result<Option<AgentSigner>, SignError> {
        let held = agent_keys(socket)?;
        Ok(held
            .iter()
            .any(|k| k.key_data() == key.key_data())
            .then(|| AgentSigner {
                socket: socket.to_owned(),
                key: key.clone(),
            }))
    }
}

/// The public keys the agent at `socket` holds, in the agent's order. A key of a kind this
/// program cannot read is left out: it could not sign a record anyway.
///
/// # Errors
/// When the agent cannot be reached or its answer cannot be read.
pub fn agent_keys(socket: &Path) -> Result<Vec<PublicKey>, SignError> {
    let reply = request(socket, &[REQUEST_IDENTITIES])?;
    let mut r = Reader(&reply);
    if r.byte()? != IDENTITIES_ANSWER {
        return Err(SignError::Agent(
            "the agent refused to list its keys".into(),
        ));
    }
    let mut keys = Vec::new();
    for _ in 0..r.u32()? {
        let blob = r.string()?;
        let _comment = r.string()?;
        if let Ok(key) = PublicKey::from_bytes(blob) {
            keys.push(key);
        }
    }
    Ok(keys)
}

impl Signer for AgentSigner {
    fn public_key(&self) -> &PublicKey {
        &self.key
    }

    fn sign_raw(&self, namespace: &str, message: &[u8]) -> Result<SshSig, SignError> {
        let data = SshSig::signed_data(namespace, HashAlg::Sha512, message)
            .map_err(|e| SignError::Signing(super::foreign(&e)))?;
        let mut msg = vec![SIGN_REQUEST];
        put_string(&mut msg, &key_blob(self.key.key_data()));
        put_string(&mut msg, &data);
        msg.extend_from_slice(&0u32.to_be_bytes());
        let reply = request(&self.socket, &msg)?;
        let mut r = Reader(&reply);
        if r.byte()? != SIGN_RESPONSE {
            return Err(SignError::Agent(
                "the agent refused to sign (is the key still loaded?)".into(),
            ));
        }
        let signature = decode_signature(r.string()?)?;
        SshSig::new(
            self.key.key_data().clone(),
            namespace,
            HashAlg::Sha512,
            signature,
        )
        .map_err(|e| SignError::Signing(super::foreign(&e)))
    }
}

fn put_string(out: &mut Vec<u8>, bytes: &[u8]) {
    let len = u32::try_from(bytes.len()).expect("agent messages are small");
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(bytes);
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], SignError> {
        if self.0.len() < n {
            return Err(SignError::Agent("the agent's reply is cut short".into()));
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Ok(head)
    }

    fn byte(&mut self) -> Result<u8, SignError> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, SignError> {
        let b = self.take(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn string(&mut self) -> Result<&'a [u8], SignError> {
        let len = self.u32()? as usize;
        self.take(len)
    }
}

#[cfg(unix)]
fn request(socket: &Path, message: &[u8]) -> Result<Vec<u8>, SignError> {
    use std::io::{Read, Write};
    use std::os::unix::net::UnixStream;
    let io = |e: std::io::Error| SignError::Agent(format!("{}: {e}", crate::text::path(socket)));
    let mut stream = UnixStream::connect(socket).map_err(io)?;
    // An agent that never answers is no agent, not a command that hangs; signing may wait on a
    // person (a hardware key's touch), listing the keys need not.
    let patience = if message.first() == Some(&SIGN_REQUEST) {
        std::time::Duration::from_secs(120)
    } else {
        std::time::Duration::from_secs(5)
    };
    stream.set_read_timeout(Some(patience)).map_err(io)?;
    stream.set_write_timeout(Some(patience)).map_err(io)?;
    let mut framed = Vec::with_capacity(message.len() + 4);
    put_string(&mut framed, message);
    stream.write_all(&framed).map_err(io)?;
    let mut len = [0u8; 4];
    stream.read_exact(&mut len).map_err(io)?;
    let len = u32::from_be_bytes(len) as usize;
    if len > 256 * 1024 {
        return Err(SignError::Agent("the agent's reply is too long".into()));
    }
    let mut reply = vec![0u8; len];
    stream.read_exact(&mut reply).map_err(io)?;
    Ok(reply)
}

#[cfg(not(unix))]
fn request(_socket: &Path, _message: &[u8]) -> Result<Vec<u8>, SignError> {
    Err(SignError::Agent(
        "ssh-agent is supported on Unix only".into(),
    ))
}
