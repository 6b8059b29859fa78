//! What a handler table costs on plain data: `citm_catalog.json` read into derived structs
//! with a bare `pipe` into a `PropertyWriter`, with the built-in JSON table, and with the same
//! table plus 50 rules whose predicates never match. Predicate answers are cached per type, so
//! the 50 rules cost one evaluation per type and call, not one per value.
//!
//! The relaxed table (with the coercion rules, which claim every scalar for some inputs) runs
//! the per-value dispatch loop; it is measured with and without the 50 rules too. Writing is
//! compared the same way: a bare pipe from a `PropertyReader` against the JSON serializer.
//!
//! The facade's one-line helpers are compared with a bare pipe on `canada`, `citm_catalog` and
//! `twitter`, reading and writing.
//!
//! Besides criterion's figures, the bench prints paired comparisons (`paired ...` lines): the
//! two sides run alternately, round by round, so a busy machine slows both alike.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sluice::json::{JsonOptions, JsonReader, JsonWriter, SliceInput, WriterOptions};
use sluice::reflect::handlers::{Deserializer, EntrySet, builtin};
use sluice::{PropertyReader, PropertyWriter, TypeRegistry, Typed};
use sluice_benches::{BENCH_FILES, corpus};

#[path = "shapes/reflect.rs"]
mod shapes;
use shapes::{canada, citm, twitter};

/// Adds `count` rules whose predicates never match (they look at the type name, as user
/// predicates often do).
fn with_unused_rules(mut table: Deserializer, count: usize) -> Deserializer {
    for index in 0..count {
        let name = format!("unused {index}");
        let wanted = format!("NoSuchType{index}");
        table.add_last(
            name,
            move |info, _| info.name() == wanted,
            EntrySet::ALL,
            |ctx| ctx.reader.skip(),
        );
    }
    table
}

fn read(table: &Deserializer, registry: &TypeRegistry, text: &str) -> citm::CitmCatalog {
    let mut reader = JsonReader::new(SliceInput::new(text.as_bytes()), JsonOptions::default());
    table.deserialize(&mut reader, registry).expect("citm")
}

fn handlers(c: &mut Criterion) {
    let Some(bytes) = corpus("bench/citm_catalog.json") else {
        return;
    };
    let text = String::from_utf8(bytes).expect("UTF-8 corpus");
    let registry = TypeRegistry::new();
    let json = builtin::json();
    let json_50 = with_unused_rules(builtin::json(), 50);
    let relaxed = builtin::json_relaxed();
    let relaxed_50 = with_unused_rules(builtin::json_relaxed(), 50);

    // Every way must build the same value.
    let mut bare = citm::CitmCatalog::reflect_default();
    let mut reader = JsonReader::new(SliceInput::new(text.as_bytes()), JsonOptions::default());
    sluice::pipe(&mut reader, &mut PropertyWriter::new(&mut bare)).expect("bare pipe");
    for table in [&json, &json_50, &relaxed, &relaxed_50] {
        assert_eq!(read(table, &registry, &text), bare);
    }

    let mut group = c.benchmark_group("handlers/citm_catalog");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("bare_pipe", |b| {
        b.iter(|| {
            let mut value = citm::CitmCatalog::reflect_default();
            let input = black_box(text.as_bytes());
            let mut reader = JsonReader::new(SliceInput::new(input), JsonOptions::default());
            sluice::pipe(&mut reader, &mut PropertyWriter::new(&mut value)).expect("pipe");
            value
        });
    });
    for (name, table) in [
        ("json", &json),
        ("json+50_unused_rules", &json_50),
        ("json_relaxed", &relaxed),
        ("json_relaxed+50_unused_rules", &relaxed_50),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| read(table, &registry, black_box(&text)));
        });
    }
    group.finish();

    // The machine may be busy: criterion runs one function after the other, so a load change
    // between them shows as a difference. The paired runs below alternate the two sides
    // round by round and compare each round's times, which cancels slow drifts in load.
    let bare = || {
        let mut value = citm::CitmCatalog::reflect_default();
        let mut reader = JsonReader::new(SliceInput::new(text.as_bytes()), JsonOptions::default());
        sluice::pipe(&mut reader, &mut PropertyWriter::new(&mut value)).expect("pipe");
        value
    };
    paired("citm_catalog: bare_pipe", &|| drop(bare()), "json", &|| {
        drop(read(&json, &registry, &text));
    });
    paired(
        "citm_catalog: json",
        &|| drop(read(&json, &registry, &text)),
        "json+50_unused_rules",
        &|| drop(read(&json_50, &registry, &text)),
    );
    paired(
        "citm_catalog: json_relaxed",
        &|| drop(read(&relaxed, &registry, &text)),
        "json_relaxed+50_unused_rules",
        &|| drop(read(&relaxed_50, &registry, &text)),
    );
    // A small document of the same type: what a call costs beyond the data (the table works
    // out which types are plain once per call).
    let small = concat!(
        r#"{"areaNames": {"1": "a"}, "audienceSubCategoryNames": {}, "blockNames": {}, "#,
        r#""events": {}, "performances": [], "seatCategoryNames": {}, "subTopicNames": {}, "#,
        r#""subjectNames": {}, "topicNames": {}, "topicSubTopics": {}, "venueNames": {}}"#
    );
    let small_bare = || {
        let mut value = citm::CitmCatalog::reflect_default();
        let mut reader = JsonReader::new(SliceInput::new(small.as_bytes()), JsonOptions::default());
        sluice::pipe(&mut reader, &mut PropertyWriter::new(&mut value)).expect("pipe");
        value
    };
    paired(
        "small citm_catalog document x1000: bare_pipe",
        &|| {
            for _ in 0..1000 {
                drop(black_box(small_bare()));
            }
        },
        "json",
        &|| {
            for _ in 0..1000 {
                drop(black_box(read(&json, &registry, small)));
            }
        },
    );
    // Writing: a bare pipe from a PropertyReader against the built-in JSON serializer.
    let value = bare();
    let serializer = builtin::json_serializer();
    paired(
        "citm_catalog: write_bare_pipe",
        &|| {
            let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
            sluice::pipe(&mut PropertyReader::new(&value), &mut writer).expect("write");
            drop(black_box(writer.into_string()));
        },
        "write_json_serializer",
        &|| {
            let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
            serializer
                .serialize(&value, &mut writer, &registry)
                .expect("write");
            drop(black_box(writer.into_string()));
        },
    );
}

/// The facade's one-line helpers (which run the built-in tables) against a bare pipe, reading
/// and writing, on one of the benchmark files.
fn facade_against_bare_pipe<T: Typed>(name: &str, text: &str) {
    let bare_read = || {
        let mut value = T::reflect_default();
        let mut reader = JsonReader::new(SliceInput::new(text.as_bytes()), JsonOptions::default());
        sluice::pipe(&mut reader, &mut PropertyWriter::new(&mut value)).expect("pipe");
        value
    };
    paired(
        &format!("{name}: bare_pipe_read"),
        &|| drop(black_box(bare_read())),
        "json::from_str",
        &|| {
            drop(black_box(
                sluice::json::from_str::<T>(text).expect("from_str"),
            ));
        },
    );
    let value = bare_read();
    paired(
        &format!("{name}: bare_pipe_write"),
        &|| {
            let mut writer = JsonWriter::new(Vec::with_capacity(128), WriterOptions::condensed());
            sluice::pipe(&mut PropertyReader::new(&value), &mut writer).expect("write");
            drop(black_box(writer.into_string()));
        },
        "json::to_string",
        &|| {
            drop(black_box(
                sluice::json::to_string(&value).expect("to_string"),
            ));
        },
    );
}

fn facade(_: &mut Criterion) {
    for (name, file) in BENCH_FILES {
        let Some(bytes) = corpus(file) else { continue };
        let text = String::from_utf8(bytes).expect("UTF-8 corpus");
        match name {
            "canada" => facade_against_bare_pipe::<canada::Canada>(name, &text),
            "citm_catalog" => facade_against_bare_pipe::<citm::CitmCatalog>(name, &text),
            "twitter" => facade_against_bare_pipe::<twitter::Twitter>(name, &text),
            _ => {}
        }
    }
}

/// Runs `first` and `second` alternately (60 rounds, the order switching every round) and
/// prints the median time of each and the median of the per-round ratios `second / first`.
fn paired(first_name: &str, first: &dyn Fn(), second_name: &str, second: &dyn Fn()) {
    let time = |run: &dyn Fn()| {
        let start = Instant::now();
        run();
        start.elapsed().as_secs_f64()
    };
    let (mut firsts, mut seconds, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..60 {
        let (a, b) = if round % 2 == 0 {
            let a = time(first);
            (a, time(second))
        } else {
            let b = time(second);
            (time(first), b)
        };
        firsts.push(a);
        seconds.push(b);
        ratios.push(b / a);
    }
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    println!(
        "paired {first_name} {:.3} ms, {second_name} {:.3} ms, \
         median ratio {:.4} (60 alternating rounds)",
        median(&mut firsts) * 1e3,
        median(&mut seconds) * 1e3,
        median(&mut ratios),
    );
}

criterion_group!(benches, handlers, facade);
criterion_main!(benches);
