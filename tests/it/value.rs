//! The search's learned value (`strength::value`, `empires value`): the
//! command writes coefficients a scenario takes as they are, they change
//! what a cut-short search plays, and a wrong count is a located error.

use crate::play_cli::bin;
use empires::scenario::{Scenario, VALUE_FEATURES};
use empires::sim::lineup::Lineup;
use empires::strength::value::{collect, fit};

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("empires-it-value-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Self-play positions: every seat at the end of every season but the
/// last, labelled with the campaign's winner (one winner a campaign), the
/// same whatever the threads; the fit on them beats a coin flip.
#[test]
fn value_positions_are_every_seat_every_season_with_one_winner() {
    let sc = Scenario::embedded_default();
    let samples = collect(&sc, "tuned", 3, 0..20).unwrap();
    let seats = sc.players.len();
    assert_eq!(samples.len() % seats, 0);
    let won = samples.iter().filter(|s| s.won).count();
    assert_eq!(won * seats, samples.len(), "one winner among the seats of every position's season");
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    assert_eq!(one.install(|| collect(&sc, "tuned", 3, 0..20)).unwrap(), samples);
    let f = fit(&samples).unwrap();
    let j = empires::strength::value::judge(&f.coef, &collect(&sc, "tuned", 4, 0..20).unwrap(), seats);
    assert!(j.fit < j.seats_only, "{j:?}");
}

/// `empires value` writes a TOML entry a scenario takes with `--set`; a
/// search cut short at one season plays differently with it; a value of
/// the wrong length is refused with its key named.
#[test]
fn value_command_writes_coefficients_the_search_plays_by() {
    let duel = format!("{}/scenarios/duel.toml", env!("CARGO_MANIFEST_DIR"));
    let out = tmp("cmd");
    let o = bin()
        .args(["value", "--scenario", &duel, "--campaigns", "200", "--held-out", "50", "--seed", "5", "--quiet"])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("held out (50 campaigns") && text.contains("log loss"), "{text}");
    let toml = std::fs::read_to_string(out.join("value.toml")).unwrap();
    let line = toml.lines().find(|l| l.starts_with("value = [")).expect("a value line");
    let coefs = line.trim_start_matches("value = ");
    assert_eq!(coefs.split(',').count(), VALUE_FEATURES, "{line}");
    assert!(toml.contains("[strategies.search]") && toml.contains("empires value --strategy tuned --campaigns 200"));

    // The coefficients change what a search cut short at one season plays.
    let set = |extra: &[String]| {
        let mut args: Vec<String> = vec!["strategies.search.horizon=1".into()];
        args.extend_from_slice(extra);
        empires::cli::load_scenario(Some(std::path::Path::new(&duel)), &args).unwrap()
    };
    let plain = set(&[]);
    let valued = set(&[format!("strategies.search.value={coefs}")]);
    assert_eq!(valued.strategy("search").unwrap().value.len(), VALUE_FEATURES);
    let games = |sc: &Scenario| {
        let spec = sc.strategy("search").unwrap();
        let other = sc.strategy("tuned").unwrap();
        Lineup::new(sc, &[spec, other]).unwrap().games(9, 0..4).unwrap()
    };
    assert_ne!(games(&plain), games(&valued), "the learned value changed no game");

    let o = bin()
        .args(["run", "--scenario", &duel, "--campaigns", "2", "--set", "strategies.search.value=[1.0, 2.0]"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("strategies.search.value") && err.contains(&format!("must hold {VALUE_FEATURES} coefficients")),
        "{err}"
    );
}
