//! The strict reader against `serde_json`, with the `fuzzing` feature (which brings
//! `serde_json`): see [`check_serde_json`].

use sluice_core::{OwnedNumber, Token};

use super::{read_document, slice_reader};
use crate::{DuplicateKeys, JsonOptions};

/// The options the strict reader is compared with serde_json under: strict RFC 8259, a
/// duplicate key taken as its last value (as serde_json does; the RFC allows duplicates),
/// and serde_json's nesting limit. serde_json counts down from 128 and fails when the count
/// reaches 0, so it reads 127 nested arrays and objects and rejects 128; `max_depth` 128
/// (the default) reads 128.
fn serde_json_options() -> JsonOptions {
    JsonOptions {
        duplicate_keys: DuplicateKeys::LastWins,
        max_depth: 127,
        ..JsonOptions::strict()
    }
}

/// The strict reader (with [`serde_json_options`]) against
/// `serde_json::from_slice::<serde_json::Value>`: one accepts exactly what the other
/// accepts, and when both do, the values are equal (integers that fit `u64`, or `i64` when
/// negative, exactly, other numbers as `f64` bit for bit, see [`serde_number`]; strings
/// exactly; objects with the last value of a duplicate key).
///
/// The differences by design:
///
/// - a UTF-8 byte order mark opening the input: the reader skips it (RFC 8259 section 8.1
///   lets a parser ignore one), serde_json rejects it. serde_json must reject such an
///   input, and reads the rest, after the mark, to compare with;
/// - a number too large for `f64` (`1e400`): the reader keeps its text (a typed read of it
///   fails with `NUMBER_OUT_OF_RANGE`, see `expected_typed`); serde_json, which turns
///   every number into a `u64`, `i64` or `f64` as it reads, rejects the document. When
///   serde_json finds a number text the reader hands out out of range, serde_json must fail
///   on the document with its "number out of range" (its message is the only way to tell
///   its errors apart), which it reports at the first such number; any other error would
///   be a difference before it.
pub(super) fn check_serde_json(data: &[u8]) {
    let ours = read_document(slice_reader(data, &serde_json_options()));
    let rest = match data.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => {
            let whole = serde_json::from_slice::<serde_json::Value>(data);
            assert!(whole.is_err(), "serde_json: reads a byte order mark");
            rest
        }
        None => data,
    };
    let theirs = serde_json::from_slice::<serde_json::Value>(rest);
    let input = || String::from_utf8_lossy(data).into_owned();
    match (ours, theirs) {
        (Ok(tokens), theirs) => {
            let ours = match serde_value(&tokens) {
                Ok(value) => value,
                Err(text) => {
                    let Err(err) = theirs else {
                        panic!(
                            "serde_json: reads a document with number {text:?}, which is out \
                             of range alone: {:?}",
                            input()
                        );
                    };
                    assert!(
                        err.to_string().starts_with("number out of range"),
                        "serde_json: fails otherwise ({err}) on a document with number \
                         {text:?}, out of range, that the strict reader reads: {:?}",
                        input()
                    );
                    return;
                }
            };
            let theirs = theirs.unwrap_or_else(|err| {
                panic!(
                    "serde_json: rejects ({err}) what the strict reader reads: {:?}",
                    input()
                )
            });
            if let Some(at) =
                value_difference(&ours, &theirs, "$", |x, y| x.to_bits() == y.to_bits())
            {
                panic!(
                    "serde_json: values differ at {at}: strict reader {ours}, serde_json \
                     {theirs}, input {:?}",
                    input()
                );
            }
        }
        (Err(err), Ok(theirs)) => panic!(
            "serde_json: reads ({theirs}) what the strict reader rejects ({err}): {:?}",
            input()
        ),
        (Err(_), Err(_)) => {}
    }
}

/// The serde_json value of a document's tokens, as serde_json would build it; the text of a
/// number serde_json finds out of range (and so rejects the document) as the error.
fn serde_value(tokens: &[Token]) -> std::result::Result<serde_json::Value, Box<str>> {
    use serde_json::Value;
    let mut tokens = tokens.iter();
    // The containers open around the token being read: their values so far, and for an
    // object, the key its next value goes under.
    let mut open: Vec<(Value, Option<String>)> = Vec::new();
    loop {
        let token = tokens
            .next()
            .expect("a document's tokens close what they open");
        let value = match token {
            Token::Null => Value::Null,
            Token::Bool(value) => Value::Bool(*value),
            Token::String(text) => Value::String(text.clone()),
            Token::Number(OwnedNumber::Text(text, _)) => serde_number(text)?,
            Token::ArrayRoot(_) => {
                open.push((Value::Array(Vec::new()), None));
                continue;
            }
            Token::MapRoot(_) => {
                open.push((Value::Object(serde_json::Map::new()), None));
                continue;
            }
            Token::Name(key) => {
                let (_, slot) = open.last_mut().expect("a key stands in an object");
                *slot = Some(key.clone());
                continue;
            }
            Token::ArrayEnd | Token::MapEnd => {
                open.pop().expect("a container ends that was open").0
            }
            other => panic!("strict JSON reads no token {other:?}"),
        };
        match open.last_mut() {
            None => {
                assert!(tokens.next().is_none(), "tokens after the root value");
                return Ok(value);
            }
            Some((Value::Array(items), _)) => items.push(value),
            Some((Value::Object(map), slot)) => {
                let key = slot.take().expect("a value in an object has a key");
                // Last wins: `insert` replaces the value of a key already there.
                map.insert(key, value);
            }
            Some(_) => unreachable!("only arrays and objects are open"),
        }
    }
}

/// The serde_json number of JSON number `text`, as serde_json reads it: an integer (no
/// fraction, no exponent) that fits `u64`, or `i64` when negative, exactly; any other as
/// `f64` (`-0` too, as -0.0); `text` itself when serde_json finds it out of range (an
/// infinite `f64`).
///
/// serde_json's own reading, not Rust's `parse`: then each side's number comes from the same
/// conversion of its text, so the values compare bit for bit whether or not serde_json's
/// floats are correctly rounded. (In the fuzz build they are: the fuzz crate turns on
/// serde_json's `float_roundtrip`, so that this conversion is Rust's `parse`, which the typed
/// reads are held to. A plain `cargo test` of this crate builds serde_json without it, as
/// its other tests expect.) What is compared is then that the reader hands out the number's
/// text as the input has it, or text of the same value.
fn serde_number(text: &str) -> std::result::Result<serde_json::Value, Box<str>> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value @ serde_json::Value::Number(_)) => Ok(value),
        Ok(other) => panic!("serde_json reads number text {text:?} as {other}"),
        Err(err) if err.to_string().starts_with("number out of range") => Err(text.into()),
        Err(err) => panic!("serde_json rejects number text {text:?} the reader hands out: {err}"),
    }
}

/// Where two serde_json values differ (a path from `at`), if they do. Floats are the same
/// when `same_float` says so (the harness compares their bits, so that -0.0 and 0.0
/// differ; the differential test allows serde_json's default parsing one unit in the last
/// place); an integer never equals a float.
pub fn value_difference(
    a: &serde_json::Value,
    b: &serde_json::Value,
    at: &str,
    same_float: fn(f64, f64) -> bool,
) -> Option<String> {
    use serde_json::Value;
    let inner = |a, b, at: String| value_difference(a, b, &at, same_float);
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{at} (lengths {} and {})", x.len(), y.len()));
            }
            x.iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (x, y))| inner(x, y, format!("{at}[{i}]")))
        }
        (Value::Object(x), Value::Object(y)) => {
            if x.len() != y.len() || x.keys().any(|key| !y.contains_key(key)) {
                return Some(format!("{at} (keys)"));
            }
            x.iter()
                .find_map(|(key, x)| inner(x, &y[key], format!("{at}.{key:?}")))
        }
        (Value::Number(x), Value::Number(y)) => {
            let same = match (x.as_f64(), y.as_f64(), x.is_f64(), y.is_f64()) {
                (Some(x), Some(y), true, true) => same_float(x, y),
                (_, _, false, false) => (x.as_u64(), x.as_i64()) == (y.as_u64(), y.as_i64()),
                _ => false,
            };
            (!same).then(|| format!("{at} ({x} and {y})"))
        }
        _ => (a != b).then(|| format!("{at} ({a} and {b})")),
    }
}
