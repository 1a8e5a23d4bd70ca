//! The signing journal: every document a user's keys have signed, kept so that no command ever
//! signs a second, different document at a place where one was signed already.
//!
//! Two records with one number, signed by one player, prove that the player equivocated
//! (see [`crate::fork`]). An honest player can still sign two: from a second machine, from a
//! backup restored to before a move, or by accepting a challenge whose creator sent the same
//! header twice. Ethereum's validator clients face the same danger and keep a slashing
//! protection database (EIP-3076) of what they signed; this is ours. A **place** is a key, a
//! game id, a document number and the document it follows (its `prev`): two records that
//! follow different documents can never prove equivocation, and after a race is settled the
//! player whose record lost signs again at its number, on top of the other player's record.
//! The journal holds the document signed at each place, and a signing command checks it
//! before signing and records the new document before it is written anywhere another person
//! could see it.
//!
//! Layout: a folder with one file per game, `<game id>.jsonl`, each line one [`Entry`] in JSON;
//! the file is locked while a command checks and records, so two commands cannot both pass the
//! check. A line that is damaged or cut short stops signing until it is repaired: in that game
//! when it is not one entry from its start to its end (its game, and its document number,
//! written twice, included) or it is the last line cut short; else when it is read, which is
//! when its place is consulted (see [`GameJournal`]). A command killed while recording leaves
//! a cut line whose document was never written anywhere, since the journal is synced first; a
//! copy or a sync tool cut short leaves one too, and only the user can tell which. The whole
//! journal moves between machines as one versioned JSON document ([`Export`], format
//! [`FORMAT`]), every line read and every signature checked.
//!
//! This module reads and writes the folder it is given; the command line decides where that is.

use crate::digest::Digest;
use crate::log::{self, Document};
use crate::sign;
use ssh_key::PublicKey;
use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

mod game;
mod lines;
mod wire;
pub use game::GameJournal;
pub use wire::Export;
use wire::{Keys, Wire};

/// More than one game's part of a journal ever holds.
const JOURNAL_FILE_LIMIT: u64 = 256 * 1024 * 1024;

/// The format of an exported journal.
pub const FORMAT: &str = "correspond-journal/1";

/// One signed document, at its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The key that signed it.
    pub key: PublicKey,
    /// The game.
    pub game: Digest,
    /// Its number in the game: 0 for the header.
    pub document: u64,
    /// The document, from its `---` line through its signature line, exactly as signed.
    pub text: String,
    /// What it says.
    pub content: Document,
    /// The length of its signed bytes (the text before its signature line).
    signed: usize,
}

/// The document a document follows: a record's `prev`; `None` for a header.
fn prev_of(content: &Document) -> Option<Digest> {
    match content {
        Document::Record(r) => Some(r.prev),
        Document::Header(_) => None,
    }
}

impl Entry {
    /// Checks a document signed by `key` as document `document` of `game`, and makes it an
    /// entry: it must be one well-formed document of that number, signed by that key, and, for
    /// a header, be the game's header.
    ///
    /// # Errors
    /// What does not hold, in words.
    pub fn new(key: PublicKey, game: Digest, document: u64, text: String) -> Result<Entry, String> {
        let entry = Entry::unchecked(key, game, document, text)?;
        entry.check_signature()?;
        Ok(entry)
    }

    /// [`Entry::new`] but for the signature, which [`GameJournal::at`] checks when the entry is
    /// first consulted: a game's part of the journal holds every document the user signed in
    /// it, and checking them all each time one more is signed would make a long game's every
    /// move cost as much again as verifying the game.
    fn unchecked(
        key: PublicKey,
        game: Digest,
        document: u64,
        text: String,
    ) -> Result<Entry, String> {
        let number = usize::try_from(document).map_err(|_| "no such document number".to_owned())?;
        let (content, signed) = log::read_alone(&text, number).map_err(|e| e.kind.to_string())?;
        match &content {
            Document::Header(_) if Digest::of(text.as_bytes()) != game => {
                return Err("the header is not the one whose digest is the game id".into());
            }
            Document::Record(r) if r.seq != document => {
                return Err(format!("the record is numbered {}, not {document}", r.seq));
            }
            Document::Record(r) if document == 1 && r.prev != game => {
                return Err("record 1 does not follow the game's header".into());
            }
            _ => {}
        }
        Ok(Entry {
            key,
            game,
            document,
            text,
            content,
            signed,
        })
    }

    /// Checks that its key signed it.
    fn check_signature(&self) -> Result<(), String> {
        let signature = self.text[self.signed..]
            .trim_end_matches('\n')
            .trim_start_matches("signature: ");
        sign::verify(&self.key, self.signed_bytes(), signature)
            .map_err(|e| format!("its signature: {e}"))
    }

    /// The bytes its signature covers.
    #[must_use]
    pub fn signed_bytes(&self) -> &[u8] {
        &self.text.as_bytes()[..self.signed]
    }

    /// The SHA-256 digest of the whole document: the next record's `prev`.
    #[must_use]
    pub fn digest(&self) -> Digest {
        Digest::of(self.text.as_bytes())
    }

    /// The document it follows (its `prev`); `None` for a header.
    #[must_use]
    pub fn prev(&self) -> Option<Digest> {
        prev_of(&self.content)
    }

    /// The key's fingerprint.
    #[must_use]
    pub fn fingerprint(&self) -> String {
        sign::fingerprint(&self.key)
    }

    fn wire(&self) -> Wire {
        let mut key = self.key.clone();
        key.set_comment("");
        Wire {
            game: self.game.to_string(),
            document: self.document,
            key: key.to_openssh().unwrap_or_default(),
            digest: self.digest().to_string(),
            text: self.text.clone(),
        }
    }
}

/// What went wrong with the journal.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JournalError {
    /// The journal could not be read or written.
    #[error("the signing journal {}: {source}", crate::text::path(path))]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A line of the journal is not an entry.
    #[error(
        "the signing journal {}, line {line}: {reason}",
        crate::text::path(path)
    )]
    Damaged {
        /// The file.
        path: PathBuf,
        /// The 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// An exported journal that cannot be imported.
    #[error("{}{reason}", entry.map(|i| format!("entry {i}: ")).unwrap_or_default())]
    Import {
        /// The entry at fault, from 0, if the fault is in one.
        entry: Option<usize>,
        /// What is wrong.
        reason: String,
    },
    /// The key already signed another document at this place.
    #[error("this key already signed a different document {} in this game", .0.document)]
    Conflict(Box<Entry>),
    /// The key signed a record that follows, through the key's own records, a document by
    /// another that the file about to be signed on does not hold (see
    /// [`GameJournal::departure`]).
    #[error(
        "this key already signed record {} of this game, on top of a record {missing} that \
         this copy {}",
        .signed.document,
        held_as(.differs)
    )]
    Departs {
        /// The record signed.
        signed: Box<Entry>,
        /// The number of the document by another that it follows and the file lacks.
        missing: u64,
        /// Whether the file holds another record by the other signer at that number (else it
        /// ends before, or holds the key's own record there, one the other's displaced).
        differs: bool,
    },
}

/// What a copy does with a record it lacks, as [`JournalError::Departs`] says it.
fn held_as(differs: &bool) -> &'static str {
    if *differs {
        "holds another version of"
    } else {
        "does not have"
    }
}

/// The journal: a folder of one file per game.
#[derive(Clone, Debug)]
pub struct Journal {
    dir: PathBuf,
    /// How many threads may read a game's part of it for an export.
    threads: usize,
}

/// What an import did.
#[derive(Debug, Default)]
pub struct Imported {
    /// Entries the journal did not have, now added.
    pub added: usize,
    /// Entries it had already.
    pub known: usize,
    /// Entries at a place where the journal holds a different document: (ours, theirs). The
    /// key signed both; ours is kept.
    pub conflicts: Vec<(Entry, Entry)>,
}

impl Journal {
    /// The journal kept in `dir` (created when first written).
    #[must_use]
    pub fn at(dir: PathBuf) -> Journal {
        Journal { dir, threads: 1 }
    }

    /// The same journal, exported on up to `threads` threads: a long game's part holds
    /// thousands of lines, each checked for its signature then.
    #[must_use]
    pub fn threads(self, threads: usize) -> Journal {
        Journal { threads, ..self }
    }

    /// Its folder.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Opens and locks the part of the journal for one game, until the result is dropped.
    ///
    /// # Errors
    /// When the journal cannot be created, locked or read, or a line of it is damaged.
    pub fn game(&self, game: Digest) -> Result<GameJournal, JournalError> {
        create_private_dir(&self.dir).map_err(io_error(&self.dir))?;
        let path = self.dir.join(format!("{game}.jsonl"));
        let io = io_error(&path);
        let file = open_private(&path).map_err(&io)?;
        file.lock().map_err(&io)?;
        let bytes = crate::files::read_limited(&file, JOURNAL_FILE_LIMIT).map_err(&io)?;
        GameJournal::open(file, path, game, bytes)
    }

    /// Every entry, sorted. Only reads: a journal that cannot be written can be exported.
    ///
    /// # Errors
    /// When the journal cannot be read, or a line of it is damaged.
    pub fn export(&self) -> Result<Export, JournalError> {
        let mut entries = Vec::new();
        for game in self.games()? {
            let path = self.dir.join(format!("{game}.jsonl"));
            let io = io_error(&path);
            let file = crate::files::open_regular(&path).map_err(&io)?;
            file.lock_shared().map_err(&io)?;
            let bytes = crate::files::read_limited(&file, JOURNAL_FILE_LIMIT).map_err(&io)?;
            entries.extend(entries_of(&path, &bytes, game, self.threads)?);
        }
        Ok(Export::of(entries))
    }

    /// The games the journal has a file for, sorted.
    fn games(&self) -> Result<Vec<Digest>, JournalError> {
        let listing = match fs::read_dir(&self.dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io_error(&self.dir)(e)),
        };
        let mut games: Vec<Digest> = listing
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name();
                Digest::parse(name.to_str()?.strip_suffix(".jsonl")?)
            })
            .collect();
        games.sort_by_key(|g| g.0);
        Ok(games)
    }

    /// Adds checked entries (from [`Export::parse`]): new places are recorded, known
    /// documents passed over, and a different document at a known place is reported, not
    /// recorded (the journal keeps the one it had).
    ///
    /// # Errors
    /// When the journal cannot be read or written.
    pub fn import(&self, entries: Vec<Entry>) -> Result<Imported, JournalError> {
        let mut by_game: BTreeMap<[u8; 32], Vec<Entry>> = BTreeMap::new();
        for entry in entries {
            by_game.entry(entry.game.0).or_default().push(entry);
        }
        let mut report = Imported::default();
        for (game, entries) in by_game {
            let mut journal = self.game(Digest(game))?;
            // Damage found half way would leave the import half done.
            journal.check_all()?;
            for entry in entries {
                match journal.at(&entry.key, entry.document, entry.prev())? {
                    Some(ours) if ours.text == entry.text => report.known += 1,
                    Some(ours) => report.conflicts.push((ours.clone(), entry)),
                    None => {
                        journal.write(entry)?;
                        report.added += 1;
                    }
                }
            }
        }
        Ok(report)
    }
}

/// The entries of one game's file, each signature checked, read on up to `threads` threads.
/// Every line must be an entry of that game signed by its key; a last line cut short is damage
/// too, named as such: a command killed while recording leaves one (its document was then
/// never written anywhere, since the journal is synced first), but so does a copy or a sync
/// cut short, and only the user can tell which.
fn entries_of(
    path: &Path,
    bytes: &[u8],
    game: Digest,
    threads: usize,
) -> Result<Vec<Entry>, JournalError> {
    let lines: Vec<&[u8]> = bytes.split_inclusive(|b| *b == b'\n').collect();
    // One run of lines per thread, each read in order: the first damaged line of the first run
    // that has one is the first of the file.
    let run = lines.len().div_ceil(threads.max(1)).max(1);
    let runs: Vec<(usize, &[&[u8]])> = lines
        .chunks(run)
        .enumerate()
        .map(|(i, lines)| (i * run, lines))
        .collect();
    let read = crate::parallel::map_in_order(&runs, threads, |(first, lines)| {
        read_lines(path, *first, lines, game)
    });
    let mut entries = Vec::with_capacity(lines.len());
    for run in read {
        entries.extend(run?);
    }
    Ok(entries)
}

/// The entries of `lines`, which come after `first` lines of the file (see [`entries_of`]).
fn read_lines(
    path: &Path,
    first: usize,
    lines: &[&[u8]],
    game: Digest,
) -> Result<Vec<Entry>, JournalError> {
    let mut entries = Vec::with_capacity(lines.len());
    let mut keys = Keys::default();
    for (i, line) in lines.iter().enumerate() {
        let number = first + i + 1;
        let whole = line.ends_with(b"\n");
        let entry = std::str::from_utf8(line.strip_suffix(b"\n").unwrap_or(line))
            .map_err(|_| "not UTF-8 text".to_owned())
            .and_then(|text| {
                game::read_line(text, game, &mut keys, true)
                    .map_err(|reason| if whole { reason } else { game::cut_short() })
            })
            .map_err(|reason| game::damaged(path, number, reason))?;
        entries.push(entry);
    }
    Ok(entries)
}

fn io_error(path: &Path) -> impl Fn(io::Error) -> JournalError + use<> {
    let path = path.to_owned();
    move |source| JournalError::Io {
        path: path.clone(),
        source,
    }
}

fn create_private_dir(dir: &Path) -> io::Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            "it is a file, not a folder",
        ));
    }
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

fn open_private(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    // A pipe in the journal's place would wait for ever: refused like anything not a file.
    crate::files::open_appending(path, &mut options)
}

#[cfg(test)]
mod tests;
