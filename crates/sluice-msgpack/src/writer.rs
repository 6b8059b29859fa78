//! [`MsgPackWriter`]: tokens as MessagePack bytes, always in the smallest encoding.
//!
//! MessagePack puts a container's length in front of it, but a streaming source (a JSON
//! reader) only knows it at the end. The writer therefore reserves the largest header (5
//! bytes) for a container of unknown length, counts its items, and fills the real header in
//! when the container ends. The unused reserved bytes are left out when the buffer is written
//! out, in one pass, so the output is exactly what a writer knowing the lengths would produce.
//! Output is buffered and handed to the `io::Write` whenever no container of unknown length
//! is open and the buffer is large, and always on [`finish`](Writer::finish).

use std::io;

use sluice_core::{Error, Ext, Number, NumberHint, Result, Writer, codes as core_codes};

use crate::{Timestamp, codes};

/// Settings of a [`MsgPackWriter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WriterOptions {
    /// Write an `f64` as a float 32 when that keeps its exact bits (default `false`: an `f64`
    /// stays 64 bits, as an `f32` always stays 32). Saves 4 bytes per such float, at the cost
    /// of readers seeing `F32` where an `f64` was written.
    pub compact_floats: bool,
}

/// The bytes reserved for a header whose length is not known yet (array32/map32).
const RESERVED: usize = 5;
/// A closed container of unknown length with at most this many bytes of content and no gap
/// inside is moved into place at once; a larger one keeps its gap until the flush (so no
/// byte is moved more than once per nesting level of small containers).
const SHIFT_LIMIT: usize = 1024;
/// Buffered bytes that trigger a write to the sink, when nothing is waiting for a length.
const FLUSH_AT: usize = 64 * 1024;
/// The item budget of the top level and of containers of unknown length: never used up, and
/// even, so that in a map the parity of what is left is the parity of what was written.
const UNLIMITED: u64 = u64::MAX - 1;

/// A container being written (or the top level).
#[derive(Debug, Clone, Copy)]
struct Frame {
    /// Items (a map counts keys and values) that may still be written: the declared count
    /// minus those written, or what is left of [`UNLIMITED`].
    left: u64,
    /// What `left` started at.
    start: u64,
    /// Index into `patches` of the reserved header, for containers of unknown length.
    patch: usize,
    map: bool,
    /// The caller gave the length.
    declared: bool,
}

impl Frame {
    const TOP: Frame = Frame {
        left: UNLIMITED,
        start: UNLIMITED,
        patch: usize::MAX,
        map: false,
        declared: false,
    };

    fn written(&self) -> u64 {
        self.start - self.left
    }
}

/// A reserved header: `used` of its `RESERVED` bytes are the real header once known.
#[derive(Debug, Clone, Copy)]
struct Patch {
    at: usize,
    used: u8,
}

/// Writes tokens as MessagePack into a `Vec<u8>` or any [`io::Write`].
///
/// Integers take the smallest form (a negative value the smallest signed one, a non-negative
/// value the smallest unsigned one or a fixint), as do str, bin, ext, array and map headers;
/// `f32` stays 32 bits and `f64` 64 bits (see [`WriterOptions::compact_floats`]). JSON number
/// text is parsed: integers take the smallest integer form (`-0` is the `f64` -0.0, so its
/// sign survives), floats become `f64`, integers
/// beyond 64 bits are [`INTEGER_TOO_LARGE`](codes::INTEGER_TOO_LARGE). `Name` and `String`
/// are both str. Container lengths may be given (then checked:
/// [`LENGTH_MISMATCH`](codes::LENGTH_MISMATCH)) or left to the writer. Several top-level
/// values may be written one after another.
///
/// ```
/// use sluice_core::{Number, NumberHint, Writer};
/// use sluice_msgpack::MsgPackWriter;
/// let mut writer = MsgPackWriter::new(Vec::new());
/// writer.write_array_root(None)?;
/// writer.write_number(Number::Text("300", NumberHint::Integer))?; // uint 16
/// writer.write_i64(-1)?;                                          // negative fixint
/// writer.write_f32(0.5)?;                                         // float 32
/// writer.write_array_end()?;
/// assert_eq!(
///     writer.into_inner()?,
///     [0x93, 0xcd, 0x01, 0x2c, 0xff, 0xca, 0x3f, 0x00, 0x00, 0x00]
/// );
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug)]
pub struct MsgPackWriter<W: io::Write> {
    out: W,
    buf: Vec<u8>,
    /// The innermost open container, or the top level.
    frame: Frame,
    /// The frames enclosing `frame`, outermost (the top level) first.
    stack: Vec<Frame>,
    patches: Vec<Patch>,
    /// Containers of unknown length still open; while any is, nothing is flushed.
    open_patches: usize,
    /// The buffer is handed to the sink once it holds this much: [`FLUSH_AT`], or never
    /// while a container of unknown length is open.
    flush_at: usize,
    options: WriterOptions,
}

fn structure(message: impl Into<String>) -> Error {
    Error::new(core_codes::INVALID_STRUCTURE, message)
}

#[cold]
fn too_long(what: &str, len: usize) -> Error {
    Error::new(
        codes::LENGTH_TOO_LARGE,
        format!("{what} of length {len} is beyond MessagePack's 32-bit lengths"),
    )
}

impl<W: io::Write> MsgPackWriter<W> {
    /// A writer into `out` (a `Vec<u8>`, a file, a socket...), with default options.
    #[must_use]
    pub fn new(out: W) -> MsgPackWriter<W> {
        MsgPackWriter {
            out,
            buf: Vec::with_capacity(1024),
            frame: Frame::TOP,
            stack: Vec::new(),
            patches: Vec::new(),
            open_patches: 0,
            flush_at: FLUSH_AT,
            options: WriterOptions::default(),
        }
    }

    /// Replaces the options.
    #[must_use]
    pub fn with_options(mut self, options: WriterOptions) -> MsgPackWriter<W> {
        self.options = options;
        self
    }

    /// Finishes (see [`Writer::finish`]) and returns the sink.
    ///
    /// # Errors
    /// As [`Writer::finish`].
    pub fn into_inner(mut self) -> Result<W> {
        self.finish()?;
        Ok(self.out)
    }

    /// The sink; bytes still buffered in the writer are not in it yet.
    #[must_use]
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// Writes a timestamp extension in its smallest size.
    ///
    /// ```
    /// use sluice_msgpack::{MsgPackWriter, Timestamp};
    /// let mut writer = MsgPackWriter::new(Vec::new());
    /// writer.write_timestamp(Timestamp { seconds: 1, nanos: 0 })?;
    /// assert_eq!(writer.into_inner()?, [0xd6, 0xff, 0, 0, 0, 1]);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`INVALID_TIMESTAMP`](codes::INVALID_TIMESTAMP) when `nanos` is a second or more, or as
    /// [`Writer::write_ext`].
    pub fn write_timestamp(&mut self, timestamp: Timestamp) -> Result<()> {
        let bytes = timestamp.to_ext()?;
        self.write_ext(bytes.as_ext())
    }

    /// Counts one item in the open container, checking its declared length.
    #[inline(always)]
    fn item(&mut self) -> Result<()> {
        if self.frame.left == 0 {
            return Err(self.overflow());
        }
        self.frame.left -= 1;
        Ok(())
    }

    #[cold]
    fn overflow(&self) -> Error {
        let (what, count) = match self.frame {
            _ if self.stack.is_empty() => ("value", 0),
            frame if frame.map => ("map", frame.start / 2),
            frame => ("array", frame.start),
        };
        Error::new(
            codes::LENGTH_MISMATCH,
            format!("{what} was declared with {count} item(s), and one more was written"),
        )
    }

    #[inline(always)]
    fn in_key_position(&self) -> bool {
        // Maps start from an even budget: an even number left is an even number written.
        self.frame.map && self.frame.left.is_multiple_of(2)
    }

    #[inline(always)]
    fn write_len_header(&mut self, len: usize, fix: u8, fix_max: usize, markers: [u8; 3]) {
        // `markers`: 8-bit, 16-bit and 32-bit forms (0 when the kind has no 8-bit form).
        // Lengths were checked against u32::MAX by the callers, so the casts are exact.
        #[allow(clippy::cast_possible_truncation)]
        if fix != 0 && len <= fix_max {
            self.buf.push(fix | len as u8);
        } else if markers[0] != 0 && len <= 0xff {
            self.buf.extend_from_slice(&[markers[0], len as u8]);
        } else if len <= 0xffff {
            self.buf.push(markers[1]);
            self.buf.extend_from_slice(&(len as u16).to_be_bytes());
        } else {
            self.buf.push(markers[2]);
            self.buf.extend_from_slice(&(len as u32).to_be_bytes());
        }
    }

    #[inline(always)]
    fn write_str_bytes(&mut self, value: &str) -> Result<()> {
        let len = value.len();
        if len > u32::MAX as usize {
            return Err(too_long("str", len));
        }
        self.item()?;
        self.buf.reserve(len + 5);
        self.write_len_header(len, 0xa0, 31, [0xd9, 0xda, 0xdb]);
        self.buf.extend_from_slice(value.as_bytes());
        self.maybe_flush()
    }

    #[inline(always)]
    fn write_uint(&mut self, v: u64) {
        #[allow(clippy::cast_possible_truncation)]
        if v <= 0x7f {
            self.buf.push(v as u8);
        } else if v <= 0xff {
            self.buf.extend_from_slice(&[0xcc, v as u8]);
        } else if v <= 0xffff {
            self.put(0xcd, &(v as u16).to_be_bytes());
        } else if v <= 0xffff_ffff {
            self.put(0xce, &(v as u32).to_be_bytes());
        } else {
            self.put(0xcf, &v.to_be_bytes());
        }
    }

    #[inline(always)]
    fn write_int(&mut self, v: i64) {
        if v >= 0 {
            return self.write_uint(v.unsigned_abs());
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        if v >= -32 {
            self.buf.push(v as i8 as u8);
        } else if v >= i64::from(i8::MIN) {
            self.buf.extend_from_slice(&[0xd0, v as i8 as u8]);
        } else if v >= i64::from(i16::MIN) {
            self.put(0xd1, &(v as i16).to_be_bytes());
        } else if v >= i64::from(i32::MIN) {
            self.put(0xd2, &(v as i32).to_be_bytes());
        } else {
            self.put(0xd3, &v.to_be_bytes());
        }
    }

    #[inline]
    fn write_f32_bits(&mut self, v: f32) {
        self.put(0xca, &v.to_bits().to_be_bytes());
    }

    /// Appends a marker and its fixed-size field with one capacity check.
    #[inline]
    fn put<const N: usize>(&mut self, marker: u8, field: &[u8; N]) {
        let mut bytes = [0u8; 9];
        bytes[0] = marker;
        bytes[1..=N].copy_from_slice(field);
        self.buf.extend_from_slice(&bytes[..=N]);
    }

    #[inline]
    fn write_f64_bits(&mut self, v: f64) {
        #[allow(clippy::cast_possible_truncation)]
        let narrow = v as f32;
        if self.options.compact_floats && f64::from(narrow).to_bits() == v.to_bits() {
            return self.write_f32_bits(narrow);
        }
        self.put(0xcb, &v.to_bits().to_be_bytes());
    }

    #[inline(always)]
    fn open(&mut self, len: Option<usize>, map: bool) -> Result<()> {
        let (fix, markers) = if map {
            (0x80, [0, 0xde, 0xdf])
        } else {
            (0x90, [0, 0xdc, 0xdd])
        };
        let Some(len) = len else {
            return self.open_unknown(map);
        };
        if len > u32::MAX as usize {
            return Err(too_long(if map { "map" } else { "array" }, len));
        }
        self.item()?;
        self.write_len_header(len, fix, 15, markers);
        let start = if map { 2 * len as u64 } else { len as u64 };
        self.stack.push(self.frame);
        self.frame = Frame {
            left: start,
            start,
            patch: usize::MAX,
            map,
            declared: true,
        };
        Ok(())
    }

    /// Opens a container whose length is learned at its end: its header is reserved.
    #[inline(never)]
    fn open_unknown(&mut self, map: bool) -> Result<()> {
        self.item()?;
        #[allow(clippy::cast_possible_truncation)]
        self.patches.push(Patch {
            at: self.buf.len(),
            used: RESERVED as u8,
        });
        self.buf.extend_from_slice(&[0; RESERVED]);
        self.open_patches += 1;
        self.flush_at = usize::MAX;
        self.stack.push(self.frame);
        self.frame = Frame {
            left: UNLIMITED,
            start: UNLIMITED,
            patch: self.patches.len() - 1,
            map,
            declared: false,
        };
        Ok(())
    }

    #[inline(always)]
    fn close(&mut self, map: bool) -> Result<()> {
        // A container of declared length, complete: nothing to check or patch.
        if self.frame.declared && self.frame.left == 0 && self.frame.map == map {
            if let Some(parent) = self.stack.pop() {
                self.frame = parent;
            }
            return self.maybe_flush();
        }
        self.close_general(map)
    }

    #[inline(never)]
    fn close_general(&mut self, map: bool) -> Result<()> {
        let what = if map { "map" } else { "array" };
        let frame = self.frame;
        if self.stack.is_empty() {
            return Err(structure(format!("{what} end without an open {what}")));
        }
        if frame.map != map {
            let open = if frame.map { "map" } else { "array" };
            return Err(structure(format!("{what} end while a {open} is open")));
        }
        if map && frame.written() % 2 == 1 {
            return Err(structure("map end after a key with no value"));
        }
        if frame.declared {
            let (declared, written) = if map {
                (frame.start / 2, frame.written() / 2)
            } else {
                (frame.start, frame.written())
            };
            return Err(Error::new(
                codes::LENGTH_MISMATCH,
                format!("{what} was declared with {declared} item(s) but got {written}"),
            ));
        }
        let len = if map {
            frame.written() / 2
        } else {
            frame.written()
        };
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        if len > u32::MAX as usize {
            return Err(too_long(what, len));
        }
        // Write the real header at the end of the buffer, then move it into place.
        let end = self.buf.len();
        let (fix, markers) = if map {
            (0x80, [0, 0xde, 0xdf])
        } else {
            (0x90, [0, 0xdc, 0xdd])
        };
        self.write_len_header(len, fix, 15, markers);
        let used = self.buf.len() - end;
        let at = self.patches[frame.patch].at;
        self.buf.copy_within(end.., at);
        self.buf.truncate(end);
        let content = end - at - RESERVED;
        if frame.patch + 1 == self.patches.len() && content <= SHIFT_LIMIT {
            // No gap inside and little to move: close the gap now (one short memmove)
            // instead of leaving it for the flush.
            self.buf.copy_within(at + RESERVED..end, at + used);
            self.buf.truncate(end - (RESERVED - used));
            self.patches.pop();
        } else {
            #[allow(clippy::cast_possible_truncation)]
            {
                self.patches[frame.patch].used = used as u8;
            }
        }
        self.open_patches -= 1;
        if self.open_patches == 0 {
            self.flush_at = FLUSH_AT;
        }
        if let Some(parent) = self.stack.pop() {
            self.frame = parent;
        }
        self.maybe_flush()
    }

    #[inline(always)]
    fn maybe_flush(&mut self) -> Result<()> {
        if self.buf.len() >= self.flush_at {
            self.flush_buffer()?;
        }
        Ok(())
    }

    /// Hands the buffer to the sink, leaving out the unused bytes of reserved headers (all
    /// final here: nothing is flushed while a container of unknown length is open).
    ///
    /// When the sink fails, the bytes it did not take stay buffered, as one piece without
    /// reserved bytes, and the next flush sends them: each byte reaches the sink once.
    fn flush_buffer(&mut self) -> Result<()> {
        let MsgPackWriter {
            out, buf, patches, ..
        } = self;
        let mut pieces = output_pieces(patches, buf.len());
        while let Some(piece) = pieces.next() {
            let (written, result) = sluice_core::write_counted(out, &buf[piece.clone()]);
            if let Err(err) = result {
                let mut rest = buf[piece.start + written..piece.end].to_vec();
                for piece in pieces {
                    rest.extend_from_slice(&buf[piece]);
                }
                *buf = rest;
                patches.clear();
                return Err(Error::io(err));
            }
        }
        drop(pieces);
        buf.clear();
        patches.clear();
        Ok(())
    }
}

/// The ranges of a buffer of `len` bytes that make the output: all of it but the unused
/// bytes of each reserved header in `patches`.
fn output_pieces(patches: &[Patch], len: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    let ends = patches
        .iter()
        .map(|patch| (patch.at + usize::from(patch.used), patch.at + RESERVED))
        .chain(std::iter::once((len, len)));
    ends.scan(0, |from, (end, next)| {
        let piece = *from..end;
        *from = next;
        Some(piece)
    })
}

impl<W: io::Write> Writer for MsgPackWriter<W> {
    #[inline]
    fn write_null(&mut self) -> Result<()> {
        self.item()?;
        self.buf.push(0xc0);
        self.maybe_flush()
    }

    #[inline]
    fn write_bool(&mut self, value: bool) -> Result<()> {
        self.item()?;
        self.buf.push(if value { 0xc3 } else { 0xc2 });
        self.maybe_flush()
    }

    #[inline(always)]
    fn write_str(&mut self, value: &str) -> Result<()> {
        self.write_str_bytes(value)
    }

    #[inline(always)]
    fn write_name(&mut self, name: &str) -> Result<()> {
        if !self.in_key_position() {
            return Err(structure("a name written where no map key is expected"));
        }
        self.write_str_bytes(name)
    }

    #[inline]
    fn write_number(&mut self, number: Number<'_>) -> Result<()> {
        // The typed forms a reader hands out, straight through.
        match number {
            Number::F64(v) => return self.write_f64(v),
            Number::U64(v) => return self.write_u64(v),
            Number::I64(v) => return self.write_i64(v),
            _ => {}
        }
        let number = match number {
            Number::Text(text, hint) => match number.to_typed() {
                Ok(typed) => typed,
                Err(err) if hint == NumberHint::Float => return Err(err),
                Err(_) => return Err(too_large_integer(&text)),
            },
            typed => typed,
        };
        // Decide the encoding before counting the item, so a refused number leaves no trace.
        enum Encoding {
            Uint(u64),
            Int(i64),
            F32(f32),
            F64(f64),
        }
        let encoding = match number {
            Number::U64(v) => Encoding::Uint(v),
            Number::I64(v) => Encoding::Int(v),
            Number::I128(v) => match (u64::try_from(v), i64::try_from(v)) {
                (Ok(v), _) => Encoding::Uint(v),
                (_, Ok(v)) => Encoding::Int(v),
                _ => return Err(too_large_integer(&v)),
            },
            Number::U128(v) => match u64::try_from(v) {
                Ok(v) => Encoding::Uint(v),
                Err(_) => return Err(too_large_integer(&v)),
            },
            Number::F32(v) => Encoding::F32(v),
            Number::F64(v) => Encoding::F64(v),
            // `to_typed` never returns text; parsing it again keeps this total anyway.
            Number::Text(..) => Encoding::F64(number.to_f64()?),
        };
        self.item()?;
        match encoding {
            Encoding::Uint(v) => self.write_uint(v),
            Encoding::Int(v) => self.write_int(v),
            Encoding::F32(v) => self.write_f32_bits(v),
            Encoding::F64(v) => self.write_f64_bits(v),
        }
        self.maybe_flush()
    }

    #[inline]
    fn write_i64(&mut self, value: i64) -> Result<()> {
        self.item()?;
        self.write_int(value);
        self.maybe_flush()
    }

    #[inline]
    fn write_u64(&mut self, value: u64) -> Result<()> {
        self.item()?;
        self.write_uint(value);
        self.maybe_flush()
    }

    #[inline]
    fn write_f32(&mut self, value: f32) -> Result<()> {
        self.item()?;
        self.write_f32_bits(value);
        self.maybe_flush()
    }

    #[inline]
    fn write_f64(&mut self, value: f64) -> Result<()> {
        self.item()?;
        self.write_f64_bits(value);
        self.maybe_flush()
    }

    fn write_blob(&mut self, value: &[u8]) -> Result<()> {
        let len = value.len();
        if len > u32::MAX as usize {
            return Err(too_long("bin", len));
        }
        self.item()?;
        self.write_len_header(len, 0, 0, [0xc4, 0xc5, 0xc6]);
        self.buf.extend_from_slice(value);
        self.maybe_flush()
    }

    fn write_ext(&mut self, ext: Ext<'_>) -> Result<()> {
        let len = ext.data.len();
        if len > u32::MAX as usize {
            return Err(too_long("ext", len));
        }
        self.item()?;
        #[allow(clippy::cast_sign_loss)]
        let kind = ext.kind as u8;
        #[allow(clippy::cast_possible_truncation)]
        match len {
            1 => self.buf.extend_from_slice(&[0xd4, kind]),
            2 => self.buf.extend_from_slice(&[0xd5, kind]),
            4 => self.buf.extend_from_slice(&[0xd6, kind]),
            8 => self.buf.extend_from_slice(&[0xd7, kind]),
            16 => self.buf.extend_from_slice(&[0xd8, kind]),
            0..=0xff => self.buf.extend_from_slice(&[0xc7, len as u8, kind]),
            0x100..=0xffff => {
                self.buf.push(0xc8);
                self.buf.extend_from_slice(&(len as u16).to_be_bytes());
                self.buf.push(kind);
            }
            _ => {
                self.buf.push(0xc9);
                self.buf.extend_from_slice(&(len as u32).to_be_bytes());
                self.buf.push(kind);
            }
        }
        self.buf.extend_from_slice(ext.data);
        self.maybe_flush()
    }

    #[inline(always)]
    fn write_map_root(&mut self, len: Option<usize>) -> Result<()> {
        self.open(len, true)
    }

    #[inline(always)]
    fn write_map_end(&mut self) -> Result<()> {
        self.close(true)
    }

    #[inline(always)]
    fn write_array_root(&mut self, len: Option<usize>) -> Result<()> {
        self.open(len, false)
    }

    #[inline(always)]
    fn write_array_end(&mut self) -> Result<()> {
        self.close(false)
    }

    /// Checks that every container was closed, then writes everything buffered and flushes
    /// the sink.
    fn finish(&mut self) -> Result<()> {
        if !self.stack.is_empty() {
            let what = if self.frame.map { "map" } else { "array" };
            return Err(structure(format!(
                "finished with {} container(s) still open (the innermost is a {what})",
                self.stack.len()
            )));
        }
        self.flush_buffer()?;
        self.out.flush()?;
        Ok(())
    }
}

#[cold]
fn too_large_integer(value: &dyn std::fmt::Display) -> Error {
    Error::new(
        codes::INTEGER_TOO_LARGE,
        format!("integer {value} is beyond MessagePack's 64-bit integers"),
    )
}
