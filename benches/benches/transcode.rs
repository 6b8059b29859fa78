//! Transcoding between JSON and MessagePack without building a tree, on the three standard
//! files.
//!
//! - `json_to_msgpack/*`: sluice piping a `JsonReader` into a `MsgPackWriter` (container
//!   lengths learned by the writer), against serde-transcode from serde_json's deserializer
//!   into rmp-serde's serializer, and against serde_json into a `Value` then rmp-serde.
//!   MB/s of the JSON input.
//! - `msgpack_to_json/*`: sluice piping a `MsgPackReader` into a condensed `JsonWriter`,
//!   against serde-transcode from rmp-serde's deserializer into serde_json's serializer.
//!   MB/s of the MessagePack input (rmp-serde's encoding of the file).
//!
//! Run with `cargo bench -p sluice-benches --bench transcode`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sluice_benches::{BENCH_FILES, corpus};
use sluice_core::pipe;
use sluice_json::{JsonReader, JsonWriter, WriterOptions};
use sluice_msgpack::{MsgPackReader, MsgPackWriter};

fn json_to_msgpack(c: &mut Criterion) {
    for (name, file) in BENCH_FILES {
        let Some(bytes) = corpus(file) else { continue };
        let mut group = c.benchmark_group(format!("json_to_msgpack/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("sluice_pipe", |b| {
            b.iter(|| {
                let mut writer = MsgPackWriter::new(Vec::with_capacity(bytes.len()));
                pipe(&mut JsonReader::from_slice(black_box(&bytes)), &mut writer).unwrap();
                writer.into_inner().unwrap().len()
            });
        });
        group.bench_function("serde_transcode", |b| {
            b.iter(|| {
                let mut out = Vec::with_capacity(bytes.len());
                let mut from = serde_json::Deserializer::from_slice(black_box(&bytes));
                let mut to = rmp_serde::Serializer::new(&mut out);
                serde_transcode::transcode(&mut from, &mut to).unwrap();
                out.len()
            });
        });
        group.bench_function("serde_json_value_rmp_serde", |b| {
            b.iter(|| {
                let value: serde_json::Value = serde_json::from_slice(black_box(&bytes)).unwrap();
                rmp_serde::to_vec(&value).unwrap().len()
            });
        });
        group.finish();
    }
}

fn msgpack_to_json(c: &mut Criterion) {
    for (name, file) in BENCH_FILES {
        let Some(json) = corpus(file) else { continue };
        let value: serde_json::Value = serde_json::from_slice(&json).unwrap();
        let bytes = rmp_serde::to_vec(&value).unwrap();
        let mut group = c.benchmark_group(format!("msgpack_to_json/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("sluice_pipe", |b| {
            b.iter(|| {
                let mut writer =
                    JsonWriter::new(Vec::with_capacity(json.len()), WriterOptions::condensed());
                pipe(
                    &mut MsgPackReader::from_slice(black_box(&bytes)),
                    &mut writer,
                )
                .unwrap();
                writer.into_inner().unwrap().len()
            });
        });
        group.bench_function("serde_transcode", |b| {
            b.iter(|| {
                let mut out = Vec::with_capacity(json.len());
                let mut from = rmp_serde::Deserializer::from_read_ref(black_box(&bytes[..]));
                let mut to = serde_json::Serializer::new(&mut out);
                serde_transcode::transcode(&mut from, &mut to).unwrap();
                out.len()
            });
        });
        group.finish();
    }
}

criterion_group!(benches, json_to_msgpack, msgpack_to_json);
criterion_main!(benches);
