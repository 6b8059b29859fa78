//! Turns criterion's estimates into `benches/RESULTS.md`: one table per benchmark group with
//! MB/s per contender and the ratio of the best sluice contender to the best peer.
//!
//! Conventions the benches follow: a group is named `case/input` (`read/canada`) and has a
//! byte throughput; contenders whose name starts with `sluice` are ours, every other one is a
//! peer. Run through `benches/report`, which runs the benchmarks first.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// One measured contender.
struct Measurement {
    contender: String,
    mb_per_s: f64,
    /// Relative width of criterion's 95% confidence interval of the mean.
    spread: f64,
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

/// Every `new/benchmark.json` below `dir`.
fn find_benchmarks(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "new") {
                let file = path.join("benchmark.json");
                if file.is_file() {
                    found.push(file);
                }
            } else {
                find_benchmarks(&path, found);
            }
        }
    }
}

fn collect(criterion_dir: &Path) -> BTreeMap<String, Vec<Measurement>> {
    let mut files = Vec::new();
    find_benchmarks(criterion_dir, &mut files);
    let mut groups: BTreeMap<String, Vec<Measurement>> = BTreeMap::new();
    for file in files {
        let Some(benchmark) = read_json(&file) else {
            continue;
        };
        let Some(estimates) = read_json(&file.with_file_name("estimates.json")) else {
            continue;
        };
        let bytes = benchmark["throughput"]["Bytes"]
            .as_f64()
            .or_else(|| benchmark["throughput"]["BytesDecimal"].as_f64());
        let mean_ns = estimates["mean"]["point_estimate"].as_f64();
        let (Some(bytes), Some(mean_ns)) = (bytes, mean_ns) else {
            continue;
        };
        let low = estimates["mean"]["confidence_interval"]["lower_bound"]
            .as_f64()
            .unwrap_or(mean_ns);
        let high = estimates["mean"]["confidence_interval"]["upper_bound"]
            .as_f64()
            .unwrap_or(mean_ns);
        let group = benchmark["group_id"].as_str().unwrap_or("?").to_owned();
        let mut contender = benchmark["function_id"].as_str().unwrap_or("?").to_owned();
        if let Some(value) = benchmark["value_str"].as_str() {
            let _ = write!(contender, "/{value}");
        }
        groups.entry(group).or_default().push(Measurement {
            contender,
            mb_per_s: bytes / mean_ns * 1e3,
            spread: (high - low) / mean_ns,
        });
    }
    for measurements in groups.values_mut() {
        measurements.sort_by(|a, b| b.mb_per_s.total_cmp(&a.mb_per_s));
    }
    groups
}

fn command_output(program: &str, args: &[&str]) -> String {
    std::process::Command::new(program)
        .args(args)
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn is_ours(contender: &str) -> bool {
    contender.starts_with("sluice")
}

/// Contenders of ours that do only part of the job (`sluice_json_reader_only` reads the
/// tokens a serde bridge would see, without the bridge; `sluice_slice_number_text_only`
/// leaves the numbers unconverted): shown, never the summary's "best".
fn is_partial(contender: &str) -> bool {
    contender.ends_with("_only")
}

fn render(groups: &BTreeMap<String, Vec<Measurement>>, command: &str, notes: &str) -> String {
    let mut out = String::from("# Benchmark results\n\n");
    let _ = writeln!(
        out,
        "- CPU: {} ({} cores)",
        cpu_model(),
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    );
    let _ = writeln!(out, "- rustc: {}", command_output("rustc", &["--version"]));
    let _ = writeln!(out, "- command: `{command}`");
    let _ = writeln!(
        out,
        "- MB/s is 10^6 bytes of input per second (criterion's mean); ratio is the best sluice contender over the best peer in the same run (above 1.00: sluice is faster)."
    );
    let _ = writeln!(
        out,
        "- ± is the width of criterion's 95% confidence interval of the mean; rows above 5% are noisy (the machine has 2 cores shared with other work).\n"
    );
    let _ = writeln!(
        out,
        "- Historical reference, from another machine and another library (not comparable run for run): DataConfig's published figures are 59–73 MB/s for canada JSON deserialization and 78–99 MB/s for its corpus JSON deserialization.\n"
    );
    if !notes.is_empty() {
        out.push_str(notes);
        out.push('\n');
    }
    out.push_str("## Summary\n\n| group | best sluice | MB/s | best peer | MB/s | ratio |\n|---|---|---:|---|---:|---:|\n");
    for (group, measurements) in groups {
        let ours = measurements
            .iter()
            .find(|m| is_ours(&m.contender) && !is_partial(&m.contender));
        let peer = measurements.iter().find(|m| !is_ours(&m.contender));
        match (ours, peer) {
            (Some(ours), Some(peer)) => {
                let _ = writeln!(
                    out,
                    "| {group} | {} | {:.1} | {} | {:.1} | {:.2} |",
                    ours.contender,
                    ours.mb_per_s,
                    peer.contender,
                    peer.mb_per_s,
                    ours.mb_per_s / peer.mb_per_s
                );
            }
            (Some(ours), None) => {
                let _ = writeln!(
                    out,
                    "| {group} | {} | {:.1} | – | – | – |",
                    ours.contender, ours.mb_per_s
                );
            }
            _ => {}
        }
    }
    out.push_str("\n## Every group\n");
    for (group, measurements) in groups {
        let best_peer = measurements
            .iter()
            .find(|m| !is_ours(&m.contender))
            .map(|m| m.mb_per_s);
        let _ = writeln!(
            out,
            "\n### {group}\n\n| contender | MB/s | ± | vs best peer |\n|---|---:|---:|---:|"
        );
        for m in measurements {
            let ratio = best_peer.map_or("–".to_owned(), |p| format!("{:.2}", m.mb_per_s / p));
            let _ = writeln!(
                out,
                "| {} | {:.1} | {:.1}% | {ratio} |",
                m.contender,
                m.mb_per_s,
                m.spread * 100.0
            );
        }
    }
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let criterion_dir = PathBuf::from(args.next().unwrap_or_else(|| "target/criterion".into()));
    let output = PathBuf::from(args.next().unwrap_or_else(|| "benches/RESULTS.md".into()));
    let command = std::env::var("SLUICE_BENCH_COMMAND").unwrap_or_else(|_| "benches/report".into());
    let notes = std::env::var("SLUICE_BENCH_NOTES_FILE")
        .ok()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_default();
    let groups = collect(&criterion_dir);
    if groups.is_empty() {
        eprintln!(
            "no criterion results with a byte throughput under {}",
            criterion_dir.display()
        );
        std::process::exit(1);
    }
    let text = render(&groups, &command, &notes);
    if let Err(err) = std::fs::write(&output, text) {
        eprintln!("cannot write {}: {err}", output.display());
        std::process::exit(1);
    }
    eprintln!("wrote {} ({} groups)", output.display(), groups.len());
}
