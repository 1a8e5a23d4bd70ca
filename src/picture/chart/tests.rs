//! Charts read back: each point's rating recovered from where the circle is drawn against the
//! axis's own marks (not from an attribute that states it), every rating within what one
//! decimal of a pixel holds; no script or outside reference; hostile text stays text; the same
//! history gives the same bytes.

use super::rating_chart;
use crate::ratings::list::Point;

fn history() -> Vec<Point> {
    let day = 86_400;
    [
        (1_772_409_600, 1662.3, 290.2),
        (1_772_409_600 + 30 * day, 1590.8, 221.7),
        (1_772_409_600 + 90 * day, 1704.1, 180.4),
        (1_772_409_600 + 120 * day, 1688.0, 151.5),
    ]
    .into_iter()
    .map(|(end, rating, deviation)| Point {
        end,
        rating,
        deviation: Some(deviation),
    })
    .collect()
}

fn number(node: roxmltree::Node<'_, '_>, attribute: &str) -> f64 {
    node.attribute(attribute)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{attribute} of {node:?}"))
}

/// The ratings the chart draws, read from the circles' heights by the axis's marks.
fn read_back(svg: &str) -> Vec<f64> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let marks: Vec<(f64, f64)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("mark"))
        .map(|n| {
            let value: f64 = n
                .text()
                .and_then(|t| t.parse().ok())
                .expect("a mark's value");
            // A mark's text sits 4 units under its line.
            (value, number(n, "y") - 4.0)
        })
        .collect();
    assert!(marks.len() >= 2, "{marks:?}");
    let (low, high) = (marks[0], marks[marks.len() - 1]);
    let per_unit = (high.0 - low.0) / (high.1 - low.1);
    doc.descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|n| low.0 + (number(n, "cy") - low.1) * per_unit)
        .collect()
}

#[test]
fn each_point_is_drawn_where_its_rating_is_on_the_axis() {
    let points = history();
    let svg = rating_chart("alice (chess)", &points);
    let drawn = read_back(&svg);
    assert_eq!(drawn.len(), points.len());
    for (p, got) in points.iter().zip(&drawn) {
        // A tenth of a unit is at most a quarter of a rating point on this scale.
        assert!((p.rating - got).abs() < 0.25, "{} drawn as {got}", p.rating);
    }
    // Later points further right.
    let doc = roxmltree::Document::parse(&svg).expect("SVG");
    let xs: Vec<f64> = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|n| number(n, "cx"))
        .collect();
    assert!(xs.windows(2).all(|w| w[0] < w[1]), "{xs:?}");
    // The band holds every point's deviation either side.
    let band = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("deviation"))
        .expect("a band");
    let corners = band.attribute("points").expect("points").split(' ').count();
    assert_eq!(corners, 2 * points.len());
}

#[test]
fn a_chart_fetches_nothing_runs_nothing_and_keeps_hostile_text_as_text() {
    let svg = rating_chart("<script>alert(1)</script> & \"x\"", &history());
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    for node in doc.descendants() {
        assert!(!node.has_tag_name("script") && !node.has_tag_name("image"));
        assert!(
            node.attributes()
                .all(|a| a.name() != "href" && !a.name().starts_with("on")),
            "{node:?}"
        );
    }
    let title = doc
        .descendants()
        .find(|n| n.has_tag_name("title"))
        .and_then(|n| n.text())
        .expect("a title");
    assert_eq!(title, "Rating history of <script>alert(1)</script> & \"x\"");
}

#[test]
fn the_same_history_gives_the_same_bytes_and_no_game_says_so() {
    let svg = rating_chart("alice (chess)", &history());
    assert_eq!(svg, rating_chart("alice (chess)", &history()));
    assert_eq!(
        crate::digest::Digest::of(svg.as_bytes()).to_string(),
        "2897f031fffb1d61f4e651f1e359efc768aafb35bb6dc9970d6ac9b277f10490"
    );
    let empty = rating_chart("bob (chess)", &[]);
    assert!(empty.contains(">No rated game yet</text>"), "{empty}");
    assert!(read_back_is_empty(&empty));
}

fn read_back_is_empty(svg: &str) -> bool {
    let doc = roxmltree::Document::parse(svg).expect("SVG");
    !doc.descendants().any(|n| n.has_tag_name("circle"))
}
