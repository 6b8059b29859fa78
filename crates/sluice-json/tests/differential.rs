//! Differential test against serde_json: on JSONTestSuite (`y_` and `n_` files), the bench
//! files and the round-trip files, both accept and reject the same documents, and accepted
//! documents have the same values.

use serde_json::Value as SerdeValue;
use sluice_core::{Entry, Reader, Result};
use sluice_json::fuzzing::value_difference;
use sluice_json::{DuplicateKeys, JsonOptions, JsonReader};

/// Builds a serde_json value from our tokens (numbers through `to_typed`, duplicate keys:
/// last wins, as serde_json does).
fn value<R: Reader>(reader: &mut R) -> Result<SerdeValue> {
    Ok(match reader.peek()? {
        Entry::Null => {
            reader.read_null()?;
            SerdeValue::Null
        }
        Entry::Bool => SerdeValue::Bool(reader.read_bool()?),
        Entry::String => SerdeValue::String(reader.read_str()?.to_owned()),
        Entry::ArrayRoot => {
            reader.read_array_root()?;
            let mut items = Vec::new();
            while reader.peek()? != Entry::ArrayEnd {
                items.push(value(reader)?);
            }
            reader.read_array_end()?;
            SerdeValue::Array(items)
        }
        Entry::MapRoot => {
            reader.read_map_root()?;
            let mut map = serde_json::Map::new();
            while reader.peek()? != Entry::MapEnd {
                let key = reader.read_name()?.to_owned();
                map.insert(key, value(reader)?);
            }
            reader.read_map_end()?;
            SerdeValue::Object(map)
        }
        _ => {
            let number = reader.read_number()?;
            let typed = match number.hint() {
                // serde_json reads `-0` as the float -0.0.
                sluice_core::NumberHint::Float => None,
                _ if number.as_text() == Some("-0") => None,
                _ => number.to_typed().ok(),
            };
            match typed {
                Some(sluice_core::Number::U64(v)) => SerdeValue::from(v),
                Some(sluice_core::Number::I64(v)) => SerdeValue::from(v),
                // serde_json reads integers beyond 64 bits as f64.
                _ => serde_json::Number::from_f64(number.to_f64()?)
                    .map_or(SerdeValue::Null, SerdeValue::Number),
            }
        }
    })
}

/// Where two values differ, if they do. serde_json's default float parser (without its
/// `float_roundtrip` feature) may be one unit in the last place off; ours is correctly
/// rounded, so floats may differ by one ULP.
fn difference(a: &SerdeValue, b: &SerdeValue, at: &str) -> Option<String> {
    value_difference(a, b, at, |x, y| {
        (x.to_bits() as i64)
            .wrapping_sub(y.to_bits() as i64)
            .unsigned_abs()
            <= 1
    })
}

fn ours(bytes: &[u8]) -> Result<SerdeValue> {
    let options = JsonOptions {
        duplicate_keys: DuplicateKeys::LastWins,
        // serde_json's own recursion limit.
        max_depth: 128,
        ..JsonOptions::strict()
    };
    let mut reader = JsonReader::from_slice(bytes).with_options(options);
    let v = value(&mut reader)?;
    reader.finish()?;
    Ok(v)
}

/// The `.json` files of a corpus directory, sorted; `None` when the corpus is not there.
fn files(relative: &str) -> Option<Vec<(String, Vec<u8>)>> {
    let dir = sluice_core::testing::corpus_file(relative)?;
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    Some(out)
}

#[test]
fn accept_reject_and_values_agree_with_serde_json() {
    let mut sets = Vec::new();
    // Each set whole (a set that is there is read in full): the `y_` and `n_` files of
    // JSONTestSuite, the benchmark files and the round-trip files.
    for (dir, count) in [
        ("json-test-suite/test_parsing", 95 + 188),
        ("bench", 3),
        ("roundtrip", 27),
    ] {
        let Some(mut set) = files(dir) else { continue };
        set.retain(|(name, _)| !name.starts_with("i_"));
        assert_eq!(set.len(), count, "{dir}: the whole set is read");
        sets.extend(set);
    }
    let (mut accepted, mut rejected) = (0, 0);
    for (name, bytes) in &sets {
        let theirs: std::result::Result<SerdeValue, _> = serde_json::from_slice(bytes);
        let mine = ours(bytes);
        match (&theirs, &mine) {
            (Ok(a), Ok(b)) => {
                if let Some(at) = difference(a, b, "$") {
                    panic!("{name}: values differ at {at}");
                }
                accepted += 1;
            }
            (Err(_), Err(_)) => rejected += 1,
            _ => panic!(
                "{name}: serde_json {} but sluice {}",
                if theirs.is_ok() { "accepts" } else { "rejects" },
                match &mine {
                    Ok(_) => "accepts".to_owned(),
                    Err(e) => format!("rejects ({e})"),
                }
            ),
        }
    }
    // Both accept every `y_` file (a duplicate key taking its last value), every benchmark
    // and round-trip file, and reject every `n_` file.
    if sets.len() == 95 + 188 + 3 + 27 {
        assert_eq!((accepted, rejected), (95 + 3 + 27, 188));
    }
}
