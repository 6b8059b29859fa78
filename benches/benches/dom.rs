//! DOM benchmarks: a whole JSON document into an owned tree, on the three standard files.
//!
//! - `dom/*`: sluice's `Value` (a `JsonReader` piped into a `ValueWriter`: exact numbers, map
//!   keys in input order) against `serde_json::Value`, simd-json's owned value, sonic-rs's
//!   `Value` and jiter's `JsonValue`.
//!
//! Run with `cargo bench -p sluice-benches --bench dom`; numbers are MB/s of the input file.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use sluice_benches::{BENCH_FILES, corpus};
use sluice_core::{Value, ValueWriter, pipe_value};
use sluice_json::JsonReader;

fn sluice_value(bytes: &[u8]) -> Value {
    let mut writer = ValueWriter::new();
    pipe_value(&mut JsonReader::from_slice(bytes), &mut writer).unwrap();
    writer.into_value().unwrap()
}

fn dom(c: &mut Criterion) {
    for (name, file) in BENCH_FILES {
        let Some(bytes) = corpus(file) else { continue };
        let mut group = c.benchmark_group(format!("dom/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("sluice_value", |b| {
            b.iter(|| sluice_value(black_box(&bytes)));
        });
        group.bench_function("serde_json_value", |b| {
            b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(&bytes)).unwrap());
        });
        group.bench_function("simd_json_owned_value", |b| {
            // simd-json parses in place: each iteration gets a fresh copy (outside the timing).
            b.iter_batched(
                || bytes.clone(),
                |mut copy| simd_json::to_owned_value(&mut copy).unwrap(),
                BatchSize::LargeInput,
            );
        });
        group.bench_function("sonic_rs_value", |b| {
            b.iter(|| sonic_rs::from_slice::<sonic_rs::Value>(black_box(&bytes)).unwrap());
        });
        group.bench_function("jiter_value", |b| {
            b.iter(|| jiter::JsonValue::parse(black_box(&bytes), false).unwrap());
        });
        group.finish();
    }
}

criterion_group!(benches, dom);
criterion_main!(benches);
