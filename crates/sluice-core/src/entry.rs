//! The token vocabulary shared by every reader and writer.
//!
//! One small set of kinds covers JSON, MessagePack and native Rust values. A reader's
//! [`peek`](crate::Reader::peek) answers with an [`Entry`]; the caller then calls the matching
//! `read_*` method. Writers take the same kinds through their `write_*` methods.

use std::fmt;

/// What the syntax of a text number says about it, before any parsing.
///
/// JSON keeps numbers as source text (see [`Number`](crate::Number)); the hint lets a caller
/// choose a target type without parsing: `12` is [`Integer`](NumberHint::Integer), `-12` is
/// [`NegInteger`](NumberHint::NegInteger), `1.5` and `1e3` are [`Float`](NumberHint::Float).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumberHint {
    /// Digits only, no sign, fraction or exponent.
    Integer,
    /// A minus sign followed by digits only.
    NegInteger,
    /// Has a fraction or an exponent (or is a special float such as `NaN` in JSON5).
    Float,
}

impl NumberHint {
    /// The hint of number text in decimal syntax, from its spelling alone: a `.`, `e` or `E`
    /// makes it a float, a leading `-` a negative integer. The text is not validated.
    ///
    /// ```
    /// use sluice_core::NumberHint;
    /// assert_eq!(NumberHint::of_text("12"), NumberHint::Integer);
    /// assert_eq!(NumberHint::of_text("-12"), NumberHint::NegInteger);
    /// assert_eq!(NumberHint::of_text("1e3"), NumberHint::Float);
    /// ```
    #[must_use]
    pub fn of_text(text: &str) -> NumberHint {
        if text.contains(['.', 'e', 'E']) {
            NumberHint::Float
        } else if text.starts_with('-') {
            NumberHint::NegInteger
        } else {
            NumberHint::Integer
        }
    }
}

/// The kind of the next token in a stream.
///
/// ```
/// use sluice_core::{Entry, NumberHint};
/// assert!(Entry::Number(NumberHint::Float).is_number());
/// assert!(Entry::MapRoot.is_container_start());
/// assert_eq!(Entry::ArrayRoot.matching_end(), Some(Entry::ArrayEnd));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entry {
    /// `null` in JSON, nil in MessagePack, `None` inside an option.
    Null,
    /// `true` or `false`.
    Bool,
    /// A string value.
    String,
    /// A key of a map or the name of a struct field.
    Name,
    /// A number whose type is not known from the format (JSON text); see [`NumberHint`].
    Number(NumberHint),
    /// A signed 8-bit integer, typed by the format.
    I8,
    /// A signed 16-bit integer, typed by the format.
    I16,
    /// A signed 32-bit integer, typed by the format.
    I32,
    /// A signed 64-bit integer, typed by the format.
    I64,
    /// A signed 128-bit integer (native data only).
    I128,
    /// An unsigned 8-bit integer, typed by the format.
    U8,
    /// An unsigned 16-bit integer, typed by the format.
    U16,
    /// An unsigned 32-bit integer, typed by the format.
    U32,
    /// An unsigned 64-bit integer, typed by the format.
    U64,
    /// An unsigned 128-bit integer (native data only).
    U128,
    /// A 32-bit float, typed by the format.
    F32,
    /// A 64-bit float, typed by the format.
    F64,
    /// Raw bytes (MessagePack bin, `Vec<u8>` marked as a blob).
    Blob,
    /// An extension value: a type tag and raw bytes (MessagePack ext).
    Ext,
    /// Start of a map; keys come as [`Name`](Entry::Name) (or any value in formats that allow it).
    MapRoot,
    /// End of a map.
    MapEnd,
    /// Start of an array.
    ArrayRoot,
    /// End of an array.
    ArrayEnd,
    /// Start of a set (native data); formats without sets write it as an array.
    SetRoot,
    /// End of a set.
    SetEnd,
    /// Start of a struct (native data): field names then values, like a map.
    StructRoot,
    /// End of a struct.
    StructEnd,
    /// Start of an option (native data): then either [`Null`](Entry::Null) or one value.
    OptionRoot,
    /// End of an option.
    OptionEnd,
    /// A unit enum value: its type, variant name and discriminant.
    Enum,
    /// Nothing more to read.
    Ended,
}

impl Entry {
    /// Whether this entry is a number of any kind, text or typed.
    #[must_use]
    pub fn is_number(self) -> bool {
        matches!(
            self,
            Entry::Number(_)
                | Entry::I8
                | Entry::I16
                | Entry::I32
                | Entry::I64
                | Entry::I128
                | Entry::U8
                | Entry::U16
                | Entry::U32
                | Entry::U64
                | Entry::U128
                | Entry::F32
                | Entry::F64
        )
    }

    /// Whether this entry opens a container (map, array, set, struct or option).
    #[must_use]
    pub fn is_container_start(self) -> bool {
        self.matching_end().is_some()
    }

    /// Whether this entry closes a container.
    #[must_use]
    pub fn is_container_end(self) -> bool {
        matches!(
            self,
            Entry::MapEnd | Entry::ArrayEnd | Entry::SetEnd | Entry::StructEnd | Entry::OptionEnd
        )
    }

    /// For a container start, the entry that closes it.
    #[must_use]
    pub fn matching_end(self) -> Option<Entry> {
        match self {
            Entry::MapRoot => Some(Entry::MapEnd),
            Entry::ArrayRoot => Some(Entry::ArrayEnd),
            Entry::SetRoot => Some(Entry::SetEnd),
            Entry::StructRoot => Some(Entry::StructEnd),
            Entry::OptionRoot => Some(Entry::OptionEnd),
            _ => None,
        }
    }

    /// A short, stable name for messages and dumps (`"String"`, `"MapRoot"`, `"Number"`...).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Entry::Null => "Null",
            Entry::Bool => "Bool",
            Entry::String => "String",
            Entry::Name => "Name",
            Entry::Number(_) => "Number",
            Entry::I8 => "I8",
            Entry::I16 => "I16",
            Entry::I32 => "I32",
            Entry::I64 => "I64",
            Entry::I128 => "I128",
            Entry::U8 => "U8",
            Entry::U16 => "U16",
            Entry::U32 => "U32",
            Entry::U64 => "U64",
            Entry::U128 => "U128",
            Entry::F32 => "F32",
            Entry::F64 => "F64",
            Entry::Blob => "Blob",
            Entry::Ext => "Ext",
            Entry::MapRoot => "MapRoot",
            Entry::MapEnd => "MapEnd",
            Entry::ArrayRoot => "ArrayRoot",
            Entry::ArrayEnd => "ArrayEnd",
            Entry::SetRoot => "SetRoot",
            Entry::SetEnd => "SetEnd",
            Entry::StructRoot => "StructRoot",
            Entry::StructEnd => "StructEnd",
            Entry::OptionRoot => "OptionRoot",
            Entry::OptionEnd => "OptionEnd",
            Entry::Enum => "Enum",
            Entry::Ended => "Ended",
        }
    }
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_container_start_has_an_end_and_the_end_is_recognised() {
        for start in [
            Entry::MapRoot,
            Entry::ArrayRoot,
            Entry::SetRoot,
            Entry::StructRoot,
            Entry::OptionRoot,
        ] {
            let end = start.matching_end().expect("start has an end");
            assert!(end.is_container_end());
            assert!(!end.is_container_start());
        }
        assert!(!Entry::String.is_container_start());
        assert!(!Entry::Ended.is_container_end());
    }

    #[test]
    fn text_and_typed_numbers_are_numbers_but_strings_are_not() {
        assert!(Entry::Number(NumberHint::Integer).is_number());
        assert!(Entry::U128.is_number());
        assert!(Entry::F32.is_number());
        assert!(!Entry::String.is_number());
        assert!(!Entry::Bool.is_number());
    }
}
