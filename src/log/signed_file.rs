//! What another file written by the bytes rule shares with the game file: the tournament file
//! ([`crate::tournament::file`]) is cut into documents, read through YAML and held to one
//! spelling by the same code as a game file, so that the rule has one definition.

use super::read::{Base, first_difference, hint_for, line_of, split, yaml_message};
use super::{LogError, LogErrorKind, lines};
use crate::text::shown;
use ssh_key::PublicKey;
use std::ops::Range;

/// Where a document sits in its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentSpan {
    /// The document's bytes, from its `---` line through its signature line.
    pub bytes: Range<usize>,
    /// Where its `signature:` line starts.
    pub signature: usize,
    /// The 1-based line number of its `---` line.
    pub line: usize,
}

/// A file's text cut into documents by the bytes rule, with the number of its lines.
///
/// # Errors
/// An empty file, bytes that are not UTF-8, a CR, or a shape the bytes rule refuses.
pub(crate) fn documents(bytes: &[u8]) -> Result<(&str, Vec<DocumentSpan>), LogError> {
    let text =
        std::str::from_utf8(bytes).map_err(|e| super::not_utf8(bytes, e.valid_up_to(), 0, 0))?;
    if text.is_empty() {
        return Err(LogError {
            document: None,
            line: 1,
            kind: LogErrorKind::Empty,
        });
    }
    let spans = split(text, Base::default())?;
    if let Some(cr) = text.find('\r') {
        return Err(LogError {
            document: spans.iter().position(|s| s.bytes.contains(&cr)),
            line: line_of(bytes, cr),
            kind: LogErrorKind::CarriageReturn,
        });
    }
    let spans = spans
        .into_iter()
        .map(|s| DocumentSpan {
            bytes: s.bytes,
            signature: s.signature,
            line: s.line,
        })
        .collect();
    Ok((text, spans))
}

/// Whether `bytes` is `old` with documents appended, `ends` being where each of `old`'s
/// documents ends: the one rule of a later version of a file written by the bytes rule.
///
/// # Errors
/// [`LogErrorKind::Changed`] at the first byte changed, or [`LogErrorKind::Shortened`] where a
/// shorter version ends, naming `old`'s document and line there.
pub(crate) fn check_append(
    old: &[u8],
    ends: impl Iterator<Item = usize> + Clone,
    bytes: &[u8],
) -> Result<(), LogError> {
    let at = |offset: usize, kind| {
        let documents = ends.clone().count();
        let document = ends
            .clone()
            .position(|end| offset < end)
            .unwrap_or(documents.saturating_sub(1));
        LogError {
            document: Some(document),
            line: line_of(old, offset),
            kind,
        }
    };
    // The common case first, at memory speed; the position only when it fails.
    if bytes.starts_with(old) {
        return Ok(());
    }
    if let Some(offset) = old.iter().zip(bytes).position(|(a, b)| a != b) {
        return Err(at(offset, LogErrorKind::Changed));
    }
    let cut = at(bytes.len(), LogErrorKind::Changed);
    let dropped = cut.document.unwrap_or(0);
    Err(LogError {
        kind: LogErrorKind::Shortened { dropped },
        ..cut
    })
}

/// How many lines `text` has.
pub(crate) fn line_count(text: &str) -> usize {
    lines::count(text)
}

/// Document `i` (whose `---` line is line `first_line`) read through YAML into `T`.
///
/// # Errors
/// What the parser found wrong, at its line.
pub(crate) fn read_raw<T: serde::de::DeserializeOwned>(
    doc: &str,
    i: usize,
    first_line: usize,
) -> Result<T, LogError> {
    serde_saphyr::from_str(doc).map_err(|e| {
        let line = e.location().map_or(first_line, |l| {
            first_line + usize::try_from(l.line()).unwrap_or(1).saturating_sub(1)
        });
        LogError {
            document: Some(i),
            line,
            kind: LogErrorKind::Yaml(yaml_message(&e.to_string())),
        }
    })
}

/// Checks that document `i` is, byte for byte, `expected` (its whole text, signature line
/// included): the one spelling of its content.
///
/// # Errors
/// The first line that differs, with what it should be.
pub(crate) fn check_spelling(
    expected: &str,
    doc: &str,
    i: usize,
    first_line: usize,
) -> Result<(), LogError> {
    match first_difference(expected, doc) {
        None => Ok(()),
        Some((offset, want, found)) => Err(LogError {
            document: Some(i),
            line: first_line + offset,
            kind: LogErrorKind::NotCanonical {
                expected: shown(want),
                found: shown(found),
                hint: hint_for(found),
            },
        }),
    }
}

/// The Ed25519 key `text` gives for `whose` (a name, for the message).
///
/// # Errors
/// A key of another kind, or text that is not an OpenSSH public key.
pub(crate) fn ed25519_key(whose: &str, text: &str) -> Result<PublicKey, String> {
    crate::sign::public_key(text).map_err(|e| match e {
        crate::sign::SignError::NotEd25519(_, kind) => format!(
            "the key of {} is {kind}; correspond uses Ed25519 keys, whose signatures are \
             deterministic",
            shown(whose)
        ),
        e => format!(
            "the key of {} is not an OpenSSH public key: {e}",
            shown(whose)
        ),
    })
}

/// A file of one signed document (a club's rating rules, a published list), read: its content,
/// the document's text, the bytes its signature covers, and the signature, which the caller
/// checks with the key the content names.
pub(crate) struct Single<'a, V> {
    pub(crate) value: V,
    pub(crate) document: &'a str,
    pub(crate) signed: &'a [u8],
    pub(crate) signature: String,
}

/// Why a file of one signed document cannot be read.
pub(crate) enum SingleError {
    /// What the bytes rule, the YAML, a field, the one spelling or the comment lines refuse.
    Form(LogError),
    /// Another number of documents than one.
    Documents(usize),
}

impl From<LogError> for SingleError {
    fn from(e: LogError) -> SingleError {
        SingleError::Form(e)
    }
}

/// Reads a file of one signed document: cut by the bytes rule, read through YAML into `R`,
/// validated into its content and signature by `validate`, held to the one spelling `unsigned`
/// writes and to the comment lines `preamble` makes.
///
/// # Errors
/// What is wrong, at its line; or another number of documents than one.
pub(crate) fn read_single<'a, R: serde::de::DeserializeOwned, V>(
    bytes: &'a [u8],
    validate: impl FnOnce(R) -> Result<(V, String), String>,
    unsigned: impl Fn(&V) -> String,
    preamble: impl Fn(&V) -> String,
) -> Result<Single<'a, V>, SingleError> {
    let (text, spans) = documents(bytes)?;
    let [span]: [DocumentSpan; 1] = spans
        .try_into()
        .map_err(|spans: Vec<DocumentSpan>| SingleError::Documents(spans.len()))?;
    let document = &text[span.bytes.clone()];
    let raw: R = read_raw(document, 0, span.line)?;
    let (value, signature) = validate(raw).map_err(|e| LogError {
        document: Some(0),
        line: span.line,
        kind: LogErrorKind::Field(e),
    })?;
    check_spelling(
        &(unsigned(&value) + &super::signature_line(&signature)),
        document,
        0,
        span.line,
    )?;
    if text[..span.bytes.start] != preamble(&value) {
        return Err(SingleError::Form(LogError {
            document: None,
            line: 1,
            kind: LogErrorKind::Preamble,
        }));
    }
    Ok(Single {
        value,
        document,
        signed: &text.as_bytes()[span.bytes.start..span.signature],
        signature,
    })
}
