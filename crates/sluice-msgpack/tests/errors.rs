//! Bad input and bad writes: every error has its code and span, nothing panics.

mod common;

use sluice_core::testing::{Features, sample_tokens};
use sluice_core::{
    Entry, NoopWriter, Number, NumberHint, Reader, Span, Token, Writer, codes as core, pipe,
};
use sluice_msgpack::{MsgPackReader, MsgPackWriter, ReaderOptions, codes};

fn single() -> ReaderOptions {
    ReaderOptions {
        multiple_values: false,
        ..ReaderOptions::default()
    }
}

fn read_all_slice(bytes: &[u8]) -> sluice_core::Result<Vec<Token>> {
    let mut reader = MsgPackReader::from_slice(bytes).with_options(single());
    Token::read_all(&mut reader)
}

fn read_all_stream(bytes: &[u8]) -> sluice_core::Result<Vec<Token>> {
    let mut reader = MsgPackReader::from_read(bytes).with_options(single());
    Token::read_all(&mut reader)
}

#[test]
fn truncation_at_every_byte_offset_is_an_error_never_a_panic() {
    let document = common::write_tokens(&sample_tokens(Features::MSGPACK)).unwrap();
    assert!(document.len() > 300);
    for cut in 0..document.len() {
        let prefix = &document[..cut];
        for (how, result) in [
            ("slice", read_all_slice(prefix)),
            ("stream", read_all_stream(prefix)),
        ] {
            let err = result.expect_err(&format!("{how} prefix of {cut} bytes was accepted"));
            assert!(
                [codes::TRUNCATED, codes::LENGTH_EXCEEDS_INPUT].contains(&err.code()),
                "{how} prefix of {cut}: {err:?}"
            );
            let span = err.span().expect("truncation errors have a span");
            assert!(
                span.end <= cut,
                "{how} prefix of {cut}: span {span} beyond input"
            );
        }
        // skip() agrees.
        let mut reader = MsgPackReader::from_slice(prefix).with_options(single());
        assert!(reader.skip().is_err(), "skip accepted a prefix of {cut}");
        let mut reader = MsgPackReader::from_read(prefix).with_options(single());
        assert!(
            reader.skip().is_err(),
            "stream skip accepted a prefix of {cut}"
        );
    }
    // And the whole document is fine both ways.
    assert_eq!(
        read_all_slice(&document).unwrap(),
        read_all_stream(&document).unwrap()
    );
}

#[test]
fn absurd_lengths_are_refused_without_allocating_them() {
    // A map32 claiming 4,294,967,295 entries in a 10-byte input.
    let bytes = [0xdf, 0xff, 0xff, 0xff, 0xff, 0x01, 0x02, 0x03, 0x04, 0x05];
    let mut reader = MsgPackReader::from_slice(&bytes);
    assert_eq!(reader.peek().unwrap(), Entry::MapRoot);
    let err = reader.read_map_root().unwrap_err();
    assert_eq!(err.code(), codes::LENGTH_EXCEEDS_INPUT);
    assert_eq!(err.span(), Some(Span::new(0, 5)));
    let err = MsgPackReader::from_slice(&bytes).skip().unwrap_err();
    assert_eq!(err.code(), codes::LENGTH_EXCEEDS_INPUT);
    // A stream cannot know the length up front: it reads on and finds the end.
    let err = read_all_stream(&bytes).unwrap_err();
    assert_eq!(err.code(), codes::TRUNCATED);
    assert_eq!(err.span(), Some(Span::at(10)));

    // A str32 / bin32 / ext32 claiming 4 GiB with one byte behind it.
    for marker in [0xdb, 0xc6] {
        let bytes = [marker, 0xff, 0xff, 0xff, 0xff, b'a'];
        for result in [read_all_slice(&bytes), read_all_stream(&bytes)] {
            let err = result.unwrap_err();
            assert_eq!(err.code(), codes::TRUNCATED);
            assert_eq!(err.span(), Some(Span::new(0, 6)));
        }
    }
    let bytes = [0xc9, 0xff, 0xff, 0xff, 0xff, 0x01, b'a'];
    let err = read_all_stream(&bytes).unwrap_err();
    assert_eq!(err.code(), codes::TRUNCATED);
    // An array16 of 65,535 nils with 3 present.
    let bytes = [0xdc, 0xff, 0xff, 0xc0, 0xc0, 0xc0];
    assert_eq!(
        read_all_slice(&bytes).unwrap_err().code(),
        codes::LENGTH_EXCEEDS_INPUT
    );
    assert_eq!(
        read_all_stream(&bytes).unwrap_err().span(),
        Some(Span::at(6))
    );
}

#[test]
fn the_reserved_byte_is_an_error_at_its_offset() {
    let bytes = [0x92, 0xc0, 0xc1];
    let mut reader = MsgPackReader::from_slice(&bytes);
    reader.read_array_root().unwrap();
    reader.read_null().unwrap();
    let err = reader.peek().unwrap_err();
    assert_eq!(err.code(), codes::RESERVED_BYTE);
    assert_eq!(err.span(), Some(Span::new(2, 3)));
    assert_eq!(
        read_all_stream(&bytes).unwrap_err().code(),
        codes::RESERVED_BYTE
    );
    assert_eq!(
        MsgPackReader::from_slice(&[0xc1])
            .skip()
            .unwrap_err()
            .code(),
        codes::RESERVED_BYTE
    );
}

#[test]
fn invalid_utf8_in_a_str_points_at_the_bad_bytes() {
    let bytes = [0xa4, b'a', 0xff, b'b', b'c'];
    for result in [read_all_slice(&bytes), read_all_stream(&bytes)] {
        let err = result.unwrap_err();
        assert_eq!(err.code(), codes::INVALID_UTF8);
        assert_eq!(err.span(), Some(Span::new(2, 3)));
    }
    // As a map key too.
    let bytes = [0x81, 0xa2, 0xc3, 0x28, 0xc0];
    let err = read_all_slice(&bytes).unwrap_err();
    assert_eq!(err.code(), codes::INVALID_UTF8);
    // 0xc3 starts a two-byte sequence that 0x28 does not continue.
    assert_eq!(err.span(), Some(Span::new(2, 3)));
}

#[test]
fn reading_past_the_end_of_an_array_or_ending_it_early_is_a_mismatch_at_the_offset() {
    // [1] then 2 at the top level.
    let bytes = [0x91, 0x01, 0x02];
    let mut reader = MsgPackReader::from_slice(&bytes);
    reader.read_array_root().unwrap();
    assert_eq!(reader.read_u8().unwrap(), 1);
    assert_eq!(reader.peek().unwrap(), Entry::ArrayEnd);
    let err = reader.read_u8().unwrap_err();
    assert_eq!(err.code(), core::UNEXPECTED_ENTRY);
    assert_eq!(err.span(), Some(Span::at(2)));
    // Nothing was consumed: the array still ends, then the next value comes.
    reader.read_array_end().unwrap();
    assert_eq!(reader.read_u8().unwrap(), 2);

    // [1, 2] closed after one element.
    let bytes = [0x92, 0x01, 0x02];
    let mut reader = MsgPackReader::from_slice(&bytes);
    reader.read_array_root().unwrap();
    reader.read_u8().unwrap();
    let err = reader.read_array_end().unwrap_err();
    assert_eq!(err.code(), core::UNEXPECTED_ENTRY);
    assert_eq!(err.span(), Some(Span::new(2, 3)));
    assert_eq!(reader.span(), Span::new(2, 3));
    // A map cannot be closed as an array, nor after a key.
    let bytes = [0x81, 0xa1, b'k', 0xc0];
    let mut reader = MsgPackReader::from_slice(&bytes);
    reader.read_map_root().unwrap();
    assert_eq!(
        reader.read_array_end().unwrap_err().code(),
        core::UNEXPECTED_ENTRY
    );
    assert_eq!(reader.read_name().unwrap(), "k");
    assert_eq!(
        reader.read_map_end().unwrap_err().span(),
        Some(Span::new(3, 4))
    );
}

#[test]
fn nesting_beyond_the_depth_limit_is_refused_without_recursion() {
    let mut bytes = vec![0x91; 100_000];
    bytes.push(0xc0);
    let mut reader = MsgPackReader::from_slice(&bytes);
    let err = pipe(&mut reader, &mut NoopWriter::new()).unwrap_err();
    assert_eq!(err.code(), core::DEPTH_EXCEEDED);
    assert_eq!(err.span(), Some(Span::new(128, 129)));
    // skip walks it without a stack.
    let mut reader = MsgPackReader::from_slice(&bytes);
    reader.skip().unwrap();
    assert_eq!(reader.peek().unwrap(), Entry::Ended);
    // The limit is an option; 128 levels are fine by default.
    let ok = [vec![0x91; 128], vec![0xc0]].concat();
    assert!(pipe(&mut MsgPackReader::from_slice(&ok), &mut NoopWriter::new()).is_ok());
    let options = ReaderOptions {
        max_depth: 3,
        ..ReaderOptions::default()
    };
    let err = pipe(
        &mut MsgPackReader::from_slice(&[0x91, 0x91, 0x91, 0x91, 0xc0]).with_options(options),
        &mut NoopWriter::new(),
    )
    .unwrap_err();
    assert_eq!(err.span(), Some(Span::new(3, 4)));
}

#[test]
fn numbers_convert_exactly_or_fail() {
    // 300 (uint16), -1 (negative fixint), 1.5 (float64), 7 (positive fixint), 1.0 (float32)
    let bytes = common::hex("cd012c ff cb3ff8000000000000 07 ca3f800000");
    let mut reader = MsgPackReader::from_slice(&bytes);
    assert_eq!(reader.peek().unwrap(), Entry::U16);
    let err = reader.read_u8().unwrap_err();
    assert_eq!(
        (err.code(), err.span()),
        (core::NUMBER_OUT_OF_RANGE, Some(Span::new(0, 3)))
    );
    // A number that does not convert stays unread.
    assert_eq!(reader.read_u16().unwrap(), 300);
    assert_eq!(reader.peek().unwrap(), Entry::I8);
    assert_eq!(
        reader.read_u64().unwrap_err().code(),
        core::NUMBER_OUT_OF_RANGE
    );
    assert_eq!(reader.read_i8().unwrap(), -1);
    assert_eq!(reader.peek().unwrap(), Entry::F64);
    let err = reader.read_i64().unwrap_err();
    assert_eq!(
        (err.code(), err.span()),
        (core::NUMBER_NOT_INTEGER, Some(Span::new(4, 13)))
    );
    assert_eq!(reader.read_f64().unwrap(), 1.5);
    assert_eq!(reader.peek().unwrap(), Entry::U8);
    assert_eq!(reader.read_i64().unwrap(), 7);
    assert_eq!(reader.peek().unwrap(), Entry::F32);
    assert_eq!(reader.read_i32().unwrap(), 1);
    // A mismatched kind is refused without consuming.
    let mut reader = MsgPackReader::from_slice(&[0xa1, b'x']);
    assert_eq!(
        reader.read_i64().unwrap_err().code(),
        core::UNEXPECTED_ENTRY
    );
    assert_eq!(reader.read_str().unwrap(), "x");
}

#[test]
fn one_value_mode_rejects_empty_input_and_trailing_bytes() {
    let err = read_all_slice(&[]).unwrap_err();
    assert_eq!(
        (err.code(), err.span()),
        (codes::TRUNCATED, Some(Span::at(0)))
    );
    let err = read_all_slice(&[0xc0, 0xc2, 0xc3]).unwrap_err();
    assert_eq!(
        (err.code(), err.span()),
        (codes::TRAILING_DATA, Some(Span::new(1, 3)))
    );
    // In stream mode (the default) both are fine, and finish() checks for leftovers.
    assert!(common::read_tokens(&[]).unwrap().is_empty());
    assert_eq!(common::read_tokens(&[0xc0, 0xc2, 0xc3]).unwrap().len(), 3);
    let mut reader = MsgPackReader::from_slice(&[0x91, 0xc0]);
    reader.read_array_root().unwrap();
    assert_eq!(reader.finish().unwrap_err().code(), core::INVALID_STRUCTURE);
    reader.read_null().unwrap();
    reader.read_array_end().unwrap();
    reader.finish().unwrap();
}

#[test]
fn writer_checks_declared_lengths_and_structure() {
    let mut writer = MsgPackWriter::new(Vec::new());
    writer.write_array_root(Some(2)).unwrap();
    writer.write_null().unwrap();
    writer.write_null().unwrap();
    assert_eq!(
        writer.write_null().unwrap_err().code(),
        codes::LENGTH_MISMATCH
    );

    let mut writer = MsgPackWriter::new(Vec::new());
    writer.write_map_root(Some(2)).unwrap();
    writer.write_name("a").unwrap();
    writer.write_null().unwrap();
    assert_eq!(
        writer.write_map_end().unwrap_err().code(),
        codes::LENGTH_MISMATCH
    );

    let mut writer = MsgPackWriter::new(Vec::new());
    writer.write_array_root(None).unwrap();
    assert_eq!(
        writer.write_name("k").unwrap_err().code(),
        core::INVALID_STRUCTURE
    );
    assert_eq!(
        writer.write_map_end().unwrap_err().code(),
        core::INVALID_STRUCTURE
    );
    assert_eq!(writer.finish().unwrap_err().code(), core::INVALID_STRUCTURE);

    let mut writer = MsgPackWriter::new(Vec::new());
    writer.write_map_root(None).unwrap();
    writer.write_name("k").unwrap();
    assert_eq!(
        writer.write_name("v").unwrap_err().code(),
        core::INVALID_STRUCTURE
    );
    assert_eq!(
        writer.write_map_end().unwrap_err().code(),
        core::INVALID_STRUCTURE
    );
    assert_eq!(
        writer.write_array_end().unwrap_err().code(),
        core::INVALID_STRUCTURE
    );
    assert_eq!(
        MsgPackWriter::new(Vec::new())
            .write_array_end()
            .unwrap_err()
            .code(),
        core::INVALID_STRUCTURE
    );
}

#[test]
fn writer_refuses_integers_beyond_64_bits_and_bad_floats() {
    let mut writer = MsgPackWriter::new(Vec::new());
    for text in [
        "18446744073709551616",
        "-9223372036854775809",
        "1".repeat(60).as_str(),
    ] {
        let hint = if text.starts_with('-') {
            NumberHint::NegInteger
        } else {
            NumberHint::Integer
        };
        let err = writer.write_number(Number::Text(text, hint)).unwrap_err();
        assert_eq!(err.code(), codes::INTEGER_TOO_LARGE, "{text}");
    }
    assert_eq!(
        writer.write_u128(u128::MAX).unwrap_err().code(),
        codes::INTEGER_TOO_LARGE
    );
    assert_eq!(
        writer.write_i128(i128::MIN).unwrap_err().code(),
        codes::INTEGER_TOO_LARGE
    );
    let err = writer
        .write_number(Number::Text("1e400", NumberHint::Float))
        .unwrap_err();
    assert_eq!(err.code(), core::NUMBER_OUT_OF_RANGE);
    // Nothing was written by the refused numbers.
    writer.write_i128(-1).unwrap();
    assert_eq!(writer.into_inner().unwrap(), [0xff]);
}
