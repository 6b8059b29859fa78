//! Where a [`MsgPackReader`](crate::MsgPackReader) gets its bytes: a slice or an `io::Read`.
//!
//! The reader is generic over [`Input`] so the slice case compiles to plain indexing with no
//! buffering at all, while the `io::Read` case keeps a window of the stream. That window grows
//! only with data actually received (doubling at most), so an input that claims a 4 GiB string
//! and then ends costs a few kilobytes, not 4 GiB.

use std::io;

use sluice_core::{Error, Result, Span};

use crate::head;

mod sealed {
    pub trait Sealed {}
}

/// A byte source for [`MsgPackReader`](crate::MsgPackReader): [`SliceInput`] or
/// [`ReadInput`]. Sealed: the reader relies on its exact behaviour.
pub trait Input: sealed::Sealed {
    /// Absolute offset of the next unread byte in the whole stream.
    fn offset(&self) -> usize;

    /// Makes up to `n` bytes available and returns all bytes available now; fewer than `n`
    /// only at the end of the input.
    ///
    /// # Errors
    /// An I/O error of the source.
    fn fill(&mut self, n: usize) -> Result<&[u8]>;

    /// Makes the header of the next value available and returns all bytes available now:
    /// its marker byte, then as many bytes as that marker says the header takes (1 to 9);
    /// fewer only at the end of the input. It asks the source for no byte past the header,
    /// so a value that has arrived whole is read without waiting for the next one.
    ///
    /// # Errors
    /// An I/O error of the source.
    fn fill_head(&mut self) -> Result<&[u8]>;

    /// Consumes `n` bytes, which a previous [`fill`](Input::fill) made available, and returns
    /// them.
    fn advance(&mut self, n: usize) -> &[u8];

    /// Consumes `n` bytes without keeping them (they need not be available yet); returns how
    /// many were there, fewer than `n` only at the end of the input.
    ///
    /// # Errors
    /// An I/O error of the source.
    fn discard(&mut self, n: u64) -> Result<u64>;

    /// Bytes left, when the input knows it up front (a slice).
    fn remaining(&self) -> Option<usize>;
}

/// A byte slice being read; strings and bytes are borrowed from it.
#[derive(Debug, Clone, Copy)]
pub struct SliceInput<'de> {
    data: &'de [u8],
    pos: usize,
}

impl<'de> SliceInput<'de> {
    pub(crate) fn new(data: &'de [u8]) -> SliceInput<'de> {
        SliceInput { data, pos: 0 }
    }

    /// Consumes `n` available bytes, returning them with the input's lifetime.
    #[inline]
    pub(crate) fn advance_borrowed(&mut self, n: usize) -> &'de [u8] {
        let data: &'de [u8] = self.data;
        let bytes = &data[self.pos..self.pos + n];
        self.pos += n;
        bytes
    }
}

impl sealed::Sealed for SliceInput<'_> {}

impl Input for SliceInput<'_> {
    #[inline]
    fn offset(&self) -> usize {
        self.pos
    }

    #[inline]
    fn fill(&mut self, _n: usize) -> Result<&[u8]> {
        Ok(&self.data[self.pos..])
    }

    #[inline]
    fn fill_head(&mut self) -> Result<&[u8]> {
        Ok(&self.data[self.pos..])
    }

    #[inline]
    fn advance(&mut self, n: usize) -> &[u8] {
        self.advance_borrowed(n)
    }

    #[inline]
    fn discard(&mut self, n: u64) -> Result<u64> {
        let left = self.data.len() - self.pos;
        let taken = usize::try_from(n).map_or(left, |n| n.min(left));
        self.pos += taken;
        Ok(taken as u64)
    }

    #[inline]
    fn remaining(&self) -> Option<usize> {
        Some(self.data.len() - self.pos)
    }
}

/// The first buffer size, and the unit the buffer grows by before doubling kicks in.
const CHUNK: usize = 8 * 1024;

/// An [`io::Read`] being read through a buffer of its own (no `BufReader` needed).
#[derive(Debug)]
pub struct ReadInput<R> {
    inner: R,
    buf: Vec<u8>,
    /// Next unread byte in `buf`.
    pos: usize,
    /// End of the valid bytes in `buf`.
    end: usize,
    /// Stream offset of `buf[0]`.
    base: usize,
    eof: bool,
}

impl<R: io::Read> ReadInput<R> {
    pub(crate) fn new(inner: R) -> ReadInput<R> {
        ReadInput {
            inner,
            buf: Vec::new(),
            pos: 0,
            end: 0,
            base: 0,
            eof: false,
        }
    }

    /// The wrapped reader (bytes already buffered are lost).
    pub(crate) fn into_inner(self) -> R {
        self.inner
    }

    fn read_more(&mut self) -> Result<usize> {
        loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(0);
                }
                Ok(read) => {
                    self.end += read;
                    return Ok(read);
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                // An empty span where the bytes of the failed read would have gone: every
                // byte before it arrived.
                Err(err) => return Err(Error::io(err).with_span(Span::at(self.base + self.end))),
            }
        }
    }

    /// [`Input::fill_head`] with fewer bytes buffered than the widest header: the marker
    /// first, then the rest of the header it starts, not a byte more (a live stream may have
    /// sent nothing after a short value yet, and waiting for the widest header would hang).
    #[inline(never)]
    fn fill_head_exact(&mut self) -> Result<&[u8]> {
        let need = match self.fill(1)?.first() {
            Some(&marker) => head::header_len(marker),
            None => 0,
        };
        self.fill(need)
    }
}

impl<R> sealed::Sealed for ReadInput<R> {}

impl<R: io::Read> Input for ReadInput<R> {
    #[inline]
    fn offset(&self) -> usize {
        self.base + self.pos
    }

    fn fill(&mut self, n: usize) -> Result<&[u8]> {
        if self.end - self.pos >= n || self.eof {
            return Ok(&self.buf[self.pos..self.end]);
        }
        // Move the unread tail to the front, then read until `n` bytes are there.
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.base += self.pos;
            self.end -= self.pos;
            self.pos = 0;
        }
        while self.end < n && !self.eof {
            if self.end == self.buf.len() {
                // Grow with the data received, never straight to a claimed length.
                let grow = self.buf.len().max(CHUNK).min(n - self.end).max(CHUNK);
                self.buf.resize(self.buf.len() + grow, 0);
            }
            self.read_more()?;
        }
        Ok(&self.buf[self.pos..self.end])
    }

    #[inline]
    fn fill_head(&mut self) -> Result<&[u8]> {
        // The widest header is buffered: nothing to ask the source for.
        if self.end - self.pos >= head::MAX_LEN {
            return Ok(&self.buf[self.pos..self.end]);
        }
        self.fill_head_exact()
    }

    #[inline]
    fn advance(&mut self, n: usize) -> &[u8] {
        let bytes = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        bytes
    }

    fn discard(&mut self, n: u64) -> Result<u64> {
        let mut left = n;
        loop {
            let buffered = (self.end - self.pos) as u64;
            let taken = buffered.min(left);
            // `taken` is at most the buffered count, a usize.
            self.pos += usize::try_from(taken).unwrap_or(0);
            left -= taken;
            if left == 0 || self.eof {
                return Ok(n - left);
            }
            // The buffer is empty: refill it in place.
            self.base += self.pos;
            self.pos = 0;
            self.end = 0;
            if self.buf.is_empty() {
                self.buf.resize(CHUNK, 0);
            }
            self.read_more()?;
        }
    }

    #[inline]
    fn remaining(&self) -> Option<usize> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use sluice_core::testing::Trickle;

    #[test]
    fn fill_gathers_bytes_across_reads_and_offsets_stay_absolute() {
        let data: Vec<u8> = (0..=255).collect();
        let mut input = ReadInput::new(Trickle::one_byte(&data));
        assert_eq!(input.fill(3).unwrap(), &[0, 1, 2]);
        assert_eq!(input.advance(2), &[0, 1]);
        assert_eq!(input.offset(), 2);
        assert_eq!(input.discard(100).unwrap(), 100);
        assert_eq!(input.offset(), 102);
        assert_eq!(input.fill(4).unwrap()[..4], [102, 103, 104, 105]);
        assert_eq!(input.discard(1000).unwrap(), 154);
        assert!(input.fill(1).unwrap().is_empty());
    }

    #[test]
    fn a_huge_fill_on_a_short_stream_allocates_only_what_arrives() {
        let data = [7u8; 100];
        let mut input = ReadInput::new(&data[..]);
        assert_eq!(input.fill(4_000_000_000).unwrap().len(), 100);
        assert!(input.buf.len() <= 2 * CHUNK);
    }
}
