//! Running campaigns: the glue between a scenario and the engine.
//! No IO here either; the command line and report writers sit on top.

pub mod lineup;
pub mod record;
pub mod runner;
pub mod watch;

use crate::map::Map;
use crate::rules::season::Outcome;
use crate::rules::setup::{Gift, SetupError, give, initial_state, make_map};
use crate::rules::{Engine, Log, RngDice, Rules, State};
use crate::scenario::Scenario;
use crate::seed;
use crate::strategy::Seats;

/// A finished campaign.
#[derive(Clone, Debug)]
pub struct Finished {
    pub map: Map,
    pub state: State,
    pub outcome: Outcome,
}

/// Play campaign `index` of master seed `master` to its end (G-31: the
/// result depends only on the scenario, `master` and `index`).
pub fn play_campaign<L: Log>(sc: &Scenario, master: u64, index: u64, log: L) -> Result<Finished, SetupError> {
    let cs = seed::campaign_seed(master, index);
    let map = make_map(sc, cs)?;
    play_on_map(sc, &map, cs, log).map(|(state, outcome)| Finished { map, state, outcome })
}

/// Play a campaign on a map already made (fixed maps are made once per run).
pub fn play_on_map<L: Log>(
    sc: &Scenario,
    map: &Map,
    campaign_seed: u64,
    log: L,
) -> Result<(State, Outcome), SetupError> {
    let names: Vec<&str> = sc.players.iter().map(|p| p.strategy.as_str()).collect();
    play_on_map_as(sc, map, campaign_seed, &names, log)
}

/// As `play_on_map`, with the strategy of each seat named explicitly (seat
/// rotation plays the same scenario with the strategies moved around).
pub fn play_on_map_as<L: Log>(
    sc: &Scenario,
    map: &Map,
    campaign_seed: u64,
    strategies: &[&str],
    log: L,
) -> Result<(State, Outcome), SetupError> {
    play_on_map_given(sc, map, campaign_seed, strategies, &[], log)
}

/// As `play_on_map_as`, with `gifts[k] = (seat, gift)` handed out before
/// season 1 (`setup::give`; a gift with no place is not given). Gifts draw
/// no dice, so every other seat's game starts from the same streams.
pub fn play_on_map_given<L: Log>(
    sc: &Scenario,
    map: &Map,
    campaign_seed: u64,
    strategies: &[&str],
    gifts: &[(crate::rules::PlayerId, Gift)],
    log: L,
) -> Result<(State, Outcome), SetupError> {
    play_on_map_watched(sc, map, campaign_seed, strategies, gifts, log, |_, _| {})
}

/// As `play_on_map_given`, calling `after` with the state at the end of
/// every season (the same game: watching draws no dice). The value fit
/// reads its positions so.
pub fn play_on_map_watched<L: Log>(
    sc: &Scenario,
    map: &Map,
    campaign_seed: u64,
    strategies: &[&str],
    gifts: &[(crate::rules::PlayerId, Gift)],
    log: L,
    mut after: impl FnMut(Rules<'_>, &State),
) -> Result<(State, Outcome), SetupError> {
    let rules = Rules::new(sc, map);
    let mut st = initial_state(rules);
    for &(seat, gift) in gifts {
        give(rules, &mut st, seat, gift);
    }
    let dice = RngDice(seed::rng(campaign_seed, seed::Stream::Dice));
    let players = Seats::named(sc, campaign_seed, strategies);
    let mut engine = Engine::new(rules, dice, players, log);
    let outcome = engine.play_campaign_with(&mut st, |s| after(rules, s));
    Ok((st, outcome))
}

/// What a run keeps beyond the final rows (`--detail`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Detail {
    pub seasons: bool,
    pub combats: bool,
    /// Check the engine's invariants after every season (`--check-invariants`).
    pub check_invariants: bool,
}

/// A campaign played for the runner: its end, the actions each seat took,
/// and on request every season's rows and every combat.
pub struct Observed {
    pub state: State,
    pub outcome: Outcome,
    pub taken: Vec<[u32; crate::scenario::ACTION_KIND_COUNT]>,
    pub seasons: Vec<record::SeasonRecord>,
    pub combats: Vec<(u32, crate::rules::CombatRecord)>,
    /// The first broken invariant, with the season after which it was
    /// found; the campaign stops there.
    pub violation: Option<(u32, String)>,
}

/// Play a campaign as `play_on_map_as` does (the same seeds, so the same
/// game), observing it as `detail` asks.
pub fn play_observed(
    sc: &Scenario,
    map: &Map,
    campaign: u64,
    campaign_seed: u64,
    strategies: &[&str],
    detail: Detail,
) -> Observed {
    let rules = Rules::new(sc, map);
    let dice = RngDice(seed::rng(campaign_seed, seed::Stream::Dice));
    let players = Seats::named(sc, campaign_seed, strategies);
    if detail.combats {
        let mut e = Engine::new(rules, dice, players, record::CombatLog::default());
        let mut o = drive(&mut e, campaign, strategies, detail);
        o.combats = std::mem::take(&mut e.log.combats);
        o
    } else {
        drive(&mut Engine::new(rules, dice, players, crate::rules::NoLog), campaign, strategies, detail)
    }
}

fn drive<D: crate::rules::Dice, L: Log>(
    e: &mut Engine<'_, D, Seats, L>,
    campaign: u64,
    strategies: &[&str],
    detail: Detail,
) -> Observed {
    let mut st = initial_state(e.rules);
    let mut rows = Vec::new();
    let mut violation = None;
    let reason = loop {
        let season = st.season;
        let end = e.play_season(&mut st);
        if detail.seasons {
            rows.extend(record::season_records(e.rules, &st, campaign, season, strategies));
        }
        if detail.check_invariants
            && let Err(m) = crate::rules::invariants::check(e.rules, &st)
        {
            violation = Some((season, m));
            break end.unwrap_or(crate::rules::EndReason::SeasonLimit);
        }
        if let Some(r) = end {
            break r;
        }
    };
    let outcome = e.finish(&mut st, reason);
    Observed { state: st, outcome, taken: e.players.taken.clone(), seasons: rows, combats: Vec::new(), violation }
}
