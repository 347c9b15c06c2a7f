//! What this binary was built from, baked in by `build.rs`: the version,
//! the git commit and whether the tree had uncommitted changes. Manifests
//! and `--version` report these, so a result names the code behind it.

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `--version`: the version, the commit, and `dirty` when the build had
/// uncommitted changes.
pub const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("EMPIRES_GIT_COMMIT"),
    ", uncommitted changes: ",
    env!("EMPIRES_GIT_DIRTY"),
    ")"
);

/// The commit the binary was built from; `None` when the build had no git
/// and no `EMPIRES_BUILD_COMMIT`.
pub fn commit() -> Option<&'static str> {
    let c = env!("EMPIRES_GIT_COMMIT");
    (c != "unknown").then_some(c)
}

/// Whether the build's tree had uncommitted changes to tracked files;
/// `None` when that could not be told.
pub fn dirty() -> Option<bool> {
    match env!("EMPIRES_GIT_DIRTY") {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}
