//! Properties of the `Value`-tree editing API converters use.

use proptest::prelude::*;
use sluice_core::Value;
use sluice_reflect::evolve::ValueTree;

const KEYS: &[&str] = &[
    "a",
    "b",
    "hp",
    "odd key",
    "q\"uote",
    "back\\slash",
    "$type",
    "9",
];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        "[a-z]{0,4}".prop_map(Value::from),
    ]
}

/// Trees whose maps have distinct keys (as stored objects do).
fn tree() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(prop::sample::select(KEYS), inner, 0..5).prop_map(
                |entries| {
                    Value::Map(
                        entries
                            .into_iter()
                            .map(|(k, v)| (Value::from(k), v))
                            .collect(),
                    )
                }
            ),
        ]
    })
}

proptest! {
    #[test]
    fn every_named_descendant_is_found_again_by_its_path(doc in tree(), name in prop::sample::select(KEYS)) {
        let found = doc.find_named(name);
        for (path, value) in &found {
            let text = path.to_string();
            prop_assert_eq!(doc.find(&text), Some(*value), "path {}", text);
        }
        let mut copy = doc.clone();
        let edited = copy.edit_named(name, &mut |_| {});
        prop_assert_eq!(edited, found.len());
        prop_assert_eq!(copy, doc);
    }

    #[test]
    fn removing_by_path_removes_exactly_that_value(doc in tree(), name in prop::sample::select(KEYS)) {
        let found = doc.find_named(name);
        if let Some((path, value)) = found.first() {
            let mut copy = doc.clone();
            let text = path.to_string();
            let removed = copy.remove_at(&text);
            prop_assert_eq!(removed.as_ref(), Some(*value));
            prop_assert!(copy.find(&text).is_none());
            prop_assert_eq!(copy.find_named(name).len() + 1, doc.find_named(name).len() - count_inside(value, name));
        }
    }

    #[test]
    fn renaming_keeps_order_and_values(doc in tree(), old in prop::sample::select(KEYS), new in prop::sample::select(KEYS)) {
        let mut copy = doc.clone();
        let names_before: Vec<String> = doc.child_names().into_iter().map(str::to_owned).collect();
        match copy.rename_child(old, new) {
            Ok(true) => {
                let names_after = copy.child_names();
                prop_assert_eq!(names_after.len(), names_before.len());
                for (before, after) in names_before.iter().zip(&names_after) {
                    let expected = if before == old { new } else { before.as_str() };
                    prop_assert_eq!(*after, expected);
                }
                prop_assert_eq!(copy.get(new), doc.get(old));
            }
            Ok(false) => {
                prop_assert!(old == new || doc.get(old).is_none());
                prop_assert_eq!(&copy, &doc);
            }
            Err(error) => {
                prop_assert_eq!(error.code(), sluice_reflect::evolve::codes::DUPLICATE_CHILD);
                prop_assert!(doc.get(new).is_some());
                prop_assert_eq!(&copy, &doc);
            }
        }
    }

    #[test]
    fn set_at_then_find_gives_the_value(doc in tree(), keys in prop::collection::vec(prop::sample::select(KEYS), 1..4), value in leaf()) {
        let Value::Map(_) = doc else { return Ok(()) };
        let mut copy = doc.clone();
        let path: sluice_core::Path = keys
            .iter()
            .map(|k| sluice_core::PathSegment::Key((*k).to_owned()))
            .collect();
        let text = path.to_string();
        if copy.set_at(&text, value.clone()).is_ok() {
            prop_assert_eq!(copy.find(&text), Some(&value));
        }
    }
}

/// How many descendants of `value` (excluded) are stored under `name`.
fn count_inside(value: &Value, name: &str) -> usize {
    value.find_named(name).len()
}
