//! The referee over versions cut from a real game: each push it must take, and each it must
//! refuse, with the document the refusal names.

use super::*;
use crate::log::LogErrorKind;
use crate::log::Timestamp;
use crate::replay::ErrorKind;

/// The example game (document k, k ≥ 1, is dated 09:0(1+k) on 2025-11-11), and the byte
/// offsets where its documents end.
fn game() -> (Vec<u8>, Vec<usize>) {
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/campaign/run-off-claim.yaml"
    ))
    .expect("an example game");
    let s = String::from_utf8(text.clone()).expect("UTF-8");
    let ends = s
        .match_indices("\nsignature: ")
        .map(|(at, _)| at + 1 + s[at + 1..].find('\n').expect("a line end") + 1)
        .collect();
    (text, ends)
}

/// The referee's clock at `time` on the game's day, taking records within ten minutes of it.
fn at(time: &str) -> Terms {
    let now = Timestamp::parse(&format!("2025-11-11T{time}Z")).expect("a time");
    Terms {
        now: now.to_unix(),
        max_skew: 600,
    }
}

fn push<'a>(before: Option<&'a [u8]>, after: Option<&'a [u8]>) -> Versions<'a> {
    Versions {
        before,
        known: None,
        after: after.map(pushed),
    }
}

/// A pushed version read, kept for the rest of the test run (a few kilobytes each), so that
/// the versions built from it can be passed around as the hook passes its own.
fn pushed(bytes: &[u8]) -> &'static Pushed {
    Box::leak(Box::new(Pushed::read(bytes.to_vec())))
}

#[test]
fn an_append_is_taken_at_the_cost_of_its_records() {
    let (text, ends) = game();
    let accepted = judge_file(
        &push(Some(&text[..ends[3]]), Some(&text[..ends[6]])),
        at("09:07:00"),
    )
    .expect("records appended, dated now");
    assert_eq!(accepted.added, 4..7);
    assert_eq!(accepted.summary.records, 6);
    let whole = judge_file(&push(None, Some(&text)), at("09:10:00")).expect("a new game");
    assert_eq!(whole.added, 0..ends.len());
    assert!(whole.summary.result.is_some(), "the game is over");
}

#[test]
fn a_signature_on_the_branch_is_taken_on_the_referees_word_and_a_pushed_one_is_checked() {
    let (text, ends) = game();
    // A byte of record 3's signature changed (the next record's `prev` would bind it): on the
    // branch, it was checked when it was pushed.
    let mut forged = text[..ends[3]].to_vec();
    let sig = ends[3] - 10;
    forged[sig] = if forged[sig] == b'A' { b'B' } else { b'A' };
    let vouched = judge_file(&push(Some(&forged), Some(&forged)), at("09:05:00"));
    assert_eq!(
        vouched
            .expect("the branch's version is the referee's")
            .added,
        4..4
    );
    // Pushed, it is refused.
    let refused = judge_file(&push(Some(&text[..ends[1]]), Some(&forged)), at("09:04:00"));
    let Err(Refusal::Invalid(e)) = refused else {
        panic!("a forged signature pushed: {refused:?}");
    };
    assert_eq!(e.document, Some(3));
    assert!(matches!(e.kind, ErrorKind::BadSignature(_)), "{e}");
}

#[test]
fn a_rewrite_a_cut_and_a_deletion_are_refused() {
    let (text, ends) = game();
    let mut changed = text[..ends[5]].to_vec();
    let in_record_2 = ends[1] + 5;
    changed[in_record_2] ^= 1;
    let refused = judge_file(
        &push(Some(&text[..ends[3]]), Some(&changed)),
        at("09:06:00"),
    );
    let Err(Refusal::Rewritten(Refereed::Game, e)) = refused else {
        panic!("a rewrite: {refused:?}");
    };
    assert_eq!((e.document, e.kind), (Some(2), LogErrorKind::Changed));
    let cut = judge_file(
        &push(Some(&text[..ends[4]]), Some(&text[..ends[2]])),
        at("09:06:00"),
    );
    let Err(Refusal::Rewritten(Refereed::Game, e)) = cut else {
        panic!("a move taken back: {cut:?}");
    };
    assert_eq!(e.kind, LogErrorKind::Shortened { dropped: 3 });
    assert_eq!(
        judge_file(&push(Some(&text[..ends[4]]), None), at("09:06:00")).err(),
        Some(Refusal::Deleted {
            file: Refereed::Game,
            commit: None
        })
    );
}

#[test]
fn a_pushed_commit_holds_a_version_the_file_passed_through_or_none_its_parents_held() {
    let (text, ends) = game();
    let after = &text[..ends[6]];
    let accepted =
        judge_file(&push(Some(&text[..ends[3]]), Some(after)), at("09:07:00")).expect("appends");
    let judge = |version: Option<&[u8]>, parent_held| {
        judge_between(&accepted, after, "c1", version, parent_held)
    };
    // A version the file passed through, even one older than the branch's (a merged side
    // branch that saw less of the game), and no version in a commit from before the game.
    assert_eq!(judge(Some(&text[..ends[4]]), true), Ok(()));
    assert_eq!(judge(Some(&text[..ends[1]]), true), Ok(()));
    assert_eq!(judge(None, false), Ok(()));
    // A record changed there and restored later; a version cut inside a document; a deletion.
    let mut changed = text[..ends[4]].to_vec();
    changed[ends[1] + 5] ^= 1;
    assert_eq!(
        judge(Some(&changed), true),
        Err(Refusal::Between(Refereed::Game, "c1".to_owned()))
    );
    assert_eq!(
        judge(Some(&text[..ends[4] - 3]), true),
        Err(Refusal::Between(Refereed::Game, "c1".to_owned()))
    );
    assert_eq!(
        judge(None, true),
        Err(Refusal::Deleted {
            file: Refereed::Game,
            commit: Some("c1".to_owned())
        })
    );
}

/// The game's line as the index holds it when `bytes` lies at `path` on `branch`.
fn line(branch: &str, path: &str, bytes: &[u8]) -> Entry {
    let digests = digests(bytes).expect("a game");
    Entry::new(
        &digests,
        (branch.as_bytes().to_vec(), path.as_bytes().to_vec()),
    )
}

#[test]
fn the_games_line_in_the_index_is_extended_never_parted_from() {
    let (text, ends) = game();
    // A copy elsewhere is ahead: its records were witnessed when pushed there, so a copy made
    // now with them, plus one record dated now, takes only that record's time to the clock.
    let ahead = line("refs/heads/main", "g.yaml", &text[..ends[5]]);
    let versions = Versions {
        before: None,
        known: Some(&ahead),
        after: Some(pushed(&text[..ends[6]])),
    };
    let accepted = judge_file(&versions, at("09:07:00")).expect("one record added");
    assert_eq!(accepted.added, 6..7);
    assert_eq!(accepted.digests, digests(&text[..ends[6]]).expect("a game"));
    // A copy holds another record at a place: two lines of one game.
    let mut other = line("refs/heads/main", "copy.yaml", &text[..ends[5]]);
    other.digests[4] = Digest::of(b"another record 4");
    let forked = other;
    let versions = Versions {
        known: Some(&forked),
        ..versions
    };
    let refused = judge_file(&versions, at("09:07:00")).expect_err("a fork");
    assert!(
        matches!(&refused, Refusal::Forked { at, document: 4, .. } if at == "copy.yaml on refs/heads/main"),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        "copy.yaml on refs/heads/main holds another line of this game, which parts from this \
         one at record 4 (line 44); a game has one line of records in the repository, whatever \
         its copies are called and wherever they lie"
    );
    // Behind is no fork: that copy has not caught up.
    let behind = line("refs/heads/old", "g.yaml", &text[..ends[2]]);
    let versions = Versions {
        known: Some(&behind),
        ..versions
    };
    assert_eq!(
        judge_file(&versions, at("09:07:00")).expect("behind").added,
        3..7
    );
    // Another game's line says nothing of this one.
    let unrelated = Entry::new(
        &[Digest::of(b"another game")],
        (b"refs/heads/main".to_vec(), b"x.yaml".to_vec()),
    );
    let versions = Versions {
        known: Some(&unrelated),
        ..versions
    };
    assert_eq!(
        judge_file(&versions, at("09:07:00"))
            .expect("new")
            .added
            .start,
        0
    );
}

#[test]
fn pushed_documents_are_dated_within_the_skew_of_the_referees_clock() {
    let (text, ends) = game();
    let versions = push(Some(&text[..ends[3]]), Some(&text[..ends[6]]));
    // Record 4 is dated 09:05, record 6 09:07: at 09:15:30, record 4 is 10m30s behind.
    let refused = judge_file(&versions, at("09:15:30")).expect_err("backdated");
    assert_eq!(
        refused.to_string(),
        "record 4 (line 44): dated 2025-11-11T09:05:00Z, 11 minutes behind the referee's \
         clock (2025-11-11T09:15:30Z); a document pushed here must be dated within 10 minutes \
         of it"
    );
    assert!(
        judge_file(&versions, at("09:15:00")).is_ok(),
        "exactly 10 minutes"
    );
    let ahead = judge_file(&versions, at("08:56:59")).expect_err("dated in the future");
    assert!(
        matches!(ahead, Refusal::Skew { document: 6, .. }),
        "{ahead:?}"
    );
    assert!(ahead.to_string().contains("11 minutes ahead of"), "{ahead}");
    // A new game's header is pushed too.
    let new = judge_file(&push(None, Some(&text[..ends[1]])), at("09:12:00"));
    assert!(
        matches!(new, Err(Refusal::Skew { document: 0, .. })),
        "{new:?}"
    );
}

#[test]
fn a_conditional_reply_appended_late_is_not_held_to_the_clock_but_the_move_after_it_is() {
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/chess/conditional-moves.yaml"
    ))
    .expect("an example game");
    let s = String::from_utf8(text.clone()).expect("UTF-8");
    let ends: Vec<usize> = s
        .match_indices("\nsignature: ")
        .map(|(at, _)| at + 1 + s[at + 1..].find('\n').expect("a line end") + 1)
        .collect();
    // Record 4 is bob's e5 at 09:04, record 5 alice's reply to it, appended by bob, dated as
    // it; record 6 is bob's Nc6 at 09:05. Three hours on, the reply alone is taken.
    let late = Terms {
        now: Timestamp::parse("2025-12-08T12:04:00Z")
            .expect("a time")
            .to_unix(),
        max_skew: 600,
    };
    let reply = push(Some(&text[..ends[4]]), Some(&text[..ends[5]]));
    let accepted = judge_file(&reply, late).expect("a reply dated as its move");
    assert_eq!(accepted.added, 5..6);
    let more = push(Some(&text[..ends[4]]), Some(&text[..ends[6]]));
    let refused = judge_file(&more, late).expect_err("a move dated three hours ago");
    assert!(
        matches!(refused, Refusal::Skew { document: 6, .. }),
        "{refused:?}"
    );
}

#[test]
fn a_branch_holding_games_is_neither_deleted_nor_forced() {
    assert_eq!(judge_branch(true, true, 2), Err(Refusal::BranchDeleted(2)));
    assert_eq!(judge_branch(false, false, 1), Err(Refusal::ForcePush(1)));
    assert_eq!(judge_branch(false, true, 3), Ok(()));
    assert_eq!(judge_branch(true, true, 0), Ok(()), "no game is lost");
    assert_eq!(judge_branch(false, false, 0), Ok(()));
}

/// A file of the example event, and the byte offsets where its documents end.
fn event_file(name: &str) -> (Vec<u8>, Vec<usize>) {
    let path = format!(
        "{}/games/chess/club-championship-2026/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read(path).expect("the example event");
    let s = String::from_utf8(text.clone()).expect("UTF-8");
    let ends = s
        .match_indices("\nsignature: ")
        .map(|(at, _)| at + 1 + s[at + 1..].find('\n').expect("a line end") + 1)
        .collect();
    (text, ends)
}

/// The referee's clock at `time` on the event's day, taking documents within `minutes` of it.
fn on_event_day(time: &str, minutes: u64) -> Terms {
    let now = Timestamp::parse(&format!("2026-03-03T{time}Z")).expect("a time");
    Terms {
        now: now.to_unix(),
        max_skew: minutes * 60,
    }
}

#[test]
fn a_tournament_file_only_grows_by_records_of_its_event_dated_now() {
    // Its documents are dated 00:01 to 00:13, then 01:01 and 01:02.
    let (text, ends) = event_file("tournament.yaml");
    assert_eq!(ends.len(), 15);
    let whole = judge_tournament(None, Some(&text), on_event_day("00:32:00", 31))
        .expect("a new tournament file");
    assert_eq!(whole.added, 0..15);
    assert_eq!(whole.summary.documents, 15);
    let grown = judge_tournament(
        Some(&text[..ends[12]]),
        Some(&text),
        on_event_day("01:05:00", 10),
    )
    .expect("two records appended, dated now");
    assert_eq!(grown.added, 13..15);
    // A version in a pushed commit is one the file passed through.
    assert_eq!(
        judge_between(&grown, &text, "c1", Some(&text[..ends[13]]), true),
        Ok(())
    );
    assert_eq!(
        judge_between(&grown, &text, "c1", Some(&text[..ends[13] - 2]), true),
        Err(Refusal::Between(Refereed::Tournament, "c1".to_owned()))
    );
    // Record 12, dated 00:13, pushed at 01:05.
    let late = judge_tournament(
        Some(&text[..ends[11]]),
        Some(&text),
        on_event_day("01:05:00", 10),
    );
    assert!(
        matches!(late, Err(Refusal::Skew { document: 12, .. })),
        "{late:?}"
    );
    // A record rewritten, the file cut, the file deleted.
    let mut changed = text.clone();
    changed[ends[1] + 5] ^= 1;
    let rewritten = judge_tournament(Some(&text), Some(&changed), on_event_day("01:05:00", 10))
        .expect_err("a rewrite");
    let Refusal::Rewritten(Refereed::Tournament, e) = &rewritten else {
        panic!("a rewrite: {rewritten:?}");
    };
    assert_eq!((e.document, &e.kind), (Some(2), &LogErrorKind::Changed));
    assert!(
        rewritten
            .to_string()
            .starts_with("this push rewrites the tournament file: record 2 (line "),
        "{rewritten}"
    );
    let cut = judge_tournament(
        Some(&text),
        Some(&text[..ends[13]]),
        on_event_day("01:05:00", 10),
    );
    assert!(
        matches!(
            &cut,
            Err(Refusal::Rewritten(
                Refereed::Tournament,
                LogError {
                    kind: LogErrorKind::Shortened { dropped: 14 },
                    ..
                }
            ))
        ),
        "{cut:?}"
    );
    let deleted = judge_tournament(Some(&text), None, on_event_day("01:05:00", 10));
    assert_eq!(
        deleted
            .as_ref()
            .map_err(ToString::to_string)
            .err()
            .as_deref(),
        Some(
            "the tournament file is deleted; a referee keeps every tournament file where it is \
             (never deleted, moved or renamed)"
        )
    );
    // A pushed record's signature is checked; one already on the branch cannot be mended.
    let mut forged = text.clone();
    let sig = ends[14] - 10;
    forged[sig] = if forged[sig] == b'A' { b'B' } else { b'A' };
    let refused = judge_tournament(
        Some(&text[..ends[13]]),
        Some(&forged),
        on_event_day("01:05:00", 10),
    );
    assert!(
        matches!(&refused, Err(Refusal::EventInvalid(e)) if e.document == Some(14)),
        "{refused:?}"
    );
    let before = judge_tournament(Some(&forged), Some(&forged), on_event_day("01:05:00", 10));
    assert!(
        matches!(&before, Err(Refusal::EventInvalidBefore(e)) if e.document == Some(14)),
        "{before:?}"
    );
}

#[test]
fn a_new_game_that_names_an_event_is_its_pairings_one_game_beside_its_tournament_file() {
    let (tournament, _) = event_file("tournament.yaml");
    let (game, _) = event_file("round-1-board-1.yaml");
    let file = GameFile::parse(&game).expect("a game");
    let (header, id) = (file.header().clone(), file.game_id());
    let (other, _) = event_file("round-2-board-1.yaml");
    let beside = vec![(b"club/round-2-board-1.yaml".to_vec(), other.clone())];
    assert_eq!(judge_claim(&header, id, Some(&tournament), &beside), Ok(()));
    // A game that names no event is not judged here.
    let mut plain = header.clone();
    plain.tags.clear();
    assert_eq!(judge_claim(&plain, id, None, &[]), Ok(()));
    let event = "3b8367e193cccc715de1f5810136b3b46f314543956eba4446ca9eedf76b5f8b";
    let advice = "; a game of an event is kept beside the event's tournament.yaml, where \
                  `correspond tournament start` makes it";
    let said = |r: Result<(), Refusal>| r.map_err(|e| e.to_string()).err().unwrap_or_default();
    assert_eq!(
        said(judge_claim(&header, id, None, &beside)),
        format!(
            "it names round 1, board 1 of the event {event} (its `Tournament` tag), but there \
             is no tournament.yaml beside it{advice}"
        )
    );
    // Round 2, board 1's game under round 1, board 1's tags: not that pairing.
    let moved = GameFile::parse(&other).expect("a game");
    let mut header_2 = moved.header().clone();
    header_2.tags.insert("Round".into(), "1".into());
    assert_eq!(
        said(judge_claim(
            &header_2,
            moved.game_id(),
            Some(&tournament),
            &[]
        )),
        "it is not round 1, board 1 of the event: frank plays white there, but the game gives \
         that seat to bob; a game that names an event (its `Tournament` tag) must be exactly \
         the game of its pairing, as `correspond tournament start` makes it"
    );
    // Another game (its salt changed: another game id) for the same pairing.
    let second = String::from_utf8(game.clone())
        .expect("UTF-8")
        .replace("salt: 5a17", "salt: 6a17")
        .into_bytes();
    let beside = vec![(b"club/again.yaml".to_vec(), second)];
    assert_eq!(
        said(judge_claim(&header, id, Some(&tournament), &beside)),
        "round 1, board 1 of the event has another game (another game id) beside it, \
         club/again.yaml: one pairing is one game, so this one is refused; play the game there"
    );
    // A copy of the same game is the same game.
    let copy = vec![(b"club/copy.yaml".to_vec(), game.clone())];
    assert_eq!(judge_claim(&header, id, Some(&tournament), &copy), Ok(()));
}
