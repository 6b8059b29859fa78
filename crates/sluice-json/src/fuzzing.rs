//! The checks the fuzz target runs, here so that found inputs replay in `cargo test`.
//!
//! Not part of the reading and writing API: a harness for fuzzers and regression tests.

use std::io;

use sluice_core::testing::normalize;
use sluice_core::{Result, Token};

use crate::{Input, JsonOptions, JsonReader, JsonWriter, NonFinite, WriterOptions};

/// Hands out one byte per read, the hardest case for the `io::Read` path.
struct OneByte<'a>(&'a [u8]);

impl io::Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&byte, rest)), Some(slot)) => {
                *slot = byte;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

fn read_document<S: Input>(mut reader: JsonReader<S>) -> Result<Vec<Token>> {
    let tokens = Token::read_all(&mut reader)?;
    reader.finish()?;
    Ok(tokens)
}

/// Runs every check on `data`, for each preset (strict, relaxed, ndjson, json5):
///
/// - reading never panics (nor hangs: libFuzzer's timeout catches that);
/// - the `io::Read` path, one byte per read, gives the same tokens, or an error with the
///   same code and span, as the slice path;
/// - a document that reads writes, condensed and pretty, and reads back to the same tokens
///   (compared by meaning, see [`normalize`]).
///
/// # Panics
/// When a check fails: that is the point.
pub fn check_json_input(data: &[u8]) {
    let presets = [
        JsonOptions::strict(),
        JsonOptions::relaxed(),
        JsonOptions::ndjson(),
        JsonOptions::json5(),
    ];
    for options in presets {
        let slice = read_document(JsonReader::from_slice(data).with_options(options.clone()));
        let stream =
            read_document(JsonReader::from_read(OneByte(data)).with_options(options.clone()));
        match (&slice, &stream) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "slice and io::Read tokens differ ({options:?})"),
            (Err(a), Err(b)) => assert_eq!(
                (a.code(), a.span()),
                (b.code(), b.span()),
                "slice and io::Read errors differ ({options:?}): {a} / {b}"
            ),
            _ => panic!("slice and io::Read disagree ({options:?}): {slice:?} / {stream:?}"),
        }
        let Ok(tokens) = slice else { continue };
        for layout in [WriterOptions::condensed(), WriterOptions::pretty()] {
            let layout = WriterOptions {
                non_finite: NonFinite::Json5,
                multiple_values: options.multiple_values,
                ..layout
            };
            let mut writer = JsonWriter::new(Vec::new(), layout);
            let written = Token::write_all(&tokens, &mut writer).and_then(|()| writer.into_inner());
            let text = match written {
                Ok(text) => text,
                // An empty stream (NDJSON with no record) has nothing to write.
                Err(_) if tokens.is_empty() => continue,
                Err(err) => panic!("tokens that were read cannot be written: {err}"),
            };
            let back = read_document(JsonReader::from_slice(&text).with_options(options.clone()))
                .unwrap_or_else(|err| {
                    panic!(
                        "written output does not read back: {err}\n{}",
                        String::from_utf8_lossy(&text)
                    )
                });
            assert_eq!(
                normalize(&back),
                normalize(&tokens),
                "round trip changed the tokens"
            );
        }
    }
}
