//! Shared helpers for the sluice benchmarks: loading the public corpora and generating the
//! derived inputs (relaxed JSON with comments and trailing commas, large NDJSON files).

use std::path::PathBuf;

use sluice_core::{Entry, NumberHint, OwnedNumber, Reader, Token};
use sluice_json::{Input, JsonReader};

/// The bytes of a corpus file such as `bench/canada.json`, or `None` (with a notice) when the
/// corpus is not available.
#[must_use]
pub fn corpus(relative: &str) -> Option<Vec<u8>> {
    let path: PathBuf = sluice_core::testing::corpus_file(relative)?;
    std::fs::read(&path).ok()
}

/// `json` with `e-1` written after every number that has a fraction and no exponent: the
/// same document and digits, with its numbers in scientific notation (a tenth of their
/// value). Applied to canada.json it gives the `read/canada_exponents` bench and the
/// profiling driver's `canada_exponents` file: numbers with an exponent take paths of their
/// own in a number scanner, and none of the standard files has many.
#[must_use]
pub fn with_exponents(json: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len() + json.len() / 4);
    let mut in_string = false;
    let mut escaped = false;
    let mut number: Option<(bool, bool)> = None; // (has a fraction, has an exponent)
    for &byte in json {
        if in_string {
            in_string = escaped || byte != b'"';
            escaped = !escaped && byte == b'\\';
        } else if let Some((fraction, exponent)) = number {
            match byte {
                b'0'..=b'9' | b'+' | b'-' => {}
                b'.' => number = Some((true, exponent)),
                b'e' | b'E' => number = Some((fraction, true)),
                _ => {
                    if fraction && !exponent {
                        out.extend_from_slice(b"e-1");
                    }
                    number = None;
                }
            }
        } else if byte == b'"' {
            in_string = true;
        } else if byte == b'-' || byte.is_ascii_digit() {
            number = Some((false, false));
        }
        out.push(byte);
    }
    if let Some((true, false)) = number {
        out.extend_from_slice(b"e-1");
    }
    out
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

/// The loop of [`scan`] and [`scan_number_text`]: every token peeked and read, with the
/// number arms given, or those of [`scan`] when none are. A macro rather than a function
/// taking the number reader as a closure: with the numbers' arms spelled out flat in the
/// one `match`, the compiler lays the loop out as it would by hand (through a closure
/// matching the hint again, the scan of canada.json executed 8% more instructions).
macro_rules! scan_loop {
    ($reader:ident $(, $number:pat => $read:expr)* $(,)?) => {{
        let mut sum = 0.0;
        loop {
            if scan_token!($reader, sum $(, $number => $read)*) {
                return Ok(sum);
            }
        }
    }};
}

/// One token of [`scan_loop`]: peeked, read and added to `$sum`; `true` at the end. Without
/// number arms, numbers are converted to the type their syntax suggests, as [`scan`] does.
macro_rules! scan_token {
    ($reader:ident, $sum:ident) => {
        scan_token!($reader, $sum,
            Entry::Number(NumberHint::Float) => $reader.read_f64()?,
            Entry::Number(NumberHint::NegInteger) => $reader.read_i64()? as f64,
            Entry::Number(_) => $reader.read_u64()? as f64,
        )
    };
    ($reader:ident, $sum:ident $(, $number:pat => $read:expr)+ $(,)?) => {
        match $reader.peek()? {
            Entry::Ended => true,
            Entry::String => {
                $sum += $reader.read_str()?.len() as f64;
                false
            }
            Entry::Name => {
                $sum += $reader.read_name()?.len() as f64;
                false
            }
            $($number => {
                $sum += $read;
                false
            })+
            Entry::Bool => {
                $sum += f64::from(u8::from($reader.read_bool()?));
                false
            }
            // The reads that give nothing to add: `false` for each, once read.
            Entry::Null => $reader.read_null().map(|()| false)?,
            Entry::MapRoot => $reader.read_map_root().map(|_| false)?,
            Entry::MapEnd => $reader.read_map_end().map(|()| false)?,
            Entry::ArrayRoot => $reader.read_array_root().map(|_| false)?,
            Entry::ArrayEnd => $reader.read_array_end().map(|()| false)?,
            other => return Err(sluice_core::Error::custom(format!("JSON has no {other}"))),
        }
    };
}

/// Reads every token of a JSON document, as the `read/*` benches do: strings and keys are
/// read (their length summed), numbers parsed to the type their syntax suggests.
///
/// # Errors
/// The reader's errors.
pub fn scan<S: Input>(reader: &mut JsonReader<S>) -> sluice_core::Result<f64> {
    scan_loop!(reader)
}

/// [`scan`] of two readers at once, a token of each in turn, until either ends: the
/// profiling driver's `scan_two_interleaved`. Timed against [`scan`] of one reader over the
/// same bytes, it tells what bounds the read: if each token waited on a chain of dependent
/// steps (a load, the position it gives, the next load), the second reader's steps would
/// fill the waits and the pair would take well under twice the time; a core kept busy by
/// one reader takes twice the time for two.
///
/// # Errors
/// The readers' errors.
pub fn scan_interleaved<S: Input>(
    first: &mut JsonReader<S>,
    second: &mut JsonReader<S>,
) -> sluice_core::Result<f64> {
    let (mut first_sum, mut second_sum) = (0.0, 0.0);
    loop {
        let first_ended = scan_token!(first, first_sum);
        let second_ended = scan_token!(second, second_sum);
        if first_ended || second_ended {
            return Ok(first_sum + second_sum);
        }
    }
}

/// [`scan`] with every number read as its text and not converted (the text's length
/// summed): what serde_json's `IgnoredAny` does with a number, which it checks against the
/// grammar and skips. The `read/*/sluice_slice_number_text_only` bench, beside the
/// `IgnoredAny` one, tells the cost of the conversions from the cost of the rest.
///
/// # Errors
/// The reader's errors.
pub fn scan_number_text<S: Input>(reader: &mut JsonReader<S>) -> sluice_core::Result<f64> {
    scan_loop!(reader,
        Entry::Number(_) => reader.read_number()?.as_text().map_or(0, str::len) as f64,
    )
}

/// What [`scan`] does, done by serde_json: every value visited, strings and keys read as
/// `&str` (borrowed when serde_json can), numbers converted to the type their syntax
/// suggests, the string lengths and numbers summed.
///
/// serde_json's `IgnoredAny`, the `read/*` benches' target, skips numbers without
/// converting them and strings without checking their UTF-8; this is the same parser doing
/// the same work as sluice's scan, for a comparison of equal work.
///
/// # Errors
/// serde_json's errors.
pub fn serde_every_token(bytes: &[u8]) -> serde_json::Result<f64> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let sum = serde::Deserializer::deserialize_any(&mut deserializer, EveryToken)?;
    deserializer.end()?;
    Ok(sum)
}

/// The visitor (and seed) of [`serde_every_token`].
struct EveryToken;

impl<'de> serde::de::DeserializeSeed<'de> for EveryToken {
    type Value = f64;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<f64, D::Error> {
        deserializer.deserialize_any(EveryToken)
    }
}

impl<'de> serde::de::Visitor<'de> for EveryToken {
    type Value = f64;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<f64, E> {
        Ok(f64::from(u8::from(value)))
    }

    fn visit_u64<E>(self, value: u64) -> Result<f64, E> {
        Ok(value as f64)
    }

    fn visit_i64<E>(self, value: i64) -> Result<f64, E> {
        Ok(value as f64)
    }

    fn visit_f64<E>(self, value: f64) -> Result<f64, E> {
        Ok(value)
    }

    fn visit_str<E>(self, value: &str) -> Result<f64, E> {
        Ok(value.len() as f64)
    }

    fn visit_unit<E>(self) -> Result<f64, E> {
        Ok(0.0)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut items: A) -> Result<f64, A::Error> {
        let mut sum = 0.0;
        while let Some(value) = items.next_element_seed(EveryToken)? {
            sum += value;
        }
        Ok(sum)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut members: A) -> Result<f64, A::Error> {
        let mut sum = 0.0;
        while let Some(key) = members.next_key_seed(EveryToken)? {
            sum += key + members.next_value_seed(EveryToken)?;
        }
        Ok(sum)
    }
}

/// One object of `count` keys of 45 bytes that differ only in eight digits in their middle
/// (`"key_number_00000017_with_some_padding_text_here":17`), each with a small integer:
/// the `large_object` bench's file, where the default duplicate-key check runs through its
/// hash index (keys that share their first and last bytes defeat any shortcut on those).
#[must_use]
pub fn large_object(count: usize) -> Vec<u8> {
    let mut doc = String::from("{");
    for i in 0..count {
        if i > 0 {
            doc.push(',');
        }
        doc.push_str(&format!(
            "\"key_number_{i:08}_with_some_padding_text_here\":{i}"
        ));
    }
    doc.push('}');
    doc.into_bytes()
}

/// A function that rewrites a bench file into a variant of it ([`relaxed_variant`],
/// [`json5_variant`], ...).
pub type Rewrite = fn(&[u8]) -> Vec<u8>;

/// A relaxed-JSON variant of a JSON document, as people write it: a `//` comment line at the
/// top, a `/* ... */` comment after every comma, and a trailing comma before every closing
/// bracket that follows a value. Strings are left untouched.
#[must_use]
pub fn relaxed_variant(json: &[u8]) -> Vec<u8> {
    relaxed_variant_with(json, b", /* c */")
}

/// [`relaxed_variant`] with a line comment after every comma (`, // c` and a line break)
/// instead of a block comment: the other way people annotate configuration.
#[must_use]
pub fn line_comment_variant(json: &[u8]) -> Vec<u8> {
    relaxed_variant_with(json, b", // c\n")
}

/// A JSON5 variant of a JSON document: [`relaxed_variant`], then every key that is an ASCII
/// identifier written without quotes, and every other string in single quotes (`"` unescaped,
/// `'` escaped). Read with `JsonOptions::json5()`.
#[must_use]
pub fn json5_variant(json: &[u8]) -> Vec<u8> {
    let relaxed = relaxed_variant(json);
    let mut out = Vec::with_capacity(relaxed.len());
    let mut at = 0;
    while at < relaxed.len() {
        let byte = relaxed[at];
        if byte != b'"' {
            out.push(byte);
            at += 1;
            continue;
        }
        // The string's content, up to its closing quote.
        let start = at + 1;
        let mut end = start;
        while relaxed[end] != b'"' {
            end += if relaxed[end] == b'\\' { 2 } else { 1 };
        }
        let content = &relaxed[start..end];
        at = end + 1;
        let next = relaxed[at..].iter().find(|b| !b.is_ascii_whitespace());
        let identifier = content
            .first()
            .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_' || b == b'$')
            && content
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$');
        if next == Some(&b':') && identifier {
            out.extend_from_slice(content);
            continue;
        }
        out.push(b'\'');
        let mut i = 0;
        while i < content.len() {
            match content[i] {
                b'\\' if content[i + 1] == b'"' => {
                    out.push(b'"');
                    i += 2;
                }
                b'\\' => {
                    out.extend_from_slice(&content[i..i + 2]);
                    i += 2;
                }
                b'\'' => {
                    out.extend_from_slice(b"\\'");
                    i += 1;
                }
                other => {
                    out.push(other);
                    i += 1;
                }
            }
        }
        out.push(b'\'');
    }
    out
}

/// [`relaxed_variant`] with `comma` written for every comma outside strings.
fn relaxed_variant_with(json: &[u8], comma: &[u8]) -> Vec<u8> {
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
                out.extend_from_slice(comma);
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

/// `tokens` with each number's text parsed to the type its syntax gives: what a writer is
/// handed by a reader of native data or of MessagePack, which know their numbers' types.
///
/// # Panics
/// On a number its type cannot hold (an integer beyond 64 bits): the bench files have none.
#[must_use]
pub fn typed_numbers(tokens: &[Token]) -> Vec<Token> {
    tokens
        .iter()
        .map(|token| match token {
            Token::Number(OwnedNumber::Text(text, hint)) => Token::Number(match hint {
                NumberHint::Integer => OwnedNumber::U64(text.parse().unwrap()),
                NumberHint::NegInteger => OwnedNumber::I64(text.parse().unwrap()),
                NumberHint::Float => OwnedNumber::F64(text.parse().unwrap()),
            }),
            other => other.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_every_token_sums_what_scan_sums() {
        let json = br#"{"ab": [1, -2, 2.5, true, null, "xyz"], "c": {"d": "\u00e9"}}"#;
        let ours = scan(&mut JsonReader::from_slice(json)).unwrap();
        let theirs = serde_every_token(json).unwrap();
        // Keys 2 + 1 + 1, numbers 1 - 2 + 2.5, true 1, strings 3 + 2 (é is two bytes).
        assert_eq!(ours, 11.5);
        assert_eq!(theirs, ours);
        assert!(serde_every_token(b"[1, 2").is_err());
    }

    #[test]
    fn interleaved_scans_sum_both_readers_and_stop_at_the_first_end() {
        let json = br#"{"ab": [1, -2, 2.5, true, null, "xyz"], "c": {"d": "\u00e9"}}"#;
        let sum = scan_interleaved(
            &mut JsonReader::from_slice(json),
            &mut JsonReader::from_slice(json),
        )
        .unwrap();
        assert_eq!(sum, 2.0 * 11.5);
        // The shorter document ends the pair: `[7]` ends at its fourth step, by which the
        // other reader has read `[`, 1, 2 and 3.
        let sum = scan_interleaved(
            &mut JsonReader::from_slice(b"[7]"),
            &mut JsonReader::from_slice(b"[1, 2, 3, 4, 5]"),
        )
        .unwrap();
        assert_eq!(sum, 7.0 + 1.0 + 2.0 + 3.0);
        assert!(
            scan_interleaved(
                &mut JsonReader::from_slice(b"[1, 2"),
                &mut JsonReader::from_slice(b"[1, 2, 3]"),
            )
            .is_err()
        );
    }

    #[test]
    fn exponents_are_added_to_numbers_with_a_fraction_only_outside_strings() {
        let json = br#"{"a": [1.5, -2.25, 3, 4e5, 6.5E2, "x1.5\" 2.5"], "b": 0.5}"#;
        let text = String::from_utf8(with_exponents(json)).unwrap();
        assert_eq!(
            text,
            r#"{"a": [1.5e-1, -2.25e-1, 3, 4e5, 6.5E2, "x1.5\" 2.5"], "b": 0.5e-1}"#
        );
        assert_eq!(with_exponents(b"-0.5"), b"-0.5e-1");
        let mut reader = JsonReader::from_slice(b"[1.5e-1]");
        assert!((scan(&mut reader).unwrap() - 0.15).abs() < 1e-12);
    }

    #[test]
    fn json5_variant_unquotes_identifier_keys_and_single_quotes_the_other_strings() {
        let json5 = json5_variant(br#"{"a": ["x'\"y", "b c"], "b c": {"$d_1" : 1}}"#);
        let text = String::from_utf8(json5).unwrap();
        assert_eq!(
            text,
            "// generated relaxed variant\n{a: ['x\\'\"y', /* c */ 'b c',], /* c */ 'b c': {$d_1 : 1,},}"
        );
    }

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
