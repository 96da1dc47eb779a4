//! Autosave and crash recovery.
//!
//! Theory of operation. While the build has unsaved changes, the app writes it to a recovery
//! folder (in the per-user data folder) once the user has paused for
//! [`AUTOSAVE_DELAY_SECS`]: `<slot>.ron`, a normal build file, plus `<slot>.path` naming the
//! file the build came from, if any. Saving the build or a clean exit removes them. The app
//! only ever waits for the autosave with a timed repaint, so an idle app does not spin.
//!
//! Several instances may run at once, so each owns a slot: at start it takes
//! `autosave-<process id>` (or `autosave-<process id>-<n>` when that one is taken) by holding
//! an exclusive OS lock on `<slot>.lock` (`File::try_lock`: `flock` on Unix, `LockFileEx` on
//! Windows) for as long as it runs. The operating system drops the lock when the process
//! ends, however it ends. A slot whose `.ron` already exists is never taken, so a crashed
//! instance's work is not overwritten by a new process that happens to get the same id.
//!
//! At start, autosave files whose lock nobody holds are what a crash left behind: the newest
//! is offered for restore; restoring or discarding it removes it (under its lock). Files whose
//! lock is held belong to a running instance and are left alone: neither offered nor touched.
//! The lock sits on a file of its own because the autosave itself is replaced by an atomic
//! rename at every write, which would drop a lock held on it.

use crate::core::build::Build;
use crate::core::persist;
use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Seconds of inactivity after the last edit before an autosave. Short enough that a crash
/// loses little, long enough not to write while the user is typing a name.
pub const AUTOSAVE_DELAY_SECS: f64 = 3.0;

const PREFIX: &str = "autosave-";

/// Slots tried per process id before giving up: one per instance that could share an id
/// (processes in different PID namespaces, or a reused id), far more than anyone runs.
const MAX_SLOTS: u32 = 64;

/// This instance's slot: its file stem and the lock that marks it as in use.
#[derive(Debug)]
struct Slot {
    stem: String,
    /// Held for the life of the instance; `None` where the file system cannot lock (the slot
    /// is still unique among the files present).
    lock: Option<File>,
}

/// A build found in the recovery folder.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovered {
    /// The autosave file.
    pub file: PathBuf,
    pub build: Build,
    /// The file the build had been opened from or saved to, if any.
    pub original_path: Option<PathBuf>,
}

/// A build in the autosave folder, as the compare view lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Autosave {
    pub file: PathBuf,
    pub build: Build,
    pub modified: SystemTime,
}

/// Autosaves listed at most.
pub const MAX_AUTOSAVES_LISTED: usize = 20;

/// The autosave state of this instance.
#[derive(Debug)]
pub struct Recovery {
    dir: Option<PathBuf>,
    slot: Option<Slot>,
    offer: Option<Recovered>,
    seen_revision: u64,
    changed_at: f64,
    saved_revision: Option<u64>,
    wrote: bool,
    last_autosave: Option<SystemTime>,
}

/// The per-user recovery folder (`~/.local/share/rigplan/recovery` on Linux).
#[must_use]
pub fn default_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "rigplan").map(|d| d.data_local_dir().join("recovery"))
}

impl Recovery {
    /// Autosave into `dir` (None: autosave off).
    #[must_use]
    pub fn new(dir: Option<PathBuf>) -> Self {
        Self {
            dir,
            slot: None,
            offer: None,
            seen_revision: 0,
            changed_at: 0.0,
            saved_revision: None,
            wrote: false,
            last_autosave: None,
        }
    }

    fn own_file(&self, ext: &str) -> Option<PathBuf> {
        match (&self.dir, &self.slot) {
            (Some(d), Some(slot)) => Some(d.join(format!("{}.{ext}", slot.stem))),
            _ => None,
        }
    }

    /// Takes a free slot, if this instance has none yet: the first `autosave-<pid>[-<n>]`
    /// whose lock this instance gets and that holds no build file.
    fn claim(&mut self) -> Result<(), String> {
        let Some(dir) = &self.dir else { return Ok(()) };
        if self.slot.is_some() {
            return Ok(());
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let pid = std::process::id();
        for n in 0..MAX_SLOTS {
            let stem = if n == 0 { format!("{PREFIX}{pid}") } else { format!("{PREFIX}{pid}-{n}") };
            let lock_path = dir.join(format!("{stem}.lock"));
            let file = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&lock_path)
                .map_err(|e| format!("{}: {e}", lock_path.display()))?;
            let lock = match file.try_lock() {
                Ok(()) => Some(file),
                // A running instance with the same process id holds it.
                Err(TryLockError::WouldBlock) => continue,
                Err(TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => None,
                Err(TryLockError::Error(e)) => return Err(format!("{}: {e}", lock_path.display())),
            };
            // Checked under the lock: a build file here is a crashed instance's work, to be
            // offered, not overwritten; a lock file that vanished between opening and locking
            // was tidied away by another instance's scan, and locking it guards nothing.
            // Dropping the file releases the lock.
            if dir.join(format!("{stem}.ron")).exists() || !lock_path.exists() {
                continue;
            }
            self.slot = Some(Slot { stem, lock });
            return Ok(());
        }
        Err(format!("{}: no free autosave slot among {MAX_SLOTS} for process {pid}", dir.display()))
    }

    /// Takes this instance's slot, then looks for autosave files that crashed instances left
    /// behind and keeps the newest as the restore offer. Files of running instances (their
    /// lock is held) are skipped; lock files that guard nothing and that nobody holds are
    /// removed.
    ///
    /// # Errors
    /// The slot cannot be taken (the folder cannot be created or locked), or the newest file
    /// cannot be read or parsed; it is left in place and the message names it.
    pub fn scan(&mut self) -> Result<(), String> {
        self.claim()?;
        let Some(dir) = &self.dir else { return Ok(()) };
        let Ok(entries) = std::fs::read_dir(dir) else { return Ok(()) };
        let own = self.slot.as_ref().map(|s| s.stem.clone()).unwrap_or_default();
        let mut newest: Option<(SystemTime, PathBuf)> = None;
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
            if !name.starts_with(PREFIX) || stem == own {
                continue;
            }
            if ext == "lock" {
                if !path.with_extension("ron").exists() {
                    remove_stale_lock(&path);
                }
                continue;
            }
            if ext != "ron" || lock_is_held(&path.with_extension("lock")) {
                continue;
            }
            let modified = entry.metadata().and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH);
            if newest.as_ref().is_none_or(|(t, _)| modified > *t) {
                newest = Some((modified, entry.path()));
            }
        }
        let Some((_, file)) = newest else { return Ok(()) };
        let build = persist::load_build(&file).map_err(|e| e.to_string())?;
        let original_path = std::fs::read_to_string(file.with_extension("path"))
            .ok()
            .map(|s| PathBuf::from(s.trim_end_matches('\n')))
            .filter(|p| !p.as_os_str().is_empty());
        self.offer = Some(Recovered { file, build, original_path });
        Ok(())
    }

    /// Every build in the autosave folder that loads (this instance's own and those of other
    /// or crashed instances), newest first, at most [`MAX_AUTOSAVES_LISTED`].
    #[must_use]
    pub fn autosaves(&self) -> Vec<Autosave> {
        let Some(dir) = &self.dir else { return Vec::new() };
        let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
        let mut found: Vec<(SystemTime, PathBuf)> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                name.starts_with(PREFIX) && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("ron"))
            })
            .map(|p| (std::fs::metadata(&p).and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH), p))
            .collect();
        found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        found
            .into_iter()
            .filter_map(|(modified, file)| {
                persist::load_build(&file).ok().map(|build| Autosave { file, build, modified })
            })
            .take(MAX_AUTOSAVES_LISTED)
            .collect()
    }

    /// The build offered for restore, if a crash left one.
    #[must_use]
    pub fn offer(&self) -> Option<&Recovered> {
        self.offer.as_ref()
    }

    /// Takes the offer (to restore or discard it).
    pub fn take_offer(&mut self) -> Option<Recovered> {
        self.offer.take()
    }

    /// Removes a recovered build's files, holding its lock meanwhile so that no instance
    /// takes the slot halfway.
    ///
    /// # Errors
    /// The autosave file exists but cannot be removed.
    pub fn discard(&mut self, found: &Recovered) -> std::io::Result<()> {
        let lock_path = found.file.with_extension("lock");
        let lock = OpenOptions::new().write(true).open(&lock_path).ok().filter(|f| f.try_lock().is_ok());
        remove_if_present(&found.file.with_extension("path"))?;
        remove_if_present(&found.file)?;
        if lock.is_some() {
            remove_if_present(&lock_path)?;
        }
        Ok(())
    }

    /// When the last autosave of the build being edited was written: None once it is saved
    /// (or opened clean) and after another build replaced it.
    #[must_use]
    pub fn last_autosave(&self) -> Option<SystemTime> {
        self.last_autosave
    }

    /// Another build replaced the one autosaved: "Autosaved at …" no longer speaks of it.
    pub fn forget_last_autosave(&mut self) {
        self.last_autosave = None;
    }

    /// Called every frame. Writes the build once it has been unchanged for
    /// [`AUTOSAVE_DELAY_SECS`] while dirty; removes this process' autosave once the build is
    /// clean. Returns how many seconds until an autosave is due, if one is pending (the app
    /// schedules a repaint for then).
    ///
    /// # Errors
    /// The autosave could not be written or removed (the message says where).
    pub fn tick(
        &mut self,
        now_secs: f64,
        revision: u64,
        dirty: bool,
        build: &Build,
        path: Option<&Path>,
    ) -> Result<Option<f32>, String> {
        if self.dir.is_none() {
            return Ok(None);
        }
        if revision != self.seen_revision {
            self.seen_revision = revision;
            self.changed_at = now_secs;
        }
        if !dirty {
            // Saved, or another build opened: its autosave time is no longer news.
            self.last_autosave = None;
            if self.wrote {
                self.clear_own().map_err(|e| e.to_string())?;
            }
            self.saved_revision = None;
            return Ok(None);
        }
        if self.saved_revision == Some(revision) {
            return Ok(None);
        }
        let due = self.changed_at + AUTOSAVE_DELAY_SECS;
        if now_secs < due {
            #[expect(
                clippy::cast_possible_truncation,
                reason = "seconds to wait for an autosave, at most a few seconds"
            )]
            return Ok(Some((due - now_secs) as f32));
        }
        self.write(build, path)?;
        self.saved_revision = Some(revision);
        Ok(None)
    }

    fn write(&mut self, build: &Build, path: Option<&Path>) -> Result<(), String> {
        // The slot is normally taken at start; this retries if the folder was not writable then.
        self.claim()?;
        let (Some(dir), Some(file), Some(sidecar)) = (&self.dir, self.own_file("ron"), self.own_file("path")) else {
            return Ok(());
        };
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let text = persist::build_to_string(build).map_err(|e| e.to_string())?;
        match path {
            Some(p) => persist::write_atomic(&sidecar, p.to_string_lossy().as_bytes(), false),
            None => remove_if_present(&sidecar).map_err(|source| persist::BuildFileError::Write {
                path: sidecar.display().to_string(),
                error: source,
            }),
        }
        .map_err(|e| e.to_string())?;
        persist::write_atomic(&file, text.as_bytes(), false).map_err(|e| e.to_string())?;
        self.wrote = true;
        self.last_autosave = Some(SystemTime::now());
        Ok(())
    }

    /// A clean exit: removes this instance's autosave and gives up its slot.
    ///
    /// # Errors
    /// A file exists but cannot be removed (the next start then offers the autosave, which
    /// loses nothing).
    pub fn close(&mut self) -> std::io::Result<()> {
        self.clear_own()?;
        if let (Some(lock_path), Some(slot)) = (self.own_file("lock"), self.slot.take()) {
            // Removed while still held, then released.
            if slot.lock.is_some() {
                remove_if_present(&lock_path)?;
            }
        }
        Ok(())
    }

    /// Removes this instance's autosave (the build was saved); the slot stays taken.
    ///
    /// # Errors
    /// A file exists but cannot be removed.
    pub fn clear_own(&mut self) -> std::io::Result<()> {
        if let Some(f) = self.own_file("path") {
            remove_if_present(&f)?;
        }
        if let Some(f) = self.own_file("ron") {
            remove_if_present(&f)?;
        }
        self.wrote = false;
        Ok(())
    }

    /// This instance's autosave file, once it has a slot (autosave on).
    #[must_use]
    pub fn own_autosave_path(&self) -> Option<PathBuf> {
        self.own_file("ron")
    }
}

/// True when a running instance holds the lock file (a missing or lockless file: no).
fn lock_is_held(lock_path: &Path) -> bool {
    let Ok(file) = File::open(lock_path) else { return false };
    matches!(file.try_lock_shared(), Err(TryLockError::WouldBlock))
}

/// Removes a lock file nobody holds (its instance ended without an autosave to recover).
fn remove_stale_lock(lock_path: &Path) {
    let Ok(file) = OpenOptions::new().write(true).open(lock_path) else { return };
    if file.try_lock().is_ok() {
        // Tidying only: a lock file left behind costs nothing.
        let _ = std::fs::remove_file(lock_path);
    }
}

fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// `HH:MM:SS UTC` of a time, for the status bar.
#[must_use]
pub fn utc_clock(t: SystemTime) -> String {
    let secs = t.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let day = secs % crate::core::units::SECONDS_PER_DAY;
    format!("{:02}:{:02}:{:02} UTC", day / 3600, day % 3600 / 60, day % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autosaves_after_a_pause_and_clears_when_clean() {
        let dir = tempfile::tempdir().unwrap();
        let mut r = Recovery::new(Some(dir.path().to_path_buf()));
        // The app scans at start, which takes the instance's slot.
        r.scan().unwrap();
        let build = Build::new("Draft");
        // Revision 2 is dirty from t = 10 s: nothing is written before 13 s.
        assert_eq!(r.tick(10.0, 2, true, &build, None), Ok(Some(3.0)));
        assert_eq!(r.tick(12.0, 2, true, &build, None), Ok(Some(1.0)));
        let file = r.own_autosave_path().unwrap();
        assert!(!file.exists());
        assert_eq!(r.tick(13.0, 2, true, &build, Some(Path::new("/plans/a.ron"))), Ok(None));
        assert_eq!(persist::load_build(&file).unwrap(), build);
        assert!(r.last_autosave().is_some());
        // A new edit restarts the pause.
        assert_eq!(r.tick(14.0, 3, true, &build, None), Ok(Some(3.0)));
        // Saved (clean): the autosave goes away.
        assert_eq!(r.tick(15.0, 3, false, &build, None), Ok(None));
        assert!(!file.exists());
    }

    #[test]
    fn a_crash_leftover_is_offered_and_discarded() {
        let dir = tempfile::tempdir().unwrap();
        let leftover = dir.path().join("autosave-999999999.ron");
        let build = Build::new("Lost work");
        persist::save_build(&leftover, &build).unwrap();
        std::fs::write(dir.path().join("autosave-999999999.path"), "/plans/lost.ron").unwrap();
        std::fs::write(dir.path().join("unrelated.ron"), "junk").unwrap();
        let mut r = Recovery::new(Some(dir.path().to_path_buf()));
        r.scan().unwrap();
        let offer = r.take_offer().unwrap();
        assert_eq!(offer.build, build);
        assert_eq!(offer.original_path, Some(PathBuf::from("/plans/lost.ron")));
        r.discard(&offer).unwrap();
        assert!(!leftover.exists());
        assert!(dir.path().join("unrelated.ron").exists());
        let mut again = Recovery::new(Some(dir.path().to_path_buf()));
        again.scan().unwrap();
        assert!(again.offer().is_none());
    }

    #[test]
    fn an_unreadable_leftover_is_reported_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let leftover = dir.path().join("autosave-999999998.ron");
        std::fs::write(&leftover, "(version: 1, build: (name: ").unwrap();
        let mut r = Recovery::new(Some(dir.path().to_path_buf()));
        let e = r.scan().unwrap_err();
        assert!(e.contains("autosave-999999998.ron:1:"), "{e}");
        assert!(leftover.exists());
    }

    /// Autosaves `build` as revision 2 after the pause.
    fn autosave(r: &mut Recovery, build: &Build) {
        assert_eq!(r.tick(0.0, 2, true, build, None), Ok(Some(3.0)));
        assert_eq!(r.tick(AUTOSAVE_DELAY_SECS, 2, true, build, None), Ok(None));
    }

    #[test]
    fn a_running_instance_autosave_is_neither_offered_nor_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let folder = Some(dir.path().to_path_buf());
        let mut first = Recovery::new(folder.clone());
        first.scan().unwrap();
        let first_build = Build::new("First instance");
        autosave(&mut first, &first_build);
        let first_file = first.own_autosave_path().unwrap();
        assert_eq!(persist::load_build(&first_file).unwrap(), first_build);
        // A second instance starts. It has the same process id here (as instances in two PID
        // namespaces can): the lock, not the id, keeps them apart.
        let mut second = Recovery::new(folder.clone());
        second.scan().unwrap();
        assert!(second.offer().is_none(), "a running instance's autosave is not a crash leftover");
        let second_file = second.own_autosave_path().unwrap();
        assert_ne!(second_file, first_file);
        let second_build = Build::new("Second instance");
        autosave(&mut second, &second_build);
        assert_eq!(persist::load_build(&first_file).unwrap(), first_build, "the first instance's file is untouched");
        assert_eq!(persist::load_build(&second_file).unwrap(), second_build);
        // The first instance crashes: the OS drops its lock, its autosave stays.
        drop(first);
        let mut third = Recovery::new(folder);
        third.scan().unwrap();
        let offer = third.take_offer().expect("the crashed instance's work is offered");
        assert_eq!(offer.build, first_build, "not the running second instance's");
        third.discard(&offer).unwrap();
        assert!(!first_file.exists());
        assert!(!first_file.with_extension("lock").exists(), "the slot's lock file goes with it");
        assert!(second_file.exists() && second_file.with_extension("lock").exists());
    }

    #[test]
    fn a_leftover_under_this_process_id_is_offered_not_overwritten() {
        // A crashed instance that had the same id (ids are reused): its lock file is not held.
        let dir = tempfile::tempdir().unwrap();
        let stem = format!("{PREFIX}{}", std::process::id());
        let leftover = dir.path().join(format!("{stem}.ron"));
        let lost = Build::new("Before the crash");
        persist::save_build(&leftover, &lost).unwrap();
        std::fs::write(dir.path().join(format!("{stem}.lock")), "").unwrap();
        let mut r = Recovery::new(Some(dir.path().to_path_buf()));
        r.scan().unwrap();
        assert_eq!(r.offer().map(|o| &o.file), Some(&leftover));
        assert_ne!(r.own_autosave_path().as_ref(), Some(&leftover), "the slot with a leftover is not taken");
        autosave(&mut r, &Build::new("Mine"));
        assert_eq!(persist::load_build(&leftover).unwrap(), lost);
    }

    #[test]
    fn a_clean_exit_frees_the_slot_and_stale_locks_are_tidied() {
        let dir = tempfile::tempdir().unwrap();
        let stale = dir.path().join("autosave-999999997.lock");
        std::fs::write(&stale, "").unwrap();
        let mut r = Recovery::new(Some(dir.path().to_path_buf()));
        r.scan().unwrap();
        assert!(!stale.exists(), "a lock nobody holds that guards no autosave is removed");
        autosave(&mut r, &Build::new("Draft"));
        let own = r.own_autosave_path().unwrap();
        assert!(own.exists() && own.with_extension("lock").exists());
        r.close().unwrap();
        assert!(!own.exists() && !own.with_extension("lock").exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing is left behind");
    }

    #[test]
    fn clock() {
        assert_eq!(utc_clock(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(86_400 + 3_723)), "01:02:03 UTC");
    }
}
