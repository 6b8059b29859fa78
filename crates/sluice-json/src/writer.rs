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

/// How `NaN` and the infinities are written.
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BlobMode {
    /// They are an error ([`UNSUPPORTED`](sluice_core::codes::UNSUPPORTED)).
    #[default]
    Error,
    /// As a string holding their base64 form (standard alphabet, padded).
    Base64,
}

/// How extension values ([`Writer::write_ext`]) are written.
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
    /// The line break (pretty only; also ends the document with `final_newline`).
    pub newline: String,
    /// A space after `:` (pretty and inline parts).
    pub space_after_colon: bool,
    /// A container that is an object member value starts on a line of its own (pretty
    /// only): `"a":\n  [` instead of `"a": [`.
    pub nested_on_new_line: bool,
    /// End the output with `newline` after the last root value.
    pub final_newline: bool,
    /// Several root values, one per line (concatenated JSON, NDJSON).
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
}

impl WriterOptions {
    /// No whitespace at all: `{"a":[1,2]}`.
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
        }
    }

    /// Two-space indentation, one item per line, `": "` after keys.
    #[must_use]
    pub fn pretty() -> WriterOptions {
        WriterOptions {
            pretty: true,
            space_after_colon: true,
            ..WriterOptions::condensed()
        }
    }
}

impl Default for WriterOptions {
    fn default() -> WriterOptions {
        WriterOptions::condensed()
    }
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    object: bool,
    /// Items (arrays) or members (objects) written so far.
    count: usize,
    /// In an object: a key was written and its value is due.
    after_key: bool,
    /// Written on one line.
    inline: bool,
}

/// Output is handed to the sink once this much is buffered.
const FLUSH_AT: usize = 32 * 1024;

/// A JSON writer implementing [`Writer`].
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
    stack: Vec<Frame>,
    roots: usize,
    inline_next: bool,
    inline_mode: bool,
    /// NDJSON: end each root value with a line break as soon as it is complete.
    line_per_value: bool,
    /// The final newline was written after the last root value.
    final_newline_done: bool,
    /// The sink started empty and only this writer wrote to it ([`JsonWriter::for_string`]),
    /// so it holds nothing but this writer's output, which is always UTF-8.
    sink_is_own_output: bool,
    /// Output is handed to the sink once this much is buffered ([`FLUSH_AT`]; never for
    /// [`JsonWriter::for_string`], whose buffer becomes the string).
    flush_at: usize,
}

fn misuse(message: impl Into<String>) -> Error {
    Error::new(core_codes::INVALID_STRUCTURE, message)
}

impl<W: io::Write> JsonWriter<W> {
    /// A writer into `sink`.
    pub fn new(sink: W, options: WriterOptions) -> JsonWriter<W> {
        JsonWriter {
            sink,
            out: Vec::with_capacity(1024),
            options,
            stack: Vec::new(),
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
    pub fn inline_next_value(&mut self) {
        self.inline_next = true;
    }

    /// Turns one-line output on or off for every value started from now on (a container
    /// started while it is on stays on one line to its end).
    pub fn set_inline(&mut self, inline: bool) {
        self.inline_mode = inline;
    }

    /// How many root values were completed.
    #[must_use]
    pub fn values_written(&self) -> usize {
        self.roots
    }

    /// Flushes and returns the sink, after checking that every container was closed.
    ///
    /// # Errors
    /// As [`Writer::finish`].
    pub fn into_inner(mut self) -> Result<W> {
        self.finish()?;
        Ok(self.sink)
    }

    /// Writes the buffered output to the sink (without checking the structure).
    ///
    /// # Errors
    /// An I/O error from the sink.
    pub fn flush(&mut self) -> Result<()> {
        self.flush_buffer()?;
        self.sink.flush().map_err(Error::io)
    }

    fn flush_buffer(&mut self) -> Result<()> {
        if !self.out.is_empty() {
            self.sink.write_all(&self.out).map_err(Error::io)?;
            self.out.clear();
        }
        Ok(())
    }

    #[inline(always)]
    fn maybe_flush(&mut self) -> Result<()> {
        if self.out.len() >= self.flush_at {
            self.flush_buffer()?;
        }
        Ok(())
    }

    fn is_inline(&self) -> bool {
        !self.options.pretty || self.stack.last().is_some_and(|f| f.inline)
    }

    fn newline_and_indent(&mut self, depth: usize) {
        self.out.extend_from_slice(self.options.newline.as_bytes());
        for _ in 0..depth {
            self.out.extend_from_slice(self.options.indent.as_bytes());
        }
    }

    /// Writes what goes before a value; `false` when the value stands in key position.
    #[inline(always)]
    fn before_value(&mut self) -> Result<bool> {
        let pretty = self.options.pretty;
        let depth = self.stack.len();
        let Some(frame) = self.stack.last_mut() else {
            if self.roots > 0 {
                if !self.options.multiple_values {
                    return Err(misuse("a second root value (multiple_values is off)"));
                }
                if !self.line_per_value {
                    self.out.extend_from_slice(self.options.newline.as_bytes());
                }
            }
            return Ok(true);
        };
        if frame.object {
            if !frame.after_key {
                return Ok(false);
            }
            return Ok(true);
        }
        let inline = frame.inline || !pretty;
        if frame.count > 0 {
            self.out.push(b',');
            if inline && pretty {
                self.out.push(b' ');
            }
        }
        if !inline {
            self.newline_and_indent(depth);
        }
        Ok(true)
    }

    /// Records a completed value.
    #[inline(always)]
    fn after_value(&mut self) -> Result<()> {
        match self.stack.last_mut() {
            Some(frame) => {
                frame.count += 1;
                frame.after_key = false;
            }
            None => {
                self.roots += 1;
                self.inline_next = false;
                self.final_newline_done = false;
                if self.line_per_value {
                    self.out.push(b'\n');
                }
            }
        }
        self.maybe_flush()
    }

    /// Writes a scalar whose JSON text `write` appends; in key position it is quoted.
    #[inline(always)]
    fn scalar(&mut self, write: impl FnOnce(&mut Vec<u8>)) -> Result<()> {
        // Condensed output, inside an array or after a key (nearly every scalar): what
        // `before_value`, `take_inline_next` and `after_value` do there, in one step.
        if !self.options.pretty
            && let Some(frame) = self.stack.last_mut()
            && (!frame.object || frame.after_key)
        {
            if !frame.object && frame.count > 0 {
                self.out.push(b',');
            }
            frame.count += 1;
            frame.after_key = false;
            write(&mut self.out);
            self.inline_next = false;
            return self.maybe_flush();
        }
        if self.before_value()? {
            write(&mut self.out);
            self.take_inline_next();
            return self.after_value();
        }
        // A number, boolean or null as a key: its text in quotes.
        self.begin_key()?;
        self.out.push(b'"');
        write(&mut self.out);
        self.out.push(b'"');
        self.end_key();
        Ok(())
    }

    fn take_inline_next(&mut self) {
        if self.stack.last().is_none_or(|f| !f.inline) {
            self.inline_next = false;
        }
    }

    fn begin_key(&mut self) -> Result<()> {
        let pretty = self.options.pretty;
        let depth = self.stack.len();
        let Some(frame) = self.stack.last_mut() else {
            return Err(misuse("a key outside of an object"));
        };
        if !frame.object {
            return Err(misuse("a key inside an array"));
        }
        if frame.after_key {
            return Err(misuse("a key where the value of the previous key is due"));
        }
        let inline = frame.inline || !pretty;
        if frame.count > 0 {
            self.out.push(b',');
            if inline && pretty {
                self.out.push(b' ');
            }
        }
        if !inline {
            self.newline_and_indent(depth);
        }
        Ok(())
    }

    fn end_key(&mut self) {
        self.out.push(b':');
        if self.options.space_after_colon && self.options.pretty {
            self.out.push(b' ');
        }
        if let Some(frame) = self.stack.last_mut() {
            frame.after_key = true;
        }
    }

    /// Writes a key. Condensed output inside an object where a key is due (nearly every
    /// key) takes a short path; everything else, errors included, the general one.
    #[inline]
    fn write_key_text(&mut self, key: &str) -> Result<()> {
        let pretty = self.options.pretty;
        match self.stack.last_mut() {
            Some(frame) if frame.object && !frame.after_key && !pretty => {
                let comma = frame.count > 0;
                frame.after_key = true;
                if comma {
                    self.out.push(b',');
                }
                self.escape_into(key);
                self.out.push(b':');
                self.maybe_flush()
            }
            _ => self.write_key_text_general(key),
        }
    }

    fn write_key_text_general(&mut self, key: &str) -> Result<()> {
        self.begin_key()?;
        self.escape_into(key);
        self.end_key();
        self.maybe_flush()
    }

    fn open(&mut self, object: bool) -> Result<()> {
        if !self.before_value()? {
            return Err(misuse("a container as an object key"));
        }
        let parent_inline = self.is_inline() && !self.stack.is_empty();
        let inline = self.options.pretty && (parent_inline || self.inline_next || self.inline_mode);
        self.inline_next = false;
        if self.options.pretty
            && self.options.nested_on_new_line
            && !inline
            && self.stack.last().is_some_and(|f| f.object)
        {
            // Drop the space after the colon and start the container on its own line.
            if self.out.last() == Some(&b' ') {
                self.out.pop();
            }
            let depth = self.stack.len();
            self.newline_and_indent(depth);
        }
        self.out.push(if object { b'{' } else { b'[' });
        self.stack.push(Frame {
            object,
            count: 0,
            after_key: false,
            inline,
        });
        Ok(())
    }

    fn close(&mut self, object: bool) -> Result<()> {
        let Some(frame) = self.stack.last().copied() else {
            return Err(misuse("a container end with no open container"));
        };
        if frame.object != object {
            return Err(misuse(if object {
                "a map end inside an array"
            } else {
                "an array end inside an object"
            }));
        }
        if frame.after_key {
            return Err(misuse("an object ends after a key with no value"));
        }
        self.stack.pop();
        if frame.count > 0 && self.options.pretty && !frame.inline {
            let depth = self.stack.len();
            self.newline_and_indent(depth);
        }
        self.out.push(if object { b'}' } else { b']' });
        self.after_value()
    }

    /// Appends `text` as a JSON string literal. Most strings (and nearly all keys) need no
    /// escape: one scan and one copy.
    #[inline(always)]
    fn escape_into(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let first = scan::find_escape(bytes, 0, self.options.escape_non_ascii);
        self.out.reserve(bytes.len() + 2);
        self.out.push(b'"');
        if first < bytes.len() {
            self.escape_from(text, first);
        } else {
            self.out.extend_from_slice(bytes);
        }
        self.out.push(b'"');
    }

    /// The escaping part of [`escape_into`](Self::escape_into): `text[at..]` starts with a
    /// byte to escape; writes everything but the closing quote.
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

    fn write_non_finite(&mut self, value: f64) -> Result<()> {
        match self.options.non_finite {
            NonFinite::Error => Err(Error::new(
                codes::NON_FINITE_NUMBER,
                format!("{value} has no JSON spelling (see WriterOptions::non_finite)"),
            )),
            NonFinite::Null => self.scalar(|out| out.extend_from_slice(b"null")),
            NonFinite::Json5 => {
                let text: &[u8] = if value.is_nan() {
                    b"NaN"
                } else if value > 0.0 {
                    b"Infinity"
                } else {
                    b"-Infinity"
                };
                self.scalar(|out| out.extend_from_slice(text))
            }
        }
    }
}

impl JsonWriter<Vec<u8>> {
    /// A writer whose output is wanted as a `String`: [`into_string`](Self::into_string)
    /// then hands it over without checking it again.
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
    /// # Errors
    /// As [`Writer::finish`]; and, for a writer made with [`JsonWriter::new`] over a vector
    /// that already held bytes, when those bytes are not UTF-8.
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
            // to it. Everything the writer appends is UTF-8: `&str` text copied whole or
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

#[inline(always)]
fn push_lexical<T: lexical_core::ToLexical + FormattedSize>(out: &mut Vec<u8>, value: T) {
    let mut buffer = [0u8; 64];
    let written = lexical_core::write(value, &mut buffer[..T::FORMATTED_SIZE_DECIMAL.min(64)]);
    out.extend_from_slice(written);
}

/// Appends the shortest text that reads back as exactly `value` (finite), always with a
/// `.` or an exponent so it reads back as a float: `1.0`, `0.1`, `1e+300`, `5e-324`.
#[inline(always)]
fn push_shortest_f64(out: &mut Vec<u8>, value: f64) {
    let mut buffer = zmij::Buffer::new();
    out.extend_from_slice(buffer.format_finite(value).as_bytes());
}

/// As [`push_shortest_f64`], shortest for 32 bits (`1.1f32` is `1.1`).
#[inline(always)]
fn push_shortest_f32(out: &mut Vec<u8>, value: f32) {
    let mut buffer = zmij::Buffer::new();
    out.extend_from_slice(buffer.format_finite(value).as_bytes());
}

impl<W: io::Write> Writer for JsonWriter<W> {
    #[inline]
    fn write_null(&mut self) -> Result<()> {
        self.scalar(|out| out.extend_from_slice(b"null"))
    }

    #[inline]
    fn write_bool(&mut self, value: bool) -> Result<()> {
        self.scalar(|out| out.extend_from_slice(if value { b"true" } else { b"false" }))
    }

    #[inline]
    fn write_str(&mut self, value: &str) -> Result<()> {
        if !self.before_value()? {
            return self.write_key_text(value);
        }
        self.escape_into(value);
        self.take_inline_next();
        self.after_value()
    }

    #[inline]
    fn write_name(&mut self, name: &str) -> Result<()> {
        self.write_key_text(name)
    }

    #[inline]
    fn write_number(&mut self, number: Number<'_>) -> Result<()> {
        match number {
            Number::Text(text, _) => {
                if !scan::is_json_number(text.as_bytes()) {
                    return Err(Error::new(
                        codes::INVALID_NUMBER_TEXT,
                        format!("`{text}` is not a JSON number"),
                    ));
                }
                self.scalar(|out| out.extend_from_slice(text.as_bytes()))
            }
            Number::I64(v) => self.scalar(|out| push_lexical(out, v)),
            Number::U64(v) => self.scalar(|out| push_lexical(out, v)),
            Number::I128(v) => self.scalar(|out| push_lexical(out, v)),
            Number::U128(v) => self.scalar(|out| push_lexical(out, v)),
            Number::F32(v) if v.is_finite() => self.scalar(|out| push_shortest_f32(out, v)),
            Number::F64(v) if v.is_finite() => self.scalar(|out| push_shortest_f64(out, v)),
            Number::F32(v) => self.write_non_finite(f64::from(v)),
            Number::F64(v) => self.write_non_finite(v),
        }
    }

    fn write_blob(&mut self, value: &[u8]) -> Result<()> {
        match self.options.blob {
            BlobMode::Error => Err(Error::unsupported(
                "writing a Blob",
                "JsonWriter (set WriterOptions::blob to BlobMode::Base64)",
            )),
            BlobMode::Base64 => {
                if !self.before_value()? {
                    return Err(misuse("raw bytes as an object key"));
                }
                self.out.push(b'"');
                base64::encode_into(value, &mut self.out);
                self.out.push(b'"');
                self.take_inline_next();
                self.after_value()
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
                if matches!(self.stack.last(), Some(f) if f.object && !f.after_key) {
                    return Err(misuse("an extension value as an object key"));
                }
                self.write_map_root(Some(2))?;
                self.write_name("$ext")?;
                self.write_i64(i64::from(ext.kind))?;
                self.write_name("data")?;
                let data = base64::encode(ext.data);
                self.write_str(&data)?;
                self.write_map_end()
            }
        }
    }

    #[inline]
    fn write_map_root(&mut self, _len: Option<usize>) -> Result<()> {
        self.open(true)
    }

    #[inline]
    fn write_map_end(&mut self) -> Result<()> {
        self.close(true)
    }

    #[inline]
    fn write_array_root(&mut self, _len: Option<usize>) -> Result<()> {
        self.open(false)
    }

    #[inline]
    fn write_array_end(&mut self) -> Result<()> {
        self.close(false)
    }

    /// Writes the next value on one line in pretty output; see
    /// [`JsonWriter::inline_next_value`]. Handlers holding a `&mut dyn Writer` use this.
    fn inline_next_value(&mut self) {
        JsonWriter::inline_next_value(self);
    }

    /// Checks that every container is closed and at least one value was written, ends the
    /// output with `newline` when `final_newline` is set, and flushes the sink.
    fn finish(&mut self) -> Result<()> {
        self.end_output()?;
        self.flush()
    }
}

impl<W: io::Write> JsonWriter<W> {
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
