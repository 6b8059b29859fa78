//! [`Token`]: one token of a stream, owned.
//!
//! Readers hand out borrowed tokens that live until the next call. When a token must be kept
//! (lookahead in [`PutbackReader`](crate::PutbackReader), a recorded stream in tests, a
//! buffered replay), it is copied into a `Token`.

use crate::{Entry, EnumToken, Ext, Number, OwnedNumber, Reader, Result, Writer};

/// One token, owned.
///
/// ```
/// use sluice_core::{Token, Value, ValueReader, Reader};
/// let value = Value::Array(vec![Value::from(true)]);
/// let mut reader = ValueReader::new(&value);
/// let tokens = Token::read_all(&mut reader)?;
/// assert_eq!(tokens, vec![Token::ArrayRoot(Some(1)), Token::Bool(true), Token::ArrayEnd]);
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Token {
    /// [`Entry::Null`].
    Null,
    /// [`Entry::Bool`].
    Bool(bool),
    /// [`Entry::String`].
    String(String),
    /// [`Entry::Name`].
    Name(String),
    /// Any number entry.
    Number(OwnedNumber),
    /// [`Entry::Blob`].
    Blob(Vec<u8>),
    /// [`Entry::Ext`]: type tag and payload.
    Ext(i8, Vec<u8>),
    /// [`Entry::MapRoot`] with the length when known.
    MapRoot(Option<usize>),
    /// [`Entry::MapEnd`].
    MapEnd,
    /// [`Entry::ArrayRoot`] with the length when known.
    ArrayRoot(Option<usize>),
    /// [`Entry::ArrayEnd`].
    ArrayEnd,
    /// [`Entry::SetRoot`] with the length when known.
    SetRoot(Option<usize>),
    /// [`Entry::SetEnd`].
    SetEnd,
    /// [`Entry::StructRoot`]: type name and field count when known.
    StructRoot(String, Option<usize>),
    /// [`Entry::StructEnd`].
    StructEnd,
    /// [`Entry::OptionRoot`].
    OptionRoot,
    /// [`Entry::OptionEnd`].
    OptionEnd,
    /// [`Entry::Enum`], boxed: enum tokens are rare in most streams, and keeping their two
    /// names out of line keeps every other token small (a stream of tokens is walked for
    /// every value it holds).
    Enum(Box<OwnedEnum>),
}

/// The payload of an owned [`Token::Enum`]: an [`EnumToken`] that owns its names.
///
/// ```
/// use sluice_core::{EnumToken, OwnedEnum, Token};
/// let token = Token::Enum(Box::new(OwnedEnum::from(EnumToken {
///     type_name: "Shape",
///     variant: "Circle",
///     value: 0,
///     flags: false,
/// })));
/// let Token::Enum(owned) = &token else { unreachable!() };
/// assert_eq!(owned.as_enum_token().variant, "Circle");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OwnedEnum {
    /// The enum's type name.
    pub type_name: String,
    /// The variant name (empty for flags with no single name).
    pub variant: String,
    /// The discriminant or bits.
    pub value: i64,
    /// Whether it is a flags enum.
    pub flags: bool,
}

impl OwnedEnum {
    /// Borrows this as the [`EnumToken`] a reader hands out and a writer takes.
    #[must_use]
    pub fn as_enum_token(&self) -> EnumToken<'_> {
        EnumToken {
            type_name: &self.type_name,
            variant: &self.variant,
            value: self.value,
            flags: self.flags,
        }
    }
}

impl From<EnumToken<'_>> for OwnedEnum {
    fn from(token: EnumToken<'_>) -> OwnedEnum {
        OwnedEnum {
            type_name: token.type_name.to_owned(),
            variant: token.variant.to_owned(),
            value: token.value,
            flags: token.flags,
        }
    }
}

impl Token {
    /// The entry a reader reports for this token.
    #[must_use]
    pub fn entry(&self) -> Entry {
        match self {
            Token::Null => Entry::Null,
            Token::Bool(_) => Entry::Bool,
            Token::String(_) => Entry::String,
            Token::Name(_) => Entry::Name,
            Token::Number(number) => match number {
                OwnedNumber::Text(_, hint) => Entry::Number(*hint),
                OwnedNumber::I64(_) => Entry::I64,
                OwnedNumber::U64(_) => Entry::U64,
                OwnedNumber::I128(_) => Entry::I128,
                OwnedNumber::U128(_) => Entry::U128,
                OwnedNumber::F32(_) => Entry::F32,
                OwnedNumber::F64(_) => Entry::F64,
            },
            Token::Blob(_) => Entry::Blob,
            Token::Ext(..) => Entry::Ext,
            Token::MapRoot(_) => Entry::MapRoot,
            Token::MapEnd => Entry::MapEnd,
            Token::ArrayRoot(_) => Entry::ArrayRoot,
            Token::ArrayEnd => Entry::ArrayEnd,
            Token::SetRoot(_) => Entry::SetRoot,
            Token::SetEnd => Entry::SetEnd,
            Token::StructRoot(..) => Entry::StructRoot,
            Token::StructEnd => Entry::StructEnd,
            Token::OptionRoot => Entry::OptionRoot,
            Token::OptionEnd => Entry::OptionEnd,
            Token::Enum(_) => Entry::Enum,
        }
    }

    /// Reads the next token of `reader`, whose entry the caller peeked as `entry`.
    ///
    /// # Errors
    /// Whatever the reader reports; `Ended` is [`UNEXPECTED_ENTRY`](crate::codes::UNEXPECTED_ENTRY).
    pub fn read<R: Reader + ?Sized>(reader: &mut R, entry: Entry) -> Result<Token> {
        Ok(match entry {
            Entry::Null => {
                reader.read_null()?;
                Token::Null
            }
            Entry::Bool => Token::Bool(reader.read_bool()?),
            Entry::String => Token::String(reader.read_str()?.to_owned()),
            Entry::Name => Token::Name(reader.read_name()?.to_owned()),
            entry if entry.is_number() => Token::Number(reader.read_number()?.to_owned_number()),
            Entry::Blob => Token::Blob(reader.read_blob()?.to_vec()),
            Entry::Ext => {
                let ext = reader.read_ext()?;
                Token::Ext(ext.kind, ext.data.to_vec())
            }
            Entry::MapRoot => Token::MapRoot(reader.read_map_root()?),
            Entry::MapEnd => {
                reader.read_map_end()?;
                Token::MapEnd
            }
            Entry::ArrayRoot => Token::ArrayRoot(reader.read_array_root()?),
            Entry::ArrayEnd => {
                reader.read_array_end()?;
                Token::ArrayEnd
            }
            Entry::SetRoot => Token::SetRoot(reader.read_set_root()?),
            Entry::SetEnd => {
                reader.read_set_end()?;
                Token::SetEnd
            }
            Entry::StructRoot => {
                let (name, len) = reader.read_struct_root()?;
                Token::StructRoot(name.to_owned(), len)
            }
            Entry::StructEnd => {
                reader.read_struct_end()?;
                Token::StructEnd
            }
            Entry::OptionRoot => {
                reader.read_option_root()?;
                Token::OptionRoot
            }
            Entry::OptionEnd => {
                reader.read_option_end()?;
                Token::OptionEnd
            }
            Entry::Enum => Token::Enum(Box::new(OwnedEnum::from(reader.read_enum()?))),
            _ => return Err(crate::pipe::refused_here(reader, "a token", entry)),
        })
    }

    /// Reads tokens until the reader reports [`Entry::Ended`], from where it stands: in the
    /// middle of a container, the rest of it and of the containers around it, then any
    /// root values after (for one value, [`pipe_value`](fn@crate::pipe_value) into a
    /// [`ValueWriter`](crate::ValueWriter)).
    ///
    /// # Errors
    /// The first error the reader reports.
    pub fn read_all<R: Reader + ?Sized>(reader: &mut R) -> Result<Vec<Token>> {
        let mut tokens = Vec::new();
        loop {
            let entry = reader.peek()?;
            if entry == Entry::Ended {
                return Ok(tokens);
            }
            tokens.push(Token::read(reader, entry)?);
        }
    }

    /// Writes this token to `writer`.
    ///
    /// # Errors
    /// Whatever the writer reports.
    pub fn write<W: Writer + ?Sized>(&self, writer: &mut W) -> Result<()> {
        match self {
            Token::Null => writer.write_null(),
            Token::Bool(v) => writer.write_bool(*v),
            Token::String(v) => writer.write_str(v),
            Token::Name(v) => writer.write_name(v),
            Token::Number(v) => {
                // Number text (what text formats record) taken apart here rather than by
                // `as_number` matching the number again; one call site of `write_number`,
                // so a writer's implementation can stay inlined in the copy loop.
                let number = match v {
                    OwnedNumber::Text(text, hint) => Number::Text(text, *hint),
                    other => other.as_number(),
                };
                writer.write_number(number)
            }
            Token::Blob(v) => writer.write_blob(v),
            Token::Ext(kind, data) => writer.write_ext(Ext { kind: *kind, data }),
            Token::MapRoot(len) => writer.write_map_root(*len),
            Token::MapEnd => writer.write_map_end(),
            Token::ArrayRoot(len) => writer.write_array_root(*len),
            Token::ArrayEnd => writer.write_array_end(),
            Token::SetRoot(len) => writer.write_set_root(*len),
            Token::SetEnd => writer.write_set_end(),
            Token::StructRoot(name, len) => writer.write_struct_root(name, *len),
            Token::StructEnd => writer.write_struct_end(),
            Token::OptionRoot => writer.write_option_root(),
            Token::OptionEnd => writer.write_option_end(),
            Token::Enum(owned) => writer.write_enum(owned.as_enum_token()),
        }
    }

    /// Writes every token of `tokens` to `writer`.
    ///
    /// # Errors
    /// The first error the writer reports.
    pub fn write_all<W: Writer + ?Sized>(tokens: &[Token], writer: &mut W) -> Result<()> {
        tokens.iter().try_for_each(|token| token.write(writer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn tokens_stay_small_with_enum_payloads_boxed() {
        // A recorded stream is walked token by token: its size is memory traffic.
        assert!(std::mem::size_of::<Token>() <= 48);
    }

    #[test]
    fn number_tokens_write_what_their_borrowed_number_writes() {
        use crate::NumberHint;
        let numbers = [
            OwnedNumber::Text("12.50".into(), NumberHint::Float),
            OwnedNumber::Text("-7".into(), NumberHint::Integer),
            OwnedNumber::I64(-3),
            OwnedNumber::U64(4),
            OwnedNumber::I128(-5),
            OwnedNumber::U128(6),
            OwnedNumber::F32(1.5),
            OwnedNumber::F64(0.25),
        ];
        for number in numbers {
            let mut from_token = crate::DumpWriter::new(Vec::new());
            Token::Number(number.clone())
                .write(&mut from_token)
                .unwrap();
            let mut direct = crate::DumpWriter::new(Vec::new());
            direct.write_number(number.as_number()).unwrap();
            assert_eq!(from_token.into_inner(), direct.into_inner(), "{number:?}");
        }
    }

    #[test]
    fn enum_tokens_round_trip_through_their_boxed_payload() {
        let token = EnumToken {
            type_name: "Shape",
            variant: "Dot",
            value: 3,
            flags: false,
        };
        let owned = OwnedEnum::from(token);
        assert_eq!(owned.as_enum_token(), token);
        let recorded = Token::Enum(Box::new(owned));
        assert_eq!(recorded.entry(), Entry::Enum);
    }
}
