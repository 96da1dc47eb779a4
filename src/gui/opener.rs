//! Opening a file with the system's default application (the build sheet to print, in the
//! browser): `xdg-open` on Linux and the BSDs, `open` on macOS, `cmd /C start` on Windows.
//!
//! The opener runs on a thread of its own, so that a slow one never stalls a frame; its
//! outcome comes back through [`OpenResults`], which the frame loop turns into a message: the
//! file opened, or where it is and why it did not open (no opener installed, no browser).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Outcomes of the openers started: the file, and Ok or why it did not open.
pub type OpenResults = Arc<Mutex<Vec<(PathBuf, Result<(), String>)>>>;

/// The system's opener: program and leading arguments (the file's path is appended).
#[must_use]
pub fn system_opener() -> Vec<String> {
    let parts: &[&str] = if cfg!(target_os = "macos") {
        &["open"]
    } else if cfg!(windows) {
        &["cmd", "/C", "start", ""]
    } else {
        &["xdg-open"]
    };
    parts.iter().map(|s| (*s).to_owned()).collect()
}

/// Runs `opener` on `path` in the background; the outcome is pushed to `results` and a repaint
/// requested, so that the next frame reports it.
pub fn open_in_background(opener: &[String], path: &Path, results: &OpenResults, ctx: &egui::Context) {
    let opener = opener.to_vec();
    let path = path.to_path_buf();
    let results = results.clone();
    let ctx = ctx.clone();
    let spawned = std::thread::Builder::new().name("rigplan-opener".into()).spawn(move || {
        let outcome = run(&opener, &path);
        if let Ok(mut r) = results.lock() {
            r.push((path, outcome));
        }
        ctx.request_repaint();
    });
    if let Err(e) = spawned {
        log::warn!("cannot start a thread for the opener: {e}");
    }
}

/// Runs the opener and waits for it: Ok when it exited successfully.
fn run(opener: &[String], path: &Path) -> Result<(), String> {
    let Some((program, args)) = opener.split_first() else {
        return Err("no opener is configured".to_owned());
    };
    let output = std::process::Command::new(program)
        .args(args)
        .arg(path)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let detail = stderr.lines().next().unwrap_or_default().trim();
        let status = output.status;
        Err(if detail.is_empty() { format!("{program}: {status}") } else { format!("{program}: {status}: {detail}") })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_or_failing_opener_says_why() {
        let path = Path::new("/tmp/sheet.html");
        let missing = run(&["rigplan-no-such-opener".to_owned()], path).unwrap_err();
        assert!(missing.starts_with("rigplan-no-such-opener: "), "{missing}");
        if cfg!(unix) {
            assert!(run(&["false".to_owned()], path).unwrap_err().contains("exit status: 1"));
            assert_eq!(run(&["true".to_owned()], path), Ok(()));
        }
        assert!(run(&[], path).is_err());
    }
}
