//! `PutbackReader`, `TeeWriter`, `DumpWriter` and `NoopWriter`.

use sluice_core::testing::{Features, TokenReader, normalize, read_checked, sample_tokens};
use sluice_core::{
    DumpWriter, Entry, NoopWriter, PutbackReader, Reader, Span, TeeWriter, Token, Value,
    ValueReader, ValueWriter, Writer, codes, pipe,
};

#[test]
fn putback_replays_a_lookahead_so_the_stream_reads_whole() {
    // Look for "$type" in an object, then put back what was read before it.
    let value = Value::Map(vec![
        (Value::from("x"), Value::from(1u64)),
        (Value::from("$type"), Value::from("Circle")),
        (Value::from("r"), Value::from(2u64)),
    ]);
    let mut reader = PutbackReader::new(ValueReader::new(&value));
    let mut seen = Vec::new();
    seen.push(Token::read(&mut reader, Entry::MapRoot).unwrap());
    let type_name = loop {
        let name = reader.read_name().unwrap().to_owned();
        if name == "$type" {
            break reader.read_str().unwrap().to_owned();
        }
        seen.push(Token::Name(name));
        let entry = reader.peek().unwrap();
        seen.push(Token::read(&mut reader, entry).unwrap());
    };
    assert_eq!(type_name, "Circle");
    reader.putback_all(seen);
    let mut writer = ValueWriter::new();
    pipe(&mut reader, &mut writer).unwrap();
    let rest = writer.into_value().unwrap();
    assert_eq!(rest.get("x"), Some(&Value::from(1u64)));
    assert_eq!(rest.get("r"), Some(&Value::from(2u64)));
    assert!(rest.get("$type").is_none());
}

#[test]
fn putback_is_last_in_first_out_and_refuses_mismatched_reads() {
    let mut reader = TokenReader::from_tokens([]);
    reader.putback(Token::Bool(true));
    reader.putback(Token::Null);
    assert_eq!(reader.pending(), 2);
    assert_eq!(reader.peek().unwrap(), Entry::Null);
    let err = reader.read_bool().unwrap_err();
    assert_eq!(err.code(), codes::UNEXPECTED_ENTRY);
    reader.read_null().unwrap();
    assert!(reader.read_bool().unwrap());
    assert_eq!(reader.peek().unwrap(), Entry::Ended);
}

#[test]
fn putback_reports_the_span_of_each_replayed_token() {
    let mut reader = TokenReader::with_spans([
        (Token::String("a".into()), Span::new(0, 3)),
        (Token::String("b".into()), Span::new(5, 8)),
    ]);
    reader.read_str().unwrap();
    assert_eq!(reader.span(), Span::new(0, 3));
    reader.read_str().unwrap();
    assert_eq!(reader.span(), Span::new(5, 8));
}

#[test]
fn a_refused_replayed_token_gives_its_span_and_stays() {
    let value = Value::from(7u64);
    let mut reader = PutbackReader::new(ValueReader::new(&value));
    reader.read_u64().unwrap();
    reader.putback_with_span(Token::Bool(true), Span::new(10, 14));
    let err = reader.read_null().unwrap_err();
    assert_eq!(err.code(), codes::UNEXPECTED_ENTRY);
    assert_eq!(err.span(), Some(Span::new(10, 14)));
    // `span` points at the refused token, not at the one read before it.
    assert_eq!(reader.span(), Span::new(10, 14));
    assert!(reader.read_bool().unwrap());
    assert_eq!(reader.span(), Span::new(10, 14));
    assert_eq!(reader.peek().unwrap(), Entry::Ended);
}

#[test]
fn token_reader_honours_the_reader_contract_for_every_kind() {
    let tokens = sample_tokens(Features::ALL);
    let read = read_checked(&mut TokenReader::from_tokens(tokens.clone())).unwrap();
    assert_eq!(read, tokens);
}

#[test]
fn skip_on_a_putback_reader_skips_replayed_containers() {
    let mut reader = TokenReader::from_tokens([
        Token::ArrayRoot(None),
        Token::Null,
        Token::ArrayEnd,
        Token::Bool(false),
    ]);
    reader.skip().unwrap();
    assert!(!reader.read_bool().unwrap());
}

#[test]
fn tee_sends_every_token_to_every_writer() {
    let tokens = sample_tokens(Features::ALL);
    let mut values = ValueWriter::new();
    let mut count = NoopWriter::new();
    let mut dump = DumpWriter::new(Vec::new());
    {
        let mut tee = TeeWriter::new(vec![&mut values, &mut count, &mut dump]);
        Token::write_all(&tokens, &mut tee).unwrap();
        tee.finish().unwrap();
    }
    assert_eq!(count.tokens(), tokens.len() as u64);
    let value = values.into_value().unwrap();
    let back = Token::read_all(&mut ValueReader::new(&value)).unwrap();
    assert_eq!(normalize(&back), normalize(&tokens));
    let text = String::from_utf8(dump.into_inner()).unwrap();
    assert_eq!(text.lines().count(), tokens.len());
}

#[test]
fn tee_stops_at_the_first_failing_writer() {
    let mut values = ValueWriter::new();
    let mut count = NoopWriter::new();
    let mut tee = TeeWriter::new(vec![&mut values, &mut count]);
    // A name at the root is invalid for the value writer: the error comes back.
    assert_eq!(
        tee.write_name("k").unwrap_err().code(),
        codes::INVALID_STRUCTURE
    );
}

#[test]
fn dump_indents_by_depth_and_shows_every_kind() {
    let tokens = [
        Token::StructRoot("Point".into(), Some(1)),
        Token::Name("tags".into()),
        Token::SetRoot(None),
        Token::Blob(vec![1, 2, 255]),
        Token::Ext(-1, vec![0; 20]),
        Token::SetEnd,
        Token::StructEnd,
    ];
    let mut dump = DumpWriter::new(Vec::new());
    Token::write_all(&tokens, &mut dump).unwrap();
    let text = String::from_utf8(dump.into_inner()).unwrap();
    let expected = "\
<StructRoot> 'Point' (1)
|---<Name> 'tags'
|---<SetRoot>
|---|---<Blob> 3 bytes [01 02 ff]
|---|---<Ext> type -1, 20 bytes [00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 ...]
|---<SetEnd>
<StructEnd>
";
    assert_eq!(text, expected);
}

#[test]
fn dump_escapes_strings_so_each_token_stays_on_one_line() {
    let mut dump = DumpWriter::new(Vec::new());
    dump.write_str("a\nb'c").unwrap();
    let text = String::from_utf8(dump.into_inner()).unwrap();
    assert_eq!(text, "<String> 'a\\nb\\'c'\n");
}
