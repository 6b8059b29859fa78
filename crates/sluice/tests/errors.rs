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
