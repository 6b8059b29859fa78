//! The code samples of the sluice book, compiled and run as doctests.
//!
//! Each chapter of `src/` is included as the documentation of an item below, so `cargo test`
//! runs every Rust code block of the book.
#![allow(missing_docs)]

#[doc = include_str!("src/data-model.md")]
#[derive(Debug)]
pub struct DataModel;

#[doc = include_str!("src/diagnostics.md")]
#[derive(Debug)]
pub struct Diagnostics;
