//! Numbers read at the call site: `read_f64`, `read_i64` and `read_u64` agree with the
//! standard library's parsers on the number text, on every path (the scanner reads most
//! values on its pass; the rest take the general conversion).

mod common;

use common::Trickle;
use sluice_core::testing::Rng;
use sluice_core::{Entry, NumberHint, Reader, codes as core_codes};
use sluice_json::JsonReader;

/// Reads `json` twice in lockstep: once as number text, once as typed values (from the
/// slice, and through `io::Read` in `chunk`-byte reads so numbers straddle refills), and
/// checks every typed value against the text. Returns how many numbers were checked.
fn check_numbers(json: &[u8], chunk: usize) -> usize {
    let mut texts = JsonReader::from_slice(json);
    let mut slice = JsonReader::from_slice(json);
    let mut io = JsonReader::from_read(Trickle { bytes: json, chunk });
    let mut checked = 0;
    loop {
        let entry = texts.peek().unwrap();
        assert_eq!(slice.peek().unwrap(), entry);
        assert_eq!(io.peek().unwrap(), entry);
        match entry {
            Entry::Ended => return checked,
            Entry::Number(hint) => {
                let text = texts.read_number().unwrap().as_text().unwrap().to_owned();
                // A read that fails must point at the number.
                let span = texts.span();
                match hint {
                    NumberHint::Float => {
                        let expected = text.parse::<f64>().unwrap();
                        if expected.is_infinite() {
                            // Finite text beyond the range of f64 is an error, not infinity.
                            let err = slice.read_f64().unwrap_err();
                            assert_eq!(
                                (err.code(), err.span()),
                                (core_codes::NUMBER_OUT_OF_RANGE, Some(span)),
                                "{text}"
                            );
                            let io_err = io.read_f64().unwrap_err();
                            assert_eq!((io_err.code(), io_err.span()), (err.code(), err.span()));
                            // A number that does not convert stays unread.
                            slice.skip().unwrap();
                            io.skip().unwrap();
                        } else {
                            let bits = expected.to_bits();
                            assert_eq!(slice.read_f64().unwrap().to_bits(), bits, "{text}");
                            assert_eq!(io.read_f64().unwrap().to_bits(), bits, "{text}");
                        }
                    }
                    NumberHint::NegInteger => match text.parse::<i64>() {
                        Ok(expected) => {
                            assert_eq!(slice.read_i64().unwrap(), expected, "{text}");
                            assert_eq!(io.read_i64().unwrap(), expected, "{text}");
                        }
                        Err(_) => {
                            let err = slice.read_i64().unwrap_err();
                            assert_eq!(
                                (err.code(), err.span()),
                                (core_codes::NUMBER_OUT_OF_RANGE, Some(span)),
                                "{text}"
                            );
                            let io_err = io.read_i64().unwrap_err();
                            assert_eq!((io_err.code(), io_err.span()), (err.code(), err.span()));
                            slice.skip().unwrap();
                            io.skip().unwrap();
                        }
                    },
                    _ => match text.parse::<u64>() {
                        Ok(expected) => {
                            assert_eq!(slice.read_u64().unwrap(), expected, "{text}");
                            assert_eq!(io.read_u64().unwrap(), expected, "{text}");
                        }
                        Err(_) => {
                            let err = slice.read_u64().unwrap_err();
                            assert_eq!(
                                (err.code(), err.span()),
                                (core_codes::NUMBER_OUT_OF_RANGE, Some(span)),
                                "{text}"
                            );
                            let io_err = io.read_u64().unwrap_err();
                            assert_eq!((io_err.code(), io_err.span()), (err.code(), err.span()));
                            slice.skip().unwrap();
                            io.skip().unwrap();
                        }
                    },
                }
                checked += 1;
            }
            _ => {
                texts.skip_token();
                slice.skip_token();
                io.skip_token();
            }
        }
    }
}

/// Moves past one token of any kind.
trait SkipToken {
    fn skip_token(&mut self);
}

impl<R: Reader> SkipToken for R {
    fn skip_token(&mut self) {
        match self.peek().unwrap() {
            Entry::MapRoot => drop(self.read_map_root().unwrap()),
            Entry::MapEnd => self.read_map_end().unwrap(),
            Entry::ArrayRoot => drop(self.read_array_root().unwrap()),
            Entry::ArrayEnd => self.read_array_end().unwrap(),
            Entry::Name => drop(self.read_name().unwrap().len()),
            Entry::String => drop(self.read_str().unwrap().len()),
            Entry::Bool => drop(self.read_bool().unwrap()),
            Entry::Null => self.read_null().unwrap(),
            other => panic!("unexpected {other}"),
        }
    }
}

fn array(items: &[String]) -> Vec<u8> {
    format!("[{}]", items.join(",")).into_bytes()
}

#[test]
fn corpus_numbers_read_as_the_standard_parsers_read_them() {
    // Every number of each file is checked (counted by an independent JSON parser).
    for (file, numbers) in [
        ("bench/canada.json", 111_126),
        ("bench/citm_catalog.json", 14_392),
        ("bench/twitter.json", 2_109),
    ] {
        let Some(path) = sluice_core::testing::corpus_file(file) else {
            continue;
        };
        let json = std::fs::read(path).unwrap();
        assert_eq!(check_numbers(&json, 4093), numbers, "{file}");
    }
}

#[test]
fn random_doubles_printed_shortest_read_back_exactly() {
    let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
    let mut items = Vec::new();
    while items.len() < 20_000 {
        let value = f64::from_bits(rng.next());
        if value.is_finite() {
            // `{:?}` uses an exponent for large and small magnitudes; `{:e}` always does.
            items.push(format!("{value:?}"));
            items.push(format!("{value:e}"));
        }
    }
    assert_eq!(check_numbers(&array(&items), 7), items.len());
}

#[test]
fn long_mantissas_exponent_extremes_and_halfway_cases_are_correctly_rounded() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut items = Vec::new();
    for _ in 0..10_000 {
        // 15 to 20 significant digits, the point anywhere, an exponent sometimes.
        let width = 15 + (rng.next() % 6) as usize;
        let digits: String = (0..width)
            .map(|i| {
                let low = u8::from(i == 0);
                char::from(b'0' + low + (rng.next() % u64::from(10 - low)) as u8)
            })
            .collect();
        let point = 1 + (rng.next() as usize) % (width - 1);
        let sign = if rng.next().is_multiple_of(2) {
            ""
        } else {
            "-"
        };
        let mut text = format!("{sign}{}.{}", &digits[..point], &digits[point..]);
        if rng.next().is_multiple_of(3) {
            let exponent = (rng.next() % 700) as i64 - 350;
            text.push_str(&format!("e{exponent}"));
        }
        items.push(text);
    }
    // Halfway between neighbouring doubles, and just either side of it.
    for _ in 0..2_000 {
        let base = f64::from_bits(0x3ff0_0000_0000_0000 + rng.next() % (1 << 52));
        let next = f64::from_bits(base.to_bits() + 1);
        let mid = (base + next) / 2.0;
        for precision in [16, 17, 18, 25] {
            items.push(format!("{mid:.precision$}"));
        }
        items.push(format!("{base:.30}"));
    }
    for text in [
        "0",
        "-0",
        "0.0",
        "-0.0",
        "0e0",
        "1e22",
        "1e23",
        "1e-22",
        "1e-23",
        "9007199254740993",
        "9007199254740993.0",
        "4503599627370497.5",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "2.2250738585072014e-308",
        "2.2250738585072011e-308",
        "4.9406564584124654e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "1e-400",
        "0.000000000000000000000000000001",
        "123456789012345678901234567890e-20",
        "6178787134922198000000000000000000000000000000000000000000000000000000000000000.5",
    ] {
        items.push(text.to_owned());
    }
    assert_eq!(check_numbers(&array(&items), 5), items.len());
}

#[test]
fn integers_at_the_limits_read_exactly_or_fail_with_a_range_error() {
    let items: Vec<String> = [
        "0",
        "-0",
        "1",
        "-1",
        "9223372036854775807",
        "-9223372036854775807",
        "-9223372036854775808",
        "-9223372036854775809",
        "9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "9999999999999999999",
        "-9999999999999999999",
        "99999999999999999999",
        "123456789012345678",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    assert_eq!(check_numbers(&array(&items), 3), items.len());
    // `-0` is zero for unsigned targets; other negatives are out of range.
    let mut reader = JsonReader::from_str("[-0, -1, 1e400]");
    reader.read_array_root().unwrap();
    assert_eq!(reader.read_u64().unwrap(), 0);
    let err = reader.read_u64().unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    // The number stays unread: read another way.
    assert_eq!(reader.read_i64().unwrap(), -1);
    let err = reader.read_f64().unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(err.span(), Some(sluice_core::Span::new(9, 14)));
    // The path names the number read, not the position after it.
    assert_eq!(err.path().unwrap().to_string(), "$[2]");
    let mut reader = JsonReader::from_str(r#"{"a": [7, -1], "b": 1.5}"#);
    reader.read_map_root().unwrap();
    reader.read_name().unwrap();
    reader.read_array_root().unwrap();
    assert_eq!(reader.read_u64().unwrap(), 7);
    let err = reader.read_u64().unwrap_err();
    assert_eq!(err.path().unwrap().to_string(), "$.a[1]");
    reader.skip().unwrap();
    reader.read_array_end().unwrap();
    reader.read_name().unwrap();
    let err = reader.read_i64().unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_NOT_INTEGER);
    assert_eq!(err.path().unwrap().to_string(), "$.b");
}

#[test]
fn narrow_integer_reads_agree_with_the_general_conversion() {
    // `read_u8` ... `read_i32` take the scanner's value when it fits and the general path
    // otherwise: the same values, and the same errors with the token's span and path.
    let texts = [
        "0",
        "-0",
        "1",
        "-1",
        "127",
        "128",
        "-128",
        "-129",
        "255",
        "256",
        "32767",
        "-32768",
        "65535",
        "65536",
        "2147483647",
        "-2147483648",
        "2147483648",
        "4294967295",
        "4294967296",
        "1e2",
        "1.5",
        "-1e0",
        "99999999999999999999",
    ];
    let json = format!("[{}]", texts.join(", "));
    type Read = fn(&mut JsonReader<sluice_json::SliceInput<'_>>) -> sluice_core::Result<i128>;
    let reads: [(&str, Read); 6] = [
        ("i8", |r| r.read_i8().map(i128::from)),
        ("i16", |r| r.read_i16().map(i128::from)),
        ("i32", |r| r.read_i32().map(i128::from)),
        ("u8", |r| r.read_u8().map(i128::from)),
        ("u16", |r| r.read_u16().map(i128::from)),
        ("u32", |r| r.read_u32().map(i128::from)),
    ];
    for (name, read) in reads {
        let mut reader = JsonReader::from_str(&json);
        let mut numbers = JsonReader::from_str(&json);
        reader.read_array_root().unwrap();
        numbers.read_array_root().unwrap();
        for (index, text) in texts.iter().enumerate() {
            let number = numbers.read_number().unwrap();
            let expected = match name {
                "i8" => number.to_i8().map(i128::from),
                "i16" => number.to_i16().map(i128::from),
                "i32" => number.to_i32().map(i128::from),
                "u8" => number.to_u8().map(i128::from),
                "u16" => number.to_u16().map(i128::from),
                _ => number.to_u32().map(i128::from),
            };
            let span = numbers.span();
            match (read(&mut reader), expected) {
                (Ok(got), Ok(want)) => assert_eq!(got, want, "{text} as {name}"),
                (Err(got), Err(want)) => {
                    assert_eq!(got.code(), want.code(), "{text} as {name}");
                    assert_eq!(got.span(), Some(span), "{text} as {name}");
                    let path = got.path().map(ToString::to_string);
                    assert_eq!(path, Some(format!("$[{index}]")), "{text} as {name}");
                    // The number stays unread.
                    reader.skip().unwrap();
                }
                (got, want) => panic!("{text} as {name}: {got:?} but {want:?}"),
            }
        }
    }
}

#[test]
fn integer_reads_of_float_text_are_exact_on_the_digits() {
    // Each text read as an integer from the slice and through `io::Read`: the exact value,
    // or the error code with the number's span. An f64 would round the first two to 1 and
    // refuse `1e18`.
    let cases: [(&str, Result<i64, sluice_core::ErrorCode>); 7] = [
        ("1.00000000000000001", Err(core_codes::NUMBER_NOT_INTEGER)),
        ("0.99999999999999999", Err(core_codes::NUMBER_NOT_INTEGER)),
        ("-1e-400", Err(core_codes::NUMBER_NOT_INTEGER)),
        ("1e18", Ok(1_000_000_000_000_000_000)),
        ("9007199254740993.0", Ok(9_007_199_254_740_993)),
        ("-9.223372036854775808e18", Ok(i64::MIN)),
        ("1e19", Err(core_codes::NUMBER_OUT_OF_RANGE)),
    ];
    for (text, expected) in cases {
        let json = format!("[{text}]");
        let slice = JsonReader::from_str(&json);
        let io = JsonReader::from_read(Trickle {
            bytes: json.as_bytes(),
            chunk: 1,
        });
        fn first_as_i64(mut reader: impl Reader) -> Result<i64, sluice_core::Error> {
            reader.read_array_root()?;
            reader.read_i64()
        }
        for result in [first_as_i64(slice), first_as_i64(io)] {
            match (result, expected) {
                (Ok(value), Ok(want)) => assert_eq!(value, want, "{text}"),
                (Err(err), Err(code)) => {
                    assert_eq!(err.code(), code, "{text}");
                    assert_eq!(err.span(), Some(sluice_core::Span::new(1, 1 + text.len())));
                }
                (got, want) => panic!("{text}: got {got:?}, expected {want:?}"),
            }
        }
    }
    // Narrow reads go the same way.
    let mut reader = JsonReader::from_str("[255.0000000000000001, 2.5e1]");
    reader.read_array_root().unwrap();
    let err = reader.read_u8().unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_NOT_INTEGER);
    // The number stays unread, for another read to take.
    assert_eq!(reader.read_f64().unwrap(), 255.0);
    assert_eq!(reader.read_u8().unwrap(), 25);
}

/// A reader of `json` from the slice (`chunk` 0) or through `io::Read` in `chunk`-byte reads.
fn open_reader(json: &str, chunk: usize) -> Box<dyn Reader + '_> {
    if chunk == 0 {
        Box::new(JsonReader::from_str(json))
    } else {
        Box::new(JsonReader::from_read(Trickle {
            bytes: json.as_bytes(),
            chunk,
        }))
    }
}

#[test]
fn an_exponent_too_large_to_read_is_not_cancelled_by_a_fraction_as_long() {
    // `0.` and 99999 zeros then `1` is 10^-100000: times 10^1000000 it overflows, times
    // 10^100000 it is 1. The scanner stops reading an exponent's digits at 100000, which
    // must leave the value to the general conversion rather than cancel the fraction.
    let fraction = format!("0.{}1", "0".repeat(99_999));
    let overflow = format!("[{fraction}e1000000]");
    let one = format!("[{fraction}e100000]");
    let span = sluice_core::Span::new(1, overflow.len() - 1);
    for peek in [true, false] {
        for chunk in [0, 1, 4093] {
            let mut reader = open_reader(&overflow, chunk);
            reader.read_array_root().unwrap();
            if peek {
                reader.peek().unwrap();
            }
            let err = reader.read_f64().unwrap_err();
            assert_eq!(
                err.code(),
                core_codes::NUMBER_OUT_OF_RANGE,
                "{peek} {chunk}"
            );
            assert_eq!(err.span(), Some(span), "{peek} {chunk}");
            let mut reader = open_reader(&one, chunk);
            reader.read_array_root().unwrap();
            if peek {
                reader.peek().unwrap();
            }
            assert_eq!(reader.read_f64().unwrap(), 1.0, "{peek} {chunk}");
        }
    }
}

#[test]
fn integer_reads_weigh_an_exponent_against_a_million_digits_in_full() {
    // `1`, a million zeros, `e-1000001` is 0.1; `0.`, a million zeros, `1e1000001` is 1.
    let zeros = "0".repeat(1_000_000);
    let fraction = format!("[1{zeros}e-1000001]");
    let one = format!("[0.{zeros}1e1000001]");
    for chunk in [0, 4093] {
        let mut reader = open_reader(&fraction, chunk);
        reader.read_array_root().unwrap();
        let err = reader.read_i64().unwrap_err();
        assert_eq!(err.code(), core_codes::NUMBER_NOT_INTEGER, "{chunk}");
        let span = sluice_core::Span::new(1, fraction.len() - 1);
        assert_eq!(err.span(), Some(span), "{chunk}");
        let mut reader = open_reader(&one, chunk);
        reader.read_array_root().unwrap();
        assert_eq!(reader.read_i64().unwrap(), 1, "{chunk}");
        reader.read_array_end().unwrap();
    }
}

#[test]
fn f32_reads_round_the_text_once_as_the_standard_parser_does() {
    // Points halfway between neighbouring f32s (exact in f64, so the f64 nearest to the
    // text is the halfway point itself), written in full and cut short, and the f64s either
    // side of them: a read through f64 would round each a second time, to even, where the
    // text lies on one side.
    let mut rng = Rng::new(0x5eed_f32f_32f3_2f32);
    let mut items = Vec::new();
    while items.len() < 6_000 {
        let bits = (rng.next() as u32) % 0x7f7f_ffff;
        let (low, high) = (f32::from_bits(bits), f32::from_bits(bits + 1));
        let halfway = (f64::from(low) + f64::from(high)) / 2.0;
        let digits = 9 + (rng.next() % 12) as usize;
        items.push(format!("{halfway:e}"));
        items.push(format!("{halfway:.digits$e}"));
        items.push(format!("{:e}", f64::from_bits(halfway.to_bits() - 1)));
        items.push(format!("{:e}", f64::from_bits(halfway.to_bits() + 1)));
    }
    let json = array(&items);
    let json = std::str::from_utf8(&json).unwrap();
    for chunk in [0, 1] {
        let mut reader = open_reader(json, chunk);
        reader.read_array_root().unwrap();
        for text in &items {
            let expected = text.parse::<f32>().unwrap();
            let value = reader.read_f32().unwrap();
            assert_eq!(value.to_bits(), expected.to_bits(), "{text} ({chunk})");
        }
        reader.read_array_end().unwrap();
    }
}

#[test]
fn json5_nan_read_as_an_integer_is_not_an_integer_and_stays_unread() {
    use sluice_json::JsonOptions;
    let text = "[NaN, -Infinity]";
    let mut reader = JsonReader::from_str(text).with_options(JsonOptions::json5());
    reader.read_array_root().unwrap();
    let err = reader.read_i64().unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_NOT_INTEGER);
    assert_eq!(err.span().map(sluice_core::Span::range), Some(1..4));
    assert!(reader.read_f64().unwrap().is_nan());
    let err = reader.read_u8().unwrap_err();
    assert_eq!(err.code(), core_codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(err.span().map(sluice_core::Span::range), Some(6..15));
    assert_eq!(reader.read_f64().unwrap(), f64::NEG_INFINITY);
}
