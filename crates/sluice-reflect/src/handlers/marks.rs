//! What handler rules look at besides the type itself: the kind of a type ([`KindKey`]),
//! marks set on types in the registry ([`Mark`]), and the implementors of trait objects.

use std::any::TypeId;
use std::sync::Arc;

use crate::{Reflect, TypeInfo, TypeKind, TypeRegistry, Typed};

use super::TypeIdMap;

/// The kind of a type, as the key of kind handlers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KindKey {
    /// bool, numbers, char, strings.
    Scalar,
    /// `Uuid`.
    Uuid,
    /// Structs (named, tuple, unit).
    Struct,
    /// Enums, flags included.
    Enum,
    /// Growable lists.
    List,
    /// Fixed arrays.
    Array,
    /// Maps.
    Map,
    /// Sets.
    Set,
    /// `Option<T>`.
    Option,
    /// `Box<T>` and trait objects.
    Box,
    /// Tuples.
    Tuple,
}

impl KindKey {
    /// The number of kinds.
    pub const COUNT: usize = 11;

    /// Every kind.
    pub const ALL: [KindKey; KindKey::COUNT] = [
        KindKey::Scalar,
        KindKey::Uuid,
        KindKey::Struct,
        KindKey::Enum,
        KindKey::List,
        KindKey::Array,
        KindKey::Map,
        KindKey::Set,
        KindKey::Option,
        KindKey::Box,
        KindKey::Tuple,
    ];

    /// The kind of `info`.
    #[must_use]
    pub fn of(info: &TypeInfo) -> KindKey {
        match info.kind() {
            TypeKind::Scalar(_) => KindKey::Scalar,
            TypeKind::Uuid => KindKey::Uuid,
            TypeKind::Struct(_) => KindKey::Struct,
            TypeKind::Enum(_) => KindKey::Enum,
            TypeKind::List { .. } => KindKey::List,
            TypeKind::Array { .. } => KindKey::Array,
            TypeKind::Map { .. } => KindKey::Map,
            TypeKind::Set { .. } => KindKey::Set,
            TypeKind::Option { .. } => KindKey::Option,
            TypeKind::Box { .. } => KindKey::Box,
            TypeKind::Tuple { .. } => KindKey::Tuple,
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// A mark set on a type in the registry, asking the built-in conventions for a special form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mark {
    /// A list of bytes (`Vec<u8>`): base64 text in JSON, raw bytes (bin) in MessagePack.
    Blob,
    /// A math vector: a struct of 2 to 4 numeric fields (x, y, z, w), read from arrays of any
    /// length or from objects with x / y / z / w keys, written as an array on one line.
    /// Fixed arrays of 2 to 4 floats are vectors without a mark.
    Vector,
    /// A color: a struct of 3 or 4 float fields (r, g, b, a in 0..=1), read from the forms of
    /// [`builtin::COLOR`](super::builtin::COLOR), written as `[r, g, b, a]` on one line.
    Color,
}

impl Mark {
    fn bit(self) -> u32 {
        match self {
            Mark::Blob => 1,
            Mark::Vector => 2,
            Mark::Color => 4,
        }
    }
}

/// Replaces the trait object at a place with a fresh value of one implementor.
pub(crate) type Assign = Arc<dyn Fn(&mut dyn Reflect) -> bool + Send + Sync>;

/// How a registered implementor of a trait object is made and reached.
#[derive(Clone)]
pub(crate) struct Implementor {
    /// The concrete type.
    pub(crate) info: &'static TypeInfo,
    /// Replaces the trait object at the place with a fresh value of the concrete type.
    pub(crate) assign: Assign,
}

/// How the value inside a trait-object box is reached.
#[derive(Clone, Copy)]
pub(crate) struct Base {
    pub(crate) inner: fn(&dyn Reflect) -> Option<&dyn Reflect>,
    pub(crate) inner_mut: fn(&mut dyn Reflect) -> Option<&mut dyn Reflect>,
}

/// What handler tables keep in the [`TypeRegistry`]: marks and trait-object implementors.
#[derive(Default)]
pub struct RegistryExtras {
    marks: TypeIdMap<u32>,
    bases: TypeIdMap<(Base, Vec<Implementor>)>,
}

impl std::fmt::Debug for RegistryExtras {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegistryExtras")
            .field("marks", &self.marks.len())
            .field("polymorphic_bases", &self.bases.len())
            .finish()
    }
}

/// A box of a trait object whose trait has [`Reflect`] as a supertrait, such as
/// `Box<dyn Shape>`: the bridge that lets handler tables reach the value inside.
/// Implemented by [`reflect_trait_object!`](crate::reflect_trait_object).
pub trait TraitObjectBox: Typed {
    /// The value inside, as a reflected value.
    fn inner(&self) -> &dyn Reflect;
    /// The value inside, mutably.
    fn inner_mut(&mut self) -> &mut dyn Reflect;
}

impl TypeRegistry {
    /// Sets `mark` on `T` (and registers `T`).
    ///
    /// ```
    /// use sluice_reflect::{TypeRegistry, handlers::Mark};
    /// let mut registry = TypeRegistry::new();
    /// registry.mark::<Vec<u8>>(Mark::Blob);
    /// assert!(registry.has_mark(<Vec<u8> as sluice_reflect::Typed>::info(), Mark::Blob));
    /// ```
    pub fn mark<T: Typed>(&mut self, mark: Mark) -> &mut TypeRegistry {
        self.register::<T>();
        *self.extras.marks.entry(TypeId::of::<T>()).or_default() |= mark.bit();
        self.changed();
        self
    }

    /// Whether the type of `info` carries `mark`.
    #[must_use]
    pub fn has_mark(&self, info: &TypeInfo, mark: Mark) -> bool {
        self.extras
            .marks
            .get(&info.type_id())
            .is_some_and(|bits| bits & mark.bit() != 0)
    }

    /// Registers `T` as an implementor of the trait object boxed in `B` (such as
    /// `Box<dyn Shape>`), so a `B` field is read from `{"$type": "T", ...}`. `wrap` boxes a
    /// `T` as a `B` (usually `|t| Box::new(t)`).
    ///
    /// See [`reflect_trait_object!`](crate::reflect_trait_object) for a whole example.
    pub fn register_polymorphic<B: TraitObjectBox, T: Typed>(
        &mut self,
        wrap: fn(T) -> B,
    ) -> &mut TypeRegistry {
        self.register::<B>();
        self.register::<T>();
        let base = Base {
            inner: |value| value.downcast_ref::<B>().map(TraitObjectBox::inner),
            inner_mut: |value| value.downcast_mut::<B>().map(TraitObjectBox::inner_mut),
        };
        let implementor = Implementor {
            info: T::info(),
            assign: Arc::new(move |place| match place.downcast_mut::<B>() {
                Some(slot) => {
                    *slot = wrap(T::reflect_default());
                    true
                }
                None => false,
            }),
        };
        let entry = self
            .extras
            .bases
            .entry(TypeId::of::<B>())
            .or_insert_with(|| (base, Vec::new()));
        entry.1.retain(|i| i.info.type_id() != T::info().type_id());
        entry.1.push(implementor);
        self.changed();
        self
    }

    /// The registered implementors of the trait object boxed in the type of `info`, in
    /// registration order; `None` when it is not a registered trait object.
    #[must_use]
    pub fn implementors(&self, info: &TypeInfo) -> Option<Vec<&'static TypeInfo>> {
        self.extras
            .bases
            .get(&info.type_id())
            .map(|(_, list)| list.iter().map(|i| i.info).collect())
    }

    pub(crate) fn polymorphic_base(&self, info: &TypeInfo) -> Option<&(Base, Vec<Implementor>)> {
        self.extras.bases.get(&info.type_id())
    }
}
