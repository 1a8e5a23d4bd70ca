//! Mail habits that broke receipt: a block pasted from a message's raw source (quoted-printable
//! left in it), an OpenPGP clear signature (its dash-escaping), and a reply that trimmed the
//! quoted old block after its first line; and what `mail` writes (plain ASCII, whatever the
//! names). Messages inside messages are in mail_nesting.rs.

use crate::mail::{opera_upto, receive, run};

/// The message `mail` writes for record `last` of the Opera Game, from a copy cut there.
pub(crate) fn message(dir: &std::path::Path, last: usize) -> String {
    message_since(dir, last, last)
}

/// The message `mail` writes for records `since` to `last` of the Opera Game.
fn message_since(dir: &std::path::Path, since: usize, last: usize) -> String {
    std::fs::write(dir.join("sent.yaml"), opera_upto(last)).expect("write");
    let since = since.to_string();
    let (code, out, err) = run(
        dir,
        &[
            "mail",
            "sent.yaml",
            "--from",
            "morphy@example.org",
            "--since",
            &since,
        ],
    );
    assert_eq!(code, 0, "{err}");
    out
}

/// The block of a message, from its BEGIN line through its END line.
fn block(message: &str) -> &str {
    let start = message.find("-----BEGIN").expect("a block");
    let end = message
        .find("-----END CORRESPOND RECORDS-----")
        .expect("an end")
        + 32;
    &message[start..end]
}

/// Quoted-printable, as a raw message's source shows it: `=` written `=3D`, lines longer than
/// 76 characters broken with a soft break.
fn quoted_printable(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let encoded = line.replace('=', "=3D");
        let mut rest = encoded.as_str();
        while rest.len() > 75 {
            out.push_str(&rest[..75]);
            out.push_str("=\n");
            rest = &rest[75..];
        }
        out.push_str(rest);
        out.push('\n');
    }
    out
}

#[test]
fn a_block_pasted_from_raw_quoted_printable_is_received() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Records whose block ends with base64 padding, which quoted-printable writes `=3D`.
    let last = (2..30)
        .find(|&n| block(&message_since(dir.path(), 1, n)).contains('='))
        .expect("a padded block");
    let sent = message_since(dir.path(), 1, last);
    std::fs::write(dir.path().join("g.yaml"), opera_upto(0)).expect("write");
    let pasted = format!(
        "From: duke@example.org\nSubject: my move\nContent-Type: text/plain\n\n\
         Here it is:\n{}\nDuke\n",
        quoted_printable(block(&sent))
    );
    assert!(pasted.contains("=3D"), "the paste holds quoted-printable");
    std::fs::write(dir.path().join("pasted.eml"), pasted).expect("write");
    let (code, out, err) = receive(dir.path(), &["g.yaml", "pasted.eml"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("record 1: "), "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("g.yaml")).expect("read"),
        opera_upto(last)
    );
}

#[test]
fn an_openpgp_clear_signature_is_read_through_its_dash_escaping() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sent = message(dir.path(), 16);
    std::fs::write(dir.path().join("g.yaml"), opera_upto(15)).expect("write");
    // What gpg --clearsign does to the text: each line starting with `-` gets `- ` before it.
    let escaped: String = block(&sent)
        .lines()
        .map(|l| {
            if l.starts_with('-') {
                format!("- {l}\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let signed = format!(
        "From: duke@example.org\nSubject: signed\n\n-----BEGIN PGP SIGNED MESSAGE-----\n\
         Hash: SHA256\n\n{escaped}-----BEGIN PGP SIGNATURE-----\n\niQEz\n\
         -----END PGP SIGNATURE-----\n"
    );
    std::fs::write(dir.path().join("signed.eml"), signed).expect("write");
    let (code, out, err) = receive(dir.path(), &["g.yaml", "signed.eml"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("record 16: Paul Morphy (white) Nc3\n"),
        "{out}"
    );
}

#[test]
fn a_damaged_quote_is_passed_over_in_html_replies_and_beside_other_armour() {
    let dir = tempfile::tempdir().expect("temp dir");
    let old = message(dir.path(), 15);
    let sent = message(dir.path(), 16);
    let new = block(&sent);
    // The old block, trimmed after its BEGIN line, as a reply quotes it.
    let trimmed: Vec<String> = old
        .lines()
        .take_while(|l| !l.starts_with("Game:"))
        .map(str::to_owned)
        .collect();
    let quoted: String = trimmed.iter().map(|l| format!("> {l}\n")).collect();
    let html_new = new.lines().collect::<Vec<_>>().join("<br>\n");
    let html_quoted = trimmed.join("<br>\n");
    // Gmail: text and HTML twins, the HTML quoting in a <blockquote>.
    let gmail = format!(
        "From: morphy@example.org\nSubject: Re: my move\nMIME-Version: 1.0\n\
         Content-Type: multipart/alternative; boundary=\"alt\"\n\n--alt\n\
         Content-Type: text/plain; charset=UTF-8\n\n{new}\nOn Sunday you wrote:\n{quoted}\n\
         --alt\nContent-Type: text/html; charset=UTF-8\n\n<div dir=\"ltr\">{html_new}</div>\
         <div class=\"gmail_quote\"><div>On Sunday you wrote:</div><blockquote \
         class=\"gmail_quote\" style=\"margin:0 0 0 .8ex\"><div>{html_quoted}</div>\
         </blockquote></div>\n--alt--\n"
    );
    // An SSH signature (its own -----BEGIN) before the quote.
    let sshsig = format!(
        "From: morphy@example.org\nSubject: Re: my move\n\n{new}\n-----BEGIN SSH SIGNATURE-----\n\
         U1NIU0lHAAAAAQ==\n-----END SSH SIGNATURE-----\n\nOn Sunday you wrote:\n{quoted}"
    );
    // An OpenPGP clear-signed reply: dash-escaped, and ending in a signature block.
    let escaped: String = format!("{new}\nOn Sunday you wrote:\n{quoted}")
        .lines()
        .map(|l| {
            if l.starts_with('-') {
                format!("- {l}\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let clearsigned = format!(
        "From: morphy@example.org\nSubject: Re: my move\n\n-----BEGIN PGP SIGNED MESSAGE-----\n\
         Hash: SHA256\n\n{escaped}-----BEGIN PGP SIGNATURE-----\n\niQEz\n\
         -----END PGP SIGNATURE-----\n"
    );
    for (name, reply) in [
        ("gmail", gmail),
        ("sshsig", sshsig),
        ("clearsigned", clearsigned),
    ] {
        let file = format!("{name}.yaml");
        let eml = format!("{name}.eml");
        std::fs::write(dir.path().join(&file), opera_upto(15)).expect("write");
        std::fs::write(dir.path().join(&eml), reply).expect("write");
        let (code, out, err) = receive(dir.path(), &[&file, &eml]);
        assert_eq!((code, err.as_str()), (0, ""), "{name}");
        assert_eq!(
            out.lines().take(2).collect::<Vec<_>>(),
            [
                "record 16: Paul Morphy (white) Nc3".to_owned(),
                format!(
                    "passed over {eml}, block 2: a record block is damaged: it has no end line \
                     (was it cut short?)"
                ),
            ],
            "{name}"
        );
    }
}

#[test]
fn a_reply_that_trimmed_the_quoted_old_block_brings_its_new_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let old = message(dir.path(), 15);
    let new = message(dir.path(), 16);
    std::fs::write(dir.path().join("g.yaml"), opera_upto(15)).expect("write");
    // The new block, then the old message quoted, trimmed right after its BEGIN line.
    let quoted: String = old
        .lines()
        .take_while(|l| !l.starts_with("Game:"))
        .map(|l| format!("> {l}\n"))
        .collect();
    let reply = format!(
        "From: morphy@example.org\nSubject: Re: my move\n\n{}\n\nOn Sunday you wrote:\n{quoted}\
         > [...]\n",
        block(&new)
    );
    std::fs::write(dir.path().join("reply.eml"), reply).expect("write");
    let (code, out, err) = receive(dir.path(), &["g.yaml", "reply.eml"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().take(2).collect::<Vec<_>>(),
        [
            "record 16: Paul Morphy (white) Nc3",
            "passed over reply.eml, block 2: a record block is damaged: it has no end line (was \
             it cut short?)",
        ]
    );
    // Unquoted, the same damage is no trimmed quote: the message is refused whole.
    let unquoted = std::fs::read_to_string(dir.path().join("reply.eml"))
        .expect("read")
        .replace("> -----BEGIN", "-----BEGIN");
    std::fs::write(dir.path().join("g2.yaml"), opera_upto(15)).expect("write");
    std::fs::write(dir.path().join("bad.eml"), unquoted).expect("write");
    let (code, _, err) = receive(dir.path(), &["g2.yaml", "bad.eml"]);
    assert_eq!(code, 1, "{err}");
}

/// Runs a signing command in `dir` with a test key and a pinned time.
fn sign(dir: &std::path::Path, who: &str, args: &[&str], time: &str) {
    let key = crate::util::keys_dir().join(who);
    let out = crate::util::correspond()
        .current_dir(dir)
        .env("CORRESPOND_TIME", time)
        .args(args)
        .arg("--key")
        .arg(key)
        .arg("--no-commit")
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A Campaign game in `dir`/g.yaml, created by alice's key under `name` (heads) against bob's
/// under `opponent`, accepted and its toss revealed, on 1 June 2026.
fn tossed(dir: &std::path::Path, name: &str, opponent: &str) {
    let bob = crate::util::keys_dir().join("bob.pub");
    let new = [
        "new",
        "campaign",
        "g.yaml",
        "--name",
        name,
        "--side",
        "heads",
        "--opponent",
        opponent,
        "--opponent-key",
        bob.to_str().expect("UTF-8"),
    ];
    sign(dir, "alice", &new, "2026-06-01T10:00:00Z");
    sign(dir, "bob", &["accept", "g.yaml"], "2026-06-01T10:01:00Z");
    sign(dir, "alice", &["reveal", "g.yaml"], "2026-06-01T10:02:00Z");
}

fn mail_at(dir: &std::path::Path, time: &str, extra: &[&str]) -> String {
    let out = crate::util::correspond()
        .current_dir(dir)
        .env("CORRESPOND_TIME", time)
        .args(["mail", "g.yaml", "--from", "a@example.org"])
        .args(extra)
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn every_message_is_plain_ascii_names_its_actions_and_keeps_the_games_thread() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A Campaign game (its board has a turn arrow) with a name outside ASCII.
    tossed(dir.path(), "Zoë", "bob");
    let status =
        crate::util::stdout_of(&["status", dir.path().join("g.yaml").to_str().expect("UTF-8")]);
    // Whoever moves first: one move, then an offer, both by that player.
    let (mover, first) = if status.contains("bob (tails) won the toss") {
        sign(
            dir.path(),
            "bob",
            &["play", "g.yaml", "c6c5"],
            "2026-06-01T10:03:00Z",
        );
        ("bob", "tails plays c6c5")
    } else {
        sign(
            dir.path(),
            "alice",
            &["play", "g.yaml", "c2c3"],
            "2026-06-01T10:03:00Z",
        );
        ("alice", "heads plays c2c3")
    };
    sign(
        dir.path(),
        mover,
        &["offer-runoff", "g.yaml"],
        "2026-06-01T10:04:00Z",
    );
    let message = mail_at(dir.path(), "2026-06-01T10:05:00Z", &[]);
    assert!(message.is_ascii(), "{message}");
    assert!(
        message.contains("Content-Transfer-Encoding: 7bit\n"),
        "{message}"
    );
    assert!(message.lines().all(|l| l.len() <= 78), "{message}");
    let body = crate::mail::text_part(&message);
    let heads = if mover == "alice" { "heads" } else { "tails" };
    assert_eq!(
        body.lines().next(),
        Some(format!("campaign: {first} and {heads} offers a run-off (records 3-4)").as_str())
    );
    assert!(body.contains("the creator (heads) v bob (tails)"), "{body}");
    assert!(message.contains("<- to move"), "{message}");
    // The name as it is, in the encoded subject.
    assert!(
        message.contains("\nSubject: =?utf-8?Q?[correspond]_campaign_")
            && message.contains("_Zo=C3=AB_v_bob?="),
        "{message}"
    );
    // A resend: a new Message-ID (no client drops it as a copy), the same subject and thread.
    let again = mail_at(dir.path(), "2026-06-02T08:00:00Z", &[]);
    let header = |m: &str, name: &str| {
        m.lines()
            .find(|l| l.starts_with(name))
            .map(str::to_owned)
            .expect("the header")
    };
    assert_ne!(
        header(&message, "Message-ID:"),
        header(&again, "Message-ID:")
    );
    for name in ["Subject:", "References:", "In-Reply-To:"] {
        assert_eq!(header(&message, name), header(&again, name));
    }
    // The challenge, mailed too, is in the same thread.
    let challenge = mail_at(dir.path(), "2026-06-01T10:00:30Z", &["--since", "0"]);
    assert_eq!(header(&challenge, "Subject:"), header(&message, "Subject:"));
}

#[test]
fn names_outside_ascii_in_what_happened_are_said_as_the_players_places() {
    // The events of a replay are worded with the names as they are ("Владимир (heads)
    // resigned"); one name is inside the other, and the lines are long enough to be wrapped.
    let dir = tempfile::tempdir().expect("temp dir");
    tossed(dir.path(), "Владимир", "Влад");
    sign(
        dir.path(),
        "alice",
        &["resign", "g.yaml"],
        "2026-06-01T10:03:00Z",
    );
    let message = mail_at(dir.path(), "2026-06-01T10:05:00Z", &[]);
    assert!(message.is_ascii(), "{message}");
    let body = crate::mail::text_part(&message);
    let told: Vec<&str> = body.lines().take(8).collect();
    assert_eq!(
        told,
        [
            "campaign: heads reveals the coin flip and heads resigns (records 2-3)",
            "",
            "the creator (heads) v the opponent (tails)",
            "",
            "record 2: the creator (heads) the coin shows heads: the creator (heads) wins",
            "    the toss",
            "record 3: the creator (heads) resigns; game over: tails wins: the creator",
            "    (heads) resigned",
        ],
        "{body}"
    );
    assert!(
        body.contains("\nresult: tails wins: the creator (heads) resigned\n"),
        "{body}"
    );
}

#[test]
fn a_maildir_folder_is_read_as_a_mailbox() {
    let dir = tempfile::tempdir().expect("temp dir");
    let maildir = dir.path().join("Mail");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("mkdir");
    }
    // Records 15 and 16, in two messages, the later one first; and a message of no game.
    std::fs::write(
        maildir.join("new/1700000002.b.host"),
        message(dir.path(), 16),
    )
    .expect("write");
    std::fs::write(
        maildir.join("cur/1700000001.a.host:2,S"),
        message(dir.path(), 15),
    )
    .expect("write");
    std::fs::write(
        maildir.join("cur/1700000000.z.host:2,S"),
        "Subject: hi\n\nhello\n",
    )
    .expect("write");
    std::fs::write(dir.path().join("g.yaml"), opera_upto(14)).expect("write");
    let (code, out, err) = receive(dir.path(), &["g.yaml", "--maildir", "Mail"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("record 15: Duke Karl Count Isouard (black) Qe7\nrecord 16: "),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("g.yaml")).expect("read"),
        opera_upto(16)
    );
    // Not a Maildir: said so.
    let (code, _, err) = receive(dir.path(), &["g.yaml", "--maildir", "g.yaml"]);
    assert_eq!(code, 2);
    assert!(err.contains("is g.yaml a Maildir folder?"), "{err}");
}

#[test]
fn a_file_name_outside_ascii_or_too_long_is_not_put_in_the_body() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("g.yaml"), opera_upto(15)).expect("write");
    let long = format!("{}.yaml", "x".repeat(120));
    for name in ["partie-été.yaml", long.as_str()] {
        std::fs::copy(dir.path().join("g.yaml"), dir.path().join(name)).expect("copy");
        let out = crate::util::correspond()
            .current_dir(dir.path())
            .env("CORRESPOND_TIME", "2026-06-01T10:05:00Z")
            .args(["mail", name, "--from", "a@example.org"])
            .output()
            .expect("run");
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).as_ref()
            ),
            (Some(0), "")
        );
        let message = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(message.is_ascii(), "{message}");
        assert!(
            message.contains("Content-Transfer-Encoding: 7bit\n"),
            "{message}"
        );
        assert!(message.lines().all(|l| l.len() <= 78), "{message}");
        assert!(
            message.contains("\n    correspond receive GAME.yaml MESSAGE\n")
                && message.contains("\nThe signed records of GAME.yaml:\n"),
            "{message}"
        );
    }
}

#[test]
fn two_messages_sent_within_a_second_have_different_ids() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("g.yaml"), opera_upto(15)).expect("write");
    let id = || {
        let out = crate::util::correspond()
            .current_dir(dir.path())
            .env_remove("CORRESPOND_TIME")
            .args(["mail", "g.yaml", "--from", "a@example.org"])
            .output()
            .expect("run");
        let message = String::from_utf8(out.stdout).expect("UTF-8");
        message
            .lines()
            .find_map(|l| l.strip_prefix("Message-ID: "))
            .map(str::to_owned)
            .expect("a Message-ID")
    };
    let (first, second) = (id(), id());
    assert_ne!(first, second);
    // Pinned, the time makes the message reproducible, its id too.
    let pinned = mail_at(dir.path(), "2026-06-01T10:05:00Z", &[]);
    assert_eq!(pinned, mail_at(dir.path(), "2026-06-01T10:05:00Z", &[]));
}

/// What Python's email library (the parser of many mail tools) makes of a message `mail`
/// wrote: its parts, that the HTML's image is the one attached by its Content-ID, the alt text,
/// and the image's first bytes.
const PYTHON_READS: &str = r#"
import email, email.policy, json, re, sys
m = email.message_from_binary_file(sys.stdin.buffer, policy=email.policy.default)
parts = [p.get_content_type() for p in m.walk()]
html = m.get_body(preferencelist=("html",)).get_content()
text = m.get_body(preferencelist=("plain",)).get_content()
image = [p for p in m.walk() if p.get_content_type() == "image/png"][0]
cid = image["Content-ID"].strip("<>")
src = re.search(r'<img src="cid:([^"]+)" alt="([^"]*)"', html)
print(json.dumps({"parts": parts, "cid": src.group(1) == cid, "alt": src.group(2),
    "png": image.get_content()[:8].hex(), "text_has_block": "BEGIN CORRESPOND RECORDS" in text,
    "disposition": image.get_content_disposition()}))
"#;

#[test]
fn a_mail_client_finds_the_board_where_the_html_shows_it() {
    if !crate::util::tool_present(
        "python3",
        &["--version"],
        "the mail client test needs Python 3",
    ) {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let sent = message(dir.path(), 16);
    let out = std::process::Command::new("python3")
        .args(["-c", PYTHON_READS])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            std::io::Write::write_all(child.stdin.as_mut().expect("stdin"), sent.as_bytes())?;
            child.wait_with_output()
        })
        .expect("python3 runs");
    assert!(out.status.success());
    let read: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        read,
        serde_json::json!({
            "parts": ["multipart/alternative", "text/plain", "multipart/related", "text/html",
                "image/png"],
            "cid": true,
            "alt": "chess: rn2kb1r/ppp1qppp/5n2/4p3/2B1P3/1QN5/PPP2PPP/R1B1K2R b KQkq - 5 8, after Nc3",
            "png": "89504e470d0a1a0a",
            "text_has_block": true,
            "disposition": "inline",
        })
    );
}
