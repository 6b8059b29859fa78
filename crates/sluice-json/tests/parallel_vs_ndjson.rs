//! The parallel ingestion against `NdjsonReader`, its oracle, on seeded generated inputs.
//!
//! Each input is made of lines picked from a menu (good values, bad ones, blank and
//! whitespace-only lines, comments, a byte order mark, multi-byte characters, two values on
//! a line, a value nested deeper than `max_depth`), with padding lines of random length in
//! front so that the 1 KiB blocks and reads cut the input everywhere: inside a record, between
//! the `\r` and `\n` of a CRLF, inside a multi-byte character, right before and right after a
//! line feed. Both readers must find the same good records (values, lines, order), the same bad
//! records (line, code, absolute span), and, without `skip_errors`, stop at the same first
//! error after delivering the same records; over a stream that breaks, they must deliver the
//! same records before the same I/O error. A run that fails must leave in its summary what the
//! record reader had read before its error, and where to resume: the same records, the same
//! bad records before that place, and the place itself (the start of the line it stopped in).

mod common;

use common::Rng;
use sluice_core::{ErrorCode, Reader, Span, Value, ValueWriter, pipe_value};
use sluice_json::parallel::{IngestSummary, ParallelOptions, ingest_blocks, ingest_blocks_into};
use sluice_json::{IoInput, JsonOptions, NdjsonReader, SliceInput};

/// The value `reader` is at, whole.
fn read_value(reader: &mut impl Reader) -> sluice_core::Result<Value> {
    let mut writer = ValueWriter::new();
    pipe_value(reader, &mut writer)?;
    writer.into_value()
}

/// A line's content, without its line end.
fn line(rng: &mut Rng, max_depth: usize) -> Vec<u8> {
    let pieces: &[&[u8]] = &[
        b"{\"id\":1,\"name\":\"caf\xc3\xa9\"}",
        b"  [1, 2.5, -3e2, true, null]\t",
        b"\"\xe2\x82\xac and \xf0\x9d\x84\x9e\"",
        b"42",
        b"{}",
        b"",
        b"   ",
        b"\t \r",
        b"// a line comment",
        b"1 // after a value",
        b"[1] //",
        b"/* c */ {\"a\": /* in */ 2} /* after */",
        b"/* a block comment left open",
        b" closed here */ 3",
        b"1 2",
        b"[1] x",
        b"x",
        b"[1,]",
        b"{\"a\":1 \"b\":2}",
        b"{\"k\":1,\"k\":2}",
        b"[1",
        b"{\"a\":",
        b"\"not closed",
        b"\"\xff\"",
        b"\"\xc3\"",
        b"\xef\xbb\xbf7",
        b"'single'",
        b"{unquoted: 1,}",
        b"0x1F",
        b"\x0c",
        b"/",
        b"/*",
        b"\"tab\there\"",
    ];
    match rng.below(12) {
        0 => {
            // Deeper than allowed, or just within.
            let depth = max_depth + rng.below(3);
            let mut bytes = vec![b'['; depth];
            bytes.extend(std::iter::repeat_n(b']', depth));
            bytes
        }
        1 => {
            // Padding, so that what follows lands anywhere relative to the block edges.
            let mut bytes = b"\"".to_vec();
            let len = rng.below(1100);
            for i in 0..len {
                // Now and then a two- or four-byte character.
                match (i + len) % 97 {
                    0 => bytes.extend_from_slice("é".as_bytes()),
                    1 => bytes.extend_from_slice("𝄞".as_bytes()),
                    _ => bytes.push(b'a'),
                }
            }
            bytes.push(b'"');
            bytes
        }
        _ => rng.pick(pieces).to_vec(),
    }
}

/// An input of `lines` generated lines, maybe opened by a byte order mark, with LF or CRLF
/// line ends, maybe without a last line end.
fn input(rng: &mut Rng, lines: usize, max_depth: usize) -> Vec<u8> {
    let mut bytes = Vec::new();
    if rng.below(6) == 0 {
        bytes.extend_from_slice("\u{feff}".as_bytes());
    }
    for _ in 0..lines {
        bytes.extend(line(rng, max_depth));
        bytes.extend_from_slice(if rng.below(3) == 0 { b"\r\n" } else { b"\n" });
    }
    if rng.below(3) == 0 {
        // The last line without its line end.
        bytes.extend(line(rng, max_depth));
    }
    bytes
}

/// An error as the two sides can compare it: code and absolute span.
type Failure = (ErrorCode, Option<Span>);

/// What a reading found, in input order.
#[derive(Debug, Default, Clone, PartialEq)]
struct Found {
    /// Good records: line, value.
    good: Vec<(u64, Value)>,
    /// Bad records: line, error.
    bad: Vec<(u64, Failure)>,
    /// The error that ended the reading (the first bad record's without skipping, or an
    /// I/O error).
    end: Option<Failure>,
    /// Where to resume: the start of the line the reading ended in, or the input's length.
    /// Bad records from there on (a line the stream broke in) are left out of `bad`.
    bytes: u64,
}

/// `NdjsonReader` over `input` (the bytes `bytes`): each record read whole then finished;
/// with `skip`, bad records are skipped and collected. What it read before the error that
/// ended it, if any, and the place to resume from: the start of the line of that error.
fn sequential<S: sluice_json::Input>(bytes: &[u8], records: NdjsonReader<S>, skip: bool) -> Found {
    let mut found = read_sequentially(records, skip);
    let starts = line_starts(bytes);
    // The line an absolute span starts in, from 1.
    let line_of = |span: Option<Span>| {
        let at = span.expect("an error with a span").start as u64;
        starts.iter().rposition(|start| *start <= at).unwrap() as u64 + 1
    };
    found.bytes = match found.end {
        None => bytes.len() as u64,
        Some((_, span)) => starts[usize::try_from(line_of(span)).unwrap() - 1],
    };
    for (line, (_, span)) in &mut found.bad {
        if *line == 0 {
            *line = line_of(*span);
        }
    }
    found
        .bad
        .retain(|(line, _)| starts[usize::try_from(*line).unwrap() - 1] < found.bytes);
    found
}

fn read_sequentially<S: sluice_json::Input>(mut records: NdjsonReader<S>, skip: bool) -> Found {
    let mut found = Found::default();
    loop {
        let error = match records.next_record() {
            Ok(None) => return found,
            Ok(Some(mut record)) => {
                let line = record.line() as u64;
                match read_value(&mut record).and_then(|value| record.finish().map(|()| value)) {
                    Ok(value) => {
                        found.good.push((line, value));
                        continue;
                    }
                    Err(error) => error,
                }
            }
            Err(error) => error,
        };
        let failure = (error.code(), error.span());
        if error.code() == sluice_core::codes::IO || !skip {
            found.end = Some(failure);
            return found;
        }
        match records.skip_bad_record() {
            Ok(Some(line)) => found.bad.push((line as u64, failure)),
            Ok(None) => panic!("an error and no bad line: {error}"),
            Err(io) => {
                // The reader met the break skipping the bad line's rest (or looking past its
                // line feed): the record is bad, and the stream is. Its line is found from
                // its span (0 here).
                assert_eq!(io.code(), sluice_core::codes::IO);
                found.bad.push((0, failure));
                found.end = Some((io.code(), io.span()));
                return found;
            }
        }
    }
}

/// The offset of the start of each line of `input`.
fn line_starts(input: &[u8]) -> Vec<u64> {
    std::iter::once(0)
        .chain(
            input
                .iter()
                .enumerate()
                .filter(|(_, byte)| **byte == b'\n')
                .map(|(at, _)| at as u64 + 1),
        )
        .collect()
}

fn shifted(span: Option<Span>, by: u64) -> Option<Span> {
    let by = usize::try_from(by).unwrap();
    span.map(|span| Span::new(span.start + by, span.end + by))
}

/// The parallel ingestion of `source` (the bytes `input`) with `options`.
fn parallel(input: &[u8], source: impl std::io::Read, options: &ParallelOptions) -> Found {
    let starts = line_starts(input);
    let mut found = Found::default();
    let mut summary = IngestSummary::default();
    let run = ingest_blocks_into(
        source,
        options,
        &mut summary,
        Vec::new,
        |records: &mut Vec<(u64, Value)>, reader, info| {
            assert_eq!(info.offset, starts[usize::try_from(info.line).unwrap() - 1]);
            let value = read_value(reader)?;
            reader.finish()?;
            records.push((info.line, value));
            Ok(())
        },
        |records| {
            found.good.extend(records);
            Ok(())
        },
    );
    if !options.ordered {
        found.good.sort_by_key(|(line, _)| *line);
    }
    // What the summary says was delivered is what was, failed run or not.
    assert_eq!(summary.records, found.good.len() as u64);
    found.bytes = summary.bytes;
    found.bad = summary
        .errors
        .iter()
        .map(|bad| {
            let line = usize::try_from(bad.record.line).unwrap();
            assert_eq!(bad.record.offset, starts[line - 1]);
            let span = shifted(bad.error.span(), bad.record.offset);
            (bad.record.line, (bad.error.code(), span))
        })
        .collect();
    match run {
        Ok(()) => assert_eq!(summary.bytes, input.len() as u64),
        Err(error) => {
            // A bad record's error has its line as source, and spans counted from there;
            // an I/O error has neither.
            let span = match error.source_text() {
                Some(source) if error.code() != sluice_core::codes::IO => {
                    shifted(error.span(), starts[source.line_offset])
                }
                _ => error.span(),
            };
            found.end = Some((error.code(), span));
        }
    }
    found
}

/// Hands out `bytes` at most `chunk` at a time; after `good` bytes, fails.
struct Stream<'a> {
    bytes: &'a [u8],
    chunk: usize,
    good: usize,
}

impl std::io::Read for Stream<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        if self.good == 0 && !self.bytes.is_empty() {
            return Err(std::io::Error::other("the stream broke"));
        }
        let count = buffer
            .len()
            .min(self.chunk)
            .min(self.good)
            .min(self.bytes.len());
        buffer[..count].copy_from_slice(&self.bytes[..count]);
        self.bytes = &self.bytes[count..];
        self.good -= count;
        Ok(count)
    }
}

/// The dialects generated inputs are read in.
fn dialects(max_depth: usize) -> [JsonOptions; 3] {
    [
        JsonOptions {
            max_depth,
            ..JsonOptions::strict()
        },
        JsonOptions {
            comments: true,
            max_depth,
            ..JsonOptions::strict()
        },
        JsonOptions {
            max_depth,
            ..JsonOptions::json5()
        },
    ]
}

/// What holds of the summary of an unordered run that failed (`got`), against what the
/// record reader read before the same error (`expected`): it goes no further than the line
/// of that error, it ends at a line start, every record before it was delivered, and every
/// bad record before it is in it (the records delivered after it are counted as well).
fn assert_unordered_summary(input: &[u8], got: &Found, expected: &Found) {
    let starts = line_starts(input);
    let start_of = |line: u64| starts[usize::try_from(line).unwrap() - 1];
    assert!(got.bytes <= expected.bytes, "{got:?} {expected:?}");
    assert!(starts.contains(&got.bytes) || got.bytes == input.len() as u64);
    for record in expected
        .good
        .iter()
        .filter(|(line, _)| start_of(*line) < got.bytes)
    {
        assert!(
            got.good.contains(record),
            "{record:?} not delivered: {got:?}"
        );
    }
    let bad: Vec<_> = expected
        .bad
        .iter()
        .filter(|(line, _)| start_of(*line) < got.bytes)
        .cloned()
        .collect();
    assert_eq!(got.bad, bad);
}

/// Asserts that the parallel run's outcome `got` is the record reader's `expected`. Out of
/// order and without `skip_errors`, the records delivered before the error are any, and the
/// summary stops at the first block not delivered: that part is checked by
/// [`assert_unordered_summary`], the rest compared as a whole.
fn assert_same_outcome(
    input: &[u8],
    mut got: Found,
    mut expected: Found,
    options: &ParallelOptions,
    what: impl Fn() -> String,
) {
    if !options.ordered && !options.skip_errors {
        assert_unordered_summary(input, &got, &expected);
        got.good.clear();
        expected.good.clear();
        got.bytes = expected.bytes;
    }
    assert_eq!(got, expected, "{}", what());
}

/// Compares both readers on `input` with `json`, for every run shape.
fn compare(seed: u64, input: &[u8], json: &JsonOptions, rng: &mut Rng) {
    for skip in [true, false] {
        let oracle = sequential(
            input,
            NdjsonReader::new(SliceInput::new(input), json.clone()),
            skip,
        );
        // The reader over a stream of one byte a read finds the same.
        let trickled = sequential(
            input,
            NdjsonReader::new(
                IoInput::new(Stream {
                    bytes: input,
                    chunk: 1,
                    good: usize::MAX,
                }),
                json.clone(),
            ),
            skip,
        );
        assert_eq!(
            trickled, oracle,
            "seed {seed}: the record reader over io::Read"
        );
        for jobs in [1, 2, 3, 64] {
            let ordered = rng.below(4) != 0;
            let options = ParallelOptions {
                jobs,
                ordered,
                skip_errors: skip,
                block_size: 1024 + rng.below(3) * rng.below(700),
                json: json.clone(),
                ..ParallelOptions::default()
            };
            let chunk = *rng.pick(&[1, 7, 4096]);
            let source = Stream {
                bytes: input,
                chunk,
                good: usize::MAX,
            };
            let got = parallel(input, source, &options);
            assert_same_outcome(input, got, oracle.clone(), &options, || {
                format!(
                    "seed {seed}, jobs {jobs}, ordered {ordered}, skip {skip}, block {}, \
                     chunk {chunk}, input {:?}",
                    options.block_size,
                    String::from_utf8_lossy(input)
                )
            });
        }
    }
}

#[test]
fn the_parallel_ingestion_reads_generated_inputs_as_the_record_reader() {
    for seed in 1..=300u64 {
        let mut rng = Rng::new(seed);
        let max_depth = 3 + rng.below(6);
        let lines = rng.below(40);
        let input = input(&mut rng, lines, max_depth);
        let json = rng.pick(&dialects(max_depth)).clone();
        compare(seed, &input, &json, &mut rng);
    }
}

#[test]
fn over_a_stream_that_breaks_both_deliver_the_same_records_before_the_same_io_error() {
    for seed in 1..=500u64 {
        let mut rng = Rng::new(seed);
        let max_depth = 3 + rng.below(6);
        let lines = 1 + rng.below(30);
        let input = input(&mut rng, lines, max_depth);
        let json = rng.pick(&dialects(max_depth)).clone();
        // Breaks anywhere, and also right before and after a line feed.
        let feed = input.iter().position(|&byte| byte == b'\n').unwrap_or(0);
        for good in [
            rng.below(input.len() + 1),
            rng.below(input.len() + 1),
            feed,
            feed + 1,
        ] {
            let chunk = *rng.pick(&[1, 7, 4096]);
            broken_stream_case(seed, &input, &json, good, chunk, &mut rng);
        }
    }
}

/// Both readers over `input` cut after `good` bytes (handed out `chunk` at a time): the
/// same records, the same bad records and the same error, and the summary of the run that
/// failed says where the record reader stopped.
fn broken_stream_case(
    seed: u64,
    input: &[u8],
    json: &JsonOptions,
    good: usize,
    chunk: usize,
    rng: &mut Rng,
) {
    for skip in [true, false] {
        let stream = || Stream {
            bytes: input,
            chunk,
            good,
        };
        let oracle = sequential(
            input,
            NdjsonReader::new(IoInput::new(stream()), json.clone()),
            skip,
        );
        for jobs in [1, 2, 3] {
            let ordered = rng.below(4) != 0;
            let options = ParallelOptions {
                jobs,
                ordered,
                skip_errors: skip,
                block_size: 1024 + rng.below(3) * rng.below(700),
                json: json.clone(),
                ..ParallelOptions::default()
            };
            let got = parallel(input, stream(), &options);
            assert_same_outcome(input, got, oracle.clone(), &options, || {
                format!(
                    "seed {seed}, jobs {jobs}, ordered {ordered}, skip {skip}, block {}, \
                     chunk {chunk}, breaks after {good}, input {:?}",
                    options.block_size,
                    String::from_utf8_lossy(input)
                )
            });
        }
    }
}

#[test]
fn inputs_without_a_record_are_read_alike() {
    let inputs: [&[u8]; 7] = [
        b"",
        b"\n",
        b"\n\n\n",
        b"\r\n\r\n",
        b"  \n\t\n",
        b"\xef\xbb\xbf",
        b"\xef\xbb\xbf\n\n",
    ];
    for input in inputs {
        for json in dialects(64) {
            let oracle = sequential(
                input,
                NdjsonReader::new(SliceInput::new(input), json.clone()),
                true,
            );
            let nothing = Found {
                bytes: input.len() as u64,
                ..Found::default()
            };
            assert_eq!(oracle, nothing, "{input:?}");
            for jobs in [1, 3] {
                let options = ParallelOptions {
                    jobs,
                    skip_errors: true,
                    json: json.clone(),
                    ..ParallelOptions::default()
                };
                assert_eq!(parallel(input, input, &options), oracle, "{input:?}");
            }
        }
    }
}

#[test]
fn an_error_returned_by_deliver_stops_the_run_with_that_error() {
    let input: String = (0..20_000).map(|n| format!("{n}\n")).collect();
    for (jobs, ordered) in [(1, true), (2, true), (3, false)] {
        let read = std::sync::atomic::AtomicUsize::new(0);
        let mut delivered = 0;
        let err = ingest_blocks(
            input.as_bytes(),
            &ParallelOptions {
                jobs,
                ordered,
                block_size: 1024,
                ..ParallelOptions::default()
            },
            || (),
            |(), reader, _| {
                read.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                reader.skip()
            },
            |()| {
                delivered += 1;
                if delivered == 3 {
                    return Err(sluice_core::Error::custom("the sink is full"));
                }
                Ok(())
            },
        )
        .unwrap_err();
        assert_eq!(err.code(), sluice_core::codes::CUSTOM);
        assert_eq!(delivered, 3);
        let read = read.load(std::sync::atomic::Ordering::Relaxed);
        assert!(read < 5_000, "{read} records read after deliver failed");
    }
}

#[test]
fn a_panic_in_deliver_is_raised_on_the_calling_thread_once_the_workers_are_done() {
    let input: String = (0..20_000).map(|n| format!("{n}\n")).collect();
    for jobs in [1, 2, 5] {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut delivered = 0;
            ingest_blocks(
                input.as_bytes(),
                &ParallelOptions {
                    jobs,
                    block_size: 1024,
                    ..ParallelOptions::default()
                },
                || (),
                |(), reader, _| reader.skip(),
                |()| {
                    delivered += 1;
                    assert!(delivered < 4, "deliver panicked");
                    Ok(())
                },
            )
        }));
        let payload = outcome.unwrap_err();
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"deliver panicked"));
    }
}
