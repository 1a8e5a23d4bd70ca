//! `correspond man`: the manual pages, made from the same definition the command line is
//! parsed with (the help of every command and option), in roff for `man`.

use super::{Cli, CliError, Out};
use clap::CommandFactory;

/// Print the manual page of correspond, or of one command, in roff; or write every page into
/// a folder: `correspond man --dir ~/.local/share/man/man1`, then `man correspond`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The command whose page to print; without it, the program's.
    #[arg(value_name = "COMMAND", conflicts_with = "dir", value_hint = clap::ValueHint::Other)]
    command: Option<String>,
    /// Write the program's page and every command's (correspond.1, correspond-play.1, ...)
    /// into this folder, made if need be, instead of printing one.
    #[arg(long, value_name = "DIR")]
    dir: Option<std::path::PathBuf>,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let mut program = Cli::command();
    // Built, each command knows its full name (correspond-play), which its page is named by.
    program.build();
    if let Some(dir) = &args.dir {
        return write_all(&program, dir, out);
    }
    let page = match &args.command {
        None => program,
        Some(name) => {
            let Some(sub) = program
                .get_subcommands()
                .find(|c| c.get_name() == name || c.get_all_aliases().any(|a| a == name))
            else {
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

/// One page in roff.
fn roff(page: clap::Command) -> Result<Vec<u8>, CliError> {
    let mut roff = Vec::new();
    clap_mangen::Man::new(page.version(env!("CARGO_PKG_VERSION")))
        .render(&mut roff)
        .map_err(|e| CliError::usage(format!("cannot make the page: {e}")))?;
    Ok(roff)
}

/// Every page into `dir`, each written whole or not at all; says which.
fn write_all(
    program: &clap::Command,
    dir: &std::path::Path,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| CliError::io(dir, &e))?;
    let mut pages = vec![("correspond".to_owned(), program.clone())];
    pages.extend(
        program
            .get_subcommands()
            .map(|c| (format!("correspond-{}", c.get_name()), c.clone())),
    );
    for (name, page) in &pages {
        let path = dir.join(format!("{name}.1"));
        // Written whole under a temporary name and renamed into place, over an older page.
        super::html::write_page(&path, &roff(page.clone())?)?;
    }
    writeln!(
        out,
        "wrote {} manual pages into {}",
        pages.len(),
        correspond::text::path(dir)
    )?;
    Ok(())
}
