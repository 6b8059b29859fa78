//! Choosing a reader at run time and pumping it into a writer.
//!
//! The reader is an enum over the concrete readers rather than a `Box<dyn Reader>`: the match
//! per call is cheap and keeps each reader's own code monomorphized.
//!
//! NDJSON is read with [`NdjsonReader`], record by record, so it follows the library's record
//! rules (a line break between records) rather than those of concatenated JSON.

use std::cell::RefCell;
use std::io::Read;
use std::path::Path;
use std::rc::Rc;

use sluice_core::pipe::copy_token;
use sluice_core::{
    Entry, EnumToken, Error, Ext, Number, Reader, Result as SluiceResult, Span, SpanHint, Token,
    Writer, pipe, pipe_value,
};
use sluice_json::{
    DuplicateKeys, Input as JsonInput, IoInput, JsonOptions, JsonReader, NdjsonReader, Record,
    Relaxation, SliceInput as JsonSlice,
};
use sluice_msgpack::{
    MsgPackReader, ReadInput, SliceInput as MsgPackSlice, codes as msgpack_codes,
};

use crate::Failure;
use crate::format::{Dialect, Format};
use crate::input::{Input, invalid};
use crate::output::{self, OutputWriter};
use crate::recent::{JSON_CAP, Recent, Releaser, Tee};

/// The JSON dialect flags shared by the commands that read JSON: at most one of them.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
#[group(id = "dialect", multiple = false)]
pub(crate) struct DialectFlags {
    /// Read each value as RFC 8259 JSON exactly (the default, but for .jsonc and .json5
    /// files).
    #[arg(long)]
    strict: bool,
    /// Read relaxed JSON: comments and trailing commas.
    #[arg(long)]
    relaxed: bool,
    /// Read JSON5 (unquoted keys, single quotes, hex, Infinity/NaN, ...).
    #[arg(long)]
    json5: bool,
}

impl DialectFlags {
    /// The dialect asked for, else the one the file name suggests.
    pub(crate) fn resolve(self, path: &Path) -> Dialect {
        let asked = if self.json5 {
            Some(Dialect::Json5)
        } else if self.relaxed {
            Some(Dialect::Relaxed)
        } else if self.strict {
            Some(Dialect::Strict)
        } else {
            None
        };
        Dialect::of_input(asked, path)
    }
}

/// The reader options of a JSON format and dialect; with `unique_keys` (`--unique-keys`), an
/// object that holds a key twice is json/DuplicateKey.
pub(crate) fn json_options(format: Format, dialect: Dialect, unique_keys: bool) -> JsonOptions {
    let mut options = match dialect {
        Dialect::Strict => JsonOptions::strict(),
        Dialect::Relaxed => JsonOptions::relaxed(),
        Dialect::Json5 => JsonOptions::json5(),
    };
    if format == Format::Ndjson {
        let ndjson = JsonOptions::ndjson();
        options.multiple_values = ndjson.multiple_values;
    }
    // RFC 8259 only says names SHOULD be unique, and JSON5 lets the last one win: unless
    // asked otherwise, a document with a key twice is valid, and every occurrence is copied
    // as it is. This also keeps memory bounded when a huge object streams.
    options.duplicate_keys = if unique_keys {
        DuplicateKeys::Error
    } else {
        DuplicateKeys::LastWins
    };
    options
}

/// Any reader the command line can open.
pub(crate) enum AnyReader<'a> {
    JsonSlice(JsonReader<JsonSlice<'a>>),
    /// Streamed JSON: its bytes are kept in a [`Recent`], released as the reader moves on.
    JsonStream(JsonReader<IoInput<Tee<Box<dyn Read + 'a>>>>, Releaser),
    MsgPackSlice(MsgPackReader<MsgPackSlice<'a>>),
    MsgPackStream(MsgPackReader<ReadInput<Box<dyn Read + 'a>>>),
}

macro_rules! each_reader {
    ($self:expr, $reader:ident => $body:expr) => {
        match $self {
            AnyReader::JsonSlice($reader) => $body,
            AnyReader::JsonStream($reader, _) => $body,
            AnyReader::MsgPackSlice($reader) => $body,
            AnyReader::MsgPackStream($reader) => $body,
        }
    };
}

impl AnyReader<'_> {
    /// Checks that nothing but whitespace trails the last value.
    pub(crate) fn finish(&mut self) -> SluiceResult<()> {
        each_reader!(self, r => r.finish())
    }
}

impl Reader for AnyReader<'_> {
    fn peek(&mut self) -> SluiceResult<Entry> {
        match self {
            AnyReader::JsonStream(r, releaser) => {
                let entry = r.peek()?;
                releaser.reached(r.offset(), || r.span().start);
                Ok(entry)
            }
            other => each_reader!(other, r => r.peek()),
        }
    }
    fn span(&self) -> Span {
        each_reader!(self, r => r.span())
    }
    fn read_null(&mut self) -> SluiceResult<()> {
        each_reader!(self, r => r.read_null())
    }
    fn read_bool(&mut self) -> SluiceResult<bool> {
        each_reader!(self, r => r.read_bool())
    }
    fn read_str(&mut self) -> SluiceResult<&str> {
        each_reader!(self, r => r.read_str())
    }
    fn read_name(&mut self) -> SluiceResult<&str> {
        each_reader!(self, r => r.read_name())
    }
    fn read_number(&mut self) -> SluiceResult<Number<'_>> {
        each_reader!(self, r => r.read_number())
    }
    fn read_blob(&mut self) -> SluiceResult<&[u8]> {
        each_reader!(self, r => r.read_blob())
    }
    fn read_ext(&mut self) -> SluiceResult<Ext<'_>> {
        each_reader!(self, r => r.read_ext())
    }
    fn read_map_root(&mut self) -> SluiceResult<Option<usize>> {
        each_reader!(self, r => r.read_map_root())
    }
    fn read_map_end(&mut self) -> SluiceResult<()> {
        each_reader!(self, r => r.read_map_end())
    }
    fn read_array_root(&mut self) -> SluiceResult<Option<usize>> {
        each_reader!(self, r => r.read_array_root())
    }
    fn read_array_end(&mut self) -> SluiceResult<()> {
        each_reader!(self, r => r.read_array_end())
    }
    fn read_enum(&mut self) -> SluiceResult<EnumToken<'_>> {
        each_reader!(self, r => r.read_enum())
    }
    fn skip(&mut self) -> SluiceResult<()> {
        each_reader!(self, r => r.skip())
    }
}

/// How the root values of the input become those of the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Each root value is copied as it is.
    Same,
    /// The root values become the elements of one array (NDJSON records into one JSON text).
    IntoArray,
    /// A root array's elements become root values of their own; any other root value is
    /// copied (a JSON array into NDJSON records).
    SplitArray,
    /// The input must hold exactly one root value, which is copied (a MessagePack stream
    /// into one JSON text).
    One,
}

/// Pipes the whole input into `writer`, shaped by `shape`, finishes the writer and checks
/// that nothing trails; errors become diagnostics with the source snippet, streamed or not
/// (but for MessagePack, which has no lines: a streamed one gives the byte offset).
/// `options` are those of the JSON reader (see [`json_options`]; ignored for MessagePack).
pub(crate) fn pump<W: Writer>(
    input: Input,
    format: Format,
    options: JsonOptions,
    shape: Shape,
    writer: &mut W,
) -> Result<(), Failure> {
    if format == Format::Ndjson {
        return pump_ndjson(input, options, shape, writer);
    }
    with_reader(input, format, options, |reader| {
        copy_shaped(reader, writer, shape).map_err(in_command_line_terms)
    })
}

/// Copies every root value of `reader` into `writer`, shaped by `shape`, and checks that
/// nothing trails.
fn copy_shaped<W: Writer>(
    reader: &mut AnyReader<'_>,
    writer: &mut W,
    shape: Shape,
) -> SluiceResult<()> {
    match shape {
        // The tight loop over every token.
        Shape::Same => pipe(reader, writer)?,
        Shape::One => copy_one(reader, writer)?,
        Shape::IntoArray | Shape::SplitArray => write_shaped(writer, shape, |writer| {
            while reader.peek()? != Entry::Ended {
                copy_root(reader, writer, shape)?;
            }
            Ok(())
        })?,
    }
    reader.finish()
}

/// The reader's note on a switch that would have accepted the input names the library's
/// option (`JsonOptions::comments`); here it names what the command line offers instead: the
/// dialect flags, or the NDJSON format for several root values (often NDJSON given to a
/// command that reads one JSON text, as `sluice fmt records.ndjson`). A relaxation this
/// function does not know keeps the library's note.
fn in_command_line_terms(mut err: Error) -> Error {
    let Some(relaxation) = Relaxation::noted_in(&err) else {
        return err;
    };
    let offer = match relaxation {
        Relaxation::Comments | Relaxation::TrailingCommas => "`--relaxed` or `--json5`",
        Relaxation::UnquotedKeys
        | Relaxation::SingleQuotes
        | Relaxation::Json5Numbers
        | Relaxation::Json5Escapes
        | Relaxation::Json5Whitespace
        | Relaxation::Json5ControlCharacters => "`--json5`",
        Relaxation::MultipleValues => {
            "`check --ndjson` reads NDJSON records, one value per line, as `convert` and \
             `dump` do with `--from ndjson`"
        }
        _ => return err,
    };
    let library = relaxation.note();
    for note in err.notes_mut() {
        if *note == library {
            *note = format!("{} ({offer})", relaxation.reason());
        }
    }
    err
}

/// [`pump`]s the input into `writer`, then commits the output the writer hands back (a file
/// replaces the old one). A failed write is reported as the output's, not the input's (see
/// [`WriteWatch`](crate::output::WriteWatch)), and a failure leaves the output uncommitted.
pub(crate) fn pump_and_commit<W: OutputWriter>(
    input: Input,
    format: Format,
    options: JsonOptions,
    shape: Shape,
    mut writer: W,
) -> Result<(), Failure> {
    let watch = writer.output().watch();
    pump(input, format, options, shape, &mut writer).map_err(|f| watch.blame(f))?;
    output::commit(writer, &watch)
}

/// Copies the only root value of a MessagePack stream and finishes the writer: an empty
/// stream, or a second value (pointed at whole), is an error, since the output holds one.
fn copy_one<W: Writer>(reader: &mut AnyReader<'_>, writer: &mut W) -> SluiceResult<()> {
    if reader.peek()? == Entry::Ended {
        return Err(Error::new(
            msgpack_codes::TRUNCATED,
            "the input holds no value, and a JSON document holds one",
        )
        .with_span(Span::at(0)));
    }
    pipe_value(reader, writer)?;
    if reader.peek()? != Entry::Ended {
        // Skipped to learn its span; a second value that is itself broken is reported as
        // such.
        reader.skip()?;
        return Err(Error::new(
            msgpack_codes::TRAILING_DATA,
            "a second value: a JSON document holds one value (`--to ndjson` writes one value \
             per line)",
        )
        .with_span(reader.span()));
    }
    writer.finish()
}

/// Opens the right reader over `input` and runs `body` with it; JSON errors become
/// diagnostics with the source snippet, in memory or streamed (see [`Recent`]), and
/// MessagePack errors give the byte offset.
fn with_reader<T>(
    input: Input,
    format: Format,
    options: JsonOptions,
    body: impl FnOnce(&mut AnyReader<'_>) -> SluiceResult<T>,
) -> Result<T, Failure> {
    match input {
        Input::Loaded { name, bytes } => {
            let mut reader = match format {
                Format::Json | Format::Ndjson => {
                    AnyReader::JsonSlice(JsonReader::from_slice(&bytes).with_options(options))
                }
                Format::Msgpack => AnyReader::MsgPackSlice(MsgPackReader::from_slice(&bytes)),
            };
            // MessagePack is binary: it has no lines to show, so its diagnostics give the
            // byte offset, as when it streams.
            let text = (format != Format::Msgpack).then_some(bytes.as_slice());
            body(&mut reader).map_err(|err| invalid(err, &name, text))
        }
        Input::Streamed { name, source } => {
            let recent = Rc::new(RefCell::new(Recent::with_cap(JSON_CAP)));
            let mut reader = match format {
                Format::Json | Format::Ndjson => AnyReader::JsonStream(
                    JsonReader::new(IoInput::new(Tee::new(source, Rc::clone(&recent))), options),
                    Releaser::new(Rc::clone(&recent)),
                ),
                Format::Msgpack => AnyReader::MsgPackStream(MsgPackReader::from_read(source)),
            };
            body(&mut reader).map_err(|err| {
                // An I/O error keeps its own handling (a closed pipe is quiet); MessagePack
                // has no lines to show.
                let err = if err.code() == sluice_core::codes::IO || format == Format::Msgpack {
                    err
                } else {
                    recent.borrow().locate(err, &name)
                };
                invalid(err, &name, None)
            })
        }
    }
}

/// NDJSON, record by record. A streamed input keeps its recent lines (see [`Recent`]) so
/// that its diagnostics show the line as well.
fn pump_ndjson<W: Writer>(
    input: Input,
    options: JsonOptions,
    shape: Shape,
    writer: &mut W,
) -> Result<(), Failure> {
    match input {
        Input::Loaded { name, bytes } => {
            let mut records = NdjsonReader::new(JsonSlice::new(&bytes), options);
            copy_records(&mut records, writer, shape, |_, _| {})
                .map_err(|err| invalid(in_command_line_terms(err), &name, Some(&bytes)))
        }
        Input::Streamed { name, source } => {
            let recent = Rc::new(RefCell::new(Recent::default()));
            let source = IoInput::new(Tee::new(source, Rc::clone(&recent)));
            let mut records = NdjsonReader::new(source, options);
            copy_records(&mut records, writer, shape, |offset, line| {
                recent.borrow_mut().release(offset, line);
            })
            .map_err(|err| {
                // An I/O error keeps its own handling (a closed pipe is quiet).
                let err = if err.code() == sluice_core::codes::IO {
                    err
                } else {
                    recent.borrow().locate(in_command_line_terms(err), &name)
                };
                invalid(err, &name, None)
            })
        }
    }
}

/// Copies every record as `shape` says and finishes the writer; `at_record` learns the
/// byte offset and line of each record as it starts.
fn copy_records<S: JsonInput, W: Writer>(
    records: &mut NdjsonReader<S>,
    writer: &mut W,
    shape: Shape,
    mut at_record: impl FnMut(usize, usize),
) -> SluiceResult<()> {
    write_shaped(writer, shape, |writer| {
        while let Some(record) = records.next_record()? {
            at_record(record.offset(), record.line());
            copy_record(record, writer, shape)?;
        }
        Ok(())
    })
}

/// Copies one record as [`copy_root`] does, and checks its line with [`Record::finish`]
/// before the token that completes it (a root scalar, or the end of its root container) is
/// written: a record whose line goes on with a second value (`1 2`) is an error of that
/// record, at that value, and never reaches the output whole (an NDJSON writer hands out
/// complete lines only, so the bad line is not written at all).
fn copy_record<S: JsonInput, W: Writer>(
    mut record: Record<'_, S>,
    writer: &mut W,
    shape: Shape,
) -> SluiceResult<()> {
    let (token, span, start) = match copy_all_but_last(&mut record, writer, shape) {
        Ok(last) => last,
        // The line's first error is the one reported (see `Record::first_error`).
        Err(err) => return Err(record.first_error(err)),
    };
    record.finish()?;
    let Some(token) = token else {
        return Ok(());
    };
    // Spanned as `pipe_value` spans a writer's error: the token copied, or the whole
    // container when the error is about it.
    token
        .write(writer)
        .map_err(|err| match (err.span_hint(), start) {
            (SpanHint::EnclosingContainer, Some(start)) => {
                err.with_span(Span::new(start, span.end))
            }
            _ => err.or_span(span),
        })
}

/// Copies a record but for its last token, which is read and handed back, with its span
/// and the start of the root container, if any (`None` for the end of a root array split
/// into records, which is not written).
fn copy_all_but_last<S: JsonInput, W: Writer>(
    record: &mut Record<'_, S>,
    writer: &mut W,
    shape: Shape,
) -> SluiceResult<(Option<Token>, Span, Option<usize>)> {
    let entry = record.peek()?;
    let split = shape == Shape::SplitArray && entry == Entry::ArrayRoot;
    let mut start = None;
    if entry.is_container_start() {
        start = Some(record.span().start);
        if split {
            record.read_array_root()?;
        } else {
            copy_token(record, writer, entry)?;
        }
        while !record.peek()?.is_container_end() {
            pipe_value(record, writer)?;
        }
    }
    let last = record.peek()?;
    let token = Token::read(record, last)?;
    Ok(((!split).then_some(token), record.span(), start))
}

/// Runs `copy_roots`, inside one array with [`Shape::IntoArray`], and finishes the writer.
fn write_shaped<W: Writer>(
    writer: &mut W,
    shape: Shape,
    copy_roots: impl FnOnce(&mut W) -> SluiceResult<()>,
) -> SluiceResult<()> {
    if shape == Shape::IntoArray {
        writer.write_array_root(None)?;
    }
    copy_roots(writer)?;
    if shape == Shape::IntoArray {
        writer.write_array_end()?;
    }
    writer.finish()
}

/// Copies one root value, or with [`Shape::SplitArray`] the elements of a root array.
fn copy_root<R: Reader + ?Sized, W: Writer + ?Sized>(
    reader: &mut R,
    writer: &mut W,
    shape: Shape,
) -> SluiceResult<()> {
    if shape == Shape::SplitArray && reader.peek()? == Entry::ArrayRoot {
        reader.read_array_root()?;
        while reader.peek()? != Entry::ArrayEnd {
            pipe_value(reader, writer)?;
        }
        return reader.read_array_end();
    }
    pipe_value(reader, writer)
}
