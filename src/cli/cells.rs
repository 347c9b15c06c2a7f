//! The finished pieces of a long command (`sim::watch::memo`), kept as
//! files in `OUT/cells/` so that `--resume` after Ctrl-C plays only what
//! was not done.
//!
//! A piece's file is named by a hash of its key and of this binary (the
//! build's commit, whether its tree was dirty, and the executable's size
//! and modification time), so a piece made by another build is never
//! taken for one of this build: a rules change can only make a resume
//! replay, never reuse a stale answer. The file starts with the key
//! itself, checked on reading, so even a hash collision cannot swap two
//! pieces. Each file is written atomically (temp file, then rename): a
//! piece is there whole or not at all.

use crate::report::files::write_atomic;
use crate::sim::watch::Cells;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// The folder, under a command's output folder, that holds its pieces.
pub const DIR: &str = "cells";

/// A command's kept pieces.
pub struct Files {
    dir: PathBuf,
    salt: String,
    warned: AtomicBool,
    /// `(I, K)`: the folder is shared by the K shards of one request, and
    /// this process plays the pieces whose name falls to shard I.
    shard: Option<(u64, u64)>,
}

impl Files {
    /// The pieces under `out/cells/` (created when the first is kept).
    pub fn new(out: &Path) -> Files {
        Files { dir: out.join(DIR), salt: salt(), warned: AtomicBool::new(false), shard: None }
    }

    /// The pieces under `out/cells/`, shared with the other shards of the
    /// request: this process plays shard `i` of `k`'s and reads the rest.
    pub fn shared(out: &Path, shard: Option<(u64, u64)>) -> Files {
        Files { shard, ..Files::new(out) }
    }

    fn digest(&self, key: &str) -> [u8; 32] {
        Sha256::digest(format!("{}\n{key}", self.salt).as_bytes()).into()
    }

    fn path(&self, key: &str) -> PathBuf {
        let name: String = self.digest(key).iter().map(|b| format!("{b:02x}")).collect();
        self.dir.join(name)
    }
}

/// What names this binary: a piece is reused only by the build that made it.
fn salt() -> String {
    let exe = std::env::current_exe().ok().and_then(|p| std::fs::metadata(p).ok());
    let (size, mtime) = exe.map_or((0, 0), |m| {
        let t = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
        (m.len(), t.map_or(0, |d| d.as_nanos()))
    });
    format!(
        "{} {:?} {} {size} {mtime}",
        crate::build_info::LONG_VERSION,
        crate::build_info::dirty(),
        crate::build_info::commit().unwrap_or("unknown")
    )
}

impl Cells for Files {
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        let bytes = std::fs::read(self.path(key)).ok()?;
        let rest = bytes.strip_prefix(key.as_bytes())?.strip_prefix(b"\n")?;
        Some(rest.to_vec())
    }

    fn put(&self, key: &str, bytes: &[u8]) {
        let mut all = Vec::with_capacity(key.len() + 1 + bytes.len());
        all.extend_from_slice(key.as_bytes());
        all.push(b'\n');
        all.extend_from_slice(bytes);
        let written = std::fs::create_dir_all(&self.dir).and_then(|_| write_atomic(&self.path(key), &all));
        // Losing a piece loses only the saving (a resume replays it), so
        // the command goes on; it says so once.
        if let Err(e) = written
            && !self.warned.swap(true, Ordering::SeqCst)
        {
            eprintln!("warning: {}: cannot keep finished work for --resume: {e}", self.dir.display());
        }
    }

    /// A piece falls to the shard its name's first 8 bytes give, modulo
    /// the shards: about one K-th each, whatever the computation.
    fn mine(&self, key: &str) -> bool {
        let Some((i, k)) = self.shard else { return true };
        let d = self.digest(key);
        u64::from_le_bytes(d[..8].try_into().expect("8 bytes")) % k == i
    }
}

/// Remove the kept pieces under `out` (a fresh start, or a finished run).
pub fn clear(out: &Path) {
    let _ = std::fs::remove_dir_all(out.join(DIR));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_comes_back_under_its_key_only() {
        let out = std::env::temp_dir().join(format!("empires-cells-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let f = Files::new(&out);
        assert_eq!(f.get("a"), None);
        f.put("a", b"\x00\x01bytes");
        f.put("b", b"");
        assert_eq!(f.get("a").as_deref(), Some(&b"\x00\x01bytes"[..]));
        assert_eq!(f.get("b").as_deref(), Some(&b""[..]));
        // A file whose recorded key is not the one asked for is not taken.
        std::fs::write(f.path("c"), b"d\nxyz").unwrap();
        assert_eq!(f.get("c"), None);
        clear(&out);
        assert_eq!(f.get("a"), None);
        let _ = std::fs::remove_dir_all(&out);
    }

    /// Each piece falls to exactly one of the shards, and to none of the
    /// others; unsharded, every piece is this process's.
    #[test]
    fn each_piece_falls_to_exactly_one_shard() {
        let out = std::env::temp_dir().join("empires-cells-shards");
        let shards: Vec<Files> = (0..3).map(|i| Files::shared(&out, Some((i, 3)))).collect();
        let mut per = [0u32; 3];
        for n in 0..300 {
            let key = format!("lineup winners master 1 {n}");
            let owners: Vec<usize> = (0..3).filter(|&i| shards[i].mine(&key)).collect();
            assert_eq!(owners.len(), 1, "{key}: {owners:?}");
            per[owners[0]] += 1;
            assert!(Files::new(&out).mine(&key));
        }
        assert!(per.iter().all(|&c| c > 60), "{per:?}");
    }
}
