//! Provenance is baked in at build time (`build.rs`, `build_info`): the
//! manifest names the commit the binary was built from, wherever it runs.

use super::play_cli::bin;

fn head() -> Option<String> {
    let o = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    o.status.success().then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

#[test]
fn the_manifest_names_the_build_commit_even_outside_the_repository() {
    let dir = std::env::temp_dir().join(format!("empires-provenance-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Run from a directory that is not a git checkout: the old manifest
    // asked git there at run time and recorded nothing.
    let o = bin().current_dir(&dir).args(["run", "--campaigns", "8", "--quiet", "--out", "run"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("run/manifest.json")).unwrap()).unwrap();
    assert_eq!(m["git_commit"].as_str(), empires::build_info::commit());
    assert_eq!(m["git_dirty"].as_bool(), empires::build_info::dirty());
    let v = bin().arg("--version").output().unwrap();
    let v = String::from_utf8_lossy(&v.stdout);
    assert!(v.contains(empires::build_info::LONG_VERSION), "{v}");
    // Built from this checkout (tests are), the commit is its HEAD.
    if let Some(h) = head() {
        assert_eq!(empires::build_info::commit(), Some(h.as_str()));
        assert!(v.contains(&h), "{v}");
        assert!(empires::build_info::dirty().is_some());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
