//! serde's access traits over a sluice reader: the elements of a sequence, the entries of a
//! map, and an enum written as a single-key map.

use serde::de::value::I64Deserializer;
use serde::de::{self, DeserializeSeed, Visitor};
use sluice_core::{Entry, Reader};

use super::key::NonTextKey;
use super::{Deserializer, KeyDeserializer, Slot, Source, Trail, read_string_entry};
use crate::error::{Error, Result, codes};

/// The elements of an array or set, until its end token.
pub(crate) struct SeqAccess<'a, 'de, R> {
    de: &'a mut Deserializer<'de, R>,
    end: Entry,
    len: Option<usize>,
    read: usize,
    closed: bool,
}

impl<'a, 'de, R: Reader> SeqAccess<'a, 'de, R> {
    pub(crate) fn new(de: &'a mut Deserializer<'de, R>, end: Entry, len: Option<usize>) -> Self {
        SeqAccess {
            de,
            end,
            len,
            read: 0,
            closed: false,
        }
    }

    /// Whether the end token was read.
    pub(crate) fn closed(&self) -> bool {
        self.closed
    }

    /// How many elements were read.
    pub(crate) fn read(&self) -> usize {
        self.read
    }
}

impl<'de, R: Reader> de::SeqAccess<'de> for SeqAccess<'_, 'de, R> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.closed {
            return Ok(None);
        }
        // `is_container_end` first: one test for the common case of another element,
        // cheaper than comparing two entries.
        let entry = self.de.peek()?;
        if entry.is_container_end() && entry == self.end {
            self.de.read_end(self.end)?;
            self.closed = true;
            return Ok(None);
        }
        // An error inside the element leaves `read` counting it: the sequence adds the
        // element's index to the error's path from there (`Deserializer::visit_seq`).
        self.read += 1;
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        self.len.map(|len| len.saturating_sub(self.read))
    }
}

/// The entries of a map or struct, until its end token.
pub(crate) struct MapAccess<'a, 'de, R> {
    de: &'a mut Deserializer<'de, R>,
    end: Entry,
    len: Option<usize>,
    entries: usize,
    closed: bool,
    /// The current key, for the path of an error.
    key: Slot<'de>,
    /// Where this map's copied keys start in the deserializer's key buffer.
    key_base: usize,
}

impl<'a, 'de, R: Reader> MapAccess<'a, 'de, R> {
    pub(crate) fn new(
        de: &'a mut Deserializer<'de, R>,
        end: Entry,
        len: Option<usize>,
        key_base: usize,
    ) -> Self {
        MapAccess {
            de,
            end,
            len,
            entries: 0,
            closed: false,
            key: Slot::Empty,
            key_base,
        }
    }

    /// The current key.
    pub(crate) fn key(&self) -> Slot<'de> {
        self.key
    }

    /// Whether the end token was read.
    pub(crate) fn closed(&self) -> bool {
        self.closed
    }
}

/// Reads the key at the reader's position and hands it to `seed`.
///
/// Text keys (a string, or the variant name of an enum token) go through the
/// [`KeyDeserializer`], which also parses numbers, booleans and unit variants out of them; a
/// nameless enum token as its discriminant; any other token (MessagePack integer keys)
/// through the deserializer itself, as a [`NonTextKey`]. `slot` becomes the key (copied
/// above `key_base` when it cannot be borrowed), or `index`, for the path of an error in the
/// key or the value that follows.
#[inline]
fn read_key<'de, R: Reader, T: DeserializeSeed<'de>>(
    de: &mut Deserializer<'de, R>,
    entry: Entry,
    index: usize,
    slot: &mut Slot<'de>,
    key_base: usize,
    seed: T,
) -> Result<T::Value> {
    if !matches!(entry, Entry::Name | Entry::String) {
        return read_other_key(de, entry, index, slot, key_base, seed);
    }
    let key = match read_string_entry(&mut de.reader, entry) {
        Ok(key) => key,
        Err(err) => return Err(de.fix_core(err)),
    };
    let key = text_key(
        key,
        de.source,
        &mut de.trail,
        key_base,
        slot,
        de.human_readable,
    );
    seed.deserialize(key).map_err(|err| de.fix(err))
}

/// The deserializer of a text key, borrowed from `source` when it lies there. `slot` becomes
/// the key, copied into `trail` above `key_base` when it cannot be borrowed.
#[inline(always)]
fn text_key<'a, 'de>(
    key: &'a str,
    source: Source<'de>,
    trail: &mut Trail,
    key_base: usize,
    slot: &mut Slot<'de>,
    human_readable: bool,
) -> KeyDeserializer<'a, 'de> {
    let borrowed = source.borrow_str(key);
    *slot = match borrowed {
        Some(borrowed) => Slot::Key(borrowed),
        None => trail.copy_key(key_base, key),
    };
    KeyDeserializer {
        key,
        borrowed,
        human_readable,
    }
}

/// [`read_key`] for a key that is not a string: an enum token or a token of another kind.
///
/// Out of line and cold: JSON keys are always strings, and keeping this path out of the loop
/// over a struct's keys measurably speeds it up (about 3% on twitter.json into structs).
#[cold]
#[inline(never)]
fn read_other_key<'de, R: Reader, T: DeserializeSeed<'de>>(
    de: &mut Deserializer<'de, R>,
    entry: Entry,
    index: usize,
    slot: &mut Slot<'de>,
    key_base: usize,
    seed: T,
) -> Result<T::Value> {
    if entry != Entry::Enum {
        *slot = Slot::Index(index);
        return seed.deserialize(NonTextKey { de, entry });
    }
    let token = match de.reader.read_enum() {
        Ok(token) => token,
        Err(err) => return Err(de.fix_core(err)),
    };
    if token.variant.is_empty() {
        *slot = Slot::Index(index);
        let discriminant = I64Deserializer::<Error>::new(token.value);
        return seed.deserialize(discriminant).map_err(|err| de.fix(err));
    }
    // A variant name is a text key like any other.
    let key = text_key(
        token.variant,
        de.source,
        &mut de.trail,
        key_base,
        slot,
        de.human_readable,
    );
    seed.deserialize(key).map_err(|err| de.fix(err))
}

impl<'de, R: Reader> de::MapAccess<'de> for MapAccess<'_, 'de, R> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.closed {
            return Ok(None);
        }
        let entry = self.de.peek()?;
        if entry.is_container_end() && entry == self.end {
            self.de.read_end(self.end)?;
            self.closed = true;
            return Ok(None);
        }
        let index = self.entries;
        self.entries += 1;
        read_key(self.de, entry, index, &mut self.key, self.key_base, seed).map(Some)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        // As for sequences, the map adds the current key to the path of an error.
        seed.deserialize(&mut *self.de)
    }

    fn size_hint(&self) -> Option<usize> {
        self.len.map(|len| len.saturating_sub(self.entries))
    }
}

/// An enum written as a map with one key: the variant name, then its content.
pub(crate) struct EnumAccess<'a, 'de, R> {
    de: &'a mut Deserializer<'de, R>,
    /// The variant name once read, for the path of an error in its content.
    key: Slot<'de>,
    key_base: usize,
}

impl<'a, 'de, R: Reader> EnumAccess<'a, 'de, R> {
    pub(crate) fn new(de: &'a mut Deserializer<'de, R>, key_base: usize) -> Self {
        EnumAccess {
            de,
            key: Slot::Empty,
            key_base,
        }
    }

    /// An error from the variant's content gets the variant name in its path.
    fn traced<T>(&mut self, result: Result<T>) -> Result<T> {
        result.map_err(|err| self.de.trace(err, self.key))
    }
}

impl<'de, R: Reader> de::EnumAccess<'de> for EnumAccess<'_, 'de, R> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let entry = self.de.peek()?;
        if entry == Entry::MapEnd {
            self.de.read_end(Entry::MapEnd)?;
            let err = Error::new(
                codes::INVALID_ENUM,
                "an enum written as a map needs one key, the variant name; the map is empty",
            );
            return Err(self.de.fix(err));
        }
        let mut access = self;
        let variant = read_key(access.de, entry, 0, &mut access.key, access.key_base, seed);
        let variant = access.traced(variant)?;
        Ok((variant, access))
    }
}

impl<'de, R: Reader> de::VariantAccess<'de> for EnumAccess<'_, 'de, R> {
    type Error = Error;

    fn unit_variant(mut self) -> Result<()> {
        let result = de::Deserialize::deserialize(&mut *self.de);
        self.traced(result)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(mut self, seed: T) -> Result<T::Value> {
        let result = seed.deserialize(&mut *self.de);
        self.traced(result)
    }

    fn tuple_variant<V: Visitor<'de>>(mut self, _len: usize, visitor: V) -> Result<V::Value> {
        let result = de::Deserializer::deserialize_seq(&mut *self.de, visitor);
        self.traced(result)
    }

    fn struct_variant<V: Visitor<'de>>(
        mut self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let result = de::Deserializer::deserialize_map(&mut *self.de, visitor);
        self.traced(result)
    }
}
