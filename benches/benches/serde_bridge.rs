//! The serde bridge against serde_json, typed: the three standard JSON files read into Rust
//! structs shaped like the documents (as in the serde-rs json-benchmark), through
//! `sluice_serde::from_json_str` (a `JsonReader` driving serde's derived visitors) and
//! through `serde_json::from_str`; and the same structs written back with
//! `sluice_serde::to_json_string` and `serde_json::to_string`.
//!
//! Also measured, without a peer: the relaxed variant of each file (comments after every
//! comma, trailing commas) read with `from_json_str_relaxed`, which serde_json cannot read.
//!
//! Run: `cargo bench -p sluice-benches --bench serde_bridge`; every group reports MB/s.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::Serialize;
use serde::de::DeserializeOwned;
use sluice_benches::{corpus, relaxed_variant, scan};
use sluice_json::JsonReader;

#[path = "shapes/serde.rs"]
mod shapes;

/// Loads a bench file as text, or `None` when the corpus is missing.
fn text(file: &str) -> Option<String> {
    corpus(file).map(|bytes| String::from_utf8(bytes).expect("bench files are UTF-8"))
}

/// Whether two trees are equal, floats allowed to differ by one unit in the last place.
fn agree(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() && y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            x.to_bits().abs_diff(y.to_bits()) <= 1
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| agree(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, x)| y.get(key).is_some_and(|y| agree(x, y)))
        }
        _ => a == b,
    }
}

/// Reading and writing one file as `T`, through the bridge and through serde_json.
fn bench_file<T>(c: &mut Criterion, name: &str, file: &str)
where
    T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug,
{
    let Some(text) = text(file) else { return };

    // Both sides must read the same value, or the comparison means nothing. Floats may
    // differ in the last bit: serde_json's default float parsing is not correctly rounded
    // (about one canada.json coordinate in ten is one ulp off), sluice's is.
    let ours: T = sluice_serde::from_json_str(&text).expect("the bridge reads the file");
    let theirs: T = serde_json::from_str(&text).expect("serde_json reads the file");
    let (ours_tree, theirs_tree) = (
        serde_json::to_value(&ours).expect("tree"),
        serde_json::to_value(&theirs).expect("tree"),
    );
    assert!(
        agree(&ours_tree, &theirs_tree),
        "{name}: the bridge and serde_json disagree"
    );

    let mut group = c.benchmark_group(format!("serde_from_str/{name}"));
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("sluice_serde", |b| {
        b.iter(|| sluice_serde::from_json_str::<T>(black_box(&text)).unwrap());
    });
    group.bench_function("serde_json", |b| {
        b.iter(|| serde_json::from_str::<T>(black_box(&text)).unwrap());
    });
    // For reference: the JsonReader alone, every token read and every number parsed, with
    // no serde at all. The bridge cannot be faster than this.
    group.bench_function("sluice_json_reader_only", |b| {
        b.iter(|| scan(&mut JsonReader::from_str(black_box(&text))).unwrap());
    });
    group.finish();

    let relaxed = String::from_utf8(relaxed_variant(text.as_bytes())).expect("still UTF-8");
    let from_relaxed: T =
        sluice_serde::from_json_str_relaxed(&relaxed).expect("the bridge reads relaxed JSON");
    assert_eq!(
        from_relaxed, ours,
        "{name}: relaxed variant reads differently"
    );
    let mut group = c.benchmark_group(format!("serde_from_str_relaxed/{name}"));
    group.throughput(Throughput::Bytes(relaxed.len() as u64));
    group.bench_function("sluice_serde", |b| {
        b.iter(|| sluice_serde::from_json_str_relaxed::<T>(black_box(&relaxed)).unwrap());
    });
    group.finish();

    let written = serde_json::to_string(&theirs).expect("serde_json writes the value");
    assert_eq!(
        sluice_serde::to_json_string(&theirs).expect("the bridge writes the value"),
        written,
        "{name}: the bridge and serde_json write different text for the same value"
    );
    let mut group = c.benchmark_group(format!("serde_to_string/{name}"));
    group.throughput(Throughput::Bytes(written.len() as u64));
    group.bench_function("sluice_serde", |b| {
        b.iter(|| sluice_serde::to_json_string(black_box(&ours)).unwrap());
    });
    group.bench_function("serde_json", |b| {
        b.iter(|| serde_json::to_string(black_box(&theirs)).unwrap());
    });
    group.finish();
}

fn serde_bridge(c: &mut Criterion) {
    bench_file::<shapes::Canada>(c, "canada", "bench/canada.json");
    bench_file::<shapes::CitmCatalog>(c, "citm_catalog", "bench/citm_catalog.json");
    bench_file::<shapes::Twitter>(c, "twitter", "bench/twitter.json");
}

criterion_group!(benches, serde_bridge);
criterion_main!(benches);
