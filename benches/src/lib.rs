//! Shared helpers for the sluice benchmarks: loading the public corpora and generating the
//! derived inputs (relaxed JSON with comments and trailing commas, large NDJSON files).

use std::path::PathBuf;

use sluice_core::{Entry, NumberHint, Reader};
use sluice_json::{Input, JsonReader};

/// The bytes of a corpus file such as `bench/canada.json`, or `None` (with a notice) when the
/// corpus is not available.
#[must_use]
pub fn corpus(relative: &str) -> Option<Vec<u8>> {
    let path: PathBuf = sluice_core::testing::corpus_file(relative)?;
    std::fs::read(&path).ok()
}

/// The three standard JSON benchmark files, by short name.
pub const BENCH_FILES: [(&str, &str); 3] = [
    ("canada", "bench/canada.json"),
    ("citm_catalog", "bench/citm_catalog.json"),
    ("twitter", "bench/twitter.json"),
];

/// Strict JSON without duplicate-key checks (`DuplicateKeys::LastWins`): the options of the
/// `read/*/sluice_slice_last_wins` bench, the one compared with serde_json's `IgnoredAny`
/// (which checks no keys either).
#[must_use]
pub fn last_wins_options() -> sluice_json::JsonOptions {
    sluice_json::JsonOptions {
        duplicate_keys: sluice_json::DuplicateKeys::LastWins,
        ..sluice_json::JsonOptions::strict()
    }
}

/// Reads every token of a JSON document, as the `read/*` benches do: strings and keys are
/// read (their length summed), numbers parsed to the type their syntax suggests.
///
/// # Errors
/// The reader's errors.
pub fn scan<S: Input>(reader: &mut JsonReader<S>) -> sluice_core::Result<f64> {
    let mut sum = 0.0;
    loop {
        match reader.peek()? {
            Entry::Ended => return Ok(sum),
            Entry::String => sum += reader.read_str()?.len() as f64,
            Entry::Name => sum += reader.read_name()?.len() as f64,
            Entry::Number(NumberHint::Float) => sum += reader.read_f64()?,
            Entry::Number(NumberHint::NegInteger) => sum += reader.read_i64()? as f64,
            Entry::Number(_) => sum += reader.read_u64()? as f64,
            Entry::Bool => sum += f64::from(u8::from(reader.read_bool()?)),
            Entry::Null => reader.read_null()?,
            Entry::MapRoot => {
                reader.read_map_root()?;
            }
            Entry::MapEnd => reader.read_map_end()?,
            Entry::ArrayRoot => {
                reader.read_array_root()?;
            }
            Entry::ArrayEnd => reader.read_array_end()?,
            other => return Err(sluice_core::Error::custom(format!("JSON has no {other}"))),
        }
    }
}

/// A relaxed-JSON variant of a JSON document, as people write it: a `//` comment line at the
/// top, a `/* ... */` comment after every comma, and a trailing comma before every closing
/// bracket that follows a value. Strings are left untouched.
#[must_use]
pub fn relaxed_variant(json: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len() + json.len() / 4);
    out.extend_from_slice(b"// generated relaxed variant\n");
    let mut in_string = false;
    let mut escaped = false;
    // Whether the last significant byte outside strings ended a value.
    let mut after_value = false;
    for &byte in json {
        if in_string {
            out.push(byte);
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
                after_value = true;
            }
            continue;
        }
        match byte {
            b'"' => {
                in_string = true;
                out.push(byte);
            }
            b',' => {
                out.extend_from_slice(b", /* c */");
                after_value = false;
            }
            b']' | b'}' => {
                if after_value {
                    out.push(b',');
                }
                out.push(byte);
                after_value = true;
            }
            b'[' | b'{' | b':' => {
                out.push(byte);
                after_value = false;
            }
            b' ' | b'\n' | b'\r' | b'\t' => out.push(byte),
            _ => {
                out.push(byte);
                after_value = true;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relaxed_variant_adds_comments_and_trailing_commas_outside_strings() {
        let relaxed = relaxed_variant(br#"{"a": [1, "x,]"], "b": {}}"#);
        let text = String::from_utf8(relaxed).unwrap();
        assert_eq!(
            text,
            "// generated relaxed variant\n{\"a\": [1, /* c */ \"x,]\",], /* c */ \"b\": {},}"
        );
    }
}
