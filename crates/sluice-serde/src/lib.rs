//! Bridges between sluice and serde.
//!
//! - [`Deserializer`]: any sluice [`Reader`](sluice_core::Reader) (strict or relaxed JSON,
//!   JSON5, NDJSON records, MessagePack, a [`Value`](sluice_core::Value)...) as a
//!   [`serde::Deserializer`], so `#[derive(Deserialize)]` types read through sluice readers.
//! - [`Serializer`]: any sluice [`Writer`](sluice_core::Writer) (JSON, MessagePack, a
//!   [`ValueWriter`](sluice_core::ValueWriter), the debug [`DumpWriter`](sluice_core::DumpWriter)...)
//!   as a [`serde::Serializer`].
//! - One-line helpers: [`from_reader`], [`to_writer`], [`to_value`], [`from_value`], and with
//!   the default features [`from_json_str`], [`from_json_str_relaxed`], [`to_json_string`],
//!   [`from_msgpack_slice`], [`to_msgpack_vec`] and their relatives.
//!
//! Numbers stay exact: sluice readers keep JSON numbers as text until the Rust type asks, so a
//! `u64` is parsed from its digits (never through an `f64`), `i128`/`u128` get all of theirs,
//! and floats are correctly rounded. Errors are sluice errors, with a stable code, the span of
//! the offending value and its path, and a snippet when the source is attached:
//!
//! ```
//! use serde::Deserialize;
//! use sluice_serde::codes;
//!
//! #[derive(Deserialize, Debug)]
//! struct Settings {
//!     name: String,
//!     volume: u8,
//!     ids: Vec<u64>,
//! }
//!
//! // Relaxed JSON: comments and trailing commas, which serde_json cannot read.
//! let text = r#"{
//!     // the usual
//!     "name": "main",
//!     "volume": 11,
//!     "ids": [18446744073709551615,],
//! }"#;
//! let settings: Settings = sluice_serde::from_json_str_relaxed(text)?;
//! assert_eq!(settings.ids, [u64::MAX]);
//!
//! // A value of the wrong type: the error points at it.
//! let bad = text.replace("11", "300");
//! let err = sluice_serde::from_json_str_relaxed::<Settings>(&bad).unwrap_err();
//! assert_eq!(err.code(), sluice_core::codes::NUMBER_OUT_OF_RANGE);
//! assert_eq!(err.path().unwrap().to_string(), "$.volume");
//! assert!(err.with_source_text("settings.jsonc", &bad).render().contains("4:15"));
//! # Ok::<(), sluice_serde::Error>(())
//! ```
//!
//! See the "Using sluice with serde" chapter of the book for what is and is not supported.
#![warn(missing_docs)]

mod de;
mod error;
#[cfg(feature = "json")]
mod json;
#[cfg(feature = "msgpack")]
mod msgpack;
mod ser;
mod value;

pub use de::{Deserializer, StreamDeserializer, from_reader, from_reader_borrowed};
pub use error::{Error, Result, codes};
#[cfg(feature = "json")]
pub use json::{
    from_json_read, from_json_slice, from_json_str, from_json_str_relaxed, from_json_str_with,
    from_json5_str, to_json_string, to_json_string_pretty, to_json_string_with, to_json_vec,
};
#[cfg(feature = "msgpack")]
pub use msgpack::{from_msgpack_read, from_msgpack_slice, to_msgpack_vec};
pub use ser::{Compound, Serializer, to_writer};
pub use value::{from_value, to_value};
