//! Player strength (docs/tuning.md): lineups, `tune` and `deviate`.

use crate::play_cli::bin;
use empires::scenario::{Scenario, Source, StrategySpec, load_str};
use empires::sim::lineup::Lineup;
use empires::strength::tune::{Field, Flow, Objective, Problem, Record, Settings, evaluate, held_out_master, tune};
use empires::strength::{deviation, ladder, metagame};
use std::path::PathBuf;

pub(crate) const DUEL: &str = include_str!("../../scenarios/duel.toml");

/// The duel, with `lazy`: a balanced player who never captures a hex.
pub(crate) fn duel() -> Scenario {
    let text = format!("{DUEL}\n[strategies.lazy]\ncapture = 0.0\nmine_site = 0.0\n");
    load_str(&text, &Source::file("duel+lazy.toml")).unwrap()
}

pub(crate) fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}

/// A fresh folder for one test of the strength commands (tune, styles,
/// psro, ...).
pub(crate) fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-strength-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_lineup_counts_one_winner_per_campaign_whatever_the_threads() {
    let sc = Scenario::embedded_default();
    let specs: Vec<StrategySpec> =
        ["balanced", "miner", "pillager", "warlord"].map(|n| sc.strategy(n).unwrap()).to_vec();
    let l = Lineup::new(&sc, &specs).unwrap();
    let one = pool(1).install(|| l.wins(3, 0..40).unwrap());
    let two = pool(2).install(|| l.wins(3, 0..40).unwrap());
    assert_eq!(one, two);
    assert_eq!(one.by_slot.iter().sum::<u64>(), 40);
    // Slot k of campaign i sits where the runner's rotation puts strategy k.
    let names: Vec<&str> = empires::sim::runner::seat_strategies(&sc, 5, true);
    let w = l.winners(3, 5..6).unwrap()[0];
    let cs = empires::seed::campaign_seed(3, 5);
    let map = empires::rules::setup::make_map(&sc, cs).unwrap();
    let out = empires::sim::Campaign::new(&sc, cs).on(&map).seats(&names).play().outcome;
    assert_eq!(["balanced", "miner", "pillager", "warlord"][w], names[out.winner() as usize]);
    assert!(Lineup::new(&sc, &specs[..2]).is_err());
}

fn settings(field: Field, keys: &[&str], generations: u32) -> Settings {
    Settings {
        start: "lazy".into(),
        field,
        keys: keys.iter().map(|k| k.to_string()).collect(),
        per_eval: 40,
        generations,
        population: 6,
        sigma: 0.3,
        seed: 11,
        vary: Vec::new(),
        variants: 0,
        gift_gold: 0,
        given: None,
        objective: Objective::Wins,
        start_at: None,
    }
}

/// A problem whose answer is known: a player who never captures loses, so
/// tuning `capture` alone must raise it and win more, on seeds it never saw.
#[test]
fn tune_learns_that_a_player_who_never_captures_should() {
    let sc = duel();
    let p = Problem::new(&sc, settings(Field::Fixed(vec!["balanced".into()]), &["capture"], 8)).unwrap();
    let rec = pool(2).install(|| tune(&p, None, |_| Flow::Continue)).unwrap();
    assert_eq!(rec.generations.len(), 8);
    let (values, tuned) = p.result(&rec);
    assert!(values[0] >= 1.0, "tuned capture stayed at {}", values[0]);
    assert_eq!(tuned.capture, values[0]);
    let rows = pool(2).install(|| evaluate(&p, &tuned, held_out_master(11), 400)).unwrap();
    assert_eq!(rows[0].against, "1 × balanced");
    let (t, s) = (&rows[0].tuned, &rows[0].start);
    assert!(t.rate(0) > s.rate(0) + 0.15, "tuned {} against the start's {}", t.rate(0), s.rate(0));
    // The strength trace moved the same way.
    let last = rec.generations.last().unwrap();
    assert!(last.reference_wins > rec.start_reference_wins);
}

#[test]
fn tune_is_the_same_for_any_thread_count_and_resumes_exactly() {
    let sc = duel();
    let p = Problem::new(&sc, settings(Field::SelfPlay, &["capture", "attack", "garrison"], 4)).unwrap();
    let whole = pool(2).install(|| tune(&p, None, |_| Flow::Continue)).unwrap();
    let single = pool(1).install(|| tune(&p, None, |_| Flow::Continue)).unwrap();
    assert_eq!(whole, single);
    // Stop after two generations, then go on from the record.
    let half =
        pool(2).install(|| tune(&p, None, |r| if r.generations.len() == 2 { Flow::Stop } else { Flow::Continue }));
    let half = half.unwrap();
    assert_eq!(half.generations.len(), 2);
    let json = serde_json::to_string(&half).unwrap();
    let back: Record = serde_json::from_str(&json).unwrap();
    let mut new_gens = 0;
    let resumed = pool(2)
        .install(|| {
            tune(&p, Some(back), |_| {
                new_gens += 1;
                Flow::Continue
            })
        })
        .unwrap();
    assert_eq!(new_gens, 2, "the first two generations are replayed, not played");
    assert_eq!(resumed, whole);
    // Each generation's candidates are ranked best first.
    for g in &whole.generations {
        assert!(g.candidates.windows(2).all(|w| w[0].wins >= w[1].wins));
        assert_eq!(g.candidates.len(), 6);
    }
}

#[test]
fn a_record_of_other_settings_is_not_resumed() {
    let sc = duel();
    let p = Problem::new(&sc, settings(Field::SelfPlay, &["capture"], 2)).unwrap();
    let rec = tune(&p, None, |_| Flow::Stop).unwrap();
    let mut other = settings(Field::SelfPlay, &["capture"], 2);
    other.seed = 12;
    let q = Problem::new(&sc, other).unwrap();
    assert!(tune(&q, Some(rec.clone()), |_| Flow::Continue).unwrap_err().message().contains("other settings"));
    // A tampered record (a candidate the search does not sample) is caught.
    let mut bad = rec;
    bad.generations[0].candidates[0].u[0] += 1e-9;
    assert!(tune(&p, Some(bad), |_| Flow::Continue).unwrap_err().message().contains("does not match"));
}

#[test]
fn bad_tuning_settings_are_refused_with_a_reason() {
    let sc = duel();
    let mut s = settings(Field::SelfPlay, &["capture"], 2);
    s.per_eval = 41;
    assert!(Problem::new(&sc, s).err().unwrap().message().contains("multiple of the 2 seats"));
    let s = settings(Field::Fixed(vec!["balanced".into(), "miner".into()]), &["capture"], 2);
    assert!(Problem::new(&sc, s).err().unwrap().message().contains("from 1 to 1 opponents"));
    let mut s = settings(Field::SelfPlay, &["capture"], 2);
    s.start = "random".into();
    assert!(Problem::new(&sc, s).err().unwrap().message().contains("not a weighted strategy"));
    let s = settings(Field::SelfPlay, &["captures"], 2);
    assert!(Problem::new(&sc, s).err().unwrap().message().contains("not a numeric strategy key"));
}

/// A known answer for the deviation check: `lazy` is one key away from a
/// much better player, and the check says so.
#[test]
fn deviate_finds_the_key_that_beats_a_weak_strategy() {
    let sc = duel();
    let dv = pool(2)
        .install(|| deviation::check(&sc, "lazy", 4.0, Some(&["capture".into(), "mine".into()]), 5, 200))
        .unwrap();
    let top = &dv.deviants[0];
    assert_eq!(top.key.as_str(), "capture");
    assert!(top.beats(), "{top:?}");
    assert_eq!(dv.baseline.campaigns, 200);
    // capture 0 → 2.5 (0 deviates to hi / factor); mine 2.8 → 10 and 0.7;
    // each set just above the strongest other purchase (conquer 5 → 5.5).
    let mut made: Vec<(&str, &str, &str)> =
        dv.deviants.iter().map(|d| (d.key.as_str(), d.to.as_str(), d.note.as_str())).collect();
    made.sort();
    assert_eq!(
        made,
        [
            ("capture", "2.5", ""),
            ("capture", "5.5", "top purchase"),
            ("mine", "0.7", ""),
            ("mine", "10", ""),
            ("mine", "5.5", "top purchase")
        ]
    );
    assert!(dv.deviants.iter().filter(|d| d.key == "capture").all(|d| d.beats() && d.changed > 0));
    assert!(dv.detectable > 0.0 && dv.detectable < 0.2, "{}", dv.detectable);
}

/// A deviant that changes no game is no evidence: `bridge` 0.3 ÷ 4 = 0.075
/// still beats `Done` (0) and is still below every other purchase (the
/// lowest, `tower`, is 0.5), so every spending decision, and every game,
/// is the same as the strategy's own. Its row says so and is left out of
/// the test.
#[test]
fn deviate_counts_the_games_a_deviant_changed() {
    let sc = duel();
    let dv = pool(2).install(|| deviation::check(&sc, "balanced", 4.0, Some(&["bridge".into()]), 5, 60)).unwrap();
    let idle = dv.deviants.iter().find(|d| d.to == "0.075").unwrap();
    assert_eq!(idle.changed, 0);
    assert!(!idle.tested() && !idle.beats());
    assert_eq!(idle.p_holm, 1.0);
    assert_eq!(idle.wins, dv.baseline.wins, "the same games, the same wins");
    assert_eq!(dv.tested(), dv.deviants.iter().filter(|d| d.changed > 0).count());
    let text = empires::report::strength::deviation_text(&dv, 10);
    assert!(text.contains("changed no game"), "{text}");
    assert!(text.contains("power: a deviant winning"), "{text}");
}

#[test]
fn the_tune_command_writes_a_loadable_strategy_and_its_history() {
    let dir = tmp("tune");
    let scen = dir.join("duel.toml");
    std::fs::write(&scen, format!("{DUEL}\n[strategies.lazy]\ncapture = 0.0\n")).unwrap();
    let out = dir.join("out");
    let args = [
        "tune",
        "--scenario",
        scen.to_str().unwrap(),
        "--strategy",
        "lazy",
        "--against",
        "balanced",
        "--keys",
        "capture,conquer",
        "--generations",
        "3",
        "--population",
        "5",
        "--campaigns-per-eval",
        "20",
        "--eval-campaigns",
        "40",
        "--name",
        "keen",
        "--set",
        "campaign.seasons=8",
        "--gift-gold",
        "300",
        "--select-campaigns",
        "40",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    let run = bin().args(args).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = String::from_utf8_lossy(&run.stdout).to_string();
    assert!(text.contains("held-out evaluation: 40 campaigns per row"), "{text}");
    // The held-out table names the player by --name, and the selection
    // played the start first.
    let head = text.lines().find(|l| l.trim_start().starts_with("against ")).expect("the held-out table");
    let words: Vec<&str> = head.split_whitespace().collect();
    assert_eq!(words, ["against", "keen", "lazy", "(the", "start)"], "{text}");
    assert!(text.contains("selection: the start and each restart's best and last means"), "{text}");
    for f in ["strategy.toml", "history.parquet", "record.json", "evaluation.txt", "index.html", "convergence.svg"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    // The table loads in any scenario that knows its start.
    let table = std::fs::read_to_string(out.join("strategy.toml")).unwrap();
    assert!(table.contains("[strategies.keen]\nextends = \"lazy\"\ncapture = "), "{table}");
    assert!(table.contains("# Made by: empires tune --scenario"), "{table}");
    assert!(
        table.contains(" --set campaign.seasons=8 --strategy lazy --against balanced --keys capture,conquer"),
        "{table}"
    );
    // The gift reached the tuning's settings, which the command is written from.
    assert!(table.contains(" --gift-gold 300"), "{table}");
    let sc = load_str(&format!("{DUEL}\n[strategies.lazy]\ncapture = 0.0\n{table}"), &Source::file("x.toml")).unwrap();
    let keen = sc.strategy("keen").unwrap();
    let written: f64 = table.lines().find(|l| l.starts_with("capture = ")).unwrap()[10..].parse().unwrap();
    assert_eq!(keen.capture, written);
    // The history: the start, then 5 candidates and a mean per generation.
    use polars::prelude::SerReader;
    let df = polars::prelude::ParquetReader::new(std::fs::File::open(out.join("history.parquet")).unwrap())
        .finish()
        .unwrap();
    assert_eq!(df.height(), 1 + 3 * 6);
    let cols: Vec<String> = df.get_column_names().iter().map(|c| c.to_string()).collect();
    assert_eq!(
        cols,
        [
            "restart",
            "generation",
            "role",
            "candidate",
            "campaigns",
            "wins",
            "objective",
            "fitness",
            "sigma",
            "capture",
            "conquer"
        ]
    );
    // The default objective is the dense one, and the command says so.
    assert!(table.contains(" --objective rank"), "{table}");
    // A resume of a finished run plays nothing new and gives the same table.
    let again = bin().args(args).arg("--resume").output().unwrap();
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert_eq!(std::fs::read_to_string(out.join("strategy.toml")).unwrap(), table);
    // The same command with another seed may not resume that record.
    let mut other: Vec<&str> = args.to_vec();
    other.extend(["--seed", "2", "--resume"]);
    let bad = bin().args(&other).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("holds another result (made by: empires tune"));
}

#[test]
fn the_tune_and_deviate_commands_refuse_bad_flags() {
    for (args, msg) in [
        (vec!["tune", "--keys", "mines", "--quiet"], "not a numeric strategy key"),
        (vec!["tune", "--campaigns-per-eval", "3", "--quiet"], "multiple of the 4 seats"),
        (vec!["tune", "--against", "nobody", "--quiet"], "unknown strategy"),
        (vec!["tune", "--name", "a b", "--quiet"], "--name"),
        (vec!["tune", "--objective", "gold", "--quiet"], "not an objective"),
        (vec!["tune", "--regime", "pop", "--quiet"], "not a restart regime"),
        (vec!["tune", "--starts", "warlord,nobody", "--restarts", "2", "--quiet"], "unknown strategy"),
        (vec!["tune", "--restarts", "0", "--quiet"], "--restarts"),
        (vec!["deviate", "--strategy", "nobody"], "unknown strategy"),
        (vec!["deviate", "--factor", "1"], "above 1"),
        (vec!["deviate", "--keys", "kind"], "can deviate"),
    ] {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

/// The shipped `tuned` archetype is what its comment says: stronger than
/// the `balanced` it started from, on campaigns of a seed tuning never used.
#[test]
fn g30_the_tuned_archetype_beats_three_balanced_players() {
    let sc = Scenario::embedded_default();
    let t = sc.strategy("tuned").unwrap();
    let b = sc.strategy("balanced").unwrap();
    let l = Lineup::new(&sc, &[t, b.clone(), b.clone(), b]).unwrap();
    let w = l.wins(77, 0..400).unwrap();
    // 81.3% [80.1%, 82.5%] over 4,000 held-out campaigns (docs/strength.md, master seed 7); 400 here.
    assert!(w.rate(0) > 0.6, "tuned won {} of 400", w.by_slot[0]);
}

#[test]
fn ladder_orders_random_balanced_tuned_with_intervals_whatever_the_threads() {
    let sc = load_str(DUEL, &Source::file("duel.toml")).unwrap();
    let names: Vec<String> = ["random", "balanced", "tuned"].map(String::from).to_vec();
    let run = |t| pool(t).install(|| ladder::ladder(&sc, &names, "random", 3, 60, 200).unwrap());
    let l = run(2);
    assert_eq!(l, run(1));
    let order: Vec<&str> = l.ranked.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(order, ["tuned", "balanced", "random"]);
    let random = l.ranked.iter().find(|r| r.name == "random").unwrap();
    assert_eq!(random.rating, 0.0);
    for r in &l.ranked {
        assert!(r.low <= r.rating && r.rating <= r.high, "{r:?}");
        assert_eq!(r.campaigns, 120, "two pairs of 60 each");
    }
    assert_eq!(l.pairs.len(), 3);
    // Every pair's difference, best first, from the shared bootstrap.
    assert_eq!(l.differences.len(), 3);
    let d = l.differences.iter().find(|d| d.a == "tuned" && d.b == "random").unwrap();
    assert!(d.low <= d.diff && d.diff <= d.high && d.stronger(), "{d:?}");
    assert!(l.fit.df == 1 && l.fit.p.is_finite(), "{:?}", l.fit);
    assert!(ladder::ladder(&sc, &names, "nobody", 3, 10, 100).unwrap_err().message().contains("anchor"));
    let twice: Vec<String> = ["random", "random"].map(String::from).to_vec();
    assert!(ladder::ladder(&sc, &twice, "random", 3, 10, 100).unwrap_err().message().contains("twice"));
}

#[test]
fn the_ladder_command_writes_its_tables_and_page() {
    let dir = tmp("ladder");
    let out = bin()
        .args(["ladder", "--strategies", "random,balanced", "--duels", "--campaigns", "20", "--bootstrap", "100"])
        .args(["--out", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("every pair 20 campaigns on master seed 1, 2 seats"), "{text}");
    // The fit of the model is printed with the ratings, and every pair's
    // difference with its interval.
    assert!(text.contains("Pearson X² ="), "{text}");
    assert!(text.contains("every pair's rating difference"), "{text}");
    for f in ["ladder.parquet", "differences.parquet", "pairs.parquet", "ladder.txt", "index.html", "ladder.svg"] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    use polars::prelude::SerReader;
    let df =
        polars::prelude::ParquetReader::new(std::fs::File::open(dir.join("ladder.parquet")).unwrap()).finish().unwrap();
    assert_eq!(df.height(), 2);
    let bad = bin().args(["ladder", "--strategies", "random,nobody"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown strategy \"nobody\""));
}

/// A set whose answer is known: next to `balanced`, `random` gets no
/// equilibrium mass, almost no α-rank mass, and is never a best response.
/// The same on 1 and 2 threads.
#[test]
fn metagame_gives_random_no_mass_next_to_balanced_whatever_the_threads() {
    let sc = load_str(DUEL, &Source::file("duel.toml")).unwrap();
    let names: Vec<String> = ["random", "balanced"].map(String::from).to_vec();
    let run = |t| pool(t).install(|| metagame::metagame(&sc, &names, 3, 60, 100, 100.0, 50).unwrap());
    let mg = run(2);
    let one = run(1);
    assert_eq!(mg.game.compositions(), one.game.compositions());
    assert_eq!((mg.equilibrium.clone(), mg.alpha_rank.clone()), (one.equilibrium.clone(), one.alpha_rank.clone()));
    assert_eq!(mg.game.compositions().len(), 3, "random×2, random+balanced, balanced×2");
    assert!(mg.equilibrium[0] < 1e-6 && mg.equilibrium[1] > 1.0 - 1e-6, "{:?}", mg.equilibrium);
    assert!(mg.alpha_rank[0] < 0.01, "{:?}", mg.alpha_rank);
    assert_eq!(mg.never_best, vec![true, false]);
    assert!(mg.regret < 1e-6);
    assert!(
        mg.findings()[0].starts_with("every player playing balanced is a symmetric Nash equilibrium"),
        "{:?}",
        mg.findings()
    );
    // The equilibria are counted, not assumed unique.
    assert_eq!(mg.equilibria.len(), 1, "{:?}", mg.equilibria);
    assert!(mg.findings()[1].starts_with("1 distinct symmetric equilibrium found"), "{:?}", mg.findings());
    // A mass of 100% on the edge: the bootstrap is given as a count of
    // resamples, never as the degenerate "[100.0%, 100.0%]".
    let b = &mg.equilibrium_boot[1];
    assert!(b.degenerate() && b.at_estimate >= 95 && b.of == 100, "{b:?}");
    let text = empires::report::metagame::text(&mg);
    assert!(!text.contains("[100.0%, 100.0%]") && !text.contains("[0.0%, 0.0%]"), "{text}");
    assert!(text.contains(&format!("100.0% in {} of 100 resamples", b.at_estimate)), "{text}");
    assert!(text.contains("never a best response"), "{text}");
}

#[test]
fn the_metagame_command_writes_its_files() {
    let dir = tmp("metagame");
    let out = bin()
        .args(["metagame", "--strategies", "random,balanced,tuned", "--campaigns", "8", "--bootstrap", "100"])
        .args(["--out", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for f in ["payoffs.parquet", "metagame.json", "metagame.txt", "index.html", "equilibrium.svg", "head-to-head.svg"] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("metagame.json")).unwrap()).unwrap();
    for key in [
        "strategies",
        "equilibrium",
        "alpha_rank",
        "never_best_response",
        "equilibria_found",
        "equilibrium_search_starts",
        "bootstrap_resamples",
    ] {
        assert!(json.get(key).is_some(), "metagame.json lacks {key}");
    }
    let total: f64 = json["equilibrium"].as_object().unwrap().values().map(|v| v.as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9);
    use polars::prelude::SerReader;
    let df = polars::prelude::ParquetReader::new(std::fs::File::open(dir.join("payoffs.parquet")).unwrap())
        .finish()
        .unwrap();
    // 15 compositions of 3 strategies over 4 seats, one row per strategy
    // present: 3 of one strategy, 6 of 3+1 and 3 of 2+2 (two rows each), 3 of 2+1+1.
    assert_eq!(df.height(), 3 + (6 + 3) * 2 + 3 * 3);
    let bad = bin().args(["metagame", "--strategies", "random"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// A meta-game split into shards and joined with `empires merge` is the
/// meta-game played in one piece.
#[test]
fn metagame_shards_merged_equal_the_unsharded_game() {
    let dir = tmp("metagame-shards");
    let base = ["metagame", "--strategies", "random,balanced,tuned", "--campaigns", "6", "--bootstrap", "100"];
    let run = |extra: &[&str], out: &str| {
        let o = bin().args(base).args(extra).args(["--out", dir.join(out).to_str().unwrap()]).output().unwrap();
        assert!(o.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    run(&[], "whole");
    let t = run(&["--shard", "0/2"], "s0");
    assert!(t.contains("metagame shard 0/2: compositions 0..7 of 15"), "{t}");
    run(&["--shard", "1/2"], "s1");
    let o = bin()
        .args(["merge", dir.join("s1").to_str().unwrap(), dir.join("s0").to_str().unwrap()])
        .args(["--out", dir.join("merged").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read = |d: &str| std::fs::read_to_string(dir.join(d).join("metagame.json")).unwrap();
    assert_eq!(read("whole"), read("merged"));
    let names: Vec<String> = ["random", "balanced", "tuned"].map(String::from).to_vec();
    let payoffs =
        |d: &str| empires::report::metagame::read_payoffs(&dir.join(d).join("payoffs.parquet"), &names).unwrap();
    assert_eq!(payoffs("whole"), payoffs("merged"));
    // One shard alone is not the game.
    let o = bin()
        .args(["merge", dir.join("s0").to_str().unwrap(), "--out", dir.join("half").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("a shard is missing"));
}

/// Best-response figures carry the search's own variance (issue 21, point
/// 7): the pair of searches is repeated with `SEARCHES` seeds, each
/// search's figure is kept, and the interval adds the between-search
/// variance to the evaluation variance; the text says so.
#[test]
fn best_response_figures_carry_the_search_variance() {
    use empires::strength::best_response::Budget;
    use empires::study::restrict::{Restriction, SEARCHES, run, total_variance};
    let sc = load_str(DUEL, &Source::file("duel.toml")).unwrap();
    let r = Restriction::new(vec![empires::scenario::ActionKind::Mine], vec![]).unwrap();
    let budget = Budget {
        generations: 2,
        per_eval: 20,
        population: Some(4),
        sigma: 0.1,
        probe_campaigns: 0,
        family: Default::default(),
    };
    let s = run(&sc, &r, "tuned", &[], 5, 40, Some(&budget)).unwrap();
    let b = s.best.as_ref().unwrap();
    assert_eq!(SEARCHES, 3);
    assert_eq!(b.searches.len(), 3);
    assert!(b.search_sd.is_finite() && b.eval_se.is_finite(), "{b:?}");
    let mean = b.searches.iter().sum::<f64>() / 3.0;
    assert!((b.value.mean - mean).abs() < 1e-12);
    let half = (b.value.high - b.value.low) / 2.0;
    let total = (b.eval_se.powi(2) + b.search_sd.powi(2) / 3.0).sqrt();
    assert!((half - 1.959964 * total).abs() < 1e-4, "{half} against {total}");
    let text = empires::report::study::restrict::restrict_text(&s);
    assert!(text.contains("repeated with 3 search seeds"), "{text}");
    assert!(text.contains("total variance = evaluation variance"), "{text}");
    assert!(text.contains("between-search variance (τ ="), "{text}");

    // Searches that disagree by far more than their campaigns' noise widen
    // the interval; searches that agree exactly add nothing.
    let same: Vec<Vec<f64>> = (0..3).map(|_| (0..100).map(|c| (c % 2) as f64).collect()).collect();
    let t = total_variance(&same);
    assert_eq!(t.search_sd, 0.0);
    assert!((t.value.high - t.value.low - 2.0 * 1.959964 * t.eval_se).abs() < 1e-4);
    let apart: Vec<Vec<f64>> =
        (0..3).map(|i| (0..100).map(|c| if c < 30 * (i + 1) { 1.0 } else { 0.0 }).collect()).collect();
    let t = total_variance(&apart);
    assert!(t.search_sd > 0.2, "{}", t.search_sd);
    assert!(t.value.high - t.value.low > 2.0 * 1.959964 * t.eval_se * 2.0);
}

/// `tune --install FILE` writes the tuned strategy into a scenario file,
/// keeping the rest of the file, so the file plays it at once; a second
/// install replaces the table rather than adding another.
#[test]
fn tune_install_writes_the_tuned_strategy_into_a_scenario_file() {
    let dir = std::env::temp_dir().join(format!("empires-install-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mine.toml");
    let original = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/duel.toml")).unwrap();
    std::fs::write(&file, &original).unwrap();
    let tune = |out: &str| {
        bin()
            .args(["tune", "--scenario"])
            .arg(&file)
            .args(["--keys", "capture,mine", "--generations", "1", "--population", "3", "--campaigns-per-eval", "4"])
            .args(["--eval-campaigns", "4", "--name", "mine_tuned", "--quiet", "--install"])
            .arg(&file)
            .arg("--out")
            .arg(dir.join(out))
            .output()
            .unwrap()
    };
    let o = tune("a");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("added [strategies.mine_tuned]"));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with(&original[..original.find('\n').unwrap()]), "the file's own text is kept");
    assert!(text.contains("[strategies.mine_tuned]") && text.contains("extends = \"balanced\""), "{text}");
    assert!(text.contains("# Made by: empires tune"), "the table says where it came from: {text}");
    let o = bin()
        .args(["run", "--campaigns", "4", "--quiet", "--players", "mine_tuned", "--scenario"])
        .arg(&file)
        .arg("--out")
        .arg(dir.join("run"))
        .output()
        .unwrap();
    assert!(o.status.success(), "the file plays the tuned strategy: {}", String::from_utf8_lossy(&o.stderr));
    let o = tune("b");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("replaced [strategies.mine_tuned]"));
    assert_eq!(std::fs::read_to_string(&file).unwrap().matches("[strategies.mine_tuned]").count(), 1);
    // A file that cannot be read fails before any tuning.
    let o = bin().args(["tune", "--install"]).arg(dir.join("missing.toml")).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Tuning over varied rules: the variants are drawn from the seed (the
/// same draw every time, another seed another draw), each value inside
/// its range and each variant a valid scenario; an evaluation shares its
/// campaigns equally among them, and the held-out evaluation plays
/// variants of its own, drawn from its master seed.
#[test]
fn tuning_over_varied_rules_draws_its_variants_from_the_seed() {
    use empires::strength::tune::draw_variants;
    let sc = duel();
    let mut s = settings(Field::Fixed(vec!["balanced".into()]), &["capture"], 1);
    s.vary = vec!["start.gold=100..800".into(), "recruit.per_hex=1..3".into()];
    s.variants = 4;
    s.per_eval = 2 * 4 * 5;
    let p = Problem::new(&sc, s.clone()).unwrap();
    assert_eq!(p.variants.len(), 4);
    let golds: Vec<i32> = p.variants.iter().map(|v| v.start.gold).collect();
    assert!(golds.iter().all(|g| (100..=800).contains(g)), "{golds:?}");
    assert!(p.variants.iter().all(|v| (1..=3).contains(&v.recruit.per_hex)));
    assert!(golds.windows(2).any(|w| w[0] != w[1]), "four draws of 100..800 differ: {golds:?}");
    let again = Problem::new(&sc, s.clone()).unwrap();
    assert_eq!(again.variants, p.variants, "the same seed draws the same variants");
    let other = draw_variants(&sc, &p.params, 4, 12).unwrap();
    assert_ne!(other, p.variants, "another seed, another draw");
    // Each variant plays campaigns / 4 of its own seed; the total is the sum.
    let spec = sc.strategy("balanced").unwrap();
    let all = p.wins_against(&spec, std::slice::from_ref(&spec), 5, 40).unwrap();
    assert_eq!(all.campaigns, 40);
    let mut by_hand = 0;
    for (v, variant) in p.variants.iter().enumerate() {
        let l = Lineup::new(variant, &[spec.clone(), spec.clone()]).unwrap();
        by_hand += l.wins(empires::strength::tune::variant_seed(5, v as u32), 0..10).unwrap().by_slot[0];
    }
    assert_eq!(all.by_slot[0], by_hand);
    // per_eval must split evenly over seats × variants.
    s.per_eval = 2 * 4 * 5 + 2;
    let e = Problem::new(&sc, s).err().unwrap().to_string();
    assert!(e.contains("times the 4 variants"), "{e}");
}

/// A best response's keys that no game exercises keep the start's value:
/// on the shipped island `tuned` never has the gold to recruit a lone
/// army, so a drifted `unit_alone` changes none of its games and is set
/// back (it is what keeps it from wasting a gold gift), while a moved
/// `capture` weight changes games and stays where the search put it.
#[test]
fn a_best_response_keeps_the_start_value_of_keys_no_game_exercises() {
    use empires::strength::best_response::keep_unexercised;
    let sc = Scenario::embedded_default();
    let start = sc.strategy("tuned").unwrap();
    let mut moved = start.clone();
    moved.unit_alone = 0.575;
    moved.capture = start.capture + 2.5;
    for field in [Field::SelfPlay, Field::Fixed(vec!["tuned".into()])] {
        let kept = keep_unexercised(&sc, &start, moved.clone(), &field, None, 11, 200).unwrap();
        assert_eq!(kept.keys, vec!["unit_alone"], "{field:?}");
        assert_eq!(kept.spec.unit_alone, start.unit_alone, "{field:?}");
        assert_eq!(kept.spec.capture, start.capture + 2.5, "{field:?}");
        // The reference games, then one trial for each of the two moved keys.
        assert_eq!(kept.played, 3 * 200, "{field:?}");
    }
}

/// With `gift_gold`, the last quarter of every evaluation's campaigns (in
/// whole rounds of the seats) hand the tuned player that gold, as the
/// competence check's gift does: the search meets the gold-rich games the
/// check plays. Without it, nothing is handed.
#[test]
fn a_tuning_with_a_gold_gift_plays_a_quarter_of_its_campaigns_gifted() {
    use empires::rules::setup::Gift;
    let sc = duel();
    let me = sc.strategy("balanced").unwrap();
    let lazy = sc.strategy("lazy").unwrap();
    let plain = Problem::new(&sc, settings(Field::Fixed(vec!["lazy".into()]), &["capture"], 1)).unwrap();
    let gifted =
        Problem::new(&sc, Settings { gift_gold: 500, ..settings(Field::Fixed(vec!["lazy".into()]), &["capture"], 1) })
            .unwrap();
    let lineup = Lineup::new(&sc, &[me.clone(), lazy.clone()]).unwrap();
    let rich = Lineup::new(&sc, &[me.clone(), lazy.clone()]).unwrap().with_gift(0, Gift::Gold(500));
    let add = |a: empires::sim::lineup::Wins, b: empires::sim::lineup::Wins| empires::sim::lineup::Wins {
        campaigns: a.campaigns + b.campaigns,
        by_slot: a.by_slot.iter().zip(&b.by_slot).map(|(x, y)| x + y).collect(),
    };
    // 40 campaigns on 2 seats: 10 gifted, 30..40.
    let want = add(lineup.wins(5, 0..30).unwrap(), rich.wins(5, 30..40).unwrap());
    assert_eq!(gifted.wins_against(&me, std::slice::from_ref(&lazy), 5, 40).unwrap(), want);
    assert_eq!(plain.wins_against(&me, std::slice::from_ref(&lazy), 5, 40).unwrap(), lineup.wins(5, 0..40).unwrap());
    assert_ne!(rich.games(5, 30..40).unwrap(), lineup.games(5, 30..40).unwrap(), "the gift changes games");
}

/// A best response that loses when handed the competence check's gold is
/// repaired by setting its moved keys back to the start's: `tuned` with
/// `ship` pushed to 9 buys ships with a gift and loses about 11 points
/// (default scenario), and of its two moved keys the repair sets back
/// `ship`, the one that spends the gift, and leaves the harmless one.
#[test]
fn a_best_response_that_wastes_a_gold_gift_has_the_key_that_wastes_it_set_back() {
    use empires::strength::best_response::repair_gift;
    let sc = Scenario::embedded_default();
    let start = sc.named_strategy("tuned").unwrap();
    let mut bad = start.clone();
    bad.ship = 9.0;
    bad.capture += 0.25;
    let r = repair_gift(&sc, &start, bad.clone(), &Field::SelfPlay, 11, 1000).unwrap();
    assert_eq!(r.keys, ["ship"], "{r:?}");
    assert!(r.harm.0 > 0.05 && r.harm.1 < r.harm.0 - 0.05, "the harm fell: {:?}", r.harm);
    assert_eq!((r.spec.ship, r.spec.capture), (start.ship, bad.capture));
    // A player within the tolerance is left as it is, after one probe.
    let fine = repair_gift(&sc, &start, start.clone(), &Field::SelfPlay, 11, 1000).unwrap();
    assert!(fine.keys.is_empty() && fine.spec == start && fine.played == 2000, "{fine:?}");
}

/// A lineup's finish gives each slot its share of the final sizes and its
/// rank points, read from the seats the rotation put the slots in: the
/// same numbers as the campaign played with those strategies seated.
#[test]
fn a_lineups_finish_is_each_slots_share_of_the_final_sizes_and_its_rank() {
    let sc = Scenario::embedded_default();
    let names = ["balanced", "miner", "pillager", "warlord"];
    let specs: Vec<StrategySpec> = names.map(|n| sc.strategy(n).unwrap()).to_vec();
    let l = Lineup::new(&sc, &specs).unwrap();
    let finishes = pool(2).install(|| l.finishes(3, 0..8).unwrap());
    assert_eq!(finishes, pool(1).install(|| l.finishes(3, 0..8).unwrap()));
    for (i, f) in finishes.iter().enumerate() {
        let i = i as u64;
        assert_eq!(f.winner, l.winners(3, i..i + 1).unwrap()[0]);
        let seated: Vec<&str> = empires::sim::runner::seat_strategies(&sc, i, true);
        let cs = empires::seed::campaign_seed(3, i);
        let map = empires::rules::setup::make_map(&sc, cs).unwrap();
        let out = empires::sim::Campaign::new(&sc, cs).on(&map).seats(&seated).play().outcome;
        let total: u32 = out.standings.iter().map(|s| s.size.size).sum();
        assert!(total > 0);
        for s in &out.standings {
            let slot = names.iter().position(|n| *n == seated[s.player as usize]).unwrap();
            assert_eq!(f.share[slot], s.size.size as f64 / total as f64, "campaign {i} slot {slot}");
            assert_eq!(f.points[slot], (4 - s.rank as usize) as f64 / 3.0, "campaign {i} slot {slot}");
        }
        assert_eq!(f.points[f.winner], 1.0);
    }
}

/// With a dense objective every candidate's score is its summed share of
/// the final sizes, its wins are still counted, and a player who never
/// captures learns to: the share it reaches on the reference campaigns
/// and on held-out ones rises above its start's.
#[test]
fn tune_on_the_size_share_scores_each_candidate_by_its_share_and_climbs() {
    let sc = duel();
    let s =
        Settings { objective: Objective::Share, ..settings(Field::Fixed(vec!["balanced".into()]), &["capture"], 6) };
    let p = Problem::new(&sc, s).unwrap();
    let rec = pool(2).install(|| tune(&p, None, |_| Flow::Continue)).unwrap();
    assert_eq!(rec, pool(1).install(|| tune(&p, None, |_| Flow::Continue)).unwrap());
    // One candidate scored again by hand, on its generation's campaigns.
    let g = &rec.generations[2];
    let c = &g.candidates[1];
    let balanced = sc.strategy("balanced").unwrap();
    let l = Lineup::new(&sc, &[p.spec_at(&c.u), balanced]).unwrap();
    let fin = l.finishes(empires::strength::tune::generation_master(11, 2), 0..40).unwrap();
    assert_eq!(c.score, fin.iter().map(|f| f.share[0]).sum::<f64>());
    assert_eq!(c.wins, fin.iter().filter(|f| f.winner == 0).count() as u64);
    // Ranked by share, best first.
    assert!(g.candidates.windows(2).all(|w| w[0].score >= w[1].score));
    let (best, _) = p.best_reference_point(&rec);
    let best = rec.generations.iter().find(|x| Some(x.index) == best).expect("a generation beat the start");
    assert!(best.reference_score > rec.start_reference_score + 0.05 * 40.0);
    let spec = p.best_by_reference(&rec);
    assert!(spec.capture >= 1.0, "capture {}", spec.capture);
}

/// A climb restarts CMA-ES from each start in turn and chooses among the
/// start and every restart's finalists on seeds none of them played: the
/// result never wins less than the start there, the same whatever the
/// threads, and a climb stopped in its second restart resumes to the same
/// end.
#[test]
fn a_climb_chooses_among_its_restarts_never_below_its_start() {
    use empires::strength::climb::{self, Climb, Length, Plan, Regime, Start};
    let sc = duel();
    let base = Settings {
        objective: Objective::Share,
        ..settings(Field::Fixed(vec!["balanced".into()]), &["capture", "attack"], 2)
    };
    let plan = Plan {
        starts: vec![Start::Named("lazy".into()), Start::Random, Start::Named("warlord".into())],
        restarts: 3,
        regime: Regime::Ipop,
        length: Length::Generations(2),
    };
    let runs = climb::schedule(&base, &plan).unwrap();
    assert_eq!(runs[0], base, "restart 0 is the plain run");
    assert_eq!(runs[2].start, "warlord");
    assert!(runs[1].start_at.as_ref().is_some_and(|u| u.len() == 2 && u.iter().all(|x| (0.0..=1.0).contains(x))));
    let problems = climb::problems(&sc, &runs).unwrap();
    let main = Problem::new(&sc, base.clone()).unwrap();
    let whole = pool(2).install(|| climb::climb(&problems, None, |_, _| Flow::Continue)).unwrap();
    assert!(whole.complete(&runs));
    assert_eq!(whole, pool(1).install(|| climb::climb(&problems, None, |_, _| Flow::Continue)).unwrap());
    // Stopped after restart 1's first generation, then resumed.
    let part = pool(2)
        .install(|| climb::climb(&problems, None, |r, _| if r == 1 { Flow::Stop } else { Flow::Continue }))
        .unwrap();
    assert_eq!(part.restarts.len(), 2);
    assert_eq!(part.restarts[1].generations.len(), 1);
    let json = serde_json::to_string(&part).unwrap();
    let back: Climb = serde_json::from_str(&json).unwrap();
    let mut played = 0;
    let resumed = pool(2)
        .install(|| {
            climb::climb(&problems, Some(back), |_, _| {
                played += 1;
                Flow::Continue
            })
        })
        .unwrap();
    assert_eq!(played, 3, "restart 1's second generation and restart 2's two");
    assert_eq!(resumed, whole);
    // The choice: the start first, then each restart's finalists.
    let choice = pool(2).install(|| climb::choose(&main, &problems, &whole, 77, 80)).unwrap();
    assert_eq!(choice.entrants[0].spec, main.start);
    assert_eq!(choice.picks[0].restart, None);
    assert_eq!(choice.entrants.len(), climb::entrants_of(&problems, &whole));
    assert!(choice.picks[1..].iter().all(|p| p.restart.is_some()));
    let won = |i: usize| choice.entrants[i].tally.wins.by_slot[0];
    assert!(choice.entrants.iter().enumerate().all(|(i, _)| won(choice.chosen) >= won(i)));
    assert!(won(choice.chosen) >= won(0));
    // Each entrant's tally is its lineup's on the selection seed.
    let e = &choice.entrants[choice.chosen];
    let l = Lineup::new(&sc, &[e.spec.clone(), sc.strategy("balanced").unwrap()]).unwrap();
    assert_eq!(e.tally.wins, l.wins(77, 0..80).unwrap());
}

/// The command a climb writes above its table redoes it: its restarts
/// share a budget (later passes have larger populations and fewer
/// generations), so it names the budget, and playing it again gives the
/// same table.
#[test]
fn a_climbs_redo_command_gives_the_same_strategy() {
    let dir = tmp("redo");
    let scen = dir.join("duel.toml");
    std::fs::write(&scen, format!("{DUEL}\n[strategies.lazy]\ncapture = 0.0\n")).unwrap();
    let run = |args: &[String], out: &str| {
        let o = bin().args(args).arg("--quiet").arg("--out").arg(dir.join(out)).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(dir.join(out).join("strategy.toml")).unwrap()
    };
    let first: Vec<String> = [
        "tune",
        "--scenario",
        scen.to_str().unwrap(),
        "--strategy",
        "lazy",
        "--against",
        "balanced",
        "--keys",
        "capture,attack",
        "--restarts",
        "3",
        "--starts",
        "lazy,random",
        "--budget",
        "1900",
        "--population",
        "3",
        "--campaigns-per-eval",
        "20",
        "--select-campaigns",
        "20",
        "--eval-campaigns",
        "20",
    ]
    .map(String::from)
    .to_vec();
    let table = run(&first, "a");
    let made = table.lines().find_map(|l| l.strip_prefix("# Made by: empires ")).expect("the command");
    // 1,900 shared by 3 restarts is 633 each: 1,899 in all.
    assert!(made.contains(" --budget 1899 ") && !made.contains("--generations"), "{made}");
    let again: Vec<String> =
        made.split(' ').map(String::from).chain(["--eval-campaigns".into(), "20".into()]).collect();
    let redone = run(&again, "b");
    let body = |t: &str| t.lines().filter(|l| !l.starts_with('#')).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&redone), body(&table));
}
