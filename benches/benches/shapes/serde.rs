//! Plain serde shapes of canada.json, `citm_catalog.json` and twitter.json (serde derives
//! only, typed as in serde-rs/json-benchmark: `()` for fields that are always null, tuples
//! for index pairs); shared by the `serde_bridge` bench and the `reflect_profile` driver, so
//! that a profile measures exactly what the bench times.

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
