//! Keys of the open objects: for duplicate detection and for error paths.
//!
//! Every open object owns a run of entries (hash, place in a shared byte arena). With
//! duplicate detection on, all keys of an object are kept and a new key is compared by hash
//! first (a linear scan while the object is small, a hash index once it grows); without it,
//! only the current key is kept, for the error path. Closing an object truncates both
//! arenas, so memory is bounded by the keys of the open objects.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Objects with more keys than this get a hash index instead of a linear scan.
const INDEX_THRESHOLD: usize = 64;

#[derive(Debug, Clone, Copy)]
struct KeyEntry {
    hash: u64,
    start: usize,
    len: usize,
    /// `start` is an offset in the (stable) input rather than in the arena.
    in_input: bool,
}

/// Where a key's bytes are: in the reader's input (which must then stay put while the
/// object is open, as a slice does), or somewhere temporary (copied to the arena).
#[derive(Debug, Clone, Copy)]
pub(crate) enum KeyBytes<'a> {
    /// At this offset of the stable input.
    Input(usize, &'a [u8]),
    /// Decoded or from a moving window: copied.
    Copy(&'a [u8]),
}

impl<'a> KeyBytes<'a> {
    fn bytes(self) -> &'a [u8] {
        match self {
            KeyBytes::Input(_, bytes) | KeyBytes::Copy(bytes) => bytes,
        }
    }
}

/// A hasher for keys that are already hashes.
#[derive(Debug, Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

type Index = HashMap<u64, usize, BuildHasherDefault<PassThrough>>;

#[derive(Debug)]
struct KeyFrame {
    first_entry: usize,
    first_byte: usize,
    /// Hash to entry position, built once the object is large.
    index: Option<Index>,
    /// One bit per possible top byte of the hashes of this object's keys: a key whose bit
    /// is clear is certainly new, and skips the scan (most keys of a valid document).
    seen_hash_bytes: [u64; 4],
}

/// The word and bit of `hash` in [`KeyFrame::seen_hash_bytes`].
#[inline(always)]
fn filter_bit(hash: u64) -> (usize, u64) {
    let top = (hash >> 56) as usize;
    (top / 64, 1 << (top % 64))
}

#[derive(Debug, Default)]
pub(crate) struct KeyTracker {
    bytes: Vec<u8>,
    entries: Vec<KeyEntry>,
    /// The hashes of `entries`, apart, so the linear scan reads a dense array.
    hashes: Vec<u64>,
    frames: Vec<KeyFrame>,
    /// Hash indexes of closed objects, kept to reuse their allocations.
    spare_indexes: Vec<Index>,
}

/// A fast, non-cryptographic hash (FxHash-style, eight bytes at a time). Collisions are
/// resolved by comparing the keys, so a crafted collision costs time, never correctness.
#[inline]
fn hash_key(key: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut hash = key.len() as u64;
    let mut chunks = key.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        hash = (hash.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    let mut tail = [0u8; 8];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    hash = (hash.rotate_left(5) ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    hash ^ (hash >> 29)
}

impl KeyTracker {
    pub(crate) fn open(&mut self) {
        self.frames.push(KeyFrame {
            first_entry: self.entries.len(),
            first_byte: self.bytes.len(),
            index: None,
            seen_hash_bytes: [0; 4],
        });
    }

    pub(crate) fn close(&mut self) {
        if let Some(frame) = self.frames.pop() {
            self.entries.truncate(frame.first_entry);
            self.hashes.truncate(frame.first_entry);
            self.bytes.truncate(frame.first_byte);
            if let Some(mut index) = frame.index {
                index.clear();
                self.spare_indexes.push(index);
            }
        }
    }

    fn push(&mut self, key: KeyBytes<'_>, hash: u64) {
        let entry = match key {
            KeyBytes::Input(start, bytes) => KeyEntry {
                hash,
                start,
                len: bytes.len(),
                in_input: true,
            },
            KeyBytes::Copy(bytes) => {
                let start = self.bytes.len();
                self.bytes.extend_from_slice(bytes);
                KeyEntry {
                    hash,
                    start,
                    len: bytes.len(),
                    in_input: false,
                }
            }
        };
        self.entries.push(entry);
        self.hashes.push(hash);
    }

    fn entry_bytes<'s>(&'s self, entry: &KeyEntry, input: &'s [u8]) -> &'s [u8] {
        let source = if entry.in_input { input } else { &self.bytes };
        &source[entry.start..entry.start + entry.len]
    }

    /// Remembers `key` as the current key of the innermost object, forgetting the previous
    /// one (no duplicate detection).
    #[inline]
    pub(crate) fn replace(&mut self, key: KeyBytes<'_>) {
        let Some(frame) = self.frames.last() else {
            return;
        };
        self.entries.truncate(frame.first_entry);
        self.hashes.truncate(frame.first_entry);
        self.bytes.truncate(frame.first_byte);
        self.push(key, 0);
    }

    /// Adds `key` to the innermost object; `false` when the object already has it. `input`
    /// is the stable input that [`KeyBytes::Input`] offsets point into.
    #[inline]
    pub(crate) fn insert(&mut self, key: KeyBytes<'_>, input: &[u8]) -> bool {
        let Some(frame) = self.frames.last() else {
            return true;
        };
        let first = frame.first_entry;
        let text = key.bytes();
        let hash = hash_key(text);
        let same = |at: usize| self.entry_bytes(&self.entries[at], input) == text;
        // Every entry of this object with the same hash, compared by bytes.
        let scan = || {
            self.hashes[first..]
                .iter()
                .enumerate()
                .any(|(i, &h)| h == hash && same(first + i))
        };
        let (word, bit) = filter_bit(hash);
        let maybe_seen = frame.seen_hash_bytes[word] & bit != 0;
        let duplicate = match &frame.index {
            // Equal hashes of different keys fall back to the scan, so correctness never
            // rests on the hash.
            Some(index) => match index.get(&hash) {
                Some(&at) if same(at) => true,
                Some(_) => scan(),
                None => false,
            },
            None => maybe_seen && scan(),
        };
        if duplicate {
            return false;
        }
        let at = self.entries.len();
        let count = at - first;
        if let Some(frame) = self.frames.last_mut() {
            frame.seen_hash_bytes[word] |= bit;
            if let Some(index) = &mut frame.index {
                index.entry(hash).or_insert(at);
            } else if count + 1 > INDEX_THRESHOLD {
                let mut index = self.spare_indexes.pop().unwrap_or_default();
                for (i, entry) in self.entries.iter().enumerate().skip(first) {
                    index.entry(entry.hash).or_insert(i);
                }
                index.entry(hash).or_insert(at);
                frame.index = Some(index);
            }
        }
        self.push(key, hash);
        true
    }

    /// The current (last) key of the object at nesting position `object` (0 = outermost
    /// open object), if it has one yet.
    pub(crate) fn current_key(&self, object: usize, input: &[u8]) -> Option<String> {
        let frame = self.frames.get(object)?;
        let end = self
            .frames
            .get(object + 1)
            .map_or(self.entries.len(), |next| next.first_entry);
        if end <= frame.first_entry {
            return None;
        }
        let entry = self.entries[end - 1];
        let bytes = self.entry_bytes(&entry, input);
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_are_found_in_small_and_large_objects_and_forgotten_on_close() {
        let mut keys = KeyTracker::default();
        keys.open();
        let input = b"..k0..k199";
        for i in 0..200 {
            assert!(keys.insert(KeyBytes::Copy(format!("k{i}").as_bytes()), input));
        }
        assert!(!keys.insert(KeyBytes::Input(2, b"k0"), input));
        assert!(!keys.insert(KeyBytes::Input(6, b"k199"), input));
        assert!(!keys.insert(KeyBytes::Copy(b"k23"), input));
        keys.open();
        assert!(
            keys.insert(KeyBytes::Input(2, b"k0"), input),
            "a nested object has its own keys"
        );
        assert!(
            !keys.insert(KeyBytes::Copy(b"k0"), input),
            "borrowed and copied keys compare"
        );
        assert_eq!(keys.current_key(1, input).as_deref(), Some("k0"));
        keys.close();
        assert_eq!(keys.current_key(0, input).as_deref(), Some("k199"));
        keys.close();
        keys.open();
        assert!(keys.insert(KeyBytes::Copy(b"k0"), input));
    }

    #[test]
    fn keys_sharing_a_filter_bit_are_still_told_apart() {
        // Find keys whose hashes have the same top byte, so the filter says "maybe seen"
        // and the scan must decide.
        let names: Vec<String> = (0..2000).map(|i| format!("key{i}")).collect();
        let top = |name: &String| hash_key(name.as_bytes()) >> 56;
        let first = &names[0];
        let twins: Vec<&String> = names[1..]
            .iter()
            .filter(|n| top(n) == top(first))
            .take(3)
            .collect();
        assert!(
            twins.len() == 3,
            "2000 names give several with the same top byte"
        );
        let mut keys = KeyTracker::default();
        keys.open();
        assert!(keys.insert(KeyBytes::Copy(first.as_bytes()), b""));
        for twin in &twins {
            assert!(
                keys.insert(KeyBytes::Copy(twin.as_bytes()), b""),
                "{twin} is new"
            );
        }
        for name in std::iter::once(first).chain(twins.iter().copied()) {
            assert!(
                !keys.insert(KeyBytes::Copy(name.as_bytes()), b""),
                "{name} is a duplicate"
            );
        }
    }

    #[test]
    fn replace_keeps_only_the_current_key() {
        let mut keys = KeyTracker::default();
        keys.open();
        keys.replace(KeyBytes::Copy(b"a"));
        keys.replace(KeyBytes::Input(1, b"b"));
        assert_eq!(keys.current_key(0, b"ab").as_deref(), Some("b"));
        assert_eq!(keys.entries.len(), 1);
    }
}
