//! The serde bridge against serde_json, typed: the three standard JSON files read into Rust
//! structs shaped like the documents (as in the serde-rs json-benchmark), through
//! `sluice_serde::from_json_str` (a `JsonReader` driving serde's derived visitors) and
//! through `serde_json::from_str`; and the same structs written back with
//! `sluice_serde::to_json_string` and `serde_json::to_string`.
//!
//! Also measured, without a peer: the relaxed variant of each file (comments after every
//! comma, trailing commas) read with `from_json_str_relaxed`, which serde_json cannot read.
//!
//! Run: `cargo bench -p sluice-benches --bench serde_bridge`; every group reports MB/s.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::Serialize;
use serde::de::DeserializeOwned;
use sluice_benches::{corpus, relaxed_variant, scan};
use sluice_json::JsonReader;

/// Structs shaped like the three documents.
mod shapes {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Serialize};

    // ----- canada.json: a GeoJSON feature collection of polygons -------------------------

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Canada {
        #[serde(rename = "type")]
        pub(crate) kind: String,
        pub(crate) features: Vec<Feature>,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Feature {
        #[serde(rename = "type")]
        pub(crate) kind: String,
        pub(crate) properties: BTreeMap<String, String>,
        pub(crate) geometry: Geometry,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Geometry {
        #[serde(rename = "type")]
        pub(crate) kind: String,
        pub(crate) coordinates: Vec<Vec<(f64, f64)>>,
    }

    // ----- citm_catalog.json: events and performances, maps keyed by numeric ids ---------

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct CitmCatalog {
        pub(crate) area_names: BTreeMap<u32, String>,
        pub(crate) audience_sub_category_names: BTreeMap<u32, String>,
        pub(crate) block_names: BTreeMap<u32, String>,
        pub(crate) events: BTreeMap<u32, Event>,
        pub(crate) performances: Vec<Performance>,
        pub(crate) seat_category_names: BTreeMap<u32, String>,
        pub(crate) sub_topic_names: BTreeMap<u32, String>,
        pub(crate) subject_names: BTreeMap<u32, String>,
        pub(crate) topic_names: BTreeMap<u32, String>,
        pub(crate) topic_sub_topics: BTreeMap<u32, Vec<u32>>,
        pub(crate) venue_names: BTreeMap<String, String>,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct Event {
        pub(crate) description: Option<String>,
        pub(crate) id: u32,
        pub(crate) logo: Option<String>,
        pub(crate) name: String,
        pub(crate) sub_topic_ids: Vec<u32>,
        pub(crate) subject_code: Option<String>,
        pub(crate) subtitle: Option<String>,
        pub(crate) topic_ids: Vec<u32>,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct Performance {
        pub(crate) event_id: u32,
        pub(crate) id: u32,
        pub(crate) logo: Option<String>,
        pub(crate) name: Option<String>,
        pub(crate) prices: Vec<Price>,
        pub(crate) seat_categories: Vec<SeatCategory>,
        pub(crate) seat_map_image: Option<String>,
        pub(crate) start: u64,
        pub(crate) venue_code: String,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct Price {
        pub(crate) amount: u32,
        pub(crate) audience_sub_category_id: u32,
        pub(crate) seat_category_id: u32,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct SeatCategory {
        pub(crate) areas: Vec<Area>,
        pub(crate) seat_category_id: u32,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct Area {
        pub(crate) area_id: u32,
        pub(crate) block_ids: Vec<u32>,
    }

    // ----- twitter.json: a search result of statuses -------------------------------------

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Twitter {
        pub(crate) statuses: Vec<Status>,
        pub(crate) search_metadata: SearchMetadata,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Status {
        pub(crate) metadata: Metadata,
        pub(crate) created_at: String,
        pub(crate) id: u64,
        pub(crate) id_str: String,
        pub(crate) text: String,
        pub(crate) source: String,
        pub(crate) truncated: bool,
        pub(crate) in_reply_to_status_id: Option<u64>,
        pub(crate) in_reply_to_status_id_str: Option<String>,
        pub(crate) in_reply_to_user_id: Option<u64>,
        pub(crate) in_reply_to_user_id_str: Option<String>,
        pub(crate) in_reply_to_screen_name: Option<String>,
        pub(crate) user: User,
        pub(crate) geo: (),
        pub(crate) coordinates: (),
        pub(crate) place: (),
        pub(crate) contributors: (),
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) retweeted_status: Option<Box<Status>>,
        pub(crate) retweet_count: u32,
        pub(crate) favorite_count: u32,
        pub(crate) entities: StatusEntities,
        pub(crate) favorited: bool,
        pub(crate) retweeted: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) possibly_sensitive: Option<bool>,
        pub(crate) lang: String,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Metadata {
        pub(crate) result_type: String,
        pub(crate) iso_language_code: String,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct User {
        pub(crate) id: u64,
        pub(crate) id_str: String,
        pub(crate) name: String,
        pub(crate) screen_name: String,
        pub(crate) location: String,
        pub(crate) description: String,
        pub(crate) url: Option<String>,
        pub(crate) entities: UserEntities,
        pub(crate) protected: bool,
        pub(crate) followers_count: u32,
        pub(crate) friends_count: u32,
        pub(crate) listed_count: u32,
        pub(crate) created_at: String,
        pub(crate) favourites_count: u32,
        pub(crate) utc_offset: Option<i32>,
        pub(crate) time_zone: Option<String>,
        pub(crate) geo_enabled: bool,
        pub(crate) verified: bool,
        pub(crate) statuses_count: u32,
        pub(crate) lang: String,
        pub(crate) contributors_enabled: bool,
        pub(crate) is_translator: bool,
        pub(crate) is_translation_enabled: bool,
        pub(crate) profile_background_color: String,
        pub(crate) profile_background_image_url: String,
        pub(crate) profile_background_image_url_https: String,
        pub(crate) profile_background_tile: bool,
        pub(crate) profile_image_url: String,
        pub(crate) profile_image_url_https: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) profile_banner_url: Option<String>,
        pub(crate) profile_link_color: String,
        pub(crate) profile_sidebar_border_color: String,
        pub(crate) profile_sidebar_fill_color: String,
        pub(crate) profile_text_color: String,
        pub(crate) profile_use_background_image: bool,
        pub(crate) default_profile: bool,
        pub(crate) default_profile_image: bool,
        pub(crate) following: bool,
        pub(crate) follow_request_sent: bool,
        pub(crate) notifications: bool,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct UserEntities {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) url: Option<UrlList>,
        pub(crate) description: UrlList,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct UrlList {
        pub(crate) urls: Vec<Url>,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Url {
        pub(crate) url: String,
        pub(crate) expanded_url: String,
        pub(crate) display_url: String,
        pub(crate) indices: (u16, u16),
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct StatusEntities {
        pub(crate) hashtags: Vec<Hashtag>,
        pub(crate) symbols: Vec<Hashtag>,
        pub(crate) urls: Vec<Url>,
        pub(crate) user_mentions: Vec<UserMention>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) media: Option<Vec<Media>>,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Hashtag {
        pub(crate) text: String,
        pub(crate) indices: (u16, u16),
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct UserMention {
        pub(crate) screen_name: String,
        pub(crate) name: String,
        pub(crate) id: u64,
        pub(crate) id_str: String,
        pub(crate) indices: (u16, u16),
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Media {
        pub(crate) id: u64,
        pub(crate) id_str: String,
        pub(crate) indices: (u16, u16),
        pub(crate) media_url: String,
        pub(crate) media_url_https: String,
        pub(crate) url: String,
        pub(crate) display_url: String,
        pub(crate) expanded_url: String,
        #[serde(rename = "type")]
        pub(crate) kind: String,
        pub(crate) sizes: Sizes,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) source_status_id: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) source_status_id_str: Option<String>,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Sizes {
        pub(crate) medium: Size,
        pub(crate) small: Size,
        pub(crate) thumb: Size,
        pub(crate) large: Size,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Size {
        pub(crate) w: u16,
        pub(crate) h: u16,
        pub(crate) resize: String,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct SearchMetadata {
        pub(crate) completed_in: f64,
        pub(crate) max_id: u64,
        pub(crate) max_id_str: String,
        pub(crate) next_results: String,
        pub(crate) query: String,
        pub(crate) refresh_url: String,
        pub(crate) count: u32,
        pub(crate) since_id: u64,
        pub(crate) since_id_str: String,
    }
}

/// Loads a bench file as text, or `None` when the corpus is missing.
fn text(file: &str) -> Option<String> {
    corpus(file).map(|bytes| String::from_utf8(bytes).expect("bench files are UTF-8"))
}

/// Whether two trees are equal, floats allowed to differ by one unit in the last place.
fn agree(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() && y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            x.to_bits().abs_diff(y.to_bits()) <= 1
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| agree(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, x)| y.get(key).is_some_and(|y| agree(x, y)))
        }
        _ => a == b,
    }
}

/// Reading and writing one file as `T`, through the bridge and through serde_json.
fn bench_file<T>(c: &mut Criterion, name: &str, file: &str)
where
    T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug,
{
    let Some(text) = text(file) else { return };

    // Both sides must read the same value, or the comparison means nothing. Floats may
    // differ in the last bit: serde_json's default float parsing is not correctly rounded
    // (about one canada.json coordinate in ten is one ulp off), sluice's is.
    let ours: T = sluice_serde::from_json_str(&text).expect("the bridge reads the file");
    let theirs: T = serde_json::from_str(&text).expect("serde_json reads the file");
    let (ours_tree, theirs_tree) = (
        serde_json::to_value(&ours).expect("tree"),
        serde_json::to_value(&theirs).expect("tree"),
    );
    assert!(
        agree(&ours_tree, &theirs_tree),
        "{name}: the bridge and serde_json disagree"
    );

    let mut group = c.benchmark_group(format!("serde_from_str/{name}"));
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("sluice_serde", |b| {
        b.iter(|| sluice_serde::from_json_str::<T>(black_box(&text)).unwrap());
    });
    group.bench_function("serde_json", |b| {
        b.iter(|| serde_json::from_str::<T>(black_box(&text)).unwrap());
    });
    // For reference: the JsonReader alone, every token read and every number parsed, with
    // no serde at all. The bridge cannot be faster than this.
    group.bench_function("sluice_json_reader_only", |b| {
        b.iter(|| scan(&mut JsonReader::from_str(black_box(&text))).unwrap());
    });
    group.finish();

    let relaxed = String::from_utf8(relaxed_variant(text.as_bytes())).expect("still UTF-8");
    let from_relaxed: T =
        sluice_serde::from_json_str_relaxed(&relaxed).expect("the bridge reads relaxed JSON");
    assert_eq!(
        from_relaxed, ours,
        "{name}: relaxed variant reads differently"
    );
    let mut group = c.benchmark_group(format!("serde_from_str_relaxed/{name}"));
    group.throughput(Throughput::Bytes(relaxed.len() as u64));
    group.bench_function("sluice_serde", |b| {
        b.iter(|| sluice_serde::from_json_str_relaxed::<T>(black_box(&relaxed)).unwrap());
    });
    group.finish();

    let written = serde_json::to_string(&theirs).expect("serde_json writes the value");
    assert_eq!(
        sluice_serde::to_json_string(&theirs).expect("the bridge writes the value"),
        written,
        "{name}: the bridge and serde_json write different text for the same value"
    );
    let mut group = c.benchmark_group(format!("serde_to_string/{name}"));
    group.throughput(Throughput::Bytes(written.len() as u64));
    group.bench_function("sluice_serde", |b| {
        b.iter(|| sluice_serde::to_json_string(black_box(&ours)).unwrap());
    });
    group.bench_function("serde_json", |b| {
        b.iter(|| serde_json::to_string(black_box(&theirs)).unwrap());
    });
    group.finish();
}

fn serde_bridge(c: &mut Criterion) {
    bench_file::<shapes::Canada>(c, "canada", "bench/canada.json");
    bench_file::<shapes::CitmCatalog>(c, "citm_catalog", "bench/citm_catalog.json");
    bench_file::<shapes::Twitter>(c, "twitter", "bench/twitter.json");
}

criterion_group!(benches, serde_bridge);
criterion_main!(benches);
