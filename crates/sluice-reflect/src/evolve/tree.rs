//! [`ValueTree`]: the editing API version converters use on stored data.
//!
//! A converter receives the stored object as a [`Value`] and reshapes it before it is
//! written into the current type: it finds children by name or path, reads them as typed
//! values, removes, adds, renames and replaces them.
//!
//! Paths are written as in error messages: `stats.speed`, `items[2].name`, `$.a["odd key"]`
//! (a leading `$.` is optional; inside quotes, `\"` and `\\` stand for `"` and `\`).

use sluice_core::{Error, Path, PathSegment, Result, Value, ValueReader, ValueWriter, pipe_value};

use super::codes;
use crate::{PropertyReader, PropertyWriter, Reflect, Typed};

/// Parses a path such as `a.b[2]["odd key"]` into segments.
///
/// # Errors
/// [`INVALID_PATH`](codes::INVALID_PATH) for unbalanced brackets, empty keys or bad indexes.
pub fn parse_path(text: &str) -> Result<Vec<PathSegment>> {
    let invalid =
        |why: &str| Error::new(codes::INVALID_PATH, format!("invalid path `{text}`: {why}"));
    // `$` alone, or followed by `.` or `[`, is the root; `$type` is a key.
    let mut rest = match text.strip_prefix('$') {
        Some(after) if after.is_empty() || after.starts_with(['.', '[']) => after,
        _ => text,
    };
    let mut segments = Vec::new();
    let mut first = true;
    while !rest.is_empty() {
        if let Some(inner) = rest.strip_prefix('[') {
            if let Some(quoted) = inner.strip_prefix('"') {
                let (key, after) =
                    quoted_key(quoted).ok_or_else(|| invalid("a quoted key is not closed"))?;
                segments.push(PathSegment::Key(key));
                rest = after
                    .strip_prefix(']')
                    .ok_or_else(|| invalid("a `]` must follow a quoted key"))?;
            } else {
                let close = inner
                    .find(']')
                    .ok_or_else(|| invalid("a `[` is not closed"))?;
                let index = inner[..close]
                    .parse()
                    .map_err(|_| invalid("an index is not a number"))?;
                segments.push(PathSegment::Index(index));
                rest = &inner[close + 1..];
            }
        } else {
            let body = match rest.strip_prefix('.') {
                Some(body) => body,
                None if first => rest,
                None => return Err(invalid("expected `.` or `[` between segments")),
            };
            let end = body.find(['.', '[']).unwrap_or(body.len());
            if end == 0 {
                return Err(invalid("a key is empty"));
            }
            segments.push(PathSegment::Key(body[..end].to_owned()));
            rest = &body[end..];
        }
        first = false;
    }
    Ok(segments)
}

/// A quoted key up to its closing quote (`\"` and `\\` escaped, as paths are displayed),
/// and the text after the quote.
fn quoted_key(text: &str) -> Option<(String, &str)> {
    let mut key = String::new();
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return Some((key, &text[at + 1..])),
            '\\' => key.push(chars.next()?.1),
            c => key.push(c),
        }
    }
    None
}

fn step<'v>(value: &'v Value, segment: &PathSegment) -> Option<&'v Value> {
    match segment {
        PathSegment::Key(key) => value.get(key),
        PathSegment::Index(index) => value.as_array()?.get(*index),
    }
}

fn step_mut<'v>(value: &'v mut Value, segment: &PathSegment) -> Option<&'v mut Value> {
    match segment {
        PathSegment::Key(key) => value.get_mut(key),
        PathSegment::Index(index) => match value {
            Value::Array(items) => items.get_mut(*index),
            _ => None,
        },
    }
}

/// The reflected value `value` as a [`Value`] tree (its plain shape).
///
/// # Errors
/// Errors of [`PropertyReader`] (values it cannot read).
pub fn to_value(value: &dyn Reflect) -> Result<Value> {
    let mut writer = ValueWriter::new();
    pipe_value(&mut PropertyReader::new(value), &mut writer)?;
    writer.into_value()
}

/// A fresh `T` read from `value` (its plain shape, no handler table).
///
/// # Errors
/// The errors of [`PropertyWriter`]: wrong types, missing or unknown fields.
pub fn from_value<T: Typed>(value: &Value) -> Result<T> {
    let mut target = T::reflect_default();
    write_value_into(value, &mut target)?;
    Ok(target)
}

/// Writes `value` into an existing reflected value (its plain shape, no handler table).
///
/// # Errors
/// As [`from_value`].
pub fn write_value_into(value: &Value, target: &mut dyn Reflect) -> Result<()> {
    let mut writer = PropertyWriter::new(target);
    pipe_value(&mut ValueReader::new(value), &mut writer)?;
    sluice_core::Writer::finish(&mut writer)
}

/// Finding, reading and editing the children of a [`Value`] tree (maps by key, arrays by
/// index): what version converters do to stored data.
///
/// ```
/// use sluice_core::Value;
/// use sluice_reflect::evolve::ValueTree;
///
/// let mut player = Value::Map(vec![
///     (Value::from("name"), Value::from("Ana")),
///     (Value::from("stats"), Value::Map(vec![(Value::from("hp"), Value::from(30u64))])),
/// ]);
/// assert_eq!(player.find("stats.hp").and_then(Value::as_u64), Some(30));
/// let hp: u32 = player.read("stats.hp")?;
/// player.remove_at("stats.hp");
/// player.add_child("health", Value::from(u64::from(hp) * 2))?;
/// assert!(player.rename_child("name", "display_name")?);
/// assert_eq!(player.child_names(), ["display_name", "stats", "health"]);
/// # Ok::<(), sluice_core::Error>(())
/// ```
pub trait ValueTree {
    /// The value at `path` (`a.b[2]`), if there is one.
    fn find(&self, path: &str) -> Option<&Value>;
    /// The value at `path`, mutably.
    fn find_mut(&mut self, path: &str) -> Option<&mut Value>;
    /// Every descendant (at any depth, this value excluded) stored under the key `name`,
    /// depth first, with its path from this value.
    fn find_named(&self, name: &str) -> Vec<(Path, &Value)>;
    /// Calls `edit` on every descendant stored under the key `name` (depth first, outer
    /// before inner); returns how many there were.
    fn edit_named(&mut self, name: &str, edit: &mut dyn FnMut(&mut Value)) -> usize;
    /// The value at `path` read as a `T`.
    ///
    /// # Errors
    /// [`NOT_FOUND`](codes::NOT_FOUND) when nothing is there; the errors of
    /// [`from_value`] when it is not a `T`.
    fn read<T: Typed>(&self, path: &str) -> Result<T>;
    /// The keys of a map that are strings, in order (empty for other values).
    fn child_names(&self) -> Vec<&str>;
    /// Appends a child to a map.
    ///
    /// # Errors
    /// [`NOT_A_MAP`](codes::NOT_A_MAP) when this is not a map, [`DUPLICATE_CHILD`](codes::DUPLICATE_CHILD)
    /// when the key is already there (use [`replace_child`](Self::replace_child)).
    fn add_child(&mut self, name: &str, value: Value) -> Result<()>;
    /// Removes a child of a map, returning it.
    fn remove_child(&mut self, name: &str) -> Option<Value>;
    /// Removes the value at `path` (a map entry or an array element), returning it.
    fn remove_at(&mut self, path: &str) -> Option<Value>;
    /// Replaces an existing child of a map in place, returning the old value; `None` (and
    /// nothing changed) when there was none.
    fn replace_child(&mut self, name: &str, value: Value) -> Option<Value>;
    /// Renames a child of a map, keeping its position; `false` when there is no `old`.
    ///
    /// # Errors
    /// [`DUPLICATE_CHILD`](codes::DUPLICATE_CHILD) when `new` is already there.
    fn rename_child(&mut self, old: &str, new: &str) -> Result<bool>;
    /// Sets the value at `path`, creating the missing maps on the way.
    ///
    /// # Errors
    /// [`INVALID_PATH`](codes::INVALID_PATH) for a bad or empty path,
    /// [`NOT_A_MAP`](codes::NOT_A_MAP) when the way goes through a value that is not a map
    /// (or an array index out of range).
    fn set_at(&mut self, path: &str, value: Value) -> Result<()>;
}

fn collect_named<'v>(
    value: &'v Value,
    name: &str,
    path: &mut Path,
    out: &mut Vec<(Path, &'v Value)>,
) {
    match value {
        Value::Map(entries) => {
            for (key, child) in entries {
                let Some(key) = key.as_str() else { continue };
                path.push_key(key);
                if key == name {
                    out.push((path.clone(), child));
                }
                collect_named(child, name, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                path.push_index(index);
                collect_named(child, name, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn edit_named_in(value: &mut Value, name: &str, edit: &mut dyn FnMut(&mut Value)) -> usize {
    let mut count = 0;
    match value {
        Value::Map(entries) => {
            for (key, child) in entries {
                if key.as_str() == Some(name) {
                    edit(child);
                    count += 1;
                }
                count += edit_named_in(child, name, edit);
            }
        }
        Value::Array(items) => {
            for child in items {
                count += edit_named_in(child, name, edit);
            }
        }
        _ => {}
    }
    count
}

impl ValueTree for Value {
    fn find(&self, path: &str) -> Option<&Value> {
        let segments = parse_path(path).ok()?;
        segments.iter().try_fold(self, step)
    }

    fn find_mut(&mut self, path: &str) -> Option<&mut Value> {
        let segments = parse_path(path).ok()?;
        segments.iter().try_fold(self, step_mut)
    }

    fn find_named(&self, name: &str) -> Vec<(Path, &Value)> {
        let mut out = Vec::new();
        collect_named(self, name, &mut Path::root(), &mut out);
        out
    }

    fn edit_named(&mut self, name: &str, edit: &mut dyn FnMut(&mut Value)) -> usize {
        edit_named_in(self, name, edit)
    }

    fn read<T: Typed>(&self, path: &str) -> Result<T> {
        let value = self
            .find(path)
            .ok_or_else(|| Error::new(codes::NOT_FOUND, format!("nothing at `{path}`")))?;
        from_value(value).map_err(|mut error| {
            let outer = parse_path(path).unwrap_or_default();
            error.path_mut().prepend(&outer);
            error
        })
    }

    fn child_names(&self) -> Vec<&str> {
        self.as_map()
            .map(|entries| entries.iter().filter_map(|(k, _)| k.as_str()).collect())
            .unwrap_or_default()
    }

    fn add_child(&mut self, name: &str, value: Value) -> Result<()> {
        let Value::Map(entries) = self else {
            return Err(not_a_map(self, name));
        };
        if entries.iter().any(|(k, _)| k.as_str() == Some(name)) {
            return Err(Error::new(
                codes::DUPLICATE_CHILD,
                format!("a child `{name}` is already there"),
            ));
        }
        entries.push((Value::String(name.to_owned()), value));
        Ok(())
    }

    fn remove_child(&mut self, name: &str) -> Option<Value> {
        self.remove(name)
    }

    fn remove_at(&mut self, path: &str) -> Option<Value> {
        let mut segments = parse_path(path).ok()?;
        let last = segments.pop()?;
        let parent = segments.iter().try_fold(self, step_mut)?;
        match (last, parent) {
            (PathSegment::Key(key), parent) => parent.remove(&key),
            (PathSegment::Index(index), Value::Array(items)) if index < items.len() => {
                Some(items.remove(index))
            }
            _ => None,
        }
    }

    fn replace_child(&mut self, name: &str, value: Value) -> Option<Value> {
        let slot = self.get_mut(name)?;
        Some(std::mem::replace(slot, value))
    }

    fn rename_child(&mut self, old: &str, new: &str) -> Result<bool> {
        let Value::Map(entries) = self else {
            return Ok(false);
        };
        if old == new {
            return Ok(entries.iter().any(|(k, _)| k.as_str() == Some(old)));
        }
        if entries.iter().any(|(k, _)| k.as_str() == Some(new)) {
            return Err(Error::new(
                codes::DUPLICATE_CHILD,
                format!("cannot rename `{old}` to `{new}`: `{new}` is already there"),
            ));
        }
        match entries.iter_mut().find(|(k, _)| k.as_str() == Some(old)) {
            Some((key, _)) => {
                *key = Value::String(new.to_owned());
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn set_at(&mut self, path: &str, value: Value) -> Result<()> {
        let mut segments = parse_path(path)?;
        let Some(last) = segments.pop() else {
            return Err(Error::new(
                codes::INVALID_PATH,
                "an empty path names no child",
            ));
        };
        let mut place = self;
        for segment in &segments {
            place = match segment {
                PathSegment::Key(key) => {
                    if place.get(key).is_none() {
                        place.add_child(key, Value::Map(Vec::new()))?;
                    }
                    place
                        .get_mut(key)
                        .ok_or_else(|| not_a_map(&Value::Null, key))?
                }
                PathSegment::Index(_) => {
                    let found = step_mut(place, segment);
                    found.ok_or_else(|| {
                        Error::new(codes::NOT_A_MAP, format!("no element at `{path}`"))
                    })?
                }
            };
        }
        match last {
            PathSegment::Key(key) => {
                if !matches!(place, Value::Map(_)) {
                    return Err(not_a_map(place, &key));
                }
                place.insert(&key, value);
                Ok(())
            }
            PathSegment::Index(index) => match place {
                Value::Array(items) if index < items.len() => {
                    items[index] = value;
                    Ok(())
                }
                _ => Err(Error::new(
                    codes::NOT_A_MAP,
                    format!("no element at `{path}`"),
                )),
            },
        }
    }
}

fn not_a_map(value: &Value, name: &str) -> Error {
    Error::new(
        codes::NOT_A_MAP,
        format!("cannot reach child `{name}` of a {}", value.kind_name()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(entries: Vec<(&str, Value)>) -> Value {
        Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| (Value::from(k), v))
                .collect(),
        )
    }

    fn sample() -> Value {
        map(vec![
            ("name", Value::from("Ana")),
            (
                "items",
                Value::Array(vec![
                    map(vec![
                        ("name", Value::from("sword")),
                        ("weight", Value::from(3u64)),
                    ]),
                    map(vec![
                        ("name", Value::from("shield")),
                        ("odd key", Value::Bool(true)),
                    ]),
                ]),
            ),
        ])
    }

    #[test]
    fn paths_parse_keys_indexes_and_quoted_keys() {
        let segments = parse_path(r#"$.items[1]["odd key"].x"#).unwrap();
        assert_eq!(
            segments,
            vec![
                PathSegment::Key("items".into()),
                PathSegment::Index(1),
                PathSegment::Key("odd key".into()),
                PathSegment::Key("x".into()),
            ]
        );
        assert_eq!(parse_path("a.b").unwrap().len(), 2);
        assert_eq!(
            parse_path("$type").unwrap(),
            vec![PathSegment::Key("$type".into())]
        );
        assert_eq!(
            parse_path("$.$type").unwrap(),
            vec![PathSegment::Key("$type".into())]
        );
        assert!(parse_path("$").unwrap().is_empty());
        assert_eq!(
            parse_path(r#"["q\"uote"]["back\\slash"]"#).unwrap(),
            vec![
                PathSegment::Key("q\"uote".into()),
                PathSegment::Key("back\\slash".into())
            ]
        );
        assert!(parse_path("").unwrap().is_empty());
        for bad in ["a..b", "a[1", "a[x]", "a[\"k]", "a]b"] {
            let result = parse_path(bad);
            if bad == "a]b" {
                // `]` outside brackets is part of a key: accepted.
                assert!(result.is_ok());
                continue;
            }
            assert_eq!(result.unwrap_err().code(), codes::INVALID_PATH, "{bad}");
        }
    }

    #[test]
    fn find_reaches_nested_values_and_misses_cleanly() {
        let doc = sample();
        assert_eq!(
            doc.find("items[1].name").and_then(Value::as_str),
            Some("shield")
        );
        assert_eq!(doc.find(r#"items[1]["odd key"]"#), Some(&Value::Bool(true)));
        assert!(doc.find("items[5].name").is_none());
        assert!(doc.find("name.first").is_none());
        assert!(doc.find("a[").is_none());
    }

    #[test]
    fn find_named_lists_descendants_with_paths_depth_first() {
        let doc = sample();
        let found: Vec<(String, &str)> = doc
            .find_named("name")
            .into_iter()
            .map(|(path, v)| (path.to_string(), v.as_str().unwrap()))
            .collect();
        assert_eq!(
            found,
            vec![
                ("$.name".to_owned(), "Ana"),
                ("$.items[0].name".to_owned(), "sword"),
                ("$.items[1].name".to_owned(), "shield"),
            ]
        );
    }

    #[test]
    fn edit_named_changes_every_match() {
        let mut doc = sample();
        let count = doc.edit_named("name", &mut |v| {
            if let Value::String(s) = v {
                s.make_ascii_uppercase();
            }
        });
        assert_eq!(count, 3);
        assert_eq!(
            doc.find("items[0].name").and_then(Value::as_str),
            Some("SWORD")
        );
    }

    #[test]
    fn read_gives_typed_values_and_coded_errors() {
        let doc = sample();
        let weight: u8 = doc.read("items[0].weight").unwrap();
        assert_eq!(weight, 3);
        assert_eq!(
            doc.read::<u8>("items[0].missing").unwrap_err().code(),
            codes::NOT_FOUND
        );
        let wrong = doc.read::<u8>("items[0].name").unwrap_err();
        assert_eq!(wrong.code(), crate::codes::WRONG_TYPE);
        assert_eq!(wrong.path().unwrap().to_string(), "$.items[0].name");
    }

    #[test]
    fn add_remove_replace_rename() {
        let mut doc = sample();
        doc.add_child("level", Value::from(2u64)).unwrap();
        assert_eq!(
            doc.add_child("level", Value::Null).unwrap_err().code(),
            codes::DUPLICATE_CHILD
        );
        assert_eq!(
            Value::from(1u64)
                .add_child("x", Value::Null)
                .unwrap_err()
                .code(),
            codes::NOT_A_MAP
        );
        assert_eq!(
            doc.replace_child("level", Value::from(3u64)),
            Some(Value::from(2u64))
        );
        assert_eq!(doc.replace_child("absent", Value::Null), None);
        assert!(doc.get("absent").is_none());
        assert!(doc.rename_child("name", "title").unwrap());
        assert!(!doc.rename_child("name", "title2").unwrap());
        assert_eq!(
            doc.rename_child("title", "level").unwrap_err().code(),
            codes::DUPLICATE_CHILD
        );
        assert_eq!(doc.child_names(), ["title", "items", "level"]);
        assert_eq!(doc.remove_at("items[0].weight"), Some(Value::from(3u64)));
        let removed = doc.remove_at("items[0]").unwrap();
        assert_eq!(removed.get("name").and_then(Value::as_str), Some("sword"));
        assert_eq!(
            doc.find("items")
                .and_then(Value::as_array)
                .map(<[Value]>::len),
            Some(1)
        );
        assert_eq!(doc.remove_at("items[7]"), None);
        assert_eq!(doc.remove_child("level"), Some(Value::from(3u64)));
    }

    #[test]
    fn set_at_creates_maps_on_the_way() {
        let mut doc = sample();
        doc.set_at("stats.speed.max", Value::from(9u64)).unwrap();
        assert_eq!(doc.find("stats.speed.max").and_then(Value::as_u64), Some(9));
        doc.set_at("items[1].name", Value::from("buckler")).unwrap();
        assert_eq!(
            doc.find("items[1].name").and_then(Value::as_str),
            Some("buckler")
        );
        assert_eq!(
            doc.set_at("name.x", Value::Null).unwrap_err().code(),
            codes::NOT_A_MAP
        );
        assert_eq!(
            doc.set_at("items[9].x", Value::Null).unwrap_err().code(),
            codes::NOT_A_MAP
        );
        assert_eq!(
            doc.set_at("", Value::Null).unwrap_err().code(),
            codes::INVALID_PATH
        );
    }

    #[test]
    fn to_value_and_from_value_round_trip() {
        let original = vec![(1u8, true), (2, false)];
        let value = to_value(&original).unwrap();
        let back: Vec<(u8, bool)> = from_value(&value).unwrap();
        assert_eq!(back, original);
    }
}
