//! [`EntrySet`]: which input tokens a rule accepts.

use std::ops::BitOr;

use sluice_core::Entry;

/// A set of token kinds a deserialization rule applies to (the next token of the input).
///
/// Rules narrowed this way are skipped, at almost no cost, when the input does not start with
/// one of the kinds: a coercion rule for `bool` applies to [`EntrySet::STRING`] |
/// [`EntrySet::NUMBER`] only, so well-typed input never reaches it.
///
/// ```
/// use sluice_core::{Entry, NumberHint};
/// use sluice_reflect::handlers::EntrySet;
/// let set = EntrySet::STRING | EntrySet::NUMBER;
/// assert!(set.contains(Entry::Number(NumberHint::Float)));
/// assert!(set.contains(Entry::U8));
/// assert!(!set.contains(Entry::Bool));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EntrySet(u32);

impl EntrySet {
    /// Every token kind.
    pub const ALL: EntrySet = EntrySet(u32::MAX);
    /// No token kind.
    pub const NONE: EntrySet = EntrySet(0);
    /// `Null`.
    pub const NULL: EntrySet = EntrySet(1);
    /// `Bool`.
    pub const BOOL: EntrySet = EntrySet(1 << 1);
    /// `String` (and `Name`).
    pub const STRING: EntrySet = EntrySet(1 << 2);
    /// Any number, text or typed.
    pub const NUMBER: EntrySet = EntrySet(1 << 3);
    /// `Blob`.
    pub const BLOB: EntrySet = EntrySet(1 << 4);
    /// `Ext`.
    pub const EXT: EntrySet = EntrySet(1 << 5);
    /// `MapRoot` or `StructRoot`.
    pub const MAP: EntrySet = EntrySet(1 << 6);
    /// `ArrayRoot` or `SetRoot`.
    pub const ARRAY: EntrySet = EntrySet(1 << 7);
    /// `OptionRoot`.
    pub const OPTION: EntrySet = EntrySet(1 << 8);
    /// `Enum`.
    pub const ENUM: EntrySet = EntrySet(1 << 9);

    /// The set with the one kind of `entry`.
    #[must_use]
    pub fn of(entry: Entry) -> EntrySet {
        match entry {
            Entry::Null => EntrySet::NULL,
            Entry::Bool => EntrySet::BOOL,
            Entry::String | Entry::Name => EntrySet::STRING,
            Entry::Blob => EntrySet::BLOB,
            Entry::Ext => EntrySet::EXT,
            Entry::MapRoot | Entry::StructRoot => EntrySet::MAP,
            Entry::ArrayRoot | Entry::SetRoot => EntrySet::ARRAY,
            Entry::OptionRoot => EntrySet::OPTION,
            Entry::Enum => EntrySet::ENUM,
            e if e.is_number() => EntrySet::NUMBER,
            _ => EntrySet(1 << 10),
        }
    }

    /// Whether `entry`'s kind is in the set.
    #[must_use]
    pub fn contains(self, entry: Entry) -> bool {
        self.0 & EntrySet::of(entry).0 != 0
    }

    /// Whether every kind is in the set.
    #[must_use]
    pub fn is_all(self) -> bool {
        self.0 == u32::MAX
    }
}

impl BitOr for EntrySet {
    type Output = EntrySet;
    fn bitor(self, other: EntrySet) -> EntrySet {
        EntrySet(self.0 | other.0)
    }
}
