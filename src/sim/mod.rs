//! Running campaigns: seeds and the glue between a scenario and the engine.
//! No IO here either; the command line and report writers sit on top.

pub mod record;
pub mod runner;
pub mod seed;

use crate::map::Map;
use crate::rules::season::Outcome;
use crate::rules::setup::{SetupError, initial_state, make_map};
use crate::rules::{Engine, Log, RngDice, Rules, State};
use crate::scenario::Scenario;
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
    let rules = Rules::new(sc, map);
    let mut st = initial_state(rules);
    let dice = RngDice(seed::rng(campaign_seed, seed::Stream::Dice));
    let players = Seats::named(sc, campaign_seed, strategies);
    let mut engine = Engine::new(rules, dice, players, log);
    let outcome = engine.play_campaign(&mut st);
    Ok((st, outcome))
}
