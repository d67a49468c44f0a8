//! Scratch folders for the tests that write files.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh folder under the temporary directory, removed with everything in it when dropped,
/// so that test runs leave nothing behind; kept, and named on stderr, when a failing test
/// drops it, as evidence. Named by the test process and a counter: tests running in
/// parallel never share one.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let number = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir()
            .join(format!("tengen-test-{name}-{}-{number}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("scratch folder kept: {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The path of an example program (`examples/NAME.rs`), built beside the binary by `cargo
/// test` (examples are compiled with the tests).
#[allow(dead_code)] // not every test binary runs an example
pub fn example(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_BIN_EXE_tengen")).parent().unwrap().join("examples");
    let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "build the examples first: {}", path.display());
    path
}
