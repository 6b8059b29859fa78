//! How errors of the JSON and NDJSON readers are shown: the same line, column and caret
//! whether the whole input or only the lines around a record are attached.

use sluice_core::{Error, Token};
use sluice_json::NdjsonReader;
use sluice_json::parallel::{ParallelOptions, ingest_records};

/// The first error of the NDJSON reader on `text`, with the whole text attached.
fn record_reader_error(text: &str) -> Error {
    let mut records = NdjsonReader::from_str(text);
    loop {
        match records.next_record() {
            Ok(Some(mut record)) => {
                if let Err(err) = Token::read_all(&mut record).and_then(|_| record.finish()) {
                    return err.with_source_text("in.ndjson", text);
                }
            }
            Ok(None) => panic!("no error in {text:?}"),
            Err(err) => return err.with_source_text("in.ndjson", text),
        }
    }
}

/// The error of the parallel ingestion on `text`, which attaches the record's line only.
fn parallel_error(text: &str) -> Error {
    let options = ParallelOptions {
        jobs: 1,
        source_name: "in.ndjson".into(),
        ..ParallelOptions::default()
    };
    ingest_records(
        text.as_bytes(),
        &options,
        |reader| Token::read_all(reader).map(drop),
        |()| Ok(()),
    )
    .unwrap_err()
}

/// The `--> name:line:column` line, the error's line and its caret line of a rendering.
fn located(rendered: &str, line: usize) -> Vec<String> {
    let lines: Vec<&str> = rendered.lines().collect();
    let shown = lines
        .iter()
        .position(|l| l.starts_with(&format!("{line} |")))
        .unwrap_or_else(|| panic!("line {line} not shown: {rendered}"));
    let arrow = lines.iter().find(|l| l.contains("-->")).unwrap();
    vec![
        arrow.trim().to_owned(),
        lines[shown].to_owned(),
        lines[shown + 1].to_owned(),
    ]
}

#[test]
fn a_byte_order_mark_opening_a_later_record_is_shown_and_counted_in_both_ndjson_readers() {
    let text = "{\"a\":1}\n\u{FEFF}{\"a\":2}\n";
    let whole = record_reader_error(text);
    let alone = parallel_error(text);
    assert_eq!(whole.code(), alone.code());
    for err in [&whole, &alone] {
        assert_eq!(err.line_column().map(|p| (p.line, p.column)), Some((2, 1)));
    }
    let expected = [
        "--> in.ndjson:2:1".to_owned(),
        "2 | \u{FFFD}{\"a\":2}".to_owned(),
        "  | ^".to_owned(),
    ];
    assert_eq!(located(&whole.render(), 2), expected);
    assert_eq!(located(&alone.render(), 2), expected);
}
