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

pub use append::{AppendError, MAX_FILE_SIZE, append_locked, create_new, read_limited};
pub use format::{
    Action, COMMITMENT_PREFIX, FORMAT, Header, Player, Record, Settlement, Timestamp,
    header_unsigned, preamble, record_unsigned, signature_line, valid_name,
};

use crate::digest::Digest;
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
    #[error("the file is not UTF-8 text")]
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
}

impl GameFile {
    /// Reads a game file's bytes and checks their form.
    ///
    /// # Errors
    /// A [`LogError`] naming the document and line at fault.
    pub fn parse(bytes: &[u8]) -> Result<GameFile, LogError> {
        let text = std::str::from_utf8(bytes).map_err(|e| LogError {
            document: None,
            line: line_of(bytes, e.valid_up_to()),
            kind: LogErrorKind::NotUtf8,
        })?;
        if text.is_empty() {
            return Err(LogError {
                document: None,
                line: 1,
                kind: LogErrorKind::Empty,
            });
        }
        let spans = split(text)?;
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
        for (i, span) in spans.iter().enumerate() {
            let doc = &text[span.bytes.clone()];
            let fail = |line: usize, kind: LogErrorKind| LogError {
                document: Some(i),
                line,
                kind,
            };
            let yaml_error = |e: serde_saphyr::Error| {
                let line = e.location().map_or(span.line, |l| {
                    span.line + usize::try_from(l.line()).unwrap_or(1).saturating_sub(1)
                });
                fail(line, LogErrorKind::Yaml(yaml_message(&e.to_string())))
            };
            let (expected, signature) = if i == 0 {
                let raw: format::RawHeader = serde_saphyr::from_str(doc).map_err(yaml_error)?;
                let signature = raw.signature.clone();
                let h = raw
                    .validate()
                    .map_err(|e| fail(span.line, LogErrorKind::Field(e)))?;
                let expected = header_unsigned(&h);
                header = Some(h);
                (expected, signature)
            } else {
                let raw: format::RawRecord = serde_saphyr::from_str(doc).map_err(yaml_error)?;
                let signature = raw.signature.clone();
                let r = raw
                    .validate()
                    .map_err(|e| fail(span.line, LogErrorKind::Field(e)))?;
                let expected = record_unsigned(&r);
                records.push(r);
                (expected, signature)
            };
            let expected = expected + &signature_line(&signature);
            if let Some((offset, want, found)) = first_difference(&expected, doc) {
                let hint = hint_for(found);
                let line = span.line + offset;
                return Err(fail(
                    line,
                    LogErrorKind::NotCanonical {
                        expected: shown(want),
                        found: shown(found),
                        hint,
                    },
                ));
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
        })
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
            if seen == n + 2 {
                end = offset;
                break;
            }
        }
        offset += line.len();
    }
    let prefix = &bytes[..end];
    let text = std::str::from_utf8(prefix).map_err(|e| LogError {
        document: None,
        line: line_of(prefix, e.valid_up_to()),
        kind: LogErrorKind::NotUtf8,
    })?;
    let spans = split(text)?;
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
    })
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

/// The parser's message without what this file's error already says (where) or what only a
/// programmer can act on (the parser's options, Rust types).
fn yaml_message(message: &str) -> String {
    let first = message.lines().next().unwrap_or("unreadable YAML");
    let mut text = first.strip_prefix("error: ").unwrap_or(first);
    if let Some((_, after)) = text
        .strip_prefix("line ")
        .and_then(|rest| rest.split_once(": "))
    {
        text = after;
    }
    let text = text.split(", set ").next().unwrap_or(text);
    let text = text.split("; use ").next().unwrap_or(text);
    let text = match text {
        "invalid u64" => "`seq` must be a whole number, written plainly",
        "cannot deserialize null into string" => "a field has no value",
        other => other,
    };
    format!("invalid YAML: {}", shown(text))
}

fn line_of(bytes: &[u8], offset: usize) -> usize {
    1 + bytes[..offset.min(bytes.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// Finds the documents: each starts at a `---` line and must end with its signature line.
fn split(text: &str) -> Result<Vec<Span>, LogError> {
    let mut starts = Vec::new();
    let mut offset = 0;
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let bare = line.trim_end_matches('\n').trim_end_matches('\r');
        if bare == "---" {
            starts.push((offset, number + 1));
        } else if starts.is_empty() && !line.starts_with('#') {
            return Err(LogError {
                document: None,
                line: number + 1,
                kind: LogErrorKind::TextBeforeHeader,
            });
        } else if bare == "..." || bare.starts_with("--- ") || bare.starts_with('%') {
            return Err(LogError {
                document: starts.len().checked_sub(1),
                line: number + 1,
                kind: LogErrorKind::Marker(shown(bare)),
            });
        }
        offset += line.len();
    }
    if starts.is_empty() {
        return Err(LogError {
            document: None,
            line: 1,
            kind: LogErrorKind::NoHeader,
        });
    }
    let mut spans = Vec::with_capacity(starts.len());
    for (i, &(start, line)) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(text.len(), |next| next.0);
        let doc = &text[start..end];
        let fail = |line, kind| LogError {
            document: Some(i),
            line,
            kind,
        };
        // The first signature line ends the document: anything after it, up to the next
        // `---`, is text that no signature covers.
        let mut signature = None;
        let mut at = 0;
        for (n, l) in doc.split_inclusive('\n').enumerate() {
            if signature.is_some() {
                return Err(fail(line + n, LogErrorKind::AfterSignature));
            }
            if l.starts_with("signature:") {
                signature = Some(at);
            }
            at += l.len();
        }
        let Some(signature) = signature else {
            let last = i + 1 == starts.len();
            let kind = if last {
                LogErrorKind::Truncated
            } else {
                LogErrorKind::MissingSignature
            };
            return Err(fail(line, kind));
        };
        if !doc.ends_with('\n') {
            return Err(fail(line, LogErrorKind::Truncated));
        }
        spans.push(Span {
            bytes: start..end,
            signature: start + signature,
            line,
        });
    }
    Ok(spans)
}

/// Text from a file, made safe to show: control and formatting characters (which could fake
/// lines of a report, or reorder it on a terminal) are escaped, and long text is cut short.
#[must_use]
pub fn shown(text: &str) -> String {
    const MAX: usize = 80;
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == MAX {
            out.push('…');
            break;
        }
        let invisible = c.is_control()
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}');
        if invisible {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// The first line where `found` differs from `expected`: (line offset, expected, found).
fn first_difference<'a>(expected: &'a str, found: &'a str) -> Option<(usize, &'a str, &'a str)> {
    let mut want = expected.split('\n');
    let mut got = found.split('\n');
    for offset in 0.. {
        match (want.next(), got.next()) {
            (None, None) => return None,
            (w, g) if w == g => {}
            (w, g) => {
                return Some((
                    offset,
                    w.unwrap_or("(end of document)"),
                    g.unwrap_or("(end of document)"),
                ));
            }
        }
    }
    None
}

fn hint_for(line: &str) -> String {
    let hint = if line.contains(" &") || line.contains(" *") || line.starts_with('&') {
        "YAML anchors and aliases are not allowed"
    } else if line.contains(" !") || line.contains("!!") {
        "YAML tags are not allowed"
    } else if line.trim_start().starts_with('#') || line.contains(" #") {
        "comments are not allowed inside a document"
    } else if line.contains('{') || line.contains('[') {
        "YAML flow style is not allowed"
    } else if line.ends_with(' ') || line.contains('\t') {
        "trailing spaces and tabs are not allowed"
    } else {
        ""
    };
    if hint.is_empty() {
        String::new()
    } else {
        format!(" ({hint})")
    }
}

#[cfg(test)]
mod tests;
