//! The reader: error codes and spans (identical on the slice and `io::Read` paths), paths,
//! the reader contract, depth limits, skipping, zero copy.

mod common;

use common::{NumberRead, TYPED_NUMBER_READS, outcome, read_slice, read_trickle};
use sluice_core::testing::read_checked;
use sluice_core::{Entry, ErrorCode, NumberHint, Reader, Span, Token, codes as core_codes};
use sluice_json::{IoInput, JsonOptions, JsonReader, codes};

fn strict() -> JsonOptions {
    JsonOptions::strict()
}

/// An error's code and span, to compare with the expected ones in one assertion.
fn code_and_span(err: &sluice_core::Error) -> (ErrorCode, (usize, usize)) {
    let span = err.span().expect("the error has a span");
    (err.code(), (span.start, span.end))
}

/// Reads `input` on every path and checks that each fails with `code` at `span`.
#[track_caller]
fn assert_error(
    input: &[u8],
    options: &JsonOptions,
    code: sluice_core::ErrorCode,
    span: (usize, usize),
) {
    let slice = read_slice(input, options);
    let err = slice.as_ref().expect_err("input must be rejected");
    assert_eq!(
        (err.code(), err.span()),
        (code, Some(Span::new(span.0, span.1))),
        "{:?}: {err}",
        String::from_utf8_lossy(input)
    );
    for chunk in [1, 3, 64] {
        assert_eq!(
            outcome(read_trickle(input, chunk, options)),
            outcome(read_slice(input, options)),
            "io path, {chunk}-byte reads, {:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn syntax_errors_have_codes_and_exact_spans() {
    let o = strict();
    assert_error(b"[1 2]", &o, codes::EXPECT_COMMA, (3, 4));
    assert_error(b"{\"a\":1 \"b\":2}", &o, codes::EXPECT_COMMA, (7, 10));
    assert_error(b"{\"a\" 1}", &o, codes::EXPECT_COLON, (5, 6));
    assert_error(b"{1:2}", &o, codes::EXPECT_KEY, (1, 2));
    assert_error(b"{\"a\":1,}", &o, codes::EXPECT_KEY, (7, 8));
    assert_error(b"[tru]", &o, codes::UNEXPECTED_TOKEN, (1, 4));
    assert_error(b"[1,]", &o, codes::UNEXPECTED_TOKEN, (3, 4));
    assert_error(b"[}", &o, codes::UNEXPECTED_TOKEN, (1, 2));
    assert_error(b"/**/1", &o, codes::UNEXPECTED_TOKEN, (0, 1));
    assert_error("[é]".as_bytes(), &o, codes::UNEXPECTED_TOKEN, (1, 3));
    assert_error(b"\"abc", &o, codes::UNCLOSED_STRING, (0, 4));
    assert_error(b"[\"a\\", &o, codes::UNCLOSED_STRING, (1, 4));
    assert_error(b"\"\\x\"", &o, codes::INVALID_ESCAPE, (1, 3));
    assert_error(b"\"\\u12G4\"", &o, codes::INVALID_ESCAPE, (1, 6));
    // A character after the backslash is in the span whole; a byte that starts no
    // character alone, not the bytes that follow it.
    assert_error("\"\\é\"".as_bytes(), &o, codes::INVALID_ESCAPE, (1, 4));
    assert_error(b"\"\\\xf6\xf6\n\t\t\"", &o, codes::INVALID_ESCAPE, (1, 3));
    assert_error(b"[01]", &o, codes::INVALID_NUMBER, (1, 3));
    assert_error(b"[1.]", &o, codes::INVALID_NUMBER, (1, 3));
    assert_error(b"-", &o, codes::INVALID_NUMBER, (0, 1));
    assert_error(b"[1.5e]", &o, codes::INVALID_NUMBER, (1, 5));
    assert_error(b"[2.e3]", &o, codes::INVALID_NUMBER, (1, 5));
    assert_error(b"{\"a\":1,\"a\":2}", &o, codes::DUPLICATE_KEY, (7, 10));
    assert_error(b"[1] 2", &o, codes::TRAILING_TOKEN, (4, 5));
    assert_error(b"{} x", &o, codes::TRAILING_TOKEN, (3, 4));
    assert_error(b"[1,", &o, codes::UNEXPECTED_EOF, (3, 3));
    assert_error(b"", &o, codes::UNEXPECTED_EOF, (0, 0));
    assert_error(b"  ", &o, codes::UNEXPECTED_EOF, (2, 2));
    assert_error(b"{\"a\"", &o, codes::UNEXPECTED_EOF, (4, 4));
    assert_error(b"[\"\xff\"]", &o, codes::INVALID_UTF8, (2, 3));
    assert_error(b"[\"ab\xc3\"]", &o, codes::INVALID_UTF8, (4, 5));
    assert_error(b"[\"\\n\xe2\x82\"]", &o, codes::INVALID_UTF8, (4, 6));
    // The first bad sequence as `str::from_utf8` delimits it (the book says so): a
    // surrogate encoded in UTF-8 and an overlong encoding are bad from their first byte.
    assert_error(b"[\"a\xed\xa0\x80\"]", &o, codes::INVALID_UTF8, (3, 4));
    assert_error(b"[\"\xc0\xaf\"]", &o, codes::INVALID_UTF8, (2, 3));
    assert_error(b"[\"a\x01\"]", &o, codes::CONTROL_CHARACTER, (3, 4));
    assert_error(b"\"a\nb\"", &o, codes::CONTROL_CHARACTER, (2, 3));
    assert_error(b"[\"\\ud800\"]", &o, codes::LONE_SURROGATE, (2, 8));
    assert_error(b"[\"\\udc00\\ud800\"]", &o, codes::LONE_SURROGATE, (2, 8));
    assert_error(b"[\"\\ud800\\u0041\"]", &o, codes::LONE_SURROGATE, (2, 8));
    let deep = "[".repeat(129);
    assert_error(deep.as_bytes(), &o, codes::DEPTH_EXCEEDED, (128, 129));
    let options = JsonOptions {
        scalar_root: false,
        ..strict()
    };
    assert_error(b" 12", &options, codes::SCALAR_ROOT, (1, 3));
    assert_error(b"\"s\"", &options, codes::SCALAR_ROOT, (0, 3));
}

/// The input ending inside a string is `UnclosedString` from the opening quote to the end,
/// wherever in the string it ends: inside an escape too (`"\u00`, a surrogate pair cut
/// after its first half, JSON5's `\x4`), as at a lone backslash. An escape that is wrong
/// before the end keeps its own code.
#[test]
fn an_escape_cut_short_by_the_end_of_the_input_is_an_unclosed_string() {
    let o = strict();
    assert_error(b"\"\\u", &o, codes::UNCLOSED_STRING, (0, 3));
    assert_error(b"\"\\u00", &o, codes::UNCLOSED_STRING, (0, 5));
    assert_error(b"[\"ab\\u00e", &o, codes::UNCLOSED_STRING, (1, 9));
    assert_error(b"\"\\ud800", &o, codes::UNCLOSED_STRING, (0, 7));
    assert_error(b"\"\\ud800\\", &o, codes::UNCLOSED_STRING, (0, 8));
    assert_error(b"\"\\ud800\\u", &o, codes::UNCLOSED_STRING, (0, 9));
    assert_error(b"\"\\uD83D\\uDE0", &o, codes::UNCLOSED_STRING, (0, 12));
    let json5 = JsonOptions::json5();
    assert_error(b"'\\x", &json5, codes::UNCLOSED_STRING, (0, 3));
    assert_error(b"['\\x4", &json5, codes::UNCLOSED_STRING, (1, 5));
    // Wrong before the end: the escape's own error.
    assert_error(b"\"\\u00\"", &o, codes::INVALID_ESCAPE, (1, 6));
    assert_error(b"\"\\u0G", &o, codes::INVALID_ESCAPE, (1, 5));
    assert_error(b"\"\\ud800x", &o, codes::LONE_SURROGATE, (1, 7));
    assert_error(b"\"\\ud800\\n", &o, codes::LONE_SURROGATE, (1, 7));
    assert_error(b"\"\\ud800\\u0041", &o, codes::LONE_SURROGATE, (1, 7));
    assert_error(b"\"\\ud800\\ud8", &o, codes::UNCLOSED_STRING, (0, 11));
    // A second escape that is not four hexadecimal digits is itself the error, not the
    // first half it was to complete.
    assert_error(b"[\"\\ud800\\uZZZZ\"]", &o, codes::INVALID_ESCAPE, (8, 11));
    assert_error(b"\"\\ud800\\u00G1\"", &o, codes::INVALID_ESCAPE, (7, 12));
    assert_error(b"\"\\uD83D\\uDE0\"", &o, codes::INVALID_ESCAPE, (7, 13));
    // `\x` as `\u`: from the backslash to the first byte that is no hexadecimal digit.
    assert_error(b"'\\x4G", &json5, codes::INVALID_ESCAPE, (1, 5));
    assert_error(b"'\\xG4'", &json5, codes::INVALID_ESCAPE, (1, 4));
    assert_error(b"'\\x'", &json5, codes::INVALID_ESCAPE, (1, 4));
}

/// A word out of place is shown whole: its letters and digits outside ASCII belong to it
/// (the span of `{café: 1}` ended before `é`), and a character that is neither ends it.
#[test]
fn a_word_an_error_shows_holds_its_letters_outside_ascii() {
    let o = strict();
    assert_error("{café: 1}".as_bytes(), &o, codes::EXPECT_KEY, (1, 6));
    assert_error("[naïve]".as_bytes(), &o, codes::UNEXPECTED_TOKEN, (1, 7));
    assert_error("[trué]".as_bytes(), &o, codes::UNEXPECTED_TOKEN, (1, 6));
    assert_error("[a日本]".as_bytes(), &o, codes::UNEXPECTED_TOKEN, (1, 8));
    // A word that starts outside ASCII is shown by its first character (whose end needs no
    // byte after it, see `io_input.rs`).
    assert_error("[éa1, 2]".as_bytes(), &o, codes::UNEXPECTED_TOKEN, (1, 3));
    assert_error("[café€]".as_bytes(), &o, codes::UNEXPECTED_TOKEN, (1, 6));
    assert_error("[x café]".as_bytes(), &o, codes::UNEXPECTED_TOKEN, (1, 2));
    // A character that is not a letter or digit is shown alone, as before.
    assert_error("[€]".as_bytes(), &o, codes::UNEXPECTED_TOKEN, (1, 4));
    // Bytes that are not UTF-8 end the word.
    assert_error(b"{caf\xe9: 1}", &o, codes::EXPECT_KEY, (1, 4));
}

/// JSON5 lets any character be escaped (`\é` is `é`), so a backslash before bytes that are
/// not UTF-8 is invalid UTF-8 over those bytes, as without the backslash, and before a
/// character the input cuts short the string is never closed. It used to be
/// `InvalidEscape` over the backslash and the first byte, either way.
/// Bytes that are not UTF-8 in a JSON5 identifier key (a key typed in a Latin-1 editor) are
/// `InvalidUtf8` over the bad sequence, as in a string, not a key ending before them.
#[test]
fn a_json5_identifier_key_that_is_not_utf8_is_invalid_utf8_over_its_bytes() {
    let o = JsonOptions::json5();
    assert_error(b"{caf\xe9: 1}", &o, codes::INVALID_UTF8, (4, 5));
    assert_error(b"{\xe9t\xe9: 1}", &o, codes::INVALID_UTF8, (1, 2));
    assert_error(b"{a: 1, b\xff: 2}", &o, codes::INVALID_UTF8, (8, 9));
    // A surrogate in UTF-8 and a sequence cut by the end, as `str::from_utf8` delimits them.
    assert_error(b"{a\xed\xa0\x80: 1}", &o, codes::INVALID_UTF8, (2, 3));
    assert_error(b"{a\xe2\x82", &o, codes::INVALID_UTF8, (2, 4));
    // Valid UTF-8 that cannot continue a key still ends it.
    assert_error("{a\u{20ac}: 1}".as_bytes(), &o, codes::EXPECT_COLON, (2, 5));
}

#[test]
fn a_json5_escaped_character_is_checked_for_utf8_as_raw_text_is() {
    let json5 = JsonOptions::json5();
    assert_error(b"['a\\\xff']", &json5, codes::INVALID_UTF8, (4, 5));
    assert_error(b"['a\\\x80b']", &json5, codes::INVALID_UTF8, (4, 5));
    assert_error(b"['\\\xc0\xaf']", &json5, codes::INVALID_UTF8, (3, 4));
    // A character cut short before the closing quote: the bytes of it that are there.
    assert_error(b"['a\\\xe2\x80']", &json5, codes::INVALID_UTF8, (4, 6));
    assert_error(b"[\"\\\xf0\x9f\x98\"]", &json5, codes::INVALID_UTF8, (3, 6));
    // The first bytes of the string that are not UTF-8, also when they come before the
    // escape (raw text is checked when the string closes).
    assert_error(b"['\xff\\\xfe']", &json5, codes::INVALID_UTF8, (2, 3));
    assert_error(b"['\xe6\x97\\\xfe']", &json5, codes::INVALID_UTF8, (2, 4));
    // Cut by the end of the input inside the escaped character, or right after its lead
    // byte: never closed, as `'a\xe2\x80` is.
    assert_error(b"['a\\\xe2\x80", &json5, codes::UNCLOSED_STRING, (1, 6));
    assert_error(b"'\\\xc3", &json5, codes::UNCLOSED_STRING, (0, 3));
    assert_error(b"'\\\xf0\x9f\x98", &json5, codes::UNCLOSED_STRING, (0, 5));
    assert_error(b"['\xff\\\xe2\x80", &json5, codes::UNCLOSED_STRING, (1, 6));
    // Bytes that are wrong before the end are wrong whatever follows.
    assert_error(b"['a\\\xe2\x28", &json5, codes::INVALID_UTF8, (4, 5));
    // Valid characters still escape to themselves, and strict JSON still refuses the
    // escape itself.
    assert_eq!(
        read_slice("['\\é\\日\\😀']".as_bytes(), &json5).unwrap()[1],
        Token::String("é日😀".into())
    );
    assert_error(b"[\"a\\\xff\"]", &strict(), codes::INVALID_ESCAPE, (3, 5));
}

#[test]
fn errors_carry_the_data_path() {
    let cases = [
        (r#"{"a":[1,{"b":tru}]}"#, "$.a[1].b"),
        (r#"[0,1,2 3]"#, "$[3]"),
        (r#"{"x":{"y":1,"y":2}}"#, "$.x.y"),
        (r#"{"odd key":[[], [x]]}"#, r#"$["odd key"][1][0]"#),
        // Each array's count at every depth, and the counts of the outer arrays as they
        // were once the inner containers close.
        (r#"[[1, 2], [3, [4, 5, x]]]"#, "$[1][1][2]"),
        (r#"[[1,[2]],3,{"k":[4]},x]"#, "$[3]"),
        (r#"{"a":[1],"b":[2,{"c":[[]]},z]}"#, "$.b[2]"),
    ];
    for (input, path) in cases {
        let err = read_slice(input.as_bytes(), &strict()).unwrap_err();
        assert_eq!(
            err.path().map(ToString::to_string).as_deref(),
            Some(path),
            "{input}"
        );
    }
}

/// Reads `input` from a slice and trickled, with each of `options`, and checks that both
/// fail with `code` over `span`, at `path`, with `notes` notes.
fn assert_slot_error(
    input: &str,
    options: &[JsonOptions],
    code: ErrorCode,
    span: Span,
    path: &str,
    notes: usize,
) {
    for options in options {
        for err in [
            read_slice(input.as_bytes(), options).unwrap_err(),
            read_trickle(input.as_bytes(), 2, options).unwrap_err(),
        ] {
            assert_eq!((err.code(), err.span()), (code, Some(span)), "{input}");
            assert_eq!(
                err.path().map(ToString::to_string).as_deref(),
                Some(path),
                "{input}"
            );
            assert_eq!(err.notes().len(), notes, "{input}");
        }
    }
}

#[test]
fn a_missing_comma_names_the_slot_of_the_token_that_stands_there() {
    // In an array, the index of the item the token would be; in an object, the object:
    // the token is not a key (yet), and it is not inside the member before it, which a
    // note names instead.
    for (input, path, (start, end), notes) in [
        (r#"[1,2 3]"#, "$[2]", (5, 6), 0),
        (r#"{"size":{"width":1 "height":2}}"#, "$.size", (19, 27), 1),
        (r#"{"a":[1,{"b":{}} {}]}"#, "$.a[2]", (17, 18), 0),
        (r#"{"a":{} "b"}"#, "$", (8, 11), 1),
    ] {
        let options = [strict(), relaxed_last_wins()];
        let span = Span::new(start, end);
        assert_slot_error(input, &options, codes::EXPECT_COMMA, span, path, notes);
    }
}

#[test]
fn the_end_of_the_input_after_a_member_names_the_object() {
    // As for a missing comma: the end stands in the object, after the member.
    for (input, path, notes) in [
        (r#"{"a":1"#, "$", 1),
        (r#"{"a":{"b":[1]"#, "$.a", 1),
        (r#"{"a":[1"#, "$.a[1]", 0),
        (r#"{"a":"#, "$.a", 0),
    ] {
        let options = [strict(), relaxed_last_wins()];
        let span = Span::at(input.len());
        assert_slot_error(input, &options, codes::UNEXPECTED_EOF, span, path, notes);
    }
}

/// Relaxed options without duplicate detection: keys kept in the reader's frames.
fn relaxed_last_wins() -> JsonOptions {
    JsonOptions {
        duplicate_keys: sluice_json::DuplicateKeys::LastWins,
        ..JsonOptions::relaxed()
    }
}

#[test]
fn errors_carry_the_data_path_without_duplicate_tracking() {
    // Without duplicate detection the current key is kept differently on stable and
    // streamed inputs; the paths must not differ.
    let options = JsonOptions {
        duplicate_keys: sluice_json::DuplicateKeys::LastWins,
        ..JsonOptions::json5()
    };
    let cases = [
        (r#"{"a":[1,{"b":tru}]}"#, "$.a[1].b"),
        // A missing comma is reported at the token after the member, in the object.
        (r#"{"x":{"y":1,"y":2 3}}"#, "$.x"),
        (r#"{"esc\u0061ped\n":[x]}"#, r#"$["escaped\n"][0]"#),
        (r#"{'single':{"é":[1,{}, @]}}"#, "$.single.é[2]"),
        (r#"{ident:{"k":1,"l":}}"#, "$.ident.l"),
        (r#"{"a":1,"b":{"c":{}},"d":[x]}"#, "$.d[0]"),
        (r#"{"a":{"c":{}}, 7}"#, "$"),
    ];
    for (input, path) in cases {
        let slice = read_slice(input.as_bytes(), &options).unwrap_err();
        let mut text_reader = JsonReader::from_str(input).with_options(options.clone());
        let text = Token::read_all(&mut text_reader).unwrap_err();
        let trickle = read_trickle(input.as_bytes(), 3, &options).unwrap_err();
        for err in [&slice, &text, &trickle] {
            assert_eq!(
                err.path().map(ToString::to_string).as_deref(),
                Some(path),
                "{input}: {err}"
            );
        }
        assert_eq!(
            (slice.code(), slice.span()),
            (trickle.code(), trickle.span())
        );
    }
}

#[test]
fn raw_runs_between_escapes_are_checked_for_utf8() {
    let o = strict();
    // ASCII runs around escapes decode as they are.
    assert_eq!(
        read_slice(b"[\"a\\tb\\u0041c\\\\\"]", &o).unwrap()[1],
        Token::String("a\tbAc\\".into())
    );
    // A run after an escape, and one after valid non-ASCII text, are still checked.
    assert_error(b"[\"\\nab\xff\"]", &o, codes::INVALID_UTF8, (6, 7));
    assert_error(b"[\"\xc3\xa9\\n\xc3(\"]", &o, codes::INVALID_UTF8, (6, 7));
    assert_error(b"[\"x\\n\xe9\\n\"]", &o, codes::INVALID_UTF8, (5, 6));
    // A character cut short by an escape: the span covers the bytes of it that are there.
    assert_error(b"[\"\xe6\x97\\nabc\"]", &o, codes::INVALID_UTF8, (2, 4));
    assert_error(
        b"[\"ab\\t\xe6\x97\\u0041\"]",
        &o,
        codes::INVALID_UTF8,
        (6, 8),
    );
    // Valid text in every run, with escapes of every kind between them.
    assert_eq!(
        read_slice("[\"\u{e9}\\n\u{65e5}\\u00e9\u{1f600}\\\"\"]".as_bytes(), &o).unwrap()[1],
        Token::String("\u{e9}\n\u{65e5}\u{e9}\u{1f600}\"".into())
    );
    // The string's syntax is checked as it is lexed, its UTF-8 once it is whole: a bad
    // escape after invalid UTF-8 is the error reported, as a control character is in a
    // string without escapes.
    assert_error(b"[\"\xff\\q\"]", &o, codes::INVALID_ESCAPE, (3, 5));
    assert_error(b"[\"\xff\x01\"]", &o, codes::CONTROL_CHARACTER, (3, 4));
}

#[test]
fn long_non_ascii_strings_are_checked_for_utf8() {
    // Long enough for the SIMD check; the error still points at the faulty byte.
    let o = strict();
    let text = "名前:前田あゆみ 日本語のテキスト";
    let doc = format!("[\"{text}\",\"{text}\\n{text}\"]");
    let tokens = read_slice(doc.as_bytes(), &o).unwrap();
    assert_eq!(tokens[1], Token::String(text.into()));
    assert_eq!(tokens[2], Token::String(format!("{text}\n{text}")));
    let mut bad = format!("[\"{text}").into_bytes();
    let at = bad.len();
    bad.extend_from_slice(b"\xe6\x97(tail text\"]");
    assert_error(&bad, &o, codes::INVALID_UTF8, (at, at + 2));
    let mut bad = format!("{{\"{text}\\t").into_bytes();
    let at = bad.len();
    bad.extend_from_slice(b"\xff0123456789abcdef\":1}");
    assert_error(&bad, &o, codes::INVALID_UTF8, (at, at + 1));
}

#[test]
fn strings_and_keys_of_every_length_read_the_same_on_every_path() {
    // Around the 32 bytes that short strings are lexed in at once: every length, with and
    // without non-ASCII text or an escape at either end, as a key and as a value, and with
    // the document ending right after the string (the short path needs 32 bytes after the
    // quote in the window: `pad` gives them).
    let o = strict();
    let pad = " ".repeat(40);
    for len in 0..70 {
        let plain = "k".repeat(len);
        let mut variants = vec![plain.clone()];
        if len > 0 {
            variants.push(format!("é{}", "k".repeat(len - 1)));
            variants.push(format!("{}é", "k".repeat(len - 1)));
            variants.push(format!("{}\\n", "k".repeat(len - 1)));
        }
        for text in variants {
            let doc = format!("{{\"{text}\":\"{text}\"}}{pad}");
            let tokens = read_slice(doc.as_bytes(), &o).unwrap();
            let decoded = text.replace("\\n", "\n");
            assert_eq!(tokens[1], Token::Name(decoded.clone()), "{doc}");
            assert_eq!(tokens[2], Token::String(decoded), "{doc}");
            for chunk in [1, 7, 64] {
                assert_eq!(
                    outcome(read_trickle(doc.as_bytes(), chunk, &o)),
                    outcome(read_slice(doc.as_bytes(), &o)),
                    "{chunk}-byte reads of {doc}"
                );
            }
        }
        // Invalid UTF-8 at the end of a short string is found at its byte.
        let mut bad = format!("[\"{plain}").into_bytes();
        let at = bad.len();
        bad.extend_from_slice(b"\xff\"]");
        bad.extend_from_slice(pad.as_bytes());
        assert_error(&bad, &o, codes::INVALID_UTF8, (at, at + 1));
        // So is a raw control character, and a string the input never closes.
        let mut control = format!("[\"{plain}").into_bytes();
        let at = control.len();
        control.extend_from_slice(b"\x01\"]");
        control.extend_from_slice(pad.as_bytes());
        assert_error(&control, &o, codes::CONTROL_CHARACTER, (at, at + 1));
        let open = format!("[\"{plain}");
        assert_error(open.as_bytes(), &o, codes::UNCLOSED_STRING, (1, open.len()));
    }
}

#[test]
fn rendered_errors_point_at_line_and_column() {
    let text = "{\n  \"a\": 1,\n  \"b\" 2\n}";
    let err = read_slice(text.as_bytes(), &strict())
        .unwrap_err()
        .with_source_text("config.json", text);
    let rendered = err.render();
    assert!(rendered.contains("json/ExpectColon"), "{rendered}");
    assert!(rendered.contains("config.json:3:7"), "{rendered}");
}

#[test]
fn the_reader_contract_holds_on_assorted_documents() {
    let docs = [
        r#"{"a":[1,-2,3.5,"x",true,false,null,{},[]],"b":{"c":"\u00e9\n"}}"#,
        "[]",
        "\"lonely\"",
        "-0.0e-0",
        "  {\"k\" : [ 1 , 2 ] }  ",
    ];
    for doc in docs {
        let tokens = read_checked(&mut JsonReader::from_str(doc)).unwrap();
        assert!(!tokens.is_empty());
        let mut io = JsonReader::from_read(common::Trickle {
            bytes: doc.as_bytes(),
            chunk: 1,
        });
        assert_eq!(read_checked(&mut io).unwrap(), tokens, "{doc}");
    }
}

#[test]
fn numbers_keep_their_text_and_hint() {
    let mut reader = JsonReader::from_str("[12, -3, 4.50, 1E+2, 18446744073709551616]");
    reader.read_array_root().unwrap();
    let expect = [
        ("12", NumberHint::Integer),
        ("-3", NumberHint::NegInteger),
        ("4.50", NumberHint::Float),
        ("1E+2", NumberHint::Float),
        ("18446744073709551616", NumberHint::Integer),
    ];
    for (text, hint) in expect {
        assert_eq!(reader.peek().unwrap(), Entry::Number(hint));
        let number = reader.read_number().unwrap();
        assert_eq!((number.as_text(), number.hint()), (Some(text), hint));
    }
    let mut reader = JsonReader::from_str("[300, 1.5, 18446744073709551616]");
    reader.read_array_root().unwrap();
    assert_eq!(
        code_and_span(&reader.read_i8().unwrap_err()),
        (core_codes::NUMBER_OUT_OF_RANGE, (1, 4))
    );
    assert_eq!(reader.span(), Span::new(1, 4));
    // A number that does not convert stays unread.
    assert_eq!(reader.read_i16().unwrap(), 300);
    assert_eq!(
        code_and_span(&reader.read_i64().unwrap_err()),
        (core_codes::NUMBER_NOT_INTEGER, (6, 9))
    );
    assert_eq!(reader.read_f64().unwrap(), 1.5);
    assert_eq!(reader.read_u128().unwrap(), 1u128 << 64);
}

#[test]
fn number_text_reads_with_and_without_a_peek_agree_and_move_the_span() {
    let doc = r#"[7, -0.25, 1e5, 123456789012345678901234, "x"]"#;
    for peek_first in [false, true] {
        let mut reader = JsonReader::from_str(doc);
        reader.read_array_root().unwrap();
        for (text, at) in [
            ("7", 1),
            ("-0.25", 4),
            ("1e5", 11),
            ("123456789012345678901234", 16),
        ] {
            if peek_first {
                reader.peek().unwrap();
            }
            assert_eq!(reader.read_number().unwrap().as_text(), Some(text));
            assert_eq!(reader.span(), Span::new(at, at + text.len()), "{text}");
        }
        let err = reader.read_number().unwrap_err();
        assert_eq!(err.code(), core_codes::UNEXPECTED_ENTRY);
        assert_eq!(err.span(), Some(Span::new(42, 45)));
        assert_eq!(
            reader.read_str().unwrap(),
            "x",
            "a failed read consumes nothing"
        );
    }
}

#[test]
fn strings_without_escapes_are_borrowed_from_the_input() {
    let text = r#"["plain", "esc\"aped"]"#;
    let mut reader = JsonReader::from_str(text);
    reader.read_array_root().unwrap();
    let plain = reader.read_str().unwrap();
    let range = text.as_bytes().as_ptr_range();
    assert!(range.contains(&plain.as_ptr()), "borrowed from the input");
    assert_eq!(reader.read_str().unwrap(), "esc\"aped");
}

#[test]
fn surrogate_pairs_decode() {
    let mut reader = JsonReader::from_str(r#""\ud83d\ude00 \u00e9 \u0000""#);
    assert_eq!(reader.read_str().unwrap(), "😀 é \0");
}

#[test]
fn deep_nesting_never_overflows_the_stack() {
    let depth = 200_000;
    let doc = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let err = read_slice(doc.as_bytes(), &strict()).unwrap_err();
    assert_eq!(err.code(), codes::DEPTH_EXCEEDED);
    let options = JsonOptions {
        max_depth: depth,
        ..strict()
    };
    let tokens = read_slice(doc.as_bytes(), &options).unwrap();
    assert_eq!(tokens.len(), 2 * depth);
    let mut reader = JsonReader::from_str(&doc).with_options(options);
    reader.skip().unwrap();
    reader.finish().unwrap();
}

#[test]
fn max_depth_is_exact() {
    let options = JsonOptions {
        max_depth: 3,
        ..strict()
    };
    read_slice(b"[{\"a\":[]}]", &options).unwrap();
    let err = read_slice(b"[{\"a\":[[]]}]", &options).unwrap_err();
    assert_eq!(
        (err.code(), err.span()),
        (codes::DEPTH_EXCEEDED, Some(Span::new(7, 8)))
    );
}

#[test]
fn skip_skips_whole_values_and_still_validates() {
    let mut reader = JsonReader::from_str(r#"{"a":[1,{"b":[2]}],"c":3}"#);
    reader.read_map_root().unwrap();
    assert_eq!(reader.read_name().unwrap(), "a");
    reader.skip().unwrap();
    assert_eq!(reader.read_name().unwrap(), "c");
    assert_eq!(reader.read_u8().unwrap(), 3);
    let mut reader = JsonReader::from_str(r#"[{"a":1,"a":2}]"#);
    assert_eq!(
        code_and_span(&reader.skip().unwrap_err()),
        (codes::DUPLICATE_KEY, (8, 11))
    );
    let mut reader = JsonReader::from_slice(b"[\"\xff\"]");
    assert_eq!(
        code_and_span(&reader.skip().unwrap_err()),
        (codes::INVALID_UTF8, (2, 3))
    );
}

#[test]
fn finish_reports_unread_tokens_and_trailing_input() {
    let mut reader = JsonReader::from_str("[1]");
    assert_eq!(
        code_and_span(&reader.finish().unwrap_err()),
        (codes::TRAILING_TOKEN, (0, 1))
    );
    let mut reader = JsonReader::from_str("[1] // no");
    reader.skip().unwrap();
    assert_eq!(
        code_and_span(&reader.finish().unwrap_err()),
        (codes::TRAILING_TOKEN, (4, 5))
    );
    let mut reader = JsonReader::from_str(" [1] \r\n\t");
    reader.skip().unwrap();
    reader.finish().unwrap();
    assert_eq!(reader.peek().unwrap(), Entry::Ended);
    assert_eq!(
        code_and_span(&reader.read_null().unwrap_err()),
        (core_codes::UNEXPECTED_ENTRY, (8, 8))
    );
}

#[test]
fn a_utf8_byte_order_mark_is_skipped_and_spans_stay_absolute() {
    let err = read_slice(b"\xEF\xBB\xBF[1 2]", &strict()).unwrap_err();
    assert_eq!(err.span(), Some(Span::new(6, 7)));
    assert_eq!(
        read_slice(b"\xEF\xBB\xBF{}", &strict()).unwrap(),
        vec![Token::MapRoot(None), Token::MapEnd]
    );
}

#[test]
fn a_chosen_window_keeps_its_size_and_grows_only_for_a_longer_token() {
    let numbers: String = (0..5000).map(|i| format!("{i},")).collect();
    let read_windowed = |doc: &str| {
        let input = IoInput::with_window(doc.as_bytes(), 32);
        let mut reader = JsonReader::new(input, strict());
        let tokens = Token::read_all(&mut reader).unwrap();
        reader.finish().unwrap();
        assert_eq!(tokens, read_slice(doc.as_bytes(), &strict()).unwrap());
        reader.into_input().capacity()
    };
    // 29 KB of short tokens through a 32-byte window: it moves, it never grows.
    assert_eq!(read_windowed(&format!("[{numbers}0]")), 32);
    // One 102-byte string among them: doubled twice to hold it, no more.
    let long = format!("[{numbers}\"{}\", 0]", "x".repeat(100));
    assert_eq!(read_windowed(&long), 128);
}

#[test]
fn io_path_memory_stays_bounded_on_a_long_stream() {
    // 40 MB of records, produced on the fly.
    struct Records {
        left: usize,
        line: Vec<u8>,
        at: usize,
    }
    impl std::io::Read for Records {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.at == self.line.len() {
                if self.left == 0 {
                    return Ok(0);
                }
                self.left -= 1;
                self.at = 0;
            }
            let n = buf.len().min(self.line.len() - self.at);
            buf[..n].copy_from_slice(&self.line[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }
    let line =
        br#"{"id":12345,"name":"a record of some length","tags":["x","y"],"v":1.5}"#.to_vec();
    let mut line = line;
    line.push(b'\n');
    let count = 40_000_000 / line.len();
    let source = Records {
        left: count,
        at: line.len(),
        line,
    };
    let mut reader = JsonReader::from_read(source).with_options(JsonOptions::ndjson());
    let mut values = 0;
    while reader.peek().unwrap() != Entry::Ended {
        reader.skip().unwrap();
        values += 1;
    }
    assert_eq!(values, count);
    assert_eq!(reader.into_input().capacity(), sluice_json::IO_WINDOW);
}

#[test]
fn integer_reads_are_exact_at_every_length_and_sign() {
    let mut texts = Vec::new();
    for digits in 1..=21 {
        let nines = "9".repeat(digits);
        let ones = format!("1{}", "0".repeat(digits - 1));
        texts.extend([
            nines.clone(),
            format!("-{nines}"),
            ones.clone(),
            format!("-{ones}"),
        ]);
    }
    texts.extend(
        [
            "0",
            "-0",
            "18446744073709551615",
            "9223372036854775807",
            "-9223372036854775808",
        ]
        .map(String::from),
    );
    for text in &texts {
        let expect_u64 = text.parse::<u64>().ok().or((text == "-0").then_some(0));
        let expect_i64 = text.parse::<i64>().ok();
        let got_u64 = JsonReader::from_str(text).read_u64().ok();
        let got_i64 = JsonReader::from_str(text).read_i64().ok();
        assert_eq!(got_u64, expect_u64, "{text} as u64");
        assert_eq!(got_i64, expect_i64, "{text} as i64");
    }
    let mut reader = JsonReader::from_str("[-1, 1.0]");
    reader.read_array_root().unwrap();
    assert_eq!(
        code_and_span(&reader.read_u64().unwrap_err()),
        (core_codes::NUMBER_OUT_OF_RANGE, (1, 3))
    );
    assert_eq!(reader.span(), Span::new(1, 3));
    // The number stays unread, for another read to take.
    assert_eq!(reader.read_i64().unwrap(), -1);
    assert_eq!(reader.read_i64().unwrap(), 1);
}

#[test]
fn a_string_that_is_not_utf8_names_its_own_path() {
    // The string is checked as it is read, after the reader has moved past it: the path
    // still names the string, not the position after it.
    let mut reader = JsonReader::from_slice(b"[\"ok\", \"\xff\"]");
    reader.read_array_root().unwrap();
    assert_eq!(reader.read_str().unwrap(), "ok");
    let err = reader.read_str().unwrap_err();
    assert_eq!(err.code(), codes::INVALID_UTF8);
    assert_eq!(err.path().unwrap().to_string(), "$[1]");
    // The first error stops the reader: a second string is checked by a reader of its own.
    let mut reader = JsonReader::from_slice(b"[\"ok\", 1, {\"a\": \"\xfe\"}]");
    reader.read_array_root().unwrap();
    assert_eq!(reader.read_str().unwrap(), "ok");
    assert_eq!(reader.read_u8().unwrap(), 1);
    reader.read_map_root().unwrap();
    assert_eq!(reader.read_name().unwrap(), "a");
    let err = reader.read_str().unwrap_err();
    assert_eq!(err.code(), codes::INVALID_UTF8);
    assert_eq!(err.path().unwrap().to_string(), "$[2].a");
}

#[test]
fn peeked_tells_the_looked_at_token_until_it_is_read() {
    let mut reader = JsonReader::from_str(r#"{"a": [1]}"#);
    assert_eq!(reader.peeked(), None);
    assert_eq!(reader.peek().unwrap(), Entry::MapRoot);
    assert_eq!(reader.peeked(), Some(Entry::MapRoot));
    reader.read_map_root().unwrap();
    // Read, and the next token not looked at yet.
    assert_eq!(reader.peeked(), None);
    assert_eq!(reader.read_name().unwrap(), "a");
    assert_eq!(reader.peek().unwrap(), Entry::ArrayRoot);
    // Through `&mut R` and `Box<R>` as well.
    let forwarding: &mut JsonReader<_> = &mut reader;
    assert_eq!(
        <&mut JsonReader<_> as Reader>::peeked(&forwarding),
        Some(Entry::ArrayRoot)
    );
    let mut boxed: Box<dyn Reader> = Box::new(reader);
    assert_eq!(boxed.peeked(), Some(Entry::ArrayRoot));
    boxed.read_array_root().unwrap();
    assert_eq!(boxed.peeked(), None);
    assert_eq!(boxed.read_u8().unwrap(), 1);
    // A failed peek leaves nothing looked at.
    let mut broken = JsonReader::from_str("[1 2]");
    broken.read_array_root().unwrap();
    broken.read_u8().unwrap();
    assert_eq!(
        code_and_span(&broken.peek().unwrap_err()),
        (codes::EXPECT_COMMA, (3, 4))
    );
    assert_eq!(broken.peeked(), None);
}

/// After a syntax error the reader stops: every later peek, read, skip or `finish()` gives
/// the same error again (code and span), on the slice path and through `io::Read` whatever
/// the size of the reads. It used to lex again from where the failed token began or from
/// where the lexer had stopped, so a second peek could give another error, a token
/// (`[1 /**/ 2]` through two-byte reads), or trip a debug assertion.
#[test]
fn a_syntax_error_is_repeated_by_everything_after_it() {
    let relaxed = JsonOptions::relaxed();
    let json5 = JsonOptions::json5();
    let cases: [(&str, &JsonOptions, ErrorCode, (usize, usize)); 11] = [
        ("[1 2]", &strict(), codes::EXPECT_COMMA, (3, 4)),
        ("{\"a\" 1}", &strict(), codes::EXPECT_COLON, (5, 6)),
        ("{\"a\":1 \"b\":2}", &strict(), codes::EXPECT_COMMA, (7, 10)),
        ("{\"a\": 1 2}", &strict(), codes::EXPECT_COMMA, (8, 9)),
        ("[\"\\x\"]", &strict(), codes::INVALID_ESCAPE, (2, 4)),
        ("[\"\\ud800\"]", &strict(), codes::LONE_SURROGATE, (2, 8)),
        ("[1 /**/ 2]", &relaxed, codes::EXPECT_COMMA, (8, 9)),
        ("[/**/1 2]", &relaxed, codes::EXPECT_COMMA, (7, 8)),
        ("{\"a\" /**/ 1}", &relaxed, codes::EXPECT_COLON, (10, 11)),
        ("{a b:1}", &json5, codes::EXPECT_COLON, (3, 4)),
        ("['x' 'y']", &json5, codes::EXPECT_COMMA, (5, 8)),
    ];
    fn check<S: sluice_json::Input>(
        mut reader: JsonReader<S>,
        text: &str,
        code: ErrorCode,
        span: (usize, usize),
        how: &str,
    ) {
        let mut errors = Vec::new();
        loop {
            match reader.peek() {
                Ok(entry) => Token::read(&mut reader, entry).map(drop),
                Err(err) => {
                    errors.push(err);
                    break;
                }
            }
            .expect("the tokens before the error read");
        }
        for _ in 0..2 {
            errors.push(reader.peek().expect_err("a second peek"));
        }
        errors.push(reader.read_u8().expect_err("a read"));
        errors.push(reader.skip().expect_err("a skip"));
        errors.push(reader.finish().expect_err("finish"));
        for err in errors {
            assert_eq!(
                (err.code(), err.span()),
                (code, Some(Span::new(span.0, span.1))),
                "{text:?} {how}"
            );
        }
    }
    for (text, options, code, span) in cases {
        let slice = JsonReader::from_str(text).with_options(options.clone());
        check(slice, text, code, span, "slice");
        for chunk in 1..=4 {
            let input = common::trickle_input(text.as_bytes(), chunk);
            let reader = JsonReader::new(input, options.clone());
            check(reader, text, code, span, &format!("{chunk}-byte reads"));
        }
    }
}

/// The lexer's rarer paths run out of line and hand their errors back aside from the entry
/// they return: each still reports its own code and span, on every input path, and a
/// success read after such an error on another reader is unaffected.
#[test]
fn errors_of_the_out_of_line_lexer_paths_keep_their_codes_and_spans() {
    let o = strict();
    let json5 = JsonOptions::json5();
    // A literal cut by the end of the input, and a word that is no literal.
    assert_error(b"[nul", &o, codes::UNEXPECTED_TOKEN, (1, 4));
    assert_error(b"[nulls]", &o, codes::UNEXPECTED_TOKEN, (1, 6));
    // A byte that starts no value.
    assert_error(b"[1,?]", &o, codes::UNEXPECTED_TOKEN, (3, 4));
    // A number cut by the end of the input, and one too close to it for the short path.
    assert_error(b"[-", &o, codes::INVALID_NUMBER, (1, 2));
    assert_error(b"[1e+]", &o, codes::INVALID_NUMBER, (1, 4));
    // A string longer than the in-line search, never closed.
    let mut long = b"[\"".to_vec();
    long.extend_from_slice(&[b'x'; 40]);
    assert_error(&long, &o, codes::UNCLOSED_STRING, (1, 42));
    // At the root, after a root value.
    assert_error(b"[] 1", &o, codes::TRAILING_TOKEN, (3, 4));
    // JSON5: a single-quoted string never closed, a bad identifier key, a bad number.
    assert_error(b"['abc", &json5, codes::UNCLOSED_STRING, (1, 5));
    assert_error(b"{1: 2}", &json5, codes::EXPECT_KEY, (1, 2));
    assert_error(b"[+x]", &json5, codes::INVALID_NUMBER, (1, 3));
    // The same paths succeed where the input is valid.
    let valid = read_slice(b"{a: 'text', b: +1, c: [null, true, false, 0x10]}", &json5).unwrap();
    assert_eq!(valid.len(), 13);
}

#[test]
fn member_values_read_the_same_whatever_follows_the_colon() {
    // One space after `:` is stepped over in one compare; everything else goes the general
    // way. Whatever the spacing, the tokens, the value's span and the errors must be the
    // same, on the slice and through `io::Read` cut at every byte.
    let values = [
        "\"s\"",
        "1",
        "-2.5",
        "true",
        "null",
        "{}",
        "[]",
        "{\"b\": 2}",
        "[3]",
    ];
    let strict = strict();
    let relaxed = JsonOptions::relaxed();
    let separators: [(&str, &JsonOptions); 9] = [
        ("", &strict),
        (" ", &strict),
        ("  ", &strict),
        (" \n", &strict),
        ("\n ", &strict),
        ("\t", &strict),
        (" \r\n  ", &strict),
        (" /* c */ ", &relaxed),
        (" // c\n", &relaxed),
    ];
    // Where the separator starts: after `{"k":`.
    let after_colon = "{\"k\":".len();
    for value in values {
        let expected = read_slice(format!("{{\"k\":{value}}}").as_bytes(), &strict).unwrap();
        for (separator, options) in separators {
            let doc = format!("{{\"k\":{separator}{value}}}");
            assert_eq!(
                read_slice(doc.as_bytes(), options).as_ref().ok(),
                Some(&expected),
                "{doc:?}"
            );
            for chunk in [1, 2, 64] {
                assert_eq!(
                    outcome(read_trickle(doc.as_bytes(), chunk, options)),
                    outcome(read_slice(doc.as_bytes(), options)),
                    "{chunk}-byte reads of {doc:?}"
                );
            }
            // The value's span starts right after the separator.
            let mut reader = JsonReader::from_str(&doc).with_options(options.clone());
            reader.read_map_root().unwrap();
            reader.read_name().unwrap();
            reader.skip().unwrap();
            let start = after_colon + separator.len();
            if !value.starts_with(['{', '[']) {
                assert_eq!(
                    reader.span(),
                    Span::new(start, start + value.len()),
                    "{doc:?}"
                );
            }
        }
    }
    // What cannot start a value is refused at its byte, with one space before it or more.
    for separator in [" ", "  ", ""] {
        let at = after_colon + separator.len();
        for bad in ["]", ",", "}", "x"] {
            let doc = format!("{{\"k\":{separator}{bad}}}");
            assert_error(
                doc.as_bytes(),
                &strict,
                codes::UNEXPECTED_TOKEN,
                (at, at + 1),
            );
        }
    }
    // A comment right after one space is still a comment where comments are allowed, and
    // an error where they are not.
    assert_eq!(
        read_slice(b"{\"k\": /**/1}", &relaxed).unwrap(),
        read_slice(b"{\"k\":1}", &strict).unwrap()
    );
    assert_error(
        b"{\"k\": /**/1}",
        &strict,
        codes::UNEXPECTED_TOKEN,
        (after_colon + 1, after_colon + 2),
    );
}

#[test]
fn every_typed_number_read_gives_the_code_span_and_path_of_its_error() {
    // (document, keys to read on the way, code, span, path); `None` for the code when the
    // read succeeds (`read_number` hands out any number's text).
    let cases = [
        (
            r#"{"a":[1,1e400]}"#,
            1,
            Some(core_codes::NUMBER_OUT_OF_RANGE),
            (8, 13),
            "$.a[1]",
        ),
        (
            r#"{"a":{"b":-1e400}}"#,
            2,
            Some(core_codes::NUMBER_OUT_OF_RANGE),
            (10, 16),
            "$.a.b",
        ),
        (
            r#"{"a":[1,true]}"#,
            1,
            Some(core_codes::UNEXPECTED_ENTRY),
            (8, 12),
            "$.a[1]",
        ),
    ];
    for (doc, keys, code, span, path) in cases {
        let read_number: (&str, NumberRead) = ("read_number", |r| r.read_number().map(drop));
        for (name, read) in TYPED_NUMBER_READS.into_iter().chain([read_number]) {
            // Lexed by a peek first or by the read itself, from a slice or through `io::Read`.
            for (peek, trickle) in [(false, false), (true, false), (false, true), (true, true)] {
                let mut slice;
                let mut streamed;
                let reader: &mut dyn Reader = if trickle {
                    streamed = JsonReader::from_read(common::Trickle {
                        bytes: doc.as_bytes(),
                        chunk: 3,
                    });
                    &mut streamed
                } else {
                    slice = JsonReader::from_str(doc);
                    &mut slice
                };
                // To the second number of the array, or the value of the innermost key.
                for _ in 0..keys {
                    reader.read_map_root().unwrap();
                    reader.read_name().unwrap();
                }
                if reader.peek().unwrap() == Entry::ArrayRoot {
                    reader.read_array_root().unwrap();
                    reader.read_u8().unwrap();
                }
                if peek {
                    reader.peek().unwrap();
                }
                let context = format!("{doc} {name}, peek {peek}, io {trickle}");
                if name == "read_number" && code != Some(core_codes::UNEXPECTED_ENTRY) {
                    read(reader).unwrap_or_else(|err| panic!("{context}: {err}"));
                    continue;
                }
                let err = read(reader).expect_err(&context);
                assert_eq!(
                    (
                        Some(err.code()),
                        err.span(),
                        err.path().map(ToString::to_string)
                    ),
                    (code, Some(Span::new(span.0, span.1)), Some(path.to_owned())),
                    "{context}: {err}"
                );
            }
        }
    }
}

#[test]
fn an_error_about_a_long_token_quotes_an_excerpt_and_spans_all_of_it() {
    // Messages quote the offending text; a token of 100 KB (or a megabyte) must not make a
    // message of that size (the span still covers the whole token).
    let digits = "7".repeat(100_000);
    let short = |err: &sluice_core::Error| {
        assert!(err.message().len() < 200, "{} bytes", err.message().len());
    };

    let doc = format!("[{digits}x]");
    assert_error(
        doc.as_bytes(),
        &strict(),
        codes::INVALID_NUMBER,
        (1, doc.len() - 1),
    );
    short(&read_slice(doc.as_bytes(), &strict()).unwrap_err());

    let key = "k".repeat(100_000);
    let doc = format!("{{\"{key}\":1,\"{key}\":2}}");
    let second = key.len() + 6;
    assert_error(
        doc.as_bytes(),
        &strict(),
        codes::DUPLICATE_KEY,
        (second, second + key.len() + 2),
    );
    short(&read_slice(doc.as_bytes(), &strict()).unwrap_err());

    let err = JsonReader::from_str(&digits).read_u8().unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(err.span(), Some(Span::new(0, digits.len())));
    short(&err);
}

/// Reads `text` until its first error, token by token and (separately) by one `skip` of the
/// whole document, from the slice and through `io::Read` in reads of 1 to 9 bytes: the
/// first error is `code` at `span`, and every later peek, read, skip and `finish()` reports
/// it again (an error in the input is final).
#[track_caller]
fn assert_final_error(text: &[u8], options: &JsonOptions, code: ErrorCode, span: (usize, usize)) {
    fn errors<S: sluice_json::Input>(
        mut reader: JsonReader<S>,
        skip: bool,
    ) -> Vec<sluice_core::Error> {
        let first = if skip {
            reader.skip().expect_err("the skip fails")
        } else {
            loop {
                let result = reader
                    .peek()
                    .and_then(|entry| Token::read(&mut reader, entry));
                if let Err(err) = result {
                    break err;
                }
            }
        };
        vec![
            first,
            reader.peek().expect_err("a peek"),
            reader.peek().expect_err("a second peek"),
            reader.read_u8().expect_err("a number read"),
            reader.read_str().map(drop).expect_err("a string read"),
            reader.read_name().map(drop).expect_err("a key read"),
            reader.skip().expect_err("a skip"),
            reader.finish().expect_err("finish"),
        ]
    }
    let expected = (code, Some(Span::new(span.0, span.1)));
    for skip in [false, true] {
        let slice = JsonReader::new(sluice_json::SliceInput::new(text), options.clone());
        let mut all = vec![("slice".to_owned(), errors(slice, skip))];
        for chunk in 1..=9 {
            let input = common::trickle_input(text, chunk);
            let reader = JsonReader::new(input, options.clone());
            all.push((format!("{chunk}-byte reads"), errors(reader, skip)));
        }
        for (how, errors) in all {
            for err in errors {
                assert_eq!(
                    (err.code(), err.span()),
                    expected,
                    "{:?} {how}, skip {skip}: {err}",
                    String::from_utf8_lossy(text)
                );
            }
        }
    }
}

#[test]
fn a_string_that_is_not_utf8_stops_the_reader() {
    // Borrowed strings are checked when read or skipped, escaped ones when lexed: either
    // way the reader stops there, rather than read on after the bad string.
    assert_final_error(b"[\"\xff\", 1]", &strict(), codes::INVALID_UTF8, (2, 3));
    assert_final_error(b"[\"a\\n\xff\", 1]", &strict(), codes::INVALID_UTF8, (5, 6));
    assert_final_error(b"{\"\xfe\": 1}", &strict(), codes::INVALID_UTF8, (2, 3));
    assert_final_error(
        b"{\"a\": \"x\xc3\"}",
        &strict(),
        codes::INVALID_UTF8,
        (8, 9),
    );
    let last_wins = relaxed_last_wins();
    assert_final_error(b"{\"\xfe\": 1}", &last_wins, codes::INVALID_UTF8, (2, 3));
}

#[test]
fn a_lone_surrogate_or_an_invalid_escape_stops_the_reader() {
    assert_final_error(
        b"[\"\\ud800\", 1]",
        &strict(),
        codes::LONE_SURROGATE,
        (2, 8),
    );
    assert_final_error(
        b"[\"\\udc00x\", 1]",
        &strict(),
        codes::LONE_SURROGATE,
        (2, 8),
    );
    assert_final_error(b"[\"\\q\", 1]", &strict(), codes::INVALID_ESCAPE, (2, 4));
    assert_final_error(
        b"{\"\\u12G4\": 1}",
        &strict(),
        codes::INVALID_ESCAPE,
        (2, 7),
    );
}

#[test]
fn a_control_character_in_a_string_stops_the_reader() {
    assert_final_error(
        b"[\"a\x01\", 1]",
        &strict(),
        codes::CONTROL_CHARACTER,
        (3, 4),
    );
    assert_final_error(
        b"{\"a\tb\": 1}",
        &strict(),
        codes::CONTROL_CHARACTER,
        (3, 4),
    );
}

#[test]
fn a_duplicate_key_stops_the_reader() {
    // It used to stay pending: a peek answered `Name`, a number read said the entry was
    // wrong, and only a key read or a skip reported the duplicate again.
    let text = br#"{"a": 1, "a": 2, "b": 3}"#;
    assert_final_error(text, &strict(), codes::DUPLICATE_KEY, (9, 12));
    let escaped = br#"{"a": 1, "\u0061": 2}"#;
    assert_final_error(escaped, &strict(), codes::DUPLICATE_KEY, (9, 17));
}

#[test]
fn nesting_beyond_max_depth_stops_the_reader() {
    let options = JsonOptions {
        max_depth: 2,
        ..strict()
    };
    assert_final_error(b"[[[1]], 2]", &options, codes::DEPTH_EXCEEDED, (2, 3));
}

#[test]
fn a_read_of_the_wrong_type_leaves_the_token_for_another_read() {
    for chunk in 0..=9 {
        let text = br#"{"a": "x", "b": [true]}"#;
        let mut slice;
        let mut streamed;
        let reader: &mut dyn Reader = if chunk == 0 {
            slice = JsonReader::from_slice(text);
            &mut slice
        } else {
            streamed = JsonReader::new(common::trickle_input(text, chunk), strict());
            &mut streamed
        };
        let how = format!("{chunk}-byte reads (0: slice)");
        reader.read_map_root().unwrap();
        let err = reader.read_u8().expect_err(&how);
        assert_eq!(
            (err.code(), err.span()),
            (core_codes::UNEXPECTED_ENTRY, Some(Span::new(1, 4))),
            "{how}"
        );
        assert_eq!(reader.read_name().unwrap(), "a", "{how}");
        let err = reader.read_bool().expect_err(&how);
        assert_eq!(
            (err.code(), err.span()),
            (core_codes::UNEXPECTED_ENTRY, Some(Span::new(6, 9))),
            "{how}"
        );
        assert_eq!(reader.peek().unwrap(), Entry::String, "{how}");
        assert_eq!(reader.read_str().unwrap(), "x", "{how}");
        assert_eq!(reader.read_name().unwrap(), "b", "{how}");
        let err = reader.read_map_end().expect_err(&how);
        assert_eq!(err.code(), core_codes::UNEXPECTED_ENTRY, "{how}");
        reader.read_array_root().unwrap();
        assert!(reader.read_bool().unwrap(), "{how}");
        reader.read_array_end().unwrap();
        reader.read_map_end().unwrap();
        assert_eq!(reader.peek().unwrap(), Entry::Ended, "{how}");
    }
}

#[test]
fn a_number_that_does_not_convert_stays_for_another_read() {
    // 300 as a u8, 1.5 as an integer, -1 as unsigned, a JSON5 hexadecimal beyond 64 bits:
    // the error has the number's span and path, `span()` gives the number's span, and the
    // number is read again another way. It used to be consumed by the failed read.
    let text = "[300, 1.5, -1, 0x10000000000000000]";
    for chunk in 0..=9 {
        let mut slice;
        let mut streamed;
        let reader: &mut dyn Reader = if chunk == 0 {
            slice = JsonReader::from_str(text).with_options(JsonOptions::json5());
            &mut slice
        } else {
            let input = common::trickle_input(text.as_bytes(), chunk);
            streamed = JsonReader::new(input, JsonOptions::json5());
            &mut streamed
        };
        let how = format!("{chunk}-byte reads (0: slice)");
        reader.read_array_root().unwrap();
        let cases: [(NumberRead, ErrorCode, (usize, usize)); 4] = [
            (
                |r| r.read_u8().map(drop),
                core_codes::NUMBER_OUT_OF_RANGE,
                (1, 4),
            ),
            (
                |r| r.read_i64().map(drop),
                core_codes::NUMBER_NOT_INTEGER,
                (6, 9),
            ),
            (
                |r| r.read_u32().map(drop),
                core_codes::NUMBER_OUT_OF_RANGE,
                (11, 13),
            ),
            (
                |r| r.read_u64().map(drop),
                core_codes::NUMBER_OUT_OF_RANGE,
                (15, 34),
            ),
        ];
        for (index, (read, code, span)) in cases.into_iter().enumerate() {
            let err = read(reader).expect_err(&how);
            let span = Span::new(span.0, span.1);
            assert_eq!((err.code(), err.span()), (code, Some(span)), "{how}");
            assert_eq!(
                err.path().unwrap().to_string(),
                format!("$[{index}]"),
                "{how}"
            );
            assert_eq!(reader.span(), span, "{how}");
            // Twice: nothing moved.
            assert_eq!(read(reader).unwrap_err().code(), code, "{how}");
            assert!(matches!(reader.peek().unwrap(), Entry::Number(_)), "{how}");
            reader.skip().unwrap();
        }
        reader.read_array_end().unwrap();
        // Each number is read again another way, in turn: no failed read consumed one.
        let mut reader = JsonReader::from_str(text).with_options(JsonOptions::json5());
        reader.read_array_root().unwrap();
        let failed = |err: sluice_core::Error| (err.code(), err.span());
        let span = |start, end| Some(Span::new(start, end));
        let out_of_range = core_codes::NUMBER_OUT_OF_RANGE;
        assert_eq!(
            failed(reader.read_u8().unwrap_err()),
            (out_of_range, span(1, 4))
        );
        assert_eq!(reader.read_u16().unwrap(), 300);
        assert_eq!(
            failed(reader.read_i64().unwrap_err()),
            (core_codes::NUMBER_NOT_INTEGER, span(6, 9))
        );
        assert_eq!(reader.read_f64().unwrap(), 1.5);
        assert_eq!(
            failed(reader.read_u32().unwrap_err()),
            (out_of_range, span(11, 13))
        );
        assert_eq!(reader.read_i8().unwrap(), -1);
        assert_eq!(
            failed(reader.read_u64().unwrap_err()),
            (out_of_range, span(15, 34))
        );
        assert_eq!(reader.read_u128().unwrap(), 1u128 << 64);
        reader.read_array_end().unwrap();
        reader.finish().unwrap();
    }
}

#[test]
fn an_io_error_stops_the_reader() {
    // A source that fails once after its first bytes, then would go on: the reader repeats
    // the error (its code, span and I/O kind) and does not read the source again.
    struct FailsOnce<'a> {
        bytes: &'a [u8],
        failed: bool,
        reads_after: usize,
    }
    impl std::io::Read for FailsOnce<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.failed {
                self.reads_after += 1;
            } else if self.bytes.len() < 8 {
                self.failed = true;
                return Err(std::io::Error::other("the disk went away"));
            }
            let n = buf.len().min(self.bytes.len()).min(3);
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }
    let text = br#"[1, 2, "three", 4]"#;
    let source = FailsOnce {
        bytes: text,
        failed: false,
        reads_after: 0,
    };
    let mut reader = JsonReader::new(IoInput::with_window(source, 8), strict());
    let first = loop {
        match reader
            .peek()
            .and_then(|entry| Token::read(&mut reader, entry))
        {
            Ok(_) => {}
            Err(err) => break err,
        }
    };
    assert_eq!(first.code(), core_codes::IO);
    let again = [
        reader.peek().unwrap_err(),
        reader.read_u8().unwrap_err(),
        reader.skip().unwrap_err(),
        reader.finish().unwrap_err(),
    ];
    for err in again {
        assert_eq!((err.code(), err.span()), (first.code(), first.span()));
        let kind = std::error::Error::source(&err)
            .and_then(|source| source.downcast_ref::<std::io::Error>())
            .map(std::io::Error::kind);
        assert_eq!(kind, Some(std::io::ErrorKind::Other));
    }
    assert_eq!(reader.into_input().into_inner().reads_after, 0);
}

/// Runs `check` on a reader of `text` from the slice and through `io::Read` in reads of 1
/// to 9 bytes, with a label for messages.
fn on_every_path(text: &[u8], check: impl Fn(&mut dyn Reader, &str)) {
    for chunk in 0..=9 {
        let how = format!("{chunk}-byte reads (0: slice)");
        if chunk == 0 {
            check(&mut JsonReader::from_slice(text), &how);
        } else {
            check(
                &mut JsonReader::new(common::trickle_input(text, chunk), strict()),
                &how,
            );
        }
    }
}

#[test]
fn skip_at_a_container_end_is_refused_over_that_end_which_stays() {
    // As a read of the wrong kind: the error and `span()` cover the end token, and it is
    // read next. The error used to have an empty span before the token, and `span()`
    // stayed on the value before it.
    on_every_path(br#"[1, {"k": 2}] "#, |reader, how| {
        reader.read_array_root().unwrap();
        reader.read_u8().unwrap();
        reader.read_map_root().unwrap();
        reader.read_name().unwrap();
        reader.read_u8().unwrap();
        let wrong_read = reader.read_array_end().unwrap_err();
        let err = reader.skip().expect_err(how);
        assert_eq!(
            (err.code(), err.span()),
            (core_codes::UNEXPECTED_ENTRY, Some(Span::new(11, 12))),
            "{how}"
        );
        assert_eq!(err.path(), wrong_read.path(), "{how}");
        assert_eq!(reader.span(), Span::new(11, 12), "{how}");
        reader.read_map_end().unwrap();
        let err = reader.skip().expect_err(how);
        assert_eq!(err.span(), Some(Span::new(12, 13)), "{how}");
        assert_eq!(reader.span(), Span::new(12, 13), "{how}");
        reader.read_array_end().unwrap();
        // At the end: an empty span there.
        let err = reader.skip().expect_err(how);
        assert_eq!(
            (err.code(), err.span()),
            (core_codes::UNEXPECTED_ENTRY, Some(Span::at(14))),
            "{how}"
        );
        assert_eq!(reader.span(), Span::at(14), "{how}");
        assert_eq!(reader.peek().unwrap(), Entry::Ended, "{how}");
    });
}

#[test]
fn finish_with_a_token_left_unread_gives_its_span_as_a_refused_read_does() {
    fn check<S: sluice_json::Input>(mut reader: JsonReader<S>, how: &str) {
        reader.read_array_root().unwrap();
        let err = reader.finish().expect_err(how);
        assert_eq!(
            (err.code(), err.span()),
            (codes::TRAILING_TOKEN, Some(Span::new(2, 3))),
            "{how}"
        );
        // It used to stay on the `[` read before.
        assert_eq!(reader.span(), Span::new(2, 3), "{how}");
        assert_eq!(reader.read_u8().unwrap(), 1, "{how}");
    }
    let text = b" [1, 2]";
    check(JsonReader::from_slice(text), "slice");
    for chunk in 1..=9 {
        let input = common::trickle_input(text, chunk);
        check(
            JsonReader::new(input, strict()),
            &format!("{chunk}-byte reads"),
        );
    }
}

/// Every read of the `Reader` trait for a kind of token JSON never produces (typed as the
/// number reads are: a read on a `dyn Reader`, its value dropped).
const READS_JSON_NEVER_ANSWERS: [(&str, NumberRead); 9] = [
    ("read_blob", |r| r.read_blob().map(drop)),
    ("read_ext", |r| r.read_ext().map(drop)),
    ("read_set_root", |r| r.read_set_root().map(drop)),
    ("read_set_end", |r| r.read_set_end()),
    ("read_struct_root", |r| r.read_struct_root().map(drop)),
    ("read_struct_end", |r| r.read_struct_end()),
    ("read_option_root", |r| r.read_option_root()),
    ("read_option_end", |r| r.read_option_end()),
    ("read_enum", |r| r.read_enum().map(drop)),
];

#[test]
fn reads_of_kinds_json_never_has_are_unsupported_over_the_next_token_which_stays() {
    // The error used to carry the span of the token read before (`1`) and no path, and
    // a failed reader answered them with `Unsupported` instead of its error.
    on_every_path(br#"[1, "s"]"#, |reader, how| {
        reader.read_array_root().unwrap();
        reader.read_u8().unwrap();
        for (name, read) in READS_JSON_NEVER_ANSWERS {
            let err = read(reader).expect_err(name);
            assert_eq!(
                (err.code(), err.span()),
                (core_codes::UNSUPPORTED, Some(Span::new(4, 7))),
                "{name}, {how}"
            );
            assert_eq!(
                err.path().map(ToString::to_string).as_deref(),
                Some("$[1]"),
                "{name}, {how}"
            );
            assert_eq!(reader.span(), Span::new(4, 7), "{name}, {how}");
        }
        assert_eq!(reader.read_str().unwrap(), "s", "{how}");
    });
    on_every_path(b"[1 2]", |reader, how| {
        let first = Token::read_all(reader).unwrap_err();
        assert_eq!(first.code(), codes::EXPECT_COMMA, "{how}");
        for (name, read) in READS_JSON_NEVER_ANSWERS {
            let err = read(reader).expect_err(name);
            assert_eq!(
                (err.code(), err.span()),
                (first.code(), first.span()),
                "{name}, {how}"
            );
        }
    });
}

#[test]
fn pipe_value_and_token_read_at_an_end_name_that_end_and_its_path() {
    // The generic copies learn the end token's span and path from the reader: they used to
    // give the span of the token read before it, and no path.
    on_every_path(br#"{"a": [1]} "#, |reader, how| {
        reader.read_map_root().unwrap();
        reader.read_name().unwrap();
        reader.read_array_root().unwrap();
        reader.read_u8().unwrap();
        let err =
            sluice_core::pipe_value(reader, &mut sluice_core::NoopWriter::new()).expect_err(how);
        assert_eq!(
            (err.code(), err.span()),
            (core_codes::UNEXPECTED_ENTRY, Some(Span::new(8, 9))),
            "{how}"
        );
        assert_eq!(err.path().unwrap().to_string(), "$.a[1]", "{how}");
        reader.read_array_end().unwrap();
        reader.read_map_end().unwrap();
        let err = Token::read(reader, Entry::Ended).expect_err(how);
        assert_eq!(
            (err.code(), err.span()),
            (core_codes::UNEXPECTED_ENTRY, Some(Span::at(11))),
            "{how}"
        );
        assert_eq!(err.path().unwrap().to_string(), "$", "{how}");
        assert_eq!(reader.peek().unwrap(), Entry::Ended, "{how}");
    });
}

#[test]
fn a_readers_debug_output_says_where_it_stands_without_the_input() {
    // It printed every byte of the input as a number: megabytes for a large document.
    let text = format!("[{}1, 2 3]", "0, ".repeat(100_000));
    let mut reader = JsonReader::from_str(&text);
    reader.read_array_root().unwrap();
    reader.read_u8().unwrap();
    let shown = format!("{reader:?}");
    assert!(shown.len() < 1000, "{} bytes", shown.len());
    assert!(
        shown.contains("$[1]") && shown.contains("offset: 2"),
        "{shown}"
    );
    let err = Token::read_all(&mut reader).unwrap_err();
    // The missing comma between `2` and `3`.
    let at = text.find(" 3").unwrap();
    assert_eq!(
        (err.code(), err.span()),
        (codes::EXPECT_COMMA, Some(Span::new(at + 1, at + 2)))
    );
    assert!(format!("{reader:?}").contains("json/ExpectComma"));
    // Over a stream that is not `Debug` itself.
    struct Opaque<'a>(&'a [u8]);
    impl std::io::Read for Opaque<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            std::io::Read::read(&mut self.0, buf)
        }
    }
    let mut reader = JsonReader::from_read(Opaque(text.as_bytes()));
    reader.read_array_root().unwrap();
    let shown = format!("{reader:?}");
    assert!(shown.len() < 1000, "{} bytes", shown.len());
}
