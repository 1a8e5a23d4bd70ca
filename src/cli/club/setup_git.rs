//! `correspond setup-git`: make git keep game files byte for byte, merge them with
//! `correspond merge-driver`, and keep the evidence of force-pushes.

use crate::cli::CliError;
use crate::cli::Out;
use std::path::{Path, PathBuf};

/// Set up the git repository here for game files: add a `.gitattributes` line that gives them
/// the `correspond` merge driver and keeps them byte for byte (`-text`: signatures cover the
/// exact bytes, and `core.autocrlf` would otherwise turn them into CR LF); commit that file, so
/// that your opponent's clone uses it too. In this clone's git configuration: define the driver,
/// keep reflogs for ever (they are the evidence of a force-push, and games last months), and
/// make `git pull` merge diverged histories unless you have chosen otherwise (`pull.rebase` or
/// `pull.ff`). Each clone runs this once. With the driver, a pull that brings records your copy
/// lacks takes the longer game, and a real fork is refused with what to do.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The files that are game files; repeat for several [default: *.yaml and *.yml, the files
    /// `verify` takes for game files].
    #[arg(long = "pattern", value_name = "GLOB", value_hint = clap::ValueHint::Other)]
    patterns: Vec<String>,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let here = std::env::current_dir().map_err(|e| CliError::io(Path::new("."), &e))?;
    let exe: PathBuf = std::env::current_exe()
        .map_err(|e| CliError::usage(format!("cannot find this program: {e}")))?;
    let exe = exe.to_string_lossy().replace('\'', "'\\''");
    let setup = correspond::git::setup(&here, &format!("'{exe}' merge-driver %O %A %B %P"))
        .map_err(|e| match e {
            correspond::git::GitError::NoRepository(_) => {
                CliError::usage("this folder is not in a git work tree")
                    .hint("run it inside the clone that holds the games")
            }
            other => CliError::usage(other),
        })?;
    let defaults = ["*.yaml".to_owned(), "*.yml".to_owned()];
    let patterns = if args.patterns.is_empty() {
        &defaults[..]
    } else {
        &args.patterns[..]
    };
    for pattern in patterns {
        attributes(&setup.workdir, pattern, out)?;
    }
    writeln!(
        out,
        "this clone's git configuration now runs `correspond merge-driver` for those files; \
         each player runs `correspond setup-git` once in their own clone"
    )?;
    writeln!(
        out,
        "reflogs are kept for ever in this clone (gc.reflogExpire and \
         gc.reflogExpireUnreachable = never): they show a force-push to `correspond audit`"
    )?;
    match &setup.pull {
        None => writeln!(
            out,
            "git pull merges diverged histories here (pull.rebase = false), so that the merge \
             driver runs"
        )?,
        Some((key, value)) if key == "pull.ff" && value == "only" => writeln!(
            out,
            "git pull keeps your setting pull.ff = only: it stops at diverged histories before \
             any merge, so pull those with `git pull --no-ff` (the merge driver then runs)"
        )?,
        Some((key, value)) => writeln!(
            out,
            "git pull keeps your setting {key} = {}: the merge driver runs in merges and \
             rebases alike",
            correspond::text::escape(value)
        )?,
    }
    Ok(())
}

/// Adds (or brings up to date) the `.gitattributes` line for game files.
fn attributes(workdir: &Path, pattern: &str, out: &mut Out<'_>) -> Result<(), CliError> {
    let path = workdir.join(".gitattributes");
    let line = format!("{pattern} merge=correspond -text");
    // What earlier versions wrote: the same line without `-text`.
    let older = format!("{pattern} merge=correspond");
    let current = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(CliError::io(&path, &e)),
    };
    let shown = correspond::text::escape(&line);
    if current.lines().any(|l| l.trim() == line) {
        writeln!(out, ".gitattributes already has `{shown}`")?;
        return Ok(());
    }
    let mut text = if current.lines().any(|l| l.trim() == older) {
        current
            .lines()
            .map(|l| if l.trim() == older { line.as_str() } else { l })
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        let mut text = current.clone();
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text + &line
    };
    text.push('\n');
    // Written whole or not at all, as game files are.
    let written = if path.exists() {
        correspond::log::replace(&path, text.as_bytes())
    } else {
        correspond::log::create_new(&path, text.as_bytes())
    };
    written.map_err(|e| CliError::io(&path, &e))?;
    let verb = if current.lines().any(|l| l.trim() == older) {
        "updated .gitattributes to"
    } else {
        "added to .gitattributes:"
    };
    writeln!(
        out,
        "{verb} `{shown}` (game files are merged by correspond and kept byte for byte): commit \
         it, so that every clone uses it"
    )?;
    Ok(())
}
