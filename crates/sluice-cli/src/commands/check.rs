//! `sluice check FILE...`: validate files, print a diagnostic for each invalid one.

use std::path::{Path, PathBuf};

use sluice_core::NoopWriter;

use crate::Failure;
use crate::commands::pump::{DialectFlags, Shape, json_options, pump};
use crate::format::{Dialect, Format};
use crate::input::{Input, stdin_at_most_once};

/// Arguments of `sluice check`.
///
/// Two independent choices, as in `convert`: whether the input is one JSON text, NDJSON
/// records or MessagePack (`--ndjson`, `--msgpack`, else the extension, else JSON), and the
/// syntax of each JSON value (`--strict`, `--relaxed`, `--json5`, else the extension).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The files to check (`-` for standard input, at most once).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    dialect: DialectFlags,
    /// The input is NDJSON records, whatever its extension (each in the chosen dialect).
    #[arg(long, conflicts_with = "msgpack")]
    ndjson: bool,
    /// The input is MessagePack (a stream of values), whatever its extension.
    #[arg(long, conflicts_with = "dialect")]
    msgpack: bool,
    /// Refuse an object that holds a key twice (json/DuplicateKey). Without it such a
    /// document is valid, as RFC 8259 allows. JSON and NDJSON input only: with a MessagePack
    /// file (--msgpack, or by its extension) it is a usage error.
    #[arg(long, conflicts_with = "msgpack")]
    unique_keys: bool,
}

impl Args {
    /// The format and dialect `path` is read with.
    fn mode(&self, path: &Path) -> (Format, Dialect) {
        let format = if self.msgpack {
            Some(Format::Msgpack)
        } else if self.ndjson {
            Some(Format::Ndjson)
        } else {
            None
        };
        (
            Format::of_input(format, path).unwrap_or(Format::Json),
            self.dialect.resolve(path),
        )
    }
}

/// Checks every file, each on its own: a file that cannot be read is reported in one line
/// and the others are still checked, each invalid one with its diagnostic. The result is a
/// usage failure if any file could not be read, else invalid if any file is.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    stdin_at_most_once(&args.files)?;
    unique_keys_for_json_only(args)?;
    if let [path] = args.files.as_slice() {
        // Alone, the file's own report is the whole report.
        return check(args, path);
    }
    let (mut invalid, mut unreadable) = (0usize, 0usize);
    for path in &args.files {
        match check(args, path) {
            // Nothing is written, so a closed output pipe cannot happen here.
            Ok(()) | Err(Failure::Quiet) => {}
            Err(Failure::Invalid(diagnostic)) => {
                crate::to_stderr(format_args!("{diagnostic}"));
                invalid += 1;
            }
            Err(Failure::Usage(message)) => {
                crate::to_stderr(format_args!("sluice: {message}\n"));
                unreadable += 1;
            }
        }
    }
    let total = args.files.len();
    // The count is the tool's own message, prefixed as the others are: a usage failure gets
    // the prefix from `main`, an invalid one is written as it is.
    if unreadable > 0 {
        return Err(Failure::Usage(format!(
            "{invalid} of {total} files invalid, {unreadable} of {total} could not be read"
        )));
    }
    if invalid > 0 {
        return Err(Failure::Invalid(format!(
            "sluice: {invalid} of {total} files invalid\n"
        )));
    }
    Ok(())
}

/// Refuses `--unique-keys` when a file is MessagePack by its extension, as `convert` does
/// (with `--msgpack`, clap refuses the pair): the MessagePack reader keeps every key of a
/// map, so the check would pass without having been made. Refused before anything is read,
/// as a bad argument is, rather than reported as one file that could not be checked.
fn unique_keys_for_json_only(args: &Args) -> Result<(), Failure> {
    if !args.unique_keys {
        return Ok(());
    }
    let packed: Vec<String> = args
        .files
        .iter()
        .filter(|path| args.mode(path).0 == Format::Msgpack)
        .map(|path| format!("`{}`", crate::name::shown(path)))
        .collect();
    if packed.is_empty() {
        return Ok(());
    }
    Err(Failure::Usage(format!(
        "--unique-keys applies to JSON and NDJSON input only: {} {} MessagePack (by the \
         extension), whose maps are read as they are",
        packed.join(", "),
        if packed.len() == 1 { "is" } else { "are" },
    )))
}

/// Checks one file: a usage failure if it cannot be read, invalid with its diagnostic.
fn check(args: &Args, path: &Path) -> Result<(), Failure> {
    let (format, dialect) = args.mode(path);
    let options = json_options(format, dialect, args.unique_keys);
    let input = Input::open(path)?;
    pump(input, format, options, Shape::Same, &mut NoopWriter::new())
}
