//! Decoding one MessagePack header: the marker byte and the fixed-size fields after it.
//!
//! A header tells everything about a value except its payload: the kind, the integer or float
//! itself, or the length of a str/bin/ext payload or of an array/map. Decoding it is a pure
//! function of at most 9 bytes (the widest header, `0xcf` or `0xd3` and 8 bytes; an ext32 is
//! `0xc9`, 4 length bytes and the type byte), so the reader can peek at no cost.

use sluice_core::Entry;

/// What a header announces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Nil,
    Bool,
    /// An unsigned integer, its wire width as the entry (`U8` for positive fixint).
    Uint(Entry),
    /// A signed integer, its wire width as the entry (`I8` for negative fixint).
    Int(Entry),
    F32,
    F64,
    Str,
    Bin,
    Ext,
    Array,
    Map,
}

/// A decoded header.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Head {
    pub(crate) kind: Kind,
    /// Bytes of the header itself.
    pub(crate) len: u8,
    /// The ext type tag, for `Ext`.
    pub(crate) ext_type: i8,
    /// The bool (0/1), the integer (an `i64` stored as its bits for `Int`), the float bits,
    /// or the length (payload bytes for str/bin/ext, items for array/map).
    pub(crate) value: u64,
}

impl Head {
    /// The entry a reader reports for this header (outside key position).
    pub(crate) fn entry(self) -> Entry {
        match self.kind {
            Kind::Nil => Entry::Null,
            Kind::Bool => Entry::Bool,
            Kind::Uint(entry) | Kind::Int(entry) => entry,
            Kind::F32 => Entry::F32,
            Kind::F64 => Entry::F64,
            Kind::Str => Entry::String,
            Kind::Bin => Entry::Blob,
            Kind::Ext => Entry::Ext,
            Kind::Array => Entry::ArrayRoot,
            Kind::Map => Entry::MapRoot,
        }
    }

    /// Payload bytes that follow the header.
    pub(crate) fn payload_len(self) -> u64 {
        match self.kind {
            Kind::Str | Kind::Bin | Kind::Ext => self.value,
            _ => 0,
        }
    }
}

/// Bytes of the widest header.
pub(crate) const MAX_LEN: usize = 9;

/// Bytes of the header that `marker` starts (1 for the reserved byte, which has none).
pub(crate) fn header_len(marker: u8) -> usize {
    match decode(&[marker]) {
        Err(HeadError::Truncated(len)) => usize::from(len),
        _ => 1,
    }
}

/// Why a header could not be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HeadError {
    /// The byte `0xc1`.
    Reserved,
    /// Fewer bytes than the header needs (the count it needs).
    Truncated(u8),
}

/// The big-endian field of `n` (1, 2, 4 or 8) bytes right after the marker; the caller has
/// checked that `bytes` holds them.
#[inline]
fn be(bytes: &[u8], n: usize) -> u64 {
    match n {
        1 => u64::from(bytes[1]),
        2 => u64::from(u16::from_be_bytes([bytes[1], bytes[2]])),
        4 => u64::from(u32::from_be_bytes([bytes[1], bytes[2], bytes[3], bytes[4]])),
        _ => {
            let mut field = [0u8; 8];
            field.copy_from_slice(&bytes[1..9]);
            u64::from_be_bytes(field)
        }
    }
}

/// Sign-extends the low `bits` of `value`.
#[inline]
fn signed(value: u64, bits: u32) -> u64 {
    let shift = 64 - bits;
    #[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]
    {
        (((value << shift) as i64) >> shift) as u64
    }
}

#[inline]
fn head(kind: Kind, len: u8, value: u64) -> Head {
    Head {
        kind,
        len,
        ext_type: 0,
        value,
    }
}

/// Decodes the header at the start of `bytes` (which must not be empty).
///
/// One match on the marker, each arm checking its own length: the common markers (fixints,
/// fix containers, floats) cost one branch table jump.
#[inline]
pub(crate) fn decode(bytes: &[u8]) -> Result<Head, HeadError> {
    let marker = bytes[0];
    macro_rules! need {
        ($len:expr) => {
            if bytes.len() < $len {
                return Err(HeadError::Truncated($len));
            }
        };
    }
    macro_rules! fixed {
        ($kind:expr, $n:expr) => {{
            need!($n + 1);
            head($kind, $n + 1, be(bytes, $n))
        }};
    }
    macro_rules! signed_fixed {
        ($entry:expr, $n:expr) => {{
            need!($n + 1);
            head(Kind::Int($entry), $n + 1, signed(be(bytes, $n), $n * 8))
        }};
    }
    macro_rules! ext {
        ($n:expr) => {{
            need!($n + 2);
            #[allow(clippy::cast_possible_wrap)]
            let ext_type = bytes[$n + 1] as i8;
            Head {
                kind: Kind::Ext,
                len: $n + 2,
                ext_type,
                value: be(bytes, $n),
            }
        }};
    }
    Ok(match marker {
        0x00..=0x7f => head(Kind::Uint(Entry::U8), 1, u64::from(marker)),
        0x80..=0x8f => head(Kind::Map, 1, u64::from(marker & 0x0f)),
        0x90..=0x9f => head(Kind::Array, 1, u64::from(marker & 0x0f)),
        0xa0..=0xbf => head(Kind::Str, 1, u64::from(marker & 0x1f)),
        0xc0 => head(Kind::Nil, 1, 0),
        0xc1 => return Err(HeadError::Reserved),
        0xc2 => head(Kind::Bool, 1, 0),
        0xc3 => head(Kind::Bool, 1, 1),
        0xc4 => fixed!(Kind::Bin, 1),
        0xc5 => fixed!(Kind::Bin, 2),
        0xc6 => fixed!(Kind::Bin, 4),
        0xc7 => ext!(1),
        0xc8 => ext!(2),
        0xc9 => ext!(4),
        0xca => fixed!(Kind::F32, 4),
        0xcb => fixed!(Kind::F64, 8),
        0xcc => fixed!(Kind::Uint(Entry::U8), 1),
        0xcd => fixed!(Kind::Uint(Entry::U16), 2),
        0xce => fixed!(Kind::Uint(Entry::U32), 4),
        0xcf => fixed!(Kind::Uint(Entry::U64), 8),
        0xd0 => signed_fixed!(Entry::I8, 1),
        0xd1 => signed_fixed!(Entry::I16, 2),
        0xd2 => signed_fixed!(Entry::I32, 4),
        0xd3 => signed_fixed!(Entry::I64, 8),
        0xd4..=0xd8 => {
            need!(2);
            #[allow(clippy::cast_possible_wrap)]
            let ext_type = bytes[1] as i8;
            Head {
                kind: Kind::Ext,
                len: 2,
                ext_type,
                value: 1 << (marker - 0xd4),
            }
        }
        0xd9 => fixed!(Kind::Str, 1),
        0xda => fixed!(Kind::Str, 2),
        0xdb => fixed!(Kind::Str, 4),
        0xdc => fixed!(Kind::Array, 2),
        0xdd => fixed!(Kind::Array, 4),
        0xde => fixed!(Kind::Map, 2),
        0xdf => fixed!(Kind::Map, 4),
        0xe0..=0xff => head(Kind::Int(Entry::I8), 1, signed(u64::from(marker), 8)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_marker_decodes_or_is_reserved_and_never_reads_past_its_header() {
        for marker in 0..=255u8 {
            let mut bytes = [0xffu8; 9];
            bytes[0] = marker;
            match decode(&bytes) {
                Ok(h) => assert!(usize::from(h.len) <= 9 && h.len >= 1),
                Err(e) => assert_eq!((marker, e), (0xc1, HeadError::Reserved)),
            }
            // With only the marker, a multi-byte header says how much it needs.
            match decode(&bytes[..1]) {
                Ok(h) => assert_eq!(h.len, 1),
                Err(HeadError::Truncated(n)) => assert!(n > 1),
                Err(HeadError::Reserved) => assert_eq!(marker, 0xc1),
            }
        }
    }

    #[test]
    fn header_len_is_exactly_what_decode_needs() {
        for marker in 0..=255u8 {
            let len = header_len(marker);
            assert!((1..=MAX_LEN).contains(&len), "{marker:#04x}");
            let mut bytes = [0u8; MAX_LEN];
            bytes[0] = marker;
            match decode(&bytes[..len]) {
                Ok(h) => assert_eq!(usize::from(h.len), len, "{marker:#04x}"),
                Err(e) => assert_eq!((marker, e), (0xc1, HeadError::Reserved)),
            }
            if len > 1 {
                let short = decode(&bytes[..len - 1]);
                assert_eq!(
                    short.err(),
                    Some(HeadError::Truncated(len as u8)),
                    "{marker:#04x}"
                );
            }
        }
    }

    #[test]
    fn signed_fields_are_sign_extended() {
        assert_eq!(decode(&[0xff]).unwrap().value, u64::MAX); // -1
        assert_eq!(decode(&[0xd0, 0x80]).unwrap().value.cast_signed(), -128);
        assert_eq!(
            decode(&[0xd1, 0x80, 0x00]).unwrap().value.cast_signed(),
            -32768
        );
        assert_eq!(
            decode(&[0xd2, 0x7f, 0xff, 0xff, 0xff]).unwrap().value,
            0x7fff_ffff
        );
    }

    #[test]
    fn ext_headers_carry_type_and_length() {
        let h = decode(&[0xd6, 0xff]).unwrap();
        assert_eq!((h.kind, h.ext_type, h.value, h.len), (Kind::Ext, -1, 4, 2));
        let h = decode(&[0xc8, 0x01, 0x00, 0x07]).unwrap();
        assert_eq!((h.ext_type, h.value, h.len), (7, 256, 4));
    }
}
