//! `sluice dump FILE`: one line per token.

use std::io::{self, BufWriter};

use sluice_core::DumpWriter;

use crate::Failure;
use crate::commands::pump::{DialectFlags, Shape, pump};
use crate::format::Format;
use crate::input::Input;

/// Arguments of `sluice dump`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The file to dump (`-` for standard input).
    file: String,
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
    let mut writer = DumpWriter::new(BufWriter::new(io::stdout().lock()));
    pump(input, format, dialect, Shape::Same, &mut writer)
}
