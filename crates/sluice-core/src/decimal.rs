//! Fast conversions of decimal number text (strict JSON syntax) into native numbers.
//!
//! [`Number`](crate::Number) parses text with lexical-core, which handles every syntax and
//! every error. Most numbers in real documents are short, though (a coordinate such as
//! `-65.613616999999977`, a price, an id), and for those a specialised path is several
//! times cheaper: digits are read eight at a time, and the value is computed with one
//! correctly rounded floating-point operation or with one or two 64-bit multiplications
//! by a power of five (the Eisel-Lemire method). These functions answer `None` for anything
//! they cannot settle (other syntax, more than 19 significant digits, powers of ten beyond
//! 10^-27 to 10^55), and the caller then takes the general path, which also builds the
//! error. An answer that is `Some` is always the correctly rounded value.
//!
//! ```
//! use sluice_core::decimal;
//! assert_eq!(decimal::parse_f64(b"-65.613616999999977"), Some(-65.613616999999977));
//! assert_eq!(decimal::parse_u64(b"1234"), Some(1234));
//! assert_eq!(decimal::parse_i64(b"-12"), Some(-12));
//! assert_eq!(decimal::parse_f64(b"1e400"), None); // the general path decides
//! ```

/// A number in strict JSON syntax, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, read
/// as `mantissa * 10^exponent` with at most 19 significant digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decimal {
    /// Whether the text starts with `-`.
    pub negative: bool,
    /// The significant digits as an integer.
    pub mantissa: u64,
    /// The power of ten that scales `mantissa`.
    pub exponent: i32,
}

/// Whether the 8 bytes of `chunk` (little endian) are all ASCII digits.
#[cfg(test)]
fn eight_digits(chunk: u64) -> bool {
    non_digit_bytes(chunk) == 0
}

/// The value of 8 ASCII digits (little endian, first digit in the lowest byte), combining
/// pairs, then quads, then the two halves: three multiplications instead of eight steps.
#[cfg_attr(not(debug_assertions), inline(always))]
fn eight_digits_value(chunk: u64) -> u64 {
    let values = chunk - 0x3030_3030_3030_3030;
    // Each 16-bit lane: 10 * first + second.
    let pairs = (values * 10 + (values >> 8)) & 0x00ff_00ff_00ff_00ff;
    // Each 32-bit lane: 100 * first pair + second pair.
    let quads = (pairs * 100 + (pairs >> 16)) & 0x0000_ffff_0000_ffff;
    // 10_000 * first quad + second quad.
    (quads & 0xffff) * 10_000 + (quads >> 32)
}

/// Reads the run of ASCII digits of `bytes` from `at` into `value` (as `value * 10 + digit`
/// for each digit), eight at a time while it can; returns where the run ends and the value.
/// The value wraps: a caller that needs it exact bounds the count (19 digits fit a `u64`).
///
/// ```
/// use sluice_core::decimal::digits;
/// assert_eq!(digits(b"-1234567890,", 1, 0), (11, 1_234_567_890));
/// assert_eq!(digits(b"12x", 0, 5), (2, 512));
/// ```
#[must_use]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn digits(bytes: &[u8], mut at: usize, mut value: u64) -> (usize, u64) {
    while let Some(chunk) = bytes.get(at..at + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let not_digits = non_digit_bytes(word);
        if not_digits == 0 {
            value = value
                .wrapping_mul(100_000_000)
                .wrapping_add(eight_digits_value(word));
            at += 8;
            continue;
        }
        // The run ends inside this word: take its first `count` bytes in one step, moved to
        // the top of the word with '0's below them (leading zeros add nothing).
        let count = (not_digits.trailing_zeros() / 8) as usize;
        if count == 0 {
            return (at, value);
        }
        value = value
            .wrapping_mul(POWERS_OF_TEN[count])
            .wrapping_add(partial_word_value(word, count as u32));
        return (at + count, value);
    }
    // Fewer than 8 bytes left.
    while let Some(&byte) = bytes.get(at) {
        if !byte.is_ascii_digit() {
            break;
        }
        value = value.wrapping_mul(10).wrapping_add(u64::from(byte - b'0'));
        at += 1;
    }
    (at, value)
}

/// Reads the run of ASCII digits that opens `bytes` into `value` (as `value * 10 + digit`
/// for each digit, wrapping as [`digits`] does), when the run has 1 to 15 digits: returns
/// its length and the value. Two loads and no loop, for a number scanner's fraction such as
/// the `613616999999977` of `-65.613616999999977`. `None` for no digit or 16 and more,
/// which [`digits`] reads.
///
/// ```
/// use sluice_core::decimal::short_digit_run;
/// assert_eq!(short_digit_run(b"613616999999977,", 0), Some((15, 613_616_999_999_977)));
/// assert_eq!(short_digit_run(b"5],[-65.61972000", 0), Some((1, 5)));
/// assert_eq!(short_digit_run(b"61361,[-65.61972", 65), Some((5, 6_561_361)));
/// assert_eq!(short_digit_run(b"1234567812345678", 0), None);
/// assert_eq!(short_digit_run(b",123456781234567", 0), None);
/// ```
#[must_use]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn short_digit_run(bytes: &[u8; 16], value: u64) -> Option<(usize, u64)> {
    let (first, second) = bytes.split_at(8);
    let first = u64::from_le_bytes(first.try_into().ok()?);
    let not_digits = non_digit_bytes(first);
    if not_digits != 0 {
        let count = not_digits.trailing_zeros() / 8;
        if count == 0 {
            return None;
        }
        let value = value
            .wrapping_mul(POWERS_OF_TEN[count as usize])
            .wrapping_add(partial_word_value(first, count));
        return Some((count as usize, value));
    }
    let second = u64::from_le_bytes(second.try_into().ok()?);
    let not_digits = non_digit_bytes(second);
    if not_digits == 0 {
        return None;
    }
    let count = not_digits.trailing_zeros() / 8;
    let value = value
        .wrapping_mul(100_000_000)
        .wrapping_add(eight_digits_value(first));
    if count == 0 {
        return Some((8, value));
    }
    let value = value
        .wrapping_mul(POWERS_OF_TEN[count as usize])
        .wrapping_add(partial_word_value(second, count));
    Some((8 + count as usize, value))
}

/// The value of the first `count` (1 to 7) bytes of `word`, all ASCII digits: moved to the
/// top of the word with '0's below them (leading zeros add nothing).
#[cfg_attr(not(debug_assertions), inline(always))]
fn partial_word_value(word: u64, count: u32) -> u64 {
    debug_assert!((1..8).contains(&count));
    let shift = 64 - 8 * count;
    eight_digits_value((word << shift) | (0x3030_3030_3030_3030 >> (64 - shift)))
}

/// 10^n for the digit counts of a partial word.
const POWERS_OF_TEN: [u64; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

/// Marks (high bit set) the bytes of `word` that are not ASCII digits. Only the lowest mark
/// is exact (a carry from a non-digit may mark bytes above it), which is all the digit run
/// needs: a digit never carries or borrows.
#[cfg_attr(not(debug_assertions), inline(always))]
fn non_digit_bytes(word: u64) -> u64 {
    (word.wrapping_add(0x4646_4646_4646_4646) | word.wrapping_sub(0x3030_3030_3030_3030))
        & 0x8080_8080_8080_8080
}

/// Reads number text with up to 19 significant digits; `None` for more, or for anything
/// that is not strict JSON number syntax (the whole of `text` must be the number).
///
/// ```
/// use sluice_core::decimal::{Decimal, parse_decimal};
/// let d = parse_decimal(b"-0.0125e2").unwrap();
/// assert_eq!(d, Decimal { negative: true, mantissa: 125, exponent: -2 });
/// assert_eq!(parse_decimal(b"01"), None);
/// ```
#[must_use]
#[inline]
pub fn parse_decimal(text: &[u8]) -> Option<Decimal> {
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
    // Decided by the first digit, never by the (wrapping) value: every digit of an integer
    // part that starts with 1-9 is significant.
    let zero_integer = at == 1 && rest[0] == b'0';
    let mut significant = if zero_integer { 0 } else { at };
    let mut exponent: i32 = 0;
    if rest.get(at) == Some(&b'.') {
        let start = at + 1;
        at = start;
        if zero_integer {
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

/// The smallest and largest power of ten that [`scaled_by_power_of_ten`] takes.
const FIVE_POWERS_MIN: i32 = -27;
const FIVE_POWERS_MAX: i32 = 55;

/// `5^q` for `q` in `FIVE_POWERS_MIN..=FIVE_POWERS_MAX` as a 128-bit fraction (high word,
/// low word) normalized so the top bit is set. Positive powers are exact (`5^55 < 2^128`);
/// a negative power `5^-n` is `floor(2^(b + 127) / 5^n) + 1`, where `b` is the bit length of
/// `5^n`, one more than the truncated reciprocal so the product never falls short. In this
/// range of `q` a 128-bit product with these values always decides the rounding (Lemire,
/// "Number Parsing at a Gigabyte per Second", 2021, section 5), which is why the table
/// stops here rather than covering every `f64` exponent.
const FIVE_POWERS: [(u64, u64); (FIVE_POWERS_MAX - FIVE_POWERS_MIN + 1) as usize] = {
    let mut table = [(0u64, 0u64); (FIVE_POWERS_MAX - FIVE_POWERS_MIN + 1) as usize];
    let mut q = FIVE_POWERS_MIN;
    while q <= FIVE_POWERS_MAX {
        let value: u128 = if q >= 0 {
            let mut power = 1u128;
            let mut i = 0;
            while i < q {
                power *= 5;
                i += 1;
            }
            power << power.leading_zeros()
        } else {
            let mut divisor = 1u64;
            let mut i = 0;
            while i < -q {
                divisor *= 5;
                i += 1;
            }
            let bits = 64 - divisor.leading_zeros();
            // 2^(bits + 127) / divisor, two 64-bit digits of long division; the first
            // partial dividend is 2^(bits - 1), already below the divisor.
            let divisor = divisor as u128;
            let remainder = 1u128 << (bits - 1);
            let high = (remainder << 64) / divisor;
            let remainder = (remainder << 64) % divisor;
            let low = (remainder << 64) / divisor;
            ((high << 64) | low) + 1
        };
        table[(q - FIVE_POWERS_MIN) as usize] = ((value >> 64) as u64, value as u64);
        q += 1;
    }
    table
};

/// `mantissa * 10^q` (nonzero `mantissa`, `q` in the table's range) as the nearest `f64`,
/// by the Eisel-Lemire method: the mantissa, shifted so its top bit is set, is multiplied
/// by the 128-bit fraction of `5^q`; the top 54 bits of the product are the significand
/// plus one rounding bit, and the power of two comes from `q` and the shifts. One or two
/// 64-bit multiplications, no division, and no fallback needed in this range: the result
/// is always the correctly rounded value (ties to even). Returned as the bits of the
/// positive `f64`, for the caller to add the sign to.
#[cfg_attr(not(debug_assertions), inline(always))]
fn scaled_by_power_of_ten(mantissa: u64, q: i32) -> u64 {
    debug_assert!(mantissa != 0 && (FIVE_POWERS_MIN..=FIVE_POWERS_MAX).contains(&q));
    let (five_high, five_low) = FIVE_POWERS[(q - FIVE_POWERS_MIN) as usize];
    let shift = mantissa.leading_zeros();
    let normalized = mantissa << shift;
    let product = u128::from(normalized) * u128::from(five_high);
    let mut high = (product >> 64) as u64;
    let mut low = product as u64;
    // The 9 bits below the 55 that matter are all ones: the truncated low half of the
    // power of five might carry into them, so add its contribution.
    const BELOW: u64 = u64::MAX >> 55;
    if high & BELOW == BELOW {
        let second = u128::from(normalized) * u128::from(five_low);
        let (sum, carry) = low.overflowing_add((second >> 64) as u64);
        low = sum;
        high += u64::from(carry);
    }
    // The product's top bit is bit 127 or bit 126; keep 54 bits from it.
    let top = (high >> 63) as u32;
    let mut significand = high >> (top + 9);
    // floor(q * log2(10)) by a fixed-point multiplication, exact for |q| < 1650; 1086 is
    // the f64 exponent bias (1023) plus the 63 of the normalized mantissa.
    let log2_of_power = (q * 217_706) >> 16;
    let biased = log2_of_power + 1086 + top.cast_signed() - shift.cast_signed();
    // A value exactly halfway between two doubles (possible only for small |q|, where the
    // product is exact: nothing below the kept bits) rounds to the even one.
    if low <= 1
        && (-4..=23).contains(&q)
        && significand & 3 == 1
        && significand << (top + 9) == high
    {
        significand &= !1;
    }
    significand += significand & 1;
    significand >>= 1;
    // `significand` is now 2^52 to 2^53 (rounding up may reach 2^53). Its bit 52 (or 53)
    // lands in the exponent field, so the field is added rather than or-ed, with one less:
    // a significand of 2^53 carries into it, which is the next power of two, exactly.
    // In this range of q and mantissa the exponent is always normal: 1e-27 to 2e74.
    let biased = u64::from((biased - 1).cast_unsigned());
    (biased << 52) + significand
}

/// `mantissa * 10^exponent` (with the sign) as the nearest `f64`; `None` when the general
/// path must decide.
///
/// A mantissa up to 2^53 scaled up by 10^0 to 10^22 (integers read as `f64`, `1e5`) is one
/// exact multiplication, correctly rounded. Every other power of ten from 10^-27 to 10^55
/// takes the Eisel-Lemire method, a 128-bit product with a table of powers of five: longer
/// mantissas (the usual shape of coordinates and measurements, such as
/// `-65.613616999999977`), and also short ones scaled down (`0.5`, `-65.6136`), which a
/// division would give exactly too, but only after the division's long latency and a
/// branch on the mantissa's size that a document mixing both shapes keeps mispredicting
/// (with neither, canada.json's read took 0.95x the time).
#[must_use]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn decimal_to_f64(decimal: Decimal) -> Option<f64> {
    let Decimal {
        negative,
        mantissa,
        exponent,
    } = decimal;
    // The sign is the top bit, set on the magnitude's bits: no multiplication by -1.0.
    let sign = u64::from(negative) << 63;
    if mantissa == 0 {
        return Some(f64::from_bits(sign));
    }
    if (0..=22).contains(&exponent) && mantissa <= 1 << 53 {
        // Exact as an `f64` (converted only here: the long mantissas below never need it).
        #[allow(clippy::cast_precision_loss)]
        let magnitude = mantissa as f64 * EXACT_POWERS[exponent.unsigned_abs() as usize];
        return Some(f64::from_bits(magnitude.to_bits() | sign));
    }
    if !(FIVE_POWERS_MIN..=FIVE_POWERS_MAX).contains(&exponent) {
        return None;
    }
    Some(f64::from_bits(
        scaled_by_power_of_ten(mantissa, exponent) | sign,
    ))
}

/// `text` (strict JSON number syntax) as the nearest `f64`; `None` when the general path
/// must decide.
#[must_use]
#[inline]
pub fn parse_f64(text: &[u8]) -> Option<f64> {
    decimal_to_f64(parse_decimal(text)?)
}

/// `text` as an unsigned integer when it is plain digits (no sign, fraction or exponent)
/// that fit; `None` otherwise.
#[must_use]
#[inline]
pub fn parse_u64(text: &[u8]) -> Option<u64> {
    if text.is_empty() || text.len() > 19 || (text[0] == b'0' && text.len() > 1) {
        return None;
    }
    let (at, value) = digits(text, 0, 0);
    (at == text.len()).then_some(value)
}

/// `text` as a signed integer when it is `-`? and plain digits that fit; `None` otherwise.
#[must_use]
#[inline]
pub fn parse_i64(text: &[u8]) -> Option<i64> {
    match text.split_first() {
        Some((b'-', digits)) => {
            let magnitude = parse_u64(digits)?;
            // -0 is 0; i64::MIN's magnitude is 2^63.
            0i64.checked_sub_unsigned(magnitude)
        }
        _ => i64::try_from(parse_u64(text)?).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::Rng;

    fn check(text: &str) -> bool {
        let expected: f64 = text.parse().unwrap();
        match parse_f64(text.as_bytes()) {
            Some(value) => {
                assert_eq!(value.to_bits(), expected.to_bits(), "{text}");
                true
            }
            None => false,
        }
    }

    #[test]
    fn floats_match_the_standard_parser() {
        let cases = [
            "0",
            "-0",
            "0.0",
            "-0.0e5",
            "1",
            "-65.613616999999977",
            "43.420273000000009",
            "-65.6136170",
            "0.1",
            "0.30000000000000004",
            "123456789012345678",
            "1e22",
            "1e23",
            "1e-22",
            "1e-23",
            "9007199254740993",
            "9007199254740993e-1",
            "9007199254740992",
            "9007199254740995",
            "2.2250738585072014e-308",
            "2.2250738585072011e-308",
            "1.7976931348623157e308",
            "1.7976931348623159e308",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "1234567890123456789",
            "9999999999999999999",
            "0.000001234567890123456",
            "3.141592653589793238",
            "-0.0000000000000000000000001",
            "12345.678901234567e-3",
            "1E+2",
            "1e+0",
            "1e-0",
            "0.5",
            "1.5e-10",
        ];
        for case in cases {
            check(case);
        }
        assert!(check("-65.613616999999977"));
        assert!(check("0.1"));
    }

    #[test]
    fn shortest_prints_of_random_bits_read_back_exactly() {
        let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
        let mut fast = 0;
        for _ in 0..200_000 {
            let value = f64::from_bits(rng.next());
            if !value.is_finite() {
                continue;
            }
            // Both notations: `{:?}` switches to an exponent for large and small values.
            for text in [format!("{value:?}"), format!("{value}")] {
                if check(&text) {
                    fast += 1;
                }
            }
        }
        assert!(fast > 1000, "fast path taken {fast} times");
    }

    #[test]
    fn long_mantissas_with_fractions_are_taken_by_the_fast_path_and_exact() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut fast = 0;
        let mut total = 0;
        for _ in 0..200_000 {
            let state = rng.next();
            let width = 15 + (state % 5) as u32; // 15..=19 digits
            let low = 10u64.pow(width - 1);
            let mantissa = low + rng.next() % (9 * low);
            let digits = mantissa.to_string();
            let point = 1 + (state >> 40) as usize % (digits.len() - 1);
            let sign = if state & 1 == 0 { "" } else { "-" };
            let text = format!("{sign}{}.{}", &digits[..point], &digits[point..]);
            total += 1;
            if check(&text) {
                fast += 1;
            }
        }
        assert!(fast * 10 > total * 9, "fast path taken {fast} of {total}");
    }

    #[test]
    fn short_mantissas_scaled_down_are_exact() {
        // Mantissas up to 2^53 with a fraction take the 128-bit product, not a division:
        // every mantissa up to 2,000 and random ones up to 2^53, at every power of ten
        // from 10^-1 to 10^-27, compared with the standard parser.
        let mut rng = Rng::new(0x5eed_0fd1_f15e_5105);
        for exponent in -27..0 {
            let random = (0..300).map(|_| rng.next() % (1 << 53));
            let edges = [(1 << 52) + 1, (1 << 53) - 1, 1 << 53];
            for mantissa in (1..=2_000).chain(random).chain(edges) {
                for sign in ["", "-"] {
                    let text = format!("{sign}{mantissa}e{exponent}");
                    assert!(check(&text), "{text} left to the general path");
                }
            }
        }
    }

    #[test]
    fn rounding_up_to_a_power_of_two_carries_into_the_exponent() {
        // Mantissas just below a power of two that need more than 53 bits round up to it:
        // the significand becomes 2^53 and the exponent grows by one. Negative ones too,
        // whose sign is set on the bits afterwards.
        for bits in 54..64 {
            let mantissa = (1u64 << bits) - 1;
            for exponent in [-3, 0, 2] {
                for sign in ["", "-"] {
                    let text = format!("{sign}{mantissa}e{exponent}");
                    assert!(check(&text), "{text} left to the general path");
                }
            }
        }
        assert_eq!(
            parse_f64(b"-18014398509481983"),
            Some(-18_014_398_509_481_984.0)
        );
        assert_eq!(
            parse_f64(b"-0.0").map(f64::to_bits),
            Some((-0.0f64).to_bits())
        );
        assert_eq!(parse_f64(b"-0.5"), Some(-0.5));
    }

    #[test]
    fn every_power_of_ten_in_the_multiplication_range_is_exact() {
        // Random mantissas of 1 to 19 digits at every power of ten the 128-bit method
        // takes (all settled on the fast path), and one past each end.
        let mut rng = Rng::new(0x51_7cc1_b727_220a);
        for exponent in FIVE_POWERS_MIN - 1..=FIVE_POWERS_MAX + 1 {
            for _ in 0..2_000 {
                let width = 1 + (rng.next() % 19) as u32;
                let mantissa = rng.next() % 10u64.pow(width);
                let text = format!("{mantissa}e{exponent}");
                let fast = check(&text);
                if (FIVE_POWERS_MIN..=FIVE_POWERS_MAX).contains(&exponent) {
                    assert!(fast, "{text} left to the general path");
                }
            }
            // The extremes of the mantissa.
            for mantissa in [1, 9_007_199_254_740_993, u64::MAX / 10 * 10 - 1] {
                check(&format!("{mantissa}e{exponent}"));
            }
        }
    }

    #[test]
    fn exact_ties_round_to_even() {
        // (2s + 1) * 2^k lies exactly halfway between two doubles; written as decimal
        // digits times a power of ten (k < 0: times 5^-k over 10^-k).
        let mut rng = Rng::new(0x0bad_5eed_1234_5678);
        for _ in 0..50_000 {
            let odd = 2 * ((1u64 << 52) + rng.next() % (1 << 52)) + 1;
            let k = (rng.next() % 14) as i32 - 3; // -3..=10
            let (mantissa, exponent) = if k >= 0 {
                (u128::from(odd) << k, 0)
            } else {
                (u128::from(odd) * 5u128.pow(k.unsigned_abs()), k)
            };
            // Move trailing zeros into the exponent, as a writer of the text would.
            let (mut mantissa, mut exponent) = (mantissa, exponent);
            while mantissa % 10 == 0 {
                mantissa /= 10;
                exponent += 1;
            }
            let Ok(mantissa) = u64::try_from(mantissa) else {
                continue;
            };
            if mantissa >= 10u64.pow(19) {
                continue;
            }
            assert!(
                check(&format!("{mantissa}e{exponent}")),
                "{mantissa}e{exponent}"
            );
        }
    }

    #[test]
    fn halfway_cases_and_their_neighbours_are_exact() {
        // x + half an ulp, just below and just above it, for values near 1 and near 100.
        let mut rng = Rng::new(0xdead_beef_cafe_f00d);
        for _ in 0..20_000 {
            let base = 1.0 + (rng.next() % 1_000_000) as f64 / 7.0;
            let next = f64::from_bits(base.to_bits() + 1);
            // The exact midpoint has more digits than 19; these 17-19 digit
            // neighbours of it stress the proof right at the boundary.
            for digits in 17..=19 {
                let mid = format!("{:.*}", digits - 3, (base + next) / 2.0);
                check(&mid);
            }
            check(&format!("{base:.20}"));
        }
        // Exact ties are left to the general path or correct.
        for tie in ["9007199254740993", "9007199254740995", "4503599627370497.5"] {
            check(tie);
        }
    }

    #[test]
    fn exponent_extremes_and_subnormals_are_correct_or_declined() {
        for text in [
            "1e308",
            "1e309",
            "1e-324",
            "5e-324",
            "1e-400",
            "123456789e-320",
            "4.9406564584124654e-324",
            "2.225073858507201e-308",
            "1e10000",
            "1e-10000",
        ] {
            let expected: f64 = text.parse().unwrap();
            if let Some(value) = parse_f64(text.as_bytes()) {
                assert_eq!(value.to_bits(), expected.to_bits(), "{text}");
            }
        }
        assert_eq!(parse_f64(b"1e99999"), None);
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
            "1 ",
            "12345678901234567890",
            "1.00000000000000000000",
            // 64 trailing zeros make the wrapping digit sum zero: still too many digits.
            "6178787134922198000000000000000000000000000000000000000000000000000000000000000",
        ] {
            assert_eq!(parse_f64(case.as_bytes()), None, "{case}");
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
    fn digit_runs_of_every_length_and_position_are_read_whole() {
        for offset in 0..3 {
            for len in 0..=20 {
                for stop in [b'.', b'e', b'/', b':', 0xFF, 0x00, b' '] {
                    for tail in [0, 1, 9] {
                        let mut bytes = vec![b'-'; offset];
                        bytes.extend((0..len).map(|i| b'1' + (i % 9) as u8));
                        if tail > 0 {
                            bytes.push(stop);
                            bytes.extend(std::iter::repeat_n(b'7', tail - 1));
                        }
                        let text = std::str::from_utf8(&bytes[offset..offset + len]).unwrap();
                        let expected = text.parse::<u64>().unwrap_or(0);
                        let (end, value) = digits(&bytes, offset, 0);
                        assert_eq!(end, offset + len, "{bytes:?}");
                        if len <= 19 {
                            assert_eq!(value, expected, "{bytes:?}");
                        }
                    }
                }
            }
        }
        // The value continues from the one passed in.
        assert_eq!(digits(b"34", 0, 12), (2, 1234));
        assert_eq!(digits(b"345678901,", 0, 12), (9, 12_345_678_901));
    }

    #[test]
    fn short_digit_runs_are_read_at_every_length() {
        for len in 0..=17 {
            for stop in [b'.', b'e', b'/', b':', 0xFF, 0x00, b' ', b','] {
                let mut bytes = [stop; 16];
                for (i, byte) in bytes.iter_mut().take(len).enumerate() {
                    *byte = b'0' + ((i * 7 + 3) % 10) as u8;
                }
                let expected = |before: u64| {
                    (1..16).contains(&len).then(|| {
                        let text = std::str::from_utf8(&bytes[..len]).unwrap();
                        let run = text.parse::<u64>().unwrap();
                        (len, before * 10u64.pow(len as u32) + run)
                    })
                };
                assert_eq!(short_digit_run(&bytes, 0), expected(0), "{bytes:?}");
                // The run continues the value passed in (a number's integer part).
                assert_eq!(short_digit_run(&bytes, 1234), expected(1234), "{bytes:?}");
            }
        }
    }

    #[test]
    fn integers() {
        assert_eq!(parse_u64(b"0"), Some(0));
        assert_eq!(parse_u64(b""), None);
        assert_eq!(parse_u64(b"18446744073709551615"), None);
        assert_eq!(
            parse_u64(b"9999999999999999999"),
            Some(9_999_999_999_999_999_999)
        );
        assert_eq!(parse_u64(b"007"), None);
        assert_eq!(parse_u64(b"1.0"), None);
        assert_eq!(parse_u64(b"-1"), None);
        assert_eq!(parse_i64(b"-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_i64(b"9223372036854775808"), None);
        assert_eq!(parse_i64(b"-0"), Some(0));
        assert_eq!(parse_i64(b"-12"), Some(-12));
        assert_eq!(parse_i64(b"-"), None);
    }
}
