//! The claims of the JSON chapter of the book (`docs/src/json.md`) and of the crate's API
//! docs, each checked by running it: one test per claim or per short list of examples the
//! chapter gives, named after the claim. When the chapter changes, the test changes with it.

use sluice_core::{
    Entry, Error, ErrorCode, Number, Reader, Span, Token, Writer, codes as core_codes, pipe,
};
use sluice_json::{
    DuplicateKeys, IO_WINDOW, IoInput, JsonOptions, JsonReader, JsonWriter, NdjsonReader,
    NdjsonWriter, WriterOptions, codes,
};

/// Reads every token of `text` with `options`, then `finish()`.
fn read(text: &str, options: &JsonOptions) -> sluice_core::Result<Vec<Token>> {
    let mut reader = JsonReader::from_str(text).with_options(options.clone());
    let tokens = Token::read_all(&mut reader)?;
    reader.finish()?;
    Ok(tokens)
}

/// The error reading `text` with `options` gives.
fn error(text: &str, options: &JsonOptions) -> Error {
    match read(text, options) {
        Ok(tokens) => panic!("{text:?} was accepted: {tokens:?}"),
        Err(err) => err,
    }
}

fn span(err: &Error) -> (usize, usize) {
    let span = err.span().expect("the error has a span");
    (span.start, span.end)
}

fn json5() -> JsonOptions {
    JsonOptions::json5()
}

fn strict() -> JsonOptions {
    JsonOptions::strict()
}

fn num(number: Number<'_>) -> Token {
    Token::Number(number.to_owned_number())
}

/// Writes `tokens` with `options`.
fn write(tokens: &[Token], options: WriterOptions) -> sluice_core::Result<String> {
    let mut writer = JsonWriter::new(Vec::new(), options);
    Token::write_all(tokens, &mut writer)?;
    writer.into_string()
}

// ----- Reading ------------------------------------------------------------------------------

#[test]
fn the_io_window_is_64_kib_and_grows_only_for_a_single_larger_token() {
    assert_eq!(IO_WINDOW, 64 * 1024);
    // Many short tokens, more than a window's worth: the window moves, it never grows.
    let items: String = (0..30_000).map(|i| format!("{i},")).collect();
    let doc = format!("[{items}0]");
    let mut reader = JsonReader::from_read(doc.as_bytes());
    Token::read_all(&mut reader).unwrap();
    reader.finish().unwrap();
    assert_eq!(reader.into_input().capacity(), IO_WINDOW);
    // One string of 100 KB: the window doubles once to hold it.
    let doc = format!("[1, \"{}\", 2]", "x".repeat(100_000));
    let mut reader = JsonReader::from_read(doc.as_bytes());
    Token::read_all(&mut reader).unwrap();
    assert_eq!(reader.into_input().capacity(), 2 * IO_WINDOW);
}

#[test]
fn the_window_stays_within_twice_the_longest_token_and_ignores_long_whitespace() {
    let capacity = |doc: &str, options: JsonOptions| {
        let mut reader = JsonReader::from_read(doc.as_bytes()).with_options(options);
        Token::read_all(&mut reader).unwrap();
        reader.finish().unwrap();
        reader.into_input().capacity()
    };
    // A 300 KB string doubles the window to 512 KiB: more than window plus token, less
    // than twice the token.
    let token = 300_000;
    let grown = capacity(&format!("[\"{}\"]", "x".repeat(token)), strict());
    assert_eq!(grown, 8 * IO_WINDOW);
    assert!(grown > IO_WINDOW + token && grown < 2 * token);
    // A key and its value, each as long: the key is not held while the value is read.
    let long = "x".repeat(token);
    let member = format!("{{\"{long}\": \"{long}\"}}");
    assert_eq!(capacity(&member, strict()), 8 * IO_WINDOW);
    // The same for a number.
    let number = format!("[1{}]", "0".repeat(token));
    assert_eq!(capacity(&number, strict()), 8 * IO_WINDOW);
    // A megabyte of whitespace or of comment is stepped over through the window.
    let mb = 1 << 20;
    assert_eq!(
        capacity(&format!("[{}1]", " ".repeat(mb)), strict()),
        IO_WINDOW
    );
    let comment = format!("[/*{}*/1 // {}\n]", "x".repeat(mb), "y".repeat(mb));
    assert_eq!(capacity(&comment, JsonOptions::relaxed()), IO_WINDOW);
}

#[test]
fn a_stream_is_not_read_before_the_first_token_is_asked_for() {
    /// Counts the calls to `read`.
    struct Counted<'a> {
        bytes: &'a [u8],
        reads: std::rc::Rc<std::cell::Cell<usize>>,
    }
    impl std::io::Read for Counted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.reads.set(self.reads.get() + 1);
            self.bytes.read(buf)
        }
    }
    let reads = std::rc::Rc::default();
    let source = Counted {
        bytes: b"[1]",
        reads: std::rc::Rc::clone(&reads),
    };
    let mut reader = JsonReader::from_read(source);
    assert_eq!(reads.get(), 0);
    assert_eq!(reader.peek().unwrap(), Entry::ArrayRoot);
    assert!(reads.get() > 0);
}

#[test]
fn a_large_object_read_with_duplicate_keys_checked_keeps_the_window_bounded() {
    // The keys of the open object are kept for the duplicate check (in memory of their
    // own), not by holding the window.
    let members: Vec<String> = (0..20_000).map(|i| format!("\"key{i}\": {i}")).collect();
    let doc = format!("{{{}}}", members.join(", "));
    assert!(doc.len() > 4 * IO_WINDOW);
    let mut reader = JsonReader::from_read(doc.as_bytes());
    assert_eq!(Token::read_all(&mut reader).unwrap().len(), 40_002);
    assert_eq!(reader.into_input().capacity(), IO_WINDOW);
}

#[test]
fn the_tokens_and_errors_are_the_same_for_every_window_size() {
    let docs = [
        r#"{"name": "sluice", "sizes": [1, 2.5, -3e4], "s": "é\u00e9\n"}"#,
        r#"{"a": [1, 2 3]}"#,
        r#"{"a": "\x"}"#,
        "[1, 2",
    ];
    for doc in docs {
        let expected = read(doc, &strict()).map_err(|e| (e.code(), e.span()));
        for window in 1..12 {
            let input = IoInput::with_window(doc.as_bytes(), window);
            let mut reader = JsonReader::new(input, strict());
            let got = Token::read_all(&mut reader)
                .and_then(|tokens| reader.finish().map(|()| tokens))
                .map_err(|e| (e.code(), e.span()));
            assert_eq!(got, expected, "{doc} through a window of {window}");
        }
    }
}

#[test]
fn a_slice_is_checked_for_utf8_inside_strings_and_text_needs_no_check() {
    let mut reader = JsonReader::from_slice(b"[\"a\xffb\"]");
    reader.read_array_root().unwrap();
    assert_eq!(reader.read_str().unwrap_err().code(), codes::INVALID_UTF8);
    let mut reader = JsonReader::from_str("[\"é\"]");
    reader.read_array_root().unwrap();
    assert_eq!(reader.read_str().unwrap(), "é");
}

// ----- Numbers are lazy ---------------------------------------------------------------------

#[test]
fn numbers_are_parsed_to_the_type_asked_for_exactly_and_range_checked() {
    assert_eq!(
        JsonReader::from_str("300").read_u8().unwrap_err().code(),
        core_codes::NUMBER_OUT_OF_RANGE
    );
    assert_eq!(
        JsonReader::from_str("1.5").read_i64().unwrap_err().code(),
        core_codes::NUMBER_NOT_INTEGER
    );
    // Float text read as an integer goes by its digits, not through an f64.
    assert_eq!(
        JsonReader::from_str("1e18").read_i64().unwrap(),
        1_000_000_000_000_000_000
    );
    assert_eq!(
        JsonReader::from_str("1.00000000000000001")
            .read_i64()
            .unwrap_err()
            .code(),
        core_codes::NUMBER_NOT_INTEGER
    );
    // `read_number` hands out the text itself.
    let mut reader = JsonReader::from_str("1.50000000000000000000001");
    assert_eq!(
        reader.read_number().unwrap().as_text(),
        Some("1.50000000000000000000001")
    );
}

#[test]
fn json5_number_spellings_reach_the_caller_typed_or_as_json_number_text() {
    // The number each spelling reads as, as `Number`'s debug form.
    let first = |text: &str| -> String {
        let mut reader = JsonReader::from_str(text).with_options(json5());
        format!("{:?}", reader.read_number().unwrap())
    };
    assert_eq!(first("0x1F"), "U64(31)");
    assert_eq!(first("-0x1F"), "I64(-31)");
    assert_eq!(first("-0x0"), "F64(-0.0)");
    assert_eq!(
        first("0x10000000000000000"),
        r#"Text("18446744073709551616", Integer)"#
    );
    let mut reader = JsonReader::from_str("0x10000000000000000").with_options(json5());
    assert_eq!(reader.read_u128().unwrap(), 1 << 64);
    // Wider than 128 bits: out of range, over the literal.
    let wide = format!("[0x1{}]", "0".repeat(32));
    let err = error(&wide, &json5());
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(span(&err), (1, wide.len() - 1));
    assert_eq!(first("Infinity"), "F64(inf)");
    assert_eq!(first("-Infinity"), "F64(-inf)");
    assert_eq!(first("NaN"), "F64(NaN)");
    let mut reader = JsonReader::from_str("-NaN").with_options(json5());
    assert!(reader.read_f64().unwrap().is_sign_negative());
    assert_eq!(first("+1"), r#"Text("1", Integer)"#);
    assert_eq!(first(".5"), r#"Text("0.5", Float)"#);
    assert_eq!(first("5."), r#"Text("5.0", Float)"#);
}

// ----- Options ------------------------------------------------------------------------------

#[test]
fn the_presets_are_what_the_options_table_says() {
    type Row = (
        bool,
        bool,
        bool,
        bool,
        bool,
        bool,
        bool,
        bool,
        bool,
        bool,
        usize,
        DuplicateKeys,
    );
    let row = |o: JsonOptions| -> Row {
        (
            o.comments,
            o.trailing_commas,
            o.multiple_values,
            o.scalar_root,
            o.unquoted_keys,
            o.single_quotes,
            o.json5_numbers,
            o.json5_escapes,
            o.json5_whitespace,
            o.json5_control_characters,
            o.max_depth,
            o.duplicate_keys,
        )
    };
    let (f, t, e) = (false, true, DuplicateKeys::Error);
    assert_eq!(JsonOptions::default(), JsonOptions::strict());
    assert_eq!(
        row(JsonOptions::strict()),
        (f, f, f, t, f, f, f, f, f, f, 128, e)
    );
    assert_eq!(
        row(JsonOptions::relaxed()),
        (t, t, f, t, f, f, f, f, f, f, 128, e)
    );
    assert_eq!(
        row(JsonOptions::ndjson()),
        (f, f, t, t, f, f, f, f, f, f, 128, e)
    );
    assert_eq!(
        row(JsonOptions::json5()),
        (t, t, f, t, t, t, t, t, t, t, 128, e)
    );
    assert_eq!(DuplicateKeys::default(), DuplicateKeys::Error);
}

#[test]
fn several_root_values_need_whitespace_only_where_they_would_run_together() {
    let several = JsonOptions::ndjson();
    assert_eq!(read("[1][2]", &several).unwrap().len(), 6);
    assert_eq!(
        read(r#""a""b""#, &several).unwrap(),
        [Token::String("a".into()), Token::String("b".into())]
    );
    assert_eq!(read("1 2", &several).unwrap().len(), 2);
    // Without the space `12` is one number.
    assert_eq!(read("12", &several).unwrap().len(), 1);
    assert_eq!(error("[1][2]", &strict()).code(), codes::TRAILING_TOKEN);
}

#[test]
fn each_json5_row_of_the_options_table_allows_its_examples_with_its_switch_alone() {
    // The examples of each JSON5 row: read with that switch alone, refused by strict JSON.
    let only = |set: fn(&mut JsonOptions)| {
        let mut options = strict();
        set(&mut options);
        options
    };
    // Each example with the error strict JSON gives, at the first byte it has no place for.
    type Refused = (&'static str, ErrorCode, (usize, usize));
    let rows: [(JsonOptions, &[Refused]); 6] = [
        (
            only(|o| o.unquoted_keys = true),
            &[
                ("{name: 1}", codes::EXPECT_KEY, (1, 5)),
                // The word an error shows holds its letters outside ASCII.
                ("{café: 1}", codes::EXPECT_KEY, (1, 6)),
                (r"{\u0061: 1}", codes::EXPECT_KEY, (1, 2)),
            ],
        ),
        (
            only(|o| o.single_quotes = true),
            &[
                ("'strings'", codes::UNEXPECTED_TOKEN, (0, 1)),
                ("{'keys': 1}", codes::EXPECT_KEY, (1, 2)),
            ],
        ),
        (
            only(|o| o.json5_numbers = true),
            &[
                ("0x1F", codes::INVALID_NUMBER, (0, 4)),
                ("+1", codes::UNEXPECTED_TOKEN, (0, 2)),
                (".5", codes::UNEXPECTED_TOKEN, (0, 2)),
                ("5.", codes::INVALID_NUMBER, (0, 2)),
                ("Infinity", codes::UNEXPECTED_TOKEN, (0, 8)),
                ("NaN", codes::UNEXPECTED_TOKEN, (0, 3)),
                ("-0x10", codes::INVALID_NUMBER, (0, 5)),
                ("+Infinity", codes::UNEXPECTED_TOKEN, (0, 9)),
                ("-NaN", codes::INVALID_NUMBER, (0, 4)),
            ],
        ),
        (
            only(|o| o.json5_escapes = true),
            &[
                ("\"a\\\nb\"", codes::INVALID_ESCAPE, (2, 4)),
                ("\"a\\\rb\"", codes::INVALID_ESCAPE, (2, 4)),
                ("\"a\\\r\nb\"", codes::INVALID_ESCAPE, (2, 4)),
                ("\"a\\\u{2028}b\"", codes::INVALID_ESCAPE, (2, 6)),
                ("\"a\\\u{2029}b\"", codes::INVALID_ESCAPE, (2, 6)),
                (r#""\'""#, codes::INVALID_ESCAPE, (1, 3)),
                (r#""\v""#, codes::INVALID_ESCAPE, (1, 3)),
                (r#""\0""#, codes::INVALID_ESCAPE, (1, 3)),
                (r#""\x41""#, codes::INVALID_ESCAPE, (1, 3)),
                (r#""\q""#, codes::INVALID_ESCAPE, (1, 3)),
                ("\"\\\u{1}\"", codes::INVALID_ESCAPE, (1, 3)),
            ],
        ),
        (
            only(|o| o.json5_whitespace = true),
            &[
                ("\u{b}1", codes::UNEXPECTED_TOKEN, (0, 1)),
                ("\u{c}1", codes::UNEXPECTED_TOKEN, (0, 1)),
                ("\u{a0}1", codes::UNEXPECTED_TOKEN, (0, 2)),
                ("1\u{feff}", codes::TRAILING_TOKEN, (1, 4)),
                ("\u{2028}1", codes::UNEXPECTED_TOKEN, (0, 3)),
                ("\u{2029}1", codes::UNEXPECTED_TOKEN, (0, 3)),
                ("\u{1680}1", codes::UNEXPECTED_TOKEN, (0, 3)),
                ("\u{2000}1", codes::UNEXPECTED_TOKEN, (0, 3)),
                ("\u{200a}1", codes::UNEXPECTED_TOKEN, (0, 3)),
                ("\u{202f}1", codes::UNEXPECTED_TOKEN, (0, 3)),
                ("\u{205f}1", codes::UNEXPECTED_TOKEN, (0, 3)),
                ("\u{3000}1", codes::UNEXPECTED_TOKEN, (0, 3)),
            ],
        ),
        (
            only(|o| o.json5_control_characters = true),
            &[
                ("\"a\tb\"", codes::CONTROL_CHARACTER, (2, 3)),
                ("\"\u{0}\u{1f}\"", codes::CONTROL_CHARACTER, (1, 2)),
            ],
        ),
    ];
    for (options, examples) in rows {
        for &(text, code, at) in examples {
            assert!(read(text, &options).is_ok(), "{text:?} with {options:?}");
            let err = error(text, &strict());
            assert_eq!(
                (err.code(), span(&err)),
                (code, at),
                "{text:?} in strict JSON"
            );
        }
    }
    // What the rows leave out: `\'` takes `json5_escapes` besides `single_quotes`; `\0`
    // before a digit and the digits 1 to 9 are no escapes; a raw line feed or carriage
    // return stays refused.
    let quotes = only(|o| o.single_quotes = true);
    let err = error(r"'it\'s'", &quotes);
    assert_eq!((err.code(), span(&err)), (codes::INVALID_ESCAPE, (3, 5)));
    let both = JsonOptions {
        json5_escapes: true,
        ..quotes
    };
    assert_eq!(
        read(r"'it\'s'", &both).unwrap(),
        [Token::String("it's".into())]
    );
    let escapes = only(|o| o.json5_escapes = true);
    for digit in ['1', '2', '3', '4', '5', '6', '7', '8', '9'] {
        let text = format!("\"\\{digit}\"");
        let err = error(&text, &escapes);
        assert_eq!(
            (err.code(), span(&err)),
            (codes::INVALID_ESCAPE, (1, 3)),
            "{text}"
        );
    }
    let err = error(r#""\01""#, &escapes);
    assert_eq!((err.code(), span(&err)), (codes::INVALID_ESCAPE, (1, 3)));
    let control = only(|o| o.json5_control_characters = true);
    for text in ["\"a\nb\"", "\"a\rb\""] {
        let err = error(text, &control);
        assert_eq!(
            (err.code(), span(&err)),
            (codes::CONTROL_CHARACTER, (2, 3)),
            "{text:?}"
        );
    }
}

#[test]
fn json5_identifier_keys_follow_the_chapters_examples() {
    let keys = |text: &str| -> Vec<String> {
        read(text, &json5())
            .unwrap()
            .into_iter()
            .filter_map(|token| match token {
                Token::Name(key) => Some(key),
                _ => None,
            })
            .collect()
    };
    assert_eq!(keys("{name: 1}"), ["name"]);
    assert_eq!(keys("{café: 1}"), ["café"]);
    assert_eq!(keys(r"{\u0061: 1}"), ["a"]);
    assert_eq!(keys("{e\u{301}: 1}"), ["e\u{301}"]);
    assert_eq!(keys("{\u{e33}: 1}"), ["\u{e33}"]);
    assert_eq!(keys(r"{\u0061b: 1}"), ["ab"]);
    for digit_first in ["{1a: 1}", "{\u{663}: 1}"] {
        assert_eq!(
            error(digit_first, &json5()).code(),
            codes::EXPECT_KEY,
            "{digit_first}"
        );
    }
    // The escaped key is the same key as the plain one.
    let err = error(r"{\u0061b: 1, ab: 2}", &json5());
    assert_eq!(err.code(), codes::DUPLICATE_KEY);
    assert_eq!(span(&err), (13, 15));
    // An escape that is not `\u`, or that a key cannot hold there: over the escape.
    let err = error(r"{a\x41: 1}", &json5());
    assert_eq!((err.code(), span(&err)), (codes::INVALID_ESCAPE, (2, 4)));
    let err = error(r"{\u0031: 1}", &json5());
    assert_eq!((err.code(), span(&err)), (codes::INVALID_ESCAPE, (1, 7)));
    // A character that cannot continue a key ends it.
    let err = error("{a-b: 1}", &json5());
    assert_eq!((err.code(), span(&err)), (codes::EXPECT_COLON, (2, 4)));
}

#[test]
fn the_depth_limit_stops_a_million_brackets_at_the_129th() {
    let text = "[".repeat(1_000_000);
    let err = error(&text, &strict());
    assert_eq!(
        (err.code(), span(&err)),
        (codes::DEPTH_EXCEEDED, (128, 129))
    );
    let deep = JsonOptions {
        max_depth: 1_000_000,
        ..strict()
    };
    let text = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
    assert_eq!(read(&text, &deep).unwrap().len(), 2_000_000);
}

#[test]
fn a_byte_order_mark_is_skipped_counted_by_spans_and_hidden_from_columns() {
    let text = "\u{feff}[1 2]";
    let err = error(text, &strict());
    assert_eq!(span(&err), (6, 7));
    let shown = err.with_source_text("bom.json", text).render();
    assert!(shown.contains("bom.json:1:4"), "{shown}");
}

#[test]
fn json5_whitespace_is_refused_by_strict_json() {
    let spaces = [
        '\u{b}', '\u{c}', '\u{a0}', '\u{feff}', '\u{2028}', '\u{2029}', '\u{1680}', '\u{2000}',
        '\u{200a}', '\u{202f}', '\u{205f}', '\u{3000}',
    ];
    for space in spaces {
        let before = format!("[{space}1]");
        assert_eq!(read(&before, &json5()).unwrap().len(), 3, "{space:?}");
        assert_eq!(
            error(&before, &strict()).code(),
            codes::UNEXPECTED_TOKEN,
            "{space:?}"
        );
        let after = format!("[1{space}]");
        assert_eq!(
            error(&after, &strict()).code(),
            codes::EXPECT_COMMA,
            "{space:?}"
        );
    }
    // A line comment ends at U+2028 with JSON5 whitespace, not with comments alone.
    let text = "[1 // note\u{2028}, 2]";
    assert_eq!(read(text, &json5()).unwrap().len(), 4);
    let comments = JsonOptions {
        comments: true,
        ..strict()
    };
    assert_eq!(error(text, &comments).code(), codes::UNEXPECTED_EOF);
}

// ----- Errors -------------------------------------------------------------------------------

#[test]
fn a_missing_comma_after_a_member_names_the_object_and_the_member_before() {
    let err = error(r#"{"width": 1 "height": 2}"#, &strict());
    assert_eq!(err.code(), codes::EXPECT_COMMA);
    assert_eq!(err.path().unwrap().to_string(), "$");
    assert!(
        err.notes().iter().any(|note| note.contains("$.width")),
        "{:?}",
        err.notes()
    );
}

#[test]
fn every_example_of_the_error_table_has_its_code_and_span() {
    let cases: &[(&str, JsonOptions, sluice_core::ErrorCode, (usize, usize))] = &[
        ("[1 2]", strict(), codes::EXPECT_COMMA, (3, 4)),
        (r#"{"a" 1}"#, strict(), codes::EXPECT_COLON, (5, 6)),
        ("{1: 2}", strict(), codes::EXPECT_KEY, (1, 2)),
        ("{,}", strict(), codes::EXPECT_KEY, (1, 2)),
        ("[tru]", strict(), codes::UNEXPECTED_TOKEN, (1, 4)),
        ("[1, ]", strict(), codes::UNEXPECTED_TOKEN, (4, 5)),
        ("@", strict(), codes::UNEXPECTED_TOKEN, (0, 1)),
        (r#"["abc"#, strict(), codes::UNCLOSED_STRING, (1, 5)),
        ("[1] /* note", json5(), codes::UNCLOSED_COMMENT, (4, 11)),
        (r#"["\x41"]"#, strict(), codes::INVALID_ESCAPE, (2, 4)),
        (r#"["\u12G4"]"#, strict(), codes::INVALID_ESCAPE, (2, 7)),
        ("[01]", strict(), codes::INVALID_NUMBER, (1, 3)),
        ("[1.]", strict(), codes::INVALID_NUMBER, (1, 3)),
        ("[-]", strict(), codes::INVALID_NUMBER, (1, 2)),
        ("[1e]", strict(), codes::INVALID_NUMBER, (1, 3)),
        ("[2.e3]", strict(), codes::INVALID_NUMBER, (1, 5)),
        ("[None]", json5(), codes::UNEXPECTED_TOKEN, (1, 5)),
        ("[0x]", json5(), codes::INVALID_NUMBER, (1, 3)),
        ("[.e3]", json5(), codes::INVALID_NUMBER, (1, 4)),
        ("[+-1]", json5(), codes::INVALID_NUMBER, (1, 4)),
        ("[Inf]", json5(), codes::INVALID_NUMBER, (1, 4)),
        ("[Infinityx]", json5(), codes::INVALID_NUMBER, (1, 10)),
        (
            r#"{"a": 1, "a": 2}"#,
            strict(),
            codes::DUPLICATE_KEY,
            (9, 12),
        ),
        ("[1] 2", strict(), codes::TRAILING_TOKEN, (4, 5)),
        ("[1, 2", strict(), codes::UNEXPECTED_EOF, (5, 5)),
        ("", strict(), codes::UNEXPECTED_EOF, (0, 0)),
        ("  ", strict(), codes::UNEXPECTED_EOF, (2, 2)),
        ("[\"\t\"]", strict(), codes::CONTROL_CHARACTER, (2, 3)),
        (r#"["\uD800"]"#, strict(), codes::LONE_SURROGATE, (2, 8)),
        (r#"["\uDC00"]"#, strict(), codes::LONE_SURROGATE, (2, 8)),
        (
            r#"["\uD800\u0041"]"#,
            strict(),
            codes::LONE_SURROGATE,
            (2, 8),
        ),
    ];
    for (text, options, code, at) in cases {
        let err = error(text, options);
        assert_eq!((err.code(), span(&err)), (*code, *at), "{text:?}");
    }
    let deep = JsonOptions {
        max_depth: 2,
        ..strict()
    };
    let err = error("[[[1]]]", &deep);
    assert_eq!((err.code(), span(&err)), (codes::DEPTH_EXCEEDED, (2, 3)));
    // Invalid UTF-8 inside a string and inside a comment.
    for bytes in [&b"[\"\xff\"]"[..], &b"[1] // \xff\n"[..]] {
        let mut reader = JsonReader::from_slice(bytes).with_options(JsonOptions::relaxed());
        let result = Token::read_all(&mut reader).and_then(|_| reader.finish());
        assert_eq!(result.unwrap_err().code(), codes::INVALID_UTF8);
    }
    // Scalar roots, JSON5's among them, with `scalar_root` off: over the whole value.
    let no_scalars = JsonOptions {
        scalar_root: false,
        ..json5()
    };
    for text in [
        "1", "\"x\"", "'x'", "+1", ".5", "Infinity", "NaN", "null", "true",
    ] {
        let err = error(text, &no_scalars);
        assert_eq!(
            (err.code(), span(&err)),
            (codes::SCALAR_ROOT, (0, text.len())),
            "{text}"
        );
    }
}

#[test]
fn finish_with_a_token_left_unread_reports_it_and_leaves_it_for_another_read() {
    let mut reader = JsonReader::from_str("[1, 2]");
    reader.read_array_root().unwrap();
    let err = reader.finish().unwrap_err();
    assert_eq!((err.code(), span(&err)), (codes::TRAILING_TOKEN, (1, 2)));
    // Not final: the token is still there, and so is the rest.
    assert_eq!(reader.read_u8().unwrap(), 1);
    assert_eq!(reader.read_u8().unwrap(), 2);
    reader.read_array_end().unwrap();
    reader.finish().unwrap();
}

#[test]
fn a_json5_hexadecimal_integer_wider_than_128_bits_stops_the_reader() {
    let text = format!("[0x1{}, 1]", "0".repeat(32));
    let literal = (1, 4 + 32);
    let mut reader = JsonReader::from_str(&text).with_options(json5());
    reader.read_array_root().unwrap();
    let err = reader.read_u128().unwrap_err();
    assert_eq!(
        (err.code(), span(&err)),
        (core_codes::NUMBER_OUT_OF_RANGE, literal)
    );
    // Refused by the lexer, so final: not a number left to read as another type.
    for again in [
        reader.peek().unwrap_err(),
        reader.read_f64().unwrap_err(),
        reader.read_number().map(|_| ()).unwrap_err(),
        reader.skip().unwrap_err(),
        reader.finish().unwrap_err(),
    ] {
        assert_eq!(
            (again.code(), span(&again)),
            (core_codes::NUMBER_OUT_OF_RANGE, literal)
        );
    }
}

// ----- Writing ------------------------------------------------------------------------------

#[test]
fn the_writer_presets_are_what_the_writer_options_table_says() {
    let condensed = WriterOptions::condensed();
    let pretty = WriterOptions::pretty();
    assert_eq!(WriterOptions::default(), condensed);
    for (options, is_pretty) in [(&condensed, false), (&pretty, true)] {
        assert_eq!(options.pretty, is_pretty);
        assert_eq!(options.indent, "  ");
        assert_eq!(options.newline, "\n");
        assert_eq!(options.space_after_colon, is_pretty);
        assert!(!options.nested_on_new_line);
        assert!(!options.final_newline);
        assert!(!options.multiple_values);
        assert!(!options.escape_non_ascii);
        assert_eq!(options.non_finite, sluice_json::NonFinite::Error);
        assert_eq!(options.blob, sluice_json::BlobMode::Error);
        assert_eq!(options.ext, sluice_json::ExtMode::Error);
    }
}

fn object_a_1() -> Vec<Token> {
    vec![
        Token::MapRoot(None),
        Token::String("a".into()),
        num(Number::U64(1)),
        Token::MapEnd,
    ]
}

#[test]
fn space_after_colon_applies_to_pretty_output_only() {
    let spaced_condensed = WriterOptions {
        space_after_colon: true,
        ..WriterOptions::condensed()
    };
    assert_eq!(
        write(&object_a_1(), spaced_condensed).unwrap(),
        r#"{"a":1}"#
    );
    let tight_pretty = WriterOptions {
        space_after_colon: false,
        ..WriterOptions::pretty()
    };
    assert_eq!(
        write(&object_a_1(), tight_pretty).unwrap(),
        "{\n  \"a\":1\n}"
    );
}

#[test]
fn newline_separates_root_values_and_ends_the_output_when_asked() {
    let tokens = [num(Number::U64(1)), num(Number::U64(2))];
    let options = WriterOptions {
        multiple_values: true,
        newline: "\r\n".into(),
        final_newline: true,
        ..WriterOptions::condensed()
    };
    assert_eq!(write(&tokens, options).unwrap(), "1\r\n2\r\n");
}

#[test]
fn options_that_would_write_invalid_json_fail_the_first_write() {
    for options in [
        WriterOptions {
            indent: "..".into(),
            ..WriterOptions::pretty()
        },
        WriterOptions {
            newline: "<br>".into(),
            ..WriterOptions::condensed()
        },
        WriterOptions {
            newline: String::new(),
            multiple_values: true,
            ..WriterOptions::condensed()
        },
    ] {
        assert_eq!(
            options.check().unwrap_err().code(),
            codes::INVALID_WRITER_OPTIONS
        );
        let mut writer = JsonWriter::new(Vec::new(), options);
        assert_eq!(
            writer.write_null().unwrap_err().code(),
            codes::INVALID_WRITER_OPTIONS
        );
    }
}

#[test]
fn floats_are_spelled_as_serde_json_spells_them() {
    let f64s = [
        1.0,
        0.1,
        1e16,
        1e15,
        5e-324,
        1e-7,
        0.000_001,
        123_456.789,
        -0.0,
        f64::MAX,
        f64::MIN_POSITIVE,
        1e21,
        1e22,
        2.5e-5,
    ];
    for value in f64s {
        let ours = write(&[num(Number::F64(value))], WriterOptions::condensed()).unwrap();
        assert_eq!(ours, serde_json::to_string(&value).unwrap(), "{value:e}");
        assert!(ours.contains(['.', 'e']), "{ours}");
    }
    for value in [1.1f32, 0.3, f32::MAX, 1e-45, 16_777_216.0, 1e10] {
        let ours = write(&[num(Number::F32(value))], WriterOptions::condensed()).unwrap();
        assert_eq!(ours, serde_json::to_string(&value).unwrap(), "{value:e}");
    }
    assert_eq!(
        write(&[num(Number::F32(1.1))], WriterOptions::condensed()).unwrap(),
        "1.1"
    );
}

#[test]
fn a_condensed_document_read_and_written_condensed_comes_back_byte_for_byte() {
    let text = r#"{"a":[1.0,-0,1E+2,0.10,123456789012345678901234567890],"b":"\u00e9\n","c":{}}"#;
    let mut writer = JsonWriter::for_string(WriterOptions::condensed());
    pipe(&mut JsonReader::from_str(text), &mut writer).unwrap();
    // Number text is kept; string escapes are written in the writer's own spelling.
    assert_eq!(
        writer.into_string().unwrap(),
        r#"{"a":[1.0,-0,1E+2,0.10,123456789012345678901234567890],"b":"é\n","c":{}}"#
    );
}

#[test]
fn a_container_as_a_key_is_an_error() {
    let mut writer = JsonWriter::condensed(Vec::new());
    writer.write_map_root(None).unwrap();
    for result in [writer.write_map_root(None), writer.write_array_root(None)] {
        assert_eq!(result.unwrap_err().code(), core_codes::INVALID_STRUCTURE);
    }
}

#[test]
fn only_u0000_to_u001f_quote_and_backslash_are_escaped() {
    // DEL and the C1 controls are not JSON control characters: written as they are.
    let text = "\u{7f}\u{80}\u{9f}/\u{2028}";
    assert_eq!(
        write(&[Token::String(text.into())], WriterOptions::condensed()).unwrap(),
        format!("\"{text}\"")
    );
    let ascii = WriterOptions {
        escape_non_ascii: true,
        ..WriterOptions::condensed()
    };
    assert_eq!(
        write(&[Token::String(text.into())], ascii).unwrap(),
        "\"\u{7f}\\u0080\\u009f/\\u2028\""
    );
}

#[test]
fn escape_non_ascii_escapes_keys_too() {
    let tokens = [
        Token::MapRoot(None),
        Token::String("clé".into()),
        Token::Bool(true),
        Token::MapEnd,
    ];
    let ascii = WriterOptions {
        escape_non_ascii: true,
        ..WriterOptions::condensed()
    };
    assert_eq!(write(&tokens, ascii).unwrap(), r#"{"cl\u00e9":true}"#);
}

#[test]
fn the_writer_errors_of_the_table_have_their_codes() {
    let mut writer = JsonWriter::condensed(Vec::new());
    assert_eq!(
        writer.write_f64(f64::NAN).unwrap_err().code(),
        codes::NON_FINITE_NUMBER
    );
    for text in ["0x10", ".5", "1.", "+1", "Infinity", ""] {
        let number = Number::Text(text, sluice_core::NumberHint::Float);
        assert_eq!(
            writer.write_number(number).unwrap_err().code(),
            codes::INVALID_NUMBER_TEXT,
            "{text:?}"
        );
    }
    writer.write_array_root(None).unwrap();
    assert_eq!(
        writer.write_name("k").unwrap_err().code(),
        core_codes::INVALID_STRUCTURE
    );
    assert_eq!(
        writer.write_blob(b"x").unwrap_err().code(),
        core_codes::UNSUPPORTED
    );
}

#[test]
fn keys_are_escaped_as_values_are() {
    let tokens = [
        Token::MapRoot(None),
        Token::Name("a\"\n\u{1}".into()),
        Token::Null,
        Token::MapEnd,
    ];
    assert_eq!(
        write(&tokens, WriterOptions::condensed()).unwrap(),
        r#"{"a\"\n\u0001":null}"#
    );
}

// ----- Keeping a value on one line ----------------------------------------------------------

#[test]
fn an_inline_object_has_a_space_after_its_colons_and_commas() {
    let mut writer = JsonWriter::pretty(Vec::new());
    writer.write_array_root(None).unwrap();
    writer.inline_next_value();
    Token::write_all(&object_a_1(), &mut writer).unwrap();
    writer.write_array_end().unwrap();
    assert_eq!(writer.into_string().unwrap(), "[\n  {\"a\": 1}\n]");
}

#[test]
fn an_inline_request_at_the_root_puts_the_whole_document_on_one_line() {
    let mut writer = JsonWriter::pretty(Vec::new());
    writer.inline_next_value();
    pipe(
        &mut JsonReader::from_str(r#"{"a": [1, {"b": []}], "c": 2}"#),
        &mut writer,
    )
    .unwrap();
    assert_eq!(
        writer.into_string().unwrap(),
        r#"{"a": [1, {"b": []}], "c": 2}"#
    );
}

#[test]
fn inline_requests_change_nothing_in_condensed_output() {
    let mut writer = JsonWriter::condensed(Vec::new());
    writer.set_inline(true);
    writer.inline_next_value();
    Token::write_all(&object_a_1(), &mut writer).unwrap();
    assert_eq!(writer.into_string().unwrap(), r#"{"a":1}"#);
}

// ----- NDJSON -------------------------------------------------------------------------------

#[test]
fn container_lengths_are_not_checked_by_the_json_writers() {
    let mut writer = JsonWriter::condensed(Vec::new());
    writer.write_array_root(Some(3)).unwrap();
    writer.write_u64(1).unwrap();
    writer.write_array_end().unwrap();
    assert_eq!(writer.into_string().unwrap(), "[1]");
    let mut writer = NdjsonWriter::new(Vec::new());
    writer.write_map_root(Some(0)).unwrap();
    writer.write_name("a").unwrap();
    writer.write_u64(1).unwrap();
    writer.write_map_end().unwrap();
    assert_eq!(writer.into_inner().unwrap(), b"{\"a\":1}\n");
}

#[test]
fn into_inner_refuses_an_unfinished_output_where_into_parts_hands_it_over() {
    let mut writer = NdjsonWriter::new(Vec::new());
    writer.write_u64(1).unwrap();
    writer.write_array_root(None).unwrap();
    let (sink, rest) = writer.into_parts();
    assert!(sink.is_empty());
    assert_eq!(rest, b"1\n[");
    let mut writer = NdjsonWriter::new(Vec::new());
    writer.write_array_root(None).unwrap();
    assert_eq!(
        writer.into_inner().unwrap_err().code(),
        core_codes::INVALID_STRUCTURE
    );
}

#[test]
fn an_ndjson_writer_with_no_record_writes_nothing() {
    let writer = NdjsonWriter::new(Vec::new());
    assert_eq!(writer.into_inner().unwrap(), b"");
}

#[test]
fn an_ndjson_writer_keeps_its_layout_whatever_the_options() {
    let options = WriterOptions {
        final_newline: true,
        newline: "\r\n".into(),
        escape_non_ascii: true,
        ..WriterOptions::pretty()
    };
    let mut writer = NdjsonWriter::with_options(Vec::new(), options);
    for _ in 0..2 {
        writer.write_map_root(None).unwrap();
        writer.write_name("é").unwrap();
        writer.write_array_root(None).unwrap();
        writer.write_u64(1).unwrap();
        writer.write_array_end().unwrap();
        writer.write_map_end().unwrap();
    }
    assert_eq!(
        writer.into_inner().unwrap(),
        b"{\"\\u00e9\":[1]}\n{\"\\u00e9\":[1]}\n"
    );
}

#[test]
fn an_ndjson_writer_does_not_check_layout_options_it_does_not_use() {
    // An indentation or line break that is not whitespace would make pretty output
    // invalid, but records are never indented and always end with a line feed.
    let options = WriterOptions {
        indent: "--".into(),
        newline: "//".into(),
        nested_on_new_line: true,
        ..WriterOptions::pretty()
    };
    let mut writer = NdjsonWriter::with_options(Vec::new(), options);
    writer.write_map_root(None).unwrap();
    writer.write_name("a").unwrap();
    writer.write_array_root(None).unwrap();
    writer.write_u64(1).unwrap();
    writer.write_array_end().unwrap();
    writer.write_map_end().unwrap();
    writer.write_u64(2).unwrap();
    assert_eq!(writer.into_inner().unwrap(), b"{\"a\":[1]}\n2\n");
}

#[test]
fn an_ndjson_record_is_handed_out_at_its_line_feed_with_its_place() {
    let input = "{\"a\": 1}\n\n  [2]\n";
    let mut records = NdjsonReader::from_str(input);
    let mut first = records.next_record().unwrap().unwrap();
    assert_eq!((first.number(), first.line(), first.offset()), (1, 1, 0));
    Token::read_all(&mut first).unwrap();
    let mut second = records.next_record().unwrap().unwrap();
    assert_eq!(
        (second.number(), second.line(), second.offset()),
        (2, 3, 12)
    );
    Token::read_all(&mut second).unwrap();
    assert!(records.next_record().unwrap().is_none());
}

#[test]
fn ndjson_errors_the_chapter_names() {
    let first_error = |input: &str, options: &JsonOptions| -> Error {
        let mut records = NdjsonReader::new(
            sluice_json::SliceInput::new(input.as_bytes()),
            options.clone(),
        );
        loop {
            match records.next_record() {
                Ok(Some(mut record)) => {
                    if let Err(err) = Token::read_all(&mut record) {
                        return err;
                    }
                }
                Ok(None) => panic!("{input:?} was accepted"),
                Err(err) => return err,
            }
        }
    };
    // A byte order mark on a later line.
    let err = first_error("1\n\u{feff}2\n", &strict());
    assert_eq!((err.code(), span(&err)), (codes::UNEXPECTED_TOKEN, (2, 5)));
    // A value that goes on past its line feed: cut off there.
    let err = first_error("[1,\n2]\n", &strict());
    assert_eq!((err.code(), span(&err)), (codes::UNEXPECTED_EOF, (3, 3)));
    let err = first_error("{\"a\":\n1}\n", &strict());
    assert_eq!((err.code(), span(&err).0), (codes::UNEXPECTED_EOF, 5));
    // With the data path where the line ends, as the line read alone gives it.
    assert_eq!(err.path().unwrap().to_string(), "$.a");
    // A line feed inside a string is a raw control character; after `\` an invalid escape.
    let err = first_error("[\"a\nb\"]\n", &strict());
    assert_eq!((err.code(), span(&err)), (codes::CONTROL_CHARACTER, (3, 4)));
    let err = first_error("[\"a\\\nb\"]\n", &strict());
    assert_eq!((err.code(), span(&err)), (codes::INVALID_ESCAPE, (3, 5)));
    // A block comment must end on its line: spanning `/*` to the line feed included.
    let err = first_error("1 /* a\nb */\n2\n", &JsonOptions::relaxed());
    assert_eq!((err.code(), span(&err)), (codes::UNCLOSED_COMMENT, (2, 7)));
    // Two values on one line.
    let err = first_error("1 2\n", &strict());
    assert_eq!(err.code(), codes::TRAILING_TOKEN);
}

// ----- The parallel ingestion ---------------------------------------------------------------

#[test]
fn a_bad_record_of_the_parallel_ingestion_renders_with_its_source_name_and_line() {
    use sluice_json::parallel::{ParallelOptions, ingest_records};
    let options = ParallelOptions {
        jobs: 2,
        source_name: "events.ndjson".into(),
        ..ParallelOptions::default()
    };
    let input = "1\n2\n[3 4]\n5\n";
    let mut seen = Vec::new();
    let err = ingest_records(
        input.as_bytes(),
        &options,
        |reader| {
            let mut value = sluice_core::ValueWriter::new();
            sluice_core::pipe_value(reader, &mut value)?;
            value.into_value()
        },
        |value| {
            seen.push(value);
            Ok(())
        },
    )
    .unwrap_err();
    assert_eq!(err.code(), codes::EXPECT_COMMA);
    // Counted from the record's line.
    assert_eq!(err.span(), Some(Span::new(3, 4)));
    assert!(
        err.render().contains("events.ndjson:3:4"),
        "{}",
        err.render()
    );
    // Ordered: every record before the bad one, none after.
    assert_eq!(seen.len(), 2);
}

#[test]
fn the_io_error_of_a_parallel_run_is_absolute_has_no_data_path_and_is_the_streams() {
    use sluice_json::parallel::{ParallelOptions, ingest_records};
    /// Hands out its bytes, then fails as a disk can.
    struct Broken(&'static [u8]);
    impl std::io::Read for Broken {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Err(std::io::Error::from_raw_os_error(5));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let options = ParallelOptions {
        jobs: 2,
        ..ParallelOptions::default()
    };
    let mut seen = Vec::new();
    let err = ingest_records(
        Broken(b"1\n2\n[3, 4"),
        &options,
        |reader| reader.read_u8(),
        |n| {
            seen.push(n);
            Ok(())
        },
    )
    .unwrap_err();
    // The whole lines before the break are records; the cut line is none.
    assert_eq!(seen, [1, 2]);
    assert_eq!(err.code(), core_codes::IO);
    // Counted from the start of the input, not from the line the stream broke in.
    assert_eq!(err.span(), Some(Span::at(9)));
    assert!(err.path().is_none());
    assert_eq!(
        err.io_error().and_then(std::io::Error::raw_os_error),
        Some(5)
    );
}

#[test]
fn the_most_worker_threads_a_run_starts_is_1024() {
    assert_eq!(sluice_json::parallel::MAX_JOBS, 1024);
}

/// Counts a document's values by recursion, one `peek` and one read a level, as a value
/// builder does.
fn count_by_recursion<R: Reader>(reader: &mut R) -> sluice_core::Result<usize> {
    match reader.peek()? {
        Entry::ArrayRoot => {
            reader.read_array_root()?;
            let mut count = 1;
            while reader.peek()? != Entry::ArrayEnd {
                count += count_by_recursion(reader)?;
            }
            reader.read_array_end()?;
            Ok(count)
        }
        Entry::MapRoot => {
            reader.read_map_root()?;
            let mut count = 1;
            while reader.peek()? != Entry::MapEnd {
                reader.read_name()?;
                count += count_by_recursion(reader)?;
            }
            reader.read_map_end()?;
            Ok(count)
        }
        _ => {
            reader.skip()?;
            Ok(1)
        }
    }
}

#[test]
fn recursion_over_the_reader_to_the_default_depth_fits_a_1_mib_thread_in_debug_builds() {
    // 128 levels, objects and arrays in turn, each with a key and a number beside the
    // nested value. In a debug build this counter takes about 0.5 KiB a level; with the
    // reader's hot paths in line in it, 128 levels overflowed 1 MiB.
    let levels = 64;
    let doc = format!(
        "{}1{}",
        r#"{"key": 0.5, "next": ["#.repeat(levels),
        "]}".repeat(levels)
    );
    for options in [JsonOptions::strict(), JsonOptions::relaxed()] {
        let doc = doc.clone();
        let counted = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || {
                let mut reader = JsonReader::from_str(&doc).with_options(options);
                let count = count_by_recursion(&mut reader)?;
                reader.finish().map(|()| count)
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(counted.unwrap(), 3 * levels + 1);
    }
}
