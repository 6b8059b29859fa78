//! Fuzzes `JsonReader` with every option preset: any bytes must be read without a panic or
//! a hang, the `io::Read` path must agree with the slice path, and a document that reads
//! must write (condensed and pretty) and read back to the same tokens.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sluice_json::fuzzing::check_json_input;

fuzz_target!(|data: &[u8]| {
    check_json_input(data);
});
