//! `docs/scenario.md`'s key reference and `scenarios/default.toml` come from
//! the code. Each scenario key is declared once, with its default, in a
//! `section!` of `scenario/mod.rs`, and its range in `scenario/ranges.rs`
//! (the rules) or `scenario/knobs.rs` (the strategies). The default and
//! type cells of the docs' tables and every value of `default.toml` are
//! generated from those declarations, in the style of rust-analyzer's
//! source generation: the tests here regenerate both files, and when either
//! differs they write the regenerated file and fail, so a changed default
//! shows up as a diff to review and commit, never as a silent drift.
//!
//! What stays hand-written is prose: each row's rule IDs and meaning, and
//! the comments of `default.toml`. A cell is rewritten only when it states
//! a different value from the code, so the docs keep their own layout
//! (`0.40`, a bold `**true**`, "not read" notes) where it is right.

use empires_core::scenario::{Scenario, Source, knobs, ranges};

/// Write `want` to `path` when the file differs, then fail: the change is
/// now in the working tree, to review and commit. On a clean clone (CI)
/// the test fails, because the committed file is stale.
fn ensure_file_contents(path: &str, want: &str) {
    let have = std::fs::read_to_string(path).unwrap();
    if have == want {
        return;
    }
    let changed: Vec<String> =
        have.lines().zip(want.lines()).filter(|(a, b)| a != b).take(20).map(|(a, b)| format!("- {a}\n+ {b}")).collect();
    std::fs::write(path, want).unwrap();
    panic!(
        "{path} was not what the code declares; it has been regenerated. Review the change and commit it.\n{}",
        changed.join("\n")
    );
}

fn repo_file(rel: &str) -> String {
    format!("{}/../../{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// The code's defaults as dotted leaves, with the generated map's defaults
/// under `map.generate` (without `[map.generate]` the map is generated
/// with them).
fn code_defaults() -> std::collections::BTreeMap<String, toml::Value> {
    let d = Scenario::default();
    let mut defaults = std::collections::BTreeMap::new();
    leaves("", &toml::Value::try_from(&d).unwrap(), &mut defaults);
    leaves("map.generate", &toml::Value::try_from(d.map.generator()).unwrap(), &mut defaults);
    defaults
}

/// A documented key as the code's dotted path. The strategy keys are
/// written bare; their default is the `balanced` archetype's, which is
/// `StrategySpec::default()`.
fn code_path(k: String, defaults: &std::collections::BTreeMap<String, toml::Value>) -> String {
    if !k.contains('.') && !defaults.contains_key(&k) { format!("strategies.balanced.{k}") } else { k }
}

/// A value as the docs and TOML write it.
fn render(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("{s:?}"),
        toml::Value::Float(f) if f.fract() == 0.0 => format!("{f:.1}"),
        toml::Value::Array(a) => format!("[{}]", a.iter().map(render).collect::<Vec<_>>().join(", ")),
        x => x.to_string(),
    }
}

/// The range a key's declaration gives it: (integer, lowest, highest;
/// `None` when open).
fn declared_range(k: &str) -> Option<(bool, Option<f64>, Option<f64>)> {
    let (integer, lo, hi) = match ranges::rule_key(k) {
        Some(r) => (r.integer, r.lo, r.hi),
        None => {
            let r = knobs::knob(k.strip_prefix("strategies.balanced.")?)?;
            (r.integer, r.lo, r.hi)
        }
    };
    Some((integer, lo.is_finite().then_some(lo), hi.is_finite().then_some(hi)))
}

fn bound(v: f64) -> String {
    if v.fract() == 0.0 { format!("{}", v as i64) } else { format!("{v}") }
}

/// The type cell with its plain range rewritten to the declared one;
/// `None` when it already states it, or states no plain range.
fn type_cell(key: &str, ty: &str, defaults: &std::collections::BTreeMap<String, toml::Value>) -> Option<String> {
    let stated = stated_range(ty)?;
    let (k, _) = expand(key).into_iter().next()?;
    let declared = declared_range(&code_path(k, defaults))?;
    if stated == declared {
        return None;
    }
    let (int, lo, hi) = declared;
    let range = match (lo, hi) {
        (Some(lo), None) => format!("≥ {}", bound(lo)),
        (None, Some(hi)) => format!("≤ {}", bound(hi)),
        (Some(lo), Some(hi)) => format!("{}–{}", bound(lo), bound(hi)),
        (None, None) => String::new(),
    };
    let rest = ty.split_once(' ')?.1;
    // The stated range is `≥ N`, `≤ N` or `A–B`; what follows it (`, one
    // key per terrain`, ` (unsigned)`) is kept.
    let len = match rest.strip_prefix("≥ ").or_else(|| rest.strip_prefix("≤ ")) {
        Some(r) => rest.len() - r.len() + r.find([',', ' ', ';']).unwrap_or(r.len()),
        None => rest.find([',', ' ', ';']).unwrap_or(rest.len()),
    };
    let kind = if int { "integer" } else { "float" };
    Some(format!("{kind} {range}{}", &rest[len..]).trim_end().to_string())
}

/// The default cell rewritten to the code's values; `None` when it already
/// states them (or states no value this reader knows, such as `required`).
fn default_cell(key: &str, cell: &str, defaults: &std::collections::BTreeMap<String, toml::Value>) -> Option<String> {
    if key.contains("[]") {
        return None;
    }
    let keys = expand(key);
    if let [(k, None)] = keys.as_slice() {
        let have = defaults.get(&code_path(k.clone(), defaults))?;
        let want = literal(cell)?;
        if same(&want, have) {
            return None;
        }
        // Replace the leading literal; keep any note after it.
        let after = cell[1..].split_once('`').map_or("", |(_, r)| r);
        return Some(format!("`{}`{after}", render(have)));
    }
    let pattern = ["<terrain>", "<kind>", "<choice>"].into_iter().find(|p| key.contains(p))?;
    let names = pattern_names(pattern);
    let values: Vec<Option<&toml::Value>> = keys.iter().map(|(k, _)| defaults.get(k)).collect();
    let wrong = names.iter().zip(&values).any(|(n, have)| match (per_name(cell, names, n), have) {
        (Some(Some(w)), Some(h)) => !same(&w, h),
        (Some(None), None) | (None, _) => false,
        _ => true,
    });
    if !wrong {
        return None;
    }
    let show = |v: &Option<&toml::Value>| v.map_or("—".to_string(), |v| format!("`{}`", render(v)));
    let parts: Vec<&str> = cell.split(" / ").collect();
    if parts.len() == names.len() {
        // `v1 / v2 / ...`: rewrite only the parts that drifted.
        let out: Vec<String> = names
            .iter()
            .zip(&values)
            .zip(&parts)
            .map(|((n, have), part)| match (per_name(cell, names, n), have) {
                (Some(Some(w)), Some(h)) if same(&w, h) => part.to_string(),
                (Some(None), None) => part.to_string(),
                _ => show(have).replace('`', ""),
            })
            .collect();
        return Some(out.join(" / "));
    }
    if pattern == "<choice>" {
        let out: Vec<String> = names.iter().zip(&values).map(|(n, v)| format!("{n} {}", show(v))).collect();
        return Some(out.join(", "));
    }
    // `name = v` pairs, the most common value as `others`.
    let mut counts: Vec<(Option<&toml::Value>, usize)> = Vec::new();
    for v in &values {
        match counts.iter_mut().find(|(x, _)| x == v) {
            Some((_, c)) => *c += 1,
            None => counts.push((*v, 1)),
        }
    }
    let others = counts.iter().max_by_key(|(_, c)| *c).map(|(v, _)| *v).flatten();
    let mut out: Vec<String> = names
        .iter()
        .zip(&values)
        .filter(|(_, v)| **v != others)
        .map(|(n, v)| match v {
            Some(v) => format!("`{n} = {}`", render(v)),
            None => format!("{n} absent"),
        })
        .collect();
    out.push(match others {
        Some(v) => format!("others `{}`", render(v)),
        None => "others absent".to_string(),
    });
    Some(out.join(", "))
}

/// `docs/scenario.md` with its key reference's type and default cells
/// regenerated from the declarations.
fn regenerate_docs(text: &str) -> String {
    let defaults = code_defaults();
    let at = text.find("# Key reference").expect("docs/scenario.md has a key reference");
    let mut out = text[..at].to_string();
    for line in text[at..].split_inclusive('\n') {
        let mut cells: Vec<String> = line.split(" | ").map(str::to_string).collect();
        let key = cells.first().and_then(|c| c.strip_prefix("| `")?.strip_suffix('`')).map(str::to_string);
        match key {
            Some(key) if cells.len() >= 4 => {
                if let Some(t) = type_cell(&key, cells[1].trim(), &defaults) {
                    cells[1] = t;
                }
                if let Some(d) = default_cell(&key, cells[2].trim(), &defaults) {
                    cells[2] = d;
                }
                out.push_str(&cells.join(" | "));
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// Paths (dotted) where two TOML values differ; arrays are compared whole.
fn differing(prefix: &str, file: &toml::Value, code: &toml::Value, out: &mut Vec<String>) {
    match (file, code) {
        (toml::Value::Table(f), toml::Value::Table(c)) => {
            for (k, cv) in c {
                let p = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                match f.get(k) {
                    Some(fv) => differing(&p, fv, cv, out),
                    None => out.push(p),
                }
            }
        }
        (f, c) if !same(f, c) => out.push(prefix.to_string()),
        _ => {}
    }
}

/// `scenarios/default.toml` with every value that differs from the code's
/// default replaced by it (comments and layout kept). Its name,
/// description and players are its own, and it leaves the archetypes to
/// `archetypes.toml`.
fn regenerate_default_toml(text: &str) -> String {
    let d = Scenario::default();
    let mut code = toml::Value::try_from(&d).unwrap();
    let table = code.as_table_mut().unwrap();
    for own in ["name", "description", "players", "strategies"] {
        table.remove(own);
    }
    table["map"].as_table_mut().unwrap().insert("generate".into(), toml::Value::try_from(d.map.generator()).unwrap());
    let file: toml::Value = toml::from_str(text).unwrap();
    let mut paths = Vec::new();
    differing("", &file, &code, &mut paths);
    if paths.is_empty() {
        return text.to_string();
    }
    let mut doc: toml_edit::DocumentMut = text.parse().unwrap();
    let code_doc = toml_edit::ser::to_document(&code).unwrap();
    for p in paths {
        let parts: Vec<&str> = p.split('.').collect();
        let from = parts.iter().fold(code_doc.as_item(), |it, k| &it[*k]).clone();
        let to = parts.iter().fold(doc.as_item_mut(), |it, k| &mut it[*k]);
        *to = match from {
            toml_edit::Item::Value(v) => toml_edit::value(v.clone()),
            other => other,
        };
    }
    doc.to_string()
}

/// The key reference's type and default cells are what the declarations
/// say. (Stale cells are rewritten in place; the test then fails once.)
#[test]
fn the_key_reference_in_the_docs_is_generated_from_the_declarations() {
    let path = repo_file("docs/scenario.md");
    let text = std::fs::read_to_string(&path).unwrap();
    ensure_file_contents(&path, &regenerate_docs(&text));
}

/// `scenarios/default.toml` spells out the code's defaults.
#[test]
fn default_toml_is_generated_from_the_declarations() {
    let path = repo_file("scenarios/default.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    ensure_file_contents(&path, &regenerate_default_toml(&text));
}

/// The generator rewrites what drifted, and only that: a stale default, a
/// stale per-terrain value and a stale range come back as the code says.
#[test]
fn the_generator_rewrites_stale_cells() {
    let text = std::fs::read_to_string(repo_file("docs/scenario.md")).unwrap();
    let stale = text
        .replace("| `costs.capture` | integer ≥ 0 | `2` |", "| `costs.capture` | integer ≥ 5 | `7` |")
        .replace("`mountain = 1`, others `0` | E-10", "`forest = 2`, others `0` | E-10")
        .replace("| `initiative.pool` | integer 0–60 |", "| `initiative.pool` | integer 0–61 |")
        .replace("| 1 / 1 / 1 / 1 / 1 / 1 | E-08", "| 1 / 1 / 9 / 1 / 1 / 1 | E-08");
    assert_ne!(stale, text, "the docs hold the rows this test edits");
    assert_eq!(regenerate_docs(&stale), text);

    let toml_text = std::fs::read_to_string(repo_file("scenarios/default.toml")).unwrap();
    let stale =
        toml_text.replacen("seasons = 12", "seasons = 13", 1).replacen("river = \"2D6x10\"", "river = \"1D6\"", 1);
    assert_ne!(stale, toml_text);
    assert_eq!(regenerate_default_toml(&stale), toml_text);
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
    let defaults = code_defaults();
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
            let k = code_path(k, &defaults);
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
            // Strategy keys are written bare; `lookahead` takes all of them
            // but the search's own, which `search` takes.
            let k = if k.contains('.') {
                k
            } else if ["budget", "top_k", "temperature"].contains(&k.as_str()) {
                format!("strategies.search.{k}")
            } else {
                format!("strategies.lookahead.{k}")
            };
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
