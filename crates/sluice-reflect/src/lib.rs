//! Reflection for sluice: native Rust values as token streams, type registry, handler tables.
#![warn(missing_docs)]
