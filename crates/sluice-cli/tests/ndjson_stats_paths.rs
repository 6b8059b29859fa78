//! The key paths of `sluice ndjson stats`: one path per distinct place in the records, in
//! the syntax of the core's `Path` display, and a report whose columns line up whatever the
//! keys hold.

use std::path::PathBuf;
use std::process::Command;

use unicode_width::UnicodeWidthStr;

/// A file in a fresh temporary directory of this test.
fn temp_file(test: &str, contents: &[u8]) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("sluice-stats-paths-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("records.ndjson");
    std::fs::write(&path, contents).unwrap();
    path
}

/// Runs `sluice ndjson stats` over `records`, which must all be valid, and returns its
/// report.
fn stats(test: &str, records: &str) -> String {
    let file = temp_file(test, records.as_bytes());
    let out = Command::new(env!("CARGO_BIN_EXE_sluice"))
        .args(["ndjson", "stats", "--jobs", "1"])
        .arg(&file)
        .output()
        .expect("the binary runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("the report is UTF-8")
}

/// One line of the path table: the path, its count and its types.
#[derive(Debug, PartialEq)]
struct Row {
    path: String,
    count: u64,
    types: String,
}

fn row(path: &str, count: u64, types: &str) -> Row {
    Row {
        path: path.to_owned(),
        count,
        types: types.to_owned(),
    }
}

/// The rows of a report's path table, checking its layout on the way: every line of the
/// table (the header's included) ends its count column at the same display column, with the
/// path, padded with spaces, before it and two spaces before the types.
fn rows(report: &str) -> Vec<Row> {
    let mut lines = report.lines().skip_while(|l| !l.starts_with("path "));
    let header = lines.next().expect("a header line");
    // The header is ASCII: its byte offsets are display columns.
    let count_end = header.find("count").expect("a count column") + "count".len();
    assert!(header.ends_with("count  types"), "{header:?}");
    lines
        .map(|line| {
            // Where the count column ends in this line, counted in display columns.
            let mut end = None;
            let mut width = 0;
            for (at, c) in line.char_indices() {
                if width == count_end {
                    end = Some(at);
                    break;
                }
                width += UnicodeWidthStr::width(c.encode_utf8(&mut [0; 4]) as &str);
            }
            let end = end.unwrap_or_else(|| {
                panic!("{line:?}: its count column does not end at column {count_end}\n{report}")
            });
            let (left, types) = line.split_at(end);
            let types = types
                .strip_prefix("  ")
                .unwrap_or_else(|| panic!("{line:?}: no two spaces before the types"));
            let (path, count) = left
                .rsplit_once(' ')
                .unwrap_or_else(|| panic!("{line:?}: no space before the count"));
            assert!(
                path.ends_with("  "),
                "{line:?}: fewer than two spaces before the count"
            );
            Row {
                path: path.trim_end().to_owned(),
                count: count.parse().unwrap_or_else(|_| panic!("{line:?}: count")),
                types: types.to_owned(),
            }
        })
        .collect()
}

#[test]
fn a_dotted_key_and_a_nested_key_are_different_paths() {
    let report = stats("dotted", "{\"a.b\": 1}\n{\"a\": {\"b\": \"x\"}}\n");
    assert_eq!(
        rows(&report),
        [
            row("$", 2, "object"),
            row("$.a", 1, "object"),
            row("$.a.b", 1, "string"),
            row(r#"$["a.b"]"#, 1, "integer"),
        ],
        "{report}"
    );
}

#[test]
fn a_key_ending_in_brackets_is_not_the_elements_of_an_array() {
    let report = stats("brackets", "{\"e[]\": 1}\n{\"e\": [\"x\"]}\n");
    assert_eq!(
        rows(&report),
        [
            row("$", 2, "object"),
            row("$.e", 1, "array"),
            row("$.e[]", 1, "string"),
            row(r#"$["e[]"]"#, 1, "integer"),
        ],
        "{report}"
    );
}

#[test]
fn keys_that_look_like_elements_or_wildcards_are_quoted() {
    let report = stats(
        "wildcards",
        "{\"a\": {\"[]\": 1, \"*\": true, \"\": null, \"[0]\": 2.5}, \"b\": [3]}\n",
    );
    assert_eq!(
        rows(&report),
        [
            row("$", 1, "object"),
            row("$.a", 1, "object"),
            row(r#"$.a[""]"#, 1, "null"),
            row(r#"$.a["*"]"#, 1, "bool"),
            row(r#"$.a["[0]"]"#, 1, "float"),
            row(r#"$.a["[]"]"#, 1, "integer"),
            row("$.b", 1, "array"),
            row("$.b[]", 1, "integer"),
        ],
        "{report}"
    );
}

#[test]
fn keys_with_blanks_quotes_and_backslashes_are_escaped_on_one_line() {
    let report = stats(
        "escapes",
        concat!(
            r#"{"a b": 1, "t\tx": 2, "n\nl": 3, "r\rc": 4, "q\"": 5, "b\\s": 6, "u\u0001": 7,"#,
            r#" "fake\"]          9  string": 8}"#,
            "\n"
        ),
    );
    assert_eq!(
        rows(&report),
        [
            row("$", 1, "object"),
            row(r#"$["a b"]"#, 1, "integer"),
            row(r#"$["b\\s"]"#, 1, "integer"),
            row(r#"$["fake\"]          9  string"]"#, 1, "integer"),
            row(r#"$["n\nl"]"#, 1, "integer"),
            row(r#"$["q\""]"#, 1, "integer"),
            row(r#"$["r\rc"]"#, 1, "integer"),
            row(r#"$["t\tx"]"#, 1, "integer"),
            row(r#"$["u\u{1}"]"#, 1, "integer"),
        ],
        "{report}"
    );
    // records, bytes, errors, the header and nine paths: no key adds a line.
    assert_eq!(report.lines().count(), 13, "{report}");
}

#[test]
fn non_ascii_keys_keep_the_columns_aligned() {
    let report = stats(
        "non-ascii",
        concat!(
            r#"{"é": 1, "日本語": 2, "naïve key": 3, "e\u0301": 4, "😀": 5, "ab": 6}"#,
            "\n"
        ),
    );
    assert_eq!(
        rows(&report),
        [
            row("$", 1, "object"),
            row("$.ab", 1, "integer"),
            row("$.é", 1, "integer"),
            row("$.日本語", 1, "integer"),
            // A combining mark and a symbol are not letters: quoted, the mark escaped so
            // that it does not join the quote.
            row(r#"$["e\u{301}"]"#, 1, "integer"),
            row(r#"$["naïve key"]"#, 1, "integer"),
            row(r#"$["😀"]"#, 1, "integer"),
        ],
        "{report}"
    );
}

#[test]
fn a_wide_key_sets_the_width_of_the_path_column() {
    // The widest path is the one of wide characters: the column is as wide as it shows.
    let report = stats("wide", "{\"日本語日本語\": 1, \"abcdefghijk\": 2}\n");
    let lines: Vec<&str> = report.lines().skip(3).collect();
    assert_eq!(
        lines,
        [
            "path                 count  types",
            "$                        1  object",
            "$.abcdefghijk            1  integer",
            "$.日本語日本語           1  integer",
        ],
        "{report}"
    );
}

#[test]
fn keys_that_are_not_identifiers_are_quoted() {
    let report = stats(
        "identifiers",
        "{\"demo-backend\": {\"1xx\": 1}, \"10.0.0.1:80\": 2}\n",
    );
    assert_eq!(
        rows(&report),
        [
            row("$", 1, "object"),
            row(r#"$["10.0.0.1:80"]"#, 1, "integer"),
            row(r#"$["demo-backend"]"#, 1, "object"),
            row(r#"$["demo-backend"]["1xx"]"#, 1, "integer"),
        ],
        "{report}"
    );
}

#[test]
fn identifier_keys_are_written_as_before() {
    let report = stats(
        "plain",
        concat!(
            r#"{"id": 1, "_x": 2, "$ref": "r", "camelCase9": [{"snake_case": true}, 2]}"#,
            "\n",
            r#"{"id": 2.5, "camelCase9": []}"#,
            "\n"
        ),
    );
    assert_eq!(
        rows(&report),
        [
            row("$", 2, "object"),
            row("$.$ref", 1, "string"),
            row("$._x", 1, "integer"),
            row("$.camelCase9", 2, "array"),
            row("$.camelCase9[]", 2, "integer 1, object 1"),
            row("$.camelCase9[].snake_case", 1, "bool"),
            row("$.id", 2, "integer 1, float 1"),
        ],
        "{report}"
    );
}
