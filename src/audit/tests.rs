//! The audit over versions cut from a real game, and each way a version can break the rule.

use super::*;

/// The example game, and the byte offsets where its documents end.
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

fn clean(added: Range<usize>) -> Finding {
    Finding {
        added,
        violation: None,
        voided: 0..0,
    }
}

#[test]
fn appends_are_clean_and_each_record_is_counted_once() {
    let (text, ends) = game();
    let mut audit = Auditor::new();
    assert_eq!(audit.version(Some(&text[..ends[1]])), clean(0..2));
    assert_eq!(
        audit.version(Some(&text[..ends[1]])),
        clean(2..2),
        "nothing new"
    );
    assert_eq!(audit.version(Some(&text[..ends[4]])), clean(2..5));
    assert_eq!(audit.version(Some(&text)), clean(5..ends.len()));
    let summary = audit.summary().expect("the last version verifies");
    assert_eq!(summary.records, ends.len() - 1);
    assert!(summary.result.is_some(), "the game is over");
}

#[test]
fn a_move_taken_back_is_named_with_the_version_that_wrote_it() {
    let (text, ends) = game();
    let mut audit = Auditor::new();
    audit.version(Some(&text[..ends[3]]));
    audit.version(Some(&text[..ends[6]]));
    let taken_back = audit.version(Some(&text[..ends[5]]));
    assert_eq!(
        taken_back.violation,
        Some(Violation::Shortened {
            dropped: 6,
            written_in: 1
        })
    );
    assert_eq!(
        taken_back.added,
        0..0,
        "read afresh: nothing counts as added"
    );
    assert_eq!(audit.version(Some(&text[..ends[7]])), clean(6..8));
}

#[test]
fn a_changed_byte_is_named_with_its_document_line_and_writer() {
    let (text, ends) = game();
    let mut audit = Auditor::new();
    audit.version(Some(&text[..ends[2]]));
    audit.version(Some(&text[..ends[4]]));
    let mut forged = text[..ends[6]].to_vec();
    let at = ends[3] + 12;
    forged[at] ^= 1;
    let line = 1 + text[..at].iter().filter(|&&b| b == b'\n').count();
    let finding = audit.version(Some(&forged));
    assert_eq!(
        finding.violation,
        Some(Violation::Changed {
            document: 4,
            line,
            written_in: 1
        })
    );
    assert_eq!(
        finding.added,
        0..0,
        "the forged version does not verify either"
    );
    // The honest version continues the last good one: only its new records count as added.
    assert_eq!(audit.version(Some(&text[..ends[7]])), clean(5..8));
    assert!(
        audit.summary().is_some(),
        "the honest version verifies again"
    );
}

#[test]
fn invalid_records_deletions_and_garbage_are_violations() {
    let (text, ends) = game();
    let mut audit = Auditor::new();
    audit.version(Some(&text[..ends[2]]));
    // A record signed by the wrong key: record 4 of another position in the file.
    let mut bad = text[..ends[3]].to_vec();
    bad.extend_from_slice(&text[ends[5]..ends[6]]);
    let finding = audit.version(Some(&bad));
    assert!(
        matches!(&finding.violation, Some(Violation::Invalid(e)) if e.starts_with("record 4 (line")),
        "{finding:?}"
    );
    // Appending to a version that did not verify still does not verify.
    let mut more = bad.clone();
    more.extend_from_slice(&text[ends[6]..ends[7]]);
    assert!(matches!(
        audit.version(Some(&more)).violation,
        Some(Violation::Invalid(_))
    ));
    assert_eq!(
        audit.version(None),
        Finding {
            added: 0..0,
            violation: Some(Violation::Deleted),
            voided: 0..0,
        }
    );
    // After the deletion, anything else in the file's place is measured against the last
    // version that verified.
    assert!(matches!(
        audit.version(Some(b"not a game")).violation,
        Some(Violation::Changed { document: 0, .. })
    ));
    assert!(audit.summary().is_none());
}

#[test]
fn a_deletion_or_a_broken_version_cannot_launder_a_rewrite() {
    let (text, ends) = game();
    let mut forged = text[..ends[6]].to_vec();
    let at = ends[3] + 12;
    forged[at] ^= 1;
    let line = 1 + text[..at].iter().filter(|&&b| b == b'\n').count();
    let changed = Some(Violation::Changed {
        document: 4,
        line,
        written_in: 0,
    });
    // Deleted, then restored with record 4 changed.
    let mut audit = Auditor::new();
    audit.version(Some(&text[..ends[5]]));
    assert_eq!(audit.version(None).violation, Some(Violation::Deleted));
    assert_eq!(audit.version(Some(&forged)).violation, changed);
    // Cut short (not a game file), then record 4 changed.
    let mut audit = Auditor::new();
    audit.version(Some(&text[..ends[5]]));
    assert!(
        audit
            .version(Some(&text[..ends[3] + 30]))
            .violation
            .is_some()
    );
    assert_eq!(audit.version(Some(&forged)).violation, changed);
    // Deleted, then restored as it was and continued: clean.
    let mut audit = Auditor::new();
    audit.version(Some(&text[..ends[5]]));
    audit.version(None);
    assert_eq!(audit.version(Some(&text[..ends[7]])), clean(6..8));
}

#[test]
fn a_version_known_to_append_is_judged_as_one_compared_whole() {
    // Appends, a version that does not verify, a deletion, a rewrite and its restoration, and
    // appends after each: told which versions extend the one before, as a reader comparing
    // them in place is, the audit finds the same.
    let (text, ends) = game();
    let mut broken = text[..ends[4]].to_vec();
    broken.extend_from_slice(&text[ends[2]..ends[3]]);
    let mut rewritten = text[..ends[5]].to_vec();
    let at = ends[2] + 40;
    rewritten[at] = if rewritten[at] == b'a' { b'b' } else { b'a' };
    let versions: Vec<Option<&[u8]>> = vec![
        Some(&text[..ends[1]]),
        Some(&text[..ends[3]]),
        Some(&text[..ends[3]]),
        Some(&broken),
        Some(&text[..ends[4]]),
        None,
        Some(&text[..ends[5]]),
        Some(&rewritten),
        Some(&text[..ends[6]]),
        Some(&text[..ends[7]]),
        Some(&text),
    ];
    let mut whole = Auditor::new();
    let mut told = Auditor::new();
    let mut before: Option<&[u8]> = None;
    let mut appends = 0;
    for version in versions {
        let expected = whole.version(version);
        let found = match (version, before) {
            (Some(now), Some(then)) if now.starts_with(then) => {
                appends += 1;
                told.appended(now, then.len())
            }
            _ => told.version(version),
        };
        assert_eq!(found, expected);
        before = version;
    }
    assert_eq!(appends, 5, "the known appends: 1, 2, 3, 9 and 10");
    assert_eq!(told.summary(), whole.summary());
}
