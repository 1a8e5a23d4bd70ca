//! Reading a game file's text: cutting it into documents by the bytes rule, and reading each
//! document, which must be written the one way this program writes it.

use super::{
    Header, LogError, LogErrorKind, Record, Span, header_unsigned, record_unsigned, signature_line,
};
use super::{format, lines, quick};
use crate::text::shown;

/// How many bytes from its start [`may_be_a_game_file`] looks at.
pub const GAME_FILE_SNIFF: usize = 64 * 1024;

/// Whether a file found among others (in a folder, in a pushed tree) may be a game file, and so
/// is checked, from its first [`GAME_FILE_SNIFF`] bytes. Only a file that is plainly something
/// else is not: not empty, and with no trace of a game file (the word `correspond`, which the
/// format line and the comment lines hold, or a `signature:` line). A damaged game file (a
/// blank line or a byte order mark before its header, cut short, emptied) keeps such a trace,
/// is checked, and is found invalid: a folder checked in CI, or a push to a referee, never
/// turns a broken game into one passed over.
#[must_use]
pub fn may_be_a_game_file(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(GAME_FILE_SNIFF)];
    if head.is_empty() {
        return true;
    }
    // Both traces are ASCII, which no stretch of bytes that are not UTF-8 can hide or make up,
    // so the bytes are searched as they are, with no pass over the whole head to check it as
    // UTF-8; the word is on a game file's first line, where the search stops.
    let word = b"correspond";
    head.windows(word.len()).any(|w| w == word)
        || head
            .split(|&b| b == b'\n')
            .any(|l| l.starts_with(b"signature:"))
}

/// Whether a file, whatever its name, starts as a game file: past a byte order mark, `#`
/// comment lines and blank lines, a `---` line and then a `format: correspond/` line (either
/// ending in CR LF too). Every game file that verifies does; so do its copies damaged on the way
/// (line endings converted, a mark added), which a reader is then told are invalid. A referee
/// holds every such file in a push to the rules wherever it lies and whatever it is called
/// (docs/referee.md), so that a game cannot be published unrefereed under a name that a folder's
/// check passes over.
#[must_use]
pub fn starts_as_a_game(bytes: &[u8]) -> bool {
    starts_with_format(bytes, b"format: correspond/")
}

/// Whether a file starts as a tournament file does ([`crate::tournament::file`]): as
/// [`starts_as_a_game`], with a `format: correspond-tournament/` line.
#[must_use]
pub fn starts_as_a_tournament(bytes: &[u8]) -> bool {
    starts_with_format(bytes, b"format: correspond-tournament/")
}

/// Whether, past a byte order mark, `#` comment lines and blank lines (any ending in CR LF
/// too), a file starts with a `---` line and then a line starting with `format`.
fn starts_with_format(bytes: &[u8], format: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(GAME_FILE_SNIFF)];
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let mut lines = head
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .skip_while(|l| l.is_empty() || l.starts_with(b"#"));
    lines.next() == Some(b"---".as_slice()) && lines.next().is_some_and(|l| l.starts_with(format))
}

/// Whether a file in a tree is held to the rules as a game: one that starts as a game file,
/// wherever it lies and whatever it is called ([`starts_as_a_game`]), or one that `verify
/// FOLDER` reads (`read_by_folder_check`: a `*.yaml` or `*.yml` name, nothing hidden on its
/// path) and that may be a game file ([`may_be_a_game_file`]).
#[must_use]
pub fn held_as_a_game(read_by_folder_check: bool, bytes: &[u8]) -> bool {
    starts_as_a_game(bytes) || (read_by_folder_check && may_be_a_game_file(bytes))
}

/// The two kinds of file a referee holds to its rules: each only grows by signed documents
/// appended, each judged by its own reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refereed {
    /// A game file: its records replayed by the game's rules.
    Game,
    /// A tournament file: its records checked as the event's ([`crate::tournament::event`]).
    Tournament,
}

/// How a file in a tree is held to the rules, if it is: as a tournament file when it starts as
/// one ([`starts_as_a_tournament`]), wherever it lies and whatever it is called, as a game file
/// starts as one; else as a game when [`held_as_a_game`] holds it.
#[must_use]
pub fn refereed_as(read_by_folder_check: bool, bytes: &[u8]) -> Option<Refereed> {
    if starts_as_a_tournament(bytes) {
        Some(Refereed::Tournament)
    } else {
        held_as_a_game(read_by_folder_check, bytes).then_some(Refereed::Game)
    }
}

/// The parser's message without what this file's error already says (where) or what only a
/// programmer can act on (the parser's options, Rust types).
pub(super) fn yaml_message(message: &str) -> String {
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

/// The 1-based line of a byte offset.
pub(super) fn line_of(bytes: &[u8], offset: usize) -> usize {
    1 + bytes[..offset.min(bytes.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// Where a piece of text stands in its file: what comes before it.
#[derive(Clone, Copy, Default)]
pub(super) struct Base {
    /// Bytes before it.
    pub(super) offset: usize,
    /// Lines before it.
    pub(super) lines: usize,
    /// Documents before it.
    pub(super) documents: usize,
}

/// A document [`split`] is reading.
struct Open {
    /// Its index among the documents found.
    index: usize,
    /// Where its `---` line starts, in `text`.
    start: usize,
    /// The 1-based line number of its `---` line.
    line: usize,
    /// Where its signature line starts, in `text`, once found.
    signature: Option<usize>,
    /// The first line after its signature line, if any: text no signature covers.
    after: Option<usize>,
}

/// Finds the documents of `text`, which follows `base` in its file (at the start, comment
/// lines may come before the first document): each starts at a `---` line and must end with
/// its signature line. Spans, lines and documents are numbered in the whole file.
///
/// One pass over the lines. A defect of the file's shape (text before the header or after the
/// last signature, a YAML marker) is reported before any defect inside a document, wherever
/// each is, so a document's defect is kept until the pass ends.
pub(super) fn split(text: &str, base: Base) -> Result<Vec<Span>, LogError> {
    let mut spans = Vec::new();
    let mut open: Option<Open> = None;
    let mut inside: Option<LogError> = None;
    let mut started = 0;
    let mut offset = 0;
    for (number, line) in lines::inclusive(text).enumerate() {
        let bare = line.trim_end_matches('\n').trim_end_matches('\r');
        let line_number = base.lines + number + 1;
        if bare == "---" {
            if let Some(doc) = open.take() {
                close(doc, offset, Ending::Next, base, &mut spans, &mut inside);
            }
            started += 1;
            open = Some(Open {
                index: started - 1,
                start: offset,
                line: line_number,
                signature: None,
                after: None,
            });
        } else if open.is_none() && (base.documents > 0 || !line.starts_with('#')) {
            return Err(LogError {
                document: base.documents.checked_sub(1),
                line: line_number,
                kind: if base.documents > 0 {
                    LogErrorKind::AfterSignature
                } else {
                    LogErrorKind::TextBeforeHeader
                },
            });
        } else if bare == "..." || bare.starts_with("--- ") || bare.starts_with('%') {
            return Err(LogError {
                document: (base.documents + started).checked_sub(1),
                line: line_number,
                kind: LogErrorKind::Marker(shown(bare)),
            });
        } else if let Some(doc) = &mut open {
            // The first signature line ends the document: anything after it, up to the next
            // `---`, is text that no signature covers.
            if doc.signature.is_some() {
                doc.after.get_or_insert(line_number);
            } else if line.starts_with("signature:") {
                doc.signature = Some(offset);
            }
        }
        offset += line.len();
    }
    let Some(last) = open else {
        return Err(LogError {
            document: None,
            line: 1,
            kind: LogErrorKind::NoHeader,
        });
    };
    let ending = Ending::Text {
        newline: text.ends_with('\n'),
    };
    close(last, text.len(), ending, base, &mut spans, &mut inside);
    match inside {
        Some(error) => Err(error),
        None => Ok(spans),
    }
}

/// Where a document ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// Where the next document's `---` line starts.
    Next,
    /// At the end of the text, with a newline or without one.
    Text { newline: bool },
}

/// Ends document `doc` at `end`: its span, or (for the first document with one) its defect.
fn close(
    doc: Open,
    end: usize,
    ending: Ending,
    base: Base,
    spans: &mut Vec<Span>,
    inside: &mut Option<LogError>,
) {
    if inside.is_some() {
        return;
    }
    let fail = |line, kind| {
        Some(LogError {
            document: Some(base.documents + doc.index),
            line,
            kind,
        })
    };
    *inside = match (doc.signature, doc.after, ending) {
        (_, Some(line), _) => fail(line, LogErrorKind::AfterSignature),
        (None, None, Ending::Next) => fail(doc.line, LogErrorKind::MissingSignature),
        (None, None, Ending::Text { .. }) | (Some(_), None, Ending::Text { newline: false }) => {
            fail(doc.line, LogErrorKind::Truncated)
        }
        (Some(signature), None, _) => {
            spans.push(Span {
                bytes: base.offset + doc.start..base.offset + end,
                signature: base.offset + signature,
                line: doc.line,
            });
            None
        }
    };
}

/// A document's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Document {
    /// Document 0.
    Header(Box<Header>),
    /// Any later document.
    Record(Record),
}

/// Reads document `i` (0: the header), whose `---` line is line `first_line` of the file, and
/// checks that it is written the one way this program writes it.
pub(super) fn read_document(doc: &str, i: usize, first_line: usize) -> Result<Document, LogError> {
    let quick = if i == 0 {
        quick::quick_header(doc).map(|h| Document::Header(Box::new(h)))
    } else {
        quick::quick_record(doc).map(Document::Record)
    };
    match quick {
        Some(document) => Ok(document),
        None => read_yaml(doc, i, first_line),
    }
}

/// Below this many documents, reading them on other threads costs more than it saves.
const PARALLEL_FROM: usize = 256;

/// Reads the documents `spans` cut `text` into, in order, on up to `threads` threads. Each
/// thread reads a run of consecutive documents and stops at its first defect, and the runs are
/// taken in order: the defect returned is the file's first, however the work was shared.
pub(super) fn read_documents(
    text: &str,
    spans: &[Span],
    threads: usize,
) -> Result<Vec<Document>, LogError> {
    let threads = if spans.len() < PARALLEL_FROM {
        1
    } else {
        threads.max(1)
    };
    let per_thread = spans.len().div_ceil(threads).max(1);
    // Each run with the index of its first document.
    let runs: Vec<(usize, &[Span])> = spans
        .chunks(per_thread)
        .enumerate()
        .map(|(k, run)| (k * per_thread, run))
        .collect();
    let read_run = |&(first, run): &(usize, &[Span])| -> Result<Vec<Document>, LogError> {
        (first..)
            .zip(run)
            .map(|(i, span)| read_document(&text[span.bytes.clone()], i, span.line))
            .collect()
    };
    let mut documents = Vec::with_capacity(spans.len());
    for run in crate::parallel::map_in_order(&runs, threads, read_run) {
        documents.extend(run?);
    }
    Ok(documents)
}

/// [`read_document`] through the YAML parser, which explains what is wrong.
pub(super) fn read_yaml(doc: &str, i: usize, first_line: usize) -> Result<Document, LogError> {
    let fail = |line: usize, kind: LogErrorKind| LogError {
        document: Some(i),
        line,
        kind,
    };
    let yaml_error = |e: serde_saphyr::Error| {
        let line = e.location().map_or(first_line, |l| {
            first_line + usize::try_from(l.line()).unwrap_or(1).saturating_sub(1)
        });
        fail(line, LogErrorKind::Yaml(yaml_message(&e.to_string())))
    };
    let (document, expected, signature) = if i == 0 {
        let raw: format::RawHeader = serde_saphyr::from_str(doc).map_err(yaml_error)?;
        let signature = raw.signature.clone();
        let h = raw
            .validate()
            .map_err(|e| fail(first_line, LogErrorKind::Field(e)))?;
        let expected = header_unsigned(&h);
        (Document::Header(Box::new(h)), expected, signature)
    } else {
        let raw: format::RawRecord = serde_saphyr::from_str(doc).map_err(yaml_error)?;
        let signature = raw.signature.clone();
        let r = raw
            .validate()
            .map_err(|e| fail(first_line, LogErrorKind::Field(e)))?;
        let expected = record_unsigned(&r);
        (Document::Record(r), expected, signature)
    };
    let expected = expected + &signature_line(&signature);
    if let Some((offset, want, found)) = first_difference(&expected, doc) {
        return Err(fail(
            first_line + offset,
            LogErrorKind::NotCanonical {
                expected: shown(want),
                found: shown(found),
                hint: hint_for(found),
            },
        ));
    }
    Ok(document)
}

/// The first line where `found` differs from `expected`: (line offset, expected, found).
pub(super) fn first_difference<'a>(
    expected: &'a str,
    found: &'a str,
) -> Option<(usize, &'a str, &'a str)> {
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

pub(super) fn hint_for(line: &str) -> String {
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
