//! [`Value`]: an owned tree that any stream can be buffered into and replayed from.
//!
//! Numbers stay exact ([`OwnedNumber`]: JSON text is kept as text, typed numbers typed) and
//! map keys keep their order, so `pipe(ValueReader, ValueWriter)` reproduces a value exactly.
//! Version converters and `$type` lookahead edit or inspect a `Value` and replay it.

mod reader;
mod writer;

pub use reader::ValueReader;
pub use writer::ValueWriter;

use crate::{NumberHint, OwnedNumber};

/// An owned tree of data.
///
/// Native-only tokens are lowered when written into a `Value` (structs become maps, sets
/// arrays, options their inner value, enums their name), as in every format.
///
/// ```
/// use sluice_core::Value;
/// let mut doc = Value::Map(vec![(Value::from("name"), Value::from("sluice"))]);
/// assert_eq!(doc.get("name").and_then(Value::as_str), Some("sluice"));
/// doc.insert("stars", Value::from(5u64));
/// assert_eq!(doc.get("stars").and_then(Value::as_u64), Some(5));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Value {
    /// Null.
    #[default]
    Null,
    /// A boolean.
    Bool(bool),
    /// A number, exactly as read.
    Number(OwnedNumber),
    /// A string.
    String(String),
    /// Raw bytes.
    Bytes(Vec<u8>),
    /// An extension value: type tag and payload.
    Ext(i8, Vec<u8>),
    /// An array.
    Array(Vec<Value>),
    /// A map, in insertion order; keys are usually strings but may be any value.
    Map(Vec<(Value, Value)>),
}

impl Value {
    /// The value under string key `key`, for a map.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(entries) => entries
                .iter()
                .find(|(k, _)| k.as_str() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value under string key `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        match self {
            Value::Map(entries) => entries
                .iter_mut()
                .find(|(k, _)| k.as_str() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// Sets `key` in a map (replacing an existing entry in place, else appending); returns the
    /// old value. Does nothing and returns `None` when `self` is not a map.
    pub fn insert(&mut self, key: &str, value: Value) -> Option<Value> {
        let Value::Map(entries) = self else {
            return None;
        };
        if let Some((_, slot)) = entries.iter_mut().find(|(k, _)| k.as_str() == Some(key)) {
            return Some(std::mem::replace(slot, value));
        }
        entries.push((Value::String(key.to_owned()), value));
        None
    }

    /// Removes `key` from a map, returning its value.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let Value::Map(entries) = self else {
            return None;
        };
        let index = entries.iter().position(|(k, _)| k.as_str() == Some(key))?;
        Some(entries.remove(index).1)
    }

    /// The string, for a string value.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, for a bool value.
    #[must_use]
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number as `i64`, when it is one exactly.
    #[must_use]
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Number(n) => n.as_number().to_i64().ok(),
            _ => None,
        }
    }

    /// The number as `u64`, when it is one exactly.
    #[must_use]
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) => n.as_number().to_u64().ok(),
            _ => None,
        }
    }

    /// The number as `f64`.
    #[must_use]
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => n.as_number().to_f64().ok(),
            _ => None,
        }
    }

    /// The elements, for an array.
    #[must_use]
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The entries, for a map.
    #[must_use]
    pub fn as_map(&self) -> Option<&[(Value, Value)]> {
        match self {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// Whether this is [`Value::Null`].
    #[must_use]
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// A short name of the kind, for messages (`"map"`, `"string"`...).
    #[must_use]
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "bool",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Bytes(_) => "bytes",
            Value::Ext(..) => "ext",
            Value::Array(_) => "array",
            Value::Map(_) => "map",
        }
    }

    /// A number value from JSON-syntax text, kept as text (exact).
    #[must_use]
    pub fn number_text(text: &str, hint: NumberHint) -> Value {
        Value::Number(OwnedNumber::Text(text.into(), hint))
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::String(v.to_owned())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::String(v)
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Number(OwnedNumber::I64(v))
    }
}

impl From<u64> for Value {
    fn from(v: u64) -> Value {
        Value::Number(OwnedNumber::U64(v))
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Number(OwnedNumber::F64(v))
    }
}

impl From<Vec<Value>> for Value {
    fn from(v: Vec<Value>) -> Value {
        Value::Array(v)
    }
}

#[cfg(test)]
mod tests;
