//! sluice: move structured data between JSON, NDJSON, MessagePack and Rust values as a
//! stream of tokens.
//!
//! This crate is the front door. It re-exports the parts ([`core`], [`json`], [`msgpack`],
//! [`reflect`] and the `Reflect` derive) and adds one-line helpers for the common jobs:
//!
//! | job | helper |
//! |---|---|
//! | JSON text → value | [`json::from_str`], [`json::from_slice`], [`json::from_reader`], [`json::from_str_with`] (relaxed JSON, JSON5) |
//! | value → JSON text | [`json::to_string`], [`json::to_string_pretty`], [`json::to_writer`] |
//! | MessagePack ↔ value | [`msgpack::from_slice`], [`msgpack::to_vec`] |
//! | NDJSON records, one by one | [`ndjson::iter`] |
//!
//! Each helper runs a built-in handler table ([`reflect::handlers::builtin`]) between a format
//! reader/writer and the value: the conventions of the "Handlers" chapter of the book (enums by
//! name, flags as name arrays, maps with struct keys as `$key` / `$value` entries, sorted sets,
//! `$`-fields skipped...), and for types none of them applies to, a bare
//! [`pipe`](fn@pipe) with a [`PropertyReader`] / [`PropertyWriter`]. The `_using` variants
//! ([`json::from_slice_using`], [`json::to_string_using`], [`msgpack::from_slice_using`],
//! [`msgpack::to_vec_using`]) take a table and a [`TypeRegistry`] of your own. Errors carry a
//! stable code, the data path, the Rust type path and (for in-memory input) the source text,
//! so [`Error::render`] shows the offending line.
//!
//! ```
//! use sluice::Reflect;
//!
//! #[derive(Reflect, Debug, PartialEq)]
//! struct Settings { name: String, volume: u8, tags: Vec<String> }
//!
//! let settings: Settings = sluice::json::from_str(r#"{"name": "demo", "volume": 7, "tags": ["a"]}"#)?;
//! assert_eq!(settings.volume, 7);
//! assert_eq!(sluice::json::to_string(&settings)?, r#"{"name":"demo","volume":7,"tags":["a"]}"#);
//!
//! let error = sluice::json::from_str::<Settings>(r#"{"name": "demo", "volume": 300, "tags": []}"#).unwrap_err();
//! assert_eq!(error.code(), sluice::core::codes::NUMBER_OUT_OF_RANGE);
//! assert_eq!(error.path().map(ToString::to_string).as_deref(), Some("$.volume"));
//! assert!(error.render().contains("300"));
//! # Ok::<(), sluice::Error>(())
//! ```
#![warn(missing_docs)]

pub use sluice_core as core;
pub use sluice_reflect as reflect;

pub use sluice_core::{Entry, Error, Reader, Result, Value, Writer, pipe};
pub use sluice_reflect::{PropertyReader, PropertyWriter, Reflect, TypeRegistry, Typed};

/// The name given to in-memory input in rendered errors.
const INPUT_NAME: &str = "<input>";

/// The built-in handler tables the one-line helpers use, built once.
struct BuiltIn {
    json: reflect::handlers::Deserializer,
    json_out: reflect::handlers::Serializer,
    msgpack: reflect::handlers::Deserializer,
    msgpack_out: reflect::handlers::Serializer,
    registry: TypeRegistry,
}

fn built_in() -> &'static BuiltIn {
    use reflect::handlers::builtin;
    static TABLES: std::sync::OnceLock<BuiltIn> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| BuiltIn {
        json: builtin::json(),
        json_out: builtin::json_serializer(),
        msgpack: builtin::msgpack(),
        msgpack_out: builtin::msgpack_serializer(),
        registry: TypeRegistry::new(),
    })
}

/// JSON: the `sluice-json` crate, plus one-line helpers to and from Rust values.
pub mod json {
    use std::io;

    use sluice_core::Result;
    use sluice_reflect::handlers::{Deserializer, Serializer};
    use sluice_reflect::{Reflect, TypeRegistry, Typed};

    pub use sluice_json::*;

    /// Reads a value of type `T` from strict JSON text (RFC 8259).
    ///
    /// ```
    /// let pairs: Vec<(String, i32)> = sluice::json::from_str(r#"[["a", 1], ["b", -2]]"#)?;
    /// assert_eq!(pairs, [("a".to_string(), 1), ("b".to_string(), -2)]);
    /// # Ok::<(), sluice::Error>(())
    /// ```
    ///
    /// # Errors
    /// A syntax error, or a value that does not fit `T` (unknown or missing field, wrong type,
    /// number out of range...), with the source text attached for [`Error::render`](crate::Error::render).
    pub fn from_str<T: Typed>(text: &str) -> Result<T> {
        from_slice_with(text.as_bytes(), JsonOptions::default())
    }

    /// Reads a value of type `T` from JSON text with the given options (comments, trailing
    /// commas, JSON5...).
    ///
    /// ```
    /// use sluice::json::JsonOptions;
    /// let list: Vec<u8> = sluice::json::from_str_with("[1, 2, /* three */ 3,]", JsonOptions::relaxed())?;
    /// assert_eq!(list, [1, 2, 3]);
    /// # Ok::<(), sluice::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`from_str`].
    pub fn from_str_with<T: Typed>(text: &str, options: JsonOptions) -> Result<T> {
        from_slice_with(text.as_bytes(), options)
    }

    /// Reads a value of type `T` from strict JSON bytes.
    ///
    /// # Errors
    /// As [`from_str`]; invalid UTF-8 in a string is an error too.
    pub fn from_slice<T: Typed>(bytes: &[u8]) -> Result<T> {
        from_slice_with(bytes, JsonOptions::default())
    }

    /// Reads a value of type `T` from JSON bytes with the given options.
    ///
    /// # Errors
    /// As [`from_str`].
    pub fn from_slice_with<T: Typed>(bytes: &[u8], options: JsonOptions) -> Result<T> {
        let tables = crate::built_in();
        from_slice_using(bytes, options, &tables.json, &tables.registry)
    }

    /// Reads a value of type `T` from JSON bytes through a handler table of your own (such as
    /// [`builtin::json_relaxed`](crate::reflect::handlers::builtin::json_relaxed) for O3DE's
    /// coercions), with a registry for polymorphic values and marks.
    ///
    /// ```
    /// use sluice::json::JsonOptions;
    /// use sluice::reflect::handlers::builtin;
    /// let table = builtin::json_relaxed();
    /// let flags: Vec<bool> = sluice::json::from_slice_using(
    ///     b"[true, \"FALSE\", 1]", JsonOptions::default(), &table, &sluice::TypeRegistry::new())?;
    /// assert_eq!(flags, [true, false, true]);
    /// # Ok::<(), sluice::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`from_str`], and the errors of the table's handlers.
    pub fn from_slice_using<T: Typed>(
        bytes: &[u8],
        options: JsonOptions,
        table: &Deserializer,
        registry: &TypeRegistry,
    ) -> Result<T> {
        let mut reader = JsonReader::new(SliceInput::new(bytes), options);
        table
            .deserialize(&mut reader, registry)
            .map_err(|e| e.with_source_text(crate::INPUT_NAME, bytes))
    }

    /// Reads a value of type `T` from strict JSON in any [`io::Read`], with bounded memory.
    ///
    /// Errors carry byte spans but no source text (the input is not kept).
    ///
    /// # Errors
    /// As [`from_str`], and I/O errors.
    pub fn from_reader<T: Typed, R: io::Read>(reader: R) -> Result<T> {
        let mut reader = JsonReader::new(IoInput::new(reader), JsonOptions::default());
        let tables = crate::built_in();
        tables.json.deserialize(&mut reader, &tables.registry)
    }

    /// Writes a value as condensed JSON text.
    ///
    /// # Errors
    /// When the value cannot be written as JSON (a non-finite float, with the default options).
    pub fn to_string<T: Reflect>(value: &T) -> Result<String> {
        to_string_with(value, WriterOptions::condensed())
    }

    /// Writes a value as pretty JSON text (indented, one member per line).
    ///
    /// ```
    /// let text = sluice::json::to_string_pretty(&vec![1u8, 2])?;
    /// assert!(text.contains('\n'));
    /// # Ok::<(), sluice::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`to_string`].
    pub fn to_string_pretty<T: Reflect>(value: &T) -> Result<String> {
        to_string_with(value, WriterOptions::pretty())
    }

    /// Writes a value as JSON text with the given writer options.
    ///
    /// # Errors
    /// As [`to_string`].
    pub fn to_string_with<T: Reflect>(value: &T, options: WriterOptions) -> Result<String> {
        let tables = crate::built_in();
        to_string_using(value, options, &tables.json_out, &tables.registry)
    }

    /// Writes a value as JSON text through a handler table of your own, with a registry for
    /// polymorphic values and marks.
    ///
    /// # Errors
    /// As [`to_string`], and the errors of the table's handlers.
    pub fn to_string_using<T: Reflect>(
        value: &T,
        options: WriterOptions,
        table: &Serializer,
        registry: &TypeRegistry,
    ) -> Result<String> {
        let mut writer = JsonWriter::new(Vec::with_capacity(128), options);
        table.serialize(value, &mut writer, registry)?;
        writer.into_string()
    }

    /// Writes a value as condensed JSON into any [`io::Write`].
    ///
    /// # Errors
    /// As [`to_string`], and I/O errors.
    pub fn to_writer<W: io::Write, T: Reflect>(sink: W, value: &T) -> Result<()> {
        let mut writer = JsonWriter::new(sink, WriterOptions::condensed());
        let tables = crate::built_in();
        tables
            .json_out
            .serialize(value, &mut writer, &tables.registry)?;
        writer.into_inner().map(drop)
    }
}

/// MessagePack: the `sluice-msgpack` crate, plus one-line helpers to and from Rust values.
pub mod msgpack {
    use sluice_core::Result;
    use sluice_reflect::handlers::{Deserializer, Serializer};
    use sluice_reflect::{Reflect, TypeRegistry, Typed};

    pub use sluice_msgpack::*;

    /// Reads a value of type `T` from MessagePack bytes.
    ///
    /// ```
    /// let bytes = sluice::msgpack::to_vec(&vec![Some(1u16), None])?;
    /// assert_eq!(bytes, [0x92, 0x01, 0xc0]);
    /// let back: Vec<Option<u16>> = sluice::msgpack::from_slice(&bytes)?;
    /// assert_eq!(back, [Some(1), None]);
    /// # Ok::<(), sluice::Error>(())
    /// ```
    ///
    /// # Errors
    /// Malformed MessagePack, or a value that does not fit `T`.
    pub fn from_slice<T: Typed>(bytes: &[u8]) -> Result<T> {
        let tables = crate::built_in();
        from_slice_using(bytes, &tables.msgpack, &tables.registry)
    }

    /// Reads a value of type `T` from MessagePack bytes through a handler table of your own,
    /// with a registry for polymorphic values and marks.
    ///
    /// # Errors
    /// As [`from_slice`], and the errors of the table's handlers.
    pub fn from_slice_using<T: Typed>(
        bytes: &[u8],
        table: &Deserializer,
        registry: &TypeRegistry,
    ) -> Result<T> {
        let mut reader = MsgPackReader::from_slice(bytes);
        table
            .deserialize(&mut reader, registry)
            .map_err(|e| e.with_source_text(crate::INPUT_NAME, bytes))
    }

    /// Writes a value as MessagePack (smallest encodings).
    ///
    /// # Errors
    /// When a value has no MessagePack form (an `i128` beyond the 64-bit range).
    pub fn to_vec<T: Reflect>(value: &T) -> Result<Vec<u8>> {
        let tables = crate::built_in();
        to_vec_using(value, &tables.msgpack_out, &tables.registry)
    }

    /// Writes a value as MessagePack through a handler table of your own, with a registry for
    /// polymorphic values and marks.
    ///
    /// # Errors
    /// As [`to_vec`], and the errors of the table's handlers.
    pub fn to_vec_using<T: Reflect>(
        value: &T,
        table: &Serializer,
        registry: &TypeRegistry,
    ) -> Result<Vec<u8>> {
        let mut writer = MsgPackWriter::new(Vec::with_capacity(128));
        table.serialize(value, &mut writer, registry)?;
        writer.into_inner()
    }
}

/// NDJSON: typed records one by one, with bounded memory.
pub mod ndjson {
    use std::io;
    use std::marker::PhantomData;

    use sluice_core::Result;
    use sluice_json::{IoInput, NdjsonReader};
    use sluice_reflect::Typed;

    /// Iterates over the records of NDJSON input as values of type `T`.
    ///
    /// ```
    /// use sluice::Reflect;
    /// #[derive(Reflect, Debug, PartialEq)]
    /// struct Event { id: u32, kind: String }
    ///
    /// let input = "{\"id\": 1, \"kind\": \"start\"}\n{\"id\": 2, \"kind\": \"stop\"}\n";
    /// let events: Vec<Event> = sluice::ndjson::iter(input.as_bytes()).collect::<Result<_, _>>()?;
    /// assert_eq!(events[1], Event { id: 2, kind: "stop".into() });
    /// # Ok::<(), sluice::Error>(())
    /// ```
    pub fn iter<T: Typed, R: io::Read>(reader: R) -> Records<T, R> {
        Records {
            reader: NdjsonReader::from_read(reader),
            done: false,
            marker: PhantomData,
        }
    }

    /// The iterator of [`iter`]: one `Result<T>` per record.
    ///
    /// A record that does not fit `T` yields its error (with a note naming the line) and the
    /// iteration goes on with the next record; a syntax error between records ends it.
    pub struct Records<T, R> {
        reader: NdjsonReader<IoInput<R>>,
        done: bool,
        marker: PhantomData<fn() -> T>,
    }

    impl<T, R> std::fmt::Debug for Records<T, R> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("Records").field("done", &self.done).finish()
        }
    }

    impl<T: Typed, R: io::Read> Iterator for Records<T, R> {
        type Item = Result<T>;

        fn next(&mut self) -> Option<Result<T>> {
            if self.done {
                return None;
            }
            let mut record = match self.reader.next_record() {
                Ok(Some(record)) => record,
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Err(error) => {
                    self.done = true;
                    return Some(Err(error));
                }
            };
            let line = record.line();
            Some(
                crate::built_in()
                    .json
                    .deserialize(&mut record, &crate::built_in().registry)
                    .map_err(|e| e.with_note(format!("in the record on line {line}"))),
            )
        }
    }
}

/// The code samples of the book's reflection chapter, run as doctests of this crate.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/src/reflection.md")]
pub struct ReflectionChapter;
