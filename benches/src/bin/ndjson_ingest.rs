//! Typed NDJSON ingestion across threads, for `benches/ndjson-scale`:
//! `ndjson_ingest FILE THREADS` reads every record of a Wikipedia-articles NDJSON file
//! (`gen_ndjson OUT MiB wiki`) into a derived `Article` with `sluice::ndjson::par_for_each`, and prints
//! records, bytes, seconds and MB/s.

use std::time::Instant;

use sluice::Reflect;
use sluice::ndjson::{ParallelOptions, par_for_each};

/// One record of the Wikipedia sample.
#[derive(Reflect, Debug, Default)]
struct Article {
    url: String,
    title: String,
    body: String,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(threads)) = (args.next(), args.next().and_then(|t| t.parse().ok()))
    else {
        eprintln!("usage: ndjson_ingest FILE THREADS");
        std::process::exit(2);
    };
    let file = match std::fs::File::open(&path) {
        Ok(file) => file,
        Err(err) => {
            eprintln!("cannot open {path}: {err}");
            std::process::exit(2);
        }
    };
    let options = ParallelOptions {
        jobs: threads,
        ..ParallelOptions::default()
    };
    let started = Instant::now();
    let mut body_bytes = 0usize;
    let result = par_for_each(file, &options, |article: Article| {
        body_bytes += article.body.len();
        Ok(())
    });
    let seconds = started.elapsed().as_secs_f64();
    match result {
        Ok(summary) => {
            #[allow(clippy::cast_precision_loss)]
            let mb_per_s = summary.bytes as f64 / seconds / 1e6;
            println!(
                "records {} bytes {} body_bytes {body_bytes} threads {threads} seconds {seconds:.2} MB/s {mb_per_s:.1}",
                summary.records, summary.bytes
            );
        }
        Err(err) => {
            eprintln!("{}", err.render());
            std::process::exit(1);
        }
    }
}
