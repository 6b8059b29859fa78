//! NDJSON (newline-delimited JSON, JSON Lines): one JSON value per line.
//!
//! [`NdjsonReader`] hands out the records one at a time, each as a [`Record`] that is a
//! [`Reader`] of its own and says on which line and at which byte it starts. Memory stays
//! bounded on any stream: only the input window and the open containers of the current
//! record are held. A record is one line, and so is what stands between records: neither
//! a value nor a comment may go on past a line feed, so the records and errors are those of
//! a reader of each line alone. [`NdjsonWriter`] writes one condensed value per line.

use std::io;

use sluice_core::{Entry, Error, Ext, Number, Reader, Result, Span, Writer};

use crate::input::{Input, IoInput, SliceInput};
use crate::{JsonOptions, JsonReader, JsonWriter, WriterOptions};

/// Reads NDJSON records one by one.
///
/// Records must be separated by a line feed (`\n`, or `\r\n`: a lone `\r` is whitespace
/// inside a line), and blank lines are skipped; two values on one line are
/// [`TRAILING_TOKEN`](crate::codes::TRAILING_TOKEN). A record is one line: a value
/// that goes on past a line feed (between tokens, or after a line comment) is cut off
/// there, as [`UNEXPECTED_EOF`](crate::codes::UNEXPECTED_EOF) at the line feed, the error a
/// reader of that line alone reports, with its data path (where the line ends inside the
/// value: `$.a` for `{"a":` then `1}`). An error that the next line makes (`[1` then `2`) is
/// reported so; a value that is whole only with the next line (`{"a":` then `1}`) fails at
/// the read after its last token, so the record never ends cleanly. Inside a record the
/// usual [`JsonOptions`] apply (strict by default).
///
/// With [`JsonOptions::comments`], a block comment must end on the line it opens, inside a
/// record or between records (before the first, between two, after the last): one that goes
/// on past a line feed is [`UNCLOSED_COMMENT`](crate::codes::UNCLOSED_COMMENT), spanning from
/// its `/*` to the end of its line, line feed included, as a reader of that line alone (the
/// [`parallel`](crate::parallel) ingestion) finds it.
///
/// ```
/// use sluice_core::Reader;
/// use sluice_json::NdjsonReader;
/// let mut records = NdjsonReader::from_str("{\"id\": 1}\n\n{\"id\": 2}\n");
/// let mut ids = Vec::new();
/// while let Some(mut record) = records.next_record()? {
///     let line = record.line();
///     record.read_map_root()?;
///     record.read_name()?;
///     ids.push((line, record.read_u32()?));
///     record.read_map_end()?;
/// }
/// assert_eq!(ids, [(1, 1), (3, 2)]);
/// # Ok::<(), sluice_core::Error>(())
/// ```
pub struct NdjsonReader<S> {
    reader: JsonReader<S>,
    /// Records handed out so far.
    records: u64,
    /// The line of the last record handed out, for errors in its unread rest.
    line: usize,
}

/// The note on an error in record `number`, which starts on `line`.
#[cold]
fn record_note(number: u64, line: usize) -> String {
    format!("in record {number} (line {line})")
}

// By hand: the reader's `Debug` needs `S: Input` (where it stands), not `S: Debug`.
impl<S: Input> std::fmt::Debug for NdjsonReader<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NdjsonReader")
            .field("reader", &self.reader)
            .field("records", &self.records)
            .field("line", &self.line)
            .finish()
    }
}

impl<S: Input> std::fmt::Debug for Record<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Record")
            .field("number", &self.number)
            .field("line", &self.line)
            .field("offset", &self.offset)
            .field("reader", &self.reader)
            .finish()
    }
}

impl<'a> NdjsonReader<SliceInput<'a>> {
    /// Records from bytes.
    #[must_use]
    pub fn from_slice(bytes: &'a [u8]) -> Self {
        NdjsonReader::new(SliceInput::new(bytes), JsonOptions::ndjson())
    }

    /// Records from text.
    #[must_use]
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &'a str) -> Self {
        NdjsonReader::new(SliceInput::from_text(text), JsonOptions::ndjson())
    }
}

impl<R: io::Read> NdjsonReader<IoInput<R>> {
    /// Records from any [`io::Read`], with bounded memory.
    #[must_use]
    pub fn from_read(reader: R) -> Self {
        NdjsonReader::new(IoInput::new(reader), JsonOptions::ndjson())
    }
}

impl<S: Input> NdjsonReader<S> {
    /// Records from `input`, each read with `options` (`multiple_values` is implied).
    pub fn new(input: S, options: JsonOptions) -> Self {
        let mut reader = JsonReader::new(input, options);
        reader.set_record_mode();
        NdjsonReader {
            reader,
            records: 0,
            line: 0,
        }
    }

    /// The next record, or `None` at the end of the input. Whatever the previous record
    /// left unread is skipped (and checked) first.
    ///
    /// After a record whose read failed on the caller's request (a read of the wrong kind,
    /// a number that does not convert: the token stays unread), this goes on to the next
    /// record. After an error in the input (see [`JsonReader`]'s "After an error"), it
    /// reports that error again, as every read does, until
    /// [`skip_bad_record`](Self::skip_bad_record) drops the bad record's line: then it goes
    /// on with the next line.
    ///
    /// A second value on a record's line is found here, once the record was handed out,
    /// unless [`Record::finish`] found it first (then this reports its error again).
    ///
    /// # Errors
    /// An I/O error, or an error in the rest of the previous record (a syntax error, a
    /// duplicate key, invalid UTF-8), between records, or in the next record's first token;
    /// after an error in the input, that error again.
    pub fn next_record(&mut self) -> Result<Option<Record<'_, S>>> {
        while self.reader.values_read() < self.records {
            if let Err(err) = self.reader.consume_any() {
                return Err(err.with_note(record_note(self.records, self.line)));
            }
        }
        match self.reader.peek() {
            Ok(Entry::Ended) => return Ok(None),
            Ok(_) => {}
            // The next record's first token is bad (or shares the previous record's line):
            // the note names the record it would have been, on the line of the error.
            Err(err) => {
                let at = err.span().map_or(self.reader.offset(), |span| span.start);
                let line = self.reader.line_of(at);
                return Err(err.with_note(record_note(self.records + 1, line)));
            }
        }
        let offset = self.reader.offset();
        let line = self.reader.line_of(offset);
        self.records += 1;
        self.line = line;
        Ok(Some(Record {
            number: self.records,
            line,
            offset,
            reader: &mut self.reader,
        }))
    }

    /// After an error in the input, drops the rest of the bad record's line and clears the
    /// error, so that [`next_record`](Self::next_record) goes on with the next line: the
    /// 1-based number of the line dropped. `Ok(None)`, and nothing is dropped, when the
    /// reader has met no such error (after a read that failed on the caller's request,
    /// `next_record` goes on by itself).
    ///
    /// The line ends at the first line feed after the point of failure (in NDJSON no token
    /// holds a raw line feed), or at the end of the input. A record cut by its line feed
    /// (`[1,` then a line break) fails at that line feed, so the next line is the next
    /// record, even when the value was read on over it. What follows is read exactly as a
    /// new reader of the following lines would read it, with the line numbers, record
    /// numbers, byte offsets, spans and data paths of the whole input; nesting, keys and
    /// any state of the bad record are forgotten. The parallel ingestion with
    /// [`skip_errors`](crate::parallel::ParallelOptions::skip_errors) finds the same good
    /// records and the same bad lines.
    ///
    /// A bad line counts as the record its error's note names: the record handed out whose
    /// value failed or whose [`Record::finish`] failed; for an error that `next_record`
    /// finds after the last record's value (a second value on its line, `1 2`, or a comment
    /// left open after it) or in a record's first token, one more.
    /// [`records_read`](Self::records_read) counts it. A record whose line goes on with a
    /// second value is handed out (and may be read whole) before its line shows the error:
    /// call [`Record::finish`] before taking a record as good, and the good records and bad
    /// lines (each one record) are those of the parallel ingestion, which checks each line's
    /// end. Without it, such a record was read as good, and its line is one more, bad,
    /// record.
    ///
    /// Memory stays bounded: the dropped line is read through the input's window, never
    /// held, however long. Over `io::Read`, a record whose value goes on past its line feed
    /// is cut as soon as the window must move, before the next line is dropped from it (so
    /// it may fail at an earlier token than over a slice, with the same error). The stream
    /// is not read on past such a cut: a stream that breaks in the lines after it reports
    /// the cut first, as a slice of the same bytes does, and the I/O error when those lines
    /// are read, final from then on.
    ///
    /// ```
    /// use sluice_core::{Reader, Token};
    /// use sluice_json::{codes, NdjsonReader};
    /// let input = "{\"id\": 1}\n{\"id\": 2,}\n\n[1,\n{\"id\": 4}\n{\"id\": 5} 6\n";
    /// let mut records = NdjsonReader::from_read(input.as_bytes());
    /// let (mut good, mut bad) = (Vec::new(), Vec::new());
    /// loop {
    ///     let error = match records.next_record() {
    ///         Ok(None) => break,
    ///         Ok(Some(mut record)) => {
    ///             let line = record.line();
    ///             // `finish` checks that the line holds nothing more before the record
    ///             // counts as good.
    ///             let read = Token::read_all(&mut record);
    ///             match read.and_then(|tokens| record.finish().map(|()| tokens)) {
    ///                 Ok(tokens) => {
    ///                     good.push((line, tokens.len()));
    ///                     continue;
    ///                 }
    ///                 Err(error) => error,
    ///             }
    ///         }
    ///         Err(error) => error,
    ///     };
    ///     // An I/O error is final: `?` hands it on rather than loop on it.
    ///     let line = records.skip_bad_record()?;
    ///     bad.push((line, error.code()));
    /// }
    /// assert_eq!(good, [(1, 4), (5, 4)]);
    /// // The `}` after `,` on line 2, `[1,` cut by its line feed on line 4, and the `6`
    /// // after record 5's value on line 6.
    /// assert_eq!(
    ///     bad,
    ///     [
    ///         (Some(2), codes::EXPECT_KEY),
    ///         (Some(4), codes::UNEXPECTED_EOF),
    ///         (Some(6), codes::TRAILING_TOKEN),
    ///     ]
    /// );
    /// assert_eq!(records.records_read(), 5);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// The reader's I/O error, or one met while reading the rest of the line: the stream
    /// may be broken, so an I/O error stays final, and is returned again.
    pub fn skip_bad_record(&mut self) -> Result<Option<usize>> {
        let Some(line) = self.reader.skip_failed_line()? else {
            return Ok(None);
        };
        // A failure after the last record's value (or before any) is a record of its own.
        if self.reader.values_read() >= self.records {
            self.records += 1;
            self.line = line;
        }
        // The bad record is done with: `next_record` has nothing of it left to skip.
        self.reader.set_values_read(self.records);
        Ok(Some(line))
    }

    /// The input, for example to recover an [`io::Read`].
    pub fn into_input(self) -> S {
        self.reader.into_input()
    }

    /// How many records were handed out, and bad lines skipped that held none (see
    /// [`skip_bad_record`](Self::skip_bad_record)).
    #[must_use]
    pub fn records_read(&self) -> u64 {
        self.records
    }
}

/// One NDJSON record: a [`Reader`] over one value, that answers [`Entry::Ended`] after it.
/// [`finish`](Record::finish) ends it, and checks the rest of its line.
///
/// Errors from a record's reads carry absolute byte spans (into the whole input) and a note
/// naming the record and its line.
///
/// ```
/// use sluice_core::{Reader, Token};
/// use sluice_json::{codes, NdjsonReader};
///
/// let mut records = NdjsonReader::from_str("{\"id\": 1}\n\n{\"id\": 2,}\n");
/// let mut first = records.next_record()?.expect("a first record");
/// assert_eq!((first.number(), first.line(), first.offset()), (1, 1, 0));
/// assert_eq!(Token::read_all(&mut first)?.len(), 4);
/// // The second record starts on line 3 (blank lines are skipped but counted).
/// let mut second = records.next_record()?.expect("a second record");
/// assert_eq!((second.number(), second.line()), (2, 3));
/// let err = Token::read_all(&mut second).unwrap_err();
/// assert_eq!(err.code(), codes::EXPECT_KEY);
/// # Ok::<(), sluice_core::Error>(())
/// ```
pub struct Record<'r, S> {
    reader: &'r mut JsonReader<S>,
    number: u64,
    line: usize,
    offset: usize,
}

impl<S: Input> Record<'_, S> {
    /// 1-based line on which the record starts.
    #[must_use]
    pub fn line(&self) -> usize {
        self.line
    }

    /// Absolute byte offset at which the record's value starts (after any whitespace or
    /// comment before it on its line).
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// 1-based position of the record in the stream (blank lines do not count).
    #[must_use]
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Ends the record: reads (and checks) whatever of its value is left, as
    /// [`next_record`](NdjsonReader::next_record) would, then checks that nothing but
    /// whitespace (and comments, where the options allow them) follows the value on its
    /// line, up to its line feed or the end of the input. Call it before accepting what was
    /// read: a record whose line goes on with a second value (`1 2`, `[1] x`) is handed out,
    /// and may be read whole, before its line shows the error. The next line is not read.
    ///
    /// On an error, the line is bad and counts as this record: `next_record` reports the
    /// same error again (with this record's note), and
    /// [`skip_bad_record`](NdjsonReader::skip_bad_record) drops the line as this record,
    /// not one more, as the [`parallel`](crate::parallel) ingestion counts it.
    ///
    /// ```
    /// use sluice_core::{Reader, Span};
    /// use sluice_json::{codes, NdjsonReader};
    /// let mut records = NdjsonReader::from_str("[1]  \n[2] [3]\n[4]\n");
    /// let mut first = records.next_record()?.expect("a first record");
    /// first.skip()?;
    /// first.finish()?;
    /// let mut second = records.next_record()?.expect("a second record");
    /// second.skip()?; // read whole, but its line goes on
    /// let err = second.finish().unwrap_err();
    /// assert_eq!((err.code(), err.span()), (codes::TRAILING_TOKEN, Some(Span::new(10, 11))));
    /// assert_eq!(records.skip_bad_record()?, Some(2));
    /// let third = records.next_record()?.expect("a third record");
    /// assert_eq!((third.number(), third.line()), (3, 3));
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// An error in the rest of the value, [`TRAILING_TOKEN`](crate::codes::TRAILING_TOKEN)
    /// at a token after it on its line, another error met there (a block comment left open,
    /// invalid UTF-8 in a comment), or an I/O error; the error the reader failed with
    /// before, if it did.
    pub fn finish(self) -> Result<()> {
        while !self.done() {
            if let Err(err) = self.reader.consume_any() {
                return Err(self.annotate(err));
            }
        }
        if let Err(err) = self.reader.check_record_line_end() {
            // The line is bad, and so is this record: it no longer counts as read, so the
            // line is dropped as this record, and `next_record` repeats the error as its.
            self.reader.set_values_read(self.number - 1);
            return Err(self.annotate(err));
        }
        Ok(())
    }

    fn done(&self) -> bool {
        self.reader.values_read() >= self.number
    }

    #[cold]
    /// The first error of this record's line, given `error`, which a read of the record
    /// failed with (the caller's, or that of a writer the record was copied into): reads the
    /// rest of the record and its line as [`finish`](Self::finish) does, and gives that
    /// error instead when it starts at an earlier byte. The reader finds a record's line
    /// feed only once it has read on past it, so a read may refuse a token of the next line
    /// (`[1,` then `"x"]`, read as numbers) before the cut at the line feed, which comes
    /// first, shows. An I/O error is given back as it is, with nothing more read; one met
    /// in the rest is not preferred.
    ///
    /// ```
    /// use sluice_core::{Reader, Span};
    /// use sluice_json::{codes, NdjsonReader};
    /// let mut records = NdjsonReader::from_str("[1,\n\"x\"]\n");
    /// let mut record = records.next_record()?.expect("a record");
    /// record.read_array_root()?;
    /// record.read_u8()?;
    /// let err = record.read_u8().unwrap_err(); // the string on the next line
    /// let err = record.first_error(err);
    /// assert_eq!((err.code(), err.span()), (codes::UNEXPECTED_EOF, Some(Span::at(3))));
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    #[must_use]
    pub fn first_error(self, error: Error) -> Error {
        if error.code() == sluice_core::codes::IO {
            return error;
        }
        match self.finish() {
            Err(rest)
                if rest.code() != sluice_core::codes::IO
                    && rest
                        .span()
                        .zip(error.span())
                        .is_some_and(|(rest, error)| rest.start < error.start) =>
            {
                rest
            }
            _ => error,
        }
    }

    fn annotate(&self, err: Error) -> Error {
        err.with_note(record_note(self.number, self.line))
    }

    #[cold]
    fn ended(&self, what: &str) -> Error {
        self.annotate(
            Error::unexpected(what, Entry::Ended).with_span(Span::at(self.reader.offset())),
        )
    }
}

macro_rules! record_read {
    ($($name:ident -> $ty:ty, $what:expr;)*) => {$(
        fn $name(&mut self) -> Result<$ty> {
            if self.done() {
                return Err(self.ended($what));
            }
            match self.reader.$name() {
                Ok(value) => Ok(value),
                Err(err) => Err(self.annotate(err)),
            }
        }
    )*};
}

impl<S: Input> Reader for Record<'_, S> {
    fn peek(&mut self) -> Result<Entry> {
        if self.done() {
            return Ok(Entry::Ended);
        }
        self.reader.peek().map_err(|err| self.annotate(err))
    }

    fn span(&self) -> Span {
        self.reader.span()
    }

    fn read_str(&mut self) -> Result<&str> {
        if self.done() {
            return Err(self.ended("String"));
        }
        // Copied out, since the read borrows the reader; the note is built only on error.
        let (number, line) = (self.number, self.line);
        self.reader
            .read_str()
            .map_err(|err| err.with_note(record_note(number, line)))
    }

    fn read_name(&mut self) -> Result<&str> {
        if self.done() {
            return Err(self.ended("Name"));
        }
        // Copied out, since the read borrows the reader; the note is built only on error.
        let (number, line) = (self.number, self.line);
        self.reader
            .read_name()
            .map_err(|err| err.with_note(record_note(number, line)))
    }

    fn read_number(&mut self) -> Result<Number<'_>> {
        if self.done() {
            return Err(self.ended("a number"));
        }
        // Copied out, since the read borrows the reader; the note is built only on error.
        let (number, line) = (self.number, self.line);
        self.reader
            .read_number()
            .map_err(|err| err.with_note(record_note(number, line)))
    }

    record_read! {
        read_null -> (), "Null";
        read_bool -> bool, "Bool";
        read_map_root -> Option<usize>, "MapRoot";
        read_map_end -> (), "MapEnd";
        read_array_root -> Option<usize>, "ArrayRoot";
        read_array_end -> (), "ArrayEnd";
        skip -> (), "a value";
        // The typed number reads go to the reader's own, not through `read_number`: a
        // number that does not convert then fails with its data path, or as the record's
        // cut-off when the record's line ended before it.
        read_i8 -> i8, "a number";
        read_i16 -> i16, "a number";
        read_i32 -> i32, "a number";
        read_i64 -> i64, "a number";
        read_i128 -> i128, "a number";
        read_u8 -> u8, "a number";
        read_u16 -> u16, "a number";
        read_u32 -> u32, "a number";
        read_u64 -> u64, "a number";
        read_u128 -> u128, "a number";
        read_f32 -> f32, "a number";
        read_f64 -> f64, "a number";
    }
}

/// Writes NDJSON: each root value condensed on one line, ended by `\n` as soon as the
/// value is complete (so a consumer of a live stream sees whole lines). Output is buffered
/// and handed to the sink in whole lines only: at the end of a record once about 32 KiB
/// have gathered (a longer record is held until it ends), and at
/// [`flush`](NdjsonWriter::flush), [`finish`](Writer::finish) or
/// [`into_inner`](NdjsonWriter::into_inner). Dropped without one of them, the writer does
/// not flush: the records it still holds are lost.
///
/// ```
/// use sluice_core::Writer;
/// use sluice_json::NdjsonWriter;
/// let mut writer = NdjsonWriter::new(Vec::new());
/// for id in [1, 2] {
///     writer.write_map_root(None)?;
///     writer.write_name("id")?;
///     writer.write_u64(id)?;
///     writer.write_map_end()?;
/// }
/// let out = writer.into_inner()?;
/// assert_eq!(out, b"{\"id\":1}\n{\"id\":2}\n");
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug)]
pub struct NdjsonWriter<W: io::Write> {
    writer: JsonWriter<W>,
}

impl<W: io::Write> NdjsonWriter<W> {
    /// A writer with the default conversions (see [`with_options`](NdjsonWriter::with_options)).
    pub fn new(sink: W) -> Self {
        NdjsonWriter::with_options(sink, WriterOptions::condensed())
    }

    /// A writer with `options` for conversions (escaping, non-finite numbers, blobs, ext);
    /// the layout is always condensed with one value per line, and the layout fields of
    /// `options` are neither used nor checked.
    pub fn with_options(sink: W, mut options: WriterOptions) -> Self {
        options.pretty = false;
        options.multiple_values = true;
        options.final_newline = false;
        "\n".clone_into(&mut options.newline);
        // Never written, so not checked either (`WriterOptions::check` refuses an
        // indentation that is not whitespace, and the records did not need one).
        options.indent.clear();
        options.space_after_colon = false;
        options.nested_on_new_line = false;
        let mut writer = JsonWriter::new(sink, options);
        writer.set_line_per_value();
        NdjsonWriter { writer }
    }

    /// How many records were written.
    #[must_use]
    pub fn records_written(&self) -> usize {
        self.writer.values_written()
    }

    /// Hands the sink every complete record and flushes it; a record still being written
    /// stays in the writer until it ends. For a live stream whose consumer should see each
    /// record soon, not only once 32 KiB have gathered.
    ///
    /// ```
    /// use sluice_core::Writer;
    /// use sluice_json::NdjsonWriter;
    /// let mut writer = NdjsonWriter::new(Vec::new());
    /// writer.write_u64(1)?;
    /// writer.write_array_root(None)?;
    /// writer.flush()?;
    /// assert_eq!(writer.get_ref(), b"1\n"); // the open array is not handed over
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// An I/O error from the sink. What it had not accepted stays buffered for the next
    /// flush, each byte sent once.
    pub fn flush(&mut self) -> Result<()> {
        self.writer.flush_whole_lines()
    }

    /// The sink. Records still buffered in the writer are not in it yet.
    #[must_use]
    pub fn get_ref(&self) -> &W {
        self.writer.get_ref()
    }

    /// The sink, to change (writing to it directly puts bytes before the records still
    /// buffered in the writer: [`flush`](Self::flush) first).
    #[must_use]
    pub fn get_mut(&mut self) -> &mut W {
        self.writer.get_mut()
    }

    /// Flushes and returns the sink, after checking that the last record is complete.
    ///
    /// # Errors
    /// As [`Writer::finish`].
    pub fn into_inner(self) -> Result<W> {
        self.writer.into_inner()
    }

    /// The sink and the output not yet handed to it (a record cut short included), with no
    /// check and no flush: see [`JsonWriter::into_parts`].
    #[must_use]
    pub fn into_parts(self) -> (W, Vec<u8>) {
        self.writer.into_parts()
    }
}

impl<W: io::Write> Writer for NdjsonWriter<W> {
    fn write_null(&mut self) -> Result<()> {
        self.writer.write_null()
    }
    fn write_bool(&mut self, value: bool) -> Result<()> {
        self.writer.write_bool(value)
    }
    fn write_str(&mut self, value: &str) -> Result<()> {
        self.writer.write_str(value)
    }
    fn write_name(&mut self, name: &str) -> Result<()> {
        self.writer.write_name(name)
    }
    fn write_number(&mut self, number: Number<'_>) -> Result<()> {
        self.writer.write_number(number)
    }
    // The typed numbers reach the JSON writer's own typed paths, not the trait's default
    // that wraps them in a `Number` to be matched on again.
    fn write_i64(&mut self, value: i64) -> Result<()> {
        self.writer.write_i64(value)
    }
    fn write_u64(&mut self, value: u64) -> Result<()> {
        self.writer.write_u64(value)
    }
    fn write_i128(&mut self, value: i128) -> Result<()> {
        self.writer.write_i128(value)
    }
    fn write_u128(&mut self, value: u128) -> Result<()> {
        self.writer.write_u128(value)
    }
    fn write_f32(&mut self, value: f32) -> Result<()> {
        self.writer.write_f32(value)
    }
    fn write_f64(&mut self, value: f64) -> Result<()> {
        self.writer.write_f64(value)
    }
    fn write_blob(&mut self, value: &[u8]) -> Result<()> {
        self.writer.write_blob(value)
    }
    fn write_ext(&mut self, ext: Ext<'_>) -> Result<()> {
        self.writer.write_ext(ext)
    }
    fn write_map_root(&mut self, len: Option<usize>) -> Result<()> {
        self.writer.write_map_root(len)
    }
    fn write_map_end(&mut self) -> Result<()> {
        self.writer.write_map_end()
    }
    fn write_array_root(&mut self, len: Option<usize>) -> Result<()> {
        self.writer.write_array_root(len)
    }
    fn write_array_end(&mut self) -> Result<()> {
        self.writer.write_array_end()
    }
    fn finish(&mut self) -> Result<()> {
        self.writer.finish()
    }
}
