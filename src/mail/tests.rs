//! Blocks written, mangled the ways mail mangles text, and found again; packets merged onto
//! copies cut from the example games; what receiving refuses is in `tests/refusals.rs`.
//! Messages made by another mail library, and games played by mail with real keys, are in the
//! integration tests (`tests/integration/mail.rs`).

use super::*;

fn game(name: &str) -> GameFile {
    let bytes = std::fs::read(format!("{}/games/{name}", env!("CARGO_MANIFEST_DIR")))
        .expect("an example game");
    GameFile::parse(&bytes).expect("the example games are well-formed")
}

fn opera() -> GameFile {
    game("chess/morphy-opera-game-1858.yaml")
}

/// The file cut after document `last`.
fn upto(file: &GameFile, last: usize) -> GameFile {
    let end = file.span(last).end;
    GameFile::parse(&file.text().as_bytes()[..end]).expect("a prefix is well-formed")
}

/// The block carrying documents `first..=last` of `file`.
fn block(file: &GameFile, first: usize, last: usize) -> String {
    armor(&upto(file, last), first)
}

fn packet(file: &GameFile, first: usize, last: usize) -> Packet {
    let mut found = find(&block(file, first, last));
    assert_eq!(found.len(), 1);
    found.pop().expect("one").expect("a good block")
}

fn found(origin: &str, packet: Packet) -> Found {
    Found {
        origin: origin.to_owned(),
        packet: Ok(packet),
        in_mailbox: false,
        message: 0,
    }
}

#[test]
fn a_block_carries_exact_bytes_and_says_which() {
    let file = opera();
    let text = block(&file, 3, 5);
    assert!(text.starts_with(&format!("{BEGIN}\nGame: {}\n", file.game_id())));
    assert!(text.contains("\nDocuments: 3-5\n"));
    assert!(text.ends_with(&format!("\n{END}\n")));
    assert!(text.lines().all(|l| l.len() <= 74), "{text}");
    let p = packet(&file, 3, 5);
    assert_eq!((p.game, p.first, p.last), (file.game_id(), 3, 5));
    assert_eq!(
        p.bytes,
        file.text().as_bytes()[file.span(3).start..file.span(5).end]
    );
    // From document 0, the block is the whole file, comment lines included.
    assert_eq!(packet(&file, 0, 2).bytes, upto(&file, 2).text().as_bytes());
}

#[test]
fn quoting_indentation_line_endings_and_rewrapping_do_not_matter() {
    let file = opera();
    let text = block(&file, 1, 4);
    let expected = packet(&file, 1, 4);
    let quoted: String = text.lines().map(|l| format!("> {l}\n")).collect();
    let twice: String = quoted.lines().map(|l| format!(">{l}\n")).collect();
    let indented: String = text.lines().map(|l| format!("    {l}\r\n")).collect();
    // A client that re-wraps at 40 columns puts the checksum on a line of its own.
    let wrapped = text
        .replace("Checksum: ", "Checksum:\n")
        .replace("Game: ", "Game:\n");
    // HTML turned into text can run every line together.
    let one_line = text.replace('\n', " ");
    let in_prose = format!("Dear Bob,\n\nmy move.\n\n{text}\n-- \nAlice\n");
    // HTML whose text glues the markers to the words around them.
    let glued = format!("Here:{}Regards", text.trim_end());
    for mangled in [
        &quoted, &twice, &indented, &wrapped, &one_line, &in_prose, &glued,
    ] {
        assert_eq!(find(mangled), vec![Ok(expected.clone())], "{mangled}");
    }
}

#[test]
fn several_blocks_are_found_in_order() {
    let file = opera();
    let text = format!(
        "{}\nand\n{}",
        block(&file, 5, 5),
        block(&file, 1, 2).replace('\n', "\n> ")
    );
    assert_eq!(
        find(&text),
        vec![Ok(packet(&file, 5, 5)), Ok(packet(&file, 1, 2))]
    );
    assert_eq!(find("no block here"), vec![]);
}

#[test]
fn a_damaged_block_is_reported_with_its_game() {
    let file = opera();
    let text = block(&file, 1, 6);
    let game = Some(file.game_id());
    let why = |text: &str| match find(text).as_slice() {
        [Err(MailError::Damaged { game: g, why, .. })] => {
            assert_eq!(*g, game, "{text}");
            why.clone()
        }
        other => panic!("not one damaged block: {other:?}"),
    };
    let lines: Vec<&str> = text.lines().collect();
    // A base64 line lost: the checksum catches it, or the base64 does not decode.
    let lost = [&lines[..5], &lines[6..]].concat().join("\n");
    assert!(why(&lost).contains("line lost or changed"));
    // A character changed.
    let changed = text.replacen(
        "Documents: 1-6\nChecksum: ",
        "Documents: 1-6\nChecksum: 0",
        1,
    );
    assert!(why(&changed).contains("Checksum"));
    let flipped = text.replacen(&lines[5][..8], "AAAAAAAA", 1);
    assert!(why(&flipped).contains("checksum"));
    assert!(why(&text.replace("Documents: 1-6", "Documents: 6-1")).contains("Documents"));
    assert!(why(&text.replace(END, "")).contains("no end line"));
    // A block cut short by the next one is reported, and the next one still read.
    let cut = format!("{}\n{}", lines[..4].join("\n"), block(&file, 1, 1));
    assert_eq!(find(&cut).len(), 2);
    assert_eq!(find(&cut)[1], Ok(packet(&file, 1, 1)));
}

#[test]
fn merging_knows_what_is_new_old_early_forked_or_foreign() {
    let file = opera();
    let local = upto(&file, 4);
    assert_eq!(merge(&local, &packet(&file, 2, 4)), Ok(Merge::Known));
    assert_eq!(merge(&local, &packet(&file, 0, 1)), Ok(Merge::Known));
    let tail = upto(&file, 6).text().as_bytes()[local.text().len()..].to_vec();
    assert_eq!(
        merge(&local, &packet(&file, 5, 6)),
        Ok(Merge::Grows(tail.clone()))
    );
    // Overlapping what the file holds is fine when the overlap agrees.
    assert_eq!(
        merge(&local, &packet(&file, 3, 6)),
        Ok(Merge::Grows(tail.clone()))
    );
    assert_eq!(merge(&local, &packet(&file, 0, 6)), Ok(Merge::Grows(tail)));
    assert_eq!(
        merge(&local, &packet(&file, 6, 7)),
        Err(MailError::Gap { first: 6, last: 4 })
    );
    let other = game("campaign/fact-check.yaml");
    assert_eq!(
        merge(&local, &packet(&other, 1, 1)),
        Err(MailError::WrongGame {
            expected: file.game_id(),
            found: other.game_id()
        })
    );
    let mut changed = packet(&file, 3, 5);
    let at = changed.bytes.len() / 2;
    changed.bytes[at] ^= 1;
    assert_eq!(merge(&local, &changed), Ok(Merge::Differs(4)));
    // A block inside the file whose `Documents:` line does not match what it carries.
    let mut lying = packet(&file, 2, 3);
    lying.last = 2;
    assert!(matches!(
        merge(&local, &lying),
        Err(MailError::Damaged { .. })
    ));
}

#[test]
fn receiving_in_any_order_and_with_duplicates_ends_as_in_order() {
    let file = opera();
    let last = file.documents() - 1;
    let blocks: Vec<Packet> = (1..=last).map(|n| packet(&file, n, n)).collect();
    let local = upto(&file, 0);
    let in_order: Vec<Found> = blocks.iter().map(|p| found("m", p.clone())).collect();
    let done = receive(Some(&local), &in_order).expect("in order");
    assert_eq!(done.file.text().as_bytes(), file.text().as_bytes());
    assert_eq!((done.added, done.known), (1..last + 1, 0));
    let mut shuffled: Vec<Found> = in_order.iter().rev().cloned().collect();
    shuffled.extend(in_order.iter().step_by(3).cloned());
    let again = receive(Some(&local), &shuffled).expect("reversed, some twice");
    assert_eq!(again.file.text().as_bytes(), file.text().as_bytes());
    assert_eq!(again.known, last.div_ceil(3));
    // Received again: nothing new.
    let twice = receive(Some(&file), &in_order).expect("all known");
    assert_eq!((twice.added, twice.known), (last + 1..last + 1, last));
}

#[test]
fn a_challenge_starts_a_file() {
    let file = opera();
    let blocks = [
        found("b", packet(&file, 1, 3)),
        found("a", packet(&file, 0, 0)),
    ];
    let done = receive(None, &blocks).expect("a challenge and what followed");
    assert_eq!(
        done.file.text().as_bytes(),
        upto(&file, 3).text().as_bytes()
    );
    assert_eq!(done.added, 0..4);
    let no_challenge = receive(None, &blocks[..1]).expect_err("no document 0");
    assert_eq!(*no_challenge.error, MailError::NoChallenge);
    let other = game("campaign/fact-check.yaml");
    let two = [
        found("a", packet(&file, 0, 0)),
        found("c", packet(&other, 0, 0)),
    ];
    assert!(matches!(
        *receive(None, &two).expect_err("two games").error,
        MailError::SeveralGames(games) if games.len() == 2
    ));
}

#[test]
fn a_composed_message_is_deterministic_and_reads_back() {
    let file = opera();
    let envelope = Envelope {
        from: Mailbox {
            name: Some("alice".into()),
            address: "alice@example.org".into(),
        },
        to: vec![Mailbox {
            name: Some("bob".into()),
            address: "bob@example.org".into(),
        }],
        subject: "[correspond] chess: white plays e2e4 (record 1)".into(),
        comments: Some("chess: Zoë plays e4 (record 1)".into()),
        date: 1_764_496_800,
        message_id: "abc.1-1@correspond.invalid".into(),
        references: vec!["game@correspond.invalid".into()],
    };
    let body = format!("My move.\n\n{}", block(&file, 0, 3));
    let message = compose(&envelope, &body, None);
    assert_eq!(message, compose(&envelope, &body, None));
    let text = String::from_utf8(message.clone()).expect("ASCII");
    assert!(
        text.is_ascii(),
        "a name outside ASCII is encoded in its header"
    );
    assert!(!text.contains('\r'));
    for header in [
        "From: \"alice\" <alice@example.org>\n",
        "To: \"bob\" <bob@example.org>\n",
        "Subject: [correspond] chess: white plays e2e4 (record 1)\n",
        "Date: Sun, 30 Nov 2025 10:00:00 +0000\n",
        "Message-ID: <abc.1-1@correspond.invalid>\n",
        "In-Reply-To: <game@correspond.invalid>\n",
        "References: <game@correspond.invalid>\n",
        "Comments: =?utf-8?",
    ] {
        assert!(text.contains(header), "{header}\n{text}");
    }
    let parsed = in_message(&message);
    assert_eq!(parsed.subject.as_deref(), Some(envelope.subject.as_str()));
    assert_eq!(parsed.blocks, vec![Ok(packet(&file, 0, 3))]);
}

#[test]
fn a_message_with_a_picture_is_the_text_or_the_picture_over_it_and_the_image_holds_no_records() {
    let file = opera();
    let envelope = Envelope {
        from: Mailbox {
            name: None,
            address: "alice@example.org".into(),
        },
        to: Vec::new(),
        subject: "[correspond] chess".into(),
        comments: None,
        date: 1_764_496_800,
        message_id: "abc.1-1@correspond.invalid".into(),
        references: Vec::new(),
    };
    // A player's comment can say anything, a boundary too: none it could guess is one.
    let body = format!(
        "My move.\n--=_alternative.0123456789abcdef0123456789abcdef\n--=_related.00\n\n{}",
        block(&file, 0, 3)
    );
    // An "image" whose bytes hold another block: a picture is never searched for records.
    let image = Image {
        png: block(&file, 4, 4).into_bytes(),
        alt: "chess: <a position> & \"a move\"".into(),
        width: 400,
        height: 472,
    };
    let message = compose(&envelope, &body, Some(&image));
    assert_eq!(message, compose(&envelope, &body, Some(&image)));
    let text = String::from_utf8(message.clone()).expect("ASCII");
    let parsed = mail_parser::MessageParser::new()
        .parse(&message)
        .expect("a message");
    let types: Vec<String> = parsed
        .parts
        .iter()
        .map(|p| {
            use mail_parser::MimeHeaders as _;
            let t = p.content_type().expect("a type");
            format!("{}/{}", t.ctype(), t.subtype().unwrap_or(""))
        })
        .collect();
    assert_eq!(
        types,
        [
            "multipart/alternative",
            "text/plain",
            "multipart/related",
            "text/html",
            "image/png"
        ]
    );
    let html = parsed.body_html(0).expect("an HTML part");
    let cid = text
        .lines()
        .find_map(|l| l.strip_prefix("Content-ID: <"))
        .and_then(|l| l.strip_suffix('>'))
        .expect("the image's id");
    assert!(
        html.contains(&format!(
            "<img src=\"cid:{cid}\" alt=\"chess: &lt;a position&gt; &amp; &quot;a move&quot;\" \
             width=\"400\" height=\"472\">"
        )),
        "{html}"
    );
    assert_eq!(parsed.body_text(0).as_deref(), Some(body.as_str()));
    // The block in the text and in its HTML twin counts once; the image's is not read.
    assert_eq!(in_message(&message).blocks, vec![Ok(packet(&file, 0, 3))]);
    // No boundary can be written by a player: each is made from a digest of what it holds.
    let boundaries: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix(" boundary=\""))
        .collect();
    assert_eq!(boundaries.len(), 2, "{text}");
    assert!(
        boundaries.iter().all(|b| b.starts_with("=_")),
        "{boundaries:?}"
    );
}

#[test]
fn a_block_pasted_without_headers_is_found() {
    let file = opera();
    let parsed = in_message(block(&file, 2, 2).as_bytes());
    assert_eq!(parsed.blocks, vec![Ok(packet(&file, 2, 2))]);
}

#[test]
fn mailbox_messages_are_split_and_unquoted() {
    let mbox = b"From alice Mon Nov 30 10:00:00 2026\nSubject: one\n\nbody\n>From here\n\n\
                 From bob Mon Nov 30 11:00:00 2026\nSubject: two\n\nbody\n\
                 From carol Mon Nov 30 12:00:00 2026\nSubject: three\n\nmuch too long for this limit\n";
    let mut messages = Vec::new();
    mailbox(&mbox[..], 35, |n, m| {
        messages.push((n, m.map(<[u8]>::to_vec)))
    })
    .expect("in memory");
    assert_eq!(messages.len(), 3);
    assert_eq!(
        messages[0],
        (1, Ok(b"Subject: one\n\nbody\nFrom here\n\n".to_vec()))
    );
    let two = messages[1].1.as_ref().expect("small");
    assert_eq!(in_message(two).subject.as_deref(), Some("two"));
    assert_eq!(messages[2], (3, Err(45)));
}

#[test]
fn blocks_in_html_are_found_however_it_is_laid_out() {
    let file = opera();
    let text = block(&file, 4, 4);
    let expected = vec![Ok(packet(&file, 4, 4))];
    let lines: Vec<&str> = text.lines().collect();
    let divs: String = lines.iter().map(|l| format!("<div>{l}</div>")).collect();
    let paragraphs: String = lines
        .iter()
        .map(|l| {
            format!(
                "<p class=MsoNormal><span>{}</span></p>\r\n",
                l.replace(' ', "&nbsp;")
            )
        })
        .collect();
    let quoted = format!(
        "<blockquote><pre>{}</pre></blockquote>",
        text.replace('+', "&#43;")
    );
    for html in [divs, paragraphs, quoted] {
        let message = format!(
            "Subject: x\nMIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n\
             <html><body><div>Here:</div>{html}<div>Regards</div></body></html>\n"
        );
        assert_eq!(in_message(message.as_bytes()).blocks, expected, "{html}");
    }
}

#[test]
fn a_word_broken_by_wrapping_or_an_invisible_character_does_no_harm() {
    let file = opera();
    let text = block(&file, 4, 5);
    let expected = vec![Ok(packet(&file, 4, 5))];
    // Long words broken at 40 columns, as hard-wrapping clients do, and a zero-width space.
    let broken: String = text
        .lines()
        .flat_map(|l| {
            let (a, b) = l.split_at(l.len().min(40));
            [a.to_owned(), b.to_owned()]
        })
        .map(|l| format!("> {l}\n"))
        .collect();
    assert_eq!(find(&broken), expected);
    let invisible = text.replacen("LS0t", "LS\u{200B}0t", 1);
    assert_eq!(find(&invisible), expected);
}

#[test]
fn finding_blocks_costs_time_linear_in_the_text() {
    // Thousands of opening lines with no end: each is reported, once, without rescanning.
    let text = format!("{BEGIN}\nGame: x\n").repeat(20_000);
    let found = find(&text);
    assert_eq!(found.len(), 20_000);
    assert!(found.iter().all(Result::is_err));
}

#[test]
fn a_game_file_sent_as_it_is_counts_as_a_block_of_all_its_records() {
    let file = upto(&opera(), 3);
    let expected = vec![Ok(packet(&opera(), 0, 3))];
    assert_eq!(in_message(file.text().as_bytes()).blocks, expected);
    let attached = format!(
        "Subject: the game\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n\
         --b\nContent-Type: text/plain\n\nAttached.\n--b\nContent-Type: application/yaml\n\
         Content-Disposition: attachment; filename=game.yaml\n\n{}\n--b--\n",
        file.text()
    );
    assert_eq!(in_message(attached.as_bytes()).blocks, expected);
}

#[test]
fn a_damaged_block_is_harmless_only_beside_a_good_copy_of_what_it_carried() {
    let file = opera();
    let local = upto(&file, 2);
    let damaged = |range| Found {
        origin: "reply.eml, block 1".into(),
        packet: Err(MailError::Damaged {
            game: Some(file.game_id()),
            range,
            why: "its content does not match its checksum".into(),
            quoted: false,
        }),
        in_mailbox: false,
        message: 0,
    };
    // Its records arrived in a good copy: passed over.
    let twin = [
        damaged(Some((3, 3))),
        found("reply.eml, block 2", packet(&file, 3, 3)),
    ];
    let done = receive(Some(&local), &twin).expect("the good copy");
    assert_eq!((done.added, done.passed_over.len()), (3..4, 1));
    // Its records did not arrive (a known block quoted beside it does not help), or what it
    // carried cannot be told: refused.
    for range in [Some((3, 3)), None] {
        let quoted = [
            damaged(range),
            found("reply.eml, block 2", packet(&file, 2, 2)),
        ];
        let error = receive(Some(&local), &quoted).expect_err("damaged news");
        assert!(matches!(*error.error, MailError::Damaged { .. }), "{error}");
    }
}

#[test]
fn a_changed_block_in_a_mailbox_is_passed_over_as_a_forgery_not_a_fork() {
    // Forks and undecided races need records signed with keys: tests/integration/mail.rs.
    let file = opera();
    let local = upto(&file, 3);
    let mut changed = packet(&file, 3, 4);
    let at = changed.bytes.len() / 2;
    changed.bytes[at] ^= 1;
    let mailbox = [Found {
        in_mailbox: true,
        ..found("box, message 1", changed)
    }];
    let done = receive(Some(&local), &mailbox).expect("passed over");
    assert_eq!(done.added, 4..4);
    assert!(matches!(*done.passed_over[0].error, MailError::Invalid(_)));
}

#[test]
fn a_new_file_starts_from_the_header_whatever_the_order_of_challenges() {
    let file = opera();
    let mut forged = packet(&file, 0, 3);
    let at = forged.bytes.len() - 30;
    forged.bytes[at] ^= 1;
    let genuine = packet(&file, 0, 2);
    for order in [[&forged, &genuine], [&genuine, &forged]] {
        let blocks: Vec<Found> = order
            .iter()
            .map(|p| Found {
                in_mailbox: true,
                ..found("box", (*p).clone())
            })
            .collect();
        let done = receive(None, &blocks).expect("the genuine records");
        assert_eq!(
            done.file.text().as_bytes(),
            upto(&file, 2).text().as_bytes()
        );
        assert_eq!(done.passed_over.len(), 1);
    }
}

#[test]
fn html_reading_is_linear_and_leaves_stray_characters_alone() {
    let file = opera();
    let text = block(&file, 4, 4);
    let expected = vec![Ok(packet(&file, 4, 4))];
    let html = format!(
        "<p>a < b & c &plus; {}</p>",
        text.replace('\n', "<br>").replace('+', "&plus;")
    );
    let message = format!("Subject: x\nMIME-Version: 1.0\nContent-Type: text/html\n\n{html}\n");
    assert_eq!(in_message(message.as_bytes()).blocks, expected);
    // A part full of `&` with no `;`: read in one pass.
    let ampersands = format!(
        "Subject: x\nMIME-Version: 1.0\nContent-Type: text/html\n\n{}\n",
        "& ".repeat(500_000)
    );
    assert_eq!(in_message(ampersands.as_bytes()).blocks, vec![]);
}

#[test]
fn a_game_file_attached_as_text_survives_crlf_and_trailing_lines() {
    let file = upto(&opera(), 3);
    let mangled = format!("\u{FEFF}{}\n\n", file.text()).replace('\n', "\r\n");
    let expected = vec![Ok(packet(&opera(), 0, 3))];
    assert_eq!(in_message(mangled.as_bytes()).blocks, expected);
}

mod refusals;
