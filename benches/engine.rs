//! Engine benchmarks: a whole campaign, one season, and each kind of combat
//! resolution. Run with `cargo bench --bench engine`.

use criterion::{Criterion, criterion_group, criterion_main};
use empires::map::drawn;
use empires::rules::setup::{initial_state, make_map};
use empires::rules::state::{Army, Ship, Slot, Spy};
use empires::rules::{Action, Decision, NoLog, Observation, RngDice, Rules, SpyKind, State};
use empires::rules::{Driver, Players};
use empires::scenario::{BuildingKind, Scenario};
use empires::seed::{self, Stream};
use empires::strategy::Seats;
use std::hint::black_box;

/// Always the first option: bids 0, the first formation, conquer.
struct First;

impl Players for First {
    fn choose(&mut self, _: Rules<'_>, _: Observation<'_>, _: Decision, _: &[Action]) -> usize {
        0
    }
}

fn campaign(c: &mut Criterion) {
    let sc = Scenario::embedded_default();
    let mut i = 0u64;
    c.bench_function("campaign/default/archetypes", |b| {
        b.iter(|| {
            i += 1;
            black_box(empires::sim::Campaign::numbered(&sc, 1, i).play().unwrap().outcome.seasons)
        })
    });
    let duel_path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/duel.toml");
    let duel = empires::scenario::load_str(
        &std::fs::read_to_string(duel_path).unwrap(),
        &empires::scenario::Source::file(duel_path),
    )
    .unwrap();
    let duel_map = make_map(&duel, 0).unwrap();
    for seats in [["balanced", "balanced"], ["lookahead", "balanced"], ["search", "tuned"]] {
        c.bench_function(&format!("campaign/duel/{}-vs-{}", seats[0], seats[1]), |b| {
            b.iter(|| {
                i += 1;
                let cs = seed::campaign_seed(1, i);
                black_box(empires::sim::Campaign::new(&duel, cs).on(&duel_map).seats(&seats).play().outcome.seasons)
            })
        });
    }
    let map = make_map(&sc, 1).unwrap();
    let rules = Rules::new(&sc, &map);
    let start = initial_state(rules);
    c.bench_function("season/default/archetypes/first", |b| {
        b.iter(|| {
            i += 1;
            let mut st = start.clone();
            let mut e = Driver::new(rules, RngDice(seed::rng(i, Stream::Dice)), Seats::for_campaign(&sc, i), NoLog);
            black_box(e.play_season(&mut st))
        })
    });
}

const ROWS: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p  ~", "~ p  p p p p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

fn combats(c: &mut Criterion) {
    let rows: Vec<String> = ROWS.iter().map(|s| s.to_string()).collect();
    let (map, _) = drawn::parse(&rows).unwrap();
    let mut sc = Scenario::default();
    sc.players.truncate(2);
    let rules = Rules::new(&sc, &map);
    let find = |c: i32, r: i32| map.find(c - (r - (r & 1)) / 2, r).unwrap();
    let mut base = initial_state(rules);
    for h in base.hexes.iter_mut() {
        h.army = Slot::EMPTY;
    }
    base.armies.clear();
    base.spies.clear();
    let army = |st: &mut State, owner: u8, hex: u16, units: i32, engines: i32| {
        st.hexes[hex as usize].army = Slot::of(st.armies.len());
        st.armies.push(Army::new(owner, hex, units, engines, 1));
    };
    let mut st_army = base.clone();
    army(&mut st_army, 0, find(2, 2), 5, 0);
    army(&mut st_army, 1, find(3, 2), 5, 0);
    let mut st_siege = base.clone();
    army(&mut st_siege, 0, find(4, 3), 5, 2);
    let city = st_siege.hexes[find(5, 3) as usize].city.get().unwrap();
    let mut st_naval = base.clone();
    let (sea_a, sea_b) = (find(6, 1), find(6, 2));
    for (owner, hex) in [(0, sea_a), (0, sea_a), (1, sea_b)] {
        st_naval.ships.push(Ship { owner, hex, pv: 3, mp: 3, moved: false, attacked: false, alive: true });
    }
    let mut st_spy = base.clone();
    let target = find(4, 2);
    st_spy.set_owner(target, empires::rules::Owner::of(1));
    st_spy.hexes[target as usize].main = Some(BuildingKind::Castle);
    st_spy.hexes[target as usize].main_pv = 3;
    st_spy.spies.push(Spy { owner: 0, hex: find(3, 2), mp: 1, moved: false, acted: false, alive: true });
    st_spy.spies.push(Spy { owner: 1, hex: find(4, 3), mp: 1, moved: false, acted: false, alive: true });

    let mut e = Driver::new(rules, RngDice(seed::rng(7, Stream::Dice)), First, NoLog);
    let mut g = c.benchmark_group("combat");
    g.bench_function("army", |b| {
        b.iter(|| {
            let mut st = st_army.clone();
            black_box(e.act(&mut st, 0, Action::Attack { army: 0, target: 1 }).gap)
        })
    });
    g.bench_function("siege", |b| {
        b.iter(|| {
            let mut st = st_siege.clone();
            black_box(e.act(&mut st, 0, Action::Siege { army: 0, city: city as u16 }).gap)
        })
    });
    g.bench_function("naval", |b| {
        b.iter(|| {
            let mut st = st_naval.clone();
            black_box(e.act(&mut st, 0, Action::NavalAttack { from: sea_a, to: sea_b }).gap)
        })
    });
    g.bench_function("coastal", |b| {
        b.iter(|| {
            let mut st = st_naval.clone();
            black_box(e.act(&mut st, 0, Action::Coastal { from: sea_b, target: find(5, 2) }).gap)
        })
    });
    g.bench_function("spy", |b| {
        b.iter(|| {
            let mut st = st_spy.clone();
            black_box(e.engine.spy_action(&mut st, 0, target, SpyKind::Steal).gap)
        })
    });
    g.bench_function("spy_vs_spy", |b| {
        b.iter(|| {
            let mut st = st_spy.clone();
            black_box(e.act(&mut st, 0, Action::SpyDuel { spy: 0, target: 1 }).gap)
        })
    });
    g.finish();
}

criterion_group!(benches, campaign, combats);
criterion_main!(benches);
