//! Handler tables: customisable (de)serialization chosen per type at run time.
//!
//! A [`Deserializer`] reads any [`Reader`](sluice_core::Reader) into a `&mut dyn Reflect`; a
//! [`Serializer`] writes a `&dyn Reflect` to any [`Writer`](sluice_core::Writer). Both consult
//! a table for every value, in this order:
//!
//! 1. rules (a predicate on the type, optionally narrowed to some [`EntrySet`] of input
//!    tokens, and a handler), highest priority first, in insertion order among equals;
//! 2. a handler registered for the type's [`Uuid`](uuid::Uuid);
//! 3. a handler registered for the type's [`KindKey`];
//! 4. else the value fails with [`NO_MATCHING_HANDLER`](crate::codes::NO_MATCHING_HANDLER),
//!    naming the type and the data path.
//!
//! A handler is either [`plain`](ReadAction::Plain) (the default shapes of
//! [`PropertyWriter`](crate::PropertyWriter) / [`PropertyReader`](crate::PropertyReader), whose
//! children go back through the table) or a closure over a context that can read or write the
//! whole value itself and recurse for children.
//!
//! Why a table rather than traits: the same Rust type is written differently for different
//! targets (a `Vec<u8>` as base64 in JSON and as raw bytes in MessagePack), and users change
//! the rules at run time without touching the types. Predicate answers depend only on the
//! type, so each deserialize / serialize call evaluates them once per type it meets and keeps
//! the answer: a table with many rules costs nothing per value. A type that nothing in the
//! table claims, down to its last field, is copied in one tight loop as a bare
//! [`pipe`](fn@sluice_core::pipe) would.
//!
//! The built-in sets are in [`builtin`]: [`builtin::json`], [`builtin::msgpack`],
//! [`builtin::pipe`] and their relaxed / strict variants.

pub mod builtin;
mod de;
mod entry_set;
mod geometry;
mod marks;
pub mod option_writers;
pub mod options;
mod rule_list;
mod ser;
mod trait_object;

pub use de::{
    Deserializer, Lookahead, ReadAction, ReadContext, ReadHandler, ReadSession, TypedReads,
};
pub use entry_set::EntrySet;
pub use marks::{KindKey, Mark, RegistryExtras, TraitObjectBox};
pub use options::{FloatFormat, SerializeOptions, TypeTags};
pub use ser::{Serializer, WriteAction, WriteContext, WriteHandler, WriteSession};
pub use trait_object::note_trait_object;

use std::sync::Arc;

use crate::{TypeInfo, TypeKind, TypeRegistry};

/// A predicate on a type: whether a rule applies to values of this type. It may consult the
/// registry (marks, polymorphic bases). Its answer is cached per type for one call.
pub type TypePredicate = Arc<dyn Fn(&'static TypeInfo, &TypeRegistry) -> bool + Send + Sync>;

/// For every type reachable from `root`: whether it and everything it reaches is plain, given
/// `locally_plain` for single types. A trait-object box is never plain: the value inside may be
/// of any implementor.
pub(crate) fn plain_closure(
    root: &'static TypeInfo,
    mut locally_plain: impl FnMut(&'static TypeInfo) -> bool,
) -> Vec<(&'static TypeInfo, bool)> {
    let mut index: TypeIdMap<usize> = TypeIdMap::default();
    let mut found: Vec<(&'static TypeInfo, bool, Vec<&'static TypeInfo>)> = Vec::new();
    let mut pending = vec![root];
    while let Some(info) = pending.pop() {
        if index.contains_key(&info.type_id()) {
            continue;
        }
        index.insert(info.type_id(), found.len());
        let trait_object = matches!(info.kind(), TypeKind::Box { .. })
            && trait_object::is_trait_object(info.type_id());
        let plain = !trait_object && locally_plain(info);
        let children = info.children();
        pending.extend(children.iter().copied());
        found.push((info, plain, children));
    }
    let mut nodes: Vec<(&'static TypeInfo, bool, Vec<usize>)> = found
        .into_iter()
        .map(|(info, plain, children)| {
            let links = children
                .iter()
                .filter_map(|child| index.get(&child.type_id()).copied())
                .collect();
            (info, plain, links)
        })
        .collect();
    // A type stops being plain when one of its children is not: spread until nothing changes
    // (cycles of plain types stay plain).
    let mut changed = true;
    while changed {
        changed = false;
        for at in 0..nodes.len() {
            if nodes[at].1 && nodes[at].2.iter().any(|&child| !nodes[child].1) {
                nodes[at].1 = false;
                changed = true;
            }
        }
    }
    nodes
        .into_iter()
        .map(|(info, plain, _)| (info, plain))
        .collect()
}

/// Which root types read (or write) plain with a table, remembered from one call to the next
/// for one registry state (predicates may look at the registry). Working it out walks every
/// type the root reaches, which would cost more than reading a small document.
#[derive(Default)]
pub(crate) struct PlainRoots {
    known: std::sync::RwLock<(u64, TypeIdMap<bool>)>,
}

impl PlainRoots {
    /// The remembered answer for the root `info` under the registry state `stamp`.
    pub(crate) fn get(&self, stamp: u64, info: &TypeInfo) -> Option<bool> {
        let known = self
            .known
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if known.0 != stamp {
            return None;
        }
        known.1.get(&info.type_id()).copied()
    }

    /// Remembers an answer; answers for another registry state are dropped.
    pub(crate) fn put(&self, stamp: u64, info: &TypeInfo, plain: bool) {
        let mut known = self
            .known
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if known.0 != stamp {
            *known = (stamp, TypeIdMap::default());
        }
        known.1.insert(info.type_id(), plain);
    }

    /// Forgets everything (the table changed).
    pub(crate) fn clear(&mut self) {
        *self
            .known
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = (0, TypeIdMap::default());
    }
}

impl Clone for PlainRoots {
    fn clone(&self) -> Self {
        PlainRoots::default()
    }
}

/// The fast hasher of the per-call caches (type ids are already well mixed).
#[derive(Default, Clone, Copy)]
pub(crate) struct TypeIdHasher(u64);

impl std::hash::Hasher for TypeIdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(byte)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

pub(crate) type TypeIdMap<V> =
    std::collections::HashMap<std::any::TypeId, V, std::hash::BuildHasherDefault<TypeIdHasher>>;

#[cfg(test)]
mod tests {
    use super::plain_closure;
    use crate::{Reflect, TypeInfo, Typed};

    #[derive(Reflect)]
    struct Node {
        value: u32,
        next: Option<Box<Node>>,
    }

    trait Part: Reflect {}

    #[derive(Reflect, Default)]
    struct Leaf {
        value: u8,
    }

    impl Part for Leaf {}

    crate::reflect_trait_object!(Part, default = Leaf);

    #[derive(Reflect)]
    struct Holder {
        part: Box<dyn Part>,
    }

    fn plain_of(graph: &[(&'static TypeInfo, bool)], info: &TypeInfo) -> bool {
        graph
            .iter()
            .find(|(i, _)| i.type_id() == info.type_id())
            .is_some_and(|(_, plain)| *plain)
    }

    #[test]
    fn recursive_plain_types_through_boxes_stay_plain() {
        let graph = plain_closure(Node::info(), |_| true);
        assert!(plain_of(&graph, Node::info()));
        assert!(plain_of(&graph, <Option<Box<Node>>>::info()));
        // One type that is not plain spoils every type that reaches it, cycles included.
        let graph = plain_closure(Node::info(), |info| info.name() != "u32");
        assert!(!plain_of(&graph, Node::info()));
        assert!(!plain_of(&graph, <Box<Node>>::info()));
    }

    #[test]
    fn trait_object_boxes_are_never_plain() {
        let graph = plain_closure(Holder::info(), |_| true);
        assert!(!plain_of(&graph, Holder::info()));
        assert!(!plain_of(&graph, <Box<dyn Part>>::info()));
        assert!(plain_of(&graph, Leaf::info()));
    }
}
