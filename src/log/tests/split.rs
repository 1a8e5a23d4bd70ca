//! Finding the documents of a text: the one pass `split` makes against the two passes that
//! are the plainest statement of what it must find.

use super::super::read::{self, Base};
use super::super::{LogError, LogErrorKind, Span};
use super::file_with_one_record;

/// The documents of a text as two passes found them, one over the lines and one over each
/// document: the plainest statement of what [`read::split`] finds in its one pass.
fn two_passes(text: &str, base: Base) -> Result<Vec<Span>, LogError> {
    let mut starts = Vec::new();
    let mut offset = 0;
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let bare = line.trim_end_matches('\n').trim_end_matches('\r');
        let line_number = base.lines + number + 1;
        if bare == "---" {
            starts.push((offset, line_number));
        } else if starts.is_empty() && (base.documents > 0 || !line.starts_with('#')) {
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
                document: (base.documents + starts.len()).checked_sub(1),
                line: line_number,
                kind: LogErrorKind::Marker(crate::text::shown(bare)),
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
            document: Some(base.documents + i),
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
            bytes: base.offset + start..base.offset + end,
            signature: base.offset + start + signature,
            line,
        });
    }
    Ok(spans)
}

#[test]
fn one_pass_finds_the_documents_and_the_first_defect_two_passes_find() {
    let text = file_with_one_record();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let odd = [
        "---\n",
        "...\n",
        "--- x\n",
        "%YAML 1.2\n",
        "# c\n",
        "signature: X\n",
        "\n",
        "text\n",
        "---\r\n",
        "signature:\n",
        "signature: Y",
    ];
    let comments = lines.iter().take_while(|l| l.starts_with('#')).copied();
    let mut texts = vec![
        String::new(),
        text.clone(),
        text[..text.len() - 1].to_owned(),
        comments.collect(),
    ];
    for at in 0..=lines.len() {
        for line in odd {
            let mut changed = lines.clone();
            changed.insert(at, line);
            texts.push(changed.concat());
        }
        if at < lines.len() {
            let mut fewer = lines.clone();
            fewer.remove(at);
            texts.push(fewer.concat());
            texts.push(format!("{}{}", fewer.concat(), lines[at].trim_end()));
        }
    }
    let mut defects = std::collections::BTreeSet::new();
    for text in &texts {
        for documents in [0, 3] {
            let base = read::Base {
                offset: 7,
                lines: 11,
                documents,
            };
            let found = read::split(text, base);
            assert_eq!(found, two_passes(text, base), "{documents}:\n{text}");
            if let Err(e) = found {
                let kind = format!("{:?}", e.kind);
                defects.insert(kind.split('(').next().unwrap_or_default().to_owned());
            }
        }
    }
    // Every defect of shape a split can find was met, not only passed over.
    let every = [
        "AfterSignature",
        "Marker",
        "MissingSignature",
        "NoHeader",
        "TextBeforeHeader",
        "Truncated",
    ];
    assert_eq!(defects, every.map(str::to_owned).into(), "{texts:?}");
}
