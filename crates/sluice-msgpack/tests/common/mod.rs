//! Helpers shared by the integration tests.
#![allow(dead_code, unreachable_pub)]

use serde_json::Value as J;
use sluice_core::{Entry, Number, NumberHint, Reader, Result, Token, Writer};
use sluice_msgpack::{MsgPackReader, MsgPackWriter};

/// Bytes from `"c4-01-01"` (the test suite's notation) or plain hex.
pub fn hex(text: &str) -> Vec<u8> {
    let digits: Vec<u8> = text.bytes().filter(u8::is_ascii_hexdigit).collect();
    digits
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap())
        .collect()
}

/// Writes `tokens` with a fresh writer and returns the bytes.
pub fn write_tokens(tokens: &[Token]) -> Result<Vec<u8>> {
    let mut writer = MsgPackWriter::new(Vec::new());
    Token::write_all(tokens, &mut writer)?;
    writer.into_inner()
}

/// Reads every token of `bytes`.
pub fn read_tokens(bytes: &[u8]) -> Result<Vec<Token>> {
    Token::read_all(&mut MsgPackReader::from_slice(bytes))
}

/// Decodes one MessagePack value into a `serde_json::Value` (str keys only), for comparing
/// with JSON expectations.
pub fn to_json<R: Reader>(reader: &mut R) -> Result<serde_json::Value> {
    Ok(match reader.peek()? {
        Entry::Null => {
            reader.read_null()?;
            J::Null
        }
        Entry::Bool => J::Bool(reader.read_bool()?),
        Entry::String | Entry::Name => J::String(reader.read_str()?.to_owned()),
        Entry::F32 | Entry::F64 => J::from(reader.read_f64()?),
        Entry::I8 | Entry::I16 | Entry::I32 | Entry::I64 => J::from(reader.read_i64()?),
        e if e.is_number() => J::from(reader.read_u64()?),
        Entry::ArrayRoot => {
            let len = reader.read_array_root()?.unwrap_or(0);
            let mut items = Vec::with_capacity(len);
            while reader.peek()? != Entry::ArrayEnd {
                items.push(to_json(reader)?);
            }
            reader.read_array_end()?;
            J::Array(items)
        }
        Entry::MapRoot => {
            reader.read_map_root()?;
            let mut map = serde_json::Map::new();
            while reader.peek()? != Entry::MapEnd {
                let key = reader.read_name()?.to_owned();
                map.insert(key, to_json(reader)?);
            }
            reader.read_map_end()?;
            J::Object(map)
        }
        other => panic!("to_json: unexpected {other}"),
    })
}

/// Writes a `serde_json::Value` as tokens (numbers as JSON text, as a JSON reader would).
pub fn write_json<W: Writer>(writer: &mut W, value: &J) -> Result<()> {
    match value {
        J::Null => writer.write_null(),
        J::Bool(b) => writer.write_bool(*b),
        J::Number(n) => {
            let text = n.to_string();
            let hint = if n.is_f64() {
                NumberHint::Float
            } else if text.starts_with('-') {
                NumberHint::NegInteger
            } else {
                NumberHint::Integer
            };
            writer.write_number(Number::Text(&text, hint))
        }
        J::String(s) => writer.write_str(s),
        J::Array(items) => {
            writer.write_array_root(None)?;
            items.iter().try_for_each(|item| write_json(writer, item))?;
            writer.write_array_end()
        }
        J::Object(map) => {
            writer.write_map_root(None)?;
            for (key, item) in map {
                writer.write_name(key)?;
                write_json(writer, item)?;
            }
            writer.write_map_end()
        }
    }
}

/// Reads every value of `bytes` and describes it in a typed, format-neutral JSON form that a
/// peer implementation can produce too: ints as decimal text, floats as their `f64` bits (an
/// `f32` widened), bin as hex, ext as `[type, hex]`, timestamps as `[seconds, nanos]`, maps as
/// lists of pairs in order.
pub fn describe_all(bytes: &[u8]) -> Result<J> {
    let mut reader = MsgPackReader::from_slice(bytes);
    let mut values = Vec::new();
    while reader.peek()? != Entry::Ended {
        values.push(describe(&mut reader)?);
    }
    reader.finish()?;
    Ok(J::Array(values))
}

fn hex_text(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn tagged(tag: &str, value: J) -> J {
    let mut map = serde_json::Map::new();
    map.insert(tag.to_owned(), value);
    J::Object(map)
}

pub fn describe<I: sluice_msgpack::Input>(reader: &mut MsgPackReader<I>) -> Result<J> {
    Ok(match reader.peek()? {
        Entry::Null => {
            reader.read_null()?;
            J::Null
        }
        Entry::Bool => J::Bool(reader.read_bool()?),
        Entry::String | Entry::Name => tagged("s", J::String(reader.read_str()?.to_owned())),
        Entry::F32 | Entry::F64 => {
            let bits = reader.read_f64()?.to_bits();
            tagged("f", J::String(format!("{bits:016x}")))
        }
        e if e.is_number() => tagged("i", J::String(reader.read_i128()?.to_string())),
        Entry::Blob => tagged("b", J::String(hex_text(reader.read_blob()?))),
        Entry::Ext => {
            let ext = reader.read_ext()?;
            if ext.kind == sluice_msgpack::Timestamp::EXT_TYPE {
                let t = sluice_msgpack::Timestamp::from_ext(ext)?;
                tagged("t", serde_json::json!([t.seconds, t.nanos]))
            } else {
                tagged("x", serde_json::json!([ext.kind, hex_text(ext.data)]))
            }
        }
        Entry::ArrayRoot => {
            reader.read_array_root()?;
            let mut items = Vec::new();
            while reader.peek()? != Entry::ArrayEnd {
                items.push(describe(reader)?);
            }
            reader.read_array_end()?;
            J::Array(items)
        }
        Entry::MapRoot => {
            reader.read_map_root()?;
            let mut pairs = Vec::new();
            while reader.peek()? != Entry::MapEnd {
                let key = describe(reader)?;
                let value = describe(reader)?;
                pairs.push(J::Array(vec![key, value]));
            }
            reader.read_map_end()?;
            tagged("m", J::Array(pairs))
        }
        other => panic!("describe: unexpected {other}"),
    })
}
