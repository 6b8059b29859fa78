//! One-line helpers for MessagePack, on top of [`sluice_msgpack`] (feature `msgpack`, on by
//! default).
//!
//! These helpers say "not human readable" to serde, as rmp-serde does, so types with a
//! compact form use it (`IpAddr` as bytes rather than text, for example). Reading and writing
//! through them agree with each other; when mixing them with a hand-built
//! [`Deserializer`] or [`Serializer`], set [`Deserializer::human_readable`] /
//! [`Serializer::human_readable`] to `false` too.

use std::io;

use serde::de::{Deserialize, DeserializeOwned};
use serde::ser::Serialize;
use sluice_msgpack::{MsgPackReader, MsgPackWriter};

use crate::{Deserializer, Result, Serializer};

/// Reads a `T` from MessagePack bytes, borrowing strings and bytes from them.
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Sample<'a> {
///     name: &'a str,
///     #[serde(with = "serde_bytes")]
///     payload: &'a [u8],
///     big: u64,
/// }
/// let sample = Sample { name: "probe", payload: b"\x00\x01", big: u64::MAX };
/// let bytes = sluice_serde::to_msgpack_vec(&sample)?;
/// let back: Sample = sluice_serde::from_msgpack_slice(&bytes)?;
/// assert_eq!(back, sample);
/// # Ok::<(), sluice_serde::Error>(())
/// ```
///
/// # Errors
/// A malformed input (`msgpack/...` codes), a value the type does not accept (`serde/...`
/// codes), or [`TRAILING_VALUE`](crate::codes::TRAILING_VALUE); each with its span (byte
/// offsets) and path.
pub fn from_msgpack_slice<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    let mut de = Deserializer::new(MsgPackReader::from_slice(bytes))
        .borrow_from_slice(bytes)
        .human_readable(false);
    de.read_whole()
}

/// Reads a `T` from MessagePack coming from any [`io::Read`].
///
/// # Errors
/// As [`from_msgpack_slice`], and I/O errors (`core/Io`).
pub fn from_msgpack_read<T: DeserializeOwned, R: io::Read>(read: R) -> Result<T> {
    let mut de = Deserializer::new(MsgPackReader::from_read(read)).human_readable(false);
    de.read_whole()
}

/// Writes `value` as MessagePack, in the smallest encoding of every value. MessagePack has
/// no 128-bit integers: an `i128` or `u128` is written when its value fits in 64 bits, and
/// is `msgpack/IntegerTooLarge` otherwise.
///
/// # Errors
/// A value MessagePack cannot hold, or an error from the `Serialize` implementation.
pub fn to_msgpack_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    let mut ser = Serializer::new(MsgPackWriter::new(Vec::new())).human_readable(false);
    value.serialize(&mut ser)?;
    Ok(ser.into_inner().into_inner()?)
}
