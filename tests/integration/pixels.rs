//! `show --png` and `gif`: the pictures as pixels, read back and compared with the SVG boards
//! they were made from (src/picture/raster.rs, animation.rs). Every example game's PNG shows
//! what its SVG draws, from either side; a GIF of each kind of game shows every position of the
//! game in order, the last held longer; the bytes are pinned by digest, since the font is the
//! program's own and nothing of the machine's is used; and the refusals say what to do.

use crate::readback::{Read, from_pixels, from_svg, gif_screens, png_pixels};
use crate::util::{correspond, transcript};
use sha2::{Digest as _, Sha256};
use std::path::Path;

fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn bytes_of(args: &[&str]) -> Vec<u8> {
    let out = correspond()
        .current_dir(here())
        .args(args)
        .output()
        .expect("run correspond");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn text_of(args: &[&str]) -> String {
    String::from_utf8(bytes_of(args)).expect("UTF-8")
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The PNG of `args` (a `show` command without `--png`) read back, with the SVG's board.
fn png_and_svg(args: &[&str]) -> (Read, Read) {
    let svg = text_of(&[args, &["--svg"]].concat());
    let png = bytes_of(&[args, &["--png"]].concat());
    let (shape, from_the_svg) = from_svg(&svg);
    let (pixels, width, _) = png_pixels(&png);
    let what = format!("{args:?}");
    (from_pixels(&pixels, 4, width, shape, &what), from_the_svg)
}

#[test]
fn every_example_games_png_shows_what_its_svg_draws_from_either_side() {
    let files = crate::json::example_games();
    assert!(files.len() >= 18, "{files:?}");
    let mut pieces = 0;
    for file in &files {
        let file = file.to_str().expect("UTF-8");
        for flip in [&[][..], &["--flip"][..]] {
            let args = [&["show", file][..], flip].concat();
            let (png, svg) = png_and_svg(&args);
            assert_eq!(png, svg, "{args:?}");
            pieces += svg.squares.iter().filter(|s| s.0.is_some()).count() + svg.stones.len();
        }
    }
    assert!(pieces > 500, "the boards hold pieces: {pieces}");
}

#[test]
fn a_png_is_twice_the_size_the_picture_is_shown_at() {
    let svg = text_of(&["show", "games/chess/morphy-opera-game-1858.yaml", "--svg"]);
    let doc = roxmltree::Document::parse(&svg).expect("SVG");
    let size = |name| -> usize {
        doc.root_element()
            .attribute(name)
            .expect("a size")
            .parse()
            .expect("a number")
    };
    let png = bytes_of(&["show", "games/chess/morphy-opera-game-1858.yaml", "--png"]);
    let (_, width, height) = png_pixels(&png);
    assert_eq!((width, height), (800, 2 * size("height")));
    assert_eq!(size("width"), 400);
}

/// Each record's SVG board in turn, a board the same as the one before (a record that moved
/// nothing: a coin flip, an offer) counted once.
fn svg_boards(file: &str, flip: bool) -> Vec<Read> {
    let log = text_of(&["log", file, "--json"]);
    let log: serde_json::Value = serde_json::from_str(&log).expect("JSON");
    let records = log["documents"].as_array().expect("documents").len();
    let mut boards: Vec<Read> = Vec::new();
    for at in 0..records {
        let at = at.to_string();
        let mut args = vec!["show", file, "--at", &at, "--svg"];
        if flip {
            args.push("--flip");
        }
        let (_, board) = from_svg(&text_of(&args));
        if boards.last() != Some(&board) {
            boards.push(board);
        }
    }
    boards
}

#[test]
fn a_gif_shows_every_position_of_each_kind_of_game_in_order_the_last_held_longer() {
    for (file, flip) in [
        ("games/chess/morphy-opera-game-1858.yaml", false),
        ("games/insurrection/anarcho-syndicalist-mate.yaml", true),
        ("games/campaign/fact-check.yaml", false),
        ("games/guerrilla/all-checkers-captured.yaml", false),
        ("games/guerrilla/supply-exhausted.yaml", true),
    ] {
        let expected = svg_boards(file, flip);
        let mut args = vec!["gif", file, "--delay", "500"];
        if flip {
            args.push("--flip");
        }
        let gif = bytes_of(&args);
        let (screens, width) = gif_screens(&gif);
        let (shape, _) = from_svg(&text_of(&["show", file, "--svg"]));
        let read: Vec<Read> = screens
            .iter()
            .enumerate()
            .map(|(k, (pixels, _))| {
                from_pixels(pixels, 4, width, shape, &format!("{file}, frame {k}"))
            })
            .collect();
        assert_eq!(read.len(), expected.len(), "{file}: a frame a position");
        for (k, (read, expected)) in read.iter().zip(&expected).enumerate() {
            assert_eq!(read, expected, "{file}: frame {k}");
        }
        let delays: Vec<u16> = screens.iter().map(|(_, d)| *d).collect();
        let (last, rest) = delays.split_last().expect("frames");
        assert!(rest.iter().all(|&d| d == 50), "{file}: {delays:?}");
        assert_eq!(
            *last, 250,
            "{file}: the last frame is held five times as long"
        );
    }
}

/// The bytes are the same wherever the program runs on the same kind of processor: the font is
/// the program's own and no file of the machine's is read. resvg's rasterizer (tiny-skia) has
/// its own code for each kind (x86-64, ARM, none), which may round an edge's pixel otherwise:
/// these digests are x86-64's, the machines CI runs on.
#[test]
fn the_pictures_are_the_same_bytes_on_every_machine() {
    let pinned = [
        (
            vec!["show", "games/chess/morphy-opera-game-1858.yaml", "--png"],
            "6263c1322f05f63dbf0bb25b279b68acab507df1e0d39239f4c9402ef4cae6f4",
        ),
        (
            vec![
                "show",
                "games/insurrection/anarcho-syndicalist-mate.yaml",
                "--png",
            ],
            "469e568e91c8af8383fdf83b9df4fb150d077d64fcbc0d313b32c1aafc201d8d",
        ),
        (
            vec!["show", "games/campaign/fact-check.yaml", "--png"],
            "1785eeccc4d34be8d4fd225c7d2ec02fc2eb4b6167806876d468786e2f4d7e88",
        ),
        (
            vec![
                "show",
                "games/guerrilla/all-checkers-captured.yaml",
                "--png",
            ],
            "7c28bdc88bf98740e5c6469eb38274c9aa71ccfd44c189cd3b96170425b7e403",
        ),
        (
            vec!["gif", "games/chess/morphy-opera-game-1858.yaml"],
            "7c1185846c42a29db8fd2bb11801fc83933f8571f05372d9b21a7e332035f661",
        ),
        (
            vec!["gif", "games/insurrection/anarcho-syndicalist-mate.yaml"],
            "84e18d0e0df5f0f6ff0a7fdb166079679454144091ae0bf22178f8b3bdef9955",
        ),
        (
            vec!["gif", "games/campaign/fact-check.yaml"],
            "8f88e8629193744572f2e727e17f94d5515a333f1b1053a2f70bc8e4885d9da3",
        ),
        (
            vec!["gif", "games/guerrilla/all-checkers-captured.yaml"],
            "641b1135e505140b1c20b53eecc57faa318473ead46e08dbe15ce508b1ce925f",
        ),
    ];
    let got: Vec<(Vec<&str>, String)> = pinned
        .iter()
        .map(|(args, _)| (args.clone(), sha256(&bytes_of(args))))
        .collect();
    let want: Vec<(Vec<&str>, String)> = pinned
        .iter()
        .map(|(args, digest)| (args.clone(), (*digest).to_owned()))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn a_picture_is_refused_where_it_cannot_go_and_says_what_to_do() {
    let dir = tempfile::tempdir().expect("temp dir");
    let game = here().join("games/chess/morphy-opera-game-1858.yaml");
    std::fs::copy(&game, dir.path().join("opera.yaml")).expect("copy");
    let run = |args: &[&str]| transcript(correspond().current_dir(dir.path()).args(args));
    assert_eq!(
        run(&["gif", "opera.yaml", "--delay", "5"]),
        (
            2,
            String::new(),
            "error: --delay 5: a frame is shown for 20 to 60000 milliseconds\n\
             hint: browsers show shorter frames for a tenth of a second, or skip them\n"
                .to_owned()
        )
    );
    assert_eq!(
        run(&["gif", "opera.yaml", "-o", "opera.yaml"]),
        (
            2,
            String::new(),
            "error: opera.yaml is a game file: a picture is never written over one\n\
             hint: name another file for the picture; nothing was written\n"
                .to_owned()
        )
    );
    std::fs::write(dir.path().join("notes.txt"), "mine\n").expect("write");
    assert_eq!(
        run(&["gif", "opera.yaml", "-o", "notes.txt"]),
        (
            2,
            String::new(),
            "error: notes.txt is there, and is not a picture: only an older picture is replaced\n\
             hint: name another file for the picture, or remove that one first; nothing was written\n"
                .to_owned()
        )
    );
    assert_eq!(
        std::fs::read(dir.path().join("notes.txt")).expect("read"),
        b"mine\n"
    );
    let (code, out, err) = run(&["gif", "opera.yaml", "-o", "opera.gif"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "wrote opera.gif: 34 frames, the last held 4s\n", "")
    );
    let first = std::fs::read(dir.path().join("opera.gif")).expect("the GIF");
    // An older GIF is replaced; the same game makes the same bytes.
    assert_eq!(run(&["gif", "opera.yaml", "-o", "opera.gif"]).0, 0);
    assert_eq!(
        std::fs::read(dir.path().join("opera.gif")).expect("the GIF"),
        first
    );
    let forged = here().join("tests/invalid/forged-move.yaml");
    let (code, out, err) = run(&["gif", forged.to_str().expect("UTF-8"), "-o", "forged.gif"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(!dir.path().join("forged.gif").exists());
}

#[test]
fn an_image_is_never_written_to_a_terminal() {
    let file = "games/chess/morphy-opera-game-1858.yaml";
    for (args, error) in [
        (
            vec!["show", file, "--png"],
            "error: --png writes an image, which a terminal cannot show\n\
             hint: send it to a file: `correspond show ... --png > board.png`\n",
        ),
        (
            vec!["gif", file],
            "error: a GIF is an image, which a terminal cannot show\n\
             hint: name a file for it: `correspond gif games/chess/morphy-opera-game-1858.yaml -o game.gif`\n",
        ),
    ] {
        let Some((code, stderr, terminal)) = crate::progress::stdout_on_a_terminal(&args) else {
            return;
        };
        assert_eq!(
            (code, stderr.as_str(), terminal.as_str()),
            (2, error, ""),
            "{args:?}"
        );
    }
}
