//! Handler tables: lookup order, priorities, context, caching and the plain fast path.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use sluice_core::{Entry, PathSegment, Reader, Token, Writer};
use sluice_json::{JsonOptions, JsonReader, JsonWriter, SliceInput, WriterOptions};
use sluice_reflect::handlers::{
    Deserializer, EntrySet, KindKey, ReadAction, ReadContext, Serializer, WriteAction, builtin,
};
use sluice_reflect::{PropertyWriter, Reflect, TypeRegistry, Typed, codes};

#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
enum Level {
    Low,
    High = 10,
}

#[derive(Reflect, Debug, Clone, PartialEq)]
struct Item {
    id: u32,
    label: String,
}

#[derive(Reflect, Debug, Clone, PartialEq)]
struct Config {
    name: String,
    level: Level,
    items: Vec<Item>,
}

fn read<T: Typed>(table: &Deserializer, text: &str) -> sluice_core::Result<T> {
    let mut reader = JsonReader::new(SliceInput::new(text.as_bytes()), JsonOptions::relaxed());
    table.deserialize(&mut reader, &TypeRegistry::new())
}

fn write(table: &Serializer, value: &dyn Reflect) -> String {
    let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
    table
        .serialize(value, &mut writer, &TypeRegistry::new())
        .expect("serialize");
    writer.into_string().expect("utf-8")
}

const CONFIG: &str = r#"{"name": "a", "level": "High", "items": [{"id": 1, "label": "x"}, {"id": 2, "label": "y"}]}"#;

fn config() -> Config {
    Config {
        name: "a".into(),
        level: Level::High,
        items: vec![
            Item {
                id: 1,
                label: "x".into(),
            },
            Item {
                id: 2,
                label: "y".into(),
            },
        ],
    }
}

fn plain(ctx: &mut ReadContext<'_, '_>) -> sluice_core::Result<()> {
    ctx.read_plain()
}

fn noop(_: &mut ReadContext<'_, '_>) -> sluice_core::Result<()> {
    Ok(())
}

#[test]
fn rules_are_ordered_by_priority_then_insertion() {
    let mut table = Deserializer::new();
    table.add_at(10, "ten", |_, _| false, EntrySet::ALL, noop);
    table.add_at(20, "twenty", |_, _| false, EntrySet::ALL, noop);
    table.add_at(10, "ten again", |_, _| false, EntrySet::ALL, noop);
    table.add_first("first", |_, _| false, EntrySet::ALL, noop);
    table.add_last("last", |_, _| false, EntrySet::ALL, noop);
    assert_eq!(
        table.rules(),
        [
            ("first", 21),
            ("twenty", 20),
            ("ten", 10),
            ("ten again", 10),
            ("last", 9)
        ]
    );
    assert!(table.remove("ten"));
    assert!(!table.remove("ten"));
    assert_eq!(table.rule_names(), ["first", "twenty", "ten again", "last"]);
}

#[test]
fn the_built_in_sets_list_their_rules_in_priority_order() {
    assert_eq!(
        builtin::json().rule_names(),
        [
            builtin::POLYMORPHIC,
            builtin::BLOB,
            builtin::COLOR,
            builtin::VECTOR,
            builtin::FLAGS,
            builtin::ENUM_NAME,
            builtin::KEY_VALUE_MAP,
        ]
    );
    let relaxed = builtin::json_relaxed();
    assert_eq!(relaxed.rule_names().last(), Some(&builtin::COERCE));
    assert!(builtin::pipe().rule_names().is_empty());
    assert_eq!(
        builtin::json_serializer().rule_names(),
        [
            builtin::POLYMORPHIC,
            builtin::BLOB,
            builtin::COLOR,
            builtin::VECTOR,
            builtin::FLAGS,
            builtin::KEY_VALUE_MAP,
            builtin::SORTED_SET,
        ]
    );
}

#[test]
fn a_user_rule_added_first_overrides_a_built_in_one() {
    let mut table = builtin::json();
    // Levels as numbers of stars.
    table.add_first(
        "stars",
        |info, _| info.type_id() == Level::info().type_id(),
        EntrySet::STRING,
        |ctx| {
            let stars = ctx.reader.read_str()?.chars().filter(|c| *c == '*').count();
            let level = if stars > 2 { Level::High } else { Level::Low };
            *ctx.target.downcast_mut::<Level>().expect("a Level") = level;
            Ok(())
        },
    );
    let text = r#"{"name": "a", "level": "***", "items": []}"#;
    assert_eq!(read_config(&table, text).level, Level::High);
    // Inputs the rule does not take (a number) still reach the plain path.
    let text = r#"{"name": "a", "level": 10, "items": []}"#;
    assert_eq!(read_config(&table, text).level, Level::High);
}

fn read_config(table: &Deserializer, text: &str) -> Config {
    read(table, text).expect("config")
}

#[test]
fn replace_keeps_the_predicate_and_priority() {
    let mut table = builtin::json();
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&calls);
    assert!(table.replace(builtin::ENUM_NAME, move |ctx| {
        seen.fetch_add(1, Ordering::Relaxed);
        ctx.read_plain()
    }));
    assert!(!table.replace("no such rule", noop));
    assert_eq!(read_config(&table, CONFIG), config());
    assert_eq!(calls.load(Ordering::Relaxed), 1);
    assert_eq!(table.rule_names(), builtin::json().rule_names());
}

/// The pipe table with a handler for `Item` by its uuid, which reads every item as id 99.
fn items_by_uuid() -> sluice_reflect::handlers::Deserializer {
    let mut table = builtin::pipe();
    table.on_type::<Item>(|ctx| {
        ctx.reader.skip()?;
        *ctx.target.downcast_mut::<Item>().expect("an Item") = Item {
            id: 99,
            label: "by uuid".into(),
        };
        Ok(())
    });
    table
}

#[test]
fn uuid_handlers_come_after_rules_and_before_kind_handlers() {
    let mut table = items_by_uuid();
    let read = read_config(&table, CONFIG);
    assert!(read.items.iter().all(|item| item.id == 99));
    // A rule for the same type wins over the uuid handler.
    table.add_first(
        "rule",
        |info, _| info.name() == "Item",
        EntrySet::MAP,
        plain,
    );
    assert_eq!(read_config(&table, CONFIG), config());
}

#[test]
fn no_matching_handler_names_the_type_and_the_path() {
    let mut table = Deserializer::new();
    for kind in [KindKey::Struct, KindKey::List, KindKey::Enum] {
        table.on_kind(kind, Some(ReadAction::Plain));
    }
    table.on_type::<String>(plain);
    let error = read::<Config>(&table, CONFIG).expect_err("no handler for u32");
    assert_eq!(error.code(), codes::NO_MATCHING_HANDLER);
    assert_eq!(
        error.path().map(ToString::to_string).as_deref(),
        Some("$.items[0].id")
    );
    assert!(error.message().contains("u32"), "{}", error.message());
    let start = CONFIG.find("1,").expect("the id");
    assert_eq!(error.span().map(|s| s.start), Some(start));

    let mut table = Serializer::new();
    table.on_kind(KindKey::Struct, Some(WriteAction::Plain));
    let mut writer = JsonWriter::new(Vec::new(), WriterOptions::condensed());
    let error = table
        .serialize(&config(), &mut writer, &TypeRegistry::new())
        .expect_err("no handler for String");
    assert_eq!(error.code(), codes::NO_MATCHING_HANDLER);
    assert_eq!(
        error.path().map(ToString::to_string).as_deref(),
        Some("$.name")
    );
    assert!(error.message().contains("String"), "{}", error.message());
}

#[test]
fn handlers_see_path_type_user_data_and_can_recurse() {
    let mut table = builtin::json();
    // Items are written as [id, label] pairs; each part goes back through the table.
    table.add_first(
        "item pairs",
        |info, _| info.name() == "Item",
        EntrySet::ARRAY,
        |ctx| {
            assert_eq!(ctx.info.name(), "Item");
            let path = ctx.path.to_string();
            if let Some(paths) = ctx.user_data().downcast_mut::<Vec<String>>() {
                paths.push(path);
            }
            ctx.reader.read_array_root()?;
            ctx.recurse(Some(PathSegment::Index(0)), |item| {
                item.downcast_mut::<Item>()
                    .map(|i| &mut i.id as &mut dyn Reflect)
            })?;
            ctx.recurse(Some(PathSegment::Index(1)), |item| {
                item.downcast_mut::<Item>()
                    .map(|i| &mut i.label as &mut dyn Reflect)
            })?;
            ctx.reader.read_array_end()
        },
    );
    let text = r#"{"name": "a", "level": "High", "items": [[1, "x"], [2, "y"]]}"#;
    let mut reader = JsonReader::from_slice(text.as_bytes());
    let mut value = Config {
        name: String::new(),
        level: Level::Low,
        items: Vec::new(),
    };
    let mut paths: Vec<String> = Vec::new();
    table
        .deserialize_into(&mut reader, &mut value, &TypeRegistry::new(), &mut paths)
        .expect("pairs");
    assert_eq!(value, config());
    assert_eq!(paths, ["$.items[0]", "$.items[1]"]);

    // An error inside a recursion has the full path.
    let text = r#"{"name": "a", "level": "High", "items": [[1, "x"], [-2, "y"]]}"#;
    let error = read::<Config>(&table, text).expect_err("negative id");
    assert_eq!(error.code(), sluice_core::codes::NUMBER_OUT_OF_RANGE);
    assert_eq!(
        error.path().map(ToString::to_string).as_deref(),
        Some("$.items[1][0]")
    );
    let start = text.find("-2").expect("the id");
    assert_eq!(error.span().map(|s| s.start), Some(start));
}

#[test]
fn handlers_can_look_ahead_and_put_tokens_back() {
    let mut table = builtin::json();
    // A label given as an object {"text": ...} is read by peeking at its first key.
    table.add_first(
        "wrapped label",
        |info, _| info.name() == "String",
        EntrySet::MAP,
        |ctx| {
            ctx.reader.read_map_root()?;
            let span = ctx.reader.span();
            let key = ctx.reader.read_name()?.to_owned();
            let key_span = ctx.reader.span();
            if key != "text" {
                return Err(ctx.error(codes::UNKNOWN_FIELD, format!("unexpected key {key}")));
            }
            let text = ctx.reader.read_str()?.to_owned();
            ctx.reader.read_map_end()?;
            // Give the string back to the reader and let the plain path read it.
            ctx.reader.put_back(Token::String(text), key_span);
            let _ = span;
            assert_eq!(ctx.reader.peek()?, Entry::String);
            let value = ctx.reader.read_str()?.to_owned();
            let mut writer = ctx.property_writer();
            writer.write_str(&value)
        },
    );
    let text = r#"{"name": {"text": "wrapped"}, "level": "Low", "items": []}"#;
    assert_eq!(read_config(&table, text).name, "wrapped");
    let text = r#"{"name": {"other": "x"}, "level": "Low", "items": []}"#;
    let error = read::<Config>(&table, text).expect_err("bad key");
    assert_eq!(error.code(), codes::UNKNOWN_FIELD);
    assert_eq!(
        error.path().map(ToString::to_string).as_deref(),
        Some("$.name")
    );
    assert_eq!(error.type_path(), Some("Config.name: String"));
    let start = text.find("\"other\"").expect("the key");
    assert_eq!(error.span().map(|s| s.start), Some(start));
}

#[test]
fn predicates_run_once_per_type_not_per_value() {
    let calls = Arc::new(AtomicUsize::new(0));
    let mut table = builtin::json();
    for index in 0..50 {
        let calls = Arc::clone(&calls);
        table.add_last(
            format!("never {index}"),
            move |_, _| {
                calls.fetch_add(1, Ordering::Relaxed);
                false
            },
            EntrySet::ALL,
            noop,
        );
    }
    let items: Vec<String> = (0..1000)
        .map(|i| format!(r#"{{"id": {i}, "label": "n{i}"}}"#))
        .collect();
    let text = format!(
        r#"{{"name": "a", "level": 10, "items": [{}]}}"#,
        items.join(",")
    );
    let read = read_config(&table, &text);
    assert_eq!(read.items.len(), 1000);
    // Config, String, Level, Vec<Item>, Item, u32: six types, fifty predicates each at most.
    let evaluated = calls.load(Ordering::Relaxed);
    assert!(evaluated <= 6 * 50, "{evaluated} predicate calls");
    assert!(evaluated > 0);
}

#[test]
fn the_pipe_set_reads_and_writes_what_property_reader_and_writer_do() {
    let table = builtin::pipe();
    let read = read_config(&table, CONFIG);
    let mut plain = Config {
        name: String::new(),
        level: Level::Low,
        items: Vec::new(),
    };
    let mut reader = JsonReader::from_slice(CONFIG.as_bytes());
    sluice_core::pipe(&mut reader, &mut PropertyWriter::new(&mut plain)).expect("pipe");
    assert_eq!(read, plain);
    assert_eq!(
        write(&builtin::pipe_serializer(), &read),
        r#"{"name":"a","level":"High","items":[{"id":1,"label":"x"},{"id":2,"label":"y"}]}"#
    );
}

#[test]
fn dollar_fields_are_skipped_unless_a_field_claims_them() {
    #[derive(Reflect, Debug, PartialEq)]
    struct Tagged {
        #[reflect(rename = "$id")]
        id: u32,
        name: String,
    }
    let text = r#"{"$comment": {"any": [1, 2]}, "$id": 7, "name": "n", "$version": 2}"#;
    let tagged: Tagged = read(&builtin::json(), text).expect("skipped");
    assert_eq!(
        tagged,
        Tagged {
            id: 7,
            name: "n".into()
        }
    );
    // The pipe set has no such convention.
    let error = read::<Tagged>(&builtin::pipe(), text).expect_err("unknown $comment");
    assert_eq!(error.code(), codes::UNKNOWN_FIELD);
    assert_eq!(
        error.path().map(ToString::to_string).as_deref(),
        Some("$.$comment")
    );
    // Other unknown fields stay errors.
    let error = read::<Tagged>(&builtin::json(), r#"{"$id": 1, "name": "n", "other": 1}"#)
        .expect_err("unknown other");
    assert_eq!(error.code(), codes::UNKNOWN_FIELD);
    // Inside a container the table dispatches (a struct holding an enum).
    let text =
        r#"{"$x": 1, "name": "a", "level": "Low", "items": [{"$y": [], "id": 1, "label": "x"}]}"#;
    assert_eq!(read_config(&builtin::json(), text).items[0].id, 1);
}

#[test]
fn the_facade_style_helpers_of_a_table_round_trip() {
    let table = builtin::json_serializer();
    let text = write(&table, &config());
    assert_eq!(read_config(&builtin::json(), &text), config());
}

#[derive(Reflect, Debug, PartialEq)]
struct Meters(f64);

#[derive(Reflect, Debug, PartialEq)]
struct Wrapped(Level);

#[derive(Reflect, Debug, PartialEq)]
struct Route {
    length: Meters,
    detour: Option<Meters>,
    level: Option<Level>,
    wrapped: Wrapped,
}

#[test]
fn rules_see_newtypes_and_the_types_inside_options_and_newtypes() {
    let mut table = builtin::json();
    table.add_first(
        "kilometers",
        |info, _| info.type_id() == Meters::info().type_id(),
        EntrySet::STRING,
        |ctx| {
            let text = ctx.reader.read_str()?;
            let Some(km) = text.strip_suffix("km").and_then(|n| n.parse::<f64>().ok()) else {
                return Err(ctx.error(codes::INVALID_FORM, "expected kilometers"));
            };
            *ctx.target.downcast_mut::<Meters>().expect("Meters") = Meters(km * 1000.0);
            Ok(())
        },
    );
    // The enum-name rule reaches the enum inside an Option and inside a newtype.
    let text = r#"{"length": "2km", "detour": "1.5km", "level": "10", "wrapped": "10"}"#;
    let route: Route = read(&table, text).expect("route");
    assert_eq!(
        route,
        Route {
            length: Meters(2000.0),
            detour: Some(Meters(1500.0)),
            level: Some(Level::High),
            wrapped: Wrapped(Level::High),
        }
    );
    let text = r#"{"length": 7, "detour": null, "level": null, "wrapped": "Low"}"#;
    let route: Route = read(&table, text).expect("plain forms");
    assert_eq!(route.length, Meters(7.0));
    assert_eq!(route.detour, None);
    assert_eq!(route.level, None);
    let text = r#"{"length": 7, "detour": "far", "level": null, "wrapped": "Low"}"#;
    let error = read::<Route>(&table, text).expect_err("far");
    assert_eq!(error.code(), codes::INVALID_FORM);
    assert_eq!(
        error.path().map(ToString::to_string).as_deref(),
        Some("$.detour")
    );
    assert_eq!(error.span().map(|s| s.start), text.find("\"far\""));
}

#[derive(Reflect, Debug, PartialEq)]
struct Point2 {
    x: f32,
    y: f32,
}

#[test]
fn answers_kept_between_calls_follow_registry_and_table_changes() {
    use sluice_reflect::handlers::Mark;
    let table = builtin::json();
    let read_point = |registry: &TypeRegistry| {
        let mut reader = JsonReader::from_slice(b"[1, 2]");
        table.deserialize::<Point2, _>(&mut reader, registry)
    };
    let plain = TypeRegistry::new();
    let mut marked = TypeRegistry::new();
    marked.mark::<Point2>(Mark::Vector);
    for _ in 0..2 {
        assert_eq!(
            read_point(&plain).expect_err("a struct").code(),
            codes::WRONG_TYPE
        );
        assert_eq!(
            read_point(&marked).expect("a vector"),
            Point2 { x: 1.0, y: 2.0 }
        );
    }
    // A registry changed after a call is seen as changed.
    let mut later = TypeRegistry::new();
    assert!(read_point(&later).is_err());
    later.mark::<Point2>(Mark::Vector);
    assert!(read_point(&later).is_ok());

    // A table changed after a call is seen as changed too.
    let mut table = builtin::json();
    let text = r#"{"x": 1, "y": 2}"#;
    let mut reader = JsonReader::from_slice(text.as_bytes());
    let point: Point2 = table.deserialize(&mut reader, &plain).expect("plain");
    assert_eq!(point, Point2 { x: 1.0, y: 2.0 });
    table.add_first(
        "doubled",
        |info, _| info.name() == "f32",
        EntrySet::NUMBER,
        |ctx| {
            let value = ctx.reader.read_f32()?;
            *ctx.target.downcast_mut::<f32>().expect("an f32") = value * 2.0;
            Ok(())
        },
    );
    let mut reader = JsonReader::from_slice(text.as_bytes());
    let point: Point2 = table.deserialize(&mut reader, &plain).expect("doubled");
    assert_eq!(point, Point2 { x: 2.0, y: 4.0 });

    // The same for a serializer.
    let mut out_table = builtin::json_serializer();
    assert_eq!(write(&out_table, &point), r#"{"x":2.0,"y":4.0}"#);
    out_table.add_first(
        "halved",
        |info, _| info.name() == "f32",
        |ctx| {
            let value = ctx.value.downcast_ref::<f32>().expect("an f32");
            ctx.writer.write_f32(value / 2.0)
        },
    );
    assert_eq!(write(&out_table, &point), r#"{"x":1.0,"y":2.0}"#);
}

#[test]
fn a_read_that_fails_inside_nested_containers_leaves_nothing_to_the_next_read() {
    // Each read hands its writer's frame stack, emptied, to the next read on the thread
    // (one writer per NDJSON record): a read that failed with containers open must not
    // leave them to the next, through the plain copy or through the table's loop.
    let plain = builtin::json();
    let mut custom = builtin::json();
    custom.on_kind(KindKey::Enum, Some(ReadAction::Plain));
    for table in [&plain, &custom] {
        let err = read::<Config>(table, r#"{"name": "a", "items": [{"id": 1, "label": 2}]}"#)
            .unwrap_err();
        assert_eq!(err.code(), codes::WRONG_TYPE);
        for round in 0..3u32 {
            let text = format!(
                r#"{{"name": "n{round}", "level": "High", "items": [{{"id": {round}, "label": "x"}}]}}"#
            );
            let config: Config = read(table, &text).unwrap();
            assert_eq!(
                config,
                Config {
                    name: format!("n{round}"),
                    level: Level::High,
                    items: vec![Item {
                        id: round,
                        label: "x".into()
                    }],
                }
            );
        }
    }
}

/// Each text read with `TypedReads::read` (one `TypedReads` for all of them) and with
/// `Deserializer::deserialize`: the values, or the errors' codes, spans and paths.
fn reads_match_deserialize<T: Typed + PartialEq + std::fmt::Debug>(
    table: &Deserializer,
    texts: &[&'static str],
) -> Vec<Result<T, sluice_core::ErrorCode>> {
    // Keys are left to the table to check, as the typed NDJSON reads do.
    let options = JsonOptions {
        duplicate_keys: sluice_json::DuplicateKeys::LastWins,
        ..JsonOptions::relaxed()
    };
    let reader =
        |text: &'static str| JsonReader::new(SliceInput::new(text.as_bytes()), options.clone());
    let registry = TypeRegistry::new();
    let mut reads = table.typed_reads::<T>(&registry);
    texts
        .iter()
        .map(|text| {
            let got = reads.read(&mut reader(text));
            let expected = table.deserialize::<T, _>(&mut reader(text), &registry);
            match (&got, &expected) {
                (Ok(got), Ok(expected)) => assert_eq!(got, expected, "{text}"),
                (Err(got), Err(expected)) => {
                    assert_eq!(got.code(), expected.code(), "{text}");
                    assert_eq!(got.span(), expected.span(), "{text}");
                    assert_eq!(
                        got.path().map(ToString::to_string),
                        expected.path().map(ToString::to_string),
                        "{text}"
                    );
                }
                _ => panic!("{text}: {got:?} against {expected:?}"),
            }
            got.map_err(|error| error.code())
        })
        .collect()
}

#[test]
fn typed_reads_give_what_deserialize_gives_and_go_on_after_an_error() {
    let table = builtin::pipe();
    let results = reads_match_deserialize::<Config>(
        &table,
        &[
            CONFIG,
            // An error deep inside: the next value starts from an empty writer.
            r#"{"name": "b", "items": [{"id": 1, "label": 2}]}"#,
            r#"{"name": "c", "items": [{"id": 3, "colour": "red"}]}"#,
            r#"{"name": "d", "level": "Low", "items": [{"id": 4, "label": "z"}]}"#,
        ],
    );
    let codes: Vec<_> = results.iter().map(|r| r.as_ref().err().copied()).collect();
    assert_eq!(
        codes,
        [
            None,
            Some(codes::WRONG_TYPE),
            Some(codes::UNKNOWN_FIELD),
            None
        ]
    );
    assert_eq!(results[0], Ok(config()));
    assert_eq!(
        results[3]
            .as_ref()
            .map(|c| (c.name.as_str(), c.level, c.items[0].id)),
        Ok(("d", Level::Low, 4))
    );
}

#[test]
fn typed_reads_apply_the_tables_handlers_and_key_checks() {
    let table = items_by_uuid();
    let results = reads_match_deserialize::<Config>(&table, &[CONFIG, CONFIG]);
    for config in &results {
        let config = config.as_ref().expect("a config");
        assert!(config.items.iter().all(|item| item.id == 99));
    }

    const TWICE: sluice_core::ErrorCode = sluice_core::ErrorCode::new("test", "Twice");
    let mut table = builtin::pipe();
    table.check_duplicate_keys(Some(TWICE));
    let results = reads_match_deserialize::<Item>(
        &table,
        &[
            r#"{"id": 1, "id": 2, "label": "x"}"#,
            r#"{"id": 3, "label": "y"}"#,
        ],
    );
    assert_eq!(results[0], Err(TWICE));
    assert_eq!(
        results[1],
        Ok(Item {
            id: 3,
            label: "y".into()
        })
    );
}
