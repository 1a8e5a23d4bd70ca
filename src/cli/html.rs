//! `correspond html`: a game file as one self-contained HTML page to step through (see
//! [`super::page`]), written to a file or printed.

use super::game::with_game;
use super::{CliError, Out, record};
use correspond::log::GameFile;
use correspond::replay::{self, Protocol};
use std::path::{Path, PathBuf};

/// Write a game file as one HTML page that needs nothing else: the board at every record, to
/// step through with the buttons or the ←, →, Home and End keys, the records to click (signer,
/// time, comment), the clocks, the verdict and the players' key fingerprints. A file that does
/// not verify is shown up to its first defect, which the page names (exit code 1).
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
    let file = GameFile::parse(&bytes).map_err(|e| {
        CliError::rejected(format!(
            "{} does not verify: {e}",
            correspond::text::path(&args.file)
        ))
        .hint("a page needs at least the header to read")
    })?;
    let (page, defect) = with_game!(kind, G => page_of::<G>(&args.file, file))?;
    match &args.output {
        Some(path) => {
            write_page(path, page.as_bytes())?;
            writeln!(out, "wrote {}", correspond::text::path(path))?;
        }
        None => out.write_all(page.as_bytes())?,
    }
    match defect {
        Some(defect) => Err(CliError::rejected(format!(
            "{} does not verify: {defect}; the page shows the game up to there",
            correspond::text::path(&args.file)
        ))),
        None => Ok(()),
    }
}

/// The page, and the first defect of a file that does not verify.
pub(crate) fn page_of<G: super::game::CliGame + Protocol>(
    path: &Path,
    mut file: GameFile,
) -> Result<(String, Option<String>), CliError> {
    let (replay, defect) = match replay::replay::<G>(&file) {
        Ok(replay) => (replay, None),
        Err(e) => {
            // Up to the defect: the documents before it verify.
            let Some(document) = e.document.filter(|d| *d > 0) else {
                return Err(CliError::rejected(format!(
                    "{} does not verify: {e}",
                    correspond::text::path(path)
                )));
            };
            file.truncate(document);
            let replay = replay::replay::<G>(&file).map_err(|e| {
                CliError::rejected(format!(
                    "{} does not verify: {e}",
                    correspond::text::path(path)
                ))
            })?;
            (replay, Some(e.to_string()))
        }
    };
    let clocks = replay.clocks.as_ref().map(|clocks| {
        let names = replay.seats.each_ref().map(ToString::to_string);
        super::clocks::summary(clocks, &names)
    });
    let title = path.file_name().map_or_else(
        || path.to_string_lossy().into_owned(),
        |n| n.to_string_lossy().into_owned(),
    );
    let context = super::page::Context {
        title: &title,
        defect: defect.clone(),
        clocks,
    };
    Ok((super::page::page::<G>(&file, &replay, &context), defect))
}

/// Refuses a page's `path` that holds something other than an older page: above all a game
/// file, whose signed records the page was made from.
pub(crate) fn only_over_a_page(path: &Path) -> Result<(), CliError> {
    let io = |e: std::io::Error| CliError::io(path, &e);
    let shown = correspond::text::path(path);
    match what_is_at(path).map_err(io)? {
        There::Nothing | There::Page => Ok(()),
        There::Game => Err(CliError::usage(format!(
            "{shown} is a game file: a page is never written over one"
        ))
        .hint("name another file for the page; nothing was written")),
        There::Other => Err(CliError::usage(format!(
            "{shown} is there, and is not a page: only an older page is replaced"
        ))
        .hint("name another file for the page, or remove that one first; nothing was written")),
    }
}

/// What a page's path holds already.
enum There {
    /// Nothing, an empty file, or what is not a regular file (it is replaced by one).
    Nothing,
    /// A page: HTML, or a manual page in roff.
    Page,
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
        There::Page
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
    let io = |e: std::io::Error| CliError::io(path, &e);
    if path.exists() {
        only_over_a_page(path)?;
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
