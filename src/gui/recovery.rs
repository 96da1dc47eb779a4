//! Autosave and crash recovery.
//!
//! Theory of operation. While the build has unsaved changes, the app writes it to a recovery
//! folder (in the per-user data folder) once the user has paused for
//! [`AUTOSAVE_DELAY_SECS`]: `autosave-<process id>.ron`, a normal build file, plus
//! `autosave-<process id>.path` naming the file the build came from, if any. Saving the build
//! or a clean exit removes them. At start, autosave files left by other processes are what a
//! crash left behind: the newest is offered for restore; restoring or discarding it removes
//! it. The app only ever waits for the autosave with a timed repaint, so an idle app does not
//! spin.

use crate::core::build::Build;
use crate::core::persist;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Seconds of inactivity after the last edit before an autosave. Short enough that a crash
/// loses little, long enough not to write while the user is typing a name.
pub const AUTOSAVE_DELAY_SECS: f64 = 3.0;

const PREFIX: &str = "autosave-";

/// A build found in the recovery folder.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovered {
    /// The autosave file.
    pub file: PathBuf,
    pub build: Build,
    /// The file the build had been opened from or saved to, if any.
    pub original_path: Option<PathBuf>,
}

/// The autosave state of this process.
#[derive(Clone, Debug)]
pub struct Recovery {
    dir: Option<PathBuf>,
    stem: String,
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
            stem: format!("{PREFIX}{}", std::process::id()),
            offer: None,
            seen_revision: 0,
            changed_at: 0.0,
            saved_revision: None,
            wrote: false,
            last_autosave: None,
        }
    }

    fn own_file(&self, ext: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(format!("{}.{ext}", self.stem)))
    }

    /// Looks for autosave files other processes left behind and keeps the newest as the
    /// restore offer.
    ///
    /// # Errors
    /// The newest file cannot be read or parsed; it is left in place and the message names it.
    pub fn scan(&mut self) -> Result<(), String> {
        let Some(dir) = &self.dir else { return Ok(()) };
        let Ok(entries) = std::fs::read_dir(dir) else { return Ok(()) };
        let own = format!("{}.ron", self.stem);
        let mut newest: Option<(SystemTime, PathBuf)> = None;
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_ron = Path::new(&name).extension().is_some_and(|e| e.eq_ignore_ascii_case("ron"));
            if !name.starts_with(PREFIX) || !is_ron || name == own {
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

    /// The build offered for restore, if a crash left one.
    #[must_use]
    pub fn offer(&self) -> Option<&Recovered> {
        self.offer.as_ref()
    }

    /// Takes the offer (to restore or discard it).
    pub fn take_offer(&mut self) -> Option<Recovered> {
        self.offer.take()
    }

    /// Removes a recovered build's files.
    ///
    /// # Errors
    /// The autosave file exists but cannot be removed.
    pub fn discard(&mut self, found: &Recovered) -> std::io::Result<()> {
        remove_if_present(&found.file.with_extension("path"))?;
        remove_if_present(&found.file)
    }

    /// When the last autosave was written.
    #[must_use]
    pub fn last_autosave(&self) -> Option<SystemTime> {
        self.last_autosave
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
            #[allow(clippy::cast_possible_truncation)]
            return Ok(Some((due - now_secs) as f32));
        }
        self.write(build, path)?;
        self.saved_revision = Some(revision);
        Ok(None)
    }

    fn write(&mut self, build: &Build, path: Option<&Path>) -> Result<(), String> {
        let (Some(dir), Some(file), Some(sidecar)) = (&self.dir, self.own_file("ron"), self.own_file("path")) else {
            return Ok(());
        };
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let text = persist::build_to_string(build).map_err(|e| e.to_string())?;
        match path {
            Some(p) => persist::write_atomic(&sidecar, p.to_string_lossy().as_bytes(), false),
            None => remove_if_present(&sidecar)
                .map_err(|source| persist::BuildFileError::Write { path: sidecar.display().to_string(), source }),
        }
        .map_err(|e| e.to_string())?;
        persist::write_atomic(&file, text.as_bytes(), false).map_err(|e| e.to_string())?;
        self.wrote = true;
        self.last_autosave = Some(SystemTime::now());
        Ok(())
    }

    /// Removes this process' autosave (clean exit, or the build was saved).
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

    /// This process' autosave file, if autosave is on.
    #[must_use]
    pub fn own_autosave_path(&self) -> Option<PathBuf> {
        self.own_file("ron")
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
    let day = secs % 86_400;
    format!("{:02}:{:02}:{:02} UTC", day / 3600, day % 3600 / 60, day % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autosaves_after_a_pause_and_clears_when_clean() {
        let dir = tempfile::tempdir().unwrap();
        let mut r = Recovery::new(Some(dir.path().to_path_buf()));
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

    #[test]
    fn clock() {
        assert_eq!(utc_clock(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(86_400 + 3_723)), "01:02:03 UTC");
    }
}
