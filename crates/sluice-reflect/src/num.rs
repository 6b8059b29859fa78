//! Fast conversions of number text (strict JSON syntax) into native numbers.
//!
//! The property writer gets most numbers as text (`Number::Text`) and converts each into the
//! type of its place. The general conversions of `sluice_core::Number` handle every syntax
//! and every error; these handle the common case quickly and answer `None` for anything
//! else (other syntax, too many digits, out of range, a result they cannot prove correctly
//! rounded), and the caller then takes the general path, which also builds the error.

/// The digits of a number in strict JSON syntax: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
/// read as `mantissa * 10^exponent`, with at most 19 significant digits.
struct Decimal {
    negative: bool,
    mantissa: u64,
    exponent: i32,
}

/// Whether the 8 bytes of `chunk` (little endian) are all ASCII digits.
fn eight_digits(chunk: u64) -> bool {
    let above = chunk.wrapping_add(0x4646_4646_4646_4646);
    let below = chunk.wrapping_sub(0x3030_3030_3030_3030);
    (above | below) & 0x8080_8080_8080_8080 == 0
}

/// The value of 8 ASCII digits (little endian, first digit in the lowest byte), combining
/// pairs, then quads, then the two halves with multiplications instead of 8 steps.
fn eight_digits_value(chunk: u64) -> u64 {
    let values = chunk - 0x3030_3030_3030_3030;
    // Each 16-bit lane: 10 * first + second.
    let pairs = (values * 10 + (values >> 8)) & 0x00ff_00ff_00ff_00ff;
    // Each 32-bit lane: 100 * first pair + second pair.
    let quads = (pairs * 100 + (pairs >> 16)) & 0x0000_ffff_0000_ffff;
    // 10_000 * first quad + second quad.
    (quads & 0xffff) * 10_000 + (quads >> 32)
}

/// Reads ASCII digits from `at` into `value` (wrapping: the caller bounds the count), eight
/// at a time while it can.
fn digits(bytes: &[u8], mut at: usize, mut value: u64) -> (usize, u64) {
    while let Some(chunk) = bytes.get(at..at + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        if !eight_digits(word) {
            break;
        }
        value = value
            .wrapping_mul(100_000_000)
            .wrapping_add(eight_digits_value(word));
        at += 8;
    }
    while let Some(&byte) = bytes.get(at) {
        if !byte.is_ascii_digit() {
            break;
        }
        value = value.wrapping_mul(10).wrapping_add(u64::from(byte - b'0'));
        at += 1;
    }
    (at, value)
}

/// Reads up to 19 significant digits; `None` for more, or for anything that is not strict
/// JSON number syntax.
fn decimal(text: &[u8]) -> Option<Decimal> {
    let (negative, rest) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    // Integer part: `0` or a digit 1-9 then digits.
    let (mut at, mut mantissa) = match rest.first() {
        Some(b'0') => (1, 0),
        Some(b'1'..=b'9') => digits(rest, 0, 0),
        _ => return None,
    };
    let mut significant = if mantissa == 0 { 0 } else { at };
    let mut exponent: i32 = 0;
    if rest.get(at) == Some(&b'.') {
        let start = at + 1;
        at = start;
        if mantissa == 0 {
            // Leading zeros of the fraction (0.000123) are not significant digits.
            while rest.get(at) == Some(&b'0') {
                at += 1;
            }
        }
        let first_significant = at;
        (at, mantissa) = digits(rest, at, mantissa);
        if at == start {
            return None;
        }
        significant += at - first_significant;
        exponent = -i32::try_from(at - start).ok()?;
    }
    if significant > 19 {
        return None;
    }
    if let Some(b'e' | b'E') = rest.get(at) {
        at += 1;
        let negative_exponent = match rest.get(at) {
            Some(b'-') => {
                at += 1;
                true
            }
            Some(b'+') => {
                at += 1;
                false
            }
            _ => false,
        };
        let start = at;
        let mut value: i32 = 0;
        while let Some(&byte) = rest.get(at) {
            if !byte.is_ascii_digit() {
                break;
            }
            // Beyond this, the general path decides (zero, infinity or an error).
            if value > 10_000 {
                return None;
            }
            value = value * 10 + i32::from(byte - b'0');
            at += 1;
        }
        if at == start {
            return None;
        }
        exponent += if negative_exponent { -value } else { value };
    }
    if at != rest.len() {
        return None;
    }
    Some(Decimal {
        negative,
        mantissa,
        exponent,
    })
}

/// Powers of ten that are exact as `f64`.
const EXACT_POWERS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Powers of ten as integers, up to 10^22 (74 bits, so `(2^54 + 1) * 10^22` fits in 128).
const INTEGER_POWERS: [u128; 23] = {
    let mut table = [1u128; 23];
    let mut i = 1;
    while i < 23 {
        table[i] = table[i - 1] * 10;
        i += 1;
    }
    table
};

/// Where `mantissa / 10^q` lies relative to the values that round to `candidate` (positive
/// and normal): `Equal` when `candidate` is the correctly rounded value, `Less` / `Greater`
/// when the value is below / above that interval. Proven with exact integer arithmetic;
/// `None` when the numbers do not fit the proof or the value is a tie (the caller then
/// takes the general path).
fn locate(candidate: f64, mantissa: u64, q: usize) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    let bits = candidate.to_bits();
    let biased = i32::try_from(bits >> 52).ok()?;
    let fraction = bits & ((1 << 52) - 1);
    // At a power of two the neighbour below is closer: leave that rare case to the general
    // path rather than prove it.
    if biased == 0 || biased == 0x7ff || fraction == 0 {
        return None;
    }
    let significand = u128::from(fraction | (1 << 52));
    // candidate = significand * 2^(biased - 1075). The value x = mantissa / 10^q rounds to
    // it iff x lies strictly between the midpoints to its neighbours,
    // (2 * significand -/+ 1) * 2^(biased - 1076); multiplying by 10^q * 2^shift with
    // shift = 1076 - biased makes every quantity an integer.
    let shift = u32::try_from(1076 - biased).ok()?;
    if u128::from(mantissa).leading_zeros() <= shift {
        return None;
    }
    let scaled = u128::from(mantissa) << shift;
    let power = INTEGER_POWERS[q];
    let below = (2 * significand - 1) * power;
    let above = (2 * significand + 1) * power;
    match (scaled.cmp(&below), scaled.cmp(&above)) {
        (Ordering::Greater, Ordering::Less) => Some(Ordering::Equal),
        (Ordering::Less, _) => Some(Ordering::Less),
        (_, Ordering::Greater) => Some(Ordering::Greater),
        _ => None,
    }
}

/// `text` as the nearest `f64`, for strict JSON number text; `None` when the general path
/// must decide.
///
/// Exact cases (at most 2^53 and a power of ten up to 10^22) are one correctly rounded
/// operation. Longer mantissas with a small negative exponent, the usual shape of
/// coordinates and measurements, are divided in floating point and the result is then
/// proven correctly rounded (or moved to the neighbour that is) with exact 128-bit integer
/// arithmetic.
pub(crate) fn parse_f64(text: &str) -> Option<f64> {
    use std::cmp::Ordering;
    let Decimal {
        negative,
        mantissa,
        exponent,
    } = decimal(text.as_bytes())?;
    let sign = if negative { -1.0 } else { 1.0 };
    if mantissa == 0 {
        return Some(sign * 0.0);
    }
    #[allow(clippy::cast_precision_loss)]
    let approximate = mantissa as f64;
    let q = exponent.unsigned_abs() as usize;
    if mantissa <= 1 << 53 {
        return match exponent {
            0..=22 => Some(sign * approximate * EXACT_POWERS[q]),
            -22..0 => Some(sign * approximate / EXACT_POWERS[q]),
            _ => None,
        };
    }
    if !(-22..0).contains(&exponent) {
        return None;
    }
    // Two roundings: the result is the nearest value or next to it.
    let mut candidate = approximate / EXACT_POWERS[q];
    for _ in 0..3 {
        candidate = match locate(candidate, mantissa, q)? {
            Ordering::Equal => return Some(sign * candidate),
            Ordering::Less => f64::from_bits(candidate.to_bits() - 1),
            Ordering::Greater => f64::from_bits(candidate.to_bits() + 1),
        };
    }
    None
}

/// `text` as an unsigned integer when it is plain digits (no sign, fraction or exponent)
/// that fit; `None` otherwise.
pub(crate) fn parse_u64(text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    if bytes.is_empty() || bytes.len() > 19 || (bytes[0] == b'0' && bytes.len() > 1) {
        return None;
    }
    let (at, value) = digits(bytes, 0, 0);
    (at == bytes.len()).then_some(value)
}

/// `text` as a signed integer when it is `-`? and plain digits that fit; `None` otherwise.
pub(crate) fn parse_i64(text: &str) -> Option<i64> {
    match text.strip_prefix('-') {
        Some(digits) => {
            let magnitude = parse_u64(digits)?;
            // -0 is 0; i64::MIN's magnitude is 2^63.
            0i64.checked_sub_unsigned(magnitude)
        }
        None => i64::try_from(parse_u64(text)?).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_match_the_standard_parser() {
        let cases = [
            "0",
            "-0",
            "0.0",
            "1",
            "-65.613616999999977",
            "43.420273000000009",
            "-65.6136170",
            "0.1",
            "0.30000000000000004",
            "123456789012345678",
            "1e22",
            "1e-22",
            "9007199254740993",
            "9007199254740993e-1",
            "2.2250738585072014e-308",
            "1.7976931348623157e308",
            "4.9406564584124654e-324",
            "1234567890123456789",
            "0.000001234567890123456",
            "3.141592653589793238",
            "-0.0000000000000000000000001",
            "12345.678901234567e-3",
            "1E+2",
        ];
        for case in cases {
            let expected: f64 = case.parse().unwrap();
            if let Some(value) = parse_f64(case) {
                assert_eq!(value.to_bits(), expected.to_bits(), "{case}");
            }
        }
    }

    #[test]
    fn floats_with_17_digits_are_taken_by_the_fast_path_and_exact() {
        // A deterministic spread of 17-digit mantissas with fraction lengths 1..=20.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut fast = 0;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mantissa = 10_000_000_000_000_000 + state % 90_000_000_000_000_000;
            let digits = mantissa.to_string();
            let point = 1 + (state >> 40) as usize % 16;
            let text = format!("{}.{}", &digits[..point], &digits[point..]);
            let expected: f64 = text.parse().unwrap();
            if let Some(value) = parse_f64(&text) {
                fast += 1;
                assert_eq!(value.to_bits(), expected.to_bits(), "{text}");
            }
        }
        assert!(fast > 190_000, "fast path taken {fast} times");
    }

    #[test]
    fn other_syntax_goes_to_the_general_path() {
        for case in [
            "",
            "-",
            "+1",
            ".5",
            "5.",
            "01",
            "1e",
            "1e+",
            "0x10",
            "Infinity",
            "NaN",
            "1_000",
            "1e99999",
            "12345678901234567890",
        ] {
            assert_eq!(parse_f64(case), None, "{case}");
        }
    }

    #[test]
    fn eight_digits_at_once() {
        for text in ["00000000", "12345678", "99999999", "90000001"] {
            let mut word = [0u8; 8];
            word.copy_from_slice(text.as_bytes());
            let word = u64::from_le_bytes(word);
            assert!(eight_digits(word));
            assert_eq!(eight_digits_value(word), text.parse::<u64>().unwrap());
        }
        for text in ["1234567a", "/2345678", ":2345678", "1234 678"] {
            let mut word = [0u8; 8];
            word.copy_from_slice(text.as_bytes());
            assert!(!eight_digits(u64::from_le_bytes(word)), "{text}");
        }
    }

    #[test]
    fn integers() {
        assert_eq!(parse_u64("0"), Some(0));
        assert_eq!(parse_u64("18446744073709551615"), None);
        assert_eq!(
            parse_u64("9999999999999999999"),
            Some(9_999_999_999_999_999_999)
        );
        assert_eq!(parse_u64("007"), None);
        assert_eq!(parse_u64("1.0"), None);
        assert_eq!(parse_u64("-1"), None);
        assert_eq!(parse_i64("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_i64("9223372036854775808"), None);
        assert_eq!(parse_i64("-0"), Some(0));
        assert_eq!(parse_i64("-12"), Some(-12));
    }
}
