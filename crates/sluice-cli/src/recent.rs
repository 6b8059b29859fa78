//! The recent lines of a streamed input, so that a diagnostic in streamed NDJSON shows its
//! line, column and snippet like one in a file read whole.
//!
//! The reader of a stream keeps only a small window, and spans are byte offsets. [`Tee`]
//! copies what the reader pulls into [`Recent`], which the caller releases at each record
//! start with the record's line: memory stays about one record plus the reader's window,
//! and line numbers stay exact (the reader counts the lines of released records; only a
//! record too long to keep has its dropped line breaks counted here).

use std::cell::RefCell;
use std::io::{self, Read};
use std::rc::Rc;
use std::sync::Arc;

use sluice_core::{Error, SourceText, Span};

/// Released bytes are dropped once there are this many, so the remaining bytes move once
/// per this much input rather than once per record.
const TRIM_AT: usize = 1 << 20;
/// Most bytes kept when nothing is released (one huge record); past it, half are dropped.
const CAP: usize = 16 << 20;

/// The bytes read since the start of the line of the current record.
#[derive(Debug, Default)]
pub(crate) struct Recent {
    /// Absolute offset of `bytes[0]`.
    start: usize,
    /// Line breaks before `start`.
    breaks: usize,
    /// `start` is inside a line (a line too long to keep was cut), so columns on that line
    /// are unknown.
    mid_line: bool,
    /// Absolute offset before which no error can point any more (a record start).
    released: usize,
    /// 1-based line of `released`.
    released_line: usize,
    /// The kept bytes, up to the end of what was read.
    bytes: Vec<u8>,
}

impl Recent {
    /// Says that nothing before absolute offset `offset` is needed any more: a record
    /// starts there, on 1-based line `line`.
    pub(crate) fn release(&mut self, offset: usize, line: usize) {
        if offset >= self.released {
            self.released = offset;
            self.released_line = line;
        }
    }

    fn push(&mut self, read: &[u8]) {
        self.bytes.extend_from_slice(read);
        let released = self
            .released
            .saturating_sub(self.start)
            .min(self.bytes.len());
        if released >= TRIM_AT {
            // Keep the whole line of the released offset, so snippets start at a line start;
            // the line breaks before it are known without counting them.
            match self.bytes[..released].iter().rposition(|&b| b == b'\n') {
                Some(at) => {
                    self.bytes.drain(..=at);
                    self.start += at + 1;
                    self.breaks = self.released_line.saturating_sub(1);
                    self.mid_line = false;
                }
                // One line so far: nothing can go yet, and no need to look again.
                None => self.released = self.start,
            }
        }
        if self.bytes.len() > CAP {
            let from = self.bytes.len() - CAP / 2;
            match self.bytes[from..].iter().position(|&b| b == b'\n') {
                Some(at) => self.cut(from + at + 1, false),
                None => self.cut(from, true),
            }
        }
    }

    /// Drops the first `at` bytes, counting their line breaks.
    fn cut(&mut self, at: usize, mid_line: bool) {
        self.breaks += line_breaks(&self.bytes[..at]);
        self.bytes.drain(..at);
        self.start += at;
        self.mid_line = mid_line;
    }

    /// Gives `err` the kept lines as its source, with its span made relative to them, so it
    /// renders as `name:line:column` with a snippet. An error pointing before the kept bytes
    /// is returned as it is; one on a cut line gets its line number as a note.
    pub(crate) fn locate(&self, err: Error, name: &str) -> Error {
        let Some(span) = err.span() else {
            return err;
        };
        if span.start < self.start || span.start - self.start > self.bytes.len() {
            return err;
        }
        let at = span.start - self.start;
        let from = if self.mid_line {
            match self.bytes.iter().position(|&b| b == b'\n') {
                Some(first) if first < at => first + 1,
                _ => {
                    let line = self.breaks + 1;
                    return err.with_note(format!("on line {line}"));
                }
            }
        } else {
            0
        };
        // Whole lines only: the bytes read past the error may end inside a line.
        let to = match self.bytes.iter().rposition(|&b| b == b'\n') {
            Some(last) if last >= at => last + 1,
            _ => self.bytes.len(),
        };
        let base = self.start + from;
        let source = SourceText {
            name: name.to_owned(),
            text: Arc::from(&self.bytes[from..to]),
            line_offset: self.breaks + line_breaks(&self.bytes[..from]),
        };
        err.with_span(Span::new(span.start - base, span.end.saturating_sub(base)))
            .with_shared_source(source)
    }
}

fn line_breaks(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// A reader that copies every byte it reads into a shared [`Recent`].
pub(crate) struct Tee<R> {
    /// The source.
    inner: R,
    /// Where the bytes go.
    recent: Rc<RefCell<Recent>>,
}

impl<R: Read> Tee<R> {
    /// Reads `inner`, copying into `recent`.
    pub(crate) fn new(inner: R, recent: Rc<RefCell<Recent>>) -> Tee<R> {
        Tee { inner, recent }
    }
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.recent.borrow_mut().push(&buf[..n]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_at(start: usize, end: usize) -> Error {
        Error::custom("bad").with_span(Span::new(start, end))
    }

    #[test]
    fn errors_get_the_line_and_column_of_the_whole_input() {
        let mut recent = Recent::default();
        recent.push(b"{\"a\":1}\n  {\"b\" 2}\n{\"c\"");
        recent.release(10, 2);
        let err = recent.locate(error_at(15, 16), "in.ndjson");
        let position = err.line_column().map(|p| (p.line, p.column));
        assert_eq!(position, Some((2, 8)));
    }

    #[test]
    fn released_lines_are_dropped_and_counted() {
        let mut recent = Recent::default();
        let line = [b'x'; 99];
        let mut input = Vec::new();
        for _ in 0..(3 * TRIM_AT / 100) {
            input.extend_from_slice(&line);
            input.push(b'\n');
        }
        for (lines_before, chunk) in input.chunks(4000).enumerate() {
            recent.push(chunk);
            // Records of 100 bytes, so each chunk ends where one starts.
            recent.release(
                recent.start + recent.bytes.len(),
                (lines_before + 1) * 40 + 1,
            );
        }
        assert!(
            recent.bytes.len() < TRIM_AT + 4000,
            "{}",
            recent.bytes.len()
        );
        let last_line_start = input.len() - 100;
        let err = recent.locate(error_at(last_line_start + 3, last_line_start + 4), "x");
        let position = err.line_column().map(|p| (p.line, p.column));
        assert_eq!(position, Some((input.len() / 100, 4)));
    }

    #[test]
    fn a_cut_line_gives_the_line_number_only() {
        let mut recent = Recent::default();
        recent.push(b"1\n");
        let long = vec![b' '; CAP + 1];
        recent.push(&long);
        assert!(recent.mid_line);
        let err = recent.locate(error_at(CAP, CAP + 1), "x");
        assert!(err.source_text().is_none());
        assert!(err.notes().iter().any(|n| n.contains("line 2")));
        // Before the kept bytes: left as it was.
        let err = recent.locate(error_at(0, 1), "x");
        assert!(err.source_text().is_none() && err.notes().is_empty());
    }
}
