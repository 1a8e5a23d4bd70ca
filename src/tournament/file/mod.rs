//! The tournament file: an event's terms, signed by its director, then its records (entries,
//! the lot's commitments and reveals, withdrawals, the director's decisions), each signed by
//! who it names. It follows the game file's bytes rule ([`crate::log`]): each document is a
//! YAML document ending with its signature line, signed over its exact bytes, chained by the
//! digest of the one before; the event id is the digest of the header. This module checks its
//! form; [`crate::tournament::event`] checks its signatures and meaning.

mod format;
mod values;

pub use format::{
    Action, Decision, Engine, MAX_EVENT_NAME, MAX_SWISS_ROUNDS, MAX_VERSION, Record, SwissPairing,
    System, TIE_BREAKS, TOURNAMENT_FORMAT, TournamentHeader, WithdrawalRule, header_unsigned,
    preamble, record_unsigned, tie_break_name, tie_break_named, valid_event_name, valid_version,
};

pub use crate::log::starts_as_a_tournament;

use crate::digest::Digest;
use crate::log::signed_file::{self, DocumentSpan};
use crate::log::{LogError, LogErrorKind, signature_line};

/// The name an event's tournament file has in its folder.
pub const TOURNAMENT_FILE_NAME: &str = "tournament.yaml";

/// A well-formed tournament file; its signatures and meaning are not yet checked.
#[derive(Clone, Debug)]
pub struct TournamentFile {
    text: String,
    header: TournamentHeader,
    records: Vec<Record>,
    spans: Vec<DocumentSpan>,
}

impl TournamentFile {
    /// Reads a tournament file's bytes and checks their form.
    ///
    /// # Errors
    /// A [`LogError`] naming the document and line at fault.
    pub fn parse(bytes: &[u8]) -> Result<TournamentFile, LogError> {
        let (text, spans) = signed_file::documents(bytes)?;
        let mut header = None;
        let mut records = Vec::with_capacity(spans.len() - 1);
        for (i, span) in spans.iter().enumerate() {
            let doc = &text[span.bytes.clone()];
            let field = |e: String| LogError {
                document: Some(i),
                line: span.line,
                kind: LogErrorKind::Field(e),
            };
            let (expected, signature) = if i == 0 {
                let raw: format::RawHeader = signed_file::read_raw(doc, i, span.line)?;
                let signature = raw.signature.clone();
                let h = raw.validate().map_err(field)?;
                let expected = header_unsigned(&h);
                header = Some(h);
                (expected, signature)
            } else {
                let raw: format::RawRecord = signed_file::read_raw(doc, i, span.line)?;
                let signature = raw.signature.clone();
                let r = raw.validate().map_err(field)?;
                let expected = record_unsigned(&r);
                records.push(r);
                (expected, signature)
            };
            signed_file::check_spelling(
                &(expected + &signature_line(&signature)),
                doc,
                i,
                span.line,
            )?;
        }
        let header = header.expect("the first document is the header");
        if text[..spans[0].bytes.start] != preamble(&header) {
            return Err(LogError {
                document: None,
                line: 1,
                kind: LogErrorKind::Preamble,
            });
        }
        Ok(TournamentFile {
            text: text.to_owned(),
            header,
            records,
            spans,
        })
    }

    /// The event's terms.
    #[must_use]
    pub fn header(&self) -> &TournamentHeader {
        &self.header
    }

    /// The records, in file order.
    #[must_use]
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The whole text.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// How many documents: the header and the records.
    #[must_use]
    pub fn documents(&self) -> usize {
        self.spans.len()
    }

    /// The event id: the digest of the header, its signature line included.
    #[must_use]
    pub fn event_id(&self) -> Digest {
        self.digest(0)
    }

    /// The digest of document `i`.
    #[must_use]
    pub fn digest(&self, i: usize) -> Digest {
        Digest::of(self.document(i).as_bytes())
    }

    /// Where document `i` lies in the file, as byte offsets.
    ///
    /// # Panics
    /// If there is no document `i`.
    #[must_use]
    pub fn span(&self, i: usize) -> std::ops::Range<usize> {
        self.spans[i].bytes.clone()
    }

    /// Document `i`'s text.
    #[must_use]
    pub fn document(&self, i: usize) -> &str {
        &self.text[self.spans[i].bytes.clone()]
    }

    /// The bytes document `i`'s signature covers.
    #[must_use]
    pub fn signed_bytes(&self, i: usize) -> &[u8] {
        &self.text.as_bytes()[self.spans[i].bytes.start..self.spans[i].signature]
    }

    /// Document `i`'s signature, as base64.
    #[must_use]
    pub fn signature(&self, i: usize) -> &str {
        let line = &self.text[self.spans[i].signature..self.spans[i].bytes.end];
        line.trim_end_matches('\n')
            .strip_prefix("signature: ")
            .unwrap_or_default()
    }

    /// The line of document `i`'s `---`.
    #[must_use]
    pub fn line(&self, i: usize) -> usize {
        self.spans[i].line
    }

    /// Whether `bytes` is this file with records appended, as a later version of it must be.
    ///
    /// # Errors
    /// [`LogErrorKind::Changed`] or [`LogErrorKind::Shortened`], naming this version's document
    /// and line, when it is not.
    pub fn extended_by(&self, bytes: &[u8]) -> Result<(), LogError> {
        signed_file::check_append(
            self.text.as_bytes(),
            self.spans.iter().map(|s| s.bytes.end),
            bytes,
        )
    }

    /// How many lines the file has.
    #[must_use]
    pub fn lines(&self) -> usize {
        signed_file::line_count(&self.text)
    }
}

/// The header document as written to a new file, preamble included.
#[must_use]
pub fn header_document(header: &TournamentHeader, signature: &str) -> String {
    preamble(header) + &header_unsigned(header) + &signature_line(signature)
}

#[cfg(test)]
mod tests;
