//! Typed JSON through reflection: `sluice::json::from_str` / `to_string` into derived structs,
//! against serde_json's typed `from_str` / `to_string` into the same structs (serde derive).
//!
//! The shapes follow serde-rs/json-benchmark for canada.json, citm_catalog.json and
//! twitter.json; every struct derives both `Reflect` and serde's traits, so both sides fill
//! exactly the same Rust values.

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::{Deserialize, Serialize};
use sluice::Reflect;
use sluice_benches::{BENCH_FILES, corpus};

mod canada {
    use super::{BTreeMap, Deserialize, Reflect, Serialize};

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct Canada {
        #[reflect(rename = "type")]
        #[serde(rename = "type")]
        pub kind: ObjType,
        pub features: Vec<Feature>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct Feature {
        #[reflect(rename = "type")]
        #[serde(rename = "type")]
        pub kind: ObjType,
        pub properties: BTreeMap<String, String>,
        pub geometry: Geometry,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct Geometry {
        #[reflect(rename = "type")]
        #[serde(rename = "type")]
        pub kind: ObjType,
        pub coordinates: Vec<Vec<(f64, f64)>>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub enum ObjType {
        FeatureCollection,
        Feature,
        Polygon,
    }
}

mod citm {
    use super::{BTreeMap, Deserialize, Reflect, Serialize};

    pub type Id = u32;

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct CitmCatalog {
        #[reflect(rename = "areaNames")]
        pub area_names: BTreeMap<Id, String>,
        #[reflect(rename = "audienceSubCategoryNames")]
        pub audience_sub_category_names: BTreeMap<Id, String>,
        #[reflect(rename = "blockNames")]
        pub block_names: BTreeMap<Id, String>,
        pub events: BTreeMap<Id, Event>,
        pub performances: Vec<Performance>,
        #[reflect(rename = "seatCategoryNames")]
        pub seat_category_names: BTreeMap<Id, String>,
        #[reflect(rename = "subTopicNames")]
        pub sub_topic_names: BTreeMap<Id, String>,
        #[reflect(rename = "subjectNames")]
        pub subject_names: BTreeMap<Id, String>,
        #[reflect(rename = "topicNames")]
        pub topic_names: BTreeMap<Id, String>,
        #[reflect(rename = "topicSubTopics")]
        pub topic_sub_topics: BTreeMap<Id, Vec<Id>>,
        #[reflect(rename = "venueNames")]
        pub venue_names: BTreeMap<String, String>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct Event {
        pub description: (),
        pub id: Id,
        pub logo: Option<String>,
        pub name: String,
        #[reflect(rename = "subTopicIds")]
        pub sub_topic_ids: Vec<Id>,
        #[reflect(rename = "subjectCode")]
        pub subject_code: (),
        pub subtitle: (),
        #[reflect(rename = "topicIds")]
        pub topic_ids: Vec<Id>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct Performance {
        #[reflect(rename = "eventId")]
        pub event_id: Id,
        pub id: Id,
        pub logo: Option<String>,
        pub name: (),
        pub prices: Vec<Price>,
        #[reflect(rename = "seatCategories")]
        pub seat_categories: Vec<SeatCategory>,
        #[reflect(rename = "seatMapImage")]
        pub seat_map_image: (),
        pub start: u64,
        #[reflect(rename = "venueCode")]
        pub venue_code: String,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct Price {
        pub amount: u32,
        #[reflect(rename = "audienceSubCategoryId")]
        pub audience_sub_category_id: Id,
        #[reflect(rename = "seatCategoryId")]
        pub seat_category_id: Id,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct SeatCategory {
        pub areas: Vec<Area>,
        #[reflect(rename = "seatCategoryId")]
        pub seat_category_id: Id,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct Area {
        #[reflect(rename = "areaId")]
        pub area_id: Id,
        #[reflect(rename = "blockIds")]
        pub block_ids: Vec<()>,
    }
}

mod twitter {
    use super::{Deserialize, Reflect, Serialize};

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct Twitter {
        pub statuses: Vec<Status>,
        pub search_metadata: SearchMetadata,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct Status {
        pub metadata: Metadata,
        pub created_at: String,
        pub id: u64,
        pub id_str: String,
        pub text: String,
        pub source: String,
        pub truncated: bool,
        pub in_reply_to_status_id: Option<u64>,
        pub in_reply_to_status_id_str: Option<String>,
        pub in_reply_to_user_id: Option<u64>,
        pub in_reply_to_user_id_str: Option<String>,
        pub in_reply_to_screen_name: Option<String>,
        pub user: User,
        pub geo: (),
        pub coordinates: (),
        pub place: (),
        pub contributors: (),
        pub retweeted_status: Option<Box<Status>>,
        pub retweet_count: u32,
        pub favorite_count: u32,
        pub entities: StatusEntities,
        pub favorited: bool,
        pub retweeted: bool,
        pub possibly_sensitive: Option<bool>,
        pub lang: String,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct Metadata {
        pub result_type: String,
        pub iso_language_code: String,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct User {
        pub id: u64,
        pub id_str: String,
        pub name: String,
        pub screen_name: String,
        pub location: String,
        pub description: String,
        pub url: Option<String>,
        pub entities: UserEntities,
        pub protected: bool,
        pub followers_count: u32,
        pub friends_count: u32,
        pub listed_count: u32,
        pub created_at: String,
        pub favourites_count: u32,
        pub utc_offset: Option<i32>,
        pub time_zone: Option<String>,
        pub geo_enabled: bool,
        pub verified: bool,
        pub statuses_count: u32,
        pub lang: String,
        pub contributors_enabled: bool,
        pub is_translator: bool,
        pub is_translation_enabled: bool,
        pub profile_background_color: String,
        pub profile_background_image_url: String,
        pub profile_background_image_url_https: String,
        pub profile_background_tile: bool,
        pub profile_image_url: String,
        pub profile_image_url_https: String,
        pub profile_banner_url: Option<String>,
        pub profile_link_color: String,
        pub profile_sidebar_border_color: String,
        pub profile_sidebar_fill_color: String,
        pub profile_text_color: String,
        pub profile_use_background_image: bool,
        pub default_profile: bool,
        pub default_profile_image: bool,
        pub following: bool,
        pub follow_request_sent: bool,
        pub notifications: bool,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct UserEntities {
        pub url: Option<UserUrl>,
        pub description: UserEntitiesDescription,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct UserUrl {
        pub urls: Vec<Url>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct Url {
        pub url: String,
        pub expanded_url: String,
        pub display_url: String,
        pub indices: [u16; 2],
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct UserEntitiesDescription {
        pub urls: Vec<Url>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct StatusEntities {
        pub hashtags: Vec<Hashtag>,
        pub symbols: Vec<()>,
        pub urls: Vec<Url>,
        pub user_mentions: Vec<UserMention>,
        pub media: Option<Vec<Media>>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct Hashtag {
        pub text: String,
        pub indices: [u16; 2],
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct UserMention {
        pub screen_name: String,
        pub name: String,
        pub id: u64,
        pub id_str: String,
        pub indices: [u16; 2],
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct Media {
        pub id: u64,
        pub id_str: String,
        pub indices: [u16; 2],
        pub media_url: String,
        pub media_url_https: String,
        pub url: String,
        pub display_url: String,
        pub expanded_url: String,
        #[reflect(rename = "type")]
        #[serde(rename = "type")]
        pub kind: String,
        pub sizes: Sizes,
        pub source_status_id: Option<u64>,
        pub source_status_id_str: Option<String>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct Sizes {
        pub medium: Size,
        pub small: Size,
        pub thumb: Size,
        pub large: Size,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct Size {
        pub w: u16,
        pub h: u16,
        pub resize: String,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub struct SearchMetadata {
        pub completed_in: f32,
        pub max_id: u64,
        pub max_id_str: String,
        pub next_results: String,
        pub query: String,
        pub refresh_url: String,
        pub count: u8,
        pub since_id: u64,
        pub since_id_str: String,
    }
}

/// Benchmarks one shape: parse and print with sluice (reflection) and with serde_json.
fn bench_shape<T>(c: &mut Criterion, name: &str, text: &str, same: fn(&T, &T) -> bool)
where
    T: sluice::Typed + serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    // Both sides must build the same value, or the comparison means nothing.
    let ours: T = sluice::json::from_str(text).unwrap_or_else(|e| panic!("{name}: {}", e.render()));
    let theirs: T = serde_json::from_str(text).expect("serde_json reads the file");
    assert!(same(&ours, &theirs), "{name}: both readers build the same value");
    let printed = sluice::json::to_string(&ours).expect("to_string");
    assert_eq!(sluice::json::from_str::<T>(&printed).ok().as_ref(), Some(&ours), "{name}: output reads back");

    let mut group = c.benchmark_group(format!("reflect_from_str/{name}"));
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("sluice", |b| {
        b.iter(|| sluice::json::from_str::<T>(black_box(text)).expect("parse"));
    });
    group.bench_function("serde_json", |b| {
        b.iter(|| serde_json::from_str::<T>(black_box(text)).expect("parse"));
    });
    group.finish();

    let serde_len = serde_json::to_string(&theirs).expect("serde to_string").len();
    let mut group = c.benchmark_group(format!("reflect_to_string/{name}"));
    group.throughput(Throughput::Bytes(serde_len as u64));
    group.bench_function("sluice", |b| {
        b.iter(|| sluice::json::to_string(black_box(&ours)).expect("print"));
    });
    group.bench_function("serde_json", |b| {
        b.iter(|| serde_json::to_string(black_box(&theirs)).expect("print"));
    });
    group.finish();
}

/// serde_json's default float parsing may be off by one unit in the last place (sluice's is
/// correctly rounded), so canada's coordinates are compared within a relative 1e-15.
fn same_coordinates(a: &canada::Canada, b: &canada::Canada) -> bool {
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-15 * x.abs().max(y.abs());
    a.features.len() == b.features.len()
        && a.features.iter().zip(&b.features).all(|(fa, fb)| {
            fa.properties == fb.properties
                && fa.geometry.coordinates.len() == fb.geometry.coordinates.len()
                && fa.geometry.coordinates.iter().zip(&fb.geometry.coordinates).all(|(ra, rb)| {
                    ra.len() == rb.len()
                        && ra.iter().zip(rb).all(|(pa, pb)| close(pa.0, pb.0) && close(pa.1, pb.1))
                })
        })
}

fn reflect(c: &mut Criterion) {
    for (name, file) in BENCH_FILES {
        let Some(bytes) = corpus(file) else { continue };
        let text = String::from_utf8(bytes).expect("UTF-8 corpus");
        match name {
            "canada" => bench_shape::<canada::Canada>(c, name, &text, same_coordinates),
            "citm_catalog" => bench_shape::<citm::CitmCatalog>(c, name, &text, PartialEq::eq),
            "twitter" => bench_shape::<twitter::Twitter>(c, name, &text, PartialEq::eq),
            _ => {}
        }
    }
}

criterion_group!(benches, reflect);
criterion_main!(benches);
