//! `site`: a folder of games as a static site: an index of every game with the standings, and
//! a page per game; every link relative and to a page that is there; a file that does not
//! verify listed as such; the same bytes on every run.

use crate::util::{correspond, transcript};
use std::path::Path;

#[test]
fn a_folder_of_games_becomes_a_site_whose_links_all_lead_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    let site = dir.path().join("site");
    let build = || {
        transcript(
            correspond()
                .current_dir(root)
                .args(["site", "games/", "tests/invalid/forged-move.yaml"])
                .args(["tests/invalid/forged-header.yaml", "-o"])
                .arg(&site),
        )
    };
    let (code, out, err) = build();
    assert_eq!(
        (
            code,
            out.replace(&site.display().to_string(), "SITE"),
            err.as_str()
        ),
        (
            1,
            "wrote index.html, 32 game pages and 1 tournament page into SITE\n".to_owned(),
            ""
        )
    );
    let index = std::fs::read_to_string(site.join("index.html")).expect("the index");
    let doc = roxmltree::Document::parse_with_options(
        &index,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..roxmltree::ParsingOptions::default()
        },
    )
    .expect("XML");
    let links: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("href"))
        .collect();
    assert_eq!(links.len(), 33, "as many as the pages it says it wrote");
    for link in &links {
        assert!(
            !link.contains('/') && !link.contains(':') && link.ends_with(".html"),
            "a relative link: {link}"
        );
        let page = std::fs::read_to_string(site.join(link)).expect("the page linked to");
        // A header that does not verify: a page that names the defect, and no game.
        let shown = if *link == "tests-invalid-forged-header.html" {
            "<p class=\"defect\">This file does not verify: header (line 4)"
        } else if link.ends_with("-tournament.html") {
            "<table class=\"crosstable\">"
        } else {
            "<figure class=\"board\""
        };
        assert!(page.contains(shown), "{link}");
    }
    assert_eq!(
        read_all(&site).len(),
        34,
        "the index and the pages it links to"
    );
    assert!(links.contains(&"games-chess-morphy-opera-game-1858.html"));
    // The invalid file is listed with its defect; the standings name each game's table.
    assert!(
        index.contains(
            "<tr class=\"invalid\"><td><a href=\"tests-invalid-forged-move.html\">\
             tests/invalid/forged-move.yaml</a></td><td colspan=\"4\">INVALID: record 5 (line \
             53): bad signature: the signature does not match the signed bytes</td></tr>"
        ),
        "{index}"
    );
    let headings: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("h2"))
        .map(|n| n.text().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(
        headings,
        [
            "Tournaments",
            "Standings: campaign (6 games)",
            "Standings: chess (17 games)",
            "Standings: guerrilla (4 games)",
            "Standings: insurrection (3 games)",
        ]
    );
    // Built again: the same files, byte for byte.
    let before: Vec<(String, Vec<u8>)> = read_all(&site);
    assert_eq!(build().0, 1);
    assert_eq!(read_all(&site), before);
}

fn read_all(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("the site")
        .map(|e| {
            let e = e.expect("entry");
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("read"),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_site_of_nothing_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("compose.yml"), "services: {}\n").expect("write");
    let site = |args: &[&str]| {
        transcript(
            correspond()
                .current_dir(dir.path())
                .arg("site")
                .args(args)
                .args(["-o", "out"]),
        )
    };
    assert_eq!(
        site(&["."]),
        (
            2,
            String::new(),
            "error: no game file found under the paths given\n\
             hint: give the folder of the games, or their files\n"
                .to_owned()
        )
    );
    assert!(!dir.path().join("out").exists());
    // Paths that cannot be read, and nothing else: refused, nothing written.
    assert_eq!(
        site(&["nowhere.yaml"]),
        (
            2,
            String::new(),
            "error: nowhere.yaml: cannot read: No such file or directory (os error 2)\n\
             hint: nothing was written; give the folder of the games, or their files\n"
                .to_owned()
        )
    );
    assert!(!dir.path().join("out").exists());
    // Several: each named, in the order given.
    assert_eq!(
        site(&["nowhere.yaml", "gone/"]),
        (
            2,
            String::new(),
            "error: none of the 2 paths given can be read\n\
             hint: nowhere.yaml: cannot read: No such file or directory (os error 2)\n\
             hint: gone/: cannot read: No such file or directory (os error 2)\n\
             hint: nothing was written; give the folder of the games, or their files\n"
                .to_owned()
        )
    );
    assert!(!dir.path().join("out").exists());
    // With a game beside it: the site is written, and what was left unread is said.
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/campaign/resignation.yaml");
    std::fs::copy(game, dir.path().join("g.yaml")).expect("copy");
    assert_eq!(
        site(&["nowhere.yaml", "g.yaml"]),
        (
            2,
            "nowhere.yaml: cannot read: No such file or directory (os error 2)\n\
             wrote index.html and 1 game page into out\n"
                .to_owned(),
            String::new()
        )
    );
    assert!(dir.path().join("out/g.html").exists());
}

/// A file whose path is longer than a page's name may be: its page is named by the path's
/// start and a digest of the whole, and the site is written.
#[test]
fn a_long_path_gives_a_short_page_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    let deep = dir.path().join("a".repeat(120)).join("b".repeat(120));
    std::fs::create_dir_all(&deep).expect("folders");
    for name in ["x", "y"] {
        std::fs::copy(
            root.join("games/chess/morphy-opera-game-1858.yaml"),
            deep.join(format!("{}{name}.yaml", "c".repeat(200))),
        )
        .expect("copy");
    }
    let (code, out, err) = transcript(
        correspond()
            .current_dir(dir.path())
            .args(["site", ".", "-o", "site"]),
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "wrote index.html and 2 game pages into site\n", "")
    );
    let pages: Vec<String> = read_all(&dir.path().join("site"))
        .into_iter()
        .map(|(name, _)| name)
        .filter(|name| name != "index.html")
        .collect();
    assert_eq!(
        pages.len(),
        2,
        "two names, told apart by their digests: {pages:?}"
    );
    for page in &pages {
        assert_eq!(page.len(), 100 + ".html".len(), "{page}");
        assert!(page.starts_with(&format!("{}-", "a".repeat(83))), "{page}");
    }
}

#[test]
fn a_site_whose_folder_holds_a_game_file_where_a_page_goes_writes_nothing() {
    // club.html is a game file (an odd name, but a game file): its page would be club.html.
    let dir = tempfile::tempdir().expect("temp dir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let game = root.join("games/chess/morphy-opera-game-1858.yaml");
    std::fs::copy(&game, dir.path().join("a.yaml")).expect("copy");
    std::fs::copy(&game, dir.path().join("club.html")).expect("copy");
    let (code, out, err) = transcript(correspond().current_dir(dir.path()).args([
        "site",
        "a.yaml",
        "club.html",
        "-o",
        ".",
    ]));
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            2,
            "",
            "error: ./club.html is a game file: a page is never written over one\n\
             hint: name another file for the page; nothing was written\n"
        )
    );
    assert_eq!(
        std::fs::read(dir.path().join("club.html")).expect("read"),
        std::fs::read(&game).expect("read")
    );
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["a.yaml", "club.html"], "no page was written");
}
