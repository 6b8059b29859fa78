//! Byte spans into the source.
//!
//! Readers record the byte range of every token they return; nothing counts lines while
//! reading. Line and column are computed from the byte offset only when an error is shown
//! (see [`LineIndex`]), so the hot path pays nothing for good diagnostics.

use std::fmt;

/// A half-open byte range `start..end` in the source of a stream.
///
/// ```
/// use sluice_core::Span;
/// let span = Span::new(4, 9);
/// assert_eq!(span.len(), 5);
/// assert_eq!(&"let x = 42;"[span.range()], "x = 4");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`; `end` is raised to `start` if it is smaller.
    #[must_use]
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start,
            end: end.max(start),
        }
    }

    /// An empty span at `offset`, for "something was expected here".
    #[must_use]
    pub fn at(offset: usize) -> Span {
        Span {
            start: offset,
            end: offset,
        }
    }

    /// Number of bytes covered.
    #[must_use]
    pub fn len(self) -> usize {
        self.end - self.start
    }

    /// Whether the span covers no byte.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The span as a range, to index the source.
    #[must_use]
    pub fn range(self) -> std::ops::Range<usize> {
        self.start..self.end
    }

    /// The smallest span covering both.
    #[must_use]
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// The span moved forward by `offset` bytes (a record's span inside a whole file).
    #[must_use]
    pub fn shifted(self, offset: usize) -> Span {
        Span::new(self.start + offset, self.end + offset)
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// A 1-based line and column (columns count characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LineColumn {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in Unicode scalar values.
    pub column: usize,
}

impl fmt::Display for LineColumn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Turns byte offsets into lines and columns, on demand.
///
/// Built from the source when an error is shown. A line ends at `\n` (so `\r\n` ends one
/// too, its `\r` not shown); a lone `\r` does not end a line. That is how serde_json counts
/// lines, and how NDJSON separates records: a record's line number and the line its errors
/// are shown on are the same. The source is bytes, so a document with invalid UTF-8 can
/// still be shown (invalid sequences display as `U+FFFD` without moving any offset). A
/// UTF-8 byte order mark at the very start of the input is not part of the first line:
/// editors hide it, so it takes no column there ([`LineIndex::continuing`] indexes text
/// that does not start its input, where U+FEFF is a character).
///
/// ```
/// use sluice_core::span::LineIndex;
/// let index = LineIndex::new("ab\r\ncd\né".as_bytes());
/// assert_eq!(index.line_column(5).line, 2);
/// assert_eq!(index.line_column(5).column, 2);
/// assert_eq!(index.line_text(3), "é");
/// ```
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a [u8],
    /// Byte offset where each line starts.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes the line starts of `text`, which starts its input (a byte order mark at its
    /// start is hidden).
    #[must_use]
    pub fn new(text: &'a [u8]) -> LineIndex<'a> {
        LineIndex::indexed(text, true)
    }

    /// Indexes the line starts of `text` that does not start its input (the lines kept
    /// around an NDJSON record, the tail of a stream): a U+FEFF at its start is an
    /// ordinary character, as it is at that place of the whole input.
    ///
    /// ```
    /// use sluice_core::span::LineIndex;
    /// let line = "\u{FEFF}{}".as_bytes();
    /// assert_eq!(LineIndex::new(line).line_column(3).column, 1);
    /// assert_eq!(LineIndex::continuing(line).line_column(3).column, 2);
    /// ```
    #[must_use]
    pub fn continuing(text: &'a [u8]) -> LineIndex<'a> {
        LineIndex::indexed(text, false)
    }

    fn indexed(text: &'a [u8], starts_input: bool) -> LineIndex<'a> {
        let first = if starts_input && text.starts_with(BYTE_ORDER_MARK) {
            BYTE_ORDER_MARK.len()
        } else {
            0
        };
        let mut starts = vec![first];
        for (i, &byte) in text.iter().enumerate().skip(first) {
            if byte == b'\n' {
                starts.push(i + 1);
            }
        }
        LineIndex { text, starts }
    }

    /// Number of lines (an empty text has one empty line).
    #[must_use]
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The 0-based line that holds `offset` (offsets past the end map to the last line).
    #[must_use]
    pub fn line_of(&self, offset: usize) -> usize {
        // Offsets inside a leading byte order mark, before the first line's start, are on it.
        self.starts
            .partition_point(|&start| start <= offset)
            .saturating_sub(1)
    }

    /// The bytes of 1-based `line`, without its line terminator.
    #[must_use]
    pub fn line_bytes(&self, line: usize) -> &'a [u8] {
        let index = line.saturating_sub(1).min(self.starts.len() - 1);
        let start = self.starts[index];
        let end = self
            .starts
            .get(index + 1)
            .copied()
            .unwrap_or(self.text.len());
        let mut bytes = &self.text[start..end];
        if let [rest @ .., b'\n'] = bytes {
            bytes = rest;
        }
        // The `\r` of a `\r\n`, or one that ends the text.
        if let [rest @ .., b'\r'] = bytes {
            bytes = rest;
        }
        bytes
    }

    /// The text of 1-based `line`, without its line terminator (invalid UTF-8 replaced).
    #[must_use]
    pub fn line_text(&self, line: usize) -> std::borrow::Cow<'a, str> {
        String::from_utf8_lossy(self.line_bytes(line))
    }

    /// Byte offset where 1-based `line` starts.
    #[must_use]
    pub fn line_start(&self, line: usize) -> usize {
        self.starts[line.saturating_sub(1).min(self.starts.len() - 1)]
    }

    /// The 1-based line and character column of a byte `offset`.
    ///
    /// An offset inside a multi-byte character counts as that character's column. An offset
    /// in the line's terminator (the `\n`, or either byte of a `\r\n`) is at the column
    /// right after the line's last character, where a caret under it is shown: the same
    /// column whatever the file's line endings.
    #[must_use]
    pub fn line_column(&self, offset: usize) -> LineColumn {
        let offset = offset.min(self.text.len());
        let line = self.line_of(offset);
        let start = self.starts[line];
        let bytes = self.line_bytes(line + 1);
        let within = character_start(bytes, offset.saturating_sub(start).min(bytes.len()));
        let column = String::from_utf8_lossy(&bytes[..within]).chars().count() + 1;
        LineColumn {
            line: line + 1,
            column,
        }
    }
}

/// Where the character that byte `at` of `bytes` falls in starts: `at` itself unless it is
/// inside a multi-byte character, or inside a sequence cut short that is shown as one
/// `U+FFFD` (as `String::from_utf8_lossy` shows it); other bytes that form no character
/// stand alone, as they are shown.
pub(crate) fn character_start(bytes: &[u8], at: usize) -> usize {
    for back in 1..=at.min(3) {
        let lead = at - back;
        if (0x80..=0xBF).contains(&bytes[lead]) {
            continue;
        }
        return if shown_len(&bytes[lead..]) > back {
            lead
        } else {
            at
        };
    }
    at
}

/// Where the character that byte `at - 1` of `bytes` falls in ends: a span that ends inside
/// a character covers all of it.
pub(crate) fn character_end(bytes: &[u8], at: usize) -> usize {
    let start = character_start(bytes, at);
    if start == at {
        return at;
    }
    start + shown_len(&bytes[start..])
}

/// How many bytes at the start of `bytes` (not empty) are shown as one character: a UTF-8
/// character, or the longest start of one that is cut short (one `U+FFFD`), else one byte.
fn shown_len(bytes: &[u8]) -> usize {
    // No character, whole or cut short, is longer than four bytes.
    let head = &bytes[..bytes.len().min(4)];
    match std::str::from_utf8(head) {
        Ok(text) => text.chars().next().map_or(1, char::len_utf8),
        Err(err) if err.valid_up_to() > 0 => head[..err.valid_up_to()]
            .utf8_chunks()
            .next()
            .and_then(|chunk| chunk.valid().chars().next())
            .map_or(1, char::len_utf8),
        // `None`: cut short by the end of the line, where it is one `U+FFFD` as well.
        Err(err) => err.error_len().unwrap_or(head.len()),
    }
}

/// The UTF-8 encoding of U+FEFF, which some editors write at the start of a file.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leading_byte_order_mark_takes_no_column() {
        let index = LineIndex::new(b"\xEF\xBB\xBF{\"a\" 1}\n[2]");
        // `1` is byte 8 of the text, the sixth character after the mark.
        assert_eq!(index.line_column(8), LineColumn { line: 1, column: 6 });
        assert_eq!(index.line_column(0), LineColumn { line: 1, column: 1 });
        assert_eq!(index.line_column(2), LineColumn { line: 1, column: 1 });
        assert_eq!(index.line_column(11), LineColumn { line: 2, column: 1 });
        assert_eq!(index.line_text(1), "{\"a\" 1}");
        assert_eq!(index.line_start(1), 3);
        // Elsewhere U+FEFF is an ordinary character.
        let index = LineIndex::new("a\u{FEFF}b".as_bytes());
        assert_eq!(index.line_column(4), LineColumn { line: 1, column: 3 });
    }

    #[test]
    fn line_column_counts_characters_and_line_feeds() {
        let index = LineIndex::new("a\nb\r\ncdé x\n".as_bytes());
        assert_eq!(index.line_count(), 4);
        assert_eq!(index.line_column(0), LineColumn { line: 1, column: 1 });
        assert_eq!(index.line_column(2), LineColumn { line: 2, column: 1 });
        assert_eq!(index.line_column(5), LineColumn { line: 3, column: 1 });
        // 'x' is after 'c', 'd', 'é' (2 bytes) and a space: column 5.
        assert_eq!(index.line_column(10), LineColumn { line: 3, column: 5 });
        assert_eq!(index.line_text(2), "b");
        assert_eq!(index.line_text(3), "cdé x");
        assert_eq!(index.line_text(4), "");
    }

    #[test]
    fn a_lone_carriage_return_does_not_end_a_line() {
        // As NDJSON separates records, and as serde_json counts lines.
        let index = LineIndex::new(b"{\"a\":1}\r{\"b\":2}\n[3]\r");
        assert_eq!(index.line_count(), 2);
        // The second `{` is the ninth character of line 1.
        assert_eq!(index.line_column(8), LineColumn { line: 1, column: 9 });
        assert_eq!(index.line_column(16), LineColumn { line: 2, column: 1 });
        // Shown with its line: the renderer replaces the control character.
        assert_eq!(index.line_text(1), "{\"a\":1}\r{\"b\":2}");
        // A `\r` that ends the text is not shown.
        assert_eq!(index.line_text(2), "[3]");
    }

    #[test]
    fn an_offset_in_a_line_terminator_is_at_the_column_after_the_line() {
        // The line feed of `\r\n` ends the line as a lone `\n` does: an error there (an
        // NDJSON record cut at its line's end) is right after the last character shown,
        // where the caret goes, whatever the file's line endings.
        let unix = LineIndex::new(b"[2,\n[3]");
        let windows = LineIndex::new(b"[2,\r\n[3]");
        assert_eq!(unix.line_column(3), LineColumn { line: 1, column: 4 });
        assert_eq!(windows.line_column(3), LineColumn { line: 1, column: 4 });
        assert_eq!(windows.line_column(4), LineColumn { line: 1, column: 4 });
        assert_eq!(windows.line_column(5), LineColumn { line: 2, column: 1 });
        // A `\r` that ends the text is not shown either.
        let index = LineIndex::new(b"[1,\r");
        assert_eq!(index.line_column(4), LineColumn { line: 1, column: 4 });
        assert_eq!(index.line_column(3), LineColumn { line: 1, column: 4 });
    }

    #[test]
    fn an_offset_inside_a_character_is_at_that_characters_column() {
        // `é` is bytes 1..3, `日` bytes 3..6: every byte of one is at its column.
        let index = LineIndex::new("aé日x".as_bytes());
        let columns: Vec<usize> = (0..7).map(|at| index.line_column(at).column).collect();
        assert_eq!(columns, [1, 2, 2, 3, 3, 3, 4]);
        // Bytes that are no character stay one column each, as they are shown.
        let index = LineIndex::new(b"a\xff\x80x");
        let columns: Vec<usize> = (0..4).map(|at| index.line_column(at).column).collect();
        assert_eq!(columns, [1, 2, 3, 4]);
        // A character cut short is one `U+FFFD` on screen: every byte of it is at its column.
        let index = LineIndex::new(b"a\xe2\x80x\xf0\x9f\x98");
        let columns: Vec<usize> = (0..8).map(|at| index.line_column(at).column).collect();
        assert_eq!(columns, [1, 2, 2, 3, 4, 4, 4, 5]);
    }

    #[test]
    fn offsets_past_the_end_land_on_the_last_line() {
        let index = LineIndex::new(b"ab\ncd");
        assert_eq!(index.line_column(100), LineColumn { line: 2, column: 3 });
    }

    #[test]
    fn join_and_shift_keep_spans_ordered() {
        let a = Span::new(5, 8);
        let b = Span::new(2, 6);
        assert_eq!(a.join(b), Span::new(2, 8));
        assert_eq!(a.shifted(10), Span::new(15, 18));
        assert_eq!(Span::new(9, 3), Span::at(9));
    }
}
