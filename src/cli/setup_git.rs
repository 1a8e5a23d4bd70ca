//! `correspond setup-git`: make git merge game files with `correspond merge-driver`.

use super::CliError;
use std::io::Write;
use std::path::PathBuf;

/// Set up the git repository here to merge game files safely: add a `.gitattributes` line
/// that gives them the `correspond` merge driver (commit that file, so that your opponent's
/// clone uses it too), and define the driver in this clone's git configuration (each clone
/// runs this once). With the driver, a pull that brings records your copy lacks takes the
/// longer game, and a real fork is refused with what to do.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The files that are game files.
    #[arg(long, default_value = "*.yaml", value_name = "GLOB")]
    pattern: String,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let here = std::env::current_dir().map_err(|e| CliError::io(std::path::Path::new("."), &e))?;
    let repo = git2::Repository::discover(&here).map_err(|_| {
        CliError::usage("this folder is not in a git repository")
            .hint("run it inside the clone that holds the games")
    })?;
    let workdir = repo
        .workdir()
        .ok_or_else(|| CliError::usage("the repository has no work tree"))?
        .to_owned();
    let git = |e: git2::Error| CliError::usage(format!("git: {e}"));
    let exe: PathBuf = std::env::current_exe()
        .map_err(|e| CliError::usage(format!("cannot find this program: {e}")))?;
    let exe = exe.to_string_lossy().replace('\'', "'\\''");
    let mut config = repo
        .config()
        .map_err(git)?
        .open_level(git2::ConfigLevel::Local)
        .map_err(git)?;
    config
        .set_str("merge.correspond.name", "correspond game files")
        .map_err(git)?;
    config
        .set_str(
            "merge.correspond.driver",
            &format!("'{exe}' merge-driver %O %A %B %P"),
        )
        .map_err(git)?;
    let attributes = workdir.join(".gitattributes");
    let line = format!("{} merge=correspond", args.pattern);
    let current = match std::fs::read_to_string(&attributes) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(CliError::io(&attributes, &e)),
    };
    if current.lines().any(|l| l.trim() == line) {
        writeln!(out, ".gitattributes already has `{line}`")?;
    } else {
        let mut text = current;
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&line);
        text.push('\n');
        std::fs::write(&attributes, text).map_err(|e| CliError::io(&attributes, &e))?;
        writeln!(
            out,
            "added `{line}` to .gitattributes: commit it, so that every clone uses it"
        )?;
    }
    writeln!(
        out,
        "this clone's git configuration now runs `correspond merge-driver` for those files; \
         each player runs `correspond setup-git` once in their own clone"
    )?;
    Ok(())
}
