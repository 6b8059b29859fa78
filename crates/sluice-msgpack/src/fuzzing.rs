//! The checks the fuzz target runs, here so that found inputs replay in `cargo test`.
//!
//! Not part of the reading and writing API: a harness for fuzzers and regression tests.

use sluice_core::testing::{Trickle, normalize};
use sluice_core::{Entry, Error, Reader, Result, Token};

use crate::{Input, MsgPackReader, MsgPackWriter};

/// Reads every value; an error (always one in the input: every read follows its peek) must
/// be final.
fn read_stream<I: Input>(mut reader: MsgPackReader<I>) -> Result<Vec<Token>> {
    let read = Token::read_all(&mut reader).and_then(|tokens| reader.finish().map(|()| tokens));
    if let Err(err) = &read {
        assert_final(&mut reader, err);
    }
    read
}

/// Asserts that a reader that failed with `first` reports it again, whatever it is asked.
fn assert_final<I: Input>(reader: &mut MsgPackReader<I>, first: &Error) {
    let same = |again: Result<()>| {
        let again = again.expect_err("a call after an error in the input succeeded");
        assert_eq!(
            (again.code(), again.span()),
            (first.code(), first.span()),
            "a call after an error in the input reported another error"
        );
    };
    same(reader.peek().map(drop));
    same(reader.read_u64().map(drop));
    same(reader.read_str().map(drop));
    same(reader.read_array_end());
    same(reader.skip());
    same(reader.finish());
}

fn write(tokens: &[Token]) -> Vec<u8> {
    let mut writer = MsgPackWriter::new(Vec::new());
    Token::write_all(tokens, &mut writer).expect("tokens that were read can be written");
    writer
        .into_inner()
        .expect("tokens that were read are complete")
}

/// Runs every check on `data`, panicking on the first broken property:
/// - reading (as a stream of values) never panics, hangs or allocates more than the input
///   warrants (lengths are never trusted);
/// - the `io::Read` path (one byte per read) accepts exactly what the slice path accepts, and
///   gives the same tokens;
/// - an error in the input is final: every later call reports it again;
/// - `skip` accepts every input that reads, and its errors are final too;
/// - what reads writes, and reads back to the same values; writing that again gives the same
///   bytes (the writer's output is canonical).
///
/// # Panics
/// When a property does not hold.
pub fn check_msgpack_input(data: &[u8]) {
    let from_slice = read_stream(MsgPackReader::from_slice(data));
    let from_stream = read_stream(MsgPackReader::from_read(Trickle::one_byte(data)));
    match (&from_slice, &from_stream) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "slice and stream read different tokens"),
        (Err(_), Err(_)) => {}
        (a, b) => panic!(
            "slice and stream disagree: {:?} vs {:?}",
            a.as_ref().err(),
            b.as_ref().err()
        ),
    }
    let Ok(tokens) = from_slice else {
        let mut skipper = MsgPackReader::from_slice(data);
        loop {
            match skipper.peek().and_then(|entry| match entry {
                Entry::Ended => Ok(false),
                _ => skipper.skip().map(|()| true),
            }) {
                Ok(true) => {}
                Ok(false) => break,
                Err(err) => {
                    assert_final(&mut skipper, &err);
                    break;
                }
            }
        }
        return;
    };
    let mut skipper = MsgPackReader::from_slice(data);
    while skipper.peek().expect("peek after a good read") != Entry::Ended {
        skipper.skip().expect("skip accepts what reads");
    }
    let written = write(&tokens);
    let again = read_stream(MsgPackReader::from_slice(&written)).expect("our output reads");
    assert_eq!(normalize(&again), normalize(&tokens), "values changed");
    assert_eq!(write(&again), written, "writing is not canonical");
}
