//! Helpers shared by the command line's tests: running the binary, and files to run it on.
#![allow(dead_code, unreachable_pub)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `sluice args` in `dir`.
pub fn sluice_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sluice"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

/// Runs `sluice args`.
pub fn sluice(args: &[&str]) -> Output {
    sluice_in(Path::new("."), args)
}

/// Runs `sluice args` with `stdin` as its standard input.
pub fn sluice_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sluice"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Written from another thread while the output is read, so that a command writing
    // much output before it has read all its input cannot block on a full pipe.
    let mut pipe = child.stdin.take().unwrap();
    std::thread::scope(|scope| {
        // The command may stop reading early (at an error): a closed pipe is fine.
        scope.spawn(move || {
            let _ = pipe.write_all(stdin);
        });
        child.wait_with_output().unwrap()
    })
}

/// Output bytes as text, for assertions and messages.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh temporary directory of the test `test`.
pub fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sluice-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A file in the temporary directory of the test `test`.
pub fn temp_file(test: &str, name: &str, contents: &[u8]) -> PathBuf {
    let path = temp_dir(test).join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// A valid JSON document over the size the command reads into memory (8 MiB), so that it
/// streams: an array of small objects, one a line.
pub fn large_json() -> Vec<u8> {
    let mut doc = Vec::with_capacity(9 << 20);
    doc.push(b'[');
    while doc.len() < 9 << 20 {
        doc.extend_from_slice(b"{\"key\": \"value\", \"n\": 12345},\n");
    }
    doc.extend_from_slice(b"{}]");
    doc
}
