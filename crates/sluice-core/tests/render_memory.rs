//! What rendering a diagnostic costs on a very long line (a minified document): memory for
//! the snippet shown, not for the line. A binary of its own, for its counting allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use sluice_core::{Error, Span, codes};

/// The system allocator, counting the bytes live and the most live since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only counters move.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
        PEAK.fetch_max(live, Ordering::SeqCst);
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` asks.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
        // SAFETY: `ptr` was allocated by `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Held by each test: the counters are global, and tests run on threads of their own.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The most bytes allocated at once by `run`, beyond those live before it.
fn peak_of(run: impl FnOnce()) -> usize {
    let before = LIVE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    run();
    PEAK.load(Ordering::SeqCst) - before
}

#[test]
fn an_error_in_a_line_megabytes_long_renders_without_copying_the_line() {
    let _alone = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // A 4 MB minified array with the error near its end, after a line as long as context.
    let mut text = String::from("[\"first line\",\n[");
    for i in 0..500_000 {
        text.push_str(&format!("{i},"));
    }
    let at = text.len();
    text.push_str("x]\n]\n");
    assert!(text.len() > 3_000_000);
    let err = Error::new(codes::CUSTOM, "boom")
        .with_span(Span::new(at, at + 1))
        .with_source_text("big.json", &text);
    let mut rendered = String::new();
    let peak = peak_of(|| rendered = err.render());
    // The line index (a few words) and the snippet (a few hundred bytes); the line itself,
    // let alone a cell per character of it, is never held.
    assert!(peak < 64 * 1024, "{peak} bytes for {} of text", text.len());
    assert!(rendered.len() < 1024, "{rendered}");
    let caret_line = rendered.lines().find(|l| l.contains('^')).unwrap();
    let text_line = rendered.lines().find(|l| l.starts_with("2 |")).unwrap();
    let caret = caret_line.find('^').unwrap();
    assert_eq!(&text_line[caret..=caret], "x", "{rendered}");
}

#[test]
fn an_error_after_millions_of_short_lines_renders_without_indexing_them() {
    let _alone = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // An NDJSON file of 4 MB in two million lines, the error on the last: the lines shown
    // are found and counted, not every line start stored.
    let mut text = "1\n".repeat(2_000_000);
    let at = text.len();
    text.push_str("x\n");
    let err = Error::new(codes::CUSTOM, "boom")
        .with_span(Span::new(at, at + 1))
        .with_source_text("many.ndjson", &text);
    let mut rendered = String::new();
    let peak = peak_of(|| rendered = err.render());
    assert!(peak < 64 * 1024, "{peak} bytes for {} lines", 2_000_001);
    assert!(
        rendered.contains(" --> many.ndjson:2000001:1\n"),
        "{rendered}"
    );
    assert!(
        rendered.contains("2000001 | x\n        | ^\n"),
        "{rendered}"
    );
    let mut position = None;
    let peak = peak_of(|| position = err.line_column());
    assert!(peak < 1024, "{peak}");
    assert_eq!(position.map(|p| (p.line, p.column)), Some((2_000_001, 1)));
}
