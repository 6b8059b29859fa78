//! [`Flags<E>`]: a set of bit flags named by a `#[reflect(flags)]` enum.
//!
//! A Rust enum holds one variant, so the OR of several flags lives in `Flags<E>`: the bits,
//! with `E`'s variants naming them (their discriminants are the bit values). It reads and
//! writes as an enum token whose value is the OR of the set bits.

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;

use crate::info::{EnumInfo, GenericInfoCell, TypeKind, leak_str};
use crate::{Enum, Reflect, ReflectMut, ReflectRef, TypeInfo, Typed};

/// The OR of flags named by the variants of the flags enum `E`.
///
/// ```
/// use sluice_reflect::{Flags, Reflect};
/// #[derive(Reflect, Debug, Clone, Copy)]
/// #[reflect(flags)]
/// enum Access { Read = 1, Write = 2, Exec = 4 }
///
/// let mut access = Flags::<Access>::empty();
/// access.insert(Access::Read);
/// access.insert(Access::Exec);
/// assert_eq!(access.bits(), 5);
/// assert!(access.contains(Access::Exec));
/// assert!(!access.contains(Access::Write));
/// ```
pub struct Flags<E> {
    bits: i64,
    marker: PhantomData<fn() -> E>,
}

// Flags are small `Copy` enums: taking them by value reads naturally (`insert(Access::Read)`).
#[allow(clippy::needless_pass_by_value)]
impl<E: Typed> Flags<E> {
    /// No flag set.
    #[must_use]
    pub fn empty() -> Flags<E> {
        Flags::from_bits(0)
    }

    /// From raw bits (bits no variant names are kept).
    #[must_use]
    pub fn from_bits(bits: i64) -> Flags<E> {
        Flags {
            bits,
            marker: PhantomData,
        }
    }

    /// The raw bits.
    #[must_use]
    pub fn bits(&self) -> i64 {
        self.bits
    }

    fn bit_of(flag: &E) -> i64 {
        let index = match flag.reflect_ref() {
            ReflectRef::Enum(e) => e.variant_index(),
            _ => return 0,
        };
        E::info()
            .as_enum()
            .and_then(|info| info.variants.get(index))
            .map_or(0, |v| v.discriminant)
    }

    /// Sets a flag.
    pub fn insert(&mut self, flag: E) {
        self.bits |= Self::bit_of(&flag);
    }

    /// Clears a flag.
    pub fn remove(&mut self, flag: E) {
        self.bits &= !Self::bit_of(&flag);
    }

    /// Whether every bit of `flag` is set.
    #[must_use]
    pub fn contains(&self, flag: E) -> bool {
        let bit = Self::bit_of(&flag);
        self.bits & bit == bit
    }
}

impl<E> Clone for Flags<E> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<E> Copy for Flags<E> {}
impl<E> PartialEq for Flags<E> {
    fn eq(&self, other: &Self) -> bool {
        self.bits == other.bits
    }
}
impl<E> Eq for Flags<E> {}
impl<E> std::hash::Hash for Flags<E> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.bits.hash(state);
    }
}
impl<E> Default for Flags<E> {
    fn default() -> Self {
        Flags {
            bits: 0,
            marker: PhantomData,
        }
    }
}
impl<E> fmt::Debug for Flags<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Flags({:#x})", self.bits)
    }
}

impl<E: Typed> Reflect for Flags<E> {
    fn type_info(&self) -> &'static TypeInfo {
        <Self as Typed>::info()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
    fn reflect_ref(&self) -> ReflectRef<'_> {
        ReflectRef::Enum(self)
    }
    fn reflect_mut(&mut self) -> ReflectMut<'_> {
        ReflectMut::Enum(self)
    }
}

impl<E: Typed> Typed for Flags<E> {
    fn info() -> &'static TypeInfo {
        static CELL: GenericInfoCell = GenericInfoCell::new();
        CELL.get_or_init::<Self>(|| {
            let inner = E::info();
            let variants = inner.as_enum().map_or(&[][..], |info| info.variants);
            TypeInfo::new::<Self>(
                leak_str(format!("Flags<{}>", inner.name())),
                std::any::type_name::<Self>(),
                TypeKind::Enum(EnumInfo {
                    variants,
                    flags: true,
                    flags_of: Some(E::info),
                }),
            )
        })
    }
    fn reflect_default() -> Self {
        Flags::empty()
    }
}

impl<E: Typed> Enum for Flags<E> {
    fn enum_info(&self) -> &'static TypeInfo {
        <Self as Typed>::info()
    }
    /// The index of the variant that names all set bits exactly, else `usize::MAX`.
    fn variant_index(&self) -> usize {
        E::info()
            .as_enum()
            .and_then(|info| info.variant_by_discriminant(self.bits))
            .unwrap_or(usize::MAX)
    }
    fn set_variant_index(&mut self, index: usize) -> bool {
        match E::info()
            .as_enum()
            .and_then(|info| info.variants.get(index))
        {
            Some(variant) => {
                self.bits = variant.discriminant;
                true
            }
            None => false,
        }
    }
    fn field(&self, _: usize) -> Option<&dyn Reflect> {
        None
    }
    fn field_mut(&mut self, _: usize) -> Option<&mut dyn Reflect> {
        None
    }
    fn bits(&self) -> Option<i64> {
        Some(self.bits)
    }
    fn set_bits(&mut self, bits: i64) -> bool {
        self.bits = bits;
        true
    }
}
