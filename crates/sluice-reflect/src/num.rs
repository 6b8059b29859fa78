//! Fast conversions of number text (strict JSON syntax) into native numbers.
//!
//! The property writer gets most numbers as text (`Number::Text`) and converts each into the
//! type of its place. The general conversions of `sluice_core::Number` handle every syntax
//! and every error; these handle the common case quickly (through `sluice_core::decimal`,
//! shared with the JSON reader) and answer `None` for anything else, and the caller then
//! takes the general path, which also builds the error.

use sluice_core::decimal;

/// `text` as the nearest `f64`, for strict JSON number text; `None` when the general path
/// must decide.
#[inline]
pub(crate) fn parse_f64(text: &str) -> Option<f64> {
    decimal::parse_f64(text.as_bytes())
}

/// `text` as an unsigned integer when it is plain digits (no sign, fraction or exponent)
/// that fit; `None` otherwise.
#[inline]
pub(crate) fn parse_u64(text: &str) -> Option<u64> {
    decimal::parse_u64(text.as_bytes())
}

/// `text` as a signed integer when it is `-`? and plain digits that fit; `None` otherwise.
#[inline]
pub(crate) fn parse_i64(text: &str) -> Option<i64> {
    decimal::parse_i64(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_paths_agree_with_the_general_conversions() {
        for text in ["0", "-0", "0.1", "-65.613616999999977", "1e22", "123456789"] {
            let expected: f64 = text.parse().unwrap();
            assert_eq!(parse_f64(text).map(f64::to_bits), Some(expected.to_bits()));
        }
        assert_eq!(parse_f64("1e400"), None);
        assert_eq!(parse_f64(".5"), None);
        assert_eq!(parse_u64("18446744073709551615"), None);
        assert_eq!(parse_u64("42"), Some(42));
        assert_eq!(parse_i64("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_i64("1.0"), None);
    }
}
