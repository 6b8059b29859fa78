//! What the command shows when standard error is a terminal: a progress bar while it reads
//! an input too large to load at once, and nothing of it on a pipe. Run on a pseudo-terminal.
#![cfg(unix)]

mod common;

use std::fs::File;
use std::io::Read;
use std::process::{Command, Stdio};

use common::{large_json, temp_file, text};
use nix::pty::{Winsize, openpty};

/// Runs `sluice args` with standard error on a new pseudo-terminal of 80 columns; returns
/// the exit code, standard output, and what the terminal received.
fn on_terminal(args: &[&str]) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    let size = Winsize {
        ws_row: 24,
        ws_col: 80,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    let pty = openpty(&size, None).expect("a pseudo-terminal");
    let child = Command::new(env!("CARGO_BIN_EXE_sluice"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(pty.slave))
        .spawn()
        .expect("the binary runs");
    // The only other end is the child's now (ours moved into the command and was closed
    // once it started): when the child exits, reading the terminal ends.
    let mut terminal = File::from(pty.master);
    let reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        // Linux reports the closed other end as an error (EIO), other systems as the end.
        while let Ok(n) = terminal.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
        }
        seen
    });
    let out = child.wait_with_output().expect("the command ends");
    let seen = reader.join().expect("the terminal is read");
    (out.status.code(), out.stdout, seen)
}

#[test]
fn a_large_input_shows_a_progress_bar_on_a_terminal_and_nothing_on_a_pipe() {
    let doc = large_json();
    let path = temp_file("terminal", "large.json", &doc);
    let path = path.to_str().unwrap();
    let (code, stdout, seen) = on_terminal(&["check", path]);
    assert_eq!(code, Some(0), "{}", text(&seen));
    assert!(stdout.is_empty());
    // The bar shows how much of the input was read, out of its size.
    let shown = text(&seen);
    let size = indicatif::HumanBytes(doc.len() as u64).to_string();
    assert!(shown.contains(&format!("/{size}")), "{shown:?}");
    assert!(!shown.contains("error["), "{shown}");
    // On a pipe the same run writes nothing to standard error.
    let out = common::sluice(&["check", path]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn a_small_input_shows_no_progress_bar_even_on_a_terminal() {
    let path = temp_file("terminal-small", "small.json", b"{\"a\": [1, 2, 3]}");
    let (code, _, seen) = on_terminal(&["check", path.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{}", text(&seen));
    assert!(seen.is_empty(), "{:?}", text(&seen));
}

#[test]
fn a_diagnostic_on_a_terminal_still_points_at_the_value() {
    // The bar must not hide or garble the diagnostic of a large invalid input.
    let mut doc = large_json();
    let at = doc.len() - 3;
    doc[at] = b'x';
    let path = temp_file("terminal-invalid", "bad.json", &doc);
    let (code, _, seen) = on_terminal(&["check", path.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    let shown = text(&seen);
    let Some(start) = shown.find("error[json/UnexpectedToken]") else {
        panic!("no diagnostic: {shown:?}");
    };
    // It starts on a line of its own: the bar's line erased (carriage return, then erase the
    // line), or a new line.
    let before = &shown[..start];
    assert!(
        before.is_empty() || before.ends_with("\r\u{1b}[2K") || before.ends_with('\n'),
        "{before:?}"
    );
    // And it points at the value, as on a pipe.
    let line = doc.iter().filter(|&&b| b == b'\n').count() + 1;
    assert!(shown.contains(&format!(":{line}:1\r\n")), "{shown:?}");
}
