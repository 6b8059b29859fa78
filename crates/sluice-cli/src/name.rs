//! File names as messages show them.
//!
//! A file name may hold any byte but `/` and NUL: a line feed, an escape sequence, a
//! bidirectional override (U+202E), bytes that are not UTF-8. Written as it is, such a name
//! would move the cursor, recolour or rewrite the terminal, or forge a line of output
//! (`a.json\nsluice: 0 of 2 files invalid`). So a name with any character that would not show
//! as itself is written quoted and escaped as Rust's `{:?}` writes a string, each byte that is
//! not UTF-8 as `\xFF`; any other name is written as it is. A name shown as it is never
//! starts with `"`: one that does is quoted too, so that a quoted name is always an escaped
//! one, and no name can pass for another.

use std::fmt::Write as _;
use std::path::Path;

/// `path` as messages show it (see the module documentation).
pub(crate) fn shown(path: &Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    match std::str::from_utf8(bytes) {
        Ok(name) if !name.starts_with('"') && name.chars().all(shows_as_itself) => name.to_owned(),
        _ => escaped(bytes),
    }
}

/// Whether `c` is written as it is by `{:?}`, or needs no escape outside a quoted string
/// (`\`, `"`, `'`: a name shown as it is holds them as they are).
fn shows_as_itself(c: char) -> bool {
    let mut escape = c.escape_debug();
    matches!(c, '\\' | '"' | '\'') || (escape.next() == Some(c) && escape.next().is_none())
}

/// `bytes` quoted, each UTF-8 run as `{:?}` writes it, each other byte as `\xHH`.
fn escaped(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for chunk in bytes.utf8_chunks() {
        let valid = format!("{:?}", chunk.valid());
        // Without the quotes `{:?}` puts around it.
        out.push_str(&valid[1..valid.len() - 1]);
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02X}");
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_name_is_shown_as_it_is() {
        for name in [
            "a.json",
            "dir/sub dir/b.json",
            "名前.json",
            "café.json",
            "it's.json",
            "back\\slash.json",
            "say\"hi\".json",
            "",
        ] {
            assert_eq!(shown(Path::new(name)), name);
        }
    }

    #[test]
    fn a_name_with_a_character_that_would_not_show_as_itself_is_quoted_and_escaped() {
        for (name, expected) in [
            ("a\nb.json", r#""a\nb.json""#),
            ("a\rb", r#""a\rb""#),
            ("tab\there", r#""tab\there""#),
            ("esc\u{1b}[2Jx", r#""esc\u{1b}[2Jx""#),
            ("evil\u{202e}nosj.exe", r#""evil\u{202e}nosj.exe""#),
            ("zero\u{200b}width", r#""zero\u{200b}width""#),
            ("nb\u{a0}sp", r#""nb\u{a0}sp""#),
            ("e\u{301}.json", r#""e\u{301}.json""#),
            // Once quoted, `\` and `"` are escaped too, so the quoted form reads back.
            ("a\\b\n\"c\"", r#""a\\b\n\"c\"""#),
            // A name that starts with a quote could pass for an escaped one.
            ("\"a\\nb\"", r#""\"a\\nb\"""#),
        ] {
            assert_eq!(shown(Path::new(name)), expected, "{name:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn bytes_that_are_not_utf8_are_shown_as_hex_escapes() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let name = OsStr::from_bytes(b"bad\xff\xfe.json\n\xc3");
        assert_eq!(shown(Path::new(name)), r#""bad\xFF\xFE.json\n\xC3""#);
    }

    #[test]
    fn a_shown_name_holds_no_control_or_format_character() {
        for name in [
            "\u{1b}", "\u{7f}", "\u{85}", "\u{2028}", "\u{feff}", "\u{2066}",
        ] {
            let shown = shown(Path::new(name));
            assert!(shown.chars().all(|c| c.is_ascii_graphic()), "{shown:?}");
        }
    }
}
