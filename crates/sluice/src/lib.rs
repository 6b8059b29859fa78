//! sluice: move structured data between JSON, NDJSON, MessagePack and Rust values as a stream of tokens.
#![warn(missing_docs)]
