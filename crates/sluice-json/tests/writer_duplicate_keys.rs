//! `WriterOptions::reject_duplicate_keys`: which keys are the same key, which objects they
//! are compared in, what is written when one is refused, and that the writer without the
//! check writes what it always wrote.

mod common;

use common::StingySink;
use sluice_core::testing::{Features, sample_tokens};
use sluice_core::{Number, Result, Span, Token, Writer, codes as core_codes, pipe};
use sluice_json::{
    DuplicateKeys, JsonOptions, JsonReader, JsonWriter, NdjsonWriter, NonFinite, WriterOptions,
    codes,
};

fn checked(options: WriterOptions) -> WriterOptions {
    WriterOptions {
        reject_duplicate_keys: true,
        ..options
    }
}

/// A writer with the check on, and everything it has written so far (flushed or not).
fn output(writer: JsonWriter<Vec<u8>>) -> String {
    let (mut sink, unsent) = writer.into_parts();
    sink.extend_from_slice(&unsent);
    String::from_utf8(sink).unwrap()
}

/// A call that writes a key (or a value).
type WriteKey = fn(&mut JsonWriter<Vec<u8>>) -> Result<()>;

/// One way of writing a key: the text it is written as, and the call.
type KeyWrite = (&'static str, WriteKey);

#[test]
fn a_key_written_twice_in_one_object_is_refused_before_any_byte_of_it() {
    for options in [WriterOptions::condensed(), WriterOptions::pretty()] {
        let mut writer = JsonWriter::new(Vec::new(), checked(options.clone()));
        writer.write_map_root(None).unwrap();
        writer.write_name("a").unwrap();
        writer.write_u64(1).unwrap();
        let before = output_so_far(&mut writer);
        for again in [
            JsonWriter::write_name as fn(&mut JsonWriter<Vec<u8>>, &str) -> Result<()>,
            JsonWriter::write_str,
        ] {
            let err = again(&mut writer, "a").unwrap_err();
            assert_eq!(err.code(), codes::DUPLICATE_KEY);
            // Not even the comma or the line break before it.
            assert_eq!(output_so_far(&mut writer), before);
        }
        // The object is still open, waiting for a key: another one, or its end.
        writer.write_name("b").unwrap();
        writer.write_u64(2).unwrap();
        writer.write_map_end().unwrap();
        let expected = if options.pretty {
            "{\n  \"a\": 1,\n  \"b\": 2\n}"
        } else {
            r#"{"a":1,"b":2}"#
        };
        assert_eq!(writer.into_string().unwrap(), expected);
    }
}

/// What `writer` has written so far, flushed into its sink.
fn output_so_far(writer: &mut JsonWriter<Vec<u8>>) -> String {
    writer.flush().unwrap();
    String::from_utf8(writer.get_ref().clone()).unwrap()
}

#[test]
fn keys_of_other_types_are_the_same_key_as_a_string_of_their_text() {
    let nan_as_null = WriterOptions {
        non_finite: NonFinite::Null,
        ..WriterOptions::condensed()
    };
    let nan_as_json5 = WriterOptions {
        non_finite: NonFinite::Json5,
        ..WriterOptions::condensed()
    };
    let cases: [(WriterOptions, KeyWrite, &str); 12] = [
        (WriterOptions::condensed(), ("1", |w| w.write_u64(1)), "1"),
        (
            WriterOptions::condensed(),
            ("-1", |w| w.write_i64(-1)),
            "-1",
        ),
        (
            WriterOptions::condensed(),
            ("true", |w| w.write_bool(true)),
            "true",
        ),
        (
            WriterOptions::condensed(),
            ("false", |w| w.write_bool(false)),
            "false",
        ),
        (
            WriterOptions::condensed(),
            ("null", |w| w.write_null()),
            "null",
        ),
        (
            WriterOptions::condensed(),
            ("1.5", |w| w.write_f64(1.5)),
            "1.5",
        ),
        (
            WriterOptions::condensed(),
            ("1.1", |w| w.write_f32(1.1)),
            "1.1",
        ),
        (
            WriterOptions::condensed(),
            ("2.50", |w| {
                w.write_number(Number::Text("2.50", sluice_core::NumberHint::Float))
            }),
            "2.50",
        ),
        (
            WriterOptions::condensed(),
            ("-170141183460469231731687303715884105728", |w| {
                w.write_i128(i128::MIN)
            }),
            "-170141183460469231731687303715884105728",
        ),
        (
            nan_as_null.clone(),
            ("null", |w| w.write_f64(f64::NAN)),
            "null",
        ),
        (
            nan_as_null,
            ("null", |w| w.write_f64(f64::INFINITY)),
            "null",
        ),
        (
            nan_as_json5,
            ("-Infinity", |w| w.write_f32(f32::NEG_INFINITY)),
            "-Infinity",
        ),
    ];
    for (options, (text, write_key), string) in cases {
        // The typed key first, then the string; and the other way round.
        let mut writer = JsonWriter::new(Vec::new(), checked(options.clone()));
        writer.write_map_root(None).unwrap();
        write_key(&mut writer).unwrap();
        writer.write_u64(0).unwrap();
        let err = writer.write_str(string).unwrap_err();
        assert_eq!(err.code(), codes::DUPLICATE_KEY, "{text}");
        assert_eq!(output(writer), format!("{{\"{text}\":0"));

        let mut writer = JsonWriter::new(Vec::new(), checked(options.clone()));
        writer.write_map_root(None).unwrap();
        writer.write_name(string).unwrap();
        writer.write_u64(0).unwrap();
        let err = write_key(&mut writer).unwrap_err();
        assert_eq!(err.code(), codes::DUPLICATE_KEY, "{text}");
        assert_eq!(output(writer), format!("{{\"{string}\":0"));

        // Twice the same typed key.
        let mut writer = JsonWriter::new(Vec::new(), checked(options));
        writer.write_map_root(None).unwrap();
        write_key(&mut writer).unwrap();
        writer.write_u64(0).unwrap();
        assert_eq!(
            write_key(&mut writer).unwrap_err().code(),
            codes::DUPLICATE_KEY
        );
    }
}

#[test]
fn keys_whose_text_differs_are_different_keys_whatever_their_value() {
    // 1 and 1.0 are equal numbers, but a reader sees the keys "1" and "1.0".
    let mut writer = JsonWriter::new(Vec::new(), checked(WriterOptions::condensed()));
    writer.write_map_root(None).unwrap();
    let keys: [WriteKey; 7] = [
        |w| w.write_u64(1),
        |w| w.write_f64(1.0),
        |w| w.write_str("01"),
        |w| w.write_str("1e0"),
        |w| w.write_str("True"),
        |w| w.write_str("1 "),
        |w| w.write_str(""),
    ];
    for key in keys {
        key(&mut writer).unwrap();
        writer.write_null().unwrap();
    }
    writer.write_map_end().unwrap();
    assert_eq!(
        writer.into_string().unwrap(),
        r#"{"1":null,"1.0":null,"01":null,"1e0":null,"True":null,"1 ":null,"":null}"#
    );
}

#[test]
fn keys_compare_by_their_text_not_by_how_it_is_escaped() {
    // Escaped in the output, compared as text: a quote, a control character, and with
    // `escape_non_ascii` a character written as `\u` escapes.
    let options = WriterOptions {
        escape_non_ascii: true,
        ..checked(WriterOptions::condensed())
    };
    for key in ["a\"b", "tab\t", "é", "😀", "a\\u0061"] {
        let mut writer = JsonWriter::new(Vec::new(), options.clone());
        writer.write_map_root(None).unwrap();
        writer.write_name(key).unwrap();
        writer.write_null().unwrap();
        assert_eq!(
            writer.write_str(key).unwrap_err().code(),
            codes::DUPLICATE_KEY,
            "{key:?}"
        );
        // A key that differs in its last character is new.
        writer.write_name(&format!("{key}.")).unwrap();
        writer.write_null().unwrap();
        writer.write_map_end().unwrap();
        writer.into_string().unwrap();
    }
}

#[test]
fn each_object_compares_its_keys_with_its_own_only() {
    // Nested objects, siblings in an array, the parent after a nested object, siblings
    // as member values: every `a` here is in an object of its own.
    let text =
        r#"{"a":{"a":{"a":1},"b":{"a":2}},"b":[{"a":1},{"a":2},[{"a":3}]],"c":{},"d":{"a":{}}}"#;
    for options in [WriterOptions::condensed(), WriterOptions::pretty()] {
        let mut writer = JsonWriter::new(Vec::new(), checked(options.clone()));
        pipe(&mut JsonReader::from_str(text), &mut writer).unwrap();
        let plain = {
            let mut writer = JsonWriter::new(Vec::new(), options);
            pipe(&mut JsonReader::from_str(text), &mut writer).unwrap();
            writer.into_string().unwrap()
        };
        assert_eq!(writer.into_string().unwrap(), plain);
    }
    // The parent still holds its keys after a nested object (deeper than it) ended...
    let tokens = Token::read_all(&mut JsonReader::from_str(
        r#"{"a":{"b":1,"c":{"d":2}},"e":[{"f":3}],"a":0}"#,
    ))
    .unwrap_err();
    assert_eq!(tokens.code(), codes::DUPLICATE_KEY, "the reader agrees");
    let mut writer = JsonWriter::new(Vec::new(), checked(WriterOptions::condensed()));
    let err = pipe(
        &mut JsonReader::from_str(r#"{"a":{"b":1,"c":{"d":2}},"e":[{"f":3}],"a":0}"#)
            .with_options(last_wins()),
        &mut writer,
    )
    .unwrap_err();
    assert_eq!(err.code(), codes::DUPLICATE_KEY);
    assert_eq!(err.span(), Some(Span { start: 39, end: 42 }));
    // ... and a nested object after an earlier sibling at its depth starts afresh, and
    // still sees its own duplicate.
    let mut writer = JsonWriter::new(Vec::new(), checked(WriterOptions::condensed()));
    let err = pipe(
        &mut JsonReader::from_str(r#"[{"x":1,"y":2},{"y":1,"x":2,"y":3}]"#)
            .with_options(last_wins()),
        &mut writer,
    )
    .unwrap_err();
    assert_eq!(err.code(), codes::DUPLICATE_KEY);
    assert_eq!(err.span(), Some(Span { start: 28, end: 31 }));
    assert_eq!(output(writer), r#"[{"x":1,"y":2},{"y":1,"x":2"#);
}

fn last_wins() -> JsonOptions {
    JsonOptions {
        duplicate_keys: DuplicateKeys::LastWins,
        ..JsonOptions::default()
    }
}

#[test]
fn root_values_and_ndjson_records_have_keys_of_their_own() {
    let options = WriterOptions {
        multiple_values: true,
        ..checked(WriterOptions::condensed())
    };
    let mut writer = JsonWriter::new(Vec::new(), options);
    let mut ndjson = NdjsonWriter::with_options(Vec::new(), checked(WriterOptions::condensed()));
    for _ in 0..3 {
        for w in [&mut writer as &mut dyn Writer, &mut ndjson] {
            w.write_map_root(None).unwrap();
            w.write_name("id").unwrap();
            w.write_u64(7).unwrap();
            w.write_map_end().unwrap();
        }
    }
    assert_eq!(
        writer.into_string().unwrap(),
        "{\"id\":7}\n{\"id\":7}\n{\"id\":7}"
    );
    // Within a record, the NDJSON writer refuses as the JSON writer does, and the record
    // is still open: nothing of it reaches the sink.
    ndjson.write_map_root(None).unwrap();
    ndjson.write_name("id").unwrap();
    ndjson.write_u64(7).unwrap();
    let err = ndjson.write_name("id").unwrap_err();
    assert_eq!(err.code(), codes::DUPLICATE_KEY);
    ndjson.flush().unwrap();
    assert_eq!(ndjson.get_ref(), b"{\"id\":7}\n{\"id\":7}\n{\"id\":7}\n");
    let (_, unsent) = ndjson.into_parts();
    assert_eq!(unsent, b"{\"id\":7");
}

#[test]
fn duplicates_are_found_in_objects_past_the_small_object_limit() {
    for count in [63, 64, 65, 200, 5000] {
        let mut writer = JsonWriter::new(Vec::new(), checked(WriterOptions::condensed()));
        writer.write_map_root(None).unwrap();
        for i in 0..count {
            // Alternately numbers and strings: the same kinds of key as MessagePack gives.
            if i % 2 == 0 {
                writer.write_u64(i).unwrap();
            } else {
                writer.write_name(&i.to_string()).unwrap();
            }
            // A large nested object in every 50th value, with the parent's keys.
            if i % 50 == 0 {
                writer.write_map_root(None).unwrap();
                for j in 0..100u64 {
                    writer.write_name(&j.to_string()).unwrap();
                    writer.write_null().unwrap();
                }
                writer.write_map_end().unwrap();
            } else {
                writer.write_null().unwrap();
            }
        }
        for i in [0, 1, 62, count / 2, count - 1] {
            assert_eq!(
                writer.write_str(&i.to_string()).unwrap_err().code(),
                codes::DUPLICATE_KEY,
                "{i} of {count}"
            );
            assert_eq!(
                writer.write_u64(i).unwrap_err().code(),
                codes::DUPLICATE_KEY,
                "{i} of {count}"
            );
        }
        writer.write_u64(count).unwrap();
        writer.write_null().unwrap();
        writer.write_map_end().unwrap();
        writer.into_string().unwrap();
    }
}

#[test]
fn a_key_where_none_may_stand_is_still_a_structure_error() {
    let mut writer = JsonWriter::new(Vec::new(), checked(WriterOptions::condensed()));
    assert_eq!(
        writer.write_name("a").unwrap_err().code(),
        core_codes::INVALID_STRUCTURE
    );
    writer.write_array_root(None).unwrap();
    assert_eq!(
        writer.write_name("a").unwrap_err().code(),
        core_codes::INVALID_STRUCTURE
    );
    writer.write_map_root(None).unwrap();
    writer.write_name("a").unwrap();
    assert_eq!(
        writer.write_name("a").unwrap_err().code(),
        core_codes::INVALID_STRUCTURE,
        "a key where the value is due"
    );
}

#[test]
fn without_the_check_a_key_is_written_as_often_as_it_is_given() {
    let tokens = [
        Token::MapRoot(None),
        Token::Name("a".into()),
        Token::Number(Number::U64(1).to_owned_number()),
        Token::Number(Number::U64(1).to_owned_number()),
        Token::Bool(true),
        Token::String("1".into()),
        Token::Null,
        Token::Name("a".into()),
        Token::Null,
        Token::MapEnd,
    ];
    let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
    Token::write_all(&tokens, &mut writer).unwrap();
    assert_eq!(
        writer.into_string().unwrap(),
        r#"{"a":1,"1":true,"1":null,"a":null}"#
    );
}

#[test]
fn a_stream_without_duplicates_is_written_the_same_with_the_check_on() {
    // The core sample stream (every token kind, nested objects and scalar keys) and a
    // JSON text read back: byte for byte what the writer without the check writes.
    let sample = sample_tokens(Features::MSGPACK);
    let text = r#"{"a":[{"b":1,"c":[{"b":2}]},{"b":3}],"d":{"e":{"f":{}}},"g":"h"}"#;
    let read = Token::read_all(&mut JsonReader::from_str(text)).unwrap();
    for tokens in [&sample, &read] {
        for layout in [WriterOptions::condensed(), WriterOptions::pretty()] {
            let layout = WriterOptions {
                multiple_values: true,
                non_finite: NonFinite::Json5,
                blob: sluice_json::BlobMode::Base64,
                ext: sluice_json::ExtMode::Object,
                ..layout
            };
            let write = |options: WriterOptions| {
                let mut writer = JsonWriter::new(Vec::new(), options);
                Token::write_all(tokens, &mut writer).unwrap();
                writer.into_string().unwrap()
            };
            assert_eq!(write(checked(layout.clone())), write(layout));
        }
    }
}

/// A sink that takes at most `chunk` bytes a call, and fails every third call: a flush
/// hands over part of the writer's buffer, never all of it at once.
fn stingy(chunk: usize) -> StingySink {
    StingySink::new(chunk, |call| {
        call.is_multiple_of(3)
            .then(|| Err(std::io::Error::other("not now")))
    })
}

#[test]
fn a_key_is_found_twice_after_its_first_occurrence_was_handed_to_the_sink() {
    // Objects far larger than the writer's buffer, nested ones ending between two of its
    // hand-overs, keys that are escaped in the output.
    let key = |i: u64| match i % 3 {
        0 => format!("k{i}"),
        1 => format!("quote\"{i}"),
        _ => format!("é{i}"),
    };
    for options in [
        WriterOptions::condensed(),
        WriterOptions::pretty(),
        WriterOptions {
            escape_non_ascii: true,
            ..WriterOptions::condensed()
        },
    ] {
        let mut writer = JsonWriter::new(Vec::new(), checked(options));
        writer.write_map_root(None).unwrap();
        let count = 6000;
        for i in 0..count {
            writer.write_name(&key(i)).unwrap();
            if i % 1000 == 0 {
                writer.write_map_root(None).unwrap();
                for j in 0..1500 {
                    writer.write_name(&key(j)).unwrap();
                    writer.write_u64(j).unwrap();
                }
                writer.write_map_end().unwrap();
            } else {
                writer.write_u64(i).unwrap();
            }
        }
        assert!(!writer.get_ref().is_empty(), "handed over along the way");
        writer.flush().unwrap();
        let before = writer.get_ref().len();
        for i in [0, 1, 2, 999, 1000, 1001, count / 2, count - 1] {
            let err = writer.write_name(&key(i)).unwrap_err();
            assert_eq!(err.code(), codes::DUPLICATE_KEY, "{}", key(i));
            let err = writer.write_str(&key(i)).unwrap_err();
            assert_eq!(err.code(), codes::DUPLICATE_KEY, "{}", key(i));
        }
        // Not a byte of the refused keys was written.
        writer.flush().unwrap();
        assert_eq!(writer.get_ref().len(), before);
        // Keys of the closed inner objects never count in the outer one.
        writer.write_name("fresh").unwrap();
        writer.write_null().unwrap();
        writer.write_map_end().unwrap();
        let text = writer.into_string().unwrap();
        let mut reader = JsonReader::from_str(&text);
        assert!(sluice_core::testing::read_checked(&mut reader).is_ok());
    }
}

#[test]
fn keys_are_checked_the_same_whatever_the_sink_takes_and_whenever_the_buffer_is_flushed() {
    // Random nested objects and arrays with keys from a small set, written with the check
    // on twice: into a string, never flushed, and into a sink that takes a few bytes a
    // call and often fails, flushed after random tokens. Every verdict must agree with a
    // model (a set of keys per open object), and both outputs must be the same text.
    let mut rng = sluice_core::testing::Rng::new(17);
    for round in 0..40 {
        let chunk = 1 + round % 7;
        let options = checked(if round % 2 == 0 {
            WriterOptions::condensed()
        } else {
            WriterOptions::pretty()
        });
        let mut whole = JsonWriter::for_string(options.clone());
        let mut flushed = JsonWriter::new(stingy(chunk), options);
        // Per open container: `Some(keys)` for an object, `None` for an array.
        let mut model: Vec<Option<std::collections::HashSet<String>>> =
            vec![Some(Default::default())];
        whole.write_map_root(None).unwrap();
        flushed.write_map_root(None).unwrap();
        let mut steps = 0;
        while !model.is_empty() {
            steps += 1;
            let in_object = model.last().unwrap().is_some();
            let choice = rng.next() % 10;
            if in_object {
                // Longer than 8 bytes: equal fingerprints are then told apart by the bytes.
                let n = rng.next() % 6;
                let name = format!("member_{n}_of_the_object");
                let as_number = rng.next().is_multiple_of(4);
                let write = |writer: &mut dyn Writer| {
                    if as_number {
                        writer.write_u64(1_000_000_000_000 + n)
                    } else {
                        writer.write_name(&name)
                    }
                };
                let text = if as_number {
                    (1_000_000_000_000 + n).to_string()
                } else {
                    name.clone()
                };
                let new = model.last_mut().unwrap().as_mut().unwrap().insert(text);
                for writer in [&mut whole as &mut dyn Writer, &mut flushed] {
                    match write(writer) {
                        Ok(()) => assert!(new, "round {round}: {name} written twice"),
                        Err(err) => {
                            assert!(!new, "round {round}: {name} refused");
                            assert_eq!(err.code(), codes::DUPLICATE_KEY);
                        }
                    }
                }
                if !new {
                    if choice < 3 || steps > 400 {
                        model.pop();
                        whole.write_map_end().unwrap();
                        flushed.write_map_end().unwrap();
                    }
                    continue;
                }
            } else if choice < 3 || steps > 400 {
                model.pop();
                whole.write_array_end().unwrap();
                flushed.write_array_end().unwrap();
                continue;
            }
            // A value: a scalar, or a container (fewer when deep or late).
            let open = if model.len() < 8 && steps < 300 {
                rng.next() % 3
            } else {
                2
            };
            match open {
                0 => {
                    model.push(Some(Default::default()));
                    whole.write_map_root(None).unwrap();
                    flushed.write_map_root(None).unwrap();
                }
                1 => {
                    model.push(None);
                    whole.write_array_root(None).unwrap();
                    flushed.write_array_root(None).unwrap();
                }
                _ => {
                    whole.write_str("value").unwrap();
                    flushed.write_str("value").unwrap();
                }
            }
            if in_object && choice < 2 && open == 2 {
                model.pop();
                whole.write_map_end().unwrap();
                flushed.write_map_end().unwrap();
            }
            if rng.next().is_multiple_of(3) {
                let _ = flushed.flush();
            }
        }
        while flushed.flush().is_err() {}
        let (sink, unsent) = flushed.into_parts();
        assert!(unsent.is_empty());
        assert_eq!(
            String::from_utf8(sink.data).unwrap(),
            whole.into_string().unwrap(),
            "round {round}"
        );
    }
}
