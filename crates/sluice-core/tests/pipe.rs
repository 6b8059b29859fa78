//! The pipe and its hooks, exercised through token scripts with spans.

use sluice_core::testing::TokenReader;
use sluice_core::{
    Entry, Error, ErrorCode, Flow, NoopWriter, Number, NumberHint, OwnedNumber, PipeVisitor,
    Reader, Result, Span, SpanHint, Token, Value, ValueReader, ValueWriter, Writer, codes, pipe,
    pipe_value,
};

const MISSING: ErrorCode = ErrorCode::new("test", "Missing");
const REFUSED: ErrorCode = ErrorCode::new("test", "Refused");

/// A writer that refuses strings, and refuses to close a map without key "id".
#[derive(Default)]
struct PickyWriter {
    inner: ValueWriter,
    saw_id: bool,
}

impl Writer for PickyWriter {
    fn write_null(&mut self) -> Result<()> {
        self.inner.write_null()
    }
    fn write_bool(&mut self, value: bool) -> Result<()> {
        self.inner.write_bool(value)
    }
    fn write_str(&mut self, _: &str) -> Result<()> {
        Err(Error::new(REFUSED, "no strings here"))
    }
    fn write_name(&mut self, name: &str) -> Result<()> {
        self.saw_id |= name == "id";
        self.inner.write_name(name)
    }
    fn write_number(&mut self, number: Number<'_>) -> Result<()> {
        self.inner.write_number(number)
    }
    fn write_map_root(&mut self, len: Option<usize>) -> Result<()> {
        self.inner.write_map_root(len)
    }
    fn write_map_end(&mut self) -> Result<()> {
        if !self.saw_id {
            return Err(Error::new(MISSING, "missing field id")
                .with_span_hint(SpanHint::EnclosingContainer));
        }
        self.inner.write_map_end()
    }
    fn write_array_root(&mut self, len: Option<usize>) -> Result<()> {
        self.inner.write_array_root(len)
    }
    fn write_array_end(&mut self) -> Result<()> {
        self.inner.write_array_end()
    }
}

fn spanned(script: &[(Token, usize, usize)]) -> TokenReader {
    TokenReader::with_spans(
        script
            .iter()
            .map(|(token, start, end)| (token.clone(), Span::new(*start, *end))),
    )
}

fn number(text: &str) -> Token {
    Token::Number(OwnedNumber::Text(text.into(), NumberHint::Integer))
}

#[test]
fn a_writer_error_points_at_the_token_being_copied() {
    // {"a": 1, "b": "x"}
    let mut reader = spanned(&[
        (Token::MapRoot(None), 0, 1),
        (Token::Name("a".into()), 1, 4),
        (number("1"), 6, 7),
        (Token::Name("b".into()), 9, 12),
        (Token::String("x".into()), 14, 17),
        (Token::MapEnd, 17, 18),
    ]);
    let err = pipe(&mut reader, &mut PickyWriter::default()).unwrap_err();
    assert_eq!(err.code(), REFUSED);
    assert_eq!(err.span(), Some(Span::new(14, 17)));
}

#[test]
fn a_missing_field_error_spans_the_whole_object() {
    // [0, {"a": 1}]
    let mut reader = spanned(&[
        (Token::ArrayRoot(None), 0, 1),
        (number("0"), 1, 2),
        (Token::MapRoot(None), 4, 5),
        (Token::Name("a".into()), 5, 8),
        (number("1"), 10, 11),
        (Token::MapEnd, 11, 12),
        (Token::ArrayEnd, 12, 13),
    ]);
    let err = pipe(&mut reader, &mut PickyWriter::default()).unwrap_err();
    assert_eq!(err.code(), MISSING);
    assert_eq!(err.span(), Some(Span::new(4, 12)));
}

#[test]
fn pipe_value_copies_one_value_and_leaves_the_rest() {
    let mut reader = TokenReader::from_tokens([
        Token::ArrayRoot(None),
        Token::Bool(true),
        Token::ArrayEnd,
        Token::Null,
    ]);
    let mut writer = ValueWriter::new();
    pipe_value(&mut reader, &mut writer).unwrap();
    assert_eq!(
        writer.into_value().unwrap(),
        Value::Array(vec![Value::Bool(true)])
    );
    assert_eq!(reader.peek().unwrap(), Entry::Null);
}

#[test]
fn pipe_value_refuses_an_end_or_nothing() {
    let mut reader = TokenReader::from_tokens([Token::ArrayEnd]);
    let err = pipe_value(&mut reader, &mut NoopWriter::new()).unwrap_err();
    assert_eq!(err.code(), codes::UNEXPECTED_ENTRY);
    let mut empty = TokenReader::from_tokens([]);
    let err = pipe_value(&mut empty, &mut NoopWriter::new()).unwrap_err();
    assert_eq!(err.code(), codes::UNEXPECTED_ENTRY);
    // A container that never closes.
    let mut open = TokenReader::from_tokens([Token::ArrayRoot(None), Token::Null]);
    let err = pipe_value(&mut open, &mut NoopWriter::new()).unwrap_err();
    assert_eq!(err.code(), codes::UNEXPECTED_ENTRY);
}

#[test]
fn on_peek_skip_drops_whole_values() {
    let value = Value::Array(vec![
        Value::from(1u64),
        Value::from("drop me"),
        Value::Array(vec![Value::from("and me")]),
        Value::from(2u64),
    ]);
    let mut writer = ValueWriter::new();
    let mut depth = 0;
    PipeVisitor::new()
        .on_peek(|entry| {
            let at_element = depth == 1;
            if entry.is_container_start() {
                depth += 1;
            } else if entry.is_container_end() {
                depth -= 1;
            }
            if at_element && (entry == Entry::String || entry == Entry::ArrayRoot) {
                if entry == Entry::ArrayRoot {
                    depth -= 1;
                }
                return Ok(Flow::Skip);
            }
            Ok(Flow::Pass)
        })
        .run(&mut ValueReader::new(&value), &mut writer)
        .unwrap();
    assert_eq!(
        writer.into_value().unwrap(),
        Value::Array(vec![Value::from(1u64), Value::from(2u64)])
    );
}

#[test]
fn before_hook_can_rewrite_numbers() {
    let value = Value::Array(vec![Value::from(1u64), Value::from(2u64)]);
    let mut writer = ValueWriter::new();
    PipeVisitor::new()
        .before(|entry, reader, writer| {
            if !entry.is_number() {
                return Ok(Flow::Pass);
            }
            let n = reader.read_u64()?;
            writer.write_u64(n * 10)?;
            Ok(Flow::Skip)
        })
        .run(&mut ValueReader::new(&value), &mut writer)
        .unwrap();
    assert_eq!(
        writer.into_value().unwrap(),
        Value::Array(vec![Value::from(10u64), Value::from(20u64)])
    );
}

#[test]
fn stop_ends_the_pipe_early_without_error() {
    let value = Value::Array(vec![
        Value::from(1u64),
        Value::from(2u64),
        Value::from(3u64),
    ]);
    let mut seen = 0;
    let mut sink = NoopWriter::new();
    PipeVisitor::new()
        .after(|entry, _, _| {
            if entry.is_number() {
                seen += 1;
            }
            Ok(if seen == 2 { Flow::Stop } else { Flow::Pass })
        })
        .run(&mut ValueReader::new(&value), &mut sink)
        .unwrap();
    assert_eq!(sink.tokens(), 3); // ArrayRoot, 1, 2
}

#[test]
fn hook_errors_stop_the_pipe() {
    let value = Value::Array(vec![Value::from("x")]);
    let err = PipeVisitor::new()
        .on_peek(|entry| {
            if entry == Entry::String {
                Err(Error::custom("no strings"))
            } else {
                Ok(Flow::Pass)
            }
        })
        .run(&mut ValueReader::new(&value), &mut NoopWriter::new())
        .unwrap_err();
    assert_eq!(err.code(), codes::CUSTOM);
}

#[test]
fn pipe_works_through_trait_objects() {
    let value = Value::Map(vec![(Value::from("k"), Value::from(true))]);
    let mut value_reader = ValueReader::new(&value);
    let mut value_writer = ValueWriter::new();
    {
        let reader: &mut dyn Reader = &mut value_reader;
        let writer: &mut dyn Writer = &mut value_writer;
        pipe(reader, writer).unwrap();
    }
    assert_eq!(value_writer.into_value().unwrap(), value);
}

#[test]
fn pipe_value_and_token_read_at_an_end_point_at_that_end_which_stays() {
    // [null] with its bytes' spans: the refusal of the `]` spans the `]`, not the `null`
    // read before it, and the `]` is still there to read.
    let mut reader = spanned(&[
        (Token::ArrayRoot(None), 0, 1),
        (Token::Null, 1, 5),
        (Token::ArrayEnd, 5, 6),
    ]);
    reader.read_array_root().unwrap();
    reader.read_null().unwrap();
    let err = pipe_value(&mut reader, &mut NoopWriter::new()).unwrap_err();
    assert_eq!(
        (err.code(), err.span()),
        (codes::UNEXPECTED_ENTRY, Some(Span::new(5, 6)))
    );
    assert_eq!(reader.peek().unwrap(), Entry::ArrayEnd);
    reader.read_array_end().unwrap();
}

#[test]
fn on_peek_skip_at_a_key_drops_the_whole_member() {
    // The key alone used to be dropped, and its value then stood where a key must.
    let value = Value::Map(vec![
        (Value::from("keep"), Value::from(1u64)),
        (
            Value::from("drop"),
            Value::Array(vec![Value::from("x"), Value::Null]),
        ),
        (Value::from("also"), Value::from(2u64)),
    ]);
    let mut keys = 0;
    let mut writer = ValueWriter::new();
    PipeVisitor::new()
        .on_peek(|entry| {
            if entry == Entry::Name {
                keys += 1;
                if keys == 2 {
                    return Ok(Flow::Skip);
                }
            }
            Ok(Flow::Pass)
        })
        .run(&mut ValueReader::new(&value), &mut writer)
        .unwrap();
    assert_eq!(
        writer.into_value().unwrap(),
        Value::Map(vec![
            (Value::from("keep"), Value::from(1u64)),
            (Value::from("also"), Value::from(2u64)),
        ])
    );
}
