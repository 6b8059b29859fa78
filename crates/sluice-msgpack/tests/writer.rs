//! The writer picks the smallest encoding and learns lengths exactly as if it knew them.

mod common;

use std::io;

use sluice_core::{Ext, Number, NumberHint, OwnedNumber, Token, Writer};
use sluice_msgpack::{MsgPackWriter, WriterOptions};

fn one(write: impl FnOnce(&mut MsgPackWriter<Vec<u8>>) -> sluice_core::Result<()>) -> Vec<u8> {
    let mut writer = MsgPackWriter::new(Vec::new());
    write(&mut writer).unwrap();
    writer.into_inner().unwrap()
}

#[test]
fn integers_take_the_smallest_form_at_every_boundary() {
    let unsigned: [(u64, &str); 10] = [
        (0, "00"),
        (127, "7f"),
        (128, "cc80"),
        (255, "ccff"),
        (256, "cd0100"),
        (65_535, "cdffff"),
        (65_536, "ce00010000"),
        (u64::from(u32::MAX), "ceffffffff"),
        (u64::from(u32::MAX) + 1, "cf0000000100000000"),
        (u64::MAX, "cfffffffffffffffff"),
    ];
    for (value, expected) in unsigned {
        let expected = common::hex(expected);
        assert_eq!(one(|w| w.write_u64(value)), expected, "{value}");
        // A non-negative i64, an i128, a u128 and integer text give the same bytes.
        if let Ok(signed) = i64::try_from(value) {
            assert_eq!(one(|w| w.write_i64(signed)), expected, "{value} as i64");
        }
        assert_eq!(one(|w| w.write_u128(u128::from(value))), expected);
        assert_eq!(one(|w| w.write_i128(i128::from(value))), expected);
        let text = value.to_string();
        assert_eq!(
            one(|w| w.write_number(Number::Text(&text, NumberHint::Integer))),
            expected
        );
    }
    let signed: [(i64, &str); 10] = [
        (-1, "ff"),
        (-32, "e0"),
        (-33, "d0df"),
        (-128, "d080"),
        (-129, "d1ff7f"),
        (-32_768, "d18000"),
        (-32_769, "d2ffff7fff"),
        (i64::from(i32::MIN), "d280000000"),
        (i64::from(i32::MIN) - 1, "d3ffffffff7fffffff"),
        (i64::MIN, "d38000000000000000"),
    ];
    for (value, expected) in signed {
        let expected = common::hex(expected);
        assert_eq!(one(|w| w.write_i64(value)), expected, "{value}");
        assert_eq!(one(|w| w.write_i128(i128::from(value))), expected);
        let text = value.to_string();
        assert_eq!(
            one(|w| w.write_number(Number::Text(&text, NumberHint::NegInteger))),
            expected
        );
    }
}

#[test]
fn floats_keep_their_width_and_bits() {
    assert_eq!(one(|w| w.write_f32(0.5)), common::hex("ca3f000000"));
    assert_eq!(one(|w| w.write_f64(0.5)), common::hex("cb3fe0000000000000"));
    assert_eq!(
        one(|w| w.write_f64(-0.0)),
        common::hex("cb8000000000000000")
    );
    assert_eq!(
        one(|w| w.write_number(Number::Text("1.0", NumberHint::Float))),
        common::hex("cb3ff0000000000000")
    );
    // JSON's `-0` has no integer form that keeps its sign: it is the float -0.0.
    assert_eq!(
        one(|w| w.write_number(Number::Text("-0", NumberHint::NegInteger))),
        common::hex("cb8000000000000000")
    );
    let nan = f64::from_bits(0x7ff8_0000_0000_0001);
    assert_eq!(one(|w| w.write_f64(nan)), common::hex("cb7ff8000000000001"));
    // compact_floats narrows only when the bits survive.
    let compact = |v: f64| {
        let mut w = MsgPackWriter::new(Vec::new()).with_options(WriterOptions {
            compact_floats: true,
        });
        w.write_f64(v).unwrap();
        w.into_inner().unwrap()
    };
    assert_eq!(compact(0.5), common::hex("ca3f000000"));
    assert_eq!(compact(f64::INFINITY), common::hex("ca7f800000"));
    assert_eq!(compact(0.1).len(), 9);
    assert_eq!(compact(nan).len(), 9);
}

#[test]
fn str_bin_ext_headers_are_the_smallest_at_every_length_boundary() {
    for (len, str_header, bin_header) in [
        (0usize, "a0", "c400"),
        (31, "bf", "c41f"),
        (32, "d920", "c420"),
        (255, "d9ff", "c4ff"),
        (256, "da0100", "c50100"),
        (65_535, "daffff", "c5ffff"),
        (65_536, "db00010000", "c600010000"),
    ] {
        let text = "x".repeat(len);
        let bytes = one(|w| w.write_str(&text));
        assert_eq!(
            bytes[..bytes.len() - len],
            common::hex(str_header),
            "str {len}"
        );
        let bytes = one(|w| w.write_blob(text.as_bytes()));
        assert_eq!(
            bytes[..bytes.len() - len],
            common::hex(bin_header),
            "bin {len}"
        );
    }
    for (len, header) in [
        (0usize, "c70007"),
        (1, "d407"),
        (2, "d507"),
        (3, "c70307"),
        (4, "d607"),
        (8, "d707"),
        (16, "d807"),
        (17, "c71107"),
        (256, "c8010007"),
        (65_536, "c90001000007"),
    ] {
        let data = vec![0xab; len];
        let bytes = one(|w| {
            w.write_ext(Ext {
                kind: 7,
                data: &data,
            })
        });
        assert_eq!(bytes[..bytes.len() - len], common::hex(header), "ext {len}");
    }
}

/// Writes an array of `n` nulls, with or without declaring the length.
fn nulls(writer: &mut impl Writer, n: usize, declare: bool) {
    writer.write_array_root(declare.then_some(n)).unwrap();
    for _ in 0..n {
        writer.write_null().unwrap();
    }
    writer.write_array_end().unwrap();
}

#[test]
fn learned_lengths_give_the_same_bytes_as_declared_lengths() {
    for n in [0, 15, 16, 65_535, 65_536, 100_000] {
        let declared = one(|w| {
            nulls(w, n, true);
            Ok(())
        });
        let learned = one(|w| {
            nulls(w, n, false);
            Ok(())
        });
        assert_eq!(learned, declared, "array of {n}");
    }
    // Nested containers of unknown length, maps with non-str keys, several top-level values.
    let tokens = |declare: bool| {
        let len = |n| declare.then_some(n);
        vec![
            Token::MapRoot(len(2)),
            Token::Name("a".into()),
            Token::ArrayRoot(len(2)),
            Token::MapRoot(len(0)),
            Token::MapEnd,
            Token::ArrayRoot(len(1)),
            Token::Number(OwnedNumber::I64(-5)),
            Token::ArrayEnd,
            Token::ArrayEnd,
            Token::Number(OwnedNumber::U64(1)),
            Token::Blob(vec![1]),
            Token::MapEnd,
            Token::ArrayRoot(len(0)),
            Token::ArrayEnd,
            Token::Null,
        ]
    };
    let declared = common::write_tokens(&tokens(true)).unwrap();
    assert_eq!(common::write_tokens(&tokens(false)).unwrap(), declared);
    assert_eq!(declared, common::hex("82 a161 92 80 91 fb 01 c40101 90 c0"));
}

/// A sink that takes at most 7 bytes per write and counts the calls.
struct Dribble {
    out: Vec<u8>,
    writes: usize,
}

impl io::Write for Dribble {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = buf.len().min(7);
        self.out.extend_from_slice(&buf[..n]);
        self.writes += 1;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn an_io_sink_receives_the_same_bytes_and_is_fed_while_writing() {
    let mut vec_writer = MsgPackWriter::new(Vec::new());
    let mut io_writer = MsgPackWriter::new(Dribble {
        out: Vec::new(),
        writes: 0,
    });
    // Many top-level values (flushed as they complete), then one huge unknown-length array.
    for i in 0..40_000u64 {
        vec_writer.write_u64(i).unwrap();
        io_writer.write_u64(i).unwrap();
    }
    assert!(
        io_writer.get_ref().writes > 0,
        "complete values are flushed early"
    );
    nulls(&mut vec_writer, 200_000, false);
    nulls(&mut io_writer, 200_000, false);
    let expected = vec_writer.into_inner().unwrap();
    assert_eq!(io_writer.into_inner().unwrap().out, expected);
}

/// A sink that takes at most `chunk` bytes a call and fails its `fail_at`-th call.
struct FailingSink {
    data: Vec<u8>,
    chunk: usize,
    calls: usize,
    fail_at: usize,
}

impl io::Write for FailingSink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls == self.fail_at {
            return Err(io::Error::other("disk full"));
        }
        let n = bytes.len().min(self.chunk);
        self.data.extend_from_slice(&bytes[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_sink_error_after_a_partial_write_does_not_repeat_the_accepted_bytes() {
    // Containers of unknown length reserve their headers and leave unused bytes out of the
    // output: a failure inside any of the pieces sent around them must resume exactly.
    let write = |writer: &mut dyn Writer| -> sluice_core::Result<()> {
        writer.write_array_root(None)?;
        for i in 0..60 {
            writer.write_str(&format!("item {i}"))?;
            writer.write_map_root(None)?;
            writer.write_name("k")?;
            writer.write_i64(-300 * i)?;
            writer.write_map_end()?;
        }
        writer.write_array_end()
    };
    let mut expected = MsgPackWriter::new(Vec::new());
    write(&mut expected).unwrap();
    let expected = expected.into_inner().unwrap();
    for chunk in [1, 7, 40] {
        for fail_at in 1..=6 {
            let sink = FailingSink {
                data: Vec::new(),
                chunk,
                calls: 0,
                fail_at,
            };
            let mut writer = MsgPackWriter::new(sink);
            write(&mut writer).unwrap();
            let Err(err) = writer.finish() else {
                panic!("{chunk} {fail_at}: the sink fails once");
            };
            assert_eq!(err.code(), sluice_core::codes::IO, "{chunk} {fail_at}");
            // The retry sends what the sink did not take, once.
            let sink = writer.into_inner().unwrap();
            assert_eq!(
                sink.data, expected,
                "{chunk}-byte writes, call {fail_at} fails"
            );
        }
    }
}
