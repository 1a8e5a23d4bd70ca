//! The pages `correspond html` writes, opened from `file://` in headless Chromium: a harness
//! page holds each in a frame, presses Home, → through every record, ← back, and End, clicks
//! a record in the list and the buttons, and writes down the position each press shows and the board the page's script drew (each
//! square's look where it is used, and the caption lines). Every position is the program's own
//! at that record (`show --json --at`), every board drawn is that record's SVG square by square
//! (read back by tests/integration/readback.rs), and no script fails. A screenshot of a page is
//! taken too.
//!
//! Chromium is `chromium-headless-shell` or `chromium` on the PATH, or `$CHROME`. Where there
//! is none, the test says plainly that it was skipped; `.ci/run` installs it and sets
//! `CORRESPOND_REQUIRE_TOOLS`, which turns the skip into a failure.

use crate::util::{chess_accepted, signed, stdout_of};
use std::path::{Path, PathBuf};

/// The browser, if there is one.
pub(crate) fn chromium() -> Option<PathBuf> {
    let named = std::env::var_os("CHROME").map(PathBuf::from);
    let found = named.into_iter().chain(
        [
            "chromium-headless-shell",
            "chromium",
            "chrome-headless-shell",
        ]
        .iter()
        .filter_map(|name| {
            std::env::var_os("PATH").and_then(|path| {
                std::env::split_paths(&path)
                    .map(|dir| dir.join(name))
                    .find(|p| p.is_file())
            })
        }),
    );
    let found = found.into_iter().next();
    if found.is_none() {
        assert!(
            std::env::var_os("CORRESPOND_REQUIRE_TOOLS").is_none(),
            "no headless Chromium (chromium-headless-shell, chromium or $CHROME), and \
             CORRESPOND_REQUIRE_TOOLS says every test must run"
        );
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            b"SKIPPED: the browser tests need headless Chromium (apt-get install \
              chromium-headless-shell), which is not installed\n",
        );
    }
    found
}

/// Runs Chromium on `url` with `args`, in a profile of its own; its stdout and stderr.
pub(crate) fn run(browser: &Path, profile: &Path, args: &[&str], url: &str) -> (String, String) {
    let out = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--allow-file-access-from-files",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .output()
        .expect("run Chromium");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The harness: the page in a frame, the keys pressed in order once it has loaded, and what
/// each shows written into `#result` as one line per press: `record position`.
const HARNESS: &str = r#"<!DOCTYPE html>
<html><head><meta charset="utf-8"/></head><body>
<iframe id="page" src="PAGE" style="width:1100px;height:800px"></iframe>
<pre id="result">not loaded</pre>
<pre id="drawn"></pre>
<script>
var frame = document.getElementById('page');
frame.addEventListener('load', function () {
  var w = frame.contentWindow, d = frame.contentDocument, out = [];
  function shown() {
    var all = [].slice.call(d.querySelectorAll('figure'));
    var visible = all.filter(function (f) { return w.getComputedStyle(f).display !== 'none'; });
    if (visible.length !== 1) return 'shown: ' + visible.length + ' pictures';
    return visible[0].getAttribute('data-record') + ' ' + visible[0].getAttribute('data-position');
  }
  var boards = [];
  // The board the script drew, each square's look put where it is used (a nested <svg> at the
  // square's corner), and the caption lines: what a reader sees, for the test to read back.
  function drawn() {
    var svg = d.querySelector('figure svg');
    var out = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="' +
      svg.getAttribute('viewBox') + '">';
    [].forEach.call(svg.querySelectorAll('use'), function (u) {
      var look = d.getElementById((u.getAttribute('href') || '').slice(1));
      out += '<svg x="' + u.getAttribute('x') + '" y="' + u.getAttribute('y') + '">' +
        (look ? look.innerHTML : '') + '</svg>';
    });
    [].forEach.call(svg.querySelectorAll('text[font-size="13"]'), function (t) {
      out += '<text font-size="13">' + t.textContent.replace(/&/g, '&amp;').replace(/</g, '&lt;') + '</text>';
    });
    return encodeURIComponent(out + '</svg>');
  }
  function press(key) {
    d.dispatchEvent(new w.KeyboardEvent('keydown', { key: key, bubbles: true }));
    out.push(key + ' ' + shown());
    boards.push(drawn());
  }
  function tap(name, element) {
    element.click();
    out.push(name + ' ' + shown());
    boards.push(drawn());
  }
  var nav = d.querySelector('nav');
  out.push('loaded ' + shown() + (nav && !nav.hidden ? '' : ' (the script did not run)'));
  var n = d.querySelectorAll('.records li').length;
  press('Home');
  for (var i = 1; i < n + 1; i++) press('ArrowRight');
  for (var j = 0; j < 2; j++) press('ArrowLeft');
  press('End');
  var links = d.querySelectorAll('.records li a');
  tap('link1', links[Math.min(1, links.length - 1)]);
  tap('forward', d.getElementById('forward'));
  tap('first', d.getElementById('first'));
  tap('last', d.getElementById('last'));
  document.getElementById('result').textContent = out.join('\n');
  document.getElementById('drawn').textContent = boards.join('\n');
});
</script></body></html>
"#;

/// The keys the harness presses (and what it clicks) and the record each should show, for a
/// game of `records` records and its header.
fn presses(records: usize) -> Vec<(&'static str, usize)> {
    let last = records;
    let mut presses = vec![("Home", 0)];
    // One press more than there are records: the last stays shown.
    for k in 1..=records + 1 {
        presses.push(("ArrowRight", k.min(last)));
    }
    for k in [last.saturating_sub(1), last.saturating_sub(2)] {
        presses.push(("ArrowLeft", k));
    }
    presses.push(("End", last));
    // Then clicks: the second record's link in the list, and the buttons.
    presses.push(("link1", 1.min(last)));
    presses.push(("forward", 2.min(last)));
    presses.push(("first", 0));
    presses.push(("last", last));
    presses
}

/// What the harness should write for a game of `positions` (by record).
fn expected(positions: &[String]) -> Vec<String> {
    let last = positions.len() - 1;
    let at = |k: usize| format!("{k} {}", positions[k]);
    let mut lines = vec![format!("loaded {}", at(last))];
    for (key, k) in presses(last) {
        lines.push(format!("{key} {}", at(k)));
    }
    lines
}

/// `%XX` escapes undone (what `encodeURIComponent` wrote).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).expect("ASCII");
            out.push(u8::from_str_radix(hex, 16).expect("a hex byte"));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("UTF-8")
}

/// Writes the page of the game file `name` into `dir` as `page{n}.html`, steps through it in
/// the browser, and holds every position shown to the program's own at that record.
pub(crate) fn step_through(browser: &Path, dir: &Path, name: &str, n: usize) {
    let page = dir.join(format!("game{n}.html"));
    stdout_of(&["html", name, "-o", page.to_str().expect("UTF-8")]);
    let status: serde_json::Value =
        serde_json::from_str(&stdout_of(&["status", name, "--json"])).expect("JSON");
    let records = status["records"].as_u64().expect("records");
    let positions: Vec<String> = (0..=records)
        .map(|k| {
            let at = k.to_string();
            let shown: serde_json::Value =
                serde_json::from_str(&stdout_of(&["show", name, "--json", "--at", &at]))
                    .expect("JSON");
            shown["position"].as_str().expect("a position").to_owned()
        })
        .collect();
    let harness = dir.join(format!("harness{n}.html"));
    std::fs::write(&harness, HARNESS.replace("PAGE", &format!("game{n}.html")))
        .expect("write the harness");
    let (dom, log) = run(
        browser,
        &dir.join("profile"),
        &["--virtual-time-budget=5000", "--dump-dom"],
        &format!("file://{}", harness.display()),
    );
    let result = dom
        .split("<pre id=\"result\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| panic!("{name}: no result in\n{dom}\n{log}"));
    let got: Vec<String> = result.lines().map(|l| l.replace("&amp;", "&")).collect();
    assert_eq!(got, expected(&positions), "{name}\n{log}");
    // Each board the script drew is the program's own SVG of that record, square by square,
    // and its caption lines are the SVG's own (which adds the file's lines after them).
    let drawn = dom
        .split("<pre id=\"drawn\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| panic!("{name}: no boards in\n{dom}"));
    let presses = presses(positions.len() - 1);
    assert_eq!(drawn.lines().count(), presses.len(), "{name}");
    let mut svgs = std::collections::BTreeMap::new();
    for ((key, k), board) in presses.iter().zip(drawn.lines()) {
        let board = percent_decoded(board);
        let svg = svgs
            .entry(*k)
            .or_insert_with(|| stdout_of(&["show", name, "--at", &k.to_string(), "--svg"]));
        let what = format!("{name}: {key} to record {k}");
        assert_eq!(
            crate::readback::from_svg(&board).1,
            crate::readback::from_svg(svg).1,
            "{what}\n{board}"
        );
        let (drawn, own) = (
            crate::readback::captions(&board),
            crate::readback::captions(svg),
        );
        assert!(
            !drawn.is_empty() && own.starts_with(&drawn),
            "{what}: {drawn:?} {own:?}"
        );
    }
    // The page writes nothing to the console: every line there is an error or a warning (an
    // uncaught exception among them).
    for line in log.lines() {
        assert!(!line.contains(":CONSOLE"), "{name}: {line}");
    }
}

#[test]
fn every_example_game_steps_through_in_a_real_browser() {
    let Some(browser) = chromium() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let files = crate::json::example_games();
    assert!(files.len() >= 18, "{} example games", files.len());
    for (n, file) in files.iter().enumerate() {
        step_through(&browser, dir.path(), file.to_str().expect("UTF-8"), n);
    }
}

/// Games the project has never seen, played here: a chess game going on under a clock, with
/// comments; a Guerrilla Checkers game; an Insurrection game with a coup.
#[test]
fn games_played_here_step_through_in_a_real_browser() {
    let Some(browser) = chromium() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let time = "2026-03-01T12:00:00Z";
    chess_accepted(dir, time, "g.yaml", &["--time-control", "3/move"]);
    for (who, mv) in [
        ("alice", "d4"),
        ("bob", "Nf6"),
        ("alice", "c4"),
        ("bob", "e6"),
    ] {
        signed(
            dir,
            time,
            who,
            &["play", "g.yaml", mv, "-m", "<b>&amp; a comment</b>"],
        );
    }
    let bob = crate::util::keys_dir().join("bob.pub");
    let bob = bob.to_str().expect("UTF-8");
    for (game, side, moves) in [
        (
            "guerrilla",
            "guerrilla",
            ["c3,d3", "e6-d7", "b3,b2"].as_slice(),
        ),
        (
            "insurrection",
            "white",
            &["d4", "b5", "Bg5", "Nc6", "Bxe7", "Nxd4", "exd8+", "Kxd8"],
        ),
    ] {
        let file = format!("{game}.yaml");
        let new = [
            "new",
            game,
            &file,
            "--name",
            "alice",
            "--side",
            side,
            "--opponent",
            "bob",
        ];
        let mut new = new.to_vec();
        new.extend(["--opponent-key", bob]);
        signed(dir, time, "alice", &new);
        signed(dir, time, "bob", &["accept", &file]);
        let first = if side == "guerrilla" || side == "white" {
            "alice"
        } else {
            "bob"
        };
        for (i, mv) in moves.iter().enumerate() {
            let who = if (i % 2 == 0) == (first == "alice") {
                "alice"
            } else {
                "bob"
            };
            signed(dir, time, who, &["play", &file, mv]);
        }
    }
    for (n, name) in ["g.yaml", "guerrilla.yaml", "insurrection.yaml"]
        .iter()
        .enumerate()
    {
        let path = dir.join(name);
        step_through(&browser, dir, path.to_str().expect("UTF-8"), n);
    }
}

#[test]
fn a_screenshot_of_a_page() {
    let Some(browser) = chromium() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let page = dir.path().join("opera.html");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    stdout_of(&[
        "html",
        root.join("games/chess/morphy-opera-game-1858.yaml")
            .to_str()
            .expect("UTF-8"),
        "-o",
        page.to_str().expect("UTF-8"),
    ]);
    let shot = dir.path().join("opera.png");
    run(
        &browser,
        &dir.path().join("profile"),
        &[
            "--window-size=1100,800",
            &format!("--screenshot={}", shot.display()),
        ],
        &format!("file://{}", page.display()),
    );
    let png = std::fs::read(&shot).expect("a screenshot");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    // 1100 by 800, as asked: the width and height in the PNG's header.
    assert_eq!(
        (&png[16..20], &png[20..24]),
        (&1100u32.to_be_bytes()[..], &800u32.to_be_bytes()[..])
    );
}
