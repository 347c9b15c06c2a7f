//! PSRO (`empires psro`, docs/tuning.md): the meta-game over a population,
//! its equilibrium, the oracle's response and its exploitability.

use crate::play_cli::bin;
use crate::strength::{DUEL, duel, pool, tmp};
use empires::scenario::{Source, StrategyKind, load_str};
use empires::sim::lineup::Lineup;
use empires::strength::climb::{Length, Plan, Regime, Start};
use empires::strength::psro::{self, MIXTURE, Settings};
use empires::strength::tune::{Flow, Objective};

fn settings() -> Settings {
    Settings {
        population: vec!["lazy".into(), "balanced".into()],
        rounds: 2,
        meta_campaigns: 20,
        plan: Plan {
            starts: vec![Start::Named("warlord".into())],
            restarts: 0,
            regime: Regime::Ipop,
            length: Length::Generations(2),
        },
        per_eval: 20,
        population_size: 4,
        sigma: 0.3,
        objective: Objective::Rank,
        select_campaigns: 40,
        eval_campaigns: 40,
        seed: 5,
        styles_budget: 0,
    }
}

/// A run is a function of the settings and the seed: the same on 1 and 2
/// threads, and a run stopped after its first round resumes to it.
#[test]
fn psro_is_the_same_for_any_thread_count_and_resumes_exactly() {
    let sc = duel();
    let whole = pool(2).install(|| psro::run(&sc, &settings(), None, |_| Flow::Continue)).unwrap();
    assert!(!whole.rounds.is_empty());
    assert_eq!(whole, pool(1).install(|| psro::run(&sc, &settings(), None, |_| Flow::Continue)).unwrap());
    if whole.rounds.len() == 2 {
        let first = pool(2).install(|| psro::run(&sc, &settings(), None, |_| Flow::Stop)).unwrap();
        assert_eq!(first.rounds.len(), 1);
        let back: psro::Record = serde_json::from_str(&serde_json::to_string(&first).unwrap()).unwrap();
        let resumed = pool(2).install(|| psro::run(&sc, &settings(), Some(back), |_| Flow::Continue)).unwrap();
        assert_eq!(resumed, whole);
    }
    // More rounds go on from the record: the rounds it holds are kept.
    let more = Settings { rounds: 3, ..settings() };
    let longer = pool(2).install(|| psro::run(&sc, &more, Some(whole.clone()), |_| Flow::Continue)).unwrap();
    assert_eq!(longer.rounds[..whole.rounds.len()], whole.rounds[..]);
    assert_eq!(longer.settings.rounds, 3);
    let other = Settings { seed: 6, ..settings() };
    assert!(psro::run(&sc, &other, Some(whole), |_| Flow::Continue).unwrap_err().message().contains("other settings"));
}

/// Each round: σ is a distribution over that round's members with no
/// member gaining more than its regret over it in the meta-game; the
/// response's held-out figure is its lineup against σ in the other seat on
/// that round's held-out seed; a new response joins the next round.
#[test]
fn each_round_solves_its_meta_game_and_measures_its_response_against_the_mixture() {
    let sc = duel();
    let rec = pool(2).install(|| psro::run(&sc, &settings(), None, |_| Flow::Continue)).unwrap();
    for (r, round) in rec.rounds.iter().enumerate() {
        assert!((round.sigma.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(round.sigma.iter().all(|s| *s >= 0.0));
        let avg: f64 = round.values.iter().zip(&round.sigma).map(|(v, s)| v * s).sum();
        let best = round.values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        assert!((best - avg - round.regret).abs() < 1e-9, "the regret is the best member's gain");
        let pop = rec.population(&sc).unwrap();
        let members: Vec<_> = pop.iter().filter(|(n, _)| round.members.contains(n)).cloned().collect();
        assert_eq!(members.len(), round.members.len());
        let with = psro::scenario_with(&sc, &members, &round.sigma);
        let mix = with.strategy(MIXTURE).unwrap();
        assert_eq!(mix.kind, StrategyKind::Mixture);
        let l = Lineup::new(&with, &[round.response.clone(), mix]).unwrap();
        assert_eq!(round.held, l.wins(psro::held_out_master(5, r), 0..40).unwrap());
        if r + 1 < rec.rounds.len() {
            let next = &rec.rounds[r + 1].members;
            assert_eq!(next.len(), round.members.len() + round.new as usize);
        }
    }
    assert_eq!(rec.rounds[0].members, ["lazy", "balanced"]);
    // `lazy` never captures: the equilibrium of the first round puts no
    // more on it than on `balanced`.
    assert!(rec.rounds[0].sigma[0] <= rec.rounds[0].sigma[1]);
}

#[test]
fn bad_psro_settings_are_refused_with_a_reason() {
    let sc = duel();
    for (s, msg) in [
        (Settings { population: vec![], ..settings() }, "at least one member"),
        (Settings { population: vec!["tuned".into(), "tuned".into()], ..settings() }, "listed twice"),
        (Settings { population: vec!["random".into()], ..settings() }, "not a weighted strategy"),
        (Settings { rounds: 0, ..settings() }, "at least one round"),
    ] {
        assert!(psro::check(&sc, &s).unwrap_err().message().contains(msg), "{msg}");
    }
}

/// The command prints each round and writes the population with its
/// mixture as scenario text that loads and plays.
#[test]
fn the_psro_command_writes_an_equilibrium_that_plays() {
    let dir = tmp("psro");
    let out = dir.join("out");
    let o = bin()
        .args(["psro", "--scenario", "scenarios/duel.toml", "--members", "tuned,balanced", "--rounds", "2"])
        .args(["--meta-campaigns", "20", "--starts", "warlord", "--budget", "400", "--campaigns-per-eval", "20"])
        .args(["--cma-population", "4", "--select-campaigns", "20", "--eval-campaigns", "40", "--quiet"])
        .args(["--styles-budget", "200", "--out"])
        .arg(&out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(text.contains("The equilibrium of ") && text.contains("Its exploitability is at least"), "{text}");
    assert!(text.contains("redo: empires psro --scenario scenarios/duel.toml --members tuned,balanced"), "{text}");
    for f in ["psro.txt", "equilibrium.toml", "record.json"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let table = std::fs::read_to_string(out.join("equilibrium.toml")).unwrap();
    // The shipped duel carries an equilibrium of its own: this one goes
    // into the file without it.
    let bare = DUEL.split("# The duel's equilibrium").next().unwrap();
    assert!(bare.len() < DUEL.len());
    let sc = load_str(&format!("{bare}\n{table}"), &Source::file("x.toml")).unwrap();
    let eq = sc.strategy(MIXTURE).unwrap();
    assert_eq!(eq.kind, StrategyKind::Mixture);
    assert!(eq.members.iter().all(|m| sc.strategy(m).is_some()));
    let all = sc.with_players(MIXTURE).unwrap();
    assert!(empires::sim::Campaign::numbered(&all, 1, 0).play().is_ok());
    let bad = bin().args(["psro", "--members", "random", "--quiet"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a weighted strategy"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The straits, the duel and the archipelago ship the equilibrium `empires
/// psro` found: a mixture over known members that every seat can play.
#[test]
fn the_shipped_scenarios_carry_a_playable_equilibrium() {
    for file in ["scenarios/straits.toml", "scenarios/duel.toml", "scenarios/archipelago.toml"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let sc = load_str(&std::fs::read_to_string(&path).unwrap(), &Source::file(file)).unwrap();
        let eq = sc.strategy(MIXTURE).unwrap();
        assert_eq!(eq.kind, StrategyKind::Mixture, "{file}");
        assert_eq!(eq.members.len(), eq.weights.len(), "{file}");
        assert!(eq.members.iter().all(|m| sc.strategy(m).is_some_and(|s| s.kind == StrategyKind::Weighted)), "{file}");
        let all = sc.with_players(MIXTURE).unwrap();
        assert!(empires::sim::Campaign::numbered(&all, 1, 0).play().is_ok(), "{file}");
    }
}

/// `--install FILE` writes the new members and the equilibrium into a
/// scenario file, replacing the tables of those names (the shipped duel
/// has an `equilibrium` already) and removing the earlier fit's responses
/// the new one does not list, and the file plays it.
#[test]
fn psro_install_replaces_the_equilibrium_in_a_scenario_file() {
    let dir = tmp("psro-install");
    let file = dir.join("duel.toml");
    std::fs::write(&file, DUEL).unwrap();
    let o = bin()
        .args(["psro", "--scenario"])
        .arg(&file)
        .args(["--members", "tuned,balanced", "--rounds", "1", "--meta-campaigns", "20", "--starts", "warlord"])
        .args(["--budget", "400", "--campaigns-per-eval", "20", "--cma-population", "4", "--select-campaigns", "20"])
        .args(["--eval-campaigns", "20", "--styles-budget", "200", "--quiet", "--install"])
        .arg(&file)
        .arg("--out")
        .arg(dir.join("out"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(said.contains("replaced [strategies.equilibrium]"), "{said}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.matches("[strategies.equilibrium]").count(), 1, "{text}");
    // The shipped fit's later responses are nobody's members now: they go.
    for k in 2..=6 {
        assert!(said.contains(&format!("removed [strategies.psro_{k}]")), "{said}");
        assert!(!text.contains(&format!("[strategies.psro_{k}]")), "{text}");
    }
    let sc = load_str(&text, &Source::file("duel.toml")).unwrap();
    let eq = sc.strategy(MIXTURE).unwrap();
    assert_eq!(eq.members[..2], ["tuned", "balanced"]);
    assert!(empires::sim::Campaign::numbered(&sc.with_players(MIXTURE).unwrap(), 2, 0).play().is_ok());
    let o = bin().args(["psro", "--install"]).arg(dir.join("missing.toml")).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two shards of one request, run at once into one folder (a Slurm job
/// array on a shared file system), each play their share of the pieces
/// and read the other's: both end with the record an unsharded run
/// writes, and the pieces stay in OUT/cells/ for each other.
#[test]
fn two_shards_of_psro_in_one_folder_write_the_unsharded_record() {
    let dir = tmp("psro-shards");
    let run = |out: &std::path::Path, shard: Option<&str>| {
        let mut c = bin();
        c.args(["psro", "--scenario", "scenarios/duel.toml", "--members", "tuned,balanced", "--rounds", "2"])
            .args(["--meta-campaigns", "40", "--starts", "warlord", "--budget", "800", "--campaigns-per-eval"])
            .args(["20", "--cma-population", "4", "--select-campaigns", "40", "--eval-campaigns", "40"])
            .args(["--styles-budget", "200", "--quiet", "--threads", "1", "--out"])
            .arg(out)
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if let Some(s) = shard {
            c.args(["--shard", s]);
        }
        c
    };
    let whole = run(&dir.join("whole"), None).output().unwrap();
    assert!(whole.status.success(), "{}", String::from_utf8_lossy(&whole.stderr));
    let shared = dir.join("shared");
    let mut a = run(&shared, Some("0/2")).stdout(std::process::Stdio::piped()).spawn().unwrap();
    let b = run(&shared, Some("1/2")).output().unwrap();
    let a_out = {
        use std::io::Read;
        let mut s = String::new();
        a.stdout.take().unwrap().read_to_string(&mut s).unwrap();
        s
    };
    assert!(a.wait().unwrap().success(), "{a_out}");
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    assert!(a_out.contains("shard 0 of 2: plays its share"), "{a_out}");
    let record = |d: &std::path::Path| std::fs::read_to_string(d.join("record.json")).unwrap();
    assert_eq!(record(&shared), record(&dir.join("whole")));
    assert!(std::fs::read_dir(shared.join("cells")).unwrap().count() > 0, "the shards' pieces stay");
    // The unsharded run cleared its own pieces at its end.
    assert!(!dir.join("whole").join("cells").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The oracle's style map (`styles_budget`): it plays against σ from the
/// members and the named starts, its campaigns are counted in the round,
/// and a run with it is the same on 1 and 2 threads.
#[test]
fn the_oracles_style_map_plays_against_the_mixture_and_is_counted() {
    let sc = duel();
    let plain = settings();
    let styled = Settings { styles_budget: 400, rounds: 1, ..settings() };
    let a = pool(2).install(|| psro::run(&sc, &Settings { rounds: 1, ..plain.clone() }, None, |_| Flow::Continue));
    let b = pool(2).install(|| psro::run(&sc, &styled, None, |_| Flow::Continue)).unwrap();
    assert_eq!(b, pool(1).install(|| psro::run(&sc, &styled, None, |_| Flow::Continue)).unwrap());
    let (a, b) = (&a.unwrap().rounds[0], &b.rounds[0]);
    // The same meta-game and restarts; the map's search and its three
    // best elites' selection on top.
    let seats = 2;
    let per_eval = plain.per_eval.div_ceil(seats) * seats;
    let starts = vec!["lazy".into(), "balanced".into(), "warlord".into()];
    let map = empires::strength::styles::campaigns(&psro::map_settings(&styled, starts, Vec::new(), per_eval, 0));
    let select = b.campaigns_played - a.campaigns_played - map;
    let entrants = select / plain.select_campaigns;
    assert_eq!(select % plain.select_campaigns, 0, "{select}");
    assert!((1..=psro::STYLE_ENTRANTS as u64).contains(&entrants), "{entrants} of the map's elites selected");
    assert_eq!(a.sigma, b.sigma);
    assert!(psro::planned(&sc, &styled) > psro::planned(&sc, &Settings { rounds: 1, ..plain }));
}

/// The names responses take, and only those, read as responses: `--install`
/// removes an earlier fit's responses by this test.
#[test]
fn psro_response_names_are_recognised() {
    assert!(psro::is_response_name(&psro::response_name(0)));
    assert!(psro::is_response_name("psro_12"));
    for not in ["psro_0", "psro_", "psro_x", "tuned", "psro_1a", "xpsro_1"] {
        assert!(!psro::is_response_name(not), "{not}");
    }
}
