//! Mail messages in and out: finding blocks in a raw message (through its MIME parts and
//! encodings, and messages forwarded inside it), splitting a mailbox, and writing a message.
//! `mail-parser` and `mail-builder` do the RFC 5322 and MIME work.

use super::{MailError, Packet, find, game_file};
use crate::digest::Digest;
use mail_builder::MessageBuilder;
use mail_builder::headers::address::Address;
use mail_builder::headers::content_type::ContentType;
use mail_builder::headers::message_id::MessageId;
use mail_builder::mime::MimePart;
use mail_parser::{HeaderName, Message, MessageParser, PartType};
use std::collections::HashSet;

/// More messages inside a message (forwarded, or in a digest) than any game's mail holds.
const MAX_FORWARDED: usize = 1000;

/// What a raw message holds for us.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    /// Its subject, if it has one.
    pub subject: Option<String>,
    /// Every block in it, in order, each once.
    pub blocks: Vec<Result<Packet, MailError>>,
}

/// Every block in a raw message (RFC 5322, as received or saved): in its text and HTML parts,
/// decoded from quoted-printable or base64, in attachments (a game file sent as it is counts as
/// a block of all its records), and in messages forwarded inside it. A text that is not a
/// message (a block pasted into a file, a game file) is searched as it is.
#[must_use]
pub fn in_message(raw: &[u8]) -> Parsed {
    if let Some(packet) = game_file(raw) {
        return Parsed {
            subject: None,
            blocks: vec![Ok(packet)],
        };
    }
    // Messages forwarded inside messages, nested tens of thousands deep, would make a tree
    // too deep to walk (or even to drop) on the stack. No game's mail forwards more than a
    // few: such a message is refused with the reason, and a mailbox goes on with the rest.
    let forwarded = inner_messages(raw);
    let why = if forwarded > MAX_FORWARDED {
        Some(format!(
            "the message holds more than {MAX_FORWARDED} messages inside it, forwarded or in \
             digests ({forwarded}), which no game's mail does"
        ))
    } else if encoded_message_part(raw) {
        Some(
            "a message inside it is sent encoded (base64 or quoted-printable), which hides how \
             deep the messages inside it nest, and which no game's mail does; save that \
             message by itself and receive it"
                .to_owned(),
        )
    } else {
        None
    };
    if let Some(why) = why {
        let subject = MessageParser::new()
            .header_text(HeaderName::Subject)
            .parse_headers(raw)
            .and_then(|m| m.subject().map(str::to_owned));
        return Parsed {
            subject,
            blocks: vec![Err(MailError::Damaged {
                game: None,
                range: None,
                why,
                quoted: false,
            })],
        };
    }
    let parser = MessageParser::new()
        .with_mime_headers()
        .header_text(HeaderName::Subject);
    let Some(message) = parser.parse(raw) else {
        return Parsed {
            subject: None,
            blocks: find(&String::from_utf8_lossy(raw)),
        };
    };
    let mut blocks = Vec::new();
    collect(&message, &mut blocks);
    if blocks.is_empty() {
        // Text pasted into a file, which a mail parser reads as headers.
        blocks = find(&String::from_utf8_lossy(raw));
    }
    // The same block in a text part and its HTML twin, or quoted again in a reply, counts once.
    let mut seen = HashSet::new();
    blocks.retain(|block| {
        seen.insert(match block {
            Ok(p) => format!("{} {} {} {}", p.game, p.first, p.last, Digest::of(&p.bytes)),
            Err(e) => format!("{e:?}"),
        })
    });
    Parsed {
        subject: message.subject().map(str::to_owned),
        blocks,
    }
}

/// At least how many messages a raw message can hold inside it, nested or side by side: each
/// needs a `message/rfc822` (or `message/global`) type, however its header is folded, or a
/// part of a `multipart/digest`, each of whose levels names `digest`. Counted on the raw bytes,
/// before anything is parsed into a tree; a base64 part that holds a message grows by a third
/// a level, so no size limit lets it nest deep.
fn inner_messages(raw: &[u8]) -> usize {
    (0..raw.len())
        .filter(|&i| word_at(raw, i, b"digest") || message_type_at(raw, i))
        .count()
}

/// Whether a message inside `raw` is sent encoded: a header block (lines up to a blank one)
/// with a `Content-Type` of `message/...` and a `Content-Transfer-Encoding` other than `7bit`,
/// `8bit` or `binary` (base64, quoted-printable, or anything else, an encoded word included);
/// or such an encoding on a part with no type in a message with a `multipart/digest`, whose
/// parts are messages without saying so. The parser decodes such a part and reads the message
/// inside, where [`inner_messages`], counting on the raw bytes, cannot see how deep messages
/// nest, so such a message is refused. RFC 2046 (5.2.1) allows no such encoding on
/// `message/rfc822`; RFC 6532 allows it on `message/global`, which game mail does not use.
fn encoded_message_part(raw: &[u8]) -> bool {
    let (mut digest, mut untyped_encoded) = (false, false);
    for block in header_blocks(raw) {
        let headers = headers(block);
        let types: Vec<Vec<u8>> = field(&headers, b"content-type").collect();
        digest |= types.iter().any(|t| t.starts_with(b"multipart/digest"));
        let encoded = field(&headers, b"content-transfer-encoding")
            .any(|e| !matches!(e.as_slice(), b"7bit" | b"8bit" | b"binary"));
        if encoded && types.iter().any(|t| t.starts_with(b"message/")) {
            return true;
        }
        untyped_encoded |= encoded && types.is_empty();
    }
    digest && untyped_encoded
}

/// The lines of a block that start a header, each as its name and its value with any folded
/// lines after it; a line that is no header is one with an empty name.
fn headers(block: &[u8]) -> Vec<(&[u8], Vec<u8>)> {
    let mut found: Vec<(&[u8], Vec<u8>)> = Vec::new();
    for line in block.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.first().is_some_and(|&b| b == b' ' || b == b'\t') {
            if let Some((_, value)) = found.last_mut() {
                value.extend_from_slice(line);
            }
            continue;
        }
        found.push(match line.iter().position(|&b| b == b':') {
            Some(colon) => (line[..colon].trim_ascii_end(), line[colon + 1..].to_vec()),
            None => (&[][..], Vec::new()),
        });
    }
    found
}

/// The values of the headers named `name` (in any case), each without its comments and
/// spaces, in lower case.
fn field<'a>(
    headers: &'a [(&[u8], Vec<u8>)],
    name: &'a [u8],
) -> impl Iterator<Item = Vec<u8>> + 'a {
    headers
        .iter()
        .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, value)| {
            let mut depth = 0usize;
            let mut bare = Vec::new();
            for &b in value {
                match b {
                    b'(' => depth += 1,
                    b')' => depth = depth.saturating_sub(1),
                    _ if depth > 0 || b.is_ascii_whitespace() => {}
                    _ => bare.push(b.to_ascii_lowercase()),
                }
            }
            bare
        })
}

/// `raw` cut at each blank line (`\n\n` or `\n\r\n`), the blank line left out.
fn header_blocks(raw: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = raw;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let blank = (0..rest.len()).find_map(|i| {
            let tail = &rest[i..];
            [&b"\n\n"[..], b"\n\r\n"]
                .iter()
                .find(|end| tail.starts_with(end))
                .map(|end| (i + 1, i + end.len()))
        });
        let (end, next) = blank.unwrap_or((rest.len(), rest.len()));
        let block = &rest[..end];
        rest = &rest[next..];
        Some(block)
    })
}

/// Whether `word` is at byte `i` of `raw`, in any case.
fn word_at(raw: &[u8], i: usize, word: &[u8]) -> bool {
    raw.get(i..i + word.len())
        .is_some_and(|w| w.eq_ignore_ascii_case(word))
}

/// Whether a `message/` type may start at byte `i` of `raw`: `message`, then spaces or folded
/// lines, then `/`, or `(`, since the parser reads `message (a comment) /rfc822` as a type too.
/// Any `message (` is counted, rather than the comment followed to its end, so that the count
/// stays one pass over the bytes.
fn message_type_at(raw: &[u8], i: usize) -> bool {
    word_at(raw, i, b"message")
        && raw[i + b"message".len()..]
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|&b| b == b'/' || b == b'(')
}

fn collect(message: &Message<'_>, found: &mut Vec<Result<Packet, MailError>>) {
    for part in &message.parts {
        match &part.body {
            PartType::Text(text) => found.extend(in_text(text.as_bytes())),
            PartType::Html(html) => found.extend(find(&html_text(html))),
            PartType::Message(inner) => collect(inner, found),
            // A picture of the board (ours, or any other) holds no records.
            PartType::Binary(_) | PartType::InlineBinary(_) if is_image(part) => {}
            // An attached `.txt` or game file.
            PartType::Binary(bytes) | PartType::InlineBinary(bytes) => {
                found.extend(in_text(bytes));
            }
            PartType::Multipart(_) => {}
        }
    }
}

/// Whether a part says it is an image (`image/png`, `image/gif`, ...).
fn is_image(part: &mail_parser::MessagePart<'_>) -> bool {
    use mail_parser::MimeHeaders as _;
    part.content_type()
        .is_some_and(|t| t.ctype().eq_ignore_ascii_case("image"))
}

/// The blocks in a text part or an attachment: a game file is one block of all its records.
fn in_text(bytes: &[u8]) -> Vec<Result<Packet, MailError>> {
    match game_file(bytes) {
        Some(packet) => vec![Ok(packet)],
        None => find(&String::from_utf8_lossy(bytes)),
    }
}

/// The words of an HTML part: every tag a space (so that `<div>`s do not run lines together),
/// entities decoded, nothing else interpreted. Blocks are all this program looks for, and
/// whether they were quoted: text inside a `<blockquote>` (how HTML mail quotes a reply) comes
/// out as lines quoted with `> `, as a text part would quote it.
fn html_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut rest = html;
    let mut depth = 0usize;
    let push = |text: &mut String, part: &str, depth: usize| {
        if depth == 0 {
            text.push_str(part);
        } else {
            text.push_str(&part.replace('\n', "\n> "));
        }
    };
    while let Some(at) = rest.find(['<', '&']) {
        push(&mut text, &rest[..at], depth);
        rest = &rest[at..];
        if rest.starts_with('<') {
            // A tag starts with a letter, `/`, `!` or `?`; any other `<` is text.
            let tag = rest[1..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?'));
            if tag {
                let name = rest[1..].trim_start_matches('/');
                let name = &name[..name
                    .find(|c: char| !c.is_ascii_alphanumeric())
                    .unwrap_or(name.len())];
                if name.eq_ignore_ascii_case("blockquote") {
                    depth = if rest[1..].starts_with('/') {
                        depth.saturating_sub(1)
                    } else {
                        depth + 1
                    };
                }
                rest = rest.find('>').map_or("", |end| &rest[end + 1..]);
                text.push_str(if depth == 0 { " " } else { "\n> " });
            } else {
                text.push('<');
                rest = &rest[1..];
            }
            continue;
        }
        // An entity's name is short: looking further for its `;` would make the cost grow with
        // the square of a text full of `&`.
        let window = &rest.as_bytes()[1..rest.len().min(12)];
        let entity = window
            .iter()
            .position(|&b| b == b';')
            .map(|end| &rest[1..=end]);
        let decoded = entity.and_then(entity_char);
        match (entity, decoded) {
            (Some(name), Some(c)) => {
                text.push(c);
                rest = &rest[name.len() + 2..];
            }
            _ => {
                text.push('&');
                rest = &rest[1..];
            }
        }
    }
    push(&mut text, rest, depth);
    text
}

/// The character an HTML entity's name (`amp`, `#38`, `#x26`) stands for: the few names mail
/// writers use for text, and every number that is a character; `None` for any other name,
/// which is left as it was written.
fn entity_char(name: &str) -> Option<char> {
    match name {
        "nbsp" | "ensp" | "emsp" | "thinsp" => Some(' '),
        "zwnj" | "zwj" | "shy" => Some('\u{200B}'),
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "plus" => Some('+'),
        "sol" => Some('/'),
        "equals" => Some('='),
        _ => {
            let number = name.strip_prefix('#')?;
            let code = match number.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => number.parse().ok()?,
            };
            char::from_u32(code)
        }
    }
}

/// The messages of an mbox mailbox, in order (`From ` lines separate them; `>From ` quoting is
/// undone), read as a stream so that a mailbox of any size can be searched; a message larger
/// than `limit` bytes is given as `Err` with its number (from 1), for the caller to report.
///
/// # Errors
/// When the mailbox cannot be read.
pub fn mailbox(
    reader: impl std::io::BufRead,
    limit: usize,
    mut each: impl FnMut(usize, Result<&[u8], usize>),
) -> std::io::Result<()> {
    for (i, message) in mail_parser::mailbox::mbox::MessageIterator::new(reader).enumerate() {
        let message = message?;
        let contents = message.contents();
        if contents.len() > limit {
            each(i + 1, Err(contents.len()));
        } else {
            each(i + 1, Ok(contents));
        }
    }
    Ok(())
}

/// A person's mail address, with the name mail clients show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mailbox {
    /// The name: `alice`.
    pub name: Option<String>,
    /// The address: `alice@example.org`.
    pub address: String,
}

impl Mailbox {
    fn header(&self) -> Address<'_> {
        Address::new_address(self.name.as_deref(), self.address.as_str())
    }
}

/// The headers of a message to write.
#[derive(Clone, Debug)]
pub struct Envelope {
    /// The sender.
    pub from: Mailbox,
    /// The recipients, if known.
    pub to: Vec<Mailbox>,
    /// The subject.
    pub subject: String,
    /// A `Comments:` header (encoded when it is not ASCII): what the message carries, with the
    /// players' names as they are.
    pub comments: Option<String>,
    /// The `Date:` header, as seconds since 1970.
    pub date: u64,
    /// The `Message-ID:`, without angle brackets.
    pub message_id: String,
    /// Message ids it follows, oldest first, so that mail clients thread a game's messages.
    pub references: Vec<String>,
}

/// A board picture to show in a message, beside its text.
#[derive(Clone, Debug)]
pub struct Image {
    /// The PNG image.
    pub png: Vec<u8>,
    /// What a reader is told who sees no image: the position and the move.
    pub alt: String,
    /// The size to show it at, in CSS pixels (half the image's own, for sharp screens).
    pub width: u32,
    /// See `width`.
    pub height: u32,
}

/// An RFC 5322 message with LF line endings (as `sendmail -t` and mailbox files want them), its
/// headers and body from the arguments alone: no clock, no host name, no random boundary.
///
/// Without a picture the message is the plain text alone. With one it is that text, and as
/// its alternative an HTML twin showing the picture above the same text (`multipart/related`,
/// the image referred to by `cid:`), which is what mail clients that show images show: every
/// client shows a PNG, where Gmail, Outlook and Yahoo show no SVG. Readers that show only text,
/// and `receive`, read the text; the HTML carries the same block, which `receive` counts once.
#[must_use]
pub fn compose(envelope: &Envelope, body: &str, picture: Option<&Image>) -> Vec<u8> {
    let mut builder = MessageBuilder::new()
        .from(envelope.from.header())
        .subject(envelope.subject.as_str())
        .date(envelope.date)
        .message_id(envelope.message_id.as_str());
    builder = match picture {
        None => builder.text_body(body),
        Some(picture) => builder.body(with_picture(body, picture)),
    };
    if let Some(comments) = &envelope.comments {
        builder = builder.header(
            "Comments",
            mail_builder::headers::text::Text::new(comments.as_str()),
        );
    }
    if !envelope.to.is_empty() {
        let to = envelope.to.iter().map(Mailbox::header).collect();
        builder = builder.to(Address::new_list(to));
    }
    if let Some(parent) = envelope.references.last() {
        builder = builder
            .in_reply_to(parent.as_str())
            .references(MessageId::new_list(
                envelope.references.iter().map(String::as_str),
            ));
    }
    let crlf = builder
        .write_to_vec()
        .expect("writing to memory does not fail");
    let mut out = Vec::with_capacity(crlf.len());
    let mut bytes = crlf.iter().peekable();
    while let Some(&b) = bytes.next() {
        if !(b == b'\r' && bytes.peek() == Some(&&b'\n')) {
            out.push(b);
        }
    }
    out
}

/// The body of a message with a picture: the text, or the picture above the same text.
/// Boundaries are made from a digest of what they separate, so that no text in the message
/// (a comment a player wrote) can hold one, and the same message is the same bytes.
fn with_picture(body: &str, picture: &Image) -> MimePart<'static> {
    let digest = Digest::of(&[body.as_bytes(), &picture.png].concat()).to_string();
    let cid = format!("board.{}@correspond.invalid", &digest[..16]);
    let html = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n\
         <p><img src=\"cid:{cid}\" alt=\"{}\" width=\"{}\" height=\"{}\"></p>\n\
         <pre>{}</pre>\n</body></html>\n",
        html_escape(&picture.alt),
        picture.width,
        picture.height,
        html_escape(body)
    );
    let boundary = |kind: &str| format!("=_{kind}.{}", &digest[..32]);
    let related = MimePart::new(
        ContentType::new("multipart/related")
            .attribute("type", "text/html")
            .attribute("boundary", boundary("related")),
        vec![
            MimePart::new("text/html", html),
            MimePart::new("image/png", picture.png.clone())
                .inline()
                .cid(cid),
        ],
    );
    MimePart::new(
        ContentType::new("multipart/alternative").attribute("boundary", boundary("alternative")),
        vec![MimePart::new("text/plain", body.to_owned()), related],
    )
}

/// Text made safe in HTML.
fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}
