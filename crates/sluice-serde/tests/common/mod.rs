//! Checks shared by the integration tests: serde_json is the oracle on strict JSON.

#![allow(dead_code, unreachable_pub)]

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Reads `json` through the bridge and through serde_json, and checks that:
/// - both read the same value;
/// - the bridge writes the same condensed text as `serde_json::to_string`;
/// - the value survives a round trip through MessagePack and through a sluice `Value`.
///
/// Returns the value read.
#[track_caller]
pub fn same_as_serde_json<T>(json: &str) -> T
where
    T: DeserializeOwned + Serialize + PartialEq + Debug,
{
    let ours = reads_like_serde_json(json);
    writes_like_serde_json(&ours);
    round_trips(&ours);
    ours
}

/// Reads `json` through the bridge and through serde_json and checks both read the same.
#[track_caller]
pub fn reads_like_serde_json<T>(json: &str) -> T
where
    T: DeserializeOwned + PartialEq + Debug,
{
    let theirs: T = serde_json::from_str(json)
        .unwrap_or_else(|err| panic!("serde_json cannot read the oracle input {json}: {err}"));
    let ours: T = sluice_serde::from_json_str(json)
        .unwrap_or_else(|err| panic!("the bridge cannot read {json}: {}", err.render()));
    assert_eq!(ours, theirs, "read differently: {json}");
    ours
}

/// The bridge writes `value` as the same condensed and pretty text as serde_json, except
/// for the spelling of float exponents (sluice writes `1.0e-7` where serde_json writes
/// `1e-7`): numbers are compared by value, everything else (keys, their order, strings,
/// escapes, layout) by text.
#[track_caller]
pub fn writes_like_serde_json<T: Serialize>(value: &T) {
    let theirs = serde_json::to_string(value).expect("serde_json writes the value");
    let ours = sluice_serde::to_json_string(value).expect("the bridge writes the value");
    assert_eq!(spelled(&ours), spelled(&theirs), "written differently");
    let theirs = serde_json::to_string_pretty(value).expect("serde_json writes the value");
    let ours = sluice_serde::to_json_string_pretty(value).expect("the bridge writes the value");
    assert_eq!(
        spelled(&ours),
        spelled(&theirs),
        "written differently (pretty)"
    );
}

/// JSON text with every float replaced by a canonical spelling of its value (`{:e}` of the
/// f64), so two texts compare equal when they differ only in how floats are written.
fn spelled(json: &str) -> String {
    let bytes = json.as_bytes();
    let mut out = String::with_capacity(json.len());
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let byte = bytes[i];
        if in_string {
            // One-to-one image of the bytes, as below.
            out.push(byte as char);
            if byte == b'\\' {
                out.push(bytes[i + 1] as char);
                i += 2;
                continue;
            }
            in_string = byte != b'"';
            i += 1;
            continue;
        }
        if byte == b'-' || byte.is_ascii_digit() {
            let start = i;
            while i < bytes.len()
                && matches!(bytes[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
            {
                i += 1;
            }
            let text = &json[start..i];
            if text.contains(['.', 'e', 'E']) {
                let value: f64 = text.parse().expect("a float");
                out.push_str(&format!("{value:e}"));
            } else {
                out.push_str(text);
            }
            continue;
        }
        in_string = byte == b'"';
        // Each byte becomes one char (non-ASCII ones as Latin-1): not the text, but a
        // one-to-one image of it, which is all the comparison needs.
        out.push(byte as char);
        i += 1;
    }
    out
}

/// `value` comes back equal from MessagePack and from a sluice `Value`.
#[track_caller]
pub fn round_trips<T>(value: &T)
where
    T: DeserializeOwned + Serialize + PartialEq + Debug,
{
    let bytes = sluice_serde::to_msgpack_vec(value).expect("written as MessagePack");
    let back: T = sluice_serde::from_msgpack_slice(&bytes)
        .unwrap_or_else(|err| panic!("MessagePack read back failed: {err:?}"));
    assert_eq!(&back, value, "MessagePack round trip");

    let tree = sluice_serde::to_value(value).expect("written as a Value");
    let back: T = sluice_serde::from_value(&tree)
        .unwrap_or_else(|err| panic!("Value read back failed: {err:?}"));
    assert_eq!(&back, value, "Value round trip");
}
