//! Reading the offline commands' inputs: JSON arguments, hierarchy files
//! and (possibly gzip-compressed) data files.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

use super::error::OfflineError;

/// The bytes of a JSON argument. `@path` reads a file; a value that starts
/// with `{` or `[` (after blanks) is the JSON itself; anything else is a
/// path to a file.
pub fn json_arg(value: &str) -> Result<Vec<u8>, OfflineError> {
    if let Some(path) = value.strip_prefix('@') {
        return read_file(Path::new(path));
    }
    let trimmed = value.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return Ok(value.as_bytes().to_vec());
    }
    read_file(Path::new(value))
}

pub fn read_file(path: &Path) -> Result<Vec<u8>, OfflineError> {
    std::fs::read(path).map_err(|e| OfflineError::unreadable(path, e))
}

/// One `--hierarchy COLUMN=FILE` value. Column names and paths may both
/// hold `=`: the value is split at the first `=` whose remainder names an
/// existing file, else at the first `=` (and the file is then reported
/// missing when read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HierarchyArg {
    pub column: String,
    pub path: PathBuf,
}

pub fn parse_hierarchy_arg(value: &str) -> Result<HierarchyArg, String> {
    let splits: Vec<usize> = value.match_indices('=').map(|(i, _)| i).collect();
    let Some(&first) = splits.first() else {
        return Err(format!("expected COLUMN=FILE, got '{value}'"));
    };
    let at = splits
        .iter()
        .copied()
        .find(|&i| Path::new(&value[i + 1..]).is_file())
        .unwrap_or(first);
    let (column, path) = (&value[..at], &value[at + 1..]);
    if column.is_empty() || path.is_empty() {
        return Err(format!("expected COLUMN=FILE, got '{value}'"));
    }
    Ok(HierarchyArg {
        column: column.to_string(),
        path: PathBuf::from(path),
    })
}

/// Opens a data file, decompressing it when it starts with gzip's magic
/// bytes (whatever its name).
pub fn open_data(path: &Path) -> Result<Box<dyn Read + Send>, OfflineError> {
    let file = File::open(path).map_err(|e| OfflineError::unreadable(path, e))?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let head = reader
        .fill_buf()
        .map_err(|e| OfflineError::unreadable(path, e))?;
    if head.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(GzipErrors {
            inner: MultiGzDecoder::new(reader),
        }))
    } else {
        Ok(Box::new(reader))
    }
}

/// Gzip errors surface as I/O errors from `read`; the CSV loader would call
/// them malformed CSV, so name them as what they are.
struct GzipErrors<R: Read> {
    inner: MultiGzDecoder<R>,
}

impl<R: Read> Read for GzipErrors<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner
            .read(buf)
            .map_err(|e| std::io::Error::new(e.kind(), format!("the gzip data is corrupt: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn json_args_are_inline_at_file_or_path() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.json");
        std::fs::write(&p, br#"{"kind": "k_anonymity", "k": 2}"#).unwrap();
        assert_eq!(json_arg(r#" {"k": 1}"#).unwrap(), br#" {"k": 1}"#.to_vec());
        assert_eq!(json_arg("[1]").unwrap(), b"[1]".to_vec());
        let at = json_arg(&format!("@{}", p.display())).unwrap();
        assert_eq!(at, std::fs::read(&p).unwrap());
        assert_eq!(json_arg(p.to_str().unwrap()).unwrap(), at);
        let missing = json_arg("/no/such/file.json").unwrap_err();
        assert_eq!(missing.exit_code(), 2);
    }

    #[test]
    fn hierarchy_args_split_at_the_right_equals() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("h=1.csv");
        std::fs::write(&f, "a;*\n").unwrap();
        assert_eq!(
            parse_hierarchy_arg("sex=/tmp/x.csv").unwrap(),
            HierarchyArg {
                column: "sex".into(),
                path: "/tmp/x.csv".into()
            }
        );
        // A file whose name holds '=' exists: split before it.
        let v = format!("a=b={}", f.display());
        assert_eq!(parse_hierarchy_arg(&v).unwrap().column, "a=b");
        assert!(parse_hierarchy_arg("sex").is_err());
        assert!(parse_hierarchy_arg("=x").is_err());
        assert!(parse_hierarchy_arg("x=").is_err());
    }

    #[test]
    fn gzip_is_detected_by_magic_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("d.csv");
        std::fs::write(&plain, "a,b\n1,2\n").unwrap();
        // A gzip file without a .gz name.
        let gz = dir.path().join("d.data");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(b"a,b\n1,2\n").unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        for p in [&plain, &gz] {
            let mut s = String::new();
            open_data(p).unwrap().read_to_string(&mut s).unwrap();
            assert_eq!(s, "a,b\n1,2\n");
        }
        let mut corrupt = vec![0x1f, 0x8b];
        corrupt.extend_from_slice(b"not really gzip");
        let bad = dir.path().join("bad.gz");
        std::fs::write(&bad, corrupt).unwrap();
        let mut s = String::new();
        let e = open_data(&bad).unwrap().read_to_string(&mut s).unwrap_err();
        assert!(e.to_string().contains("gzip"), "{e}");
    }
}
