//! `sluice dump FILE`: one line per token.

use std::path::PathBuf;

use sluice_core::DumpWriter;

use crate::Failure;
use crate::commands::pump::{DialectFlags, Shape, json_options, pump};
use crate::format::Format;
use crate::input::Input;
use crate::output::Output;

/// Arguments of `sluice dump`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The file to dump (`-` for standard input).
    file: PathBuf,
    /// The input format (default: from the extension, else JSON).
    #[arg(long, value_enum)]
    from: Option<Format>,
    #[command(flatten)]
    dialect: DialectFlags,
}

pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let input = Input::open(&args.file)?;
    let format = Format::of_input(args.from, &args.file).unwrap_or(Format::Json);
    let dialect = args.dialect.resolve(&args.file);
    let sink = Output::open(None)?;
    let watch = sink.watch();
    // The writer's `finish` (in `pump`) flushes the output.
    let mut writer = DumpWriter::new(sink);
    let options = json_options(format, dialect, false);
    pump(input, format, options, Shape::Same, &mut writer).map_err(|f| watch.blame(f))
}
