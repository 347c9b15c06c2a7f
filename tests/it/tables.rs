//! `empires tables`: exact distributions checked against arithmetic done by
//! hand. One die is 1D6, so a cell has 36 face pairs; `d = X - Y` (the
//! attacker's die minus the defender's) takes the value k in 6 - |k| pairs:
//! d = 0: 6, ±1: 5, ±2: 4, ±3: 3, ±4: 2, ±5: 1.

use crate::play_cli::bin;
use empires::analysis::combat::{Table, all_tables, table};
use empires::analysis::fairness::findings;
use empires::analysis::markov::{naval, sieges};
use empires::report::fairness::{Words, short};
use empires::report::tables::rational;
use empires::rules::CombatKind;
use empires::scenario::Scenario;

fn kind(sc: &Scenario, k: CombatKind) -> Table {
    all_tables(sc).into_iter().find(|t| t.kind == k).unwrap()
}

fn r(n: i64, den: u64) -> String {
    rational(n, den)
}

#[test]
fn w03_army_cells_by_hand() {
    let sc = Scenario::default();
    let t = kind(&sc, CombatKind::Army);
    assert_eq!(t.den, 36);
    // Equal bases 3 against 3: the gap is d.
    let c = t.cell(3, 3).unwrap();
    // Wins: d = 1..5 → 5+4+3+2+1 = 15 pairs; ties: 6.
    assert_eq!((c.win, c.tie, c.lose), (15, 6, 15));
    // Rows by |gap|: 0 → 6 pairs; 1..3 → 2·(5+4+3) = 24; 4 and above → 2·(2+1) = 6.
    assert_eq!(c.rows, vec![6, 24, 6]);
    // The attacker loses 1 unit except when it wins by 4 or more (3 pairs):
    // 33/36 = 11/12.
    assert_eq!(r(c.a_loss, t.den), "11/12");
    assert_eq!(r(c.d_loss, t.den), "11/12");
    // Attacker 5 against defender 2: gap = 3 + d, a win unless d <= -3
    // (3+2+1 = 6 pairs) and no tie unless d = -3 (3 pairs): win 30 - 3 = 27?
    // d = -3 gives gap 0 (3 pairs, a tie); d <= -4 (3 pairs) loses. Wins: 30.
    let c = t.cell(5, 2).unwrap();
    assert_eq!((c.win, c.tie, c.lose), (30, 3, 3));
    // The defender loses 1 except when it wins by 4+ (never: the gap is at
    // least -2): 36/36.
    assert_eq!(r(c.d_loss, t.den), "1");
    // The attacker loses nothing when the gap is 4+ (d >= 1: 15 pairs): 21/36.
    assert_eq!(r(c.a_loss, t.den), "7/12");
}

#[test]
fn w10_siege_cells_by_hand() {
    let sc = Scenario::default();
    let t = kind(&sc, CombatKind::Siege);
    // Army base 2 against city base 3: gap = d - 1.
    let c = t.cell(2, 3).unwrap();
    // Wins: d >= 2 → 4+3+2+1 = 10 pairs.
    assert_eq!(c.win, 10);
    // City PV: gap 1..2 (d = 2, 3: 4+3 = 7 pairs) costs 1; gap 3..4 (d = 4,
    // 5: 2+1 = 3 pairs) costs 2: 7 + 6 = 13 → 13/36.
    assert_eq!(r(c.d_loss, t.den), "13/36");
    // Army units: gap <= -1 (d <= 0: 21 pairs) costs 2 → 42; gap 0 (d = 1:
    // 5 pairs) costs 1 → 5; gap 1..4 (10 pairs) costs 1 → 10. 57/36 = 19/12.
    assert_eq!(r(c.a_loss, t.den), "19/12");
    // Rows (signed): d <= 0 → 21, d = 1 → 5, d = 2..3 → 7, d = 4..5 → 3, none at gap 5+.
    assert_eq!(c.rows, vec![21, 5, 7, 3, 0]);
}

#[test]
fn w13_naval_and_w16_coastal_cells_by_hand() {
    let sc = Scenario::default();
    for k in [CombatKind::Naval, CombatKind::Coastal] {
        let t = kind(&sc, k);
        let c = t.cell(2, 2).unwrap();
        // |gap| = 0: 6; 1: 10; 2..3: 8 + 6 = 14; 4+: 4 + 2 = 6.
        assert_eq!(c.rows, vec![6, 10, 14, 6], "{k:?}");
        // Attacker PV: tie 1 (6); win by 1..3 costs the winner 1 (5+4+3 = 12);
        // win by 4+ costs 0; losing by 1 costs 2 (5 pairs), by 2..3 costs 3
        // (7 pairs), by 4+ costs 3 (3 pairs): 6 + 12 + 10 + 21 + 9 = 58 → 29/18.
        assert_eq!(r(c.a_loss, t.den), "29/18", "{k:?}");
    }
}

#[test]
fn w21_spy_cells_by_hand() {
    let sc = Scenario::default();
    let t = kind(&sc, CombatKind::Spy);
    // The spy's base 3 against defence 2: gap = 1 + d.
    let c = t.cell(3, 2).unwrap();
    // Success at gap >= 1, so d >= 0: 6 + 15 = 21 pairs.
    assert_eq!(r(c.d_loss, t.den), "7/12");
    // The spy is lost at gap <= -2, so d <= -3: 3+2+1 = 6 pairs.
    assert_eq!(r(c.a_loss, t.den), "1/6");
}

#[test]
fn w25_spy_duel_cells_by_hand() {
    let sc = Scenario::default();
    let t = kind(&sc, CombatKind::SpyDuel);
    assert_eq!(t.attackers, vec![0, 1, 2, 3], "bids 0 to spy.duel_bid_cap");
    // No bids: the attacker's spy is lost when d < 0 (15 pairs).
    let c = t.cell(0, 0).unwrap();
    assert_eq!(r(c.a_loss, t.den), "5/12");
    // Bid 2 against 0: lost when d <= -3 (6 pairs); the defender's lost when
    // d >= -1 (5 + 6 + 15 = 26 pairs).
    let c = t.cell(2, 0).unwrap();
    assert_eq!((r(c.a_loss, t.den), r(c.d_loss, t.den)), ("1/6".into(), "13/18".into()));
}

#[test]
fn g05_two_dice_change_the_face_pairs() {
    let mut sc = Scenario::default();
    sc.combat.die = "2D6".parse().unwrap();
    let t = table(&sc, CombatKind::Army, vec![0], vec![0]);
    assert_eq!(t.den, 36 * 36);
    // Ties: sum over s of (ways to roll s)^2 = 1+4+9+16+25+36+25+16+9+4+1 = 146.
    assert_eq!(t.cells[0].tie, 146);
}

#[test]
fn w10_siege_chain_by_hand() {
    let sc = Scenario::default();
    let s = sieges(&sc);
    // City PV 1, army 1 unit (+1 extra) against city base 3: gap = d - 1.
    // The city falls at gap >= 1 (d >= 2: 10 pairs) in one assault; any
    // other roll costs the single unit. So one assault, and the army is
    // spent first with probability 26/36.
    let c = s.iter().find(|c| c.city_pv == 1 && c.units == 1).unwrap();
    assert!((c.assaults - 1.0).abs() < 1e-12);
    assert!((c.army_spent_first - 26.0 / 36.0).abs() < 1e-12);
    // City PV 1, 8 units: gap = d + 6 >= 1, the city always falls at once;
    // the army loses a unit when the gap is 1..4 (d <= -2: 10 pairs).
    let c = s.iter().find(|c| c.city_pv == 1 && c.units == 8).unwrap();
    assert!((c.units_spent - 10.0 / 36.0).abs() < 1e-12);
    assert_eq!(c.army_spent_first, 0.0);
    // City PV 2, 1 unit: a gap of 3+ (d >= 4: 3 pairs) takes 2 PV at once;
    // gap 1..2 (d = 2, 3: 7 pairs) leaves 1 PV and costs the last unit.
    let c = s.iter().find(|c| c.city_pv == 2 && c.units == 1).unwrap();
    assert!((c.army_spent_first - 33.0 / 36.0).abs() < 1e-12);
}

#[test]
fn w13_naval_chain_by_hand() {
    let mut sc = Scenario::default();
    // Ships of 1 PV: every row sinks the loser, and the winner too unless
    // it wins by 4 or more (winner_pv 0). So one exchange decides: a win
    // needs d >= 4 (2 + 1 = 3 pairs); |d| <= 3 (6 + 10 + 8 + 6 = 30 pairs)
    // sinks both.
    sc.naval.ship_pv = 1;
    sc.tables.naval_ships = [1, 2];
    let n = naval(&sc);
    let c = n.iter().find(|c| c.ships == 1 && c.enemy == 1).unwrap();
    assert!((c.win - 3.0 / 36.0).abs() < 1e-12);
    assert!((c.both_sunk - 30.0 / 36.0).abs() < 1e-12);
    assert!((c.exchanges - 1.0).abs() < 1e-12);
    // The shipped 3-PV ships: the two sides are alike, so P(win) = P(loss).
    let sc = Scenario::default();
    for c in naval(&sc).iter().filter(|c| c.ships == c.enemy) {
        let lose = 1.0 - c.win - c.both_sunk;
        assert!((c.win - lose).abs() < 1e-12, "{c:?}");
    }
}

#[test]
fn w03_findings_name_the_same_effect_rows_and_the_bid_value() {
    let sc = Scenario::default();
    let t = kind(&sc, CombatKind::Army);
    let f = findings(&sc, &t);
    let texts: Vec<String> = f.iter().map(Words::words).collect();
    assert!(texts.iter().any(|t| t.contains("rows 1 (gap 0) and 2 (gap 1 to 3) have the same effect")), "{texts:?}");
    // +1 at equal base: from 15/36 to 21/36 (d >= 0 once the base is 1 up).
    let bid = f.iter().find(|x| x.found.topic() == "bid_value").unwrap();
    assert!((bid.value.unwrap() - 6.0 / 36.0).abs() < 1e-12);
    assert!(f.iter().any(|x| x.found.topic() == "symmetry" && x.value == Some(0.0)));
}

#[test]
fn g05_unreachable_rows_are_found() {
    let mut sc = Scenario::default();
    // A grid where the gap never exceeds 3 + 5 = 8 leaves a row at 20+ unreachable.
    sc.tables.attacker_base = [0, 3];
    sc.tables.defender_base = [0, 3];
    let mut rows = sc.army.losses.rows.clone();
    rows[2].to = Some(19);
    rows.push(empires::scenario::ArmyLossRow { from: Some(20), to: None, winner_loss: 0, loser_loss: 5 });
    sc.army.losses = empires::scenario::GapTable::new(rows);
    let t = kind(&sc, CombatKind::Army);
    let f = findings(&sc, &t);
    assert!(
        f.iter().any(|x| x.found.topic() == "unreachable_row" && x.words().starts_with("row 4 (gap 20 and above")),
        "{f:?}"
    );
}

#[test]
fn tables_cli_prints_text_json_and_csv() {
    let o = bin().args(["tables", "--format", "json"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["tables"].as_array().unwrap().len(), 6);
    let army = &v["tables"][0];
    assert_eq!(army["kind"], "army");
    // Attacker 0 against defender 0, the first cell: 15/36 = 5/12.
    assert_eq!(army["cells"][0]["win"]["exact"], "5/12");
    assert!((army["cells"][0]["win"]["p"].as_f64().unwrap() - 5.0 / 12.0).abs() < 1e-12);
    assert!(v["sieges"]["cells"].as_array().unwrap().len() >= 8);
    let o = bin().args(["tables", "--format", "csv"]).output().unwrap();
    let csv = String::from_utf8_lossy(&o.stdout);
    assert!(csv.starts_with("kind,attacker,defender,p_win,p_tie,p_lose,"), "{csv}");
    assert_eq!(csv.lines().filter(|l| l.starts_with("army,")).count(), 13 * 9);
    let dir = std::env::temp_dir().join(format!("empires-tables-{}", std::process::id()));
    let o = bin().args(["tables", "--out", &dir.display().to_string()]).output().unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("== naval battles to destruction"));
    for f in ["tables.txt", "tables.json", "tables.csv", "index.html", "win.svg", "loss-naval.png", "siege-exact.svg"] {
        assert!(dir.join(f).exists(), "{f}");
    }
    let o = bin().args(["tables", "--set", "tables.attacker_base=[5, 1]"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("tables.attacker_base: [5, 1] is not a range"));
}

fn combats_run() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("empires-against-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = bin()
        .args(["run", "--campaigns", "2000", "--seed", "3", "--detail", "combats", "--quiet", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    dir
}

#[test]
fn w03_w10_w21_w25_played_combats_agree_with_the_exact_tables() {
    let dir = combats_run();
    let o = bin().args(["tables", "--against-run"]).arg(&dir).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
    for kind in ["army", "siege", "spy", "spy_vs_spy"] {
        let line = out.lines().find(|l| l.trim_start().starts_with(&format!("{kind} "))).unwrap_or_default();
        assert!(line.ends_with("agrees"), "{kind}: {line}\n{out}");
    }
    assert!(!out.contains("DISAGREES"));
    // The default players fight no naval battle and 4 coastal ones:
    // listed, not dropped.
    assert!(out.contains("not played in this run, so not checked: naval"), "{out}");
    assert!(out.contains("coastal             4      0       0.00     0    1.000e0  too few combats to test"), "{out}");

    // The same combats against a table with one boundary moved.
    let fixture = format!("{}/tests/fixtures/wrong-army-table.toml", env!("CARGO_MANIFEST_DIR"));
    let o = bin().args(["tables", "--against-run"]).arg(&dir).args(["--scenario", &fixture]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let army = out.lines().find(|l| l.trim_start().starts_with("army ")).unwrap();
    assert!(army.ends_with("DISAGREES"), "{army}");
    assert!(out.contains("army attacker "), "the disagreeing cells are listed:\n{out}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("disagree with the exact tables"));
    // A run without combats is a clear input error.
    let o = bin().args(["tables", "--against-run", "/nonexistent-run"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("combats.parquet"));
}

/// The default scenario with its siege rows changed by `f` (W-10).
fn siege_rows(f: impl FnOnce(&mut Vec<empires::scenario::SiegeRow>)) -> Scenario {
    let mut sc = Scenario::default();
    let mut rows = sc.siege.table.rows.clone();
    f(&mut rows);
    sc.siege.table = empires::scenario::GapTable::new(rows);
    sc
}

fn close(x: f64, want: f64) -> bool {
    (x - want).abs() < 1e-12
}

/// Question 2's verdict, exactly. At equal base the gap is the die
/// difference d. A siege costs the city more than the army only at d = 3..5
/// (3 + 2 + 1 = 6 face pairs: 2 PV against 1 unit, or 3 against 0), the
/// army more at d <= 0 (21 pairs: 2 or 1 units against 0 PV), neither at
/// d = 1..2 (one for one):
/// an edge of (6 − 21)/36 = −15/36. On average the army loses 50/36 units
/// and the city 22/36 PV, at one army unit a city PV a gap of 28/36. A spy
/// comes out ahead when its action works (d >= 1, 15 pairs) and behind when
/// it is lost (d <= −2, 10 pairs): +5/36. Army, naval, coastal and spy
/// against spy are fair.
#[test]
fn w10_q2_verdict_per_table_on_the_criterion() {
    use empires::analysis::fairness::verdict;
    let sc = Scenario::default();
    let v = |k| verdict(&sc, &kind(&sc, k));
    for k in [CombatKind::Army, CombatKind::Naval, CombatKind::Coastal, CombatKind::SpyDuel] {
        assert!(v(k).fair, "{k:?}: {}", v(k).words());
        assert_eq!((v(k).edge, v(k).loss_gap), (0.0, 0.0), "{k:?}");
    }
    let siege = v(CombatKind::Siege);
    assert!(!siege.fair && !siege.edge_fair && !siege.loss_fair && siege.hurts.is_none());
    assert_eq!(siege.rows_break, None, "the shipped siege rows never pay a bigger gap less");
    assert!(close(siege.equal.ahead, 6.0 / 36.0) && close(siege.equal.behind, 21.0 / 36.0), "{siege:?}");
    assert!(close(siege.edge, -15.0 / 36.0));
    assert_eq!((siege.equal.a_loss, siege.equal.d_loss), (50.0 / 36.0, 22.0 / 36.0));
    assert!(close(siege.loss_gap, 28.0 / 36.0));
    assert_eq!(short(&siege), "favours the defender, a city costs too many units");
    assert!(
        siege.words().starts_with(
            "the defender comes out ahead more often at equal strength: it loses less than the attacker on 58.3% of \
             face pairs, the attacker on 16.7% (41.7 points); the defender loses 0.78 army units less on average at \
             equal strength (the attacker 1.39 army units, the defender 0.61 city PV = 0.61 army units)"
        ),
        "{}",
        siege.words()
    );
    let spy = v(CombatKind::Spy);
    assert!(close(spy.edge, 5.0 / 36.0) && close(spy.loss_gap, -5.0 / 36.0), "{spy:?}");
    // The tolerances are scenario data: loose ones let the siege's one
    // assault through (its city cost still fails, the grid's small armies
    // against big cities).
    let mut loose = sc.clone();
    loose.tables.fair_loss = 0.8;
    loose.tables.fair_chance = 0.42;
    let l = verdict(&loose, &kind(&loose, CombatKind::Siege));
    assert!(l.edge_fair && l.loss_fair && !l.fair && short(&l) == "a city costs too many units", "{l:?}");
}

/// The edge can fail where P(win) − P(lose) cannot (both sides roll the
/// same die, so that is 0 at equal base for every table): a tie row that
/// costs the city 3 PV and the army nothing. At equal base the attacker
/// comes out ahead at d = 0 (6 pairs), 3..4 (5) and 5 (1), behind at
/// d <= −1 (15), even at d = 1..2 (9, one for one): (12 − 15)/36 = −1/12.
/// The same row costs the city more than a win by 1 does, which the rows
/// check names.
#[test]
fn w10_q2_a_tie_row_that_costs_only_the_city_is_judged_on_the_edge() {
    use empires::analysis::fairness::verdict;
    let mut sc = siege_rows(|r| {
        r[1].city_pv = 3;
        r[1].army_loss = 0;
    });
    sc.tables.fair_loss = 1.0;
    let v = verdict(&sc, &kind(&sc, CombatKind::Siege));
    let t = kind(&sc, CombatKind::Siege);
    let c = t.cell(3, 3).unwrap();
    assert_eq!(c.win, c.lose, "P(win) − P(lose) is 0 at equal base");
    assert!(close(v.equal.ahead, 12.0 / 36.0) && close(v.equal.behind, 15.0 / 36.0), "{v:?}");
    assert!(close(v.edge, -1.0 / 12.0) && !v.edge_fair, "{v:?}");
    assert!(v.words().starts_with(
        "the defender comes out ahead more often at equal strength: it loses less than the attacker on 41.7% of \
         face pairs, the attacker on 33.3% (8.3 points)"
    ));
    assert_eq!(
        v.rows_break.as_ref().map(Words::words).as_deref(),
        Some("a bigger gap costs the loser less: gap 1 costs the city 1 PV, gap 0 costs it 3")
    );
    // `tables.fair_chance` is the edge's tolerance: just under 1/12 fails, 1/12 passes.
    sc.tables.fair_chance = 0.083;
    assert!(!verdict(&sc, &t).edge_fair);
    sc.tables.fair_chance = 1.0 / 12.0;
    assert!(verdict(&sc, &t).edge_fair);
}

/// A bigger gap never costs the winner more nor the loser less, over every
/// gap the grid reaches, both signs, every kind: siege rows that cost the
/// city 4 PV at gap 1-2 and 2 at gap 3-4 read fair on every average and
/// fail here, named in words; so does a tie that costs the army more than a
/// loss by 1, and an army row where winning by 4 costs the winner 2 units.
#[test]
fn w03_w10_q2_rows_that_pay_a_bigger_gap_less_fail() {
    use empires::analysis::fairness::verdict;
    let sc = siege_rows(|r| {
        r[2].city_pv = 4;
        r[3].city_pv = 2;
    });
    let v = verdict(&sc, &kind(&sc, CombatKind::Siege));
    assert_eq!(
        v.rows_break.as_ref().map(Words::words).as_deref(),
        Some("a bigger gap costs the loser less: gap 3 costs the city 2 PV, gap 2 costs it 4")
    );
    assert!(!v.fair && short(&v).contains("a bigger gap pays less"), "{}", short(&v));
    assert!(v.words().contains("; a bigger gap costs the loser less: gap 3 costs the city 2 PV, gap 2 costs it 4"));
    // The loser's side below 0: a tie that costs the army 2 units, a loss by 1 only 1.
    let sc = siege_rows(|r| {
        r[0].army_loss = 1;
        r[1].army_loss = 2;
    });
    let v = verdict(&sc, &kind(&sc, CombatKind::Siege));
    assert_eq!(
        v.rows_break.as_ref().map(Words::words).as_deref(),
        Some("a bigger gap costs the loser less: gap -1 costs the army 1 unit, gap 0 costs it 2")
    );
    // The army table reads the gap's size: a win by 4 or more that costs
    // the winner 2 units breaks it on the defender's side first (gap −4
    // below −3 on the grid's way up).
    let mut sc = Scenario::default();
    let mut rows = sc.army.losses.rows.clone();
    rows[2].winner_loss = 2;
    sc.army.losses = empires::scenario::GapTable::new(rows);
    let v = verdict(&sc, &kind(&sc, CombatKind::Army));
    assert_eq!(
        v.rows_break.as_ref().map(Words::words).as_deref(),
        Some("a bigger gap costs the winner more: gap -4 costs the defender 2 units, gap -3 costs it 1")
    );
    // The shipped tables keep every row in order.
    let sc = Scenario::default();
    for k in CombatKind::ALL {
        assert_eq!(verdict(&sc, &kind(&sc, k)).rows_break, None, "{k:?}");
    }
}

/// The exchange rate puts both sides in one unit: at 2.5 army units a city
/// PV, a siege at equal base costs the army 50/36 units and the city 22/36
/// PV worth 55/36, a loss gap of −5/36; the edge moves too, since a city PV
/// lost at d = 1..2 (9 pairs) now outweighs the army's unit: (15 − 21)/36.
/// Named in gold, the same trade at 100 gold a unit and 250 a PV is −500/36
/// gold. A rate that is not above 0 is refused where it is written.
#[test]
fn w10_q2_the_exchange_rate_prices_both_sides_in_one_unit() {
    use empires::analysis::fairness::verdict;
    use empires::report::fairness::criterion;
    let mut sc = Scenario::default();
    sc.tables.exchange.city_pv = 2.5;
    let v = verdict(&sc, &kind(&sc, CombatKind::Siege));
    assert!(close(v.loss_gap, -5.0 / 36.0) && close(v.equal.d_worth, 55.0 / 36.0), "{v:?}");
    assert!(close(v.edge, -6.0 / 36.0), "{v:?}");
    assert!(
        v.words().contains(
            "the attacker loses 0.14 army units less on average at equal strength (the attacker 1.39 army units, the \
             defender 0.61 city PV = 1.53 army units)"
        ),
        "{}",
        v.words()
    );
    assert!(criterion(&sc).contains("in army units (an army unit 1, a city PV 2.5, a ship PV 1,"));
    sc.tables.exchange =
        empires::scenario::ExchangeSpec { unit: "gold".into(), army_unit: 100.0, city_pv: 250.0, ..Default::default() };
    let v = verdict(&sc, &kind(&sc, CombatKind::Siege));
    assert!((v.loss_gap + 500.0 / 36.0).abs() < 1e-9, "{v:?}");
    assert!(v.words().contains("the attacker loses 13.89 gold less on average"), "{}", v.words());
    // One for one, the naval table is fair; at 100 gold a unit and 1 a
    // ship PV, sea and land still agree (both gaps are 0).
    let verdicts: Vec<_> = CombatKind::ALL.iter().map(|&k| verdict(&sc, &kind(&sc, k))).collect();
    assert!(empires::analysis::fairness::sea_land(&sc, &verdicts)[0].alike);

    let dir = std::env::temp_dir().join(format!("empires-exchange-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (body, want) in [
        (
            "city_pv = -2\n",
            "bad.toml:3:11: tables.exchange.city_pv: must be a number above 0, what a city PV is worth in army units \
             (found -2)",
        ),
        (
            "spy = nan\n",
            "bad.toml:3:7: tables.exchange.spy: must be a number above 0, what a spy is worth in army units (found NaN)",
        ),
        ("unit = \"\"\n", "bad.toml:3:8: tables.exchange.unit: must name the common unit"),
    ] {
        let bad = dir.join("bad.toml");
        std::fs::write(&bad, format!("name = \"bad\"\n[tables.exchange]\n{body}")).unwrap();
        let o = bin().args(["tables", "--scenario"]).arg(&bad).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{body}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(want), "{e}");
    }
    let o = bin().args(["tables", "--set", "tables.exchange.ship_pv=0"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("tables.exchange.ship_pv: must be a number above 0"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The verdict line is the first line of `tables`, the page's answer and
/// the README's quote, word for word; a bad tolerance is a clear input error.
#[test]
fn q2_verdict_is_the_first_line_the_page_answer_and_the_readme_quote() {
    let dir = std::env::temp_dir().join(format!("empires-q2-{}", std::process::id()));
    let o = bin().args(["tables", "--out"]).arg(&dir).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let first = text.lines().next().unwrap();
    assert!(first.starts_with(empires::report::fairness::LEAD), "{first}");
    assert!(first.contains("Criterion: fair means"), "{first}");
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let start = html.find("<p class=\"answer\">").unwrap() + 18;
    let answer = &html[start..start + html[start..].find("</p>").unwrap()];
    assert_eq!(answer, first);
    let readme = include_str!("../../README.md");
    assert!(readme.contains(first), "README.md quotes the verdict as `empires tables` prints it:\n{first}");
    let o = bin().args(["tables", "--set", "tables.fair_chance=2", "--out"]).arg(&dir).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("tables.fair_chance: must be a probability"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tables --diff` lists every part of the criterion for every table, A, B
/// and B − A. Siege row 1's army loss 2 -> 1 moves the siege attacker's
/// expected loss at equal base by exactly −15/36 and its loss gap with it
/// (the coastal attack's gap over a siege closes by as much), and the
/// dearest city taken; the edge stays (at d <= −1 the army still loses more
/// than the city), and so does the worst cell (1 unit never takes a 3-PV
/// city either way).
#[test]
fn w10_tables_diff_shows_how_a_change_moves_each_criterion() {
    use empires::analysis::fairness::city_costs;
    let dir = std::env::temp_dir().join(format!("empires-diff-{}", std::process::id()));
    let other = siege_row_1_costs_1(&dir);
    let o = bin().args(["tables", "--diff"]).arg(&other).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let parts = [
        "edge: P(ahead) − P(behind) at equal base",
        "attacker loss at equal base (army units)",
        "defender loss at equal base (army units)",
        "loss gap, attacker − defender (army units)",
        "more strength hurts",
        "a bigger gap costs the winner more or the loser less",
        "verdict",
    ];
    // A row's columns (table, part, A, B, B − A), split where two spaces or
    // more part them.
    let line = |table: &str, part: &str| -> Vec<String> {
        let l = out
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{table} ")) && l.contains(&format!(" {part}")))
            .unwrap_or_else(|| panic!("no {table} {part} line:\n{out}"));
        l.split("  ").map(str::trim).filter(|c| !c.is_empty()).map(String::from).collect()
    };
    let ab = |table: &str, part: &str| line(table, part)[2..].to_vec();
    for k in CombatKind::ALL {
        for part in parts {
            assert_eq!(line(k.name(), part).len(), 5, "{k:?} {part}:\n{out}");
        }
    }
    for part in ["worst city cost, units a PV taken", "dearest city taken, units a PV"] {
        assert_eq!(line("siege", part).len(), 5, "{part}:\n{out}");
    }
    for pair in ["naval − army", "coastal − siege"] {
        for part in ["sea − land: edge", "sea − land: loss gap (army units)", "verdict"] {
            assert_eq!(line(pair, part).len(), 5, "{pair} {part}:\n{out}");
        }
    }
    let moved: Vec<&str> = out.lines().filter(|l| l.trim_end().ends_with(|c: char| c.is_ascii_digit())).collect();
    assert_eq!(moved.len(), 4, "{out}");
    assert_eq!(ab("siege", "attacker loss at equal base"), ["1.389", "0.972", "-0.417"]);
    assert_eq!(ab("siege", "loss gap, attacker − defender"), ["0.778", "0.361", "-0.417"]);
    assert_eq!(ab("coastal − siege", "sea − land: loss gap"), ["-0.778", "-0.361", "+0.417"]);
    assert_eq!(ab("siege", "edge: P(ahead)"), ["-0.417", "-0.417", "="]);
    assert_eq!(ab("siege", "worst city cost"), ["never (3 PV, 1 unit)", "never (3 PV, 1 unit)", "="]);
    let dearest = |sc: &Scenario| city_costs(sc).iter().map(|c| c.per_pv).filter(|x| x.is_finite()).fold(0.0, f64::max);
    let b = siege_rows(|r| r[0].army_loss = 1);
    let (x, y) = (dearest(&Scenario::default()), dearest(&b));
    assert!(close(x, 517.0 / 9.0));
    assert_eq!(ab("siege", "dearest city taken"), [format!("{x:.3}"), format!("{y:.3}"), format!("{:+.3}", y - x)]);
    let verdicts: Vec<&str> = out.lines().filter(|l| l.contains(" verdict ")).collect();
    assert!(
        verdicts.iter().all(|l| l.trim_end().ends_with(if l.trim_start().starts_with("siege") {
            "changed"
        } else {
            "="
        })),
        "{out}"
    );
    assert!(out.contains("naval battles to destruction: 0 of 25 cells move P(win)"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--diff` and `--against-run` print a check and play nothing: a flag that
/// only shapes the readings or the written files is refused with exit 2,
/// not silently dropped.
#[test]
fn tables_diff_and_against_refuse_flags_they_cannot_apply() {
    let dir = std::env::temp_dir().join(format!("empires-diff-refuse-{}", std::process::id()));
    let other = siege_row_1_costs_1(&dir);
    let other = other.to_str().unwrap();
    for (args, flag) in [
        (vec!["--diff", other, "--readings-campaigns", "100"], "--readings-campaigns with --diff"),
        (vec!["--diff", other, "--seed", "9"], "--seed with --diff"),
        (vec!["--diff", other, "--format", "json"], "--format with --diff"),
        (vec!["--diff", other, "--out", "x"], "--out with --diff"),
        (vec!["--against-run", "some-run", "--readings-campaigns", "0"], "--readings-campaigns with --against-run"),
        (vec!["--against-run", "some-run", "--diff", other], "not both"),
    ] {
        let o = bin().arg("tables").args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The default scenario with siege row 1's `army_loss` 2 -> 1 (W-10),
/// written as `siege1.toml` in `dir`: the table change of question 3.
pub fn siege_row_1_costs_1(dir: &std::path::Path) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let text = include_str!("../../scenarios/default.toml").replacen(
        "to = -1\ncity_pv = 0\narmy_loss = 2",
        "to = -1\ncity_pv = 0\narmy_loss = 1",
        1,
    );
    let path = dir.join("siege1.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Q2's cost criterion over the whole siege-chain grid, by hand (W-10),
/// counting the units spent for each city taken: expected units spent over
/// P(the city falls) × PV.
///
/// - An army of 8 (+1) against a 1-PV city of base 3 takes it in one
///   assault and loses a unit on the 10 face pairs of a gap of 1 to 4:
///   10/36 units a PV.
/// - An army of 1 (+1) never takes a city of 3 PV or more: its gap is at
///   most 4, which takes 2 PV, and every assault spends its unit. The
///   default's worst cell, 3 PV by 1 unit, first of the three.
/// - The dearest city taken is 5 PV by 2 units (gap = d). It falls only on
///   d = 5 first (1/36: 3 PV, no unit lost), then from 2 PV and 2 units
///   with P 1/4 (d = 0 then d >= 4: 6·3; d = 1..2 then d >= 2: 9·10; d >= 3
///   at once: 6·36; over 36²), so P(falls) = 1/144. Units spent: 2 on d <=
///   −1 (15), 1 + 1 on d = 0..4 (20: one unit left, which never takes 3 PV
///   or more and spends itself), and on d = 5 what the 2-PV siege spends,
///   (15·2 + 6·2 + 9·2 + 5·1)/36 = 65/36: 70/36 + 65/1296 = 2585/1296. So
///   2585/1296 ÷ (5/144) = 517/9 ≈ 57.44 units a PV.
#[test]
fn w10_q2_units_per_city_pv_by_hand() {
    use empires::analysis::fairness::{city_costs, verdict, worst_city};
    let sc = Scenario::default();
    let c = city_costs(&sc);
    assert_eq!(c.len(), 5 * 8, "every city PV by every army size");
    let at = |pv, u| c.iter().find(|c| c.pv == pv && c.units == u).unwrap();
    assert!(close(at(1, 8).per_pv, 10.0 / 36.0) && close(at(1, 8).falls, 1.0) && at(1, 8).worth_ep == 2);
    let never: Vec<(i32, i32)> = c.iter().filter(|c| c.falls == 0.0).map(|c| (c.pv, c.units)).collect();
    assert_eq!(never, [(3, 1), (4, 1), (5, 1)]);
    let w = worst_city(&c).unwrap();
    assert_eq!((w.pv, w.units, w.per_pv), (3, 1, f64::INFINITY));
    let d = at(5, 2);
    assert!(close(d.falls, 1.0 / 144.0) && close(d.units_spent, 2585.0 / 1296.0), "{d:?}");
    assert!((d.per_pv - 517.0 / 9.0).abs() < 1e-9, "{d:?}");
    let taken: Vec<_> = c.iter().filter(|c| c.per_pv.is_finite()).cloned().collect();
    assert_eq!(worst_city(&taken).map(|c| (c.pv, c.units)), Some((5, 2)));
    let v = verdict(&sc, &kind(&sc, CombatKind::Siege));
    assert_eq!(
        v.costly.as_ref().map(Words::words).as_deref(),
        Some(
            "the worst cell: an army of 1 unit never takes a 3-PV city; no city is taken at 3 of the 40 cells; the \
             dearest city taken: a 5-PV city costs an army of 2 units 57.44 units a PV for each city taken, as it \
             falls 0.69% of the time for 1.99 units spent on average"
        )
    );
    // Over armies of 4 to 8 every city falls; the worst is then a number,
    // within 3 units a PV and not within 2.9.
    let mut big = sc.clone();
    big.tables.siege_army_units = [4, 8];
    big.tables.fair_units_per_pv = 3.0;
    assert_eq!(verdict(&big, &kind(&big, CombatKind::Siege)).costly, None);
    big.tables.fair_units_per_pv = 2.9;
    let v = verdict(&big, &kind(&big, CombatKind::Siege));
    let costly = v.costly.unwrap().words();
    assert!(costly.starts_with("the worst cell: a 5-PV city costs an army of 4 units 2.95 units a PV"), "{costly}");
    assert!(costly.ends_with(", more than 2.9"), "{costly}");
    // Only a siege takes a city.
    assert_eq!(verdict(&sc, &kind(&sc, CombatKind::Army)).costly, None);
    let o = bin().args(["tables", "--set", "tables.fair_units_per_pv=-1"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("tables.fair_units_per_pv: must be 0 or more (found -1)"));
}

/// The text and the page show the whole city-cost grid, a row per city PV
/// and a column per army size, and name the worst cell under it.
#[test]
fn w10_q2_the_city_cost_grid_is_shown_whole() {
    let dir = std::env::temp_dir().join(format!("empires-grid-{}", std::process::id()));
    let o = bin().args(["tables", "--readings-campaigns", "0", "--out"]).arg(&dir).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let head = text.lines().position(|l| l.trim_start().starts_with("city PV  1 unit  2 units")).expect("grid header");
    let rows: Vec<Vec<&str>> = text.lines().skip(head + 1).take(5).map(|l| l.split_whitespace().collect()).collect();
    let shape: Vec<(String, usize)> = rows.iter().map(|r| (r[0].to_string(), r.len())).collect();
    assert_eq!(
        shape,
        (1..=5).map(|pv: i32| (pv.to_string(), 9)).collect::<Vec<_>>(),
        "a row per PV, a column per army"
    );
    assert_eq!((rows[0][8], rows[2][1], rows[4][2]), ("0.278", "never", "57.444"), "{rows:?}");
    assert!(
        text.lines().nth(head + 6).unwrap().contains("over the criterion: the worst cell: an army of 1 unit never")
    );
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(html.contains("57.444") && html.contains("over the criterion: the worst cell"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tables.json")).unwrap()).unwrap();
    assert_eq!(json["city_costs"]["cells"].as_array().unwrap().len(), 40);
    assert_eq!(json["criterion"]["exchange"]["unit"], "army units");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The gate's `siege_chain` reads the attacker as the army's units and the
/// defender as the city's PV: 1 unit against 2 PV is spent first on 33/36
/// (w10_siege_chain_by_hand), 2 units against 1 PV on 15/36 (d <= −1) +
/// 6/36 · 26/36 (d = 0, then 1 unit against 1 PV) = 29/54.
#[test]
fn w10_gate_siege_chain_attacker_is_the_army() {
    use empires::gate::measure::exact;
    use empires::gate::spec::TableRef;
    let sc = Scenario::default();
    let at = |attacker, defender| {
        exact(&sc, &TableRef { kind: "siege_chain".into(), attacker, defender, value: "army_spent_first".into() })
            .unwrap()
            .value
    };
    assert!(close(at(1, 2), 33.0 / 36.0), "{}", at(1, 2));
    assert!(close(at(2, 1), 29.0 / 54.0), "{}", at(2, 1));
}

/// Q2's sea-and-land criterion, exactly, in the common unit: at equal base
/// a naval fight gives the attacker what an army fight does (an edge of 0
/// and a loss gap of 0 in both), while a coastal attack's edge is 0 against
/// a siege's −15/36 and its loss gap 0 against a siege's 50/36 − 22/36 =
/// 28/36. A scenario file's bad tolerance is reported at its line and
/// column.
#[test]
fn w13_w16_q2_sea_and_land_at_equal_strength() {
    use empires::analysis::fairness::{sea_land, verdict};
    let sc = Scenario::default();
    let verdicts: Vec<_> = CombatKind::ALL.iter().map(|&k| verdict(&sc, &kind(&sc, k))).collect();
    let p = sea_land(&sc, &verdicts);
    assert_eq!(
        p.iter().map(|p| (p.sea, p.land)).collect::<Vec<_>>(),
        [(CombatKind::Naval, CombatKind::Army), (CombatKind::Coastal, CombatKind::Siege)]
    );
    assert!(p[0].alike && p[0].loss_diff == 0.0 && p[0].edge_diff == 0.0, "{p:?}");
    assert!(!p[1].alike && close(p[1].loss_diff, -28.0 / 36.0) && close(p[1].edge_diff, 15.0 / 36.0), "{p:?}");
    assert_eq!(
        p[1].words(),
        "coastal favours the attacker over siege at equal strength (the attacker's chance to come out ahead minus \
         behind 41.7 points higher, an attacker's loss minus the defender's 0.78 army units lower at sea)"
    );
    let mut loose = sc.clone();
    loose.tables.fair_sea_land = 0.8;
    assert!(sea_land(&loose, &verdicts).iter().all(|p| p.alike));
    // The answer line says it before its criterion.
    let answer = empires::report::fairness::answer(&sc, &verdicts);
    assert!(answer.contains(&format!(". Sea and land: naval as army; {}. Criterion:", p[1].words())), "{answer}");
    let dir = std::env::temp_dir().join(format!("empires-sea-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "name = \"bad\"\n[tables]\nfair_sea_land = -0.5\n").unwrap();
    let o = bin().args(["tables", "--scenario"]).arg(&bad).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("bad.toml:3:17: tables.fair_sea_land: must be 0 or more (found -0.5)"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
