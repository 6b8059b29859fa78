//! `sluice check FILE...`: validate files, print a diagnostic for each invalid one.

use sluice_core::NoopWriter;

use crate::Failure;
use crate::commands::pump::{DialectFlags, Shape, pump};
use crate::format::{Dialect, Format};
use crate::input::Input;

/// Arguments of `sluice check`.
///
/// Two independent choices, as in `convert`: whether the input is one JSON text, NDJSON
/// records or MessagePack (`--ndjson`, `--msgpack`, else the extension, else JSON), and the
/// syntax of each JSON value (`--strict`, `--relaxed`, `--json5`, else the extension).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The files to check (`-` for standard input).
    #[arg(required = true)]
    files: Vec<String>,
    #[command(flatten)]
    dialect: DialectFlags,
    /// The input is NDJSON records, whatever its extension (each in the chosen dialect).
    #[arg(long, conflicts_with = "msgpack")]
    ndjson: bool,
    /// The input is MessagePack (a stream of values), whatever its extension.
    #[arg(long, conflicts_with = "dialect")]
    msgpack: bool,
}

impl Args {
    /// The format and dialect `path` is read with.
    fn mode(&self, path: &str) -> (Format, Dialect) {
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

/// Checks every file; the first usage problem wins, else any invalid file makes the result
/// invalid (every diagnostic is printed).
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let mut invalid = 0usize;
    for path in &args.files {
        let (format, dialect) = args.mode(path);
        let input = Input::open(path)?;
        match pump(input, format, dialect, Shape::Same, &mut NoopWriter::new()) {
            Ok(()) => {}
            Err(Failure::Invalid(diagnostic)) => {
                eprint!("{diagnostic}");
                invalid += 1;
            }
            Err(usage) => return Err(usage),
        }
    }
    match (invalid, args.files.len()) {
        (0, _) => {}
        (_, 1) => return Err(Failure::Invalid(String::new())),
        (invalid, total) => {
            return Err(Failure::Invalid(format!(
                "{invalid} of {total} files invalid\n"
            )));
        }
    }
    Ok(())
}
