//! Differential test of [`NdjsonReader`] against an NDJSON reader built from serde_json,
//! which parses each line on its own, and against the values the generator knows it wrote.
//!
//! Generated streams hold what NDJSON allows (NDJSON 1.0.0, github.com/ndjson/ndjson-spec,
//! §3; RFC 8259) and what the reader documents it accepts: one JSON value of any kind per
//! line, with spaces and tabs around and inside it; LF or CRLF line ends (a parser "MUST
//! accept" both); blank and whitespace-only lines, which the reader skips (the spec lets a
//! parser skip empty lines if it says so); a last line with or without a line break; a UTF-8
//! byte order mark at the very start, which the JSON guide says is skipped (RFC 8259 §8.1
//! lets a parser ignore one). Every record is read through the slice, `&str` and `io::Read`
//! paths, some only peeked at so that `next_record` skips the rest.
//!
//! Broken streams carry one fault on one record's line. The spec decides them: a JSON text
//! "MUST NOT contain newlines", and "If the JSON text is not parsable, the parser SHOULD raise
//! an error". Every line is one JSON text, so a line that is not one is an error on that
//! line, after every record before it was read. Two faults the reader once read across the
//! line break, as if a record could go on over the next lines (a value split over two lines
//! and a missing closing bracket), have tests of their own at the end.
//!
//! Parallel ingestion ([`parallel`]), which cuts the input into blocks at line feeds and
//! reads each line with a reader of its own, is checked against [`NdjsonReader`] on the same
//! generated streams, with one worker and two and with blocks of several sizes (the good
//! streams written over and over, so that they take several blocks). On good streams it reads
//! the same records, with the same values, on the same lines; its record offsets are where
//! the lines start, as documented (the reader's are where the values start). On broken
//! streams it stops at the broken record with the same error code and span (its spans count
//! from the record's offset, the reader's from the start of the input), on the same line;
//! told to skip errors, it collects the broken record, and reads every other one as written.
//!
//! serde_json's default float parse is not correctly rounded (its `float_roundtrip` feature
//! is off): floats are compared with it within [`SERDE_JSON_FLOAT_SLACK`], and exactly with
//! the generator's values.

mod common;

use std::collections::BTreeMap;
use std::ops::Range;

use common::Trickle;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::RngSeed;
use serde_json::Value;
use sluice_core::{Entry, Error, ErrorCode, NumberHint, Reader, Span};
use sluice_json::parallel::{self, IngestSummary, ParallelOptions, RecordInfo};
use sluice_json::{Input, JsonOptions, NdjsonReader, codes};

// ----- values -------------------------------------------------------------------------------

/// A JSON value as sluice hands it out, or as the generator wrote it. Members keep their
/// order.
#[derive(Debug, Clone, PartialEq)]
enum Tree {
    Null,
    Bool(bool),
    Number(Num),
    String(String),
    Array(Vec<Tree>),
    Object(Vec<(String, Tree)>),
}

/// A number: its source text and syntax hint, its `f64` value as bits (so `-0.0` is not
/// `0.0`), and its exact value when it is an integer that fits `i64` or `u64`.
#[derive(Debug, Clone, PartialEq)]
struct Num {
    text: String,
    hint: NumberHint,
    bits: u64,
    int: Option<i128>,
}

/// How far serde_json's float may be from the correctly rounded one, in units in the last
/// place: without `float_roundtrip` it multiplies the significand, rounded to an `f64`, by a
/// rounded power of ten (pinned by `serde_json_rounds_some_floats_off_where_sluice_is_exact`).
const SERDE_JSON_FLOAT_SLACK: u64 = 2;

/// Units in the last place between two finite `f64`s given as bits; floats of different
/// signs (`0.0` and `-0.0` too) are as far apart as can be.
fn ulps_apart(a: u64, b: u64) -> u64 {
    const SIGN: u64 = 1 << 63;
    if a & SIGN == b & SIGN {
        a.abs_diff(b)
    } else {
        u64::MAX
    }
}

/// Whether sluice's tree `ours` is the value serde_json read, `theirs`; where not, the path
/// to the first difference.
fn agree(ours: &Tree, theirs: &Value, at: &str) -> Result<(), String> {
    let same = match (ours, theirs) {
        (Tree::Null, Value::Null) => true,
        (Tree::Bool(a), Value::Bool(b)) => a == b,
        (Tree::String(a), Value::String(b)) => a == b,
        (Tree::Number(n), Value::Number(m)) => {
            if let Some(i) = m.as_i64() {
                n.int == Some(i128::from(i))
            } else if let Some(u) = m.as_u64() {
                n.int == Some(i128::from(u))
            } else {
                // A float, `-0`, or an integer beyond `i64` and `u64`.
                m.as_f64()
                    .is_some_and(|f| ulps_apart(f.to_bits(), n.bits) <= SERDE_JSON_FLOAT_SLACK)
            }
        }
        (Tree::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                return Err(format!("{at}: {} items and {}", a.len(), b.len()));
            }
            for (i, (a, b)) in a.iter().zip(b).enumerate() {
                agree(a, b, &format!("{at}[{i}]"))?;
            }
            true
        }
        (Tree::Object(a), Value::Object(b)) => {
            // serde_json's map is sorted by key; the generator writes no key twice.
            let ours: BTreeMap<&str, &Tree> = a.iter().map(|(k, v)| (k.as_str(), v)).collect();
            if ours.len() != a.len() || ours.keys().ne(b.keys()) {
                return Err(format!(
                    "{at}: keys {:?} and {:?}",
                    ours.keys().collect::<Vec<_>>(),
                    b.keys().collect::<Vec<_>>()
                ));
            }
            for ((key, a), b) in ours.iter().zip(b.values()) {
                agree(a, b, &format!("{at}.{key}"))?;
            }
            true
        }
        _ => false,
    };
    if same {
        Ok(())
    } else {
        Err(format!("{at}: sluice {ours:?}, serde_json {theirs:?}"))
    }
}

// ----- reading with sluice ------------------------------------------------------------------

/// Reads one value through `peek` and the typed reads.
fn read_tree<R: Reader>(reader: &mut R) -> sluice_core::Result<Tree> {
    Ok(match reader.peek()? {
        Entry::Null => {
            reader.read_null()?;
            Tree::Null
        }
        Entry::Bool => Tree::Bool(reader.read_bool()?),
        Entry::String => Tree::String(reader.read_str()?.to_owned()),
        Entry::ArrayRoot => {
            reader.read_array_root()?;
            let mut items = Vec::new();
            while reader.peek()? != Entry::ArrayEnd {
                items.push(read_tree(reader)?);
            }
            reader.read_array_end()?;
            Tree::Array(items)
        }
        Entry::MapRoot => {
            reader.read_map_root()?;
            let mut members = Vec::new();
            while reader.peek()? != Entry::MapEnd {
                let key = reader.read_name()?.to_owned();
                members.push((key, read_tree(reader)?));
            }
            reader.read_map_end()?;
            Tree::Object(members)
        }
        entry if entry.is_number() => {
            let number = reader.read_number()?;
            let Some(text) = number.as_text() else {
                return Err(Error::custom(format!(
                    "a JSON number without text: {number:?}"
                )));
            };
            // Integer syntax is read exactly, as `i64` or else as `u64`.
            let int = match number.hint() {
                NumberHint::Float => None,
                _ => number
                    .to_i64()
                    .map(i128::from)
                    .or_else(|_| number.to_u64().map(i128::from))
                    .ok(),
            };
            Tree::Number(Num {
                text: text.to_owned(),
                hint: number.hint(),
                bits: number.to_f64()?.to_bits(),
                int,
            })
        }
        other => {
            return Err(Error::custom(format!(
                "no JSON value starts with {other:?}"
            )));
        }
    })
}

/// Reads a record's value, then checks that the record has ended.
fn read_whole<R: Reader>(record: &mut R) -> sluice_core::Result<Tree> {
    let tree = read_tree(record)?;
    match record.peek()? {
        Entry::Ended => Ok(tree),
        other => Err(Error::custom(format!("the record goes on with {other:?}"))),
    }
}

/// One record as the reader handed it out; `value` is `None` when it was only peeked at.
#[derive(Debug, PartialEq)]
struct Got {
    number: u64,
    line: usize,
    offset: usize,
    value: Option<Tree>,
}

/// The records of a stream, then the error that stopped the read, if one did.
#[derive(Debug)]
struct Outcome {
    records: Vec<Got>,
    error: Option<Error>,
}

/// What an error says, as comparable data.
type Said = (ErrorCode, Option<Span>, Vec<String>);

impl Outcome {
    fn said(&self) -> Option<Said> {
        self.error
            .as_ref()
            .map(|e| (e.code(), e.span(), e.notes().to_vec()))
    }
}

/// Reads every record; record `i` is only peeked at when `skim[i]` (then `next_record`
/// skips and checks its rest).
fn read_stream<S: Input>(mut reader: NdjsonReader<S>, skim: &[bool]) -> Outcome {
    let mut records = Vec::new();
    let error = loop {
        let mut record = match reader.next_record() {
            Ok(Some(record)) => record,
            Ok(None) => {
                // The end stays the end, and every record was counted.
                assert!(
                    matches!(reader.next_record(), Ok(None)),
                    "a record after the end"
                );
                assert_eq!(reader.records_read(), records.len() as u64);
                break None;
            }
            Err(error) => break Some(error),
        };
        let (number, line, offset) = (record.number(), record.line(), record.offset());
        let value = if skim.get(records.len()).copied().unwrap_or(false) {
            match record.peek() {
                Ok(_) => None,
                Err(error) => break Some(error),
            }
        } else {
            match read_whole(&mut record) {
                Ok(tree) => Some(tree),
                Err(error) => break Some(error),
            }
        };
        records.push(Got {
            number,
            line,
            offset,
            value,
        });
    };
    Outcome { records, error }
}

fn read_slice(bytes: &[u8], skim: &[bool]) -> Outcome {
    read_stream(NdjsonReader::from_slice(bytes), skim)
}

/// The same read through `io::Read`, `chunk` bytes at a time, so that tokens and line breaks
/// straddle refills (and, for odd sizes, the window's moves: see [`common::trickle_input`]).
fn read_trickled(bytes: &[u8], chunk: usize, skim: &[bool]) -> Outcome {
    let input = common::trickle_input(bytes, chunk);
    read_stream(NdjsonReader::new(input, JsonOptions::ndjson()), skim)
}

// ----- reading in parallel ------------------------------------------------------------------

/// What parallel ingestion read: each record its callback read whole, as a [`Got`] numbered in
/// the order the records were delivered, on the line and at the offset its [`RecordInfo`]
/// gives; and how the run ended.
#[derive(Debug)]
struct Ingested {
    records: Vec<Got>,
    summary: sluice_core::Result<IngestSummary>,
}

/// Reads `bytes` with [`parallel::ingest_blocks`] through `io::Read`, `chunk` bytes at a
/// time (so that filling a block takes many reads), each record with [`read_whole`] through
/// the reader its callback is handed: the same read as [`read_slice`]'s, so that the two
/// readers' values compare.
fn ingest(bytes: &[u8], chunk: usize, options: &ParallelOptions) -> Ingested {
    let mut records = Vec::new();
    let summary = parallel::ingest_blocks(
        Trickle { bytes, chunk },
        options,
        Vec::new,
        |block: &mut Vec<(RecordInfo, Tree)>, reader, info| {
            block.push((info, read_whole(reader)?));
            Ok(())
        },
        |block| {
            for (info, tree) in block {
                records.push(Got {
                    number: records.len() as u64 + 1,
                    line: usize::try_from(info.line).expect("a line number fits usize"),
                    offset: usize::try_from(info.offset).expect("an offset fits usize"),
                    value: Some(tree),
                });
            }
            Ok(())
        },
    );
    Ingested { records, summary }
}

/// A span parallel ingestion gave, relative to the record at `offset`, made absolute as
/// [`NdjsonReader`]'s are.
fn absolute(span: Option<Span>, offset: u64) -> Option<Span> {
    let offset = usize::try_from(offset).expect("an offset fits usize");
    span.map(|s| Span::new(s.start + offset, s.end + offset))
}

// ----- the per-line oracle ------------------------------------------------------------------

/// NDJSON read line by line as the spec describes it, with serde_json for each line: lines
/// end at LF and a CR before it belongs to the line break; a BOM may open the first line;
/// lines of JSON whitespace only are skipped (as the reader documents). Returns each
/// record's 1-based line and value, and the line of the first line that is no JSON text.
fn oracle(bytes: &[u8]) -> (Vec<(usize, Value)>, Option<usize>) {
    let mut records = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let mut line = line.strip_suffix(b"\r").unwrap_or(line);
        if i == 0 {
            line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        }
        if line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            continue;
        }
        match serde_json::from_slice::<Value>(line) {
            Ok(value) => records.push((i + 1, value)),
            Err(_) => return (records, Some(i + 1)),
        }
    }
    (records, None)
}

// ----- generated streams --------------------------------------------------------------------

/// How the generator writes one character of a string.
#[derive(Debug, Clone, Copy)]
enum Spelling {
    /// As itself, where JSON allows that (not `"`, `\` or a control character).
    Raw,
    /// A two-character escape (`\n`, `\"`, `\/` ...), where there is one.
    Short,
    /// `\uXXXX`, a surrogate pair beyond the BMP.
    Hex { upper: bool },
}

/// A string as written: each character and its spelling.
#[derive(Debug, Clone)]
struct Text(Vec<(char, Spelling)>);

impl Text {
    fn decoded(&self) -> String {
        self.0.iter().map(|&(c, _)| c).collect()
    }
}

/// How the generator writes a float.
#[derive(Debug, Clone, Copy)]
enum FloatStyle {
    /// Shortest round trip, as Rust's `{:?}` (`0.1`, `1e-7`, `1e16`, `-0.0`).
    Shortest,
    /// `{:e}`: `1.5e3`, `1e0`.
    Exponent,
    /// `{:E}`: `1.5E3`.
    UpperExponent,
    /// `1.5e+3`: an explicit plus sign on a non-negative exponent.
    PlusExponent,
    /// 17 significant digits, more than the shortest form needs.
    Digits17,
}

impl FloatStyle {
    fn write(self, x: f64) -> String {
        match self {
            FloatStyle::Shortest => format!("{x:?}"),
            FloatStyle::Exponent => format!("{x:e}"),
            FloatStyle::UpperExponent => format!("{x:E}"),
            FloatStyle::PlusExponent => {
                let text = format!("{x:e}");
                if text.contains("e-") {
                    text
                } else {
                    text.replace('e', "e+")
                }
            }
            FloatStyle::Digits17 => format!("{x:.16e}"),
        }
    }
}

/// A value to write. `String`s hold spaces and tabs put between tokens: never a line
/// break, which the spec keeps out of records (and never a lone CR, which is none).
#[derive(Debug, Clone)]
enum Gen {
    Null,
    Bool(bool),
    Integer(i128),
    /// `-0`: integer syntax for the `f64` `-0.0`.
    MinusZero,
    Float(f64, FloatStyle),
    String(Text),
    /// Items with the space before and after each, and the space inside when empty.
    Array(Vec<(String, Gen, String)>, String),
    Object(Vec<Member>, String),
}

#[derive(Debug, Clone)]
struct Member {
    before: String,
    key: Text,
    colon: (String, String),
    value: Gen,
    after: String,
}

/// One line of a stream.
#[derive(Debug, Clone)]
enum LineGen {
    Record {
        lead: String,
        value: Gen,
        trail: String,
    },
    Blank(String),
}

/// A stream: an optional BOM, lines each ended by LF or CRLF (`true`), the last one maybe by
/// nothing.
#[derive(Debug, Clone)]
struct StreamGen {
    bom: bool,
    lines: Vec<(LineGen, bool)>,
    last_break: bool,
}

/// A stream as bytes, and what the generator knows of each record.
#[derive(Debug)]
struct Stream {
    bytes: Vec<u8>,
    records: Vec<Written>,
}

/// One record as written. Offsets are absolute.
#[derive(Debug, Clone)]
struct Written {
    /// 1-based line.
    line: usize,
    /// Where the line starts (0 for the first line, before a BOM).
    line_start: usize,
    value: Range<usize>,
    tree: Tree,
    /// Offsets between two tokens of the value, where whitespace may stand (not its start
    /// or end).
    gaps: Vec<usize>,
    /// Offsets between two characters of a string or key, never inside an escape.
    in_strings: Vec<usize>,
    openers: Vec<usize>,
    closers: Vec<usize>,
}

/// Writes values, noting where their gaps, string characters and brackets are.
#[derive(Debug, Default)]
struct Out {
    bytes: Vec<u8>,
    gaps: Vec<usize>,
    in_strings: Vec<usize>,
    openers: Vec<usize>,
    closers: Vec<usize>,
}

fn short_escape(c: char) -> Option<u8> {
    Some(match c {
        '"' => b'"',
        '\\' => b'\\',
        '/' => b'/',
        '\u{8}' => b'b',
        '\u{c}' => b'f',
        '\n' => b'n',
        '\r' => b'r',
        '\t' => b't',
        _ => return None,
    })
}

impl Out {
    fn ws(&mut self, ws: &str) {
        self.gaps.push(self.bytes.len());
        self.bytes.extend_from_slice(ws.as_bytes());
        self.gaps.push(self.bytes.len());
    }

    fn text(&mut self, text: &Text) -> String {
        self.bytes.push(b'"');
        for &(c, spelling) in &text.0 {
            self.in_strings.push(self.bytes.len());
            let raw_allowed = !matches!(c, '"' | '\\' | '\0'..='\u{1f}');
            match (spelling, short_escape(c)) {
                (Spelling::Raw, _) if raw_allowed => {
                    self.bytes
                        .extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                (Spelling::Raw | Spelling::Short, Some(escape)) => {
                    self.bytes.extend_from_slice(&[b'\\', escape]);
                }
                (spelling, _) => {
                    let upper = matches!(spelling, Spelling::Hex { upper: true });
                    for unit in c.encode_utf16(&mut [0; 2]) {
                        let hex = if upper {
                            format!("\\u{unit:04X}")
                        } else {
                            format!("\\u{unit:04x}")
                        };
                        self.bytes.extend_from_slice(hex.as_bytes());
                    }
                }
            }
        }
        self.in_strings.push(self.bytes.len());
        self.bytes.push(b'"');
        text.decoded()
    }

    fn number(&mut self, text: String, bits: u64, int: Option<i128>) -> Tree {
        self.bytes.extend_from_slice(text.as_bytes());
        let hint = NumberHint::of_text(&text);
        Tree::Number(Num {
            text,
            hint,
            bits,
            int,
        })
    }

    /// Writes `value`; returns what it is.
    fn value(&mut self, value: &Gen) -> Tree {
        match value {
            Gen::Null => {
                self.bytes.extend_from_slice(b"null");
                Tree::Null
            }
            Gen::Bool(b) => {
                self.bytes.extend_from_slice(b.to_string().as_bytes());
                Tree::Bool(*b)
            }
            Gen::Integer(i) => {
                let fits = i64::try_from(*i).is_ok() || u64::try_from(*i).is_ok();
                // `as` rounds to the nearest `f64`, ties to even: the correctly rounded value.
                self.number(i.to_string(), (*i as f64).to_bits(), fits.then_some(*i))
            }
            Gen::MinusZero => self.number("-0".to_owned(), (-0.0f64).to_bits(), Some(0)),
            Gen::Float(x, style) => self.number(style.write(*x), x.to_bits(), None),
            Gen::String(text) => Tree::String(self.text(text)),
            Gen::Array(items, empty) => {
                self.openers.push(self.bytes.len());
                self.bytes.push(b'[');
                if items.is_empty() {
                    self.ws(empty);
                }
                let mut trees = Vec::new();
                for (i, (before, item, after)) in items.iter().enumerate() {
                    if i > 0 {
                        self.bytes.push(b',');
                    }
                    self.ws(before);
                    trees.push(self.value(item));
                    self.ws(after);
                }
                self.closers.push(self.bytes.len());
                self.bytes.push(b']');
                Tree::Array(trees)
            }
            Gen::Object(members, empty) => {
                self.openers.push(self.bytes.len());
                self.bytes.push(b'{');
                if members.is_empty() {
                    self.ws(empty);
                }
                let mut trees = Vec::new();
                for (i, member) in members.iter().enumerate() {
                    if i > 0 {
                        self.bytes.push(b',');
                    }
                    self.ws(&member.before);
                    let key = self.text(&member.key);
                    self.ws(&member.colon.0);
                    self.bytes.push(b':');
                    self.ws(&member.colon.1);
                    trees.push((key, self.value(&member.value)));
                    self.ws(&member.after);
                }
                self.closers.push(self.bytes.len());
                self.bytes.push(b'}');
                Tree::Object(trees)
            }
        }
    }
}

fn render(spec: &StreamGen) -> Stream {
    let mut out = Out::default();
    if spec.bom {
        out.bytes.extend_from_slice(b"\xEF\xBB\xBF");
    }
    let mut records = Vec::new();
    for (i, (line, crlf)) in spec.lines.iter().enumerate() {
        let line_start = if i == 0 { 0 } else { out.bytes.len() };
        match line {
            LineGen::Record { lead, value, trail } => {
                out.bytes.extend_from_slice(lead.as_bytes());
                // Only this value's places are kept.
                out.gaps.clear();
                out.in_strings.clear();
                out.openers.clear();
                out.closers.clear();
                let start = out.bytes.len();
                let tree = out.value(value);
                let end = out.bytes.len();
                let mut gaps = std::mem::take(&mut out.gaps);
                gaps.sort_unstable();
                gaps.dedup();
                records.push(Written {
                    line: i + 1,
                    line_start,
                    value: start..end,
                    tree,
                    gaps,
                    in_strings: std::mem::take(&mut out.in_strings),
                    openers: std::mem::take(&mut out.openers),
                    closers: std::mem::take(&mut out.closers),
                });
                out.bytes.extend_from_slice(trail.as_bytes());
            }
            LineGen::Blank(ws) => out.bytes.extend_from_slice(ws.as_bytes()),
        }
        if i + 1 < spec.lines.len() || spec.last_break {
            out.bytes
                .extend_from_slice(if *crlf { b"\r\n" } else { b"\n" });
        }
    }
    Stream {
        bytes: out.bytes,
        records,
    }
}

/// `spec`'s stream with its lines written again after themselves until it is at least `len`
/// bytes long (at most 64 times over): parallel ingestion cuts its blocks at lines, at 1 KiB
/// at the least, so only a stream that long is read in several blocks, with records on
/// both sides of each cut. The BOM, if any, stays at the start only.
fn repeated(spec: &StreamGen, len: usize) -> Stream {
    let once = render(spec).bytes.len().max(1);
    let times = len.div_ceil(once).clamp(1, 64);
    render(&StreamGen {
        bom: spec.bom,
        lines: std::iter::repeat_n(&spec.lines, times)
            .flatten()
            .cloned()
            .collect(),
        last_break: spec.last_break,
    })
}

// ----- strategies ---------------------------------------------------------------------------

/// Space between tokens: mostly none.
fn ws() -> impl Strategy<Value = String> {
    prop_oneof![3 => Just(String::new()), 1 => "[ \t]{1,3}"]
}

fn string_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => proptest::char::range(' ', '~'),
        2 => prop::sample::select(vec![
            '"', '\\', '/', '\0', '\u{8}', '\t', '\n', '\u{b}', '\u{c}', '\r', '\u{1b}', '\u{1f}',
            '\u{7f}',
        ]),
        1 => proptest::char::range('\u{80}', '\u{7ff}'),
        1 => proptest::char::range('\u{800}', '\u{ffff}'),
        1 => proptest::char::range('\u{10000}', '\u{10ffff}'),
        // U+2028 and U+2029 are no line breaks in JSON; U+FEFF is a BOM only at the start.
        1 => prop::sample::select(vec![
            'é', '€', '中', '😀', '\u{2028}', '\u{2029}', '\u{feff}', '\u{fffd}', '\u{ffff}',
            '\u{10ffff}',
        ]),
    ]
}

fn text() -> impl Strategy<Value = Text> {
    let spelling = prop_oneof![
        3 => Just(Spelling::Raw),
        1 => Just(Spelling::Short),
        1 => any::<bool>().prop_map(|upper| Spelling::Hex { upper }),
    ];
    prop::collection::vec((string_char(), spelling), 0..8).prop_map(Text)
}

fn integer() -> impl Strategy<Value = Gen> {
    let extremes = vec![
        0,
        -1,
        i128::from(i64::MIN),
        i128::from(i64::MAX),
        i128::from(u64::MAX),
        // Just beyond `i64` and `u64`: read as floats.
        i128::from(i64::MIN) - 1,
        i128::from(u64::MAX) + 1,
        i128::MIN,
        i128::MAX,
        // Integers an `f64` holds exactly up to 2^53, and not beyond.
        1 << 53,
        (1 << 53) + 1,
        -(1 << 53) - 1,
    ];
    prop_oneof![
        2 => (-1000i128..1000).prop_map(Gen::Integer),
        2 => any::<i64>().prop_map(|i| Gen::Integer(i.into())),
        1 => any::<u64>().prop_map(|u| Gen::Integer(u.into())),
        2 => prop::sample::select(extremes).prop_map(Gen::Integer),
        1 => any::<i128>().prop_map(Gen::Integer),
        1 => Just(Gen::MinusZero),
    ]
}

fn float() -> impl Strategy<Value = Gen> {
    use prop::num::f64 as f;
    let value = prop_oneof![
        3 => f::POSITIVE | f::NEGATIVE | f::NORMAL | f::SUBNORMAL | f::ZERO,
        2 => (-100_000i32..100_000, 0..6).prop_map(|(m, e)| f64::from(m) / 10f64.powi(e)),
        1 => prop::sample::select(vec![
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            f64::from_bits(1),
            -0.0,
            0.1,
            1e21,
            1e22,
            1e23,
        ]),
    ];
    let style = prop::sample::select(vec![
        FloatStyle::Shortest,
        FloatStyle::Exponent,
        FloatStyle::UpperExponent,
        FloatStyle::PlusExponent,
        FloatStyle::Digits17,
    ]);
    (value, style).prop_map(|(x, style)| Gen::Float(x, style))
}

/// Object members, without a key written twice (sluice refuses duplicates by default; RFC
/// 8259 leaves them to the reader).
fn members(inner: BoxedStrategy<Gen>) -> impl Strategy<Value = Vec<Member>> {
    let member = (ws(), text(), ws(), ws(), inner, ws()).prop_map(
        |(before, key, colon_before, colon_after, value, after)| Member {
            before,
            key,
            colon: (colon_before, colon_after),
            value,
            after,
        },
    );
    prop::collection::vec(member, 0..4).prop_map(|members| {
        let mut seen = std::collections::HashSet::new();
        members
            .into_iter()
            .filter(|m| seen.insert(m.key.decoded()))
            .collect()
    })
}

fn value() -> BoxedStrategy<Gen> {
    let leaf = prop_oneof![
        1 => Just(Gen::Null),
        1 => any::<bool>().prop_map(Gen::Bool),
        3 => integer(),
        3 => float(),
        3 => text().prop_map(Gen::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            (
                prop::collection::vec((ws(), inner.clone(), ws()), 0..4),
                ws()
            )
                .prop_map(|(items, empty)| Gen::Array(items, empty)),
            (members(inner), ws()).prop_map(|(members, empty)| Gen::Object(members, empty)),
        ]
    })
    .boxed()
}

fn stream() -> impl Strategy<Value = StreamGen> {
    let line = prop_oneof![
        3 => (ws(), value(), ws()).prop_map(|(lead, value, trail)| LineGen::Record {
            lead,
            value,
            trail,
        }),
        1 => "[ \t]{0,3}".prop_map(LineGen::Blank),
    ];
    (
        prop::bool::weighted(0.2),
        prop::collection::vec((line, prop::bool::weighted(0.3)), 0..10),
        any::<bool>(),
    )
        .prop_map(|(bom, lines, last_break)| StreamGen {
            bom,
            lines,
            last_break,
        })
}

/// The record a fault goes into: a container holding a string next to another value, so
/// that every fault has a place to go.
fn target() -> impl Strategy<Value = Gen> {
    (value(), text(), any::<bool>(), ws(), ws(), text(), text()).prop_map(
        |(other, string, object, before, after, key_a, key_b)| {
            if object {
                let mut key_b = key_b;
                if key_b.decoded() == key_a.decoded() {
                    key_b.0.push(('b', Spelling::Raw));
                }
                let member = |key, value| Member {
                    before: before.clone(),
                    key,
                    colon: (String::new(), after.clone()),
                    value,
                    after: after.clone(),
                };
                Gen::Object(
                    vec![member(key_a, other), member(key_b, Gen::String(string))],
                    String::new(),
                )
            } else {
                Gen::Array(
                    vec![
                        (before.clone(), Gen::String(string), after.clone()),
                        (before, other, after),
                    ],
                    String::new(),
                )
            }
        },
    )
}

/// A stream with the target record put in at a chosen line, and the record's index.
fn stream_with_target() -> impl Strategy<Value = (StreamGen, usize)> {
    (
        stream(),
        any::<Index>(),
        ws(),
        target(),
        ws(),
        any::<bool>(),
    )
        .prop_map(|(mut spec, at, lead, value, trail, crlf)| {
            let at = at.index(spec.lines.len() + 1);
            let k = spec.lines[..at]
                .iter()
                .filter(|(line, _)| matches!(line, LineGen::Record { .. }))
                .count();
            spec.lines
                .insert(at, (LineGen::Record { lead, value, trail }, crlf));
            (spec, k)
        })
}

/// [`stream_with_target`] with copies of a short record around the target (a random number
/// of them before it, the rest after), so that the stream is over 1 KiB and parallel
/// ingestion cuts it into blocks (of 1 KiB at the least, see [`parallel_options`]): the
/// faulty record then lies in the first block, a middle one or the last, and with two
/// workers another worker reads the blocks around it. (A stream of [`stream_with_target`]
/// alone is shorter than 1 KiB: one block, which one worker reads.)
fn long_stream_with_target() -> impl Strategy<Value = (StreamGen, usize)> {
    const COPIES: usize = 30;
    (stream_with_target(), 0..=COPIES, any::<bool>()).prop_map(|((spec, k), before, crlf)| {
        // `[1000,1001,...,1007]`: 41 bytes and a line break.
        let items = (1000..1008).map(|i| (String::new(), Gen::Integer(i), String::new()));
        let filler = LineGen::Record {
            lead: String::new(),
            value: Gen::Array(items.collect(), String::new()),
            trail: String::new(),
        };
        let fillers = |count| std::iter::repeat_n((filler.clone(), crlf), count);
        let lines = fillers(before)
            .chain(spec.lines)
            .chain(fillers(COPIES - before))
            .collect();
        (StreamGen { lines, ..spec }, k + before)
    })
}

/// How parallel ingestion is run, always in input order: one worker or two, with blocks of
/// 1, 7 or 64 bytes or of the default size. (`split_blocks` raises a block size under 1 KiB
/// to 1 KiB, which [`repeated`] streams are long enough to cut.) The default size is drawn
/// less often: it fits any generated stream in one block, and a run with it takes some
/// milliseconds in a debug build, where the small sizes take a fraction of one.
fn parallel_options() -> impl Strategy<Value = ParallelOptions> {
    let block_size = prop_oneof![
        15 => prop::sample::select(vec![1, 7, 64]),
        1 => Just(ParallelOptions::default().block_size),
    ];
    (1usize..=2, block_size).prop_map(|(jobs, block_size)| ParallelOptions {
        jobs,
        ordered: true,
        block_size,
        ..ParallelOptions::default()
    })
}

// ----- faults -------------------------------------------------------------------------------

/// Bytes that may not stand between two tokens, whatever the tokens are. (No digit, `-`,
/// `.`, `e` or `"`: those may join a token or start a value of their own.)
const STRAY: &[u8] = &[
    b'#', b'@', b'\'', b'=', b';', b',', b':', b']', b'}', b'\\', b'/', 0x00, 0x01, 0x1f, 0x7f,
    0x80, 0xff,
];

/// Byte sequences that are not UTF-8 wherever they stand between two characters.
const BAD_UTF8: &[&[u8]] = &[
    b"\xff",
    b"\x80",
    b"\xc3",
    b"\xe2\x82",
    b"\xf0\x9f\x98",
    // Overlong, a surrogate, beyond U+10FFFF, a five-byte form.
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xf8\x88\x80\x80\x80",
];

/// What goes between two characters of a string.
#[derive(Debug, Clone, Copy)]
enum InString {
    Utf8(&'static [u8]),
    /// A raw control character other than a line break.
    Control(u8),
    LineBreak {
        crlf: bool,
    },
    Escape(&'static str),
    /// `\uD800` or `\uDC00`, which no character can pair with here.
    LoneSurrogate(&'static str),
}

/// One fault on one record's line, which sluice reports on that line.
#[derive(Debug, Clone)]
enum Fault {
    /// A [`STRAY`] byte put between two tokens, or before or after the value.
    Stray(u8, Index),
    InString(InString, Index),
    /// A second value after the record's, on its line.
    SecondValue(String, Gen),
    /// An opening bracket dropped.
    DropOpener(Index),
    /// A byte order mark before the value (after it, where the value opens the stream).
    Bom,
}

/// A fault by which a record runs into the lines after it.
#[derive(Debug, Clone)]
enum Spanning {
    /// A line break (CRLF when `true`) between two tokens of the value.
    Split(Index, bool),
    /// A closing bracket dropped.
    DropCloser(Index),
}

fn fault() -> impl Strategy<Value = Fault> {
    let in_string = prop_oneof![
        2 => prop::sample::select(BAD_UTF8.to_vec()).prop_map(InString::Utf8),
        1 => prop::sample::select(vec![0x00u8, 0x01, 0x08, 0x09, 0x0b, 0x0c, 0x1b, 0x1f])
            .prop_map(InString::Control),
        1 => any::<bool>().prop_map(|crlf| InString::LineBreak { crlf }),
        1 => prop::sample::select(vec!["\\x", "\\'", "\\U0041", "\\u12G4", "\\ "])
            .prop_map(InString::Escape),
        1 => prop::sample::select(vec!["\\uD800", "\\uDC00"]).prop_map(InString::LoneSurrogate),
    ];
    prop_oneof![
        3 => (prop::sample::select(STRAY.to_vec()), any::<Index>())
            .prop_map(|(byte, at)| Fault::Stray(byte, at)),
        3 => (in_string, any::<Index>()).prop_map(|(what, at)| Fault::InString(what, at)),
        1 => ("[ \t]{1,2}", value()).prop_map(|(space, value)| Fault::SecondValue(space, value)),
        1 => any::<Index>().prop_map(Fault::DropOpener),
        1 => Just(Fault::Bom),
    ]
}

fn spanning() -> impl Strategy<Value = Spanning> {
    prop_oneof![
        (any::<Index>(), any::<bool>()).prop_map(|(at, crlf)| Spanning::Split(at, crlf)),
        any::<Index>().prop_map(Spanning::DropCloser),
    ]
}

/// A stream with a fault in record `k`, and what is known of the error it must give.
#[derive(Debug)]
struct Broken {
    bytes: Vec<u8>,
    /// The record's 1-based line, and its bytes, its line break included.
    line: usize,
    line_range: Range<usize>,
    /// Where the fault was put: the error cannot end before it.
    at: usize,
    /// How many records read whole before the error: the broken one too, when the fault
    /// only follows a complete value; `intact` or one more when `or_one_more`.
    intact: usize,
    or_one_more: bool,
    /// How many of those are the generator's (not so when a bracket fault makes another
    /// value of the start of the line).
    known: usize,
    code: Option<ErrorCode>,
    /// Where the error must start, where that is certain.
    start: Option<usize>,
}

impl Broken {
    /// `bytes` with a fault at `at` in record `k` of `stream`.
    fn new(stream: &Stream, k: usize, bytes: Vec<u8>, at: usize) -> Broken {
        let written = &stream.records[k];
        let line_end = bytes[written.line_start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| written.line_start + i + 1);
        Broken {
            bytes,
            line: written.line,
            line_range: written.line_start..line_end,
            at,
            intact: k,
            or_one_more: false,
            known: k,
            code: None,
            start: None,
        }
    }
}

fn inserted(bytes: &[u8], at: usize, what: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out.splice(at..at, what.iter().copied());
    out
}

fn removed(bytes: &[u8], at: usize) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out.remove(at);
    out
}

fn apply(stream: &Stream, k: usize, fault: &Fault) -> Broken {
    let written = &stream.records[k];
    let bytes = &stream.bytes;
    match fault {
        Fault::Stray(byte, at) => {
            let mut places = vec![written.value.start];
            places.extend(&written.gaps);
            places.push(written.value.end);
            let at = places[at.index(places.len())];
            let mut broken = Broken::new(stream, k, inserted(bytes, at, &[*byte]), at);
            if at == written.value.end {
                // The value is whole; the byte is a second token on its line.
                broken.intact = k + 1;
                broken.known = k + 1;
                broken.code = Some(codes::TRAILING_TOKEN);
                broken.start = Some(at);
            } else if matches!(byte, b']' | b'}') {
                // A bracket may close a container, and the record early (`[1]` to
                // `[]1]`): the error is then at a later token.
                broken.or_one_more = true;
            } else {
                broken.start = Some(at);
            }
            broken
        }
        Fault::InString(what, at) => {
            let at = written.in_strings[at.index(written.in_strings.len())];
            let (text, code): (&[u8], _) = match what {
                InString::Utf8(bad) => (bad, codes::INVALID_UTF8),
                InString::Control(byte) => (std::slice::from_ref(byte), codes::CONTROL_CHARACTER),
                InString::LineBreak { crlf: true } => (b"\r\n", codes::CONTROL_CHARACTER),
                InString::LineBreak { crlf: false } => (b"\n", codes::CONTROL_CHARACTER),
                InString::Escape(escape) => (escape.as_bytes(), codes::INVALID_ESCAPE),
                InString::LoneSurrogate(escape) => (escape.as_bytes(), codes::LONE_SURROGATE),
            };
            let mut broken = Broken::new(stream, k, inserted(bytes, at, text), at);
            broken.code = Some(code);
            broken.start = Some(at);
            broken
        }
        Fault::SecondValue(space, value) => {
            let mut out = Out::default();
            out.bytes.extend_from_slice(space.as_bytes());
            out.value(value);
            let at = written.value.end;
            let mut broken = Broken::new(stream, k, inserted(bytes, at, &out.bytes), at);
            broken.intact = k + 1;
            broken.known = k + 1;
            broken.code = Some(codes::TRAILING_TOKEN);
            broken.start = Some(at + space.len());
            broken
        }
        Fault::DropOpener(at) => {
            let at = written.openers[at.index(written.openers.len())];
            let mut broken = Broken::new(stream, k, removed(bytes, at), at);
            if at == written.value.start {
                // The target's first item, or its first key, is now a value of its own,
                // and the `,` or `:` after it a second token on the line.
                broken.intact = k + 1;
                broken.code = Some(codes::TRAILING_TOKEN);
            } else {
                // The dropped bracket's partner may close the record early (`[[1]]` to
                // `[1]]`), leaving a second token on the line.
                broken.or_one_more = true;
            }
            broken
        }
        Fault::Bom => {
            const BOM: &[u8] = b"\xEF\xBB\xBF";
            if written.value.start > 0 {
                let at = written.value.start;
                let mut broken = Broken::new(stream, k, inserted(bytes, at, BOM), at);
                broken.code = Some(codes::UNEXPECTED_TOKEN);
                broken.start = Some(at);
                broken
            } else {
                let at = written.value.end;
                let mut broken = Broken::new(stream, k, inserted(bytes, at, BOM), at);
                broken.intact = k + 1;
                broken.known = k + 1;
                broken.code = Some(codes::TRAILING_TOKEN);
                broken.start = Some(at);
                broken
            }
        }
    }
}

fn apply_spanning(stream: &Stream, k: usize, fault: &Spanning) -> Broken {
    let written = &stream.records[k];
    match fault {
        Spanning::Split(at, crlf) => {
            let at = written.gaps[at.index(written.gaps.len())];
            let line_break: &[u8] = if *crlf { b"\r\n" } else { b"\n" };
            let mut broken = Broken::new(stream, k, inserted(&stream.bytes, at, line_break), at);
            // The value is cut where its line ends: at the line feed (a CR before it is
            // white space), with tokens still due.
            broken.code = Some(codes::UNEXPECTED_EOF);
            broken.start = Some(at + usize::from(*crlf));
            broken
        }
        Spanning::DropCloser(at) => {
            let at = written.closers[at.index(written.closers.len())];
            Broken::new(stream, k, removed(&stream.bytes, at), at)
        }
    }
}

// ----- the checks ---------------------------------------------------------------------------

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        // The same cases on every run, and no regression files written.
        rng_seed: RngSeed::Fixed(0x4E44_4A53),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Checks that sluice reports `broken`'s fault on its line, after reading every record
/// before it as written, the same on every path, and that the per-line oracle agrees.
fn check_broken(
    stream: &Stream,
    k: usize,
    broken: &Broken,
    chunk: usize,
) -> Result<(), TestCaseError> {
    let bytes = &broken.bytes;
    let shown = String::from_utf8_lossy(bytes);

    // serde_json, line by line: the first line it refuses is the broken one.
    let (lines, failed) = oracle(bytes);
    prop_assert_eq!(
        failed,
        Some(broken.line),
        "{:?}: serde_json's first bad line",
        shown
    );
    prop_assert_eq!(lines.len(), k);
    for ((line, value), written) in lines.iter().zip(&stream.records) {
        prop_assert_eq!(*line, written.line);
        prop_assert_eq!(agree(&written.tree, value, "$"), Ok(()));
    }

    let slice = read_slice(bytes, &[]);
    let Some(error) = &slice.error else {
        return Err(TestCaseError::fail(format!(
            "{shown:?}: sluice reads {} records and no error, line {} is no JSON text",
            slice.records.len(),
            broken.line
        )));
    };
    let read = slice.records.len();
    let expected = broken.intact..=broken.intact + usize::from(broken.or_one_more);
    prop_assert!(
        expected.contains(&read),
        "{:?}: {} records, {}",
        shown,
        read,
        error
    );
    for (i, (got, written)) in slice.records.iter().zip(&stream.records).enumerate() {
        prop_assert_eq!(got.line, written.line);
        if i < broken.known {
            prop_assert_eq!(got.offset, written.value.start);
            prop_assert_eq!(got.value.as_ref(), Some(&written.tree));
        }
    }

    // Where the error is: on the broken line, not before the fault.
    let Some(span) = error.span() else {
        return Err(TestCaseError::fail(format!(
            "{shown:?}: no span on {error}"
        )));
    };
    let Range { start, end } = broken.line_range;
    prop_assert!(
        start <= span.start && span.end <= end && span.end >= broken.at,
        "{:?}: {} at {:?}, the fault at {} on line {} ({}..{})",
        shown,
        error,
        span,
        broken.at,
        broken.line,
        start,
        end
    );
    if let Some(code) = broken.code {
        prop_assert_eq!(error.code(), code, "{:?}: {}", shown, error);
    }
    if let Some(at) = broken.start {
        prop_assert_eq!(span.start, at, "{:?}: {}", shown, error);
    }
    // The note names the record the error is in (the one after the whole ones) and its
    // line.
    let note = format!("in record {} (line {})", read + 1, broken.line);
    prop_assert!(
        error.notes().contains(&note),
        "{:?}: notes {:?}, expected {:?}",
        shown,
        error.notes(),
        note
    );

    // The `io::Read` path gives the same records and the same error; so does a read that
    // only peeks at each record and lets `next_record` skip the rest.
    let trickled = read_trickled(bytes, chunk, &[]);
    prop_assert_eq!(
        &trickled.records,
        &slice.records,
        "{:?} in {}-byte reads",
        shown,
        chunk
    );
    prop_assert_eq!(
        trickled.said(),
        slice.said(),
        "{:?} in {}-byte reads",
        shown,
        chunk
    );
    let skimmed = read_slice(bytes, &[true; 64]);
    prop_assert_eq!(skimmed.said(), slice.said(), "{:?} skimmed", shown);

    // The span, shown with the source, is on that line too.
    let Outcome { error, .. } = slice;
    let located = error.map(|e| e.with_source_text("stream", bytes).line_column());
    prop_assert_eq!(located.flatten().map(|p| p.line), Some(broken.line));
    Ok(())
}

/// Checks that parallel ingestion, run with `options`, reads `stream`, which has no fault, as
/// [`NdjsonReader`] does: the same records, with the same values, on the same lines, and no
/// error; and that [`parallel::ingest_records`] hands out the same values. Its record offsets
/// are where the records' lines start (the generator knows where), as [`RecordInfo::offset`]
/// says, where `NdjsonReader`'s are where their values start. `shown` names the stream in
/// failures.
fn check_parallel(
    stream: &Stream,
    chunk: usize,
    options: &ParallelOptions,
    shown: &str,
) -> Result<(), TestCaseError> {
    let bytes = &stream.bytes;
    let slice = read_slice(bytes, &[]);
    if let Some(error) = &slice.error {
        return Err(TestCaseError::fail(format!(
            "{shown}: sluice refuses it: {error}"
        )));
    }
    prop_assert_eq!(slice.records.len(), stream.records.len(), "{}", shown);
    let expected: Vec<Got> = slice
        .records
        .iter()
        .zip(&stream.records)
        .map(|(read, written)| Got {
            number: read.number,
            line: read.line,
            offset: written.line_start,
            value: read.value.clone(),
        })
        .collect();
    let ingested = ingest(bytes, chunk, options);
    let summary = match ingested.summary {
        Ok(summary) => summary,
        Err(error) => {
            return Err(TestCaseError::fail(format!(
                "{shown}: parallel ingestion refuses it: {error}"
            )));
        }
    };
    for (got, read) in ingested.records.iter().zip(&expected) {
        prop_assert_eq!(got, read, "{}", shown);
    }
    prop_assert_eq!(ingested.records.len(), expected.len(), "{}", shown);
    prop_assert_eq!(summary.records, expected.len() as u64, "{}", shown);
    prop_assert_eq!(summary.bytes, bytes.len() as u64, "{}", shown);
    prop_assert!(summary.errors.is_empty(), "{}: {:?}", shown, summary.errors);

    let mut values = Vec::new();
    let summary = parallel::ingest_records(
        bytes.as_slice(),
        options,
        |reader| read_whole(reader),
        |tree| {
            values.push(Some(tree));
            Ok(())
        },
    );
    if let Err(error) = summary {
        return Err(TestCaseError::fail(format!(
            "{shown}: ingest_records refuses it: {error}"
        )));
    }
    let read: Vec<_> = slice.records.into_iter().map(|r| r.value).collect();
    prop_assert!(values == read, "{}: ingest_records' values differ", shown);
    Ok(())
}

/// Checks that parallel ingestion, run with `options`, finds `broken`'s fault in record `k`
/// of `stream` as [`NdjsonReader`] reports it: stopping there with the same error code and
/// span (made absolute with the record's offset) on the same line; and with `skip_errors`,
/// collecting that record as the only bad one and reading every other record as the
/// generator wrote it, at the start of its line. A fault that puts a line break into the
/// record makes each of its lines a bad record: the first is unclosed, and the others close
/// what they never opened, so that serde_json refuses each of them too.
fn check_parallel_broken(
    stream: &Stream,
    k: usize,
    broken: &Broken,
    chunk: usize,
    options: &ParallelOptions,
) -> Result<(), TestCaseError> {
    let bytes = &broken.bytes;
    let shown = String::from_utf8_lossy(bytes);
    let slice = read_slice(bytes, &[]);
    let Some(expected) = &slice.error else {
        return Err(TestCaseError::fail(format!(
            "{shown:?}: sluice reads {} records and no error, line {} is no JSON text",
            slice.records.len(),
            broken.line
        )));
    };
    let Some(span) = expected.span() else {
        return Err(TestCaseError::fail(format!(
            "{shown:?}: no span on {expected}"
        )));
    };

    let breaks = |bytes: &[u8]| bytes.iter().filter(|&&b| b == b'\n').count();
    let added_lines = breaks(bytes)
        .checked_sub(breaks(&stream.bytes))
        .expect("no fault takes a line break out");
    let bad_lines: Vec<u64> = (broken.line..=broken.line + added_lines)
        .map(|line| line as u64)
        .collect();
    // The records after the broken one moved by the lines and bytes the fault put in (or
    // took out).
    let moved = broken.bytes.len() as isize - stream.bytes.len() as isize;
    let others: Vec<Got> = stream
        .records
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != k)
        .enumerate()
        .map(|(n, (i, written))| {
            let (lines, bytes) = if i < k { (0, 0) } else { (added_lines, moved) };
            Got {
                number: n as u64 + 1,
                line: written.line + lines,
                offset: written
                    .line_start
                    .checked_add_signed(bytes)
                    .expect("a record after the fault starts after it"),
                value: Some(written.tree.clone()),
            }
        })
        .collect();

    // Stopping at the first error: the bad record's, on its line.
    let stopped = ingest(bytes, chunk, options);
    let error = match stopped.summary {
        Ok(summary) => {
            return Err(TestCaseError::fail(format!(
                "{shown:?}: parallel ingestion reads {} records and no error, line {} is no \
                 JSON text",
                summary.records, broken.line
            )));
        }
        Err(error) => error,
    };
    prop_assert_eq!(error.code(), expected.code(), "{:?}: {}", shown, error);
    prop_assert_eq!(
        error.line_column().map(|p| p.line),
        Some(broken.line),
        "{:?}: {}",
        shown,
        error
    );
    // Whatever was delivered before the run stopped are records before the broken one.
    prop_assert!(
        stopped.records.len() <= k && others.starts_with(&stopped.records),
        "{:?}: delivered {:?}",
        shown,
        stopped.records
    );

    // Skipping errors: the bad record, at the error NdjsonReader gives, and every other.
    let skipping = ParallelOptions {
        skip_errors: true,
        ..options.clone()
    };
    let skipped = ingest(bytes, chunk, &skipping);
    let summary = match skipped.summary {
        Ok(summary) => summary,
        Err(error) => {
            return Err(TestCaseError::fail(format!(
                "{shown:?}: parallel ingestion stops at {error} though it skips errors"
            )));
        }
    };
    let lines: Vec<u64> = summary.errors.iter().map(|e| e.record.line).collect();
    prop_assert_eq!(
        &lines,
        &bad_lines,
        "{:?}: the lines of the bad records",
        shown
    );
    let first = &summary.errors[0];
    prop_assert_eq!(
        first.error.code(),
        expected.code(),
        "{:?}: {}",
        shown,
        first.error
    );
    prop_assert_eq!(
        absolute(first.error.span(), first.record.offset),
        Some(span),
        "{:?}: {} in the record at {}",
        shown,
        first.error,
        first.record.offset
    );
    prop_assert_eq!(
        error.span(),
        first.error.span(),
        "{:?}: the error that stopped the run",
        shown
    );
    for (got, written) in skipped.records.iter().zip(&others) {
        prop_assert_eq!(got, written, "{:?}", shown);
    }
    prop_assert_eq!(skipped.records.len(), others.len(), "{:?}", shown);
    prop_assert_eq!(summary.records, others.len() as u64, "{:?}", shown);
    Ok(())
}

// ----- the tests ----------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn generated_streams_read_as_written_and_as_serde_json_reads_each_line(
        spec in stream(),
        skim in prop::collection::vec(prop::bool::weighted(0.25), 12),
        chunk in 1usize..8,
    ) {
        let stream = render(&spec);
        let bytes = &stream.bytes;
        let shown = String::from_utf8_lossy(bytes);

        // The oracle reads every record the generator wrote, on its line.
        let (lines, failed) = oracle(bytes);
        prop_assert_eq!(failed, None, "{:?}: serde_json refuses a line", shown);
        prop_assert_eq!(lines.len(), stream.records.len());
        for ((line, value), written) in lines.iter().zip(&stream.records) {
            prop_assert_eq!(*line, written.line);
            if let Err(at) = agree(&written.tree, value, "$") {
                prop_assert!(false, "{:?}: the generator and serde_json differ at {}", shown, at);
            }
        }

        let slice = read_slice(bytes, &skim);
        if let Some(error) = &slice.error {
            prop_assert!(false, "{:?}: sluice refuses it: {}", shown, error);
        }
        prop_assert_eq!(slice.records.len(), stream.records.len(), "{:?}", shown);
        for (i, ((got, written), (_, value))) in
            slice.records.iter().zip(&stream.records).zip(&lines).enumerate()
        {
            prop_assert_eq!(
                (got.number, got.line, got.offset),
                (i as u64 + 1, written.line, written.value.start),
                "{:?}: record {}", shown, i + 1
            );
            if let Some(tree) = &got.value {
                prop_assert_eq!(tree, &written.tree, "{:?}: record {}", shown, i + 1);
                if let Err(at) = agree(tree, value, "$") {
                    prop_assert!(false, "{:?}: record {}: {}", shown, i + 1, at);
                }
            }
        }

        // The `&str` and `io::Read` paths read the same.
        let text = std::str::from_utf8(bytes).expect("generated streams are UTF-8");
        let direct = read_stream(NdjsonReader::from_str(text), &skim);
        prop_assert_eq!(&direct.records, &slice.records, "{:?} from a str", shown);
        prop_assert_eq!(direct.said(), None);
        let trickled = read_trickled(bytes, chunk, &skim);
        prop_assert_eq!(&trickled.records, &slice.records, "{:?} in {}-byte reads", shown, chunk);
        prop_assert_eq!(trickled.said(), None);
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn a_fault_in_one_line_is_an_error_on_that_line_after_every_record_before_it(
        (spec, k) in stream_with_target(),
        fault in fault(),
        chunk in 1usize..8,
    ) {
        let stream = render(&spec);
        let broken = apply(&stream, k, &fault);
        check_broken(&stream, k, &broken, chunk)?;
    }
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn a_record_broken_over_lines_is_an_error_on_its_first_line(
        (spec, k) in stream_with_target(),
        fault in spanning(),
        chunk in 1usize..8,
    ) {
        let stream = render(&spec);
        let broken = apply_spanning(&stream, k, &fault);
        check_broken(&stream, k, &broken, chunk)?;
    }
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn parallel_ingestion_reads_generated_streams_as_the_ndjson_reader_does(
        spec in stream(),
        chunk in 1usize..8,
        options in parallel_options(),
    ) {
        let shown = format!("{:?} over and over", String::from_utf8_lossy(&render(&spec).bytes));
        check_parallel(&repeated(&spec, 2 * 1024), chunk, &options, &shown)?;
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn parallel_ingestion_stops_at_or_skips_a_faulty_line_as_the_ndjson_reader_reports_it(
        (spec, k) in long_stream_with_target(),
        fault in fault(),
        chunk in 1usize..8,
        options in parallel_options(),
    ) {
        let stream = render(&spec);
        check_parallel_broken(&stream, k, &apply(&stream, k, &fault), chunk, &options)?;
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn parallel_ingestion_stops_at_or_skips_a_record_broken_over_lines_as_the_ndjson_reader_reports_it(
        (spec, k) in long_stream_with_target(),
        fault in spanning(),
        chunk in 1usize..8,
        options in parallel_options(),
    ) {
        let stream = render(&spec);
        check_parallel_broken(&stream, k, &apply_spanning(&stream, k, &fault), chunk, &options)?;
    }
}

#[test]
fn the_line_oracle_reads_ndjson_as_the_spec_says() {
    // CRLF, a whitespace-only line, an empty line, a BOM on the first line, no final break.
    let (records, failed) = oracle(b"\xEF\xBB\xBF[1]\r\n \t\r\n\n{\"a\":2}  \n\t\"x\"");
    assert_eq!(failed, None);
    let lines: Vec<usize> = records.iter().map(|r| r.0).collect();
    assert_eq!(lines, [1, 4, 5]);
    assert_eq!(records[1].1, serde_json::json!({"a": 2}));
    // A value split over two lines: neither line is a JSON text.
    assert_eq!(oracle(b"1\n\n[2,\n3]\n").1, Some(3));
    // A BOM opens the first line only.
    assert_eq!(oracle(b"1\n\xEF\xBB\xBF2\n").1, Some(2));
}

#[test]
fn serde_json_rounds_some_floats_off_where_sluice_is_exact() {
    // Shortest round-trip texts of two doubles; the standard library parses them correctly
    // rounded, as sluice does. serde_json without `float_roundtrip` lands one and two units
    // in the last place away: the slack its floats are compared with.
    for (text, off) in [("1.0715660391465826e-75", 1), ("-9.867437071726851e-60", 2)] {
        let exact: f64 = text.parse().unwrap();
        let mut records = NdjsonReader::from_str(text);
        let ours = records.next_record().unwrap().unwrap().read_f64().unwrap();
        assert_eq!(ours.to_bits(), exact.to_bits(), "{text}");
        let theirs: f64 = serde_json::from_str(text).unwrap();
        let apart = ulps_apart(theirs.to_bits(), exact.to_bits());
        assert_eq!(
            apart, off,
            "{text}: serde_json is closer now; tighten the slack"
        );
        assert!(apart <= SERDE_JSON_FLOAT_SLACK);
    }
}

/// Reads `text` and checks that the first record, on line 1, fails there.
#[track_caller]
fn assert_refused_on_line_one(text: &str) {
    let line_one = text.find('\n').map_or(text.len(), |i| i + 1);
    let read = read_slice(text.as_bytes(), &[]);
    assert!(read.records.is_empty(), "{text:?}: {:?}", read.records);
    let error = read.error.expect("an error: line 1 is no JSON text");
    let span = error.span().expect("a span");
    assert!(
        span.end <= line_one,
        "{text:?}: {error} at {span:?}, after line 1"
    );
    assert!(
        error.notes().iter().any(|n| n == "in record 1 (line 1)"),
        "{:?}",
        error.notes()
    );
}

#[test]
fn a_value_split_over_two_lines_is_an_error_on_its_first_line() {
    // `{"a":` and `1}` are no JSON texts: the spec keeps line breaks out of records, and
    // serde_json per line, and sluice's own parallel ingestion, refuse line 1.
    assert_refused_on_line_one("{\"a\":\n1}\n");
}

#[test]
fn a_missing_closing_bracket_is_reported_on_its_own_line() {
    // Once reported as json/ExpectComma at the `2` on line 2.
    assert_refused_on_line_one("[1\n2\n");
}
