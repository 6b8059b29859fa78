//! serde's access traits over a sluice reader: the elements of a sequence, the entries of a
//! map, and an enum written as a single-key map.

use serde::de::{self, DeserializeSeed, Visitor};
use sluice_core::{Entry, Reader};

use super::{Deserializer, KeyDeserializer};
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
        self.de.path.set_index(self.read);
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
}

impl<'a, 'de, R: Reader> MapAccess<'a, 'de, R> {
    pub(crate) fn new(de: &'a mut Deserializer<'de, R>, end: Entry, len: Option<usize>) -> Self {
        MapAccess {
            de,
            end,
            len,
            entries: 0,
            closed: false,
        }
    }

    /// Whether the end token was read.
    pub(crate) fn closed(&self) -> bool {
        self.closed
    }
}

/// Reads the key at the reader's position and hands it to `seed`: string keys through the
/// [`KeyDeserializer`] (which also parses numbers, booleans and unit variants out of them),
/// any other token through the deserializer itself (MessagePack integer keys).
#[inline]
fn read_key<'de, R: Reader, T: DeserializeSeed<'de>>(
    de: &mut Deserializer<'de, R>,
    entry: Entry,
    index: usize,
    seed: T,
) -> Result<T::Value> {
    if !matches!(entry, Entry::Name | Entry::String) {
        de.path.set_index(index);
        return seed.deserialize(&mut *de);
    }
    let read = if entry == Entry::Name {
        de.reader.read_name()
    } else {
        de.reader.read_str()
    };
    let key = match read {
        Ok(key) => key,
        Err(err) => return Err(de.fix_core(err)),
    };
    let borrowed = de.source.borrow_str(key);
    de.path.set_key(borrowed, key);
    let key = KeyDeserializer {
        key,
        borrowed,
        human_readable: de.human_readable,
    };
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
        read_key(self.de, entry, index, seed).map(Some)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn size_hint(&self) -> Option<usize> {
        self.len.map(|len| len.saturating_sub(self.entries))
    }
}

/// An enum written as a map with one key: the variant name, then its content.
pub(crate) struct EnumAccess<'a, 'de, R> {
    de: &'a mut Deserializer<'de, R>,
}

impl<'a, 'de, R: Reader> EnumAccess<'a, 'de, R> {
    pub(crate) fn new(de: &'a mut Deserializer<'de, R>) -> Self {
        EnumAccess { de }
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
        let variant = read_key(self.de, entry, 0, seed)?;
        Ok((variant, self))
    }
}

impl<'de, R: Reader> de::VariantAccess<'de> for EnumAccess<'_, 'de, R> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(&mut *self.de)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_map(&mut *self.de, visitor)
    }
}
