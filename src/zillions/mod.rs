//! The Zillions of Games door (protocol/zillions.md): save games (`zsg`), setups sent as
//! placements (`setup`), the plug-in session over our engine (`session`) with its C layer
//! (`ffi`, feature `zillions`), and the host that serves any Zillions plug-in over CECP (`host`,
//! `plugin`). The notation itself lives in `notation::zillions`. A door translates: legality and
//! game end come from the core.

pub mod codes;
pub mod host;
pub mod plugin;
pub mod session;
pub mod setup;
pub mod zsg;

#[cfg(feature = "zillions")]
mod ffi;

use std::sync::Arc;

use crate::core::Variant;
use crate::variants::Registry;

/// The variant with this name: the one Zillions shows (`Wild Rose Chess`) or ours (`wildrose`),
/// any case; `Standard` and `Chess` are orthodox chess.
pub fn find_variant(registry: &Registry, name: &str) -> Option<Arc<Variant>> {
    let name = name.trim();
    registry
        .all()
        .iter()
        .find(|v| v.zillions_name.eq_ignore_ascii_case(name) || v.name.eq_ignore_ascii_case(name))
        .or_else(|| {
            name.eq_ignore_ascii_case("standard")
                .then(|| registry.all().iter().find(|v| v.name == "normal"))
                .flatten()
        })
        .cloned()
}
