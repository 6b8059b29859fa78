//! `sluice convert IN`: convert between JSON, NDJSON and MessagePack.
//!
//! A pipe from the input format's reader into the output format's writer; streams with
//! bounded memory, but for MessagePack output from JSON or NDJSON: MessagePack puts a
//! container's length before its items, and a JSON reader learns it only at the container's
//! end, so the MessagePack writer holds each root value (the whole document, or one record)
//! until it closes. Between JSON and NDJSON the shape changes so that the output is valid in its
//! format: NDJSON records become one JSON array, and a JSON root array becomes one record
//! per element. A MessagePack stream becomes one JSON text only if it holds exactly one
//! value.

use std::path::PathBuf;

use clap::ValueEnum;
use sluice_json::{BlobMode, ExtMode, JsonWriter, NdjsonWriter, WriterOptions};
use sluice_msgpack::MsgPackWriter;

use crate::Failure;
use crate::commands::pump::{DialectFlags, Shape, json_options, pump_and_commit};
use crate::format::{Format, OutputFormat};
use crate::input::Input;
use crate::output::Output;

const AFTER_HELP: &str = "\
NDJSON to JSON writes one JSON text: an array of the records (`[]` when there are none).
JSON to NDJSON writes one record per element when the root value is an array, else the
root value as the only record. MessagePack holds a stream of values: each value becomes
an NDJSON record, and each record a MessagePack value. MessagePack to JSON needs exactly
one value, since a JSON text holds one: an empty input or a second value is an error (use
--to ndjson for a stream of several values). A MessagePack map whose keys give one JSON key
twice (the integer 1 and the string 1, true and the string true, or one key twice) is an error
(json/DuplicateKey) at the second key, in JSON and NDJSON output alike.

JSON to MessagePack holds the MessagePack encoding of the whole root value in memory
until its end (MessagePack writes each container's length before its items); NDJSON to
MessagePack holds one record at a time. For a large JSON array, convert it to NDJSON
first, then the NDJSON to MessagePack (a stream of values, one per element).

OUT is replaced only if the conversion succeeds, so it may be the input file itself.";

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
#[command(after_help = AFTER_HELP)]
pub(crate) struct Args {
    /// The input file (`-` for standard input).
    input: PathBuf,
    /// The input format (default: from the extension).
    #[arg(long, value_enum)]
    from: Option<Format>,
    /// The output format (default: from the `-o` extension).
    #[arg(long, value_enum)]
    to: Option<OutputFormat>,
    /// Write here instead of standard output (replaced only on success).
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Pretty JSON output (JSON output only: NDJSON is one record per line, MessagePack has no
    /// layout).
    #[arg(long)]
    pretty: bool,
    /// How MessagePack bin/ext values are written to JSON or NDJSON (default: error; not for
    /// MessagePack output, which keeps them as they are).
    #[arg(long, value_enum)]
    binary: Option<BinaryInJson>,
    #[command(flatten)]
    dialect: DialectFlags,
    /// Refuse an object that holds a key twice (json/DuplicateKey), rather than copy every
    /// occurrence (JSON and NDJSON input only).
    #[arg(long)]
    unique_keys: bool,
}

pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let from = Format::of_input(args.from, &args.input).ok_or_else(|| {
        Failure::Usage(format!(
            "cannot tell the format of {}: use --from json|ndjson|msgpack",
            crate::name::shown(&args.input)
        ))
    })?;
    let to = args
        .to
        .map(Format::from)
        .or_else(|| args.output.as_deref().and_then(Format::from_path))
        .ok_or_else(|| Failure::Usage("cannot tell the output format: use --to".into()))?;
    check_options(args, from, to)?;
    let reading = json_options(from, args.dialect.resolve(&args.input), args.unique_keys);
    let input = Input::open(&args.input)?;
    let sink = Output::open(args.output.as_deref())?;
    let mut writing = if args.pretty {
        WriterOptions::pretty()
    } else {
        WriterOptions::condensed()
    };
    if args.binary == Some(BinaryInJson::Base64) {
        writing.blob = BlobMode::Base64;
        writing.ext = ExtMode::Object;
    }
    // MessagePack map keys of other types become their text (`1` and `"1"` are both `"1"`),
    // and a map may hold a key twice: JSON with a key twice in one object is what `check`
    // and every strict reader refuse, so stop at that key instead of writing it.
    writing.reject_duplicate_keys = from == Format::Msgpack;
    let shape = match (from, to) {
        (Format::Ndjson, Format::Json) => Shape::IntoArray,
        (Format::Json, Format::Ndjson) => Shape::SplitArray,
        (Format::Msgpack, Format::Json) => Shape::One,
        _ => Shape::Same,
    };
    match to {
        Format::Json => {
            // One JSON text: NDJSON records are one array, and a MessagePack stream must
            // hold exactly one value (`Shape::One`).
            writing.final_newline = true;
            let writer = JsonWriter::new(sink, writing);
            pump_and_commit(input, from, reading, shape, writer)
        }
        Format::Ndjson => {
            let writer = NdjsonWriter::with_options(sink, writing);
            pump_and_commit(input, from, reading, shape, writer)
        }
        Format::Msgpack => pump_and_commit(input, from, reading, shape, MsgPackWriter::new(sink)),
    }
}

/// Refuses an option that has no effect on the input or output format, rather than ignoring
/// it.
fn check_options(args: &Args, from: Format, to: Format) -> Result<(), Failure> {
    if args.unique_keys && from == Format::Msgpack {
        return Err(Failure::Usage(
            "--unique-keys applies to JSON and NDJSON input only: MessagePack maps are read as \
             they are (written as JSON or NDJSON, a map that gives a key twice is refused \
             anyway)"
                .into(),
        ));
    }
    if args.pretty && to != Format::Json {
        return Err(Failure::Usage(
            "--pretty applies to JSON output (--to json) only: NDJSON is one record per line, \
             MessagePack has no layout"
                .into(),
        ));
    }
    if args.binary.is_some() && to == Format::Msgpack {
        return Err(Failure::Usage(
            "--binary applies to JSON and NDJSON output only: MessagePack keeps bin and ext \
             values as they are"
                .into(),
        ));
    }
    Ok(())
}
