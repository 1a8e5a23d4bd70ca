//! The record block: written by [`armor`], found again by [`find`] in text however mail has
//! quoted, wrapped or reflowed it. The format is in docs/file-format.md ("Records by mail").

use super::{MailError, Packet};
use crate::digest::Digest;
use crate::log::GameFile;
use base64ct::{Base64, Encoding};

/// The line that opens a block.
pub const BEGIN: &str = "-----BEGIN CORRESPOND RECORDS-----";
/// The line that closes it.
pub const END: &str = "-----END CORRESPOND RECORDS-----";

/// More records than any game file within the size limit can hold; a larger `Documents:`
/// number is damage, not a game.
const MAX_DOCUMENTS: usize = 1_000_000;

/// The block carrying documents `first..` of `file`.
///
/// # Panics
/// If the file has no document `first`.
#[must_use]
pub fn armor(file: &GameFile, first: usize) -> String {
    let start = if first == 0 {
        0
    } else {
        file.span(first).start
    };
    let bytes = &file.text().as_bytes()[start..];
    let encoded = Base64::encode_string(bytes);
    let mut out = format!(
        "{BEGIN}\nGame: {}\nDocuments: {first}-{}\nChecksum: {}\n",
        file.game_id(),
        file.documents() - 1,
        Digest::of(bytes)
    );
    for chunk in encoded.as_bytes().chunks(64) {
        out.push_str(std::str::from_utf8(chunk).expect("base64 is ASCII"));
        out.push('\n');
    }
    out.push_str(END);
    out.push('\n');
    out
}

/// Every block in a text, in order, however quoted, indented, wrapped or reflowed.
///
/// The text is read as words, not lines: mail clients re-wrap lines, quote them with `>` (no
/// word of a block starts with one), and HTML turned into text may run them together. A word
/// broken in two does no harm either: base64 words are joined, and a digest is read from as
/// many words as its 64 characters take. A lost or changed character is caught by the
/// checksum. The cost is linear in the text, whatever it holds.
///
/// Two things that text editors and mail programs do to a pasted block are undone as well:
/// quoted-printable left in it (a block pasted from a message's raw source, where `=` is
/// written `=3D` and long lines end with a soft break `=`; base64 has no `=3D`), and the
/// dash-escaping of an OpenPGP clear signature (`- -----END ...`: a lone `-` is no word of a
/// block).
#[must_use]
pub fn find(text: &str) -> Vec<Result<Packet, MailError>> {
    let text = undo_pasted_quoted_printable(text);
    let quoted = quoted_begins(&text);
    // Text from HTML may glue a marker to the words around it (`Here:-----BEGIN`); no `-` is
    // part of base64, so spacing the markers out changes nothing else. Invisible characters
    // that editors slip into long words are dropped.
    let spaced = text
        .replace("-----BEGIN ", " -----BEGIN ")
        .replace("-----END ", " -----END ")
        .replace(" RECORDS-----", " RECORDS----- ")
        .replace(
            [
                '\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{AD}',
            ],
            "",
        );
    let words: Vec<&str> = spaced
        .split_whitespace()
        .map(|w| w.trim_start_matches('>'))
        .filter(|w| !w.is_empty() && *w != "-")
        .collect();
    let marker = |m: &str| -> Vec<usize> {
        let m: Vec<&str> = m.split(' ').collect();
        (0..words.len())
            .filter(|&i| words[i..].starts_with(&m))
            .collect()
    };
    let (begins, ends) = (marker(BEGIN), marker(END));
    // Whether each block was quoted, when the lines and the words agree on how many there are.
    let quoted = |k: usize| quoted.len() == begins.len() && quoted[k];
    let mut found = Vec::new();
    let mut next_end = 0;
    for (k, &begin) in begins.iter().enumerate() {
        let body = begin + 3;
        let next_begin = begins.get(k + 1).copied().unwrap_or(words.len());
        while ends.get(next_end).is_some_and(|&e| e < body) {
            next_end += 1;
        }
        let block = match ends.get(next_end) {
            Some(&end) if end < next_begin => read(&words[body..end]),
            // A block cut short is reported, not passed over in silence.
            _ => Err(damaged(
                &words[body..next_begin],
                "it has no end line (was it cut short?)",
            )),
        };
        found.push(block.map_err(|e| match e {
            MailError::Damaged {
                game, range, why, ..
            } => MailError::Damaged {
                game,
                range,
                why,
                quoted: quoted(k),
            },
            other => other,
        }));
    }
    found
}

/// The word after `name`.
fn field<'a>(words: &[&'a str], name: &str) -> Option<&'a str> {
    let at = words.iter().position(|w| *w == name)?;
    words.get(at + 1).copied()
}

/// A SHA-256 digest after `name`, from the words that follow it until its 64 characters are
/// read (a client that breaks long words splits it).
fn digest(words: &[&str], name: &str) -> Option<Digest> {
    let at = words.iter().position(|w| *w == name)?;
    let mut hex = String::with_capacity(64);
    for word in &words[at + 1..] {
        if hex.len() >= 64 || !word.bytes().all(|b| b.is_ascii_hexdigit()) {
            break;
        }
        hex.push_str(word);
    }
    Digest::parse(&hex)
}

fn damaged(words: &[&str], why: &str) -> MailError {
    MailError::Damaged {
        game: digest(words, "Game:"),
        range: documents(words),
        why: why.to_owned(),
        quoted: false,
    }
}

/// For each block's opening line in the text, in order, whether it is quoted with `>`. Other
/// armour (an OpenPGP signature, an SSH signature) is not counted: it has its own `-----BEGIN`.
fn quoted_begins(text: &str) -> Vec<bool> {
    let marker: Vec<&str> = BEGIN.split(' ').collect();
    let mut quoted = Vec::new();
    let (mut line_start, mut scanned) = (0, 0);
    for (at, _) in text.match_indices("-----BEGIN") {
        if let Some(newline) = text[scanned..at].rfind('\n') {
            line_start = scanned + newline + 1;
        }
        scanned = at;
        // The marker's words, however the line after it was wrapped or quoted (within a few
        // lines: the cost stays linear in the text).
        let mut end = (at + 256).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let words = text[at..end]
            .split_whitespace()
            .map(|w| w.trim_start_matches('>'))
            .filter(|w| !w.is_empty() && *w != "-")
            .take(marker.len());
        let ours = words
            .zip(&marker)
            .enumerate()
            .filter(|(i, (word, m))| word == *m || (*i + 1 == marker.len() && word.starts_with(*m)))
            .count()
            == marker.len();
        if ours {
            quoted.push(text[line_start..at].trim_start().starts_with('>'));
        }
    }
    quoted
}

/// The text with quoted-printable undone between a block's markers, where a paste from a raw
/// message left it (it holds `=3D`, which base64 never does); otherwise the text as it is.
fn undo_pasted_quoted_printable(text: &str) -> std::borrow::Cow<'_, str> {
    let encoded = |region: &str| region.contains("=3D") || region.contains("=3d");
    let mut out = String::new();
    let mut rest = text;
    let mut changed = false;
    while let Some(at) = rest.find("-----BEGIN") {
        let after = &rest[at..];
        let end = after
            .find("-----END")
            .map_or(after.len(), |e| e + "-----END".len());
        out.push_str(&rest[..at]);
        let region = &after[..end];
        if encoded(region) {
            out.push_str(&decode_quoted_printable(region));
            changed = true;
        } else {
            out.push_str(region);
        }
        rest = &after[end..];
    }
    if !changed {
        return std::borrow::Cow::Borrowed(text);
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// Quoted-printable decoded (RFC 2045): soft line breaks joined, `=XX` turned into its byte.
fn decode_quoted_printable(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' {
            let next = &bytes[i + 1..];
            if next.starts_with(b"\r\n") {
                i += 3;
                continue;
            }
            if next.starts_with(b"\n") {
                i += 2;
                continue;
            }
            let hex = next
                .get(..2)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(byte) = hex {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `Documents:` range, when it reads as one.
fn documents(words: &[&str]) -> Option<(usize, usize)> {
    field(words, "Documents:")
        .and_then(|range| range.split_once('-'))
        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
        .filter(|&(a, b): &(usize, usize)| a <= b && b < MAX_DOCUMENTS)
}

fn read(words: &[&str]) -> Result<Packet, MailError> {
    let fail = |why: &str| damaged(words, why);
    let game = digest(words, "Game:")
        .ok_or_else(|| fail("its `Game:` line is missing or is not a game id"))?;
    let (first, last) = documents(words).ok_or_else(|| {
        fail("its `Documents:` line is missing, or is not a range of records such as `4-5`")
    })?;
    let checksum = digest(words, "Checksum:")
        .ok_or_else(|| fail("its `Checksum:` line is missing or is not a SHA-256 digest"))?;
    // The payload: the words after the checksum's, whatever wrapping did to them.
    let after_checksum = words
        .iter()
        .position(|w| *w == "Checksum:")
        .expect("the checksum was read");
    let mut rest = &words[after_checksum + 1..];
    let mut hex = 0;
    while let Some((word, tail)) = rest.split_first().filter(|_| hex < 64) {
        hex += word.len();
        rest = tail;
    }
    let payload: String = rest.concat();
    let bytes = Base64::decode_vec(&payload)
        .map_err(|_| fail("its base64 lines do not decode (was a line lost or changed?)"))?;
    if Digest::of(&bytes) != checksum {
        return Err(fail(
            "its content does not match its checksum (was a line lost or changed?)",
        ));
    }
    if bytes.is_empty() {
        return Err(fail("it carries no records"));
    }
    Ok(Packet {
        game,
        first,
        last,
        bytes,
    })
}

/// A whole game file sent as it is (attached, or pasted), as the packet of all its documents.
#[must_use]
///
/// What mail does to a text attachment is undone first: a byte-order mark, CRLF line endings,
/// and blank lines or a missing newline at the end. None of it is signed (game files have LF
/// line endings and end with a signature line), so the signatures still decide.
pub fn game_file(bytes: &[u8]) -> Option<Packet> {
    let bytes = bytes.strip_prefix("\u{FEFF}".as_bytes()).unwrap_or(bytes);
    if !bytes.starts_with(b"# correspond game file") {
        return None;
    }
    let mut text = String::from_utf8_lossy(bytes).replace("\r\n", "\n");
    text.truncate(text.trim_end().len());
    text.push('\n');
    let file = GameFile::parse(text.as_bytes()).ok()?;
    Some(Packet {
        game: file.game_id(),
        first: 0,
        last: file.documents() - 1,
        bytes: text.into_bytes(),
    })
}
