//! Duplicate-key detection against a model, on seeded generated documents.
//!
//! The generator writes documents of nested objects and arrays, and the model beside it: the
//! tokens the document holds (keys decoded) and, in document order, the first key that
//! repeats a key of its own object, by the span of that second occurrence. Objects have from
//! none to a few thousand keys, so that every regime of the reader's key tracker is crossed:
//! small objects, keys past its filter, the hash index of large objects, keys held by
//! offset in an `io::Read` window that moves. Keys come from a small set so that duplicates
//! are common and near-duplicates more so (the same length, the same first and last 8 bytes,
//! a difference in the last byte only, lengths around 8, 16 and 32 bytes, the empty key,
//! multi-byte characters), each spelled in one of several ways (escapes of every kind, JSON5
//! single quotes and identifiers with `\u` escapes, surrogate pairs); the same key in a
//! sibling object, a parent or a child is no duplicate.
//!
//! Each document is read with `DuplicateKeys::Error` token by token, by a `skip()` of the
//! whole value, and with reads and skips mixed, over a slice and through `io::Read` in small
//! reads and windows; every path must give the model's tokens or fail with
//! `json/DuplicateKey` at the model's span and data path, and that error must be final.
//! With `DuplicateKeys::LastWins` every path must give the model's tokens. The document cut
//! short must fail alike over a slice and through `io::Read` (the error's path names the
//! keys the tracker holds). Records of NDJSON (through `NdjsonReader`, read whole, skipped
//! or left for the next record to finish, and through the parallel ingestion), and root
//! values of one stream, must each be judged alone: no key carries over to the next.
//! Hand-made documents add depth (a key at each of 400 levels) and a large object inside a
//! large object.

mod common;

use std::collections::HashSet;
use std::fmt::Write as _;

use common::{Rng, Trickle, read_document};
use sluice_core::{
    Entry, Error, NumberHint, OwnedNumber, PathSegment, Reader, Result, Span, Token,
};
use sluice_json::parallel::{ParallelOptions, ingest_blocks};
use sluice_json::{
    DuplicateKeys, Input, IoInput, JsonOptions, JsonReader, NdjsonReader, SliceInput, codes,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Json,
    Json5,
}

impl Dialect {
    fn options(self, duplicate_keys: DuplicateKeys) -> JsonOptions {
        let base = match self {
            Dialect::Json => JsonOptions::strict(),
            Dialect::Json5 => JsonOptions::json5(),
        };
        JsonOptions {
            duplicate_keys,
            ..base
        }
    }
}

/// Keys drawn with repetition, so that objects of a few keys often repeat one: short keys,
/// keys that share their length and first 8 bytes, that differ in their last byte only
/// (`abcdefgé`, `abcdefgè`), that share their first and last 8 bytes (and so the tracker's
/// fingerprint), lengths on both sides of 8, 16 and 32 bytes, multi-byte and astral
/// characters, zero bytes, and characters that must be escaped.
fn small_pool() -> Vec<String> {
    let mut pool: Vec<String> = [
        "",
        "a",
        "b",
        "ab",
        "ba",
        "aab",
        "aba",
        "é",
        "è",
        "中",
        "𐐀",
        "😀",
        "a😀",
        "$_",
        "_1",
        "1a",
        "a b",
        "\"",
        "\\",
        "/",
        "a/b",
        "\t",
        "\n",
        "'",
        "k",
        "abcdefgé",
        "abcdefgè",
        "abcdefgh",
        "abcdefgi",
        "abcdefg",
        "abcdefghX",
        "abcdefghY",
        "\u{0}",
        "\u{0}\u{0}",
        "\u{2028}",
        "a\u{2029}",
    ]
    .iter()
    .map(|&k| k.to_owned())
    .collect();
    let alphabet = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ";
    for len in [7, 8, 9, 15, 16, 17, 31, 32, 33] {
        for last in ['x', 'y'] {
            let mut key = alphabet[..len - 1].to_owned();
            key.push(last);
            pool.push(key);
        }
    }
    for middle in ["X", "Y", "XY", "YX", "中", "é"] {
        pool.push(format!("abcdefgh{middle}ijklmnop"));
    }
    pool
}

/// The `i`-th key of family `family`: keys of one family are all different, and alike.
fn family_key(family: usize, i: usize) -> String {
    match family {
        0 => format!("k{i}"),
        // The same first 8 bytes.
        1 => format!("abcdefgh{i}"),
        // The same first and last 8 bytes: the same fingerprint at each length.
        2 => format!("abcdefgh{i}ijklmnop"),
        // Different at the end only.
        3 => format!("{i:x>20}"),
        4 => format!("é{i}中"),
        _ => format!("{i:03}"),
    }
}

const FAMILIES: usize = 6;

/// Whether `c` may stand in a JSON5 identifier key (first: not a digit), among the
/// characters the pools use.
fn identifier_char(c: char, first: bool) -> bool {
    c.is_ascii_alphabetic()
        || c == '_'
        || c == '$'
        || matches!(c, 'é' | 'è' | '中' | '𐐀')
        || (!first && c.is_ascii_digit())
}

/// `c` as `\u` escapes (a surrogate pair beyond the BMP), in either case of hex digits.
fn push_u_escape(out: &mut String, c: char, rng: &mut Rng) {
    let mut units = [0u16; 2];
    let upper = rng.chance(1, 2);
    for unit in c.encode_utf16(&mut units) {
        if upper {
            write!(out, "\\u{unit:04X}").unwrap();
        } else {
            write!(out, "\\u{unit:04x}").unwrap();
        }
    }
}

/// `c` escaped some way the dialect allows inside a quoted string.
fn push_escape(out: &mut String, c: char, dialect: Dialect, rng: &mut Rng) {
    let mut forms: Vec<String> = vec![String::new()];
    let short = match c {
        '"' => Some("\\\""),
        '\\' => Some("\\\\"),
        '/' => Some("\\/"),
        '\n' => Some("\\n"),
        '\t' => Some("\\t"),
        '\'' if dialect == Dialect::Json5 => Some("\\'"),
        _ => None,
    };
    if let Some(short) = short {
        forms.push(short.to_owned());
    }
    if dialect == Dialect::Json5 {
        if u32::from(c) <= 0xff {
            forms.push(format!("\\x{:02x}", u32::from(c)));
        }
        // Any character but those with a meaning of their own escapes to itself.
        if !"bfnrtvux0123456789\n\r\u{2028}\u{2029}".contains(c) {
            forms.push(format!("\\{c}"));
        }
    }
    let at = rng.below(forms.len());
    if at == 0 {
        push_u_escape(out, c, rng);
    } else {
        out.push_str(&forms[at]);
    }
}

/// Where a quoted spelling may break its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lines {
    /// Anywhere JSON5 allows (an escaped line feed, carriage return or both).
    Many,
    /// Only with the line terminators of ECMAScript that end no NDJSON record (U+2028,
    /// U+2029).
    One,
}

/// A quoted spelling of `text`: characters that must be escaped are, and each of the others
/// is escaped `escape_rate` times in 4. In JSON5, escaped line breaks (which stand for
/// nothing) come in too then.
fn quoted(
    text: &str,
    quote: char,
    dialect: Dialect,
    escape_rate: usize,
    lines: Lines,
    rng: &mut Rng,
) -> String {
    let mut out = String::new();
    out.push(quote);
    for c in text.chars() {
        if dialect == Dialect::Json5 && escape_rate > 0 && rng.chance(1, 8) {
            let breaks: &[&str] = match lines {
                Lines::Many => &["\n", "\r", "\r\n", "\u{2028}", "\u{2029}"],
                Lines::One => &["\u{2028}", "\u{2029}"],
            };
            out.push('\\');
            let line_break: &&str = rng.pick(breaks);
            out.push_str(line_break);
        }
        let must = c == quote || c == '\\' || u32::from(c) < 0x20;
        if must || rng.below(4) < escape_rate {
            push_escape(&mut out, c, dialect, rng);
        } else {
            out.push(c);
        }
    }
    out.push(quote);
    out
}

/// One spelling of `key` among those the dialect has.
fn spell_key(key: &str, dialect: Dialect, lines: Lines, rng: &mut Rng) -> String {
    let escape_rate = *rng.pick(&[0, 0, 0, 1, 2, 4]);
    if dialect == Dialect::Json {
        return quoted(key, '"', dialect, escape_rate, lines, rng);
    }
    let identifier = key
        .chars()
        .enumerate()
        .all(|(i, c)| identifier_char(c, i == 0))
        && !key.is_empty();
    match rng.below(3) {
        0 if identifier => {
            let mut out = String::new();
            for c in key.chars() {
                if rng.below(4) < escape_rate {
                    push_u_escape(&mut out, c, rng);
                } else {
                    out.push(c);
                }
            }
            out
        }
        1 => quoted(key, '\'', dialect, escape_rate, lines, rng),
        _ => quoted(key, '"', dialect, escape_rate, lines, rng),
    }
}

/// A generated document and what the model says of it.
struct Doc {
    dialect: Dialect,
    lines: Lines,
    text: String,
    /// The document's tokens, keys decoded.
    tokens: Vec<Token>,
    /// The first key, in document order, that its object already holds: its span.
    duplicate: Option<Span>,
    /// The data path of that key (the key itself last).
    duplicate_path: Vec<PathSegment>,
    /// The path to the value being written.
    path: Vec<PathSegment>,
    /// How many keys that object held before the repeat (64 or more: the tracker had
    /// built its hash index).
    keys_before_duplicate: usize,
    /// The size of the largest object.
    largest: usize,
    /// The decoded keys of each open object.
    open: Vec<HashSet<String>>,
    /// Tokens the generator may still write (bounds the document's size).
    budget: usize,
    /// Of every 1,000 objects, how many draw their keys with repetition.
    free_objects: usize,
    /// Of every 1,000 objects of distinct keys, how many repeat one of them once.
    planted: usize,
    /// The same for objects of more than 64 keys.
    planted_large: usize,
    pool: Vec<String>,
}

impl Doc {
    /// A document of about `budget` tokens, on one line or not. A document of many lines
    /// may open with a byte order mark (which spans count).
    fn generate(rng: &mut Rng, dialect: Dialect, budget: usize, lines: Lines) -> Doc {
        let mut doc = Doc {
            dialect,
            lines,
            text: String::new(),
            tokens: Vec::new(),
            duplicate: None,
            duplicate_path: Vec::new(),
            path: Vec::new(),
            keys_before_duplicate: 0,
            largest: 0,
            open: Vec::new(),
            budget,
            free_objects: 0,
            planted: 0,
            planted_large: 0,
            pool: small_pool(),
        };
        if budget >= 3_000 {
            // Few repeats in small objects, so that the large ones are read far.
            doc.free_objects = *rng.pick(&[0, 0, 10]);
            doc.planted = *rng.pick(&[0, 20]);
            doc.planted_large = *rng.pick(&[0, 700, 700]);
        } else {
            doc.free_objects = *rng.pick(&[0, 0, 0, 30, 100, 300]);
            doc.planted = *rng.pick(&[0, 0, 50, 100, 200, 500]);
            doc.planted_large = (doc.planted * 4).min(1000);
        }
        if lines == Lines::Many && rng.chance(1, 10) {
            doc.text.push('\u{feff}');
        }
        doc.space(rng);
        if rng.chance(1, 4) {
            doc.array(rng, 0);
        } else {
            doc.object(rng, 0);
        }
        doc.space(rng);
        doc
    }

    /// Whitespace, and in JSON5 sometimes a comment or JSON5's own whitespace.
    fn space(&mut self, rng: &mut Rng) {
        let json5 = self.dialect == Dialect::Json5;
        match rng.below(10) {
            0 => self.text.push(' '),
            1 if json5 => self.text.push_str("/*c*/"),
            2 if json5 && self.lines == Lines::Many => self.text.push_str("// c\n"),
            3 if json5 => self
                .text
                .push(*rng.pick(&['\u{a0}', '\u{feff}', '\u{2028}'])),
            _ => {}
        }
    }

    fn value(&mut self, rng: &mut Rng, depth: usize) {
        self.budget = self.budget.saturating_sub(1);
        let containers = depth < 6 && self.budget > 0;
        match rng.below(if containers { 10 } else { 6 }) {
            0 => {
                self.text.push_str("null");
                self.tokens.push(Token::Null);
            }
            1 => {
                self.text.push_str("true");
                self.tokens.push(Token::Bool(true));
            }
            2 | 3 => {
                let n = rng.below(1000).to_string();
                self.text.push_str(&n);
                self.tokens.push(Token::Number(OwnedNumber::Text(
                    n.into(),
                    NumberHint::Integer,
                )));
            }
            4 | 5 => {
                // A string that may read like a key: it is none.
                let text = rng.pick(&self.pool).clone();
                let spelled = quoted(&text, '"', self.dialect, 0, self.lines, rng);
                self.text.push_str(&spelled);
                self.tokens.push(Token::String(text));
            }
            6 | 7 => self.object(rng, depth + 1),
            _ => self.array(rng, depth + 1),
        }
    }

    fn array(&mut self, rng: &mut Rng, depth: usize) {
        self.text.push('[');
        self.tokens.push(Token::ArrayRoot(None));
        let len = rng.below(5).min(self.budget);
        for i in 0..len {
            if i > 0 {
                self.text.push(',');
            }
            self.space(rng);
            self.path.push(PathSegment::Index(i));
            self.value(rng, depth);
            self.path.pop();
            self.space(rng);
        }
        self.close(rng, len, ']');
        self.tokens.push(Token::ArrayEnd);
    }

    /// `close` after `len` items, with a trailing comma sometimes where allowed.
    fn close(&mut self, rng: &mut Rng, len: usize, close: char) {
        if len > 0 && self.dialect == Dialect::Json5 && rng.chance(1, 4) {
            self.text.push(',');
        }
        self.text.push(close);
    }

    /// How many keys a new object gets: every regime of the tracker, and most often a few.
    fn object_size(&mut self, rng: &mut Rng, depth: usize) -> usize {
        if depth <= 1 && self.budget >= 3_000 && rng.chance(1, 2) {
            return 500 + rng.below(2500);
        }
        let size = match rng.below(40) {
            0..=3 => 0,
            4..=25 => 1 + rng.below(8),
            26..=31 => 9 + rng.below(52),
            // Around the size past which the tracker builds a hash index (64).
            32..=35 => 60 + rng.below(10),
            36..=38 => 70 + rng.below(400),
            _ => 500 + rng.below(2500),
        };
        size.min(self.budget)
    }

    /// A key that the innermost object does not hold yet.
    fn new_key(&mut self, rng: &mut Rng, size: usize) -> String {
        let known = self.open.last().expect("an open object");
        for _ in 0..8 {
            let key = if size < 100 && rng.chance(1, 2) {
                rng.pick(&self.pool).clone()
            } else {
                family_key(rng.below(FAMILIES), rng.below(100_000))
            };
            if !known.contains(&key) {
                return key;
            }
        }
        let family = rng.below(FAMILIES);
        (100_000..)
            .map(|i| family_key(family, i))
            .find(|key| !known.contains(key))
            .expect("a key not used yet")
    }

    fn object(&mut self, rng: &mut Rng, depth: usize) {
        self.text.push('{');
        self.tokens.push(Token::MapRoot(None));
        self.open.push(HashSet::new());
        let size = self.object_size(rng, depth);
        self.largest = self.largest.max(size);
        let free = rng.chance(self.free_objects, 1000);
        let planted_rate = if size > 64 {
            self.planted_large
        } else {
            self.planted
        };
        let planted =
            (!free && size > 1 && rng.chance(planted_rate, 1000)).then(|| 1 + rng.below(size - 1));
        let mut used: Vec<String> = Vec::new();
        for i in 0..size {
            let key = if planted == Some(i) {
                rng.pick(&used).clone()
            } else if free {
                rng.pick(&self.pool).clone()
            } else {
                self.new_key(rng, size)
            };
            if i > 0 {
                self.text.push(',');
            }
            self.space(rng);
            let start = self.text.len();
            let spelled = spell_key(&key, self.dialect, self.lines, rng);
            self.text.push_str(&spelled);
            let span = Span::new(start, self.text.len());
            let new = self
                .open
                .last_mut()
                .expect("this object")
                .insert(key.clone());
            if !new && self.duplicate.is_none() {
                self.duplicate = Some(span);
                self.duplicate_path = self.path.clone();
                self.duplicate_path.push(PathSegment::Key(key.clone()));
                self.keys_before_duplicate = used.len();
            }
            if new {
                used.push(key.clone());
            }
            self.tokens.push(Token::Name(key.clone()));
            self.space(rng);
            self.text.push(':');
            self.space(rng);
            // Values of large objects are mostly scalars, to bound the document.
            let value_depth = if size > 64 && !rng.chance(1, 16) {
                6
            } else {
                depth
            };
            self.path.push(PathSegment::Key(key));
            self.value(rng, value_depth);
            self.path.pop();
            self.space(rng);
        }
        self.close(rng, size, '}');
        self.tokens.push(Token::MapEnd);
        self.open.pop();
    }

    /// What reading the whole document must give with `DuplicateKeys::Error`, spans
    /// moved on by `offset`.
    fn expected(&self, offset: usize) -> Expected {
        match self.duplicate {
            Some(span) => Err(Failure {
                code: codes::DUPLICATE_KEY.to_string(),
                span: Some(Span::new(span.start + offset, span.end + offset)),
                path: Some(self.duplicate_path.clone()),
            }),
            None => Ok(self.tokens.clone()),
        }
    }
}

/// An error as the test compares it.
#[derive(Debug, Clone, PartialEq)]
struct Failure {
    code: String,
    span: Option<Span>,
    path: Option<Vec<PathSegment>>,
}

impl From<&Error> for Failure {
    fn from(error: &Error) -> Failure {
        Failure {
            code: error.code().to_string(),
            span: error.span(),
            path: error.path().map(|path| path.segments().to_vec()),
        }
    }
}

type Expected = std::result::Result<Vec<Token>, Failure>;

/// The outcome of a read, as comparable data.
fn outcome(result: Result<Vec<Token>>) -> Expected {
    result.map_err(|e| Failure::from(&e))
}

/// The outcome of a read whose tokens are not compared (some were skipped).
fn verdict<T>(result: Result<T>) -> std::result::Result<(), Failure> {
    result.map(drop).map_err(|e| Failure::from(&e))
}

/// Reads the document token by token, and when that fails, checks that the error is
/// final: a `peek`, a `skip` and `finish()` report it again.
fn read_and_stop<S: Input>(reader: &mut JsonReader<S>) -> Expected {
    let read = outcome(read_document(reader));
    if let Err(failure) = &read {
        for again in [reader.peek().map(drop), reader.skip(), reader.finish()] {
            assert_eq!(
                verdict(again).err().as_ref(),
                Some(failure),
                "the error is final"
            );
        }
    }
    read
}

/// Reads the whole value with `skip()`, then `finish()`.
fn skip_document<S: Input>(reader: &mut JsonReader<S>) -> Result<()> {
    reader.skip()?;
    reader.finish()
}

/// Reads token by token, skipping a value (or a key) instead about one time in three.
fn read_mixed<S: Input>(reader: &mut JsonReader<S>, rng: &mut Rng) -> Result<()> {
    loop {
        let entry = reader.peek()?;
        if entry == Entry::Ended {
            return reader.finish();
        }
        if !entry.is_container_end() && rng.chance(1, 3) {
            reader.skip()?;
        } else {
            Token::read(reader, entry)?;
        }
    }
}

/// `bytes` through `io::Read`, `chunk` bytes a read, through a window of `window` bytes.
fn windowed(bytes: &[u8], chunk: usize, window: usize) -> IoInput<Trickle<'_>> {
    IoInput::with_window(Trickle { bytes, chunk }, window)
}

/// Every path of one document, with both settings.
fn check_document(doc: &Doc, rng: &mut Rng, label: &str) {
    let bytes = doc.text.as_bytes();
    let error = doc.dialect.options(DuplicateKeys::Error);
    let last_wins = doc.dialect.options(DuplicateKeys::LastWins);
    let expected = doc.expected(0);
    let expected_verdict = expected.as_ref().map(drop).map_err(Clone::clone);
    let small_window = *rng.pick(&[1, 2, 3, 5, 8, 13]);
    let (chunk, window) = (1 + rng.below(40), 1 + rng.below(200));
    let mixed_seed = rng.next();

    let slice = || JsonReader::from_slice(bytes);
    let tiny = || JsonReader::new(windowed(bytes, 1, small_window), error.clone());
    let some = || JsonReader::new(windowed(bytes, chunk, window), error.clone());

    let read = read_and_stop(&mut slice().with_options(error.clone()));
    assert_eq!(read, expected, "{label}: slice, token by token");
    let read = read_and_stop(&mut tiny());
    assert_eq!(
        read, expected,
        "{label}: io::Read, 1 byte a read, window {small_window}"
    );
    let read = outcome(read_document(&mut some()));
    assert_eq!(
        read, expected,
        "{label}: io::Read, {chunk} bytes a read, window {window}"
    );

    let skipped = verdict(skip_document(&mut slice().with_options(error.clone())));
    assert_eq!(skipped, expected_verdict, "{label}: slice, skip()");
    let skipped = verdict(skip_document(&mut tiny()));
    assert_eq!(
        skipped, expected_verdict,
        "{label}: io::Read, skip(), window {small_window}"
    );
    let mixed = verdict(read_mixed(
        &mut slice().with_options(error.clone()),
        &mut Rng::new(mixed_seed),
    ));
    assert_eq!(mixed, expected_verdict, "{label}: slice, reads and skips");
    let mixed = verdict(read_mixed(&mut some(), &mut Rng::new(mixed_seed)));
    assert_eq!(
        mixed, expected_verdict,
        "{label}: io::Read, reads and skips, {chunk} bytes a read, window {window}"
    );

    let all = Ok(doc.tokens.clone());
    let read = outcome(read_document(&mut slice().with_options(last_wins.clone())));
    assert_eq!(read, all, "{label}: LastWins, slice");
    let read = outcome(read_document(&mut JsonReader::new(
        windowed(bytes, 1, small_window),
        last_wins.clone(),
    )));
    assert_eq!(
        read, all,
        "{label}: LastWins, io::Read, window {small_window}"
    );
    let skipped = verdict(skip_document(&mut JsonReader::new(
        windowed(bytes, chunk, window),
        last_wins,
    )));
    assert_eq!(skipped, Ok(()), "{label}: LastWins, io::Read, skip()");

    check_cut(doc, rng.below(bytes.len() + 1), small_window, label);
}

/// The document cut after `cut` bytes fails the same way over a slice and through
/// `io::Read` (its error's path names the keys of the open objects, which the tracker holds
/// too), and with both settings unless a duplicate comes first.
fn check_cut(doc: &Doc, cut: usize, window: usize, label: &str) {
    let bytes = &doc.text.as_bytes()[..cut];
    let read = |duplicate_keys| {
        let options = doc.dialect.options(duplicate_keys);
        let slice = read_and_stop(&mut JsonReader::from_slice(bytes).with_options(options.clone()));
        let io = read_and_stop(&mut JsonReader::new(windowed(bytes, 1, window), options));
        assert_eq!(
            slice, io,
            "{label}: cut at {cut}, {duplicate_keys:?}, slice and io::Read (window {window})"
        );
        slice
    };
    let error = read(DuplicateKeys::Error);
    let last_wins = read(DuplicateKeys::LastWins);
    if !matches!(&error, Err(failure) if failure.code == codes::DUPLICATE_KEY.to_string()) {
        assert_eq!(
            error, last_wins,
            "{label}: cut at {cut}, Error and LastWins"
        );
    }
}

/// Budgets: most documents small, some with an object of thousands of keys.
fn budget(rng: &mut Rng) -> usize {
    *rng.pick(&[20, 60, 200, 600, 3_000, 6_000])
}

/// What a run of generated documents went through, to hold the generator to its purpose.
#[derive(Debug, Default)]
struct Coverage {
    documents: usize,
    /// Documents with a duplicate in an object of fewer than 64 keys before it.
    in_small_objects: usize,
    /// Documents with a duplicate in an object of 64 keys or more before it.
    in_indexed_objects: usize,
    /// Documents without a duplicate that hold an object of 500 keys or more.
    large_and_clean: usize,
}

/// Generates and checks `cases` documents of `dialect` from seeds `first_seed..`.
fn check_generated(dialect: Dialect, first_seed: u64, cases: u64) -> Coverage {
    let mut coverage = Coverage::default();
    for seed in first_seed..first_seed + cases {
        let mut rng = Rng::new(seed);
        let budget = budget(&mut rng);
        let doc = Doc::generate(&mut rng, dialect, budget, Lines::Many);
        coverage.count(&doc);
        check_document(&doc, &mut rng, &format!("{dialect:?} seed {seed}"));
    }
    coverage
}

impl Coverage {
    fn count(&mut self, doc: &Doc) {
        self.documents += 1;
        match doc.duplicate {
            Some(_) if doc.keys_before_duplicate >= 64 => self.in_indexed_objects += 1,
            Some(_) => self.in_small_objects += 1,
            None if doc.largest >= 500 => self.large_and_clean += 1,
            None => {}
        }
    }

    /// The run's documents crossed every case often enough to mean something.
    fn assert_enough(&self) {
        let Coverage {
            documents,
            in_small_objects,
            in_indexed_objects,
            large_and_clean,
        } = *self;
        assert!(
            in_small_objects >= documents / 5
                && in_indexed_objects >= documents / 50
                && large_and_clean >= documents / 50
                && in_small_objects + in_indexed_objects <= documents * 4 / 5,
            "{self:?}"
        );
    }
}

/// Documents per dialect.
const CASES: u64 = 100;

#[test]
fn duplicate_keys_are_found_where_the_model_finds_them_in_json() {
    check_generated(Dialect::Json, 0, CASES).assert_enough();
}

#[test]
fn duplicate_keys_are_found_where_the_model_finds_them_in_json5() {
    check_generated(Dialect::Json5, 1_000_000, CASES).assert_enough();
}

/// How [`read_records`] reads each record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RecordRead {
    /// Token by token, then `finish()`.
    Whole,
    /// With one `skip()`, then `finish()`.
    Skipped,
    /// Its first token only: `next_record` reads (and checks) the rest.
    FirstToken,
}

/// Every record of `records`, read as `how` says, each bad record's line dropped: each
/// record's tokens (none when skipped) or error. With [`RecordRead::FirstToken`], the
/// errors only.
fn read_records<S: Input>(records: &mut NdjsonReader<S>, how: RecordRead) -> Vec<Expected> {
    let mut outcomes = Vec::new();
    loop {
        let error = match records.next_record() {
            Ok(None) => break,
            Ok(Some(mut record)) => {
                let read = match how {
                    RecordRead::Whole => Token::read_all(&mut record),
                    RecordRead::Skipped => record.skip().map(|()| Vec::new()),
                    RecordRead::FirstToken => {
                        match record
                            .peek()
                            .and_then(|entry| Token::read(&mut record, entry))
                        {
                            Ok(_) => continue,
                            Err(error) => Err(error),
                        }
                    }
                };
                match read.and_then(|tokens| record.finish().map(|()| tokens)) {
                    Ok(tokens) => {
                        outcomes.push(Ok(tokens));
                        continue;
                    }
                    Err(error) => error,
                }
            }
            Err(error) => error,
        };
        // Records carry a note naming them; the test compares code, span and path.
        outcomes.push(Err(Failure::from(&error)));
        records.skip_bad_record().expect("no I/O error");
    }
    outcomes
}

/// Records of generated documents, one a line; the model's outcome of each (spans in the
/// whole input).
fn ndjson_stream(rng: &mut Rng, dialect: Dialect, count: usize) -> (String, Vec<Expected>) {
    let mut text = String::new();
    let mut expected = Vec::new();
    for _ in 0..count {
        let budget = *rng.pick(&[5, 20, 80, 300]);
        let doc = Doc::generate(rng, dialect, budget, Lines::One);
        expected.push(doc.expected(text.len()));
        text.push_str(&doc.text);
        text.push('\n');
    }
    (text, expected)
}

#[test]
fn each_ndjson_record_is_checked_for_duplicates_on_its_own() {
    for seed in 0..80 {
        let mut rng = Rng::new(2_000_000 + seed);
        let dialect = if seed % 2 == 0 {
            Dialect::Json
        } else {
            Dialect::Json5
        };
        let count = 1 + rng.below(30);
        let (text, expected) = ndjson_stream(&mut rng, dialect, count);
        let bytes = text.as_bytes();
        let label = format!("NDJSON seed {seed}");
        let options = dialect.options(DuplicateKeys::Error);
        let errors: Vec<Expected> = expected.iter().filter(|e| e.is_err()).cloned().collect();
        let verdicts: Vec<Expected> = expected
            .iter()
            .map(|e| e.clone().map(|_| Vec::new()))
            .collect();
        let window = 1 + rng.below(16);
        let slice = || NdjsonReader::new(SliceInput::new(bytes), options.clone());
        let io = || NdjsonReader::new(windowed(bytes, 1, window), options.clone());

        assert_eq!(
            read_records(&mut slice(), RecordRead::Whole),
            expected,
            "{label}: slice"
        );
        assert_eq!(
            read_records(&mut io(), RecordRead::Whole),
            expected,
            "{label}: io::Read, window {window}"
        );
        assert_eq!(
            read_records(&mut io(), RecordRead::Skipped),
            verdicts,
            "{label}: io::Read, skip(), window {window}"
        );
        assert_eq!(
            read_records(&mut slice(), RecordRead::FirstToken),
            errors,
            "{label}: slice, records read in part"
        );
        assert_eq!(
            read_records(&mut io(), RecordRead::FirstToken),
            errors,
            "{label}: io::Read, records read in part, window {window}"
        );

        let last_wins = dialect.options(DuplicateKeys::LastWins);
        let all: Vec<Expected> = expected.iter().map(|_| Ok(Vec::new())).collect();
        let mut slice = NdjsonReader::new(SliceInput::new(bytes), last_wins.clone());
        let read = read_records(&mut slice, RecordRead::Whole);
        assert!(read.iter().all(Result::is_ok), "{label}: LastWins, slice");
        let mut io = NdjsonReader::new(windowed(bytes, 1, window), last_wins);
        assert_eq!(
            read_records(&mut io, RecordRead::Skipped),
            all,
            "{label}: LastWins, io::Read"
        );
        check_last_wins_tokens(&read, &expected, &label);

        check_parallel(bytes, &options, &expected, &label);
        check_concatenated(bytes, &options, &expected, &label);
    }
}

/// The records read as one stream of root values (`multiple_values`, not NDJSON): the
/// tokens of every value up to the first repeated key, reported there.
fn check_concatenated(bytes: &[u8], options: &JsonOptions, expected: &[Expected], label: &str) {
    let mut want = Ok(Vec::new());
    for record in expected {
        match (&mut want, record) {
            (Ok(all), Ok(tokens)) => all.extend_from_slice(tokens),
            (Ok(_), Err(failure)) => want = Err(failure.clone()),
            (Err(_), _) => break,
        }
    }
    let options = JsonOptions {
        multiple_values: true,
        ..options.clone()
    };
    let slice = read_and_stop(&mut JsonReader::from_slice(bytes).with_options(options.clone()));
    assert_eq!(slice, want, "{label}: one stream of values, slice");
    let io = read_and_stop(&mut JsonReader::new(windowed(bytes, 1, 7), options));
    assert_eq!(io, want, "{label}: one stream of values, io::Read");
}

/// With `LastWins`, the records read whole must be the model's, the repeated keys kept.
fn check_last_wins_tokens(read: &[Expected], expected: &[Expected], label: &str) {
    assert_eq!(read.len(), expected.len(), "{label}: LastWins, records");
    for (got, want) in read.iter().zip(expected) {
        if let Ok(tokens) = want {
            assert_eq!(got.as_ref(), Ok(tokens), "{label}: LastWins, tokens");
        }
    }
}

/// The parallel ingestion of `bytes`, bad records collected: the same records and errors
/// (spans counted from each record's line, moved here to the whole input's).
fn check_parallel(bytes: &[u8], json: &JsonOptions, expected: &[Expected], label: &str) {
    let options = ParallelOptions {
        jobs: 2,
        skip_errors: true,
        block_size: 1,
        json: json.clone(),
        ..ParallelOptions::default()
    };
    let mut good: Vec<(u64, Vec<Token>)> = Vec::new();
    let summary = ingest_blocks(
        bytes,
        &options,
        Vec::new,
        |records: &mut Vec<(u64, Vec<Token>)>, reader, info| {
            let tokens = Token::read_all(reader)?;
            reader.finish()?;
            records.push((info.line, tokens));
            Ok(())
        },
        |records| {
            good.extend(records);
            Ok(())
        },
    )
    .unwrap_or_else(|err| panic!("{label}: parallel: {err}"));
    let mut got: Vec<(u64, Expected)> = good
        .into_iter()
        .map(|(line, tokens)| (line, Ok(tokens)))
        .collect();
    for bad in summary.errors {
        let start = usize::try_from(bad.record.offset).unwrap();
        let mut failure = Failure::from(&bad.error);
        failure.span = failure
            .span
            .map(|span| Span::new(span.start + start, span.end + start));
        got.push((bad.record.line, Err(failure)));
    }
    got.sort_by_key(|(line, _)| *line);
    let want: Vec<(u64, Expected)> = (1..).zip(expected.iter().cloned()).collect();
    assert_eq!(got, want, "{label}: parallel ingestion");
}

/// What a read of a hand-made document must give with `DuplicateKeys::Error`: `json/DuplicateKey`
/// at `span` and `path`, or no error.
fn duplicate_at(span: Option<Span>, path: Vec<PathSegment>) -> Option<Failure> {
    span.map(|span| Failure {
        code: codes::DUPLICATE_KEY.to_string(),
        span: Some(span),
        path: Some(path),
    })
}

/// `{"k":{"k":...{"k":1}...}}`, `depth` objects deep, every one with the key `k` (spelled
/// `\u006b` at every third level); with `repeat_at`, the object at that depth (0 = the
/// outermost) has `k` once more after its inner object closes. The span of that repeat.
fn nested(depth: usize, repeat_at: Option<usize>) -> (String, Option<Span>) {
    let mut text = String::new();
    for level in 0..depth {
        text.push_str(if level % 3 == 2 {
            "{\"\\u006b\":"
        } else {
            "{\"k\":"
        });
    }
    text.push('1');
    let mut span = None;
    for level in (0..depth).rev() {
        if repeat_at == Some(level) {
            text.push(',');
            let start = text.len();
            text.push_str("\"k\"");
            span = Some(Span::new(start, text.len()));
            text.push_str(":2");
        }
        text.push('}');
    }
    (text, span)
}

#[test]
fn keys_at_every_level_of_a_deep_nesting_are_told_apart_by_object() {
    let depth = 400;
    let options = JsonOptions {
        max_depth: depth,
        ..JsonOptions::strict()
    };
    for repeat_at in [
        None,
        Some(0),
        Some(1),
        Some(199),
        Some(depth - 2),
        Some(depth - 1),
    ] {
        let (text, span) = nested(depth, repeat_at);
        let bytes = text.as_bytes();
        let path = vec![PathSegment::Key("k".to_owned()); repeat_at.map_or(0, |at| at + 1)];
        let expected = duplicate_at(span, path);
        let label = format!("repeat at {repeat_at:?}");
        let read = read_and_stop(&mut JsonReader::from_slice(bytes).with_options(options.clone()));
        assert_eq!(read.err(), expected, "{label}: slice");
        for window in [1, 3, 7] {
            let read = read_and_stop(&mut JsonReader::new(
                windowed(bytes, 1, window),
                options.clone(),
            ));
            assert_eq!(read.err(), expected, "{label}: io::Read, window {window}");
            let skipped = verdict(skip_document(&mut JsonReader::new(
                windowed(bytes, 1, window),
                options.clone(),
            )));
            assert_eq!(skipped.err(), expected, "{label}: skip(), window {window}");
        }
    }
}

/// The keys of [`large_in_large`].
fn large_key(i: usize) -> String {
    format!("key_{i:06}_of_an_object")
}

/// A large object whose middle value is a large object with the same keys, and, with
/// `repeat`, one of the outer keys again at the end (the inner's keys with `inner_repeat`).
/// The span and path of the first repeat.
fn large_in_large(
    size: usize,
    repeat: Option<usize>,
    inner_repeat: Option<usize>,
) -> (String, Option<Span>, Vec<PathSegment>) {
    let mut text = String::from("{");
    let mut span = None;
    let mut path = Vec::new();
    for i in 0..size {
        write!(text, "\"{}\":", large_key(i)).unwrap();
        if i == size / 2 {
            text.push('{');
            for j in 0..size {
                write!(text, "\"{}\":{j},", large_key(j)).unwrap();
            }
            if let Some(j) = inner_repeat {
                let start = text.len();
                write!(text, "\"{}\"", large_key(j)).unwrap();
                span = Some(Span::new(start, text.len()));
                path = vec![
                    PathSegment::Key(large_key(i)),
                    PathSegment::Key(large_key(j)),
                ];
                text.push_str(":0,");
            }
            text.push_str("\"end\":0},");
        } else {
            write!(text, "{i},").unwrap();
        }
    }
    if let Some(i) = repeat
        && span.is_none()
    {
        let start = text.len();
        write!(text, "\"{}\"", large_key(i)).unwrap();
        span = Some(Span::new(start, text.len()));
        path = vec![PathSegment::Key(large_key(i))];
        text.push_str(":0,");
    }
    text.push_str("\"end\":0}");
    (text, span, path)
}

#[test]
fn a_large_object_inside_a_large_object_keeps_the_outer_index() {
    let size = 2_000;
    let cases = [
        (None, None),
        (Some(0), None),
        (Some(size / 2 - 1), None),
        (Some(size / 2), None),
        (Some(size - 1), None),
        (None, Some(0)),
        (None, Some(size - 1)),
    ];
    let options = JsonOptions::strict();
    for (repeat, inner_repeat) in cases {
        let (text, span, path) = large_in_large(size, repeat, inner_repeat);
        let bytes = text.as_bytes();
        let expected = duplicate_at(span, path);
        let label = format!("outer {repeat:?}, inner {inner_repeat:?}");
        let read = read_and_stop(&mut JsonReader::from_slice(bytes).with_options(options.clone()));
        assert_eq!(read.err(), expected, "{label}: slice");
        for (chunk, window) in [(1, 5), (7, 64), (4096, 4096)] {
            let read = read_and_stop(&mut JsonReader::new(
                windowed(bytes, chunk, window),
                options.clone(),
            ));
            assert_eq!(
                read.err(),
                expected,
                "{label}: io::Read, {chunk} bytes a read, window {window}"
            );
        }
        let skipped = verdict(skip_document(&mut JsonReader::new(
            windowed(bytes, 3, 16),
            options.clone(),
        )));
        assert_eq!(skipped.err(), expected, "{label}: skip()");
    }
}
