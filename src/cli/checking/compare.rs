//! `correspond compare`: two copies of one game, and which is right.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::error::ExitStatus;
use correspond::fork::{self, CompareError, Copy, Relation};
use std::path::{Path, PathBuf};

/// Compare two copies of one game (yours, and the one your opponent pushed or mailed): say
/// whether they are the same, which extends the other, or where they fork. At a fork, two
/// records with one number signed by the same player is equivocation: a proof is written (the
/// common part and the two records, exactly as signed) that `correspond check-proof` and
/// OpenSSH alone can check.
///
/// Exit code: 0 when one copy is the other or extends it, 1 at a fork, for different games, or
/// when a copy does not verify; 2 when a file cannot be read or the proof cannot be written.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// One copy (A).
    a: PathBuf,
    /// The other copy (B).
    b: PathBuf,
    /// Where to write a proof of equivocation [default: next to A, named
    /// `<A's name>.equivocation-<record>.proof`]. An existing file is never overwritten.
    #[arg(long, value_name = "PATH")]
    proof: Option<PathBuf>,
    /// Print one JSON object (schemas/compare.schema.json).
    #[arg(long)]
    json: bool,
}

/// `compare --json`.
#[derive(serde::Serialize)]
struct Json {
    a: String,
    b: String,
    /// `same`, `extends`, `unrelated` or `fork`.
    relation: &'static str,
    /// For `extends`: the longer copy, `a` or `b`, and the documents it adds.
    #[serde(skip_serializing_if = "Option::is_none")]
    longer: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    added: Option<[usize; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fork: Option<ForkJson>,
}

#[derive(serde::Serialize)]
struct ForkJson {
    /// The first record that differs.
    record: usize,
    /// That record in each copy: its signer, what it does, its line.
    records: [ForkRecord; 2],
    /// Whether one signer signed both: a proof of equivocation.
    equivocation: bool,
    /// Each copy's first defect, or null when it verifies.
    defects: [Option<String>; 2],
    /// The copy that stands by the crossing rule, if one does.
    stands: Option<&'static str>,
    /// Where the proof of equivocation was written, or why it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    proof: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    proof_error: Option<String>,
}

#[derive(serde::Serialize)]
struct ForkRecord {
    signer: String,
    action: String,
    line: usize,
}

/// Writes a proof where there is none: a file there already holding this very proof (the same
/// copies compared again) is kept and said as written; any other file is never overwritten.
fn write_proof(path: &Path, proof: &[u8]) -> std::io::Result<()> {
    match correspond::log::create_new(path, proof) {
        Err(_) if correspond::log::read_limited(path).is_ok_and(|held| held == proof) => Ok(()),
        done => done,
    }
}

fn copy_name(which: Copy) -> &'static str {
    match which {
        Copy::A => "a",
        Copy::B => "b",
    }
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    let read =
        |path: &Path| correspond::log::read_limited(path).map_err(|e| CliError::io(path, &e));
    let (a, b) = (read(&args.a)?, read(&args.b)?);
    let name = |which: Copy| match which {
        Copy::A => correspond::text::path(&args.a).to_string(),
        Copy::B => correspond::text::path(&args.b).to_string(),
    };
    let relation = fork::compare(&a, &b).map_err(|e| match e {
        CompareError::Invalid { which, error } => {
            CliError::rejected(format!("{}: {error}", name(which)))
                .hint("compare two copies of one game that each verify up to where they part")
        }
    })?;
    if args.json {
        return json(args, &a, &b, &relation, out);
    }
    match relation {
        Relation::Same => {
            writeln!(out, "{} and {} are the same", name(Copy::A), name(Copy::B))?;
            Ok(ExitStatus::Success)
        }
        Relation::Extends { longer, added } => {
            let shorter = if longer == Copy::A { Copy::B } else { Copy::A };
            let span = if added.len() == 1 {
                format!("record {}", added.start)
            } else {
                format!("records {}-{}", added.start, added.end - 1)
            };
            writeln!(
                out,
                "{} extends {} by {span}: {} is behind, and nothing is in dispute",
                name(longer),
                name(shorter),
                name(shorter)
            )?;
            Ok(ExitStatus::Success)
        }
        Relation::Unrelated => {
            writeln!(
                out,
                "{} and {} are different games: their headers differ",
                name(Copy::A),
                name(Copy::B)
            )?;
            Ok(ExitStatus::Rejected)
        }
        Relation::Fork(f) => forked(args, (&a, &b), &f, &name, out),
    }
}

/// Says where two copies fork: an equivocation (one player signing two records numbered
/// alike), with its proof written, or two players' records that raced; then which stands.
fn forked(
    args: &Args,
    (a, b): (&[u8], &[u8]),
    f: &fork::Fork,
    name: &impl Fn(Copy) -> String,
    out: &mut Out<'_>,
) -> Result<ExitStatus, CliError> {
    let [(sa, wa), (sb, wb)] = &f.records;
    let n = f.document;
    if f.equivocation {
        let path = args.proof.clone().unwrap_or_else(|| proof_name(&args.a, n));
        let same = f
            .alike_but
            .map(|what| format!(" (the same action, signed twice: the records differ in {what})"))
            .unwrap_or_default();
        writeln!(
            out,
            "EQUIVOCATION: {sa} signed two different records numbered {n}: {wa} in {} \
             (line {}), {wb} in {} (line {}){same}",
            name(Copy::A),
            f.lines[0],
            name(Copy::B),
            f.lines[1]
        )?;
        match write_proof(&path, &fork::proof(a, b, f)) {
            Ok(()) => writeln!(
                out,
                "proof written to {}: check it with `correspond check-proof {}`, or with \
                 OpenSSH alone (see the README)",
                correspond::text::path(&path),
                correspond::text::path(&path)
            )?,
            Err(e) => writeln!(
                out,
                "no proof written: {}: {e} (give another path with --proof)",
                correspond::text::path(&path)
            )?,
        }
    } else {
        writeln!(
            out,
            "{} and {} fork at record {n}: {sa} signed {wa} in {} (line {}), {sb} signed \
             {wb} in {} (line {})",
            name(Copy::A),
            name(Copy::B),
            name(Copy::A),
            f.lines[0],
            name(Copy::B),
            f.lines[1]
        )?;
    }
    judged(f, name, n, out)?;
    Ok(ExitStatus::Rejected)
}

/// `compare --json`: the relation as fields; a proof of equivocation is written as the text
/// output writes it.
fn json(
    args: &Args,
    a: &[u8],
    b: &[u8],
    relation: &Relation,
    out: &mut Out<'_>,
) -> Result<ExitStatus, CliError> {
    let mut json = Json {
        a: args.a.to_string_lossy().into_owned(),
        b: args.b.to_string_lossy().into_owned(),
        relation: "same",
        longer: None,
        added: None,
        fork: None,
    };
    let status = match relation {
        Relation::Same => ExitStatus::Success,
        Relation::Extends { longer, added } => {
            json.relation = "extends";
            json.longer = Some(copy_name(*longer));
            json.added = Some([added.start, added.end]);
            ExitStatus::Success
        }
        Relation::Unrelated => {
            json.relation = "unrelated";
            ExitStatus::Rejected
        }
        Relation::Fork(f) => {
            json.relation = "fork";
            let record = |i: usize| ForkRecord {
                signer: f.records[i].0.clone(),
                action: f.records[i].1.to_string(),
                line: f.lines[i],
            };
            let (mut proof, mut proof_error) = (None, None);
            if f.equivocation {
                let path = args
                    .proof
                    .clone()
                    .unwrap_or_else(|| proof_name(&args.a, f.document));
                match write_proof(&path, &fork::proof(a, b, f)) {
                    Ok(()) => proof = Some(path.to_string_lossy().into_owned()),
                    Err(e) => proof_error = Some(format!("{}: {e}", path.to_string_lossy())),
                }
            }
            json.fork = Some(ForkJson {
                record: f.document,
                records: [record(0), record(1)],
                equivocation: f.equivocation,
                defects: f.defects.clone(),
                stands: f.stands.map(copy_name),
                proof,
                proof_error,
            });
            ExitStatus::Rejected
        }
    };
    let text = serde_json::to_string_pretty(&json).map_err(|e| CliError::usage(e.to_string()))?;
    writeln!(out, "{}", correspond::text::json(text))?;
    Ok(status)
}

/// What the rules say of each copy at a fork, and so which stands: a copy that does not verify
/// is named with its first defect and never kept.
fn judged(
    f: &fork::Fork,
    name: &dyn Fn(Copy) -> String,
    n: usize,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    for (which, defect) in [Copy::A, Copy::B].into_iter().zip(&f.defects) {
        if let Some(defect) = defect {
            let defect = correspond::text::escape(&defect.to_string()).into_owned();
            writeln!(out, "{} does not verify: {defect}", name(which))?;
        }
    }
    let advice = match &f.defects {
        [None, None] if f.equivocation => return Ok(()),
        [None, None] if f.seen.is_some() => {
            let seen = f.seen.as_ref().expect("matched");
            let (who, m, here) = (&seen.signer, seen.record, name(seen.copy));
            let other = name(match seen.copy {
                Copy::A => Copy::B,
                Copy::B => Copy::A,
            });
            match seen.shows {
                fork::Shows::BuiltOn => format!(
                    "these did not cross: {who}'s record {m} in {here} follows the record {n} \
                     there, so {who} had seen it, and signed another record {n} in {other}, \
                     taking back what they had built on; {here} stands (both players signed \
                     it after record {}), and {other} is evidence for an arbiter",
                    n - 1
                ),
                fork::Shows::Withdrawn => format!(
                    "the crossing rule voids {who}'s resignation in {other}, and {who} was to \
                     sign it again on top of {here}'s record {n}; {who}'s record {m} in {here} \
                     is something else instead: a resignation withdrawn, for an arbiter (a \
                     resignation stays a resignation)"
                ),
            }
        }
        [None, None] => match f.stands {
            Some(stands) => {
                let (void, [(awaited, _), (other, _)]) = match stands {
                    Copy::A => (Copy::B, [&f.records[0], &f.records[1]]),
                    Copy::B => (Copy::A, [&f.records[1], &f.records[0]]),
                };
                format!(
                    "both appended after record {} before seeing the other's record: by the \
                     crossing rule {} stands, since the game awaited {awaited}, and {other}'s \
                     record {n} in {} is void; {other} takes that copy and signs again on top \
                     of it if it still applies (by mail, `correspond receive --settle` does \
                     both); in git the copy on the shared branch stands instead",
                    n - 1,
                    name(stands),
                    name(void)
                )
            }
            None => format!(
                "both appended after record {} at the same time: the copy on the shared branch \
                 stands, and the other player appends again on top of it if there is still \
                 something to do",
                n - 1
            ),
        },
        [None, Some(_)] => format!("{} stands: keep it", name(Copy::A)),
        [Some(_), None] => format!("{} stands: keep it", name(Copy::B)),
        [Some(_), Some(_)] => format!(
            "neither copy verifies: keep a copy that ends before record {n}, and show both to an \
             arbiter"
        ),
    };
    writeln!(out, "{advice}")?;
    Ok(())
}

/// Where a proof about a game file goes by default: next to it, `games/x.yaml` ->
/// `games/x.equivocation-7.proof` (not `.yaml`, so that `verify games/` does not take it for a
/// game).
pub(crate) fn proof_name(game: &Path, record: usize) -> PathBuf {
    let stem = game
        .file_stem()
        .map_or_else(|| "game".into(), |s| s.to_string_lossy());
    game.with_file_name(format!("{stem}.equivocation-{record}.proof"))
}
