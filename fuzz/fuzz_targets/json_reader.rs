//! Fuzzes `JsonReader` with every option preset, plus a `LastWins` and a small `max_depth`
//! variant chosen by the input: any bytes must be read without a panic or a hang, the
//! `io::Read` path must agree with the slice path, `skip()` with reading, typed number reads
//! with Rust's own `parse`, `NdjsonReader` (with a preset chosen by the input) with a
//! `JsonReader` reading several values and with the parallel ingestion's reading of each
//! line, and a document that reads must write (condensed and pretty, with and without
//! `escape_non_ascii`) and read back to the same tokens (number text as the same text), and
//! the strict reader (duplicate keys: last wins) must accept what serde_json accepts, to the
//! same value. The checks are `sluice_json::fuzzing::check_json_input` (the `fuzzing`
//! feature).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sluice_json::fuzzing::check_json_input;

fuzz_target!(|data: &[u8]| {
    check_json_input(data);
});
