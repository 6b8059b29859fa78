//! A driver for instruction-count profiles (callgrind) of typed JSON: runs one operation on
//! one bench file a given number of times, with no timing harness around it.
//!
//! ```text
//! cargo bench -p sluice-benches --bench reflect_profile --no-run
//! valgrind --tool=callgrind target/release/deps/reflect_profile-<hash> canada from 3
//! ```
//!
//! Operations: `from` / `to` (sluice through reflection), `serde_from` / `serde_to`
//! (serde_json), `bridge_from` (the serde bridge, `sluice_serde::from_json_str`). The value
//! written by `to` and `serde_to` is read once before the loop, so the cost of one operation
//! is the difference between runs with `N` and `N - 1` repetitions (or `(N3 - N1) / 2`).

use std::hint::black_box;
use std::process::ExitCode;

use sluice_benches::corpus;

#[path = "shapes/reflect.rs"]
mod shapes;
use shapes::{canada, citm, twitter};

fn run<T>(text: &str, operation: &str, times: usize) -> Result<(), String>
where
    T: sluice::Typed + serde::Serialize + serde::de::DeserializeOwned,
{
    let value: T = sluice::json::from_str(text).map_err(|e| e.render())?;
    for _ in 0..times {
        match operation {
            "from" => drop(black_box(
                sluice::json::from_str::<T>(black_box(text)).map_err(|e| e.render())?,
            )),
            "to" => drop(black_box(
                sluice::json::to_string(black_box(&value)).map_err(|e| e.render())?,
            )),
            "serde_from" => drop(black_box(
                serde_json::from_str::<T>(black_box(text)).map_err(|e| e.to_string())?,
            )),
            "serde_to" => drop(black_box(
                serde_json::to_string(black_box(&value)).map_err(|e| e.to_string())?,
            )),
            "bridge_from" => drop(black_box(
                sluice_serde::from_json_str::<T>(black_box(text)).map_err(|e| e.to_string())?,
            )),
            other => return Err(format!("unknown operation {other}")),
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(file), Some(operation), Some(times)) = (args.get(1), args.get(2), args.get(3)) else {
        eprintln!(
            "usage: reflect_profile canada|citm_catalog|twitter from|to|serde_from|serde_to|bridge_from N"
        );
        return ExitCode::FAILURE;
    };
    let Ok(times) = times.parse::<usize>() else {
        eprintln!("N must be a number");
        return ExitCode::FAILURE;
    };
    let Some(bytes) = corpus(&format!("bench/{file}.json")) else {
        eprintln!("bench/{file}.json is not in the corpus");
        return ExitCode::FAILURE;
    };
    let Ok(text) = String::from_utf8(bytes) else {
        eprintln!("bench/{file}.json is not UTF-8");
        return ExitCode::FAILURE;
    };
    let result = match file.as_str() {
        "canada" => run::<canada::Canada>(&text, operation, times),
        "citm_catalog" => run::<citm::CitmCatalog>(&text, operation, times),
        "twitter" => run::<twitter::Twitter>(&text, operation, times),
        other => Err(format!("no shapes for {other}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}
