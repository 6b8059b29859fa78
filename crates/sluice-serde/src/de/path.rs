//! The data path of an error (`$.a[2].b`), built only when an error happens.
//!
//! Keeping the path up to date while reading (one slot per open container, rewritten at
//! every element and key) cost the bridge about a tenth of its time on documents of many
//! small containers, for errors that almost never come. Instead, the path is assembled on
//! the way out: the error is created at the innermost level, and each container it passes
//! through on its way up adds its own segment (the index of the element being read, or the
//! key), until the root container sets the finished path on the error.
//!
//! What each level needs for that is already at hand: a sequence counts its elements, and a
//! map keeps its current key as a [`Slot`]: a slice of the input when the key was read from
//! it, else a copy in one shared buffer that grows and shrinks with the open maps.
//!
//! Which errors get segments: an error without a path that the deserializer has given a span
//! (every error it creates or receives from the reader). An error with a path is finished
//! (the JSON reader names the path of its own errors); an error without a span was just
//! created by serde or a `Deserialize` impl, and the level that sees it first starts it.

use sluice_core::{Path, PathSegment};

use crate::error::Error;

/// Where a container is: the element or key being read, as a path segment to be.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Slot<'de> {
    /// Nothing read yet.
    Empty,
    /// An element of a sequence, or an entry of a map whose keys are not strings.
    Index(usize),
    /// A key borrowed from the input.
    Key(&'de str),
    /// A key copied into the shared buffer, at `keys[start..end]`.
    Copied(usize, usize),
}

/// The state behind lazy error paths: how deep the reading is, the segments of the error
/// on its way out, and the buffer of copied keys.
#[derive(Debug, Default)]
pub(crate) struct Trail {
    /// Containers open.
    depth: usize,
    /// Segments of the error being traced, innermost first.
    segments: Vec<PathSegment>,
    /// Keys that could not be borrowed from the input, for the open maps (stack order).
    keys: String,
}

impl Trail {
    /// A container was opened.
    #[inline]
    pub(crate) fn enter(&mut self) {
        self.depth += 1;
    }

    /// The innermost container was left: `true` when it was the root.
    #[inline]
    pub(crate) fn leave(&mut self) -> bool {
        self.depth -= 1;
        self.depth == 0
    }

    /// Where the keys of a map opened now start in the buffer.
    #[inline]
    pub(crate) fn key_base(&self) -> usize {
        self.keys.len()
    }

    /// Frees the copied keys of a map that is done.
    #[inline]
    pub(crate) fn release_keys(&mut self, base: usize) {
        self.keys.truncate(base);
    }

    /// Copies `key`, the current key of the map whose keys start at `base`, replacing its
    /// previous one.
    pub(crate) fn copy_key<'de>(&mut self, base: usize, key: &str) -> Slot<'de> {
        self.keys.truncate(base);
        self.keys.push_str(key);
        Slot::Copied(base, self.keys.len())
    }

    /// Starts tracing `err`, created at the current position: at the root its path is
    /// complete (`$`) at once; deeper, the containers add their segments on the way out.
    #[cold]
    pub(crate) fn start(&mut self, err: Error) -> Error {
        if err.path().is_some() {
            return err;
        }
        self.segments.clear();
        if self.depth == 0 {
            err.with_path(Path::root())
        } else {
            err
        }
    }

    /// Adds the segment of `slot` to `err` when it is being traced.
    #[cold]
    pub(crate) fn add(&mut self, err: &Error, slot: Slot<'_>) {
        if err.path().is_some() {
            return;
        }
        let segment = match slot {
            Slot::Empty => return,
            Slot::Index(index) => PathSegment::Index(index),
            Slot::Key(key) => PathSegment::Key(key.to_owned()),
            Slot::Copied(start, end) => PathSegment::Key(self.keys[start..end].to_owned()),
        };
        self.segments.push(segment);
    }

    /// At the root container, sets the path gathered on the way out.
    #[cold]
    pub(crate) fn finish(&mut self, err: Error) -> Error {
        if err.path().is_some() {
            return err;
        }
        let path = self.segments.drain(..).rev().collect();
        err.with_path(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes;

    fn traced(err: &Error) -> Option<String> {
        err.path().map(ToString::to_string)
    }

    #[test]
    fn segments_are_added_innermost_first_and_set_at_the_root() {
        let mut trail = Trail::default();
        trail.enter();
        trail.enter();
        let err = trail.start(Error::new(codes::CUSTOM, "x"));
        assert_eq!(traced(&err), None);
        trail.add(&err, Slot::Index(2));
        assert!(!trail.leave());
        trail.add(&err, Slot::Key("outer"));
        assert!(trail.leave());
        let err = trail.finish(err);
        assert_eq!(traced(&err).as_deref(), Some("$.outer[2]"));
    }

    #[test]
    fn an_error_at_the_root_is_finished_at_once() {
        let mut trail = Trail::default();
        let err = trail.start(Error::new(codes::CUSTOM, "x"));
        assert_eq!(traced(&err).as_deref(), Some("$"));
    }

    #[test]
    fn copied_keys_replace_each_other_and_are_released() {
        let mut trail = Trail::default();
        trail.enter();
        let base = trail.key_base();
        trail.copy_key(base, "first");
        let slot = trail.copy_key(base, "sec\"ond");
        assert_eq!(trail.keys, "sec\"ond");
        let err = trail.start(Error::new(codes::CUSTOM, "x"));
        trail.add(&err, slot);
        trail.release_keys(base);
        assert!(trail.keys.is_empty());
        assert!(trail.leave());
        let err = trail.finish(err);
        assert_eq!(traced(&err).as_deref(), Some(r#"$["sec\"ond"]"#));
    }

    #[test]
    fn a_finished_path_is_left_alone() {
        let mut trail = Trail::default();
        trail.enter();
        let mut path = Path::root();
        path.push_key("a".to_owned());
        let err = Error::new(codes::CUSTOM, "x").with_path(path);
        let err = trail.start(err);
        trail.add(&err, Slot::Index(1));
        trail.leave();
        let err = trail.finish(err);
        assert_eq!(traced(&err).as_deref(), Some("$.a"));
    }
}
