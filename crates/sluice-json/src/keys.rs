//! Keys of the open objects: for duplicate detection and for error paths.
//!
//! Every open object owns a run of entries (a fingerprint, place in a shared byte arena).
//! With duplicate detection on, all keys of an object are kept. A key's fingerprint (for
//! keys of up to 8 bytes, the whole key; for longer ones, their first and last 8 bytes
//! mixed) sets one bit of a 256-bit filter per object: a key whose bit is clear is certainly
//! new, as most keys of a valid document are, and costs no comparison at all. Otherwise it
//! is compared with the object's keys linearly by length and fingerprint (bytes only for
//! longer keys), and an object that grows past [`SMALL_OBJECT`] keys gets a hash index
//! instead of the scan.
//!
//! The index hashes keys with std's [`RandomState`] (a hash keyed at random per index) into
//! an open-addressing table whose slots keep the top of each entry's hash. A key is compared
//! only with the entries of its own full hash, so neither ordinary keys that differ in a few
//! bytes nor keys crafted against a known hash function can make a lookup compare with many
//! keys: a large object costs one hash, one short probe and about one comparison per key,
//! never a time that grows with the square of its size.
//!
//! Without duplicate detection only the current key is kept, for the error path, and only
//! for inputs that move (over a slice the reader keeps the key's offset in its own frames and
//! this tracker is not used). Closing an object truncates both arenas, so memory is bounded
//! by the keys of the open objects.
//!
//! A key without escapes is not copied when it is read: its entry holds its absolute offset
//! in the input. A slice stays put, so that is all it ever needs. An `io::Read` window drops
//! bytes when it moves on, and before each refill the reader calls
//! [`KeyTracker::detach_from_input`], which copies the keys still held by offset into the
//! arena: each key at most once, and only those of objects still open then (copying every key
//! as it was read cost 3.5% to 4% of the `io::Read` path's instructions).

mod arena;

use std::hash::{BuildHasher, Hasher, RandomState};

use self::arena::KeyArena;
use crate::input::Input;

/// Objects with more keys than this get a hash index instead of a linear scan.
const SMALL_OBJECT: usize = 64;

/// One key of an open object: 24 bytes, three words (a flag of its own made it 32, and
/// every key of an object in an index is one of these).
#[derive(Debug, Clone, Copy)]
struct KeyEntry {
    /// See [`fingerprint`].
    fingerprint: u64,
    start: usize,
    /// The key's length, shifted left by one, with [`IN_INPUT`] in the freed bit.
    len_and_place: usize,
}

/// In [`KeyEntry::len_and_place`]: `start` is an absolute offset in the input rather than
/// in the arena.
const IN_INPUT: usize = 1;

impl KeyEntry {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn new(fingerprint: u64, start: usize, len: usize, in_input: bool) -> KeyEntry {
        // A key's length is that of a slice, so below `isize::MAX`: the shift loses nothing.
        KeyEntry {
            fingerprint,
            start,
            len_and_place: len << 1 | usize::from(in_input),
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn len(&self) -> usize {
        self.len_and_place >> 1
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn in_input(&self) -> bool {
        self.len_and_place & IN_INPUT != 0
    }

    /// Points the entry at `start` in the arena.
    fn move_to_arena(&mut self, start: usize) {
        self.start = start;
        self.len_and_place &= !IN_INPUT;
    }
}

/// Where a key's bytes are: in the reader's input (which must then keep them until they are
/// detached, see [`KeyTracker::detach_from_input`]), or somewhere temporary (copied to the
/// arena).
#[derive(Debug, Clone, Copy)]
pub(crate) enum KeyBytes<'a> {
    /// At this absolute offset of the input.
    Input(usize, &'a [u8]),
    /// Decoded: copied.
    Copy(&'a [u8]),
}

/// The reader's input as the tracker sees it: the bytes it holds now, and the absolute
/// offset of the first (0 for a slice, which holds the whole input).
#[derive(Debug, Clone, Copy)]
pub(crate) struct InputBytes<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) offset: usize,
}

impl<'a> InputBytes<'a> {
    /// What `input` holds now.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn of(input: &'a impl Input) -> InputBytes<'a> {
        InputBytes {
            bytes: input.window(),
            offset: input.offset(),
        }
    }

    /// All of the input, from its start.
    #[cfg(test)]
    fn whole(bytes: &'a [u8]) -> InputBytes<'a> {
        InputBytes { bytes, offset: 0 }
    }
}

impl<'a> KeyBytes<'a> {
    fn bytes(self) -> &'a [u8] {
        match self {
            KeyBytes::Input(_, bytes) | KeyBytes::Copy(bytes) => bytes,
        }
    }
}

/// Bits of a slot of [`Index::slots`] that hold an entry's position in its object, plus
/// one; the bits above hold the top of its hash. An object would need 2^40 keys to run out,
/// and its entries alone 24 TiB of memory.
const SLOT_POSITION_BITS: u32 = 40;

/// The position part of a slot of [`Index::slots`].
const SLOT_POSITION: u64 = (1 << SLOT_POSITION_BITS) - 1;

/// How full [`Index::slots`] may be, as a fraction, before the table doubles. A fuller
/// table means longer probe sequences, but they run over adjacent slots, eight to a cache
/// line; a larger one means more lines that miss the cache, which cost far more. On an
/// object of 200,000 keys (the `large_object` bench) a table at most half full made the
/// read take 1.2x the time it takes with this bound.
const MAX_LOAD: (usize, usize) = (7, 8);

/// The slots of a newly built index: room for its first [`SMALL_OBJECT`] keys and as many
/// again before it grows.
const FIRST_SLOTS: usize = 4 * SMALL_OBJECT;

/// The hash index of a large object: an open-addressing table of the object's entries.
///
/// A new key costs one probe sequence, which finds either its duplicate or the free slot
/// it takes (a map from hash to entry cost a lookup and then an insertion, each a probe).
/// The slots hold the top of each entry's hash, so the slots a sequence passes over are
/// told apart without loading the hash of their entries: a new key's lookup touches the
/// table's memory in one place, mostly one cache line. Only an entry whose full hash is the
/// key's own is compared with the key. With the hash keyed at random, nobody can choose keys
/// that share a hash.
#[derive(Debug, Default)]
struct Index {
    /// A power of two of them, or none before the index is built. A slot is 0 when free,
    /// otherwise the position of an entry in the object plus one (below
    /// [`SLOT_POSITION_BITS`]) under the top bits of the entry's hash.
    slots: Vec<u64>,
    /// The hash of the object's `i`-th entry: to compare, and to place the entries again
    /// when the table grows.
    hashes: Vec<u64>,
    /// The hash's key, drawn at random when the index is first built.
    state: RandomState,
    /// Tests only: every key hashes the same, so every lookup meets every entry.
    #[cfg(test)]
    one_hash_for_all: bool,
}

/// The slot of an entry at `position` in its object, whose hash is `hash`.
#[inline]
fn slot(hash: u64, position: usize) -> u64 {
    debug_assert!((position as u64) < SLOT_POSITION);
    (hash & !SLOT_POSITION) | (position as u64 + 1)
}

/// The probe sequence of `hash` in `slots` (a power of two of them): the first slot that
/// is free or whose entry `stop` accepts (given the slot), by linear probing.
#[cfg_attr(not(debug_assertions), inline(always))]
fn probe(slots: &[u64], hash: u64, mut stop: impl FnMut(u64) -> bool) -> usize {
    let mask = slots.len() - 1;
    #[allow(clippy::cast_possible_truncation)] // the low bits pick the slot
    let mut at = hash as usize & mask;
    while slots[at] != 0 && !stop(slots[at]) {
        at = (at + 1) & mask;
    }
    at
}

/// The first free slot of `slots` in the probe sequence of `hash`.
#[inline]
fn free_slot(slots: &[u64], hash: u64) -> usize {
    probe(slots, hash, |_| false)
}

impl Index {
    fn hash(&self, key: &[u8]) -> u64 {
        #[cfg(test)]
        if self.one_hash_for_all {
            return 7;
        }
        // The bytes alone, without the length that `Hash` for slices writes first: one
        // message per hash, whose length SipHash mixes in anyway.
        let mut hasher = self.state.build_hasher();
        hasher.write(key);
        hasher.finish()
    }

    fn clear(&mut self) {
        self.slots.clear();
        self.hashes.clear();
    }

    /// Adds the object's next entry, under `hash`, without looking for a duplicate: the
    /// keys an index is built from are all different.
    fn add(&mut self, hash: u64) {
        if self.slots.is_empty() {
            self.slots.resize(FIRST_SLOTS, 0);
        }
        let at = free_slot(&self.slots, hash);
        self.take(at, hash);
    }

    /// Adds the object's next entry under `hash` unless an entry with that hash holds the
    /// same key, as `same` tells from the entry's position in the object. `false` for a
    /// duplicate.
    #[inline]
    fn add_if_new(&mut self, hash: u64, mut same: impl FnMut(usize) -> bool) -> bool {
        let hashes = &self.hashes;
        let at = probe(&self.slots, hash, |taken| {
            #[allow(clippy::cast_possible_truncation)] // below 2^40
            let position = (taken & SLOT_POSITION) as usize - 1;
            // The top bits first: they tell most other entries apart without a load.
            (taken ^ hash) & !SLOT_POSITION == 0 && hashes[position] == hash && same(position)
        });
        if self.slots[at] != 0 {
            return false;
        }
        self.take(at, hash);
        true
    }

    /// Puts the object's next entry, under `hash`, in the free slot `at`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn take(&mut self, at: usize, hash: u64) {
        self.slots[at] = slot(hash, self.hashes.len());
        self.hashes.push(hash);
        self.grow_when_full();
    }

    /// Doubles the table when it is [`MAX_LOAD`] full, placing every entry again.
    #[inline]
    fn grow_when_full(&mut self) {
        let (filled, of) = MAX_LOAD;
        if self.hashes.len() * of <= self.slots.len() * filled {
            return;
        }
        // A new zeroed table: large ones come from the system as zero pages, written only
        // where an entry lands.
        let mut slots = vec![0; self.slots.len() * 2];
        for (position, &hash) in self.hashes.iter().enumerate() {
            let at = free_slot(&slots, hash);
            slots[at] = slot(hash, position);
        }
        self.slots = slots;
    }
}

#[derive(Debug)]
struct KeyFrame {
    first_entry: usize,
    first_byte: usize,
    /// Hash to entry position, built once the object is large. Boxed: the frames of small
    /// objects stay small, and so does the reader.
    index: Option<Box<Index>>,
    /// One bit per value of [`filter_bit`] among this object's keys.
    filter: [u64; 4],
}

/// The word and bit of a key in [`KeyFrame::filter`], from its fingerprint and length.
#[cfg_attr(not(debug_assertions), inline(always))]
fn filter_bit(print: u64, len: usize) -> (usize, u64) {
    let mixed = (print ^ (len as u64).rotate_right(8)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let top = (mixed >> 56) as usize;
    (top / 64, 1 << (top % 64))
}

#[derive(Debug, Default)]
pub(crate) struct KeyTracker {
    arena: KeyArena,
    entries: Vec<KeyEntry>,
    frames: Vec<KeyFrame>,
    /// The entries before this one are all in the arena (see [`Self::detach_from_input`]).
    first_in_input: usize,
    /// Where [`Self::detach_from_input`] sets aside the decoded keys' bytes of the arena's
    /// end while it rebuilds that end (kept to reuse its allocation).
    detached: Vec<u8>,
    /// Hash indexes of closed objects, kept to reuse their allocations.
    /// Boxed as in the frames, so an index moves between them and here as one pointer.
    #[allow(clippy::vec_box)]
    spare_indexes: Vec<Box<Index>>,
    /// Tests only: the indexes built from now on hash every key the same.
    #[cfg(test)]
    one_hash_for_all: bool,
    /// Tests only: how many entries the hash index compared keys with.
    #[cfg(test)]
    index_comparisons: usize,
    /// Tests only: how many open objects [`Self::detach_from_input`] rebased.
    #[cfg(test)]
    frames_looked_at: usize,
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn load_u32(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u64::from(u32::from_le_bytes(word))
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn load_u64(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// Eight bytes that, together with the length, identify a key of up to 8 bytes exactly
/// (its bytes, gathered without a variable-length copy), and mix the first and the last 8
/// bytes of a longer key (long keys often share a prefix: `profile_link_color`,
/// `profile_text_color`).
#[cfg_attr(not(debug_assertions), inline(always))]
fn fingerprint(key: &[u8]) -> u64 {
    let len = key.len();
    if len > 8 {
        load_u64(key, 0) ^ load_u64(key, len - 8).rotate_left(29)
    } else if len == 8 {
        load_u64(key, 0)
    } else if len >= 4 {
        // Two overlapping halves cover all 4 to 7 bytes.
        load_u32(key, 0) | (load_u32(key, len - 4) << 32)
    } else if len > 0 {
        // First, middle and last cover all 1 to 3 bytes.
        u64::from(key[0]) | (u64::from(key[len / 2]) << 8) | (u64::from(key[len - 1]) << 16)
    } else {
        0
    }
}

/// The bytes of `entry`, in the input or in the arena.
fn entry_bytes<'s>(entry: &KeyEntry, arena: &'s KeyArena, input: InputBytes<'s>) -> &'s [u8] {
    if entry.in_input() {
        input_bytes(entry, input)
    } else {
        arena.get(entry.start, entry.len())
    }
}

/// The bytes of `entry`, which is held by its offset in `input`.
#[inline]
fn input_bytes<'i>(entry: &KeyEntry, input: InputBytes<'i>) -> &'i [u8] {
    let start = entry.start - input.offset;
    &input.bytes[start..start + entry.len()]
}

/// Whether `entry` holds `key`, whose fingerprint is `print`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn holds(
    entry: &KeyEntry,
    key: &[u8],
    print: u64,
    arena: &KeyArena,
    input: InputBytes<'_>,
) -> bool {
    entry.fingerprint == print
        && entry.len() == key.len()
        && (key.len() <= 8 || entry_bytes(entry, arena, input) == key)
}

impl KeyTracker {
    #[inline]
    pub(crate) fn open(&mut self) {
        self.frames.push(KeyFrame {
            first_entry: self.entries.len(),
            first_byte: self.arena.len(),
            index: None,
            filter: [0; 4],
        });
    }

    #[inline]
    pub(crate) fn close(&mut self) {
        if let Some(frame) = self.frames.pop() {
            self.truncate(frame.first_entry, frame.first_byte);
            if let Some(mut index) = frame.index {
                index.clear();
                self.spare_indexes.push(index);
            }
        }
    }

    /// Forgets the entries from `entry` on, and the arena's bytes from `byte` on (theirs).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn truncate(&mut self, entry: usize, byte: usize) {
        self.entries.truncate(entry);
        self.arena.truncate(byte);
        // Entries pushed from here on may be held by offset.
        self.first_in_input = self.first_in_input.min(entry);
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn push(&mut self, key: KeyBytes<'_>, fingerprint: u64) {
        let entry = match key {
            KeyBytes::Input(start, bytes) => KeyEntry::new(fingerprint, start, bytes.len(), true),
            KeyBytes::Copy(bytes) => {
                let start = self.arena.push(bytes);
                KeyEntry::new(fingerprint, start, bytes.len(), false)
            }
        };
        self.entries.push(entry);
    }

    /// Remembers `key` as the current key of the innermost object, forgetting the previous
    /// one (no duplicate detection).
    #[inline]
    pub(crate) fn replace(&mut self, key: KeyBytes<'_>) {
        let Some(frame) = self.frames.last() else {
            return;
        };
        self.truncate(frame.first_entry, frame.first_byte);
        self.push(key, 0);
    }

    /// Adds `key` to the innermost object; `false` when the object already has it. `input`
    /// is what [`KeyBytes::Input`] offsets, this key's and those of earlier keys, point into.
    ///
    /// Inlined where keys are read: the common case (a key the object's filter has never
    /// seen, in an object below [`SMALL_OBJECT`] keys) is a fingerprint, one filter test and
    /// one entry pushed, with no call; the rest is [`Self::is_new_slow`], out of line.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn insert(&mut self, key: KeyBytes<'_>, input: InputBytes<'_>) -> bool {
        let Some(frame) = self.frames.last_mut() else {
            return true;
        };
        let text = key.bytes();
        let print = fingerprint(text);
        let (word, bit) = filter_bit(print, text.len());
        let maybe_seen = frame.filter[word] & bit != 0;
        frame.filter[word] |= bit;
        // The common case stays small: a key the filter has never seen, in a small object
        // (the hash index is built only once an object has `SMALL_OBJECT` keys).
        let small = self.entries.len() - frame.first_entry < SMALL_OBJECT;
        if (maybe_seen || !small) && !self.is_new_slow(text, print, maybe_seen, input) {
            return false;
        }
        self.push(key, print);
        true
    }

    /// Whether `text` (fingerprint `print`) is new in the innermost object, when the filter
    /// cannot tell or the object is large; builds the hash index when the object grows past
    /// [`SMALL_OBJECT`] keys, and adds `text` to it.
    #[inline(never)]
    fn is_new_slow(
        &mut self,
        text: &[u8],
        print: u64,
        maybe_seen: bool,
        input: InputBytes<'_>,
    ) -> bool {
        #[cfg(test)]
        let one_hash_for_all = self.one_hash_for_all;
        let KeyTracker {
            arena,
            entries,
            frames,
            spare_indexes,
            #[cfg(test)]
            index_comparisons,
            ..
        } = self;
        let Some(frame) = frames.last_mut() else {
            return true;
        };
        let first = frame.first_entry;
        let known = &entries[first..];
        let Some(index) = &mut frame.index else {
            if maybe_seen && known.iter().any(|e| holds(e, text, print, arena, input)) {
                return false;
            }
            if known.len() >= SMALL_OBJECT {
                // The object has grown: index its keys by hash from now on. They are all
                // different (each was checked when it came).
                let mut index = spare_indexes.pop().unwrap_or_default();
                #[cfg(test)]
                {
                    index.one_hash_for_all = one_hash_for_all;
                }
                for entry in known {
                    let hash = index.hash(entry_bytes(entry, arena, input));
                    index.add(hash);
                }
                index.add(index.hash(text));
                frame.index = Some(index);
            }
            return true;
        };
        let key_hash = index.hash(text);
        index.add_if_new(key_hash, |position| {
            #[cfg(test)]
            {
                *index_comparisons += 1;
            }
            holds(&entries[first + position], text, print, arena, input)
        })
    }

    /// Copies the keys still held as offsets in `input` into the arena, before the input
    /// drops bytes (an `io::Read` window that moves on). Only the entries added since the
    /// last call can be such keys; they are rebuilt in order at the arena's end, so that it
    /// still holds the keys of each object after those of the objects around it, and
    /// closing an object still truncates it to where that object's keys begin.
    pub(crate) fn detach_from_input(&mut self, input: InputBytes<'_>) {
        let KeyTracker {
            arena,
            entries,
            frames,
            first_in_input,
            detached,
            #[cfg(test)]
            frames_looked_at,
            ..
        } = self;
        let from = *first_in_input;
        *first_in_input = entries.len();
        if !entries[from..].iter().any(KeyEntry::in_input) {
            return;
        }
        // The entries before `from` are all in the arena, their bytes in order before
        // those of the entries after them.
        let tail_start = from
            .checked_sub(1)
            .map_or(0, |last| entries[last].start + entries[last].len());
        // The arena's bytes from `tail_start` on are those of the tail's decoded keys (mostly
        // none): set them aside (each entry pointing at its bytes there for the moment), then
        // write every key of the tail back in order, a key held by offset copied once,
        // straight from the input.
        detached.clear();
        for entry in entries[from..].iter_mut().filter(|entry| !entry.in_input()) {
            let at = detached.len();
            detached.extend_from_slice(arena.get(entry.start, entry.len()));
            entry.start = at;
        }
        arena.truncate(tail_start);
        for entry in &mut entries[from..] {
            let bytes = if entry.in_input() {
                input_bytes(entry, input)
            } else {
                &detached[entry.start..entry.start + entry.len()]
            };
            let start = arena.push(bytes);
            entry.move_to_arena(start);
        }
        // Objects open in nesting order, each with its entries after those of the objects
        // around it: the ones that start at or after `from` are the innermost, found without
        // looking at every open object (with a raised `max_depth` and a stream handing out a
        // few bytes per read, that was the whole depth at every read).
        let moved = frames.partition_point(|frame| frame.first_entry < from);
        #[cfg(test)]
        {
            *frames_looked_at += frames.len() - moved;
        }
        for frame in &mut frames[moved..] {
            frame.first_byte = entries
                .get(frame.first_entry)
                .map_or(arena.len(), |entry| entry.start);
        }
    }

    /// The current (last) key of the object at nesting position `object` (0 = outermost
    /// open object), if it has one yet.
    pub(crate) fn current_key(&self, object: usize, input: InputBytes<'_>) -> Option<String> {
        let frame = self.frames.get(object)?;
        let end = self
            .frames
            .get(object + 1)
            .map_or(self.entries.len(), |next| next.first_entry);
        if end <= frame.first_entry {
            return None;
        }
        let entry = self.entries[end - 1];
        let bytes = entry_bytes(&entry, &self.arena, input);
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
        let window = InputBytes::whole(input);
        for i in 0..200 {
            assert!(keys.insert(KeyBytes::Copy(format!("k{i}").as_bytes()), window));
        }
        assert!(!keys.insert(KeyBytes::Input(2, b"k0"), window));
        assert!(!keys.insert(KeyBytes::Input(6, b"k199"), window));
        assert!(!keys.insert(KeyBytes::Copy(b"k23"), window));
        keys.open();
        assert!(
            keys.insert(KeyBytes::Input(2, b"k0"), window),
            "a nested object has its own keys"
        );
        assert!(
            !keys.insert(KeyBytes::Copy(b"k0"), window),
            "borrowed and copied keys compare"
        );
        assert_eq!(keys.current_key(1, window).as_deref(), Some("k0"));
        keys.close();
        assert_eq!(keys.current_key(0, window).as_deref(), Some("k199"));
        keys.close();
        keys.open();
        assert!(keys.insert(KeyBytes::Copy(b"k0"), window));
    }

    #[test]
    fn keys_with_equal_fingerprints_or_lengths_are_told_apart() {
        let empty = InputBytes::whole(b"");
        // Every length around the 3/4/8-byte boundaries of the fingerprint, and long keys
        // that share their first 8 bytes, in small objects and in indexed ones.
        let mut names: Vec<String> = Vec::new();
        for len in 0..=12 {
            for last in ['a', 'b'] {
                let mut name = "x".repeat(len);
                if len > 0 {
                    name.replace_range(len - 1.., &last.to_string());
                }
                names.push(name);
            }
        }
        names.push("abcdefghXY".to_owned());
        names.push("abcdefghYX".to_owned());
        names.push("abcdefgh".to_owned());
        names.push("aXa".to_owned());
        names.push("aYa".to_owned());
        names.sort();
        names.dedup();
        for extra in [0, 40, 100] {
            let mut keys = KeyTracker::default();
            keys.open();
            for i in 0..extra {
                assert!(keys.insert(KeyBytes::Copy(format!("pad{i}").as_bytes()), empty));
            }
            for name in &names {
                assert!(
                    keys.insert(KeyBytes::Copy(name.as_bytes()), empty),
                    "{name:?} is new"
                );
            }
            for name in &names {
                assert!(
                    !keys.insert(KeyBytes::Copy(name.as_bytes()), empty),
                    "{name:?} is a duplicate"
                );
            }
        }
    }

    #[test]
    fn fingerprints_of_short_keys_are_the_keys() {
        let all: Vec<Vec<u8>> = (0u8..4)
            .flat_map(|len| {
                (0..3u8.pow(u32::from(len))).map(move |n| {
                    (0..len)
                        .map(|i| b'a' + (n / 3u8.pow(u32::from(i))) % 3)
                        .collect::<Vec<u8>>()
                })
            })
            .collect();
        for a in &all {
            for b in &all {
                let same = a.len() == b.len() && fingerprint(a) == fingerprint(b);
                assert_eq!(same, a == b, "{a:?} {b:?}");
            }
        }
        assert_ne!(fingerprint(b"abcdefg"), fingerprint(b"abcdefh"));
        assert_ne!(fingerprint(b"abcd"), fingerprint(b"abce"));
    }

    #[test]
    fn keys_past_the_filter_and_the_small_object_limit_go_to_the_slow_path_and_stay_exact() {
        let input = b"abcabc";
        let window = InputBytes::whole(input);
        let mut keys = KeyTracker::default();
        assert!(
            keys.insert(KeyBytes::Input(0, &input[..3]), window),
            "no object is open: nothing to check"
        );
        keys.open();
        assert!(keys.insert(KeyBytes::Input(0, &input[..3]), window));
        let filter = keys.frames[0].filter;
        assert!(
            !keys.insert(KeyBytes::Copy(b"abc"), window),
            "a copied duplicate of a key in the input"
        );
        assert_eq!(keys.entries.len(), 1, "a duplicate is never added");
        assert_eq!(keys.frames[0].filter, filter);
        assert!(!keys.insert(KeyBytes::Input(3, &input[3..]), window));
        assert!(keys.insert(KeyBytes::Copy(b"copied"), window));
        assert!(!keys.insert(KeyBytes::Copy(b"copied"), window));
        // From `SMALL_OBJECT` keys on, every key goes to the slow path (and its hash index).
        for i in 2..SMALL_OBJECT {
            assert!(keys.insert(KeyBytes::Copy(format!("k{i}").as_bytes()), window));
        }
        assert_eq!(keys.entries.len(), SMALL_OBJECT);
        assert!(keys.frames[0].index.is_none());
        assert!(keys.insert(KeyBytes::Copy(b"new"), window));
        assert!(keys.frames[0].index.is_some());
        assert!(!keys.insert(KeyBytes::Copy(b"new"), window));
        assert!(!keys.insert(KeyBytes::Input(0, &input[..3]), window));
    }

    /// Keys such as `key_number_00000017_with_some_padding_text_here`: long, alike, and
    /// different in a few digits only.
    fn similar_key(i: usize) -> String {
        format!("key_number_{i:08}_with_some_padding_text_here")
    }

    #[test]
    fn similar_keys_in_a_large_object_are_each_compared_at_most_once() {
        let empty = InputBytes::whole(b"");
        let mut keys = KeyTracker::default();
        keys.open();
        let count = 100_000;
        for i in 0..count {
            assert!(keys.insert(KeyBytes::Copy(similar_key(i).as_bytes()), empty));
        }
        let index_comparisons_of_new_keys = keys.index_comparisons;
        for i in [0, 1, 63, 64, 65, count / 2, count - 1] {
            assert!(!keys.insert(KeyBytes::Copy(similar_key(i).as_bytes()), empty));
        }
        // New keys meet no other key of their (random, 64-bit) hash: two of 100,000 keys
        // share one with a probability near 1e-9. Each duplicate meets its first occurrence.
        assert_eq!(index_comparisons_of_new_keys, 0);
        assert_eq!(keys.index_comparisons, 7);
    }

    #[test]
    fn an_entry_keeps_its_length_and_place_in_one_word() {
        for len in [0, 1, 45, usize::MAX >> 1] {
            for in_input in [false, true] {
                let mut entry = KeyEntry::new(9, 1234, len, in_input);
                assert_eq!((entry.len(), entry.in_input()), (len, in_input));
                entry.move_to_arena(7);
                assert_eq!(
                    (entry.start, entry.len(), entry.in_input()),
                    (7, len, false)
                );
            }
        }
        assert_eq!(
            std::mem::size_of::<KeyEntry>(),
            3 * std::mem::size_of::<usize>()
        );
    }

    #[test]
    fn the_index_table_grows_before_it_is_full_and_places_every_entry_once() {
        let mut index = Index::default();
        let count = 5_000;
        let hashes: Vec<u64> = (0..count)
            .map(|i| index.hash(similar_key(i).as_bytes()))
            .collect();
        for (i, &hash) in hashes.iter().enumerate() {
            if i < SMALL_OBJECT {
                index.add(hash);
            } else {
                assert!(index.add_if_new(hash, |_| panic!("no entry holds a new key")));
            }
            let (filled, of) = MAX_LOAD;
            assert!(index.slots.len().is_power_of_two());
            assert!(index.hashes.len() * of <= index.slots.len() * filled, "{i}");
        }
        // Every entry sits in one slot, under the top bits of its own hash.
        let mut seen = vec![0; count];
        for &taken in index.slots.iter().filter(|&&taken| taken != 0) {
            let position = usize::try_from(taken & SLOT_POSITION).unwrap() - 1;
            assert_eq!(taken & !SLOT_POSITION, hashes[position] & !SLOT_POSITION);
            seen[position] += 1;
        }
        assert!(seen.iter().all(|&times| times == 1));
        // A duplicate is offered the entry of its hash, and only that one.
        for position in [0, SMALL_OBJECT, count - 1] {
            let mut offered = Vec::new();
            let new = index.add_if_new(hashes[position], |at| {
                offered.push(at);
                true
            });
            assert!(!new);
            assert_eq!(offered, [position]);
        }
        assert_eq!(index.hashes.len(), count);
    }

    #[test]
    fn keys_that_all_share_one_hash_are_still_told_apart() {
        let empty = InputBytes::whole(b"");
        let mut keys = KeyTracker {
            one_hash_for_all: true,
            ..KeyTracker::default()
        };
        keys.open();
        let count = 300;
        for i in 0..count {
            assert!(keys.insert(KeyBytes::Copy(similar_key(i).as_bytes()), empty));
        }
        for i in [0, 64, 65, count - 1] {
            assert!(!keys.insert(KeyBytes::Copy(similar_key(i).as_bytes()), empty));
        }
        assert!(keys.insert(KeyBytes::Copy(b"one more"), empty));
        assert!(!keys.insert(KeyBytes::Copy(b"one more"), empty));
        // The index was built and used: every lookup past `SMALL_OBJECT` walked the chain.
        assert!(keys.index_comparisons > 0);
        // A closed object's index is kept for the next large object, emptied.
        keys.close();
        assert_eq!(keys.spare_indexes.len(), 1);
        assert!(keys.spare_indexes[0].hashes.is_empty());
        assert!(keys.spare_indexes[0].slots.is_empty());
        keys.open();
        for i in 0..count {
            assert!(keys.insert(KeyBytes::Copy(similar_key(i).as_bytes()), empty));
        }
        assert!(!keys.insert(KeyBytes::Copy(similar_key(count - 1).as_bytes()), empty));
        assert!(keys.spare_indexes.is_empty(), "the spare index was reused");
    }

    #[test]
    fn keys_held_by_offset_survive_the_window_moving_on() {
        // A window over `..alpha..beta..gamma`, later moved on to bytes that hold none of
        // the keys: detached keys must answer from the arena.
        let first = InputBytes {
            bytes: b"..alpha..beta..gamma",
            offset: 100,
        };
        let mut keys = KeyTracker::default();
        keys.open();
        assert!(keys.insert(KeyBytes::Input(102, b"alpha"), first));
        keys.open();
        assert!(keys.insert(KeyBytes::Copy(b"escaped"), first));
        assert!(keys.insert(KeyBytes::Input(109, b"beta"), first));
        keys.detach_from_input(first);
        let moved = InputBytes {
            bytes: b"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            offset: 200,
        };
        assert_eq!(keys.current_key(1, moved).as_deref(), Some("beta"));
        assert!(!keys.insert(KeyBytes::Copy(b"beta"), moved));
        assert!(!keys.insert(KeyBytes::Copy(b"escaped"), moved));
        keys.close();
        assert_eq!(keys.current_key(0, moved).as_deref(), Some("alpha"));
        assert!(!keys.insert(KeyBytes::Copy(b"alpha"), moved));

        // Entries pushed where closed objects' entries were, after a detach, are held by
        // offset again and detached at the next move.
        let second = InputBytes {
            bytes: b"..delta..epsilon",
            offset: 300,
        };
        keys.open();
        assert!(keys.insert(KeyBytes::Input(302, b"delta"), second));
        assert!(keys.insert(KeyBytes::Input(309, b"epsilon"), second));
        keys.detach_from_input(second);
        assert!(!keys.insert(KeyBytes::Copy(b"epsilon"), moved));
        assert!(!keys.insert(KeyBytes::Copy(b"delta"), moved));
        assert_eq!(keys.current_key(1, moved).as_deref(), Some("epsilon"));
        keys.close();
        assert_eq!(keys.current_key(0, moved).as_deref(), Some("alpha"));
        assert_eq!(keys.arena.len(), 5, "closing still truncates the arena");
        assert_eq!(keys.arena.get(0, 5), b"alpha");
    }

    #[test]
    fn a_window_move_rebases_only_the_objects_opened_since_the_last() {
        // `{"k":{"k":{"k":...` a thousand deep, read in small reads: the keys are detached
        // before every read, and each detach must cost what is new since the last one.
        let depth = 1000;
        let text = vec![b'k'; depth];
        let input = InputBytes::whole(&text);
        let mut keys = KeyTracker::default();
        for at in 0..depth {
            keys.open();
            assert!(keys.insert(KeyBytes::Input(at, b"k"), input));
            keys.detach_from_input(input);
            // A read that brought no key.
            keys.detach_from_input(input);
        }
        assert_eq!(keys.frames_looked_at, depth);
        let moved = InputBytes {
            bytes: b"",
            offset: depth,
        };
        for object in 0..depth {
            assert_eq!(keys.current_key(object, moved).as_deref(), Some("k"));
        }
        for _ in 0..depth {
            assert!(!keys.insert(KeyBytes::Copy(b"k"), moved));
            keys.close();
        }
        assert!(keys.arena.is_empty());
    }

    #[test]
    fn replace_keeps_only_the_current_key() {
        let mut keys = KeyTracker::default();
        keys.open();
        keys.replace(KeyBytes::Copy(b"a"));
        keys.replace(KeyBytes::Input(1, b"b"));
        assert_eq!(
            keys.current_key(0, InputBytes::whole(b"ab")).as_deref(),
            Some("b")
        );
        assert_eq!(keys.entries.len(), 1);
    }
}
