//! Time controls through the commands: a header with terms, the clocks `status` shows against
//! a pinned now, claims on time refused before the deadline and by the late player, a win on
//! time and its PGN, a withheld toss reveal forfeited, and a clock that is behind the file.

use crate::util::{correspond, keys_dir, transcript};
use std::path::Path;

/// Runs `correspond` in `dir` at `time`, as `who` when a key is needed (`None`: a reading
/// command); the whole transcript.
fn at(dir: &Path, time: &str, who: Option<&str>, args: &[&str]) -> (i32, String, String) {
    let mut cmd = correspond();
    cmd.current_dir(dir).env("CORRESPOND_TIME", time).args(args);
    if let Some(who) = who {
        cmd.arg("--key")
            .arg(keys_dir().join(who))
            .arg("--no-commit");
    }
    transcript(&mut cmd)
}

/// Runs a signing command that must succeed, with nothing on stderr; its stdout.
fn sign(dir: &Path, time: &str, who: &str, args: &[&str]) -> String {
    let (code, out, err) = at(dir, time, Some(who), args);
    assert_eq!((code, err.as_str()), (0, ""), "{who} {args:?}");
    out
}

/// A game of `game` in `file`, created by alice (`side`) on 1 March with `terms` (the
/// arguments after `--time-control`).
fn create(dir: &Path, game: &str, file: &str, side: &str, terms: &[&str]) {
    let bob = keys_dir().join("bob.pub");
    let mut args = vec!["new", game, file, "--name", "alice", "--side", side];
    args.extend(["--opponent", "bob", "--opponent-key"]);
    args.push(bob.to_str().expect("UTF-8"));
    args.push("--time-control");
    args.extend(terms);
    sign(dir, "2026-03-01T00:00:00Z", "alice", &args);
}

/// A chess game with `terms`, created by alice (white) on 1 March and accepted by bob at noon.
fn chess(dir: &Path, terms: &[&str]) {
    create(dir, "chess", "g.yaml", "white", terms);
    sign(dir, "2026-03-01T12:00:00Z", "bob", &["accept", "g.yaml"]);
}

#[test]
fn a_time_per_move_runs_out_and_the_game_is_claimed_on_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    chess(dir, &["3/move"]);
    let header = std::fs::read_to_string(dir.join("g.yaml")).expect("the file");
    assert!(
        header.contains("options: {}\ntime-control:\n  days-per-move: 3\nplayers:\n"),
        "{header}"
    );
    sign(
        dir,
        "2026-03-02T12:00:00Z",
        "alice",
        &["play", "g.yaml", "e4"],
    );
    let status = at(dir, "2026-03-03T00:00:00Z", None, &["status", "g.yaml"]);
    let game_id = status
        .1
        .lines()
        .nth(1)
        .expect("the game id line")
        .to_owned();
    assert_eq!(
        status,
        (
            0,
            format!(
                "chess: alice (white) v bob (black)\n{game_id}\nrecords: 2 (last signed \
                 2026-03-02T12:00:00Z)\nposition: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR \
                 b KQkq - 0 1\nstatus: bob (black) to move\ntime control: 3 days per move, time \
                 not used not kept\nclocks: alice (white) 1d used, 3d left; bob (black) 0m \
                 used, 3d left (as of the last record)\ndeadline: bob (black) must act by \
                 2026-03-05T12:00:00Z (in 2d 12h)\nnext: bob (black): correspond play g.yaml \
                 MOVE\n"
            ),
            String::new()
        )
    );
    // verify says what the file says, with no now: the same at any time.
    assert_eq!(
        at(dir, "2030-01-01T00:00:00Z", None, &["verify", "g.yaml"]),
        (
            0,
            "g.yaml: valid: chess, alice (white) v bob (black), 2 records: in progress, bob \
             (black) to move\n  clocks: 3 days per move, time not used not kept: alice (white) \
             1d used, 3d left; bob (black) 0m used, 3d left; bob (black) must act by \
             2026-03-05T12:00:00Z\n1 file: 1 valid, 0 invalid\n"
                .to_owned(),
            String::new()
        )
    );
    let show = at(
        dir,
        "2030-01-01T00:00:00Z",
        None,
        &["show", "g.yaml", "--ascii"],
    )
    .1;
    assert!(
        show.starts_with(
            "g.yaml: alice (white) v bob (black), record 2 of 2\nbob (black) to move\nclocks: 3 \
             days per move, time not used not kept: alice (white) 1d used, 3d left; bob (black) \
             0m used, 3d left; bob (black) must act by 2026-03-05T12:00:00Z\n\n"
        ),
        "{show}"
    );
    let json = at(
        dir,
        "2030-01-01T00:00:00Z",
        None,
        &["verify", "--json", "g.yaml"],
    )
    .1;
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(
        json[0]["clocks"],
        serde_json::json!({
            "time_control": { "days_per_move": 3 },
            "used_seconds": [86_400, 0],
            "left_seconds": [259_200, 259_200],
            "deadline": { "seat": 1, "time": "2026-03-05T12:00:00Z" },
            "leave_days": 0,
            "leave_left_seconds": [0, 0],
            "on_leave_until": [null, null]
        })
    );
    // Too early, and by the wrong player: refused before anything is signed.
    let before = std::fs::read(dir.join("g.yaml")).expect("the file");
    assert_eq!(
        at(
            dir,
            "2026-03-05T12:00:00Z",
            Some("alice"),
            &["claim-timeout", "g.yaml"]
        ),
        (
            1,
            String::new(),
            "error: g.yaml: bob (black) has until 2026-03-05T12:00:00Z to act; it is \
             2026-03-05T12:00:00Z now\nhint: `correspond status g.yaml` shows the clocks\n"
                .to_owned()
        )
    );
    assert_eq!(
        at(
            dir,
            "2026-03-06T00:00:00Z",
            Some("bob"),
            &["claim-timeout", "g.yaml"]
        ),
        (
            1,
            String::new(),
            "error: g.yaml: the game waits for you (bob (black)), until 2026-03-05T12:00:00Z: it is \
             your clock that runs\n"
                .to_owned()
        )
    );
    assert_eq!(std::fs::read(dir.join("g.yaml")).expect("the file"), before);
    // Past the deadline, status says who may claim, and the claim ends the game.
    let late = at(dir, "2026-03-06T00:00:00Z", None, &["status", "g.yaml"]).1;
    assert!(
        late.contains(
            "\ndeadline: bob (black) must act by 2026-03-05T12:00:00Z (passed 12h ago: alice \
             (white) may claim the game on time with `correspond claim-timeout g.yaml`)\n"
        ),
        "{late}"
    );
    assert_eq!(
        sign(
            dir,
            "2026-03-06T00:00:00Z",
            "alice",
            &["claim-timeout", "g.yaml"]
        ),
        "record 3: alice (white) claims on time: bob (black) is past the deadline; game over: \
         white wins: bob (black) ran out of time\nnow: game over: white wins: bob (black) ran \
         out of time\n"
    );
    let (code, out, _) = at(dir, "2026-03-07T00:00:00Z", None, &["verify", "g.yaml"]);
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            "g.yaml: valid: chess, alice (white) v bob (black), 3 records: white wins: bob \
             (black) ran out of time\n  clocks: 3 days per move, time not used not kept: alice \
             (white) 1d used; bob (black) 3d 12h used\n1 file: 1 valid, 0 invalid\n"
        )
    );
    let pgn = at(dir, "2026-03-07T00:00:00Z", None, &["pgn", "g.yaml"]).1;
    assert!(
        pgn.contains("[Result \"1-0\"]\n") && pgn.contains("[Termination \"time forfeit\"]\n"),
        "{pgn}"
    );
    // Nothing follows the end, a late move included.
    let (code, _, err) = at(
        dir,
        "2026-03-07T00:00:00Z",
        Some("bob"),
        &["play", "g.yaml", "e5"],
    );
    assert_eq!(code, 1, "{err}");
}

#[test]
fn a_block_keeps_time_saved_and_a_withheld_toss_reveal_is_forfeited() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    create(dir, "campaign", "c.yaml", "heads", &["10/2"]);
    sign(dir, "2026-03-01T06:00:00Z", "bob", &["accept", "c.yaml"]);
    // alice owes the reveal of the opening toss; her clock runs.
    let status = at(dir, "2026-03-02T06:00:00Z", None, &["status", "c.yaml"]).1;
    assert!(
        status.contains(
            "\ntime control: 10 moves in 2 days, time saved carried over\nclocks: alice (heads) \
             0m used, 2d left; bob (tails) 0m used, 2d left (as of the last record)\ndeadline: \
             alice (heads) must act by 2026-03-03T06:00:00Z (in 1d)\n"
        ),
        "{status}"
    );
    assert_eq!(
        sign(
            dir,
            "2026-03-03T06:00:01Z",
            "bob",
            &["claim-timeout", "c.yaml"]
        ),
        "record 2: bob (tails) claims on time: alice (heads) is past the deadline; by forfeit, \
         bob (tails) wins the toss\nnow: bob (tails) won the toss: to move first or defer\n"
    );
    // bob moves first at once; alice's time was charged for the toss: 2d 1s of her 2 days.
    sign(
        dir,
        "2026-03-03T06:00:01Z",
        "bob",
        &["play", "c.yaml", "a6a5"],
    );
    let status = at(dir, "2026-03-03T07:00:00Z", None, &["status", "c.yaml"]).1;
    assert!(
        status.contains(
            "\nclocks: alice (heads) 2d used, 0m left; bob (tails) 0m used, 2d left (as of the \
             last record)\ndeadline: alice (heads) must act by 2026-03-03T06:00:00Z (passed \
             1h ago: bob (tails) may claim the game on time with `correspond claim-timeout \
             c.yaml`)\n"
        ),
        "{status}"
    );
}

#[test]
fn a_clock_behind_the_file_dates_the_record_at_the_last_ones_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    chess(dir, &["10/50"]);
    // alice's clock says 1 March, 11:00: an hour before bob's acceptance.
    assert_eq!(
        sign(
            dir,
            "2026-03-01T11:00:00Z",
            "alice",
            &["play", "g.yaml", "d4"]
        ),
        "this machine's clock (2026-03-01T11:00:00Z) is behind the last record's time \
         (2026-03-01T12:00:00Z): the record is dated 2026-03-01T12:00:00Z, since under a time \
         control the times of a game never go backwards\nrecord 2: alice (white) d4\nnow: bob \
         (black) to move\n"
    );
    let file = std::fs::read_to_string(dir.join("g.yaml")).expect("the file");
    assert!(
        file.ends_with(&format!(
            "kind: move\nmove: d2d4\ntime: \"2026-03-01T12:00:00Z\"\nsignature: {}",
            file.rsplit("signature: ").next().expect("a signature")
        )),
        "{file}"
    );
}

#[test]
fn leave_stops_a_clock_and_the_players_own_move_ends_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    create(dir, "chess", "g.yaml", "white", &["3/move", "--leave", "5"]);
    let header = std::fs::read_to_string(dir.join("g.yaml")).expect("the file");
    assert!(
        header.contains("time-control:\n  days-per-move: 3\n  leave-days: 5\nplayers:\n"),
        "{header}"
    );
    sign(dir, "2026-03-01T12:00:00Z", "bob", &["accept", "g.yaml"]);
    sign(
        dir,
        "2026-03-02T12:00:00Z",
        "alice",
        &["play", "g.yaml", "e4"],
    );
    // bob thinks a day, then takes two days of leave: his deadline moves by them.
    assert_eq!(
        sign(
            dir,
            "2026-03-03T12:00:00Z",
            "bob",
            &["leave", "g.yaml", "2"]
        ),
        "record 3: bob (black) takes 2 days of leave\nnow: bob (black) to move\n"
    );
    let status = at(dir, "2026-03-04T00:00:00Z", None, &["status", "g.yaml"]).1;
    assert!(
        status.contains(
            "\ntime control: 3 days per move, time not used not kept, 5 days of leave each\n\
             clocks: alice (white) 1d used, 3d left; bob (black) 1d used, 2d left (as of the last \
             record)\nleave: alice (white) 5d left; bob (black) on leave until \
             2026-03-05T12:00:00Z, 3d left\ndeadline: bob (black) must act by \
             2026-03-07T12:00:00Z (in 3d 12h)\n"
        ),
        "{status}"
    );
    // Once it has run out, the leave is said as ended, not as still under way.
    let status = at(dir, "2026-03-06T00:00:00Z", None, &["status", "g.yaml"]).1;
    assert!(
        status.contains(
            "\nleave: alice (white) 5d left; bob (black) 3d left (a leave ended \
             2026-03-05T12:00:00Z)\n"
        ),
        "{status}"
    );
    // Another leave while on leave, or more than is left, is refused before signing.
    assert_eq!(
        at(
            dir,
            "2026-03-04T00:00:00Z",
            Some("bob"),
            &["leave", "g.yaml", "1"]
        ),
        (
            1,
            String::new(),
            "error: g.yaml: you (bob (black)) are on leave until 2026-03-05T12:00:00Z\n".to_owned()
        )
    );
    assert_eq!(
        at(
            dir,
            "2026-03-04T00:00:00Z",
            Some("alice"),
            &["leave", "g.yaml", "6"]
        ),
        (
            1,
            String::new(),
            "error: g.yaml: you (alice (white)) have 5d of leave left, not 6 days\n".to_owned()
        )
    );
    // bob comes back early and moves: the day of leave not taken is his again, and the time
    // he was on leave is not charged.
    sign(
        dir,
        "2026-03-04T12:00:00Z",
        "bob",
        &["play", "g.yaml", "e5"],
    );
    let status = at(dir, "2026-03-04T12:00:00Z", None, &["status", "g.yaml"]).1;
    assert!(
        status.contains(
            "\nclocks: alice (white) 1d used, 3d left; bob (black) 1d used, 3d left (as of the \
             last record)\nleave: alice (white) 5d left; bob (black) 4d left\ndeadline: alice \
             (white) must act by 2026-03-07T12:00:00Z (in 3d)\n"
        ),
        "{status}"
    );
    let (code, out, err) = at(dir, "2026-03-04T12:00:00Z", None, &["verify", "g.yaml"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            "g.yaml: valid: chess, alice (white) v bob (black), 4 records: in progress, alice \
             (white) to move\n  clocks: 3 days per move, time not used not kept, 5 days of leave \
             each: alice (white) 1d used, 3d left; bob (black) 1d used, 3d left; leave: alice \
             (white) 5d left; bob (black) 4d left; alice (white) must act by \
             2026-03-07T12:00:00Z\n1 file: 1 valid, 0 invalid\n",
            ""
        )
    );
}

/// A leave cannot stop a clock that has run out: past the deadline it would move the deadline
/// into the future, out of the waiting claim's reach. `leave` refuses it before signing, and a
/// file holding one, signed by hand, does not verify; the claim on time stands.
#[test]
fn a_leave_past_the_deadline_is_refused_and_the_claim_stands() {
    use correspond::log::{Action, GameFile, Timestamp};
    use correspond::writer::{next_record, sign_record};
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    chess(dir, &["3/move", "--leave", "5"]);
    // alice's three days run from bob's acceptance, at noon on 1 March.
    let late = "2026-03-05T00:00:00Z";
    assert_eq!(
        at(dir, late, Some("alice"), &["leave", "g.yaml", "5"]),
        (
            1,
            String::new(),
            "error: g.yaml: you (alice (white)) are past your deadline (2026-03-04T12:00:00Z): a leave \
             cannot stop a clock that has run out\n\
             hint: what the game waits for from you still counts until your opponent claims the \
             game on time: sign it now\n"
                .to_owned()
        )
    );
    let text = std::fs::read_to_string(dir.join("g.yaml")).expect("read");
    let game = GameFile::parse(text.as_bytes()).expect("a game file");
    let seat = correspond::replay::seat_named(&game, "alice").expect("a player");
    let time = Timestamp::parse(late).expect("time");
    let record = next_record(&game, seat, Action::Leave(5), time);
    let key = ssh_key::PrivateKey::read_openssh_file(&keys_dir().join("alice")).expect("key");
    let signer = correspond::sign::KeySigner::new(key).expect("ed25519");
    let signed = format!("{text}{}", sign_record(&record, &signer).expect("sign"));
    std::fs::write(dir.join("left.yaml"), signed).expect("write");
    assert_eq!(
        at(dir, late, None, &["verify", "left.yaml"]),
        (
            1,
            "left.yaml: INVALID: record 2 (line 28): alice (white) is past their deadline \
             (2026-03-04T12:00:00Z): a leave cannot stop a clock that has run out\n\
             1 file: 0 valid, 1 invalid\n"
                .to_owned(),
            String::new()
        )
    );
    assert_eq!(
        sign(
            dir,
            "2026-03-06T00:00:00Z",
            "bob",
            &["claim-timeout", "g.yaml"]
        ),
        "record 2: bob (black) claims on time: alice (white) is past the deadline; game over: \
         black wins: alice (white) ran out of time\n\
         now: game over: black wins: alice (white) ran out of time\n"
    );
}

/// Past the deadline, `games` says the deadline has passed and gives the other player's claim
/// on time beside the late player's next step; `--mine` lists the game for the claimant too,
/// and the JSON row holds the claim.
#[test]
fn games_lists_a_claim_on_time_once_the_deadline_has_passed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    chess(dir, &["3/move"]);
    let bob_pub = keys_dir().join("bob.pub");
    let bob_pub = bob_pub.to_str().expect("UTF-8");
    let before = "2026-03-04T12:00:00Z";
    let after = "2026-03-04T12:00:01Z";
    let listing = |time: &str, args: &[&str]| {
        let mut all = vec!["games"];
        all.extend(args);
        at(dir, time, None, &all)
    };
    let head = "g.yaml: chess, alice (white) v bob (black)\n  alice (white) to move, by \
                2026-03-04T12:00:00Z";
    let last = "; last record 2026-03-01T12:00:00Z\n  next: alice (white): correspond play \
                g.yaml MOVE\n";
    assert_eq!(
        listing(before, &[]),
        (0, format!("{head}{last}"), String::new())
    );
    assert_eq!(
        listing(before, &["--mine", "--key", bob_pub]),
        (0, "no game waits for you\n".to_owned(), String::new())
    );
    let overdue = format!(
        "{head} (passed){last}  or a claim on time: bob (black): correspond claim-timeout \
         g.yaml\n"
    );
    assert_eq!(listing(after, &[]), (0, overdue.clone(), String::new()));
    assert_eq!(
        listing(after, &["--mine", "--key", bob_pub]),
        (0, overdue, String::new())
    );
    let (code, json, _) = listing(after, &["--json"]);
    assert_eq!(code, 0);
    let rows: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(
        rows[0]["claim"],
        "bob (black): correspond claim-timeout g.yaml"
    );
    let (_, json, _) = listing(before, &["--json"]);
    let rows: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(rows[0]["claim"], serde_json::Value::Null);
}

/// `CORRESPOND_TIME` takes any RFC 3339 time (an offset, as `date -Iseconds` prints it, or a
/// fraction of a second): the same moment in UTC, in whole seconds. Anything else is refused,
/// saying what would do.
#[test]
fn the_pinned_time_is_any_rfc_3339_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    chess(dir, &["3/move"]);
    let utc = at(dir, "2026-03-02T12:00:00Z", None, &["status", "g.yaml"]);
    assert_eq!(utc.0, 0, "{utc:?}");
    for same in ["2026-03-02T14:00:00+02:00", "2026-03-02T12:00:00.75z"] {
        assert_eq!(at(dir, same, None, &["status", "g.yaml"]), utc, "{same}");
    }
    for wrong in [
        "2026-03-02 12:00",
        "1969-12-31T23:59:59Z",
        "tomorrow\u{1b}[2J",
    ] {
        let shown = wrong.replace('\u{1b}', "\\u{1b}");
        assert_eq!(
            at(dir, wrong, None, &["status", "g.yaml"]),
            (
                2,
                String::new(),
                format!(
                    "error: CORRESPOND_TIME is `{shown}`, not an RFC 3339 time such as \
                     2026-01-31T18:05:00Z or 2026-01-31T20:05:00+02:00\n"
                )
            ),
            "{wrong}"
        );
    }
}

/// A claim on time and the late move cross in the mail: the move stands, and the claim, void,
/// is passed over as what it is: a claim is never signed again, since the move answers it.
#[test]
fn a_claim_crossed_by_the_late_move_is_passed_over_and_not_signed_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    chess(dir, &["3/move"]);
    std::fs::copy(dir.join("g.yaml"), dir.join("bob.yaml")).expect("copy");
    sign(
        dir,
        "2026-03-05T00:00:00Z",
        "bob",
        &["claim-timeout", "bob.yaml"],
    );
    sign(
        dir,
        "2026-03-05T01:00:00Z",
        "alice",
        &["play", "g.yaml", "e4"],
    );
    let (code, message, err) = at(
        dir,
        "2026-03-05T02:00:00Z",
        None,
        &["mail", "bob.yaml", "--from", "bob@example.org"],
    );
    assert_eq!(code, 0, "{err}");
    std::fs::write(dir.join("claim.eml"), message).expect("write");
    let (code, out, err) = at(
        dir,
        "2026-03-05T02:00:00Z",
        None,
        &["receive", "g.yaml", "claim.eml", "--no-commit"],
    );
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(
        out.contains(
            "its record 2 (bob: claim-timeout) crossed the record 2 already received (signed by \
             alice, whom the game awaited) and is void by the crossing rule: a claim on time is \
             not signed again: the record that stands answers it"
        ),
        "{out}"
    );
}
