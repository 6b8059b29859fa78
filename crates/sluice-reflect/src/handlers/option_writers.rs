//! Writer adapters behind [`SerializeOptions`](super::options::SerializeOptions): each wraps
//! any [`Writer`] and changes one thing about what reaches it.
//!
//! | adapter | what it changes |
//! |---|---|
//! | [`FieldFilterWriter`] | drops object members (a name and its whole value) a predicate rejects |
//! | [`SortedKeysWriter`] | writes the entries of every map sorted by key |
//! | [`FloatFormatWriter`] | writes finite `f32` / `f64` with a fixed number of decimals |
//!
//! They work on the token stream alone, so they see everything a serializer writes: plain
//! values, values written by handlers, and the parts piped without the table.

use std::cmp::Ordering;
use std::sync::Arc;

use sluice_core::{
    EnumToken, Ext, Number, NumberHint, OwnedEnum, Path, Result, Token, Value, ValueWriter, Writer,
};

use super::builtin::compare_values;
use super::options::FloatFormat;

/// A predicate on an object member: the data path of the object holding it and the member's
/// name; `true` keeps the member.
pub type FieldFilter = Arc<dyn Fn(&Path, &str) -> bool + Send + Sync>;

/// What one open container contributes to the data path.
#[derive(Debug)]
enum Frame {
    /// A map or struct: the name of the member being written, once one was.
    Object(Option<String>),
    /// An array or set: how many elements were started.
    Array(usize),
    /// An option: nothing (its value stands where the option stands).
    Option,
}

/// Drops the object members a [`FieldFilter`] rejects: the name and its whole value.
///
/// Maps and structs lose their length hint (`None`), since members may be dropped; writers
/// that need lengths learn them themselves.
///
/// ```
/// use std::sync::Arc;
/// use sluice_core::{Value, ValueWriter, Writer};
/// use sluice_reflect::handlers::option_writers::FieldFilterWriter;
///
/// let mut out = ValueWriter::new();
/// let mut writer = FieldFilterWriter::new(&mut out, Some(Arc::new(|_path: &sluice_core::Path, name: &str| name != "secret")));
/// writer.write_map_root(Some(2))?;
/// writer.write_name("secret")?;
/// writer.write_str("hunter2")?;
/// writer.write_name("user")?;
/// writer.write_str("ann")?;
/// writer.write_map_end()?;
/// let value = out.into_value()?;
/// assert!(value.get("secret").is_none());
/// assert_eq!(value.get("user").and_then(Value::as_str), Some("ann"));
/// # Ok::<(), sluice_core::Error>(())
/// ```
pub struct FieldFilterWriter<W> {
    inner: W,
    filter: Option<FieldFilter>,
    /// The open containers, each with whether it added a step to `path`.
    frames: Vec<(Frame, bool)>,
    /// The data path of the innermost open container.
    path: Path,
    /// While dropping a value: how many containers of it are open.
    dropping: Option<usize>,
}

impl<W> std::fmt::Debug for FieldFilterWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FieldFilterWriter")
            .field("filtering", &self.filter.is_some())
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl<W: Writer> FieldFilterWriter<W> {
    /// Wraps `inner`; with no filter every token passes unchanged.
    pub fn new(inner: W, filter: Option<FieldFilter>) -> FieldFilterWriter<W> {
        FieldFilterWriter {
            inner,
            filter,
            frames: Vec::new(),
            path: Path::root(),
            dropping: None,
        }
    }

    /// The wrapped writer.
    pub fn into_inner(self) -> W {
        self.inner
    }

    /// A value starts (not while a dropped value goes by): counts array elements.
    fn value_starts(&mut self) {
        if let Some((Frame::Array(started), _)) = self.frames.last_mut() {
            *started += 1;
        }
    }

    fn scalar(&mut self, write: impl FnOnce(&mut W) -> Result<()>) -> Result<()> {
        if self.filter.is_none() {
            return write(&mut self.inner);
        }
        match self.dropping {
            Some(0) => {
                self.dropping = None;
                Ok(())
            }
            Some(_) => Ok(()),
            None => {
                self.value_starts();
                write(&mut self.inner)
            }
        }
    }

    fn open(&mut self, frame: Frame, write: impl FnOnce(&mut W) -> Result<()>) -> Result<()> {
        if self.filter.is_none() {
            return write(&mut self.inner);
        }
        if let Some(depth) = &mut self.dropping {
            *depth += 1;
            return Ok(());
        }
        self.value_starts();
        // The container's own step: the member name or element index it stands at.
        let stepped = match self.frames.last() {
            Some((Frame::Object(Some(name)), _)) => {
                self.path.push_key(name.as_str());
                true
            }
            Some((Frame::Array(started), _)) => {
                self.path.push_index(started.saturating_sub(1));
                true
            }
            _ => false,
        };
        self.frames.push((frame, stepped));
        write(&mut self.inner)
    }

    fn close(&mut self, write: impl FnOnce(&mut W) -> Result<()>) -> Result<()> {
        if self.filter.is_none() {
            return write(&mut self.inner);
        }
        match self.dropping {
            Some(depth) if depth > 1 => {
                self.dropping = Some(depth - 1);
                Ok(())
            }
            Some(_) => {
                self.dropping = None;
                Ok(())
            }
            None => {
                if let Some((_, true)) = self.frames.pop() {
                    self.path.pop();
                }
                write(&mut self.inner)
            }
        }
    }
}

impl<W: Writer> Writer for FieldFilterWriter<W> {
    fn write_null(&mut self) -> Result<()> {
        self.scalar(Writer::write_null)
    }
    fn write_bool(&mut self, value: bool) -> Result<()> {
        self.scalar(|w| w.write_bool(value))
    }
    fn write_str(&mut self, value: &str) -> Result<()> {
        self.scalar(|w| w.write_str(value))
    }
    fn write_name(&mut self, name: &str) -> Result<()> {
        let Some(filter) = &self.filter else {
            return self.inner.write_name(name);
        };
        if self.dropping.is_some() {
            return Ok(());
        }
        if !matches!(self.frames.last(), Some((Frame::Object(_), _))) {
            // Not in an object: the inner writer reports the misplaced name.
            return self.inner.write_name(name);
        }
        if !filter(&self.path, name) {
            self.dropping = Some(0);
            return Ok(());
        }
        if let Some((Frame::Object(current), _)) = self.frames.last_mut() {
            match current {
                Some(current) => {
                    current.clear();
                    current.push_str(name);
                }
                None => *current = Some(name.to_owned()),
            }
        }
        self.inner.write_name(name)
    }
    fn write_number(&mut self, number: Number<'_>) -> Result<()> {
        self.scalar(|w| w.write_number(number))
    }
    fn write_i64(&mut self, value: i64) -> Result<()> {
        self.scalar(|w| w.write_i64(value))
    }
    fn write_u64(&mut self, value: u64) -> Result<()> {
        self.scalar(|w| w.write_u64(value))
    }
    fn write_i128(&mut self, value: i128) -> Result<()> {
        self.scalar(|w| w.write_i128(value))
    }
    fn write_u128(&mut self, value: u128) -> Result<()> {
        self.scalar(|w| w.write_u128(value))
    }
    fn write_f32(&mut self, value: f32) -> Result<()> {
        self.scalar(|w| w.write_f32(value))
    }
    fn write_f64(&mut self, value: f64) -> Result<()> {
        self.scalar(|w| w.write_f64(value))
    }
    fn write_blob(&mut self, value: &[u8]) -> Result<()> {
        self.scalar(|w| w.write_blob(value))
    }
    fn write_ext(&mut self, ext: Ext<'_>) -> Result<()> {
        self.scalar(|w| w.write_ext(ext))
    }
    fn write_enum(&mut self, value: EnumToken<'_>) -> Result<()> {
        self.scalar(|w| w.write_enum(value))
    }
    fn write_map_root(&mut self, len: Option<usize>) -> Result<()> {
        let len = if self.filter.is_some() { None } else { len };
        self.open(Frame::Object(None), |w| w.write_map_root(len))
    }
    fn write_map_end(&mut self) -> Result<()> {
        self.close(Writer::write_map_end)
    }
    fn write_struct_root(&mut self, name: &str, len: Option<usize>) -> Result<()> {
        let len = if self.filter.is_some() { None } else { len };
        self.open(Frame::Object(None), |w| w.write_struct_root(name, len))
    }
    fn write_struct_end(&mut self) -> Result<()> {
        self.close(Writer::write_struct_end)
    }
    fn write_array_root(&mut self, len: Option<usize>) -> Result<()> {
        self.open(Frame::Array(0), |w| w.write_array_root(len))
    }
    fn write_array_end(&mut self) -> Result<()> {
        self.close(Writer::write_array_end)
    }
    fn write_set_root(&mut self, len: Option<usize>) -> Result<()> {
        self.open(Frame::Array(0), |w| w.write_set_root(len))
    }
    fn write_set_end(&mut self) -> Result<()> {
        self.close(Writer::write_set_end)
    }
    fn write_option_root(&mut self) -> Result<()> {
        self.open(Frame::Option, Writer::write_option_root)
    }
    fn write_option_end(&mut self) -> Result<()> {
        self.close(Writer::write_option_end)
    }
    fn finish(&mut self) -> Result<()> {
        self.inner.finish()
    }
    fn inline_next_value(&mut self) {
        if self.dropping.is_none() {
            self.inner.inline_next_value();
        }
    }
}

/// One recorded writer call.
#[derive(Debug)]
enum Recorded {
    Token(Token),
    Inline,
}

/// One map entry being recorded: its key's calls, then its value's.
#[derive(Debug, Default)]
struct RecordedEntry {
    calls: Vec<Recorded>,
    /// How many of `calls` make the key.
    key_len: usize,
}

/// A map being recorded.
#[derive(Debug)]
struct OpenMap {
    len: Option<usize>,
    entries: Vec<RecordedEntry>,
    /// Containers other than maps open inside the current entry.
    depth: usize,
    /// Whether the next whole item at depth 0 is a key.
    next_is_key: bool,
}

/// Writes the entries of every map sorted by key: keys starting with `$` (`$type`,
/// `$version`, `$key`...) first in the order they came, then the others in byte order of
/// their text (keys that are not names, as MessagePack maps may have, by value).
///
/// Structs keep their field order; only maps are sorted. Each outermost map is held in memory
/// until it ends, then written at once.
///
/// ```
/// use sluice_core::{Value, ValueWriter, Writer};
/// use sluice_reflect::handlers::option_writers::SortedKeysWriter;
///
/// let mut out = ValueWriter::new();
/// let mut writer = SortedKeysWriter::new(&mut out, true);
/// writer.write_map_root(Some(2))?;
/// writer.write_name("b")?;
/// writer.write_i64(2)?;
/// writer.write_name("a")?;
/// writer.write_i64(1)?;
/// writer.write_map_end()?;
/// let value = out.into_value()?;
/// let keys: Vec<_> = value.as_map().unwrap().iter().map(|(k, _)| k.as_str().unwrap().to_owned()).collect();
/// assert_eq!(keys, ["a", "b"]);
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug)]
pub struct SortedKeysWriter<W> {
    inner: W,
    enabled: bool,
    maps: Vec<OpenMap>,
}

/// How a call moves the nesting.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Item,
    Open,
    Close,
}

impl<W: Writer> SortedKeysWriter<W> {
    /// Wraps `inner`; when not `enabled` every token passes unchanged.
    pub fn new(inner: W, enabled: bool) -> SortedKeysWriter<W> {
        SortedKeysWriter {
            inner,
            enabled,
            maps: Vec::new(),
        }
    }

    /// The wrapped writer.
    pub fn into_inner(self) -> W {
        self.inner
    }

    /// Writes straight through when no map is open, else records `token()`.
    fn token(
        &mut self,
        step: Step,
        token: impl FnOnce() -> Token,
        direct: impl FnOnce(&mut W) -> Result<()>,
    ) -> Result<()> {
        if self.maps.is_empty() {
            return direct(&mut self.inner);
        }
        self.record(step, vec![Recorded::Token(token())]);
        Ok(())
    }

    /// Adds calls to the innermost open map (there is one).
    fn record(&mut self, step: Step, calls: Vec<Recorded>) {
        let Some(map) = self.maps.last_mut() else {
            return;
        };
        if map.depth == 0 && map.next_is_key && step != Step::Close || map.entries.is_empty() {
            map.entries.push(RecordedEntry::default());
        }
        let Some(entry) = map.entries.last_mut() else {
            return;
        };
        entry.calls.extend(calls);
        match step {
            Step::Open => map.depth += 1,
            Step::Close => map.depth = map.depth.saturating_sub(1),
            Step::Item => {}
        }
        if map.depth == 0 && step != Step::Open {
            // A whole key or value is in.
            if map.next_is_key {
                entry.key_len = entry.calls.len();
            }
            map.next_is_key = !map.next_is_key;
        }
    }

    fn end_map(&mut self) -> Result<()> {
        let Some(map) = self.maps.pop() else {
            return self.inner.write_map_end();
        };
        let mut keyed: Vec<(u8, Value, RecordedEntry)> = map
            .entries
            .into_iter()
            .map(|entry| {
                let (rank, key) = sort_key(&entry);
                (rank, key, entry)
            })
            .collect();
        keyed.sort_by(|a, b| match (a.0, b.0) {
            // `$` keys keep their order, before every other key.
            (0, 0) => Ordering::Equal,
            (x, y) if x != y => x.cmp(&y),
            _ => compare_values(&a.1, &b.1),
        });
        let mut calls =
            Vec::with_capacity(keyed.iter().map(|e| e.2.calls.len()).sum::<usize>() + 2);
        calls.push(Recorded::Token(Token::MapRoot(map.len)));
        for (_, _, entry) in keyed {
            calls.extend(entry.calls);
        }
        calls.push(Recorded::Token(Token::MapEnd));
        if self.maps.is_empty() {
            for call in &calls {
                match call {
                    Recorded::Token(token) => token.write(&mut self.inner)?,
                    Recorded::Inline => self.inner.inline_next_value(),
                }
            }
            Ok(())
        } else {
            self.record(Step::Item, calls);
            Ok(())
        }
    }
}

/// The sort key of an entry: rank 0 for `$` names, 1 for the rest, and the key as a value.
fn sort_key(entry: &RecordedEntry) -> (u8, Value) {
    let key = &entry.calls[..entry.key_len.min(entry.calls.len())];
    if let [Recorded::Token(Token::Name(name))] = key {
        let rank = u8::from(!name.starts_with('$'));
        return (rank, Value::String(name.clone()));
    }
    let mut buffer = ValueWriter::new();
    let replayed = key.iter().try_for_each(|call| match call {
        Recorded::Token(token) => token.write(&mut buffer),
        Recorded::Inline => Ok(()),
    });
    let value = replayed
        .and_then(|()| buffer.into_value())
        .unwrap_or(Value::Null);
    (1, value)
}

impl<W: Writer> Writer for SortedKeysWriter<W> {
    fn write_null(&mut self) -> Result<()> {
        self.token(Step::Item, || Token::Null, Writer::write_null)
    }
    fn write_bool(&mut self, value: bool) -> Result<()> {
        self.token(Step::Item, || Token::Bool(value), |w| w.write_bool(value))
    }
    fn write_str(&mut self, value: &str) -> Result<()> {
        self.token(
            Step::Item,
            || Token::String(value.to_owned()),
            |w| w.write_str(value),
        )
    }
    fn write_name(&mut self, name: &str) -> Result<()> {
        self.token(
            Step::Item,
            || Token::Name(name.to_owned()),
            |w| w.write_name(name),
        )
    }
    fn write_number(&mut self, number: Number<'_>) -> Result<()> {
        if self.maps.is_empty() {
            return self.inner.write_number(number);
        }
        self.record(
            Step::Item,
            vec![Recorded::Token(Token::Number(number.to_owned_number()))],
        );
        Ok(())
    }
    fn write_blob(&mut self, value: &[u8]) -> Result<()> {
        self.token(
            Step::Item,
            || Token::Blob(value.to_vec()),
            |w| w.write_blob(value),
        )
    }
    fn write_ext(&mut self, ext: Ext<'_>) -> Result<()> {
        self.token(
            Step::Item,
            || Token::Ext(ext.kind, ext.data.to_vec()),
            |w| w.write_ext(ext),
        )
    }
    fn write_enum(&mut self, value: EnumToken<'_>) -> Result<()> {
        self.token(
            Step::Item,
            || Token::Enum(Box::new(OwnedEnum::from(value))),
            |w| w.write_enum(value),
        )
    }
    fn write_map_root(&mut self, len: Option<usize>) -> Result<()> {
        if !self.enabled {
            return self.inner.write_map_root(len);
        }
        self.maps.push(OpenMap {
            len,
            entries: Vec::new(),
            depth: 0,
            next_is_key: true,
        });
        Ok(())
    }
    fn write_map_end(&mut self) -> Result<()> {
        match self.maps.last() {
            Some(map) if map.depth == 0 => self.end_map(),
            Some(_) => {
                // Unbalanced: record it, the inner writer reports it on replay.
                self.record(Step::Close, vec![Recorded::Token(Token::MapEnd)]);
                Ok(())
            }
            None => self.inner.write_map_end(),
        }
    }
    fn write_array_root(&mut self, len: Option<usize>) -> Result<()> {
        self.token(
            Step::Open,
            || Token::ArrayRoot(len),
            |w| w.write_array_root(len),
        )
    }
    fn write_array_end(&mut self) -> Result<()> {
        self.token(Step::Close, || Token::ArrayEnd, Writer::write_array_end)
    }
    fn write_set_root(&mut self, len: Option<usize>) -> Result<()> {
        self.token(
            Step::Open,
            || Token::SetRoot(len),
            |w| w.write_set_root(len),
        )
    }
    fn write_set_end(&mut self) -> Result<()> {
        self.token(Step::Close, || Token::SetEnd, Writer::write_set_end)
    }
    fn write_struct_root(&mut self, name: &str, len: Option<usize>) -> Result<()> {
        self.token(
            Step::Open,
            || Token::StructRoot(name.to_owned(), len),
            |w| w.write_struct_root(name, len),
        )
    }
    fn write_struct_end(&mut self) -> Result<()> {
        self.token(Step::Close, || Token::StructEnd, Writer::write_struct_end)
    }
    fn write_option_root(&mut self) -> Result<()> {
        self.token(Step::Open, || Token::OptionRoot, Writer::write_option_root)
    }
    fn write_option_end(&mut self) -> Result<()> {
        self.token(Step::Close, || Token::OptionEnd, Writer::write_option_end)
    }
    fn finish(&mut self) -> Result<()> {
        self.inner.finish()
    }
    fn inline_next_value(&mut self) {
        if self.maps.is_empty() {
            self.inner.inline_next_value();
        } else if let Some(entry) = self.maps.last_mut().and_then(|m| m.entries.last_mut()) {
            entry.calls.push(Recorded::Inline);
        }
    }
}

/// Writes finite `f32` / `f64` numbers in a [`FloatFormat`]: with
/// [`FloatFormat::Fixed`] as decimal text with that many digits after the point (`1.50`),
/// which JSON writers write as it is. Non-finite values pass unchanged, so the inner writer's
/// own rule for them applies; so do integers and numbers already in text form.
///
/// ```
/// use sluice_core::{Value, ValueWriter, Writer};
/// use sluice_reflect::handlers::option_writers::FloatFormatWriter;
/// use sluice_reflect::handlers::options::FloatFormat;
///
/// let mut out = ValueWriter::new();
/// FloatFormatWriter::new(&mut out, FloatFormat::Fixed(2)).write_f64(1.0 / 3.0)?;
/// assert_eq!(out.into_value()?.as_f64(), Some(0.33));
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug)]
pub struct FloatFormatWriter<W> {
    inner: W,
    format: FloatFormat,
    text: String,
}

impl<W: Writer> FloatFormatWriter<W> {
    /// Wraps `inner`; with [`FloatFormat::Shortest`] every token passes unchanged.
    pub fn new(inner: W, format: FloatFormat) -> FloatFormatWriter<W> {
        FloatFormatWriter {
            inner,
            format,
            text: String::new(),
        }
    }

    /// The wrapped writer.
    pub fn into_inner(self) -> W {
        self.inner
    }

    fn fixed(&mut self, digits: u8, value: &dyn std::fmt::Display) -> Result<()> {
        use std::fmt::Write as _;
        self.text.clear();
        // Writing into a String cannot fail.
        let _ = write!(self.text, "{value:.*}", usize::from(digits));
        self.inner
            .write_number(Number::Text(&self.text, NumberHint::Float))
    }
}

impl<W: Writer> Writer for FloatFormatWriter<W> {
    fn write_number(&mut self, number: Number<'_>) -> Result<()> {
        match (self.format, number) {
            (FloatFormat::Fixed(digits), Number::F64(value)) if value.is_finite() => {
                self.fixed(digits, &value)
            }
            (FloatFormat::Fixed(digits), Number::F32(value)) if value.is_finite() => {
                self.fixed(digits, &value)
            }
            _ => self.inner.write_number(number),
        }
    }
    fn write_f32(&mut self, value: f32) -> Result<()> {
        self.write_number(Number::F32(value))
    }
    fn write_f64(&mut self, value: f64) -> Result<()> {
        self.write_number(Number::F64(value))
    }
    fn write_null(&mut self) -> Result<()> {
        self.inner.write_null()
    }
    fn write_bool(&mut self, value: bool) -> Result<()> {
        self.inner.write_bool(value)
    }
    fn write_str(&mut self, value: &str) -> Result<()> {
        self.inner.write_str(value)
    }
    fn write_name(&mut self, name: &str) -> Result<()> {
        self.inner.write_name(name)
    }
    fn write_i64(&mut self, value: i64) -> Result<()> {
        self.inner.write_i64(value)
    }
    fn write_u64(&mut self, value: u64) -> Result<()> {
        self.inner.write_u64(value)
    }
    fn write_i128(&mut self, value: i128) -> Result<()> {
        self.inner.write_i128(value)
    }
    fn write_u128(&mut self, value: u128) -> Result<()> {
        self.inner.write_u128(value)
    }
    fn write_blob(&mut self, value: &[u8]) -> Result<()> {
        self.inner.write_blob(value)
    }
    fn write_ext(&mut self, ext: Ext<'_>) -> Result<()> {
        self.inner.write_ext(ext)
    }
    fn write_map_root(&mut self, len: Option<usize>) -> Result<()> {
        self.inner.write_map_root(len)
    }
    fn write_map_end(&mut self) -> Result<()> {
        self.inner.write_map_end()
    }
    fn write_array_root(&mut self, len: Option<usize>) -> Result<()> {
        self.inner.write_array_root(len)
    }
    fn write_array_end(&mut self) -> Result<()> {
        self.inner.write_array_end()
    }
    fn write_set_root(&mut self, len: Option<usize>) -> Result<()> {
        self.inner.write_set_root(len)
    }
    fn write_set_end(&mut self) -> Result<()> {
        self.inner.write_set_end()
    }
    fn write_struct_root(&mut self, name: &str, len: Option<usize>) -> Result<()> {
        self.inner.write_struct_root(name, len)
    }
    fn write_struct_end(&mut self) -> Result<()> {
        self.inner.write_struct_end()
    }
    fn write_option_root(&mut self) -> Result<()> {
        self.inner.write_option_root()
    }
    fn write_option_end(&mut self) -> Result<()> {
        self.inner.write_option_end()
    }
    fn write_enum(&mut self, value: EnumToken<'_>) -> Result<()> {
        self.inner.write_enum(value)
    }
    fn finish(&mut self) -> Result<()> {
        self.inner.finish()
    }
    fn inline_next_value(&mut self) {
        self.inner.inline_next_value();
    }
}
