//! Where a command reads and writes, and what stands in its way: a new game file's folder that
//! does not exist, a game file that another program changed while the command held it, and
//! the names beside a file that is not there that were nearly meant.

use crate::cli::CliError;
use correspond::log;
use std::path::{Path, PathBuf};

/// A game file that could not be written (`done`: what that left undone), as the user hears
/// it; one that another program changed since it was read is read anew by the same command run
/// again.
pub(crate) fn not_written(path: &Path, e: &std::io::Error, done: &str) -> CliError {
    let error = CliError::io(path, e);
    if e.get_ref().is_some_and(|inner| inner.is::<log::Changed>()) {
        error.hint(format!(
            "{done}; run the command again: it reads the file as it is now"
        ))
    } else {
        error.hint(done)
    }
}

/// Refuses to sign after a game file at `path` that another program wrote since `locked` read
/// it: asked once a key is unlocked, since asking for its passphrase may take a while (during
/// a `git pull`, say).
pub(crate) fn still_as_read(locked: &log::Locked, path: &Path) -> Result<(), CliError> {
    locked
        .unchanged()
        .map_err(|e| not_written(path, &e, "nothing was signed"))
}

/// Refuses a new game file's `path` whose folder does not exist, before anything is signed.
pub(crate) fn in_a_folder(path: &Path) -> Result<(), CliError> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if dir.is_dir() {
        return Ok(());
    }
    let shown = correspond::text::path(dir).to_string();
    Err(CliError::usage(format!(
        "{}: the folder {shown} does not exist",
        correspond::text::path(path)
    ))
    .hint(format!(
        "make it first (mkdir -p {}), or give another path; nothing was signed",
        correspond::text::shell_word(&shown)
    )))
}

/// `did you mean `c.yaml`?`, of the names [`near_names`] found (at least one).
pub(crate) fn did_you_mean(near: &[PathBuf]) -> String {
    let near: Vec<String> = near
        .iter()
        .map(|p| format!("`{}`", correspond::text::path(p)))
        .collect();
    format!("did you mean {}?", near.join(" or "))
}

/// The files beside `path` whose names are nearly its name: the other spelling of the YAML
/// extension, or at most two letters added, removed or changed; the closest first, at most
/// three.
pub(crate) fn near_names(path: &Path) -> Vec<PathBuf> {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Vec::new();
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let swapped = name
        .strip_suffix(".yml")
        .map(|stem| format!("{stem}.yaml"))
        .or_else(|| name.strip_suffix(".yaml").map(|stem| format!("{stem}.yml")));
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut near: Vec<(usize, String)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter_map(|other| {
            let distance = if swapped.as_deref() == Some(other.as_str()) {
                0
            } else if other.chars().count().abs_diff(name.chars().count()) > 2 {
                // Too long or too short to be two edits away: not worth counting.
                return None;
            } else {
                edits(&name, &other)
            };
            (distance <= 2).then_some((distance, other))
        })
        .collect();
    near.sort();
    near.into_iter()
        .take(3)
        .map(|(_, other)| match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.join(other),
            _ => PathBuf::from(other),
        })
        .collect()
}

/// The least number of characters added, removed or changed that make `a` into `b`.
pub(crate) fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}
