//! Opening inputs: regular files up to [`LOAD_LIMIT`] are loaded whole (zero-copy reading,
//! snippets in diagnostics); everything else (larger files, standard input, pipes, FIFOs,
//! devices) is streamed with bounded memory. Only a large regular file, whose size is known,
//! shows a progress bar, and only when stderr is a terminal.

use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};

use crate::Failure;

/// Regular files up to this size are read into memory; larger ones stream.
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
    pub(crate) fn open(path: &Path) -> Result<Input, Failure> {
        if is_stdin(path) {
            return Ok(Input::Streamed {
                name: "<stdin>".into(),
                source: Box::new(io::stdin().lock()),
            });
        }
        // Escaped when it holds a character that would not show as itself (see
        // `crate::name`): the file itself is opened by its exact name.
        let shown = crate::name::shown(path);
        let file =
            File::open(path).map_err(|e| Failure::Usage(format!("cannot open {shown}: {e}")))?;
        let metadata = file
            .metadata()
            .map_err(|e| Failure::Usage(format!("cannot read {shown}: {e}")))?;
        if metadata.is_dir() {
            return Err(Failure::Usage(format!(
                "cannot read {shown}: it is a directory"
            )));
        }
        if !metadata.is_file() {
            // A pipe (`<(cat big.json)`, /dev/stdin), a FIFO or a device: its size says
            // nothing about what it holds, so it streams, as standard input does.
            return Ok(Input::Streamed {
                name: shown.clone(),
                source: Box::new(file),
            });
        }
        let size = metadata.len();
        if size <= LOAD_LIMIT {
            return load_or_stream(&shown, file, size, LOAD_LIMIT)
                .map_err(|e| Failure::Usage(format!("cannot read {shown}: {e}")));
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
            name: shown,
            source,
        })
    }
}

/// Whether `path` is `-`, standard input (or output).
pub(crate) fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Refuses standard input given more than once among `paths`, as `-` or by a path to the
/// pipe, terminal or device it is (`/dev/stdin`, `/proc/self/fd/0`): it can be read only
/// once, and a second read would see an empty input. Refused before anything is read, so
/// that no file is reported on.
pub(crate) fn stdin_at_most_once(paths: &[PathBuf]) -> Result<(), Failure> {
    let stdin = stdin_identity();
    let named: Vec<String> = paths
        .iter()
        .filter(|path| is_stdin(path) || stdin.is_some() && identity(path) == stdin)
        .map(|path| format!("`{}`", crate::name::shown(path)))
        .collect();
    if named.len() > 1 {
        return Err(Failure::Usage(format!(
            "standard input can be read only once, and it is given {} times: {}",
            named.len(),
            named.join(", ")
        )));
    }
    Ok(())
}

/// The device and inode of standard input, if it is a pipe, a FIFO, a terminal or another
/// device. A regular file is left out: a path to it reads the file afresh, so
/// `sluice check a.json a.json < a.json` reads `a.json` twice and never standard input.
#[cfg(unix)]
fn stdin_identity() -> Option<(u64, u64)> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    // A duplicate of descriptor 0, to ask for its metadata; none when it is closed.
    let meta = io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .and_then(|fd| File::from(fd).metadata())
        .ok()?;
    (!meta.is_file() && !meta.is_dir()).then(|| (meta.dev(), meta.ino()))
}

/// The device and inode of the file `path` leads to (following links, as opening it does).
#[cfg(unix)]
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path)
        .ok()
        .map(|meta| (meta.dev(), meta.ino()))
}

/// Elsewhere only `-` names standard input.
#[cfg(not(unix))]
fn stdin_identity() -> Option<(u64, u64)> {
    None
}

#[cfg(not(unix))]
fn identity(_path: &Path) -> Option<(u64, u64)> {
    None
}

/// Reads `source`, expected to hold about `size` bytes, into memory if it holds at most
/// `limit` bytes; else streams it (the bytes read so far, then the rest). A regular file can
/// hold more than its size said (it grew, or it is a /proc file that reports 0), and this
/// keeps memory bounded all the same.
fn load_or_stream(
    name: &str,
    mut source: impl Read + 'static,
    size: u64,
    limit: u64,
) -> io::Result<Input> {
    let capacity = usize::try_from(size.min(limit)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity);
    source
        .by_ref()
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if u64::try_from(bytes.len()).is_ok_and(|len| len <= limit) {
        return Ok(Input::Loaded {
            name: name.to_owned(),
            bytes,
        });
    }
    Ok(Input::Streamed {
        name: name.to_owned(),
        source: Box::new(io::Cursor::new(bytes).chain(source)),
    })
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
        Some(bytes) if err.source_text().is_none() => with_shown_lines(err, name, bytes),
        _ => err,
    };
    let err = with_encoding_hint(with_command_line_hint(err));
    let mut text = err.render();
    if source.is_none() && err.source_text().is_none() {
        text.push_str(&format!("  = in {name}\n"));
    }
    Failure::Invalid(text)
}

/// Attaches to `err` the lines of `bytes` (the whole input) that its rendering shows, with
/// its span made relative to them, rather than a copy of the whole input: an error in a
/// file of megabytes costs its few lines, and renders byte for byte as with the whole text.
///
/// The lines are those [`Error::render`](sluice_core::Error::render) shows, cut out by
/// [`SourceText::excerpt`](sluice_core::SourceText::excerpt) with the renderer's default
/// context.
fn with_shown_lines(err: sluice_core::Error, name: &str, bytes: &[u8]) -> sluice_core::Error {
    let span = match err.span() {
        Some(span) if span.start <= bytes.len() => span,
        // Rendered as the length of the source text and the span's bytes: only the whole
        // text says the same. (No reader puts a span past the end of its input.)
        Some(_) => return err.with_source_text(name, bytes),
        // Nothing of the text is shown.
        None => return err.with_source_text(name, []),
    };
    let context = sluice_core::error::RenderOptions::default().context_lines;
    let (source, span) = sluice_core::SourceText::excerpt(name, bytes, span, context);
    err.with_span(span).with_shared_source(source)
}

/// The writers' messages name their Rust options; a note says what the command line offers
/// instead.
fn with_command_line_hint(err: sluice_core::Error) -> sluice_core::Error {
    let code = err.code();
    if code == sluice_core::codes::UNSUPPORTED {
        // Only the JSON writers refuse a token (bin and ext values from MessagePack).
        err.with_note("`sluice convert --binary base64` writes bin and ext values as base64")
    } else if code == sluice_json::codes::NON_FINITE_NUMBER {
        err.with_note("JSON has no Infinity or NaN; `sluice convert --to msgpack` keeps them")
    } else {
        err
    }
}

/// The note for JSON input that looks like UTF-16 (see [`looks_like_utf16`]).
pub(crate) const UTF16_NOTE: &str = "the input looks like UTF-16, and JSON must be UTF-8: \
                                      convert it first (`iconv -f UTF-16 -t UTF-8`)";

/// Whether the first bytes of an input say it is UTF-16 text: a UTF-16 byte order mark
/// (FF FE or FE FF), or two ASCII characters each with a zero byte beside it (`{\0"\0`,
/// `\0{\0"`). No JSON text starts so (a zero byte is never valid JSON), so a note saying
/// so cannot mislead.
pub(crate) fn looks_like_utf16(head: &[u8]) -> bool {
    let ascii = |byte: u8| byte != 0 && byte.is_ascii();
    match *head {
        [0xFF, 0xFE, ..] | [0xFE, 0xFF, ..] => true,
        [a, 0, b, 0, ..] | [0, a, 0, b, ..] => ascii(a) && ascii(b),
        _ => false,
    }
}

/// A UTF-16 file read as JSON fails at its first or second byte (`found byte 0xFF`, or a
/// zero byte), which says nothing of the cause: a note names the encoding. Only for an error
/// there, with the source text from the start of the input (so never for MessagePack, whose
/// diagnostics carry no text); the error code is kept.
fn with_encoding_hint(err: sluice_core::Error) -> sluice_core::Error {
    let near_start = err.span().is_some_and(|span| span.start <= 1);
    // Kept lines start the input only when no line break is counted before them.
    let utf16 = err
        .source_text()
        .is_some_and(|source| source.line_offset == 0 && looks_like_utf16(&source.text));
    if near_start && utf16 {
        err.with_note(UTF16_NOTE)
    } else {
        err
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: Input) -> (bool, Vec<u8>) {
        match input {
            Input::Loaded { bytes, .. } => (true, bytes),
            Input::Streamed { mut source, .. } => {
                let mut bytes = Vec::new();
                source.read_to_end(&mut bytes).unwrap();
                (false, bytes)
            }
        }
    }

    #[test]
    fn input_within_the_limit_is_loaded() {
        let input = load_or_stream("x", io::Cursor::new(b"[1]".to_vec()), 3, 4).unwrap();
        assert_eq!(read_all(input), (true, b"[1]".to_vec()));
        let input = load_or_stream("x", io::Cursor::new(b"[1,2]".to_vec()), 0, 5).unwrap();
        assert_eq!(read_all(input), (true, b"[1,2]".to_vec()));
    }

    #[test]
    fn input_over_the_limit_streams_every_byte() {
        // The size said 2 (a file that grew, a /proc file that says 0): the bytes decide.
        let doc = b"[1, 2, 3, 4, 5, 6]".to_vec();
        let input = load_or_stream("x", io::Cursor::new(doc.clone()), 2, 4).unwrap();
        assert_eq!(read_all(input), (false, doc));
    }

    #[test]
    fn small_regular_files_are_loaded() {
        let path = std::env::temp_dir().join(format!("sluice-input-{}.json", std::process::id()));
        std::fs::write(&path, b"[true]").unwrap();
        let input = Input::open(&path);
        std::fs::remove_file(&path).unwrap();
        let Ok(input) = input else {
            panic!("the file opens")
        };
        assert_eq!(read_all(input), (true, b"[true]".to_vec()));
    }

    #[cfg(unix)]
    #[test]
    fn devices_stream_whatever_their_size() {
        let Ok(input) = Input::open(Path::new("/dev/null")) else {
            panic!("/dev/null opens")
        };
        assert_eq!(read_all(input), (false, Vec::new()));
    }

    #[test]
    fn utf16_is_told_by_its_byte_order_mark_or_its_zero_bytes() {
        for utf16 in [
            &b"\xFF\xFE{\0"[..],
            b"\xFE\xFF\0{",
            b"{\0\"\0a\0",
            b"\0[\0\x31",
            b" \0[\0",
        ] {
            assert!(looks_like_utf16(utf16), "{utf16:?}");
        }
        for other in [
            &b"{\"a\": 1}"[..],
            b"\xEF\xBB\xBF{}",
            b"{\0",
            b"\0\0\0\0",
            b"\x80\0\x81\0",
            b"",
        ] {
            assert!(!looks_like_utf16(other), "{other:?}");
        }
    }

    /// An error at bytes `start..end`, with a path and a note.
    fn error_in(start: usize, end: usize) -> sluice_core::Error {
        sluice_core::Error::new(sluice_json::codes::UNEXPECTED_TOKEN, "unexpected")
            .with_span(sluice_core::Span::new(start, end))
            .with_path(sluice_core::Path::root())
            .with_note("a note")
    }

    /// The diagnostic of an error at `start..end` of `doc`, and the one the same error gets
    /// with the whole of `doc` attached, which it must equal.
    fn diagnostics(doc: &[u8], start: usize, end: usize) -> (String, String) {
        let Failure::Invalid(shown) = invalid(error_in(start, end), "big.json", Some(doc)) else {
            panic!("an invalid input")
        };
        let whole = with_encoding_hint(error_in(start, end).with_source_text("big.json", doc));
        (shown, whole.render())
    }

    /// A JSON array of `lines` objects, one per line of about 60 bytes, each line ended by
    /// `line_end`.
    fn many_lines(lines: usize, line_end: &str) -> Vec<u8> {
        let mut doc = String::from("[");
        doc.push_str(line_end);
        for i in 0..lines {
            doc.push_str(&format!(
                "  {{\"id\": {i}, \"name\": \"abcdefghij\", \"tags\": [1, 2]}},"
            ));
            doc.push_str(line_end);
        }
        doc.push(']');
        doc.push_str(line_end);
        doc.into_bytes()
    }

    #[test]
    fn an_error_in_a_large_file_keeps_only_the_lines_it_shows() {
        let doc = many_lines(100_000, "\n");
        let at = doc.len() / 2;
        let err = with_shown_lines(error_in(at, at + 3), "big.json", &doc);
        let kept = err.source_text().expect("a source").text.len();
        // Five lines of about 60 bytes, not the 6 MB of the file.
        assert!(kept < 400, "{kept} bytes kept");
    }

    #[test]
    fn an_error_in_a_large_file_renders_as_with_the_whole_file() {
        for line_end in ["\n", "\r\n"] {
            let doc = many_lines(100_000, line_end);
            let last_line = doc.len() - 1 - line_end.len();
            for (start, end) in [
                (0, 1),
                (1, 1),
                (3, 7),
                (doc.len() / 2, doc.len() / 2 + 5),
                // Across line breaks, and to the end.
                (doc.len() / 3, doc.len()),
                (last_line - 40, last_line + 1),
                (last_line, last_line + 1),
                (doc.len() - 1, doc.len()),
                (doc.len(), doc.len()),
            ] {
                let (shown, whole) = diagnostics(&doc, start, end);
                assert!(shown.contains(" --> big.json:"), "{shown}");
                assert_eq!(shown, whole, "{start}..{end} ({line_end:?})");
            }
        }
    }

    #[test]
    fn an_error_near_a_byte_order_mark_or_in_short_inputs_renders_as_with_the_whole_input() {
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend(many_lines(10, "\n"));
        let utf16 = b"\xFF\xFE[\0\n\x001\0]\0";
        let cases: [(&[u8], usize, usize); 12] = [
            (&bom, 0, 3),
            (&bom, 3, 4),
            (&bom, 4, 5),
            (&bom, 60, 61),
            (&bom, bom.len(), bom.len()),
            (b"", 0, 0),
            (b"\n", 1, 1),
            (b"\n\n\n\n\n\n", 3, 4),
            (b"no line feed", 3, 99),
            (b"\r\n\r\n x \r\n\r\n", 5, 6),
            (utf16, 0, 1),
            (b"{\0\"\0a\0", 1, 2),
        ];
        for (doc, start, end) in cases {
            let (shown, whole) = diagnostics(doc, start, end);
            assert_eq!(shown, whole, "{doc:?} {start}..{end}");
        }
        // The UTF-16 note needs the start of the input: it is there.
        assert!(diagnostics(utf16, 0, 1).0.contains(UTF16_NOTE));
    }

    #[test]
    fn an_error_without_a_span_or_past_the_input_renders_as_with_the_whole_input() {
        let doc = many_lines(10, "\n");
        let no_span = sluice_core::Error::new(sluice_json::codes::UNEXPECTED_TOKEN, "x");
        let Failure::Invalid(shown) = invalid(no_span.clone(), "a.json", Some(&doc)) else {
            panic!("an invalid input")
        };
        assert_eq!(shown, no_span.with_source_text("a.json", &doc).render());
        let (shown, whole) = diagnostics(&doc, doc.len() + 1, doc.len() + 2);
        assert_eq!(shown, whole);
    }

    #[test]
    fn a_directory_is_a_usage_error() {
        let dir = std::env::temp_dir();
        assert!(matches!(Input::open(&dir), Err(Failure::Usage(_))));
    }
}
