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
#[inline]
pub(crate) fn decode(bytes: &[u8]) -> Result<Head, HeadError> {
    let marker = bytes[0];
    // Single-byte headers first: they are the most common.
    match marker {
        0x00..=0x7f => return Ok(head(Kind::Uint(Entry::U8), 1, u64::from(marker))),
        0x80..=0x8f => return Ok(head(Kind::Map, 1, u64::from(marker & 0x0f))),
        0x90..=0x9f => return Ok(head(Kind::Array, 1, u64::from(marker & 0x0f))),
        0xa0..=0xbf => return Ok(head(Kind::Str, 1, u64::from(marker & 0x1f))),
        0xc0 => return Ok(head(Kind::Nil, 1, 0)),
        0xc1 => return Err(HeadError::Reserved),
        0xc2 => return Ok(head(Kind::Bool, 1, 0)),
        0xc3 => return Ok(head(Kind::Bool, 1, 1)),
        0xe0..=0xff => return Ok(head(Kind::Int(Entry::I8), 1, signed(u64::from(marker), 8))),
        _ => {}
    }
    // Multi-byte headers: the number of bytes after the marker.
    let extra: u8 = match marker {
        0xc4 | 0xcc | 0xd0 | 0xd9 | 0xd4..=0xd8 => 1,
        0xc5 | 0xcd | 0xd1 | 0xda | 0xdc | 0xde | 0xc7 => 2,
        0xc8 => 3,
        0xc6 | 0xca | 0xce | 0xd2 | 0xdb | 0xdd | 0xdf => 4,
        0xc9 => 5,
        _ => 8, // 0xcb, 0xcf, 0xd3
    };
    let len = extra + 1;
    if bytes.len() < usize::from(len) {
        return Err(HeadError::Truncated(len));
    }
    let field = |n: usize| be(bytes, n);
    Ok(match marker {
        0xc4 => head(Kind::Bin, len, field(1)),
        0xc5 => head(Kind::Bin, len, field(2)),
        0xc6 => head(Kind::Bin, len, field(4)),
        0xc7..=0xc9 => {
            let size = usize::from(extra - 1);
            #[allow(clippy::cast_possible_wrap)]
            let ext_type = bytes[1 + size] as i8;
            Head {
                kind: Kind::Ext,
                len,
                ext_type,
                value: field(size),
            }
        }
        0xca => head(Kind::F32, len, field(4)),
        0xcb => head(Kind::F64, len, field(8)),
        0xcc => head(Kind::Uint(Entry::U8), len, field(1)),
        0xcd => head(Kind::Uint(Entry::U16), len, field(2)),
        0xce => head(Kind::Uint(Entry::U32), len, field(4)),
        0xcf => head(Kind::Uint(Entry::U64), len, field(8)),
        0xd0 => head(Kind::Int(Entry::I8), len, signed(field(1), 8)),
        0xd1 => head(Kind::Int(Entry::I16), len, signed(field(2), 16)),
        0xd2 => head(Kind::Int(Entry::I32), len, signed(field(4), 32)),
        0xd3 => head(Kind::Int(Entry::I64), len, field(8)),
        0xd4..=0xd8 => {
            #[allow(clippy::cast_possible_wrap)]
            let ext_type = bytes[1] as i8;
            Head {
                kind: Kind::Ext,
                len,
                ext_type,
                value: 1 << (marker - 0xd4),
            }
        }
        0xd9 => head(Kind::Str, len, field(1)),
        0xda => head(Kind::Str, len, field(2)),
        0xdb => head(Kind::Str, len, field(4)),
        0xdc => head(Kind::Array, len, field(2)),
        0xdd => head(Kind::Array, len, field(4)),
        0xde => head(Kind::Map, len, field(2)),
        _ => head(Kind::Map, len, field(4)), // 0xdf
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
