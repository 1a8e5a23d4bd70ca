//! A player's rating history as an SVG chart: the rating after each rating period they played
//! in, joined by a line, with the band of one deviation either side where the system has one
//! (Glicko-2). Drawn here, with no script, font file or image fetched; the same history gives
//! the same bytes on every machine (every coordinate written with one decimal).

use super::escape;
use crate::log::Timestamp;
use crate::ratings::list::Point;
use std::fmt::Write as _;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 320.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 44.0;
const BOTTOM: f64 = 40.0;

/// The steps the rating axis is marked in, the first that gives at most eight marks.
const STEPS: [f64; 8] = [10.0, 25.0, 50.0, 100.0, 200.0, 250.0, 500.0, 1000.0];

/// The chart of `points` (in time order), titled `title` (a player's name and the game).
#[must_use]
pub fn rating_chart(title: &str, points: &[Point]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"{}\">",
        escape(&format!("Rating history of {title}"))
    );
    let _ = writeln!(
        out,
        "<title>{}</title>",
        escape(&format!("Rating history of {title}"))
    );
    let _ = writeln!(
        out,
        "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#ffffff\"/>\n<text x=\"{LEFT:.1}\" \
         y=\"24\" font-family=\"sans-serif\" font-size=\"15\" fill=\"#222222\">{}</text>",
        escape(title)
    );
    let Some(scale) = Scale::of(points) else {
        let _ = writeln!(
            out,
            "<text x=\"{LEFT:.1}\" y=\"{:.1}\" font-family=\"sans-serif\" font-size=\"13\" \
             fill=\"#555555\">No rated game yet</text>\n</svg>",
            HEIGHT / 2.0
        );
        return out;
    };
    axes(&mut out, &scale);
    let xy = |p: &Point, r: f64| format!("{:.1},{:.1}", scale.x(p.end), scale.y(r));
    if points.iter().all(|p| p.deviation.is_some()) {
        let upper = points
            .iter()
            .map(|p| xy(p, p.rating + p.deviation.unwrap_or(0.0)));
        let lower = points
            .iter()
            .rev()
            .map(|p| xy(p, p.rating - p.deviation.unwrap_or(0.0)));
        let band: Vec<String> = upper.chain(lower).collect();
        let _ = writeln!(
            out,
            "<polygon class=\"deviation\" points=\"{}\" fill=\"#3b6ea5\" fill-opacity=\"0.15\"/>",
            band.join(" ")
        );
    }
    let line: Vec<String> = points.iter().map(|p| xy(p, p.rating)).collect();
    let _ = writeln!(
        out,
        "<polyline class=\"rating\" points=\"{}\" fill=\"none\" stroke=\"#3b6ea5\" \
         stroke-width=\"2\"/>",
        line.join(" ")
    );
    for p in points {
        let deviation = p
            .deviation
            .map(|d| format!(" ± {d:.1}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#3b6ea5\"><title>{}: {:.1}{deviation}</title></circle>",
            scale.x(p.end),
            scale.y(p.rating),
            date(p.end),
            p.rating
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Where the chart's numbers go.
struct Scale {
    /// The first and last times drawn.
    from: i64,
    to: i64,
    /// The lowest and highest ratings drawn, on the axis's marks.
    low: f64,
    high: f64,
    step: f64,
}

impl Scale {
    /// The scale that holds every point and its band, or `None` for no point.
    fn of(points: &[Point]) -> Option<Scale> {
        let first = points.first()?;
        let last = points.last()?;
        let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in points {
            let d = p.deviation.unwrap_or(0.0);
            low = low.min(p.rating - d);
            high = high.max(p.rating + d);
        }
        if !(low.is_finite() && high.is_finite()) {
            return None;
        }
        let span = (high - low).max(20.0);
        let step = STEPS
            .iter()
            .copied()
            .find(|s| span / s <= 7.0)
            .unwrap_or_else(|| (span / 7.0).ceil());
        low = (low / step).floor() * step;
        high = (high / step).ceil() * step;
        if high <= low {
            high = low + step;
        }
        // One point still spans a day, so that it sits in the middle of the chart.
        let (from, to) = if last.end > first.end {
            (first.end, last.end)
        } else {
            (first.end - 43_200, first.end + 43_200)
        };
        Some(Scale {
            from,
            to,
            low,
            high,
            step,
        })
    }

    fn x(&self, t: i64) -> f64 {
        #[allow(clippy::cast_precision_loss)]
        let share = (t - self.from) as f64 / (self.to - self.from) as f64;
        LEFT + share * (WIDTH - LEFT - RIGHT)
    }

    fn y(&self, rating: f64) -> f64 {
        let share = (rating - self.low) / (self.high - self.low);
        HEIGHT - BOTTOM - share * (HEIGHT - TOP - BOTTOM)
    }
}

/// The rating axis's marks and lines, and the first and last dates.
fn axes(out: &mut String, scale: &Scale) {
    let mut mark = scale.low;
    while mark <= scale.high + scale.step / 2.0 {
        let y = scale.y(mark);
        let _ = writeln!(
            out,
            "<line class=\"grid\" x1=\"{LEFT:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" \
             stroke=\"#dddddd\"/>\n<text class=\"mark\" x=\"{:.1}\" y=\"{:.1}\" \
             text-anchor=\"end\" font-family=\"sans-serif\" font-size=\"12\" \
             fill=\"#555555\">{mark:.0}</text>",
            WIDTH - RIGHT,
            LEFT - 8.0,
            y + 4.0
        );
        mark += scale.step;
    }
    let base = HEIGHT - BOTTOM + 20.0;
    let _ = writeln!(
        out,
        "<text x=\"{LEFT:.1}\" y=\"{base:.1}\" font-family=\"sans-serif\" font-size=\"12\" \
         fill=\"#555555\">{}</text>\n<text x=\"{:.1}\" y=\"{base:.1}\" text-anchor=\"end\" \
         font-family=\"sans-serif\" font-size=\"12\" fill=\"#555555\">{}</text>",
        date(scale.from),
        WIDTH - RIGHT,
        date(scale.to)
    );
}

/// `YYYY-MM-DD` of a time in seconds since the Unix epoch.
fn date(t: i64) -> String {
    let time = Timestamp::from_unix(u64::try_from(t).unwrap_or(0));
    time.as_str().get(..10).unwrap_or_default().to_owned()
}

#[cfg(test)]
mod tests;
