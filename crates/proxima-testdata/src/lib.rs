//! Test data for the workspace's tests, examples and tools — never a
//! dependency of the `proxima` product.
//!
//! * Locating the shared data folder that lives beside the checkout
//!   ([`shared_dir`], [`SharedData::find`]): `$PROXIMA_SHARED_DATA` when set
//!   (it names the data folder), else `shared/data` beside the workspace
//!   root or beside the folder holding it (`../shared`, as in CI;
//!   `../../shared`, for worktrees). The workspace root is found from
//!   `CARGO_MANIFEST_DIR` at run time, then at build time, then from the
//!   current directory.
//! * Opening its files, `.gz` ones decompressed on the fly
//!   ([`SharedData::open`], [`open`]).
//! * A small generated upload that is valid for every model ([`sample`]).
//!
//! It returns paths, readers and bytes, never `proxima_core` types, so
//! that `proxima-core`'s unit tests can use it (see Cargo.toml). A shared
//! table is loaded by the core's pure loader on this crate's reader:
//! `SharedTable::X.load(|file| data.open(file))`.
//!
//! Tests skip, after printing why, when the folder is absent:
//! [`SharedData::find_or_skip`] and [`shared_dir`] print the reason.

pub mod sample;

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

/// The located shared data folder (`…/shared/data`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedData {
    dir: PathBuf,
}

impl SharedData {
    /// The shared data folder, or `None` when there is none.
    pub fn find() -> Option<SharedData> {
        let starts = [
            std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from),
            Some(PathBuf::from(env!("CARGO_MANIFEST_DIR"))),
            std::env::current_dir().ok(),
        ];
        locate(
            std::env::var_os("PROXIMA_SHARED_DATA").map(PathBuf::from),
            starts.into_iter().flatten(),
        )
        .map(|dir| SharedData { dir })
    }

    /// [`SharedData::find`], printing on stderr why the caller (`what`: a
    /// test, a table) skips when there is no folder.
    pub fn find_or_skip(what: &str) -> Option<SharedData> {
        let found = SharedData::find();
        if found.is_none() {
            eprintln!("skipping {what}: {ABSENT}");
        }
        found
    }

    /// The folder itself (`…/shared/data`).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A file of the folder, by its path relative to it.
    pub fn path(&self, relative: &str) -> PathBuf {
        self.dir.join(relative)
    }

    /// Opens a file of the folder (relative path), decompressing `.gz`.
    pub fn open(&self, relative: &str) -> std::io::Result<Box<dyn Read + Send>> {
        open(&self.path(relative))
    }
}

const ABSENT: &str = "no shared data folder (set PROXIMA_SHARED_DATA or place shared/data \
                      beside the workspace)";

/// The `shared/` folder (its `examples/` and `data/`), the parent of the
/// shared data folder; `None`, after printing the reason for the skip, when
/// it is absent.
pub fn shared_dir() -> Option<PathBuf> {
    let found = SharedData::find().and_then(|d| d.dir.parent().map(Path::to_path_buf));
    if found.is_none() {
        eprintln!("skipping: {ABSENT}");
    }
    found
}

/// Opens a file, decompressing it on the fly when its name ends in `.gz`.
/// The error names the file.
pub fn open(path: &Path) -> std::io::Result<Box<dyn Read + Send>> {
    let file = File::open(path).map_err(|e| {
        std::io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display()))
    })?;
    let buffered = BufReader::with_capacity(1 << 16, file);
    if path.extension().is_some_and(|e| e == "gz") {
        Ok(Box::new(flate2::read::MultiGzDecoder::new(buffered)))
    } else {
        Ok(Box::new(buffered))
    }
}

/// [`SharedData::find`] without the environment: an explicit folder wins
/// (and must exist); otherwise the first start whose workspace root has a
/// `shared/data` beside it or beside the folder holding it.
fn locate(explicit: Option<PathBuf>, starts: impl IntoIterator<Item = PathBuf>) -> Option<PathBuf> {
    if let Some(dir) = explicit {
        return dir.is_dir().then_some(dir);
    }
    starts.into_iter().find_map(|start| {
        let root = workspace_root(&start);
        // The data lives outside the repository, never inside it: beside the
        // checkout (`../shared`, as in CI) or beside the folder holding it
        // (`../../shared`, for worktrees). No further up, so an unrelated
        // `shared/data` higher in the file system (say /tmp/shared) is never
        // picked up.
        root.ancestors()
            .skip(1)
            .take(2)
            .map(|a| a.join("shared").join("data"))
            .find(|d| d.is_dir())
    })
}

/// The nearest ancestor of `start` whose Cargo.toml declares a workspace
/// (`start` itself when there is none).
fn workspace_root(start: &Path) -> PathBuf {
    start
        .ancestors()
        .find(|a| {
            std::fs::read_to_string(a.join("Cargo.toml"))
                .map(|s| s.lines().any(|l| l.trim() == "[workspace]"))
                .unwrap_or(false)
        })
        .unwrap_or(start)
        .to_path_buf()
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A fresh directory under the system temp dir (removed by the caller).
    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "proxima-testdata-{tag}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn finds_shared_data_beside_an_ancestor_of_the_workspace() {
        let base = temp_dir("locate");
        let root = base.join("wt").join("repo");
        let krate = root.join("crates").join("core");
        std::fs::create_dir_all(&krate).unwrap();
        std::fs::write(root.join("Cargo.toml"), "[workspace]\nmembers = []\n").unwrap();
        std::fs::write(krate.join("Cargo.toml"), "[package]\nname = \"core\"\n").unwrap();
        // Not found yet; a shared/data inside the repository does not count.
        std::fs::create_dir_all(root.join("shared").join("data")).unwrap();
        assert_eq!(locate(None, [krate.clone()]), None);
        // Two levels up, as for worktrees at /work/wt/<name>.
        let data = base.join("shared").join("data");
        std::fs::create_dir_all(&data).unwrap();
        assert_eq!(locate(None, [krate.clone()]), Some(data.clone()));
        // Three levels up is too far: nothing beyond ../../shared counts.
        let deep = base.join("a").join("b").join("c");
        let deep_krate = deep.join("crates").join("core");
        std::fs::create_dir_all(&deep_krate).unwrap();
        std::fs::write(deep.join("Cargo.toml"), "[workspace]\nmembers = []\n").unwrap();
        assert_eq!(locate(None, [deep_krate]), None);
        // An explicit folder wins, and must exist.
        let other = base.join("elsewhere");
        assert_eq!(locate(Some(other.clone()), [krate.clone()]), None);
        std::fs::create_dir_all(&other).unwrap();
        assert_eq!(locate(Some(other.clone()), [krate]), Some(other));
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn this_workspace_finds_the_folder_when_it_is_beside_the_checkout() {
        // The build-time start alone: the workspace root of this checkout.
        let root = workspace_root(Path::new(env!("CARGO_MANIFEST_DIR")));
        assert!(
            root.join("crates").join("proxima-testdata").is_dir(),
            "{root:?}"
        );
        let beside = [root.join("../shared/data"), root.join("../../shared/data")];
        let expected = beside.iter().find(|d| d.is_dir()).cloned();
        assert_eq!(
            locate(None, [PathBuf::from(env!("CARGO_MANIFEST_DIR"))])
                .map(|d| d.canonicalize().unwrap()),
            expected.map(|d| d.canonicalize().unwrap())
        );
    }

    #[test]
    fn gzip_files_are_decompressed_and_plain_files_read_as_is() {
        let dir = temp_dir("gz");
        let csv = "Age,Birthplace,Occupation,Income\n30,1,2,1000\n45,3,4,2500.5\n";
        let gz_path = dir.join("t.csv.gz");
        let mut enc = flate2::write::GzEncoder::new(
            File::create(&gz_path).unwrap(),
            flate2::Compression::fast(),
        );
        enc.write_all(csv.as_bytes()).unwrap();
        enc.finish().unwrap();
        let plain_path = dir.join("t.csv");
        std::fs::write(&plain_path, csv).unwrap();
        for path in [&gz_path, &plain_path] {
            let mut text = String::new();
            open(path).unwrap().read_to_string(&mut text).unwrap();
            assert_eq!(text, csv);
        }
        let data = SharedData { dir: dir.clone() };
        let mut text = String::new();
        data.open("t.csv.gz")
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, csv);
        let missing = data.open("absent.csv").err().unwrap();
        assert!(missing.to_string().contains("absent.csv"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
