//! Where the reader's bytes come from: a slice (all of it at once, zero copy) or any
//! [`io::Read`] (a window over the stream, refilled as the reader moves on).
//!
//! The reader is generic over [`Input`], so the slice path is monomorphized and its
//! "refill" is a constant "no more data" the optimizer removes, while the streaming path
//! shares every line of the tokenizer. Positions are relative to the window; the window's
//! absolute offset turns them into the byte spans errors carry.

use std::io;

use sluice_core::{Error, Result, Span};

mod sealed {
    pub trait Sealed {}
}

/// The result of asking an [`Input`] for more bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refill {
    /// How many bytes were dropped from the front of the window; every position the
    /// caller holds moves down by this much.
    pub shift: usize,
    /// Whether to look at the window again: new bytes arrived, or a read failed after the
    /// window moved, and the next call reports its error (`false` at the end of the input).
    pub more: bool,
}

/// A source of input bytes for [`JsonReader`](crate::JsonReader): [`SliceInput`] or
/// [`IoInput`]. Sealed; not meant to be implemented outside this crate.
pub trait Input: sealed::Sealed {
    /// The bytes available now (the window).
    fn window(&self) -> &[u8];

    /// Absolute offset of `window()[0]` in the whole input.
    fn offset(&self) -> usize;

    /// Whether the bytes are known to be UTF-8 already (input given as `&str`).
    fn known_utf8(&self) -> bool;

    /// Whether the window is the whole input and never moves (a slice), so positions in it
    /// stay valid for the life of the reader.
    fn is_stable(&self) -> bool;

    /// Makes more bytes available. Bytes before `keep` may be dropped.
    ///
    /// # Errors
    /// An I/O error from the underlying reader.
    fn refill(&mut self, keep: usize) -> Result<Refill>;
}

/// Input from a byte slice or string: the whole document is the window; zero copy.
/// [`JsonReader::from_slice`](crate::JsonReader::from_slice) and
/// [`JsonReader::from_str`](crate::JsonReader::from_str) build one; name the type to store
/// such a reader.
///
/// ```
/// use sluice_core::Reader;
/// use sluice_json::{JsonOptions, JsonReader, SliceInput};
///
/// struct Document<'a> {
///     reader: JsonReader<SliceInput<'a>>,
/// }
/// let text = String::from("[1, 2,]");
/// let input = SliceInput::from_text(&text);
/// let mut document = Document { reader: JsonReader::new(input, JsonOptions::relaxed()) };
/// document.reader.read_array_root()?;
/// assert_eq!(document.reader.read_u8()?, 1);
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct SliceInput<'a> {
    bytes: &'a [u8],
    utf8: bool,
}

/// The input's length, not its bytes.
impl std::fmt::Debug for SliceInput<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SliceInput")
            .field("len", &self.bytes.len())
            .field("utf8", &self.utf8)
            .finish()
    }
}

impl<'a> SliceInput<'a> {
    /// Bytes that may hold anything (UTF-8 is checked inside strings).
    #[must_use]
    pub fn new(bytes: &'a [u8]) -> SliceInput<'a> {
        SliceInput { bytes, utf8: false }
    }

    /// Text known to be UTF-8 (strings skip the check).
    #[must_use]
    pub fn from_text(text: &'a str) -> SliceInput<'a> {
        SliceInput {
            bytes: text.as_bytes(),
            utf8: true,
        }
    }
}

impl sealed::Sealed for SliceInput<'_> {}

impl Input for SliceInput<'_> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn window(&self) -> &[u8] {
        self.bytes
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn offset(&self) -> usize {
        0
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn known_utf8(&self) -> bool {
        self.utf8
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn is_stable(&self) -> bool {
        true
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn refill(&mut self, _keep: usize) -> Result<Refill> {
        Ok(Refill {
            shift: 0,
            more: false,
        })
    }
}

/// The default window size of [`IoInput`] (see [`IoInput::with_window`] for another); it
/// grows only while one token is larger than this.
pub const IO_WINDOW: usize = 64 * 1024;

/// Input from any [`io::Read`], through a window of [`IO_WINDOW`] bytes.
///
/// Memory stays bounded whatever the size of the stream: the window keeps its size while
/// every token fits in it, and a longer token (a string, a number, a key) makes it double
/// until the token fits, so it never exceeds the larger of its first size and twice the
/// longest token. Whitespace and comments, however long, never make it grow.
///
/// A read that fails with [`io::ErrorKind::Interrupted`] is tried again. Any other error
/// ([`io::ErrorKind::WouldBlock`] too: the stream must block until it has bytes) is
/// [`IO`](sluice_core::codes::IO) and final: the reader reports it again at every later
/// call and never calls the stream again. So is `Ok(0)`, the end of the input, even if the
/// stream would hand out more later. A stream that says it read more bytes than the buffer
/// it was given holds is an I/O error.
///
/// The I/O error has an empty span at the offset in the stream where the read that failed
/// would have put its bytes (every byte before it arrived), absolute like every other span
/// of the reader, and the stream's own [`io::Error`] as its
/// [`io_error`](sluice_core::Error::io_error) and
/// [`source`](std::error::Error::source), also when it is reported again.
///
/// [`JsonReader::from_read`](crate::JsonReader::from_read) builds one; name the type to
/// store such a reader.
///
/// ```
/// use std::io::Cursor;
/// use sluice_core::Reader;
/// use sluice_json::{IoInput, JsonReader};
///
/// struct Config {
///     reader: JsonReader<IoInput<Cursor<Vec<u8>>>>,
/// }
/// let mut config = Config { reader: JsonReader::from_read(Cursor::new(b"[7]".to_vec())) };
/// config.reader.read_array_root()?;
/// assert_eq!(config.reader.read_u8()?, 7);
/// # Ok::<(), sluice_core::Error>(())
/// ```
pub struct IoInput<R> {
    reader: R,
    buf: Vec<u8>,
    /// The window's size once the stream has filled it (the buffer starts at
    /// [`IO_WINDOW`] at most, and doubles up to it).
    window: usize,
    len: usize,
    offset: usize,
    eof: bool,
    /// The stream's first error, reported again by every later refill without calling it.
    failed: Option<Error>,
}

/// Where the window stands in the stream, not its bytes; any stream, `Debug` or not.
impl<R> std::fmt::Debug for IoInput<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IoInput")
            .field("offset", &self.offset)
            .field("buffered", &self.len)
            .field("capacity", &self.buf.len())
            .field("eof", &self.eof)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

impl<R: io::Read> IoInput<R> {
    /// Wraps `reader`. Nothing is read until the first token is asked for.
    pub fn new(reader: R) -> IoInput<R> {
        IoInput::with_window(reader, IO_WINDOW)
    }

    /// Wraps `reader` with a window of `size` bytes (at least 1) instead of
    /// [`IO_WINDOW`]: smaller to hold less memory per reader (the window still grows
    /// while one token needs more), larger for fewer calls to `reader`. A window larger
    /// than [`IO_WINDOW`] starts at that size and doubles as the stream fills it, so a
    /// short stream never costs the whole size.
    ///
    /// The tokens and errors are the same for every size; only memory and the number of
    /// reads change.
    ///
    /// ```
    /// use sluice_core::Reader;
    /// use sluice_json::{IoInput, JsonOptions, JsonReader};
    ///
    /// let input = IoInput::with_window(&b"[\"a long string\", 12345]"[..], 4);
    /// let mut reader = JsonReader::new(input, JsonOptions::strict());
    /// reader.read_array_root()?;
    /// assert_eq!(reader.read_str()?, "a long string");
    /// assert_eq!(reader.read_u32()?, 12345);
    /// reader.read_array_end()?;
    /// reader.finish()?;
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    pub fn with_window(reader: R, size: usize) -> IoInput<R> {
        IoInput {
            reader,
            buf: Vec::new(),
            window: size.max(1),
            len: 0,
            offset: 0,
            eof: false,
            failed: None,
        }
    }

    /// The wrapped reader. Bytes already in the window are lost to it.
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// The window's capacity now (for tests of the memory bound).
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.buf.len()
    }
}

impl<R> sealed::Sealed for IoInput<R> {}

impl<R: io::Read> Input for IoInput<R> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn window(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn offset(&self) -> usize {
        self.offset
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn known_utf8(&self) -> bool {
        false
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn is_stable(&self) -> bool {
        false
    }

    #[cold]
    fn refill(&mut self, keep: usize) -> Result<Refill> {
        let mut shift = 0;
        if let Some(err) = &self.failed {
            return Err(err.clone());
        }
        if self.eof {
            return Ok(Refill { shift, more: false });
        }
        if self.buf.is_empty() {
            // A window larger than the default one is reached by doubling as the stream
            // fills it: a large size over a short stream costs what the stream holds.
            self.buf.resize(self.window.min(IO_WINDOW), 0);
        }
        if self.len == self.buf.len() && self.buf.len() < self.window {
            let bigger = self.buf.len().saturating_mul(2).min(self.window);
            self.buf.resize(bigger, 0);
        } else if self.len == self.buf.len() {
            if keep > 0 {
                // Drop what the reader no longer needs.
                self.buf.copy_within(keep..self.len, 0);
                self.len -= keep;
                self.offset += keep;
                shift = keep;
            }
            if self.len == self.buf.len() {
                // One token fills the whole window: let it grow.
                let bigger = self.buf.len() * 2;
                self.buf.resize(bigger, 0);
            }
        }
        match read_some(&mut self.reader, &mut self.buf[self.len..]) {
            Ok(0) => {
                self.eof = true;
                Ok(Refill { shift, more: false })
            }
            Ok(n) => {
                self.len += n;
                Ok(Refill { shift, more: true })
            }
            Err(err) => {
                // Where the bytes of the failed read would have gone: the stream broke there.
                let err = Error::io(err).with_span(Span::at(self.offset + self.len));
                self.failed = Some(err.clone());
                if shift > 0 {
                    // The window has moved: the caller must learn by how much, or its
                    // positions would point past the bytes they stood for. The error comes
                    // with the next call.
                    return Ok(Refill { shift, more: true });
                }
                Err(err)
            }
        }
    }
}

/// One call of `reader.read(buf)` as std's convention has it (an interrupted read is
/// tried again, never reported), that also holds a reader to its side of the contract:
/// a count larger than `buf` is an error, not bytes that were never written (taken as
/// such, it would put the window past its end, or garbage in a block).
pub(crate) fn read_some<R: io::Read>(reader: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Ok(n) if n > buf.len() => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "the reader reported {n} bytes read into a buffer of {}",
                        buf.len()
                    ),
                ));
            }
            Ok(n) => return Ok(n),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
}
