//! Byte-level scanning helpers: the search for the bytes that end a plain run of string
//! content (16 bytes at a time with SSE2 on x86-64, 8 at a time in a general-purpose
//! register elsewhere and for the tails), the step over whitespace to the next token (a
//! byte, or a word of indentation, at a time), and the number grammar,
//! which reads the number's digits into a [`Decimal`] on the same pass so that `read_f64`
//! and the integer reads never walk the text again. Pure functions over slices, so the
//! reader can run them on a window and rerun them after a refill.

use sluice_core::NumberHint;
use sluice_core::decimal::{Decimal, digits, short_digit_run};

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

#[cfg_attr(not(debug_assertions), inline(always))]
fn load(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// Marks (high bit set) the bytes of `word` equal to zero. Only the lowest mark is exact:
/// a borrow may also mark bytes above a true match, never below one.
#[cfg_attr(not(debug_assertions), inline(always))]
fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(LO) & !word & HI
}

/// Marks the bytes below 0x20 (same caveat as [`zero_bytes`]).
#[cfg_attr(not(debug_assertions), inline(always))]
fn control_bytes(word: u64) -> u64 {
    word.wrapping_sub(LO * 0x20) & !word & HI
}

/// `bytes` as text, or the standard library's error (with the position of the fault) when
/// they are not UTF-8. Strings of some length are checked with SIMD (`simdutf8`, which picks
/// the widest instructions the CPU has), a few times faster than the standard check on
/// non-ASCII text; short ones, and the error details, are left to the standard library.
#[inline]
pub(crate) fn utf8(bytes: &[u8]) -> Result<&str, std::str::Utf8Error> {
    if bytes.len() >= SIMD_UTF8_MIN
        && let Ok(text) = simdutf8::basic::from_utf8(bytes)
    {
        return Ok(text);
    }
    std::str::from_utf8(bytes)
}

/// Below this length the standard check costs less than the SIMD one's setup.
const SIMD_UTF8_MIN: usize = 16;

/// Offset of the first byte in `hay[from..]` that is `quote`, `\` or a control character,
/// or `hay.len()` if there is none. Sets `non_ascii` when a byte of 0x80 or more may have
/// been passed over (it may also be set for bytes after the one found: never missed, at
/// worst a needless UTF-8 check).
///
/// On x86-64 the search goes 16 bytes at a time with SSE2 (part of the baseline, so always
/// there), then 8 at a time in a general-purpose register.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn find_string_special(
    hay: &[u8],
    from: usize,
    quote: u8,
    non_ascii: &mut bool,
) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    let from = match find_string_special_sse2(hay, from, quote, non_ascii) {
        Ok(found) => return found,
        Err(tail) => tail,
    };
    find_string_special_words(hay, from, quote, non_ascii)
}

/// The 16-byte steps of [`find_string_special`]: `Ok` with the offset found, or `Err` with
/// where fewer than 16 bytes are left.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[cfg_attr(not(debug_assertions), inline(always))]
fn find_string_special_sse2(
    hay: &[u8],
    from: usize,
    quote: u8,
    non_ascii: &mut bool,
) -> Result<usize, usize> {
    use std::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_setzero_si128,
    };
    // SAFETY: the intrinsics need SSE2, which this function is compiled only with (it is
    // part of the x86-64 baseline). Every load reads the 16 bytes at `at` with
    // `at + 16 <= hay.len()`, inside `hay`, unaligned. Tested by
    // `special_bytes_are_found_at_every_position_of_a_word` (runs of 0 to 51 bytes).
    unsafe {
        let mut high = _mm_setzero_si128();
        let mut at = from;
        while at + 16 <= hay.len() {
            let chunk = _mm_loadu_si128(hay.as_ptr().add(at).cast::<__m128i>());
            high = _mm_or_si128(high, chunk);
            let marks = special_marks(chunk, quote);
            if marks != 0 {
                *non_ascii |= _mm_movemask_epi8(high) != 0;
                return Ok(at + marks.trailing_zeros() as usize);
            }
            at += 16;
        }
        *non_ascii |= _mm_movemask_epi8(high) != 0;
        Err(at)
    }
}

/// The end of a short string in one step: `chunk` is the 32 bytes after an opening `"`.
/// Returns the offset of the closing quote within `chunk` and whether any byte before it
/// is non-ASCII, when the first special byte (quote, backslash or control character) is
/// that quote; `None` when the string has an escape, a control character, or goes on past
/// the chunk, which the general search then handles.
///
/// Most keys and many values are shorter than 32 bytes, and for them this replaces a call
/// of the general string lexer (its loop set-up and register saves cost more than the
/// search itself).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn short_string_end(chunk: &[u8; 32]) -> Option<(usize, bool)> {
    let ([low, high], []) = chunk.as_chunks::<16>() else {
        return None;
    };
    let (special_low, non_ascii_low) = chunk_marks(low);
    // Most keys and many values end in the first 16 bytes: the second half is not
    // looked at for them.
    let (special, non_ascii) = if special_low != 0 {
        (special_low, non_ascii_low)
    } else {
        let (special_high, non_ascii_high) = chunk_marks(high);
        if special_high == 0 {
            return None;
        }
        (special_high << 16, non_ascii_low | non_ascii_high << 16)
    };
    let at = special.trailing_zeros() as usize;
    if chunk[at] != b'"' {
        return None;
    }
    Some((at, non_ascii & ((1 << at) - 1) != 0))
}

/// Bit masks over the 16 bytes of `chunk`: the special bytes of a `"`-quoted string (`"`,
/// `\`, below 0x20) and the non-ASCII bytes.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[cfg_attr(not(debug_assertions), inline(always))]
fn chunk_marks(chunk: &[u8; 16]) -> (u32, u32) {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_movemask_epi8};
    // SAFETY: the intrinsics need SSE2, which this function is compiled only with (part of
    // the x86-64 baseline); the one load reads exactly the 16 bytes of `chunk`, unaligned.
    // Tested by `short_strings_end_at_their_quote_at_every_length`.
    #[allow(clippy::cast_sign_loss)]
    unsafe {
        let bytes = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
        (special_marks(bytes, b'"'), _mm_movemask_epi8(bytes) as u32)
    }
}

/// The bit mask of the bytes of `chunk` that end a plain run of a string quoted by `quote`:
/// the quote, `\` and the control characters (below 0x20). Shared by the string search and
/// the short-string check, so both agree on what is special.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[cfg_attr(not(debug_assertions), inline(always))]
fn special_marks(chunk: std::arch::x86_64::__m128i, quote: u8) -> u32 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    #[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]
    // SAFETY: the intrinsics need SSE2, which this function is compiled only with (part of
    // the x86-64 baseline); they work on registers only, no memory.
    unsafe {
        // A byte is at most 0x1f when its unsigned minimum with 0x1f is the byte itself.
        let special = _mm_or_si128(
            _mm_or_si128(
                _mm_cmpeq_epi8(chunk, _mm_set1_epi8(quote as i8)),
                _mm_cmpeq_epi8(chunk, _mm_set1_epi8(b'\\' as i8)),
            ),
            _mm_cmpeq_epi8(_mm_min_epu8(chunk, _mm_set1_epi8(0x1f)), chunk),
        );
        _mm_movemask_epi8(special) as u32
    }
}

/// [`chunk_marks`] without SSE2: a byte at a time.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[cfg_attr(not(debug_assertions), inline(always))]
fn chunk_marks(chunk: &[u8; 16]) -> (u32, u32) {
    let (mut special, mut high) = (0, 0);
    for (at, &byte) in chunk.iter().enumerate() {
        if is_string_special(byte, b'"') {
            special |= 1 << at;
        }
        if byte >= 0x80 {
            high |= 1 << at;
        }
    }
    (special, high)
}

/// Whether `byte` ends a plain run of a string quoted by `quote`: the quote, `\` or a control
/// character. The byte-at-a-time form of [`special_marks`].
#[cfg_attr(not(debug_assertions), inline(always))]
fn is_string_special(byte: u8, quote: u8) -> bool {
    byte == quote || byte == b'\\' || byte < 0x20
}

/// [`find_string_special`] eight bytes at a time, then byte by byte.
#[cfg_attr(not(debug_assertions), inline(always))]
fn find_string_special_words(hay: &[u8], from: usize, quote: u8, non_ascii: &mut bool) -> usize {
    let quotes = LO * u64::from(quote);
    let backslashes = LO * u64::from(b'\\');
    let mut high = 0u64;
    let mut at = from;
    while at + 8 <= hay.len() {
        let word = load(hay, at);
        high |= word;
        let marks =
            zero_bytes(word ^ quotes) | zero_bytes(word ^ backslashes) | control_bytes(word);
        if marks != 0 {
            *non_ascii |= high & HI != 0;
            return at + (marks.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while at < hay.len() {
        let byte = hay[at];
        high |= u64::from(byte);
        if is_string_special(byte, quote) {
            break;
        }
        at += 1;
    }
    *non_ascii |= high & HI != 0;
    at
}

/// Offset of the first byte in `text[from..]` the JSON writer must escape: `"`, `\`, a
/// control character, and (when `ascii_only`) any byte of a non-ASCII character.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn find_escape(text: &[u8], from: usize, ascii_only: bool) -> usize {
    let quotes = LO * u64::from(b'"');
    let backslashes = LO * u64::from(b'\\');
    let high = if ascii_only { HI } else { 0 };
    let mut at = from;
    while at + 8 <= text.len() {
        let word = load(text, at);
        let marks = zero_bytes(word ^ quotes)
            | zero_bytes(word ^ backslashes)
            | control_bytes(word)
            | (word & high);
        if marks != 0 {
            return at + (marks.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    // The tail (all of most keys): one table look-up per byte.
    let table = if ascii_only {
        &WRITER_ESCAPE_ASCII
    } else {
        &WRITER_ESCAPE
    };
    while at < text.len() {
        if table[usize::from(text[at])] {
            return at;
        }
        at += 1;
    }
    at
}

/// The bytes the writer escapes: `"`, `\\` and control characters.
static WRITER_ESCAPE: [bool; 256] = escape_table(false);
/// As [`WRITER_ESCAPE`], and every byte of a non-ASCII character.
static WRITER_ESCAPE_ASCII: [bool; 256] = escape_table(true);

const fn escape_table(ascii_only: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = byte < 0x20
            || byte == b'"' as usize
            || byte == b'\\' as usize
            || (ascii_only && byte >= 0x80);
        byte += 1;
    }
    table
}

/// The first byte at or after `at` in `window` that is not plain whitespace (space, tab,
/// line feed, carriage return), with its offset; `None` when the lexer's general path must
/// decide: the window ends first, or a byte that may start a comment or JSON5 whitespace
/// (`/`, vertical tab, form feed, non-ASCII) comes first.
///
/// Each byte is classified with one table lookup: the `match` it replaces tested most
/// token bytes (`,`, `-`, digits) against three ranges. After a whitespace byte, whole
/// words of eight spaces (indentation) are stepped over at once.
///
/// The position moves by constant steps under branches, never by a count computed from the
/// bytes (as a search with a mask and its lowest set bit would): the processor predicts
/// those branches (indentation repeats from line to line) and goes on to the token without
/// waiting for the loads and the arithmetic that a computed count puts between one token and
/// the next. The 16-byte SSE2 search this replaces took 1.13x the time of the read of
/// `twitter.json` (runs of 1 to 21 bytes) and 1.12x on `citm_catalog.json` (up to 29).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn next_token_byte(window: &[u8], mut at: usize) -> Option<(usize, u8)> {
    // The first byte looked at before the loop, in a copy of its body: mostly the token
    // itself, and then the compiler lays out the way to it as the straight path. With the
    // loop alone, the reader jumped into the loop and out of it again for every token:
    // taken jumps break the stream of instructions the processor fetches, and this copy
    // takes a tenth of them out of the read (canada.json 3.25M to 2.91M, twitter.json
    // 477k to 419k), 0.97x the time of canada's read and twitter's, 0.93x citm_catalog's
    // (medians over twelve code layouts). The copy is needed: written as one loop with the
    // first load before it and each next load at the end of the step, the function compiled
    // to the same code as the plain loop, jumps and all.
    let byte = *window.get(at)?;
    match BYTE_CLASS[usize::from(byte)] {
        ByteClass::Token => return Some((at, byte)),
        ByteClass::Space => at = after_space(window, at),
        ByteClass::General => return None,
    }
    loop {
        let byte = *window.get(at)?;
        match BYTE_CLASS[usize::from(byte)] {
            ByteClass::Token => return Some((at, byte)),
            ByteClass::Space => at = after_space(window, at),
            ByteClass::General => return None,
        }
    }
}

/// Where the run of plain whitespace (space, tab, line feed, carriage return) from `at`
/// ends: the offset of the first other byte, or the window's length. The general path's
/// [`next_token_byte`], which keeps the offset where it stops for a comment.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn plain_space_end(window: &[u8], mut at: usize) -> usize {
    while let Some(&byte) = window.get(at) {
        if BYTE_CLASS[usize::from(byte)] != ByteClass::Space {
            break;
        }
        at = after_space(window, at);
    }
    at
}

/// Past the whitespace byte at `at`, and past whole words of eight spaces after it
/// (indentation): the step of [`next_token_byte`] and [`plain_space_end`].
#[cfg_attr(not(debug_assertions), inline(always))]
fn after_space(window: &[u8], mut at: usize) -> usize {
    at += 1;
    while window.get(at..at + 8) == Some(SPACES.as_slice()) {
        at += 8;
    }
    at
}

/// The offset of the first `*/` in `bytes`, which ends a block comment.
///
/// A search for the `*` and a look at the byte after it: `memmem::find` builds a searcher
/// for its needle on every call, which costs more than a short comment's whole scan.
#[inline]
pub(crate) fn block_comment_end(bytes: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = memchr::memchr(b'*', &bytes[from..]) {
        let star = from + found;
        if bytes.get(star + 1) == Some(&b'/') {
            return Some(star);
        }
        from = star + 1;
    }
    None
}

/// The offset of the first byte at or after `from`, and within `limit` bytes of the start,
/// that `marks` marks in its word, when no byte before it (from `from` on) is marked by
/// `refused`; `None` when a refused byte comes first, or no marked byte comes before the
/// limit or the last whole word of `bytes`. Both mark functions mark a byte by its high
/// bit, and only their lowest mark need be exact (as [`zero_bytes`] gives it): a mark
/// above an exact one is never looked at.
#[cfg_attr(not(debug_assertions), inline(always))]
fn first_marked(
    bytes: &[u8],
    mut from: usize,
    limit: usize,
    marks: impl Fn(u64) -> u64,
    refused: impl Fn(u64) -> u64,
) -> Option<usize> {
    while from < limit && from + 8 <= bytes.len() {
        let word = load(bytes, from);
        let marked = marks(word);
        let refused = refused(word);
        if marked == 0 {
            if refused != 0 {
                return None;
            }
            from += 8;
            continue;
        }
        let at = (marked.trailing_zeros() / 8) as usize;
        if refused & ((1u64 << (at * 8)) - 1) != 0 {
            return None;
        }
        return Some(from + at);
    }
    None
}

/// How far a short block comment on one line, in ASCII, goes: `bytes` starts after its
/// `/*`, and the answer counts its text and the closing `*/`. Most comments written by
/// hand close within a few words, and those are stepped over here, a word at a time with
/// no call; `None` leaves the rest to the general path: a `*/` not within the first 32
/// bytes or so, text that is not ASCII (to be checked as UTF-8), a line feed (in NDJSON a
/// comment must close on its line), the window's end too close.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn short_block_comment(bytes: &[u8]) -> Option<usize> {
    let stars = |word: u64| zero_bytes(word ^ (LO * u64::from(b'*')));
    // Not ASCII, or a line feed (whose marks above its own byte come after it).
    let refused = |word: u64| (word | zero_bytes(word ^ (LO * u64::from(b'\n')))) & HI;
    let mut from = 0;
    loop {
        let star = first_marked(bytes, from, 32, stars, refused)?;
        if bytes.get(star + 1) == Some(&b'/') {
            return Some(star + 2);
        }
        from = star + 1;
    }
}

/// How long a short ASCII line comment's text is: `bytes` starts after its `//`, and the
/// answer is the offset of the line feed or carriage return that ends it, which stays for
/// the whitespace step. `None` when neither comes within the first 64 bytes or so, or a
/// byte that is not ASCII comes first (to be checked as UTF-8, and with JSON5 whitespace a
/// line separator may end the comment), or the window's end is too close: the general path
/// decides those.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn short_line_comment(bytes: &[u8]) -> Option<usize> {
    // The lowest mark of each is exact, so the lowest of both is too.
    let ends = |word: u64| {
        zero_bytes(word ^ (LO * u64::from(b'\n'))) | zero_bytes(word ^ (LO * u64::from(b'\r')))
    };
    first_marked(bytes, 0, 64, ends, |word| word & HI)
}

/// How long the short comment that opens `bytes` is (see [`short_block_comment`] and
/// [`short_line_comment`]): the whole block comment, or a line comment up to the line feed
/// or carriage return that ends it. `None` when `bytes` opens no comment or one that the
/// general path must step over.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn short_comment(bytes: &[u8]) -> Option<usize> {
    match bytes.get(..2)? {
        b"/*" => short_block_comment(&bytes[2..]).map(|len| len + 2),
        b"//" => short_line_comment(&bytes[2..]).map(|len| len + 2),
        _ => None,
    }
}

/// Whether `byte` is printable ASCII other than `/`: a byte a token starts at under every
/// option, since whitespace, comments and JSON5 whitespace all begin outside that range.
/// `false` also for control bytes, which [`next_token_byte`] would hand to the lexer too:
/// callers take their general path for those, which then reports them.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn may_start_token(byte: u8) -> bool {
    // By arithmetic rather than from `BYTE_CLASS`: the table's address would be one more
    // value for the reader's loop to keep in a register.
    byte.wrapping_sub(0x21) < 0x5F && byte != b'/'
}

/// A word of indentation.
const SPACES: [u8; 8] = [b' '; 8];

/// What [`next_token_byte`] does at a byte.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ByteClass {
    /// A token may start here.
    Token,
    /// Plain whitespace, skipped.
    Space,
    /// A comment, JSON5 whitespace or something else for the general path.
    General,
}

static BYTE_CLASS: [ByteClass; 256] = {
    let mut table = [ByteClass::Token; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = match byte as u8 {
            b' ' | b'\n' | b'\r' | b'\t' => ByteClass::Space,
            b'/' | 0x0b | 0x0c | 0x80.. => ByteClass::General,
            _ => ByteClass::Token,
        };
        byte += 1;
    }
    table
};

/// Whether `byte` may continue a word or number: used to find the whole extent of a bad
/// token (`tru`, `01x`, `1.2.3`) so its span covers all of it.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn is_word_byte(byte: u8) -> bool {
    WORD_BYTES[usize::from(byte)]
}

/// The bytes of [`is_word_byte`], as a table: one load instead of a chain of ranges.
static WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'+' | b'-');
        byte += 1;
    }
    table
};

/// The length of the JSON5 whitespace character that `bytes` starts with, beyond JSON's four
/// (which [`next_token_byte`] steps over): vertical tab, form feed, U+00A0, U+FEFF, U+2028,
/// U+2029 and the other space separators (general category Zs: U+1680, U+2000 to U+200A,
/// U+202F, U+205F, U+3000). `None` for anything else, including a character cut short by
/// the end of `bytes`. Matched on the UTF-8 bytes, without decoding: every one of them is
/// at most three bytes long. Reached only from the reader's general whitespace step, with
/// the JSON5 whitespace option on.
pub(crate) fn json5_space_len(bytes: &[u8]) -> Option<usize> {
    match bytes {
        [0x0B | 0x0C, ..] => Some(1),
        // U+00A0
        [0xC2, 0xA0, ..] => Some(2),
        // U+1680; U+2000..=U+200A, U+2028, U+2029, U+202F; U+205F; U+3000; U+FEFF
        [0xE1, 0x9A, 0x80, ..]
        | [0xE2, 0x80, 0x80..=0x8A | 0xA8 | 0xA9 | 0xAF, ..]
        | [0xE2, 0x81, 0x9F, ..]
        | [0xE3, 0x80, 0x80, ..]
        | [0xEF, 0xBB, 0xBF, ..] => Some(3),
        _ => None,
    }
}

/// Whether `bytes` starts with U+2028 (LINE SEPARATOR) or U+2029 (PARAGRAPH SEPARATOR):
/// line terminators in ECMAScript, so they end a JSON5 line comment.
pub(crate) fn is_line_separator(bytes: &[u8]) -> bool {
    matches!(bytes, [0xE2, 0x80, 0xA8 | 0xA9, ..])
}

/// Whether `byte` is the first byte of a character [`json5_space_len`] accepts: a cheap
/// test before the window is asked for three bytes.
pub(crate) fn may_start_json5_space(byte: u8) -> bool {
    matches!(byte, 0x0B | 0x0C | 0xC2 | 0xE1..=0xE3 | 0xEF)
}

/// The length of the character [`json5_space_len`] would accept after the first byte `byte`
/// (one that [`may_start_json5_space`] accepts): the reader loads no more bytes than that.
pub(crate) fn json5_space_width(byte: u8) -> usize {
    match byte {
        0x0B | 0x0C => 1,
        0xC2 => 2,
        _ => 3,
    }
}

/// Whether `bytes`, the first one or two bytes of a character, could still begin one that
/// [`json5_space_len`] accepts, so that the reader asks for its next byte only while one
/// could.
pub(crate) fn may_continue_json5_space(bytes: &[u8]) -> bool {
    matches!(
        bytes,
        [0x0B | 0x0C, ..]
            | [0xC2 | 0xE1..=0xE3 | 0xEF]
            | [0xC2, 0xA0, ..]
            | [0xE1, 0x9A, ..]
            | [0xE2, 0x80 | 0x81, ..]
            | [0xE3, 0x80, ..]
            | [0xEF, 0xBB, ..]
    )
}

/// The letters (general category L or Nl, ECMAScript 5.1's `UnicodeLetter`) that are not
/// in `XID_Start`: the characters whose NFKC form cannot start an identifier (Greek
/// ypogegrammeni, Thai and Lao sara am, Arabic presentation forms, halfwidth katakana voiced
/// marks), and U+2E2F VERTICAL TILDE, which Unicode keeps out of identifiers as a pattern
/// character. Letters may also follow the first character.
const LETTERS_OUTSIDE_XID_START: [char; 22] = [
    '\u{37A}', '\u{E33}', '\u{EB3}', '\u{2E2F}', '\u{FC5E}', '\u{FC5F}', '\u{FC60}', '\u{FC61}',
    '\u{FC62}', '\u{FC63}', '\u{FDFA}', '\u{FDFB}', '\u{FE70}', '\u{FE72}', '\u{FE74}', '\u{FE76}',
    '\u{FE78}', '\u{FE7A}', '\u{FE7C}', '\u{FE7E}', '\u{FF9E}', '\u{FF9F}',
];

/// Whether `c`, a character of `XID_Start`, is no letter: Unicode's `Other_ID_Start`, kept
/// in its identifiers only so that they stay identifiers across versions (U+2118 SCRIPT
/// CAPITAL P and U+212E ESTIMATED SYMBOL, symbols; U+1885 and U+1886, Mongolian combining
/// marks, which may still follow the first character).
fn is_xid_start_but_no_letter(c: char) -> bool {
    matches!(c, '\u{1885}' | '\u{1886}' | '\u{2118}' | '\u{212E}')
}

/// Whether `c`, a character of `XID_Continue`, is none of ECMAScript 5.1's `IdentifierPart`
/// categories (L, Nl, Mn, Mc, Nd, Pc): Unicode's `Other_ID_Start` symbols and its
/// `Other_ID_Continue` punctuation (U+00B7 MIDDLE DOT, U+0387 GREEK ANO TELEIA, U+30FB
/// KATAKANA MIDDLE DOT, U+FF65 its halfwidth form) and digits of category No (Ethiopic
/// U+1369..U+1371, New Tai Lue U+19DA).
fn is_xid_continue_outside_es5(c: char) -> bool {
    matches!(
        c,
        '\u{B7}' | '\u{387}' | '\u{1369}'
            ..='\u{1371}' | '\u{19DA}' | '\u{2118}' | '\u{212E}' | '\u{30FB}' | '\u{FF65}'
    )
}

/// Whether `c` may stand in a JSON5 identifier key (an ECMAScript 5.1 `IdentifierName`, as
/// JSON5 says), at its start (`first`) or after it. ECMAScript 5.1 defines them by general
/// category, as the JSON5 reference implementation reads them: `IdentifierStart` is a letter
/// (Lu, Ll, Lt, Lm, Lo, Nl), `$` or `_`; `IdentifierPart` adds combining marks (Mn, Mc),
/// decimal digits (Nd), connector punctuation (Pc), U+200C (ZWNJ) and U+200D (ZWJ). These are
/// not Unicode's `ID_Start` and `ID_Continue`, which later ECMAScript editions take: those
/// add a few symbols, punctuation and digits for compatibility (`℘`, `·`), and refuse
/// U+2E2F. Non-ASCII characters are looked up in the `XID_Start` and `XID_Continue` tables
/// of `unicode-ident` (`ID_Start` and `ID_Continue` closed under NFKC normalization), and
/// the characters where those tables and the categories differ are added or taken out.
pub(crate) fn is_identifier_char(c: char, first: bool) -> bool {
    if let Ok(byte) = u8::try_from(c)
        && byte.is_ascii()
    {
        return is_ascii_identifier_byte(byte, first);
    }
    if first {
        (unicode_ident::is_xid_start(c) && !is_xid_start_but_no_letter(c))
            || LETTERS_OUTSIDE_XID_START.contains(&c)
    } else {
        (unicode_ident::is_xid_continue(c) && !is_xid_continue_outside_es5(c))
            || matches!(c, '\u{200C}' | '\u{200D}')
            || LETTERS_OUTSIDE_XID_START.contains(&c)
    }
}

/// The length of the JSON5 identifier key that opens `bytes` when it is all ASCII (letters,
/// digits, `_` and `$`, not a digit first) and the byte after it is there and ends it
/// without doubt: ASCII, and not the backslash of an escape. Most unquoted keys are such
/// words (`name`, `max_depth`), read here without a character decoded or a UTF-8 check.
/// `None` for the rest (a non-ASCII character, an escape, the window's end too close, no
/// identifier at all), which the identifier lexer's general loop decides.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn ascii_identifier_len(bytes: &[u8]) -> Option<usize> {
    if !is_ascii_identifier_byte(*bytes.first()?, true) {
        return None;
    }
    let mut at = 1;
    loop {
        let byte = *bytes.get(at)?;
        if is_ascii_identifier_byte(byte, false) {
            at += 1;
            continue;
        }
        return (byte.is_ascii() && byte != b'\\').then_some(at);
    }
}

/// Whether the ASCII `byte` may stand in a JSON5 identifier (`first`: as its first
/// character): a letter, `_`, `$`, or a digit after the first. The ASCII part of
/// [`is_identifier_char`].
#[cfg_attr(not(debug_assertions), inline(always))]
fn is_ascii_identifier_byte(byte: u8, first: bool) -> bool {
    byte.is_ascii_alphabetic() || matches!(byte, b'_' | b'$') || (!first && byte.is_ascii_digit())
}

/// Length of the run of word bytes at the start of `bytes`.
pub(crate) fn word_len(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|&&b| is_word_byte(b)).count()
}

/// What [`scan_number`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberScan {
    /// A valid number of `len` bytes, with its value when it has at most 19 significant
    /// digits and a moderate exponent (most numbers), read on the same pass.
    Valid {
        len: usize,
        hint: NumberHint,
        value: Option<Decimal>,
    },
    /// Not a valid number; `len` bytes of it should be reported.
    Invalid { len: usize },
    /// The slice ended where the number might go on: get more bytes and scan again.
    NeedMore,
}

/// Exponents beyond this are left to the general conversion (they overflow or underflow
/// unless the digits compensate), and stop growing so the arithmetic cannot overflow.
/// An exponent stopped here is only a lower bound of the written one, so the scan gives
/// no value for it: added to a long fraction's negative scale it could cancel out.
const EXPONENT_LIMIT: i64 = 100_000;

/// Scans a JSON number (RFC 8259 grammar) at the start of `bytes`, reading its digits into
/// a [`Decimal`] on the way, so a conversion does not walk the text a second time.
///
/// `at_end` says that nothing follows `bytes`; otherwise reaching the end of the slice
/// asks for more. A number directly followed by a word byte (`01`, `1.5.2`, `2x`) is
/// invalid as a whole.
#[inline(never)]
pub(crate) fn scan_number(bytes: &[u8], at_end: bool) -> NumberScan {
    if let Some(scan) = scan_short_number(bytes) {
        return scan;
    }
    scan_number_general(bytes, at_end)
}

/// The shape of most numbers in documents, read from a fixed 32-byte chunk with no loop
/// over long digit runs: `-`?, an integer part of 1 to 19 digits, then optionally `.` and
/// 1 to 15 digits (at most 19 digits in all), then optionally an exponent of 1 to 3 digits,
/// then a byte that cannot continue a number. Coordinates (`-65.613616999999977`), prices,
/// counts, ids and scientific notation (`6.02e23`) take it. `None` for anything else
/// (longer digit runs, errors, the end of the slice too close), which
/// [`scan_number_general`] decides; on what this accepts, both answer the same.
///
/// The reader inlines only this path and leaves the general one out of line. Before the
/// exponent was read here, the general path was inlined too: numbers with an exponent
/// now take a third fewer instructions (canada.json with `e-1` after every number: 62.9M
/// to 42.2M, 0.70x the time), and the other shapes as many as before.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn scan_short_number(bytes: &[u8]) -> Option<NumberScan> {
    let chunk = bytes.first_chunk::<32>()?;
    let negative = chunk[0] == b'-';
    let int_start = usize::from(negative);
    let first = chunk[int_start].wrapping_sub(b'0');
    if first > 9 {
        return None;
    }
    let mut mantissa = u64::from(first);
    let mut at = int_start + 1;
    // `0` stands alone (a digit after it is the general path's error). Other integer
    // parts are mostly short: their first digits one at a time, a longer run in one read.
    // The loop counts the digits it takes rather than bounding `at`, whose bound depends on
    // the sign: with a fixed count the compiler unrolls it (canada.json's read: 3% fewer
    // instructions).
    if first != 0 {
        let mut more = 0;
        while more < 3 {
            let digit = chunk[at].wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            mantissa = mantissa * 10 + u64::from(digit);
            at += 1;
            more += 1;
        }
        if more == 3 && chunk[at].is_ascii_digit() {
            // 4 digits read, up to 15 more: at most 19, which fit.
            let (len, value) = short_digit_run(chunk[at..].first_chunk::<16>()?, mantissa)?;
            mantissa = value;
            at += len;
        }
    }
    let mut hint = if negative {
        NumberHint::NegInteger
    } else {
        NumberHint::Integer
    };
    let mut exponent = 0;
    if chunk[at] == b'.' {
        let fraction = chunk.get(at + 1..)?.first_chunk::<16>()?;
        let (len, value) = short_digit_run(fraction, mantissa)?;
        // More than 19 digits in all (the integer part's `0` counted) do not fit: the value
        // wrapped.
        if at - int_start + len > 19 {
            return None;
        }
        mantissa = value;
        exponent = -i32::try_from(len).ok()?;
        hint = NumberHint::Float;
        at += 1 + len;
    }
    // An exponent of up to three digits (`1e5`, `6.02E+23`, `1.5e-308`), within the 32
    // bytes since the part before it ends by byte 21. (Read by a call instead, the read
    // took 1.03x to 1.16x the time; its digit loop shared with the integer part's, canada
    // took 1.02x to 1.04x.)
    if chunk[at] | 0x20 == b'e' {
        let sign = chunk[at + 1];
        let start = at + 1 + usize::from(sign == b'-' || sign == b'+');
        let first = chunk[start].wrapping_sub(b'0');
        if first > 9 {
            return None;
        }
        let mut value = i32::from(first);
        let mut digits_at = start + 1;
        while digits_at < start + 3 {
            let digit = chunk[digits_at].wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            value = value * 10 + i32::from(digit);
            digits_at += 1;
        }
        exponent += if sign == b'-' { -value } else { value };
        hint = NumberHint::Float;
        at = digits_at;
    }
    // A byte that makes the token an error (`1.5.2`, `2x`, `01`) or that the grammar must
    // decide (a fourth exponent digit).
    if is_word_byte(*chunk.get(at)?) {
        return None;
    }
    Some(NumberScan::Valid {
        len: at,
        hint,
        value: Some(Decimal {
            negative,
            mantissa,
            exponent,
        }),
    })
}

/// The whole grammar of [`scan_number`], for what [`scan_short_number`] leaves.
#[cfg_attr(not(debug_assertions), inline(always))]
fn scan_number_general(bytes: &[u8], at_end: bool) -> NumberScan {
    // Past the end reads as NUL, which no rule accepts: every path that meets it ends in
    // `invalid` or the final check, and both ask for more when the slice ran out.
    let get = |at: usize| bytes.get(at).copied().unwrap_or(0);
    let negative = get(0) == b'-';
    let mut hint = if negative {
        NumberHint::NegInteger
    } else {
        NumberHint::Integer
    };
    let mut at = usize::from(negative);
    let mut mantissa = 0;
    let mut significant = 0;
    match get(at) {
        b'0' => at += 1,
        first @ b'1'..=b'9' => {
            // Integer parts are mostly short (coordinates, counts): their first digits one
            // at a time, longer runs (ids) eight at a time.
            let start = at;
            mantissa = u64::from(first - b'0');
            at += 1;
            while at < start + 4
                && let digit @ b'0'..=b'9' = get(at)
            {
                mantissa = mantissa * 10 + u64::from(digit - b'0');
                at += 1;
            }
            if at == start + 4 {
                (at, mantissa) = digits(bytes, at, mantissa);
            }
            significant = at - start;
        }
        _ => return invalid(bytes, at, at_end),
    }
    let mut exponent: i64 = 0;
    if get(at) == b'.' {
        hint = NumberHint::Float;
        let start = at + 1;
        at = start;
        if significant == 0 {
            // Leading zeros of `0.000123` are not significant digits.
            while get(at) == b'0' {
                at += 1;
            }
        }
        let first_significant = at;
        (at, mantissa) = digits(bytes, at, mantissa);
        if at == start {
            return invalid(bytes, at, at_end);
        }
        significant += at - first_significant;
        exponent = -i64::try_from(at - start).unwrap_or(EXPONENT_LIMIT);
    }
    if let b'e' | b'E' = get(at) {
        hint = NumberHint::Float;
        at += 1;
        let negative_exponent = get(at) == b'-';
        if let b'+' | b'-' = get(at) {
            at += 1;
        }
        let start = at;
        let mut value: i64 = 0;
        while let byte @ b'0'..=b'9' = get(at) {
            if value < EXPONENT_LIMIT {
                value = value * 10 + i64::from(byte - b'0');
            }
            at += 1;
        }
        if at == start {
            return invalid(bytes, at, at_end);
        }
        exponent = if value >= EXPONENT_LIMIT {
            // Stopped growing: out of the value's reach whatever the fraction's length
            // (`0.` and 99999 zeros then `1e1000000` is 10^900000, not 1).
            i64::MAX
        } else if negative_exponent {
            exponent - value
        } else {
            exponent + value
        };
    }
    match bytes.get(at) {
        None if !at_end => NumberScan::NeedMore,
        Some(&b) if is_word_byte(b) => invalid(bytes, at, at_end),
        _ => {
            let value = match i32::try_from(exponent) {
                Ok(exponent) if significant <= 19 && exponent.abs() < 10_000 => Some(Decimal {
                    negative,
                    mantissa,
                    exponent,
                }),
                _ => None,
            };
            NumberScan::Valid {
                len: at,
                hint,
                value,
            }
        }
    }
}

fn invalid(bytes: &[u8], at: usize, at_end: bool) -> NumberScan {
    let len = at + word_len(&bytes[at.min(bytes.len())..]);
    if len >= bytes.len() && !at_end {
        return NumberScan::NeedMore;
    }
    NumberScan::Invalid { len: len.max(1) }
}

/// Whether `text` is a JSON number, exactly (used by the writer on `Number::Text`).
pub(crate) fn is_json_number(text: &[u8]) -> bool {
    matches!(scan_number(text, true), NumberScan::Valid { len, .. } if len == text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts of up to 80 bytes drawn from the bytes that matter to a comment's end (`*`,
    /// `/`, line breaks, a two-byte character) and filler.
    fn comment_texts() -> Vec<Vec<u8>> {
        let pieces: [&[u8]; 8] = [
            b"a",
            b" ",
            b"*",
            b"/",
            b"\n",
            b"\r",
            "\u{e9}".as_bytes(),
            b"**",
        ];
        let mut rng = sluice_core::testing::Rng::new(42);
        (0..20_000)
            .map(|_| {
                let len = (rng.next() % 40) as usize;
                let mut text = Vec::new();
                for _ in 0..len {
                    // Mostly filler, so that ends come at every distance.
                    let piece = rng.next() % 48;
                    text.extend_from_slice(pieces.get(piece as usize).unwrap_or(&b"x".as_slice()));
                }
                // Half of them with both ends somewhere, and room after them.
                if rng.next().is_multiple_of(2) {
                    let at = (rng.next() % (text.len() as u64 + 1)) as usize;
                    text.splice(at..at, b"*/\n".iter().copied());
                    text.extend_from_slice(b", 1, 2, 3, 4, 5, 6");
                }
                text
            })
            .collect()
    }

    #[test]
    fn a_short_block_comment_ends_at_the_first_star_slash_or_is_left_to_the_general_path() {
        let mut taken = 0;
        for text in comment_texts() {
            let general = block_comment_end(&text);
            let Some(len) = short_block_comment(&text) else {
                continue;
            };
            taken += 1;
            let end = general.expect("a short comment has an end");
            assert_eq!(len, end + 2, "{text:?}");
            // Only ASCII text on one line is taken.
            assert!(
                text[..end].iter().all(|&b| b.is_ascii() && b != b'\n'),
                "{text:?}"
            );
        }
        // Most of the texts with an early end are taken.
        assert!(taken > 5_000, "{taken}");
        assert_eq!(
            short_block_comment(b"*/"),
            None,
            "the window's end is too close"
        );
        assert_eq!(short_block_comment(b" c */ 1, 2, 3"), Some(5));
        assert_eq!(short_block_comment(b"**/ 1, 2, 3, 4"), Some(3));
        assert_eq!(short_block_comment(b" a\nb */ 1, 2, 3"), None);
        assert_eq!(short_block_comment("\u{e9} */ 1, 2, 3".as_bytes()), None);
        // An `*/` beyond the first 32 bytes or so is the general path's.
        let long = [b"x".repeat(60), b"*/ 1, 2, 3, 4".to_vec()].concat();
        assert_eq!(short_block_comment(&long), None);
    }

    #[test]
    fn a_short_line_comment_ends_before_its_line_break_or_is_left_to_the_general_path() {
        let mut taken = 0;
        for text in comment_texts() {
            let Some(len) = short_line_comment(&text) else {
                continue;
            };
            taken += 1;
            let end = text.iter().position(|&b| b == b'\n' || b == b'\r');
            assert_eq!(Some(len), end, "{text:?}");
            assert!(text[..len].is_ascii(), "{text:?}");
        }
        assert!(taken > 5_000, "{taken}");
        assert_eq!(short_line_comment(b" note\r\n 1, 2, 3"), Some(5));
        assert_eq!(
            short_line_comment(b" note"),
            None,
            "the window's end is too close"
        );
        assert_eq!(
            short_line_comment("\u{e9}\n 1, 2, 3, 4, 5".as_bytes()),
            None
        );
        // The general path also looks for U+2028 (0xE2 first) when JSON5 whitespace is on.
        assert_eq!(short_line_comment("\u{2028} 1, 2, 3, 4".as_bytes()), None);
    }

    #[test]
    fn an_ascii_identifier_ends_where_the_general_identifier_rule_ends_it() {
        let cases: [(&[u8], Option<usize>); 12] = [
            (b"name: 1", Some(4)),
            (b"$_a1 :", Some(4)),
            (b"_:", Some(1)),
            (b"a}", Some(1)),
            (b"max_depth\t", Some(9)),
            // Not an identifier start, or nothing after it yet.
            (b"1a:", None),
            (b"-a:", None),
            (b"name", None),
            (b"", None),
            // A character or an escape the general loop must decide.
            ("na\u{ef}ve:".as_bytes(), None),
            (b"a\\u0062:", None),
            ("a\u{200c}b:".as_bytes(), None),
        ];
        for (bytes, expected) in cases {
            assert_eq!(ascii_identifier_len(bytes), expected, "{bytes:?}");
            // Where it answers, the general rule agrees character by character.
            if let Some(len) = expected {
                let text = std::str::from_utf8(&bytes[..=len]).unwrap();
                let ends = text
                    .char_indices()
                    .find(|&(at, c)| !is_identifier_char(c, at == 0))
                    .map(|(at, _)| at);
                assert_eq!(ends, Some(len), "{bytes:?}");
            }
        }
    }

    #[test]
    fn a_short_comment_is_only_one_that_opens_the_bytes() {
        assert_eq!(short_comment(b"/* c */ 1, 2, 3, 4, 5"), Some(7));
        assert_eq!(short_comment(b"// c\n 1, 2, 3, 4, 5"), Some(4));
        assert_eq!(short_comment(b"/ c */ 1, 2, 3, 4, 5"), None);
        assert_eq!(short_comment(b" /* c */ 1, 2, 3, 4"), None);
        assert_eq!(short_comment(b"/"), None);
        assert_eq!(short_comment(b""), None);
    }

    #[test]
    fn special_bytes_are_found_at_every_position_of_a_word() {
        for len in 0..52 {
            for at in 0..len {
                for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = special;
                    let mut non_ascii = false;
                    assert_eq!(
                        find_string_special(&bytes, 0, b'"', &mut non_ascii),
                        at,
                        "{len} {at}"
                    );
                    assert!(!non_ascii);
                }
                let mut bytes = vec![0xC3; len];
                bytes[at] = b'"';
                let mut non_ascii = false;
                assert_eq!(find_string_special(&bytes, 0, b'"', &mut non_ascii), at);
                assert!(
                    non_ascii || at == 0,
                    "non-ASCII before the quote is never missed"
                );
            }
            let mut non_ascii = false;
            assert_eq!(
                find_string_special(&vec![b'x'; len], 0, b'"', &mut non_ascii),
                len
            );
        }
        // A single quote is special only in single-quoted strings.
        let mut non_ascii = false;
        assert_eq!(find_string_special(b"ab'cd\"", 0, b'\'', &mut non_ascii), 2);
        assert_eq!(find_string_special(b"ab'cd\"", 0, b'"', &mut non_ascii), 5);
        assert!(!non_ascii);
    }

    #[test]
    fn short_strings_end_at_their_quote_at_every_length() {
        for at in 0..32 {
            let mut chunk = [b'a'; 32];
            chunk[at] = b'"';
            assert_eq!(short_string_end(&chunk), Some((at, false)), "{at}");
            // Non-ASCII bytes count only before the quote.
            let mut after = [0xC3; 32];
            after[..=at].fill(b'a');
            after[at] = b'"';
            assert_eq!(short_string_end(&after), Some((at, false)), "{at}");
            for before in 0..at {
                let mut marked = chunk;
                marked[before] = 0xA9;
                assert_eq!(short_string_end(&marked), Some((at, true)), "{at} {before}");
            }
            // An escape or a control character first: the general lexer's case.
            for special in [b'\\', 0x00, 0x1f, b'\n'] {
                let mut first = chunk;
                first[at] = special;
                if at + 1 < 32 {
                    first[at + 1] = b'"';
                }
                assert_eq!(short_string_end(&first), None, "{at} {special}");
            }
        }
        // No quote in the chunk: the string goes on.
        assert_eq!(short_string_end(&[b'x'; 32]), None);
        assert_eq!(short_string_end(&[0xE3; 32]), None);
        // A single quote does not end a `"` string.
        assert_eq!(
            short_string_end(b"it's \"x\"........................"),
            Some((5, false))
        );
    }

    #[test]
    fn space_runs_of_every_length_are_stepped_over_to_the_token() {
        // Runs of 0 to 51 spaces after each kind of whitespace byte and none (and after
        // spaces that another whitespace byte ends), at offsets that put the eight-byte
        // steps at every alignment, ended by a token byte, a byte for the general path, or
        // the end of the window.
        for from in 0..9 {
            for lead in ["", " ", "\n", "\r\n", "\t", "   \r\n", "     \t", "  \n \n"] {
                for len in 0..52 {
                    let mut window = vec![b'-'; from];
                    window.extend_from_slice(lead.as_bytes());
                    window.extend(std::iter::repeat_n(b' ', len));
                    let token = window.len();
                    let context = format!("{from} {lead:?} {len}");
                    assert_eq!(
                        next_token_byte(&window, from),
                        None,
                        "{context} then the end"
                    );
                    window.push(b'"');
                    assert_eq!(
                        next_token_byte(&window, from),
                        Some((token, b'"')),
                        "{context}"
                    );
                    window[token] = b'/';
                    assert_eq!(next_token_byte(&window, from), None, "{context} then /");
                    // Spaces after the token are not looked at.
                    window[token] = b'1';
                    window.extend_from_slice(&[b' '; 20]);
                    assert_eq!(
                        next_token_byte(&window, from),
                        Some((token, b'1')),
                        "{context}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_next_token_byte_is_found_past_plain_whitespace_only() {
        // Every byte, after every mix of plain whitespace: a token byte is found where it
        // is, anything the general path must see (comments, JSON5 whitespace, non-ASCII)
        // gives `None`, as does the end of the window.
        for gap in ["", " ", "\n", "\r\n\t", "\n                    "] {
            for byte in 0..=255u8 {
                let mut window = b"x".to_vec();
                window.extend_from_slice(gap.as_bytes());
                window.push(byte);
                let found = next_token_byte(&window, 1);
                let expected = match byte {
                    // Whitespace to the end, or a byte for the general path.
                    b' ' | b'\n' | b'\r' | b'\t' | b'/' | 0x0b | 0x0c | 0x80.. => None,
                    _ => Some((1 + gap.len(), byte)),
                };
                assert_eq!(found, expected, "{gap:?} then {byte:#04x}");
            }
            let mut window = b"x".to_vec();
            window.extend_from_slice(gap.as_bytes());
            assert_eq!(next_token_byte(&window, 1), None, "{gap:?} then the end");
        }
    }

    #[test]
    fn a_byte_said_to_start_a_token_is_found_as_one_by_the_whitespace_step() {
        // The shortcut after `:` must never take a byte the general step would skip or
        // leave to the general path; it may leave to that path bytes the step would take.
        let mut taken = 0;
        for byte in 0..=255u8 {
            if may_start_token(byte) {
                assert_eq!(next_token_byte(&[byte], 0), Some((0, byte)), "{byte:#04x}");
                taken += 1;
            }
        }
        // Printable ASCII (0x21 to 0x7e) and DEL, without `/`.
        assert_eq!(taken, 94);
    }

    #[test]
    fn json5_whitespace_is_every_space_separator_and_the_listed_characters() {
        // JSON5 whitespace beyond JSON's: U+000B, U+000C, U+00A0, U+FEFF, U+2028, U+2029
        // and the Zs category. `char::is_whitespace` (White_Space) holds all of those but
        // U+FEFF, plus JSON's four and U+0085 (a control character, not JSON5 whitespace).
        let mut found = 0;
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let mut buf = [0; 4];
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            let expected = c == '\u{FEFF}'
                || (c.is_whitespace() && !matches!(c, '\t' | '\n' | '\r' | ' ' | '\u{85}'));
            let len = json5_space_len(bytes);
            assert_eq!(len.is_some(), expected, "U+{:04X}", u32::from(c));
            if expected {
                assert_eq!(len, Some(bytes.len()), "U+{:04X}", u32::from(c));
                assert!(may_start_json5_space(bytes[0]), "U+{:04X}", u32::from(c));
                assert_eq!(json5_space_width(bytes[0]), bytes.len());
                for cut in 1..bytes.len() {
                    assert!(
                        may_continue_json5_space(&bytes[..cut]),
                        "U+{:04X}",
                        u32::from(c)
                    );
                }
                // Cut short, a character is not whitespace.
                assert_eq!(json5_space_len(&bytes[..bytes.len() - 1]), None);
                found += 1;
            }
        }
        // 0B, 0C, A0, 1680, 2000..=200A (11), 2028, 2029, 202F, 205F, 3000, FEFF.
        assert_eq!(found, 21);
    }

    #[test]
    fn two_bytes_that_begin_no_json5_whitespace_are_not_let_continue() {
        // The reader stops loading a character once `may_continue_json5_space` says no: that
        // must never be said of the first two bytes of a whitespace character.
        for first in (0..=255u8).filter(|&b| may_start_json5_space(b)) {
            for second in 0..=255u8 {
                let starts_one = (0..=255u8).any(|third| {
                    json5_space_len(&[first, second, third]).is_some()
                        || json5_space_len(&[first, second]).is_some()
                });
                if starts_one {
                    assert!(
                        may_continue_json5_space(&[first, second]),
                        "{first:#04x} {second:#04x}"
                    );
                }
            }
        }
        // And it says no to those that begin none (U+00A1, U+20AC).
        assert!(!may_continue_json5_space(&[0xC2, 0xA1]));
        assert!(!may_continue_json5_space(&[0xE2, 0x82]));
    }

    #[test]
    fn ascii_identifier_characters_are_letters_digits_underscore_and_dollar() {
        for byte in 0..=0x7Fu8 {
            let c = char::from(byte);
            let part = c.is_ascii_alphanumeric() || c == '_' || c == '$';
            assert_eq!(is_identifier_char(c, false), part, "{c:?}");
            assert_eq!(
                is_identifier_char(c, true),
                part && !c.is_ascii_digit(),
                "{c:?}"
            );
        }
        // Letters start identifiers; combining marks, other digits, ZWNJ and ZWJ only
        // continue them; spaces and symbols do neither.
        for (c, start, part) in [
            ('é', true, true),
            ('ж', true, true),
            ('中', true, true),
            ('\u{0301}', false, true),
            ('\u{0663}', false, true),
            ('\u{200C}', false, true),
            ('\u{200D}', false, true),
            ('\u{3000}', false, false),
            ('€', false, false),
            // Other_ID_Continue punctuation, in XID_Continue but no IdentifierPart category.
            ('\u{00B7}', false, false),
            // A Mongolian combining mark that Unicode lets start identifiers.
            ('\u{1885}', false, true),
        ] {
            assert_eq!(is_identifier_char(c, true), start, "{c:?}");
            assert_eq!(is_identifier_char(c, false), part, "{c:?}");
        }
    }

    #[test]
    fn the_identifier_exceptions_are_where_the_xid_tables_and_the_categories_differ() {
        // Each exception corrects the table it is looked up next to: should a later Unicode
        // version move one of them, the exception would go stale silently.
        for c in LETTERS_OUTSIDE_XID_START {
            assert!(!unicode_ident::is_xid_start(c), "U+{:04X}", u32::from(c));
        }
        let mut in_start = 0;
        let mut in_continue = 0;
        for c in '\u{80}'..=char::MAX {
            if is_xid_start_but_no_letter(c) {
                assert!(unicode_ident::is_xid_start(c), "U+{:04X}", u32::from(c));
                in_start += 1;
            }
            if is_xid_continue_outside_es5(c) {
                assert!(unicode_ident::is_xid_continue(c), "U+{:04X}", u32::from(c));
                in_continue += 1;
            }
        }
        assert_eq!((in_start, in_continue), (4, 16));
    }

    #[test]
    fn escape_search_flags_non_ascii_only_when_asked() {
        let text = "abcdefgh é".as_bytes();
        assert_eq!(find_escape(text, 0, false), text.len());
        assert_eq!(find_escape(text, 0, true), 9);
    }

    #[test]
    fn number_grammar() {
        use NumberScan::{Invalid, NeedMore, Valid};
        let valid = |s: &str| matches!(scan_number(s.as_bytes(), true), Valid { len, .. } if len == s.len());
        for good in [
            "0",
            "-0",
            "12",
            "-12",
            "1.5",
            "1e5",
            "1E+5",
            "1e-05",
            "-0.0e0",
            "123.456e789",
        ] {
            assert!(valid(good), "{good}");
        }
        for bad in [
            "01", "-", "1.", ".5", "1e", "1e+", "+1", "2.e3", "1.2.3", "0x1", "-a", "1ee",
        ] {
            assert!(!valid(bad), "{bad}");
        }
        assert_eq!(scan_number(b"12", false), NeedMore);
        assert_eq!(scan_number(b"1.", false), NeedMore);
        assert_eq!(scan_number(b"1e", false), NeedMore);
        let decimal = |negative, mantissa, exponent| {
            Some(Decimal {
                negative,
                mantissa,
                exponent,
            })
        };
        assert_eq!(
            scan_number(b"12,", false),
            Valid {
                len: 2,
                hint: NumberHint::Integer,
                value: decimal(false, 12, 0),
            }
        );
        assert_eq!(scan_number(b"01]", true), Invalid { len: 2 });
        assert_eq!(
            scan_number(b"-1]", true),
            Valid {
                len: 2,
                hint: NumberHint::NegInteger,
                value: decimal(true, 1, 0),
            }
        );
        assert_eq!(
            scan_number(b"1e3 ", true),
            Valid {
                len: 3,
                hint: NumberHint::Float,
                value: decimal(false, 1, 3),
            }
        );
    }

    #[test]
    fn the_short_number_path_answers_as_the_general_grammar() {
        // Every shape near the short path's limits: integer parts of 0 to 20 digits (with
        // and without a leading zero), fractions of 0 to 17 digits, an exponent or not,
        // and what may follow (a delimiter, a word byte, a non-ASCII byte, nothing),
        // padded or not to the 32 bytes the path needs.
        let mut taken = 0;
        for sign in ["", "-"] {
            for int in [
                "",
                "0",
                "00",
                "01",
                "7",
                "10",
                "123",
                "1234",
                "12345",
                "123456789",
                "1234567890123456789",
                "12345678901234567890",
            ] {
                let fractions = [None, Some(0), Some(1), Some(7), Some(8), Some(9)]
                    .into_iter()
                    .chain((12..=17).map(Some));
                for fraction_len in fractions {
                    for tail in [
                        "", "e5", "E-2", "e+308", "E0", "e-007", "e999", "e1234", "e+1234",
                        "e12345", "e", "e+", "E-", "e-x",
                    ] {
                        for next in [",", "]", " ", "x", ".", "5", "\u{e9}", ""] {
                            for padding in [0, 40] {
                                let mut text = format!("{sign}{int}");
                                if let Some(len) = fraction_len {
                                    text.push('.');
                                    text.extend(
                                        (0..len).map(|i| char::from(b'0' + (i * 3 % 10) as u8)),
                                    );
                                }
                                text.push_str(tail);
                                text.push_str(next);
                                text.push_str(&" ".repeat(padding));
                                let bytes = text.as_bytes();
                                if let Some(short) = scan_short_number(bytes) {
                                    taken += 1;
                                    assert_eq!(short, scan_number_general(bytes, true), "{text:?}");
                                }
                            }
                        }
                    }
                }
            }
        }
        // The common shapes do take the short path (a path that never answered would pass
        // the comparison above).
        assert!(taken > 300, "{taken}");
        for text in [
            "-65.613616999999977",
            "0",
            "-0.0",
            "123456.123456789012",
            "42",
            "1372701600000",
            "6.02e23",
            "-1.5E-308",
            "1e+5",
        ] {
            let padded = format!("{text},{}", " ".repeat(32));
            assert!(scan_short_number(padded.as_bytes()).is_some(), "{text}");
        }
    }

    #[test]
    fn numbers_are_read_on_the_scan() {
        use NumberScan::Valid;
        let value = |s: &str| match scan_number(s.as_bytes(), true) {
            Valid { len, value, .. } if len == s.len() => value,
            other => panic!("{s}: {other:?}"),
        };
        let decimal = |negative, mantissa, exponent| Decimal {
            negative,
            mantissa,
            exponent,
        };
        assert_eq!(value("0"), Some(decimal(false, 0, 0)));
        assert_eq!(value("-0.0"), Some(decimal(true, 0, -1)));
        assert_eq!(
            value("-65.613616999999977"),
            Some(decimal(true, 65_613_616_999_999_977, -15))
        );
        assert_eq!(value("0.000125E+2"), Some(decimal(false, 125, -4)));
        assert_eq!(
            value("12345678901234567e-30"),
            Some(decimal(false, 12_345_678_901_234_567, -30))
        );
        assert_eq!(
            value("9999999999999999999"),
            Some(decimal(false, 9_999_999_999_999_999_999, 0))
        );
        // Too many digits, or an exponent out of reach: only the grammar is checked.
        assert_eq!(value("18446744073709551616"), None);
        assert_eq!(value("1.00000000000000000000"), None);
        assert_eq!(value("1e10000"), None);
        assert_eq!(value("1e99999999999999999999"), None);
        assert_eq!(value(&format!("0.{}1", "0".repeat(20_000))), None);
        // An exponent that stopped growing is not cancelled by a fraction just as long.
        assert_eq!(value(&format!("0.{}1e1000000", "0".repeat(99_999))), None);
        assert_eq!(value(&format!("0.{}1e-1000000", "0".repeat(99_999))), None);
        // Every value read on the scan agrees with the standard parser once converted.
        for text in ["0.1", "-65.613616999999977", "1e22", "5e-324", "123.456e-7"] {
            let expected: f64 = text.parse().unwrap();
            let converted = value(text).and_then(sluice_core::decimal::decimal_to_f64);
            assert!(
                converted.is_none_or(|v| v.to_bits() == expected.to_bits()),
                "{text}"
            );
        }
    }
}
