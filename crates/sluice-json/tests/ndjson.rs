//! NDJSON: records one by one with line numbers, errors, bounded memory, the writer.

mod common;

use common::{TYPED_NUMBER_READS, Trickle};
use sluice_core::ErrorCode;
use sluice_core::{Entry, Reader, Span, Token, ValueWriter, pipe_value};
use sluice_json::{Input, JsonOptions, NdjsonReader, NdjsonWriter, codes};

fn collect<S: Input>(
    reader: &mut NdjsonReader<S>,
) -> sluice_core::Result<Vec<(usize, usize, Vec<Token>)>> {
    let mut out = Vec::new();
    while let Some(mut record) = reader.next_record()? {
        let (line, offset) = (record.line(), record.offset());
        let tokens = Token::read_all(&mut record)?;
        assert_eq!(record.peek()?, Entry::Ended);
        out.push((line, offset, tokens));
    }
    Ok(out)
}

#[test]
fn records_come_with_line_numbers_and_offsets() {
    let text = "{\"a\":1}\n\n  [2]\r\n\"three\"\n4";
    let records = collect(&mut NdjsonReader::from_str(text)).unwrap();
    let places: Vec<_> = records.iter().map(|(l, o, _)| (*l, *o)).collect();
    assert_eq!(places, [(1, 0), (3, 11), (4, 16), (5, 24)]);
    assert_eq!(
        records[1].2,
        vec![
            Token::ArrayRoot(None),
            Token::Number(sluice_core::OwnedNumber::Text(
                "2".into(),
                sluice_core::NumberHint::Integer
            )),
            Token::ArrayEnd
        ]
    );
    for chunk in [1, 2, 7] {
        let mut io = NdjsonReader::from_read(Trickle {
            bytes: text.as_bytes(),
            chunk,
        });
        assert_eq!(collect(&mut io).unwrap(), records, "{chunk}");
    }
    assert!(collect(&mut NdjsonReader::from_str("")).unwrap().is_empty());
    assert!(
        collect(&mut NdjsonReader::from_str("\n\n"))
            .unwrap()
            .is_empty()
    );
}

#[test]
fn two_values_on_one_line_are_an_error() {
    let err = collect(&mut NdjsonReader::from_str("{}\n1 2\n")).unwrap_err();
    assert_eq!(
        (err.code(), err.span()),
        (codes::TRAILING_TOKEN, Some(Span::new(5, 6)))
    );
}

#[test]
fn a_line_feed_inside_a_value_ends_the_record_too_early() {
    // A record is one line: a value cut by its line feed is json/UnexpectedEof there, on
    // the record's line, in whitespace and after a line comment (inside a block comment the
    // comment is left open: see `a_block_comment_must_end_on_the_line_it_opens`).
    let comments = JsonOptions {
        comments: true,
        ..JsonOptions::ndjson()
    };
    for (text, at, options) in [
        ("{\"a\":\n1}\n", 5, JsonOptions::ndjson()),
        ("1\n[1\n2\n", 4, JsonOptions::ndjson()),
        ("[1,\r\n2]", 4, JsonOptions::ndjson()),
        ("[1, // one\n2]\n", 10, comments.clone()),
    ] {
        for chunk in [0, 1, 3] {
            let result = if chunk == 0 {
                collect(&mut NdjsonReader::new(
                    sluice_json::SliceInput::new(text.as_bytes()),
                    options.clone(),
                ))
            } else {
                collect(&mut NdjsonReader::new(
                    sluice_json::IoInput::new(Trickle {
                        bytes: text.as_bytes(),
                        chunk,
                    }),
                    options.clone(),
                ))
            };
            let err = result.expect_err(text);
            assert_eq!(err.code(), codes::UNEXPECTED_EOF, "{text:?} {chunk}");
            assert_eq!(err.span(), Some(Span::at(at)), "{text:?} {chunk}");
        }
    }
    // A block comment left open: cut off by a line feed before it, the record reports the
    // line feed; with the line feed inside the comment, the comment is what a reader of the
    // line alone finds open. Either way a second read repeats the first error.
    for (text, code, start) in [
        ("[1,\n/* open", codes::UNEXPECTED_EOF, 3),
        ("[1, /* open\nstill", codes::UNCLOSED_COMMENT, 4),
    ] {
        let mut records = NdjsonReader::new(
            sluice_json::SliceInput::new(text.as_bytes()),
            comments.clone(),
        );
        let mut record = records.next_record().unwrap().unwrap();
        let first = failure(Token::read_all(&mut record));
        let again = failure(record.peek());
        for err in [first, again] {
            assert_eq!(err.code(), code, "{text:?}");
            assert_eq!(err.span().map(|span| span.start), Some(start), "{text:?}");
        }
    }
    // Between records, and at the root before the first, line feeds and comments that end
    // on their line are fine.
    let text = "\n\n/* a b */ [1]\n// c\n\n{\"a\": 2}\n";
    assert_eq!(
        collect(&mut NdjsonReader::new(
            sluice_json::SliceInput::new(text.as_bytes()),
            comments
        ))
        .unwrap()
        .len(),
        2
    );
}

/// The error of `result`, which must be one (without printing a huge value if not).
#[track_caller]
fn failure<T>(result: sluice_core::Result<T>) -> sluice_core::Error {
    match result {
        Ok(_) => panic!("read without an error"),
        Err(err) => err,
    }
}

#[test]
fn a_line_feed_long_gone_from_the_window_still_breaks_the_record() {
    // The line feed comes early in a record far longer than the `io::Read` window: the
    // refills drop it long before the value ends, and it must still be found.
    let mut text = String::from("{\"id\":1}\n[1,\n");
    for i in 0..60_000 {
        text.push_str(&format!("{i},"));
    }
    text.push_str("0]\n{\"id\":3}\n");
    let expected = Some(Span::at(12));
    let slice = failure(collect(&mut NdjsonReader::from_str(&text)));
    assert_eq!(
        (slice.code(), slice.span()),
        (codes::UNEXPECTED_EOF, expected)
    );
    let io = failure(collect(&mut NdjsonReader::from_read(text.as_bytes())));
    assert_eq!((io.code(), io.span()), (codes::UNEXPECTED_EOF, expected));
    assert!(
        io.notes().iter().any(|note| note == "in record 2 (line 2)"),
        "{:?}",
        io.notes()
    );
    // Skipped rather than read, the record fails the same way.
    let mut records = NdjsonReader::from_read(text.as_bytes());
    assert!(records.next_record().unwrap().is_some());
    assert!(records.next_record().unwrap().is_some());
    let skipped = failure(records.next_record().map(|_| ()));
    assert_eq!(
        (skipped.code(), skipped.span()),
        (codes::UNEXPECTED_EOF, expected)
    );
}

#[test]
fn errors_inside_a_record_name_the_record_and_keep_absolute_spans() {
    let text = "{\"ok\":1}\n{\"ok\":2}\n{\"bad\" 3}\n";
    for chunk in [1, 4096] {
        let mut reader = NdjsonReader::from_read(Trickle {
            bytes: text.as_bytes(),
            chunk,
        });
        let err = collect(&mut reader).unwrap_err();
        assert_eq!(
            (err.code(), err.span()),
            (codes::EXPECT_COLON, Some(Span::new(25, 26)))
        );
        assert!(
            err.notes().iter().any(|n| n.contains("record 3 (line 3)")),
            "{:?}",
            err.notes()
        );
    }
}

#[test]
fn an_unfinished_record_is_skipped_and_checked() {
    let mut reader = NdjsonReader::from_str("{\"a\":[1,2,3]}\n{\"b\":2}\n[1 2]\n");
    let mut first = reader.next_record().unwrap().unwrap();
    first.read_map_root().unwrap();
    assert_eq!(first.read_name().unwrap(), "a");
    let mut second = reader.next_record().unwrap().unwrap();
    assert_eq!(second.line(), 2);
    assert_eq!(second.read_map_root().unwrap(), None);
    assert_eq!(reader.next_record().unwrap().unwrap().line(), 3);
    let err = reader.next_record().unwrap_err();
    // At the `2` of line 3, where a `,` is due.
    assert_eq!(
        (err.code(), err.span()),
        (codes::EXPECT_COMMA, Some(Span::new(25, 26)))
    );
}

#[test]
fn a_record_refuses_reads_past_its_end() {
    let mut reader = NdjsonReader::from_str("1\n2\n");
    let mut record = reader.next_record().unwrap().unwrap();
    assert_eq!(record.read_u8().unwrap(), 1);
    assert_eq!(record.peek().unwrap(), Entry::Ended);
    let err = record.read_u8().unwrap_err();
    assert_eq!(
        (err.code(), err.span()),
        (sluice_core::codes::UNEXPECTED_ENTRY, Some(Span::new(1, 1)))
    );
    assert_eq!(reader.next_record().unwrap().unwrap().read_u8().unwrap(), 2);
}

#[test]
fn corpus_files_read_the_same_on_both_paths_and_round_trip_through_the_writer() {
    for (file, count) in [
        ("ndjson/wikipedia-articles.ndjson", 1000),
        ("ndjson/nginxplus-status.ndjson", 500),
    ] {
        let Some(path) = sluice_core::testing::corpus_file(file) else {
            return;
        };
        let bytes = std::fs::read(path).unwrap();
        let records = collect(&mut NdjsonReader::from_slice(&bytes)).unwrap();
        assert_eq!(records.len(), count);
        assert!(
            records.iter().enumerate().all(|(i, r)| r.0 == i + 1),
            "one record per line"
        );
        let io = collect(&mut NdjsonReader::from_read(&bytes[..])).unwrap();
        assert_eq!(io, records);

        let mut writer = NdjsonWriter::new(Vec::new());
        let mut reader = NdjsonReader::from_slice(&bytes);
        while let Some(mut record) = reader.next_record().unwrap() {
            pipe_value(&mut record, &mut writer).unwrap();
        }
        assert_eq!(writer.records_written(), count);
        let out = writer.into_inner().unwrap();
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), count);
        let again = collect(&mut NdjsonReader::from_slice(&out)).unwrap();
        let tokens =
            |r: &Vec<(usize, usize, Vec<Token>)>| r.iter().map(|x| x.2.clone()).collect::<Vec<_>>();
        assert_eq!(tokens(&again), tokens(&records));
    }
}

#[test]
fn the_writer_ends_every_record_with_a_line_break_immediately() {
    let mut writer = NdjsonWriter::new(Vec::new());
    pipe_value(
        &mut sluice_json::JsonReader::from_str("{\"a\": [1, 2]}"),
        &mut writer,
    )
    .unwrap();
    sluice_core::Writer::write_str(&mut writer, "x").unwrap();
    assert_eq!(writer.into_inner().unwrap(), b"{\"a\":[1,2]}\n\"x\"\n");
    let mut value = ValueWriter::new();
    pipe_value(
        &mut NdjsonReader::from_str("[1]")
            .next_record()
            .unwrap()
            .unwrap(),
        &mut value,
    )
    .unwrap();
}

#[test]
fn typed_numbers_are_written_as_the_json_writer_writes_them() {
    use sluice_core::Writer;
    let mut writer = NdjsonWriter::new(Vec::new());
    writer.write_i64(i64::MIN).unwrap();
    writer.write_u64(u64::MAX).unwrap();
    writer.write_i128(i128::MIN).unwrap();
    writer.write_u128(u128::MAX).unwrap();
    writer.write_f32(0.1).unwrap();
    writer.write_f64(0.1).unwrap();
    writer.write_f64(-0.0).unwrap();
    assert_eq!(
        String::from_utf8(writer.into_inner().unwrap()).unwrap(),
        format!(
            "{}\n{}\n{}\n{}\n0.1\n0.1\n-0.0\n",
            i64::MIN,
            u64::MAX,
            i128::MIN,
            u128::MAX
        )
    );
    // Non-finite floats are refused as by the JSON writer, and nothing of them is written.
    let mut writer = NdjsonWriter::new(Vec::new());
    for refused in [
        writer.write_f32(f32::NAN).unwrap_err(),
        writer.write_f64(f64::INFINITY).unwrap_err(),
    ] {
        assert_eq!(refused.code(), codes::NON_FINITE_NUMBER);
    }
    writer.write_u64(1).unwrap();
    assert_eq!(writer.into_inner().unwrap(), b"1\n");
}

#[test]
fn an_error_in_the_first_token_of_a_record_names_the_record_and_its_line() {
    let cases = [
        (
            "1\n2\ntru\n",
            codes::UNEXPECTED_TOKEN,
            Span::new(4, 7),
            "record 3 (line 3)",
        ),
        (
            "1\n2\n-\n",
            codes::INVALID_NUMBER,
            Span::new(4, 5),
            "record 3 (line 3)",
        ),
        (
            "1\n\r\n2\n\"abc",
            codes::UNCLOSED_STRING,
            Span::new(6, 10),
            "record 3 (line 4)",
        ),
        // Two values on one line: the second would have been record 2, on line 1.
        (
            "1 2\n",
            codes::TRAILING_TOKEN,
            Span::new(2, 3),
            "record 2 (line 1)",
        ),
    ];
    for (text, code, span, note) in cases {
        for chunk in [1, 4096] {
            let mut reader = NdjsonReader::from_read(Trickle {
                bytes: text.as_bytes(),
                chunk,
            });
            let err = collect(&mut reader).unwrap_err();
            assert_eq!((err.code(), err.span()), (code, Some(span)), "{text:?}");
            assert!(
                err.notes().iter().any(|n| n.contains(note)),
                "{text:?}: {:?}",
                err.notes()
            );
        }
    }
}

#[test]
fn an_error_in_the_unread_rest_of_a_record_names_that_record() {
    let text = "{\"a\":[1,2,{\"b\":3}]}\n[1,2]\n\n{\"c\":x}\n";
    let mut reader = NdjsonReader::from_str(text);
    for _ in 0..3 {
        let mut record = reader.next_record().unwrap().unwrap();
        record.peek().unwrap();
    }
    let err = reader.next_record().unwrap_err();
    assert_eq!(
        (err.code(), err.span()),
        (codes::UNEXPECTED_TOKEN, Some(Span::new(32, 33)))
    );
    assert!(
        err.notes().iter().any(|n| n.contains("record 3 (line 4)")),
        "{:?}",
        err.notes()
    );
}

/// NDJSON records read with the JSON5 options (comments, JSON5 whitespace).
fn json5_records<R: std::io::Read>(read: R) -> NdjsonReader<sluice_json::IoInput<R>> {
    NdjsonReader::new(sluice_json::IoInput::new(read), JsonOptions::json5())
}

#[test]
fn an_unclosed_comment_is_reported_on_the_line_where_it_opens() {
    // Left open at the end of its line (its line feed included), or of the input.
    let cases = [
        ("/* \n\n", Span::new(0, 4), "record 1 (line 1)"),
        // After record 2, where record 3 would start.
        ("1\n2 /*\n\n\n", Span::new(4, 7), "record 3 (line 2)"),
        ("1\n\n\n/* a\nb\nc", Span::new(4, 9), "record 2 (line 4)"),
        ("1\n\n\n/* a", Span::new(4, 8), "record 2 (line 4)"),
    ];
    for (text, span, note) in cases {
        for chunk in [1, 3, 4096] {
            let mut reader = json5_records(Trickle {
                bytes: text.as_bytes(),
                chunk,
            });
            let err = collect(&mut reader).unwrap_err();
            assert_eq!(
                (err.code(), err.span()),
                (codes::UNCLOSED_COMMENT, Some(span)),
                "{text:?} {chunk}"
            );
            assert!(
                err.notes().iter().any(|n| n.contains(note)),
                "{text:?} {chunk}: {:?}",
                err.notes()
            );
        }
    }
}

#[test]
fn an_unclosed_comment_inside_a_record_is_reported_after_the_window_has_moved_past_it() {
    // The comment opens inside a record's value and runs over a line feed, its first line
    // longer than the window: when the line feed that leaves it open is found, the
    // comment's start is long gone from the window. The error is still the unclosed
    // comment from its start to the end of its line, on the record's line, as over the
    // slice.
    let text = format!(
        "{{\"a\":1}}\n{{\"b\" /* {}\n{} */ 1}}\n",
        "x".repeat(70_000),
        "y".repeat(100)
    );
    let line_end = text.find("x\n").unwrap() + 2;
    let expected = (codes::UNCLOSED_COMMENT, Some(Span::new(13, line_end)));
    let slice = failure(collect(&mut NdjsonReader::new(
        sluice_json::SliceInput::new(text.as_bytes()),
        JsonOptions::json5(),
    )));
    assert_eq!((slice.code(), slice.span()), expected);
    for chunk in [7, 4096] {
        let io = failure(collect(&mut json5_records(Trickle {
            bytes: text.as_bytes(),
            chunk,
        })));
        assert_eq!((io.code(), io.span()), expected, "{chunk}-byte reads");
        assert_eq!(io.notes(), slice.notes(), "{chunk}-byte reads");
        assert!(
            io.notes().iter().any(|note| note == "in record 2 (line 2)"),
            "{:?}",
            io.notes()
        );
    }
}

/// The records `reader` hands out before its first error, that error's code and span, and
/// the code and span of the error a further `next_record` gives.
fn records_then_error<S: sluice_json::Input>(
    mut reader: NdjsonReader<S>,
) -> (usize, (sluice_core::ErrorCode, Option<Span>), Option<Span>) {
    let mut records = 0;
    let err = loop {
        match reader.next_record() {
            Ok(Some(mut record)) => match Token::read_all(&mut record) {
                Ok(_) => records += 1,
                Err(err) => break err,
            },
            Ok(None) => panic!("read without an error"),
            Err(err) => break err,
        }
    };
    let again = failure(reader.next_record().map(|_| ()));
    assert_eq!(again.code(), err.code(), "a further read fails the same");
    (records, (err.code(), err.span()), again.span())
}

#[test]
fn a_block_comment_must_end_on_the_line_it_opens() {
    // A record is one line, and so is what stands between records: a block comment that
    // goes on past a line feed is left open at the end of its line (its line feed
    // included), before the first record, between records, after a record on its line,
    // and inside a record's value, as a reader of that line alone finds it. Over the slice
    // and over `io::Read` through windows of a few bytes.
    let comments = JsonOptions {
        comments: true,
        ..JsonOptions::ndjson()
    };
    let cases = [
        ("/* a\n b */\n{\"a\":1}\n", 0, Span::new(0, 5)),
        ("{\"a\":1}\n/* a\n b */\n{\"b\":2}\n", 1, Span::new(8, 13)),
        ("{\"a\":1} /* a\n b */\n{\"b\":2}\n", 1, Span::new(8, 13)),
        ("{\"a\":1}\n/* a\n b */ {\"b\":2}\n", 1, Span::new(8, 13)),
        ("{\"a\":1}\n/* a\r\n b */\n", 1, Span::new(8, 14)),
        ("{\"a\":1}\n/* \u{e9}\n */", 1, Span::new(8, 14)),
        ("{\"a\":1 /* x\n */}\n", 0, Span::new(7, 12)),
        ("[1, /* one\ntwo */ 2]\n", 0, Span::new(4, 11)),
    ];
    for (text, before, span) in cases {
        let expected = (before, (codes::UNCLOSED_COMMENT, Some(span)), Some(span));
        let slice = NdjsonReader::new(
            sluice_json::SliceInput::new(text.as_bytes()),
            comments.clone(),
        );
        assert_eq!(records_then_error(slice), expected, "{text:?}");
        for window in 1..=8 {
            for chunk in [1, 2, 5] {
                let input = sluice_json::IoInput::with_window(
                    Trickle {
                        bytes: text.as_bytes(),
                        chunk,
                    },
                    window,
                );
                let io = NdjsonReader::new(input, comments.clone());
                assert_eq!(
                    records_then_error(io),
                    expected,
                    "{text:?}: a {window}-byte window, {chunk} bytes a read"
                );
            }
        }
    }
}

#[test]
fn json5_whitespace_may_surround_records_but_only_a_line_feed_separates_them() {
    for text in [
        "1 \n\u{c}2",
        "1\u{c}\n2",
        "\u{b}1\n\u{a0}2\u{3000}\n",
        "1\n\u{2028}2",
    ] {
        for chunk in [1, 4096] {
            let mut reader = json5_records(Trickle {
                bytes: text.as_bytes(),
                chunk,
            });
            let records = collect(&mut reader).unwrap();
            let values: Vec<_> = records
                .iter()
                .map(|(_, _, tokens)| tokens.clone())
                .collect();
            assert_eq!(values.len(), 2, "{text:?}");
            assert_eq!(records[1].0, 2, "{text:?}: the second record is on line 2");
        }
    }
    // JSON5 whitespace is no line break: two values on one line stay an error.
    let mut reader = json5_records(Trickle {
        bytes: "1\u{c}2\n".as_bytes(),
        chunk: 4096,
    });
    let err = collect(&mut reader).unwrap_err();
    assert_eq!(
        (err.code(), err.span()),
        (codes::TRAILING_TOKEN, Some(Span::new(2, 3)))
    );
    // And the strict options do not take it: the form feed is the trailing token.
    let mut reader = NdjsonReader::from_str("1\u{c}\n2");
    let err = collect(&mut reader).unwrap_err();
    assert_eq!(
        (err.code(), err.span()),
        (codes::TRAILING_TOKEN, Some(Span::new(1, 2)))
    );
}

/// Hands out its pieces one per read, then fails: a peer that sent a record and now waits
/// for an answer before it sends more.
struct Paused<'a> {
    pieces: std::collections::VecDeque<&'a [u8]>,
}

impl std::io::Read for Paused<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let piece = self
            .pieces
            .pop_front()
            .ok_or_else(|| std::io::Error::other("read past the pause"))?;
        buf[..piece.len()].copy_from_slice(piece);
        Ok(piece.len())
    }
}

fn integer(text: &str) -> Token {
    Token::Number(sluice_core::OwnedNumber::Text(
        text.into(),
        sluice_core::NumberHint::Integer,
    ))
}

#[test]
fn a_record_whose_number_arrives_in_pieces_is_read_without_waiting_for_more() {
    let pieces = [&b"[1, 2"[..], b"34", b"5", b"6789", b"0]\n"];
    let mut reader = NdjsonReader::from_read(Paused {
        pieces: pieces.into_iter().collect(),
    });
    let mut record = reader.next_record().unwrap().unwrap();
    assert_eq!(
        Token::read_all(&mut record).unwrap(),
        [
            Token::ArrayRoot(None),
            integer("1"),
            integer("234567890"),
            Token::ArrayEnd
        ]
    );
    // Only the next record asks for more.
    let err = reader.next_record().expect_err("the stream paused");
    assert_eq!(err.code(), sluice_core::codes::IO);
}

#[test]
fn a_records_line_is_the_line_its_errors_are_shown_on_after_a_lone_carriage_return() {
    // A lone `\r` is whitespace inside a line: it separates no records, and the line index
    // that renders diagnostics does not start a line at it either.
    let text = "{\"a\":\r1}\n[2]\r\n\"x\"\r 3\n";
    let index = sluice_core::span::LineIndex::new(text.as_bytes());
    let mut reader = NdjsonReader::from_str(text);
    let mut lines = Vec::new();
    let err = loop {
        match reader.next_record() {
            Ok(Some(mut record)) => {
                let shown = index.line_column(record.offset()).line;
                lines.push((record.line(), shown));
                Token::read_all(&mut record).unwrap();
            }
            Ok(None) => panic!("the last line holds two values"),
            Err(err) => break err,
        }
    };
    assert_eq!(lines, [(1, 1), (2, 2), (3, 3)]);
    assert_eq!(
        (err.code(), err.span()),
        (codes::TRAILING_TOKEN, Some(Span::new(19, 20)))
    );
    assert_eq!(index.line_column(19).line, 3);
}

#[test]
fn a_record_cut_at_a_crlf_line_end_is_shown_where_it_is_with_lf_endings() {
    // The cut is at the line feed, after the `\r` of `\r\n`, which the snippet does not
    // show: line:column are those of the caret, right after `[2,`, as with `\n` endings.
    for text in ["[1]\n[2,\n[3]\n", "[1]\r\n[2,\r\n[3]\r\n"] {
        let err = failure(collect(&mut NdjsonReader::from_str(text)));
        let at = text.find("[2,").unwrap() + 3 + usize::from(text.contains('\r'));
        assert_eq!(
            (err.code(), err.span()),
            (codes::UNEXPECTED_EOF, Some(Span::at(at))),
            "{text:?}"
        );
        let err = err.with_source_text("in.ndjson", text);
        let position = err.line_column().unwrap();
        assert_eq!((position.line, position.column), (2, 4), "{text:?}");
        assert!(
            err.render().contains("2 | [2,\n  |    ^\n"),
            "{}",
            err.render()
        );
    }
}

#[test]
fn an_error_the_line_shows_comes_before_the_line_feed_that_cuts_the_token() {
    // A JSON5 string with an escaped line break, where a `,` is due: the line alone has the
    // string's start only, and that is what the error spans.
    let text = "[\"a\" \"\\\nb\"]\n";
    let mut records = json5_records(text.as_bytes());
    let err = collect(&mut records).unwrap_err();
    assert_eq!(
        (err.code(), err.span()),
        (codes::EXPECT_COMMA, Some(Span::new(5, 6)))
    );
    // A reader of the whole text reads the string over the line feed, and spans all of it.
    let options = JsonOptions {
        multiple_values: true,
        ..JsonOptions::json5()
    };
    let mut reader = sluice_json::JsonReader::from_slice(text.as_bytes()).with_options(options);
    let err = Token::read_all(&mut reader).unwrap_err();
    assert_eq!(
        (err.code(), err.span()),
        (codes::EXPECT_COMMA, Some(Span::new(5, 10)))
    );
}

#[test]
fn a_number_that_does_not_convert_names_its_record_and_data_path() {
    // The second record's number is no integer and too large for a float: every typed read
    // fails over the number's absolute span, at the data path `$[0]`, with the note on the
    // record's other errors.
    for (name, read) in TYPED_NUMBER_READS {
        let text = "1\n[1.5e400]\n";
        let mut records = NdjsonReader::from_str(text);
        assert!(records.next_record().unwrap().is_some());
        let mut record = records.next_record().unwrap().unwrap();
        record.read_array_root().unwrap();
        let mismatch = failure(record.read_bool());
        let err = failure(read(&mut record));
        assert_eq!(err.span(), Some(Span::new(3, 10)), "{name}");
        assert_eq!(
            err.path().map(ToString::to_string).as_deref(),
            Some("$[0]"),
            "{name}"
        );
        assert!(!mismatch.notes().is_empty());
        assert_eq!(err.notes(), mismatch.notes(), "{name}");
        assert!(
            [
                sluice_core::codes::NUMBER_OUT_OF_RANGE,
                sluice_core::codes::NUMBER_NOT_INTEGER
            ]
            .contains(&err.code()),
            "{name}: {}",
            err.code()
        );
    }
}

#[test]
fn a_number_on_the_line_after_its_record_is_cut_at_the_line_feed() {
    // The number stands on the next line: whatever reading it gives, the record's line has
    // ended first, at the line feed (as `read_number` and a reader of that line alone report).
    for (name, read) in TYPED_NUMBER_READS {
        let text = "{\"a\":\n1.5e400}\n";
        let mut records = NdjsonReader::from_str(text);
        let mut record = records.next_record().unwrap().unwrap();
        record.read_map_root().unwrap();
        record.read_name().unwrap();
        let err = failure(read(&mut record));
        assert_eq!(
            (err.code(), err.span()),
            (codes::UNEXPECTED_EOF, Some(Span::at(5))),
            "{name}"
        );
    }
}

#[test]
fn a_record_cut_by_its_line_feed_stays_failed_once_a_read_has_reported_the_cut() {
    // The read of the item on the next line fails, a string asked for a number and a
    // number that does not fit: as the line feed that cut the record. No later read hands out
    // the rest of the next line as the record's: each reports the cut again, as a syntax
    // error is reported again, and so does `next_record`.
    type Read =
        fn(&mut sluice_json::Record<'_, sluice_json::SliceInput<'_>>) -> sluice_core::Result<()>;
    let cases: [(&str, Read); 2] = [
        ("[1,\n2, 3]\n4\n", |r| r.read_str().map(drop)),
        ("[1,\n300, 3]\n4\n", |r| r.read_u8().map(drop)),
    ];
    let cut = (codes::UNEXPECTED_EOF, Some(Span::at(3)));
    for (text, read) in cases {
        let mut records = NdjsonReader::from_str(text);
        let mut record = records.next_record().unwrap().unwrap();
        record.read_array_root().unwrap();
        assert_eq!(record.read_u8().unwrap(), 1);
        let err = failure(read(&mut record));
        assert_eq!((err.code(), err.span()), cut, "{text:?}");
        let again = [
            failure(record.peek()),
            failure(record.read_u8()),
            failure(record.read_number().map(drop)),
            failure(record.skip()),
        ];
        for err in again {
            assert_eq!((err.code(), err.span()), cut, "{text:?}");
        }
        let err = failure(records.next_record().map(drop));
        assert_eq!((err.code(), err.span()), cut, "{text:?}");
    }
}

/// Records of `text` from the slice (`chunk` 0) or through `io::Read` in `chunk`-byte reads.
fn records_of(text: &[u8], chunk: usize) -> NdjsonReader<sluice_json::IoInput<Trickle<'_>>> {
    // Chunk 0 stands for the whole text in one read.
    let chunk = if chunk == 0 { text.len().max(1) } else { chunk };
    NdjsonReader::from_read(Trickle { bytes: text, chunk })
}

#[test]
fn a_string_that_is_not_utf8_on_the_line_after_its_record_stops_the_reader_at_the_cut() {
    // The string on the next line is read: its bytes are not UTF-8, but the record's line
    // ended first, at offset 5. The reader stops there as at any other cut: it used to go
    // on handing out the next line's tokens (`]`) as the record's.
    let text = b"[\"a\",\n\"\xff\"]\n[1]\n";
    let cut = (codes::UNEXPECTED_EOF, Some(Span::at(5)));
    fn check<S: Input>(mut record: sluice_json::Record<'_, S>, how: &str) {
        let cut = (codes::UNEXPECTED_EOF, Some(Span::at(5)));
        record.read_array_root().unwrap();
        assert_eq!(record.read_str().unwrap(), "a", "{how}");
        let errors = [
            failure(record.read_str().map(drop)),
            failure(record.peek()),
            failure(record.read_array_end()),
            failure(record.read_str().map(drop)),
            failure(record.skip()),
        ];
        for err in errors {
            assert_eq!((err.code(), err.span()), cut, "{how}");
        }
    }
    let mut records = NdjsonReader::from_slice(text);
    check(records.next_record().unwrap().unwrap(), "slice");
    let err = failure(records.next_record().map(drop));
    assert_eq!((err.code(), err.span()), cut);
    for chunk in 1..=9 {
        let how = format!("{chunk}-byte reads");
        let mut records = records_of(text, chunk);
        check(records.next_record().unwrap().unwrap(), &how);
        let err = failure(records.next_record().map(drop));
        assert_eq!((err.code(), err.span()), cut, "{how}");
    }
    // Skipped rather than read, the same.
    let mut records = NdjsonReader::from_slice(text);
    let mut record = records.next_record().unwrap().unwrap();
    let err = failure(record.skip());
    assert_eq!((err.code(), err.span()), cut);
    assert_eq!(failure(record.peek()).code(), codes::UNEXPECTED_EOF);
}

#[test]
fn after_a_record_with_an_error_in_its_input_next_record_repeats_the_error() {
    // A syntax error, a string that is not UTF-8, a duplicate key, each in record 2: the
    // reader stops, and `next_record` reports the same error again rather than go on to
    // record 3 (`skip_bad_record` is the way past bad records).
    let cases: [(&[u8], sluice_core::ErrorCode, Span); 3] = [
        (b"1\n[1 2]\n3\n", codes::EXPECT_COMMA, Span::new(5, 6)),
        (b"1\n[\"\xff\"]\n3\n", codes::INVALID_UTF8, Span::new(4, 5)),
        (
            b"1\n{\"a\":1,\"a\":2}\n3\n",
            codes::DUPLICATE_KEY,
            Span::new(9, 12),
        ),
    ];
    for (text, code, span) in cases {
        for chunk in 0..=9 {
            let how = format!("{:?} {chunk}-byte reads", String::from_utf8_lossy(text));
            let mut records = records_of(text, chunk);
            let mut first = records.next_record().unwrap().unwrap();
            assert_eq!(first.read_u8().unwrap(), 1, "{how}");
            let mut second = records.next_record().unwrap().unwrap();
            let err = failure(Token::read_all(&mut second));
            assert_eq!((err.code(), err.span()), (code, Some(span)), "{how}");
            let err = failure(second.peek());
            assert_eq!((err.code(), err.span()), (code, Some(span)), "{how}");
            for _ in 0..2 {
                let err = failure(records.next_record().map(drop));
                assert_eq!((err.code(), err.span()), (code, Some(span)), "{how}");
            }
        }
    }
}

#[test]
fn a_duplicate_key_in_a_record_stops_the_reader() {
    // The key used to stay pending: every `next_record` reported it again, but a peek
    // answered `Name`.
    let text = b"{\"a\":1,\"a\":2}\n{\"b\":3}\n";
    let duplicate = (codes::DUPLICATE_KEY, Some(Span::new(7, 10)));
    for chunk in 0..=9 {
        let mut records = records_of(text, chunk);
        let mut record = records.next_record().unwrap().unwrap();
        record.read_map_root().unwrap();
        assert_eq!(record.read_name().unwrap(), "a");
        assert_eq!(record.read_u8().unwrap(), 1);
        let errors = [
            failure(record.read_name().map(drop)),
            failure(record.peek()),
            failure(record.read_u8()),
            failure(record.skip()),
        ];
        for err in errors {
            assert_eq!((err.code(), err.span()), duplicate, "{chunk}");
        }
        let err = failure(records.next_record().map(drop));
        assert_eq!((err.code(), err.span()), duplicate, "{chunk}");
    }
}

#[test]
fn after_a_read_of_the_wrong_type_next_record_goes_on_to_the_next_record() {
    // A read the record cannot answer (a string read as a number, 300 read as a u8) is
    // the caller's error: the token stays, another read may take it, and `next_record`
    // skips (and checks) the rest of the record and hands out the next one.
    let text = b"{\"a\":\"x\",\"b\":300}\n{\"a\":\"y\",\"b\":2}\n";
    for chunk in 0..=9 {
        let mut records = records_of(text, chunk);
        let mut record = records.next_record().unwrap().unwrap();
        record.read_map_root().unwrap();
        record.read_name().unwrap();
        let err = failure(record.read_u8());
        assert_eq!(
            (err.code(), err.span()),
            (sluice_core::codes::UNEXPECTED_ENTRY, Some(Span::new(5, 8))),
            "{chunk}"
        );
        assert_eq!(record.read_str().unwrap(), "x", "{chunk}");
        record.read_name().unwrap();
        let err = failure(record.read_u8());
        assert_eq!(
            (err.code(), err.span()),
            (
                sluice_core::codes::NUMBER_OUT_OF_RANGE,
                Some(Span::new(13, 16))
            ),
            "{chunk}"
        );
        assert_eq!(
            record.peek().unwrap(),
            Entry::Number(sluice_core::NumberHint::Integer)
        );
        let mut next = records.next_record().unwrap().unwrap();
        assert_eq!((next.number(), next.line()), (2, 2), "{chunk}");
        next.read_map_root().unwrap();
        assert_eq!(next.read_name().unwrap(), "a", "{chunk}");
        assert_eq!(next.read_str().unwrap(), "y", "{chunk}");
        assert!(records.next_record().unwrap().is_none(), "{chunk}");
    }
}

// ----- going on past bad records ----------------------------------------------------------

/// What a loop that goes on past bad records saw, in input order.
#[derive(Debug, Clone, PartialEq)]
enum Seen {
    /// A record read whole: its number, line, offset and tokens.
    Good(u64, usize, usize, Vec<Token>),
    /// A bad line dropped by `skip_bad_record`: its number, the error's code, span and data
    /// path, and the records read once it is dropped.
    Bad(
        usize,
        sluice_core::ErrorCode,
        Option<Span>,
        Option<String>,
        u64,
    ),
}

/// Reads every record of `records`, skipping the bad ones.
fn read_skipping<S: Input>(records: &mut NdjsonReader<S>) -> Vec<Seen> {
    read_skipping_with(records, false)
}

/// [`read_skipping`], each record checked with `Record::finish` before it counts as good
/// when `finish`.
fn read_skipping_with<S: Input>(records: &mut NdjsonReader<S>, finish: bool) -> Vec<Seen> {
    let mut seen = Vec::new();
    loop {
        let err = match records.next_record() {
            Ok(None) => return seen,
            Ok(Some(mut record)) => {
                let (number, line, offset) = (record.number(), record.line(), record.offset());
                let read = Token::read_all(&mut record);
                let read = if finish {
                    read.and_then(|tokens| record.finish().map(|()| tokens))
                } else {
                    read
                };
                match read {
                    Ok(tokens) => {
                        seen.push(Seen::Good(number, line, offset, tokens));
                        continue;
                    }
                    Err(err) => err,
                }
            }
            Err(err) => err,
        };
        let line = records
            .skip_bad_record()
            .expect("no I/O error")
            .expect("a failure to skip");
        let path = err.path().map(ToString::to_string);
        let read = records.records_read();
        seen.push(Seen::Bad(line, err.code(), err.span(), path, read));
        assert!(seen.len() < 1000, "no progress");
    }
}

/// `seen` of the lines after byte `from` (line `lines + 1`, `records` records before it) as
/// the whole input sees them.
fn shifted(seen: Vec<Seen>, from: usize, lines: usize, records: u64) -> Vec<Seen> {
    let span = |span: Option<Span>| span.map(|s| Span::new(s.start + from, s.end + from));
    seen.into_iter()
        .map(|seen| match seen {
            Seen::Good(number, line, offset, tokens) => {
                Seen::Good(number + records, line + lines, offset + from, tokens)
            }
            Seen::Bad(line, code, at, path, read) => {
                Seen::Bad(line + lines, code, span(at), path, read + records)
            }
        })
        .collect()
}

/// Inputs with bad records of every kind: a syntax error, invalid UTF-8, a duplicate key,
/// depth exceeded, a second value on a line, a record cut by its line feed, an unclosed
/// block comment, a bad first token; at the first line, the last line without a line feed,
/// several in a row, with CRLF endings and blank lines around.
fn inputs_with_bad_records() -> Vec<Vec<u8>> {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let mut inputs: Vec<Vec<u8>> = vec![
        b"[1 2]\n{\"a\":1}\n".to_vec(),
        b"{\"a\":1}\n[1 2]\n{\"b\":2}\n[3]\n".to_vec(),
        b"1\n[\"\xff\"]\n{\"a\":1,\"a\":2}\ntru\n2\n".to_vec(),
        b"1\n2 3\n4\n".to_vec(),
        b"{\"a\":1} {\"b\":2}\n[1] x\r\n[2]\n3 4".to_vec(),
        b"[1,\n2]\n[3,\n{\"a\":[4]}\n5\n".to_vec(),
        b"[1,\r\n\r\n{\"a\":1}\r\n[x]\r\n\r\n7\r\n".to_vec(),
        b"\n\n{\"a\":\n\n\n[1]\n\n".to_vec(),
        b"1\n2\n[1, \"unclosed".to_vec(),
        b"1\n2\n{\"a\" 1}".to_vec(),
        b"[1]\n\"a\x01b\"\n[{\"k\":\"v\",\"k\":0}]\n{}\n".to_vec(),
        // A root string that is not UTF-8: the read that finds it had taken it as the
        // record's whole value, which must not count as read.
        b"\"\xff\"\n1\n\"ok\"\n\"\xc3\"\n".to_vec(),
    ];
    inputs.push(format!("1\n{deep}\n[2]\n").into_bytes());
    inputs
}

/// The records of `text` over the slice (`chunk` 0) or through `io::Read`, `chunk` bytes a
/// read, in a window a few bytes larger for odd chunks.
fn skipping_over(text: &[u8], chunk: usize, options: &JsonOptions) -> Vec<Seen> {
    skipping_over_with(text, chunk, options, false).0
}

/// [`skipping_over`] with [`read_skipping_with`]'s `finish`; also the records read.
fn skipping_over_with(
    text: &[u8],
    chunk: usize,
    options: &JsonOptions,
    finish: bool,
) -> (Vec<Seen>, u64) {
    if chunk == 0 {
        let input = sluice_json::SliceInput::new(text);
        let mut records = NdjsonReader::new(input, options.clone());
        (
            read_skipping_with(&mut records, finish),
            records.records_read(),
        )
    } else {
        let input = common::trickle_input(text, chunk);
        let mut records = NdjsonReader::new(input, options.clone());
        (
            read_skipping_with(&mut records, finish),
            records.records_read(),
        )
    }
}

/// `seen` without the data paths of errors (a record cut by its line feed fails at an
/// earlier token through a small window, with the same code and span).
fn without_paths(seen: &[Seen]) -> Vec<Seen> {
    seen.iter()
        .map(|seen| match seen {
            Seen::Bad(line, code, span, _, read) => Seen::Bad(*line, *code, *span, None, *read),
            good => good.clone(),
        })
        .collect()
}

#[test]
fn after_a_bad_record_the_next_lines_are_read_as_a_fresh_reader_reads_them() {
    let comments = JsonOptions {
        comments: true,
        ..JsonOptions::ndjson()
    };
    let mut inputs = inputs_with_bad_records();
    inputs.push(b"1\n/* open\n[2]\n[3 /* open\n4\n".to_vec());
    for text in &inputs {
        let what = String::from_utf8_lossy(text);
        let seen = skipping_over(text, 0, &comments);
        assert!(
            seen.iter().any(|s| matches!(s, Seen::Bad(..))),
            "{what:?}: {seen:?}"
        );
        // The lines after the first bad one, read by a reader of their own.
        let first_bad = seen
            .iter()
            .position(|s| matches!(s, Seen::Bad(..)))
            .unwrap();
        let Seen::Bad(line, _, _, _, records) = seen[first_bad] else {
            unreachable!()
        };
        let from = text
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(line - 1)
            .map_or(text.len(), |(at, _)| at + 1);
        let rest = skipping_over(&text[from..], 0, &comments);
        assert_eq!(
            seen[first_bad + 1..].to_vec(),
            shifted(rest, from, line, records),
            "{what:?}"
        );
        for chunk in [1, 2, 3, 7] {
            assert_eq!(
                without_paths(&skipping_over(text, chunk, &comments)),
                without_paths(&seen),
                "{what:?} {chunk}-byte reads"
            );
        }
    }
}

#[test]
fn skipped_bad_records_are_numbered_and_named_by_their_line() {
    let text = "[1 2]\n\n{\"a\":1}\n1 2\n[3,\n4\n{\"a\" 1}";
    let seen = read_skipping(&mut NdjsonReader::from_str(text));
    let object_a = vec![
        Token::MapRoot(None),
        Token::Name("a".into()),
        integer("1"),
        Token::MapEnd,
    ];
    assert_eq!(
        without_paths(&seen),
        [
            // The first line is bad at its third token: record 1.
            Seen::Bad(1, codes::EXPECT_COMMA, Some(Span::new(3, 4)), None, 1),
            Seen::Good(2, 3, 7, object_a),
            // Record 3 is handed out, then its line shows a second value: record 4, as
            // the error's note says.
            Seen::Good(3, 4, 15, vec![integer("1")]),
            Seen::Bad(4, codes::TRAILING_TOKEN, Some(Span::new(17, 18)), None, 4),
            // Record 5 is cut by its line feed: the next line is record 6.
            Seen::Bad(5, codes::UNEXPECTED_EOF, Some(Span::at(22)), None, 5),
            Seen::Good(6, 6, 23, vec![integer("4")]),
            // The last line, without a line feed.
            Seen::Bad(7, codes::EXPECT_COLON, Some(Span::new(30, 31)), None, 7),
        ]
    );
}

#[test]
fn a_skipped_line_counts_as_the_record_its_error_names() {
    // A second value on the line of record 1 is record 2, as its note says.
    let mut records = NdjsonReader::from_str("1 2\n3\n");
    assert_eq!(
        records.next_record().unwrap().unwrap().read_u8().unwrap(),
        1
    );
    let err = failure(records.next_record().map(drop));
    assert!(
        err.notes().iter().any(|n| n == "in record 2 (line 1)"),
        "{:?}",
        err.notes()
    );
    assert_eq!(records.skip_bad_record().unwrap(), Some(1));
    let mut next = records.next_record().unwrap().unwrap();
    assert_eq!((next.number(), next.line(), next.offset()), (3, 2, 4));
    assert_eq!(next.read_u8().unwrap(), 3);
    // A bad first token is the next record's.
    let mut records = NdjsonReader::from_str("1\nx\n3\n");
    records.next_record().unwrap().unwrap();
    let err = failure(records.next_record().map(drop));
    assert!(
        err.notes().iter().any(|n| n == "in record 2 (line 2)"),
        "{:?}",
        err.notes()
    );
    assert_eq!(records.skip_bad_record().unwrap(), Some(2));
    let next = records.next_record().unwrap().unwrap();
    assert_eq!((next.number(), next.line()), (3, 3));
}

#[test]
fn skipping_without_a_failure_drops_nothing() {
    let mut records = NdjsonReader::from_str("{\"a\":\"x\"}\n[2]\n");
    assert_eq!(records.skip_bad_record().unwrap(), None);
    let mut record = records.next_record().unwrap().unwrap();
    record.read_map_root().unwrap();
    record.read_name().unwrap();
    // A read of the wrong kind is the caller's error: nothing to skip, the record goes on.
    assert_eq!(
        failure(record.read_u8()).code(),
        sluice_core::codes::UNEXPECTED_ENTRY
    );
    assert_eq!(records.skip_bad_record().unwrap(), None);
    let mut next = records.next_record().unwrap().unwrap();
    assert_eq!((next.number(), next.line()), (2, 2));
    assert_eq!(Token::read_all(&mut next).unwrap().len(), 3);
    // And once a failure is skipped, a second call finds none.
    let mut records = NdjsonReader::from_str("[1 2]\n3\n");
    let mut record = records.next_record().unwrap().unwrap();
    failure(Token::read_all(&mut record));
    assert_eq!(records.skip_bad_record().unwrap(), Some(1));
    assert_eq!(records.skip_bad_record().unwrap(), None);
    assert_eq!(
        records.next_record().unwrap().unwrap().read_u8().unwrap(),
        3
    );
}

#[test]
fn a_second_value_on_a_records_line_fails_its_finish_as_that_record() {
    for text in ["1 2\n3\n", "{\"a\":1} {\"b\":2}\n3\n", "[1] x\n3\n"] {
        let mut records = NdjsonReader::from_str(text);
        let mut record = records.next_record().unwrap().unwrap();
        Token::read_all(&mut record).unwrap();
        let err = failure(record.finish());
        // The token is described by its first character, or its word.
        let second = text.find(' ').unwrap() + 1;
        assert_eq!(
            (err.code(), err.span()),
            (codes::TRAILING_TOKEN, Some(Span::new(second, second + 1))),
            "{text:?}"
        );
        assert!(
            err.notes().iter().any(|n| n == "in record 1 (line 1)"),
            "{text:?}: {:?}",
            err.notes()
        );
        // The reader failed there: the same error again, as the same record's.
        let again = failure(records.next_record().map(drop));
        assert_eq!((again.code(), again.span()), (err.code(), err.span()));
        assert_eq!(again.notes(), err.notes(), "{text:?}");
        // The line is dropped as record 1, not one more.
        assert_eq!(records.skip_bad_record().unwrap(), Some(1), "{text:?}");
        assert_eq!(records.records_read(), 1, "{text:?}");
        let mut next = records.next_record().unwrap().unwrap();
        assert_eq!((next.number(), next.line()), (2, 2), "{text:?}");
        assert_eq!(next.read_u8().unwrap(), 3);
        next.finish().unwrap();
        assert!(records.next_record().unwrap().is_none());
        assert_eq!(records.records_read(), 2, "{text:?}");
    }
}

/// What `Record::finish` reports: nothing, or an error's code and span.
type LineEnd = Option<(sluice_core::ErrorCode, Span)>;

#[test]
fn finish_reports_what_the_next_record_would_on_the_records_line() {
    let comments = JsonOptions {
        comments: true,
        ..JsonOptions::ndjson()
    };
    // (input, options, the error of `finish` after the first record was read whole)
    let cases: [(&str, &JsonOptions, LineEnd); 9] = [
        ("[1]\n[2]\n", &JsonOptions::ndjson(), None),
        ("[1] \t\r\n[2]\n", &JsonOptions::ndjson(), None),
        ("[1]", &JsonOptions::ndjson(), None),
        ("[1]   ", &JsonOptions::ndjson(), None),
        ("[1] // ok\n[2]\n", &comments, None),
        ("[1] /* ok */ \n[2]\n", &comments, None),
        (
            "[1] // no\n[2]\n",
            &JsonOptions::ndjson(),
            Some((codes::TRAILING_TOKEN, Span::new(4, 5))),
        ),
        (
            "[1] /* open\n[2]\n",
            &comments,
            Some((codes::UNCLOSED_COMMENT, Span::new(4, 12))),
        ),
        (
            "[1] /* */ [2]\n",
            &comments,
            Some((codes::TRAILING_TOKEN, Span::new(10, 11))),
        ),
    ];
    for (text, options, expected) in cases {
        // What the loop without `finish` meets at the next `next_record`.
        let input = sluice_json::SliceInput::new(text.as_bytes());
        let mut records = NdjsonReader::new(input, options.clone());
        Token::read_all(&mut records.next_record().unwrap().unwrap()).unwrap();
        let next = records
            .next_record()
            .map(drop)
            .map_err(|e| (e.code(), e.span(), e.path().map(ToString::to_string)));
        for chunk in [0, 1, 2, 3] {
            let what = format!("{text:?} {chunk}-byte reads");
            let outcome = if chunk == 0 {
                let input = sluice_json::SliceInput::new(text.as_bytes());
                let mut records = NdjsonReader::new(input, options.clone());
                let mut record = records.next_record().unwrap().unwrap();
                Token::read_all(&mut record).unwrap();
                record.finish()
            } else {
                let input = Trickle {
                    bytes: text.as_bytes(),
                    chunk,
                };
                let input = sluice_json::IoInput::with_window(input, chunk + 4);
                let mut records = NdjsonReader::new(input, options.clone());
                let mut record = records.next_record().unwrap().unwrap();
                Token::read_all(&mut record).unwrap();
                record.finish()
            };
            let outcome =
                outcome.map_err(|e| (e.code(), e.span(), e.path().map(ToString::to_string)));
            assert_eq!(
                outcome
                    .clone()
                    .map_err(|(code, span, _)| (code, span.unwrap())),
                expected.map_or(Ok(()), Err),
                "{what}"
            );
            if outcome.is_err() {
                assert_eq!(outcome, next, "{what}");
            }
        }
    }
}

#[test]
fn finish_reads_the_rest_of_a_record_and_counts_its_errors_as_that_record() {
    // Left unread, then checked: the rest is read, then the line's end.
    let mut records = NdjsonReader::from_str("{\"a\":[1,2]} 3\n[4]\n");
    let mut record = records.next_record().unwrap().unwrap();
    record.read_map_root().unwrap();
    let err = failure(record.finish());
    assert_eq!(
        (err.code(), err.span()),
        (codes::TRAILING_TOKEN, Some(Span::new(12, 13)))
    );
    assert_eq!(records.skip_bad_record().unwrap(), Some(1));
    assert_eq!(records.records_read(), 1);
    // An error in the unread rest is the record's own.
    let mut records = NdjsonReader::from_str("[1 2]\n[3]\n");
    let record = records.next_record().unwrap().unwrap();
    let err = failure(record.finish());
    assert_eq!(
        (err.code(), err.span()),
        (codes::EXPECT_COMMA, Some(Span::new(3, 4)))
    );
    assert_eq!(records.skip_bad_record().unwrap(), Some(1));
    let next = records.next_record().unwrap().unwrap();
    assert_eq!((next.number(), next.line()), (2, 2));
    // A record cut by its line feed.
    let mut records = NdjsonReader::from_str("[1,\n2]\n[3]\n");
    let record = records.next_record().unwrap().unwrap();
    let err = failure(record.finish());
    assert_eq!(
        (err.code(), err.span()),
        (codes::UNEXPECTED_EOF, Some(Span::at(3)))
    );
    assert_eq!(records.skip_bad_record().unwrap(), Some(1));
    let next = records.next_record().unwrap().unwrap();
    assert_eq!((next.number(), next.line()), (2, 2));
}

#[test]
fn finish_does_not_read_the_next_line() {
    // The stream breaks after the first line: `finish` is done at its line feed.
    let mut records = NdjsonReader::from_read(Failing {
        bytes: b"[1] \n[2]\n",
        good: 5,
    });
    let mut record = records.next_record().unwrap().unwrap();
    Token::read_all(&mut record).unwrap();
    record.finish().unwrap();
    assert_eq!(
        failure(records.next_record().map(drop)).code(),
        sluice_core::codes::IO
    );
}

#[test]
fn a_bad_line_a_megabyte_long_is_dropped_through_a_small_window() {
    // The error comes early on the line; the rest is read through the 16-byte window and
    // dropped, never held. Then a record cut by its line feed whose next line, a megabyte
    // of small items, is a good record: read again from the line feed.
    let mut long = String::from("[1,2,3");
    while long.len() < 1 << 20 {
        long.push_str(",12345");
    }
    long.push(']');
    let text = format!("{{\"a\":1}}\n[1 2,{}]\n[1,\n{long}\n[4]\n", &long[1..]);
    let second = text.find('\n').unwrap() + 1;
    let cut = text[second..].find('\n').unwrap() + second + 4;
    let input = sluice_json::IoInput::with_window(text.as_bytes(), 16);
    let mut records = NdjsonReader::new(input, JsonOptions::ndjson());
    let mut first = records.next_record().unwrap().unwrap();
    assert_eq!(Token::read_all(&mut first).unwrap().len(), 4);
    let mut bad = records.next_record().unwrap().unwrap();
    let err = failure(Token::read_all(&mut bad));
    assert_eq!(
        (err.code(), err.span()),
        (codes::EXPECT_COMMA, Some(Span::new(second + 3, second + 4)))
    );
    assert_eq!(records.skip_bad_record().unwrap(), Some(2));
    let mut cut_record = records.next_record().unwrap().unwrap();
    assert_eq!((cut_record.number(), cut_record.line()), (3, 3));
    let err = failure(Token::read_all(&mut cut_record));
    assert_eq!(
        (err.code(), err.span()),
        (codes::UNEXPECTED_EOF, Some(Span::at(cut)))
    );
    assert_eq!(records.skip_bad_record().unwrap(), Some(3));
    let mut long_record = records.next_record().unwrap().unwrap();
    assert_eq!(
        (
            long_record.number(),
            long_record.line(),
            long_record.offset()
        ),
        (4, 4, cut + 1)
    );
    let tokens = Token::read_all(&mut long_record).unwrap();
    assert_eq!(tokens.len(), long.matches(',').count() + 3);
    let mut last = records.next_record().unwrap().unwrap();
    assert_eq!((last.number(), last.line()), (5, 5));
    assert_eq!(Token::read_all(&mut last).unwrap().len(), 3);
    assert!(records.next_record().unwrap().is_none());
    let capacity = records.into_input().capacity();
    assert!(capacity <= 64, "the window grew to {capacity} bytes");
}

/// A stream that fails once `good` bytes of `bytes` are read.
struct Failing<'a> {
    bytes: &'a [u8],
    good: usize,
}

impl std::io::Read for Failing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.good == 0 {
            return Err(std::io::Error::other("the stream broke"));
        }
        let n = buf.len().min(self.good).min(self.bytes.len()).min(3);
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        self.good -= n;
        Ok(n)
    }
}

#[test]
fn an_io_error_stays_final_when_the_bad_record_is_skipped() {
    let io = sluice_core::codes::IO;
    // The I/O error is the failure: skipping reports it again.
    let text = b"1\n[2, 3]\n4\n";
    let mut records = NdjsonReader::from_read(Failing {
        bytes: text,
        good: 5,
    });
    records.next_record().unwrap().unwrap();
    let mut record = records.next_record().unwrap().unwrap();
    assert_eq!(failure(Token::read_all(&mut record)).code(), io);
    assert_eq!(failure(records.skip_bad_record()).code(), io);
    assert_eq!(failure(records.next_record().map(drop)).code(), io);
    // A syntax error, then the stream breaks on the bad line's rest: the skip reports it.
    let text = b"1\n[2 3, 4, 5, 6]\n7\n";
    let mut records = NdjsonReader::from_read(Failing {
        bytes: text,
        good: 9,
    });
    records.next_record().unwrap().unwrap();
    let mut record = records.next_record().unwrap().unwrap();
    assert_eq!(
        failure(Token::read_all(&mut record)).code(),
        codes::EXPECT_COMMA
    );
    assert_eq!(failure(records.skip_bad_record()).code(), io);
    assert_eq!(failure(records.skip_bad_record()).code(), io);
    assert_eq!(failure(records.next_record().map(drop)).code(), io);
}

/// The first error of the parallel ingestion of `text`, each line read alone: code,
/// absolute span, data path.
fn first_line_error(text: &[u8], options: &JsonOptions) -> Option<(ErrorCode, Span, String)> {
    use sluice_json::parallel::{ParallelOptions, ingest_blocks};
    let options = ParallelOptions {
        json: options.clone(),
        skip_errors: true,
        ..ParallelOptions::default()
    };
    let summary = ingest_blocks(
        text,
        &options,
        || (),
        |(), reader, _| Token::read_all(reader).map(drop),
        |()| Ok(()),
    )
    .unwrap();
    summary.errors.first().map(|bad| {
        let offset = usize::try_from(bad.record.offset).unwrap();
        let span = bad.error.span().unwrap();
        (
            bad.error.code(),
            Span::new(span.start + offset, span.end + offset),
            bad.error.path().unwrap().to_string(),
        )
    })
}

/// The first error of `records`, each record read whole: code, span, data path.
fn first_record_error<S: Input>(mut records: NdjsonReader<S>) -> (ErrorCode, Span, String) {
    loop {
        let err = match records.next_record() {
            Ok(Some(mut record)) => match Token::read_all(&mut record) {
                Ok(_) => continue,
                Err(err) => err,
            },
            Ok(None) => panic!("no error"),
            Err(err) => err,
        };
        return (
            err.code(),
            err.span().unwrap(),
            err.path().unwrap().to_string(),
        );
    }
}

#[test]
fn a_record_cut_by_its_line_feed_has_the_data_path_where_its_line_ends() {
    let comments = JsonOptions {
        comments: true,
        ..JsonOptions::ndjson()
    };
    let ndjson = JsonOptions::ndjson();
    // (input, options, the data path where the first line ends)
    let cases: [(&str, &JsonOptions, &str); 12] = [
        // The value ends on a later line.
        ("[1,\n2]\n3\n", &ndjson, "$[1]"),
        ("{\"a\":\n1}\n", &ndjson, "$.a"),
        ("{\"a\":[1,\n2,3]}\n", &ndjson, "$.a[1]"),
        ("{\"a\":{\"b\":\n{}}}\n", &ndjson, "$.a.b"),
        ("[[1],\n[2]]\n[3]\n", &ndjson, "$[1]"),
        ("{\"a\":1\n}\n", &ndjson, "$.a"),
        ("{\"a\"\n:1}\n", &ndjson, "$.a"),
        ("{\n\"a\":1}\n", &ndjson, "$"),
        // An error on a later line, the cut in its place.
        ("[1,\n{\"a\":1}\n5\n", &ndjson, "$[1]"),
        ("{\"k\":1,\n\"k\":2}\n", &ndjson, "$"),
        (
            "{\"q\\\"\":[\"x\",\n\"y\" 3]}\n",
            &ndjson,
            "$[\"q\\\"\"][1]",
        ),
        // A block comment left open after the cut.
        ("[1, // c\n2, /* open\n]\n", &comments, "$[1]"),
    ];
    for (text, options, path) in cases {
        let line_feed = text.find('\n').unwrap();
        let expected = (codes::UNEXPECTED_EOF, Span::at(line_feed), path.to_owned());
        assert_eq!(
            first_line_error(text.as_bytes(), options),
            Some(expected.clone()),
            "{text:?}: the line alone"
        );
        let input = sluice_json::SliceInput::new(text.as_bytes());
        let records = NdjsonReader::new(input, options.clone());
        assert_eq!(first_record_error(records), expected, "{text:?}");
        // Through `io::Read`: also once the window has moved past the record's start.
        for (chunk, window) in [(1, 1), (1, 2), (2, 3), (3, 4), (1, 5), (64, 64)] {
            let input = Trickle {
                bytes: text.as_bytes(),
                chunk,
            };
            let input = sluice_json::IoInput::with_window(input, window);
            let records = NdjsonReader::new(input, options.clone());
            assert_eq!(
                first_record_error(records),
                expected,
                "{text:?}: {chunk}-byte reads, a {window}-byte window"
            );
        }
    }
}

#[test]
fn skipping_bad_records_agrees_with_the_parallel_ingestion() {
    use sluice_json::parallel::{ParallelOptions, ingest_blocks};
    for text in inputs_with_bad_records() {
        let what = String::from_utf8_lossy(&text).into_owned();
        let options = ParallelOptions {
            skip_errors: true,
            jobs: 2,
            block_size: 1024,
            ..ParallelOptions::default()
        };
        let mut parallel_good = Vec::new();
        let summary = ingest_blocks(
            text.as_slice(),
            &options,
            Vec::new,
            |good: &mut Vec<(usize, Vec<Token>)>, reader, info| {
                let tokens = Token::read_all(reader)?;
                reader.finish()?;
                good.push((usize::try_from(info.line).unwrap(), tokens));
                Ok(())
            },
            |good| {
                parallel_good.extend(good);
                Ok(())
            },
        )
        .unwrap();
        let parallel_bad: Vec<_> = summary
            .errors
            .iter()
            .map(|bad| {
                let offset = usize::try_from(bad.record.offset).unwrap();
                let span = bad
                    .error
                    .span()
                    .map(|s| Span::new(s.start + offset, s.end + offset));
                (
                    usize::try_from(bad.record.line).unwrap(),
                    bad.error.code(),
                    span,
                )
            })
            .collect();
        for chunk in [0, 1, 3, 7] {
            // Each record's line checked by `finish` before it counts: the same good records
            // and bad lines as the parallel ingestion, each line one record.
            let (seen, records) = skipping_over_with(&text, chunk, &JsonOptions::ndjson(), true);
            let bad: Vec<_> = seen
                .iter()
                .filter_map(|s| match s {
                    Seen::Bad(line, code, span, ..) => Some((*line, *code, *span)),
                    Seen::Good(..) => None,
                })
                .collect();
            let good: Vec<_> = seen
                .iter()
                .filter_map(|s| match s {
                    Seen::Good(_, line, _, tokens) => Some((*line, tokens.clone())),
                    Seen::Bad(..) => None,
                })
                .collect();
            assert_eq!(bad, parallel_bad, "{what:?} {chunk}");
            assert_eq!(good, parallel_good, "{what:?} {chunk}");
            assert_eq!(
                records,
                summary.records + summary.errors.len() as u64,
                "{what:?} {chunk}"
            );
            // Without `finish`, a record handed out before its line showed a second value
            // was read whole, and the line counts as one more record: no good one.
            let seen = skipping_over(&text, chunk, &JsonOptions::ndjson());
            let unchecked_good: Vec<_> = seen
                .iter()
                .filter_map(|s| match s {
                    Seen::Good(_, line, _, tokens) if !bad.iter().any(|(bad, ..)| bad == line) => {
                        Some((*line, tokens.clone()))
                    }
                    _ => None,
                })
                .collect();
            assert_eq!(unchecked_good, parallel_good, "{what:?} {chunk}");
        }
    }
}

/// Every record's and bad line's place: `(line, offset, tokens read or the error's code)`,
/// bad lines dropped with `skip_bad_record`.
type Place = (usize, usize, Result<usize, ErrorCode>);

fn places<S: Input>(reader: &mut NdjsonReader<S>) -> Vec<Place> {
    let mut out = Vec::new();
    loop {
        let error = match reader.next_record() {
            Ok(None) => return out,
            Ok(Some(mut record)) => {
                let (line, offset) = (record.line(), record.offset());
                match Token::read_all(&mut record).and_then(|t| record.finish().map(|()| t)) {
                    Ok(tokens) => {
                        out.push((line, offset, Ok(tokens.len())));
                        continue;
                    }
                    Err(error) => error,
                }
            }
            Err(error) => error,
        };
        let line = reader.skip_bad_record().unwrap().unwrap();
        let at = error.span().map_or(usize::MAX, |span| span.start);
        out.push((line, at, Err(error.code())));
    }
}

#[test]
fn record_lines_are_counted_alike_through_every_window_and_read_size() {
    // Long records that straddle the window's edge, blank lines, a CRLF line end, and a
    // record cut by its line feed: the line count skips the bytes the search for a line
    // feed inside a record found none in, and must land on the same lines as a count of
    // every byte.
    let text = "{\"k\":\"a long string value\",\"n\":[1,2,3]}\n\n[1,2,3,4,5,6,7,8]\r\n\n\n\
                \"str\"\n[1,\n{\"x\":2}\n\n{\"y\":\"zzzzzzzzzzzzzzzzzzzz\"}\n[true]";
    let options = JsonOptions::ndjson();
    let expected = places(&mut NdjsonReader::new(
        sluice_json::SliceInput::from_text(text),
        options.clone(),
    ));
    let lines: Vec<_> = expected
        .iter()
        .map(|(line, _, read)| (*line, *read))
        .collect();
    assert_eq!(
        lines,
        [
            (1, Ok(10)),
            (3, Ok(10)),
            (6, Ok(1)),
            (7, Err(codes::UNEXPECTED_EOF)),
            (8, Ok(4)),
            (10, Ok(4)),
            (11, Ok(3)),
        ]
    );
    for window in 1..=48 {
        for chunk in [1, 3, 64] {
            let input = sluice_json::IoInput::with_window(
                Trickle {
                    bytes: text.as_bytes(),
                    chunk,
                },
                window,
            );
            let mut reader = NdjsonReader::new(input, options.clone());
            assert_eq!(
                places(&mut reader),
                expected,
                "window {window}, chunk {chunk}"
            );
        }
    }
}
