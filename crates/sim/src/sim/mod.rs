//! Running campaigns: the glue between a scenario and the engine.
//! No IO here either; the command line and report writers sit on top.

mod campaign;
pub mod lineup;
pub mod maps;
pub mod record;
pub mod runner;
pub mod watch;

pub use campaign::{Campaign, MadeMap, Played};

use std::ops::ControlFlow;

use crate::map::Map;
use crate::rules::season::Outcome;
use crate::rules::{Log, State};
use crate::scenario::Scenario;

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

/// Play a campaign on `map` with `strategies` seated (the same seeds, so
/// the same game as `Campaign` plays), observing it as `detail` asks.
pub(crate) fn play_observed(
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
    let d = Campaign::new(sc, campaign_seed).on(map).seats(strategies).log(log).watch(|r, st| {
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
