//! Conformance: kawanet's msgpack-test-suite, and the sluice reader/writer contract.

mod common;

use std::collections::BTreeMap;

use common::{hex, to_json};
use serde_json::Value as J;
use sluice_core::testing::{Features, corpus_file, normalize, read_checked, sample_tokens};
use sluice_core::{Ext, Number, NumberHint, Reader, Token, Writer};
use sluice_msgpack::{MsgPackReader, MsgPackWriter, ReaderOptions, Timestamp, WriterOptions};

/// What a test-suite case expects, decoded from its JSON.
#[derive(Debug)]
enum Expected {
    Nil,
    Bool(bool),
    Binary(Vec<u8>),
    Integer(i128),
    Float(f64),
    Text(String),
    Json(J),
    Timestamp(Timestamp),
    Ext(i8, Vec<u8>),
}

fn expected(case: &serde_json::Map<String, J>) -> Expected {
    if let Some(text) = case.get("bignum").and_then(J::as_str) {
        return Expected::Integer(text.parse().unwrap());
    }
    let (key, value) = case
        .iter()
        .find(|(k, _)| k.as_str() != "msgpack")
        .expect("a case has a value");
    match key.as_str() {
        "nil" => Expected::Nil,
        "bool" => Expected::Bool(value.as_bool().unwrap()),
        "binary" => Expected::Binary(hex(value.as_str().unwrap())),
        "number" if value.is_i64() || value.is_u64() => Expected::Integer(
            value
                .as_i64()
                .map_or_else(|| i128::from(value.as_u64().unwrap()), i128::from),
        ),
        "number" => Expected::Float(value.as_f64().unwrap()),
        "string" => Expected::Text(value.as_str().unwrap().to_owned()),
        "array" | "map" => Expected::Json(value.clone()),
        "timestamp" => {
            let pair = value.as_array().unwrap();
            Expected::Timestamp(
                Timestamp::new(
                    pair[0].as_i64().unwrap(),
                    u32::try_from(pair[1].as_u64().unwrap()).unwrap(),
                )
                .unwrap(),
            )
        }
        "ext" => {
            let pair = value.as_array().unwrap();
            Expected::Ext(
                i8::try_from(pair[0].as_i64().unwrap()).unwrap(),
                hex(pair[1].as_str().unwrap()),
            )
        }
        other => panic!("unknown case kind {other}"),
    }
}

/// Decodes `bytes` (exactly one value) and checks it against `expected`.
fn check_decodes(bytes: &[u8], expected: &Expected) -> sluice_core::Result<()> {
    let options = ReaderOptions {
        multiple_values: false,
        ..ReaderOptions::default()
    };
    let mut reader = MsgPackReader::from_slice(bytes).with_options(options);
    match expected {
        Expected::Nil => reader.read_null()?,
        Expected::Bool(b) => assert_eq!(reader.read_bool()?, *b),
        Expected::Binary(data) => assert_eq!(reader.read_blob()?, data.as_slice()),
        Expected::Integer(v) => assert_eq!(reader.read_number()?.to_i128()?, *v),
        Expected::Float(v) => assert_eq!(reader.read_number()?.to_f64()?.to_bits(), v.to_bits()),
        Expected::Text(s) => assert_eq!(reader.read_str()?, s),
        Expected::Json(value) => assert_eq!(&to_json(&mut reader)?, value),
        Expected::Timestamp(t) => assert_eq!(reader.read_timestamp()?, *t),
        Expected::Ext(kind, data) => {
            let ext = reader.read_ext()?;
            assert_eq!((ext.kind, ext.data), (*kind, data.as_slice()));
        }
    }
    reader.finish()?;
    // Ended only after the one value.
    assert_eq!(reader.peek()?, sluice_core::Entry::Ended);
    Ok(())
}

/// Encodes the expected value with the writer. The suite's canonical floats are the narrowest
/// exact ones, which `compact_floats` asks for.
fn encode(expected: &Expected) -> sluice_core::Result<Vec<u8>> {
    let options = WriterOptions {
        compact_floats: true,
    };
    let mut writer = MsgPackWriter::new(Vec::new()).with_options(options);
    match expected {
        Expected::Nil => writer.write_null()?,
        Expected::Bool(b) => writer.write_bool(*b)?,
        Expected::Binary(data) => writer.write_blob(data)?,
        Expected::Integer(v) => {
            let text = v.to_string();
            let hint = if *v < 0 {
                NumberHint::NegInteger
            } else {
                NumberHint::Integer
            };
            writer.write_number(Number::Text(&text, hint))?;
        }
        Expected::Float(v) => writer.write_f64(*v)?,
        Expected::Text(s) => writer.write_str(s)?,
        Expected::Json(value) => common::write_json(&mut writer, value)?,
        Expected::Timestamp(t) => writer.write_timestamp(*t)?,
        Expected::Ext(kind, data) => writer.write_ext(Ext { kind: *kind, data })?,
    }
    writer.into_inner()
}

#[test]
fn kawanet_msgpack_test_suite_decodes_every_encoding_and_encodes_canonically() {
    let Some(path) = corpus_file("msgpack-test-suite/msgpack-test-suite.json") else {
        return;
    };
    let suite: serde_json::Map<String, J> =
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut per_group: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let (mut cases, mut encodings, mut first_identical, mut same_size_alternative) = (0, 0, 0, 0);
    for (group, group_cases) in &suite {
        for case in group_cases.as_array().unwrap() {
            let case = case.as_object().unwrap();
            let expected = expected(case);
            let forms: Vec<Vec<u8>> = case["msgpack"]
                .as_array()
                .unwrap()
                .iter()
                .map(|form| hex(form.as_str().unwrap()))
                .collect();
            for form in &forms {
                check_decodes(form, &expected)
                    .unwrap_or_else(|err| panic!("{group}: {form:02x?} as {expected:?}: {err}"));
                // The stream reader agrees with the slice reader.
                let mut streamed = MsgPackReader::from_read(form.as_slice());
                assert_eq!(
                    Token::read_all(&mut streamed).unwrap(),
                    common::read_tokens(form).unwrap()
                );
                encodings += 1;
            }
            let ours = encode(&expected).unwrap();
            if ours == forms[0] {
                first_identical += 1;
            } else {
                // The only allowed difference: the suite lists a signed form first for a
                // non-negative integer where the equally small unsigned form is also listed.
                // The writer always picks unsigned for non-negative values.
                assert!(
                    matches!(expected, Expected::Integer(v) if v >= 0)
                        && ours.len() == forms[0].len()
                        && forms.contains(&ours),
                    "{group}: {expected:?} encoded as {ours:02x?}, expected {:02x?}",
                    forms[0]
                );
                same_size_alternative += 1;
            }
            cases += 1;
            let entry = per_group.entry(group.as_str()).or_default();
            entry.0 += 1;
            entry.1 += forms.len();
        }
    }
    println!(
        "msgpack-test-suite: {cases} cases, {encodings} encodings, {} groups",
        per_group.len()
    );
    for (group, (n, forms)) in &per_group {
        println!("  {group}: {n} cases, {forms} encodings decoded");
    }
    println!(
        "writer: {first_identical}/{cases} identical to the first encoding, \
         {same_size_alternative} identical to another encoding of the same (smallest) size"
    );
    assert_eq!(per_group.len(), 15, "every group of the suite was run");
    assert_eq!(cases, 85);
    assert_eq!(first_identical + same_size_alternative, cases);
    assert!(same_size_alternative <= 1);
}

#[test]
fn sample_tokens_round_trip_through_the_writer_and_both_readers() {
    let tokens = sample_tokens(Features::MSGPACK);
    let bytes = common::write_tokens(&tokens).unwrap();
    let from_slice = read_checked(&mut MsgPackReader::from_slice(&bytes)).unwrap();
    assert_eq!(normalize(&from_slice), normalize(&tokens));
    let from_read = read_checked(&mut MsgPackReader::from_read(bytes.as_slice())).unwrap();
    assert_eq!(from_read, from_slice);
    // Reading and writing again gives the same bytes.
    assert_eq!(common::write_tokens(&from_slice).unwrap(), bytes);
}

#[test]
fn sample_tokens_with_declared_lengths_give_the_same_bytes_as_learned_lengths() {
    let tokens = sample_tokens(Features::MSGPACK);
    let learned = common::write_tokens(&tokens).unwrap();
    // Re-read: the reader reports every length, so this writes with declared lengths.
    let with_lengths = common::read_tokens(&learned).unwrap();
    assert!(with_lengths.contains(&Token::MapRoot(Some(2))));
    assert_eq!(common::write_tokens(&with_lengths).unwrap(), learned);
}
