//! `correspond extract`: what an auditor needs to check one record with OpenSSH alone.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::record;
use correspond::log::{self, GameFile};
use correspond::sign;
use std::path::PathBuf;

/// Print what OpenSSH needs to check one document of a game file (0 is the header): the exact
/// bytes its signature covers, the signature in OpenSSH's armour, or an allowed_signers file
/// for both players.
///
/// For example:
///
///   correspond extract game.yaml 7 --signed-bytes > rec7.bytes
///   correspond extract game.yaml 7 --signature > rec7.sig
///   correspond extract game.yaml 7 --allowed-signers > signers
///   ssh-keygen -Y verify -f signers -I NAME -n correspond -s rec7.sig < rec7.bytes
///
/// NAME is the record's `signer`. The file need not verify: only the documents up to the one
/// asked for are read, and only by the bytes rule, so extract works on disputed files too.
#[derive(Debug, clap::Args)]
#[command(
    group = clap::ArgGroup::new("what").required(true),
    verbatim_doc_comment,
    about = "Print what OpenSSH needs to check one document of a game file (0 is the header): the \
             exact bytes its signature covers, the signature in OpenSSH's armour, or an \
             allowed_signers file for both players"
)]
pub(crate) struct Args {
    /// The game file.
    file: PathBuf,
    /// The document: 0 for the header, then the record number.
    #[arg(value_hint = clap::ValueHint::Other)]
    document: usize,
    /// The bytes the document's signature covers.
    #[arg(long, group = "what")]
    signed_bytes: bool,
    /// The document's signature, armoured for `ssh-keygen -Y verify`.
    #[arg(long, group = "what")]
    signature: bool,
    /// An allowed_signers file naming both players' keys, for the namespace `correspond`.
    #[arg(long, group = "what")]
    allowed_signers: bool,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<(), CliError> {
    let bytes = record::read(&args.file)?;
    let malformed = |e: &dyn std::fmt::Display| {
        CliError::rejected(format!("{}: {e}", correspond::text::path(&args.file)))
    };
    let document = log::raw_document(&bytes, args.document).map_err(|e| match e.kind {
        log::LogErrorKind::NoDocument { .. } => CliError::usage(format!(
            "{}: {}",
            correspond::text::path(&args.file),
            e.kind
        ))
        .hint(format!(
            "`correspond log {}` lists the records",
            correspond::text::path(&args.file)
        )),
        _ => malformed(&e),
    })?;
    if args.allowed_signers {
        // Only the header needs to be readable: it holds the keys.
        let header = log::raw_document(&bytes, 0).map_err(|e| malformed(&e))?;
        let file = GameFile::parse(&bytes[..header.end]).map_err(|e| malformed(&e))?;
        for player in &file.header().players {
            let mut key = player.key.clone();
            key.set_comment("");
            let key = key
                .to_openssh()
                .map_err(|e| CliError::usage(format!("cannot write a key: {e}")))?;
            writeln!(
                out,
                "{} namespaces=\"{}\" {key}",
                principal(&player.name),
                sign::NAMESPACE
            )?;
        }
        return Ok(());
    }
    // No well-formed document holds a control or format character but its newlines; one that
    // does is not printed, so that its bytes cannot act on a terminal.
    // The text printed, and the line it starts on.
    let (shown, first_line) = if args.signed_bytes {
        (&document.text[..document.signed.len()], document.line)
    } else {
        let last = document.line + document.text.matches('\n').count() - 1;
        (document.signature, last)
    };
    if let Some((i, c)) = shown
        .char_indices()
        .find(|(_, c)| *c != '\n' && correspond::text::is_unsafe(*c))
    {
        let line = first_line + shown[..i].matches('\n').count();
        return Err(CliError::rejected(format!(
            "{}: {} holds the character {} on line {line}, which no well-formed document holds: \
             its bytes are not printed",
            correspond::text::path(&args.file),
            if args.document == 0 {
                "the header".to_owned()
            } else {
                format!("record {}", args.document)
            },
            c.escape_unicode()
        ))
        .hint("cut them out into a file with the README's awk recipe, if you need them"));
    }
    if args.signed_bytes {
        out.write_all(document.signed)?;
    } else {
        out.write_all(sign::armor(document.signature).as_bytes())?;
    }
    Ok(())
}

/// A player's name as an allowed_signers principal: quoted when it holds a space.
fn principal(name: &str) -> String {
    if name.contains(' ') {
        format!("\"{name}\"")
    } else {
        name.to_owned()
    }
}
