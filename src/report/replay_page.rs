//! `play --html DIR`: one self-contained page that replays a campaign
//! season by season. It shows the map at the start and after every season
//! (terrain, owners, buildings, armies, ships, spies), each season's events
//! as the `play` log prints them, the players' standings, and empire size
//! over the seasons as a chart. Everything is inline (SVG, style, a few
//! lines of script), so the page works from a `file://` URL with no network.
//!
//! The seasons are played here, one at a time, exactly as
//! `sim::play_on_map_as` plays them (same seeds, same seats), so the page
//! shows the game `empires play` prints.

use crate::map::Map;
use crate::rules::season::Outcome;
use crate::rules::setup::{SetupError, initial_state, make_map};
use crate::rules::{Dice, Engine, Event, Log, Players, RngDice, Rules, State};
use crate::scenario::Scenario;
use crate::sim::{runner::seat_strategies, seed};
use crate::strategy::Seats;

/// Play seasons from `st` until the campaign ends, as
/// `Engine::play_campaign` does, calling `after` with the state at the end
/// of every season; then rank the players (`Engine::finish`).
pub fn play_by_season<D: Dice, P: Players, L: Log>(
    engine: &mut Engine<'_, D, P, L>,
    st: &mut State,
    mut after: impl FnMut(&State),
) -> Outcome {
    let reason = loop {
        let end = engine.play_season(st);
        after(st);
        if let Some(r) = end {
            break r;
        }
    };
    engine.finish(st, reason)
}

/// A campaign kept season by season.
#[derive(Clone, Debug)]
pub struct Replay {
    pub map: Map,
    /// The strategy of each seat.
    pub strategies: Vec<String>,
    /// `states[0]` is the starting position, `states[k]` the state at the
    /// end of season `k`; the last one is the final state.
    pub states: Vec<State>,
    pub outcome: Outcome,
}

impl Replay {
    pub fn final_state(&self) -> &State {
        self.states.last().expect("the starting position is always kept")
    }
}

/// Play campaign `campaign` of master seed `master` as `sim::play_campaign`
/// does (with `rotate`, as `play --rotate-seats` does: the campaign index
/// moves the strategies round the seats), keeping the state after every
/// season. The events go to `log`.
pub fn play<L: Log>(sc: &Scenario, master: u64, campaign: u64, rotate: bool, log: L) -> Result<Replay, SetupError> {
    let cs = seed::campaign_seed(master, campaign);
    let map = make_map(sc, cs)?;
    let names = seat_strategies(sc, campaign, rotate);
    let (states, outcome) = {
        let rules = Rules::new(sc, &map);
        let mut st = initial_state(rules);
        let mut states = vec![st.clone()];
        let dice = RngDice(seed::rng(cs, seed::Stream::Dice));
        let players = Seats::named(sc, cs, &names);
        let mut engine = Engine::new(rules, dice, players, log);
        let outcome = play_by_season(&mut engine, &mut st, |s| states.push(s.clone()));
        // The last season's copy, as `finish` leaves it.
        *states.last_mut().expect("one season at least") = st;
        (states, outcome)
    };
    let strategies = names.into_iter().map(String::from).collect();
    Ok(Replay { map, strategies, states, outcome })
}

/// The events of each frame of the page: `[0]` those before the first
/// season (none, today), then one slice per season, from its
/// `SeasonStart` up to the next one. The end of the campaign and the
/// standings come with the last season.
pub fn season_events(events: &[Event]) -> Vec<&[Event]> {
    let mut out = Vec::new();
    let mut from = 0;
    for (i, e) in events.iter().enumerate() {
        if matches!(e, Event::SeasonStart { .. }) {
            out.push(&events[from..i]);
            from = i;
        }
    }
    out.push(&events[from..]);
    out
}
