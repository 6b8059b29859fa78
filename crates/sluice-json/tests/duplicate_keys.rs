//! Duplicate keys in large objects, where the reader's key tracker switches from a filter
//! and a scan to a hash index: found at the second occurrence, with its span, from a slice
//! and through `io::Read` alike.

mod common;

use common::{outcome, read_slice, read_trickle};
use sluice_core::Span;
use sluice_json::{DuplicateKeys, JsonOptions, codes};

/// One object whose keys are long and alike (`key_number_00000017_with_some_padding`),
/// then, when `repeat` is given, that key once more at the end.
fn large_object(count: usize, repeat: Option<usize>) -> (String, Option<Span>) {
    let key = |i: usize| format!("key_number_{i:08}_with_some_padding");
    let mut doc = String::from("{");
    for i in 0..count {
        doc.push_str(&format!("\"{}\":{i},", key(i)));
    }
    let mut span = None;
    if let Some(i) = repeat {
        let start = doc.len();
        doc.push_str(&format!("\"{}\"", key(i)));
        span = Some(Span::new(start, doc.len()));
        doc.push_str(":0,");
    }
    doc.push_str("\"last\":true}");
    (doc, span)
}

#[test]
fn a_repeated_key_in_a_large_object_is_reported_at_its_second_occurrence() {
    for repeat in [0, 63, 64, 4_999, 9_999] {
        let (doc, span) = large_object(10_000, Some(repeat));
        let expected = Err((codes::DUPLICATE_KEY.to_string(), span));
        let strict = JsonOptions::strict();
        assert_eq!(
            outcome(read_slice(doc.as_bytes(), &strict)),
            expected,
            "{repeat}"
        );
        assert_eq!(
            outcome(read_trickle(doc.as_bytes(), 4096, &strict)),
            expected,
            "{repeat}"
        );
    }
}

#[test]
fn a_large_object_of_distinct_alike_keys_is_accepted() {
    let (doc, _) = large_object(50_000, None);
    let strict = JsonOptions::strict();
    let tokens = read_slice(doc.as_bytes(), &strict).unwrap();
    // `{`, 50,001 keys and values, `}`.
    assert_eq!(tokens.len(), 2 + 2 * 50_001);
    assert_eq!(read_trickle(doc.as_bytes(), 4096, &strict).unwrap(), tokens);
    let last_wins = JsonOptions {
        duplicate_keys: DuplicateKeys::LastWins,
        ..JsonOptions::strict()
    };
    assert_eq!(read_slice(doc.as_bytes(), &last_wins).unwrap(), tokens);
}
