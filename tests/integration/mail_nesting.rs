//! Messages inside messages: forwarded, or in digests. Nested deeper than a stack could walk,
//! or sent encoded (which hides how deep they nest), a message is refused with the reason and
//! a mailbox goes on with the rest; side by side, or beside words that only look like a
//! message's type, they are read.

use crate::mail::{opera_upto, receive};
use crate::mail_clients::message;

/// `receive` in `dir` into a copy of the Opera Game cut at record 15 (g.yaml), from a mailbox
/// (box.mbox) holding the message `first`, then the message of record 16: its exit code, output
/// and errors.
fn received_after(dir: &std::path::Path, first: &str) -> (i32, String, String) {
    let sent = message(dir, 16);
    std::fs::write(dir.join("g.yaml"), opera_upto(15)).expect("write");
    let mbox = format!(
        "From m Sun Mar  1 12:00:00 2026\n{first}\nFrom morphy Sun Mar  1 12:01:00 2026\n\
         {sent}\n"
    );
    std::fs::write(dir.join("box.mbox"), mbox).expect("write");
    receive(dir, &["g.yaml", "--mbox", "box.mbox"])
}

#[test]
fn a_message_nested_too_deep_is_refused_and_the_mailbox_goes_on() {
    // Forwarded inside each other, as digests inside digests (whose parts are messages without
    // saying so), and with the type's header folded: each nests deeper than a stack could walk.
    let forwarded = "Content-Type: message/rfc822\n\n".repeat(47_000);
    let digests: String = (0..50_000)
        .map(|k| format!("Content-Type: multipart/digest; boundary=\"b{k}\"\n\n--b{k}\n\n"))
        .collect();
    let folded = "Content-Type: message/\n rfc822\n\n".repeat(47_000);
    // The parser reads a type with a comment inside as the type.
    let commented = "Content-Type: message()/rfc822\n\n".repeat(47_000);
    for (inner, count) in [
        (forwarded, 47_000),
        (digests, 50_000),
        (folded, 47_000),
        (commented, 47_000),
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        let deep = format!(
            "From: m@example.org\nSubject: deep\nMIME-Version: 1.0\n{inner}Subject: x\n\
             Content-Type: text/plain\n\nhello\n"
        );
        let (code, out, err) = received_after(dir.path(), &deep);
        assert_eq!(code, 0, "{err}");
        let why = format!(
            "a record block is damaged: the message holds more than 1000 messages inside it, \
             forwarded or in digests ({count}), which no game's mail does"
        );
        assert_eq!(
            out.lines().take(2).collect::<Vec<_>>(),
            [
                "record 16: Paul Morphy (white) Nc3".to_owned(),
                format!("passed over box.mbox, message 1 (deep): {why}"),
            ]
        );
        // Given alone, it is refused with the same reason, and nothing is written.
        std::fs::write(dir.path().join("deep.eml"), &deep).expect("write");
        std::fs::write(dir.path().join("h.yaml"), opera_upto(15)).expect("write");
        let (code, out, err) = receive(dir.path(), &["h.yaml", "deep.eml"]);
        assert_eq!((code, out.as_str()), (1, ""));
        assert_eq!(
            err,
            format!(
                "error: deep.eml: {why}\nhint: ask for the message again, or for the game file \
                 itself as an attachment\nhint: nothing was written to the game file\n"
            )
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("h.yaml")).expect("read"),
            opera_upto(15)
        );
    }
}

#[test]
fn a_message_sent_encoded_inside_a_message_is_refused_and_the_mailbox_goes_on() {
    // One encoded level hides from a count on the raw bytes how deep the messages decoded
    // from it nest: forwarded 47,000 deep inside one base64 part, and inside one
    // quoted-printable part that writes `message` in escapes.
    let nest = "Content-Type: message/rfc822\n\n".repeat(47_000)
        + "Subject: x\nContent-Type: text/plain\n\nhello\n";
    let base64 = {
        use base64ct::{Base64, Encoding};
        let text = Base64::encode_string(nest.as_bytes());
        let lines: Vec<&str> = text
            .as_bytes()
            .chunks(76)
            .map(|l| std::str::from_utf8(l).expect("base64"))
            .collect();
        lines.join("\n")
    };
    let quoted = nest.replace("message", "=6D=65=73=73=61=67=65");
    // The parser decodes an encoded word in the header: this one says `base64`.
    let word = "=?us-ascii?B?YmFzZTY0?=";
    for (encoding, body) in [
        ("base64", base64.clone()),
        ("quoted-printable", quoted),
        (word, base64),
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        let deep = format!(
            "From: m@example.org\nSubject: deep\nMIME-Version: 1.0\n\
             Content-Type: multipart/mixed; boundary=\"b\"\n\n--b\n\
             Content-Type: message/rfc822\nContent-Transfer-Encoding: {encoding}\n\n{body}\n--b--\n"
        );
        let (code, out, err) = received_after(dir.path(), &deep);
        assert_eq!(code, 0, "{encoding}: {err}");
        let why = "a record block is damaged: a message inside it is sent encoded (base64 or \
                   quoted-printable), which hides how deep the messages inside it nest, and which \
                   no game's mail does; save that message by itself and receive it";
        assert_eq!(
            out.lines().take(2).collect::<Vec<_>>(),
            [
                "record 16: Paul Morphy (white) Nc3".to_owned(),
                format!("passed over box.mbox, message 1 (deep): {why}"),
            ],
            "{encoding}"
        );
    }
}

#[test]
fn list_mail_that_names_message_and_digest_and_is_quoted_printable_is_read() {
    // A list's post: its archive's address holds `/message/`, its subject says `digest`, and
    // its text is quoted-printable. A forwarded message beside it, sent as it should be
    // (7bit), holds the block.
    let dir = tempfile::tempdir().expect("temp dir");
    let sent = message(dir.path(), 16);
    std::fs::write(dir.path().join("g.yaml"), opera_upto(15)).expect("write");
    let post = format!(
        "From: list@example.org\nSubject: [chess] weekly digest\nMIME-Version: 1.0\n\
         Archived-At: <https://lists.example.org/archives/list/chess/message/ABC/>\n\
         Content-Type: multipart/mixed; boundary=\"b\"\n\
         Content-Transfer-Encoding: quoted-printable\n\n--b\n\
         Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n\
         The forwarded message=E2=80=99s move is below.\n--b\n\
         Content-Type: message/rfc822\nContent-Transfer-Encoding: 7bit\n\n{sent}\n--b--\n"
    );
    std::fs::write(dir.path().join("post.eml"), post).expect("write");
    let (code, out, err) = receive(dir.path(), &["g.yaml", "post.eml"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(
        out.starts_with("record 16: Paul Morphy (white) Nc3\n"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("g.yaml")).expect("read"),
        opera_upto(16)
    );
}

#[test]
fn many_messages_forwarded_side_by_side_are_read() {
    // Sixty-five forwarded messages attached to one: many, but nothing nests deep.
    let dir = tempfile::tempdir().expect("temp dir");
    let sent = message(dir.path(), 16);
    std::fs::write(dir.path().join("g.yaml"), opera_upto(15)).expect("write");
    let mut parts = String::new();
    for k in 0..64 {
        parts +=
            &format!("--mix\nContent-Type: message/rfc822\n\nSubject: note {k}\n\nnothing here\n");
    }
    parts += &format!("--mix\nContent-Type: message/rfc822\n\n{sent}\n--mix--\n");
    let many = format!(
        "From: m@example.org\nSubject: many\nMIME-Version: 1.0\n\
         Content-Type: multipart/mixed; boundary=\"mix\"\n\n{parts}"
    );
    std::fs::write(dir.path().join("many.eml"), many).expect("write");
    let (code, out, err) = receive(dir.path(), &["g.yaml", "many.eml"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.starts_with("record 16: Paul Morphy (white) Nc3\n"),
        "{out}"
    );
}

/// A challenge forwarded as an attachment sent in base64 (which RFC 2046 forbids, and some
/// clients do) is refused with the reason, as README.md decides; given with the challenge
/// itself, it does not sink it: the game starts, and the exit code says one was refused.
#[test]
fn a_forward_sent_encoded_is_refused_without_sinking_the_message_beside_it() {
    use base64ct::{Base64, Encoding};
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let challenge = std::fs::read(crate::mail::fixture("challenge.eml")).expect("a challenge");
    std::fs::write(dir.join("c.eml"), &challenge).expect("write");
    let encoded = Base64::encode_string(&challenge);
    let lines: Vec<&str> = encoded
        .as_bytes()
        .chunks(76)
        .map(|l| std::str::from_utf8(l).expect("base64"))
        .collect();
    let forward = format!(
        "From: bob@example.org\nSubject: Fwd: challenge\nMIME-Version: 1.0\n\
         Content-Type: multipart/mixed; boundary=\"b\"\n\n--b\nContent-Type: text/plain\n\n\
         See attached.\n--b\nContent-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n\
         {}\n--b--\n",
        lines.join("\n")
    );
    std::fs::write(dir.join("fwd.eml"), forward).expect("write");
    let (code, out, err) = receive(dir, &["--new", "g.yaml", "c.eml", "fwd.eml"]);
    assert_eq!(
        (code, out, err),
        (
            1,
            "record 0: Paul Morphy (white) game proposed\n\
             refused fwd.eml: a record block is damaged: a message inside it is sent encoded \
             (base64 or quoted-printable), which hides how deep the messages inside it nest, \
             and which no game's mail does; save that message by itself and receive it\n\
             \x20 ask for the message again, or for the game file itself as an attachment\n\
             players: Paul Morphy (white) SHA256:emKI0eGvaPwYizUW9RXDn4NMH5hnUkJacDU90clW98w, \
             Duke Karl Count Isouard (black) SHA256:7lbdfvoKgRes1tFovb9RRc5LHhXiprHwlUv0ZiagV8U\n\
             now: waiting for Duke Karl Count Isouard (black) to accept the game\n\
             next: Duke Karl Count Isouard (black): correspond accept g.yaml\n"
                .to_owned(),
            String::new()
        )
    );
    assert!(dir.join("g.yaml").exists(), "the game started from c.eml");
}
