//! Small readers and writers that wrap or stand in for others.
//!
//! - [`PutbackReader`]: push tokens back in front of a reader (lookahead by value, used to
//!   find a `"$type"` key and replay what came before it).
//! - [`NoopWriter`]: accepts and drops everything (skipping, counting, benchmarks).
//! - [`TeeWriter`]: sends every token to several writers.
//! - [`DumpWriter`]: one indented line per token, the debug view of a stream.

mod dump;
mod noop;
mod putback;
mod tee;

pub use dump::DumpWriter;
pub use noop::NoopWriter;
pub use putback::PutbackReader;
pub use tee::TeeWriter;
