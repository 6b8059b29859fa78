//! MessagePack: sluice-msgpack against rmp-serde (and rmpv) on the MessagePack encodings of
//! `canada`, `citm_catalog` and `twitter`.
//!
//! The inputs are made in the setup: each JSON file is parsed by serde_json and encoded by
//! rmp-serde, so every contender reads the same bytes, produced by the peer.
//!
//! - `msgpack_read`: sluice reading every token (piped into a `NoopWriter`, and with a plain
//!   peek-and-read loop), sluice `skip()`
//!   of the whole document, rmp-serde into `rmpv::Value` and into `IgnoredAny`, rmpv's own
//!   decoder into `rmpv::Value`.
//! - `msgpack_write`: sluice writing a pre-read token stream (lengths known, as read; and
//!   lengths left to the writer), rmp-serde serializing the same data from a
//!   `serde_json::Value`, rmpv's own encoder from an `rmpv::Value`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::de::IgnoredAny;
use sluice_benches::{BENCH_FILES, corpus};
use sluice_core::{Entry, NoopWriter, Number, Reader, Token, pipe};
use sluice_msgpack::{MsgPackReader, MsgPackWriter};

struct Input {
    name: &'static str,
    bytes: Vec<u8>,
    json: serde_json::Value,
    rmpv: rmpv::Value,
    tokens: Vec<Token>,
}

fn inputs() -> Vec<Input> {
    BENCH_FILES
        .iter()
        .filter_map(|&(name, path)| {
            let json: serde_json::Value = serde_json::from_slice(&corpus(path)?).ok()?;
            let bytes = rmp_serde::to_vec(&json).expect("rmp-serde encodes the document");
            let rmpv = rmpv::decode::read_value(&mut bytes.as_slice()).expect("rmpv decodes");
            let tokens = Token::read_all(&mut MsgPackReader::from_slice(&bytes))
                .expect("sluice reads rmp-serde's bytes");
            Some(Input {
                name,
                bytes,
                json,
                rmpv,
                tokens,
            })
        })
        .collect()
}

/// Tokens with every container length removed, as a streaming JSON reader would give them.
fn without_lengths(tokens: &[Token]) -> Vec<Token> {
    tokens
        .iter()
        .map(|token| match token {
            Token::MapRoot(_) => Token::MapRoot(None),
            Token::ArrayRoot(_) => Token::ArrayRoot(None),
            other => other.clone(),
        })
        .collect()
}

/// Reads every token with a plain peek-and-read loop (no writer, no pipe bookkeeping),
/// touching each value so nothing is optimized away.
fn read_every_token(bytes: &[u8]) -> u64 {
    let mut reader = MsgPackReader::from_slice(bytes);
    let mut sum = 0u64;
    loop {
        let entry = reader.peek().unwrap();
        match entry {
            Entry::Ended => return sum,
            Entry::Null => reader.read_null().unwrap(),
            Entry::Bool => sum += u64::from(reader.read_bool().unwrap()),
            Entry::String | Entry::Name => sum += reader.read_str().unwrap().len() as u64,
            Entry::Blob => sum += reader.read_blob().unwrap().len() as u64,
            Entry::Ext => sum += reader.read_ext().unwrap().data.len() as u64,
            Entry::ArrayRoot => sum += reader.read_array_root().unwrap().unwrap_or(0) as u64,
            Entry::MapRoot => sum += reader.read_map_root().unwrap().unwrap_or(0) as u64,
            Entry::ArrayEnd => reader.read_array_end().unwrap(),
            Entry::MapEnd => reader.read_map_end().unwrap(),
            _ => {
                if let Number::F64(v) = reader.read_number().unwrap() {
                    sum = sum.wrapping_add(v.to_bits());
                } else {
                    sum += 1;
                }
            }
        }
    }
}

fn read(c: &mut Criterion) {
    for input in inputs() {
        let mut group = c.benchmark_group(format!("msgpack_read/{}", input.name));
        group.throughput(Throughput::Bytes(input.bytes.len() as u64));
        let bytes = input.bytes.as_slice();
        group.bench_function("sluice_tokens", |b| {
            b.iter(|| {
                let mut reader = MsgPackReader::from_slice(black_box(bytes));
                let mut sink = NoopWriter::new();
                pipe(&mut reader, &mut sink).unwrap();
                sink.tokens()
            });
        });
        group.bench_function("sluice_read_loop", |b| {
            b.iter(|| read_every_token(black_box(bytes)));
        });
        group.bench_function("sluice_skip", |b| {
            b.iter(|| {
                let mut reader = MsgPackReader::from_slice(black_box(bytes));
                reader.skip().unwrap();
                reader.offset()
            });
        });
        group.bench_function("rmp_serde_rmpv_value", |b| {
            b.iter(|| rmp_serde::from_slice::<rmpv::Value>(black_box(bytes)).unwrap());
        });
        group.bench_function("rmp_serde_ignored_any", |b| {
            b.iter(|| rmp_serde::from_slice::<IgnoredAny>(black_box(bytes)).unwrap());
        });
        group.bench_function("rmpv_read_value", |b| {
            b.iter(|| rmpv::decode::read_value(&mut black_box(bytes)).unwrap());
        });
        group.finish();
    }
}

fn write(c: &mut Criterion) {
    for input in inputs() {
        let mut group = c.benchmark_group(format!("msgpack_write/{}", input.name));
        group.throughput(Throughput::Bytes(input.bytes.len() as u64));
        let capacity = input.bytes.len();
        let unknown = without_lengths(&input.tokens);
        // Every contender writes the same bytes.
        let mut writer = MsgPackWriter::new(Vec::with_capacity(capacity));
        Token::write_all(&unknown, &mut writer).unwrap();
        assert_eq!(writer.into_inner().unwrap(), input.bytes, "{}", input.name);
        group.bench_function("sluice_tokens", |b| {
            b.iter(|| {
                let mut writer = MsgPackWriter::new(Vec::with_capacity(capacity));
                Token::write_all(black_box(&input.tokens), &mut writer).unwrap();
                writer.into_inner().unwrap()
            });
        });
        group.bench_function("sluice_tokens_learned_lengths", |b| {
            b.iter(|| {
                let mut writer = MsgPackWriter::new(Vec::with_capacity(capacity));
                Token::write_all(black_box(&unknown), &mut writer).unwrap();
                writer.into_inner().unwrap()
            });
        });
        group.bench_function("rmp_serde_json_value", |b| {
            b.iter(|| {
                let mut out = Vec::with_capacity(capacity);
                rmp_serde::encode::write(&mut out, black_box(&input.json)).unwrap();
                out
            });
        });
        group.bench_function("rmpv_write_value", |b| {
            b.iter(|| {
                let mut out = Vec::with_capacity(capacity);
                rmpv::encode::write_value(&mut out, black_box(&input.rmpv)).unwrap();
                out
            });
        });
        group.finish();
    }
}

fn settings() -> Criterion {
    // Short by default so a full run stays in minutes; pass --measurement-time for more.
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = settings();
    targets = read, write
}
criterion_main!(benches);
