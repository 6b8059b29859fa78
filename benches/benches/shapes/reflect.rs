//! Rust shapes of canada.json, `citm_catalog.json` and twitter.json after serde-rs/json-benchmark,
//! deriving both `Reflect` and serde's traits; shared by the `reflect` and `handlers` benches and the
//! `reflect_profile` driver.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sluice::Reflect;

pub(crate) mod canada {
    use super::{BTreeMap, Deserialize, Reflect, Serialize};

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Canada {
        #[reflect(rename = "type")]
        #[serde(rename = "type")]
        pub(crate) kind: ObjType,
        pub(crate) features: Vec<Feature>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Feature {
        #[reflect(rename = "type")]
        #[serde(rename = "type")]
        pub(crate) kind: ObjType,
        pub(crate) properties: BTreeMap<String, String>,
        pub(crate) geometry: Geometry,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Geometry {
        #[reflect(rename = "type")]
        #[serde(rename = "type")]
        pub(crate) kind: ObjType,
        pub(crate) coordinates: Vec<Vec<(f64, f64)>>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) enum ObjType {
        FeatureCollection,
        Feature,
        Polygon,
    }
}

pub(crate) mod citm {
    use super::{BTreeMap, Deserialize, Reflect, Serialize};

    pub(crate) type Id = u32;

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct CitmCatalog {
        #[reflect(rename = "areaNames")]
        pub(crate) area_names: BTreeMap<Id, String>,
        #[reflect(rename = "audienceSubCategoryNames")]
        pub(crate) audience_sub_category_names: BTreeMap<Id, String>,
        #[reflect(rename = "blockNames")]
        pub(crate) block_names: BTreeMap<Id, String>,
        pub(crate) events: BTreeMap<Id, Event>,
        pub(crate) performances: Vec<Performance>,
        #[reflect(rename = "seatCategoryNames")]
        pub(crate) seat_category_names: BTreeMap<Id, String>,
        #[reflect(rename = "subTopicNames")]
        pub(crate) sub_topic_names: BTreeMap<Id, String>,
        #[reflect(rename = "subjectNames")]
        pub(crate) subject_names: BTreeMap<Id, String>,
        #[reflect(rename = "topicNames")]
        pub(crate) topic_names: BTreeMap<Id, String>,
        #[reflect(rename = "topicSubTopics")]
        pub(crate) topic_sub_topics: BTreeMap<Id, Vec<Id>>,
        #[reflect(rename = "venueNames")]
        pub(crate) venue_names: BTreeMap<String, String>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct Event {
        pub(crate) description: (),
        pub(crate) id: Id,
        pub(crate) logo: Option<String>,
        pub(crate) name: String,
        #[reflect(rename = "subTopicIds")]
        pub(crate) sub_topic_ids: Vec<Id>,
        #[reflect(rename = "subjectCode")]
        pub(crate) subject_code: (),
        pub(crate) subtitle: (),
        #[reflect(rename = "topicIds")]
        pub(crate) topic_ids: Vec<Id>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct Performance {
        #[reflect(rename = "eventId")]
        pub(crate) event_id: Id,
        pub(crate) id: Id,
        pub(crate) logo: Option<String>,
        pub(crate) name: (),
        pub(crate) prices: Vec<Price>,
        #[reflect(rename = "seatCategories")]
        pub(crate) seat_categories: Vec<SeatCategory>,
        #[reflect(rename = "seatMapImage")]
        pub(crate) seat_map_image: (),
        pub(crate) start: u64,
        #[reflect(rename = "venueCode")]
        pub(crate) venue_code: String,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct Price {
        pub(crate) amount: u32,
        #[reflect(rename = "audienceSubCategoryId")]
        pub(crate) audience_sub_category_id: Id,
        #[reflect(rename = "seatCategoryId")]
        pub(crate) seat_category_id: Id,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct SeatCategory {
        pub(crate) areas: Vec<Area>,
        #[reflect(rename = "seatCategoryId")]
        pub(crate) seat_category_id: Id,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct Area {
        #[reflect(rename = "areaId")]
        pub(crate) area_id: Id,
        #[reflect(rename = "blockIds")]
        pub(crate) block_ids: Vec<()>,
    }
}

pub(crate) mod twitter {
    use super::{Deserialize, Reflect, Serialize};

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Twitter {
        pub(crate) statuses: Vec<Status>,
        pub(crate) search_metadata: SearchMetadata,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
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
        pub(crate) retweeted_status: Option<Box<Status>>,
        pub(crate) retweet_count: u32,
        pub(crate) favorite_count: u32,
        pub(crate) entities: StatusEntities,
        pub(crate) favorited: bool,
        pub(crate) retweeted: bool,
        pub(crate) possibly_sensitive: Option<bool>,
        pub(crate) lang: String,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Metadata {
        pub(crate) result_type: String,
        pub(crate) iso_language_code: String,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
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

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct UserEntities {
        pub(crate) url: Option<UserUrl>,
        pub(crate) description: UserEntitiesDescription,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct UserUrl {
        pub(crate) urls: Vec<Url>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Url {
        pub(crate) url: String,
        pub(crate) expanded_url: String,
        pub(crate) display_url: String,
        pub(crate) indices: [u16; 2],
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct UserEntitiesDescription {
        pub(crate) urls: Vec<Url>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct StatusEntities {
        pub(crate) hashtags: Vec<Hashtag>,
        pub(crate) symbols: Vec<()>,
        pub(crate) urls: Vec<Url>,
        pub(crate) user_mentions: Vec<UserMention>,
        pub(crate) media: Option<Vec<Media>>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Hashtag {
        pub(crate) text: String,
        pub(crate) indices: [u16; 2],
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct UserMention {
        pub(crate) screen_name: String,
        pub(crate) name: String,
        pub(crate) id: u64,
        pub(crate) id_str: String,
        pub(crate) indices: [u16; 2],
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Media {
        pub(crate) id: u64,
        pub(crate) id_str: String,
        pub(crate) indices: [u16; 2],
        pub(crate) media_url: String,
        pub(crate) media_url_https: String,
        pub(crate) url: String,
        pub(crate) display_url: String,
        pub(crate) expanded_url: String,
        #[reflect(rename = "type")]
        #[serde(rename = "type")]
        pub(crate) kind: String,
        pub(crate) sizes: Sizes,
        pub(crate) source_status_id: Option<u64>,
        pub(crate) source_status_id_str: Option<String>,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Sizes {
        pub(crate) medium: Size,
        pub(crate) small: Size,
        pub(crate) thumb: Size,
        pub(crate) large: Size,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct Size {
        pub(crate) w: u16,
        pub(crate) h: u16,
        pub(crate) resize: String,
    }

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq)]
    pub(crate) struct SearchMetadata {
        pub(crate) completed_in: f32,
        pub(crate) max_id: u64,
        pub(crate) max_id_str: String,
        pub(crate) next_results: String,
        pub(crate) query: String,
        pub(crate) refresh_url: String,
        pub(crate) count: u8,
        pub(crate) since_id: u64,
        pub(crate) since_id_str: String,
    }
}
