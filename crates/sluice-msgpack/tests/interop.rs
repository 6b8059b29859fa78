//! Interop with a real peer: Python's `msgpack` package reads what we write, and we read what
//! it writes, for the benchmark documents and a set of edge values.
//!
//! Needs `python3` with `msgpack` (`pip install msgpack`). Without them the tests say so and
//! pass, unless `SLUICE_REQUIRE_CORPUS=1` (as in CI), where they fail.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value as J;
use sluice_core::testing::corpus_file;
use sluice_core::{Ext, Reader, Token, Writer};
use sluice_msgpack::{MsgPackReader, MsgPackWriter, Timestamp};

/// Reads every value of the file in argv[1] with `msgpack`, writes its typed description
/// (the same form as `common::describe_all`) to argv[2] and the values packed again by
/// `msgpack` to argv[3].
const PEER: &str = r#"
import json, struct, sys, msgpack

def describe(o):
    if o is None or isinstance(o, bool):
        return o
    if isinstance(o, int):
        return {"i": str(o)}
    if isinstance(o, float):
        return {"f": struct.pack(">d", o).hex()}
    if isinstance(o, str):
        return {"s": o}
    if isinstance(o, bytes):
        return {"b": o.hex()}
    if isinstance(o, msgpack.Timestamp):
        return {"t": [o.seconds, o.nanoseconds]}
    if isinstance(o, msgpack.ExtType):
        return {"x": [o.code, o.data.hex()]}
    if isinstance(o, (list, tuple)):
        return [describe(x) for x in o]
    if isinstance(o, dict):
        return {"m": [[describe(k), describe(v)] for k, v in o.items()]}
    raise TypeError(type(o))

data = open(sys.argv[1], "rb").read()
unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, timestamp=0,
                            max_buffer_size=len(data) + 1)
unpacker.feed(data)
values = list(unpacker)
json.dump([describe(v) for v in values], open(sys.argv[2], "w"))
with open(sys.argv[3], "wb") as out:
    for v in values:
        out.write(msgpack.packb(v, use_bin_type=True))
"#;

/// Whether `python3 -c 'import msgpack'` works; explains and decides when it does not.
fn peer_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import msgpack"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !ok {
        let message = "python3 with the msgpack package is missing: install it with \
                       `pip install msgpack` to run the interop tests";
        let required = std::env::var("SLUICE_REQUIRE_CORPUS").is_ok_and(|v| v == "1");
        assert!(!required, "{message}");
        eprintln!("skipping: {message}");
    }
    ok
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sluice-msgpack-interop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs the peer on `ours`; returns its description and its own encoding.
fn run_peer(name: &str, ours: &[u8]) -> (J, Vec<u8>) {
    let input = scratch(&format!("{name}.ours.msgpack"));
    let described = scratch(&format!("{name}.peer.json"));
    let repacked = scratch(&format!("{name}.peer.msgpack"));
    std::fs::write(&input, ours).unwrap();
    let out = Command::new("python3")
        .args(["-c", PEER])
        .args([&input, &described, &repacked])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "msgpack (Python) failed on {name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Maps nested 100 deep describe as 250 JSON levels: lift serde_json's limit of 128.
    let text = std::fs::read(&described).unwrap();
    let mut deserializer = serde_json::Deserializer::from_slice(&text);
    deserializer.disable_recursion_limit();
    let description = serde::Deserialize::deserialize(&mut deserializer).unwrap();
    let theirs = std::fs::read(&repacked).unwrap();
    for path in [input, described, repacked] {
        let _ = std::fs::remove_file(path);
    }
    (description, theirs)
}

/// Reads `bytes` and writes every token again with our writer.
fn rewrite(bytes: &[u8]) -> Vec<u8> {
    let tokens = Token::read_all(&mut MsgPackReader::from_slice(bytes)).unwrap();
    common::write_tokens(&tokens).unwrap()
}

/// The whole check for one document; `same_bytes`: whether both encoders must agree byte
/// for byte (true unless the document holds float 32s, which Python widens).
fn check_both_ways(name: &str, ours: &[u8], same_bytes: bool) {
    let our_description = common::describe_all(ours).unwrap();
    let (their_description, theirs) = run_peer(name, ours);
    assert!(
        their_description == our_description,
        "{name}: msgpack (Python) reads our bytes differently"
    );
    assert!(
        common::describe_all(&theirs).unwrap() == our_description,
        "{name}: we read msgpack's bytes differently"
    );
    // What we read from the peer, we write back identically.
    assert!(
        rewrite(&theirs) == theirs,
        "{name}: rewriting msgpack's bytes changed them"
    );
    if same_bytes {
        assert!(
            theirs == ours,
            "{name}: the two encoders disagree on the bytes"
        );
    }
    println!(
        "{name}: {} bytes, read and written identically both ways",
        ours.len()
    );
}

fn json_file_as_msgpack(path: &Path) -> Vec<u8> {
    let value: J = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut writer = MsgPackWriter::new(Vec::new());
    common::write_json(&mut writer, &value).unwrap();
    writer.into_inner().unwrap()
}

#[test]
fn python_msgpack_and_we_agree_on_the_benchmark_documents() {
    if !peer_available() {
        return;
    }
    for name in ["canada", "citm_catalog", "twitter"] {
        let Some(path) = corpus_file(&format!("bench/{name}.json")) else {
            return;
        };
        check_both_ways(name, &json_file_as_msgpack(&path), true);
    }
}

/// Every int boundary, float specials, empty and long str/bin/array/map, ext and timestamp
/// sizes, and nesting 100 deep, as a stream of top-level values.
fn edge_values(writer: &mut impl Writer, with_f32: bool) -> sluice_core::Result<()> {
    for v in [
        0u64,
        1,
        127,
        128,
        255,
        256,
        65_535,
        65_536,
        4_294_967_295,
        4_294_967_296,
        u64::MAX,
    ] {
        writer.write_u64(v)?;
    }
    for v in [
        -1i64,
        -31,
        -32,
        -33,
        -127,
        -128,
        -129,
        -32_767,
        -32_768,
        -32_769,
        -2_147_483_648,
        -2_147_483_649,
        i64::MIN,
        i64::MAX,
    ] {
        writer.write_i64(v)?;
    }
    for v in [
        0.0f64,
        -0.0,
        1.5,
        f64::MIN_POSITIVE,
        5e-324,
        f64::MAX,
        f64::MIN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        0.1,
    ] {
        writer.write_f64(v)?;
    }
    if with_f32 {
        for v in [
            0.0f32,
            -0.0,
            1.5,
            f32::MIN_POSITIVE,
            1e-45,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            0.1,
        ] {
            writer.write_f32(v)?;
        }
    }
    for len in [0usize, 1, 31, 32, 255, 256, 65_535, 65_536, 100_000] {
        let text: String = "é☃😀a".chars().cycle().take(len).collect();
        writer.write_str(&text)?;
        writer.write_blob(&vec![0xa5; len])?;
        writer.write_array_root(None)?;
        for i in 0..len.min(70_000) {
            writer.write_u64(i as u64)?;
        }
        writer.write_array_end()?;
        writer.write_map_root(None)?;
        for i in 0..len.min(70_000) {
            writer.write_name(&format!("k{i}"))?;
            writer.write_bool(i % 2 == 0)?;
        }
        writer.write_map_end()?;
    }
    for len in [0usize, 1, 2, 3, 4, 8, 16, 17, 255, 256, 65_536] {
        writer.write_ext(Ext {
            kind: 42,
            data: &vec![7; len],
        })?;
    }
    // Negative ext types other than -1 are reserved by the spec (and refused by Python).
    for (seconds, nanos) in [
        (0, 0),
        (4_294_967_295, 0),
        (4_294_967_296, 0),
        (1, 1),
        ((1 << 34) - 1, 999_999_999),
        (1 << 34, 0),
        (-1, 0),
        (i64::MIN, 999_999_999),
    ] {
        let bytes = Timestamp::new(seconds, nanos)?.to_ext()?;
        writer.write_ext(bytes.as_ext())?;
    }
    // Non-str keys.
    writer.write_map_root(None)?;
    writer.write_u64(1)?;
    writer.write_null()?;
    writer.write_i64(-1)?;
    writer.write_null()?;
    writer.write_blob(b"k")?;
    writer.write_null()?;
    writer.write_map_end()?;
    // Nesting 100 deep, arrays and maps alternating.
    for depth in 0..100 {
        if depth % 2 == 0 {
            writer.write_array_root(None)?;
        } else {
            writer.write_map_root(None)?;
            writer.write_name("d")?;
        }
    }
    writer.write_null()?;
    for depth in (0..100).rev() {
        if depth % 2 == 0 {
            writer.write_array_end()?;
        } else {
            writer.write_map_end()?;
        }
    }
    Ok(())
}

#[test]
fn python_msgpack_and_we_agree_on_edge_values() {
    if !peer_available() {
        return;
    }
    let mut writer = MsgPackWriter::new(Vec::new());
    edge_values(&mut writer, false).unwrap();
    check_both_ways("edge values", &writer.into_inner().unwrap(), true);
    // With f32s: Python reads them (as doubles) and writes them back as float 64.
    let mut writer = MsgPackWriter::new(Vec::new());
    edge_values(&mut writer, true).unwrap();
    check_both_ways("edge values with f32", &writer.into_inner().unwrap(), false);
}

#[test]
fn python_msgpack_output_is_read_by_the_stream_reader_too() {
    if !peer_available() {
        return;
    }
    let mut writer = MsgPackWriter::new(Vec::new());
    edge_values(&mut writer, true).unwrap();
    let ours = writer.into_inner().unwrap();
    let (_, theirs) = run_peer("stream", &ours);
    let from_slice = Token::read_all(&mut MsgPackReader::from_slice(&theirs)).unwrap();
    let mut stream = MsgPackReader::from_read(theirs.as_slice());
    assert_eq!(Token::read_all(&mut stream).unwrap(), from_slice);
    assert_eq!(stream.peek().unwrap(), sluice_core::Entry::Ended);
}
