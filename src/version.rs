//! Which build this is: the package version and the commit it was built from (set by `build.rs`
//! from git, or the package version alone when built without git). `--version`, CECP
//! `feature myname` and UCI `id name` all say [`ENGINE_NAME`], so a tournament's PGN names the build.

/// `0.1.0+1aeafcb` (`.dirty` after it when built from modified sources), or `0.1.0` without git.
pub const VERSION: &str = env!("FAIRYBRIDGE_VERSION");

/// The full commit id the build was made from, or `unknown`.
pub const COMMIT: &str = env!("FAIRYBRIDGE_COMMIT");

/// The target triple the build is for (`x86_64-pc-windows-gnu`, `x86_64-unknown-linux-gnu`, …).
pub const TARGET: &str = env!("FAIRYBRIDGE_TARGET");

/// The name the engine announces to GUIs and match runners: `fairybridge 0.1.0+1aeafcb`.
pub const ENGINE_NAME: &str = concat!("fairybridge ", env!("FAIRYBRIDGE_VERSION"));

/// What `--version` prints after the program name: the version, then the commit and target.
pub const LONG_VERSION: &str = concat!(
    env!("FAIRYBRIDGE_VERSION"),
    "\ncommit ",
    env!("FAIRYBRIDGE_COMMIT"),
    "\ntarget ",
    env!("FAIRYBRIDGE_TARGET")
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_starts_with_the_package_version_and_names_the_commit_it_shows() {
        let package = env!("CARGO_PKG_VERSION");
        assert!(
            VERSION == package || VERSION.starts_with(&format!("{package}+")),
            "{VERSION}"
        );
        match VERSION.strip_prefix(&format!("{package}+")) {
            Some(rest) => {
                let short = rest.strip_suffix(".dirty").unwrap_or(rest);
                assert!(
                    short.len() == 7 && short.chars().all(|c| c.is_ascii_hexdigit()),
                    "{VERSION}"
                );
                assert!(COMMIT.starts_with(short), "{VERSION} vs commit {COMMIT}");
            }
            None => assert_eq!(COMMIT, "unknown"),
        }
        assert_eq!(ENGINE_NAME, format!("fairybridge {VERSION}"));
        assert!(LONG_VERSION.starts_with(&format!("{VERSION}\ncommit {COMMIT}\ntarget ")));
    }
}
