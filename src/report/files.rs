//! Atomic output files: everything is written to a temporary name in the
//! same directory, then renamed, so an interrupted run never leaves a file
//! that looks complete but is not.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// A file being written; `commit` publishes it under its final name.
pub struct Pending {
    tmp: PathBuf,
    dest: PathBuf,
    committed: bool,
}

impl Pending {
    pub fn create(dest: &Path) -> io::Result<(Pending, File)> {
        let name = dest.file_name().and_then(|n| n.to_str()).unwrap_or("out");
        let tmp = dest.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
        let f = File::create(&tmp)?;
        Ok((Pending { tmp, dest: dest.to_path_buf(), committed: false }, f))
    }

    /// Take over a temporary file another writer made (it must be in the
    /// destination's directory); `commit` then renames it into place.
    pub fn adopt(tmp: &Path, dest: &Path) -> io::Result<(Pending, File)> {
        let f = File::options().read(true).append(true).open(tmp)?;
        Ok((Pending { tmp: tmp.to_path_buf(), dest: dest.to_path_buf(), committed: false }, f))
    }

    /// Flush to disk and rename into place.
    pub fn commit(mut self, f: File) -> io::Result<()> {
        f.sync_all()?;
        drop(f);
        std::fs::rename(&self.tmp, &self.dest)?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Write a whole file atomically.
pub fn write_atomic(dest: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let (p, mut f) = Pending::create(dest)?;
    f.write_all(bytes)?;
    p.commit(f)
}

/// [`write_atomic`] for the report layer: a failure is an
/// [`Io`](crate::error::Class::Io) error that names the file.
pub fn write_file(dest: &Path, bytes: &[u8]) -> Result<(), crate::error::Error> {
    write_atomic(dest, bytes).map_err(|e| crate::error::Error::io(format!("{}: cannot write: {e}", dest.display())))
}
