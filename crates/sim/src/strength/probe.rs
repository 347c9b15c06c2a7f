//! `empires probe`: the competence check. Can a player use what it is
//! given? Every answer about what gold, a mine or a pillage is worth is an
//! answer about what players do with them, so it is only as good as the
//! players. Two kinds of probe test a strategy against copies of itself,
//! seats rotated, on common seeds:
//!
//! - **Gift probes.** One player is handed a resource at the start (gold, a
//!   unit, a spy, a ship, an EP; `setup::give`), its copies are not. A
//!   player can always leave a gift unused and play the copies' game, so a
//!   player that uses gifts well never does worse for one. A gift that costs wins
//!   shows a player that misuses it.
//! - **Restriction probes.** One player is forbidden one kind of action (a
//!   purchase, a recruit, a kind of combat; `strategy::restrict`). A
//!   player that uses an action well chooses it only where it helps, so forbidding
//!   it never helps. A restriction that wins more shows a player that
//!   overuses that action.
//!
//! Each probe's campaign `i` is paired with the baseline's (every slot the
//! strategy itself, no gift) on the same seed: the figure is the probed
//! player's win minus the baseline's in that slot, per campaign, with its
//! 95% interval. The harm (a gift's loss, a restriction's gain) is tested
//! one-sided beyond a tolerance (1 win-rate point by default: a harm the
//! check does not call a failure), and the p-values are adjusted with Holm
//! over the probes that changed a game, so the chance that a player without
//! over-use is called "bounded by the players" is at most α (5%). A probe
//! that changed no game is no evidence and is left out of the family. Each
//! probe states the harm it would find with 80% power (at Holm's first
//! level), and "no over-use found" is withheld when that harm exceeds the
//! power floor (5 points by default): the check then says it is too weak
//! to tell. It tests over-use, never strength: a player that ignores a
//! resource passes; a field's strength is its exploitability
//! (`strength::psro`).
//!
//! What it cannot see: each probe changes one kind of action, so a player
//! that passes can still lose to one that changes two things together. On
//! straits the default island's `tuned` passed every probe while a player
//! that bought an engine first and besieged at any margin won 71% against
//! it (docs/players.md): forbidding units alone, or lowering the siege
//! margin alone, changed nothing it gained from. A best response is the
//! test for such holes, and a weighted player can ask for one as a probe of
//! its own (`best_response`, `probe --best-response`): every key of the
//! player is tuned at once against copies of it, on seeds of its own, and
//! the player found is played in the probed slot on the probes' seeds, where
//! it must not win more than the tolerance. It costs a tuning, so a study
//! does not run it for every answer.

use crate::error::Error;
use crate::rules::setup::Gift;
use crate::scenario::{ActionKind, Scenario, StrategySpec};
use crate::sim::lineup::{Lineup, PlayedCampaign};
use crate::stats::{Correction, Mean, detectable_one_sided, mean_interval, p_beyond, wilson};
use rayon::prelude::*;

/// The check's settings; every study that prints a verdict uses the same.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The gold gift (default 500: five units' worth on the default prices).
    pub gold: i32,
    /// The harm, in win-rate (0.01 = 1 point), below which a probe passes.
    pub tolerance: f64,
    /// Family-wise error of "bounded by the players".
    pub alpha: f64,
    /// The largest harm (win-rate share) the check may miss at 80% power
    /// and still say "no over-use found"; above it the verdict is
    /// withheld (`Verdict::Weak`).
    pub power_floor: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { gold: 500, tolerance: 0.01, alpha: 0.05, power_floor: 0.05 }
    }
}

/// What a probe does to the probed player.
#[derive(Clone, Debug, PartialEq)]
pub enum Test {
    Gift(Gift),
    Forbid(Vec<ActionKind>),
    /// The probed slot plays this player instead (a best response).
    Play(Box<StrategySpec>),
    /// No army of the probed player leaves a garrison
    /// (`StrategySpec::hold_garrisons`).
    HoldGarrisons,
}

/// The topic of a probe that bears on every answer: a best response that
/// beats the player shows it can be beaten whatever the answer is about.
pub const ANY_TOPIC: &str = "any";

/// One probe of the family.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    /// `gift: 500 gold`, `no mine`.
    pub name: String,
    pub test: Test,
    /// What an answer resting on this probe is about (`gold`, `mine`,
    /// `pillage`, `units`, `siege`...): a study marks its answer "bounded by
    /// the players" when a probe on one of its topics fails.
    pub topics: &'static [&'static str],
}

impl Probe {
    pub fn gift(g: Gift, topics: &'static [&'static str]) -> Probe {
        Probe { name: format!("gift: {}", g.label()), test: Test::Gift(g), topics }
    }

    fn forbid(name: &str, kinds: &[ActionKind], topics: &'static [&'static str]) -> Probe {
        Probe { name: format!("no {name}"), test: Test::Forbid(kinds.to_vec()), topics }
    }

    pub fn is_gift(&self) -> bool {
        matches!(self.test, Test::Gift(_))
    }

    /// The best-response probe: `player` in the probed slot; `how` says
    /// how it was found.
    pub fn best_response(player: StrategySpec, how: &str) -> Probe {
        Probe { name: format!("best response ({how})"), test: Test::Play(Box::new(player)), topics: &[ANY_TOPIC] }
    }

    /// Whether an answer about `topics` rests on this probe.
    fn bears_on(&self, topics: &[&str]) -> bool {
        self.topics.iter().any(|t| *t == ANY_TOPIC || topics.contains(t))
    }
}

/// The budget of the best-response probe's tuning.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BestResponse {
    pub generations: u32,
    /// Campaigns an evaluation plays (rounded up to a multiple of the seats).
    pub per_eval: u64,
    pub sigma: f64,
}

impl Default for BestResponse {
    fn default() -> Self {
        BestResponse { generations: 40, per_eval: 1000, sigma: 0.2 }
    }
}

impl BestResponse {
    /// Campaigns an evaluation plays on `seats` seats.
    fn per_eval(&self, seats: usize) -> u64 {
        let seats = seats.max(1) as u64;
        self.per_eval.max(1).div_ceil(seats) * seats
    }

    /// CMA-ES's default population over every key, which it tunes.
    fn population() -> usize {
        crate::strength::tune::default_population(crate::scenario::knobs::KNOBS.len())
    }

    /// The campaigns its tuning plays on `seats` seats, for a progress bar.
    pub fn campaigns(&self, seats: usize) -> u64 {
        crate::strength::tune::campaigns(self.generations as u64, Self::population(), self.per_eval(seats))
    }
}

/// Tune every key of the weighted player `name` of `sc` at once against
/// copies of it (CMA-ES, `strength::tune`), on seeds drawn from `master`
/// but never those the probes play, and return the player it finds (the
/// best on the tuning's reference campaigns), the probe that plays it,
/// and the campaigns the tuning played. No gift and no repair: the point
/// is the strongest exploit the budget finds, not a player that passes
/// the check.
pub fn best_response(sc: &Scenario, name: &str, master: u64, budget: BestResponse) -> Result<(Probe, u64), Error> {
    use crate::strength::tune::{self, Field, Flow, Problem};
    let keys: Vec<String> = crate::scenario::knobs::KNOBS.iter().map(|k| k.key.to_string()).collect();
    let per_eval = budget.per_eval(sc.players.len());
    let population = BestResponse::population();
    let settings = tune::Settings {
        start: name.to_string(),
        field: Field::Fixed(vec![name.to_string()]),
        keys,
        per_eval,
        generations: budget.generations,
        population,
        sigma: budget.sigma,
        // Its own seeds: the tuning's masters are mixed from this one, so
        // no campaign it played is one the probe plays on `master`.
        seed: crate::seed::mix2(master, 0x6272_5f70_726f_6265),
        vary: Vec::new(),
        variants: 0,
        gift_gold: 0,
        given: None,
        // Win rates, as the probes it joins measure (a best response of
        // the shipped checks, whose figures rest on them).
        objective: tune::Objective::Wins,
        start_at: None,
    };
    let p = Problem::new(sc, settings)?;
    let rec = tune::tune(&p, None, |_| Flow::Continue)?;
    let played = tune::campaigns(rec.generations.len() as u64, population, per_eval);
    // The best point on the reference campaigns (the start or a
    // generation's mean), not the last mean: with no clear way up, the
    // mean drifts on noise to a worse player, which would make the probe
    // test nothing.
    let player = p.best_by_reference(&rec);
    let how = format!("all keys, {} × {} × {} campaigns", budget.generations, population, per_eval);
    Ok((Probe::best_response(player, &how), played))
}

/// The whole family: five gifts, then one restriction per purchase, per
/// recruit, per kind of combat and per kind of move.
pub fn family(s: &Settings) -> Vec<Probe> {
    use ActionKind as K;
    vec![
        Probe::gift(Gift::Gold(s.gold), &["gold", "mine", "pillage"]),
        Probe::gift(Gift::Units(1), &["units", "army"]),
        Probe::gift(Gift::Spies(1), &["spies"]),
        Probe::gift(Gift::Ships(1), &["ships", "naval"]),
        Probe::gift(Gift::Ep(1), &["ep"]),
        Probe::forbid("mine", &[K::Mine], &["mine", "gold"]),
        Probe::forbid("pillage", &[K::Pillage], &["pillage", "gold"]),
        Probe::forbid("capture", &[K::Capture], &["ep"]),
        Probe::forbid("conquer", &[K::Conquer], &["ep"]),
        Probe::forbid("castle", &[K::Castle], &["ep"]),
        Probe::forbid("city", &[K::City], &["ep"]),
        Probe::forbid("port", &[K::Port], &["ep", "naval"]),
        Probe::forbid("tower", &[K::Tower], &["ep"]),
        Probe::forbid("bridge", &[K::Bridge], &["ep"]),
        Probe::forbid("unit recruit", &[K::RecruitUnit], &["gold", "units", "army"]),
        Probe::forbid("ship recruit", &[K::RecruitShip], &["gold", "ships", "naval"]),
        Probe::forbid("spy recruit", &[K::RecruitSpy], &["gold", "spies"]),
        Probe::forbid("engine recruit", &[K::RecruitEngine], &["gold", "siege"]),
        Probe::forbid("army attack", &[K::Attack], &["army", "loot"]),
        Probe::forbid("siege", &[K::Siege], &["siege", "loot"]),
        Probe::forbid("naval combat", &[K::NavalAttack, K::CoastalAttack], &["naval", "ships", "loot"]),
        Probe::forbid("transport", &[K::Transport], &["naval"]),
        // Moves: a player that marches (or sails) where it should stay
        // loses to a copy that holds still; on the duel `tuned` won 2.3
        // to 2.9 points more when it could not move its armies.
        Probe::forbid("army move", &[K::MoveArmy], &["army", "units"]),
        Probe::forbid("ship move", &[K::MoveShip], &["naval", "ships"]),
        Probe::forbid("spy move", &[K::MoveSpy], &["spies"]),
        Probe::forbid("spy action", &[K::SpyAction, K::SpyDuel], &["spies"]),
        // A siege won offers three outcomes (W-11); a player that always
        // takes one where another wins more fails its probe.
        Probe::forbid("conquest after a siege", &[K::OutcomeConquer], &["siege"]),
        Probe::forbid("federation after a siege", &[K::OutcomeFederate], &["siege"]),
        Probe::forbid("pillage after a siege", &[K::OutcomePillage], &["siege"]),
        // Garrison everything: an army that marches out of its city or
        // castle where holding it wins more is over-use of the army move
        // the blanket "no army move" can hide (it also stops every march
        // that should be made).
        Probe {
            name: "garrison everything (no army leaves a garrison)".into(),
            test: Test::HoldGarrisons,
            topics: &["army", "units"],
        },
    ]
}

/// The probes of `family(s)` on any of `topics` (all of them for `None`).
pub fn on_topics(s: &Settings, topics: Option<&[&str]>) -> Vec<Probe> {
    family(s).into_iter().filter(|p| topics.is_none_or(|t| p.topics.iter().any(|x| t.contains(x)))).collect()
}

/// The probes an answer about forbidding `kinds` rests on: the
/// restrictions that forbid one of them, and the gifts on a topic of
/// those (forbidding mines: `no mine` and the gold gift).
pub fn for_kinds(s: &Settings, kinds: &[ActionKind]) -> Vec<Probe> {
    let all = family(s);
    let hits = |p: &Probe| matches!(&p.test, Test::Forbid(ks) if ks.iter().any(|k| kinds.contains(k)));
    let topics: Vec<&str> = all.iter().filter(|p| hits(p)).flat_map(|p| p.topics.iter().copied()).collect();
    all.into_iter().filter(|p| hits(p) || (p.is_gift() && p.topics.iter().any(|t| topics.contains(t)))).collect()
}

/// One probe's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub probe: Probe,
    pub campaigns: u64,
    /// Campaigns the probed player won, and the baseline's player in that slot.
    pub wins: u64,
    pub base_wins: u64,
    /// Its win minus the baseline's, per campaign (a share; ×100 for points).
    pub diff: Mean,
    /// The harm: a gift's loss (−diff), a restriction's gain (+diff).
    pub harm: f64,
    /// One-sided p-value that the harm exceeds the tolerance, before and
    /// after Holm's adjustment over the probes that changed a game.
    pub p: f64,
    pub p_holm: f64,
    /// Campaigns whose game differs from the baseline's.
    pub changed: u64,
    /// The harm this probe finds with 80% power (tolerance included).
    pub detectable: f64,
    /// Whether this probe fails (set with the family's adjustment).
    pub fails: bool,
}

impl Row {
    pub fn tested(&self) -> bool {
        self.changed > 0
    }

    /// The probed player's win rate with its 95% Wilson interval.
    pub fn rate(&self) -> (f64, f64, f64) {
        let (lo, hi) = wilson(self.wins as f64, self.campaigns as f64, 0.95);
        (self.wins as f64 / self.campaigns.max(1) as f64, lo, hi)
    }

    /// `gift: 500 gold −11.2 points [−12.5, −9.9]`.
    pub fn figure(&self) -> String {
        format!(
            "{} {} points [{}, {}]",
            self.probe.name,
            points(self.diff.mean),
            points(self.diff.low),
            points(self.diff.high)
        )
    }
}

/// A share as signed win-rate points, one decimal, never "-0.0".
pub fn points(x: f64) -> String {
    let v = (1000.0 * x).round() / 10.0;
    if v == 0.0 { "0.0".into() } else { format!("{v:+.1}") }
}

/// What the check found, in words that claim only that. The check tests
/// over-use (a gift that costs wins, a restriction that helps), not
/// strength: a player that ignores what it is given passes every probe, so
/// no verdict calls a player strong or competent. How strong a field is,
/// is its exploitability (`strength::psro`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No probe found over-use, and every tested probe would have found a
    /// harm of `Settings::power_floor` with 80% power.
    NoOverUse,
    /// No probe failed, but some tested probe could miss a harm larger than
    /// the floor: too few campaigns to say.
    Weak,
    /// No probe on it changed a game: the player never takes those actions
    /// or never uses those gifts, so the check says nothing.
    Untested,
    /// A probe found over-use: answers on its topics are bounded by the
    /// players.
    Bounded,
}

impl Verdict {
    pub fn words(self) -> &'static str {
        match self {
            Verdict::NoOverUse => "no over-use found",
            Verdict::Weak => "check too weak to tell",
            Verdict::Untested => "not tested (no probe changed a game)",
            Verdict::Bounded => "bounded by the players",
        }
    }
}

/// The verdict of `rows` (the probes an answer rests on).
fn verdict_of<'a>(rows: impl Iterator<Item = &'a Row> + Clone, s: &Settings) -> Verdict {
    if rows.clone().any(|r| r.fails) {
        return Verdict::Bounded;
    }
    let tested = rows.filter(|r| r.tested());
    let weakest = tested.clone().map(|r| r.detectable).fold(f64::NAN, f64::max);
    if tested.count() == 0 {
        Verdict::Untested
    } else if weakest > s.power_floor {
        Verdict::Weak
    } else {
        Verdict::NoOverUse
    }
}

/// The check of one strategy on one scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Competence {
    pub strategy: String,
    /// The strategy's family (`weighted`, `lookahead`, `search`, `random`).
    pub family: String,
    pub scenario: String,
    /// The strategy in the other seats when it is not the probed player
    /// itself (`check_against`).
    pub field: Option<String>,
    pub seats: usize,
    pub seed: u64,
    pub campaigns: u64,
    pub settings: Settings,
    /// The strategy itself in the probed slot: wins out of `campaigns`.
    pub base_wins: u64,
    pub rows: Vec<Row>,
    /// The stated exploitability of the field the player was probed in
    /// (its own mixture's, or the fixed field's), in points: the check
    /// tests over-use, so the line says beside it how strong the field is.
    pub exploitability: Option<[f64; 3]>,
}

impl Competence {
    pub fn verdict(&self) -> Verdict {
        verdict_of(self.rows.iter(), &self.settings)
    }

    pub fn failed(&self) -> Vec<&Row> {
        self.rows.iter().filter(|r| r.fails).collect()
    }

    pub fn tested(&self) -> usize {
        self.rows.iter().filter(|r| r.tested()).count()
    }

    /// The largest harm any tested probe would find with 80% power.
    pub fn detectable(&self) -> f64 {
        self.rows.iter().filter(|r| r.tested()).map(|r| r.detectable).fold(f64::NAN, f64::max)
    }

    /// The failed probes on any of `topics`: an answer about them is
    /// bounded by the players.
    pub fn bounded_on(&self, topics: &[&str]) -> Vec<&Row> {
        self.rows.iter().filter(|r| r.fails && r.probe.bears_on(topics)).collect()
    }

    /// The verdict for an answer about `topics`: only the probes on them
    /// count, for failure, for power and for having changed a game.
    pub fn verdict_on(&self, topics: &[&str]) -> Verdict {
        verdict_of(self.rows.iter().filter(|r| r.probe.bears_on(topics)), &self.settings)
    }

    /// What strength the field is known to have, for beside the verdict:
    /// `; strength is the field's exploitability, +0.3 points [−0.6, +1.3]
    /// (psro)`, or that none is stated.
    pub fn strength(&self) -> String {
        match self.exploitability {
            Some([e, lo, hi]) => format!(
                "; strength is what the field's exploitability says: a best response found beats it by {e:+.1} \
                 points [{lo:+.1}, {hi:+.1}] (empires psro)"
            ),
            None => "; no exploitability is stated for this field (empires psro measures one)".into(),
        }
    }

    /// The verdict in one line, the same words everywhere it is printed:
    /// `players: tuned (weighted), check on default: bounded by the
    /// players, fails gift: 500 gold −11.2 points [−12.5, −9.9] (23 probes ×
    /// 4000 campaigns, seed 7, ...)`.
    pub fn line(&self) -> String {
        let failed = self.failed();
        let tol = format!(
            "{} point{}",
            trim(100.0 * self.settings.tolerance),
            if self.settings.tolerance == 0.01 { "" } else { "s" }
        );
        let floor = trim(100.0 * self.settings.power_floor);
        let what = match self.verdict() {
            Verdict::NoOverUse => format!(
                "{}: no gift costs it and no restriction helps it by more than {tol}; this tests over-use, not \
                 strength (a player that ignores a resource passes it){}",
                Verdict::NoOverUse.words(),
                self.strength()
            ),
            Verdict::Weak => format!(
                "{}: no probe failed, but a probe could miss a harm above {floor} points (play more campaigns a \
                 probe)",
                Verdict::Weak.words()
            ),
            Verdict::Untested => {
                format!("{}: it never takes the forbidden actions or uses the gifts", Verdict::Untested.words())
            }
            Verdict::Bounded => format!(
                "{}: fails {}",
                Verdict::Bounded.words(),
                failed.iter().map(|r| r.figure()).collect::<Vec<_>>().join("; ")
            ),
        };
        format!(
            "players: {} ({}), over-use check on {}{}: {what} ({})",
            self.strategy,
            self.family,
            self.scenario,
            self.field.as_ref().map_or(String::new(), |f| format!(" against {f}")),
            self.basis()
        )
    }

    /// How the verdict was reached, for the line's parenthesis.
    pub fn basis(&self) -> String {
        let power = self.detectable();
        let untested = self.rows.len() - self.tested();
        format!(
            "{} probes × {} campaigns, seed {}, the probed player in each seat in turn; Holm, family-wise error {}%; \
             {}{}",
            self.tested(),
            self.campaigns,
            self.seed,
            trim(100.0 * self.settings.alpha),
            if power >= 1.0 {
                // A win-rate harm cannot pass 100 points: say what that means.
                format!(
                    "even a harm of 100 points could be missed at 80% power and Holm's level ({} needs at most {})",
                    Verdict::NoOverUse.words(),
                    trim(100.0 * self.settings.power_floor)
                )
            } else if power.is_finite() {
                format!(
                    "a harm of {:.1} points is found with 80% power at Holm's level ({} needs at most {})",
                    100.0 * power,
                    Verdict::NoOverUse.words(),
                    trim(100.0 * self.settings.power_floor)
                )
            } else {
                "no probe changed a game".into()
            },
            if untested > 0 { format!("; {untested} probes changed no game and test nothing") } else { String::new() }
        )
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The campaigns `check` plays: the baseline and each probe.
pub fn planned(probes: &[Probe], campaigns: u64) -> u64 {
    (probes.len() as u64 + 1) * campaigns
}

/// The lineup of one probe: slot 0 `spec` probed, every other slot
/// `field`.
fn lineup(sc: &Scenario, spec: &StrategySpec, field: &StrategySpec, test: Option<&Test>) -> Result<Lineup, Error> {
    let mut specs = vec![field.clone(); sc.players.len()];
    specs[0] = spec.clone();
    let mut gift = None;
    match test {
        Some(Test::Forbid(kinds)) => {
            for k in kinds {
                if !specs[0].forbid.contains(k) {
                    specs[0].forbid.push(*k);
                }
            }
        }
        Some(Test::Gift(g)) => gift = Some(*g),
        Some(Test::Play(player)) => specs[0] = (**player).clone(),
        Some(Test::HoldGarrisons) => specs[0].hold_garrisons = true,
        None => {}
    }
    let l = Lineup::new(sc, &specs).map_err(Error::from)?;
    Ok(match gift {
        Some(g) => l.with_gift(0, g),
        None => l,
    })
}

/// Probe strategy `name` of `sc` with `probes`, `campaigns` each on master
/// seed `master`.
pub fn check(
    sc: &Scenario,
    name: &str,
    probes: Vec<Probe>,
    settings: Settings,
    master: u64,
    campaigns: u64,
) -> Result<Competence, Error> {
    let spec = sc.named_strategy(name)?;
    check_spec(sc, name, &spec, probes, settings, master, campaigns)
}

/// As `check`, for a spec that need not be one of the scenario's (a
/// player a study has just tuned), named `name` in the outputs.
pub fn check_spec(
    sc: &Scenario,
    name: &str,
    spec: &StrategySpec,
    probes: Vec<Probe>,
    settings: Settings,
    master: u64,
    campaigns: u64,
) -> Result<Competence, Error> {
    let mut c = check_against(sc, name, spec, (name, spec), probes, settings, master, campaigns)?;
    c.field = None;
    Ok(c)
}

/// As `check_spec`, with every other seat `field` instead of copies of
/// `spec`: the check of a player tuned against a fixed field (a
/// restriction study's best response), whose competence is a claim about
/// its games against that field. The baseline is `spec` unprobed against
/// the same field.
#[allow(clippy::too_many_arguments)]
pub fn check_against(
    sc: &Scenario,
    name: &str,
    spec: &StrategySpec,
    field: (&str, &StrategySpec),
    probes: Vec<Probe>,
    settings: Settings,
    master: u64,
    campaigns: u64,
) -> Result<Competence, Error> {
    let seats = sc.players.len();
    if seats < 2 {
        return Err(Error::input("the competence check needs at least 2 seats"));
    }
    if campaigns < 2 {
        return Err(Error::input("the competence check needs at least 2 campaigns a probe for an interval"));
    }
    if !(settings.tolerance >= 0.0 && settings.tolerance < 1.0) {
        return Err(Error::input(format!(
            "the tolerance must be in [0, 100) points (found {})",
            100.0 * settings.tolerance
        )));
    }
    let play = |test: Option<&Test>| -> Result<Vec<PlayedCampaign>, Error> {
        lineup(sc, spec, field.1, test)?.games(master, 0..campaigns).map_err(Error::from)
    };
    let base = play(None)?;
    let played: Vec<Vec<PlayedCampaign>> = probes.par_iter().map(|p| play(Some(&p.test))).collect::<Result<_, _>>()?;
    let mut rows: Vec<Row> = probes.into_iter().zip(&played).map(|(p, g)| row(p, g, &base)).collect();
    adjust(&mut rows, settings);
    Ok(Competence {
        strategy: name.to_string(),
        family: format!("{:?}", spec.kind).to_lowercase(),
        scenario: sc.name.clone(),
        field: Some(field.0.to_string()),
        seats,
        seed: master,
        campaigns,
        settings,
        base_wins: base.iter().filter(|g| g.winner == 0).count() as u64,
        rows,
        exploitability: field.1.stated_exploitability(),
    })
}

fn row(probe: Probe, games: &[PlayedCampaign], base: &[PlayedCampaign]) -> Row {
    let won = |g: &PlayedCampaign| (g.winner == 0) as u8 as f64;
    let diff = mean_interval(games.iter().zip(base).map(|(g, b)| won(g) - won(b)), 0.95);
    let sign = if probe.is_gift() { -1.0 } else { 1.0 };
    Row {
        campaigns: games.len() as u64,
        wins: games.iter().filter(|g| g.winner == 0).count() as u64,
        base_wins: base.iter().filter(|g| g.winner == 0).count() as u64,
        harm: sign * diff.mean,
        p: 1.0,
        p_holm: 1.0,
        changed: games.iter().zip(base).filter(|(g, b)| g.print != b.print).count() as u64,
        detectable: f64::NAN,
        fails: false,
        diff,
        probe,
    }
}

fn se(m: &Mean) -> f64 {
    m.sd / (m.n.max(1) as f64).sqrt()
}

/// Each tested probe's one-sided p-value beyond the tolerance, Holm over
/// the probes that changed a game, and the harm each finds with 80% power
/// at Holm's first step (α / tested).
fn adjust(rows: &mut [Row], s: Settings) {
    let tested: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].tested()).collect();
    for &i in &tested {
        rows[i].p = p_beyond(rows[i].harm - s.tolerance, se(&rows[i].diff));
    }
    let adjusted = Correction::Holm.adjust(&tested.iter().map(|&i| rows[i].p).collect::<Vec<_>>());
    let m = tested.len().max(1);
    for (&i, &p) in tested.iter().zip(&adjusted) {
        let r = &mut rows[i];
        r.p_holm = p;
        r.fails = p <= s.alpha;
        r.detectable = s.tolerance + detectable_one_sided(se(&r.diff), s.alpha / m as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mean(xs: &[f64]) -> Mean {
        mean_interval(xs.iter().copied(), 0.95)
    }

    fn fake(name: &str, gift: bool, diffs: &[f64]) -> Row {
        let probe = if gift {
            Probe { name: name.into(), test: Test::Gift(Gift::Gold(500)), topics: &["gold"] }
        } else {
            Probe { name: name.into(), test: Test::Forbid(vec![ActionKind::Mine]), topics: &["mine"] }
        };
        let diff = mean(diffs);
        let sign = if gift { -1.0 } else { 1.0 };
        Row {
            probe,
            campaigns: diffs.len() as u64,
            wins: 0,
            base_wins: 0,
            harm: sign * diff.mean,
            p: 1.0,
            p_holm: 1.0,
            changed: diffs.iter().filter(|&&d| d != 0.0).count() as u64,
            detectable: f64::NAN,
            fails: false,
            diff,
        }
    }

    /// "No over-use found" only with the power the floor asks: the same
    /// clean probe on 40 campaigns could miss a harm above 5 points, so
    /// the verdict is withheld; on 4,000 it is given. A family in which no
    /// probe changed a game is untested, and one failure bounds it.
    #[test]
    fn the_verdict_is_withheld_below_the_power_floor() {
        let s = Settings::default();
        let clean = |n: usize| -> Row {
            // One campaign in ten changed, half for, half against.
            let d: Vec<f64> = (0..n)
                .map(|i| match i % 20 {
                    0 => 1.0,
                    10 => -1.0,
                    _ => 0.0,
                })
                .collect();
            fake("no mine", false, &d)
        };
        let mut few = vec![clean(40)];
        adjust(&mut few, s);
        assert!(few[0].detectable > s.power_floor, "{}", few[0].detectable);
        assert_eq!(verdict_of(few.iter(), &s), Verdict::Weak);
        let mut many = vec![clean(4000)];
        adjust(&mut many, s);
        assert!(many[0].detectable < s.power_floor, "{}", many[0].detectable);
        assert_eq!(verdict_of(many.iter(), &s), Verdict::NoOverUse);
        let mut none = vec![fake("no mine", false, &[0.0; 100])];
        adjust(&mut none, s);
        assert_eq!(verdict_of(none.iter(), &s), Verdict::Untested);
        let gain: Vec<f64> = (0..400).map(|i| if i < 80 { 1.0 } else { 0.0 }).collect();
        let mut bad = vec![clean(4000), fake("no pillage", false, &gain)];
        adjust(&mut bad, s);
        assert_eq!(verdict_of(bad.iter(), &s), Verdict::Bounded);
    }

    /// A gift that loses 20 points in 400 campaigns fails; one that gains
    /// passes; a restriction that gains fails, and a probe that changed no
    /// game is left out of the family.
    #[test]
    fn harm_is_one_sided_beyond_the_tolerance_and_holm_adjusted() {
        // Loss: 80 campaigns lost (−1), 320 unchanged: mean −0.2.
        let loss: Vec<f64> = (0..400).map(|i| if i < 80 { -1.0 } else { 0.0 }).collect();
        let gain: Vec<f64> = (0..400).map(|i| if i < 80 { 1.0 } else { 0.0 }).collect();
        let mut rows = vec![
            fake("gift: loses", true, &loss),
            fake("gift: gains", true, &gain),
            fake("no mine: gains", false, &gain),
            fake("no mine: idle", false, &[0.0; 400]),
        ];
        adjust(&mut rows, Settings::default());
        let fails: Vec<bool> = rows.iter().map(|r| r.fails).collect();
        assert_eq!(fails, vec![true, false, true, false]);
        assert!((rows[0].harm - 0.2).abs() < 1e-12 && (rows[2].harm - 0.2).abs() < 1e-12);
        assert!(rows[1].harm < 0.0);
        assert!(!rows[3].tested() && rows[3].p_holm == 1.0 && rows[3].detectable.is_nan());
        // The p-value is one-sided beyond the tolerance: Φ(−(0.2 − 0.01) / se).
        let se0 = se(&rows[0].diff);
        assert!((rows[0].p - p_beyond(0.19, se0)).abs() < 1e-15);
        // Three tested, the two losses tie for the smallest p: both × 3... then
        // kept monotone, so each adjusted value is at least its raw one.
        assert!(rows.iter().all(|r| r.p_holm >= r.p));
        assert!((rows[0].p_holm - (3.0 * rows[0].p).min(1.0)).abs() < 1e-12);
        // The detectable harm is the tolerance plus (z(1 − α/3) + z(0.8)) · se.
        let want = 0.01 + detectable_one_sided(se0, 0.05 / 3.0);
        assert!((rows[0].detectable - want).abs() < 1e-12);
    }

    /// A harm inside the tolerance never fails, however many campaigns.
    #[test]
    fn a_harm_within_the_tolerance_passes() {
        // −0.5 points over 40,000 campaigns: se ≈ 0.0007, far inside 1 point.
        let xs: Vec<f64> = (0..40_000).map(|i| if i % 200 == 0 { -1.0 } else { 0.0 }).collect();
        let mut rows = vec![fake("gift: small loss", true, &xs)];
        adjust(&mut rows, Settings::default());
        assert!(!rows[0].fails, "{:?}", rows[0]);
        let mut strict = vec![fake("gift: small loss", true, &xs)];
        adjust(&mut strict, Settings { tolerance: 0.0, ..Settings::default() });
        assert!(strict[0].fails, "at tolerance 0 the same loss is found");
    }

    #[test]
    fn points_never_print_minus_zero() {
        assert_eq!(points(-0.0001), "0.0");
        assert_eq!(points(-0.112), "-11.2");
        assert_eq!(points(0.034), "+3.4");
    }

    #[test]
    fn the_family_names_each_probe_once_and_topics_select() {
        let f = family(&Settings::default());
        let mut names: Vec<&str> = f.iter().map(|p| p.name.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), f.len());
        assert_eq!(f[0].name, "gift: 500 gold");
        let gold: Vec<String> =
            on_topics(&Settings::default(), Some(&["mine", "pillage"])).into_iter().map(|p| p.name).collect();
        assert_eq!(gold, vec!["gift: 500 gold", "no mine", "no pillage"]);
        let names = |ks: &[ActionKind]| -> Vec<String> {
            for_kinds(&Settings::default(), ks).into_iter().map(|p| p.name).collect()
        };
        assert_eq!(names(&[ActionKind::Mine]), vec!["gift: 500 gold", "no mine"]);
        assert_eq!(names(&[ActionKind::Siege]), vec!["no siege"]);
        assert_eq!(names(&[ActionKind::MoveArmy]), vec!["gift: 1 unit", "no army move"]);
        assert!(names(&[ActionKind::Bid]).is_empty());
    }
}
