//! Which format a file is in, from a flag or its extension.

use std::path::Path;

use clap::ValueEnum;

/// A data format the command line reads or writes; as a value of an input's flag (`--from`),
/// its help says how it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// One JSON text, in the dialect of --strict, --relaxed or --json5, else of the extension
    /// (.jsonc relaxed, .json5 JSON5), else RFC 8259.
    Json,
    /// Newline-delimited JSON: one value per line, each in the JSON dialect.
    Ndjson,
    /// MessagePack: a stream of values.
    Msgpack,
}

/// An output format (`--to`): the same formats as [`Format`], with a help that says how each
/// is written. The dialect flags are about input only, so they have no place here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OutputFormat {
    /// One JSON text, RFC 8259, whatever the input's dialect.
    Json,
    /// Newline-delimited JSON: one RFC 8259 value per line.
    Ndjson,
    /// MessagePack: a stream of values.
    Msgpack,
}

impl From<OutputFormat> for Format {
    fn from(format: OutputFormat) -> Format {
        match format {
            OutputFormat::Json => Format::Json,
            OutputFormat::Ndjson => Format::Ndjson,
            OutputFormat::Msgpack => Format::Msgpack,
        }
    }
}

/// How lenient the JSON reader is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Dialect {
    /// RFC 8259 exactly.
    #[default]
    Strict,
    /// Comments and trailing commas.
    Relaxed,
    /// JSON5.
    Json5,
}

impl Dialect {
    /// The dialect of an input: the one a flag asks for, else the one its file name suggests.
    pub(crate) fn of_input(asked: Option<Dialect>, path: impl AsRef<Path>) -> Dialect {
        asked.unwrap_or_else(|| Format::dialect_from_path(path))
    }
}

impl Format {
    /// The format a file name suggests, if its extension is known.
    pub(crate) fn from_path(path: impl AsRef<Path>) -> Option<Format> {
        let extension = path.as_ref().extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "json" | "jsonc" | "json5" => Some(Format::Json),
            "ndjson" | "jsonl" => Some(Format::Ndjson),
            "msgpack" | "mpk" | "mp" => Some(Format::Msgpack),
            _ => None,
        }
    }

    /// The format of an input: the one a flag asks for (`--from`, `--ndjson`, `--msgpack`),
    /// else the one its file name suggests. Every command decides with this rule, so they
    /// agree on which inputs are NDJSON records: a JSON dialect flag never changes the format,
    /// only the syntax of each value.
    pub(crate) fn of_input(asked: Option<Format>, path: impl AsRef<Path>) -> Option<Format> {
        asked.or_else(|| Format::from_path(path))
    }

    /// The dialect a file name suggests (`.jsonc` is relaxed, `.json5` is JSON5).
    pub(crate) fn dialect_from_path(path: impl AsRef<Path>) -> Dialect {
        let extension = path
            .as_ref()
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("jsonc") => Dialect::Relaxed,
            Some("json5") => Dialect::Json5,
            _ => Dialect::Strict,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_map_to_formats_case_insensitively() {
        assert_eq!(Format::from_path("a/b.JSON"), Some(Format::Json));
        assert_eq!(Format::from_path("x.jsonl"), Some(Format::Ndjson));
        assert_eq!(Format::from_path("x.mpk"), Some(Format::Msgpack));
        assert_eq!(Format::from_path("x.txt"), None);
        assert_eq!(Format::from_path("-"), None);
        assert_eq!(Format::dialect_from_path("game.jsonc"), Dialect::Relaxed);
        assert_eq!(Format::dialect_from_path("game.json"), Dialect::Strict);
    }

    #[test]
    fn a_flag_wins_over_the_file_name() {
        assert_eq!(Format::of_input(None, "r.jsonl"), Some(Format::Ndjson));
        assert_eq!(
            Format::of_input(Some(Format::Json), "r.ndjson"),
            Some(Format::Json)
        );
        assert_eq!(
            Format::of_input(Some(Format::Ndjson), "-"),
            Some(Format::Ndjson)
        );
        assert_eq!(Format::of_input(None, "-"), None);
        assert_eq!(Dialect::of_input(None, "r.ndjson"), Dialect::Strict);
        assert_eq!(Dialect::of_input(None, "c.jsonc"), Dialect::Relaxed);
        assert_eq!(
            Dialect::of_input(Some(Dialect::Strict), "c.jsonc"),
            Dialect::Strict
        );
    }
}
