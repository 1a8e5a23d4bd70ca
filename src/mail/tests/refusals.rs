//! What receiving refuses, and says where it came from: a forged record, junk, a block whose
//! `Documents:` line lies, a gap, another game's block, a damaged block. In a mailbox, a forged,
//! foreign or damaged block is passed over with its reason and the genuine records apply; an
//! empty mailbox adds nothing.

use super::*;

#[test]
fn a_forged_record_is_refused_with_its_origin_and_in_a_mailbox_passed_over() {
    let file = opera();
    let local = upto(&file, 2);
    // A record changed and its block's checksum made again: the signature fails.
    let mut forged = packet(&file, 3, 3);
    let at = forged
        .bytes
        .windows(5)
        .position(|w| w == b"move:")
        .expect("a move record")
        + 7;
    forged.bytes[at] = if forged.bytes[at] == b'a' { b'b' } else { b'a' };
    let error = receive(Some(&local), &[found("forged.eml", forged.clone())]).expect_err("forged");
    assert_eq!(error.origin.as_deref(), Some("forged.eml"));
    assert!(
        matches!(&*error.error, MailError::Invalid(e) if e.document == Some(3)),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "forged.eml: the records do not verify: record 3: bad signature: the signature does \
         not match the signed bytes"
    );
    // In a mailbox the forgery is passed over, with the reason, and the genuine record applies.
    let mailbox = [
        Found {
            in_mailbox: true,
            ..found("box, message 1", forged)
        },
        Found {
            in_mailbox: true,
            ..found("box, message 2", packet(&file, 3, 4))
        },
    ];
    let done = receive(Some(&local), &mailbox).expect("the genuine records");
    assert_eq!(done.added, 3..5);
    assert_eq!(done.passed_over.len(), 1);
    assert!(matches!(*done.passed_over[0].error, MailError::Invalid(_)));
}

#[test]
fn junk_a_lying_block_and_a_gap_are_refused() {
    let file = opera();
    let local = upto(&file, 2);
    // Junk under this game's id where the file holds a record is a forgery, not a fork.
    let junk = Packet {
        bytes: b"---\nnot a record\n".to_vec(),
        ..packet(&file, 2, 2)
    };
    assert!(matches!(
        *receive(Some(&local), &[found("junk", junk)])
            .expect_err("junk")
            .error,
        MailError::Invalid(_)
    ));
    // A block whose `Documents:` line lies.
    let mut lying = packet(&file, 3, 4);
    lying.last = 5;
    assert!(matches!(
        *receive(Some(&local), &[found("m", lying)])
            .expect_err("lies")
            .error,
        MailError::Damaged { .. }
    ));
    // After a gap, even with other blocks that apply.
    let gap = [
        found("m4", packet(&file, 3, 3)),
        found("m6", packet(&file, 6, 6)),
    ];
    let error = receive(Some(&local), &gap).expect_err("gap");
    assert_eq!(error.origin.as_deref(), Some("m6"));
    assert_eq!(*error.error, MailError::Gap { first: 6, last: 3 });
}

#[test]
fn another_games_block_is_refused_alone_and_passed_over_in_a_mailbox() {
    let file = opera();
    let local = upto(&file, 2);
    // Another game's block, given as a message for this game; in a mailbox it is passed over.
    let other = game("campaign/fact-check.yaml");
    let foreign = found("c", packet(&other, 1, 1));
    assert!(matches!(
        *receive(Some(&local), std::slice::from_ref(&foreign))
            .expect_err("wrong game")
            .error,
        MailError::WrongGame { .. }
    ));
    let mailbox = [
        Found {
            in_mailbox: true,
            ..foreign
        },
        found("m", packet(&file, 3, 3)),
    ];
    let done = receive(Some(&local), &mailbox).expect("other games passed over");
    assert_eq!((done.other_games, done.added), (1, 3..4));
}

#[test]
fn a_damaged_block_is_passed_over_in_a_mailbox_and_refused_alone() {
    let file = opera();
    let local = upto(&file, 2);
    // A damaged block in a mailbox is passed over and reported; given alone, it is refused.
    let damaged = Found {
        origin: "box, message 2".into(),
        packet: Err(MailError::Damaged {
            game: Some(file.game_id()),
            range: Some((4, 4)),
            why: "its content does not match its checksum".into(),
            quoted: false,
        }),
        in_mailbox: true,
        message: 0,
    };
    let done = receive(
        Some(&local),
        &[damaged.clone(), found("m", packet(&file, 3, 3))],
    )
    .expect("the damaged block passed over");
    assert_eq!(done.added, 3..4);
    assert_eq!(done.passed_over.len(), 1);
    assert_eq!(
        done.passed_over[0].origin.as_deref(),
        Some("box, message 2")
    );
    let alone = Found {
        in_mailbox: false,
        ..damaged
    };
    assert!(matches!(
        *receive(Some(&local), &[alone]).expect_err("damaged").error,
        MailError::Damaged { .. }
    ));
}

#[test]
fn an_empty_mailbox_adds_nothing() {
    let file = opera();
    let local = upto(&file, 2);
    let nothing = receive(Some(&local), &[]).expect("nothing new");
    assert_eq!(nothing.added, 3..3);
}
