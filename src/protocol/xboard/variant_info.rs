//! What XBoard needs to know about a variant, read by this door from the `[xboard]` section of the
//! variant's definition file (the rules never read it): whether XBoard knows the game itself, the
//! parent and piece-to-char table of its `setup` line, the `piece` lines, and how castling and
//! e.p. go on the wire. The section is read once, when the definition loads (`SECTION`), and kept
//! in the variant's extensions as an `XboardInfo`.

use std::sync::{Arc, LazyLock};

use serde::Deserialize;

use crate::core::{Move, Position, Variant};
use crate::variants::{DefinitionError, Section, SourceFile};

use super::wire::{self as wire_text, WireStyle};

/// How XBoard is told about the variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XboardInfo {
    /// XBoard knows the rules itself: no `setup`/`piece` lines.
    pub builtin: bool,
    /// Parent variant for `setup (...) WxH+S_parent`.
    pub parent: String,
    /// Piece-to-char table (two halves, king last), if the variant sends `setup`.
    pub piece_table: Option<String>,
    /// Holdings slots (S of `WxH+S_parent`).
    pub holdings: u8,
    /// `piece` lines: letter and XBetza for XBoard.
    pub pieces: Vec<(String, String)>,
    /// Castling as two legs (`f0h0,i0g0`) rather than as the king move; en-passant captures as two
    /// legs through the victim (`d5c5,c5c4`): XBoard 4.9.1 removes an e.p. victim itself only when
    /// the capturing pawn stands in the far half of the board, but carries out (and, with an `e`
    /// capture in the pawn's `piece` line, accepts with legality testing on) the two-leg form
    /// everywhere.
    pub wire: WireStyle,
}

impl Default for XboardInfo {
    fn default() -> Self {
        XboardInfo {
            builtin: false,
            parent: "fairy".to_string(),
            piece_table: None,
            holdings: 0,
            pieces: Vec::new(),
            wire: WireStyle::default(),
        }
    }
}

/// The definition file as this door reads it: its own section, nothing else.
#[derive(Deserialize)]
struct DoorView {
    #[serde(default)]
    xboard: XboardDef,
}

/// The section as one file writes it: a key it does not write comes from the definition it
/// inherits (`inherit =`), if any, else its default.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct XboardDef {
    builtin: Option<bool>,
    parent: Option<String>,
    table: Option<String>,
    holdings: Option<u8>,
    castling: Option<CastlingWire>,
    en_passant: Option<EnPassantWire>,
    pieces: Option<Vec<(String, String)>>,
}

impl XboardDef {
    fn read(text: &str, file: &str) -> Result<XboardDef, DefinitionError> {
        let view: DoorView = toml::from_str(text).map_err(|e| DefinitionError::from_toml(&e, text, file))?;
        Ok(view.xboard)
    }

    /// This file's keys, and its parent's where it writes none.
    fn over(self, parent: XboardDef) -> XboardDef {
        XboardDef {
            builtin: self.builtin.or(parent.builtin),
            parent: self.parent.or(parent.parent),
            table: self.table.or(parent.table),
            holdings: self.holdings.or(parent.holdings),
            castling: self.castling.or(parent.castling),
            en_passant: self.en_passant.or(parent.en_passant),
            pieces: self.pieces.or(parent.pieces),
        }
    }

    fn info(self) -> XboardInfo {
        XboardInfo {
            builtin: self.builtin.unwrap_or(false),
            parent: self.parent.unwrap_or_else(|| "fairy".to_string()),
            piece_table: self.table,
            holdings: self.holdings.unwrap_or(0),
            pieces: self.pieces.unwrap_or_default(),
            wire: WireStyle {
                castling_two_legs: self.castling == Some(CastlingWire::TwoLegs),
                en_passant_legs: self.en_passant == Some(EnPassantWire::TwoLegs),
            },
        }
    }
}

/// `castling`: as the king's move, or as two legs (king, then rook).
#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
enum CastlingWire {
    King,
    TwoLegs,
}

/// `en_passant`: as the pawn's move, or as two legs through the victim.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
enum EnPassantWire {
    Plain,
    TwoLegs,
}

/// What a variant loaded without this door's section is told as: an engine-defined game.
static UNREAD: LazyLock<XboardInfo> = LazyLock::new(XboardInfo::default);

impl XboardInfo {
    /// How a registry reads the section (`Registry::builtin_with`).
    pub const SECTION: Section = Section {
        read: |_, files| Ok(Arc::new(XboardInfo::read(files)?)),
    };

    /// Reads the `[xboard]` section of one definition file (`text`, from `file`) that inherits
    /// nothing.
    ///
    /// # Errors
    /// A key that is not the section's or a value it does not take, at its line.
    pub fn parse(text: &str, file: &str) -> Result<XboardInfo, DefinitionError> {
        XboardInfo::read(&[SourceFile { file, text }])
    }

    /// Reads the `[xboard]` section of a chain of definition files (the root parent first), key
    /// by key.
    ///
    /// # Errors
    /// As `parse`, naming the file too.
    pub fn read(files: &[SourceFile]) -> Result<XboardInfo, DefinitionError> {
        let mut section = XboardDef::default();
        for file in files {
            section = XboardDef::read(file.text, file.file)?.over(section);
        }
        Ok(section.info())
    }

    /// The XBoard facts of a variant, read when its definition loaded; the defaults (an
    /// engine-defined game) if it was loaded by a registry without this section.
    pub fn of(variant: &Variant) -> &XboardInfo {
        variant.extensions.get::<XboardInfo>().unwrap_or(&UNREAD)
    }
}

/// The wire (CECP) text of a move in its variant's XBoard style.
pub fn wire(pos: &Position, mv: &Move) -> String {
    wire_text::text(pos, mv, XboardInfo::of(pos.variant()).wire)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_fixtures::line_containing;

    #[test]
    fn built_in_sections() {
        // Every built-in section reads (`builtin_with` panics on a bad built-in definition).
        let registry = crate::protocol::builtin_games();
        let normal = registry.get("normal").expect("normal");
        let normal = XboardInfo::of(&normal);
        assert!(normal.builtin && normal.wire == WireStyle::default());
        let pillage = registry.get("pillage").expect("pillage");
        let pillage = XboardInfo::of(&pillage);
        assert!(!pillage.builtin && pillage.wire.castling_two_legs && pillage.wire.en_passant_legs);
    }

    /// An error in an `[xboard]` castling or e.p. value points at that value's own line, not at
    /// the `name =` line.
    #[test]
    fn xboard_values_point_at_their_own_lines() {
        let normal = include_str!("../../../fixtures/variants/normal.toml");
        for (key, value) in [("castling", "sideways"), ("en_passant", "diagonal")] {
            let source = normal.replace("builtin = true", &format!("builtin = true\n{key} = \"{value}\""));
            let e = XboardInfo::parse(&source, "t.toml").expect_err("a bad value");
            assert_eq!(e.line, Some(line_containing(&source, value)), "{key}: {e}");
            assert!(e.message.contains(value), "{e}");
        }
        let source = normal.replace("builtin = true", "builtin = true\ncolour = 3");
        let e = XboardInfo::parse(&source, "t.toml").expect_err("an unknown key");
        assert_eq!(e.line, Some(line_containing(&source, "colour")), "{e}");
    }
}
