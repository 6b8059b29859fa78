//! One-line helpers for JSON, on top of [`sluice_json`] (feature `json`, on by default).
//!
//! They behave like serde_json's functions of the same shape on strict input (same values
//! read, same text written), and add what serde_json cannot read: comments and trailing
//! commas ([`from_json_str_relaxed`]), JSON5 ([`from_json5_str`]), or any mix of
//! relaxations ([`from_json_str_with`]).
//!
//! Duplicate keys: like serde_json, these helpers let the last occurrence win (a struct field
//! given twice is still [`DUPLICATE_FIELD`](crate::codes::DUPLICATE_FIELD), as with
//! serde_json). For sluice's stricter default, build the reader yourself:
//! `from_reader(JsonReader::from_str(text))`.

use std::io;

use serde::de::{Deserialize, DeserializeOwned};
use serde::ser::Serialize;
use sluice_json::{DuplicateKeys, JsonOptions, JsonReader, JsonWriter, WriterOptions};

use crate::{Deserializer, Result, Serializer};

/// `options` with duplicate keys accepted, last one winning, as serde_json does.
fn serde_like(mut options: JsonOptions) -> JsonOptions {
    options.duplicate_keys = DuplicateKeys::LastWins;
    options
}

/// Reads a `T` from strict JSON text (RFC 8259), borrowing strings without escapes from
/// `text` (so `&str` fields work).
///
/// ```
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Release<'a> {
///     name: &'a str,
///     downloads: u64,
/// }
/// let text = r#"{"name": "sluice", "downloads": 18446744073709551615}"#;
/// let release: Release = sluice_serde::from_json_str(text)?;
/// assert_eq!(release, Release { name: "sluice", downloads: u64::MAX });
/// # Ok::<(), sluice_serde::Error>(())
/// ```
///
/// # Errors
/// A syntax error (`json/...` codes, `json/TrailingToken` for anything after the value), or
/// a value the type does not accept (`serde/...` codes); each with its span and path.
pub fn from_json_str<'de, T: Deserialize<'de>>(text: &'de str) -> Result<T> {
    from_json_str_with(text, JsonOptions::strict())
}

/// Reads a `T` from JSON with comments (`//`, `/* */`) and trailing commas, as people write
/// configuration files.
///
/// ```
/// let text = "[\n  1, // one\n  2, /* two */\n]";
/// let numbers: Vec<u8> = sluice_serde::from_json_str_relaxed(text)?;
/// assert_eq!(numbers, [1, 2]);
/// # Ok::<(), sluice_serde::Error>(())
/// ```
///
/// # Errors
/// As [`from_json_str`].
pub fn from_json_str_relaxed<'de, T: Deserialize<'de>>(text: &'de str) -> Result<T> {
    from_json_str_with(text, JsonOptions::relaxed())
}

/// Reads a `T` from JSON5: unquoted keys, single quotes, hexadecimal numbers, `Infinity`,
/// comments, trailing commas...
///
/// ```
/// use std::collections::BTreeMap;
/// let text = "{mask: 0xFF, ratio: .5, name: 'x',}";
/// let map: BTreeMap<String, serde_json::Value> = sluice_serde::from_json5_str(text)?;
/// assert_eq!(map["mask"], 255);
/// assert_eq!(map["ratio"], 0.5);
/// # Ok::<(), sluice_serde::Error>(())
/// ```
///
/// # Errors
/// As [`from_json_str`].
pub fn from_json5_str<'de, T: Deserialize<'de>>(text: &'de str) -> Result<T> {
    from_json_str_with(text, JsonOptions::json5())
}

/// Reads a `T` from JSON text with the given reader options. Duplicate keys are accepted,
/// the last one winning, whatever `options` says, as serde_json does (a struct field given
/// twice is still [`DUPLICATE_FIELD`](crate::codes::DUPLICATE_FIELD)); for sluice's stricter
/// default, use `from_reader(JsonReader::from_str(text))`.
///
/// # Errors
/// As [`from_json_str`].
pub fn from_json_str_with<'de, T: Deserialize<'de>>(
    text: &'de str,
    options: JsonOptions,
) -> Result<T> {
    let reader = JsonReader::from_str(text).with_options(serde_like(options));
    let mut de = Deserializer::new(reader).borrow_from_str(text);
    de.read_whole()
}

/// Reads a `T` from strict JSON bytes (UTF-8 is checked inside strings), borrowing strings
/// without escapes.
///
/// # Errors
/// As [`from_json_str`].
pub fn from_json_slice<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    let reader = JsonReader::from_slice(bytes).with_options(serde_like(JsonOptions::strict()));
    let mut de = Deserializer::new(reader).borrow_from_slice(bytes);
    de.read_whole()
}

/// Reads a `T` from strict JSON coming from any [`io::Read`], with bounded memory (no need
/// for a `BufReader`).
///
/// ```
/// let input: &[u8] = br#"{"a": [1, 2]}"#;
/// let map: std::collections::HashMap<String, Vec<u8>> = sluice_serde::from_json_read(input)?;
/// assert_eq!(map["a"], [1, 2]);
/// # Ok::<(), sluice_serde::Error>(())
/// ```
///
/// # Errors
/// As [`from_json_str`], and I/O errors (`core/Io`).
pub fn from_json_read<T: DeserializeOwned, R: io::Read>(read: R) -> Result<T> {
    let reader = JsonReader::from_read(read).with_options(serde_like(JsonOptions::strict()));
    crate::from_reader(reader)
}

/// Writes `value` as condensed JSON, the same text as `serde_json::to_string`.
///
/// ```
/// #[derive(serde::Serialize)]
/// enum Shape {
///     Circle { r: f64 },
/// }
/// let text = sluice_serde::to_json_string(&vec![Shape::Circle { r: 0.5 }])?;
/// assert_eq!(text, r#"[{"Circle":{"r":0.5}}]"#);
/// # Ok::<(), sluice_serde::Error>(())
/// ```
///
/// # Errors
/// A value JSON cannot hold (`NaN` and the infinities: `json/NonFiniteNumber`), a map key
/// that is not a string or scalar ([`INVALID_KEY`](crate::codes::INVALID_KEY)), or an error
/// from the `Serialize` implementation.
pub fn to_json_string<T: Serialize + ?Sized>(value: &T) -> Result<String> {
    to_json_string_with(value, WriterOptions::condensed())
}

/// Writes `value` as pretty JSON (two-space indent, as `serde_json::to_string_pretty`).
///
/// # Errors
/// As [`to_json_string`].
pub fn to_json_string_pretty<T: Serialize + ?Sized>(value: &T) -> Result<String> {
    to_json_string_with(value, WriterOptions::pretty())
}

/// Writes `value` as JSON with the given writer options (pretty or condensed, indent,
/// `NaN` as JSON5 or null, bytes as base64...).
///
/// ```
/// use sluice_json::{BlobMode, WriterOptions};
/// let options = WriterOptions { blob: BlobMode::Base64, ..WriterOptions::condensed() };
/// let bytes = serde_bytes::Bytes::new(b"hi");
/// assert_eq!(sluice_serde::to_json_string_with(&bytes, options)?, r#""aGk=""#);
/// // Without BlobMode::Base64, bytes are an array of numbers, as with serde_json.
/// assert_eq!(sluice_serde::to_json_string(&bytes)?, "[104,105]");
/// # Ok::<(), sluice_serde::Error>(())
/// ```
///
/// # Errors
/// As [`to_json_string`].
pub fn to_json_string_with<T: Serialize + ?Sized>(
    value: &T,
    options: WriterOptions,
) -> Result<String> {
    let mut ser = Serializer::new(JsonWriter::for_string(options));
    value.serialize(&mut ser)?;
    Ok(ser.into_inner().into_string()?)
}

/// Writes `value` as condensed JSON bytes.
///
/// # Errors
/// As [`to_json_string`].
pub fn to_json_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    let mut ser = Serializer::new(JsonWriter::new(Vec::new(), WriterOptions::condensed()));
    value.serialize(&mut ser)?;
    Ok(ser.into_inner().into_inner()?)
}
