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
