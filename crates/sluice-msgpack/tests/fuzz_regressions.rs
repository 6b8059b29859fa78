//! Replays every input in `tests/fuzz_regressions/` (seeds and inputs found by the
//! `msgpack_reader` fuzz target) through the fuzz target's checks.

use sluice_msgpack::fuzzing::check_msgpack_input;

#[test]
fn every_saved_fuzz_input_passes_the_checks() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            continue;
        }
        let data = std::fs::read(&path).unwrap();
        let result = std::panic::catch_unwind(|| check_msgpack_input(&data));
        assert!(result.is_ok(), "{} fails the fuzz checks", path.display());
        count += 1;
    }
    println!("{count} fuzz inputs replayed");
    assert!(count >= 10, "the seeds are missing");
}
