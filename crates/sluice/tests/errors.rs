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
