//! [`ValueReader`]: a [`Value`] as a token stream.

use crate::{Entry, Error, Ext, Number, OwnedNumber, Path, Reader, Result, Span, Value};

enum Frame<'v> {
    Array {
        items: &'v [Value],
        next: usize,
    },
    Map {
        entries: &'v [(Value, Value)],
        next: usize,
        at_value: bool,
    },
}

/// What stands at the reader's position.
enum Cursor<'v> {
    /// A value; `true` when it is in key position.
    Value(&'v Value, bool),
    End(Entry),
    Ended,
}

/// Reads a [`Value`] as tokens. Map keys that are strings come out as [`Entry::Name`].
///
/// Values have no source text, so spans are empty; errors carry the data [`Path`] instead.
///
/// ```
/// use sluice_core::{Entry, Reader, Value, ValueReader};
/// let value = Value::Map(vec![(Value::from("k"), Value::Null)]);
/// let mut reader = ValueReader::new(&value);
/// reader.read_map_root()?;
/// assert_eq!(reader.peek()?, Entry::Name);
/// assert_eq!(reader.read_name()?, "k");
/// reader.read_null()?;
/// reader.read_map_end()?;
/// # Ok::<(), sluice_core::Error>(())
/// ```
pub struct ValueReader<'v> {
    root: Option<&'v Value>,
    stack: Vec<Frame<'v>>,
}

impl std::fmt::Debug for ValueReader<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ValueReader")
            .field("path", &self.path().to_string())
            .finish()
    }
}

fn entry_of(value: &Value, is_key: bool) -> Entry {
    match value {
        Value::Null => Entry::Null,
        Value::Bool(_) => Entry::Bool,
        Value::String(_) if is_key => Entry::Name,
        Value::String(_) => Entry::String,
        Value::Number(number) => match number {
            OwnedNumber::Text(_, hint) => Entry::Number(*hint),
            OwnedNumber::I64(_) => Entry::I64,
            OwnedNumber::U64(_) => Entry::U64,
            OwnedNumber::I128(_) => Entry::I128,
            OwnedNumber::U128(_) => Entry::U128,
            OwnedNumber::F32(_) => Entry::F32,
            OwnedNumber::F64(_) => Entry::F64,
        },
        Value::Bytes(_) => Entry::Blob,
        Value::Ext(..) => Entry::Ext,
        Value::Array(_) => Entry::ArrayRoot,
        Value::Map(_) => Entry::MapRoot,
    }
}

impl<'v> ValueReader<'v> {
    /// A reader over `value`.
    #[must_use]
    pub fn new(value: &'v Value) -> ValueReader<'v> {
        ValueReader {
            root: Some(value),
            stack: Vec::new(),
        }
    }

    /// The path of the next value, such as `$.items[2]`.
    #[must_use]
    pub fn path(&self) -> Path {
        let mut path = Path::root();
        for frame in &self.stack {
            match frame {
                Frame::Array { next, .. } => path.push_index(*next),
                Frame::Map { entries, next, .. } => match entries.get(*next) {
                    Some((Value::String(key), _)) => path.push_key(key.clone()),
                    _ => path.push_index(*next),
                },
            }
        }
        path
    }

    fn cursor(&self) -> Cursor<'v> {
        match self.stack.last() {
            None => self.root.map_or(Cursor::Ended, |v| Cursor::Value(v, false)),
            Some(Frame::Array { items, next }) => items
                .get(*next)
                .map_or(Cursor::End(Entry::ArrayEnd), |v| Cursor::Value(v, false)),
            Some(Frame::Map {
                entries,
                next,
                at_value,
            }) => match entries.get(*next) {
                None => Cursor::End(Entry::MapEnd),
                Some((_, value)) if *at_value => Cursor::Value(value, false),
                Some((key, _)) => Cursor::Value(key, true),
            },
        }
    }

    /// Moves past the value at the cursor.
    fn advance(&mut self) {
        match self.stack.last_mut() {
            None => self.root = None,
            Some(Frame::Array { next, .. }) => *next += 1,
            Some(Frame::Map { next, at_value, .. }) => {
                if *at_value {
                    *next += 1;
                }
                *at_value = !*at_value;
            }
        }
    }

    fn mismatch(&self, expected: &str) -> Error {
        let found = match self.cursor() {
            Cursor::Value(value, is_key) => entry_of(value, is_key),
            Cursor::End(entry) => entry,
            Cursor::Ended => Entry::Ended,
        };
        Error::unexpected(expected, found).with_path(self.path())
    }

    /// Takes the value at the cursor if `accept` says yes.
    fn take<T>(
        &mut self,
        expected: &str,
        accept: impl FnOnce(&'v Value, bool) -> Option<T>,
    ) -> Result<T> {
        if let Cursor::Value(value, is_key) = self.cursor()
            && let Some(out) = accept(value, is_key)
        {
            self.advance();
            return Ok(out);
        }
        Err(self.mismatch(expected))
    }

    fn read_converted<T>(&mut self, convert: impl FnOnce(Number<'v>) -> Result<T>) -> Result<T> {
        match self.cursor() {
            Cursor::Value(Value::Number(number), _) => match convert(number.as_number()) {
                Ok(value) => {
                    self.advance();
                    Ok(value)
                }
                Err(err) => Err(err.with_path(self.path())),
            },
            _ => Err(self.mismatch("Number")),
        }
    }

    fn end(&mut self, entry: Entry) -> Result<()> {
        match self.cursor() {
            Cursor::End(found) if found == entry => {
                self.stack.pop();
                self.advance();
                Ok(())
            }
            _ => Err(self.mismatch(entry.name())),
        }
    }
}

macro_rules! typed_reads {
    ($($method:ident -> $ty:ty = $convert:ident;)*) => {$(
        fn $method(&mut self) -> Result<$ty> {
            self.read_converted(|n| n.$convert())
        }
    )*};
}

impl Reader for ValueReader<'_> {
    fn peek(&mut self) -> Result<Entry> {
        Ok(match self.cursor() {
            Cursor::Value(value, is_key) => entry_of(value, is_key),
            Cursor::End(entry) => entry,
            Cursor::Ended => Entry::Ended,
        })
    }

    fn span(&self) -> Span {
        Span::default()
    }

    fn read_null(&mut self) -> Result<()> {
        self.take("Null", |v, _| v.is_null().then_some(()))
    }

    fn read_bool(&mut self) -> Result<bool> {
        self.take("Bool", |v, _| v.as_bool())
    }

    fn read_str(&mut self) -> Result<&str> {
        self.take("String", |v, _| v.as_str())
    }

    fn read_name(&mut self) -> Result<&str> {
        self.take("Name", |v, _| v.as_str())
    }

    fn read_number(&mut self) -> Result<Number<'_>> {
        self.take("Number", |v, _| match v {
            Value::Number(n) => Some(n.as_number()),
            _ => None,
        })
    }

    fn read_blob(&mut self) -> Result<&[u8]> {
        self.take("Blob", |v, _| match v {
            Value::Bytes(bytes) => Some(bytes.as_slice()),
            _ => None,
        })
    }

    fn read_ext(&mut self) -> Result<Ext<'_>> {
        self.take("Ext", |v, _| match v {
            Value::Ext(kind, data) => Some(Ext { kind: *kind, data }),
            _ => None,
        })
    }

    fn read_map_root(&mut self) -> Result<Option<usize>> {
        match self.cursor() {
            Cursor::Value(Value::Map(entries), _) => {
                self.stack.push(Frame::Map {
                    entries,
                    next: 0,
                    at_value: false,
                });
                Ok(Some(entries.len()))
            }
            _ => Err(self.mismatch("MapRoot")),
        }
    }

    fn read_map_end(&mut self) -> Result<()> {
        self.end(Entry::MapEnd)
    }

    fn read_array_root(&mut self) -> Result<Option<usize>> {
        match self.cursor() {
            Cursor::Value(Value::Array(items), _) => {
                self.stack.push(Frame::Array { items, next: 0 });
                Ok(Some(items.len()))
            }
            _ => Err(self.mismatch("ArrayRoot")),
        }
    }

    fn read_array_end(&mut self) -> Result<()> {
        self.end(Entry::ArrayEnd)
    }

    fn skip(&mut self) -> Result<()> {
        match self.cursor() {
            Cursor::Value(..) => {
                self.advance();
                Ok(())
            }
            _ => Err(self.mismatch("a value")),
        }
    }

    // Typed reads convert before moving on, so a failed conversion consumes nothing and
    // its error can name the path of the number.
    typed_reads! {
        read_i8 -> i8 = to_i8;
        read_i16 -> i16 = to_i16;
        read_i32 -> i32 = to_i32;
        read_i64 -> i64 = to_i64;
        read_i128 -> i128 = to_i128;
        read_u8 -> u8 = to_u8;
        read_u16 -> u16 = to_u16;
        read_u32 -> u32 = to_u32;
        read_u64 -> u64 = to_u64;
        read_u128 -> u128 = to_u128;
        read_f32 -> f32 = to_f32;
        read_f64 -> f64 = to_f64;
    }
}
