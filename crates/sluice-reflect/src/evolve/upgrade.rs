//! Versions and the upgrade chain: converters, name changes and type changes.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use sluice_core::{Error, Result, Value};

use super::codes;
use super::tree::{ValueTree, from_value, to_value};
use crate::{Reflect, TypeInfo, TypeRegistry, Typed};

/// A version converter: reshapes the stored data of a type, as a [`Value`] tree, into the
/// shape of the version it is registered for.
pub type Converter = Arc<dyn Fn(&mut Value, &Upgrade<'_>) -> Result<()> + Send + Sync>;

/// What a converter knows about the step it runs in.
#[derive(Debug, Clone, Copy)]
pub struct Upgrade<'a> {
    /// The type being loaded.
    pub info: &'static TypeInfo,
    /// The version the data is at when the converter runs.
    pub from: u32,
    /// The version the converter brings the data to.
    pub to: u32,
    /// The registry of the call (to look types up).
    pub registry: &'a TypeRegistry,
}

type FieldConversion = Arc<dyn Fn(&Value) -> Result<Value> + Send + Sync>;

enum Patch {
    Type {
        field: String,
        convert: FieldConversion,
    },
    Name {
        old: String,
        new: String,
    },
}

/// A class-builder edit: applies to data at version `from`, brings it to `to`.
struct Edge {
    from: u32,
    to: u32,
    patch: Patch,
}

/// The versions of one type: its declared version, its converters and its builder edits.
#[derive(Default)]
pub(crate) struct VersionPlan {
    declared: u32,
    converters: BTreeMap<u32, Converter>,
    edges: Vec<Edge>,
}

impl std::fmt::Debug for VersionPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VersionPlan")
            .field("declared", &self.declared)
            .field("converters", &self.converters.keys().collect::<Vec<_>>())
            .field("edits", &self.edges.len())
            .finish()
    }
}

impl VersionPlan {
    pub(crate) fn declare(&mut self, version: u32) {
        self.declared = self.declared.max(version);
    }

    pub(crate) fn add_converter(&mut self, version: u32, converter: Converter) {
        self.converters.insert(version, converter);
    }

    pub(crate) fn add_name_change(&mut self, from: u32, to: u32, old: &str, new: &str) {
        self.edges.push(Edge {
            from,
            to,
            patch: Patch::Name {
                old: old.to_owned(),
                new: new.to_owned(),
            },
        });
    }

    pub(crate) fn add_type_change<A: Typed, B: Reflect>(
        &mut self,
        field: &str,
        from: u32,
        to: u32,
        convert: impl Fn(A) -> B + Send + Sync + 'static,
    ) {
        let convert: FieldConversion = Arc::new(move |stored| {
            let old: A = from_value(stored)?;
            to_value(&convert(old))
        });
        self.edges.push(Edge {
            from,
            to,
            patch: Patch::Type {
                field: field.to_owned(),
                convert,
            },
        });
    }

    /// Whether anything is registered beyond version 0.
    pub(crate) fn is_versioned(&self, info: &TypeInfo) -> bool {
        self.current(info) != 0
    }

    /// The version the code reads and writes: the highest of the type's own version, the
    /// declared one, and the targets of converters and edits.
    pub(crate) fn current(&self, info: &TypeInfo) -> u32 {
        let converters = self.converters.keys().next_back().copied().unwrap_or(0);
        let edges = self.edges.iter().map(|e| e.to).max().unwrap_or(0);
        info.version().max(self.declared).max(converters).max(edges)
    }

    /// Brings `data`, stored at version `stored`, to the current version.
    ///
    /// The versions where something happens are visited in order, from `stored` on. At
    /// version `v`: the type changes starting at `v`, then its name changes (each in
    /// registration order), then the converter registered for `v + 1`. An edit from `v` to
    /// `t` applies to data stored at `v` or older; data stored between `v` and `t` (versions
    /// the edit skips) already has the new shape. A converter for `n` applies to data older
    /// than `n`.
    pub(crate) fn upgrade(
        &self,
        data: &mut Value,
        stored: u32,
        info: &'static TypeInfo,
        registry: &TypeRegistry,
    ) -> Result<()> {
        let current = self.current(info);
        if stored > current {
            return Err(Error::new(
                codes::VERSION_TOO_NEW,
                format!(
                    "{} data is at version {stored}, newer than this code reads (version {current})",
                    info.name()
                ),
            ));
        }
        if let Some(edge) = self.edges.iter().find(|e| e.to <= e.from) {
            return Err(Error::new(
                codes::INVALID_EDIT,
                format!(
                    "{}: an edit goes from version {} to version {}, not forward",
                    info.name(),
                    edge.from,
                    edge.to
                ),
            ));
        }
        let mut levels: BTreeSet<u32> = self
            .edges
            .iter()
            .map(|e| e.from)
            .filter(|&from| from >= stored)
            .collect();
        levels.extend(self.converters.range(stored + 1..).map(|(n, _)| n - 1));
        let mut at = stored;
        for level in levels {
            let starting = || self.edges.iter().filter(move |e| e.from == level);
            let types = starting().filter(|e| matches!(e.patch, Patch::Type { .. }));
            let names = starting().filter(|e| matches!(e.patch, Patch::Name { .. }));
            for edge in types.chain(names) {
                let step = Upgrade {
                    info,
                    from: at.max(edge.from),
                    to: edge.to,
                    registry,
                };
                apply_patch(&edge.patch, data).map_err(|e| failed(&step, &e))?;
            }
            let reached = starting().map(|e| e.to).max();
            if let Some(converter) = self.converters.get(&(level + 1)) {
                let step = Upgrade {
                    info,
                    from: at,
                    to: level + 1,
                    registry,
                };
                converter(data, &step).map_err(|e| failed(&step, &e))?;
                at = level + 1;
            }
            at = at.max(reached.unwrap_or(at));
        }
        Ok(())
    }
}

fn apply_patch(patch: &Patch, data: &mut Value) -> Result<()> {
    match patch {
        Patch::Type { field, convert } => {
            // An absent field has nothing to convert: the current type's default fills it.
            if let Some(slot) = data.find_mut(field) {
                *slot = convert(slot).map_err(|error| {
                    Error::new(
                        error.code(),
                        format!("field `{field}`: {}", error.message()),
                    )
                })?;
            }
            Ok(())
        }
        Patch::Name { old, new } => data.rename_child(old, new).map(|_| ()),
    }
}

fn failed(step: &Upgrade<'_>, cause: &Error) -> Error {
    Error::new(
        codes::CONVERTER_FAILED,
        format!(
            "converting {} from version {} to version {} failed: {}",
            step.info.name(),
            step.from,
            step.to,
            cause.message()
        ),
    )
    .with_type_path(step.info.name())
    .with_note(format!("caused by {}", cause.code()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(crate::Reflect, Debug, Default, PartialEq)]
    struct Target {
        a: u32,
    }

    fn info() -> &'static TypeInfo {
        <Target as Typed>::info()
    }

    fn log_converter(log: &Arc<std::sync::Mutex<Vec<(u32, u32)>>>) -> Converter {
        let log = Arc::clone(log);
        Arc::new(move |data: &mut Value, step: &Upgrade<'_>| {
            log.lock().unwrap().push((step.from, step.to));
            data.insert(&format!("v{}", step.to), Value::Bool(true));
            Ok(())
        })
    }

    #[test]
    fn converters_chain_from_the_stored_version() {
        let log = Arc::new(std::sync::Mutex::new(Vec::new()));
        let mut plan = VersionPlan::default();
        plan.add_converter(1, log_converter(&log));
        plan.add_converter(2, log_converter(&log));
        plan.add_converter(4, log_converter(&log));
        assert_eq!(plan.current(info()), 4);
        let registry = TypeRegistry::new();
        let mut data = Value::Map(Vec::new());
        plan.upgrade(&mut data, 1, info(), &registry).unwrap();
        assert_eq!(*log.lock().unwrap(), vec![(1, 2), (2, 4)]);
        assert!(data.get("v1").is_none());
        assert!(data.get("v4").is_some());
    }

    #[test]
    fn type_changes_run_before_name_changes_of_the_same_step() {
        let mut plan = VersionPlan::default();
        // Registered name change first: the type change must still see the old name.
        plan.add_name_change(1, 2, "speed", "velocity");
        plan.add_type_change::<i64, f64>("speed", 1, 2, |v| v as f64 / 2.0);
        let registry = TypeRegistry::new();
        let mut data = Value::Map(vec![(Value::from("speed"), Value::from(3i64))]);
        plan.upgrade(&mut data, 1, info(), &registry).unwrap();
        assert_eq!(data.get("velocity").and_then(Value::as_f64), Some(1.5));
        assert!(data.get("speed").is_none());
    }

    #[test]
    fn edits_skip_versions_and_older_data_passes_unchanged_versions() {
        let mut plan = VersionPlan::default();
        plan.add_name_change(1, 3, "a", "b");
        plan.add_name_change(3, 4, "b", "c");
        let registry = TypeRegistry::new();
        for stored in [0, 1] {
            let mut data = Value::Map(vec![(Value::from("a"), Value::Null)]);
            plan.upgrade(&mut data, stored, info(), &registry).unwrap();
            assert_eq!(data.child_names_for_test(), ["c"], "stored {stored}");
        }
        let mut data = Value::Map(vec![(Value::from("b"), Value::Null)]);
        plan.upgrade(&mut data, 3, info(), &registry).unwrap();
        assert_eq!(data.child_names_for_test(), ["c"]);
    }

    #[test]
    fn failures_name_the_type_and_versions() {
        let mut plan = VersionPlan::default();
        plan.add_converter(
            2,
            Arc::new(|_: &mut Value, _: &Upgrade<'_>| Err(Error::custom("no"))),
        );
        let registry = TypeRegistry::new();
        let error = plan
            .upgrade(&mut Value::Null, 1, info(), &registry)
            .unwrap_err();
        assert_eq!(error.code(), codes::CONVERTER_FAILED);
        assert!(error.message().contains("Target") && error.message().contains("version 1"));
        let too_new = plan
            .upgrade(&mut Value::Null, 3, info(), &registry)
            .unwrap_err();
        assert_eq!(too_new.code(), codes::VERSION_TOO_NEW);
    }

    #[test]
    fn type_change_errors_and_backward_edits_are_coded() {
        let mut plan = VersionPlan::default();
        plan.add_type_change::<u8, u16>("a", 0, 1, u16::from);
        let registry = TypeRegistry::new();
        let mut data = Value::Map(vec![(Value::from("a"), Value::from("x"))]);
        let error = plan.upgrade(&mut data, 0, info(), &registry).unwrap_err();
        assert_eq!(error.code(), codes::CONVERTER_FAILED);
        assert!(error.message().contains("field `a`"));
        plan.add_name_change(2, 2, "a", "b");
        let mut data = Value::Map(vec![(Value::from("a"), Value::from(1u64))]);
        let error = plan.upgrade(&mut data, 0, info(), &registry).unwrap_err();
        assert_eq!(error.code(), codes::INVALID_EDIT);
    }

    #[test]
    fn fields_evolve_on_their_own_schedules() {
        // `hp` changes type from 1 straight to 3; `name` is renamed at 1 -> 2 and 2 -> 3.
        let mut plan = VersionPlan::default();
        plan.add_type_change::<u32, f64>("hp", 1, 3, f64::from);
        plan.add_name_change(1, 2, "name", "title");
        plan.add_name_change(2, 3, "title", "display_name");
        let registry = TypeRegistry::new();
        let mut v1 = Value::Map(vec![
            (Value::from("name"), Value::from("a")),
            (Value::from("hp"), Value::from(5u64)),
        ]);
        plan.upgrade(&mut v1, 1, info(), &registry).unwrap();
        assert_eq!(v1.child_names_for_test(), ["display_name", "hp"]);
        assert_eq!(v1.get("hp"), Some(&Value::from(5.0)));
        // Version 2 data already has the new `hp` (the type change skipped version 2).
        let mut v2 = Value::Map(vec![
            (Value::from("title"), Value::from("a")),
            (Value::from("hp"), Value::from(5.5)),
        ]);
        plan.upgrade(&mut v2, 2, info(), &registry).unwrap();
        assert_eq!(v2.child_names_for_test(), ["display_name", "hp"]);
        assert_eq!(v2.get("hp"), Some(&Value::from(5.5)));
    }

    trait NamesForTest {
        fn child_names_for_test(&self) -> Vec<String>;
    }
    impl NamesForTest for Value {
        fn child_names_for_test(&self) -> Vec<String> {
            self.child_names().into_iter().map(str::to_owned).collect()
        }
    }
}
