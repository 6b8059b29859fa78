//! Choosing a reader at run time and pumping it into a writer.
//!
//! The reader is an enum over the concrete readers rather than a `Box<dyn Reader>`: the match
//! per call is cheap and keeps each reader's own code monomorphized.

use std::io::Read;

use sluice_core::{
    Entry, EnumToken, Ext, Number, Reader, Result as SluiceResult, Span, Writer, pipe,
};
use sluice_json::{IoInput, JsonOptions, JsonReader, SliceInput as JsonSlice};
use sluice_msgpack::{MsgPackReader, ReadInput, SliceInput as MsgPackSlice};

use crate::Failure;
use crate::format::{Dialect, Format};
use crate::input::{Input, invalid};

/// The JSON dialect flags shared by the commands that read JSON.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub(crate) struct DialectFlags {
    /// Read relaxed JSON: comments, trailing commas, any value at the root.
    #[arg(long, conflicts_with = "json5")]
    relaxed: bool,
    /// Read JSON5 (unquoted keys, single quotes, hex, Infinity/NaN, ...).
    #[arg(long)]
    json5: bool,
}

impl DialectFlags {
    /// The dialect asked for, else the one the file name suggests.
    pub(crate) fn resolve(self, path: &str) -> Dialect {
        if self.json5 {
            Dialect::Json5
        } else if self.relaxed {
            Dialect::Relaxed
        } else {
            Format::dialect_from_path(path)
        }
    }
}

/// The reader options of a JSON format and dialect.
pub(crate) fn json_options(format: Format, dialect: Dialect) -> JsonOptions {
    let mut options = match dialect {
        Dialect::Strict => JsonOptions::strict(),
        Dialect::Relaxed => JsonOptions::relaxed(),
        Dialect::Json5 => JsonOptions::json5(),
    };
    if format == Format::Ndjson {
        let ndjson = JsonOptions::ndjson();
        options.multiple_values = ndjson.multiple_values;
    }
    options
}

/// Any reader the command line can open.
pub(crate) enum AnyReader<'a> {
    JsonSlice(JsonReader<JsonSlice<'a>>),
    JsonStream(JsonReader<IoInput<Box<dyn Read + 'a>>>),
    MsgPackSlice(MsgPackReader<MsgPackSlice<'a>>),
    MsgPackStream(MsgPackReader<ReadInput<Box<dyn Read + 'a>>>),
}

macro_rules! each_reader {
    ($self:expr, $reader:ident => $body:expr) => {
        match $self {
            AnyReader::JsonSlice($reader) => $body,
            AnyReader::JsonStream($reader) => $body,
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
        each_reader!(self, r => r.peek())
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

/// Opens the right reader over `input` and runs `body` with it; errors become diagnostics
/// with the source snippet when the input is in memory.
pub(crate) fn with_reader<T>(
    input: Input,
    format: Format,
    dialect: Dialect,
    body: impl FnOnce(&mut AnyReader<'_>) -> SluiceResult<T>,
) -> Result<T, Failure> {
    match input {
        Input::Loaded { name, bytes } => {
            let mut reader = match format {
                Format::Json | Format::Ndjson => AnyReader::JsonSlice(
                    JsonReader::from_slice(&bytes).with_options(json_options(format, dialect)),
                ),
                Format::Msgpack => AnyReader::MsgPackSlice(MsgPackReader::from_slice(&bytes)),
            };
            body(&mut reader).map_err(|err| invalid(err, &name, Some(&bytes)))
        }
        Input::Streamed { name, source } => {
            let mut reader = match format {
                Format::Json | Format::Ndjson => AnyReader::JsonStream(
                    JsonReader::from_read(source).with_options(json_options(format, dialect)),
                ),
                Format::Msgpack => AnyReader::MsgPackStream(MsgPackReader::from_read(source)),
            };
            body(&mut reader).map_err(|err| invalid(err, &name, None))
        }
    }
}

/// Pipes the whole input into `writer` and checks that nothing trails.
pub(crate) fn pump<W: Writer>(
    input: Input,
    format: Format,
    dialect: Dialect,
    writer: &mut W,
) -> Result<(), Failure> {
    with_reader(input, format, dialect, |reader| {
        pipe(reader, writer)?;
        reader.finish()
    })
}
