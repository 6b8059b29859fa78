//! NDJSON over a stream that breaks: which error a record whose value runs past its line
//! feed reports, and that an I/O error stays final.

use sluice_core::{ErrorCode, Span, Token};
use sluice_json::{IoInput, JsonOptions, NdjsonReader, SliceInput, codes};

/// A stream of `bytes` that hands out at most `chunk` bytes a read, and fails once `good`
/// bytes are out.
struct BreaksAfter<'a> {
    bytes: &'a [u8],
    good: usize,
    chunk: usize,
}

impl std::io::Read for BreaksAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.good == 0 {
            return Err(std::io::Error::other("the stream broke"));
        }
        let n = buf
            .len()
            .min(self.good)
            .min(self.chunk)
            .min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        self.good -= n;
        Ok(n)
    }
}

/// An error as comparable data: code, span, data path.
type Seen = (ErrorCode, Option<Span>, Option<String>);

fn seen(err: &sluice_core::Error) -> Seen {
    (err.code(), err.span(), err.path().map(ToString::to_string))
}

/// The errors a loop that skips bad records meets, in order, until the end or an I/O error
/// (then the I/O error is checked to be final).
fn errors_skipping<S: sluice_json::Input>(records: &mut NdjsonReader<S>) -> Vec<Seen> {
    let mut errors = Vec::new();
    loop {
        let err = match records.next_record() {
            Ok(None) => return errors,
            Ok(Some(mut record)) => {
                match Token::read_all(&mut record).and_then(|_| record.finish()) {
                    Ok(()) => continue,
                    Err(err) => err,
                }
            }
            Err(err) => err,
        };
        errors.push(seen(&err));
        // Skipping the bad line may meet the I/O error too, reading the line's rest.
        let io = match records.skip_bad_record() {
            Ok(skipped) => {
                assert!(skipped.is_some() || err.code() == sluice_core::codes::IO);
                err.code() == sluice_core::codes::IO
            }
            Err(skip) => {
                assert_eq!(skip.code(), sluice_core::codes::IO);
                if err.code() != sluice_core::codes::IO {
                    errors.push(seen(&skip));
                }
                true
            }
        };
        if io {
            for _ in 0..2 {
                let again = records.skip_bad_record().map(drop).unwrap_err();
                assert_eq!(again.code(), sluice_core::codes::IO);
                let again = records.next_record().map(drop).unwrap_err();
                assert_eq!(again.code(), sluice_core::codes::IO);
            }
            return errors;
        }
        assert!(errors.len() < 100, "no progress");
    }
}

#[test]
fn a_record_whose_line_ended_inside_its_value_reports_its_cut_before_a_later_io_error() {
    // The first record's value runs past its line feed (byte 3), into the next lines.
    let text = b"[1,\n2,3,\"four\"]\n[5]\n";
    let line_feed = 3;
    let slice = errors_skipping(&mut NdjsonReader::new(
        SliceInput::new(text),
        JsonOptions::ndjson(),
    ));
    assert_eq!(
        slice[0],
        (
            codes::UNEXPECTED_EOF,
            Some(Span::at(line_feed)),
            Some("$[1]".to_owned())
        )
    );
    for good in 0..text.len() {
        for (chunk, window) in [(1, 1), (1, 4), (3, 7), (64, 4096)] {
            let input = IoInput::with_window(
                BreaksAfter {
                    bytes: text,
                    good,
                    chunk,
                },
                window,
            );
            let mut records = NdjsonReader::new(input, JsonOptions::ndjson());
            let errors = errors_skipping(&mut records);
            let what =
                format!("breaking after {good} bytes, {chunk}-byte reads, a {window}-byte window");
            let io = errors.last().map(|e| e.0);
            assert_eq!(io, Some(sluice_core::codes::IO), "{what}: {errors:?}");
            if good <= line_feed {
                // The stream broke before the line ended: the I/O error is all there is.
                assert_eq!(errors.len(), 1, "{what}: {errors:?}");
            } else {
                // The line feed was read: the line is cut there whatever follows (the
                // stream is not read on past a cut line), as over the slice. The I/O error
                // comes with the next lines, where the stream broke, and is final.
                assert_eq!(errors[0], slice[0], "{what}");
                assert_eq!(
                    errors[..errors.len() - 1],
                    slice[..errors.len() - 1],
                    "{what}"
                );
            }
        }
    }
}
