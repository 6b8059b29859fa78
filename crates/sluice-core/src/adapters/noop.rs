use crate::{Ext, Number, Result, Writer};

/// A writer that accepts every token and drops it, counting how many it saw.
///
/// ```
/// use sluice_core::{pipe, NoopWriter, Value, ValueReader};
/// let value = Value::Array(vec![Value::Null, Value::Null]);
/// let mut sink = NoopWriter::new();
/// pipe(&mut ValueReader::new(&value), &mut sink)?;
/// assert_eq!(sink.tokens(), 4);
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug, Default, Clone, Copy)]
pub struct NoopWriter {
    tokens: u64,
}

impl NoopWriter {
    /// A new writer with a count of zero.
    #[must_use]
    pub fn new() -> NoopWriter {
        NoopWriter::default()
    }

    /// How many tokens were written.
    #[must_use]
    pub fn tokens(&self) -> u64 {
        self.tokens
    }

    #[inline]
    fn count(&mut self) -> Result<()> {
        self.tokens += 1;
        Ok(())
    }
}

impl Writer for NoopWriter {
    fn write_null(&mut self) -> Result<()> {
        self.count()
    }
    fn write_bool(&mut self, _: bool) -> Result<()> {
        self.count()
    }
    fn write_str(&mut self, _: &str) -> Result<()> {
        self.count()
    }
    fn write_name(&mut self, _: &str) -> Result<()> {
        self.count()
    }
    fn write_number(&mut self, _: Number<'_>) -> Result<()> {
        self.count()
    }
    fn write_blob(&mut self, _: &[u8]) -> Result<()> {
        self.count()
    }
    fn write_ext(&mut self, _: Ext<'_>) -> Result<()> {
        self.count()
    }
    fn write_map_root(&mut self, _: Option<usize>) -> Result<()> {
        self.count()
    }
    fn write_map_end(&mut self) -> Result<()> {
        self.count()
    }
    fn write_array_root(&mut self, _: Option<usize>) -> Result<()> {
        self.count()
    }
    fn write_array_end(&mut self) -> Result<()> {
        self.count()
    }
    fn write_set_root(&mut self, _: Option<usize>) -> Result<()> {
        self.count()
    }
    fn write_set_end(&mut self) -> Result<()> {
        self.count()
    }
    fn write_struct_root(&mut self, _: &str, _: Option<usize>) -> Result<()> {
        self.count()
    }
    fn write_struct_end(&mut self) -> Result<()> {
        self.count()
    }
    fn write_option_root(&mut self) -> Result<()> {
        self.count()
    }
    fn write_option_end(&mut self) -> Result<()> {
        self.count()
    }
    fn write_enum(&mut self, _: crate::EnumToken<'_>) -> Result<()> {
        self.count()
    }
}
