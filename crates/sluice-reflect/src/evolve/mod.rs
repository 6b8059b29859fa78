//! Data that evolves: versions, converters, renames and type changes between versions,
//! deprecated types, per-type events, default omission, data overlays and custom
//! text / binary forms.
//!
//! Files outlive the code that wrote them. Everything here is registered in the
//! [`TypeRegistry`] and applied by the rules [`add_read_rules`] / [`add_write_rules`] put in
//! a handler table ([`json`], [`msgpack`], [`json_serializer`], [`msgpack_serializer`] give
//! the built-in sets with them):
//!
//! | registry call | effect |
//! |---|---|
//! | [`version::<T>(n, converter)`](TypeRegistry::version) | data older than `n` goes through `converter` (a [`Value`](sluice_core::Value) tree edit) |
//! | [`evolve::<T>()`](TypeRegistry::evolve) `.name_change(..)` / `.type_change(..)` | O3DE class-builder edits between versions |
//! | [`set_version::<T>(n)`](TypeRegistry::set_version) | the current version without a converter |
//! | [`deprecate(name, uuid)`](TypeRegistry::deprecate) | values of a removed type are dropped on load, with a [`Warning`] |
//! | [`on_read_begin`](TypeRegistry::on_read_begin), [`on_read_end`](TypeRegistry::on_read_end), [`on_write_begin`](TypeRegistry::on_write_begin), [`on_write_end`](TypeRegistry::on_write_end) | per-type events |
//! | [`overlay_provider(id, provider)`](TypeRegistry::overlay_provider) | `{"$overlay": "id/token"}` takes its value from the provider |
//! | [`data_serializer::<T>(s)`](TypeRegistry::data_serializer) | `T` as text in JSON and as bytes in MessagePack |
//!
//! In the data, the version is a `"$version": N` entry of the object, written when `N` is
//! not 0 (or always, with [`WriteOptions::always_write_version`]). MessagePack has the same
//! form: a map entry with the string key `"$version"` and an unsigned integer value.
//!
//! At each version `v` the stored data is at, the edits run in the order O3DE documents:
//! type changes from `v`, then name changes from `v`, then the converter for `v + 1`.
//!
//! See the book chapter "Evolving data" for a walk through a v1 → v3 migration.

mod custom;
mod events;
mod overlay;
mod rules;
mod tree;
mod upgrade;

use std::any::TypeId;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use sluice_core::{ErrorCode, Path};
use uuid::Uuid;

pub use custom::{DataSerializer, UuidBytes};
pub use overlay::OverlayProvider;
pub use rules::{
    DATA_SERIALIZER, DEPRECATED_ELEMENTS, DEPRECATED_ENTRIES, EVOLVE, ReadOptions, Target,
    WriteOptions, add_read_rules, add_write_rules, deserialize_with_warnings, json,
    json_serializer, msgpack, msgpack_serializer,
};
pub use tree::{ValueTree, from_value, parse_path, to_value, write_value_into};
pub use upgrade::{Converter, Upgrade};

use crate::{Reflect, TypeInfo, TypeRegistry, Typed};
use custom::ErasedSerializer;
use events::Events;
use upgrade::VersionPlan;

/// Error and warning codes of this module (category `evolve`).
pub mod codes {
    use sluice_core::ErrorCode;

    /// A converter or builder edit failed; the message names the type and the versions.
    pub const CONVERTER_FAILED: ErrorCode = ErrorCode::new("evolve", "ConverterFailed");
    /// The data is at a version newer than the code.
    pub const VERSION_TOO_NEW: ErrorCode = ErrorCode::new("evolve", "VersionTooNew");
    /// `"$version"` is not a non-negative integer that fits in `u32`.
    pub const INVALID_VERSION: ErrorCode = ErrorCode::new("evolve", "InvalidVersion");
    /// A name or type change whose target version is not above its source version.
    pub const INVALID_EDIT: ErrorCode = ErrorCode::new("evolve", "InvalidEdit");
    /// A path of the tree API does not parse.
    pub const INVALID_PATH: ErrorCode = ErrorCode::new("evolve", "InvalidPath");
    /// Nothing at a path of the tree API.
    pub const NOT_FOUND: ErrorCode = ErrorCode::new("evolve", "NotFound");
    /// A child was asked of a value that is not a map.
    pub const NOT_A_MAP: ErrorCode = ErrorCode::new("evolve", "NotAMap");
    /// A child name is already taken.
    pub const DUPLICATE_CHILD: ErrorCode = ErrorCode::new("evolve", "DuplicateChild");
    /// Warning: a value of a deprecated type was dropped.
    pub const DEPRECATED_DROPPED: ErrorCode = ErrorCode::new("evolve", "DeprecatedDropped");
    /// An `$overlay` reference is malformed (`"provider-id/token"` expected).
    pub const INVALID_OVERLAY: ErrorCode = ErrorCode::new("evolve", "InvalidOverlay");
    /// No overlay provider has this id, or the provider has no value for the token.
    pub const OVERLAY_NOT_FOUND: ErrorCode = ErrorCode::new("evolve", "OverlayNotFound");
}

/// Something a load noticed and went on with (a dropped deprecated value), collected for
/// the caller rather than printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// What happened, such as [`codes::DEPRECATED_DROPPED`].
    pub code: ErrorCode,
    /// A sentence for people.
    pub message: String,
    /// Where in the data.
    pub path: Path,
    /// The type concerned (the deprecated type's name as stored).
    pub type_name: String,
}

/// The warnings of a load. Pass one as the user data of
/// [`Deserializer::deserialize_into`](crate::Deserializer::deserialize_into) (or use
/// [`deserialize_with_warnings`]) to collect them; loads without one leave their warnings
/// in the registry, for [`TypeRegistry::take_warnings`].
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Warnings(pub Vec<Warning>);

impl Warnings {
    /// No warnings yet.
    #[must_use]
    pub fn new() -> Warnings {
        Warnings::default()
    }

    /// Whether nothing was noticed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The warnings in the order they happened.
    pub fn iter(&self) -> impl Iterator<Item = &Warning> {
        self.0.iter()
    }
}

/// What one type has registered.
#[derive(Debug, Default)]
struct TypeEvolution {
    versions: VersionPlan,
    events: Events,
}

/// Everything this module keeps in the [`TypeRegistry`] (one field, so other features of the
/// registry stay apart).
#[derive(Default)]
pub(crate) struct Evolution {
    types: HashMap<TypeId, TypeEvolution>,
    deprecated_names: HashMap<String, Uuid>,
    deprecated_uuids: HashSet<Uuid>,
    overlays: HashMap<String, Arc<dyn OverlayProvider>>,
    serializers: HashMap<TypeId, ErasedSerializer>,
    unclaimed_warnings: Mutex<Vec<Warning>>,
}

impl std::fmt::Debug for Evolution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evolution")
            .field("types", &self.types.len())
            .field(
                "deprecated",
                &self.deprecated_names.keys().collect::<Vec<_>>(),
            )
            .field("overlays", &self.overlays.keys().collect::<Vec<_>>())
            .field("data_serializers", &self.serializers.len())
            .finish_non_exhaustive()
    }
}

impl Evolution {
    fn of(&self, info: &TypeInfo) -> Option<&TypeEvolution> {
        self.types.get(&info.type_id())
    }

    /// Whether `type_name` (a name or a uuid in text) names a deprecated type.
    fn is_deprecated(&self, type_name: &str) -> bool {
        self.deprecated_names.contains_key(type_name)
            || Uuid::parse_str(type_name.trim_matches(['{', '}']))
                .is_ok_and(|uuid| self.deprecated_uuids.contains(&uuid))
    }

    fn has_deprecations(&self) -> bool {
        !self.deprecated_names.is_empty()
    }

    fn unclaimed(&self) -> std::sync::MutexGuard<'_, Vec<Warning>> {
        // A poisoned lock only means another load panicked; the list itself is fine.
        self.unclaimed_warnings
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn push_unclaimed(&self, warning: Warning) {
        self.unclaimed().push(warning);
    }
}

/// Registers the versions and edits of one type; from [`TypeRegistry::evolve`].
///
/// ```
/// use sluice_reflect::{Reflect, TypeRegistry};
/// #[derive(Reflect, Default)]
/// struct Player { health: f32, display_name: String }
///
/// let mut registry = TypeRegistry::new();
/// registry
///     .evolve::<Player>()
///     .type_change::<u32, f32>("hp", 1, 2, |hp| hp as f32)
///     .name_change(1, 2, "hp", "health")
///     .name_change(2, 3, "name", "display_name");
/// assert_eq!(registry.current_version::<Player>(), 3);
/// ```
#[derive(Debug)]
pub struct EvolveBuilder<'r, T> {
    registry: &'r mut TypeRegistry,
    marker: std::marker::PhantomData<fn() -> T>,
}

impl<T: Typed> EvolveBuilder<'_, T> {
    fn plan(&mut self) -> &mut VersionPlan {
        &mut self.registry.evolution_of::<T>().versions
    }

    /// Declares the current version (without a converter).
    pub fn version(&mut self, version: u32) -> &mut Self {
        self.plan().declare(version);
        self
    }

    /// Adds a converter for data older than `version` (see [`TypeRegistry::version`]).
    pub fn converter(
        &mut self,
        version: u32,
        converter: impl Fn(&mut sluice_core::Value, &Upgrade<'_>) -> sluice_core::Result<()>
        + Send
        + Sync
        + 'static,
    ) -> &mut Self {
        self.plan().add_converter(version, Arc::new(converter));
        self
    }

    /// Renames the child `old` to `new` for data stored at version `from` or older, on its
    /// way to `to`. `to` may skip versions: data stored between `from` and `to` already has
    /// the new name.
    pub fn name_change(&mut self, from: u32, to: u32, old: &str, new: &str) -> &mut Self {
        self.plan().add_name_change(from, to, old, new);
        self
    }

    /// Converts the child at `field` (a name or a path) from an `A` to a `B` with `convert`,
    /// for data stored at version `from` or older, on its way to `to` (which may skip
    /// versions, as for [`name_change`](Self::name_change)). At each version, type changes
    /// run before name changes, so `field` is the name the data has at `from`. An absent
    /// field is left absent.
    pub fn type_change<A: Typed, B: Reflect>(
        &mut self,
        field: &str,
        from: u32,
        to: u32,
        convert: impl Fn(A) -> B + Send + Sync + 'static,
    ) -> &mut Self {
        self.plan().add_type_change(field, from, to, convert);
        self
    }
}

/// Versions, converters, deprecation, events, overlays and data serializers.
impl TypeRegistry {
    fn evolution_of<T: Typed>(&mut self) -> &mut TypeEvolution {
        // Tables remember answers per registry state: every change here is a new state.
        self.changed();
        self.register::<T>();
        self.evolution.types.entry(TypeId::of::<T>()).or_default()
    }

    /// The builder of `T`'s versions and edits (and registers `T`).
    pub fn evolve<T: Typed>(&mut self) -> EvolveBuilder<'_, T> {
        self.register::<T>();
        EvolveBuilder {
            registry: self,
            marker: std::marker::PhantomData,
        }
    }

    /// Makes `version` a version of `T`: data stored at an older version goes through
    /// `converter` (with the data as a [`Value`](sluice_core::Value) tree) before it is
    /// written into `T`. Converters chain: data at version 1 of a type with converters for 2
    /// and 3 goes through both, in order.
    ///
    /// ```
    /// use sluice_core::Value;
    /// use sluice_reflect::{Reflect, TypeRegistry, evolve::ValueTree};
    /// #[derive(Reflect, Debug, Default, PartialEq)]
    /// struct Window { width: u32, height: u32 }
    ///
    /// let mut registry = TypeRegistry::new();
    /// // Version 1 stored the size as "size": [w, h].
    /// registry.version::<Window>(1, |data, _| {
    ///     if let Some(size) = data.remove_child("size") {
    ///         let [w, h]: [u32; 2] = sluice_reflect::evolve::from_value(&size)?;
    ///         data.add_child("width", Value::from(u64::from(w)))?;
    ///         data.add_child("height", Value::from(u64::from(h)))?;
    ///     }
    ///     Ok(())
    /// });
    /// let old = Value::Map(vec![(Value::from("size"), Value::Array(vec![Value::from(640u64), Value::from(480u64)]))]);
    /// let window: Window = sluice_reflect::evolve::json()
    ///     .deserialize(&mut sluice_core::ValueReader::new(&old), &registry)?;
    /// assert_eq!(window, Window { width: 640, height: 480 });
    /// # Ok::<(), sluice_core::Error>(())
    /// ```
    pub fn version<T: Typed>(
        &mut self,
        version: u32,
        converter: impl Fn(&mut sluice_core::Value, &Upgrade<'_>) -> sluice_core::Result<()>
        + Send
        + Sync
        + 'static,
    ) -> &mut TypeRegistry {
        self.evolution_of::<T>()
            .versions
            .add_converter(version, Arc::new(converter));
        self
    }

    /// Declares `version` as `T`'s current version without a converter (the data of older
    /// versions reads as it is). `#[reflect(version = N)]` does the same.
    pub fn set_version<T: Typed>(&mut self, version: u32) -> &mut TypeRegistry {
        self.evolution_of::<T>().versions.declare(version);
        self
    }

    /// The version `T` is written at: the highest of its `#[reflect(version)]`, the declared
    /// one and those of its converters and edits.
    #[must_use]
    pub fn current_version<T: Typed>(&self) -> u32 {
        self.current_version_of(T::info())
    }

    /// [`current_version`](Self::current_version) by type info.
    #[must_use]
    pub fn current_version_of(&self, info: &'static TypeInfo) -> u32 {
        self.evolution
            .of(info)
            .map_or(info.version(), |e| e.versions.current(info))
    }

    /// Marks the type once called `type_name`, with id `uuid`, as removed: a value whose
    /// `"$type"` is that name or uuid is dropped on load (a list loses the element, a map
    /// with `String` keys the entry, a field keeps its value) and a [`Warning`] with [`codes::DEPRECATED_DROPPED`] is collected.
    pub fn deprecate(&mut self, type_name: &str, uuid: Uuid) -> &mut TypeRegistry {
        self.changed();
        self.evolution
            .deprecated_names
            .insert(type_name.to_owned(), uuid);
        self.evolution.deprecated_uuids.insert(uuid);
        self
    }

    /// Whether `type_name` (a name or a uuid in text) was [deprecated](Self::deprecate).
    #[must_use]
    pub fn is_deprecated(&self, type_name: &str) -> bool {
        self.evolution.is_deprecated(type_name)
    }

    /// Takes the warnings of loads that had no [`Warnings`] of their own to put them in.
    pub fn take_warnings(&self) -> Vec<Warning> {
        std::mem::take(&mut *self.evolution.unclaimed())
    }

    /// Calls `hook` on a `T` before it is read (it holds its previous contents).
    ///
    /// Events are called for named structs (and for them inside trait objects), whose
    /// reading and writing the [`EVOLVE`] rule takes over.
    pub fn on_read_begin<T: Typed>(
        &mut self,
        hook: impl Fn(&mut T) + Send + Sync + 'static,
    ) -> &mut TypeRegistry {
        self.evolution_of::<T>()
            .events
            .read_begin
            .push(events::typed_mut(hook));
        self
    }

    /// Calls `hook` on a `T` after it was read: the place to rebuild what is derived from
    /// the stored fields (an index, a cache).
    pub fn on_read_end<T: Typed>(
        &mut self,
        hook: impl Fn(&mut T) + Send + Sync + 'static,
    ) -> &mut TypeRegistry {
        self.evolution_of::<T>()
            .events
            .read_end
            .push(events::typed_mut(hook));
        self
    }

    /// Calls `hook` before a `T` is written.
    pub fn on_write_begin<T: Typed>(
        &mut self,
        hook: impl Fn(&T) + Send + Sync + 'static,
    ) -> &mut TypeRegistry {
        self.evolution_of::<T>()
            .events
            .write_begin
            .push(events::typed_ref(hook));
        self
    }

    /// Calls `hook` after a `T` was written.
    pub fn on_write_end<T: Typed>(
        &mut self,
        hook: impl Fn(&T) + Send + Sync + 'static,
    ) -> &mut TypeRegistry {
        self.evolution_of::<T>()
            .events
            .write_end
            .push(events::typed_ref(hook));
        self
    }

    /// Registers an overlay provider: a value written `{"$overlay": "id/token"}` in the data
    /// is replaced, on load, by what `provider` gives for `token`.
    pub fn overlay_provider(
        &mut self,
        id: &str,
        provider: impl OverlayProvider + 'static,
    ) -> &mut TypeRegistry {
        self.changed();
        self.evolution
            .overlays
            .insert(id.to_owned(), Arc::new(provider));
        self
    }

    /// Gives `T` a text form (used by JSON) and a binary form (used by MessagePack), as
    /// Lumberyard's `IDataSerializer` does.
    pub fn data_serializer<T: Typed>(
        &mut self,
        serializer: impl DataSerializer<T> + 'static,
    ) -> &mut TypeRegistry {
        self.changed();
        self.register::<T>();
        self.evolution
            .serializers
            .insert(TypeId::of::<T>(), ErasedSerializer::new(serializer));
        self
    }
}
