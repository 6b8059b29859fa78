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
//! | value → JSON text, choosing what is written ([`SerializeOptions`]) | [`json::to_string_with_options`], [`json::to_writer_with_options`] |
//! | MessagePack ↔ value | [`msgpack::from_slice`], [`msgpack::to_vec`], [`msgpack::to_vec_with_options`] |
//! | NDJSON records, one by one | [`ndjson::iter_slice`], [`ndjson::iter_str`] (in memory), [`ndjson::iter`] (any `io::Read`) |
//! | NDJSON records on every core | [`ndjson::par_for_each`], [`ndjson::par_collect`] |
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
pub use sluice_reflect::handlers::options::{FloatFormat, SerializeOptions, TypeTags};
pub use sluice_reflect::schema;
pub use sluice_reflect::{PropertyReader, PropertyWriter, Reflect, TypeRegistry, Typed};

/// The name given to in-memory input in rendered errors.
const INPUT_NAME: &str = "<input>";

/// The built-in handler tables the one-line helpers use, built once.
struct BuiltIn {
    json: reflect::handlers::Deserializer,
    /// `json`, checking duplicate keys itself (for readers that leave them to the target).
    json_checked: reflect::handlers::Deserializer,
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
        json_checked: {
            let mut table = builtin::json();
            table.check_duplicate_keys(Some(sluice_json::codes::DUPLICATE_KEY));
            table
        },
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

    /// The built-in table and the reader options for a typed read with `options`.
    ///
    /// When the options reject duplicate keys, the target checks them instead of the reader
    /// (a bit per struct field, a lookup per map key, rather than the reader tracking every key
    /// of every object): the same error code, span and path, read faster.
    pub(crate) fn typed_read(options: JsonOptions) -> (&'static Deserializer, JsonOptions) {
        let tables = crate::built_in();
        match options.duplicate_keys {
            DuplicateKeys::Error => (
                &tables.json_checked,
                JsonOptions {
                    duplicate_keys: DuplicateKeys::LastWins,
                    ..options
                },
            ),
            DuplicateKeys::LastWins => (&tables.json, options),
        }
    }

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
        from_str_with(text, JsonOptions::default())
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
        let (table, options) = typed_read(options);
        // Text is UTF-8 already: the reader need not check its strings again.
        let mut reader = JsonReader::new(SliceInput::from_text(text), options);
        table
            .deserialize(&mut reader, &crate::built_in().registry)
            .map_err(|e| e.with_source_text(crate::INPUT_NAME, text.as_bytes()))
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
        let (table, options) = typed_read(options);
        from_slice_using(bytes, options, table, &crate::built_in().registry)
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
        let (table, options) = typed_read(JsonOptions::default());
        let mut reader = JsonReader::new(IoInput::new(reader), options);
        table.deserialize(&mut reader, &crate::built_in().registry)
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
        let mut writer = JsonWriter::for_string(options);
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

    // ---- serializer options ----

    fn writer_options(options: &crate::SerializeOptions) -> WriterOptions {
        if options.pretty {
            WriterOptions::pretty()
        } else {
            WriterOptions::condensed()
        }
    }

    /// Writes a value as JSON text under [`SerializeOptions`](crate::SerializeOptions)
    /// (defaults left out, type tags, versions, sorted map keys, a field filter, pretty,
    /// fixed-digit floats).
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// use sluice::{FloatFormat, SerializeOptions};
    /// let prices = BTreeMap::from([("tea".to_string(), 2.5f64), ("cake".to_string(), 3.0)]);
    /// let options = SerializeOptions::new().float_format(FloatFormat::Fixed(2));
    /// assert_eq!(sluice::json::to_string_with_options(&prices, &options)?, r#"{"cake":3.00,"tea":2.50}"#);
    /// # Ok::<(), sluice::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`to_string`].
    pub fn to_string_with_options<T: Reflect>(
        value: &T,
        options: &crate::SerializeOptions,
    ) -> Result<String> {
        let tables = crate::built_in();
        to_string_using_options(value, options, &tables.json_out, &tables.registry)
    }

    /// [`to_string_with_options`] through a handler table and registry of your own.
    ///
    /// # Errors
    /// As [`to_string_using`].
    pub fn to_string_using_options<T: Reflect>(
        value: &T,
        options: &crate::SerializeOptions,
        table: &Serializer,
        registry: &TypeRegistry,
    ) -> Result<String> {
        let mut writer = JsonWriter::new(Vec::with_capacity(128), writer_options(options));
        table.serialize_with_options(value, &mut writer, registry, options)?;
        writer.into_string()
    }

    /// Writes a value as JSON into any [`io::Write`] under
    /// [`SerializeOptions`](crate::SerializeOptions).
    ///
    /// # Errors
    /// As [`to_string`], and I/O errors.
    pub fn to_writer_with_options<W: io::Write, T: Reflect>(
        sink: W,
        value: &T,
        options: &crate::SerializeOptions,
    ) -> Result<()> {
        let mut writer = JsonWriter::new(sink, writer_options(options));
        let tables = crate::built_in();
        tables
            .json_out
            .serialize_with_options(value, &mut writer, &tables.registry, options)?;
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

    /// Writes a value as MessagePack under [`SerializeOptions`](crate::SerializeOptions).
    ///
    /// # Errors
    /// As [`to_vec`]; [`OPTION_NOT_SUPPORTED`](crate::reflect::handlers::options::OPTION_NOT_SUPPORTED)
    /// for `pretty` and for floats other than [`FloatFormat::Shortest`](crate::FloatFormat::Shortest).
    pub fn to_vec_with_options<T: Reflect>(
        value: &T,
        options: &crate::SerializeOptions,
    ) -> Result<Vec<u8>> {
        let tables = crate::built_in();
        to_vec_using_options(value, options, &tables.msgpack_out, &tables.registry)
    }

    /// [`to_vec_with_options`] through a handler table and registry of your own.
    ///
    /// # Errors
    /// As [`to_vec_with_options`], and the errors of the table's handlers.
    pub fn to_vec_using_options<T: Reflect>(
        value: &T,
        options: &crate::SerializeOptions,
        table: &Serializer,
        registry: &TypeRegistry,
    ) -> Result<Vec<u8>> {
        options.check_binary("MessagePack")?;
        let mut writer = MsgPackWriter::new(Vec::with_capacity(128));
        table.serialize_with_options(value, &mut writer, registry, options)?;
        writer.into_inner()
    }
}

/// NDJSON: typed records, one by one or on every core.
///
/// Two ways to read records:
///
/// - [`iter`](ndjson::iter): one by one on the calling thread, from any [`io::Read`](std::io::Read), in bounded memory;
///   [`iter_slice`](ndjson::iter_slice) and [`iter_str`](ndjson::iter_str) give the same items from input
///   already in memory, read in place (faster: no copy through a window);
/// - [`par_for_each`](ndjson::par_for_each) and [`par_collect`](ndjson::par_collect): on every core. The input is cut into blocks at line
///   breaks, worker threads deserialize the records of each block, and the results come back
///   in input order (or as soon as ready, with [`ParallelOptions::ordered`](ndjson::ParallelOptions::ordered) off). A bad record
///   reports its line number and byte offset; with [`ParallelOptions::skip_errors`](ndjson::ParallelOptions::skip_errors) it is
///   collected in [`IngestSummary::errors`](ndjson::IngestSummary::errors) and the run goes on.
///   [`par_for_each_into`](ndjson::par_for_each_into) fills the summary as it goes, so that a
///   run that fails still tells what it delivered and where to resume.
///
/// To handle each record as a token stream instead of a typed value, use
/// [`json::parallel::ingest_records`] or
/// [`ingest_blocks`](crate::json::parallel::ingest_blocks). Cutting by byte range at line
/// breaks is also how to go past one machine: any engine that shards a file that way can run
/// these functions per shard.
pub mod ndjson {
    use std::io;

    use sluice_core::Result;
    use sluice_json::parallel::ingest_records_into;
    use sluice_json::{Input, IoInput, JsonOptions, NdjsonReader, SliceInput};
    use sluice_reflect::Typed;

    pub use sluice_json::parallel::{IngestSummary, ParallelOptions, RecordError, RecordInfo};

    /// Deserializes every record of NDJSON `input` into a `T` on all cores and hands each to
    /// `sink` on the calling thread, in input order unless [`ParallelOptions::ordered`] is off.
    ///
    /// Memory follows the block size and the longest line, not the input's size: a few blocks
    /// per worker are in flight, and a line longer than a block is held whole.
    ///
    /// ```
    /// use sluice::Reflect;
    /// use sluice::ndjson::ParallelOptions;
    /// #[derive(Reflect, Debug, PartialEq)]
    /// struct Event { id: u32, kind: String }
    ///
    /// let input = "{\"id\": 1, \"kind\": \"start\"}\n{\"id\": 2, \"kind\": \"stop\"}\n";
    /// let mut ids = Vec::new();
    /// let summary = sluice::ndjson::par_for_each(input.as_bytes(), &ParallelOptions::default(), |event: Event| {
    ///     ids.push(event.id);
    ///     Ok(())
    /// })?;
    /// assert_eq!((ids, summary.records), (vec![1, 2], 2));
    /// # Ok::<(), sluice::Error>(())
    /// ```
    ///
    /// # Errors
    /// An I/O error, an error returned by `sink`, or (unless [`ParallelOptions::skip_errors`]
    /// is on) the first bad record in input order, with a note naming its line and byte offset
    /// and the record's text attached for [`Error::render`](crate::Error::render). A run that
    /// fails returns no summary: [`par_for_each_into`] tells what it delivered before the
    /// error and where to resume.
    pub fn par_for_each<T, R, S>(
        input: R,
        options: &ParallelOptions,
        sink: S,
    ) -> Result<IngestSummary>
    where
        T: Typed + Send,
        R: io::Read,
        S: FnMut(T) -> Result<()>,
    {
        let mut summary = IngestSummary::default();
        par_for_each_into(input, options, &mut summary, sink)?;
        Ok(summary)
    }

    /// [`par_for_each`], filling `summary` (emptied first) as the run goes, so that a run
    /// that fails still tells what it delivered: `records` counts the records `sink` took,
    /// `errors` holds the bad records collected before `bytes`, and `bytes` is the offset to
    /// resume from, the start of the first line not done with (the line the input broke in,
    /// the bad record that stopped the run, or the record `sink` failed at). A run resumed
    /// there neither repeats nor skips a record, when [`ParallelOptions::ordered`] is on; see
    /// [`IngestSummary`] for a run out of order.
    ///
    /// ```
    /// use sluice::ndjson::{IngestSummary, ParallelOptions};
    /// let input = "[1, 2]\n[3, 4]\n[5, 6]\n";
    /// let mut pairs = Vec::new();
    /// let mut summary = IngestSummary::default();
    /// // The sink takes two records, then fails (a full disk, a closed connection).
    /// let run = sluice::ndjson::par_for_each_into(input.as_bytes(), &ParallelOptions::default(), &mut summary, |pair: (u8, u8)| {
    ///     if pairs.len() == 2 {
    ///         return Err(sluice::Error::custom("the queue is full"));
    ///     }
    ///     pairs.push(pair);
    ///     Ok(())
    /// });
    /// assert!(run.is_err());
    /// // The third record, on the line at byte 14, is where to resume.
    /// assert_eq!((summary.records, summary.bytes), (2, 14));
    /// ```
    ///
    /// # Errors
    /// As [`par_for_each`].
    pub fn par_for_each_into<T, R, S>(
        input: R,
        options: &ParallelOptions,
        summary: &mut IngestSummary,
        sink: S,
    ) -> Result<()>
    where
        T: Typed + Send,
        R: io::Read,
        S: FnMut(T) -> Result<()>,
    {
        // As `json::from_str`: the target checks duplicate keys, the readers do not track them.
        let (table, json) = crate::json::typed_read(options.json.clone());
        let options = ParallelOptions {
            json,
            ..options.clone()
        };
        let registry = &crate::built_in().registry;
        ingest_records_into(
            input,
            &options,
            summary,
            |reader| table.deserialize(reader, registry),
            sink,
        )
    }

    /// Deserializes every record of NDJSON `input` into a `T` on all cores and collects them
    /// (in input order unless [`ParallelOptions::ordered`] is off).
    ///
    /// ```
    /// use sluice::ndjson::ParallelOptions;
    /// let input = "[1, 2]\n[3, \"x\"]\n[5, 6]\n";
    /// let options = ParallelOptions { skip_errors: true, ..ParallelOptions::default() };
    /// let (pairs, summary) = sluice::ndjson::par_collect::<(u8, u8), _>(input.as_bytes(), &options)?;
    /// assert_eq!(pairs, [(1, 2), (5, 6)]);
    /// assert_eq!(summary.errors[0].record.line, 2);
    /// # Ok::<(), sluice::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`par_for_each`].
    pub fn par_collect<T, R>(input: R, options: &ParallelOptions) -> Result<(Vec<T>, IngestSummary)>
    where
        T: Typed + Send,
        R: io::Read,
    {
        let mut records = Vec::new();
        let summary = par_for_each(input, options, |record| {
            records.push(record);
            Ok(())
        })?;
        Ok((records, summary))
    }

    /// Iterates over the records of NDJSON input as values of type `T`: one `Result` per
    /// record, and a bad line's error does not end the iteration (see [`Records`]).
    ///
    /// For input already in memory (a downloaded body, a memory-mapped file), [`iter_slice`]
    /// and [`iter_str`] give the same items faster: they read the bytes in place rather
    /// than copy them through the window this reader keeps for a stream.
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
            inner: TypedRecords::new(IoInput::new(reader)),
        }
    }

    /// Iterates over the records of NDJSON bytes held in memory as values of type `T`: the
    /// items of [`iter`] over the same bytes (the same values, and the same errors with the
    /// same codes, spans and notes, after which it goes on with the next line; see
    /// [`Records`]), read in place with no copy. There is no I/O error to meet.
    ///
    /// Use it whenever the whole input is in memory; [`iter`] is for a stream (a file, a
    /// socket, standard input) that should not be read whole first. Invalid UTF-8 inside a
    /// string is an error; [`iter_str`] skips that check for text known to be UTF-8.
    ///
    /// Errors carry byte spans into `bytes` but not the text itself: attach it with
    /// [`Error::with_source_text`](crate::Error::with_source_text) to
    /// [`render`](crate::Error::render) the offending line.
    ///
    /// ```
    /// use sluice::Reflect;
    /// #[derive(Reflect, Debug, PartialEq)]
    /// struct Event { id: u32, kind: String }
    ///
    /// let body: &[u8] = b"{\"id\": 1, \"kind\": \"start\"}\n{\"id\": \"2\"}\n{\"id\": 3, \"kind\": \"stop\"}\n";
    /// let mut events = Vec::new();
    /// for record in sluice::ndjson::iter_slice::<Event>(body) {
    ///     match record {
    ///         Ok(event) => events.push(event.id),
    ///         // A bad line yields its error, then the iteration goes on with the next line.
    ///         Err(error) => assert_eq!(error.code(), sluice::reflect::codes::WRONG_TYPE),
    ///     }
    /// }
    /// assert_eq!(events, [1, 3]);
    /// # Ok::<(), sluice::Error>(())
    /// ```
    pub fn iter_slice<T: Typed>(bytes: &[u8]) -> SliceRecords<'_, T> {
        SliceRecords {
            inner: TypedRecords::new(SliceInput::new(bytes)),
        }
    }

    /// [`iter_slice`] over text: the same items, and strings are not checked for UTF-8
    /// again.
    ///
    /// ```
    /// let pairs: Vec<(u8, u8)> = sluice::ndjson::iter_str("[1, 2]\n\n[3, 4]\n").collect::<Result<_, _>>()?;
    /// assert_eq!(pairs, [(1, 2), (3, 4)]);
    /// # Ok::<(), sluice::Error>(())
    /// ```
    pub fn iter_str<T: Typed>(text: &str) -> SliceRecords<'_, T> {
        SliceRecords {
            inner: TypedRecords::new(SliceInput::from_text(text)),
        }
    }

    /// The iterator of [`iter`]: one `Result<T>` per record, in input order.
    ///
    /// A record is yielded as a `T` once it is read whole and its line holds nothing more up
    /// to its line feed (see [`Record::finish`](crate::json::Record::finish)). A bad record
    /// yields its first error, once, with a note naming its line: a value that does not fit
    /// `T`, an error in the input inside it (a syntax error, a value cut by its line feed,
    /// ...), or a second value on its line (`1 2`:
    /// [`TRAILING_TOKEN`](crate::json::codes::TRAILING_TOKEN) at that value, with the first
    /// record's line). A line whose first token is bad (`]`) yields that error. Then the
    /// iteration goes on with the next line, so the records and the bad lines (each with its
    /// error's code) are those of [`par_for_each`] with
    /// [`skip_errors`](ParallelOptions::skip_errors). An I/O error is yielded once and ends
    /// the iteration.
    ///
    /// ```
    /// use sluice::json::codes;
    /// let input = "[1, 2]\n[3, \"x\"]\n[5,\n[7, 8] [9]\n[10, 11]\n";
    /// let results: Vec<sluice::Result<(u8, u8)>> = sluice::ndjson::iter(input.as_bytes()).collect();
    /// let codes: Vec<_> = results.iter().map(|r| r.as_ref().map_err(|e| e.code())).collect();
    /// assert_eq!(
    ///     codes,
    ///     [
    ///         Ok(&(1, 2)),
    ///         Err(sluice::reflect::codes::WRONG_TYPE),
    ///         Err(codes::UNEXPECTED_EOF),
    ///         Err(codes::TRAILING_TOKEN),
    ///         Ok(&(10, 11)),
    ///     ]
    /// );
    /// ```
    pub struct Records<T, R> {
        inner: TypedRecords<T, IoInput<R>>,
    }

    /// The iterator of [`iter_slice`] and [`iter_str`]: the items of [`Records`] over the
    /// same bytes, borrowed for `'a`.
    pub struct SliceRecords<'a, T> {
        inner: TypedRecords<T, SliceInput<'a>>,
    }

    impl<T, R> std::fmt::Debug for Records<T, R> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.inner.debug("Records", f)
        }
    }

    impl<T> std::fmt::Debug for SliceRecords<'_, T> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.inner.debug("SliceRecords", f)
        }
    }

    impl<T: Typed, R: io::Read> Iterator for Records<T, R> {
        type Item = Result<T>;

        fn next(&mut self) -> Option<Result<T>> {
            self.inner.next_item()
        }
    }

    impl<T: Typed> Iterator for SliceRecords<'_, T> {
        type Item = Result<T>;

        fn next(&mut self) -> Option<Result<T>> {
            self.inner.next_item()
        }
    }

    /// What [`Records`] and [`SliceRecords`] share: the typed iteration over any input of
    /// an [`NdjsonReader`], so that both give the same items.
    struct TypedRecords<T, S> {
        reader: NdjsonReader<S>,
        /// The table's reads of `T`: found once whether the table applies in `T`.
        reads: sluice_reflect::handlers::TypedReads<'static, T>,
        /// Whether the last item was an error: if it was one in the input, its line is
        /// dropped before the next record is read.
        after_error: bool,
        done: bool,
    }

    // Without bounds, as the iterators' `Debug` has none.
    impl<T, S> TypedRecords<T, S> {
        fn debug(&self, name: &str, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct(name).field("done", &self.done).finish()
        }
    }

    impl<T, S: Input> TypedRecords<T, S> {
        fn new(input: S) -> Self {
            // As `json::from_str`: the target checks duplicate keys, the reader does not
            // track them.
            let (table, options) = crate::json::typed_read(JsonOptions::ndjson());
            TypedRecords {
                reader: NdjsonReader::new(input, options),
                reads: table.typed_reads(&crate::built_in().registry),
                after_error: false,
                done: false,
            }
        }

        /// `error` as an item; an I/O error, which the reader reports again from then on,
        /// ends the iteration.
        fn failed(&mut self, error: crate::Error) -> Option<Result<T>> {
            if error.code() == crate::core::codes::IO {
                self.done = true;
            } else {
                self.after_error = true;
            }
            Some(Err(error))
        }
    }

    impl<T: Typed, S: Input> TypedRecords<T, S> {
        fn next_item(&mut self) -> Option<Result<T>> {
            if self.done {
                return None;
            }
            // After an error in the input, its line is dropped (nothing is, after a record
            // that did not fit `T`). Only an I/O error can fail this, one not yielded yet
            // (met in the rest of a record that did not fit).
            if std::mem::take(&mut self.after_error)
                && let Err(error) = self.reader.skip_bad_record()
            {
                return self.failed(error);
            }
            let mut record = match self.reader.next_record() {
                Ok(Some(record)) => record,
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Err(error) => return self.failed(error),
            };
            let line = record.line();
            let value = match self.reads.read(&mut record) {
                // Good only if its line holds nothing more: a second value on it is this
                // record's error.
                Ok(value) => record.finish().map(|()| value),
                // The rest of the record is read here, so that an error in it (a second
                // value on the line) is dropped with the line rather than yielded as one
                // more record; the line's first error is the one yielded. Any error in the
                // rest leaves the reader failed, and `skip_bad_record` finds it.
                Err(error) => Err(record.first_error(error)),
            };
            match value {
                Ok(value) => Some(Ok(value)),
                Err(error) => self.failed(error.with_note(format!("in the record on line {line}"))),
            }
        }
    }
}

/// The code samples of the book's reflection chapter, run as doctests of this crate.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/src/reflection.md")]
pub struct ReflectionChapter;
