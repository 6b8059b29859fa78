//! Replays every input under `tests/fuzz_regressions/` (seeds and anything the fuzzer found)
//! through the fuzz target's checks, on stable Rust.

#[test]
fn every_fuzz_regression_input_passes_the_fuzz_checks() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("the regression directory exists")
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    paths.sort();
    // Every input is replayed, and every failing one named, not only the first.
    let failing: Vec<String> = paths
        .iter()
        .filter(|path| {
            let bytes = std::fs::read(path).expect("regression input is readable");
            std::panic::catch_unwind(|| sluice_json::fuzzing::check_json_input(&bytes)).is_err()
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
    assert!(paths.len() >= 4, "the seeds are there");
}
