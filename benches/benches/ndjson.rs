//! NDJSON ingestion on the corpus samples (`ndjson/wikipedia-articles.ndjson`,
//! `ndjson/nginxplus-status.ndjson`).
//!
//! - `ndjson_typed/wikipedia`: every record into a derived struct (url, title, body) on one
//!   thread: `sluice::ndjson::iter` (the bytes as an `io::Read`) and
//!   `sluice::ndjson::iter_slice` (in place) against serde_json's `StreamDeserializer`.
//! - `ndjson_typed_threads/wikipedia`: the same records through `sluice::ndjson::par_collect`
//!   with 1 and 2 worker threads (the scaling of the parallel reader; no peer).
//! - `ndjson_value/nginx`: every record (deeply nested server statistics) into an owned tree:
//!   sluice's `Value` against `serde_json::Value`.
//! - `ndjson_write/nginx`: the records of the same sample, read beforehand, written one per
//!   line into a `Vec<u8>`: through `NdjsonWriter` from tokens whose numbers are typed (`u64`,
//!   `i64`, `f64`, as native data or MessagePack give them: `sluice_ndjson_writer_typed`) and
//!   from the tokens as read, numbers as text (`sluice_ndjson_writer_number_text`); the typed
//!   tokens through one condensed `JsonWriter` with `multiple_values` and `final_newline`,
//!   the same bytes (`sluice_json_writer_lines`: what the NDJSON writer adds to it); against
//!   serde_json's `to_writer` of each record's `serde_json::Value` plus a line feed.
//!
//! Run with `cargo bench -p sluice-benches --bench ndjson`; numbers are MB/s of the file.
//! For a 1 GiB file and peak memory, see `benches/ndjson-scale`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sluice::Reflect;
use sluice::ndjson::ParallelOptions;
use sluice_benches::corpus;
use sluice_core::{Token, ValueWriter, pipe_value};
use sluice_json::{JsonOptions, JsonReader, JsonWriter, NdjsonReader, NdjsonWriter, WriterOptions};

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
    group.bench_function("sluice_iter_slice", |b| {
        b.iter(|| {
            sluice::ndjson::iter_slice::<Article>(black_box(&bytes))
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

fn write(c: &mut Criterion) {
    let Some(bytes) = corpus("ndjson/nginxplus-status.ndjson") else {
        return;
    };
    let mut reader = JsonReader::from_slice(&bytes).with_options(JsonOptions::ndjson());
    let text_tokens = Token::read_all(&mut reader).unwrap();
    let typed_tokens = sluice_benches::typed_numbers(&text_tokens);
    let values: Vec<serde_json::Value> = serde_json::Deserializer::from_slice(&bytes)
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap();

    let ndjson = |tokens: &[Token]| {
        let mut writer = NdjsonWriter::new(Vec::with_capacity(bytes.len()));
        Token::write_all(tokens, &mut writer).unwrap();
        writer.into_inner().unwrap()
    };
    let json_lines = |tokens: &[Token]| {
        let options = WriterOptions {
            multiple_values: true,
            final_newline: true,
            ..WriterOptions::condensed()
        };
        let mut writer = JsonWriter::new(Vec::with_capacity(bytes.len()), options);
        Token::write_all(tokens, &mut writer).unwrap();
        writer.into_inner().unwrap()
    };
    let serde = |values: &[serde_json::Value]| {
        let mut out = Vec::with_capacity(bytes.len());
        for value in values {
            serde_json::to_writer(&mut out, value).unwrap();
            out.push(b'\n');
        }
        out
    };
    // The sample is condensed, one record a line, with integers only: the sluice contenders
    // give it back byte for byte, serde_json with the keys of each object sorted (its map
    // without `preserve_order`), as many bytes.
    assert_eq!(ndjson(&typed_tokens), bytes);
    assert_eq!(ndjson(&text_tokens), bytes);
    assert_eq!(json_lines(&typed_tokens), bytes);
    assert_eq!(serde(&values).len(), bytes.len());

    let mut group = c.benchmark_group("ndjson_write/nginx");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("sluice_ndjson_writer_typed", |b| {
        b.iter(|| ndjson(black_box(&typed_tokens)).len());
    });
    group.bench_function("sluice_ndjson_writer_number_text", |b| {
        b.iter(|| ndjson(black_box(&text_tokens)).len());
    });
    group.bench_function("sluice_json_writer_lines", |b| {
        b.iter(|| json_lines(black_box(&typed_tokens)).len());
    });
    group.bench_function("serde_json_to_writer", |b| {
        b.iter(|| serde(black_box(&values)).len());
    });
    group.finish();
}

criterion_group!(benches, typed, value, write);
criterion_main!(benches);
