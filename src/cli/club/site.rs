//! `correspond site`: a static site of a folder of games, for a club or a tournament: an index
//! of the games (players, where each stands, the result) with the standings, and one page per
//! game as `correspond html` makes it. Links are relative, so the folder works as it is, from
//! disk or any static host.

use crate::cli::CliError;
use crate::cli::ExitStatus;
use crate::cli::Out;
use crate::cli::checking::verify::Checked;
use crate::cli::shared::game::with_game;
use crate::cli::tournament::check::{CheckedEvent, EventState};
use correspond::picture::escape as esc;
use correspond::standings::standings;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Write a static site of the game files under the paths (folders, a repository, files) into
/// DIR: index.html lists every game (its players, where it stands, its result) and the
/// standings, and links to one page per game, each as `correspond html` writes it. Files that
/// are not game files are passed over; a game file that does not verify is listed as such,
/// its page showing it up to the defect; a path that cannot be read is said, and when no path
/// can be, nothing is written. Exit code: as `verify`'s.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Folders or game files; without any, the current folder.
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// The folder to write the site into, made if need be; pages already there are replaced.
    #[arg(short = 'o', long = "output", value_name = "DIR", required = true)]
    output: PathBuf,
    /// With --ratings (or --rating-rules), the site gains a rating list page (ratings.html)
    /// and one page per rated player with their rating history as a chart.
    #[command(flatten)]
    ratings: crate::cli::club::ratings::ShowArgs,
    #[command(flatten)]
    progress: crate::cli::shared::progress::ProgressArgs,
}

/// One game of the site: its file, its page's name, and what the index says of it.
struct Entry {
    file: PathBuf,
    page: String,
    checked: Checked,
    /// Whether its page was written (what the index links to, and counts).
    written: bool,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    args.progress.choose();
    let crate::cli::checking::verify::Found {
        games: files,
        tournaments,
        ..
    } = crate::cli::checking::verify::gather(&args.paths);
    if files.is_empty() {
        return Err(CliError::usage("no game file found under the paths given")
            .hint("give the folder of the games, or their files"));
    }
    let mut checked = crate::cli::checking::verify::check(&files);
    let unreadable: Vec<String> = files
        .iter()
        .zip(&checked)
        .filter_map(|(file, c)| match c {
            Checked::Unreadable(e) => Some(format!(
                "{}: cannot read: {e}",
                correspond::text::path(file)
            )),
            _ => None,
        })
        .collect();
    if unreadable.len() == files.len() {
        // Nothing to publish: a site of rows that say so is no site.
        let error = match &unreadable[..] {
            [one] => CliError::usage(one.clone()),
            many => {
                let error = CliError::usage(format!(
                    "none of the {} paths given can be read",
                    many.len()
                ));
                many.iter().fold(error, |e, line| e.hint(line.clone()))
            }
        };
        return Err(error.hint("nothing was written; give the folder of the games, or their files"));
    }
    let forks = crate::cli::checking::verify::forks(&files, &checked);
    let events = crate::cli::tournament::check::events(&tournaments, &mut checked, &forks);
    let status = crate::cli::tournament::check::status(
        &events,
        crate::cli::checking::verify::exit_status(&checked),
    );
    let shown = crate::cli::club::ratings::shown(&args.ratings, &files, &checked, &events, &forks)?;
    std::fs::create_dir_all(&args.output).map_err(|e| CliError::io(&args.output, &e))?;
    let mut taken = BTreeSet::from(["index".to_owned()]);
    // Named before the games' pages, so that none of those takes a rating page's name.
    let rating_pages = if shown.is_empty() {
        Vec::new()
    } else {
        crate::cli::club::rating_pages::pages(&shown, &mut taken)
    };
    let mut entries: Vec<Entry> = files
        .into_iter()
        .zip(checked)
        .map(|(file, checked)| {
            let page = page_name(&file, &mut taken);
            Entry {
                file,
                page,
                checked,
                written: false,
            }
        })
        .collect();
    // Each valid event's page, named from its tournament file.
    let events: Vec<(String, CheckedEvent)> = events
        .into_iter()
        .filter(|e| matches!(e.state, EventState::Valid(..)))
        .map(|e| (page_name(&e.path, &mut taken), e))
        .collect();
    // Before any page is written: none goes over a game file, not even the last.
    for page in entries
        .iter()
        .map(|e| e.page.as_str())
        .chain(events.iter().map(|(page, _)| page.as_str()))
        .chain(rating_pages.iter().map(|p| p.name.as_str()))
        .chain(["index.html"])
    {
        crate::cli::reading::html::only_over_a_page(&args.output.join(page))?;
    }
    for entry in &mut entries {
        if let Some(page) = game_page(&entry.file) {
            crate::cli::reading::html::write_page(&args.output.join(&entry.page), page.as_bytes())?;
            entry.written = true;
        }
    }
    for (page, checked) in &events {
        if let EventState::Valid(event, table) = &checked.state {
            let page_of = |i: usize| entries.get(i).filter(|e| e.written).map(|e| e.page.clone());
            let html = crate::cli::tournament::page::page(event, table, &page_of);
            crate::cli::reading::html::write_page(&args.output.join(page), html.as_bytes())?;
        }
    }
    for page in &rating_pages {
        crate::cli::reading::html::write_page(&args.output.join(&page.name), page.html.as_bytes())?;
    }
    let index = index(&entries, &events, &forks, !rating_pages.is_empty());
    crate::cli::reading::html::write_page(&args.output.join("index.html"), index.as_bytes())?;
    // Said, as the exit code says it: the index lists them as unreadable.
    for line in &unreadable {
        writeln!(out, "{line}")?;
    }
    let pages = entries.iter().filter(|e| e.written).count();
    let games = crate::cli::count(pages, "game page");
    let mut parts = vec!["index.html".to_owned(), games];
    if !events.is_empty() {
        parts.push(crate::cli::count(events.len(), "tournament page"));
    }
    if let Some((_, players)) = rating_pages.split_first() {
        parts.push(format!(
            "ratings.html with {}",
            crate::cli::count(players.len(), "rating history page")
        ));
    }
    let written = match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => parts.concat(),
    };
    writeln!(
        out,
        "wrote {written} into {}",
        correspond::text::path(&args.output)
    )?;
    Ok(status)
}

/// The page of one game file (one that names the defect where its header does not verify);
/// none for a file that cannot be read as a game file of a game this program plays.
fn game_page(path: &Path) -> Option<String> {
    let (kind, bytes) = crate::cli::shared::record::read_game(path).ok()?;
    Some(with_game!(kind, G => crate::cli::reading::html::page_of_bytes::<G>(path, &bytes)).html)
}

/// The longest page name before its `.html`: well under the 255 bytes a file name may have
/// once the temporary name it is written under is added.
const MAX_NAME: usize = 100;

/// A page name from the file's path (from the current folder where it is under it): its
/// letters, digits, `-` and `_` (anything else `_`), the folders joined by `-`, cut to
/// [`MAX_NAME`] with a digest of the whole path where it is longer, and one of its own among
/// those `taken`.
fn page_name(path: &Path, taken: &mut BTreeSet<String>) -> String {
    let here = std::env::current_dir().ok();
    let path = here
        .as_deref()
        .and_then(|here| path.strip_prefix(here).ok())
        .unwrap_or(path);
    let stem: String = path
        .with_extension("")
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("-")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let stem = match stem.len() {
        0 => "game".to_owned(),
        // ASCII by now: cut anywhere.
        n if n > MAX_NAME => {
            let digest = correspond::digest::Digest::of(path.to_string_lossy().as_bytes());
            format!("{}-{}", &stem[..MAX_NAME - 17], &digest.to_string()[..16])
        }
        _ => stem,
    };
    unique_page(&stem, taken)
}

/// `STEM.html`, or `STEM-2.html`, `STEM-3.html`, ...: the first whose name is not `taken`, then
/// taken.
pub(crate) fn unique_page(stem: &str, taken: &mut BTreeSet<String>) -> String {
    let mut name = stem.to_owned();
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{stem}-{n}");
        n += 1;
    }
    format!("{name}.html")
}

fn index(
    entries: &[Entry],
    events: &[(String, CheckedEvent)],
    forks: &[crate::cli::shared::copies::Forked],
    ratings: bool,
) -> String {
    let mut out = head(
        "Games",
        ".invalid,.fork{color:#a00}.forked td:first-child::after{content:' (forks)';\
         color:#a00}code{font-size:.85em}",
    );
    out.push_str("<h1>Games</h1>\n");
    if ratings {
        let _ = writeln!(
            out,
            "<p><a href=\"{}\">Ratings</a>: the rating list and each player's history</p>",
            crate::cli::club::rating_pages::LIST_PAGE
        );
    }
    if !events.is_empty() {
        out.push_str("<h2>Tournaments</h2>\n<ul class=\"tournaments\">\n");
        for (page, checked) in events {
            if let EventState::Valid(event, table) = &checked.state {
                let _ = writeln!(
                    out,
                    "<li><a href=\"{}\">{}</a></li>",
                    esc(page),
                    esc(&crate::cli::tournament::check::describe(event, table))
                );
            }
        }
        out.push_str("</ul>\n");
    }
    out.push_str(
        "<table class=\"games\">\n<tr><th>game</th><th>players</th><th>where it stands</th>\
         <th>records</th><th>last record</th></tr>\n",
    );
    for (i, entry) in entries.iter().enumerate() {
        // A copy that forks is marked here and explained under the list.
        let forked = forks.iter().any(|f| f.a == i || f.b == i);
        game_row(&mut out, entry, forked);
    }
    out.push_str("</table>\n");
    // A game whose copies fork is in dispute: named, and left out of the standings.
    for f in forks {
        let words = crate::cli::shared::copies::words(f, &entries[f.a].file, &entries[f.b].file);
        let _ = writeln!(out, "<p class=\"fork\">{}</p>", esc(&words));
    }
    standings_tables(&mut out, entries, forks);
    out.push_str("</body>\n</html>\n");
    out
}

/// The start of a page of the site titled `title`: the site's style, then `style`.
pub(crate) fn head(title: &str, style: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
         <title>{}</title>\n<style>body{{font-family:system-ui,sans-serif;margin:1em auto;\
         max-width:62em;padding:0 1em;color:#222}}table{{border-collapse:collapse;margin:.5em 0 \
         1.5em}}td,th{{padding:.2em .6em;text-align:left;border-bottom:1px solid #ddd}}{style}\
         </style>\n</head>\n<body>\n",
        esc(title)
    )
}

/// The index's row for one file: a link to its page and where its game stands, or why it
/// does not verify.
fn game_row(out: &mut String, entry: &Entry, forked: bool) {
    let file = esc(&entry.file.to_string_lossy());
    // Only a page that was written is linked to.
    let link = if entry.written {
        format!("<a href=\"{}\">{file}</a>", entry.page)
    } else {
        file.clone()
    };
    let row = if forked {
        "<tr class=\"forked\">"
    } else {
        "<tr>"
    };
    let _ = match &entry.checked {
        Checked::Valid(s) => writeln!(
            out,
            "{row}<td>{link}</td><td>{}: {} ({}) v {} ({})</td><td>{}</td><td>{}</td>\
             <td>{}</td></tr>",
            esc(&s.game),
            esc(&s.players[0].0),
            esc(&s.players[0].1),
            esc(&s.players[1].0),
            esc(&s.players[1].1),
            esc(s.result.as_deref().unwrap_or(&s.status)),
            s.records,
            s.last_time.as_ref().map_or("", |t| t.as_str())
        ),
        Checked::Invalid(e) => writeln!(
            out,
            "<tr class=\"invalid\"><td>{link}</td><td colspan=\"4\">INVALID: {}</td></tr>",
            esc(&e.to_string())
        ),
        Checked::Unreadable(e) => writeln!(
            out,
            "<tr class=\"invalid\"><td>{file}</td><td colspan=\"4\">unreadable: {}</td></tr>",
            esc(e)
        ),
        Checked::Refused(_, why) => writeln!(
            out,
            "<tr class=\"invalid\"><td>{link}</td><td colspan=\"4\">INVALID: {}</td></tr>",
            esc(why)
        ),
    };
}

/// The standings of the games that count (valid, and not in dispute), one table per game,
/// and the players whose copies end differently.
fn standings_tables(
    out: &mut String,
    entries: &[Entry],
    forks: &[crate::cli::shared::copies::Forked],
) {
    let valid = crate::cli::checking::verify::counted(entries.iter().map(|e| &e.checked), forks);
    let table = standings(valid.iter().copied());
    for game in &table.tables {
        let _ = writeln!(
            out,
            "<h2>Standings: {} ({})</h2>\n<table class=\"standings\">\n<tr><th>player</th>\
             <th>key</th><th>played</th><th>won</th><th>drawn</th><th>lost</th><th>points</th>\
             <th>going on</th></tr>",
            esc(&game.game),
            crate::cli::count(game.games, "game")
        );
        for line in &game.lines {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
                 <td>{}</td><td>{}</td></tr>",
                esc(&line.names.join(", ")),
                esc(&line.fingerprint),
                line.played,
                line.won,
                line.drawn,
                line.lost,
                line.points,
                line.in_progress
            );
        }
        out.push_str("</table>\n");
    }
    if !table.disputed.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"invalid\">Not counted, their copies ending differently: {}</p>",
            esc(&table.disputed.join(", "))
        );
    }
}
