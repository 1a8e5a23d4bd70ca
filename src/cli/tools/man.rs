//! `correspond man`: the manual pages, made from the same definition the command line is
//! parsed with (the help of every command and option), in roff for `man`.

use crate::cli::Cli;
use crate::cli::CliError;
use crate::cli::Out;
use clap::CommandFactory;

/// Print the manual page of correspond, or of one command, in roff; or write every page into
/// a folder: `correspond man --dir ~/.local/share/man/man1`, then `man correspond`. Every
/// command at every depth has its page (`correspond-journal-export`), and every page a page
/// names is written.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The command whose page to print (`play`, or `journal-export` for a command within
    /// another); without it, the program's.
    #[arg(value_name = "COMMAND", conflicts_with = "dir", value_hint = clap::ValueHint::Other)]
    command: Option<String>,
    /// Write the program's page and every command's (correspond.1, correspond-play.1, ...)
    /// into this folder, made if need be, instead of printing one.
    #[arg(long, value_name = "DIR")]
    dir: Option<std::path::PathBuf>,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    // Without clap's `help` commands, which a page would name (`correspond-help-play(1)`) and
    // no page is written for: `man correspond-play` is that help.
    let mut program = Cli::command().disable_help_subcommand(true);
    // Built, each command knows its full name (correspond-journal-export), which its page is
    // named by.
    program.build();
    let pages = pages(&program);
    if let Some(dir) = &args.dir {
        return write_all(&pages, dir, out);
    }
    let page = match &args.command {
        None => program,
        Some(name) => {
            let full = format!("correspond-{name}");
            // By its page's name, or a command by one of its aliases (`reveal` for `flip`).
            let sub = pages[1..]
                .iter()
                .find(|c| c.get_display_name() == Some(full.as_str()))
                .or_else(|| {
                    (program.get_subcommands()).find(|c| c.get_all_aliases().any(|a| a == name))
                });
            let Some(sub) = sub else {
                return Err(CliError::usage(format!(
                    "there is no command `{}`",
                    correspond::text::escape(name)
                ))
                .hint("`correspond --help` lists the commands"));
            };
            sub.clone()
        }
    };
    out.write_all(&roff(page)?)?;
    Ok(())
}

/// The program and every command it names, at every depth, that is not hidden: a page each.
fn pages(program: &clap::Command) -> Vec<clap::Command> {
    let mut pages = vec![program.clone()];
    let mut i = 0;
    while let Some(page) = pages.get(i) {
        let inner: Vec<clap::Command> = page
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
            .cloned()
            .collect();
        pages.extend(inner);
        i += 1;
    }
    pages
}

/// One page in roff, in ASCII: troff reads a page as Latin-1 unless told otherwise, so a help
/// text's `½` came out as `Â½`, and `←` or `×` as warnings. Each character outside ASCII is
/// written as groff's `\[uXXXX]`; `--help` keeps them as they are.
fn roff(page: clap::Command) -> Result<Vec<u8>, CliError> {
    use std::fmt::Write as _;
    let mut roff = Vec::new();
    clap_mangen::Man::new(page.version(env!("CARGO_PKG_VERSION")))
        .render(&mut roff)
        .map_err(|e| CliError::usage(format!("cannot make the page: {e}")))?;
    let text = String::from_utf8(roff)
        .map_err(|e| CliError::usage(format!("cannot make the page: {e}")))?;
    let mut ascii = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            ascii.push(c);
        } else {
            let _ = write!(ascii, "\\[u{:04X}]", u32::from(c));
        }
    }
    Ok(ascii.into_bytes())
}

/// Every page into `dir`, each written whole or not at all; says which.
fn write_all(
    pages: &[clap::Command],
    dir: &std::path::Path,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| CliError::io(dir, &e))?;
    for page in pages {
        let name = page.get_display_name().unwrap_or(page.get_name());
        let path = dir.join(format!("{name}.1"));
        // Written whole under a temporary name and renamed into place, over an older page.
        crate::cli::reading::html::write_page(&path, &roff(page.clone())?)?;
    }
    writeln!(
        out,
        "wrote {} manual pages into {}",
        pages.len(),
        correspond::text::path(dir)
    )?;
    Ok(())
}
