//! The code samples of the sluice book and of the README, compiled and run as doctests.
//!
//! Each chapter of `src/` (and the README) is included as the documentation of an item
//! below, so `cargo test` runs every Rust code block of them. (The JSON chapter is the
//! documentation of `sluice-json` itself and is tested there.)
#![allow(missing_docs)]
// The chapters are prose for readers of the book, not API docs: file and crate names stay plain.
#![allow(clippy::doc_markdown)]

#[doc = include_str!("src/data-model.md")]
#[derive(Debug)]
pub struct DataModel;

#[doc = include_str!("src/diagnostics.md")]
#[derive(Debug)]
pub struct Diagnostics;

#[doc = include_str!("../README.md")]
#[derive(Debug)]
pub struct Readme;

#[doc = include_str!("src/msgpack.md")]
#[derive(Debug)]
pub struct MsgPack;

#[doc = include_str!("src/reflection.md")]
#[derive(Debug)]
pub struct Reflection;

#[doc = include_str!("src/serde.md")]
#[derive(Debug)]
pub struct Serde;

#[doc = include_str!("src/performance.md")]
#[derive(Debug)]
pub struct Performance;

#[doc = include_str!("src/handlers.md")]
#[derive(Debug)]
pub struct Handlers;

#[doc = include_str!("src/schemas.md")]
#[derive(Debug)]
pub struct Schemas;

#[doc = include_str!("src/evolving.md")]
#[derive(Debug)]
pub struct EvolvingData;
