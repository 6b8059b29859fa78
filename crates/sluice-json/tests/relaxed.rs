//! Every relaxation, each on its own and combined: comments (in every position, with CRLF),
//! trailing commas, several root values, scalar roots, the JSON5 items, the depth limit,
//! duplicate keys; what each accepts, and the code and span of what it
//! refuses, on or off. Every document is read from a slice and through `io::Read` in pieces
//! of 1 to 7 bytes, with the same tokens or the same error.

mod common;

use common::{outcome, read_slice, read_trickle, read_windowed};
use sluice_core::{Entry, NumberHint, OwnedNumber, Reader, Span, Token, codes as core_codes};
use sluice_json::{DuplicateKeys, JsonOptions, JsonReader, codes};

fn strict() -> JsonOptions {
    JsonOptions::strict()
}

/// Reads `input` on the slice path and on `io::Read` paths of 1, 2, 3, 5 and 7 bytes a
/// read, through the default window and through one a byte larger than a read (which the
/// reader moves and grows at every token); they must agree, tokens or error code and span.
#[track_caller]
fn read(input: &str, options: &JsonOptions) -> sluice_core::Result<Vec<Token>> {
    let slice = read_slice(input.as_bytes(), options);
    let expected = outcome(read_slice(input.as_bytes(), options));
    for chunk in [1, 2, 3, 5, 7] {
        assert_eq!(
            outcome(read_trickle(input.as_bytes(), chunk, options)),
            expected,
            "{input:?}, {chunk}-byte reads"
        );
        assert_eq!(
            outcome(read_windowed(input.as_bytes(), chunk, chunk + 1, options)),
            expected,
            "{input:?}, {chunk}-byte reads into a {}-byte window",
            chunk + 1
        );
    }
    slice
}

fn text_number(text: &str, hint: NumberHint) -> Token {
    Token::Number(OwnedNumber::Text(text.into(), hint))
}

#[test]
fn comments_in_every_position_with_lf_and_crlf() {
    let plain = r#"{"a":[1,2],"b":{"c":null}}"#;
    let expected = read(plain, &strict()).unwrap();
    let commented = "// head\n/* block */ { // after open\n /* before key */ \"a\" /* before colon */ : \
                     /* after colon */ [ /* first */ 1 /* before comma */ , // after comma\n 2 /* before end */ ] \
                     /* before member comma */ , \"b\" : { \"c\" /**/ : /***/ null /* x */ } // end of line\n } \
                     // trailing comment without line break";
    let options = JsonOptions {
        comments: true,
        ..strict()
    };
    assert_eq!(read(commented, &options).unwrap(), expected);
    let crlf = commented.replace('\n', "\r\n");
    assert_eq!(read(&crlf, &options).unwrap(), expected);
    // A line comment ended by a lone CR.
    assert_eq!(read("[1, // x\r2]", &options).unwrap().len(), 4);
    // Off: the first `/` is an unexpected token.
    assert_eq!(
        error_of(commented, &strict()),
        (codes::UNEXPECTED_TOKEN, Some(Span::new(0, 1)))
    );
    // Unclosed block comment, a lone slash, a comment inside a string is text.
    assert_eq!(
        error_of("[1 /* open", &options),
        (codes::UNCLOSED_COMMENT, Some(Span::new(3, 10)))
    );
    assert_eq!(
        error_of("[1 / 2]", &options),
        (codes::EXPECT_COMMA, Some(Span::new(3, 4)))
    );
    assert_eq!(
        read(r#"["/* not a comment */"]"#, &options).unwrap()[1],
        Token::String("/* not a comment */".into())
    );
}

#[test]
fn crlf_line_endings_are_whitespace_in_strict_mode() {
    let tokens = read("{\r\n  \"a\": [\r\n    1\r\n  ]\r\n}\r\n", &strict()).unwrap();
    assert_eq!(tokens.len(), 6);
}

#[test]
fn trailing_commas() {
    let options = JsonOptions {
        trailing_commas: true,
        ..strict()
    };
    assert_eq!(
        read("[1,2,]", &options).unwrap(),
        read("[1,2]", &strict()).unwrap()
    );
    assert_eq!(
        read(r#"{"a":1,}"#, &options).unwrap(),
        read(r#"{"a":1}"#, &strict()).unwrap()
    );
    assert_eq!(read("[[],{},]", &options).unwrap().len(), 6);
    assert_eq!(
        error_of("[1,]", &strict()),
        (codes::UNEXPECTED_TOKEN, Some(Span::new(3, 4)))
    );
    assert_eq!(
        error_of("[,]", &options),
        (codes::UNEXPECTED_TOKEN, Some(Span::new(1, 2)))
    );
    assert_eq!(
        error_of("[1,,]", &options),
        (codes::UNEXPECTED_TOKEN, Some(Span::new(3, 4)))
    );
    assert_eq!(
        error_of("{,}", &options),
        (codes::EXPECT_KEY, Some(Span::new(1, 2)))
    );
    assert_eq!(
        error_of("{\"a\":1,,}", &options),
        (codes::EXPECT_KEY, Some(Span::new(7, 8)))
    );
}

#[test]
fn several_root_values() {
    let options = JsonOptions::ndjson();
    let tokens = read("1 \"two\"[3]{}\n\nnull", &options).unwrap();
    assert_eq!(tokens.len(), 8);
    assert_eq!(read("", &options).unwrap(), vec![]);
    assert_eq!(read(" \n ", &options).unwrap(), vec![]);
    assert_eq!(
        error_of("1 2", &strict()),
        (codes::TRAILING_TOKEN, Some(Span::new(2, 3)))
    );
    assert_eq!(
        error_of("[1] [", &options),
        (codes::UNEXPECTED_EOF, Some(Span::new(5, 5)))
    );
    // No whitespace is needed where two values do not run together; where they would, the
    // run is one token (`12` is one number, `truefalse` no word at all).
    assert_eq!(
        read("[1][2]\"a\"\"b\"1[2]true{}", &options).unwrap().len(),
        15
    );
    assert_eq!(read("12", &options).unwrap().len(), 1);
    assert_eq!(
        error_of("truefalse", &options),
        (codes::UNEXPECTED_TOKEN, Some(Span::new(0, 9)))
    );
}

#[test]
fn scalar_roots_can_be_refused() {
    let options = JsonOptions {
        scalar_root: false,
        ..strict()
    };
    assert!(read("[]", &options).is_ok());
    assert!(read("{}", &options).is_ok());
    for scalar in ["1", "-1", "true", "null", "\"s\""] {
        assert_eq!(
            error_of(scalar, &options),
            (codes::SCALAR_ROOT, Some(Span::new(0, scalar.len()))),
            "{scalar}"
        );
        assert!(read(scalar, &strict()).is_ok());
    }
}

#[test]
fn json5_unquoted_keys() {
    let options = JsonOptions {
        unquoted_keys: true,
        ..strict()
    };
    let tokens = read("{a: 1, _b$2: 2, $: 3, héllo: 4, \"q\": 5}", &options).unwrap();
    let names: Vec<_> = tokens
        .iter()
        .filter_map(|t| match t {
            Token::Name(n) => Some(n.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(names, ["a", "_b$2", "$", "héllo", "q"]);
    assert_eq!(
        error_of("{1a: 1}", &options),
        (codes::EXPECT_KEY, Some(Span::new(1, 3)))
    );
    assert_eq!(
        error_of("{a: 1}", &strict()),
        (codes::EXPECT_KEY, Some(Span::new(1, 2)))
    );
    assert_eq!(
        error_of("{a b: 1}", &options),
        (codes::EXPECT_COLON, Some(Span::new(3, 4)))
    );
}

#[test]
fn json5_single_quoted_strings() {
    let options = JsonOptions {
        single_quotes: true,
        ..strict()
    };
    let tokens = read(r#"{'k': 'say "hi"', "d": 'its'}"#, &options).unwrap();
    assert_eq!(tokens[1], Token::Name("k".into()));
    assert_eq!(tokens[2], Token::String("say \"hi\"".into()));
    // `\'` is a JSON5 escape: without json5_escapes it is invalid.
    assert_eq!(
        error_of(r#"'it\'s'"#, &options),
        (codes::INVALID_ESCAPE, Some(Span::new(3, 5)))
    );
    let both = JsonOptions {
        json5_escapes: true,
        ..options.clone()
    };
    assert_eq!(
        read(r#"'it\'s'"#, &both).unwrap(),
        vec![Token::String("it's".into())]
    );
    assert_eq!(
        error_of("'x'", &strict()),
        (codes::UNEXPECTED_TOKEN, Some(Span::new(0, 1)))
    );
    assert_eq!(
        error_of("'open", &options),
        (codes::UNCLOSED_STRING, Some(Span::new(0, 5)))
    );
}

#[test]
fn json5_strings_hold_raw_control_characters_but_line_breaks() {
    let json5 = JsonOptions::json5();
    let raw_controls = JsonOptions {
        json5_control_characters: true,
        ..strict()
    };
    for byte in (0u8..0x20).filter(|&b| b != b'\n' && b != b'\r') {
        let control = char::from(byte);
        let text = format!("a{control}b");
        for options in [&json5, &raw_controls] {
            // In a value and in a key, alone and beside an escape (the two string paths).
            let tokens = tokens_of(&format!("{{\"{text}\": \"{text}\\n\"}}"), options);
            assert_eq!(tokens[1], Token::Name(text.clone()), "{byte:#x}");
            assert_eq!(tokens[2], Token::String(format!("{text}\n")), "{byte:#x}");
        }
        assert_eq!(
            tokens_of(&format!("'{text}'"), &json5),
            [Token::String(text.clone())]
        );
        // Off, as in JSON: the control character, wherever it stands.
        let without = JsonOptions {
            json5_control_characters: false,
            ..JsonOptions::json5()
        };
        for options in [&strict(), &without] {
            assert_eq!(
                error_of(&format!("[\"{text}\"]"), options),
                (codes::CONTROL_CHARACTER, Some(Span::new(3, 4))),
                "{byte:#x}"
            );
        }
    }
    // Line breaks still need an escape (or a JSON5 escaped line break).
    assert_errors(
        &json5,
        &[
            ("'a\nb'", codes::CONTROL_CHARACTER, (2, 3)),
            ("\"a\rb\"", codes::CONTROL_CHARACTER, (2, 3)),
            ("['\t', 'a\r\nb']", codes::CONTROL_CHARACTER, (8, 9)),
        ],
    );
    assert_eq!(tokens_of("'a\\\nb'", &json5), [Token::String("ab".into())]);
}

#[test]
fn json5_numbers_become_json_numbers() {
    let options = JsonOptions {
        json5_numbers: true,
        ..strict()
    };
    let tokens = read(
        "[0x1F, -0x10, 0XfF, +1, +1.5, .5, 5., -.5e3, 5.e-1, +.5, Infinity, -Infinity, +Infinity, 12, -0, -0x0, 0x0]",
        &options,
    )
    .unwrap();
    let expected = vec![
        Token::ArrayRoot(None),
        Token::Number(OwnedNumber::U64(31)),
        Token::Number(OwnedNumber::I64(-16)),
        Token::Number(OwnedNumber::U64(255)),
        text_number("1", NumberHint::Integer),
        text_number("1.5", NumberHint::Float),
        text_number("0.5", NumberHint::Float),
        text_number("5.0", NumberHint::Float),
        text_number("-0.5e3", NumberHint::Float),
        text_number("5.0e-1", NumberHint::Float),
        text_number("0.5", NumberHint::Float),
        Token::Number(OwnedNumber::F64(f64::INFINITY)),
        Token::Number(OwnedNumber::F64(f64::NEG_INFINITY)),
        Token::Number(OwnedNumber::F64(f64::INFINITY)),
        text_number("12", NumberHint::Integer),
        text_number("-0", NumberHint::NegInteger),
        // Negative zero keeps its sign in hex too (`OwnedNumber` tells -0.0 from 0.0).
        Token::Number(OwnedNumber::F64(-0.0)),
        Token::Number(OwnedNumber::U64(0)),
        Token::ArrayEnd,
    ];
    assert_eq!(tokens, expected);
    let nan = read("NaN", &options).unwrap();
    assert!(matches!(nan[0], Token::Number(OwnedNumber::F64(v)) if v.is_nan()));
    for bad in [
        "0x", "0xG", "01", ".", "+", "-.", "1.2.3", "0x1p3", "Inf", "+NaNx",
    ] {
        // The whole word, however far it looks like a number.
        assert_eq!(
            error_of(bad, &options),
            (codes::INVALID_NUMBER, Some(Span::new(0, bad.len()))),
            "{bad}"
        );
    }
    // Hexadecimal integers beyond 64 bits read as decimal text, up to 128 bits; wider ones
    // are out of range (a limit JSON5 lets a parser set), over the whole literal.
    for (hex, text, hint) in [
        (
            "0x10000000000000000",
            "18446744073709551616",
            NumberHint::Integer,
        ),
        (
            "-0x8000000000000001",
            "-9223372036854775809",
            NumberHint::NegInteger,
        ),
        (
            "0xffffffffffffffffffffffffffffffff",
            "340282366920938463463374607431768211455",
            NumberHint::Integer,
        ),
        (
            "-0x000ffffffffffffffffffffffffffffffff",
            "-340282366920938463463374607431768211455",
            NumberHint::NegInteger,
        ),
    ] {
        assert_eq!(
            read(hex, &options).unwrap(),
            [text_number(text, hint)],
            "{hex}"
        );
    }
    assert_eq!(
        read("-0x8000000000000000", &options).unwrap(),
        [Token::Number(OwnedNumber::I64(i64::MIN))]
    );
    let mut reader =
        JsonReader::from_str("0x100000000000000000000000000000000").with_options(options.clone());
    let err = reader.peek().unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(err.span(), Some(Span::new(0, 35)));
    let mut reader = JsonReader::from_str("[0x1ffffffffffffffff]").with_options(options.clone());
    reader.read_array_root().unwrap();
    assert_eq!(reader.read_u128().unwrap(), (1 << 65) - 1);
    // Strict JSON refuses each at its first byte, the whole token in the span.
    for (json5, code, end) in [
        ("0x1", codes::INVALID_NUMBER, 3),
        ("+1", codes::UNEXPECTED_TOKEN, 2),
        (".5", codes::UNEXPECTED_TOKEN, 2),
        ("5.", codes::INVALID_NUMBER, 2),
        ("Infinity", codes::UNEXPECTED_TOKEN, 8),
        ("NaN", codes::UNEXPECTED_TOKEN, 3),
    ] {
        let err = read(json5, &strict()).expect_err(json5);
        assert_eq!(
            (err.code(), err.span()),
            (code, Some(Span::new(0, end))),
            "{json5}"
        );
    }
}

#[test]
fn json5_escapes_and_line_continuations() {
    let options = JsonOptions {
        json5_escapes: true,
        ..strict()
    };
    let input = "\"a\\\nb\\\r\nc\\\rd\\\u{2028}e \\x41\\v\\0\\q\\é\"";
    assert_eq!(
        read(input, &options).unwrap(),
        vec![Token::String("abcde A\u{b}\0qé".into())]
    );
    assert_eq!(
        error_of(input, &strict()),
        (codes::INVALID_ESCAPE, Some(Span::new(2, 4)))
    );
    assert_eq!(
        error_of(r#""\1""#, &options),
        (codes::INVALID_ESCAPE, Some(Span::new(1, 3)))
    );
    assert_eq!(
        error_of(r#""\x4""#, &options),
        (codes::INVALID_ESCAPE, Some(Span::new(1, 5)))
    );
    assert_eq!(
        error_of(r#""\01""#, &options),
        (codes::INVALID_ESCAPE, Some(Span::new(1, 3)))
    );
    // A raw line break is still not allowed inside a string.
    assert_eq!(
        error_of("\"a\nb\"", &options),
        (codes::CONTROL_CHARACTER, Some(Span::new(2, 3)))
    );
    // A control character after a backslash stands for itself, as any other character.
    assert_eq!(
        read("\"\\\t\\\u{1}\\\u{7f}\\\u{85}\"", &options).unwrap(),
        vec![Token::String("\t\u{1}\u{7f}\u{85}".into())]
    );
    assert_eq!(
        error_of("\"\\\t\"", &strict()),
        (codes::INVALID_ESCAPE, Some(Span::new(1, 3)))
    );
}

#[test]
fn comments_must_be_utf8_like_the_rest_of_the_document() {
    // Non-ASCII comment text reads, its characters cut anywhere by 1- and 5-byte reads.
    let text = "[1, // \u{e9} \u{4e2d} \u{1f600} \u{2018}x\u{2019} \u{2027}\n2 /* \u{e9} \u{4e2d} \u{1f600} */]";
    for options in [JsonOptions::relaxed(), JsonOptions::json5()] {
        assert_eq!(read(text, &options).unwrap().len(), 4);
    }
    // Invalid UTF-8 is `json/InvalidUtf8` over the bad sequence, on both input paths.
    let cases: [(&[u8], usize, usize); 8] = [
        (b"[1 // a\xFFb\n]", 7, 8),
        // In a block comment the input never closes, too: the bad byte comes first.
        (b"[1 /* a\xC3\n", 7, 8),
        (b"[1 /* a\xF1\n\n", 7, 8),
        (b"[1 /* a\xFFb */]", 7, 8),
        // A sequence broken off by another byte, and one cut by the end of the input.
        (b"[1 /* a\xE4\xB8 */]", 7, 9),
        (b"[1] // \xE4\xB8", 7, 9),
        // The first bytes of U+2028 without the last, where JSON5 looks for the separator.
        (b"[1 // \xE2\x80\n]", 6, 8),
        (b"[1 /* \xC3*/]", 6, 7),
    ];
    for (input, start, end) in cases {
        for options in [JsonOptions::relaxed(), JsonOptions::json5()] {
            let slice = read_slice(input, &options).expect_err("invalid UTF-8");
            assert_eq!(slice.code(), codes::INVALID_UTF8, "{input:?}");
            assert_eq!(slice.span(), Some(Span::new(start, end)), "{input:?}");
            for chunk in [1, 2, 5] {
                assert_eq!(
                    outcome(read_trickle(input, chunk, &options)),
                    outcome(read_slice(input, &options)),
                    "{input:?}, {chunk}-byte reads"
                );
            }
        }
    }
    // A character cut by the end of the input inside an unclosed comment: the missing end
    // is the error.
    for chunk in [1, 2, 5, 4096] {
        let err =
            read_trickle(b"[1 /* a\xC3", chunk, &JsonOptions::relaxed()).expect_err("unclosed");
        assert_eq!(
            (err.code(), err.span()),
            (codes::UNCLOSED_COMMENT, Some(Span::new(3, 8))),
            "{chunk}-byte reads"
        );
    }
}

#[test]
fn json5_line_comments_end_at_line_and_paragraph_separators() {
    let json5 = JsonOptions {
        comments: true,
        json5_whitespace: true,
        ..strict()
    };
    for separator in ["\u{2028}", "\u{2029}"] {
        // Read in 1- and 5-byte pieces too: the separator's three bytes split across reads.
        let input = format!("[1, // one{separator}2, // two{separator}3]");
        assert_eq!(read(&input, &json5).unwrap().len(), 5, "{input:?}");
        // What follows the separator is read, not skipped.
        let stray = format!("[1] // x{separator}garbage\n");
        let at = stray.find("garbage").unwrap();
        assert_eq!(
            error_of(&stray, &json5),
            (
                codes::TRAILING_TOKEN,
                Some(Span::new(at, at + "garbage".len()))
            ),
            "{stray:?}"
        );
    }
    // Other characters whose first byte is the separators' (0xE2) do not end it, nor does
    // the separators' first byte at the end of the input.
    let others = "[1, // \u{2018}quoted\u{2019} \u{2027} \u{202a} \u{20ac}\n2]";
    assert_eq!(read(others, &json5).unwrap().len(), 4);
    assert_eq!(read("[1] // \u{20ac}", &json5).unwrap().len(), 3);
    // With comments but without JSON5 white space, where a separator would be no white
    // space, the comment runs to the line break as before.
    let comments = JsonOptions {
        comments: true,
        ..strict()
    };
    assert_eq!(
        read("[1, // one\u{2028}ignored\n2]", &comments)
            .unwrap()
            .len(),
        4
    );
}

#[test]
fn json5_whitespace() {
    let options = JsonOptions {
        json5_whitespace: true,
        ..strict()
    };
    let input = "\u{feff}[\u{a0}1,\u{b}\u{c}2\u{2028}\u{2029},\u{feff}3]";
    assert_eq!(read(input, &options).unwrap().len(), 5);
    assert_eq!(
        error_of("[\u{a0}1]", &strict()),
        (codes::UNEXPECTED_TOKEN, Some(Span::new(1, 3)))
    );
}

#[test]
fn the_json5_preset_reads_a_json5_document() {
    let doc = "// JSON5\n{\n  unquoted: 'and you can quote me on that',\n  singleQuotes: 'I can use \"double quotes\" here',\n  lineBreaks: \"Look, Mom! \\\nNo \\\\n's!\",\n  hexadecimal: 0xdecaf,\n  leadingDecimalPoint: .8675309, andTrailing: 8675309.,\n  positiveSign: +1,\n  trailingComma: 'in objects', andIn: ['arrays',],\n  \"backwardsCompatible\": \"with JSON\",\n}\n";
    let tokens = read(doc, &JsonOptions::json5()).unwrap();
    assert!(tokens.contains(&Token::String("Look, Mom! No \\n's!".into())));
    assert!(tokens.contains(&Token::Number(OwnedNumber::U64(0xdecaf))));
    assert!(tokens.contains(&text_number("0.8675309", NumberHint::Float)));
    assert!(tokens.contains(&text_number("8675309.0", NumberHint::Float)));
    // Relaxed JSON takes the comment and refuses the first JSON5 construct: the unquoted key.
    let err = read(doc, &JsonOptions::relaxed()).unwrap_err();
    assert_eq!(
        (err.code(), err.span()),
        (codes::EXPECT_KEY, Some(Span::new(13, 21)))
    );
}

#[test]
fn duplicate_keys_last_wins_passes_every_occurrence_on() {
    let options = JsonOptions {
        duplicate_keys: DuplicateKeys::LastWins,
        ..strict()
    };
    let mut reader = JsonReader::from_str(r#"{"a":1,"a":2}"#).with_options(options);
    let mut writer = sluice_core::ValueWriter::new();
    sluice_core::pipe(&mut reader, &mut writer).unwrap();
    let value = writer.into_value().unwrap();
    assert_eq!(value.get("a").and_then(sluice_core::Value::as_u64), Some(1));
    // The stream has both; a map built by `insert` keeps the last.
    let tokens = read(
        r#"{"a":1,"a":2}"#,
        &JsonOptions {
            duplicate_keys: DuplicateKeys::LastWins,
            ..strict()
        },
    )
    .unwrap();
    assert_eq!(tokens.len(), 6);
    assert_eq!(
        error_of(r#"{"a":1,"a":2}"#, &strict()),
        (codes::DUPLICATE_KEY, Some(Span::new(7, 10)))
    );
    // Same key in sibling and nested objects is fine.
    assert!(read(r#"{"a":{"a":1},"b":{"a":2}}"#, &strict()).is_ok());
    // Escaped and plain spellings of one key are the same key.
    assert_eq!(
        error_of(r#"{"a":1,"\u0061":2}"#, &strict()),
        (codes::DUPLICATE_KEY, Some(Span::new(7, 15)))
    );
}

#[test]
fn relaxed_preset_is_comments_and_trailing_commas() {
    let options = JsonOptions::relaxed();
    let tokens = read("/* c */ [1, 2, ] // x", &options).unwrap();
    assert_eq!(tokens.len(), 4);
    assert_eq!(
        error_of("{a: 1}", &options),
        (codes::EXPECT_KEY, Some(Span::new(1, 2)))
    );
    let mut reader = JsonReader::from_str("1 2").with_options(options);
    reader.read_u8().unwrap();
    assert_eq!(reader.peek().unwrap_err().code(), codes::TRAILING_TOKEN);
    let _ = Entry::Ended;
}

/// The code and span of the error `input` gives (the same on every input path).
#[track_caller]
fn error_of(input: &str, options: &JsonOptions) -> (sluice_core::ErrorCode, Option<Span>) {
    let err = read(input, options).expect_err(input);
    (err.code(), err.span())
}

/// The keys of a document, as read back.
#[track_caller]
fn keys_of(input: &str, options: &JsonOptions) -> Vec<String> {
    read(input, options)
        .unwrap_or_else(|err| panic!("{input:?}: {err}"))
        .into_iter()
        .filter_map(|t| match t {
            Token::Name(n) => Some(n),
            _ => None,
        })
        .collect()
}

/// JSON5 whitespace beyond JSON's: U+000B, U+000C, U+00A0, U+FEFF, U+2028, U+2029 and
/// every space separator (Zs).
const JSON5_SPACES: [char; 21] = [
    '\u{b}', '\u{c}', '\u{a0}', '\u{feff}', '\u{2028}', '\u{2029}', '\u{1680}', '\u{2000}',
    '\u{2001}', '\u{2002}', '\u{2003}', '\u{2004}', '\u{2005}', '\u{2006}', '\u{2007}', '\u{2008}',
    '\u{2009}', '\u{200a}', '\u{202f}', '\u{205f}', '\u{3000}',
];

#[test]
fn json5_whitespace_is_every_space_separator_between_every_pair_of_tokens() {
    let json5 = JsonOptions::json5();
    let only_whitespace = JsonOptions {
        json5_whitespace: true,
        ..strict()
    };
    let expected = read(r#"{"a":[1,true,"x"],"b":{}}"#, &strict()).unwrap();
    for space in JSON5_SPACES {
        let gap = format!(" {space}{space} ");
        let doc = [
            "{", "\"a\"", ":", "[", "1", ",", "true", ",", "\"x\"", "]", ",", "b", ":", "{", "}",
            "}",
        ]
        .join(&gap);
        let doc = format!("{gap}{doc}{gap}");
        assert_eq!(
            read(&doc, &json5).unwrap(),
            expected,
            "U+{:04X}",
            u32::from(space)
        );
        // Without unquoted keys, the same with a quoted key.
        let quoted = doc.replace(&format!("{gap}b{gap}"), &format!("{gap}\"b\"{gap}"));
        assert_eq!(
            read(&quoted, &only_whitespace).unwrap(),
            expected,
            "U+{:04X}",
            u32::from(space)
        );
        // Strict JSON refuses it, at the character.
        let len = space.len_utf8();
        let bad = format!("[{space}1]");
        assert_eq!(
            error_of(&bad, &strict()),
            (codes::UNEXPECTED_TOKEN, Some(Span::new(1, 1 + len))),
            "U+{:04X}",
            u32::from(space)
        );
        // After a value, where JSON expects `,` or `]`.
        let bad = format!("[1{space}]");
        assert_eq!(
            error_of(&bad, &strict()),
            (codes::EXPECT_COMMA, Some(Span::new(2, 2 + len))),
            "U+{:04X}",
            u32::from(space)
        );
    }
    // Characters next to the spaces that are not JSON5 whitespace: U+0085, U+200B (zero
    // width space, not a space separator), U+180E (no longer one since Unicode 6.3).
    for other in ['\u{85}', '\u{200b}', '\u{180e}'] {
        let bad = format!("[{other}1]");
        assert_eq!(
            error_of(&bad, &json5),
            (
                codes::UNEXPECTED_TOKEN,
                Some(Span::new(1, 1 + other.len_utf8()))
            ),
            "U+{:04X}",
            u32::from(other)
        );
    }
}

#[test]
fn json5_identifier_keys_follow_ecmascript_identifier_names() {
    let options = JsonOptions {
        unquoted_keys: true,
        ..strict()
    };
    // Combining marks, non-ASCII digits after the start, ZWNJ and ZWJ continue a key;
    // letters of any script start one.
    let keys = keys_of(
        "{e\u{301}: 1, a\u{663}: 2, a\u{200c}b: 3, a\u{200d}b: 4, \u{3b1}\u{3b2}: 5, \u{4e2d}\u{6587}: 6, \
         _\u{662}: 7, $x: 8, \u{1d400}: 9}",
        &options,
    );
    assert_eq!(
        keys,
        [
            "e\u{301}",
            "a\u{663}",
            "a\u{200c}b",
            "a\u{200d}b",
            "\u{3b1}\u{3b2}",
            "\u{4e2d}\u{6587}",
            "_\u{662}",
            "$x",
            "\u{1d400}",
        ]
    );
    // A character that cannot start an identifier where a key starts: ExpectKey at it.
    for (input, span) in [
        ("{\u{663}: 1}", (1, 3)),       // ARABIC-INDIC DIGIT THREE
        ("{\u{301}e: 1}", (1, 3)),      // a combining mark
        ("{\u{200d}a: 1}", (1, 4)),     // ZWJ
        ("{\u{20ac}: 1}", (1, 4)),      // EURO SIGN
        ("{a: 1, \u{663}: 2}", (7, 9)), // after a member
        ("{1a: 1}", (1, 3)),            // the word, as for other bad tokens
    ] {
        assert_eq!(
            error_of(input, &options),
            (codes::EXPECT_KEY, Some(Span::new(span.0, span.1))),
            "{input:?}"
        );
    }
    // A character that cannot continue one ends the key: ExpectColon at it.
    for (input, span) in [
        ("{a\u{20ac}: 1}", (2, 5)),
        ("{a-b: 1}", (2, 4)), // the word `-b`, as for other bad tokens
        ("{a\u{3000}: 1}", (2, 5)),
    ] {
        assert_eq!(
            error_of(input, &options),
            (codes::EXPECT_COLON, Some(Span::new(span.0, span.1))),
            "{input:?}"
        );
    }
    // With JSON5 whitespace on, U+3000 may follow the key instead.
    assert_eq!(keys_of("{a\u{3000}: 1}", &JsonOptions::json5()), ["a"]);
}

#[test]
fn json5_identifier_keys_decode_unicode_escapes() {
    let options = JsonOptions {
        unquoted_keys: true,
        ..strict()
    };
    let keys = keys_of(
        r"{\u0061: 1, a\u0062c: 2, \u00e9t\u00E9: 3, \u005f\u0024: 4, x\u0301: 5, \ud835\udc00: 6, plain: 7}",
        &options,
    );
    assert_eq!(
        keys,
        ["a", "abc", "été", "_$", "x\u{301}", "\u{1d400}", "plain"]
    );
    // The escaped and the plain spelling of a key are the same key.
    assert_eq!(
        error_of(r"{ab: 1, a\u0062: 2}", &options),
        (codes::DUPLICATE_KEY, Some(Span::new(8, 15)))
    );
    // Only `\u` escapes, and only for a character allowed where it stands: InvalidEscape
    // over the escape.
    for (input, span) in [
        (r"{\u0031a: 1}", (1, 7)),  // a digit cannot start a key
        (r"{a\u002d: 1}", (2, 8)),  // `-` is no identifier character
        (r"{a\u0020b: 1}", (2, 8)), // nor is a space
        (r"{\u0301: 1}", (1, 7)),   // a combining mark cannot start a key
        (r"{a\x41: 1}", (2, 4)),    // `\x` is a string escape only
        (r"{a\n: 1}", (2, 4)),      // so is `\n`
        (r"{a\u00G1: 1}", (2, 7)),  // four hexadecimal digits, as in strings
    ] {
        assert_eq!(
            error_of(input, &options),
            (codes::INVALID_ESCAPE, Some(Span::new(span.0, span.1))),
            "{input:?}"
        );
    }
    assert_eq!(
        error_of(r"{a\ud800: 1}", &options),
        (codes::LONE_SURROGATE, Some(Span::new(2, 8)))
    );
    // The input ending inside an escape cuts the key short: UnexpectedEof over the key so
    // far, as `{a` ends where `:` is due. (It used to be `UnclosedString`, though no string
    // was open, or `InvalidEscape` right after the backslash.)
    for (input, span) in [
        (r"{\", (1, 2)),
        (r"{a\", (1, 3)),
        (r"{\u", (1, 3)),
        (r"{a\u00", (1, 6)),
        (r"{a\ud83d", (1, 8)),
        (r"{a\ud83d\", (1, 9)),
        (r"{a\ud83d\ude0", (1, 13)),
    ] {
        assert_eq!(
            error_of(input, &options),
            (codes::UNEXPECTED_EOF, Some(Span::new(span.0, span.1))),
            "{input:?}"
        );
    }
    // The data path of an error under an escaped key names the decoded key, however the
    // reader keeps its keys.
    for duplicate_keys in [DuplicateKeys::Error, DuplicateKeys::LastWins] {
        let options = JsonOptions {
            duplicate_keys,
            ..JsonOptions::json5()
        };
        for (input, path) in [
            (r"{k\u0065y: [1, x]}", "$.key[1]"),
            (r"{k\u0065y: tru}", "$.key"),
            (r"{a: {'q': 1, k\u0065y: [x]}}", "$.a.key[0]"),
        ] {
            let err = read(input, &options).unwrap_err();
            assert_eq!(
                err.path().map(ToString::to_string).as_deref(),
                Some(path),
                "{input}, {duplicate_keys:?}"
            );
        }
    }
    // Reading the key with and without a peek gives the same text.
    let mut reader = JsonReader::from_str(r"{a\u0062: 1}").with_options(options);
    reader.read_map_root().unwrap();
    assert_eq!(reader.read_name().unwrap(), "ab");
    assert_eq!(reader.span(), Span::new(1, 8));
}

/// Where a character may stand in a JSON5 identifier key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InKey {
    Anywhere,
    AfterTheFirst,
    Nowhere,
}

#[test]
fn json5_identifier_keys_take_the_ecmascript_5_1_categories_not_unicode_id_start() {
    // ECMAScript 5.1, which JSON5 names, and the JSON5 reference implementation define
    // identifiers by general category: letters (Lu, Ll, Lt, Lm, Lo, Nl) start one, and
    // combining marks, decimal digits and connector punctuation may follow. Unicode's
    // ID_Start and ID_Continue (and their XID forms) differ from these on the characters
    // below, each tried first, after a letter, and as a `\uXXXX` escape in both places.
    let options = JsonOptions {
        unquoted_keys: true,
        ..strict()
    };
    let letters_outside_xid_start = [
        '\u{37a}', '\u{e33}', '\u{eb3}', '\u{2e2f}', '\u{fc5e}', '\u{fc5f}', '\u{fc60}',
        '\u{fc61}', '\u{fc62}', '\u{fc63}', '\u{fdfa}', '\u{fdfb}', '\u{fe70}', '\u{fe72}',
        '\u{fe74}', '\u{fe76}', '\u{fe78}', '\u{fe7a}', '\u{fe7c}', '\u{fe7e}', '\u{ff9e}',
        '\u{ff9f}',
    ];
    let mut cases: Vec<(char, InKey)> = letters_outside_xid_start
        .iter()
        .map(|&c| (c, InKey::Anywhere))
        .collect();
    cases.extend([
        // Mongolian combining marks (Mn) that Unicode's ID_Start holds.
        ('\u{1885}', InKey::AfterTheFirst),
        ('\u{1886}', InKey::AfterTheFirst),
        // Symbols in ID_Start (SCRIPT CAPITAL P, ESTIMATED SYMBOL).
        ('\u{2118}', InKey::Nowhere),
        ('\u{212e}', InKey::Nowhere),
        // Katakana voiced sound marks (Sk), in ID_Start but in neither XID table.
        ('\u{309b}', InKey::Nowhere),
        ('\u{309c}', InKey::Nowhere),
        // Punctuation (Po) and digits of category No in ID_Continue.
        ('\u{b7}', InKey::Nowhere),
        ('\u{387}', InKey::Nowhere),
        ('\u{30fb}', InKey::Nowhere),
        ('\u{ff65}', InKey::Nowhere),
        ('\u{19da}', InKey::Nowhere),
    ]);
    cases.extend(('\u{1369}'..='\u{1371}').map(|c| (c, InKey::Nowhere)));
    for (c, place) in cases {
        let len = c.len_utf8();
        let hex = format!("\\u{:04X}", u32::from(c));
        let first = format!("{{{c}: 1}}");
        let later = format!("{{a{c}: 1}}");
        let escaped_first = format!("{{{hex}: 1}}");
        let escaped_later = format!("{{a{hex}: 1}}");
        if place == InKey::Anywhere {
            assert_eq!(keys_of(&first, &options), [c.to_string()], "{first:?}");
            assert_eq!(keys_of(&escaped_first, &options), [c.to_string()]);
        } else {
            assert_eq!(
                error_of(&first, &options),
                (codes::EXPECT_KEY, Some(Span::new(1, 1 + len))),
                "{first:?}"
            );
            assert_eq!(
                error_of(&escaped_first, &options),
                (codes::INVALID_ESCAPE, Some(Span::new(1, 7))),
                "{escaped_first:?}"
            );
        }
        if place == InKey::Nowhere {
            assert_eq!(
                error_of(&later, &options),
                (codes::EXPECT_COLON, Some(Span::new(2, 2 + len))),
                "{later:?}"
            );
            assert_eq!(
                error_of(&escaped_later, &options),
                (codes::INVALID_ESCAPE, Some(Span::new(2, 8))),
                "{escaped_later:?}"
            );
        } else {
            assert_eq!(keys_of(&later, &options), [format!("a{c}")], "{later:?}");
            assert_eq!(keys_of(&escaped_later, &options), [format!("a{c}")]);
        }
    }
}

#[test]
fn json5_scalars_at_the_root_are_scalar_roots() {
    let options = JsonOptions {
        scalar_root: false,
        ..JsonOptions::json5()
    };
    for (input, span) in [
        ("'x'", (0, 3)),
        ("  'it\\'s'", (2, 9)),
        ("Infinity", (0, 8)),
        ("-Infinity", (0, 9)),
        ("+Infinity", (0, 9)),
        ("NaN", (0, 3)),
        ("+1", (0, 2)),
        (".5", (0, 2)),
        ("0x1F", (0, 4)),
        ("1", (0, 1)),
        ("\"x\"", (0, 3)),
        ("true", (0, 4)),
        ("\u{3000}null", (3, 7)),
    ] {
        assert_eq!(
            error_of(input, &options),
            (codes::SCALAR_ROOT, Some(Span::new(span.0, span.1))),
            "{input:?}"
        );
    }
    // Containers are fine; what starts no value at all is still an unexpected token.
    assert!(read("{a: 'x', b: [+1, .5, NaN]}", &options).is_ok());
    assert_eq!(
        error_of("@", &options),
        (codes::UNEXPECTED_TOKEN, Some(Span::new(0, 1)))
    );
    // Without the JSON5 switches, those bytes start no value.
    let strict_root = JsonOptions {
        scalar_root: false,
        ..strict()
    };
    // A word is spanned whole; a quote, which starts no word, alone.
    for (input, end) in [
        ("'x'", 1),
        ("Infinity", 8),
        ("NaN", 3),
        ("+1", 2),
        (".5", 2),
    ] {
        assert_eq!(
            error_of(input, &strict_root),
            (codes::UNEXPECTED_TOKEN, Some(Span::new(0, end))),
            "{input}"
        );
    }
}

#[test]
fn single_quoted_strings_are_described_whole_in_errors() {
    // As a `"` string is: the span covers the string after which a `,` was missing.
    let options = JsonOptions::json5();
    assert_eq!(
        error_of("['a' 'bc']", &options),
        (codes::EXPECT_COMMA, Some(Span::new(5, 9)))
    );
    assert_eq!(
        error_of(r#"["a" "bc"]"#, &options),
        (codes::EXPECT_COMMA, Some(Span::new(5, 9)))
    );
}

#[test]
fn an_unclosed_comment_stays_an_error_however_often_the_reader_is_asked() {
    // The comment's scan reaches the end of the input; asking again must not find a clean
    // end there.
    let cases: [(&str, JsonOptions, Span); 4] = [
        ("1 /* x", JsonOptions::relaxed(), Span::new(2, 6)),
        ("[1, /* x", JsonOptions::relaxed(), Span::new(4, 8)),
        ("/* x", JsonOptions::relaxed(), Span::new(0, 4)),
        (
            "\"/\"/* \r\nr88\u{c}",
            JsonOptions::json5(),
            Span::new(3, 12),
        ),
    ];
    for (text, options, span) in cases {
        for chunk in [1, 4096] {
            let mut reader = JsonReader::from_read(common::Trickle {
                bytes: text.as_bytes(),
                chunk,
            })
            .with_options(options.clone());
            let first = Token::read_all(&mut reader).and_then(|_| reader.finish());
            let first = first.unwrap_err();
            assert_eq!(
                (first.code(), first.span()),
                (codes::UNCLOSED_COMMENT, Some(span)),
                "{text:?}"
            );
            for _ in 0..2 {
                let again = reader.peek().unwrap_err();
                assert_eq!(
                    (again.code(), again.span()),
                    (codes::UNCLOSED_COMMENT, Some(span)),
                    "{text:?}"
                );
                assert_eq!(reader.finish().unwrap_err().code(), codes::UNCLOSED_COMMENT);
            }
        }
    }
}

// ----- conformance of each switch, on its own and combined ------------------------------

/// The tokens `input` reads as with `options` (the same on every input path).
#[track_caller]
fn tokens_of(input: &str, options: &JsonOptions) -> Vec<Token> {
    read(input, options).unwrap_or_else(|err| panic!("{input:?}: {err}"))
}

/// Asserts the code and span of the error of each `(input, code, (start, end))`.
#[track_caller]
fn assert_errors(options: &JsonOptions, cases: &[(&str, sluice_core::ErrorCode, (usize, usize))]) {
    for &(input, code, (start, end)) in cases {
        assert_eq!(
            error_of(input, options),
            (code, Some(Span::new(start, end))),
            "{input:?} with {options:?}"
        );
    }
}

fn comments_only() -> JsonOptions {
    JsonOptions {
        comments: true,
        ..strict()
    }
}

#[test]
fn a_comment_may_stand_in_any_gap_between_tokens_and_at_either_end() {
    let one = [Token::Number(OwnedNumber::Text(
        "1".into(),
        NumberHint::Integer,
    ))];
    let array = tokens_of("[1]", &strict());
    let object = tokens_of(r#"{"a":1}"#, &strict());
    let empty_array = tokens_of("[]", &strict());
    let empty_object = tokens_of("{}", &strict());
    let cases: [(&str, &[Token]); 32] = [
        // Before and after the root, at the end of the input without a line break.
        ("// c\n1", &one),
        ("1 // c", &one),
        ("1//c", &one),
        ("1/**/", &one),
        ("1 /* c */", &one),
        ("/* c */ 1", &one),
        ("/**/1", &one),
        ("1 //", &one),
        // A line comment ended by CRLF, by a lone CR, or with one right at the end.
        ("// c\r\n1", &one),
        ("// c\r1", &one),
        ("1// c\r", &one),
        ("[1 // c\r\n]", &array),
        // Between every pair of tokens of an object.
        (r#"{/**/"a"/**/:/**/1/**/}"#, &object),
        ("{ // c\n\"a\" // c\n: // c\n1 // c\n}", &object),
        // Inside empty containers.
        ("[/* c */]", &empty_array),
        ("[ // c\n]", &empty_array),
        ("{/**/}", &empty_object),
        ("{ // c\r\n}", &empty_object),
        // Comments that look like other comments: the first `*/` ends a block comment.
        ("/*/ [2] */ [1]", &array),
        ("/* a * / b **/ [1]", &array),
        ("/***/[1]", &array),
        ("/****/[1]", &array),
        ("/*/*/[1]", &array),
        ("/* x *//* y */[1]", &array),
        ("/* // */[1]", &array),
        ("// /* \n[1]", &array),
        ("///\n[1]", &array),
        // Right after a number, a literal and a string, with no space.
        ("[1//x\n]", &array),
        ("[1/**/]", &array),
        ("\u{feff}// after the byte order mark\n1", &one),
        ("[1 /* a\r\nb\rc\n */]", &array),
        ("/* \"]\" */[1]", &array),
    ];
    for (input, expected) in cases {
        assert_eq!(tokens_of(input, &comments_only()), expected, "{input:?}");
        // With every other switch on as well.
        let all = JsonOptions {
            multiple_values: true,
            ..JsonOptions::json5()
        };
        assert_eq!(tokens_of(input, &all), expected, "{input:?}");
    }
    let words = [
        Token::ArrayRoot(None),
        Token::Number(OwnedNumber::Text("1.5".into(), NumberHint::Float)),
        Token::Number(OwnedNumber::Text("1e5".into(), NumberHint::Float)),
        Token::Bool(true),
        Token::Null,
        Token::String("s".into()),
        Token::ArrayEnd,
    ];
    assert_eq!(
        tokens_of(
            "[1.5//\n,1e5/**/,true/**/,null//\r\n,\"s\"/**/]",
            &comments_only()
        ),
        words
    );
}

#[test]
fn comments_of_every_length_read_as_the_spaces_they_stand_in_for() {
    // Short ASCII comments on one line are stepped over in line by the lexer, the rest by
    // its general path: lengths around a word and around where the short step gives up,
    // and texts that send a comment to the general path at different places.
    let mut texts: Vec<String> = [
        0, 1, 5, 6, 7, 8, 9, 15, 16, 17, 29, 30, 31, 32, 33, 40, 62, 63, 64, 65, 70,
    ]
    .iter()
    .map(|&len| "c".repeat(len))
    .collect();
    for text in [
        "a * b",
        "**",
        "*",
        "/",
        "*x/",
        " \u{e9} ",
        "\u{4e2d}\u{1f600}",
        "ab\ncd",
        "\r",
    ] {
        texts.push(text.to_owned());
        texts.push(format!("{}{text}", "x".repeat(13)));
    }
    let templates = [
        "[1,@2]",
        "[1,@]",
        "{@\"a\":1,@\"b\":[@],\"c\":{}@}",
        "@[true@,@null]@",
    ];
    for text in &texts {
        for (open, close) in [("/*", "*/"), ("//", "\n")] {
            if open == "//" && (text.contains('\n') || text.contains('\r')) {
                continue;
            }
            let comment = format!("{open}{text}{close}");
            // The same number of bytes, line breaks kept.
            let blank: String = comment
                .bytes()
                .map(|b| if b == b'\n' { '\n' } else { ' ' })
                .collect::<String>()
                + &" ".repeat(comment.len() - comment.chars().count());
            for template in templates {
                let document = template.replace('@', &comment);
                let expected = read_slice(
                    template.replace('@', &blank).as_bytes(),
                    &JsonOptions::relaxed(),
                );
                assert_eq!(
                    outcome(read(&document, &JsonOptions::relaxed())),
                    outcome(expected),
                    "{document:?}"
                );
            }
        }
    }
}

#[test]
fn what_only_looks_like_a_comment_is_refused_at_its_first_byte() {
    assert_errors(
        &comments_only(),
        &[
            // A lone `/` is no comment, wherever it stands.
            ("/", codes::UNEXPECTED_TOKEN, (0, 1)),
            ("/x", codes::UNEXPECTED_TOKEN, (0, 1)),
            ("[/", codes::UNEXPECTED_TOKEN, (1, 2)),
            ("[1/]", codes::EXPECT_COMMA, (2, 3)),
            ("[1] /", codes::TRAILING_TOKEN, (4, 5)),
            ("[1] /x", codes::TRAILING_TOKEN, (4, 5)),
            ("{/", codes::EXPECT_KEY, (1, 2)),
            ("{\"a\"/", codes::EXPECT_COLON, (4, 5)),
            ("{\"a\":/", codes::UNEXPECTED_TOKEN, (5, 6)),
            // `*/` outside a comment, and text after the first `*/`.
            ("*/", codes::UNEXPECTED_TOKEN, (0, 1)),
            ("[1 */]", codes::EXPECT_COMMA, (3, 4)),
            ("[1, /* */ */ 2]", codes::UNEXPECTED_TOKEN, (10, 11)),
            // A quote inside a comment does not hide its end.
            ("/* \"*/\" */ [1]", codes::UNCLOSED_STRING, (6, 14)),
            // A comment ends a token: it cannot stand inside a number or a word.
            ("-/**/1", codes::INVALID_NUMBER, (0, 1)),
            ("-//\n1", codes::INVALID_NUMBER, (0, 1)),
            ("1e/**/", codes::INVALID_NUMBER, (0, 2)),
            ("tr/**/ue", codes::UNEXPECTED_TOKEN, (0, 2)),
            // Without several values, a value after a comment is a trailing token.
            ("1/**/2", codes::TRAILING_TOKEN, (5, 6)),
            ("1//x\n2", codes::TRAILING_TOKEN, (5, 6)),
        ],
    );
}

#[test]
fn a_comment_cut_by_the_end_of_the_input_is_unclosed_or_leaves_the_value_unfinished() {
    assert_errors(
        &comments_only(),
        &[
            // A block comment: unclosed, from its `/*` to the end.
            ("[1/*", codes::UNCLOSED_COMMENT, (2, 4)),
            ("[1/**", codes::UNCLOSED_COMMENT, (2, 5)),
            ("[1/*/", codes::UNCLOSED_COMMENT, (2, 5)),
            ("[1] /* c *", codes::UNCLOSED_COMMENT, (4, 10)),
            ("/*/ [1]", codes::UNCLOSED_COMMENT, (0, 7)),
            ("{\"a\"/*", codes::UNCLOSED_COMMENT, (4, 6)),
            // A line comment may end the input, but not the value around it.
            ("[ // c ]", codes::UNEXPECTED_EOF, (8, 8)),
            ("{\"a\"//", codes::UNEXPECTED_EOF, (6, 6)),
            ("[1,//x", codes::UNEXPECTED_EOF, (6, 6)),
            ("[1,/*x*/", codes::UNEXPECTED_EOF, (8, 8)),
            // A document of comments alone holds no value.
            ("//", codes::UNEXPECTED_EOF, (2, 2)),
            ("// only", codes::UNEXPECTED_EOF, (7, 7)),
            ("/**/", codes::UNEXPECTED_EOF, (4, 4)),
        ],
    );
}

#[test]
fn without_the_comments_switch_every_comment_is_refused_at_its_slash() {
    // Strict, and JSON5 with only the comments switch off.
    let json5_without = JsonOptions {
        comments: false,
        ..JsonOptions::json5()
    };
    for options in [strict(), json5_without] {
        assert_errors(
            &options,
            &[
                ("/* c */ 1", codes::UNEXPECTED_TOKEN, (0, 1)),
                ("// c\n1", codes::UNEXPECTED_TOKEN, (0, 1)),
                ("1 // c", codes::TRAILING_TOKEN, (2, 3)),
                ("[1 /* c */]", codes::EXPECT_COMMA, (3, 4)),
                ("[/**/]", codes::UNEXPECTED_TOKEN, (1, 2)),
                ("{/**/}", codes::EXPECT_KEY, (1, 2)),
                ("{\"a\" /**/ :1}", codes::EXPECT_COLON, (5, 6)),
                ("{\"a\":/**/1}", codes::UNEXPECTED_TOKEN, (5, 6)),
            ],
        );
    }
}

#[test]
fn comments_alone_may_separate_several_root_values() {
    let options = JsonOptions {
        comments: true,
        multiple_values: true,
        ..strict()
    };
    for input in [
        "1/**/2",
        "1//x\n2",
        "1//x\r2",
        "1 /* x */ 2",
        "// a\n1 /* b */ 2 // c",
    ] {
        assert_eq!(tokens_of(input, &options).len(), 2, "{input:?}");
    }
    assert_eq!(tokens_of("/* a */", &options), []);
    assert_eq!(tokens_of("// a", &options), []);
    assert_errors(
        &options,
        &[
            ("1 /*", codes::UNCLOSED_COMMENT, (2, 4)),
            ("1/", codes::UNEXPECTED_TOKEN, (1, 2)),
        ],
    );
}

#[test]
fn a_line_separator_ends_an_empty_line_comment_and_is_text_in_a_block_comment() {
    let options = JsonOptions {
        comments: true,
        json5_whitespace: true,
        ..strict()
    };
    assert_eq!(tokens_of("//\u{2028}1", &options).len(), 1);
    assert_eq!(tokens_of("[1 /* \u{2028} */]", &options).len(), 3);
}

fn trailing_only() -> JsonOptions {
    JsonOptions {
        trailing_commas: true,
        ..strict()
    }
}

#[test]
fn one_trailing_comma_is_allowed_and_nothing_else_around_it() {
    for (input, plain) in [
        ("[1 ,]", "[1]"),
        ("[1\r\n,\r\n]", "[1]"),
        ("[[1,],]", "[[1]]"),
        ("{\"a\":[1,],}", "{\"a\":[1]}"),
        ("{\"a\":1\r\n,\r\n}", "{\"a\":1}"),
    ] {
        assert_eq!(
            tokens_of(input, &trailing_only()),
            tokens_of(plain, &strict()),
            "{input:?}"
        );
    }
    assert_errors(
        &trailing_only(),
        &[
            ("[,]", codes::UNEXPECTED_TOKEN, (1, 2)),
            ("[1,,]", codes::UNEXPECTED_TOKEN, (3, 4)),
            ("[1,2,,]", codes::UNEXPECTED_TOKEN, (5, 6)),
            ("{,}", codes::EXPECT_KEY, (1, 2)),
            ("{\"a\":1,,}", codes::EXPECT_KEY, (7, 8)),
            ("{\"a\",}", codes::EXPECT_COLON, (4, 5)),
            ("{\"a\":,}", codes::UNEXPECTED_TOKEN, (5, 6)),
            (",", codes::UNEXPECTED_TOKEN, (0, 1)),
            ("[1,]]", codes::TRAILING_TOKEN, (4, 5)),
            ("[1,]2", codes::TRAILING_TOKEN, (4, 5)),
            // A trailing comma does not close the container.
            ("[1,", codes::UNEXPECTED_EOF, (3, 3)),
            ("{\"a\":1,", codes::UNEXPECTED_EOF, (7, 7)),
        ],
    );
    // Off: refused at the closing bracket or brace.
    assert_errors(
        &strict(),
        &[
            ("[1,]", codes::UNEXPECTED_TOKEN, (3, 4)),
            ("{\"a\":1,}", codes::EXPECT_KEY, (7, 8)),
        ],
    );
    let json5_without = JsonOptions {
        trailing_commas: false,
        ..JsonOptions::json5()
    };
    assert_errors(
        &json5_without,
        &[
            ("{a:1,}", codes::EXPECT_KEY, (5, 6)),
            ("[1, /* c */]", codes::UNEXPECTED_TOKEN, (11, 12)),
        ],
    );
}

#[test]
fn a_comment_may_follow_a_trailing_comma_but_does_not_make_a_second_one_valid() {
    let options = JsonOptions::relaxed();
    for (input, len) in [
        ("[1, // c\n]", 3),
        ("[1, /* c */]", 3),
        ("[1 // c\n, // d\n]", 3),
        ("{\"a\":1, // c\n}", 4),
        ("{\"a\":1 /* x */ , /* y */ }", 4),
        ("{\"a\":1, // c\n\"b\":2, /* d */ }", 6),
        ("[\r\n  1,\r\n  2, // two\r\n]\r\n", 4),
    ] {
        assert_eq!(tokens_of(input, &options).len(), len, "{input:?}");
    }
    assert_errors(
        &options,
        &[
            ("[1,/**/,]", codes::UNEXPECTED_TOKEN, (7, 8)),
            ("[1, /**/ ,]", codes::UNEXPECTED_TOKEN, (9, 10)),
        ],
    );
}

#[test]
fn carriage_returns_are_whitespace_alone_and_before_line_feeds() {
    for (input, options, len) in [
        ("{\r\n\"a\"\r\n:\r\n1\r\n}", strict(), 4),
        ("{\"a\"\r:\r1\r}", strict(), 4),
        ("[1\r,\r2]", strict(), 4),
        ("[\r]", strict(), 2),
        ("\r1\r", strict(), 1),
        ("[1]\r\n\r\n", strict(), 3),
        ("\r\n1\r\n\r\n2\r\n", JsonOptions::ndjson(), 2),
        ("1\r2", JsonOptions::ndjson(), 2),
        ("[1]\r[2]", JsonOptions::ndjson(), 6),
        (
            "{\r\n  \"a\": 1, /* x\r\n y */\r\n}\r\n",
            JsonOptions::relaxed(),
            4,
        ),
        (
            "{\r\n  a: 'x\\\r\ny', // c\r\n  b: 0x1F,\r\n}\r\n",
            JsonOptions::json5(),
            6,
        ),
    ] {
        assert_eq!(tokens_of(input, &options).len(), len, "{input:?}");
    }
    // Inside a string a raw CR is a control character; only whitespace holds nothing.
    assert_errors(
        &strict(),
        &[
            ("\"a\rb\"", codes::CONTROL_CHARACTER, (2, 3)),
            ("\r", codes::UNEXPECTED_EOF, (1, 1)),
            ("\r\n", codes::UNEXPECTED_EOF, (2, 2)),
        ],
    );
}

fn json5_numbers_only() -> JsonOptions {
    JsonOptions {
        json5_numbers: true,
        ..strict()
    }
}

/// What each read makes of a number: `read_f64`, `read_i64`, `read_u64` (as text, or the
/// error's code), the text or typed value `read_number` hands out, and what the condensed
/// writer writes with non-finite numbers allowed as JSON5 literals.
#[derive(Debug, PartialEq)]
struct Reads {
    f64: String,
    i64: String,
    u64: String,
    number: String,
    written: String,
}

fn number_reads<S: sluice_json::Input>(open: impl Fn() -> JsonReader<S>) -> Reads {
    fn shown<T: std::fmt::Debug>(result: sluice_core::Result<T>) -> String {
        match result {
            Ok(value) => format!("{value:?}"),
            Err(err) => err.code().to_string(),
        }
    }
    let mut writer = sluice_json::JsonWriter::new(
        Vec::new(),
        sluice_json::WriterOptions {
            non_finite: sluice_json::NonFinite::Json5,
            ..sluice_json::WriterOptions::condensed()
        },
    );
    let written = sluice_core::pipe(&mut open(), &mut writer)
        .and_then(|()| writer.into_string())
        .unwrap_or_else(|err| err.code().to_string());
    Reads {
        f64: shown(open().read_f64()),
        i64: shown(open().read_i64()),
        u64: shown(open().read_u64()),
        number: shown(
            open()
                .read_number()
                .map(sluice_core::Number::to_owned_number),
        ),
        written,
    }
}

#[test]
fn json5_numbers_read_the_same_through_every_read_and_are_written_back_as_json() {
    // input | read_f64 | read_i64 | read_u64 | read_number | written ("range" and "integer"
    // stand for core/NumberOutOfRange and core/NumberNotInteger)
    const ROWS: &str = r#"
        +.5                 | 0.5                    | integer | integer             | Text("0.5", Float)    | 0.5
        -.5e3               | -500.0                 | -500    | range               | Text("-0.5e3", Float) | -0.5e3
        5.e2                | 500.0                  | 500     | 500                 | Text("5.0e2", Float)  | 5.0e2
        5.E+2               | 500.0                  | 500     | 500                 | Text("5.0E+2", Float) | 5.0E+2
        -5.                 | -5.0                   | -5      | range               | Text("-5.0", Float)   | -5.0
        +1e5                | 100000.0               | 100000  | 100000              | Text("1e5", Float)    | 1e5
        -.0                 | -0.0                   | 0       | 0                   | Text("-0.0", Float)   | -0.0
        +0x10               | 16.0                   | 16      | 16                  | U64(16)               | 16
        -0x10               | -16.0                  | -16     | range               | I64(-16)              | -16
        -0x0                | -0.0                   | 0       | 0                   | F64(-0.0)             | -0.0
        0x8000000000000000  | 9.223372036854776e18   | range   | 9223372036854775808 | U64(9223372036854775808) | 9223372036854775808
        -0x8000000000000001 | -9.223372036854776e18  | range   | range               | Text("-9223372036854775809", NegInteger) | -9223372036854775809
        0x10000000000000000 | 1.8446744073709552e19  | range   | range               | Text("18446744073709551616", Integer) | 18446744073709551616
        +Infinity           | inf                    | range   | range               | F64(inf)              | Infinity
        -Infinity           | -inf                   | range   | range               | F64(-inf)             | -Infinity
        -NaN                | NaN                    | integer | integer             | F64(NaN)              | NaN
    "#;
    let code = |cell: &str| match cell {
        "range" => core_codes::NUMBER_OUT_OF_RANGE.to_string(),
        "integer" => core_codes::NUMBER_NOT_INTEGER.to_string(),
        _ => cell.to_string(),
    };
    for row in ROWS.lines().filter(|line| !line.trim().is_empty()) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let [input, f64, i64, u64, number, written] = cells[..] else {
            panic!("{row}");
        };
        let expected = Reads {
            f64: f64.into(),
            i64: code(i64),
            u64: code(u64),
            number: number.into(),
            written: written.into(),
        };
        let slice = number_reads(|| JsonReader::from_str(input).with_options(json5_numbers_only()));
        assert_eq!(slice, expected, "{input}");
        for chunk in [1, 2, 3, 7] {
            let io = number_reads(|| {
                JsonReader::from_read(common::Trickle {
                    bytes: input.as_bytes(),
                    chunk,
                })
                .with_options(json5_numbers_only())
            });
            assert_eq!(io, expected, "{input}, {chunk}-byte reads");
        }
    }
    // `+NaN` and `-NaN` are NaN, as `NaN` is; a strict writer refuses it, like infinities.
    assert!(matches!(
        tokens_of("+NaN", &json5_numbers_only())[..],
        [Token::Number(OwnedNumber::F64(v))] if v.is_nan()
    ));
    let mut writer =
        sluice_json::JsonWriter::new(Vec::new(), sluice_json::WriterOptions::condensed());
    let err = sluice_core::pipe(
        &mut JsonReader::from_str("[-Infinity]").with_options(json5_numbers_only()),
        &mut writer,
    )
    .unwrap_err();
    assert_eq!(err.code(), codes::NON_FINITE_NUMBER);
}

/// Every read of the number `input` (read with the JSON5 preset) as text: `read_f64`,
/// `read_f32`, `read_i64`, `read_u64`, `read_u128`, `read_number`, then `skip` and `finish`;
/// a read that fails is its code and span.
fn every_read<S: sluice_json::Input>(open: impl Fn() -> JsonReader<S>) -> [String; 7] {
    fn shown<T: std::fmt::Debug>(result: sluice_core::Result<T>) -> String {
        match result {
            Ok(value) => format!("{value:?}"),
            Err(err) => {
                let span = err.span().map(|s| (s.start, s.end));
                format!("{} {span:?}", err.code())
            }
        }
    }
    let number = open()
        .read_number()
        .map(sluice_core::Number::to_owned_number);
    let mut skipped = open();
    let skip = skipped.skip().and_then(|()| skipped.finish());
    [
        shown(open().read_f64()),
        shown(open().read_f32()),
        shown(open().read_i64()),
        shown(open().read_u64()),
        shown(open().read_u128()),
        shown(number),
        shown(skip),
    ]
}

#[test]
fn every_json5_number_spelling_reads_alike_through_every_read_and_skip() {
    // input | read_f64 | read_f32 | read_i64 | read_u64 | read_u128 | read_number ("range"
    // and "integer" stand for core/NumberOutOfRange and core/NumberNotInteger over the whole
    // input); `skip` reads every one.
    const ROWS: &str = r#"
        +Infinity           | inf                   | inf          | range | range                | range                  | F64(inf)
        -Infinity           | -inf                  | -inf         | range | range                | range                  | F64(-inf)
        +NaN                | NaN                   | NaN          | integer | integer            | integer                | F64(NaN)
        0X1F                | 31.0                  | 31.0         | 31    | 31                   | 31                     | U64(31)
        -0x1F               | -31.0                 | -31.0        | -31   | range                | range                  | I64(-31)
        +0x1F               | 31.0                  | 31.0         | 31    | 31                   | 31                     | U64(31)
        0xFFFFFFFFFFFFFFFF  | 1.8446744073709552e19 | 1.8446744e19 | range | 18446744073709551615 | 18446744073709551615   | U64(18446744073709551615)
        0xFFFFFFFFFFFFFFFFFF | 4.722366482869645e21 | 4.7223665e21 | range | range                | 4722366482869645213695 | Text("4722366482869645213695", Integer)
        .5                  | 0.5                   | 0.5          | integer | integer            | integer                | Text("0.5", Float)
        5.                  | 5.0                   | 5.0          | 5     | 5                    | 5                      | Text("5.0", Float)
        5.e3                | 5000.0                | 5000.0       | 5000  | 5000                 | 5000                   | Text("5.0e3", Float)
        -.5                 | -0.5                  | -0.5         | integer | integer            | integer                | Text("-0.5", Float)
        +0                  | 0.0                   | 0.0          | 0     | 0                    | 0                      | Text("0", Integer)
        -0.                 | -0.0                  | -0.0         | 0     | 0                    | 0                      | Text("-0.0", Float)
    "#;
    let run = |input: &str| -> Vec<[String; 7]> {
        let mut runs = vec![every_read(|| {
            JsonReader::from_str(input).with_options(JsonOptions::json5())
        })];
        for chunk in [1, 2, 3] {
            runs.push(every_read(|| {
                JsonReader::new(
                    common::trickle_input(input.as_bytes(), chunk),
                    JsonOptions::json5(),
                )
            }));
        }
        runs
    };
    for row in ROWS.lines().filter(|line| !line.trim().is_empty()) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let [input, f64, f32, i64, u64, u128, number] = cells[..] else {
            panic!("{row}");
        };
        let whole = Some((0, input.len()));
        let cell = |cell: &str| match cell {
            "range" => format!("{} {whole:?}", core_codes::NUMBER_OUT_OF_RANGE),
            "integer" => format!("{} {whole:?}", core_codes::NUMBER_NOT_INTEGER),
            _ => cell.to_string(),
        };
        let expected = [f64, f32, i64, u64, u128, number, "()"].map(cell);
        for (path, reads) in run(input).into_iter().enumerate() {
            assert_eq!(reads, expected, "{input}, path {path}");
        }
    }
    // A malformed number fails every read and `skip` alike, over its whole word.
    for input in [
        "0x",
        "0x1.8",
        ".e3",
        "01",
        "00",
        "+-1",
        "++1",
        "1e+",
        "1_000",
        "Infinityx",
        "0x1G",
    ] {
        let error = format!("{} {:?}", codes::INVALID_NUMBER, Some((0, input.len())));
        for (path, reads) in run(input).into_iter().enumerate() {
            assert_eq!(
                reads,
                [(); 7].map(|()| error.clone()),
                "{input}, path {path}"
            );
        }
    }
}

#[test]
fn numbers_of_json_syntax_read_alike_under_json5_and_strict_json() {
    // JSON5 reads JSON's numbers through the same scan as strict JSON where their common
    // shape allows (which needs some bytes after the number: the padding), and through its
    // own scan elsewhere; every read agrees with strict JSON's on both ways.
    let numbers = [
        "0",
        "-0",
        "7",
        "-7",
        "0.0",
        "-0.0",
        "1.5",
        "-65.613616999999977",
        "123456789012345678",
        "12345678901234567890",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "1e5",
        "1E+5",
        "6.02e23",
        "1.5e-308",
        "1e400",
        "-1e-400",
        "4.9e-324",
        "0.1234567890123456789",
        "1.7976931348623157e308",
        "340282366920938463463374607431768211455",
        "3.4028236e38",
    ];
    for number in numbers {
        for padding in [0, 40] {
            let input = format!("{number}{}", " ".repeat(padding));
            let strict_reads = every_read(|| JsonReader::from_str(&input));
            let json5_reads =
                every_read(|| JsonReader::from_str(&input).with_options(JsonOptions::json5()));
            assert_eq!(json5_reads, strict_reads, "{input:?}");
            let trickled = every_read(|| {
                JsonReader::new(
                    common::trickle_input(input.as_bytes(), 3),
                    JsonOptions::json5(),
                )
            });
            assert_eq!(trickled, strict_reads, "{input:?}, 3-byte reads");
        }
        // In an array, as tokens, with the same spans for what follows.
        let input = format!("[{number}, {number}x, {}]", " ".repeat(40));
        let strict_outcome = outcome(read_slice(input.as_bytes(), &strict()));
        let json5_outcome = outcome(read_slice(input.as_bytes(), &JsonOptions::json5()));
        assert_eq!(json5_outcome, strict_outcome, "{input:?}");
    }
}

#[test]
fn a_minus_sign_before_nan_is_kept_as_the_sign_bit() {
    // JSON5 reads `-NaN` as ECMAScript's `-NaN`, a NaN; arithmetic ignores a NaN's sign, but
    // the token keeps it (as `-0x0` keeps the sign of zero), so a value written from it (a
    // MessagePack `f64`, a native field) keeps it too. `NaN` and `+NaN` are positive.
    for (input, negative) in [
        ("NaN", false),
        ("+NaN", false),
        ("-NaN", true),
        ("[-NaN, NaN]", true),
    ] {
        let tokens = tokens_of(input, &json5_numbers_only());
        let first = tokens
            .iter()
            .find_map(|token| match token {
                Token::Number(OwnedNumber::F64(v)) => Some(*v),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{input}: {tokens:?}"));
        assert!(first.is_nan(), "{input}");
        assert_eq!(first.is_sign_negative(), negative, "{input}");
    }
    for chunk in [1, 2, 3] {
        let mut reader = JsonReader::from_read(common::Trickle {
            bytes: b"-NaN",
            chunk,
        })
        .with_options(json5_numbers_only());
        let value = reader.read_f64().unwrap();
        assert!(
            value.is_nan() && value.is_sign_negative(),
            "{chunk}-byte reads"
        );
        reader.finish().unwrap();
    }
}

#[test]
fn a_malformed_json5_number_is_an_invalid_number_over_its_whole_word() {
    assert_errors(
        &json5_numbers_only(),
        &[
            ("0x", codes::INVALID_NUMBER, (0, 2)),
            ("0X", codes::INVALID_NUMBER, (0, 2)),
            ("0xG", codes::INVALID_NUMBER, (0, 3)),
            ("[0x1g]", codes::INVALID_NUMBER, (1, 5)),
            ("0x1.5", codes::INVALID_NUMBER, (0, 5)),
            ("0x1F.", codes::INVALID_NUMBER, (0, 5)),
            ("0x-1", codes::INVALID_NUMBER, (0, 4)),
            ("00x1", codes::INVALID_NUMBER, (0, 4)),
            ("0b1", codes::INVALID_NUMBER, (0, 3)),
            ("01", codes::INVALID_NUMBER, (0, 2)),
            ("-01", codes::INVALID_NUMBER, (0, 3)),
            ("+01", codes::INVALID_NUMBER, (0, 3)),
            (".e1", codes::INVALID_NUMBER, (0, 3)),
            ("+.e1", codes::INVALID_NUMBER, (0, 4)),
            (".5e", codes::INVALID_NUMBER, (0, 3)),
            ("5.e", codes::INVALID_NUMBER, (0, 3)),
            ("5.e+", codes::INVALID_NUMBER, (0, 4)),
            ("5..", codes::INVALID_NUMBER, (0, 3)),
            (".5.", codes::INVALID_NUMBER, (0, 3)),
            ("[5.x]", codes::INVALID_NUMBER, (1, 4)),
            ("++1", codes::INVALID_NUMBER, (0, 3)),
            ("+-1", codes::INVALID_NUMBER, (0, 3)),
            ("-+1", codes::INVALID_NUMBER, (0, 3)),
            ("+.", codes::INVALID_NUMBER, (0, 2)),
            ("Infinityx", codes::INVALID_NUMBER, (0, 9)),
            ("[Infinity1]", codes::INVALID_NUMBER, (1, 10)),
            ("[Infinity_]", codes::INVALID_NUMBER, (1, 10)),
            ("[NaN$]", codes::INVALID_NUMBER, (1, 5)),
            ("-Infinit", codes::INVALID_NUMBER, (0, 8)),
            ("+inf", codes::INVALID_NUMBER, (0, 4)),
            // A sign is part of the number: no space after it.
            ("[- Infinity]", codes::INVALID_NUMBER, (1, 2)),
            ("[ + 1]", codes::INVALID_NUMBER, (2, 3)),
            // The words are case sensitive.
            ("infinity", codes::UNEXPECTED_TOKEN, (0, 8)),
            ("nan", codes::UNEXPECTED_TOKEN, (0, 3)),
        ],
    );
}

#[test]
fn a_capitalized_word_that_starts_like_no_json5_number_is_an_unexpected_token() {
    // `None` or `NULL` in a config file is a word out of place, as `True` and `nul` are, and
    // as strict JSON reports it; only a word that agrees with `Infinity` or `NaN` as far as
    // both go, or one with a sign, is a number misspelt.
    for options in [json5_numbers_only(), JsonOptions::json5(), strict()] {
        assert_errors(
            &options,
            &[
                ("[None]", codes::UNEXPECTED_TOKEN, (1, 5)),
                ("[NULL]", codes::UNEXPECTED_TOKEN, (1, 5)),
                ("{\"a\": Nil}", codes::UNEXPECTED_TOKEN, (6, 9)),
                ("[INFINITY]", codes::UNEXPECTED_TOKEN, (1, 9)),
                ("[Nan]", codes::UNEXPECTED_TOKEN, (1, 4)),
                ("[Infinite, 1]", codes::UNEXPECTED_TOKEN, (1, 9)),
                ("Null", codes::UNEXPECTED_TOKEN, (0, 4)),
                ("[True]", codes::UNEXPECTED_TOKEN, (1, 5)),
            ],
        );
    }
    assert_errors(
        &json5_numbers_only(),
        &[
            ("[Inf]", codes::INVALID_NUMBER, (1, 4)),
            ("[N]", codes::INVALID_NUMBER, (1, 2)),
            ("[Na]", codes::INVALID_NUMBER, (1, 3)),
            ("[NaNa]", codes::INVALID_NUMBER, (1, 5)),
            ("[-None]", codes::INVALID_NUMBER, (1, 6)),
            ("[+NULL]", codes::INVALID_NUMBER, (1, 6)),
        ],
    );
    // Several values: a number does not end at a sign or a second point.
    let several = JsonOptions {
        multiple_values: true,
        ..json5_numbers_only()
    };
    assert_errors(
        &several,
        &[
            ("1+1", codes::INVALID_NUMBER, (0, 3)),
            ("5..5", codes::INVALID_NUMBER, (0, 4)),
            ("InfinityNaN", codes::INVALID_NUMBER, (0, 11)),
        ],
    );
    assert_eq!(
        tokens_of("5. .5 +1 Infinity NaN 0x1 -0x2", &several).len(),
        7
    );
}

#[test]
fn without_the_json5_numbers_switch_each_spelling_is_refused_where_it_stands() {
    let json5_without = JsonOptions {
        json5_numbers: false,
        ..JsonOptions::json5()
    };
    for options in [strict(), json5_without] {
        assert_errors(
            &options,
            &[
                ("+1", codes::UNEXPECTED_TOKEN, (0, 2)),
                ("[.5]", codes::UNEXPECTED_TOKEN, (1, 3)),
                ("[5.]", codes::INVALID_NUMBER, (1, 3)),
                ("[5.e2]", codes::INVALID_NUMBER, (1, 5)),
                ("[0x1]", codes::INVALID_NUMBER, (1, 4)),
                ("[Infinity]", codes::UNEXPECTED_TOKEN, (1, 9)),
                ("[+Infinity]", codes::UNEXPECTED_TOKEN, (1, 10)),
                ("[-Infinity]", codes::INVALID_NUMBER, (1, 10)),
                ("[NaN]", codes::UNEXPECTED_TOKEN, (1, 4)),
                ("[-NaN]", codes::INVALID_NUMBER, (1, 5)),
            ],
        );
    }
}

fn escapes_only() -> JsonOptions {
    JsonOptions {
        json5_escapes: true,
        ..strict()
    }
}

#[test]
fn json5_escapes_decode_line_breaks_of_every_kind_and_the_other_escapes() {
    for (input, text) in [
        ("\"\\'\"", "'"),
        ("\"\\\n\"", ""),
        ("\"\\\r\n\"", ""),
        ("\"\\\r\"", ""),
        ("\"\\\u{2028}\"", ""),
        ("\"\\\u{2029}\"", ""),
        // Two continuations in a row, CR then LF each escaped.
        ("\"\\\r\\\n\"", ""),
        ("\"\\xff\\xFF\\x00\"", "\u{ff}\u{ff}\0"),
        ("\"\\0a\"", "\0a"),
        ("\"\\a\\ \\\u{1f600}\"", "a \u{1f600}"),
    ] {
        assert_eq!(
            tokens_of(input, &escapes_only()),
            [Token::String(text.into())],
            "{input:?}"
        );
    }
    // A continuation is the line break only: a second raw one is a control character.
    assert_errors(
        &escapes_only(),
        &[
            ("\"\\\n\r\"", codes::CONTROL_CHARACTER, (3, 4)),
            ("\"\\\r\r\"", codes::CONTROL_CHARACTER, (3, 4)),
            ("\"\\00\"", codes::INVALID_ESCAPE, (1, 3)),
            ("\"\\09\"", codes::INVALID_ESCAPE, (1, 3)),
            ("\"\\8\"", codes::INVALID_ESCAPE, (1, 3)),
            ("\"\\9\"", codes::INVALID_ESCAPE, (1, 3)),
            ("\"\\x\"", codes::INVALID_ESCAPE, (1, 4)),
            ("\"\\xG1\"", codes::INVALID_ESCAPE, (1, 4)),
            ("\"\\u{41}\"", codes::INVALID_ESCAPE, (1, 4)),
            // The input ends inside the continuation or right after it.
            ("\"\\\r", codes::UNCLOSED_STRING, (0, 3)),
            ("\"\\\r\n", codes::UNCLOSED_STRING, (0, 4)),
        ],
    );
}

#[test]
fn without_the_json5_escapes_switch_each_escape_is_refused_over_the_escape() {
    let json5_without = JsonOptions {
        json5_escapes: false,
        ..JsonOptions::json5()
    };
    for options in [strict(), json5_without] {
        assert_errors(
            &options,
            &[
                ("\"\\'\"", codes::INVALID_ESCAPE, (1, 3)),
                ("\"\\\n\"", codes::INVALID_ESCAPE, (1, 3)),
                ("\"ab\\\r\ncd\"", codes::INVALID_ESCAPE, (3, 5)),
                ("\"\\x41\"", codes::INVALID_ESCAPE, (1, 3)),
                ("\"\\0\"", codes::INVALID_ESCAPE, (1, 3)),
                ("\"\\v\"", codes::INVALID_ESCAPE, (1, 3)),
                ("\"\\\u{2028}\"", codes::INVALID_ESCAPE, (1, 5)),
                ("\"\\\u{e9}\"", codes::INVALID_ESCAPE, (1, 4)),
            ],
        );
    }
}

fn single_quotes_only() -> JsonOptions {
    JsonOptions {
        single_quotes: true,
        ..strict()
    }
}

#[test]
fn single_quoted_strings_hold_double_quotes_and_need_json5_escapes_for_their_own() {
    for (input, text) in [
        ("''", ""),
        ("'a\"'", "a\""),
        ("'\\\"'", "\""),
        ("'\\u0027'", "'"),
    ] {
        assert_eq!(
            tokens_of(input, &single_quotes_only()),
            [Token::String(text.into())],
            "{input:?}"
        );
    }
    assert_errors(
        &single_quotes_only(),
        &[
            // `\'` is a JSON5 escape: with single quotes alone, in either quote.
            ("'\\''", codes::INVALID_ESCAPE, (1, 3)),
            ("\"\\'\"", codes::INVALID_ESCAPE, (1, 3)),
            // Two quotes in a row close one string and open the next.
            ("'it''s'", codes::TRAILING_TOKEN, (4, 7)),
            ("['it''s']", codes::EXPECT_COMMA, (5, 8)),
            ("'", codes::UNCLOSED_STRING, (0, 1)),
            ("'\\", codes::UNCLOSED_STRING, (0, 2)),
            ("'\t'", codes::CONTROL_CHARACTER, (1, 2)),
            ("'a\nb'", codes::CONTROL_CHARACTER, (2, 3)),
            ("{'a' 1}", codes::EXPECT_COLON, (5, 6)),
            ("{'a':1 'b':2}", codes::EXPECT_COMMA, (7, 10)),
        ],
    );
    assert_errors(
        &strict(),
        &[
            ("'x'", codes::UNEXPECTED_TOKEN, (0, 1)),
            ("{'a':1}", codes::EXPECT_KEY, (1, 2)),
        ],
    );
}

#[test]
fn identifier_keys_take_reserved_words_and_comments_around_them() {
    let keys_only = JsonOptions {
        unquoted_keys: true,
        ..strict()
    };
    assert_eq!(
        keys_of(
            "{true:1, null:2, false: 3, Infinity: 4, NaN: 5}",
            &keys_only
        ),
        ["true", "null", "false", "Infinity", "NaN"]
    );
    let with_comments = JsonOptions {
        comments: true,
        ..keys_only.clone()
    };
    for input in ["{a/**/:1}", "{a//x\n:1}", "{/**/a:1}", "{a /* c */ : 1}"] {
        assert_eq!(keys_of(input, &with_comments), ["a"], "{input:?}");
    }
    assert_errors(&with_comments, &[("{a/:1}", codes::EXPECT_COLON, (2, 3))]);
    assert_errors(
        &keys_only,
        &[
            ("{a}", codes::EXPECT_COLON, (2, 3)),
            ("{a:}", codes::UNEXPECTED_TOKEN, (3, 4)),
            ("{a", codes::UNEXPECTED_EOF, (2, 2)),
            ("{\\u0061", codes::UNEXPECTED_EOF, (7, 7)),
            // Identifiers are keys only, never values.
            ("[a]", codes::UNEXPECTED_TOKEN, (1, 2)),
            ("a", codes::UNEXPECTED_TOKEN, (0, 1)),
            // JSON5 whitespace after the key needs its own switch.
            ("{a\u{a0}:1}", codes::EXPECT_COLON, (2, 4)),
        ],
    );
}

#[test]
fn without_json5_whitespace_each_space_is_refused_with_the_code_of_its_place() {
    assert_errors(
        &strict(),
        &[
            ("[\u{a0}1]", codes::UNEXPECTED_TOKEN, (1, 3)),
            ("{\u{a0}\"a\":1}", codes::EXPECT_KEY, (1, 3)),
            ("{\"a\"\u{a0}:1}", codes::EXPECT_COLON, (4, 6)),
            ("{\"a\":\u{a0}1}", codes::UNEXPECTED_TOKEN, (5, 7)),
            ("{\"a\":1\u{a0}}", codes::EXPECT_COMMA, (6, 8)),
            ("[1]\u{a0}", codes::TRAILING_TOKEN, (3, 5)),
            ("1\u{2028}", codes::TRAILING_TOKEN, (1, 4)),
            ("\u{b}1", codes::UNEXPECTED_TOKEN, (0, 1)),
            ("[1\u{c}]", codes::EXPECT_COMMA, (2, 3)),
            // A byte order mark is skipped at the very start only.
            ("\u{feff}\u{feff}1", codes::UNEXPECTED_TOKEN, (3, 6)),
            ("1\u{feff}", codes::TRAILING_TOKEN, (1, 4)),
        ],
    );
    assert_errors(
        &comments_only(),
        &[("/*c*/\u{feff}1", codes::UNEXPECTED_TOKEN, (5, 8))],
    );
    assert_errors(
        &JsonOptions::ndjson(),
        &[("[1]\u{feff}[2]", codes::UNEXPECTED_TOKEN, (3, 6))],
    );
    // With it, a byte order mark is whitespace anywhere.
    let whitespace = JsonOptions {
        json5_whitespace: true,
        ..strict()
    };
    for input in ["\u{feff}\u{feff}1", "1\u{feff}", "\u{feff}1\u{feff}"] {
        assert_eq!(tokens_of(input, &whitespace).len(), 1, "{input:?}");
    }
    assert_eq!(tokens_of("/*c*/\u{feff}1", &JsonOptions::json5()).len(), 1);
}

#[test]
fn a_json5_space_cut_short_is_a_stray_byte_on_every_input_path() {
    // The first bytes of U+2028, U+3000, U+00A0 or U+1680 without the rest.
    let cases: [(&[u8], sluice_core::ErrorCode, (usize, usize)); 5] = [
        (b"[1]\xE2\x80", codes::TRAILING_TOKEN, (3, 4)),
        (b"[1]\xC2", codes::TRAILING_TOKEN, (3, 4)),
        (b"[1\xE3\x80]", codes::EXPECT_COMMA, (2, 3)),
        (b"[1\xC2]", codes::EXPECT_COMMA, (2, 3)),
        (b"[1,\xE1\x9A", codes::UNEXPECTED_TOKEN, (3, 4)),
    ];
    let options = JsonOptions::json5();
    for (input, code, (start, end)) in cases {
        let err = read_slice(input, &options).expect_err("a cut character");
        assert_eq!(
            (err.code(), err.span()),
            (code, Some(Span::new(start, end))),
            "{input:?}"
        );
        for chunk in [1, 2, 3, 7] {
            assert_eq!(
                outcome(read_trickle(input, chunk, &options)),
                outcome(read_slice(input, &options)),
                "{input:?}, {chunk}-byte reads"
            );
            assert_eq!(
                outcome(read_windowed(input, chunk, chunk + 1, &options)),
                outcome(read_slice(input, &options)),
                "{input:?}, {chunk}-byte reads into a small window"
            );
        }
    }
}

#[test]
fn a_scalar_root_is_refused_by_its_first_byte_whatever_follows() {
    let options = JsonOptions {
        scalar_root: false,
        ..JsonOptions::json5()
    };
    assert_errors(
        &options,
        &[
            // A malformed scalar is still a scalar where a container must stand.
            ("tru", codes::SCALAR_ROOT, (0, 3)),
            ("-", codes::SCALAR_ROOT, (0, 1)),
            ("0x", codes::SCALAR_ROOT, (0, 2)),
            ("\"abc", codes::SCALAR_ROOT, (0, 1)),
            ("'abc", codes::SCALAR_ROOT, (0, 1)),
            // After comments and whitespace, at the scalar.
            ("/* c */ 1", codes::SCALAR_ROOT, (8, 9)),
            ("\u{feff}1", codes::SCALAR_ROOT, (3, 4)),
            ("\"abc\" [1]", codes::SCALAR_ROOT, (0, 5)),
        ],
    );
    assert_eq!(tokens_of("/* c */ [1] // c", &options).len(), 3);
    // A second root value: a scalar one is refused too.
    let several = JsonOptions {
        multiple_values: true,
        ..options
    };
    assert_errors(&several, &[("[1] 2", codes::SCALAR_ROOT, (4, 5))]);
    assert_eq!(tokens_of("[1] {}", &several).len(), 5);
}

#[test]
fn max_depth_counts_containers_whatever_stands_between_them() {
    let depth = |max_depth| JsonOptions {
        max_depth,
        ..JsonOptions::json5()
    };
    assert_eq!(tokens_of("1", &depth(0)).len(), 1);
    assert_eq!(tokens_of("[/**/[1,],]", &depth(2)).len(), 5);
    assert_errors(
        &depth(0),
        &[
            ("[]", codes::DEPTH_EXCEEDED, (0, 1)),
            ("/* c */ {}", codes::DEPTH_EXCEEDED, (8, 9)),
        ],
    );
    assert_errors(
        &depth(1),
        &[
            ("[/**/[1,],]", codes::DEPTH_EXCEEDED, (5, 6)),
            ("{a: {}}", codes::DEPTH_EXCEEDED, (4, 5)),
        ],
    );
    // No limit at all reads, without reserving anything for it.
    assert_eq!(tokens_of("[[{a: [1]}]]", &depth(usize::MAX)).len(), 10);
}

#[test]
fn every_spelling_of_a_key_is_the_same_key_for_duplicate_detection() {
    // Small objects (a filter per key) and large ones (a hash index): the second spelling
    // is the duplicate, spanned whole.
    for before in [0, 70] {
        let members: String = (0..before).map(|i| format!("k{i}: {i}, ")).collect();
        for (first, second) in [
            ("\"a\"", "'a'"),
            ("a", "\"a\""),
            ("'a'", "\\u0061"),
            ("\"\\x41\"", "A"),
            ("'a\\\nb'", "ab"),
            ("'\\a'", "a"),
            ("\"\\u00e9\"", "\u{e9}"),
        ] {
            let input = format!("{{{first}: 0, {members}{second}: 1}}");
            let start = input.rfind(second).unwrap_or_default();
            assert_eq!(
                error_of(&input, &JsonOptions::json5()),
                (
                    codes::DUPLICATE_KEY,
                    Some(Span::new(start, start + second.len()))
                ),
                "{first} then {second}, after {before} members"
            );
            let last_wins = JsonOptions {
                duplicate_keys: DuplicateKeys::LastWins,
                ..JsonOptions::json5()
            };
            assert!(read(&input, &last_wins).is_ok(), "{input}");
        }
    }
}

/// Pieces of relaxed and broken JSON that documents are made of, for the property below.
const PIECES: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    " ",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "1",
    "-1",
    "1.5",
    "0",
    "1e3",
    "+1",
    ".5",
    "5.",
    "0x1F",
    "-0x10",
    "Infinity",
    "-Infinity",
    "NaN",
    "+NaN",
    "true",
    "null",
    "\"a\"",
    "\"b\"",
    "'c'",
    "\"\t\"",
    "'d\\'e'",
    "\"\\x41\"",
    "\"\\\n\"",
    "\"\\\r\n\"",
    "\"\\0\"",
    "key",
    "k\\u0065y",
    "\u{e9}",
    "// c\n",
    "// c\r\n",
    "// c\r",
    "/* c */",
    "/**/",
    "\u{a0}",
    "\u{feff}",
    "\u{2028}",
    "\u{3000}",
    "\u{b}",
    "/",
    "*",
    "\\",
    "x",
    "\"",
    "'",
    "{\"a\":",
    "{a:",
    "{'a':",
    "[1,",
    ",]",
    ",}",
];

/// The options whose switches are the bits of `bits`, in the order of the fields.
fn switches(bits: u16) -> JsonOptions {
    let on = |bit: u16| bits & (1 << bit) != 0;
    JsonOptions {
        comments: on(0),
        trailing_commas: on(1),
        multiple_values: on(2),
        scalar_root: on(3),
        unquoted_keys: on(4),
        single_quotes: on(5),
        json5_numbers: on(6),
        json5_escapes: on(7),
        json5_whitespace: on(8),
        json5_control_characters: on(10),
        max_depth: 128,
        duplicate_keys: if on(9) {
            DuplicateKeys::LastWins
        } else {
            DuplicateKeys::Error
        },
    }
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 1500,
        ..proptest::test_runner::Config::default()
    })]

    /// Each switch only adds syntax: a document read with a switch off reads as the same
    /// tokens with it on. The one exception is by design: with comments, JSON5 whitespace
    /// ends a line comment at U+2028, so what follows it is read. And every input path
    /// gives the slice's tokens or error, code and span.
    #[test]
    fn a_switch_turned_on_keeps_every_document_it_did_not_need(
        pieces in proptest::collection::vec(0..PIECES.len(), 1..14),
        bits in 0u16..2048,
    ) {
        let text: String = pieces.iter().map(|&i| PIECES[i]).collect();
        let options = switches(bits);
        let slice = outcome(read_slice(text.as_bytes(), &options));
        for chunk in [1, 2, 3, 7] {
            proptest::prop_assert_eq!(
                &outcome(read_trickle(text.as_bytes(), chunk, &options)),
                &slice,
                "{:?}, {}-byte reads", text, chunk
            );
            proptest::prop_assert_eq!(
                &outcome(read_windowed(text.as_bytes(), chunk, chunk + 1, &options)),
                &slice,
                "{:?}, {}-byte reads into a small window", text, chunk
            );
        }
        if let Ok(tokens) = &slice {
            for bit in (0..11).filter(|bit| bits & (1 << bit) == 0) {
                if bit == 8 && options.comments && text.contains('\u{2028}') {
                    continue;
                }
                let wider = outcome(read_slice(text.as_bytes(), &switches(bits | (1 << bit))));
                proptest::prop_assert_eq!(wider.as_ref(), Ok(tokens), "{:?}, switch {} on", text, bit);
            }
        }
    }
}

/// `input` read with the JSON5 preset (from a slice, and through `io::Read` 1, 2 and 3 bytes a
/// read) and piped into a condensed writer with `non_finite` (by `pipe`, and by a
/// `PipeVisitor` for the slice): the text written, or the error's code and span; every
/// path must give the same.
#[track_caller]
fn piped_json5(
    input: &str,
    non_finite: sluice_json::NonFinite,
) -> Result<String, (String, Option<Span>)> {
    fn pipe_into<S: sluice_json::Input>(
        mut reader: JsonReader<S>,
        non_finite: sluice_json::NonFinite,
        visitor: bool,
    ) -> Result<String, (String, Option<Span>)> {
        let options = sluice_json::WriterOptions {
            non_finite,
            ..sluice_json::WriterOptions::condensed()
        };
        let mut writer = sluice_json::JsonWriter::new(Vec::new(), options);
        let piped = if visitor {
            sluice_core::PipeVisitor::new().run(&mut reader, &mut writer)
        } else {
            sluice_core::pipe(&mut reader, &mut writer)
        };
        piped
            .and_then(|()| reader.finish())
            .and_then(|()| writer.into_string())
            .map_err(|err| (err.code().to_string(), err.span()))
    }
    let open = || JsonReader::from_str(input).with_options(JsonOptions::json5());
    let slice = pipe_into(open(), non_finite, false);
    assert_eq!(
        pipe_into(open(), non_finite, true),
        slice,
        "{input:?}, visitor"
    );
    for chunk in [1, 2, 3] {
        let reader = JsonReader::new(
            common::trickle_input(input.as_bytes(), chunk),
            JsonOptions::json5(),
        );
        assert_eq!(
            pipe_into(reader, non_finite, false),
            slice,
            "{input:?}, {chunk}-byte reads"
        );
    }
    slice
}

#[test]
fn a_json5_document_piped_to_a_json_writer_is_json_with_every_value_kept() {
    // Every JSON5 spelling of a finite value has a JSON spelling of the same value: the
    // output is JSON (serde_json reads it) whatever the writer's non-finite setting, and
    // hexadecimal integers beyond 64 bits are written with every digit, not rounded.
    let input = "// settings\n{\n  unquoted: 'single \"quoted\"',\n  'single key': \"double\",\n  \
                 $_: 'a\\x41\\u0042\\v\\0 \\\n  continued',\n  hex: 0x1F, neg_hex: -0x1F, plus_hex: +0x1F,\n  \
                 wide: 0xFFFFFFFFFFFFFFFFFF, neg_wide: -0xFFFFFFFFFFFFFFFFFF,\n  \
                 plus: +1, lead: .5, trail: 5., both: -.5e3, exp: 5.e3, zero: -0x0,\n  \
                 list: [1, 2,], /* done */\n}\n";
    let expected = r#"{"unquoted":"single \"quoted\"","single key":"double","$_":"aAB\u000b\u0000   continued","hex":31,"neg_hex":-31,"plus_hex":31,"wide":4722366482869645213695,"neg_wide":-4722366482869645213695,"plus":1,"lead":0.5,"trail":5.0,"both":-0.5e3,"exp":5.0e3,"zero":-0.0,"list":[1,2]}"#;
    for non_finite in [
        sluice_json::NonFinite::Error,
        sluice_json::NonFinite::Null,
        sluice_json::NonFinite::Json5,
    ] {
        let written = piped_json5(input, non_finite).unwrap();
        assert_eq!(written, expected, "{non_finite:?}");
        let value: serde_json::Value = serde_json::from_str(&written).unwrap();
        assert!(value["wide"].is_number() && value["neg_wide"].is_number());
        assert_eq!(value["$_"], "aAB\u{b}\u{0}   continued");
    }
    // `Infinity` and `NaN` have no JSON spelling: refused over the literal, written as
    // `null` (the value lost, as the writer's option says), or as JSON5 literals that the
    // JSON5 reader reads back to the same values (a NaN's sign is not written).
    let input = "{inf: +Infinity, ninf: -Infinity, nan: NaN, nnan: -NaN}";
    assert_eq!(
        piped_json5(input, sluice_json::NonFinite::Error),
        Err((codes::NON_FINITE_NUMBER.to_string(), Some(Span::new(6, 15))))
    );
    let nulls = piped_json5(input, sluice_json::NonFinite::Null).unwrap();
    assert_eq!(nulls, r#"{"inf":null,"ninf":null,"nan":null,"nnan":null}"#);
    serde_json::from_str::<serde_json::Value>(&nulls).unwrap();
    let literals = piped_json5(input, sluice_json::NonFinite::Json5).unwrap();
    assert_eq!(
        literals,
        r#"{"inf":Infinity,"ninf":-Infinity,"nan":NaN,"nnan":NaN}"#
    );
    let back = tokens_of(&literals, &JsonOptions::json5());
    assert_eq!(back[2], Token::Number(OwnedNumber::F64(f64::INFINITY)));
    assert_eq!(back[4], Token::Number(OwnedNumber::F64(f64::NEG_INFINITY)));
    assert!(matches!(back[6], Token::Number(OwnedNumber::F64(v)) if v.is_nan()));
}

#[test]
fn a_json5_document_of_comments_and_json5_whitespace_alone_holds_no_value() {
    // A line comment may end at U+2028 or U+2029, and JSON5 whitespace may stand around
    // comments; neither makes a value. One root: the input ends where a value is due. Several
    // values: zero of them.
    let several = JsonOptions {
        multiple_values: true,
        ..JsonOptions::json5()
    };
    for input in [
        "// c\u{2028}",
        "\u{feff}/* a */\u{a0}// b\u{2029}\u{3000}",
        "/* \u{2028} */",
        "\u{b}//\u{2029}//\u{2028}",
    ] {
        assert_errors(
            &JsonOptions::json5(),
            &[(input, codes::UNEXPECTED_EOF, (input.len(), input.len()))],
        );
        assert_eq!(tokens_of(input, &several), [], "{input:?}");
    }
}
