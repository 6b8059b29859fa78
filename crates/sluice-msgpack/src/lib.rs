//! MessagePack reader and writer for sluice, with the timestamp extension.
//!
//! [`MsgPackReader`] pulls tokens out of MessagePack bytes, from a slice (strings and bytes
//! borrowed straight from the input) or from any [`std::io::Read`] (buffered, with memory
//! bounded by the data actually received, never by a length the input claims).
//! [`MsgPackWriter`] pushes tokens into bytes, always in the smallest encoding, and learns
//! container lengths itself, so a stream whose lengths are unknown up front (a JSON reader)
//! can be piped into it.
//!
//! ```
//! use sluice_core::{pipe, Entry, Reader, Writer};
//! use sluice_msgpack::{MsgPackReader, MsgPackWriter};
//!
//! // Write a map without saying how long it is: the writer counts.
//! let mut writer = MsgPackWriter::new(Vec::new());
//! writer.write_map_root(None)?;
//! writer.write_name("id")?;
//! writer.write_u64(7)?;
//! writer.write_map_end()?;
//! let bytes = writer.into_inner()?;
//! assert_eq!(bytes, [0x81, 0xa2, b'i', b'd', 0x07]);
//!
//! // Read it back: the reader reports the wire types.
//! let mut reader = MsgPackReader::from_slice(&bytes);
//! assert_eq!(reader.read_map_root()?, Some(1));
//! assert_eq!(reader.peek()?, Entry::Name);
//! assert_eq!(reader.read_name()?, "id");
//! assert_eq!(reader.peek()?, Entry::U8);
//! assert_eq!(reader.read_i64()?, 7);
//! reader.read_map_end()?;
//! assert_eq!(reader.peek()?, Entry::Ended);
//! # Ok::<(), sluice_core::Error>(())
//! ```
//!
//! How MessagePack maps onto sluice's tokens (see the MessagePack chapter of the book for the
//! full table):
//!
//! | MessagePack | `peek()` answers | read with |
//! |---|---|---|
//! | nil | `Null` | `read_null` |
//! | true / false | `Bool` | `read_bool` |
//! | positive fixint, uint 8/16/32/64 | `U8`, `U8`, `U16`, `U32`, `U64` | any number read |
//! | negative fixint, int 8/16/32/64 | `I8`, `I8`, `I16`, `I32`, `I64` | any number read |
//! | float 32 / float 64 | `F32` / `F64` | any number read |
//! | str (as a map key) | `String` (`Name`) | `read_str` / `read_name` |
//! | bin | `Blob` | `read_blob` |
//! | ext, fixext (timestamp: type -1) | `Ext` | `read_ext`, [`MsgPackReader::read_timestamp`] |
//! | array / map | `ArrayRoot` / `MapRoot`, with the length | `read_array_root` / `read_map_root` |
#![warn(missing_docs)]

pub mod fuzzing;
mod head;
mod input;
mod reader;
mod timestamp;
mod writer;

pub use input::{Input, ReadInput, SliceInput};
pub use reader::{MsgPackReader, ReaderOptions};
pub use timestamp::{Timestamp, TimestampBytes};
pub use writer::{MsgPackWriter, WriterOptions};

/// The error codes of this crate (category `msgpack`).
///
/// Structure errors shared with other formats use the core codes:
/// [`UNEXPECTED_ENTRY`](sluice_core::codes::UNEXPECTED_ENTRY) for a read of the wrong kind
/// (including reading past the end of a container or ending it early),
/// [`DEPTH_EXCEEDED`](sluice_core::codes::DEPTH_EXCEEDED) for nesting beyond the limit,
/// [`INVALID_STRUCTURE`](sluice_core::codes::INVALID_STRUCTURE) for tokens written out of
/// order, and [`IO`](sluice_core::codes::IO).
///
/// After an error in the input (a code of this module met by a read, nesting too deep, an
/// I/O error) the reader stops for good and reports it to every later call; after an error of
/// the caller's request (a read of the wrong kind, a number that does not fit) the value
/// stays unread. See [`MsgPackReader`]'s "After an error".
pub mod codes {
    use sluice_core::ErrorCode;

    /// The input ends inside a value (a header, or the payload a length announced).
    pub const TRUNCATED: ErrorCode = ErrorCode::new("msgpack", "Truncated");
    /// The byte `0xc1`, which the MessagePack spec reserves and never uses.
    pub const RESERVED_BYTE: ErrorCode = ErrorCode::new("msgpack", "ReservedByte");
    /// A str whose bytes are not valid UTF-8.
    pub const INVALID_UTF8: ErrorCode = ErrorCode::new("msgpack", "InvalidUtf8");
    /// A str, bin, ext, array or map length larger than what is left of a slice input (a
    /// map32 claiming 4 billion entries in 10 bytes).
    pub const LENGTH_EXCEEDS_INPUT: ErrorCode = ErrorCode::new("msgpack", "LengthExceedsInput");
    /// Bytes are left after the value(s) the reader was asked to read.
    pub const TRAILING_DATA: ErrorCode = ErrorCode::new("msgpack", "TrailingData");
    /// A container written with a declared length got a different number of items.
    pub const LENGTH_MISMATCH: ErrorCode = ErrorCode::new("msgpack", "LengthMismatch");
    /// A str, bin, ext, array or map too long for MessagePack's 32-bit lengths.
    pub const LENGTH_TOO_LARGE: ErrorCode = ErrorCode::new("msgpack", "LengthTooLarge");
    /// An integer beyond the 64-bit range MessagePack can hold.
    pub const INTEGER_TOO_LARGE: ErrorCode = ErrorCode::new("msgpack", "IntegerTooLarge");
    /// A timestamp extension of the wrong size, or with nanoseconds of a second or more.
    pub const INVALID_TIMESTAMP: ErrorCode = ErrorCode::new("msgpack", "InvalidTimestamp");
}
