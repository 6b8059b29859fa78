//! Errors keep sluice's codes, spans and paths through serde: every error points at the value
//! (or key, or container) that caused it.

use std::collections::HashMap;

use serde::Deserialize;
use sluice_core::{Span, codes as core_codes};
use sluice_serde::codes;

/// The text a span covers.
fn covered(text: &str, span: Option<Span>) -> &str {
    let span = span.expect("the error has a span");
    &text[span.range()]
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Inner {
    name: String,
    sizes: Vec<u32>,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Outer {
    id: u64,
    inner: Inner,
    others: Vec<Inner>,
}

#[test]
fn a_wrong_type_in_a_nested_field_points_at_that_value() {
    let text = r#"{"id": 1, "inner": {"name": "a", "sizes": [1, 2]},
                   "others": [{"name": "b", "sizes": []}, {"name": "c", "sizes": [3, "four"]}]}"#;
    let err = sluice_serde::from_json_str::<Outer>(text).unwrap_err();
    assert_eq!(err.code(), codes::INVALID_TYPE);
    assert_eq!(covered(text, err.span()), r#""four""#);
    assert_eq!(err.path().unwrap().to_string(), "$.others[1].sizes[1]");
    // Rendered with the source attached, the caret is under the value.
    let shown = err.with_source_text("doc.json", text).render();
    assert!(shown.contains("serde/InvalidType"), "{shown}");
    assert!(shown.contains("doc.json:2:"), "{shown}");
    assert!(shown.contains("^^^^^^"), "{shown}");
    assert!(shown.contains("$.others[1].sizes[1]"), "{shown}");
}

#[test]
fn a_number_that_does_not_fit_points_at_the_number() {
    let text = r#"{"id": 1, "inner": {"name": "a", "sizes": [1, 4294967296]}, "others": []}"#;
    let err = sluice_serde::from_json_str::<Outer>(text).unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(covered(text, err.span()), "4294967296");
    assert_eq!(err.path().unwrap().to_string(), "$.inner.sizes[1]");
}

#[test]
fn a_container_of_the_wrong_type_points_at_its_start() {
    let text = r#"{"id": 1, "inner": [1, 2], "others": []}"#;
    let err = sluice_serde::from_json_str::<Outer>(text).unwrap_err();
    // serde accepts a struct as the sequence of its fields: 1 is not a string.
    assert_eq!(err.code(), codes::INVALID_TYPE);
    assert_eq!(covered(text, err.span()), "1");
    let text = r#"{"id": 1, "inner": "text", "others": []}"#;
    let err = sluice_serde::from_json_str::<Outer>(text).unwrap_err();
    assert_eq!(err.code(), codes::INVALID_TYPE);
    assert_eq!(covered(text, err.span()), r#""text""#);
    assert_eq!(err.path().unwrap().to_string(), "$.inner");
}

#[test]
fn a_missing_field_points_at_the_whole_object() {
    let text = r#"{"id": 1, "inner": {"name": "a"}, "others": []}"#;
    let err = sluice_serde::from_json_str::<Outer>(text).unwrap_err();
    assert_eq!(err.code(), codes::MISSING_FIELD);
    assert_eq!(covered(text, err.span()), r#"{"name": "a"}"#);
    assert_eq!(err.path().unwrap().to_string(), "$.inner");
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Strict {
    a: u8,
    b: u8,
}

#[test]
fn unknown_and_duplicate_fields_point_at_the_key() {
    let text = r#"{"a": 1, "c": 2, "b": 3}"#;
    let err = sluice_serde::from_json_str::<Strict>(text).unwrap_err();
    assert_eq!(err.code(), codes::UNKNOWN_FIELD);
    assert_eq!(covered(text, err.span()), r#""c""#);
    assert!(err.notes().iter().any(|note| note.contains(r#""a", "b""#)));

    let text = r#"{"a": 1, "b": 2, "a": 3}"#;
    let err = sluice_serde::from_json_str::<Strict>(text).unwrap_err();
    assert_eq!(err.code(), codes::DUPLICATE_FIELD);
    assert_eq!(covered(text, err.span()), r#""a""#);
    assert_eq!(err.span().unwrap().start, 17);
}

#[derive(Deserialize, Debug, PartialEq)]
enum Mode {
    Fast,
    Safe { level: u8 },
}

#[test]
fn enum_errors() {
    let text = r#"["Fast", "Slow"]"#;
    let err = sluice_serde::from_json_str::<Vec<Mode>>(text).unwrap_err();
    assert_eq!(err.code(), codes::UNKNOWN_VARIANT);
    assert_eq!(covered(text, err.span()), r#""Slow""#);
    assert_eq!(err.path().unwrap().to_string(), "$[1]");

    let text = r#"{"Safe": {"level": 1}, "Fast": null}"#;
    let err = sluice_serde::from_json_str::<Mode>(text).unwrap_err();
    assert_eq!(err.code(), codes::INVALID_ENUM);
    assert_eq!(covered(text, err.span()), r#""Fast""#);

    let text = r#"{}"#;
    let err = sluice_serde::from_json_str::<Mode>(text).unwrap_err();
    assert_eq!(err.code(), codes::INVALID_ENUM);

    let text = r#"{"Safe": {"level": "high"}}"#;
    let err = sluice_serde::from_json_str::<Mode>(text).unwrap_err();
    assert_eq!(err.code(), codes::INVALID_TYPE);
    assert_eq!(covered(text, err.span()), r#""high""#);
    assert_eq!(err.path().unwrap().to_string(), "$.Safe.level");

    // A struct variant given as a bare string.
    let err = sluice_serde::from_json_str::<Mode>(r#""Safe""#).unwrap_err();
    assert_eq!(err.code(), codes::INVALID_TYPE);
}

#[test]
fn tuples_of_the_wrong_length() {
    let text = "[[1, 2], [1, 2, 3, 4]]";
    let err = sluice_serde::from_json_str::<Vec<(u8, u8)>>(text).unwrap_err();
    assert_eq!(err.code(), codes::INVALID_LENGTH);
    assert_eq!(covered(text, err.span()), "[1, 2, 3, 4]");
    let text = "[[1, 2], [1]]";
    let err = sluice_serde::from_json_str::<Vec<(u8, u8)>>(text).unwrap_err();
    assert_eq!(err.code(), codes::INVALID_LENGTH);
    assert_eq!(covered(text, err.span()), "[1]");
}

#[test]
fn map_keys_that_do_not_parse() {
    let text = r#"{"1": "a", "x": "b"}"#;
    let err = sluice_serde::from_json_str::<HashMap<u32, String>>(text).unwrap_err();
    assert_eq!(err.code(), codes::INVALID_TYPE);
    assert_eq!(covered(text, err.span()), r#""x""#);
    let text = r#"{"256": "a"}"#;
    let err = sluice_serde::from_json_str::<HashMap<u8, String>>(text).unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(covered(text, err.span()), r#""256""#);
    // Numbers in key text follow integer syntax only: no sign, no spaces, no exponent.
    for key in ["+1", " 1", "1e2", "0x10", ""] {
        let text = format!("{{\"{key}\": 0}}");
        assert!(
            sluice_serde::from_json_str::<HashMap<u32, u8>>(&text).is_err(),
            "{key:?} accepted as u32"
        );
    }
}

/// A map key read through `deserialize_f64`, as a float key type reads itself.
#[derive(Debug, PartialEq, Eq, Hash)]
struct FloatKey(u64);

impl<'de> Deserialize<'de> for FloatKey {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Bits;
        impl serde::de::Visitor<'_> for Bits {
            type Value = FloatKey;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a float")
            }
            fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<FloatKey, E> {
                Ok(FloatKey(value.to_bits()))
            }
            // serde_json hands an integer key to the visitor as an integer.
            #[allow(clippy::cast_precision_loss)]
            fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<FloatKey, E> {
                self.visit_f64(value as f64)
            }
            #[allow(clippy::cast_precision_loss)]
            fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<FloatKey, E> {
                self.visit_f64(value as f64)
            }
        }
        deserializer.deserialize_f64(Bits)
    }
}

#[test]
fn float_keys_follow_json_number_syntax_as_serde_json_reads_them() {
    for key in [
        "1", "-1", "0", "-0", "1.5", "0.25", "1e2", "1E+2", "2.5e-3", "+1", ".5", "1.", "01", "-",
        "1e", "1e+", "1.e2", "--1", "1-2", "1e2.5", " 1", "x", "", "0x10", "Infinity",
    ] {
        let text = format!("{{\"{key}\": 0}}");
        let ours = sluice_serde::from_json_str::<HashMap<FloatKey, u8>>(&text);
        let theirs = serde_json::from_str::<HashMap<FloatKey, u8>>(&text);
        match (ours, theirs) {
            (Ok(ours), Ok(theirs)) => assert_eq!(ours, theirs, "{key:?}"),
            (Err(err), Err(_)) => assert_eq!(covered(&text, err.span()), format!("\"{key}\"")),
            (ours, theirs) => panic!("{key:?}: sluice {ours:?}, serde_json {theirs:?}"),
        }
    }
}

#[test]
fn syntax_errors_keep_the_json_codes() {
    let text = r#"{"id": 1 "inner": {}}"#;
    let err = sluice_serde::from_json_str::<Outer>(text).unwrap_err();
    assert_eq!(err.code(), sluice_json::codes::EXPECT_COMMA);
    assert_eq!(err.span().unwrap().start, 9);
    // Comments are not strict JSON.
    let err = sluice_serde::from_json_str::<Vec<u8>>("[1, // one\n 2]").unwrap_err();
    assert_eq!(err.code().category(), "json");
}

#[test]
fn trailing_values_are_reported() {
    let text = r#"{"a": 1, "b": 2} {"#;
    let err = sluice_serde::from_json_str::<Strict>(text).unwrap_err();
    // Strict JSON: the reader itself refuses a second root value.
    assert_eq!(err.code().category(), "json");
    assert_eq!(err.span().unwrap().start, 17);

    // A MessagePack slice with two values.
    let bytes = [0x01, 0x02];
    let err = sluice_serde::from_msgpack_slice::<u8>(&bytes).unwrap_err();
    assert_eq!(err.code(), codes::TRAILING_VALUE);
    assert_eq!(err.span(), Some(Span::new(1, 2)));
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Borrowing<'a> {
    name: &'a str,
}

#[test]
fn a_str_field_that_cannot_borrow_says_so() {
    // The escape forces the reader to unescape into its scratch buffer.
    let text = r#"{"name": "a\nb"}"#;
    let err = sluice_serde::from_json_str::<Borrowing>(text).unwrap_err();
    assert_eq!(err.code(), codes::CANNOT_BORROW);
    assert_eq!(covered(text, err.span()), r#""a\nb""#);
    assert!(err.notes().iter().any(|note| note.contains("Cow")));
    // A deserializer that was not given the input cannot lend anything.
    let text = r#"{"name": "plain"}"#;
    let mut de = sluice_serde::Deserializer::new(sluice_json::JsonReader::from_str(text));
    let err = Borrowing::deserialize(&mut de).unwrap_err();
    assert_eq!(err.code(), codes::CANNOT_BORROW);
    assert_eq!(covered(text, err.span()), r#""plain""#);
}

#[test]
fn custom_errors_from_deserialize_impls_get_code_span_and_path() {
    #[derive(Debug)]
    struct Even(#[allow(dead_code)] u32);
    impl<'de> Deserialize<'de> for Even {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Even, D::Error> {
            let n = u32::deserialize(d)?;
            if n % 2 == 0 {
                Ok(Even(n))
            } else {
                Err(serde::de::Error::custom(format!("{n} is odd")))
            }
        }
    }
    let text = r#"{"values": [2, 4, 7]}"#;
    let err = sluice_serde::from_json_str::<HashMap<String, Vec<Even>>>(text).unwrap_err();
    assert_eq!(err.code(), codes::CUSTOM);
    assert_eq!(err.message(), "7 is odd");
    assert_eq!(covered(text, err.span()), "7");
    assert_eq!(err.path().unwrap().to_string(), "$.values[2]");
}

#[test]
fn paths_keep_escaped_keys_and_keys_from_any_reader() {
    let text = r#"{"a\"b": {"c": [true, "x"]}}"#;
    let err = sluice_serde::from_json_str::<HashMap<String, HashMap<String, Vec<bool>>>>(text)
        .unwrap_err();
    assert_eq!(err.path().unwrap().to_string(), r#"$["a\"b"].c[1]"#);
    // Through an io::Read reader nothing is borrowed: keys are copied for the path.
    let err = sluice_serde::from_json_read::<HashMap<String, HashMap<String, Vec<bool>>>, _>(
        text.as_bytes(),
    )
    .unwrap_err();
    assert_eq!(err.path().unwrap().to_string(), r#"$["a\"b"].c[1]"#);
    assert_eq!(covered(text, err.span()), r#""x""#);
}

#[derive(Debug)]
struct Even;

impl<'de> Deserialize<'de> for Even {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Even, D::Error> {
        match u8::deserialize(d)? % 2 {
            0 => Ok(Even),
            _ => Err(serde::de::Error::custom("odd")),
        }
    }
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
enum Shape {
    Dot,
    Pair(u8, u8),
    Many(Vec<u8>),
}

/// The path and covered text of the error `T` gives for `text`, read from the string and
/// through `io::Read` (where no key can be borrowed, so keys are copied for the path).
fn path_and_text<T: serde::de::DeserializeOwned + std::fmt::Debug>(text: &str) -> (String, &str) {
    let err = sluice_serde::from_json_str::<T>(text).unwrap_err();
    let from_read = sluice_serde::from_json_read::<T, _>(text.as_bytes()).unwrap_err();
    assert_eq!(
        (from_read.code(), from_read.span(), from_read.path()),
        (err.code(), err.span(), err.path()),
        "{text}: the io::Read path differs"
    );
    (
        err.path().expect("a path").to_string(),
        covered(text, err.span()),
    )
}

#[test]
fn error_paths_name_every_level_on_the_way_out() {
    type Nested = Vec<Vec<Vec<u8>>>;
    assert_eq!(
        path_and_text::<Nested>("[[], [[1], [2, -3]]]"),
        ("$[1][1][1]".into(), "-3")
    );
    type Keyed = HashMap<String, Vec<HashMap<String, u8>>>;
    let text = r#"{"a": [{}, {"b\"c": 1, "d": true}]}"#;
    assert_eq!(path_and_text::<Keyed>(text), (r#"$.a[1].d"#.into(), "true"));
    let text = r#"{"a\"b": [{}, {"c": 1, "d": true}]}"#;
    assert_eq!(
        path_and_text::<Keyed>(text),
        (r#"$["a\"b"][1].d"#.into(), "true")
    );
    type Options = Vec<Option<Vec<u8>>>;
    assert_eq!(
        path_and_text::<Options>(r#"[null, [1, "x"]]"#),
        ("$[1][1]".into(), r#""x""#)
    );
    // A key that does not parse names itself.
    type NumberKeys = Vec<HashMap<u8, String>>;
    let text = r#"[{}, {"256": "a"}]"#;
    assert_eq!(
        path_and_text::<NumberKeys>(text),
        (r#"$[1]["256"]"#.into(), r#""256""#)
    );
}

#[test]
fn errors_raised_by_impls_and_visitors_get_the_path_of_their_value() {
    // By a `Deserialize` impl, inside containers and at the root.
    type Evens = HashMap<String, Vec<Even>>;
    assert_eq!(
        path_and_text::<Evens>(r#"{"v": [2, 4, 5]}"#),
        ("$.v[2]".into(), "5")
    );
    assert_eq!(path_and_text::<Even>("3"), ("$".into(), "3"));
    // By a derived visitor: the unknown key itself, the object missing a field.
    let text = r#"[{"a": 1, "b": 2}, {"a": 1, "c": 2}]"#;
    assert_eq!(
        path_and_text::<Vec<Strict>>(text),
        ("$[1].c".into(), r#""c""#)
    );
    let text = r#"[{"a": 1, "b": 2}, {"a": 1}]"#;
    assert_eq!(
        path_and_text::<Vec<Strict>>(text),
        ("$[1]".into(), r#"{"a": 1}"#)
    );
}

#[test]
fn enum_errors_name_the_variant_in_the_path() {
    let text = r#"["Dot", {"Pair": [1, "x"]}]"#;
    assert_eq!(
        path_and_text::<Vec<Shape>>(text),
        ("$[1].Pair[1]".into(), r#""x""#)
    );
    let text = r#"[{"Many": [1, -1]}]"#;
    assert_eq!(
        path_and_text::<Vec<Shape>>(text),
        ("$[0].Many[1]".into(), "-1")
    );
    let text = r#"[{"Nope": 1}]"#;
    assert_eq!(
        path_and_text::<Vec<Shape>>(text),
        ("$[0].Nope".into(), r#""Nope""#)
    );
}

#[test]
fn a_stream_names_the_path_inside_the_failing_record() {
    let reader = sluice_json::JsonReader::from_str("{\"a\": [1]}\n{\"a\": [1, \"x\"]}\n")
        .with_options(sluice_json::JsonOptions::ndjson());
    let results: Vec<_> = sluice_serde::Deserializer::new(reader)
        .into_stream::<HashMap<String, Vec<u8>>>()
        .collect();
    assert!(results[0].is_ok());
    let err = results[1].as_ref().unwrap_err();
    assert_eq!(err.path().unwrap().to_string(), "$.a[1]");
}

#[test]
fn msgpack_errors_have_byte_spans_and_paths() {
    // {"id": "seven"}
    let bytes = sluice_serde::to_msgpack_vec(&HashMap::from([("id", "seven")])).unwrap();
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Id {
        id: u8,
    }
    let err = sluice_serde::from_msgpack_slice::<Id>(&bytes).unwrap_err();
    assert_eq!(err.code(), codes::INVALID_TYPE);
    // The str header byte and its five bytes.
    assert_eq!(err.span(), Some(Span::new(4, 10)));
    assert_eq!(err.path().unwrap().to_string(), "$.id");
    // Truncated input keeps the msgpack code.
    let err = sluice_serde::from_msgpack_slice::<Id>(&bytes[..6]).unwrap_err();
    assert_eq!(err.code(), sluice_msgpack::codes::TRUNCATED);
    // Nested sequences, no keys to borrow.
    let bytes = sluice_serde::to_msgpack_vec(&(vec![1, 2], (3, "x"))).unwrap();
    let err = sluice_serde::from_msgpack_slice::<Vec<Vec<u8>>>(&bytes).unwrap_err();
    assert_eq!(err.code(), codes::INVALID_TYPE);
    assert_eq!(err.path().unwrap().to_string(), "$[1][1]");
}

#[test]
fn serializer_errors_keep_writer_codes() {
    let err = sluice_serde::to_json_string(&f64::NAN).unwrap_err();
    assert_eq!(err.code(), sluice_json::codes::NON_FINITE_NUMBER);
    let err = sluice_serde::to_json_string(&HashMap::from([((1, 2), 3)])).unwrap_err();
    assert_eq!(err.code(), codes::INVALID_KEY);
    #[derive(Debug)]
    struct Fails;
    impl serde::Serialize for Fails {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("no"))
        }
    }
    let err = sluice_serde::to_json_string(&Fails).unwrap_err();
    assert_eq!(err.code(), codes::CUSTOM);
}

/// A list that must not be empty, checked after serde read it whole (`try_from`).
#[derive(Deserialize, Debug)]
#[serde(try_from = "Vec<u8>")]
#[allow(dead_code)]
struct NonEmpty(Vec<u8>);

impl TryFrom<Vec<u8>> for NonEmpty {
    type Error = &'static str;
    fn try_from(items: Vec<u8>) -> Result<NonEmpty, &'static str> {
        if items.is_empty() {
            Err("empty")
        } else {
            Ok(NonEmpty(items))
        }
    }
}

/// A map that must hold `"id"`, checked after serde read it whole.
#[derive(Deserialize, Debug)]
#[serde(try_from = "HashMap<String, u8>")]
#[allow(dead_code)]
struct WithId(HashMap<String, u8>);

impl TryFrom<HashMap<String, u8>> for WithId {
    type Error = &'static str;
    fn try_from(map: HashMap<String, u8>) -> Result<WithId, &'static str> {
        if map.contains_key("id") {
            Ok(WithId(map))
        } else {
            Err("no id")
        }
    }
}

#[derive(Deserialize, Debug)]
#[serde(tag = "kind")]
#[allow(dead_code)]
enum Part {
    Wheel { size: u8 },
    Seat,
}

#[derive(Deserialize, Debug)]
#[serde(untagged)]
#[allow(dead_code)]
enum Loose {
    Number(u8),
    Pair(u8, u8),
}

#[test]
fn an_impl_that_refuses_a_whole_container_points_at_the_container() {
    let text = r#"{"a": [1], "b": [ ]}"#;
    assert_eq!(
        path_and_text::<HashMap<String, NonEmpty>>(text),
        ("$.b".into(), "[ ]")
    );
    let text = r#"[{"id": 1}, {"x": 2}]"#;
    assert_eq!(
        path_and_text::<Vec<WithId>>(text),
        ("$[1]".into(), r#"{"x": 2}"#)
    );
    // At the root too.
    let text = "[]";
    assert_eq!(path_and_text::<NonEmpty>(text), ("$".into(), "[]"));
}

#[test]
fn errors_after_serde_buffered_a_container_point_at_that_container() {
    // Internally tagged: serde reads the object whole before it knows the variant, and
    // reports the field's error after the object is closed.
    let text = r#"[{"kind": "Seat"}, {"kind": "Wheel", "size": 300}]"#;
    let err = sluice_serde::from_json_str::<Vec<Part>>(text).unwrap_err();
    assert_eq!(
        covered(text, err.span()),
        r#"{"kind": "Wheel", "size": 300}"#
    );
    assert_eq!(err.path().unwrap().to_string(), "$[1]");
    let text = r#"[{"kind": "Wheel"}]"#;
    let (path, covered) = path_and_text::<Vec<Part>>(text);
    assert_eq!((path.as_str(), covered), ("$[0]", r#"{"kind": "Wheel"}"#));
    // Untagged: no variant matches the buffered array.
    let text = r#"{"x": [1, 2, 3]}"#;
    assert_eq!(
        path_and_text::<HashMap<String, Loose>>(text),
        ("$.x".into(), "[1, 2, 3]")
    );
}

#[test]
fn an_error_after_a_container_and_more_tokens_keeps_its_own_span() {
    // The container closed before the failing value is not what the error is about.
    let text = r#"{"a": [1], "b": 3}"#;
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Fields {
        a: Vec<u8>,
        b: Even,
    }
    assert_eq!(path_and_text::<Fields>(text), ("$.b".into(), "3"));
}
