//! Saving survives being killed, and backups behave.
//!
//! [`killed_mid_save_leaves_the_old_or_the_new_build`] starts this very test binary again
//! (`std::env::current_exe`) running only [`save_loop`], with an environment variable that
//! turns it into an endless loop of saves of numbered builds ("generations") into a folder; the
//! parent kills it with SIGKILL (`Child::kill`) at a random moment, then checks that the file
//! is one complete generation and its backup the one before or the same. The product needs no
//! hidden subcommand for this. While the child saves, the parent reads the file too: a reader
//! never sees a partial build either.

use rigplan::core::build::{Build, Location};
use rigplan::core::catalog::PartId;
use rigplan::core::persist::{backup_path, load_build, save_build};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Set in the child: the folder to save into.
const CHILD_DIR_ENV: &str = "RIGPLAN_TEST_SAVE_LOOP_DIR";
/// Set in the child: the generation already on disk; the child saves the ones after it.
const CHILD_START_ENV: &str = "RIGPLAN_TEST_SAVE_LOOP_START";

/// Build number `k`. Its size varies with `k` (up to ~4 KB of description, up to 12 part
/// lines) so that a torn or mixed write could not pass for a whole generation.
fn generation(k: u64) -> Build {
    let mut b = Build::new(format!("generation {k}"));
    let len = usize::try_from(k % 97).expect("small") * 41;
    b.description = "abcdefghij".chars().cycle().take(len).collect();
    b.nodes[0].count = u32::try_from(k % 64).expect("small") + 1;
    for i in 0..k % 13 {
        let quantity = u32::try_from(k % 7).expect("small") + 1;
        b.add_part(Location::Node(0), &PartId::from(format!("gpu/generation-part-{i}")), quantity).expect("adds");
    }
    b
}

fn generation_of(b: &Build) -> Option<u64> {
    b.name.strip_prefix("generation ")?.parse().ok()
}

/// Loads a file that must hold a complete generation, and returns its number.
fn whole_generation(path: &Path) -> u64 {
    let b = load_build(path).unwrap_or_else(|e| panic!("{} is not a complete build: {e}", path.display()));
    let k = generation_of(&b).unwrap_or_else(|| panic!("{}: unexpected build {}", path.display(), b.name));
    assert_eq!(b, generation(k), "{}: generation {k} differs from what was saved", path.display());
    k
}

/// The save loop. As the child of the kill test (its environment variables set) it saves
/// generation after generation until it is killed; run as an ordinary test it saves 40
/// generations and checks the file and backup after each.
#[test]
fn save_loop() {
    if let Some(dir) = std::env::var_os(CHILD_DIR_ENV) {
        let start: u64 = std::env::var(CHILD_START_ENV).ok().and_then(|s| s.parse().ok()).expect("start generation");
        let path = PathBuf::from(dir).join("plan.ron");
        for k in start + 1.. {
            save_build(&path, &generation(k)).expect("saves");
        }
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("plan.ron");
    for k in 1..=40 {
        save_build(&path, &generation(k)).expect("saves");
        assert_eq!(whole_generation(&path), k);
        if k > 1 {
            assert_eq!(whole_generation(&backup_path(&path)), k - 1, "the backup is the previous save");
        } else {
            assert!(!backup_path(&path).exists(), "the first save has nothing to back up");
        }
    }
}

/// A small xorshift generator: the kill moments only need to be spread out, and the seed is
/// printed so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn leftover_temporaries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().contains(".tmp-")))
        .collect()
}

#[test]
fn killed_mid_save_leaves_the_old_or_the_new_build() {
    const ROUNDS: u64 = 40;
    let seed = std::env::var("RIGPLAN_TEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| u64::from(d.subsec_nanos()) ^ d.as_secs())
            | 1
    });
    println!("RIGPLAN_TEST_SEED={seed}");
    let mut rng = Rng(seed);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("plan.ron");
    let bak = backup_path(&path);
    let (mut reads, mut torn_saves, mut saves) = (0u64, 0usize, 0u64);
    for round in 0..ROUNDS {
        let base = round * 1_000_000;
        save_build(&path, &generation(base)).expect("initial save");
        let _ = std::fs::remove_file(&bak);
        let mut child = Command::new(std::env::current_exe().expect("test binary"))
            .args(["--exact", "save_crash::save_loop", "--test-threads=1"])
            .env(CHILD_DIR_ENV, dir.path())
            .env(CHILD_START_ENV, base.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("child starts");
        // Wait for the child's first save so the kill lands in the loop, not in start-up;
        // every read on the way must find a whole generation.
        let started = Instant::now();
        while whole_generation(&path) == base {
            reads += 1;
            assert!(started.elapsed() < Duration::from_secs(60), "the child never saved");
            assert!(child.try_wait().expect("status").is_none(), "the child exited on its own");
            std::thread::sleep(Duration::from_micros(200));
        }
        let until = Instant::now() + Duration::from_micros(rng.next() % 30_000);
        while Instant::now() < until {
            whole_generation(&path);
            reads += 1;
        }
        child.kill().expect("SIGKILL");
        child.wait().expect("reaped");

        let k = whole_generation(&path);
        assert!(k > base, "round {round}: the child saved at least once");
        saves += k - base;
        if bak.exists() {
            let b = whole_generation(&bak);
            assert!(b == k || b + 1 == k, "round {round}: backup {b} next to file {k}");
        } else {
            assert_eq!(k, base + 1, "round {round}: no backup only if the first save was the last");
        }
        let leftovers = leftover_temporaries(dir.path());
        if !leftovers.is_empty() {
            torn_saves += 1;
        }
        for p in leftovers {
            std::fs::remove_file(p).expect("clean up");
        }
    }
    println!("{ROUNDS} kills, {saves} saves, {reads} concurrent reads, {torn_saves} kills inside a save");
    // A kill that left a temporary file landed between creating it and renaming it: the case
    // the atomic save exists for. With the child doing nothing but save, most kills do.
    assert!(torn_saves > 0, "no kill landed inside a save; the test did not test anything");
}

#[test]
fn each_save_keeps_exactly_the_previous_file_as_backup() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("plan.ron");
    assert_eq!(backup_path(&path), dir.path().join("plan.ron.bak"));
    save_build(&path, &generation(1)).expect("saves");
    assert!(!backup_path(&path).exists());
    save_build(&path, &generation(2)).expect("saves");
    save_build(&path, &generation(3)).expect("saves");
    assert_eq!(whole_generation(&path), 3);
    assert_eq!(whole_generation(&backup_path(&path)), 2, "one backup, the previous save");
    // The backup is a byte copy of the previous file, whatever it held.
    std::fs::write(&path, "(version: 1, build: (name: \"hand-edited\", nodes: [(name: \"n\", count: 1, parts: [])]))")
        .expect("write");
    let before = std::fs::read(&path).expect("read");
    save_build(&path, &generation(4)).expect("saves");
    assert_eq!(std::fs::read(backup_path(&path)).expect("read"), before);
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("readable")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["plan.ron", "plan.ron.bak"], "no temporary files are left");
}

#[test]
fn a_failed_save_leaves_everything_as_it_was() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The target is a folder: the save cannot replace it and must say where.
    let target = dir.path().join("plan.ron");
    std::fs::create_dir(&target).expect("mkdir");
    let err = save_build(&target, &generation(1)).expect_err("cannot replace a folder").to_string();
    assert!(err.starts_with(&format!("{}: cannot write", target.display())), "{err}");
    assert!(target.is_dir());
    assert!(leftover_temporaries(dir.path()).is_empty(), "the temporary file is removed on failure");
    // A folder that does not exist.
    let missing = dir.path().join("no/such/folder/plan.ron");
    let err = save_build(&missing, &generation(1)).expect_err("no folder").to_string();
    assert!(err.contains("no/such/folder/plan.ron: cannot write"), "{err}");
}

/// Saves of the same file from several threads of one process (an autosave racing a save):
/// each uses its own temporary file, every save succeeds, and the file ends as one whole build.
#[test]
fn concurrent_saves_in_one_process_do_not_collide() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("plan.ron");
    std::thread::scope(|s| {
        for t in 0..8u64 {
            let path = &path;
            s.spawn(move || {
                for i in 0..25 {
                    save_build(path, &generation(t * 1_000 + i)).expect("every save succeeds");
                }
            });
        }
    });
    let k = whole_generation(&path);
    assert_eq!(k % 1_000, 24, "the last save of some thread");
    whole_generation(&backup_path(&path));
    assert!(leftover_temporaries(dir.path()).is_empty(), "{:?}", leftover_temporaries(dir.path()));
}
