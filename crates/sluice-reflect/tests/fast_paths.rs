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
        let hint = if text.contains(['.', 'e', 'E']) {
            NumberHint::Float
        } else if text.starts_with('-') {
            NumberHint::NegInteger
        } else {
            NumberHint::Integer
        };
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
