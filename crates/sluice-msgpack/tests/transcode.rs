//! Transcoding with `pipe`: JSON → MessagePack → JSON keeps every value (integers stay
//! integers, floats keep their bits), and every valid MessagePack value can be written as JSON.

mod common;

use std::path::{Path, PathBuf};

use sluice_core::testing::{Features, corpus_file, normalize, sample_tokens};
use sluice_core::{Entry, OwnedNumber, Token, codes as core, pipe};
use sluice_json::{
    BlobMode, DuplicateKeys, ExtMode, JsonOptions, JsonReader, JsonWriter, NonFinite,
};
use sluice_msgpack::{MsgPackReader, MsgPackWriter, codes};

fn json_options() -> JsonOptions {
    // The JSONTestSuite `y_` files include duplicate keys, which JSON allows.
    JsonOptions {
        duplicate_keys: DuplicateKeys::LastWins,
        ..JsonOptions::strict()
    }
}

fn json_to_msgpack(json: &[u8]) -> sluice_core::Result<Vec<u8>> {
    let mut reader = JsonReader::from_slice(json).with_options(json_options());
    let mut writer = MsgPackWriter::new(Vec::new());
    pipe(&mut reader, &mut writer)?;
    writer.into_inner()
}

fn msgpack_to_json(
    bytes: &[u8],
    options: sluice_json::WriterOptions,
) -> sluice_core::Result<String> {
    let mut reader = MsgPackReader::from_slice(bytes);
    let mut writer = JsonWriter::new(Vec::new(), options);
    pipe(&mut reader, &mut writer)?;
    writer.into_string()
}

/// Tokens compared by value: `normalize`, and a non-negative signed integer (JSON's `-0`)
/// counted as the same integer as its unsigned form.
fn by_value(tokens: &[Token]) -> Vec<Token> {
    normalize(tokens)
        .into_iter()
        .map(|token| match token {
            Token::Number(OwnedNumber::I64(v)) if v >= 0 => {
                Token::Number(OwnedNumber::U64(v.unsigned_abs()))
            }
            other => other,
        })
        .collect()
}

fn json_tokens(json: &[u8]) -> Vec<Token> {
    let mut reader = JsonReader::from_slice(json).with_options(json_options());
    Token::read_all(&mut reader).unwrap()
}

fn files(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension().is_some_and(|e| e == "json")
                && path.file_name().and_then(|n| n.to_str()).is_some_and(&keep)
        })
        .collect();
    paths.sort();
    paths
}

/// Whether `text` is integer syntax naming a value beyond the 64-bit range.
fn is_integer_beyond_64_bits(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && text.parse::<i64>().is_err()
        && text.parse::<u64>().is_err()
}

#[test]
fn json_to_msgpack_to_json_gives_back_every_corpus_value() {
    let (Some(bench), Some(roundtrip), Some(suite)) = (
        corpus_file("bench"),
        corpus_file("roundtrip"),
        corpus_file("json-test-suite/test_parsing"),
    ) else {
        return;
    };
    let mut paths = files(&bench, |_| true);
    paths.extend(files(&roundtrip, |_| true));
    paths.extend(files(&suite, |name| name.starts_with("y_")));
    let (mut same, mut too_large, mut integers, mut floats) = (0, Vec::new(), 0usize, 0usize);
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let json = std::fs::read(path).unwrap();
        let bytes = match json_to_msgpack(&json) {
            Ok(bytes) => bytes,
            Err(err) => {
                // The one thing MessagePack cannot hold: integers beyond 64 bits. The error
                // must name exactly such a number in the source.
                let span = err.span().expect("the error points into the JSON");
                let text = std::str::from_utf8(&json[span.range()]).unwrap();
                assert!(
                    err.code() == codes::INTEGER_TOO_LARGE && is_integer_beyond_64_bits(text),
                    "{name}: {err:?} at {text:?}"
                );
                too_large.push(name);
                continue;
            }
        };
        // Through the stream reader too, and back to JSON.
        let mut stream = MsgPackReader::from_read(bytes.as_slice());
        let streamed = Token::read_all(&mut stream).unwrap();
        assert_eq!(streamed, common::read_tokens(&bytes).unwrap(), "{name}");
        let back = msgpack_to_json(&bytes, sluice_json::WriterOptions::condensed())
            .unwrap_or_else(|err| panic!("{name}: {err:?}"));
        let original = by_value(&json_tokens(&json));
        let round_tripped = by_value(&json_tokens(back.as_bytes()));
        assert!(original == round_tripped, "{name}: value changed: {back}");
        // Integers stayed integers and floats floats (by_value compares typed numbers, so a
        // float written for an integer would have shown above); count them for the report.
        for token in &round_tripped {
            match token {
                Token::Number(OwnedNumber::F64(_)) => floats += 1,
                Token::Number(_) => integers += 1,
                _ => {}
            }
        }
        same += 1;
    }
    println!(
        "JSON → MessagePack → JSON: {same} of {} files give back the same value \
         ({integers} integers, {floats} floats); refused (integer beyond 64 bits): {too_large:?}",
        paths.len()
    );
    assert!(same >= 3 + 27 + 90, "too few files: {same}");
    assert!(too_large.len() <= 3, "{too_large:?}");
}

#[test]
fn floats_keep_their_exact_bits_and_integers_their_type_through_msgpack() {
    let json = br#"[0.1, 5e-324, 1.7976931348623157e308, -0.0, 2.2250738585072014e-308,
                    9007199254740993, 18446744073709551615, -9223372036854775808, 1.0, 1e22]"#;
    let bytes = json_to_msgpack(json).unwrap();
    let tokens = common::read_tokens(&bytes).unwrap();
    let entries: Vec<Entry> = tokens.iter().map(Token::entry).collect();
    assert_eq!(
        entries[1..11],
        [
            Entry::F64,
            Entry::F64,
            Entry::F64,
            Entry::F64,
            Entry::F64,
            Entry::U64,
            Entry::U64,
            Entry::I64,
            Entry::F64,
            Entry::F64
        ]
    );
    assert_eq!(tokens[1], Token::Number(OwnedNumber::F64(0.1)));
    assert_eq!(tokens[4], Token::Number(OwnedNumber::F64(-0.0)));
    assert_eq!(
        tokens[6],
        Token::Number(OwnedNumber::U64(9_007_199_254_740_993))
    );
    let back = msgpack_to_json(&bytes, sluice_json::WriterOptions::condensed()).unwrap();
    let reparsed: Vec<serde_json::Value> = serde_json::from_str(&back).unwrap();
    assert_eq!(reparsed[5].as_u64(), Some(9_007_199_254_740_993));
    assert_eq!(reparsed[7].as_i64(), Some(i64::MIN));
    assert_eq!(
        by_value(&json_tokens(back.as_bytes())),
        by_value(&json_tokens(json))
    );
}

#[test]
fn integers_beyond_64_bits_are_refused_at_their_span() {
    let json = b"[1, -123456789012345678901234567890]";
    let err = json_to_msgpack(json).unwrap_err();
    assert_eq!(err.code(), codes::INTEGER_TOO_LARGE);
    assert_eq!(err.span(), Some(sluice_core::Span::new(4, 35)));
    assert!(is_integer_beyond_64_bits("-123456789012345678901234567890"));
    assert!(!is_integer_beyond_64_bits("18446744073709551615"));
}

#[test]
fn a_streaming_json_reader_pipes_into_the_writer_with_unknown_lengths() {
    let Some(path) = corpus_file("bench/citm_catalog.json") else {
        return;
    };
    let json = std::fs::read(path).unwrap();
    let file = std::fs::File::open(corpus_file("bench/citm_catalog.json").unwrap()).unwrap();
    let mut reader = JsonReader::from_read(file).with_options(json_options());
    let mut writer = MsgPackWriter::new(Vec::new());
    pipe(&mut reader, &mut writer).unwrap();
    let streamed = writer.into_inner().unwrap();
    assert_eq!(streamed, json_to_msgpack(&json).unwrap());
    // The headers are the smallest: the same bytes as writing with known lengths.
    let known = common::read_tokens(&streamed).unwrap();
    assert_eq!(common::write_tokens(&known).unwrap(), streamed);
}

fn json_writer_options(blob: BlobMode, ext: ExtMode) -> sluice_json::WriterOptions {
    sluice_json::WriterOptions {
        blob,
        ext,
        non_finite: NonFinite::Json5,
        multiple_values: true,
        ..sluice_json::WriterOptions::condensed()
    }
}

#[test]
fn every_valid_msgpack_value_can_be_written_as_json() {
    let tokens = sample_tokens(Features::MSGPACK);
    let bytes = common::write_tokens(&tokens).unwrap();
    let json = msgpack_to_json(
        &bytes,
        json_writer_options(BlobMode::Base64, ExtMode::Object),
    )
    .unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["blob"], "AAEC/v8=");
    assert_eq!(value["empty_blob"], "");
    assert_eq!(value["ext"]["$ext"], 42);
    assert_eq!(value["ext"]["data"], "AQID");
    assert_eq!(value["f32"], 1.5);
    assert_eq!(value["u64_max"].as_u64(), Some(u64::MAX));
    // Non-str keys become their text.
    assert_eq!(value["int_keys"]["1"], "one");
    assert_eq!(value["int_keys"]["true"], serde_json::Value::Null);

    // Bin and ext are errors unless asked for, and the error points at the value.
    let err = msgpack_to_json(
        &bytes,
        json_writer_options(BlobMode::Error, ExtMode::Object),
    )
    .unwrap_err();
    assert_eq!(err.code(), core::UNSUPPORTED);
    let span = err.span().unwrap();
    assert_eq!(bytes[span.start], 0xc4, "points at the bin");
    let err = msgpack_to_json(
        &bytes,
        json_writer_options(BlobMode::Base64, ExtMode::Error),
    )
    .unwrap_err();
    assert_eq!(err.code(), core::UNSUPPORTED);
}

#[test]
fn every_encoding_of_the_msgpack_test_suite_transcodes_to_json() {
    let Some(path) = corpus_file("msgpack-test-suite/msgpack-test-suite.json") else {
        return;
    };
    let suite: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut count = 0;
    for (group, cases) in &suite {
        for case in cases.as_array().unwrap() {
            for form in case["msgpack"].as_array().unwrap() {
                let bytes = common::hex(form.as_str().unwrap());
                let options = json_writer_options(BlobMode::Base64, ExtMode::Object);
                let json = msgpack_to_json(&bytes, options)
                    .unwrap_or_else(|err| panic!("{group} {form}: {err:?}"));
                let value: serde_json::Value = serde_json::from_str(&json).unwrap();
                // Plain JSON values come out as the suite states them.
                for key in ["nil", "bool", "string", "array", "map"] {
                    if let Some(expected) = case.get(key) {
                        assert_eq!(&value, expected, "{group} {form}");
                    }
                }
                if let Some(expected) = case.get("number") {
                    let (got, expected) = (value.as_f64().unwrap(), expected.as_f64().unwrap());
                    if bytes[0] == 0xca {
                        // A float 32 is written as the shortest text of the f32.
                        #[allow(clippy::cast_possible_truncation)]
                        let same = got as f32 == expected as f32;
                        assert!(same, "{group} {form}: {got} vs {expected}");
                    } else {
                        assert_eq!(got, expected, "{group} {form}");
                    }
                }
                count += 1;
            }
        }
    }
    println!("msgpack-test-suite → JSON: {count} encodings");
    assert_eq!(count, 233);
}
