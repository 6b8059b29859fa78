//! The bridge's error type: sluice's [`Error`](sluice_core::Error) in a newtype, so serde's
//! error traits can be implemented for it.
//!
//! Nothing is lost on the way through serde: reader errors keep their own codes (such as
//! `json/ExpectComma`) and spans, and the errors serde raises itself (a missing field, an
//! unknown variant, a string where a number was expected) get a `serde/...` code, the span of
//! the value being read and the data path (`$.a[2].b`). Attach the source with
//! [`Error::with_source_text`] and [`Error::render`] shows a snippet pointing at the value.

use std::fmt::{self, Display};

use sluice_core::error::excerpt;
use sluice_core::{ErrorCode, Path, Span};

/// The error codes raised by the bridge itself (category `serde`).
///
/// Errors from the reader or writer underneath keep their own codes (`json/...`,
/// `msgpack/...`, `core/...`).
pub mod codes {
    use sluice_core::ErrorCode;

    /// A free-form message from a `Deserialize` or `Serialize` implementation
    /// (`serde::de::Error::custom`).
    pub const CUSTOM: ErrorCode = ErrorCode::new("serde", "Custom");
    /// A value of the wrong kind for the Rust type (a string where a number was expected).
    pub const INVALID_TYPE: ErrorCode = ErrorCode::new("serde", "InvalidType");
    /// A value of the right kind that the Rust type does not accept.
    pub const INVALID_VALUE: ErrorCode = ErrorCode::new("serde", "InvalidValue");
    /// A sequence or map with the wrong number of elements (a tuple too short or too long).
    pub const INVALID_LENGTH: ErrorCode = ErrorCode::new("serde", "InvalidLength");
    /// An enum variant name the Rust enum does not have.
    pub const UNKNOWN_VARIANT: ErrorCode = ErrorCode::new("serde", "UnknownVariant");
    /// A field the struct does not have, with `#[serde(deny_unknown_fields)]`.
    pub const UNKNOWN_FIELD: ErrorCode = ErrorCode::new("serde", "UnknownField");
    /// A struct field that is not optional is absent.
    pub const MISSING_FIELD: ErrorCode = ErrorCode::new("serde", "MissingField");
    /// A struct field given twice.
    pub const DUPLICATE_FIELD: ErrorCode = ErrorCode::new("serde", "DuplicateField");
    /// A `&str` or `&[u8]` field could not borrow from the input: the string had escapes, or
    /// the reader does not read from a slice the deserializer knows. Use `String` or
    /// `Cow<str>` (with `#[serde(borrow)]`) instead.
    pub const CANNOT_BORROW: ErrorCode = ErrorCode::new("serde", "CannotBorrow");
    /// An enum was neither a variant name nor a map with exactly one key.
    pub const INVALID_ENUM: ErrorCode = ErrorCode::new("serde", "InvalidEnum");
    /// Values remain after the one that was deserialized.
    pub const TRAILING_VALUE: ErrorCode = ErrorCode::new("serde", "TrailingValue");
    /// A map key that cannot be written as a name (a sequence, a map, bytes, `None`...).
    pub const INVALID_KEY: ErrorCode = ErrorCode::new("serde", "InvalidKey");
}

/// The error of every bridge operation: a [`sluice_core::Error`] with serde's error traits.
///
/// It dereferences to the inner error, so [`code`](sluice_core::Error::code),
/// [`span`](sluice_core::Error::span), [`path`](sluice_core::Error::path) and
/// [`render`](sluice_core::Error::render) are all there; `?` turns it into a
/// [`sluice_core::Error`] and back.
///
/// ```
/// use sluice_core::Span;
/// use sluice_serde::codes;
///
/// #[derive(serde::Deserialize, Debug)]
/// struct Config {
///     retries: u8,
/// }
/// let text = r#"{"retries": "many"}"#;
/// let err = sluice_serde::from_json_str::<Config>(text).unwrap_err();
/// assert_eq!(err.code(), codes::INVALID_TYPE);
/// assert_eq!(err.span(), Some(Span::new(12, 18))); // the string "many"
/// assert_eq!(err.path().unwrap().to_string(), "$.retries");
/// let shown = err.with_source_text("config.json", text).render();
/// assert!(shown.contains("^^^^^^"));
/// ```
pub struct Error(sluice_core::Error);

/// `Result` with the bridge's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error with a code and a message.
    #[must_use]
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Error {
        Error(sluice_core::Error::new(code, message))
    }

    /// The sluice error inside.
    #[must_use]
    pub fn into_inner(self) -> sluice_core::Error {
        self.0
    }

    /// Attaches the source the span points into, so [`render`](sluice_core::Error::render)
    /// can show a snippet.
    #[must_use]
    pub fn with_source_text(self, name: impl Into<String>, text: impl AsRef<[u8]>) -> Error {
        Error(self.0.with_source_text(name, text))
    }

    /// Sets the span only if none is set yet (inner layers know better).
    #[must_use]
    pub(crate) fn or_span(self, span: Span) -> Error {
        Error(self.0.or_span(span))
    }

    /// Sets the path, replacing any (callers check `path()` first where one may be set).
    #[must_use]
    pub(crate) fn with_path(self, path: Path) -> Error {
        Error(self.0.with_path(path))
    }
}

impl std::ops::Deref for Error {
    type Target = sluice_core::Error;

    fn deref(&self) -> &sluice_core::Error {
        &self.0
    }
}

impl From<sluice_core::Error> for Error {
    #[inline]
    fn from(err: sluice_core::Error) -> Error {
        Error(err)
    }
}

impl From<Error> for sluice_core::Error {
    fn from(err: Error) -> sluice_core::Error {
        err.0
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Display::fmt(&self.0, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.0)
    }
}

impl serde::de::Error for Error {
    #[cold]
    fn custom<T: Display>(msg: T) -> Error {
        Error::new(codes::CUSTOM, msg.to_string())
    }

    #[cold]
    fn invalid_type(unexp: serde::de::Unexpected<'_>, exp: &dyn serde::de::Expected) -> Error {
        let expected = exp.to_string();
        // serde's impls for `&str` and `&[u8]` expect "a borrowed string" / "a borrowed byte
        // array": being handed a string that is not borrowed is a borrowing problem.
        let code = if expected.starts_with("a borrowed") {
            codes::CANNOT_BORROW
        } else {
            codes::INVALID_TYPE
        };
        let err = Error::new(code, format!("invalid type: {unexp}, expected {expected}"));
        if code == codes::CANNOT_BORROW {
            Error(err.0.with_note(
                "only strings without escapes, read from a slice the deserializer was given, \
                 can be borrowed; use String or Cow<str> with #[serde(borrow)]",
            ))
        } else {
            err
        }
    }

    #[cold]
    fn invalid_value(unexp: serde::de::Unexpected<'_>, exp: &dyn serde::de::Expected) -> Error {
        Error::new(
            codes::INVALID_VALUE,
            format!("invalid value: {unexp}, expected {exp}"),
        )
    }

    #[cold]
    fn invalid_length(len: usize, exp: &dyn serde::de::Expected) -> Error {
        Error::new(
            codes::INVALID_LENGTH,
            format!("invalid length {len}, expected {exp}"),
        )
    }

    #[cold]
    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Error {
        let err = Error::new(
            codes::UNKNOWN_VARIANT,
            format!("unknown variant {:?}", excerpt(variant)),
        );
        Error(err.0.with_note(one_of(expected)))
    }

    #[cold]
    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Error {
        let err = Error::new(
            codes::UNKNOWN_FIELD,
            format!("unknown field {:?}", excerpt(field)),
        );
        Error(err.0.with_note(one_of(expected)))
    }

    #[cold]
    fn missing_field(field: &'static str) -> Error {
        Error::new(codes::MISSING_FIELD, format!("missing field {field:?}"))
    }

    #[cold]
    fn duplicate_field(field: &'static str) -> Error {
        Error::new(codes::DUPLICATE_FIELD, format!("duplicate field {field:?}"))
    }
}

impl serde::ser::Error for Error {
    #[cold]
    fn custom<T: Display>(msg: T) -> Error {
        Error::new(codes::CUSTOM, msg.to_string())
    }
}

fn one_of(names: &[&str]) -> String {
    if names.is_empty() {
        return "there are none".to_owned();
    }
    let list: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    format!("expected one of {}", list.join(", "))
}
