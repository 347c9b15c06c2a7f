//! What the combat answers rest on: the readings of the documents that
//! decide how combats pay, each shipped one way and flipped by one scenario
//! key (docs/rules.md, "Readings as keys"), with what flipping it moves
//! measured in play: the shipped scenario and the flipped one on the same
//! seeds, paired campaign by campaign, Holm over every row. `tables` shows
//! the table beside its exact answer, so a designer sees which of its
//! verdicts a reading could change and by how much in play.

use super::compare::{ALPHA, Row, adjust, paired};
use super::metrics::{CombatStat, Measured, Metric, measure};
use crate::error::Error;
use crate::rules::CombatKind;
use crate::scenario::Scenario;
use crate::stats::Correction;

/// One reading: the rule, what the documents say, the reading shipped, the
/// key that flips it and what flipping it moves.
#[derive(Clone, Debug)]
pub struct CombatReading {
    pub rule: &'static str,
    /// The documents' words that leave the reading open.
    pub text: &'static str,
    /// The reading the default scenario ships.
    pub shipped: &'static str,
    /// The flip, as `--set KEY=VALUE` writes it.
    pub key: &'static str,
    pub value: &'static str,
    /// Measured with two teams of two (E-02 only applies to teams).
    pub teams: bool,
    /// What flipping it moves, measured in play.
    pub moves: Vec<Metric>,
    change: fn(&mut Scenario),
}

impl CombatReading {
    /// `KEY=VALUE`.
    pub fn flag(&self) -> String {
        format!("{}={}", self.key, self.value)
    }

    /// `sc` with this reading flipped, nothing else changed.
    pub fn apply(&self, sc: &Scenario) -> Scenario {
        let mut s = sc.clone();
        (self.change)(&mut s);
        s
    }
}

/// The readings that decide a combat answer, in the order the tables list
/// the kinds they touch.
pub fn readings() -> Vec<CombatReading> {
    vec![
        CombatReading {
            rule: "W-05",
            text: "\"Une armée stationnée dans une cité ou un bâtiment défensif ajoute les points de défense à sa \
                   force\" (no side named); every other place's \"Défense\" in 003 is in a defender's score",
            shipped: "a place's defence counts only for the army attacked there",
            key: "army.garrison_attacks",
            value: "true",
            teams: false,
            moves: vec![
                Metric::Combat(CombatKind::Army, CombatStat::AttackerWins),
                Metric::Combat(CombatKind::Army, CombatStat::AttackerLoss),
            ],
            change: |s| s.army.garrison_attacks = true,
        },
        CombatReading {
            rule: "W-07",
            text: "\"Assaut (+1 force)\"; W-09's siege score: \"Unités + Expérience + Initiative + Engins + dé\"",
            shipped: "Assault adds nothing to a siege assault",
            key: "army.formations.assault_in_sieges",
            value: "true",
            teams: false,
            moves: vec![
                Metric::Combat(CombatKind::Siege, CombatStat::AttackerWins),
                Metric::Combat(CombatKind::Siege, CombatStat::DefenderLoss),
                Metric::CitiesTaken,
            ],
            change: |s| s.army.formations.assault_in_sieges = true,
        },
        CombatReading {
            rule: "W-06",
            text: "\"en cas de victoire contre une armée adverse entière\"",
            shipped: "any army victory gives experience",
            key: "army.xp_needs_destroyed",
            value: "true",
            teams: false,
            moves: vec![Metric::XpGained],
            change: |s| s.army.xp_needs_destroyed = true,
        },
        CombatReading {
            rule: "E-02",
            text: "\"chaque membre de l'équipe gagnera 2 points\" (a team's minor victory, 3 EP less 1)",
            shipped: "only the member who fought earns the battle, less 1; a teammate at peace earns the peace EP",
            key: "ep.team_shares_battles",
            value: "true",
            teams: true,
            moves: vec![Metric::EpEarned],
            change: |s| s.ep.team_shares_battles = true,
        },
        CombatReading {
            rule: "W-01, W-25",
            text: "\"Chaque victoire rapporte +1 or\" heads the combat section; spies act \"sans déclencher de guerre \
                   ouverte\"",
            shipped: "a spy duel won loots nothing",
            key: "spy.duel_loots",
            value: "true",
            teams: false,
            moves: vec![Metric::Gold("loot"), Metric::Combat(CombatKind::SpyDuel, CombatStat::Count)],
            change: |s| s.spy.duel_loots = true,
        },
        CombatReading {
            rule: "G-15, G-28",
            text: "the documents give a mine no PV; G-28 lets a spy take 1 PV from any building",
            shipped: "a mine has 1 PV, so one spy hit destroys it",
            key: "buildings.mine.pv",
            value: "2",
            teams: false,
            moves: vec![Metric::Gold("mines")],
            change: |s| s.buildings.mine.pv = 2,
        },
    ]
}

/// Two teams of two on a four-seat scenario (seats 1 and 3, 2 and 4), as
/// `players[K].team` would set them; other seatings are left as given.
pub fn with_teams(sc: &Scenario) -> Scenario {
    let mut s = sc.clone();
    if s.players.len() == 4 {
        for (i, p) in s.players.iter_mut().enumerate() {
            p.team = Some(1 + (i % 2) as u8);
        }
    }
    s
}

/// One reading's rows: each quantity it moves, shipped against flipped.
#[derive(Clone, Debug)]
pub struct ReadingRow {
    pub reading: CombatReading,
    pub rows: Vec<Row>,
}

/// The readings table.
#[derive(Clone, Debug)]
pub struct Readings {
    pub campaigns: u64,
    pub seed: u64,
    pub rotate_seats: bool,
    pub rows: Vec<ReadingRow>,
    /// Tests in the Holm family: every row of every reading.
    pub tests: usize,
    /// What the shipped scenario's players did in its campaigns: the
    /// in-play rows say nothing of a part they never played (a siege
    /// reading read off campaigns without a siege), and the table says so
    /// (`exercised`).
    pub coverage: crate::sim::record::Coverage,
}

impl Readings {
    /// The campaigns `run` plays.
    pub fn planned(campaigns: u64) -> u64 {
        let r = readings();
        // The shipped scenario once, with teams once, and each flip.
        (2 + r.len() as u64) * campaigns
    }

    /// Whether a row moved beyond chance (Holm over the table, 5%).
    pub fn moved(r: &Row) -> bool {
        r.p_adj <= ALPHA
    }
}

/// Play the shipped scenario (and its two-team seating) and each flipped
/// reading on `campaigns` campaigns of master seed `seed`.
pub fn run(sc: &Scenario, seed: u64, campaigns: u64) -> Result<Readings, Error> {
    let all = readings();
    // Every seat a different strategy in the default: rotate, as compare does.
    let rotate = sc.players.iter().any(|p| p.strategy != sc.players[0].strategy);
    let metrics = |teams: bool| -> Vec<Metric> {
        let mut m: Vec<Metric> = Vec::new();
        for r in all.iter().filter(|r| r.teams == teams) {
            for x in &r.moves {
                if !m.contains(x) {
                    m.push(x.clone());
                }
            }
        }
        m
    };
    let play = |s: &Scenario, m: &[Metric]| -> Result<Measured, Error> {
        measure(s, seed, campaigns, rotate, m, false).map_err(crate::rules::setup::SetupError::into_error)
    };
    let (plain, teamed) = (metrics(false), metrics(true));
    let base = play(sc, &plain)?;
    let team_sc = with_teams(sc);
    let team_base = play(&team_sc, &teamed)?;
    let mut rows = Vec::new();
    for r in all {
        let (from, base, m) = if r.teams { (&team_sc, &team_base, &teamed) } else { (sc, &base, &plain) };
        let flipped = play(&r.apply(from), m)?;
        let mut paired_rows = paired(m, base, &flipped);
        paired_rows.retain(|row| r.moves.contains(&row.metric));
        rows.push(ReadingRow { reading: r, rows: paired_rows });
    }
    let tests = adjust(rows.iter_mut().flat_map(|r| r.rows.iter_mut()), Correction::Holm);
    Ok(Readings { campaigns, seed, rotate_seats: rotate, rows, tests, coverage: base.coverage.clone() })
}
