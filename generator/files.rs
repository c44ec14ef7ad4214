//! Listing the files below a folder and writing one atomically, the one way every stage does it.

use std::io;
use std::path::{Path, PathBuf};

/// Every file below `dir`, sorted by path (component by component); a folder that does not
/// exist has none.
pub fn files_below(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    if !dir.is_dir() {
        return Ok(files);
    }
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Writes to a temporary file in the same directory, then renames it over `path`: readers see
/// the old file or the new one, never half of one.
pub fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(contents)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_listed_sorted_and_a_missing_folder_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["b/x.md", "a.md", "b.md"] {
            let path = dir.path().join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        let found: Vec<PathBuf> = files_below(dir.path())
            .unwrap()
            .into_iter()
            .map(|p| p.strip_prefix(dir.path()).unwrap().to_path_buf())
            .collect();
        assert_eq!(found, ["a.md", "b/x.md", "b.md"].map(PathBuf::from));
        assert!(files_below(&dir.path().join("nope")).unwrap().is_empty());
    }
}
