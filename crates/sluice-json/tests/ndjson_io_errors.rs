//! NDJSON over a stream that breaks: which error a record whose value runs past its line
//! feed reports, and that an I/O error stays final.

use sluice_core::{ErrorCode, Span, Token};
use sluice_json::{IoInput, JsonOptions, NdjsonReader, SliceInput, codes};

/// A stream of `bytes` that hands out at most `chunk` bytes a read, and fails once `good`
/// bytes are out.
struct BreaksAfter<'a> {
    bytes: &'a [u8],
    good: usize,
    chunk: usize,
}

impl std::io::Read for BreaksAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.good == 0 {
            return Err(std::io::Error::other("the stream broke"));
        }
        let n = buf
            .len()
            .min(self.good)
            .min(self.chunk)
            .min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        self.good -= n;
        Ok(n)
    }
}

/// An error as comparable data: code, span, data path.
type Seen = (ErrorCode, Option<Span>, Option<String>);

fn seen(err: &sluice_core::Error) -> Seen {
    (err.code(), err.span(), err.path().map(ToString::to_string))
}

/// The errors a loop that skips bad records meets, in order, until the end or an I/O error
/// (then the I/O error is checked to be final).
fn errors_skipping<S: sluice_json::Input>(records: &mut NdjsonReader<S>) -> Vec<Seen> {
    let mut errors = Vec::new();
    loop {
        let err = match records.next_record() {
            Ok(None) => return errors,
            Ok(Some(mut record)) => {
                match Token::read_all(&mut record).and_then(|_| record.finish()) {
                    Ok(()) => continue,
                    Err(err) => err,
                }
            }
            Err(err) => err,
        };
        errors.push(seen(&err));
        // Skipping the bad line may meet the I/O error too, reading the line's rest.
        let io = match records.skip_bad_record() {
            Ok(skipped) => {
                assert!(skipped.is_some() || err.code() == sluice_core::codes::IO);
                err.code() == sluice_core::codes::IO
            }
            Err(skip) => {
                assert_eq!(skip.code(), sluice_core::codes::IO);
                if err.code() != sluice_core::codes::IO {
                    errors.push(seen(&skip));
                }
                true
            }
        };
        if io {
            for _ in 0..2 {
                let again = records.skip_bad_record().map(drop).unwrap_err();
                assert_eq!(again.code(), sluice_core::codes::IO);
                let again = records.next_record().map(drop).unwrap_err();
                assert_eq!(again.code(), sluice_core::codes::IO);
            }
            return errors;
        }
        assert!(errors.len() < 100, "no progress");
    }
}

#[test]
fn a_record_whose_line_ended_inside_its_value_reports_its_cut_before_a_later_io_error() {
    // The first record's value runs past its line feed (byte 3), into the next lines.
    let text = b"[1,\n2,3,\"four\"]\n[5]\n";
    let line_feed = 3;
    let slice = errors_skipping(&mut NdjsonReader::new(
        SliceInput::new(text),
        JsonOptions::ndjson(),
    ));
    assert_eq!(
        slice[0],
        (
            codes::UNEXPECTED_EOF,
            Some(Span::at(line_feed)),
            Some("$[1]".to_owned())
        )
    );
    for good in 0..text.len() {
        for (chunk, window) in [(1, 1), (1, 4), (3, 7), (64, 4096)] {
            let input = IoInput::with_window(
                BreaksAfter {
                    bytes: text,
                    good,
                    chunk,
                },
                window,
            );
            let mut records = NdjsonReader::new(input, JsonOptions::ndjson());
            let errors = errors_skipping(&mut records);
            let what =
                format!("breaking after {good} bytes, {chunk}-byte reads, a {window}-byte window");
            let io = errors.last().map(|e| e.0);
            assert_eq!(io, Some(sluice_core::codes::IO), "{what}: {errors:?}");
            if good <= line_feed {
                // The stream broke before the line ended: the I/O error is all there is.
                assert_eq!(errors.len(), 1, "{what}: {errors:?}");
            } else {
                // The line feed was read: the line is cut there whatever follows (the
                // stream is not read on past a cut line), as over the slice. The I/O error
                // comes with the next lines, where the stream broke, and is final.
                assert_eq!(errors[0], slice[0], "{what}");
                assert_eq!(
                    errors[..errors.len() - 1],
                    slice[..errors.len() - 1],
                    "{what}"
                );
            }
        }
    }
}

/// A stream that hands out `bytes`, `chunk` bytes a read, then has nothing more for now:
/// a socket or a pipe whose writer paused. Asked for more, it says
/// [`WouldBlock`](std::io::ErrorKind::WouldBlock), which the reader reports as an I/O error,
/// so a test that reads past the pause fails rather than hang.
struct Pausing<'a> {
    bytes: &'a [u8],
    chunk: usize,
}

impl std::io::Read for Pausing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.bytes.is_empty() {
            return Err(std::io::ErrorKind::WouldBlock.into());
        }
        let n = buf.len().min(self.chunk).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// A stream that is broken: every read fails.
struct Broken;

impl std::io::Read for Broken {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("the stream broke"))
    }
}

/// The first error met reading the records of `records` token by token, as code and span;
/// `None` after the last record.
fn first_error<S: sluice_json::Input>(mut records: NdjsonReader<S>) -> Option<(ErrorCode, Span)> {
    let err = loop {
        match records.next_record() {
            Ok(None) => return None,
            Ok(Some(mut record)) => {
                if let Err(err) = Token::read_all(&mut record) {
                    break err;
                }
            }
            Err(err) => break err,
        }
    };
    Some((err.code(), err.span()?))
}

/// `first_error` over `text` as a slice, then a stream that pauses after it (in reads of
/// one byte and of all of it) and one that breaks after it, with `options`.
fn first_errors(text: &[u8], options: &JsonOptions) -> Vec<Option<(ErrorCode, Span)>> {
    let records = |input| NdjsonReader::new(input, options.clone());
    vec![
        first_error(records(SliceInput::new(text))),
        first_error(NdjsonReader::new(
            IoInput::new(Pausing {
                bytes: text,
                chunk: 1,
            }),
            options.clone(),
        )),
        first_error(NdjsonReader::new(
            IoInput::new(Pausing {
                bytes: text,
                chunk: text.len().max(1),
            }),
            options.clone(),
        )),
        first_error(NdjsonReader::new(
            IoInput::new(std::io::Read::chain(text, Broken)),
            options.clone(),
        )),
    ]
}

#[test]
fn a_bad_token_is_reported_before_the_stream_is_asked_for_the_bytes_after_it() {
    let token = |at: usize, len: usize| Some((codes::UNEXPECTED_TOKEN, Span::new(at, at + len)));
    let cases: [(&[u8], _); 17] = [
        (b"[1,]", token(3, 1)),
        (b"[1,] ", token(3, 1)),
        (b"[1,]  ", token(3, 1)),
        // The line feed after the bad token does not cut the record: the token comes first.
        (b"[1,]\n", token(3, 1)),
        (b"[1,]\n2", token(3, 1)),
        (b"[1,}", token(3, 1)),
        (b"1\nx\n", token(2, 1)),
        (b"x\n ", token(0, 1)),
        // A byte order mark is looked for only while the bytes match one.
        (b"x\n", token(0, 1)),
        (b"\xEF\n", token(0, 1)),
        (b"\xEF\xBB1", token(0, 1)),
        (b"[1 2]", Some((codes::EXPECT_COMMA, Span::new(3, 4)))),
        (b"[1;", Some((codes::EXPECT_COMMA, Span::new(2, 3)))),
        (b"{\"a\" 1}", Some((codes::EXPECT_COLON, Span::new(5, 6)))),
        // A character of several bytes is loaded whole, and no further.
        ("[1,é]".as_bytes(), token(3, 2)),
        ("[1,😀".as_bytes(), token(3, 4)),
        // A byte that starts no character with the one before it shows the error at once.
        (b"[1,\xE2x", token(3, 1)),
    ];
    for (text, expected) in cases {
        for (how, error) in first_errors(text, &JsonOptions::ndjson())
            .iter()
            .enumerate()
        {
            assert_eq!(
                *error,
                expected,
                "{:?}, input {how}",
                String::from_utf8_lossy(text)
            );
        }
    }
}

#[test]
fn a_stream_that_breaks_after_a_whole_record_never_cuts_it_at_its_line_feed() {
    // Records whose line is whole before the break, with escapes near their end (the
    // lexer may look past an escape for a longer one): each is read, or the break is
    // reported where it is; the line feed after the value never cuts it.
    let json5 = JsonOptions {
        multiple_values: true,
        ..JsonOptions::json5()
    };
    let lines: [(&[u8], &JsonOptions); 6] = [
        (b"[\"a\\nb\"]\n", &JsonOptions::ndjson()),
        (b"{\"k\": \"\\u00e9\"}\n", &JsonOptions::ndjson()),
        (b"[\"\\uD83D\\uDE00\"]\n", &JsonOptions::ndjson()),
        (b"[\"\\x41\"]\n", &json5),
        (b"['\\'']\n", &json5),
        (b"{a: \"\\v\"}\n", &json5),
    ];
    for (line, options) in lines {
        let what = String::from_utf8_lossy(line);
        assert_eq!(
            first_error(NdjsonReader::new(SliceInput::new(line), options.clone())),
            None
        );
        for tail in [&b""[..], b"[", b"1\n"] {
            let text = [line, tail].concat();
            let input = IoInput::new(std::io::Read::chain(&text[..], Broken));
            match first_error(NdjsonReader::new(input, options.clone())) {
                Some((code, span)) => assert_eq!(
                    (code, span),
                    (sluice_core::codes::IO, Span::at(text.len())),
                    "{what} then {tail:?}"
                ),
                None => panic!("{what} then {tail:?}: no I/O error"),
            }
        }
    }
}

#[test]
fn a_record_whose_string_ends_in_an_escape_is_read_before_the_stream_is_asked_for_more() {
    // The stream pauses right after each record's line feed: the record must come whole,
    // and only the next one asks for more.
    let lines: [&[u8]; 6] = [
        b"[\"a\\nb\"]\n",
        b"\"\\\\\"\n",
        b"{\"k\\\"\": \"\\u00e9\"}\n",
        b"[\"\\uD83D\\uDE00\"]\n",
        b"[\"\\/\", \"\\t\"]\n",
        b"\"\\u0041\"\n",
    ];
    for line in lines {
        assert_record_comes_before_the_pause(line, &JsonOptions::ndjson());
    }
}

/// `line`, one record, is read over a stream that pauses right after it (in reads of one
/// byte and of the whole line) as over the slice, and only the next record asks for more.
fn assert_record_comes_before_the_pause(line: &[u8], options: &JsonOptions) {
    let what = String::from_utf8_lossy(line);
    let expected = Token::read_all(
        &mut NdjsonReader::new(SliceInput::new(line), options.clone())
            .next_record()
            .unwrap()
            .unwrap(),
    )
    .unwrap_or_else(|err| panic!("{what}: {err}"));
    for chunk in [1, line.len()] {
        let mut records = NdjsonReader::new(
            IoInput::new(Pausing { bytes: line, chunk }),
            options.clone(),
        );
        let mut record = records.next_record().unwrap().unwrap();
        let tokens = Token::read_all(&mut record).unwrap_or_else(|err| panic!("{what}: {err}"));
        assert_eq!(tokens, expected, "{what}");
        let err = records.next_record().map(drop).unwrap_err();
        assert_eq!(err.code(), sluice_core::codes::IO, "{what}");
    }
}

#[test]
fn a_bad_escape_is_reported_before_the_stream_is_asked_for_the_bytes_after_it() {
    let escape = |at: usize, len: usize| Some((codes::INVALID_ESCAPE, Span::new(at, at + len)));
    let cases: [(&[u8], _); 6] = [
        (b"[\"\\q", escape(2, 2)),
        ("[\"\\é".as_bytes(), escape(2, 3)),
        (b"[\"\\u12x", escape(2, 5)),
        (b"[\"\\u12", None),
        (
            b"[\"\\uD800\"]\n",
            Some((codes::LONE_SURROGATE, Span::new(2, 8))),
        ),
        (b"[\"\\uD800\\u1x", escape(8, 4)),
    ];
    for (text, expected) in cases {
        let errors = first_errors(text, &JsonOptions::ndjson());
        let what = String::from_utf8_lossy(text);
        // An escape cut by the end is never closed over a slice; over a stream that pauses
        // or breaks there, the stream's error comes first.
        let (slice, streams) = match expected {
            Some(_) => (expected, vec![expected; 3]),
            None => (
                Some((codes::UNCLOSED_STRING, Span::new(1, text.len()))),
                vec![Some((sluice_core::codes::IO, Span::at(text.len()))); 3],
            ),
        };
        assert_eq!(errors[0], slice, "{what}, slice");
        assert_eq!(errors[1..], streams[..], "{what}");
    }
}

#[test]
fn a_json5_record_ending_in_an_escape_is_read_before_the_stream_is_asked_for_more() {
    // JSON5's own escapes: each is its backslash and one character (`\x` two digits), and
    // only `\0` and `\r` look at the byte after them, which the open string has anyway.
    let lines: [&[u8]; 11] = [
        b"['\\'']\n",
        b"['\\v']\n",
        b"['\\0']\n",
        b"['\\x41']\n",
        b"['a\\\rb']\n".as_slice(),
        b"['\\q']\n",
        "['\\é']\n".as_bytes(),
        "['\\€']\n".as_bytes(),
        "['a\\\u{2028}b']\n".as_bytes(),
        // An identifier key's escapes load their own bytes too.
        b"{\\u0061:1}\n",
        b"{a\\u00e9:1}\n",
    ];
    for line in lines {
        assert_record_comes_before_the_pause(line, &JsonOptions::json5());
    }
}

#[test]
fn a_block_comment_left_open_at_its_line_feed_is_reported_before_the_stream_is_asked_for_more() {
    let options = JsonOptions {
        comments: true,
        ..JsonOptions::ndjson()
    };
    for line in [b"/*\n".as_slice(), b"1 /* x\n", b"[1, /*\n"] {
        let what = String::from_utf8_lossy(line);
        for chunk in [1, 2, line.len()] {
            let mut records = NdjsonReader::new(
                IoInput::new(Pausing { bytes: line, chunk }),
                options.clone(),
            );
            let err = loop {
                match records.next_record() {
                    Ok(Some(mut record)) => {
                        if let Err(err) = Token::read_all(&mut record) {
                            break err;
                        }
                    }
                    Ok(None) => panic!("{what}: no error"),
                    Err(err) => break err,
                }
            };
            assert_eq!(err.code(), codes::UNCLOSED_COMMENT, "{what}, chunk {chunk}");
            let start = line.iter().position(|&b| b == b'/').unwrap();
            assert_eq!(
                err.span(),
                Some(Span::new(start, line.len())),
                "{what}, chunk {chunk}"
            );
        }
    }
}

#[test]
fn a_json5_character_that_is_not_whitespace_is_reported_without_loading_bytes_after_it() {
    // JSON5 counts some characters of two and three bytes as whitespace; a character that
    // only starts like one is a bad token as soon as its own bytes are in.
    let token = |at: usize, len: usize| Some((codes::UNEXPECTED_TOKEN, Span::new(at, at + len)));
    let cases: [(&[u8], _); 4] = [
        // U+00A1 starts as U+00A0 does.
        ("[1,\u{A1}".as_bytes(), token(3, 2)),
        // U+2030 starts as U+2028 does; U+2100 as U+205F; U+3001 as U+3000.
        ("[1,\u{2030}".as_bytes(), token(3, 3)),
        ("[1,\u{2100}".as_bytes(), token(3, 3)),
        ("[1,\u{3001}".as_bytes(), token(3, 3)),
    ];
    for (text, expected) in cases {
        for (how, error) in first_errors(text, &JsonOptions::json5()).iter().enumerate() {
            assert_eq!(
                *error,
                expected,
                "{:?}, input {how}",
                String::from_utf8_lossy(text)
            );
        }
    }
}

#[test]
fn a_json5_record_ending_in_json5_whitespace_is_read_before_the_stream_is_asked_for_more() {
    let lines: [&[u8]; 5] = [
        b"1\x0B\n",
        b"[1]\x0C\n",
        "[1]\u{A0}\n".as_bytes(),
        "{a: 1,\u{2028}}\n".as_bytes(),
        "\u{FEFF}[\u{3000}1]\n".as_bytes(),
    ];
    for line in lines {
        assert_record_comes_before_the_pause(line, &JsonOptions::json5());
    }
}
