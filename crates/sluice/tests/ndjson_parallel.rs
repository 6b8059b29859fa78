//! Typed NDJSON records on every core: input order, unordered delivery, error lines and
//! offsets, skip mode, and agreement with the one-by-one iterator.

use sluice::Reflect;
use sluice::core::codes as core_codes;
use sluice::ndjson::{
    IngestSummary, ParallelOptions, par_collect, par_for_each, par_for_each_into,
};
use sluice::reflect::codes as reflect_codes;

#[derive(Reflect, Debug, Clone, PartialEq)]
struct Event {
    id: u64,
    kind: String,
    tags: Vec<String>,
}

fn event_line(id: u64) -> String {
    format!(
        "{{\"id\": {id}, \"kind\": \"kind {}\", \"tags\": [\"a\", \"b{id}\"]}}\n",
        id % 7
    )
}

fn events(count: u64) -> String {
    (0..count).map(event_line).collect()
}

/// Small blocks, so that a few thousand records span many blocks and workers.
fn options(jobs: usize) -> ParallelOptions {
    ParallelOptions {
        jobs,
        block_size: 1024,
        ..ParallelOptions::default()
    }
}

#[test]
fn records_come_back_in_input_order_across_blocks_and_workers() {
    let input = events(5000);
    let (records, summary) = par_collect::<Event, _>(input.as_bytes(), &options(3)).unwrap();
    assert_eq!(summary.records, 5000);
    assert_eq!(summary.bytes, input.len() as u64);
    assert!(summary.errors.is_empty());
    let ids: Vec<u64> = records.iter().map(|e| e.id).collect();
    assert_eq!(ids, (0..5000).collect::<Vec<_>>());
    assert_eq!(records[12].tags, ["a", "b12"]);
}

#[test]
fn unordered_delivery_yields_every_record_once() {
    let input = events(5000);
    let unordered = ParallelOptions {
        ordered: false,
        ..options(3)
    };
    let (records, summary) = par_collect::<Event, _>(input.as_bytes(), &unordered).unwrap();
    assert_eq!(summary.records, 5000);
    let mut ids: Vec<u64> = records.iter().map(|e| e.id).collect();
    ids.sort_unstable();
    assert_eq!(ids, (0..5000).collect::<Vec<_>>());
}

#[test]
fn parallel_and_one_by_one_reading_agree() {
    let input = events(800);
    let one_by_one: Vec<Event> = sluice::ndjson::iter(input.as_bytes())
        .collect::<Result<_, _>>()
        .unwrap();
    let (parallel, _) = par_collect::<Event, _>(input.as_bytes(), &options(2)).unwrap();
    assert_eq!(parallel, one_by_one);
}

/// Input with a wrong-typed record on line 1500 and a syntax error on line 3200.
fn input_with_two_bad_records() -> (String, u64, u64) {
    let mut input = String::new();
    let mut offsets = (0, 0);
    for id in 0..4000u64 {
        match id {
            1499 => {
                offsets.0 = input.len() as u64;
                input.push_str("{\"id\": \"not a number\", \"kind\": \"x\", \"tags\": []}\n");
            }
            3199 => {
                offsets.1 = input.len() as u64;
                input.push_str("{\"id\": 3199, \"kind\": \"x\" \"tags\": []}\n");
            }
            _ => input.push_str(&event_line(id)),
        }
    }
    (input, offsets.0, offsets.1)
}

#[test]
fn the_first_bad_record_stops_the_run_with_its_line_and_span() {
    let (input, _, _) = input_with_two_bad_records();
    let error = par_collect::<Event, _>(input.as_bytes(), &options(2)).unwrap_err();
    assert_eq!(error.code(), reflect_codes::WRONG_TYPE);
    assert_eq!(
        error.path().map(ToString::to_string).as_deref(),
        Some("$.id")
    );
    // The span is relative to the record's line: `"not a number"` starts at byte 7.
    let span = error.span().unwrap();
    assert_eq!((span.start, span.end), (7, 21));
    // Rendering shows the file's line number, not the record's.
    assert!(error.render().contains("1500"));
}

#[test]
fn skip_mode_collects_bad_records_with_line_and_offset_and_keeps_the_rest() {
    let (input, first_offset, second_offset) = input_with_two_bad_records();
    let skipping = ParallelOptions {
        skip_errors: true,
        ..options(2)
    };
    let mut ids = Vec::new();
    let summary = par_for_each(input.as_bytes(), &skipping, |event: Event| {
        ids.push(event.id);
        Ok(())
    })
    .unwrap();
    assert_eq!(summary.records, 3998);
    assert_eq!(ids.len(), 3998);
    assert!(!ids.contains(&1499) && !ids.contains(&3199));
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));

    let found: Vec<(u64, u64)> = summary
        .errors
        .iter()
        .map(|e| (e.record.line, e.record.offset))
        .collect();
    assert_eq!(found, [(1500, first_offset), (3200, second_offset)]);
    assert_eq!(summary.errors[0].error.code(), reflect_codes::WRONG_TYPE);
    assert_eq!(
        summary.errors[1].error.code(),
        sluice::json::codes::EXPECT_COMMA
    );
}

#[test]
fn an_error_from_the_sink_stops_the_run() {
    let input = events(3000);
    let mut seen = 0;
    let error = par_for_each(input.as_bytes(), &options(2), |event: Event| {
        if event.id == 1234 {
            return Err(sluice::Error::custom("enough"));
        }
        seen += 1;
        Ok(())
    })
    .unwrap_err();
    assert_eq!(error.code(), core_codes::CUSTOM);
    assert_eq!(seen, 1234);
}

#[test]
fn blank_lines_and_a_missing_final_newline_are_fine() {
    let input = "\n{\"id\": 1, \"kind\": \"k\", \"tags\": []}\n\n   \n{\"id\": 2, \"kind\": \"k\", \"tags\": []}";
    let (records, summary) = par_collect::<Event, _>(input.as_bytes(), &options(2)).unwrap();
    assert_eq!(records.iter().map(|e| e.id).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(summary.records, 2);
}

#[test]
fn reading_from_a_file_matches_reading_from_memory() {
    let input = events(2000);
    let path = std::env::temp_dir().join(format!("sluice-par-{}.ndjson", std::process::id()));
    std::fs::write(&path, &input).unwrap();
    let file = std::fs::File::open(&path).unwrap();
    let from_file = par_collect::<Event, _>(file, &ParallelOptions::default());
    std::fs::remove_file(&path).unwrap();
    let (from_file, _) = from_file.unwrap();
    let (from_memory, _) = par_collect::<Event, _>(input.as_bytes(), &options(1)).unwrap();
    assert_eq!(from_file, from_memory);
}

/// A bad line: its number, the error's code and absolute span.
type BadLine = (u64, String, usize, usize);

/// The good records and the bad lines of the one-by-one iterator, the line of each error
/// taken from its span.
fn one_by_one_with_errors<T: sluice::Typed>(input: &str) -> (Vec<T>, Vec<BadLine>) {
    let (mut good, mut bad) = (Vec::new(), Vec::new());
    for result in sluice::ndjson::iter::<T, _>(input.as_bytes()) {
        match result {
            Ok(value) => good.push(value),
            Err(error) => {
                let span = error.span().expect("a span");
                let line = input[..span.start].matches('\n').count() as u64 + 1;
                bad.push((line, error.code().to_string(), span.start, span.end));
            }
        }
    }
    (good, bad)
}

#[test]
fn the_iterator_yields_one_item_per_line_as_the_parallel_ingestion_counts_them() {
    let skip = ParallelOptions {
        skip_errors: true,
        ..options(2)
    };
    for input in [
        // A second value on a record's line, after a good value and after a bad one.
        "[1, 2]\n[3, 4] 5\n[6, 7]\n[300, 1] [2]\n[8, 9]\n",
        // A syntax error inside a record, and a record cut by its line feed.
        "[1, 2,]\n[3, 4]\n[5,\n[6, 7]\n",
        // A record that would be whole with the next line, and one cut where the next
        // line's token does not fit the target.
        "[1,\n2]\n[5,\n[6, 7]\n",
        // A wrong type, then a syntax error in the same record's rest.
        "[\"x\", 2,]\n[1, 2]\n",
        // A line with no record but an error, and an error in a record's first token.
        "]\n[1, 2]\nx\n[3, 4]",
    ] {
        let (good, bad) = one_by_one_with_errors::<(u8, u8)>(input);
        let (parallel, summary) = par_collect::<(u8, u8), _>(input.as_bytes(), &skip).unwrap();
        let parallel_bad: Vec<BadLine> = summary
            .errors
            .iter()
            .map(|bad| {
                let span = bad.error.span().expect("a span");
                let offset = bad.record.offset as usize;
                (
                    bad.record.line,
                    bad.error.code().to_string(),
                    offset + span.start,
                    offset + span.end,
                )
            })
            .collect();
        assert_eq!((&good, &bad), (&parallel, &parallel_bad), "{input:?}");
    }
    // A second value on a line is the error of that line's record, at the second value.
    let (good, bad) = one_by_one_with_errors::<(u8, u8)>("[1, 2] [3, 4]\n[5, 6]\n");
    assert_eq!(good, [(5, 6)]);
    assert_eq!(bad, [(1, "json/TrailingToken".to_owned(), 7, 8)]);
}

/// Hands out `bytes`, then fails.
struct BreaksAfter<'a>(&'a [u8]);

impl std::io::Read for BreaksAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() {
            return Err(std::io::Error::other("the stream broke"));
        }
        let n = buf.len().min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn the_iterator_yields_an_io_error_once_and_ends() {
    let codes = |bytes: &[u8]| -> Vec<Result<(u8, u8), String>> {
        sluice::ndjson::iter::<(u8, u8), _>(BreaksAfter(bytes))
            .map(|result| result.map_err(|error| error.code().to_string()))
            .collect()
    };
    // In a record, and between records.
    assert_eq!(
        codes(b"[1, 2]\n[3, "),
        [Ok((1, 2)), Err("core/Io".to_owned())]
    );
    assert_eq!(codes(b"[1, 2]\n"), [Ok((1, 2)), Err("core/Io".to_owned())]);
    // In the rest of a record that did not fit: the record's error, then the I/O error.
    assert_eq!(
        codes(b"[\"x\", "),
        [
            Err("reflect/WrongType".to_owned()),
            Err("core/Io".to_owned())
        ]
    );
}

/// Hands out `bytes` a few at a time, then fails as a dropped connection.
struct Dropped<'a>(&'a [u8]);

impl std::io::Read for Dropped<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() {
            return Err(std::io::ErrorKind::ConnectionReset.into());
        }
        let count = buffer.len().min(100).min(self.0.len());
        buffer[..count].copy_from_slice(&self.0[..count]);
        self.0 = &self.0[count..];
        Ok(count)
    }
}

#[test]
fn a_typed_run_that_breaks_resumes_from_its_summary_without_repeating_or_skipping() {
    let mut input = events(3000);
    // A record of the wrong type, collected.
    input.insert_str(input.find("{\"id\": 1000,").unwrap(), "{\"id\": \"x\"}\n");
    let whole = par_collect::<Event, _>(
        input.as_bytes(),
        &ParallelOptions {
            skip_errors: true,
            ..options(2)
        },
    )
    .unwrap();
    for (jobs, cut) in [(1, 60_000), (2, 150_000), (3, 61_234)] {
        let options = ParallelOptions {
            skip_errors: true,
            ..options(jobs)
        };
        let mut got = Vec::new();
        let mut summary = IngestSummary::default();
        let err = par_for_each_into(
            Dropped(&input.as_bytes()[..cut]),
            &options,
            &mut summary,
            |event: Event| {
                got.push(event);
                Ok(())
            },
        )
        .unwrap_err();
        assert_eq!(err.code(), core_codes::IO);
        assert_eq!(summary.records, got.len() as u64);
        let at = usize::try_from(summary.bytes).unwrap();
        assert!(at <= cut && input.as_bytes()[at - 1] == b'\n', "cut {cut}");
        // The bad record is reported once, by the run whose part holds it.
        let mut bad = summary.errors.len();
        let mut rest = IngestSummary::default();
        par_for_each_into(
            &input.as_bytes()[at..],
            &options,
            &mut rest,
            |event: Event| {
                got.push(event);
                Ok(())
            },
        )
        .unwrap();
        bad += rest.errors.len();
        assert_eq!(got, whole.0, "cut {cut}");
        assert_eq!(bad, 1);
        assert_eq!(summary.records + rest.records, 3000);
        assert_eq!(summary.bytes + rest.bytes, input.len() as u64);
    }
}
