//! `correspond html`: a game file as one self-contained HTML page to step through (see
//! [`crate::cli::reading::page`]), written to a file or printed.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::with_game;
use crate::cli::shared::record;
use correspond::log::GameFile;
use correspond::replay::{self, Protocol};
use std::path::{Path, PathBuf};

/// Write a game file as one HTML page that needs nothing else: the board at every record, to
/// step through with the buttons or the ←, →, Home and End keys, the records to click (signer,
/// time, comment), the clocks, the verdict and the players' key fingerprints. A file that does
/// not verify is shown up to its first defect, which the page names (exit code 1); where its
/// header does not verify, the page names the defect and shows no game.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game file.
    file: PathBuf,
    /// Where to write the page; without it, standard output. An older page there is replaced
    /// whole; any other file (a game file above all) is refused.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let (kind, bytes) = record::read_game(&args.file)?;
    let page = with_game!(kind, G => page_of_bytes::<G>(&args.file, &bytes));
    match &args.output {
        Some(path) => {
            write_page(path, page.html.as_bytes())?;
            writeln!(out, "wrote {}", correspond::text::path(path))?;
        }
        None => out.write_all(page.html.as_bytes())?,
    }
    match page.defect {
        Some(defect) => Err(CliError::rejected(format!(
            "{} does not verify: {defect}; the page {}",
            correspond::text::path(&args.file),
            if page.shows_game {
                "shows the game up to there"
            } else {
                "names the defect and shows no game"
            }
        ))),
        None => Ok(()),
    }
}

/// A game file's page, and what it says of a file that does not verify.
pub(crate) struct Page {
    pub html: String,
    /// The file's first defect, where it does not verify.
    pub defect: Option<String>,
    /// Whether the page shows the game (up to the defect), or only names the defect.
    pub shows_game: bool,
}

impl Page {
    /// The page of a file whose header does not verify: the defect, and no game.
    pub(crate) fn defect(path: &Path, defect: String) -> Page {
        Page {
            html: crate::cli::reading::page::defect_page(&title(path), &defect),
            defect: Some(defect),
            shows_game: false,
        }
    }
}

/// A page's title: the game file's name.
fn title(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.to_string_lossy().into_owned(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The page of a game file's bytes: the game, up to its first defect for a file that does not
/// verify (a document that cannot be read among them); where the header itself does not
/// verify, a page that names the defect and shows no game.
pub(crate) fn page_of_bytes<G: crate::cli::shared::game::CliGame + Protocol>(
    path: &Path,
    bytes: &[u8],
) -> Page {
    match GameFile::parse(bytes) {
        Ok(file) => page_of::<G>(path, file, None),
        Err(e) => {
            // The documents before the one that cannot be read, as a file of their own.
            let before = e.document.filter(|d| *d > 0).and_then(|d| {
                let end = correspond::log::raw_document(bytes, d - 1).ok()?.end;
                GameFile::parse(&bytes[..end]).ok()
            });
            match before {
                Some(file) => page_of::<G>(path, file, Some(e.to_string())),
                None => Page::defect(path, e.to_string()),
            }
        }
    }
}

/// The page of `file`, whose documents end before `later`, a defect after them.
fn page_of<G: crate::cli::shared::game::CliGame + Protocol>(
    path: &Path,
    mut file: GameFile,
    later: Option<String>,
) -> Page {
    let (replay, defect) = match replay::replay::<G>(&file) {
        Ok(replay) => (replay, later),
        Err(e) => {
            // Up to the defect: the documents before it verify.
            let Some(document) = e.document.filter(|d| *d > 0) else {
                return Page::defect(path, e.to_string());
            };
            file.truncate(document);
            match replay::replay::<G>(&file) {
                Ok(replay) => (replay, Some(e.to_string())),
                Err(_) => return Page::defect(path, e.to_string()),
            }
        }
    };
    let title = title(path);
    let clocks = replay.clocks.as_ref().map(|clocks| {
        let names = replay.seats.each_ref().map(ToString::to_string);
        crate::cli::shared::clocks::summary(clocks, &names)
    });
    let context = crate::cli::reading::page::Context {
        title: &title,
        defect: defect.clone(),
        clocks,
    };
    Page {
        html: crate::cli::reading::page::page::<G>(&file, &replay, &context),
        defect,
        shows_game: true,
    }
}

/// What this program writes for others to read, and only ever writes over another of.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Made {
    /// A page: HTML, or a manual page in roff.
    Page,
    /// A picture: PNG or GIF.
    Picture,
}

impl Made {
    fn noun(self) -> &'static str {
        match self {
            Made::Page => "page",
            Made::Picture => "picture",
        }
    }
}

/// Refuses a page's `path` that holds something other than an older page: above all a game
/// file, whose signed records the page was made from.
pub(crate) fn only_over_a_page(path: &Path) -> Result<(), CliError> {
    only_over(path, Made::Page)
}

/// Refuses `path` when it holds something other than an older one of what is `made`.
pub(crate) fn only_over(path: &Path, made: Made) -> Result<(), CliError> {
    let io = |e: std::io::Error| CliError::io(path, &e);
    let shown = correspond::text::path(path);
    let noun = made.noun();
    match what_is_at(path).map_err(io)? {
        There::Nothing => Ok(()),
        There::Made(there) if there == made => Ok(()),
        There::Game => Err(CliError::usage(format!(
            "{shown} is a game file: a {noun} is never written over one"
        ))
        .hint(format!(
            "name another file for the {noun}; nothing was written"
        ))),
        There::Made(_) | There::Other => Err(CliError::usage(format!(
            "{shown} is there, and is not a {noun}: only an older {noun} is replaced"
        ))
        .hint(format!(
            "name another file for the {noun}, or remove that one first; nothing was written"
        ))),
    }
}

/// What a page's path holds already.
enum There {
    /// Nothing, an empty file, or what is not a regular file (it is replaced by one).
    Nothing,
    /// A page or a picture.
    Made(Made),
    /// A game file, even one whose start is damaged (see [`correspond::log::may_be_a_game_file`]).
    Game,
    /// Anything else: someone's file.
    Other,
}

fn what_is_at(path: &Path) -> std::io::Result<There> {
    use std::io::Read as _;
    let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
    if !regular {
        return Ok(There::Nothing);
    }
    // Opened without waiting: a pipe put in its place since is not read.
    let mut head = Vec::new();
    correspond::files::open_regular(path)?
        .take(correspond::log::GAME_FILE_SNIFF as u64)
        .read_to_end(&mut head)?;
    if [&b"\x89PNG\r\n\x1a\n"[..], b"GIF87a", b"GIF89a"]
        .iter()
        .any(|magic| head.starts_with(magic))
    {
        return Ok(There::Made(Made::Picture));
    }
    let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&head);
    let start = text
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .map_or(&[][..], |i| &text[i..]);
    let lower: Vec<u8> = start.iter().take(16).map(u8::to_ascii_lowercase).collect();
    Ok(if start.is_empty() {
        There::Nothing
    } else if lower.starts_with(b"<!doctype html")
        || lower.starts_with(b"<html")
        || start.starts_with(b".")
        || start.starts_with(b"'\\\"")
    {
        // HTML, or roff: a request or a comment.
        There::Made(Made::Page)
    } else if correspond::log::may_be_a_game_file(text) || start.starts_with(b"---") {
        There::Game
    } else {
        There::Other
    })
}

/// Writes a file for others to read (a page, a manual page) whole, under a temporary name
/// renamed into place: an older one keeps its permissions, a new one is readable by all, as
/// web servers and `man` need.
pub(crate) fn write_page(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    write_made(path, bytes, Made::Page)
}

/// Writes a page or a picture (see [`write_page`]), only ever over an older one.
pub(crate) fn write_made(path: &Path, bytes: &[u8], made: Made) -> Result<(), CliError> {
    let io = |e: std::io::Error| CliError::io(path, &e);
    if path.exists() {
        only_over(path, made)?;
        return correspond::log::replace(path, bytes).map_err(io);
    }
    correspond::log::create_new(path, bytes).map_err(io)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644)).map_err(io)?;
    }
    Ok(())
}
