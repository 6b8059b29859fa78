//! [`JsonReader`]: a pull tokenizer for JSON and its relaxed forms.
//!
//! The reader is a small state machine, not a recursive descent: nesting lives in a stack
//! of frames, so `max_depth` only bounds memory and a hostile `[[[[...` can never overflow
//! the call stack. `peek` lexes the next token and keeps it pending (so `peek` can be called
//! again at no cost); a `read_*` hands the pending token out and moves the state on.
//!
//! Nothing counts lines while reading: spans are byte offsets, and the error renderer turns
//! them into line:column only when an error is shown. The data path of an error (`$.a[3].b`)
//! is likewise built only when the error happens.
//!
//! Numbers stay lazy (their text is available through `read_number`), but the scanner reads
//! the digits of the common ones (up to 19 significant digits) while checking the grammar,
//! so `read_f64`, `read_i64` and `read_u64` convert without a second pass over the text;
//! anything else takes the general conversions of [`Number`].
//!
//! The hot paths here, in the scanner, the key tracker, the input and the decimal
//! conversions are forced in line only where debug assertions are off
//! (`cfg_attr(not(debug_assertions), inline(always))`). An unoptimised build inlines
//! `inline(always)` too, and gives every local of every inlined function a stack slot of
//! its own: code that recursed over the reader (one `peek` and one `read` a level, as a
//! value builder does) took 15.1 KiB of stack a level: 128 levels came within a few
//! percent of a thread's 2 MiB, and a few more locals in the key check overflowed it.
//! Called instead, the same level takes 1.5 KiB. Release builds are the same as before; an
//! optimised build with debug assertions on (a fuzzing build) leaves these functions to the
//! compiler's own inlining.

use std::io;

use sluice_core::decimal::{self, Decimal};
use sluice_core::error::excerpt;
use sluice_core::{
    Entry, Error, ErrorCode, Number, NumberHint, Path, PathSegment, Reader, Result, Span,
};

use crate::codes;
use crate::hint;
use crate::input::{Input, IoInput, SliceInput};
use crate::keys::{InputBytes, KeyBytes, KeyTracker};
use crate::options::{DuplicateKeys, JsonOptions};
use crate::scan::{self, NumberScan};

/// U+FEFF in UTF-8: skipped where it opens the input.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// What the reader expects at its position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the first root value.
    Start,
    /// After a root value: the end, or (with `multiple_values`) another value.
    AfterRoot,
    /// After `[`: a value or `]`.
    ArrayFirst,
    /// After an array item: `,` or `]`.
    ArrayNext,
    /// After `,` in an array: a value (or `]` with trailing commas).
    ArrayAfterComma,
    /// After `{`: a key or `}`.
    ObjectFirst,
    /// After an object value: `,` or `}`.
    ObjectNext,
    /// After `,` in an object: a key (or `}` with trailing commas).
    ObjectAfterComma,
    /// After a key: `:`.
    ObjectColon,
    /// After `:`: a value.
    ObjectValue,
    /// After an error the reader cannot go on from (see [`Failure`]): it repeats that error
    /// rather than lex what follows (or find a clean end).
    Failed,
}

/// Why the reader is in [`State::Failed`].
#[derive(Debug)]
enum Failure {
    /// A block comment never closed (its span): its scan went on to the end of the input, or
    /// in NDJSON to the end of its line.
    UnclosedComment(Span),
    /// An NDJSON record's value went on past a line feed (see
    /// [`JsonReader::record_broken_over_lines`]): its error, whole (see
    /// [`JsonReader::record_cut_at`]); the record never completes.
    RecordCutOff(Error),
    /// Any other error in the input, as first reported: of the lexer, as `peek` reported it
    /// (see [`JsonReader::stop`]), or found by a read (see [`JsonReader::fail_on_read`]).
    Reported(Error),
}

impl Failure {
    /// The error to report again (out of line, as everything the failed state does).
    #[cold]
    #[inline(never)]
    fn error(&self) -> Error {
        match self {
            Failure::UnclosedComment(span) => unclosed_comment_error(*span),
            Failure::RecordCutOff(cut) => cut.clone(),
            Failure::Reported(err) => err.clone(),
        }
    }
}

/// Where the payload of the pending token lives. Offsets are relative to the token start.
#[derive(Debug, Clone, Copy)]
enum Payload {
    None,
    Bool(bool),
    /// String content borrowed from the input: the whole token (a JSON5 identifier key),
    /// or, when `quoted`, the token without its first and last byte. Implied by the token's
    /// length rather than stored as offsets: two stores fewer for each string the lexer
    /// finds, and two loads fewer where it is read. `proven` when the bytes are proven
    /// UTF-8 already (all ASCII, or the input is a `&str`).
    Borrowed {
        quoted: bool,
        proven: bool,
    },
    /// String content decoded into the scratch buffer.
    Scratch,
    /// A number in JSON syntax whose value the scanner read on the way (at most 19
    /// significant digits, a moderate exponent: most numbers); the whole token is its text
    /// and its hint is the entry's. A variant of its own, so the typed reads find it with
    /// one test of the tag.
    Decimal(ScannedDecimal),
    /// A number in JSON syntax that the scanner did not read: the whole token is its text
    /// and its hint is the entry's.
    Number,
    /// Number text borrowed from the input, between these offsets (JSON5 spellings).
    Text(usize, usize, NumberHint),
    /// Normalized number text in the scratch buffer (JSON5 `.5` becomes `0.5`).
    ScratchText(NumberHint),
    U64(u64),
    I64(i64),
    F64(f64),
}

/// A [`Decimal`] as the pending token keeps it: each field in a word of its own.
///
/// The typed reads load these fields right after `peek` stored them, and a load takes its
/// value from a store still on its way to the cache only when one store wrote all of the
/// loaded bytes. With the fields of a `Decimal` (an `i32` and a `bool` side by side), the
/// compiler stored the `bool` as one byte and loaded it as four (the padding after it may be
/// read), and read the two as one eight-byte word to test an integer's sign: each such load
/// waited for the stores to reach the cache. On canada.json that wait was the read's
/// costliest instruction. Words stored and loaded whole are forwarded at once; packing the
/// exponent and the sign into one word did that too, with more instructions.
#[derive(Debug, Clone, Copy)]
struct ScannedDecimal {
    mantissa: u64,
    /// The exponent, widened from the `i32` of [`Decimal`].
    exponent: i64,
    /// 1 for `-`, else 0.
    negative: u64,
}

impl ScannedDecimal {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn new(value: Decimal) -> ScannedDecimal {
        ScannedDecimal {
            mantissa: value.mantissa,
            exponent: i64::from(value.exponent),
            negative: u64::from(value.negative),
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn negative(self) -> bool {
        self.negative != 0
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn decimal(self) -> Decimal {
        #[allow(clippy::cast_possible_truncation)] // widened from an `i32` by `new`
        let exponent = self.exponent as i32;
        Decimal {
            negative: self.negative(),
            mantissa: self.mantissa,
            exponent,
        }
    }
}

/// The payload of a number token in JSON syntax: its value when the scanner read it.
#[cfg_attr(not(debug_assertions), inline(always))]
fn number_payload(value: Option<Decimal>) -> Payload {
    value.map_or(Payload::Number, |value| {
        Payload::Decimal(ScannedDecimal::new(value))
    })
}

/// The text of a number token of `len` bytes at `at` in `window`, which the number
/// scanner accepted.
#[cfg_attr(not(debug_assertions), inline(always))]
fn number_text(window: &[u8], at: usize, len: usize) -> &str {
    let bytes = &window[at..at + len];
    debug_assert!(bytes.is_ascii());
    // SAFETY: the number lexers accept only ASCII bytes (digits, signs, `.`, exponent and
    // JSON5 letters), so the bytes are ASCII and therefore UTF-8. Exercised by every test
    // that reads a number's text, such as `numbers_keep_their_text_and_hint`.
    unsafe { std::str::from_utf8_unchecked(bytes) }
}

#[derive(Debug, Clone, Copy)]
struct Pending {
    entry: Entry,
    /// Length of the token in bytes, from the reader's position.
    len: usize,
    payload: Payload,
}

impl Pending {
    /// The length and hint of this token when it is a number in JSON syntax, whose text is
    /// the whole token (not a JSON5 spelling or a typed payload).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn number_in_json_syntax(self) -> Option<(usize, NumberHint)> {
        match (self.entry, self.payload) {
            (Entry::Number(hint), Payload::Number | Payload::Decimal(_)) => Some((self.len, hint)),
            _ => None,
        }
    }

    /// Where the content of this string or key token lies when it is borrowed from the
    /// input (offsets from the token's start), and whether it is proven UTF-8; `None` for
    /// decoded strings and other tokens.
    ///
    /// The range is within the token: a quoted token holds at least its two quotes, so
    /// `1 <= len - 1`; an identifier key is the whole token.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn borrowed_content(self) -> Option<(usize, usize, bool)> {
        match self.payload {
            Payload::Borrowed { quoted, proven } => {
                let quote = usize::from(quoted);
                debug_assert!(self.len >= 2 * quote);
                Some((quote, self.len - quote, proven))
            }
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    object: bool,
    /// Items completed so far (for the error path of arrays).
    items: usize,
    /// Objects whose keys are not tracked (see [`JsonReader::keys_in_frames`]): the
    /// absolute offset and length of the current key's token, for the error path; length 0
    /// before the first key.
    key_at: usize,
    key_len: usize,
}

/// Over `io::Read`, where an NDJSON record's value stood when the window last moved while
/// no line feed had shown in it (see [`JsonReader::checkpoint_record`]): enough to read the
/// rest of its line again from there, once the bytes before it are gone.
#[derive(Debug)]
struct Checkpoint {
    /// Absolute offset of the reader's position.
    at: usize,
    state: State,
    frames: Vec<Frame>,
    /// The current key of each frame that is an object and has one (see
    /// [`JsonReader::path`]).
    keys: Vec<Option<String>>,
    /// The opener of the comment the position was inside (`//` or `/*`), empty between
    /// tokens: the window moves inside a comment longer than it.
    comment: &'static [u8],
}

/// What the lexer's out-of-line paths return (see [`JsonReader::out_of_line`]): the entry,
/// or [`Deferred`] when they failed, their error left in [`JsonReader::deferred`].
///
/// A `Result<Entry>` does not fit in the two registers a function returns, so a call
/// returning one writes it to the caller's stack. The lexer's paths all meet where the
/// consumer matches on the entry: with one such call among them, the compiler merges every
/// path's entry through that stack slot, and each token's dispatch waits on a store and a
/// reload. `Lexed` is returned in a register, and the merge stays in registers.
type Lexed = std::result::Result<Entry, Deferred>;

/// The error of a [`Lexed`] result is in [`JsonReader::deferred`].
#[derive(Debug)]
struct Deferred;

/// Counts line breaks before a position, lazily, for NDJSON record line numbers.
#[derive(Debug, Default, Clone, Copy)]
struct LineCounter {
    enabled: bool,
    /// Absolute offset up to which line breaks were counted.
    counted_to: usize,
    /// Line breaks before `counted_to`.
    breaks: usize,
}

/// A streaming JSON reader implementing [`Reader`].
///
/// Build it from a slice or string (zero copy: strings without escapes are borrowed from
/// the input) or from any [`io::Read`] (a bounded window, refilled as needed). Both produce
/// the same tokens, spans and errors. Options choose strict RFC 8259 (the default) or any
/// mix of relaxations; see [`JsonOptions`].
///
/// ```
/// use sluice_core::{Entry, Reader};
/// use sluice_json::JsonReader;
/// let mut reader = JsonReader::from_str(r#"{"name": "sluice", "stars": [5, 4.5]}"#);
/// reader.read_map_root()?;
/// assert_eq!(reader.read_name()?, "name");
/// assert_eq!(reader.read_str()?, "sluice");
/// assert_eq!(reader.read_name()?, "stars");
/// reader.read_array_root()?;
/// assert_eq!(reader.read_u8()?, 5);
/// assert_eq!(reader.read_f64()?, 4.5);
/// reader.read_array_end()?;
/// reader.read_map_end()?;
/// assert_eq!(reader.peek()?, Entry::Ended);
/// reader.finish()?;
/// # Ok::<(), sluice_core::Error>(())
/// ```
///
/// Errors carry a [`codes`] code, the byte span of the offending token and the
/// data path:
///
/// ```
/// use sluice_core::{Reader, Span};
/// use sluice_json::{codes, JsonReader};
/// let mut reader = JsonReader::from_str(r#"{"a": [1 2]}"#);
/// let err = sluice_core::Token::read_all(&mut reader).unwrap_err();
/// assert_eq!(err.code(), codes::EXPECT_COMMA);
/// assert_eq!(err.span(), Some(Span::new(9, 10)));
/// assert_eq!(err.path().unwrap().to_string(), "$.a[1]");
/// ```
///
/// # After an error
///
/// An error in the input is final: a syntax error, invalid UTF-8 in a string or comment, an
/// invalid escape or lone surrogate, a raw control character in a string, nesting beyond
/// `max_depth`, a duplicate key, an NDJSON record cut by its line feed, an I/O error of the
/// source. The reader stops there, and every later `peek`, read, `skip` and `finish()`
/// reports the same error again (code, span, path; an I/O error its empty span where the
/// stream broke, and the stream's own [`io::Error`] as its
/// [`io_error`](sluice_core::Error::io_error) and
/// [`source`](std::error::Error::source)), without reading the source again. A string's UTF-8 is checked when it is read or skipped, so a
/// `peek` may answer [`Entry::String`] before the read fails. Only
/// [`NdjsonReader::skip_bad_record`](crate::NdjsonReader::skip_bad_record) goes on past such
/// an error (not an I/O error), at the next line.
///
/// An error in the caller's request leaves the token unread, for another read to take: a
/// read of the wrong kind (`read_str` on a number, `skip` at the end of a container), a
/// read of a kind JSON never has (`read_blob`, `read_option_root` ...:
/// [`UNSUPPORTED`](sluice_core::codes::UNSUPPORTED)), `finish()` with tokens left unread,
/// and a number that does not convert to the type asked for (`read_u8` on 300, `read_i64`
/// on 1.5). The error and [`Reader::span`] then give the token's span. In NDJSON, such a
/// read of a token beyond the record's line feed reports the cut, and that is final.
///
/// ```
/// use sluice_core::{Reader, codes as core_codes};
/// use sluice_json::{codes, JsonReader};
/// let mut reader = JsonReader::from_str("[300, 1 2]");
/// reader.read_array_root()?;
/// assert_eq!(reader.read_u8().unwrap_err().code(), core_codes::NUMBER_OUT_OF_RANGE);
/// assert_eq!(reader.read_u16()?, 300); // still there
/// assert_eq!(reader.read_u8()?, 1);
/// assert_eq!(reader.peek().unwrap_err().code(), codes::EXPECT_COMMA);
/// assert_eq!(reader.read_u8().unwrap_err().code(), codes::EXPECT_COMMA); // final
/// # Ok::<(), sluice_core::Error>(())
/// ```
pub struct JsonReader<S> {
    input: S,
    options: JsonOptions,
    /// Position (in the input window) of the next unread byte.
    pos: usize,
    /// Where the token after the pending one may start (`pos` plus the pending token's
    /// length), or `pos` when no token is pending (see [`Self::next_start`]).
    next_start: usize,
    state: State,
    frames: Vec<Frame>,
    pending: Option<Pending>,
    scratch: String,
    /// The span of the last token read, kept as start and length: `span()` builds it only
    /// when asked.
    span_start: usize,
    span_len: usize,
    keys: KeyTracker,
    /// Root values read completely.
    values: u64,
    /// NDJSON: a line break must separate root values.
    records: bool,
    lines: LineCounter,
    bom_checked: bool,
    /// The error of the last out-of-line lexer path that failed (see [`Lexed`]).
    deferred: Option<Error>,
    /// Why the reader failed, in [`State::Failed`].
    failure: Failure,
    /// NDJSON records: how far the current record's bytes were searched for a line feed
    /// (absolute offset; bytes a refill drops are searched before it drops them), and the
    /// first line feed found inside it. A record is one line: a value that goes on past a
    /// line feed is an error there (see [`Self::record_broken_over_lines`]).
    record_searched_to: usize,
    record_line_feed: Option<usize>,
    /// NDJSON records: the absolute offset of the current record's value, from where its
    /// line is read again for the data path of its cut (see
    /// [`Self::path_at_record_line_end`]), and over `io::Read` the place to read it again
    /// from once that has left the window.
    record_start: usize,
    record_checkpoint: Option<Box<Checkpoint>>,
    /// The opener of the comment being skipped (`//` or `/*`), empty otherwise: where a
    /// checkpoint taken inside a comment must read on from.
    comment_open: &'static [u8],
}

/// Where the reader stands, not what it holds: the input (megabytes, perhaps) and the
/// lexer's bookkeeping would bury it.
impl<S: Input> std::fmt::Debug for JsonReader<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = f.debug_struct("JsonReader");
        out.field("offset", &self.offset())
            .field("path", &format_args!("{}", self.path()))
            .field("peeked", &self.pending.map(|pending| pending.entry))
            .field("span", &self.span())
            .field("values_read", &self.values);
        if self.state == State::Failed {
            out.field("failed", &self.failure.error());
        }
        out.field("options", &self.options).finish_non_exhaustive()
    }
}

impl<'a> JsonReader<SliceInput<'a>> {
    /// A strict reader over bytes (UTF-8 is checked inside strings).
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_json::JsonReader;
    /// let mut reader = JsonReader::from_slice(b"[true]");
    /// reader.read_array_root()?;
    /// assert!(reader.read_bool()?);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub fn from_slice(bytes: &'a [u8]) -> Self {
        JsonReader::new(SliceInput::new(bytes), JsonOptions::strict())
    }

    /// A strict reader over text. Strings without escapes are borrowed from it, and need no
    /// second UTF-8 check.
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_json::JsonReader;
    /// let mut reader = JsonReader::from_str(r#""héllo""#);
    /// assert_eq!(reader.read_str()?, "héllo");
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &'a str) -> Self {
        JsonReader::new(SliceInput::from_text(text), JsonOptions::strict())
    }
}

impl<R: io::Read> JsonReader<IoInput<R>> {
    /// A strict reader over any [`io::Read`]. No need to wrap it in a `BufReader`: the
    /// reader buffers itself, in a window of [`IO_WINDOW`](crate::IO_WINDOW) bytes (build
    /// the input with [`IoInput::with_window`] and pass it to [`JsonReader::new`] for
    /// another size).
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_json::JsonReader;
    /// let file: &[u8] = br#"{"id": 7}"#; // a `File`, a socket, stdin ...
    /// let mut reader = JsonReader::from_read(file);
    /// reader.read_map_root()?;
    /// assert_eq!(reader.read_name()?, "id");
    /// assert_eq!(reader.read_u32()?, 7);
    /// reader.read_map_end()?;
    /// reader.finish()?;
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub fn from_read(reader: R) -> Self {
        JsonReader::new(IoInput::new(reader), JsonOptions::strict())
    }
}

fn utf8_char_len(first: u8) -> usize {
    match first {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

fn hex_digit(byte: u8) -> Option<u32> {
    (byte as char).to_digit(16)
}

fn hex4(bytes: &[u8]) -> Option<u32> {
    if bytes.len() < 4 {
        return None;
    }
    bytes[..4]
        .iter()
        .try_fold(0u32, |acc, &b| Some(acc * 16 + hex_digit(b)?))
}

#[cold]
fn unclosed_comment_error(span: Span) -> Error {
    Error::new(codes::UNCLOSED_COMMENT, "comment is never closed").with_span(span)
}

/// An NDJSON record's value cut off by the line feed at `at` (absolute), as a reader of
/// that line alone finds it: the end of the input inside the value.
#[cold]
fn record_line_end_error(at: usize) -> Error {
    Error::new(
        codes::UNEXPECTED_EOF,
        "the record's line ends inside its value (an NDJSON record is one line)",
    )
    .with_span(Span::at(at))
}

/// `key` as a JSON string token, for a reader that reads it back (see
/// [`JsonReader::path_after_checkpoint`]).
#[cold]
fn quoted_key(key: &str) -> Vec<u8> {
    let mut token = Vec::with_capacity(key.len() + 2);
    token.push(b'"');
    for byte in key.bytes() {
        match byte {
            b'"' | b'\\' => token.extend_from_slice(&[b'\\', byte]),
            0..=0x1F => token.extend_from_slice(format!("\\u{byte:04x}").as_bytes()),
            _ => token.push(byte),
        }
    }
    token.push(b'"');
    token
}

/// The byte that closes an object (`object`) or an array, and its token.
#[cfg_attr(not(debug_assertions), inline(always))]
fn closing(object: bool) -> (u8, Entry) {
    if object {
        (b'}', Entry::MapEnd)
    } else {
        (b']', Entry::ArrayEnd)
    }
}

impl<S: Input> JsonReader<S> {
    /// A reader over `input` with `options`.
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_json::{JsonOptions, JsonReader, SliceInput};
    /// let input = SliceInput::new(b"[1, 2,]");
    /// let mut reader = JsonReader::new(input, JsonOptions::relaxed());
    /// assert_eq!(sluice_core::Token::read_all(&mut reader)?.len(), 4);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    pub fn new(input: S, options: JsonOptions) -> Self {
        JsonReader {
            input,
            options,
            pos: 0,
            next_start: 0,
            state: State::Start,
            frames: Vec::new(),
            pending: None,
            scratch: String::new(),
            span_start: 0,
            span_len: 0,
            keys: KeyTracker::default(),
            values: 0,
            records: false,
            lines: LineCounter::default(),
            bom_checked: false,
            deferred: None,
            failure: Failure::UnclosedComment(Span::at(0)),
            record_searched_to: 0,
            record_line_feed: None,
            record_start: 0,
            record_checkpoint: None,
            comment_open: b"",
        }
    }

    /// Replaces the options; meant to be chained right after construction.
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_json::{JsonOptions, JsonReader};
    /// let mut reader = JsonReader::from_str("{answer: 0x2A}").with_options(JsonOptions::json5());
    /// reader.read_map_root()?;
    /// assert_eq!(reader.read_name()?, "answer");
    /// assert_eq!(reader.read_u8()?, 42);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub fn with_options(mut self, options: JsonOptions) -> Self {
        self.options = options;
        self
    }

    /// The options in use.
    ///
    /// ```
    /// use sluice_json::{JsonOptions, JsonReader};
    /// let reader = JsonReader::from_str("[]");
    /// assert_eq!(reader.options(), &JsonOptions::strict());
    /// ```
    #[must_use]
    pub fn options(&self) -> &JsonOptions {
        &self.options
    }

    /// Absolute byte offset of the next unread byte.
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_json::JsonReader;
    /// let mut reader = JsonReader::from_str("[10, 20]");
    /// reader.read_array_root()?;
    /// reader.read_u8()?;
    /// assert_eq!(reader.offset(), 3);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub fn offset(&self) -> usize {
        self.input.offset() + self.pos
    }

    /// How many arrays and objects are open.
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_json::JsonReader;
    /// let mut reader = JsonReader::from_str(r#"{"a": [1]}"#);
    /// reader.read_map_root()?;
    /// reader.read_name()?;
    /// reader.read_array_root()?;
    /// assert_eq!(reader.depth(), 2);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// How many root values were read completely.
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_json::{JsonOptions, JsonReader};
    /// let mut reader = JsonReader::from_str("1 [2] 3").with_options(JsonOptions::ndjson());
    /// reader.read_u8()?;
    /// reader.read_array_root()?;
    /// assert_eq!(reader.values_read(), 1); // the array is not read completely yet
    /// reader.read_u8()?;
    /// reader.read_array_end()?;
    /// assert_eq!(reader.values_read(), 2);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub fn values_read(&self) -> u64 {
        self.values
    }

    /// The input, for example to recover an [`io::Read`].
    ///
    /// ```
    /// use sluice_json::JsonReader;
    /// let reader = JsonReader::from_read(std::io::Cursor::new(b"[]".to_vec()));
    /// let cursor = reader.into_input().into_inner();
    /// assert_eq!(cursor.into_inner(), b"[]");
    /// ```
    pub fn into_input(self) -> S {
        self.input
    }

    /// Checks that the document is complete and nothing but whitespace (and comments, when
    /// allowed) follows it.
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_json::{codes, JsonReader};
    /// let mut reader = JsonReader::from_str("[1] // done");
    /// reader.skip()?;
    /// // Strict JSON has no comments: the `/` after the value is reported.
    /// assert_eq!(reader.finish().unwrap_err().code(), codes::TRAILING_TOKEN);
    ///
    /// let mut reader = JsonReader::from_str("[1]  \n");
    /// reader.skip()?;
    /// reader.finish()?;
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`TRAILING_TOKEN`](crate::codes::TRAILING_TOKEN) when something follows the last value
    /// or tokens were left unread, or any syntax error met while looking.
    pub fn finish(&mut self) -> Result<()> {
        match self.peek()? {
            Entry::Ended => Ok(()),
            entry => {
                let start = self.pos;
                let len = self.pending.map_or(1, |p| p.len.max(1));
                // The caller's request, not the input, is at fault: as after a read of the
                // wrong kind, the token stays and `span()` gives its span.
                self.span_start = self.input.offset() + start;
                self.span_len = len;
                Err(self.decorate(self.error_at(
                    codes::TRAILING_TOKEN,
                    format!("finish() called with {entry} still unread"),
                    start,
                    start + len,
                )))
            }
        }
    }

    // ----- NDJSON support -------------------------------------------------------------

    /// Record mode for [`NdjsonReader`](crate::NdjsonReader): root values must be separated
    /// by a line break, and line breaks are counted for record line numbers.
    pub(crate) fn set_record_mode(&mut self) {
        self.options.multiple_values = true;
        self.records = true;
        self.lines.enabled = true;
    }

    /// For a reader of one line of an NDJSON input, the line not the input's first: no
    /// byte order mark is skipped at its start. Only the input may open with one, as
    /// [`NdjsonReader`](crate::NdjsonReader) reads it; a BOM at the start of a later line
    /// is an error there.
    pub(crate) fn refuse_byte_order_mark(&mut self) {
        self.bom_checked = true;
    }

    /// 1-based line number of absolute offset `at`, which must be at or after every offset
    /// counted so far, or on the line of the last one: the start of a block comment left
    /// open, whose scan counted up to where it stopped, on the comment's line (a comment in
    /// records never goes on past a line feed).
    pub(crate) fn line_of(&mut self, at: usize) -> usize {
        self.count_lines_to(at);
        self.lines.breaks + 1
    }

    fn count_lines_to(&mut self, at: usize) {
        if !self.lines.enabled || at <= self.lines.counted_to {
            return;
        }
        let offset = self.input.offset();
        let window = self.input.window();
        let from = self
            .lines
            .counted_to
            .saturating_sub(offset)
            .min(window.len());
        let to = (at - offset).min(window.len());
        self.lines.breaks += memchr::memchr_iter(b'\n', &window[from..to]).count();
        self.lines.counted_to = offset + to;
    }

    // ----- errors -----------------------------------------------------------------------

    #[cold]
    fn error_at(
        &self,
        code: ErrorCode,
        message: impl Into<String>,
        start: usize,
        end: usize,
    ) -> Error {
        let offset = self.input.offset();
        Error::new(code, message).with_span(Span::new(offset + start, offset + end))
    }

    /// Adds the data path to an error; runs only when an error happens.
    #[cold]
    fn decorate(&self, mut err: Error) -> Error {
        if err.path().is_none() {
            err = err.with_path(self.path());
        }
        self.cut_by_record_line(err)
    }

    /// An error found when a token is read (not lexed: a string's UTF-8, a duplicate key, a
    /// number that does not convert), or the record's cut-off in its place (see
    /// [`Self::record_cut_error`]).
    #[cold]
    fn cut_by_record_line(&self, err: Error) -> Error {
        self.record_cut_error(&err).unwrap_or(err)
    }

    /// Inside an NDJSON record's value, the error that replaces `err` when a line feed comes
    /// before it (before the position, for an error without a span or an I/O error): the
    /// line ends first, so the value is cut off there, whatever comes on the next line, as a
    /// reader of that line alone reports it. One rule for the lexer's errors and those found
    /// by a read.
    #[cold]
    fn record_cut_error(&self, err: &Error) -> Option<Error> {
        let start = match err.span() {
            // An I/O error stands where the stream broke, which may be past the token being
            // lexed when the lexer looked ahead: a line feed after that token is not one its
            // value went on past, so only one before the position cuts the record, as before
            // a refill (see `ensure_slow`).
            Some(span) if err.code() != sluice_core::codes::IO => span.start,
            _ => self.input.offset() + self.pos,
        };
        let at = self.record_cut_before(start)?;
        Some(self.record_cut_at(at))
    }

    /// The error of the current NDJSON record's value cut off by the line feed at `at`
    /// (absolute), with the data path where the line ends, as a reader of that line alone
    /// reports it (see [`Self::path_at_record_line_end`]).
    #[cold]
    #[inline(never)]
    fn record_cut_at(&self, at: usize) -> Error {
        record_line_end_error(at).with_path(self.path_at_record_line_end(at))
    }

    /// The data path where the current NDJSON record's line ends, at the line feed `at`
    /// (absolute) inside its value: `$.a` for `{"a":` then `1}`. The lexer does not look for
    /// line feeds token by token, so the reader may be past it, even past the value's end;
    /// its path is then found by reading the record's line alone, up to its line feed, as
    /// the [`parallel`](crate::parallel) ingestion reads it. Over `io::Read`, when the
    /// record's start has left the window (a line longer than the window), the rest of the
    /// line is read from the place the window last moved, in the state the reader had there
    /// (see [`Self::checkpoint_record`]); `$` only when no such place is known.
    #[cold]
    #[inline(never)]
    fn path_at_record_line_end(&self, at: usize) -> Path {
        let offset = self.input.offset();
        // Nothing lexed past the line feed: the reader stands where the line ends (as a
        // reader of the line alone does, which needs no second reading).
        if offset + self.pos <= at + 1 {
            return self.path();
        }
        let window = self.input.window();
        let Some(to) = at.checked_sub(offset).filter(|&to| to < window.len()) else {
            return Path::root();
        };
        if let Some(from) = self.record_start.checked_sub(offset) {
            let mut reader =
                JsonReader::new(SliceInput::new(&window[from..=to]), self.options.clone());
            reader.set_record_mode();
            // The line is read from its value: no byte order mark to look for.
            reader.refuse_byte_order_mark();
            return reader.path_at_end_of_line(0);
        }
        // Over `io::Read`, the record's start is gone: from the place the window last moved.
        match &self.record_checkpoint {
            Some(checkpoint) if checkpoint.at >= self.record_start && checkpoint.at >= offset => {
                self.path_after_checkpoint(checkpoint, &window[checkpoint.at - offset..=to])
            }
            _ => Path::root(),
        }
    }

    /// [`Self::path_at_record_line_end`] from `checkpoint`: `rest`, the bytes from there to
    /// the line feed, read by a reader in the checkpoint's state, whose keys so far stand
    /// (as JSON strings) before those bytes.
    #[cold]
    fn path_after_checkpoint(&self, checkpoint: &Checkpoint, rest: &[u8]) -> Path {
        let mut bytes = Vec::new();
        let mut frames = checkpoint.frames.clone();
        for (frame, key) in frames.iter_mut().zip(&checkpoint.keys) {
            if let Some(key) = key {
                frame.key_at = bytes.len();
                bytes.extend_from_slice(&quoted_key(key));
                frame.key_len = bytes.len() - frame.key_at;
            }
        }
        let start = bytes.len();
        // Inside a comment, the rest reads on as that comment: the lexer stepped over whole
        // characters of it, keeping back a `*` that a `/` may close.
        bytes.extend_from_slice(checkpoint.comment);
        bytes.extend_from_slice(rest);
        // Keys are read back from their tokens, where the frames say (the input is stable).
        let options = JsonOptions {
            duplicate_keys: DuplicateKeys::LastWins,
            ..self.options.clone()
        };
        let mut reader = JsonReader::new(SliceInput::new(&bytes), options);
        reader.set_record_mode();
        reader.refuse_byte_order_mark();
        reader.state = checkpoint.state;
        reader.frames = frames;
        reader.pos = start;
        reader.next_start = start;
        reader.record_start = start;
        reader.record_searched_to = start;
        reader.path_at_end_of_line(start)
    }

    /// For a reader of one record's line (its line feed last) from `start` on: reads until
    /// it fails, which it does at the line feed, and gives that error's data path; `$` if it
    /// fails anywhere else (a checkpoint taken inside a comment).
    #[cold]
    fn path_at_end_of_line(&mut self, start: usize) -> Path {
        let line_feed = self.input.window().len().saturating_sub(1);
        loop {
            if let Err(err) = self.consume_any() {
                let at_line_feed = err.code() == codes::UNEXPECTED_EOF
                    && err.span() == Some(Span::at(line_feed))
                    && line_feed >= start;
                return match err.path() {
                    Some(path) if at_line_feed => path.clone(),
                    _ => Path::root(),
                };
            }
        }
    }

    /// Over `io::Read`, once the window has moved on inside an NDJSON record's value with no
    /// line feed in it so far: remembers the reader's place and state, so that the data path
    /// where the record's line ends can be found now that the bytes before it are gone (see
    /// [`Self::path_at_record_line_end`]). The keys are in the tracker's arena by then (see
    /// [`KeyTracker::detach_from_input`]). Once a window, out of the lexer's way.
    #[cold]
    #[inline(never)]
    fn checkpoint_record(&mut self) {
        let at = self.input.offset() + self.pos;
        let checkpoint = Checkpoint {
            at,
            state: self.state,
            frames: self.frames.clone(),
            keys: self.frame_keys(),
            comment: self.comment_open,
        };
        match &mut self.record_checkpoint {
            Some(old) => **old = checkpoint,
            None => self.record_checkpoint = Some(Box::new(checkpoint)),
        }
    }

    /// The current key of each frame (`None` for arrays, and for an object before its first
    /// key), as [`Self::path`] finds them.
    #[cold]
    fn frame_keys(&self) -> Vec<Option<String>> {
        let mut keys = Vec::with_capacity(self.frames.len());
        let mut object = 0;
        for (depth, frame) in self.frames.iter().enumerate() {
            if !frame.object {
                keys.push(None);
                continue;
            }
            let innermost = depth + 1 == self.frames.len();
            let has_key = !innermost
                || matches!(
                    self.state,
                    State::ObjectColon | State::ObjectValue | State::ObjectNext
                );
            keys.push(if !has_key {
                None
            } else if self.keys_in_frames() {
                (frame.key_len > 0).then(|| self.key_in_input(frame.key_at, frame.key_len))
            } else {
                self.keys.current_key(object, InputBytes::of(&self.input))
            });
            object += 1;
        }
        keys
    }

    /// The reader stops at an error of the lexer: it is reported with its data path (see
    /// [`Self::lexer_error`]), and every later peek and read reports it again, rather than
    /// lex on from a position the failed token left behind (on the `io::Read` path, a
    /// window that a refill may have moved since).
    #[cold]
    fn stop(&mut self, err: Error) -> Error {
        if self.state == State::Failed {
            return match &self.failure {
                // Built whole the first time.
                Failure::Reported(_) => err,
                // Also in place of a block comment left open after the cut.
                Failure::RecordCutOff(cut) => cut.clone(),
                Failure::UnclosedComment(_) => self.lexer_error(err),
            };
        }
        let err = self.lexer_error(err);
        self.failure = Failure::Reported(err.clone());
        self.state = State::Failed;
        err
    }

    /// An error in the input that a read finds rather than the lexer (a string that is not
    /// UTF-8, a duplicate key), given whole: the reader stops there as at an error of the
    /// lexer (see [`Self::stop`]), and every later peek and read reports it again, rather
    /// than hand out what follows the bad token (in NDJSON, the next line's tokens as the
    /// record's when the error is the record's cut-off). Out of line, off the reads' path.
    #[cold]
    #[inline(never)]
    fn fail_on_read(&mut self, err: Error) -> Error {
        if self.state != State::Failed {
            self.fail_dropping_pending(Failure::Reported(err.clone()));
        }
        err
    }

    /// Fails the reader for good with the pending token dropped: a read found the error,
    /// so the token it had taken is not handed out again.
    #[cold]
    #[inline(never)]
    fn fail_dropping_pending(&mut self, failure: Failure) {
        self.pending = None;
        self.next_start = self.pos;
        self.failure = failure;
        self.state = State::Failed;
    }

    /// Adds the data path to an error of the lexer: the path of the slot where the
    /// offending token (or the end of the input) stands. In an array that is the index of
    /// the item it would be, as [`Self::path`] says; after a member of an object it is the
    /// object, since the token is not inside that member and is no key (yet), and a note
    /// names the member before it (`{"width": 1 "height": 2}` fails at `$`, after
    /// `$.width`).
    #[cold]
    fn lexer_error(&self, err: Error) -> Error {
        if let Some(cut) = self.record_cut_error(&err) {
            return cut;
        }
        if err.path().is_some() {
            return err;
        }
        let mut path = self.path();
        if self.state == State::ObjectNext
            && let Some(PathSegment::Key(_)) = path.segments().last()
        {
            let note = format!("after the member at {path}");
            path.pop();
            return err.with_path(path).with_note(note);
        }
        err.with_path(path)
    }

    /// Gives an error about the value just read (a number that does not convert, a string
    /// that is not UTF-8) its span and the data path of that value: the reader has moved past
    /// it, so the index of the innermost array is one back.
    #[cold]
    fn value_error(&self, err: Error) -> Error {
        let mut err = err.or_span(self.span());
        if err.path().is_none() {
            let mut path = self.path();
            if self.state == State::ArrayNext
                && let Some(&PathSegment::Index(index)) = path.segments().last()
            {
                path.pop();
                path.push_index(index.saturating_sub(1));
            }
            err = err.with_path(path);
        }
        self.cut_by_record_line(err)
    }

    /// The data path of the current position, such as `$.a[3].b`: the key just read, or the
    /// index of the item about to be read. Errors carry it already; this is for a caller's
    /// own messages.
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_json::JsonReader;
    /// let mut reader = JsonReader::from_str(r#"{"a": [1, 2]}"#);
    /// reader.read_map_root()?;
    /// reader.read_name()?;
    /// reader.read_array_root()?;
    /// reader.read_u8()?;
    /// assert_eq!(reader.path().to_string(), "$.a[1]");
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub fn path(&self) -> Path {
        let mut path = Path::root();
        let mut object = 0;
        for (depth, frame) in self.frames.iter().enumerate() {
            let innermost = depth + 1 == self.frames.len();
            if frame.object {
                let has_key = !innermost
                    || matches!(
                        self.state,
                        State::ObjectColon | State::ObjectValue | State::ObjectNext
                    );
                let key = if !has_key {
                    None
                } else if self.keys_in_frames() {
                    (frame.key_len > 0).then(|| self.key_in_input(frame.key_at, frame.key_len))
                } else {
                    self.keys.current_key(object, InputBytes::of(&self.input))
                };
                if let Some(key) = key {
                    path.push_key(key);
                }
                object += 1;
            } else {
                path.push_index(frame.items);
            }
        }
        path
    }

    /// Whether the current key of each object lives in its frame, as the offset of its
    /// token in the input, rather than in the key tracker: when duplicates are not looked
    /// for (the key is needed only for error paths) and the input stays put.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn keys_in_frames(&self) -> bool {
        self.options.duplicate_keys == DuplicateKeys::LastWins && self.input.is_stable()
    }

    /// The text of the key token at absolute offset `at` (`len` bytes) of a stable input,
    /// decoded (escapes resolved, quotes dropped). Runs only for error paths.
    #[cold]
    fn key_in_input(&self, at: usize, len: usize) -> String {
        let window = self.input.window();
        let Some(raw) = window.get(at..at + len) else {
            return String::new();
        };
        match raw {
            [b'"' | b'\'', content @ .., _] if !content.contains(&b'\\') => {
                String::from_utf8_lossy(content).into_owned()
            }
            // A JSON5 identifier without escapes: the token is the key.
            _ if !raw.contains(&b'\\') => String::from_utf8_lossy(raw).into_owned(),
            // Escapes: let a reader of the key alone (in an object of its own) decode it the
            // same way.
            _ => {
                let mut document = Vec::with_capacity(raw.len() + 4);
                document.push(b'{');
                document.extend_from_slice(raw);
                document.extend_from_slice(b":0}");
                let options = JsonOptions {
                    max_depth: 1,
                    ..self.options.clone()
                };
                let mut reader = JsonReader::new(SliceInput::new(&document), options);
                match reader.read_map_root().and_then(|_| reader.read_name()) {
                    Ok(key) => key.to_owned(),
                    Err(_) => String::from_utf8_lossy(raw).into_owned(),
                }
            }
        }
    }

    /// Describes the token at the reader's position for messages, and its length. Loads
    /// the whole token first, so both input paths describe it the same way; an I/O error
    /// while loading it is handed back instead (the token's extent is then unknown).
    #[cold]
    fn describe_next(&mut self) -> Result<(String, usize)> {
        let quote = match self.rest().first() {
            Some(&b'"') => Some(b'"'),
            Some(&b'\'') if self.options.single_quotes => Some(b'\''),
            _ => None,
        };
        if let Some(quote) = quote {
            match self.lex_string(quote) {
                Ok((_, len)) => {
                    let text = String::from_utf8_lossy(&self.rest()[..len.min(40)]).into_owned();
                    return Ok((format!("string {text}"), len));
                }
                Err(err) if err.code() == sluice_core::codes::IO => return Err(err),
                // A string that does not lex is described as a character.
                Err(_) => {}
            }
        }
        let word = self.shown_word_extent()?;
        let rest = self.rest();
        let Some(&byte) = rest.first() else {
            return Ok(("the end of the input".to_owned(), 0));
        };
        if word > 1 {
            let text = String::from_utf8_lossy(&rest[..word.min(40)]);
            return Ok((format!("`{text}`"), word));
        }
        let len = self.load_char(0)?;
        let rest = self.rest();
        Ok(match std::str::from_utf8(&rest[..len]) {
            Ok(text) => (format!("`{}`", text.escape_debug()), len),
            Err(_) => (format!("byte 0x{byte:02X}"), 1),
        })
    }

    /// The length of the word an error shows at `pos`: a run of word bytes, with the letters
    /// and digits outside ASCII it holds after its first byte (`café`, `naïve`), so that the
    /// span covers the word a reader sees. Like an ASCII word's, its end is known only at
    /// the first byte that cannot continue it.
    #[cold]
    fn shown_word_extent(&mut self) -> Result<usize> {
        let mut word = self.word_extent(0)?;
        // Only a word that started in ASCII goes on: one non-ASCII character alone is shown
        // as itself, loaded whole and no further (its end needs no byte after it).
        while word > 0 && self.rest().get(word).is_some_and(|&byte| byte >= 0x80) {
            let len = self.load_char(word)?;
            let letter = std::str::from_utf8(&self.rest()[word..word + len])
                .ok()
                .and_then(|text| text.chars().next())
                .is_some_and(char::is_alphanumeric);
            if !letter {
                break;
            }
            word = self.word_extent(word + len)?;
        }
        Ok(word)
    }

    /// Makes the bytes of the UTF-8 character at `pos + at` available, one at a time and
    /// none once those so far can start no character, and returns how many there are (the
    /// character's length when it is whole). Only those: the stream is not asked for the
    /// bytes after a bad token, which a stream that pauses there (a socket whose peer waits)
    /// would never send, and an NDJSON record is not cut at a line feed past the token.
    #[cold]
    fn load_char(&mut self, at: usize) -> Result<usize> {
        let Some(&lead) = self.rest().get(at) else {
            return Ok(0);
        };
        let whole = utf8_char_len(lead);
        let mut len = 1;
        while len < whole && self.ensure(at, len + 1)? {
            len += 1;
            let invalid = std::str::from_utf8(&self.rest()[at..at + len])
                .is_err_and(|err| err.error_len().is_some());
            if invalid {
                break;
            }
        }
        Ok(len)
    }

    /// The error for an unexpected token at the reader's position (or the I/O error met
    /// while loading it, see [`Self::describe_next`]).
    #[cold]
    fn unexpected_here(&mut self, code: ErrorCode, expected: &str) -> Error {
        let (found, len) = match self.describe_next() {
            Ok(found) => found,
            Err(err) => return err,
        };
        let code = if len == 0 {
            codes::UNEXPECTED_EOF
        } else {
            code
        };
        let error = self.error_at(
            code,
            format!("expected {expected}, found {found}"),
            self.pos,
            self.pos + len,
        );
        // A `/` starts a comment only before `/` or `*`: the byte after it decides its note,
        // loaded here so that both input paths see it.
        let next = if self.rest()[..len] == *b"/" {
            match self.ensure(0, 2) {
                Ok(true) => Some(self.rest()[1]),
                Ok(false) => None,
                Err(err) => return err,
            }
        } else {
            None
        };
        let token = &self.rest()[..len];
        // Only the bracket that closes this container makes the comma a trailing one: `]`
        // after `{"a": 1,` is refused with trailing commas on too.
        let closes_after_comma = matches!(
            (self.state, token),
            (State::ArrayAfterComma, [b']']) | (State::ObjectAfterComma, [b'}'])
        );
        let place = match code {
            _ if closes_after_comma => hint::Place::AfterComma,
            codes::EXPECT_KEY => hint::Place::Key,
            codes::UNEXPECTED_TOKEN => hint::Place::Value,
            codes::TRAILING_TOKEN if self.state == State::AfterRoot && !self.records => {
                hint::Place::AfterRoot
            }
            _ => hint::Place::Other,
        };
        hint::noted(error, hint::for_token(&self.options, place, token, next))
    }

    // ----- input window -----------------------------------------------------------------

    /// Makes `len` bytes from `self.pos + at` available if the input has them; bytes before
    /// `self.pos` may be dropped (offsets relative to `pos` stay valid).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn ensure(&mut self, at: usize, len: usize) -> Result<bool> {
        if self.pos + at + len <= self.input.window().len() {
            return Ok(true);
        }
        self.ensure_slow(at, len)
    }

    #[cold]
    #[inline(never)]
    fn ensure_slow(&mut self, at: usize, len: usize) -> Result<bool> {
        loop {
            if self.lines.enabled {
                let keep = self.input.offset() + self.pos;
                self.count_lines_to(keep);
            }
            if self.records && !self.frames.is_empty() {
                self.search_record_for_line_feed(self.pos);
                if !self.input.is_stable()
                    && let Some(at) = self.record_line_feed
                {
                    return Err(self.record_cut_before_refill(at));
                }
            }
            if !self.input.is_stable() {
                // The refill may drop the bytes of keys the tracker holds by offset.
                self.keys.detach_from_input(InputBytes::of(&self.input));
            }
            let refill = self.input.refill(self.pos)?;
            self.pos -= refill.shift;
            // Only when the window has moved: a checkpoint costs the whole depth, and a
            // stream may hand out a byte per read.
            if refill.shift > 0 && self.records && !self.frames.is_empty() {
                self.checkpoint_record();
            }
            if self.pos + at + len <= self.input.window().len() {
                return Ok(true);
            }
            if !refill.more {
                return Ok(false);
            }
        }
    }

    /// The bytes from the reader's position to the end of the window.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn rest(&self) -> &[u8] {
        &self.input.window()[self.pos..]
    }

    // ----- whitespace and comments ----------------------------------------------------------

    /// Skips whitespace (and comments when allowed), leaving `pos` at the next byte, which
    /// is returned (`None` at the end of the input).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn skip_whitespace(&mut self) -> Result<Option<u8>> {
        if let Some((at, byte)) = scan::next_token_byte(self.input.window(), self.pos) {
            self.pos = at;
            return Ok(Some(byte));
        }
        self.skip_whitespace_slow()
    }

    /// [`Self::skip_whitespace`] that also steps over short comments on one line when
    /// comments are on, as people put them in configuration (`, // note`, `/* x */`),
    /// without a call. For the lexer's general paths, where a comment leads: the common
    /// paths stop at a `/` and come here.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn skip_whitespace_and_comments(&mut self) -> Result<Option<u8>> {
        let window = self.input.window();
        let mut at = self.pos;
        loop {
            if let Some((next, byte)) = scan::next_token_byte(window, at) {
                self.pos = next;
                return Ok(Some(byte));
            }
            if !self.options.comments {
                break;
            }
            let start = scan::plain_space_end(window, at);
            let Some(len) = scan::short_comment(&window[start..]) else {
                break;
            };
            at = start + len;
        }
        self.pos = at;
        self.skip_whitespace_slow()
    }

    #[cold]
    #[inline(never)]
    fn skip_whitespace_slow(&mut self) -> Result<Option<u8>> {
        loop {
            // Plain whitespace in the window at once; the loop below takes what stopped it
            // (a comment, the window's end, JSON5 whitespace, a token).
            self.pos = scan::plain_space_end(self.input.window(), self.pos);
            if !self.ensure(0, 1)? {
                return Ok(None);
            }
            let byte = self.rest()[0];
            match byte {
                b' ' | b'\n' | b'\r' | b'\t' => self.pos += 1,
                b'/' if self.options.comments => {
                    if !self.skip_comment()? {
                        return Ok(Some(byte));
                    }
                }
                _ if self.options.json5_whitespace => {
                    if !self.skip_json5_space(byte)? {
                        return Ok(Some(byte));
                    }
                }
                _ => return Ok(Some(byte)),
            }
        }
    }

    /// Steps over one character of JSON5's other whitespace at `pos`, whose first byte is
    /// `byte`; `false` if it is not one.
    fn skip_json5_space(&mut self, byte: u8) -> Result<bool> {
        if !scan::may_start_json5_space(byte) {
            return Ok(false);
        }
        // Byte by byte: a character that only starts like one of them is a bad token as soon
        // as its own bytes are in (over a stream, asking for more could wait or fail).
        for len in 2..=scan::json5_space_width(byte) {
            self.ensure(0, len)?;
            if !scan::may_continue_json5_space(self.rest()) {
                return Ok(false);
            }
        }
        let Some(len) = scan::json5_space_len(self.rest()) else {
            return Ok(false);
        };
        self.pos += len;
        Ok(true)
    }

    /// Skips a comment at `pos` (which holds `/`); `false` if it is not a comment.
    ///
    /// A line comment ends before a line feed or a carriage return; with JSON5 whitespace
    /// on, also before U+2028 or U+2029, which ECMAScript counts as line terminators too
    /// (JSON5 §7). The terminator is left for the whitespace step.
    fn skip_comment(&mut self) -> Result<bool> {
        let skipped = self.skip_comment_body();
        self.comment_open = b"";
        skipped
    }

    /// [`Self::skip_comment`], which marks the reader outside a comment again after it.
    fn skip_comment_body(&mut self) -> Result<bool> {
        self.ensure(0, 2)?;
        let start = self.input.offset() + self.pos;
        match self.rest().get(1) {
            Some(b'/') => {
                self.pos += 2;
                if let Some(len) = scan::short_line_comment(self.rest()) {
                    self.pos += len;
                    return Ok(true);
                }
                self.comment_open = b"//";
                let separators = self.options.json5_whitespace;
                loop {
                    let rest = self.rest();
                    let found = if separators {
                        // 0xE2 starts both separators (and many other characters).
                        memchr::memchr3(b'\n', b'\r', 0xE2, rest)
                    } else {
                        memchr::memchr2(b'\n', b'\r', rest)
                    };
                    let Some(at) = found else {
                        // A character cut by the end of the window waits for the next read.
                        let checked = self.comment_utf8(rest.len(), true)?;
                        let cut = rest.len() - checked;
                        self.pos += checked;
                        if !self.ensure(0, cut + 1)? {
                            self.comment_utf8(cut, false)?;
                            self.pos += cut;
                            return Ok(true);
                        }
                        continue;
                    };
                    let byte = rest[at];
                    self.comment_utf8(at, false)?;
                    self.pos += at;
                    if byte != 0xE2 {
                        return Ok(true);
                    }
                    // The separator's other two bytes may come with the next read.
                    self.ensure(0, 3)?;
                    if scan::is_line_separator(self.rest()) {
                        return Ok(true);
                    }
                    // Another character of three bytes, stepped over whole (or an error).
                    let len = self.rest().len().min(3);
                    self.pos += self.comment_utf8(len, false)?;
                }
            }
            Some(b'*') => {
                self.pos += 2;
                if let Some(len) = scan::short_block_comment(self.rest()) {
                    self.pos += len;
                    return Ok(true);
                }
                self.comment_open = b"/*";
                loop {
                    let rest = self.rest();
                    let close = scan::block_comment_end(rest);
                    // An NDJSON record is one line, and so is what lies between records: a
                    // comment must close on its line, or the line ends inside it, as for a
                    // reader of that line alone (the parallel ingestion's).
                    if self.records
                        && let Some(at) =
                            memchr::memchr(b'\n', &rest[..close.unwrap_or(rest.len())])
                    {
                        self.comment_utf8(at, false)?;
                        let end = self.input.offset() + self.pos + at + 1;
                        return Err(self.comment_left_open(start, end));
                    }
                    if let Some(at) = close {
                        self.comment_utf8(at, false)?;
                        self.pos += at + 2;
                        return Ok(true);
                    }
                    // Keep a trailing `*` in case the `/` comes with the next read, and a
                    // character cut by the end of the window.
                    let checked = self.comment_utf8(rest.len().saturating_sub(1), true)?;
                    let kept = rest.len() - checked;
                    self.pos += checked;
                    // One byte more than is left, or the loop would not move on, and no
                    // more: in NDJSON that byte may be the line feed that ends the record
                    // (and the comment with it), after which a stream may pause.
                    if !self.ensure(0, kept + 1)? {
                        // Unclosed. The bytes kept back are checked now: invalid UTF-8
                        // among them (`\xC3` then a line feed) is the first error, as a
                        // reader of the same text with a `*/` after it finds; only a
                        // character cut by the end of the input leaves the missing end as
                        // the error.
                        self.comment_utf8(self.rest().len(), true)?;
                        let end = self.input.offset() + self.input.window().len();
                        return Err(self.comment_left_open(start, end));
                    }
                }
            }
            _ => Ok(false),
        }
    }

    /// The block comment from `start` is left open at `end` (absolute offsets): at the end
    /// of the input, or in NDJSON at the end of its line (its line feed included). The
    /// reader fails for good, and repeats the error as `lexer_error` reports it: inside a
    /// record's value cut off by a line feed before the comment, that cut.
    #[cold]
    fn comment_left_open(&mut self, start: usize, end: usize) -> Error {
        let span = Span::new(start, end);
        self.failure = match self.record_cut_before(start) {
            Some(at) => Failure::RecordCutOff(self.record_cut_at(at)),
            None => Failure::UnclosedComment(span),
        };
        self.state = State::Failed;
        unclosed_comment_error(span)
    }

    /// Checks that the `len` bytes of comment text at `pos` are UTF-8, as the whole document
    /// must be (RFC 8259 §8.1), though nothing reads a comment's text; returns how many of
    /// them to step over. With `cut_allowed` (more input may follow), a character cut short
    /// by the end of the bytes is left for the next read: the count stops before it.
    fn comment_utf8(&self, len: usize, cut_allowed: bool) -> Result<usize> {
        let text = &self.rest()[..len];
        if text.is_ascii() {
            return Ok(len);
        }
        match std::str::from_utf8(text) {
            Ok(_) => Ok(len),
            Err(err) if cut_allowed && err.error_len().is_none() => Ok(err.valid_up_to()),
            Err(err) => Err(self.utf8_error(self.pos, len, &err, "a comment")),
        }
    }

    /// The first line feed of the current NDJSON record before the absolute offset `end`:
    /// the one found already, or one in the bytes of the window not searched yet (absolute
    /// offset). `end` may lie before the window (an error that started in bytes a refill
    /// has dropped): those bytes were searched before they were dropped, so the answer is
    /// then the line feed found already, compared with `end` itself.
    fn record_line_feed_before(&self, end: usize) -> Option<usize> {
        if let Some(at) = self.record_line_feed {
            return (at < end).then_some(at);
        }
        let offset = self.input.offset();
        let window = self.input.window();
        let to = end.saturating_sub(offset).min(window.len());
        let from = self.record_searched_to.saturating_sub(offset).min(to);
        memchr::memchr(b'\n', &window[from..to]).map(|at| offset + from + at)
    }

    /// Inside an NDJSON record's value, the line feed that cuts the record off before the
    /// absolute offset `end`, where an error was found: the line ends first, so that is the
    /// error a reader of the line alone reports.
    fn record_cut_before(&self, end: usize) -> Option<usize> {
        if !self.records || self.frames.is_empty() {
            return None;
        }
        self.record_line_feed_before(end)
    }

    /// Searches the current NDJSON record's bytes up to window position `to` for its
    /// first line feed, and remembers what was searched (before a refill drops it).
    fn search_record_for_line_feed(&mut self, to: usize) {
        let end = self.input.offset() + to;
        self.record_line_feed = self.record_line_feed_before(end);
        self.record_searched_to = end;
        // No line feed from the record's start to `end`: the line counter, when it stopped
        // inside that stretch (at the record's start, where `next_record` counted to), has
        // none to count there either, and moves on without a second pass over the bytes.
        if self.record_line_feed.is_none()
            && (self.record_start..end).contains(&self.lines.counted_to)
        {
            self.lines.counted_to = end;
        }
    }

    /// The line feed inside the NDJSON record whose value just ended, if it holds one: the
    /// record is one line, so its value may not go on past one (the NDJSON spec: a record
    /// "MUST NOT contain newlines"; a reader of each line alone, as the parallel ingestion
    /// is, finds the value cut off there). Searched once the value ends, off the path of
    /// every token.
    #[cold]
    fn record_broken_over_lines(&mut self) -> Option<usize> {
        self.search_record_for_line_feed(self.pos);
        self.record_line_feed
    }

    /// Over `io::Read`, an NDJSON record whose value went on past the line feed at `at`
    /// (absolute) is cut there as soon as the window must move: the refill would drop the
    /// bytes after the line feed, the next line that
    /// [`NdjsonReader::skip_bad_record`](crate::NdjsonReader::skip_bad_record) goes on
    /// with, and keeping them would hold an unbounded part of the stream (a pretty-printed
    /// document read as NDJSON). The error is the cut the end of the value would report,
    /// with the same data path (see [`Self::record_cut_at`]), as over a slice; only the
    /// token it comes at is earlier.
    #[cold]
    #[inline(never)]
    fn record_cut_before_refill(&self, at: usize) -> Error {
        self.record_cut_at(at)
    }

    /// After an error in the input of an NDJSON record, discards the rest of the failed
    /// line and clears the failure, so that the next peek reads the next line as a fresh
    /// reader of the lines that follow would (see
    /// [`NdjsonReader::skip_bad_record`](crate::NdjsonReader::skip_bad_record)): the
    /// bad line's 1-based number, or `None` when the reader has not failed.
    ///
    /// The line ends at the first line feed at or after the point of failure (the start
    /// of the error's span): a raw line feed is never inside an NDJSON token, and a value
    /// cut by its line feed fails at that line feed, so the next line is read again even
    /// when the value went on over it (the bytes are still in the window: see
    /// [`Self::record_cut_before_refill`]). What lies beyond the window is read and
    /// dropped a window at a time, never held.
    ///
    /// # Errors
    /// An I/O error, the reader's own or one met while skipping: it stays final.
    #[cold]
    #[inline(never)]
    pub(crate) fn skip_failed_line(&mut self) -> Result<Option<usize>> {
        if self.state != State::Failed {
            return Ok(None);
        }
        let from = match &self.failure {
            Failure::UnclosedComment(span) => span.start,
            Failure::RecordCutOff(cut) => cut.span().map_or(self.offset(), |span| span.start),
            Failure::Reported(err) if err.code() == sluice_core::codes::IO => {
                return Err(err.clone());
            }
            Failure::Reported(err) => err.span().map_or(self.offset(), |span| span.start),
        };
        // Bytes a refill dropped before the point of failure held no line feed of its line
        // (a block comment's are searched before they are dropped).
        let offset = self.input.offset();
        self.pos = from.saturating_sub(offset).min(self.input.window().len());
        let mut line_feed = false;
        loop {
            if let Some(at) = memchr::memchr(b'\n', self.rest()) {
                self.pos += at + 1;
                line_feed = true;
                break;
            }
            self.pos = self.input.window().len();
            self.count_lines_to(self.input.offset() + self.pos);
            let refill = match self.input.refill(self.pos) {
                Ok(refill) => refill,
                Err(err) => {
                    self.failure = Failure::Reported(err.clone());
                    return Err(err);
                }
            };
            self.pos -= refill.shift;
            if !refill.more {
                break;
            }
        }
        let resume = self.input.offset() + self.pos;
        self.set_lines_counted_to(resume);
        let line = self.lines.breaks + usize::from(!line_feed);
        // The reader of the next line starts afresh: no open container, key or token.
        for _ in 0..self.frames.len() {
            self.keys.close();
        }
        self.frames.clear();
        self.pending = None;
        self.next_start = self.pos;
        self.deferred = None;
        self.state = State::Start;
        self.failure = Failure::UnclosedComment(Span::at(0));
        // Only the input's first line may open with a byte order mark.
        self.bom_checked = true;
        self.record_searched_to = resume;
        self.record_line_feed = None;
        Ok(Some(line))
    }

    /// For [`NdjsonReader`](crate::NdjsonReader) after [`Self::skip_failed_line`]: the
    /// count of root values read, the records so far, bad ones included.
    pub(crate) fn set_values_read(&mut self, values: u64) {
        self.values = values;
    }

    /// Sets the line counter to the line breaks before absolute offset `at`, in the window
    /// or at its end: counted on, or back when the reader had counted past it (a record
    /// cut by its line feed whose value went on over the next lines).
    fn set_lines_counted_to(&mut self, at: usize) {
        if at >= self.lines.counted_to {
            self.count_lines_to(at);
            return;
        }
        let offset = self.input.offset();
        let window = self.input.window();
        let to = (self.lines.counted_to - offset).min(window.len());
        let from = at.saturating_sub(offset).min(to);
        self.lines.breaks -= memchr::memchr_iter(b'\n', &window[from..to]).count();
        self.lines.counted_to = at;
    }

    /// For [`Record::finish`](crate::Record::finish), after an NDJSON record's value:
    /// checks that nothing but whitespace (and comments, where allowed) follows the value on
    /// its line, up to its line feed (left for the next record's separator) or the end of
    /// the input. Anything else is the error the next peek would report, with the same code,
    /// span and path (a token there is [`TRAILING_TOKEN`](codes::TRAILING_TOKEN)), and the
    /// reader fails with it as at any error in the input. The next line is never read, so a
    /// live stream is not waited on.
    #[cold]
    #[inline(never)]
    pub(crate) fn check_record_line_end(&mut self) -> Result<()> {
        if self.state != State::AfterRoot || self.pending.is_some() {
            // Failed: its error again. A pending token was lexed after a line break.
            return self.peek().map(drop);
        }
        let outcome = self.skip_to_record_line_end();
        self.next_start = self.pos;
        outcome.map_err(|err| self.stop(err))
    }

    /// [`Self::check_record_line_end`]'s scan, as [`Self::skip_record_separator`] does it
    /// but stopping at the line feed.
    fn skip_to_record_line_end(&mut self) -> Result<()> {
        loop {
            if !self.ensure(0, 1)? {
                return Ok(());
            }
            let byte = self.rest()[0];
            let skipped = match byte {
                b'\n' => return Ok(()),
                b' ' | b'\r' | b'\t' => {
                    self.pos += 1;
                    true
                }
                b'/' if self.options.comments => self.skip_comment()?,
                _ if self.options.json5_whitespace => self.skip_json5_space(byte)?,
                _ => false,
            };
            if !skipped {
                return Err(
                    self.unexpected_here(codes::TRAILING_TOKEN, "a line break between records")
                );
            }
        }
    }

    /// Between NDJSON records: whitespace that must include a line break before the next
    /// record. Returns the next byte and whether a line break was seen.
    fn skip_record_separator(&mut self) -> Result<(Option<u8>, bool)> {
        let mut line_break = false;
        loop {
            if !self.ensure(0, 1)? {
                return Ok((None, line_break));
            }
            let byte = self.rest()[0];
            match byte {
                b'\n' => {
                    line_break = true;
                    self.pos += 1;
                }
                b' ' | b'\r' | b'\t' => self.pos += 1,
                b'/' if self.options.comments => {
                    if !self.skip_comment()? {
                        return Ok((Some(byte), line_break));
                    }
                }
                // JSON5's other whitespace, as between tokens; only `\n` separates records.
                _ if self.options.json5_whitespace => {
                    if !self.skip_json5_space(byte)? {
                        return Ok((Some(byte), line_break));
                    }
                }
                _ => return Ok((Some(byte), line_break)),
            }
        }
    }

    // ----- the state machine --------------------------------------------------------------

    /// Lexes the next token into `pending`.
    ///
    /// The three states met most inside containers (a value after `:`, `,` or `}` after a
    /// member, `,` or `]` after an item) are tested one by one: a `match` on every state
    /// becomes a jump table, an indirect jump whose target changes from token to token
    /// (key, value, key, ...) and is mispredicted far more often than these compares.
    ///
    /// Inlined into `peek`, its one caller: a loop that peeks at every token then gets
    /// the lexer in line, and the compiler carries the token's kind and payload from the
    /// lexer to the read without storing and reloading `pending` (canada read 1.12x faster,
    /// 7.7% fewer instructions).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn advance(&mut self) -> Result<Entry> {
        let state = self.state;
        if state == State::ObjectColon {
            return self.lex_member_value();
        }
        if state == State::ArrayNext || state == State::ArrayFirst {
            return self.lex_array_slot(state == State::ArrayNext);
        }
        if state == State::ObjectNext || state == State::ObjectFirst {
            return self.lex_object_slot(state == State::ObjectNext);
        }
        self.out_of_line(Self::advance_other)
    }

    /// After a key: `:`, then the member's value.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_member_value(&mut self) -> Result<Entry> {
        // The same value as `pos`, taken from where the lexer stored it (see `next_start`).
        self.pos = self.next_start();
        // The `:` mostly follows the key directly, indented or not.
        if self.input.window().get(self.pos) != Some(&b':') {
            let Some(byte) = self.skip_whitespace()? else {
                return Err(self.eof_error());
            };
            if byte != b':' {
                return Err(self.unexpected_here(codes::EXPECT_COLON, "`:`"));
            }
        }
        self.pos += 1;
        self.state = State::ObjectValue;
        // Pretty printers put one space after the `:` (`"key": value`): stepped over with
        // one compare, without the whitespace loop's test for a word of indentation. The
        // value lexer is called (and inlined) on each way: merged into one call, the read
        // took 1.01x the time on twitter.json and 1.03x to 1.05x on citm_catalog.json.
        let window = self.input.window();
        if window.get(self.pos) == Some(&b' ')
            && let Some(&byte) = window.get(self.pos + 1)
            && scan::may_start_token(byte)
        {
            self.pos += 1;
            return self.lex_nested_value(byte);
        }
        let Some(byte) = self.skip_whitespace()? else {
            return Err(self.eof_error());
        };
        self.lex_nested_value(byte)
    }

    /// Inside an array, after `[` or (`after_item`) after an item: `]`, or the next item
    /// (after a `,` when `after_item`).
    ///
    /// Both states end in one place that lexes the item, so the value lexer is inlined
    /// once for arrays (canada.json: every coordinate pair opens an array).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_array_slot(&mut self, after_item: bool) -> Result<Entry> {
        self.lex_slot(after_item, false)
    }

    /// [`Self::lex_array_slot`] for objects: `}`, or the next key (after a `,` when
    /// `after_member`), with the key lexer inlined once.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_object_slot(&mut self, after_member: bool) -> Result<Entry> {
        self.lex_slot(after_member, true)
    }

    /// [`Self::lex_array_slot`] and [`Self::lex_object_slot`]: one body, the constant
    /// `object` folded away where each is inlined.
    ///
    /// The common shapes (plain whitespace, a `,` and the next entry, or the end, all in
    /// the window) are lexed with the position in a register, stored once; everything else
    /// (comments, the end of the window, a trailing comma, errors) goes to
    /// [`Self::lex_slot_general`], out of line. With the general path in line, every
    /// token paid for the position and the window being stored and reloaded around it
    /// where the paths met.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_slot(&mut self, after_entry: bool, object: bool) -> Result<Entry> {
        let (close, end) = closing(object);
        let window = self.input.window();
        if let Some((at, byte)) = scan::next_token_byte(window, self.next_start()) {
            let next = if !after_entry {
                Some((at, byte))
            } else if byte == b',' {
                scan::next_token_byte(window, at + 1).filter(|&(_, next)| next != close)
            } else if byte == close {
                self.pos = at;
                return Ok(self.set_pending(end, 1, Payload::None));
            } else {
                None
            };
            if let Some((at, byte)) = next {
                self.pos = at;
                if after_entry {
                    self.state = if object {
                        State::ObjectAfterComma
                    } else {
                        State::ArrayAfterComma
                    };
                }
                if byte == close {
                    return Ok(self.set_pending(end, 1, Payload::None));
                }
                return if object {
                    self.lex_key(byte)
                } else {
                    self.lex_nested_value(byte)
                };
            }
        }
        self.out_of_line(move |reader| reader.lex_slot_general(after_entry, object))
    }

    /// [`Self::lex_slot`] for every case, the rare ones included.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_slot_general(&mut self, after_entry: bool, object: bool) -> Result<Entry> {
        let (close, end) = closing(object);
        // The `,` or the end after an entry mostly follows it directly, indented or not.
        let mut byte = match self.input.window().get(self.pos) {
            Some(&byte) if after_entry && (byte == b',' || byte == close) => byte,
            _ => match self.skip_whitespace_and_comments()? {
                Some(byte) => byte,
                None => return Err(self.eof_error()),
            },
        };
        if after_entry {
            if byte == b',' {
                self.pos += 1;
                self.state = if object {
                    State::ObjectAfterComma
                } else {
                    State::ArrayAfterComma
                };
                let Some(next) = self.skip_whitespace_and_comments()? else {
                    return Err(self.eof_error());
                };
                if next == close && !self.options.trailing_commas {
                    return Err(if object {
                        self.unexpected_here(codes::EXPECT_KEY, "a key (a string)")
                    } else {
                        self.unexpected_here(codes::UNEXPECTED_TOKEN, "a value")
                    });
                }
                byte = next;
            } else if byte != close {
                let expected = if object { "`,` or `}`" } else { "`,` or `]`" };
                return Err(self.unexpected_here(codes::EXPECT_COMMA, expected));
            }
        }
        if byte == close {
            return Ok(self.set_pending(end, 1, Payload::None));
        }
        if object {
            self.lex_key(byte)
        } else {
            self.lex_nested_value(byte)
        }
    }

    /// After `,` in an object (`object`) or an array, at `byte`: the next key or item, or
    /// the end when trailing commas are allowed.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_after_comma(&mut self, byte: u8, object: bool) -> Result<Entry> {
        let (close, end) = closing(object);
        if byte == close && self.options.trailing_commas {
            return Ok(self.set_pending(end, 1, Payload::None));
        }
        if object {
            self.lex_key(byte)
        } else {
            self.lex_nested_value(byte)
        }
    }

    /// [`Self::advance`] in the other states: the root, and the states met only after an
    /// error (a token after a comma that failed to lex).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn advance_other(&mut self) -> Result<Entry> {
        if self.state == State::Failed {
            return Err(self.failure.error());
        }
        loop {
            if self.state == State::AfterRoot && self.records {
                let (next, line_break) = self.skip_record_separator()?;
                return match next {
                    None => Ok(self.set_pending(Entry::Ended, 0, Payload::None)),
                    Some(_) if !line_break => {
                        Err(self
                            .unexpected_here(codes::TRAILING_TOKEN, "a line break between records"))
                    }
                    Some(byte) => self.lex_root_value(byte),
                };
            }
            let next = self.skip_whitespace()?;
            let Some(byte) = next else {
                return match self.state {
                    State::AfterRoot => Ok(self.set_pending(Entry::Ended, 0, Payload::None)),
                    State::Start if self.options.multiple_values => {
                        Ok(self.set_pending(Entry::Ended, 0, Payload::None))
                    }
                    _ => Err(self.eof_error()),
                };
            };
            match self.state {
                State::AfterRoot => {
                    if self.options.multiple_values {
                        return self.lex_value(byte);
                    }
                    return Err(self.unexpected_here(
                        codes::TRAILING_TOKEN,
                        "the end of the input after the root value",
                    ));
                }
                State::ArrayAfterComma => return self.lex_after_comma(byte, false),
                State::ObjectAfterComma => return self.lex_after_comma(byte, true),
                State::Start if !self.bom_checked => {
                    // A byte order mark may open the input (once, at offset 0).
                    self.bom_checked = true;
                    // Its bytes are asked for only while they match: a first value shorter
                    // than three bytes (`1` and a line feed, then a pause) is read without
                    // waiting for more.
                    if self.input.offset() == 0
                        && self.pos == 0
                        && self.load_matching(0, BYTE_ORDER_MARK)? == BYTE_ORDER_MARK.len()
                    {
                        self.pos = 3;
                        continue;
                    }
                    return self.lex_root_value(byte);
                }
                State::Start => return self.lex_root_value(byte),
                State::ObjectValue => return self.lex_nested_value(byte),
                // Handled by `advance`, or above before the loop (`Failed`).
                State::Failed
                | State::ArrayFirst
                | State::ArrayNext
                | State::ObjectFirst
                | State::ObjectNext
                | State::ObjectColon => return self.advance(),
            }
        }
    }

    #[cold]
    fn eof_error(&self) -> Error {
        let what = match self.state {
            State::Start => "a value, found an empty input",
            State::ArrayFirst | State::ArrayNext => "`]` to close the array",
            State::ObjectFirst | State::ObjectNext | State::ObjectAfterComma => {
                "`}` to close the object"
            }
            State::ObjectColon => "`:` after the key",
            _ => "a value",
        };
        self.error_at(
            codes::UNEXPECTED_EOF,
            format!("unexpected end of input: expected {what}"),
            self.pos,
            self.pos,
        )
    }

    /// Runs `lex`, a rare path of the lexer (long strings, literals and numbers cut by the
    /// end of a window, JSON5 spellings, the root, errors), in a function of its own that
    /// returns a [`Lexed`], so the entry reaches the caller in a register.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn out_of_line(&mut self, lex: impl FnOnce(&mut Self) -> Result<Entry>) -> Result<Entry> {
        self.run_out_of_line(lex)
            .map_err(|Deferred| self.resume_error())
    }

    /// [`Self::out_of_line`]'s call: one function for each `lex`, never inlined.
    #[inline(never)]
    fn run_out_of_line(&mut self, lex: impl FnOnce(&mut Self) -> Result<Entry>) -> Lexed {
        lex(self).map_err(|err| {
            self.deferred = Some(err);
            Deferred
        })
    }

    #[cold]
    fn resume_error(&mut self) -> Error {
        self.deferred
            .take()
            .unwrap_or_else(|| Error::custom("the lexer failed without an error"))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn set_pending(&mut self, entry: Entry, len: usize, payload: Payload) -> Entry {
        debug_assert!(self.pos + len <= self.input.window().len());
        self.next_start = self.pos + len;
        self.pending = Some(Pending {
            entry,
            len,
            payload,
        });
        entry
    }

    /// Where the next token starts, with no token pending (the lexer's position): the end
    /// of the token consumed last, which [`Self::set_pending`] stored.
    ///
    /// It equals `pos` then, but `pos` was advanced by the read that consumed that token
    /// (a load of the token's length and of `pos`, and a store), while this was stored by
    /// the lexer itself. Starting from here, one token's lexing waits on the store of the
    /// last one's, not on the read in between: one store-to-load round trip fewer on the
    /// chain that runs from token to token.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_start(&self) -> usize {
        debug_assert!(self.pending.is_none() && self.next_start == self.pos);
        self.next_start
    }

    /// [`Self::lex_value`] for a root value, which starts an NDJSON record.
    fn lex_root_value(&mut self, byte: u8) -> Result<Entry> {
        let at = self.input.offset() + self.pos;
        self.record_start = at;
        self.record_searched_to = at;
        self.record_line_feed = None;
        self.lex_value(byte)
    }

    /// Lexes a value starting with `byte` at `pos`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_value(&mut self, byte: u8) -> Result<Entry> {
        if self.frames.is_empty() && !self.options.scalar_root && byte != b'{' && byte != b'[' {
            return Err(self.root_value_error(byte));
        }
        self.lex_nested_value(byte)
    }

    /// [`Self::lex_value`] inside an array or object, where any value may stand.
    ///
    /// Strings, numbers and containers are tested one by one, for the same reason as the
    /// states in [`Self::advance`]; the rest is matched out of line.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_nested_value(&mut self, byte: u8) -> Result<Entry> {
        if byte == b'"' {
            return self.lex_quoted(Entry::String);
        }
        if byte.wrapping_sub(b'0') < 10 || byte == b'-' {
            return self.lex_number();
        }
        // `[` is 0x5B and `{` 0x7B: one compare for both.
        if byte | 0x20 == b'{' {
            return self.lex_container(byte);
        }
        // Literals are common in records (flags, absent fields): lexed here too, without
        // the out-of-line call and its jump on the byte.
        if let b't' | b'f' | b'n' = byte {
            return self.lex_literal();
        }
        self.out_of_line(|reader| reader.lex_other_value(byte))
    }

    /// Opens an array or object at `pos` (which holds `byte`, `[` or `{`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_container(&mut self, byte: u8) -> Result<Entry> {
        if self.frames.len() >= self.options.max_depth {
            return Err(self.depth_error());
        }
        let entry = if byte == b'{' {
            Entry::MapRoot
        } else {
            Entry::ArrayRoot
        };
        Ok(self.set_pending(entry, 1, Payload::None))
    }

    #[cold]
    fn depth_error(&self) -> Error {
        self.error_at(
            codes::DEPTH_EXCEEDED,
            format!(
                "nesting deeper than the limit of {}",
                self.options.max_depth
            ),
            self.pos,
            self.pos + 1,
        )
    }

    /// [`Self::lex_nested_value`] for JSON5 spellings and errors (strings, numbers,
    /// containers and literals never come here).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_other_value(&mut self, byte: u8) -> Result<Entry> {
        match byte {
            b'\'' if self.options.single_quotes => {
                self.lex_string_out_of_line(b'\'', Entry::String)
            }
            b'+' | b'.' | b'I' | b'N' if self.options.json5_numbers => self.lex_number(),
            _ => Err(self.unexpected_here(codes::UNEXPECTED_TOKEN, "a value")),
        }
    }

    /// A scalar (or anything else that is not `{` or `[`) at the root without `scalar_root`:
    /// [`SCALAR_ROOT`](codes::SCALAR_ROOT) for whatever can start a scalar under the options
    /// in use (JSON5 strings and numbers included), else
    /// [`UNEXPECTED_TOKEN`](codes::UNEXPECTED_TOKEN).
    #[cold]
    fn root_value_error(&mut self, byte: u8) -> Error {
        let scalar = match byte {
            b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => true,
            b'\'' => self.options.single_quotes,
            b'+' | b'.' | b'I' | b'N' => self.options.json5_numbers,
            _ => false,
        };
        if scalar {
            self.scalar_root_error()
        } else {
            self.unexpected_here(codes::UNEXPECTED_TOKEN, "a value")
        }
    }

    #[cold]
    fn scalar_root_error(&mut self) -> Error {
        let (found, len) = match self.describe_next() {
            Ok(found) => found,
            Err(err) => return err,
        };
        self.error_at(
            codes::SCALAR_ROOT,
            format!("expected an object or array at the root, found {found}"),
            self.pos,
            self.pos + len.max(1),
        )
    }

    /// Lexes a key starting with `byte` at `pos`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_key(&mut self, byte: u8) -> Result<Entry> {
        match byte {
            b'"' => self.lex_quoted(Entry::Name),
            b'\'' if self.options.single_quotes => self.lex_string_out_of_line(b'\'', Entry::Name),
            // The identifier lexer also reports a key that is no identifier either.
            _ if self.options.unquoted_keys => self.out_of_line(Self::lex_identifier),
            _ => Err(self.unexpected_here(codes::EXPECT_KEY, "a key (a string)")),
        }
    }

    /// Lexes `true`, `false` or `null` (and JSON5 words handled by the number lexer).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_literal(&mut self) -> Result<Entry> {
        // The common case: the whole word and the byte after it are in the window.
        let rest = self.rest();
        let word = match rest {
            [b't', b'r', b'u', b'e', ..] => Some((Entry::Bool, Payload::Bool(true), 4)),
            [b'f', b'a', b'l', b's', b'e', ..] => Some((Entry::Bool, Payload::Bool(false), 5)),
            [b'n', b'u', b'l', b'l', ..] => Some((Entry::Null, Payload::None, 4)),
            _ => None,
        };
        if let Some((entry, payload, len)) = word
            && let Some(&next) = rest.get(len)
            && !scan::is_word_byte(next)
        {
            return Ok(self.set_pending(entry, len, payload));
        }
        self.out_of_line(Self::lex_literal_slow)
    }

    /// [`Self::lex_literal`] for words cut by the end of the window, and errors.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_literal_slow(&mut self) -> Result<Entry> {
        let len = self.word_extent(0)?;
        let rest = self.rest();
        let (entry, payload) = match &rest[..len] {
            b"true" => (Entry::Bool, Payload::Bool(true)),
            b"false" => (Entry::Bool, Payload::Bool(false)),
            b"null" => (Entry::Null, Payload::None),
            _ => {
                return Err(self.unexpected_here(codes::UNEXPECTED_TOKEN, "a value"));
            }
        };
        Ok(self.set_pending(entry, len, payload))
    }

    /// Length of the run of word bytes at `pos + from`, loading more input as needed.
    fn word_extent(&mut self, from: usize) -> Result<usize> {
        let mut at = from;
        loop {
            let rest = self.rest();
            while at < rest.len() && scan::is_word_byte(rest[at]) {
                at += 1;
            }
            if at < rest.len() || !self.ensure(at, 1)? {
                return Ok(at);
            }
        }
    }

    /// Lexes a JSON5 identifier key: an ECMAScript 5.1 `IdentifierName` (see
    /// [`scan::is_identifier_char`]), whose characters may also be written as `\uXXXX`
    /// escapes. A key without escapes is borrowed from the input; one with escapes is decoded
    /// into the scratch buffer. Reached only with `unquoted_keys` on, for a key that is not
    /// quoted; a key that does not start with an identifier character is
    /// [`EXPECT_KEY`](codes::EXPECT_KEY) at that character.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_identifier(&mut self) -> Result<Entry> {
        if let Some(len) = scan::ascii_identifier_len(self.rest()) {
            let payload = Payload::Borrowed {
                quoted: false,
                proven: true,
            };
            return Ok(self.set_pending(Entry::Name, len, payload));
        }
        let mut at = 0;
        let mut escaped = false;
        loop {
            if !self.ensure(at, 1)? {
                break;
            }
            let byte = self.rest()[at];
            if byte == b'\\' {
                if !escaped {
                    escaped = true;
                    self.scratch.clear();
                    // Whole characters, each checked below (so UTF-8).
                    let prefix = &self.input.window()[self.pos..self.pos + at];
                    self.scratch.push_str(&String::from_utf8_lossy(prefix));
                }
                at = self.lex_identifier_escape(at)?;
                continue;
            }
            let (c, len) = if byte < 0x80 {
                (char::from(byte), 1)
            } else {
                let len = utf8_char_len(byte);
                self.ensure(at, len)?;
                let rest = self.rest();
                let end = (at + len).min(rest.len());
                match std::str::from_utf8(&rest[at..end]) {
                    Ok(text) => match text.chars().next() {
                        Some(c) => (c, len),
                        None => break,
                    },
                    // Not UTF-8 (a Latin-1 `é`, say): said as such, where a key ending
                    // there would point at the byte as an unexpected token.
                    Err(err) => {
                        return Err(self.utf8_error(self.pos + at, end - at, &err, "a key"));
                    }
                }
            };
            if !scan::is_identifier_char(c, at == 0) {
                break;
            }
            if escaped {
                self.scratch.push(c);
            }
            at += len;
        }
        if at == 0 {
            return Err(
                self.unexpected_here(codes::EXPECT_KEY, "a key (a string or an identifier)")
            );
        }
        let payload = if escaped {
            Payload::Scratch
        } else {
            Payload::Borrowed {
                quoted: false,
                proven: false,
            }
        };
        Ok(self.set_pending(Entry::Name, at, payload))
    }

    /// Decodes the escape at `pos + at` (a backslash) in an identifier key into the scratch
    /// buffer and returns the offset after it. Only `\uXXXX` escapes (a surrogate pair for a
    /// character beyond the BMP) are allowed there, and only for a character the identifier
    /// may hold at that place: anything else is [`INVALID_ESCAPE`](codes::INVALID_ESCAPE)
    /// over the escape (or [`LONE_SURROGATE`](codes::LONE_SURROGATE), as in strings). The
    /// input ending inside the escape is [`UNEXPECTED_EOF`](codes::UNEXPECTED_EOF) over the
    /// key so far: a key cut by the end, where a string would be never closed.
    #[cold]
    #[inline(never)]
    fn lex_identifier_escape(&mut self, at: usize) -> Result<usize> {
        // Only the escape's own bytes (and the first that does not fit it), as in a string:
        // a key is read without waiting for bytes a stream that pauses after it never sends.
        self.ensure(at, 2)?;
        match self.rest().get(at + 1).copied() {
            Some(b'u') => {
                self.load_unicode_escape(at)?;
                if self.identifier_escape_cut_by_end(at) {
                    return Err(self.identifier_cut_by_end());
                }
            }
            None => return Err(self.identifier_cut_by_end()),
            Some(_) => {
                self.load_char(at + 1)?;
                return Err(self.invalid_escape(at));
            }
        }
        let before = self.scratch.len();
        let next = self.lex_unicode_escape(at)?;
        let first = at == 0;
        let allowed = self.scratch[before..]
            .chars()
            .next()
            .is_some_and(|c| scan::is_identifier_char(c, first));
        if !allowed {
            self.scratch.truncate(before);
            return Err(self.error_at(
                codes::INVALID_ESCAPE,
                "this escape stands for a character that cannot be part of an identifier here",
                self.pos + at,
                self.pos + next,
            ));
        }
        Ok(next)
    }

    /// Whether the input ends inside the `\u` escape at `at` of an identifier key, or
    /// inside the second half of the surrogate pair it starts, every byte so far being
    /// right: the cases the string lexer finds cut by the end, found before it runs.
    #[cold]
    #[inline(never)]
    fn identifier_escape_cut_by_end(&self, at: usize) -> bool {
        let tail = &self.rest()[at..];
        let cut_in = |template: &[u8]| {
            tail.len() < template.len()
                && tail.iter().zip(template).all(|(&byte, &expected)| {
                    if expected == b'h' {
                        byte.is_ascii_hexdigit()
                    } else {
                        byte == expected
                    }
                })
        };
        let high = tail
            .get(2..)
            .and_then(hex4)
            .is_some_and(|unit| (0xD800..=0xDBFF).contains(&unit));
        cut_in(b"\\uhhhh") || (high && cut_in(b"\\uhhhh\\uhhhh"))
    }

    /// The input ends inside an escape of the identifier key at `pos`.
    #[cold]
    #[inline(never)]
    fn identifier_cut_by_end(&self) -> Error {
        self.error_at(
            codes::UNEXPECTED_EOF,
            "unexpected end of input inside an escape of a key",
            self.pos,
            self.pos + self.rest().len(),
        )
    }

    /// Lexes a number at `pos` (JSON grammar, or JSON5 when enabled).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_number(&mut self) -> Result<Entry> {
        // The common shapes, with their scanner inlined so its result stays in registers;
        // long digit runs, numbers at the end of the window and errors out of line. JSON5's
        // grammar takes JSON's numbers as they are, with the same extent (both end a number
        // at the first byte that cannot continue a word) and the same hint, so JSON5 numbers
        // of JSON syntax take this path too, with their value read on the way; the JSON5
        // spellings (`0x1F`, `+1`, `.5`, `5.`, `Infinity`) are left to the scan of their own.
        if let Some(NumberScan::Valid { len, hint, value }) = scan::scan_short_number(self.rest()) {
            return Ok(self.set_pending(Entry::Number(hint), len, number_payload(value)));
        }
        if self.options.json5_numbers {
            return self.out_of_line(Self::lex_json5_number);
        }
        self.out_of_line(Self::lex_number_slow)
    }

    /// [`Self::lex_number`] for numbers cut by the end of the window, and errors.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_number_slow(&mut self) -> Result<Entry> {
        loop {
            let rest = self.rest();
            match scan::scan_number(rest, false) {
                NumberScan::Valid { len, hint, value } => {
                    return Ok(self.set_pending(Entry::Number(hint), len, number_payload(value)));
                }
                NumberScan::Invalid { len } => return Err(self.invalid_number(len)),
                NumberScan::NeedMore => {
                    // The scan starts over on more input. Scanned again after every read, a
                    // long number arriving in small reads would cost time quadratic in its
                    // length; so the new bytes are only checked for one that cannot continue
                    // a number (a word byte: digits, sign, point, letters) until such a byte
                    // or the end comes, and then the number is scanned once more. Each read
                    // still waits for one byte at most: a stream that pauses after a record
                    // must not block the reader.
                    let mut have = rest.len();
                    let mut more = true;
                    while more {
                        more = self.ensure(have, 1)?;
                        let rest = self.rest();
                        if rest[have..].iter().any(|&byte| !scan::is_word_byte(byte)) {
                            break;
                        }
                        have = rest.len();
                    }
                    if !more {
                        match scan::scan_number(self.rest(), true) {
                            NumberScan::Valid { len, hint, value } => {
                                return Ok(self.set_pending(
                                    Entry::Number(hint),
                                    len,
                                    number_payload(value),
                                ));
                            }
                            NumberScan::Invalid { len } => {
                                return Err(self.invalid_number(len));
                            }
                            NumberScan::NeedMore => return Err(self.invalid_number(have)),
                        }
                    }
                }
            }
        }
    }

    #[cold]
    fn invalid_number(&self, len: usize) -> Error {
        let text = String::from_utf8_lossy(&self.rest()[..len.min(self.rest().len())]).into_owned();
        let error = self.error_at(
            codes::INVALID_NUMBER,
            format!("invalid number `{}`", excerpt(&text)),
            self.pos,
            self.pos + len.max(1),
        );
        let token = &self.rest()[..len.min(self.rest().len())];
        // A number's token never starts with `/`.
        hint::noted(
            error,
            hint::for_token(&self.options, hint::Place::Value, token, None),
        )
    }

    /// JSON5 numbers: converted to typed numbers or normalized JSON text.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_json5_number(&mut self) -> Result<Entry> {
        let len = self.word_extent(0)?;
        let text = &self.rest()[..len];
        let (negative, body) = match text.first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let sign_len = text.len() - body.len();
        // An unsigned word that starts like neither `Infinity` nor `NaN` (`None`, `NULL`,
        // `INFINITY`) is a word out of place, not a number misspelt: refused as strict JSON
        // and the other words (`True`, `nul`) are.
        let like = |literal: &[u8]| body.starts_with(literal) || literal.starts_with(body);
        if sign_len == 0 && matches!(body, [b'I' | b'N', ..]) && !like(b"Infinity") && !like(b"NaN")
        {
            return Err(self.unexpected_here(codes::UNEXPECTED_TOKEN, "a value"));
        }
        let signed = |v: f64| if negative { -v } else { v };
        match body {
            b"Infinity" => {
                let value = signed(f64::INFINITY);
                return Ok(self.set_pending(Entry::F64, len, Payload::F64(value)));
            }
            // `-NaN` keeps its sign as the sign bit, as `-0x0` keeps it: arithmetic ignores
            // it, but a MessagePack `f64` or a native value written from the token keeps it.
            b"NaN" => {
                let value = signed(f64::NAN);
                return Ok(self.set_pending(Entry::F64, len, Payload::F64(value)));
            }
            _ => {}
        }
        if let [b'0', b'x' | b'X', digits @ ..] = body {
            if digits.is_empty() || !digits.iter().all(u8::is_ascii_hexdigit) {
                return Err(self.invalid_number(len));
            }
            // Up to 128 bits, the widest integers of the token vocabulary; JSON5 sets no
            // limit, and a parser may (JSON5 §10), with an error that says so.
            let Some(value) = digits.iter().try_fold(0u128, |acc, &b| {
                acc.checked_mul(16)?.checked_add(u128::from(hex_digit(b)?))
            }) else {
                return Err(self.error_at(
                    sluice_core::codes::NUMBER_OUT_OF_RANGE,
                    "hexadecimal integer wider than 128 bits",
                    self.pos,
                    self.pos + len,
                ));
            };
            if negative && value == 0 {
                // `-0x0` is negative zero, as `-0` is: only a float keeps the sign.
                return Ok(self.set_pending(Entry::F64, len, Payload::F64(-0.0)));
            }
            if let Ok(value) = u64::try_from(value) {
                if !negative {
                    return Ok(self.set_pending(Entry::U64, len, Payload::U64(value)));
                }
                if let Some(value) = 0i64.checked_sub_unsigned(value) {
                    return Ok(self.set_pending(Entry::I64, len, Payload::I64(value)));
                }
            }
            // Beyond 64 bits: the value as JSON number text, read at the call site as any
            // other (`read_u128`, `read_f64`, or the text, which writes every digit).
            let (sign, hint) = if negative {
                ("-", NumberHint::NegInteger)
            } else {
                ("", NumberHint::Integer)
            };
            self.scratch = format!("{sign}{value}");
            return Ok(self.set_pending(Entry::Number(hint), len, Payload::ScratchText(hint)));
        }
        // Decimal: split into integer digits, fraction digits and exponent.
        let int_len = body.iter().take_while(|b| b.is_ascii_digit()).count();
        let mut at = int_len;
        let mut frac_len = None;
        if body.get(at) == Some(&b'.') {
            at += 1;
            let digits = body[at..].iter().take_while(|b| b.is_ascii_digit()).count();
            frac_len = Some(digits);
            at += digits;
        }
        let exp_start = at;
        if let Some(b'e' | b'E') = body.get(at) {
            at += 1;
            if let Some(b'+' | b'-') = body.get(at) {
                at += 1;
            }
            let digits = body[at..].iter().take_while(|b| b.is_ascii_digit()).count();
            if digits == 0 {
                return Err(self.invalid_number(len));
            }
            at += digits;
        }
        let leading_zero = int_len > 1 && body[0] == b'0';
        if at != body.len() || (int_len == 0 && frac_len.unwrap_or(0) == 0) || leading_zero {
            return Err(self.invalid_number(len));
        }
        let hint = if frac_len.is_some() || exp_start != body.len() {
            NumberHint::Float
        } else if negative {
            NumberHint::NegInteger
        } else {
            NumberHint::Integer
        };
        let plain = int_len > 0 && frac_len != Some(0);
        if plain && text[0] != b'+' {
            return Ok(self.set_pending(Entry::Number(hint), len, Payload::Text(0, len, hint)));
        }
        if plain {
            return Ok(self.set_pending(
                Entry::Number(hint),
                len,
                Payload::Text(sign_len, len, hint),
            ));
        }
        // `.5`, `5.`, `+.5e3`: write the JSON spelling into the scratch buffer.
        let mut normal = String::with_capacity(len + 2);
        if negative {
            normal.push('-');
        }
        let ascii = |bytes: &[u8]| bytes.iter().map(|&b| b as char).collect::<String>();
        if int_len == 0 {
            normal.push('0');
        } else {
            normal.push_str(&ascii(&body[..int_len]));
        }
        normal.push('.');
        match frac_len {
            Some(n) if n > 0 => normal.push_str(&ascii(&body[int_len + 1..int_len + 1 + n])),
            _ => normal.push('0'),
        }
        normal.push_str(&ascii(&body[exp_start..]));
        self.scratch = normal;
        Ok(self.set_pending(Entry::Number(hint), len, Payload::ScratchText(hint)))
    }

    /// Lexes a `"`-quoted string at `pos`: a short one (closed within the 32 bytes after
    /// the quote, without escapes) right here, any other by [`Self::lex_string`].
    ///
    /// Both paths store the token as pending themselves (`entry` is [`Entry::String`] or
    /// [`Entry::Name`]) rather than returning its payload to the caller: a payload returned
    /// from two paths is copied through the stack at the point where they meet, byte range by
    /// byte range, and reading back a range that was stored in smaller pieces stalls the
    /// processor (on twitter.json those copies took about a third of the read's time).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_quoted(&mut self, entry: Entry) -> Result<Entry> {
        if let Some(chunk) = self.rest().get(1..).and_then(<[u8]>::first_chunk::<32>)
            && let Some((at, non_ascii)) = scan::short_string_end(chunk)
        {
            let proven = !non_ascii || self.input.known_utf8();
            return Ok(self.set_pending(
                entry,
                at + 2,
                Payload::Borrowed {
                    quoted: true,
                    proven,
                },
            ));
        }
        self.lex_string_out_of_line(b'"', entry)
    }

    /// Lexes a string whose opening `quote` is at `pos` and stores it as the pending
    /// `entry` (see [`Self::lex_quoted`] for why it does not return the payload), out of
    /// line: in line it would weigh on the registers of every token. One closure for every
    /// caller, so the string lexer is compiled once.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_string_out_of_line(&mut self, quote: u8, entry: Entry) -> Result<Entry> {
        self.out_of_line(move |reader| {
            let (payload, len) = reader.lex_string(quote)?;
            Ok(reader.set_pending(entry, len, payload))
        })
    }

    /// Lexes a string whose opening `quote` is at `pos`. Returns where its content is and
    /// the token length.
    ///
    /// A string with escapes is decoded into the scratch buffer, its raw runs copied
    /// unchecked and its UTF-8 checked once when it closes (see [`Self::push_raw`]). If it
    /// fails, the buffer is emptied here, so it never holds invalid UTF-8 after an error.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_string(&mut self, quote: u8) -> Result<(Payload, usize)> {
        match self.lex_string_body(quote) {
            Ok(lexed) => Ok(lexed),
            Err(err) => {
                self.scratch.clear();
                Err(err)
            }
        }
    }

    /// [`Self::lex_string`] without the clean-up after an error.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lex_string_body(&mut self, quote: u8) -> Result<(Payload, usize)> {
        let mut at = 1;
        // Start of the raw run not yet copied to the scratch buffer, once escapes appear.
        let mut run = 1;
        let mut escaped = false;
        let mut non_ascii = false;
        loop {
            let window = self.input.window();
            let rest = &window[self.pos..];
            at = scan::find_string_special(rest, at, quote, &mut non_ascii);
            let Some(&byte) = rest.get(at) else {
                if !self.ensure(at, 1)? {
                    let end = self.input.window().len();
                    return Err(self.error_at(
                        codes::UNCLOSED_STRING,
                        "string is never closed",
                        self.pos,
                        end,
                    ));
                }
                continue;
            };
            if byte == quote {
                if !escaped {
                    let proven = !non_ascii || self.input.known_utf8();
                    return Ok((
                        Payload::Borrowed {
                            quoted: true,
                            proven,
                        },
                        at + 1,
                    ));
                }
                self.push_raw(run, at);
                if non_ascii && !self.input.known_utf8() {
                    self.check_decoded_utf8(at)?;
                }
                return Ok((Payload::Scratch, at + 1));
            }
            if byte == b'\\' {
                if !escaped {
                    escaped = true;
                    self.scratch.clear();
                }
                self.push_raw(run, at);
                at = self.lex_escape(at)?;
                run = at;
                continue;
            }
            // JSON5 lets a string hold any control character raw but its line breaks.
            if self.options.json5_control_characters && byte != b'\n' && byte != b'\r' {
                at += 1;
                continue;
            }
            return Err(self.control_character(at, byte));
        }
    }

    /// The raw control character `byte` at `pos + at` in a string.
    #[cold]
    fn control_character(&self, at: usize, byte: u8) -> Error {
        let error = self.error_at(
            codes::CONTROL_CHARACTER,
            format!("raw control character U+{byte:04X} in a string (write it escaped)"),
            self.pos + at,
            self.pos + at + 1,
        );
        hint::noted(error, hint::for_control_character(&self.options, byte))
    }

    /// Copies raw string bytes `pos+from..pos+to` to the scratch buffer, unchecked.
    ///
    /// Checking each raw run between escapes on its own meant one UTF-8 check per run: text
    /// with a line break every few words (`\n` escapes between short runs of Japanese, as in
    /// twitter.json) spent most of its checks on runs a few bytes long. Escapes are ASCII and
    /// end after a whole character, so the runs are all UTF-8 exactly when the string's
    /// source text is, and [`Self::check_decoded_utf8`] checks that once.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn push_raw(&mut self, from: usize, to: usize) {
        let raw = &self.input.window()[self.pos + from..self.pos + to];
        // SAFETY: `as_mut_vec` lets the buffer hold bytes that are not UTF-8 for a while;
        // nothing reads it as text before the string has closed. Raw runs of non-ASCII
        // bytes from an input not known to be UTF-8 are checked by `check_decoded_utf8`
        // before `lex_string` hands out `Payload::Scratch` (the only way the buffer is read
        // as a string's text); `lex_string` empties the buffer when that check, or anything
        // else in the string, fails. Other runs are ASCII (`find_string_special` never
        // misses a byte of 0x80 or more), or come from a `&str` between a quote or a whole
        // escape and a quote or a backslash, so they are whole characters. Tested by
        // `raw_runs_between_escapes_are_checked_for_utf8` and
        // `escaped_strings_read_the_same_from_text_and_bytes`.
        unsafe { self.scratch.as_mut_vec() }.extend_from_slice(raw);
    }

    /// Checks that the source text of the escaped string at `pos`, from its opening quote
    /// to its closing one at `pos + end`, is UTF-8: one check for all the raw runs copied
    /// by [`Self::push_raw`]. The window still holds the whole string, because a refill
    /// keeps everything from `pos`. Errors point at the offending bytes in the source.
    #[inline(never)]
    fn check_decoded_utf8(&self, end: usize) -> Result<()> {
        let source = &self.rest()[1..end];
        match scan::utf8(source) {
            Ok(_) => Ok(()),
            Err(err) => Err(self.utf8_error(self.pos + 1, end - 1, &err, "a string")),
        }
    }

    #[cold]
    fn utf8_error(
        &self,
        run_start: usize,
        run_len: usize,
        err: &std::str::Utf8Error,
        place: &str,
    ) -> Error {
        let start = run_start + err.valid_up_to();
        // A sequence cut short by the end of the run covers the rest of the run.
        let len = err.error_len().unwrap_or(run_len - err.valid_up_to());
        self.error_at(
            codes::INVALID_UTF8,
            format!("invalid UTF-8 in {place}"),
            start,
            start + len,
        )
    }

    /// Decodes the escape at `pos + at` (a backslash) into the scratch buffer; returns the
    /// offset after it.
    fn lex_escape(&mut self, at: usize) -> Result<usize> {
        // The backslash and the byte after it, all that a short escape needs (`\u` loads
        // its digits itself): a record whose last string ends in one is handed out
        // without waiting for bytes a stream that pauses after it never sends.
        self.ensure(at, 2)?;
        let rest = self.rest();
        let Some(&kind) = rest.get(at + 1) else {
            return Err(self.error_at(
                codes::UNCLOSED_STRING,
                "string is never closed",
                self.pos,
                self.pos + rest.len(),
            ));
        };
        let simple = match kind {
            b'"' => Some('"'),
            b'\\' => Some('\\'),
            b'/' => Some('/'),
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'n' => Some('\n'),
            b'r' => Some('\r'),
            b't' => Some('\t'),
            _ => None,
        };
        if let Some(c) = simple {
            self.scratch.push(c);
            return Ok(at + 2);
        }
        if kind == b'u' {
            return self.lex_unicode_escape(at);
        }
        if self.options.json5_escapes {
            self.load_json5_escape(at, kind)?;
            return self.lex_json5_escape(at, kind);
        }
        // Whether JSON5 takes `\0` and `\x` depends on the bytes after them, which the
        // error's note looks at: loaded as JSON5 loads them, so both input paths agree.
        if matches!(kind, b'0' | b'x') {
            self.load_json5_escape(at, kind)?;
        }
        self.load_char(at + 1)?;
        Err(self.invalid_escape(at))
    }

    #[cold]
    fn invalid_escape(&self, at: usize) -> Error {
        let rest = self.rest();
        // The backslash and the character after it, or the one byte after it that starts
        // no character (never the bytes that follow it, such as a line feed).
        let tail = &rest[at + 1..];
        let declared = tail
            .first()
            .map_or(0, |&b| utf8_char_len(b))
            .min(tail.len());
        let len = if std::str::from_utf8(&tail[..declared]).is_ok() {
            1 + declared
        } else {
            2
        };
        let text = String::from_utf8_lossy(&rest[at..at + len]).into_owned();
        let error = self.error_at(
            codes::INVALID_ESCAPE,
            format!("invalid escape `{text}`"),
            self.pos + at,
            self.pos + at + len,
        );
        // In a string only: a JSON5 identifier key takes no escape but `\u`.
        let in_string = matches!(rest.first(), Some(b'"' | b'\''));
        let after = &rest[at + len..(at + len + 2).min(rest.len())];
        let relaxation = hint::for_escape(&self.options, &rest[at..at + len], after);
        hint::noted(error, relaxation.filter(|_| in_string))
    }

    /// The string at `pos` runs into the end of the input inside the escape at `at`, whose
    /// bytes after `skip` are `tail`, when `tail` is shorter than `template` and matches it
    /// so far (`h` standing for a hexadecimal digit): the string is never closed. Only for
    /// an escape whose bytes were made available as far as they match `template` and the
    /// input has them ([`Self::load_escape`], or 12 bytes, the longest escape, for JSON5's).
    #[cold]
    fn escape_cut_by_end(&self, at: usize, skip: usize, template: &[u8]) -> Option<Error> {
        let rest = self.rest();
        let tail = &rest[(at + skip).min(rest.len())..];
        let matches = tail.iter().zip(template).all(|(&byte, &expected)| {
            if expected == b'h' {
                byte.is_ascii_hexdigit()
            } else {
                byte == expected
            }
        });
        (tail.len() < template.len() && matches).then(|| self.unclosed_string())
    }

    /// Makes the bytes of the escape at `at` after its first `skip` available as far as
    /// they match `template` (`h` standing for a hexadecimal digit), and the first byte that
    /// does not: all that the escape's checks and errors look at, and no byte after it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_escape(&mut self, at: usize, skip: usize, template: &[u8]) -> Result<()> {
        if self.pos + at + skip + template.len() <= self.input.window().len() {
            return Ok(());
        }
        self.load_matching(at + skip, template).map(drop)
    }

    /// Asks the stream for the bytes at `pos + from` one at a time while they match
    /// `template` (`h` standing for a hexadecimal digit), and for the first that does not;
    /// returns how many match. No byte past the first mismatch is asked for: over a stream
    /// that pauses there, nothing waits for it.
    #[cold]
    #[inline(never)]
    fn load_matching(&mut self, from: usize, template: &[u8]) -> Result<usize> {
        for (i, &expected) in template.iter().enumerate() {
            if !self.ensure(from + i, 1)? {
                return Ok(i);
            }
            let byte = self.rest()[from + i];
            let fits = if expected == b'h' {
                byte.is_ascii_hexdigit()
            } else {
                byte == expected
            };
            if !fits {
                return Ok(i);
            }
        }
        Ok(template.len())
    }

    /// The error of a `\u` or `\x` escape at `at` without its `digits` hexadecimal digits
    /// (the input goes on past them: see [`Self::escape_cut_by_end`]). The span runs from
    /// the backslash to the first byte that is no such digit, included, as far as the
    /// window holds, so both escapes point at what is wrong the same way.
    #[cold]
    fn bad_hex_escape(&self, at: usize, digits: usize, message: &str) -> Error {
        let rest = self.rest();
        let hex = rest[(at + 2).min(rest.len())..]
            .iter()
            .take(digits)
            .take_while(|b| b.is_ascii_hexdigit())
            .count();
        let end = (at + 2 + hex + 1).min(rest.len());
        self.error_at(
            codes::INVALID_ESCAPE,
            message,
            self.pos + at,
            self.pos + end,
        )
    }

    /// Makes the bytes of the `\\u` escape at `at` available, as far as they fit it, and its
    /// low half's after a high surrogate, and returns its code unit when its four digits are
    /// there.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_unicode_escape(&mut self, at: usize) -> Result<Option<u32>> {
        self.load_escape(at, 2, b"hhhh")?;
        let rest = self.rest();
        let unit = hex4(&rest[(at + 2).min(rest.len())..]);
        if let Some(0xD800..=0xDBFF) = unit {
            // A high surrogate: its low half follows, or it is alone.
            self.load_escape(at, 6, b"\\uhhhh")?;
        }
        Ok(unit)
    }

    fn lex_unicode_escape(&mut self, at: usize) -> Result<usize> {
        let unit = self.load_unicode_escape(at)?;
        let rest = self.rest();
        let Some(unit) = unit else {
            return Err(self.escape_cut_by_end(at, 2, b"hhhh").unwrap_or_else(|| {
                self.bad_hex_escape(at, 4, "`\\u` must be followed by four hexadecimal digits")
            }));
        };
        let lone = || {
            self.error_at(
                codes::LONE_SURROGATE,
                format!("\\u{unit:04X} is half of a surrogate pair, without its other half"),
                self.pos + at,
                self.pos + at + 6,
            )
        };
        let code = match unit {
            0xD800..=0xDBFF => {
                let low = match rest.get(at + 6..at + 8) {
                    Some(b"\\u") => hex4(&rest[at + 8..]),
                    _ => None,
                };
                match low {
                    Some(low @ 0xDC00..=0xDFFF) => {
                        let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                        let c = char::from_u32(code).ok_or_else(lone)?;
                        self.scratch.push(c);
                        return Ok(at + 12);
                    }
                    _ => {
                        return Err(self.escape_cut_by_end(at, 6, b"\\uhhhh").unwrap_or_else(
                            || {
                                // `\uD800\uZZ..`: the second escape is what is wrong, as
                                // in any other place; the first half is not alone by choice.
                                if low.is_none() && rest.get(at + 6..at + 8) == Some(b"\\u") {
                                    self.bad_hex_escape(
                                        at + 6,
                                        4,
                                        "`\\u` must be followed by four hexadecimal digits",
                                    )
                                } else {
                                    lone()
                                }
                            },
                        ));
                    }
                }
            }
            0xDC00..=0xDFFF => return Err(lone()),
            code => code,
        };
        let c = char::from_u32(code).ok_or_else(lone)?;
        self.scratch.push(c);
        Ok(at + 6)
    }

    /// Makes the bytes of the JSON5 escape at `at` available, and no byte after them but the
    /// one after `\0` or `\r` (it tells `\0` from `\01` and `\r` from `\r\n`; a string
    /// still open has it anyway): a record whose last string ends in such an escape is
    /// handed out without waiting for bytes a stream that pauses after it never sends.
    #[cold]
    #[inline(never)]
    fn load_json5_escape(&mut self, at: usize, kind: u8) -> Result<()> {
        match kind {
            b'0' | b'\r' => self.ensure(at, 3).map(drop),
            b'x' => self.load_escape(at, 2, b"hh"),
            // Any other escape is the backslash and one character (a line separator too).
            _ => self.load_char(at + 1).map(drop),
        }
    }

    fn lex_json5_escape(&mut self, at: usize, kind: u8) -> Result<usize> {
        let rest = self.rest();
        let (c, next) = match kind {
            b'\'' => (Some('\''), at + 2),
            b'v' => (Some('\u{b}'), at + 2),
            b'0' if !rest.get(at + 2).is_some_and(u8::is_ascii_digit) => (Some('\0'), at + 2),
            b'x' => {
                let value = rest
                    .get(at + 2..at + 4)
                    .and_then(|h| Some(hex_digit(h[0])? * 16 + hex_digit(h[1])?));
                match value.and_then(char::from_u32) {
                    Some(c) => (Some(c), at + 4),
                    None => {
                        return Err(self.escape_cut_by_end(at, 2, b"hh").unwrap_or_else(|| {
                            self.bad_hex_escape(
                                at,
                                2,
                                "`\\x` must be followed by two hexadecimal digits",
                            )
                        }));
                    }
                }
            }
            // In NDJSON a record is one line: a line feed ends it, escaped or not.
            b'\n' | b'\r' if self.records => {
                let line_feed = at + 1 + usize::from(kind == b'\r');
                if kind == b'\n' || rest.get(line_feed) == Some(&b'\n') {
                    return Err(record_line_end_error(
                        self.input.offset() + self.pos + line_feed,
                    ));
                }
                (None, line_feed)
            }
            // Line continuations: the escaped line break is dropped.
            b'\n' => (None, at + 2),
            b'\r' => (
                None,
                if rest.get(at + 2) == Some(&b'\n') {
                    at + 3
                } else {
                    at + 2
                },
            ),
            // `\0` followed by a digit would be an octal escape, which JSON5 excludes.
            b'0'..=b'9' => return Err(self.invalid_escape(at)),
            0xE2 if scan::is_line_separator(&rest[at + 1..]) => (None, at + 4),
            _ => {
                // Any other character escapes to itself, a control character too (JSON5
                // §5.1: only the digits 1 to 9 and the line terminators are excluded).
                let len = utf8_char_len(kind);
                let end = (at + 1 + len).min(rest.len());
                match std::str::from_utf8(&rest[at + 1..end])
                    .ok()
                    .and_then(|s| s.chars().next())
                {
                    Some(c) => (Some(c), at + 1 + len),
                    None => return Err(self.escaped_character_not_utf8(at)),
                }
            }
        };
        if let Some(c) = c {
            self.scratch.push(c);
        }
        Ok(next)
    }

    /// The error of a JSON5 escape at `at` whose character is not UTF-8 (any character may
    /// be escaped there, so the escape itself is not what is wrong): the string is never
    /// closed when the input ends inside a character that was whole so far, as it is
    /// without the backslash; otherwise the first bytes of the string that are not UTF-8,
    /// which may be before the escape (raw text is checked only once the string closes).
    #[cold]
    #[inline(never)]
    fn escaped_character_not_utf8(&self, at: usize) -> Error {
        let rest = self.rest();
        // `load_json5_escape` made the escaped character's bytes available as far as they
        // form one and the input has them.
        let len = rest.get(at + 1).map_or(1, |&lead| utf8_char_len(lead));
        let end = (at + 1 + len).min(rest.len());
        let character = std::str::from_utf8(&rest[(at + 1).min(end)..end]);
        if end == rest.len()
            && character
                .as_ref()
                .is_err_and(|err| err.error_len().is_none())
        {
            return self.unclosed_string();
        }
        if let Err(err) = std::str::from_utf8(&rest[1..at]) {
            return self.utf8_error(self.pos + 1, at - 1, &err, "a string");
        }
        match character {
            Err(err) => self.utf8_error(self.pos + at + 1, end - at - 1, &err, "a string"),
            Ok(_) => self.invalid_escape(at),
        }
    }

    /// The string at `pos` runs into the end of the input: it is never closed.
    #[cold]
    fn unclosed_string(&self) -> Error {
        self.error_at(
            codes::UNCLOSED_STRING,
            "string is never closed",
            self.pos,
            self.pos + self.rest().len(),
        )
    }

    // ----- consuming tokens -----------------------------------------------------------------

    /// Peeks, checks that the pending token is accepted by `accept`, and consumes it.
    /// A read that was not preceded by a peek calls `peek` itself, so that a consumer that
    /// does not inline `peek` has one copy of the lexer, not one per read method.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn take(&mut self, expected: &str, accept: impl Fn(Entry) -> bool) -> Result<Pending> {
        let pending = match self.pending {
            Some(pending) => pending,
            None => {
                self.peek()?;
                match self.pending {
                    Some(pending) => pending,
                    None => return Err(Error::custom("reader lost its pending token")),
                }
            }
        };
        if !accept(pending.entry) {
            return Err(self.mismatch(expected, pending));
        }
        Ok(pending)
    }

    /// A read of the wrong kind: [`Self::refused`]'s work, written out here because a call
    /// to it from this one changed how the compiler lays out the token loop that inlines
    /// the reads (canada.json's read: 3.7% more instructions, twitter.json's 5.8%).
    #[cold]
    fn mismatch(&mut self, expected: &str, pending: Pending) -> Error {
        let offset = self.input.offset();
        self.span_start = offset + self.pos;
        self.span_len = pending.len;
        let err = Error::unexpected(expected, pending.entry).with_span(self.span());
        self.stop_at_record_cut(&err)
            .unwrap_or_else(|| self.decorate(err))
    }

    /// [`Self::mismatch`] for the token a successful `peek` left pending: the caller's
    /// request does not fit it (`skip` at a container's end), so it stays unread.
    #[cold]
    #[inline(never)]
    fn refuse_pending(&mut self, expected: &str) -> Error {
        match self.pending {
            Some(pending) => self.mismatch(expected, pending),
            None => Error::custom("reader lost its pending token"),
        }
    }

    /// The error of a read of a kind JSON never produces (blobs, sets, structs ...): the
    /// input's own error when the reader has failed or the next token does not lex, as for
    /// any read; else [`UNSUPPORTED`](sluice_core::codes::UNSUPPORTED) over the next token,
    /// which stays unread, with its data path, and [`Reader::span`] gives its span, as after
    /// a read of the wrong kind.
    #[cold]
    #[inline(never)]
    fn unsupported(&mut self, what: &str) -> Error {
        let pending = match self.peek() {
            Ok(_) => self.pending,
            Err(err) => return err,
        };
        let Some(pending) = pending else {
            return Error::custom("reader lost its pending token");
        };
        self.refused(Error::unsupported(what, "a JSON reader"), pending)
    }

    /// `err` for the request the pending token refuses (a read of a kind JSON never has, a
    /// number that does not convert: see [`Self::read_number_as`]); the
    /// token stays unread and [`Reader::span`] gives its span. The record's cut-off takes
    /// the error's place when the token lies past it, and stops the reader.
    #[cold]
    #[inline(never)]
    fn refused(&mut self, err: Error, pending: Pending) -> Error {
        let offset = self.input.offset();
        self.span_start = offset + self.pos;
        self.span_len = pending.len;
        let err = err.or_span(self.span());
        self.stop_at_record_cut(&err)
            .unwrap_or_else(|| self.decorate(err))
    }

    /// A read's error that the record's cut-off replaces (see [`Self::record_cut_error`]):
    /// the cut, and the reader fails for good, as when the lexer finds it, so that no later
    /// peek or read hands out the next line's tokens as the record's. `None` when `err`
    /// stands.
    #[cold]
    #[inline(never)]
    fn stop_at_record_cut(&mut self, err: &Error) -> Option<Error> {
        if self.state == State::Failed {
            return None;
        }
        let cut = self.record_cut_error(err)?;
        self.fail_dropping_pending(Failure::RecordCutOff(cut.clone()));
        Some(cut)
    }

    /// Moves past the pending token and updates the state for it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn commit(&mut self, pending: Pending) {
        let offset = self.input.offset();
        self.span_start = offset + self.pos;
        self.span_len = pending.len;
        self.pos += pending.len;
        self.pending = None;
        match pending.entry {
            Entry::MapRoot => {
                self.frames.push(Frame {
                    object: true,
                    items: 0,
                    key_at: 0,
                    key_len: 0,
                });
                if !self.keys_in_frames() {
                    self.keys.open();
                }
                self.state = State::ObjectFirst;
            }
            Entry::ArrayRoot => {
                self.frames.push(Frame {
                    object: false,
                    items: 0,
                    key_at: 0,
                    key_len: 0,
                });
                self.state = State::ArrayFirst;
            }
            Entry::MapEnd => {
                self.frames.pop();
                if !self.keys_in_frames() {
                    self.keys.close();
                }
                self.after_value();
            }
            Entry::ArrayEnd => {
                self.frames.pop();
                self.after_value();
            }
            Entry::Name => self.state = State::ObjectColon,
            _ => self.after_value(),
        }
    }

    /// The record's value went on past the line feed at `at`: the reader fails for good.
    /// Out of line: replacing `failure` drops what it held, and that drop inside the
    /// always-inlined `after_value` cost canada.json 1.4% more instructions (38.01M against
    /// 37.49M a read).
    #[cold]
    #[inline(never)]
    fn fail_record_cut_off(&mut self, at: usize) {
        self.failure = Failure::RecordCutOff(self.record_cut_at(at));
        self.state = State::Failed;
    }

    /// [`Self::commit`] for a pending scalar value (not a key), which the caller knows.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn commit_scalar(&mut self, len: usize) {
        let offset = self.input.offset();
        self.span_start = offset + self.pos;
        self.span_len = len;
        self.pos += len;
        self.pending = None;
        self.after_value();
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn after_value(&mut self) {
        match self.frames.last_mut() {
            None => {
                if self.records
                    && let Some(at) = self.record_broken_over_lines()
                {
                    // The record does not complete: what reads on gets the error.
                    self.fail_record_cut_off(at);
                    return;
                }
                self.state = State::AfterRoot;
                self.values += 1;
            }
            Some(frame) if frame.object => self.state = State::ObjectNext,
            Some(frame) => {
                frame.items += 1;
                self.state = State::ArrayNext;
            }
        }
    }

    /// Checks that a pending string or name token is UTF-8; if not, the reader fails (see
    /// [`Self::string_not_utf8`]).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn check_string(&mut self, pending: Pending) -> Result<()> {
        if let Some((at, bytes, false)) = self.borrowed_text(pending, self.pos)
            && scan::utf8(bytes).is_err()
        {
            let len = bytes.len();
            return Err(self.string_not_utf8(at, len, false));
        }
        Ok(())
    }

    /// The string or key whose content lies at `at` (`len` bytes) in the window is not
    /// UTF-8, found when it is read (`read`: the reader has moved past it) or skipped: the
    /// reader fails for good, as at any other error in the input. The content is checked
    /// again here, so that the reads pass nothing but offsets on their way out.
    #[cold]
    #[inline(never)]
    fn string_not_utf8(&mut self, at: usize, len: usize, read: bool) -> Error {
        let Err(err) = std::str::from_utf8(&self.input.window()[at..at + len]) else {
            return Error::custom("a string failed its UTF-8 check and then passed it");
        };
        let err = self.utf8_error(at, len, &err, "a string");
        let err = if read {
            self.value_error(err)
        } else {
            self.decorate(err)
        };
        // A root string was committed, and counted as a root value read, before its check:
        // it was not read (an NDJSON record so counted would count its bad line twice).
        if read && self.frames.is_empty() && self.state == State::AfterRoot {
            self.values = self.values.saturating_sub(1);
        }
        self.fail_on_read(err)
    }

    /// Reads a string or name (both are accepted by both read methods).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_string_token(&mut self, expected: &str) -> Result<&str> {
        let pending = self.take(expected, |e| matches!(e, Entry::String | Entry::Name))?;
        let start = self.pos;
        if pending.entry == Entry::Name {
            self.track_key(pending)?;
            let offset = self.input.offset();
            self.span_start = offset + start;
            self.span_len = pending.len;
            self.pos += pending.len;
            self.pending = None;
            self.state = State::ObjectColon;
        } else {
            self.commit_scalar(pending.len);
        }
        // The text is taken as a pointer and a length: a reference returned from one arm
        // would keep `self` borrowed in the arm that stops the reader (a limit of the borrow
        // checker). Checking the text first and borrowing it again after gave the consumer's
        // loop another layout, and canada.json 0.3% more instructions.
        let (text, len) = match self.borrowed_text(pending, start) {
            Some((_, bytes, true)) => (bytes.as_ptr(), bytes.len()),
            Some((at, bytes, false)) => match scan::utf8(bytes) {
                Ok(text) => (text.as_ptr(), text.len()),
                Err(_) => {
                    let len = bytes.len();
                    return Err(self.string_not_utf8(at, len, true));
                }
            },
            None => (self.scratch.as_ptr(), self.scratch.len()),
        };
        // SAFETY: the pointer and length are those of bytes in the window or of the scratch
        // buffer, which nothing changes while the returned text borrows `self`. They are
        // UTF-8: the scratch buffer is a `String`, the bytes were checked just above, or
        // (`proven`) the lexer proved them so, seeing no byte of 0x80 or more (ASCII), or the
        // input is a `&str` and the bytes lie between two ASCII quotes (character
        // boundaries). Tested by `strings_and_keys_of_every_length_read_the_same_on_every_path`
        // and `a_string_that_is_not_utf8_stops_the_reader`.
        Ok(unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(text, len)) })
    }

    /// The content of the string or key token `pending`, which starts at `start` in the
    /// window (the reader's position while the token is pending), when it is borrowed from
    /// the input: where the content starts in the window, its bytes, and whether they are
    /// proven UTF-8. `None` for decoded strings and other tokens.
    ///
    /// The bytes are sliced without a bounds check: the lexer found them in the window. The
    /// checked slice cost about ten instructions a string (two compares, the branch to the
    /// panic, the panic path's registers), 3% of the read of twitter.json.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn borrowed_text(&self, pending: Pending, start: usize) -> Option<(usize, &[u8], bool)> {
        let (from, to, proven) = pending.borrowed_content()?;
        let window = self.input.window();
        debug_assert!(start + to <= window.len());
        // SAFETY: `from..to` lies inside the token (`from <= to <= len`, see
        // `Pending::borrowed_content`), and the token's `len` bytes from `start` were in the
        // window when the lexer set it pending (`set_pending` asserts it in debug builds).
        // They still are: the window drops only bytes before the reader's position (a refill
        // keeps everything from `pos` on), and the position stays at the token's start until
        // the token is consumed; both callers take `start` from there. Exercised by every
        // test that reads a string, such as
        // `strings_and_keys_of_every_length_read_the_same_on_every_path`.
        let bytes = unsafe { window.get_unchecked(start + from..start + to) };
        Some((start + from, bytes, proven))
    }

    /// Records the key token `pending` (at `pos`, not yet consumed): in its frame for the
    /// error path (`LastWins` over a stable input), or in the key tracker, which checks
    /// for duplicates.
    ///
    /// With duplicate detection on (the default), a key without escapes goes straight to the
    /// tracker's inlined [`KeyTracker::insert`]; escaped keys and `LastWins` over a moving
    /// input go through [`Self::track_key_slow`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn track_key(&mut self, pending: Pending) -> Result<()> {
        if self.keys_in_frames() {
            let at = self.input.offset() + self.pos;
            if let Some(frame) = self.frames.last_mut() {
                frame.key_at = at;
                frame.key_len = pending.len;
            }
            return Ok(());
        }
        if self.options.duplicate_keys == DuplicateKeys::Error
            && let Some((from, to, _)) = pending.borrowed_content()
            && let Some(text) = self.input.window().get(self.pos + from..self.pos + to)
        {
            // Held by its offset, also in a moving window: `ensure_slow` detaches it before
            // a refill drops its bytes.
            let input = InputBytes::of(&self.input);
            let key = KeyBytes::Input(input.offset + self.pos + from, text);
            if self.keys.insert(key, input) {
                return Ok(());
            }
            let err = self.duplicate_key_error(text, pending.len);
            return Err(self.fail_on_read(err));
        }
        self.track_key_slow()
    }

    /// [`Self::track_key`] for the keys it does not handle in line: decoded keys (escapes),
    /// copied into the tracker, and every key with `LastWins` over a moving input, held by
    /// offset as in `track_key` unless escaped.
    /// It reads the pending token itself rather than taking it as an argument, which would
    /// make every caller copy it to the stack, on the fast path too.
    #[inline(never)]
    fn track_key_slow(&mut self) -> Result<()> {
        let Some(pending) = self.pending else {
            return Ok(());
        };
        let input = InputBytes::of(&self.input);
        let key = match pending.borrowed_content() {
            Some((from, to, _)) => KeyBytes::Input(
                input.offset + self.pos + from,
                &input.bytes[self.pos + from..self.pos + to],
            ),
            None => KeyBytes::Copy(self.scratch.as_bytes()),
        };
        match self.options.duplicate_keys {
            DuplicateKeys::LastWins => {
                self.keys.replace(key);
                Ok(())
            }
            DuplicateKeys::Error => {
                if self.keys.insert(key, input) {
                    return Ok(());
                }
                let name = match key {
                    KeyBytes::Input(_, bytes) | KeyBytes::Copy(bytes) => bytes,
                };
                let err = self.duplicate_key_error(name, pending.len);
                Err(self.fail_on_read(err))
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn duplicate_key_error(&self, name: &[u8], len: usize) -> Error {
        let name = String::from_utf8_lossy(name);
        let mut path = self.path();
        path.push_key(name.clone().into_owned());
        let err = self.error_at(
            codes::DUPLICATE_KEY,
            format!("duplicate key {:?} in an object", excerpt(&name)),
            self.pos,
            self.pos + len,
        );
        self.cut_by_record_line(err.with_path(path))
    }

    /// The pending token when it is an integer that fits a `u64` (`signed`: an `i64`), as
    /// magnitude, sign and token length, without consuming it: read by the scanner already,
    /// or, for JSON5 text, parsed straight from the input when short enough that it cannot
    /// overflow (18 digits for `i64`, 19 for `u64`). `None` for everything else (floats,
    /// `-1` unsigned, long numbers), which the general path converts or reports.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn pending_short_integer(&self, signed: bool) -> Option<(u64, bool, usize)> {
        let pending = self.pending?;
        if let Payload::Decimal(value) = pending.payload {
            // Read by the scanner already: an integer of at most 19 digits.
            if pending.entry == Entry::Number(NumberHint::Float)
                || (value.negative() && !signed)
                || (signed && value.mantissa > i64::MAX.unsigned_abs())
            {
                return None;
            }
            return Some((value.mantissa, value.negative(), pending.len));
        }
        let Payload::Text(from, to, hint) = pending.payload else {
            return None;
        };
        let negative = hint == NumberHint::NegInteger;
        let digits_from = from + usize::from(negative);
        let max_digits = if signed { 18 } else { 19 };
        if hint == NumberHint::Float || to - digits_from > max_digits || (negative && !signed) {
            return None;
        }
        let digits = &self.input.window()[self.pos + digits_from..self.pos + to];
        let magnitude = digits
            .iter()
            .fold(0u64, |acc, &b| acc * 10 + u64::from(b - b'0'));
        Some((magnitude, negative, pending.len))
    }

    /// The common case of `read_u64` / `read_i64`: [`Self::pending_short_integer`],
    /// consumed.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn take_short_integer(&mut self, signed: bool) -> Option<(u64, bool)> {
        let (magnitude, negative, len) = self.pending_short_integer(signed)?;
        self.commit_scalar(len);
        Some((magnitude, negative))
    }

    /// The common case of the narrow integer reads (`read_u8` ... `read_i32`): a short
    /// integer that fits `T`, consumed. `None` leaves everything else, including the errors
    /// for values that do not fit, to the general path.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn take_narrow_integer<T: TryFrom<i64>>(&mut self, signed: bool) -> Option<T> {
        let (magnitude, negative, len) = self.pending_short_integer(signed)?;
        let magnitude = i64::try_from(magnitude).ok()?;
        let narrow = T::try_from(if negative { -magnitude } else { magnitude }).ok()?;
        self.commit_scalar(len);
        Some(narrow)
    }

    /// Consumes the pending number token in JSON syntax, `len` bytes long, and gives its
    /// text, borrowed from the input.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn commit_number_text(&mut self, len: usize, hint: NumberHint) -> Number<'_> {
        let start = self.pos;
        self.commit_scalar(len);
        Number::Text(number_text(self.input.window(), start, len), hint)
    }

    /// [`Reader::read_number`] for every case: out of line, so the common case stays small
    /// where it is inlined.
    #[inline(never)]
    fn read_number_general(&mut self) -> Result<Number<'_>> {
        let pending = self.take("a number", Entry::is_number)?;
        let start = self.pos;
        self.commit_scalar(pending.len);
        self.number_of(pending, start)
    }

    /// The number of the number token `pending`, which starts at `start` in the window.
    fn number_of(&self, pending: Pending, start: usize) -> Result<Number<'_>> {
        let window = self.input.window();
        if let Some((len, hint)) = pending.number_in_json_syntax() {
            return Ok(Number::Text(number_text(window, start, len), hint));
        }
        Ok(match pending.payload {
            Payload::Text(from, to, hint) => {
                Number::Text(number_text(window, start + from, to - from), hint)
            }
            Payload::ScratchText(hint) => Number::Text(&self.scratch, hint),
            Payload::U64(v) => Number::U64(v),
            Payload::I64(v) => Number::I64(v),
            Payload::F64(v) => Number::F64(v),
            _ => return Err(Error::custom("number token without a number")),
        })
    }

    /// The typed number reads (`read_f64`, `read_u64`, ...) for everything but the common
    /// case they handle inline: the number token converted by `convert`, which also builds
    /// the errors (too long or too large for the scanner, JSON5 spellings, out of range,
    /// not a number). Out of line, so the inlined reads stay small.
    ///
    /// The token is consumed only once it has converted: a number that does not fit the
    /// type asked for is the caller's choice of type, not an error in the input, so it
    /// stays to be read another way (`read_f64`, `read_number`) or skipped.
    #[inline(never)]
    fn read_number_as<T>(&mut self, convert: impl FnOnce(Number<'_>) -> Result<T>) -> Result<T> {
        let pending = self.take("a number", Entry::is_number)?;
        match convert(self.number_of(pending, self.pos)?) {
            Ok(value) => {
                self.commit_scalar(pending.len);
                Ok(value)
            }
            Err(err) => Err(self.refused(err, pending)),
        }
    }

    /// Consumes the pending token whatever it is, validating it (used by `skip`).
    pub(crate) fn consume_any(&mut self) -> Result<Entry> {
        let pending = self.take("a token", |_| true)?;
        match pending.entry {
            Entry::Ended => return Err(self.mismatch("a value", pending)),
            Entry::String | Entry::Name => {
                self.check_string(pending)?;
                if pending.entry == Entry::Name {
                    self.track_key(pending)?;
                }
            }
            _ => {}
        }
        self.commit(pending);
        Ok(pending.entry)
    }
}

/// `read_u8` ... `read_i32`: the scanner's value when it fits, else the general conversion
/// of the number token (which also builds the errors).
macro_rules! narrow_integer_reads {
    ($($method:ident -> $ty:ty, $sign:ident, $convert:ident;)*) => {$(
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn $method(&mut self) -> Result<$ty> {
            if let Some(value) = self.take_narrow_integer(narrow_integer_reads!(@$sign)) {
                return Ok(value);
            }
            self.read_number_as(|number| number.$convert())
        }
    )*};
    (@signed) => { true };
    (@unsigned) => { false };
}

impl<S: Input> Reader for JsonReader<S> {
    /// The lexer is inlined here, for loops that peek at every token from one place.
    /// Consumers that peek from many places call it out of line and answer repeated peeks
    /// with [`Reader::peeked`].
    #[inline]
    fn peek(&mut self) -> Result<Entry> {
        if let Some(pending) = &self.pending {
            return Ok(pending.entry);
        }
        self.advance().map_err(|e| self.stop(e))
    }

    #[inline]
    fn peeked(&self) -> Option<Entry> {
        self.pending.map(|pending| pending.entry)
    }

    fn span(&self) -> Span {
        Span::new(self.span_start, self.span_start + self.span_len)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_null(&mut self) -> Result<()> {
        let pending = self.take("Null", |e| e == Entry::Null)?;
        self.commit_scalar(pending.len);
        Ok(())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_bool(&mut self) -> Result<bool> {
        let pending = self.take("Bool", |e| e == Entry::Bool)?;
        self.commit_scalar(pending.len);
        Ok(matches!(pending.payload, Payload::Bool(true)))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_str(&mut self) -> Result<&str> {
        self.read_string_token("String")
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_name(&mut self) -> Result<&str> {
        self.read_string_token("Name")
    }

    /// The common case, a number in JSON syntax that a peek lexed, is handled in line: its
    /// text borrowed from the input. JSON5 spellings, typed payloads and the reads without a
    /// peek take a general path, out of line.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_number(&mut self) -> Result<Number<'_>> {
        if let Some((len, hint)) = self.pending.and_then(Pending::number_in_json_syntax) {
            return Ok(self.commit_number_text(len, hint));
        }
        self.read_number_general()
    }

    narrow_integer_reads! {
        read_i8 -> i8, signed, to_i8;
        read_i16 -> i16, signed, to_i16;
        read_i32 -> i32, signed, to_i32;
        read_u8 -> u8, unsigned, to_u8;
        read_u16 -> u16, unsigned, to_u16;
        read_u32 -> u32, unsigned, to_u32;
    }

    // `Number::to_u64` and the like cannot replace the closure given to `read_number_as`:
    // the methods are tied to one lifetime of `Number`, the closure works for any.
    #[allow(clippy::redundant_closure_for_method_calls)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_u64(&mut self) -> Result<u64> {
        if let Some((magnitude, _)) = self.take_short_integer(false) {
            return Ok(magnitude);
        }
        self.read_number_as(|number| number.to_u64())
    }

    #[allow(clippy::redundant_closure_for_method_calls)] // as in `read_u64`
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_i64(&mut self) -> Result<i64> {
        if let Some((magnitude, negative)) = self.take_short_integer(true) {
            // At most i64::MAX in magnitude: fits an i64 either way.
            let value = i64::try_from(magnitude).unwrap_or(i64::MAX);
            return Ok(if negative { -value } else { value });
        }
        self.read_number_as(|number| number.to_i64())
    }

    #[allow(clippy::redundant_closure_for_method_calls)] // as in `read_u64`
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_f64(&mut self) -> Result<f64> {
        // The common case: a number the scanner read on the way, and the fast path of
        // `decimal` settles, so its text is never walked again.
        // One pattern for the token and its payload: the payload's tag then stands for both
        // (an empty `pending` is a value of that tag), one compare instead of two.
        if let Some(Pending {
            payload: Payload::Decimal(value),
            len,
            ..
        }) = self.pending
            && let Some(value) = decimal::decimal_to_f64(value.decimal())
        {
            self.commit_scalar(len);
            return Ok(value);
        }
        self.read_number_as(|number| number.to_f64())
    }

    // The reads below have no fast path of their own: they convert the number token in
    // general, as the trait's defaults do, but through `read_number_as`, so that their
    // errors carry the data path like those of the reads above.

    #[allow(clippy::redundant_closure_for_method_calls)] // as in `read_u64`
    fn read_f32(&mut self) -> Result<f32> {
        self.read_number_as(|number| number.to_f32())
    }

    #[allow(clippy::redundant_closure_for_method_calls)] // as in `read_u64`
    fn read_i128(&mut self) -> Result<i128> {
        self.read_number_as(|number| number.to_i128())
    }

    #[allow(clippy::redundant_closure_for_method_calls)] // as in `read_u64`
    fn read_u128(&mut self) -> Result<u128> {
        self.read_number_as(|number| number.to_u128())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_map_root(&mut self) -> Result<Option<usize>> {
        let pending = self.take("MapRoot", |e| e == Entry::MapRoot)?;
        // The entry spelled out, so that the state update for it is all that remains.
        self.commit(Pending {
            entry: Entry::MapRoot,
            ..pending
        });
        Ok(None)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_map_end(&mut self) -> Result<()> {
        let pending = self.take("MapEnd", |e| e == Entry::MapEnd)?;
        // The entry spelled out, so that the state update for it is all that remains.
        self.commit(Pending {
            entry: Entry::MapEnd,
            ..pending
        });
        Ok(())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_array_root(&mut self) -> Result<Option<usize>> {
        let pending = self.take("ArrayRoot", |e| e == Entry::ArrayRoot)?;
        // The entry spelled out, so that the state update for it is all that remains.
        self.commit(Pending {
            entry: Entry::ArrayRoot,
            ..pending
        });
        Ok(None)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_array_end(&mut self) -> Result<()> {
        let pending = self.take("ArrayEnd", |e| e == Entry::ArrayEnd)?;
        // The entry spelled out, so that the state update for it is all that remains.
        self.commit(Pending {
            entry: Entry::ArrayEnd,
            ..pending
        });
        Ok(())
    }

    /// A read of a kind JSON never has (raw bytes, extensions, sets, structs, options,
    /// enums): the token stays unread, and a stopped reader reports its error instead.
    fn refuse_unsupported(&mut self, what: &str) -> Error {
        self.unsupported(what)
    }

    /// Skips one whole value (or one key), validating everything inside it.
    fn skip(&mut self) -> Result<()> {
        let entry = self.peek()?;
        if entry.is_container_end() {
            return Err(self.refuse_pending("a value"));
        }
        let depth = self.frames.len();
        self.consume_any()?;
        while self.frames.len() > depth {
            self.consume_any()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scanned_decimal_gives_back_every_sign_and_exponent() {
        for negative in [false, true] {
            for exponent in [
                i32::MIN,
                -100_000,
                -325,
                -1,
                0,
                1,
                22,
                308,
                100_000,
                i32::MAX,
            ] {
                for mantissa in [0, 1, 65_613_616_999_999_977, u64::MAX] {
                    let value = Decimal {
                        negative,
                        mantissa,
                        exponent,
                    };
                    let kept = ScannedDecimal::new(value);
                    assert_eq!(kept.decimal(), value);
                    assert_eq!(kept.negative(), negative);
                }
            }
        }
    }

    #[test]
    fn an_ndjson_record_is_checkpointed_only_when_the_window_moves() {
        // A checkpoint costs the whole depth: taken at every read of a byte, a record
        // nested a few thousand deep took seconds.
        let depth = 100;
        let record = format!("{}1{}\n", r#"{"k":"#.repeat(depth), "}".repeat(depth));
        let options = JsonOptions {
            max_depth: depth,
            ..JsonOptions::ndjson()
        };
        // One byte per read, as a slow pipe may hand them out.
        let bytes = crate::fuzzing::Chunks {
            data: record.as_bytes(),
            size: 1,
        };
        let mut reader = JsonReader::new(IoInput::new(bytes), options);
        reader.set_record_mode();
        reader.skip().unwrap();
        reader.finish().unwrap();
        // The record fits the window, which never moved.
        assert!(reader.record_checkpoint.is_none());
    }
}
