//! Rendering an error as a snippet of its source, with a caret line under the exact span.
//!
//! Line and column are computed here, from the byte offset, only when the error is shown.
//! Long lines are windowed around the span so the caret stays on screen; tabs are expanded,
//! control and format characters replaced, and every character counted at its width in a terminal (two
//! columns for East Asian wide characters and most emoji, none for combining marks), so the
//! caret line always lines up with the text.

use std::fmt::Write as _;

use super::Error;
use crate::span::{character_end, character_start};

/// How [`Error::render_with`] lays out a snippet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions {
    /// Lines shown before and after the line of the error.
    pub context_lines: usize,
    /// Widest source line shown, in terminal columns; longer lines are windowed around the
    /// span.
    pub max_width: usize,
    /// Columns a tab expands to.
    pub tab_width: usize,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            context_lines: 2,
            max_width: 100,
            tab_width: 4,
        }
    }
}

/// A character as shown, and the terminal columns it takes.
#[derive(Clone, Copy)]
struct Cell {
    shown: char,
    width: usize,
}

/// One source line as shown: tabs expanded to spaces, control and format characters
/// replaced (see [`unseen`]), each
/// sequence of bytes that is not UTF-8 shown as one `U+FFFD` (as `String::from_utf8_lossy`
/// does). Lazy, so that a line megabytes long costs no memory and only the scan of what is
/// asked for.
fn cells(bytes: &[u8], tab_width: usize) -> impl Iterator<Item = Cell> + '_ {
    bytes.utf8_chunks().flat_map(move |chunk| {
        let bad = (!chunk.invalid().is_empty()).then_some('\u{FFFD}');
        chunk.valid().chars().chain(bad).flat_map(move |c| {
            let (shown, width, copies) = match c {
                '\t' => (' ', 1, tab_width),
                c if c.is_control() || unseen(c) => ('\u{FFFD}', 1, 1),
                c => (c, unicode_width::UnicodeWidthChar::width(c).unwrap_or(1), 1),
            };
            std::iter::repeat_n(Cell { shown, width }, copies)
        })
    })
}

/// Whether `c` is a format character (Unicode category Cf) or a line or paragraph separator
/// (U+2028, U+2029): shown as it is, it would be invisible (U+200B, U+FEFF), reorder the
/// rest of the line on screen (the bidirectional controls U+202A..U+202E, U+2066..U+2069),
/// join its neighbours into one glyph narrower than their columns (U+200D in emoji), or
/// break the line in some terminals; the caret would not be under what it points at.
fn unseen(c: char) -> bool {
    matches!(
        c,
        '\u{AD}'
            | '\u{600}'..='\u{605}'
            | '\u{61C}'
            | '\u{6DD}'
            | '\u{70F}'
            | '\u{890}'..='\u{891}'
            | '\u{8E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

/// The terminal columns `bytes` take when shown.
fn columns(bytes: &[u8], tab_width: usize) -> usize {
    cells(bytes, tab_width).map(|cell| cell.width).sum()
}

/// Whether `bytes` take at most `width` columns when shown; stops counting past it.
fn fits(bytes: &[u8], tab_width: usize, width: usize) -> bool {
    let mut total = 0;
    cells(bytes, tab_width).all(|cell| {
        total += cell.width;
        total <= width
    })
}

/// The window of columns `[start, end)` shown for every line of the snippet.
#[derive(Clone, Copy)]
struct Window {
    start: usize,
    end: usize,
}

impl Window {
    fn show(self, cells: impl Iterator<Item = Cell>) -> String {
        let mut text = String::new();
        if self.start > 0 {
            text.push_str("...");
        }
        let mut column = 0;
        for cell in cells {
            let next = column + cell.width;
            if next > self.end {
                // The rest of the line is not shown, however long it is.
                text.push_str("...");
                break;
            }
            if column >= self.start {
                text.push(cell.shown);
            } else if next > self.start {
                // A wide character cut by the window's start: blanks keep the columns after it.
                text.extend(std::iter::repeat_n(' ', next - self.start));
            }
            column = next;
        }
        text
    }

    fn lead(self) -> usize {
        if self.start > 0 { 3 } else { 0 }
    }
}

pub(super) fn render(err: &Error, options: &RenderOptions) -> String {
    let inner = &err.0;
    let mut out = String::new();
    let _ = writeln!(out, "error[{}]: {}", inner.code, inner.message);
    let mut gutter = 1;
    match (inner.span, inner.source_text.as_ref()) {
        (Some(span), Some(source)) if span.start > source.text.len() => {
            // The text is part of the input only (what arrived before a stream broke, the
            // lines kept around a record): a snippet of it would point at the wrong place.
            let _ = writeln!(
                out,
                " --> {}: bytes {span}, past the {} bytes of the source text",
                source.name,
                source.text.len()
            );
        }
        (Some(span), Some(source)) => {
            let (index, base, breaks) = source.lines_around(span.start, options.context_lines);
            // Offsets and line numbers in the lines indexed.
            let start = span.start.min(source.text.len()) - base;
            let end = span.end.saturating_sub(base);
            let line_offset = source.line_offset + breaks;
            let position = index.line_column(start);
            let line = position.line;
            let first = line.saturating_sub(options.context_lines).max(1);
            let mut last = (line + options.context_lines).min(index.line_count());
            // A trailing newline makes an empty last line; it is not worth showing.
            while last > line && index.line_bytes(last).is_empty() && last == index.line_count() {
                last -= 1;
            }
            gutter = (last + line_offset).to_string().len();
            let pad = " ".repeat(gutter);
            let _ = writeln!(
                out,
                "{pad}--> {}:{}:{}",
                source.name,
                line + line_offset,
                position.column
            );
            let _ = writeln!(out, "{pad} |");

            let line_bytes = index.line_bytes(line);
            let line_start = index.line_start(line);
            // A span that starts or ends inside a character covers all of it, as its column
            // does.
            let local_start = character_start(
                line_bytes,
                start.saturating_sub(line_start).min(line_bytes.len()),
            );
            let local_end = character_end(
                line_bytes,
                end.min(line_start + line_bytes.len())
                    .saturating_sub(line_start)
                    .max(local_start),
            );
            let tab = options.tab_width;
            let cell_start = columns(&line_bytes[..local_start], tab);
            let cell_end = columns(&line_bytes[..local_end], tab);
            let carets = (cell_end - cell_start).max(1);
            let width = options.max_width.max(10);
            let window = if fits(line_bytes, tab, width) {
                // The line of the error fits; context lines wider than it are cut at the
                // width too.
                Window {
                    start: 0,
                    end: width,
                }
            } else {
                let start = cell_start.saturating_sub(width / 3);
                Window {
                    start,
                    end: start + width,
                }
            };
            for shown in first..=last {
                let text = window.show(cells(index.line_bytes(shown), tab));
                let number = shown + line_offset;
                let _ = writeln!(out, "{number:>gutter$} | {text}").map(|()| trim_end(&mut out));
                if shown == line {
                    let offset = cell_start.saturating_sub(window.start) + window.lead();
                    let visible = carets.min(window.end.saturating_sub(cell_start).max(1));
                    let _ = writeln!(out, "{pad} | {}{}", " ".repeat(offset), "^".repeat(visible));
                }
            }
        }
        (Some(span), None) => {
            let _ = writeln!(out, " --> bytes {span}");
        }
        _ => {}
    }
    let pad = " ".repeat(gutter);
    match (&inner.path, &inner.type_path) {
        (Some(path), Some(type_path)) => {
            let _ = writeln!(out, "{pad} = at {path} ({type_path})");
        }
        (Some(path), None) => {
            let _ = writeln!(out, "{pad} = at {path}");
        }
        (None, Some(type_path)) => {
            let _ = writeln!(out, "{pad} = in {type_path}");
        }
        (None, None) => {}
    }
    for note in &inner.notes {
        let _ = writeln!(out, "{pad} = note: {note}");
    }
    out
}

/// Removes trailing spaces of the line just written (an empty source line renders as ` 3 |`).
fn trim_end(out: &mut String) {
    let body = out.trim_end_matches('\n').trim_end_matches(' ').len();
    out.truncate(body);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::RenderOptions;
    use crate::{Error, Path, Span, codes};

    fn error_at(source: impl AsRef<[u8]>, start: usize, end: usize) -> Error {
        Error::new(codes::CUSTOM, "boom")
            .with_span(Span::new(start, end))
            .with_source_text("in.json", source)
    }

    #[test]
    fn error_on_the_first_line_shows_only_following_context() {
        let source = "[1, x, 3]\nsecond\nthird\nfourth\n";
        let rendered = error_at(source, 4, 5).render();
        let expected = "\
error[core/Custom]: boom
 --> in.json:1:5
  |
1 | [1, x, 3]
  |     ^
2 | second
3 | third
";
        assert_eq!(rendered, expected);
    }

    #[test]
    fn error_on_the_last_line_shows_only_preceding_context() {
        let source = "one\ntwo\nthree\nfour";
        let start = source.find("four").unwrap();
        let rendered = error_at(source, start, start + 4).render();
        let expected = "\
error[core/Custom]: boom
 --> in.json:4:1
  |
2 | two
3 | three
4 | four
  | ^^^^
";
        assert_eq!(rendered, expected);
    }

    #[test]
    fn span_at_end_of_line_puts_one_caret_after_the_last_character() {
        let source = "{\n  \"a\": 1\n  \"b\": 2\n}";
        // An empty span right after `1`, where a comma was expected.
        let at = source.find("1\n").unwrap() + 1;
        let rendered = error_at(source, at, at).render();
        assert!(rendered.contains(" --> in.json:2:9\n"), "{rendered}");
        assert!(
            rendered.contains("2 |   \"a\": 1\n  |         ^\n"),
            "{rendered}"
        );
    }

    #[test]
    fn an_error_at_a_crlf_line_end_has_the_column_of_its_caret() {
        // An NDJSON record cut at its line feed: with `\r\n` endings the span is at the
        // `\n`, after the `\r` that is not shown; line:column and caret are those of the
        // same file with `\n` endings.
        for (source, at) in [("[1]\n[2,\n[3]\n", 7), ("[1]\r\n[2,\r\n[3]\r\n", 9)] {
            assert_eq!(&source[at..=at], "\n");
            let rendered = error_at(source, at, at).render();
            assert!(rendered.contains(" --> in.json:2:4\n"), "{rendered}");
            assert!(rendered.contains("2 | [2,\n  |    ^\n"), "{rendered}");
        }
    }

    #[test]
    fn wide_and_zero_width_characters_take_their_terminal_columns() {
        // 23 characters before `tru`: the three CJK ones take two columns each on screen,
        // the combining diaeresis after `i` none, so `tru` starts at column 25 (0-based).
        let source = "{\"nai\u{308}ve\": \"日本語\", \"x\": tru}";
        let start = source.find("tru").unwrap();
        let rendered = error_at(source, start, start + 3).render();
        // The reported column counts characters, as editors do.
        assert!(rendered.contains("in.json:1:24"), "{rendered}");
        let caret_line = rendered.lines().find(|l| l.contains('^')).unwrap();
        assert_eq!(
            caret_line,
            format!("  | {}^^^", " ".repeat(25)),
            "{rendered}"
        );
    }

    #[test]
    fn format_characters_before_the_error_are_shown_replaced_so_the_caret_stays_under_it() {
        // A right-to-left override would reverse the rest of the line on screen, a zero
        // width space or a byte order mark would be invisible, a zero width joiner would make
        // two emoji one glyph, a line separator would break the line in some terminals.
        for unseen in [
            '\u{202E}', '\u{2067}', '\u{200B}', '\u{200D}', '\u{2028}', '\u{FEFF}', '\u{AD}',
        ] {
            let source = format!("[\"a{unseen}b\", x]");
            let start = source.find('x').unwrap();
            let err = error_at(&source, start, start + 1);
            // The column counts characters: the format character is one.
            assert_eq!(err.line_column().map(|p| p.column), Some(9));
            let rendered = err.render();
            assert!(
                rendered.contains("1 | [\"a\u{FFFD}b\", x]\n  |         ^\n"),
                "{unseen:?}: {rendered}"
            );
        }
    }

    #[test]
    fn an_error_at_a_format_character_puts_one_caret_under_its_replacement() {
        // Strict JSON refuses U+2028 between tokens: the caret is under what stands there.
        let source = "{\"a\": 1,\u{2028} \"b\": 2}";
        let start = source.find('\u{2028}').unwrap();
        let rendered = error_at(source, start, start + 3).render();
        assert!(rendered.contains(" --> in.json:1:9\n"), "{rendered}");
        assert!(
            rendered.contains("1 | {\"a\": 1,\u{FFFD} \"b\": 2}\n  |         ^\n"),
            "{rendered}"
        );
    }

    #[test]
    fn a_wide_character_cut_by_the_window_keeps_the_caret_aligned() {
        // A long line of wide characters is windowed; whatever the cut, the caret must sit
        // under `x`: the columns before it on the text line add up to the caret's offset.
        for lead in 30..34 {
            let source = format!("[\"{}\", x]", "語".repeat(lead));
            let start = source.find('x').unwrap();
            let rendered = error_at(&source, start, start + 1).render_with(&RenderOptions {
                max_width: 20,
                ..RenderOptions::default()
            });
            let text_line = rendered.lines().find(|l| l.starts_with("1 |")).unwrap();
            let caret_line = rendered.lines().find(|l| l.contains('^')).unwrap();
            let before_x = &text_line[..text_line.find('x').unwrap()];
            let width: usize = before_x
                .chars()
                .map(|c| if c == '語' { 2 } else { 1 })
                .sum();
            assert_eq!(caret_line.find('^'), Some(width), "{rendered}");
        }
    }

    #[test]
    fn a_leading_byte_order_mark_is_not_shown_and_takes_no_column() {
        let source = "\u{FEFF}{\"a\" 1}";
        let start = source.find('1').unwrap();
        let rendered = error_at(source, start, start + 1).render();
        assert!(rendered.contains("in.json:1:6"), "{rendered}");
        assert!(
            rendered.contains("1 | {\"a\" 1}\n  |      ^\n"),
            "{rendered}"
        );
    }

    #[test]
    fn a_byte_order_mark_starting_a_later_line_is_a_character_there() {
        // Lines kept around an NDJSON record on line 2: U+FEFF starting them is no mark of
        // the file's encoding but the character the error is about, as in the whole file.
        let record = "\u{FEFF}{\"a\":2}\n";
        let whole = format!("{{\"a\":1}}\n{record}");
        let mut err = error_at(record, 0, 3);
        let mut source = err.source_text().unwrap().clone();
        source.line_offset = 1;
        err = err.with_shared_source(source);
        let in_whole = error_at(&whole, 8, 11);
        for err in [err, in_whole] {
            assert_eq!(err.line_column().map(|p| (p.line, p.column)), Some((2, 1)));
            let rendered = err.render();
            assert!(
                rendered.contains("2 | \u{FFFD}{\"a\":2}\n  | ^\n"),
                "{rendered}"
            );
        }
        // The `{` after it is in column 2.
        let mut err = error_at(record, 3, 4);
        let mut source = err.source_text().unwrap().clone();
        source.line_offset = 1;
        err = err.with_shared_source(source);
        assert_eq!(err.line_column().map(|p| (p.line, p.column)), Some((2, 2)));
        assert!(err.render().contains("2 | \u{FFFD}{\"a\":2}\n  |  ^\n"));
    }

    #[test]
    fn a_500_character_line_is_windowed_around_the_span() {
        let mut source = String::from("[");
        for i in 0..120 {
            source.push_str(&format!("{i:03},"));
        }
        source.push_str("bad]");
        assert!(source.len() > 480);
        let start = source.find("bad").unwrap();
        let rendered = error_at(&source, start, start + 3).render();
        let text_line = rendered.lines().find(|l| l.starts_with("1 |")).unwrap();
        let caret_line = rendered.lines().find(|l| l.contains('^')).unwrap();
        assert!(text_line.chars().count() < 120, "{text_line}");
        assert!(text_line.starts_with("1 | ..."), "{text_line}");
        let caret_col = caret_line.chars().position(|c| c == '^').unwrap();
        let cells: Vec<char> = text_line.chars().collect();
        assert_eq!(
            cells[caret_col..caret_col + 3].iter().collect::<String>(),
            "bad"
        );
    }

    #[test]
    fn a_long_context_line_is_windowed_beside_a_short_error_line() {
        // Minified JSON on one line, then the error on a short one: the long line is cut at
        // the width too, not shown whole.
        let source = format!("[{}1]\n[x]\n", "1,".repeat(300));
        let start = source.find('x').unwrap();
        let rendered = error_at(&source, start, start + 1).render();
        let widest = rendered.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= 100 + 10, "{rendered}");
        assert!(rendered.contains("1 | [1,1,1,"), "{rendered}");
        assert!(rendered.contains("2 | [x]\n  |  ^\n"), "{rendered}");
        assert!(rendered.contains(" --> in.json:2:2\n"), "{rendered}");
    }

    #[test]
    fn a_span_inside_a_character_puts_the_caret_under_all_of_it() {
        // A span from the second byte of `日` to the second byte of `本`: the column is that
        // of `日`, and the carets cover both characters (two columns each).
        let source = "[\"日本\"]";
        let rendered = error_at(source, 3, 6).render();
        assert!(rendered.contains(" --> in.json:1:3\n"), "{rendered}");
        assert!(
            rendered.contains("1 | [\"日本\"]\n  |   ^^^^\n"),
            "{rendered}"
        );
    }

    #[test]
    fn a_span_inside_a_character_cut_short_puts_the_caret_under_its_replacement() {
        // `E2 80` is the start of a three-byte character, cut short: one U+FFFD on screen. A
        // span from its second byte is under it, not under the `x` after it.
        let source = b"[\"a\xE2\x80x\"]";
        let rendered = error_at(source, 4, 5).render_with(&RenderOptions::default());
        assert!(rendered.contains(" --> in.json:1:4\n"), "{rendered}");
        assert!(
            rendered.contains("1 | [\"a\u{FFFD}x\"]\n  |    ^\n"),
            "{rendered}"
        );
    }

    #[test]
    fn tabs_are_expanded_so_the_caret_lines_up() {
        let source = "{\n\t\"k\":\tnul\n}";
        let start = source.find("nul").unwrap();
        let rendered = error_at(source, start, start + 3).render();
        assert!(
            rendered.contains("2 |     \"k\":    nul\n  |             ^^^\n"),
            "{rendered}"
        );
    }

    #[test]
    fn path_type_and_notes_follow_the_snippet() {
        let mut path = Path::root();
        path.push_key("distance");
        let rendered = error_at("{\"distance\": \"Far\"}", 13, 18)
            .with_path(path)
            .with_type_path("Settings.distance: Distance")
            .with_note("expected one of Near, Mid")
            .render();
        assert!(rendered.ends_with(
            "  = at $.distance (Settings.distance: Distance)\n  = note: expected one of Near, Mid\n"
        ), "{rendered}");
    }

    #[test]
    fn line_numbers_of_a_record_are_those_of_its_file() {
        let mut err = error_at("{\"a\": ?}", 6, 7);
        let mut source = err.source_text().unwrap().clone();
        source.line_offset = 40;
        err = err.with_shared_source(source);
        let rendered = err.render();
        assert!(rendered.contains("--> in.json:41:7"), "{rendered}");
        assert!(rendered.contains("41 | {\"a\": ?}"), "{rendered}");
    }

    #[test]
    fn an_empty_span_at_the_end_of_the_text_puts_the_caret_after_its_last_character() {
        // A stream that broke after `[1, "tw`: the error is where the next byte would be.
        let rendered = error_at("[1, \"tw", 7, 7).render();
        let expected = "\
error[core/Custom]: boom
 --> in.json:1:8
  |
1 | [1, \"tw
  |        ^
";
        assert_eq!(rendered, expected);
        // After a line feed, it is at the start of the line that has not arrived.
        let rendered = error_at("[1,\n", 4, 4).render();
        assert!(rendered.contains(" --> in.json:2:1\n"), "{rendered}");
        assert!(rendered.ends_with("1 | [1,\n2 |\n  | ^\n"), "{rendered}");
    }

    #[test]
    fn a_span_past_the_end_of_the_text_shows_its_bytes_and_no_snippet() {
        // The text holds part of the input only: neither its last line nor a line:column in
        // it is where the error is.
        for (start, end) in [(8, 8), (20, 25)] {
            let err = error_at("[1, \"tw", start, end);
            assert_eq!(err.line_column(), None);
            assert_eq!(
                err.render(),
                format!(
                    "error[core/Custom]: boom\n --> in.json: bytes {start}..{end}, past the \
                     7 bytes of the source text\n"
                )
            );
            assert_eq!(err.to_string(), format!("boom at bytes {start}..{end}"));
        }
    }

    #[test]
    fn without_source_the_byte_span_is_shown() {
        let rendered = Error::new(codes::CUSTOM, "boom")
            .with_span(Span::new(3, 4))
            .render();
        assert_eq!(rendered, "error[core/Custom]: boom\n --> bytes 3..4\n");
    }
}
