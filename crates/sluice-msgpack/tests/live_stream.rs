//! Reading a live stream through `io::Read`: a value that has arrived whole is handed out
//! without asking the stream for more bytes than it needs, so a peer that sends one value and
//! waits for an answer (an RPC over a socket or a pipe) is never waited on for bytes it has
//! no reason to send.

mod common;

use std::cell::Cell;
use std::io;
use std::rc::Rc;

use sluice_core::testing::{Features, sample_tokens};
use sluice_core::{Entry, Reader, Token, codes as core};
use sluice_msgpack::{MsgPackReader, ReadInput, Timestamp};

use common::hex;

/// What a [`Paused`] stream does when asked for a byte past its pause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AtPause {
    /// Fails with `WouldBlock`, as a non-blocking peer that has sent nothing more.
    WouldBlock,
    /// Notes that it was asked, then hands out the rest, as a blocking peer that sends more
    /// once it is answered.
    Resume,
}

/// An `io::Read` that hands out its first `pause` bytes in reads of at most `chunk` bytes,
/// then does `at_pause`; `asked` tells whether a read past the pause happened.
struct Paused<'a> {
    bytes: &'a [u8],
    /// Bytes still to hand out before the pause.
    before: usize,
    chunk: usize,
    at_pause: AtPause,
    asked: Rc<Cell<bool>>,
}

impl<'a> Paused<'a> {
    fn new(bytes: &'a [u8], pause: usize, chunk: usize, at_pause: AtPause) -> Paused<'a> {
        Paused {
            bytes,
            before: pause,
            chunk,
            at_pause,
            asked: Rc::default(),
        }
    }
}

impl io::Read for Paused<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut limit = self.before;
        if self.before == 0 {
            self.asked.set(true);
            match self.at_pause {
                AtPause::WouldBlock => return Err(io::ErrorKind::WouldBlock.into()),
                AtPause::Resume => limit = usize::MAX,
            }
        }
        let n = limit.min(self.chunk).min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        self.before = self.before.saturating_sub(n);
        Ok(n)
    }
}

/// Reads per call of the streams: everything at once, and a byte a call.
const CHUNKS: [usize; 2] = [usize::MAX, 1];

/// One value of every header form, each whole (containers empty), in the test suite's
/// notation.
const WHOLE_VALUES: &[&str] = &[
    "c0",                                                    // nil
    "c2",                                                    // false
    "c3",                                                    // true
    "00",                                                    // positive fixint 0
    "7f",                                                    // positive fixint 127
    "ff",                                                    // negative fixint -1
    "e0",                                                    // negative fixint -32
    "cc-ff",                                                 // uint 8
    "cd-01-00",                                              // uint 16
    "ce-00-01-00-00",                                        // uint 32
    "cf-00-00-00-01-00-00-00-00",                            // uint 64
    "d0-80",                                                 // int 8
    "d1-ff-00",                                              // int 16
    "d2-ff-ff-00-00",                                        // int 32
    "d3-ff-ff-ff-ff-00-00-00-00",                            // int 64
    "ca-3f-c0-00-00",                                        // float 32
    "cb-3f-f8-00-00-00-00-00-00",                            // float 64
    "a0",                                                    // fixstr ""
    "a1-61",                                                 // fixstr "a"
    "d9-00",                                                 // str 8 ""
    "d9-02-68-69",                                           // str 8 "hi"
    "da-00-01-61",                                           // str 16 "a"
    "db-00-00-00-01-61",                                     // str 32 "a"
    "c4-00",                                                 // bin 8, empty
    "c4-02-01-02",                                           // bin 8
    "c5-00-01-ff",                                           // bin 16
    "c6-00-00-00-01-ff",                                     // bin 32
    "90",                                                    // fixarray, empty
    "80",                                                    // fixmap, empty
    "dc-00-00",                                              // array 16, empty
    "df-00-00-00-00",                                        // map 32, empty
    "d4-01-aa",                                              // fixext 1
    "d5-01-aa-bb",                                           // fixext 2
    "d6-01-aa-bb-cc-dd",                                     // fixext 4
    "d7-01-00-01-02-03-04-05-06-07",                         // fixext 8
    "d8-01-00-01-02-03-04-05-06-07-08-09-0a-0b-0c-0d-0e-0f", // fixext 16
    "c7-00-05",                                              // ext 8, empty
    "c7-02-05-aa-bb",                                        // ext 8
    "c8-00-01-05-aa",                                        // ext 16
    "c9-00-00-00-01-05-aa",                                  // ext 32
    "d6-ff-5a-4a-f6-a5",                                     // timestamp 32
    "d7-ff-00-00-00-04-5a-4a-f6-a5",                         // timestamp 64
    "c7-0c-ff-00-00-00-01-00-00-00-00-5a-4a-f6-a5",          // timestamp 96
];

/// Container headers whose items have not arrived.
const OPEN_HEADERS: &[(&str, Entry, usize)] = &[
    ("93", Entry::ArrayRoot, 3),
    ("81", Entry::MapRoot, 1),
    ("dc-00-02", Entry::ArrayRoot, 2),
    ("dd-00-00-00-02", Entry::ArrayRoot, 2),
    ("de-00-01", Entry::MapRoot, 1),
    ("df-00-00-00-01", Entry::MapRoot, 1),
];

/// A MessagePack reader over a [`Paused`] stream.
type PausedReader<'a> = MsgPackReader<ReadInput<Paused<'a>>>;

/// One typed read, with its check of the value.
type TypedRead = fn(&mut PausedReader<'_>);

/// A reader over `bytes` that pauses after them for good.
fn paused_after(bytes: &[u8], chunk: usize) -> (PausedReader<'_>, Rc<Cell<bool>>) {
    let stream = Paused::new(bytes, bytes.len(), chunk, AtPause::WouldBlock);
    let asked = Rc::clone(&stream.asked);
    (MsgPackReader::from_read(stream), asked)
}

#[test]
fn a_whole_value_at_a_pause_is_read_without_asking_for_more_bytes() {
    for text in WHOLE_VALUES {
        let bytes = hex(text);
        let expected = common::read_tokens(&bytes).unwrap();
        for chunk in CHUNKS {
            let what = format!("{text}, {chunk} byte(s) a read");
            let (mut reader, asked) = paused_after(&bytes, chunk);
            let mut tokens = Vec::new();
            // Peeking each token and reading it, containers included (an empty one's end
            // needs no byte).
            for _ in &expected {
                let entry = reader
                    .peek()
                    .unwrap_or_else(|e| panic!("{what}: {}", e.render()));
                tokens.push(Token::read(&mut reader, entry).unwrap());
            }
            assert_eq!(tokens, expected, "{what}");
            assert_eq!(reader.offset(), bytes.len(), "{what}");
            assert!(!asked.get(), "{what}: asked past the value");
            // The next value is asked for, and the pause is the stream's error to report.
            assert_eq!(reader.peek().unwrap_err().code(), core::IO, "{what}");
        }
    }
}

#[test]
fn every_typed_read_of_a_whole_value_at_a_pause_needs_no_more_bytes() {
    let cases: &[(&str, TypedRead)] = &[
        ("c0", |r| r.read_null().unwrap()),
        ("c3", |r| assert!(r.read_bool().unwrap())),
        ("7f", |r| assert_eq!(r.read_u8().unwrap(), 127)),
        ("e0", |r| assert_eq!(r.read_i64().unwrap(), -32)),
        ("cc-ff", |r| assert_eq!(r.read_u8().unwrap(), 255)),
        ("cd-01-00", |r| assert_eq!(r.read_u16().unwrap(), 256)),
        ("ce-00-01-00-00", |r| {
            assert_eq!(r.read_u32().unwrap(), 65_536);
        }),
        ("cf-00-00-00-01-00-00-00-00", |r| {
            assert_eq!(r.read_u64().unwrap(), 1 << 32);
        }),
        ("d0-80", |r| assert_eq!(r.read_i8().unwrap(), -128)),
        ("d1-ff-00", |r| assert_eq!(r.read_i16().unwrap(), -256)),
        ("d2-ff-ff-00-00", |r| {
            assert_eq!(r.read_i32().unwrap(), -65_536);
        }),
        ("d3-ff-ff-ff-ff-00-00-00-00", |r| {
            assert_eq!(r.read_i64().unwrap(), -(1 << 32));
        }),
        ("ca-3f-c0-00-00", |r| assert_eq!(r.read_f32().unwrap(), 1.5)),
        ("cb-3f-f8-00-00-00-00-00-00", |r| {
            assert_eq!(r.read_f64().unwrap(), 1.5);
        }),
        ("a0", |r| assert_eq!(r.read_str().unwrap(), "")),
        ("d9-02-68-69", |r| assert_eq!(r.read_str().unwrap(), "hi")),
        ("c4-02-01-02", |r| {
            assert_eq!(r.read_blob().unwrap(), [1, 2]);
        }),
        ("d4-01-aa", |r| {
            assert_eq!(r.read_ext().unwrap().data, [0xaa]);
        }),
        ("d6-ff-5a-4a-f6-a5", |r| {
            let expected = Timestamp {
                seconds: 1_514_862_245,
                nanos: 0,
            };
            assert_eq!(r.read_timestamp().unwrap(), expected);
        }),
        ("c7-0c-ff-00-00-00-01-00-00-00-00-5a-4a-f6-a5", |r| {
            let expected = Timestamp {
                seconds: 1_514_862_245,
                nanos: 1,
            };
            assert_eq!(r.read_timestamp().unwrap(), expected);
        }),
    ];
    for &(text, read) in cases {
        let bytes = hex(text);
        for chunk in CHUNKS {
            let (mut reader, asked) = paused_after(&bytes, chunk);
            read(&mut reader);
            assert_eq!(reader.offset(), bytes.len(), "{text}");
            assert!(
                !asked.get(),
                "{text}, {chunk} byte(s) a read: asked past the value"
            );
        }
    }
}

#[test]
fn a_container_header_at_a_pause_is_peeked_and_opened_without_its_items() {
    for &(text, entry, len) in OPEN_HEADERS {
        let bytes = hex(text);
        for chunk in CHUNKS {
            let what = format!("{text}, {chunk} byte(s) a read");
            let (mut reader, asked) = paused_after(&bytes, chunk);
            assert_eq!(reader.peek().unwrap(), entry, "{what}");
            let opened = if entry == Entry::MapRoot {
                reader.read_map_root()
            } else {
                reader.read_array_root()
            };
            assert_eq!(opened.unwrap(), Some(len), "{what}");
            assert!(!asked.get(), "{what}: asked for the items");
            // The first item is what the stream is asked for next.
            assert_eq!(reader.peek().unwrap_err().code(), core::IO, "{what}");
            assert!(asked.get(), "{what}");
        }
    }
}

#[test]
fn skipping_a_whole_value_at_a_pause_needs_no_more_bytes() {
    let mut values: Vec<Vec<u8>> = WHOLE_VALUES.iter().map(|text| hex(text)).collect();
    // Containers with items, the last item ending the value.
    values.push(hex("93-01-a1-61-c0"));
    values.push(hex("82-a1-61-90-a1-62-81-a0-cc-ff"));
    values.push(common::write_tokens(&sample_tokens(Features::MSGPACK)).unwrap());
    for bytes in &values {
        for chunk in CHUNKS {
            let what = format!("{bytes:02x?}, {chunk} byte(s) a read");
            let (mut reader, asked) = paused_after(bytes, chunk);
            reader
                .skip()
                .unwrap_or_else(|e| panic!("{what}: {}", e.render()));
            assert_eq!(reader.offset(), bytes.len(), "{what}");
            assert!(!asked.get(), "{what}: asked past the value");
        }
    }
}

/// Several top-level values: every whole value, containers with items, and the sample
/// document.
fn stream_of_values() -> Vec<u8> {
    let mut bytes: Vec<u8> = WHOLE_VALUES.iter().flat_map(|text| hex(text)).collect();
    bytes.extend(hex("93-01-a1-61-c0"));
    bytes.extend(hex("82-a1-61-90-a1-62-81-a0-cc-ff"));
    bytes.extend(common::write_tokens(&sample_tokens(Features::MSGPACK)).unwrap());
    bytes
}

#[test]
fn a_stream_paused_at_any_byte_hands_out_every_token_before_the_pause_then_asks_for_more() {
    let bytes = stream_of_values();
    // Each token and the offset its bytes end at, from the slice.
    let mut slice = MsgPackReader::from_slice(&bytes);
    let mut expected = Vec::new();
    loop {
        let entry = slice.peek().unwrap();
        if entry == Entry::Ended {
            break;
        }
        let token = Token::read(&mut slice, entry).unwrap();
        expected.push((token, slice.span().end));
    }
    for pause in 0..=bytes.len() {
        for chunk in CHUNKS {
            let stream = Paused::new(&bytes, pause, chunk, AtPause::Resume);
            let asked = Rc::clone(&stream.asked);
            let mut reader = MsgPackReader::from_read(stream);
            for (token, end) in &expected {
                let what = format!("pause at {pause}, {chunk} byte(s) a read, {token:?}");
                let entry = reader
                    .peek()
                    .unwrap_or_else(|e| panic!("{what}: {}", e.render()));
                let read = Token::read(&mut reader, entry).unwrap();
                assert_eq!(&read, token, "{what}");
                // A token whose bytes arrived before the pause comes without asking; one
                // that needs a byte after it cannot.
                assert_eq!(asked.get(), *end > pause, "{what}");
            }
            assert_eq!(reader.peek().unwrap(), Entry::Ended);
        }
    }
}

#[test]
fn a_stream_paused_at_any_byte_skips_every_value_before_the_pause_then_asks_for_more() {
    let bytes = stream_of_values();
    let mut slice = MsgPackReader::from_slice(&bytes);
    let mut ends = Vec::new();
    while slice.peek().unwrap() != Entry::Ended {
        slice.skip().unwrap();
        ends.push(slice.span().end);
    }
    for pause in 0..=bytes.len() {
        for chunk in CHUNKS {
            let stream = Paused::new(&bytes, pause, chunk, AtPause::Resume);
            let asked = Rc::clone(&stream.asked);
            let mut reader = MsgPackReader::from_read(stream);
            for &end in &ends {
                reader.skip().unwrap();
                assert_eq!(reader.span().end, end);
                assert_eq!(
                    asked.get(),
                    end > pause,
                    "pause at {pause}, {chunk} byte(s) a read, the value ending at {end}"
                );
            }
            assert_eq!(reader.peek().unwrap(), Entry::Ended);
        }
    }
}
