//! The pairing programs a Swiss round is paired by, run as separate programs the director
//! installs (bbpPairings is GPL-3.0, so it is never part of this one): how each is called, how
//! it tells its version, and what it answers. One table: a new program is one more row here
//! and one more name in the library's `Engine`.

use crate::cli::CliError;
use correspond::tournament::file::{Engine, MAX_VERSION, valid_version};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long a pairing program may take before it is stopped: far beyond any correspondence
/// event's size, short of a hang.
const TIME_LIMIT: Duration = Duration::from_secs(600);

/// How a pairing program is called.
struct Row {
    engine: Engine,
    /// The program's name on the PATH when `--program` does not give it.
    program: &'static str,
    /// Where the user finds it.
    source: &'static str,
    /// The arguments that pair the next round of `input`, the answer written to `output`.
    args: fn(&Path, &Path) -> Vec<OsString>,
    /// How its version is asked.
    version: Version,
}

enum Version {
    /// Run with no argument, it prints `... - VERSION (Built ...)` first.
    Banner,
    /// A Python console script: its interpreter (from its `#!` line) knows its package's
    /// version.
    PythonPackage(&'static str),
}

const ROWS: &[Row] = &[
    Row {
        engine: Engine::BbpPairings,
        program: "bbpPairings",
        source: "GPL-3.0, https://github.com/BieremaBoyzProgramming/bbpPairings",
        args: |input, output| vec!["--dutch".into(), input.into(), "-p".into(), output.into()],
        version: Version::Banner,
    },
    Row {
        engine: Engine::Py4swiss,
        program: "py4swiss",
        source: "MIT, `pip install py4swiss`",
        args: |input, output| {
            vec![
                "-t".into(),
                input.into(),
                "-e".into(),
                "dutch".into(),
                "-p".into(),
                output.into(),
            ]
        },
        version: Version::PythonPackage("py4swiss"),
    },
];

fn row(engine: Engine) -> &'static Row {
    ROWS.iter()
        .find(|r| r.engine == engine)
        .expect("every engine has a row")
}

/// A pairing program found, ready to run.
pub(crate) struct Program {
    pub(crate) engine: Engine,
    path: PathBuf,
    /// The version it says it is.
    pub(crate) version: String,
}

/// Where to find every program, for a message: `bbpPairings (…) or py4swiss (…)`.
fn sources() -> String {
    let all: Vec<String> = ROWS
        .iter()
        .map(|r| format!("{} ({})", r.engine, r.source))
        .collect();
    all.join(" or ")
}

/// Finds `engine`'s program (`program`, or its usual name on the PATH) and asks its version.
///
/// # Errors
/// Not installed, or it does not say its version: a usage error saying where to get it.
pub(crate) fn find(engine: Engine, program: Option<&Path>) -> Result<Program, CliError> {
    let r = row(engine);
    let path = match program {
        Some(p) => p.to_path_buf(),
        None => on_path(r.program).ok_or_else(|| {
            CliError::usage(format!(
                "no pairing program: {engine} is not installed here (no `{}` on the PATH), and \
                 this program does not pair a Swiss round itself",
                r.program
            ))
            .hint(format!(
                "install {}, then name it with --engine and, if it is not on the PATH, \
                 --program PATH",
                sources()
            ))
        })?,
    };
    let version = match r.version {
        Version::Banner => banner_version(&path)?,
        Version::PythonPackage(package) => package_version(&path, package)?,
    };
    if !valid_version(&version) {
        return Err(CliError::usage(format!(
            "{} gives its version as `{}`, which a tournament file cannot hold (1 to \
             {MAX_VERSION} characters, no quote or backslash)",
            correspond::text::path(&path),
            correspond::text::shown(&version)
        )));
    }
    Ok(Program {
        engine,
        path,
        version,
    })
}

/// The file named `name` in a folder of the PATH.
fn on_path(name: &str) -> Option<PathBuf> {
    let folders = std::env::var_os("PATH")?;
    std::env::split_paths(&folders)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Runs `path` with `args`, stopped after [`TIME_LIMIT`]: its exit status and standard output
/// and error (each read while it runs, so that a program that writes much never waits on a
/// full pipe).
fn run(path: &Path, args: &[OsString]) -> Result<(bool, String, String), CliError> {
    let shown = correspond::text::path(path).to_string();
    let cannot = |e: std::io::Error| CliError::usage(format!("cannot run {shown}: {e}"));
    let mut child = Command::new(path)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(cannot)?;
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    );
    let started = Instant::now();
    let status = loop {
        match child.try_wait().map_err(cannot)? {
            Some(status) => break status,
            None if started.elapsed() > TIME_LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(CliError::usage(format!(
                    "{shown} did not finish in {} seconds, and was stopped",
                    TIME_LIMIT.as_secs()
                )));
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    };
    let joined = |h: std::thread::JoinHandle<String>| h.join().unwrap_or_default();
    Ok((status.success(), joined(stdout), joined(stderr)))
}

/// bbpPairings' version from its banner: `BBP Pairings (…) - v5.0.1 (Built …)` gives `v5.0.1`.
fn banner_version(path: &Path) -> Result<String, CliError> {
    let (_, stdout, stderr) = run(path, &[])?;
    let first = stdout
        .lines()
        .chain(stderr.lines())
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or_default();
    let after = first.rsplit_once(" - ").map_or(first, |(_, v)| v);
    Ok(after
        .split_once(" (")
        .map_or(after, |(v, _)| v)
        .trim()
        .to_owned())
}

/// A Python console script's package version, asked of the interpreter its `#!` line names.
fn package_version(path: &Path, package: &str) -> Result<String, CliError> {
    let shown = correspond::text::path(path).to_string();
    let head = std::fs::read(path).map_err(|e| CliError::io(path, &e))?;
    let first = head.split(|&b| b == b'\n').next().unwrap_or_default();
    // `#!/venv/bin/python`, or `#!/usr/bin/env python3`: the program and its arguments.
    let line: Vec<&str> = std::str::from_utf8(first)
        .ok()
        .and_then(|l| l.strip_prefix("#!"))
        .map(|l| l.split_whitespace().collect())
        .unwrap_or_default();
    let Some((interpreter, first_args)) = line.split_first() else {
        return Err(CliError::usage(format!(
            "{shown} is not the Python script `pip install {package}` makes, so its version \
             cannot be asked"
        )));
    };
    let script = format!("import importlib.metadata as m; print(m.version('{package}'))");
    let mut args: Vec<OsString> = first_args.iter().map(OsString::from).collect();
    args.extend(["-c".into(), script.into()]);
    let (ok, stdout, stderr) = run(Path::new(interpreter), &args)?;
    if !ok {
        return Err(CliError::usage(format!(
            "the Python of {shown} does not know the package {package}: {}",
            correspond::text::escape(stderr.trim())
        )));
    }
    Ok(stdout.trim().to_owned())
}

impl Program {
    /// Runs the program on `input` (a report file's text): its answer's text.
    ///
    /// # Errors
    /// The program fails, or writes no answer: what it said.
    pub(crate) fn pair(&self, input: &str) -> Result<String, CliError> {
        let dir = tempfile::tempdir()
            .map_err(|e| CliError::usage(format!("cannot make a temporary folder: {e}")))?;
        let (input_path, output_path) =
            (dir.path().join("input.trf"), dir.path().join("pairs.txt"));
        std::fs::write(&input_path, input).map_err(|e| CliError::io(&input_path, &e))?;
        let args = (row(self.engine).args)(&input_path, &output_path);
        let (ok, _, stderr) = run(&self.path, &args)?;
        let said = || {
            let last = stderr.lines().map(str::trim).rfind(|l| !l.is_empty());
            last.map_or_else(String::new, |l| {
                format!(": {}", correspond::text::escape(l))
            })
        };
        if !ok {
            return Err(
                CliError::rejected(format!("{} found no pairing{}", self.engine, said()))
                    .hint("nothing was signed"),
            );
        }
        std::fs::read_to_string(&output_path).map_err(|_| {
            CliError::rejected(format!("{} wrote no pairing{}", self.engine, said()))
                .hint("nothing was signed")
        })
    }
}
