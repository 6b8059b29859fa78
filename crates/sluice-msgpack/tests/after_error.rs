//! What the reader does after an error: an error in the input is final (every later call
//! reports it again, and the source is not read again), an error of the caller's request
//! leaves the value unread for another read to take.

mod common;

use std::cell::Cell;
use std::collections::VecDeque;
use std::io;
use std::rc::Rc;

use sluice_core::testing::{Features, Trickle, sample_tokens};
use sluice_core::{Entry, Error, ErrorCode, Reader, Span, Token, codes as core};
use sluice_msgpack::{Input, MsgPackReader, ReaderOptions, Timestamp, codes};

/// What makes two reports the same error.
type Failure = (ErrorCode, Option<Span>);

fn failure(err: &Error) -> Failure {
    (err.code(), err.span())
}

fn one_value() -> ReaderOptions {
    ReaderOptions {
        multiple_values: false,
        ..ReaderOptions::default()
    }
}

fn max_depth(max_depth: usize) -> ReaderOptions {
    ReaderOptions {
        max_depth,
        ..ReaderOptions::default()
    }
}

/// One call to a [`Scripted`] stream.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// Up to this many bytes.
    Data(usize),
    /// An error that is not `Interrupted`; the stream would go on after it.
    Broken,
    /// A non-blocking source with nothing to give yet (it pauses).
    WouldBlock,
    /// `Interrupted`: retried by the reader, not an error.
    Interrupted,
}

/// An `io::Read` that follows a script, one step a call, then hands out the rest as fast as
/// it is asked; it counts its calls.
struct Scripted<'a> {
    bytes: &'a [u8],
    steps: VecDeque<Step>,
    calls: Rc<Cell<usize>>,
}

impl<'a> Scripted<'a> {
    fn new(bytes: &'a [u8], steps: impl IntoIterator<Item = Step>) -> Scripted<'a> {
        Scripted {
            bytes,
            steps: steps.into_iter().collect(),
            calls: Rc::default(),
        }
    }

    /// `before` bytes one at a time, then `step`.
    fn failing_after(bytes: &'a [u8], before: usize, step: Step) -> Scripted<'a> {
        Scripted::new(
            bytes,
            std::iter::repeat_n(Step::Data(1), before).chain([step]),
        )
    }
}

impl io::Read for Scripted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls.set(self.calls.get() + 1);
        match self.steps.pop_front().unwrap_or(Step::Data(usize::MAX)) {
            Step::Data(max) => {
                let n = max.min(buf.len()).min(self.bytes.len());
                buf[..n].copy_from_slice(&self.bytes[..n]);
                self.bytes = &self.bytes[n..];
                Ok(n)
            }
            Step::Broken => Err(io::Error::other("the peer went away")),
            Step::WouldBlock => Err(io::ErrorKind::WouldBlock.into()),
            Step::Interrupted => Err(io::ErrorKind::Interrupted.into()),
        }
    }
}

/// Every kind of call a caller can make after an error.
const CALLS: [&str; 26] = [
    "peek",
    "read_null",
    "read_bool",
    "read_str",
    "read_name",
    "read_number",
    "read_u8",
    "read_i8",
    "read_u64",
    "read_i64",
    "read_u128",
    "read_f32",
    "read_f64",
    "read_blob",
    "read_ext",
    "read_timestamp",
    "read_array_root",
    "read_array_end",
    "read_map_root",
    "read_map_end",
    "read_option_root",
    "read_set_end",
    "read_struct_root",
    "read_enum",
    "skip",
    "finish",
];

fn call<I: Input>(reader: &mut MsgPackReader<I>, name: &str) -> sluice_core::Result<()> {
    match name {
        "peek" => reader.peek().map(drop),
        "read_null" => reader.read_null(),
        "read_bool" => reader.read_bool().map(drop),
        "read_str" => reader.read_str().map(drop),
        "read_name" => reader.read_name().map(drop),
        "read_number" => reader.read_number().map(drop),
        "read_u8" => reader.read_u8().map(drop),
        "read_i8" => reader.read_i8().map(drop),
        "read_u64" => reader.read_u64().map(drop),
        "read_i64" => reader.read_i64().map(drop),
        "read_u128" => reader.read_u128().map(drop),
        "read_f32" => reader.read_f32().map(drop),
        "read_f64" => reader.read_f64().map(drop),
        "read_blob" => reader.read_blob().map(drop),
        "read_ext" => reader.read_ext().map(drop),
        "read_timestamp" => reader.read_timestamp().map(drop),
        "read_array_root" => reader.read_array_root().map(drop),
        "read_array_end" => reader.read_array_end(),
        "read_map_root" => reader.read_map_root().map(drop),
        "read_map_end" => reader.read_map_end(),
        "read_option_root" => reader.read_option_root(),
        "read_set_end" => reader.read_set_end(),
        "read_struct_root" => reader.read_struct_root().map(drop),
        "read_enum" => reader.read_enum().map(drop),
        "skip" => reader.skip(),
        "finish" => reader.finish(),
        _ => unreachable!("no call {name}"),
    }
}

/// Asserts that every later call reports `first` again (code and span; an I/O error with
/// the stream's own error as its source).
fn assert_final<I: Input>(reader: &mut MsgPackReader<I>, first: &Error, what: &str) {
    for round in 0..2 {
        for name in CALLS {
            let again = call(reader, name)
                .err()
                .unwrap_or_else(|| panic!("{what}: {name} (round {round}) succeeded"));
            assert_eq!(
                failure(&again),
                failure(first),
                "{what}: {name} (round {round})"
            );
            if first.code() == core::IO {
                let source = again.io_error().expect("the stream's own error");
                assert_eq!(
                    source.kind(),
                    first.io_error().map(io::Error::kind).unwrap(),
                    "{what}: {name}"
                );
            }
        }
    }
}

/// Runs `$check(reader, how)` on `$bytes` from a slice, from an `io::Read` that hands out
/// everything at once, and from one that hands out a byte a call.
macro_rules! on_every_input {
    ($bytes:expr, $options:expr, $check:ident) => {{
        let bytes: &[u8] = $bytes;
        let options: ReaderOptions = $options;
        $check(
            MsgPackReader::from_slice(bytes).with_options(options),
            "slice",
        );
        $check(
            MsgPackReader::from_read(bytes).with_options(options),
            "io::Read",
        );
        $check(
            MsgPackReader::from_read(Trickle::one_byte(bytes)).with_options(options),
            "io::Read, a byte a call",
        );
    }};
}

// ----- errors in the input are final ---------------------------------------------------------

#[test]
fn a_reserved_byte_is_final() {
    fn check<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        // [1, <0xc1>, 2]
        reader.read_array_root().unwrap();
        assert_eq!(reader.read_u8().unwrap(), 1);
        let first = reader.peek().unwrap_err();
        assert_eq!(
            failure(&first),
            (codes::RESERVED_BYTE, Some(Span::new(2, 3))),
            "{how}"
        );
        assert_final(&mut reader, &first, how);
    }
    on_every_input!(&[0x93, 0x01, 0xc1, 0x02], ReaderOptions::default(), check);
}

#[test]
fn a_header_cut_by_the_end_is_final() {
    fn check<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        // [<uint 16 with one byte of two>]
        reader.read_array_root().unwrap();
        let first = reader.read_u16().unwrap_err();
        assert_eq!(
            failure(&first),
            (codes::TRUNCATED, Some(Span::new(1, 3))),
            "{how}"
        );
        assert_final(&mut reader, &first, how);
    }
    on_every_input!(&[0x91, 0xcd, 0x01], ReaderOptions::default(), check);
}

#[test]
fn a_str_cut_by_the_end_is_final_although_its_header_peeked_well() {
    fn check<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        // ["ab<3 bytes missing>"]
        reader.read_array_root().unwrap();
        assert_eq!(reader.peek().unwrap(), Entry::String, "{how}");
        let first = reader.read_str().unwrap_err();
        assert_eq!(
            failure(&first),
            (codes::TRUNCATED, Some(Span::new(1, 4))),
            "{how}"
        );
        assert_final(&mut reader, &first, how);
    }
    on_every_input!(&[0x91, 0xa5, b'a', b'b'], ReaderOptions::default(), check);
}

#[test]
fn a_str_that_is_not_utf8_is_final_and_what_follows_it_is_not_handed_out() {
    fn check<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        // ["<ff fe>", 5]
        reader.read_array_root().unwrap();
        let first = reader.read_str().unwrap_err();
        assert_eq!(
            failure(&first),
            (codes::INVALID_UTF8, Some(Span::new(2, 3))),
            "{how}"
        );
        assert_final(&mut reader, &first, how);
    }
    on_every_input!(
        &[0x92, 0xa2, 0xff, 0xfe, 0x05],
        ReaderOptions::default(),
        check
    );
    // As a key, and through the borrowing read of a slice.
    fn key<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        reader.read_map_root().unwrap();
        let first = reader.read_name().unwrap_err();
        assert_eq!(
            failure(&first),
            (codes::INVALID_UTF8, Some(Span::new(2, 3))),
            "{how}"
        );
        assert_final(&mut reader, &first, how);
    }
    on_every_input!(&[0x81, 0xa1, 0xff, 0x05], ReaderOptions::default(), key);
    let bytes = [0x92, 0xa1, 0xff, 0xa1, b'x'];
    let mut reader = MsgPackReader::from_slice(&bytes);
    reader.read_array_root().unwrap();
    let first = reader.read_str_borrowed().unwrap_err();
    assert_eq!(
        failure(&first),
        (codes::INVALID_UTF8, Some(Span::new(2, 3)))
    );
    let again = reader.read_str_borrowed().unwrap_err();
    assert_eq!(failure(&again), failure(&first));
    assert_final(&mut reader, &first, "read_str_borrowed");
}

#[test]
fn nesting_beyond_the_depth_limit_is_final_and_cannot_be_skipped_past() {
    fn check<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        // [[5], 6] with at most one container open
        reader.read_array_root().unwrap();
        assert_eq!(reader.peek().unwrap(), Entry::ArrayRoot);
        let first = reader.read_array_root().unwrap_err();
        assert_eq!(
            failure(&first),
            (core::DEPTH_EXCEEDED, Some(Span::new(1, 2))),
            "{how}"
        );
        assert_final(&mut reader, &first, how);
        // The depth where it stopped.
        assert_eq!(reader.depth(), 1, "{how}");
    }
    on_every_input!(&[0x92, 0x91, 0x05, 0x06], max_depth(1), check);
}

#[test]
fn a_length_beyond_the_slice_is_final_for_reads_and_skip() {
    // [<array 16 claiming 65,535 items with 1 byte behind it>, 1]
    let bytes = [0x92, 0xdc, 0xff, 0xff, 0xc0, 0x01];
    let mut reader = MsgPackReader::from_slice(&bytes);
    reader.read_array_root().unwrap();
    let first = reader.read_array_root().unwrap_err();
    assert_eq!(
        failure(&first),
        (codes::LENGTH_EXCEEDS_INPUT, Some(Span::new(1, 4)))
    );
    assert_final(&mut reader, &first, "read_array_root");

    // skip finds it after the header: no token from inside the claimed array comes after.
    let mut reader = MsgPackReader::from_slice(&bytes);
    reader.read_array_root().unwrap();
    let first = reader.skip().unwrap_err();
    assert_eq!(
        failure(&first),
        (codes::LENGTH_EXCEEDS_INPUT, Some(Span::new(1, 4)))
    );
    assert_final(&mut reader, &first, "skip");
}

#[test]
fn a_value_cut_inside_a_skip_is_final_and_no_token_from_inside_it_comes_after() {
    fn check<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        // [[1, 2, 3, <cut>, ...15 items claimed]]
        reader.read_array_root().unwrap();
        // A stream reads on: the header of the fourth item is cut.
        let first = reader.skip().unwrap_err();
        assert_eq!(
            failure(&first),
            (codes::TRUNCATED, Some(Span::at(5))),
            "{how}"
        );
        assert_final(&mut reader, &first, how);
    }
    let bytes = [0x91, 0x9f, 0x01, 0x02, 0x03];
    // A slice knows the length is a lie at the header.
    let mut reader = MsgPackReader::from_slice(&bytes);
    reader.read_array_root().unwrap();
    let first = reader.skip().unwrap_err();
    assert_eq!(
        failure(&first),
        (codes::LENGTH_EXCEEDS_INPUT, Some(Span::new(1, 2)))
    );
    assert_final(&mut reader, &first, "slice");
    check(MsgPackReader::from_read(&bytes[..]), "io::Read");
    check(
        MsgPackReader::from_read(Trickle::one_byte(&bytes)),
        "io::Read, a byte a call",
    );
    // A bin cut inside its payload, skipped.
    fn bin<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        reader.read_array_root().unwrap();
        let first = reader.skip().unwrap_err();
        assert_eq!(
            failure(&first),
            (codes::TRUNCATED, Some(Span::new(1, 6))),
            "{how}"
        );
        assert_final(&mut reader, &first, how);
    }
    on_every_input!(
        &[0x92, 0xc4, 0x10, 0x01, 0x02, 0x03],
        ReaderOptions::default(),
        bin
    );
}

#[test]
fn an_empty_input_for_one_value_is_final() {
    fn check<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        let first = reader.peek().unwrap_err();
        assert_eq!(
            failure(&first),
            (codes::TRUNCATED, Some(Span::at(0))),
            "{how}"
        );
        assert_final(&mut reader, &first, how);
    }
    on_every_input!(&[], one_value(), check);
}

#[test]
fn bytes_after_the_one_value_are_final() {
    fn check<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        reader.read_null().unwrap();
        let first = reader.peek().unwrap_err();
        assert_eq!(first.code(), codes::TRAILING_DATA, "{how}");
        assert_final(&mut reader, &first, how);
    }
    on_every_input!(&[0xc0, 0xc3, 0xc2], one_value(), check);
}

#[test]
fn a_cut_anywhere_is_final() {
    // Every prefix of a document with every kind of value: the first error, whatever reads
    // met it, is what every later call reports.
    let document = common::write_tokens(&sample_tokens(Features::MSGPACK)).unwrap();
    for cut in 0..document.len() {
        let prefix = &document[..cut];
        for options in [ReaderOptions::default(), one_value()] {
            let mut reader = MsgPackReader::from_slice(prefix).with_options(options);
            if let Err(first) = Token::read_all(&mut reader) {
                assert_final(&mut reader, &first, &format!("slice cut at {cut}"));
            }
            let mut reader =
                MsgPackReader::from_read(Trickle::one_byte(prefix)).with_options(options);
            if let Err(first) = Token::read_all(&mut reader) {
                assert_final(&mut reader, &first, &format!("stream cut at {cut}"));
            }
            let mut reader = MsgPackReader::from_slice(prefix).with_options(options);
            // (`skip` on an empty stream is a skip past its end: the caller's error.)
            if let Err(first) = reader.skip()
                && first.code() != core::UNEXPECTED_ENTRY
            {
                assert_final(
                    &mut reader,
                    &first,
                    &format!("skip of a slice cut at {cut}"),
                );
            }
            let mut reader =
                MsgPackReader::from_read(Trickle::one_byte(prefix)).with_options(options);
            // (`skip` on an empty stream is a skip past its end: the caller's error.)
            if let Err(first) = reader.skip()
                && first.code() != core::UNEXPECTED_ENTRY
            {
                assert_final(
                    &mut reader,
                    &first,
                    &format!("skip of a stream cut at {cut}"),
                );
            }
        }
    }
}

// ----- I/O errors are final, and the source is not read again --------------------------------

#[test]
fn an_io_error_is_final_and_the_source_is_not_read_again() {
    // [1, "abc", 2]: the stream breaks after `before` bytes, and would go on after that.
    let bytes = [0x93, 0x01, 0xa3, b'a', b'b', b'c', 0x02];
    for step in [Step::Broken, Step::WouldBlock] {
        for before in 0..bytes.len() {
            let stream = Scripted::failing_after(&bytes, before, step);
            let calls = Rc::clone(&stream.calls);
            let mut reader = MsgPackReader::from_read(stream);
            let first = Token::read_all(&mut reader).unwrap_err();
            let what = format!("{step:?} after {before} bytes");
            assert_eq!(first.code(), core::IO, "{what}");
            // An empty span where the stream broke: every byte before it arrived.
            assert_eq!(first.span(), Some(Span::at(before)), "{what}");
            let after_error = calls.get();
            assert_final(&mut reader, &first, &what);
            assert_eq!(
                calls.get(),
                after_error,
                "{what}: the source was read again"
            );
        }
    }
}

#[test]
fn an_io_error_inside_a_skip_is_final_and_no_token_from_inside_the_value_comes_after() {
    // [<bin of 32 bytes 0x01>, 7]: the bin's first bytes arrive, then the stream breaks
    // inside its payload, and would go on with the rest.
    let mut bytes = vec![0x92, 0xc4, 0x20];
    bytes.extend([0x01; 32]);
    bytes.push(0x07);
    let stream = Scripted::new(&bytes, [Step::Data(9), Step::Data(2), Step::Broken]);
    let calls = Rc::clone(&stream.calls);
    let mut reader = MsgPackReader::from_read(stream);
    assert_eq!(reader.read_array_root().unwrap(), Some(2));
    let first = reader.skip().unwrap_err();
    assert_eq!(failure(&first), (core::IO, Some(Span::at(11))));
    let after_error = calls.get();
    assert_final(&mut reader, &first, "skip");
    assert_eq!(calls.get(), after_error);
}

#[test]
fn an_io_error_while_a_payload_loads_is_final() {
    // [<str 8 of 40 bytes>] broken after 20 bytes, inside the str.
    let mut bytes = vec![0x91, 0xd9, 40];
    bytes.extend([b'a'; 40]);
    for read in ["read_str", "read_name", "skip"] {
        let stream = Scripted::new(&bytes, [Step::Data(20), Step::Broken]);
        let calls = Rc::clone(&stream.calls);
        let mut reader = MsgPackReader::from_read(stream);
        reader.read_array_root().unwrap();
        assert_eq!(reader.peek().unwrap(), Entry::String, "{read}");
        let first = call(&mut reader, read).unwrap_err();
        assert_eq!(failure(&first), (core::IO, Some(Span::at(20))), "{read}");
        let after_error = calls.get();
        assert_final(&mut reader, &first, read);
        assert_eq!(calls.get(), after_error, "{read}");
    }
}

#[test]
fn an_io_error_in_finish_is_final() {
    // A uint 64 (9 bytes, a header asked for whole), then the stream breaks where the next
    // value would start.
    let bytes = common::hex("cf 0000000000000007 c0");
    let stream = Scripted::new(&bytes, [Step::Data(9), Step::Broken]);
    let calls = Rc::clone(&stream.calls);
    let mut reader = MsgPackReader::from_read(stream);
    assert_eq!(reader.read_u64().unwrap(), 7);
    let first = reader.finish().unwrap_err();
    assert_eq!(failure(&first), (core::IO, Some(Span::at(9))));
    let after_error = calls.get();
    assert_final(&mut reader, &first, "finish");
    assert_eq!(calls.get(), after_error);
}

#[test]
fn an_interrupted_read_is_retried_and_is_no_error() {
    let bytes = [0x92, 0x01, 0xa1, b'x'];
    let steps = [
        Step::Interrupted,
        Step::Data(1),
        Step::Interrupted,
        Step::Data(2),
        Step::Interrupted,
    ];
    let mut reader = MsgPackReader::from_read(Scripted::new(&bytes, steps));
    let tokens = Token::read_all(&mut reader).unwrap();
    assert_eq!(tokens, common::read_tokens(&bytes).unwrap());
    reader.finish().unwrap();
}

#[test]
fn an_io_error_anywhere_leaves_only_tokens_the_slice_has_and_is_final() {
    let document = common::write_tokens(&sample_tokens(Features::MSGPACK)).unwrap();
    let expected = common::read_tokens(&document).unwrap();
    for cut in 0..=document.len() {
        for step in [Step::Broken, Step::WouldBlock] {
            // Through a peek loop, then through `skip`.
            let stream = Scripted::failing_after(&document, cut, step);
            let calls = Rc::clone(&stream.calls);
            let mut reader = MsgPackReader::from_read(stream);
            let mut tokens = Vec::new();
            let what = format!("{step:?} after {cut} bytes");
            let error = loop {
                match reader.peek() {
                    Ok(Entry::Ended) => break None,
                    Ok(entry) => match Token::read(&mut reader, entry) {
                        Ok(token) => tokens.push(token),
                        Err(err) => break Some(err),
                    },
                    Err(err) => break Some(err),
                }
            };
            assert_eq!(tokens[..], expected[..tokens.len()], "{what}");
            match error {
                Some(first) => {
                    assert_eq!(first.code(), core::IO, "{what}");
                    let after_error = calls.get();
                    assert_final(&mut reader, &first, &what);
                    assert_eq!(calls.get(), after_error, "{what}");
                }
                None => assert_eq!(tokens, expected, "{what}"),
            }

            let stream = Scripted::failing_after(&document, cut, step);
            let calls = Rc::clone(&stream.calls);
            let mut reader = MsgPackReader::from_read(stream);
            let error = loop {
                match reader.peek() {
                    Ok(Entry::Ended) => break None,
                    Ok(_) => {
                        if let Err(err) = reader.skip() {
                            break Some(err);
                        }
                    }
                    Err(err) => break Some(err),
                }
            };
            if let Some(first) = error {
                assert_eq!(first.code(), core::IO, "skip: {what}");
                let after_error = calls.get();
                assert_final(&mut reader, &first, &what);
                assert_eq!(calls.get(), after_error, "skip: {what}");
            }
        }
    }
}

// ----- errors of the caller's request leave the value unread ---------------------------------

#[test]
fn a_number_out_of_range_stays_unread_for_another_read() {
    fn check<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        // [300, -1, 1.5, 1e300, 7]
        reader.read_array_root().unwrap();
        let err = reader.read_u8().unwrap_err();
        assert_eq!(
            failure(&err),
            (core::NUMBER_OUT_OF_RANGE, Some(Span::new(1, 4))),
            "{how}"
        );
        assert_eq!(reader.span(), Span::new(1, 4), "{how}");
        assert_eq!(reader.peek().unwrap(), Entry::U16, "{how}");
        assert_eq!(
            reader.read_i8().unwrap_err().code(),
            core::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(reader.read_u16().unwrap(), 300, "{how}");

        let err = reader.read_u64().unwrap_err();
        assert_eq!(
            failure(&err),
            (core::NUMBER_OUT_OF_RANGE, Some(Span::new(4, 5))),
            "{how}"
        );
        assert_eq!(
            reader.read_u128().unwrap_err().code(),
            core::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(reader.read_i8().unwrap(), -1, "{how}");

        let err = reader.read_i64().unwrap_err();
        assert_eq!(
            failure(&err),
            (core::NUMBER_NOT_INTEGER, Some(Span::new(5, 14))),
            "{how}"
        );
        assert_eq!(
            reader.read_u32().unwrap_err().code(),
            core::NUMBER_NOT_INTEGER
        );
        assert_eq!(reader.read_f64().unwrap(), 1.5, "{how}");

        let err = reader.read_f32().unwrap_err();
        assert_eq!(
            failure(&err),
            (core::NUMBER_OUT_OF_RANGE, Some(Span::new(14, 23))),
            "{how}"
        );
        // skip takes it as well.
        reader.skip().unwrap();
        assert_eq!(reader.read_i128().unwrap(), 7, "{how}");
        reader.read_array_end().unwrap();
        reader.finish().unwrap();
    }
    let bytes = common::hex("95 cd012c ff cb3ff8000000000000 cb7e37e43c8800759c 07");
    on_every_input!(&bytes, ReaderOptions::default(), check);
}

#[test]
fn a_read_of_the_wrong_kind_leaves_the_value_unread() {
    fn check<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        // {"k": "v"}, then nothing
        let err = reader.read_array_root().unwrap_err();
        assert_eq!(
            failure(&err),
            (core::UNEXPECTED_ENTRY, Some(Span::new(0, 1))),
            "{how}"
        );
        assert_eq!(reader.read_map_root().unwrap(), Some(1), "{how}");
        for name in [
            "read_u8",
            "read_null",
            "read_blob",
            "read_ext",
            "read_timestamp",
        ] {
            let err = call(&mut reader, name).unwrap_err();
            assert_eq!(
                failure(&err),
                (core::UNEXPECTED_ENTRY, Some(Span::new(1, 2))),
                "{how}: {name}"
            );
            assert_eq!(reader.span(), Span::new(1, 2), "{how}: {name}");
        }
        assert_eq!(reader.read_name().unwrap(), "k", "{how}");
        let err = reader.read_map_end().unwrap_err();
        assert_eq!(err.code(), core::UNEXPECTED_ENTRY, "{how}");
        assert_eq!(reader.read_str().unwrap(), "v", "{how}");
        // Past the end of the map: nothing is taken, the map still ends.
        let err = reader.skip().unwrap_err();
        assert_eq!(
            failure(&err),
            (core::UNEXPECTED_ENTRY, Some(Span::at(5))),
            "{how}"
        );
        assert_eq!(reader.read_u8().unwrap_err().code(), core::UNEXPECTED_ENTRY);
        reader.read_map_end().unwrap();
        let err = reader.read_null().unwrap_err();
        assert_eq!(
            failure(&err),
            (core::UNEXPECTED_ENTRY, Some(Span::at(5))),
            "{how}"
        );
        assert_eq!(reader.peek().unwrap(), Entry::Ended, "{how}");
        reader.finish().unwrap();
    }
    on_every_input!(
        &[0x81, 0xa1, b'k', 0xa1, b'v'],
        ReaderOptions::default(),
        check
    );
}

#[test]
fn a_read_of_a_kind_messagepack_never_has_leaves_the_value_unread() {
    fn check<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        for name in [
            "read_option_root",
            "read_set_end",
            "read_struct_root",
            "read_enum",
        ] {
            let err = call(&mut reader, name).unwrap_err();
            assert_eq!(err.code(), core::UNSUPPORTED, "{how}: {name}");
        }
        assert!(reader.read_bool().unwrap(), "{how}");
    }
    on_every_input!(&[0xc3], ReaderOptions::default(), check);
}

#[test]
fn an_ext_that_is_no_timestamp_stays_unread_for_read_ext() {
    fn check<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        // [<fixext 1, type 5>, <timestamp 32 with 3 bytes: fixext 4 of type -1 is 4 bytes>]
        reader.read_array_root().unwrap();
        let err = reader.read_timestamp().unwrap_err();
        assert_eq!(
            failure(&err),
            (codes::INVALID_TIMESTAMP, Some(Span::new(1, 4))),
            "{how}"
        );
        assert_eq!(reader.span(), Span::new(1, 4), "{how}");
        assert_eq!(reader.peek().unwrap(), Entry::Ext, "{how}");
        let ext = reader.read_ext().unwrap();
        assert_eq!((ext.kind, ext.data), (5, &[0x2a][..]), "{how}");
        // A timestamp of the wrong size: skip takes it.
        let err = reader.read_timestamp().unwrap_err();
        assert_eq!(
            failure(&err),
            (codes::INVALID_TIMESTAMP, Some(Span::new(4, 8))),
            "{how}"
        );
        reader.skip().unwrap();
        assert_eq!(
            reader.read_timestamp().unwrap(),
            Timestamp {
                seconds: 1,
                nanos: 0
            },
            "{how}"
        );
        reader.read_array_end().unwrap();
    }
    on_every_input!(
        &common::hex("93 d4052a c701ff00 d6ff00000001"),
        ReaderOptions::default(),
        check
    );
}

#[test]
fn finish_with_values_left_leaves_them_unread() {
    fn check<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        // [nil] true
        reader.read_array_root().unwrap();
        let err = reader.finish().unwrap_err();
        assert_eq!(
            failure(&err),
            (core::INVALID_STRUCTURE, Some(Span::at(1))),
            "{how}"
        );
        reader.read_null().unwrap();
        reader.read_array_end().unwrap();
        let err = reader.finish().unwrap_err();
        assert_eq!(err.code(), codes::TRAILING_DATA, "{how}");
        assert!(reader.read_bool().unwrap(), "{how}");
        reader.finish().unwrap();
    }
    on_every_input!(&[0x91, 0xc0, 0xc3], ReaderOptions::default(), check);
}

#[test]
fn an_input_error_after_caller_errors_is_still_final() {
    // [300, <0xc1>]: a refused read, then the reserved byte.
    fn check<I: Input>(mut reader: MsgPackReader<I>, how: &str) {
        reader.read_array_root().unwrap();
        assert_eq!(
            reader.read_u8().unwrap_err().code(),
            core::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(
            reader.read_str().unwrap_err().code(),
            core::UNEXPECTED_ENTRY
        );
        assert_eq!(reader.read_u16().unwrap(), 300, "{how}");
        let first = reader.read_u16().unwrap_err();
        assert_eq!(
            failure(&first),
            (codes::RESERVED_BYTE, Some(Span::new(4, 5))),
            "{how}"
        );
        assert_final(&mut reader, &first, how);
    }
    on_every_input!(
        &[0x92, 0xcd, 0x01, 0x2c, 0xc1],
        ReaderOptions::default(),
        check
    );
}
