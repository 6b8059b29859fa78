//! Opening the output: standard output, or a file (`-o`) that is replaced only when the
//! command succeeds.
//!
//! A file is written to a temporary file in its own directory and renamed over it by
//! [`Output::commit`]. Until then the old file is untouched, so `sluice fmt big.json -o big.json`
//! can stream `big.json` while writing it, and a failed run (invalid input, a full disk)
//! leaves the old file as it was: dropping an uncommitted output removes the temporary file.
//!
//! A signal that ends the process (Ctrl-C) runs no destructor: every temporary file is also
//! noted in [`LIVE_TEMPS`], and an interrupt handler, installed with the first temporary
//! file, removes them before the process exits with [`crate::EXIT_INTERRUPTED`].

use std::cell::RefCell;
use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, StdoutLock, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard, Once, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use sluice_core::Writer;
use sluice_json::{JsonWriter, NdjsonWriter};
use sluice_msgpack::MsgPackWriter;

use crate::Failure;

/// Bytes buffered before a write to the sink.
const BUFFER: usize = 1 << 16;
/// Standard output's name in messages.
pub(crate) const STDOUT: &str = "<stdout>";
/// The temporary files created and neither renamed nor removed yet. Creating, renaming and
/// removing one happen with the lock held, and so does the interrupt handler's cleanup, up
/// to the exit: a temporary file is either renamed into place or removed, never left over.
static LIVE_TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// [`LIVE_TEMPS`], locked. A panic while it was held cannot leave it inconsistent (each
/// change is one push or one removal), so a poisoned lock is used as it is.
fn live_temps() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE_TEMPS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Installs, once, the handler that removes the live temporary files on an interrupt and
/// exits. Best effort: if no handler can be installed, an interrupt ends the process as it
/// would without one.
fn remove_temps_on_interrupt() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            // Held until the exit, so that the main thread can neither create nor rename a
            // temporary file behind the cleanup.
            let mut live = live_temps();
            for temp in live.drain(..) {
                let _ = fs::remove_file(temp);
            }
            std::process::exit(i32::from(crate::EXIT_INTERRUPTED));
        });
    });
}

/// Where output goes; write to it, then [`commit`](Output::commit) it.
#[derive(Debug)]
pub(crate) struct Output {
    sink: Sink,
    /// Where the first write error is noted.
    watch: WriteWatch,
}

/// The first write error of an [`Output`], where the command still sees it once the writer
/// that owns the output has failed: the writer's error says only "I/O error", at the input
/// token being copied, so without this a full disk would read as a fault of the input.
#[derive(Debug, Clone)]
pub(crate) struct WriteWatch {
    /// The output's name for messages: the `-o` path, or `<stdout>`.
    name: Rc<str>,
    error: Rc<RefCell<Option<io::Error>>>,
}

impl WriteWatch {
    fn new(name: &str) -> WriteWatch {
        WriteWatch {
            name: Rc::from(name),
            error: Rc::default(),
        }
    }

    /// `failure`, unless a write to the output failed: then that failure, which names the
    /// output.
    pub(crate) fn blame(&self, failure: Failure) -> Failure {
        match self.error.borrow_mut().take() {
            Some(err) => write_failure(&self.name, &err),
            None => failure,
        }
    }

    /// Notes the first write error: the watch keeps the error itself (its OS error code, the
    /// error inside it), which the command reports, and the writer gets a copy of its kind
    /// and message, which the watch's error replaces in the report (an `io::Error` cannot be
    /// cloned).
    fn note<T>(&self, result: io::Result<T>) -> io::Result<T> {
        result.map_err(|err| {
            let mut first = self.error.borrow_mut();
            if first.is_some() {
                return err;
            }
            let copy = io::Error::new(err.kind(), err.to_string());
            *first = Some(err);
            copy
        })
    }
}

#[derive(Debug)]
enum Sink {
    /// Standard output.
    Stdout(BufWriter<StdoutLock<'static>>),
    /// Something other than a regular file (`/dev/null`, a FIFO): written in place, since
    /// renaming a file over it would replace the device rather than write to it.
    InPlace {
        /// The path as given, for messages.
        name: String,
        /// The opened file.
        file: BufWriter<File>,
    },
    /// A regular file, replaced on commit.
    Replace(Replacement),
}

/// A temporary file that is renamed over `target` on commit and removed if dropped before.
#[derive(Debug)]
struct Replacement {
    /// The path as given, for messages.
    name: String,
    /// The file to replace (a symbolic link resolved to the file it points to).
    target: PathBuf,
    /// The temporary file, in the directory of `target` so the rename cannot cross devices.
    temp: PathBuf,
    /// The open temporary file; `None` once committed.
    file: Option<BufWriter<File>>,
    /// Whether the rename happened (then there is no temporary file left to remove).
    committed: bool,
}

impl Output {
    /// Opens `path`, or standard output when it is `None` or `-`.
    pub(crate) fn open(path: Option<&Path>) -> Result<Output, Failure> {
        let (path, name) = match path.filter(|path| !crate::input::is_stdin(path)) {
            None => {
                let stdout = BufWriter::with_capacity(BUFFER, io::stdout().lock());
                return Ok(Output {
                    sink: Sink::Stdout(stdout),
                    watch: WriteWatch::new(STDOUT),
                });
            }
            // The name for messages; the file is written by its exact path.
            Some(path) => (path, crate::name::shown(path)),
        };
        let cannot = |e: io::Error| Failure::Usage(format!("cannot create {name}: {e}"));
        if is_descriptor_link(path) {
            // `/dev/stdout`, `/dev/fd/N`: a file descriptor already open, maybe on a file
            // opened for appending (`-o /dev/stdout >> log`). Replacing or truncating the
            // file it leads to would lose what it holds: write at its end instead.
            let file = OpenOptions::new().append(true).open(path).map_err(cannot)?;
            return Ok(Output::in_place_file(file, name));
        }
        let mut target = PathBuf::from(path);
        let mut permissions = None;
        // `metadata` follows symbolic links: this is about the file that gets written.
        match fs::metadata(&target) {
            Ok(meta) if meta.is_dir() => {
                return Err(Failure::Usage(format!(
                    "cannot create {name}: it is a directory"
                )));
            }
            Ok(meta) if !meta.is_file() => return Output::in_place(path, name),
            Ok(meta) => {
                // Writing over a file needs the right to write it, as when it was truncated
                // in place: opening it for writing (without truncating) checks exactly that.
                OpenOptions::new()
                    .write(true)
                    .open(&target)
                    .map_err(cannot)?;
                if is_symlink(&target) {
                    // Replace the file the link points to, and keep the link.
                    target = fs::canonicalize(&target).map_err(cannot)?;
                }
                permissions = Some(meta.permissions());
            }
            // A link to a file not created yet: writing through it creates that file.
            Err(e) if e.kind() == io::ErrorKind::NotFound && is_symlink(&target) => {
                return Output::in_place(path, name);
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(cannot(e)),
        }
        let (temp, file) =
            create_temp(&target).map_err(|e| cannot_create_temp(&name, &target, &e))?;
        // Built before anything else can fail, so that a failure removes the temporary file.
        let replacement = Replacement {
            name: name.clone(),
            target,
            temp,
            file: Some(BufWriter::with_capacity(BUFFER, file)),
            committed: false,
        };
        if let (Some(permissions), Some(file)) = (permissions, &replacement.file) {
            // The replaced file keeps its mode (an executable script stays executable).
            file.get_ref()
                .set_permissions(permissions)
                .map_err(cannot)?;
        }
        Ok(Output {
            sink: Sink::Replace(replacement),
            watch: WriteWatch::new(&name),
        })
    }

    /// Opens `path` to write it in place; `name` is how messages show it.
    fn in_place(path: &Path, name: String) -> Result<Output, Failure> {
        let file =
            File::create(path).map_err(|e| Failure::Usage(format!("cannot create {name}: {e}")))?;
        Ok(Output::in_place_file(file, name))
    }

    /// Writes to `file`, opened already, in place.
    fn in_place_file(file: File, name: String) -> Output {
        Output {
            watch: WriteWatch::new(&name),
            sink: Sink::InPlace {
                name,
                file: BufWriter::with_capacity(BUFFER, file),
            },
        }
    }

    /// Where this output's first write error will be noted.
    pub(crate) fn watch(&self) -> WriteWatch {
        self.watch.clone()
    }

    /// Flushes the output and, for a file, puts it in place of the old one.
    pub(crate) fn commit(self) -> Result<(), Failure> {
        match self.sink {
            Sink::Stdout(mut out) => out.flush().map_err(|e| write_failure(STDOUT, &e)),
            Sink::InPlace { name, mut file } => file.flush().map_err(|e| write_failure(&name, &e)),
            Sink::Replace(mut replacement) => replacement.commit(),
        }
    }

    fn writer(&mut self) -> io::Result<&mut dyn Write> {
        match &mut self.sink {
            Sink::Stdout(out) => Ok(out),
            Sink::InPlace { file, .. } => Ok(file),
            Sink::Replace(replacement) => match &mut replacement.file {
                Some(file) => Ok(file),
                None => Err(io::Error::other("the output was already committed")),
            },
        }
    }
}

/// A format writer over an [`Output`], which it hands back to be committed once everything
/// is written.
pub(crate) trait OutputWriter: Writer {
    /// The output written to.
    fn output(&self) -> &Output;
    /// The writer's `into_inner`: the output, or why the writer could not finish.
    fn into_output(self) -> sluice_core::Result<Output>;
}

macro_rules! output_writers {
    ($($writer:ident),*) => {$(
        impl OutputWriter for $writer<Output> {
            fn output(&self) -> &Output {
                self.get_ref()
            }
            fn into_output(self) -> sluice_core::Result<Output> {
                self.into_inner()
            }
        }
    )*};
}

output_writers!(JsonWriter, NdjsonWriter, MsgPackWriter);

/// Commits the output `writer` hands back, or reports why the writer could not finish;
/// `watch` is the output's.
pub(crate) fn commit(writer: impl OutputWriter, watch: &WriteWatch) -> Result<(), Failure> {
    match writer.into_output() {
        Ok(output) => output.commit(),
        Err(err) => Err(watch.blame(crate::input::invalid(err, &watch.name, None))),
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.writer().and_then(|out| out.write(buf));
        self.watch.note(written)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let written = self.writer().and_then(|out| out.write_all(buf));
        self.watch.note(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        let flushed = self.writer().and_then(Write::flush);
        self.watch.note(flushed)
    }
}

impl Replacement {
    fn commit(&mut self) -> Result<(), Failure> {
        let Some(writer) = self.file.take() else {
            return Ok(());
        };
        let file = writer
            .into_inner()
            .map_err(|e| write_failure(&self.name, e.error()))?;
        // On disk before the rename, so a crash cannot leave a renamed but empty file.
        file.sync_all().map_err(|e| write_failure(&self.name, &e))?;
        drop(file);
        {
            let mut live = live_temps();
            fs::rename(&self.temp, &self.target).map_err(|e| write_failure(&self.name, &e))?;
            self.committed = true;
            forget_temp(&mut live, &self.temp);
        }
        // Makes the rename itself durable; not every platform can open a directory, and the
        // output is complete either way, so this is best effort.
        if let Some(dir) = self.target.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = File::open(dir).and_then(|d| d.sync_all());
        }
        Ok(())
    }
}

impl Drop for Replacement {
    fn drop(&mut self) {
        if let Some(writer) = self.file.take() {
            // Close without flushing: the file is about to be removed.
            let (file, _unwritten) = writer.into_parts();
            drop(file);
        }
        if !self.committed {
            let mut live = live_temps();
            let _ = fs::remove_file(&self.temp);
            forget_temp(&mut live, &self.temp);
        }
    }
}

/// Takes `temp` off the live temporary files, once it is renamed or removed.
fn forget_temp(live: &mut Vec<PathBuf>, temp: &Path) {
    if let Some(at) = live.iter().position(|path| path == temp) {
        live.swap_remove(at);
    }
}

/// Why `target` (shown as `name`) cannot be written, when its temporary file cannot be
/// created: the temporary file is a detail of how `OUT` is written, so the message is about
/// `OUT`, and a missing directory (`-o nodir/out.json`) is said in those words.
fn cannot_create_temp(name: &str, target: &Path, err: &io::Error) -> Failure {
    let dir = target.parent().filter(|dir| !dir.as_os_str().is_empty());
    if err.kind() == io::ErrorKind::NotFound
        && let Some(dir) = dir.filter(|dir| fs::metadata(dir).is_err())
    {
        return Failure::Usage(format!(
            "cannot create {name}: the directory {} does not exist",
            crate::name::shown(dir)
        ));
    }
    let dir = dir.unwrap_or(Path::new("."));
    Failure::Usage(format!(
        "cannot create {name}: cannot create a file in {}: {err}",
        crate::name::shown(dir)
    ))
}

/// Whether `path` leads to an open file descriptor rather than to a file of its own:
/// `/dev/stdout` and `/dev/stderr` (links into `/proc`), or a name inside a `/proc/.../fd`
/// directory (`/dev/fd/N`, `/proc/self/fd/N`).
fn is_descriptor_link(path: &Path) -> bool {
    let proc = Path::new("/proc");
    let link_into_proc = fs::read_link(path).is_ok_and(|target| target.starts_with(proc));
    let in_proc = path
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .and_then(|dir| fs::canonicalize(dir).ok())
        .is_some_and(|dir| dir.starts_with(proc));
    link_into_proc || in_proc
}

fn is_symlink(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Creates a new, empty temporary file next to `target`:
/// `.<name>.<process id>.<time>.<counter>.tmp`, created exclusively (never an existing file),
/// and notes it in [`LIVE_TEMPS`] for an interrupt to remove.
fn create_temp(target: &Path) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let file_name = target
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    remove_temps_on_interrupt();
    for _ in 0..64 {
        let count = COUNTER.fetch_add(1, Ordering::Relaxed);
        let mut name = OsString::from(".");
        name.push(file_name);
        name.push(format!(".{}.{nanos:x}.{count}.tmp", std::process::id()));
        let temp = dir.join(name);
        let mut live = live_temps();
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => {
                live.push(temp.clone());
                return Ok((temp, file));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free temporary file name",
    ))
}

/// A failed write: quiet when the reader of standard output went away, else a usage error.
pub(crate) fn write_failure(name: &str, err: &io::Error) -> Failure {
    if err.kind() == io::ErrorKind::BrokenPipe {
        Failure::Quiet
    } else {
        Failure::Usage(format!("cannot write {name}: {err}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_path(output: &Output) -> PathBuf {
        match &output.sink {
            Sink::Replace(replacement) => replacement.temp.clone(),
            other => panic!("not replaced: {other:?}"),
        }
    }

    fn is_live(temp: &Path) -> bool {
        live_temps().iter().any(|path| path == temp)
    }

    #[test]
    fn the_first_write_error_is_kept_as_the_system_gave_it() {
        let Ok(full) = OpenOptions::new().write(true).open("/dev/full") else {
            return; // No such device here: nothing to fill.
        };
        let mut output = Output::in_place_file(full, "/dev/full".to_owned());
        let watch = output.watch();
        // Larger than the buffer, so the write reaches the device.
        let err = output.write_all(&[b' '; 2 * BUFFER]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::StorageFull);
        let kept = watch.error.borrow_mut().take().expect("the error is noted");
        // The system's own error: its code is there (a copy made from the kind and the
        // message has none).
        assert_eq!(kept.kind(), io::ErrorKind::StorageFull);
        assert!(kept.raw_os_error().is_some(), "{kept:?}");
        assert_eq!(kept.to_string(), err.to_string());
    }

    #[test]
    fn a_temporary_file_is_live_until_renamed_or_removed() {
        let dir = std::env::temp_dir().join(format!("sluice-output-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let target = dir.join("out.json");

        let mut output = Output::open(Some(&target)).unwrap();
        let temp = temp_path(&output);
        assert!(is_live(&temp));
        output.write_all(b"[1]").unwrap();
        output.commit().unwrap();
        assert!(!is_live(&temp));
        assert_eq!(fs::read(&target).unwrap(), b"[1]");

        let output = Output::open(Some(&target)).unwrap();
        let temp = temp_path(&output);
        assert!(is_live(&temp));
        drop(output);
        assert!(!is_live(&temp));
        assert!(!temp.exists());
        assert_eq!(fs::read(&target).unwrap(), b"[1]");
        fs::remove_dir_all(&dir).unwrap();
    }
}
