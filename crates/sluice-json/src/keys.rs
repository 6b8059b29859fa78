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
const INDEX_THRESHOLD: usize = 24;

#[derive(Debug, Clone, Copy)]
struct KeyEntry {
    hash: u64,
    start: usize,
    len: usize,
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
}

#[derive(Debug, Default)]
pub(crate) struct KeyTracker {
    bytes: Vec<u8>,
    entries: Vec<KeyEntry>,
    frames: Vec<KeyFrame>,
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
        });
    }

    pub(crate) fn close(&mut self) {
        if let Some(frame) = self.frames.pop() {
            self.entries.truncate(frame.first_entry);
            self.bytes.truncate(frame.first_byte);
        }
    }

    /// Remembers `key` as the current key of the innermost object, forgetting the previous
    /// one (no duplicate detection).
    #[inline]
    pub(crate) fn replace(&mut self, key: &[u8]) {
        let Some(frame) = self.frames.last() else {
            return;
        };
        self.entries.truncate(frame.first_entry);
        self.bytes.truncate(frame.first_byte);
        let start = self.bytes.len();
        self.bytes.extend_from_slice(key);
        self.entries.push(KeyEntry {
            hash: 0,
            start,
            len: key.len(),
        });
    }

    /// Adds `key` to the innermost object; `false` when the object already has it.
    #[inline]
    pub(crate) fn insert(&mut self, key: &[u8]) -> bool {
        let Some(frame) = self.frames.last_mut() else {
            return true;
        };
        let hash = hash_key(key);
        let count = self.entries.len() - frame.first_entry;
        let same = |entry: &KeyEntry| {
            entry.hash == hash && &self.bytes[entry.start..entry.start + entry.len] == key
        };
        if let Some(index) = &mut frame.index {
            match index.get(&hash) {
                // The indexed entry has the same hash; equal hashes of different keys fall
                // back to a scan, so correctness never rests on the hash.
                Some(&at) if same(&self.entries[at]) => return false,
                Some(_) => {
                    if self.entries[frame.first_entry..].iter().any(same) {
                        return false;
                    }
                }
                None => {
                    index.insert(hash, self.entries.len());
                }
            }
        } else {
            if self.entries[frame.first_entry..].iter().any(same) {
                return false;
            }
            if count + 1 > INDEX_THRESHOLD {
                let mut index = Index::default();
                for (at, entry) in self.entries.iter().enumerate().skip(frame.first_entry) {
                    index.entry(entry.hash).or_insert(at);
                }
                index.entry(hash).or_insert(self.entries.len());
                frame.index = Some(index);
            }
        }
        let start = self.bytes.len();
        self.bytes.extend_from_slice(key);
        self.entries.push(KeyEntry {
            hash,
            start,
            len: key.len(),
        });
        true
    }

    /// The current (last) key of the object at nesting position `object` (0 = outermost
    /// open object), if it has one yet.
    pub(crate) fn current_key(&self, object: usize) -> Option<String> {
        let frame = self.frames.get(object)?;
        let end = self
            .frames
            .get(object + 1)
            .map_or(self.entries.len(), |next| next.first_entry);
        if end <= frame.first_entry {
            return None;
        }
        let entry = self.entries[end - 1];
        Some(
            String::from_utf8_lossy(&self.bytes[entry.start..entry.start + entry.len]).into_owned(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_are_found_in_small_and_large_objects_and_forgotten_on_close() {
        let mut keys = KeyTracker::default();
        keys.open();
        for i in 0..200 {
            assert!(keys.insert(format!("k{i}").as_bytes()));
        }
        assert!(!keys.insert(b"k0"));
        assert!(!keys.insert(b"k199"));
        assert!(!keys.insert(b"k23"));
        keys.open();
        assert!(keys.insert(b"k0"), "a nested object has its own keys");
        assert_eq!(keys.current_key(1).as_deref(), Some("k0"));
        keys.close();
        assert_eq!(keys.current_key(0).as_deref(), Some("k199"));
        keys.close();
        keys.open();
        assert!(keys.insert(b"k0"));
    }

    #[test]
    fn replace_keeps_only_the_current_key() {
        let mut keys = KeyTracker::default();
        keys.open();
        keys.replace(b"a");
        keys.replace(b"b");
        assert_eq!(keys.current_key(0).as_deref(), Some("b"));
        assert_eq!(keys.entries.len(), 1);
    }
}
