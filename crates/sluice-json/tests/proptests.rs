//! Property tests: any value written (condensed or pretty) reads back equal, serde_json
//! reads it as the same value and writes it with the same bytes; any bytes are read without a panic, with the same outcome on
//! the slice and `io::Read` paths.

mod common;

use proptest::prelude::*;
use sluice_core::testing::{normalize, read_checked};
use sluice_core::{OwnedNumber, Reader, Token, Value, ValueReader, Writer};
use sluice_json::{JsonOptions, JsonReader, JsonWriter, WriterOptions};

/// `normalize` keeps a non-negative `I128` beyond 64 bits as `I128`, while the same digits
/// read from text become `U128`: compare such values as `U128`.
fn canon(tokens: &[Token]) -> Vec<Token> {
    normalize(tokens)
        .into_iter()
        .map(|t| match t {
            Token::Number(OwnedNumber::I128(v)) if v >= 0 => {
                Token::Number(OwnedNumber::U128(v.unsigned_abs()))
            }
            other => other,
        })
        .collect()
}

fn number() -> impl Strategy<Value = OwnedNumber> {
    prop_oneof![
        any::<i64>().prop_map(OwnedNumber::I64),
        any::<u64>().prop_map(OwnedNumber::U64),
        any::<i128>().prop_map(OwnedNumber::I128),
        any::<u128>().prop_map(OwnedNumber::U128),
        any::<f64>()
            .prop_filter("finite", |v| v.is_finite())
            .prop_map(OwnedNumber::F64),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number().prop_map(Value::Number),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::btree_map(any::<String>(), inner, 0..8).prop_map(|m| Value::Map(
                m.into_iter().map(|(k, v)| (Value::String(k), v)).collect()
            )),
        ]
    })
}

/// The tokens of `value` and the text `JsonWriter` writes of them, pretty or condensed,
/// ASCII-only or not.
fn written(value: &Value, pretty: bool, ascii: bool) -> (Vec<Token>, String) {
    let tokens = Token::read_all(&mut ValueReader::new(value)).unwrap();
    let options = WriterOptions {
        escape_non_ascii: ascii,
        ..if pretty {
            WriterOptions::pretty()
        } else {
            WriterOptions::condensed()
        }
    };
    let mut writer = JsonWriter::new(Vec::new(), options);
    Token::write_all(&tokens, &mut writer).unwrap();
    (tokens, writer.into_string().unwrap())
}

/// serde_json's default float parse is not correctly rounded: a written float may come back
/// this many units in the last place away from the value written.
const SERDE_JSON_FLOAT_SLACK: u64 = 2;

/// Whether the float serde_json read, `read`, is `written`, within its rounding.
fn serde_float_is(read: Option<f64>, written: f64) -> bool {
    read.is_some_and(|read| {
        let (a, b) = (read.to_bits(), written.to_bits());
        // The same sign, then near in bits; signs never mix (`-0.0` stays negative).
        (a ^ b) >> 63 == 0 && a.abs_diff(b) <= SERDE_JSON_FLOAT_SLACK
    })
}

/// Whether serde_json, an independent parser, read the written `value` as `read`: strings,
/// booleans and 64-bit integers exactly, floats and the integers beyond 64 bits (which it
/// reads as floats) within its rounding, map entries in any order (keys are unique here).
fn serde_read_the_value(value: &Value, read: &serde_json::Value) -> bool {
    use serde_json::Value as Serde;
    match (value, read) {
        (Value::Null, Serde::Null) => true,
        (Value::Bool(a), Serde::Bool(b)) => a == b,
        (Value::String(a), Serde::String(b)) => a == b,
        (Value::Number(number), Serde::Number(read)) => match *number {
            OwnedNumber::I64(v) => read.as_i64() == Some(v),
            OwnedNumber::U64(v) => read.as_u64() == Some(v),
            OwnedNumber::I128(v) => match (i64::try_from(v), u64::try_from(v)) {
                (Ok(v), _) => read.as_i64() == Some(v),
                (_, Ok(v)) => read.as_u64() == Some(v),
                #[allow(clippy::cast_precision_loss)]
                _ => serde_float_is(read.as_f64(), v as f64),
            },
            OwnedNumber::U128(v) => match u64::try_from(v) {
                Ok(v) => read.as_u64() == Some(v),
                #[allow(clippy::cast_precision_loss)]
                Err(_) => serde_float_is(read.as_f64(), v as f64),
            },
            OwnedNumber::F64(v) => serde_float_is(read.as_f64(), v),
            _ => false,
        },
        (Value::Array(items), Serde::Array(read)) => {
            items.len() == read.len()
                && items
                    .iter()
                    .zip(read)
                    .all(|(item, read)| serde_read_the_value(item, read))
        }
        (Value::Map(entries), Serde::Object(read)) => {
            entries.len() == read.len()
                && entries.iter().all(|(key, item)| match key {
                    Value::String(key) => read
                        .get(key)
                        .is_some_and(|read| serde_read_the_value(item, read)),
                    _ => false,
                })
        }
        _ => false,
    }
}

/// Any serde_json value with finite numbers (objects have sorted, unique keys).
fn serde_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value as Serde;
    let leaf = prop_oneof![
        Just(Serde::Null),
        any::<bool>().prop_map(Serde::Bool),
        any::<i64>().prop_map(Serde::from),
        any::<u64>().prop_map(Serde::from),
        any::<f64>()
            .prop_filter("finite", |v| v.is_finite())
            .prop_map(Serde::from),
        any::<String>().prop_map(Serde::String),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Serde::Array),
            prop::collection::btree_map(any::<String>(), inner, 0..8)
                .prop_map(|map| Serde::Object(map.into_iter().collect())),
        ]
    })
}

/// Writes `value` with the writer's typed methods (the floats as `f64`).
fn write_serde(value: &serde_json::Value, writer: &mut impl Writer) -> sluice_core::Result<()> {
    use serde_json::Value as Serde;
    match value {
        Serde::Null => writer.write_null(),
        Serde::Bool(v) => writer.write_bool(*v),
        Serde::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(v), _, _) => writer.write_u64(v),
            (_, Some(v), _) => writer.write_i64(v),
            (_, _, Some(v)) => writer.write_f64(v),
            _ => unreachable!("serde_json numbers are u64, i64 or f64"),
        },
        Serde::String(v) => writer.write_str(v),
        Serde::Array(items) => {
            writer.write_array_root(Some(items.len()))?;
            for item in items {
                write_serde(item, writer)?;
            }
            writer.write_array_end()
        }
        Serde::Object(map) => {
            writer.write_map_root(Some(map.len()))?;
            for (key, item) in map {
                writer.write_name(key)?;
                write_serde(item, writer)?;
            }
            writer.write_map_end()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn serde_json_reads_any_written_value_as_the_same_value(value in value(), pretty in any::<bool>(), ascii in any::<bool>()) {
        // The writer's output checked by an independent parser, not by sluice's own reader
        // only: a bug that writer and reader share (an escape, a number's spelling, the
        // pretty layout) would pass the round trip above but not this.
        let (_, text) = written(&value, pretty, ascii);
        if ascii {
            prop_assert!(text.is_ascii(), "{}", text);
        }
        let read: serde_json::Value = serde_json::from_str(&text).map_err(|err| {
            TestCaseError::fail(format!("serde_json refuses {text:?}: {err}"))
        })?;
        prop_assert!(serde_read_the_value(&value, &read), "{:?} written as {} read as {:?}", value, text, read);
    }

    #[test]
    fn escaped_strings_read_the_same_from_text_and_bytes(text in any::<String>(), json5 in any::<bool>()) {
        // Escaped strings copy their raw runs to a buffer: unchecked for `&str` input, checked
        // for bytes. Both must give the original text, whatever characters sit by the escapes.
        let mut writer = JsonWriter::for_string(WriterOptions::condensed());
        writer.write_str(&text).unwrap();
        let mut literal = writer.into_string().unwrap();
        if json5 {
            // A JSON5 identity escape of a non-ASCII character and an escaped U+2028 line
            // continuation right before the closing quote.
            literal.truncate(literal.len() - 1);
            literal.push_str("\\é\\\u{2028}\"");
        }
        let options = if json5 { JsonOptions::json5() } else { JsonOptions::strict() };
        let from_text = JsonReader::from_str(&literal).with_options(options.clone()).read_str().unwrap().to_owned();
        let from_bytes = JsonReader::from_slice(literal.as_bytes()).with_options(options).read_str().unwrap().to_owned();
        let expected = if json5 { format!("{text}é") } else { text };
        prop_assert_eq!(&from_text, &expected);
        prop_assert_eq!(from_bytes, expected);
    }

    #[test]
    fn for_string_output_is_the_checked_output(value in value(), pretty in any::<bool>(), ascii in any::<bool>()) {
        // `for_string` hands its buffer over unchecked: it must be what the checked path
        // (a plain vector sink, validated by `into_string`) produces.
        let tokens = Token::read_all(&mut ValueReader::new(&value)).unwrap();
        let options = WriterOptions {
            escape_non_ascii: ascii,
            ..if pretty { WriterOptions::pretty() } else { WriterOptions::condensed() }
        };
        let mut checked = JsonWriter::new(Vec::new(), options.clone());
        Token::write_all(&tokens, &mut checked).unwrap();
        let mut own = JsonWriter::for_string(options);
        Token::write_all(&tokens, &mut own).unwrap();
        prop_assert_eq!(own.into_string().unwrap(), checked.into_string().unwrap());
    }

    #[test]
    fn floats_of_both_widths_read_back_as_the_same_bits(wide in any::<f64>(), narrow in any::<f32>()) {
        prop_assume!(wide.is_finite() && narrow.is_finite());
        let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
        writer.write_array_root(None).unwrap();
        writer.write_f64(wide).unwrap();
        writer.write_f32(narrow).unwrap();
        writer.write_array_end().unwrap();
        let text = writer.into_string().unwrap();
        let mut reader = JsonReader::from_str(&text);
        reader.read_array_root().unwrap();
        let wide_text = reader.read_number().unwrap().as_text().unwrap().to_owned();
        prop_assert!(wide_text.contains(['.', 'e']), "{}", wide_text);
        prop_assert_eq!(wide_text.parse::<f64>().unwrap().to_bits(), wide.to_bits());
        let narrow_text = reader.read_number().unwrap().as_text().unwrap().to_owned();
        prop_assert_eq!(narrow_text.parse::<f32>().unwrap().to_bits(), narrow.to_bits());
        // Shortest: one digit fewer would not read back (Rust's own formatting is shortest).
        let digits = |t: &str| {
            let mantissa: String = t.chars().take_while(|&c| c != 'e').filter(char::is_ascii_digit).collect();
            mantissa.trim_start_matches('0').trim_end_matches('0').len()
        };
        prop_assert!(digits(&wide_text) <= digits(&format!("{wide:?}")), "{} vs {:?}", wide_text, wide);
    }

    #[test]
    fn any_value_written_reads_back_equal(
        value in value(),
        pretty in any::<bool>(),
        ascii in any::<bool>(),
        window in 1usize..40,
    ) {
        let (tokens, text) = written(&value, pretty, ascii);
        let back = read_checked(&mut JsonReader::from_str(&text)).unwrap();
        prop_assert_eq!(canon(&back), canon(&tokens));
        let io = common::read_trickle(text.as_bytes(), 3, &JsonOptions::strict()).unwrap();
        prop_assert_eq!(&io, &back);
        let windowed = common::read_windowed(text.as_bytes(), 5, window, &JsonOptions::strict()).unwrap();
        prop_assert_eq!(windowed, back);
    }

    #[test]
    fn any_bytes_read_without_panic_and_both_paths_agree(
        bytes in prop::collection::vec(any::<u8>(), 0..64),
        window in 1usize..12,
    ) {
        for options in [JsonOptions::strict(), JsonOptions::relaxed(), JsonOptions::ndjson(), JsonOptions::json5()] {
            let slice = common::outcome(common::read_slice(&bytes, &options));
            let io = common::outcome(common::read_trickle(&bytes, 1, &options));
            prop_assert_eq!(&slice, &io);
            let windowed = common::outcome(common::read_windowed(&bytes, 2, window, &options));
            prop_assert_eq!(slice, windowed);
        }
    }

    #[test]
    fn json_like_text_reads_without_panic_and_both_paths_agree(
        text in "[\\[\\]{}:,\"\\\\ 0-9a-fA-FeExu.+\\-/*\n\r\t'INT]{0,48}",
        window in 1usize..12,
    ) {
        for options in [JsonOptions::strict(), JsonOptions::json5()] {
            let slice = common::outcome(common::read_slice(text.as_bytes(), &options));
            let io = common::outcome(common::read_trickle(text.as_bytes(), 1, &options));
            prop_assert_eq!(&slice, &io);
            let windowed = common::outcome(common::read_windowed(text.as_bytes(), 3, window, &options));
            prop_assert_eq!(slice, windowed);
        }
    }

    #[test]
    fn output_is_spelled_as_serde_json_spells_it(value in serde_value(), pretty in any::<bool>()) {
        // Byte for byte: floats in the same shortest form, the same escapes, the same
        // pretty layout (two spaces, `": "`, empty containers as `[]` and `{}`).
        let options = if pretty { WriterOptions::pretty() } else { WriterOptions::condensed() };
        let mut writer = JsonWriter::for_string(options);
        write_serde(&value, &mut writer).unwrap();
        let expected = if pretty {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            serde_json::to_string(&value).unwrap()
        };
        prop_assert_eq!(writer.into_string().unwrap(), expected);
    }

    #[test]
    fn an_f32_is_spelled_as_serde_json_spells_it(value in any::<f32>()) {
        prop_assume!(value.is_finite());
        let mut writer = JsonWriter::for_string(WriterOptions::condensed());
        writer.write_f32(value).unwrap();
        prop_assert_eq!(writer.into_string().unwrap(), serde_json::to_string(&value).unwrap());
    }
}
