//! Helpers shared by the integration tests.
#![allow(dead_code, unreachable_pub)]

use sluice_core::{Entry, Reader, Result, Token};
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
    use serde_json::Value as J;
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
