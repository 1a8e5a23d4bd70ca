//! One game's part of the journal, locked, with each line read when its place is consulted.
//!
//! A long game's part holds one line per document the user signed in it, and it is opened at
//! every signing. Reading every line then (its JSON, the document inside, its digest) was about
//! a fifth of what a move cost on a 2,000-record game, and grew with the game. A line as this
//! program writes it starts with its game and document number, and its document starts with
//! the number again, so opening the part reads only that much of each line; a line is read
//! whole when a place it holds is consulted: the place about to be signed (every line of that
//! number, signature checked), the last of the file's records that the journal holds (which
//! vouches for what was checked before it was signed, found by reading lines from the file's
//! last number down), an import, an export.
//!
//! Damage is never passed over where it matters. The last line cut short, a line not UTF-8,
//! and a line that is not, from its start to its end, one entry of this game whose number its
//! document agrees with are read whole on opening, and any fault there stops signing in the
//! game, as before. A line damaged inside its fields stops signing when it is read: when its
//! place is signed at, and, when it lies above the last of the file's records that the journal
//! holds, at every signing that adds to a game already under way (`play` and the like). Checked
//! at both ends, with its number read twice, a line holds one entry, of that number, so no
//! other place depends on it.

use super::wire::{Keys, Wire};
use super::{Entry, JournalError};
use crate::digest::Digest;
use crate::log;
use ssh_key::PublicKey;
use std::cell::{Cell, OnceCell, RefCell};
use std::fs::File;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The length of a digest written in hex.
const DIGEST_HEX: usize = 64;

/// One game's part of the journal, locked.
pub struct GameJournal {
    file: File,
    path: PathBuf,
    game: Digest,
    /// The part as it was read; each line is read from it when first consulted.
    bytes: Vec<u8>,
    lines: Vec<Line>,
    keys: RefCell<Keys>,
}

/// A line of the part: its place's document number, and its entry once read.
struct Line {
    /// Its 1-based number in the file.
    number: usize,
    /// The document number its entry holds.
    document: u64,
    /// Where it is in the bytes read (its newline left out); empty for a line written since.
    text: Range<usize>,
    /// Its entry, or what is wrong with it, once read.
    entry: OnceCell<Result<Entry, String>>,
    /// Whether its entry's signature has been checked (see [`GameJournal::at`]).
    checked: Cell<bool>,
}

impl GameJournal {
    /// The part of `game` in the locked `file` at `path`, whose content is `bytes`.
    ///
    /// # Errors
    /// [`JournalError::Damaged`] at the first line that is the last cut short, not UTF-8, or
    /// neither starts as this program writes an entry of this game nor is one; when a lost last
    /// newline cannot be put back.
    pub(super) fn open(
        file: File,
        path: PathBuf,
        game: Digest,
        bytes: Vec<u8>,
    ) -> Result<GameJournal, JournalError> {
        let id = game.to_string();
        let mut journal = GameJournal {
            file,
            path,
            game,
            bytes: Vec::new(),
            lines: Vec::new(),
            keys: RefCell::new(Keys::default()),
        };
        let mut start = 0;
        for (i, line) in bytes.split_inclusive(|b| *b == b'\n').enumerate() {
            let number = i + 1;
            let whole = line.ends_with(b"\n");
            let end = start + line.len() - usize::from(whole);
            let text = std::str::from_utf8(&bytes[start..end]).map_err(|_| {
                let reason = if whole {
                    "not UTF-8 text".into()
                } else {
                    cut_short()
                };
                journal.damaged(number, reason)
            })?;
            let (document, entry) = match place_of(text, &id).filter(|_| whole) {
                Some(document) => (document, OnceCell::new()),
                None => {
                    let read = read_line(text, game, &mut journal.keys.borrow_mut(), false)
                        .map_err(|reason| {
                            journal.damaged(number, if whole { reason } else { cut_short() })
                        })?;
                    (read.document, OnceCell::from(Ok(read)))
                }
            };
            journal.lines.push(Line {
                number,
                document,
                text: start..end,
                entry,
                checked: Cell::new(false),
            });
            start += line.len();
        }
        if !bytes.is_empty() && !bytes.ends_with(b"\n") {
            // The last entry is whole but its newline is missing: put it back, so that the
            // next entry starts a line of its own.
            let path = journal.path.clone();
            journal
                .file
                .write_all(b"\n")
                .map_err(|source| JournalError::Io { path, source })?;
        }
        journal.bytes = bytes;
        Ok(journal)
    }

    /// The document `key` signed as document `document` after the document `prev` (`None`
    /// for a header), if it signed one. Every line of that number is read here, and its
    /// entry's signature checked, the first time (one or two lines: a place's own, and
    /// another player's in a journal two players share, or one signed after a race).
    ///
    /// # Errors
    /// [`JournalError::Damaged`] when a line of that number is not an entry, or its entry is
    /// not signed by its key.
    pub fn at(
        &self,
        key: &PublicKey,
        document: u64,
        prev: Option<Digest>,
    ) -> Result<Option<&Entry>, JournalError> {
        for (i, line) in self.lines.iter().enumerate() {
            if line.document != document {
                continue;
            }
            // Checked before its key and `prev` are compared: a key damaged into another valid
            // key would otherwise pass the line over as another key's, leaving the place empty.
            self.check_entry(i)?;
            let entry = self.entry(i)?;
            if entry.prev() == prev && entry.key.key_data() == key.key_data() {
                return Ok(Some(entry));
            }
        }
        Ok(None)
    }

    /// Reads every line and checks the signature of every entry.
    ///
    /// # Errors
    /// [`JournalError::Damaged`] at the first line that is not an entry signed by its key.
    pub fn check_all(&self) -> Result<(), JournalError> {
        for i in 0..self.lines.len() {
            self.check_entry(i)?;
        }
        Ok(())
    }

    /// Every entry, in the order they were recorded, each line read.
    ///
    /// # Errors
    /// [`JournalError::Damaged`] at the first line that is not an entry.
    pub fn entries(&self) -> Result<Vec<&Entry>, JournalError> {
        (0..self.lines.len()).map(|i| self.entry(i)).collect()
    }

    /// The last document of `file` that this journal holds exactly as the file has it, byte
    /// for byte: one the user signed there with this program, which checked every document
    /// before it first. `None` when it holds none of the file's records. Lines are read from
    /// the highest number the file has down, until one holds the file's document.
    ///
    /// The entry's own signature is not checked here: the caller checks the file's document,
    /// the same bytes, as part of the file.
    ///
    /// # Errors
    /// [`JournalError::Damaged`] when a line read is not an entry.
    pub fn last_signed_in(&self, file: &log::GameFile) -> Result<Option<usize>, JournalError> {
        let mut candidates: Vec<(usize, usize)> = self
            .lines
            .iter()
            .enumerate()
            .filter_map(|(i, line)| Some((usize::try_from(line.document).ok()?, i)))
            .filter(|&(d, _)| d >= 1 && d < file.documents())
            .collect();
        candidates.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (document, i) in candidates {
            if file.document(document) == self.entry(i)?.text {
                return Ok(Some(document));
            }
        }
        Ok(None)
    }

    /// The first record `key` signed in this game that leaves `file`'s line on top of
    /// another signer's document that `file` does not hold, with that document's number:
    /// followed back through the key's own records, it reaches a document by another that
    /// `file` lacks (`file` is behind the copy it was signed on) or holds in another version
    /// (the other signer signed two). Signing on `file` would then fork from a record the key
    /// built on, which reads as taking it back, or answer a second version of it (a coin flip
    /// revealed again against a nonce chosen after the first reveal). `None` when every such
    /// record reaches `file`'s line through the key's own records only: records of the key's
    /// that crossed the other's and were signed again on top of it (void by the crossing rule).
    ///
    /// Only the key's records above the last of `file`'s that the journal holds are followed,
    /// so a game played on one copy reads no more lines than [`GameJournal::last_signed_in`].
    ///
    /// # Errors
    /// [`JournalError::Damaged`] when a line read is not an entry.
    pub fn departure(
        &self,
        key: &PublicKey,
        file: &log::GameFile,
    ) -> Result<Option<(&Entry, u64)>, JournalError> {
        let floor = self.last_signed_in(file)?.unwrap_or(0) as u64;
        for i in 0..self.lines.len() {
            if self.lines[i].document <= floor {
                continue;
            }
            let signed = self.entry(i)?;
            if signed.key.key_data() != key.key_data() {
                continue;
            }
            let mut at = signed;
            while let Some(prev) = at.prev() {
                let before = at.document - 1;
                let held = usize::try_from(before)
                    .ok()
                    .filter(|&k| k < file.documents());
                if held.is_some_and(|k| file.digest(k) == prev) {
                    break;
                }
                match self.own(key, before, prev)? {
                    Some(own) => at = own,
                    None => return Ok(Some((signed, before))),
                }
            }
        }
        Ok(None)
    }

    /// The document `key` signed as document `document` whose digest is `digest`, if any.
    fn own(
        &self,
        key: &PublicKey,
        document: u64,
        digest: Digest,
    ) -> Result<Option<&Entry>, JournalError> {
        for (i, line) in self.lines.iter().enumerate() {
            if line.document == document {
                let entry = self.entry(i)?;
                if entry.key.key_data() == key.key_data() && entry.digest() == digest {
                    return Ok(Some(entry));
                }
            }
        }
        Ok(None)
    }

    /// Checks, before signing, that `key` may sign `signed` (a document's bytes without its
    /// signature line) as document `document` after `prev`: it has signed nothing there, or
    /// these very bytes (which an Ed25519 key signs the same way again).
    ///
    /// # Errors
    /// [`JournalError::Conflict`] with the document signed there before; damage as
    /// [`GameJournal::at`] finds it.
    pub fn check(
        &self,
        key: &PublicKey,
        document: u64,
        prev: Option<Digest>,
        signed: &[u8],
    ) -> Result<(), JournalError> {
        match self.at(key, document, prev)? {
            Some(earlier) if earlier.signed_bytes() != signed => {
                Err(JournalError::Conflict(Box::new(earlier.clone())))
            }
            _ => Ok(()),
        }
    }

    /// Records a document just signed, durably, before it is written anywhere else. A document
    /// already recorded is not recorded twice.
    ///
    /// # Errors
    /// [`JournalError::Conflict`] if the key signed another document there; when the journal
    /// cannot be written.
    pub fn record(&mut self, entry: Entry) -> Result<(), JournalError> {
        match self.at(&entry.key, entry.document, entry.prev())? {
            Some(earlier) if earlier.text == entry.text => Ok(()),
            Some(earlier) => Err(JournalError::Conflict(Box::new(earlier.clone()))),
            None => self.write(entry),
        }
    }

    /// Appends `entry`, synced, without asking whether its place holds one.
    pub(super) fn write(&mut self, entry: Entry) -> Result<(), JournalError> {
        let mut line = serde_json::to_string(&entry.wire()).expect("an entry always serializes");
        line.push('\n');
        let io = |source| JournalError::Io {
            path: self.path.clone(),
            source,
        };
        let before = self.file.metadata().map_err(io)?.len();
        let written = self
            .file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data());
        if let Err(e) = written {
            // A line cut short (a full disk) would stop every later signing in this game: the
            // journal goes back to its last whole line, and the document is not journaled.
            let _ = self
                .file
                .set_len(before)
                .and_then(|()| self.file.sync_data());
            return Err(io(e));
        }
        if before == 0 {
            // A new file's name lasts a power cut only once its folder is synced too.
            if let Some(Ok(dir)) = self.path.parent().map(std::fs::File::open) {
                let _ = dir.sync_all();
            }
        }
        self.lines.push(Line {
            number: self.lines.len() + 1,
            document: entry.document,
            text: 0..0,
            entry: OnceCell::from(Ok(entry)),
            checked: Cell::new(true),
        });
        Ok(())
    }

    /// The entry of line `i`, read the first time.
    fn entry(&self, i: usize) -> Result<&Entry, JournalError> {
        let line = &self.lines[i];
        let read = line.entry.get_or_init(|| {
            let text = std::str::from_utf8(&self.bytes[line.text.clone()])
                .map_err(|_| "not UTF-8 text".to_owned())?;
            let entry = read_line(text, self.game, &mut self.keys.borrow_mut(), false)?;
            // `place_of` read the number from the line's first `document` field, and JSON
            // with that field twice is refused: a guard, not a case that arises.
            if entry.document == line.document {
                Ok(entry)
            } else {
                Err("`document` is not the number the line starts with".into())
            }
        });
        read.as_ref()
            .map_err(|reason| self.damaged(line.number, reason.clone()))
    }

    /// Reads line `i` and checks its entry's signature, the first time.
    fn check_entry(&self, i: usize) -> Result<(), JournalError> {
        let entry = self.entry(i)?;
        let line = &self.lines[i];
        if !line.checked.get() {
            entry
                .check_signature()
                .map_err(|reason| self.damaged(line.number, reason))?;
            line.checked.set(true);
        }
        Ok(())
    }

    fn damaged(&self, line: usize, reason: String) -> JournalError {
        damaged(&self.path, line, reason)
    }
}

/// The document number of a line as this program writes one, read without reading the rest:
/// `{"game":"<game>","document":N,"key":"<key>","digest":"<digest>","text":"---\nseq: N\n`
/// and on (`"---\nformat: ` for the header, document 0), to the `"}` that ends the line. The
/// number is read twice, at the line's start and in its document, and the two must agree:
/// damage to either would otherwise move the line to another place unseen, and leave its own
/// place looking empty. The document must be one JSON string that runs to the line's end, so
/// that no other entry hides in the line (two lines joined where a newline was lost). `None`
/// for any other line, which is then read whole.
fn place_of(line: &str, game: &str) -> Option<u64> {
    let rest = line
        .strip_prefix("{\"game\":\"")?
        .strip_prefix(game)?
        .strip_prefix("\",\"document\":")?;
    let (number, rest) = rest.split_once(",\"key\":\"")?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (_key, rest) = rest.split_once("\",\"digest\":\"")?;
    let text = rest.get(DIGEST_HEX..)?.strip_prefix("\",\"text\":\"")?;
    let document = text.strip_prefix("---\\n")?;
    // `seq: 03` is not how a record writes 3: a leading zero never agrees.
    let agrees = if number == "0" {
        document.starts_with("format: ")
    } else {
        document
            .strip_prefix("seq: ")?
            .strip_prefix(number)?
            .starts_with("\\n")
    };
    (agrees && one_string_to_the_end(text)).then(|| number.parse().ok())?
}

/// Whether `text` (what follows a JSON string's opening quote) is that string and then `}`,
/// and nothing more: its first quote that no backslash escapes is its last but one byte.
fn one_string_to_the_end(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(found) = bytes
        .get(at..)
        .and_then(|b| memchr::memchr2(b'"', b'\\', b))
    {
        let i = at + found;
        if bytes[i] == b'"' {
            return &bytes[i..] == b"\"}";
        }
        // A backslash and the character it escapes.
        at = i + 2;
    }
    false
}

/// The entry a line of `game`'s part holds, its signature checked with `check`.
pub(super) fn read_line(
    line: &str,
    game: Digest,
    keys: &mut Keys,
    check: bool,
) -> Result<Entry, String> {
    let wire = serde_json::from_str::<Wire>(line).map_err(|e| e.to_string())?;
    let entry = if check {
        wire.entry(keys)?
    } else {
        wire.unchecked(keys)?
    };
    if entry.game != game {
        return Err("an entry of another game".into());
    }
    Ok(entry)
}

/// Why a last line that is not an entry is damage, said so that the user can tell what to do.
pub(super) fn cut_short() -> String {
    "the last line is cut short (if a command was killed while signing, its record was never \
     written anywhere, and the line can be removed)"
        .into()
}

pub(super) fn damaged(path: &Path, line: usize, reason: String) -> JournalError {
    JournalError::Damaged {
        path: path.to_owned(),
        line,
        reason,
    }
}
