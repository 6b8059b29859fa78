//! Replays every input under `tests/fuzz_regressions/` (seeds and anything the fuzzer found)
//! through the fuzz target's checks, on stable Rust.

#[test]
fn every_fuzz_regression_input_passes_the_fuzz_checks() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("the regression directory exists") {
        let path = entry.expect("directory entry").path();
        let bytes = std::fs::read(&path).expect("regression input is readable");
        let outcome = std::panic::catch_unwind(|| sluice_json::fuzzing::check_json_input(&bytes));
        assert!(outcome.is_ok(), "{} fails the fuzz checks", path.display());
        count += 1;
    }
    assert!(count >= 4, "the seeds are there");
}
