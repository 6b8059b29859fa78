//! Opening inputs: small files are loaded whole (zero-copy reading, snippets in diagnostics),
//! large files and standard input are streamed with bounded memory and a progress bar.

use std::fs::File;
use std::io::{self, IsTerminal, Read};

use indicatif::{ProgressBar, ProgressStyle};

use crate::Failure;

/// Files up to this size are read into memory; larger ones stream.
pub(crate) const LOAD_LIMIT: u64 = 8 * 1024 * 1024;

/// An opened input.
pub(crate) enum Input {
    /// The whole input in memory.
    Loaded {
        /// Name shown in diagnostics.
        name: String,
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// A stream read piece by piece.
    Streamed {
        /// Name shown in diagnostics.
        name: String,
        /// The byte source (with progress reporting when shown).
        source: Box<dyn Read>,
    },
}

impl Input {
    /// Opens `path` (`-` is standard input).
    pub(crate) fn open(path: &str) -> Result<Input, Failure> {
        if path == "-" {
            return Ok(Input::Streamed {
                name: "<stdin>".into(),
                source: Box::new(io::stdin().lock()),
            });
        }
        let file =
            File::open(path).map_err(|e| Failure::Usage(format!("cannot open {path}: {e}")))?;
        let size = file.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
        if size <= LOAD_LIMIT {
            let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
            let mut file = file;
            file.read_to_end(&mut bytes)
                .map_err(|e| Failure::Usage(format!("cannot read {path}: {e}")))?;
            return Ok(Input::Loaded {
                name: path.to_owned(),
                bytes,
            });
        }
        let source: Box<dyn Read> = if io::stderr().is_terminal() {
            let bar = ProgressBar::new(size).with_style(
                ProgressStyle::with_template(
                    "{spinner} {bytes}/{total_bytes} {bytes_per_sec} {wide_bar} {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            Box::new(bar.wrap_read(io::BufReader::with_capacity(1 << 16, file)))
        } else {
            Box::new(file)
        };
        Ok(Input::Streamed {
            name: path.to_owned(),
            source,
        })
    }
}

/// Turns a sluice error into an "invalid input" failure, with the snippet when the source is
/// in memory.
pub(crate) fn invalid(err: sluice_core::Error, name: &str, source: Option<&[u8]>) -> Failure {
    if err.code() == sluice_core::codes::IO {
        let broken_pipe = std::error::Error::source(&err)
            .and_then(|e| e.downcast_ref::<std::io::Error>())
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe);
        if broken_pipe {
            // The reader of our output went away (`sluice dump big.json | head`): not an error.
            return Failure::Quiet;
        }
        return Failure::Usage(format!("{name}: {err}"));
    }
    let err = match source {
        Some(bytes) if err.source_text().is_none() => err.with_source_text(name, bytes),
        _ => err,
    };
    let mut text = err.render();
    if source.is_none() && err.source_text().is_none() {
        text.push_str(&format!("  = in {name}\n"));
    }
    Failure::Invalid(text)
}
