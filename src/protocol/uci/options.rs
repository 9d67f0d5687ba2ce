//! The UCI options we announce, their values, and how a `setoption` value is read (numbers are
//! clamped to the announced range, which is what the machine can do).

use super::reply::{OptionDecl, OptionKind};
use crate::engine::memory::{DEFAULT_HASH_MB, max_hash_mb};
use crate::engine::threads::{DEFAULT_THREADS, max_threads};
use crate::search::MIN_OVERHEAD_MS;
use crate::variants::{NORMAL, Registry};

/// Largest `Move Overhead` (ms).
const MAX_OVERHEAD_MS: i64 = 5000;
/// The UCI name of orthodox chess (our `normal`), as GUIs and python-chess send it.
pub const CHESS: &str = "chess";

/// Most lines `MultiPV` may ask for (more than the legal moves are as many as there are).
pub const MAX_MULTI_PV: i64 = 64;

/// The current option values.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub max_hash_mb: usize,
    /// Threads of the searches to come (`Threads`).
    pub threads: usize,
    /// The most `Threads` this machine runs at once.
    pub max_threads: usize,
    pub ponder: bool,
    /// Lines reported per iteration (`MultiPV`).
    pub multi_pv: u32,
    pub move_overhead_ms: i64,
    pub chess960: bool,
    /// The variant's registry name (`normal` for UCI's `chess`).
    pub variant: String,
}

impl Options {
    pub fn new() -> Options {
        Options {
            hash_mb: DEFAULT_HASH_MB,
            max_hash_mb: max_hash_mb(),
            threads: DEFAULT_THREADS,
            max_threads: max_threads(),
            ponder: false,
            multi_pv: 1,
            move_overhead_ms: MIN_OVERHEAD_MS,
            chess960: false,
            variant: NORMAL.to_string(),
        }
    }

    /// The options of the `uci` answer.
    pub fn announce(&self, registry: &Registry) -> Vec<OptionDecl> {
        let option = |name: &str, kind: OptionKind| OptionDecl {
            name: name.to_string(),
            kind,
        };
        let spin = |default: usize, min: i64, max: usize| OptionKind::Spin {
            default: default as i64,
            min,
            max: max as i64,
        };
        let variants = registry
            .names()
            .iter()
            .map(|n| uci_variant_name(n).to_string())
            .collect();
        vec![
            option("Hash", spin(DEFAULT_HASH_MB.min(self.max_hash_mb), 1, self.max_hash_mb)),
            option(
                "Threads",
                spin(DEFAULT_THREADS.min(self.max_threads), 1, self.max_threads),
            ),
            option("Clear Hash", OptionKind::Button),
            option("Ponder", OptionKind::Check { default: false }),
            option(
                "MultiPV",
                OptionKind::Spin {
                    default: 1,
                    min: 1,
                    max: MAX_MULTI_PV,
                },
            ),
            option(
                "Move Overhead",
                OptionKind::Spin {
                    default: MIN_OVERHEAD_MS,
                    min: 0,
                    max: MAX_OVERHEAD_MS,
                },
            ),
            option("UCI_Chess960", OptionKind::Check { default: false }),
            option(
                "UCI_Variant",
                OptionKind::Combo {
                    default: CHESS.to_string(),
                    vars: variants,
                },
            ),
            option(
                "VariantPath",
                OptionKind::String {
                    default: "<empty>".to_string(),
                },
            ),
        ]
    }
}

impl Default for Options {
    fn default() -> Self {
        Options::new()
    }
}

/// The name a variant has in `UCI_Variant`.
pub fn uci_variant_name(registry_name: &str) -> &str {
    if registry_name == NORMAL { CHESS } else { registry_name }
}

/// The registry name of a `UCI_Variant` value (`chess` and `normal` both mean orthodox chess).
pub fn registry_variant_name(uci_name: &str) -> &str {
    if uci_name.eq_ignore_ascii_case(CHESS) {
        NORMAL
    } else {
        uci_name
    }
}

/// An option name as we know it, matched without regard to case (as UCI GUIs expect).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum OptionName {
    Hash,
    Threads,
    ClearHash,
    Ponder,
    MultiPv,
    MoveOverhead,
    Chess960,
    Variant,
    VariantPath,
}

impl OptionName {
    pub fn parse(name: &str) -> Option<OptionName> {
        const NAMES: &[(&str, OptionName)] = &[
            ("Hash", OptionName::Hash),
            ("Threads", OptionName::Threads),
            ("Clear Hash", OptionName::ClearHash),
            ("Ponder", OptionName::Ponder),
            ("MultiPV", OptionName::MultiPv),
            ("Move Overhead", OptionName::MoveOverhead),
            ("UCI_Chess960", OptionName::Chess960),
            ("UCI_Variant", OptionName::Variant),
            ("VariantPath", OptionName::VariantPath),
        ];
        NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
            .map(|(_, o)| *o)
    }
}

/// A spin value: a whole number clamped to `min..=max`.
///
/// # Errors
///
/// No value, or one that is not a whole number (the text says what was expected).
pub fn spin(value: Option<&str>, min: i64, max: i64) -> Result<i64, String> {
    let text = value.unwrap_or("").trim();
    match text.parse::<i128>() {
        Ok(n) => Ok(n.clamp(min as i128, max as i128) as i64),
        Err(_) if !text.is_empty() && text.trim_start_matches('-').chars().all(|c| c.is_ascii_digit()) => {
            Ok(if text.starts_with('-') { min } else { max })
        }
        Err(_) => Err(format!("expected a number from {min} to {max}, got {text:?}")),
    }
}

/// A check value: `true` or `false`.
///
/// # Errors
///
/// No value, or one that is neither `true` nor `false`.
pub fn check(value: Option<&str>) -> Result<bool, String> {
    match value.unwrap_or("").trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(format!("expected true or false, got {other:?}")),
    }
}

/// Largest `Move Overhead`.
pub fn max_overhead_ms() -> i64 {
    MAX_OVERHEAD_MS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spins_are_clamped() {
        assert_eq!(spin(Some("99999999999999999999999999"), 1, 4096), Ok(4096));
        assert_eq!(spin(Some(" 12 "), 1, 4096), Ok(12));
        assert_eq!(spin(Some("-5"), 1, 4096), Ok(1));
        assert_eq!(spin(Some("-999999999999999999999999999999999999999999"), 0, 10), Ok(0));
        assert!(spin(Some("lots"), 1, 4096).is_err());
        assert!(spin(None, 1, 4096).is_err());
    }

    #[test]
    fn checks_and_names() {
        assert_eq!(check(Some("TRUE")), Ok(true));
        assert!(check(Some("yes")).is_err());
        assert_eq!(OptionName::parse("move overhead"), Some(OptionName::MoveOverhead));
        assert_eq!(OptionName::parse("uci_variant"), Some(OptionName::Variant));
        assert_eq!(OptionName::parse("threads"), Some(OptionName::Threads));
        assert_eq!(OptionName::parse("Thread"), None);
        assert_eq!(registry_variant_name("Chess"), "normal");
        assert_eq!(uci_variant_name("normal"), "chess");
        assert_eq!(uci_variant_name("pillage"), "pillage");
    }

    #[test]
    fn the_hash_maximum_is_the_engines() {
        let options = Options::new();
        assert_eq!(options.max_hash_mb, max_hash_mb());
        assert!(options.max_hash_mb >= 1);
        let hash = format!("min 1 max {}", max_hash_mb());
        assert!(options.announce(&Registry::builtin())[0].to_string().ends_with(&hash));
    }

    #[test]
    fn the_threads_maximum_is_the_machines() {
        let options = Options::new();
        assert_eq!((options.threads, options.max_threads), (1, max_threads()));
        let announced = options.announce(&Registry::builtin());
        let threads = announced.iter().find(|o| o.name == "Threads").expect("announced");
        let line = format!("option name Threads type spin default 1 min 1 max {}", max_threads());
        assert_eq!(threads.to_string(), line);
    }

    #[test]
    fn every_loaded_game_is_in_the_variant_combo() {
        let lines: Vec<String> = Options::new()
            .announce(&Registry::builtin())
            .iter()
            .map(ToString::to_string)
            .collect();
        let combo = lines.iter().find(|l| l.starts_with("option name UCI_Variant")).unwrap();
        for name in ["chess", "wildcastle", "pillage", "wildrose", "wreckage"] {
            assert!(combo.contains(&format!(" var {name}")), "{combo}");
        }
        assert!(!combo.contains("var normal"));
    }
}
