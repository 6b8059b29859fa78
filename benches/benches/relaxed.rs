//! Relaxed JSON: the three standard files rewritten the way people write configuration (a
//! comment line at the top, a `/* ... */` comment after every comma, a trailing comma before
//! every closing bracket; see `relaxed_variant`), read by sluice with
//! `JsonOptions::relaxed()` and by the json5 crate.
//!
//! - `relaxed_read/*`: sluice reading every token (the `read/*` scan) and sluice building a
//!   `Value`, against json5 into `serde_json::Value` (json5 has no lighter mode).
//! - `json5_read/*`: the same on the JSON5 rewrite of that file (keys that are identifiers
//!   unquoted, other strings in single quotes; see `json5_variant`), read by sluice with
//!   `JsonOptions::json5()`.
//!
//! Run with `cargo bench -p sluice-benches --bench relaxed`; numbers are MB/s of the
//! rewritten file (about a third larger than the original).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sluice_benches::{BENCH_FILES, Rewrite, corpus, json5_variant, relaxed_variant, scan};
use sluice_core::{ValueWriter, pipe_value};
use sluice_json::{JsonOptions, JsonReader};

fn relaxed(c: &mut Criterion) {
    let variants: [(&str, Rewrite, JsonOptions); 2] = [
        ("relaxed_read", relaxed_variant, JsonOptions::relaxed()),
        ("json5_read", json5_variant, JsonOptions::json5()),
    ];
    for (group_name, rewrite, options) in variants {
        for (name, file) in BENCH_FILES {
            let Some(original) = corpus(file) else {
                continue;
            };
            let bytes = rewrite(&original);
            let text = std::str::from_utf8(&bytes).expect("the rewritten file is UTF-8");
            let mut group = c.benchmark_group(format!("{group_name}/{name}"));
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            // json5 is much slower than the others: fewer samples keep the run short.
            group.sample_size(10);
            group.bench_function("sluice_scan", |b| {
                b.iter(|| {
                    let reader = JsonReader::from_slice(black_box(&bytes));
                    scan(&mut reader.with_options(options.clone())).unwrap()
                });
            });
            group.bench_function("sluice_value", |b| {
                b.iter(|| {
                    let reader = JsonReader::from_slice(black_box(&bytes));
                    let mut writer = ValueWriter::new();
                    pipe_value(&mut reader.with_options(options.clone()), &mut writer).unwrap();
                    writer.into_value().unwrap()
                });
            });
            group.bench_function("json5_serde_json_value", |b| {
                b.iter(|| json5::from_str::<serde_json::Value>(black_box(text)).unwrap());
            });
            group.finish();
        }
    }
}

criterion_group!(benches, relaxed);
criterion_main!(benches);
