//! Every relaxation, each on its own: comments (in every position, with CRLF), trailing
//! commas, several root values, scalar roots, and the JSON5 items.

mod common;

use common::{outcome, read_slice, read_trickle};
use sluice_core::{Entry, NumberHint, OwnedNumber, Reader, Span, Token, codes as core_codes};
use sluice_json::{DuplicateKeys, JsonOptions, JsonReader, codes};

fn strict() -> JsonOptions {
    JsonOptions::strict()
}

/// Reads `input` on the slice path and two `io::Read` paths; they must agree.
#[track_caller]
fn read(input: &str, options: &JsonOptions) -> sluice_core::Result<Vec<Token>> {
    let slice = read_slice(input.as_bytes(), options);
    for chunk in [1, 5] {
        assert_eq!(
            outcome(read_trickle(input.as_bytes(), chunk, options)),
            outcome(read_slice(input.as_bytes(), options)),
            "{input:?}, {chunk}-byte reads"
        );
    }
    slice
}

#[track_caller]
fn rejected(input: &str, options: &JsonOptions) -> sluice_core::ErrorCode {
    read(input, options).expect_err(input).code()
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
    assert_eq!(rejected(commented, &strict()), codes::UNEXPECTED_TOKEN);
    // Unclosed block comment, a lone slash, a comment inside a string is text.
    assert_eq!(rejected("[1 /* open", &options), codes::UNCLOSED_COMMENT);
    assert_eq!(rejected("[1 / 2]", &options), codes::EXPECT_COMMA);
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
    assert_eq!(rejected("[1,]", &strict()), codes::UNEXPECTED_TOKEN);
    assert_eq!(rejected("[,]", &options), codes::UNEXPECTED_TOKEN);
    assert_eq!(rejected("[1,,]", &options), codes::UNEXPECTED_TOKEN);
    assert_eq!(rejected("{,}", &options), codes::EXPECT_KEY);
    assert_eq!(rejected("{\"a\":1,,}", &options), codes::EXPECT_KEY);
}

#[test]
fn several_root_values() {
    let options = JsonOptions::ndjson();
    let tokens = read("1 \"two\"[3]{}\n\nnull", &options).unwrap();
    assert_eq!(tokens.len(), 8);
    assert_eq!(read("", &options).unwrap(), vec![]);
    assert_eq!(read(" \n ", &options).unwrap(), vec![]);
    assert_eq!(rejected("1 2", &strict()), codes::TRAILING_TOKEN);
    assert_eq!(rejected("[1] [", &options), codes::UNEXPECTED_EOF);
    // No whitespace is needed where two values do not run together; where they would, the
    // run is one token (`12` is one number, `truefalse` no word at all).
    assert_eq!(
        read("[1][2]\"a\"\"b\"1[2]true{}", &options).unwrap().len(),
        15
    );
    assert_eq!(read("12", &options).unwrap().len(), 1);
    assert_eq!(rejected("truefalse", &options), codes::UNEXPECTED_TOKEN);
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
        assert_eq!(rejected(scalar, &options), codes::SCALAR_ROOT, "{scalar}");
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
    assert_eq!(rejected("{1a: 1}", &options), codes::EXPECT_KEY);
    assert_eq!(rejected("{a: 1}", &strict()), codes::EXPECT_KEY);
    assert_eq!(rejected("{a b: 1}", &options), codes::EXPECT_COLON);
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
    assert_eq!(rejected(r#"'it\'s'"#, &options), codes::INVALID_ESCAPE);
    let both = JsonOptions {
        json5_escapes: true,
        ..options.clone()
    };
    assert_eq!(
        read(r#"'it\'s'"#, &both).unwrap(),
        vec![Token::String("it's".into())]
    );
    assert_eq!(rejected("'x'", &strict()), codes::UNEXPECTED_TOKEN);
    assert_eq!(rejected("'open", &options), codes::UNCLOSED_STRING);
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
        assert_eq!(rejected(bad, &options), codes::INVALID_NUMBER, "{bad}");
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
    for json5 in ["0x1", "+1", ".5", "5.", "Infinity", "NaN"] {
        assert!(read(json5, &strict()).is_err(), "{json5}");
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
    assert_eq!(rejected(input, &strict()), codes::INVALID_ESCAPE);
    assert_eq!(rejected(r#""\1""#, &options), codes::INVALID_ESCAPE);
    assert_eq!(rejected(r#""\x4""#, &options), codes::INVALID_ESCAPE);
    assert_eq!(rejected(r#""\01""#, &options), codes::INVALID_ESCAPE);
    // A raw line break is still not allowed inside a string.
    assert_eq!(rejected("\"a\nb\"", &options), codes::CONTROL_CHARACTER);
    // A control character after a backslash stands for itself, as any other character.
    assert_eq!(
        read("\"\\\t\\\u{1}\\\u{7f}\\\u{85}\"", &options).unwrap(),
        vec![Token::String("\t\u{1}\u{7f}\u{85}".into())]
    );
    assert_eq!(rejected("\"\\\t\"", &strict()), codes::INVALID_ESCAPE);
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
        assert_eq!(rejected(&stray, &json5), codes::TRAILING_TOKEN, "{stray:?}");
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
    assert_eq!(rejected("[\u{a0}1]", &strict()), codes::UNEXPECTED_TOKEN);
}

#[test]
fn the_json5_preset_reads_a_json5_document() {
    let doc = "// JSON5\n{\n  unquoted: 'and you can quote me on that',\n  singleQuotes: 'I can use \"double quotes\" here',\n  lineBreaks: \"Look, Mom! \\\nNo \\\\n's!\",\n  hexadecimal: 0xdecaf,\n  leadingDecimalPoint: .8675309, andTrailing: 8675309.,\n  positiveSign: +1,\n  trailingComma: 'in objects', andIn: ['arrays',],\n  \"backwardsCompatible\": \"with JSON\",\n}\n";
    let tokens = read(doc, &JsonOptions::json5()).unwrap();
    assert!(tokens.contains(&Token::String("Look, Mom! No \\n's!".into())));
    assert!(tokens.contains(&Token::Number(OwnedNumber::U64(0xdecaf))));
    assert!(tokens.contains(&text_number("0.8675309", NumberHint::Float)));
    assert!(tokens.contains(&text_number("8675309.0", NumberHint::Float)));
    assert!(read(doc, &JsonOptions::relaxed()).is_err());
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
        rejected(r#"{"a":1,"a":2}"#, &strict()),
        codes::DUPLICATE_KEY
    );
    // Same key in sibling and nested objects is fine.
    assert!(read(r#"{"a":{"a":1},"b":{"a":2}}"#, &strict()).is_ok());
    // Escaped and plain spellings of one key are the same key.
    assert_eq!(
        rejected(r#"{"a":1,"\u0061":2}"#, &strict()),
        codes::DUPLICATE_KEY
    );
}

#[test]
fn relaxed_preset_is_comments_and_trailing_commas() {
    let options = JsonOptions::relaxed();
    let tokens = read("/* c */ [1, 2, ] // x", &options).unwrap();
    assert_eq!(tokens.len(), 4);
    assert_eq!(rejected("{a: 1}", &options), codes::EXPECT_KEY);
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
    for input in ["'x'", "Infinity", "NaN", "+1", ".5"] {
        assert_eq!(
            rejected(input, &strict_root),
            codes::UNEXPECTED_TOKEN,
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
