//! Differential test of the JSON5 reader (`JsonOptions::json5()`) against the `json5` crate
//! and against the value the generator knows it wrote.
//!
//! Generated documents use every JSON5 feature (spec.json5.org, version 1.0.0): comments
//! and extra white space between all tokens, trailing commas, identifier keys, single
//! quotes, JSON5 escapes and line continuations, hexadecimal, signed, dotted and IEEE 754
//! special numbers. Mutated documents must be accepted or refused by both readers alike.
//!
//! Where the two readers differ, the spec decides. Constructs the `json5` crate reads
//! wrongly, or refuses under a range limit the spec permits, are the [`Quirk`]s: they are
//! found from the source text of each token and left out of the comparison, and
//! `the_json5_crate_quirks_left_out_are_real` pins each one. Refusals of sluice the crate
//! does not share are checked by [`permitted_refusal`]. The last tests pin three places
//! where this comparison found the reader wrong by the spec.

mod common;

use std::collections::HashSet;
use std::fmt;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::RngSeed;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use sluice_core::{Entry, Error, Reader, Span};
use sluice_json::{JsonOptions, JsonReader, codes};

// ----- values ---------------------------------------------------------------------------

/// A JSON5 value as either reader hands it out. Objects keep their members in order, so a
/// duplicate key stays visible.
#[derive(Debug, Clone)]
enum Tree {
    Null,
    Bool(bool),
    /// A number read as `f64` (sluice, the generator, and the json5 crate's non-integers).
    Number(f64),
    /// A number in integer syntax as the json5 crate hands it out: an `i64`.
    Integer(i64),
    String(String),
    Array(Vec<Tree>),
    Object(Vec<(String, Tree)>),
}

/// Where two trees differ, if they do. Numbers are equal when their bits are (so `-0` is not
/// `0`) or both are NaN. The json5 crate reads integer syntax into an `i64`, which has no
/// negative zero: its integers are compared by value, so `-0` from the crate matches sluice's
/// `-0.0` (the generator's values are always `Number`, so they are compared bit for bit).
fn difference(a: &Tree, b: &Tree, at: &str) -> Option<String> {
    let same = match (a, b) {
        (Tree::Null, Tree::Null) => true,
        (Tree::Bool(x), Tree::Bool(y)) => x == y,
        (Tree::Number(x), Tree::Number(y)) => {
            x.to_bits() == y.to_bits() || x.is_nan() && y.is_nan()
        }
        // `i64 as f64` rounds to nearest, as sluice's correctly rounded text parse does.
        (Tree::Integer(i), Tree::Number(x)) | (Tree::Number(x), Tree::Integer(i)) => {
            *i as f64 == *x
        }
        (Tree::Integer(i), Tree::Integer(j)) => i == j,
        (Tree::String(x), Tree::String(y)) => x == y,
        (Tree::Array(x), Tree::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{at} (lengths {} and {})", x.len(), y.len()));
            }
            return x
                .iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (x, y))| difference(x, y, &format!("{at}[{i}]")));
        }
        (Tree::Object(x), Tree::Object(y)) => {
            if x.iter().map(|m| &m.0).ne(y.iter().map(|m| &m.0)) {
                return Some(format!("{at} (keys {:?} and {:?})", keys(x), keys(y)));
            }
            return x
                .iter()
                .zip(y)
                .find_map(|((k, x), (_, y))| difference(x, y, &format!("{at}.{k}")));
        }
        _ => false,
    };
    (!same).then(|| format!("{at} ({a:?} and {b:?})"))
}

fn keys(members: &[(String, Tree)]) -> Vec<&str> {
    members.iter().map(|m| m.0.as_str()).collect()
}

fn has_duplicate_key(tree: &Tree) -> bool {
    match tree {
        Tree::Array(items) => items.iter().any(has_duplicate_key),
        Tree::Object(members) => {
            let mut seen = HashSet::new();
            members
                .iter()
                .any(|(k, v)| !seen.insert(k) || has_duplicate_key(v))
        }
        _ => false,
    }
}

/// The json5 crate builds a [`Tree`] through serde.
impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Tree, D::Error> {
        deserializer.deserialize_any(TreeVisitor)
    }
}

struct TreeVisitor;

impl<'de> Visitor<'de> for TreeVisitor {
    type Value = Tree;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON5 value")
    }

    fn visit_unit<E>(self) -> Result<Tree, E> {
        Ok(Tree::Null)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Tree, E> {
        Ok(Tree::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Tree, E> {
        Ok(Tree::Integer(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Tree, E> {
        Ok(Tree::Number(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Tree, E> {
        Ok(Tree::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Tree, E> {
        Ok(Tree::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Tree::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
        let mut members = Vec::new();
        while let Some(member) = map.next_entry()? {
            members.push(member);
        }
        Ok(Tree::Object(members))
    }
}

fn read_crate(text: &str) -> Result<Tree, json5::Error> {
    json5::from_str(text)
}

// ----- reading with sluice --------------------------------------------------------------

/// What a scalar token was, with its span in the source.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Scalar {
    Number(Span),
    /// A string or a key, quoted or not.
    Text(Span),
}

/// Reads one value into a tree through `peek` and `read_*`, noting every number, string and
/// key with its span.
fn tree<R: Reader>(reader: &mut R, scalars: &mut Vec<Scalar>) -> sluice_core::Result<Tree> {
    Ok(match reader.peek()? {
        Entry::Null => {
            reader.read_null()?;
            Tree::Null
        }
        Entry::Bool => Tree::Bool(reader.read_bool()?),
        Entry::String => {
            let text = reader.read_str()?.to_owned();
            scalars.push(Scalar::Text(reader.span()));
            Tree::String(text)
        }
        Entry::ArrayRoot => {
            reader.read_array_root()?;
            let mut items = Vec::new();
            while reader.peek()? != Entry::ArrayEnd {
                items.push(tree(reader, scalars)?);
            }
            reader.read_array_end()?;
            Tree::Array(items)
        }
        Entry::MapRoot => {
            reader.read_map_root()?;
            let mut members = Vec::new();
            while reader.peek()? != Entry::MapEnd {
                let key = reader.read_name()?.to_owned();
                scalars.push(Scalar::Text(reader.span()));
                members.push((key, tree(reader, scalars)?));
            }
            reader.read_map_end()?;
            Tree::Object(members)
        }
        entry if entry.is_number() => {
            let value = reader.read_f64()?;
            scalars.push(Scalar::Number(reader.span()));
            Tree::Number(value)
        }
        other => return Err(Error::custom(format!("no value here but {other:?}"))),
    })
}

fn read_sluice_with(text: &str, options: JsonOptions) -> sluice_core::Result<(Tree, Vec<Scalar>)> {
    let mut reader = JsonReader::from_str(text).with_options(options);
    let mut scalars = Vec::new();
    let value = tree(&mut reader, &mut scalars)?;
    reader.finish()?;
    Ok((value, scalars))
}

fn read_sluice(text: &str) -> sluice_core::Result<(Tree, Vec<Scalar>)> {
    read_sluice_with(text, JsonOptions::json5())
}

/// The same read through `io::Read`, `chunk` bytes at a time, so that tokens straddle
/// refills (and, for odd sizes, the window's moves: see [`common::trickle_input`]).
fn read_sluice_trickled(text: &str, chunk: usize) -> sluice_core::Result<Tree> {
    let input = common::trickle_input(text.as_bytes(), chunk);
    let mut reader = JsonReader::new(input, JsonOptions::json5());
    let value = tree(&mut reader, &mut Vec::new())?;
    reader.finish()?;
    Ok(value)
}

/// Checks that the `&str` and `io::Read` paths agree: the same tree, or the same error.
fn paths_agree(
    text: &str,
    direct: &sluice_core::Result<(Tree, Vec<Scalar>)>,
) -> Result<(), String> {
    let chunk = 1 + text.len() % 7;
    match (direct, read_sluice_trickled(text, chunk)) {
        (Ok((a, _)), Ok(b)) => match difference(a, &b, "$") {
            None => Ok(()),
            Some(at) => Err(format!(
                "{text:?}: read in {chunk}-byte chunks differs at {at}"
            )),
        },
        (Err(a), Err(b)) if a.code() == b.code() && a.span() == b.span() => Ok(()),
        (a, b) => Err(format!(
            "{text:?}: from a str {:?}, in {chunk}-byte chunks {:?}",
            a.as_ref().map(|(t, _)| t),
            b
        )),
    }
}

// ----- where the json5 crate departs from the spec --------------------------------------

/// A construct the json5 crate (0.4) reads differently from the spec, found in the source
/// text of a token. Documents with one are left out of the comparison with the crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quirk {
    /// `-0x1F`, `+0x1F`: the spec allows a sign before hexadecimal digits (§6 Numbers); the
    /// crate parses signed hex as decimal and fails. The crate is wrong.
    SignedHex,
    /// `+Infinity`, `+NaN`: the spec allows `+` before them (§6); the crate fails on them.
    /// The crate is wrong.
    PlusInfinityOrNaN,
    /// Decimal integers beyond `i64`: the crate reads integer syntax into an `i64` and fails.
    /// A range limit, which the spec permits (§10 Parsers).
    IntegerBeyondI64,
    /// Hexadecimal integers beyond `u32`: the crate reads hex into a `u32` and fails. A range
    /// limit, which the spec permits.
    HexBeyondU32,
    /// A raw U+2028 or U+2029 in a string: the spec allows both (§5 Strings, §5.2 Paragraph
    /// and Line Separators); the crate refuses them. The crate is wrong.
    RawSeparatorInString,
    /// A spacing combining mark (Mc) in an identifier key: ECMAScript 5.1 `IdentifierPart`
    /// takes Mn and Mc, which the spec adopts (§3 Objects); the crate checks the Diacritic
    /// property instead of Mc. The crate is wrong.
    SpacingMarkInKey,
    /// A `\uD8xx\uDCxx` pair escaping U+20000 to U+2FFFF (and every other code point whose
    /// bit 16, counted from U+10000, is set): the crate joins the halves with `|` where `+`
    /// is needed and reads U+20000 as U+10000. The crate is wrong.
    MisjoinedSurrogatePair,
}

/// Spacing combining marks (Mc) the generator puts in keys; none has the Diacritic property.
const SPACING_MARKS: [char; 2] = ['\u{903}', '\u{93e}'];

/// The characters with the Unicode Diacritic property that are no letters, marks, digits or
/// connectors (categories Sk, Po and Me), so no ECMAScript 5.1 identifier may hold them: the
/// json5 crate takes every Diacritic character as an identifier part.
const DIACRITICS: &[(char, char)] = &[
    ('^', '^'),
    ('`', '`'),
    ('\u{a8}', '\u{a8}'),
    ('\u{af}', '\u{af}'),
    ('\u{b4}', '\u{b4}'),
    ('\u{b7}', '\u{b8}'),
    ('\u{2c2}', '\u{2c5}'),
    ('\u{2d2}', '\u{2df}'),
    ('\u{2e5}', '\u{2eb}'),
    ('\u{2ed}', '\u{2ed}'),
    ('\u{2ef}', '\u{2ff}'),
    ('\u{375}', '\u{375}'),
    ('\u{384}', '\u{385}'),
    ('\u{1abe}', '\u{1abe}'),
    ('\u{1cd3}', '\u{1cd3}'),
    ('\u{1fbd}', '\u{1fbd}'),
    ('\u{1fbf}', '\u{1fc1}'),
    ('\u{1fcd}', '\u{1fcf}'),
    ('\u{1fdd}', '\u{1fdf}'),
    ('\u{1fed}', '\u{1fef}'),
    ('\u{1ffd}', '\u{1ffe}'),
    ('\u{309b}', '\u{309c}'),
    ('\u{a700}', '\u{a716}'),
    ('\u{a720}', '\u{a721}'),
    ('\u{a789}', '\u{a78a}'),
    ('\u{a92e}', '\u{a92e}'),
    ('\u{ab5b}', '\u{ab5b}'),
    ('\u{ab6a}', '\u{ab6b}'),
    ('\u{ff3e}', '\u{ff3e}'),
    ('\u{ff40}', '\u{ff40}'),
    ('\u{ffe3}', '\u{ffe3}'),
];

fn quirks(text: &str, scalars: &[Scalar]) -> Vec<Quirk> {
    let mut found = Vec::new();
    for scalar in scalars {
        match *scalar {
            Scalar::Number(span) => found.extend(number_quirk(&text[span.start..span.end])),
            Scalar::Text(span) => text_quirks(&text[span.start..span.end], &mut found),
        }
    }
    found
}

fn number_quirk(source: &str) -> Option<Quirk> {
    let unsigned = source.strip_prefix(['+', '-']);
    let body = unsigned.unwrap_or(source);
    if let Some(digits) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        if unsigned.is_some() {
            return Some(Quirk::SignedHex);
        }
        let small = u64::from_str_radix(digits, 16).is_ok_and(|v| v <= u64::from(u32::MAX));
        return (!small).then_some(Quirk::HexBeyondU32);
    }
    if source.starts_with('+') && matches!(body, "Infinity" | "NaN") {
        return Some(Quirk::PlusInfinityOrNaN);
    }
    let integer = !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit());
    (integer && source.parse::<i64>().is_err()).then_some(Quirk::IntegerBeyondI64)
}

fn text_quirks(source: &str, found: &mut Vec<Quirk>) {
    let quoted = source.starts_with(['"', '\'']);
    let mut rest = source;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '\\' => {
                if let Some(code) = rest.strip_prefix('u').and_then(escaped_pair)
                    && (code - 0x10000) & 0x10000 != 0
                {
                    found.push(Quirk::MisjoinedSurrogatePair);
                }
                // Step over the escaped character; the rest of an escape is plain ASCII.
                if let Some(next) = rest.chars().next() {
                    rest = &rest[next.len_utf8()..];
                }
            }
            '\u{2028}' | '\u{2029}' if quoted => found.push(Quirk::RawSeparatorInString),
            c if !quoted && SPACING_MARKS.contains(&c) => found.push(Quirk::SpacingMarkInKey),
            _ => {}
        }
    }
}

/// The code point of `XXXX\uYYYY` when it is a surrogate pair.
fn escaped_pair(text: &str) -> Option<u32> {
    let high = hex4(text)?;
    let low = hex4(text.get(4..)?.strip_prefix("\\u")?)?;
    ((0xD800..0xDC00).contains(&high) && (0xDC00..0xE000).contains(&low))
        .then(|| 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
}

fn hex4(text: &str) -> Option<u32> {
    let digits = text.get(..4)?;
    digits
        .bytes()
        .all(|b| b.is_ascii_hexdigit())
        .then(|| u32::from_str_radix(digits, 16).ok())
        .flatten()
}

/// Why sluice may refuse `text` with `error` where the json5 crate reads `theirs`, if the
/// spec says so.
fn permitted_refusal(text: &str, error: &Error, theirs: &Tree) -> Option<&'static str> {
    let span = error.span()?;
    let at = text.get(span.start..span.end)?;
    let after = text.get(span.end..)?;
    let code = error.code();
    if code == codes::DUPLICATE_KEY && has_duplicate_key(theirs) {
        // §3 Objects: "Implementations may report an error or fail to parse the object."
        return Some("duplicate key");
    }
    if code == codes::INVALID_ESCAPE
        && at == "\\0"
        && after.starts_with(|c: char| c.is_ascii_digit())
    {
        // ECMAScript 5.1 §7.8.4: `\0` must not be followed by a digit. The crate reads `\0`
        // and then the digit: the crate is wrong.
        return Some("`\\0` before a digit");
    }
    if code == codes::INVALID_ESCAPE && at.len() == 6 && at.starts_with("\\u") {
        // ECMAScript 5.1 §7.6: a `\u` escape in an identifier must stand for a character that
        // may stand there. The crate decodes any escape there: it is wrong whenever both
        // readers refuse the character itself there (or refuse it for a reason permitted
        // here). The place is the identifier's start, or any later place (which takes more:
        // digits, marks, connectors).
        let c = hex4(&at[2..]).and_then(char::from_u32)?;
        let before = text[..span.start].chars().next_back();
        let first =
            before.is_none_or(|b| matches!(b, '{' | ',' | '/' | '\u{feff}') || b.is_whitespace());
        let refused = |doc: String| match (read_sluice(&doc), read_crate(&doc)) {
            (Err(_), Err(_)) => true,
            (Err(e), Ok(theirs)) => permitted_refusal(&doc, &e, &theirs).is_some(),
            (Ok(_), _) => false,
        };
        let wrong = refused(format!("{{a{c}b: 1}}")) || (first && refused(format!("{{{c}b: 1}}")));
        return wrong.then_some("`\\u` escape of a character no identifier may hold there");
    }
    let mut chars = at.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && DIACRITICS
            .iter()
            .any(|&(first, last)| (first..=last).contains(&c))
    {
        // Not an identifier character (ECMAScript 5.1 §7.6), but a Diacritic one, which the
        // crate takes as an identifier part: the crate is wrong.
        return Some("Diacritic character in an identifier");
    }
    None
}

/// How the two readings of a document compare.
#[derive(Debug)]
enum Verdict {
    /// The same value, or both refuse.
    Agree,
    /// The document holds constructs the crate reads wrongly: no comparison.
    Quirks(Vec<Quirk>),
    /// Sluice refuses where the spec lets it.
    Permitted,
    Disagree,
}

fn verdict(
    text: &str,
    ours: &sluice_core::Result<(Tree, Vec<Scalar>)>,
    theirs: &Result<Tree, json5::Error>,
) -> Verdict {
    if let Ok((_, scalars)) = ours {
        let quirks = quirks(text, scalars);
        if !quirks.is_empty() {
            return Verdict::Quirks(quirks);
        }
    }
    match (ours, theirs) {
        (Ok((ours, _)), Ok(theirs)) if difference(ours, theirs, "$").is_none() => Verdict::Agree,
        (Err(_), Err(_)) => Verdict::Agree,
        (Err(e), Ok(theirs)) => {
            permitted_refusal(text, e, theirs).map_or(Verdict::Disagree, |_| Verdict::Permitted)
        }
        _ => Verdict::Disagree,
    }
}

fn agree(
    ours: &sluice_core::Result<(Tree, Vec<Scalar>)>,
    theirs: &Result<Tree, json5::Error>,
) -> bool {
    match (ours, theirs) {
        (Ok((ours, _)), Ok(theirs)) => difference(ours, theirs, "$").is_none(),
        (Err(_), Err(_)) => true,
        _ => false,
    }
}

// ----- generating JSON5 -----------------------------------------------------------------

/// A generated document: its text, the value it stands for, and whether it is plain JSON.
#[derive(Debug, Clone)]
struct Doc {
    text: String,
    value: Tree,
    plain: bool,
}

/// White space and comments between two tokens.
fn gap(plain: bool) -> BoxedStrategy<String> {
    const JSON: &[&str] = &[" ", "\t", "\n", "\r\n", "\r"];
    const JSON5: &[&str] = &[
        "\u{b}",
        "\u{c}",
        "\u{a0}",
        "\u{feff}",
        "\u{2028}",
        "\u{2029}",
        "\u{1680}",
        "\u{2003}",
        "\u{202f}",
        "\u{3000}",
        "// line comment\n",
        "//\r\n",
        "// ends at a carriage return\r",
        "// ends at a line separator\u{2028}",
        "// ends at a paragraph separator\u{2029}",
        "// other characters that start with the same byte: \u{2018}\u{2027}\u{202a}\u{20ac}\n",
        "// 'quotes' \"here\" /* not a block */ é 中 😀 \u{a0}\n",
        "/**/",
        "/***/",
        "/*/ still open */",
        "/* block */",
        "/* * / ** // \n 'multi' \"line\" \u{2028} */",
    ];
    let pieces: Vec<&str> = if plain {
        JSON.to_vec()
    } else {
        JSON.iter().chain(JSON5).copied().collect()
    };
    prop::collection::vec(prop::sample::select(pieces), 0..3)
        .prop_map(|pieces| pieces.concat())
        .boxed()
}

fn digits(len: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = String> {
    prop::collection::vec(0u8..10, len)
        .prop_map(|d| d.iter().map(|&d| char::from(b'0' + d)).collect())
}

/// Integer digits without a leading zero, short enough that one more digit from a
/// mutation stays within `i64`.
fn integer_digits() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("0".to_owned()),
        (1u8..10, digits(0..=11)).prop_map(|(d, rest)| format!("{d}{rest}")),
    ]
}

/// A decimal number: sign, integer digits, fraction, exponent; JSON5 drops either the
/// integer digits or the fraction digits and allows `+`.
fn decimal(plain: bool) -> BoxedStrategy<(String, Tree)> {
    let sign = if plain {
        prop::sample::select(vec!["", "-"])
    } else {
        prop::sample::select(vec!["", "-", "+"])
    };
    let int = if plain {
        integer_digits().prop_map(Some).boxed()
    } else {
        prop::option::weighted(0.75, integer_digits()).boxed()
    };
    let frac = if plain {
        prop::option::of(digits(1..=6)).boxed()
    } else {
        prop::option::of(digits(0..=6)).boxed()
    };
    let exp = prop::option::of((
        prop::sample::select(vec!['e', 'E']),
        prop::sample::select(vec!["", "+", "-"]),
        digits(1..=2),
    ));
    (sign, int, frac, exp)
        .prop_filter("a digit before or after the point", |(_, int, frac, _)| {
            int.is_some() || frac.as_ref().is_some_and(|f| !f.is_empty())
        })
        .prop_map(|(sign, int, frac, exp)| {
            let exp = exp
                .map(|(e, s, d)| format!("{e}{s}{d}"))
                .unwrap_or_default();
            let frac_text = frac.as_ref().map(|f| format!(".{f}")).unwrap_or_default();
            let text = format!("{sign}{}{frac_text}{exp}", int.as_deref().unwrap_or(""));
            // The value from JSON spelling, parsed by the standard library.
            let json = format!(
                "{}{}.{}{exp}",
                if sign == "-" { "-" } else { "" },
                int.as_deref().unwrap_or("0"),
                frac.filter(|f| !f.is_empty()).as_deref().unwrap_or("0"),
            );
            (text, Tree::Number(json.parse().unwrap()))
        })
        .boxed()
}

fn number(plain: bool) -> BoxedStrategy<(String, Tree)> {
    if plain {
        return decimal(true);
    }
    let hex = (
        prop::sample::select(vec!["", "-", "+"]),
        prop::sample::select(vec!["0x", "0X"]),
        prop::collection::vec(
            prop::sample::select("0123456789abcdefABCDEF".chars().collect::<Vec<_>>()),
            1..=10,
        ),
    )
        .prop_map(|(sign, prefix, digits)| {
            let digits: String = digits.into_iter().collect();
            let magnitude = u64::from_str_radix(&digits, 16).unwrap() as f64;
            let value = if sign == "-" { -magnitude } else { magnitude };
            (format!("{sign}{prefix}{digits}"), Tree::Number(value))
        });
    let special = prop::sample::select(vec![
        ("Infinity", f64::INFINITY),
        ("-Infinity", f64::NEG_INFINITY),
        ("+Infinity", f64::INFINITY),
        ("NaN", f64::NAN),
        ("-NaN", f64::NAN),
        ("+NaN", f64::NAN),
    ])
    .prop_map(|(text, value)| (text.to_owned(), Tree::Number(value)));
    // Beyond `i64` (and mostly beyond `u64`): valid JSON5 the crate refuses.
    let big = (1u8..10, digits(19..=21)).prop_map(|(d, rest)| {
        let text = format!("{d}{rest}");
        let value = text.parse().unwrap();
        (text, Tree::Number(value))
    });
    prop_oneof![
        6 => decimal(false),
        3 => hex,
        2 => special,
        1 => big,
    ]
    .boxed()
}

/// Part of a string: its source text and what it decodes to. `nul` marks a `\0` escape,
/// which must not be followed by a digit.
#[derive(Debug, Clone)]
struct Segment {
    raw: String,
    decoded: String,
    nul: bool,
}

impl Segment {
    fn new(raw: impl Into<String>, decoded: impl Into<String>) -> Segment {
        Segment {
            raw: raw.into(),
            decoded: decoded.into(),
            nul: false,
        }
    }
}

fn unicode_escape(c: char, upper: bool) -> String {
    let mut units = [0u16; 2];
    c.encode_utf16(&mut units)
        .iter()
        .map(|u| {
            if upper {
                format!("\\u{u:04X}")
            } else {
                format!("\\u{u:04x}")
            }
        })
        .collect()
}

fn segment(plain: bool, quote: char) -> BoxedStrategy<Segment> {
    let other_quote = if quote == '"' { '\'' } else { '"' };
    // Raw characters, none of which needs escaping in JSON5; JSON also escapes control
    // characters, which JSON5 needs escaped only when they break the line.
    let controls: &[char] = if plain {
        &[]
    } else {
        &['\t', '\u{0}', '\u{1f}']
    };
    let raw = prop::collection::vec(
        prop::sample::select(
            "aZ07 é中😀/*#\u{7f}\u{85}\u{a0}\u{feff}"
                .chars()
                .chain(controls.iter().copied())
                .chain([other_quote])
                .collect::<Vec<_>>(),
        ),
        1..4,
    )
    .prop_map(|chars| {
        let text: String = chars.into_iter().collect();
        Segment::new(text.clone(), text)
    });
    let json_escape = prop::sample::select(vec![
        ("\\\"", "\""),
        ("\\\\", "\\"),
        ("\\/", "/"),
        ("\\b", "\u{8}"),
        ("\\f", "\u{c}"),
        ("\\n", "\n"),
        ("\\r", "\r"),
        ("\\t", "\t"),
    ])
    .prop_map(|(raw, decoded)| Segment::new(raw, decoded));
    let bmp = (0u32..0xD800).prop_union(0xE000u32..0x10000);
    let bmp_escape = (bmp, any::<bool>()).prop_map(|(code, upper)| {
        let c = char::from_u32(code).unwrap();
        Segment::new(unicode_escape(c, upper), c)
    });
    // Mostly below U+20000, where the crate joins surrogate halves right.
    let astral = prop_oneof![4 => 0x10000u32..0x20000, 1 => 0x20000u32..=0x10FFFF];
    let pair_escape = (astral, any::<bool>()).prop_map(|(code, upper)| {
        let c = char::from_u32(code).unwrap();
        Segment::new(unicode_escape(c, upper), c)
    });
    if plain {
        return prop_oneof![4 => raw, 2 => json_escape, 1 => bmp_escape, 1 => pair_escape].boxed();
    }
    let json5_escape = prop::sample::select(vec![("\\'", "'"), ("\\v", "\u{b}"), ("\\0", "\0")])
        .prop_map(|(raw, decoded)| Segment {
            nul: raw == "\\0",
            ..Segment::new(raw, decoded)
        });
    let hex_escape = (any::<u8>(), any::<bool>()).prop_map(|(b, upper)| {
        let raw = if upper {
            format!("\\x{b:02X}")
        } else {
            format!("\\x{b:02x}")
        };
        Segment::new(raw, char::from(b))
    });
    // Any other character escapes to itself (`\X` too: only a lowercase `x` starts a hex
    // escape).
    let identity_escape =
        prop::sample::select(vec!['A', 'q', 'X', 'U', 'é', '中', '😀', ' ', '#', '%'])
            .prop_map(|c| Segment::new(format!("\\{c}"), c));
    let continuation =
        prop::sample::select(vec!["\\\n", "\\\r\n", "\\\r", "\\\u{2028}", "\\\u{2029}"])
            .prop_map(|raw| Segment::new(raw, ""));
    let separator =
        prop::sample::select(vec!["\u{2028}", "\u{2029}"]).prop_map(|c| Segment::new(c, c));
    prop_oneof![
        6 => raw,
        2 => json_escape,
        1 => bmp_escape,
        1 => pair_escape,
        2 => json5_escape,
        1 => hex_escape,
        1 => identity_escape,
        2 => continuation,
        1 => separator,
    ]
    .boxed()
}

fn join(segments: &[Segment], quote: char) -> (String, String) {
    let mut raw = String::from(quote);
    let mut decoded = String::new();
    for (i, segment) in segments.iter().enumerate() {
        let digit_next = segments
            .get(i + 1)
            .is_some_and(|next| next.raw.starts_with(|c: char| c.is_ascii_digit()));
        // `\0` before a digit is not a JSON5 escape: spell NUL `\x00` there.
        raw.push_str(if segment.nul && digit_next {
            "\\x00"
        } else {
            &segment.raw
        });
        decoded.push_str(&segment.decoded);
    }
    raw.push(quote);
    (raw, decoded)
}

/// A quoted string: its source text and its value.
fn string(plain: bool) -> BoxedStrategy<(String, String)> {
    let quote = if plain {
        Just('"').boxed()
    } else {
        prop::sample::select(vec!['"', '\'']).boxed()
    };
    quote
        .prop_flat_map(move |quote| {
            prop::collection::vec(segment(plain, quote), 0..5)
                .prop_map(move |segments| join(&segments, quote))
        })
        .boxed()
}

/// One character of an identifier: raw, or as a `\u` escape (BMP characters only).
fn identifier_char(chars: Vec<char>) -> impl Strategy<Value = (String, char)> {
    (prop::sample::select(chars), 0u8..4).prop_map(|(c, spelling)| {
        let raw = match spelling {
            1 if c <= '\u{ffff}' => unicode_escape(c, false),
            2 if c <= '\u{ffff}' => unicode_escape(c, true),
            _ => c.to_string(),
        };
        (raw, c)
    })
}

/// A key: an identifier (ASCII, other letters, marks, connectors, escapes, reserved words)
/// or a quoted string. Returns its source text and its value.
fn key(plain: bool) -> BoxedStrategy<(String, String)> {
    if plain {
        return string(true);
    }
    // Letters of every category `IdentifierStart` takes: Ll, Lu, Lo, Lt, Lm, Nl.
    let start: Vec<char> = "abcxyzABCXYZ$_éßЖπ中ǅʰⅷ𝒜".chars().collect();
    // Then digits (Nd), marks (Mn, Mc), connectors (Pc), ZWNJ and ZWJ.
    let part: Vec<char> = start
        .iter()
        .copied()
        .chain(['0', '9', '٣', '\u{301}', '‿', '\u{200c}', '\u{200d}'])
        .chain(SPACING_MARKS)
        .collect();
    let identifier = (
        identifier_char(start),
        prop::collection::vec(identifier_char(part), 0..4),
    )
        .prop_map(|((raw, c), rest)| {
            let mut text = raw;
            let mut name = c.to_string();
            for (raw, c) in rest {
                text.push_str(&raw);
                name.push(c);
            }
            (text, name)
        });
    // Reserved words and literal names are identifier names too.
    let reserved = prop::sample::select(vec![
        "null", "true", "false", "Infinity", "NaN", "if", "var",
    ])
    .prop_map(|word| (word.to_owned(), word.to_owned()));
    prop_oneof![3 => identifier, 1 => reserved, 2 => string(false)].boxed()
}

fn array(plain: bool, inner: BoxedStrategy<(String, Tree)>) -> BoxedStrategy<(String, Tree)> {
    (
        prop::collection::vec((gap(plain), inner, gap(plain)), 0..5),
        gap(plain),
        any::<bool>(),
    )
        .prop_map(move |(items, end, trailing)| {
            let mut text = String::from("[");
            let mut values = Vec::new();
            for (i, (before, (raw, value), after)) in items.into_iter().enumerate() {
                if i > 0 {
                    text.push(',');
                }
                text.push_str(&before);
                text.push_str(&raw);
                text.push_str(&after);
                values.push(value);
            }
            if trailing && !plain && !values.is_empty() {
                text.push(',');
            }
            text.push_str(&end);
            text.push(']');
            (text, Tree::Array(values))
        })
        .boxed()
}

fn object(plain: bool, inner: BoxedStrategy<(String, Tree)>) -> BoxedStrategy<(String, Tree)> {
    let member = (
        gap(plain),
        key(plain),
        gap(plain),
        gap(plain),
        inner,
        gap(plain),
    );
    (
        prop::collection::vec(member, 0..5),
        gap(plain),
        any::<bool>(),
    )
        .prop_map(move |(members, end, trailing)| {
            let mut text = String::from("{");
            let mut values = Vec::new();
            let mut seen = HashSet::new();
            // Unique keys: the readers may treat duplicates differently (see
            // `permitted_refusal`).
            for (g1, (raw_key, key), g2, g3, (raw, value), g4) in members {
                if !seen.insert(key.clone()) {
                    continue;
                }
                if !values.is_empty() {
                    text.push(',');
                }
                text.push_str(&format!("{g1}{raw_key}{g2}:{g3}{raw}{g4}"));
                values.push((key, value));
            }
            if trailing && !plain && !values.is_empty() {
                text.push(',');
            }
            text.push_str(&end);
            text.push('}');
            (text, Tree::Object(values))
        })
        .boxed()
}

fn value(plain: bool) -> BoxedStrategy<(String, Tree)> {
    let leaf = prop_oneof![
        Just(("null".to_owned(), Tree::Null)),
        any::<bool>().prop_map(|b| (b.to_string(), Tree::Bool(b))),
        number(plain),
        string(plain).prop_map(|(raw, text)| (raw, Tree::String(text))),
    ];
    leaf.prop_recursive(4, 32, 4, move |inner| {
        prop_oneof![array(plain, inner.clone()), object(plain, inner)]
    })
    .boxed()
}

fn doc_of(plain: bool) -> BoxedStrategy<Doc> {
    (gap(plain), value(plain), gap(plain), any::<bool>())
        .prop_map(move |(before, (raw, value), after, comment)| {
            let mut text = format!("{before}{raw}{after}");
            if comment && !plain {
                // A line comment may end the document without a line break.
                text.push_str("// last line");
            }
            Doc { text, value, plain }
        })
        .boxed()
}

/// Mostly JSON5; one document in four is plain JSON.
fn doc() -> BoxedStrategy<Doc> {
    prop_oneof![1 => doc_of(true), 3 => doc_of(false)].boxed()
}

/// One edit of a document, by character.
#[derive(Debug, Clone)]
enum Mutation {
    Delete(Index),
    Insert(Index, char),
    Replace(Index, char),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    // Characters that matter to JSON5 syntax, white space, and a few that never may stand
    // outside strings and comments.
    let c = prop::sample::select(vec![
        '{', '}', '[', ']', ':', ',', '\'', '"', '\\', '/', '*', '+', '-', '.', '0', '1', '9', 'x',
        'X', 'e', 'E', 'a', 'f', 'I', 'N', 'u', 'n', 't', '_', '$', '^', '`', '#', ' ', '\t', '\n',
        '\r', '\u{b}', '\u{0}', '\u{7f}', '\u{a0}', '\u{2028}', 'é',
    ]);
    prop_oneof![
        any::<Index>().prop_map(Mutation::Delete),
        (any::<Index>(), c.clone()).prop_map(|(i, c)| Mutation::Insert(i, c)),
        (any::<Index>(), c).prop_map(|(i, c)| Mutation::Replace(i, c)),
    ]
}

fn mutate(text: &str, mutation: &Mutation) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    match *mutation {
        Mutation::Delete(i) => {
            chars.remove(i.index(chars.len()));
        }
        Mutation::Insert(i, c) => chars.insert(i.index(chars.len() + 1), c),
        Mutation::Replace(i, c) => {
            let i = i.index(chars.len());
            chars[i] = c;
        }
    }
    chars.into_iter().collect()
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        // The same cases on every run, and no regression files written.
        rng_seed: RngSeed::Fixed(0x4A53_4F4E),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ----- the tests ------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn generated_documents_read_as_written_and_as_the_json5_crate_reads_them(doc in doc()) {
        let text = &doc.text;
        let direct = read_sluice(text);
        let (value, scalars) = match &direct {
            Ok(read) => read,
            Err(e) => return Err(TestCaseError::fail(format!("sluice refuses {text:?}: {e}"))),
        };
        if let Some(at) = difference(value, &doc.value, "$") {
            prop_assert!(false, "{text:?}: sluice reads another value than written, at {at}");
        }
        prop_assert_eq!(paths_agree(text, &direct), Ok(()));
        if doc.plain {
            // JSON5 extends JSON: plain JSON reads the same in strict mode.
            let strict = read_sluice_with(text, JsonOptions::strict());
            let same = strict.is_ok_and(|(t, _)| difference(&t, &doc.value, "$").is_none());
            prop_assert!(same, "{text:?}: strict mode reads it otherwise");
        }
        let quirks = quirks(text, scalars);
        let theirs = read_crate(text);
        if quirks.is_empty() {
            match &theirs {
                Ok(theirs) => {
                    if let Some(at) = difference(theirs, &doc.value, "$") {
                        prop_assert!(false, "{text:?}: the json5 crate differs at {at}");
                    }
                }
                Err(e) => prop_assert!(false, "{text:?}: the json5 crate refuses: {e}"),
            }
        } else {
            // Every quirk left out is one the crate really gets wrong.
            let right = theirs.is_ok_and(|t| difference(&t, &doc.value, "$").is_none());
            prop_assert!(!right, "{text:?}: the json5 crate reads it right despite {quirks:?}");
        }
    }
}

proptest! {
    #![proptest_config(config(320))]

    #[test]
    fn mutated_documents_are_accepted_and_refused_as_by_the_json5_crate(
        doc in doc(),
        mutations in prop::collection::vec(mutation(), 8),
    ) {
        for mutation in &mutations {
            let text = mutate(&doc.text, mutation);
            let ours = read_sluice(&text);
            prop_assert_eq!(paths_agree(&text, &ours), Ok(()));
            let theirs = read_crate(&text);
            match verdict(&text, &ours, &theirs) {
                Verdict::Agree | Verdict::Permitted => {}
                Verdict::Quirks(quirks) => {
                    // Every quirk left out is one the crate really gets wrong.
                    let right = agree(&ours, &theirs);
                    prop_assert!(!right, "{text:?}: the json5 crate is right despite {quirks:?}");
                }
                Verdict::Disagree => {
                    let ours = ours.map(|(t, _)| t);
                    prop_assert!(
                        false,
                        "{text:?}: sluice reads {ours:?}, the json5 crate reads {theirs:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_json5_crate_quirks_left_out_are_real() {
    let cases = [
        ("-0x1F", Tree::Number(-31.0), Quirk::SignedHex),
        ("+0x1F", Tree::Number(31.0), Quirk::SignedHex),
        ("-0x0", Tree::Number(-0.0), Quirk::SignedHex),
        (
            "+Infinity",
            Tree::Number(f64::INFINITY),
            Quirk::PlusInfinityOrNaN,
        ),
        ("+NaN", Tree::Number(f64::NAN), Quirk::PlusInfinityOrNaN),
        (
            "9223372036854775808",
            Tree::Number(9.223_372_036_854_776e18),
            Quirk::IntegerBeyondI64,
        ),
        (
            "0x100000000",
            Tree::Number(4_294_967_296.0),
            Quirk::HexBeyondU32,
        ),
        (
            "'a\u{2028}b'",
            Tree::String("a\u{2028}b".into()),
            Quirk::RawSeparatorInString,
        ),
        (
            "\"\u{2029}\"",
            Tree::String("\u{2029}".into()),
            Quirk::RawSeparatorInString,
        ),
        (
            "{a\u{903}: 1}",
            Tree::Object(vec![("a\u{903}".into(), Tree::Number(1.0))]),
            Quirk::SpacingMarkInKey,
        ),
        (
            "'\\uD840\\uDC00'",
            Tree::String("\u{20000}".into()),
            Quirk::MisjoinedSurrogatePair,
        ),
    ];
    for (text, expected, quirk) in cases {
        let (value, scalars) = read_sluice(text).unwrap();
        assert_eq!(difference(&value, &expected, "$"), None, "{text}");
        assert_eq!(quirks(text, &scalars), [quirk], "{text}");
        let agrees = read_crate(text).is_ok_and(|t| difference(&t, &expected, "$").is_none());
        assert!(
            !agrees,
            "the json5 crate now reads {text:?} right: drop {quirk:?}"
        );
    }
    // Their quirk-free neighbours are compared.
    for text in [
        "0x1F",
        "0XffffFFFF",
        "-Infinity",
        "-NaN",
        "'\\uD83D\\uDE00'",
        "'\\\u{2028}'",
        "{a\u{301}: 1}",
        // §5: only the quote, `\` and line terminators must be escaped in a string.
        "'a\tb'",
        "\"\u{0}\u{1f}\"",
    ] {
        let (value, scalars) = read_sluice(text).unwrap();
        assert_eq!(quirks(text, &scalars), [], "{text}");
        assert_eq!(
            difference(&value, &read_crate(text).unwrap(), "$"),
            None,
            "{text}"
        );
    }
    // `-0` in integer syntax: the crate's `i64` has no negative zero, so its integers are
    // compared by value; sluice keeps the sign, as ECMAScript does.
    let (value, _) = read_sluice("-0").unwrap();
    assert!(matches!(value, Tree::Number(v) if v.to_bits() == (-0.0f64).to_bits()));
    assert!(matches!(read_crate("-0"), Ok(Tree::Integer(0))));
}

#[test]
fn sluice_refusals_the_json5_crate_does_not_share_are_permitted_by_the_spec() {
    const ESCAPE: &str = "`\\u` escape of a character no identifier may hold there";
    let cases = [
        ("{a: 1, a: 2}", codes::DUPLICATE_KEY, "duplicate key"),
        ("'\\01'", codes::INVALID_ESCAPE, "`\\0` before a digit"),
        ("{\\u0021: 1}", codes::INVALID_ESCAPE, ESCAPE),
        ("{\\u0031a: 1}", codes::INVALID_ESCAPE, ESCAPE),
        ("{a\\u02F0: 1}", codes::INVALID_ESCAPE, ESCAPE),
        // White space is no identifier character, though `{a\t: 1}` is a document.
        ("{a\\u0009: 1}", codes::INVALID_ESCAPE, ESCAPE),
        (
            "{a^: 1}",
            codes::EXPECT_COLON,
            "Diacritic character in an identifier",
        ),
        (
            "{a: 1, b`c: 2}",
            codes::EXPECT_COLON,
            "Diacritic character in an identifier",
        ),
        (
            "{a\u{2c2}: 1}",
            codes::EXPECT_COLON,
            "Diacritic character in an identifier",
        ),
    ];
    for (text, code, reason) in cases {
        let error = read_sluice(text).unwrap_err();
        assert_eq!(error.code(), code, "{text}");
        let theirs = read_crate(text).unwrap();
        assert_eq!(
            permitted_refusal(text, &error, &theirs),
            Some(reason),
            "{text}"
        );
    }
    // Escapes of characters an identifier may hold are read by both.
    for text in ["{a\\u0031: 1}", "{\\u0061b: 1}", "{\\u00e9\\u0301: 1}"] {
        assert_eq!(
            difference(
                &read_sluice(text).unwrap().0,
                &read_crate(text).unwrap(),
                "$"
            ),
            None,
            "{text}"
        );
    }
}

/// Both readers read `text` as `expected`.
#[track_caller]
fn both_read(text: &str, expected: &Tree) {
    assert_eq!(
        difference(&read_crate(text).unwrap(), expected, "$"),
        None,
        "{text:?}"
    );
    match read_sluice(text) {
        Ok((value, _)) => assert_eq!(difference(&value, expected, "$"), None, "{text:?}"),
        Err(e) => panic!("{text:?}: {e}"),
    }
}

#[test]
fn a_backslash_before_a_control_character_escapes_it_to_itself() {
    // JSON5 1.0.0 §5.1: "If any other character follows a reverse solidus, that character
    // will be included in the string, but the reverse solidus will not." The grammar agrees:
    // ECMAScript 5.1 `NonEscapeCharacter` is any source character but an escape character or
    // a line terminator. The json5 crate reads these too.
    for c in ['\u{1}', '\t', '\u{7f}', '\u{85}'] {
        let text = format!("'\\{c}'");
        let expected = Tree::String(c.to_string());
        both_read(&text, &expected);
    }
}

#[test]
fn line_comments_end_at_every_line_terminator() {
    // JSON5 1.0.0 §7: "A single line comment begins with two soliduses and ends with a
    // LineTerminator", and ECMAScript 5.1 §7.3 line terminators are LF, CR, U+2028 and U+2029.
    // The json5 crate reads these too. What follows the separator is read, not skipped: a
    // stray word after it is an error.
    for separator in ['\u{2028}', '\u{2029}'] {
        let stray = format!("{{}}//{separator}garbage\r");
        // The comment ended at the separator: the word is a second value.
        let err = read_sluice(&stray).unwrap_err();
        let at = stray.find('g').unwrap();
        assert_eq!(
            (err.code(), err.span()),
            (
                codes::TRAILING_TOKEN,
                Some(Span::new(at, at + "garbage".len()))
            ),
            "{stray:?}"
        );
        assert!(read_crate(&stray).is_err(), "{stray:?}");
        let text = format!("[1 // one{separator}, 2]");
        let expected = Tree::Array(vec![Tree::Number(1.0), Tree::Number(2.0)]);
        both_read(&text, &expected);
    }
}

#[test]
fn identifier_keys_may_start_with_any_unicode_letter() {
    // JSON5 1.0.0 §3: a member name may be an ECMAScript 5.1 `IdentifierName`, whose first
    // character is a `UnicodeLetter`: any character of category Lu, Ll, Lt, Lm, Lo or Nl.
    // These letters are outside XID_Start (NFKC exceptions, and U+2E2F, a pattern character),
    // the table the reader looks most letters up in. The json5 crate reads them too.
    const LETTERS: &str = "\u{37a}\u{e33}\u{eb3}\u{2e2f}\u{fc5e}\u{fc5f}\u{fc60}\u{fc61}\
        \u{fc62}\u{fc63}\u{fdfa}\u{fdfb}\u{fe70}\u{fe72}\u{fe74}\u{fe76}\u{fe78}\u{fe7a}\
        \u{fe7c}\u{fe7e}\u{ff9e}\u{ff9f}";
    for c in LETTERS.chars() {
        let text = format!("{{{c}: 1}}");
        let expected = Tree::Object(vec![(c.to_string(), Tree::Number(1.0))]);
        both_read(&text, &expected);
    }
}
