use std::io;

use crate::{EnumToken, Error, Ext, Number, Result, Writer};

/// Writes one line per token, indented by depth: the debug view of a stream.
///
/// ```
/// use sluice_core::{pipe, DumpWriter, Value, ValueReader};
/// let value = Value::Map(vec![(Value::from("name"), Value::from("abc"))]);
/// let mut dump = DumpWriter::new(Vec::new());
/// pipe(&mut ValueReader::new(&value), &mut dump)?;
/// let text = String::from_utf8(dump.into_inner()).unwrap();
/// assert_eq!(text, "<MapRoot> (1)\n|---<Name> 'name'\n|---<String> 'abc'\n<MapEnd>\n");
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug)]
pub struct DumpWriter<W> {
    out: W,
    depth: usize,
}

/// Bytes shown for a blob or ext before the rest is elided.
const SHOWN_BYTES: usize = 16;

impl<W: io::Write> DumpWriter<W> {
    /// A dump into `out`.
    pub fn new(out: W) -> DumpWriter<W> {
        DumpWriter { out, depth: 0 }
    }

    /// The output.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn line(&mut self, entry: &str, detail: std::fmt::Arguments<'_>) -> Result<()> {
        for _ in 0..self.depth {
            self.out.write_all(b"|---")?;
        }
        writeln!(self.out, "<{entry}>{detail}").map_err(Error::io)
    }

    fn open(&mut self, entry: &str, detail: std::fmt::Arguments<'_>) -> Result<()> {
        self.line(entry, detail)?;
        self.depth += 1;
        Ok(())
    }

    fn close(&mut self, entry: &str) -> Result<()> {
        self.depth = self.depth.saturating_sub(1);
        self.line(entry, format_args!(""))
    }

    fn bytes(data: &[u8]) -> String {
        let mut text: Vec<String> = data
            .iter()
            .take(SHOWN_BYTES)
            .map(|b| format!("{b:02x}"))
            .collect();
        if data.len() > SHOWN_BYTES {
            text.push("...".into());
        }
        text.join(" ")
    }
}

fn number_entry(number: Number<'_>) -> &'static str {
    match number {
        Number::Text(..) => "Number",
        Number::I64(_) => "I64",
        Number::U64(_) => "U64",
        Number::I128(_) => "I128",
        Number::U128(_) => "U128",
        Number::F32(_) => "F32",
        Number::F64(_) => "F64",
    }
}

fn length(len: Option<usize>) -> String {
    len.map(|n| format!(" ({n})")).unwrap_or_default()
}

impl<W: io::Write> Writer for DumpWriter<W> {
    fn write_null(&mut self) -> Result<()> {
        self.line("Null", format_args!(""))
    }
    fn write_bool(&mut self, value: bool) -> Result<()> {
        self.line("Bool", format_args!(" {value}"))
    }
    fn write_str(&mut self, value: &str) -> Result<()> {
        self.line("String", format_args!(" '{}'", value.escape_debug()))
    }
    fn write_name(&mut self, name: &str) -> Result<()> {
        self.line("Name", format_args!(" '{}'", name.escape_debug()))
    }
    fn write_number(&mut self, number: Number<'_>) -> Result<()> {
        self.line(number_entry(number), format_args!(" {number}"))
    }
    fn write_blob(&mut self, value: &[u8]) -> Result<()> {
        let shown = Self::bytes(value);
        self.line("Blob", format_args!(" {} bytes [{shown}]", value.len()))
    }
    fn write_ext(&mut self, ext: Ext<'_>) -> Result<()> {
        let shown = Self::bytes(ext.data);
        self.line(
            "Ext",
            format_args!(" type {}, {} bytes [{shown}]", ext.kind, ext.data.len()),
        )
    }
    fn write_map_root(&mut self, len: Option<usize>) -> Result<()> {
        self.open("MapRoot", format_args!("{}", length(len)))
    }
    fn write_map_end(&mut self) -> Result<()> {
        self.close("MapEnd")
    }
    fn write_array_root(&mut self, len: Option<usize>) -> Result<()> {
        self.open("ArrayRoot", format_args!("{}", length(len)))
    }
    fn write_array_end(&mut self) -> Result<()> {
        self.close("ArrayEnd")
    }
    fn write_set_root(&mut self, len: Option<usize>) -> Result<()> {
        self.open("SetRoot", format_args!("{}", length(len)))
    }
    fn write_set_end(&mut self) -> Result<()> {
        self.close("SetEnd")
    }
    fn write_struct_root(&mut self, name: &str, len: Option<usize>) -> Result<()> {
        self.open("StructRoot", format_args!(" '{name}'{}", length(len)))
    }
    fn write_struct_end(&mut self) -> Result<()> {
        self.close("StructEnd")
    }
    fn write_option_root(&mut self) -> Result<()> {
        self.open("OptionRoot", format_args!(""))
    }
    fn write_option_end(&mut self) -> Result<()> {
        self.close("OptionEnd")
    }
    fn write_enum(&mut self, value: EnumToken<'_>) -> Result<()> {
        let flags = if value.flags { " flags" } else { "" };
        self.line(
            "Enum",
            format_args!(
                " '{}::{}' ({}){flags}",
                value.type_name, value.variant, value.value
            ),
        )
    }
    fn finish(&mut self) -> Result<()> {
        self.out.flush().map_err(Error::io)
    }
}
