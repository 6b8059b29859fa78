//! The token model of sluice.
//!
//! Everything in sluice is a [`Reader`] (pull) or a [`Writer`] (push) over one small token
//! vocabulary, [`Entry`]. A format is a reader/writer pair; native Rust values are reached by
//! reflection through a reader/writer pair too; and [`pipe()`] pumps any reader into any
//! writer. This crate holds the parts every other crate shares:
//!
//! - [`Entry`], [`Reader`], [`Writer`]: the vocabulary and the two traits;
//! - [`Number`]: lazy numbers, parsed at the call site, exact and range-checked (short
//!   number text through the fast paths of [`decimal`]);
//! - [`pipe()`], [`pipe_value`], [`PipeVisitor`]: copying with optional hooks;
//! - adapters: [`PutbackReader`], [`NoopWriter`], [`TeeWriter`], [`DumpWriter`];
//! - [`Value`] with [`ValueReader`] / [`ValueWriter`]: buffer, inspect, edit and replay;
//! - [`Error`], [`Span`], [`Path`]: one error type with stable codes and rendered snippets;
//! - [`testing`]: conformance helpers for reader and writer implementations.
//!
//! ```
//! use sluice_core::{pipe, DumpWriter, Value, ValueReader};
//! let doc = Value::Map(vec![(Value::from("id"), Value::from(7u64))]);
//! let mut dump = DumpWriter::new(Vec::new());
//! pipe(&mut ValueReader::new(&doc), &mut dump)?;
//! assert_eq!(String::from_utf8(dump.into_inner()).unwrap(),
//!            "<MapRoot> (1)\n|---<Name> 'id'\n|---<U64> 7\n<MapEnd>\n");
//! # Ok::<(), sluice_core::Error>(())
//! ```
#![warn(missing_docs)]

pub mod adapters;
pub mod base64;
pub mod decimal;
mod entry;
pub mod error;
mod number;
pub mod path;
pub mod pipe;
mod reader;
pub mod span;
pub mod testing;
mod token;
pub mod value;
mod writer;

pub use adapters::{DumpWriter, NoopWriter, PutbackReader, TeeWriter};
pub use entry::{Entry, NumberHint};
pub use error::{Error, ErrorCode, Result, SourceText, SpanHint, codes};
pub use number::{Number, OwnedNumber};
pub use path::{Path, PathSegment};
pub use pipe::{Flow, PipeVisitor, pipe, pipe_value};
pub use reader::{EnumToken, Ext, Reader};
pub use span::Span;
pub use token::{OwnedEnum, Token};
pub use value::{Value, ValueReader, ValueWriter};
pub use writer::{Writer, write_counted};
