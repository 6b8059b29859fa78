//! Fuzzes `MsgPackReader`: any bytes must be read without a panic, a hang or an allocation the
//! input does not warrant; the `io::Read` path must accept exactly what the slice path accepts;
//! what reads must write and read back to the same values, and writing is canonical.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sluice_msgpack::fuzzing::check_msgpack_input;

fuzz_target!(|data: &[u8]| {
    check_msgpack_input(data);
});
