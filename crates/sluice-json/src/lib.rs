//! JSON, relaxed JSON (comments, trailing commas, JSON5) and NDJSON readers and writers for
//! sluice.
//!
//! - [`JsonReader`] implements [`sluice_core::Reader`] over a slice or string (zero copy) or
//!   any [`std::io::Read`] (bounded memory), strict RFC 8259 by default, with every
//!   relaxation a switch of its own in [`JsonOptions`].
//! - [`JsonWriter`] implements [`sluice_core::Writer`]: condensed or pretty, with scoped
//!   one-line output inside pretty documents, shortest round-trip floats and exact integers.
//! - [`NdjsonReader`] and [`NdjsonWriter`]: one record per line, read one by one;
//!   [`parallel`] reads the records of a large input on every core.
//! - [`codes`]: the stable error codes of this crate, to match errors on; [`Relaxation`]:
//!   the switch of [`JsonOptions`] that an error's note names, when one would have avoided it.
//!
//! ```
//! use sluice_core::pipe;
//! use sluice_json::{JsonOptions, JsonReader, JsonWriter, WriterOptions};
//! let text = "{ // settings\n  \"volume\": 11, \"tags\": [\"a\", \"b\",],\n}";
//! let mut reader = JsonReader::from_str(text).with_options(JsonOptions::relaxed());
//! let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
//! pipe(&mut reader, &mut writer)?;
//! assert_eq!(writer.into_string()?, r#"{"volume":11,"tags":["a","b"]}"#);
//! # Ok::<(), sluice_core::Error>(())
//! ```
#![warn(missing_docs)]

pub mod codes;
// The bodies of the cargo-fuzz targets, public so that `fuzz/` and the replay test can call
// them; they panic on purpose when a property fails, so they are not part of the API. The
// comparison with serde_json in them takes the `fuzzing` feature, which brings serde_json.
#[doc(hidden)]
pub mod fuzzing;
mod hint;
mod input;
mod keys;
mod ndjson;
mod options;
pub mod parallel;
mod reader;
mod scan;
mod writer;

/// The JSON chapter of the book, compiled here so that its examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/src/json.md")]
pub struct JsonChapter;

pub use hint::Relaxation;
pub use input::{IO_WINDOW, Input, IoInput, Refill, SliceInput};
pub use ndjson::{NdjsonReader, NdjsonWriter, Record};
pub use options::{DuplicateKeys, JsonOptions};
pub use reader::JsonReader;
pub use writer::{BlobMode, ExtMode, JsonWriter, NonFinite, WriterOptions};
