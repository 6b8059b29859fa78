//! JSON benchmarks: sluice-json against serde_json, struson and simd-json, on the three
//! standard files (canada, `citm_catalog`, twitter).
//!
//! - `read/*`: every token of the file, strings read, numbers read as `u64`, `i64` or `f64`
//!   at the call site (by their syntax), against serde_json into `IgnoredAny` and `Value`,
//!   struson's pull reader doing the same work, and simd-json building its tape.
//!   `sluice_slice_number_text_only` reads numbers as text without converting them, the way
//!   `IgnoredAny` skips them, to tell the conversions' cost from the rest.
//!   `sluice_io_read` is the same scan through `io::Read` instead of a slice.
//! - `read/canada_exponents`: the scan of canada.json with every number in scientific
//!   notation (`sluice_benches::with_exponents`), against serde_json.
//! - `write/*`: pretty and condensed output from a pre-read token stream, against
//!   serde_json's `to_writer` of a `Value`.
//! - `large_object/*`: one object of 200,000 long keys that differ in a few digits (about
//!   11 MB), where the default duplicate-key check runs through its hash index: the
//!   default options against `DuplicateKeys::LastWins` (no check) and serde_json.
//!
//! - `long_token/*`: one token of a megabyte (a number, a string; numbers read as text, as
//!   no type holds a million digits) read through `io::Read` calls of 64 bytes each, as from a slow pipe or socket, against the slice read: a token
//!   that spans many refills must cost time linear in its length (a number scanned again
//!   after each read was quadratic), and serde_json reading the same stream.
//!
//! Run with `cargo bench -p sluice-benches --bench json`; numbers are MB/s of the input file.

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{
    BatchSize, BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main,
};
use serde::de::IgnoredAny;
use sluice_benches::{BENCH_FILES, corpus, large_object, scan, scan_number_text};
use sluice_core::Token;
use sluice_json::{JsonReader, JsonWriter, WriterOptions};

/// The same work with struson's pull reader.
fn scan_struson(bytes: &[u8]) -> f64 {
    use struson::reader::{JsonReader as _, JsonStreamReader, ValueType};
    let mut reader = JsonStreamReader::new(bytes);
    let mut sum = 0.0;
    // Per open container: is it an object?
    let mut stack: Vec<bool> = Vec::new();
    loop {
        if let Some(&object) = stack.last() {
            if !reader.has_next().unwrap() {
                if object {
                    reader.end_object().unwrap();
                } else {
                    reader.end_array().unwrap();
                }
                stack.pop();
                if stack.is_empty() {
                    break;
                }
                continue;
            }
            if object {
                sum += reader.next_name().unwrap().len() as f64;
            }
        }
        match reader.peek().unwrap() {
            ValueType::Object => {
                reader.begin_object().unwrap();
                stack.push(true);
            }
            ValueType::Array => {
                reader.begin_array().unwrap();
                stack.push(false);
            }
            ValueType::String => sum += reader.next_str().unwrap().len() as f64,
            ValueType::Number => {
                let text = reader.next_number_as_str().unwrap();
                sum += if text.contains(['.', 'e', 'E']) {
                    lexical_parse_f64(text)
                } else if text.starts_with('-') {
                    text.parse::<i64>().unwrap() as f64
                } else {
                    text.parse::<u64>().unwrap() as f64
                };
            }
            ValueType::Boolean => sum += f64::from(u8::from(reader.next_bool().unwrap())),
            ValueType::Null => reader.next_null().unwrap(),
        }
        if stack.is_empty() {
            break;
        }
    }
    sum
}

fn lexical_parse_f64(text: &str) -> f64 {
    text.parse::<f64>().unwrap()
}

/// The scan of every token from a slice (default options and `LastWins`) and through
/// `io::Read`, into `group`.
fn sluice_scans(group: &mut BenchmarkGroup<'_, WallTime>, bytes: &[u8]) {
    group.bench_function("sluice_slice", |b| {
        b.iter(|| scan(&mut JsonReader::from_slice(black_box(bytes))).unwrap());
    });
    // The same scan without duplicate-key tracking (`DuplicateKeys::LastWins`), to show
    // what the default check costs.
    let last_wins = sluice_benches::last_wins_options();
    group.bench_function("sluice_slice_last_wins", |b| {
        b.iter(|| {
            let reader = JsonReader::from_slice(black_box(bytes));
            scan(&mut reader.with_options(last_wins.clone())).unwrap()
        });
    });
    group.bench_function("sluice_io_read", |b| {
        b.iter(|| scan(&mut JsonReader::from_read(black_box(bytes))).unwrap());
    });
}

fn read(c: &mut Criterion) {
    for (name, file) in BENCH_FILES {
        let Some(bytes) = corpus(file) else { continue };
        let mut group = c.benchmark_group(format!("read/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        sluice_scans(&mut group, &bytes);
        // The same scan with numbers read as text and not converted, as `IgnoredAny` below
        // leaves them: the difference is the cost of the conversions.
        let last_wins = sluice_benches::last_wins_options();
        group.bench_function("sluice_slice_number_text_only", |b| {
            b.iter(|| {
                let reader = JsonReader::from_slice(black_box(&bytes));
                sluice_benches::scan_number_text(&mut reader.with_options(last_wins.clone()))
                    .unwrap()
            });
        });
        group.bench_function("serde_json_ignored_any", |b| {
            b.iter(|| serde_json::from_slice::<IgnoredAny>(black_box(&bytes)).unwrap());
        });
        // serde_json doing the scan's work (numbers converted, strings checked and read):
        // `IgnoredAny` above does less.
        group.bench_function("serde_json_every_token", |b| {
            b.iter(|| sluice_benches::serde_every_token(black_box(&bytes)).unwrap());
        });
        group.bench_function("serde_json_value", |b| {
            b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(&bytes)).unwrap());
        });
        group.bench_function("struson", |b| b.iter(|| scan_struson(black_box(&bytes))));
        group.bench_function("simd_json_tape", |b| {
            b.iter_batched(
                || bytes.clone(),
                |mut copy| {
                    let tape = simd_json::to_tape(&mut copy).unwrap();
                    black_box(tape.0.len())
                },
                BatchSize::LargeInput,
            );
        });
        group.finish();
    }
}

/// canada.json with every number in scientific notation (`-65.613616999999977e-1`): the
/// number scanner's exponent path, which the standard files hardly take.
fn read_exponents(c: &mut Criterion) {
    let Some(canada) = corpus("bench/canada.json") else {
        return;
    };
    let bytes = sluice_benches::with_exponents(&canada);
    let mut group = c.benchmark_group("read/canada_exponents");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    let last_wins = sluice_benches::last_wins_options();
    group.bench_function("sluice_slice_last_wins", |b| {
        b.iter(|| {
            let reader = JsonReader::from_slice(black_box(&bytes));
            scan(&mut reader.with_options(last_wins.clone())).unwrap()
        });
    });
    group.bench_function("serde_json_ignored_any", |b| {
        b.iter(|| serde_json::from_slice::<IgnoredAny>(black_box(&bytes)).unwrap());
    });
    group.bench_function("serde_json_every_token", |b| {
        b.iter(|| sluice_benches::serde_every_token(black_box(&bytes)).unwrap());
    });
    group.finish();
}

fn write(c: &mut Criterion) {
    for (name, file) in BENCH_FILES {
        let Some(bytes) = corpus(file) else { continue };
        let tokens = Token::read_all(&mut JsonReader::from_slice(&bytes)).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let mut group = c.benchmark_group(format!("write/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        for (layout, options) in [
            ("condensed", WriterOptions::condensed()),
            ("pretty", WriterOptions::pretty()),
        ] {
            group.bench_function(format!("sluice_{layout}"), |b| {
                b.iter(|| {
                    let mut writer =
                        JsonWriter::new(Vec::with_capacity(bytes.len()), options.clone());
                    Token::write_all(black_box(&tokens), &mut writer).unwrap();
                    writer.into_inner().unwrap().len()
                });
            });
        }
        group.bench_function("serde_json_condensed", |b| {
            b.iter(|| {
                let mut out = Vec::with_capacity(bytes.len());
                serde_json::to_writer(&mut out, black_box(&value)).unwrap();
                out.len()
            });
        });
        group.bench_function("serde_json_pretty", |b| {
            b.iter(|| {
                let mut out = Vec::with_capacity(bytes.len());
                serde_json::to_writer_pretty(&mut out, black_box(&value)).unwrap();
                out.len()
            });
        });
        group.finish();
    }
}

/// The `large_object` group: one object of 200,000 long alike keys
/// (`sluice_benches::large_object`), with and without the duplicate-key check.
fn read_large_object(c: &mut Criterion) {
    let bytes = large_object(200_000);
    let mut group = c.benchmark_group("large_object");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(20);
    sluice_scans(&mut group, &bytes);
    group.bench_function("serde_json_ignored_any", |b| {
        b.iter(|| serde_json::from_slice::<IgnoredAny>(black_box(&bytes)).unwrap());
    });
    group.bench_function("serde_json_value", |b| {
        b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(&bytes)).unwrap());
    });
    group.finish();
}

/// An `io::Read` that hands out at most `chunk` bytes a call, as a slow pipe or socket does.
struct SmallReads<'a> {
    bytes: &'a [u8],
    chunk: usize,
}

impl std::io::Read for SmallReads<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.chunk.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

fn read_long_tokens(c: &mut Criterion) {
    let megabyte = 1 << 20;
    for (name, doc) in [
        ("number", format!("[{}]", "7".repeat(megabyte))),
        ("string", format!("[\"{}\"]", "a".repeat(megabyte))),
    ] {
        let bytes = doc.as_bytes();
        let mut group = c.benchmark_group(format!("long_token/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.sample_size(10);
        group.bench_function("sluice_slice", |b| {
            b.iter(|| scan_number_text(&mut JsonReader::from_slice(black_box(bytes))).unwrap());
        });
        group.bench_function("sluice_io_read_64_byte_reads", |b| {
            b.iter(|| {
                let input = SmallReads {
                    bytes: black_box(bytes),
                    chunk: 64,
                };
                scan_number_text(&mut JsonReader::from_read(input)).unwrap()
            });
        });
        group.bench_function("serde_json_ignored_any_64_byte_reads", |b| {
            b.iter(|| {
                let input = SmallReads {
                    bytes: black_box(bytes),
                    chunk: 64,
                };
                serde_json::from_reader::<_, IgnoredAny>(input).unwrap()
            });
        });
        group.finish();
    }
}

criterion_group!(
    benches,
    read,
    read_exponents,
    write,
    read_large_object,
    read_long_tokens
);
criterion_main!(benches);
