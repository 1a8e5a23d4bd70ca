//! The journal's JSON: one entry per line of a game's file ([`Wire`]), and the whole journal
//! as one document to move between machines ([`Export`]).

use super::{Entry, FORMAT, JournalError};
use crate::digest::Digest;
use serde::{Deserialize, Serialize};
use ssh_key::PublicKey;
use std::collections::BTreeMap;

/// An entry as JSON writes it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Wire {
    pub(super) game: String,
    pub(super) document: u64,
    pub(super) key: String,
    pub(super) digest: String,
    pub(super) text: String,
}

/// The keys already read from a journal's lines, by their text: a game's part of the journal
/// holds thousands of entries by one or two keys.
#[derive(Default)]
pub(super) struct Keys(BTreeMap<String, PublicKey>);

impl Keys {
    pub(super) fn read(&mut self, text: &str) -> Result<PublicKey, String> {
        if let Some(key) = self.0.get(text) {
            return Ok(key.clone());
        }
        // Journals are imported from other machines.
        let key = PublicKey::from_openssh(text)
            .map_err(|e| format!("`key`: {}", crate::sign::foreign(&e)))?;
        if !key.key_data().is_ed25519() {
            return Err("`key` is not an Ed25519 key".into());
        }
        self.0.insert(text.to_owned(), key.clone());
        Ok(key)
    }
}

impl Wire {
    /// The entry, its signature checked.
    pub(super) fn entry(self, keys: &mut Keys) -> Result<Entry, String> {
        let entry = self.unchecked(keys)?;
        entry.check_signature()?;
        Ok(entry)
    }

    /// The entry, its signature not yet checked.
    pub(super) fn unchecked(self, keys: &mut Keys) -> Result<Entry, String> {
        let game = Digest::parse(&self.game).ok_or("`game` is not 64 lower-case hex digits")?;
        let key = keys.read(&self.key)?;
        let entry = Entry::unchecked(key, game, self.document, self.text)?;
        if entry.digest().to_string() != self.digest {
            return Err("`digest` is not the SHA-256 of `text`".into());
        }
        Ok(entry)
    }
}

/// A whole journal as one JSON document, to move it between machines.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Export {
    format: String,
    entries: Vec<Wire>,
}

impl Export {
    /// The entries, sorted by game, key and document.
    pub(super) fn of(mut entries: Vec<Entry>) -> Export {
        entries.sort_by(|a, b| {
            let key = |e: &Entry| {
                (
                    e.game.0,
                    e.key.to_bytes().ok(),
                    e.document,
                    e.prev().map(|p| p.0),
                )
            };
            key(a).cmp(&key(b))
        });
        Export {
            format: FORMAT.to_owned(),
            entries: entries.iter().map(Entry::wire).collect(),
        }
    }

    /// Reads an exported journal and checks every entry.
    ///
    /// # Errors
    /// [`JournalError::Import`] naming what is wrong: not JSON, another format, or an entry (by
    /// its index from 0) that is not a document signed by its key at its place.
    pub fn parse(json: &str) -> Result<Vec<Entry>, JournalError> {
        let export: Export = serde_json::from_str(json).map_err(|e| JournalError::Import {
            entry: None,
            reason: e.to_string(),
        })?;
        if export.format != FORMAT {
            return Err(JournalError::Import {
                entry: None,
                reason: format!(
                    "the format is `{}`; this program reads `{FORMAT}`",
                    crate::text::shown(&export.format)
                ),
            });
        }
        let mut keys = Keys::default();
        export
            .entries
            .into_iter()
            .enumerate()
            .map(|(i, wire)| {
                wire.entry(&mut keys)
                    .map_err(|reason| JournalError::Import {
                        entry: Some(i),
                        reason,
                    })
            })
            .collect()
    }

    /// The JSON text.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("an export always serializes") + "\n"
    }
}
