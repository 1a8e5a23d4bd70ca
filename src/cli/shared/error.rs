//! The command line's error: what kind of failure it is (which alone decides the exit code),
//! what went wrong, the error that caused it, and hints on what to do. Each library layer's
//! error converts with `From`; a command adds its context and hints where it knows them.
//!
//! A command's output goes through [`Out`], whose failures are the only I/O errors that become
//! "cannot write the output": any other I/O error must be given its file and its meaning.

use correspond::git::GitError;
use correspond::journal::JournalError;
use correspond::log::LogError;
use correspond::replay::ReplayError;
use correspond::sign::SignError;
use std::error::Error;
use std::fmt;
use std::io::{self, Write};

/// The documented exit codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: done.
    Success,
    /// 1: the input was read and the rules reject it (a bad position string, an illegal move).
    Rejected,
    /// 2: the command line is wrong, or a file could not be read or written.
    Usage,
    /// 3: the check could not see everything it must (`audit` of a shallow or grafted
    /// history): what it saw is reported, and nothing is passed.
    Incomplete,
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(status: ExitStatus) -> Self {
        std::process::ExitCode::from(match status {
            ExitStatus::Success => 0,
            ExitStatus::Rejected => 1,
            ExitStatus::Usage => 2,
            ExitStatus::Incomplete => 3,
        })
    }
}

/// What kind of failure an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The input was read, and the rules or the checks reject it.
    Rejected,
    /// The command line asks for what cannot be done.
    Usage,
    /// A file, a key, git or the journal could not be read or written.
    Io,
    /// The output could not be written.
    Output,
    /// A check could not see everything it must.
    Incomplete,
}

impl Kind {
    /// The exit status of each kind: the one place that decides them.
    #[must_use]
    pub fn status(self) -> ExitStatus {
        match self {
            Kind::Rejected => ExitStatus::Rejected,
            Kind::Usage | Kind::Io | Kind::Output => ExitStatus::Usage,
            Kind::Incomplete => ExitStatus::Incomplete,
        }
    }
}

/// An error to show the user: its kind, a message, the items it lists, the error that caused
/// it, and hints.
#[derive(Debug)]
pub struct CliError {
    kind: Kind,
    message: String,
    source: Option<Box<dyn Error + Send + Sync + 'static>>,
    /// What the message lists, one item a line (`line 5: a variation ...`).
    items: Vec<String>,
    hints: Vec<String>,
}

impl CliError {
    /// An error of `kind` saying `message`.
    pub(crate) fn new(kind: Kind, message: impl fmt::Display) -> Self {
        CliError {
            kind,
            message: message.to_string(),
            source: None,
            items: Vec::new(),
            hints: Vec::new(),
        }
    }

    /// The rules reject the input (exit code 1).
    pub(crate) fn rejected(message: impl fmt::Display) -> Self {
        CliError::new(Kind::Rejected, message)
    }

    /// The command line asks for something that cannot be done (exit code 2).
    pub(crate) fn usage(message: impl fmt::Display) -> Self {
        CliError::new(Kind::Usage, message)
    }

    /// The check could not see everything it must (exit code 3).
    pub(crate) fn incomplete(message: impl fmt::Display) -> Self {
        CliError::new(Kind::Incomplete, message)
    }

    /// A file could not be read or written (exit code 2).
    pub(crate) fn io(path: &std::path::Path, e: &io::Error) -> Self {
        CliError::new(Kind::Io, format!("{}: {e}", correspond::text::path(path)))
            .caused_by(io::Error::new(e.kind(), e.to_string()))
    }

    /// Writing the output failed. A closed pipe (`correspond moves ... | head`) is not an error.
    pub(crate) fn output(e: io::Error) -> Self {
        CliError::new(Kind::Output, format!("cannot write the output: {e}")).caused_by(e)
    }

    /// Keeps the error that caused this one, for [`Error::source`].
    #[must_use]
    pub(crate) fn caused_by(mut self, source: impl Error + Send + Sync + 'static) -> Self {
        self.source = Some(Box::new(source));
        self
    }

    /// A refusal by the game's rules said of the file `path` (`g.yaml: it is not your turn`),
    /// unless it names it already: which game refused the record. Other errors (a key, the
    /// command line) are not about the file, and stay as they are.
    #[must_use]
    pub(crate) fn of_file(mut self, path: &std::path::Path) -> Self {
        let shown = correspond::text::path(path).to_string();
        if self.kind == Kind::Rejected && !self.message.starts_with(&shown) {
            self.message = format!("{shown}: {}", self.message);
        }
        self
    }

    /// Adds the items the message lists, each written on a line of its own under it.
    pub(crate) fn items(mut self, items: impl IntoIterator<Item = String>) -> Self {
        self.items.extend(items);
        self
    }

    /// Adds a hint: what the user can do about it.
    #[must_use]
    pub(crate) fn hint(mut self, hint: impl fmt::Display) -> Self {
        self.hints.push(hint.to_string());
        self
    }

    /// The kind of failure.
    #[must_use]
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The exit status this error maps to.
    #[must_use]
    pub fn status(&self) -> ExitStatus {
        self.kind().status()
    }

    /// Whether the output was a pipe closed by its reader, which is no failure.
    pub(crate) fn is_broken_pipe(&self) -> bool {
        self.kind == Kind::Output
            && self
                .source
                .as_deref()
                .and_then(|e| e.downcast_ref::<io::Error>())
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    }

    /// Writes `error: ...` and `hint: ...` lines, styled when the stream allows it.
    ///
    /// # Errors
    /// When `err` cannot be written to.
    pub fn report(&self, err: &mut dyn Write) -> io::Result<()> {
        let bold_red = anstyle::Style::new()
            .bold()
            .fg_color(Some(anstyle::AnsiColor::Red.into()));
        let bold = anstyle::Style::new().bold();
        // Messages quote files, file names, git and mail, each escaped where it is quoted;
        // escaping the whole line again is the last guard, and changes nothing already escaped.
        let message = correspond::text::escape(&self.message);
        writeln!(err, "{bold_red}error:{bold_red:#} {message}")?;
        for item in &self.items {
            writeln!(err, "  {}", correspond::text::escape(item))?;
        }
        for hint in &self.hints {
            writeln!(
                err,
                "{bold}hint:{bold:#} {}",
                correspond::text::escape(hint)
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        self.items
            .iter()
            .try_for_each(|item| write!(f, "\n  {item}"))
    }
}

impl Error for CliError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}

/// Each layer's error, with the kind it is. Commands that know more (the file, what to do)
/// build their own message instead.
macro_rules! from_layer {
    ($($error:ty => $kind:expr),* $(,)?) => {
        $(impl From<$error> for CliError {
            fn from(e: $error) -> Self {
                CliError::new($kind, &e).caused_by(e)
            }
        })*
    };
}

from_layer! {
    ReplayError => Kind::Rejected,
    LogError => Kind::Rejected,
    SignError => Kind::Usage,
    JournalError => Kind::Io,
    GitError => Kind::Io,
}

/// The output failed: the one I/O error that says "cannot write the output".
#[derive(Debug)]
pub(crate) struct OutputError(io::Error);

impl From<OutputError> for CliError {
    fn from(e: OutputError) -> Self {
        CliError::output(e.0)
    }
}

/// Where a command writes what it prints. `writeln!(out, ...)?` works as on any writer, and its
/// error is an [`OutputError`]. Only pictures carry styles (see [`Out::picture`]), so the rest
/// goes to the stream as it is, with nothing to strip.
pub(crate) struct Out<'a> {
    inner: &'a mut dyn Write,
    /// Whether the reader sees ANSI styles (a colour terminal, or colour forced).
    styled: bool,
}

impl<'a> Out<'a> {
    /// The output to `inner`, showing styles or not.
    pub(crate) fn new(inner: &'a mut dyn Write, styled: bool) -> Self {
        Out { inner, styled }
    }

    /// Whether the reader sees ANSI styles.
    pub(crate) fn styled(&self) -> bool {
        self.styled
    }

    /// Writes a picture, which may carry ANSI styles: as drawn where the reader
    /// sees styles, without them elsewhere.
    pub(crate) fn picture(&mut self, drawn: &str) -> Result<(), OutputError> {
        if self.styled {
            return self.write_all(drawn.as_bytes());
        }
        self.write_all(anstream::adapter::strip_str(drawn).to_string().as_bytes())
    }

    /// What `write!` and `writeln!` call.
    pub(crate) fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> Result<(), OutputError> {
        self.inner.write_fmt(args).map_err(OutputError)
    }

    /// Writes all of `bytes`.
    pub(crate) fn write_all(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        self.inner.write_all(bytes).map_err(OutputError)
    }

    /// Flushes what is buffered.
    pub(crate) fn flush(&mut self) -> Result<(), OutputError> {
        self.inner.flush().map_err(OutputError)
    }
}

#[cfg(test)]
mod tests {
    use super::{CliError, ExitStatus, Kind, Out};
    use std::error::Error as _;
    use std::io;

    /// A writer whose reader has gone away.
    struct Closed;

    impl io::Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(io::ErrorKind::BrokenPipe))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn each_kind_has_its_exit_code() {
        let codes = [
            (Kind::Rejected, ExitStatus::Rejected),
            (Kind::Usage, ExitStatus::Usage),
            (Kind::Io, ExitStatus::Usage),
            (Kind::Output, ExitStatus::Usage),
            (Kind::Incomplete, ExitStatus::Incomplete),
        ];
        for (kind, status) in codes {
            assert_eq!(CliError::new(kind, "x").status(), status);
        }
    }

    #[test]
    fn only_the_output_failing_says_so_and_a_closed_pipe_is_no_failure() {
        let mut closed = Closed;
        let mut out = Out::new(&mut closed, false);
        let failed: CliError = writeln!(out, "e2e4").expect_err("a closed pipe").into();
        assert_eq!(failed.kind(), Kind::Output);
        assert!(failed.is_broken_pipe());
        assert_eq!(failed.to_string(), "cannot write the output: broken pipe");
        let file = CliError::io(
            std::path::Path::new("game.yaml"),
            &io::Error::from(io::ErrorKind::BrokenPipe),
        );
        assert_eq!(file.kind(), Kind::Io);
        assert!(!file.is_broken_pipe(), "a file's broken pipe is the file's");
        assert_eq!(file.to_string(), "game.yaml: broken pipe");
    }

    #[test]
    fn a_layers_error_converts_with_its_kind_and_keeps_its_source() {
        let replay = correspond::games::verify(b"not a game").expect_err("no game");
        let error = CliError::from(replay.clone());
        assert_eq!(error.kind(), Kind::Rejected);
        assert_eq!(error.to_string(), replay.to_string());
        let source = error.source().expect("the replay error");
        assert_eq!(source.to_string(), replay.to_string());
    }
}
