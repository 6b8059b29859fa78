//! The keys of the objects being written, for
//! [`WriterOptions::reject_duplicate_keys`](super::WriterOptions::reject_duplicate_keys).
//!
//! The reader's [`KeyTracker`] does the work (a fingerprint filter per object, and a hash
//! index once an object is large); this adds how the writer finds which object a key belongs
//! to. The writer does not tell the tracker when an object opens or closes: that would cost
//! every container a test, checked or not. A key comes with the writer's depth instead, and
//! whether it is its object's first: the tracker's objects deeper than the key's, and with a
//! first key the one at its depth too (an earlier sibling), have ended since, and are closed
//! then. So only key writes pay, and only with the check on.
//!
//! A key is checked once its text is written into the writer's buffer, and the tracker holds
//! where it is there (as the reader's tracker holds keys of a slice) rather than a copy.
//! Before the buffer drops bytes it hands to the sink, [`WrittenKeys::hand_over`] copies the
//! keys of the objects still open, each once (as the reader does before an `io::Read` window
//! moves on). Copying every key as it was checked cost 6% of `write_condensed_checked`'s
//! instructions on `twitter.json`, 7% on `citm_catalog.json`.

use crate::keys::{InputBytes, KeyBytes, KeyTracker};

#[derive(Debug, Default)]
pub(super) struct WrittenKeys {
    tracker: KeyTracker,
    /// The writer's depth (open containers) of each object the tracker has open, innermost
    /// last; strictly increasing.
    depths: Vec<usize>,
    /// How many bytes the writer has handed to its sink: the absolute offset of the first
    /// byte of its buffer, which the tracker's offsets count from the output's start.
    handed_over: usize,
}

impl WrittenKeys {
    /// Adds the key whose written text (escaped, between its quotes) is `out[start..]`, the
    /// end of the writer's buffer, to the object at `depth`; `false` when that object has it
    /// already. `first`: the key is its object's first, so the object is a new one.
    ///
    /// Keys are compared as written: escaping is deterministic, so two keys have the same
    /// written text exactly when they have the same decoded text. The tracker keeps the
    /// key's offset in the output rather than a copy, until [`Self::hand_over`].
    ///
    /// Inlined into the writer's one out-of-line call for a checked key: as calls of their
    /// own, this and the check around it cost more in saving and restoring registers than
    /// the filter test that answers for most keys.
    #[inline(always)]
    pub(super) fn insert(&mut self, out: &[u8], start: usize, depth: usize, first: bool) -> bool {
        while let Some(&top) = self.depths.last() {
            if top < depth || (top == depth && !first) {
                break;
            }
            self.tracker.close();
            self.depths.pop();
        }
        if self.depths.last() != Some(&depth) {
            self.tracker.open();
            self.depths.push(depth);
        }
        let key = KeyBytes::Input(self.handed_over + start, &out[start..]);
        self.tracker.insert(key, self.buffered(out))
    }

    /// The writer's buffer `out` as the tracker sees it: bytes at an offset in the output.
    #[inline(always)]
    fn buffered<'o>(&self, out: &'o [u8]) -> InputBytes<'o> {
        InputBytes {
            bytes: out,
            offset: self.handed_over,
        }
    }

    /// Before the writer drops the first `handed` bytes of its buffer `out` (handed to the
    /// sink): the keys of the open objects that are still held as offsets in it are
    /// copied, each once.
    pub(super) fn hand_over(&mut self, out: &[u8], handed: usize) {
        self.tracker.detach_from_input(self.buffered(out));
        self.handed_over += handed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `key` at the end of `out` and adds it, taking it back when it is refused, as
    /// the writer does.
    fn write(
        keys: &mut WrittenKeys,
        out: &mut Vec<u8>,
        key: &[u8],
        depth: usize,
        first: bool,
    ) -> bool {
        let start = out.len();
        out.extend_from_slice(key);
        let new = keys.insert(out, start, depth, first);
        if !new {
            out.truncate(start);
        }
        new
    }

    #[test]
    fn each_object_is_found_by_its_depth_and_first_key() {
        let mut keys = WrittenKeys::default();
        let out = &mut Vec::new();
        // {"a": {"a": 1, "b": 2}, "b": [{"a": 1}, {"a": 2}], "a": ...}
        assert!(write(&mut keys, out, b"a", 1, true));
        assert!(write(&mut keys, out, b"a", 2, true));
        assert!(write(&mut keys, out, b"b", 2, false));
        assert!(!write(&mut keys, out, b"b", 2, false));
        assert!(write(&mut keys, out, b"b", 1, false));
        assert!(write(&mut keys, out, b"a", 3, true));
        assert!(
            write(&mut keys, out, b"a", 3, true),
            "a sibling starts afresh"
        );
        assert!(!write(&mut keys, out, b"a", 1, false));
        assert_eq!(keys.depths, [1]);
        // The next root object.
        assert!(write(&mut keys, out, b"a", 1, true));
        assert!(!write(&mut keys, out, b"a", 1, false));
    }

    #[test]
    fn keys_of_open_objects_are_found_after_their_bytes_were_handed_over() {
        let mut keys = WrittenKeys::default();
        let out = &mut Vec::new();
        assert!(write(&mut keys, out, b"outer", 1, true));
        assert!(write(&mut keys, out, b"closed", 2, true));
        assert!(write(&mut keys, out, b"inner", 2, true));
        // All of the buffer handed over but 2 bytes, then the next key's bytes overwrite
        // what the tracker pointed at.
        keys.hand_over(out, out.len() - 2);
        out.drain(..out.len() - 2);
        out.fill(b'x');
        assert!(!write(&mut keys, out, b"inner", 2, false));
        assert!(write(&mut keys, out, b"other", 2, false));
        keys.hand_over(out, 3);
        out.drain(..3);
        assert!(!write(&mut keys, out, b"other", 2, false));
        assert!(!write(&mut keys, out, b"outer", 1, false));
        assert!(write(&mut keys, out, b"closed", 1, false));
    }
}
