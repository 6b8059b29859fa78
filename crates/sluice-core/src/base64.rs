//! Base64 (RFC 4648, standard alphabet): how text formats spell a `Blob`.
//!
//! JSON writers encode blobs and ext payloads with it, and handlers that read blobs back from
//! text decode it. One implementation, so both sides agree on every detail (padding on
//! output; padded or unpadded input).
//!
//! ```
//! use sluice_core::base64;
//! assert_eq!(base64::encode(b"foob"), "Zm9vYg==");
//! assert_eq!(base64::decode("Zm9vYg").as_deref(), Some(&b"foob"[..]));
//! assert_eq!(base64::decode("Zm9v!"), None);
//! ```

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Appends the base64 form of `data` to `out`.
pub fn encode_into(data: &[u8], out: &mut Vec<u8>) {
    out.reserve(data.len().div_ceil(3) * 4);
    let mut chunks = data.chunks_exact(3);
    for chunk in &mut chunks {
        let n = u32::from(chunk[0]) << 16 | u32::from(chunk[1]) << 8 | u32::from(chunk[2]);
        out.extend_from_slice(&[
            ALPHABET[(n >> 18) as usize & 63],
            ALPHABET[(n >> 12) as usize & 63],
            ALPHABET[(n >> 6) as usize & 63],
            ALPHABET[n as usize & 63],
        ]);
    }
    match *chunks.remainder() {
        [a] => {
            let n = u32::from(a) << 16;
            out.extend_from_slice(&[
                ALPHABET[(n >> 18) as usize & 63],
                ALPHABET[(n >> 12) as usize & 63],
                b'=',
                b'=',
            ]);
        }
        [a, b] => {
            let n = u32::from(a) << 16 | u32::from(b) << 8;
            out.extend_from_slice(&[
                ALPHABET[(n >> 18) as usize & 63],
                ALPHABET[(n >> 12) as usize & 63],
                ALPHABET[(n >> 6) as usize & 63],
                b'=',
            ]);
        }
        _ => {}
    }
}

/// The padded base64 form of `data`.
#[must_use]
pub fn encode(data: &[u8]) -> String {
    let mut out = Vec::new();
    encode_into(data, &mut out);
    // Every byte comes from the ASCII alphabet or is `=`.
    out.into_iter().map(char::from).collect()
}

fn value_of(c: u8) -> Option<u32> {
    match c {
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Decodes padded or unpadded standard base64; `None` when the text is not base64.
#[must_use]
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let data = text.trim_end_matches('=').as_bytes();
    if text.len() - data.len() > 2 || data.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(data.len() * 3 / 4);
    for chunk in data.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= value_of(c)? << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_and_decodes_the_rfc_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(encode(plain.as_bytes()), encoded);
            assert_eq!(decode(encoded).as_deref(), Some(plain.as_bytes()));
        }
        assert_eq!(decode("Zm9vYg").as_deref(), Some(&b"foob"[..]));
        assert_eq!(decode("Zm9v!"), None);
        assert_eq!(decode("Z"), None);
    }

    #[test]
    fn every_byte_pattern_survives_a_round_trip() {
        assert_eq!(encode(&[0xFB, 0xFF, 0xBF]), "+/+/");
        let all: Vec<u8> = (0..=255).collect();
        for len in 0..all.len() {
            assert_eq!(decode(&encode(&all[..len])).as_deref(), Some(&all[..len]));
        }
    }
}
