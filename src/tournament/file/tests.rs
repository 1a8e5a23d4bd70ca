//! Tournament files read and refused: the example event read whole and written again byte for
//! byte, and each way a document can be spelled otherwise refused at its line.

use super::*;

fn example() -> Vec<u8> {
    let path = format!(
        "{}/games/chess/club-championship-2026/{TOURNAMENT_FILE_NAME}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(path).expect("the example tournament file")
}

#[test]
fn the_example_is_read_and_every_document_is_written_again_byte_for_byte() {
    let bytes = example();
    assert!(starts_as_a_tournament(&bytes));
    assert!(!crate::log::starts_as_a_game(&bytes));
    let file = TournamentFile::parse(&bytes).expect("well-formed");
    assert_eq!(file.header().event, "Correspond Club Championship 2026");
    assert_eq!(file.header().system, System::RoundRobin);
    assert_eq!(file.header().withdrawals, WithdrawalRule::Default);
    let mut again = preamble(file.header());
    for i in 0..file.documents() {
        let unsigned = if i == 0 {
            header_unsigned(file.header())
        } else {
            record_unsigned(&file.records()[i - 1])
        };
        assert_eq!(unsigned.as_bytes(), file.signed_bytes(i));
        again.push_str(file.document(i));
    }
    assert_eq!(again.as_bytes(), &bytes[..]);
    let kinds: Vec<&str> = file.records().iter().map(|r| r.action.kind()).collect();
    for kind in ["enter", "close", "reveal", "withdraw", "decide"] {
        assert!(kinds.contains(&kind), "{kind} in {kinds:?}");
    }
}

/// The example with `from` replaced by `to` (once), and the error reading it.
fn refused(from: &str, to: &str) -> crate::log::LogError {
    let text = String::from_utf8(example()).expect("UTF-8");
    assert_eq!(text.matches(from).count(), 1, "{from}");
    let changed = text.replacen(from, to, 1);
    TournamentFile::parse(changed.as_bytes()).expect_err(to)
}

#[test]
fn every_other_spelling_is_refused_at_its_line() {
    use crate::log::LogErrorKind as K;
    // Another spelling of the same content.
    let e = refused("rated: true\n", "rated: True\n");
    assert_eq!((e.document, e.line), (Some(0), 14));
    assert!(matches!(e.kind, K::NotCanonical { .. } | K::Yaml(_)), "{e}");
    let e = refused("system: round-robin\n", "system:  round-robin\n");
    assert!(matches!(e.kind, K::NotCanonical { .. }), "{e}");
    // Keys in another order.
    let e = refused("rated: true\ntie-breaks:", "tie-breaks:");
    assert!(matches!(e.kind, K::Yaml(_)), "{e}");
    // Unknown fields, values out of their set, another format.
    let e = refused("rated: true\n", "rated: true\nbyes: 5\n");
    assert!(matches!(e.kind, K::Yaml(_)), "{e}");
    let e = refused("system: round-robin\n", "system: knockout\n");
    assert_eq!(
        e.kind,
        K::Field("`system` is round-robin, double-round-robin or swiss, not `knockout`".into())
    );
    // A round robin's rounds are its players'; a Swiss says how many it plays.
    let e = refused("system: round-robin\n", "system: round-robin\nrounds: 5\n");
    assert_eq!(
        e.kind,
        K::Field("a round-robin has no `rounds` field: its players fix its rounds".into())
    );
    let e = refused("system: round-robin\n", "system: swiss\n");
    assert_eq!(
        e.kind,
        K::Field("a Swiss event needs `rounds`: how many it plays".into())
    );
    let e = refused("withdrawals: default\n", "withdrawals: never\n");
    assert_eq!(
        e.kind,
        K::Field(
            "`withdrawals` is time-forfeit, cancel, default or annul-under-half, not `never`"
                .into()
        )
    );
    let e = refused("- direct-encounter\n", "- wins\n");
    assert_eq!(
        e.kind,
        K::Field("the tie-break wins is listed twice".into())
    );
    let e = refused(
        "format: correspond-tournament/1\n",
        "format: correspond-tournament/2\n",
    );
    assert!(matches!(e.kind, K::Field(_)), "{e}");
    // A record's kind and fields.
    let e = refused("kind: withdraw\n", "kind: resign\n");
    assert_eq!(
        e.kind,
        K::Field(
            "`resign` is not a kind of tournament record: enter, close, reveal, withdraw, decide or pair"
                .into()
        )
    );
    let e = refused("decision: default\n", "decision: forgive\n");
    assert_eq!(
        e.kind,
        K::Field("`decision` is cancel, default or annul, not `forgive`".into())
    );
    let e = refused("kind: withdraw\n", "kind: withdraw\nnonce: 00\n");
    assert!(matches!(e.kind, K::Field(_)), "{e}");
    // The comment lines are the header's.
    let e = refused("directed by gina.", "directed by dora.");
    assert_eq!((e.document, e.kind), (None, K::Preamble));
    // Line endings the signatures do not cover.
    let text = String::from_utf8(example())
        .expect("UTF-8")
        .replace('\n', "\r\n");
    let e = TournamentFile::parse(text.as_bytes()).expect_err("CR LF");
    assert!(matches!(e.kind, K::CarriageReturn), "{e}");
}
