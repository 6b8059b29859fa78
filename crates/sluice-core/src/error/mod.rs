//! The one error type of sluice.
//!
//! Every reader, writer, handler and helper returns [`Error`]: a stable [`ErrorCode`] that
//! tests and programs match on, a message that says what was expected and what was found,
//! the byte [`Span`] of the offending value, the data [`Path`], and, when the caller attaches
//! the source, a rendered snippet pointing at the exact value (see [`Error::render`]).
//!
//! The error is one pointer wide (everything lives in a box), so `Result<T, Error>` stays
//! cheap on the hot path where errors never happen.

mod render;

use std::fmt;
use std::sync::Arc;

use crate::{Entry, Path, Span};

pub use render::RenderOptions;

/// A stable error code: a category (the crate or layer) and an id, shown as `json/ExpectComma`.
///
/// Codes never change once released; messages may. Each crate exposes its codes as constants
/// (core's are in [`codes`]).
///
/// ```
/// use sluice_core::{ErrorCode, codes};
/// const EXPECT_COMMA: ErrorCode = ErrorCode::new("json", "ExpectComma");
/// assert_eq!(EXPECT_COMMA.to_string(), "json/ExpectComma");
/// assert_eq!(codes::NUMBER_OUT_OF_RANGE.category(), "core");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ErrorCode {
    category: &'static str,
    id: &'static str,
}

impl ErrorCode {
    /// A code from its category and id.
    #[must_use]
    pub const fn new(category: &'static str, id: &'static str) -> ErrorCode {
        ErrorCode { category, id }
    }

    /// The category, such as `"json"` or `"reflect"`.
    #[must_use]
    pub const fn category(self) -> &'static str {
        self.category
    }

    /// The id inside the category, such as `"ExpectComma"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        self.id
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.category, self.id)
    }
}

/// The codes of the core layer.
pub mod codes {
    use super::ErrorCode;

    /// A reader or writer was asked for something its format cannot do.
    pub const UNSUPPORTED: ErrorCode = ErrorCode::new("core", "Unsupported");
    /// A token of one kind was found where another was expected.
    pub const UNEXPECTED_ENTRY: ErrorCode = ErrorCode::new("core", "UnexpectedEntry");
    /// A number does not fit the requested type (300 as `i8`, -1 as `u64`, 1e400 as `f64`).
    pub const NUMBER_OUT_OF_RANGE: ErrorCode = ErrorCode::new("core", "NumberOutOfRange");
    /// A number with a fractional part, or a NaN, was read as an integer.
    pub const NUMBER_NOT_INTEGER: ErrorCode = ErrorCode::new("core", "NumberNotInteger");
    /// Number text that is not a number.
    pub const INVALID_NUMBER: ErrorCode = ErrorCode::new("core", "InvalidNumber");
    /// Containers opened and closed out of order, or a token written where none may stand.
    pub const INVALID_STRUCTURE: ErrorCode = ErrorCode::new("core", "InvalidStructure");
    /// Nesting deeper than the configured limit.
    pub const DEPTH_EXCEEDED: ErrorCode = ErrorCode::new("core", "DepthExceeded");
    /// An I/O error from the underlying source or sink.
    pub const IO: ErrorCode = ErrorCode::new("core", "Io");
    /// A hook or handler stopped the pipe with its own message.
    pub const CUSTOM: ErrorCode = ErrorCode::new("core", "Custom");
}

/// The source text an error points into, kept so the error can be rendered later.
#[derive(Debug, Clone)]
pub struct SourceText {
    /// A name to show (a file name, `<stdin>`, `record 12`).
    pub name: String,
    /// The bytes the spans index into.
    pub text: Arc<[u8]>,
    /// Line number of the first line of `text`, minus one (an NDJSON record that starts on
    /// line 41 of its file has 40 here, so rendered line numbers are the file's).
    ///
    /// It also says whether `text` starts the input: only then is a byte order mark at its
    /// start hidden, as editors hide it; on a later line U+FEFF is a character of its own.
    pub line_offset: usize,
}

impl SourceText {
    /// The lines of the text from `context` lines before the one that holds byte `offset`
    /// (at most the text's length) to `context` lines after it, indexed alone, with the
    /// offset of their first byte in the text and the line breaks before it: showing an
    /// error costs the lines shown, not an index of every line of the text.
    fn lines_around(
        &self,
        offset: usize,
        context: usize,
    ) -> (crate::span::LineIndex<'_>, usize, usize) {
        let text: &[u8] = &self.text;
        let (start, end) = line_range_around(text, offset, context);
        let breaks = text[..start].iter().filter(|&&byte| byte == b'\n').count();
        let lines = &text[start..end];
        // The lines start the input only when nothing comes before them.
        let index = if start == 0 && self.line_offset == 0 {
            crate::span::LineIndex::new(lines)
        } else {
            crate::span::LineIndex::continuing(lines)
        };
        (index, start, breaks)
    }

    /// The part of `text` (the whole input, from its first byte) that an error at `span`
    /// shows with `context_lines` lines around it, as a source text of its own, and `span`
    /// counted from that part: attach these instead of the whole input and the error renders
    /// the same, holding only the lines it shows.
    ///
    /// ```
    /// use sluice_core::{SourceText, Span};
    /// let text = b"1\n2\n3\nx\n5\n6\n7\n";
    /// let (source, span) = SourceText::excerpt("in.json", text, Span::new(6, 7), 1);
    /// assert_eq!(&*source.text, b"3\nx\n5\n");
    /// assert_eq!((source.line_offset, span), (2, Span::new(2, 3)));
    /// ```
    #[must_use]
    pub fn excerpt(
        name: impl Into<String>,
        text: &[u8],
        span: Span,
        context_lines: usize,
    ) -> (SourceText, Span) {
        let (start, end) = line_range_around(text, span.start, context_lines);
        let source = SourceText {
            name: name.into(),
            text: Arc::from(&text[start..end]),
            line_offset: text[..start].iter().filter(|&&byte| byte == b'\n').count(),
        };
        let span = Span::new(
            span.start.saturating_sub(start),
            span.end.saturating_sub(start),
        );
        (source, span)
    }
}

/// The bytes of `text` from `context` lines before the one that holds byte `offset` (at most
/// the text's length) to the end of the `context`-th line after it, line feeds included.
fn line_range_around(text: &[u8], offset: usize, context: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let line_start = |end: usize| {
        text[..end]
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map_or(0, |last| last + 1)
    };
    let mut start = line_start(offset);
    for _ in 0..context {
        if start == 0 {
            break;
        }
        start = line_start(start - 1);
    }
    let mut end = offset;
    for _ in 0..=context {
        match text[end..].iter().position(|&byte| byte == b'\n') {
            Some(at) => end += at + 1,
            None => {
                end = text.len();
                break;
            }
        }
    }
    (start, end)
}

/// Where in the source a span-less error should point, resolved by whoever knows the spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpanHint {
    /// At the token that was being written (the default).
    CurrentToken,
    /// At the whole enclosing container, from its start to the current token (a missing
    /// field is reported at the struct, not at its closing brace).
    EnclosingContainer,
}

#[derive(Debug, Clone)]
struct Inner {
    code: ErrorCode,
    message: String,
    span: Option<Span>,
    span_hint: SpanHint,
    path: Option<Path>,
    type_path: Option<String>,
    notes: Vec<String>,
    source_text: Option<SourceText>,
    /// Shared, so that every copy of the error has the very error the stream returned as
    /// its source (an `io::Error` cannot be cloned).
    io: Option<Arc<std::io::Error>>,
}

/// The error type of every sluice operation.
///
/// ```
/// use sluice_core::{Error, Span, codes};
/// let err = Error::new(codes::NUMBER_OUT_OF_RANGE, "300 does not fit in i8")
///     .with_span(Span::new(8, 11))
///     .with_source_text("config.json", "{\"hp\": 300}");
/// assert_eq!(err.code(), codes::NUMBER_OUT_OF_RANGE);
/// assert_eq!(err.span(), Some(Span::new(8, 11)));
/// assert!(err.render().contains("^^^"));
/// ```
///
/// A clone is the same error, to report again; it shares an I/O error inside it (see
/// [`Error::io`]).
#[derive(Clone)]
pub struct Error(Box<Inner>);

/// `Result` with sluice's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Longest input text an error message quotes whole, in characters.
const EXCERPT_WHOLE: usize = 64;
/// What an [`excerpt`] of longer text keeps of its start and of its end, in characters.
const EXCERPT_HEAD: usize = 40;
const EXCERPT_TAIL: usize = 16;

/// `text` as an error message quotes it: whole when it is short, otherwise its first 40 and
/// last 16 characters around `…`.
///
/// Messages quote input (an invalid number, a duplicate or unknown key), and input can be
/// megabytes long: quoted whole, one bad token would make a message of that size. The span
/// still covers the whole token.
///
/// ```
/// use sluice_core::error::excerpt;
/// assert_eq!(excerpt("1.5.2"), "1.5.2");
/// let long = "9".repeat(1000);
/// assert_eq!(excerpt(&long), format!("{}…{}", "9".repeat(40), "9".repeat(16)));
/// ```
#[must_use]
pub fn excerpt(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().nth(EXCERPT_WHOLE).is_none() {
        return text.into();
    }
    let head_end = text
        .char_indices()
        .nth(EXCERPT_HEAD)
        .map_or(text.len(), |(at, _)| at);
    let tail_start = text
        .char_indices()
        .rev()
        .nth(EXCERPT_TAIL - 1)
        .map_or(0, |(at, _)| at);
    format!("{}…{}", &text[..head_end], &text[tail_start..]).into()
}

impl Error {
    /// An error with a code and a message that says what was expected and what was found.
    #[must_use]
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Error {
        Error(Box::new(Inner {
            code,
            message: message.into(),
            span: None,
            span_hint: SpanHint::CurrentToken,
            path: None,
            type_path: None,
            notes: Vec::new(),
            source_text: None,
            io: None,
        }))
    }

    /// "`what` is not supported by `by`", for methods a format cannot provide.
    #[must_use]
    pub fn unsupported(what: &str, by: &str) -> Error {
        Error::new(
            codes::UNSUPPORTED,
            format!("{what} is not supported by {by}"),
        )
    }

    /// "expected `expected`, found `found`", for a token of the wrong kind.
    #[must_use]
    pub fn unexpected(expected: &str, found: Entry) -> Error {
        Error::new(
            codes::UNEXPECTED_ENTRY,
            format!("expected {expected}, found {found}"),
        )
    }

    /// A free-form error raised by a hook or handler.
    #[must_use]
    pub fn custom(message: impl Into<String>) -> Error {
        Error::new(codes::CUSTOM, message)
    }

    /// Wraps an I/O error, as [`IO`](codes::IO): [`Error::io_error`] and
    /// [`std::error::Error::source`] return it, the very error given here, also from every
    /// copy of this error ([`Error::duplicate`], `clone`), so a caller can reach its kind,
    /// its [`raw_os_error`](std::io::Error::raw_os_error) and the error inside it.
    ///
    /// The error has no span; a reader gives it the one of the place where its input broke.
    #[must_use]
    pub fn io(err: std::io::Error) -> Error {
        let mut error = Error::new(codes::IO, format!("I/O error: {err}"));
        error.0.io = Some(Arc::new(err));
        error
    }

    /// A copy of this error, to report it again (a reader that stops at its first error
    /// answers every later call with it): the same as `clone`, kept for code written before
    /// `Error` was `Clone`. Every field is copied; an I/O
    /// error inside is shared, so the copy's [`source`](std::error::Error::source) is the
    /// very error the first report had.
    ///
    /// ```
    /// use sluice_core::{Error, Span, codes};
    /// let first = Error::new(codes::CUSTOM, "boom").with_span(Span::new(1, 2)).with_note("n");
    /// let again = first.duplicate();
    /// assert_eq!((again.code(), again.message(), again.span()), (first.code(), "boom", first.span()));
    /// assert_eq!(again.notes(), first.notes());
    ///
    /// let io = Error::io(std::io::Error::from_raw_os_error(5));
    /// assert_eq!(io.duplicate().io_error().and_then(|e| e.raw_os_error()), Some(5));
    /// ```
    #[must_use]
    pub fn duplicate(&self) -> Error {
        self.clone()
    }

    /// Sets the byte span of the offending value.
    #[must_use]
    pub fn with_span(mut self, span: Span) -> Error {
        self.0.span = Some(span);
        self
    }

    /// Sets the span only if none is set yet (inner layers know better).
    #[must_use]
    pub fn or_span(mut self, span: Span) -> Error {
        if self.0.span.is_none() {
            self.0.span = Some(span);
        }
        self
    }

    /// Says where a span-less error should point; see [`SpanHint`].
    #[must_use]
    pub fn with_span_hint(mut self, hint: SpanHint) -> Error {
        self.0.span_hint = hint;
        self
    }

    /// Sets the data path of the offending value.
    #[must_use]
    pub fn with_path(mut self, path: Path) -> Error {
        self.0.path = Some(path);
        self
    }

    /// Sets the Rust side of the location, such as `Settings.distance: Distance`.
    #[must_use]
    pub fn with_type_path(mut self, type_path: impl Into<String>) -> Error {
        self.0.type_path = Some(type_path.into());
        self
    }

    /// Adds a note shown under the snippet (for example the accepted names).
    #[must_use]
    pub fn with_note(mut self, note: impl Into<String>) -> Error {
        self.0.notes.push(note.into());
        self
    }

    /// Attaches the source the span points into, so [`render`](Error::render) can show it.
    #[must_use]
    pub fn with_source_text(mut self, name: impl Into<String>, text: impl AsRef<[u8]>) -> Error {
        self.0.source_text = Some(SourceText {
            name: name.into(),
            text: Arc::from(text.as_ref()),
            line_offset: 0,
        });
        self
    }

    /// Attaches an already shared source (no copy), for example one NDJSON record.
    #[must_use]
    pub fn with_shared_source(mut self, source: SourceText) -> Error {
        self.0.source_text = Some(source);
        self
    }

    /// The stable code.
    #[must_use]
    pub fn code(&self) -> ErrorCode {
        self.0.code
    }

    /// The message, without location.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The byte span of the offending value, if known.
    ///
    /// An I/O error of a reader ([`IO`](codes::IO)) has an empty span at the offset in its
    /// input where the read that failed would have put its bytes: every byte before it
    /// arrived, none after.
    #[must_use]
    pub fn span(&self) -> Option<Span> {
        self.0.span
    }

    /// Where a span-less error should point.
    #[must_use]
    pub fn span_hint(&self) -> SpanHint {
        self.0.span_hint
    }

    /// The data path, if known.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.0.path.as_ref()
    }

    /// Mutable access to the data path, creating the root path if there is none.
    pub fn path_mut(&mut self) -> &mut Path {
        self.0.path.get_or_insert_with(Path::root)
    }

    /// The Rust type location, if known.
    #[must_use]
    pub fn type_path(&self) -> Option<&str> {
        self.0.type_path.as_deref()
    }

    /// The notes added with [`with_note`](Error::with_note).
    #[must_use]
    pub fn notes(&self) -> &[String] {
        &self.0.notes
    }

    /// Mutable access to the notes, for a caller that words one in its own terms (a
    /// command line naming its flag where a library note names an option).
    ///
    /// ```
    /// use sluice_core::{Error, codes};
    /// let mut err = Error::new(codes::CUSTOM, "refused").with_note("set `strict: false`");
    /// for note in err.notes_mut() {
    ///     *note = note.replace("`strict: false`", "`--lenient`");
    /// }
    /// assert_eq!(err.notes(), ["set `--lenient`"]);
    /// ```
    pub fn notes_mut(&mut self) -> &mut [String] {
        &mut self.0.notes
    }

    /// The attached source, if any.
    #[must_use]
    pub fn source_text(&self) -> Option<&SourceText> {
        self.0.source_text.as_ref()
    }

    /// The I/O error this error wraps (see [`Error::io`]), if any: the one the stream or
    /// sink returned, not a copy, also when the error is reported again. The same as
    /// [`std::error::Error::source`] downcast to [`std::io::Error`].
    ///
    /// ```
    /// use std::io;
    /// use sluice_core::{Error, codes};
    /// let err = Error::io(io::Error::new(io::ErrorKind::ConnectionReset, "peer gone"));
    /// let again = err.duplicate();
    /// let kept = again.io_error().expect("an I/O error");
    /// assert_eq!(kept.kind(), io::ErrorKind::ConnectionReset);
    /// assert!(std::ptr::eq(kept, err.io_error().unwrap()));
    /// assert!(Error::custom("no I/O").io_error().is_none());
    /// ```
    #[must_use]
    pub fn io_error(&self) -> Option<&std::io::Error> {
        self.0.io.as_deref()
    }

    /// The 1-based line and column of the span start, when both span and source are known
    /// and the span starts inside the source or right at its end (an error at the end of
    /// the input, or where a stream broke after the text attached).
    #[must_use]
    pub fn line_column(&self) -> Option<crate::span::LineColumn> {
        let span = self.0.span?;
        let source = self.0.source_text.as_ref()?;
        if span.start > source.text.len() {
            return None;
        }
        let (index, base, breaks) = source.lines_around(span.start, 0);
        let mut position = index.line_column(span.start - base);
        position.line += breaks + source.line_offset;
        Some(position)
    }

    /// Renders the error with its snippet, as shown to a person:
    ///
    /// ```text
    /// error[json/ExpectComma]: expected ',' or '}', found '"'
    ///   --> config.json:3:5
    ///    |
    ///  2 |     "a": 1
    ///  3 |     "b": 2
    ///    |     ^
    ///    = at $.b
    /// ```
    ///
    /// An empty span right at the end of the source (the end of the input, or the place a
    /// stream broke after the text attached) has its caret after the last character. A span
    /// that starts past the end of the source, which then holds only part of the input, is
    /// shown as its bytes, without a snippet that would point elsewhere.
    #[must_use]
    pub fn render(&self) -> String {
        self.render_with(&RenderOptions::default())
    }

    /// Renders with explicit options (context lines, maximum width, tab width).
    #[must_use]
    pub fn render_with(&self, options: &RenderOptions) -> String {
        render::render(self, options)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("Error");
        debug
            .field("code", &self.0.code.to_string())
            .field("message", &self.0.message);
        if let Some(span) = self.0.span {
            debug.field("span", &span);
        }
        if let Some(path) = &self.0.path {
            debug.field("path", &path.to_string());
        }
        if let Some(type_path) = &self.0.type_path {
            debug.field("type_path", type_path);
        }
        debug.finish_non_exhaustive()
    }
}

impl fmt::Display for Error {
    /// One line: the message, then where (`line:column` when the source is attached and
    /// holds the span's start, else the byte span), then the path.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.message)?;
        if let Some(position) = self.line_column() {
            let name = self.0.source_text.as_ref().map_or("", |s| s.name.as_str());
            write!(f, " at {name}:{position}")?;
        } else if let Some(span) = self.0.span {
            write!(f, " at bytes {span}")?;
        }
        if let Some(path) = &self.0.path {
            write!(f, " ({path})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {
    /// The wrapped [`std::io::Error`] of an I/O error, as [`Error::io_error`].
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.io_error()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

impl From<std::io::Error> for Error {
    fn from(err: std::io::Error) -> Error {
        Error::io(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_keep_short_text_whole_and_cut_long_text_at_character_boundaries() {
        let whole = "é".repeat(64);
        assert_eq!(excerpt(&whole), whole.as_str());
        let long = format!("{}{}", "é".repeat(60), "日".repeat(10));
        let cut = excerpt(&long);
        let expected = format!("{}…{}{}", "é".repeat(40), "é".repeat(6), "日".repeat(10));
        assert_eq!(cut, expected);
        assert_eq!(cut.chars().count(), 40 + 1 + 16);
    }

    #[test]
    fn error_is_one_pointer_wide() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
    }

    #[test]
    fn or_span_keeps_the_inner_span() {
        let err = Error::custom("x")
            .with_span(Span::new(1, 2))
            .or_span(Span::new(5, 9));
        assert_eq!(err.span(), Some(Span::new(1, 2)));
        let err = Error::custom("x").or_span(Span::new(5, 9));
        assert_eq!(err.span(), Some(Span::new(5, 9)));
    }

    #[test]
    fn display_uses_line_and_column_when_source_is_attached() {
        let err = Error::custom("bad")
            .with_span(Span::new(4, 5))
            .with_source_text("a.json", "[1,\n x]");
        assert_eq!(err.line_column().map(|p| (p.line, p.column)), Some((2, 1)));
        let plain = Error::custom("bad").with_span(Span::new(4, 5));
        assert!(plain.to_string().contains("4..5"));
    }

    proptest::proptest! {
        #[test]
        fn the_position_from_the_lines_around_is_that_of_the_whole_text(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    &b"a"[..], b"\n", b"\r", b"\r\n", b"\t", "\u{e9}".as_bytes(),
                    "\u{65e5}".as_bytes(), b"\xEF\xBB\xBF", b"\xFF", b"\xE2\x80",
                ]),
                0..24,
            ),
            at in 0usize..64,
            line_offset in 0usize..2,
        ) {
            let text = pieces.concat();
            let at = at.min(text.len());
            let mut err = Error::custom("x").with_span(Span::at(at)).with_source_text("t", &text);
            let mut source = err.source_text().unwrap().clone();
            source.line_offset = line_offset;
            err = err.with_shared_source(source);
            let whole = if line_offset == 0 {
                crate::span::LineIndex::new(&text)
            } else {
                crate::span::LineIndex::continuing(&text)
            };
            let mut expected = whole.line_column(at);
            expected.line += line_offset;
            proptest::prop_assert_eq!(err.line_column(), Some(expected));
        }
    }

    #[test]
    fn io_errors_keep_their_cause() {
        let err = Error::from(std::io::Error::other("disk on fire"));
        assert_eq!(err.code(), codes::IO);
        assert!(std::error::Error::source(&err).is_some());
    }

    #[derive(Debug)]
    struct Inside(u8);

    impl fmt::Display for Inside {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "inside {}", self.0)
        }
    }

    impl std::error::Error for Inside {}

    #[test]
    fn every_copy_of_an_io_error_has_the_original_as_its_source() {
        let custom = Error::io(std::io::Error::new(
            std::io::ErrorKind::BrokenPipe,
            Inside(3),
        ));
        let os = Error::io(std::io::Error::from_raw_os_error(32));
        for first in [custom, os] {
            for again in [first.duplicate(), first.clone(), first.clone().duplicate()] {
                let source = std::error::Error::source(&again).expect("the I/O error");
                let io = source
                    .downcast_ref::<std::io::Error>()
                    .expect("an io::Error");
                assert!(std::ptr::eq(io, first.io_error().unwrap()));
                assert!(std::ptr::eq(io, again.io_error().unwrap()));
                match io.raw_os_error() {
                    Some(code) => assert_eq!(code, 32),
                    None => {
                        assert_eq!(io.kind(), std::io::ErrorKind::BrokenPipe);
                        let inside = io.get_ref().and_then(|e| e.downcast_ref::<Inside>());
                        assert_eq!(inside.map(|e| e.0), Some(3));
                    }
                }
            }
        }
    }
}
