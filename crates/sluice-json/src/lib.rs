//! JSON, relaxed JSON (comments, trailing commas, JSON5) and NDJSON readers and writers for sluice.
#![warn(missing_docs)]
