//! `sluice check FILE...`: validate files, print a diagnostic for each invalid one.

use sluice_core::NoopWriter;

use crate::Failure;
use crate::commands::pump::{Shape, pump};
use crate::format::{Dialect, Format};
use crate::input::Input;

/// Arguments of `sluice check`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("mode").multiple(false))]
pub(crate) struct Args {
    /// The files to check (`-` for standard input).
    #[arg(required = true)]
    files: Vec<String>,
    /// RFC 8259 JSON exactly (the default for .json files).
    #[arg(long, group = "mode")]
    strict: bool,
    /// Relaxed JSON: comments, trailing commas, any value at the root.
    #[arg(long, group = "mode")]
    relaxed: bool,
    /// JSON5.
    #[arg(long, group = "mode")]
    json5: bool,
    /// NDJSON: JSON values separated by line breaks.
    #[arg(long, group = "mode")]
    ndjson: bool,
    /// MessagePack (a stream of values).
    #[arg(long, group = "mode")]
    msgpack: bool,
}

impl Args {
    fn mode(&self, path: &str) -> (Format, Dialect) {
        if self.msgpack {
            return (Format::Msgpack, Dialect::Strict);
        }
        let dialect = if self.json5 {
            Dialect::Json5
        } else if self.relaxed {
            Dialect::Relaxed
        } else if self.strict {
            Dialect::Strict
        } else {
            Format::dialect_from_path(path)
        };
        if self.ndjson {
            return (Format::Ndjson, dialect);
        }
        let format = if self.strict || self.relaxed || self.json5 {
            Format::Json
        } else {
            Format::from_path(path).unwrap_or(Format::Json)
        };
        (format, dialect)
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
