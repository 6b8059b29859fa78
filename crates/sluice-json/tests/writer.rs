//! The writer: layout, numbers, escaping, structure checks, conversions, round trips.

mod common;

use common::StingySink;
use sluice_core::testing::{Features, normalize, read_checked, sample_tokens};
use sluice_core::{Ext, Number, NumberHint, Reader, Token, Writer, codes as core_codes, pipe};
use sluice_json::{
    BlobMode, ExtMode, JsonOptions, JsonReader, JsonWriter, NdjsonWriter, NonFinite, WriterOptions,
    codes,
};

fn write(tokens: &[Token], options: WriterOptions) -> sluice_core::Result<String> {
    let mut writer = JsonWriter::new(Vec::new(), options);
    Token::write_all(tokens, &mut writer)?;
    writer.into_string()
}

fn condensed(tokens: &[Token]) -> String {
    write(tokens, WriterOptions::condensed()).expect("writes")
}

fn num(number: Number<'_>) -> Token {
    Token::Number(number.to_owned_number())
}

#[test]
fn nativejson_roundtrip_files_come_back_byte_identical() {
    let Some(dir) = sluice_core::testing::corpus_file("roundtrip") else {
        return;
    };
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let mut reader = JsonReader::from_slice(&bytes);
        let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
        pipe(&mut reader, &mut writer).unwrap();
        reader.finish().unwrap();
        let out = writer.into_inner().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&bytes),
            "{}",
            path.display()
        );
        count += 1;
    }
    assert_eq!(count, 27);
}

#[test]
fn the_core_sample_stream_survives_write_then_read_in_every_layout() {
    let tokens = sample_tokens(Features::JSON);
    for options in [
        WriterOptions::condensed(),
        WriterOptions::pretty(),
        WriterOptions {
            escape_non_ascii: true,
            nested_on_new_line: true,
            indent: "\t".into(),
            newline: "\r\n".into(),
            ..WriterOptions::pretty()
        },
    ] {
        let text = write(&tokens, options.clone()).unwrap();
        if options.escape_non_ascii {
            assert!(text.is_ascii(), "{text}");
        }
        let back = read_checked(&mut JsonReader::from_str(&text)).unwrap();
        assert_eq!(normalize(&back), normalize(&tokens), "{options:?}\n{text}");
    }
}

#[test]
fn floats_are_shortest_round_trip_for_both_widths() {
    let tokens = [
        Token::ArrayRoot(None),
        num(Number::F32(1.1)),
        num(Number::F64(1.1)),
        num(Number::F64(0.1)),
        num(Number::F64(1e300)),
        num(Number::F64(-0.0)),
        num(Number::F64(5e-324)),
        num(Number::F32(f32::MAX)),
        num(Number::F64(2.5)),
        Token::ArrayEnd,
    ];
    let text = condensed(&tokens);
    let mut reader = JsonReader::from_str(&text);
    reader.read_array_root().unwrap();
    assert_eq!(
        reader.read_number().unwrap().as_text(),
        Some("1.1"),
        "{text}"
    );
    assert_eq!(reader.read_number().unwrap().as_text(), Some("1.1"));
    assert_eq!(reader.read_number().unwrap().as_text(), Some("0.1"));
    assert_eq!(reader.read_f64().unwrap(), 1e300);
    assert_eq!(reader.read_f64().unwrap().to_bits(), (-0.0f64).to_bits());
    assert_eq!(reader.read_f64().unwrap(), 5e-324);
    assert_eq!(reader.read_f32().unwrap(), f32::MAX);
    assert_eq!(reader.read_number().unwrap().as_text(), Some("2.5"));
}

#[test]
fn floats_use_plain_digits_or_a_short_exponent() {
    let cases: [(f64, &str); 9] = [
        (1.0, "1.0"),
        (-3.0, "-3.0"),
        (1e16, "1e+16"),
        (1e-7, "1e-7"),
        (123_456.789, "123456.789"),
        (1e300, "1e+300"),
        (5e-324, "5e-324"),
        (f64::MAX, "1.7976931348623157e+308"),
        (-0.0, "-0.0"),
    ];
    for (value, expected) in cases {
        let text = condensed(&[num(Number::F64(value))]);
        assert_eq!(text, expected);
        let back = JsonReader::from_str(&text).read_f64().unwrap();
        assert_eq!(back.to_bits(), value.to_bits(), "{text}");
    }
    assert_eq!(condensed(&[num(Number::F32(0.3))]), "0.3");
    assert_eq!(condensed(&[num(Number::F32(f32::MAX))]), "3.4028235e+38");
}

#[test]
fn a_string_writer_hands_over_everything_written_flushed_or_not() {
    let mut writer = JsonWriter::for_string(WriterOptions::condensed());
    writer.write_array_root(None).unwrap();
    let long = "ä\"\u{1F600}x".repeat(10_000);
    writer.write_str(&long).unwrap();
    writer.flush().unwrap();
    writer.write_str("tail").unwrap();
    writer.write_array_end().unwrap();
    let text = writer.into_string().unwrap();
    let mut reader = JsonReader::from_str(&text);
    reader.read_array_root().unwrap();
    assert_eq!(reader.read_str().unwrap(), long);
    assert_eq!(reader.read_str().unwrap(), "tail");
    reader.read_array_end().unwrap();
    reader.finish().unwrap();
}

#[test]
fn a_vector_sink_that_held_bytes_before_is_still_checked() {
    let mut writer = JsonWriter::new(vec![0xff], WriterOptions::condensed());
    writer.write_u64(1).unwrap();
    assert_eq!(writer.into_string().unwrap_err().code(), core_codes::CUSTOM);
    let mut writer = JsonWriter::new(b"[".to_vec(), WriterOptions::condensed());
    writer.write_u64(1).unwrap();
    assert_eq!(writer.into_string().unwrap(), "[1");
}

#[test]
fn a_string_writer_whose_sink_was_changed_checks_the_output_is_utf8() {
    // Bytes put in the sink through `get_mut` are not the writer's own: handed over
    // unchecked, they made a `String` that is not UTF-8.
    let mut writer = JsonWriter::for_string(WriterOptions::condensed());
    writer.get_mut().push(0xff);
    writer.write_u64(1).unwrap();
    assert_eq!(writer.into_string().unwrap_err().code(), core_codes::CUSTOM);
    // Changed to UTF-8, the sink's bytes come first, as with any vector sink.
    let mut writer = JsonWriter::for_string(WriterOptions::condensed());
    writer.get_mut().extend_from_slice("é[".as_bytes());
    writer.write_u64(1).unwrap();
    assert_eq!(writer.into_string().unwrap(), "é[1");
}

#[test]
fn integers_are_exact_up_to_128_bits() {
    let tokens = [
        Token::ArrayRoot(None),
        num(Number::I64(i64::MIN)),
        num(Number::U64(u64::MAX)),
        num(Number::I128(i128::MIN)),
        num(Number::U128(u128::MAX)),
        Token::ArrayEnd,
    ];
    assert_eq!(
        condensed(&tokens),
        "[-9223372036854775808,18446744073709551615,\
         -170141183460469231731687303715884105728,340282366920938463463374607431768211455]"
    );
}

#[test]
fn integers_of_every_length_are_written_exactly_in_every_position() {
    // Every digit count of each width, both signs, as items in one output that grows as it
    // goes (so at every offset of its buffer), as keys and at the root.
    let mut values: Vec<i128> = vec![0, i128::MIN, i128::MAX];
    let mut power: i128 = 1;
    for _ in 0..38 {
        values.extend([power, power - 1, -power, -(power - 1), power * 7 + 3]);
        power *= 10;
    }
    values.extend([
        i128::from(i64::MIN),
        i128::from(i64::MAX),
        i128::from(u64::MAX),
    ]);
    let mut tokens = vec![Token::ArrayRoot(None)];
    let mut expected = Vec::new();
    for &value in &values {
        if let Ok(small) = i64::try_from(value) {
            tokens.push(num(Number::I64(small)));
            expected.push(small.to_string());
        }
        if let Ok(small) = u64::try_from(value) {
            tokens.push(num(Number::U64(small)));
            expected.push(small.to_string());
        }
        tokens.push(num(Number::I128(value)));
        expected.push(value.to_string());
        if let Ok(unsigned) = u128::try_from(value) {
            tokens.push(num(Number::U128(unsigned)));
            expected.push(unsigned.to_string());
        }
    }
    tokens.push(Token::MapRoot(None));
    for (i, &value) in values.iter().enumerate() {
        tokens.push(num(Number::I128(value)));
        tokens.push(num(Number::U64(i as u64)));
    }
    tokens.push(Token::MapEnd);
    tokens.push(Token::ArrayEnd);
    let members: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, value)| format!("\"{value}\":{i}"))
        .collect();
    assert_eq!(
        condensed(&tokens),
        format!("[{},{{{}}}]", expected.join(","), members.join(","))
    );
    for value in [i64::MIN, -1, 0, 9, i64::MAX] {
        assert_eq!(condensed(&[num(Number::I64(value))]), value.to_string());
    }
}

#[test]
fn number_text_is_written_verbatim_and_checked() {
    let tokens = [
        Token::ArrayRoot(None),
        num(Number::Text("1.50000000000000000001", NumberHint::Float)),
        num(Number::Text("-0", NumberHint::NegInteger)),
        num(Number::Text(
            "123456789012345678901234567890",
            NumberHint::Integer,
        )),
        Token::ArrayEnd,
    ];
    assert_eq!(
        condensed(&tokens),
        "[1.50000000000000000001,-0,123456789012345678901234567890]"
    );
    let mut writer = JsonWriter::condensed(Vec::new());
    let err = writer
        .write_number(Number::Text("0x10", NumberHint::Integer))
        .unwrap_err();
    assert_eq!(err.code(), codes::INVALID_NUMBER_TEXT);
}

#[test]
fn every_control_character_is_escaped_and_reads_back() {
    let all: String = (0u8..0x20)
        .map(char::from)
        .chain("\"\\/é😀".chars())
        .collect();
    let text = condensed(&[Token::String(all.clone())]);
    assert!(text.bytes().all(|b| b >= 0x20), "{text:?}");
    assert!(text.starts_with(r#""\u0000\u0001"#), "{text}");
    assert!(text.contains(r#"\b\t\n\u000b\f\r"#), "{text}");
    let mut reader = JsonReader::from_str(&text);
    assert_eq!(reader.read_str().unwrap(), all);

    let ascii = write(
        &[Token::String("é😀".into())],
        WriterOptions {
            escape_non_ascii: true,
            ..WriterOptions::condensed()
        },
    )
    .unwrap();
    assert_eq!(ascii, r#""\u00e9\ud83d\ude00""#);
    assert_eq!(JsonReader::from_str(&ascii).read_str().unwrap(), "é😀");
}

#[test]
fn pretty_layout_is_exact() {
    let text = r#"{"a":[1,{"b":null},[]],"c":{},"d":"x"}"#;
    let mut writer = JsonWriter::pretty(Vec::new());
    pipe(&mut JsonReader::from_str(text), &mut writer).unwrap();
    assert_eq!(
        writer.into_string().unwrap(),
        "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    },\n    []\n  ],\n  \"c\": {},\n  \"d\": \"x\"\n}"
    );
    let options = WriterOptions {
        nested_on_new_line: true,
        final_newline: true,
        ..WriterOptions::pretty()
    };
    let mut writer = JsonWriter::new(Vec::new(), options);
    pipe(&mut JsonReader::from_str(r#"{"a":[1]}"#), &mut writer).unwrap();
    assert_eq!(
        writer.into_string().unwrap(),
        "{\n  \"a\":\n  [\n    1\n  ]\n}\n"
    );
}

#[test]
fn inline_overrides_are_scoped() {
    let mut writer = JsonWriter::pretty(Vec::new());
    writer.write_array_root(None).unwrap();
    writer.set_inline(true);
    writer.write_map_root(None).unwrap();
    writer.set_inline(false); // the open object stays inline to its end
    writer.write_name("x").unwrap();
    writer.write_array_root(None).unwrap();
    writer.write_u64(1).unwrap();
    writer.write_u64(2).unwrap();
    writer.write_array_end().unwrap();
    writer.write_name("y").unwrap();
    writer.write_bool(true).unwrap();
    writer.write_map_end().unwrap();
    writer.write_array_root(None).unwrap();
    writer.write_null().unwrap();
    writer.write_array_end().unwrap();
    writer.write_array_end().unwrap();
    assert_eq!(
        writer.into_string().unwrap(),
        "[\n  {\"x\": [1, 2], \"y\": true},\n  [\n    null\n  ]\n]"
    );
}

#[test]
fn misuse_is_an_invalid_structure_error() {
    type Step = fn(&mut JsonWriter<Vec<u8>>) -> sluice_core::Result<()>;
    let cases: [(&str, Step); 7] = [
        ("key in array", |w| {
            w.write_array_root(None)?;
            w.write_name("k")
        }),
        ("key at root", |w| w.write_name("k")),
        ("end of the wrong kind", |w| {
            w.write_array_root(None)?;
            w.write_map_end()
        }),
        ("end with no root", |w| w.write_array_end()),
        ("key without value", |w| {
            w.write_map_root(None)?;
            w.write_name("k")?;
            w.write_map_end()
        }),
        ("container as key", |w| {
            w.write_map_root(None)?;
            w.write_array_root(None)
        }),
        ("second root", |w| {
            w.write_null()?;
            w.write_null()
        }),
    ];
    for (what, steps) in cases {
        let mut writer = JsonWriter::condensed(Vec::new());
        let err = steps(&mut writer).expect_err(what);
        assert_eq!(err.code(), core_codes::INVALID_STRUCTURE, "{what}");
    }
    let mut writer = JsonWriter::condensed(Vec::new());
    writer.write_map_root(None).unwrap();
    assert_eq!(
        writer.finish().unwrap_err().code(),
        core_codes::INVALID_STRUCTURE
    );
    let mut empty = JsonWriter::condensed(Vec::new());
    assert_eq!(
        empty.finish().unwrap_err().code(),
        core_codes::INVALID_STRUCTURE
    );
}

#[test]
fn scalar_keys_are_written_as_their_text_in_quotes() {
    let tokens = [
        Token::MapRoot(None),
        num(Number::U64(1)),
        Token::String("one".into()),
        Token::Bool(true),
        Token::Null,
        Token::Null,
        num(Number::F64(1.5)),
        Token::String("s".into()),
        num(Number::I64(-2)),
        Token::MapEnd,
    ];
    assert_eq!(
        condensed(&tokens),
        r#"{"1":"one","true":null,"null":1.5,"s":-2}"#
    );
}

#[test]
fn non_finite_floats_follow_the_option() {
    let tokens = [
        Token::ArrayRoot(None),
        num(Number::F64(f64::NAN)),
        num(Number::F64(f64::INFINITY)),
        num(Number::F32(f32::NEG_INFINITY)),
        Token::ArrayEnd,
    ];
    let err = write(&tokens, WriterOptions::condensed()).unwrap_err();
    assert_eq!(err.code(), codes::NON_FINITE_NUMBER);
    let json5 = write(
        &tokens,
        WriterOptions {
            non_finite: NonFinite::Json5,
            ..WriterOptions::condensed()
        },
    )
    .unwrap();
    assert_eq!(json5, "[NaN,Infinity,-Infinity]");
    let mut reader = JsonReader::from_str(&json5).with_options(JsonOptions::json5());
    reader.read_array_root().unwrap();
    assert!(reader.read_f64().unwrap().is_nan());
    assert_eq!(reader.read_f64().unwrap(), f64::INFINITY);
    assert_eq!(reader.read_f64().unwrap(), f64::NEG_INFINITY);
    let null = write(
        &tokens,
        WriterOptions {
            non_finite: NonFinite::Null,
            ..WriterOptions::condensed()
        },
    )
    .unwrap();
    assert_eq!(null, "[null,null,null]");
}

#[test]
fn typed_number_methods_write_what_write_number_writes() {
    // `write_f64` and friends have their own path in the JSON writer: the same text as
    // `write_number` with the same value, in item, member, key and root position.
    let write_typed = |options: WriterOptions, as_number: bool| -> sluice_core::Result<String> {
        let mut writer = JsonWriter::new(Vec::new(), options);
        let each = |writer: &mut JsonWriter<Vec<u8>>| -> sluice_core::Result<()> {
            if as_number {
                writer.write_number(Number::F64(-65.613_616_999_999_98))?;
                writer.write_number(Number::F32(1.1))?;
                writer.write_number(Number::I64(i64::MIN))?;
                writer.write_number(Number::U64(u64::MAX))?;
                writer.write_number(Number::F64(f64::NAN))
            } else {
                writer.write_f64(-65.613_616_999_999_98)?;
                writer.write_f32(1.1)?;
                writer.write_i64(i64::MIN)?;
                writer.write_u64(u64::MAX)?;
                writer.write_f64(f64::NAN)
            }
        };
        writer.write_array_root(None)?;
        each(&mut writer)?;
        writer.write_map_root(None)?;
        writer.write_f64(0.5)?; // a key
        writer.write_array_root(None)?;
        each(&mut writer)?;
        writer.write_array_end()?;
        writer.write_map_end()?;
        writer.write_array_end()?;
        writer.into_string()
    };
    let json5 = WriterOptions {
        non_finite: NonFinite::Json5,
        ..WriterOptions::condensed()
    };
    let typed = write_typed(json5.clone(), false).unwrap();
    assert_eq!(typed, write_typed(json5, true).unwrap());
    assert_eq!(
        typed,
        "[-65.61361699999998,1.1,-9223372036854775808,18446744073709551615,NaN,\
         {\"0.5\":[-65.61361699999998,1.1,-9223372036854775808,18446744073709551615,NaN]}]"
    );
    let err = write_typed(WriterOptions::condensed(), false).unwrap_err();
    assert_eq!(err.code(), codes::NON_FINITE_NUMBER);
    // A root scalar.
    let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
    writer.write_u64(7).unwrap();
    assert_eq!(writer.into_string().unwrap(), "7");
}

#[test]
fn blobs_and_ext_are_errors_by_default_and_base64_on_request() {
    let mut writer = JsonWriter::condensed(Vec::new());
    assert_eq!(
        writer.write_blob(b"x").unwrap_err().code(),
        core_codes::UNSUPPORTED
    );
    assert_eq!(
        writer
            .write_ext(Ext {
                kind: 1,
                data: b"x"
            })
            .unwrap_err()
            .code(),
        core_codes::UNSUPPORTED
    );
    let options = WriterOptions {
        blob: BlobMode::Base64,
        ext: ExtMode::Object,
        ..WriterOptions::condensed()
    };
    let mut writer = JsonWriter::new(Vec::new(), options);
    writer.write_array_root(None).unwrap();
    writer.write_blob(&[0, 1, 2, 254, 255]).unwrap();
    writer.write_blob(&[]).unwrap();
    writer
        .write_ext(Ext {
            kind: -1,
            data: b"foob",
        })
        .unwrap();
    writer.write_array_end().unwrap();
    assert_eq!(
        writer.into_string().unwrap(),
        r#"["AAEC/v8=","",{"$ext":-1,"data":"Zm9vYg=="}]"#
    );
}

#[test]
fn sample_stream_with_blobs_and_ext_writes_with_the_transcoding_options() {
    let tokens = sample_tokens(Features::MSGPACK);
    let options = WriterOptions {
        blob: BlobMode::Base64,
        ext: ExtMode::Object,
        ..WriterOptions::pretty()
    };
    let text = write(&tokens, options).unwrap();
    let back = read_checked(&mut JsonReader::from_str(&text)).unwrap();
    assert!(back.contains(&Token::String("AAEC/v8=".into())), "{text}");
    assert!(text.contains("\"1\": \"one\""), "{text}");
}

#[test]
fn a_handler_with_a_dyn_writer_can_ask_for_one_line() {
    fn write_position(writer: &mut dyn Writer, xyz: [f64; 3]) -> sluice_core::Result<()> {
        writer.inline_next_value();
        writer.write_array_root(Some(3))?;
        for v in xyz {
            writer.write_f64(v)?;
        }
        writer.write_array_end()
    }
    let mut writer = JsonWriter::pretty(Vec::new());
    writer.write_map_root(None).unwrap();
    writer.write_name("at").unwrap();
    write_position(&mut writer, [1.0, 2.5, -3.0]).unwrap();
    writer.write_map_end().unwrap();
    assert_eq!(
        writer.into_string().unwrap(),
        "{\n  \"at\": [1.0, 2.5, -3.0]\n}"
    );
}

#[test]
fn a_string_writer_finished_through_the_trait_still_hands_over_everything() {
    let options = WriterOptions {
        final_newline: true,
        ..WriterOptions::condensed()
    };
    let write = |writer: &mut JsonWriter<Vec<u8>>| {
        writer.write_array_root(None).unwrap();
        writer.write_u64(7).unwrap();
        writer.write_array_end().unwrap();
        Writer::finish(writer).unwrap();
    };
    let mut writer = JsonWriter::for_string(options.clone());
    write(&mut writer);
    assert_eq!(writer.into_string().unwrap(), "[7]\n");
    let mut writer = JsonWriter::for_string(options);
    write(&mut writer);
    // Finishing twice adds no second newline; the sink gets the buffered output.
    Writer::finish(&mut writer).unwrap();
    assert_eq!(writer.into_inner().unwrap(), b"[7]\n");
    // A finished writer still reports unclosed containers from `into_inner`.
    let mut writer = JsonWriter::for_string(WriterOptions::condensed());
    writer.write_array_root(None).unwrap();
    assert_eq!(
        writer.into_inner().unwrap_err().code(),
        core_codes::INVALID_STRUCTURE
    );
}

#[test]
fn options_that_would_write_invalid_json_are_refused_before_the_first_value() {
    let tokens = [Token::ArrayRoot(None), Token::Bool(true), Token::ArrayEnd];
    let refused = [
        WriterOptions {
            indent: "xx".into(),
            ..WriterOptions::pretty()
        },
        WriterOptions {
            newline: "\n// ".into(),
            ..WriterOptions::pretty()
        },
        // Not used in condensed output, but still not a JSON layout.
        WriterOptions {
            indent: "\u{a0}".into(),
            ..WriterOptions::condensed()
        },
        WriterOptions {
            newline: String::new(),
            multiple_values: true,
            ..WriterOptions::condensed()
        },
    ];
    for options in refused {
        assert_eq!(
            options.check().unwrap_err().code(),
            codes::INVALID_WRITER_OPTIONS,
            "{options:?}"
        );
        let mut writer = JsonWriter::new(Vec::new(), options.clone());
        assert_eq!(
            writer.write_bool(true).unwrap_err().code(),
            codes::INVALID_WRITER_OPTIONS
        );
        assert_eq!(
            write(&tokens, options).unwrap_err().code(),
            codes::INVALID_WRITER_OPTIONS
        );
    }
    // Every JSON whitespace layout is accepted, and reads back.
    let accepted = WriterOptions {
        indent: " \t".into(),
        newline: "\r\n".into(),
        final_newline: true,
        multiple_values: true,
        ..WriterOptions::pretty()
    };
    assert!(accepted.check().is_ok());
    let text = write(&tokens, accepted).unwrap();
    assert_eq!(text, "[\r\n \ttrue\r\n]\r\n");
    let back = Token::read_all(&mut JsonReader::from_str(&text)).unwrap();
    assert_eq!(back, tokens);
    // An empty newline is fine with one root value (condensed output never breaks lines).
    let one_line = WriterOptions {
        newline: String::new(),
        ..WriterOptions::condensed()
    };
    assert_eq!(write(&tokens, one_line).unwrap(), "[true]");
}

/// A sink that takes at most `chunk` bytes per call and fails the call numbered `fail_at`
/// (1-based) with `failure`: an error, or `Ok(0)`.
fn failing_sink(
    chunk: usize,
    fail_at: usize,
    failure: fn() -> std::io::Result<usize>,
) -> StingySink {
    StingySink::new(chunk, move |call| (call == fail_at).then(failure))
}

#[test]
fn a_sink_error_after_a_partial_write_does_not_repeat_the_accepted_bytes() {
    let failures: [fn() -> std::io::Result<usize>; 3] = [
        || Err(std::io::Error::other("disk full")),
        || Ok(0),
        || Err(std::io::ErrorKind::Interrupted.into()),
    ];
    for (kind, failure) in failures.into_iter().enumerate() {
        for fail_at in 1..=3 {
            // The sink takes 10 000 bytes a call, so each flush of the writer's buffer
            // (about 32 KiB) takes several calls, and the failing one comes after the sink
            // has accepted part of the buffer.
            let sink = failing_sink(10_000, fail_at, failure);
            let mut writer = JsonWriter::new(sink, WriterOptions::condensed());
            writer.write_array_root(None).unwrap();
            let item = "y".repeat(100);
            let mut errors = Vec::new();
            for _ in 0..1000 {
                // The caller goes on after the error: the value was taken, only its
                // hand-over to the sink failed, and the next flush retries that.
                if let Err(err) = writer.write_str(&item) {
                    errors.push(err.code());
                }
            }
            writer.write_array_end().unwrap();
            let sink = writer.into_inner().unwrap();
            if kind == 2 {
                // `Interrupted` is retried, never reported.
                assert_eq!(errors, [], "{kind} {fail_at}");
            } else {
                assert_eq!(errors, [core_codes::IO], "{kind} {fail_at}");
            }
            let expected = format!("[{}]", vec![format!("\"{item}\""); 1000].join(","));
            assert_eq!(
                String::from_utf8(sink.data).unwrap(),
                expected,
                "{kind} {fail_at}"
            );
        }
    }
}

#[test]
fn an_inline_request_used_by_a_scalar_in_a_one_line_container_does_not_outlive_it() {
    let mut writer = JsonWriter::pretty(Vec::new());
    writer.write_array_root(None).unwrap();
    writer.inline_next_value();
    writer.write_array_root(None).unwrap();
    // Asked for the scalar that follows, inside a container already on one line.
    writer.inline_next_value();
    writer.write_u64(1).unwrap();
    writer.write_array_end().unwrap();
    // Nobody asked for this one to be on one line.
    writer.write_array_root(None).unwrap();
    writer.write_u64(2).unwrap();
    writer.write_array_end().unwrap();
    writer.write_array_end().unwrap();
    assert_eq!(
        writer.into_string().unwrap(),
        "[\n  [1],\n  [\n    2\n  ]\n]"
    );
}

#[test]
fn an_inline_request_lapses_when_its_container_ends_with_no_value() {
    let mut writer = JsonWriter::pretty(Vec::new());
    writer.write_array_root(None).unwrap();
    writer.write_array_root(None).unwrap();
    writer.write_u64(1).unwrap();
    // Asked for a next item of this array, which ends instead.
    writer.inline_next_value();
    writer.write_array_end().unwrap();
    // The next item of the outer array: nobody asked for it to be on one line.
    writer.write_array_root(None).unwrap();
    writer.write_u64(2).unwrap();
    writer.write_array_end().unwrap();
    writer.write_array_end().unwrap();
    assert_eq!(
        writer.into_string().unwrap(),
        "[\n  [\n    1\n  ],\n  [\n    2\n  ]\n]"
    );
}

#[test]
fn an_inline_request_in_key_position_lapses_when_its_object_ends() {
    let mut writer = JsonWriter::pretty(Vec::new());
    writer.write_map_root(None).unwrap();
    writer.write_name("a").unwrap();
    writer.write_map_root(None).unwrap();
    // Asked for the value of a key that never comes: the object ends, empty.
    writer.inline_next_value();
    writer.write_map_end().unwrap();
    writer.write_name("b").unwrap();
    writer.write_map_root(None).unwrap();
    writer.write_name("c").unwrap();
    writer.write_null().unwrap();
    writer.write_map_end().unwrap();
    writer.write_map_end().unwrap();
    assert_eq!(
        writer.into_string().unwrap(),
        "{\n  \"a\": {},\n  \"b\": {\n    \"c\": null\n  }\n}"
    );
}

#[test]
fn an_inline_request_asked_for_a_member_value_still_applies_after_its_key() {
    let mut writer = JsonWriter::pretty(Vec::new());
    writer.write_map_root(None).unwrap();
    writer.inline_next_value();
    writer.write_name("a").unwrap();
    writer.write_array_root(None).unwrap();
    writer.write_u64(1).unwrap();
    writer.write_u64(2).unwrap();
    writer.write_array_end().unwrap();
    writer.write_map_end().unwrap();
    assert_eq!(writer.into_string().unwrap(), "{\n  \"a\": [1, 2]\n}");
}

#[test]
fn an_ndjson_writer_hands_the_sink_whole_lines_only() {
    /// Keeps each piece the writer hands over.
    struct Pieces(Vec<Vec<u8>>);
    impl std::io::Write for Pieces {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut writer = NdjsonWriter::new(Pieces(Vec::new()));
    let text = "z".repeat(1000);
    // Records of 1 to 60 strings of 1 KB: the buffer fills up inside many of them.
    for strings in 1..=60 {
        writer.write_array_root(None).unwrap();
        for _ in 0..strings {
            writer.write_str(&text).unwrap();
        }
        writer.write_array_end().unwrap();
    }
    let pieces = writer.into_inner().unwrap().0;
    assert!(pieces.len() > 1);
    for piece in &pieces {
        assert_eq!(piece.last(), Some(&b'\n'));
    }
    let lines: Vec<u8> = pieces.concat();
    assert_eq!(lines.iter().filter(|&&b| b == b'\n').count(), 60);
}

#[test]
fn a_root_value_after_finish_follows_the_final_newline_without_a_blank_line() {
    let options = WriterOptions {
        multiple_values: true,
        final_newline: true,
        ..WriterOptions::condensed()
    };
    let mut writer = JsonWriter::for_string(options);
    writer.write_u64(1).unwrap();
    Writer::finish(&mut writer).unwrap();
    writer.write_u64(2).unwrap();
    assert_eq!(writer.into_string().unwrap(), "1\n2\n");
}

#[test]
fn condensed_root_values_are_separated_by_the_newline_option() {
    let options = WriterOptions {
        multiple_values: true,
        newline: "\r\n".into(),
        ..WriterOptions::condensed()
    };
    let tokens = [Token::ArrayRoot(None), Token::ArrayEnd, Token::Bool(true)];
    assert_eq!(write(&tokens, options).unwrap(), "[]\r\ntrue");
}

#[test]
fn an_ndjson_flush_hands_over_the_complete_records_and_keeps_the_open_one() {
    let mut writer = NdjsonWriter::new(Vec::new());
    writer.write_u64(1).unwrap();
    writer.write_map_root(None).unwrap();
    writer.write_name("text").unwrap();
    // A line break inside a string is escaped, so it cannot be taken for a record's end.
    writer.write_str("a\nb").unwrap();
    writer.flush().unwrap();
    assert_eq!(writer.get_ref(), b"1\n");
    writer.write_map_end().unwrap();
    writer.flush().unwrap();
    assert_eq!(writer.get_ref(), b"1\n{\"text\":\"a\\nb\"}\n");
    // Nothing buffered: a flush hands over nothing more.
    writer.flush().unwrap();
    writer.write_bool(true).unwrap();
    assert_eq!(
        writer.into_inner().unwrap(),
        b"1\n{\"text\":\"a\\nb\"}\ntrue\n"
    );
}

#[test]
fn an_ndjson_flush_that_fails_part_way_sends_each_byte_once() {
    for fail_at in 1..=4 {
        let sink = failing_sink(3, fail_at, || Err(std::io::Error::other("disk full")));
        let mut writer = NdjsonWriter::new(sink);
        for id in 0..3 {
            writer.write_u64(id * 1000).unwrap();
        }
        writer.write_array_root(None).unwrap();
        let error = writer.flush().unwrap_err();
        assert_eq!(error.code(), core_codes::IO, "{fail_at}");
        writer.flush().unwrap();
        assert_eq!(writer.get_ref().data, b"0\n1000\n2000\n", "{fail_at}");
        writer.write_array_end().unwrap();
        let sink = writer.into_inner().unwrap();
        assert_eq!(sink.data, b"0\n1000\n2000\n[]\n", "{fail_at}");
    }
}

#[test]
fn into_parts_gives_the_sink_back_with_the_unsent_output_when_into_inner_would_refuse() {
    let mut writer = JsonWriter::condensed(Vec::new());
    writer.write_array_root(None).unwrap();
    let item = "x".repeat(1000);
    // Enough for the writer to hand part of the output to the sink on its own.
    for _ in 0..100 {
        writer.write_str(&item).unwrap();
    }
    let (sink, unsent) = writer.into_parts();
    assert!(!sink.is_empty());
    let output = [sink, unsent].concat();
    let expected = format!("[{}", vec![format!("\"{item}\""); 100].join(","));
    assert_eq!(String::from_utf8(output).unwrap(), expected);

    let mut records = NdjsonWriter::new(Vec::new());
    records.write_u64(7).unwrap();
    records.write_array_root(None).unwrap();
    records.write_u64(8).unwrap();
    let (sink, unsent) = records.into_parts();
    assert_eq!([sink, unsent].concat(), b"7\n[8");

    let mut open = JsonWriter::condensed(Vec::new());
    open.write_array_root(None).unwrap();
    assert_eq!(
        open.into_inner().unwrap_err().code(),
        core_codes::INVALID_STRUCTURE
    );
}

/// A sink that refuses every write while `broken` is set.
struct BreakableSink {
    data: Vec<u8>,
    broken: bool,
}

impl std::io::Write for BreakableSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.broken {
            return Err(std::io::Error::other("disk full"));
        }
        self.data.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn an_extension_value_is_taken_whole_when_the_sink_fails() {
    let options = WriterOptions {
        ext: ExtMode::Object,
        ..WriterOptions::condensed()
    };
    let sink = BreakableSink {
        data: Vec::new(),
        broken: true,
    };
    let mut writer = JsonWriter::new(sink, options);
    writer.write_array_root(None).unwrap();
    // More than the writer buffers: from here on every value's hand-over fails.
    let long = "x".repeat(100_000);
    assert_eq!(writer.write_str(&long).unwrap_err().code(), core_codes::IO);
    // The object is written whole before the hand-over fails, as a scalar is, so the
    // caller's next value is the next item and not a key inside it.
    let ext = Ext {
        kind: 3,
        data: b"ab",
    };
    assert_eq!(writer.write_ext(ext).unwrap_err().code(), core_codes::IO);
    assert_eq!(writer.write_u64(7).unwrap_err().code(), core_codes::IO);
    writer.get_mut().broken = false;
    writer.write_array_end().unwrap();
    let sink = writer.into_inner().unwrap();
    assert_eq!(
        String::from_utf8(sink.data).unwrap(),
        format!(r#"["{long}",{{"$ext":3,"data":"YWI="}},7]"#)
    );
}

#[test]
fn a_member_container_on_a_line_of_its_own_has_no_space_before_it_after_a_flush() {
    let options = WriterOptions {
        nested_on_new_line: true,
        ..WriterOptions::pretty()
    };
    // The space after a key is taken back when the value starts on the next line; handed
    // to the sink already, it stayed at the end of the key's line.
    let mut writer = JsonWriter::new(Vec::new(), options.clone());
    writer.write_map_root(None).unwrap();
    writer.write_name("a").unwrap();
    writer.flush().unwrap();
    writer.write_array_root(None).unwrap();
    writer.write_u64(1).unwrap();
    writer.write_array_end().unwrap();
    writer.write_map_end().unwrap();
    assert_eq!(
        String::from_utf8(writer.into_inner().unwrap()).unwrap(),
        "{\n  \"a\":\n  [\n    1\n  ]\n}"
    );
    // A number key that fills the writer's buffer (about 32 KiB) hands it over by itself:
    // the output is what a string writer, which never hands anything over, makes.
    let write = |writer: &mut dyn Writer, len: usize| {
        writer.write_map_root(None).unwrap();
        writer.write_name("pad").unwrap();
        writer.write_str(&"p".repeat(len)).unwrap();
        writer.write_u64(1).unwrap();
        writer.write_map_root(None).unwrap();
        writer.write_map_end().unwrap();
        writer.write_map_end().unwrap();
    };
    for len in 32_700..32_800 {
        let mut flushing = JsonWriter::new(Vec::new(), options.clone());
        write(&mut flushing, len);
        let mut whole = JsonWriter::for_string(options.clone());
        write(&mut whole, len);
        let text = whole.into_string().unwrap();
        assert!(text.ends_with("\"1\":\n  {}\n}"), "{len}");
        assert_eq!(
            String::from_utf8(flushing.into_inner().unwrap()).unwrap(),
            text,
            "{len}"
        );
    }
}

#[test]
fn wide_and_32_bit_numbers_as_keys_are_written_as_the_text_they_have_as_values() {
    let tokens = [
        Token::MapRoot(None),
        num(Number::I128(i128::MIN)),
        Token::Null,
        num(Number::U128(u128::MAX)),
        Token::Null,
        num(Number::F32(1.1)),
        Token::Null,
        num(Number::F64(-0.0)),
        Token::Null,
        num(Number::Text("1e5", NumberHint::Float)),
        Token::Null,
        Token::Name(String::new()),
        Token::Null,
        Token::MapEnd,
    ];
    assert_eq!(
        condensed(&tokens),
        "{\"-170141183460469231731687303715884105728\":null,\
         \"340282366920938463463374607431768211455\":null,\
         \"1.1\":null,\"-0.0\":null,\"1e5\":null,\"\":null}"
    );
}

#[test]
fn the_ndjson_writer_converts_bytes_and_extension_values_by_its_options() {
    let options = WriterOptions {
        blob: BlobMode::Base64,
        ext: ExtMode::Object,
        ..WriterOptions::condensed()
    };
    let mut writer = NdjsonWriter::with_options(Vec::new(), options);
    writer.write_blob(b"hi!").unwrap();
    writer.write_ext(Ext { kind: 7, data: b"" }).unwrap();
    let bytes = writer.into_inner().unwrap();
    assert_eq!(bytes, b"\"aGkh\"\n{\"$ext\":7,\"data\":\"\"}\n");
    let mut strict = NdjsonWriter::new(Vec::new());
    assert_eq!(
        strict.write_blob(b"x").unwrap_err().code(),
        core_codes::UNSUPPORTED
    );
}

#[test]
fn nesting_has_no_depth_limit_on_the_writer_side() {
    // Readers limit depth; tokens written by hand may go deeper and still close cleanly.
    let depth = 100_000;
    let mut writer = JsonWriter::condensed(Vec::new());
    for _ in 0..depth {
        writer.write_array_root(None).unwrap();
    }
    for _ in 0..depth {
        writer.write_array_end().unwrap();
    }
    let text = writer.into_string().unwrap();
    assert_eq!(text.len(), 2 * depth);
    assert!(text.starts_with('[') && text.ends_with(']'));
}
