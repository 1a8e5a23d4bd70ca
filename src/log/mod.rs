//! The game file: a header and records, each a YAML document signed over its exact bytes.
//!
//! A game file is a UTF-8 text with LF line endings:
//!
//! ```text
//! # correspond game file: ...            comment lines, made from the header
//! ---                                    document 0, the header
//! format: correspond/1
//! ...
//! signature: U1NIU0lH...                 always the last line of a document
//! ---                                    document 1, the first record
//! seq: 1
//! prev: <SHA-256 of document 0>
//! ...
//! signature: U1NIU0lH...
//! ```
//!
//! **The bytes rule.** Document *k* is the lines from its *k*-th `---` line through its
//! `signature:` line, newlines included. Its *signed bytes* are the same lines without the
//! `signature:` line. With standard tools: `awk '/^---$/{n++} n==K+1' FILE | sed '$d'`. The game
//! id is the SHA-256 digest of document 0; each record's `prev` is the digest of the document
//! before it. Nothing is re-serialized to check a signature.
//!
//! This module reads and writes that structure; it checks form, not meaning. Signatures are
//! checked by [`crate::sign`], and the rules of play by [`crate::replay`].

mod append;
mod format;
mod kind;
mod lines;
mod names;
mod quick;
mod read;
pub(crate) mod signed_file;
mod tags;
mod time_control;
mod timestamp;

pub use append::{
    AppendError, Changed, Locked, MAX_FILE_SIZE, append_locked, create_new, read_limited, replace,
};
pub(crate) use format::key_text;
pub use format::{
    Action, Adjudged, Adjudication, AdjudicationReason, Arbiter, COMMITMENT_PREFIX, Conditional,
    Disclosure, FORMAT, Header, Kind, MAX_COMMENT, Player, Record, Reveal, Settlement, Timestamp,
    clean_comment, header_unsigned, name_from_pgn, preamble, record_unsigned, signature_line,
    valid_comment, valid_name,
};
pub(crate) use names::{check_signature_text, valid_word};
pub(crate) use tags::tag_lines;
pub use tags::{
    DERIVED_TAGS, MAX_TAG_VALUE, MAX_TAGS, check_game_tags, check_tags, clean_tag_value,
    exported_beside, valid_date, valid_tag_name, valid_tag_value,
};
pub use time_control::{MAX_DAYS, MAX_LEAVE_DAYS, MAX_MOVES, TimeControl, parse_leave_days};
pub(crate) use time_control::{RawTimeControl, leave_line};

use crate::digest::Digest;
use read::{Base, line_of, read_document, split};
pub use read::{
    Document, GAME_FILE_SNIFF, Refereed, held_as_a_game, may_be_a_game_file, refereed_as,
    starts_as_a_game, starts_as_a_tournament,
};
use std::ops::Range;

/// Where a document sits in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Span {
    /// The document's bytes, from its `---` line through its signature line.
    bytes: Range<usize>,
    /// Where its `signature:` line starts.
    signature: usize,
    /// The 1-based line number of its `---` line.
    line: usize,
}

/// Why a file is not a well-formed game file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {kind}", place(*document, *line))]
pub struct LogError {
    /// The document at fault: 0 for the header, then the records in file order. `None` when the
    /// fault is not inside a document.
    pub document: Option<usize>,
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub kind: LogErrorKind,
}

/// Where in a file: `header (line 4)`, `record 7 (line 60)`, or `line 1` outside documents.
#[must_use]
pub fn place(document: Option<usize>, line: usize) -> String {
    match document {
        None => format!("line {line}"),
        Some(0) => format!("header (line {line})"),
        Some(n) => format!("record {n} (line {line})"),
    }
}

/// The ways a game file can be malformed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LogErrorKind {
    /// The file is empty.
    #[error("the file is empty")]
    Empty,
    /// Not UTF-8.
    #[error(
        "this line is not UTF-8 text (a program may have saved the file in another encoding; \
         signatures cover the exact bytes)"
    )]
    NotUtf8,
    /// A CR byte: the file went through something that changed its line endings.
    #[error(
        "a line ends with CR LF; game files use LF line endings, and signatures cover the \
         exact bytes (a mail program or editor may have converted them)"
    )]
    CarriageReturn,
    /// Something other than comment lines before the header.
    #[error("only comment lines (starting with #) may come before the header's `---` line")]
    TextBeforeHeader,
    /// No `---` line at all.
    #[error("there is no header: a game file starts with comment lines and a `---` line")]
    NoHeader,
    /// The comment lines are not the ones the header calls for.
    #[error("the comment lines before the header are not the ones its content calls for")]
    Preamble,
    /// The file ends in the middle of a document.
    #[error(
        "the file ends in the middle of this document (it has no `signature:` line, or no final \
         newline): it was cut short"
    )]
    Truncated,
    /// A document without a signature line.
    #[error("this document has no `signature:` line; every document ends with one")]
    MissingSignature,
    /// Lines after a document's signature line.
    #[error(
        "this line follows a signature line: nothing may come between a signature line and the \
         next `---`"
    )]
    AfterSignature,
    /// A later version changes bytes of the earlier one.
    #[error("this document was changed; a later version may only append records")]
    Changed,
    /// A later version is shorter than the earlier one.
    #[error(
        "the later version ends here, dropping document {dropped} and everything after it; a \
         later version may only append records"
    )]
    Shortened {
        /// The first document of the earlier version that is gone or cut.
        dropped: usize,
    },
    /// A document number beyond the file's last.
    #[error("there is no document {wanted}: the file has documents 0 to {last}")]
    NoDocument {
        /// The document asked for.
        wanted: usize,
        /// The last document there is.
        last: usize,
    },
    /// A YAML document marker or directive inside the file.
    #[error(
        "`{0}`: YAML document markers and directives are not allowed; documents start with a bare `---` line"
    )]
    Marker(String),
    /// The YAML does not parse, or does not have the fields it must.
    #[error("{0}")]
    Yaml(String),
    /// A field has a value of the wrong form.
    #[error("{0}")]
    Field(String),
    /// The document holds valid content, but not written the one way it must be.
    #[error(
        "not written the one way this program writes it: expected `{expected}`, found `{found}`{hint}"
    )]
    NotCanonical {
        /// The line as it should be.
        expected: String,
        /// The line as it is.
        found: String,
        /// A hint naming the YAML feature at fault, if one is recognisable.
        hint: String,
    },
}

/// A well-formed game file. Its signatures and its meaning are not yet checked.
#[derive(Clone, Debug)]
pub struct GameFile {
    text: String,
    header: Header,
    records: Vec<Record>,
    spans: Vec<Span>,
    /// Lines in `text`, so that appended documents are numbered without counting again.
    lines: usize,
}

impl GameFile {
    /// Reads a game file's bytes and checks their form.
    ///
    /// # Errors
    /// A [`LogError`] naming the document and line at fault.
    pub fn parse(bytes: &[u8]) -> Result<GameFile, LogError> {
        GameFile::parse_with(bytes, 1)
    }

    /// [`GameFile::parse`], a long file's documents read on up to `threads` threads; the result
    /// is the same for any number.
    ///
    /// # Errors
    /// A [`LogError`] naming the document and line at fault.
    pub fn parse_with(bytes: &[u8], threads: usize) -> Result<GameFile, LogError> {
        let text =
            std::str::from_utf8(bytes).map_err(|e| not_utf8(bytes, e.valid_up_to(), 0, 0))?;
        if text.is_empty() {
            return Err(LogError {
                document: None,
                line: 1,
                kind: LogErrorKind::Empty,
            });
        }
        let spans = split(text, Base::default())?;
        let locate = |offset: usize| {
            let document = spans.iter().position(|s| s.bytes.contains(&offset));
            LogError {
                document,
                line: line_of(bytes, offset),
                kind: LogErrorKind::CarriageReturn,
            }
        };
        if let Some(cr) = text.find('\r') {
            return Err(locate(cr));
        }
        let mut header = None;
        let mut records = Vec::with_capacity(spans.len() - 1);
        for document in read::read_documents(text, &spans, threads)? {
            match document {
                Document::Header(h) => header = Some(*h),
                Document::Record(r) => records.push(r),
            }
        }
        let header = header.expect("the first document is the header");
        if text[..spans[0].bytes.start] != preamble(&header) {
            return Err(LogError {
                document: None,
                line: 1,
                kind: LogErrorKind::Preamble,
            });
        }
        Ok(GameFile {
            text: text.to_owned(),
            header,
            records,
            spans,
            lines: lines::count(text),
        })
    }

    /// Reads a later version of this file, which must be this file with records appended: only
    /// the appended documents are read, so following a file through its history costs each
    /// document once. Returns the number of documents added.
    ///
    /// # Errors
    /// [`LogErrorKind::Changed`] or [`LogErrorKind::Shortened`], naming the earlier version's
    /// document and line, when `bytes` is not an append; otherwise what is wrong with the
    /// appended documents. On error `self` is unchanged.
    pub fn extend(&mut self, bytes: &[u8]) -> Result<usize, LogError> {
        let old = self.text.as_bytes();
        signed_file::check_append(old, self.spans.iter().map(|s| s.bytes.end), bytes)?;
        self.append(&bytes[old.len()..])
    }

    /// Reads documents appended to this file: `tail` is what follows its last byte. Returns the
    /// number of documents added.
    ///
    /// # Errors
    /// What is wrong with the appended documents. On error `self` is unchanged.
    pub fn append(&mut self, tail: &[u8]) -> Result<usize, LogError> {
        let old = self.text.as_bytes();
        let appended = std::str::from_utf8(tail)
            .map_err(|e| not_utf8(tail, e.valid_up_to(), self.spans.len(), self.lines))?;
        if appended.is_empty() {
            return Ok(0);
        }
        let base = Base {
            offset: old.len(),
            lines: self.lines,
            documents: self.spans.len(),
        };
        let spans = split(appended, base)?;
        if let Some(cr) = appended.find('\r') {
            return Err(LogError {
                document: spans
                    .iter()
                    .position(|s| s.bytes.contains(&(old.len() + cr)))
                    .map(|i| base.documents + i),
                line: self.lines + line_of(appended.as_bytes(), cr),
                kind: LogErrorKind::CarriageReturn,
            });
        }
        let mut records = Vec::with_capacity(spans.len());
        for (i, span) in spans.iter().enumerate() {
            let doc = &appended[span.bytes.start - old.len()..span.bytes.end - old.len()];
            match read_document(doc, base.documents + i, span.line)? {
                Document::Record(r) => records.push(r),
                Document::Header(_) => unreachable!("only document 0 is read as a header"),
            }
        }
        let added = spans.len();
        self.text.push_str(appended);
        self.records.extend(records);
        self.spans.extend(spans);
        self.lines += lines::count(appended);
        Ok(added)
    }

    /// Drops the documents from `documents` on (the opposite of [`GameFile::extend`]).
    ///
    /// # Panics
    /// If `documents` is 0: a file keeps its header.
    pub fn truncate(&mut self, documents: usize) {
        assert!(documents > 0, "a game file keeps its header");
        if documents >= self.spans.len() {
            return;
        }
        self.spans.truncate(documents);
        self.records.truncate(documents - 1);
        self.text.truncate(self.spans[documents - 1].bytes.end);
        self.lines = lines::count(&self.text);
    }

    /// The header.
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The records, in file order.
    #[must_use]
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The whole file.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// How many documents, the header included.
    #[must_use]
    pub fn documents(&self) -> usize {
        self.spans.len()
    }

    /// The game id: the SHA-256 digest of the header document.
    #[must_use]
    pub fn game_id(&self) -> Digest {
        self.digest(0)
    }

    /// The SHA-256 digest of document `i` (0 is the header), what the next record's `prev` holds.
    ///
    /// # Panics
    /// If there is no document `i`.
    #[must_use]
    pub fn digest(&self, i: usize) -> Digest {
        Digest::of(self.document(i).as_bytes())
    }

    /// Where document `i` stands in the file, in bytes.
    ///
    /// # Panics
    /// If there is no document `i`.
    #[must_use]
    pub fn span(&self, i: usize) -> Range<usize> {
        self.spans[i].bytes.clone()
    }

    /// Document `i`, from its `---` line through its signature line.
    ///
    /// # Panics
    /// If there is no document `i`.
    #[must_use]
    pub fn document(&self, i: usize) -> &str {
        &self.text[self.spans[i].bytes.clone()]
    }

    /// The bytes document `i`'s signature covers: the document without its signature line.
    ///
    /// # Panics
    /// If there is no document `i`.
    #[must_use]
    pub fn signed_bytes(&self, i: usize) -> &[u8] {
        let span = &self.spans[i];
        &self.text.as_bytes()[span.bytes.start..span.signature]
    }

    /// Document `i`'s signature, as the base64 text of its `signature:` line.
    ///
    /// # Panics
    /// If there is no document `i`.
    #[must_use]
    pub fn signature(&self, i: usize) -> &str {
        let span = &self.spans[i];
        self.text[span.signature..span.bytes.end]
            .trim_end_matches('\n')
            .trim_start_matches("signature: ")
    }

    /// The 1-based line number of document `i`'s `---` line.
    ///
    /// # Panics
    /// If there is no document `i`.
    #[must_use]
    pub fn line(&self, i: usize) -> usize {
        self.spans[i].line
    }

    /// The binding of a coin flip committed in document `i`: the digest of its bytes before its
    /// `commitment:` line. `None` when the document has no commitment.
    ///
    /// # Panics
    /// If there is no document `i`.
    #[must_use]
    pub fn binding(&self, i: usize) -> Option<Digest> {
        binding_of(self.document(i))
    }
}

/// One document of a file, cut out by the bytes rule alone: nothing in it, or in the
/// documents after it, is parsed. For auditing files that do not verify.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawDocument<'a> {
    /// The document, from its `---` line through its signature line.
    pub text: &'a str,
    /// The bytes its signature covers.
    pub signed: &'a [u8],
    /// The base64 text of its signature line.
    pub signature: &'a str,
    /// Where it ends in the file's bytes.
    pub end: usize,
    /// The 1-based line number of its `---` line.
    pub line: usize,
}

/// Cuts document `n` (0 for the header) out of a file's bytes by the bytes rule, looking at
/// nothing after it.
///
/// # Errors
/// When the file up to that document does not have the structure of a game file, or has fewer
/// documents.
pub fn raw_document(bytes: &[u8], n: usize) -> Result<RawDocument<'_>, LogError> {
    let mut seen = 0;
    let mut end = bytes.len();
    let mut offset = 0;
    for line in bytes.split_inclusive(|b| *b == b'\n') {
        if line == b"---\n" {
            seen += 1;
            if Some(seen) == n.checked_add(2) {
                end = offset;
                break;
            }
        }
        offset += line.len();
    }
    let prefix = &bytes[..end];
    let text = std::str::from_utf8(prefix).map_err(|e| not_utf8(prefix, e.valid_up_to(), 0, 0))?;
    let spans = split(text, Base::default())?;
    let Some(span) = spans.get(n) else {
        return Err(LogError {
            document: None,
            line: line_of(prefix, prefix.len()),
            kind: LogErrorKind::NoDocument {
                wanted: n,
                last: spans.len() - 1,
            },
        });
    };
    Ok(RawDocument {
        text: &text[span.bytes.clone()],
        signed: &prefix[span.bytes.start..span.signature],
        signature: text[span.signature..span.bytes.end]
            .trim_end_matches('\n')
            .trim_start_matches("signature:")
            .trim_start_matches(' '),
        end: span.bytes.end,
        line: span.line,
    })
}

/// Reads one document kept apart from its file (the signing journal keeps them so): `text` is
/// exactly document `number` (0 for the header), from its `---` line through its signature
/// line, written the one way this program writes it. Returns its content and the length of its
/// signed bytes (everything before the signature line).
///
/// # Errors
/// What is wrong with it, with line numbers counted from its `---` line.
pub fn read_alone(text: &str, number: usize) -> Result<(Document, usize), LogError> {
    let base = Base {
        offset: 0,
        lines: 0,
        documents: number,
    };
    // Alone, even a header has no comment lines before it.
    if !text.starts_with("---\n") {
        return Err(LogError {
            document: Some(number),
            line: 1,
            kind: LogErrorKind::NoHeader,
        });
    }
    let spans = split(text, base)?;
    if let Some(extra) = spans.get(1) {
        return Err(LogError {
            document: Some(number),
            line: extra.line,
            kind: LogErrorKind::AfterSignature,
        });
    }
    if text.contains('\r') {
        return Err(LogError {
            document: Some(number),
            line: line_of(text.as_bytes(), text.find('\r').unwrap_or(0)),
            kind: LogErrorKind::CarriageReturn,
        });
    }
    let document = read_document(text, number, 1)?;
    Ok((document, spans[0].signature))
}

/// A whole file's bytes as text: the error for a byte that is not UTF-8 names its document and
/// line.
///
/// # Errors
/// [`LogErrorKind::NotUtf8`] at the first such byte.
pub fn as_text(bytes: &[u8]) -> Result<&str, LogError> {
    std::str::from_utf8(bytes).map_err(|e| not_utf8(bytes, e.valid_up_to(), 0, 0))
}

/// The error for a byte at `offset` of `bytes` that is not UTF-8, naming the document it falls
/// in: `bytes` follows `documents` documents and `lines` lines of its file (0 and 0 for a whole
/// file, whose comment lines come before any document).
pub(super) fn not_utf8(bytes: &[u8], offset: usize, documents: usize, lines: usize) -> LogError {
    // The `---` lines before the offset (the line holding the bad byte is not one).
    let before = &bytes[..offset];
    let starts = before
        .split(|b| *b == b'\n')
        .take(before.iter().filter(|b| **b == b'\n').count())
        .filter(|line| *line == b"---")
        .count();
    LogError {
        document: (documents + starts).checked_sub(1),
        line: lines + line_of(bytes, offset),
        kind: LogErrorKind::NotUtf8,
    }
}

/// The binding of a flip committed in a document: the digest of its bytes before its
/// `commitment:` line (see [`crate::flip`]). Also used by writers, on the unsigned text.
#[must_use]
pub fn binding_of(document: &str) -> Option<Digest> {
    let at = document
        .match_indices(COMMITMENT_PREFIX)
        .find(|(i, _)| *i == 0 || document.as_bytes()[i - 1] == b'\n')?
        .0;
    Some(Digest::of(&document.as_bytes()[..at]))
}

/// The header document as written to a new file, preamble included.
#[must_use]
pub fn header_document(header: &Header, signature_base64: &str) -> String {
    preamble(header) + &header_unsigned(header) + &signature_line(signature_base64)
}

#[cfg(test)]
mod tests;
