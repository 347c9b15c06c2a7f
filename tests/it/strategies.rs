//! G-30 strategies: the weighted player's knobs, the archetypes, `extends`,
//! `--set` on array entries, and the lookahead player with the season
//! resumption it relies on.

use crate::common::*;
use empires::rules::{Action, Decision, Dice, Item, NoLog, Observation, PlayerId, RngDice, Rules, SpyKind, State};
use empires::rules::{Driver, Players};
use empires::scenario::{
    BuildingKind, FormationChoice, Scenario, SiegeChoice, Source, StrategyKind, StrategySpec, archetypes, load_str,
    load_with_overrides,
};
use empires::seed::{Stream, campaign_seed, rng};
use empires::strategy::Strategy;
use empires::strategy::weighted::Weighted;
use rand_pcg::Pcg64Mcg;
use std::cell::Cell;
use std::rc::Rc;

fn weighted(tweak: impl FnOnce(&mut StrategySpec)) -> Weighted {
    let mut spec = StrategySpec::default();
    tweak(&mut spec);
    Weighted::new(spec, Pcg64Mcg::new(7))
}

fn pick(s: &mut Weighted, w: &World, st: &State, me: PlayerId, d: Decision, options: &[Action]) -> Action {
    options[s.choose(w.rules(), Observation::new(st, me), d, options)]
}

/// The options as the engine asks them: the listed ones, then `Done`.
fn with_done(mut o: Vec<Action>) -> Vec<Action> {
    o.push(Action::Done);
    o
}

// ------------------------------------------------------------ archetypes

#[test]
fn g30_archetypes_ship_and_balanced_is_the_default() {
    let a = archetypes();
    for name in ["random", "balanced", "expansionist", "miner", "pillager", "warlord", "turtle", "tuned", "lookahead"] {
        assert!(a.contains_key(name), "archetype {name}");
    }
    assert_eq!(a["balanced"], StrategySpec::default(), "archetypes.toml spells out the code default");
    assert_eq!(a["random"].kind, StrategyKind::Random);
    assert_eq!(a["lookahead"].kind, StrategyKind::Lookahead);
    assert_eq!(a["pillager"].siege_outcome, SiegeChoice::Pillage);
    assert_eq!(a["turtle"].siege_outcome, SiegeChoice::Federate);
    // Any scenario knows them: a file that defines no strategy at all.
    let sc = load_str(
        "[[players]]\nname = \"A\"\nstrategy = \"turtle\"\n[[players]]\nname = \"B\"\nstrategy = \"warlord\"\n",
        &Source::file("t.toml"),
    )
    .unwrap();
    assert_eq!(sc.strategy("turtle"), Some(a["turtle"].clone()));
}

#[test]
fn g30_every_archetype_plays_a_campaign_by_name() {
    let path = format!("{}/scenarios/duel.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    for name in [
        "random",
        "balanced",
        "expansionist",
        "miner",
        "pillager",
        "warlord",
        "turtle",
        "tuned",
        "lookahead",
        "lookahead_tuned",
        "search",
    ] {
        let sets = vec![("players[2].strategy".to_string(), name.to_string())];
        let sc = load_with_overrides(&text, &Source::file(&path), &sets).unwrap();
        assert_eq!(sc.players[1].strategy, name);
        let f = empires::sim::Campaign::numbered(&sc, 1, 0).play().unwrap();
        assert_eq!(f.outcome.standings.len(), 2, "{name}");
    }
}

#[test]
fn g30_extends_starts_from_another_strategy_in_any_order() {
    let text = r#"
[strategies.deeper]
extends = "deep"
reserve = 5

[strategies.deep]
extends = "miner"
mine = 8.0

[strategies.miner]
capture = 1.0
"#;
    let sc = load_str(text, &Source::file("x.toml")).unwrap();
    let miner = &archetypes()["miner"];
    let (m, d, dd) = (&sc.strategies["miner"], &sc.strategies["deep"], &sc.strategies["deeper"]);
    // An archetype changed in place keeps its other keys.
    assert_eq!((m.capture, m.mine, m.siege_outcome), (1.0, miner.mine, SiegeChoice::Federate));
    // `extends` starts from the base as this file leaves it.
    assert_eq!((d.capture, d.mine, d.siege_outcome), (1.0, 8.0, SiegeChoice::Federate));
    assert_eq!((dd.capture, dd.mine, dd.reserve), (1.0, 8.0, 5));
    // Without `extends`, a new strategy starts from `balanced`.
    let sc = load_str("[strategies.mine_lover]\nmine = 9.0\n", &Source::file("x.toml")).unwrap();
    let s = &sc.strategies["mine_lover"];
    assert_eq!((s.mine, s.capture), (9.0, StrategySpec::default().capture));
}

#[test]
fn g30_extends_errors_are_located() {
    let e = load_str("[strategies.a]\nextends = \"nobody\"\n", &Source::file("x.toml")).unwrap_err().to_string();
    assert!(e.starts_with("x.toml:2:11: strategies.a.extends: unknown strategy \"nobody\""), "{e}");
    let e = load_str("[strategies.a]\nextends = \"b\"\n[strategies.b]\nextends = \"a\"\n", &Source::file("x.toml"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("x.toml:2:11: strategies.a.extends: \"extends\" goes round in a cycle"), "{e}");
    assert!(e.contains("x.toml:4:11: strategies.b.extends"), "{e}");
    let e = load_str("[strategies.a]\nkind = \"lookahead\"\nbase = \"lookahead\"\n", &Source::file("x.toml"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("x.toml:3:8: strategies.a.base: the rollout strategy \"lookahead\" must not look ahead"), "{e}");
    let e = load_str("[strategies.a]\nkind = \"lookahead\"\nrollouts = 0\n", &Source::file("x.toml")).unwrap_err();
    assert!(e.to_string().contains("x.toml:3:12: strategies.a.rollouts: must be from 1 to 1000 (found 0)"), "{e}");
}

#[test]
fn g30_set_reaches_array_entries() {
    let d = empires::scenario::DEFAULT_TOML;
    let src = Source::embedded("default.toml");
    let sc = load_with_overrides(d, &src, &[("players[4].strategy".into(), "turtle".into())]).unwrap();
    assert_eq!(sc.players[3].strategy, "turtle");
    // As the command line reports a `--set` (the library's own loader
    // names it an override: it does not know the flag).
    let set = |s: &str| empires::cli::load_scenario(None, &[s.to_string()]).unwrap_err().message;
    assert_eq!(
        set("players[9].strategy=turtle"),
        "--set players[9].strategy=turtle: players[9]: players has 4 entries (to change how many, give the whole players)"
    );
    let e = load_with_overrides(d, &src, &[("players[0].strategy".into(), "turtle".into())]).unwrap_err();
    assert!(e.to_string().contains("an index is written [N] with N from 1"), "{e}");
    let e = set("players[1].strategy=clever");
    assert!(e.starts_with("--set players[1].strategy=clever: players[1].strategy: unknown strategy"), "{e}");
    let e = load_with_overrides(d, &src, &[("players[1].strategy".into(), "clever".into())]).unwrap_err();
    assert!(e.to_string().starts_with("override players[1].strategy=clever: "), "{e}");
}

// ------------------------------------------------------------ weighted knobs

/// A small world with a river and a mountain next to P0's capital.
const RIVERS: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 r m p p  ~", "~ p  p p p p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

#[test]
fn g30_garrison_keeps_small_armies_home() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    army(&mut st, 0, w.hex(2, 2), 2);
    let opts = with_done(act_options(&w, &st, 0));
    let mut stay = weighted(|s| s.garrison = 3);
    assert_eq!(pick(&mut stay, &w, &st, 0, Decision::Act, &opts), Action::Done);
    let mut go = weighted(|s| s.garrison = 2);
    assert!(matches!(pick(&mut go, &w, &st, 0, Decision::Act, &opts), Action::MoveArmy { .. }));
}

#[test]
fn g30_aggression_is_a_threshold_on_the_expected_gap() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    let t = army(&mut st, 1, w.hex(3, 2), 3);
    let opts = with_done(act_options(&w, &st, 0));
    let attack = Action::Attack { army: a as u16, target: t as u16 };
    assert!(opts.contains(&attack));
    // Equal armies on plains: expected gap 0.
    let mut bold = weighted(|s| s.aggression = 0.0);
    assert_eq!(pick(&mut bold, &w, &st, 0, Decision::Act, &opts), attack);
    let mut shy = weighted(|s| {
        s.aggression = 1.0;
        s.garrison = 9;
    });
    assert_eq!(pick(&mut shy, &w, &st, 0, Decision::Act, &opts), Action::Done);
}

#[test]
fn g30_bids_formation_and_siege_outcome_follow_the_spec() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    st.players[0].initiative = 4;
    let bids: Vec<Action> = (0..=3).map(Action::Bid).collect();
    let kind = empires::rules::CombatKind::Army;
    let mut s = weighted(|s| {
        s.bid_attack = 1.0;
        s.bid_defend = 0.25;
        s.formation = FormationChoice::Light;
        s.siege_outcome = SiegeChoice::Pillage;
    });
    // 4 × 1.0 capped at the 3 offered; 4 × 0.25 = 1.
    assert_eq!(pick(&mut s, &w, &st, 0, Decision::Bid { kind, attacking: true }, &bids), Action::Bid(3));
    assert_eq!(pick(&mut s, &w, &st, 0, Decision::Bid { kind, attacking: false }, &bids), Action::Bid(1));
    let forms: Vec<Action> =
        [FormationChoice::Assault, FormationChoice::Light, FormationChoice::Siege].map(Action::Formation).to_vec();
    assert_eq!(
        pick(&mut s, &w, &st, 0, Decision::Formation { army: 0 }, &forms),
        Action::Formation(FormationChoice::Light)
    );
    let outs: Vec<Action> =
        [SiegeChoice::Conquer, SiegeChoice::Federate, SiegeChoice::Pillage].map(Action::Outcome).to_vec();
    assert_eq!(
        pick(&mut s, &w, &st, 0, Decision::SiegeOutcome { city: 0 }, &outs),
        Action::Outcome(SiegeChoice::Pillage)
    );
    // An outcome that is not offered falls back to conquest.
    let outs = vec![Action::Outcome(SiegeChoice::Conquer), Action::Outcome(SiegeChoice::Federate)];
    assert_eq!(
        pick(&mut s, &w, &st, 0, Decision::SiegeOutcome { city: 0 }, &outs),
        Action::Outcome(SiegeChoice::Conquer)
    );
}

/// Player 0 holds a river hex with 1 EP to spend: the world, the state,
/// the spending options (with `Done`) and the mine on that hex.
fn river_spending() -> (World, State, Vec<Action>, Action) {
    let w = world(RIVERS, |_| {});
    let mut st = w.bare();
    let river = w.hex(2, 1);
    st.set_owner(river, empires::rules::Owner::of(0));
    st.players[0].ep = 1;
    let opts = with_done(spend_options(&w, &st, 0));
    (w, st, opts, Action::Build { hex: river, kind: BuildingKind::Mine })
}

#[test]
fn g30_mine_against_pillage_is_the_weights() {
    let (w, st, opts, mine) = river_spending();
    assert!(opts.contains(&mine) && opts.contains(&Action::Pillage), "{opts:?}");
    // A river mine yields 2D6x10, as much as a pillage: mine 2.8 > pillage 1.5.
    assert_eq!(pick(&mut weighted(|_| {}), &w, &st, 0, Decision::Spend, &opts), mine);
    assert_eq!(pick(&mut weighted(|s| s.pillage = 3.0), &w, &st, 0, Decision::Spend, &opts), Action::Pillage);
    // Nothing worth its weight: stop and lose the EP.
    let nothing = weighted(|s| {
        s.pillage = -1.0;
        s.mine = -1.0;
        s.castle = -1.0;
        s.tower = -1.0;
        s.bridge = -1.0;
        s.port = -1.0;
        s.capture = -1.0;
    });
    assert_eq!(pick(&mut { nothing }, &w, &st, 0, Decision::Spend, &opts), Action::Done);
}

/// Season-aware weights: a mine's utility grows by `mine_slope` times the
/// share of the 12 seasons still to come. mine 1.0 + 2.0 × 11/12 = 2.83
/// beats pillage 1.5 in season 1; 1.0 + 2.0 × 2/12 = 1.33 loses to it in
/// season 10. Without a slope the choice is the same in every season.
#[test]
fn e15_g30_a_season_aware_player_builds_mines_early_and_pillages_late() {
    let (w, mut st, opts, mine) = river_spending();
    let timed = |season: u32, slope: f64| {
        let mut st = st.clone();
        st.season = season;
        let mut s = weighted(|s| {
            s.mine = 1.0;
            s.mine_slope = slope;
            s.pillage = 1.5;
            s.castle = 0.0;
            s.tower = 0.0;
            s.bridge = 0.0;
        });
        pick(&mut s, &w, &st, 0, Decision::Spend, &opts)
    };
    assert_eq!(w.sc.campaign.seasons, 12);
    assert_eq!(timed(1, 2.0), mine);
    assert_eq!(timed(8, 2.0), mine, "1 + 2 × 4/12 = 1.67");
    assert_eq!(timed(10, 2.0), Action::Pillage);
    assert_eq!(timed(12, 2.0), Action::Pillage);
    for season in [1, 6, 12] {
        assert_eq!(timed(season, 0.0), Action::Pillage, "no slope: the same choice in season {season}");
    }
    // Slopes the other way round: pillage early (0.5 + 0.5 × 11/12 = 0.96
    // against a castle's 1 − 11/12 = 0.08), castles late (1 against 0.5).
    let mut late = weighted(|s| {
        s.pillage = 0.5;
        s.pillage_slope = 0.5;
        s.castle = 1.0;
        s.castle_slope = -1.0;
        s.mine = 0.0;
    });
    st.season = 12;
    let last = pick(&mut late, &w, &st, 0, Decision::Spend, &opts);
    assert!(matches!(last, Action::Build { kind: BuildingKind::Castle, .. }), "{last:?}");
    st.season = 1;
    assert_eq!(pick(&mut late, &w, &st, 0, Decision::Spend, &opts), Action::Pillage);
}

#[test]
fn g30_mine_site_makes_river_captures_first() {
    let w = world(RIVERS, |_| {});
    let mut st = w.bare();
    st.players[0].ep = 2;
    let opts = with_done(spend_options(&w, &st, 0));
    let river = Action::Capture(w.hex(2, 1));
    assert!(opts.contains(&river));
    let mut s = weighted(|s| {
        s.mine_site = 1.0;
        s.pillage = 0.0;
    });
    assert_eq!(pick(&mut s, &w, &st, 0, Decision::Spend, &opts), river);
}

#[test]
fn g30_reserve_and_recruit_weights() {
    let w = world(PLAINS, |_| {});
    let mut st = w.start();
    st.players[0].gold = 150;
    let opts = with_done(recruit_options(&w, &st, 0));
    let cap = w.hex(1, 1);
    assert!(opts.contains(&Action::Recruit { hex: cap, item: Item::Unit }), "{opts:?}");
    let mut keep = weighted(|s| s.reserve = 60);
    assert_eq!(pick(&mut keep, &w, &st, 0, Decision::Recruit, &opts), Action::Done);
    let mut spies = weighted(|s| {
        s.spy = 9.0;
        s.unit = 1.0;
    });
    assert_eq!(pick(&mut spies, &w, &st, 0, Decision::Recruit, &opts), Action::Recruit { hex: cap, item: Item::Spy });
    let mut units = weighted(|_| {});
    assert_eq!(pick(&mut units, &w, &st, 0, Decision::Recruit, &opts), Action::Recruit { hex: cap, item: Item::Unit });
}

#[test]
fn g30_spy_targets_follow_their_weights() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let target = w.hex(5, 3);
    st.players[1].gold = 1000;
    let opts = vec![
        Action::SpyAct { spy: 0, target, kind: SpyKind::Destabilize },
        Action::SpyAct { spy: 0, target, kind: SpyKind::Steal },
        Action::Done,
    ];
    let mut thief = weighted(|s| s.spy_steal = 8.0);
    assert_eq!(pick(&mut thief, &w, &st, 0, Decision::Act, &opts), opts[1]);
    let mut agitator = weighted(|s| {
        s.spy_steal = 1.0;
        s.spy_destabilize = 8.0;
    });
    assert_eq!(pick(&mut agitator, &w, &st, 0, Decision::Act, &opts), opts[0]);
}

// ------------------------------------------------------------ resuming a season

/// Dice that count their rolls, shared with the player that snapshots.
struct Counting {
    inner: RngDice,
    used: Rc<Cell<usize>>,
}

impl Dice for Counting {
    fn roll(&mut self, sides: u8) -> u8 {
        self.used.set(self.used.get() + 1);
        self.inner.roll(sides)
    }
}

/// A player with no memory but a decision counter: any attack it is
/// offered, else `Done` at every third recruiting, action or spending
/// decision and the first option otherwise; inside an action, the option
/// the counter names. At decision `snap` it
/// records the state, the dice used so far and its pick.
struct Plain {
    n: usize,
    snap: usize,
    used: Rc<Cell<usize>>,
    /// At the snapshot: the state, the player, the decision, the answer,
    /// the dice used so far and the attacker's bid the state does not hold.
    seen: Option<(State, PlayerId, Decision, Action, usize, i32)>,
    /// The last decision asked and its answer.
    last: Option<(Decision, Action)>,
}

impl Players for Plain {
    fn choose(&mut self, _: Rules<'_>, obs: Observation<'_>, d: Decision, options: &[Action]) -> usize {
        let (st, p) = (obs.state(), obs.player());
        self.n += 1;
        let attack = options.iter().position(|a| {
            matches!(
                a,
                Action::Attack { .. } | Action::Siege { .. } | Action::NavalAttack { .. } | Action::SpyDuel { .. }
            )
        });
        let i = match d {
            // Any attack it is offered, so that combats ask their bids.
            Decision::Act if attack.is_some() => attack.unwrap_or(0),
            Decision::Act | Decision::Spend | Decision::Recruit => {
                if self.n % 3 == 0 {
                    options.len() - 1
                } else {
                    0
                }
            }
            // Bids, hits, formations and outcomes vary.
            _ => self.n % options.len(),
        };
        if self.n == self.snap {
            // A defender's bid comes right after the attacker's, or, when
            // the attacker could not bid, after the attack with a bid of 0.
            let attacker_bid = match self.last {
                Some((Decision::Bid { attacking: true, .. }, Action::Bid(b))) => b as i32,
                _ => 0,
            };
            self.seen = Some((st.clone(), p, d, options[i], self.used.get(), attacker_bid));
        }
        self.last = Some((d, options[i]));
        i
    }
}

/// The engine is a state machine: the state a player is handed at any
/// decision, a combat's bids and hits included, holds the whole position
/// but the attacker's secret bid (G-07), which the campaign's engine keeps.
/// A copy of it, with the same answer applied, the same dice from there on
/// and (at a defender's bid) the real attacker's bid handed to its engine,
/// plays the season to exactly the same end.
#[test]
fn g01_a_copy_of_the_state_plays_on_from_any_decision_exactly() {
    let sc = Scenario::embedded_default();
    let cs = campaign_seed(11, 0);
    let map = empires::rules::setup::make_map(&sc, cs).unwrap();
    let r = Rules::new(&sc, &map);
    let used = Rc::new(Cell::new(0));
    // The first seasons once, to learn their dice and their end state.
    let seasons = 4;
    let play = |snap: usize| {
        let mut st = empires::rules::setup::initial_state(r);
        let dice = empires::rules::dice::RecordingDice {
            inner: Counting { inner: RngDice(rng(cs, Stream::Dice)), used: used.clone() },
            faces: Vec::new(),
        };
        used.set(0);
        let players = Plain { n: 0, snap, used: used.clone(), seen: None, last: None };
        let mut e = Driver::new(r, dice, players, NoLog);
        for _ in 0..seasons {
            e.play_season(&mut st);
        }
        (st, e.engine.dice.faces, e.players.seen, e.players.n)
    };
    let (full, faces, _, decisions) = play(0);
    assert!(decisions > 30, "real seasons: {decisions} decisions");
    let mut kinds = std::collections::BTreeMap::new();
    for k in 1..=decisions {
        let (_, _, seen, _) = play(k);
        let (mut st, _, d, a, at_roll, attacker_bid) = seen.unwrap();
        let mut e = Driver::new(
            r,
            empires::rules::ScriptedDice::new(&faces[at_roll..]),
            Plain { n: k, snap: 0, used: Rc::new(Cell::new(0)), seen: None, last: None },
            NoLog,
        );
        *kinds.entry(format!("{d:?}").split([' ', '{']).next().unwrap().to_string()).or_insert(0) += 1;
        if let Decision::Bid { attacking: false, .. } = d {
            e.engine.assume_attacker_bid(attacker_bid);
        }
        e.engine.apply(&mut st, a);
        while st.season <= seasons && st.ended.is_none() {
            e.play_season(&mut st);
        }
        assert_eq!(st, full, "played on from decision {k} ({d:?}, {a:?})");
        assert_eq!(e.engine.dice.remaining(), 0, "decision {k}: every roll was used");
    }
    for kind in ["Recruit", "Act", "Spend", "Bid"] {
        assert!(kinds.get(kind).is_some_and(|&n| n > 0), "no {kind} decision among {kinds:?}");
    }
}

// ------------------------------------------------------------ lookahead

#[test]
fn g30_lookahead_beats_balanced_on_duel() {
    let path = format!("{}/scenarios/duel.toml", env!("CARGO_MANIFEST_DIR"));
    let sc = load_str(&std::fs::read_to_string(&path).unwrap(), &Source::file(&path)).unwrap();
    let map = empires::rules::setup::make_map(&sc, 0).unwrap();
    let n = 100u64;
    let mut wins = 0;
    for i in 0..n {
        // Seats rotated: lookahead plays first in even campaigns.
        let seats: [&str; 2] = if i % 2 == 0 { ["lookahead", "balanced"] } else { ["balanced", "lookahead"] };
        let me = (i % 2) as u8;
        let out = empires::sim::Campaign::new(&sc, campaign_seed(2026, i)).on(&map).seats(&seats).play().outcome;
        if out.winner() == me {
            wins += 1;
        }
    }
    // docs/strength.md quotes 2,000 campaigns; this fixed set must show the edge too.
    assert!(wins > n / 2 + 5, "lookahead won {wins} of {n}");
}

/// A decision inside an action: the siege outcome (W-11). A player whose
/// weights say "pillage" pillages a city it takes; the same weights with a
/// lookahead at `siege_outcome` play on from the fallen city with each
/// answer and keep the city, since a conquered city counts in the empire
/// (G-02).
#[test]
fn g30_lookahead_thinks_inside_a_siege_and_conquers() {
    let pillager = StrategySpec { siege_outcome: SiegeChoice::Pillage, ..StrategySpec::default() };
    let lookahead = StrategySpec {
        kind: StrategyKind::Lookahead,
        look_at: vec!["siege_outcome".into()],
        horizon: 1,
        ..pillager.clone()
    };
    use empires::rules::NOBODY;
    assert_eq!(fallen_city(pillager), (NOBODY, 0), "the weights alone pillage");
    assert_eq!(fallen_city(lookahead), (0, 6), "the lookahead conquers");
}

/// Player 0, playing `thinker`, takes a neutral city by siege (scripted
/// dice) and picks the outcome (W-11): the city's controller and influence
/// after it.
fn fallen_city(thinker: StrategySpec) -> (PlayerId, i32) {
    let w = crate::common::world(crate::common::PLAINS, |sc| {
        sc.strategies.insert("thinker".into(), thinker);
    });
    let mut st = w.bare();
    let a = crate::common::army(&mut st, 0, w.hex(4, 3), 3);
    st.armies[a].engines = 1;
    let city = st.hexes[w.hex(5, 3) as usize].city.get().unwrap();
    st.cities[city].pv = 1;
    let players = empires::strategy::Seats::named(&w.sc, 5, &["thinker", "balanced"]);
    let mut e = Driver::new(w.rules(), empires::rules::ScriptedDice::new(&[6, 1]), players, NoLog);
    let siege = Action::Siege { army: a as u16, city: city as u16 };
    e.act(&mut st, 0, siege);
    let c = &st.cities[city];
    (c.controller.id(), c.influence)
}

#[test]
fn g30_look_at_names_are_checked() {
    let e =
        load_str("[strategies.a]\nkind = \"lookahead\"\nlook_at = [\"spend\", \"dance\"]\n", &Source::file("x.toml"))
            .unwrap_err()
            .to_string();
    assert!(e.contains("strategies.a.look_at[2]: unknown decision \"dance\""), "{e}");
    // The shipped lookahead_tuned extends tuned: its weights are tuned's.
    let a = archetypes();
    assert_eq!(a["lookahead_tuned"].capture, a["tuned"].capture);
    assert_eq!(a["lookahead_tuned"].kind, StrategyKind::Lookahead);
    assert_eq!(a["lookahead"].look_at, ["spend", "attack"]);
}

#[test]
fn g31_lookahead_campaigns_replay_exactly() {
    let path = format!("{}/scenarios/duel.toml", env!("CARGO_MANIFEST_DIR"));
    let sc = load_str(&std::fs::read_to_string(&path).unwrap(), &Source::file(&path)).unwrap();
    let map = empires::rules::setup::make_map(&sc, 0).unwrap();
    for seats in [["lookahead", "balanced"], ["lookahead_tuned", "tuned"]] {
        let a = empires::sim::Campaign::new(&sc, 99).on(&map).seats(&seats).play();
        let b = empires::sim::Campaign::new(&sc, 99).on(&map).seats(&seats).play();
        assert_eq!(a.state, b.state);
        let c = empires::sim::Campaign::new(&sc, 100).on(&map).seats(&seats).play();
        assert_ne!(a.state, c.state, "another seed, another game");
    }
}

// ------------------------------------------------------------ search

/// The search judges by campaigns won: a player whose weights say
/// "pillage" at a fallen city keeps it when it searches the siege outcome,
/// because its rollouts of the kept city end with the larger empire
/// (G-02), whatever the weights say. Horizon 0: every rollout plays to the
/// campaign's end.
#[test]
fn g30_search_judges_a_siege_outcome_by_the_campaigns_it_wins() {
    let pillager = StrategySpec { siege_outcome: SiegeChoice::Pillage, ..StrategySpec::default() };
    let search = StrategySpec {
        kind: StrategyKind::Search,
        look_at: vec!["siege_outcome".into()],
        horizon: 0,
        budget: 12,
        ..pillager.clone()
    };
    use empires::rules::NOBODY;
    assert_eq!(fallen_city(pillager), (NOBODY, 0), "the weights alone pillage");
    assert_eq!(fallen_city(search), (0, 6), "the search conquers");
}

/// A rollout's value: 1 for the largest empire, a share of 1 for a tie for
/// it, 0 otherwise, plus `margin_weight` (0.25 by default) times the size
/// margin as a share of the land.
#[test]
fn g30_search_values_a_rollout_by_win_and_margin() {
    use empires::strategy::search::outcome;
    let w = crate::common::world(crate::common::PLAINS, |_| {});
    let land = w.map.land_count as f64;
    let mut st = w.bare();
    let hexes: Vec<u16> = (0..st.hexes.len() as u16).filter(|&h| w.map.terrain[h as usize].is_land()).collect();
    for &h in &hexes {
        st.set_owner(h, empires::rules::state::Owner::NOBODY);
        st.hexes[h as usize].main = None;
        st.hexes[h as usize].city = empires::rules::state::Slot::EMPTY;
    }
    let own = |st: &mut State, p: u8, n: usize, from: usize| {
        for &h in &hexes[from..from + n] {
            st.set_owner(h, empires::rules::state::Owner::of(p));
        }
    };
    own(&mut st, 0, 5, 0);
    own(&mut st, 1, 3, 5);
    assert_eq!(outcome(w.rules(), &st, 0, 0.25), 1.0 + 0.25 * 2.0 / land);
    assert_eq!(outcome(w.rules(), &st, 1, 0.25), 0.25 * -2.0 / land);
    // A heavy margin weight lets a wide lead outweigh the win itself.
    assert_eq!(outcome(w.rules(), &st, 0, 100.0), 1.0 + 100.0 * 2.0 / land);
    assert_eq!(outcome(w.rules(), &st, 1, 100.0), 100.0 * -2.0 / land);
    own(&mut st, 1, 2, 8);
    assert_eq!(outcome(w.rules(), &st, 0, 0.25), 0.5, "a tie for the largest empire is shared");
}

#[test]
fn g30_search_keys_are_checked() {
    let e =
        load_str("[strategies.a]\nkind = \"search\"\nbase = \"a\"\n", &Source::file("x.toml")).unwrap_err().to_string();
    assert!(e.contains("strategies.a.base") && e.contains("rollouts would nest"), "{e}");
    let e =
        load_str("[strategies.a]\nkind = \"search\"\ntop_k = 0\n", &Source::file("x.toml")).unwrap_err().to_string();
    assert!(e.contains("strategies.a.top_k") && e.contains("must be from 1 to 64 (found 0)"), "{e}");
    let e = load_str("[strategies.a]\nkind = \"search\"\ntemperature = 0.0\n", &Source::file("x.toml"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("strategies.a.temperature") && e.contains("above 0"), "{e}");
    // Horizon 0: to the campaign's end, for a search as for a lookahead.
    for kind in ["search", "lookahead"] {
        let ok = format!("[strategies.a]\nkind = \"{kind}\"\nhorizon = 0\n");
        assert!(load_str(&ok, &Source::file("x.toml")).is_ok(), "{kind}");
        let far = format!("[strategies.a]\nkind = \"{kind}\"\nhorizon = 51\n");
        let e = load_str(&far, &Source::file("x.toml")).unwrap_err().to_string();
        assert!(e.contains("strategies.a.horizon") && e.contains("must be from 0 to 50 (found 51)"), "{kind}: {e}");
    }
    let a = archetypes();
    assert_eq!(a["search"].kind, StrategyKind::Search);
    assert_eq!(a["search"].capture, a["tuned"].capture, "the shipped search's policy is tuned's weights");
    assert_eq!((a["search"].budget, a["search"].top_k, a["search"].horizon), (128, 6, 3));
}

/// Same seed, same game; the search's rollouts draw from its own stream
/// and leave the campaign's dice alone.
#[test]
fn g31_search_campaigns_replay_exactly() {
    let path = format!("{}/scenarios/duel.toml", env!("CARGO_MANIFEST_DIR"));
    let sets = vec![("strategies.search.budget".to_string(), "8".to_string())];
    let sc = load_with_overrides(&std::fs::read_to_string(&path).unwrap(), &Source::file(&path), &sets).unwrap();
    let map = empires::rules::setup::make_map(&sc, 0).unwrap();
    let seats = ["search", "tuned"];
    let a = empires::sim::Campaign::new(&sc, 99).on(&map).seats(&seats).play();
    let b = empires::sim::Campaign::new(&sc, 99).on(&map).seats(&seats).play();
    assert_eq!(a.state, b.state);
    let c = empires::sim::Campaign::new(&sc, 100).on(&map).seats(&seats).play();
    assert_ne!(a.state, c.state, "another seed, another game");
}

/// docs/scenario.md gives each numeric strategy key the range of
/// `scenario::knobs::KNOBS` (the range the loader checks and `tune` searches).
#[test]
fn the_docs_give_every_strategy_key_its_range() {
    let doc = include_str!("../../docs/scenario.md");
    for k in empires::scenario::knobs::KNOBS {
        let row = format!("| `{}` | {} |", k.key, k.doc_type());
        assert!(doc.contains(&row), "docs/scenario.md lacks the row start {row:?}");
    }
}

#[test]
fn a_strategy_key_outside_its_range_is_refused_at_its_position() {
    let e = load_str("[strategies.a]\nattack = 25.0\n", &Source::file("x.toml")).unwrap_err().to_string();
    assert!(e.contains("x.toml:2:1") && e.contains("must be from 0 to 20 (found 25)"), "{e}");
}

/// `unit_alone` weighs a recruit that would stand alone. Armies never
/// merge (an army cannot enter a hex that holds one), so a unit recruited
/// where no army of the player stands is an army of one for good. At 0 a
/// weighted player recruits only into an army standing on the recruit hex.
#[test]
fn g30_unit_alone_recruits_only_into_a_standing_army() {
    let w = world(PLAINS, |_| {});
    let cap = w.hex(1, 1);
    for (with_army, alone, want_unit) in [(false, 1.0, true), (false, 0.0, false), (true, 0.0, true)] {
        let mut st = w.bare();
        st.players[0].gold = 500;
        if with_army {
            army(&mut st, 0, cap, 3);
        }
        let options = recruit_options(&w, &st, 0);
        let mut p = weighted(|s| s.unit_alone = alone);
        let i = p.choose(w.rules(), Observation::new(&st, 0), Decision::Recruit, &options);
        let unit = matches!(options[i], Action::Recruit { item: Item::Unit, .. });
        assert_eq!(unit, want_unit, "army on the capital: {with_army}, unit_alone {alone}: picked {:?}", options[i]);
    }
}

/// A ship lands `naval.transport_units` units as an army of their own on an
/// empty hex, so with the default one unit a transport starts the same lone
/// army a recruit standing alone does, and `unit_alone` weighs it alike; at
/// 0 it is never taken. A ship that lands the whole army is not affected.
#[test]
fn g30_unit_alone_weighs_a_transport_that_lands_one_unit() {
    for (carried, alone, want) in [(1, 1.0, Some(2.5)), (1, 0.5, Some(1.25)), (1, 0.0, None), (3, 0.0, Some(2.5))] {
        let w = world(STRAIT, |sc| sc.naval.transport_units = carried);
        let mut st = w.bare();
        army(&mut st, 0, w.hex(1, 2), 3);
        ship(&mut st, 0, w.hex(2, 2), 3);
        let options: Vec<Action> = act_options(&w, &st, 0)
            .into_iter()
            .filter(|a| matches!(a, Action::Transport { to, .. } if *to == w.hex(5, 1)))
            .collect();
        assert_eq!(options.len(), 1, "one transport to the far coast next to P1's capital");
        let mut p = weighted(|s| {
            s.jitter = 0.0;
            s.transport = 2.5;
            s.garrison = 1;
            s.unit_alone = alone;
        });
        let mut out = Vec::new();
        p.score_options(w.rules(), &st, 0, Decision::Act, &options, &mut out);
        assert_eq!(out[0], want.unwrap_or(-1.0), "{carried} carried, unit_alone {alone}");
    }
}

/// `attack_ep` adds to an army attack's utility the EP its result is
/// expected to earn above a season at peace, exactly over the dice; and
/// `attack_units` the units it is expected to cost the enemy beyond its
/// own. Three units against three on plains at equal scores, one D6 each
/// (die difference 1,2,...,6,...,2,1 in 36): the attacker loses (1 EP) in
/// 15, draws (2) in 6, wins minor (3) in 12 and major (4) in 3, so 75/36 EP
/// against peace's 2; each side loses a unit except at a gap of 4 or more
/// (W-03): 33/36 units each, a trade of 0.
#[test]
fn g30_attack_ep_weighs_an_attack_by_its_exact_outlook() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    let a = army(&mut st, 0, w.hex(2, 2), 3);
    let t = army(&mut st, 1, w.hex(3, 2), 3);
    let options = [Action::Attack { army: a as u16, target: t as u16 }, Action::Done];
    let score = |tweak: &dyn Fn(&mut StrategySpec)| {
        let mut p = weighted(|s| {
            s.jitter = 0.0;
            tweak(s)
        });
        let mut out = Vec::new();
        p.score_options(w.rules(), &st, 0, Decision::Act, &options, &mut out);
        out[0]
    };
    let plain = score(&|_| {});
    assert_eq!(plain, StrategySpec::default().attack, "gap 0: the utility alone");
    let with_ep = score(&|s| s.attack_ep = 2.0);
    assert!((with_ep - plain - 2.0 * (75.0 / 36.0 - 2.0)).abs() < 1e-12, "{with_ep} {plain}");
    assert_eq!(score(&|s| s.attack_units = 3.0), plain, "an even trade of units adds nothing");
    let noise = empires::analysis::dice::difference(&w.sc.combat.die);
    let o = empires::analysis::combat::army_outlook(&w.sc, &noise, 0, 3, 3, 0);
    assert_eq!((o.ep, o.a_loss, o.d_loss, o.win), (75.0 / 36.0, 33.0 / 36.0, 33.0 / 36.0, 15.0 / 36.0));
    // One unit against three, two points down: it loses in 26 of 36 (1 EP),
    // draws in 4 (2), wins minor in 6 (3): 52/36 EP, below peace; and at
    // every gap it loses its one unit.
    let o = empires::analysis::combat::army_outlook(&w.sc, &noise, -2, 1, 3, 0);
    assert_eq!((o.ep, o.a_loss, o.win), (52.0 / 36.0, 1.0, 6.0 / 36.0), "{o:?}");
}

/// `gold_glut` values gold less to a player already holding some: a
/// pillage's and a mine's utility are divided by (1 + gold_glut × gold ÷
/// 100), and nothing else moves.
#[test]
fn g30_gold_glut_values_gold_less_when_it_is_held() {
    let w = world(PLAINS, |_| {});
    let mut st = w.bare();
    st.players[0].gold = 300;
    let options = [Action::Pillage, Action::Capture(w.hex(2, 1)), Action::Done];
    let scores = |glut: f64| {
        let mut p = weighted(|s| {
            s.jitter = 0.0;
            s.gold_glut = glut;
        });
        let mut out = Vec::new();
        p.score_options(w.rules(), &st, 0, Decision::Spend, &options, &mut out);
        out
    };
    let (plain, glutted) = (scores(0.0), scores(2.0));
    assert!((glutted[0] - plain[0] / (1.0 + 2.0 * 3.0)).abs() < 1e-12, "{plain:?} {glutted:?}");
    assert_eq!(glutted[1], plain[1], "a capture is not gold");
}

/// G-30, a mixture: each campaign the seat plays one member, drawn with
/// chances proportional to the weights from the seat's own stream; a
/// weight of 0 is never drawn, and the draws follow the weights.
#[test]
fn g30_a_mixture_draws_one_member_a_campaign_in_proportion_to_its_weights() {
    let mut rng = Pcg64Mcg::new(11);
    let mut counts = [0u32; 3];
    for _ in 0..30_000 {
        counts[empires::strategy::pick(&[1.0, 0.0, 3.0], 3, &mut rng)] += 1;
    }
    assert_eq!(counts[1], 0, "a weight of 0 is never drawn");
    // 7,500 expected for the first: 5 standard deviations is 375.
    assert!((counts[0] as i64 - 7_500).abs() < 375, "{counts:?}");
    let mut rng = Pcg64Mcg::new(12);
    let mut even = [0u32; 4];
    for _ in 0..40_000 {
        even[empires::strategy::pick(&[], 4, &mut rng)] += 1;
    }
    assert!(even.iter().all(|&c| (c as i64 - 10_000).abs() < 500), "{even:?}");
    // Seated, a mixture plays its drawn member: with all the weight on
    // `random`, every seat plays random's moves, which `balanced` (the
    // other member) never would; the game is the same on every replay.
    let text = "[strategies.mix]\nkind = \"mixture\"\nmembers = [\"turtle\", \"random\"]\nweights = [0.0, 2.0]\n";
    let sc = load_str(text, &Source::file("mix.toml")).unwrap();
    let mixed = sc.with_players("mix").unwrap();
    let turtle = sc.with_players("turtle").unwrap();
    let mut differ = 0;
    for i in 0..6 {
        let a = empires::sim::Campaign::numbered(&mixed, 5, i).play().unwrap();
        let again = empires::sim::Campaign::numbered(&mixed, 5, i).play().unwrap();
        assert_eq!(format!("{:?}", a.state), format!("{:?}", again.state));
        let t = empires::sim::Campaign::numbered(&turtle, 5, i).play().unwrap();
        differ += (format!("{:?}", a.state.players) != format!("{:?}", t.state.players)) as u32;
    }
    assert_eq!(differ, 6, "no campaign played turtle's game");
}

/// G-30: a mixture names known, non-mixture members with one weight each
/// (or none), none negative, one above 0; members belong to mixtures only.
#[test]
fn g30_a_bad_mixture_is_refused_where_it_is_written() {
    for (text, want) in [
        ("[strategies.m]\nkind = \"mixture\"\n", "strategies.m.members: a mixture needs at least one member"),
        ("[strategies.m]\nkind = \"mixture\"\nmembers = [\"tuned\", \"nobody\"]\n", "unknown strategy \"nobody\""),
        (
            "[strategies.m]\nkind = \"mixture\"\nmembers = [\"tuned\"]\n[strategies.n]\nkind = \"mixture\"\nmembers = [\"m\"]\n",
            "mixtures do not nest",
        ),
        ("[strategies.m]\nkind = \"mixture\"\nmembers = [\"tuned\"]\nweights = [1.0, 2.0]\n", "1 members, 2 weights"),
        (
            "[strategies.m]\nkind = \"mixture\"\nmembers = [\"tuned\", \"miner\"]\nweights = [1.0, -2.0]\n",
            "must be at least 0",
        ),
        (
            "[strategies.m]\nkind = \"mixture\"\nmembers = [\"tuned\"]\nweights = [0.0]\n",
            "at least one weight must be above 0",
        ),
        ("[strategies.m]\nmembers = [\"tuned\"]\n", "belong to a kind = \"mixture\" strategy"),
    ] {
        let e = load_str(text, &Source::file("m.toml")).unwrap_err().to_string();
        assert!(e.contains(want), "{text}: {e}");
        assert!(e.starts_with("m.toml:"), "{e}");
    }
}

/// G-30: a mixture with one member of any chance draws nothing and plays
/// exactly that member's games: the default island's `equilibrium` (the
/// strong field studies seat by default) is `tuned`'s every game, and the
/// straits' (all its weight on `psro_1`) is `psro_1`'s.
#[test]
fn g30_a_mixture_of_one_member_plays_exactly_that_members_games() {
    let default = empires::scenario::Scenario::default();
    let path = format!("{}/scenarios/straits.toml", env!("CARGO_MANIFEST_DIR"));
    let straits = load_str(&std::fs::read_to_string(&path).unwrap(), &Source::file(&path)).unwrap();
    for (sc, member) in [(&default, "tuned"), (&straits, "psro_1")] {
        let eq = sc.with_players("equilibrium").unwrap();
        let alone = sc.with_players(member).unwrap();
        for i in 0..4 {
            let a = empires::sim::Campaign::numbered(&eq, 9, i).play().unwrap();
            let b = empires::sim::Campaign::numbered(&alone, 9, i).play().unwrap();
            assert_eq!(format!("{:?}", a.state), format!("{:?}", b.state), "{} campaign {i}", sc.name);
        }
    }
}

/// G-30: a search's `prior` is a weighted player or a mixture of them (the
/// policy its candidates are drawn from), and `explore_kinds` a share.
#[test]
fn g30_a_search_prior_is_weighted_players_and_explore_kinds_a_share() {
    let search = "[strategies.s]\nkind = \"search\"\nextends = \"tuned\"\nbase = \"tuned\"\n";
    let ok = format!("{search}prior = \"equilibrium\"\nexplore_kinds = 0.25\n");
    assert_eq!(load_str(&ok, &Source::file("s.toml")).unwrap().strategy("s").unwrap().prior, "equilibrium");
    for (extra, want) in [
        ("prior = \"nobody\"\n", "strategies.s.prior: unknown strategy \"nobody\""),
        ("prior = \"random\"\n", "must be a weighted player or a mixture of them"),
        (
            "prior = \"m\"\n[strategies.m]\nkind = \"mixture\"\nmembers = [\"tuned\", \"random\"]\n",
            "member \"random\" that is not a weighted player",
        ),
        ("explore_kinds = 1.5\n", "strategies.s.explore_kinds: must be a share between 0 and 1"),
    ] {
        let e = load_str(&format!("{search}{extra}"), &Source::file("s.toml")).unwrap_err().to_string();
        assert!(e.contains(want), "{extra}: {e}");
        assert!(e.starts_with("s.toml:"), "{e}");
    }
}

/// G-30: a search may roll out with a mixture (each rollout seat plays a
/// member drawn anew for each rollout), but not one whose members search.
#[test]
fn g30_a_search_rolls_out_with_a_mixture_of_players_that_do_not_search() {
    let ok = "[strategies.mix]\nkind = \"mixture\"\nmembers = [\"tuned\", \"warlord\"]\n\
              [strategies.s]\nkind = \"search\"\nextends = \"tuned\"\nbase = \"mix\"\nbudget = 8\ntop_k = 2\nhorizon = 1\n";
    let sc = load_str(ok, &Source::file("s.toml")).unwrap();
    let mut with_search = sc.with_players("tuned").unwrap();
    with_search.players[0].strategy = "s".into();
    assert!(empires::sim::Campaign::numbered(&with_search, 3, 0).play().is_ok());
    let bad = "[strategies.mix]\nkind = \"mixture\"\nmembers = [\"tuned\", \"search\"]\n\
               [strategies.s]\nkind = \"search\"\nextends = \"tuned\"\nbase = \"mix\"\n";
    let e = load_str(bad, &Source::file("s.toml")).unwrap_err().to_string();
    assert!(e.contains("strategies.s.base") && e.contains("looks ahead itself"), "{e}");
}
