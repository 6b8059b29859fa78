//! NDJSON ingestion on the corpus samples (`ndjson/wikipedia-articles.ndjson`,
//! `ndjson/nginxplus-status.ndjson`).
//!
//! - `ndjson_typed/wikipedia`: every record into a derived struct (url, title, body) on one
//!   thread: `sluice::ndjson::iter` against serde_json's `StreamDeserializer`.
//! - `ndjson_typed_threads/wikipedia`: the same records through `sluice::ndjson::par_collect`
//!   with 1 and 2 worker threads (the scaling of the parallel reader; no peer).
//! - `ndjson_value/nginx`: every record (deeply nested server statistics) into an owned tree:
//!   sluice's `Value` against `serde_json::Value`.
//!
//! Run with `cargo bench -p sluice-benches --bench ndjson`; numbers are MB/s of the file.
//! For a 1 GiB file and peak memory, see `benches/ndjson-scale`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sluice::Reflect;
use sluice::ndjson::ParallelOptions;
use sluice_benches::corpus;
use sluice_core::{ValueWriter, pipe_value};
use sluice_json::NdjsonReader;

/// One record of the Wikipedia sample, for both libraries.
#[derive(Reflect, serde::Deserialize, Debug, Default, PartialEq)]
#[allow(dead_code)] // fields are read only through the derives
struct Article {
    url: String,
    title: String,
    body: String,
}

fn typed(c: &mut Criterion) {
    let Some(bytes) = corpus("ndjson/wikipedia-articles.ndjson") else {
        return;
    };
    let mut group = c.benchmark_group("ndjson_typed/wikipedia");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("sluice_iter", |b| {
        b.iter(|| {
            sluice::ndjson::iter::<Article, _>(black_box(&bytes[..]))
                .map(|record| record.unwrap().body.len())
                .sum::<usize>()
        });
    });
    group.bench_function("serde_json_stream", |b| {
        b.iter(|| {
            serde_json::Deserializer::from_slice(black_box(&bytes))
                .into_iter::<Article>()
                .map(|record| record.unwrap().body.len())
                .sum::<usize>()
        });
    });
    group.finish();

    let mut group = c.benchmark_group("ndjson_typed_threads/wikipedia");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    for jobs in [1, 2] {
        // Blocks of 64 KiB: the 1 MB sample is cut into enough blocks to share.
        let options = ParallelOptions {
            jobs,
            block_size: 64 << 10,
            ..ParallelOptions::default()
        };
        group.bench_function(format!("sluice_par_collect_{jobs}_threads"), |b| {
            b.iter(|| {
                let (records, _) =
                    sluice::ndjson::par_collect::<Article, _>(black_box(&bytes[..]), &options)
                        .unwrap();
                records.len()
            });
        });
    }
    group.finish();
}

fn value(c: &mut Criterion) {
    let Some(bytes) = corpus("ndjson/nginxplus-status.ndjson") else {
        return;
    };
    let mut group = c.benchmark_group("ndjson_value/nginx");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("sluice_value", |b| {
        b.iter(|| {
            let mut reader = NdjsonReader::from_slice(black_box(&bytes));
            let mut count = 0;
            while let Some(mut record) = reader.next_record().unwrap() {
                let mut writer = ValueWriter::new();
                pipe_value(&mut record, &mut writer).unwrap();
                black_box(writer.into_value().unwrap());
                count += 1;
            }
            count
        });
    });
    group.bench_function("serde_json_value", |b| {
        b.iter(|| {
            serde_json::Deserializer::from_slice(black_box(&bytes))
                .into_iter::<serde_json::Value>()
                .filter(|record| black_box(record.as_ref().unwrap()).is_object())
                .count()
        });
    });
    group.finish();
}

criterion_group!(benches, typed, value);
criterion_main!(benches);
