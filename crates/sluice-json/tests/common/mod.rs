//! Helpers shared by the integration tests.
#![allow(dead_code, unreachable_pub)]

use sluice_core::{Entry, Reader, Result, Token};
use sluice_json::{IO_WINDOW, Input, IoInput, JsonOptions, JsonReader};

/// Reads every token, then `finish()`.
pub fn read_document<S: Input>(reader: &mut JsonReader<S>) -> Result<Vec<Token>> {
    let tokens = Token::read_all(reader)?;
    reader.finish()?;
    Ok(tokens)
}

/// Reads every token of `bytes` with `options` from the slice path.
pub fn read_slice(bytes: &[u8], options: &JsonOptions) -> Result<Vec<Token>> {
    read_document(&mut JsonReader::from_slice(bytes).with_options(options.clone()))
}

pub use sluice_core::testing::Trickle;

/// Reads every token of `bytes` with `options` through `io::Read`, `chunk` bytes per read.
pub fn read_trickle(bytes: &[u8], chunk: usize, options: &JsonOptions) -> Result<Vec<Token>> {
    let mut reader = JsonReader::from_read(Trickle { bytes, chunk }).with_options(options.clone());
    read_document(&mut reader)
}

/// `bytes` through `io::Read`, `chunk` bytes a read: odd chunk sizes through a window of a
/// few bytes more than a read, which the reader fills, moves and grows as it goes, even
/// ones through the default window, which small inputs never fill.
pub fn trickle_input(bytes: &[u8], chunk: usize) -> IoInput<Trickle<'_>> {
    let window = if chunk % 2 == 1 { chunk + 4 } else { IO_WINDOW };
    IoInput::with_window(Trickle { bytes, chunk }, window)
}

/// [`read_trickle`] through a window of `window` bytes instead of the default one, so that
/// tokens straddle the window's edge and the window moves and grows on small inputs.
pub fn read_windowed(
    bytes: &[u8],
    chunk: usize,
    window: usize,
    options: &JsonOptions,
) -> Result<Vec<Token>> {
    let input = IoInput::with_window(Trickle { bytes, chunk }, window);
    read_document(&mut JsonReader::new(input, options.clone()))
}

/// The outcome of a read as comparable data: tokens, or (code, span).
pub fn outcome(
    result: Result<Vec<Token>>,
) -> std::result::Result<Vec<Token>, (String, Option<sluice_core::Span>)> {
    result.map_err(|e| (e.code().to_string(), e.span()))
}

/// Whether the reader is at the end.
pub fn ended<R: Reader>(reader: &mut R) -> bool {
    reader.peek().ok() == Some(Entry::Ended)
}

/// One typed number read, for tables of reads.
pub type NumberRead = fn(&mut dyn Reader) -> Result<()>;

/// Every typed number read of the `Reader` trait, by name.
pub const TYPED_NUMBER_READS: [(&str, NumberRead); 12] = [
    ("read_i8", |r| r.read_i8().map(drop)),
    ("read_i16", |r| r.read_i16().map(drop)),
    ("read_i32", |r| r.read_i32().map(drop)),
    ("read_i64", |r| r.read_i64().map(drop)),
    ("read_i128", |r| r.read_i128().map(drop)),
    ("read_u8", |r| r.read_u8().map(drop)),
    ("read_u16", |r| r.read_u16().map(drop)),
    ("read_u32", |r| r.read_u32().map(drop)),
    ("read_u64", |r| r.read_u64().map(drop)),
    ("read_u128", |r| r.read_u128().map(drop)),
    ("read_f32", |r| r.read_f32().map(drop)),
    ("read_f64", |r| r.read_f64().map(drop)),
];

/// A small seeded generator (xorshift64*) for the generated-input tests, so that a failure
/// names the seed to replay.
#[derive(Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Never zero, and seeds that differ in low bits start far apart.
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap()
    }

    /// True `one_in` times in `of`.
    pub fn chance(&mut self, one_in: usize, of: usize) -> bool {
        self.below(of) < one_in
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A sink that takes at most `chunk` bytes a call and fails the calls that `fails` picks
/// (by their 1-based number) with what it gives: an error, or `Ok(0)`. A writer's flush then
/// hands over part of its buffer at a time, and some of those hand-overs fail.
pub struct StingySink {
    /// What the sink took.
    pub data: Vec<u8>,
    chunk: usize,
    calls: usize,
    fails: Box<dyn FnMut(usize) -> Option<std::io::Result<usize>>>,
}

impl StingySink {
    /// An empty sink, before its first call.
    pub fn new(
        chunk: usize,
        fails: impl FnMut(usize) -> Option<std::io::Result<usize>> + 'static,
    ) -> StingySink {
        StingySink {
            data: Vec::new(),
            chunk,
            calls: 0,
            fails: Box::new(fails),
        }
    }
}

impl std::io::Write for StingySink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.calls += 1;
        if let Some(failure) = (self.fails)(self.calls) {
            return failure;
        }
        let n = buf.len().min(self.chunk);
        self.data.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
