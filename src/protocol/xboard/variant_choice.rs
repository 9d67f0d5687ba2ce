//! `variant NAME`: which loaded game the GUI asks for, the same answer for every brain. XBoard may
//! prefix a board size (`10x10+0_pillage`): it is accepted when it is the variant's own size, and
//! refused otherwise, never stripped unread.

use std::sync::Arc;

use super::reply::Reply;
use crate::core::Variant;

/// The variant `requested` names, found by `find`; the error line to send when there is none, or
/// when a size prefix does not match it. A variant's own name comes first: a user variant may be
/// called `8x8_chess`.
///
/// # Errors
///
/// `Error (unsupported variant): …` for a name `find` does not know, `Error (unsupported board
/// size): …` for a size prefix that is not the variant's own.
pub fn choose_variant(requested: &str, find: impl Fn(&str) -> Option<Arc<Variant>>) -> Result<Arc<Variant>, Reply> {
    let refuse = |kind: &str| Reply::Error {
        kind: kind.to_string(),
        text: requested.to_string(),
    };
    if let Some(v) = find(requested) {
        return Ok(v);
    }
    let (size, name) = match requested.split_once('_') {
        Some((size, name)) if size.contains('x') && size.starts_with(|c: char| c.is_ascii_digit()) => (size, name),
        _ => return Err(refuse("unsupported variant")),
    };
    let variant = find(name).ok_or_else(|| refuse("unsupported variant"))?;
    let (dims, holdings) = size.split_once('+').unwrap_or((size, "0"));
    let own = format!("{}x{}", variant.shape.files, variant.shape.ranks);
    if dims != own || holdings.parse::<u8>().is_err() {
        return Err(refuse("unsupported board size"));
    }
    Ok(variant)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choose(requested: &str) -> Result<String, String> {
        let registry = crate::protocol::builtin_games();
        choose_variant(requested, |n| registry.get(n))
            .map(|v| v.name.clone())
            .map_err(|reply| reply.to_string())
    }

    #[test]
    fn a_size_prefix_is_accepted_only_when_it_is_the_variants_own() {
        assert_eq!(choose("normal"), Ok("normal".to_string()));
        assert_eq!(choose("8x8_normal"), Ok("normal".to_string()));
        assert_eq!(choose("8x8+0_normal"), Ok("normal".to_string()));
        assert_eq!(
            choose("10x8_normal"),
            Err("Error (unsupported board size): 10x8_normal".to_string())
        );
        assert_eq!(
            choose("8x8+x_normal"),
            Err("Error (unsupported board size): 8x8+x_normal".to_string())
        );
        assert_eq!(
            choose("8x8_nosuch"),
            Err("Error (unsupported variant): 8x8_nosuch".to_string())
        );
        assert_eq!(choose("nosuch"), Err("Error (unsupported variant): nosuch".to_string()));
    }
}
