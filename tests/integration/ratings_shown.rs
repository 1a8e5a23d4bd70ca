//! Ratings where players look: `standings`, `games` and `site` with `--ratings` show each
//! player's rating from the same list `correspond ratings` makes of the same games (held equal
//! here, key by key), their JSON held to its schemas, and the site's rating list and history
//! pages, each chart read back against the figures its page lists.

use crate::util::{correspond, transcript};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The example games of chess, named from the repository's root; the clock pinned so that what
/// `games` says of deadlines does not move.
fn run(args: &[&str]) -> (i32, String, String) {
    transcript(
        correspond()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("CORRESPOND_TIME", "2026-04-01T12:00:00Z")
            .args(args),
    )
}

fn validator(name: &str) -> jsonschema::Validator {
    jsonschema::options()
        .with_retriever(crate::schema::Local(crate::schema::schema(
            "header.schema.json",
        )))
        .build(&crate::schema::schema(name))
        .expect("a valid schema")
}

fn held(name: &str, value: &Value) {
    let errors: Vec<String> = validator(name)
        .iter_errors(value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{name}: {errors:?}");
}

/// Each key's rating in the chess list of `correspond ratings --json`, to two decimals.
fn listed() -> BTreeMap<String, f64> {
    let (code, out, _) = run(&["ratings", "games/chess", "--json"]);
    assert_eq!(code, 0);
    let json: Value = serde_json::from_str(&out).expect("JSON");
    let chess = json["lists"]
        .as_array()
        .expect("lists")
        .iter()
        .find(|l| l["game"] == "chess")
        .expect("a chess list");
    chess["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| {
            (
                p["key"].as_str().expect("key").to_owned(),
                p["rating"].as_f64().expect("rating"),
            )
        })
        .collect()
}

#[test]
fn standings_and_games_show_the_ratings_the_list_makes() {
    let (code, standings, err) = run(&["standings", "games/chess", "--ratings"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let (code, games, err) = run(&["games", "games/chess/club-championship-2026", "--ratings"]);
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!(
        "ratings_shown",
        format!(
            "$ correspond standings games/chess --ratings\n{standings}\n\
             $ correspond games games/chess/club-championship-2026 --ratings\n{games}"
        )
    );
    // Without the option, neither says a word of ratings.
    let (_, plain, _) = run(&["standings", "games/chess"]);
    assert!(!plain.contains("rating"), "{plain}");

    // The JSON, held to its schemas, gives the list's own numbers, key by key.
    let list = listed();
    let (code, out, _) = run(&["standings", "games/chess", "--ratings", "--json"]);
    assert_eq!(code, 0);
    let json: Value = serde_json::from_str(&out).expect("JSON");
    held("standings.schema.json", &json);
    let shown: BTreeMap<String, f64> = json["ratings"]
        .as_array()
        .expect("ratings")
        .iter()
        .filter(|r| r["game"] == "chess")
        .map(|r| {
            (
                r["key"].as_str().expect("key").to_owned(),
                r["rating"].as_f64().expect("rating"),
            )
        })
        .collect();
    assert_eq!(shown, list);
    let (code, out, _) = run(&["games", "games/chess", "--ratings", "--json"]);
    assert_eq!(code, 0);
    let rows: Value = serde_json::from_str(&out).expect("JSON");
    held("games.schema.json", &rows);
    let mut seen = 0;
    for row in rows.as_array().expect("rows") {
        for player in row["players"].as_array().into_iter().flatten() {
            if let Some(rating) = player["rating"].as_f64() {
                assert_eq!(
                    Some(&rating),
                    list.get(player["key"].as_str().expect("key"))
                );
                seen += 1;
            }
        }
    }
    assert!(seen >= 10, "{seen}");
}

#[test]
fn rules_that_cannot_be_read_are_said_and_nothing_is_shown() {
    let (code, out, err) = run(&[
        "standings",
        "games/chess",
        "--rating-rules",
        "no-such-rules.yaml",
    ]);
    assert_eq!((code, out.as_str()), (2, ""));
    insta::assert_snapshot!("ratings_shown_no_rules", err);
}

/// The numbers of a player page's table: (rating, deviation) by period.
fn table_figures(page: &str) -> Vec<f64> {
    let table = page
        .split("<table class=\"history\">")
        .nth(1)
        .expect("a history table");
    table
        .split("<tr><td>")
        .skip(1)
        .map(|row| {
            let cells: Vec<&str> = row.split("</td><td>").collect();
            cells[1].parse().expect("a rating")
        })
        .collect()
}

/// The ratings a chart draws, read from its circles against its marks.
fn chart_figures(page: &str) -> Vec<f64> {
    let start = page.find("<svg").expect("a chart");
    let end = page.find("</svg>").expect("its end") + "</svg>".len();
    let doc = roxmltree::Document::parse(&page[start..end]).expect("well-formed SVG");
    let number = |n: roxmltree::Node<'_, '_>, a: &str| -> f64 {
        n.attribute(a)
            .and_then(|v| v.parse().ok())
            .expect("a number")
    };
    let marks: Vec<(f64, f64)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("mark"))
        .map(|n| {
            let value: f64 = n.text().and_then(|t| t.parse().ok()).expect("a value");
            (value, number(n, "y") - 4.0)
        })
        .collect();
    let (low, high) = (marks[0], marks[marks.len() - 1]);
    let per_unit = (high.0 - low.0) / (high.1 - low.1);
    assert!(
        !doc.descendants()
            .any(|n| n.has_tag_name("script") || n.attribute("href").is_some())
    );
    doc.descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|n| low.0 + (number(n, "cy") - low.1) * per_unit)
        .collect()
}

#[test]
fn the_site_gains_a_rating_list_and_a_history_chart_per_player() {
    let dir = tempfile::tempdir().expect("temp dir");
    let site = dir.path().join("site");
    let (code, out, err) = run(&[
        "site",
        "games/chess",
        "--ratings",
        "-o",
        site.to_str().expect("a path"),
    ]);
    assert_eq!((code, err.as_str()), (0, ""));
    let said = format!(
        "and ratings.html with 5 rating history pages into {}\n",
        correspond::text::path(&site)
    );
    assert!(out.ends_with(&said), "{out}");
    let index = std::fs::read_to_string(site.join("index.html")).expect("index");
    assert!(index.contains("<a href=\"ratings.html\">Ratings</a>"));
    let list_page = std::fs::read_to_string(site.join("ratings.html")).expect("the list");
    let list = listed();
    let mut pages = 0;
    for row in list_page.split("<tr><td>").skip(1) {
        let href = row
            .split("<a href=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .expect("a link to the player's page");
        let key = row
            .split("<code>")
            .nth(1)
            .and_then(|r| r.split("</code>").next())
            .expect("the key");
        let page = std::fs::read_to_string(site.join(href)).expect("the player's page");
        let table = table_figures(&page);
        let drawn = chart_figures(&page);
        assert_eq!(table.len(), drawn.len(), "{href}");
        for (t, d) in table.iter().zip(&drawn) {
            assert!((t - d).abs() < 0.3, "{href}: {t} drawn as {d}");
        }
        // The history ends at the list's own rating.
        let last = table.last().expect("a point");
        assert!(
            (last - list[key]).abs() < 0.06,
            "{href}: {last} v {}",
            list[key]
        );
        pages += 1;
    }
    assert_eq!(pages, list.len());
    // Without --ratings there is no rating page.
    let plain = dir.path().join("plain");
    let (code, _, _) = run(&["site", "games/chess", "-o", plain.to_str().expect("a path")]);
    assert_eq!(code, 0);
    assert!(!Path::new(&plain.join("ratings.html")).exists());
}
