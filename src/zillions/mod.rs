//! The Zillions of Games door (protocol/zillions.md): save games (`zsg`), setups sent as
//! placements (`setup`), the plug-in session over our engine (`session`) with its C layer
//! (`ffi`, feature `zillions`), and the host that serves any Zillions plug-in over CECP (`host`,
//! `plugin`); an external XBoard or UCI engine behind the plug-in (`config`, `external`,
//! `bridge`). The notation itself lives in `notation::zillions`. A door translates: legality and
//! game end come from the core.

pub mod bridge;
pub mod codes;
pub mod config;
pub mod external;
pub mod host;
pub mod plugin;
pub mod session;
pub mod setup;
pub mod zsg;

#[cfg(feature = "zillions")]
mod ffi;

use std::sync::Arc;

use crate::core::Variant;
use crate::notation::zillions;
use crate::variants::Registry;

/// The variant with this name: the one Zillions shows (`Wild Rose Chess`) or ours (`wildrose`),
/// any case; `Standard` and `Chess` are orthodox chess.
pub fn find_variant(registry: &Registry, name: &str) -> Option<Arc<Variant>> {
    let name = name.trim();
    registry
        .all()
        .iter()
        .find(|v| zillions::game_name(v).eq_ignore_ascii_case(name) || v.name.eq_ignore_ascii_case(name))
        .or_else(|| {
            name.eq_ignore_ascii_case("standard")
                .then(|| registry.all().iter().find(|v| v.name == crate::variants::NORMAL))
                .flatten()
        })
        .cloned()
}

/// The environment variable that names user definition files for the plug-in (files or folders
/// of `*.toml`, separated as `PATH` is: `:` here, `;` on Windows).
pub const VARIANTS_ENV: &str = "FAIRYBRIDGE_VARIANTS";

/// The games the plug-in knows: the built-in ones and the definition files `list` names (the
/// value of `FAIRYBRIDGE_VARIANTS`). Zillions gives a plug-in no command line, so this is how a
/// user game reaches it. A file that cannot be used is left out (and logged); the rest still load.
pub fn plugin_registry(list: Option<&std::ffi::OsStr>) -> Registry {
    let mut registry = Registry::builtin_with(crate::protocol::SECTIONS);
    let Some(list) = list else { return registry };
    let paths: Vec<std::path::PathBuf> = std::env::split_paths(list).collect();
    for e in registry.load_paths(&paths, |_| Ok(())).errors {
        log::warn!("{VARIANTS_ENV}: {e}");
    }
    registry
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_loads_user_games_from_files_and_folders_and_skips_bad_ones() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/variants/examples");
        let builtin = plugin_registry(None).names().len();
        let file = root.join("minicannon.toml");
        let one = plugin_registry(Some(file.as_os_str()));
        assert!(find_variant(&one, "minicannon").is_some());
        assert_eq!(one.names().len(), builtin + 1);
        // A folder: every example that is valid (the bad/ folder's files are not *.toml here),
        // with a missing file beside it.
        let list = std::env::join_paths([root.clone(), root.join("no-such-file.toml")]).expect("paths");
        let all = plugin_registry(Some(&list));
        assert!(find_variant(&all, "minishogi").is_some());
        assert!(find_variant(&all, "minicannon").is_some());
        assert!(find_variant(&all, "Chess").is_some());
    }
}
