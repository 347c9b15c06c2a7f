//! The shipped scenarios load, and the embedded default matches its file.

use empires_core::scenario::{Scenario, Source, load_str};

#[test]
fn shipped_scenarios_are_valid() {
    for f in ["default.toml", "duel.toml", "archipelago.toml"] {
        let path = format!("{}/../../scenarios/{f}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let sc = load_str(&text, &Source::file(&path)).unwrap_or_else(|e| panic!("{e}"));
        assert!(sc.players.len() >= 2);
    }
}

#[test]
fn default_toml_spells_out_the_g_defaults() {
    // scenarios/default.toml lists every rule value; it must equal the code's
    // defaults so the file designers read is the truth.
    let sc = Scenario::embedded_default();
    let d = Scenario::default();
    assert_eq!(sc.ep, d.ep);
    assert_eq!(sc.costs, d.costs);
    assert_eq!(sc.buildings, d.buildings);
    assert_eq!(sc.economy, d.economy);
    assert_eq!(sc.recruit, d.recruit);
    assert_eq!(sc.initiative, d.initiative);
    assert_eq!(sc.combat, d.combat);
    assert_eq!(sc.army, d.army);
    assert_eq!(sc.siege, d.siege);
    assert_eq!(sc.naval, d.naval);
    assert_eq!(sc.spy, d.spy);
    assert_eq!(sc.cities, d.cities);
    assert_eq!(sc.movement, d.movement);
    assert_eq!(sc.start, d.start);
    assert_eq!(sc.tables, d.tables);
    assert_eq!(sc.campaign, d.campaign);
    assert_eq!(sc.map.generator(), d.map.generator());
    assert_eq!(sc.strategies, d.strategies, "default.toml changes no archetype");
    assert_eq!(sc.players.len(), 4);
}

#[test]
fn archipelago_is_sea_heavy_with_coastal_capitals() {
    let path = format!("{}/../../scenarios/archipelago.toml", env!("CARGO_MANIFEST_DIR"));
    let sc = load_str(&std::fs::read_to_string(&path).unwrap(), &Source::file(&path)).unwrap();
    let map = empires_core::rules::setup::make_map(&sc, 0).unwrap();
    let sea = map.terrain.iter().filter(|t| !t.is_land()).count();
    assert!(sea > map.land_count as usize, "more sea than land");
    assert!(map.placements.capitals.iter().all(|&c| map.coastal[c as usize]));
    assert!((3..=4).contains(&sc.players.len()));
}

#[test]
fn a_partial_table_keeps_the_other_defaults() {
    let text = "[buildings.castle]\ncost = 2\n\n[cities.capital]\ndefence = 3\n\n[siege.outcomes.pillage]\ngold = 50\n";
    let sc = load_str(text, &Source::file("partial.toml")).unwrap();
    let d = Scenario::default();
    assert_eq!(sc.buildings.castle.cost, 2);
    assert_eq!(sc.buildings.castle.terrain, d.buildings.castle.terrain);
    assert_eq!(sc.buildings.castle.defence, d.buildings.castle.defence);
    assert_eq!((sc.cities.capital.defence, sc.cities.capital.level), (3, 1));
    assert_eq!(sc.siege.outcomes.pillage.gold, 50);
    assert_eq!(sc.siege.outcomes.pillage.influence, 0);
    assert_eq!(sc.siege.outcomes.pillage.stability_change, -2);
}

#[test]
fn a_table_of_rows_replaces_the_default_whole() {
    let text = "[[army.losses]]\nfrom = 0\nwinner_loss = 0\nloser_loss = 2\n";
    let sc = load_str(text, &Source::file("rows.toml")).unwrap();
    assert_eq!(sc.army.losses.rows.len(), 1);
    assert_eq!(sc.army.losses.lookup(9).loser_loss, 2);
}

/// Every leaf key of the defaults, by dotted path (`economy.mine.river`),
/// with its value as TOML. Arrays are leaves.
fn leaves(prefix: &str, v: &toml::Value, out: &mut std::collections::BTreeMap<String, toml::Value>) {
    match v {
        toml::Value::Table(t) => {
            for (k, x) in t {
                let p = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                leaves(&p, x, out);
            }
        }
        x => {
            out.insert(prefix.to_string(), x.clone());
        }
    }
}

/// A row of the key reference of `docs/scenario.md`.
struct Row {
    key: String,
    ty: String,
    default: String,
}

/// The key reference's rows, in document order.
fn documented() -> Vec<Row> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/scenario.md");
    let text = std::fs::read_to_string(path).unwrap();
    let reference = text.split("# Key reference").nth(1).expect("docs/scenario.md has a key reference");
    reference
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            let key = cells.first()?.strip_prefix("| `")?.strip_suffix('`')?;
            let cell = |i: usize| cells.get(i).map(|c| c.trim().to_string());
            Some(Row { key: key.to_string(), ty: cell(1)?, default: cell(2)? })
        })
        .collect()
}

/// A default cell's literal (`` `48` ``, `` `["cities", "die"]` ``) as TOML,
/// when the cell starts with one.
fn literal(cell: &str) -> Option<toml::Value> {
    let lit = cell.strip_prefix('`')?.split('`').next()?;
    let doc: toml::Table = toml::from_str(&format!("v = {lit}")).ok()?;
    doc.get("v").cloned()
}

fn same(a: &toml::Value, b: &toml::Value) -> bool {
    match (a, b) {
        (toml::Value::Float(x), toml::Value::Integer(y)) | (toml::Value::Integer(y), toml::Value::Float(x)) => {
            *x == *y as f64
        }
        (toml::Value::Float(x), toml::Value::Float(y)) => (x - y).abs() < 1e-12,
        (toml::Value::Array(x), toml::Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        _ => a == b,
    }
}

/// The names a `<terrain>`, `<kind>` or `<choice>` in a documented key
/// stands for, in the order the docs list per-name defaults.
fn pattern_names(p: &str) -> &'static [&'static str] {
    match p {
        "<terrain>" => &["plains", "forest", "river", "mountain", "marsh", "sea"],
        "<kind>" => &["castle", "city", "mine", "port", "tower", "bridge"],
        "<choice>" => &["conquer", "federate", "pillage"],
        _ => &[],
    }
}

/// A documented key, expanded: `buildings.<kind>.cost` gives one key per
/// kind; `army.losses[].from` documents the table `army.losses`.
fn expand(key: &str) -> Vec<(String, Option<&'static str>)> {
    if let Some((table, _)) = key.split_once("[]") {
        return vec![(table.to_string(), None)];
    }
    for p in ["<terrain>", "<kind>", "<choice>"] {
        if key.contains(p) {
            return pattern_names(p).iter().map(|n| (key.replace(p, n), Some(*n))).collect();
        }
    }
    vec![(key.to_string(), None)]
}

/// The default a pattern row's cell gives `name`, in the cell's forms:
/// `v1 / v2 / ...` in `pattern_names` order, ``name `v` `` or `` `name = v` ``
/// pairs, `others v`, `all v`. `Some(None)`: documented as absent (`—`).
fn per_name(cell: &str, names: &[&str], name: &str) -> Option<Option<toml::Value>> {
    let clean = |t: &str| -> String { t.replace("**", "").replace('`', "").trim().to_string() };
    let value = |t: &str| -> Option<Option<toml::Value>> {
        let t = clean(t);
        // `(2, not read)`: the value that is there but unused.
        let t = t.strip_prefix('(').map_or(t.clone(), |r| r.split(',').next().unwrap_or("").to_string());
        if t == "—" || t.starts_with("absent") || t.contains("(no yield)") {
            return Some(None);
        }
        let doc: toml::Table = toml::from_str(&format!("v = {t}")).ok()?;
        Some(doc.get("v").cloned())
    };
    let parts: Vec<&str> = cell.split(" / ").collect();
    if parts.len() == names.len() {
        let i = names.iter().position(|n| *n == name)?;
        return value(parts[i]);
    }
    let c = clean(cell);
    if let Some(v) = c.strip_prefix("all ") {
        return value(v);
    }
    for part in c.split(", ") {
        let part = part.trim();
        if let Some(v) = part.strip_prefix(&format!("{name} = ")).or_else(|| part.strip_prefix(&format!("{name} "))) {
            return value(v);
        }
    }
    c.split(", ").find_map(|p| p.trim().strip_prefix("others ")).and_then(value)
}

/// The docs' key reference agrees with the code's defaults: every default
/// the docs write, as a literal or per terrain, kind or siege choice, is the
/// value `Scenario::default()` holds, and every key of the rules' sections
/// has its row. (Archetypes and players are documented by pattern,
/// `strategies.NAME.*` and `players[].*`, and checked with `archetypes.toml`.)
#[test]
fn the_key_reference_in_the_docs_matches_the_defaults() {
    let d = Scenario::default();
    let mut defaults = std::collections::BTreeMap::new();
    leaves("", &toml::Value::try_from(&d).unwrap(), &mut defaults);
    // Without `[map.generate]` the map is generated with its defaults.
    leaves("map.generate", &toml::Value::try_from(d.map.generator()).unwrap(), &mut defaults);
    let docs = documented();
    assert!(docs.len() > 150, "the key reference was read: {} rows", docs.len());
    let mut wrong = Vec::new();
    let mut written = std::collections::BTreeSet::new();
    let mut checked = 0;
    for Row { key, default: cell, .. } in &docs {
        for (k, name) in expand(key) {
            let want = match name {
                Some(n) => {
                    let pattern = ["<terrain>", "<kind>", "<choice>"].into_iter().find(|p| key.contains(p)).unwrap();
                    per_name(cell, pattern_names(pattern), n)
                }
                None => literal(cell).map(Some),
            };
            if key.contains("[]") {
                // A row about one entry of an array of tables.
                written.insert(k);
                continue;
            }
            // The strategy keys are written bare; their default is the
            // `balanced` archetype's, which is `StrategySpec::default()`.
            let k = if !k.contains('.') && !defaults.contains_key(&k) { format!("strategies.balanced.{k}") } else { k };
            let have = defaults.get(&k);
            match (&want, have) {
                (Some(Some(w)), Some(h)) if !same(w, h) => {
                    wrong.push(format!("{k}: the docs say {cell}, the code holds {h}"))
                }
                (Some(None), Some(h)) => wrong.push(format!("{k}: the docs say absent ({cell}), the code holds {h}")),
                (Some(Some(_)), None) => wrong.push(format!("{k}: the docs say {cell}, the code holds nothing")),
                _ => {}
            }
            checked += want.is_some() as usize;
            written.insert(k);
        }
    }
    let missing: Vec<&String> = defaults
        .keys()
        .filter(|k| !k.starts_with("strategies.") && !k.starts_with("players"))
        .filter(|k| !written.contains(k.as_str()))
        .collect();
    assert!(wrong.is_empty(), "defaults that drifted:\n{}", wrong.join("\n"));
    assert!(missing.is_empty(), "keys without a row in docs/scenario.md: {missing:?}");
    assert!(checked > 200, "only {checked} documented defaults could be read");
}

/// The range a type cell states for a numeric key (`integer 1–1000`,
/// `float 0–1`, `integer ≥ 0`), when it states a plain one: (is it an
/// integer, lowest, highest).
fn stated_range(cell: &str) -> Option<(bool, Option<f64>, Option<f64>)> {
    let cell = cell.split(", one key per terrain").next()?;
    let (int, rest) = match cell.split_once(' ') {
        Some(("integer", r)) => (true, r),
        Some(("float", r)) => (false, r),
        _ => return None,
    };
    let num = |s: &str| s.trim().parse::<f64>().ok();
    if let Some(lo) = rest.strip_prefix("≥ ") {
        return Some((int, Some(num(lo)?), None));
    }
    if let Some(hi) = rest.strip_prefix("≤ ") {
        return Some((int, None, Some(num(hi)?)));
    }
    // `-10–10`: the range's dash is an en dash, a sign is a hyphen.
    let (lo, hi) = rest.split_once('–')?;
    Some((int, Some(num(lo)?), Some(num(hi)?)))
}

/// The ranges the docs state are the ranges the checker enforces: for
/// every numeric key with a plain stated range, each end loads and one step
/// past it is refused.
#[test]
fn the_ranges_in_the_docs_are_the_ranges_checked() {
    use empires_core::scenario::{DEFAULT_TOML, load_with_overrides};
    let loads = |key: &str, v: f64, int: bool| {
        let v = if int { format!("{}", v as i64) } else { format!("{v:?}") };
        load_with_overrides(DEFAULT_TOML, &Source::embedded("default.toml"), &[(key.to_string(), v)]).is_ok()
    };
    let mut wrong = Vec::new();
    let mut probed = 0;
    for Row { key, ty, .. } in documented() {
        let Some((int, lo, hi)) = stated_range(&ty) else { continue };
        if key.contains("[]") {
            continue;
        }
        for (k, _) in expand(&key) {
            // Strategy keys are written bare; `lookahead` takes all of them.
            let k = if k.contains('.') { k } else { format!("strategies.lookahead.{k}") };
            let step = if int { 1.0 } else { 1e-6 };
            if let Some(lo) = lo {
                if !loads(&k, lo, int) {
                    wrong.push(format!("{k} = {lo}: the docs allow it, the checker refuses it"));
                }
                if loads(&k, lo - step, int) {
                    wrong.push(format!("{k} = {}: below the docs' range, but it loads", lo - step));
                }
            }
            if let Some(hi) = hi {
                if !loads(&k, hi, int) {
                    wrong.push(format!("{k} = {hi}: the docs allow it, the checker refuses it"));
                }
                if loads(&k, hi + step, int) {
                    wrong.push(format!("{k} = {}: above the docs' range, but it loads", hi + step));
                }
            }
            probed += 1;
        }
    }
    assert!(probed > 100, "only {probed} ranges probed");
    assert!(wrong.is_empty(), "ranges that drifted:\n{}", wrong.join("\n"));
}
