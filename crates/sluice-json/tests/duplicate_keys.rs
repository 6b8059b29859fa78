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

#[test]
fn keys_longer_than_the_tracker_chunks_are_told_apart_exactly() {
    // Keys of 64 KiB and more, some with escapes (decoded, so copied), in nested objects,
    // read through `io::Read` in small reads: the tracker copies each one to a chunk of
    // its own as the window moves on, and must still tell `a...a` from `a...ab`.
    let long_a = "a".repeat(100_000);
    let mut almost_a = "a".repeat(99_999);
    almost_a.push('b');
    let escaped = format!("{}\\n{}", "e".repeat(40_000), "e".repeat(40_000));
    let exact_chunk = "c".repeat(64 * 1024);
    let body = format!(
        "{{\"{long_a}\":1,\"{escaped}\":{{\"inner\":2,\"{exact_chunk}\":3,\"x\":[]}},\"{almost_a}\":4"
    );
    let strict = JsonOptions::strict();
    let accepted = format!("{body}}}");
    let tokens = read_slice(accepted.as_bytes(), &strict).unwrap();
    // Each object: its braces, three keys, two numbers; the inner one also `[` and `]`.
    assert_eq!(tokens.len(), (2 + 3 + 2) + (2 + 3 + 2 + 2));
    assert_eq!(
        read_trickle(accepted.as_bytes(), 4093, &strict).unwrap(),
        tokens
    );

    for repeat in [&long_a, &almost_a, &escaped] {
        let start = body.len() + 1;
        let doc = format!("{body},\"{repeat}\":5}}");
        let span = Some(Span::new(start, start + repeat.len() + 2));
        let expected = Err((codes::DUPLICATE_KEY.to_string(), span));
        assert_eq!(outcome(read_slice(doc.as_bytes(), &strict)), expected);
        assert_eq!(
            outcome(read_trickle(doc.as_bytes(), 4093, &strict)),
            expected
        );
    }
}
