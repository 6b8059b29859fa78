//! The MessagePack timestamp extension (ext type -1).
//!
//! The spec has three sizes: 32 bits (seconds 0 ..= 2^32-1, no nanoseconds), 64 bits (30
//! bits of nanoseconds and 34 bits of seconds, so 0 ..= 2^34-1 seconds) and 96 bits (32-bit
//! nanoseconds then a signed 64-bit second count, any instant). All three are read; the
//! smallest that holds the value is written.

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sluice_core::{Error, Ext, Result};

use crate::codes;

const NANOS_PER_SECOND: u32 = 1_000_000_000;

/// An instant as the MessagePack timestamp extension holds it: seconds since the Unix epoch
/// (negative before 1970) and nanoseconds within that second.
///
/// ```
/// use sluice_msgpack::Timestamp;
/// let t = Timestamp::new(1_514_862_245, 678_901_234)?;
/// let bytes = t.to_ext()?;
/// assert_eq!(bytes.as_ext().data.len(), 8); // the 64-bit form is enough
/// assert_eq!(Timestamp::from_ext(bytes.as_ext())?, t);
/// assert!(Timestamp::new(0, 1_000_000_000).is_err());
/// # Ok::<(), sluice_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z; negative before.
    pub seconds: i64,
    /// Nanoseconds added to `seconds`, below 1,000,000,000.
    pub nanos: u32,
}

/// The encoded payload of a [`Timestamp`] (4, 8 or 12 bytes), ready to write as an ext.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TimestampBytes {
    bytes: [u8; 12],
    len: u8,
}

impl TimestampBytes {
    /// The payload bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// The payload as an ext value of type [`Timestamp::EXT_TYPE`].
    #[must_use]
    pub fn as_ext(&self) -> Ext<'_> {
        Ext {
            kind: Timestamp::EXT_TYPE,
            data: self.as_bytes(),
        }
    }
}

impl fmt::Debug for TimestampBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TimestampBytes")
            .field(&self.as_bytes())
            .finish()
    }
}

fn invalid(message: String) -> Error {
    Error::new(codes::INVALID_TIMESTAMP, message)
}

impl Timestamp {
    /// The ext type tag the spec reserves for timestamps.
    pub const EXT_TYPE: i8 = -1;

    /// A timestamp, checking that `nanos` is below one second.
    ///
    /// # Errors
    /// [`INVALID_TIMESTAMP`](codes::INVALID_TIMESTAMP) when `nanos >= 1_000_000_000`.
    pub fn new(seconds: i64, nanos: u32) -> Result<Timestamp> {
        if nanos >= NANOS_PER_SECOND {
            return Err(invalid(format!(
                "timestamp nanoseconds {nanos} are not below 1000000000"
            )));
        }
        Ok(Timestamp { seconds, nanos })
    }

    /// Decodes a timestamp ext (type -1, 4, 8 or 12 bytes).
    ///
    /// # Errors
    /// [`INVALID_TIMESTAMP`](codes::INVALID_TIMESTAMP) for another type tag, another size, or
    /// nanoseconds of a second or more.
    pub fn from_ext(ext: Ext<'_>) -> Result<Timestamp> {
        if ext.kind != Self::EXT_TYPE {
            return Err(invalid(format!(
                "ext type {} is not a timestamp (type -1)",
                ext.kind
            )));
        }
        let data = ext.data;
        match *data {
            [a, b, c, d] => Ok(Timestamp {
                seconds: i64::from(u32::from_be_bytes([a, b, c, d])),
                nanos: 0,
            }),
            [a, b, c, d, e, f, g, h] => {
                let bits = u64::from_be_bytes([a, b, c, d, e, f, g, h]);
                // 30 bits of nanoseconds, then 34 bits of seconds (both fit their targets).
                let nanos = u32::try_from(bits >> 34).unwrap_or(u32::MAX);
                let seconds = i64::try_from(bits & 0x3_ffff_ffff).unwrap_or(i64::MAX);
                Timestamp::new(seconds, nanos)
            }
            [a, b, c, d, ref rest @ ..] if rest.len() == 8 => {
                let nanos = u32::from_be_bytes([a, b, c, d]);
                let mut seconds = [0u8; 8];
                seconds.copy_from_slice(rest);
                Timestamp::new(i64::from_be_bytes(seconds), nanos)
            }
            _ => Err(invalid(format!(
                "a timestamp ext has 4, 8 or 12 bytes, not {}",
                data.len()
            ))),
        }
    }

    /// Encodes this timestamp in the smallest of the three sizes that holds it.
    ///
    /// # Errors
    /// [`INVALID_TIMESTAMP`](codes::INVALID_TIMESTAMP) when `nanos >= 1_000_000_000` (the
    /// fields are public, so this is checked again here).
    pub fn to_ext(&self) -> Result<TimestampBytes> {
        let checked = Timestamp::new(self.seconds, self.nanos)?;
        let mut bytes = [0u8; 12];
        let len = match u64::try_from(checked.seconds) {
            Ok(seconds) if seconds >> 34 == 0 => {
                if checked.nanos == 0 && seconds <= u64::from(u32::MAX) {
                    bytes[..4].copy_from_slice(&(seconds as u32).to_be_bytes());
                    4
                } else {
                    let bits = (u64::from(checked.nanos) << 34) | seconds;
                    bytes[..8].copy_from_slice(&bits.to_be_bytes());
                    8
                }
            }
            _ => {
                bytes[..4].copy_from_slice(&checked.nanos.to_be_bytes());
                bytes[4..].copy_from_slice(&checked.seconds.to_be_bytes());
                12
            }
        };
        Ok(TimestampBytes { bytes, len })
    }
}

impl TryFrom<SystemTime> for Timestamp {
    type Error = Error;

    /// The instant as a timestamp; fails only beyond ±292 billion years.
    fn try_from(time: SystemTime) -> Result<Timestamp> {
        let too_far = || invalid("the instant is beyond the i64 range of seconds".to_owned());
        match time.duration_since(UNIX_EPOCH) {
            Ok(after) => Ok(Timestamp {
                seconds: i64::try_from(after.as_secs()).map_err(|_| too_far())?,
                nanos: after.subsec_nanos(),
            }),
            Err(before) => {
                let before = before.duration();
                let mut seconds = -i64::try_from(before.as_secs()).map_err(|_| too_far())?;
                let mut nanos = before.subsec_nanos();
                if nanos > 0 {
                    // Nanoseconds always count forward from the second before.
                    seconds = seconds.checked_sub(1).ok_or_else(too_far)?;
                    nanos = NANOS_PER_SECOND - nanos;
                }
                Ok(Timestamp { seconds, nanos })
            }
        }
    }
}

impl TryFrom<Timestamp> for SystemTime {
    type Error = Error;

    /// The timestamp as a system time, when the platform's `SystemTime` can hold it.
    fn try_from(timestamp: Timestamp) -> Result<SystemTime> {
        let checked = Timestamp::new(timestamp.seconds, timestamp.nanos)?;
        let out_of_range = || invalid(format!("{checked:?} is beyond what SystemTime holds"));
        let time = if checked.seconds >= 0 {
            UNIX_EPOCH.checked_add(Duration::new(checked.seconds.unsigned_abs(), checked.nanos))
        } else {
            UNIX_EPOCH
                .checked_sub(Duration::from_secs(checked.seconds.unsigned_abs()))
                .and_then(|t| t.checked_add(Duration::from_nanos(u64::from(checked.nanos))))
        };
        time.ok_or_else(out_of_range)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(seconds: i64, nanos: u32) -> usize {
        let t = Timestamp::new(seconds, nanos).unwrap();
        let bytes = t.to_ext().unwrap();
        assert_eq!(Timestamp::from_ext(bytes.as_ext()).unwrap(), t);
        bytes.as_bytes().len()
    }

    #[test]
    fn the_smallest_size_is_chosen_at_every_boundary() {
        assert_eq!(round_trip(0, 0), 4);
        assert_eq!(round_trip(i64::from(u32::MAX), 0), 4);
        assert_eq!(round_trip(i64::from(u32::MAX) + 1, 0), 8);
        assert_eq!(round_trip(0, 1), 8);
        assert_eq!(round_trip((1 << 34) - 1, 999_999_999), 8);
        assert_eq!(round_trip(1 << 34, 0), 12);
        assert_eq!(round_trip(-1, 0), 12);
        assert_eq!(round_trip(i64::MIN, 999_999_999), 12);
        assert_eq!(round_trip(i64::MAX, 0), 12);
    }

    #[test]
    fn bad_sizes_types_and_nanos_are_refused() {
        let code = |ext| Timestamp::from_ext(ext).unwrap_err().code();
        let bad = codes::INVALID_TIMESTAMP;
        assert_eq!(
            code(Ext {
                kind: -1,
                data: &[0; 5]
            }),
            bad
        );
        assert_eq!(
            code(Ext {
                kind: 3,
                data: &[0; 4]
            }),
            bad
        );
        // 64-bit form with nanos = 2^30 - 1 (above 999,999,999).
        assert_eq!(
            code(Ext {
                kind: -1,
                data: &[0xff, 0xff, 0xff, 0xfc, 0, 0, 0, 0]
            }),
            bad
        );
        let mut twelve = [0u8; 12];
        twelve[..4].copy_from_slice(&1_000_000_000u32.to_be_bytes());
        assert_eq!(
            code(Ext {
                kind: -1,
                data: &twelve
            }),
            bad
        );
        let unchecked = Timestamp {
            seconds: 0,
            nanos: u32::MAX,
        };
        assert_eq!(unchecked.to_ext().unwrap_err().code(), bad);
    }

    #[test]
    fn system_time_round_trips_before_and_after_the_epoch() {
        for (seconds, nanos) in [(0, 0), (1_700_000_000, 5), (-1, 999_999_999), (-86_400, 0)] {
            let t = Timestamp::new(seconds, nanos).unwrap();
            let time = SystemTime::try_from(t).unwrap();
            assert_eq!(Timestamp::try_from(time).unwrap(), t);
        }
    }
}
