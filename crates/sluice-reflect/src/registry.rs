//! [`TypeRegistry`]: every reflected type by name and by [`Uuid`].
//!
//! Registering a type registers everything it reaches (field types, elements, keys, values,
//! variant payloads), so one call per root type is enough. The registry is what resolves a
//! `$type` name or id to a type that can be constructed.

use std::any::TypeId;
use std::collections::HashMap;

use uuid::Uuid;

use crate::{Reflect, TypeInfo, Typed};

/// Reflected types by short name, full type path, [`Uuid`] and `TypeId`.
///
/// ```
/// use sluice_reflect::{Reflect, TypeRegistry};
/// #[derive(Reflect, Debug, PartialEq)]
/// struct Enemy { name: String, hp: u32 }
/// #[derive(Reflect)]
/// struct Level { enemies: Vec<Enemy> }
///
/// let mut registry = TypeRegistry::new();
/// registry.register::<Level>();
/// let enemy = registry.get_by_name("Enemy").expect("reached through Level");
/// assert_eq!(registry.get_by_uuid(enemy.uuid()).map(|i| i.name()), Some("Enemy"));
/// let fresh = enemy.construct();
/// assert_eq!(fresh.downcast_ref::<Enemy>(), Some(&Enemy { name: String::new(), hp: 0 }));
/// ```
#[derive(Debug)]
pub struct TypeRegistry {
    by_uuid: HashMap<Uuid, &'static TypeInfo>,
    by_name: HashMap<&'static str, &'static TypeInfo>,
    by_type_id: HashMap<TypeId, &'static TypeInfo>,
    /// Marks and trait-object implementors, used by handler tables.
    pub(crate) extras: crate::handlers::RegistryExtras,
    /// Versions, converters, deprecations, events, overlays (see [`crate::evolve`]).
    pub(crate) evolution: crate::evolve::Evolution,
    /// Tells this registry's contents apart from any other registry's and from its own
    /// earlier contents: a new value on every change, so handler tables can keep answers
    /// that depend on the registry from one call to the next.
    stamp: u64,
}

/// A process-wide counter of registry contents (see `TypeRegistry::stamp`).
fn next_stamp() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Default for TypeRegistry {
    fn default() -> Self {
        TypeRegistry {
            by_uuid: HashMap::new(),
            by_name: HashMap::new(),
            by_type_id: HashMap::new(),
            extras: crate::handlers::RegistryExtras::default(),
            evolution: crate::evolve::Evolution::default(),
            stamp: next_stamp(),
        }
    }
}

impl TypeRegistry {
    /// An empty registry.
    #[must_use]
    pub fn new() -> TypeRegistry {
        TypeRegistry::default()
    }

    /// Registers `T` and every type it reaches.
    pub fn register<T: Typed>(&mut self) -> &mut TypeRegistry {
        self.register_info(T::info())
    }

    /// Registers a type by its info, and every type it reaches.
    pub fn register_info(&mut self, info: &'static TypeInfo) -> &mut TypeRegistry {
        self.changed();
        let mut pending = vec![info];
        while let Some(info) = pending.pop() {
            if self.by_type_id.insert(info.type_id(), info).is_some() {
                continue;
            }
            self.by_uuid.insert(info.uuid(), info);
            self.by_name.entry(info.name()).or_insert(info);
            self.by_name.entry(info.type_path()).or_insert(info);
            pending.extend(info.children());
        }
        self
    }

    /// Records a change of the contents (see `stamp`).
    pub(crate) fn changed(&mut self) {
        self.stamp = next_stamp();
    }

    /// Identifies the current contents: equal stamps mean the same registry, unchanged.
    pub(crate) fn stamp(&self) -> u64 {
        self.stamp
    }

    /// A type by its short name (`Settings`) or its full path (`game::Settings`). When two
    /// registered types share a short name, the first one registered answers to it.
    #[must_use]
    pub fn get_by_name(&self, name: &str) -> Option<&'static TypeInfo> {
        self.by_name.get(name).copied()
    }

    /// A type by its stable id.
    #[must_use]
    pub fn get_by_uuid(&self, uuid: Uuid) -> Option<&'static TypeInfo> {
        self.by_uuid.get(&uuid).copied()
    }

    /// The registered info of `T`, if registered.
    #[must_use]
    pub fn get<T: Reflect>(&self) -> Option<&'static TypeInfo> {
        self.by_type_id.get(&TypeId::of::<T>()).copied()
    }

    /// Whether `T` is registered.
    #[must_use]
    pub fn contains<T: Reflect>(&self) -> bool {
        self.by_type_id.contains_key(&TypeId::of::<T>())
    }

    /// Every registered type (in no particular order).
    pub fn iter(&self) -> impl Iterator<Item = &'static TypeInfo> + '_ {
        self.by_type_id.values().copied()
    }

    /// The number of registered types.
    #[must_use]
    pub fn len(&self) -> usize {
        self.by_type_id.len()
    }

    /// Whether nothing is registered.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.by_type_id.is_empty()
    }
}
