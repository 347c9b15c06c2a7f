//! `experiment worth`: what a resource is worth, in win-rate points, to the
//! strongest player the tool has that can use it.
//!
//! A designer weighing a mine against a pillage, or pricing a unit, asks
//! what gold, a unit, an EP or a hex a mine may stand on is worth. The
//! answer depends on who holds it: a castle builder that never mines values
//! a mine-able hex as one more hex of size, a miner as a payday too. So the
//! resource is handed (or taken) at the start of the campaign to one seat,
//! seats rotated, against a field of the strong players, and the seat's win
//! rate is paired campaign by campaign with the same player's without it
//! (`probe`'s gift machinery, common seeds).
//!
//! - **Both ways.** One more and one fewer (100 gold and −100 gold, a unit
//!   and one fewer, an EP and one fewer): a resource worth +5 points given
//!   may cost −9 taken, where a player short of it cannot recover.
//! - **The strongest that can use it.** Each candidate player (the field's
//!   members, its strong players) is measured on selection seeds; the one
//!   that gains most from the gift is measured again on held-out seeds, and
//!   only that figure is reported, so picking the best of several noisy
//!   figures does not inflate it.
//! - **What it rests on.** The line names the field and its exploitability
//!   (how far the best response found beats it, `strategies.NAME.exploitability`),
//!   and how many campaigns the gift changed: a gift that changes no game
//!   is worth nothing to this player, not nothing to every player.

use crate::error::Error;
use crate::rules::setup::Gift;
use crate::scenario::Scenario;
use crate::stats::Mean;
use crate::strength::best_response::Budget;
use crate::strength::probe::{self, Probe};

/// What is asked: a resource and how much of it, both ways. Gold comes in
/// one unit's price (`recruit.unit`), so gold and a unit read side by side.
pub fn asks(sc: &Scenario) -> Vec<Gift> {
    let g = sc.recruit.unit.max(1);
    vec![
        Gift::Gold(g),
        Gift::Gold(-g),
        Gift::Units(1),
        Gift::Units(-1),
        Gift::Ep(1),
        Gift::Ep(-1),
        Gift::MineableHexes(1),
    ]
}

/// The resource an ask is about, for grouping: `gold`, `unit`, `EP`, `hex`.
pub fn resource(g: Gift) -> &'static str {
    match g {
        Gift::Gold(_) => "gold",
        Gift::Units(_) => "a unit",
        Gift::Ep(_) => "an EP",
        Gift::MineableHexes(_) => "a mine-able hex",
        Gift::Spies(_) => "a spy",
        Gift::Ships(_) => "a ship",
    }
}

/// `+100 gold`, `−1 unit`.
pub fn label(g: Gift) -> String {
    let l = g.label();
    if l.starts_with('-') { l.replacen('-', "−", 1) } else { format!("+{l}") }
}

/// One ask's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Worth {
    pub gift: Gift,
    /// The candidate that gained most from it on the selection seeds.
    pub player: String,
    /// Its gifted minus its ungifted win rate, paired on the held-out seeds.
    pub diff: Mean,
    pub wins: u64,
    pub base_wins: u64,
    /// Held-out campaigns the gift changed at all.
    pub changed: u64,
    /// Each candidate's figure on the selection seeds (empty with one
    /// candidate: nothing to select).
    pub selection: Vec<(String, Mean)>,
}

/// A finished study.
#[derive(Clone, Debug, PartialEq)]
pub struct Study {
    /// The strategy in every other seat.
    pub field: String,
    /// Its exploitability, when the scenario states it.
    pub exploitability: Option<[f64; 3]>,
    pub candidates: Vec<String>,
    /// The best responses fitted with each ask (`--best-response`), in
    /// `asks` order: each is a candidate for its own ask only.
    pub fitted: Option<Fitted>,
    pub seed: u64,
    /// The selection's master seed (the held-out figures play `seed`).
    pub selection_seed: u64,
    pub campaigns: u64,
    pub rows: Vec<Worth>,
}

/// The best responses fitted with the gift: for each ask, the field's
/// heaviest weighted member tuned against the field with the ask handed to
/// it in every tuning campaign (`best_response::tune_given`). A player fitted
/// without a resource may not know how to spend it (a castle builder handed
/// a mine-able hex); one fitted with it is the strongest holder the tuning
/// can find, so the answer no longer rests on players that never learned
/// to use what they are given.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// Each ask's fitted player's name (`fitted with +1 unit`).
    pub names: Vec<String>,
    pub generations: u32,
    pub per_eval: u64,
    /// Campaigns the tunings played, all asks.
    pub played: u64,
}

/// The selection seeds: never the held-out ones.
pub fn selection_seed(seed: u64) -> u64 {
    crate::seed::mix2(seed, 0x776f_7274_68)
}

/// The tuning seed of ask `k`'s fitted player: neither the selection's nor
/// the held-out seeds (the tuning mixes its own masters from it).
pub fn fit_seed(seed: u64, k: usize) -> u64 {
    crate::seed::mix2(seed, 0x6669_7474_6564 + k as u64)
}

/// The name a fitted player is measured under.
pub fn fitted_name(g: Gift) -> String {
    format!("fitted with {}", label(g))
}

/// The campaigns `run` plays with one candidate, and the most it plays
/// with several (which candidates the selection picks, and so how many
/// held-out baselines are played, is known only once it has run). With
/// `fit`, each ask's tuning (at most) and its fitted player's selection
/// figure and baseline are added.
pub fn planned(sc: &Scenario, candidates: usize, campaigns: u64, fit: Option<&Budget>) -> u64 {
    let asks = asks(sc).len() as u64;
    let Some(b) = fit else {
        let select = if candidates > 1 { candidates as u64 * (asks + 1) * campaigns } else { 0 };
        // Held out: each ask, and a baseline per candidate chosen.
        return select + (asks + candidates.min(asks as usize).max(1) as u64) * campaigns;
    };
    let tuning = asks * crate::strength::best_response::tuning_given_planned(sc, b);
    // Every ask has two candidates at least: the base ones on every ask,
    // each fitted one on its own (and its own baseline).
    let select = candidates as u64 * (asks + 1) * campaigns + asks * 2 * campaigns;
    // Held out: each ask and its chosen player's baseline, at most one a
    // ask.
    tuning + select + 2 * asks * campaigns
}

/// Each ask handed to `name` against `field`, as `probe`'s rows.
fn measure(
    sc: &Scenario,
    name: &str,
    field: &str,
    gifts: &[Gift],
    master: u64,
    campaigns: u64,
) -> Result<Vec<probe::Row>, Error> {
    let spec = sc.named_strategy(name)?;
    let field_spec = sc.named_strategy(field)?;
    let probes: Vec<Probe> = gifts.iter().map(|&g| Probe::gift(g, &[])).collect();
    let c = probe::check_against(
        sc,
        name,
        &spec,
        (field, &field_spec),
        probes,
        probe::Settings::default(),
        master,
        campaigns,
    )?;
    Ok(c.rows)
}

/// Fit a best response with each ask (`fit`), named `fitted_name`, into a
/// copy of `sc`.
fn fit_each(sc: &Scenario, field: &str, gifts: &[Gift], seed: u64, b: &Budget) -> Result<(Scenario, Fitted), Error> {
    let mut out = sc.clone();
    let start = sc.named_strategy(field)?;
    let mut fitted = Fitted { names: Vec::new(), generations: b.generations, per_eval: b.per_eval, played: 0 };
    for (k, &g) in gifts.iter().enumerate() {
        let fixed = crate::strength::tune::Field::Fixed(vec![field.to_string()]);
        let (spec, played) = crate::strength::best_response::tune_given(sc, &start, fixed, fit_seed(seed, k), b, g)?;
        let name = fitted_name(g);
        out.strategies.insert(name.clone(), spec);
        fitted.names.push(name);
        fitted.played += played;
    }
    Ok((out, fitted))
}

/// What each of `asks(sc)` is worth to the strongest of `candidates`
/// (and, with `fit`, of a best response fitted with each ask) against
/// `field`, `campaigns` a measurement.
pub fn run(
    sc: &Scenario,
    candidates: &[String],
    field: &str,
    seed: u64,
    campaigns: u64,
    fit: Option<&Budget>,
) -> Result<Study, Error> {
    if candidates.is_empty() {
        return Err(Error::input("worth needs at least one candidate player"));
    }
    let gifts = asks(sc);
    let (sc, fitted) = match fit {
        Some(b) => {
            let (s, f) = fit_each(sc, field, &gifts, seed, b)?;
            (s, Some(f))
        }
        None => (sc.clone(), None),
    };
    let sc = &sc;
    // Each ask's candidates: the given ones, then its own fitted player.
    let per_ask: Vec<Vec<String>> = (0..gifts.len())
        .map(|k| {
            let mut c = candidates.to_vec();
            c.extend(fitted.as_ref().map(|f| f.names[k].clone()));
            c
        })
        .collect();
    // Every player, in order of first appearance.
    let mut players: Vec<String> = Vec::new();
    for c in per_ask.iter().flatten() {
        if !players.contains(c) {
            players.push(c.clone());
        }
    }
    let select = selection_seed(seed);
    // Selection: every candidate of an ask with a choice, on seeds the
    // answer never plays.
    let mut chosen: Vec<(String, Vec<(String, Mean)>)> = per_ask.iter().map(|c| (c[0].clone(), Vec::new())).collect();
    for p in &players {
        let mine: Vec<usize> = (0..gifts.len()).filter(|&k| per_ask[k].len() > 1 && per_ask[k].contains(p)).collect();
        if mine.is_empty() {
            continue;
        }
        let asked: Vec<Gift> = mine.iter().map(|&k| gifts[k]).collect();
        for (&k, r) in mine.iter().zip(measure(sc, p, field, &asked, select, campaigns)?) {
            chosen[k].1.push((p.clone(), r.diff));
        }
    }
    for (name, seen) in &mut chosen {
        // The largest gain; for a gift taken away, the smallest loss
        // is the player that copes best, the strongest holder too. On a
        // tie the first: a fitted player whose tuning moved nothing the
        // games show plays as its start does, and is not a second player.
        if let Some((best, _)) = seen.iter().reduce(|a, b| if b.1.mean > a.1.mean { b } else { a }) {
            *name = best.clone();
        }
    }
    // Held out: each ask on its chosen player, grouped by player so each
    // plays its baseline once.
    let mut rows: Vec<Option<Worth>> = vec![None; gifts.len()];
    for p in &players {
        let mine: Vec<usize> = (0..gifts.len()).filter(|&k| &chosen[k].0 == p).collect();
        if mine.is_empty() {
            continue;
        }
        let asked: Vec<Gift> = mine.iter().map(|&k| gifts[k]).collect();
        let got = measure(sc, p, field, &asked, seed, campaigns)?;
        for (&k, r) in mine.iter().zip(got) {
            rows[k] = Some(Worth {
                gift: gifts[k],
                player: p.clone(),
                diff: r.diff,
                wins: r.wins,
                base_wins: r.base_wins,
                changed: r.changed,
                selection: chosen[k].1.clone(),
            });
        }
    }
    Ok(Study {
        field: field.to_string(),
        exploitability: sc.strategy(field).and_then(|s| s.stated_exploitability()),
        candidates: candidates.to_vec(),
        fitted,
        seed,
        selection_seed: select,
        campaigns,
        rows: rows.into_iter().flatten().collect(),
    })
}

/// The candidates a worth study measures by default: the field, its
/// mixture's members, and the scenario's `tuned`, each once. A mixture
/// that plays one member only (the others at weight 0) is that member:
/// measuring both would select between two copies of one player.
pub fn default_candidates(sc: &Scenario, field: &str) -> Vec<String> {
    let mut out = Vec::new();
    match sc.strategy(field) {
        Some(s) if s.kind == crate::scenario::StrategyKind::Mixture => {
            let chance = crate::strategy::chances(&s);
            let live: Vec<&String> = s.members.iter().zip(&chance).filter(|(_, c)| **c > 0.0).map(|(m, _)| m).collect();
            if live.len() != 1 {
                out.push(field.to_string());
            }
            out.extend(live.into_iter().cloned());
        }
        _ => out.push(field.to_string()),
    }
    if sc.strategy("tuned").is_some() {
        out.push("tuned".into());
    }
    let mut once: Vec<String> = Vec::new();
    for n in out {
        if !once.contains(&n) {
            once.push(n);
        }
    }
    once
}
