//! The recent lines of a streamed input, so that a diagnostic in streamed JSON or NDJSON
//! shows its line, column and snippet like one in a file read whole.
//!
//! The reader of a stream keeps only a small window, and spans are byte offsets. [`Tee`]
//! copies what the reader pulls into [`Recent`], which the caller releases as the reader
//! moves on: NDJSON at each record start with the record's line (the reader counts the
//! lines of released records), one JSON text through [`Releaser`] every [`RELEASE_EVERY`]
//! bytes at the reader's offset, its released lines counted here. Memory stays about one
//! record (or [`TRIM_AT`] plus [`RELEASE_EVERY`]) plus the reader's window, and line numbers
//! stay exact; a line too long to keep has its dropped line breaks counted here too, and its
//! start kept (see [`Head`]).

use std::cell::RefCell;
use std::io::{self, Read};
use std::rc::Rc;
use std::sync::Arc;

use sluice_core::{Error, SourceText, Span};

/// Released bytes are dropped once there are this many, so the remaining bytes move once
/// per this much input rather than once per record.
const TRIM_AT: usize = 1 << 20;
/// Most bytes kept when nothing is released (one huge record or line); past it, half are
/// dropped.
const CAP: usize = 16 << 20;
/// [`CAP`] for one JSON text: a minified document is one long line, and its stream should
/// stay within a few MiB. An error more than about half of this into a line gets its line
/// number and byte offset, without a column.
pub(crate) const JSON_CAP: usize = 4 << 20;
/// How far a JSON reader moves between two releases by [`Releaser`].
pub(crate) const RELEASE_EVERY: usize = 1 << 20;
/// How much of the start of a line too long to keep is kept all the same ([`Head`]).
const HEAD: usize = 64 << 10;
/// How much of the lines before such a line is kept with its start, at most.
const HEAD_CONTEXT: usize = 4 << 10;
/// Bytes of the kept start needed after an error's start to show it as the whole line would
/// be (the snippet is about a hundred columns, of up to four bytes each).
const HEAD_MARGIN: usize = 4 << 10;
/// The start of the last line too long to keep, and the short lines before it that the
/// renderer shows as context: an error that starts there and is found far later (a string or a block
/// comment left open over megabytes) still gets its line, column and snippet.
#[derive(Debug)]
struct Head {
    /// Absolute offset of `bytes[0]`, a line start.
    start: usize,
    /// Line breaks before `start`.
    breaks: usize,
    /// Absolute offset where the long line starts.
    line_start: usize,
    /// 1-based number of the long line.
    line: usize,
    /// The bytes kept, from `start`.
    bytes: Vec<u8>,
}

/// The bytes read since the start of the line of the oldest byte an error may still point at.
#[derive(Debug)]
pub(crate) struct Recent {
    /// Most bytes kept ([`CAP`] or [`JSON_CAP`]).
    cap: usize,
    /// Absolute offset of `bytes[0]`.
    start: usize,
    /// Line breaks before `start`.
    breaks: usize,
    /// `start` is inside a line (a line too long to keep was cut), so columns on that line
    /// are unknown.
    mid_line: bool,
    /// Absolute offset before which no error can point any more.
    released: usize,
    /// 1-based line of `released` when the caller knows it (an NDJSON record start); `None`
    /// when the line breaks of dropped bytes are counted here instead.
    released_line: Option<usize>,
    /// No line break lies between `start` and this absolute offset (already searched), so a
    /// long line is searched once, not at every read.
    searched: usize,
    /// The kept bytes, up to the end of what was read.
    bytes: Vec<u8>,
    /// The start of the last line cut, if any.
    head: Option<Head>,
    /// The source said it has no more bytes: the last kept line is whole, with or without a
    /// line feed.
    ended: bool,
}

impl Default for Recent {
    fn default() -> Recent {
        Recent::with_cap(CAP)
    }
}

impl Recent {
    /// Keeps at most `cap` bytes.
    pub(crate) fn with_cap(cap: usize) -> Recent {
        Recent {
            cap,
            start: 0,
            breaks: 0,
            mid_line: false,
            released: 0,
            released_line: None,
            searched: 0,
            bytes: Vec::new(),
            head: None,
            ended: false,
        }
    }

    /// Says that nothing before absolute offset `offset` is needed any more: a record
    /// starts there, on 1-based line `line`.
    pub(crate) fn release(&mut self, offset: usize, line: usize) {
        if offset >= self.released {
            self.released = offset;
            self.released_line = Some(line);
        }
    }

    /// Says that nothing before absolute offset `offset` is needed any more, on a line
    /// unknown to the caller: the line breaks of the bytes dropped are counted.
    pub(crate) fn release_counting(&mut self, offset: usize) {
        if offset >= self.released {
            self.released = offset;
            self.released_line = None;
        }
    }

    fn push(&mut self, read: &[u8]) {
        self.bytes.extend_from_slice(read);
        let released = self
            .released
            .saturating_sub(self.start)
            .min(self.bytes.len());
        if released >= TRIM_AT {
            self.trim(released);
        }
        if self.bytes.len() > self.cap {
            let from = self.bytes.len() - self.cap / 2;
            match memchr::memchr(b'\n', &self.bytes[from..]) {
                Some(at) => self.cut(from + at + 1, false),
                None => self.cut(from, true),
            }
        }
    }

    /// Drops the released bytes before the line of `released` (relative), so snippets start
    /// at a line start.
    fn trim(&mut self, released: usize) {
        // Only the bytes not searched yet: none before `from` is a line break.
        let from = self.searched.saturating_sub(self.start).min(released);
        let Some(last) = memchr::memrchr(b'\n', &self.bytes[from..released]) else {
            // One line so far: nothing can go yet.
            self.searched = self.start + released;
            return;
        };
        let at = from + last + 1;
        match self.released_line {
            // The line breaks before the released line are known without counting them.
            Some(line) => self.breaks = line.saturating_sub(1),
            None => self.breaks += line_breaks(&self.bytes[..at]),
        }
        self.bytes.drain(..at);
        self.start += at;
        self.mid_line = false;
    }

    /// Drops the first `at` bytes, counting their line breaks; `mid_line` when `at` is
    /// inside a line, whose start is then kept as the [`Head`].
    fn cut(&mut self, at: usize, mid_line: bool) {
        if mid_line {
            self.keep_head(at);
        }
        self.breaks += line_breaks(&self.bytes[..at]);
        self.bytes.drain(..at);
        self.start += at;
        self.mid_line = mid_line;
    }

    /// Keeps the start of the line that relative offset `at` is in, before `at` is cut, unless
    /// it is the line already cut (its start is gone, and kept as the head).
    fn keep_head(&mut self, at: usize) {
        let line_start = match memchr::memrchr(b'\n', &self.bytes[..at]) {
            Some(last) => last + 1,
            None if self.mid_line => return,
            None => 0,
        };
        // The short lines before it, which the snippet shows too.
        let mut from = line_start;
        // As many lines before the error's as the renderer shows.
        let context = sluice_core::error::RenderOptions::default().context_lines;
        for _ in 0..context {
            if from == 0 {
                break;
            }
            let before = match memchr::memrchr(b'\n', &self.bytes[..from - 1]) {
                Some(last) => last + 1,
                // The kept bytes start a line unless the one before was cut.
                None if !self.mid_line => 0,
                None => break,
            };
            if line_start - before > HEAD_CONTEXT {
                break;
            }
            from = before;
        }
        let breaks = self.breaks + line_breaks(&self.bytes[..from]);
        let end = (line_start + HEAD).min(self.bytes.len());
        self.head = Some(Head {
            start: self.start + from,
            breaks,
            line_start: self.start + line_start,
            line: breaks + line_breaks(&self.bytes[from..line_start]) + 1,
            bytes: self.bytes[from..end].to_vec(),
        });
    }

    /// Locates `err`, which points before the kept bytes, in the [`Head`]: with a snippet
    /// when it starts near the start of the long line or before it, with the line number
    /// when it is on the long line that the kept bytes still go on with.
    fn locate_in_head(&self, err: Error, name: &str) -> Error {
        let (Some(head), Some(span)) = (&self.head, err.span()) else {
            return err;
        };
        if span.start < head.start {
            return err;
        }
        let at = span.start - head.start;
        if at + HEAD_MARGIN <= head.bytes.len() {
            let source = SourceText {
                name: name.to_owned(),
                text: Arc::from(&head.bytes[..]),
                line_offset: head.breaks,
            };
            return err
                .with_span(Span::new(at, span.end.saturating_sub(head.start)))
                .with_shared_source(source);
        }
        if self.mid_line && span.start >= head.line_start {
            let line = head.line;
            return err.with_note(format!("on line {line}"));
        }
        err
    }

    /// Gives `err` the kept lines as its source, with its span made relative to them, so it
    /// renders as `name:line:column` with a snippet. An error pointing before the kept bytes
    /// is returned as it is; one on a cut line gets its line number as a note.
    pub(crate) fn locate(&self, err: Error, name: &str) -> Error {
        let Some(span) = err.span() else {
            return err;
        };
        if span.start < self.start {
            return self.locate_in_head(err, name);
        }
        if span.start - self.start > self.bytes.len() {
            return err;
        }
        let at = span.start - self.start;
        let from = if self.mid_line {
            match memchr::memchr(b'\n', &self.bytes) {
                Some(first) if first < at => first + 1,
                _ => {
                    let line = self.breaks + 1;
                    return err.with_note(format!("on line {line}"));
                }
            }
        } else {
            0
        };
        // Whole lines only: the bytes read past the error may end inside a line, but for
        // the input's last line, shown as when the input is read whole.
        let to = match memchr::memrchr(b'\n', &self.bytes) {
            Some(last) if last >= at && !self.ended => last + 1,
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
    memchr::memchr_iter(b'\n', bytes).count()
}

/// Releases the bytes of one streamed JSON text as its reader moves on: every
/// [`RELEASE_EVERY`] bytes, at the start of the last token read or the next one, whichever
/// comes first (an error points at the token being read, or at a later byte).
#[derive(Debug)]
pub(crate) struct Releaser {
    /// The kept bytes.
    recent: Rc<RefCell<Recent>>,
    /// The reader offset of the next release.
    next: usize,
}

impl Releaser {
    /// Releases into `recent`.
    pub(crate) fn new(recent: Rc<RefCell<Recent>>) -> Releaser {
        Releaser {
            recent,
            next: RELEASE_EVERY,
        }
    }

    /// Told after each token peeked: the reader's offset (the start of the token peeked),
    /// and how to find the start of the last token read, asked only when a release is due.
    #[inline(always)]
    pub(crate) fn reached(&mut self, offset: usize, last_token: impl FnOnce() -> usize) {
        if offset >= self.next {
            self.release(offset.min(last_token()), offset);
        }
    }

    #[cold]
    #[inline(never)]
    fn release(&mut self, at: usize, offset: usize) {
        self.recent.borrow_mut().release_counting(at);
        self.next = offset + RELEASE_EVERY;
    }
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
        let mut recent = self.recent.borrow_mut();
        recent.push(&buf[..n]);
        // Nothing read into room for something: the end of the input.
        recent.ended |= n == 0 && !buf.is_empty();
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
    fn the_last_line_of_an_ended_stream_is_shown_without_its_line_feed() {
        // Read through to the end, as the reader does before an unclosed string is
        // reported: the line after the error has no line feed, and is shown all the same.
        let input = b"[\"abc\ndef\nghi";
        let recent = Rc::new(RefCell::new(Recent::default()));
        let mut tee = Tee::new(&input[..], Rc::clone(&recent));
        let mut read = Vec::new();
        tee.read_to_end(&mut read).unwrap();
        let err = recent.borrow().locate(error_at(5, 6), "in.json");
        assert_eq!(position(&err), Some((1, 6)));
        assert_eq!(err.source_text().map(|s| &s.text[..]), Some(&input[..]));
        assert!(err.render().contains("3 | ghi\n"), "{}", err.render());
        // Before the end, the bytes after the last line feed may be part of a line only.
        let recent = Rc::new(RefCell::new(Recent::default()));
        let mut tee = Tee::new(&input[..], Rc::clone(&recent));
        let mut some = [0; 12];
        tee.read_exact(&mut some).unwrap();
        let err = recent.borrow().locate(error_at(5, 6), "in.json");
        assert_eq!(err.source_text().map(|s| &s.text[..]), Some(&input[..10]));
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
        // Before the kept bytes, on the short line kept with the start of the long one.
        let err = recent.locate(error_at(0, 1), "x");
        assert_eq!(position(&err), Some((1, 1)));
    }

    /// Streams `input` in reads of `chunk` bytes through a [`Releaser`], as a JSON reader
    /// would (its offset one window behind what was read); the most bytes kept after a read.
    fn stream(recent: &Rc<RefCell<Recent>>, input: &[u8], chunk: usize) -> usize {
        let mut releaser = Releaser::new(Rc::clone(recent));
        let mut most = 0;
        let mut read = 0;
        for piece in input.chunks(chunk) {
            recent.borrow_mut().push(piece);
            read += piece.len();
            let offset = read.saturating_sub(chunk);
            releaser.reached(offset, || offset.saturating_sub(10));
            most = most.max(recent.borrow().bytes.len());
        }
        most
    }

    fn position(err: &Error) -> Option<(usize, usize)> {
        err.line_column().map(|p| (p.line, p.column))
    }

    #[test]
    fn counted_releases_keep_memory_bounded_and_lines_exact() {
        // 40 MiB of lines of varied lengths.
        let mut input = Vec::new();
        let mut lines = 0;
        while input.len() < 40 << 20 {
            input.extend_from_slice(&b"    \"key\": \"some value\","[..4 + lines % 20]);
            input.push(b'\n');
            lines += 1;
        }
        let tail = b"  {\"a\" 1}\n]\n";
        input.extend_from_slice(tail);
        let recent = Rc::new(RefCell::new(Recent::default()));
        let most = stream(&recent, &input, 1 << 16);
        assert!(most < TRIM_AT + RELEASE_EVERY + (2 << 16), "{most}");
        let recent = recent.borrow();
        assert!(!recent.mid_line);
        let at = input.len() - tail.len() + 7;
        let err = recent.locate(error_at(at, at + 1), "x");
        assert_eq!(position(&err), Some((lines + 1, 8)));
        // Long released: left as it was.
        let err = recent.locate(error_at(100, 101), "x");
        assert!(err.source_text().is_none() && err.notes().is_empty());
    }

    #[test]
    fn a_line_longer_than_a_release_keeps_its_columns() {
        let mut input = b"[\n".repeat(3 << 18);
        let line_start = input.len();
        input.extend_from_slice(&[b' '; 3 << 20]);
        input.extend_from_slice(b"x\n1\n2 3\n");
        let recent = Rc::new(RefCell::new(Recent::default()));
        stream(&recent, &input, 4000);
        let recent = recent.borrow();
        let long_line = (3 << 18) + 1;
        let at = line_start + (3 << 20);
        let err = recent.locate(error_at(at, at + 1), "x");
        assert_eq!(position(&err), Some((long_line, (3 << 20) + 1)));
        let at = input.len() - 2;
        let err = recent.locate(error_at(at, at + 1), "x");
        assert_eq!(position(&err), Some((long_line + 2, 3)));
    }

    #[test]
    fn an_error_at_the_start_of_a_line_too_long_to_keep_keeps_its_place_and_snippet() {
        // A string left open at the start of line 3 runs to the end of the input, megabytes
        // later: the error, found there, points at its start, long cut from the kept bytes.
        let mut input = b"[1,\n2,\n\"".to_vec();
        input.resize(JSON_CAP + (2 << 20), b'a');
        // No token is read while the string is scanned, so nothing is released.
        let mut recent = Recent::with_cap(JSON_CAP);
        for chunk in input.chunks(1 << 16) {
            recent.push(chunk);
        }
        assert!(recent.mid_line && recent.start > 8);
        let err = recent.locate(error_at(7, input.len()), "x");
        assert_eq!(position(&err), Some((3, 1)));
        let rendered = err.render();
        assert!(
            rendered.contains("1 | [1,\n2 | 2,\n3 | \"aaaa"),
            "{rendered}"
        );
        assert!(rendered.contains("3 | \"aaaa") && rendered.contains("\n  | ^^^^"));
        // A span whose fields were set out of order is located by its start.
        let backwards = Error::custom("bad").with_span(Span { start: 7, end: 2 });
        assert_eq!(position(&recent.locate(backwards, "x")), Some((3, 1)));
        // Deeper into that line than its start kept: its line number.
        let err = recent.locate(error_at(HEAD, HEAD + 1), "x");
        assert!(err.source_text().is_none());
        assert_eq!(err.notes(), ["on line 3"]);
    }

    #[test]
    fn a_line_too_long_to_keep_gives_its_number_with_counted_releases() {
        for cap in [CAP, JSON_CAP] {
            a_line_longer_than(cap);
        }
    }

    fn a_line_longer_than(cap: usize) {
        let mut input = b"[\n\n".to_vec();
        while input.len() < cap + (4 << 20) {
            input.extend_from_slice(b"{\"k\":[1,2.5,true,null]},");
        }
        let recent = Rc::new(RefCell::new(Recent::with_cap(cap)));
        let most = stream(&recent, &input, 1 << 16);
        assert!(most <= cap + (1 << 16), "{most}");
        let recent = recent.borrow();
        assert!(recent.mid_line);
        let at = input.len() - 3;
        let err = recent.locate(error_at(at, at + 1), "x");
        assert!(err.source_text().is_none());
        assert!(err.notes().iter().any(|n| n.contains("line 3")));
    }
}
