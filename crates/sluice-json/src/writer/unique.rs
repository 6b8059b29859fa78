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

use crate::keys::{InputBytes, KeyBytes, KeyTracker};

/// Keys are always handed over as copies: the tracker never looks into an input.
const NO_INPUT: InputBytes<'static> = InputBytes {
    bytes: &[],
    offset: 0,
};

#[derive(Debug, Default)]
pub(super) struct WrittenKeys {
    tracker: KeyTracker,
    /// The writer's depth (open containers) of each object the tracker has open, innermost
    /// last; strictly increasing.
    depths: Vec<usize>,
}

impl WrittenKeys {
    /// Adds the key whose written text (escaped, between its quotes) is `out[start..]`, the
    /// end of the writer's buffer, to the object at `depth`; `false` when that object has it
    /// already. `first`: the key is its object's first, so the object is a new one.
    ///
    /// Keys are compared as written: escaping is deterministic, so two keys have the same
    /// written text exactly when they have the same decoded text.
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
        self.tracker.insert(KeyBytes::Copy(&out[start..]), NO_INPUT)
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
}
