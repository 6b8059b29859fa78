//! Every relaxation, each on its own: comments (in every position, with CRLF), trailing
//! commas, several root values, scalar roots, and the JSON5 items.

mod common;

use common::{outcome, read_slice, read_trickle};
use sluice_core::{Entry, NumberHint, OwnedNumber, Reader, Token};
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
        "0x",
        "0xG",
        "01",
        ".",
        "+",
        "-.",
        "1.2.3",
        "0x1p3",
        "Inf",
        "+NaNx",
        "0x10000000000000000",
    ] {
        assert_eq!(rejected(bad, &options), codes::INVALID_NUMBER, "{bad}");
    }
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
