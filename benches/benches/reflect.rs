//! Typed JSON through reflection: `sluice::json::from_str` / `to_string` into derived structs,
//! against serde_json's typed `from_str` / `to_string` into the same structs (serde derive).
//!
//! The shapes follow serde-rs/json-benchmark for canada.json, `citm_catalog.json` and
//! twitter.json; every struct derives both `Reflect` and serde's traits, so both sides fill
//! exactly the same Rust values.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sluice_benches::{BENCH_FILES, corpus};

#[path = "shapes/reflect.rs"]
mod shapes;
use shapes::{canada, citm, twitter};

/// Benchmarks one shape: parse and print with sluice (reflection) and with serde_json.
fn bench_shape<T>(c: &mut Criterion, name: &str, text: &str, same: fn(&T, &T) -> bool)
where
    T: sluice::Typed + serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    // Both sides must build the same value, or the comparison means nothing.
    let ours: T = sluice::json::from_str(text).unwrap_or_else(|e| panic!("{name}: {}", e.render()));
    let theirs: T = serde_json::from_str(text).expect("serde_json reads the file");
    assert!(
        same(&ours, &theirs),
        "{name}: both readers build the same value"
    );
    let printed = sluice::json::to_string(&ours).expect("to_string");
    assert_eq!(
        sluice::json::from_str::<T>(&printed).ok().as_ref(),
        Some(&ours),
        "{name}: output reads back"
    );

    let mut group = c.benchmark_group(format!("reflect_from_str/{name}"));
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("sluice", |b| {
        b.iter(|| sluice::json::from_str::<T>(black_box(text)).expect("parse"));
    });
    group.bench_function("serde_json", |b| {
        b.iter(|| serde_json::from_str::<T>(black_box(text)).expect("parse"));
    });
    group.finish();

    let serde_len = serde_json::to_string(&theirs)
        .expect("serde to_string")
        .len();
    let mut group = c.benchmark_group(format!("reflect_to_string/{name}"));
    group.throughput(Throughput::Bytes(serde_len as u64));
    group.bench_function("sluice", |b| {
        b.iter(|| sluice::json::to_string(black_box(&ours)).expect("print"));
    });
    group.bench_function("serde_json", |b| {
        b.iter(|| serde_json::to_string(black_box(&theirs)).expect("print"));
    });
    group.finish();
}

/// serde_json's default float parsing may be off by one unit in the last place (sluice's is
/// correctly rounded), so canada's coordinates are compared within a relative 1e-15.
fn same_coordinates(a: &canada::Canada, b: &canada::Canada) -> bool {
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-15 * x.abs().max(y.abs());
    a.features.len() == b.features.len()
        && a.features.iter().zip(&b.features).all(|(fa, fb)| {
            fa.properties == fb.properties
                && fa.geometry.coordinates.len() == fb.geometry.coordinates.len()
                && fa
                    .geometry
                    .coordinates
                    .iter()
                    .zip(&fb.geometry.coordinates)
                    .all(|(ra, rb)| {
                        ra.len() == rb.len()
                            && ra
                                .iter()
                                .zip(rb)
                                .all(|(pa, pb)| close(pa.0, pb.0) && close(pa.1, pb.1))
                    })
        })
}

fn reflect(c: &mut Criterion) {
    for (name, file) in BENCH_FILES {
        let Some(bytes) = corpus(file) else { continue };
        let text = String::from_utf8(bytes).expect("UTF-8 corpus");
        match name {
            "canada" => bench_shape::<canada::Canada>(c, name, &text, same_coordinates),
            "citm_catalog" => bench_shape::<citm::CitmCatalog>(c, name, &text, PartialEq::eq),
            "twitter" => bench_shape::<twitter::Twitter>(c, name, &text, PartialEq::eq),
            _ => {}
        }
    }
}

criterion_group!(benches, reflect);
criterion_main!(benches);
