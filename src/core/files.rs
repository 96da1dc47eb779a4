//! The files a user names: read only when they are regular files, written atomically without
//! ever replacing anything that is not one.
//!
//! Theory of operation. A path on a command line or in a dialog can name anything: a named
//! pipe (opening it for reading waits for a writer that never comes), a device (`/dev/zero`
//! never ends; replacing `/dev/null` by a regular file breaks the machine), a folder, a
//! symbolic link that leads nowhere or into a loop. So:
//! - **Reading** ([`read_regular`]) looks at what the path is (following symbolic links)
//!   before opening it, opens it without blocking (`O_NONBLOCK` on Unix, so a pipe swapped in
//!   between the look and the open cannot hang the read either), checks the opened handle
//!   again, and reads at most a caller's limit. Anything but a regular file is a
//!   [`ReadError`] that says what the path is.
//! - **Writing** ([`write_atomic`]) follows symbolic links to the file they name (the link
//!   stays a link), refuses a target that exists and is not a regular file, writes a temporary
//!   file in the target's folder (`.<name>.tmp-<pid>-<n>`), gives it the mode, owner and group
//!   of the file it replaces, syncs it, keeps the previous file as `<name>.bak` when asked,
//!   renames it over the target and syncs the folder. At every instant the target is either
//!   the old or the new complete file.
//! - **Leftovers**: a process killed mid-write leaves its temporary file behind. Every write
//!   first removes the stale temporaries of rigplan's own naming in its folder: those whose
//!   process is gone (Linux: no `/proc/<pid>`), or where that cannot be told, those older
//!   than [`STALE_TEMPORARY_SECS`]. A temporary of a running process is never touched.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// Why a file could not be read. The messages name no path: the caller puts it in front.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The operating system's error (the path does not exist, permission denied, …).
    #[error("cannot read: {0}")]
    Io(io::Error),
    /// The path is something other than a regular file.
    #[error("is {0}, not a file")]
    NotAFile(&'static str),
    /// A symbolic link whose target does not exist, or a loop of links.
    #[error("is a symbolic link that leads to no file ({0})")]
    BrokenLink(io::Error),
    /// The file holds more than the caller's limit: `size` is its size on disk, or the bytes
    /// read before the limit stopped a file that grew while it was read.
    #[error("is at least {size} bytes; the limit is {limit} bytes")]
    TooLarge { size: u64, limit: u64 },
}

/// What a path that is not a regular file is, for messages ("is a named pipe (FIFO)").
#[must_use]
pub fn kind_of(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a folder";
    }
    if t.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Opens a path for reading only if it is a regular file (after following symbolic links).
///
/// # Errors
/// See [`ReadError`].
pub fn open_regular(path: &Path) -> Result<File, ReadError> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
            return Err(if is_link { ReadError::BrokenLink(e) } else { ReadError::Io(e) });
        }
    };
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind_of(&meta)));
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        // Should the path have become a pipe since the look above, the open returns at once.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind_of(&meta)));
    }
    Ok(file)
}

/// Reads a regular file of at most `limit` bytes. The size on disk is checked first; the read
/// itself stops one byte past the limit, for a file that grows while it is read.
///
/// # Errors
/// See [`ReadError`].
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(path)?;
    let size = file.metadata().map_err(ReadError::Io)?.len();
    if size > limit {
        return Err(ReadError::TooLarge { size, limit });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit + 1).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { size: bytes.len() as u64, limit });
    }
    Ok(bytes)
}

/// Most symbolic links followed to find the file a write goes to (Linux's own limit,
/// `MAXSYMLINKS` in `include/linux/namei.h`, is 40).
const MAX_SYMLINK_HOPS: usize = 40;

/// A temporary file of rigplan's naming whose process cannot be checked is stale after this
/// long, seconds: a write takes well under a second, so an hour-old temporary is a leftover.
pub const STALE_TEMPORARY_SECS: u64 = 3_600;

/// The infix of every temporary file rigplan writes: `<name>.tmp-<pid>-<n>`.
const TMP_INFIX: &str = ".tmp-";

/// Numbers the writes of this process, for unique temporary file names.
static WRITE_SEQUENCE: AtomicU64 = AtomicU64::new(0);

fn refused(message: String) -> io::Error {
    io::Error::other(message)
}

/// The file a write to `path` goes to: `path` itself, or the file its symbolic links lead to
/// (a link to a file that does not exist yet leads to that file, as a shell's `>` does).
///
/// # Errors
/// A path that ends with a separator or is a folder, a loop of links, or an existing target
/// that is not a regular file.
fn write_target(path: &Path) -> io::Result<(PathBuf, Option<Metadata>)> {
    let text = path.as_os_str().to_string_lossy();
    if text.ends_with('/') || text.ends_with(std::path::MAIN_SEPARATOR) {
        return Err(refused("names a folder; give a file name".to_owned()));
    }
    let mut current = path.to_path_buf();
    for _ in 0..=MAX_SYMLINK_HOPS {
        let meta = match std::fs::symlink_metadata(&current) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((current, None)),
            Err(e) => return Err(e),
        };
        if meta.file_type().is_symlink() {
            let link = std::fs::read_link(&current)?;
            current = match current.parent() {
                Some(parent) if link.is_relative() => parent.join(link),
                _ => link,
            };
            continue;
        }
        // "is a folder", or through links "leads to /dev/null, which is a character device".
        let is = if current == path { "is".to_owned() } else { format!("leads to {}, which is", current.display()) };
        if meta.is_dir() {
            return Err(refused(format!("{is} a folder; give a file name inside it")));
        }
        if !meta.is_file() {
            return Err(refused(format!(
                "{is} {}; rigplan replaces only regular files (leave out -o to write to standard output)",
                kind_of(&meta)
            )));
        }
        return Ok((current, Some(meta)));
    }
    Err(refused("is a loop of symbolic links".to_owned()))
}

/// True when `name` is a temporary file of rigplan's naming (`…<TMP_INFIX><pid>-<n>`), with
/// the process id that wrote it.
fn temporary_pid(name: &str) -> Option<u32> {
    let (_, tail) = name.rsplit_once(TMP_INFIX)?;
    let (pid, n) = tail.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(n)).then(|| pid.parse().ok()).flatten()
}

/// Whether process `pid` is running, where the system tells (Linux's `/proc`).
fn process_running(pid: u32) -> Option<bool> {
    Path::new("/proc/self").exists().then(|| Path::new(&format!("/proc/{pid}")).exists())
}

/// Removes the stale temporary files of rigplan's naming in `dir` (see the module docs) and
/// returns how many it removed. Failures are ignored: a leftover that cannot be removed is
/// only a leftover.
pub fn remove_stale_temporaries(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    let own = std::process::id();
    let now = SystemTime::now();
    let mut removed = 0;
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temporary_pid) else { continue };
        // Never follow a link, never touch anything but a plain file.
        let Ok(meta) = entry.path().symlink_metadata() else { continue };
        if !meta.is_file() || pid == own {
            continue;
        }
        let stale = match process_running(pid) {
            Some(running) => !running,
            None => meta
                .modified()
                .ok()
                .and_then(|m| now.duration_since(m).ok())
                .is_some_and(|age| age > Duration::from_secs(STALE_TEMPORARY_SECS)),
        };
        if stale && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Gives the new file the mode, owner and group of the file it replaces.
#[cfg(unix)]
fn keep_mode_and_owner(file: &File, old: &Metadata, target: &Path) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    let new = file.metadata()?;
    if (new.uid(), new.gid()) != (old.uid(), old.gid()) {
        std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid())).map_err(|e| {
            refused(format!(
                "cannot give the new file the owner of {} (user {}, group {}): {e}; the file was left as it was",
                target.display(),
                old.uid(),
                old.gid()
            ))
        })?;
    }
    // After the owner: changing the owner clears set-user-id and set-group-id bits.
    file.set_permissions(std::fs::Permissions::from_mode(old.mode() & 0o7777))
}

#[cfg(not(unix))]
fn keep_mode_and_owner(file: &File, old: &Metadata, _target: &Path) -> io::Result<()> {
    file.set_permissions(old.permissions())
}

/// The backup path kept beside a saved file (`plan.ron` → `plan.ron.bak`).
#[must_use]
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(std::ffi::OsStr::to_os_string).unwrap_or_default();
    name.push(".bak");
    path.with_file_name(name)
}

/// Writes bytes to `path` atomically (see the module docs); keeps a `.bak` of the previous
/// file when `backup` is set. Returns the file written: `path`, or the file its symbolic links
/// lead to.
///
/// # Errors
/// Any I/O failure, and a target that is a folder, a device, a pipe or a loop of links (each
/// message names the path). The target is left as it was.
pub fn write_atomic(path: &Path, bytes: &[u8], backup: bool) -> io::Result<PathBuf> {
    let (target, old) = write_target(path)?;
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(refused(format!("the folder {} does not exist", dir.display())));
    }
    let Some(file_name) = target.file_name() else { return Err(refused("has no file name".to_owned())) };
    remove_stale_temporaries(&dir);
    // Unique per write, not only per process: two saves of one file running at once (an
    // autosave and a save) must not write the same temporary file.
    let suffix = format!("{TMP_INFIX}{}-{}", std::process::id(), WRITE_SEQUENCE.fetch_add(1, Ordering::Relaxed));
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(file_name);
    tmp_name.push(&suffix);
    let tmp = dir.join(tmp_name);
    let bak = backup_path(&target);
    let mut bak_tmp_name = std::ffi::OsString::from(".");
    bak_tmp_name.push(bak.file_name().unwrap_or_default());
    bak_tmp_name.push(&suffix);
    let bak_tmp = dir.join(bak_tmp_name);
    let result = (|| {
        let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        if let Some(old) = &old {
            keep_mode_and_owner(&f, old, &target)?;
        }
        f.write_all(bytes)?;
        f.flush()?;
        f.sync_all()?;
        drop(f);
        if backup && old.is_some() {
            std::fs::copy(&target, &bak_tmp)?;
            // Sync the copy before it replaces the old backup, so a power cut cannot leave an
            // empty `.bak` behind.
            File::open(&bak_tmp)?.sync_all()?;
            std::fs::rename(&bak_tmp, &bak)?;
        }
        std::fs::rename(&tmp, &target)?;
        // Persist the rename itself; not every platform can open a directory, so a failure
        // to sync the folder is not an error.
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
        let _ = std::fs::remove_file(&bak_tmp);
    }
    result.map(|()| target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names() {
        assert_eq!(temporary_pid(".plan.ron.tmp-1234-0"), Some(1234));
        assert_eq!(temporary_pid(".plan.ron.bak.tmp-7-12"), Some(7));
        assert_eq!(temporary_pid("plan.ron"), None);
        assert_eq!(temporary_pid(".plan.tmp-12"), None);
        assert_eq!(temporary_pid(".plan.tmp-12-x"), None);
        assert_eq!(temporary_pid(".plan.tmp--3"), None);
    }
}
