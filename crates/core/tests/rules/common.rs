//! Test worlds: small drawn maps, scripted dice and scripted players.

#![allow(dead_code)]

use empires_core::map::HexId as Hex;
use empires_core::map::{HexId, Map, drawn};
use empires_core::rules::state::{Army, Ship, Slot, Spy};
use empires_core::rules::{
    Action, CombatRecord, Decision, Driver, Engine, Event, Log, Observation, PlayerId, Players, Rules, ScriptedDice,
    State, Step,
};
use empires_core::scenario::{FormationChoice, PlayerSpec, Scenario, SiegeChoice, check};
use std::collections::VecDeque;

pub struct World {
    pub sc: Scenario,
    pub map: Map,
}

/// A world from drawn rows; one player per capital marker, `balanced` by default.
pub fn world(rows: &[&str], tweak: impl FnOnce(&mut Scenario)) -> World {
    let rows: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
    let (map, _) = drawn::parse(&rows).expect("test map parses");
    let mut sc = Scenario::default();
    sc.players = (0..map.placements.capitals.len())
        .map(|i| PlayerSpec { name: format!("P{i}"), strategy: "balanced".into(), team: None })
        .collect();
    sc.map.rows = Some(rows);
    tweak(&mut sc);
    let problems = check::check(&sc);
    assert!(problems.is_empty(), "test scenario is invalid: {problems:?}");
    World { sc, map }
}

/// 5x3 block of plains, capitals of P0 at (1,1) and P1 at (5,3).
pub const PLAINS: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p  ~", "~ p  p p p p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

/// Two coasts facing each other across a strait.
pub const STRAIT: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p  ~ ~ ~ p  ~", "~ p1 ~ ~ ~ p2 ~", " ~ p  ~ ~ ~ p  ~", "~ ~  ~ ~ ~ ~  ~"];

impl World {
    pub fn rules(&self) -> Rules<'_> {
        Rules::new(&self.sc, &self.map)
    }

    /// The starting position (G-24).
    pub fn start(&self) -> State {
        empires_core::rules::setup::initial_state(self.rules())
    }

    /// The same position with every starting piece removed.
    pub fn bare(&self) -> State {
        let mut st = self.start();
        for h in st.hexes.iter_mut() {
            h.army = Slot::EMPTY;
        }
        st.armies.clear();
        st.spies.clear();
        st.ships.clear();
        st
    }

    /// Hex at drawn-grid (col, row).
    pub fn hex(&self, col: i32, row: i32) -> HexId {
        let q = col - (row - (row & 1)) / 2;
        self.map.find(q, row).unwrap_or_else(|| panic!("no hex at ({col},{row})"))
    }

    pub fn engine(&self, dice: &[u8], script: Script) -> Scripted<'_> {
        Driver::new(self.rules(), ScriptedDice::new(dice), script, Vec::new())
    }
}

pub fn army(st: &mut State, owner: PlayerId, hex: HexId, units: i32) -> usize {
    assert_eq!(st.hexes[hex as usize].army, Slot::EMPTY, "hex {hex} already holds an army");
    let id = st.armies.len();
    st.armies.push(Army::new(owner, hex, units, 0, 1));
    st.hexes[hex as usize].army = Slot::of(id);
    id
}

pub fn ship(st: &mut State, owner: PlayerId, hex: HexId, pv: i32) -> usize {
    st.ships.push(Ship { owner, hex, pv, mp: 3, moved: false, attacked: false, alive: true });
    st.ships.len() - 1
}

/// Every player's initiative pool at `n` (G-07).
pub fn pools(st: &mut State, n: i32) {
    for p in st.players.iter_mut() {
        p.initiative = n;
    }
}

pub fn spy(st: &mut State, owner: PlayerId, hex: HexId) -> usize {
    st.spies.push(Spy { owner, hex, mp: 1, moved: false, acted: false, alive: true });
    st.spies.len() - 1
}

/// Scripted players: bids from a queue, fixed formation and siege outcome,
/// and for the other decisions the next wanted action if it is legal, else
/// `Done`. Every decision asked is recorded with its options.
#[derive(Default)]
pub struct Script {
    pub bids: VecDeque<u8>,
    pub picks: VecDeque<Action>,
    pub formation: Option<FormationChoice>,
    pub outcome: Option<SiegeChoice>,
    pub asked: Vec<(PlayerId, Decision, Vec<Action>)>,
}

impl Script {
    pub fn bids(b: &[u8]) -> Self {
        Script { bids: b.iter().copied().collect(), ..Script::default() }
    }
    pub fn picks(p: &[Action]) -> Self {
        Script { picks: p.iter().copied().collect(), ..Script::default() }
    }
    /// The options offered at the last decision of this kind.
    pub fn last_options(&self, pred: impl Fn(&Decision) -> bool) -> Vec<Action> {
        self.asked.iter().rev().find(|(_, d, _)| pred(d)).map(|x| x.2.clone()).unwrap_or_default()
    }
}

impl Players for Script {
    fn choose(&mut self, _: Rules<'_>, obs: Observation<'_>, d: Decision, options: &[Action]) -> usize {
        self.asked.push((obs.player(), d, options.to_vec()));
        let find = |a: Action| options.iter().position(|o| *o == a);
        match d {
            Decision::Bid { .. } => {
                let b = self.bids.pop_front().unwrap_or(0) as usize;
                b.min(options.len() - 1)
            }
            Decision::Formation { .. } => {
                find(Action::Formation(self.formation.unwrap_or(FormationChoice::Assault))).unwrap_or(0)
            }
            Decision::SiegeOutcome { .. } => {
                find(Action::Outcome(self.outcome.unwrap_or(SiegeChoice::Conquer))).unwrap_or(0)
            }
            Decision::TakeHit { .. } => 0,
            _ => {
                if let Some(&want) = self.picks.front()
                    && let Some(i) = find(want)
                {
                    self.picks.pop_front();
                    return i;
                }
                find(Action::Done).unwrap_or(0)
            }
        }
    }
}

/// Options the engine offers `p` for the action phase now.
pub fn act_options(w: &World, st: &State, p: PlayerId) -> Vec<Action> {
    let mut e = w.engine(&[], Script::default());
    options_of(&mut e, st, p, |e, st, p| e.act_options(st, p))
}

/// Options of an `*_options` call, read back through a recording script.
pub fn options_of<'a>(
    e: &mut Scripted<'a>,
    st: &State,
    p: PlayerId,
    fill: impl Fn(&mut Engine<'a, ScriptedDice, Vec<Event>>, &State, PlayerId),
) -> Vec<Action> {
    fill(&mut e.engine, st, p);
    e.engine.options().to_vec()
}

pub fn spend_options(w: &World, st: &State, p: PlayerId) -> Vec<Action> {
    let mut e = w.engine(&[], Script::default());
    options_of(&mut e, st, p, |e, st, p| e.spend_options(st, p))
}

pub fn recruit_options(w: &World, st: &State, p: PlayerId) -> Vec<Action> {
    let mut e = w.engine(&[], Script::default());
    options_of(&mut e, st, p, |e, st, p| e.recruit_options(st, p))
}

/// Combat records in a log.
pub fn combats(log: &[Event]) -> Vec<empires_core::rules::CombatRecord> {
    log.iter()
        .filter_map(|e| match e {
            Event::Combat(c) => Some(*c),
            _ => None,
        })
        .collect()
}

/// Play `a` the way a season does: it must be among the options the engine
/// lists for `p` now, and the engine applies it.
pub fn act(e: &mut Scripted<'_>, st: &mut State, p: PlayerId, a: Action) {
    e.engine.act_options(st, p);
    let listed = e.engine.options();
    assert!(listed.contains(&a), "{a:?} is not among the options of player {p}: {listed:?}");
    e.apply_act(st, p, a);
}

/// Spend on `a` the way a season does: listed by `spend_options`, applied by `spend`.
pub fn buy(e: &mut Scripted<'_>, st: &mut State, p: PlayerId, a: Action) {
    e.engine.spend_options(st, p);
    let listed = e.engine.options();
    assert!(listed.contains(&a), "{a:?} is not among the purchases of player {p}: {listed:?}");
    e.engine.spend(st, p, a);
}

/// The rule tests' driver: the one driver (`rules::Driver`) with the
/// scripted players. It plays a season (`play_season`), a campaign
/// (`play_campaign`) and finishes an action under way (`finish_action`);
/// `Whole` adds the rule steps the tests start alone.
pub type Scripted<'a, L = Vec<Event>> = Driver<'a, ScriptedDice, Script, L>;

/// A rule step played whole from any position, its decisions asked of the
/// script (`Driver::whole`), and one phase's turn loop.
pub trait Whole {
    fn army_combat(&mut self, st: &mut State, att: usize, def: usize) -> CombatRecord;
    fn siege(&mut self, st: &mut State, army: usize, city: usize) -> CombatRecord;
    fn naval_combat(&mut self, st: &mut State, pa: PlayerId, from: Hex, to: Hex) -> CombatRecord;
    fn coastal_attack(&mut self, st: &mut State, pa: PlayerId, from: Hex, target: Hex) -> CombatRecord;
    fn spy_duel(&mut self, st: &mut State, spy: usize, target: usize) -> CombatRecord;
    /// Play an action of the action phase whole, as `p`.
    fn apply_act(&mut self, st: &mut State, p: PlayerId, a: Action);
    /// Play one phase's turn loop (`Step::Recruit`, `Act` or `Spend`) from
    /// its first player to its last, and stop there.
    fn play_phase(&mut self, st: &mut State, phase: Step);
}

impl<L: Log> Whole for Scripted<'_, L> {
    fn army_combat(&mut self, st: &mut State, att: usize, def: usize) -> CombatRecord {
        self.whole(st, |e, st| e.begin_army_combat(st, att, def))
    }

    fn siege(&mut self, st: &mut State, army: usize, city: usize) -> CombatRecord {
        self.whole(st, |e, st| e.begin_siege(st, army, city))
    }

    fn naval_combat(&mut self, st: &mut State, pa: PlayerId, from: Hex, to: Hex) -> CombatRecord {
        self.whole(st, |e, st| e.begin_naval_combat(st, pa, from, to))
    }

    fn coastal_attack(&mut self, st: &mut State, pa: PlayerId, from: Hex, target: Hex) -> CombatRecord {
        self.whole(st, |e, st| e.begin_coastal_attack(st, pa, from, target))
    }

    fn spy_duel(&mut self, st: &mut State, spy: usize, target: usize) -> CombatRecord {
        self.whole(st, |e, st| e.begin_spy_duel(st, spy, target))
    }

    fn apply_act(&mut self, st: &mut State, p: PlayerId, a: Action) {
        self.act(st, p, a);
    }

    fn play_phase(&mut self, st: &mut State, phase: Step) {
        (st.step, st.turn) = (phase, 0);
        while let Some((p, d)) = self.engine.turn_decision(st) {
            self.decide(st, p, d);
            self.finish_action(st);
        }
    }
}
