//! `sluice fmt FILE`: reformat JSON, pretty or condensed.

use std::path::PathBuf;

use sluice_json::{JsonWriter, WriterOptions};

use crate::Failure;
use crate::commands::pump::{DialectFlags, Shape, json_options, pump_and_commit};
use crate::format::Format;
use crate::input::Input;
use crate::output::Output;

/// Arguments of `sluice fmt`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("layout").multiple(false))]
pub(crate) struct Args {
    /// The JSON file to format (`-` for standard input; a MessagePack file is `convert`'s).
    file: PathBuf,
    /// Indented output, one item per line (the default).
    #[arg(long, group = "layout")]
    pretty: bool,
    /// No whitespace at all.
    #[arg(long, group = "layout")]
    condensed: bool,
    /// Write here instead of standard output (replaced only on success, so it may be FILE).
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    #[command(flatten)]
    dialect: DialectFlags,
    /// Refuse an object that holds a key twice (json/DuplicateKey), rather than copy every
    /// occurrence.
    #[arg(long)]
    unique_keys: bool,
}

pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    if Format::from_path(&args.file) == Some(Format::Msgpack) {
        // Read as JSON, a valid MessagePack file would be reported as invalid input (exit
        // code 1) at its first byte: the extension says which command it needs.
        return Err(Failure::Usage(format!(
            "fmt reads JSON, and {0} is MessagePack (by the extension): `sluice convert {0} \
             --to json` writes it as JSON",
            crate::name::shown(&args.file)
        )));
    }
    let input = Input::open(&args.file)?;
    let dialect = args.dialect.resolve(&args.file);
    let mut options = if args.condensed {
        WriterOptions::condensed()
    } else {
        WriterOptions::pretty()
    };
    options.final_newline = true;
    // One JSON text in, one out: the reader takes a single root value in every dialect, so a
    // second one (`[1] [2]`, or NDJSON records) is json/TrailingToken, an invalid input. The
    // writer keeps its default of exactly one root value to match.
    let writer = JsonWriter::new(Output::open(args.output.as_deref())?, options);
    let reading = json_options(Format::Json, dialect, args.unique_keys);
    pump_and_commit(input, Format::Json, reading, Shape::Same, writer)
}
