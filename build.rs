//! Bakes the build's provenance into the binary: the git commit it was
//! built from, and whether the tree had uncommitted changes. A run's
//! manifest then names the code that produced it, not whatever the current
//! directory's HEAD happens to be when it runs.
//!
//! Without git (a source tarball, a container build without `.git`), the
//! commit can be given as `EMPIRES_BUILD_COMMIT`; otherwise it is "unknown".

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-env-changed=EMPIRES_BUILD_COMMIT");
    // A new commit moves HEAD or a ref; an edit changes a source file.
    // Either reruns this script, so the dirty flag follows the sources.
    // Only paths that exist are named: cargo reruns the script on every
    // build for one that does not.
    let mut watch: Vec<String> = ["src", "crates", "scenarios", "Cargo.toml", "Cargo.lock"].map(String::from).into();
    if let (Some(dir), Some(common)) =
        (git(&["rev-parse", "--absolute-git-dir"]), git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]))
    {
        watch.extend([format!("{dir}/HEAD"), format!("{dir}/index")]);
        watch.extend([format!("{common}/refs"), format!("{common}/packed-refs")]);
    }
    for path in watch.iter().filter(|p| std::path::Path::new(p).exists()) {
        println!("cargo:rerun-if-changed={path}");
    }
    let (commit, dirty) = match std::env::var("EMPIRES_BUILD_COMMIT") {
        Ok(c) if !c.trim().is_empty() => (c.trim().to_string(), "unknown".to_string()),
        _ => match git(&["rev-parse", "HEAD"]) {
            Some(c) => {
                // Only tracked files count: run outputs under reports/ are not code.
                let dirty = git(&["--no-optional-locks", "status", "--porcelain", "--untracked-files=no"])
                    .map(|s| !s.is_empty());
                (c, dirty.map_or("unknown".into(), |d| d.to_string()))
            }
            None => ("unknown".into(), "unknown".into()),
        },
    };
    println!("cargo:rustc-env=EMPIRES_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=EMPIRES_GIT_DIRTY={dirty}");
}
