//! Pictures over long games: an animated GIF of 50, 500 and 2,000 positions (`correspond
//! gif`), for a chess game and a Campaign game, against drawing one PNG of the same board in
//! the same process (`show --png`, resvg drawing every square and letter). Prints each time and
//! the ratios: a GIF's cost linear in the game gives 40 from 50 to 2,000 positions; one that
//! drew every frame whole would cost about 2,000 PNGs, where squares drawn once and frames that
//! hold only the changed squares cost a few.
//!
//! Then the replay page (`correspond html`) of a Campaign game of 50, 500 and 2,000 records:
//! its bytes, and, where headless Chromium is installed (`chromium-headless-shell`,
//! `chromium` or `$CHROME`), the time it takes to load and draw, against loading an empty page
//! in the same browser; the bar is 2,000 records in at most twice the time of 50.
//!
//! Run with `cargo bench --bench pictures`.

use correspond::games::campaign::Campaign;
use correspond::games::chess::Chess;
use correspond::picture::animation::{self, Animation};
use correspond::picture::{Draw, Options, raster};
use correspond::rules::{Game, Line};
use std::time::{Duration, Instant};

mod common;
use common::ms;

const SIZES: [usize; 3] = [50, 500, 2000];

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("pictures: run with `cargo bench --bench pictures`");
        return;
    }
    // Knights out and back: chess allows it for ever (a repetition ends nothing the picture
    // needs), and every move changes two squares, as most moves do.
    let chess = line::<Chess>(&[], &["g1f3", "g8f6", "f3g1", "f6g8"], 2000);
    // The handlers shuffle, which Campaign allows for ever (as benches/mail.rs plays).
    let campaign = line::<Campaign>(&["a2a3", "a6a5"], &["a1a2", "a7a6", "a2a1", "a6a7"], 2000);
    println!(
        "chess: every position's SVG alone: {}",
        ms(pictures_only(&chess))
    );
    report("chess", &chess);
    report("campaign", &campaign);
    pages();
}

/// The replay pages of long games: bytes, and load time in Chromium where there is one.
fn pages() {
    let dir = tempfile::tempdir().expect("temp dir");
    let opening = common::opening(dir.path(), &dir.path().join("opening.yaml"));
    let opened = opening.matches("\n---\n").count() + 1;
    let browser = chromium();
    let empty = dir.path().join("empty.html");
    std::fs::write(&empty, "<!DOCTYPE html><title>empty</title>").expect("write");
    let base = browser.as_deref().map(|b| load(b, dir.path(), &empty));
    if let Some(base) = base {
        println!("page: an empty page loads in {}", ms(base));
    } else {
        println!("page: no headless Chromium here: sizes only");
    }
    let mut times = Vec::new();
    for size in [50, 500, 2000] {
        let mut text = opening.clone();
        common::grow(&mut text, size - opened, None, |_| {});
        let game = dir.path().join(format!("g{size}.yaml"));
        std::fs::write(&game, &text).expect("write");
        let page = dir.path().join(format!("g{size}.html"));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_correspond"))
            .arg("html")
            .arg(&game)
            .arg("-o")
            .arg(&page)
            .output()
            .expect("run correspond");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let bytes = std::fs::metadata(&page).expect("the page").len();
        let took = browser.as_deref().map(|b| load(b, dir.path(), &page));
        match took {
            Some(took) => println!(
                "page of {size} records: {bytes} bytes, loaded and drawn in {}",
                ms(took)
            ),
            None => println!("page of {size} records: {bytes} bytes"),
        }
        times.extend(took);
    }
    if let [small, _, large] = times[..] {
        let base = base.unwrap_or_default();
        println!(
            "page: 2000 records load in {:.2} times the time of 50 ({:.2} beyond an empty page's)",
            large.as_secs_f64() / small.as_secs_f64(),
            (large - base.min(large)).as_secs_f64() / (small - base.min(small)).as_secs_f64()
        );
    }
}

/// The browser, if there is one.
fn chromium() -> Option<std::path::PathBuf> {
    let named = std::env::var_os("CHROME").map(std::path::PathBuf::from);
    let path = std::env::var_os("PATH").unwrap_or_default();
    named.into_iter().find(|p| p.is_file()).or_else(|| {
        [
            "chromium-headless-shell",
            "chromium",
            "chrome-headless-shell",
        ]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|p| p.is_file())
    })
}

/// How long Chromium takes to load `page` and run its script (the best of three runs).
fn load(browser: &std::path::Path, dir: &std::path::Path, page: &std::path::Path) -> Duration {
    best(|| {
        let started = Instant::now();
        let out = std::process::Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--dump-dom",
            ])
            .arg(format!("--user-data-dir={}", dir.join("profile").display()))
            .arg(format!("file://{}", page.display()))
            .output()
            .expect("run Chromium");
        assert!(out.status.success(), "Chromium failed");
        started.elapsed()
    })
}

/// A line of `length` moves from the start: `opening`, then `cycle` over and over.
fn line<G: Game>(opening: &[&str], cycle: &[&str], length: usize) -> Line<G> {
    let mut line = Line::new(G::start(&G::Options::default()));
    for text in opening.iter().chain(cycle.iter().cycle()).take(length) {
        let mv = line.current().parse_move(text).expect("a legal move");
        line.play_legal(&mv);
    }
    line
}

fn report<G: Draw>(name: &str, line: &Line<G>) {
    let png = best(|| {
        let started = Instant::now();
        let svg = G::svg(line, &Options::default());
        raster::png(&svg).expect("a PNG");
        started.elapsed()
    });
    println!("{name}: one PNG of the last position: {}", ms(png));
    let animation = Animation {
        flipped: false,
        delay_ms: 800,
        captions: vec!["alice (white) v bob (black)".into()],
        result: "so far: white to move".into(),
    };
    let mut times = Vec::new();
    for size in SIZES {
        let part = line.prefix(size - 1);
        let mut bytes = 0;
        let took = best(|| {
            let started = Instant::now();
            bytes = animation::gif(&part, &animation, threads())
                .expect("a GIF")
                .len();
            started.elapsed()
        });
        println!(
            "{name}: GIF of {size} positions: {} ({bytes} bytes; {:.1} PNGs' time)",
            ms(took),
            took.as_secs_f64() / png.as_secs_f64()
        );
        times.push(took);
    }
    println!(
        "{name}: ratio from {} to {} positions: {:.1} (linear: {:.0})",
        SIZES[0],
        SIZES[2],
        times[2].as_secs_f64() / times[0].as_secs_f64(),
        SIZES[2] as f64 / SIZES[0] as f64
    );
}

fn best(f: impl FnMut() -> Duration) -> Duration {
    let mut f = f;
    (0..3).map(|_| f()).min().expect("three runs")
}

/// Drawing every position's SVG alone, what a GIF costs before any pixel.
fn pictures_only<G: Draw>(line: &Line<G>) -> Duration {
    let started = Instant::now();
    let mut played = Line::new(line.positions()[0].clone());
    let mut n = 0;
    for mv in line.moves() {
        played.play_legal(mv);
        n += G::picture(&played, &Options::default()).board.squares.len();
    }
    assert!(n > 0);
    started.elapsed()
}

/// One thread per core, as the command line uses.
fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}
