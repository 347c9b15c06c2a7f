//! compare, sweep and the mine-against-pillage experiment.

use crate::play_cli::bin;
use empires::scenario::{ActionKind, Scenario};
use empires::strength::best_response;
use empires::study::compare::compare;
use empires::study::mine_pillage::{break_even, mine_gold};
use empires::study::sweep::parse_axis;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-study-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn compare_of_a_scenario_with_itself_is_exactly_zero() {
    // Common random numbers: campaign i of A and of B are the same game, so
    // every paired difference is 0 with a zero-width interval.
    let sc = Scenario::embedded_default();
    let c = compare(("a", &sc), ("b", &sc), 3, 200, true).unwrap();
    assert!(!c.rows.is_empty());
    for r in &c.rows {
        assert_eq!((r.diff.mean, r.diff.low, r.diff.high), (0.0, 0.0, 0.0), "{}", r.metric.name());
        assert!(r.undetected());
    }
}

/// A/A: the same game against itself with the player list rotated (so
/// campaign i of A and of B seat the strategies differently and the paired
/// differences are pure noise), on 40 master seeds. Every "higher" or
/// "lower" is a false verdict. With Holm over the metrics, the chance that
/// a run prints any is at most 5%, so the count X of runs with one is at
/// most Binomial(40, 0.05): P(X ≥ 8) = 0.0007, and the bound X ≤ 7 passes
/// a correct procedure with probability above 0.999. Without the
/// correction (each metric at 5%) 19 of 40 runs printed one; at that rate
/// P(X ≤ 7) = 8e-5, so the uncorrected rule fails this test.
#[test]
fn a_a_comparisons_hold_the_family_wise_false_verdict_rate() {
    use statrs::distribution::{Binomial, DiscreteCDF};
    let a = Scenario::embedded_default();
    let mut b = a.clone();
    b.players.rotate_left(1);
    let (seeds, campaigns, bound) = (40u64, 200u64, 7u64);
    // The bound's justification, computed rather than quoted.
    let correct = Binomial::new(0.05, seeds).unwrap();
    assert!(correct.sf(bound) < 0.001, "{}", correct.sf(bound));
    let uncorrected = Binomial::new(19.0 / 40.0, seeds).unwrap();
    assert!(uncorrected.cdf(bound) < 0.001);
    let (mut adjusted, mut raw, mut metrics) = (0u64, 0u64, 0usize);
    for seed in 0..seeds {
        let c = compare(("a", &a), ("b", &b), 1000 + seed, campaigns, true).unwrap();
        assert!(c.verdicts_line().starts_with("verdicts: Holm-adjusted, family-wise error 5% over"));
        metrics = c.rows.len();
        adjusted += c.rows.iter().any(|r| r.rejected()) as u64;
        raw += c.rows.iter().any(|r| !r.undetected()) as u64;
        for r in &c.rows {
            assert!(r.p_adj >= r.p && r.p_adj <= 1.0, "{r:?}");
            let v = empires::report::study::paired::verdict(r);
            assert_eq!(v == "higher" || v == "lower", r.rejected(), "{v}");
        }
    }
    // The design has teeth: the unadjusted intervals leave 0 in many runs.
    assert!(raw > bound, "unadjusted: {raw} of {seeds} runs over {metrics} metrics");
    assert!(adjusted <= bound, "Holm: {adjusted} of {seeds} runs printed a false verdict (unadjusted: {raw})");
}

#[test]
fn compare_cli_reports_paired_differences_and_writes_a_page() {
    let out = tmp("cmp");
    let o = bin()
        .args(["compare", "--vary", "costs.capture=3", "--campaigns", "300", "--rotate-seats", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("300 campaigns each on master seed 1"), "{text}");
    // Captures costing 3 EP instead of 2 shrink every empire, clearly.
    let size = text.lines().find(|l| l.trim_start().starts_with("mean empire size")).unwrap();
    assert!(size.trim_end().ends_with("lower"), "{size}");
    assert!(text.contains("detectable at 80% power") && text.contains("adjusted p"), "{text}");
    assert!(text.contains("verdicts: Holm-adjusted, family-wise error 5% over"), "{text}");
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("win-rate-diff.svg") && out.join("win-rate-diff.png").exists());
    // Two files compare directly; nothing to compare is an input error.
    let d = format!("{}/scenarios/default.toml", env!("CARGO_MANIFEST_DIR"));
    let o = bin().args(["compare", &d, &d, "--campaigns", "50", "--out"]).arg(tmp("cmp2")).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    assert!(text.contains("no detectable difference at 50 campaigns"), "{text}");
    let o = bin().args(["compare"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = bin().args(["compare", "--vary", "costs.capture=-1"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--vary costs.capture=-1"));
}

/// `compare --best-response`: each variant's players are re-tuned in
/// self-play under its own rules (on seeds the comparison does not play)
/// and every seat plays them; the same flags give the same players and
/// the same table.
/// `--best-response-player search` seats the scenario's `search` on top of
/// the weights tuned under a variant: the tuned weights as its prior (its
/// own keys) and as its rollouts' player (under `NAME (rollouts)`), its
/// budget, top-k and horizon from `strategies.search`.
#[test]
fn a_search_best_response_plays_on_the_weights_tuned_under_the_variant() {
    use empires::scenario::StrategyKind;
    use empires::strength::best_response::Family;
    use empires::strength::best_response::seat_tuned;
    let duel = format!("{}/scenarios/duel.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&duel).unwrap();
    let source = empires::scenario::Source::file(&duel);
    let sets =
        [("strategies.search.budget".to_string(), "8".to_string()), ("strategies.search.horizon".into(), "1".into())];
    let sc = empires::scenario::load_with_overrides(&text, &source, &sets).unwrap();
    let mut tuned = sc.strategy("tuned").unwrap();
    tuned.capture = 3.25;
    let weighted = seat_tuned(&sc, "br", &tuned, Family::Weighted).unwrap();
    assert_eq!(weighted.strategy("br"), Some(tuned.clone()));
    assert_eq!(weighted.strategy("br (rollouts)"), None);
    let search = seat_tuned(&sc, "br", &tuned, Family::Search).unwrap();
    assert!(search.players.iter().all(|p| p.strategy == "br"));
    let s = search.strategy("br").unwrap();
    assert_eq!((s.kind, s.base.as_str(), s.capture), (StrategyKind::Search, "br (rollouts)", 3.25));
    assert_eq!((s.budget, s.top_k, s.horizon), (8, 6, 1), "the search keys are the scenario's");
    assert_eq!(search.strategy("br (rollouts)"), Some(tuned.clone()), "the rollouts play the tuned weights");
    // It plays, and a campaign replays exactly.
    let map = empires::rules::setup::make_map(&search, 0).unwrap();
    let seats = ["br", "br"];
    let a = empires::sim::Campaign::new(&search, 5).on(&map).seats(&seats).play();
    let b = empires::sim::Campaign::new(&search, 5).on(&map).seats(&seats).play();
    assert_eq!(a.state, b.state);

    // The command says which player it seated, and its competence.
    let out = tmp("cmp-br-search");
    let o = bin()
        .args(["compare", "--scenario", duel.as_str(), "--set", "strategies.search.budget=4"])
        .args(["--set", "strategies.search.horizon=1", "--vary", "economy.pillage=6D6x10", "--campaigns", "8"])
        .args(["--best-response", "--best-response-player", "search", "--generations", "1"])
        .args(["--campaigns-per-eval", "8", "--probe-campaigns", "2", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("player family: search (the scenario's strategies.search keys"), "{text}");
    // The header names the variant played, not the file's name alone.
    assert!(
        text.contains(
            "A: players: best response (search), over-use check on duel with strategies.search.budget=4, \
             strategies.search.horizon=1: "
        ),
        "{text}"
    );
    // A restriction's best response compares weighted players: refused, not ignored.
    let o = bin()
        .args(["experiment", "restrict", "--forbid", "mine", "--campaigns", "4"])
        .args(["--best-response", "--best-response-player", "search"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--best-response-player search: experiment restrict values"));
}

#[test]
fn compare_best_response_retunes_the_players_for_each_variant() {
    use empires::strength::best_response::Budget;
    use empires::strength::best_response::{BEST_RESPONSE, tuning_seed};
    use empires::study::compare::best_response;
    let duel = format!("{}/scenarios/duel.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&duel).unwrap();
    let source = empires::scenario::Source::file(&duel);
    let a = empires::scenario::load_str(&text, &source).unwrap();
    let b =
        empires::scenario::load_with_overrides(&text, &source, &[("economy.pillage".into(), "6D6x10".into())]).unwrap();
    let budget = Budget {
        generations: 2,
        per_eval: 20,
        population: Some(4),
        sigma: 0.1,
        probe_campaigns: 4,
        family: Default::default(),
    };
    let (sa, sb, br) = best_response(&a, &b, "tuned", 1, &budget).unwrap();
    // Each re-tuned player is probed under its own variant's rules.
    for c in &br.competence {
        let c = c.as_ref().expect("probed");
        assert_eq!((c.strategy.as_str(), c.scenario.as_str(), c.campaigns), (BEST_RESPONSE, "duel", 4));
    }
    for sc in [&sa, &sb] {
        assert!(sc.players.iter().all(|p| p.strategy == BEST_RESPONSE));
    }
    assert_eq!(sa.strategy(BEST_RESPONSE), Some(br.a.clone()));
    assert_eq!(sb.strategy(BEST_RESPONSE), Some(br.b.clone()));
    assert_ne!(br.tuning_seed, 1, "tuned on other seeds than the comparison's");
    assert_eq!(br.tuning_seed, tuning_seed(1));
    // (2 generations × (4 candidates + 1 mean) + 1 reference) × 20 campaigns
    // for the search, then 20 for `keep_unexercised`'s reference games and
    // 20 for each key the search moved (at most every key), then the gift
    // repair's paired probes of 2 × 4 campaigns (the check's size): one,
    // and one for each moved key tried in at most three rounds.
    let keys = empires::scenario::knobs::KNOBS.len() as u64;
    for played in [br.tuning_campaigns.0, br.tuning_campaigns.1] {
        let (least, most) = (220 + 20 + 8, 220 + 20 * (1 + keys) + 8 * (1 + 3 * keys));
        assert!((least..=most).contains(&played), "{played}");
        assert_eq!(played % 4, 0, "whole probes and rounds: {played}");
    }
    let again = best_response(&a, &b, "tuned", 1, &budget).unwrap().2;
    assert_eq!((again.a, again.b), (br.a.clone(), br.b.clone()), "the same flags, the same players");

    let out = tmp("cmp-br");
    let args = [
        "compare",
        "--scenario",
        duel.as_str(),
        "--vary",
        "economy.pillage=6D6x10",
        "--best-response",
        "--generations",
        "2",
        "--campaigns-per-eval",
        "20",
        "--probe-campaigns",
        "8",
        "--campaigns",
        "40",
        "--out",
    ];
    let o = bin().args(args).arg(&out).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("best response: every seat plays tuned re-tuned in self-play"), "{text}");
    for v in ["A", "B"] {
        let want = format!("  {v}: players: best response (weighted), over-use check on duel: ");
        assert!(text.contains(&want), "{want:?} in {text}");
    }
    assert!(text.contains("probes × 8 campaigns"), "{text}");
    assert!(text.contains("player family: weighted"), "{text}");
    assert!(text.contains("40 campaigns each on master seed 1"), "{text}");
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("best response: every seat plays tuned re-tuned"), "the page names its players");
    // The budget flags mean nothing without --best-response.
    let o = bin().args(["compare", "--vary", "costs.capture=3", "--generations", "2"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));

    // sweep: every cell re-tuned, and by default the metrics that still
    // mean something when every seat plays the same player.
    let out = tmp("sweep-br");
    let args = [
        "sweep",
        "--scenario",
        duel.as_str(),
        "--values",
        "economy.pillage=1D6x10,6D6x10",
        "--best-response",
        "--generations",
        "1",
        "--campaigns-per-eval",
        "20",
        "--probe-campaigns",
        "0",
        "--campaigns",
        "40",
        "--out",
    ];
    let o = bin().args(args).arg(&out).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("best response: in every cell, every seat plays tuned re-tuned"), "{text}");
    assert!(text.contains("2 cells"), "{text}");
    assert!(text.contains("economy.pillage=1D6x10: players not checked (--probe-campaigns 0)"), "{text}");
    assert!(text.contains("mean empire size") && text.contains("share of gold from pillage"), "{text}");
    assert!(!text.contains("win rate: best response"), "{text}");
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("best response: in every cell"), "the page names its players");
}

#[test]
fn sweep_axes_split_at_top_level_commas() {
    let a = parse_axis("economy.pillage=1D6x10, 2D6x10,3D6x10").unwrap();
    assert_eq!(
        (a.key.as_str(), a.values.clone()),
        ("economy.pillage", vec!["1D6x10".into(), "2D6x10".into(), "3D6x10".into()])
    );
    let a = parse_axis(r#"strategies.miner.forbid=["mine","pillage"],[]"#).unwrap();
    assert_eq!(a.values, vec![r#"["mine","pillage"]"#.to_string(), "[]".to_string()]);
    assert!(parse_axis("costs.capture=1,,2").is_err());
    assert!(parse_axis("costs.capture").is_err());
}

#[test]
fn sweep_cli_draws_a_line_for_one_key_and_heatmaps_for_two() {
    let (one, two) = (tmp("sw1"), tmp("sw2"));
    let o = bin()
        .args(["sweep", "--values", "costs.capture=1,2,3", "--campaigns", "150", "--out"])
        .arg(&one)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(text.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())).count(), 3, "{text}");
    assert!(one.join("sweep-line.svg").exists());
    // Every cell against the first, paired, with one Benjamini–Hochberg family.
    assert!(text.contains("against the first cell (costs.capture=1), paired campaign by campaign"), "{text}");
    assert!(text.contains("verdicts: Benjamini–Hochberg-adjusted, false discovery rate 5% over"), "{text}");
    assert!(text.lines().any(|l| l.trim_start().starts_with("costs.capture=3")), "{text}");
    let o = bin()
        .args([
            "sweep",
            "--values",
            "costs.capture=2,3",
            "--values",
            "costs.pillage=1,2",
            "--campaigns",
            "100",
            "--out",
        ])
        .arg(&two)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(two.join("sweep-heatmap-0.svg").exists() && two.join("sweep-heatmap-0.png").exists());
    let o = bin().args(["sweep", "--values", "costs.capture=2,-4", "--campaigns", "10"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--values costs.capture=-4"));
}

#[test]
fn e09_e15_mine_gold_by_hand() {
    // 70 a payday, 10% loss a season: 70·0.9 + 70·0.81 = 63 + 56.7 = 119.7.
    assert!((mine_gold(70.0, 2, 0.1) - 119.7).abs() < 1e-9);
    assert_eq!(mine_gold(70.0, 0, 0.0), 0.0);
    // Against a 70-gold pillage: 1 payday at no risk, 2 at 10% (63 < 70).
    assert_eq!(break_even(70.0, 70.0, 0.0, 12), Some(1));
    assert_eq!(break_even(70.0, 70.0, 0.1, 12), Some(2));
    // A 10-gold mine under 50% loss never reaches 70: Σ 10·0.5^k < 10.
    assert_eq!(break_even(10.0, 70.0, 0.5, 100), None);
}

/// The loss rate's interval counts campaigns as the independent draws: a
/// campaign's hex-seasons move together (a war takes several hexes), so a
/// binomial interval over hex-seasons is too narrow.
#[test]
fn e09_e15_the_loss_rate_interval_is_clustered_by_campaign() {
    use empires::study::mine_pillage::Loss;
    // Ten campaigns of 100 hex-seasons, 50 lost in the first, none after:
    // r = 0.05; Σ(lost − r·held)² = 45² + 9·5² = 2250; the ratio's variance
    // 2250 / 9 / (10 · 100²) = 0.0025 against the binomial 0.05·0.95/1000.
    let l = Loss::of("x", std::iter::once((100, 50)).chain(std::iter::repeat_n((100, 0), 9)));
    assert_eq!((l.campaigns, l.held, l.lost), (10, 1000, 50));
    assert!((l.design_effect() - 0.0025 / 4.75e-5).abs() < 1e-9, "{}", l.design_effect());
    let n = 1000.0 / l.design_effect();
    assert_eq!(l.interval(), empires::stats::wilson(0.05 * n, n, 0.95));
    // None lost: the spread is unseen, so each campaign counts once (the
    // largest design effect, 100) and the low end is 0 exactly.
    let none = Loss::of("x", std::iter::repeat_n((100, 0), 10));
    assert_eq!(none.design_effect(), 100.0);
    let (lo, hi) = none.interval();
    assert_eq!(lo, 0.0);
    assert!((hi - 0.277_532_6).abs() < 1e-6, "{hi}");
}

/// `--payback N` solves the exact part backwards: a mine first matches a
/// 70-gold pillage at its third payday (no risk) when its yield is from
/// 70/3 to under 70/2; 2D6x4 (mean 28) is the nearest such multiplier.
#[test]
fn e09_e15_the_yield_that_pays_back_at_a_given_payday() {
    use empires::scenario::DiceExpr;
    use empires::study::mine_pillage::{break_even, dice_for_yield, yield_for_payback};
    let (lo, hi) = yield_for_payback(70.0, 3, 0.0);
    assert!((lo - 70.0 / 3.0).abs() < 1e-12 && (hi - 35.0).abs() < 1e-12, "{lo} {hi}");
    assert_eq!(yield_for_payback(70.0, 1, 0.0), (70.0, f64::INFINITY));
    // The bounds are what `break_even` reads: 3 paydays at the low end,
    // 2 just at the high end.
    assert_eq!(break_even(lo, 70.0, 0.0, 12), Some(3));
    assert_eq!(break_even(hi, 70.0, 0.0, 12), Some(2));
    // At a 10% loss a season: 70 / (0.9 + 0.81 + 0.729) to 70 / 1.71.
    let (lo, hi) = yield_for_payback(70.0, 3, 0.1);
    assert!((lo - 70.0 / 2.439).abs() < 1e-9 && (hi - 70.0 / 1.71).abs() < 1e-9, "{lo} {hi}");
    let d = dice_for_yield(&DiceExpr::new(2, 6, 10), 70.0 / 3.0, 35.0).unwrap();
    assert_eq!(d.to_string(), "2D6x4");
    assert_eq!(dice_for_yield(&DiceExpr::new(3, 6, 10), 70.0 / 3.0, 35.0).unwrap().to_string(), "3D6x3");
    // No multiplier of 3D6 (10.5 a step) lands in [22, 23).
    assert_eq!(dice_for_yield(&DiceExpr::new(3, 6, 10), 22.0, 23.0), None);
    let o = bin()
        .args(["experiment", "mine-vs-pillage", "--campaigns", "20", "--readings-campaigns", "20"])
        .args(["--readings-players", "balanced", "--loss-from", "balanced", "--payback", "3", "--quiet", "--out"])
        .arg(tmp("mvp-payback"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let first = text.lines().next().unwrap();
    assert!(first.contains("To first match a pillage only at its payday 3"), "{first}");
    assert!(first.contains("e.g. economy.mine.river = 2D6x4, mean 28.0"), "{first}");
    // From which season on: the answer says it in those words.
    assert!(first.contains("a pillage is worth at least as much from season"), "{first}");
    // One measurement of the loss rate: part 1 quotes part 4's shipped row.
    assert!(text.contains("the same campaigns as part 4's shipped row"), "{text}");
}

#[test]
fn experiment_mine_vs_pillage_has_its_three_parts() {
    let out = tmp("mvp");
    let o = bin().args(["experiment", "mine-vs-pillage", "--campaigns", "200", "--out"]).arg(&out).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("1. Exact") && text.contains("2. Simulated") && text.contains("3. Observed"), "{text}");
    assert!(text.contains("verdicts: Holm-adjusted, family-wise error 5% over"), "{text}");
    // A river mine (2D6x10, mean 70) matches a pillage (2D6x10) after one
    // payday: built in season 11 it ties, it does not beat.
    assert!(
        text.lines().any(|l| {
            l.contains("river (70 a payday)") && l.contains("0%") && l.contains("1 to 10, ties in 11 (of 12)")
        }),
        "{text}"
    );
    // Forbidding pillage leaves no pillage gold at all.
    let block = text.split("no pillage (").nth(1).unwrap();
    let gold = block.lines().find(|l| l.trim_start().starts_with("gold from pillage")).unwrap();
    // The variant's mean follows the baseline's with its interval.
    assert!(gold.split_whitespace().nth(6) == Some("0.00"), "{gold}");
    for f in ["index.html", "exact-gold.svg", "variant-0.svg", "observed-gold.png", "observed-mine-share.svg"] {
        assert!(out.join(f).exists(), "{f}");
    }
}

/// `--players tuned`: every seat plays it, and the experiment adds one
/// restricted player against unrestricted copies, paired in the same seat.
#[test]
fn experiment_with_players_seats_one_restricted_player_against_copies() {
    let sc = Scenario::embedded_default().with_players("tuned").unwrap();
    assert!(sc.players.iter().all(|p| p.strategy == "tuned"));
    let e = empires::study::mine_pillage::run(&sc, 4, 120, false).unwrap();
    assert_eq!(e.solo.len(), 3);
    let base = e.solo[0].base_wins;
    for s in &e.solo {
        assert_eq!((s.campaigns, s.base_wins, s.diff.n), (120, base, 120));
        // The paired mean is exactly the difference of the two win counts.
        assert!((s.diff.mean - (s.wins as f64 - base as f64) / 120.0).abs() < 1e-12);
    }
    // Without --players the scenario's strategies differ: no one-player rows.
    let mixed = empires::study::mine_pillage::run(&Scenario::embedded_default(), 4, 40, true).unwrap();
    assert!(mixed.solo.is_empty());
    let o = bin()
        .args(["experiment", "mine-vs-pillage", "--players", "tuned", "--campaigns", "40", "--out"])
        .arg(tmp("mvp-tuned"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("One tuned restricted against unrestricted tuned in every other seat"), "{text}");
    // The players' competence is said once, at the end of the answer line,
    // not again above the exact part.
    assert_eq!(text.matches("[over-use check on gold, mine, pillage:").count(), 1, "{text}");
    assert!(text.lines().next().unwrap().contains("Players: tuned"), "{text}");
}

#[test]
fn players_flag_reaches_every_study_and_the_gate() {
    for args in [
        vec!["compare", "--vary", "costs.capture=3", "--players", "nobody"],
        vec!["sweep", "--values", "costs.capture=2,3", "--players", "nobody"],
        vec!["experiment", "mine-vs-pillage", "--players", "nobody"],
    ] {
        let o = bin().args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("--players: unknown strategy \"nobody\""), "{args:?}");
    }
    let o = bin()
        .args(["compare", "--vary", "costs.capture=3", "--players", "tuned", "--campaigns", "40", "--out"])
        .arg(tmp("cmp-tuned"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("empire size: tuned") && !text.contains("miner"), "{text}");
    // The gate: a metric of a strategy nobody plays is a clear error.
    let dir = tmp("gate-players");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("b.toml");
    std::fs::write(
        &file,
        "[[metric]]\nname = \"miner wins\"\nquantity = \"win rate: miner\"\ncampaigns = 40\nmin = 0.0\nmax = 1.0\n\n\
         [[metric]]\nname = \"size\"\nquantity = \"mean empire size\"\ncampaigns = 40\nmin = 0.0\nmax = 100.0\n",
    )
    .unwrap();
    let o = bin().args(["check"]).arg(&file).args(["--players", "tuned"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("\"win rate: miner\" is not a metric of this scenario"), "{err}");
    std::fs::write(
        &file,
        "[[metric]]\nname = \"size\"\nquantity = \"mean empire size\"\ncampaigns = 40\nmin = 0.0\nmax = 100.0\n",
    )
    .unwrap();
    let o = bin().args(["check"]).arg(&file).args(["--players", "tuned"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Restricted play: the naive value at each level is the paired difference
/// of the two lineups' results, and the best response never hands back a
/// player worse than its start on the search's own reference campaigns.
#[test]
fn experiment_restrict_values_an_option_at_each_level_and_under_best_response() {
    use empires::strength::best_response::Budget;
    use empires::study::restrict::{Restriction, run};
    let sc = empires::scenario::load_str(
        include_str!("../../scenarios/duel.toml"),
        &empires::scenario::Source::file("duel.toml"),
    )
    .unwrap();
    // A player who may not capture loses nearly every duel.
    let r = Restriction::new(vec![ActionKind::Capture], vec![]).unwrap();
    let levels: Vec<String> = ["balanced", "tuned"].map(String::from).to_vec();
    let budget = Budget {
        generations: 2,
        per_eval: 20,
        population: Some(4),
        sigma: 0.1,
        probe_campaigns: 0,
        family: Default::default(),
    };
    let s = run(&sc, &r, "tuned", &levels, 9, 60, Some(&budget)).unwrap();
    assert_eq!(s.levels.len(), 2);
    for v in &s.levels {
        assert_eq!(v.campaigns, 60);
        assert!((v.diff.mean - (v.wins as f64 - v.base_wins as f64) / 60.0).abs() < 1e-12);
        assert!(v.diff.high < 0.0, "{}: no captures must cost wins: {:?}", v.label, v.diff);
    }
    let b = s.best.as_ref().unwrap();
    assert!(b.restricted.forbid.contains(&ActionKind::Capture) && b.unrestricted.forbid.is_empty());
    assert!(b.value.high < 0.0, "{:?}", b.value);
    assert_eq!(s.naive().unwrap().label, "tuned");
    assert!(s.disagree().is_some(), "both answers were measured");
    // Bad restrictions are refused with a reason.
    assert!("dance".parse::<ActionKind>().unwrap_err().contains("unknown action kind"));
    assert!(Restriction::new(vec![ActionKind::Done], vec![]).unwrap_err().message().contains("cannot be forbidden"));
    assert!(Restriction::new(vec![], vec![]).is_err());
}

#[test]
fn experiment_restrict_cli_writes_its_page() {
    let out = tmp("restrict");
    let o = bin()
        .args(["experiment", "restrict", "--forbid", "pillage", "--levels", "balanced", "--campaigns", "20", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("restricted play: no pillage; 20 campaigns a row"), "{text}");
    assert!(out.join("index.html").exists() && out.join("robustness.svg").exists());
    let bad = bin().args(["experiment", "restrict", "--forbid", "dance"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// The exact part's loss chance, read off play: hexes a mine may stand on,
/// held at one season's end, with another holder at the next.
#[test]
fn mine_loss_is_measured_from_play_the_same_on_any_thread_count() {
    use empires::study::mine_pillage::measure_loss;
    let sc = Scenario::embedded_default();
    let pool = |t| rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap();
    let a = pool(2).install(|| measure_loss(&sc, "balanced", 3, 40).unwrap());
    let b = pool(1).install(|| measure_loss(&sc, "balanced", 3, 40).unwrap());
    assert_eq!(a, b);
    assert!(a.held > 0 && a.lost > 0 && a.lost < a.held, "{a:?}");
    let (lo, hi) = a.interval();
    assert!(lo <= a.rate() && a.rate() <= hi);
    assert!(measure_loss(&sc, "nobody", 3, 4).is_err());
    // The experiment prints the measured rate and uses it in the table.
    let o = bin()
        .args(["experiment", "mine-vs-pillage", "--campaigns", "20", "--loss-campaigns", "20", "--out"])
        .arg(tmp("mvp-loss"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("measured: a hex a mine may stand on") && text.contains("(measured, equilibrium)"), "{text}");
}

#[test]
fn mine_vs_pillage_best_response_values_each_restriction() {
    let o = bin()
        .args(["experiment", "mine-vs-pillage", "--campaigns", "20", "--loss-campaigns", "0", "--best-response"])
        .args(["--generations", "1", "--campaigns-per-eval", "20", "--probe-campaigns", "10", "--out"])
        .arg(tmp("mvp-br"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for r in ["no mine;", "no pillage;", "mine first;"] {
        assert!(text.contains(&format!("restricted play: {r}")), "{r}: {text}");
    }
    assert_eq!(text.matches("best response against tuned").count(), 3, "{text}");
    // Each best response is checked against the field it was tuned
    // against, on the probes its restriction rests on.
    assert_eq!(
        text.matches("players: best response (weighted), over-use check on default against tuned: ").count(),
        3,
        "{text}"
    );
    assert!(!text.contains("measured: a hex"), "--loss-campaigns 0 skips the measurement");
}

/// `--set` reaches both experiments: a bad key is the located error of
/// every other command (exit 2), and a good one changes the game played.
#[test]
fn set_reaches_both_experiments() {
    for exp in ["mine-vs-pillage", "restrict"] {
        let mut args = vec!["experiment", exp, "--set", "costs.captur=3", "--campaigns", "4"];
        if exp == "restrict" {
            args.extend(["--forbid", "mine"]);
        }
        let o = bin().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{exp}: {err}");
        assert!(err.contains("--set costs.captur=3") && err.contains("captur"), "{exp}: {err}");
    }
    // A pillage that pays almost nothing changes what the experiment reports.
    let out = tmp("mvp-set");
    let o = bin()
        .args(["experiment", "mine-vs-pillage", "--set", "economy.pillage=1D6x1", "--campaigns", "40"])
        .args(["--loss-campaigns", "0", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let plain = bin()
        .args(["experiment", "mine-vs-pillage", "--campaigns", "40", "--loss-campaigns", "0", "--out"])
        .arg(tmp("mvp-plain"))
        .output()
        .unwrap();
    assert_ne!(o.stdout, plain.stdout, "the override changed nothing");
}

/// `compare` compares a rule change, seat for seat: a 2-player and a
/// 4-player scenario, or B with another strategy in a seat, are refused
/// with the difference named, before anything is played or written.
#[test]
fn compare_refuses_scenarios_with_other_seats_or_players_naming_the_difference() {
    use empires::study::compare::comparable;
    let four = Scenario::embedded_default();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/duel.toml");
    let duel =
        empires::scenario::load_str(&std::fs::read_to_string(path).unwrap(), &empires::scenario::Source::file(path))
            .unwrap();
    let e = comparable(("default", &four), ("duel", &duel)).unwrap_err();
    assert_eq!(e.class(), empires::error::Class::Input);
    assert_eq!(
        e.message(),
        "default has 4 seats and duel has 2: a paired comparison needs the same seats (compare a scenario with a variant of itself)"
    );
    let mut other = four.clone();
    other.players[2].strategy = "tuned".into();
    let e = comparable(("a", &four), ("b", &other)).unwrap_err();
    assert!(
        e.message().starts_with(&format!(
            "the players differ (seat 2 plays {} in a and tuned in b)",
            four.players[2].strategy
        )),
        "{e}"
    );
    assert_eq!(comparable(("a", &four), ("b", &four.clone())), Ok(()));

    let root = env!("CARGO_MANIFEST_DIR");
    let out = tmp("cmp-seats");
    let o = bin()
        .args(["compare", &format!("{root}/scenarios/default.toml"), &format!("{root}/scenarios/duel.toml"), "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("has 4 seats and duel has 2"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.exists(), "nothing written");
    let o = bin()
        .args(["compare", "--vary", "players[2].strategy=tuned", "--campaigns", "10", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("the players differ (seat 1 plays"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // With one strategy in every seat, the same pair compares.
    let o = bin()
        .args(["compare", "--vary", "players[2].strategy=tuned", "--players", "balanced", "--campaigns", "10", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
}

/// `compare RUN_A RUN_B` reads two finished runs and plays nothing: on the
/// same seeds its paired rows are those of `compare` playing the same two
/// variants, the combat metrics per kind included when both runs kept
/// their combats (`--detail combats`), and runs that cannot be paired are
/// refused, naming why.
#[test]
fn compare_of_finished_runs_equals_compare_of_their_scenarios() {
    let (ra, rb) = (tmp("runs-a"), tmp("runs-b"));
    let run = |d: &std::path::Path, extra: &[&str]| {
        let o = bin()
            .args(["run", "--campaigns", "300", "--seed", "5", "--quiet", "--out"])
            .arg(d)
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(&ra, &["--detail", "combats"]);
    run(&rb, &["--set", "economy.pillage=3D6x10", "--detail", "combats"]);
    let o = bin().arg("compare").arg(&ra).arg(&rb).arg("--out").arg(tmp("runs-cmp")).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let from_runs = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        from_runs.contains(
            "finished runs, nothing played: campaigns 0..300 of master seed 5 in both, paired campaign by campaign; \
             combat metrics per kind from both runs' combats.parquet"
        ),
        "{from_runs}"
    );
    let o = bin()
        .args(["compare", "--vary", "economy.pillage=3D6x10", "--campaigns", "300", "--seed", "5", "--quiet", "--out"])
        .arg(tmp("runs-live"))
        .output()
        .unwrap();
    assert!(o.status.success());
    let live = String::from_utf8_lossy(&o.stdout).to_string();
    // Every row of the table agrees whole, combat metrics per kind included:
    // values, differences, intervals, adjusted p (one Holm family of the
    // same size), detectable change and verdict.
    let rows = |t: &str| -> Vec<String> {
        t.lines()
            .skip_while(|l| !l.trim_start().starts_with("metric "))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    };
    let strip = |t: &str, a: &str, b: &str| t.replace(a, "A").replace(b, "B");
    let (ra_s, rb_s) = (ra.display().to_string(), rb.display().to_string());
    let from_runs = strip(&from_runs, &ra_s, &rb_s);
    let live = strip(&live, "default with economy.pillage=3D6x10", "B").replace("default", "A");
    let combat = |t: &str| rows(t).into_iter().filter(|l| l.starts_with("siege: assaults")).count();
    assert_eq!((combat(&live), combat(&from_runs)), (1, 1), "{from_runs}");
    assert_eq!(rows(&from_runs), rows(&live));
    // A run without its combats gives the other metrics, and says why not these.
    let rd = tmp("runs-d");
    let o = bin().args(["run", "--campaigns", "50", "--seed", "5", "--quiet", "--out"]).arg(&rd).output().unwrap();
    assert!(o.status.success());
    let o = bin().arg("compare").arg(&rd).arg(&rb).arg("--out").arg(tmp("runs-cmp-d")).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("no combat metrics: they need both runs made with `empires run --detail combats`"), "{text}");
    assert_eq!(rows(&text).iter().filter(|l| l.starts_with("siege:")).count(), 0, "{text}");
    // Another seed, or flags that cannot apply to finished runs, are refused.
    let rc = tmp("runs-c");
    let o = bin().args(["run", "--campaigns", "300", "--seed", "6", "--quiet", "--out"]).arg(&rc).output().unwrap();
    assert!(o.status.success());
    let o = bin().arg("compare").arg(&ra).arg(&rc).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("master seed 5"), "{}", String::from_utf8_lossy(&o.stderr));
    let o = bin().arg("compare").arg(&ra).arg(&rb).args(["--vary", "costs.capture=3"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--vary cannot apply"));
}

/// A change that touches nothing the players do (an analysis-only key)
/// plays exactly A's games: the page says so, no row claims "±0.0" as what
/// it detects, and a metric that varies shows what a reshuffling change
/// would need.
#[test]
fn compare_of_identical_games_says_so_and_claims_no_zero_power() {
    let out = tmp("identical");
    let duel = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/duel.toml");
    let o = bin()
        .args(["compare", "--scenario", duel, "--vary", "tables.siege_army_extra=2", "--campaigns", "60", "--quiet"])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(!text.contains("±0.0 ") && !text.contains("±0.00 "), "{text}");
    let line = text.lines().find(|l| l.contains("win rate: seat 0")).unwrap();
    assert!(line.contains(" pts if reshuffled"), "{line}");
    assert!(text.contains("\"if reshuffled\": every campaign gave B the same value as A"), "{text}");
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("plays exactly the games of"), "the page's answer says the games are the same");
    let _ = std::fs::remove_dir_all(&out);
}

/// The page's answer quotes the win rates' detectable differences as the
/// table prints them, not a smaller figure from another metric.
#[test]
fn compare_answer_quotes_the_tables_win_rate_limits() {
    let out = tmp("limits");
    let duel = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/duel.toml");
    let o = bin()
        .args(["compare", "--scenario", duel, "--vary", "economy.pillage=2D6x11", "--campaigns", "40", "--quiet"])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let limits: Vec<f64> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("win rate:"))
        .filter_map(|l| l.split('±').nth(1)?.split(" pts").next()?.trim().parse().ok())
        .collect();
    assert!(!limits.is_empty(), "{text}");
    let (lo, hi) = limits.iter().fold((f64::INFINITY, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    let want = if format!("{lo:.1}") == format!("{hi:.1}") {
        format!("about ±{lo:.1} points of win rate")
    } else {
        format!("±{lo:.1} to ±{hi:.1} points of win rate")
    };
    assert!(
        page.contains("No detectable shift: no metric of duel with economy.pillage=2D6x11 differs detectably"),
        "{page}"
    );
    assert!(page.contains(&want), "{want} in the answer: {text}");
    // The siege metrics rest on W-07's reading, named in the text and the
    // page with the key that flips it.
    for shown in [&text[..], &page[..]] {
        assert!(shown.contains("what these metrics rest on"), "{shown}");
        assert!(
            shown.contains(
                "W-07 (Assault adds nothing to a siege assault; --set army.formations.assault_in_sieges=true flips it)"
            ),
            "{shown}"
        );
    }
    let none = empires::report::study::metrics::rests_on(&[empires::study::metrics::Metric::MeanSize]);
    assert_eq!(none, "", "no reading under a metric that rests on none");
    let _ = std::fs::remove_dir_all(&out);
}

/// Best-response searches that all return the same figure measure none of
/// the search's variance: the output warns instead of claiming it.
#[test]
fn best_response_searches_that_agree_exactly_are_flagged() {
    use empires::report::study::restrict::search_spread_warning;
    let same = search_spread_warning(&[0.012, 0.012, 0.012], 0.0).unwrap();
    assert!(same.contains("all 3 searches returned the same figure (+1.2)"), "{same}");
    assert!(same.contains("the interval holds the evaluation's alone"), "{same}");
    let within = search_spread_warning(&[0.010, 0.012, 0.011], 0.0).unwrap();
    assert!(within.contains("differ by no more than the evaluation's noise (τ estimated 0)"), "{within}");
    assert_eq!(search_spread_warning(&[0.001, 0.003, 0.021], 0.007), None);
    assert_eq!(search_spread_warning(&[0.012], f64::NAN), None, "one search claims no search variance");
}

/// Every page that shows a share of gold says how it is averaged: the mean
/// of each campaign's share, not the pooled share.
#[test]
fn every_page_that_shows_a_share_defines_it() {
    let def = "share of gold from mines: the mean over campaigns of each campaign's share of its gold";
    let duel = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/duel.toml");
    let out = tmp("share-compare");
    let o = bin()
        .args(["compare", "--scenario", duel, "--vary", "costs.capture=3", "--campaigns", "20", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains(def), "compare's text");
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("not the pooled share of all campaigns"), "compare's page");
    let out = tmp("share-sweep");
    let o = bin()
        .args(["sweep", "--scenario", duel, "--values", "costs.capture=2,3", "--metric", "share of gold from mines"])
        .args(["--campaigns", "20", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains(def), "sweep's text");
    assert!(std::fs::read_to_string(out.join("index.html")).unwrap().contains("not the pooled share"), "sweep's page");
    let out = tmp("share-sensitivity");
    let o = bin()
        .args(["sensitivity", "--scenario", duel, "--metric", "share of gold from mines"])
        .args(["--inputs", "costs.capture=1..3", "--trajectories", "2", "--campaigns", "10", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains(def), "sensitivity's text");
    assert!(std::fs::read_to_string(out.join("index.html")).unwrap().contains("not the pooled share"), "its page");
    let out = tmp("share-solve");
    let o = bin()
        .args(["solve", "--scenario", duel, "--range", "costs.capture=1..3"])
        .args(["--target", "share of gold from mines = 0.5", "--campaigns", "20", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains(def), "solve's text: {}", String::from_utf8_lossy(&o.stdout));
    // The experiment's observed shares are pooled, and say so.
    let out = tmp("share-experiment");
    let o = bin()
        .args(["experiment", "mine-vs-pillage", "--scenario", duel, "--campaigns", "20", "--loss-campaigns", "20"])
        .args(["--readings-campaigns", "20", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("gold came from (each strategy's gold from each source over all its gold"), "{text}");
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("pooled (not a mean of per-campaign shares)"), "the experiment's page");
    for d in ["share-compare", "share-sweep", "share-sensitivity", "share-solve", "share-experiment"] {
        let _ = std::fs::remove_dir_all(tmp(d));
    }
}

/// Question 3 sees a table change in play: siege row 1's army loss 2 -> 1
/// (W-10) moves the assaults and the siege attacker's losses, on the same
/// seeds; the answer line says so first, with the table's own figures, and
/// says what did not move.
#[test]
fn w10_compare_sees_a_siege_table_change_in_the_combat_metrics() {
    let dir = tmp("siege-row-1");
    let b = crate::tables::siege_row_1_costs_1(&dir);
    let a = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/default.toml");
    let o = bin()
        .arg("compare")
        .arg(a)
        .arg(&b)
        .args(["--campaigns", "2000", "--quiet", "--out"])
        .arg(dir.join("out"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("Question 3, did the change shift the balance? Yes: siege1 moves 2 of 42 metrics detectably against default: siege: attacker losses -0.014 (-0.020 to -0.008); siege: assaults +0.009 (+0.004 to +0.014) (2000 campaigns each, master seed 1; Holm over 42 metrics"), "{first}");
    assert!(
        first.contains("no combat metric of army, coastal, spy, spy_vs_spy moved; naval not played on either side."),
        "{first}"
    );
    let row = text.lines().find(|l| l.trim_start().starts_with("siege: assaults")).unwrap();
    assert!(
        row.contains(" 0.393 [")
            && row.contains(" 0.402 [")
            && row.contains("+0.004 to +0.014")
            && row.trim_end().ends_with("higher"),
        "{row}"
    );
    let page = std::fs::read_to_string(dir.join("out/index.html")).unwrap();
    assert!(page.contains(&format!("<p class=\"answer\">{first}</p>")), "the page opens with the same line");
    let _ = std::fs::remove_dir_all(&dir);
}

/// E-09, E-15: a mine and a pillage both cost 1 EP. Built in season 11 of
/// 12, a river mine gets one payday of 70 against a 70-gold pillage: a
/// tie, not a win; built in 12 it gets none. At a 12% loss chance a season
/// two paydays are needed, so the last winning season is 10 and none ties.
#[test]
fn e09_e15_a_mine_that_matches_a_pillage_ties_it() {
    use empires::study::mine_pillage::{against_pillage, seasons_where};
    use std::cmp::Ordering::{Equal, Greater, Less};
    let c = against_pillage(70.0, 70.0, 0.0, 12);
    assert_eq!(seasons_where(&c, Greater).as_deref(), Some("1 to 10"));
    assert_eq!(seasons_where(&c, Equal).as_deref(), Some("11"));
    assert_eq!(seasons_where(&c, Less).as_deref(), Some("12"));
    let c = against_pillage(70.0, 70.0, 0.12, 12);
    assert_eq!((seasons_where(&c, Greater).as_deref(), seasons_where(&c, Equal)), (Some("1 to 10"), None));
    // Small rates keep the digits they need.
    use empires::report::number::pct_small as pct;
    assert_eq!(
        [pct(0.0), pct(0.123), pct(0.0123), pct(0.00123), pct(0.000075)],
        ["0.0%", "12.3%", "1.2%", "0.12%", "0.0075%"]
    );
}

/// Sweep's answer says what did not move as compare's does: the win rates
/// that did not move with the detectable change its own table prints (the
/// same ±), and the combat kinds none of whose metrics moved.
#[test]
fn sweep_answer_says_what_did_not_move_with_its_tables_plus_minus() {
    let out = tmp("sw-still");
    let o = bin()
        .args(["sweep", "--values", "costs.capture=2,3", "--campaigns", "100", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("Question 3, did the change shift the balance?"), "{first}");
    // The ± of the win-rate rows that did not move, as the table prints them.
    let pm: Vec<f64> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("costs.capture=3") && l.contains("win rate"))
        .filter(|l| !l.trim_end().ends_with("higher") && !l.trim_end().ends_with("lower"))
        .map(|l| l.split('±').nth(1).unwrap().split(" pts").next().unwrap().parse().unwrap())
        .collect();
    assert!(!pm.is_empty(), "{text}");
    let (lo, hi) = pm.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
    let said = if format!("{lo:.1}") == format!("{hi:.1}") {
        format!("could hide a change under about ±{lo:.1} points of win rate")
    } else {
        format!("could hide a change under ±{lo:.1} to ±{hi:.1} points of win rate")
    };
    assert!(first.contains(&said), "{said} in: {first}");
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains(&format!("<p class=\"answer\">{first}</p>")), "the page opens with the same line");
    let _ = std::fs::remove_dir_all(&out);
}

/// A best response starts from a weighted player: a mixture (the strong
/// field) from its heaviest member, a weighted player from itself; a
/// random or searching player is refused with a reason.
#[test]
fn a_best_response_starts_from_the_heaviest_member_of_the_strong_field() {
    use empires::strength::best_response::weighted_start;
    let path = format!("{}/scenarios/duel.toml", env!("CARGO_MANIFEST_DIR"));
    let duel =
        empires::scenario::load_str(&std::fs::read_to_string(&path).unwrap(), &empires::scenario::Source::file(&path))
            .unwrap();
    let eq = duel.strategy("equilibrium").unwrap();
    let heaviest = (0..eq.members.len()).max_by(|&a, &b| eq.weights[a].total_cmp(&eq.weights[b])).unwrap();
    assert_eq!(weighted_start(&duel, &eq).unwrap(), duel.strategy(&eq.members[heaviest]).unwrap());
    let default = Scenario::embedded_default();
    let tuned = default.strategy("tuned").unwrap();
    assert_eq!(weighted_start(&default, &default.strategy("equilibrium").unwrap()).unwrap(), tuned);
    assert_eq!(weighted_start(&default, &tuned).unwrap(), tuned);
    for name in ["random", "search"] {
        let e = weighted_start(&default, &default.strategy(name).unwrap()).unwrap_err().to_string();
        assert!(e.contains("cannot start from a"), "{name}: {e}");
    }
}

/// `experiment worth`: every ask, given and taken, measured on the
/// candidate that gained most on selection seeds, again on held-out seeds;
/// the same figures on any thread count.
#[test]
fn worth_measures_each_ask_on_the_strongest_candidate_held_out() {
    use empires::rules::setup::Gift;
    use empires::study::worth;
    let sc = Scenario::embedded_default();
    let cands = vec!["balanced".to_string(), "miner".to_string()];
    let pool = |n| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap();
    let s = pool(2).install(|| worth::run(&sc, &cands, "balanced", 3, 40, None).unwrap());
    assert_eq!(s, pool(1).install(|| worth::run(&sc, &cands, "balanced", 3, 40, None).unwrap()));
    assert_eq!(s.rows.len(), worth::asks(&sc).len());
    assert_eq!(worth::asks(&sc)[..2], [Gift::Gold(100), Gift::Gold(-100)], "gold by one unit's price");
    for w in &s.rows {
        assert_eq!(w.diff.n, 40);
        assert_eq!(w.selection.len(), 2);
        // The candidate chosen is the one the selection seeds favoured.
        let best = w.selection.iter().map(|(_, m)| m.mean).fold(f64::NEG_INFINITY, f64::max);
        let chosen = w.selection.iter().find(|(c, _)| *c == w.player).unwrap();
        assert_eq!(chosen.1.mean, best, "{:?}", w.gift);
        // The held-out figure is that player's own paired difference.
        assert!((w.diff.mean - (w.wins as f64 - w.base_wins as f64) / 40.0).abs() < 1e-12);
    }
    assert_ne!(s.selection_seed, s.seed);
    // A mixture of one live member is that member: no selection between copies.
    assert_eq!(worth::default_candidates(&sc, "equilibrium"), vec!["tuned".to_string()]);
    let out = tmp("worth");
    let o = bin()
        .args(["experiment", "worth", "--campaigns", "20", "--field", "balanced", "--candidates", "balanced"])
        .args(["--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("What is a resource worth?") && first.contains("one candidate, balanced"), "{first}");
    assert!(first.contains("no exploitability is stated for it"), "{first}");
    assert!(out.join("worth.csv").exists());
    let o = bin().args(["experiment", "worth", "--players", "tuned"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// `experiment worth --best-response`: each ask gets a best response
/// fitted with it, a candidate for that ask alone, selected like the
/// others on selection seeds and measured held out; the same figures on
/// any thread count. Its tuning plays the gifted game: a `Problem` with
/// `given` wins exactly what the lineup with that gift wins.
#[test]
fn worth_fits_a_best_response_with_each_gift() {
    use empires::rules::setup::Gift;
    use empires::sim::lineup::Lineup;
    use empires::strength::tune::{Field, Objective, Problem, Settings};
    use empires::study::worth;
    let sc = Scenario::embedded_default();
    let b = best_response::Budget {
        generations: 1,
        per_eval: 8,
        population: Some(2),
        sigma: 0.1,
        probe_campaigns: 0,
        family: best_response::Family::Weighted,
    };
    let cands = vec!["balanced".to_string()];
    let pool = |n| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap();
    let s = pool(2).install(|| worth::run(&sc, &cands, "balanced", 5, 20, Some(&b)).unwrap());
    assert_eq!(s, pool(1).install(|| worth::run(&sc, &cands, "balanced", 5, 20, Some(&b)).unwrap()));
    let asks = worth::asks(&sc);
    let fitted = s.fitted.as_ref().unwrap();
    assert_eq!(fitted.names, asks.iter().map(|&g| worth::fitted_name(g)).collect::<Vec<_>>());
    assert_eq!(fitted.names[2], "fitted with +1 unit");
    assert_eq!(s.rows.len(), asks.len());
    for (k, w) in s.rows.iter().enumerate() {
        // Two candidates: the given one and the ask's own fitted player,
        // never another ask's.
        let seen: Vec<&str> = w.selection.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(seen, ["balanced", fitted.names[k].as_str()], "{:?}", w.gift);
        let best = w.selection.iter().map(|(_, m)| m.mean).fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(w.selection.iter().find(|(c, _)| *c == w.player).unwrap().1.mean, best);
    }
    // The tuning's games carry the gift: the problem's wins are the gifted
    // lineup's, and differ from the ungifted ones on these seeds.
    let settings = |given| Settings {
        start: "balanced".into(),
        field: Field::Fixed(vec!["balanced".into()]),
        keys: vec!["capture".into()],
        per_eval: 8,
        generations: 1,
        population: 2,
        sigma: 0.1,
        seed: 1,
        vary: Vec::new(),
        variants: 0,
        gift_gold: 0,
        given,
        objective: Objective::Wins,
        start_at: None,
    };
    let me = sc.strategy("balanced").unwrap();
    let field = vec![me.clone()];
    let gift = Gift::Units(-1);
    let p = Problem::new(&sc, settings(Some(gift))).unwrap();
    let got = p.wins_against(&me, &field, 9, 40).unwrap();
    let lineup = Lineup::new(&sc, &[me.clone(), me.clone(), me.clone(), me.clone()]).unwrap();
    let want = lineup.clone().with_gift(0, gift).wins(9, 0..40).unwrap();
    assert_eq!(got.by_slot, want.by_slot);
    assert_ne!(got.by_slot, lineup.wins(9, 0..40).unwrap().by_slot, "a unit fewer changes these 40 games");
    let plain = Problem::new(&sc, settings(None)).unwrap();
    assert_eq!(plain.wins_against(&me, &field, 9, 40).unwrap().by_slot, lineup.wins(9, 0..40).unwrap().by_slot);
}

/// Runs of `scenario` with `args`, as `empires run` writes them, into `dir`.
fn run_into(dir: &std::path::Path, args: &[&str]) {
    let o = bin().arg("run").args(args).args(["--quiet", "--out"]).arg(dir).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// `compare` answers for its players only, so its answer names what each
/// side's players never (or almost never) did: with `--players tuned`,
/// every seat of A and of B plays `tuned`, and each side's parts are read
/// from its own campaigns, the very counts `empires run` of the same
/// scenario, players and seeds records in its manifest. The line ends the
/// answer in the terminal and on the page, and `compare.json` holds it with
/// each side's parts; `compare RUN_A RUN_B` reads them from the runs.
#[test]
fn compare_names_what_each_sides_players_never_did() {
    use empires::report::manifest::Manifest;
    use empires::study::exercised::{sides, unused};
    let dir = tmp("never");
    let (ra, rb, out) = (dir.join("a"), dir.join("b"), dir.join("cmp"));
    run_into(&ra, &["--players", "tuned", "--campaigns", "40"]);
    run_into(&rb, &["--players", "tuned", "--set", "costs.capture=3", "--campaigns", "40"]);
    let (ca, cb) = (Manifest::read(&ra).unwrap().coverage, Manifest::read(&rb).unwrap().coverage);
    assert_eq!(ca.by_strategy.keys().collect::<Vec<_>>(), ["tuned"], "the seated players' counts");
    let want = sides(&[("A (default)", &ca, 40), ("B (default with costs.capture=3)", &cb, 40)]).unwrap();
    // These players build no mine in either variant: the line says so.
    assert!(want.contains(") built a mine (0), ") && want.contains("; in the 40 campaigns of B ("), "{want}");
    let o = bin()
        .args(["compare", "--vary", "costs.capture=3", "--players", "tuned", "--campaigns", "40", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("Question 3, did the change shift the balance?"), "{first}");
    assert!(first.ends_with(&format!(". {want}.")), "the answer ends with what its players never did: {first}");
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains(&format!("<p class=\"answer\">{first}</p>")), "the page's answer is the same line");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("compare.json")).unwrap()).unwrap();
    assert_eq!(json["answer"], first);
    assert_eq!(json["never_played"], want);
    for (side, cov) in [("a", &ca), ("b", &cb)] {
        let parts: Vec<serde_json::Value> =
            unused(cov).iter().map(|u| serde_json::json!({ "part": u.part.did, "times": u.times })).collect();
        assert_eq!(json[side]["never_played"], serde_json::Value::Array(parts), "{side}");
        assert_eq!(json[side]["campaigns"], 40);
    }
    // Two finished runs: each side's parts from its manifest.
    let o = bin().arg("compare").arg(&ra).arg(&rb).arg("--out").arg(dir.join("runs")).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let first = String::from_utf8_lossy(&o.stdout).lines().next().unwrap().to_string();
    let labels = (format!("A ({})", ra.display()), format!("B ({})", rb.display()));
    let want = sides(&[(&labels.0, &ca, 40), (&labels.1, &cb, 40)]).unwrap();
    assert!(first.ends_with(&format!(" {want}.")), "{first}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A metric a campaign can lack (a siege's attacker win rate, with no
/// siege) is each side's mean over all its campaigns with it, and its
/// difference is paired over the campaigns with it in both: the row says
/// each count, read here from the runs' own combats, so B − A is not read
/// as B's mean minus A's. Each side's mean carries its 95% interval over
/// campaigns (mean empire size: from the runs' players).
#[test]
fn compare_states_each_sides_campaigns_and_the_paired_ones() {
    use empires::report::dataset::{read_fought, read_players};
    use empires::rules::CombatKind;
    use std::collections::BTreeSet;
    let dir = tmp("paired-n");
    let (ra, rb) = (dir.join("a"), dir.join("b"));
    run_into(&ra, &["--campaigns", "150", "--detail", "combats"]);
    run_into(&rb, &["--campaigns", "150", "--detail", "combats", "--set", "costs.capture=3"]);
    let sieges = |d: &std::path::Path| -> BTreeSet<u64> {
        read_fought(&d.join("combats.parquet"))
            .unwrap()
            .into_iter()
            .filter(|(_, f)| f.kind == CombatKind::Siege)
            .map(|(c, _)| c)
            .collect()
    };
    let (sa, sb) = (sieges(&ra), sieges(&rb));
    let both = sa.intersection(&sb).count();
    assert!(both > 0 && both < sa.len().min(sb.len()) && sa.len() < 150, "{} {} {both}", sa.len(), sb.len());
    let out = dir.join("cmp");
    let o = bin().arg("compare").arg(&ra).arg(&rb).arg("--out").arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let row = text.lines().find(|l| l.trim_start().starts_with("siege: attacker win rate")).unwrap();
    let paired = format!(" (paired over the {both} campaigns with a siege in both)");
    for said in [format!("] ({} campaigns)", sa.len()), format!("] ({} campaigns)", sb.len()), paired.clone()] {
        assert!(row.contains(&said), "{said:?} in {row}");
    }
    assert!(
        text.contains(
            "is averaged on each side over all the campaigns that have it and paired over the campaigns with it on \
             both sides, as many as its cells say"
        ),
        "{text}"
    );
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains(&paired), "the page's row says it too");
    // A row every campaign has names no count.
    let size = text.lines().find(|l| l.trim_start().starts_with("mean empire size")).unwrap();
    assert!(!size.contains("campaigns)"), "{size}");
    // Each side's mean with its interval, the campaign as the unit.
    let mean_size = |d: &std::path::Path| {
        let rows = read_players(&d.join("players.parquet")).unwrap();
        let per = rows.chunk_by(|x, y| x.campaign == y.campaign);
        empires::stats::mean_interval(
            per.map(|c| c.iter().map(|r| r.empire_size as f64).sum::<f64>() / c.len() as f64),
            0.95,
        )
    };
    for m in [mean_size(&ra), mean_size(&rb)] {
        let cell = format!("{:.2} [{:.2},\u{a0}{:.2}]", m.mean, m.low, m.high);
        assert!(size.contains(&cell), "{cell} in {size}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Question 1's observed shares: each strategy's gold from each source
/// over all its gold, pooled over the baseline's campaigns, with its 95%
/// interval, the campaign as the unit (the ratio estimator's cluster-robust
/// one), computed here from the players of `empires run` on the same
/// scenario, seeds and seating.
#[test]
fn q1_observed_gold_shares_carry_campaign_level_intervals() {
    use empires::report::dataset::read_players;
    use empires::report::number::pct;
    use empires::stats::ratio_interval;
    let dir = tmp("shares");
    let run = dir.join("run");
    run_into(&run, &["--campaigns", "60"]);
    let o = bin()
        .args(["experiment", "mine-vs-pillage", "--campaigns", "60", "--loss-campaigns", "0"])
        .args(["--readings-campaigns", "0", "--quiet", "--out"])
        .arg(dir.join("mvp"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let observed = text.split("3. Observed").nth(1).unwrap();
    assert!(observed.contains("with its 95% interval, the campaign as the unit"), "{observed}");
    let rows = read_players(&run.join("players.parquet")).unwrap();
    let mut strategies: Vec<&str> = rows.iter().map(|r| r.strategy.as_str()).collect();
    strategies.sort();
    strategies.dedup();
    for s in strategies {
        let line = observed.lines().find(|l| l.trim_start().starts_with(&format!("{s} "))).unwrap();
        for k in 0..3 {
            let per = rows.chunk_by(|x, y| x.campaign == y.campaign).map(|c| {
                let of: Vec<_> = c.iter().filter(|r| r.strategy == s).map(|r| r.tally).collect();
                let g = [
                    of.iter().map(|t| t.gold_mines).sum::<i64>() as f64,
                    of.iter().map(|t| t.gold_pillage).sum::<i64>() as f64,
                    of.iter().map(|t| t.gold_loot).sum::<i64>() as f64,
                ];
                (g[k], g.iter().sum())
            });
            let m = ratio_interval(per, 0.95);
            let cell = format!("{} [{},\u{a0}{}]", pct(m.mean), pct(m.low.max(0.0)), pct(m.high.min(1.0)));
            assert!(line.contains(&cell), "{s}, source {k}: {cell} in {line}");
        }
        assert!(line.contains(" 60 "), "the campaigns each share is over: {line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A sweep answers for its players only: its answer names what each
/// cell's players never did, from that cell's own campaigns.
#[test]
fn sweep_names_what_each_cells_players_never_did() {
    let out = tmp("sw-never");
    let o = bin()
        .args(["sweep", "--values", "costs.capture=2,3", "--players", "tuned", "--campaigns", "40", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let first = text.lines().next().unwrap();
    for cell in ["costs.capture=2", "costs.capture=3"] {
        let said = format!("in the 40 campaigns of cell {cell} its players (tuned) never or almost never");
        assert!(first.contains(&said), "{said} in: {first}");
    }
    // `tuned` builds no mine, in either cell.
    assert_eq!(first.matches("built a mine (0)").count(), 2, "{first}");
    assert!(first.ends_with("what it says in play is silent on those."), "{first}");
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains(&format!("<p class=\"answer\">{first}</p>")), "the page opens with the same line");
    let _ = std::fs::remove_dir_all(&out);
}
