//! JSONTestSuite `test_parsing` in strict mode: every `y_` file accepted, every `n_` file
//! rejected (by the reader or by `finish()`), every `i_` file handled without a panic.
//! The slice path and the `io::Read` path must agree on every file.

mod common;

use std::fs;

use common::{outcome, read_slice, read_trickle, read_windowed};
use sluice_json::{DuplicateKeys, JsonOptions, codes};

fn suite() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = sluice_core::testing::corpus_file("json-test-suite/test_parsing")?;
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .expect("test_parsing is readable")
        .map(|entry| {
            let path = entry.expect("directory entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = fs::read(&path).expect("file is readable");
            (name, bytes)
        })
        .filter(|(name, _)| name.ends_with(".json"))
        .collect();
    files.sort();
    Some(files)
}

/// RFC 8259 accepts duplicate names (they SHOULD be unique, not MUST), so the RFC run uses
/// `LastWins`; the default (`Error`) is checked separately below.
fn rfc_8259() -> JsonOptions {
    JsonOptions {
        duplicate_keys: DuplicateKeys::LastWins,
        ..JsonOptions::strict()
    }
}

#[test]
fn every_y_file_is_accepted_and_every_n_file_rejected() {
    let Some(files) = suite() else { return };
    let options = rfc_8259();
    let (mut y, mut n, mut i) = (0, 0, 0);
    let mut failures = Vec::new();
    for (name, bytes) in &files {
        let result = read_slice(bytes, &options);
        match name.as_bytes()[0] {
            b'y' => {
                y += 1;
                if let Err(err) = result {
                    failures.push(format!("{name}: rejected: {err}"));
                }
            }
            b'n' => {
                n += 1;
                if result.is_ok() {
                    failures.push(format!("{name}: accepted"));
                }
            }
            _ => i += 1,
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!((y, n, i), (95, 188, 35), "the whole suite was read");
    eprintln!("JSONTestSuite: {y} y_ accepted, {n} n_ rejected, {i} i_ without panic");
}

#[test]
fn the_io_read_path_agrees_with_the_slice_path_on_every_file() {
    let Some(files) = suite() else { return };
    let options = rfc_8259();
    for (name, bytes) in &files {
        let slice = outcome(read_slice(bytes, &options));
        for chunk in [1, 7, 4096] {
            let io = outcome(read_trickle(bytes, chunk, &options));
            assert_eq!(slice, io, "{name} with {chunk}-byte reads");
        }
        for window in 1..=9 {
            for chunk in [1, 3, 4096] {
                let io = outcome(read_windowed(bytes, chunk, window, &options));
                assert_eq!(
                    slice, io,
                    "{name} with {chunk}-byte reads, a {window}-byte window"
                );
            }
        }
    }
}

#[test]
fn the_default_options_reject_exactly_the_duplicate_key_files() {
    let Some(files) = suite() else { return };
    let options = JsonOptions::strict();
    let mut rejected = Vec::new();
    for (name, bytes) in files.iter().filter(|(name, _)| name.starts_with("y_")) {
        if let Err(err) = read_slice(bytes, &options) {
            assert_eq!(err.code(), codes::DUPLICATE_KEY, "{name}");
            rejected.push(name.as_str());
        }
    }
    assert_eq!(
        rejected,
        [
            "y_object_duplicated_key.json",
            "y_object_duplicated_key_and_value.json"
        ]
    );
}
