//! The `sluice` binary, run as a user would: exit codes, diagnostics, and the output of each
//! command.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::{large_json, sluice, sluice_with_stdin, temp_file, text};

/// Runs `sluice args`, which must exit with 0, and returns its standard output.
fn succeed(args: &[&str]) -> String {
    succeeded(&sluice(args), args)
}

/// Runs `sluice args` with `stdin` as its standard input, which must exit with 0, and
/// returns its standard output.
fn succeed_with_stdin(args: &[&str], stdin: &[u8]) -> String {
    succeeded(&sluice_with_stdin(args, stdin), args)
}

/// The standard output of a run of `sluice args`, which must have exited with 0.
fn succeeded(out: &Output, args: &[&str]) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

#[test]
fn help_lists_the_commands_and_the_exit_codes() {
    let out = sluice(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for command in ["dump", "check", "fmt", "convert"] {
        assert!(help.contains(command), "{help}");
    }
    assert!(help.contains("Exit codes"), "{help}");
    assert!(help.contains("1  invalid input"), "{help}");
    assert!(help.contains("2  usage error"), "{help}");
}

#[test]
fn version_prints_the_crate_version() {
    let out = sluice(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout).trim(),
        format!("sluice {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn bad_arguments_are_a_usage_error() {
    assert_eq!(
        sluice(&["check", "--no-such-flag", "x.json"]).status.code(),
        Some(2)
    );
    assert_eq!(sluice(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        sluice(&["check", "--strict", "--relaxed", "x.json"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn a_missing_file_is_a_usage_error() {
    let out = sluice(&["check", "surely/not/here.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("surely/not/here.json"));
}

#[test]
fn dump_prints_one_indented_line_per_token() {
    let path = temp_file("dump", "doc.json", br#"{"a": [1, "x"], "b": null}"#);
    assert_eq!(
        succeed(&["dump", path.to_str().unwrap()]),
        "<MapRoot>\n|---<Name> 'a'\n|---<ArrayRoot>\n|---|---<Number> 1\n|---|---<String> 'x'\n\
         |---<ArrayEnd>\n|---<Name> 'b'\n|---<Null>\n<MapEnd>\n"
    );
}

#[test]
fn check_accepts_valid_files_silently() {
    let path = temp_file("valid", "ok.json", b"[1, 2, {\"a\": true}]");
    let out = sluice(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
}

#[test]
fn check_reports_the_code_and_position_of_an_invalid_file() {
    let path = temp_file("invalid", "bad.json", b"{\n  \"a\": 1\n  \"b\": 2\n}\n");
    let out = sluice(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("error[json/ExpectComma]"), "{stderr}");
    assert!(stderr.contains("bad.json:3:3"), "{stderr}");
    assert!(stderr.contains("3 |   \"b\": 2\n  |   ^"), "{stderr}");
}

#[test]
fn strict_rejects_comments_that_relaxed_and_jsonc_accept() {
    let doc = b"{ // comment\n \"a\": [1, 2,], }";
    let json = temp_file("dialects", "c.json", doc);
    let jsonc = temp_file("dialects", "c.jsonc", doc);
    assert_eq!(
        sluice(&["check", json.to_str().unwrap()]).status.code(),
        Some(1)
    );
    assert_eq!(
        sluice(&["check", "--strict", jsonc.to_str().unwrap()])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        sluice(&["check", "--relaxed", json.to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        sluice(&["check", jsonc.to_str().unwrap()]).status.code(),
        Some(0)
    );
}

#[test]
fn every_command_that_reads_json_takes_the_same_dialect_flags() {
    let jsonc = temp_file(
        "dialect-flags",
        "c.jsonc",
        b"{ // comment\n \"a\": [1, 2,], }",
    );
    let path = jsonc.to_str().unwrap();
    for command in [
        &["fmt", path][..],
        &["dump", path],
        &["convert", path, "--to", "msgpack"],
    ] {
        // The extension says relaxed; `--strict` overrides it.
        assert_eq!(sluice(command).status.code(), Some(0), "{command:?}");
        let mut strict = command.to_vec();
        strict.insert(1, "--strict");
        assert_eq!(sluice(&strict).status.code(), Some(1), "{strict:?}");
        // At most one dialect flag: two are a usage error.
        let mut both = strict.clone();
        both.insert(1, "--json5");
        assert_eq!(sluice(&both).status.code(), Some(2), "{both:?}");
    }
}

/// `sluice check` of the files at `paths`.
fn check_files(paths: &[&std::path::Path]) -> std::process::Output {
    let mut args = vec!["check"];
    args.extend(paths.iter().map(|path| path.to_str().unwrap()));
    sluice(&args)
}

#[test]
fn check_of_several_files_reports_each_invalid_one() {
    let good = temp_file("several", "good.json", b"{}");
    let bad1 = temp_file("several", "bad1.json", b"[1,]");
    let bad2 = temp_file("several", "bad2.json", b"nul");
    let out = check_files(&[&good, &bad1, &bad2]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("bad1.json"), "{stderr}");
    assert!(stderr.contains("bad2.json"), "{stderr}");
    assert!(stderr.contains("2 of 3 files invalid"), "{stderr}");
}

#[test]
fn the_count_that_ends_a_check_of_several_files_has_the_prefix_of_the_tool_s_messages() {
    let good = temp_file("summary-prefix", "good.json", b"{}");
    let bad = temp_file("summary-prefix", "bad.json", b"[1,]");
    let missing = good.with_file_name("missing.json");
    for (paths, code) in [
        (vec![&good, &bad], 1),
        (vec![&good, &bad, &missing], 2),
        (vec![&good, &missing], 2),
    ] {
        let paths: Vec<&std::path::Path> = paths.iter().map(|p| p.as_path()).collect();
        let out = check_files(&paths);
        assert_eq!(out.status.code(), Some(code));
        let stderr = text(&out.stderr);
        let last = stderr.lines().last().unwrap_or_default();
        let total = format!(" of {} files", paths.len());
        assert!(last.contains(&total), "{stderr}");
        assert!(last.starts_with("sluice: "), "{stderr}");
        // Every line that is not part of a diagnostic is one of the tool's messages.
        for line in stderr.lines() {
            let line = line.trim_start();
            let diagnostic = ["error[", "-->", "|", "=", "1 |"]
                .iter()
                .any(|start| line.starts_with(start));
            assert!(diagnostic || line.starts_with("sluice: "), "{line:?}");
        }
    }
}

#[test]
fn check_goes_on_after_a_file_it_cannot_read() {
    let ok = temp_file("unreadable", "ok.json", b"{\"a\": 1}");
    let bad = temp_file("unreadable", "bad.json", b"{\"a\":1,}");
    let missing = ok.with_file_name("nonexist.json");
    let dir = ok.parent().unwrap();
    for unreadable in [&missing, dir] {
        let out = check_files(&[&ok, unreadable, &bad]);
        assert_eq!(out.status.code(), Some(2));
        let stderr = text(&out.stderr);
        assert!(stderr.contains(unreadable.to_str().unwrap()), "{stderr}");
        assert!(stderr.contains("error[json/"), "{stderr}");
        let (name, line, column) = location(&stderr).expect("a location");
        assert_eq!((name.as_str(), line, column), (bad.to_str().unwrap(), 1, 8));
        assert!(stderr.contains("1 of 3 files invalid"), "{stderr}");
    }
    // Unreadable and valid ones only: still a usage error.
    let out = check_files(&[&ok, &missing]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn check_reads_standard_input() {
    assert_eq!(
        sluice_with_stdin(&["check", "-"], b"[true]").status.code(),
        Some(0)
    );
    let out = sluice_with_stdin(&["check", "-"], b"[true");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("<stdin>"));
}

#[test]
fn check_ndjson_accepts_one_value_per_line() {
    let path = temp_file("ndjson", "r.ndjson", b"{\"a\":1}\n{\"a\":2}\n");
    assert_eq!(
        sluice(&["check", path.to_str().unwrap()]).status.code(),
        Some(0)
    );
    let as_json = temp_file("ndjson", "r.json", b"{\"a\":1}\n{\"a\":2}\n");
    assert_eq!(
        sluice(&["check", as_json.to_str().unwrap()]).status.code(),
        Some(1)
    );
    assert_eq!(
        sluice(&["check", "--ndjson", as_json.to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn fmt_writes_condensed_and_pretty_strict_json() {
    let path = temp_file("fmt", "in.jsonc", b"{ /* c */ \"a\" : [ 1 , 2 , ] , }");
    assert_eq!(
        succeed(&["fmt", "--condensed", path.to_str().unwrap()]),
        "{\"a\":[1,2]}\n"
    );
    let out = sluice(&["fmt", path.to_str().unwrap()]);
    assert_eq!(text(&out.stdout), "{\n  \"a\": [\n    1,\n    2\n  ]\n}\n");
}

#[test]
fn fmt_writes_to_the_output_file() {
    let path = temp_file("fmt-out", "in.json", b"[ 1 ]");
    let target = path.with_file_name("out.json");
    let out = sluice(&[
        "fmt",
        "--condensed",
        path.to_str().unwrap(),
        "-o",
        target.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read(&target).unwrap(), b"[1]\n");
}

#[test]
fn convert_json_to_msgpack_and_back_keeps_the_document() {
    let doc =
        br#"{"int":-5,"big":18446744073709551615,"float":0.1,"s":"h\u00e9","a":[true,null,{}]}"#;
    let json = temp_file("convert", "doc.json", doc);
    let packed = json.with_file_name("doc.msgpack");
    let out = sluice(&[
        "convert",
        json.to_str().unwrap(),
        "-o",
        packed.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // fixmap of 5 entries, then "int" as fixstr.
    let bytes = std::fs::read(&packed).unwrap();
    assert_eq!(&bytes[..5], &[0x85, 0xa3, b'i', b'n', b't']);
    let out = sluice(&["convert", packed.to_str().unwrap(), "--to", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"int\":-5,\"big\":18446744073709551615,\"float\":0.1,\"s\":\"hé\",\"a\":[true,null,{}]}\n"
    );
}

#[test]
fn convert_ndjson_to_msgpack_stream_and_back() {
    let records = b"{\"id\":1}\n{\"id\":2}\n[3]\n";
    let ndjson = temp_file("convert-nd", "in.ndjson", records);
    let packed = ndjson.with_file_name("out.msgpack");
    let back = ndjson.with_file_name("back.ndjson");
    assert_eq!(
        sluice(&[
            "convert",
            ndjson.to_str().unwrap(),
            "-o",
            packed.to_str().unwrap()
        ])
        .status
        .code(),
        Some(0)
    );
    let out = sluice(&[
        "convert",
        packed.to_str().unwrap(),
        "-o",
        back.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&back).unwrap(), records);
}

#[test]
fn convert_needs_to_know_the_formats() {
    let path = temp_file("convert-unknown", "data.bin", b"[]");
    let out = sluice(&["convert", path.to_str().unwrap(), "--to", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let out = sluice(&["convert", "--from", "json", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn fmt_of_a_file_that_is_msgpack_by_its_extension_is_a_usage_error() {
    // Not invalid JSON (exit code 1 at its first byte): a file fmt cannot read, with the
    // command that can.
    let packed = temp_file("fmt-msgpack", "m.msgpack", &[0x81, 0xa1, b'a', 0x01]);
    let target = temp_file("fmt-msgpack", "out.json", b"keep");
    for args in [
        vec!["fmt", packed.to_str().unwrap()],
        vec![
            "fmt",
            packed.to_str().unwrap(),
            "-o",
            target.to_str().unwrap(),
        ],
    ] {
        let out = sluice(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("sluice convert"), "{stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert_eq!(std::fs::read(&target).unwrap(), b"keep");
    assert_eq!(
        succeed(&["convert", packed.to_str().unwrap(), "--to", "json"]),
        "{\"a\":1}\n"
    );
}

#[test]
fn ndjson_given_to_a_command_that_reads_one_json_text_names_the_commands_that_read_records() {
    let records = b"{\"a\": 1}\n{\"a\": 2}\n";
    for args in [
        &["fmt", "-"][..],
        &["check", "-"],
        &["convert", "--from", "json", "--to", "json", "-"],
    ] {
        let out = sluice_with_stdin(args, records);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("error[json/TrailingToken]"), "{stderr}");
        assert_eq!(
            location(&stderr),
            Some(("<stdin>".to_owned(), 2, 1)),
            "{stderr}"
        );
        assert!(stderr.contains("--from ndjson"), "{stderr}");
        assert!(!offered_flags(&stderr).1, "{stderr}");
    }
    // A second value inside an NDJSON record is no JSON text given NDJSON: no such note.
    let out = sluice_with_stdin(&["check", "--ndjson", "-"], b"1 2\n");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("error[json/TrailingToken]"), "{stderr}");
    assert!(!stderr.contains("--from ndjson"), "{stderr}");
}

/// The flags that the switch note of `stderr` offers (the backquoted words that start with
/// `--`), and whether a note names a Rust option instead.
fn offered_flags(stderr: &str) -> (Vec<String>, bool) {
    let notes: Vec<&str> = stderr
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("= note: "))
        .collect();
    let flags = notes
        .iter()
        .flat_map(|note| note.split('`').skip(1).step_by(2))
        .filter(|word| word.starts_with("--"))
        .map(str::to_owned)
        .collect();
    (
        flags,
        notes.iter().any(|note| note.contains("JsonOptions::")),
    )
}

#[test]
fn a_note_on_syntax_another_dialect_reads_names_the_flag_that_reads_it() {
    // The document, the flags it is checked with, and the flags the note offers; the first
    // of them, in place of the dialect flag, reads the document.
    let cases: [(&str, &[&str], &[&str]); 7] = [
        ("{\"a\": 1, // why\n}", &[], &["--relaxed", "--json5"]),
        ("[1, 2,]", &["--strict"], &["--relaxed", "--json5"]),
        ("{name: 1}", &["--relaxed"], &["--json5"]),
        ("['x']", &[], &["--json5"]),
        ("[0x1F, +1]", &["--relaxed"], &["--json5"]),
        ("[\"a\tb\"]", &[], &["--json5"]),
        (
            "{\"a\": 1}\n{\"a\": 2,}\n",
            &["--ndjson"],
            &["--relaxed", "--json5"],
        ),
    ];
    for (document, flags, offered) in cases {
        let file = temp_file("flag-notes", "doc.json", document.as_bytes());
        let file = file.to_str().unwrap();
        for input in [file, "-"] {
            let mut args = vec!["check"];
            args.extend_from_slice(flags);
            args.push(input);
            let out = sluice_with_stdin(&args, document.as_bytes());
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            let stderr = text(&out.stderr);
            let (named, rust_option) = offered_flags(&stderr);
            assert_eq!(named, offered, "{args:?}: {stderr}");
            assert!(!rust_option, "{args:?}: {stderr}");
            // In place of the dialect flag it was checked with, if any.
            args.retain(|arg| !["--strict", "--relaxed", "--json5"].contains(arg));
            args.insert(args.len() - 1, offered[0]);
            succeed_with_stdin(&args, document.as_bytes());
        }
    }
}

#[test]
fn a_streamed_input_gets_the_flag_note_too() {
    // Over the in-memory limit, so the streaming path is taken: one JSON text and NDJSON.
    let mut json = vec![b' '; 9 << 20];
    json.extend_from_slice(b"[1, 2,]");
    let mut ndjson = b"{}\n".repeat(3 << 20);
    ndjson.extend_from_slice(b"[1, 2,]\n");
    for (name, document) in [("big.json", json), ("big.ndjson", ndjson)] {
        let path = temp_file("flag-notes-streamed", name, &document);
        let out = sluice(&["check", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("error[json/UnexpectedToken]"), "{stderr}");
        assert_eq!(
            offered_flags(&stderr),
            (vec!["--relaxed".to_owned(), "--json5".to_owned()], false),
            "{name}: {stderr}"
        );
    }
}

#[test]
fn msgpack_binary_in_json_is_an_error_unless_asked_for() {
    // {"b": bin8 [1, 2, 3]}
    let packed = temp_file("bin", "b.msgpack", &[0x81, 0xa1, b'b', 0xc4, 3, 1, 2, 3]);
    for to in ["json", "ndjson"] {
        let out = sluice(&["convert", packed.to_str().unwrap(), "--to", to]);
        assert_eq!(out.status.code(), Some(1));
        // The diagnostic names the option that would have written it.
        let stderr = text(&out.stderr);
        assert!(stderr.contains("error[core/Unsupported]"), "{stderr}");
        assert!(stderr.contains("--binary base64"), "{stderr}");
    }
    let out = sluice(&[
        "convert",
        packed.to_str().unwrap(),
        "--to",
        "json",
        "--binary",
        "base64",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "{\"b\":\"AQID\"}\n");
}

#[test]
fn convert_msgpack_whose_map_gives_a_json_key_twice_is_an_error_at_that_key() {
    let dir_test = "msgpack-dup";
    // {1: "a", "1": "b"}: the second key, bytes 4..6, is the JSON key "1" again.
    let packed = temp_file(
        dir_test,
        "dup.msgpack",
        &[0x82, 0x01, 0xa1, b'a', 0xa1, b'1', 0xa1, b'b'],
    );
    let input = packed.to_str().unwrap();
    let target = temp_file(dir_test, "out.json", b"keep");
    for to in ["json", "ndjson"] {
        let out = sluice(&["convert", input, "--to", to]);
        assert_eq!(out.status.code(), Some(1));
        let stderr = text(&out.stderr);
        assert!(stderr.contains("error[json/DuplicateKey]"), "{stderr}");
        assert!(stderr.contains("bytes 4..6"), "{stderr}");
        assert!(stderr.contains("dup.msgpack"), "{stderr}");
        assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
        let out = sluice(&["convert", input, "--to", to, "-o", target.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
        // Streamed from standard input: the same error at the same bytes.
        let out = sluice_with_stdin(
            &["convert", "-", "--from", "msgpack", "--to", to],
            &std::fs::read(&packed).unwrap(),
        );
        assert_eq!(out.status.code(), Some(1));
        let stderr = text(&out.stderr);
        assert!(stderr.contains("error[json/DuplicateKey]"), "{stderr}");
        assert!(stderr.contains("bytes 4..6"), "{stderr}");
    }
    // MessagePack output keeps the map as it is.
    let out = sluice(&["convert", input, "--to", "msgpack"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(out.stdout, std::fs::read(&packed).unwrap());
    // The same key in maps of their own is no duplicate: [{1: 1}, {"1": 2}], and as two
    // NDJSON records.
    let apart = temp_file(
        dir_test,
        "apart.msgpack",
        &[0x92, 0x81, 0x01, 0x01, 0x81, 0xa1, b'1', 0x02],
    );
    assert_eq!(
        succeed(&["convert", apart.to_str().unwrap(), "--to", "json"]),
        "[{\"1\":1},{\"1\":2}]\n"
    );
    let records = temp_file(
        dir_test,
        "records.msgpack",
        &[0x81, 0x01, 0x01, 0x81, 0xa1, b'1', 0x02],
    );
    assert_eq!(
        succeed(&["convert", records.to_str().unwrap(), "--to", "ndjson"]),
        "{\"1\":1}\n{\"1\":2}\n"
    );
}

#[test]
fn convert_msgpack_to_json_needs_exactly_one_value() {
    let dir_test = "msgpack-one";
    let target = temp_file(dir_test, "out.json", b"{\"keep\": true}\n");
    let out_path = target.to_str().unwrap();
    // 1, 2, [3]: the second value is the byte at offset 1.
    let multi = temp_file(dir_test, "multi.msgpack", &[0x01, 0x02, 0x91, 0x03]);
    let to_json = |input: &std::path::Path| {
        sluice(&[
            "convert",
            input.to_str().unwrap(),
            "--to",
            "json",
            "-o",
            out_path,
        ])
    };
    let out = to_json(&multi);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("error[msgpack/TrailingData]"), "{stderr}");
    // The byte span of the second value (binary has no lines and columns).
    assert!(stderr.contains("bytes 1..2"), "{stderr}");
    assert_eq!(std::fs::read(&target).unwrap(), b"{\"keep\": true}\n");
    // Streamed, the byte span of the second value.
    let out = sluice_with_stdin(
        &["convert", "-", "--from", "msgpack", "--to", "json"],
        &[0x91, 0x03, 0x92, 0x01, 0x02],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("error[msgpack/TrailingData]"), "{stderr}");
    assert!(stderr.contains("bytes 2..5"), "{stderr}");
    assert!(out.stdout.is_empty());
    let empty = temp_file(dir_test, "empty.msgpack", b"");
    let out = to_json(&empty);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("error[msgpack/Truncated]"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read(&target).unwrap(), b"{\"keep\": true}\n");
    // One value converts; several convert to NDJSON.
    let one = temp_file(dir_test, "one.msgpack", &[0x91, 0x03]);
    assert_eq!(
        succeed(&["convert", one.to_str().unwrap(), "--to", "json"]),
        "[3]\n"
    );
    assert_eq!(
        succeed(&["convert", multi.to_str().unwrap(), "--to", "ndjson"]),
        "1\n2\n[3]\n"
    );
}

#[test]
fn json_output_options_are_a_usage_error_for_other_outputs() {
    let doc = temp_file("output-options", "doc.json", b"[1, {\"a\": 2}]");
    let input = doc.to_str().unwrap();
    let packed = doc.with_file_name("out.msgpack");
    let packed = packed.to_str().unwrap();
    for args in [
        vec!["convert", input, "--to", "ndjson", "--pretty"],
        vec!["convert", input, "--to", "msgpack", "--pretty"],
        vec!["convert", input, "-o", packed, "--pretty"],
        vec!["convert", input, "--to", "msgpack", "--binary", "base64"],
        vec!["convert", input, "--to", "msgpack", "--binary", "error"],
    ] {
        let out = sluice(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("--pretty") || stderr.contains("--binary"),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(!std::path::Path::new(packed).exists());
    for args in [
        vec!["convert", input, "--to", "json", "--pretty"],
        vec!["convert", input, "--to", "ndjson", "--binary", "base64"],
        vec!["convert", input, "--to", "json", "--binary", "base64"],
    ] {
        succeed(&args);
    }
}

#[test]
fn check_msgpack_rejects_truncated_input() {
    let packed = temp_file("msgpack-check", "t.msgpack", &[0x92, 0x01]);
    let out = sluice(&["check", "--msgpack", packed.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("error[msgpack/"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn large_files_stream_and_still_point_at_errors() {
    // Over the in-memory limit, so the streaming path is taken.
    let mut doc = large_json();
    let good = temp_file("large", "good.json", &doc);
    let out = sluice(&["check", good.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    // The progress bar is for a terminal only: not a byte of it on a pipe.
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let at = doc.len() - 3;
    doc[at] = b'x';
    let bad = temp_file("large", "bad.json", &doc);
    let out = sluice(&["check", bad.to_str().unwrap()]);
    assert_error_at(&out, "json/UnexpectedToken", &doc, at);
    let (name, _, _) = location(&text(&out.stderr)).expect("a location");
    assert_eq!(name, bad.to_str().unwrap());
}

#[test]
fn ndjson_stats_counts_records_paths_and_bad_lines() {
    let path = temp_file(
        "stats",
        "s.ndjson",
        b"{\"a\": 1, \"t\": [\"x\"]}\n{\"a\": 2.5}\nnot json\n{\"a\": null}\n",
    );
    let out = sluice(&["ndjson", "stats", "--jobs", "2", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("records: 3\n"), "{stdout}");
    assert!(stdout.contains("errors: 1\n"), "{stdout}");
    let a = stdout.lines().find(|l| l.starts_with("$.a ")).unwrap();
    assert!(
        a.contains(" 3  ")
            && a.contains("float 1")
            && a.contains("integer 1")
            && a.contains("null 1"),
        "{a}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("$.t[] ") && l.ends_with("string")),
        "{stdout}"
    );
    assert!(
        text(&out.stderr).contains("line 3 (byte 32)"),
        "{}",
        text(&out.stderr)
    );
    let clean = temp_file("stats", "ok.ndjson", b"{\"a\": 1}\n");
    assert_eq!(
        sluice(&["ndjson", "stats", clean.to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn ndjson_stats_refuses_more_jobs_than_it_can_start_as_a_usage_error() {
    // Far more threads than the system starts: a usage error, not a crash.
    let path = temp_file("stats-jobs", "s.ndjson", b"{\"a\": 1}\n");
    let path = path.to_str().unwrap();
    for jobs in ["257", "100000", "-1"] {
        let out = sluice(&["ndjson", "stats", "--jobs", jobs, path]);
        assert_eq!(out.status.code(), Some(2), "{jobs}: {}", text(&out.stderr));
        assert!(out.stdout.is_empty(), "{jobs}");
    }
    for jobs in ["0", "256"] {
        let stdout = succeed(&["ndjson", "stats", "--jobs", jobs, path]);
        assert!(stdout.contains("records: 1\n"), "{stdout}");
    }
}

#[test]
fn ndjson_stats_names_a_directory_as_check_does() {
    let dir = std::env::temp_dir();
    let dir = dir.to_str().unwrap();
    for args in [vec!["check", dir], vec!["ndjson", "stats", dir]] {
        let out = sluice(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("it is a directory"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn ndjson_stats_counts_the_paths_of_valid_records_only() {
    let path = temp_file(
        "stats-valid-only",
        "st.ndjson",
        b"{\"a\":1}\n{\"zzz\":1, x}\n[\"late\"] 3\n",
    );
    for jobs in ["1", "2"] {
        let out = sluice(&["ndjson", "stats", "--jobs", jobs, path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1));
        let stdout = text(&out.stdout);
        assert!(stdout.contains("records: 1\n"), "{stdout}");
        assert!(stdout.contains("errors: 2\n"), "{stdout}");
        let paths: Vec<(&str, &str)> = stdout
            .lines()
            .skip_while(|l| !l.starts_with("path "))
            .skip(1)
            .filter_map(|l| {
                let mut words = l.split_whitespace();
                Some((words.next()?, words.next()?))
            })
            .collect();
        assert_eq!(paths, [("$", "1"), ("$.a", "1")], "{stdout}");
    }
}

#[test]
fn ndjson_stats_strict_names_the_file_of_a_bad_record() {
    let doc = b"{\"a\":1}\n{\"zzz\":1, x}\n";
    let good = temp_file("stats-strict", "good.ndjson", b"{\"b\":2}\n");
    let bad = temp_file("stats-strict", "st.ndjson", doc);
    let (good, bad) = (good.to_str().unwrap(), bad.to_str().unwrap());
    for (files, name) in [(vec![bad], bad), (vec![good, bad], bad)] {
        let mut args = vec!["ndjson", "stats", "--strict"];
        args.extend(files);
        let out = sluice(&args);
        assert_eq!(out.status.code(), Some(1));
        let stderr = text(&out.stderr);
        assert!(stderr.contains("error[json/ExpectKey]"), "{stderr}");
        assert_eq!(
            location(&stderr),
            Some((name.to_owned(), 2, 11)),
            "{stderr}"
        );
    }
    let out = sluice_with_stdin(&["ndjson", "stats", "--strict", "-"], doc);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert_eq!(
        location(&stderr),
        Some(("<stdin>".to_owned(), 2, 11)),
        "{stderr}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_write_error_names_the_output_not_the_input() {
    // Larger than the output buffer, so writes fail while the input is being read.
    let doc = array_of_objects(1 << 18);
    let path = temp_file("write-error", "big.json", &doc);
    let input = path.to_str().unwrap();
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    for args in [
        vec!["fmt", input],
        vec!["convert", input, "--to", "msgpack"],
        vec!["convert", input, "--to", "ndjson"],
        vec!["dump", input],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_sluice"))
            .args(&args)
            .stdout(full())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("<stdout>"), "{args:?}: {stderr}");
        assert!(!stderr.contains("big.json"), "{args:?}: {stderr}");
        assert!(!stderr.contains("bytes"), "{args:?}: {stderr}");
    }
    let out = sluice(&["fmt", input, "-o", "/dev/full"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("/dev/full"), "{stderr}");
    assert!(!stderr.contains("big.json"), "{stderr}");
}

/// The `name`, line and column of the `--> name:line:column` line of a diagnostic.
fn location(stderr: &str) -> Option<(String, usize, usize)> {
    let place = stderr
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("--> "))?;
    let mut parts = place.rsplitn(3, ':');
    let column = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    Some((parts.next()?.to_owned(), line, column))
}

/// Names of files left in `dir` that look like temporary output files.
fn leftover_temp_files(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect()
}

#[test]
fn fmt_in_place_over_the_memory_limit_rewrites_the_file() {
    // Over the in-memory limit, so the input is streamed while the output is written.
    let mut doc = Vec::with_capacity(9 << 20);
    let mut condensed = Vec::with_capacity(9 << 20);
    doc.extend_from_slice(b"[");
    condensed.extend_from_slice(b"[");
    while doc.len() < (9 << 20) {
        doc.extend_from_slice(b"{\"key\": \"value\", \"n\": 12345},\n");
        condensed.extend_from_slice(b"{\"key\":\"value\",\"n\":12345},");
    }
    doc.extend_from_slice(b"{}]");
    condensed.extend_from_slice(b"{}]\n");
    let path = temp_file("in-place", "big.json", &doc);
    let name = path.to_str().unwrap();
    let out = sluice(&["fmt", "--condensed", name, "-o", name]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read(&path).unwrap() == condensed, "wrong output");
    assert_eq!(sluice(&["check", name]).status.code(), Some(0));
    assert_eq!(
        leftover_temp_files(path.parent().unwrap()),
        Vec::<String>::new()
    );
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn invalid_input_leaves_an_existing_output_file_untouched() {
    let bad = temp_file("keep-output", "bad.json", b"[1,\n");
    let target = temp_file("keep-output", "out.json", b"{\"keep\": true}\n");
    let dir = target.parent().unwrap();
    for args in [
        vec!["fmt", bad.to_str().unwrap(), "-o", target.to_str().unwrap()],
        vec![
            "convert",
            bad.to_str().unwrap(),
            "--to",
            "msgpack",
            "-o",
            target.to_str().unwrap(),
        ],
    ] {
        let out = sluice(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            text(&out.stderr).contains("error[json/UnexpectedEof]"),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(std::fs::read(&target).unwrap(), b"{\"keep\": true}\n");
        assert_eq!(leftover_temp_files(dir), Vec::<String>::new());
    }
    assert_eq!(std::fs::read(&bad).unwrap(), b"[1,\n");
}

#[cfg(unix)]
#[test]
fn an_interrupt_while_writing_an_output_file_removes_the_temporary_file() {
    use std::time::{Duration, Instant};
    for (signal, command) in [
        ("INT", vec!["fmt", "-"]),
        ("TERM", vec!["fmt", "-"]),
        ("HUP", vec!["fmt", "-"]),
        (
            "INT",
            vec!["convert", "-", "--from", "json", "--to", "msgpack"],
        ),
    ] {
        let target = temp_file("interrupt", "out.json", b"{\"keep\": true}\n");
        let dir = target.parent().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_sluice"))
            .args(&command)
            .args(["-o", target.to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        // Part of a document, and the pipe left open: the command waits for the rest.
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"[1, 2,").unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        while leftover_temp_files(dir).is_empty() {
            if let Some(status) = child.try_wait().unwrap() {
                panic!("{command:?} ended before writing: {status}");
            }
            assert!(Instant::now() < deadline, "{command:?}: no temporary file");
            std::thread::sleep(Duration::from_millis(10));
        }
        let sent = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .expect("kill runs");
        assert!(sent.success());
        let out = child.wait_with_output().unwrap();
        drop(stdin);
        assert_eq!(
            out.status.code(),
            Some(130),
            "{signal} {command:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(leftover_temp_files(dir), Vec::<String>::new());
        assert_eq!(std::fs::read(&target).unwrap(), b"{\"keep\": true}\n");
    }
}

#[test]
fn ndjson_needs_a_line_break_between_records() {
    for (test, contents, line, column) in [
        ("nd-two", &b"1 2\n"[..], 1, 3),
        ("nd-glued", b"{\"a\":1}{\"b\":2}\n", 1, 8),
        ("nd-second", b"{\"a\":1}\n\n[2] [3]\n", 3, 5),
    ] {
        let ndjson = temp_file(test, "r.ndjson", contents);
        let as_json = temp_file(test, "r.json", contents);
        for args in [
            vec!["check", ndjson.to_str().unwrap()],
            vec!["check", "--ndjson", as_json.to_str().unwrap()],
            vec!["convert", ndjson.to_str().unwrap(), "--to", "json"],
            vec!["dump", ndjson.to_str().unwrap()],
        ] {
            let out = sluice(&args);
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
            assert!(
                stderr.contains("error[json/TrailingToken]"),
                "{args:?}: {stderr}"
            );
            let (_, at_line, at_column) = location(&stderr).expect("a location");
            assert_eq!((at_line, at_column), (line, column), "{args:?}: {stderr}");
        }
        assert!(
            sluice(&["convert", ndjson.to_str().unwrap(), "--to", "json"])
                .stdout
                .is_empty()
        );
    }
}

#[test]
fn an_ndjson_record_whose_line_goes_on_is_not_written() {
    // The second record is complete, and long enough that the writer would hand it on at
    // once; its line goes on with a second value, so the record is bad and never output.
    let long = "a".repeat(100_000);
    let contents = format!("{{\"a\":1}}\n[\"{long}\"] 2\n{{\"b\":1}}\n");
    let path = temp_file("nd-goes-on", "r.ndjson", contents.as_bytes());
    let column = long.len() + 6;
    for to in ["ndjson", "msgpack"] {
        let args = ["convert", path.to_str().unwrap(), "--to", to];
        let out = sluice(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("error[json/TrailingToken]"), "{stderr}");
        assert_eq!(
            location(&stderr).map(|(_, line, column)| (line, column)),
            Some((2, column)),
            "{args:?}"
        );
        assert!(
            out.stdout.is_empty(),
            "{args:?}: {} bytes",
            out.stdout.len()
        );
    }
    // `dump` shows the tokens read up to the error, but not the one that would end the bad
    // record.
    let out = sluice_with_stdin(&["dump", "--from", "ndjson", "-"], b"[1] 2\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "<ArrayRoot>\n|---<Number> 1\n");
    let out = sluice_with_stdin(&["dump", "--from", "ndjson", "-"], b"[1]\n\"x\" 2\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "<ArrayRoot>\n|---<Number> 1\n<ArrayEnd>\n"
    );
}

#[test]
fn an_ndjson_record_cut_by_its_line_feed_is_reported_so_even_where_the_output_refuses_the_next_line()
 {
    // The next line's `Infinity` has no JSON spelling, but the record is cut before it: the
    // error is the cut, where the line ends, as `check` reports it.
    let path = temp_file("nd-cut-nonfinite", "r.ndjson", b"[1,\nInfinity]\n");
    for args in [
        vec!["check", "--json5", path.to_str().unwrap()],
        vec![
            "convert",
            "--json5",
            path.to_str().unwrap(),
            "--to",
            "ndjson",
        ],
        vec!["convert", "--json5", path.to_str().unwrap(), "--to", "json"],
    ] {
        let out = sluice(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error[json/UnexpectedEof]"),
            "{args:?}: {stderr}"
        );
        assert_eq!(
            location(&stderr).map(|(_, line, column)| (line, column)),
            Some((1, 4)),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn ndjson_records_are_one_line_each() {
    // A value that goes on past its line feed is cut off there, as the library reads it.
    let path = temp_file("nd-multiline", "m.ndjson", b"[1]\n{\n\"a\":1\n}\n");
    for args in [
        vec!["check", path.to_str().unwrap()],
        vec!["convert", path.to_str().unwrap(), "--to", "ndjson"],
    ] {
        let out = sluice(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("error[json/UnexpectedEof]"), "{stderr}");
        assert_eq!(
            location(&stderr).map(|(_, line, column)| (line, column)),
            Some((2, 2)),
            "{stderr}"
        );
    }
}

#[test]
fn streamed_ndjson_diagnostics_name_the_line() {
    let out = sluice_with_stdin(
        &["check", "--ndjson", "-"],
        b"{\"ok\":1}\n{\"ok\":2}\n{\"bad\" 3}\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("error[json/ExpectColon]"), "{stderr}");
    assert_eq!(
        location(&stderr),
        Some(("<stdin>".to_owned(), 3, 8)),
        "{stderr}"
    );

    let out = sluice_with_stdin(&["check", "--ndjson", "-"], b"1\n\n2 3\n");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("error[json/TrailingToken]"), "{stderr}");
    assert_eq!(
        location(&stderr),
        Some(("<stdin>".to_owned(), 3, 3)),
        "{stderr}"
    );

    // A file over the in-memory limit is streamed too; the error is on its last line.
    let record = b"{\"key\":\"value\",\"n\":12345}\n";
    let mut doc = Vec::with_capacity(9 << 20);
    while doc.len() < (9 << 20) {
        doc.extend_from_slice(record);
    }
    let lines = doc.len() / record.len();
    doc.extend_from_slice(b"{\"key\" \"value\"}\n");
    let path = temp_file("nd-streamed", "big.ndjson", &doc);
    let out = sluice(&["check", path.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error[json/ExpectColon]"), "{stderr}");
    let (_, line, column) = location(&stderr).expect("a location");
    assert_eq!((line, column), (lines + 1, 8), "{stderr}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn convert_ndjson_to_json_writes_one_array() {
    let ndjson = temp_file("nd-to-json", "three.ndjson", b"1\n2\n{\"a\":[3]}\n");
    let target = ndjson.with_file_name("out.json");
    let out = sluice(&[
        "convert",
        ndjson.to_str().unwrap(),
        "--to",
        "json",
        "-o",
        target.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&target).unwrap(), b"[1,2,{\"a\":[3]}]\n");
    let out = sluice(&["check", target.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    assert_eq!(
        succeed(&[
            "convert",
            ndjson.to_str().unwrap(),
            "--to",
            "json",
            "--pretty",
        ]),
        "[\n  1,\n  2,\n  {\n    \"a\": [\n      3\n    ]\n  }\n]\n"
    );

    let empty = temp_file("nd-to-json", "empty.ndjson", b"\n\n");
    assert_eq!(
        succeed(&["convert", empty.to_str().unwrap(), "--to", "json"]),
        "[]\n"
    );
}

#[test]
fn convert_json_array_to_ndjson_writes_one_record_per_element() {
    let json = temp_file("json-to-nd", "a.json", b"[1, {\"a\": [2]}, [\"x\"]]");
    let target = json.with_file_name("out.ndjson");
    let out = sluice(&[
        "convert",
        json.to_str().unwrap(),
        "-o",
        target.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(&target).unwrap(),
        b"1\n{\"a\":[2]}\n[\"x\"]\n"
    );
    assert_eq!(
        sluice(&["check", target.to_str().unwrap()]).status.code(),
        Some(0)
    );
    // And back: the records become the array again.
    let out = sluice(&["convert", target.to_str().unwrap(), "--to", "json"]);
    assert_eq!(text(&out.stdout), "[1,{\"a\":[2]},[\"x\"]]\n");

    for (contents, records) in [
        (&b"{\"a\": [1]}"[..], "{\"a\":[1]}\n"),
        (b"[]", ""),
        (b"7", "7\n"),
    ] {
        let json = temp_file("json-to-nd", "one.json", contents);
        assert_eq!(
            succeed(&["convert", json.to_str().unwrap(), "--to", "ndjson"]),
            records
        );
    }
}

#[test]
fn check_dialect_flags_set_the_syntax_of_each_ndjson_record() {
    // Records stay records with a dialect flag, as they do for `convert`.
    for name in ["r.ndjson", "r.jsonl"] {
        let path = temp_file("nd-dialect", name, b"1\n2\n");
        for flag in [None, Some("--strict"), Some("--relaxed"), Some("--json5")] {
            let mut args = vec!["check"];
            args.extend(flag);
            args.push(path.to_str().unwrap());
            let out = sluice(&args);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{args:?}: {}",
                text(&out.stderr)
            );
        }
    }

    // Each record is read in the dialect asked for.
    let trailing_comma = temp_file("nd-dialect", "comma.ndjson", b"[1]\n[1,]\n");
    let unquoted_key = temp_file("nd-dialect", "key.ndjson", b"{\"a\":1}\n{a:1}\n");
    for (path, flag, expected) in [
        (
            &trailing_comma,
            "--strict",
            Some(("json/UnexpectedToken", 2, 4)),
        ),
        (&trailing_comma, "--relaxed", None),
        (&trailing_comma, "--json5", None),
        (&unquoted_key, "--strict", Some(("json/ExpectKey", 2, 2))),
        (&unquoted_key, "--relaxed", Some(("json/ExpectKey", 2, 2))),
        (&unquoted_key, "--json5", None),
    ] {
        let name = path.to_str().unwrap();
        let out = sluice(&["check", flag, name]);
        let stderr = text(&out.stderr);
        match expected {
            None => assert_eq!(out.status.code(), Some(0), "{flag} {name}: {stderr}"),
            Some((code, line, column)) => {
                assert_eq!(out.status.code(), Some(1), "{flag} {name}: {stderr}");
                assert!(stderr.contains(&format!("error[{code}]")), "{stderr}");
                let (_, at_line, at_column) = location(&stderr).expect("a location");
                assert_eq!((at_line, at_column), (line, column), "{stderr}");
            }
        }
        // `convert` reads the same file the same way (strict is its default for .ndjson).
        let mut args = vec!["convert", name, "--to", "json"];
        if flag != "--strict" {
            args.push(flag);
        }
        let converted = sluice(&args);
        assert_eq!(converted.status.code(), out.status.code(), "{flag} {name}");
    }

    // `--ndjson` combines with a dialect flag for any file name.
    let other = temp_file("nd-dialect", "records.txt", b"[1,]\n{\"a\":2,}\n");
    let out = sluice(&["check", "--ndjson", "--relaxed", other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = sluice(&["check", "--ndjson", "--strict", other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));

    // A .json file is still one JSON text with a dialect flag.
    let json = temp_file("nd-dialect", "two.json", b"1\n2\n");
    for flag in ["--strict", "--relaxed", "--json5"] {
        let out = sluice(&["check", flag, json.to_str().unwrap()]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{flag}: {stderr}");
        assert!(stderr.contains("error[json/TrailingToken]"), "{stderr}");
        assert_eq!(
            location(&stderr).map(|l| (l.1, l.2)),
            Some((2, 1)),
            "{stderr}"
        );
    }
}

#[test]
fn check_msgpack_conflicts_with_ndjson_and_the_json_dialects() {
    let path = temp_file("msgpack-flags", "v.msgpack", &[0x01]);
    let name = path.to_str().unwrap();
    assert_eq!(sluice(&["check", "--msgpack", name]).status.code(), Some(0));
    // A dialect flag sets the syntax of JSON values only: the extension still says MessagePack.
    assert_eq!(sluice(&["check", "--strict", name]).status.code(), Some(0));
    for flag in ["--ndjson", "--strict", "--relaxed", "--json5"] {
        let out = sluice(&["check", "--msgpack", flag, name]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
    }
    assert_eq!(
        sluice(&["check", "--relaxed", "--json5", name])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn a_directory_is_a_usage_error() {
    let dir = std::env::temp_dir();
    let out = sluice(&["check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

/// The 1-based line and column of byte `at` of `doc` (ASCII).
fn line_column(doc: &[u8], at: usize) -> (usize, usize) {
    let line_start = doc[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = doc[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    (line, at - line_start + 1)
}

/// `out` is the diagnostic `code` at byte `at` of `doc`, shown as `name:line:column`.
fn assert_error_at(out: &Output, code: &str, doc: &[u8], at: usize) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&format!("error[{code}]")), "{stderr}");
    let (_, line, column) = location(&stderr).expect("a location");
    assert_eq!((line, column), line_column(doc, at), "{stderr}");
}

#[cfg(unix)]
#[test]
fn a_named_pipe_streams_instead_of_being_loaded() {
    let dir = temp_file("fifo", "unused", b"");
    let fifo = dir.with_file_name("in.json");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let writer_path = fifo.clone();
    // Opening a FIFO for writing waits for its reader: the command under test.
    let writer = std::thread::spawn(move || std::fs::write(writer_path, b"[1,\n x]"));
    let out = sluice(&["check", fifo.to_str().unwrap()]);
    assert_error_at(&out, "json/UnexpectedToken", b"[1,\n x]", 5);
    writer.join().unwrap().unwrap();
    std::fs::remove_file(&fifo).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn dev_stdin_streams_like_standard_input() {
    let out = sluice_with_stdin(&["check", "/dev/stdin"], b"[1,\n x]");
    assert_error_at(&out, "json/UnexpectedToken", b"[1,\n x]", 5);
    // Over the in-memory limit, through a pipe: read to the end, the error at its end.
    let mut doc = Vec::with_capacity(9 << 20);
    doc.extend_from_slice(b"[");
    while doc.len() < (9 << 20) {
        doc.extend_from_slice(b"{\"key\": \"value\", \"n\": 12345},\n");
    }
    let at = doc.len();
    doc.extend_from_slice(b"x]");
    let out = sluice_with_stdin(&["check", "/dev/stdin"], &doc);
    assert_error_at(&out, "json/UnexpectedToken", &doc, at);
    doc.truncate(at);
    doc.extend_from_slice(b"{}]");
    let out = sluice_with_stdin(&["check", "/dev/stdin"], &doc);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn fmt_takes_one_root_value() {
    let path = temp_file("fmt-multi", "multi.json", b"[1] [2]\n");
    let target = temp_file("fmt-multi", "out.json", b"{\"keep\": true}\n");
    for relaxed in [false, true] {
        let mut args = vec![
            "fmt",
            path.to_str().unwrap(),
            "-o",
            target.to_str().unwrap(),
        ];
        if relaxed {
            args.push("--relaxed");
        }
        let out = sluice(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("error[json/TrailingToken]"), "{stderr}");
        assert_eq!(
            location(&stderr).map(|l| (l.1, l.2)),
            Some((1, 5)),
            "{stderr}"
        );
        assert_eq!(std::fs::read(&target).unwrap(), b"{\"keep\": true}\n");
    }
}

#[test]
fn streamed_json_diagnostics_give_line_and_column() {
    // Standard input is streamed, whatever its size: each command, each dialect.
    let cases: [(&[&str], &[u8], &str, usize); 8] = [
        (&["check", "-"], b"{\"a\":1} x", "json/TrailingToken", 8),
        (&["check", "-"], b"[1,\n2", "json/UnexpectedEof", 5),
        (
            &["fmt", "-"],
            b"{\"a\":\n  [1, 2,\n   3 4]}",
            "json/ExpectComma",
            20,
        ),
        (&["dump", "-"], b"[1,\n x]", "json/UnexpectedToken", 5),
        (
            &["convert", "--from", "json", "--to", "ndjson", "-"],
            b"[1,\n{\"a\" 2}]",
            "json/ExpectColon",
            9,
        ),
        // Raised by the writer for a number already read: its span is that number's.
        (
            &["convert", "--from", "json", "--to", "msgpack", "-"],
            b"[1,\n 300000000000000000000000000]",
            "msgpack/IntegerTooLarge",
            5,
        ),
        (
            &["check", "--relaxed", "-"],
            b"// c\n[1, /* x */\n 2,,]",
            "json/UnexpectedToken",
            20,
        ),
        (
            &["check", "--json5", "-"],
            b"{a: 1,\n b: 'x' 'y'}",
            "json/ExpectComma",
            15,
        ),
    ];
    for (args, doc, code, at) in cases {
        let out = sluice_with_stdin(args, doc);
        assert_error_at(&out, code, doc, at);
        let stderr = text(&out.stderr);
        assert_eq!(location(&stderr).unwrap().0, "<stdin>", "{stderr}");
        // The snippet shows the line, as for a file read whole.
        let (line, _) = line_column(doc, at);
        let source_line = doc.split(|&b| b == b'\n').nth(line - 1).unwrap();
        assert!(
            stderr.contains(&format!("{line} | {}", text(source_line))),
            "{stderr}"
        );
    }
}

/// A pretty-printed JSON array of about `size` bytes, one short item per line, left open
/// after a comma.
fn pretty_items(size: usize) -> Vec<u8> {
    let mut doc = Vec::with_capacity(size + 64);
    doc.extend_from_slice(b"[\n");
    let mut i = 0u64;
    while doc.len() < size {
        doc.extend_from_slice(format!("  {{\"key\": \"value\", \"i\": {i}}},\n").as_bytes());
        i += 1;
    }
    doc
}

#[test]
fn streamed_json_errors_after_many_megabytes_of_lines_name_their_line() {
    // Three times the in-memory limit, through standard input and as a file.
    let mut doc = pretty_items(24 << 20);
    let at = doc.len() + 7;
    doc.extend_from_slice(b"  {\"a\" 1}\n]\n");
    let out = sluice_with_stdin(&["check", "-"], &doc);
    assert_error_at(&out, "json/ExpectColon", &doc, at);
    let path = temp_file("json-streamed", "big.json", &doc);
    let out = sluice(&["check", path.to_str().unwrap()]);
    assert_error_at(&out, "json/ExpectColon", &doc, at);
    std::fs::remove_file(&path).unwrap();

    // A number too large for MessagePack, met deep in the input by the writer.
    let mut doc = pretty_items(12 << 20);
    let at = doc.len() + 8;
    doc.extend_from_slice(b"  {\"n\": 123456789012345678901234567890}\n]\n");
    let out = sluice_with_stdin(&["convert", "--from", "json", "--to", "msgpack", "-"], &doc);
    assert_error_at(&out, "msgpack/IntegerTooLarge", &doc, at);

    // After many lines, one line of several MiB (a minified part) with an error near its
    // end: it is kept whole, so the column is exact.
    let mut doc = pretty_items(10 << 20);
    doc.extend_from_slice(b"  [");
    while doc.len() < (14 << 20) {
        doc.extend_from_slice(b"{\"key\":\"value\",\"n\":[1,2.5,true,null]},");
    }
    let at = doc.len();
    doc.extend_from_slice(b"}]\n]\n");
    let out = sluice_with_stdin(&["fmt", "-"], &doc);
    assert_error_at(&out, "json/UnexpectedToken", &doc, at);
}

#[cfg(target_os = "linux")]
#[test]
fn ndjson_stats_reports_a_write_error_instead_of_panicking() {
    let path = temp_file("stats-write-error", "r.ndjson", b"{\"a\": 1}\n{\"b\": 2}\n");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sluice"))
        .args(["ndjson", "stats", path.to_str().unwrap()])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("<stdout>"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn ndjson_stats_ends_quietly_when_its_output_pipe_closes() {
    // Many key paths, so the report is larger than a pipe holds.
    let mut doc = Vec::new();
    for i in 0..20_000 {
        doc.extend_from_slice(format!("{{\"key{i}\": {i}}}\n").as_bytes());
    }
    let path = temp_file("stats-broken-pipe", "r.ndjson", &doc);
    // Nobody reads the report.
    let out = run_with_output_closed(&["ndjson", "stats", path.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn writing_commands_end_quietly_when_their_output_pipe_closes() {
    // Larger than a pipe holds, so writes fail while the input is being read.
    let doc = array_of_objects(1 << 20);
    let path = temp_file("broken-pipe", "big.json", &doc);
    let input = path.to_str().unwrap();
    for args in [
        vec!["fmt", input],
        vec!["convert", input, "--to", "msgpack"],
        vec!["convert", input, "--to", "ndjson"],
        vec!["dump", input],
    ] {
        let out = run_with_output_closed(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_stderr_keeps_the_exit_code() {
    let bad = temp_file("stderr-full", "bad.json", b"[1,");
    let missing = bad.with_file_name("missing.json");
    for (args, code) in [
        (vec!["check", bad.to_str().unwrap()], 1),
        (vec!["check", missing.to_str().unwrap()], 2),
        (
            vec!["check", bad.to_str().unwrap(), missing.to_str().unwrap()],
            2,
        ),
        (vec!["ndjson", "stats", bad.to_str().unwrap()], 1),
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_sluice"))
            .args(&args)
            .stderr(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
    }
}

#[test]
fn duplicate_keys_are_valid_rfc_8259_json() {
    // RFC 8259 says only that names SHOULD be unique: JSONTestSuite's
    // y_object_duplicated_key.json must be accepted.
    let doc = b"{\"a\":\"b\",\"a\":\"c\"}";
    let json = temp_file("duplicate-keys", "dup.json", doc);
    let json = json.to_str().unwrap();
    for args in [
        vec!["check", json],
        vec!["check", "--strict", json],
        vec!["check", "--relaxed", json],
        vec!["check", "--json5", json],
    ] {
        succeed(&args);
    }
    // Every occurrence is kept, in order.
    assert_eq!(
        succeed(&["fmt", "--condensed", json]),
        "{\"a\":\"b\",\"a\":\"c\"}\n"
    );
    assert_eq!(
        succeed(&["convert", json, "--to", "ndjson"]),
        "{\"a\":\"b\",\"a\":\"c\"}\n"
    );
    let records = temp_file(
        "duplicate-keys",
        "dup.ndjson",
        b"{\"a\":1,\"a\":2}\n{\"b\":3}\n",
    );
    let records = records.to_str().unwrap();
    succeed(&["check", "--strict", records]);
    let stats = succeed(&["ndjson", "stats", "--strict", records]);
    assert!(stats.contains("errors: 0\n"), "{stats}");
}

#[test]
fn unique_keys_refuses_a_key_twice_in_json_and_in_ndjson_records() {
    let doc = b"{\"a\":1,\n \"b\":{\"c\":2,\"c\":3}}";
    let json = temp_file("unique-keys", "dup.json", doc);
    let json = json.to_str().unwrap();
    let records = temp_file(
        "unique-keys",
        "dup.ndjson",
        b"{\"a\":1}\n{\"a\":1,\"a\":2}\n",
    );
    let records = records.to_str().unwrap();
    // `fmt` and `convert` refuse it as `check` does, and leave an output file as it was.
    let target = temp_file("unique-keys", "out.msgpack", b"keep");
    let out_file = target.to_str().unwrap();
    for (args, at) in [
        (vec!["check", json], "dup.json:2:13"),
        (vec!["check", "--relaxed", json], "dup.json:2:13"),
        (vec!["check", records], "dup.ndjson:2:8"),
        (vec!["fmt", json], "dup.json:2:13"),
        (vec!["fmt", "--relaxed", json], "dup.json:2:13"),
        (vec!["convert", json, "--to", "ndjson"], "dup.json:2:13"),
        (vec!["convert", records, "--to", "json"], "dup.ndjson:2:8"),
        (
            vec!["convert", records, "--to", "msgpack"],
            "dup.ndjson:2:8",
        ),
        (vec!["convert", json, "-o", out_file], "dup.json:2:13"),
    ] {
        let out = sluice(&[&args[..1], &["--unique-keys"], &args[1..]].concat());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("error[json/DuplicateKey]"), "{stderr}");
        assert!(stderr.contains(at), "{args:?}: {stderr}");
    }
    assert_eq!(std::fs::read(&target).unwrap(), b"keep");
    assert_eq!(
        leftover_temp_files(target.parent().unwrap()),
        Vec::<String>::new()
    );
    // Streamed from standard input, the same error at the same place.
    let out = sluice_with_stdin(&["fmt", "--unique-keys", "-"], doc);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("error[json/DuplicateKey]"), "{stderr}");
    assert_eq!(
        location(&stderr),
        Some(("<stdin>".to_owned(), 2, 13)),
        "{stderr}"
    );
    // Without duplicates the option changes nothing.
    let fine = temp_file("unique-keys", "fine.json", b"{\"a\": {\"a\": 1}}");
    let fine = fine.to_str().unwrap();
    succeed(&["check", "--unique-keys", fine]);
    assert_eq!(
        succeed(&["fmt", "--unique-keys", "--condensed", fine]),
        "{\"a\":{\"a\":1}}\n"
    );
    assert_eq!(
        succeed(&["convert", "--unique-keys", fine, "--to", "ndjson"]),
        "{\"a\":{\"a\":1}}\n"
    );
    // MessagePack maps are not JSON objects: the option is for JSON and NDJSON input.
    let packed = temp_file("unique-keys", "one.msgpack", &[0x81, 0xa1, b'a', 0x01]);
    let packed = packed.to_str().unwrap();
    for args in [
        vec!["check", "--unique-keys", "--msgpack", json],
        vec!["convert", "--unique-keys", packed, "--to", "json"],
    ] {
        let out = sluice(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn unique_keys_with_a_file_that_is_msgpack_by_its_extension_is_a_usage_error() {
    // The MessagePack reader keeps every key of a map: the check would pass unmade. So
    // `check` refuses the option for a `.msgpack` file as `convert` does, before reading
    // any file (the JSON file's duplicate key is not reported).
    let packed = temp_file(
        "unique-keys-ext",
        "dup.MPK",
        &[0x82, 0xa1, b'a', 1, 0xa1, b'a', 2],
    );
    let packed = packed.to_str().unwrap();
    let json = temp_file("unique-keys-ext", "dup.json", b"{\"a\":1,\"a\":2}");
    let json = json.to_str().unwrap();
    for args in [
        vec!["check", "--unique-keys", packed],
        vec!["check", "--unique-keys", json, packed],
        vec!["check", "--unique-keys", "--strict", packed],
    ] {
        let out = sluice(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("--unique-keys"), "{stderr}");
        assert!(stderr.contains("dup.MPK"), "{stderr}");
        assert!(!stderr.contains("DuplicateKey"), "{stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // Without the option the file is read as MessagePack, as before.
    succeed(&["check", packed]);
    // --ndjson decides the format over the extension: the records are checked.
    let records = temp_file("unique-keys-ext", "records.msgpack", b"{\"a\":1,\"a\":2}\n");
    let out = sluice(&[
        "check",
        "--unique-keys",
        "--ndjson",
        records.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("error[json/DuplicateKey]"));
}

#[test]
fn standard_input_given_twice_is_a_usage_error() {
    // The second read would see an empty stream and report a valid input as invalid
    // (json/UnexpectedEof), or for stats count it once as if it were two inputs; so would
    // `/dev/stdin` read after `-`.
    let doc = b"{\"a\": 1}\n";
    let mut twice = vec![
        vec!["check", "-", "-"],
        vec!["check", "--ndjson", "-", "-"],
        vec!["ndjson", "stats", "-", "-"],
    ];
    let mut once = vec![vec!["check", "-"]];
    if cfg!(target_os = "linux") {
        twice.extend([
            vec!["check", "-", "/dev/stdin"],
            vec!["check", "/dev/stdin", "/proc/self/fd/0"],
            vec!["check", "--ndjson", "/dev/stdin", "-"],
            vec!["ndjson", "stats", "-", "/dev/stdin"],
        ]);
        once.push(vec!["check", "/dev/stdin"]);
    }
    for args in twice {
        let out = sluice_with_stdin(&args, doc);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    for args in once {
        let out = sluice_with_stdin(&args, doc);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn standard_input_redirected_from_a_file_is_no_other_path() {
    let doc = b"{\"a\": 1}\n";
    // Standard input redirected from a file: that file by its own name is a file like any
    // other, read afresh, and so is `/dev/stdin`, which opens it again.
    let path = temp_file("stdin-file", "doc.json", doc);
    let name = path.to_str().unwrap();
    for args in [
        vec!["check", name, name, "-"],
        vec!["check", "-", "/dev/stdin"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_sluice"))
            .args(&args)
            .stdin(std::fs::File::open(&path).unwrap())
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn msgpack_diagnostics_give_byte_offsets_not_lines_of_binary() {
    // 10 (a byte that is also a line feed), then an array of 2 items that holds 1.
    let packed = temp_file("msgpack-offsets", "t.msgpack", &[0x0a, 0x92, 0x01]);
    let out = sluice(&["check", packed.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("error[msgpack/"), "{stderr}");
    // No `name:line:column` made up from binary bytes, and no snippet of them.
    assert_eq!(location(&stderr), None, "{stderr}");
    assert!(!stderr.contains('\u{fffd}'), "{stderr}");
    assert!(stderr.contains("bytes 1.."), "{stderr}");
    assert!(stderr.contains("t.msgpack"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn file_names_need_not_be_utf8() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = temp_file("non-utf8", "placeholder", b"").with_file_name("");
    let good = dir.join(OsStr::from_bytes(b"good\xff.json"));
    let bad = dir.join(OsStr::from_bytes(b"bad\xff.json"));
    let out_path = dir.join(OsStr::from_bytes(b"out\xff.json"));
    std::fs::write(&good, b"{\"a\": [1, 2]}").unwrap();
    std::fs::write(&bad, b"{\"a\": }").unwrap();
    let run = |args: &[&OsStr]| {
        Command::new(env!("CARGO_BIN_EXE_sluice"))
            .args(args)
            .output()
            .unwrap()
    };
    let os = OsStr::new;
    let out = run(&[os("check"), good.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(&[os("check"), bad.as_os_str()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let (_, line, column) = location(&text(&out.stderr)).expect("a location");
    assert_eq!((line, column), (1, 7));
    let out = run(&[
        os("fmt"),
        os("--condensed"),
        good.as_os_str(),
        os("-o"),
        out_path.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&out_path).unwrap(), b"{\"a\":[1,2]}\n");
    let out = run(&[os("convert"), good.as_os_str(), os("--to"), os("ndjson")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(out.stdout, b"{\"a\":[1,2]}\n");
    let out = run(&[os("dump"), good.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn ndjson_stats_goes_on_after_a_file_it_cannot_read() {
    let one = temp_file(
        "stats-unreadable",
        "one.ndjson",
        b"{\"a\": 1}\n{\"a\": 2}\n",
    );
    let two = temp_file("stats-unreadable", "two.ndjson", b"{\"b\": 3}\n");
    let missing = one.with_file_name("missing.ndjson");
    let dir = one.parent().unwrap();
    let out = sluice(&[
        "ndjson",
        "stats",
        one.to_str().unwrap(),
        missing.to_str().unwrap(),
        dir.to_str().unwrap(),
        two.to_str().unwrap(),
    ]);
    // The files that could be read are counted; the run still fails as a usage error.
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("records: 3\n"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("$.b ")), "{stdout}");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("missing.ndjson"), "{stderr}");
}

#[test]
fn fmt_writes_relaxed_input_as_strict_json_without_its_comments() {
    let doc = b"{\n  // width\n  \"w\": 0x1F, /* h */ \"h\": .5,\n  \"l\": [1, 2,],\n}\n";
    let path = temp_file("fmt-relaxed", "c.json5", doc);
    assert_eq!(
        succeed(&["fmt", "--condensed", path.to_str().unwrap()]),
        "{\"w\":31,\"h\":0.5,\"l\":[1,2]}\n"
    );
    let path = temp_file("fmt-relaxed", "inf.json5", b"[1, Infinity]");
    let out = sluice(&["fmt", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("error[json/NonFiniteNumber]"), "{stderr}");
    assert_eq!(location(&stderr).map(|(_, l, c)| (l, c)), Some((1, 5)));
    // The diagnostic names the output that keeps such a number.
    assert!(stderr.contains("--to msgpack"), "{stderr}");
}

#[cfg(target_os = "linux")]
#[test]
fn output_to_dev_stdout_appends_to_the_file_behind_it() {
    // `sluice fmt x.json -o /dev/stdout >> log`: /dev/stdout leads to `log` itself, and
    // replacing that file (or truncating it) would lose what it held.
    let input = temp_file("dev-stdout", "in.json", b"{\"a\": 1}");
    for out_path in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
        let log = temp_file("dev-stdout", "log.txt", b"previous\n");
        let append = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_sluice"))
            .args([
                "fmt",
                "--condensed",
                input.to_str().unwrap(),
                "-o",
                out_path,
            ])
            .stdout(append)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(
            text(&std::fs::read(&log).unwrap()),
            "previous\n{\"a\":1}\n",
            "{out_path}"
        );
        assert_eq!(
            leftover_temp_files(log.parent().unwrap()),
            Vec::<String>::new()
        );
    }
}

#[test]
fn a_scalar_root_is_valid_in_every_dialect() {
    let path = temp_file("scalar-root", "s.json", b"42\n");
    let path = path.to_str().unwrap();
    for flag in ["--strict", "--relaxed", "--json5"] {
        succeed(&["check", flag, path]);
        assert_eq!(succeed(&["fmt", flag, path]), "42\n");
    }
}

#[test]
fn ndjson_stats_prints_no_report_when_no_file_could_be_read() {
    let dir = temp_file("stats-none-read", "x", b"").with_file_name("");
    let missing = dir.join("missing.ndjson");
    let other = dir.join("other.ndjson");
    let (missing, other) = (missing.to_str().unwrap(), other.to_str().unwrap());
    for files in [vec![missing], vec![missing, other]] {
        let mut args = vec!["ndjson", "stats"];
        args.extend(&files);
        let out = sluice(&args);
        assert_eq!(out.status.code(), Some(2), "{files:?}");
        // A report of zero records would read as an empty corpus.
        assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
        let stderr = text(&out.stderr);
        for file in files {
            assert!(stderr.contains(file), "{stderr}");
        }
    }
    // An empty file is read: its report of nothing is a result.
    let empty = temp_file("stats-none-read", "empty.ndjson", b"");
    let stdout = succeed(&["ndjson", "stats", empty.to_str().unwrap()]);
    assert!(stdout.contains("records: 0\n"), "{stdout}");
}

#[test]
fn ndjson_stats_fail_fast_stops_at_the_first_bad_record_and_strict_is_its_alias() {
    let doc = b"{\"a\":1}\n{\"zzz\":1, x}\n{\"b\":2}\n";
    let path = temp_file("stats-fail-fast", "ff.ndjson", doc);
    let path = path.to_str().unwrap();
    for flag in ["--fail-fast", "--strict"] {
        let out = sluice(&["ndjson", "stats", flag, path]);
        assert_eq!(out.status.code(), Some(1), "{flag}: {}", text(&out.stderr));
        assert!(out.stdout.is_empty(), "{flag}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("error[json/ExpectKey]"), "{stderr}");
        assert_eq!(
            location(&stderr),
            Some((path.to_owned(), 2, 11)),
            "{stderr}"
        );
    }
    let help = text(&sluice(&["ndjson", "stats", "--help"]).stdout);
    assert!(help.contains("--fail-fast"), "{help}");
    assert!(help.contains("--strict"), "{help}");
}

#[test]
fn an_output_in_a_missing_directory_is_named_with_that_directory() {
    let input = temp_file("output-no-dir", "in.json", b"[1]");
    let dir = input.with_file_name("nodir");
    let target = dir.join("out.json");
    let (input, target) = (input.to_str().unwrap(), target.to_str().unwrap());
    for args in [
        vec!["fmt", input, "-o", target],
        vec!["convert", input, "--to", "ndjson", "-o", target],
    ] {
        let out = sluice(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(target), "{stderr}");
        assert!(stderr.contains("does not exist"), "{stderr}");
        // The temporary file is how OUT is written, not what the user asked for.
        assert!(!stderr.contains("temporary"), "{stderr}");
        assert!(!dir.exists());
    }
}

/// The lines of `help` from the one that starts with `from` to the one before the next
/// option.
fn option_help(help: &str, from: &str) -> String {
    help.lines()
        .skip_while(|l| !l.trim_start().starts_with(from))
        .enumerate()
        .take_while(|(i, l)| *i == 0 || !l.trim_start().starts_with('-') || l.contains(": "))
        .map(|(_, l)| format!("{l}\n"))
        .collect()
}

#[test]
fn the_output_format_help_leaves_the_input_dialects_out() {
    let help = text(&sluice(&["convert", "--help"]).stdout);
    let to = option_help(&help, "--to <TO>");
    assert!(to.contains("json:") && to.contains("msgpack:"), "{to}");
    // The dialect flags choose how input is read; output JSON is always RFC 8259.
    for input_only in ["--relaxed", "--json5", "relaxed"] {
        assert!(!to.contains(input_only), "{to}");
    }
    let from = option_help(&help, "--from <FROM>");
    assert!(from.contains("--relaxed"), "{from}");
}

#[test]
fn the_help_names_every_flag_that_chooses_a_format() {
    let help = text(&sluice(&["--help"]).stdout);
    for flag in ["--from", "--to", "--ndjson", "--msgpack", "-o"] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
}

#[test]
fn json_that_looks_like_utf16_gets_a_note_and_keeps_its_code() {
    const NOTE: &str = "UTF-16";
    // "{"a":1}" in UTF-16 LE with its byte order mark, then in UTF-16 BE without one.
    let le: Vec<u8> = b"\xFF\xFE"
        .iter()
        .copied()
        .chain(b"{\"a\":1}".iter().flat_map(|&b| [b, 0]))
        .collect();
    let be: Vec<u8> = b"{\"a\":1}".iter().flat_map(|&b| [0, b]).collect();
    let le_path = temp_file("utf16", "le.json", &le);
    let be_path = temp_file("utf16", "be.json", &be);
    let (le_path, be_path) = (le_path.to_str().unwrap(), be_path.to_str().unwrap());
    for (args, code) in [
        (vec!["check", le_path], "json/UnexpectedToken"),
        (vec!["check", be_path], "json/UnexpectedToken"),
        (vec!["check", "--ndjson", le_path], "json/UnexpectedToken"),
        (vec!["fmt", le_path], "json/UnexpectedToken"),
        (
            vec!["ndjson", "stats", "--fail-fast", le_path],
            "json/UnexpectedToken",
        ),
    ] {
        let out = sluice(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(&format!("error[{code}]")), "{stderr}");
        assert!(stderr.contains(NOTE), "{args:?}: {stderr}");
    }
    // Streamed, the note is there as well.
    let out = sluice_with_stdin(&["check", "-"], &le);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains(NOTE), "{}", text(&out.stderr));
    // ndjson stats lists each bad line, then says once why they are all bad.
    let lines: Vec<u8> = b"{\"a\":1}\n{}\n".iter().flat_map(|&b| [b, 0]).collect();
    let lines = temp_file("utf16", "le.ndjson", &lines);
    let out = sluice(&["ndjson", "stats", lines.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    let notes = stderr.lines().filter(|l| l.contains(NOTE)).count();
    assert_eq!(notes, 1, "{stderr}");
    // Bytes that are not UTF-16 get no such note, nor does MessagePack.
    let other = temp_file("utf16", "other.json", b"\xFF\xFF");
    let out = sluice(&["check", other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!text(&out.stderr).contains(NOTE), "{}", text(&out.stderr));
    let out = sluice(&["check", "--msgpack", le_path]);
    assert!(!text(&out.stderr).contains(NOTE), "{}", text(&out.stderr));
}

/// A JSON array of small objects, on one line, of at least `size` bytes.
fn array_of_objects(size: usize) -> Vec<u8> {
    let mut doc = b"[".to_vec();
    while doc.len() < size {
        doc.extend_from_slice(b"{\"key\": \"value\", \"n\": 12345},");
    }
    doc.extend_from_slice(b"{}]");
    doc
}

/// Runs `sluice` with `args`, its standard output a pipe that nobody reads (closed at once).
fn run_with_output_closed(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sluice"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn a_streamed_input_shows_the_same_diagnostic_as_the_file_read_whole() {
    // The lines after the error, the last one without a line feed, are shown from standard
    // input as from the file: here the error is found at the end of the input, so all of it
    // was read. (An error found before the end shows the lines read so far: the command
    // does not wait on a pipe for more lines of context.)
    for (name, doc, args) in [
        (
            "unclosed.jsonc",
            &b"[1, /* comment\n more\n less"[..],
            &["check", "--relaxed"][..],
        ),
        (
            "unclosed.json5",
            b"['abc\\\ndef\\\nghi",
            &["check", "--json5"],
        ),
    ] {
        let path = temp_file("streamed-same", name, doc);
        let mut file_args = args.to_vec();
        file_args.push(path.to_str().unwrap());
        let loaded = text(&sluice(&file_args).stderr);
        let mut stdin_args = args.to_vec();
        stdin_args.push("-");
        let streamed = text(&sluice_with_stdin(&stdin_args, doc).stderr);
        assert!(loaded.contains("^"), "{loaded}");
        assert_eq!(
            streamed.replace("<stdin>", path.to_str().unwrap()),
            loaded,
            "{name}"
        );
    }
}

#[test]
fn a_string_left_open_at_the_start_of_a_line_megabytes_long_is_shown_from_standard_input_too() {
    // The string opens on line 3 and runs to the end of 6 MB: a stream keeps only its last
    // few MiB, and the start of that line besides, so the diagnostic is the file's.
    let mut doc = b"[1,\n2,\n\"".to_vec();
    doc.resize(6 << 20, b'a');
    let path = temp_file("long-open-string", "long.json", &doc);
    let loaded = text(&sluice(&["check", path.to_str().unwrap()]).stderr);
    let streamed = text(&sluice_with_stdin(&["check", "-"], &doc).stderr);
    assert_eq!(
        location(&streamed),
        Some(("<stdin>".to_owned(), 3, 1)),
        "{streamed}"
    );
    assert_eq!(streamed.replace("<stdin>", path.to_str().unwrap()), loaded);
}
