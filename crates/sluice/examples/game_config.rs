//! Loads a commented game configuration (relaxed JSON) into Rust structs, then prints it back
//! as pretty JSON.
//!
//! ```text
//! cargo run -p sluice --example game_config [path/to/config.jsonc]
//! ```
//!
//! Without an argument it loads the bundled `corpus/examples/game_config.jsonc`. A mistake in
//! the file (try `"vsync": "Sometimes"`) is shown with the line, a caret and the data path.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use sluice::Reflect;
use sluice::json::JsonOptions;

#[derive(Reflect, Debug)]
struct GameConfig {
    title: String,
    version: u32,
    video: Video,
    audio: Audio,
    players: Vec<Player>,
    #[reflect(default)]
    waves: Vec<Wave>,
}

#[derive(Reflect, Debug)]
struct Video {
    resolution: (u32, u32),
    fullscreen: bool,
    vsync: VSync,
    fov: f32,
    max_fps: Option<u32>,
}

#[derive(Reflect, Debug, Clone, Copy)]
enum VSync {
    Off,
    On,
    Adaptive,
}

#[derive(Reflect, Debug)]
struct Audio {
    master: f32,
    channels: BTreeMap<String, f32>,
    #[reflect(default)]
    mute_when_unfocused: bool,
}

#[derive(Reflect, Debug)]
struct Player {
    name: String,
    class: Class,
    level: u8,
    keys: BTreeMap<String, String>,
    spawn: Position,
    companion: Option<String>,
    #[reflect(default)]
    inventory: Vec<String>,
}

#[derive(Reflect, Debug, Clone, Copy)]
enum Class {
    Engineer,
    Scout,
    Medic,
}

#[derive(Reflect, Debug)]
struct Position {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(Reflect, Debug)]
struct Wave {
    at_second: u32,
    enemies: BTreeMap<String, u16>,
    boss: Option<Boss>,
}

#[derive(Reflect, Debug)]
struct Boss {
    name: String,
    health: u32,
}

fn main() -> ExitCode {
    let path = std::env::args_os().nth(1).map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../corpus/examples/game_config.jsonc")
        },
        PathBuf::from,
    );
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("cannot read {}: {error}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let config: GameConfig = match sluice::json::from_str_with(&text, JsonOptions::relaxed()) {
        Ok(config) => config,
        Err(error) => {
            let shown = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            eprintln!("{}", error.with_source_text(shown, text).render());
            return ExitCode::FAILURE;
        }
    };
    eprintln!(
        "loaded {:?} v{}: {} players, {} waves, vsync {:?}",
        config.title,
        config.version,
        config.players.len(),
        config.waves.len(),
        config.video.vsync
    );
    match sluice::json::to_string_pretty(&config) {
        Ok(pretty) => {
            println!("{pretty}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{}", error.render());
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundled() -> String {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus/examples/game_config.jsonc");
        std::fs::read_to_string(path).expect("bundled example")
    }

    #[test]
    fn the_bundled_configuration_loads_and_prints_back() {
        let config: GameConfig =
            sluice::json::from_str_with(&bundled(), JsonOptions::relaxed()).expect("loads");
        assert_eq!(config.players[1].inventory, ["rope", "lantern", "map"]);
        assert_eq!(config.video.resolution, (1920, 1080));
        assert!(config.video.max_fps.is_none());
        assert_eq!(config.waves[1].boss.as_ref().map(|b| b.health), Some(5000));
        let pretty = sluice::json::to_string_pretty(&config).expect("prints");
        let again: GameConfig =
            sluice::json::from_str(&pretty).expect("strict JSON reads the output");
        assert_eq!(
            sluice::json::to_string(&again).ok(),
            sluice::json::to_string(&config).ok()
        );
    }

    #[test]
    fn a_mistake_is_shown_with_its_line_and_path() {
        let text = bundled().replace("\"Adaptive\"", "\"Sometimes\"");
        let error = sluice::json::from_str_with::<GameConfig>(&text, JsonOptions::relaxed())
            .expect_err("bad vsync");
        assert_eq!(error.code(), sluice::reflect::codes::ENUM_NAME_NOT_FOUND);
        assert_eq!(
            error.path().map(ToString::to_string).as_deref(),
            Some("$.video.vsync")
        );
        let line = error.line_column().map(|p| p.line);
        let expected = text
            .lines()
            .position(|l| l.contains("Sometimes"))
            .map(|i| i + 1);
        assert_eq!(line, expected);
    }
}
