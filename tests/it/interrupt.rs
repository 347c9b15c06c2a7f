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
            "--inputs",
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
        &["sweep", "--values", "economy.pillage=1D6x10,2D6x10,3D6x10", "--campaigns", "4096", "--quiet"],
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
            "--range",
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

/// Two keys and one target: a curve of solves, each point's error kept as
/// that point's, so a stop inside one must still end the command as an
/// interruption (it once wrote the curve and exited 1, "no root found").
#[test]
fn a_solve_curve_resumes_to_the_same_files() {
    interrupt_and_resume(
        "solve-curve",
        &[
            "solve",
            "--range",
            "economy.mine.river.mult=20..30",
            "--range",
            "economy.pillage.mult=5..40",
            "--target",
            "share of gold from pillage = 0.2",
            "--campaigns",
            "4096",
            "--steps",
            "3",
            "--curve-points",
            "2",
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

/// Stopped after some of its generations are recorded: `--resume` replays
/// them (the emitters draw the same candidates and restart where they
/// restarted) and plays on to the map an uninterrupted run draws.
#[test]
fn styles_resumes_from_a_later_generation() {
    interrupt_and_resume_when(
        "styles",
        &[
            "styles",
            "--starts",
            "balanced,warlord",
            "--keys",
            "attack,mine,pillage",
            "--generations",
            "40",
            "--campaigns-per-eval",
            "80",
            "--emitters",
            "2",
            "--population",
            "6",
            "--eval-campaigns",
            "40",
            "--quiet",
        ],
        |d| d.join("record.json").exists(),
    );
}

/// Stopped inside its first round: `--resume` plays the round again from
/// the lineups it kept and ends where an uninterrupted run ends.
#[test]
fn psro_resumes_from_inside_a_round() {
    interrupt_and_resume_when(
        "psro",
        &[
            "psro",
            "--members",
            "tuned,balanced",
            "--rounds",
            "2",
            "--meta-campaigns",
            "40",
            "--starts",
            "warlord",
            "--budget",
            "6000",
            "--campaigns-per-eval",
            "40",
            "--cma-population",
            "4",
            "--select-campaigns",
            "40",
            "--eval-campaigns",
            "80",
            "--styles-budget",
            "400",
            "--quiet",
        ],
        |d| kept(d) > 0,
    );
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
    let args = ["sweep", "--values", "costs.capture=1,2", "--campaigns", "20", "--quiet", "--out"];
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

/// `f` run on a pool whose watch says stop from the start (Ctrl-C before
/// the first campaign).
fn stopped<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let w = empires::sim::watch::Watch::new(|_| (), || true, None);
    w.pool(2).unwrap().install(f)
}

/// The error of a stopped computation, as the library's `Error`.
fn stop_of<T, E: Into<empires::error::Error>>(what: &str, r: Result<T, E>) -> empires::error::Error {
    match r {
        Ok(_) => panic!("{what}: finished under a stop"),
        Err(e) => e.into(),
    }
}

/// Told to stop, every computation a long command runs returns an
/// interruption, whatever errors it converts on the way (it once turned
/// some into bad input by their message: exit 2, not 130, unless the
/// command asked the Ctrl-C flag again), so the command line exits 130 on
/// the error's class alone.
#[test]
fn every_stopped_computation_returns_the_interruption_class() {
    use empires::balance::{metric_named, sensitivity, solve};
    use empires::rules::setup::SetupError;
    use empires::scenario::Scenario;
    use empires::scenario::param;
    use empires::strength::{deviation, ladder, metagame, probe, tune, value};
    use empires::study::{combat_readings, compare, mine_pillage, restrict, sweep};
    let sc = Scenario::embedded_default();
    let two: Vec<String> = ["random", "balanced"].map(String::from).to_vec();
    let r = restrict::Restriction::new(vec![empires::scenario::ActionKind::Mine], vec![]).unwrap();
    let axes = vec![sweep::parse_axis("costs.capture=2,3").unwrap()];
    let params = param::parse_list(&["costs.capture".to_string()], &sc).unwrap();
    let metric = metric_named(&sc, "win rate: seat 0").unwrap();
    let plan = sensitivity::Plan {
        params: params.clone(),
        metric,
        trajectories: 2,
        campaigns: 4,
        master: 1,
        rotate: true,
        sobol_rows: 0,
    };
    let goal = solve::Goal::parse("win rate: seat 0 = 0.25", &sc).unwrap();
    let budget =
        solve::Settings { campaigns: 4, master: 1, rotate: true, max_steps: 3, seating: solve::PointPlayers::AsSeated };
    let problem = tune::Problem::new(
        &sc,
        tune::Settings {
            start: "balanced".into(),
            field: tune::Field::SelfPlay,
            keys: vec!["capture".into()],
            per_eval: 8,
            generations: 1,
            population: 3,
            sigma: 0.3,
            seed: 1,
            vary: Vec::new(),
            variants: 0,
            gift_gold: 0,
            given: None,
            objective: tune::Objective::Wins,
            start_at: None,
        },
    )
    .unwrap();
    let probes = probe::on_topics(&Default::default(), Some(&["mine"]));
    let errors = [
        ("compare", stop_of("compare", stopped(|| compare::compare(("a", &sc), ("b", &sc), 1, 4, true)))),
        (
            "sweep",
            stop_of("sweep", stopped(|| sweep::run::<SetupError>(&axes, 1, 4, Default::default(), |_| Ok(sc.clone())))),
        ),
        ("restrict", stop_of("restrict", stopped(|| restrict::run(&sc, &r, "balanced", &two, 1, 4, None)))),
        ("mine-vs-pillage", stop_of("mine-vs-pillage", stopped(|| mine_pillage::run(&sc, 1, 4, true)))),
        ("loss", stop_of("loss", stopped(|| mine_pillage::measure_loss(&sc, "balanced", 1, 4)))),
        ("readings", stop_of("readings", stopped(|| mine_pillage::run_readings(&sc, "balanced", 1, 4)))),
        ("combat readings", stop_of("combat readings", stopped(|| combat_readings::run(&sc, 1, 4)))),
        ("deviate", stop_of("deviate", stopped(|| deviation::check(&sc, "balanced", 4.0, None, 1, 4)))),
        ("ladder", stop_of("ladder", stopped(|| ladder::ladder(&sc, &two, "random", 1, 4, 100)))),
        ("metagame", stop_of("metagame", stopped(|| metagame::metagame(&sc, &two, 1, 4, 100, 100.0, 50)))),
        (
            "probe",
            stop_of("probe", stopped(|| probe::check(&sc, "balanced", probes.clone(), Default::default(), 1, 4))),
        ),
        ("value", stop_of("value", stopped(|| value::collect(&sc, "balanced", 1, 0..4)))),
        ("tune", stop_of("tune", stopped(|| tune::tune(&problem, None, |_| tune::Flow::Continue)))),
        ("sensitivity", stop_of("sensitivity", stopped(|| sensitivity::play_morris(&sc, &plan, (0, 1), |_| ())))),
        (
            "solve",
            stop_of(
                "solve",
                stopped(|| solve::solve(&sc, &params[..1], std::slice::from_ref(&goal), budget.clone(), |_| ())),
            ),
        ),
    ];
    for (what, e) in errors {
        assert!(e.is_interrupted(), "{what}: {:?} {e}", e.class());
    }
    // A curve keeps each point's error: every point says it was stopped.
    let ps = [params[0].clone(), param::Param::parse("economy.pillage.mult=5..40", &sc).unwrap()];
    let c = stopped(|| solve::curve(&sc, &ps, &goal, budget.clone(), 2, |_, _| ())).unwrap();
    for (x, p) in &c.points {
        assert!(matches!(p, Err(solve::SolveError::Failed(e)) if e.is_interrupted()), "curve point {x}");
    }
    // And the gate's metrics, a restriction's value among them.
    let dir = std::env::temp_dir().join(format!("empires-stopped-gate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = empires::gate::spec::parse(
        "[[metric]]\nname = \"plain\"\ncampaigns = 4\nquantity = \"share of gold from mines\"\nmin = 0.0\n\n\
         [[metric]]\nname = \"restriction\"\ncampaigns = 4\nquantity = \"restriction value\"\nplayers = \"balanced\"\n\
         forbid = [\"mine\"]\nmin = -1.0\n",
        "stopped.toml",
    )
    .unwrap();
    for m in &file.metric {
        let e = stop_of(&m.name, stopped(|| empires::gate::measure_sample(m, &dir, None)));
        assert!(e.is_interrupted(), "gate metric {}: {e}", m.name);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
