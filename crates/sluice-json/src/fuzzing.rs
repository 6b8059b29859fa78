//! The checks the fuzz target runs, here so that found inputs replay in `cargo test`.
//!
//! Not part of the reading and writing API: a harness for fuzzers and regression tests.

use std::fmt::Debug;
use std::io;

use sluice_core::{
    Entry, Error, ErrorCode, Number, OwnedNumber, Path, Reader, Result, Span, Token,
};

use crate::parallel::{ParallelOptions, RecordInfo, read_lines};

#[cfg(feature = "fuzzing")]
mod versus_serde_json;
use crate::{
    DuplicateKeys, IO_WINDOW, Input, IoInput, JsonOptions, JsonReader, JsonWriter, NdjsonReader,
    NonFinite, Relaxation, SliceInput, WriterOptions, codes,
};
#[cfg(feature = "fuzzing")]
pub use versus_serde_json::value_difference;

/// Hands out at most `size` bytes per read: one byte is the hardest case for the `io::Read`
/// path, other sizes cut the input at other places.
pub(crate) struct Chunks<'a> {
    pub(crate) data: &'a [u8],
    pub(crate) size: usize,
}

impl io::Read for Chunks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.data.len().min(buf.len()).min(self.size);
        let (head, rest) = self.data.split_at(n);
        buf[..n].copy_from_slice(head);
        self.data = rest;
        Ok(n)
    }
}

/// The read sizes an input may be handed out in (chosen by the input, see [`Choices`]).
const CHUNK_SIZES: [usize; 8] = [1, 1, 2, 3, 7, 32, 33, 4096];

/// The window sizes of the `io::Read` path (chosen by the input, see [`Choices`]). Fuzz
/// inputs are far shorter than the default window, which they would never fill: small
/// windows make tokens straddle the window's edge, and the window move and grow, on every
/// input.
const WINDOW_SIZES: [usize; 8] = [1, 2, 3, 8, 17, 64, IO_WINDOW, IO_WINDOW];

/// The `io::Read` input of `data`, handed out in the chosen reads and window.
fn io_input(data: &[u8], choices: Choices) -> IoInput<Chunks<'_>> {
    let chunks = Chunks {
        data,
        size: choices.chunk,
    };
    IoInput::with_window(chunks, choices.window)
}

/// The four presets, in the order the choices index them.
fn presets() -> [(&'static str, JsonOptions); 4] {
    [
        ("strict", JsonOptions::strict()),
        ("relaxed", JsonOptions::relaxed()),
        ("ndjson", JsonOptions::ndjson()),
        ("json5", JsonOptions::json5()),
    ]
}

/// What one input checks beyond the presets, derived from its bytes (a hash of them, so
/// that every input runs the same few extra readings and a mutation moves it elsewhere).
#[derive(Debug, Clone, Copy)]
struct Choices {
    /// Bytes per read on the `io::Read` path.
    chunk: usize,
    /// The window size of the `io::Read` path.
    window: usize,
    /// The preset read again with [`DuplicateKeys::LastWins`].
    last_wins: usize,
    /// The preset read again with a small `max_depth`, and that depth (0 to 4).
    shallow: usize,
    max_depth: usize,
    /// Which layout (condensed 0, pretty 1) writes with `escape_non_ascii`.
    escaped_layout: usize,
    /// The preset the NDJSON records are read with (`multiple_values` added).
    ndjson: usize,
    /// Where the turns of typed number reads and NDJSON record reads start.
    turn: usize,
}

impl Choices {
    fn of(data: &[u8]) -> Choices {
        // FNV-1a: cheap next to reading, and deterministic.
        let hash = data.iter().fold(0x811c_9dc5_u32, |hash, &byte| {
            (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
        });
        let bits = |shift: u32, count: u32| (hash >> shift) as usize % count as usize;
        Choices {
            chunk: CHUNK_SIZES[bits(0, 8)],
            window: WINDOW_SIZES[bits(29, 8)],
            last_wins: bits(3, 4),
            shallow: bits(5, 4),
            max_depth: bits(7, 5),
            escaped_layout: bits(10, 2),
            ndjson: bits(11, 4),
            turn: bits(13, 1 << 16),
        }
    }
}

fn slice_reader<'a>(data: &'a [u8], options: &JsonOptions) -> JsonReader<SliceInput<'a>> {
    JsonReader::from_slice(data).with_options(options.clone())
}

fn read_document<S: Input>(mut reader: JsonReader<S>) -> Result<Vec<Token>> {
    let tokens = Token::read_all(&mut reader)?;
    reader.finish()?;
    Ok(tokens)
}

/// The tokens of a document with the span of each.
fn read_spanned<S: Input>(mut reader: JsonReader<S>) -> Result<Vec<(Token, Span)>> {
    let mut tokens = Vec::new();
    loop {
        let entry = reader.peek()?;
        if entry == Entry::Ended {
            reader.finish()?;
            return Ok(tokens);
        }
        let token = Token::read(&mut reader, entry)?;
        tokens.push((token, reader.span()));
    }
}

/// Reads one whole value (its first token and, for a container, everything to its end):
/// its tokens.
fn read_value<R: Reader + ?Sized>(
    reader: &mut R,
    depth: impl Fn(&R) -> usize,
) -> Result<Vec<Token>> {
    let start = depth(reader);
    let mut tokens = Vec::new();
    loop {
        let entry = reader.peek()?;
        tokens.push(Token::read(reader, entry)?);
        if depth(reader) <= start {
            return Ok(tokens);
        }
    }
}

/// Checks that two outcomes agree: equal values, or errors with the same code and span.
fn agree_ref<T: PartialEq + Debug>(a: &Result<T>, b: &Result<T>, what: &str) {
    match (a, b) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}: values differ"),
        (Err(a), Err(b)) => assert_eq!(
            (a.code(), a.span()),
            (b.code(), b.span()),
            "{what}: errors differ: {a} / {b}"
        ),
        (a, b) => panic!("{what}: one succeeds, the other fails: {a:?} / {b:?}"),
    }
}

/// [`agree_ref`], giving the value when both succeed.
fn agree<T: PartialEq + Debug>(a: Result<T>, b: &Result<T>, what: &str) -> Option<T> {
    agree_ref(&a, b, what);
    a.ok()
}

/// Deepest nesting of arrays and objects in `tokens`.
fn nesting(tokens: &[Token]) -> usize {
    let mut depth = 0_usize;
    let mut deepest = 0;
    for token in tokens {
        let entry = token.entry();
        if entry.is_container_start() {
            depth += 1;
            deepest = deepest.max(depth);
        } else if entry.is_container_end() {
            depth = depth.saturating_sub(1);
        }
    }
    deepest
}

/// Runs every check on `data`:
///
/// - for each preset (strict, relaxed, ndjson, json5), and for two variants chosen by the
///   input (a preset with [`DuplicateKeys::LastWins`], a preset with a `max_depth` of 0 to
///   4): reading never panics (nor hangs: libFuzzer's timeout catches that); the `io::Read`
///   path, in reads of 1 to 4096 bytes (chosen by the input), gives the same tokens, or an
///   error with the same code, span and notes, as the slice path; an error whose note names
///   a switch is not met again (same code and span) with that switch on; `skip()` of each
///   root value succeeds exactly when reading its tokens does (same error code and span when
///   not) and leaves the reader in the same place (offset, depth, values read, `finish()`);
/// - `LastWins` reads every document the default reads, to the same tokens, and fails
///   where the default fails for anything but a duplicate key; the small `max_depth` reads
///   the same tokens when they nest no deeper than it, and fails with
///   [`DEPTH_EXCEEDED`](codes::DEPTH_EXCEEDED) otherwise;
/// - a document that reads writes, condensed and pretty (one of them with
///   `escape_non_ascii`, whose output must be ASCII), and reads back to the same tokens
///   (number text as the same text, a typed number as the same value, a NaN's sign left
///   out; every other token exactly);
/// - every number token is read again with a typed read (`read_i8` ... `read_u128`,
///   `read_f32`, `read_f64`, a different one for each number, with or without a peek),
///   in its document over both paths and alone, and each agrees with Rust's own `parse`
///   on the number's text: exact, range-checked, an error rather than a wrapped or rounded
///   integer or an infinite float;
/// - [`NdjsonReader`] over the input (over both paths, records read fully, partly, skipped
///   or left unread) yields the same records as a [`JsonReader`] with `multiple_values`
///   where both succeed, accepts nothing that reader rejects, and its errors name a line
///   from 1 to the line of the error; each line read alone (the parallel ingestion's
///   reading) gives the same records, or the same first error; and going on after every
///   bad line (each record read whole and `finish`ed, `skip_bad_record` after each error,
///   over both paths) gives the good records and bad lines (line, code, span, data path) of
///   the parallel ingestion with `skip_errors`;
/// - the strict reader with [`DuplicateKeys::LastWins`] accepts exactly what
///   `serde_json::from_slice::<serde_json::Value>` accepts, to the same value (see
///   `versus_serde_json::check_serde_json` for where they differ by design; with the
///   `fuzzing` feature only, which brings serde_json).
///
/// # Panics
/// When a check fails: that is the point.
pub fn check_json_input(data: &[u8]) {
    check_with_choices(data, Choices::of(data));
}

/// [`check_json_input`] with each preset in turn for the checks that take one preset chosen
/// by the input (the preset read with `LastWins`, the one read with a small `max_depth`,
/// and the one the NDJSON records are read with), for replaying stored inputs: a fuzzer
/// reaches every preset with the many mutations of an input, a replay of the input alone
/// would reach one. The reads, the window and the small `max_depth` stay the input's own
/// choices (the depth moved on by one with each preset).
///
/// # Panics
/// When a check fails.
pub fn check_json_input_with_every_preset(data: &[u8]) {
    let own = Choices::of(data);
    for preset in 0..presets().len() {
        let choices = Choices {
            last_wins: preset,
            shallow: preset,
            max_depth: (own.max_depth + preset) % 5,
            ndjson: preset,
            ..own
        };
        check_with_choices(data, choices);
    }
}

/// The checks of [`check_json_input`], with the choices given.
fn check_with_choices(data: &[u8], choices: Choices) {
    let presets = presets();
    let (last_wins_name, last_wins_base) = &presets[choices.last_wins];
    let (shallow_name, shallow_base) = &presets[choices.shallow];
    let last_wins = JsonOptions {
        duplicate_keys: DuplicateKeys::LastWins,
        ..last_wins_base.clone()
    };
    let shallow = JsonOptions {
        max_depth: choices.max_depth,
        ..shallow_base.clone()
    };
    let last_wins_label = format!("{last_wins_name} with LastWins");
    let shallow_label = format!("{shallow_name} with max_depth {}", choices.max_depth);

    let mut results = Vec::with_capacity(presets.len());
    let mut numbers_seen = Vec::new();
    for (name, options) in &presets {
        let result = check_options(data, options, name, choices);
        if let Ok(tokens) = &result {
            check_typed_reads(data, options, name, tokens, choices, &mut numbers_seen);
        }
        results.push(result);
    }
    let relaxed = check_options(data, &last_wins, &last_wins_label, choices);
    let limited = check_options(data, &shallow, &shallow_label, choices);

    // LastWins against its preset.
    match (&results[choices.last_wins], &relaxed) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{last_wins_label}: tokens differ"),
        (Ok(_), Err(err)) => panic!("{last_wins_label} rejects what the default reads: {err}"),
        (Err(base), Err(err)) if base.code() != codes::DUPLICATE_KEY => assert_eq!(
            (base.code(), base.span()),
            (err.code(), err.span()),
            "{last_wins_label}: errors differ: {base} / {err}"
        ),
        (Err(base), _) if base.code() != codes::DUPLICATE_KEY => {
            panic!("{last_wins_label} reads what the default rejects: {base}")
        }
        (Err(_), Ok(_)) => {}
        (Err(_), Err(err)) => assert_ne!(
            err.code(),
            codes::DUPLICATE_KEY,
            "{last_wins_label}: a duplicate key is an error: {err}"
        ),
    }

    // The small max_depth against its preset.
    match (&results[choices.shallow], &limited) {
        (Ok(a), _) if nesting(a) <= choices.max_depth => match &limited {
            Ok(b) => assert_eq!(a, b, "{shallow_label}: tokens differ"),
            Err(err) => panic!(
                "{shallow_label} rejects a document nested {} deep: {err}",
                nesting(a)
            ),
        },
        (Ok(a), Err(err)) => assert_eq!(
            err.code(),
            codes::DEPTH_EXCEEDED,
            "{shallow_label}: a document nested {} deep fails otherwise: {err}",
            nesting(a)
        ),
        (Ok(a), Ok(_)) => panic!(
            "{shallow_label} reads a document nested {} deep",
            nesting(a)
        ),
        (Err(base), Err(err)) => assert!(
            err.code() == codes::DEPTH_EXCEEDED
                || (err.code(), err.span()) == (base.code(), base.span()),
            "{shallow_label}: errors differ: {base} / {err}"
        ),
        (Err(base), Ok(_)) => panic!("{shallow_label} reads what the default rejects: {base}"),
    }

    check_ndjson(data, choices);
    #[cfg(feature = "fuzzing")]
    versus_serde_json::check_serde_json(data);
}

/// The checks of one set of options: slice against `io::Read`, `skip()` against reading,
/// and the round trip through the writer. Gives what the slice path read.
fn check_options(
    data: &[u8],
    options: &JsonOptions,
    name: &str,
    choices: Choices,
) -> Result<Vec<Token>> {
    let slice = read_document(slice_reader(data, options));
    let stream = read_document(JsonReader::new(io_input(data, choices), options.clone()));
    let what = format!(
        "{name}: slice and io::Read ({} bytes a read, a {}-byte window)",
        choices.chunk, choices.window
    );
    agree_ref(&slice, &stream, &what);
    // The notes too: the data path's, and the switch that would avoid the error.
    if let (Err(a), Err(b)) = (&slice, &stream) {
        assert_eq!(a.notes(), b.notes(), "{what}: notes differ: {a} / {b}");
    }
    if let Err(err) = &slice {
        check_noted_switch(data, options, name, err);
    }
    check_skip(data, options, name);
    if let Ok(tokens) = &slice {
        check_round_trip(tokens, options, name, choices);
    }
    slice
}

/// The switch an error's note names gets the read past the refused token: with it on, the
/// document reads, or fails otherwise (another code, or another place: an unclosed comment
/// once comments are on, a later token).
fn check_noted_switch(data: &[u8], options: &JsonOptions, name: &str, err: &Error) {
    let Some(relaxation) = Relaxation::noted_in(err) else {
        return;
    };
    let mut relaxed = options.clone();
    relaxation.enable(&mut relaxed);
    if let Err(again) = read_document(slice_reader(data, &relaxed)) {
        assert_ne!(
            (again.code(), again.span()),
            (err.code(), err.span()),
            "{name}: the note names {}, which refuses the same token: {err}",
            relaxation.option_name()
        );
    }
}

/// Skips each root value on one reader and reads its tokens on another: both succeed or
/// fail alike, and leave their reader in the same place.
fn check_skip(data: &[u8], options: &JsonOptions, name: &str) {
    let mut skipping = slice_reader(data, options);
    let mut reading = slice_reader(data, options);
    let what = format!("{name}: skip() and reading the tokens");
    // Every value takes at least one byte: more turns than that is a hang. Nothing is read
    // after an error (what a reader does then is not specified).
    for _ in 0..=data.len() {
        let Some(entry) = agree(skipping.peek(), &reading.peek(), &what) else {
            return;
        };
        // With the next token peeked, `finish()` only looks at it.
        let at_end = agree(skipping.finish(), &reading.finish(), &what).is_some();
        assert_eq!(
            at_end,
            entry == Entry::Ended,
            "{what}: finish() and peek() disagree"
        );
        if entry == Entry::Ended {
            return;
        }
        let skipped = skipping.skip();
        let read = read_value(&mut reading, JsonReader::depth).map(drop);
        if agree(skipped, &read, &what).is_none() {
            return;
        }
        assert_eq!(
            (skipping.offset(), skipping.depth(), skipping.values_read()),
            (reading.offset(), reading.depth(), reading.values_read()),
            "{what}: the readers stand in different places (offset, depth, values read)"
        );
    }
    panic!("{what}: more root values than bytes");
}

/// Writes `tokens`, condensed and pretty (one of them escaping non-ASCII characters), and
/// reads the output back with the same options.
fn check_round_trip(tokens: &[Token], options: &JsonOptions, name: &str, choices: Choices) {
    for (index, layout) in [WriterOptions::condensed(), WriterOptions::pretty()]
        .into_iter()
        .enumerate()
    {
        let escape_non_ascii = index == choices.escaped_layout;
        let layout = WriterOptions {
            non_finite: NonFinite::Json5,
            multiple_values: options.multiple_values,
            escape_non_ascii,
            ..layout
        };
        let mut writer = JsonWriter::new(Vec::new(), layout);
        let written = Token::write_all(tokens, &mut writer).and_then(|()| writer.into_inner());
        let text = match written {
            Ok(text) => text,
            // An empty stream (NDJSON with no record) has nothing to write.
            Err(_) if tokens.is_empty() => continue,
            Err(err) => panic!("{name}: tokens that were read cannot be written: {err}"),
        };
        assert!(
            !escape_non_ascii || text.is_ascii(),
            "{name}: escape_non_ascii wrote non-ASCII output\n{}",
            String::from_utf8_lossy(&text)
        );
        let back = read_document(slice_reader(&text, options)).unwrap_or_else(|err| {
            panic!(
                "{name}: written output (escape_non_ascii {escape_non_ascii}) does not read \
                 back: {err}\n{}",
                String::from_utf8_lossy(&text)
            )
        });
        if let Some(at) = round_trip_difference(tokens, &back) {
            panic!(
                "{name}: round trip (escape_non_ascii {escape_non_ascii}) changed the tokens \
                 at {at}\n{}",
                String::from_utf8_lossy(&text)
            );
        }
    }
}

/// Where the tokens read back from written output differ from those written, if they do.
///
/// Every token must come back exactly (strings and keys to the character, as a key), but
/// numbers: number text is written as it is, so it must come back as the same text (a
/// comparison by value would let `1.0` become `1`, `-0` become `0`, or the 17th digit
/// of `0.10000000000000001` go); a typed number (JSON5 hexadecimal, `Infinity`, `NaN`) is
/// formatted, so it must come back as the same value, NaNs of any sign alike (the writer
/// spells every NaN `NaN`).
fn round_trip_difference(written: &[Token], back: &[Token]) -> Option<String> {
    if written.len() != back.len() {
        return Some(format!(
            "the end: {} tokens written, {} read back",
            written.len(),
            back.len()
        ));
    }
    written
        .iter()
        .zip(back)
        .position(|(written, back)| match (written, back) {
            (Token::Number(OwnedNumber::Text(..)), _) => written != back,
            (Token::Number(typed), Token::Number(back)) => !same_number_value(typed, back),
            _ => written != back,
        })
        .map(|at| {
            format!(
                "token {at}: wrote {:?}, read back {:?}",
                written[at], back[at]
            )
        })
}

/// Whether two numbers have the same value (through [`Number::to_typed`], which gives an
/// integer its narrowest kind and a float its `f64`); any two NaNs are the same.
fn same_number_value(a: &OwnedNumber, b: &OwnedNumber) -> bool {
    let value = |number: &OwnedNumber| number.as_number().to_typed().map(Number::to_owned_number);
    match (value(a), value(b)) {
        (Ok(OwnedNumber::F64(x)), Ok(OwnedNumber::F64(y))) => {
            x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
        }
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

// ----- typed number reads ----------------------------------------------------------------

/// The typed number reads of [`Reader`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    I8,
    I16,
    I32,
    I64,
    I128,
    U8,
    U16,
    U32,
    U64,
    U128,
    F32,
    F64,
}

const KINDS: [Kind; 12] = [
    Kind::I64,
    Kind::U64,
    Kind::F64,
    Kind::I8,
    Kind::U8,
    Kind::F32,
    Kind::I16,
    Kind::U16,
    Kind::I32,
    Kind::U32,
    Kind::I128,
    Kind::U128,
];

/// A typed read's value: integers widened, floats by their bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Typed {
    Signed(i128),
    Unsigned(u128),
    F32(u32),
    F64(u64),
}

impl Typed {
    /// Equal values; any two NaNs are equal.
    fn same(self, other: Typed) -> bool {
        match (self, other) {
            (Typed::F32(a), Typed::F32(b)) => {
                a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
            }
            (Typed::F64(a), Typed::F64(b)) => {
                a == b || (f64::from_bits(a).is_nan() && f64::from_bits(b).is_nan())
            }
            (a, b) => a == b,
        }
    }
}

fn typed_read<R: Reader + ?Sized>(reader: &mut R, kind: Kind) -> Result<Typed> {
    Ok(match kind {
        Kind::I8 => Typed::Signed(reader.read_i8()?.into()),
        Kind::I16 => Typed::Signed(reader.read_i16()?.into()),
        Kind::I32 => Typed::Signed(reader.read_i32()?.into()),
        Kind::I64 => Typed::Signed(reader.read_i64()?.into()),
        Kind::I128 => Typed::Signed(reader.read_i128()?),
        Kind::U8 => Typed::Unsigned(reader.read_u8()?.into()),
        Kind::U16 => Typed::Unsigned(reader.read_u16()?.into()),
        Kind::U32 => Typed::Unsigned(reader.read_u32()?.into()),
        Kind::U64 => Typed::Unsigned(reader.read_u64()?.into()),
        Kind::U128 => Typed::Unsigned(reader.read_u128()?),
        Kind::F32 => Typed::F32(reader.read_f32()?.to_bits()),
        Kind::F64 => Typed::F64(reader.read_f64()?.to_bits()),
    })
}

/// Whether `text` is a number in RFC 8259 syntax.
fn is_json_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = usize::from(bytes.first() == Some(&b'-'));
    let digits = |at: &mut usize| {
        let start = *at;
        while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        *at - start
    };
    match bytes.get(at) {
        Some(b'0') => at += 1,
        Some(b'1'..=b'9') => {
            digits(&mut at);
        }
        _ => return false,
    }
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        if digits(&mut at) == 0 {
            return false;
        }
    }
    if let Some(b'e' | b'E') = bytes.get(at) {
        at += 1;
        if let Some(b'+' | b'-') = bytes.get(at) {
            at += 1;
        }
        if digits(&mut at) == 0 {
            return false;
        }
    }
    at == bytes.len()
}

/// The integer that JSON number `text` names, as integer text (`1.5e1` gives `15`, `-0.0`
/// gives `-0`), or the error every integer read of it must give: a fraction is
/// [`NUMBER_NOT_INTEGER`](sluice_core::codes::NUMBER_NOT_INTEGER), an integer of more than
/// 40 digits fits no type. Worked out on the digits, independently of the reader.
fn integer_text(text: &str) -> std::result::Result<String, ErrorCode> {
    let (sign, unsigned) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text),
    };
    let (mantissa, exponent) = unsigned.split_once(['e', 'E']).unwrap_or((unsigned, "0"));
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let (exponent_negative, exponent_digits) = match exponent.as_bytes().first() {
        Some(b'-') => (true, &exponent[1..]),
        Some(b'+') => (false, &exponent[1..]),
        _ => (false, exponent),
    };
    // Saturated: no input of fuzzing size has digits that make up for a billion.
    let exponent = exponent_digits.bytes().fold(0_i64, |value, digit| {
        (value * 10 + i64::from(digit - b'0')).min(1_000_000_000)
    });
    let exponent = if exponent_negative {
        -exponent
    } else {
        exponent
    };
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Ok(format!("{sign}0"));
    }
    let significant = digits.trim_end_matches('0');
    let len = |s: &str| i64::try_from(s.len()).unwrap_or(i64::MAX);
    let scale = exponent - len(fraction) + len(digits) - len(significant);
    if scale < 0 {
        return Err(sluice_core::codes::NUMBER_NOT_INTEGER);
    }
    if len(significant) + scale > 40 {
        return Err(sluice_core::codes::NUMBER_OUT_OF_RANGE);
    }
    let zeros = usize::try_from(scale).unwrap_or(0);
    Ok(format!("{sign}{significant}{}", "0".repeat(zeros)))
}

/// What a typed read of JSON number `text` must give, by Rust's own `parse`: exact,
/// range-checked integers (`-0` is zero for the unsigned types too), correctly rounded
/// floats, and [`NUMBER_OUT_OF_RANGE`](sluice_core::codes::NUMBER_OUT_OF_RANGE) for an
/// integer that does not fit or a finite number beyond the float's range.
fn expected_typed(text: &str, kind: Kind) -> std::result::Result<Typed, ErrorCode> {
    use sluice_core::codes::NUMBER_OUT_OF_RANGE;
    let float = |value: f64| {
        if value.is_infinite() {
            Err(NUMBER_OUT_OF_RANGE)
        } else {
            Ok(Typed::F64(value.to_bits()))
        }
    };
    match kind {
        Kind::F64 => return float(text.parse().expect("JSON number text parses as f64")),
        Kind::F32 => {
            let value: f32 = text.parse().expect("JSON number text parses as f32");
            return if value.is_infinite() {
                Err(NUMBER_OUT_OF_RANGE)
            } else {
                Ok(Typed::F32(value.to_bits()))
            };
        }
        _ => {}
    }
    let integer = integer_text(text)?;
    let unsigned = if integer == "-0" { "0" } else { &integer };
    let parsed = match kind {
        Kind::I8 => integer.parse::<i8>().map(|v| Typed::Signed(v.into())),
        Kind::I16 => integer.parse::<i16>().map(|v| Typed::Signed(v.into())),
        Kind::I32 => integer.parse::<i32>().map(|v| Typed::Signed(v.into())),
        Kind::I64 => integer.parse::<i64>().map(|v| Typed::Signed(v.into())),
        Kind::I128 => integer.parse::<i128>().map(Typed::Signed),
        Kind::U8 => unsigned.parse::<u8>().map(|v| Typed::Unsigned(v.into())),
        Kind::U16 => unsigned.parse::<u16>().map(|v| Typed::Unsigned(v.into())),
        Kind::U32 => unsigned.parse::<u32>().map(|v| Typed::Unsigned(v.into())),
        Kind::U64 => unsigned.parse::<u64>().map(|v| Typed::Unsigned(v.into())),
        Kind::U128 | Kind::F32 | Kind::F64 => unsigned.parse::<u128>().map(Typed::Unsigned),
    };
    parsed.map_err(|_| NUMBER_OUT_OF_RANGE)
}

/// What a typed read of the number token `number` must give: by [`expected_typed`] for
/// number text (which must be in JSON syntax: the reader hands out no other), by the
/// conversions of [`Number`] for a typed number (JSON5 hex, `Infinity`, `NaN`).
fn expected_for(number: &OwnedNumber, kind: Kind) -> std::result::Result<Typed, ErrorCode> {
    if let OwnedNumber::Text(text, _) = number {
        assert!(
            is_json_number(text),
            "number text {text:?} is not in JSON syntax"
        );
        return expected_typed(text, kind);
    }
    let number: Number<'_> = number.as_number();
    let converted = match kind {
        Kind::I8 => number.to_i8().map(|v| Typed::Signed(v.into())),
        Kind::I16 => number.to_i16().map(|v| Typed::Signed(v.into())),
        Kind::I32 => number.to_i32().map(|v| Typed::Signed(v.into())),
        Kind::I64 => number.to_i64().map(|v| Typed::Signed(v.into())),
        Kind::I128 => number.to_i128().map(Typed::Signed),
        Kind::U8 => number.to_u8().map(|v| Typed::Unsigned(v.into())),
        Kind::U16 => number.to_u16().map(|v| Typed::Unsigned(v.into())),
        Kind::U32 => number.to_u32().map(|v| Typed::Unsigned(v.into())),
        Kind::U64 => number.to_u64().map(|v| Typed::Unsigned(v.into())),
        Kind::U128 => number.to_u128().map(Typed::Unsigned),
        Kind::F32 => number.to_f32().map(|v| Typed::F32(v.to_bits())),
        Kind::F64 => number.to_f64().map(|v| Typed::F64(v.to_bits())),
    };
    converted.map_err(|err| err.code())
}

/// Checks one typed read against what it must give; `false` when it (rightly) failed, and
/// the reader is not to be read on. A failed read's error must point at the number.
fn check_typed(
    got: Result<Typed>,
    expected: std::result::Result<Typed, ErrorCode>,
    span: Span,
    what: &dyn Fn() -> String,
) -> bool {
    match (got, expected) {
        (Ok(got), Ok(expected)) => {
            assert!(
                got.same(expected),
                "{}: read {got:?}, expected {expected:?}",
                what()
            );
            true
        }
        (Err(err), Err(code)) => {
            assert_eq!(
                (err.code(), err.span()),
                (code, Some(span)),
                "{}: error {err}",
                what()
            );
            false
        }
        (got, expected) => panic!("{}: read {got:?}, expected {expected:?}", what()),
    }
}

/// Reads the document again, over the slice and over `io::Read`, with a typed read for
/// each number (the kinds taken in turn, with or without a peek first), and reads each
/// number's text alone with every typed read.
fn check_typed_reads(
    data: &[u8],
    options: &JsonOptions,
    name: &str,
    tokens: &[Token],
    choices: Choices,
    seen: &mut Vec<Box<str>>,
) {
    let spanned = read_spanned(slice_reader(data, options))
        .unwrap_or_else(|err| panic!("{name}: a document that read fails to read again: {err}"));
    assert_eq!(
        spanned.iter().map(|(token, _)| token).collect::<Vec<_>>(),
        tokens.iter().collect::<Vec<_>>(),
        "{name}: reading again gives other tokens"
    );
    typed_walk(
        slice_reader(data, options),
        &spanned,
        name,
        choices.turn,
        true,
    );
    let stream = JsonReader::new(io_input(data, choices), options.clone());
    typed_walk(stream, &spanned, name, choices.turn + 1, false);

    // Each number text alone (once per input), with every typed read: the bare text takes
    // the scanner's general path, followed by spaces its 32-byte one.
    for (index, (token, _)) in spanned.iter().enumerate() {
        let Token::Number(OwnedNumber::Text(text, _)) = token else {
            continue;
        };
        if seen.len() >= 64 || seen.contains(text) {
            continue;
        }
        seen.push(text.clone());
        let padded = format!("{text}{:40}", "");
        for (k, kind) in KINDS.into_iter().enumerate() {
            let turn = choices.turn + index + k;
            let alone = if turn.is_multiple_of(2) {
                &text[..]
            } else {
                &padded[..]
            };
            let mut reader = JsonReader::from_slice(alone.as_bytes());
            if (turn / 2).is_multiple_of(2) {
                let entry = reader.peek();
                assert!(
                    matches!(entry, Ok(entry) if entry.is_number()),
                    "{name}: number text {text:?} alone peeks as {entry:?}"
                );
            }
            let got = typed_read(&mut reader, kind);
            let span = Span::new(0, text.len());
            let what = || format!("{name}: {kind:?} of {text:?} alone");
            if check_typed(got, expected_typed(text, kind), span, &what) {
                assert!(reader.finish().is_ok(), "{}: finish() fails", what());
            }
        }
    }
}

/// Reads the document with a typed read for each number, the kinds taken in turn from
/// `turn`, with or without a peek first. With `avoid_errors`, a number takes the next kind
/// in turn that reads it; the walk ends at the first typed read that (rightly) fails.
fn typed_walk<S: Input>(
    mut reader: JsonReader<S>,
    spanned: &[(Token, Span)],
    name: &str,
    turn: usize,
    avoid_errors: bool,
) {
    let mut numbers = 0;
    for (token, span) in spanned {
        let Token::Number(number) = token else {
            let entry = reader.peek().expect("a document that read peeks again");
            let again = Token::read(&mut reader, entry).expect("a document that read reads again");
            assert_eq!(&again, token, "{name}: reading again gives other tokens");
            continue;
        };
        let at = turn + numbers;
        numbers += 1;
        let kind = (0..KINDS.len())
            .map(|k| KINDS[(at + k) % KINDS.len()])
            .find(|&kind| !avoid_errors || expected_for(number, kind).is_ok())
            .unwrap_or(KINDS[at % KINDS.len()]);
        if (at / KINDS.len() + at).is_multiple_of(2) {
            reader.peek().expect("a number that read peeks again");
        }
        let what = || format!("{name}: {kind:?} of {number:?} at {span:?}");
        if !check_typed(
            typed_read(&mut reader, kind),
            expected_for(number, kind),
            *span,
            &what,
        ) {
            return;
        }
    }
    assert!(
        reader.finish().is_ok(),
        "{name}: finish() fails after typed reads"
    );
}

// ----- NDJSON ----------------------------------------------------------------------------

/// What reading records gave: the tokens of each record (`None` for one not read in full)
/// and the error that stopped the reading.
type Records = (Vec<Option<Vec<Token>>>, Option<Error>);

/// Reads every record of `records`; with `turn`, record `i` is read in full, by its first
/// token only, skipped, or left unread, by turns.
fn read_records<S: Input>(
    mut records: NdjsonReader<S>,
    data: &[u8],
    turn: Option<usize>,
) -> Records {
    let mut out = Vec::new();
    loop {
        assert!(out.len() <= data.len(), "NDJSON: more records than bytes");
        let mut record = match records.next_record() {
            Ok(Some(record)) => record,
            Ok(None) => return (out, None),
            Err(err) => return (out, Some(err)),
        };
        assert_eq!(
            record.number(),
            out.len() as u64 + 1,
            "NDJSON: record numbers"
        );
        assert_eq!(
            record.line(),
            line_of(data, record.offset()),
            "NDJSON: record {} at byte {} names the wrong line",
            record.number(),
            record.offset()
        );
        let mode = turn.map_or(0, |turn| (turn + out.len()) % 4);
        let outcome = match mode {
            0 => Token::read_all(&mut record).map(Some),
            1 => record
                .peek()
                .and_then(|entry| Token::read(&mut record, entry))
                .map(|_| None),
            2 => record.skip().and_then(|()| {
                let entry = record.peek()?;
                assert_eq!(entry, Entry::Ended, "NDJSON: a skipped record goes on");
                Ok(None)
            }),
            _ => Ok(None),
        };
        match outcome {
            Ok(tokens) => out.push(tokens),
            Err(err) => return (out, Some(err)),
        }
    }
}

/// Reads root values one by one: the tokens of each complete value, and the error that
/// stopped the reading.
fn read_values<S: Input>(
    mut reader: JsonReader<S>,
    limit: usize,
) -> (Vec<Vec<Token>>, Option<Error>) {
    let mut values = Vec::new();
    loop {
        assert!(values.len() <= limit, "more root values than bytes");
        let outcome = match reader.peek() {
            Ok(Entry::Ended) => return (values, None),
            Ok(_) => read_value(&mut reader, JsonReader::depth),
            Err(err) => Err(err),
        };
        match outcome {
            Ok(tokens) => values.push(tokens),
            Err(err) => return (values, Some(err)),
        }
    }
}

/// 1-based line of byte `at` of `data`.
fn line_of(data: &[u8], at: usize) -> usize {
    1 + data[..at.min(data.len())]
        .iter()
        .filter(|&&byte| byte == b'\n')
        .count()
}

/// An NDJSON error names a line (in a note, `... (line 3)`), from 1 to the line of the
/// error itself.
fn check_noted_line(err: &Error, data: &[u8], what: &str) {
    let line = err.notes().iter().find_map(|note| {
        let rest = &note[note.find("(line ")? + "(line ".len()..];
        rest[..rest.find(')')?].parse::<usize>().ok()
    });
    let Some(line) = line else {
        panic!("{what}: the error names no line: {err}");
    };
    let limit = err
        .span()
        .map_or(usize::MAX, |span| line_of(data, span.start));
    assert!(
        (1..=limit).contains(&line),
        "{what}: the error names line {line}, the error is on line {limit}: {err}"
    );
}

/// [`NdjsonReader`] against a [`JsonReader`] with the same options (`multiple_values`),
/// which accepts any whitespace between records where NDJSON wants a line break, and line
/// breaks inside a record's value where NDJSON wants none; then
/// over `io::Read`, with records read by turns, against itself over the slice.
fn check_ndjson(data: &[u8], choices: Choices) {
    let (name, base) = &presets()[choices.ndjson];
    let options = JsonOptions {
        multiple_values: true,
        ..base.clone()
    };
    let what = format!("NDJSON ({name})");
    let (values, plain_error) = read_values(slice_reader(data, &options), data.len());
    let reader = NdjsonReader::new(SliceInput::new(data), options.clone());
    let (records, error) = read_records(reader, data, None);
    let records: Vec<Vec<Token>> = records.into_iter().flatten().collect();
    match (&error, &plain_error) {
        (None, None) => assert_eq!(records, values, "{what}: records and values differ"),
        (None, Some(err)) => panic!("{what}: NdjsonReader reads what JsonReader rejects: {err}"),
        (Some(err), plain_error) => {
            check_noted_line(err, data, &what);
            assert!(
                values.get(..records.len()) == Some(&records[..]),
                "{what}: the records before the error ({err}) differ from the values"
            );
            // What NDJSON's lines forbid and JSON allows: two records on one line, a
            // record's value over several lines (cut off at the first line feed in it), and
            // a block comment over several lines (left open at the end of its first line).
            let line_rule = err.code() == codes::TRAILING_TOKEN
                || (err.code() == codes::UNEXPECTED_EOF
                    && err
                        .span()
                        .is_some_and(|span| data.get(span.start) == Some(&b'\n')))
                || (err.code() == codes::UNCLOSED_COMMENT
                    && err.span().is_some_and(|span| {
                        span.end
                            .checked_sub(1)
                            .is_some_and(|last| data.get(last) == Some(&b'\n'))
                    }));
            // And a token that JsonReader reads over a line feed (a JSON5 string with an
            // escaped line break) is cut off at it: an error about the token as a whole
            // (a string where a `,` is due) has the same code and start, and describes
            // what the line holds of it.
            let token_cut = |plain: &Error| {
                plain.code() == err.code()
                    && plain.span().zip(err.span()).is_some_and(|(whole, cut)| {
                        let line_feed = data
                            .get(whole.range())
                            .and_then(|token| token.iter().position(|&b| b == b'\n'));
                        whole.start == cut.start
                            && line_feed.is_some_and(|at| cut.end <= whole.start + at + 1)
                    })
            };
            if !line_rule && !plain_error.as_ref().is_some_and(token_cut) {
                let Some(plain_error) = plain_error else {
                    panic!("{what}: NdjsonReader rejects what JsonReader reads: {err}");
                };
                assert_eq!(
                    (err.code(), err.span()),
                    (plain_error.code(), plain_error.span()),
                    "{what}: NdjsonReader and JsonReader fail differently: {err} / {plain_error}"
                );
            }
        }
    }

    check_lines(data, &options, &records, error.as_ref(), &what);
    check_skipped_lines(data, &options, choices, &what);

    let reader = NdjsonReader::new(io_input(data, choices), options);
    let (partial, partial_error) = read_records(reader, data, Some(choices.turn));
    let what = format!(
        "{what}: records read by turns over io::Read ({} bytes a read, a {}-byte window) and \
         in full over the slice",
        choices.chunk, choices.window
    );
    match (&partial_error, &error) {
        (None, None) => assert_eq!(partial.len(), records.len(), "{what}: record counts differ"),
        (Some(a), Some(b)) => {
            check_noted_line(a, data, &what);
            assert_eq!(
                (a.code(), a.span()),
                (b.code(), b.span()),
                "{what}: errors differ: {a} / {b}"
            );
            // A record left partly unread fails in the next `next_record`, after it counted.
            assert!(
                partial.len() == records.len() || partial.len() == records.len() + 1,
                "{what}: record counts differ"
            );
        }
        (a, b) => panic!("{what}: one fails, the other not: {a:?} / {b:?}"),
    };
    for (index, (partial, full)) in partial.iter().zip(&records).enumerate() {
        if let Some(partial) = partial {
            assert_eq!(partial, full, "{what}: record {} differs", index + 1);
        }
    }
}

/// The parallel ingestion's reading of each line alone (its work without the threads)
/// against [`NdjsonReader`] over the whole input (`records` read in full, then `error`):
/// the same records, or the same first error, its span moved from the line to the input.
fn check_lines(
    data: &[u8],
    options: &JsonOptions,
    records: &[Vec<Token>],
    error: Option<&Error>,
    what: &str,
) {
    let what = format!("{what}: each line read alone");
    let parallel = ParallelOptions {
        json: options.clone(),
        ..ParallelOptions::default()
    };
    let first = RecordInfo { line: 1, offset: 0 };
    let mut lines = Vec::new();
    let (_, errors) = read_lines(data, first, &parallel, |reader, _| {
        // One value, as a record holds; what follows it on the line is `finish`'s.
        lines.push(read_value(reader, JsonReader::depth)?);
        Ok(())
    });
    let line_error = errors.first().map(|bad| {
        let offset = usize::try_from(bad.record.offset).unwrap_or(usize::MAX);
        let span = bad
            .error
            .span()
            .map(|span| Span::new(span.start + offset, span.end + offset));
        (bad.error.code(), span)
    });
    assert_eq!(
        line_error,
        error.map(|err| (err.code(), err.span())),
        "{what}: errors differ, input {:?}",
        String::from_utf8_lossy(data)
    );
    // A line whose value read but whose end failed (a second value on it) has its tokens
    // here, as `NdjsonReader` has the record, whose next one fails.
    assert_eq!(lines, records, "{what}: records differ");
}

/// A bad line: its number, and its error's code, absolute span and data path.
type BadLine = (usize, ErrorCode, Option<Span>, Option<Path>);

/// What reading every line gave: the good records (line, tokens), and the bad lines.
type Lines = (Vec<(usize, Vec<Token>)>, Vec<BadLine>);

/// Reads every record of `records` as `skip_bad_record`'s documentation does: each record
/// whole, then [`Record::finish`](crate::Record::finish) before it counts as good, and on
/// every error `skip_bad_record` to go on with the next line.
fn read_skipping_bad_lines<S: Input>(
    mut records: NdjsonReader<S>,
    data: &[u8],
    what: &str,
) -> Lines {
    let (mut good, mut bad) = (Vec::new(), Vec::new());
    // Each turn takes at least one byte (a record, or a bad line and its line feed): more
    // turns than bytes is a hang.
    for _ in 0..=data.len() {
        let error = match records.next_record() {
            Ok(None) => {
                assert_eq!(
                    records.records_read(),
                    (good.len() + bad.len()) as u64,
                    "{what}: records_read() counts other than the good records and bad lines"
                );
                return (good, bad);
            }
            Ok(Some(mut record)) => {
                let line = record.line();
                let read = Token::read_all(&mut record);
                match read.and_then(|tokens| record.finish().map(|()| tokens)) {
                    Ok(tokens) => {
                        good.push((line, tokens));
                        continue;
                    }
                    Err(err) => err,
                }
            }
            Err(err) => err,
        };
        check_noted_line(&error, data, what);
        // The input never fails to be read, so skipping cannot fail; and every error of a
        // record read whole is one in the input, which leaves a line to skip.
        let line = match records.skip_bad_record() {
            Ok(Some(line)) => line,
            Ok(None) => panic!("{what}: after {error}, skip_bad_record() skips nothing"),
            Err(err) => panic!("{what}: after {error}, skip_bad_record() fails: {err}"),
        };
        bad.push((line, error.code(), error.span(), error.path().cloned()));
    }
    panic!("{what}: more records and bad lines than bytes");
}

/// The parallel ingestion with `skip_errors` (each line read alone, without the threads)
/// against [`NdjsonReader`] going on after each bad line with `skip_bad_record` (each
/// record read whole and [`finish`](crate::Record::finish)ed), over the slice and over
/// `io::Read` (the chosen reads and window): on every line, the same good records (line and
/// tokens) and the same bad lines (line, error code, span made absolute, data path).
///
/// No difference is allowed, none being by design: over `io::Read`, a record whose value
/// goes on past its line feed may fail at an earlier token than over the slice (the cut is
/// found as soon as the window must move), but with the same error, and a record read whole
/// is bad either way; the line dropped after it is the same.
fn check_skipped_lines(data: &[u8], options: &JsonOptions, choices: Choices, what: &str) {
    let parallel = ParallelOptions {
        json: options.clone(),
        skip_errors: true,
        ..ParallelOptions::default()
    };
    let first = RecordInfo { line: 1, offset: 0 };
    let mut read = Vec::new();
    let (count, errors) = read_lines(data, first, &parallel, |reader, info| {
        let tokens = read_value(reader, JsonReader::depth)?;
        read.push((usize::try_from(info.line).unwrap_or(usize::MAX), tokens));
        Ok(())
    });
    let bad: Vec<BadLine> = errors
        .iter()
        .map(|bad| {
            let offset = usize::try_from(bad.record.offset).unwrap_or(usize::MAX);
            let span = bad
                .error
                .span()
                .map(|span| Span::new(span.start + offset, span.end + offset));
            let line = usize::try_from(bad.record.line).unwrap_or(usize::MAX);
            (line, bad.error.code(), span, bad.error.path().cloned())
        })
        .collect();
    // A line whose value read but whose end failed (a second value on it) is bad.
    read.retain(|(line, _)| !bad.iter().any(|bad| bad.0 == *line));
    assert_eq!(
        count,
        read.len() as u64,
        "{what}: the parallel ingestion counts other records"
    );
    let alone = (read, bad);

    let reader = NdjsonReader::new(SliceInput::new(data), options.clone());
    let slice_what = format!("{what}: skip_bad_record over the slice");
    let slice = read_skipping_bad_lines(reader, data, &slice_what);
    assert_eq!(
        slice,
        alone,
        "{slice_what} and each line read alone (parallel, skip_errors) differ, input {:?}",
        String::from_utf8_lossy(data)
    );

    let reader = NdjsonReader::new(io_input(data, choices), options.clone());
    let stream_what = format!(
        "{what}: skip_bad_record over io::Read ({} bytes a read, a {}-byte window)",
        choices.chunk, choices.window
    );
    let stream = read_skipping_bad_lines(reader, data, &stream_what);
    assert_eq!(
        stream,
        slice,
        "{stream_what} and over the slice differ, input {:?}",
        String::from_utf8_lossy(data)
    );
}

#[cfg(test)]
mod tests {
    use sluice_core::{NumberHint, OwnedNumber, Token};

    use super::round_trip_difference;

    fn text(text: &str, hint: NumberHint) -> Token {
        Token::Number(OwnedNumber::Text(text.into(), hint))
    }

    #[test]
    fn the_round_trip_check_holds_number_text_to_its_characters() {
        // Each pair has the same value, so a comparison by value passes it; the writer
        // writes number text as it is, so any change of the text is a fault.
        for (written, back) in [
            (
                text("1.0", NumberHint::Float),
                text("1", NumberHint::Integer),
            ),
            (
                text("-0", NumberHint::NegInteger),
                text("0", NumberHint::Integer),
            ),
            (
                text("0.10000000000000001", NumberHint::Float),
                text("0.1", NumberHint::Float),
            ),
            (
                text("1e2", NumberHint::Float),
                text("100.0", NumberHint::Float),
            ),
        ] {
            assert!(
                round_trip_difference(std::slice::from_ref(&written), std::slice::from_ref(&back))
                    .is_some(),
                "{written:?} read back as {back:?}"
            );
        }
        let same = [text("1.50", NumberHint::Float)];
        assert_eq!(round_trip_difference(&same, &same), None);
    }

    #[test]
    fn the_round_trip_check_holds_a_typed_number_to_its_value() {
        let hex = [Token::Number(OwnedNumber::U64(0xdecaf))];
        assert_eq!(
            round_trip_difference(&hex, &[text("912559", NumberHint::Integer)]),
            None
        );
        assert!(round_trip_difference(&hex, &[text("912558", NumberHint::Integer)]).is_some());
        // Any NaN is spelled `NaN`: the sign is not kept.
        let nan = [Token::Number(OwnedNumber::F64(-f64::NAN))];
        assert_eq!(
            round_trip_difference(&nan, &[Token::Number(OwnedNumber::F64(f64::NAN))]),
            None
        );
        let infinity = [Token::Number(OwnedNumber::F64(f64::INFINITY))];
        assert!(
            round_trip_difference(&infinity, &[Token::Number(OwnedNumber::F64(f64::MAX))])
                .is_some()
        );
    }

    #[test]
    fn the_round_trip_check_holds_strings_and_keys_exactly() {
        let written = [
            Token::MapRoot(None),
            Token::Name("k".into()),
            Token::String("é".into()),
            Token::MapEnd,
        ];
        let mut back = written.to_vec();
        back[2] = Token::String("e".into());
        assert!(round_trip_difference(&written, &back).is_some());
        let mut back = written.to_vec();
        back[1] = Token::String("k".into());
        assert!(round_trip_difference(&written, &back).is_some());
        assert!(round_trip_difference(&written, &written[..3]).is_some());
        assert_eq!(round_trip_difference(&written, &written), None);
    }
}
