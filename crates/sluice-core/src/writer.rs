//! The push side: [`Writer`].

use crate::{EnumToken, Error, Ext, Number, Result};

/// Receives a stream of tokens, one call per token (push).
///
/// The mirror of [`Reader`](crate::Reader): a map is `write_map_root`, key / value pairs (keys
/// through [`write_name`](Writer::write_name)), `write_map_end`. A writer checks that tokens
/// come where they are valid (a key where a key is expected, ends matching roots) and says
/// [`INVALID_STRUCTURE`](crate::codes::INVALID_STRUCTURE) otherwise.
///
/// The native-data kinds have defaults that lower them to what every format has, so a format
/// writer accepts the tokens of a reflected Rust value without extra code:
///
/// | token | default |
/// |---|---|
/// | `SetRoot` / `SetEnd` | `ArrayRoot` / `ArrayEnd` |
/// | `StructRoot` / `StructEnd` | `MapRoot` / `MapEnd` |
/// | `OptionRoot` / `OptionEnd` | nothing (the inner `Null` or value is written) |
/// | `Enum` | the variant name as a string, or the value if it has no single name |
/// | `Blob`, `Ext` | [`UNSUPPORTED`](crate::codes::UNSUPPORTED) |
///
/// ```
/// use sluice_core::{Value, ValueWriter, Writer};
/// let mut writer = ValueWriter::new();
/// writer.write_struct_root("Point", Some(2))?;
/// writer.write_name("x")?;
/// writer.write_i64(1)?;
/// writer.write_name("y")?;
/// writer.write_f64(2.5)?;
/// writer.write_struct_end()?;
/// let value = writer.into_value()?;
/// assert_eq!(value.get("y").and_then(Value::as_f64), Some(2.5));
/// # Ok::<(), sluice_core::Error>(())
/// ```
pub trait Writer {
    /// Writes `Null`.
    ///
    /// # Errors
    /// When a value may not stand here, or on I/O failure.
    fn write_null(&mut self) -> Result<()>;

    /// Writes a `Bool`.
    ///
    /// # Errors
    /// When a value may not stand here, or on I/O failure.
    fn write_bool(&mut self, value: bool) -> Result<()>;

    /// Writes a `String`.
    ///
    /// # Errors
    /// When a value may not stand here, or on I/O failure.
    fn write_str(&mut self, value: &str) -> Result<()>;

    /// Writes a `Name` (a map key or field name).
    ///
    /// # Errors
    /// When no key is expected here, or on I/O failure.
    fn write_name(&mut self, name: &str) -> Result<()>;

    /// Writes any number. Text numbers are written as they are where the format allows
    /// (JSON to JSON keeps every digit).
    ///
    /// # Errors
    /// When a value may not stand here, the format cannot hold the number, or on I/O failure.
    fn write_number(&mut self, number: Number<'_>) -> Result<()>;

    /// Writes an `i64`.
    ///
    /// # Errors
    /// As [`write_number`](Writer::write_number).
    fn write_i64(&mut self, value: i64) -> Result<()> {
        self.write_number(Number::I64(value))
    }

    /// Writes a `u64`.
    ///
    /// # Errors
    /// As [`write_number`](Writer::write_number).
    fn write_u64(&mut self, value: u64) -> Result<()> {
        self.write_number(Number::U64(value))
    }

    /// Writes an `i128`.
    ///
    /// # Errors
    /// As [`write_number`](Writer::write_number).
    fn write_i128(&mut self, value: i128) -> Result<()> {
        self.write_number(Number::I128(value))
    }

    /// Writes a `u128`.
    ///
    /// # Errors
    /// As [`write_number`](Writer::write_number).
    fn write_u128(&mut self, value: u128) -> Result<()> {
        self.write_number(Number::U128(value))
    }

    /// Writes an `f32` (formats that can keep 32 bits do).
    ///
    /// # Errors
    /// As [`write_number`](Writer::write_number).
    fn write_f32(&mut self, value: f32) -> Result<()> {
        self.write_number(Number::F32(value))
    }

    /// Writes an `f64`.
    ///
    /// # Errors
    /// As [`write_number`](Writer::write_number).
    fn write_f64(&mut self, value: f64) -> Result<()> {
        self.write_number(Number::F64(value))
    }

    /// Writes raw bytes.
    ///
    /// # Errors
    /// [`UNSUPPORTED`](crate::codes::UNSUPPORTED) unless the format has raw bytes.
    fn write_blob(&mut self, value: &[u8]) -> Result<()> {
        let _ = value;
        Err(Error::unsupported("writing a Blob", "this writer"))
    }

    /// Writes an extension value.
    ///
    /// # Errors
    /// [`UNSUPPORTED`](crate::codes::UNSUPPORTED) unless the format has extension values.
    fn write_ext(&mut self, ext: Ext<'_>) -> Result<()> {
        let _ = ext;
        Err(Error::unsupported("writing an Ext", "this writer"))
    }

    /// Starts a map; `len` is the number of entries when known up front.
    ///
    /// A given `len` is a promise. A writer whose format records lengths (MessagePack) checks
    /// it and refuses a container that ends with another count; others may only use it to
    /// reserve space (the JSON writer ignores it), so a wrong count shows in one format and
    /// not in another: give `None` when unsure.
    ///
    /// # Errors
    /// When a value may not stand here, or on I/O failure.
    fn write_map_root(&mut self, len: Option<usize>) -> Result<()>;

    /// Ends the innermost map.
    ///
    /// # Errors
    /// When the innermost open container is not a map, or a key has no value.
    fn write_map_end(&mut self) -> Result<()>;

    /// Starts an array; `len` is the number of elements when known up front.
    ///
    /// A given `len` is a promise. A writer whose format records lengths (MessagePack) checks
    /// it and refuses a container that ends with another count; others may only use it to
    /// reserve space (the JSON writer ignores it), so a wrong count shows in one format and
    /// not in another: give `None` when unsure.
    ///
    /// # Errors
    /// When a value may not stand here, or on I/O failure.
    fn write_array_root(&mut self, len: Option<usize>) -> Result<()>;

    /// Ends the innermost array.
    ///
    /// # Errors
    /// When the innermost open container is not an array.
    fn write_array_end(&mut self) -> Result<()>;

    /// Starts a set; by default an array.
    ///
    /// # Errors
    /// As [`write_array_root`](Writer::write_array_root).
    fn write_set_root(&mut self, len: Option<usize>) -> Result<()> {
        self.write_array_root(len)
    }

    /// Ends a set; by default an array end.
    ///
    /// # Errors
    /// As [`write_array_end`](Writer::write_array_end).
    fn write_set_end(&mut self) -> Result<()> {
        self.write_array_end()
    }

    /// Starts a struct named `name` with `len` fields when known; by default a map.
    ///
    /// # Errors
    /// As [`write_map_root`](Writer::write_map_root).
    fn write_struct_root(&mut self, name: &str, len: Option<usize>) -> Result<()> {
        let _ = name;
        self.write_map_root(len)
    }

    /// Ends a struct; by default a map end.
    ///
    /// # Errors
    /// As [`write_map_end`](Writer::write_map_end).
    fn write_struct_end(&mut self) -> Result<()> {
        self.write_map_end()
    }

    /// Starts an option; by default nothing is written (the `Null` or value inside is).
    ///
    /// # Errors
    /// Writers that track options may refuse it where no value may stand.
    fn write_option_root(&mut self) -> Result<()> {
        Ok(())
    }

    /// Ends an option; by default nothing is written.
    ///
    /// # Errors
    /// Writers that track options may refuse an unmatched end.
    fn write_option_end(&mut self) -> Result<()> {
        Ok(())
    }

    /// Writes a unit enum value; by default its variant name as a string, or its value when
    /// no single name covers it (flags).
    ///
    /// # Errors
    /// As [`write_str`](Writer::write_str).
    fn write_enum(&mut self, value: EnumToken<'_>) -> Result<()> {
        if value.variant.is_empty() {
            self.write_i64(value.value)
        } else {
            self.write_str(value.variant)
        }
    }

    /// Flushes buffered output and checks that every container was closed.
    ///
    /// # Errors
    /// When a container is still open, or on I/O failure.
    fn finish(&mut self) -> Result<()> {
        Ok(())
    }

    /// A layout hint: write the next value (a scalar, or a container with everything in
    /// it) on one line, for example a small `[x, y, z]` inside pretty JSON. Writers without
    /// a layout ignore it (the default).
    ///
    /// The hint is for the next value at the level where it is given (given in key
    /// position, for that key's value) and lapses when that level ends first, so it never
    /// reaches a value of the enclosing container. Giving it twice is giving it once.
    fn inline_next_value(&mut self) {}
}

/// Forwards every method, so `&mut W` and `Box<dyn Writer>` are writers too.
macro_rules! forward_writer {
    () => {
        fn write_null(&mut self) -> Result<()> {
            (**self).write_null()
        }
        fn write_bool(&mut self, value: bool) -> Result<()> {
            (**self).write_bool(value)
        }
        fn write_str(&mut self, value: &str) -> Result<()> {
            (**self).write_str(value)
        }
        fn write_name(&mut self, name: &str) -> Result<()> {
            (**self).write_name(name)
        }
        fn write_number(&mut self, number: Number<'_>) -> Result<()> {
            (**self).write_number(number)
        }
        fn write_i64(&mut self, value: i64) -> Result<()> {
            (**self).write_i64(value)
        }
        fn write_u64(&mut self, value: u64) -> Result<()> {
            (**self).write_u64(value)
        }
        fn write_i128(&mut self, value: i128) -> Result<()> {
            (**self).write_i128(value)
        }
        fn write_u128(&mut self, value: u128) -> Result<()> {
            (**self).write_u128(value)
        }
        fn write_f32(&mut self, value: f32) -> Result<()> {
            (**self).write_f32(value)
        }
        fn write_f64(&mut self, value: f64) -> Result<()> {
            (**self).write_f64(value)
        }
        fn write_blob(&mut self, value: &[u8]) -> Result<()> {
            (**self).write_blob(value)
        }
        fn write_ext(&mut self, ext: Ext<'_>) -> Result<()> {
            (**self).write_ext(ext)
        }
        fn write_map_root(&mut self, len: Option<usize>) -> Result<()> {
            (**self).write_map_root(len)
        }
        fn write_map_end(&mut self) -> Result<()> {
            (**self).write_map_end()
        }
        fn write_array_root(&mut self, len: Option<usize>) -> Result<()> {
            (**self).write_array_root(len)
        }
        fn write_array_end(&mut self) -> Result<()> {
            (**self).write_array_end()
        }
        fn write_set_root(&mut self, len: Option<usize>) -> Result<()> {
            (**self).write_set_root(len)
        }
        fn write_set_end(&mut self) -> Result<()> {
            (**self).write_set_end()
        }
        fn write_struct_root(&mut self, name: &str, len: Option<usize>) -> Result<()> {
            (**self).write_struct_root(name, len)
        }
        fn write_struct_end(&mut self) -> Result<()> {
            (**self).write_struct_end()
        }
        fn write_option_root(&mut self) -> Result<()> {
            (**self).write_option_root()
        }
        fn write_option_end(&mut self) -> Result<()> {
            (**self).write_option_end()
        }
        fn write_enum(&mut self, value: EnumToken<'_>) -> Result<()> {
            (**self).write_enum(value)
        }
        fn finish(&mut self) -> Result<()> {
            (**self).finish()
        }
        fn inline_next_value(&mut self) {
            (**self).inline_next_value();
        }
    };
}

impl<W: Writer + ?Sized> Writer for &mut W {
    forward_writer!();
}

impl<W: Writer + ?Sized> Writer for Box<W> {
    forward_writer!();
}

/// Writes all of `bytes` to `sink`, as [`std::io::Write::write_all`] does, and says how many
/// of them the sink accepted, also when it fails partway.
///
/// A buffered format writer hands its buffer to the sink with this, so that after an error
/// it can keep only the bytes the sink did not take: with `write_all`, which does not say
/// how far it got, a retry would send the accepted part a second time and the output would
/// hold it twice. `Interrupted` is retried; a sink that accepts nothing (`Ok(0)`) is
/// `WriteZero`.
///
/// ```
/// use std::io::{self, Write};
/// use sluice_core::write_counted;
///
/// /// Takes at most 3 bytes, then fails.
/// struct Small(Vec<u8>);
/// impl Write for Small {
///     fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
///         if self.0.len() >= 3 {
///             return Err(io::Error::other("full"));
///         }
///         let n = bytes.len().min(3 - self.0.len());
///         self.0.extend_from_slice(&bytes[..n]);
///         Ok(n)
///     }
///     fn flush(&mut self) -> io::Result<()> {
///         Ok(())
///     }
/// }
///
/// let mut sink = Small(Vec::new());
/// let (accepted, result) = write_counted(&mut sink, b"abcde");
/// assert_eq!(accepted, 3);
/// assert!(result.is_err());
/// assert_eq!(sink.0, b"abc");
/// ```
pub fn write_counted(sink: &mut impl std::io::Write, bytes: &[u8]) -> (usize, std::io::Result<()>) {
    use std::io::ErrorKind;
    let mut written = 0;
    while written < bytes.len() {
        match sink.write(&bytes[written..]) {
            Ok(0) => return (written, Err(ErrorKind::WriteZero.into())),
            // `min`: a sink that claims more than it was given must not move past the end.
            Ok(n) => written += n.min(bytes.len() - written),
            Err(err) if err.kind() == ErrorKind::Interrupted => {}
            Err(err) => return (written, Err(err)),
        }
    }
    (written, Ok(()))
}
