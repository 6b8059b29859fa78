//! Errors from reading JSON into Rust values: code, data path, type path and span.

use sluice::core::{Span, codes as core_codes};
use sluice::reflect::codes;
use sluice::{Error, Reflect};

#[derive(Reflect, Debug, PartialEq)]
enum Distance {
    Near,
    Mid,
}

#[derive(Reflect, Debug, PartialEq)]
struct Item {
    id: u8,
    label: String,
}

#[derive(Reflect, Debug, PartialEq)]
struct Settings {
    name: String,
    distance: Distance,
    items: Vec<Item>,
}

fn load(text: &str) -> Error {
    sluice::json::from_str::<Settings>(text).expect_err("the input is wrong")
}

/// The span of the first occurrence of `needle` in `text`.
fn span_of(text: &str, needle: &str) -> Span {
    let start = text.find(needle).expect("needle in text");
    Span::new(start, start + needle.len())
}

fn path(error: &Error) -> String {
    error.path().map(ToString::to_string).unwrap_or_default()
}

#[test]
fn unknown_field_names_the_field_the_struct_and_the_known_fields() {
    let text =
        r#"{"name": "a", "distance": "Near", "items": [{"id": 1, "label": "x", "colour": 2}]}"#;
    let error = load(text);
    assert_eq!(error.code(), codes::UNKNOWN_FIELD);
    assert_eq!(path(&error), "$.items[0].colour");
    assert_eq!(error.span(), Some(span_of(text, r#""colour""#)));
    assert!(error.message().contains("colour") && error.message().contains("id, label"));
    assert!(error.message().contains("Item"));
}

#[test]
fn missing_field_points_at_the_whole_object() {
    let text = r#"{"name": "a", "distance": "Near", "items": [{"id": 1}]}"#;
    let error = load(text);
    assert_eq!(error.code(), codes::MISSING_FIELD);
    assert_eq!(path(&error), "$.items[0]");
    assert_eq!(error.span(), Some(span_of(text, r#"{"id": 1}"#)));
    assert!(error.message().contains("label"));
}

#[test]
fn wrong_type_says_expected_and_found() {
    let text = r#"{"name": "a", "distance": "Near", "items": [{"id": "one", "label": "x"}]}"#;
    let error = load(text);
    assert_eq!(error.code(), codes::WRONG_TYPE);
    assert_eq!(path(&error), "$.items[0].id");
    assert_eq!(error.type_path(), Some("Item.id: u8"));
    assert_eq!(error.span(), Some(span_of(text, r#""one""#)));
    assert!(error.message().contains("u8") && error.message().contains("String"));
}

#[test]
fn wrong_container_is_a_wrong_type_at_the_container() {
    let text = r#"{"name": "a", "distance": "Near", "items": {"id": 1}}"#;
    let error = load(text);
    assert_eq!(error.code(), codes::WRONG_TYPE);
    assert_eq!(path(&error), "$.items");
    assert_eq!(
        error.span().map(|s| s.start),
        Some(text.find(r#"{"id""#).expect("object"))
    );
}

#[test]
fn out_of_range_number_is_exact_and_located() {
    let text = r#"{"name": "a", "distance": "Near", "items": [{"id": 1, "label": "x"}, {"id": 256, "label": "y"}]}"#;
    let error = load(text);
    assert_eq!(error.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(path(&error), "$.items[1].id");
    assert_eq!(error.type_path(), Some("Item.id: u8"));
    assert_eq!(error.span(), Some(span_of(text, "256")));
}

#[derive(Reflect, Debug, PartialEq)]
struct Numbers {
    count: i32,
    total: u64,
    level: u8,
    ratio: f64,
    small: Option<f32>,
    pair: (i16, u16),
}

/// The error of reading `text` into `Numbers`, checked for code, path, type path and the
/// span of `token`.
fn number_error(text: &str, code: sluice::core::ErrorCode, field: &str, token: &str) {
    let error = sluice::json::from_str::<Numbers>(text).expect_err(text);
    assert_eq!(error.code(), code, "{text}");
    assert_eq!(path(&error), format!("$.{field}"), "{text}");
    assert!(
        error.type_path().is_some_and(|t| t.starts_with(&format!(
            "Numbers.{}:",
            field.split('[').next().unwrap_or(field)
        ))),
        "{text}: {:?}",
        error.type_path()
    );
    assert_eq!(error.span(), Some(span_of(text, token)), "{text}");
}

#[test]
fn numbers_read_in_the_type_of_their_field() {
    let text = r#"{"count": -7, "total": 18446744073709551615, "level": 255, "ratio": -65.613616999999977, "small": 0.1, "pair": [-32768, 65535]}"#;
    let numbers: Numbers = sluice::json::from_str(text).expect("numbers that fit");
    assert_eq!(
        numbers,
        Numbers {
            count: -7,
            total: u64::MAX,
            level: 255,
            ratio: "-65.613616999999977".parse().expect("float text"),
            small: Some(0.1),
            pair: (i16::MIN, u16::MAX),
        }
    );
    let text = r#"{"count": 1e2, "total": 0, "level": 2.0, "ratio": 18446744073709551616, "small": null, "pair": [-0, 0]}"#;
    let numbers: Numbers = sluice::json::from_str(text).expect("integral floats and big integers");
    assert_eq!(
        (numbers.count, numbers.level, numbers.small),
        (100, 2, None)
    );
    assert!((numbers.ratio - 18_446_744_073_709_551_616.0).abs() < 1.0);
}

#[test]
fn numbers_that_do_not_fit_their_field_are_located() {
    let valid = r#"{"count": 1, "total": 2, "level": 3, "ratio": 4.5, "small": 6, "pair": [7, 8]}"#;
    let with = |field: &str, old: &str, new: &str| {
        valid.replace(
            &format!(r#""{field}": {old}"#),
            &format!(r#""{field}": {new}"#),
        )
    };
    number_error(
        &with("count", "1", "1.5"),
        core_codes::NUMBER_NOT_INTEGER,
        "count",
        "1.5",
    );
    number_error(
        &with("count", "1", "2147483648"),
        core_codes::NUMBER_OUT_OF_RANGE,
        "count",
        "2147483648",
    );
    number_error(
        &with("level", "3", "300"),
        core_codes::NUMBER_OUT_OF_RANGE,
        "level",
        "300",
    );
    number_error(
        &with("level", "3", "-1"),
        core_codes::NUMBER_OUT_OF_RANGE,
        "level",
        "-1",
    );
    number_error(
        &with("total", "2", "-1"),
        core_codes::NUMBER_OUT_OF_RANGE,
        "total",
        "-1",
    );
    number_error(
        &with("total", "2", "0.5"),
        core_codes::NUMBER_NOT_INTEGER,
        "total",
        "0.5",
    );
    number_error(
        &with("ratio", "4.5", "1e400"),
        core_codes::NUMBER_OUT_OF_RANGE,
        "ratio",
        "1e400",
    );
    number_error(
        &with("small", "6", "1e39"),
        core_codes::NUMBER_OUT_OF_RANGE,
        "small",
        "1e39",
    );
    let text = valid.replace("[7, 8]", "[7, 65536]");
    number_error(&text, core_codes::NUMBER_OUT_OF_RANGE, "pair[1]", "65536");
    let text = valid.replace("[7, 8]", "[-32769, 8]");
    number_error(&text, core_codes::NUMBER_OUT_OF_RANGE, "pair[0]", "-32769");
}

#[test]
fn msgpack_numbers_read_in_the_type_of_their_place() {
    let bytes = sluice::msgpack::to_vec(&vec![2.0f64, 300.0]).expect("bytes");
    let small: Vec<u16> = sluice::msgpack::from_slice(&bytes).expect("integral floats");
    assert_eq!(small, [2, 300]);
    let error = sluice::msgpack::from_slice::<Vec<u8>>(&bytes).expect_err("300 in u8");
    assert_eq!(error.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(path(&error), "$[1]");
    let bytes = sluice::msgpack::to_vec(&vec![0.5f64]).expect("bytes");
    let error = sluice::msgpack::from_slice::<Vec<i32>>(&bytes).expect_err("0.5 in i32");
    assert_eq!(error.code(), core_codes::NUMBER_NOT_INTEGER);
    let bytes = sluice::msgpack::to_vec(&vec![u64::MAX]).expect("bytes");
    let wide: Vec<f64> = sluice::msgpack::from_slice(&bytes).expect("u64 into f64");
    assert!((wide[0] - 18_446_744_073_709_551_615.0).abs() < 1.0);
    let error = sluice::msgpack::from_slice::<Vec<i64>>(&bytes).expect_err("u64::MAX in i64");
    assert_eq!(error.code(), core_codes::NUMBER_OUT_OF_RANGE);
}

#[test]
fn bad_enum_name_lists_the_accepted_names() {
    let text = "{\"name\": \"Lorem ipsum\",\n \"distance\": \"Far\",\n \"items\": []}";
    let error = load(text);
    assert_eq!(error.code(), codes::ENUM_NAME_NOT_FOUND);
    assert_eq!(path(&error), "$.distance");
    assert_eq!(error.type_path(), Some("Settings.distance: Distance"));
    assert_eq!(error.span(), Some(span_of(text, r#""Far""#)));
    assert!(error.message().contains("Near, Mid"));
    let rendered = error.render();
    assert!(rendered.contains("reflect/EnumNameNotFound"), "{rendered}");
    assert!(rendered.contains(r#""distance": "Far""#), "{rendered}");
    assert!(
        rendered.contains("Settings.distance: Distance"),
        "{rendered}"
    );
}

#[test]
fn a_fixed_array_checks_its_length() {
    let error = sluice::json::from_str::<[u8; 3]>("[1, 2]").expect_err("short");
    assert_eq!(error.code(), codes::LENGTH_MISMATCH);
    let error = sluice::json::from_str::<(u8, bool)>("[1, true, 3]").expect_err("long");
    assert_eq!(error.code(), codes::LENGTH_MISMATCH);
    assert_eq!(error.span(), Some(Span::new(10, 11)));
}

#[test]
fn a_syntax_error_is_reported_by_the_format() {
    let error = sluice::json::from_str::<Vec<u8>>("[1, 2,]").expect_err("trailing comma");
    assert_eq!(error.code().category(), "json");
}

#[test]
fn msgpack_errors_carry_the_path_too() {
    let bytes = sluice::msgpack::to_vec(&vec![1u16, 300]).expect("bytes");
    let error = sluice::msgpack::from_slice::<Vec<u8>>(&bytes).expect_err("300 in u8");
    assert_eq!(error.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(path(&error), "$[1]");
    assert_eq!(error.span(), Some(Span::new(2, 5)));
}

#[test]
fn ndjson_records_fail_one_by_one() {
    let input = "{\"id\": 1, \"label\": \"a\"}\n{\"id\": 999, \"label\": \"b\"}\n{\"id\": 3, \"label\": \"c\"}\n";
    let results: Vec<Result<Item, Error>> = sluice::ndjson::iter(input.as_bytes()).collect();
    assert_eq!(results.len(), 3);
    assert!(results[0].is_ok() && results[2].is_ok());
    let error = results[1].as_ref().expect_err("999 does not fit");
    assert_eq!(error.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(error.span(), Some(span_of(input, "999")));
}

// ---- duplicate keys: the typed target checks them, the reader need not ----

/// The span of the last occurrence of `needle` in `text`.
fn last_span_of(text: &str, needle: &str) -> Span {
    let start = text.rfind(needle).expect("needle in text");
    Span::new(start, start + needle.len())
}

#[derive(Reflect, Debug, PartialEq)]
struct Keyed {
    names: std::collections::HashMap<String, u8>,
    ids: std::collections::BTreeMap<u32, String>,
    vector: Option<[f32; 2]>,
}

#[test]
fn a_struct_field_given_twice_is_a_duplicate_key_at_the_second_key() {
    use sluice::json::codes::DUPLICATE_KEY;
    let text = r#"{"name": "a", "distance": "Near", "items": [{"id": 1, "label": "x", "id": 2}], "name": "b"}"#;
    let error = load(text);
    assert_eq!(error.code(), DUPLICATE_KEY);
    assert_eq!(error.span(), Some(last_span_of(text, "\"id\"")));
    assert_eq!(path(&error), "$.items[0].id");
    // The whole document: the outer field comes later, after the inner one is fixed.
    let text = r#"{"name": "a", "distance": "Near", "items": [], "name": "b"}"#;
    let error = load(text);
    assert_eq!(error.code(), DUPLICATE_KEY);
    assert_eq!(error.span(), Some(last_span_of(text, "\"name\"")));
    assert_eq!(path(&error), "$.name");
    // From bytes and from `io::Read` too.
    let error = sluice::json::from_slice::<Settings>(text.as_bytes()).unwrap_err();
    assert_eq!(error.code(), DUPLICATE_KEY);
    assert_eq!(error.span(), Some(last_span_of(text, "\"name\"")));
    let error = sluice::json::from_reader::<Settings, _>(text.as_bytes()).unwrap_err();
    assert_eq!(error.code(), DUPLICATE_KEY);
    assert_eq!(error.span(), Some(last_span_of(text, "\"name\"")));
}

#[test]
fn ndjson_records_with_a_key_given_twice_fail_at_the_second_key() {
    use sluice::json::codes::DUPLICATE_KEY;
    use sluice::ndjson::ParallelOptions;
    let input = "{\"id\": 1, \"label\": \"a\"}\n{\"id\": 2, \"label\": \"b\", \"id\": 5}\n";
    let second = input.rfind("\"id\"").expect("a second id");
    // One by one: the bad record fails, the others read.
    let results: Vec<Result<Item, Error>> = sluice::ndjson::iter(input.as_bytes()).collect();
    assert_eq!(results.len(), 2);
    assert!(results[0].is_ok());
    let error = results[1].as_ref().expect_err("id given twice");
    assert_eq!(error.code(), DUPLICATE_KEY);
    assert_eq!(error.span(), Some(Span::new(second, second + 4)));
    assert_eq!(path(error), "$.id");
    // On worker threads: the same error, reported with its line.
    let options = ParallelOptions {
        skip_errors: true,
        ..ParallelOptions::default()
    };
    let (items, summary) = sluice::ndjson::par_collect::<Item, _>(input.as_bytes(), &options)
        .expect("bad records are skipped");
    assert_eq!(items.len(), 1);
    assert_eq!(summary.errors.len(), 1);
    assert_eq!(summary.errors[0].record.line, 2);
    assert_eq!(summary.errors[0].error.code(), DUPLICATE_KEY);
    // With last-wins asked for, the record reads and the last value stands.
    let options = ParallelOptions {
        json: sluice::json::JsonOptions {
            duplicate_keys: sluice::json::DuplicateKeys::LastWins,
            ..sluice::json::JsonOptions::strict()
        },
        ..ParallelOptions::default()
    };
    let (items, _) = sluice::ndjson::par_collect::<Item, _>(input.as_bytes(), &options).unwrap();
    assert_eq!(items[1].id, 5);
}

#[test]
fn a_map_key_given_twice_is_a_duplicate_key_at_the_second_key() {
    use sluice::json::codes::DUPLICATE_KEY;
    let text = r#"{"names": {"k": 1, "j": 2, "k": 3}, "ids": {}, "vector": null}"#;
    let error = sluice::json::from_str::<Keyed>(text).unwrap_err();
    assert_eq!(error.code(), DUPLICATE_KEY);
    assert_eq!(error.span(), Some(last_span_of(text, "\"k\"")));
    assert_eq!(path(&error), "$.names.k");
    let text = r#"{"names": {}, "ids": {"7": "a", "07": "b"}, "vector": null}"#;
    let error = sluice::json::from_str::<Keyed>(text).unwrap_err();
    assert_eq!(error.code(), DUPLICATE_KEY);
    assert_eq!(error.span(), Some(span_of(text, "\"07\"")));
    assert_eq!(path(&error), r#"$.ids["7"]"#);
    // A vector read from an object by its handler.
    let text = r#"{"names": {}, "ids": {}, "vector": {"x": 1, "y": 2, "x": 3}}"#;
    let error = sluice::json::from_str::<Keyed>(text).unwrap_err();
    assert_eq!(error.code(), DUPLICATE_KEY);
    assert_eq!(error.span(), Some(last_span_of(text, "\"x\"")));
}

#[test]
fn with_last_wins_the_last_key_is_taken() {
    use sluice::json::{DuplicateKeys, JsonOptions};
    let options = JsonOptions {
        duplicate_keys: DuplicateKeys::LastWins,
        ..JsonOptions::default()
    };
    let text = r#"{"names": {"k": 1, "k": 3}, "ids": {"7": "a", "7": "b"}, "vector": {"x": 1, "y": 2, "x": 3}, "names": {"n": 4}}"#;
    let keyed: Keyed = sluice::json::from_str_with(text, options.clone()).expect("last wins");
    assert_eq!(
        keyed.names,
        std::collections::HashMap::from([("n".to_string(), 4)])
    );
    assert_eq!(keyed.ids.get(&7).map(String::as_str), Some("b"));
    assert_eq!(keyed.vector, Some([3.0, 2.0]));
    let keyed: Keyed = sluice::json::from_slice_with(
        br#"{"names": {"k": 1, "k": 3}, "ids": {}, "vector": null}"#,
        options,
    )
    .expect("last wins");
    assert_eq!(keyed.names.get("k"), Some(&3));
}
