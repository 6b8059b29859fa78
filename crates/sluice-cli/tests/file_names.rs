//! File names in messages: a name holding a line feed, an escape sequence or a bidirectional
//! override reaches the terminal escaped (quoted, as Rust's `{:?}` writes it), so that it can
//! neither rewrite the screen nor forge a line of output; a name that is not UTF-8 has its
//! other bytes as `\xHH`.
#![cfg(unix)]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh temporary directory of this test.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sluice-names-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn sluice(args: &[&OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sluice"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A name that would clear the screen, forge a line of output that reads as the end of a
/// run, and reverse what follows it on screen.
const HOSTILE: &str = "bad\nsluice: 0 of 2 files invalid\u{1b}[2J\u{202e}nosj.json";

/// `path` as the messages must show it: the whole path quoted and escaped.
fn escaped(path: &Path) -> String {
    format!("{:?}", path.to_str().unwrap())
}

/// Asserts that `stderr` holds no character that acts on a terminal, and that each of its
/// lines starts as one of `starts` (after leading spaces), so no line was forged.
fn assert_harmless(stderr: &str, starts: &[&str]) {
    for c in ['\u{1b}', '\u{202e}', '\r'] {
        assert!(!stderr.contains(c), "{c:?} in {stderr}");
    }
    for line in stderr.lines() {
        let line = line.trim_start();
        assert!(
            starts.iter().any(|start| line.starts_with(start)),
            "a line of its own: {line:?} in {stderr}"
        );
    }
}

/// The lines of a diagnostic start with one of these (the gutter is line numbers).
const DIAGNOSTIC: &[&str] = &["error[", "-->", "|", "=", "1", "2", "3"];

#[test]
fn a_hostile_name_is_escaped_in_the_location_of_a_diagnostic() {
    let dir = temp_dir("diagnostic");
    let bad = dir.join(HOSTILE);
    std::fs::write(&bad, b"{\"a\": }").unwrap();
    let out = sluice(&[OsStr::new("check"), bad.as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert_harmless(&stderr, DIAGNOSTIC);
    let place = format!("--> {}:1:7", escaped(&bad));
    assert!(stderr.contains(&place), "{place} in {stderr}");
}

#[test]
fn hostile_names_are_escaped_in_every_message_of_a_check_of_several_files() {
    let dir = temp_dir("several");
    let bad = dir.join(HOSTILE);
    std::fs::write(&bad, b"[1,]").unwrap();
    let good = dir.join("good\u{1b}[31m.json");
    std::fs::write(&good, b"[1]").unwrap();
    let missing = dir.join("gone\n\u{202e}.json");
    let directory = dir.join("dir\u{1b}]0;title\u{7}.json");
    std::fs::create_dir_all(&directory).unwrap();
    let out = sluice(&[
        OsStr::new("check"),
        good.as_os_str(),
        bad.as_os_str(),
        missing.as_os_str(),
        directory.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    let mut starts = DIAGNOSTIC.to_vec();
    starts.push("sluice: ");
    assert_harmless(&stderr, &starts);
    for named in [&bad, &missing, &directory] {
        assert!(stderr.contains(&escaped(named)), "{named:?} in {stderr}");
    }
    // The one summary is the last line.
    let summaries: Vec<&str> = stderr.lines().filter(|l| l.contains(" of 4 ")).collect();
    assert_eq!(summaries.len(), 1, "{stderr}");
    assert_eq!(stderr.lines().last(), Some(summaries[0]));
}

#[test]
fn hostile_names_are_escaped_in_usage_errors() {
    let dir = temp_dir("usage");
    let packed = dir.join("a\u{1b}[2J\n.msgpack");
    std::fs::write(&packed, [0x91, 0x01]).unwrap();
    let unknown = dir.join("a\u{1b}[2J\n.txt");
    std::fs::write(&unknown, b"[1]").unwrap();
    let input = dir.join("in.json");
    std::fs::write(&input, b"[1]").unwrap();
    let no_dir = dir.join("no\u{1b}[2J\ndir");
    let into_no_dir = no_dir.join("out.json");
    let os = OsStr::new;
    for args in [
        vec![os("fmt"), packed.as_os_str()],
        vec![os("convert"), unknown.as_os_str(), os("--to"), os("json")],
        vec![os("check"), os("--unique-keys"), packed.as_os_str()],
        vec![
            os("fmt"),
            input.as_os_str(),
            os("-o"),
            into_no_dir.as_os_str(),
        ],
    ] {
        let out = sluice(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert_harmless(&stderr, &["sluice: "]);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    let out = sluice(&[
        os("fmt"),
        input.as_os_str(),
        os("-o"),
        into_no_dir.as_os_str(),
    ]);
    let stderr = text(&out.stderr);
    assert!(stderr.contains(&escaped(&into_no_dir)), "{stderr}");
    assert!(stderr.contains(&escaped(&no_dir)), "{stderr}");
}

#[test]
fn hostile_names_are_escaped_in_the_lines_of_ndjson_stats() {
    let dir = temp_dir("stats");
    let records = dir.join("r\u{1b}[2J\n\u{202e}.ndjson");
    std::fs::write(&records, b"{\"a\": 1}\n{\"a\" 2}\n").unwrap();
    let os = OsStr::new;
    let out = sluice(&[os("ndjson"), os("stats"), records.as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    let name = escaped(&records);
    assert_harmless(&stderr, &[&name]);
    assert!(stderr.starts_with(&format!("{name}: line 2 ")), "{stderr}");
    let out = sluice(&[
        os("ndjson"),
        os("stats"),
        os("--fail-fast"),
        records.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert_harmless(&stderr, DIAGNOSTIC);
    assert!(stderr.contains(&format!("--> {name}:2:6")), "{stderr}");
}

#[test]
fn a_name_that_is_not_utf8_shows_its_other_bytes_as_hex_escapes() {
    let dir = temp_dir("not-utf8");
    let bad = dir.join(OsStr::from_bytes(b"bad\xff\xfe.json"));
    std::fs::write(&bad, b"{\"a\": }").unwrap();
    let out = sluice(&[OsStr::new("check"), bad.as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    let shown = format!("{:?}", dir.join("bad").to_str().unwrap());
    // The quoted directory and `bad`, then the two bytes.
    let shown = format!("{}\\xFF\\xFE.json\"", &shown[..shown.len() - 1]);
    assert!(stderr.contains(&format!("--> {shown}:1:7")), "{stderr}");
    assert!(!stderr.contains('\u{fffd}'), "{stderr}");
}

#[test]
fn a_plain_name_is_shown_as_it_is() {
    let dir = temp_dir("plain");
    let bad = dir.join("名前 with spaces 'and' \\ back.json");
    std::fs::write(&bad, b"{\"a\": }").unwrap();
    let out = sluice(&[OsStr::new("check"), bad.as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    let place = format!("--> {}:1:7", bad.to_str().unwrap());
    assert!(stderr.contains(&place), "{stderr}");
}

#[test]
fn a_hostile_name_the_command_does_not_take_is_escaped_in_the_argument_error() {
    let dir = temp_dir("argument");
    let one = dir.join("one.json");
    std::fs::write(&one, b"[1]").unwrap();
    let extra = dir.join(HOSTILE);
    let out = sluice(&[OsStr::new("fmt"), one.as_os_str(), extra.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains(&escaped(&extra)), "{stderr}");
    for c in ['\u{1b}', '\u{202e}'] {
        assert!(!stderr.contains(c), "{c:?} in {stderr}");
    }
    assert!(
        !stderr.lines().any(|l| l.starts_with("sluice: 0 of 2")),
        "{stderr}"
    );
    // Help and version are not errors, and are written as they were.
    let out = sluice(&[OsStr::new("--version")]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).starts_with("sluice "));
}
