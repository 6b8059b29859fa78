//! The property writer's fast paths (field lookup by expected position, number text
//! converted without the general path, null into options and `()`, map keys) give the same
//! values and the same errors as the general paths.

use std::collections::BTreeMap;

use sluice_core::{Error, Number, NumberHint, ValueReader, pipe};
use sluice_json::{JsonOptions, JsonReader, SliceInput};
use sluice_reflect::{PropertyWriter, Reflect, Typed, codes};

fn from_json<T: Typed>(text: &str) -> Result<T, Error> {
    let mut value = T::reflect_default();
    let mut reader = JsonReader::new(SliceInput::new(text.as_bytes()), JsonOptions::default());
    pipe(&mut reader, &mut PropertyWriter::new(&mut value))?;
    Ok(value)
}

#[derive(Reflect, Debug, PartialEq)]
struct Record {
    id: u32,
    #[reflect(alias = "label")]
    name: String,
    ratio: f64,
    small: i8,
    flag: bool,
    note: Option<String>,
    nothing: (),
    #[reflect(default)]
    extra: u16,
}

#[test]
fn fields_in_any_order_and_by_alias() {
    let in_order: Record = from_json(
        r#"{"id": 7, "name": "a", "ratio": 0.5, "small": -3, "flag": true, "note": null, "nothing": null}"#,
    )
    .unwrap();
    let shuffled: Record = from_json(
        r#"{"nothing": null, "flag": true, "label": "a", "small": -3, "note": null, "ratio": 0.5, "id": 7}"#,
    )
    .unwrap();
    assert_eq!(in_order, shuffled);
    assert_eq!(
        in_order,
        Record {
            id: 7,
            name: "a".into(),
            ratio: 0.5,
            small: -3,
            flag: true,
            note: None,
            nothing: (),
            extra: 0,
        }
    );
}

#[test]
fn unknown_and_missing_fields_are_still_reported() {
    let unknown = from_json::<Record>(r#"{"id": 7, "nam": "a"}"#).unwrap_err();
    assert_eq!(unknown.code(), codes::UNKNOWN_FIELD);
    let missing = from_json::<Record>(r#"{"id": 7, "name": "a"}"#).unwrap_err();
    assert_eq!(missing.code(), codes::MISSING_FIELD);
}

#[test]
fn number_text_matches_the_general_conversion() {
    // Each text through the JSON reader and the property writer (which converts common
    // shapes itself) must agree with `Number`'s general conversion, in value and in error.
    fn check<'a, T: Typed + PartialEq + std::fmt::Debug>(
        text: &'a str,
        general: fn(Number<'a>) -> sluice_core::Result<T>,
    ) {
        let hint = NumberHint::of_text(text);
        match (from_json::<T>(text), general(Number::Text(text, hint))) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
            (Err(a), Err(b)) => assert_eq!(a.code(), b.code(), "{text}"),
            (a, b) => panic!("{text}: {a:?} vs {b:?}"),
        }
    }
    for text in [
        "0",
        "-0",
        "255",
        "256",
        "-1",
        "1.0",
        "1e2",
        "1.5",
        "18446744073709551615",
        "-9223372036854775808",
    ] {
        check::<u8>(text, Number::to_u8);
        check::<u32>(text, Number::to_u32);
        check::<u64>(text, Number::to_u64);
        check::<i8>(text, Number::to_i8);
        check::<i64>(text, Number::to_i64);
    }
    for text in [
        "0",
        "-0",
        "0.1",
        "-65.613616999999977",
        "43.420273000000009",
        "123456789012345678",
        "1e400",
        "2.5e-3",
        "9007199254740993",
        "0.30000000000000004",
    ] {
        check::<f64>(text, Number::to_f64);
        let ours: f64 = from_json(text).unwrap_or(f64::NAN);
        if let Ok(theirs) = Number::Text(text, NumberHint::Float).to_f64() {
            assert_eq!(ours.to_bits(), theirs.to_bits(), "{text}");
        }
    }
    let out_of_range = from_json::<u8>("256").unwrap_err();
    assert_eq!(out_of_range.code(), sluice_core::codes::NUMBER_OUT_OF_RANGE);
}

#[test]
fn map_keys_from_names() {
    let by_number: BTreeMap<u32, String> = from_json(r#"{"7": "a", "12": "b"}"#).unwrap();
    assert_eq!(
        by_number,
        BTreeMap::from([(7, "a".into()), (12, "b".into())])
    );
    let by_flag: BTreeMap<bool, u8> = from_json(r#"{"true": 1, "false": 0}"#).unwrap();
    assert_eq!(by_flag, BTreeMap::from([(true, 1), (false, 0)]));
    let bad = from_json::<BTreeMap<u32, String>>(r#"{"x": "a"}"#).unwrap_err();
    assert_eq!(bad.code(), sluice_core::codes::INVALID_NUMBER);
}

#[test]
fn null_into_options_unit_and_wrong_places() {
    let values: Vec<Option<u8>> = from_json("[null, 3, null]").unwrap();
    assert_eq!(values, [None, Some(3), None]);
    let units: Vec<()> = from_json("[null, null]").unwrap();
    assert_eq!(units.len(), 2);
    let wrong = from_json::<Vec<u8>>("[null]").unwrap_err();
    assert_eq!(wrong.code(), codes::WRONG_TYPE);
    // A typed value reader takes the same paths.
    let mut target: Option<u8> = Some(1);
    pipe(
        &mut ValueReader::new(&sluice_core::Value::Null),
        &mut PropertyWriter::new(&mut target),
    )
    .unwrap();
    assert_eq!(target, None);
}

// ---- typed number reads: the table's copy loop asks the reader for the place's type ----

/// Reads `text` through the built-in JSON table (its copy loop reads numbers in the type of
/// their place).
fn from_json_table<T: Typed>(text: &str, options: &JsonOptions) -> Result<T, Error> {
    let mut reader = JsonReader::new(SliceInput::new(text.as_bytes()), options.clone());
    sluice_reflect::handlers::builtin::json()
        .deserialize::<T, _>(&mut reader, &sluice_reflect::TypeRegistry::new())
}

/// Reads `text` with a plain `pipe` (numbers handed over as the reader gives them).
fn from_json_pipe<T: Typed>(text: &str, options: &JsonOptions) -> Result<T, Error> {
    let mut value = T::reflect_default();
    let mut reader = JsonReader::new(SliceInput::new(text.as_bytes()), options.clone());
    pipe(&mut reader, &mut PropertyWriter::new(&mut value))?;
    Ok(value)
}

/// Both reads agree: the same value, or an error with the same code, span, data path and
/// type path.
fn same_outcome<T: Typed + PartialEq + std::fmt::Debug>(text: &str, options: &JsonOptions) {
    match (
        from_json_table::<T>(text, options),
        from_json_pipe::<T>(text, options),
    ) {
        // Compared as text: NaN is not equal to itself, and -0.0 must stay -0.0.
        (Ok(typed), Ok(general)) => {
            assert_eq!(format!("{typed:?}"), format!("{general:?}"), "{text}");
        }
        (Err(typed), Err(general)) => {
            assert_eq!(typed.code(), general.code(), "{text}");
            assert_eq!(typed.span(), general.span(), "{text}");
            assert_eq!(
                typed.path().map(ToString::to_string),
                general.path().map(ToString::to_string),
                "{text}"
            );
            assert_eq!(typed.type_path(), general.type_path(), "{text}");
        }
        (typed, general) => panic!("{text}: typed {typed:?} vs general {general:?}"),
    }
}

macro_rules! holders {
    ($($holder:ident: $ty:ty;)*) => {
        $(
            #[derive(Reflect, Debug, PartialEq)]
            struct $holder {
                tag: bool,
                value: $ty,
                maybe: Option<$ty>,
                list: Vec<$ty>,
                pair: ($ty, $ty),
            }
        )*

        /// Every holder, with `number` in each of its numeric places in turn.
        fn check_all_places(number: &str, options: &JsonOptions) {
            let places = [
                format!(r#"{{"tag": true, "value": {number}, "maybe": 0, "list": [], "pair": [0, 0]}}"#),
                format!(r#"{{"tag": true, "value": 0, "maybe": {number}, "list": [], "pair": [0, 0]}}"#),
                format!(r#"{{"tag": true, "value": 0, "maybe": null, "list": [0, {number}], "pair": [0, 0]}}"#),
                format!(r#"{{"tag": true, "value": 0, "maybe": 0, "list": [], "pair": [0, {number}]}}"#),
                format!("[{number}]"),
            ];
            for text in &places[..4] {
                $(same_outcome::<$holder>(text, options);)*
            }
            $(same_outcome::<Vec<$ty>>(&places[4], options);)*
        }
    };
}

/// The typed read of `text` as a `T` agrees with `Number`'s general conversion.
fn matches_general<'a, T: Typed + std::fmt::Debug>(
    text: &'a str,
    general: fn(Number<'a>) -> sluice_core::Result<T>,
) {
    let hint = NumberHint::of_text(text);
    match (
        from_json_table::<T>(text, &JsonOptions::default()),
        general(Number::Text(text, hint)),
    ) {
        (Ok(typed), Ok(general)) => {
            assert_eq!(format!("{typed:?}"), format!("{general:?}"), "{text}");
        }
        (Err(typed), Err(general)) => assert_eq!(typed.code(), general.code(), "{text}"),
        (typed, general) => panic!("{text}: typed {typed:?} vs general {general:?}"),
    }
}

holders! {
    HoldF64: f64;
    HoldF32: f32;
    HoldI64: i64;
    HoldU64: u64;
    HoldI32: i32;
    HoldU32: u32;
    HoldI16: i16;
    HoldU16: u16;
    HoldI8: i8;
    HoldU8: u8;
    HoldI128: i128;
    HoldU128: u128;
}

#[test]
fn typed_number_reads_match_the_number_token_path() {
    for number in [
        "0",
        "-0",
        "1",
        "-1",
        "127",
        "128",
        "-128",
        "-129",
        "255",
        "256",
        "32767",
        "65535",
        "65536",
        "2147483647",
        "2147483648",
        "-2147483649",
        "4294967295",
        "4294967296",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        // 2^64: twenty digits whose running value wraps to zero in a naive digit count.
        "18446744073709551616",
        "123456789012345678901234567890",
        "1.0",
        "1.5",
        "-0.0",
        "1e2",
        "3e2",
        "1E+2",
        "2.5e-3",
        "0.1",
        "-65.613616999999977",
        "43.420273000000009",
        "9007199254740993",
        "1e38",
        "1e39",
        "3.5e38",
        "1e308",
        "1e400",
        "-1e400",
        "1e-400",
    ] {
        check_all_places(number, &JsonOptions::default());
    }
}

#[test]
fn typed_number_reads_match_the_general_conversion() {
    for text in [
        "0",
        "-0",
        "-1",
        "300",
        "70000",
        "-2147483649",
        "4294967296",
        "9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "36893488147419103232",
        "1.5",
        "2.5e1",
        "1e2",
        "-0.0",
        "0.30000000000000004",
        "-65.613616999999977",
        "1e39",
        "1e400",
    ] {
        matches_general::<f64>(text, Number::to_f64);
        matches_general::<f32>(text, Number::to_f32);
        matches_general::<i64>(text, Number::to_i64);
        matches_general::<u64>(text, Number::to_u64);
        matches_general::<i32>(text, Number::to_i32);
        matches_general::<u32>(text, Number::to_u32);
        matches_general::<i16>(text, Number::to_i16);
        matches_general::<u16>(text, Number::to_u16);
        matches_general::<i8>(text, Number::to_i8);
        matches_general::<u8>(text, Number::to_u8);
        matches_general::<i128>(text, Number::to_i128);
        matches_general::<u128>(text, Number::to_u128);
    }
}

#[test]
fn typed_number_reads_match_for_json5_numbers() {
    for number in [
        "0x1F",
        "-0x10",
        "+5",
        ".5",
        "5.",
        "Infinity",
        "-Infinity",
        "NaN",
    ] {
        check_all_places(number, &JsonOptions::json5());
    }
}

#[test]
fn typed_number_reads_report_code_span_and_path() {
    use sluice_core::{Span, codes as core_codes};
    fn span_of(text: &str, needle: &str) -> Option<Span> {
        let start = text.find(needle)?;
        Some(Span::new(start, start + needle.len()))
    }
    let cases: [(&str, sluice_core::ErrorCode, &str, &str); 6] = [
        (
            r#"{"tag": true, "value": 1.5, "maybe": 0, "list": [], "pair": [0, 0]}"#,
            core_codes::NUMBER_NOT_INTEGER,
            "1.5",
            "$.value",
        ),
        (
            r#"{"tag": true, "value": 0, "maybe": 300, "list": [], "pair": [0, 0]}"#,
            core_codes::NUMBER_OUT_OF_RANGE,
            "300",
            "$.maybe",
        ),
        (
            r#"{"tag": true, "value": 0, "maybe": 0, "list": [1, -1], "pair": [0, 0]}"#,
            core_codes::NUMBER_OUT_OF_RANGE,
            "-1",
            "$.list[1]",
        ),
        (
            r#"{"tag": true, "value": 0, "maybe": 0, "list": [], "pair": [0, 2.5e0]}"#,
            core_codes::NUMBER_NOT_INTEGER,
            "2.5e0",
            "$.pair[1]",
        ),
        (
            r#"{"tag": true, "value": 99999999999999999999, "maybe": 0, "list": [], "pair": [0, 0]}"#,
            core_codes::NUMBER_OUT_OF_RANGE,
            "99999999999999999999",
            "$.value",
        ),
        (
            r#"{"tag": true, "value": 0, "maybe": 0, "list": [], "pair": ["0", 0]}"#,
            codes::WRONG_TYPE,
            r#""0""#,
            "$.pair[0]",
        ),
    ];
    for (text, code, token, path) in cases {
        let error = from_json_table::<HoldU8>(text, &JsonOptions::default()).unwrap_err();
        assert_eq!(error.code(), code, "{text}");
        assert_eq!(error.span(), span_of(text, token), "{text}");
        assert_eq!(
            error.path().map(ToString::to_string).as_deref(),
            Some(path),
            "{text}"
        );
        assert!(
            error.type_path().is_some_and(|t| t.starts_with("HoldU8.")),
            "{text}: {:?}",
            error.type_path()
        );
    }
    // `1e400` is beyond the `f64` range: an error, not infinity.
    let text = r#"{"tag": true, "value": 1e400, "maybe": 0, "list": [], "pair": [0, 0]}"#;
    let error = from_json_table::<HoldF64>(text, &JsonOptions::default()).unwrap_err();
    assert_eq!(error.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(error.span(), span_of(text, "1e400"));
    // A number into a place that does not take one, and into an enum by discriminant.
    let error = from_json_table::<Vec<String>>("[1]", &JsonOptions::default()).unwrap_err();
    assert_eq!(error.code(), codes::WRONG_TYPE);
    assert_eq!(error.span(), Some(Span::new(1, 2)));
}

#[derive(Reflect, Debug, PartialEq, Default)]
enum Level {
    #[default]
    Low = 1,
    High = 5,
}

#[derive(Reflect, Debug, PartialEq, Default)]
struct Meters(f64);

#[test]
fn typed_number_reads_keep_the_other_places() {
    let levels: Vec<Level> = from_json_table("[5, 1]", &JsonOptions::default()).unwrap();
    assert_eq!(levels, [Level::High, Level::Low]);
    let missing = from_json_table::<Level>("3", &JsonOptions::default()).unwrap_err();
    assert_eq!(missing.code(), codes::ENUM_NAME_NOT_FOUND);
    let lengths: Vec<Meters> = from_json_table("[1.25, 2]", &JsonOptions::default()).unwrap();
    assert_eq!(lengths, [Meters(1.25), Meters(2.0)]);
    let boxed: Box<u16> = from_json_table("513", &JsonOptions::default()).unwrap();
    assert_eq!(*boxed, 513);
    let wide: (i128, u128) = from_json_table(
        "[-170141183460469231731687303715884105728, 340282366920938463463374607431768211455]",
        &JsonOptions::default(),
    )
    .unwrap();
    assert_eq!(wide, (i128::MIN, u128::MAX));
    // A number with no place left: the error points at the number.
    let error = from_json_table::<(u8,)>("[1, 22]", &JsonOptions::default()).unwrap_err();
    assert_eq!(error.code(), codes::LENGTH_MISMATCH);
    assert_eq!(error.span(), Some(sluice_core::Span::new(4, 6)));
    same_outcome::<(u8,)>("[1, 22]", &JsonOptions::default());
    same_outcome::<[f64; 1]>("[1, 2.5]", &JsonOptions::default());
}

#[derive(Reflect, Debug, PartialEq, Default)]
struct Pair(f64, f64);

#[derive(Reflect, Debug, PartialEq, Default)]
struct Wrapped((u8, u8));

#[test]
fn sequences_inside_growable_lists() {
    // Fixed-size elements (tuples, arrays) take the element fast path; the rest the general one.
    let tuples: Vec<Vec<(f64, f64)>> = from_json("[[[1, 2.5], [3, 4]], [], [[5, 6]]]").unwrap();
    assert_eq!(
        tuples,
        [vec![(1.0, 2.5), (3.0, 4.0)], vec![], vec![(5.0, 6.0)]]
    );
    let arrays: Vec<[u8; 2]> = from_json("[[1, 2], [3, 4]]").unwrap();
    assert_eq!(arrays, [[1, 2], [3, 4]]);
    let options: Vec<Option<(u8, u8)>> = from_json("[[1, 2], null]").unwrap();
    assert_eq!(options, [Some((1, 2)), None]);
    let structs: Vec<Pair> = from_json("[[1, 2]]").unwrap();
    assert_eq!(structs, [Pair(1.0, 2.0)]);
    let newtypes: Vec<Wrapped> = from_json("[[1, 2]]").unwrap();
    assert_eq!(newtypes, [Wrapped((1, 2))]);
    let nested: Vec<Vec<u8>> = from_json("[[1], [2, 3]]").unwrap();
    assert_eq!(nested, [vec![1], vec![2, 3]]);

    // Wrong lengths: the same code and path as everywhere else.
    let short = from_json::<Vec<(f64, f64)>>("[[1, 2], [3]]").unwrap_err();
    assert_eq!(short.code(), codes::LENGTH_MISMATCH);
    assert_eq!(short.path().unwrap().to_string(), "$[1][0]");
    let long = from_json::<Vec<[u8; 2]>>("[[1, 2, 3]]").unwrap_err();
    assert_eq!(long.code(), codes::LENGTH_MISMATCH);
    let wrong = from_json::<Vec<(u8, u8)>>("[{}]").unwrap_err();
    assert_eq!(wrong.code(), codes::WRONG_TYPE);
    assert_eq!(wrong.path().unwrap().to_string(), "$[0]");
}
