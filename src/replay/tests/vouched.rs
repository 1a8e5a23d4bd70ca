//! Signatures taken on a player's word: what [`Replayer::advance_vouched`] leaves out, and the
//! writer's use of it.

use super::*;

/// alice moves, bob's answer (document `forged`) is signed with a third key, and alice signs on
/// top of it, as a program that did not check would.
fn forged_then_signed_on() -> (Builder, usize) {
    let b = Builder::new().started().moves("a2a3");
    let forged = b.seq as usize + 1;
    (
        b.forged(1, Action::Move("a6a5".into()))
            .add(0, Action::Move("a1a2".into())),
        forged,
    )
}

#[test]
fn signatures_before_a_vouched_record_are_left_out_and_nothing_else_is() {
    let (b, forged) = forged_then_signed_on();
    let file = b.file();
    let bad_signature = |e: ReplayError| {
        assert_eq!(e.document, Some(forged));
        assert!(matches!(e.kind, ErrorKind::BadSignature(_)), "{e}");
    };
    bad_signature(b.replay().expect_err("the forged signature"));
    let start = || Replayer::<Campaign>::start(&file).expect("the header");
    // Vouched for by alice's record after it: the signature is taken on her word...
    let vouched = start()
        .advance_vouched(&file, 2, forged + 1)
        .expect("the forged signature left out");
    assert_eq!(vouched.last().phase, Phase::Playing(Seat::Opponent));
    // ...until someone asks, and never the voucher's own.
    bad_signature(
        vouched
            .check_signatures(&file, 1..forged + 1)
            .expect_err("checked when asked"),
    );
    let Err(e) = start().advance_vouched(&file, 1, forged) else {
        panic!("the voucher's own record is checked");
    };
    bad_signature(e);
    // A vouched record is still read, chained and judged: an illegal move is refused.
    let (b, _) = forged_then_signed_on();
    let b = b
        .forged(1, Action::Move("a1a2".into()))
        .add(0, Action::Move("a2a1".into()));
    let file = b.file();
    let Err(e) = Replayer::<Campaign>::start(&file)
        .expect("the header")
        .advance_vouched(&file, 1, b.seq as usize)
    else {
        panic!("an illegal move passed for being vouched for");
    };
    assert_eq!(e.document, Some(b.seq as usize - 1));
    assert!(matches!(e.kind, ErrorKind::Illegal { .. }), "{e}");
}

#[test]
fn the_writer_takes_signatures_on_the_word_of_its_own_player_only() {
    use crate::journal::{Entry, Journal};
    use crate::writer::{WriteError, Writer};
    let (b, forged) = forged_then_signed_on();
    let file = b.file();
    let dir = tempfile::tempdir().expect("temp dir");
    let mut journal = Journal::at(dir.path().to_owned())
        .game(file.game_id())
        .expect("a journal");
    let time = Timestamp::parse("2026-01-02T00:00:00Z").expect("time");
    // Without alice's record in her journal, nothing vouches: the file is refused.
    let refused = Writer::<Campaign>::of_vouched(file.clone(), 1, &journal).err();
    assert!(
        matches!(refused, Some(WriteError::Invalid(ref e)) if e.document == Some(forged)),
        "{refused:?}"
    );
    let alices = forged + 1;
    let entry = |text: &str| {
        Entry::new(
            b.keys[0].public_key().clone(),
            file.game_id(),
            alices as u64,
            text.to_owned(),
        )
        .expect("an entry")
    };
    // Another record of alice's at that place (another move) vouches for nothing.
    let another = Builder::new()
        .started()
        .moves("a2a3")
        .forged(1, Action::Move("a6a5".into()))
        .add(0, Action::Move("b2b3".into()));
    let mut elsewhere = Journal::at(dir.path().join("elsewhere"))
        .game(file.game_id())
        .expect("a journal");
    elsewhere
        .record(entry(another.file().document(alices)))
        .expect("journaled");
    let refused = Writer::<Campaign>::of_vouched(file.clone(), 1, &elsewhere).err();
    assert!(
        matches!(refused, Some(WriteError::Invalid(ref e)) if e.document == Some(forged)),
        "{refused:?}"
    );
    journal
        .record(entry(file.document(alices)))
        .expect("journaled");
    // With it, alice's journal vouches for what she checked before signing it...
    let writer = Writer::<Campaign>::of_vouched(file.clone(), 1, &journal).expect("vouched");
    // ...and bob, writing with it, does not take her word: the signature is checked first.
    let record = writer.next(Seat::Opponent, Action::Move("a7a6".into()), time.clone());
    match writer.clone().write(record, &b.keys[1], None) {
        Err(WriteError::Invalid(e)) => assert_eq!(e.document, Some(forged)),
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("bob signed on top of a forged signature"),
    }
    // Alice writes on her own word (bob's next record added by hand, as it arrives).
    let b = b.add(1, Action::Move("a7a6".into()));
    let file = b.file();
    let writer = Writer::<Campaign>::of_vouched(file, 1, &journal).expect("vouched");
    let record = writer.next(Seat::Creator, Action::Move("a2a1".into()), time);
    writer
        .write(record, &b.keys[0], None)
        .expect("alice's move, on her word");
}
