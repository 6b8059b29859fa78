//! Paths inside data, such as `$.features[3].geometry.type`.
//!
//! Errors carry the path of the value that caused them. Paths are built only when an error
//! is reported, never per token.

use std::fmt;

/// One step of a [`Path`]: a map key / field name, or an array index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PathSegment {
    /// A key of a map or a field of a struct.
    Key(String),
    /// A position in an array, set or tuple.
    Index(usize),
}

/// A path from the root of a document to one value, shown as `$.a[3].b`.
///
/// ```
/// use sluice_core::Path;
/// let mut path = Path::root();
/// path.push_key("features");
/// path.push_index(3);
/// path.push_key("odd key");
/// assert_eq!(path.to_string(), r#"$.features[3]["odd key"]"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Path {
    segments: Vec<PathSegment>,
}

impl Path {
    /// The empty path, `$`.
    #[must_use]
    pub fn root() -> Path {
        Path::default()
    }

    /// Appends a key.
    pub fn push_key(&mut self, key: impl Into<String>) {
        self.segments.push(PathSegment::Key(key.into()));
    }

    /// Appends an index.
    pub fn push_index(&mut self, index: usize) {
        self.segments.push(PathSegment::Index(index));
    }

    /// Removes the last segment.
    pub fn pop(&mut self) -> Option<PathSegment> {
        self.segments.pop()
    }

    /// Puts `outer` in front of this path (used when an error travels up through a parent).
    pub fn prepend(&mut self, outer: &[PathSegment]) {
        self.segments.splice(0..0, outer.iter().cloned());
    }

    /// The segments, root first.
    #[must_use]
    pub fn segments(&self) -> &[PathSegment] {
        &self.segments
    }

    /// Whether this is the root path `$`.
    #[must_use]
    pub fn is_root(&self) -> bool {
        self.segments.is_empty()
    }
}

impl FromIterator<PathSegment> for Path {
    fn from_iter<I: IntoIterator<Item = PathSegment>>(iter: I) -> Path {
        Path {
            segments: iter.into_iter().collect(),
        }
    }
}

/// Whether `key` is written as `.key`: a letter, `_` or `$`, then letters, digits, `_` or `$`.
fn is_plain_key(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// Writes `key` as one step of a path, by the rule [`Path`]'s display follows: `.key` for a
/// plain key (a letter, `_` or `$`, then letters, digits, `_` or `$`), any other as `["key"]`,
/// escaped as a Rust string literal is (`\"`, `\\`, `\n`, `\u{301}`).
///
/// No key then reads as another key, as two steps, or as an index, and the step holds no
/// control character, so it stays on one line.
///
/// ```
/// use sluice_core::path::write_key;
/// let mut path = String::from("$");
/// for key in ["a", "a.b", "tab\there"] {
///     write_key(&mut path, key).unwrap();
/// }
/// assert_eq!(path, r#"$.a["a.b"]["tab\there"]"#);
/// ```
///
/// # Errors
///
/// Only those of `out` (writing to a `String` cannot fail).
pub fn write_key<W: fmt::Write + ?Sized>(out: &mut W, key: &str) -> fmt::Result {
    if is_plain_key(key) {
        out.write_char('.')?;
        out.write_str(key)
    } else {
        write!(out, "[{key:?}]")
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for segment in &self.segments {
            match segment {
                PathSegment::Key(key) => write_key(f, key)?,
                PathSegment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_displays_as_dollar_and_keys_needing_quotes_are_bracketed() {
        assert_eq!(Path::root().to_string(), "$");
        let path: Path = [
            PathSegment::Key("a".into()),
            PathSegment::Index(0),
            PathSegment::Key("with space".into()),
            PathSegment::Key("9lives".into()),
        ]
        .into_iter()
        .collect();
        assert_eq!(path.to_string(), r#"$.a[0]["with space"]["9lives"]"#);
    }

    #[test]
    fn a_key_is_plain_when_it_is_an_identifier() {
        for key in [
            "a",
            "_x9",
            "$ref",
            "$",
            "camelCase",
            "é",
            "naïve",
            "日本",
            "x٣",
        ] {
            assert!(is_plain_key(key), "{key:?}");
        }
        for key in [
            "", "9lives", "٣x", "a.b", "a-b", "a b", "e[]", "[]", "*", "😀", "e\u{301}", "a\n",
        ] {
            assert!(!is_plain_key(key), "{key:?}");
        }
    }

    #[test]
    fn write_key_writes_a_quoted_key_as_its_rust_literal() {
        let keys = [
            "a.b",
            "e[]",
            "[]",
            "*",
            "",
            "a b",
            " ~!#%&'()",
            "q\"",
            "b\\s",
            "\t\n\r\0\u{1}\u{7f}",
            "é-x",
            "😀",
            "e\u{301}",
            "\u{a0}",
        ];
        for key in keys {
            let mut step = String::new();
            write_key(&mut step, key).unwrap();
            assert_eq!(step, format!("[{key:?}]"));
            let mut path = Path::root();
            path.push_key(key);
            assert_eq!(path.to_string(), format!("${step}"));
        }
    }

    #[test]
    fn prepend_puts_the_parent_path_first() {
        let mut inner = Path::root();
        inner.push_key("x");
        inner.prepend(&[PathSegment::Key("outer".into()), PathSegment::Index(2)]);
        assert_eq!(inner.to_string(), "$.outer[2].x");
    }
}
