//! Ctrl-C on every long command, with real signals: the command exits 130
//! and says that what finished is kept and how to continue; the same
//! command with `--resume` then writes the files an uninterrupted run
//! writes (`run` has its own: `scaleout.rs`).

use crate::play_cli::bin;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-int-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Every file under `d` but request.txt (it records the command line,
/// which names the folder), by path relative to `d`.
fn files(d: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut todo = vec![d.to_path_buf()];
    while let Some(p) = todo.pop() {
        for e in std::fs::read_dir(&p).unwrap() {
            let e = e.unwrap().path();
            if e.is_dir() {
                todo.push(e);
            } else if e.file_name().is_some_and(|n| n != "request.txt") {
                out.push((e.strip_prefix(d).unwrap().to_path_buf(), std::fs::read(&e).unwrap()));
            }
        }
    }
    out.sort();
    out
}

fn kept(d: &Path) -> usize {
    std::fs::read_dir(d.join("cells")).map_or(0, |r| r.count())
}

/// `text` with every wall time ("played in 0.4 s") written as "T s": the
/// one thing a resumed run may print differently.
fn timeless(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("played in ") {
        let (head, tail) = rest.split_at(i + "played in ".len());
        out.push_str(head);
        let n = tail.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(tail.len());
        if n > 0 && tail[n..].starts_with(" s") {
            out.push('T');
            rest = &tail[n..];
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// Start `args --out D`, send SIGINT once a piece of its work is kept,
/// check the exit and the message, resume, and compare with a whole run.
fn interrupt_and_resume(name: &str, args: &[&str]) {
    interrupt_and_resume_when(name, args, |d| kept(d) > 0)
}

/// [`interrupt_and_resume`], sending SIGINT once `ready(D)` holds.
fn interrupt_and_resume_when(name: &str, args: &[&str], ready: impl Fn(&Path) -> bool) {
    let (d, whole) = (dir(name), dir(&format!("{name}-whole")));
    let run = |out: &Path, extra: &[&str]| -> Command {
        let mut c = bin();
        c.args(args).arg("--out").arg(out).args(extra);
        c
    };
    let mut child = run(&d, &[]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let t0 = Instant::now();
    while !ready(&d) {
        assert!(child.try_wait().unwrap().is_none(), "{name}: ended before any piece was kept: make it longer");
        assert!(t0.elapsed() < Duration::from_secs(120), "{name}: no piece kept in 120 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{name}: {err}");
    assert!(err.contains("interrupted by Ctrl-C") && err.contains("--resume"), "{name}: {err}");
    assert!(kept(&d) > 0, "{name}: the finished pieces are kept");
    let resumed = run(&d, &["--resume"]).output().unwrap();
    // 0, or a verdict (1: `solve` found no root), the same as the whole run's.
    let code = resumed.status.code();
    assert!(matches!(code, Some(0 | 1)), "{name}: {}", String::from_utf8_lossy(&resumed.stderr));
    assert!(!d.join("cells").exists(), "{name}: a finished run removes its kept pieces");
    let w = run(&whole, &[]).output().unwrap();
    assert_eq!(w.status.code(), code, "{name}: {}", String::from_utf8_lossy(&w.stderr));
    let text = |o: &std::process::Output, p: &Path| {
        timeless(&String::from_utf8_lossy(&o.stdout).replace(&*p.to_string_lossy(), "OUT"))
    };
    assert_eq!(text(&resumed, &d), text(&w, &whole), "{name}: the resumed run prints what a whole run prints");
    let (a, b) = (files(&d), files(&whole));
    assert_eq!(a.iter().map(|f| &f.0).collect::<Vec<_>>(), b.iter().map(|f| &f.0).collect::<Vec<_>>(), "{name}");
    for ((p, x), (_, y)) in a.iter().zip(&b) {
        let same = match (std::str::from_utf8(x), std::str::from_utf8(y)) {
            (Ok(x), Ok(y)) => timeless(x) == timeless(y),
            _ => x == y,
        };
        assert!(same, "{name}: {} differs from the uninterrupted run's", p.display());
    }
    let _ = std::fs::remove_dir_all(&d);
    let _ = std::fs::remove_dir_all(&whole);
}

#[test]
fn ladder_keeps_its_finished_pairs_on_ctrl_c_and_resumes_to_the_same_files() {
    interrupt_and_resume(
        "ladder",
        &["ladder", "--strategies", "random,balanced,miner", "--campaigns", "4096", "--quiet"],
    );
}

#[test]
fn metagame_resumes_to_the_same_files() {
    interrupt_and_resume(
        "metagame",
        &["metagame", "--strategies", "random,balanced", "--campaigns", "2048", "--bootstrap", "100", "--quiet"],
    );
}

#[test]
fn compare_resumes_to_the_same_files() {
    interrupt_and_resume("compare", &["compare", "--vary", "economy.pillage=3D6x10", "--campaigns", "8192", "--quiet"]);
}

#[test]
fn restrict_resumes_to_the_same_files() {
    interrupt_and_resume(
        "restrict",
        &[
            "experiment",
            "restrict",
            "--forbid",
            "mine",
            "--levels",
            "random,balanced",
            "--campaigns",
            "4096",
            "--quiet",
        ],
    );
}

#[test]
fn sensitivity_resumes_to_the_same_files() {
    interrupt_and_resume(
        "sensitivity",
        &[
            "sensitivity",
            "--metric",
            "share of gold from mines",
            "--vary",
            "economy.pillage.mult,economy.mine.river.mult",
            "--trajectories",
            "6",
            "--campaigns",
            "600",
            "--quiet",
        ],
    );
}

#[test]
fn check_resumes_to_the_same_verdicts() {
    let d = dir("gatefile");
    std::fs::create_dir_all(&d).unwrap();
    let file = d.join("b.toml");
    std::fs::write(
        &file,
        "[[metric]]\nname = \"small\"\ncampaigns = 1000\nquantity = \"share of gold from mines\"\nmin = 0.0\n\n\
         [[metric]]\nname = \"large\"\ncampaigns = 16000\nquantity = \"share of gold from pillage\"\nmax = 1.0\n",
    )
    .unwrap();
    interrupt_and_resume("check", &["check", file.to_str().unwrap(), "--quiet"]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn deviate_resumes_to_the_same_files() {
    interrupt_and_resume(
        "deviate",
        &["deviate", "--strategy", "balanced", "--keys", "mine,pillage", "--campaigns", "1536", "--quiet"],
    );
}

#[test]
fn probe_resumes_to_the_same_files() {
    interrupt_and_resume(
        "probe",
        &["probe", "--strategy", "balanced", "--topics", "mine,pillage", "--campaigns", "2048", "--quiet"],
    );
}

#[test]
fn sweep_resumes_to_the_same_files() {
    interrupt_and_resume(
        "sweep",
        &["sweep", "--vary", "economy.pillage=1D6x10,2D6x10,3D6x10", "--campaigns", "4096", "--quiet"],
    );
}

#[test]
fn mine_vs_pillage_resumes_to_the_same_files() {
    interrupt_and_resume(
        "mine-vs-pillage",
        &[
            "experiment",
            "mine-vs-pillage",
            "--campaigns",
            "2048",
            "--loss-campaigns",
            "512",
            "--readings-campaigns",
            "0",
            "--quiet",
        ],
    );
}

#[test]
fn solve_resumes_to_the_same_files() {
    interrupt_and_resume(
        "solve",
        &[
            "solve",
            "--vary",
            "economy.pillage.mult=5..40",
            "--target",
            "share of gold from pillage = 0.3",
            "--campaigns",
            "2048",
            "--steps",
            "4",
            "--quiet",
        ],
    );
}

const TUNE: &[&str] =
    &["tune", "--generations", "3", "--campaigns-per-eval", "40", "--eval-campaigns", "40", "--quiet"];

/// Stopped inside the first generation, before any record is written: the
/// finished candidates are kept in cells and `--resume` starts from them
/// (it once refused, "nothing to resume").
#[test]
fn tune_resumes_from_inside_its_first_generation() {
    interrupt_and_resume_when("tune-first", TUNE, |d| kept(d) > 0 && !d.join("record.json").exists());
}

/// Stopped after a generation is recorded: `--resume` replays the record
/// and the kept candidates of the generation in flight.
#[test]
fn tune_resumes_from_a_later_generation() {
    interrupt_and_resume_when("tune-later", TUNE, |d| d.join("record.json").exists());
}

#[test]
fn timeless_hides_only_wall_times() {
    assert_eq!(timeless("1,000 campaigns played in 12.5 s\n"), "1,000 campaigns played in T s\n");
    assert_eq!(timeless("played in seats 1-4"), "played in seats 1-4");
}

/// `--resume` on a folder whose command finished plays nothing, leaves the
/// files as they are and exits as the command did; without `--resume` the
/// command starts afresh.
#[test]
fn resume_on_a_finished_folder_plays_nothing() {
    let d = dir("finished");
    let args = ["sweep", "--vary", "costs.capture=1,2", "--campaigns", "20", "--quiet", "--out"];
    let o = bin().args(args).arg(&d).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read_to_string(d.join("request.txt")).unwrap().ends_with("complete, exit 0\n"));
    let before = files(&d);
    let o = bin().args(args).arg(&d).arg("--resume").output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("already complete") && err.contains("--resume played nothing"), "{err}");
    assert!(!String::from_utf8_lossy(&o.stdout).contains("sweep over"), "nothing played or printed again");
    assert!(files(&d) == before, "the files are left as they are");
    // Without --resume: played again, and finished again.
    let o = bin().args(args).arg(&d).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains("sweep over"));
    assert!(std::fs::read_to_string(d.join("request.txt")).unwrap().ends_with("complete, exit 0\n"));
    let _ = std::fs::remove_dir_all(&d);
}
