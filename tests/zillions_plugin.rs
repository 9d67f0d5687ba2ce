//! Our engine as a Zillions plug-in, driven the way Zillions drives it: tests/c/zillions_driver.c,
//! compiled here with the system C compiler, loads target/release/libfairybridge.so with dlopen
//! and plays a whole Wreckage game through the six DLL_* calls (see the driver's header comment).
//!
//! Needs the feature: `cargo test --release --features zillions --test zillions_plugin` (CI runs
//! it); without the feature the library exports no DLL_* calls and this file is not built.

use std::process::Command;

mod common;

#[test]
fn a_c_program_plays_a_whole_wreckage_game_through_the_plugin() {
    let out = Command::new(common::c_driver("zillions_driver"))
        .arg(common::plugin_library())
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
