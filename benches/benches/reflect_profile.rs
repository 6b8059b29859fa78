//! A driver for instruction-count profiles (callgrind) of typed JSON: runs one operation on
//! one bench file a given number of times, with no timing harness around it.
//!
//! ```text
//! cargo bench -p sluice-benches --bench reflect_profile --no-run
//! valgrind --tool=callgrind target/release/deps/reflect_profile-<hash> canada from 3
//! ```
//!
//! Typed operations: `from` / `to` (sluice through reflection), `serde_from` / `serde_to`
//! (serde_json), `bridge_from` (the serde bridge, `sluice_serde::from_json_str`).
//! Untyped operations: `scan` / `scan_io` (every token through a slice or `io::Read`, as the
//! `json` bench reads), `scan_last_wins` (the slice scan without duplicate-key checks),
//! `scan_two_interleaved` (two such scans of the file, a token of each in turn, see
//! `sluice_benches::scan_interleaved`), `scan_number_text` (that scan with numbers read as
//! text, not converted), `scan_relaxed` (the slice scan with `JsonOptions::relaxed()`, as the
//! `relaxed` bench reads), `scan_json5` (the same with `JsonOptions::json5()`, for the
//! `_json5` files),
//! `serde_ignored` (serde_json into `IgnoredAny`), `serde_every_token` (serde_json doing
//! the scan's work, see `sluice_benches::serde_every_token`), `write_condensed` /
//! `write_pretty` (a pre-read token stream through `JsonWriter`), `write_condensed_checked` /
//! `write_pretty_checked` (the same with `reject_duplicate_keys`), `write_condensed_typed` /
//! `write_ndjson_typed` (those tokens with typed numbers through a condensed `JsonWriter` and
//! through `NdjsonWriter`, the file as one record), `serde_write` /
//! `serde_write_pretty` (serde_json `Value` to bytes), `msgpack_write` (the token stream
//! through `MsgPackWriter`), `rmp_write` (rmp-serde writing the `serde_json::Value`),
//! `msgpack_read` / `msgpack_read_io` (every token of the MessagePack encoding, through a
//! slice or the same bytes as an `io::Read`). On the file `wikipedia` (the
//! NDJSON sample `ndjson/wikipedia-articles.ndjson`, as the `ndjson_typed` bench reads it):
//! `ndjson_iter` (`sluice::ndjson::iter` into a struct of `url`, `title` and `body` strings),
//! `ndjson_iter_slice` / `ndjson_iter_str` (the same through `sluice::ndjson::iter_slice`, and
//! through `sluice::ndjson::iter_str`, the file checked as UTF-8 before the repetitions)
//! and `serde_ndjson_stream` (serde_json's `StreamDeserializer` into the same struct). The
//! file `large_object` is `sluice_benches::large_object(200_000)`, as the `json` bench's
//! `large_object` group reads it, for the untyped operations. The value
//! written by `to` and `serde_to` is read once before the loop, so the cost of one operation
//! is the difference between runs with `N` and `N - 1` repetitions (or `(N3 - N1) / 2`).
//!
//! With the environment variable `SLUICE_PROFILE_FASTEST` set, the driver also prints the
//! time of its fastest repetition to standard error (`fastest <nanoseconds>`), which
//! `benches/ab-time` compares.

use std::hint::black_box;
use std::process::ExitCode;

use sluice_benches::corpus;

#[path = "shapes/reflect.rs"]
mod shapes;
use shapes::{canada, citm, twitter};

#[path = "shapes/serde.rs"]
mod plain;

/// Untyped operations; `Ok(false)` when `operation` is not one of them.
fn run_untyped(text: &str, operation: &str, times: usize) -> Result<bool, String> {
    use sluice_core::Token;
    use sluice_json::{JsonReader, JsonWriter, NdjsonWriter, WriterOptions};
    use sluice_msgpack::{MsgPackReader, MsgPackWriter};
    let bytes = text.as_bytes();
    // JSON5 options read the standard files as strict ones do, and read the derived files
    // too; serde_json gets the same data written as strict JSON.
    let tokens = Token::read_all(
        &mut JsonReader::from_slice(bytes).with_options(sluice_json::JsonOptions::json5()),
    )
    .map_err(|e| e.render())?;
    let strict = {
        let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
        Token::write_all(&tokens, &mut writer).map_err(|e| e.render())?;
        writer.into_inner().map_err(|e| e.render())?
    };
    let value: serde_json::Value = serde_json::from_slice(&strict).map_err(|e| e.to_string())?;
    let packed = rmp_serde::to_vec(&value).map_err(|e| e.to_string())?;
    // As the msgpack bench writes: the tokens read from the encoding, lengths known.
    let packed_tokens =
        Token::read_all(&mut MsgPackReader::from_slice(&packed)).map_err(|e| e.render())?;
    let write_json = |options: WriterOptions| -> Result<usize, String> {
        let mut writer = JsonWriter::new(Vec::with_capacity(bytes.len()), options);
        Token::write_all(black_box(&tokens), &mut writer).map_err(|e| e.render())?;
        Ok(writer.into_inner().map_err(|e| e.render())?.len())
    };
    // The tokens with typed numbers, as native data or MessagePack hand them to a writer,
    // through one condensed `JsonWriter` or through `NdjsonWriter` (one record here): what
    // the NDJSON writer adds to the JSON writer it wraps, on the same tokens.
    let typed_tokens = sluice_benches::typed_numbers(&tokens);
    let write_typed = |ndjson: bool| -> Result<usize, String> {
        let out = Vec::with_capacity(bytes.len());
        let written = if ndjson {
            let mut writer = NdjsonWriter::new(out);
            Token::write_all(black_box(&typed_tokens), &mut writer).map_err(|e| e.render())?;
            writer.into_inner()
        } else {
            let mut writer = JsonWriter::new(out, WriterOptions::condensed());
            Token::write_all(black_box(&typed_tokens), &mut writer).map_err(|e| e.render())?;
            writer.into_inner()
        };
        Ok(written.map_err(|e| e.render())?.len())
    };
    let last_wins_reader = || {
        JsonReader::from_slice(black_box(bytes)).with_options(sluice_benches::last_wins_options())
    };
    repeat_timed(times, || {
        match operation {
            "scan" => drop(black_box(
                sluice_benches::scan(&mut JsonReader::from_slice(black_box(bytes)))
                    .map_err(|e| e.render())?,
            )),
            "scan_last_wins" => drop(black_box(
                sluice_benches::scan(&mut last_wins_reader()).map_err(|e| e.render())?,
            )),
            "scan_two_interleaved" => drop(black_box(
                sluice_benches::scan_interleaved(&mut last_wins_reader(), &mut last_wins_reader())
                    .map_err(|e| e.render())?,
            )),
            "scan_number_text" => drop(black_box(
                sluice_benches::scan_number_text(&mut last_wins_reader())
                    .map_err(|e| e.render())?,
            )),
            "scan_relaxed" => drop(black_box(
                sluice_benches::scan(
                    &mut JsonReader::from_slice(black_box(bytes))
                        .with_options(sluice_json::JsonOptions::relaxed()),
                )
                .map_err(|e| e.render())?,
            )),
            "scan_json5" => drop(black_box(
                sluice_benches::scan(
                    &mut JsonReader::from_slice(black_box(bytes))
                        .with_options(sluice_json::JsonOptions::json5()),
                )
                .map_err(|e| e.render())?,
            )),
            "scan_io" => drop(black_box(
                sluice_benches::scan(&mut JsonReader::from_read(black_box(bytes)))
                    .map_err(|e| e.render())?,
            )),
            "serde_ignored" => drop(black_box(
                serde_json::from_slice::<serde::de::IgnoredAny>(black_box(bytes))
                    .map_err(|e| e.to_string())?,
            )),
            "serde_every_token" => drop(black_box(
                sluice_benches::serde_every_token(black_box(bytes)).map_err(|e| e.to_string())?,
            )),
            "write_condensed" => drop(black_box(write_json(WriterOptions::condensed())?)),
            "write_pretty" => drop(black_box(write_json(WriterOptions::pretty())?)),
            "write_condensed_checked" => drop(black_box(write_json(WriterOptions {
                reject_duplicate_keys: true,
                ..WriterOptions::condensed()
            })?)),
            "write_pretty_checked" => drop(black_box(write_json(WriterOptions {
                reject_duplicate_keys: true,
                ..WriterOptions::pretty()
            })?)),
            "write_condensed_typed" => drop(black_box(write_typed(false)?)),
            "write_ndjson_typed" => drop(black_box(write_typed(true)?)),
            "serde_write" => {
                let mut out = Vec::with_capacity(bytes.len());
                serde_json::to_writer(&mut out, black_box(&value)).map_err(|e| e.to_string())?;
                drop(black_box(out));
            }
            "serde_write_pretty" => {
                let mut out = Vec::with_capacity(bytes.len());
                serde_json::to_writer_pretty(&mut out, black_box(&value))
                    .map_err(|e| e.to_string())?;
                drop(black_box(out));
            }
            "msgpack_write" => {
                let mut writer = MsgPackWriter::new(Vec::with_capacity(packed.len()));
                Token::write_all(black_box(&packed_tokens), &mut writer).map_err(|e| e.render())?;
                drop(black_box(writer.into_inner().map_err(|e| e.render())?));
            }
            "rmp_write" => {
                let mut out = Vec::with_capacity(packed.len());
                rmp_serde::encode::write(&mut out, black_box(&value)).map_err(|e| e.to_string())?;
                drop(black_box(out));
            }
            "msgpack_read" => drop(black_box(
                Token::read_all(&mut MsgPackReader::from_slice(black_box(&packed)))
                    .map_err(|e| e.render())?,
            )),
            "msgpack_read_io" => drop(black_box(
                Token::read_all(&mut MsgPackReader::from_read(black_box(&packed[..])))
                    .map_err(|e| e.render())?,
            )),
            _ => return Ok(false),
        }
        Ok(true)
    })
}

fn run<T>(text: &str, operation: &str, times: usize) -> Result<(), String>
where
    T: sluice::Typed + serde::Serialize + serde::de::DeserializeOwned,
{
    if run_untyped(text, operation, times)? {
        return Ok(());
    }
    let value: T = sluice::json::from_str(text).map_err(|e| e.render())?;
    repeat_timed(times, || {
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
        Ok(true)
    })
    .map(drop)
}

/// Runs `once` `times` times, stopping early when it answers `false` (an operation it does
/// not know), and with `SLUICE_PROFILE_FASTEST` set prints the fastest repetition's time (in
/// nanoseconds) to standard error: a figure that, unlike the run's total, slow stretches of
/// a shared host do not move (`benches/ab-time` compares it).
fn repeat_timed(
    times: usize,
    mut once: impl FnMut() -> Result<bool, String>,
) -> Result<bool, String> {
    let mut fastest = std::time::Duration::MAX;
    for _ in 0..times {
        let started = std::time::Instant::now();
        if !once()? {
            return Ok(false);
        }
        fastest = fastest.min(started.elapsed());
    }
    if std::env::var_os("SLUICE_PROFILE_FASTEST").is_some() && times > 0 {
        eprintln!("fastest {}", fastest.as_nanos());
    }
    Ok(true)
}

/// The operations on the plain serde shapes of the `serde_bridge` bench.
const PLAIN_OPERATIONS: [&str; 2] = ["bridge_plain", "serde_plain"];

/// The bridge (`bridge_plain`) or serde_json (`serde_plain`) reading the plain serde shapes.
fn run_plain<T: serde::de::DeserializeOwned>(
    text: &str,
    operation: &str,
    times: usize,
) -> Result<(), String> {
    repeat_timed(times, || {
        if operation == "bridge_plain" {
            let value = sluice_serde::from_json_str::<T>(black_box(text));
            drop(black_box(value.map_err(|e| e.to_string())?));
        } else {
            let value = serde_json::from_str::<T>(black_box(text));
            drop(black_box(value.map_err(|e| e.to_string())?));
        }
        Ok(true)
    })
    .map(drop)
}

/// One record of the Wikipedia NDJSON sample, as the `ndjson_typed` bench reads it.
#[derive(sluice::Reflect, serde::Deserialize)]
#[allow(dead_code)] // fields are read only through the derives
struct Article {
    url: String,
    title: String,
    body: String,
}

/// The NDJSON operations on the Wikipedia sample: every record into an [`Article`], by
/// `sluice::ndjson::iter` (`ndjson_iter`), `sluice::ndjson::iter_slice`
/// (`ndjson_iter_slice`), `sluice::ndjson::iter_str` (`ndjson_iter_str`) or serde_json's
/// `StreamDeserializer`
/// (`serde_ndjson_stream`); each sums the bodies' lengths, as the criterion bench does.
fn run_wikipedia(bytes: &[u8], operation: &str, times: usize) -> Result<(), String> {
    // Checked once, outside the repetitions: `ndjson_iter_str` is for text already known
    // to be UTF-8.
    let text = std::str::from_utf8(bytes);
    repeat_timed(times, || {
        let total = match operation {
            "ndjson_iter" => {
                let mut total = 0;
                for record in sluice::ndjson::iter::<Article, _>(black_box(bytes)) {
                    total += record.map_err(|e| e.render())?.body.len();
                }
                total
            }
            "ndjson_iter_slice" => {
                let mut total = 0;
                for record in sluice::ndjson::iter_slice::<Article>(black_box(bytes)) {
                    total += record.map_err(|e| e.render())?.body.len();
                }
                total
            }
            "ndjson_iter_str" => {
                let text = text.as_ref().map_err(ToString::to_string)?;
                let mut total = 0;
                for record in sluice::ndjson::iter_str::<Article>(black_box(text)) {
                    total += record.map_err(|e| e.render())?.body.len();
                }
                total
            }
            "serde_ndjson_stream" => {
                let mut total = 0;
                for record in
                    serde_json::Deserializer::from_slice(black_box(bytes)).into_iter::<Article>()
                {
                    total += record.map_err(|e| e.to_string())?.body.len();
                }
                total
            }
            other => return Err(format!("unknown operation {other} on wikipedia")),
        };
        black_box(total);
        Ok(true)
    })
    .map(drop)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(file), Some(operation), Some(times)) = (args.get(1), args.get(2), args.get(3)) else {
        eprintln!(
            "usage: reflect_profile FILE OPERATION N, FILE one of canada, citm_catalog, \
             twitter (with _exponents, _relaxed, _line_comments or _json5), large_object or wikipedia"
        );
        return ExitCode::FAILURE;
    };
    let Ok(times) = times.parse::<usize>() else {
        eprintln!("N must be a number");
        return ExitCode::FAILURE;
    };
    if file == "wikipedia" {
        let Some(bytes) = corpus("ndjson/wikipedia-articles.ndjson") else {
            eprintln!("ndjson/wikipedia-articles.ndjson is not in the corpus");
            return ExitCode::FAILURE;
        };
        return exit_code(run_wikipedia(&bytes, operation, times));
    }
    if file == "large_object" {
        // Generated (ASCII), with no shapes for the typed operations.
        let text = String::from_utf8_lossy(&sluice_benches::large_object(200_000)).into_owned();
        return exit_code(match run_untyped(&text, operation, times) {
            Ok(false) => Err(format!(
                "{operation} is not an untyped operation, the only ones on large_object"
            )),
            other => other.map(drop),
        });
    }
    // Files derived from a bench file, named by a suffix: `canada_exponents` is canada.json
    // with its numbers in scientific notation; `<file>_relaxed` is the file as the `relaxed`
    // bench rewrites it (comments, trailing commas), `<file>_line_comments` the same with
    // line comments, `<file>_json5` that file with unquoted keys and single-quoted strings.
    let derivations: [(&str, sluice_benches::Rewrite); 4] = [
        ("_exponents", sluice_benches::with_exponents),
        ("_relaxed", sluice_benches::relaxed_variant),
        ("_line_comments", sluice_benches::line_comment_variant),
        ("_json5", sluice_benches::json5_variant),
    ];
    let (file, derived) = derivations
        .iter()
        .find_map(|&(suffix, derive)| Some((file.strip_suffix(suffix)?, Some(derive))))
        .unwrap_or((file.as_str(), None));
    let Some(mut bytes) = corpus(&format!("bench/{file}.json")) else {
        eprintln!("bench/{file}.json is not in the corpus");
        return ExitCode::FAILURE;
    };
    if let Some(derive) = derived {
        bytes = derive(&bytes);
    }
    let Ok(text) = String::from_utf8(bytes) else {
        eprintln!("bench/{file}.json is not UTF-8");
        return ExitCode::FAILURE;
    };
    let plain = PLAIN_OPERATIONS.contains(&operation.as_str());
    let result = match (plain, file) {
        (true, "canada") => run_plain::<plain::Canada>(&text, operation, times),
        (true, "citm_catalog") => run_plain::<plain::CitmCatalog>(&text, operation, times),
        (true, "twitter") => run_plain::<plain::Twitter>(&text, operation, times),
        (false, "canada") => run::<canada::Canada>(&text, operation, times),
        (false, "citm_catalog") => run::<citm::CitmCatalog>(&text, operation, times),
        (false, "twitter") => run::<twitter::Twitter>(&text, operation, times),
        (_, other) => Err(format!("no shapes for {other}")),
    };
    exit_code(result)
}

/// Success, or the message on standard error and failure.
fn exit_code(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}
