//! Progress on standard error for long work (checking a club's files, auditing histories), as
//! cargo shows it: on a terminal only, once the work has taken about a second, and cleared when
//! it ends. Nothing of it reaches standard output, JSON or a pipe: indicatif draws to standard
//! error only when it is a terminal. `--progress auto` (the default) is off under `TERM=dumb`
//! and in CI (`CI` set); `always` draws from the start wherever standard error is a terminal;
//! `never` draws nothing.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal as _;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// When progress is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum When {
    /// On a terminal, after about a second, unless `TERM=dumb` or in CI.
    #[default]
    Auto,
    /// On a terminal, from the start.
    Always,
    /// Never.
    Never,
}

/// The option of the commands that show progress.
#[derive(Clone, Copy, Debug, clap::Args)]
pub(crate) struct ProgressArgs {
    /// Show progress on standard error while the work goes on: `auto` on a terminal once it
    /// takes more than a second (not under TERM=dumb or in CI), `always` on a terminal from
    /// the start, or `never`. Standard output is never touched.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = When::Auto)]
    progress: When,
}

/// The command's choice, set once when it starts.
static CHOSEN: OnceLock<When> = OnceLock::new();

impl ProgressArgs {
    /// Makes this the command's choice.
    pub(crate) fn choose(self) {
        let _ = CHOSEN.set(self.progress);
    }
}

/// How long work goes on before `auto` shows it.
const AFTER: Duration = Duration::from_secs(1);

/// Progress through `len` items of work, said as `verb` (`Checking`): dropped, it is cleared.
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    started: Instant,
    delay: Duration,
}

/// Starts showing progress through `len` items, if the command's choice and the terminal allow.
pub(crate) fn start(len: usize, verb: &'static str, unit: &'static str) -> Progress {
    let when = CHOSEN.get().copied().unwrap_or_default();
    let stderr_is_a_terminal = std::io::stderr().is_terminal();
    let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
    let on = match when {
        When::Never => false,
        When::Always => stderr_is_a_terminal,
        When::Auto => stderr_is_a_terminal && !dumb && !ci,
    };
    let bar = on.then(|| {
        let bar = ProgressBar::with_draw_target(
            Some(u64::try_from(len).unwrap_or(u64::MAX)),
            ProgressDrawTarget::hidden(),
        );
        if let Ok(style) = ProgressStyle::with_template("{prefix:>12} [{bar:30}] {pos}/{len} {msg}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix(verb);
        bar.set_message(unit);
        bar
    });
    let progress = Progress {
        bar,
        started: Instant::now(),
        delay: if when == When::Always {
            Duration::ZERO
        } else {
            AFTER
        },
    };
    progress.show_when_due();
    progress
}

impl Progress {
    /// One more item done.
    pub(crate) fn inc(&self) {
        if let Some(bar) = &self.bar {
            self.show_when_due();
            bar.inc(1);
        }
    }

    /// Draws to standard error once the work has taken long enough.
    fn show_when_due(&self) {
        if let Some(bar) = &self.bar
            && bar.is_hidden()
            && self.started.elapsed() >= self.delay
        {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
