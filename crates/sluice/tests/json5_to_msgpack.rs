//! JSON5 read with the JSON5 preset and piped into MessagePack: every value keeps its type
//! and its bits, or the pipe stops with a code.

use sluice::core::{OwnedNumber, Span, Token};
use sluice::json::{JsonOptions, JsonReader};
use sluice::msgpack::{MsgPackReader, MsgPackWriter, codes};

/// `input` piped into MessagePack, then read back as tokens; or the error's code and span.
fn through_msgpack(input: &str) -> Result<Vec<Token>, (String, Option<Span>)> {
    let mut reader = JsonReader::from_str(input).with_options(JsonOptions::json5());
    let mut writer = MsgPackWriter::new(Vec::new());
    let bytes = sluice::pipe(&mut reader, &mut writer)
        .and_then(|()| reader.finish())
        .and_then(|()| writer.into_inner())
        .map_err(|err| (err.code().to_string(), err.span()))?;
    let tokens = Token::read_all(&mut MsgPackReader::from_slice(&bytes)).expect("MessagePack");
    Ok(tokens)
}

fn number(token: &Token) -> &OwnedNumber {
    match token {
        Token::Number(number) => number,
        other => panic!("not a number: {other:?}"),
    }
}

#[test]
fn json5_numbers_keep_their_type_and_bits_in_messagepack() {
    let input = "[0x1F, -0x1F, +0x1F, 0xFFFFFFFFFFFFFFFF, -0x8000000000000000, +1, .5, 5., \
                 -.5e3, -0x0, +Infinity, -Infinity, NaN, -NaN]";
    let tokens = through_msgpack(input).unwrap();
    let numbers: Vec<&OwnedNumber> = tokens[1..tokens.len() - 1].iter().map(number).collect();
    let expected = [
        OwnedNumber::U64(31),
        OwnedNumber::I64(-31),
        OwnedNumber::U64(31),
        OwnedNumber::U64(u64::MAX),
        OwnedNumber::I64(i64::MIN),
        OwnedNumber::U64(1),
        OwnedNumber::F64(0.5),
        OwnedNumber::F64(5.0),
        OwnedNumber::F64(-500.0),
        OwnedNumber::F64(-0.0),
        OwnedNumber::F64(f64::INFINITY),
        OwnedNumber::F64(f64::NEG_INFINITY),
    ];
    // `OwnedNumber` compares floats bit for bit, so `-0.0` is not `0.0`.
    assert_eq!(
        numbers[..expected.len()],
        expected.iter().collect::<Vec<_>>()[..]
    );
    let nans: Vec<f64> = numbers[expected.len()..]
        .iter()
        .map(|n| match n {
            OwnedNumber::F64(v) => *v,
            other => panic!("not an f64: {other:?}"),
        })
        .collect();
    assert!(nans.iter().all(|v| v.is_nan()));
    assert_eq!(
        nans.iter()
            .map(|v| v.is_sign_negative())
            .collect::<Vec<_>>(),
        [false, true]
    );
}

#[test]
fn json5_strings_and_keys_become_messagepack_str() {
    let tokens =
        through_msgpack("{unquoted: 'single', 'quoted': \"double\", \\u0061b: '\\x41'}").unwrap();
    assert_eq!(
        tokens,
        [
            Token::MapRoot(Some(3)),
            Token::Name("unquoted".into()),
            Token::String("single".into()),
            Token::Name("quoted".into()),
            Token::String("double".into()),
            Token::Name("ab".into()),
            Token::String("A".into()),
            Token::MapEnd,
        ]
    );
}

#[test]
fn a_json5_hexadecimal_integer_beyond_64_bits_stops_the_pipe_instead_of_rounding() {
    // The JSON reader hands it out as exact decimal text; MessagePack has no integer that
    // wide, and the writer refuses it rather than write a rounded float.
    // The error points at the literal in the JSON5 text.
    for input in ["[0x10000000000000000]", "[-0xFFFFFFFFFFFFFFFFFF]"] {
        assert_eq!(
            through_msgpack(input),
            Err((
                codes::INTEGER_TOO_LARGE.to_string(),
                Some(Span::new(1, input.len() - 1))
            )),
            "{input}"
        );
    }
}
