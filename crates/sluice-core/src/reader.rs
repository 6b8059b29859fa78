//! The pull side: [`Reader`].

use crate::{Entry, Error, Number, Result, Span};

/// An extension value: a type tag and its raw bytes (MessagePack ext).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ext<'a> {
    /// The application-defined type tag (`-1` is the MessagePack timestamp).
    pub kind: i8,
    /// The payload.
    pub data: &'a [u8],
}

/// A unit enum value as a token: the enum's type name, the variant name and its value.
///
/// Flags enums carry the OR of their set bits in `value` and `flags = true`; `variant` then
/// names the value if one name covers it exactly, else it is empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnumToken<'a> {
    /// The enum's type name, such as `"Distance"`.
    pub type_name: &'a str,
    /// The variant name, such as `"Near"`.
    pub variant: &'a str,
    /// The discriminant (or the bits, for flags).
    pub value: i64,
    /// Whether this is a flags enum.
    pub flags: bool,
}

/// Reads a stream of tokens, one at a time (pull).
///
/// The protocol: call [`peek`](Reader::peek) to learn the [`Entry`] of the next token, then the
/// matching `read_*` method. A map yields `MapRoot`, then key / value pairs (keys as
/// [`Entry::Name`]), then `MapEnd`; an array `ArrayRoot`, values, `ArrayEnd`. After the last
/// value, `peek` answers [`Entry::Ended`] forever.
///
/// Contract (checked for every format by [`testing`](crate::testing)):
/// - `peek` has no side effect: calling it again returns the same entry.
/// - Calling a `read_*` method that does not match the peeked entry is an error
///   ([`UNEXPECTED_ENTRY`](crate::codes::UNEXPECTED_ENTRY)), except that every number read
///   accepts every number entry (with a checked conversion).
/// - Strings and bytes are borrowed from the reader: from the input when nothing needed
///   unescaping (zero copy), else from a scratch buffer valid until the next call.
/// - [`span`](Reader::span) is the byte span of the last token read; errors carry the span of
///   the token that caused them.
/// - Methods the format cannot support return [`UNSUPPORTED`](crate::codes::UNSUPPORTED).
///
/// The trait is object safe (handler tables hold `&mut dyn Reader`) and used generically where
/// speed matters ([`pipe`](fn@crate::pipe) is monomorphized).
///
/// ```
/// use sluice_core::{Entry, Reader, Value, ValueReader};
/// let value = Value::Array(vec![Value::from("a"), Value::from(1u64)]);
/// let mut reader = ValueReader::new(&value);
/// assert_eq!(reader.peek()?, Entry::ArrayRoot);
/// reader.read_array_root()?;
/// assert_eq!(reader.read_str()?, "a");
/// assert_eq!(reader.read_u8()?, 1);
/// reader.read_array_end()?;
/// assert_eq!(reader.peek()?, Entry::Ended);
/// # Ok::<(), sluice_core::Error>(())
/// ```
pub trait Reader {
    /// The entry of the next token, without consuming it.
    ///
    /// # Errors
    /// A syntax or I/O error found while looking at the next token.
    fn peek(&mut self) -> Result<Entry>;

    /// The entry of the next token when the reader has looked at it already (a `peek` not
    /// yet followed by a read), without looking further; `None` otherwise, and always from
    /// readers that do not keep a looked-at token (the default).
    ///
    /// For consumers that peek from many places: they can answer repeated peeks here and
    /// keep one out-of-line call to [`Reader::peek`] for the rest, which lets a reader
    /// inline its whole lexer into `peek` for the tight loops that call it from one place.
    ///
    /// ```
    /// use sluice_core::{Entry, Reader, Value, ValueReader};
    /// /// A peek for a consumer that peeks from many places.
    /// #[inline]
    /// fn next_entry<R: Reader>(reader: &mut R) -> sluice_core::Result<Entry> {
    ///     match reader.peeked() {
    ///         Some(entry) => Ok(entry),
    ///         None => peek_out_of_line(reader),
    ///     }
    /// }
    /// #[inline(never)]
    /// fn peek_out_of_line<R: Reader>(reader: &mut R) -> sluice_core::Result<Entry> {
    ///     reader.peek()
    /// }
    /// let value = Value::Bool(true);
    /// let mut reader = ValueReader::new(&value);
    /// assert_eq!(next_entry(&mut reader)?, Entry::Bool);
    /// // A `ValueReader` keeps no looked-at token: the default.
    /// assert_eq!(reader.peeked(), None);
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    fn peeked(&self) -> Option<Entry> {
        None
    }

    /// Byte span of the last token read (or of the peeked token, right after a failed read).
    fn span(&self) -> Span;

    /// Reads a `Null`.
    ///
    /// # Errors
    /// When the next token is not `Null`.
    fn read_null(&mut self) -> Result<()>;

    /// Reads a `Bool`.
    ///
    /// # Errors
    /// When the next token is not `Bool`.
    fn read_bool(&mut self) -> Result<bool>;

    /// Reads a `String`.
    ///
    /// # Errors
    /// When the next token is not a `String` (formats may also accept `Name`).
    fn read_str(&mut self) -> Result<&str>;

    /// Reads a `Name` (a map key or field name).
    ///
    /// # Errors
    /// When the next token is not a `Name` (formats may also accept `String`).
    fn read_name(&mut self) -> Result<&str>;

    /// Reads any number, lazily: text numbers come back as text, typed numbers typed.
    ///
    /// # Errors
    /// When the next token is not a number.
    fn read_number(&mut self) -> Result<Number<'_>>;

    /// The error of a read of a kind this reader never produces: the default
    /// [`read_blob`](Self::read_blob), [`read_ext`](Self::read_ext) and the set, struct,
    /// option and enum reads return it. The default is
    /// [`UNSUPPORTED`](crate::codes::UNSUPPORTED) at [`span`](Self::span); a reader
    /// overrides it, rather than each of those reads, to name itself, to point at the token
    /// it refuses, or to report instead the error in its input that stopped it.
    ///
    /// ```
    /// use sluice_core::{codes, Reader, Value, ValueReader};
    /// let value = Value::from(1u64);
    /// let mut reader = ValueReader::new(&value);
    /// assert_eq!(reader.read_enum().unwrap_err().code(), codes::UNSUPPORTED);
    /// assert_eq!(reader.refuse_unsupported("reading an Enum").code(), codes::UNSUPPORTED);
    /// ```
    fn refuse_unsupported(&mut self, what: &str) -> Error {
        Error::unsupported(what, "this reader").or_span(self.span())
    }

    /// Reads a `Blob`.
    ///
    /// # Errors
    /// [`UNSUPPORTED`](crate::codes::UNSUPPORTED) unless the format has raw bytes.
    fn read_blob(&mut self) -> Result<&[u8]> {
        Err(self.refuse_unsupported("reading a Blob"))
    }

    /// Reads an `Ext`.
    ///
    /// # Errors
    /// [`UNSUPPORTED`](crate::codes::UNSUPPORTED) unless the format has extension values.
    fn read_ext(&mut self) -> Result<Ext<'_>> {
        Err(self.refuse_unsupported("reading an Ext"))
    }

    /// Reads `MapRoot`; returns the number of entries when the format knows it up front.
    ///
    /// # Errors
    /// When the next token is not `MapRoot`.
    fn read_map_root(&mut self) -> Result<Option<usize>>;

    /// Reads `MapEnd`.
    ///
    /// # Errors
    /// When the map has more entries.
    fn read_map_end(&mut self) -> Result<()>;

    /// Reads `ArrayRoot`; returns the number of elements when the format knows it up front.
    ///
    /// # Errors
    /// When the next token is not `ArrayRoot`.
    fn read_array_root(&mut self) -> Result<Option<usize>>;

    /// Reads `ArrayEnd`.
    ///
    /// # Errors
    /// When the array has more elements.
    fn read_array_end(&mut self) -> Result<()>;

    /// Reads `SetRoot` (native data only).
    ///
    /// # Errors
    /// [`UNSUPPORTED`](crate::codes::UNSUPPORTED) unless the reader produces sets.
    fn read_set_root(&mut self) -> Result<Option<usize>> {
        Err(self.refuse_unsupported("reading a SetRoot"))
    }

    /// Reads `SetEnd`.
    ///
    /// # Errors
    /// [`UNSUPPORTED`](crate::codes::UNSUPPORTED) unless the reader produces sets.
    fn read_set_end(&mut self) -> Result<()> {
        Err(self.refuse_unsupported("reading a SetEnd"))
    }

    /// Reads `StructRoot`; returns the struct's type name and its number of fields when known
    /// (native data only).
    ///
    /// # Errors
    /// [`UNSUPPORTED`](crate::codes::UNSUPPORTED) unless the reader produces structs.
    fn read_struct_root(&mut self) -> Result<(&str, Option<usize>)> {
        Err(self.refuse_unsupported("reading a StructRoot"))
    }

    /// Reads `StructEnd`.
    ///
    /// # Errors
    /// [`UNSUPPORTED`](crate::codes::UNSUPPORTED) unless the reader produces structs.
    fn read_struct_end(&mut self) -> Result<()> {
        Err(self.refuse_unsupported("reading a StructEnd"))
    }

    /// Reads `OptionRoot` (native data only); then comes `Null` or one value, then `OptionEnd`.
    ///
    /// # Errors
    /// [`UNSUPPORTED`](crate::codes::UNSUPPORTED) unless the reader produces options.
    fn read_option_root(&mut self) -> Result<()> {
        Err(self.refuse_unsupported("reading an OptionRoot"))
    }

    /// Reads `OptionEnd`.
    ///
    /// # Errors
    /// [`UNSUPPORTED`](crate::codes::UNSUPPORTED) unless the reader produces options.
    fn read_option_end(&mut self) -> Result<()> {
        Err(self.refuse_unsupported("reading an OptionEnd"))
    }

    /// Reads an `Enum` token (native data only).
    ///
    /// # Errors
    /// [`UNSUPPORTED`](crate::codes::UNSUPPORTED) unless the reader produces enums.
    fn read_enum(&mut self) -> Result<EnumToken<'_>> {
        Err(self.refuse_unsupported("reading an Enum"))
    }

    /// Skips the next whole value (a scalar, or a container with everything inside it).
    /// At a [`Entry::Name`] it skips the key alone: the member's value is the next value
    /// (skip again to drop the whole member).
    ///
    /// The default walks the tokens; formats override it with something faster.
    ///
    /// # Errors
    /// Any error met on the way, or when the next token ends a container or the stream.
    fn skip(&mut self) -> Result<()> {
        crate::pipe::skip_value(self)
    }

    /// Reads a number as `i8`; see [`Number::to_i8`].
    ///
    /// # Errors
    /// When the next token is not a number or does not fit.
    fn read_i8(&mut self) -> Result<i8> {
        let value = self.read_number()?.to_i8();
        value.map_err(|e| e.or_span(self.span()))
    }
    /// Reads a number as `i16`; see [`Number::to_i16`].
    ///
    /// # Errors
    /// When the next token is not a number or does not fit.
    fn read_i16(&mut self) -> Result<i16> {
        let value = self.read_number()?.to_i16();
        value.map_err(|e| e.or_span(self.span()))
    }
    /// Reads a number as `i32`; see [`Number::to_i32`].
    ///
    /// # Errors
    /// When the next token is not a number or does not fit.
    fn read_i32(&mut self) -> Result<i32> {
        let value = self.read_number()?.to_i32();
        value.map_err(|e| e.or_span(self.span()))
    }
    /// Reads a number as `i64`; see [`Number::to_i64`].
    ///
    /// # Errors
    /// When the next token is not a number or does not fit.
    fn read_i64(&mut self) -> Result<i64> {
        let value = self.read_number()?.to_i64();
        value.map_err(|e| e.or_span(self.span()))
    }
    /// Reads a number as `i128`; see [`Number::to_i128`].
    ///
    /// # Errors
    /// When the next token is not a number or does not fit.
    fn read_i128(&mut self) -> Result<i128> {
        let value = self.read_number()?.to_i128();
        value.map_err(|e| e.or_span(self.span()))
    }
    /// Reads a number as `u8`; see [`Number::to_u8`].
    ///
    /// # Errors
    /// When the next token is not a number or does not fit.
    fn read_u8(&mut self) -> Result<u8> {
        let value = self.read_number()?.to_u8();
        value.map_err(|e| e.or_span(self.span()))
    }
    /// Reads a number as `u16`; see [`Number::to_u16`].
    ///
    /// # Errors
    /// When the next token is not a number or does not fit.
    fn read_u16(&mut self) -> Result<u16> {
        let value = self.read_number()?.to_u16();
        value.map_err(|e| e.or_span(self.span()))
    }
    /// Reads a number as `u32`; see [`Number::to_u32`].
    ///
    /// # Errors
    /// When the next token is not a number or does not fit.
    fn read_u32(&mut self) -> Result<u32> {
        let value = self.read_number()?.to_u32();
        value.map_err(|e| e.or_span(self.span()))
    }
    /// Reads a number as `u64`; see [`Number::to_u64`].
    ///
    /// # Errors
    /// When the next token is not a number or does not fit.
    fn read_u64(&mut self) -> Result<u64> {
        let value = self.read_number()?.to_u64();
        value.map_err(|e| e.or_span(self.span()))
    }
    /// Reads a number as `u128`; see [`Number::to_u128`].
    ///
    /// # Errors
    /// When the next token is not a number or does not fit.
    fn read_u128(&mut self) -> Result<u128> {
        let value = self.read_number()?.to_u128();
        value.map_err(|e| e.or_span(self.span()))
    }
    /// Reads a number as `f32`; see [`Number::to_f32`].
    ///
    /// # Errors
    /// When the next token is not a number or is beyond the `f32` range.
    fn read_f32(&mut self) -> Result<f32> {
        let value = self.read_number()?.to_f32();
        value.map_err(|e| e.or_span(self.span()))
    }
    /// Reads a number as `f64`; see [`Number::to_f64`].
    ///
    /// # Errors
    /// When the next token is not a number or is beyond the `f64` range.
    fn read_f64(&mut self) -> Result<f64> {
        let value = self.read_number()?.to_f64();
        value.map_err(|e| e.or_span(self.span()))
    }
}

/// Forwards every method, so `&mut R` and `Box<dyn Reader>` are readers too.
macro_rules! forward_reader {
    () => {
        fn peek(&mut self) -> Result<Entry> {
            (**self).peek()
        }
        fn peeked(&self) -> Option<Entry> {
            (**self).peeked()
        }
        fn span(&self) -> Span {
            (**self).span()
        }
        fn read_null(&mut self) -> Result<()> {
            (**self).read_null()
        }
        fn read_bool(&mut self) -> Result<bool> {
            (**self).read_bool()
        }
        fn read_str(&mut self) -> Result<&str> {
            (**self).read_str()
        }
        fn read_name(&mut self) -> Result<&str> {
            (**self).read_name()
        }
        fn read_number(&mut self) -> Result<Number<'_>> {
            (**self).read_number()
        }
        fn read_blob(&mut self) -> Result<&[u8]> {
            (**self).read_blob()
        }
        fn read_ext(&mut self) -> Result<Ext<'_>> {
            (**self).read_ext()
        }
        fn read_map_root(&mut self) -> Result<Option<usize>> {
            (**self).read_map_root()
        }
        fn read_map_end(&mut self) -> Result<()> {
            (**self).read_map_end()
        }
        fn read_array_root(&mut self) -> Result<Option<usize>> {
            (**self).read_array_root()
        }
        fn read_array_end(&mut self) -> Result<()> {
            (**self).read_array_end()
        }
        fn read_set_root(&mut self) -> Result<Option<usize>> {
            (**self).read_set_root()
        }
        fn read_set_end(&mut self) -> Result<()> {
            (**self).read_set_end()
        }
        fn read_struct_root(&mut self) -> Result<(&str, Option<usize>)> {
            (**self).read_struct_root()
        }
        fn read_struct_end(&mut self) -> Result<()> {
            (**self).read_struct_end()
        }
        fn read_option_root(&mut self) -> Result<()> {
            (**self).read_option_root()
        }
        fn read_option_end(&mut self) -> Result<()> {
            (**self).read_option_end()
        }
        fn read_enum(&mut self) -> Result<EnumToken<'_>> {
            (**self).read_enum()
        }
        fn skip(&mut self) -> Result<()> {
            (**self).skip()
        }
        fn read_i8(&mut self) -> Result<i8> {
            (**self).read_i8()
        }
        fn read_i16(&mut self) -> Result<i16> {
            (**self).read_i16()
        }
        fn read_i32(&mut self) -> Result<i32> {
            (**self).read_i32()
        }
        fn read_i64(&mut self) -> Result<i64> {
            (**self).read_i64()
        }
        fn read_i128(&mut self) -> Result<i128> {
            (**self).read_i128()
        }
        fn read_u8(&mut self) -> Result<u8> {
            (**self).read_u8()
        }
        fn read_u16(&mut self) -> Result<u16> {
            (**self).read_u16()
        }
        fn read_u32(&mut self) -> Result<u32> {
            (**self).read_u32()
        }
        fn read_u64(&mut self) -> Result<u64> {
            (**self).read_u64()
        }
        fn read_u128(&mut self) -> Result<u128> {
            (**self).read_u128()
        }
        fn read_f32(&mut self) -> Result<f32> {
            (**self).read_f32()
        }
        fn read_f64(&mut self) -> Result<f64> {
            (**self).read_f64()
        }
    };
}

impl<R: Reader + ?Sized> Reader for &mut R {
    forward_reader!();
}

impl<R: Reader + ?Sized> Reader for Box<R> {
    forward_reader!();
}
