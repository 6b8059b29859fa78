//! The claims of the book's command line chapter (`docs/src/cli.md`) that no other test
//! makes: its example, its table of exit codes, and what it says of output files, NDJSON
//! records and MessagePack streams.

mod common;

use std::path::Path;

use common::{sluice, sluice_in, sluice_with_stdin, temp_dir, temp_file, text};

/// The chapter, read from the book beside the crate.
fn chapter() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/src/cli.md");
    std::fs::read_to_string(&path).expect("the book's command line chapter")
}

/// The section of `chapter` under the heading `heading`, up to the next heading.
fn section<'a>(chapter: &'a str, heading: &str) -> &'a str {
    let start = chapter.find(heading).expect("the section") + heading.len();
    let rest = &chapter[start..];
    &rest[..rest.find("\n## ").unwrap_or(rest.len())]
}

/// The first fenced block of `language` in `text`.
fn fenced<'a>(text: &'a str, language: &str) -> &'a str {
    let open = format!("```{language}\n");
    let start = text.find(&open).expect("a fenced block") + open.len();
    let end = text[start..].find("```").expect("its end");
    &text[start..start + end]
}

/// Runs the `sluice` session of `example` (a fenced `json` file, then a fenced `text` block:
/// the command, what it prints to standard error, `$ echo $?` and the exit code) on that
/// file, written as `name`, and checks that it prints exactly that.
fn check_example(example: &str, name: &str) {
    let file = fenced(example, "json");
    let session = fenced(example, "text");
    let mut lines = session.lines();
    let command = lines.next().unwrap().strip_prefix("$ ").expect("a command");
    let args: Vec<&str> = command.split(' ').skip(1).collect();
    let stderr: Vec<&str> = lines.by_ref().take_while(|l| *l != "$ echo $?").collect();
    let code: i32 = lines.next().unwrap().parse().unwrap();

    let dir = temp_dir(&format!("example-{name}"));
    std::fs::write(dir.join(name), file).unwrap();
    let out = sluice_in(&dir, &args);
    assert_eq!(out.status.code(), Some(code));
    assert_eq!(text(&out.stderr), format!("{}\n", stderr.join("\n")));
    assert!(out.stdout.is_empty());
}

#[test]
fn the_example_of_the_chapter_is_what_check_prints() {
    let chapter = chapter();
    check_example(section(&chapter, "## Example"), "config.jsonc");
}

#[test]
fn the_strict_example_of_the_chapter_is_what_check_prints() {
    let chapter = chapter();
    let example = section(&chapter, "## Example");
    let strict = &example[example
        .find("Written as `config.json`")
        .expect("the strict example")..];
    check_example(strict, "config.json");
}

#[test]
fn the_exit_codes_of_the_chapter_are_those_of_the_help() {
    let chapter = chapter();
    let rows: Vec<(String, String)> = section(&chapter, "## Exit codes")
        .lines()
        .filter_map(|line| {
            let mut cells = line.strip_prefix("| ")?.split(" | ");
            let code = cells.next()?.trim();
            let meaning = cells.next()?.trim_end_matches(" |").replace('`', "");
            code.parse::<u8>().ok().map(|_| (code.to_owned(), meaning))
        })
        .collect();
    assert_eq!(rows.len(), 4, "{rows:?}");
    let help = text(&sluice(&["--help"]).stdout);
    for (code, meaning) in rows {
        let line = format!("{code:>5}  {meaning}");
        assert!(help.lines().any(|l| l == line), "{line:?} in {help}");
    }
}

#[test]
fn the_table_of_commands_names_every_option_of_each_command() {
    let chapter = chapter();
    for command in ["dump", "check", "fmt", "convert", "ndjson stats"] {
        let start = format!("| `sluice {command} ");
        let row = chapter
            .lines()
            .find(|line| line.starts_with(&start))
            .unwrap_or_else(|| panic!("a row for {command}"));
        let synopsis = row.split('`').nth(1).unwrap();
        let mut args: Vec<&str> = command.split(' ').collect();
        args.push("--help");
        let help = text(&sluice(&args).stdout);
        // The long name that starts each option's line of the help (an alias, at the end of
        // the line, is named in the prose with the option it stands for).
        let options = help.lines().filter_map(|line| {
            let line = line.trim_start();
            let at = line.find("--").filter(|_| line.starts_with('-'))?;
            line[at..].split([' ', ',', '<', '=']).next()
        });
        for option in options {
            let shown = match option {
                "--help" => continue,
                "--output" => "-o OUT",
                other => other,
            };
            assert!(synopsis.contains(shown), "{shown} of {command}: {synopsis}");
        }
    }
}

#[cfg(unix)]
#[test]
fn a_replaced_output_keeps_its_mode_and_a_link_to_it_stays_a_link() {
    use std::os::unix::fs::PermissionsExt;
    let input = temp_file("replaced", "in.json", b"[1, 2]");
    let target = input.with_file_name("out.json");
    std::fs::write(&target, b"old").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o751)).unwrap();
    let link = input.with_file_name("link.json");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink("out.json", &link).unwrap();
    let out = sluice(&[
        "fmt",
        "--condensed",
        input.to_str().unwrap(),
        "-o",
        link.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(std::fs::read(&target).unwrap(), b"[1,2]\n");
    let mode = std::fs::metadata(&target).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o751);
}

#[cfg(unix)]
#[test]
fn an_output_that_is_not_a_regular_file_is_written_in_place_and_dash_is_standard_output() {
    let input = temp_file("in-place", "in.json", b"[1, 2]");
    let input = input.to_str().unwrap();
    let out = sluice(&["fmt", "--condensed", input, "-o", "/dev/null"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    let out = sluice(&["fmt", "--condensed", input, "-o", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(out.stdout, b"[1,2]\n");
}

#[test]
fn blank_lines_and_the_whitespace_of_the_dialect_between_ndjson_records_are_skipped() {
    let spaces = temp_file(
        "nd-blank",
        "spaces.ndjson",
        b"{\"a\":1}\n \t\r\n\n{\"a\":2}\n",
    );
    let out = sluice(&["convert", spaces.to_str().unwrap(), "--to", "ndjson"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(out.stdout, b"{\"a\":1}\n{\"a\":2}\n");
    // A form feed and U+00A0 are whitespace in JSON5 only.
    let json5 = temp_file("nd-blank", "json5.ndjson", b"1\n\x0c\xc2\xa0\n2\n");
    let json5 = json5.to_str().unwrap();
    let out = sluice(&["check", "--json5", json5]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = sluice(&["check", json5]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains(&format!("{json5}:2:1")));
}

#[test]
fn a_block_comment_in_ndjson_records_must_end_on_its_line() {
    for doc in [
        &b"{\"a\":1} /* open\n close */\n2\n"[..],
        b"1\n/* a\n */ 2\n",
    ] {
        let path = temp_file("nd-comment", "c.ndjson", doc);
        let path = path.to_str().unwrap();
        let line = if doc.starts_with(b"1\n") { 2 } else { 1 };
        let column = if line == 1 { 9 } else { 1 };
        for dialect in ["--relaxed", "--json5"] {
            let out = sluice(&["check", dialect, path]);
            assert_eq!(out.status.code(), Some(1));
            let stderr = text(&out.stderr);
            assert!(stderr.contains("error[json/UnclosedComment]"), "{stderr}");
            assert!(
                stderr.contains(&format!("{path}:{line}:{column}")),
                "{stderr}"
            );
        }
    }
}

#[test]
fn ndjson_stats_takes_up_to_256_jobs_and_0_is_one_per_core() {
    let path = temp_file("stats-jobs", "r.ndjson", b"{\"a\":1}\n{\"a\":2}\n");
    let path = path.to_str().unwrap();
    let report = |jobs: &str| {
        let out = sluice(&["ndjson", "stats", "--jobs", jobs, path]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let one = report("1");
    assert!(one.starts_with("records: 2\n"), "{one}");
    for jobs in ["0", "256"] {
        assert_eq!(report(jobs), one, "--jobs {jobs}");
    }
}

#[test]
fn ndjson_stats_names_standard_input_as_stdin_in_its_list_and_its_diagnostic() {
    let records = b"{\"a\":1}\n{\"a\" 2}\n";
    let listed = sluice_with_stdin(&["ndjson", "stats", "-"], records);
    assert_eq!(listed.status.code(), Some(1));
    let stderr = text(&listed.stderr);
    assert!(stderr.starts_with("<stdin>: line 2 (byte 8): "), "{stderr}");
    let stopped = sluice_with_stdin(&["ndjson", "stats", "--fail-fast", "-"], records);
    assert_eq!(stopped.status.code(), Some(1));
    let stderr = text(&stopped.stderr);
    assert!(stderr.contains(" --> <stdin>:2:6\n"), "{stderr}");
}

#[test]
fn ndjson_stats_reads_rfc_8259_only_and_takes_no_dialect_flag() {
    let path = temp_file("stats-dialect", "r.ndjson", b"{\"a\":1}\n");
    for flag in ["--relaxed", "--json5"] {
        let out = sluice(&["ndjson", "stats", flag, path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn msgpack_streams_convert_value_by_value() {
    // An empty stream is no record.
    let empty = temp_file("msgpack-streams", "empty.msgpack", b"");
    let out = sluice(&["convert", empty.to_str().unwrap(), "--to", "ndjson"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    // Each value in its smallest encoding: 5 as a uint16 becomes a positive fixint.
    let wide = temp_file(
        "msgpack-streams",
        "wide.msgpack",
        b"\xcd\x00\x05\x91\xcd\x00\x07",
    );
    let out = sluice(&["convert", wide.to_str().unwrap(), "--to", "msgpack"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(out.stdout, b"\x05\x91\x07");
    // A record that is an array stays one record.
    let arrays = temp_file("msgpack-streams", "a.ndjson", b"[1,2]\n[3]\n");
    let out = sluice(&["convert", arrays.to_str().unwrap(), "--to", "ndjson"]);
    assert_eq!(out.stdout, b"[1,2]\n[3]\n");
}

#[test]
fn a_file_that_is_msgpack_by_its_extension_is_read_so_whatever_the_dialect_flag() {
    let jsonc = temp_file("msgpack-dialect", "a.jsonc", b"[1, /* c */ 2,]");
    let packed = jsonc.with_file_name("b.msgpack");
    std::fs::write(&packed, b"\x92\x01\x02").unwrap();
    let out = sluice(&[
        "check",
        "--relaxed",
        jsonc.to_str().unwrap(),
        packed.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn usage_errors_of_the_tool_have_its_prefix_and_argument_errors_are_the_parser_s() {
    let input = temp_file("usage-lines", "in.json", b"[1]");
    let input = input.to_str().unwrap();
    let missing = format!("{input}.missing");
    let no_dir = format!("{input}.no-dir/out.json");
    for args in [
        vec!["check", missing.as_str()],
        vec!["check", "-", "-"],
        vec!["ndjson", "stats", missing.as_str()],
        vec![
            "convert",
            "--from",
            "msgpack",
            "--unique-keys",
            input,
            "--to",
            "json",
        ],
        vec!["convert", input, "--to", "msgpack", "--pretty"],
        vec!["fmt", input, "-o", no_dir.as_str()],
    ] {
        let out = sluice(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(!stderr.is_empty(), "{args:?}");
        for line in stderr.lines() {
            assert!(line.starts_with("sluice: "), "{stderr}");
        }
    }
    // An argument the command does not take is reported by the argument parser, with the
    // command's usage.
    let out = sluice(&["check", "--no-such-flag", input]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains("Usage: sluice check"), "{stderr}");
}
