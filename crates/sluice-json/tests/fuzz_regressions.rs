//! Replays every input under `tests/fuzz_regressions/` (seeds and anything the fuzzer found),
//! and the JSONTestSuite and round-trip corpora, through the fuzz target's checks, on stable
//! Rust. A replay runs the checks that the target runs with one preset chosen by the input
//! (`LastWins`, a small `max_depth`, the NDJSON records) with every preset.

use std::path::{Path, PathBuf};

/// The files of `dir`, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|err| panic!("{} cannot be listed: {err}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    paths.sort();
    paths
}

/// Runs the checks on every file, and names every failing one, not only the first.
fn assert_every_file_passes(paths: &[PathBuf]) {
    let failing: Vec<String> = paths
        .iter()
        .filter(|path| {
            let bytes = std::fs::read(path).expect("input is readable");
            std::panic::catch_unwind(|| {
                sluice_json::fuzzing::check_json_input_with_every_preset(&bytes);
            })
            .is_err()
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(
        failing.is_empty(),
        "{} of {} inputs fail the fuzz checks:\n{}",
        failing.len(),
        paths.len(),
        failing.join("\n")
    );
}

fn regression_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions")
}

#[test]
fn every_fuzz_regression_input_passes_the_fuzz_checks() {
    assert_every_file_passes(&files(&regression_dir()));
}

#[test]
fn every_found_input_the_fuzzing_notes_name_is_replayed() {
    // The notes tell what each run found and that the input is kept: it must be there, or
    // the fix it stands for goes untested.
    let notes = include_str!("../../../fuzz/README.md");
    let named: Vec<&str> = notes
        .split('`')
        .filter(|word| {
            word.strip_prefix("crash-").is_some_and(|rest| {
                !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            })
        })
        .collect();
    assert!(
        named.len() >= 9,
        "the notes name their found inputs: {named:?}"
    );
    let stored: Vec<String> = files(&regression_dir())
        .iter()
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let missing: Vec<&&str> = named
        .iter()
        .filter(|name| !stored.iter().any(|stored| stored == *name))
        .collect();
    assert!(
        missing.is_empty(),
        "not in tests/fuzz_regressions: {missing:?}"
    );
}

#[test]
fn every_conformance_and_round_trip_corpus_file_passes_the_fuzz_checks() {
    for (dir, count) in [("json-test-suite/test_parsing", 318), ("roundtrip", 27)] {
        let Some(dir) = sluice_core::testing::corpus_file(dir) else {
            continue;
        };
        let paths: Vec<PathBuf> = files(&dir)
            .into_iter()
            .filter(|path| path.extension().is_some_and(|e| e == "json"))
            .collect();
        assert_eq!(
            paths.len(),
            count,
            "{}: the whole set is read",
            dir.display()
        );
        assert_every_file_passes(&paths);
    }
}
