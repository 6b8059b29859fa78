//! Numbers stay exact through the bridge: integers are parsed from their digits (never
//! through an `f64`), 128-bit integers get all of theirs, floats are correctly rounded and
//! written in their shortest round-trip form.

mod common;

use common::{reads_like_serde_json, same_as_serde_json};
use serde::{Deserialize, Serialize};
use sluice_core::{Value, codes as core_codes};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Extremes {
    u64_max: u64,
    i64_min: i64,
    i64_max: i64,
    u8_max: u8,
    i8_min: i8,
}

#[test]
fn integer_extremes_read_and_write_exactly() {
    let value = same_as_serde_json::<Extremes>(
        r#"{"u64_max": 18446744073709551615, "i64_min": -9223372036854775808,
            "i64_max": 9223372036854775807, "u8_max": 255, "i8_min": -128}"#,
    );
    assert_eq!(value.u64_max, u64::MAX);
    assert_eq!(value.i64_min, i64::MIN);
}

#[test]
fn u64_next_to_a_float_boundary_is_not_rounded() {
    // 2^53 + 1 is the first integer an f64 cannot hold.
    let value: u64 = sluice_serde::from_json_str("9007199254740993").unwrap();
    assert_eq!(value, 9_007_199_254_740_993);
    let value: i64 = sluice_serde::from_json_str("-9007199254740993").unwrap();
    assert_eq!(value, -9_007_199_254_740_993);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Wide {
    i128_min: i128,
    i128_max: i128,
    u128_max: u128,
}

#[test]
fn i128_and_u128_extremes() {
    let text = r#"{"i128_min": -170141183460469231731687303715884105728,
                   "i128_max": 170141183460469231731687303715884105727,
                   "u128_max": 340282366920938463463374607431768211455}"#;
    let value: Wide = reads_like_serde_json(text);
    assert_eq!(value.i128_min, i128::MIN);
    assert_eq!(value.u128_max, u128::MAX);
    common::writes_like_serde_json(&value);
    // Through a sluice Value too (typed I128/U128 numbers).
    let tree = sluice_serde::to_value(&value).unwrap();
    assert_eq!(sluice_serde::from_value::<Wide>(&tree).unwrap(), value);
    // MessagePack has no 128-bit integers: values beyond 64 bits are refused, not cut.
    let err = sluice_serde::to_msgpack_vec(&value).unwrap_err();
    assert_eq!(err.code(), sluice_msgpack::codes::INTEGER_TOO_LARGE);
    let small = Wide {
        i128_min: i128::from(i64::MIN),
        i128_max: i128::from(u64::MAX),
        u128_max: 0,
    };
    let bytes = sluice_serde::to_msgpack_vec(&small).unwrap();
    assert_eq!(
        sluice_serde::from_msgpack_slice::<Wide>(&bytes).unwrap(),
        small
    );
}

#[test]
fn deserialize_any_picks_the_type_from_the_number() {
    // serde_json::Value goes through deserialize_any.
    let value: serde_json::Value = sluice_serde::from_json_str(
        "[1, -1, 1.5, 18446744073709551615, -9223372036854775808, 1e2]",
    )
    .unwrap();
    assert!(value[0].is_u64());
    assert!(value[1].is_i64());
    assert!(value[2].is_f64());
    assert_eq!(value[3].as_u64(), Some(u64::MAX));
    assert_eq!(value[4].as_i64(), Some(i64::MIN));
    assert!(value[5].is_f64());

    // Integers beyond 64 bits are visited as i128 / u128.
    let seen: Vec<Seen> = sluice_serde::from_json_str(
        "[18446744073709551616, -9223372036854775809, 340282366920938463463374607431768211455, 7]",
    )
    .unwrap();
    assert_eq!(
        seen,
        [
            Seen::U128(18_446_744_073_709_551_616),
            Seen::I128(-9_223_372_036_854_775_809),
            Seen::U128(u128::MAX),
            Seen::U64(7),
        ]
    );
    // Beyond 128 bits there is no exact integer: an error, not a float.
    let err = sluice_serde::from_json_str::<Vec<Seen>>("[340282366920938463463374607431768211456]")
        .unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
}

/// Which visit method `deserialize_any` called.
#[derive(Debug, PartialEq)]
enum Seen {
    U64(u64),
    I64(i64),
    U128(u128),
    I128(i128),
    F64(f64),
}

impl<'de> Deserialize<'de> for Seen {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Seen, D::Error> {
        struct SeenVisitor;
        impl serde::de::Visitor<'_> for SeenVisitor {
            type Value = Seen;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number")
            }
            fn visit_u64<E>(self, v: u64) -> Result<Seen, E> {
                Ok(Seen::U64(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Seen, E> {
                Ok(Seen::I64(v))
            }
            fn visit_u128<E>(self, v: u128) -> Result<Seen, E> {
                Ok(Seen::U128(v))
            }
            fn visit_i128<E>(self, v: i128) -> Result<Seen, E> {
                Ok(Seen::I128(v))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Seen, E> {
                Ok(Seen::F64(v))
            }
        }
        deserializer.deserialize_any(SeenVisitor)
    }
}

/// Floats whose shortest form is tricky: subnormals, extremes, halfway cases.
const FLOATS: [f64; 14] = [
    0.1,
    0.3,
    1.0 / 3.0,
    -0.0,
    5e-324,
    2.225_073_858_507_201e-308,
    2.225_073_858_507_201_4e-308,
    f64::MAX,
    f64::MIN_POSITIVE,
    f64::EPSILON,
    123_456_789_012_345_680.0,
    9_007_199_254_740_993.0,
    1e21,
    1e-7,
];

#[test]
fn f64_shortest_round_trip() {
    for value in FLOATS {
        let text = sluice_serde::to_json_string(&value).unwrap();
        let back: f64 = sluice_serde::from_json_str(&text).unwrap();
        assert_eq!(
            back.to_bits(),
            value.to_bits(),
            "{value:e} written as {text}"
        );
        // Shortest: no more significant digits than Rust's own shortest formatting.
        // Significant digits: the mantissa's digits without leading or trailing zeros.
        let digits = |s: &str| {
            let mantissa = s.split(['e', 'E']).next().unwrap_or(s);
            let all: String = mantissa.chars().filter(char::is_ascii_digit).collect();
            all.trim_matches('0').len()
        };
        let reference = format!("{value:e}");
        assert!(
            digits(&text) <= digits(&reference).max(1),
            "{text} is longer than {reference}"
        );
    }
}

#[test]
fn f64_text_is_correctly_rounded() {
    // Rust's `str::parse::<f64>` is correctly rounded: it is the reference here.
    for text in [
        "43.47470900000013",
        "2.2250738585072011e-308",
        "0.1000000000000000055511151231257827021181583404541015625",
        "1.00000000000000011102230246251565404236316680908203125",
        "7.2057594037927933e16",
        "1e23",
        "-65.61361699999998",
    ] {
        let ours: f64 = sluice_serde::from_json_str(text).unwrap();
        let reference: f64 = text.parse().unwrap();
        assert_eq!(ours.to_bits(), reference.to_bits(), "{text}");
    }
}

#[test]
fn f32_stays_f32() {
    // Written from 32 bits: the shortest f32 text, not the f64 widening.
    assert_eq!(sluice_serde::to_json_string(&1.1f32).unwrap(), "1.1");
    assert_eq!(
        sluice_serde::to_json_string(&1.1f32).unwrap(),
        serde_json::to_string(&1.1f32).unwrap()
    );
    // Read straight to f32 (no double rounding through f64).
    let value: f32 = sluice_serde::from_json_str("1.00000005960464477539062500001").unwrap();
    assert_eq!(value, 1.000_000_1);
    // Kept as F32 in a Value and in MessagePack (float 32, five bytes).
    assert_eq!(
        sluice_serde::to_value(&0.5f32).unwrap(),
        Value::Number(sluice_core::OwnedNumber::F32(0.5))
    );
    assert_eq!(sluice_serde::to_msgpack_vec(&0.5f32).unwrap().len(), 5);
    assert_eq!(sluice_serde::to_msgpack_vec(&0.5f64).unwrap().len(), 9);
}

#[test]
fn out_of_range_and_fractional_numbers_are_errors_not_wraps() {
    let err = sluice_serde::from_json_str::<u8>("256").unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    let err = sluice_serde::from_json_str::<u64>("-1").unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    let err = sluice_serde::from_json_str::<u64>("18446744073709551616").unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    let err = sluice_serde::from_json_str::<i32>("1.5").unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_NOT_INTEGER);
    let err = sluice_serde::from_json_str::<f64>("1e400").unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    let err = sluice_serde::from_json_str::<f32>("1e39").unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
}

#[test]
fn msgpack_typed_numbers_convert_with_checks() {
    // A u8 on the wire read as i64, an i8 read as i16, a float 32 read as f64.
    let bytes = sluice_serde::to_msgpack_vec(&(7u8, -3i8, 0.25f32)).unwrap();
    let (a, b, c): (i64, i16, f64) = sluice_serde::from_msgpack_slice(&bytes).unwrap();
    assert_eq!((a, b, c), (7, -3, 0.25));
    // 300 on the wire does not fit a u8.
    let bytes = sluice_serde::to_msgpack_vec(&300u16).unwrap();
    let err = sluice_serde::from_msgpack_slice::<u8>(&bytes).unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    // deserialize_any on typed numbers keeps their sign and kind.
    let bytes = sluice_serde::to_msgpack_vec(&(u64::MAX, i64::MIN, 1.5f64)).unwrap();
    let value: serde_json::Value = sluice_serde::from_msgpack_slice(&bytes).unwrap();
    assert_eq!(value, serde_json::json!([u64::MAX, i64::MIN, 1.5]));
}
