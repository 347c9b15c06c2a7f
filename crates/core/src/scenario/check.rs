//! Semantic checks of a scenario: everything serde cannot see, such as
//! tables that leave a gap uncovered, negative costs, a mine drawn on plains
//! or a strategy that does not exist.
//!
//! Problems are named by key path; `load.rs` turns paths into `line:col`.
//! A scenario that passes these checks never makes the engine panic: every
//! assumption the engine makes about scenario values is checked here.

use super::table::{Domain, GapRow, GapTable};
use super::{BuildingKind, Scenario};
use crate::map::{Map, Terrain, drawn};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathSeg {
    Key(String),
    Index(usize),
    /// A character offset inside a string value (map rows).
    Char(usize),
}

pub type KeyPath = Vec<PathSeg>;

fn p(keys: &str) -> KeyPath {
    keys.split('.').filter(|k| !k.is_empty()).map(|k| PathSeg::Key(k.to_string())).collect()
}

fn pi(keys: &str, i: usize) -> KeyPath {
    let mut v = p(keys);
    v.push(PathSeg::Index(i));
    v
}

fn pik(keys: &str, i: usize, key: &str) -> KeyPath {
    let mut v = pi(keys, i);
    v.push(PathSeg::Key(key.into()));
    v
}

/// Most players a scenario may have (player masks are 16 bits; drawn maps
/// number capitals 1 to 9).
pub const MAX_PLAYERS: usize = 9;

struct Found(Vec<(KeyPath, String)>);

impl Found {
    fn push(&mut self, path: KeyPath, msg: impl Into<String>) {
        self.0.push((path, msg.into()));
    }
    fn at_least(&mut self, key: &str, v: i64, min: i64) {
        if v < min {
            self.push(p(key), format!("must be at least {min} (found {v})"));
        }
    }
    fn share(&mut self, key: &str, v: f64) {
        if !(0.0..=1.0).contains(&v) {
            self.push(p(key), format!("must be a share between 0 and 1 (found {v})"));
        }
    }
    fn table<R: GapRow>(&mut self, key: &str, t: &GapTable<R>, domain: Domain) {
        if t.rows.len() > 255 {
            self.push(p(key), format!("at most 255 rows (found {})", t.rows.len()));
        }
        for (row, msg) in t.coverage_problems(domain) {
            let path = match row {
                Some(i) => pi(key, i),
                None => p(key),
            };
            self.push(path, msg);
        }
    }
}

/// All problems, in no particular order.
pub fn check(s: &Scenario) -> Vec<(KeyPath, String)> {
    let mut f = Found(Vec::new());
    players(s, &mut f);
    map(s, &mut f);
    numbers(s, &mut f);
    tables(s, &mut f);
    buildings(s, &mut f);
    strategies(s, &mut f);
    tables_grid(s, &mut f);
    f.0
}

fn players(s: &Scenario, f: &mut Found) {
    if s.players.len() < 2 {
        f.push(p("players"), format!("a campaign needs at least 2 players (found {})", s.players.len()));
    }
    if s.players.len() > MAX_PLAYERS {
        f.push(p("players"), format!("at most {MAX_PLAYERS} players (found {})", s.players.len()));
    }
    for (i, pl) in s.players.iter().enumerate() {
        if s.players[..i].iter().any(|o| o.name == pl.name) {
            f.push(pik("players", i, "name"), format!("player name {:?} is used twice", pl.name));
        }
        if s.strategy(&pl.strategy).is_none() {
            f.push(pik("players", i, "strategy"), unknown_strategy(s, &pl.strategy));
        }
    }
    if s.players.len() >= 2 && s.players.iter().all(|pl| pl.team.is_some() && pl.team == s.players[0].team) {
        f.push(p("players"), "every player is on the same team: there would be no rival");
    }
}

fn map(s: &Scenario, f: &mut Found) {
    match (&s.map.rows, &s.map.generate) {
        (Some(_), Some(_)) => f.push(p("map"), "give either `rows` (a drawn map) or `generate`, not both"),
        (Some(rows), None) => match drawn::parse(rows) {
            Err(errs) => {
                for e in errs {
                    let mut path = pi("map.rows", e.row);
                    path.push(PathSeg::Char(e.col));
                    f.push(path, e.message);
                }
            }
            Ok((m, origins)) => drawn_map(s, &m, &origins, f),
        },
        (None, g) => {
            let g = g.clone().unwrap_or_default();
            f.at_least("map.generate.land", g.land as i64, s.players.len().max(2) as i64);
            if g.land > 4000 {
                f.push(p("map.generate.land"), format!("at most 4000 land hexes (found {})", g.land));
            }
            if g.mountains > g.land {
                f.push(p("map.generate.mountains"), "more mountains than land hexes");
            }
            f.share("map.generate.river_share", g.river_share);
            f.share("map.generate.marsh_share", g.marsh_share);
            f.share("map.generate.forest_share", g.forest_share);
            let total = g.river_share + g.marsh_share + g.forest_share + g.mountains as f64 / g.land.max(1) as f64;
            if total > 1.0 + 1e-9 {
                f.push(
                    p("map.generate"),
                    format!("mountains, rivers, marsh and forest add up to {total:.2} of the land; at most 1"),
                );
            }
            f.at_least("map.generate.sea_ring", g.sea_ring as i64, 1);
            if s.buildings.city.terrain.iter().all(|t| !t.is_land()) {
                f.push(p("buildings.city.terrain"), "capitals need a land terrain where a city may stand");
            }
            // The generator is deterministic; if the map cannot hold the
            // capitals for any of a few seeds, the spec is unusable.
            if f.0.is_empty() {
                let ok = (0..4u64).any(|seed| {
                    crate::map::generate::generate(
                        &g,
                        s.players.len(),
                        s.start.min_capital_distance,
                        s.buildings.city.terrain,
                        g.seed.unwrap_or(seed),
                    )
                    .is_ok()
                });
                if !ok {
                    f.push(
                        p("map.generate"),
                        format!(
                            "cannot place {} capitals at least {} hexes apart (start.min_capital_distance) on {} land hexes",
                            s.players.len(),
                            s.start.min_capital_distance,
                            g.land
                        ),
                    );
                }
            }
        }
    }
}

fn drawn_map(s: &Scenario, m: &Map, origins: &drawn::CellOrigins, f: &mut Found) {
    let at = |h: u16| {
        let (r, c) = origins[h as usize];
        let mut path = pi("map.rows", r);
        path.push(PathSeg::Char(c));
        path
    };
    let caps = &m.placements.capitals;
    if caps.len() != s.players.len() {
        f.push(
            p("map.rows"),
            format!("the map has {} capitals (markers 1-9) for {} players", caps.len(), s.players.len()),
        );
    }
    let city_ok = s.buildings.city.terrain;
    for (i, &h) in caps.iter().enumerate() {
        let t = m.terrain[h as usize];
        if !city_ok.contains(t) {
            f.push(
                at(h),
                format!(
                    "player {}'s capital stands on {}; a capital is a city and needs {}",
                    i + 1,
                    t.name(),
                    list(city_ok)
                ),
            );
        }
    }
    for &h in &m.placements.neutral_cities {
        let t = m.terrain[h as usize];
        if !city_ok.contains(t) {
            f.push(at(h), format!("a neutral city stands on {}; cities need {}", t.name(), list(city_ok)));
        }
        if caps.contains(&h) {
            f.push(at(h), "a hex cannot be both a capital and a neutral city");
        }
    }
    let mut main_seen: Vec<u16> = caps.iter().chain(&m.placements.neutral_cities).copied().collect();
    let mut extra_seen: Vec<u16> = Vec::new();
    for &(h, kind) in &m.placements.buildings {
        let t = m.terrain[h as usize];
        let spec = s.building(kind);
        if !spec.terrain.contains(t) {
            f.push(
                at(h),
                format!(
                    "a {} cannot stand on {} (buildings.{}.terrain allows {})",
                    kind.name(),
                    t.name(),
                    kind.name(),
                    list(spec.terrain)
                ),
            );
        }
        if spec.coastal_only && !m.coastal[h as usize] {
            f.push(at(h), format!("a {} needs a coastal hex", kind.name()));
        }
        let seen = if kind.is_main() { &mut main_seen } else { &mut extra_seen };
        if seen.contains(&h) {
            let slot = if kind.is_main() { "castle, city or mine" } else { "port, tower or bridge" };
            f.push(at(h), format!("a hex holds at most one {slot}"));
        }
        seen.push(h);
    }
    if m.land_count == 0 {
        f.push(p("map.rows"), "the map has no land");
    }
}

fn list(set: crate::map::TerrainSet) -> String {
    let v: Vec<&str> = set.iter().map(Terrain::name).collect();
    if v.is_empty() { "no terrain at all".into() } else { v.join(", ") }
}

fn numbers(s: &Scenario, f: &mut Found) {
    // Each numeric key within its range (`ranges::RULE_KEYS`, the one
    // table of them); what follows are the constraints between keys.
    for k in super::ranges::RULE_KEYS {
        if let Some(problem) = k.problem((k.get)(s)) {
            f.push(p(k.key), problem);
        }
    }
    if !(s.campaign.land_share_to_win > 0.0 && s.campaign.land_share_to_win <= 1.0) {
        f.push(p("campaign.land_share_to_win"), "must be above 0 and at most 1");
    }
    let tb = &s.campaign.tiebreak;
    for (i, t) in tb.iter().enumerate() {
        if tb[..i].contains(t) {
            f.push(pi("campaign.tiebreak", i), "listed twice");
        }
    }
    if s.siege.engines_needed > s.siege.engine_cap.max(0) && s.siege.engines_needed > 0 {
        f.push(p("siege.engines_needed"), "more engines needed than an army can carry (siege.engine_cap)");
    }
    if s.siege.stability_min > s.siege.stability_max {
        f.push(p("siege.stability_min"), "above siege.stability_max");
    }
    let c = &s.cities;
    if c.stability_min > 0 || c.stability_max < 0 {
        f.push(p("cities.stability_min"), "the stability track must include 0");
    }
    if c.federated_influence <= 0 || c.federated_influence >= c.owned_influence {
        f.push(p("cities.federated_influence"), "must be above 0 and below cities.owned_influence");
    }
    for (k, st) in [("cities.built", &c.built), ("cities.capital", &c.capital), ("cities.neutral", &c.neutral)] {
        if st.stability < c.stability_min || st.stability > c.stability_max {
            f.push(p(&format!("{k}.stability")), "outside the stability track (cities.stability_min..stability_max)");
        }
    }
    if s.naval.strength_per_ship + s.naval.strength_offset < 0 {
        f.push(p("naval.strength_offset"), "one ship would have negative strength");
    }
}

fn tables(s: &Scenario, f: &mut Found) {
    f.table("ep.result_by_gap", &s.ep.result_by_gap, Domain::Unsigned);
    f.table("army.losses", &s.army.losses, Domain::Unsigned);
    f.table("siege.table", &s.siege.table, Domain::Signed);
    f.table("naval.table", &s.naval.table, Domain::Unsigned);
    f.table("spy.table", &s.spy.table, Domain::Signed);
    f.table("spy.duel", &s.spy.duel, Domain::Unsigned);
    for (i, r) in s.army.losses.rows.iter().enumerate() {
        if r.winner_loss < 0 || r.loser_loss < 0 {
            f.push(pi("army.losses", i), "losses must not be negative");
        }
    }
    for (i, r) in s.siege.table.rows.iter().enumerate() {
        if r.city_pv < 0 || r.army_loss < 0 {
            f.push(pi("siege.table", i), "losses must not be negative");
        }
    }
    for (i, r) in s.naval.table.rows.iter().enumerate() {
        if r.winner_pv < 0 || r.loser_pv < 0 {
            f.push(pi("naval.table", i), "losses must not be negative");
        }
    }
}

fn buildings(s: &Scenario, f: &mut Found) {
    for kind in BuildingKind::ALL {
        let b = s.building(kind);
        let key = format!("buildings.{}", kind.name());
        if b.terrain.contains(Terrain::Sea) {
            f.push(p(&format!("{key}.terrain")), "buildings stand on land; remove \"sea\"");
        }
        if let Some(req) = b.requires
            && (req == kind || req.is_main() != kind.is_main())
        {
            let slot = if kind.is_main() { "castle, city, mine" } else { "port, tower, bridge" };
            f.push(p(&format!("{key}.requires")), format!("must name another building of the same slot ({slot})"));
        }
    }
    for t in s.buildings.mine.terrain.iter() {
        if s.economy.mine.get(t).is_none() {
            f.push(
                p(&format!("economy.mine.{}", t.name())),
                format!("mines may stand on {} (buildings.mine.terrain) but no yield is given", t.name()),
            );
        }
    }
}

fn unknown_strategy(s: &Scenario, name: &str) -> String {
    s.named_strategy(name).err().map(|e| e.to_string()).unwrap_or_default()
}

/// A mixture names known strategies that are not mixtures themselves (a
/// draw per campaign, never a draw of draws), with one weight each or
/// none, none negative, some above 0.
fn mixture(s: &Scenario, key: &str, st: &super::StrategySpec, f: &mut Found) {
    use super::StrategyKind;
    if st.members.is_empty() {
        f.push(p(&format!("{key}.members")), "a mixture needs at least one member");
    }
    for (i, m) in st.members.iter().enumerate() {
        match s.strategies.get(m) {
            None => f.push(pi(&format!("{key}.members"), i), unknown_strategy(s, m)),
            Some(x) if x.kind == StrategyKind::Mixture => {
                f.push(pi(&format!("{key}.members"), i), format!("{m:?} is a mixture itself: mixtures do not nest"))
            }
            Some(_) => {}
        }
    }
    if !st.weights.is_empty() && st.weights.len() != st.members.len() {
        f.push(
            p(&format!("{key}.weights")),
            format!("one weight per member: {} members, {} weights", st.members.len(), st.weights.len()),
        );
    }
    for (i, w) in st.weights.iter().enumerate() {
        if !(w.is_finite() && *w >= 0.0) {
            f.push(pi(&format!("{key}.weights"), i), format!("must be at least 0 (found {w})"));
        }
    }
    if !st.weights.is_empty() && st.weights.iter().all(|w| *w <= 0.0) {
        f.push(p(&format!("{key}.weights")), "at least one weight must be above 0");
    }
    let e = &st.exploitability;
    if !e.is_empty() && !(e.len() == 3 && e.iter().all(|x| x.is_finite()) && e[1] <= e[0] && e[0] <= e[2]) {
        f.push(
            p(&format!("{key}.exploitability")),
            format!("must be [estimate, low, high] in points with low <= estimate <= high (found {e:?})"),
        );
    }
}

/// A search's `prior`: a weighted player, or a mixture of weighted
/// players (their policies are what the candidates are drawn from; a
/// random player or a searching one has no scores to draw from).
fn prior(s: &Scenario, key: &str, name: &str, f: &mut Found) {
    use super::StrategyKind;
    let at = p(&format!("{key}.prior"));
    let weighted = |n: &str| s.strategies.get(n).is_some_and(|x| x.kind == StrategyKind::Weighted);
    match s.strategies.get(name) {
        None => f.push(at, unknown_strategy(s, name)),
        Some(x) if x.kind == StrategyKind::Weighted => {}
        Some(x) if x.kind == StrategyKind::Mixture => {
            if let Some(m) = x.members.iter().find(|m| !weighted(m)) {
                f.push(at, format!("the prior mixture {name:?} has a member {m:?} that is not a weighted player"));
            }
        }
        Some(_) => f.push(at, format!("the prior {name:?} must be a weighted player or a mixture of them")),
    }
}

fn strategies(s: &Scenario, f: &mut Found) {
    use super::StrategyKind;
    for (name, st) in &s.strategies {
        let key = format!("strategies.{name}");
        if let Some(base) = &st.extends {
            // `load` resolves every `extends` it can; one left here names an
            // unknown strategy or is part of a cycle.
            if !s.strategies.contains_key(base) {
                f.push(p(&format!("{key}.extends")), unknown_strategy(s, base));
            } else if chain_loops(s, name) {
                f.push(p(&format!("{key}.extends")), format!("\"extends\" goes round in a cycle back to {name:?}"));
            }
        }
        // Unknown kinds fail when the file is read (`ActionKind`'s serde form).
        for (i, k) in st.forbid.iter().enumerate() {
            if *k == super::ActionKind::Done {
                f.push(pi(&format!("{key}.forbid"), i), "\"done\" cannot be forbidden: a player must be able to stop");
            }
        }
        for (i, k) in st.tune_keep.iter().enumerate() {
            if super::knobs::knob(k).is_none() {
                let known = super::knobs::KNOBS.iter().map(|k| k.key);
                f.push(
                    pi(&format!("{key}.tune_keep"), i),
                    format!("{k:?} is not a numeric strategy key{}", super::suggest::hint(k, known)),
                );
            }
        }
        // Every numeric key has one range, in `knobs::KNOBS` (tuning
        // searches the same ranges).
        for k in super::knobs::KNOBS {
            let v = (k.get)(st);
            if !k.contains(v) {
                f.push(p(&format!("{key}.{}", k.key)), format!("must be from {} to {} (found {v})", k.lo, k.hi));
            }
        }
        if st.kind == StrategyKind::Mixture {
            mixture(s, &key, st, f);
        } else if !st.members.is_empty() || !st.weights.is_empty() || !st.exploitability.is_empty() {
            f.push(
                p(&format!("{key}.members")),
                "members, weights and exploitability belong to a kind = \"mixture\" strategy",
            );
        }
        if matches!(st.kind, StrategyKind::Lookahead | StrategyKind::Search) {
            match s.strategies.get(&st.base) {
                None => f.push(p(&format!("{key}.base")), unknown_strategy(s, &st.base)),
                Some(b) if matches!(b.kind, StrategyKind::Lookahead | StrategyKind::Search) => f.push(
                    p(&format!("{key}.base")),
                    format!("the rollout strategy {:?} must not look ahead itself (rollouts would nest)", st.base),
                ),
                // A mixture's rollout players are its members: none may
                // look ahead either.
                Some(b)
                    if b.kind == StrategyKind::Mixture
                        && b.members.iter().any(|m| {
                            s.strategies
                                .get(m)
                                .is_some_and(|x| matches!(x.kind, StrategyKind::Lookahead | StrategyKind::Search))
                        }) =>
                {
                    f.push(
                        p(&format!("{key}.base")),
                        format!(
                            "the rollout mixture {:?} has a member that looks ahead itself (rollouts would nest)",
                            st.base
                        ),
                    )
                }
                Some(_) => {}
            }
            for (i, n) in st.look_at.iter().enumerate() {
                if !super::LOOK_AT.contains(&n.as_str()) {
                    f.push(
                        pi(&format!("{key}.look_at"), i),
                        format!("unknown decision {n:?} (known: {})", super::LOOK_AT.join(", ")),
                    );
                }
            }
            // Horizon 0 plays every rollout to the campaign's end.
            let bounds: &[(&str, u32, u32, u32)] = if st.kind == StrategyKind::Lookahead {
                &[
                    ("rollouts", st.rollouts, 1, MAX_ROLLOUTS),
                    ("horizon", st.horizon, 0, MAX_HORIZON),
                    ("width", st.width, 1, MAX_WIDTH),
                ]
            } else {
                &[
                    ("budget", st.budget, 1, MAX_ROLLOUTS),
                    ("horizon", st.horizon, 0, MAX_HORIZON),
                    ("top_k", st.top_k, 1, MAX_WIDTH),
                ]
            };
            for &(k, v, min, max) in bounds {
                if v < min || v > max {
                    f.push(p(&format!("{key}.{k}")), format!("must be from {min} to {max} (found {v})"));
                }
            }
            if st.kind == StrategyKind::Search && !(st.temperature > 0.0 && st.temperature <= 1000.0) {
                f.push(
                    p(&format!("{key}.temperature")),
                    format!("must be above 0 and at most 1000 (found {})", st.temperature),
                );
            }
            if !(0.0..=1000.0).contains(&st.margin_weight) {
                f.push(
                    p(&format!("{key}.margin_weight")),
                    format!("must be at least 0 and at most 1000 (found {})", st.margin_weight),
                );
            }
            if !(0.0..=1.0).contains(&st.explore) {
                f.push(p(&format!("{key}.explore")), format!("must be a share between 0 and 1 (found {})", st.explore));
            }
            if !(0.0..=1.0).contains(&st.explore_kinds) {
                f.push(
                    p(&format!("{key}.explore_kinds")),
                    format!("must be a share between 0 and 1 (found {})", st.explore_kinds),
                );
            }
            if st.kind == StrategyKind::Search && !st.prior.is_empty() {
                prior(s, &key, &st.prior, f);
            }
            if !st.value.is_empty() && st.value.len() != super::VALUE_FEATURES {
                f.push(
                    p(&format!("{key}.value")),
                    format!(
                        "must hold {} coefficients, as `empires value` writes them (found {})",
                        super::VALUE_FEATURES,
                        st.value.len()
                    ),
                );
            } else if st.value.iter().any(|c| !c.is_finite()) {
                f.push(p(&format!("{key}.value")), "must hold finite numbers".to_string());
            }
        }
    }
}

/// Bounds that keep one lookahead decision to a fraction of a second.
const MAX_ROLLOUTS: u32 = 1000;
const MAX_HORIZON: u32 = 50;
const MAX_WIDTH: u32 = 64;

/// Following `extends` from `name` comes back to `name`.
fn chain_loops(s: &Scenario, name: &str) -> bool {
    let mut cur = name;
    for _ in 0..=s.strategies.len() {
        match s.strategies.get(cur).and_then(|x| x.extends.as_deref()) {
            Some(next) if next == name => return true,
            Some(next) => cur = next,
            None => return false,
        }
    }
    true
}

/// `[tables]`: ranges that are ranges, grids small enough to print,
/// fairness tolerances that are a probability and a loss, and exchange
/// rates that are worth something.
fn tables_grid(s: &Scenario, f: &mut Found) {
    let t = &s.tables;
    if !(0.0..=1.0).contains(&t.fair_chance) {
        f.push(p("tables.fair_chance"), format!("must be a probability, 0 to 1 (found {})", t.fair_chance));
    }
    for (key, v) in [
        ("tables.fair_loss", t.fair_loss),
        ("tables.fair_units_per_pv", t.fair_units_per_pv),
        ("tables.fair_sea_land", t.fair_sea_land),
    ] {
        if !(v >= 0.0 && v.is_finite()) {
            f.push(p(key), format!("must be 0 or more (found {v})"));
        }
    }
    // A rate of 0 would make a side's losses count for nothing, so every
    // table that costs only that would read fair.
    let x = &t.exchange;
    for r in x.rates() {
        if !(r.value > 0.0 && r.value.is_finite()) {
            f.push(
                p(&format!("tables.exchange.{}", r.key)),
                format!("must be a number above 0, what {} is worth in {} (found {})", r.what, x.unit, r.value),
            );
        }
    }
    if x.unit.trim().is_empty() {
        f.push(p("tables.exchange.unit"), "must name the common unit the verdict counts losses in");
    }
    for (k, [lo, hi], min, max) in [
        ("attacker_base", t.attacker_base, -20, 40),
        ("defender_base", t.defender_base, -20, 40),
        ("siege_city_pv", t.siege_city_pv, 1, 20),
        ("siege_army_units", t.siege_army_units, 1, 30),
        ("naval_ships", t.naval_ships, 1, 6),
    ] {
        if lo > hi {
            f.push(
                p(&format!("tables.{k}")),
                format!("[{lo}, {hi}] is not a range: the first value must not be above the second"),
            );
        } else if lo < min || hi > max {
            f.push(p(&format!("tables.{k}")), format!("must stay within [{min}, {max}] (found [{lo}, {hi}])"));
        }
    }
}
