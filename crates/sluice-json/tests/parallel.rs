//! Parallel NDJSON ingestion: order, error lines, skip mode, block boundaries.

use sluice_core::{Reader, Value, ValueWriter, pipe_value};
use sluice_json::codes;
use sluice_json::parallel::{
    IngestSummary, ParallelOptions, RecordInfo, ingest_blocks, ingest_blocks_into, ingest_records,
    ingest_records_into,
};

fn records(count: usize) -> String {
    (0..count)
        .map(|i| format!("{{\"id\":{i},\"name\":\"record {i}\",\"tags\":[\"a\",\"b\"]}}\n"))
        .collect()
}

/// The value `reader` is at, whole.
fn read_value(reader: &mut impl Reader) -> sluice_core::Result<Value> {
    let mut writer = ValueWriter::new();
    pipe_value(reader, &mut writer)?;
    writer.into_value()
}

fn small_blocks(jobs: usize) -> ParallelOptions {
    ParallelOptions {
        jobs,
        block_size: 1024,
        ..ParallelOptions::default()
    }
}

fn read_id(
    reader: &mut sluice_json::JsonReader<sluice_json::SliceInput<'_>>,
) -> sluice_core::Result<u64> {
    reader.read_map_root()?;
    reader.read_name()?;
    let id = reader.read_u64()?;
    while reader.peek()? != sluice_core::Entry::MapEnd {
        reader.read_name()?;
        reader.skip()?;
    }
    reader.read_map_end()?;
    Ok(id)
}

#[test]
fn ordered_results_come_in_input_order_across_many_blocks() {
    let input = records(5000);
    let mut ids = Vec::new();
    let summary = ingest_records(input.as_bytes(), &small_blocks(2), read_id, |id| {
        ids.push(id);
        Ok(())
    })
    .unwrap();
    assert_eq!(summary.records, 5000);
    assert_eq!(summary.bytes, input.len() as u64);
    assert_eq!(ids, (0..5000).collect::<Vec<u64>>());
}

#[test]
fn unordered_results_are_all_delivered() {
    let input = records(3000);
    let mut ids = Vec::new();
    let options = ParallelOptions {
        ordered: false,
        ..small_blocks(3)
    };
    ingest_records(input.as_bytes(), &options, read_id, |id| {
        ids.push(id);
        Ok(())
    })
    .unwrap();
    ids.sort_unstable();
    assert_eq!(ids, (0..3000).collect::<Vec<u64>>());
}

#[test]
fn the_first_bad_record_stops_the_run_with_its_line() {
    let mut input = records(4000);
    // Break the record on line 2500: `"id":2499` becomes `"id":2499,,`.
    let needle = "{\"id\":2499,";
    let at = input.find(needle).unwrap() + needle.len();
    input.insert(at, ',');
    let err = ingest_records(input.as_bytes(), &small_blocks(2), read_id, |_| Ok(())).unwrap_err();
    assert_eq!(err.code(), codes::EXPECT_KEY);
    assert_eq!(err.line_column().map(|p| p.line), Some(2500));
    // The span is inside the record's own line: at the second comma.
    assert_eq!(err.span().map(|s| s.start), Some(needle.len()));
}

#[test]
fn skip_mode_collects_bad_records_with_line_and_offset() {
    let input = "{\"id\":0}\nnot json\n{\"id\":2}\n[1,]\n{\"id\":4}\n";
    let options = ParallelOptions {
        skip_errors: true,
        ..small_blocks(2)
    };
    let mut ids = Vec::new();
    let summary = ingest_records(input.as_bytes(), &options, read_id, |id| {
        ids.push(id);
        Ok(())
    })
    .unwrap();
    assert_eq!(ids, [0, 2, 4]);
    assert_eq!(summary.records, 3);
    let lines: Vec<u64> = summary.errors.iter().map(|e| e.record.line).collect();
    assert_eq!(lines, [2, 4]);
    assert_eq!(summary.errors[0].record.offset, 9);
    assert_eq!(
        summary.errors[1].record.offset,
        input.find("[1,]").unwrap() as u64
    );
    assert!(summary.errors[1].error.render().contains("4 | [1,]"));
}

#[test]
fn a_record_must_hold_exactly_one_value() {
    let input = "{\"id\":1} {\"id\":2}\n";
    let err = ingest_records(
        input.as_bytes(),
        &ParallelOptions::default(),
        read_id,
        |_| Ok(()),
    )
    .unwrap_err();
    assert_eq!(err.code(), codes::TRAILING_TOKEN);
}

#[test]
fn blank_lines_crlf_and_a_missing_final_newline_are_fine() {
    let input = "{\"id\":1}\r\n\r\n  \n{\"id\":2}\r\n{\"id\":3}";
    let mut ids = Vec::new();
    let summary = ingest_records(input.as_bytes(), &small_blocks(2), read_id, |id| {
        ids.push(id);
        Ok(())
    })
    .unwrap();
    assert_eq!(ids, [1, 2, 3]);
    assert_eq!(summary.records, 3);
}

#[test]
fn a_record_longer_than_a_block_gets_a_block_of_its_own() {
    let long = "x".repeat(10_000);
    let input = format!("{{\"id\":1}}\n{{\"id\":2,\"long\":\"{long}\"}}\n{{\"id\":3}}\n");
    let mut ids = Vec::new();
    ingest_records(input.as_bytes(), &small_blocks(2), read_id, |id| {
        ids.push(id);
        Ok(())
    })
    .unwrap();
    assert_eq!(ids, [1, 2, 3]);
}

#[test]
fn one_and_two_workers_give_the_same_values_on_the_corpus() {
    let Some(path) = sluice_core::testing::corpus_file("ndjson/nginxplus-status.ndjson") else {
        return;
    };
    let bytes = std::fs::read(path).unwrap();
    let collect = |jobs| {
        let mut values: Vec<Value> = Vec::new();
        let options = ParallelOptions {
            jobs,
            block_size: 64 * 1024,
            ..ParallelOptions::default()
        };
        let summary = ingest_records(
            bytes.as_slice(),
            &options,
            |reader| read_value(reader),
            |value| {
                values.push(value);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(summary.records, 500);
        values
    };
    assert_eq!(collect(1), collect(2));
}

#[test]
fn block_accumulators_fold_per_worker() {
    let input = records(1000);
    let mut total = 0u64;
    let mut blocks = 0;
    ingest_blocks(
        input.as_bytes(),
        &small_blocks(2),
        || 0u64,
        |sum, reader, _| {
            *sum += read_id(reader)?;
            Ok(())
        },
        |sum| {
            total += sum;
            blocks += 1;
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(total, (0..1000).sum::<u64>());
    assert!(blocks > 10, "{blocks} blocks");
}

#[test]
fn a_value_broken_over_lines_fails_on_its_first_line_as_in_the_record_reader() {
    // A record is one line: the parallel ingestion reads each line alone, and the record
    // reader must refuse the same inputs with the same error, not join the lines. (All on
    // the first line, where the ingestion's spans, counted from the line, are absolute.)
    for (input, at) in [("{\"id\":\n1}\n", 6), ("[1\n2\n", 2), ("[1,\r\n2]\n", 4)] {
        let parallel = ingest_records(
            input.as_bytes(),
            &ParallelOptions::default(),
            |reader| read_value(reader),
            |_| Ok(()),
        );
        let parallel = parallel.expect_err(input);
        assert_eq!(parallel.code(), codes::UNEXPECTED_EOF, "{input:?}");
        assert_eq!(parallel.span().map(|s| s.start), Some(at), "{input:?}");
        let mut records = sluice_json::NdjsonReader::from_str(input);
        let error = loop {
            match records.next_record() {
                Ok(Some(mut record)) => {
                    if let Err(error) = read_value(&mut record) {
                        break error;
                    }
                }
                Ok(None) => panic!("{input:?} read without an error"),
                Err(error) => break error,
            }
        };
        assert_eq!(error.code(), parallel.code(), "{input:?}");
        assert_eq!(error.span(), parallel.span(), "{input:?}");
    }
}

/// The first error `NdjsonReader` meets reading every record of `input` with `options`, or
/// the values it read.
fn record_reader_outcome(
    input: impl AsRef<[u8]>,
    options: sluice_json::JsonOptions,
) -> Result<Vec<Value>, sluice_core::Error> {
    let mut records =
        sluice_json::NdjsonReader::new(sluice_json::SliceInput::new(input.as_ref()), options);
    let mut values = Vec::new();
    while let Some(mut record) = records.next_record()? {
        values.push(read_value(&mut record)?);
    }
    Ok(values)
}

/// What the parallel ingestion makes of `input` with `options`: the values, or the first
/// error with its span moved from the record's line to the input.
fn parallel_outcome(
    input: impl AsRef<[u8]>,
    options: sluice_json::JsonOptions,
) -> Result<Vec<Value>, (sluice_core::ErrorCode, Option<sluice_core::Span>)> {
    let mut values = Vec::new();
    let run = ingest_records(
        input.as_ref(),
        &ParallelOptions {
            skip_errors: true,
            json: options,
            ..small_blocks(2)
        },
        |reader| read_value(reader),
        |value| {
            values.push(value);
            Ok(())
        },
    );
    let summary = run.map_err(|err| (err.code(), err.span()))?;
    match summary.errors.first() {
        None => Ok(values),
        Some(bad) => {
            let offset = usize::try_from(bad.record.offset).unwrap();
            let span = bad
                .error
                .span()
                .map(|span| sluice_core::Span::new(span.start + offset, span.end + offset));
            Err((bad.error.code(), span))
        }
    }
}

/// Both readers of `input` agree: the same values, or the same error code and span.
fn assert_readers_agree(input: &str, options: &sluice_json::JsonOptions) {
    let record_reader = record_reader_outcome(input, options.clone());
    let parallel = parallel_outcome(input, options.clone());
    match (record_reader, parallel) {
        (Ok(expected), Ok(values)) => assert_eq!(values, expected, "{input:?}"),
        (Err(error), Err(parallel)) => {
            assert_eq!((error.code(), error.span()), parallel, "{input:?}");
        }
        (record_reader, parallel) => {
            panic!("{input:?}: record reader {record_reader:?}, parallel {parallel:?}")
        }
    }
}

/// The first error of `input`, which both readers meet alike (code and span): the one the
/// parallel ingestion reports.
fn error_of_both(
    input: &str,
    options: &sluice_json::JsonOptions,
) -> (sluice_core::ErrorCode, Option<sluice_core::Span>) {
    assert_readers_agree(input, options);
    parallel_outcome(input, options.clone()).unwrap_err()
}

/// Strict JSON with comments, and nothing else relaxed.
fn strict_with_comments() -> sluice_json::JsonOptions {
    sluice_json::JsonOptions {
        comments: true,
        ..sluice_json::JsonOptions::strict()
    }
}

#[test]
fn a_byte_order_mark_may_open_only_the_input_as_in_the_record_reader() {
    let strict = sluice_json::JsonOptions::strict();
    let opened = "\u{feff}{\"id\":1}\n{\"id\":2}\n";
    assert_eq!(
        record_reader_outcome(opened, strict.clone()).unwrap().len(),
        2
    );
    assert_readers_agree(opened, &strict);
    // On a later line (files joined by `cat`), it is no whitespace: the line's error.
    let later = "{\"id\":1}\n\u{feff}{\"id\":2}\n";
    let (code, span) = error_of_both(later, &strict);
    assert_eq!(code, codes::UNEXPECTED_TOKEN);
    assert_eq!(
        span.map(|span| span.start),
        Some(later.find('\u{feff}').unwrap())
    );
}

#[test]
fn lines_without_a_value_hold_no_record_as_in_the_record_reader() {
    let relaxed = strict_with_comments();
    // Comment lines are skipped where comments are allowed, and are errors where not.
    let commented = "// header\n{\"id\":1}\n  /* note */  \n{\"id\":2} // trailing\n";
    assert_eq!(
        parallel_outcome(commented, relaxed.clone()).unwrap().len(),
        2
    );
    assert_readers_agree(commented, &relaxed);
    assert_readers_agree(commented, &sluice_json::JsonOptions::strict());
    // A form feed is ASCII whitespace but not JSON whitespace: not a blank line.
    let form_feed = "{\"id\":1}\n\u{c}\n{\"id\":2}\n";
    let (code, span) = error_of_both(form_feed, &relaxed);
    assert_eq!(code, codes::UNEXPECTED_TOKEN);
    assert_eq!(span.map(|span| span.start), Some(9));
    // With JSON5 whitespace it is one, in both.
    let json5 = sluice_json::JsonOptions::json5();
    assert_eq!(parallel_outcome(form_feed, json5.clone()).unwrap().len(), 2);
    assert_readers_agree(form_feed, &json5);
}

#[test]
fn a_line_that_ends_inside_a_string_fails_as_in_the_record_reader() {
    // A raw line feed in a string is a control character there; a JSON5 escaped line break
    // cuts the record off at its line feed, as any value that goes on past one.
    let strict = sluice_json::JsonOptions::strict();
    let raw = "[\"abc\n\"]\n";
    assert_eq!(
        error_of_both(raw, &strict),
        (codes::CONTROL_CHARACTER, Some(sluice_core::Span::new(5, 6)))
    );
    let json5 = sluice_json::JsonOptions::json5();
    for escaped in ["['s\\\n']\n", "['s\\\r\n']\n", "'s\\\n'\n"] {
        let line_feed = escaped.find('\n').unwrap();
        assert_eq!(
            error_of_both(escaped, &json5),
            (
                codes::UNEXPECTED_EOF,
                Some(sluice_core::Span::at(line_feed))
            )
        );
    }
    // A lone carriage return is no line break: the continuation holds.
    assert_readers_agree("['s\\\rt']\n", &json5);
    assert_eq!(parallel_outcome("['s\\\rt']\n", json5).unwrap().len(), 1);
}

#[test]
fn a_block_comment_over_several_lines_is_unclosed_on_its_first_line_in_both_readers() {
    // A line alone holds such a comment open to its end, line feed included; the record
    // reader reports it so too, between records as inside a record's value.
    let relaxed = strict_with_comments();
    let cases = [
        ("/* exported\n   by hand */\n{\"id\":1}\n", 0, (0, 12), 1),
        ("{\"a\":1}\n/* a\n b */\n{\"b\":2}\n", 8, (8, 13), 2),
        ("{\"a\":1} /* a\n b */\n{\"b\":2}\n", 0, (8, 13), 1),
        ("{\"a\":1}\n/* a\r\n b */\n", 8, (8, 14), 2),
        ("{\"a\":1}\n/* a\n b */", 8, (8, 13), 2),
        ("{\"a\":1 /* x\n */}\n", 0, (7, 12), 1),
    ];
    for (text, line_offset, (start, end), line) in cases {
        assert_eq!(
            error_of_both(text, &relaxed),
            (
                codes::UNCLOSED_COMMENT,
                Some(sluice_core::Span::new(start, end))
            ),
            "{text:?}"
        );
        let summary = ingest_records(
            text.as_bytes(),
            &ParallelOptions {
                skip_errors: true,
                json: relaxed.clone(),
                ..ParallelOptions::default()
            },
            |reader| read_value(reader),
            |_| Ok(()),
        )
        .unwrap();
        let first = &summary.errors[0].record;
        assert_eq!((first.line, first.offset), (line, line_offset), "{text:?}");
    }
    // A character the line feed cuts short is invalid UTF-8 in the comment, found before
    // the line ends, in both (a line alone once took it for a character the end of the
    // input cut, and reported the comment unclosed).
    let cut: &[u8] = b"{\"a\":1}\n/* \xC3\n */\n";
    let expected = (codes::INVALID_UTF8, Some(sluice_core::Span::new(11, 12)));
    assert_eq!(
        parallel_outcome(cut, relaxed.clone()).unwrap_err(),
        expected
    );
    let err = record_reader_outcome(cut, relaxed.clone()).unwrap_err();
    assert_eq!((err.code(), err.span()), expected);
    // A comment that ends on its line is whitespace to both.
    for text in [
        "/* a */\n{\"a\":1}\n",
        "{\"a\":1}\n/* a */\n{\"b\":2}\n",
        "{\"a\":1} /* a */\n /* b */ {\"b\":2} /* c */\n/* d */",
        "{\"a\":1}\r\n/* a\r */\r\n",
        "{\"a\" /* a */ :1}\n",
    ] {
        assert!(parallel_outcome(text, relaxed.clone()).is_ok(), "{text:?}");
        assert_readers_agree(text, &relaxed);
    }
}

#[test]
fn an_error_found_when_a_token_is_read_after_a_record_was_cut_off_is_the_cut() {
    // Invalid UTF-8 and duplicate keys are found when the token is read, not lexed; past a
    // line feed inside a record's value, the record ended first, in both readers.
    let strict = sluice_json::JsonOptions::strict();
    let cases: [&[u8]; 2] = [b"{\"a\":\n\"\xff\"}\n", b"[1,\n{\"k\":1,\"k\":2}]\n"];
    for text in cases {
        let line_feed = text.iter().position(|&byte| byte == b'\n').unwrap();
        let (code, span) = parallel_outcome(text, strict.clone()).unwrap_err();
        assert_eq!(
            (code, span),
            (
                codes::UNEXPECTED_EOF,
                Some(sluice_core::Span::at(line_feed))
            )
        );
        let err = record_reader_outcome(text, strict.clone()).unwrap_err();
        assert_eq!((err.code(), err.span()), (code, span));
    }
}

#[test]
fn an_unordered_run_stops_at_the_first_bad_record_in_input_order() {
    // Bad records on lines 5 and 2900; the block of line 5 is held back, so the block of
    // line 2900 is parsed first.
    let input: String = (1..=3000)
        .map(|line| match line {
            5 | 2900 => "[,]\n".to_owned(),
            _ => format!("{line}\n"),
        })
        .collect();
    let options = ParallelOptions {
        ordered: false,
        ..small_blocks(4)
    };
    let err = ingest_blocks(
        input.as_bytes(),
        &options,
        || (),
        |(), reader, info| {
            if info.line == 1 {
                std::thread::sleep(std::time::Duration::from_millis(300));
            }
            reader.skip()
        },
        |()| Ok(()),
    )
    .unwrap_err();
    assert_eq!(err.code(), codes::UNEXPECTED_TOKEN);
    assert_eq!(err.span(), Some(sluice_core::Span::new(1, 2)));
    let source = err.source_text().unwrap();
    assert_eq!((source.line_offset, &*source.text), (4, &b"[,]\n"[..]));
}

#[test]
fn ingest_records_does_not_deliver_a_record_whose_line_holds_a_second_value() {
    let mut values = Vec::new();
    let summary = ingest_records(
        "1 2\n3\n".as_bytes(),
        &ParallelOptions {
            skip_errors: true,
            ..small_blocks(2)
        },
        |reader| reader.read_u8(),
        |value| {
            values.push(value);
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(values, [3]);
    assert_eq!(summary.records, 1);
    assert_eq!(summary.errors.len(), 1);
    let bad = &summary.errors[0];
    assert_eq!((bad.record.line, bad.record.offset), (1, 0));
    assert_eq!(bad.error.code(), codes::TRAILING_TOKEN);
    assert_eq!(bad.error.span(), Some(sluice_core::Span::new(2, 3)));
}

#[test]
fn the_records_before_the_first_bad_one_are_delivered_whatever_the_block_size() {
    for jobs in [1, 2, 7] {
        let mut values = Vec::new();
        let err = ingest_records(
            "1\n2\nx\n4\n".as_bytes(),
            &ParallelOptions {
                jobs,
                ..ParallelOptions::default()
            },
            |reader| reader.read_u8(),
            |value| {
                values.push(value);
                Ok(())
            },
        )
        .unwrap_err();
        assert_eq!(values, [1, 2]);
        assert_eq!(err.code(), codes::UNEXPECTED_TOKEN);
        assert_eq!(err.source_text().unwrap().line_offset, 2);
    }
}

#[test]
fn a_panic_in_a_record_callback_stops_the_run_and_is_raised_as_it_was() {
    for jobs in [1, 2, 7] {
        let input = records(20_000);
        let read = std::sync::atomic::AtomicU64::new(0);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            ingest_blocks(
                input.as_bytes(),
                &small_blocks(jobs),
                || (),
                |(), reader, info| {
                    read.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    assert!(info.line != 100, "record callback panicked");
                    reader.skip()
                },
                |()| Ok(()),
            )
        }));
        let payload = outcome.unwrap_err();
        assert_eq!(
            payload.downcast_ref::<&str>(),
            Some(&"record callback panicked")
        );
        // Only the blocks in flight when it panicked are read, not the whole input.
        let read = read.load(std::sync::atomic::Ordering::Relaxed);
        assert!(read < 10_000, "{read} records read after the panic");
    }
}

/// An input that counts the bytes handed out so far.
struct CountingInput<'a> {
    bytes: &'a [u8],
    handed_out: &'a std::sync::atomic::AtomicUsize,
}

impl std::io::Read for CountingInput<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let count = self.bytes.read(buffer)?;
        self.handed_out
            .fetch_add(count, std::sync::atomic::Ordering::SeqCst);
        Ok(count)
    }
}

#[test]
fn a_slow_first_block_holds_back_the_reading_of_the_input() {
    // At most `2 × jobs` blocks are in flight: in order, the blocks done after a first block
    // still being parsed wait for it, and no more input is read meanwhile.
    let input = records(20_000);
    let handed_out = std::sync::atomic::AtomicUsize::new(0);
    let mut read_at_first_delivery = None;
    let summary = ingest_blocks(
        CountingInput {
            bytes: input.as_bytes(),
            handed_out: &handed_out,
        },
        &small_blocks(2),
        || (),
        |(), reader, info| {
            if info.line == 1 {
                std::thread::sleep(std::time::Duration::from_millis(300));
            }
            reader.skip()
        },
        |()| {
            read_at_first_delivery
                .get_or_insert(handed_out.load(std::sync::atomic::Ordering::SeqCst));
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(summary.records, 20_000);
    // Four blocks of 1 KiB in flight, and the one being read (a line is about 50 bytes).
    let read = read_at_first_delivery.unwrap();
    assert!(
        read <= 6 * 1024,
        "{read} bytes read before the first block was done"
    );
}

/// An input that hands out `bytes` a few at a time, then fails.
struct FailingInput<'a> {
    bytes: &'a [u8],
}

impl std::io::Read for FailingInput<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        if self.bytes.is_empty() {
            return Err(std::io::Error::other("the disk went away"));
        }
        let count = buffer.len().min(7).min(self.bytes.len());
        buffer[..count].copy_from_slice(&self.bytes[..count]);
        self.bytes = &self.bytes[count..];
        Ok(count)
    }
}

#[test]
fn the_records_read_before_an_io_error_are_delivered_whatever_the_block_size() {
    // The record reader hands out every line whose line feed arrived before the error; so
    // does the ingestion, whatever the block size, and the run's error is the I/O error.
    let input = records(200);
    let cut = &input.as_bytes()[..5000];
    let whole_lines = cut.iter().filter(|&&byte| byte == b'\n').count();
    let mut record_reader = sluice_json::NdjsonReader::from_read(FailingInput { bytes: cut });
    let mut expected = 0;
    let error = loop {
        match record_reader.next_record() {
            Ok(Some(mut record)) => match read_value(&mut record) {
                Ok(_) => expected += 1,
                Err(error) => break error,
            },
            Ok(None) => panic!("no I/O error"),
            Err(error) => break error,
        }
    };
    assert_eq!(
        (error.code(), expected),
        (sluice_core::codes::IO, whole_lines)
    );
    for (jobs, block_size) in [(1, 1024), (2, 1024), (2, 1 << 20)] {
        let mut ids = Vec::new();
        let err = ingest_records(
            FailingInput { bytes: cut },
            &ParallelOptions {
                block_size,
                ..small_blocks(jobs)
            },
            read_id,
            |id| {
                ids.push(id);
                Ok(())
            },
        )
        .unwrap_err();
        assert_eq!(err.code(), sluice_core::codes::IO, "{block_size}");
        assert_eq!(ids.len(), whole_lines, "{block_size}");
    }
}

#[test]
fn a_bad_record_has_the_same_notes_whether_errors_are_skipped_or_not() {
    // As each error of the record reader, each names its record, collected or not.
    let input = "{\"a\":1}\n\n{\"a\":1 \"b\":2}\n";
    let stopped = ingest_records(
        input.as_bytes(),
        &ParallelOptions::default(),
        |reader| read_value(reader),
        |_| Ok(()),
    )
    .unwrap_err();
    let summary = ingest_records(
        input.as_bytes(),
        &ParallelOptions {
            skip_errors: true,
            ..ParallelOptions::default()
        },
        |reader| read_value(reader),
        |_| Ok(()),
    )
    .unwrap();
    let bad = &summary.errors[0];
    assert_eq!((bad.record.line, bad.record.offset), (3, 9));
    assert_eq!(bad.error.code(), stopped.code());
    assert_eq!(bad.error.span(), stopped.span());
    assert_eq!(bad.error.notes(), stopped.notes());
    let record_reader = record_reader_outcome(input, sluice_json::JsonOptions::strict());
    let record_reader = record_reader.unwrap_err();
    assert_eq!(bad.error.notes().len(), record_reader.notes().len());
}

#[test]
fn a_block_size_beyond_the_input_reads_it_without_allocating_the_block_size() {
    // A block size far beyond the input: the buffer grows with what the input holds (a
    // block of `usize::MAX` bytes was allocated up front and panicked), and blocks larger
    // than one growth step still end at line feeds.
    let input = records(60_000);
    assert!(input.len() > 2 << 20);
    for block_size in [usize::MAX, 1 << 30, (3 << 20) / 2] {
        for jobs in [1, 2] {
            let options = ParallelOptions {
                jobs,
                block_size,
                ..ParallelOptions::default()
            };
            let mut ids = Vec::new();
            let summary = ingest_records(input.as_bytes(), &options, read_id, |id| {
                ids.push(id);
                Ok(())
            })
            .unwrap();
            assert_eq!(summary.records, 60_000, "{block_size} {jobs}");
            assert_eq!(summary.bytes, input.len() as u64);
            assert_eq!(
                ids,
                (0..60_000).collect::<Vec<u64>>(),
                "{block_size} {jobs}"
            );
        }
    }
}

#[test]
fn a_line_the_input_breaks_in_is_bad_when_its_bytes_already_show_an_error() {
    // The record reader reports an error the line's bytes show before it reads on to the
    // break; an error the break itself makes (a value, a byte order mark or a line end still
    // to come) is the I/O error. The ingestion once reported the I/O error for both. (The
    // record reader looks a few bytes past a bad token before it reports it, and a break
    // right after it comes first: these breaks come later.)
    type Bad = Option<(sluice_core::ErrorCode, sluice_core::Span)>;
    let cases: [(&[u8], Bad); 5] = [
        (
            b"1\n[1,]    2",
            Some((codes::UNEXPECTED_TOKEN, sluice_core::Span::new(3, 4))),
        ),
        (
            b"1\n{\"a\" 2    ",
            Some((codes::EXPECT_COLON, sluice_core::Span::new(5, 6))),
        ),
        (b"1\n[1,", None),
        (b"1\n[1]", None),
        (b"\xef\xbb", None),
    ];
    for (sent, bad) in cases {
        let mut record_reader = sluice_json::NdjsonReader::from_read(FailingInput { bytes: sent });
        let mut expected = Vec::new();
        let error = loop {
            let error = match record_reader.next_record() {
                Ok(Some(mut record)) => match read_value(&mut record) {
                    Ok(value) => match record.finish() {
                        Ok(()) => {
                            expected.push(value);
                            continue;
                        }
                        Err(error) => error,
                    },
                    Err(error) => error,
                },
                Ok(None) => panic!("no I/O error"),
                Err(error) => error,
            };
            break error;
        };
        let line_start = sent
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map_or(0, |at| at + 1);
        for jobs in [1, 2] {
            let mut values = Vec::new();
            let err = ingest_records(
                FailingInput { bytes: sent },
                &small_blocks(jobs),
                |reader| read_value(reader),
                |value| {
                    values.push(value);
                    Ok(())
                },
            )
            .unwrap_err();
            assert_eq!(values, expected, "{sent:?}");
            match bad {
                Some((code, span)) => {
                    assert_eq!((err.code(), err.span()), (code, Some(span)), "{sent:?}");
                    assert_eq!(err.source_text().unwrap().line_offset, 1);
                    let absolute =
                        sluice_core::Span::new(span.start + line_start, span.end + line_start);
                    assert_eq!((error.code(), error.span()), (code, Some(absolute)));
                }
                None => {
                    let at = Some(sluice_core::Span::at(sent.len()));
                    assert_eq!(
                        (err.code(), err.span()),
                        (sluice_core::codes::IO, at),
                        "{sent:?}"
                    );
                    assert_eq!((error.code(), error.span()), (sluice_core::codes::IO, at));
                }
            }
        }
    }
}

/// The offset of the start of each line of `input`, and of its end.
fn line_starts(input: &str) -> Vec<u64> {
    std::iter::once(0)
        .chain(input.match_indices('\n').map(|(at, _)| at as u64 + 1))
        .collect()
}

#[test]
fn a_deliver_that_fails_leaves_the_summary_at_the_start_of_its_block() {
    let input = records(3000);
    let starts = line_starts(&input);
    for (jobs, ordered) in [(1, true), (2, true), (3, true), (2, false), (3, false)] {
        let mut delivered: Vec<RecordInfo> = Vec::new();
        let mut refused = None;
        let mut summary = IngestSummary::default();
        let err = ingest_blocks_into(
            input.as_bytes(),
            &ParallelOptions {
                ordered,
                ..small_blocks(jobs)
            },
            &mut summary,
            Vec::new,
            |infos: &mut Vec<RecordInfo>, reader, info| {
                infos.push(info);
                reader.skip()
            },
            |infos| {
                if refused.is_none() && delivered.len() > 40 {
                    refused = Some(infos[0]);
                    return Err(sluice_core::Error::custom("the sink is full"));
                }
                delivered.extend(infos);
                Ok(())
            },
        )
        .unwrap_err();
        assert_eq!(err.code(), sluice_core::codes::CUSTOM);
        // Counted: what `deliver` took, not the block it refused.
        assert_eq!(summary.records, delivered.len() as u64, "jobs {jobs}");
        assert!(summary.errors.is_empty());
        if ordered {
            // Each record line is a record: the refused block starts at its first record.
            assert_eq!(summary.bytes, refused.unwrap().offset, "jobs {jobs}");
            assert_eq!(delivered.last().unwrap().line, refused.unwrap().line - 1);
        } else {
            // Out of order: every record before `bytes` was delivered, maybe some after it.
            assert!(starts.contains(&summary.bytes));
            let before = delivered
                .iter()
                .filter(|info| info.offset < summary.bytes)
                .count();
            let lines_before = starts
                .iter()
                .filter(|&&start| start < summary.bytes)
                .count();
            assert_eq!(before, lines_before, "jobs {jobs}");
            assert!(summary.bytes <= refused.unwrap().offset);
        }
    }
}

#[test]
fn a_sink_that_fails_leaves_the_summary_at_the_record_it_failed_at() {
    // Records, blank lines and bad lines: the record the sink fails at is found among them.
    let input: String = (0..3000)
        .map(|i| match i % 7 {
            3 => "\n".to_owned(),
            5 => "{\"id\": x}\n".to_owned(),
            _ => format!("{{\"id\":{i}}}\n"),
        })
        .collect();
    let starts = line_starts(&input);
    let good_lines: Vec<usize> = (0..3000).filter(|i| i % 7 != 3 && i % 7 != 5).collect();
    for (jobs, block_size, fail_at) in [
        (1, 1024, 0),
        (2, 1024, 1),
        (3, 1024, 700),
        (2, 1500, 1999),
        (2, 1 << 20, 1234),
    ] {
        let mut taken = Vec::new();
        let mut summary = IngestSummary::default();
        let err = ingest_records_into(
            input.as_bytes(),
            &ParallelOptions {
                block_size,
                skip_errors: true,
                ..small_blocks(jobs)
            },
            &mut summary,
            read_id,
            |id| {
                if taken.len() == fail_at {
                    return Err(sluice_core::Error::custom("the sink is full"));
                }
                taken.push(id);
                Ok(())
            },
        )
        .unwrap_err();
        let case = format!("jobs {jobs}, block {block_size}, fails at {fail_at}");
        assert_eq!(err.code(), sluice_core::codes::CUSTOM, "{case}");
        assert_eq!(summary.records, fail_at as u64, "{case}");
        // The line of the record refused: a run resumed there hands it over again.
        let refused_line = good_lines[fail_at];
        assert_eq!(summary.bytes, starts[refused_line], "{case}");
        let bad_lines: Vec<u64> = summary.errors.iter().map(|bad| bad.record.line).collect();
        let expected: Vec<u64> = (0..refused_line)
            .filter(|i| i % 7 == 5)
            .map(|i| i as u64 + 1)
            .collect();
        assert_eq!(bad_lines, expected, "{case}");
    }
}

/// The ids `read_id` delivers from `input` until the run fails (it must), with the error
/// and the summary the run filled.
fn ids_until_failure(
    input: impl std::io::Read,
    options: &ParallelOptions,
) -> (sluice_core::Error, Vec<u64>, IngestSummary) {
    let mut ids = Vec::new();
    let mut summary = IngestSummary::default();
    let err = ingest_records_into(input, options, &mut summary, read_id, |id| {
        ids.push(id);
        Ok(())
    })
    .unwrap_err();
    (err, ids, summary)
}

#[test]
fn a_bad_record_without_skip_errors_leaves_the_summary_at_its_line() {
    let mut lines: Vec<String> = records(2000).lines().map(str::to_owned).collect();
    lines[1300] = "{\"id\": 1300,".to_owned();
    let input: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let starts = line_starts(&input);
    for (jobs, block_size) in [(1, 1024), (2, 1024), (3, 3000), (2, 1 << 20)] {
        let (err, ids, summary) = ids_until_failure(
            input.as_bytes(),
            &ParallelOptions {
                block_size,
                ..small_blocks(jobs)
            },
        );
        assert_eq!(err.code(), codes::UNEXPECTED_EOF, "block {block_size}");
        assert_eq!((summary.records, ids.len()), (1300, 1300));
        assert_eq!(summary.bytes, starts[1300], "block {block_size}");
        assert!(summary.errors.is_empty());
    }
}

#[test]
fn the_bad_records_collected_before_an_io_error_are_in_the_summary() {
    let mut lines: Vec<String> = records(300).lines().map(str::to_owned).collect();
    for bad in [10, 150, 151, 290] {
        // An array where `read_id` wants a map.
        lines[bad] = "[1]".to_owned();
    }
    let input: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let starts = line_starts(&input);
    // Cut in the middle of line 201 (index 200).
    let cut = &input.as_bytes()[..usize::try_from(starts[200]).unwrap() + 5];
    for (jobs, block_size) in [(1, 1024), (2, 1024), (2, 1 << 20)] {
        let (err, ids, summary) = ids_until_failure(
            FailingInput { bytes: cut },
            &ParallelOptions {
                block_size,
                skip_errors: true,
                ..small_blocks(jobs)
            },
        );
        assert_eq!(err.code(), sluice_core::codes::IO);
        assert_eq!(
            (summary.records, ids.len()),
            (197, 197),
            "block {block_size}"
        );
        assert_eq!(summary.bytes, starts[200]);
        let bad: Vec<_> = summary
            .errors
            .iter()
            .map(|bad| (bad.record.line, bad.record.offset, bad.error.code()))
            .collect();
        assert_eq!(
            bad,
            [
                (11, starts[10], sluice_core::codes::UNEXPECTED_ENTRY),
                (151, starts[150], sluice_core::codes::UNEXPECTED_ENTRY),
                (152, starts[151], sluice_core::codes::UNEXPECTED_ENTRY),
            ]
        );
    }
}

#[test]
fn a_line_the_stream_broke_in_is_left_out_of_the_summary_even_when_its_error_shows() {
    // Its bad token arrived before the break; a run resumed at the line's start reads it
    // again, so it is not counted before.
    let input = "1\n2\n[1,] \"and more";
    let mut summary = IngestSummary::default();
    let err = ingest_records_into(
        FailingInput {
            bytes: input.as_bytes(),
        },
        &ParallelOptions {
            skip_errors: true,
            ..small_blocks(2)
        },
        &mut summary,
        |reader| reader.read_u8(),
        |_| Ok(()),
    )
    .unwrap_err();
    assert_eq!(err.code(), sluice_core::codes::IO);
    assert_eq!((summary.records, summary.bytes), (2, 4));
    assert!(summary.errors.is_empty());
    // Without skipping, that error is the run's.
    let err = ingest_records_into(
        FailingInput {
            bytes: input.as_bytes(),
        },
        &small_blocks(2),
        &mut summary,
        |reader| reader.read_u8(),
        |_| Ok(()),
    )
    .unwrap_err();
    assert_eq!(err.code(), codes::UNEXPECTED_TOKEN);
    assert_eq!((summary.records, summary.bytes), (2, 4));
}

#[test]
fn a_summary_passed_in_is_emptied_first() {
    let mut summary = IngestSummary {
        records: 7,
        bytes: 70,
        errors: Vec::new(),
    };
    ingest_records_into(
        "1\nx\n".as_bytes(),
        &ParallelOptions {
            skip_errors: true,
            ..ParallelOptions::default()
        },
        &mut summary,
        |reader| reader.read_u8(),
        |_| Ok(()),
    )
    .unwrap();
    assert_eq!(
        (summary.records, summary.bytes, summary.errors.len()),
        (1, 4, 1)
    );
}
