//! Reading from `io::Read`, black box: unusual and misbehaving streams, tiny windows and
//! tokens larger than the window, each outcome compared with the slice reader on the same
//! bytes (tokens, and the error's code, span and data path).

use std::cell::Cell;
use std::collections::VecDeque;
use std::io;
use std::rc::Rc;

use sluice_core::{Entry, ErrorCode, Reader, Span, Token};
use sluice_json::parallel::{ParallelOptions, ingest_blocks};
use sluice_json::{Input, IoInput, JsonOptions, JsonReader, NdjsonReader, SliceInput, codes};

// ----- harness -----------------------------------------------------------------------------

/// An error as comparable data: code, span and data path.
type Failure = (ErrorCode, Option<Span>, Option<String>);

fn failure(err: &sluice_core::Error) -> Failure {
    (err.code(), err.span(), err.path().map(ToString::to_string))
}

/// Every token a reader hands out before its first error (then `finish`), and that error.
type Trace = (Vec<Token>, Option<Failure>);

fn trace<S: Input>(reader: &mut JsonReader<S>) -> Trace {
    let mut tokens = Vec::new();
    loop {
        let entry = match reader.peek() {
            Ok(Entry::Ended) => break,
            Ok(entry) => entry,
            Err(err) => return (tokens, Some(failure(&err))),
        };
        match Token::read(reader, entry) {
            Ok(token) => tokens.push(token),
            Err(err) => return (tokens, Some(failure(&err))),
        }
    }
    let end = reader.finish().err().map(|err| failure(&err));
    (tokens, end)
}

fn slice_trace(bytes: &[u8], options: &JsonOptions) -> Trace {
    trace(&mut JsonReader::new(
        SliceInput::new(bytes),
        options.clone(),
    ))
}

fn io_trace<R: io::Read>(reader: R, window: usize, options: &JsonOptions) -> Trace {
    trace(&mut JsonReader::new(
        IoInput::with_window(reader, window),
        options.clone(),
    ))
}

/// NDJSON records (line, offset, tokens) before the first error, and that error.
type Records = (Vec<(usize, usize, Vec<Token>)>, Option<Failure>);

fn records<S: Input>(mut reader: NdjsonReader<S>) -> Records {
    let mut out = Vec::new();
    loop {
        let mut record = match reader.next_record() {
            Ok(Some(record)) => record,
            Ok(None) => return (out, None),
            Err(err) => return (out, Some(failure(&err))),
        };
        let (line, offset) = (record.line(), record.offset());
        match Token::read_all(&mut record) {
            Ok(tokens) => out.push((line, offset, tokens)),
            Err(err) => return (out, Some(failure(&err))),
        }
    }
}

/// What one call of [`Scripted::read`] does.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// Up to this many bytes of the stream (`Ok(0)` once it is exhausted).
    Data(usize),
    /// `ErrorKind::Interrupted`, to be retried.
    Interrupted,
    /// `ErrorKind::WouldBlock`: a non-blocking stream with nothing to read now.
    WouldBlock,
    /// Another I/O error.
    Broken,
    /// `Ok(0)` although the stream holds more.
    Eof,
    /// Copies what fits, and reports this many bytes more than the buffer holds (a buggy
    /// reader).
    Overreport(usize),
    /// Writes nothing, reports up to this many bytes (a buggy reader).
    Phantom(usize),
}

/// An `io::Read` that follows a script, one step per call, then hands out the rest of the
/// stream as fast as it is asked.
#[derive(Debug)]
struct Scripted<'a> {
    bytes: &'a [u8],
    steps: VecDeque<Step>,
    /// Every call so far.
    calls: Rc<Cell<usize>>,
}

impl<'a> Scripted<'a> {
    fn new(bytes: &'a [u8], steps: impl IntoIterator<Item = Step>) -> Scripted<'a> {
        Scripted {
            bytes,
            steps: steps.into_iter().collect(),
            calls: Rc::default(),
        }
    }
}

impl io::Read for Scripted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls.set(self.calls.get() + 1);
        let step = self.steps.pop_front().unwrap_or(Step::Data(usize::MAX));
        let mut give = |max: usize| {
            let n = max.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            n
        };
        match step {
            Step::Data(max) => Ok(give(max)),
            Step::Interrupted => Err(io::ErrorKind::Interrupted.into()),
            Step::WouldBlock => Err(io::ErrorKind::WouldBlock.into()),
            Step::Broken => Err(io::Error::other("the peer went away")),
            Step::Eof => Ok(0),
            Step::Overreport(extra) => {
                give(usize::MAX);
                Ok(buf.len().saturating_add(extra))
            }
            Step::Phantom(n) => Ok(n.min(buf.len())),
        }
    }
}

/// Hands out `first` (its line feed included), then fails the test if called again: a
/// peer that sent one record and waits for an answer before it sends more.
struct OneLineThenBlocks<'a> {
    first: &'a [u8],
}

impl io::Read for OneLineThenBlocks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        assert!(
            !self.first.is_empty(),
            "read again before the next record was asked for"
        );
        let n = buf.len().min(self.first.len());
        buf[..n].copy_from_slice(&self.first[..n]);
        self.first = &self.first[n..];
        Ok(n)
    }
}

/// Hands out `bytes` in two reads, cut at `at`, then ends.
struct CutAt<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl io::Read for CutAt<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.bytes.len());
        let n = if self.at > 0 { n.min(self.at) } else { n };
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        self.at = self.at.saturating_sub(n);
        Ok(n)
    }
}

/// Windows down to 0 bytes (taken as 1), and a few that hold a small document whole.
const WINDOWS: [usize; 7] = [0, 1, 2, 3, 5, 8, 64];

/// Checks that `bytes` reads through every window and read size as from a slice.
fn assert_same_everywhere(bytes: &[u8], options: &JsonOptions) {
    let expected = slice_trace(bytes, options);
    for window in WINDOWS {
        for chunk in [1, 2, 3, 7, usize::MAX] {
            let reader = Scripted::new(bytes, std::iter::repeat_n(Step::Data(chunk), bytes.len()));
            assert_eq!(
                io_trace(reader, window, options),
                expected,
                "{:?}: a {window}-byte window, {chunk} bytes a read",
                String::from_utf8_lossy(&bytes[..bytes.len().min(60)])
            );
        }
    }
}

/// Checks that `bytes` reads as from a slice when it arrives in two reads cut at every
/// position, through a few windows.
fn assert_same_cut_anywhere(bytes: &[u8], options: &JsonOptions) {
    let expected = slice_trace(bytes, options);
    for at in 1..bytes.len() {
        for window in [1, 2, 3, 4, 7, 4096] {
            assert_eq!(
                io_trace(CutAt { bytes, at }, window, options),
                expected,
                "{:?} cut at {at}, a {window}-byte window",
                String::from_utf8_lossy(bytes)
            );
        }
    }
}

fn strict() -> JsonOptions {
    JsonOptions::strict()
}

// ----- Interrupted, WouldBlock, errors and the end ----------------------------------------------

#[test]
fn an_interrupted_read_is_retried_and_never_reported() {
    let text = br#"{"a": [1, 2.5, "three", null, true], "b": {"c": "\u00e9"}}"#;
    let expected = slice_trace(text, &strict());
    for window in [1, 3, 4096] {
        // Every other call is interrupted, and some several times in a row.
        let steps = (0..text.len() * 4).map(|i| match i % 5 {
            0 | 2 | 3 => Step::Interrupted,
            _ => Step::Data(2),
        });
        let reader = Scripted::new(text, steps);
        assert_eq!(io_trace(reader, window, &strict()), expected, "{window}");
    }
    // And before the end.
    let reader = Scripted::new(b"[1]", [Step::Data(3), Step::Interrupted, Step::Eof]);
    assert_eq!(
        io_trace(reader, 8, &strict()),
        slice_trace(b"[1]", &strict())
    );
}

#[test]
fn would_block_is_an_io_error_not_the_end_of_the_input() {
    // `[1]` then WouldBlock: were it taken as the end, the document would be whole.
    let reader = Scripted::new(b"[1] ", [Step::Data(3), Step::WouldBlock]);
    let calls = Rc::clone(&reader.calls);
    let mut json = JsonReader::new(IoInput::with_window(reader, 16), strict());
    assert_eq!(
        Token::read_all(&mut json).unwrap_err().code(),
        sluice_core::codes::IO
    );
    assert_eq!(calls.get(), 2, "WouldBlock is not looped on");
    // In the middle of a token too.
    let reader = Scripted::new(b"\"abcdef\"", [Step::Data(3), Step::WouldBlock]);
    let (tokens, error) = io_trace(reader, 16, &strict());
    assert!(tokens.is_empty());
    assert_eq!(error.map(|e| e.0), Some(sluice_core::codes::IO));
}

#[test]
fn the_first_io_error_is_final_and_reported_again_without_reading_more() {
    let text = b"[1, \"two\", 3]";
    for (before, step) in [
        (0, Step::Broken),
        (4, Step::Broken),
        (6, Step::Broken),
        (12, Step::WouldBlock),
    ] {
        let steps = std::iter::repeat_n(Step::Data(1), before).chain([step]);
        let reader = Scripted::new(text, steps);
        let calls = Rc::clone(&reader.calls);
        let mut json = JsonReader::new(IoInput::with_window(reader, 4), strict());
        let first = Token::read_all(&mut json).unwrap_err();
        assert_eq!(first.code(), sluice_core::codes::IO, "{before}");
        let after_error = calls.get();
        // The stream has data again, but the reader stays where it failed.
        for _ in 0..3 {
            let again = json.peek().unwrap_err();
            assert_eq!(failure(&again), failure(&first), "{before}");
            assert_eq!(json.finish().map_err(|e| failure(&e)), Err(failure(&first)));
        }
        assert_eq!(calls.get(), after_error, "{before}: read after its error");
    }
}

#[test]
fn the_first_io_error_is_final_for_ndjson_records_too() {
    let text = b"1\n[2, 3]\n4\n";
    let reader = Scripted::new(text, [Step::Data(5), Step::Broken]);
    let calls = Rc::clone(&reader.calls);
    let mut records = NdjsonReader::new(IoInput::with_window(reader, 4), JsonOptions::ndjson());
    let mut first = records.next_record().unwrap().unwrap();
    assert_eq!(first.read_u8().unwrap(), 1);
    let mut second = records.next_record().unwrap().unwrap();
    second.read_array_root().unwrap();
    let err = Token::read_all(&mut second).unwrap_err();
    assert_eq!(err.code(), sluice_core::codes::IO);
    let after_error = calls.get();
    let again = records.next_record().expect_err("the error again");
    assert_eq!(again.code(), sluice_core::codes::IO);
    assert_eq!(calls.get(), after_error);
}

#[test]
fn the_end_of_the_stream_is_final_even_if_it_has_more_later() {
    // `Ok(0)` ends the input: what the stream would hand out after it is never asked for,
    // and the document reads as its bytes before the end do from a slice.
    let text = b"[1, 2] [3]";
    for cut in 1..text.len() {
        let steps = std::iter::repeat_n(Step::Data(1), cut).chain([Step::Eof]);
        let reader = Scripted::new(text, steps);
        let calls = Rc::clone(&reader.calls);
        let options = JsonOptions::ndjson();
        assert_eq!(
            io_trace(reader, 4, &options),
            slice_trace(&text[..cut], &options),
            "{cut}"
        );
        assert!(calls.get() <= cut + 1, "{cut}: {} calls", calls.get());
    }
}

#[test]
fn the_end_of_the_stream_is_final_for_ndjson_records() {
    let text = b"1\n2\n3\n";
    let reader = Scripted::new(text, [Step::Data(2), Step::Eof]);
    let calls = Rc::clone(&reader.calls);
    let io = NdjsonReader::new(IoInput::with_window(reader, 64), JsonOptions::ndjson());
    assert_eq!(records(io), records(NdjsonReader::from_slice(&text[..2])));
    assert_eq!(calls.get(), 2);
}

// ----- misbehaving readers -------------------------------------------------------------------

#[test]
fn a_reader_that_reports_more_bytes_than_it_was_given_room_for_is_an_io_error() {
    for window in [1, 2, 8, 4096] {
        for extra in [1, 100, usize::MAX] {
            let reader = Scripted::new(b"[1, 2]", [Step::Data(2), Step::Overreport(extra)]);
            let (_, error) = io_trace(reader, window, &strict());
            assert_eq!(
                error.map(|e| e.0),
                Some(sluice_core::codes::IO),
                "{window}, {extra}"
            );
        }
    }
}

#[test]
fn a_reader_that_reports_bytes_it_did_not_write_neither_panics_nor_hangs() {
    // What lies in the window then is whatever it held: garbage in, an error or garbage
    // tokens out, but the reader stays sound.
    for window in [1, 2, 8, 4096] {
        let steps = [
            Step::Data(3),
            Step::Phantom(5),
            Step::Data(2),
            Step::Phantom(1),
        ];
        let reader = Scripted::new(b"[1, 2, 3, 4, 5]", steps);
        let _ = io_trace(reader, window, &strict());
        let reader = Scripted::new(b"[\"abcdefgh\"]", steps);
        let _ = io_trace(reader, window, &strict());
    }
}

// ----- windows and tokens larger than them ------------------------------------------------------

#[test]
fn a_window_of_zero_bytes_reads_as_a_window_of_one() {
    let text = br#"{"k": [true, false, null, -1.5e3, "s"]}"#;
    assert_eq!(
        io_trace(&text[..], 0, &strict()),
        slice_trace(text, &strict())
    );
    let mut reader = JsonReader::new(IoInput::with_window(&text[..], 0), strict());
    Token::read_all(&mut reader).unwrap();
    assert!(reader.into_input().capacity() >= 1);
}

#[test]
fn tokens_much_larger_than_the_window_read_as_from_a_slice() {
    let string = format!("[\"{}\"]", "x".repeat(100_000));
    let number = format!("[{}]", "7".repeat(10_000));
    let fraction = format!("[-1.{}e-5]", "3".repeat(10_000));
    let escaped_key = format!("{{\"{}\": 1}}", "\\u00e9\\n\\\"k".repeat(2_000));
    let comment = format!("/* {} */ [1] // {}\n", "c".repeat(5_000), "d".repeat(5_000));
    let whitespace = format!("[{}1{}]", " ".repeat(10_000), "\n".repeat(10_000));
    for (text, options) in [
        (&string, strict()),
        (&number, strict()),
        (&fraction, strict()),
        (&escaped_key, strict()),
        (&comment, JsonOptions::relaxed()),
        (&whitespace, strict()),
    ] {
        let expected = slice_trace(text.as_bytes(), &options);
        assert!(expected.1.is_none(), "{expected:?}");
        for window in [0, 1, 2, 3, 100] {
            for chunk in [1, 3, 4096, usize::MAX] {
                let reader = Scripted::new(
                    text.as_bytes(),
                    std::iter::repeat_n(Step::Data(chunk), text.len()),
                );
                assert_eq!(
                    io_trace(reader, window, &options),
                    expected,
                    "{window}, {chunk}"
                );
            }
        }
    }
}

#[test]
fn errors_inside_or_after_a_token_larger_than_the_window_have_the_slice_span() {
    let long = "y".repeat(3_000);
    let digits = "9".repeat(3_000);
    let cases = [
        format!("[\"{long}"),                        // unclosed string
        format!("[\"{long}\\q\"]"),                  // bad escape far inside
        format!("[\"{long}\u{1}\"]"),                // control character
        format!("[\"{long}\\ud800\"]"),              // lone surrogate
        format!("[{digits}."),                       // number cut by the end
        format!("[{digits}x]"),                      // number running into a letter
        format!("[{digits}e+]"),                     // exponent without digits
        format!("{{\"{long}\" 1}}"),                 // long key without a colon
        format!("{{\"{long}\": 1, \"{long}\": 2}}"), // duplicate long keys
        format!("[1] {long}"),                       // trailing garbage
    ];
    for text in &cases {
        let expected = slice_trace(text.as_bytes(), &strict());
        assert!(expected.1.is_some(), "{:?}", &text[..20]);
        for window in [1, 2, 3, 100] {
            for chunk in [1, 7, usize::MAX] {
                let reader = Scripted::new(
                    text.as_bytes(),
                    std::iter::repeat_n(Step::Data(chunk), text.len()),
                );
                assert_eq!(
                    io_trace(reader, window, &strict()),
                    expected,
                    "{:?}: {window}, {chunk}",
                    &text[..20]
                );
            }
        }
    }
    // Invalid UTF-8 far inside a long string.
    let mut bytes = format!("[\"{long}").into_bytes();
    bytes.extend_from_slice(b"\xC3\x28\"]");
    let expected = slice_trace(&bytes, &strict());
    assert_eq!(expected.1.as_ref().map(|e| e.0), Some(codes::INVALID_UTF8));
    for window in [1, 2, 3, 100] {
        let reader = Scripted::new(&bytes, std::iter::repeat_n(Step::Data(5), bytes.len()));
        assert_eq!(io_trace(reader, window, &strict()), expected, "{window}");
    }
}

#[test]
fn a_comment_longer_than_the_window_reads_as_from_a_slice() {
    let options = JsonOptions::relaxed();
    for text in [
        format!("[1, /* {} */ 2]", "*".repeat(300)),
        format!("[1, // {}\n 2]", "/".repeat(300)),
        format!("[1, /* {} ", "é".repeat(300)),
        format!("[1, // {}", "€".repeat(300)),
        format!("[1, /* {} *", "x".repeat(300)),
    ] {
        assert_same_everywhere(text.as_bytes(), &options);
    }
}

#[test]
fn a_byte_order_mark_split_across_reads_is_skipped() {
    for text in [
        &b"\xEF\xBB\xBF[1]"[..],
        b"\xEF\xBB\xBF\"a\"",
        b"\xEF\xBB\xBF",
        b"\xEF\xBB[1]",
        b"\xEF[1]",
    ] {
        assert_same_everywhere(text, &strict());
        assert_same_cut_anywhere(text, &strict());
    }
}

#[test]
fn multi_byte_characters_split_at_every_position_read_as_from_a_slice() {
    let json5 = JsonOptions::json5();
    let relaxed = JsonOptions::relaxed();
    let cases: [(&[u8], &JsonOptions); 10] = [
        ("[\"a\u{e9}b\u{20ac}c\u{1f600}d\"]".as_bytes(), &strict()),
        ("{\"\u{1f600}\u{e9}\": \"\u{20ac}\"}".as_bytes(), &strict()),
        (b"[\"\\ud83d\\ude00\", \"\\u00e9\\u20AC\"]", &strict()),
        (b"{\"\\ud83d\\ude00\": 1}", &strict()),
        (b"[\"\\ud83d\\u0041\"]", &strict()),
        (b"[\"\\ud83d\"]", &strict()),
        (b"[\"a\xF0\x9F\x98\"]", &strict()),
        ("[1, /* \u{1f600} */ 2] // \u{20ac}".as_bytes(), &relaxed),
        (
            "{\u{e9}t\u{e9}: '\u{1f600}', \u{3000}k\u{2028}: 1,}".as_bytes(),
            &json5,
        ),
        ("// \u{2028}[1]".as_bytes(), &json5),
    ];
    for (text, options) in cases {
        assert_same_cut_anywhere(text, options);
        assert_same_everywhere(text, options);
    }
}

#[test]
fn every_small_document_reads_through_windows_of_zero_to_three_bytes_as_from_a_slice() {
    let relaxed = JsonOptions::relaxed();
    let json5 = JsonOptions::json5();
    let cases: [(&[u8], &JsonOptions); 16] = [
        (b"", &strict()),
        (b"   ", &strict()),
        (b"0", &strict()),
        (b"-", &strict()),
        (b"[", &strict()),
        (b"tru", &strict()),
        (b"true false", &strict()),
        (b"nul", &strict()),
        (b"[1,]", &strict()),
        (b"[1,]", &relaxed),
        (b"{\"a\":1,\"a\":2}", &strict()),
        (b"{\"a\" 1}", &strict()),
        (b"/", &relaxed),
        (b"/* ", &relaxed),
        (b"{a: 0x1F, b: .5, c: +Infinity, d: 'x\\\ny'}", &json5),
        (b"[1e400, -0, 1E-400]", &strict()),
    ];
    for (text, options) in cases {
        assert_same_everywhere(text, options);
        assert_same_cut_anywhere(text, options);
    }
}

// ----- NDJSON over a live stream --------------------------------------------------------------

#[test]
fn a_record_is_read_whole_without_asking_the_stream_for_the_next_line() {
    let ndjson = JsonOptions::ndjson();
    let comments = JsonOptions {
        comments: true,
        ..JsonOptions::ndjson()
    };
    let json5 = JsonOptions {
        multiple_values: true,
        ..JsonOptions::json5()
    };
    let lines: [(&[u8], &JsonOptions); 24] = [
        (b"{\"id\": 1, \"tags\": [\"a\", \"b\"]}\n", &ndjson),
        // Shorter than a byte order mark, which is looked for only while the bytes match.
        (b"1\n", &ndjson),
        (b"[1, 2, 3]\n", &ndjson),
        (b"12345\n", &ndjson),
        (b"-1.5e10\n", &ndjson),
        (b"\"text\"\n", &ndjson),
        (b"true\n", &ndjson),
        (b"null\n", &ndjson),
        (b"{}\r\n", &ndjson),
        (b"  [ ]  \n", &ndjson),
        (b"\xEF\xBB\xBF7\n", &ndjson),
        (b"1 // c\n", &comments),
        (b"1 /* c */\n", &comments),
        (b"/* c */ 1\n", &comments),
        (b"{\"a\":1} \t \n", &comments),
        (b"-0.5e-3\r\n", &comments),
        (b"{a: 'x', b: 0x1F, c: Infinity}\n", &json5),
        (b"'s'\n", &json5),
        (b"NaN\n", &json5),
        (b"+.5\n", &json5),
        (b"0x1F\n", &json5),
        ("1\u{3000}\n".as_bytes(), &json5),
        ("[1]\u{2028}\n".as_bytes(), &json5),
        (b"1 // c\n", &json5),
    ];
    for (line, options) in lines {
        let expected = records(NdjsonReader::new(SliceInput::new(line), options.clone()));
        // Windows smaller than the line, the line exactly, and larger.
        for window in (1..=line.len() + 1).chain([4096]) {
            let input = IoInput::with_window(OneLineThenBlocks { first: line }, window);
            let mut reader = NdjsonReader::new(input, options.clone());
            let mut record = reader.next_record().unwrap().unwrap();
            let tokens = Token::read_all(&mut record).unwrap();
            // And asked again, the record says it is done, still without reading.
            assert_eq!(record.peek().unwrap(), Entry::Ended);
            assert_eq!(tokens, expected.0[0].2, "{window}");
        }
    }
}

#[test]
fn a_record_left_half_read_is_skipped_without_asking_for_more_than_the_next_line() {
    let text = b"{\"a\": [1, 2], \"b\": \"c\"}\n[3, {\"d\": 4}]\n";
    let second = records(NdjsonReader::from_slice(text)).0[1].2.clone();
    for window in (1..=text.len() + 1).chain([4096]) {
        for read in 0..6 {
            let input = IoInput::with_window(OneLineThenBlocks { first: text }, window);
            let mut reader = NdjsonReader::new(input, JsonOptions::ndjson());
            let mut record = reader.next_record().unwrap().unwrap();
            for _ in 0..read {
                let entry = record.peek().unwrap();
                Token::read(&mut record, entry).unwrap();
            }
            let mut record = reader.next_record().unwrap().unwrap();
            assert_eq!(
                Token::read_all(&mut record).unwrap(),
                second,
                "{window}, {read}"
            );
            assert_eq!(record.peek().unwrap(), Entry::Ended);
        }
    }
}

#[test]
fn a_record_skipped_by_the_caller_is_read_without_asking_for_the_next_line() {
    let line = b"{\"a\": [1, {\"b\": \"c\"}], \"d\": 2}\n";
    for window in [1, 3, 4096] {
        let input = IoInput::with_window(OneLineThenBlocks { first: line }, window);
        let mut reader = NdjsonReader::new(input, JsonOptions::ndjson());
        let mut record = reader.next_record().unwrap().unwrap();
        record.skip().unwrap();
        assert_eq!(record.peek().unwrap(), Entry::Ended);
    }
}

#[test]
fn a_json_document_is_read_whole_without_asking_the_stream_for_more() {
    // A container's last token ends it: no byte after it is needed to read every token.
    for text in [
        &b"[1, \"two\", {\"three\": 3}]"[..],
        b"{\"a\": null}",
        b"\"s\"",
        b"{}",
    ] {
        for window in [1, 2, 4096] {
            let input = IoInput::with_window(OneLineThenBlocks { first: text }, window);
            let mut reader = JsonReader::new(input, strict());
            let mut tokens = Vec::new();
            let mut depth = 0usize;
            loop {
                let entry = reader.peek().unwrap();
                tokens.push(Token::read(&mut reader, entry).unwrap());
                match entry {
                    Entry::ArrayRoot | Entry::MapRoot => depth += 1,
                    Entry::ArrayEnd | Entry::MapEnd => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
            }
            assert_eq!(tokens, slice_trace(text, &strict()).0, "{window}");
        }
    }
}

#[test]
fn ndjson_through_tiny_windows_and_odd_readers_reads_as_from_a_slice() {
    let comments = JsonOptions {
        comments: true,
        ..JsonOptions::ndjson()
    };
    let texts: [(&[u8], &JsonOptions); 8] = [
        (
            b"\xEF\xBB\xBF{\"a\":1}\n[2]\r\n\n\"\\ud83d\\ude00\"\n",
            &JsonOptions::ndjson(),
        ),
        (b"1\n2 3\n", &JsonOptions::ndjson()),
        (b"[1,\n2]\n", &JsonOptions::ndjson()),
        (b"{\"a\":\n1}\n", &JsonOptions::ndjson()),
        (b"\"ab\n", &JsonOptions::ndjson()),
        (
            "{\"\u{e9}\": \"\u{1f600}\"}\n".as_bytes(),
            &JsonOptions::ndjson(),
        ),
        (b"/* a */ 1 // b\n/* c\n*/ 2\n", &comments),
        (b"1\n\xEF\xBB\xBF2\n", &JsonOptions::ndjson()),
    ];
    for (text, options) in texts {
        let expected = records(NdjsonReader::new(SliceInput::new(text), options.clone()));
        for window in WINDOWS {
            for steps in [
                vec![Step::Data(1); text.len()],
                (0..text.len() * 3)
                    .map(|i| {
                        if i % 2 == 0 {
                            Step::Interrupted
                        } else {
                            Step::Data(2)
                        }
                    })
                    .collect(),
            ] {
                let input = IoInput::with_window(Scripted::new(text, steps), window);
                let io = NdjsonReader::new(input, options.clone());
                assert_eq!(
                    records(io),
                    expected,
                    "{:?}: {window}",
                    String::from_utf8_lossy(text)
                );
            }
        }
        for at in 1..text.len() {
            let input = IoInput::with_window(CutAt { bytes: text, at }, 3);
            let io = NdjsonReader::new(input, options.clone());
            assert_eq!(records(io), expected, "cut at {at}");
        }
    }
}

// ----- parallel ingestion --------------------------------------------------------------------

/// Every record of `input` through `ingest_blocks` (tokens with their line), and the error
/// of the run (code, span, path).
fn ingest<R: io::Read>(
    input: R,
    options: &JsonOptions,
    block_size: usize,
) -> (Vec<(u64, Vec<Token>)>, Option<Failure>) {
    let options = ParallelOptions {
        jobs: 2,
        block_size,
        json: options.clone(),
        ..ParallelOptions::default()
    };
    let mut out = Vec::new();
    let result = ingest_blocks(
        input,
        &options,
        Vec::new,
        |records, reader, info| {
            records.push((info.line, Token::read_all(reader)?));
            Ok(())
        },
        |records| {
            out.extend(records);
            Ok(())
        },
    );
    (out, result.err().map(|err| failure(&err)))
}

#[test]
fn parallel_ingestion_of_odd_readers_reads_as_the_ndjson_reader_of_a_slice() {
    let mut text = Vec::new();
    for i in 0..300 {
        text.extend_from_slice(
            format!(
                "{{\"i\": {i}, \"s\": \"\u{e9}\u{1f600}{}\"}}\n",
                "z".repeat(i % 50)
            )
            .as_bytes(),
        );
    }
    text.extend_from_slice(format!("[\"{}\"]\n", "L".repeat(5_000)).as_bytes());
    // With a byte order mark too, which the first read may cut.
    let with_bom = [&b"\xEF\xBB\xBF"[..], &text].concat();
    for text in [text, with_bom] {
        let (slice, error) = records(NdjsonReader::from_slice(&text));
        assert_eq!((slice.len(), error), (301, None));
        let expected = (
            slice
                .into_iter()
                .map(|(line, _, tokens)| (line as u64, tokens))
                .collect::<Vec<_>>(),
            None,
        );
        for block_size in [0, 1, 1024, 4096] {
            let interrupted = (0..text.len())
                .map(|i| {
                    if i % 3 == 0 {
                        Step::Interrupted
                    } else {
                        Step::Data(97)
                    }
                })
                .collect::<Vec<_>>();
            assert_eq!(
                ingest(Scripted::new(&text, interrupted), &strict(), block_size),
                expected,
                "{block_size}"
            );
            for at in [1, 2, 37, 1023, 1024, 1025, text.len() - 1] {
                assert_eq!(
                    ingest(CutAt { bytes: &text, at }, &strict(), block_size),
                    expected,
                    "{block_size}, cut at {at}"
                );
            }
        }
    }
}

#[test]
fn parallel_ingestion_stops_at_the_end_of_the_stream_and_reports_io_errors() {
    let text = b"1\n2\n3\n";
    // `Ok(0)` ends the input: the lines before it are the records.
    let reader = Scripted::new(text, [Step::Data(4), Step::Eof]);
    let calls = Rc::clone(&reader.calls);
    let (records, error) = ingest(reader, &strict(), 1024);
    assert_eq!((records.len(), error), (2, None));
    assert_eq!(calls.get(), 2);
    // WouldBlock and other errors are I/O errors after the whole lines read before them.
    for step in [Step::WouldBlock, Step::Broken] {
        let reader = Scripted::new(text, [Step::Data(5), step]);
        let (records, error) = ingest(reader, &strict(), 1024);
        assert_eq!(records.len(), 2);
        assert_eq!(error.map(|e| e.0), Some(sluice_core::codes::IO));
    }
}

#[test]
fn parallel_ingestion_of_a_reader_that_reports_too_many_bytes_is_an_io_error() {
    for extra in [1, 5_000, usize::MAX] {
        let reader = Scripted::new(b"1\n2\n", [Step::Data(2), Step::Overreport(extra)]);
        let (_, error) = ingest(reader, &strict(), 1024);
        assert_eq!(error.map(|e| e.0), Some(sluice_core::codes::IO), "{extra}");
    }
}

#[test]
fn parallel_ingestion_errors_match_the_ndjson_reader_through_small_blocks() {
    // The run's error has its span counted from the record's line; the NDJSON reader's is
    // absolute: compare the code and where each is on its line.
    let mut text = Vec::new();
    for i in 0..200 {
        text.extend_from_slice(format!("[{i}, \"{}\"]\n", "q".repeat(i % 17)).as_bytes());
    }
    let line_start = text.len();
    text.extend_from_slice(b"[1, 2,]\n[3]\n");
    let slice = records(NdjsonReader::from_slice(&text));
    let slice_error = slice.1.clone().expect("a bad record");
    for block_size in [1024, 2048] {
        let (ingested, error) = ingest(
            Scripted::new(&text, std::iter::repeat_n(Step::Data(13), text.len())),
            &strict(),
            block_size,
        );
        assert_eq!(ingested.len(), slice.0.len());
        let error = error.expect("the same bad record");
        assert_eq!(error.0, slice_error.0);
        let relative = slice_error
            .1
            .map(|span| Span::new(span.start - line_start, span.end - line_start));
        assert_eq!(error.1, relative);
        assert_eq!(error.2, slice_error.2);
    }
}

// ----- an I/O error anywhere ------------------------------------------------------------------

fn is_prefix<T: PartialEq>(short: &[T], long: &[T]) -> bool {
    short.len() <= long.len() && short == &long[..short.len()]
}

/// Asserts that `err`, an I/O error, is what the reader says from now on, without calling
/// the stream again.
fn assert_io_error_is_final<S: Input>(
    json: &mut JsonReader<S>,
    err: &Failure,
    calls: &Cell<usize>,
    what: &str,
) {
    let before = calls.get();
    assert_eq!(
        json.peek().map_err(|e| failure(&e)),
        Err(err.clone()),
        "{what}"
    );
    assert_eq!(json.skip().map_err(|e| e.code()), Err(err.0), "{what}");
    assert_eq!(json.read_u8().map_err(|e| e.code()), Err(err.0), "{what}");
    assert_eq!(
        json.finish().map_err(|e| failure(&e)),
        Err(err.clone()),
        "{what}"
    );
    assert_eq!(calls.get(), before, "{what}: read after its error");
}

#[test]
fn an_io_error_anywhere_leaves_only_tokens_the_slice_has_and_is_final() {
    let json5 = JsonOptions::json5();
    let documents: [(&[u8], &JsonOptions); 6] = [
        (
            br#"{"a": [1, 2.5, "three", null, true, false], "b": {"c": "\u00e9x"}, "d": -12345678901234567890}"#,
            &strict(),
        ),
        (b"12345", &strict()),
        (b"true", &strict()),
        (b"\"abc\"", &strict()),
        (b"[1, /* c */ 2, // d\n 3,]", &json5),
        (b"{a: 0x1F, 'b': Infinity, c: .5e1,}", &json5),
    ];
    // The stream fails after `cut` bytes, read through a peek loop, `skip`, or a typed read
    // without a peek.
    type Read = fn(&mut JsonReader<IoInput<Scripted<'_>>>) -> Trace;
    let reads: [(&str, Read); 4] = [
        ("tokens", |json| trace(json)),
        ("skip", |json| {
            (Vec::new(), json.skip().err().map(|e| failure(&e)))
        }),
        ("read_u64", |json| {
            (Vec::new(), json.read_u64().err().map(|e| failure(&e)))
        }),
        ("read_str", |json| {
            (Vec::new(), json.read_str().err().map(|e| failure(&e)))
        }),
    ];
    for (text, options) in documents {
        let expected = slice_trace(text, options);
        for cut in 0..=text.len() {
            for step in [Step::Broken, Step::WouldBlock] {
                for window in [1, 2, 3, 4096] {
                    for (name, read) in reads {
                        let steps = std::iter::repeat_n(Step::Data(1), cut).chain([step]);
                        let reader = Scripted::new(text, steps);
                        let calls = Rc::clone(&reader.calls);
                        let input = IoInput::with_window(reader, window);
                        let mut json = JsonReader::new(input, options.clone());
                        let (tokens, error) = read(&mut json);
                        let what = format!(
                            "{:?} failing after {cut} bytes, a {window}-byte window, {name}",
                            String::from_utf8_lossy(text)
                        );
                        match error {
                            Some(error) if error.0 == sluice_core::codes::IO => {
                                assert!(is_prefix(&tokens, &expected.0), "{what}: {tokens:?}");
                                assert_io_error_is_final(&mut json, &error, &calls, &what);
                            }
                            // Another error, or none: the stream failed after the reader
                            // was done with it, and the outcome is the slice's.
                            error if name == "tokens" => {
                                assert_eq!((tokens, error), expected, "{what}");
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn an_io_error_anywhere_in_ndjson_leaves_only_records_the_slice_has_and_is_final() {
    let comments = JsonOptions {
        comments: true,
        ..JsonOptions::ndjson()
    };
    let documents: [(&[u8], &JsonOptions); 2] = [
        (
            b"{\"a\": [1, 2]}\n12345\n\"x\"\r\n\n[true, null]\n",
            &JsonOptions::ndjson(),
        ),
        (b"/* a */ 1 // b\n/* c */ [2]\n3", &comments),
    ];
    for (text, options) in documents {
        let expected = records(NdjsonReader::new(SliceInput::new(text), options.clone()));
        for cut in 0..=text.len() {
            for window in [1, 2, 3, 4096] {
                // Records read whole, or only asked for (their rest skipped by the next).
                for whole in [true, false] {
                    let steps = std::iter::repeat_n(Step::Data(1), cut).chain([Step::Broken]);
                    let reader = Scripted::new(text, steps);
                    let calls = Rc::clone(&reader.calls);
                    let input = IoInput::with_window(reader, window);
                    let mut ndjson = NdjsonReader::new(input, options.clone());
                    let what = format!(
                        "{:?} failing after {cut} bytes, a {window}-byte window, whole: {whole}",
                        String::from_utf8_lossy(text)
                    );
                    let mut got = Vec::new();
                    let error = loop {
                        match ndjson.next_record() {
                            Ok(Some(mut record)) => {
                                let (line, offset) = (record.line(), record.offset());
                                if !whole {
                                    got.push((line, offset, Vec::new()));
                                    continue;
                                }
                                match Token::read_all(&mut record) {
                                    Ok(tokens) => got.push((line, offset, tokens)),
                                    Err(err) => break Some(failure(&err)),
                                }
                            }
                            Ok(None) => break None,
                            Err(err) => break Some(failure(&err)),
                        }
                    };
                    match error {
                        Some(error) if error.0 == sluice_core::codes::IO => {
                            assert!(got.len() <= expected.0.len(), "{what}");
                            if whole {
                                assert!(is_prefix(&got, &expected.0), "{what}: {got:?}");
                            }
                            let before = calls.get();
                            let again = ndjson.next_record().err().map(|e| e.code());
                            assert_eq!(again, Some(error.0), "{what}");
                            assert_eq!(calls.get(), before, "{what}: read after its error");
                        }
                        error if whole => assert_eq!((got, error), expected, "{what}"),
                        _ => {}
                    }
                }
            }
        }
    }
}

const STRICT: JsonOptions = JsonOptions::strict();
const JSON5: JsonOptions = JsonOptions::json5();
const OBJECT_OR_ARRAY_ROOT: JsonOptions = JsonOptions {
    scalar_root: false,
    ..JsonOptions::strict()
};
const NDJSON: JsonOptions = JsonOptions::ndjson();

/// Bad documents whose error is found while the bad token is still arriving: the reader
/// loads the whole token to describe it.
const BAD_DOCUMENTS: [(&[u8], JsonOptions); 24] = [
    (b"[1 \"abcdefgh\"]", STRICT),
    (b"{\"a\" 1}", STRICT),
    (b"{\"a\" \"bcdef\"}", STRICT),
    (b"[1, 2,]", STRICT),
    (b"[tru]", STRICT),
    (b"{\"a\":1,\"a\":2}", STRICT),
    (b"[1] \"abcdef\"", STRICT),
    (b"[\"abc\\q\"]", STRICT),
    (b"[1.]", STRICT),
    (b"[nullx]", STRICT),
    (b"{\"abc\"}", STRICT),
    (b"[1 truex]", STRICT),
    (b"[\"\xC3\x28\"]", STRICT),
    (b"{\"abcdef\":1,\"abcdef\":2}", STRICT),
    (b"[1 \xF0\x9F\x98\x80]", STRICT),
    (b"[1 \xF0\x9F\x98]", STRICT),
    (b"{a b}", JSON5),
    (b"['abc' 'def']", JSON5),
    (b"[1 Infinityx]", JSON5),
    (b"\"abcdef\"", OBJECT_OR_ARRAY_ROOT),
    (b"truex", OBJECT_OR_ARRAY_ROOT),
    (b"12345", OBJECT_OR_ARRAY_ROOT),
    (b"1 \"abcdef\"\n", NDJSON),
    (b"[1]\n[2] truex\n", NDJSON),
];

#[test]
fn an_io_error_while_a_bad_token_is_described_neither_panics_nor_reads_past_it() {
    for (text, options) in &BAD_DOCUMENTS {
        for cut in 0..text.len() {
            for window in [1, 2, 3, 4096] {
                // The stream fails after `cut` bytes, then would hand out the rest.
                let steps = std::iter::repeat_n(Step::Data(1), cut).chain([Step::Broken]);
                let reader = Scripted::new(text, steps);
                let calls = Rc::clone(&reader.calls);
                let _ = io_trace(reader, window, options);
                assert!(
                    calls.get() <= cut + 1,
                    "{:?} failing after {cut} bytes, a {window}-byte window: read past its error",
                    String::from_utf8_lossy(text)
                );
            }
        }
    }
}

#[test]
fn an_io_error_in_a_bad_document_is_reported_unless_the_bad_token_was_whole_before_it() {
    // The outcome is the slice's, or the slice's tokens so far and the I/O error: never a
    // syntax error described from part of its token (`[1 tr` as `t`, a span of 1 byte).
    for (text, options) in &BAD_DOCUMENTS {
        let expected = slice_trace(text, options);
        for cut in 0..text.len() {
            for window in [1, 2, 3, 4096] {
                let steps = std::iter::repeat_n(Step::Data(1), cut).chain([Step::Broken]);
                let reader = Scripted::new(text, steps);
                let calls = Rc::clone(&reader.calls);
                let input = IoInput::with_window(reader, window);
                let mut json = JsonReader::new(input, options.clone());
                let (tokens, error) = trace(&mut json);
                let what = format!(
                    "{:?} failing after {cut} bytes, a {window}-byte window",
                    String::from_utf8_lossy(text)
                );
                match error {
                    Some(error) if error.0 == sluice_core::codes::IO => {
                        assert!(is_prefix(&tokens, &expected.0), "{what}: {tokens:?}");
                        assert_io_error_is_final(&mut json, &error, &calls, &what);
                    }
                    error => assert_eq!((tokens, error), expected, "{what}"),
                }
            }
        }
        if *options != NDJSON {
            continue;
        }
        // The same rule for records.
        let expected = records(NdjsonReader::new(SliceInput::new(text), NDJSON));
        for cut in 0..text.len() {
            let steps = std::iter::repeat_n(Step::Data(1), cut).chain([Step::Broken]);
            let input = IoInput::with_window(Scripted::new(text, steps), 2);
            let got = records(NdjsonReader::new(input, NDJSON));
            let what = format!(
                "{:?} failing after {cut} bytes",
                String::from_utf8_lossy(text)
            );
            match &got.1 {
                Some(error) if error.0 == sluice_core::codes::IO => {
                    assert!(is_prefix(&got.0, &expected.0), "{what}: {got:?}");
                }
                _ => assert_eq!(got, expected, "{what}"),
            }
        }
    }
}

// ----- what an I/O error carries: the stream's own error, and where the stream broke -------------

/// The error a stream of the tests fails with, inside an `io::Error`: which stream, so a
/// test can tell it is the very one the stream returned.
#[derive(Debug, PartialEq, Eq)]
struct PeerGone {
    stream: u32,
}

impl std::fmt::Display for PeerGone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "peer of stream {} went away", self.stream)
    }
}

impl std::error::Error for PeerGone {}

/// How a [`FailsAt`] stream fails.
#[derive(Debug, Clone, Copy)]
enum Failing {
    /// `ConnectionReset` around a [`PeerGone`] of this stream.
    Custom(u32),
    /// An error of the operating system, by its code.
    Os(i32),
}

impl Failing {
    fn error(self) -> io::Error {
        match self {
            Failing::Custom(stream) => {
                io::Error::new(io::ErrorKind::ConnectionReset, PeerGone { stream })
            }
            Failing::Os(code) => io::Error::from_raw_os_error(code),
        }
    }

    /// Asserts that `err` is `core/Io` with the stream's error as its source, unchanged.
    fn assert_source_of(self, err: &sluice_core::Error, what: &str) {
        assert_eq!(err.code(), sluice_core::codes::IO, "{what}");
        let source = std::error::Error::source(err).expect("the stream's error as the source");
        let io = source
            .downcast_ref::<io::Error>()
            .expect("an io::Error as the source");
        match self {
            Failing::Custom(stream) => {
                assert_eq!(io.kind(), io::ErrorKind::ConnectionReset, "{what}");
                let inner = io.get_ref().and_then(|e| e.downcast_ref::<PeerGone>());
                assert_eq!(inner, Some(&PeerGone { stream }), "{what}");
            }
            Failing::Os(code) => assert_eq!(io.raw_os_error(), Some(code), "{what}"),
        }
    }
}

/// Hands out the first `at` bytes of `bytes`, in reads as large as asked, then fails every
/// later call.
struct FailsAt<'a> {
    bytes: &'a [u8],
    at: usize,
    failing: Failing,
}

impl io::Read for FailsAt<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == 0 {
            return Err(self.failing.error());
        }
        let n = buf.len().min(self.at).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        self.at -= n;
        Ok(n)
    }
}

/// The same error object (not an equal one): the source of two reports of one error.
fn same_source(a: &sluice_core::Error, b: &sluice_core::Error) -> bool {
    match (std::error::Error::source(a), std::error::Error::source(b)) {
        (Some(a), Some(b)) => std::ptr::addr_eq(a, b),
        _ => false,
    }
}

const FAILINGS: [Failing; 2] = [Failing::Custom(7), Failing::Os(5)];

#[test]
fn an_io_error_reported_again_has_the_streams_own_error_as_its_source() {
    let text = b"[1, \"two\", 3]";
    for failing in FAILINGS {
        for at in [0, 6, 13] {
            let what = format!("{failing:?} after {at} bytes");
            let mut json = JsonReader::from_read(FailsAt {
                bytes: text,
                at,
                failing,
            });
            let first = Token::read_all(&mut json).unwrap_err();
            failing.assert_source_of(&first, &what);
            for again in [
                json.peek().unwrap_err(),
                json.read_u8().unwrap_err(),
                json.skip().unwrap_err(),
                json.finish().unwrap_err(),
            ] {
                failing.assert_source_of(&again, &what);
                assert!(same_source(&first, &again), "{what}");
            }
        }
    }
}

#[test]
fn an_io_error_in_ndjson_reported_again_has_the_streams_own_error_as_its_source() {
    let text = b"1\n[2, 3]\n4\n";
    for failing in FAILINGS {
        // Inside the second record, and between records.
        for at in [5, 9] {
            let what = format!("{failing:?} after {at} bytes");
            let mut records = NdjsonReader::from_read(FailsAt {
                bytes: text,
                at,
                failing,
            });
            let first = loop {
                match records.next_record() {
                    Ok(Some(mut record)) => {
                        if let Err(err) = Token::read_all(&mut record) {
                            break err;
                        }
                    }
                    Ok(None) => panic!("{what}: the stream's error is never reported"),
                    Err(err) => break err,
                }
            };
            failing.assert_source_of(&first, &what);
            let again = records.next_record().expect_err("the error again");
            failing.assert_source_of(&again, &what);
            assert!(same_source(&first, &again), "{what}");
            let skipped = records.skip_bad_record().unwrap_err();
            failing.assert_source_of(&skipped, &what);
            assert!(same_source(&first, &skipped), "{what}");
        }
    }
}

#[test]
fn the_io_error_of_a_parallel_run_has_the_streams_own_error_as_its_source() {
    let text = b"1\n2\n3\n";
    for failing in FAILINGS {
        let options = ParallelOptions {
            jobs: 2,
            ..ParallelOptions::default()
        };
        let input = FailsAt {
            bytes: text,
            at: 5,
            failing,
        };
        let err =
            ingest_blocks(input, &options, || (), |(), r, _| r.skip(), |()| Ok(())).unwrap_err();
        failing.assert_source_of(&err, &format!("{failing:?}"));
    }
}

#[test]
fn an_io_error_has_an_empty_span_where_the_stream_broke_whatever_the_window() {
    // `[1, "two", 3]`: at its start, after `[`, inside the string, between `,` and `3`,
    // and after the whole document (its end is never seen).
    let text = b"[1, \"two\", 3]";
    for at in [0, 1, 6, 10, 13] {
        for window in [1, 2, 3, 4, 7, 64, 4096] {
            // One byte a read, or as many as the window has room for.
            for one_by_one in [true, false] {
                let what = format!(
                    "failing after {at} bytes, a {window}-byte window, one by one: {one_by_one}"
                );
                let input: IoInput<Box<dyn io::Read>> = if one_by_one {
                    let steps = std::iter::repeat_n(Step::Data(1), at).chain([Step::Broken]);
                    IoInput::with_window(Box::new(Scripted::new(text, steps)), window)
                } else {
                    let failing = Failing::Os(5);
                    let stream = FailsAt {
                        bytes: text,
                        at,
                        failing,
                    };
                    IoInput::with_window(Box::new(stream), window)
                };
                let mut json = JsonReader::new(input, strict());
                let (tokens, err) = trace(&mut json);
                let err = err.expect("the stream's error");
                assert_eq!(err.0, sluice_core::codes::IO, "{what}");
                assert_eq!(err.1, Some(Span::at(at)), "{what}");
                assert!(
                    is_prefix(&tokens, &slice_trace(text, &strict()).0),
                    "{what}"
                );
                // Reported again with the same span.
                let again = json.peek().unwrap_err();
                assert_eq!(failure(&again), err, "{what}");
            }
        }
    }
}

#[test]
fn an_io_error_in_ndjson_has_an_empty_absolute_span_where_the_stream_broke() {
    let text = b"1\n[\"abc\", 3]\n4\n";
    // At the start, inside the second record's string, between its tokens, after its line
    // feed, after the last one.
    for at in [0, 5, 9, 13, 15] {
        for window in [1, 2, 3, 4096] {
            let what = format!("failing after {at} bytes, a {window}-byte window");
            let input = IoInput::with_window(
                FailsAt {
                    bytes: text,
                    at,
                    failing: Failing::Os(5),
                },
                window,
            );
            let (_, err) = records(NdjsonReader::new(input, JsonOptions::ndjson()));
            let err = err.expect("the stream's error");
            assert_eq!(err.0, sluice_core::codes::IO, "{what}");
            assert_eq!(err.1, Some(Span::at(at)), "{what}");
        }
    }
}

#[test]
fn the_io_error_of_a_parallel_run_has_an_empty_span_where_the_stream_broke() {
    // At the start, inside the first line, after it, and inside lines of later blocks.
    let mut text = Vec::new();
    for i in 0..500 {
        text.extend_from_slice(format!("[{i}, \"{}\"]\n", "p".repeat(i % 13)).as_bytes());
    }
    let line_end = text.iter().position(|&b| b == b'\n').unwrap() + 1;
    for at in [0, 3, line_end, 1500, 4000, text.len() - 2] {
        for block_size in [1024, 4096, 1 << 20] {
            let input = FailsAt {
                bytes: &text,
                at,
                failing: Failing::Custom(1),
            };
            let (_, err) = ingest(input, &strict(), block_size);
            let err = err.expect("the stream's error");
            assert_eq!(err.0, sluice_core::codes::IO, "{at} {block_size}");
            assert_eq!(err.1, Some(Span::at(at)), "{at} {block_size}");
        }
    }
}

// ----- memory ---------------------------------------------------------------------------------

#[test]
fn comments_whitespace_and_many_short_tokens_never_grow_the_window() {
    let many_keys: String = (0..2000).map(|i| format!("\"k{i}\":0,")).collect();
    let cases = [
        (
            format!("[1, /* {} */ 2]", "c".repeat(10_000)),
            JsonOptions::relaxed(),
        ),
        (
            format!("[1, // {}\n 2]", "c".repeat(10_000)),
            JsonOptions::relaxed(),
        ),
        (
            format!("[1, // {}\n 2]", "\u{e9}".repeat(10_000)),
            JsonOptions::relaxed(),
        ),
        (
            format!("[1, /* {} */ 2]", "\u{e9}".repeat(10_000)),
            JsonOptions::relaxed(),
        ),
        (format!("[{}1]", " ".repeat(10_000)), strict()),
        (format!("[{}0]", "1,".repeat(10_000)), strict()),
        (format!("{{{many_keys}\"z\":0}}"), strict()),
        (
            format!("[{}1]", "\u{3000}".repeat(3_000)),
            JsonOptions::json5(),
        ),
    ];
    for (text, options) in cases {
        let input = IoInput::with_window(text.as_bytes(), 16);
        let mut reader = JsonReader::new(input, options);
        Token::read_all(&mut reader).unwrap();
        reader.finish().unwrap();
        assert_eq!(reader.into_input().capacity(), 16, "{:?}", &text[..20]);
    }
}

#[test]
fn a_window_larger_than_the_stream_costs_what_the_stream_fills() {
    // The whole address space as the window: nothing is allocated up front.
    let text = br#"{"a": [1, "two"]}"#;
    for size in [usize::MAX, 1 << 40] {
        let mut reader = JsonReader::new(IoInput::with_window(&text[..], size), strict());
        assert_eq!(trace(&mut reader), slice_trace(text, &strict()));
        assert!(reader.into_input().capacity() <= sluice_json::IO_WINDOW);
    }
    // A large window is still reached, for few calls to the stream.
    let many: String = (0..400_000).map(|i| format!("{},", i % 10)).collect();
    let text = format!("[{many}0]");
    let reader = Scripted::new(text.as_bytes(), []);
    let calls = Rc::clone(&reader.calls);
    let mut json = JsonReader::new(IoInput::with_window(reader, 1 << 20), strict());
    assert_eq!(trace(&mut json), slice_trace(text.as_bytes(), &strict()));
    assert_eq!(json.into_input().capacity(), 1 << 20);
    // 800 KB: 64 KiB, then 64, 128 and 256 KiB more as the window doubles, the rest into
    // its last doubling, and the end.
    assert_eq!(calls.get(), 6);
}

#[test]
fn skip_and_reads_report_a_bad_token_without_asking_the_stream_for_the_bytes_after_it() {
    let options = JsonOptions {
        multiple_values: true,
        ..strict()
    };
    let cases: [(&[u8], ErrorCode, Span); 6] = [
        (b"[1,] 2", codes::UNEXPECTED_TOKEN, Span::new(3, 4)),
        (b"[1,]", codes::UNEXPECTED_TOKEN, Span::new(3, 4)),
        (b"[1,]\n", codes::UNEXPECTED_TOKEN, Span::new(3, 4)),
        (b"{\"a\": 1,}", codes::EXPECT_KEY, Span::new(8, 9)),
        (b"[[1] 2]", codes::EXPECT_COMMA, Span::new(5, 6)),
        ("[\"a\" é".as_bytes(), codes::EXPECT_COMMA, Span::new(5, 7)),
    ];
    for (text, code, span) in cases {
        let what = String::from_utf8_lossy(text);
        for window in [1, 2, 4096] {
            // Asked for a byte after `text`, the stream fails the test.
            let input = IoInput::with_window(OneLineThenBlocks { first: text }, window);
            let err = JsonReader::new(input, options.clone()).skip().unwrap_err();
            assert_eq!((err.code(), err.span()), (code, Some(span)), "{what}: skip");
            let input = IoInput::with_window(OneLineThenBlocks { first: text }, window);
            let (_, err) = trace(&mut JsonReader::new(input, options.clone()));
            assert_eq!(
                err.map(|e| (e.0, e.1)),
                Some((code, Some(span))),
                "{what}: reads"
            );
        }
    }
}
