//! `empires check`: the balance gate.

use crate::play_cli::bin;
use empires::gate::measure::Measured;
use empires::gate::spec::parse;
use empires::gate::{judge, update};
use std::path::PathBuf;

fn tmp(name: &str, text: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("empires-gate-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn mc(value: f64, se: f64) -> Measured {
    Measured { value, se, low: value - 1.96 * se, high: value + 1.96 * se, exact: false, campaigns: 1000 }
}

#[test]
fn holm_correction_across_baseline_metrics() {
    let text = r#"
alpha = 0.05
[[metric]]
name = "a"
quantity = "mean empire size"
baseline = 10.0
[[metric]]
name = "b"
quantity = "mean empire size"
baseline = 10.0
[[metric]]
name = "c"
quantity = "mean empire size"
baseline = 10.0
tolerance = 0.5
"#;
    let f = parse(text, "b.toml").unwrap();
    // z = 2.5 (p = 0.0124), z = 2.0 (p = 0.0455), z = 4 (p = 6.3e-5) but within tolerance.
    let j = judge(&f, vec![mc(10.25, 0.1), mc(10.2, 0.1), mc(10.4, 0.1)]);
    // Holm: sorted p = 6.3e-5 (c) ≤ 0.05/3 rejected, 0.0124 (a) ≤ 0.05/2 rejected,
    // 0.0455 (b) ≤ 0.05/1 rejected. c moved 0.4 < its tolerance 0.5: passes.
    assert!((j[0].p.unwrap() - 0.012_419).abs() < 1e-5);
    assert_eq!((j[0].pass, j[1].pass, j[2].pass), (false, false, true));
    assert!((j[0].threshold.unwrap() - 0.025).abs() < 1e-12);
    // Without c's tiny p the step-down changes: a at 0.05/2 = 0.025 is
    // rejected, b at 0.05 is too; with alpha 0.02 neither is (0.0124 > 0.01).
    let f2 = parse(&text.replace("alpha = 0.05", "alpha = 0.02"), "b.toml").unwrap();
    let j = judge(&f2, vec![mc(10.25, 0.1), mc(10.2, 0.1), mc(10.0, 0.1)]);
    assert_eq!((j[0].pass, j[1].pass, j[2].pass), (true, true, true));
    assert!(j[0].why.is_empty());
}

#[test]
fn bounds_fail_only_when_the_whole_interval_is_outside() {
    let text = "[[metric]]\nname = \"x\"\nquantity = \"mean empire size\"\nmin = 10.0\nmax = 12.0\n";
    let f = parse(text, "b.toml").unwrap();
    // The interval 9.804–10.196 reaches the bound: pass; 9.5–9.7 does not.
    assert!(judge(&f, vec![mc(10.0 - 0.0001, 0.1)])[0].pass);
    let j = judge(&f, vec![Measured { value: 9.6, se: 0.05, low: 9.5, high: 9.7, exact: false, campaigns: 10 }]);
    assert!(!j[0].pass);
    assert!(j[0].why.contains("below min 10"), "{}", j[0].why);
    // Exact values are compared within 1e-9.
    let text = "[[metric]]\nname = \"t\"\ntable = { kind = \"army\", attacker = 3, defender = 3, value = \"win\" }\nbaseline = 0.4166666666666667\n";
    let f = parse(text, "b.toml").unwrap();
    let exact = |v: f64| Measured { value: v, se: 0.0, low: v, high: v, exact: true, campaigns: 0 };
    assert!(judge(&f, vec![exact(15.0 / 36.0 + 1e-12)])[0].pass);
    assert!(!judge(&f, vec![exact(15.0 / 36.0 + 1e-6)])[0].pass);
}

#[test]
fn update_rewrites_baselines_and_keeps_comments() {
    let text = "# the team's gate\nalpha = 0.01\n\n[[metric]]\nname = \"m\"  # a note\nquantity = \"mean empire size\"\nbaseline = 0   # filled by --update\n";
    let f = parse(text, "b.toml").unwrap();
    let j = judge(&f, vec![mc(11.234567891, 0.05)]);
    let new = update(text, &j).unwrap();
    assert!(new.starts_with("# the team's gate\nalpha = 0.01\n"), "{new}");
    assert!(new.contains("name = \"m\"  # a note"), "{new}");
    assert!(new.contains("baseline = 11.234568   # filled by --update"), "{new}");
    assert!(new.contains("baseline_se = 0.05"), "{new}");
}

#[test]
fn check_cli_passes_fails_and_updates() {
    let file = tmp(
        "gate.toml",
        r#"alpha = 0.01
# Exact: a cell of the army table.
[[metric]]
name = "army P(win) at 3 against 3"
table = { kind = "army", attacker = 3, defender = 3, value = "win" }
min = 0.41
max = 0.42

[[metric]]
name = "miner gold from mines"
campaigns = 300
column = "gold_mines"
group = { strategy = "miner" }
baseline = 0
"#,
    );
    let run = |args: &[&str]| bin().arg("check").arg(&file).args(args).output().unwrap();
    let o = run(&["--update"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read_to_string(&file).unwrap().contains("# Exact: a cell of the army table."));
    let o = run(&["--jobs", "2"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("all 2 metrics pass"), "{out}");
    // The same metric with river mines halved drifts: exit 1, and the line says what moved.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("campaigns = 300", "campaigns = 300\nset = [\"economy.mine.river=1D6x10\"]"))
        .unwrap();
    let o = run(&[]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("FAIL miner gold from mines: moved from the baseline"), "{out}");
    assert!(out.contains("below Holm's threshold"), "{out}");
}

#[test]
fn check_bad_input_is_located() {
    let cases = [
        (
            "[[metric]]\nname = \"x\"\nquantiti = \"mean empire size\"\nmin = 1\n",
            "bad.toml:3:1: unknown field `quantiti`",
        ),
        ("[[metric]]\nname = \"x\"\nquantity = \"mean empire size\"\n", "bad.toml:2:8: metric \"x\": give bounds"),
        (
            "[[metric]]\nname = \"x\"\nmin = 1\n",
            "bad.toml:2:8: metric \"x\": give exactly one of quantity, column, table and solve",
        ),
        (
            "[[metric]]\nname = \"x\"\ncolumn = \"golds\"\nmin = 1\n",
            "bad.toml:3:10: metric \"x\": \"golds\" is not a numeric column",
        ),
        (
            "[[metric]]\nname = \"x\"\nquantity = \"mean empire size\"\nmin = 3\nmax = 1\n",
            "bad.toml:4:7: metric \"x\": min 3 is above max 1",
        ),
    ];
    for (text, want) in cases {
        let f = tmp("bad.toml", text);
        let o = bin().arg("check").arg(&f).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr).replace(&format!("{}", f.display()), "bad.toml");
        assert_eq!(o.status.code(), Some(2), "{text}: {err}");
        assert!(err.contains(want), "{text}\nwanted {want}\ngot {err}");
    }
    // A quantity the scenario does not have: exit 2, naming the known ones.
    let f = tmp("bad2.toml", "[[metric]]\nname = \"x\"\ncampaigns = 10\nquantity = \"win rate: wizard\"\nmin = 0\n");
    let o = bin().arg("check").arg(&f).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not a metric of this scenario (known:"));
    let o = bin().args(["check", "/nonexistent/balance.toml"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn check_measures_a_paired_difference_between_variants() {
    // The miner's gold from mines with river mines halved, minus as shipped:
    // clearly negative, on the same seeds.
    let file = tmp(
        "variant.toml",
        r#"[[metric]]
name = "halving river mines costs the miner"
campaigns = 300
quantity = "gold from mines"
variant = ["economy.mine.river=1D6x10"]
max = 0.0
"#,
    );
    let o = bin().arg("check").arg(&file).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    let line = out.lines().find(|l| l.contains("halving river mines")).unwrap();
    let value: f64 = line.split_whitespace().find_map(|w| w.parse::<f64>().ok().filter(|v| *v < 0.0)).unwrap();
    assert!(value < -50.0, "{line}");
    // The same variant against a bound it cannot meet fails.
    std::fs::write(&file, std::fs::read_to_string(&file).unwrap().replace("max = 0.0", "min = 0.0")).unwrap();
    let o = bin().arg("check").arg(&file).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("is below min 0"));
}

/// The gate watches the meta-game and restricted play: a rule change that
/// makes a strategy dominant, or makes an option worthless, fails CI.
#[test]
fn the_gate_measures_equilibrium_mass_and_a_restriction_value() {
    tmp("gate-duel.toml", include_str!("../../scenarios/duel.toml"));
    let f = tmp(
        "meta.toml",
        r#"
[[metric]]
name = "balanced holds the equilibrium next to random"
scenario = "gate-duel.toml"
quantity = "equilibrium: balanced"
strategies = ["random", "balanced"]
campaigns = 40
min = 0.9

[[metric]]
name = "random gets no alpha-rank mass"
scenario = "gate-duel.toml"
quantity = "alpha-rank: random"
strategies = ["random", "balanced"]
campaigns = 40
max = 0.05

[[metric]]
name = "capturing is worth having"
scenario = "gate-duel.toml"
quantity = "restriction value"
forbid = ["capture"]
players = "balanced"
campaigns = 60
max = 0.0
"#,
    );
    let o = bin().arg("check").arg(&f).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("all 3 metrics pass"), "{text}");
    // A meta-game quantity without its strategies is refused where it stands.
    let bad = tmp("meta-bad.toml", "[[metric]]\nname = \"x\"\nquantity = \"equilibrium: tuned\"\nmin = 0.5\n");
    let o = bin().arg("check").arg(&bad).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("needs `strategies = [...]` listing \"tuned\""));
}
