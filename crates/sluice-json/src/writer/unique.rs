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
    /// Adds `key` (its decoded text) to the object at `depth`; `false` when that object has
    /// it already. `first`: the key is its object's first, so the object is a new one.
    pub(super) fn insert(&mut self, key: &[u8], depth: usize, first: bool) -> bool {
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
        self.tracker.insert(KeyBytes::Copy(key), NO_INPUT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_object_is_found_by_its_depth_and_first_key() {
        let mut keys = WrittenKeys::default();
        // {"a": {"a": 1, "b": 2}, "b": [{"a": 1}, {"a": 2}], "a": ...}
        assert!(keys.insert(b"a", 1, true));
        assert!(keys.insert(b"a", 2, true));
        assert!(keys.insert(b"b", 2, false));
        assert!(!keys.insert(b"b", 2, false));
        assert!(keys.insert(b"b", 1, false));
        assert!(keys.insert(b"a", 3, true));
        assert!(keys.insert(b"a", 3, true), "a sibling starts afresh");
        assert!(!keys.insert(b"a", 1, false));
        assert_eq!(keys.depths, [1]);
        // The next root object.
        assert!(keys.insert(b"a", 1, true));
        assert!(!keys.insert(b"a", 1, false));
    }
}
