use crate::{EnumToken, Ext, Number, Result, Writer};

/// Sends every token to each of several writers, in order; stops at the first error.
///
/// ```
/// use sluice_core::{pipe, TeeWriter, Value, ValueReader, ValueWriter, Writer};
/// let value = Value::from("hi");
/// let (mut a, mut b) = (ValueWriter::new(), ValueWriter::new());
/// pipe(&mut ValueReader::new(&value), &mut TeeWriter::new(vec![&mut a, &mut b]))?;
/// assert_eq!(a.into_value()?, b.into_value()?);
/// # Ok::<(), sluice_core::Error>(())
/// ```
pub struct TeeWriter<'a> {
    writers: Vec<&'a mut dyn Writer>,
}

impl std::fmt::Debug for TeeWriter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TeeWriter")
            .field("writers", &self.writers.len())
            .finish()
    }
}

impl<'a> TeeWriter<'a> {
    /// A tee over `writers`.
    #[must_use]
    pub fn new(writers: Vec<&'a mut dyn Writer>) -> TeeWriter<'a> {
        TeeWriter { writers }
    }

    fn each(&mut self, mut f: impl FnMut(&mut dyn Writer) -> Result<()>) -> Result<()> {
        self.writers.iter_mut().try_for_each(|w| f(&mut **w))
    }
}

impl Writer for TeeWriter<'_> {
    fn write_null(&mut self) -> Result<()> {
        self.each(|w| w.write_null())
    }
    fn write_bool(&mut self, value: bool) -> Result<()> {
        self.each(|w| w.write_bool(value))
    }
    fn write_str(&mut self, value: &str) -> Result<()> {
        self.each(|w| w.write_str(value))
    }
    fn write_name(&mut self, name: &str) -> Result<()> {
        self.each(|w| w.write_name(name))
    }
    fn write_number(&mut self, number: Number<'_>) -> Result<()> {
        self.each(|w| w.write_number(number))
    }
    fn write_blob(&mut self, value: &[u8]) -> Result<()> {
        self.each(|w| w.write_blob(value))
    }
    fn write_ext(&mut self, ext: Ext<'_>) -> Result<()> {
        self.each(|w| w.write_ext(ext))
    }
    fn write_map_root(&mut self, len: Option<usize>) -> Result<()> {
        self.each(|w| w.write_map_root(len))
    }
    fn write_map_end(&mut self) -> Result<()> {
        self.each(|w| w.write_map_end())
    }
    fn write_array_root(&mut self, len: Option<usize>) -> Result<()> {
        self.each(|w| w.write_array_root(len))
    }
    fn write_array_end(&mut self) -> Result<()> {
        self.each(|w| w.write_array_end())
    }
    fn write_set_root(&mut self, len: Option<usize>) -> Result<()> {
        self.each(|w| w.write_set_root(len))
    }
    fn write_set_end(&mut self) -> Result<()> {
        self.each(|w| w.write_set_end())
    }
    fn write_struct_root(&mut self, name: &str, len: Option<usize>) -> Result<()> {
        self.each(|w| w.write_struct_root(name, len))
    }
    fn write_struct_end(&mut self) -> Result<()> {
        self.each(|w| w.write_struct_end())
    }
    fn write_option_root(&mut self) -> Result<()> {
        self.each(|w| w.write_option_root())
    }
    fn write_option_end(&mut self) -> Result<()> {
        self.each(|w| w.write_option_end())
    }
    fn write_enum(&mut self, value: EnumToken<'_>) -> Result<()> {
        self.each(|w| w.write_enum(value))
    }
    fn finish(&mut self) -> Result<()> {
        self.each(|w| w.finish())
    }
}
