//! [`ValueWriter`]: a token stream into a [`Value`].

use crate::{Error, Ext, Number, Result, Value, Writer, codes};

enum Frame {
    Array(Vec<Value>),
    Map {
        entries: Vec<(Value, Value)>,
        key: Option<Value>,
    },
}

/// Builds [`Value`]s from tokens. Several top-level values may be written (NDJSON); get them
/// with [`into_values`](ValueWriter::into_values), or the single one with
/// [`into_value`](ValueWriter::into_value).
///
/// ```
/// use sluice_core::{Value, ValueWriter, Writer};
/// let mut writer = ValueWriter::new();
/// writer.write_array_root(None)?;
/// writer.write_str("x")?;
/// writer.write_array_end()?;
/// assert_eq!(writer.into_value()?, Value::Array(vec![Value::from("x")]));
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Default)]
pub struct ValueWriter {
    stack: Vec<Frame>,
    done: Vec<Value>,
}

impl std::fmt::Debug for ValueWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ValueWriter")
            .field("depth", &self.stack.len())
            .field("values", &self.done.len())
            .finish()
    }
}

fn structure(message: &str) -> Error {
    Error::new(codes::INVALID_STRUCTURE, message)
}

impl ValueWriter {
    /// An empty writer.
    #[must_use]
    pub fn new() -> ValueWriter {
        ValueWriter::default()
    }

    /// The one complete value written.
    ///
    /// # Errors
    /// [`INVALID_STRUCTURE`](crate::codes::INVALID_STRUCTURE) when a container is still open or
    /// not exactly one value was written.
    pub fn into_value(self) -> Result<Value> {
        let mut values = self.into_values()?;
        match values.len() {
            1 => Ok(values.pop().unwrap_or_default()),
            0 => Err(structure("no value was written")),
            n => Err(structure(&format!("{n} values were written, expected one"))),
        }
    }

    /// Every complete top-level value written, in order.
    ///
    /// # Errors
    /// [`INVALID_STRUCTURE`](crate::codes::INVALID_STRUCTURE) when a container is still open.
    pub fn into_values(self) -> Result<Vec<Value>> {
        if !self.stack.is_empty() {
            return Err(structure("a container is still open"));
        }
        Ok(self.done)
    }

    fn put(&mut self, value: Value) -> Result<()> {
        match self.stack.last_mut() {
            None => self.done.push(value),
            Some(Frame::Array(items)) => items.push(value),
            Some(Frame::Map { entries, key }) => match key.take() {
                None => *key = Some(value),
                Some(key) => entries.push((key, value)),
            },
        }
        Ok(())
    }
}

impl Writer for ValueWriter {
    fn write_null(&mut self) -> Result<()> {
        self.put(Value::Null)
    }

    fn write_bool(&mut self, value: bool) -> Result<()> {
        self.put(Value::Bool(value))
    }

    fn write_str(&mut self, value: &str) -> Result<()> {
        self.put(Value::String(value.to_owned()))
    }

    fn write_name(&mut self, name: &str) -> Result<()> {
        match self.stack.last() {
            Some(Frame::Map { key: None, .. }) => self.put(Value::String(name.to_owned())),
            _ => Err(structure("a Name is only valid as a map key")),
        }
    }

    fn write_number(&mut self, number: Number<'_>) -> Result<()> {
        self.put(Value::Number(number.to_owned_number()))
    }

    fn write_blob(&mut self, value: &[u8]) -> Result<()> {
        self.put(Value::Bytes(value.to_vec()))
    }

    fn write_ext(&mut self, ext: Ext<'_>) -> Result<()> {
        self.put(Value::Ext(ext.kind, ext.data.to_vec()))
    }

    fn write_map_root(&mut self, len: Option<usize>) -> Result<()> {
        // A container in key position is allowed (MessagePack can say it): it becomes the
        // key when it is closed.
        self.stack.push(Frame::Map {
            entries: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            key: None,
        });
        Ok(())
    }

    fn write_map_end(&mut self) -> Result<()> {
        match self.stack.last() {
            Some(Frame::Map { key: None, .. }) => {}
            Some(Frame::Map { key: Some(_), .. }) => {
                return Err(structure("a map key has no value"));
            }
            Some(Frame::Array(_)) => return Err(structure("MapEnd does not close a map")),
            None => return Err(structure("MapEnd with no open map")),
        }
        match self.stack.pop() {
            Some(Frame::Map { entries, .. }) => self.put(Value::Map(entries)),
            _ => Err(structure("MapEnd with no open map")),
        }
    }

    fn write_array_root(&mut self, len: Option<usize>) -> Result<()> {
        self.stack
            .push(Frame::Array(Vec::with_capacity(len.unwrap_or(0).min(4096))));
        Ok(())
    }

    fn write_array_end(&mut self) -> Result<()> {
        match self.stack.last() {
            Some(Frame::Array(_)) => {}
            Some(Frame::Map { .. }) => return Err(structure("ArrayEnd does not close an array")),
            None => return Err(structure("ArrayEnd with no open array")),
        }
        match self.stack.pop() {
            Some(Frame::Array(items)) => self.put(Value::Array(items)),
            _ => Err(structure("ArrayEnd with no open array")),
        }
    }

    fn finish(&mut self) -> Result<()> {
        if self.stack.is_empty() {
            Ok(())
        } else {
            Err(structure("a container is still open"))
        }
    }
}
