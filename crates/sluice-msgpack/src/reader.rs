//! [`MsgPackReader`]: MessagePack bytes as a stream of tokens.
//!
//! The reader is iterative: open containers live on an explicit stack (bounded by
//! [`ReaderOptions::max_depth`]), so hostile nesting cannot overflow the call stack. Each open
//! container counts the items it still expects; when the count reaches zero `peek` answers
//! `ArrayEnd`/`MapEnd`, so reading past the end or closing early is a mismatched read that
//! points at the exact byte offset. Claimed lengths are checked against what is left of a
//! slice before anything is trusted, and nothing is ever allocated from a claimed length.

use std::io;

use sluice_core::{Entry, Error, Ext, Number, Reader, Result, Span, codes as core_codes};

use crate::head::{self, Head, HeadError, Kind};
use crate::input::{Input, ReadInput, SliceInput};
use crate::{Timestamp, codes};

/// Settings of a [`MsgPackReader`].
///
/// ```
/// use sluice_msgpack::{MsgPackReader, ReaderOptions};
/// let options = ReaderOptions { max_depth: 16, ..ReaderOptions::default() };
/// let reader = MsgPackReader::from_slice(&[0xc0]).with_options(options);
/// # let _ = reader;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReaderOptions {
    /// How many containers may be open at once (default 128). Deeper input is
    /// [`DEPTH_EXCEEDED`](sluice_core::codes::DEPTH_EXCEEDED). [`Reader::skip`] walks without
    /// recursion and is not limited.
    pub max_depth: usize,
    /// Whether the input is a stream of values, one after another (default `true`, as
    /// MessagePack streams usually are): `peek` answers `Ended` once the input is used up at
    /// the top level, and an empty input is an empty stream. With `false` the input must hold
    /// exactly one value: an empty input is [`TRUNCATED`](codes::TRUNCATED) and bytes after
    /// the value are [`TRAILING_DATA`](codes::TRAILING_DATA).
    pub multiple_values: bool,
}

impl Default for ReaderOptions {
    fn default() -> ReaderOptions {
        ReaderOptions {
            max_depth: 128,
            multiple_values: true,
        }
    }
}

/// An open array or map.
#[derive(Debug, Clone, Copy)]
struct Frame {
    map: bool,
    /// Items still to read; a map counts keys and values separately (twice its length).
    remaining: u64,
}

/// Reads MessagePack as tokens, from a slice ([`from_slice`](MsgPackReader::from_slice)) or an
/// [`io::Read`] ([`from_read`](MsgPackReader::from_read)).
///
/// `peek` reports the wire type: `U8`..`U64` for unsigned ints (positive fixint is `U8`),
/// `I8`..`I64` for signed ints (negative fixint is `I8`), `F32`/`F64`, `String` (`Name` in map
/// key position), `Blob` for bin, `Ext`, `Null`, `Bool`, and `ArrayRoot`/`MapRoot` whose reads
/// return `Some(len)`. Every number read converts exactly or fails: a `U8` read as `i64` is
/// fine, 300 read as `u8`, -1 as `u64` or 1.5 as `i64` are errors. Spans are byte offsets.
///
/// Several top-level values may follow each other (a stream); `peek` answers `Ended` when the
/// input is used up between values. See [`ReaderOptions::multiple_values`] to require exactly
/// one, and [`finish`](MsgPackReader::finish) to check that nothing trails.
///
/// ```
/// use sluice_core::{Entry, Reader};
/// use sluice_msgpack::MsgPackReader;
/// // [1, -1, "a"] then a second top-level value, nil.
/// let bytes = [0x93, 0x01, 0xff, 0xa1, b'a', 0xc0];
/// let mut reader = MsgPackReader::from_slice(&bytes);
/// assert_eq!(reader.read_array_root()?, Some(3));
/// assert_eq!(reader.peek()?, Entry::U8);
/// assert_eq!(reader.read_u64()?, 1);
/// assert_eq!(reader.peek()?, Entry::I8);
/// let err = reader.read_u64().unwrap_err(); // -1 does not fit: it stays unread
/// assert_eq!(err.code(), sluice_core::codes::NUMBER_OUT_OF_RANGE);
/// assert_eq!(reader.read_i64()?, -1);
/// assert_eq!(reader.read_str()?, "a");
/// reader.read_array_end()?;
/// reader.read_null()?;
/// assert_eq!(reader.peek()?, Entry::Ended);
/// reader.finish()?;
/// # Ok::<(), sluice_core::Error>(())
/// ```
///
/// # After an error
///
/// An error in the input is final: a reserved byte, a value cut by the end of the input,
/// invalid UTF-8 in a str, a length beyond what a slice holds, nesting beyond `max_depth`,
/// bytes after the one value required, an I/O error of the source (`WouldBlock` included;
/// `Interrupted` is retried). The reader cannot know where the broken value ends, so it stops
/// there: every later `peek`, read, `skip` and `finish()` reports the same error again (code
/// and span; an I/O error its empty span where the stream broke, and the stream's own
/// [`io::Error`] as its [`io_error`](sluice_core::Error::io_error) and
/// [`source`](std::error::Error::source)), without reading the source again. A str's UTF-8
/// is checked when it is read, so a `peek` may answer `String` before the read fails.
///
/// An error in the caller's request leaves the value unread, for another read to take: a
/// read of the wrong kind (`read_str` on a number, `skip` at the end of a container), a read
/// of a kind MessagePack never has (`read_option_root` ...:
/// [`UNSUPPORTED`](sluice_core::codes::UNSUPPORTED)), a number that does not convert to the
/// type asked for (`read_u8` on 300, `read_i64` on 1.5), `read_timestamp` on an ext that is
/// not a valid timestamp, and `finish()` inside a container or with bytes left. The error and
/// [`Reader::span`] then give the value's span.
///
/// ```
/// use sluice_core::{Reader, Span, codes as core_codes};
/// use sluice_msgpack::{MsgPackReader, codes};
/// // [300, "<invalid UTF-8>", 7]
/// let bytes = [0x93, 0xcd, 0x01, 0x2c, 0xa1, 0xff, 0x07];
/// let mut reader = MsgPackReader::from_slice(&bytes);
/// reader.read_array_root()?;
/// assert_eq!(reader.read_u8().unwrap_err().code(), core_codes::NUMBER_OUT_OF_RANGE);
/// assert_eq!(reader.read_u16()?, 300); // still there
/// let err = reader.read_str().unwrap_err();
/// assert_eq!((err.code(), err.span()), (codes::INVALID_UTF8, Some(Span::new(5, 6))));
/// let again = reader.read_u8().unwrap_err(); // final: the 7 is not handed out
/// assert_eq!((again.code(), again.span()), (codes::INVALID_UTF8, Some(Span::new(5, 6))));
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug)]
pub struct MsgPackReader<I> {
    input: I,
    options: ReaderOptions,
    stack: Vec<Frame>,
    /// The decoded header of the next value, once looked at, and its offset.
    head: Option<Head>,
    head_start: usize,
    span: Span,
    /// Top-level values read so far.
    top_values: u64,
    /// The error in the input the reader stopped at, reported again by every later call.
    failed: Option<Box<Failed>>,
}

/// Where a [`MsgPackReader`] stopped (see [`MsgPackReader::fail`]).
#[derive(Debug)]
struct Failed {
    error: Error,
    /// The containers open when it stopped (the stack itself is emptied).
    depth: usize,
}

/// `?` for a result whose error is an error in the input (an I/O error): the reader stops
/// there (see [`MsgPackReader::fail`]).
macro_rules! input {
    ($reader:ident, $result:expr) => {
        match $result {
            Ok(value) => value,
            Err(err) => return Err($reader.fail(err)),
        }
    };
}

impl<'de> MsgPackReader<SliceInput<'de>> {
    /// A reader over `bytes`; strings and bytes are borrowed from it.
    #[must_use]
    pub fn from_slice(bytes: &'de [u8]) -> MsgPackReader<SliceInput<'de>> {
        MsgPackReader::new(SliceInput::new(bytes))
    }

    /// Reads a str borrowed for the input's whole lifetime (not just until the next call).
    ///
    /// ```
    /// use sluice_msgpack::MsgPackReader;
    /// let bytes = [0x92, 0xa1, b'a', 0xa1, b'b'];
    /// let mut reader = MsgPackReader::from_slice(&bytes);
    /// # use sluice_core::Reader;
    /// reader.read_array_root()?;
    /// let a = reader.read_str_borrowed()?;
    /// let b = reader.read_str_borrowed()?;
    /// assert_eq!((a, b), ("a", "b"));
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Reader::read_str`].
    pub fn read_str_borrowed(&mut self) -> Result<&'de str> {
        let (head, total) = self.prepare_payload("String", |k| k == Kind::Str)?;
        let start = self.span.start;
        let bytes = &self.input.advance_borrowed(total)[usize::from(head.len)..];
        utf8(bytes, start + usize::from(head.len)).map_err(|err| self.fail(err))
    }

    /// Reads a bin borrowed for the input's whole lifetime.
    ///
    /// # Errors
    /// As [`Reader::read_blob`].
    pub fn read_blob_borrowed(&mut self) -> Result<&'de [u8]> {
        let (head, total) = self.prepare_payload("Blob", |k| k == Kind::Bin)?;
        Ok(&self.input.advance_borrowed(total)[usize::from(head.len)..])
    }
}

impl<R: io::Read> MsgPackReader<ReadInput<R>> {
    /// A reader over any [`io::Read`], buffered internally (wrapping it in a `BufReader` is
    /// not needed). Memory grows with the largest str/bin/ext actually received, never with a
    /// length the input merely claims.
    ///
    /// Each read waits only for the bytes its value needs (the marker byte, the rest of the
    /// header it announces, then the payload), so a live stream's values are handed out as
    /// they arrive: a peer that sends one value and waits for an answer is not waited on for
    /// more. Only the next `peek` or read asks for the next value.
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_msgpack::MsgPackReader;
    /// use std::io::{self, Read};
    ///
    /// /// A peer that has sent `nil` and waits: reading on would block.
    /// struct Waiting(Option<u8>);
    /// impl Read for Waiting {
    ///     fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
    ///         match (self.0, buf.first_mut()) {
    ///             (Some(byte), Some(slot)) => {
    ///                 *slot = byte;
    ///                 self.0 = None;
    ///                 Ok(1)
    ///             }
    ///             _ => Err(io::ErrorKind::WouldBlock.into()),
    ///         }
    ///     }
    /// }
    ///
    /// let mut reader = MsgPackReader::from_read(Waiting(Some(0xc0)));
    /// reader.read_null()?; // no byte past the nil is asked for
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub fn from_read(read: R) -> MsgPackReader<ReadInput<R>> {
        MsgPackReader::new(ReadInput::new(read))
    }

    /// The wrapped reader; bytes read ahead into the buffer are lost.
    #[must_use]
    pub fn into_inner(self) -> R {
        self.input.into_inner()
    }
}

fn utf8(bytes: &[u8], payload_start: usize) -> Result<&str> {
    std::str::from_utf8(bytes).map_err(|err| {
        let at = payload_start + err.valid_up_to();
        let len = err.error_len().unwrap_or(bytes.len() - err.valid_up_to());
        Error::new(
            codes::INVALID_UTF8,
            format!("str is not valid UTF-8 at byte {at}"),
        )
        .with_span(Span::new(at, at + len.max(1)))
    })
}

fn truncated(what: &str, span: Span) -> Error {
    Error::new(
        codes::TRUNCATED,
        format!("the input ends inside {what} (bytes {span})"),
    )
    .with_span(span)
}

/// The error for the header at the start of `bytes` (not empty) that did not decode.
fn decode_error(bytes: &[u8], start: usize) -> Error {
    let available = bytes.len();
    match head::decode(bytes) {
        Err(HeadError::Reserved) => Error::new(
            codes::RESERVED_BYTE,
            format!("byte 0xc1 at offset {start} is reserved and never used in MessagePack"),
        )
        .with_span(Span::new(start, start + 1)),
        _ => truncated("a value header", Span::new(start, start + available)),
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Str => "a str",
        Kind::Bin => "a bin",
        Kind::Ext => "an ext",
        Kind::Array => "an array",
        Kind::Map => "a map",
        _ => "a value",
    }
}

fn is_number(kind: Kind) -> bool {
    matches!(kind, Kind::Uint(_) | Kind::Int(_) | Kind::F32 | Kind::F64)
}

/// The number a number header holds (no payload follows a number).
#[inline]
fn number(head: Head) -> Number<'static> {
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
    match head.kind {
        Kind::Uint(_) => Number::U64(head.value),
        Kind::Int(_) => Number::I64(head.value as i64),
        Kind::F32 => Number::F32(f32::from_bits(head.value as u32)),
        _ => Number::F64(f64::from_bits(head.value)),
    }
}

impl Failed {
    /// The error to report again (out of line: only a reader that stopped calls it).
    #[cold]
    #[inline(never)]
    fn again(&self) -> Error {
        self.error.clone()
    }
}

/// Stops a reader at `err` (see [`MsgPackReader::fail`]), given only the fields that takes,
/// for a read whose borrow of the input is still alive.
#[cold]
#[inline(never)]
fn stop(stack: &mut Vec<Frame>, failed: &mut Option<Box<Failed>>, err: Error) -> Error {
    *failed = Some(Box::new(Failed {
        error: err.clone(),
        depth: stack.len(),
    }));
    stack.clear();
    err
}

impl<I: Input> MsgPackReader<I> {
    fn new(input: I) -> MsgPackReader<I> {
        MsgPackReader {
            input,
            options: ReaderOptions::default(),
            stack: Vec::new(),
            head: None,
            head_start: 0,
            span: Span::default(),
            top_values: 0,
            failed: None,
        }
    }

    /// Replaces the options.
    #[must_use]
    pub fn with_options(mut self, options: ReaderOptions) -> MsgPackReader<I> {
        self.options = options;
        self
    }

    /// The options in force.
    #[must_use]
    pub fn options(&self) -> &ReaderOptions {
        &self.options
    }

    /// Byte offset of the next unread byte.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.input.offset()
    }

    /// How many containers are open; after an error in the input, how many were when the
    /// reader stopped.
    #[must_use]
    pub fn depth(&self) -> usize {
        match &self.failed {
            Some(failed) => failed.depth,
            None => self.stack.len(),
        }
    }

    /// Reads a timestamp extension (ext type -1, any of its three sizes).
    ///
    /// ```
    /// use sluice_msgpack::{MsgPackReader, Timestamp};
    /// let bytes = [0xd6, 0xff, 0x5a, 0x4a, 0xf6, 0xa5];
    /// let t = MsgPackReader::from_slice(&bytes).read_timestamp()?;
    /// assert_eq!(t, Timestamp { seconds: 1_514_862_245, nanos: 0 });
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// When the next value is not an ext, or is not a valid timestamp
    /// ([`INVALID_TIMESTAMP`](codes::INVALID_TIMESTAMP), with the span of the ext). Either
    /// way the value stays unread, for [`Reader::read_ext`] or [`Reader::skip`] to take.
    pub fn read_timestamp(&mut self) -> Result<Timestamp> {
        let (head, total) = self.load_payload("Ext", |k| k == Kind::Ext)?;
        // Loaded whole by `load_payload`: no read of the source here.
        let bytes = input!(self, self.input.fill(total));
        let data = bytes.get(usize::from(head.len)..total).unwrap_or_default();
        let decoded = Timestamp::from_ext(Ext {
            kind: head.ext_type,
            data,
        });
        match decoded {
            Ok(timestamp) => {
                self.book(total);
                self.input.advance(total);
                Ok(timestamp)
            }
            Err(err) => {
                let span = Span::new(self.head_start, self.head_start + total);
                self.span = span;
                Err(err.with_span(span))
            }
        }
    }

    /// Checks that the reader stands between top-level values and that no byte is left.
    /// Over an `io::Read`, "no byte is left" is known only at the end of the stream: on a
    /// live stream, `finish` waits for the stream to end (or for a byte after the last
    /// value, which is then [`TRAILING_DATA`](codes::TRAILING_DATA)).
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_msgpack::{MsgPackReader, codes};
    /// let mut reader = MsgPackReader::from_slice(&[0xc0, 0xc3]);
    /// reader.read_null()?;
    /// assert_eq!(reader.finish().unwrap_err().code(), codes::TRAILING_DATA);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`INVALID_STRUCTURE`](sluice_core::codes::INVALID_STRUCTURE) inside an open container,
    /// [`TRAILING_DATA`](codes::TRAILING_DATA) when bytes are left (both leave the reader
    /// as it was), an I/O error, or the error in the input the reader stopped at.
    pub fn finish(&mut self) -> Result<()> {
        if let Some(failed) = &self.failed {
            return Err(failed.again());
        }
        let offset = self.input.offset();
        if let Some(frame) = self.stack.last() {
            let what = if frame.map { "map" } else { "array" };
            return Err(Error::new(
                core_codes::INVALID_STRUCTURE,
                format!(
                    "finished inside an open {what} ({} containers open)",
                    self.stack.len()
                ),
            )
            .with_span(Span::at(offset)));
        }
        let left = input!(self, self.input.fill(1)).len();
        if left > 0 {
            let end = offset + self.input.remaining().unwrap_or(left);
            return Err(Error::new(
                codes::TRAILING_DATA,
                format!("{} byte(s) left after the last value", end - offset),
            )
            .with_span(Span::new(offset, end)));
        }
        Ok(())
    }

    /// Decodes (once) the header of the next value.
    #[inline]
    fn load_head(&mut self) -> Result<Head> {
        if let Some(head) = self.head {
            return Ok(head);
        }
        let start = self.input.offset();
        let bytes = input!(self, self.input.fill_head());
        if !bytes.is_empty()
            && let Ok(head) = head::decode(bytes)
        {
            self.head = Some(head);
            self.head_start = start;
            return Ok(head);
        }
        Err(self.head_error(start))
    }

    /// The error for a header that did not decode at `start`; the reader stops there.
    #[cold]
    #[inline(never)]
    fn head_error(&mut self, start: usize) -> Error {
        let bytes = match self.input.fill_head() {
            Ok(bytes) => bytes,
            Err(err) => return self.fail(err),
        };
        let err = if bytes.is_empty() {
            truncated("a value", Span::at(start))
        } else {
            decode_error(bytes, start)
        };
        self.fail(err)
    }

    /// Stops the reader at an error in the input (of any kind: a reserved byte, a value cut
    /// by the end, invalid UTF-8, nesting too deep, an I/O error). It cannot know where the
    /// broken value ends, so it goes no further: every later call reports `err` again (the
    /// same code and span; an I/O error shares the stream's `io::Error`), and the source is
    /// not read again. Emptying the stack and dropping the looked-at header sends every
    /// later call to the top-level path of `next_entry`, which checks for this, so the reads
    /// inside containers pay nothing for it.
    #[cold]
    #[inline(never)]
    fn fail(&mut self, err: Error) -> Error {
        if let Some(failed) = &self.failed {
            return failed.again();
        }
        self.head = None;
        if let Some(span) = err.span() {
            self.span = span;
        }
        stop(&mut self.stack, &mut self.failed, err)
    }

    /// What comes next; loads the header when it is a value.
    #[inline]
    fn next_entry(&mut self) -> Result<Entry> {
        if let Some(&frame) = self.stack.last() {
            if frame.remaining == 0 {
                return Ok(if frame.map {
                    Entry::MapEnd
                } else {
                    Entry::ArrayEnd
                });
            }
            let head = self.load_head()?;
            if frame.map && frame.remaining % 2 == 0 && head.kind == Kind::Str {
                return Ok(Entry::Name);
            }
            return Ok(head.entry());
        }
        if let Some(head) = self.head {
            return Ok(head.entry());
        }
        // Every call of a reader that stopped at an error comes here (see `fail`).
        if let Some(failed) = &self.failed {
            return Err(failed.again());
        }
        let start = self.input.offset();
        let at_end = input!(self, self.input.fill(1)).is_empty();
        if at_end {
            return self.at_end(start);
        }
        if !self.options.multiple_values && self.top_values > 0 {
            return Err(self.trailing(start));
        }
        Ok(self.load_head()?.entry())
    }

    /// What the end of the input between top-level values is: `Ended`, or an error when one
    /// value was required and the input is empty.
    #[cold]
    fn at_end(&mut self, start: usize) -> Result<Entry> {
        if !self.options.multiple_values && self.top_values == 0 {
            let err = truncated("a value (the input is empty)", Span::at(start));
            return Err(self.fail(err));
        }
        Ok(Entry::Ended)
    }

    /// The error for bytes after the one value required, at `start`; the reader stops there.
    #[cold]
    fn trailing(&mut self, start: usize) -> Error {
        let end = start + self.input.remaining().unwrap_or(1);
        let err = Error::new(
            codes::TRAILING_DATA,
            "bytes follow the value, and only one value was expected",
        )
        .with_span(Span::new(start, end));
        self.fail(err)
    }

    /// The error for a read that does not match what comes next; consumes nothing.
    #[cold]
    fn mismatch(&mut self, expected: &str, found: Entry) -> Error {
        let span = match self.head {
            Some(head) if !found.is_container_end() && found != Entry::Ended => {
                Span::new(self.head_start, self.head_start + usize::from(head.len))
            }
            _ => Span::at(self.input.offset()),
        };
        self.span = span;
        let mut err = Error::unexpected(expected, found).with_span(span);
        if let Some(frame) = self.stack.last() {
            let (what, count) = if frame.map {
                ("map", frame.remaining.div_ceil(2))
            } else {
                ("array", frame.remaining)
            };
            err = err.with_note(if count == 0 {
                format!("every item of the {what} is read")
            } else {
                format!("the {what} has {count} more item(s)")
            });
        }
        err
    }

    /// Loads the next header and checks its kind; consumes nothing.
    #[inline]
    fn expect(&mut self, expected: &str, want: fn(Kind) -> bool) -> Result<Head> {
        // A cached header is always the next value (it is dropped once read, and never
        // loaded at a container end): the common peek-then-read path stops here.
        if let Some(head) = self.head
            && want(head.kind)
        {
            return Ok(head);
        }
        let entry = self.next_entry()?;
        match self.head {
            Some(head) if want(head.kind) && !entry.is_container_end() => Ok(head),
            _ => Err(self.mismatch(expected, entry)),
        }
    }

    /// Books the value whose header is cached as read: `len` bytes from its start.
    #[inline]
    fn book(&mut self, len: usize) {
        self.head = None;
        self.span = Span::new(self.head_start, self.head_start + len);
        match self.stack.last_mut() {
            Some(frame) => frame.remaining -= 1,
            None => self.top_values += 1,
        }
    }

    /// A value made of its header only (nil, bool, numbers).
    #[inline]
    fn take_header(&mut self, head: Head) {
        let len = usize::from(head.len);
        self.book(len);
        self.input.advance(len);
    }

    /// Checks a str/bin/ext and makes its payload available; books it as read and returns
    /// the total size, for the caller to `advance` over.
    #[inline]
    fn prepare_payload(&mut self, expected: &str, want: fn(Kind) -> bool) -> Result<(Head, usize)> {
        let (head, total) = self.load_payload(expected, want)?;
        self.book(total);
        Ok((head, total))
    }

    /// Checks a str/bin/ext and makes its payload available, without booking it as read;
    /// returns its header and total size.
    #[inline]
    fn load_payload(&mut self, expected: &str, want: fn(Kind) -> bool) -> Result<(Head, usize)> {
        let head = self.expect(expected, want)?;
        let total = usize::try_from(head.payload_len())
            .ok()
            .and_then(|n| n.checked_add(usize::from(head.len)));
        let available = match total {
            Some(total) => input!(self, self.input.fill(total)).len(),
            None => 0,
        };
        match total {
            Some(total) if available >= total => Ok((head, total)),
            _ => Err(self.payload_cut(head, available)),
        }
    }

    /// The error for a payload cut by the end of the input after `available` bytes of the
    /// value; the reader stops there.
    #[cold]
    fn payload_cut(&mut self, head: Head, available: usize) -> Error {
        let start = self.head_start;
        let what = kind_name(head.kind);
        let err = truncated(
            &format!("{what} of {} bytes", head.payload_len()),
            Span::new(start, start + available),
        );
        self.fail(err)
    }

    /// Reads the number whose header comes next as `convert` makes it; a number that does
    /// not convert stays unread (see [`Self::refuse`]).
    #[inline]
    fn read_number_as<T>(
        &mut self,
        convert: impl FnOnce(Number<'static>) -> Result<T>,
    ) -> Result<T> {
        let head = self.expect("a number", is_number)?;
        match convert(number(head)) {
            Ok(value) => {
                self.take_header(head);
                Ok(value)
            }
            Err(err) => Err(self.refuse(head, err)),
        }
    }

    /// A number that does not convert to the type asked for: an error of the request, not of
    /// the input, so the number stays unread for a read of another type (or `skip`); the
    /// error and `span()` give its span.
    #[cold]
    fn refuse(&mut self, head: Head, err: Error) -> Error {
        let span = Span::new(self.head_start, self.head_start + usize::from(head.len));
        self.span = span;
        err.or_span(span)
    }

    /// A read of a kind MessagePack never has: the value stays unread, unless the reader
    /// stopped at an error in the input, which it reports instead.
    #[cold]
    fn unsupported(&self, what: &str) -> Error {
        match &self.failed {
            Some(failed) => failed.again(),
            None => Error::unsupported(what, "a MessagePack reader").or_span(self.span),
        }
    }

    /// Reads a str, as a string or a key. Inlined into both reads, as their bodies were
    /// before they shared it: out of line it costs a call for every string.
    #[inline(always)]
    fn read_text(&mut self, expected: &str) -> Result<&str> {
        let (head, total) = self.prepare_payload(expected, |k| k == Kind::Str)?;
        let start = self.span.start + usize::from(head.len);
        let bytes = &self.input.advance(total)[usize::from(head.len)..];
        match utf8(bytes, start) {
            Ok(text) => Ok(text),
            // `fail` without the input, which `bytes` still borrows.
            Err(err) => {
                self.span = err.span().unwrap_or(self.span);
                Err(stop(&mut self.stack, &mut self.failed, err))
            }
        }
    }

    /// Opens an array or map whose header is cached.
    fn open(&mut self, head: Head, map: bool) -> Result<Option<usize>> {
        let start = self.head_start;
        let header = Span::new(start, start + usize::from(head.len));
        if self.stack.len() >= self.options.max_depth {
            let err = Error::new(
                core_codes::DEPTH_EXCEEDED,
                format!(
                    "nesting deeper than the limit of {} containers",
                    self.options.max_depth
                ),
            )
            .with_span(header);
            return Err(self.fail(err));
        }
        let items = if map { head.value * 2 } else { head.value };
        if let Some(left) = self.input.remaining() {
            // Every item takes at least one byte.
            let after_header = (left - usize::from(head.len)) as u64;
            if items > after_header {
                let what = if map { "map claims" } else { "array claims" };
                let err = Error::new(
                    codes::LENGTH_EXCEEDS_INPUT,
                    format!(
                        "{what} {} items but only {after_header} bytes follow",
                        head.value
                    ),
                )
                .with_span(header);
                return Err(self.fail(err));
            }
        }
        let Ok(len) = usize::try_from(head.value) else {
            let err = Error::new(
                codes::LENGTH_TOO_LARGE,
                "container length does not fit in usize",
            )
            .with_span(header);
            return Err(self.fail(err));
        };
        self.take_header(head);
        self.stack.push(Frame {
            map,
            remaining: items,
        });
        Ok(Some(len))
    }

    fn close(&mut self, map: bool) -> Result<()> {
        match self.stack.last() {
            Some(frame) if frame.map == map && frame.remaining == 0 => {
                self.stack.pop();
                self.span = Span::at(self.input.offset());
                Ok(())
            }
            _ => {
                let entry = self.next_entry()?;
                let expected = if map { "MapEnd" } else { "ArrayEnd" };
                Err(self.mismatch(expected, entry))
            }
        }
    }
}

/// The typed number reads, each through [`MsgPackReader::read_number_as`].
macro_rules! number_reads {
    ($($method:ident -> $ty:ty = $convert:ident;)*) => {$(
        #[inline]
        fn $method(&mut self) -> Result<$ty> {
            self.read_number_as(Number::$convert)
        }
    )*};
}

impl<I: Input> Reader for MsgPackReader<I> {
    #[inline]
    fn peek(&mut self) -> Result<Entry> {
        self.next_entry()
    }

    fn span(&self) -> Span {
        self.span
    }

    #[inline]
    fn read_null(&mut self) -> Result<()> {
        let head = self.expect("Null", |k| k == Kind::Nil)?;
        self.take_header(head);
        Ok(())
    }

    #[inline]
    fn read_bool(&mut self) -> Result<bool> {
        let head = self.expect("Bool", |k| k == Kind::Bool)?;
        self.take_header(head);
        Ok(head.value != 0)
    }

    #[inline]
    fn read_str(&mut self) -> Result<&str> {
        self.read_text("String")
    }

    #[inline]
    fn read_name(&mut self) -> Result<&str> {
        self.read_text("Name")
    }

    #[inline]
    fn read_number(&mut self) -> Result<Number<'_>> {
        let head = self.expect("a number", is_number)?;
        self.take_header(head);
        Ok(number(head))
    }

    // Overridden so that a number that does not convert stays unread (the trait's defaults
    // read it first, then convert).
    number_reads! {
        read_i8 -> i8 = to_i8;
        read_i16 -> i16 = to_i16;
        read_i32 -> i32 = to_i32;
        read_i64 -> i64 = to_i64;
        read_i128 -> i128 = to_i128;
        read_u8 -> u8 = to_u8;
        read_u16 -> u16 = to_u16;
        read_u32 -> u32 = to_u32;
        read_u64 -> u64 = to_u64;
        read_u128 -> u128 = to_u128;
        read_f32 -> f32 = to_f32;
        read_f64 -> f64 = to_f64;
    }

    // So that a reader that stopped at an error in the input reports it to the reads of
    // kinds MessagePack never has (sets, structs, options, enums) too.
    fn refuse_unsupported(&mut self, what: &str) -> Error {
        self.unsupported(what)
    }

    #[inline]
    fn read_blob(&mut self) -> Result<&[u8]> {
        let (head, total) = self.prepare_payload("Blob", |k| k == Kind::Bin)?;
        Ok(&self.input.advance(total)[usize::from(head.len)..])
    }

    #[inline]
    fn read_ext(&mut self) -> Result<Ext<'_>> {
        let (head, total) = self.prepare_payload("Ext", |k| k == Kind::Ext)?;
        let data = &self.input.advance(total)[usize::from(head.len)..];
        Ok(Ext {
            kind: head.ext_type,
            data,
        })
    }

    #[inline]
    fn read_map_root(&mut self) -> Result<Option<usize>> {
        let head = self.expect("MapRoot", |k| k == Kind::Map)?;
        self.open(head, true)
    }

    #[inline]
    fn read_map_end(&mut self) -> Result<()> {
        self.close(true)
    }

    #[inline]
    fn read_array_root(&mut self) -> Result<Option<usize>> {
        let head = self.expect("ArrayRoot", |k| k == Kind::Array)?;
        self.open(head, false)
    }

    #[inline]
    fn read_array_end(&mut self) -> Result<()> {
        self.close(false)
    }

    /// Skips the next value without building anything: headers are decoded and payloads
    /// jumped over, containers counted without recursion. Str contents are not checked for
    /// UTF-8 and the depth limit does not apply; lengths and truncation are checked.
    fn skip(&mut self) -> Result<()> {
        let entry = self.next_entry()?;
        if entry == Entry::Ended || entry.is_container_end() {
            return Err(self.mismatch("a value", entry));
        }
        let start = self.head_start;
        let mut pending: u64 = 1;
        while pending > 0 {
            let head = self.load_head()?;
            self.head = None;
            pending -= 1;
            match head.kind {
                Kind::Array => pending = pending.saturating_add(head.value),
                Kind::Map => pending = pending.saturating_add(head.value * 2),
                _ => {}
            }
            let size = u64::from(head.len) + head.payload_len();
            let skipped = input!(self, self.input.discard(size));
            if skipped < size {
                let end = self.input.offset();
                let err = truncated(kind_name(head.kind), Span::new(start, end));
                return Err(self.fail(err));
            }
            if let Some(left) = self.input.remaining()
                && pending > left as u64
            {
                let end = self.input.offset();
                let err = Error::new(
                    codes::LENGTH_EXCEEDS_INPUT,
                    format!("{pending} more items are announced but only {left} bytes are left"),
                )
                .with_span(Span::new(start, end));
                return Err(self.fail(err));
            }
        }
        self.head_start = start;
        let len = self.input.offset() - start;
        self.book(len);
        Ok(())
    }
}
