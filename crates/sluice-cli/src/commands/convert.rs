//! `sluice convert IN`: convert between JSON, NDJSON and MessagePack.
//!
//! A pipe from the input format's reader into the output format's writer; streams with
//! bounded memory when the input is large (the MessagePack writer learns container lengths
//! itself).

use clap::ValueEnum;
use sluice_json::{BlobMode, ExtMode, JsonWriter, NdjsonWriter, WriterOptions};
use sluice_msgpack::MsgPackWriter;

use crate::Failure;
use crate::commands::pump::{DialectFlags, pump};
use crate::format::Format;
use crate::input::Input;
use crate::output;

/// How MessagePack bin and ext values are written as JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub(crate) enum BinaryInJson {
    /// They are an error.
    #[default]
    Error,
    /// bin as a base64 string, ext as `{"$ext": type, "data": "<base64>"}`.
    Base64,
}

/// Arguments of `sluice convert`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The input file (`-` for standard input).
    input: String,
    /// The input format (default: from the extension).
    #[arg(long, value_enum)]
    from: Option<Format>,
    /// The output format (default: from the `-o` extension).
    #[arg(long, value_enum)]
    to: Option<Format>,
    /// Write here instead of standard output.
    #[arg(short, long, value_name = "OUT")]
    output: Option<String>,
    /// Pretty JSON output.
    #[arg(long)]
    pretty: bool,
    /// How MessagePack bin/ext values are written to JSON.
    #[arg(long, value_enum, default_value_t)]
    binary: BinaryInJson,
    #[command(flatten)]
    dialect: DialectFlags,
}

pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let from = args
        .from
        .or_else(|| Format::from_path(&args.input))
        .ok_or_else(|| {
            Failure::Usage(format!(
                "cannot tell the format of {}: use --from json|ndjson|msgpack",
                args.input
            ))
        })?;
    let to = args
        .to
        .or_else(|| args.output.as_deref().and_then(Format::from_path))
        .ok_or_else(|| Failure::Usage("cannot tell the output format: use --to".into()))?;
    let dialect = args.dialect.resolve(&args.input);
    let input = Input::open(&args.input)?;
    let sink = output::open(args.output.as_deref())?;
    let mut json_options = if args.pretty {
        WriterOptions::pretty()
    } else {
        WriterOptions::condensed()
    };
    if args.binary == BinaryInJson::Base64 {
        json_options.blob = BlobMode::Base64;
        json_options.ext = ExtMode::Object;
    }
    match to {
        Format::Json => {
            json_options.final_newline = true;
            json_options.multiple_values = true;
            let mut writer = JsonWriter::new(sink, json_options);
            pump(input, from, dialect, &mut writer)
        }
        Format::Ndjson => {
            let mut writer = NdjsonWriter::with_options(sink, json_options);
            pump(input, from, dialect, &mut writer)
        }
        Format::Msgpack => {
            let mut writer = MsgPackWriter::new(sink);
            pump(input, from, dialect, &mut writer)
        }
    }
}
