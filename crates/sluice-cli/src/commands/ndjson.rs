//! `sluice ndjson stats FILE...`: what a large NDJSON corpus holds, read on every core.
//!
//! Each worker folds its blocks into a tree of places (the root, a key of an object, the
//! elements of an array) with a count and the value types seen at each. A block's places are
//! written as key paths (`$.upstreams["demo-backend"].peers[]`) only when it is merged into
//! the table, on the calling thread, so the walk over the records neither builds nor compares
//! paths. Only records read whole without error are counted.
//!
//! A key is written as the core's [`sluice_core::Path`] displays it (`.key`, or `["key"]`
//! escaped when it is not an identifier), and the elements of an array, whatever their index,
//! as `[]`. No key can then pass for another key, for two keys, or for array elements, and no
//! path holds a line break or a tab that would break the report's layout.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use sluice_core::path::write_key;
use sluice_core::{Entry, Reader, Result as SluiceResult};
use sluice_json::parallel::{ParallelOptions, ingest_blocks};
use sluice_json::{DuplicateKeys, JsonOptions, JsonReader, SliceInput};
use unicode_width::UnicodeWidthStr;

use crate::Failure;
use crate::input::LOAD_LIMIT;
use crate::output;

/// Arguments of `sluice ndjson`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: NdjsonCommand,
}

#[derive(Debug, clap::Subcommand)]
enum NdjsonCommand {
    /// Count records, bytes and errors, and list every key path of the valid records with
    /// its count and types.
    ///
    /// Each record is read as RFC 8259 JSON, one per line. A bad record is listed on stderr
    /// as `FILE: line N (byte B): CODE` and counted, unless --fail-fast stops at it.
    ///
    /// A path writes a key that is an identifier as `.key`, any other quoted and escaped as
    /// `["key"]`, and the elements of an array as `[]`: `$.items[]["unit price"]`.
    Stats(StatsArgs),
}

/// Arguments of `sluice ndjson stats`.
#[derive(Debug, clap::Args)]
pub(crate) struct StatsArgs {
    /// The NDJSON files (`-` for standard input, at most once).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Worker threads, at most 256 (default: one per core).
    #[arg(
        long,
        short,
        default_value_t = 0,
        hide_default_value = true,
        value_parser = clap::value_parser!(u16).range(0..=MAX_JOBS),
    )]
    jobs: u16,
    /// Stop at the first bad record, with its diagnostic, instead of counting it and going
    /// on. `--strict` is its older name, kept for scripts: every record is read as RFC 8259
    /// JSON either way.
    // Named for what it does: elsewhere `--strict` chooses the RFC 8259 dialect, which stats
    // always reads.
    #[arg(long = "fail-fast", visible_alias = "strict")]
    fail_fast: bool,
}

/// The most worker threads `--jobs` may ask for. Each worker adds two 1 MiB blocks to those
/// in flight, and a thread the system refuses to start ends the run with a panic, so a
/// number far beyond any core count (`--jobs 100000`) is a usage error rather than a crash.
const MAX_JOBS: i64 = 256;

/// The value kinds counted per path.
const KINDS: [&str; 7] = [
    "null", "bool", "integer", "float", "string", "array", "object",
];

#[derive(Debug, Default, Clone)]
struct PathStats {
    count: u64,
    kinds: [u64; 7],
}

/// Key path → stats, merged from every block.
#[derive(Debug, Default)]
struct Table {
    paths: BTreeMap<String, PathStats>,
}

impl Table {
    /// Adds the paths a block's valid records hold.
    fn merge(&mut self, block: BlockStats) {
        // Each node's path, written once per block rather than once per value: a node comes
        // after its parent, so its parent's path is known by the time it is reached.
        let mut paths = vec![String::new(); block.nodes.len()];
        if let Some(root) = paths.first_mut() {
            root.push('$');
        }
        for (at, node) in block.nodes.into_iter().enumerate() {
            let path = paths.get_mut(at).map(std::mem::take).unwrap_or_default();
            for (key, child) in node.keys {
                if let Some(slot) = paths.get_mut(child) {
                    slot.push_str(&path);
                    // Writing to a `String` cannot fail.
                    let _ = write_key(slot, &key);
                }
            }
            if let Some(slot) = node.elements.and_then(|child| paths.get_mut(child)) {
                slot.push_str(&path);
                slot.push_str("[]");
            }
            // Not counted: a place seen only in bad records.
            if node.stats.count > 0 {
                self.count(path, &node.stats);
            }
        }
    }

    /// Adds the paths of another table (another file's).
    fn add(&mut self, other: Table) {
        for (path, stats) in other.paths {
            self.count(path, &stats);
        }
    }

    fn count(&mut self, path: String, stats: &PathStats) {
        let mine = self.paths.entry(path).or_default();
        mine.count += stats.count;
        for (total, add) in mine.kinds.iter_mut().zip(stats.kinds) {
            *total += add;
        }
    }
}

/// One place in a block's records: the root, or a key or the elements of a place's value.
/// Its path is written only when the block is merged.
#[derive(Debug, Default)]
struct Node {
    /// The place of each key of the objects found here.
    keys: BTreeMap<Box<str>, usize>,
    /// The place of the elements of the arrays found here.
    elements: Option<usize>,
    /// Its values in valid records: a place seen only in bad records keeps a count of 0.
    stats: PathStats,
}

/// One block's places, and the values of the record being read: they are counted only
/// once the whole record has been read without error, so a bad record counts nowhere, even
/// for the values it held before the error.
#[derive(Debug, Default)]
struct BlockStats {
    /// The places seen, as a tree: the root first once a record is walked, and each place
    /// after its parent.
    nodes: Vec<Node>,
    /// Per open container: its place, and for an array the place of its elements.
    open: Vec<(usize, Option<usize>)>,
    /// The record's values so far: the place of each one, and its kind. Kept from one
    /// record to the next, as `open` is, so a record allocates nothing once they are large
    /// enough and its places have been seen.
    values: Vec<(usize, usize)>,
}

/// The root's place in [`BlockStats::nodes`].
const ROOT: usize = 0;

impl BlockStats {
    /// Reads one record, then counts every value under its path.
    fn record(&mut self, reader: &mut JsonReader<SliceInput<'_>>) -> SluiceResult<()> {
        self.values.clear();
        self.walk(reader)?;
        reader.finish()?;
        for &(at, kind) in &self.values {
            if let Some(node) = self.nodes.get_mut(at) {
                node.stats.count += 1;
                node.stats.kinds[kind] += 1;
            }
        }
        Ok(())
    }

    /// Walks one record, noting every value's place and kind in `values`.
    fn walk(&mut self, reader: &mut JsonReader<SliceInput<'_>>) -> SluiceResult<()> {
        let BlockStats {
            nodes,
            open,
            values,
        } = self;
        if nodes.is_empty() {
            nodes.push(Node::default());
        }
        open.clear();
        // The place of the next value.
        let mut at = ROOT;
        loop {
            let entry = reader.peek()?;
            match entry {
                Entry::Ended => return Ok(()),
                Entry::MapEnd => {
                    reader.read_map_end()?;
                    at = close(open, at);
                    continue;
                }
                Entry::ArrayEnd => {
                    reader.read_array_end()?;
                    at = close(open, at);
                    continue;
                }
                Entry::Name => {
                    let name = reader.read_name()?;
                    let object = open.last().map_or(ROOT, |&(object, _)| object);
                    at = key_place(nodes, object, name);
                    continue;
                }
                _ => {}
            }
            let kind = match entry {
                Entry::Null => 0,
                Entry::Bool => 1,
                Entry::String => 4,
                Entry::ArrayRoot => 5,
                Entry::MapRoot => 6,
                e if e.is_number() => {
                    if reader.read_number()?.is_float() {
                        3
                    } else {
                        2
                    }
                }
                _ => 0,
            };
            values.push((at, kind));
            match entry {
                Entry::MapRoot => {
                    reader.read_map_root()?;
                    open.push((at, None));
                }
                Entry::ArrayRoot => {
                    reader.read_array_root()?;
                    let elements = elements_place(nodes, at);
                    open.push((at, Some(elements)));
                    at = elements;
                }
                e if e.is_number() => {}
                _ => reader.skip()?,
            }
        }
    }
}

/// After a container's end: the place of the next value, `at` unless the container was an
/// element of an array, whose next element comes.
fn close(open: &mut Vec<(usize, Option<usize>)>, at: usize) -> usize {
    open.pop();
    match open.last() {
        Some(&(_, Some(elements))) => elements,
        _ => at,
    }
}

/// The place of `key` in the objects at `object`, added when it is new.
fn key_place(nodes: &mut Vec<Node>, object: usize, key: &str) -> usize {
    let next = nodes.len();
    let Some(parent) = nodes.get_mut(object) else {
        return object;
    };
    if let Some(&place) = parent.keys.get(key) {
        return place;
    }
    parent.keys.insert(key.into(), next);
    nodes.push(Node::default());
    next
}

/// The place of the elements of the arrays at `array`, added when it is new.
fn elements_place(nodes: &mut Vec<Node>, array: usize) -> usize {
    let next = nodes.len();
    let Some(parent) = nodes.get_mut(array) else {
        return array;
    };
    if let Some(place) = parent.elements {
        return place;
    }
    parent.elements = Some(next);
    nodes.push(Node::default());
    next
}

pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    match &args.command {
        NdjsonCommand::Stats(stats) => run_stats(stats),
    }
}

fn open(path: &Path) -> Result<(Box<dyn Read>, Option<u64>), Failure> {
    if crate::input::is_stdin(path) {
        return Ok((Box::new(io::stdin().lock()), None));
    }
    let file = File::open(path)
        .map_err(|e| Failure::Usage(format!("cannot open {}: {e}", crate::name::shown(path))))?;
    let metadata = file.metadata().ok();
    if metadata.as_ref().is_some_and(std::fs::Metadata::is_dir) {
        // Opening a directory succeeds on Unix, and only its first read fails: said here in
        // the words `check` uses.
        return Err(Failure::Usage(format!(
            "cannot read {}: it is a directory",
            crate::name::shown(path)
        )));
    }
    Ok((Box::new(file), metadata.map(|m| m.len())))
}

/// Reads the first (up to 4) bytes of `source`, and gives them back with a reader of the
/// whole input, those bytes included.
fn read_head(mut source: Box<dyn Read>) -> io::Result<(Vec<u8>, Box<dyn Read>)> {
    let mut head = Vec::with_capacity(4);
    // `take` and `read_to_end` retry short and interrupted reads (a pipe gives what it has).
    source.by_ref().take(4).read_to_end(&mut head)?;
    let whole = io::Cursor::new(head.clone()).chain(source);
    Ok((head, Box::new(whole)))
}

fn run_stats(args: &StatsArgs) -> Result<(), Failure> {
    crate::input::stdin_at_most_once(&args.files)?;
    let mut options = ParallelOptions {
        jobs: usize::from(args.jobs),
        skip_errors: !args.fail_fast,
        // A key twice in a record is valid JSON, as for `check` (see `pump::json_options`).
        json: JsonOptions {
            duplicate_keys: DuplicateKeys::LastWins,
            ..JsonOptions::strict()
        },
        ..ParallelOptions::default()
    };
    let mut total = Table::default();
    let (mut records, mut bytes, mut errors) = (0u64, 0u64, 0usize);
    // Like `check`, a file that cannot be read is reported in one line and the others are
    // still read.
    let mut unreadable = 0usize;
    let mut cannot_read = |message: &str| {
        crate::to_stderr(format_args!("sluice: {message}\n"));
        unreadable += 1;
    };
    for path in &args.files {
        let name = if crate::input::is_stdin(path) {
            "<stdin>".to_owned()
        } else {
            crate::name::shown(path)
        };
        name.clone_into(&mut options.source_name);
        let (source, size) = match open(path) {
            Ok(opened) => opened,
            Err(Failure::Usage(message)) => {
                cannot_read(&message);
                continue;
            }
            Err(other) => return Err(other),
        };
        let source: Box<dyn Read> = match size {
            Some(size) if size > LOAD_LIMIT && io::stderr().is_terminal() => {
                let bar = ProgressBar::new(size).with_style(
                    ProgressStyle::with_template(
                        "{bytes}/{total_bytes} {bytes_per_sec} {wide_bar} {eta}",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                Box::new(bar.wrap_read(source))
            }
            _ => source,
        };
        // Its first bytes, to tell a UTF-16 file, whose every line is bad, by a note.
        let (head, source) = match read_head(source) {
            Ok(read) => read,
            Err(e) => {
                cannot_read(&format!("cannot read {name}: {e}"));
                continue;
            }
        };
        // The file's own table, added to the total only once the whole file is read.
        let mut table = Table::default();
        let ingested = ingest_blocks(
            source,
            &options,
            BlockStats::default,
            |stats, reader, _| stats.record(reader),
            |block| {
                table.merge(block);
                Ok(())
            },
        );
        let summary = match ingested {
            Ok(summary) => summary,
            Err(err) => match crate::input::invalid(err, &name, None) {
                // A read error (a directory, a device failing): the file counts nowhere.
                Failure::Usage(message) => {
                    cannot_read(&message);
                    continue;
                }
                other => return Err(other),
            },
        };
        for bad in &summary.errors {
            crate::to_stderr(format_args!(
                "{name}: line {} (byte {}): {}\n",
                bad.record.line,
                bad.record.offset,
                bad.error.code()
            ));
        }
        if summary
            .errors
            .first()
            .is_some_and(|bad| bad.record.offset == 0)
            && crate::input::looks_like_utf16(&head)
        {
            crate::to_stderr(format_args!("{name}: note: {}\n", crate::input::UTF16_NOTE));
        }
        total.add(table);
        records += summary.records;
        bytes += summary.bytes;
        errors += summary.errors.len();
    }
    let given = args.files.len();
    if unreadable == given {
        // Nothing was read: a report of zero records would read as a result (an empty
        // corpus), so there is none, as `check` prints nothing but the file's message.
        return Err(Failure::Usage(if given == 1 {
            "no report: the file could not be read".to_owned()
        } else {
            format!("no report: none of the {given} files could be read")
        }));
    }
    // Written, not printed: `print!` panics when standard output is closed or full.
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(report(&total, records, bytes, errors).as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| output::write_failure(output::STDOUT, &e))?;
    if unreadable > 0 {
        return Err(Failure::Usage(format!(
            "{unreadable} of {given} files could not be read"
        )));
    }
    if errors > 0 {
        return Err(Failure::Invalid(String::new()));
    }
    Ok(())
}

fn report(table: &Table, records: u64, bytes: u64, errors: usize) -> String {
    use std::fmt::Write as _;
    let mut out = format!("records: {records}\nbytes: {bytes}\nerrors: {errors}\n");
    // The path column is padded to the widest path as a terminal shows it: a wide character
    // (`日`) takes two columns, while `{:<width$}` would count one per `char`.
    let width = table
        .paths
        .keys()
        .map(|path| path.width())
        .max()
        .unwrap_or(4)
        .max(4);
    let pad = |out: &mut String, text: &str| {
        out.push_str(text);
        out.extend(std::iter::repeat_n(' ', width.saturating_sub(text.width())));
    };
    // Ten digits, or as many as the largest count has (ten billion values and more).
    let digits = table
        .paths
        .values()
        .map(|stats| stats.count.to_string().len())
        .max()
        .unwrap_or(0)
        .max(10);
    pad(&mut out, "path");
    let _ = writeln!(out, "  {:>digits$}  types", "count");
    for (path, stats) in &table.paths {
        let kinds: Vec<String> = KINDS
            .iter()
            .zip(stats.kinds)
            .filter(|&(_, n)| n > 0)
            .map(|(name, n)| {
                if n == stats.count {
                    (*name).to_owned()
                } else {
                    format!("{name} {n}")
                }
            })
            .collect();
        pad(&mut out, path);
        let _ = writeln!(out, "  {:>digits$}  {}", stats.count, kinds.join(", "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block_of(records: &[&str]) -> BlockStats {
        let mut block = BlockStats::default();
        for record in records {
            block.record(&mut JsonReader::from_str(record)).unwrap();
        }
        block
    }

    fn table_of(records: &[&str]) -> Table {
        let mut table = Table::default();
        table.merge(block_of(records));
        table
    }

    #[test]
    fn paths_name_keys_and_fold_array_elements() {
        let table = table_of(&[
            r#"{"a": {"b": [1, 2.5, {"c": null}]}, "d": "x"}"#,
            r#"{"a": {"b": []}, "d": true}"#,
        ]);
        let summary: Vec<(String, u64)> = table
            .paths
            .iter()
            .map(|(path, stats)| (path.clone(), stats.count))
            .collect();
        assert_eq!(
            summary,
            [
                ("$".to_owned(), 2),
                ("$.a".to_owned(), 2),
                ("$.a.b".to_owned(), 2),
                ("$.a.b[]".to_owned(), 3),
                ("$.a.b[].c".to_owned(), 1),
                ("$.d".to_owned(), 2),
            ]
        );
        let elements = &table.paths["$.a.b[]"];
        assert_eq!(elements.kinds, [0, 0, 1, 1, 0, 0, 1]);
        let d = &table.paths["$.d"];
        assert_eq!(d.kinds, [0, 1, 0, 0, 1, 0, 0]);
    }

    fn counts(table: &Table) -> Vec<(&str, u64, [u64; 7])> {
        table
            .paths
            .iter()
            .map(|(path, stats)| (path.as_str(), stats.count, stats.kinds))
            .collect()
    }

    #[test]
    fn values_after_a_nested_container_keep_their_places() {
        let table = table_of(&[
            r#"[{"a": 1}, 2, [3, [4]], {"b": {"c": []}, "d": 5}, 6]"#,
            r#"{"x": {"y": 1}, "z": 2}"#,
            r#"{"x": [{"y": 3}], "z": 4}"#,
            "7",
        ]);
        assert_eq!(
            counts(&table),
            [
                ("$", 4, [0, 0, 1, 0, 0, 1, 2]),
                ("$.x", 2, [0, 0, 0, 0, 0, 1, 1]),
                ("$.x.y", 1, [0, 0, 1, 0, 0, 0, 0]),
                ("$.x[]", 1, [0, 0, 0, 0, 0, 0, 1]),
                ("$.x[].y", 1, [0, 0, 1, 0, 0, 0, 0]),
                ("$.z", 2, [0, 0, 2, 0, 0, 0, 0]),
                ("$[]", 5, [0, 0, 2, 0, 0, 1, 2]),
                ("$[].a", 1, [0, 0, 1, 0, 0, 0, 0]),
                ("$[].b", 1, [0, 0, 0, 0, 0, 0, 1]),
                ("$[].b.c", 1, [0, 0, 0, 0, 0, 1, 0]),
                ("$[].d", 1, [0, 0, 1, 0, 0, 0, 0]),
                ("$[][]", 2, [0, 0, 1, 0, 0, 1, 0]),
                ("$[][][]", 1, [0, 0, 1, 0, 0, 0, 0]),
            ]
        );
    }

    #[test]
    fn a_record_after_a_bad_one_starts_at_the_root() {
        let mut block = BlockStats::default();
        // Cut inside an array inside an object: the next record must not go on from there.
        assert!(
            block
                .record(&mut JsonReader::from_str(r#"{"a": [{"b": [1, "#))
                .is_err()
        );
        block
            .record(&mut JsonReader::from_str(r#"{"b": [true]}"#))
            .unwrap();
        let mut table = Table::default();
        table.merge(block);
        assert_eq!(
            counts(&table),
            [
                ("$", 1, [0, 0, 0, 0, 0, 0, 1]),
                ("$.b", 1, [0, 0, 0, 0, 0, 1, 0]),
                ("$.b[]", 1, [0, 1, 0, 0, 0, 0, 0]),
            ]
        );
    }

    #[test]
    fn a_count_of_more_than_ten_digits_widens_its_column() {
        let mut table = table_of(&[r#"{"a": 1}"#]);
        let huge = PathStats {
            count: 12_345_678_901,
            kinds: [0, 0, 12_345_678_901, 0, 0, 0, 0],
        };
        table.count("$.b".to_owned(), &huge);
        let text = report(&table, 1, 8, 0);
        let lines: Vec<&str> = text.lines().skip(3).collect();
        assert_eq!(
            lines,
            [
                "path        count  types",
                "$               1  object",
                "$.a             1  integer",
                "$.b   12345678901  integer",
            ]
        );
    }

    #[test]
    fn a_bad_record_counts_nowhere() {
        let mut block = BlockStats::default();
        block
            .record(&mut JsonReader::from_str(r#"{"a": 1}"#))
            .unwrap();
        for bad in [r#"{"zzz": 1, x}"#, r#"{"a": [true]} 2"#] {
            assert!(block.record(&mut JsonReader::from_str(bad)).is_err());
        }
        block
            .record(&mut JsonReader::from_str(r#"{"a": 2}"#))
            .unwrap();
        let mut table = Table::default();
        table.merge(block);
        let summary: Vec<(&str, u64)> = table
            .paths
            .iter()
            .map(|(path, stats)| (path.as_str(), stats.count))
            .collect();
        assert_eq!(summary, [("$", 2), ("$.a", 2)]);
    }

    #[test]
    fn merged_tables_add_up() {
        let mut one = table_of(&[r#"{"k": 1}"#]);
        one.merge(block_of(&[r#"{"k": "s"}"#, r#"{"k": 2}"#]));
        assert_eq!(one.paths["$.k"].count, 3);
        assert_eq!(one.paths["$.k"].kinds[2], 2);
        let text = report(&one, 3, 30, 0);
        assert!(text.contains("records: 3\n"), "{text}");
        assert!(
            text.lines()
                .any(|l| l.starts_with("$.k") && l.ends_with("integer 2, string 1")),
            "{text}"
        );
    }
}
