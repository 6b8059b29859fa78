//! Lazy numbers.
//!
//! A JSON reader does not parse numbers: it hands out their source text with a
//! [`NumberHint`] from the syntax, and the caller parses at the call site into the type it
//! actually wants (`read_u8`, `read_f64`, `read_i128` ...). That is faster (a skipped or
//! copied number is never parsed), and exact: a 20-digit integer copied from JSON to JSON
//! keeps every digit, and a `u64` is never squeezed through an `f64`.
//!
//! Formats that know their types (MessagePack, native values) hand out typed numbers. Every
//! conversion is checked: 300 read as `i8` is [`NUMBER_OUT_OF_RANGE`](crate::codes::NUMBER_OUT_OF_RANGE),
//! 1.5 read as an integer is [`NUMBER_NOT_INTEGER`](crate::codes::NUMBER_NOT_INTEGER); nothing
//! wraps or truncates silently. Float text read as an integer is read on its digits, never
//! through an `f64`: `1e18` is 10^18 exactly, and `1.00000000000000001` is not an integer.

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::error::excerpt;
use crate::{Error, NumberHint, Result, codes};

/// A number as a reader hands it out: source text to parse on demand, or a typed value.
///
/// ```
/// use sluice_core::{Number, NumberHint};
/// let n = Number::Text("300", NumberHint::Integer);
/// assert_eq!(n.to_u16().unwrap(), 300);
/// assert!(n.to_i8().is_err()); // out of range, never wrapped
/// assert_eq!(Number::Text("0.1", NumberHint::Float).to_f64().unwrap(), 0.1);
/// assert!(Number::Text("1.5", NumberHint::Float).to_i64().is_err());
/// assert_eq!(Number::F64(2.0).to_i64().unwrap(), 2);
/// ```
#[derive(Debug, Clone, Copy)]
pub enum Number<'a> {
    /// Source text in JSON number syntax (already validated by the reader) and its hint.
    Text(&'a str, NumberHint),
    /// A signed integer (formats widen i8..i64 to this).
    I64(i64),
    /// An unsigned integer (formats widen u8..u64 to this).
    U64(u64),
    /// A signed 128-bit integer.
    I128(i128),
    /// An unsigned 128-bit integer.
    U128(u128),
    /// A 32-bit float, kept as such so it can be written back as 32 bits.
    F32(f32),
    /// A 64-bit float.
    F64(f64),
}

fn out_of_range(value: &dyn fmt::Display, target: &str) -> Error {
    let value = value.to_string();
    Error::new(
        codes::NUMBER_OUT_OF_RANGE,
        format!("number {} does not fit in {target}", excerpt(&value)),
    )
}

fn not_integer(value: &dyn fmt::Display, target: &str) -> Error {
    let value = value.to_string();
    Error::new(
        codes::NUMBER_NOT_INTEGER,
        format!(
            "expected an integer for {target}, found {}",
            excerpt(&value)
        ),
    )
}

fn invalid(text: &str) -> Error {
    Error::new(
        codes::INVALID_NUMBER,
        format!("invalid number text {:?}", excerpt(text)),
    )
}

/// The general text to `f64` conversion, for text the fast path of
/// [`decimal`](crate::decimal) declines: any syntax lexical-core reads, and every error.
#[cold]
#[inline(never)]
pub(crate) fn text_to_f64(text: &str) -> Result<f64> {
    let value = lexical_core::parse::<f64>(text.as_bytes()).map_err(|_| invalid(text))?;
    if value.is_infinite() && text.bytes().any(|b| b.is_ascii_digit()) {
        return Err(out_of_range(&text, "f64"));
    }
    Ok(value)
}

/// Integer text is all ASCII digits after an optional minus sign.
fn is_integer_text(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The exact value of decimal text with a fraction or an exponent, read as an integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Integral {
    /// The text names this integer exactly (`1.0`, `1e18`, `250e-1`; not `-25E-1`, -2.5).
    Exact { negative: bool, magnitude: u128 },
    /// The text has a non-zero fraction (`1.00000000000000001`, `1e-400`).
    Fraction,
    /// The text names an integer beyond every 128-bit type (`1e400`).
    TooLarge,
}

/// Reads decimal text (`[+-]digits[.digits][(e|E)[+-]digits]`, at least one digit before
/// the exponent) as an integer, exactly: on the digits, never through an `f64`, which would
/// round `1.00000000000000001` to an integer and `9007199254740993.0` to another one.
/// `None` when the text is not in that syntax.
fn integral_value(text: &str) -> Option<Integral> {
    let bytes = text.as_bytes();
    let (negative, mut at) = match bytes.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let int_start = at;
    while bytes.get(at).is_some_and(u8::is_ascii_digit) {
        at += 1;
    }
    let int_digits = &bytes[int_start..at];
    let mut frac_digits: &[u8] = &[];
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        let frac_start = at;
        while bytes.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        frac_digits = &bytes[frac_start..at];
    }
    if int_digits.is_empty() && frac_digits.is_empty() {
        return None;
    }
    // The written exponent, saturated at the ends of `i64`, far beyond the length of any
    // text whose digits could compensate it. (A smaller cap is not safe: a million zeros
    // after `1` then `e-1000001` is 0.1, not 1.)
    let mut exponent: i64 = 0;
    if let Some(b'e' | b'E') = bytes.get(at) {
        at += 1;
        let exponent_negative = bytes.get(at) == Some(&b'-');
        if let Some(b'+' | b'-') = bytes.get(at) {
            at += 1;
        }
        let exp_start = at;
        while let Some(&digit) = bytes.get(at).filter(|b| b.is_ascii_digit()) {
            exponent = exponent
                .saturating_mul(10)
                .saturating_add(i64::from(digit - b'0'));
            at += 1;
        }
        if at == exp_start {
            return None;
        }
        if exponent_negative {
            exponent = -exponent;
        }
    }
    if at != bytes.len() {
        return None;
    }
    // value = digits * 10^(exponent - fraction length), digits without their leading zeros.
    let all_digits = || int_digits.iter().chain(frac_digits).copied();
    let Some(first) = all_digits().position(|b| b != b'0') else {
        return Some(Integral::Exact {
            negative,
            magnitude: 0,
        });
    };
    let last = all_digits()
        .enumerate()
        .filter(|&(_, b)| b != b'0')
        .last()
        .map_or(first, |(index, _)| index);
    let total = int_digits.len() + frac_digits.len();
    // Trailing zeros move into the exponent, so a negative exponent now means a fraction.
    let fraction_len = i64::try_from(frac_digits.len()).unwrap_or(i64::MAX);
    let trailing_zeros = i64::try_from(total - 1 - last).unwrap_or(i64::MAX);
    let scale = exponent
        .saturating_sub(fraction_len)
        .saturating_add(trailing_zeros);
    if scale < 0 {
        return Some(Integral::Fraction);
    }
    // u128::MAX has 39 digits.
    let significant = i64::try_from(last + 1 - first).unwrap_or(i64::MAX);
    if significant.saturating_add(scale) > 39 {
        return Some(Integral::TooLarge);
    }
    let mut magnitude: u128 = 0;
    let digits = all_digits().skip(first).take(last + 1 - first);
    for digit in digits
        .map(|b| u128::from(b - b'0'))
        .chain((0..scale).map(|_| 0))
    {
        let Some(next) = magnitude.checked_mul(10).and_then(|m| m.checked_add(digit)) else {
            return Some(Integral::TooLarge);
        };
        magnitude = next;
    }
    Some(Integral::Exact {
        negative,
        magnitude,
    })
}

/// An exact integer in `T`, or out of range.
fn integral_to<T: TryFrom<u128> + TryFrom<i128>>(
    negative: bool,
    magnitude: u128,
    shown: &dyn fmt::Display,
    target: &str,
) -> Result<T> {
    let converted = if negative && magnitude != 0 {
        // -2^127 is the one negative magnitude that does not fit an i128 positive.
        let signed = match i128::try_from(magnitude) {
            Ok(value) => Some(-value),
            Err(_) if magnitude == 1 << 127 => Some(i128::MIN),
            Err(_) => None,
        };
        signed.and_then(|value| T::try_from(value).ok())
    } else {
        T::try_from(magnitude).ok()
    };
    converted.ok_or_else(|| out_of_range(shown, target))
}

macro_rules! integer_conversions {
    ($($(#[$doc:meta])* $name:ident -> $ty:ty;)*) => {$(
        $(#[$doc])*
        ///
        /// # Errors
        /// [`NUMBER_OUT_OF_RANGE`](crate::codes::NUMBER_OUT_OF_RANGE) when the value does not
        /// fit, [`NUMBER_NOT_INTEGER`](crate::codes::NUMBER_NOT_INTEGER) when it has a
        /// fractional part, [`INVALID_NUMBER`](crate::codes::INVALID_NUMBER) for bad text.
        pub fn $name(self) -> Result<$ty> {
            let target = stringify!($ty);
            match self {
                Number::Text(text, _) if is_integer_text(text) => {
                    match lexical_core::parse::<$ty>(text.as_bytes()) {
                        Ok(v) => Ok(v),
                        // "-0" is zero for the unsigned types too.
                        Err(_) if text.trim_start_matches('-').bytes().all(|b| b == b'0') => Ok(0),
                        Err(_) => Err(out_of_range(&text, target)),
                    }
                }
                Number::Text(text, _) => match integral_value(text) {
                    Some(Integral::Exact { negative, magnitude }) => {
                        integral_to(negative, magnitude, &text, target)
                    }
                    Some(Integral::Fraction) => Err(not_integer(&text, target)),
                    Some(Integral::TooLarge) => Err(out_of_range(&text, target)),
                    // Other spellings (`Infinity`, `NaN`): through the float they name.
                    None => {
                        let value = lexical_core::parse::<f64>(text.as_bytes())
                            .map_err(|_| invalid(text))?;
                        Self::float_to_integer(value, &text, target)
                    }
                },
                Number::I64(v) => <$ty>::try_from(v).map_err(|_| out_of_range(&v, target)),
                Number::U64(v) => <$ty>::try_from(v).map_err(|_| out_of_range(&v, target)),
                Number::I128(v) => <$ty>::try_from(v).map_err(|_| out_of_range(&v, target)),
                Number::U128(v) => <$ty>::try_from(v).map_err(|_| out_of_range(&v, target)),
                Number::F32(v) => Self::float_to_integer(f64::from(v), &v, target),
                Number::F64(v) => Self::float_to_integer(v, &v, target),
            }
        }
    )*};
}

impl<'a> Number<'a> {
    integer_conversions! {
        /// The number as an `i8`.
        to_i8 -> i8;
        /// The number as an `i16`.
        to_i16 -> i16;
        /// The number as an `i32`.
        to_i32 -> i32;
        /// The number as an `i64`.
        to_i64 -> i64;
        /// The number as an `i128`.
        to_i128 -> i128;
        /// The number as an `isize`.
        to_isize -> isize;
        /// The number as a `u8`.
        to_u8 -> u8;
        /// The number as a `u16`.
        to_u16 -> u16;
        /// The number as a `u32`.
        to_u32 -> u32;
        /// The number as a `u64`.
        to_u64 -> u64;
        /// The number as a `u128`.
        to_u128 -> u128;
        /// The number as a `usize`.
        to_usize -> usize;
    }

    fn float_to_integer<T: TryFrom<i128> + TryFrom<u128>>(
        value: f64,
        shown: &dyn fmt::Display,
        target: &str,
    ) -> Result<T> {
        // NaN names no number at all, so it is no integer; an infinity is one beyond
        // every range.
        if value.is_nan() {
            return Err(not_integer(shown, target));
        }
        if value.is_infinite() {
            return Err(out_of_range(shown, target));
        }
        if value.fract() != 0.0 {
            return Err(not_integer(shown, target));
        }
        Self::from_integral_float(value, shown, target)
    }

    fn from_integral_float<T: TryFrom<i128> + TryFrom<u128>>(
        value: f64,
        shown: &dyn fmt::Display,
        target: &str,
    ) -> Result<T> {
        // Exact as `f64`: the ends of the 128-bit ranges.
        #[allow(clippy::cast_precision_loss)]
        const TWO_TO_127: f64 = (1u128 << 127) as f64;
        const TWO_TO_128: f64 = TWO_TO_127 * 2.0;
        // An integral value in range converts exactly: 0 to 2^128 through `u128` (which
        // reaches the values from 2^127 up, a `u128` target's too), negatives through
        // `i128`. Out of range, the casts would saturate instead of failing.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let converted = if (0.0..TWO_TO_128).contains(&value) {
            T::try_from(value as u128).ok()
        } else if (-TWO_TO_127..0.0).contains(&value) {
            T::try_from(value as i128).ok()
        } else {
            None
        };
        converted.ok_or_else(|| out_of_range(shown, target))
    }

    /// The number as an `f64`, correctly rounded from text; integers round to nearest.
    ///
    /// # Errors
    /// [`NUMBER_OUT_OF_RANGE`](crate::codes::NUMBER_OUT_OF_RANGE) when finite text overflows
    /// (`1e400`); [`INVALID_NUMBER`](crate::codes::INVALID_NUMBER) for bad text.
    #[allow(clippy::cast_precision_loss)]
    pub fn to_f64(self) -> Result<f64> {
        match self {
            Number::Text(text, _) => match crate::decimal::parse_f64(text.as_bytes()) {
                Some(value) => Ok(value),
                None => text_to_f64(text),
            },
            Number::I64(v) => Ok(v as f64),
            Number::U64(v) => Ok(v as f64),
            Number::I128(v) => Ok(v as f64),
            Number::U128(v) => Ok(v as f64),
            Number::F32(v) => Ok(f64::from(v)),
            Number::F64(v) => Ok(v),
        }
    }

    /// The number as an `f32`, correctly rounded (text is parsed straight to `f32`, never
    /// through `f64`, so there is no double rounding).
    ///
    /// # Errors
    /// [`NUMBER_OUT_OF_RANGE`](crate::codes::NUMBER_OUT_OF_RANGE) when a finite value rounds beyond
    /// the `f32` range; [`INVALID_NUMBER`](crate::codes::INVALID_NUMBER) for bad text.
    #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
    pub fn to_f32(self) -> Result<f32> {
        let value = match self {
            Number::Text(text, _) => {
                let value =
                    lexical_core::parse::<f32>(text.as_bytes()).map_err(|_| invalid(text))?;
                if value.is_infinite() && text.bytes().any(|b| b.is_ascii_digit()) {
                    return Err(out_of_range(&text, "f32"));
                }
                return Ok(value);
            }
            Number::F32(v) => return Ok(v),
            Number::F64(v) => {
                // Out of range only when it rounds to infinity: a little above `f32::MAX`
                // still rounds down to it, as the same value written as text does.
                let narrow = v as f32;
                if v.is_finite() && narrow.is_infinite() {
                    return Err(out_of_range(&v, "f32"));
                }
                return Ok(narrow);
            }
            Number::I64(v) => v as f32,
            Number::U64(v) => v as f32,
            Number::I128(v) => v as f32,
            Number::U128(v) => v as f32,
        };
        if value.is_infinite() {
            return Err(out_of_range(&self, "f32"));
        }
        Ok(value)
    }

    /// The source text, for text numbers.
    #[must_use]
    pub fn as_text(self) -> Option<&'a str> {
        match self {
            Number::Text(text, _) => Some(text),
            _ => None,
        }
    }

    /// What the number looks like: integer, negative integer or float.
    #[must_use]
    pub fn hint(self) -> NumberHint {
        match self {
            Number::Text(_, hint) => hint,
            Number::I64(v) if v < 0 => NumberHint::NegInteger,
            Number::I128(v) if v < 0 => NumberHint::NegInteger,
            Number::I64(_) | Number::I128(_) | Number::U64(_) | Number::U128(_) => {
                NumberHint::Integer
            }
            Number::F32(_) | Number::F64(_) => NumberHint::Float,
        }
    }

    /// Whether this is a float (typed, or text with a fraction or exponent).
    #[must_use]
    pub fn is_float(self) -> bool {
        self.hint() == NumberHint::Float
    }

    /// The narrowest typed integer holding an integer value: `U64` for non-negative values
    /// up to `u64::MAX`, `I64` for negatives down to `i64::MIN`, then the 128-bit types.
    /// Floats are returned unchanged; float text is parsed to `F64`. Integer text for zero
    /// with a minus sign (`-0`) becomes `F64(-0.0)`, as serde_json reads it: no integer
    /// type has a negative zero, and the sign is part of the data.
    ///
    /// ```
    /// use sluice_core::{Number, NumberHint};
    /// let minus_zero = Number::Text("-0", NumberHint::NegInteger).to_typed()?;
    /// assert!(matches!(minus_zero, Number::F64(v) if v == 0.0 && v.is_sign_negative()));
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// When integer text does not fit even 128 bits, or the text is invalid.
    pub fn to_typed(self) -> Result<Number<'static>> {
        match self {
            Number::Text(_, NumberHint::Float) => Ok(Number::F64(self.to_f64()?)),
            Number::Text(text, NumberHint::NegInteger) => match self.to_i64() {
                Ok(0) => Ok(Number::F64(-0.0)),
                Ok(v) => Ok(Number::I64(v)),
                Err(_) => self
                    .to_i128()
                    .map(Number::I128)
                    .map_err(|_| out_of_range(&text, "i128")),
            },
            Number::Text(text, NumberHint::Integer) => match self.to_u64() {
                Ok(v) => Ok(Number::U64(v)),
                Err(_) => self
                    .to_u128()
                    .map(Number::U128)
                    .map_err(|_| out_of_range(&text, "u128")),
            },
            Number::I64(v) => Ok(u64::try_from(v).map_or(Number::I64(v), Number::U64)),
            Number::U64(v) => Ok(Number::U64(v)),
            Number::I128(v) => Ok(match (u64::try_from(v), i64::try_from(v)) {
                (Ok(u), _) => Number::U64(u),
                (_, Ok(i)) => Number::I64(i),
                _ => Number::I128(v),
            }),
            Number::U128(v) => Ok(u64::try_from(v).map_or(Number::U128(v), Number::U64)),
            Number::F32(v) => Ok(Number::F32(v)),
            Number::F64(v) => Ok(Number::F64(v)),
        }
    }

    /// An owned copy, to keep past the reader's next call.
    #[must_use]
    pub fn to_owned_number(self) -> OwnedNumber {
        OwnedNumber::from(self)
    }
}

impl fmt::Display for Number<'_> {
    /// Text numbers show their source text; typed floats their shortest round-trip form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Number::Text(text, _) => f.write_str(text),
            Number::I64(v) => write!(f, "{v}"),
            Number::U64(v) => write!(f, "{v}"),
            Number::I128(v) => write!(f, "{v}"),
            Number::U128(v) => write!(f, "{v}"),
            Number::F32(v) => write!(f, "{v:?}"),
            Number::F64(v) => write!(f, "{v:?}"),
        }
    }
}

/// An owned [`Number`], kept exactly as read (used by [`Value`](crate::Value) and
/// [`Token`](crate::Token)).
///
/// Equality is exact: text numbers compare by text, floats by their bits (so `NaN == NaN`
/// and `0.0 != -0.0`), which is what "reproduces the value exactly" needs.
///
/// ```
/// use sluice_core::{Number, NumberHint, OwnedNumber};
/// let owned = Number::Text("12.50", NumberHint::Float).to_owned_number();
/// assert_eq!(owned.as_number().as_text(), Some("12.50"));
/// assert_eq!(OwnedNumber::F64(f64::NAN), OwnedNumber::F64(f64::NAN));
/// ```
#[derive(Debug, Clone)]
pub enum OwnedNumber {
    /// Source text and hint.
    Text(Box<str>, NumberHint),
    /// A signed integer.
    I64(i64),
    /// An unsigned integer.
    U64(u64),
    /// A signed 128-bit integer.
    I128(i128),
    /// An unsigned 128-bit integer.
    U128(u128),
    /// A 32-bit float.
    F32(f32),
    /// A 64-bit float.
    F64(f64),
}

impl OwnedNumber {
    /// Borrows this as a [`Number`].
    #[must_use]
    pub fn as_number(&self) -> Number<'_> {
        match self {
            OwnedNumber::Text(text, hint) => Number::Text(text, *hint),
            OwnedNumber::I64(v) => Number::I64(*v),
            OwnedNumber::U64(v) => Number::U64(*v),
            OwnedNumber::I128(v) => Number::I128(*v),
            OwnedNumber::U128(v) => Number::U128(*v),
            OwnedNumber::F32(v) => Number::F32(*v),
            OwnedNumber::F64(v) => Number::F64(*v),
        }
    }
}

impl From<Number<'_>> for OwnedNumber {
    fn from(number: Number<'_>) -> OwnedNumber {
        match number {
            Number::Text(text, hint) => OwnedNumber::Text(text.into(), hint),
            Number::I64(v) => OwnedNumber::I64(v),
            Number::U64(v) => OwnedNumber::U64(v),
            Number::I128(v) => OwnedNumber::I128(v),
            Number::U128(v) => OwnedNumber::U128(v),
            Number::F32(v) => OwnedNumber::F32(v),
            Number::F64(v) => OwnedNumber::F64(v),
        }
    }
}

impl PartialEq for OwnedNumber {
    fn eq(&self, other: &OwnedNumber) -> bool {
        match (self, other) {
            (OwnedNumber::Text(a, ha), OwnedNumber::Text(b, hb)) => a == b && ha == hb,
            (OwnedNumber::I64(a), OwnedNumber::I64(b)) => a == b,
            (OwnedNumber::U64(a), OwnedNumber::U64(b)) => a == b,
            (OwnedNumber::I128(a), OwnedNumber::I128(b)) => a == b,
            (OwnedNumber::U128(a), OwnedNumber::U128(b)) => a == b,
            (OwnedNumber::F32(a), OwnedNumber::F32(b)) => a.to_bits() == b.to_bits(),
            (OwnedNumber::F64(a), OwnedNumber::F64(b)) => a.to_bits() == b.to_bits(),
            _ => false,
        }
    }
}

impl Eq for OwnedNumber {}

impl Hash for OwnedNumber {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            OwnedNumber::Text(text, hint) => {
                text.hash(state);
                hint.hash(state);
            }
            OwnedNumber::I64(v) => v.hash(state),
            OwnedNumber::U64(v) => v.hash(state),
            OwnedNumber::I128(v) => v.hash(state),
            OwnedNumber::U128(v) => v.hash(state),
            OwnedNumber::F32(v) => v.to_bits().hash(state),
            OwnedNumber::F64(v) => v.to_bits().hash(state),
        }
    }
}

impl fmt::Display for OwnedNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_number().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Number<'_> {
        Number::Text(s, NumberHint::of_text(s))
    }

    #[test]
    fn integer_text_is_range_checked_for_every_width() {
        assert_eq!(text("127").to_i8().unwrap(), 127);
        assert_eq!(
            text("128").to_i8().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(text("-128").to_i8().unwrap(), -128);
        assert_eq!(
            text("300").to_u8().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(
            text("-1").to_u64().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(text("-0").to_u64().unwrap(), 0);
        assert_eq!(text("18446744073709551615").to_u64().unwrap(), u64::MAX);
        assert_eq!(
            text("18446744073709551616").to_u64().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(text("-9223372036854775808").to_i64().unwrap(), i64::MIN);
        assert_eq!(
            text("170141183460469231731687303715884105727")
                .to_i128()
                .unwrap(),
            i128::MAX
        );
        assert_eq!(
            text("340282366920938463463374607431768211455")
                .to_u128()
                .unwrap(),
            u128::MAX
        );
        assert_eq!(
            text("340282366920938463463374607431768211456")
                .to_u128()
                .unwrap_err()
                .code(),
            codes::NUMBER_OUT_OF_RANGE
        );
    }

    #[test]
    fn fractions_are_never_truncated_into_integers() {
        assert_eq!(
            text("1.5").to_i64().unwrap_err().code(),
            codes::NUMBER_NOT_INTEGER
        );
        assert_eq!(
            Number::F64(1.5).to_i64().unwrap_err().code(),
            codes::NUMBER_NOT_INTEGER
        );
        assert_eq!(
            Number::F32(-0.25).to_i32().unwrap_err().code(),
            codes::NUMBER_NOT_INTEGER
        );
        // Fractions too small for an f64 to keep are still fractions.
        for fraction in [
            "1.00000000000000001",
            "0.99999999999999999",
            "4.0000000000000001",
            "123456789.00000000001",
            "255.0000000000000001",
            "1e-400",
            "-1e-400",
            "125e-1",
            "1.000000000000000000000000000000000000000000001e20",
        ] {
            for code in [
                text(fraction).to_i64().map(drop),
                text(fraction).to_u64().map(drop),
                text(fraction).to_u8().map(drop),
                text(fraction).to_i128().map(drop),
            ]
            .map(|result| result.unwrap_err().code())
            {
                assert_eq!(code, codes::NUMBER_NOT_INTEGER, "{fraction}");
            }
        }
    }

    #[test]
    fn nan_is_not_an_integer_and_infinities_are_out_of_range() {
        let integer_read_codes = |number: Number<'_>| {
            [
                number.to_i64().map(drop),
                number.to_u8().map(drop),
                number.to_i128().map(drop),
                number.to_u128().map(drop),
            ]
            .map(|result| result.unwrap_err().code())
        };
        for nan in [
            Number::F64(f64::NAN),
            Number::F64(-f64::NAN),
            Number::F32(f32::NAN),
            text("NaN"),
            text("-NaN"),
        ] {
            assert_eq!(
                integer_read_codes(nan),
                [codes::NUMBER_NOT_INTEGER; 4],
                "{nan:?}"
            );
        }
        for infinity in [
            Number::F64(f64::INFINITY),
            Number::F64(f64::NEG_INFINITY),
            Number::F32(f32::INFINITY),
            text("Infinity"),
            text("-Infinity"),
        ] {
            assert_eq!(
                integer_read_codes(infinity),
                [codes::NUMBER_OUT_OF_RANGE; 4],
                "{infinity:?}"
            );
        }
    }

    #[test]
    fn integral_floats_convert_exactly_or_not_at_all() {
        assert_eq!(text("2.0").to_i64().unwrap(), 2);
        assert_eq!(text("1e3").to_u16().unwrap(), 1000);
        assert_eq!(
            text("1e3").to_u8().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        // Beyond 2^53 the text names an integer no f64 holds: read on the digits.
        assert_eq!(
            text("9007199254740993.0").to_i64().unwrap(),
            9_007_199_254_740_993
        );
        assert_eq!(text("1e18").to_i64().unwrap(), 1_000_000_000_000_000_000);
        assert_eq!(
            text("7.2057594037927933e16").to_u64().unwrap(),
            72_057_594_037_927_933
        );
        assert_eq!(text("-9.223372036854775808e18").to_i64().unwrap(), i64::MIN);
        assert_eq!(
            text("9.223372036854775808e18").to_i64().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(
            text("-1.7014118346046923173168730371588410572800e38")
                .to_i128()
                .unwrap(),
            i128::MIN
        );
        assert_eq!(text("1.2500e2").to_u8().unwrap(), 125);
        assert_eq!(text("1250e-1").to_u8().unwrap(), 125);
        assert_eq!(text("0.0e400").to_u8().unwrap(), 0);
        assert_eq!(text("-0.0").to_u64().unwrap(), 0);
        assert_eq!(
            text("1e400").to_i64().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(
            text("1e39").to_u128().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(
            text("-1e2").to_u64().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(
            Number::F64(-3.0).to_u32().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(
            Number::F64(1e300).to_i128().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(
            Number::F64(4_294_967_296.0).to_u64().unwrap(),
            4_294_967_296
        );
    }

    #[test]
    fn exponents_of_any_length_are_weighed_whole_against_the_digits() {
        // A million digits each side of the point: the written exponent counts in full
        // against them (a cap near their length made the first 1 and the third a fraction).
        let zeros = "0".repeat(1_000_000);
        let code = |text: &str| {
            Number::Text(text, NumberHint::Float)
                .to_i64()
                .unwrap_err()
                .code()
        };
        let value = |text: &str| Number::Text(text, NumberHint::Float).to_i64().unwrap();
        assert_eq!(
            code(&format!("1{zeros}e-1000001")),
            codes::NUMBER_NOT_INTEGER
        );
        assert_eq!(value(&format!("1{zeros}e-1000000")), 1);
        assert_eq!(value(&format!("0.{zeros}1e1000001")), 1);
        assert_eq!(
            value(&format!("0.{zeros}1e1000019")),
            1_000_000_000_000_000_000
        );
        assert_eq!(
            code(&format!("0.{zeros}1e1000020")),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(
            code(&format!("0.{zeros}1e1000000")),
            codes::NUMBER_NOT_INTEGER
        );
        // Exponents beyond `i64` saturate without overflowing.
        let huge = "9".repeat(30);
        assert_eq!(code(&format!("1e-{huge}")), codes::NUMBER_NOT_INTEGER);
        assert_eq!(code(&format!("1e{huge}")), codes::NUMBER_OUT_OF_RANGE);
        assert_eq!(value(&format!("0e{huge}")), 0);
        assert_eq!(value(&format!("-0.0e-{huge}")), 0);
    }

    #[test]
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    fn floats_up_to_the_ends_of_the_128_bit_ranges_convert_to_them() {
        let two_to_127 = 2f64.powi(127);
        assert_eq!(Number::F64(two_to_127).to_u128().unwrap(), 1 << 127);
        assert_eq!(Number::F64(3e38).to_u128().unwrap(), 3e38 as u128);
        assert_eq!(Number::F32(f32::MAX).to_u128().unwrap(), f32::MAX as u128);
        assert_eq!(Number::F64(1.7e38).to_i128().unwrap(), 1.7e38 as i128);
        assert_eq!(Number::F64(-two_to_127).to_i128().unwrap(), i128::MIN);
        assert_eq!(Number::F64(-0.0).to_u128().unwrap(), 0);
        for out_of_range in [
            Number::F64(two_to_127).to_i128().map(drop),
            Number::F64(2f64.powi(128)).to_u128().map(drop),
            Number::F64(f64::MAX).to_u128().map(drop),
            Number::F64(-two_to_127 * (1.0 + f64::EPSILON))
                .to_i128()
                .map(drop),
            Number::F64(-1.0).to_u128().map(drop),
            Number::F64(3e38).to_i128().map(drop),
        ] {
            assert_eq!(out_of_range.unwrap_err().code(), codes::NUMBER_OUT_OF_RANGE);
        }
    }

    #[test]
    fn a_double_that_rounds_to_the_largest_f32_is_in_its_range() {
        // Above `f32::MAX`, below the halfway point to the next power of two: rounds down to
        // it, as the same value written as text does. From the halfway point up: infinity.
        let above = 3.402_823_5e38_f64;
        assert!(above > f64::from(f32::MAX));
        assert_eq!(Number::F64(above).to_f32().unwrap(), f32::MAX);
        assert_eq!(Number::F64(-above).to_f32().unwrap(), f32::MIN);
        assert_eq!(text("3.4028235e38").to_f32().unwrap(), f32::MAX);
        let halfway = f64::from(f32::MAX) + 2f64.powi(103);
        assert_eq!(
            Number::F64(f64::from_bits(halfway.to_bits() - 1))
                .to_f32()
                .unwrap(),
            f32::MAX
        );
        assert_eq!(
            Number::F64(halfway).to_f32().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
    }

    #[test]
    fn typed_integers_convert_between_widths_with_checks() {
        assert_eq!(Number::U64(255).to_u8().unwrap(), 255);
        assert_eq!(
            Number::U64(256).to_u8().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(
            Number::I64(-1).to_u8().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(
            Number::U128(u128::MAX).to_i128().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(Number::I128(-5).to_i8().unwrap(), -5);
    }

    #[test]
    fn float_text_is_correctly_rounded() {
        assert_eq!(text("0.1").to_f64().unwrap(), 0.1);
        assert_eq!(text("5e-324").to_f64().unwrap(), 5e-324);
        assert_eq!(text("1.7976931348623157e308").to_f64().unwrap(), f64::MAX);
        assert_eq!(
            text("2.2250738585072014e-308").to_f64().unwrap(),
            2.225_073_858_507_201_4e-308
        );
        assert_eq!(
            text("1e400").to_f64().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        // Parsed straight to f32: this value would double-round through f64.
        assert_eq!(
            text("1.00000005960464477539062500001").to_f32().unwrap(),
            1.000_000_1_f32
        );
        assert_eq!(
            text("1e39").to_f32().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert_eq!(
            Number::F64(1e39).to_f32().unwrap_err().code(),
            codes::NUMBER_OUT_OF_RANGE
        );
        assert!(Number::F64(f64::INFINITY).to_f32().unwrap().is_infinite());
        assert_eq!(
            Number::U64(u64::MAX).to_f64().unwrap(),
            18_446_744_073_709_551_615.0
        );
    }

    #[test]
    fn invalid_text_is_reported_as_such() {
        assert_eq!(
            Number::Text("1.2.3", NumberHint::Float)
                .to_f64()
                .unwrap_err()
                .code(),
            codes::INVALID_NUMBER
        );
        assert_eq!(
            Number::Text("abc", NumberHint::Float)
                .to_i64()
                .unwrap_err()
                .code(),
            codes::INVALID_NUMBER
        );
    }

    #[test]
    fn to_typed_picks_the_narrowest_exact_form() {
        assert!(matches!(text("12").to_typed().unwrap(), Number::U64(12)));
        assert!(matches!(text("-12").to_typed().unwrap(), Number::I64(-12)));
        assert!(
            matches!(text("-0").to_typed().unwrap(), Number::F64(v) if v.to_bits() == (-0.0f64).to_bits())
        );
        assert!(matches!(text("0").to_typed().unwrap(), Number::U64(0)));
        assert!(matches!(
            text("18446744073709551616").to_typed().unwrap(),
            Number::U128(_)
        ));
        assert!(matches!(
            text("-9223372036854775809").to_typed().unwrap(),
            Number::I128(_)
        ));
        assert!(matches!(text("1.5").to_typed().unwrap(), Number::F64(v) if v == 1.5));
        assert!(matches!(Number::I64(7).to_typed().unwrap(), Number::U64(7)));
    }

    #[test]
    fn owned_numbers_compare_exactly() {
        assert_ne!(OwnedNumber::F64(0.0), OwnedNumber::F64(-0.0));
        assert_ne!(OwnedNumber::I64(1), OwnedNumber::U64(1));
        assert_eq!(
            text("1.50").to_owned_number(),
            text("1.50").to_owned_number()
        );
        assert_ne!(
            text("1.50").to_owned_number(),
            text("1.5").to_owned_number()
        );
    }
}
