//! The source tree's layers, checked from the code: each folder of `src/` is a layer, and a
//! module may use only its own layer and those below it (board ← game ← search ← gtp ←
//! client ← train, cli), and no two modules use each other. Read from the `crate::` and
//! `super::` paths in each file (its tests left out), so a new arrow against the layers
//! fails here rather than in a reviewer's reading.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers from the bottom; a module of layer `i` may use layers `0..=i`.
const LAYERS: [&[&str]; 7] =
    [&["board"], &["game"], &["search"], &["gtp"], &["client"], &["train"], &["cli"]];

fn layer_of(module: &[String]) -> Option<usize> {
    let top = module.first()?;
    LAYERS.iter().position(|names| names.contains(&top.as_str()))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src/` (`src/game/score.rs` → `game::score`).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> =
        relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The modules a file's code names through `crate::` or `super::` paths, before its
/// `#[cfg(test)]` module: each path cut to its longest prefix that is a module of the crate.
fn used_modules(
    text: &str,
    module: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> BTreeSet<Vec<String>> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let bytes = code.as_bytes();
    let mut used = BTreeSet::new();
    for (word, from) in
        [("crate::", &module[..0]), ("super::", &module[..module.len().saturating_sub(1)])]
    {
        for (at, _) in code.match_indices(word) {
            // Only whole words: `my_crate::` is no path of this crate.
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            let mut path = from.to_vec();
            path.extend(
                code[at + word.len()..]
                    .split("::")
                    .map(|part| {
                        part.chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect()
                    })
                    .take_while(|part: &String| part.starts_with(|c: char| c.is_ascii_lowercase())),
            );
            let found =
                (1..=path.len()).rev().map(|n| path[..n].to_vec()).find(|m| modules.contains(m));
            if let Some(found) = found.filter(|found| found != module) {
                used.insert(found);
            }
        }
    }
    used
}

// No module uses a higher layer than its own, and no two modules use each other.
#[test]
fn dependencies_point_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(&src, f)).collect();
    let mut uses: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for file in &files {
        let module = module_of(&src, file);
        if module.last().is_some_and(|m| m == "tests") || module.is_empty() {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        uses.insert(module.clone(), used_modules(&text, &module, &modules));
    }
    let name = |m: &Vec<String>| m.join("::");
    let mut problems = Vec::new();
    for (module, used) in &uses {
        for other in used {
            if let (Some(mine), Some(theirs)) = (layer_of(module), layer_of(other)) {
                if theirs > mine {
                    problems.push(format!(
                        "{} uses the higher layer {}",
                        name(module),
                        name(other)
                    ));
                }
            }
            if uses.get(other).is_some_and(|back| back.contains(module)) && module < other {
                problems.push(format!("{} and {} use each other", name(module), name(other)));
            }
        }
    }
    assert!(uses.len() > 30, "the source tree was read: {} modules", uses.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// The checker sees an arrow against the layers and a circle when there is one.
#[test]
fn the_checker_sees_what_it_must() {
    let modules: BTreeSet<Vec<String>> = [
        vec!["board".to_string()],
        vec!["game".to_string()],
        vec!["search".to_string(), "tree".to_string()],
    ]
    .into_iter()
    .collect();
    let board = vec!["board".to_string()];
    let used =
        used_modules("use crate::search::tree::Node;\nuse crate::game::Game;", &board, &modules);
    assert!(used.contains(&vec!["search".to_string(), "tree".to_string()]));
    assert!(used.contains(&vec!["game".to_string()]));
    let tree = vec!["search".to_string(), "tree".to_string()];
    let used = used_modules("fn f() { super::tree::x(); crate::board::y() }\n#[cfg(test)]\nmod tests { use crate::game::Game; }", &tree, &modules);
    assert_eq!(used.len(), 1, "{used:?}: its own module and its tests do not count");
    assert!(used.contains(&board));
    assert_eq!(layer_of(&["search".to_string()]), Some(2));
    assert!(layer_of(&["search".to_string()]) < layer_of(&["gtp".to_string()]));
}
