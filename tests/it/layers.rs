//! The layering is the crate graph (ARCHITECTURE.md), and the crate graph
//! is held here: `cargo tree` must not find rayon, polars, plotters or clap
//! under the core, nor polars, plotters or clap under the simulation.

use std::process::Command;

/// The packages `package` depends on, transitively, for normal builds.
fn tree(package: &str) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let o = Command::new(cargo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tree", "--locked", "--offline", "-e", "normal", "--prefix", "none", "-p", package])
        .output()
        .expect("cargo runs");
    assert!(o.status.success(), "cargo tree -p {package}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).lines().filter_map(|l| l.split_whitespace().next()).map(String::from).collect()
}

#[test]
fn the_core_has_no_threads_frames_charts_or_command_line() {
    let deps = tree("empires-core");
    assert!(deps.iter().any(|d| d == "rand_pcg"), "the tree was read: {deps:?}");
    for banned in ["rayon", "polars", "plotters", "clap", "indicatif", "empires-sim", "empires"] {
        assert!(!deps.iter().any(|d| d == banned), "empires-core depends on {banned}");
    }
}

#[test]
fn the_simulation_has_no_frames_charts_or_command_line() {
    let deps = tree("empires-sim");
    assert!(deps.iter().any(|d| d == "rayon") && deps.iter().any(|d| d == "empires-core"), "{deps:?}");
    for banned in ["polars", "plotters", "clap", "indicatif", "empires"] {
        assert!(!deps.iter().any(|d| d == banned), "empires-sim depends on {banned}");
    }
}

/// The core's top-level modules, each with the others it names
/// (`crate::NAME` anywhere in its files), read from the source.
fn core_imports() -> Vec<(String, Vec<String>)> {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src");
    let mut modules: Vec<String> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != "lib.rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    modules.sort();
    fn text(p: &std::path::Path) -> String {
        if p.is_dir() {
            std::fs::read_dir(p).unwrap().map(|e| text(&e.unwrap().path())).collect()
        } else if p.extension().is_some_and(|e| e == "rs") {
            std::fs::read_to_string(p).unwrap()
        } else {
            String::new()
        }
    }
    modules
        .iter()
        .map(|m| {
            let path = if src.join(m).is_dir() { src.join(m) } else { src.join(format!("{m}.rs")) };
            let t = text(&path);
            let uses = modules.iter().filter(|o| *o != m && t.contains(&format!("crate::{o}"))).cloned().collect();
            (m.clone(), uses)
        })
        .collect()
}

/// The core's modules import each other in one direction only (a cycle
/// would make each one's meaning depend on the other's): the module
/// graph read from the source has no cycle, and the two that had one stay
/// apart (the map needs nothing from the scenario; the error type needs
/// nothing from the rules).
#[test]
fn the_cores_modules_import_each_other_without_a_cycle() {
    let graph = core_imports();
    let uses = |a: &str, b: &str| graph.iter().any(|(m, u)| m == a && u.iter().any(|x| x == b));
    assert!(graph.len() >= 7 && uses("rules", "scenario"), "the source was read: {graph:?}");
    assert!(!uses("map", "scenario") && !uses("error", "rules"), "{graph:?}");
    // Peel modules that import nothing left; a cycle leaves some behind.
    let mut left: Vec<&(String, Vec<String>)> = graph.iter().collect();
    while let Some(i) = left.iter().position(|(_, u)| u.iter().all(|x| !left.iter().any(|(m, _)| m == x))) {
        left.remove(i);
    }
    assert!(left.is_empty(), "the core's modules import each other in a cycle: {left:?}");
}
