//! Values through JSON and MessagePack and back.

mod common;

use common::{Everything, everything};

#[test]
fn everything_round_trips_through_json() {
    let mut value = everything();
    // JSON object keys are scalars; maps with container keys need a handler (see below).
    value.tuple_keys.clear();
    let text = sluice::json::to_string(&value).expect("to json");
    let back: Everything = sluice::json::from_str(&text).expect("from json");
    assert_eq!(back, value, "{text}");
    let pretty = sluice::json::to_string_pretty(&value).expect("pretty");
    let back: Everything = sluice::json::from_str(&pretty).expect("from pretty");
    assert_eq!(back, value);
}

#[test]
fn everything_round_trips_through_msgpack() {
    let mut value = everything();
    // MessagePack integers stop at 64 bits.
    value.i128 = i128::from(i64::MIN);
    value.u128 = u128::from(u64::MAX);
    let bytes = sluice::msgpack::to_vec(&value).expect("to msgpack");
    let back: Everything = sluice::msgpack::from_slice(&bytes).expect("from msgpack");
    assert_eq!(back, value);
}

#[test]
fn container_keys_are_key_value_arrays_in_json_and_native_in_msgpack() {
    let value: std::collections::BTreeMap<(u8, u8), bool> = [((1, 2), true)].into();
    let text = sluice::json::to_string(&value).expect("container key");
    assert_eq!(text, r#"[{"$key":[1,2],"$value":true}]"#);
    let back: std::collections::BTreeMap<(u8, u8), bool> =
        sluice::json::from_str(&text).expect("back from json");
    assert_eq!(back, value);
    // A plain pipe has no convention for them: JSON object keys must be text.
    let mut writer =
        sluice::json::JsonWriter::new(Vec::new(), sluice::json::WriterOptions::condensed());
    let error = sluice::pipe(&mut sluice::PropertyReader::new(&value), &mut writer)
        .expect_err("container key without the table");
    assert_eq!(error.code(), sluice::core::codes::INVALID_STRUCTURE);
    let bytes = sluice::msgpack::to_vec(&value).expect("msgpack");
    let back: std::collections::BTreeMap<(u8, u8), bool> =
        sluice::msgpack::from_slice(&bytes).expect("back");
    assert_eq!(back, value);
}

#[test]
fn integer_keys_are_written_as_json_strings_and_read_back() {
    let value: std::collections::BTreeMap<i32, String> = [(-1, "a".into()), (7, "b".into())].into();
    let text = sluice::json::to_string(&value).expect("json");
    assert_eq!(text, r#"{"-1":"a","7":"b"}"#);
    let back: std::collections::BTreeMap<i32, String> =
        sluice::json::from_str(&text).expect("back");
    assert_eq!(back, value);
}
