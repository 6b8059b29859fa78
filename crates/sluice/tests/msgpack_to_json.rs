//! MessagePack piped into the JSON writer: the tokens no JSON reader produces (bin, ext,
//! keys that are not strings, 64-bit and 32-bit extremes, non-finite floats, broken maps)
//! become JSON by the rules of the MessagePack chapter, or stop the pipe with a code at
//! the offending bytes; the output always reads back as JSON.

use sluice::core::{ErrorCode, Span, Token, codes as core_codes};
use sluice::json::{
    BlobMode, ExtMode, JsonOptions, JsonReader, JsonWriter, NonFinite, WriterOptions,
    codes as json_codes,
};
use sluice::msgpack::{MsgPackReader, codes as msgpack_codes};

/// `bytes` piped into a JSON writer with `options`: the text, or the error's code and span.
fn to_json(bytes: &[u8], options: WriterOptions) -> Result<String, (String, Option<Span>)> {
    let mut reader = MsgPackReader::from_slice(bytes);
    let mut writer = JsonWriter::new(Vec::new(), options);
    let text = sluice::pipe(&mut reader, &mut writer)
        .and_then(|()| writer.into_string())
        .map_err(|err| (err.code().to_string(), err.span()))?;
    // Whatever was written reads back: as JSON, or as JSON5 when its literals were asked for.
    let json5 = text.contains("NaN") || text.contains("Infinity");
    let options = if json5 {
        JsonOptions::json5()
    } else {
        JsonOptions::default()
    };
    Token::read_all(&mut JsonReader::from_str(&text).with_options(options))
        .unwrap_or_else(|err| panic!("{text:?} does not read back: {err}"));
    Ok(text)
}

fn condensed(bytes: &[u8]) -> Result<String, (String, Option<Span>)> {
    to_json(bytes, WriterOptions::condensed())
}

fn with_non_finite(non_finite: NonFinite) -> WriterOptions {
    WriterOptions {
        non_finite,
        ..WriterOptions::condensed()
    }
}

fn transcoding() -> WriterOptions {
    WriterOptions {
        blob: BlobMode::Base64,
        ext: ExtMode::Object,
        ..WriterOptions::condensed()
    }
}

fn fails(code: ErrorCode, start: usize, end: usize) -> Result<String, (String, Option<Span>)> {
    Err((code.to_string(), Some(Span { start, end })))
}

const F64_NEG_ZERO: [u8; 9] = [0xcb, 0x80, 0, 0, 0, 0, 0, 0, 0];
const F64_INFINITY: [u8; 9] = [0xcb, 0x7f, 0xf0, 0, 0, 0, 0, 0, 0];
const F32_NAN: [u8; 5] = [0xca, 0x7f, 0xc0, 0, 0];
const U64_MAX: [u8; 9] = [0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
const I64_MIN: [u8; 9] = [0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0];

#[test]
fn the_widest_integers_keep_every_digit_and_negative_zero_keeps_its_sign() {
    let mut array = vec![0x94];
    array.extend(U64_MAX);
    array.extend(I64_MIN);
    array.extend(F64_NEG_ZERO);
    array.extend([0xca, 0x80, 0, 0, 0]); // f32 -0.0
    assert_eq!(
        condensed(&array).unwrap(),
        "[18446744073709551615,-9223372036854775808,-0.0,-0.0]"
    );
}

#[test]
fn a_float_32_is_written_in_its_own_shortest_form() {
    // 1.1f32 and f32::MAX: widened to f64 they would print 17 digits.
    let array = [
        0x92, 0xca, 0x3f, 0x8c, 0xcc, 0xcd, 0xca, 0x7f, 0x7f, 0xff, 0xff,
    ];
    assert_eq!(condensed(&array).unwrap(), "[1.1,3.4028235e+38]");
}

#[test]
fn non_finite_floats_follow_each_non_finite_setting_as_values() {
    let mut array = vec![0x92];
    array.extend(F64_INFINITY);
    array.extend(F32_NAN);
    assert_eq!(
        to_json(&array, with_non_finite(NonFinite::Error)),
        fails(json_codes::NON_FINITE_NUMBER, 1, 10)
    );
    assert_eq!(
        to_json(&array, with_non_finite(NonFinite::Json5)).unwrap(),
        "[Infinity,NaN]"
    );
    assert_eq!(
        to_json(&array, with_non_finite(NonFinite::Null)).unwrap(),
        "[null,null]"
    );
}

#[test]
fn non_finite_keys_follow_the_non_finite_setting_spelled_as_keys() {
    let mut map = vec![0x81];
    map.extend(F64_INFINITY);
    map.push(0x01);
    assert_eq!(
        to_json(&map, with_non_finite(NonFinite::Error)),
        fails(json_codes::NON_FINITE_NUMBER, 1, 10)
    );
    assert_eq!(
        to_json(&map, with_non_finite(NonFinite::Json5)).unwrap(),
        r#"{"Infinity":1}"#
    );
    assert_eq!(
        to_json(&map, with_non_finite(NonFinite::Null)).unwrap(),
        r#"{"null":1}"#
    );
}

#[test]
fn keys_that_are_not_strings_are_written_as_their_text() {
    let mut map = vec![0x86];
    map.extend([0x01, 0xa1, b'a']); // 1
    map.extend([0xc3, 0xa1, b'b']); // true
    map.extend([0xc0, 0xa1, b'c']); // nil
    map.extend(U64_MAX);
    map.extend([0xa1, b'd']);
    map.extend(F64_NEG_ZERO);
    map.extend([0xa1, b'e']);
    map.extend([0xd0, 0x80, 0xa1, b'f']); // int 8 -128
    assert_eq!(
        condensed(&map).unwrap(),
        r#"{"1":"a","true":"b","null":"c","18446744073709551615":"d","-0.0":"e","-128":"f"}"#
    );
}

#[test]
fn an_empty_str_key_is_an_empty_json_key() {
    assert_eq!(condensed(&[0x81, 0xa0, 0xc0]).unwrap(), r#"{"":null}"#);
}

#[test]
fn a_container_as_a_key_is_an_invalid_structure_at_the_container() {
    for key in [0x90, 0x80] {
        assert_eq!(
            condensed(&[0x81, key, 0xc0]),
            fails(core_codes::INVALID_STRUCTURE, 1, 2)
        );
    }
}

#[test]
fn bin_is_unsupported_by_default_and_base64_on_request() {
    let array = [0x91, 0xc4, 2, 0xff, 0x00];
    assert_eq!(condensed(&array), fails(core_codes::UNSUPPORTED, 1, 5));
    assert_eq!(to_json(&array, transcoding()).unwrap(), r#"["/wA="]"#);
}

#[test]
fn bin_as_a_key_is_refused_whatever_the_blob_mode() {
    let map = [0x81, 0xc4, 2, 0xff, 0x00, 0xc0];
    assert_eq!(condensed(&map), fails(core_codes::UNSUPPORTED, 1, 5));
    assert_eq!(
        to_json(&map, transcoding()),
        fails(core_codes::INVALID_STRUCTURE, 1, 5)
    );
}

#[test]
fn ext_is_unsupported_by_default_and_an_object_on_request_wherever_a_value_stands() {
    let fixext1 = [0xd4, 5, 0x61];
    assert_eq!(condensed(&fixext1), fails(core_codes::UNSUPPORTED, 0, 3));
    assert_eq!(
        to_json(&fixext1, transcoding()).unwrap(),
        r#"{"$ext":5,"data":"YQ=="}"#
    );
    let member = [0x81, 0xa1, b'k', 0xd4, 5, 0x61];
    assert_eq!(condensed(&member), fails(core_codes::UNSUPPORTED, 3, 6));
    assert_eq!(
        to_json(&member, transcoding()).unwrap(),
        r#"{"k":{"$ext":5,"data":"YQ=="}}"#
    );
    // The timestamp extension (type -1) too: its payload as it is, not a decoded time.
    let timestamp = [0x91, 0xd6, 0xff, 0, 0, 0, 1];
    assert_eq!(
        to_json(&timestamp, transcoding()).unwrap(),
        r#"[{"$ext":-1,"data":"AAAAAQ=="}]"#
    );
}

#[test]
fn ext_as_a_key_is_refused_whatever_the_ext_mode() {
    let map = [0x81, 0xd4, 5, 0x61, 0xc0];
    assert_eq!(condensed(&map), fails(core_codes::UNSUPPORTED, 1, 4));
    assert_eq!(
        to_json(&map, transcoding()),
        fails(core_codes::INVALID_STRUCTURE, 1, 4)
    );
}

#[test]
fn a_str_that_is_not_utf8_stops_the_pipe_at_its_bad_bytes_as_value_or_key() {
    assert_eq!(
        condensed(&[0xa2, 0xff, 0xfe]),
        fails(msgpack_codes::INVALID_UTF8, 1, 2)
    );
    assert_eq!(
        condensed(&[0x81, 0xa2, 0xff, 0xfe, 0xc0]),
        fails(msgpack_codes::INVALID_UTF8, 2, 3)
    );
}

#[test]
fn a_map_with_an_odd_number_of_items_is_refused_at_its_header_before_any_output() {
    // fixmap of two entries holding three items: the last value is missing.
    assert_eq!(
        condensed(&[0x82, 0x01, 0x02, 0x03]),
        fails(msgpack_codes::LENGTH_EXCEEDS_INPUT, 0, 1)
    );
}

#[test]
fn nesting_beyond_the_readers_depth_limit_stops_the_pipe_at_the_deepest_header() {
    let mut deep = vec![0x91; 200];
    deep.push(0xc0);
    assert_eq!(
        to_json(&deep, WriterOptions::pretty()),
        fails(core_codes::DEPTH_EXCEEDED, 128, 129)
    );
    let mut within = vec![0x91; 128];
    within.push(0xc0);
    let text = condensed(&within).unwrap();
    assert_eq!(text, format!("{}null{}", "[".repeat(128), "]".repeat(128)));
}

fn checked() -> WriterOptions {
    WriterOptions {
        reject_duplicate_keys: true,
        ..WriterOptions::condensed()
    }
}

#[test]
fn keys_that_differ_in_messagepack_but_share_their_text_are_refused_with_the_check() {
    // {1: "a", "1": "b"}: the second key, "1" at bytes 4..6, would be the JSON key "1" again.
    let map = [0x82, 0x01, 0xa1, b'a', 0xa1, b'1', 0xa1, b'b'];
    assert_eq!(
        to_json(&map, checked()),
        Err((
            json_codes::DUPLICATE_KEY.to_string(),
            Some(Span { start: 4, end: 6 })
        ))
    );
    // Nothing of the refused member is written: the output stops after the first one.
    let mut writer = JsonWriter::new(Vec::new(), checked());
    sluice::pipe(&mut MsgPackReader::from_slice(&map), &mut writer).unwrap_err();
    let (_, unsent) = writer.into_parts();
    assert_eq!(unsent, br#"{"1":"a""#);
    // Every kind of key that becomes the text of another: bool, nil, a NaN written as
    // `null`, a float and its text, the same string twice.
    let nan_as_null = WriterOptions {
        non_finite: NonFinite::Null,
        ..checked()
    };
    let cases: [(&[u8], WriterOptions, usize); 5] = [
        // {true: 1, "true": 2}
        (
            &[0x82, 0xc3, 0x01, 0xa4, b't', b'r', b'u', b'e', 0x02],
            checked(),
            3,
        ),
        // {nil: 1, "null": 2}
        (
            &[0x82, 0xc0, 0x01, 0xa4, b'n', b'u', b'l', b'l', 0x02],
            checked(),
            3,
        ),
        // {NaN (float 64): 1, nil: 2}, NaN written as null
        (
            &[0x82, 0xcb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0, 0x01, 0xc0, 0x02],
            nan_as_null,
            11,
        ),
        // {"1.5": 1, 1.5 (float 32): 2}
        (
            &[
                0x82, 0xa3, b'1', b'.', b'5', 0x01, 0xca, 0x3f, 0xc0, 0, 0, 0x02,
            ],
            checked(),
            6,
        ),
        // {"a": 1, "a": 2}
        (&[0x82, 0xa1, b'a', 0x01, 0xa1, b'a', 0x02], checked(), 4),
    ];
    for (bytes, options, at) in cases {
        let (code, span) = to_json(bytes, options).unwrap_err();
        assert_eq!(code, json_codes::DUPLICATE_KEY.to_string(), "{bytes:x?}");
        assert_eq!(span.map(|span| span.start), Some(at), "{bytes:x?}");
    }
}

#[test]
fn keys_that_share_their_text_are_each_in_their_own_map_with_the_check() {
    // [{1: {1: nil}, "2": [{1: nil}]}, {1: nil}]: a key of a nested map, of a map in an
    // array, of a sibling is no duplicate.
    let bytes = [
        0x92, 0x82, 0x01, 0x81, 0x01, 0xc0, 0xa1, b'2', 0x91, 0x81, 0x01, 0xc0, 0x81, 0x01, 0xc0,
    ];
    assert_eq!(
        to_json(&bytes, checked()).unwrap(),
        r#"[{"1":{"1":null},"2":[{"1":null}]},{"1":null}]"#
    );
    // A map of 100 keys, 0 to 99 as integers, then "99" as a string: past the size where the
    // writer's key set changes how it looks keys up.
    let mut map = vec![0xde, 0, 101];
    for key in 0..100u8 {
        map.push(key);
        map.push(0xc0);
    }
    map.extend([0xa2, b'9', b'9', 0xc0]);
    let (code, span) = to_json(&map, checked()).unwrap_err();
    assert_eq!(code, json_codes::DUPLICATE_KEY.to_string());
    assert_eq!(
        span,
        Some(Span {
            start: 203,
            end: 206
        })
    );
}

#[test]
fn keys_that_differ_in_messagepack_but_share_their_text_are_both_written_without_the_check() {
    // The writer's default: `1` and `"1"` give the key `"1"` twice, which the JSON reader
    // refuses by default.
    let map = [0x82, 0x01, 0xa1, b'a', 0xa1, b'1', 0xa1, b'b'];
    let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
    sluice::pipe(&mut MsgPackReader::from_slice(&map), &mut writer).unwrap();
    let text = writer.into_string().unwrap();
    assert_eq!(text, r#"{"1":"a","1":"b"}"#);
    let err = Token::read_all(&mut JsonReader::from_str(&text)).unwrap_err();
    assert_eq!(err.code(), json_codes::DUPLICATE_KEY);
    assert_eq!(err.span(), Some(Span { start: 9, end: 12 }));
}
