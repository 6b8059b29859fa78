//! Map keys: a key is a string ([`Entry::Name`](sluice_core::Entry::Name)) in every text
//! format, but serde may ask for it as a number (`HashMap<u32, _>` from `{"1": ...}`), a bool,
//! a char or a unit enum variant. The key deserializer parses the key text into what is asked
//! for, exactly (integers digit by digit, never through a float).

use serde::de::{self, Visitor};
use sluice_core::{Entry, Number, NumberHint, Reader};

use super::Deserializer;
use crate::error::{Error, Result};

/// A map key already read from the reader.
pub(crate) struct KeyDeserializer<'a, 'de> {
    pub(crate) key: &'a str,
    /// The same key with the input's lifetime, when it lies in the input.
    pub(crate) borrowed: Option<&'de str>,
    pub(crate) human_readable: bool,
}

/// Integer key text: a JSON integer, an optional minus sign and ASCII digits without a
/// leading zero (`0` alone excepted), as serde_json reads an integer key (`"01"` was the
/// key 1 before the leading-zero check, where serde_json refuses it as a number).
fn integer_hint(text: &str) -> Option<NumberHint> {
    let (digits, hint) = match text.strip_prefix('-') {
        Some(rest) => (rest, NumberHint::NegInteger),
        None => (text, NumberHint::Integer),
    };
    let well_formed = match digits.as_bytes() {
        [] | [b'0', _, ..] => false,
        bytes => bytes.iter().all(u8::is_ascii_digit),
    };
    well_formed.then_some(hint)
}

/// Float key text: a number as JSON spells it, `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`,
/// as serde_json reads a float key. A looser check let `+1`, `.5`, `1.` and `01` through to
/// the conversion, which took them.
fn float_text(text: &str) -> bool {
    fn digits(bytes: &[u8], at: usize) -> usize {
        bytes[at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    }
    let bytes = text.as_bytes();
    let mut at = usize::from(bytes.first() == Some(&b'-'));
    match bytes.get(at) {
        Some(b'0') => at += 1,
        Some(b'1'..=b'9') => at += digits(bytes, at),
        _ => return false,
    }
    if bytes.get(at) == Some(&b'.') {
        let fraction = digits(bytes, at + 1);
        if fraction == 0 {
            return false;
        }
        at += 1 + fraction;
    }
    if let Some(b'e' | b'E') = bytes.get(at) {
        at += 1;
        if let Some(b'+' | b'-') = bytes.get(at) {
            at += 1;
        }
        let exponent = digits(bytes, at);
        if exponent == 0 {
            return false;
        }
        at += exponent;
    }
    at == bytes.len()
}

macro_rules! integer_key {
    ($($method:ident => $convert:ident, $visit:ident;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match integer_hint(self.key) {
                Some(hint) => {
                    let value = Number::Text(self.key, hint).$convert()?;
                    visitor.$visit(value)
                }
                // Let the visitor say what it expected instead.
                None => self.visit_key(visitor),
            }
        }
    )*};
}

macro_rules! float_key {
    ($($method:ident => $convert:ident, $visit:ident;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            if float_text(self.key) {
                let value = Number::Text(self.key, NumberHint::Float).$convert()?;
                visitor.$visit(value)
            } else {
                self.visit_key(visitor)
            }
        }
    )*};
}

impl<'de> KeyDeserializer<'_, 'de> {
    #[inline]
    fn visit_key<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.borrowed {
            Some(borrowed) => visitor.visit_borrowed_str(borrowed),
            None => visitor.visit_str(self.key),
        }
    }
}

impl<'de> de::Deserializer<'de> for KeyDeserializer<'_, 'de> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.visit_key(visitor)
    }

    integer_key! {
        deserialize_i8 => to_i8, visit_i8;
        deserialize_i16 => to_i16, visit_i16;
        deserialize_i32 => to_i32, visit_i32;
        deserialize_i64 => to_i64, visit_i64;
        deserialize_i128 => to_i128, visit_i128;
        deserialize_u8 => to_u8, visit_u8;
        deserialize_u16 => to_u16, visit_u16;
        deserialize_u32 => to_u32, visit_u32;
        deserialize_u64 => to_u64, visit_u64;
        deserialize_u128 => to_u128, visit_u128;
    }

    float_key! {
        deserialize_f32 => to_f32, visit_f32;
        deserialize_f64 => to_f64, visit_f64;
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.key {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => self.visit_key(visitor),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.borrowed {
            Some(borrowed) => visitor.visit_borrowed_bytes(borrowed.as_bytes()),
            None => visitor.visit_bytes(self.key.as_bytes()),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.borrowed {
            Some(borrowed) => {
                visitor.visit_enum(de::value::BorrowedStrDeserializer::<Error>::new(borrowed))
            }
            None => visitor.visit_enum(de::value::StrDeserializer::<Error>::new(self.key)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    serde::forward_to_deserialize_any! {
        char str string unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

/// A map key that is not text (a MessagePack integer key, say), still to be read.
///
/// Everything is the deserializer's own work, except an identifier: a field or variant
/// visitor is handed the token through a dispatch without the string arms. The text key
/// path ([`KeyDeserializer`]) then holds the only call of a derived field visitor's
/// `visit_str`, which lets the compiler inline that `match` on field names into the loop
/// over the keys, one jump on the field where there were two. Together with the single
/// borrowing path of `Source` (without which byte input adds a call of its own), this made
/// reading twitter.json into structs about 7% faster.
pub(crate) struct NonTextKey<'a, 'de, R> {
    pub(crate) de: &'a mut Deserializer<'de, R>,
    /// The key's token, peeked: neither a string, a name nor an enum.
    pub(crate) entry: Entry,
}

/// Methods that read the key exactly as a value is read.
macro_rules! forward_to_deserializer {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value> {
            de::Deserializer::$method(&mut *self.de, $($arg,)* visitor)
        }
    )*};
}

impl<'de, R: Reader> de::Deserializer<'de> for NonTextKey<'_, 'de, R> {
    type Error = Error;

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.de.visit_token::<V, false>(self.entry, visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.de.human_readable
    }

    forward_to_deserializer! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_ignored_any();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_and_float_key_syntax() {
        assert_eq!(integer_hint("12"), Some(NumberHint::Integer));
        assert_eq!(integer_hint("-12"), Some(NumberHint::NegInteger));
        assert_eq!(integer_hint("-"), None);
        assert_eq!(integer_hint("+1"), None);
        assert_eq!(integer_hint(" 1"), None);
        assert_eq!(integer_hint(""), None);
        assert_eq!(integer_hint("0"), Some(NumberHint::Integer));
        assert_eq!(integer_hint("-0"), Some(NumberHint::NegInteger));
        assert_eq!(integer_hint("10"), Some(NumberHint::Integer));
        assert_eq!(integer_hint("01"), None);
        assert_eq!(integer_hint("-01"), None);
        assert_eq!(integer_hint("00"), None);
        assert!(float_text("1.5e3"));
        assert!(!float_text("NaN"));
        assert!(!float_text("."));
    }
}
