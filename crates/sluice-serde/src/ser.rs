//! Any sluice [`Writer`] as a [`serde::Serializer`].
//!
//! serde's data model maps onto sluice tokens one to one where it can, and onto the usual
//! JSON conventions where it cannot:
//!
//! | serde | sluice tokens |
//! |---|---|
//! | `bool`, integers, `f32`, `f64`, `i128`, `u128` | `Bool`, typed numbers (an `f32` stays 32 bits) |
//! | `char`, `str` | `String` |
//! | bytes | `Blob`; an array of numbers when the writer has no raw bytes (JSON by default) |
//! | `None`, `()`, unit struct | `Null` |
//! | `Some(v)`, newtype struct | `v` |
//! | unit variant | the variant name as a `String` |
//! | newtype / tuple / struct variant | a map with one key, the variant name (externally tagged) |
//! | seq, tuple, tuple struct | `ArrayRoot` .. `ArrayEnd` |
//! | map | `MapRoot` .. `MapEnd`, keys as `Name` (numbers, booleans, chars and unit variants as text) |
//! | struct | `StructRoot` (name and field count) .. `StructEnd` |

use serde::ser::{self, Serialize};
use sluice_core::{Number, Writer, codes as core_codes};

use crate::error::{Error, Result, codes};

/// A [`serde::Serializer`] writing into any sluice [`Writer`].
///
/// ```
/// use serde::Serialize;
/// use sluice_json::{JsonWriter, WriterOptions};
/// use sluice_serde::Serializer;
///
/// #[derive(Serialize)]
/// struct Point {
///     x: f32,
///     y: f32,
/// }
/// let mut ser = Serializer::new(JsonWriter::new(Vec::new(), WriterOptions::condensed()));
/// Point { x: 1.1, y: -0.5 }.serialize(&mut ser)?;
/// let text = ser.into_inner().into_string()?;
/// assert_eq!(text, r#"{"x":1.1,"y":-0.5}"#); // f32 written as f32, not as 1.100000023841858
/// # Ok::<(), sluice_serde::Error>(())
/// ```
#[derive(Debug)]
pub struct Serializer<W> {
    writer: W,
    human_readable: bool,
}

impl<W: Writer> Serializer<W> {
    /// A serializer writing into `writer`.
    #[must_use]
    pub fn new(writer: W) -> Serializer<W> {
        Serializer {
            writer,
            human_readable: true,
        }
    }

    /// Sets what [`is_human_readable`](serde::Serializer::is_human_readable) answers (`true`
    /// by default); the deserializer reading the output must agree.
    #[must_use]
    pub fn human_readable(mut self, human_readable: bool) -> Serializer<W> {
        self.human_readable = human_readable;
        self
    }

    /// The writer.
    pub fn writer_mut(&mut self) -> &mut W {
        &mut self.writer
    }

    /// The writer back. Call [`Writer::finish`] on it (or use [`to_writer`], which does) to
    /// flush it and check that the output is complete.
    pub fn into_inner(self) -> W {
        self.writer
    }

    /// Writes bytes as a blob, or as an array of numbers when the writer has no raw bytes.
    fn write_bytes(&mut self, value: &[u8]) -> Result<()> {
        match self.writer.write_blob(value) {
            Err(err) if err.code() == core_codes::UNSUPPORTED => {
                self.writer.write_array_root(Some(value.len()))?;
                for &byte in value {
                    self.writer.write_u64(u64::from(byte))?;
                }
                Ok(self.writer.write_array_end()?)
            }
            other => Ok(other?),
        }
    }

    /// Opens the single-key map of an externally tagged variant.
    fn open_variant(&mut self, variant: &str) -> Result<()> {
        self.writer.write_map_root(Some(1))?;
        Ok(self.writer.write_name(variant)?)
    }
}

/// Writes `value` into `writer` and finishes the writer (flushes it and checks that the output
/// is complete).
///
/// ```
/// use sluice_core::{Value, ValueWriter};
///
/// let mut writer = ValueWriter::new();
/// sluice_serde::to_writer(&(1u8, "two"), &mut writer)?;
/// assert_eq!(
///     writer.into_value()?,
///     Value::Array(vec![Value::from(1u64), Value::from("two")])
/// );
/// # Ok::<(), sluice_serde::Error>(())
/// ```
///
/// # Errors
/// A writer error (an I/O failure, a value the format cannot hold such as `NaN` in strict
/// JSON), or an error from the `Serialize` implementation.
pub fn to_writer<T: Serialize + ?Sized, W: Writer>(value: &T, writer: W) -> Result<()> {
    let mut ser = Serializer::new(writer);
    value.serialize(&mut ser)?;
    Ok(ser.writer.finish()?)
}

impl<'a, W: Writer> ser::Serializer for &'a mut Serializer<W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, W>;
    type SerializeTuple = Compound<'a, W>;
    type SerializeTupleStruct = Compound<'a, W>;
    type SerializeTupleVariant = Compound<'a, W>;
    type SerializeMap = Compound<'a, W>;
    type SerializeStruct = Compound<'a, W>;
    type SerializeStructVariant = Compound<'a, W>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        Ok(self.writer.write_bool(v)?)
    }

    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        Ok(self.writer.write_i64(i64::from(v))?)
    }

    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        Ok(self.writer.write_i64(i64::from(v))?)
    }

    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        Ok(self.writer.write_i64(i64::from(v))?)
    }

    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        Ok(self.writer.write_i64(v)?)
    }

    #[inline]
    fn serialize_i128(self, v: i128) -> Result<()> {
        Ok(self.writer.write_i128(v)?)
    }

    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        Ok(self.writer.write_u64(u64::from(v))?)
    }

    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        Ok(self.writer.write_u64(u64::from(v))?)
    }

    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        Ok(self.writer.write_u64(u64::from(v))?)
    }

    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        Ok(self.writer.write_u64(v)?)
    }

    #[inline]
    fn serialize_u128(self, v: u128) -> Result<()> {
        Ok(self.writer.write_u128(v)?)
    }

    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        Ok(self.writer.write_f32(v)?)
    }

    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        Ok(self.writer.write_f64(v)?)
    }

    fn serialize_char(self, v: char) -> Result<()> {
        Ok(self.writer.write_str(v.encode_utf8(&mut [0; 4]))?)
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        Ok(self.writer.write_str(v)?)
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.write_bytes(v)
    }

    #[inline]
    fn serialize_none(self) -> Result<()> {
        Ok(self.writer.write_null()?)
    }

    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<()> {
        Ok(self.writer.write_null()?)
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        Ok(self.writer.write_null()?)
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
    ) -> Result<()> {
        Ok(self.writer.write_str(variant)?)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.open_variant(variant)?;
        value.serialize(&mut *self)?;
        Ok(self.writer.write_map_end()?)
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, W>> {
        self.writer.write_array_root(len)?;
        Ok(Compound::new(self, Close::Array))
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, W>> {
        self.writer.write_array_root(Some(len))?;
        Ok(Compound::new(self, Close::Array))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, W>> {
        self.writer.write_array_root(Some(len))?;
        Ok(Compound::new(self, Close::Array))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, W>> {
        self.open_variant(variant)?;
        self.writer.write_array_root(Some(len))?;
        Ok(Compound::new(self, Close::ArrayInVariant))
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, W>> {
        self.writer.write_map_root(len)?;
        Ok(Compound::new(self, Close::Map))
    }

    #[inline]
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Compound<'a, W>> {
        self.writer.write_struct_root(name, Some(len))?;
        Ok(Compound::new(self, Close::Struct))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, W>> {
        self.open_variant(variant)?;
        self.writer.write_struct_root(variant, Some(len))?;
        Ok(Compound::new(self, Close::StructInVariant))
    }

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }
}

/// What closes a [`Compound`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Close {
    Array,
    ArrayInVariant,
    Map,
    Struct,
    StructInVariant,
}

/// The serializer of a sequence, tuple, map or struct in progress.
#[derive(Debug)]
pub struct Compound<'a, W> {
    ser: &'a mut Serializer<W>,
    close: Close,
}

impl<'a, W: Writer> Compound<'a, W> {
    fn new(ser: &'a mut Serializer<W>, close: Close) -> Compound<'a, W> {
        Compound { ser, close }
    }

    fn close(self) -> Result<()> {
        let writer = &mut self.ser.writer;
        match self.close {
            Close::Array => writer.write_array_end()?,
            Close::ArrayInVariant => {
                writer.write_array_end()?;
                writer.write_map_end()?;
            }
            Close::Map => writer.write_map_end()?,
            Close::Struct => writer.write_struct_end()?,
            Close::StructInVariant => {
                writer.write_struct_end()?;
                writer.write_map_end()?;
            }
        }
        Ok(())
    }

    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.ser)
    }

    #[inline]
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.ser.writer.write_name(key)?;
        value.serialize(&mut *self.ser)
    }
}

impl<W: Writer> ser::SerializeSeq for Compound<'_, W> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }

    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<W: Writer> ser::SerializeTuple for Compound<'_, W> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }

    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<W: Writer> ser::SerializeTupleStruct for Compound<'_, W> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }

    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<W: Writer> ser::SerializeTupleVariant for Compound<'_, W> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }

    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<W: Writer> ser::SerializeMap for Compound<'_, W> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        key.serialize(KeySerializer {
            writer: &mut self.ser.writer,
            human_readable: self.ser.human_readable,
        })
    }

    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }

    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<W: Writer> ser::SerializeStruct for Compound<'_, W> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }

    fn end(self) -> Result<()> {
        self.close()
    }
}

impl<W: Writer> ser::SerializeStructVariant for Compound<'_, W> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }

    fn end(self) -> Result<()> {
        self.close()
    }
}

/// Writes a map key as a `Name`: strings as they are, numbers, booleans and chars as their
/// text (as serde_json does), unit variants as their name.
struct KeySerializer<'a, W> {
    writer: &'a mut W,
    human_readable: bool,
}

impl<W: Writer> KeySerializer<'_, W> {
    fn number(self, number: Number<'_>) -> Result<()> {
        Ok(self.writer.write_name(&number.to_string())?)
    }

    #[cold]
    fn invalid(what: &str) -> Error {
        Error::new(
            codes::INVALID_KEY,
            format!(
                "a map key must be a string, a number, a bool, a char or a unit variant, not {what}"
            ),
        )
    }
}

impl<W: Writer> ser::Serializer for KeySerializer<'_, W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        Ok(self.writer.write_name(if v { "true" } else { "false" })?)
    }

    fn serialize_i8(self, v: i8) -> Result<()> {
        self.number(Number::I64(i64::from(v)))
    }

    fn serialize_i16(self, v: i16) -> Result<()> {
        self.number(Number::I64(i64::from(v)))
    }

    fn serialize_i32(self, v: i32) -> Result<()> {
        self.number(Number::I64(i64::from(v)))
    }

    fn serialize_i64(self, v: i64) -> Result<()> {
        self.number(Number::I64(v))
    }

    fn serialize_i128(self, v: i128) -> Result<()> {
        self.number(Number::I128(v))
    }

    fn serialize_u8(self, v: u8) -> Result<()> {
        self.number(Number::U64(u64::from(v)))
    }

    fn serialize_u16(self, v: u16) -> Result<()> {
        self.number(Number::U64(u64::from(v)))
    }

    fn serialize_u32(self, v: u32) -> Result<()> {
        self.number(Number::U64(u64::from(v)))
    }

    fn serialize_u64(self, v: u64) -> Result<()> {
        self.number(Number::U64(v))
    }

    fn serialize_u128(self, v: u128) -> Result<()> {
        self.number(Number::U128(v))
    }

    fn serialize_f32(self, v: f32) -> Result<()> {
        if !v.is_finite() {
            return Err(Self::invalid("a non-finite float"));
        }
        self.number(Number::F32(v))
    }

    fn serialize_f64(self, v: f64) -> Result<()> {
        if !v.is_finite() {
            return Err(Self::invalid("a non-finite float"));
        }
        self.number(Number::F64(v))
    }

    fn serialize_char(self, v: char) -> Result<()> {
        Ok(self.writer.write_name(v.encode_utf8(&mut [0; 4]))?)
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        Ok(self.writer.write_name(v)?)
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<()> {
        Err(Self::invalid("bytes"))
    }

    fn serialize_none(self) -> Result<()> {
        Err(Self::invalid("None"))
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<()> {
        Err(Self::invalid("an Option"))
    }

    fn serialize_unit(self) -> Result<()> {
        Err(Self::invalid("()"))
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<()> {
        Err(Self::invalid(&format!("the unit struct {name}")))
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
    ) -> Result<()> {
        Ok(self.writer.write_name(variant)?)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        _value: &T,
    ) -> Result<()> {
        Err(Self::invalid(&format!("the newtype variant {variant}")))
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(Self::invalid("a sequence"))
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(Self::invalid("a tuple"))
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(Self::invalid(&format!("the tuple struct {name}")))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(Self::invalid(&format!("the tuple variant {variant}")))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(Self::invalid("a map"))
    }

    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(Self::invalid(&format!("the struct {name}")))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(Self::invalid(&format!("the struct variant {variant}")))
    }

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }
}
