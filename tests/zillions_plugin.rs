//! Our engine as a Zillions plug-in, driven the way Zillions drives it: tests/c/zillions_driver.c,
//! compiled here with the system C compiler, loads target/release/libfairybridge.so with dlopen
//! and plays a whole Wreckage game through the six DLL_* calls (see the driver's header comment).
//!
//! Needs the feature: `cargo test --release --features zillions --test zillions_plugin` (CI runs
//! it); without the feature the library exports no DLL_* calls and this file is not built.

use std::path::{Path, PathBuf};
use std::process::Command;

fn library() -> PathBuf {
    let dir = Path::new(env!("CARGO_BIN_EXE_fairybridge"))
        .parent()
        .expect("target dir")
        .to_path_buf();
    let name = if cfg!(target_os = "macos") {
        "libfairybridge.dylib"
    } else {
        "libfairybridge.so"
    };
    // `cargo test` builds the cdylib into deps/ (fresh with every build of the library); only
    // `cargo build` copies it up beside the binary.
    let lib = [dir.join("deps").join(name), dir.join(name)]
        .into_iter()
        .find(|p| p.exists());
    lib.unwrap_or_else(|| {
        panic!(
            "{name} is missing in {}: the cdylib is built with the library",
            dir.display()
        )
    })
}

fn c_driver() -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/zillions_driver.c");
    let exe = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zillions_driver");
    let out = Command::new("cc")
        .args([
            "-std=c11",
            "-D_POSIX_C_SOURCE=200809L",
            "-D_DEFAULT_SOURCE",
            "-Wall",
            "-Werror",
            "-O1",
            "-o",
        ])
        .arg(&exe)
        .arg(&src)
        .args(["-ldl", "-lpthread"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `cc` ({e}): scripts/install-deps.sh installs it"));
    assert!(
        out.status.success(),
        "the C driver does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

#[test]
fn a_c_program_plays_a_whole_wreckage_game_through_the_plugin() {
    let out = Command::new(c_driver())
        .arg(library())
        .output()
        .expect("the driver runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "driver failed:\n{stdout}\n{stderr}");
    for step in [
        "ok start and error codes",
        "ok setup as placements: 36 legal moves",
        "ok null pointers and bad strings",
        "ok search stopped with kSTOPSOON",
        "ok search stopped with kSTOPNOW",
        "ok all checks",
    ] {
        assert!(stdout.contains(step), "missing {step:?} in\n{stdout}");
    }
}
