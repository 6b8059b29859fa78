//! Property tests: lazy numbers convert exactly, whatever the value.

use proptest::prelude::*;
use sluice_core::{Number, NumberHint, codes};

proptest! {
    #[test]
    fn any_i64_text_reads_back_exactly(v: i64) {
        let text = v.to_string();
        let n = Number::Text(&text, NumberHint::of_text(&text));
        prop_assert_eq!(n.to_i64().unwrap(), v);
        prop_assert_eq!(n.to_i128().unwrap(), i128::from(v));
        prop_assert_eq!(n.to_i32().is_ok(), i32::try_from(v).is_ok());
        prop_assert_eq!(n.to_u64().is_ok(), v >= 0);
    }

    #[test]
    fn any_u128_text_reads_back_exactly(v: u128) {
        let text = v.to_string();
        let n = Number::Text(&text, NumberHint::Integer);
        prop_assert_eq!(n.to_u128().unwrap(), v);
        match u64::try_from(v) {
            Ok(small) => prop_assert_eq!(n.to_u64().unwrap(), small),
            Err(_) => prop_assert_eq!(n.to_u64().unwrap_err().code(), codes::NUMBER_OUT_OF_RANGE),
        }
    }

    #[test]
    fn integers_spelled_with_a_fraction_or_exponent_read_back_exactly(
        v: i64,
        zeros in 0usize..30,
        shift in 0usize..20,
    ) {
        // `v` written as digits, `shift` of them moved behind the point, `zeros` zeros
        // appended to the fraction, and the exponent restoring the value: `1234` as
        // `1.23400e3`.
        let digits = v.unsigned_abs().to_string();
        let shift = shift.min(digits.len() - 1);
        let (int, frac) = digits.split_at(digits.len() - shift);
        let sign = if v < 0 { "-" } else { "" };
        let text = format!("{sign}{int}.{frac}{}e{shift}", "0".repeat(zeros));
        let n = Number::Text(&text, NumberHint::Float);
        prop_assert_eq!(n.to_i64().unwrap(), v);
        prop_assert_eq!(n.to_i128().unwrap(), i128::from(v));
        prop_assert_eq!(n.to_u64().is_ok(), v >= 0);
        // One more digit behind the point makes a fraction, however far it is.
        let fraction = format!("{sign}{int}.{frac}{}1e{shift}", "0".repeat(zeros));
        let n = Number::Text(&fraction, NumberHint::Float);
        prop_assert_eq!(n.to_i64().unwrap_err().code(), codes::NUMBER_NOT_INTEGER);
    }

    #[test]
    fn shortest_f64_text_reads_back_to_the_same_bits(v in any::<f64>().prop_filter("finite", |v| v.is_finite())) {
        let text = format!("{v:?}");
        let n = Number::Text(&text, NumberHint::of_text(&text));
        prop_assert_eq!(n.to_f64().unwrap().to_bits(), v.to_bits());
    }

    #[test]
    fn shortest_f32_text_reads_back_to_the_same_bits(v in any::<f32>().prop_filter("finite", |v| v.is_finite())) {
        let text = format!("{v:?}");
        let n = Number::Text(&text, NumberHint::of_text(&text));
        prop_assert_eq!(n.to_f32().unwrap().to_bits(), v.to_bits());
    }

    #[test]
    fn typed_floats_with_fractions_never_become_integers(v in -1e15f64..1e15) {
        let n = Number::F64(v);
        if v.fract() == 0.0 {
            #[allow(clippy::cast_possible_truncation)]
            let expected = v as i64;
            prop_assert_eq!(n.to_i64().unwrap(), expected);
        } else {
            prop_assert_eq!(n.to_i64().unwrap_err().code(), codes::NUMBER_NOT_INTEGER);
        }
    }
}
