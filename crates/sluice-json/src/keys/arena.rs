//! The byte arena that holds copies of keys: decoded keys, and keys detached from an
//! `io::Read` window that moved on.
//!
//! It is a stack of bytes addressed by position, like a `Vec<u8>`, but it never moves what
//! it holds once it is past its first chunk: it grows by adding chunks of [`CHUNK`] bytes
//! instead of reallocating. A `Vec` that doubles copies everything it holds at each
//! growth, and past a size the allocator serves it from fresh memory, which the process
//! pays for page by page, again for every document: an object with megabytes of keys read
//! from a stream spent more on those page faults than on the rest of its extra work. Chunks
//! of one moderate size are what allocators recycle best; freed, they come back for the
//! next document without a fault.
//!
//! Positions are global: chunk `k` covers positions `k * CHUNK` up to `(k + 1) * CHUNK`. A
//! run of bytes never straddles two chunks: one that does not fit in what is left of a chunk
//! starts the next one, and the skipped tail stays unused. A run longer than a chunk has a
//! chunk of its own, as long as the run, and the positions it covers past its chunk stay
//! unused. Truncating keeps the chunks' memory for the next bytes, as `Vec::truncate`
//! keeps its capacity.

/// The size of a chunk, in positions and in bytes, but for the first chunk, which grows as
/// a `Vec` does (a document with a few decoded keys needs a few bytes), and for a run
/// longer than this, whose chunk is as long as the run.
const CHUNK: usize = 64 * 1024;

/// A stack of bytes that never moves them (see the module's documentation).
#[derive(Debug, Default)]
pub(crate) struct KeyArena {
    /// Chunk `k` holds the bytes of positions `k * CHUNK + i` at index `i`; its length is
    /// how much of it is taken.
    chunks: Vec<Vec<u8>>,
    /// The position where the next bytes go: the chunks hold nothing at or past it.
    len: usize,
}

impl KeyArena {
    /// The position where the next bytes go: positions below it are taken.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Stores `bytes` and returns their position, for [`Self::get`].
    pub(crate) fn push(&mut self, bytes: &[u8]) -> usize {
        if bytes.is_empty() {
            return self.len;
        }
        let mut chunk = self.len / CHUNK;
        let mut start = self.len;
        let offset = start % CHUNK;
        // Past the end of a run longer than a chunk, the chunk that `len` falls in is
        // empty: its positions belong to that run.
        let after_long_run = self.chunks.get(chunk).map_or(0, Vec::len) != offset;
        if after_long_run || (offset > 0 && bytes.len() > CHUNK - offset) {
            chunk += 1;
            start = chunk * CHUNK;
        }
        if self.chunks.len() <= chunk {
            self.chunks.resize_with(chunk + 1, Vec::new);
        }
        let store = &mut self.chunks[chunk];
        if chunk > 0 && store.capacity() == 0 {
            store.reserve_exact(CHUNK.max(bytes.len()));
        }
        store.extend_from_slice(bytes);
        self.len = start + bytes.len();
        start
    }

    /// The `len` bytes stored at position `start` by [`Self::push`].
    #[inline]
    pub(crate) fn get(&self, start: usize, len: usize) -> &[u8] {
        if len == 0 {
            return &[];
        }
        let at = start % CHUNK;
        &self.chunks[start / CHUNK][at..at + len]
    }

    /// Forgets the bytes from position `len` on (a position [`Self::len`] returned, or the
    /// end of bytes [`Self::push`] stored). Keeps the chunks' memory.
    ///
    /// The test in line, the work out of line: every object's end truncates, and the end of
    /// an object is read in line in the reader's loop, while most objects hold no copied
    /// keys to forget.
    #[inline(always)]
    pub(crate) fn truncate(&mut self, len: usize) {
        if len < self.len {
            self.forget_from(len);
        }
    }

    /// [`Self::truncate`]'s work, for a `len` below [`Self::len`].
    #[inline(never)]
    fn forget_from(&mut self, len: usize) {
        let chunk = len / CHUNK;
        let top = self.len / CHUNK;
        for later in self.chunks.iter_mut().take(top + 1).skip(chunk + 1) {
            later.clear();
        }
        if let Some(store) = self.chunks.get_mut(chunk) {
            store.truncate(len % CHUNK);
        }
        self.len = len;
    }

    /// Whether no bytes are stored.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_bytes_stay_where_they_were_put_as_chunks_are_added() {
        let mut arena = KeyArena::default();
        let mut stored = Vec::new();
        for i in 0..20_000usize {
            let key = format!("key_{i}_{}", "x".repeat(i % 61));
            let start = arena.push(key.as_bytes());
            stored.push((start, key));
        }
        assert!(arena.chunks.len() > 5, "the keys took several chunks");
        for (start, key) in &stored {
            assert_eq!(arena.get(*start, key.len()), key.as_bytes());
        }
        // No chunk past the first ever grew: nothing stored there was moved.
        for store in &arena.chunks[1..] {
            assert_eq!(store.capacity(), CHUNK);
        }
    }

    #[test]
    fn a_run_that_does_not_fit_a_chunk_starts_the_next_one() {
        let mut arena = KeyArena::default();
        let first = arena.push(&[b'a'; CHUNK - 10]);
        assert_eq!(first, 0);
        // 20 bytes do not fit in the 10 left: they start chunk 1.
        let second = arena.push(&[b'b'; 20]);
        assert_eq!(second, CHUNK);
        // Exactly what is left of chunk 1 fits in it.
        let third = arena.push(&vec![b'c'; CHUNK - 20]);
        assert_eq!(third, CHUNK + 20);
        assert_eq!(arena.len(), 2 * CHUNK);
        assert_eq!(arena.get(first, CHUNK - 10), &[b'a'; CHUNK - 10][..]);
        assert_eq!(arena.get(second, 20), &[b'b'; 20][..]);
        assert_eq!(arena.get(third, CHUNK - 20), &vec![b'c'; CHUNK - 20][..]);
    }

    #[test]
    fn a_run_longer_than_a_chunk_has_one_of_its_own() {
        let mut arena = KeyArena::default();
        let small = arena.push(b"small");
        let long: Vec<u8> = (0..(2 * CHUNK + 7)).map(|i| (i % 251) as u8).collect();
        let at = arena.push(&long);
        assert_eq!(at, CHUNK, "the long run starts a chunk");
        let end = arena.len();
        assert_eq!(end, CHUNK + long.len());
        // The next run goes past the positions the long run covers.
        let next = arena.push(b"next");
        assert_eq!(next, 4 * CHUNK);
        assert_eq!(arena.get(small, 5), b"small");
        assert_eq!(arena.get(at, long.len()), &long[..]);
        assert_eq!(arena.get(next, 4), b"next");
        // Truncated back to the long run's end, the next run still goes past it.
        arena.truncate(end);
        assert_eq!(arena.push(b"again"), 4 * CHUNK);
        // A long run as the very first one fills the first chunk.
        let mut arena = KeyArena::default();
        assert_eq!(arena.push(&long), 0);
        assert_eq!(arena.push(b"x"), 3 * CHUNK);
        assert_eq!(arena.get(0, long.len()), &long[..]);
    }

    #[test]
    fn empty_runs_take_no_room_and_read_back_empty() {
        let mut arena = KeyArena::default();
        assert_eq!(arena.push(b""), 0);
        assert_eq!(arena.get(0, 0), b"");
        arena.push(&[b'a'; CHUNK]);
        let empty = arena.push(b"");
        assert_eq!(empty, CHUNK);
        assert_eq!(arena.get(empty, 0), b"");
        assert_eq!(arena.len(), CHUNK);
    }

    #[test]
    fn truncating_forgets_later_bytes_and_reuses_their_room() {
        let mut arena = KeyArena::default();
        let kept = arena.push(b"kept");
        let mark = arena.len();
        arena.push(&[b'x'; CHUNK]);
        arena.push(&[b'y'; 3]);
        arena.truncate(mark);
        assert_eq!(arena.len(), mark);
        assert!(arena.chunks.iter().skip(1).all(Vec::is_empty));
        let again = arena.push(b"again");
        assert_eq!(
            again, mark,
            "the next bytes go where the forgotten ones were"
        );
        assert_eq!(arena.get(kept, 4), b"kept");
        assert_eq!(arena.get(again, 5), b"again");
        // Past the end, truncating does nothing.
        arena.truncate(arena.len() + 100);
        assert_eq!(arena.get(again, 5), b"again");
        arena.truncate(0);
        assert!(arena.is_empty());
        assert_eq!(arena.push(b"z"), 0);
        assert_eq!(arena.get(0, 1), b"z");
    }
}
