//! Writes a large NDJSON file by repeating the records of the NDJSON corpus samples, for the
//! ingestion benchmarks:
//! `cargo run --release -p sluice-benches --bin gen_ndjson -- OUT [MiB] [both|wiki|nginx]`.

use std::io::{BufWriter, Write};

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let Some(out) = args.next() else {
        eprintln!("usage: gen_ndjson OUT [MiB, default 1024] [both|wiki|nginx, default both]");
        std::process::exit(2);
    };
    let mebibytes: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1024);
    let target = mebibytes * 1024 * 1024;
    let samples: &[&str] = match args.next().as_deref() {
        None | Some("both") => &[
            "ndjson/nginxplus-status.ndjson",
            "ndjson/wikipedia-articles.ndjson",
        ],
        Some("wiki") => &["ndjson/wikipedia-articles.ndjson"],
        Some("nginx") => &["ndjson/nginxplus-status.ndjson"],
        Some(other) => {
            eprintln!("unknown sample set {other:?}: use both, wiki or nginx");
            std::process::exit(2);
        }
    };
    let mut lines = Vec::new();
    for name in samples {
        let Some(bytes) = sluice_benches::corpus(name) else {
            eprintln!("corpus file {name} not found");
            std::process::exit(2);
        };
        lines.extend(
            bytes
                .split(|&b| b == b'\n')
                .filter(|line| !line.is_empty())
                .map(<[u8]>::to_vec),
        );
    }
    let mut writer = BufWriter::with_capacity(1 << 20, std::fs::File::create(&out)?);
    let mut written = 0u64;
    // Cycle through the samples so every record shape appears throughout the file.
    'fill: loop {
        for line in &lines {
            writer.write_all(line)?;
            writer.write_all(b"\n")?;
            written += line.len() as u64 + 1;
            if written >= target {
                break 'fill;
            }
        }
    }
    writer.flush()?;
    eprintln!("wrote {written} bytes to {out}");
    Ok(())
}
