//! Conformance helpers that any reader or writer can be checked with.
//!
//! Every format crate runs the same checks: [`sample_tokens`] produces a stream with every
//! kind of token the format supports; write it with the format's writer, read it back with the
//! format's reader through [`read_checked`] (which also checks the reader contract: `peek` is
//! repeatable, a wrong `read_*` is an error, `Ended` is sticky), and compare both sides after
//! [`normalize`], which erases the differences formats are allowed to have (length hints,
//! native-only kinds lowered, numbers compared by value).

use std::path::PathBuf;

use crate::{
    Entry, Error, Number, OwnedEnum, OwnedNumber, PutbackReader, Reader, Result, Span, Token,
};

/// A reader with nothing in it: `peek` is always `Ended`.
#[derive(Debug, Default, Clone, Copy)]
pub struct EmptyReader;

impl Reader for EmptyReader {
    fn peek(&mut self) -> Result<Entry> {
        Ok(Entry::Ended)
    }
    fn span(&self) -> Span {
        Span::default()
    }
    fn read_null(&mut self) -> Result<()> {
        Err(Error::unexpected("Null", Entry::Ended))
    }
    fn read_bool(&mut self) -> Result<bool> {
        Err(Error::unexpected("Bool", Entry::Ended))
    }
    fn read_str(&mut self) -> Result<&str> {
        Err(Error::unexpected("String", Entry::Ended))
    }
    fn read_name(&mut self) -> Result<&str> {
        Err(Error::unexpected("Name", Entry::Ended))
    }
    fn read_number(&mut self) -> Result<Number<'_>> {
        Err(Error::unexpected("Number", Entry::Ended))
    }
    fn read_map_root(&mut self) -> Result<Option<usize>> {
        Err(Error::unexpected("MapRoot", Entry::Ended))
    }
    fn read_map_end(&mut self) -> Result<()> {
        Err(Error::unexpected("MapEnd", Entry::Ended))
    }
    fn read_array_root(&mut self) -> Result<Option<usize>> {
        Err(Error::unexpected("ArrayRoot", Entry::Ended))
    }
    fn read_array_end(&mut self) -> Result<()> {
        Err(Error::unexpected("ArrayEnd", Entry::Ended))
    }
}

/// A reader that replays a script of tokens, each with a span, for testing writers and
/// error spans without a real format.
///
/// ```
/// use sluice_core::{Reader, Span, Token};
/// use sluice_core::testing::TokenReader;
/// let mut reader = TokenReader::with_spans([(Token::Bool(true), Span::new(3, 7))]);
/// assert!(reader.read_bool()?);
/// assert_eq!(reader.span(), Span::new(3, 7));
/// # Ok::<(), sluice_core::Error>(())
/// ```
pub type TokenReader = PutbackReader<EmptyReader>;

impl PutbackReader<EmptyReader> {
    /// A reader over `tokens`, with empty spans.
    pub fn from_tokens(tokens: impl IntoIterator<Item = Token>) -> TokenReader {
        TokenReader::with_spans(tokens.into_iter().map(|t| (t, Span::default())))
    }

    /// A reader over `tokens`, each with its span.
    pub fn with_spans(tokens: impl IntoIterator<Item = (Token, Span)>) -> TokenReader {
        let mut reader = PutbackReader::new(EmptyReader);
        let tokens: Vec<(Token, Span)> = tokens.into_iter().collect();
        for (token, span) in tokens.into_iter().rev() {
            reader.putback_with_span(token, span);
        }
        reader
    }
}

/// The directory of the public test corpora (JSONTestSuite, msgpack-test-suite, benchmark
/// files...): `$SLUICE_CORPUS` if set, else `shared/corpus` beside the workspace.
///
/// Returns `None` when it does not exist; see [`corpus_file`] for the test-side policy.
#[must_use]
pub fn corpus_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("SLUICE_CORPUS") {
        let dir = PathBuf::from(dir);
        return dir.is_dir().then_some(dir);
    }
    // This crate lives at <workspace>/crates/sluice-core; the corpus at <workspace>/../shared.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    dir.is_dir().then_some(dir)
}

/// A file or directory inside the corpus, for tests and benches.
///
/// When the corpus is missing: with `SLUICE_REQUIRE_CORPUS=1` (as in CI) this panics with a
/// message saying where it looked; otherwise it prints a notice and returns `None`, so the
/// caller can skip.
///
/// # Panics
/// When the corpus is required and missing.
#[must_use]
pub fn corpus_file(relative: &str) -> Option<PathBuf> {
    let found = corpus_dir()
        .map(|dir| dir.join(relative))
        .filter(|path| path.exists());
    if found.is_none() {
        let required = std::env::var("SLUICE_REQUIRE_CORPUS").is_ok_and(|v| v == "1");
        let message = format!(
            "corpus file {relative:?} not found: set SLUICE_CORPUS to the corpus directory \
             (see corpus/README.md)"
        );
        assert!(!required, "{message}");
        eprintln!("skipping: {message}");
    }
    found
}

/// Which token kinds a format can hold, for [`sample_tokens`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    /// Raw bytes (`Blob`).
    pub blob: bool,
    /// Extension values (`Ext`).
    pub ext: bool,
    /// Integers beyond 64 bits.
    pub int128: bool,
    /// Structs, sets, options and enums as tokens of their own.
    pub native: bool,
    /// Non-string map keys.
    pub any_keys: bool,
}

impl Features {
    /// What JSON holds: no bytes, no ext; big integers as text.
    pub const JSON: Features = Features {
        blob: false,
        ext: false,
        int128: true,
        native: false,
        any_keys: false,
    };
    /// What MessagePack holds.
    pub const MSGPACK: Features = Features {
        blob: true,
        ext: true,
        int128: false,
        native: false,
        any_keys: true,
    };
    /// Everything.
    pub const ALL: Features = Features {
        blob: true,
        ext: true,
        int128: true,
        native: true,
        any_keys: true,
    };
}

fn name(text: &str) -> Token {
    Token::Name(text.to_owned())
}

/// A stream that holds every kind of token `features` allows: one map with a key per kind,
/// with edge values (escapes, non-ASCII, integer limits, signed zero, empty containers).
#[must_use]
pub fn sample_tokens(features: Features) -> Vec<Token> {
    use OwnedNumber as N;
    let mut t = vec![Token::MapRoot(None)];
    t.extend([name("null"), Token::Null]);
    t.extend([
        name("true"),
        Token::Bool(true),
        name("false"),
        Token::Bool(false),
    ]);
    t.extend([
        name("string"),
        Token::String("plain".into()),
        name("escapes"),
        Token::String("quote \" backslash \\ slash / \u{8}\u{c}\n\r\t \u{1} \u{1f}".into()),
        name("unicode"),
        Token::String("héllo wörld 日本語 😀".into()),
        name("empty"),
        Token::String(String::new()),
        name("key with \"quotes\" and é"),
        Token::Null,
    ]);
    t.extend([
        name("zero"),
        Token::Number(N::U64(0)),
        name("i64_min"),
        Token::Number(N::I64(i64::MIN)),
        name("i64_max"),
        Token::Number(N::I64(i64::MAX)),
        name("u64_max"),
        Token::Number(N::U64(u64::MAX)),
        name("negative"),
        Token::Number(N::I64(-42)),
        name("float"),
        Token::Number(N::F64(0.1)),
        name("neg_zero"),
        Token::Number(N::F64(-0.0)),
        name("tiny"),
        Token::Number(N::F64(5e-324)),
        name("huge"),
        Token::Number(N::F64(1.797_693_134_862_315_7e308)),
        name("f32"),
        Token::Number(N::F32(1.5)),
    ]);
    if features.int128 {
        t.extend([
            name("i128_min"),
            Token::Number(N::I128(i128::MIN)),
            name("u128_max"),
            Token::Number(N::U128(u128::MAX)),
        ]);
    }
    t.extend([
        name("array"),
        Token::ArrayRoot(None),
        Token::Number(N::U64(1)),
        Token::String("two".into()),
        Token::ArrayRoot(None),
        Token::ArrayEnd,
        Token::MapRoot(None),
        Token::MapEnd,
        Token::ArrayRoot(None),
        Token::ArrayRoot(None),
        Token::Null,
        Token::ArrayEnd,
        Token::ArrayEnd,
        Token::ArrayEnd,
        name("object"),
        Token::MapRoot(None),
        name("nested"),
        Token::MapRoot(None),
        name("deep"),
        Token::Bool(false),
        Token::MapEnd,
        Token::MapEnd,
    ]);
    if features.blob {
        t.extend([
            name("blob"),
            Token::Blob(vec![0, 1, 2, 254, 255]),
            name("empty_blob"),
            Token::Blob(Vec::new()),
        ]);
    }
    if features.ext {
        t.extend([name("ext"), Token::Ext(42, vec![1, 2, 3])]);
    }
    if features.any_keys {
        t.extend([
            name("int_keys"),
            Token::MapRoot(None),
            Token::Number(N::U64(1)),
            Token::String("one".into()),
            Token::Bool(true),
            Token::Null,
            Token::MapEnd,
        ]);
    }
    if features.native {
        t.extend([
            name("struct"),
            Token::StructRoot("Point".into(), Some(2)),
            name("x"),
            Token::Number(N::F32(1.0)),
            name("y"),
            Token::Number(N::F32(-2.5)),
            Token::StructEnd,
            name("set"),
            Token::SetRoot(Some(2)),
            Token::String("a".into()),
            Token::String("b".into()),
            Token::SetEnd,
            name("none"),
            Token::OptionRoot,
            Token::Null,
            Token::OptionEnd,
            name("some"),
            Token::OptionRoot,
            Token::Number(N::I64(3)),
            Token::OptionEnd,
            name("enum"),
            Token::Enum(Box::new(OwnedEnum {
                type_name: "Distance".into(),
                variant: "Near".into(),
                value: 0,
                flags: false,
            })),
        ]);
    }
    t.push(Token::MapEnd);
    t
}

/// Reads every token of `reader` while checking the reader contract:
/// - `peek` answers the same entry when called twice;
/// - before each token, a read of a clearly different kind is refused without consuming
///   anything (checked on scalars, where it is cheap to see);
/// - after the last token, `peek` answers `Ended`, twice.
///
/// # Errors
/// The reader's own errors, or a [`CUSTOM`](crate::codes::CUSTOM) error describing the broken
/// rule.
pub fn read_checked<R: Reader + ?Sized>(reader: &mut R) -> Result<Vec<Token>> {
    let mut tokens = Vec::new();
    loop {
        let entry = reader.peek()?;
        let again = reader.peek()?;
        if entry != again {
            return Err(Error::custom(format!(
                "peek is not repeatable: {entry} then {again}"
            )));
        }
        if entry == Entry::Ended {
            break;
        }
        // A wrong read must fail and leave the token in place.
        let wrong = match entry {
            Entry::Bool => reader.read_null().err(),
            Entry::Null | Entry::String => reader.read_bool().err(),
            e if e.is_number() => reader.read_bool().err(),
            _ => Some(Error::custom("not checked")),
        };
        if wrong.is_none() {
            return Err(Error::custom(format!(
                "a mismatched read was accepted at {entry}"
            )));
        }
        if reader.peek()? != entry {
            return Err(Error::custom(format!(
                "a refused read consumed the token at {entry}"
            )));
        }
        tokens.push(Token::read(reader, entry)?);
    }
    if reader.peek()? != Entry::Ended {
        return Err(Error::custom("Ended is not sticky"));
    }
    Ok(tokens)
}

/// Erases the differences formats may have, so two streams can be compared by meaning:
/// - length hints are dropped;
/// - structs become maps, sets arrays; options disappear around their value; enums become
///   their variant name (or their value as a number);
/// - numbers become typed ([`Number::to_typed`](crate::Number::to_typed)), `F32` widened to `F64`;
/// - `String` in key position becomes `Name`.
#[must_use]
pub fn normalize(tokens: &[Token]) -> Vec<Token> {
    // Per open container: is it a map, and is the next item a key?
    let mut stack: Vec<(bool, bool)> = Vec::new();
    let mut out = Vec::with_capacity(tokens.len());
    for token in tokens {
        let at_key = matches!(stack.last(), Some((true, true)));
        let lowered = match token {
            Token::OptionRoot | Token::OptionEnd => continue,
            Token::MapRoot(_) | Token::StructRoot(..) => Token::MapRoot(None),
            Token::ArrayRoot(_) | Token::SetRoot(_) => Token::ArrayRoot(None),
            Token::StructEnd | Token::MapEnd => Token::MapEnd,
            Token::SetEnd | Token::ArrayEnd => Token::ArrayEnd,
            Token::String(s) if at_key => Token::Name(s.clone()),
            Token::Enum(owned) => {
                if owned.variant.is_empty() {
                    Token::Number(OwnedNumber::I64(owned.value))
                } else {
                    Token::String(owned.variant.clone())
                }
            }
            Token::Number(number) => {
                let typed = number.as_number().to_typed().map_or_else(
                    |_| number.clone(),
                    |n| match n.to_owned_number() {
                        OwnedNumber::F32(v) => OwnedNumber::F64(f64::from(v)),
                        other => other,
                    },
                );
                Token::Number(typed)
            }
            other => other.clone(),
        };
        // Track key/value alternation.
        let is_start = lowered.entry().is_container_start();
        let is_end = lowered.entry().is_container_end();
        if is_end {
            stack.pop();
        } else if let Some((true, expecting_key)) = stack.last_mut()
            && !is_start
        {
            *expecting_key = !*expecting_key;
        }
        if is_start {
            // A container as a value completes the pair when it closes; as a key likewise.
            if let Some((true, expecting_key)) = stack.last_mut() {
                *expecting_key = !*expecting_key;
            }
            stack.push((lowered.entry() == Entry::MapRoot, true));
        }
        out.push(lowered);
    }
    out
}

/// An [`io::Read`](std::io::Read) over `bytes` that hands out at most `chunk` bytes a call
/// (with `chunk` 1, a reader meets a refill at every byte boundary).
///
/// ```
/// use std::io::Read;
/// use sluice_core::testing::Trickle;
/// let mut source = Trickle { bytes: b"abc", chunk: 2 };
/// let mut buf = [0; 8];
/// assert_eq!(source.read(&mut buf)?, 2);
/// assert_eq!(source.read(&mut buf)?, 1);
/// assert_eq!(source.read(&mut buf)?, 0);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Trickle<'a> {
    /// The bytes not handed out yet.
    pub bytes: &'a [u8],
    /// The most bytes one call hands out.
    pub chunk: usize,
}

impl Trickle<'_> {
    /// One byte a call.
    #[must_use]
    pub fn one_byte(bytes: &[u8]) -> Trickle<'_> {
        Trickle { bytes, chunk: 1 }
    }
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.chunk.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// A small deterministic random generator (xorshift64) for generated test inputs: the same
/// seed gives the same sequence on every machine, so a failure reproduces.
///
/// ```
/// use sluice_core::testing::Rng;
/// let (mut a, mut b) = (Rng::new(7), Rng::new(7));
/// assert_eq!(a.next(), b.next());
/// ```
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator starting from `seed` (zero is replaced by a fixed non-zero seed, since
    /// xorshift would stay at zero forever).
    #[must_use]
    pub fn new(seed: u64) -> Rng {
        Rng(if seed == 0 {
            0x2545_f491_4f6c_dd1d
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ValueReader, ValueWriter, pipe};

    #[test]
    fn sample_with_every_feature_survives_a_value_round_trip_after_lowering() {
        let tokens = sample_tokens(Features::ALL);
        let mut writer = ValueWriter::new();
        Token::write_all(&tokens, &mut writer).unwrap();
        let value = writer.into_value().unwrap();
        let back = read_checked(&mut ValueReader::new(&value)).unwrap();
        assert_eq!(normalize(&back), normalize(&tokens));
        // And a pipe of the value gives the same value.
        let mut copy = ValueWriter::new();
        pipe(&mut ValueReader::new(&value), &mut copy).unwrap();
        assert_eq!(copy.into_value().unwrap(), value);
    }

    #[test]
    fn normalize_turns_string_keys_into_names_but_not_string_values() {
        let tokens = [
            Token::MapRoot(Some(1)),
            Token::String("k".into()),
            Token::String("v".into()),
            Token::MapEnd,
        ];
        assert_eq!(
            normalize(&tokens),
            vec![
                Token::MapRoot(None),
                Token::Name("k".into()),
                Token::String("v".into()),
                Token::MapEnd
            ]
        );
    }
}
