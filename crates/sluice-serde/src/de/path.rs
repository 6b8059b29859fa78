//! The data path of the value being read, kept cheaply and turned into a
//! [`Path`](sluice_core::Path) only when an error needs it.
//!
//! One slot per open container: an array slot holds the index of the current element, a map
//! slot the current key. A key that the reader handed out straight from the input is kept
//! as a borrowed slice of it (no copy); only keys the reader had to unescape, or keys from
//! readers without a known input, are copied into one shared buffer, which is truncated as
//! containers close, so memory is bounded by the keys of the open containers.

use sluice_core::{Path, PathSegment};

#[derive(Debug, Clone, Copy)]
enum Slot<'de> {
    /// A container whose first element or key has not been read yet.
    Empty,
    /// The index of the current element of an array, or of the current entry of a map whose
    /// keys are not strings.
    Index(usize),
    /// The current key, borrowed from the input.
    Key(&'de str),
    /// The current key, copied into `copied[start..end]`.
    CopiedKey(usize, usize),
}

#[derive(Debug, Default)]
pub(crate) struct PathTracker<'de> {
    slots: Vec<Slot<'de>>,
    copied: String,
}

impl<'de> PathTracker<'de> {
    /// A container was opened.
    #[inline]
    pub(crate) fn push(&mut self) {
        self.slots.push(Slot::Empty);
    }

    /// The innermost container was closed (or left on an error).
    #[inline]
    pub(crate) fn pop(&mut self) {
        if let Some(Slot::CopiedKey(start, _)) = self.slots.pop() {
            self.copied.truncate(start);
        }
    }

    /// The innermost container moved on to element `index`.
    #[inline]
    pub(crate) fn set_index(&mut self, index: usize) {
        if let Some(slot) = self.slots.last_mut() {
            if let Slot::CopiedKey(start, _) = *slot {
                self.copied.truncate(start);
            }
            *slot = Slot::Index(index);
        }
    }

    /// The innermost map moved on to a key: `borrowed` when it lies in the input, else
    /// `key` is copied.
    #[inline]
    pub(crate) fn set_key(&mut self, borrowed: Option<&'de str>, key: &str) {
        let Some(slot) = self.slots.last_mut() else {
            return;
        };
        if let Slot::CopiedKey(start, _) = *slot {
            self.copied.truncate(start);
        }
        *slot = match borrowed {
            Some(borrowed) => Slot::Key(borrowed),
            None => {
                let start = self.copied.len();
                self.copied.push_str(key);
                Slot::CopiedKey(start, self.copied.len())
            }
        };
    }

    /// The path as sluice shows it, `$.a[2].b`.
    #[cold]
    pub(crate) fn materialize(&self) -> Path {
        self.materialize_up_to(self.slots.len())
    }

    /// The path of the innermost container itself, without its current key or index.
    #[cold]
    pub(crate) fn materialize_container(&self) -> Path {
        self.materialize_up_to(self.slots.len().saturating_sub(1))
    }

    fn materialize_up_to(&self, depth: usize) -> Path {
        self.slots[..depth]
            .iter()
            .filter_map(|slot| match *slot {
                Slot::Empty => None,
                Slot::Index(index) => Some(PathSegment::Index(index)),
                Slot::Key(key) => Some(PathSegment::Key(key.to_owned())),
                Slot::CopiedKey(start, end) => {
                    Some(PathSegment::Key(self.copied[start..end].to_owned()))
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_borrowed_from_the_input_or_copied_and_released_on_pop() {
        let input = r#"{"outer": {"in\"ner": [1]}}"#;
        let mut path = PathTracker::default();
        path.push();
        path.set_key(Some(&input[2..7]), &input[2..7]); // borrowed
        path.push();
        path.set_key(None, "in\"ner"); // unescaped: copied
        path.push();
        path.set_index(0);
        assert_eq!(path.materialize().to_string(), r#"$.outer["in\"ner"][0]"#);
        assert!(matches!(path.slots[0], Slot::Key(_)));
        path.pop();
        path.pop();
        assert!(path.copied.is_empty());
        assert_eq!(path.materialize().to_string(), "$.outer");
    }

    #[test]
    fn replacing_a_copied_key_reuses_the_buffer() {
        let mut path = PathTracker::default();
        path.push();
        path.set_key(None, "first");
        path.set_key(None, "second");
        assert_eq!(path.copied, "second");
        path.set_index(3);
        assert!(path.copied.is_empty());
        assert_eq!(path.materialize().to_string(), "$[3]");
    }
}
