//! Checks on text the writer copies as it is: does a string need any escape, is number text
//! a JSON number. Both look at eight bytes at a time, because nearly every string and number
//! passes and is then copied whole.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;
const NIBBLES: u64 = 0xf0f0_f0f0_f0f0_f0f0;

#[inline(always)]
fn word_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// Non-zero when a byte of `word` is `"`, `\`, below 0x20, or (with `high` = [`HIGHS`]) not
/// ASCII. Exact as a yes/no answer: the borrows of the byte tests only ever spread upwards
/// from a byte that is itself special.
#[inline(always)]
fn special(word: u64, high: u64) -> u64 {
    let zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS;
    zero(word ^ (ONES * u64::from(b'"')))
        | zero(word ^ (ONES * u64::from(b'\\')))
        | (word.wrapping_sub(ONES * 0x20) & !word & HIGHS)
        | (word & high)
}

/// Whether `text` holds a byte the writer escapes: `"`, `\`, a control character, and with
/// `ascii_only` any byte of a non-ASCII character. Reads overlapping words, so short keys
/// and the tails of long strings cost no byte-by-byte loop.
#[inline(always)]
pub(super) fn needs_escape(text: &[u8], ascii_only: bool) -> bool {
    let high = if ascii_only { HIGHS } else { 0 };
    let len = text.len();
    if len >= 8 {
        let mut at = 0;
        while at + 8 < len {
            if special(word_at(text, at), high) != 0 {
                return true;
            }
            at += 8;
        }
        // The last eight bytes, overlapping what was checked already.
        return special(word_at(text, len - 8), high) != 0;
    }
    let word = if len >= 4 {
        // Two overlapping halves cover 4 to 7 bytes.
        let low = u32::from_le_bytes([text[0], text[1], text[2], text[3]]);
        let top = u32::from_le_bytes([text[len - 4], text[len - 3], text[len - 2], text[len - 1]]);
        u64::from(low) | (u64::from(top) << 32)
    } else if len > 0 {
        // The first, middle and last byte cover 1 to 3 bytes; repeat them to fill the word.
        let three =
            u64::from(text[0]) | (u64::from(text[len / 2]) << 8) | (u64::from(text[len - 1]) << 16);
        (three | (three << 24) | (three << 48)) | (u64::from(text[0]) << 40)
    } else {
        return false;
    };
    special(word, high) != 0
}

/// Non-zero bytes where `word` holds a byte that is not an ASCII digit; the lowest such
/// byte is exact (a carry of `+ 6` only leaves a byte of 0xfa or more, itself a non-digit).
#[inline(always)]
fn non_digits(word: u64) -> u64 {
    let digit_row = ONES * 0x30;
    ((word & NIBBLES) ^ digit_row) | ((word.wrapping_add(ONES * 6) & NIBBLES) ^ digit_row)
}

/// The end of the run of ASCII digits in `bytes` starting at `at`.
#[inline(always)]
fn skip_digits(bytes: &[u8], mut at: usize) -> usize {
    let len = bytes.len();
    while at + 8 <= len {
        let marks = non_digits(word_at(bytes, at));
        if marks != 0 {
            return at + (marks.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    if at < len && len >= 8 {
        // The last eight bytes, shifted so `at` comes first: the zero bytes shifted in past
        // the end are non-digits and stop the run there.
        let shift = (at + 8 - len) * 8;
        let marks = non_digits(word_at(bytes, len - 8) >> shift);
        return at + (marks.trailing_zeros() / 8) as usize;
    }
    while at < len && bytes[at].is_ascii_digit() {
        at += 1;
    }
    at
}

/// Whether `text` is non-empty and all ASCII digits.
#[inline(always)]
fn all_digits(text: &[u8]) -> bool {
    let len = text.len();
    if len >= 8 {
        let mut marks = 0;
        let mut at = 0;
        while at + 8 < len {
            marks |= non_digits(word_at(text, at));
            at += 8;
        }
        return marks | non_digits(word_at(text, len - 8)) == 0;
    }
    if len >= 4 {
        let low = u32::from_le_bytes([text[0], text[1], text[2], text[3]]);
        let top = u32::from_le_bytes([text[len - 4], text[len - 3], text[len - 2], text[len - 1]]);
        return non_digits(u64::from(low) | (u64::from(top) << 32)) == 0;
    }
    len > 0 && text.iter().all(u8::is_ascii_digit)
}

/// Whether `text` is exactly one JSON number (RFC 8259 grammar, nothing before or after).
#[inline(always)]
pub(super) fn is_json_number(text: &[u8]) -> bool {
    let len = text.len();
    if (8..=16).contains(&len) {
        // Most integers written from recorded text (ids, counts): two overlapping words of
        // digits, with no leading zero (`len >= 8`, so the number is not a lone `0`).
        let marks = non_digits(word_at(text, 0)) | non_digits(word_at(text, len - 8));
        if marks == 0 {
            return text[0] != b'0';
        }
    }
    let start = usize::from(text.first() == Some(&b'-'));
    let int_end = skip_digits(text, start);
    if int_end == start || (text[start] == b'0' && int_end > start + 1) {
        // No integer digits, or a leading zero.
        return false;
    }
    if int_end == len {
        return true;
    }
    // Most floats: a fraction of digits up to the end.
    if text[int_end] == b'.' && all_digits(&text[int_end + 1..]) {
        return true;
    }
    fraction_and_exponent(text, int_end)
}

/// The rest of [`is_json_number`] after the integer digits, which end at `at`.
#[inline(never)]
fn fraction_and_exponent(text: &[u8], mut at: usize) -> bool {
    let len = text.len();
    if text[at] == b'.' {
        let digits = at + 1;
        at = skip_digits(text, digits);
        if at == digits {
            return false;
        }
        if at == len {
            return true;
        }
    }
    if text[at] | 0x20 == b'e' {
        at += 1;
        if let Some(b'+' | b'-') = text.get(at) {
            at += 1;
        }
        let digits = at;
        at = skip_digits(text, digits);
        if at == digits {
            return false;
        }
    }
    at == len
}

/// Appends `bytes` to `out`. Keys, numbers and most strings are short: 4 to 32 bytes are
/// copied as two overlapping loads and stores into room reserved ahead, where
/// `extend_from_slice` calls `memcpy` (a call and a dispatch on the length per item).
#[inline(always)]
pub(super) fn push_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    let len = bytes.len();
    if !(4..=32).contains(&len) {
        out.extend_from_slice(bytes);
        return;
    }
    out.reserve(32);
    let at = out.len();
    let src = bytes.as_ptr();
    // SAFETY: `reserve(32)` leaves room for 32 bytes from `at`, and `len <= 32`, so every
    // store lands in `out`'s allocation; each branch loads words no wider than `len` (16
    // bytes for 16..=32, 8 for 8..16, 4 for 4..8), so every load stays inside `bytes` (the
    // second load of each pair ends exactly at `len`).
    // The stores cover `at..at + len` entirely (the two halves overlap), so the bytes made
    // part of the vector by `set_len` are initialised. Tested at every length by
    // `short_copies_append_exactly_the_bytes_at_every_length`.
    unsafe {
        let dst = out.as_mut_ptr().add(at);
        if len >= 16 {
            let head = src.cast::<u128>().read_unaligned();
            let tail = src.add(len - 16).cast::<u128>().read_unaligned();
            dst.cast::<u128>().write_unaligned(head);
            dst.add(len - 16).cast::<u128>().write_unaligned(tail);
        } else if len >= 8 {
            let head = src.cast::<u64>().read_unaligned();
            let tail = src.add(len - 8).cast::<u64>().read_unaligned();
            dst.cast::<u64>().write_unaligned(head);
            dst.add(len - 8).cast::<u64>().write_unaligned(tail);
        } else {
            let head = src.cast::<u32>().read_unaligned();
            let tail = src.add(len - 4).cast::<u32>().read_unaligned();
            dst.cast::<u32>().write_unaligned(head);
            dst.add(len - 4).cast::<u32>().write_unaligned(tail);
        }
        out.set_len(at + len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan;

    #[test]
    fn escapes_are_found_at_every_position_of_every_length() {
        for len in 0..40 {
            assert!(!needs_escape(&vec![b'a'; len], false), "{len}");
            assert!(!needs_escape(&vec![b'a'; len], true), "{len}");
            assert!(!needs_escape("é".repeat(len).as_bytes(), false), "{len}");
            for at in 0..len {
                for special in [b'"', b'\\', 0x00, 0x1f, b'\n', 0x7f, 0xc3] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = special;
                    let expected = special < 0x20 || special == b'"' || special == b'\\';
                    assert_eq!(
                        needs_escape(&bytes, false),
                        expected,
                        "{len} {at} {special}"
                    );
                    assert_eq!(
                        needs_escape(&bytes, true),
                        expected || special >= 0x80,
                        "{len} {at} {special}"
                    );
                    // The answer agrees with the exact search.
                    assert_eq!(
                        needs_escape(&bytes, true),
                        scan::find_escape(&bytes, 0, true) < len
                    );
                }
            }
        }
        // Bytes just above the specials are plain.
        assert!(!needs_escape(b" !#$%&'()*+,-./0123456789[]^_~", false));
    }

    #[test]
    fn short_copies_append_exactly_the_bytes_at_every_length() {
        let source: Vec<u8> = (0..40u8).map(|b| b.wrapping_mul(37) ^ 0x5a).collect();
        for before in [0, 1, 7, 1000] {
            for len in 0..=source.len() {
                for spare in [0, 3, 16, 32] {
                    // Capacity exactly used up, or a little left: `reserve` must grow it.
                    let mut out = Vec::with_capacity(before + spare);
                    out.extend((0..before).map(|i| (i % 251) as u8));
                    let expected = [out.clone(), source[..len].to_vec()].concat();
                    push_bytes(&mut out, &source[..len]);
                    assert_eq!(out, expected, "{before} {len} {spare}");
                    // The next copy lands right after this one.
                    push_bytes(&mut out, &source[..len]);
                    assert_eq!(out.len(), before + 2 * len);
                    assert_eq!(&out[before + len..], &source[..len]);
                }
            }
        }
    }

    #[test]
    fn number_text_check_agrees_with_the_reader_grammar() {
        let pieces = [
            "", "-", "+", "0", "00", "1", "12345678", "9", ".", "e", "E", "+", "-", "5", "x", " ",
        ];
        let mut tried = 0;
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for d in pieces {
                        let text = format!("{a}{b}{c}{d}");
                        assert_eq!(
                            is_json_number(text.as_bytes()),
                            scan::is_json_number(text.as_bytes()),
                            "{text:?}"
                        );
                        tried += 1;
                    }
                }
            }
        }
        assert_eq!(tried, pieces.len().pow(4));
        // The all-digit shortcut (8 to 16 bytes) and its neighbours, with a leading zero, a
        // sign or a non-digit at each end.
        for len in 6..=18 {
            let digits = "7".repeat(len);
            for text in [
                digits.clone(),
                format!("0{}", &digits[1..]),
                format!("-{}", &digits[1..]),
                format!("{}.", &digits[1..]),
                format!("{}e", &digits[1..]),
                format!("/{}", &digits[1..]),
                format!("{}:", &digits[1..]),
            ] {
                assert_eq!(
                    is_json_number(text.as_bytes()),
                    scan::is_json_number(text.as_bytes()),
                    "{text:?}"
                );
            }
            assert!(is_json_number(digits.as_bytes()));
        }
        for text in [
            "-65.613616999999977",
            "1.7976931348623157e308",
            "123456789012345678901234567890",
            "0.000000000000000000001",
            "1e-0000000000000007",
            "-0.0E+1",
        ] {
            assert!(is_json_number(text.as_bytes()), "{text}");
            for cut in 0..text.len() {
                let (head, tail) = text.split_at(cut);
                for bad in ["x", ".", "e", "-", "+", " ", "0a"] {
                    let broken = format!("{head}{bad}{tail}");
                    assert_eq!(
                        is_json_number(broken.as_bytes()),
                        scan::is_json_number(broken.as_bytes()),
                        "{broken:?}"
                    );
                }
                assert_eq!(
                    is_json_number(head.as_bytes()),
                    scan::is_json_number(head.as_bytes()),
                    "{head:?}"
                );
            }
        }
    }

    #[test]
    fn digit_runs_end_at_the_first_non_digit_in_every_position() {
        for len in 0..30 {
            assert_eq!(all_digits(&vec![b'5'; len]), len > 0);
            for at in 0..len {
                let mut bytes = vec![b'5'; len];
                bytes[at] = b'/';
                assert!(!all_digits(&bytes));
                bytes[at] = b':';
                assert!(!all_digits(&bytes));
            }
            for at in 0..=len {
                for stop in 0..len {
                    for non_digit in [b'/', b':', 0x00, 0xfa, 0xff, b'.'] {
                        let mut bytes = vec![b'7'; len];
                        bytes[stop] = non_digit;
                        // A non-digit before `at` is not looked at.
                        let expected = if stop >= at { stop } else { len };
                        assert_eq!(skip_digits(&bytes, at), expected, "{len} {at} {stop}");
                    }
                }
                assert_eq!(skip_digits(&vec![b'0'; len], at), len);
            }
        }
    }
}
