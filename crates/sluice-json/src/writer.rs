//! [`JsonWriter`]: tokens to JSON text, condensed or pretty.
//!
//! The writer checks structure as it goes (a key only where a key is expected, ends that
//! match their roots, one root value unless asked for more) and reports misuse as
//! [`INVALID_STRUCTURE`](sluice_core::codes::INVALID_STRUCTURE) instead of writing broken
//! JSON. Output is collected in a buffer and handed to the [`io::Write`] in large pieces, so
//! there is no need for a `BufWriter`.

use std::io;

use lexical_core::FormattedSize;
use sluice_core::{Error, Ext, Number, Result, Writer, codes as core_codes};

use sluice_core::base64;

use crate::{codes, scan};

mod text;
mod unique;

/// How `NaN` and the infinities are written.
///
/// ```
/// use sluice_core::Writer;
/// use sluice_json::{codes, JsonWriter, NonFinite, WriterOptions};
///
/// let write = |non_finite| {
///     let mut writer = JsonWriter::new(Vec::new(), WriterOptions { non_finite, ..WriterOptions::condensed() });
///     writer.write_f64(f64::NEG_INFINITY)?;
///     writer.into_string()
/// };
/// assert_eq!(write(NonFinite::Error).unwrap_err().code(), codes::NON_FINITE_NUMBER);
/// assert_eq!(write(NonFinite::Json5)?, "-Infinity");
/// assert_eq!(write(NonFinite::Null)?, "null");
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NonFinite {
    /// They are an error ([`NON_FINITE_NUMBER`](crate::codes::NON_FINITE_NUMBER)): JSON has
    /// no spelling for them.
    #[default]
    Error,
    /// As the JSON5 literals `NaN`, `Infinity` and `-Infinity` (readable with
    /// [`JsonOptions::json5`](crate::JsonOptions::json5)).
    Json5,
    /// As `null` (what JavaScript's `JSON.stringify` does; the value is lost).
    Null,
}

/// How raw bytes ([`Writer::write_blob`]) are written.
///
/// ```
/// use sluice_core::{codes, Writer};
/// use sluice_json::{BlobMode, JsonWriter, WriterOptions};
///
/// let write = |blob| {
///     let mut writer = JsonWriter::new(Vec::new(), WriterOptions { blob, ..WriterOptions::condensed() });
///     writer.write_blob(b"hi!")?;
///     writer.into_string()
/// };
/// assert_eq!(write(BlobMode::Error).unwrap_err().code(), codes::UNSUPPORTED);
/// assert_eq!(write(BlobMode::Base64)?, r#""aGkh""#);
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BlobMode {
    /// They are an error ([`UNSUPPORTED`](sluice_core::codes::UNSUPPORTED)).
    #[default]
    Error,
    /// As a string holding their base64 form (standard alphabet, padded).
    Base64,
}

/// How extension values ([`Writer::write_ext`]) are written.
///
/// ```
/// use sluice_core::{codes, Ext, Writer};
/// use sluice_json::{ExtMode, JsonWriter, WriterOptions};
///
/// let write = |ext| {
///     let mut writer = JsonWriter::new(Vec::new(), WriterOptions { ext, ..WriterOptions::condensed() });
///     writer.write_ext(Ext { kind: 5, data: b"hi!" })?;
///     writer.into_string()
/// };
/// assert_eq!(write(ExtMode::Error).unwrap_err().code(), codes::UNSUPPORTED);
/// assert_eq!(write(ExtMode::Object)?, r#"{"$ext":5,"data":"aGkh"}"#);
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExtMode {
    /// They are an error ([`UNSUPPORTED`](sluice_core::codes::UNSUPPORTED)).
    #[default]
    Error,
    /// As an object `{"$ext": <type>, "data": "<base64 payload>"}`.
    Object,
}

/// The writer's layout and conversions. Start from [`WriterOptions::condensed`] or
/// [`WriterOptions::pretty`] and change fields.
///
/// ```
/// use sluice_core::{Token, Writer};
/// use sluice_json::{JsonWriter, WriterOptions};
/// let options = WriterOptions { indent: "\t".into(), ..WriterOptions::pretty() };
/// let mut writer = JsonWriter::new(Vec::new(), options);
/// writer.write_map_root(None)?;
/// writer.write_name("a")?;
/// writer.write_u64(1)?;
/// writer.write_map_end()?;
/// assert_eq!(writer.into_string()?, "{\n\t\"a\": 1\n}");
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriterOptions {
    /// Each item of a non-empty container on its own line, indented.
    pub pretty: bool,
    /// One level of indentation (pretty only).
    pub indent: String,
    /// The line break: in pretty output; between root values with `multiple_values`
    /// (condensed output too); at the end with `final_newline`.
    pub newline: String,
    /// A space after `:` in pretty output, its one-line parts included; condensed output
    /// has no spaces, whatever this says.
    pub space_after_colon: bool,
    /// A container that is an object member value starts on a line of its own (pretty
    /// only, not inside a one-line part): `"a":\n  [` instead of `"a": [`.
    pub nested_on_new_line: bool,
    /// End the output with `newline` after the last root value.
    pub final_newline: bool,
    /// Several root values (concatenated JSON, NDJSON), separated by `newline`: one per
    /// line in condensed output. Off, a second root value is
    /// [`INVALID_STRUCTURE`](sluice_core::codes::INVALID_STRUCTURE).
    pub multiple_values: bool,
    /// Escape every non-ASCII character as `\uXXXX` (with surrogate pairs), for ASCII-only
    /// output.
    pub escape_non_ascii: bool,
    /// `NaN` and the infinities.
    pub non_finite: NonFinite,
    /// Raw bytes.
    pub blob: BlobMode,
    /// Extension values.
    pub ext: ExtMode,
    /// Refuse a key that the object being written already holds, before writing any byte
    /// of it, as [`DUPLICATE_KEY`](crate::codes::DUPLICATE_KEY); the object stays open, so
    /// the caller may write another key or end it.
    ///
    /// Keys compare by their text as a JSON reader decodes it, after every conversion: a
    /// number, `true`, `false`, `null` or a non-finite number ([`NonFinite`]) in key position
    /// is its text, so `1` and `"1"` are the same key, while `1` and `1.0` are not. Each
    /// object has its own keys: those of an object around it or inside it, of a sibling, or
    /// of another root value (NDJSON record) never count.
    ///
    /// A JSON reader never hands a writer a key twice unless asked to
    /// ([`DuplicateKeys::LastWins`](crate::DuplicateKeys::LastWins)), but other sources do:
    /// MessagePack map keys of other types with the same text, or a map written by hand.
    ///
    /// Off by default. Off, it costs nothing. On, each key costs a lookup
    /// in a per-object set (a bit filter for objects up to 64 keys, a hash index beyond):
    /// 45% more instructions writing `twitter.json` condensed, 60% for `citm_catalog.json`
    /// (short objects, a key every other token), 32% and 34% in pretty output. The keys of
    /// the open objects are kept, as places in the writer's buffer until it hands them to
    /// the sink, then copied.
    ///
    /// ```
    /// use sluice_core::Writer;
    /// use sluice_json::{codes, JsonWriter, WriterOptions};
    ///
    /// let options = WriterOptions { reject_duplicate_keys: true, ..WriterOptions::condensed() };
    /// let mut writer = JsonWriter::new(Vec::new(), options);
    /// writer.write_map_root(None)?;
    /// writer.write_u64(1)?; // a number as a key: "1"
    /// writer.write_str("a")?;
    /// let err = writer.write_name("1").unwrap_err();
    /// assert_eq!(err.code(), codes::DUPLICATE_KEY);
    /// writer.write_map_end()?;
    /// assert_eq!(writer.into_string()?, r#"{"1":"a"}"#);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    pub reject_duplicate_keys: bool,
}

impl WriterOptions {
    /// No whitespace at all: `{"a":[1,2]}`.
    ///
    /// ```
    /// use sluice_core::pipe;
    /// use sluice_json::{JsonReader, JsonWriter, WriterOptions};
    /// let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
    /// pipe(&mut JsonReader::from_str("{ \"a\" : [ 1 , 2 ] }"), &mut writer)?;
    /// assert_eq!(writer.into_string()?, r#"{"a":[1,2]}"#);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub fn condensed() -> WriterOptions {
        WriterOptions {
            pretty: false,
            indent: "  ".to_owned(),
            newline: "\n".to_owned(),
            space_after_colon: false,
            nested_on_new_line: false,
            final_newline: false,
            multiple_values: false,
            escape_non_ascii: false,
            non_finite: NonFinite::Error,
            blob: BlobMode::Error,
            ext: ExtMode::Error,
            reject_duplicate_keys: false,
        }
    }

    /// Two-space indentation, one item per line, `": "` after keys; an empty container
    /// stays `[]` or `{}`.
    ///
    /// ```
    /// use sluice_core::pipe;
    /// use sluice_json::{JsonReader, JsonWriter, WriterOptions};
    /// let mut writer = JsonWriter::new(Vec::new(), WriterOptions::pretty());
    /// pipe(&mut JsonReader::from_str(r#"{"a":[1,2],"b":{}}"#), &mut writer)?;
    /// assert_eq!(writer.into_string()?, "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}");
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub fn pretty() -> WriterOptions {
        WriterOptions {
            pretty: true,
            space_after_colon: true,
            ..WriterOptions::condensed()
        }
    }
}

impl WriterOptions {
    /// Checks that output written with these options is JSON: `indent` and `newline` hold
    /// only JSON whitespace (space, tab, line feed, carriage return), and with
    /// `multiple_values` the `newline` that separates root values is not empty (`1` then
    /// `2` would run together as `12`).
    ///
    /// [`JsonWriter`] runs this check before the first value and reports a failure as
    /// [`INVALID_WRITER_OPTIONS`](crate::codes::INVALID_WRITER_OPTIONS) from that write,
    /// rather than writing text that does not read back.
    ///
    /// ```
    /// use sluice_core::Writer;
    /// use sluice_json::{codes, JsonWriter, WriterOptions};
    ///
    /// assert!(WriterOptions { indent: "\t".into(), ..WriterOptions::pretty() }.check().is_ok());
    /// let options = WriterOptions { indent: "--".into(), ..WriterOptions::pretty() };
    /// assert_eq!(options.check().unwrap_err().code(), codes::INVALID_WRITER_OPTIONS);
    /// let mut writer = JsonWriter::new(Vec::new(), options);
    /// assert_eq!(
    ///     writer.write_array_root(None).unwrap_err().code(),
    ///     codes::INVALID_WRITER_OPTIONS
    /// );
    /// ```
    ///
    /// # Errors
    /// [`INVALID_WRITER_OPTIONS`](crate::codes::INVALID_WRITER_OPTIONS), naming the field.
    pub fn check(&self) -> Result<()> {
        let whitespace = |text: &str| {
            text.bytes()
                .all(|byte| matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
        };
        let invalid = |message: &str| Err(Error::new(codes::INVALID_WRITER_OPTIONS, message));
        if !whitespace(&self.indent) {
            return invalid("`indent` may hold only spaces, tabs and line breaks");
        }
        if !whitespace(&self.newline) {
            return invalid("`newline` may hold only spaces, tabs and line breaks");
        }
        if self.multiple_values && self.newline.is_empty() {
            return invalid("`newline` separates root values (`multiple_values`): not empty");
        }
        Ok(())
    }
}

impl Default for WriterOptions {
    fn default() -> WriterOptions {
        WriterOptions::condensed()
    }
}

/// What the innermost open container (or the top level) expects next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// No container is open: a root value is next.
    Root,
    /// An array before its first item.
    ArrayFirst,
    /// An array after at least one item.
    ArrayNext,
    /// An object before its first key.
    KeyFirst,
    /// An object after at least one member: a key or the end.
    KeyNext,
    /// An object after a key: its value.
    Value,
}

impl Slot {
    /// `slot as u8` back to the slot, for every value of three bits (the last two, never
    /// packed, read as `Root`): one load, no bounds check.
    const FROM_BITS: [Slot; 8] = [
        Slot::Root,
        Slot::ArrayFirst,
        Slot::ArrayNext,
        Slot::KeyFirst,
        Slot::KeyNext,
        Slot::Value,
        Slot::Root,
        Slot::Root,
    ];
}

/// An enclosing level and the slot it was left in, packed into one word for the writer's
/// stack.
///
/// Packed by hand so that a push and a pop move one integer. As a struct or tuple, the
/// compiler copied it through a temporary in overlapping pieces, and reading a piece back
/// right after writing a neighbouring one waits for the write to retire (a store-forwarding
/// stall). On `citm_catalog.json`, with an object opened every few tokens, those waits
/// took about a fifth of the time samples of condensed writing.
///
/// Bits 0 to 39 hold `end` (a position in `pad`, which is at least that long, so it never
/// reaches 2^40), 40 to 47 `next`, 48 to 55 `first`, 56 `inline` and 57 to 59 the slot.
#[derive(Debug, Clone, Copy)]
struct Saved(u64);

impl Saved {
    const END_BITS: u32 = 40;

    #[inline(always)]
    fn new(slot: Slot, level: Level) -> Saved {
        debug_assert!((level.end as u64) < 1 << Self::END_BITS);
        Saved(
            level.end as u64
                | u64::from(level.next) << 40
                | u64::from(level.first) << 48
                | u64::from(level.inline) << 56
                | u64::from(slot as u8) << 57,
        )
    }

    #[inline(always)]
    fn slot(self) -> Slot {
        Slot::FROM_BITS[(self.0 >> 57) as usize & 7]
    }

    #[inline(always)]
    fn level(self) -> Level {
        #[allow(clippy::cast_possible_truncation)] // each field masked to its width
        Level {
            inline: (self.0 >> 56) & 1 != 0,
            next: (self.0 >> 40) as u8,
            first: (self.0 >> 48) as u8,
            end: (self.0 & ((1 << Self::END_BITS) - 1)) as usize,
        }
    }
}

/// Where a value stands, as [`JsonWriter::begin_value`] finds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// An item of an array or the value of an object member.
    Item,
    /// A root value.
    Root,
    /// Key position: a scalar there is written as a key.
    Key,
}

/// One level of nesting: how its items are separated. What it expects next is the
/// writer's `slot`, kept apart (see [`JsonWriter::open`]).
///
/// The separators are ranges of the writer's `pad` buffer (see [`JsonWriter::pad`]), so
/// the comma, line break and indentation before an item are one copy. Only pretty output
/// reads them: in condensed output the level stays [`Level::ROOT`] at every depth.
#[derive(Debug, Clone, Copy)]
struct Level {
    /// On one line inside pretty output.
    inline: bool,
    /// `pad[next..end]` goes before every item but the first...
    next: u8,
    /// ... and `pad[first..end]` before the first.
    first: u8,
    end: usize,
}

impl Level {
    const ROOT: Level = Level {
        inline: false,
        next: 0,
        first: 0,
        end: 0,
    };
}

/// Start of the line break in a pretty writer's `pad`: `", "` then `","` come first.
const PAD_LINE: usize = 3;

/// [`JsonWriter::key_mode`]: condensed output without the duplicate-key check.
const KEYS_CONDENSED: u8 = 0;
/// [`JsonWriter::key_mode`]: pretty output without the check.
const KEYS_PRETTY: u8 = 1;
/// [`JsonWriter::key_mode`]: `reject_duplicate_keys`, condensed or pretty.
const KEYS_CHECKED: u8 = 2;

/// Where a key opened by [`JsonWriter::open_key`] stands in the writer's buffer.
#[derive(Debug, Clone, Copy)]
struct OpenKey {
    /// Where its bytes start, the separator before it included.
    mark: usize,
    /// Where its text starts, after the opening quote.
    start: usize,
    /// It is its object's first key.
    first: bool,
}

/// Output is handed to the sink once this much is buffered.
const FLUSH_AT: usize = 32 * 1024;

/// A JSON writer implementing [`Writer`].
///
/// Output is buffered: it reaches the sink in large pieces, and the rest at
/// [`finish`](Writer::finish), [`into_inner`](JsonWriter::into_inner) or
/// [`flush`](JsonWriter::flush). Unlike a `BufWriter`, a writer dropped without one of
/// them does not flush: what it still holds is lost.
///
/// ```
/// use sluice_core::Writer;
/// use sluice_json::JsonWriter;
/// let mut file = Vec::new();
/// let mut writer = JsonWriter::condensed(&mut file);
/// writer.write_u64(1)?;
/// drop(writer);
/// assert!(file.is_empty()); // never handed over
/// # Ok::<(), sluice_core::Error>(())
/// ```
///
/// ```
/// use sluice_core::Writer;
/// use sluice_json::{JsonWriter, WriterOptions};
/// let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
/// writer.write_array_root(None)?;
/// writer.write_f64(0.1)?;
/// writer.write_f32(1.1)?;
/// writer.write_i128(-170141183460469231731687303715884105728)?;
/// writer.write_str("tab\t\"quote\"")?;
/// writer.write_array_end()?;
/// assert_eq!(
///     writer.into_string()?,
///     r#"[0.1,1.1,-170141183460469231731687303715884105728,"tab\t\"quote\""]"#
/// );
/// # Ok::<(), sluice_core::Error>(())
/// ```
///
/// Inside pretty output, a value can be kept on one line with
/// [`inline_next_value`](JsonWriter::inline_next_value) (one value, with everything in it)
/// or [`set_inline`](JsonWriter::set_inline) (every value started while it is on):
///
/// ```
/// use sluice_core::Writer;
/// use sluice_json::{JsonWriter, WriterOptions};
/// let mut writer = JsonWriter::new(Vec::new(), WriterOptions::pretty());
/// writer.write_map_root(None)?;
/// writer.write_name("position")?;
/// writer.inline_next_value();
/// writer.write_array_root(Some(3))?;
/// for v in [1, 2, 3] {
///     writer.write_u64(v)?;
/// }
/// writer.write_array_end()?;
/// writer.write_name("tags")?;
/// writer.write_array_root(None)?;
/// writer.write_str("a")?;
/// writer.write_array_end()?;
/// writer.write_map_end()?;
/// assert_eq!(
///     writer.into_string()?,
///     "{\n  \"position\": [1, 2, 3],\n  \"tags\": [\n    \"a\"\n  ]\n}"
/// );
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug)]
pub struct JsonWriter<W: io::Write> {
    sink: W,
    out: Vec<u8>,
    options: WriterOptions,
    /// What the innermost level expects next. A field of its own rather than part of
    /// `level`: it changes with every key and value, and a copy of a whole `Level` read
    /// right after one of its bytes was written would wait for that write to retire.
    slot: Slot,
    /// The innermost level (the top level when no container is open).
    level: Level,
    /// The levels enclosing `level` with their slots, outermost first: one per open
    /// container.
    stack: Vec<Saved>,
    /// Separators: `","` in condensed output; in pretty output `", "` (between items on one
    /// line), then `","`, the line break and as much indentation as the deepest level needs.
    pad: Vec<u8>,
    /// `": "` after keys rather than `":"`.
    colon_space: bool,
    /// How keys are written: [`KEYS_CONDENSED`], [`KEYS_PRETTY`] or [`KEYS_CHECKED`]. One
    /// value for the three rather than two flags (pretty output tested a second flag for
    /// every key, 0.5% of its instructions on twitter.json): compared with one constant,
    /// then another, it costs the paths without the check what `pretty` alone did.
    key_mode: u8,
    /// The keys written so far in the open objects, with `reject_duplicate_keys` once a key
    /// is written (boxed: a writer without the check carries one pointer).
    keys: Option<Box<unique::WrittenKeys>>,
    roots: usize,
    inline_next: bool,
    inline_mode: bool,
    /// NDJSON: end each root value with a line break as soon as it is complete.
    line_per_value: bool,
    /// The final newline was written after the last root value.
    final_newline_done: bool,
    /// The sink started empty and only this writer wrote to it ([`JsonWriter::for_string`],
    /// and [`JsonWriter::get_mut`] never called), so it holds nothing but this writer's
    /// output, which is always UTF-8.
    sink_is_own_output: bool,
    /// Output is handed to the sink once this much is buffered ([`FLUSH_AT`]; never for
    /// [`JsonWriter::for_string`], whose buffer becomes the string).
    flush_at: usize,
}

fn misuse(message: impl Into<String>) -> Error {
    Error::new(core_codes::INVALID_STRUCTURE, message)
}

impl<W: io::Write> JsonWriter<W> {
    /// A writer into `sink`. The options are checked at the first write (see
    /// [`WriterOptions::check`]).
    ///
    /// ```
    /// use sluice_core::Writer;
    /// use sluice_json::{JsonWriter, WriterOptions};
    /// let options = WriterOptions { final_newline: true, ..WriterOptions::condensed() };
    /// let mut file = Vec::new(); // a `File`, a socket, stdout ...
    /// let mut writer = JsonWriter::new(&mut file, options);
    /// writer.write_array_root(None)?;
    /// writer.write_str("a")?;
    /// writer.write_array_end()?;
    /// writer.finish()?;
    /// drop(writer);
    /// assert_eq!(file, b"[\"a\"]\n");
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    pub fn new(sink: W, options: WriterOptions) -> JsonWriter<W> {
        let mut pad = Vec::new();
        if options.pretty {
            pad.extend_from_slice(b", ,");
            pad.extend_from_slice(options.newline.as_bytes());
        } else {
            pad.push(b',');
        }
        JsonWriter {
            sink,
            out: Vec::with_capacity(1024),
            colon_space: options.pretty && options.space_after_colon,
            key_mode: if options.reject_duplicate_keys {
                KEYS_CHECKED
            } else if options.pretty {
                KEYS_PRETTY
            } else {
                KEYS_CONDENSED
            },
            keys: None,
            options,
            slot: Slot::Root,
            level: Level::ROOT,
            stack: Vec::new(),
            pad,
            roots: 0,
            inline_next: false,
            inline_mode: false,
            line_per_value: false,
            final_newline_done: false,
            sink_is_own_output: false,
            flush_at: FLUSH_AT,
        }
    }

    pub(crate) fn set_line_per_value(&mut self) {
        self.line_per_value = true;
    }

    /// A condensed writer into `sink`.
    pub fn condensed(sink: W) -> JsonWriter<W> {
        JsonWriter::new(sink, WriterOptions::condensed())
    }

    /// A pretty writer into `sink`.
    pub fn pretty(sink: W) -> JsonWriter<W> {
        JsonWriter::new(sink, WriterOptions::pretty())
    }

    /// The options in use.
    #[must_use]
    pub fn options(&self) -> &WriterOptions {
        &self.options
    }

    /// Writes the next value (a scalar, or a container with everything in it) on one line,
    /// even in pretty output. Items are separated by `", "`.
    ///
    /// The request is for the next value at the level where it is made: asked in key
    /// position, it is for the value of the key that follows. It lapses when that level
    /// ends first (the container closes with no further value), so it never reaches a value
    /// of the enclosing level. Asking twice before the value is asking once.
    ///
    /// ```
    /// use sluice_core::Writer;
    /// use sluice_json::JsonWriter;
    /// let mut writer = JsonWriter::pretty(Vec::new());
    /// writer.write_array_root(None)?;
    /// writer.write_array_root(None)?;
    /// writer.inline_next_value(); // no value follows in this array: the request lapses
    /// writer.write_array_end()?;
    /// writer.write_array_root(None)?;
    /// writer.write_u64(1)?;
    /// writer.write_array_end()?;
    /// writer.write_array_end()?;
    /// assert_eq!(writer.into_string()?, "[\n  [],\n  [\n    1\n  ]\n]");
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    pub fn inline_next_value(&mut self) {
        self.inline_next = true;
    }

    /// Turns one-line output on or off for every value started from now on (a container
    /// started while it is on stays on one line to its end).
    pub fn set_inline(&mut self, inline: bool) {
        self.inline_mode = inline;
    }

    /// How many root values were completed.
    ///
    /// ```
    /// use sluice_core::Writer;
    /// use sluice_json::{JsonWriter, WriterOptions};
    /// let options = WriterOptions { multiple_values: true, ..WriterOptions::condensed() };
    /// let mut writer = JsonWriter::new(Vec::new(), options);
    /// writer.write_u64(1)?;
    /// writer.write_array_root(None)?;
    /// assert_eq!(writer.values_written(), 1); // the array is still open
    /// writer.write_array_end()?;
    /// assert_eq!(writer.values_written(), 2);
    /// assert_eq!(writer.into_string()?, "1\n[]");
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub fn values_written(&self) -> usize {
        self.roots
    }

    /// Flushes and returns the sink, after checking that every container was closed.
    ///
    /// # Errors
    /// As [`Writer::finish`]. The writer and its sink are dropped then; to get the sink back
    /// whatever state the output is in, use [`into_parts`](Self::into_parts).
    pub fn into_inner(mut self) -> Result<W> {
        self.end_output()?;
        self.flush()?;
        Ok(self.sink)
    }

    /// The sink. Output still buffered in the writer is not in it yet.
    #[must_use]
    pub fn get_ref(&self) -> &W {
        &self.sink
    }

    /// The sink, to change (writing to it directly puts bytes before the output still
    /// buffered in the writer: [`flush`](Self::flush) first).
    ///
    /// A [`for_string`](JsonWriter::for_string) writer no longer knows what its sink holds
    /// then, so [`into_string`](JsonWriter::into_string) checks the output is UTF-8 as it
    /// does for any other vector sink.
    #[must_use]
    pub fn get_mut(&mut self) -> &mut W {
        // The caller may put bytes of any kind in the sink: the unchecked hand-over of
        // `into_string` relies on the sink holding only this writer's output.
        self.sink_is_own_output = false;
        &mut self.sink
    }

    /// The sink and the output not yet handed to it, with no check and no flush: how a
    /// caller whose output ended in an error, or was abandoned with containers still open,
    /// gets the sink back ([`into_inner`](Self::into_inner) checks first and drops the
    /// writer, sink included, when the check fails).
    ///
    /// ```
    /// use sluice_core::{codes, Writer};
    /// use sluice_json::JsonWriter;
    /// let mut writer = JsonWriter::condensed(Vec::new());
    /// writer.write_array_root(None)?;
    /// writer.write_u64(1)?;
    /// let (sink, unsent) = writer.into_parts();
    /// assert!(sink.is_empty());
    /// assert_eq!(unsent, b"[1");
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub fn into_parts(self) -> (W, Vec<u8>) {
        (self.sink, self.out)
    }

    /// Writes the buffered output to the sink (without checking the structure). With
    /// `nested_on_new_line`, the space after a key whose value has not started stays
    /// buffered: a container value, starting on the next line, takes it back.
    ///
    /// ```
    /// use sluice_core::Writer;
    /// use sluice_json::JsonWriter;
    /// let mut writer = JsonWriter::condensed(Vec::new());
    /// writer.write_array_root(None)?;
    /// writer.write_u64(1)?;
    /// assert!(writer.get_ref().is_empty()); // still buffered
    /// writer.flush()?;
    /// assert_eq!(writer.get_ref(), b"[1");
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// An I/O error from the sink. What the sink had not accepted stays buffered, and the
    /// next flush (this one or the one a later write makes) sends it, each byte once.
    pub fn flush(&mut self) -> Result<()> {
        self.flush_buffer()?;
        self.sink.flush().map_err(Error::io)
    }

    /// Hands the buffer to the sink. What the sink accepted leaves the buffer even when a
    /// later call fails, so the next flush goes on from the first byte not accepted:
    /// `write_all` does not say how much it wrote before an error, and sending the whole
    /// buffer again repeated that part in the output.
    fn flush_buffer(&mut self) -> Result<()> {
        // After a key, the space that follows it is taken back when its value starts on a
        // line of its own (`nested_on_new_line`, see `open_pretty`): it stays here until
        // the value comes. Handed over, it was left at the end of the key's line.
        let keep = usize::from(
            self.slot == Slot::Value
                && self.options.nested_on_new_line
                && self.out.last() == Some(&b' '),
        );
        self.hand_over(self.out.len() - keep)
    }

    /// Hands the first `len` bytes of the buffer to the sink (see [`Self::flush_buffer`]).
    fn hand_over(&mut self, len: usize) -> Result<()> {
        let (written, result) = sluice_core::write_counted(&mut self.sink, &self.out[..len]);
        if let Some(keys) = &mut self.keys {
            // The keys of the open objects are in the buffer: copied before it drops them.
            keys.hand_over(&self.out, written);
        }
        self.out.drain(..written);
        result.map_err(Error::io)
    }

    /// Hands the sink every complete line of the buffer, keeping back the line being
    /// written (NDJSON, where a line is a record and the sink is promised whole ones).
    pub(crate) fn flush_whole_lines(&mut self) -> Result<()> {
        let complete = if self.slot == Slot::Root {
            self.out.len()
        } else {
            // Inside a record: records end with the only line feeds of condensed output
            // (one in a string is escaped), so the last one ends the last whole record.
            self.out
                .iter()
                .rposition(|&byte| byte == b'\n')
                .map_or(0, |at| at + 1)
        };
        self.hand_over(complete)?;
        self.sink.flush().map_err(Error::io)
    }

    #[inline(always)]
    fn maybe_flush(&mut self) -> Result<()> {
        // NDJSON waits for the end of the record: a consumer of the stream is promised
        // whole lines, and a flush inside a record would hand it half of one.
        if self.out.len() >= self.flush_at && !(self.line_per_value && self.slot != Slot::Root) {
            self.flush_buffer()?;
        }
        Ok(())
    }

    /// Writes the separator before an item of the innermost container.
    #[inline(always)]
    fn separate(&mut self, first: bool) {
        if !self.options.pretty {
            if !first {
                self.out.push(b',');
            }
            return;
        }
        let from = if first {
            self.level.first
        } else {
            self.level.next
        };
        self.out
            .extend_from_slice(&self.pad[usize::from(from)..self.level.end]);
    }

    /// Writes what goes before a value and says where it stands (in key position having
    /// written nothing).
    #[inline(always)]
    fn begin_value(&mut self) -> Result<Place> {
        // The three common slots compared one by one rather than a `match` on all six: that
        // becomes a jump table, an indirect jump whose target changes from value to value
        // and is mispredicted far more often than these compares.
        let slot = self.slot;
        if slot == Slot::ArrayNext {
            self.separate(false);
        } else if slot == Slot::Value {
            self.slot = Slot::KeyNext;
        } else if slot == Slot::ArrayFirst {
            self.separate(true);
            self.slot = Slot::ArrayNext;
        } else {
            return self.begin_root_or_key();
        }
        Ok(Place::Item)
    }

    /// [`begin_value`](Self::begin_value) at the top level or in key position.
    #[inline(never)]
    fn begin_root_or_key(&mut self) -> Result<Place> {
        if self.slot != Slot::Root {
            return Ok(Place::Key);
        }
        self.begin_root()?;
        Ok(Place::Root)
    }

    fn begin_root(&mut self) -> Result<()> {
        if self.roots == 0 {
            self.options.check()?;
        }
        if self.roots > 0 {
            if !self.options.multiple_values {
                return Err(misuse("a second root value (multiple_values is off)"));
            }
            // NDJSON ended the last value with its line break already, and so did
            // `finish` with `final_newline`: another would leave a blank line.
            if !self.line_per_value && !self.final_newline_done {
                self.out.extend_from_slice(self.options.newline.as_bytes());
            }
        }
        Ok(())
    }

    /// Records a completed scalar written at `place`.
    #[inline(always)]
    fn end_scalar(&mut self, place: Place) -> Result<()> {
        if place == Place::Root {
            self.end_root();
        } else {
            // A scalar is the value the request was for, and uses it up. Also inside a
            // one-line container, where it changes nothing: kept there, the request
            // outlived the container and put the next unrelated container on one line.
            self.inline_next = false;
        }
        self.maybe_flush()
    }

    fn end_root(&mut self) {
        self.roots += 1;
        self.inline_next = false;
        self.final_newline_done = false;
        if self.line_per_value {
            self.out.push(b'\n');
        }
    }

    /// Writes a scalar whose JSON text is `text`; in key position it is quoted. (Formatters
    /// write into a buffer of their own first, so taking the text rather than a closure
    /// that appends it costs no copy, and keeps the append inlined at each caller.)
    #[inline(always)]
    fn scalar(&mut self, text: &[u8]) -> Result<()> {
        let place = self.begin_value()?;
        if place == Place::Item {
            // The common case, as `end_scalar` does it for an item.
            text::push_bytes(&mut self.out, text);
            self.inline_next = false;
            return self.maybe_flush();
        }
        self.scalar_root_or_key(place, text)
    }

    /// [`scalar`](Self::scalar) at the top level or in key position.
    #[inline(never)]
    fn scalar_root_or_key(&mut self, place: Place, text: &[u8]) -> Result<()> {
        if place == Place::Root {
            self.out.extend_from_slice(text);
            return self.end_scalar(place);
        }
        // A number, boolean or null as a key: its text in quotes.
        let key = self.open_key()?;
        self.out.extend_from_slice(text);
        if self.options.reject_duplicate_keys && !self.written_key_is_new(key) {
            return Err(duplicate_key(text));
        }
        self.out.push(b'"');
        self.end_key();
        self.maybe_flush()
    }

    /// Writes what goes before a key, or says why no key may stand here.
    #[inline(always)]
    fn begin_key(&mut self) -> Result<()> {
        match self.slot {
            Slot::KeyNext => self.separate(false),
            Slot::KeyFirst => self.separate(true),
            _ => return Err(self.misplaced_key()),
        }
        Ok(())
    }

    /// Writes what goes before a key and its opening quote (see [`Self::begin_key`]), and
    /// says where the key's bytes start, for [`Self::written_key_is_new`].
    #[inline(always)]
    fn open_key(&mut self) -> Result<OpenKey> {
        let first = self.slot == Slot::KeyFirst;
        let mark = self.out.len();
        self.begin_key()?;
        self.out.push(b'"');
        Ok(OpenKey {
            mark,
            start: self.out.len(),
            first,
        })
    }

    /// With `reject_duplicate_keys`, once the text of the key opened as `key` is written
    /// (the end of the buffer): whether the innermost object is without it so far. When it
    /// is not, everything written for the key (its separator too) is taken back, so that
    /// not a byte of it is output.
    ///
    /// Checked once written rather than before: the tracker then holds where the key's text
    /// is in the buffer instead of a copy (see [`unique::WrittenKeys::insert`]). No flush
    /// comes between a key's first byte and this check, so all of it is still buffered.
    #[inline(always)]
    fn written_key_is_new(&mut self, key: OpenKey) -> bool {
        let depth = self.stack.len();
        let new = self
            .keys
            .get_or_insert_with(Box::default)
            .insert(&self.out, key.start, depth, key.first);
        if !new {
            self.out.truncate(key.mark);
        }
        new
    }

    #[cold]
    fn misplaced_key(&self) -> Error {
        misuse(match self.slot {
            Slot::Root => "a key outside of an object",
            Slot::Value => "a key where the value of the previous key is due",
            _ => "a key inside an array",
        })
    }

    #[inline(always)]
    fn end_key(&mut self) {
        if self.colon_space {
            self.out.extend_from_slice(b": ");
        } else {
            self.out.push(b':');
        }
        self.slot = Slot::Value;
    }

    /// Writes a key, its quotes and the colon. (No flush check: the value comes next.)
    #[inline(always)]
    fn write_key_text(&mut self, key: &str) -> Result<()> {
        let slot = self.slot;
        let mode = self.key_mode;
        if slot == Slot::KeyNext && mode == KEYS_CONDENSED {
            // Single pushes: they stay inline even in a caller too large for the slice
            // copy of `extend_from_slice` to be inlined (which then costs a call).
            self.out.push(b',');
            self.out.push(b'"');
        } else if slot == Slot::KeyFirst && mode == KEYS_CONDENSED {
            self.out.push(b'"');
        } else if mode == KEYS_CHECKED {
            // Whole, out of line: the check adds nothing to where keys are written inline.
            return self.write_checked_key(key);
        } else {
            self.begin_key()?;
            self.out.push(b'"');
        }
        self.end_key_text(key);
        Ok(())
    }

    /// [`write_key_text`](Self::write_key_text) with `reject_duplicate_keys`.
    #[inline(never)]
    fn write_checked_key(&mut self, key: &str) -> Result<()> {
        let opened = self.open_key()?;
        self.escape_body(key);
        if !self.written_key_is_new(opened) {
            return Err(duplicate_key(key.as_bytes()));
        }
        self.end_key_quote();
        Ok(())
    }

    /// A key's text after its opening quote: the text, the closing quote and the colon.
    #[inline(always)]
    fn end_key_text(&mut self, key: &str) {
        self.escape_body(key);
        self.end_key_quote();
    }

    /// A key's closing quote and the colon.
    #[inline(always)]
    fn end_key_quote(&mut self) {
        self.out.push(b'"');
        self.out.push(b':');
        if self.colon_space {
            self.out.push(b' ');
        }
        self.slot = Slot::Value;
    }

    /// The level of a container opened in pretty output, one deeper than the current one;
    /// grows `pad` to its indentation.
    fn pretty_level(&mut self, inline: bool) -> Level {
        if inline {
            return Level {
                inline: true,
                next: 0,
                first: 2,
                end: 2,
            };
        }
        // The stack already holds the parent: its length is the new level's depth.
        let depth = self.stack.len();
        let end =
            PAD_LINE + self.options.newline.len() + depth.saturating_mul(self.options.indent.len());
        while self.pad.len() < end {
            self.pad.extend_from_slice(self.options.indent.as_bytes());
        }
        Level {
            inline: false,
            #[allow(clippy::cast_possible_truncation)]
            next: (PAD_LINE - 1) as u8,
            #[allow(clippy::cast_possible_truncation)]
            first: PAD_LINE as u8,
            end,
        }
    }

    /// Opens an object or array: the parent's slot (and in pretty output its level) goes
    /// on the stack, and the new level is written to `level` in the pretty branch. (Built
    /// in one place for both branches, it would pass through a temporary on the stack,
    /// written in two pieces and read back whole at once, a read that waits for those
    /// writes.) Condensed output separates every level alike, so its `level` never changes.
    #[inline(always)]
    fn open(&mut self, object: bool) -> Result<()> {
        if self.begin_value()? == Place::Key {
            return Err(misuse("a container as an object key"));
        }
        if self.options.pretty {
            self.stack.push(Saved::new(self.slot, self.level));
            self.open_pretty();
        } else {
            // `Level::ROOT` spelled out rather than read from `level` (which it always is
            // here): a constant, so only the slot is packed.
            self.stack.push(Saved::new(self.slot, Level::ROOT));
            self.inline_next = false;
        }
        self.slot = if object {
            Slot::KeyFirst
        } else {
            Slot::ArrayFirst
        };
        self.out.push(if object { b'{' } else { b'[' });
        Ok(())
    }

    /// The level of a container opened in pretty output (its parent already on the
    /// stack, and still in `level` and `slot`); starts it on a line of its own when
    /// `nested_on_new_line` asks for that.
    #[inline(never)]
    fn open_pretty(&mut self) {
        let inline = self.level.inline || self.inline_next || self.inline_mode;
        self.inline_next = false;
        // `begin_value` has moved an object parent from `Value` to `KeyNext`.
        if self.options.nested_on_new_line && !inline && self.slot == Slot::KeyNext {
            // Drop the space after the colon and start the container on its own line.
            if self.out.last() == Some(&b' ') {
                self.out.pop();
            }
            self.out
                .extend_from_slice(&self.pad[PAD_LINE..self.level.end]);
        }
        self.level = self.pretty_level(inline);
    }

    #[inline(always)]
    fn close(&mut self, object: bool) -> Result<()> {
        // Two compares (`object` is constant where this is inlined), no jump table.
        let (first, next) = if object {
            (Slot::KeyFirst, Slot::KeyNext)
        } else {
            (Slot::ArrayFirst, Slot::ArrayNext)
        };
        let slot = self.slot;
        let empty = if slot == next {
            false
        } else if slot == first {
            true
        } else {
            return Err(self.misplaced_end(object));
        };
        if !empty && self.options.pretty && !self.level.inline {
            // The line break and the indentation of the enclosing level.
            let end = self.level.end - self.options.indent.len();
            self.out.extend_from_slice(&self.pad[PAD_LINE..end]);
        }
        self.out.push(if object { b'}' } else { b']' });
        if let Some(parent) = self.stack.pop() {
            self.slot = parent.slot();
            if self.options.pretty {
                self.level = parent.level();
                // A request for the next value of the level that ends here lapses with it:
                // kept, it put the parent's next container on one line. (Only pretty
                // output reads it.)
                self.inline_next = false;
            }
        }
        if self.slot == Slot::Root {
            self.end_root();
        }
        self.maybe_flush()
    }

    #[cold]
    fn misplaced_end(&self, object: bool) -> Error {
        misuse(match (self.slot, object) {
            (Slot::Root, _) => "a container end with no open container",
            (Slot::Value, true) => "an object ends after a key with no value",
            (_, true) => "a map end inside an array",
            (_, false) => "an array end inside an object",
        })
    }

    /// Appends `text` as a JSON string literal. Most strings (and nearly all keys) need no
    /// escape: one check and one copy.
    #[inline(always)]
    fn escape_into(&mut self, text: &str) {
        self.out.push(b'"');
        self.escape_body(text);
        self.out.push(b'"');
    }

    /// [`escape_into`](Self::escape_into) without the quotes.
    #[inline(always)]
    fn escape_body(&mut self, text: &str) {
        let bytes = text.as_bytes();
        if text::needs_escape(bytes, self.options.escape_non_ascii) {
            let first = scan::find_escape(bytes, 0, self.options.escape_non_ascii);
            self.escape_from(text, first);
        } else {
            text::push_bytes(&mut self.out, bytes);
        }
    }

    /// The escaping part of [`escape_body`](Self::escape_body): `text[at..]` starts with a
    /// byte to escape.
    #[inline(never)]
    fn escape_from(&mut self, text: &str, mut at: usize) {
        let ascii_only = self.options.escape_non_ascii;
        let bytes = text.as_bytes();
        let mut run = 0;
        while at < bytes.len() {
            self.out.extend_from_slice(&bytes[run..at]);
            let byte = bytes[at];
            let mut len = 1;
            match byte {
                b'"' => self.out.extend_from_slice(b"\\\""),
                b'\\' => self.out.extend_from_slice(b"\\\\"),
                b'\n' => self.out.extend_from_slice(b"\\n"),
                b'\r' => self.out.extend_from_slice(b"\\r"),
                b'\t' => self.out.extend_from_slice(b"\\t"),
                0x08 => self.out.extend_from_slice(b"\\b"),
                0x0c => self.out.extend_from_slice(b"\\f"),
                0x00..=0x1f => push_unicode_escape(&mut self.out, u16::from(byte)),
                _ => {
                    // Non-ASCII with escape_non_ascii: one \u escape per UTF-16 unit.
                    let c = text[at..].chars().next().unwrap_or('\u{fffd}');
                    len = c.len_utf8();
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        push_unicode_escape(&mut self.out, *unit);
                    }
                }
            }
            at += len;
            run = at;
            at = scan::find_escape(bytes, at, ascii_only);
        }
        self.out.extend_from_slice(&bytes[run..]);
    }

    /// Number text as it is, after checking that it is a JSON number.
    #[inline(always)]
    fn write_number_text(&mut self, text: &str) -> Result<()> {
        let valid = text::is_json_number(text.as_bytes());
        debug_assert_eq!(valid, scan::is_json_number(text.as_bytes()));
        if !valid {
            return Err(invalid_number_text(text));
        }
        self.scalar(text.as_bytes())
    }

    /// A number that is not text: formatted.
    #[inline(never)]
    fn write_typed_number(&mut self, number: Number<'_>) -> Result<()> {
        match number {
            Number::Text(text, _) => self.write_number_text(text),
            Number::I64(v) => self.write_i64(v),
            Number::U64(v) => self.write_u64(v),
            Number::I128(v) => self.scalar(lexical(v, &mut [0; 64])),
            Number::U128(v) => self.scalar(lexical(v, &mut [0; 64])),
            Number::F32(v) => self.write_f32(v),
            Number::F64(v) => self.write_f64_value(v),
        }
    }

    /// A typed `f64`. Out of line: the formatter's working set stays out of the callers'
    /// frames (inlined into the typed writer's loop it made canada slower, though shorter).
    #[inline(never)]
    fn write_f64_value(&mut self, value: f64) -> Result<()> {
        if value.is_finite() {
            self.scalar(shortest(value, &mut zmij::Buffer::new()))
        } else {
            self.write_non_finite(value)
        }
    }

    #[cold]
    fn write_non_finite(&mut self, value: f64) -> Result<()> {
        match self.options.non_finite {
            NonFinite::Error => Err(Error::new(
                codes::NON_FINITE_NUMBER,
                format!("{value} has no JSON spelling (see WriterOptions::non_finite)"),
            )),
            NonFinite::Null => self.scalar(b"null"),
            NonFinite::Json5 => {
                let text: &[u8] = if value.is_nan() {
                    b"NaN"
                } else if value > 0.0 {
                    b"Infinity"
                } else {
                    b"-Infinity"
                };
                self.scalar(text)
            }
        }
    }
}

impl JsonWriter<Vec<u8>> {
    /// A writer whose output is wanted as a `String`: [`into_string`](Self::into_string)
    /// then hands it over without checking it again. Its output stays in the writer's own
    /// buffer ([`Writer::finish`] does not move it into the sink), which becomes the string.
    ///
    /// ```
    /// use sluice_core::Writer;
    /// use sluice_json::{JsonWriter, WriterOptions};
    /// let mut writer = JsonWriter::for_string(WriterOptions::condensed());
    /// writer.write_str("ünïcode")?;
    /// assert_eq!(writer.into_string()?, "\"ünïcode\"");
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub fn for_string(options: WriterOptions) -> JsonWriter<Vec<u8>> {
        let mut writer = JsonWriter::new(Vec::new(), options);
        writer.sink_is_own_output = true;
        writer.flush_at = usize::MAX;
        writer
    }

    /// Finishes and returns the output as a string.
    ///
    /// ```
    /// use sluice_core::{codes, Writer};
    /// use sluice_json::JsonWriter;
    /// let mut writer = JsonWriter::pretty(Vec::new());
    /// writer.write_map_root(None)?;
    /// writer.write_name("a")?;
    /// writer.write_bool(true)?;
    /// writer.write_map_end()?;
    /// assert_eq!(writer.into_string()?, "{\n  \"a\": true\n}");
    ///
    /// // An unfinished document is refused.
    /// let mut writer = JsonWriter::condensed(Vec::new());
    /// writer.write_array_root(None)?;
    /// assert_eq!(writer.into_string().unwrap_err().code(), codes::INVALID_STRUCTURE);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Writer::finish`]; and, when the sink holds bytes that are not UTF-8: a writer
    /// made with [`JsonWriter::new`] over a vector that already held them, or one whose sink
    /// was changed through [`get_mut`](JsonWriter::get_mut).
    pub fn into_string(mut self) -> Result<String> {
        if self.sink_is_own_output {
            self.end_output()?;
            // Nothing was flushed (`flush_at` is never reached): the buffer is the output.
            let mut bytes = std::mem::take(&mut self.out);
            if !self.sink.is_empty() {
                self.sink.append(&mut bytes);
                bytes = std::mem::take(&mut self.sink);
            }
            debug_assert!(std::str::from_utf8(&bytes).is_ok());
            // SAFETY: the sink started empty (`for_string`) and only this writer appended
            // to it (`get_mut`, the one way to change it from outside, clears
            // `sink_is_own_output`). Everything the writer appends is UTF-8: `&str` text copied whole or
            // split only at ASCII bytes it escapes (or at character boundaries with
            // `escape_non_ascii`), number text checked to be JSON number syntax (ASCII),
            // ASCII punctuation, literals, base64 and digits, and the `newline` / `indent`
            // option strings. Tested by `for_string_output_is_the_checked_output`.
            return Ok(unsafe { String::from_utf8_unchecked(bytes) });
        }
        let bytes = self.into_inner()?;
        String::from_utf8(bytes).map_err(|_| Error::custom("JSON output is not UTF-8"))
    }
}

#[cold]
fn duplicate_key(key: &[u8]) -> Error {
    let key = String::from_utf8_lossy(key);
    Error::new(
        codes::DUPLICATE_KEY,
        format!(
            "the key {:?} was written already in this object (reject_duplicate_keys is on)",
            sluice_core::error::excerpt(&key)
        ),
    )
}

#[cold]
fn invalid_number_text(text: &str) -> Error {
    Error::new(
        codes::INVALID_NUMBER_TEXT,
        format!("`{text}` is not a JSON number"),
    )
}

fn push_unicode_escape(out: &mut Vec<u8>, unit: u16) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.extend_from_slice(&[
        b'\\',
        b'u',
        HEX[usize::from(unit >> 12)],
        HEX[usize::from((unit >> 8) & 15)],
        HEX[usize::from((unit >> 4) & 15)],
        HEX[usize::from(unit & 15)],
    ]);
}

/// The decimal text of an integer, written into `buffer`.
#[inline(always)]
fn lexical<T: lexical_core::ToLexical + FormattedSize>(value: T, buffer: &mut [u8; 64]) -> &[u8] {
    lexical_core::write(value, &mut buffer[..T::FORMATTED_SIZE_DECIMAL.min(64)])
}

/// The shortest text that reads back as exactly `value` (finite), always with a `.` or an
/// exponent so it reads back as a float: `1.0`, `0.1`, `1e+300`, `5e-324`; for `f32`
/// shortest for 32 bits (`1.1f32` is `1.1`).
#[inline(always)]
fn shortest<F: zmij::Float>(value: F, buffer: &mut zmij::Buffer) -> &[u8] {
    buffer.format_finite(value).as_bytes()
}

impl<W: io::Write> Writer for JsonWriter<W> {
    #[inline]
    fn write_null(&mut self) -> Result<()> {
        self.scalar(b"null")
    }

    #[inline]
    fn write_bool(&mut self, value: bool) -> Result<()> {
        self.scalar(if value { b"true" } else { b"false" })
    }

    #[inline(always)]
    fn write_str(&mut self, value: &str) -> Result<()> {
        let place = self.begin_value()?;
        if place == Place::Key {
            return self.write_key_text(value);
        }
        self.escape_into(value);
        self.end_scalar(place)
    }

    #[inline(always)]
    fn write_name(&mut self, name: &str) -> Result<()> {
        self.write_key_text(name)
    }

    #[inline(always)]
    fn write_number(&mut self, number: Number<'_>) -> Result<()> {
        match number {
            Number::Text(text, _) => self.write_number_text(text),
            typed => self.write_typed_number(typed),
        }
    }

    // The typed numbers go straight to their formatter, without the `Number` they would
    // otherwise be wrapped in and matched on again (typed writes call these per value).

    #[inline]
    fn write_i64(&mut self, value: i64) -> Result<()> {
        self.scalar(lexical(value, &mut [0; 64]))
    }

    #[inline]
    fn write_u64(&mut self, value: u64) -> Result<()> {
        self.scalar(lexical(value, &mut [0; 64]))
    }

    #[inline]
    fn write_f32(&mut self, value: f32) -> Result<()> {
        if value.is_finite() {
            self.scalar(shortest(value, &mut zmij::Buffer::new()))
        } else {
            self.write_non_finite(f64::from(value))
        }
    }

    #[inline]
    fn write_f64(&mut self, value: f64) -> Result<()> {
        self.write_f64_value(value)
    }

    fn write_blob(&mut self, value: &[u8]) -> Result<()> {
        match self.options.blob {
            BlobMode::Error => Err(Error::unsupported(
                "writing a Blob",
                "JsonWriter (set WriterOptions::blob to BlobMode::Base64)",
            )),
            BlobMode::Base64 => {
                let place = self.begin_value()?;
                if place == Place::Key {
                    return Err(misuse("raw bytes as an object key"));
                }
                self.out.push(b'"');
                base64::encode_into(value, &mut self.out);
                self.out.push(b'"');
                self.end_scalar(place)
            }
        }
    }

    fn write_ext(&mut self, ext: Ext<'_>) -> Result<()> {
        match self.options.ext {
            ExtMode::Error => Err(Error::unsupported(
                "writing an Ext",
                "JsonWriter (set WriterOptions::ext to ExtMode::Object)",
            )),
            ExtMode::Object => {
                if matches!(self.slot, Slot::KeyFirst | Slot::KeyNext) {
                    return Err(misuse("an extension value as an object key"));
                }
                // Taken whole, like a scalar: an I/O error from a hand-over between its
                // tokens left the object open, and the caller's next value went into it.
                let flush_at = std::mem::replace(&mut self.flush_at, usize::MAX);
                let written = self.write_ext_object(ext);
                self.flush_at = flush_at;
                written?;
                self.maybe_flush()
            }
        }
    }

    #[inline(always)]
    fn write_map_root(&mut self, _len: Option<usize>) -> Result<()> {
        self.open(true)
    }

    #[inline(always)]
    fn write_map_end(&mut self) -> Result<()> {
        self.close(true)
    }

    #[inline(always)]
    fn write_array_root(&mut self, _len: Option<usize>) -> Result<()> {
        self.open(false)
    }

    #[inline(always)]
    fn write_array_end(&mut self) -> Result<()> {
        self.close(false)
    }

    /// Writes the next value on one line in pretty output; see
    /// [`JsonWriter::inline_next_value`]. Handlers holding a `&mut dyn Writer` use this.
    fn inline_next_value(&mut self) {
        JsonWriter::inline_next_value(self);
    }

    /// Checks that every container is closed and at least one value was written, ends the
    /// output with `newline` when `final_newline` is set, and flushes the sink. A
    /// [`for_string`](JsonWriter::for_string) writer keeps its output in its buffer, which
    /// [`into_string`](JsonWriter::into_string) hands over as it is: moving it into the sink
    /// here would copy the whole output once more.
    fn finish(&mut self) -> Result<()> {
        self.end_output()?;
        if self.sink_is_own_output {
            return Ok(());
        }
        self.flush()
    }
}

impl<W: io::Write> JsonWriter<W> {
    /// The object [`ExtMode::Object`] writes for `ext`. Only its first token can fail (no
    /// value may stand here) while nothing is handed to the sink.
    fn write_ext_object(&mut self, ext: Ext<'_>) -> Result<()> {
        self.write_map_root(Some(2))?;
        self.write_name("$ext")?;
        self.write_i64(i64::from(ext.kind))?;
        self.write_name("data")?;
        let data = base64::encode(ext.data);
        self.write_str(&data)?;
        self.write_map_end()
    }

    /// The checks and the final newline of [`Writer::finish`], without flushing.
    fn end_output(&mut self) -> Result<()> {
        if !self.stack.is_empty() {
            return Err(misuse(format!(
                "{} container(s) still open at the end of the output",
                self.stack.len()
            )));
        }
        if self.roots == 0 && !self.options.multiple_values {
            return Err(misuse("no value was written"));
        }
        if self.options.final_newline && self.roots > 0 && !self.final_newline_done {
            self.out.extend_from_slice(self.options.newline.as_bytes());
            self.final_newline_done = true;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_level_unpacks_to_the_slot_and_level_it_was_packed_from() {
        let ends = [0, 1, 2, 5, 1000, (1 << Saved::END_BITS) - 1];
        // The first six entries are every slot, each at its own `slot as u8`.
        let slots = &Slot::FROM_BITS[..6];
        for (bits, &slot) in slots.iter().enumerate() {
            assert_eq!(slot as usize, bits);
        }
        for &slot in slots {
            for inline in [false, true] {
                for (next, first) in [(0, 0), (0, 1), (2, 3), (u8::MAX, u8::MAX)] {
                    for end in ends {
                        let level = Level {
                            inline,
                            next,
                            first,
                            end,
                        };
                        let saved = Saved::new(slot, level);
                        assert_eq!(saved.slot(), slot);
                        let back = saved.level();
                        assert_eq!(
                            (back.inline, back.next, back.first, back.end),
                            (inline, next, first, end)
                        );
                    }
                }
            }
        }
    }
}
