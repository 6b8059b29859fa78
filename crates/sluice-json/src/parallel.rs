//! NDJSON ingestion across cores.
//!
//! A large NDJSON input is cut into blocks at line boundaries; worker threads parse the
//! records of each block while the calling thread reads the next blocks. Memory follows the
//! block size and the longest line, not the size of the input: at most two blocks per worker
//! thread started are in flight (read and not yet delivered), and one more is being read.
//! A block holds whole lines, so a line longer than the block size makes a block as long as
//! itself: a huge record, or an input without line feeds, is held whole (where
//! [`NdjsonReader`](crate::NdjsonReader) holds only its window, the current token and the open
//! containers). Results are delivered per block, in input order or as soon as they are ready.
//!
//! Each record is read by its own [`JsonReader`] over the record's line (zero copy), and must
//! hold exactly one value. A line is read as [`NdjsonReader`](crate::NdjsonReader) reads it
//! in the whole input, so both accept and refuse the same inputs with the same errors: a
//! line without a value (blank, or only comments where the options allow them) holds no
//! record, a byte order mark may open the input's first line only, and a block comment that
//! goes on past its line is unclosed at the end of the line, between records as inside one.
//! A bad record is reported with its 1-based line number and the absolute byte offset of
//! its line; with [`ParallelOptions::skip_errors`] it is collected and the run goes on.
//! A run that fails (an I/O error, a bad record, `deliver`) can still tell what it delivered
//! before, and where to resume: [`ingest_blocks_into`] and [`ingest_records_into`] fill an
//! [`IngestSummary`] as they go.
//!
//! Splitting by byte range is also how to scale past one machine: any engine that shards a
//! file at newline boundaries can run this per shard.

use std::any::Any;
use std::collections::BTreeMap;
use std::io::{self, Read};
use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use sluice_core::{Entry, Error, Reader, Result, SourceText, Span};

use crate::input::read_some;
use crate::{IoInput, JsonOptions, JsonReader, SliceInput};

/// How [`ingest_blocks`] and [`ingest_records`] run.
///
/// With `skip_errors`, bad records are collected in the summary with their place, and the
/// run goes on:
///
/// ```
/// use sluice_core::Reader;
/// use sluice_json::{codes, JsonOptions};
/// use sluice_json::parallel::{ParallelOptions, ingest_records};
/// let input = "1\n2\n03\n// 5\n6\n";
/// let options = ParallelOptions {
///     skip_errors: true,
///     json: JsonOptions::relaxed(),
///     source_name: "numbers.ndjson".to_owned(),
///     ..ParallelOptions::default()
/// };
/// let mut sum = 0;
/// let summary = ingest_records(input.as_bytes(), &options, |r| r.read_u32(), |n| {
///     sum += n;
///     Ok(())
/// })?;
/// assert_eq!((sum, summary.records, summary.bytes), (9, 3, input.len() as u64));
/// let bad = &summary.errors[0];
/// assert_eq!((bad.record.line, bad.record.offset), (3, 4));
/// assert_eq!(bad.error.code(), codes::INVALID_NUMBER);
/// assert!(bad.error.render().contains("numbers.ndjson:3:1"));
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ParallelOptions {
    /// Worker threads; 0 means one per available core, and a value above
    /// [`MAX_JOBS`] counts as [`MAX_JOBS`]. When the system refuses to start some of them,
    /// the run goes on with those it started (see [`ingest_blocks`]).
    pub jobs: usize,
    /// Deliver blocks in input order (`true`, the default) or as soon as each is parsed.
    pub ordered: bool,
    /// Collect bad records in [`IngestSummary::errors`] and go on, instead of stopping at the
    /// first one (in input order). When `ordered`, a run that stops there has delivered
    /// every record before that one and none after it.
    pub skip_errors: bool,
    /// Bytes per block, at least 1 KiB (a smaller value counts as 1 KiB; a record longer
    /// than a block gets a block of its own, as long as the record: memory follows the
    /// longest line). A block's buffer grows with what the input fills, so a size beyond the
    /// input's costs no more memory than the input.
    pub block_size: usize,
    /// How each record is read (strict JSON by default).
    pub json: JsonOptions,
    /// The input's name in the diagnostics of bad records (`name:line:column`), such as its
    /// path; `ndjson record` by default.
    pub source_name: String,
}

impl Default for ParallelOptions {
    fn default() -> ParallelOptions {
        ParallelOptions {
            jobs: 0,
            ordered: true,
            skip_errors: false,
            block_size: 1 << 20,
            json: JsonOptions::strict(),
            source_name: "ndjson record".to_owned(),
        }
    }
}

impl ParallelOptions {
    fn worker_count(&self) -> usize {
        if self.jobs > 0 {
            self.jobs.min(MAX_JOBS)
        } else {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        }
    }
}

/// The most worker threads a run starts: [`ParallelOptions::jobs`] above it counts as it.
/// Far more threads than cores only add memory (each holds up to two blocks in flight).
pub const MAX_JOBS: usize = 1024;

/// Where a record stands in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordInfo {
    /// 1-based line number.
    pub line: u64,
    /// Absolute byte offset of the record's line: its first byte, before any whitespace
    /// that leads the value (where [`Record::offset`](crate::Record::offset) is the value's).
    /// The spans of the record's errors are counted from here.
    pub offset: u64,
}

/// A record that could not be read.
#[derive(Debug)]
pub struct RecordError {
    /// Where the record is.
    pub record: RecordInfo,
    /// What went wrong; its span is relative to the record, and its source is the record's
    /// line (so [`Error::render`] shows the file's line number).
    pub error: Error,
}

/// What a run read: all of its input when it succeeds, and when it fails (with
/// [`ingest_blocks_into`] or [`ingest_records_into`]) what it had delivered before, and where
/// to resume.
///
/// It is filled as the run goes, block by block in input order: a block's records are
/// counted once `deliver` has taken them, and `bytes` and `errors` then move past the block.
/// So at any time, with [`ParallelOptions::ordered`], `bytes` is the end of the input's start
/// that the run is done with: every record on its lines was delivered (and counted in
/// `records`), every bad record on them is in `errors`, and nothing after it was delivered
/// or collected. A run started again at that offset neither repeats nor skips a record.
///
/// Without `ordered`, `bytes` and `errors` still stand for such a start of the input, the
/// longest whose blocks were all delivered; but `records` counts every record delivered,
/// including those of blocks delivered after it (out of order), which a run resumed at
/// `bytes` delivers again.
#[derive(Debug, Default)]
pub struct IngestSummary {
    /// Records delivered (read successfully and taken by `deliver`).
    pub records: u64,
    /// Bytes of input the run is done with, from its start: the offset of the first line
    /// whose record was not delivered, or that was not read whole (the input's length once
    /// the run succeeds).
    pub bytes: u64,
    /// Bad records before [`bytes`](IngestSummary::bytes), in input order (only with
    /// [`ParallelOptions::skip_errors`]).
    pub errors: Vec<RecordError>,
}

/// One block of whole lines, or the line an I/O error cut short.
struct Block {
    sequence: u64,
    offset: u64,
    first_line: u64,
    bytes: Vec<u8>,
    /// The block is the start of a line that the input broke in: see [`read_cut_line`].
    cut: bool,
}

/// What a worker hands back for one block.
struct Parsed<A> {
    /// The block parsed, kept until it is delivered: a `deliver` that fails partway through
    /// it is resumed from a line found in it (see [`nth_record_line`]).
    block: Block,
    accumulator: A,
    records: u64,
    errors: Vec<RecordError>,
}

/// A `deliver` that failed, and how far it went: `taken` records of its block were handed
/// over before the one it failed at, or (`None`) none of the block was taken.
struct Refusal {
    taken: Option<u64>,
    error: Error,
}

/// A parsed block, or the payload of a panic while parsing it.
type Outcome<A> = std::thread::Result<Parsed<A>>;

/// Reads NDJSON from `input` in parallel: `record` is called on a worker thread for each
/// record with that block's accumulator (made by `new_accumulator`), and `deliver` on the
/// calling thread with each finished block's accumulator.
///
/// `record` must read the record's whole value: what it leaves unread makes the record bad
/// ([`TRAILING_TOKEN`](crate::codes::TRAILING_TOKEN)). An error it returns makes the record
/// bad too, reported as any bad record: collected with its [`RecordInfo`] under
/// [`ParallelOptions::skip_errors`], else the run's error (with the record's line as its
/// source). The rest of the line is checked once `record` returns, so a line that goes on
/// with a second value is a bad record although `record` has read its first: call
/// [`JsonReader::finish`] in `record` before keeping what it read, as [`ingest_records`]
/// does.
///
/// ```
/// use sluice_core::Reader;
/// use sluice_json::parallel::{ParallelOptions, ingest_blocks};
/// let input = "{\"n\": 1}\n{\"n\": 2}\n\n{\"n\": 3}\n";
/// let mut total = 0u64;
/// let summary = ingest_blocks(
///     input.as_bytes(),
///     &ParallelOptions { jobs: 2, ..ParallelOptions::default() },
///     || 0u64,
///     |sum, reader, _| {
///         reader.read_map_root()?;
///         reader.read_name()?;
///         *sum += reader.read_u64()?;
///         reader.read_map_end()
///     },
///     |sum| {
///         total += sum;
///         Ok(())
///     },
/// )?;
/// assert_eq!((total, summary.records), (6, 3));
/// # Ok::<(), sluice_core::Error>(())
/// ```
///
/// Of the [`ParallelOptions::jobs`] workers asked for, those the system refuses to start (a
/// limit on threads or memory) are done without: the run reads with the others.
///
/// # Errors
/// An I/O error, an error returned by `deliver`, or (unless errors are skipped) the first bad
/// record in input order. The I/O error comes after the records of the whole lines read
/// before it; it has the stream's own [`io::Error`] as its
/// [`source`](std::error::Error::source), and an empty span at the absolute offset in the
/// input where the read that failed would have put its bytes (not counted from a record's
/// line, as a bad record's span is: it belongs to none). The line the stream broke in is no
/// record, and is not handed to `record`; but when the bytes of it that arrived already show
/// an error, read as [`NdjsonReader`](crate::NdjsonReader) reads them from the broken stream
/// (a bad token well before the break), that error comes first, as for it: the run's error
/// unless errors are skipped. [`core/Io`](sluice_core::codes::IO) with the system's error when
/// not one worker thread could be started. A run that fails returns no summary: to learn
/// what it delivered before the error, the bad records it collected under
/// [`ParallelOptions::skip_errors`], and where to resume, run [`ingest_blocks_into`].
///
/// # Panics
/// A panic in `new_accumulator` or `record` stops the run: no more input is read, and it is
/// raised again on the calling thread (with its payload) once the workers are done. A panic
/// in `deliver`, on the calling thread, stops the reading too, and goes on once the workers
/// are done.
pub fn ingest_blocks<R, A, N, F, D>(
    input: R,
    options: &ParallelOptions,
    new_accumulator: N,
    record: F,
    deliver: D,
) -> Result<IngestSummary>
where
    R: Read,
    A: Send,
    N: Fn() -> A + Sync,
    F: Fn(&mut A, &mut JsonReader<SliceInput<'_>>, RecordInfo) -> Result<()> + Sync,
    D: FnMut(A) -> Result<()>,
{
    let mut summary = IngestSummary::default();
    ingest_blocks_into(
        input,
        options,
        &mut summary,
        new_accumulator,
        record,
        deliver,
    )?;
    Ok(summary)
}

/// [`ingest_blocks`], filling `summary` as the run goes, so that a run that fails still
/// tells what it delivered before and where to resume (see [`IngestSummary`]).
///
/// `summary` is emptied first. When the run fails, it holds the blocks delivered before
/// the failure: a block whose `deliver` failed is not counted (`bytes` is then that block's
/// first byte), and when a bad record stops the run, `bytes` is that record's line. Over a
/// stream that breaks, `bytes` is the start of the line it broke in: the records of the
/// whole lines before are all delivered, and that line is not in the summary (not even its
/// error when its bytes already showed one; a run resumed there reads it again, whole).
///
/// ```
/// use std::io::{self, Read};
/// use sluice_core::{Reader, Result};
/// use sluice_json::parallel::{IngestSummary, ParallelOptions, RecordInfo, ingest_blocks_into};
/// use sluice_json::{JsonReader, SliceInput};
///
/// /// A connection that drops after the bytes it was given.
/// struct Dropped<'a>(&'a [u8]);
/// impl Read for Dropped<'_> {
///     fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
///         if self.0.is_empty() {
///             return Err(io::ErrorKind::ConnectionReset.into());
///         }
///         self.0.read(buffer)
///     }
/// }
///
/// fn add(sum: &mut u64, reader: &mut JsonReader<SliceInput<'_>>, _: RecordInfo) -> Result<()> {
///     *sum += reader.read_u64()?;
///     Ok(())
/// }
///
/// let input = b"1\n2\n3\n4\n";
/// let options = ParallelOptions { jobs: 2, ..ParallelOptions::default() };
/// let mut total = 0;
/// let mut summary = IngestSummary::default();
/// // The connection drops in the middle of the third line.
/// let err = ingest_blocks_into(Dropped(&input[..5]), &options, &mut summary, || 0, add, |sum| {
///     total += sum;
///     Ok(())
/// })
/// .unwrap_err();
/// assert_eq!(err.io_error().map(io::Error::kind), Some(io::ErrorKind::ConnectionReset));
/// // Two records were delivered, and the third line starts at byte 4.
/// assert_eq!((total, summary.records, summary.bytes), (3, 2, 4));
///
/// // Resume from there (a file would seek, a download ask for the range).
/// let rest = &input[summary.bytes as usize..];
/// let mut rest_summary = IngestSummary::default();
/// ingest_blocks_into(rest, &options, &mut rest_summary, || 0, add, |sum| {
///     total += sum;
///     Ok(())
/// })?;
/// assert_eq!((total, summary.records + rest_summary.records), (10, 4));
/// # Ok::<(), sluice_core::Error>(())
/// ```
///
/// With [`ParallelOptions::ordered`] off, blocks are delivered as they are ready, so when
/// the run fails some records after `bytes` may have been delivered: they are counted in
/// `records` (which counts what `deliver` took), and `bytes` and `errors` stop at the first
/// block not delivered.
///
/// # Errors
/// As [`ingest_blocks`].
///
/// # Panics
/// As [`ingest_blocks`]; `summary` then holds the blocks delivered before the panic.
pub fn ingest_blocks_into<R, A, N, F, D>(
    input: R,
    options: &ParallelOptions,
    summary: &mut IngestSummary,
    new_accumulator: N,
    record: F,
    mut deliver: D,
) -> Result<()>
where
    R: Read,
    A: Send,
    N: Fn() -> A + Sync,
    F: Fn(&mut A, &mut JsonReader<SliceInput<'_>>, RecordInfo) -> Result<()> + Sync,
    D: FnMut(A) -> Result<()>,
{
    run(
        input,
        options,
        summary,
        new_accumulator,
        record,
        |accumulator| deliver(accumulator).map_err(|error| Refusal { taken: None, error }),
    )
}

/// The run of [`ingest_blocks_into`] and [`ingest_records_into`], whose `deliver` says how
/// far it went when it fails.
fn run<R, A, N, F, D>(
    input: R,
    options: &ParallelOptions,
    summary: &mut IngestSummary,
    new_accumulator: N,
    record: F,
    mut deliver: D,
) -> Result<()>
where
    R: Read,
    A: Send,
    N: Fn() -> A + Sync,
    F: Fn(&mut A, &mut JsonReader<SliceInput<'_>>, RecordInfo) -> Result<()> + Sync,
    D: FnMut(A) -> std::result::Result<(), Refusal>,
{
    *summary = IngestSummary::default();
    let jobs = options.worker_count();
    let (work_tx, work_rx) = mpsc::sync_channel::<Block>(jobs * 2);
    let work_rx = Arc::new(Mutex::new(work_rx));
    let (done_tx, done_rx) = mpsc::channel::<Outcome<A>>();

    std::thread::scope(|scope| {
        let mut started = 0usize;
        let mut refused = None;
        for worker in 0..jobs {
            let work_rx = Arc::clone(&work_rx);
            let done_tx = done_tx.clone();
            let (new_accumulator, record) = (&new_accumulator, &record);
            // `scope.spawn` panics when the system cannot start a thread (a process or
            // memory limit): the run goes on with the workers it has, and fails only with
            // none.
            let spawned = spawn_worker(worker, scope, move || {
                loop {
                    // Hold the lock only to take a block, not while parsing it.
                    let next = match work_rx.lock() {
                        Ok(guard) => guard.recv(),
                        Err(_) => return,
                    };
                    let Ok(block) = next else { return };
                    // A panic in the caller's closures is caught and handed over, so that
                    // the calling thread stops reading at once and raises it as it was
                    // (the block's accumulator is dropped, never used again).
                    let parsed = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        parse_block(block, options, new_accumulator, record)
                    }));
                    if done_tx.send(parsed).is_err() {
                        return;
                    }
                }
            });
            match spawned {
                Ok(()) => started += 1,
                Err(err) => {
                    refused = Some(err);
                    break;
                }
            }
        }
        drop(done_tx);
        if started == 0 {
            let err = refused.unwrap_or_else(|| io::Error::other("no worker thread"));
            return Err(Error::io(err).with_note("no worker thread could be started"));
        }

        let mut collector = Collector {
            options,
            next_sequence: 0,
            waiting: BTreeMap::new(),
            done_through: 0,
            done_ahead: BTreeMap::new(),
            failure: None,
            failed_block: None,
            panic: None,
        };
        // Blocks read and not yet delivered (or dropped): parsing, queued, or done and
        // waiting for an earlier block. Reading waits while `2 × jobs` are in flight, so a
        // slow block holds back the input, not only the queue.
        let limit = started.saturating_mul(2);
        let mut in_flight = 0usize;
        let read_result = split_blocks(input, options.block_size, |block| {
            while in_flight >= limit && !collector.stopped() {
                match done_rx.recv() {
                    Ok(parsed) => in_flight -= collector.accept(parsed, summary, &mut deliver),
                    Err(_) => return Err(Error::custom("NDJSON workers stopped")),
                }
            }
            // Stop reading once a record has failed and errors are not skipped.
            if collector.stopped() {
                return Err(Error::custom("stopped"));
            }
            // The queue holds fewer blocks than are in flight: there is room for this one.
            if work_tx.send(block).is_err() {
                return Err(Error::custom("NDJSON workers stopped"));
            }
            in_flight += 1;
            while let Ok(parsed) = done_rx.try_recv() {
                in_flight -= collector.accept(parsed, summary, &mut deliver);
            }
            if collector.stopped() {
                return Err(Error::custom("stopped"));
            }
            Ok(())
        });
        drop(work_tx);
        for parsed in done_rx {
            collector.accept(parsed, summary, &mut deliver);
        }
        if let Some(payload) = collector.panic.take() {
            // Raised after the workers are done, as the panic of the run.
            std::panic::resume_unwind(payload);
        }
        if let Some(failure) = collector.failure.take() {
            return Err(failure);
        }
        read_result
    })
}

/// Starts worker number `worker` (from 0) of a run in `scope`; the system's error when it
/// cannot.
fn spawn_worker<'scope>(
    worker: usize,
    scope: &'scope std::thread::Scope<'scope, '_>,
    work: impl FnOnce() + Send + 'scope,
) -> io::Result<()> {
    #[cfg(test)]
    if tests::SPAWN_REFUSED_FROM.with(std::cell::Cell::get) <= worker {
        return Err(io::Error::other("thread refused by the test"));
    }
    std::thread::Builder::new()
        .name(format!("sluice-ndjson-{worker}"))
        .spawn_scoped(scope, work)
        .map(drop)
}

/// Puts finished blocks in order (when asked), hands them to `deliver`, and keeps the
/// summary of what was delivered.
struct Collector<'o, A> {
    options: &'o ParallelOptions,
    /// With `ordered`, the next block to deliver.
    next_sequence: u64,
    waiting: BTreeMap<u64, Parsed<A>>,
    /// The first block not in the summary: those before it were all delivered.
    done_through: u64,
    /// Out of order, the blocks delivered after `done_through`, until it reaches them.
    done_ahead: BTreeMap<u64, Done>,
    failure: Option<Error>,
    /// The block whose bad record is `failure` (`None` if `deliver` failed).
    failed_block: Option<u64>,
    /// The first panic of a worker, raised once the workers are done.
    panic: Option<Box<dyn Any + Send>>,
}

/// What a delivered block adds to the summary, besides its records.
struct Done {
    /// Where what was done with ends: the block's end, or the line the run stopped at.
    end: u64,
    /// The bad records collected before `end`.
    errors: Vec<RecordError>,
    /// The whole block was done with: the summary may go on to the next one.
    whole: bool,
}

impl<A> Collector<'_, A> {
    /// Whether the run stops: a record failed (errors not skipped), `deliver` failed, or a
    /// callback panicked.
    fn stopped(&self) -> bool {
        self.failure.is_some() || self.panic.is_some()
    }

    /// Takes a finished block; returns how many blocks are done with (delivered, or dropped
    /// once the run stopped): none while it waits for an earlier block, or several at once
    /// when it was the one they waited for.
    fn accept(
        &mut self,
        parsed: Outcome<A>,
        summary: &mut IngestSummary,
        deliver: &mut impl FnMut(A) -> std::result::Result<(), Refusal>,
    ) -> usize {
        if self.panic.is_some() {
            return 1;
        }
        let parsed = match parsed {
            Ok(parsed) => parsed,
            Err(payload) => {
                self.panic = Some(payload);
                return 1;
            }
        };
        if !self.options.ordered {
            self.finish_block(parsed, summary, deliver);
            return 1;
        }
        self.waiting.insert(parsed.block.sequence, parsed);
        let mut done = 0;
        while let Some(parsed) = self.waiting.remove(&self.next_sequence) {
            self.next_sequence += 1;
            self.finish_block(parsed, summary, deliver);
            done += 1;
        }
        done
    }

    /// Stops the run at `bad`, the first bad record of block `sequence`.
    fn fail_at_record(&mut self, sequence: u64, bad: RecordError) {
        self.failed_block = Some(sequence);
        self.failure = Some(bad.error);
    }

    fn finish_block(
        &mut self,
        mut parsed: Parsed<A>,
        summary: &mut IngestSummary,
        deliver: &mut impl FnMut(A) -> std::result::Result<(), Refusal>,
    ) {
        let sequence = parsed.block.sequence;
        if self.failure.is_some() {
            // Out of order, a block read before the failed one may come later with a bad
            // record of its own: that one comes first in the input, so it is the run's error.
            let earlier = self.failed_block.is_some_and(|failed| sequence < failed);
            if earlier && !self.options.skip_errors && !parsed.errors.is_empty() {
                self.fail_at_record(sequence, parsed.errors.remove(0));
            }
            return;
        }
        if parsed.block.cut {
            // The line the input broke in: its error comes before the I/O error, which ends
            // the run anyway. It is not in the summary: a run resumed at its start reads it
            // again, whole.
            if !self.options.skip_errors && !parsed.errors.is_empty() {
                self.fail_at_record(sequence, parsed.errors.remove(0));
            }
            return;
        }
        // Without skipping, the block's records before its bad one are good: they are
        // delivered as those of the blocks before, so what a run delivers does not depend on
        // the block size.
        let bad = if self.options.skip_errors || parsed.errors.is_empty() {
            None
        } else {
            Some(parsed.errors.remove(0))
        };
        let block_end = parsed.block.offset + parsed.block.bytes.len() as u64;
        let all_end = bad.as_ref().map_or(block_end, |bad| bad.record.offset);
        let (taken, end) = match deliver(parsed.accumulator) {
            Ok(()) => (parsed.records, all_end),
            Err(refusal) => {
                self.failure = Some(refusal.error);
                match refusal.taken {
                    None => (0, parsed.block.offset),
                    Some(taken) => {
                        let line =
                            nth_record_line(&parsed.block, &parsed.errors, taken, self.options);
                        (taken, line.map_or(all_end, |line| line.min(all_end)))
                    }
                }
            }
        };
        let whole = self.failure.is_none() && bad.is_none();
        if self.failure.is_none()
            && let Some(bad) = bad
        {
            self.fail_at_record(sequence, bad);
        }
        summary.records += taken;
        if !whole {
            parsed.errors.retain(|error| error.record.offset < end);
        }
        let done = Done {
            end,
            errors: parsed.errors,
            whole,
        };
        self.settle(sequence, done, summary);
    }

    /// Adds the block `sequence`, delivered, to the summary, once every block before it is
    /// in it (they are, unless out of order).
    fn settle(&mut self, sequence: u64, mut done: Done, summary: &mut IngestSummary) {
        if sequence != self.done_through {
            self.done_ahead.insert(sequence, done);
            return;
        }
        loop {
            summary.bytes = done.end;
            summary.errors.append(&mut done.errors);
            if !done.whole {
                // The run stopped inside this block: nothing after it is done with.
                self.done_ahead.clear();
                return;
            }
            self.done_through += 1;
            match self.done_ahead.remove(&self.done_through) {
                Some(next) => done = next,
                None => return,
            }
        }
    }
}

/// The offset of the line of record number `n` (from 0) of those `block` was read into
/// successfully, found by reading its lines again (their first tokens only): those of
/// `errors` are bad, and those without a value hold no record. `None` when it has fewer.
/// Done only when a `deliver` fails partway through a block, so a block's reading keeps
/// no record of its lines.
fn nth_record_line(
    block: &Block,
    errors: &[RecordError],
    n: u64,
    options: &ParallelOptions,
) -> Option<u64> {
    let bytes = &block.bytes;
    let mut bad = errors.iter().map(|error| error.record.offset).peekable();
    let mut good = 0;
    let mut start = 0;
    while start < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let line = &bytes[start..bytes.len().min(end + 1)];
        let offset = block.offset + start as u64;
        while bad.next_if(|&at| at < offset).is_some() {}
        let is_bad = bad.next_if_eq(&offset).is_some();
        let holds_value = !matches!(
            line_reader(line, &options.json, offset == 0).peek(),
            Ok(Entry::Ended) | Err(_)
        );
        if !is_bad && holds_value {
            if good == n {
                return Some(offset);
            }
            good += 1;
        }
        start = end + 1;
    }
    None
}

fn parse_block<A, N, F>(
    block: Block,
    options: &ParallelOptions,
    new_accumulator: &N,
    record: &F,
) -> Parsed<A>
where
    N: Fn() -> A,
    F: Fn(&mut A, &mut JsonReader<SliceInput<'_>>, RecordInfo) -> Result<()>,
{
    let mut accumulator = new_accumulator();
    let place = RecordInfo {
        line: block.first_line,
        offset: block.offset,
    };
    let (records, errors) = if block.cut {
        (0, read_cut_line(&block.bytes, place, options))
    } else {
        read_lines(&block.bytes, place, options, |reader, info| {
            record(&mut accumulator, reader, info)
        })
    };
    Parsed {
        block,
        accumulator,
        records,
        errors,
    }
}

/// Reads the records of `bytes`, whole lines whose first is at `place`, each line alone
/// with `record`: the records read, and the bad ones (only the first unless errors are
/// skipped). The work of one block, without the threads (the fuzz harness compares it
/// with [`NdjsonReader`](crate::NdjsonReader)).
pub(crate) fn read_lines(
    bytes: &[u8],
    place: RecordInfo,
    options: &ParallelOptions,
    mut record: impl FnMut(&mut JsonReader<SliceInput<'_>>, RecordInfo) -> Result<()>,
) -> (u64, Vec<RecordError>) {
    let mut records = 0;
    let mut errors = Vec::new();
    let mut line_number = place.line;
    let mut start = 0;
    while start < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        // The line with its line feed: a string or comment the line ends inside meets it
        // here as in the whole input, and fails there the same way.
        let line = &bytes[start..bytes.len().min(end + 1)];
        let info = RecordInfo {
            line: line_number,
            offset: place.offset + start as u64,
        };
        let mut reader = line_reader(line, &options.json, info.offset == 0);
        // A line without a value (blank, or only comments where they are allowed) holds
        // no record, as for `NdjsonReader`; a bad first token is the line's error.
        let outcome = match reader.peek() {
            Ok(Entry::Ended) => None,
            Ok(_) => Some(record(&mut reader, info).and_then(|()| reader.finish())),
            Err(error) => Some(Err(error)),
        };
        match outcome {
            None => {}
            Some(Ok(())) => records += 1,
            Some(Err(error)) => {
                errors.push(record_error(error, line, info, options));
                if !options.skip_errors {
                    break;
                }
            }
        }
        line_number += 1;
        start = end + 1;
    }
    (records, errors)
}

/// The bad record on line `info` (`line`, its bytes) that failed with `error`.
fn record_error(
    error: Error,
    line: &[u8],
    info: RecordInfo,
    options: &ParallelOptions,
) -> RecordError {
    let source = SourceText {
        name: options.source_name.clone(),
        text: Arc::from(line),
        line_offset: usize::try_from(info.line - 1).unwrap_or(0),
    };
    // The note names the record, as on each error of `NdjsonReader`: the same whether the
    // error is collected or stops the run.
    let error = error.with_shared_source(source).with_note(format!(
        "in the record on line {} (byte {})",
        info.line, info.offset
    ));
    RecordError {
        record: info,
        error,
    }
}

/// The error of the line at `place` that the input broke in, of which `bytes` arrived, when
/// those bytes already show one: the line is read as `NdjsonReader` reads it from the broken
/// stream, which reports such an error before it reads on to the break. Otherwise (the
/// line's value or its end were still to come) the I/O error stands for the line, and
/// nothing is reported here. The line is not handed to the caller's callback: it is no
/// record, whatever its bytes hold.
fn read_cut_line(bytes: &[u8], place: RecordInfo, options: &ParallelOptions) -> Vec<RecordError> {
    // The break at the end, as the stream gave it: a reader of the slice alone would take
    // the end for the end of the input, and a token the break cuts (a byte order mark, a
    // number, a literal) for a whole or a bad one.
    let stream = bytes.chain(BrokenStream);
    let mut reader = JsonReader::new(IoInput::new(stream), options.json.clone());
    reader.set_record_mode();
    if place.offset != 0 {
        reader.refuse_byte_order_mark();
    }
    let outcome = match reader.peek() {
        Ok(Entry::Ended) => Ok(()),
        // Token by token, as a record is read, not skipped: the reader's skip scans ahead
        // of the tokens, and would meet the break before an error it passes over.
        Ok(_) => sluice_core::pipe_value(&mut reader, &mut sluice_core::ValueWriter::new())
            .and_then(|()| reader.finish()),
        Err(error) => Err(error),
    };
    match outcome {
        Err(error) if error.code() != sluice_core::codes::IO => {
            vec![record_error(error, bytes, place, options)]
        }
        _ => Vec::new(),
    }
}

/// A stream that fails at once, as the input did after the bytes before it.
struct BrokenStream;

impl Read for BrokenStream {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(io::Error::other("the input broke here"))
    }
}

/// The reader of one line of the input (`first`: the line that opens it), which reads the
/// line as [`NdjsonReader`](crate::NdjsonReader) reads it in the whole input: in record mode
/// (whitespace, and comments where allowed, around one value; a second value on the line is
/// an error), and with a byte order mark skipped only at the start of the input.
fn line_reader<'a>(
    line: &'a [u8],
    options: &JsonOptions,
    first: bool,
) -> JsonReader<SliceInput<'a>> {
    let mut reader = JsonReader::from_slice(line).with_options(options.clone());
    reader.set_record_mode();
    if !first {
        reader.refuse_byte_order_mark();
    }
    reader
}

/// Cuts `input` into blocks of whole lines of about `block_size` bytes.
fn split_blocks<R: Read>(
    mut input: R,
    block_size: usize,
    mut emit: impl FnMut(Block) -> Result<()>,
) -> Result<()> {
    let block_size = block_size.max(1024);
    let mut carry: Vec<u8> = Vec::new();
    let mut sequence = 0;
    let mut offset = 0u64;
    let mut line = 1u64;
    let mut at_end = false;
    while !at_end {
        let mut bytes = std::mem::take(&mut carry);
        // Fill until the new bytes hold a line break or the input ends (the carried
        // remainder never holds one).
        let mut failure = None;
        loop {
            let filled = bytes.len();
            let (got, error) = read_appending(&mut input, &mut bytes, block_size);
            if let Some(error) = error {
                // The stream broke after every byte read so far: its span is there, absolute
                // (the error belongs to no record).
                let at = usize::try_from(offset)
                    .map_or(usize::MAX, |offset| offset.saturating_add(bytes.len()));
                failure = Some(Error::io(error).with_span(Span::at(at)));
                break;
            }
            if got < block_size {
                at_end = true;
                break;
            }
            if memchr::memrchr(b'\n', &bytes[filled..]).is_some() {
                break;
            }
        }
        if !at_end {
            // Whole lines only; before an I/O error, those read so far.
            let keep = memchr::memrchr(b'\n', &bytes).map_or(0, |last| last + 1);
            carry = bytes.split_off(keep);
        }
        let mut blocks = [Some(bytes), None];
        if failure.is_some() {
            // The line the input broke in may already show an error of its own, which comes
            // before the break, as for `NdjsonReader`: a block of its own, never delivered.
            blocks[1] = Some(std::mem::take(&mut carry));
        }
        for (cut, bytes) in blocks.into_iter().enumerate() {
            let Some(bytes) = bytes.filter(|bytes| !bytes.is_empty()) else {
                continue;
            };
            let lines = memchr::memchr_iter(b'\n', &bytes).count() as u64;
            let len = bytes.len() as u64;
            emit(Block {
                sequence,
                offset,
                first_line: line,
                bytes,
                cut: cut == 1,
            })?;
            sequence += 1;
            offset += len;
            line += lines;
        }
        // The lines read before an I/O error are records as any others (as for
        // `NdjsonReader`, which hands out a record once its line feed has arrived): the
        // error comes after them.
        if let Some(error) = failure {
            return Err(error);
        }
    }
    Ok(())
}

/// The most a block's buffer grows by at once, so that what it allocates follows what the
/// input holds, not the block size asked for (a huge `block_size` over a short input).
const READ_STEP: usize = 1 << 20;

/// Appends up to `want` bytes of `input` to `bytes`, growing it in steps of [`READ_STEP`]
/// at most: how many were appended (fewer when the input ends), and the I/O error that
/// stopped the reading early, if any (the bytes before it are appended all the same).
fn read_appending<R: Read>(
    input: &mut R,
    bytes: &mut Vec<u8>,
    want: usize,
) -> (usize, Option<io::Error>) {
    let mut got = 0;
    while got < want {
        let filled = bytes.len();
        let step = (want - got).min(READ_STEP);
        bytes.resize(filled + step, 0);
        let (read, error) = read_full(input, &mut bytes[filled..]);
        bytes.truncate(filled + read);
        got += read;
        if error.is_some() || read < step {
            return (got, error);
        }
    }
    (got, None)
}

/// Reads until `buffer` is full or the input ends: the bytes read, and the I/O error that
/// stopped the reading early, if any (the bytes before it are read all the same).
fn read_full<R: Read>(input: &mut R, buffer: &mut [u8]) -> (usize, Option<io::Error>) {
    let mut filled = 0;
    while filled < buffer.len() {
        match read_some(input, &mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) => return (filled, Some(e)),
        }
    }
    (filled, None)
}

/// Reads every record with `parse` in parallel and hands the results to `sink` on the
/// calling thread (in input order unless [`ParallelOptions::ordered`] is off).
///
/// ```
/// use sluice_core::Reader;
/// use sluice_json::parallel::{ParallelOptions, ingest_records};
/// let input = "1\n2\n3\n";
/// let mut seen = Vec::new();
/// ingest_records(input.as_bytes(), &ParallelOptions::default(), |r| r.read_u8(), |n| {
///     seen.push(n);
///     Ok(())
/// })?;
/// assert_eq!(seen, [1, 2, 3]);
/// # Ok::<(), sluice_core::Error>(())
/// ```
///
/// # Errors
/// As [`ingest_blocks`].
pub fn ingest_records<R, T, P, S>(
    input: R,
    options: &ParallelOptions,
    parse: P,
    sink: S,
) -> Result<IngestSummary>
where
    R: Read,
    T: Send,
    P: Fn(&mut JsonReader<SliceInput<'_>>) -> Result<T> + Sync,
    S: FnMut(T) -> Result<()>,
{
    let mut summary = IngestSummary::default();
    ingest_records_into(input, options, &mut summary, parse, sink)?;
    Ok(summary)
}

/// [`ingest_records`], filling `summary` as the run goes, so that a run that fails still
/// tells what it delivered before and where to resume: as [`ingest_blocks_into`], with a
/// record as the unit of delivery. When `sink` fails, the records it took before are
/// counted, and `bytes` is the line of the record it failed at (not counted: a run resumed
/// there hands it to `sink` again).
///
/// ```
/// use std::io::{self, Read};
/// use sluice_core::Reader;
/// use sluice_json::codes;
/// use sluice_json::parallel::{IngestSummary, ParallelOptions, ingest_records_into};
///
/// /// A stream that fails at once.
/// struct Broken;
/// impl Read for Broken {
///     fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
///         Err(io::ErrorKind::ConnectionReset.into())
///     }
/// }
///
/// let input = b"1\n2\nx\n3\n4\n5\n";
/// let options = ParallelOptions { skip_errors: true, ..ParallelOptions::default() };
/// // The stream breaks in the middle of the fifth line.
/// let stream = input[..9].chain(Broken);
/// let mut seen = Vec::new();
/// let mut summary = IngestSummary::default();
/// let err = ingest_records_into(stream, &options, &mut summary, |r| r.read_u8(), |n| {
///     seen.push(n);
///     Ok(())
/// })
/// .unwrap_err();
/// assert_eq!(err.code(), sluice_core::codes::IO);
/// // Before the break: three records delivered and the bad line 3 collected; the fifth
/// // line, at byte 8, is where to resume.
/// assert_eq!((seen.as_slice(), summary.records, summary.bytes), (&[1, 2, 3][..], 3, 8));
/// assert_eq!(summary.errors[0].record.line, 3);
/// assert_eq!(summary.errors[0].error.code(), codes::UNEXPECTED_TOKEN);
/// ```
///
/// # Errors
/// As [`ingest_blocks`].
pub fn ingest_records_into<R, T, P, S>(
    input: R,
    options: &ParallelOptions,
    summary: &mut IngestSummary,
    parse: P,
    mut sink: S,
) -> Result<()>
where
    R: Read,
    T: Send,
    P: Fn(&mut JsonReader<SliceInput<'_>>) -> Result<T> + Sync,
    S: FnMut(T) -> Result<()>,
{
    run(
        input,
        options,
        summary,
        Vec::new,
        |records: &mut Vec<T>, reader, _| {
            let value = parse(reader)?;
            // A line that goes on after the value (a second value) is a bad record: check
            // it before keeping the value, or it would be both delivered and refused.
            reader.finish()?;
            records.push(value);
            Ok(())
        },
        |records| {
            for (taken, record) in records.into_iter().enumerate() {
                if let Err(error) = sink(record) {
                    let taken = Some(taken as u64);
                    return Err(Refusal { taken, error });
                }
            }
            Ok(())
        },
    )
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use sluice_core::{Reader, codes};

    use super::*;

    thread_local! {
        /// Workers from this number on are refused, as a system out of threads would.
        pub(super) static SPAWN_REFUSED_FROM: Cell<usize> = const { Cell::new(usize::MAX) };
    }

    fn sum_of_lines(input: &str, options: &ParallelOptions) -> Result<(u64, IngestSummary)> {
        let mut total = 0;
        let summary = ingest_blocks(
            input.as_bytes(),
            options,
            || 0u64,
            |sum, reader, _| {
                *sum += reader.read_u64()?;
                Ok(())
            },
            |sum| {
                total += sum;
                Ok(())
            },
        )?;
        Ok((total, summary))
    }

    fn many_lines() -> String {
        // Blocks of 1 KiB: several blocks for the workers to share.
        (1..=2000).map(|n| format!("{n}\n")).collect()
    }

    #[test]
    fn a_run_goes_on_with_the_workers_the_system_let_it_start() {
        let options = ParallelOptions {
            jobs: 4,
            block_size: 1024,
            ..ParallelOptions::default()
        };
        SPAWN_REFUSED_FROM.with(|from| from.set(1));
        let result = sum_of_lines(&many_lines(), &options);
        SPAWN_REFUSED_FROM.with(|from| from.set(usize::MAX));
        let (total, summary) = result.expect("one worker reads it all");
        assert_eq!((total, summary.records), (2000 * 2001 / 2, 2000));
    }

    #[test]
    fn a_run_without_any_worker_is_an_io_error_not_a_panic() {
        SPAWN_REFUSED_FROM.with(|from| from.set(0));
        let result = sum_of_lines("1\n2\n", &ParallelOptions::default());
        SPAWN_REFUSED_FROM.with(|from| from.set(usize::MAX));
        let err = result.expect_err("no worker");
        assert_eq!(err.code(), codes::IO);
        assert_eq!(
            err.io_error().map(io::Error::kind),
            Some(io::ErrorKind::Other)
        );
    }

    #[test]
    fn more_jobs_than_the_limit_count_as_the_limit() {
        let options = ParallelOptions {
            jobs: usize::MAX,
            block_size: 1024,
            ..ParallelOptions::default()
        };
        assert_eq!(options.worker_count(), MAX_JOBS);
        // Only a few started, to keep the test light: the run's queue and its limit of
        // blocks in flight are sized from the count, which must not overflow.
        SPAWN_REFUSED_FROM.with(|from| from.set(3));
        let result = sum_of_lines(&many_lines(), &options);
        SPAWN_REFUSED_FROM.with(|from| from.set(usize::MAX));
        assert_eq!(result.expect("three workers").0, 2000 * 2001 / 2);
    }
}
