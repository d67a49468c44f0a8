//! The analysis commands through Sabaki's own engine library, `@sabaki/gtp` (Node.js): the
//! script `tests/sabaki/analysis.test.js` drives the release binary as Sabaki does. It needs
//! `npm install` in `tests/sabaki` (`.ci/run` does it and sets `TENGEN_REQUIRE_SABAKI=1`,
//! which turns a missing Node or library into a failure); elsewhere it is skipped with a note.

use std::path::Path;
use std::process::Command;

#[test]
fn analysis_through_sabaki_gtp() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sabaki");
    let required = std::env::var_os("TENGEN_REQUIRE_SABAKI").is_some();
    let installed = dir.join("node_modules/@sabaki/gtp").is_dir();
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    if !(installed && node) {
        assert!(!required, "node or @sabaki/gtp missing: run npm install in {}", dir.display());
        eprintln!("skipped: node or @sabaki/gtp missing (npm install in tests/sabaki)");
        return;
    }
    let out = Command::new("node")
        .arg(dir.join("analysis.test.js"))
        .arg(env!("CARGO_BIN_EXE_tengen"))
        .output()
        .unwrap();
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("ok: "), "{text}");
}
