//! The build's version: the package version and the commit it was built from, so that `--version`,
//! CECP `feature myname`, UCI `id name` (and so a tournament's PGN) and a release bundle's name say
//! which build played. Sets for the crate:
//! - `FAIRYBRIDGE_VERSION`: `0.1.0+1aeafcb` (`0.1.0+1aeafcb.dirty` when the files the binary is
//!   built from differ from that commit), or the package version alone without git;
//! - `FAIRYBRIDGE_COMMIT`: the full commit id, or `unknown`;
//! - `FAIRYBRIDGE_TARGET`: the target triple.
//!
//! Without git (a source tarball, git not installed, not a repository) it falls back to the package
//! version and never fails the build. `FAIRYBRIDGE_COMMIT` set in the environment (e.g. by
//! whoever unpacks a source tarball of a known commit) is used instead of asking git.
//!
//! For the Windows gnu targets it also links a version resource (`VERSIONINFO`, compiled by
//! mingw-w64's `windres`) into `fairybridge.exe` and the Zillions `fairybridge.dll`, so that
//! Windows' file properties ("Details": file and product version) name the same build: the
//! DLL's only way to say which build it is. Without `windres` the build goes on without it (a
//! warning says so); the `-msvc` targets get none (that would need Microsoft's `rc.exe`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The paths the binary is built from: a change there makes the build "dirty" (docs do not).
const SOURCES: [&str; 5] = ["src", "fixtures", "Cargo.toml", "Cargo.lock", "build.rs"];

fn git_raw(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").arg("-C").arg(root).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    Some(text.trim().to_string())
}

/// git, only when `root` is the top of a work tree: a source tarball unpacked inside some other
/// repository must not take that repository's commit.
fn git(root: &Path, args: &[&str]) -> Option<String> {
    let top = PathBuf::from(git_raw(root, &["rev-parse", "--show-toplevel"])?);
    if top.canonicalize().ok()? != root.canonicalize().ok()? {
        return None;
    }
    git_raw(root, args)
}

/// A commit id as given from outside: 7 to 40 hexadecimal digits.
fn is_commit_id(text: &str) -> bool {
    (7..=40).contains(&text.len()) && text.chars().all(|c| c.is_ascii_hexdigit())
}

/// The files whose change means a new commit (or a checkout): HEAD, the branch it names, packed refs.
fn git_state_files(root: &Path) -> Vec<PathBuf> {
    let absolute = |p: String| {
        let p = PathBuf::from(p);
        if p.is_absolute() { p } else { root.join(p) }
    };
    let (Some(git_dir), Some(common_dir)) = (
        git(root, &["rev-parse", "--git-dir"]).map(absolute),
        git(root, &["rev-parse", "--git-common-dir"]).map(absolute),
    ) else {
        return Vec::new();
    };
    let mut files = vec![git_dir.join("HEAD"), common_dir.join("packed-refs")];
    if let Some(branch) = git(root, &["symbolic-ref", "-q", "HEAD"]) {
        files.push(common_dir.join(branch));
    }
    // Cargo re-runs the script on every build for a named file that does not exist.
    files.retain(|f| f.exists());
    files
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    let package = std::env::var("CARGO_PKG_VERSION").unwrap_or_else(|_| "0.0.0".into());
    let target = std::env::var("TARGET").unwrap_or_else(|_| "unknown".into());

    println!("cargo:rerun-if-env-changed=FAIRYBRIDGE_COMMIT");
    // The sources too: an edit there can change whether the build is dirty (and recompiles the
    // crate anyway, so re-running this costs nothing more).
    for path in SOURCES {
        println!("cargo:rerun-if-changed={path}");
    }
    for file in git_state_files(&root) {
        println!("cargo:rerun-if-changed={}", file.display());
    }

    let given = std::env::var("FAIRYBRIDGE_COMMIT")
        .ok()
        .map(|c| c.trim().to_ascii_lowercase());
    let given = match given {
        Some(c) if is_commit_id(&c) => Some(c),
        Some(c) if !c.is_empty() => {
            println!("cargo:warning=FAIRYBRIDGE_COMMIT={c:?} is not a commit id; ignored");
            None
        }
        _ => None,
    };
    let from_git = || {
        let full = git(&root, &["rev-parse", "--verify", "HEAD^{commit}"])?;
        let short = git(&root, &["rev-parse", "--short=7", "HEAD"])?;
        let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
        status.extend(SOURCES);
        let dirty = git(&root, &status).is_some_and(|s| !s.is_empty());
        Some((full, short, dirty))
    };
    let (version, commit) = match given {
        Some(commit) => {
            let short: String = commit.chars().take(7).collect();
            (format!("{package}+{short}"), commit)
        }
        None => match from_git() {
            Some((full, short, dirty)) => {
                let suffix = if dirty { ".dirty" } else { "" };
                (format!("{package}+{short}{suffix}"), full)
            }
            None => (package.clone(), "unknown".to_string()),
        },
    };
    println!("cargo:rustc-env=FAIRYBRIDGE_VERSION={version}");
    println!("cargo:rustc-env=FAIRYBRIDGE_COMMIT={commit}");
    println!("cargo:rustc-env=FAIRYBRIDGE_TARGET={target}");
    if target.ends_with("-windows-gnu") {
        version_resources(&target, &package, &version, &commit);
    }
}

/// `windres` for TARGET: `WINDRES` if set, else mingw-w64's `ARCH-w64-mingw32-windres`, else a
/// plain `windres` (MSYS2 on Windows).
fn windres(target: &str) -> Option<String> {
    println!("cargo:rerun-if-env-changed=WINDRES");
    let arch = target.split('-').next().unwrap_or("x86_64");
    let candidates = [
        std::env::var("WINDRES").ok(),
        Some(format!("{arch}-w64-mingw32-windres")),
        Some("windres".to_string()),
    ];
    candidates.into_iter().flatten().find(|w| {
        Command::new(w)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// The `VERSIONINFO` of the program (`bin`) or the plug-in (`cdylib`), compiled to an object
/// file in OUT_DIR and handed to the linker of that kind of output only.
fn version_resources(target: &str, package: &str, version: &str, commit: &str) {
    let Some(out_dir) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        return;
    };
    let Some(windres) = windres(target) else {
        println!("cargo:warning=no windres for {target}: fairybridge.exe and fairybridge.dll get no version resource");
        return;
    };
    // FILEVERSION is four numbers: the package version's three, then 0.
    let mut numbers: Vec<u16> = package
        .split(['.', '-', '+'])
        .take(3)
        .map(|n| n.parse().unwrap_or(0))
        .collect();
    numbers.resize(4, 0);
    let numeric = numbers.iter().map(u16::to_string).collect::<Vec<_>>().join(",");
    let arch = target.split('-').next().unwrap_or("x86_64");
    let kinds = [
        (
            "bins",
            "1",
            "fairybridge.exe",
            format!("fairybridge chess-variant engine (CECP and UCI), {arch}"),
        ),
        (
            "cdylib",
            "2",
            "fairybridge.dll",
            format!("fairybridge engine plug-in for Zillions of Games, {arch}"),
        ),
    ];
    for (kind, file_type, file_name, description) in kinds {
        let rc = out_dir.join(format!("version-{kind}.rc"));
        let object = out_dir.join(format!("version-{kind}.o"));
        // FILEOS 0x40004: VOS_NT_WINDOWS32; FILETYPE 1: VFT_APP, 2: VFT_DLL; strings in U.S.
        // English (0409), Unicode (04B0 = 1200).
        let text = [
            "1 VERSIONINFO".to_string(),
            format!("FILEVERSION {numeric}"),
            format!("PRODUCTVERSION {numeric}"),
            "FILEFLAGSMASK 0x3f".to_string(),
            "FILEFLAGS 0".to_string(),
            "FILEOS 0x40004".to_string(),
            format!("FILETYPE {file_type}"),
            "FILESUBTYPE 0".to_string(),
            "BEGIN".to_string(),
            "  BLOCK \"StringFileInfo\"".to_string(),
            "  BEGIN".to_string(),
            "    BLOCK \"040904B0\"".to_string(),
            "    BEGIN".to_string(),
            format!("      VALUE \"FileDescription\", \"{description}\""),
            format!("      VALUE \"FileVersion\", \"{version}\""),
            "      VALUE \"ProductName\", \"fairybridge\"".to_string(),
            format!("      VALUE \"ProductVersion\", \"{version}\""),
            "      VALUE \"InternalName\", \"fairybridge\"".to_string(),
            format!("      VALUE \"OriginalFilename\", \"{file_name}\""),
            format!("      VALUE \"Comments\", \"commit {commit}\""),
            "    END".to_string(),
            "  END".to_string(),
            "  BLOCK \"VarFileInfo\"".to_string(),
            "  BEGIN".to_string(),
            "    VALUE \"Translation\", 0x409, 1200".to_string(),
            "  END".to_string(),
            "END".to_string(),
            String::new(),
        ]
        .join("\n");
        let compiled = std::fs::write(&rc, text).is_ok()
            && Command::new(&windres)
                .args(["--input-format=rc", "--output-format=coff", "-i"])
                .arg(&rc)
                .arg("-o")
                .arg(&object)
                .status()
                .is_ok_and(|s| s.success());
        if compiled {
            // An object file, not a library: the linker keeps a resource nothing refers to.
            println!("cargo:rustc-link-arg-{kind}={}", object.display());
        } else {
            println!(
                "cargo:warning={windres} could not compile {}: {file_name} gets no version resource",
                rc.display()
            );
        }
    }
}
