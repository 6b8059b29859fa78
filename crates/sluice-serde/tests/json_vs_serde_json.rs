//! Differential tests: the same strict JSON read into the same serde types by serde_json and
//! by the bridge (`from_json_str`). Where both succeed the values must be equal; where
//! serde_json fails the bridge must fail too, with a code and the span of the offending
//! value. Every difference that remains is a design choice the serde chapter of the book
//! states, and is tested here as such (`differs_by_design`).

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

use serde::Deserialize;
use serde::de::IgnoredAny;
use sluice_core::{ErrorCode, Span, codes as core_codes};
use sluice_json::codes as json_codes;
use sluice_serde::codes;

/// The text a span covers.
fn covered(text: &str, span: Option<Span>) -> &str {
    let span = span.expect("the error has a span");
    &text[span.range()]
}

/// Reads `json` with both; both succeed with equal values, or both fail (the bridge's error
/// with a span). Returns the bridge's value, if any.
#[track_caller]
fn agree<'a, T>(json: &'a str) -> Option<T>
where
    T: Deserialize<'a> + PartialEq + Debug,
{
    let theirs = serde_json::from_str::<T>(json);
    let ours = sluice_serde::from_json_str::<T>(json);
    match (theirs, ours) {
        (Ok(theirs), Ok(ours)) => {
            assert_eq!(ours, theirs, "read differently: {json}");
            Some(ours)
        }
        (Err(_), Err(err)) => {
            assert!(err.span().is_some(), "no span for {json}: {err:?}");
            assert!(err.path().is_some(), "no path for {json}: {err:?}");
            None
        }
        (Ok(theirs), Err(err)) => {
            panic!("serde_json read {json} as {theirs:?}, the bridge failed: {err:?}")
        }
        (Err(theirs), Ok(ours)) => {
            panic!("serde_json failed on {json} ({theirs}), the bridge read {ours:?}")
        }
    }
}

/// Both read `json` as `expected`.
#[track_caller]
fn reads<'a, T>(json: &'a str, expected: T)
where
    T: Deserialize<'a> + PartialEq + Debug,
{
    assert_eq!(agree::<T>(json), Some(expected), "{json}");
}

/// Both fail on `json`; the bridge with `code`, its span covering `offending`.
#[track_caller]
fn fails<'a, T>(json: &'a str, code: ErrorCode, offending: &str)
where
    T: Deserialize<'a> + PartialEq + Debug,
{
    let theirs = serde_json::from_str::<T>(json);
    assert!(theirs.is_err(), "serde_json read {json} as {theirs:?}");
    let err = sluice_serde::from_json_str::<T>(json).expect_err(json);
    assert_eq!(err.code(), code, "{json}: {err:?}");
    assert_eq!(covered(json, err.span()), offending, "{json}: {err:?}");
    assert!(err.path().is_some(), "no path for {json}: {err:?}");
}

/// serde_json fails on `json`, where the bridge reads `expected`: a difference the book
/// documents.
#[track_caller]
#[allow(clippy::needless_pass_by_value)] // by value, so that calls read like those of `reads`
fn differs_by_design<'a, T>(json: &'a str, expected: T)
where
    T: Deserialize<'a> + PartialEq + Debug,
{
    let theirs = serde_json::from_str::<T>(json);
    assert!(theirs.is_err(), "serde_json read {json} as {theirs:?}");
    let ours = sluice_serde::from_json_str::<T>(json).unwrap_or_else(|err| panic!("{err:?}"));
    assert_eq!(ours, expected, "{json}");
}

// ---------------------------------------------------------------------------------------
// Integers

macro_rules! integer_bounds {
    ($($name:ident: $ty:ty, $wider:ty;)*) => {$(
        #[test]
        fn $name() {
            let min = <$ty>::MIN;
            let max = <$ty>::MAX;
            reads::<$ty>(&min.to_string(), min);
            reads::<$ty>(&max.to_string(), max);
            reads::<$ty>("0", 0);
            reads::<$ty>("1", 1);
            let below = (<$wider>::from(min) - 1).to_string();
            fails::<$ty>(&below, core_codes::NUMBER_OUT_OF_RANGE, &below);
            let above = (<$wider>::from(max) + 1).to_string();
            fails::<$ty>(&above, core_codes::NUMBER_OUT_OF_RANGE, &above);
            // Inside a document, the span is the number's.
            let text = format!("[1, {above}]");
            fails::<Vec<$ty>>(&text, core_codes::NUMBER_OUT_OF_RANGE, &above);
            fails::<$ty>("1.5", core_codes::NUMBER_NOT_INTEGER, "1.5");
            fails::<$ty>("\"1\"", codes::INVALID_TYPE, "\"1\"");
            fails::<$ty>("true", codes::INVALID_TYPE, "true");
            fails::<$ty>("null", codes::INVALID_TYPE, "null");
            fails::<$ty>("[1]", codes::INVALID_TYPE, "[");
            // 100 digits.
            let huge = "9".repeat(100);
            fails::<$ty>(&huge, core_codes::NUMBER_OUT_OF_RANGE, &huge);
            // Integral floats: the integer, where serde_json refuses a float.
            differs_by_design::<$ty>("1.0", 1);
            differs_by_design::<$ty>("1e2", 100);
            differs_by_design::<$ty>("1E+2", 100);
            differs_by_design::<$ty>("0.1e1", 1);
            fails::<$ty>("1e-1", core_codes::NUMBER_NOT_INTEGER, "1e-1");
        }
    )*};
}

integer_bounds! {
    i8_bounds: i8, i16;
    i16_bounds: i16, i32;
    i32_bounds: i32, i64;
    i64_bounds: i64, i128;
    u8_bounds: u8, i16;
    u16_bounds: u16, i32;
    u32_bounds: u32, i64;
    u64_bounds: u64, i128;
}

#[test]
fn i128_and_u128_bounds() {
    reads::<i128>(&i128::MIN.to_string(), i128::MIN);
    reads::<i128>(&i128::MAX.to_string(), i128::MAX);
    reads::<u128>(&u128::MAX.to_string(), u128::MAX);
    reads::<u128>("0", 0);
    let below = "-170141183460469231731687303715884105729";
    fails::<i128>(below, core_codes::NUMBER_OUT_OF_RANGE, below);
    let above = "170141183460469231731687303715884105728";
    fails::<i128>(above, core_codes::NUMBER_OUT_OF_RANGE, above);
    let above = "340282366920938463463374607431768211456";
    fails::<u128>(above, core_codes::NUMBER_OUT_OF_RANGE, above);
    fails::<u128>("-1", core_codes::NUMBER_OUT_OF_RANGE, "-1");
    fails::<u128>("1.5", core_codes::NUMBER_NOT_INTEGER, "1.5");
    // Beyond 64 bits inside containers.
    reads::<Vec<u128>>(
        "[18446744073709551616, 0]",
        vec![18_446_744_073_709_551_616, 0],
    );
    reads::<(i128, u8)>("[-9223372036854775809, 7]", (-9_223_372_036_854_775_809, 7));
}

#[test]
fn negative_zero_into_integers_is_zero() {
    // serde_json reads `-0` as the float -0.0 and refuses it for every integer type but
    // i128; sluice reads it as the integer it spells, zero.
    differs_by_design::<i8>("-0", 0);
    differs_by_design::<i64>("-0", 0);
    differs_by_design::<u8>("-0", 0);
    differs_by_design::<u64>("-0", 0);
    differs_by_design::<u128>("-0", 0);
    differs_by_design::<Vec<i32>>("[-0]", vec![0]);
    reads::<i128>("-0", 0);
}

// ---------------------------------------------------------------------------------------
// Floats

/// Both read the same float, bit for bit (so `-0.0` is not `0.0`).
#[track_caller]
fn same_f64(json: &str) -> f64 {
    let theirs: f64 = serde_json::from_str(json).unwrap();
    let ours: f64 = sluice_serde::from_json_str(json).unwrap();
    assert_eq!(
        ours.to_bits(),
        theirs.to_bits(),
        "{json}: {ours} vs {theirs}"
    );
    ours
}

#[test]
fn floats_read_the_same_bits() {
    for json in [
        "0",
        "-0",
        "0.0",
        "-0.0",
        "1",
        "1.5",
        "-1.5",
        "0.1",
        "1e10",
        "1E-10",
        "1e308",
        "1e-308",
        "2.2250738585072014e-308",
        "5e-324",
        "1e-400",
        "-1e-400",
        "1.7976931348623157e308",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775809",
        "123456789012345678901234567890",
        "3.141592653589793",
    ] {
        same_f64(json);
    }
    assert!(same_f64("-0.0").is_sign_negative());
    assert!(same_f64("-0").is_sign_negative());
    assert!(same_f64("-1e-400").is_sign_negative());
    // A 400-digit integer is a finite float for both.
    let long = format!("1{}", "0".repeat(300));
    assert_eq!(same_f64(&long), 1e300);
}

#[test]
fn floats_beyond_the_range_are_errors() {
    fails::<f64>("1e400", core_codes::NUMBER_OUT_OF_RANGE, "1e400");
    fails::<f64>("-1e400", core_codes::NUMBER_OUT_OF_RANGE, "-1e400");
    fails::<Vec<f64>>("[0, 1.8e308]", core_codes::NUMBER_OUT_OF_RANGE, "1.8e308");
    fails::<f64>("\"1\"", codes::INVALID_TYPE, "\"1\"");
    fails::<f64>("null", codes::INVALID_TYPE, "null");
}

#[test]
fn f32_is_rounded_once() {
    for (json, expected) in [
        ("0.1", 0.1f32),
        ("-0.0", -0.0),
        ("3.4028235e38", f32::MAX),
        ("1e-46", 0.0),
        ("16777217", 16_777_216.0),
    ] {
        let ours: f32 = sluice_serde::from_json_str(json).unwrap();
        let theirs: f32 = serde_json::from_str(json).unwrap();
        assert_eq!(ours.to_bits(), expected.to_bits(), "{json}");
        assert_eq!(theirs.to_bits(), expected.to_bits(), "{json}");
    }
    // Just below the halfway point between 1 + 2^-23 and 1 + 2^-22: through an f64 (as
    // serde_json reads an f32) it rounds to the halfway point, then to even, upwards.
    let json = "1.00000017881393432617187499";
    let ours: f32 = sluice_serde::from_json_str(json).unwrap();
    let theirs: f32 = serde_json::from_str(json).unwrap();
    assert_eq!(ours, 1.0 + f32::EPSILON);
    assert_eq!(theirs, 1.0 + 2.0 * f32::EPSILON);
    // Beyond the f32 range: serde_json narrows the f64 to infinity; sluice says it does
    // not fit.
    let theirs: f32 = serde_json::from_str("1e39").unwrap();
    assert!(theirs.is_infinite());
    let err = sluice_serde::from_json_str::<Vec<f32>>("[1e39]").unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(covered("[1e39]", err.span()), "1e39");
}

// ---------------------------------------------------------------------------------------
// Strings, chars, bytes

#[test]
fn strings_with_escapes_and_surrogate_pairs() {
    for json in [
        r#""""#,
        r#""plain""#,
        r#""tab\tquote\"backslash\\slash\/""#,
        r#""\b\f\n\r\t""#,
        r#""\u0000\u001f\u00e9\u20ac""#,
        r#""\ud83d\ude00 and 😀""#,
        r#""\uD834\uDD1E""#,
        r#""é€😀""#,
    ] {
        agree::<String>(json).expect(json);
        agree::<Cow<str>>(json).expect(json);
    }
    fails::<Vec<String>>(r#"["\ud800"]"#, json_codes::LONE_SURROGATE, r"\ud800");
    fails::<String>(r#""\udc00x""#, json_codes::LONE_SURROGATE, r"\udc00");
    fails::<String>(r#""\ud800\u0041""#, json_codes::LONE_SURROGATE, r"\ud800");
    fails::<String>(r#""\x""#, json_codes::INVALID_ESCAPE, r"\x");
    fails::<String>("\"a\tb\"", json_codes::CONTROL_CHARACTER, "\t");
    fails::<String>(r#""open"#, json_codes::UNCLOSED_STRING, r#""open"#);
    fails::<String>("1", codes::INVALID_TYPE, "1");
    fails::<String>("{}", codes::INVALID_TYPE, "{");
}

#[test]
fn borrowed_str_only_without_escapes() {
    reads::<&str>(r#""plain""#, "plain");
    reads::<(&str, &str)>(r#"["a", "é😀"]"#, ("a", "é😀"));
    // An escape cannot be borrowed: serde_json fails too, and the bridge says why.
    fails::<&str>(r#""a\nb""#, codes::CANNOT_BORROW, r#""a\nb""#);
    fails::<Vec<&str>>(r#"["ok", "\u00e9"]"#, codes::CANNOT_BORROW, r#""\u00e9""#);

    #[derive(Deserialize, Debug, PartialEq)]
    struct Borrowed<'a> {
        #[serde(borrow)]
        cow: Cow<'a, str>,
        plain: &'a str,
    }
    let json = r#"{"cow": "x\ty", "plain": "z"}"#;
    let ours = agree::<Borrowed>(json).unwrap();
    assert_eq!(ours.cow, "x\ty");
    let json = r#"{"cow": "xy", "plain": "z"}"#;
    let ours = agree::<Borrowed>(json).unwrap();
    assert!(matches!(ours.cow, Cow::Borrowed("xy")));
    fails::<Borrowed>(
        r#"{"cow": "xy", "plain": "\"z\""}"#,
        codes::CANNOT_BORROW,
        r#""\"z\"""#,
    );
}

#[test]
fn borrowed_str_through_serde_buffered_content() {
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Either<'a> {
        Text(&'a str),
        Number(u8),
    }
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(tag = "t")]
    enum Tagged<'a> {
        A { s: &'a str },
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Rest<'a> {
        #[serde(borrow, flatten)]
        rest: BTreeMap<&'a str, &'a str>,
    }
    reads::<Vec<Either>>(
        r#"["abc", 1]"#,
        vec![Either::Text("abc"), Either::Number(1)],
    );
    reads::<Tagged>(r#"{"t": "A", "s": "x"}"#, Tagged::A { s: "x" });
    reads::<Rest>(
        r#"{"k": "v"}"#,
        Rest {
            rest: BTreeMap::from([("k", "v")]),
        },
    );
    // With an escape there is nothing to borrow.
    agree::<Tagged>(r#"{"t": "A", "s": "\n"}"#);
}

#[test]
fn chars() {
    reads::<char>(r#""a""#, 'a');
    reads::<char>(r#""é""#, 'é');
    reads::<char>(r#""\u00e9""#, 'é');
    reads::<char>(r#""\ud83d\ude00""#, '😀');
    reads::<char>(r#""\n""#, '\n');
    fails::<char>(r#""ab""#, codes::INVALID_VALUE, r#""ab""#);
    fails::<char>(r#""""#, codes::INVALID_VALUE, r#""""#);
    fails::<char>("1", codes::INVALID_TYPE, "1");
}

#[test]
fn bytes() {
    use serde_bytes::{ByteBuf, Bytes};
    reads::<ByteBuf>(r#""abc""#, ByteBuf::from(b"abc".to_vec()));
    reads::<ByteBuf>(r#""a\nc""#, ByteBuf::from(b"a\nc".to_vec()));
    reads::<ByteBuf>("[1, 2, 255]", ByteBuf::from(vec![1, 2, 255]));
    reads::<ByteBuf>("[]", ByteBuf::new());
    reads::<&Bytes>(r#""abc""#, Bytes::new(b"abc"));
    fails::<&Bytes>(r#""a\nc""#, codes::CANNOT_BORROW, r#""a\nc""#);
    fails::<ByteBuf>("[1, 256]", core_codes::NUMBER_OUT_OF_RANGE, "256");
    fails::<ByteBuf>("[1, -1]", core_codes::NUMBER_OUT_OF_RANGE, "-1");
    fails::<ByteBuf>("1", codes::INVALID_TYPE, "1");
    fails::<ByteBuf>("{}", codes::INVALID_TYPE, "{");
    reads::<Vec<u8>>("[0, 255]", vec![0, 255]);
}

// ---------------------------------------------------------------------------------------
// Options, units, newtypes, tuples, sequences

#[derive(Deserialize, Debug, PartialEq)]
struct Unit;

#[derive(Deserialize, Debug, PartialEq)]
struct Newtype(u32);

#[derive(Deserialize, Debug, PartialEq)]
struct TupleStruct(u8, String);

#[derive(Deserialize, Debug, PartialEq)]
struct WithOption {
    a: Option<u8>,
    b: Option<Option<u8>>,
}

#[test]
fn options() {
    reads::<Option<u8>>("null", None);
    reads::<Option<u8>>("1", Some(1));
    reads::<Option<Option<u8>>>("null", None);
    reads::<Option<Option<u8>>>("2", Some(Some(2)));
    reads::<Option<String>>(r#""""#, Some(String::new()));
    reads::<WithOption>("{}", WithOption { a: None, b: None });
    reads::<WithOption>(r#"{"a": null, "b": null}"#, WithOption { a: None, b: None });
    reads::<WithOption>(
        r#"{"a": 3, "b": 4}"#,
        WithOption {
            a: Some(3),
            b: Some(Some(4)),
        },
    );
    fails::<Option<u8>>("300", core_codes::NUMBER_OUT_OF_RANGE, "300");
    fails::<Option<u8>>(r#""x""#, codes::INVALID_TYPE, r#""x""#);
}

#[test]
fn units_and_unit_structs() {
    reads::<()>("null", ());
    reads::<Unit>("null", Unit);
    reads::<Vec<()>>("[null, null]", vec![(), ()]);
    fails::<()>("0", codes::INVALID_TYPE, "0");
    fails::<()>("[]", codes::INVALID_TYPE, "[");
    fails::<()>("{}", codes::INVALID_TYPE, "{");
    fails::<Unit>("false", codes::INVALID_TYPE, "false");
    fails::<Unit>(r#""Unit""#, codes::INVALID_TYPE, r#""Unit""#);
}

#[test]
fn newtypes_tuples_and_tuple_structs() {
    reads::<Newtype>("7", Newtype(7));
    fails::<Newtype>("-7", core_codes::NUMBER_OUT_OF_RANGE, "-7");
    fails::<Newtype>("[7]", codes::INVALID_TYPE, "[");
    reads::<(u8, String)>(r#"[1, "a"]"#, (1, "a".into()));
    reads::<TupleStruct>(r#"[1, "a"]"#, TupleStruct(1, "a".into()));
    reads::<((), (u8,), [u8; 0])>("[null, [1], []]", ((), (1,), []));
    fails::<(u8, String)>("[1]", codes::INVALID_LENGTH, "[1]");
    fails::<(u8, String)>("[]", codes::INVALID_LENGTH, "[]");
    fails::<(u8, String)>(r#"[1, "a", 2]"#, codes::INVALID_LENGTH, r#"[1, "a", 2]"#);
    fails::<TupleStruct>(r#"[1, "a", []]"#, codes::INVALID_LENGTH, r#"[1, "a", []]"#);
    fails::<(u8, String)>(r#"{"0": 1}"#, codes::INVALID_TYPE, "{");
}

#[test]
fn sequences_and_fixed_arrays() {
    reads::<Vec<u8>>("[]", vec![]);
    reads::<Vec<Vec<u8>>>("[[], [1], [2, 3]]", vec![vec![], vec![1], vec![2, 3]]);
    reads::<[u8; 3]>("[1, 2, 3]", [1, 2, 3]);
    reads::<[String; 0]>("[]", []);
    fails::<[u8; 3]>("[1, 2]", codes::INVALID_LENGTH, "[1, 2]");
    fails::<[u8; 3]>("[1, 2, 3, 4]", codes::INVALID_LENGTH, "[1, 2, 3, 4]");
    fails::<[u8; 0]>("[1]", codes::INVALID_LENGTH, "[1]");
    fails::<[u8; 3]>(r#"{"a": 1}"#, codes::INVALID_TYPE, "{");
    fails::<Vec<u8>>(r#""abc""#, codes::INVALID_TYPE, r#""abc""#);
    fails::<Vec<u8>>("[1, 2", json_codes::UNEXPECTED_EOF, "");
}

// ---------------------------------------------------------------------------------------
// Maps

#[test]
fn maps_with_string_keys() {
    let map = agree::<HashMap<String, u8>>(r#"{"a": 1, "b": 2, "\u00e9": 3}"#).unwrap();
    assert_eq!(map["é"], 3);
    reads::<BTreeMap<String, Vec<u8>>>(
        r#"{"x": [], "y": [1]}"#,
        BTreeMap::from([("x".into(), vec![]), ("y".into(), vec![1])]),
    );
    reads::<HashMap<&str, u8>>(r#"{"k": 1}"#, HashMap::from([("k", 1)]));
    fails::<HashMap<&str, u8>>(r#"{"k\n": 1}"#, codes::CANNOT_BORROW, r#""k\n""#);
    reads::<BTreeMap<char, u8>>(r#"{"a": 1, "é": 2}"#, BTreeMap::from([('a', 1), ('é', 2)]));
    fails::<BTreeMap<String, u8>>(r#"{"a": 256}"#, core_codes::NUMBER_OUT_OF_RANGE, "256");
    fails::<BTreeMap<String, u8>>("[]", codes::INVALID_TYPE, "[");
    fails::<BTreeMap<String, u8>>(r#"{"a" 1}"#, json_codes::EXPECT_COLON, "1");
}

#[test]
fn maps_with_integer_and_bool_keys() {
    reads::<HashMap<u32, bool>>(
        r#"{"1": true, "42": false}"#,
        HashMap::from([(1, true), (42, false)]),
    );
    reads::<BTreeMap<i64, u8>>(
        r#"{"-9223372036854775808": 1, "0": 2}"#,
        BTreeMap::from([(i64::MIN, 1), (0, 2)]),
    );
    reads::<BTreeMap<u128, u8>>(
        r#"{"340282366920938463463374607431768211455": 1}"#,
        BTreeMap::from([(u128::MAX, 1)]),
    );
    reads::<BTreeMap<i128, u8>>(
        r#"{"-170141183460469231731687303715884105728": 1}"#,
        BTreeMap::from([(i128::MIN, 1)]),
    );
    reads::<BTreeMap<bool, u8>>(
        r#"{"true": 1, "false": 0}"#,
        BTreeMap::from([(true, 1), (false, 0)]),
    );
    fails::<HashMap<u8, bool>>(
        r#"{"256": true}"#,
        core_codes::NUMBER_OUT_OF_RANGE,
        r#""256""#,
    );
    fails::<HashMap<u32, bool>>(
        r#"{"-1": true}"#,
        core_codes::NUMBER_OUT_OF_RANGE,
        r#""-1""#,
    );
    for key in ["x", "", " 1", "1 ", "+1", "1.0", "1e2", "0x1"] {
        let json = format!(r#"{{"{key}": true}}"#);
        let quoted = format!(r#""{key}""#);
        fails::<HashMap<u32, bool>>(&json, codes::INVALID_TYPE, &quoted);
    }
    fails::<BTreeMap<bool, u8>>(r#"{"True": 1}"#, codes::INVALID_TYPE, r#""True""#);
}

#[test]
fn leading_zeros_in_integer_keys_are_refused_as_serde_json_refuses_them() {
    for key in ["01", "-01", "00", "-00"] {
        let json = format!(r#"{{"{key}": true}}"#);
        let quoted = format!(r#""{key}""#);
        fails::<HashMap<i32, bool>>(&json, codes::INVALID_TYPE, &quoted);
    }
    reads::<HashMap<i32, bool>>(r#"{"0": true}"#, HashMap::from([(0, true)]));
}

#[test]
fn keys_are_parsed_after_unescaping() {
    // serde_json parses a number or bool key from its raw text and refuses escapes there;
    // sluice reads the key as a string first, so `"\u0031"` is the key 1.
    differs_by_design::<HashMap<u32, bool>>(r#"{"\u0031": true}"#, HashMap::from([(1, true)]));
    differs_by_design::<HashMap<bool, u8>>(r#"{"\u0074rue": 1}"#, HashMap::from([(true, 1)]));
    // `-0` as an integer key is 0, as a value is (serde_json reads a float there).
    differs_by_design::<HashMap<i32, bool>>(r#"{"-0": true}"#, HashMap::from([(0, true)]));
}

#[test]
fn duplicate_keys_last_wins_in_maps_and_fail_in_structs() {
    reads::<HashMap<String, u8>>(r#"{"a": 1, "a": 2}"#, HashMap::from([("a".into(), 2)]));
    let value = agree::<serde_json::Value>(r#"{"a": 1, "b": 0, "a": [2]}"#).unwrap();
    assert_eq!(value["a"], serde_json::json!([2]));

    #[derive(Deserialize, Debug, PartialEq)]
    struct One {
        a: u8,
    }
    let json = r#"{"a": 1, "a": 2}"#;
    let err = sluice_serde::from_json_str::<One>(json).unwrap_err();
    assert!(serde_json::from_str::<One>(json).is_err());
    assert_eq!(err.code(), codes::DUPLICATE_FIELD);
    assert_eq!(err.span().unwrap(), Span::new(9, 12), "{err:?}");

    // The reader's own default: a key given twice is an error wherever it is.
    let err = sluice_serde::from_reader::<HashMap<String, u8>, _>(
        sluice_json::JsonReader::from_str(json),
    )
    .unwrap_err();
    assert_eq!(err.code(), json_codes::DUPLICATE_KEY);
    assert_eq!(covered(json, err.span()), r#""a""#);
    assert_eq!(err.span().unwrap().start, 9);
}

// ---------------------------------------------------------------------------------------
// Enums

#[derive(Deserialize, Debug, PartialEq)]
enum External {
    Unit,
    Newtype(u8),
    Tuple(u8, u8),
    Struct { a: u8 },
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "type")]
enum Internal {
    Unit,
    Struct { a: u8 },
    Newtype(Inner),
}

#[derive(Deserialize, Debug, PartialEq)]
struct Inner {
    x: i32,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Unit,
    Newtype(u8),
    Tuple(u8, u8),
    Struct { a: u8 },
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Untagged {
    Null(()),
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Text(String),
    List(Vec<Untagged>),
    Map(BTreeMap<String, Untagged>),
}

#[test]
fn externally_tagged_enums() {
    reads::<External>(r#""Unit""#, External::Unit);
    reads::<External>(r#"{"Unit": null}"#, External::Unit);
    reads::<External>(r#"{"Newtype": 1}"#, External::Newtype(1));
    reads::<External>(r#"{"Tuple": [1, 2]}"#, External::Tuple(1, 2));
    reads::<External>(r#"{"Struct": {"a": 1}}"#, External::Struct { a: 1 });
    reads::<External>(r#"{"Struct": [1]}"#, External::Struct { a: 1 });
    reads::<External>(r#""\u0055nit""#, External::Unit);
    fails::<External>(r#""Nope""#, codes::UNKNOWN_VARIANT, r#""Nope""#);
    fails::<External>(r#"{"Nope": 1}"#, codes::UNKNOWN_VARIANT, r#""Nope""#);
    fails::<External>(r#""Newtype""#, codes::INVALID_TYPE, r#""Newtype""#);
    fails::<External>(r#"{"Unit": 1}"#, codes::INVALID_TYPE, "1");
    fails::<External>(
        r#"{"Newtype": 1, "Unit": null}"#,
        codes::INVALID_ENUM,
        r#""Unit""#,
    );
    fails::<External>("{}", codes::INVALID_ENUM, "}");
    fails::<External>("1", codes::INVALID_TYPE, "1");
    fails::<External>("[]", codes::INVALID_TYPE, "[");
    fails::<External>(r#"{"Tuple": [1]}"#, codes::INVALID_LENGTH, "[1]");
    fails::<External>(r#"{"Struct": {}}"#, codes::MISSING_FIELD, "{}");
}

#[test]
fn internally_tagged_enums() {
    reads::<Internal>(r#"{"type": "Unit"}"#, Internal::Unit);
    reads::<Internal>(r#"{"a": 1, "type": "Struct"}"#, Internal::Struct { a: 1 });
    reads::<Internal>(
        r#"{"type": "Newtype", "x": -1}"#,
        Internal::Newtype(Inner { x: -1 }),
    );
    reads::<Vec<Internal>>(
        r#"[{"type": "Unit", "extra": [1, {"b": null}]}]"#,
        vec![Internal::Unit],
    );
    fails::<Internal>(r#"{"a": 1}"#, codes::MISSING_FIELD, r#"{"a": 1}"#);
    fails::<Internal>(r#"{"type": "Nope"}"#, codes::UNKNOWN_VARIANT, r#""Nope""#);
    fails::<Internal>(r#""Unit""#, codes::INVALID_TYPE, r#""Unit""#);
}

#[test]
fn adjacently_tagged_enums() {
    reads::<Adjacent>(r#"{"t": "Unit"}"#, Adjacent::Unit);
    reads::<Adjacent>(r#"{"t": "Unit", "c": null}"#, Adjacent::Unit);
    reads::<Adjacent>(r#"{"t": "Newtype", "c": 1}"#, Adjacent::Newtype(1));
    reads::<Adjacent>(r#"{"c": 1, "t": "Newtype"}"#, Adjacent::Newtype(1));
    reads::<Adjacent>(r#"{"t": "Tuple", "c": [1, 2]}"#, Adjacent::Tuple(1, 2));
    reads::<Adjacent>(
        r#"{"c": {"a": 3}, "t": "Struct"}"#,
        Adjacent::Struct { a: 3 },
    );
    fails::<Adjacent>(
        r#"{"t": "Newtype"}"#,
        codes::MISSING_FIELD,
        r#"{"t": "Newtype"}"#,
    );
    fails::<Adjacent>(
        r#"{"t": "Nope", "c": 1}"#,
        codes::UNKNOWN_VARIANT,
        r#""Nope""#,
    );
    // Unknown keys are skipped, as in structs without `deny_unknown_fields`.
    reads::<Adjacent>(r#"{"t": "Newtype", "c": 1, "x": 0}"#, Adjacent::Newtype(1));
    fails::<Adjacent>(
        r#"{"t": "Newtype", "c": 256}"#,
        core_codes::NUMBER_OUT_OF_RANGE,
        "256",
    );
}

#[test]
fn untagged_enums_choose_by_kind() {
    reads::<Untagged>("null", Untagged::Null(()));
    reads::<Untagged>("true", Untagged::Bool(true));
    reads::<Untagged>("1", Untagged::Unsigned(1));
    reads::<Untagged>("18446744073709551615", Untagged::Unsigned(u64::MAX));
    reads::<Untagged>("-1", Untagged::Signed(-1));
    reads::<Untagged>("-9223372036854775808", Untagged::Signed(i64::MIN));
    reads::<Untagged>("1.5", Untagged::Float(1.5));
    reads::<Untagged>("1.0", Untagged::Float(1.0));
    reads::<Untagged>("1e2", Untagged::Float(100.0));
    reads::<Untagged>(r#""s""#, Untagged::Text("s".into()));
    reads::<Untagged>(
        r#"[1, "a", {"k": [null]}]"#,
        Untagged::List(vec![
            Untagged::Unsigned(1),
            Untagged::Text("a".into()),
            Untagged::Map(BTreeMap::from([(
                "k".into(),
                Untagged::List(vec![Untagged::Null(())]),
            )])),
        ]),
    );
    fails::<Untagged>("1e400", core_codes::NUMBER_OUT_OF_RANGE, "1e400");
}

#[test]
fn untagged_negative_zero_is_a_float_as_in_serde_json() {
    let value = agree::<Untagged>("-0").unwrap();
    match value {
        Untagged::Float(v) => assert!(v == 0.0 && v.is_sign_negative()),
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------
// Struct attributes

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Attributes {
    first_name: String,
    #[serde(alias = "years", alias = "age_in_years")]
    age: u8,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default = "seven")]
    seven: u8,
    #[serde(skip)]
    skipped: u8,
    #[serde(rename = "r#type")]
    kind: Option<String>,
}

fn seven() -> u8 {
    7
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct Strict {
    a: u8,
    #[serde(default)]
    b: bool,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Flattened {
    id: u32,
    #[serde(flatten)]
    inner: Inner,
    #[serde(flatten)]
    rest: BTreeMap<String, serde_json::Value>,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(default)]
struct AllDefault {
    a: u8,
    b: String,
}

impl Default for AllDefault {
    fn default() -> Self {
        AllDefault {
            a: 1,
            b: "b".into(),
        }
    }
}

#[test]
fn rename_alias_default_and_skip() {
    let value = agree::<Attributes>(
        r#"{"firstName": "a", "years": 3, "skipped": 9, "r#type": "t", "other": [1]}"#,
    )
    .unwrap();
    assert_eq!(value.age, 3);
    assert_eq!(value.seven, 7);
    assert_eq!(value.skipped, 0);
    agree::<Attributes>(r#"{"firstName": "a", "age_in_years": 3, "tags": ["x"], "seven": 8}"#)
        .unwrap();
    fails::<Attributes>(
        r#"{"first_name": "a", "age": 3}"#,
        codes::MISSING_FIELD,
        r#"{"first_name": "a", "age": 3}"#,
    );
    fails::<Attributes>(
        r#"{"firstName": "a", "age": 3, "years": 4}"#,
        codes::DUPLICATE_FIELD,
        r#""years""#,
    );
    reads::<AllDefault>("{}", AllDefault::default());
    reads::<AllDefault>(
        r#"{"a": 2}"#,
        AllDefault {
            a: 2,
            b: "b".into(),
        },
    );
    reads::<AllDefault>(
        r#"[3, "c"]"#,
        AllDefault {
            a: 3,
            b: "c".into(),
        },
    );
}

#[test]
fn deny_unknown_fields() {
    reads::<Strict>(r#"{"a": 1}"#, Strict { a: 1, b: false });
    fails::<Strict>(r#"{"a": 1, "c": 2}"#, codes::UNKNOWN_FIELD, r#""c""#);
    fails::<Strict>(r#"{"c": 2, "a": 1}"#, codes::UNKNOWN_FIELD, r#""c""#);
    fails::<Strict>(r#"{"a\u0000": 1}"#, codes::UNKNOWN_FIELD, r#""a\u0000""#);
    fails::<Strict>("[1, true, 3]", codes::INVALID_LENGTH, "[1, true, 3]");
}

#[test]
fn flatten() {
    let value = agree::<Flattened>(
        r#"{"id": 1, "x": -2, "big": 18446744073709551615, "f": 0.5, "s": "\u00e9"}"#,
    )
    .unwrap();
    assert_eq!(value.inner.x, -2);
    assert_eq!(value.rest["big"], serde_json::json!(u64::MAX));
    fails::<Flattened>(r#"{"id": 1}"#, codes::MISSING_FIELD, r#"{"id": 1}"#);
}

// ---------------------------------------------------------------------------------------
// IgnoredAny, trailing data, depth

#[test]
fn ignored_any_takes_every_value() {
    for json in [
        "null",
        "true",
        "0",
        "-0",
        "18446744073709551616",
        "1e-400",
        "1.5",
        r#""\ud83d\ude00""#,
        "[]",
        "{}",
        r#"[1, [2, {"a": [null, {}]}]]"#,
        r#"{"a": {"b": {"c": []}}}"#,
        r#"{"a": 1, "a": 2}"#,
    ] {
        agree::<IgnoredAny>(json).unwrap();
    }
    agree::<IgnoredAny>("1e400").unwrap();
    // Syntax errors are errors.
    fails::<IgnoredAny>("[1,]", json_codes::UNEXPECTED_TOKEN, "]");
    fails::<IgnoredAny>(r#"{"a"}"#, json_codes::EXPECT_COLON, "}");
    fails::<IgnoredAny>("01", json_codes::INVALID_NUMBER, "01");
    fails::<IgnoredAny>("tru", json_codes::UNEXPECTED_TOKEN, "tru");
    // A lone surrogate is an error wherever it stands: serde_json lets it pass when the
    // string is skipped, and refuses it when the string is read.
    let json = r#"["\ud800"]"#;
    assert!(serde_json::from_str::<IgnoredAny>(json).is_ok());
    assert!(serde_json::from_str::<Vec<String>>(json).is_err());
    let err = sluice_serde::from_json_str::<IgnoredAny>(json).unwrap_err();
    assert_eq!(err.code(), json_codes::LONE_SURROGATE);
    assert_eq!(covered(json, err.span()), r"\ud800");
}

#[test]
fn trailing_data_is_an_error() {
    reads::<u8>(" 1 \n", 1);
    // A byte order mark at the start is skipped (RFC 8259 lets a parser ignore it).
    differs_by_design::<u8>("\u{feff}1", 1);
    // Strict JSON: the reader itself refuses a second root value.
    fails::<u8>("1 2", json_codes::TRAILING_TOKEN, "2");
    fails::<Vec<u8>>("[1] [2]", json_codes::TRAILING_TOKEN, "[");
    fails::<Vec<u8>>("[1] x", json_codes::TRAILING_TOKEN, "x");
    fails::<Vec<u8>>("[1]]", json_codes::TRAILING_TOKEN, "]");
    fails::<Vec<u8>>("", json_codes::UNEXPECTED_EOF, "");
    fails::<Vec<u8>>(" ", json_codes::UNEXPECTED_EOF, "");

    // A deserializer over a reader of several values reads one, and `end` checks the rest.
    let json = "[1] [2]";
    let reader =
        sluice_json::JsonReader::from_str(json).with_options(sluice_json::JsonOptions::ndjson());
    let mut de = sluice_serde::Deserializer::new(reader);
    let first = Vec::<u8>::deserialize(&mut de).unwrap();
    assert_eq!(first, [1]);
    let err = de.end().unwrap_err();
    assert_eq!(err.code(), codes::TRAILING_VALUE);
    assert_eq!(covered(json, err.span()), "[");
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    // serde_json is not asked: with its `unbounded_depth` feature (which another crate of
    // the workspace turns on for its own tests) it would recurse as deep as the input.
    let deep = "[".repeat(100_000);
    for err in [
        sluice_serde::from_json_str::<serde_json::Value>(&deep).unwrap_err(),
        sluice_serde::from_json_str::<IgnoredAny>(&deep).unwrap_err(),
        sluice_serde::from_json_str::<Untagged>(&deep).unwrap_err(),
    ] {
        assert_eq!(err.code(), json_codes::DEPTH_EXCEEDED);
        assert_eq!(err.span(), Some(Span::new(128, 129)), "{err:?}");
    }
    let deep = r#"{"a":"#.repeat(100_000);
    let err = sluice_serde::from_json_str::<serde_json::Value>(&deep).unwrap_err();
    assert_eq!(err.code(), json_codes::DEPTH_EXCEEDED);
    // The reader's limit is 128 levels; serde_json stops one level earlier.
    let nested = |levels| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
    agree::<serde_json::Value>(&nested(127)).unwrap();
    agree::<IgnoredAny>(&nested(127)).unwrap();
    agree::<IgnoredAny>(&nested(128)).unwrap();
    let inner: serde_json::Value = serde_json::from_str(&nested(127)).unwrap();
    differs_by_design::<serde_json::Value>(&nested(128), serde_json::json!([inner]));
    for levels in [129, 1000] {
        let err = sluice_serde::from_json_str::<serde_json::Value>(&nested(levels)).unwrap_err();
        assert_eq!(err.code(), json_codes::DEPTH_EXCEEDED);
        assert_eq!(err.span(), Some(Span::new(128, 129)));
        // serde_json skips an ignored value at any depth; the reader's limit holds there too.
        assert!(serde_json::from_str::<IgnoredAny>(&nested(levels)).is_ok());
        let err = sluice_serde::from_json_str::<IgnoredAny>(&nested(levels)).unwrap_err();
        assert_eq!(err.code(), json_codes::DEPTH_EXCEEDED);
    }
}

// ---------------------------------------------------------------------------------------
// serde_json::Value through the bridge

#[test]
fn json_values_keep_the_kind_of_their_numbers() {
    use serde_json::Value;
    for json in [
        "0",
        "1",
        "-1",
        "18446744073709551615",
        "-9223372036854775808",
        "9223372036854775808",
        "0.0",
        "-0.0",
        "1.0",
        "1e2",
        "1E-2",
        "-1.5",
        "1e-400",
        "-0",
    ] {
        let theirs: Value = serde_json::from_str(json).unwrap();
        let ours: Value = sluice_serde::from_json_str(json).unwrap();
        assert_eq!(ours, theirs, "{json}");
        // Same kind: u64, i64 or f64; and the sign of a zero.
        assert_eq!(ours.is_u64(), theirs.is_u64(), "{json}");
        assert_eq!(ours.is_i64(), theirs.is_i64(), "{json}");
        assert_eq!(ours.is_f64(), theirs.is_f64(), "{json}");
        assert_eq!(ours.to_string(), theirs.to_string(), "{json}");
    }
    fails::<Value>("1e400", core_codes::NUMBER_OUT_OF_RANGE, "1e400");
}

#[test]
fn integers_beyond_64_bits_are_not_rounded_into_floats_by_self_describing_reads() {
    // serde_json reads them as f64 (rounded) wherever the type does not ask for an integer;
    // the bridge visits them as u128 / i128, which serde_json::Value and serde's buffered
    // content (untagged, internally tagged, flatten) refuse: an error at the number.
    for (json, number) in [
        ("[18446744073709551616]", "18446744073709551616"),
        ("[-9223372036854775809]", "-9223372036854775809"),
    ] {
        let theirs: serde_json::Value = serde_json::from_str(json).unwrap();
        assert!(theirs[0].is_f64());
        let err = sluice_serde::from_json_str::<serde_json::Value>(json).unwrap_err();
        assert_eq!(err.code(), codes::CUSTOM, "{err:?}");
        assert_eq!(covered(json, err.span()), number);
        assert_eq!(err.path().unwrap().to_string(), "$[0]");
        let theirs: Vec<Untagged> = serde_json::from_str(json).unwrap();
        assert!(matches!(theirs[0], Untagged::Float(_)));
        let err = sluice_serde::from_json_str::<Vec<Untagged>>(json).unwrap_err();
        assert_eq!(err.code(), codes::INVALID_TYPE, "{err:?}");
        assert_eq!(covered(json, err.span()), number);
    }
    // Beyond 128 bits no integer type holds them: out of range.
    let json = "[340282366920938463463374607431768211456]";
    let err = sluice_serde::from_json_str::<serde_json::Value>(json).unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(covered(json, err.span()), &json[1..json.len() - 1]);
    // Typed fields read them exactly, or as the nearest float.
    reads::<Vec<f64>>("[18446744073709551616]", vec![18_446_744_073_709_551_616.0]);
}

/// A small seeded generator of JSON texts (xorshift), for the random comparison.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }

    /// A JSON text of nesting at most `depth`.
    fn value(&mut self, depth: u32, out: &mut String) {
        let kind = if depth == 0 {
            self.below(6)
        } else {
            self.below(8)
        };
        match kind {
            0 => out.push_str(self.pick(&["null", "true", "false"])),
            1 => {
                let n = self.next();
                match self.below(4) {
                    0 => out.push_str(&(n % 1000).to_string()),
                    1 => out.push_str(&n.to_string()),
                    2 => out.push_str(&(n as i64).to_string()),
                    _ => out.push_str(self.pick(&["0", "-0", "-9223372036854775808"])),
                }
            }
            2 => {
                // Floats whose decimal text is exact in binary, so any correct parser
                // agrees with any other, plus exponent forms.
                let mantissa = self.below(1 << 20) as i64 - (1 << 19);
                let text = format!("{}", mantissa as f64 / 1024.0);
                let text = if text.contains('.') {
                    text
                } else {
                    format!("{text}.0")
                };
                out.push_str(&text);
                if self.below(4) == 0 {
                    out.push_str(self.pick(&["e0", "E+3", "e-2", "e10"]));
                }
            }
            3..=5 => self.string(out),
            6 => {
                out.push('[');
                for i in 0..self.below(5) {
                    if i > 0 {
                        out.push_str(self.pick(&[",", ", ", " ,\n"]));
                    }
                    self.value(depth - 1, out);
                }
                out.push(']');
            }
            _ => {
                out.push('{');
                for i in 0..self.below(5) {
                    if i > 0 {
                        out.push(',');
                    }
                    self.string(out);
                    out.push_str(self.pick(&[":", " : ", ":\t"]));
                    self.value(depth - 1, out);
                }
                out.push('}');
            }
        }
    }

    fn string(&mut self, out: &mut String) {
        out.push('"');
        for _ in 0..self.below(6) {
            let piece = self.pick(&[
                "a",
                "key",
                "é",
                "😀",
                "\\n",
                "\\\"",
                "\\\\",
                "\\/",
                "\\u0000",
                "\\u00e9",
                "\\ud83d\\ude00",
                "\\uD834\\uDD1E",
                " ",
                "\\t",
            ]);
            out.push_str(piece);
        }
        out.push('"');
    }
}

#[test]
fn random_documents_read_as_the_same_json_values() {
    let mut random = Random(0x9E37_79B9_7F4A_7C15);
    for _ in 0..3000 {
        let mut json = String::new();
        random.value(5, &mut json);
        let theirs: serde_json::Value = serde_json::from_str(&json).unwrap();
        let ours: serde_json::Value =
            sluice_serde::from_json_str(&json).unwrap_or_else(|err| panic!("{json}: {err:?}"));
        assert_eq!(ours, theirs, "{json}");
        // Same text written back: same number kinds, same key order.
        assert_eq!(ours.to_string(), theirs.to_string(), "{json}");
        // The same from bytes and from an io::Read.
        let from_slice: serde_json::Value = sluice_serde::from_json_slice(json.as_bytes())
            .unwrap_or_else(|err| panic!("{json}: {err:?}"));
        assert_eq!(from_slice, theirs, "{json}");
        let from_read: serde_json::Value = sluice_serde::from_json_read(json.as_bytes())
            .unwrap_or_else(|err| panic!("{json}: {err:?}"));
        assert_eq!(from_read, theirs, "{json}");
        // And the same through IgnoredAny and an untagged enum.
        sluice_serde::from_json_str::<IgnoredAny>(&json).unwrap();
        agree::<Untagged>(&json);
    }
}

// ---------------------------------------------------------------------------------------
// Relaxed input through the bridge

#[test]
fn relaxed_and_json5_input_through_the_bridge() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Config {
        name: String,
        mask: u8,
        offset: i32,
        big: u64,
        ratio: f64,
        limits: Vec<f64>,
        narrow: f32,
    }
    let text = "{
        // comment
        name: 'main', /* block */
        mask: 0xFF,
        offset: -0x10,
        big: 0xFFFFFFFFFFFFFFFF,
        ratio: .5,
        limits: [Infinity, -Infinity, +1, 5., NaN,],
        narrow: -Infinity,
    }";
    let config: Config = sluice_serde::from_json5_str(text).unwrap();
    assert_eq!(config.name, "main");
    assert_eq!(config.mask, 255);
    assert_eq!(config.offset, -16);
    assert_eq!(config.big, u64::MAX);
    assert_eq!(config.ratio, 0.5);
    assert_eq!(
        config.limits[..4],
        [f64::INFINITY, f64::NEG_INFINITY, 1.0, 5.0]
    );
    assert!(config.limits[4].is_nan());
    assert_eq!(config.narrow, f32::NEG_INFINITY);

    let relaxed: Vec<u8> = sluice_serde::from_json_str_relaxed("[1, // one\n 2,]").unwrap();
    assert_eq!(relaxed, [1, 2]);
    // Strict input refuses both.
    let err = sluice_serde::from_json_str::<Vec<u8>>("[1, 2,]").unwrap_err();
    assert_eq!(err.code(), json_codes::UNEXPECTED_TOKEN);

    // Non-finite numbers into integers are errors pointing at them.
    let text = "[1, Infinity]";
    let err = sluice_serde::from_json5_str::<Vec<i64>>(text).unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(covered(text, err.span()), "Infinity");
    let text = "[NaN]";
    let err = sluice_serde::from_json5_str::<Vec<u8>>(text).unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_NOT_INTEGER);
    assert_eq!(covered(text, err.span()), "NaN");
    // A hex integer beyond 64 bits into an i128 and a u64.
    let text = "0x10000000000000000";
    let wide: u128 = sluice_serde::from_json5_str(text).unwrap();
    assert_eq!(wide, 1 << 64);
    let err = sluice_serde::from_json5_str::<u64>(text).unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);

    // Self-describing reads see what the number is.
    let value: serde_json::Value =
        sluice_serde::from_json5_str("[0xFF, -0x1, .5, +2, 5., Infinity]").unwrap();
    assert!(value[0].is_u64() && value[0] == 255);
    assert!(value[1].is_i64() && value[1] == -1);
    assert_eq!(value[2], 0.5);
    assert!(value[3].is_u64() && value[3] == 2);
    assert!(value[4].is_f64() && value[4] == 5.0);
    let untagged: Untagged = sluice_serde::from_json5_str("Infinity").unwrap();
    assert_eq!(untagged, Untagged::Float(f64::INFINITY));
    // serde_json::Value has no non-finite numbers: its own visitor makes them null.
    let value: serde_json::Value = sluice_serde::from_json5_str("[Infinity, NaN]").unwrap();
    assert_eq!(value, serde_json::json!([null, null]));
}

#[test]
fn malformed_documents_fail_on_both_sides() {
    for json in [
        "1.",
        ".5",
        "+1",
        "0x1",
        "1e",
        "1e+",
        "-",
        "--1",
        "[01]",
        "-01",
        "1.e1",
        r#""\u00""#,
        r#""\u00g0""#,
        "nul",
        "True",
        "[1 2]",
        r#"{"a":1,}"#,
        "{,}",
        "[,]",
        "[1,,2]",
        "{\"a\" 1}",
        "{1: 2}",
        "{'a': 1}",
        "'a'",
        "[1]]",
        "]",
        "\u{a0}1",
        "1\u{0}",
        "\"a\u{1f}\"",
        "/*c*/1",
        "[1] //",
        "NaN",
        "Infinity",
        "-Infinity",
        "\"\\'\"",
        "{\"a\":1 \"b\":2}",
    ] {
        let theirs = serde_json::from_str::<serde_json::Value>(json);
        assert!(theirs.is_err(), "serde_json read {json:?}");
        let err = sluice_serde::from_json_str::<serde_json::Value>(json).unwrap_err();
        assert_eq!(err.code().category(), "json", "{json:?}: {err:?}");
        assert!(err.span().is_some(), "{json:?}");
        agree::<IgnoredAny>(json);
    }
    for json in [" \t\n\r1 \t\n\r", "[ ]", "{ }", "[1 , 2]", "{\"a\" : 1}"] {
        agree::<serde_json::Value>(json).unwrap();
    }
}
