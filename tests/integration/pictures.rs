//! `show --svg`: a standalone SVG document for every game, read by another program's XML
//! parser: well-formed, in SVG's namespace, nothing fetched from elsewhere (no image, script or
//! reference outside the document), the position it draws in a data attribute that agrees with
//! `correspond position`, the same bytes on every run, and text from the file escaped. The
//! pictures themselves are snapshots, one per game, looked at when they were taken.

use crate::util::{chess_accepted, signed, stdout_of};
use std::path::Path;

fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Checks a picture as a browser would need it to be, and returns the position it draws.
#[track_caller]
fn check(svg: &str, what: &str) -> String {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{what}: {e}\n{svg}"));
    let root = doc.root_element();
    assert_eq!(
        (root.tag_name().namespace(), root.tag_name().name()),
        (Some("http://www.w3.org/2000/svg"), "svg"),
        "{what}"
    );
    let view: Vec<u32> = root
        .attribute("viewBox")
        .expect("a viewBox")
        .split(' ')
        .map(|n| n.parse().expect("a number"))
        .collect();
    assert_eq!(view.len(), 4, "{what}");
    for node in doc.descendants().filter(roxmltree::Node::is_element) {
        let name = node.tag_name().name();
        assert!(
            !["image", "script", "foreignObject", "style", "a"].contains(&name),
            "{what}: a <{name}>"
        );
        for attribute in node.attributes() {
            if attribute.name() == "href" {
                assert!(
                    attribute.value().starts_with('#'),
                    "{what}: {}",
                    attribute.value()
                );
                let target = &attribute.value()[1..];
                assert!(
                    doc.descendants().any(|n| n.attribute("id") == Some(target)),
                    "{what}: #{target} is defined"
                );
            }
            assert!(!attribute.value().contains("url(http"), "{what}");
        }
    }
    root.attribute("data-position")
        .expect("the position")
        .to_owned()
}

#[test]
fn every_example_game_draws_as_a_standalone_svg_of_its_position() {
    let files = crate::json::example_games();
    assert!(files.len() >= 18, "{} example games", files.len());
    for file in files {
        let name = file.to_str().expect("UTF-8");
        let svg = stdout_of(&["show", name, "--svg"]);
        let drawn = check(&svg, name);
        let position = stdout_of(&["position", name]);
        assert_eq!(Some(drawn.as_str()), position.lines().next(), "{name}");
        assert_eq!(
            stdout_of(&["show", name, "--svg"]),
            svg,
            "{name}: the same bytes"
        );
        let flipped = stdout_of(&["show", name, "--svg", "--flip"]);
        assert_eq!(check(&flipped, name), drawn, "{name} turned round");
        assert_ne!(flipped, svg, "{name}: turned round is another picture");
    }
}

#[test]
fn every_record_of_a_game_of_each_kind_draws() {
    for name in [
        "games/campaign/run-off-claim.yaml",
        "games/guerrilla/anti-stall.yaml",
        "games/insurrection/assassination-draw-agreed.yaml",
        "games/chess/threefold-repetition-claimed.yaml",
    ] {
        let path = here().join(name);
        let path = path.to_str().expect("UTF-8");
        let status: serde_json::Value =
            serde_json::from_str(&stdout_of(&["status", path, "--json"])).expect("JSON");
        let records = status["records"].as_u64().expect("records");
        for at in 0..=records {
            let at = at.to_string();
            let svg = stdout_of(&["show", path, "--svg", "--at", &at]);
            let json: serde_json::Value =
                serde_json::from_str(&stdout_of(&["show", path, "--json", "--at", &at]))
                    .expect("JSON");
            assert_eq!(check(&svg, name), json["position"], "{name} at {at}");
        }
    }
}

/// A comment is text from another player: in the picture it is text, not markup.
#[test]
fn a_comment_with_markup_is_text_in_the_picture() {
    let dir = tempfile::tempdir().expect("temp dir");
    let time = "2026-03-01T12:00:00Z";
    chess_accepted(dir.path(), time, "g.yaml", &[]);
    let markup = "<script>alert(1)</script> & <b>bold</b>";
    signed(
        dir.path(),
        time,
        "alice",
        &["play", "g.yaml", "e4", "-m", markup],
    );
    let svg = stdout_of(&[
        "show",
        dir.path().join("g.yaml").to_str().expect("UTF-8"),
        "--svg",
    ]);
    check(&svg, "the game");
    let doc = roxmltree::Document::parse(&svg).expect("XML");
    let texts: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(str::to_owned))
        .collect();
    let said = format!("alice (white) says \"{markup}\"");
    // Wrapped under the board, the words are all there, in order, as text.
    let joined = texts.join(" ");
    assert!(joined.contains(&said), "{joined}");
    assert!(!svg.contains("<script>"), "{svg}");
}

#[test]
fn a_picture_of_each_game() {
    let svg = |args: &[&str]| stdout_of(args);
    insta::assert_snapshot!(
        "chess",
        svg(&[
            "show", "chess", "--svg", "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"
        ])
    );
    insta::assert_snapshot!(
        "campaign",
        svg(&["show", "campaign", "--svg", "c2c3", "c6c5", "b1e4"])
    );
    insta::assert_snapshot!(
        "guerrilla",
        svg(&["show", "guerrilla", "--svg", "c3,d3", "e6-d7"])
    );
    insta::assert_snapshot!(
        "insurrection",
        svg(&[
            "show",
            "insurrection",
            "--svg",
            "--flip",
            "--position",
            "2b2r2/5p1p/3p3k/1b4P1/q2N3N/8/P6P/R2NQ1K1 b - - 0 1 Kk",
            "Kxg5",
        ])
    );
}
