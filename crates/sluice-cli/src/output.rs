//! Opening the output: a file (`-o`) or standard output, buffered.

use std::fs::File;
use std::io::{self, BufWriter, Write};

use crate::Failure;

/// Where output goes: `path` or, when `None` or `-`, standard output.
pub(crate) fn open(path: Option<&str>) -> Result<Box<dyn Write>, Failure> {
    match path {
        None | Some("-") => Ok(Box::new(BufWriter::with_capacity(
            1 << 16,
            io::stdout().lock(),
        ))),
        Some(path) => {
            let file = File::create(path)
                .map_err(|e| Failure::Usage(format!("cannot create {path}: {e}")))?;
            Ok(Box::new(BufWriter::with_capacity(1 << 16, file)))
        }
    }
}
