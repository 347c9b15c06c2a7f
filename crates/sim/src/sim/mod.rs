//! Running campaigns: the glue between a scenario and the engine.
//! No IO here either; the command line and report writers sit on top.

pub mod drive;
pub mod lineup;
pub mod maps;
pub mod record;
pub mod runner;
pub mod watch;

use std::ops::ControlFlow;

use crate::map::Map;
use crate::rules::season::Outcome;
use crate::rules::setup::{Gift, SetupError, make_map};
use crate::rules::{Log, Rules, State};
use crate::scenario::Scenario;
use crate::seed;

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
    let d = drive::drive(sc, map, campaign_seed, strategies, gifts, log, |r, st| {
        after(r, st);
        ControlFlow::Continue(())
    });
    Ok((d.state, d.outcome))
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
    if detail.combats {
        let mut o = observe(sc, map, campaign, campaign_seed, strategies, detail, record::CombatLog::default());
        o.0.combats = std::mem::take(&mut o.1.combats);
        o.0
    } else {
        observe(sc, map, campaign, campaign_seed, strategies, detail, crate::rules::NoLog).0
    }
}

fn observe<L: Log>(
    sc: &Scenario,
    map: &Map,
    campaign: u64,
    campaign_seed: u64,
    strategies: &[&str],
    detail: Detail,
    log: L,
) -> (Observed, L) {
    let mut rows = Vec::new();
    let mut violation = None;
    let d = drive::drive(sc, map, campaign_seed, strategies, &[], log, |r, st| {
        // `st.season` has moved on to the next season unless this one ended the campaign.
        let season = if st.ended.is_some() { st.season } else { st.season - 1 };
        if detail.seasons {
            rows.extend(record::season_records(r, st, campaign, season, strategies));
        }
        if detail.check_invariants
            && let Err(m) = crate::rules::invariants::check(r, st)
        {
            violation = Some((season, m));
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    let o =
        Observed { state: d.state, outcome: d.outcome, taken: d.taken, seasons: rows, combats: Vec::new(), violation };
    (o, d.log)
}
