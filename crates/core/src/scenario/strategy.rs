//! The players a scenario names (G-30): `StrategySpec`, every key a
//! weighted, lookahead or search player reads, and the archetypes every
//! scenario knows. Strategies are data: the sim crate turns a spec into a
//! player; nothing here plays.

use super::ActionKind;
use super::load;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The named strategies every scenario knows (G-30): `random`, `balanced`,
/// `expansionist`, `miner`, `pillager`, `warlord`, `turtle`, `lookahead`.
pub const ARCHETYPES_TOML: &str = include_str!("../../../../scenarios/archetypes.toml");

/// The archetypes as specs, parsed once. The file is embedded, and a test
/// loads it, so the parse cannot fail at run time.
pub fn archetypes() -> &'static BTreeMap<String, StrategySpec> {
    #[derive(Deserialize)]
    struct File {
        strategies: toml::Table,
    }
    static ARCHETYPES: std::sync::LazyLock<BTreeMap<String, StrategySpec>> = std::sync::LazyLock::new(|| {
        let raw = toml::from_str::<File>(ARCHETYPES_TOML).expect("scenarios/archetypes.toml is checked by the tests");
        // An archetype may extend another (`lookahead_tuned` extends `tuned`):
        // resolved the way a scenario's own tables are.
        let mut all = toml::Table::new();
        load::merge_strategies(&mut all, raw.strategies);
        all.into_iter()
            .map(|(name, v)| {
                let spec = v.try_into::<StrategySpec>().expect("scenarios/archetypes.toml is checked by the tests");
                (name, spec)
            })
            .collect()
    });
    &ARCHETYPES
}

// ---------------------------------------------------------------- strategies

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StrategyKind {
    /// Uniform over the legal options; ignores every weight.
    Random,
    /// A one-step utility player driven by the weights below.
    Weighted,
    /// A weighted player that tries its best candidates at the decisions of
    /// `look_at` with rollouts of `base` (`rollouts`, `horizon`, `width`).
    Lookahead,
    /// A rollout search: at the decisions of `look_at` it samples `top_k`
    /// options from its weights taken as a policy (every legal option has a
    /// chance), splits `budget` rollouts of `base` among them by sequential
    /// halving, and keeps the one whose rollouts win most, played to the
    /// campaign's end (or `horizon` seasons).
    Search,
    /// A mixed strategy: each campaign, the seat plays one of `members`,
    /// drawn with probabilities proportional to `weights` from the seat's
    /// own stream (an equilibrium of a population, `empires psro`).
    Mixture,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SiegeChoice {
    Conquer,
    Federate,
    Pillage,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FormationChoice {
    Light,
    Assault,
    Siege,
}

/// How many coefficients a search's learned `value` holds: one per feature
/// of `strategy::value::features` (in the sim crate, which checks it).
pub const VALUE_FEATURES: usize = 10;

/// The decisions a lookahead can look at (`look_at`): recruiting, every
/// action-phase decision (`act`) or only those where an attack is legal
/// (`attack`), spending, and the decisions inside a combat.
pub const LOOK_AT: &[&str] = &["recruit", "act", "attack", "spend", "bid", "formation", "siege_outcome", "take_hit"];

/// The default `look_at`: every decision the engine asks.
pub const LOOK_AT_ALL: &[&str] = &["recruit", "act", "spend", "bid", "formation", "siege_outcome", "take_hit"];

section! {
    /// G-30: a configured player. Every decision the rules leave to a player
    /// has a weight or threshold here, so an archetype is data, not code
    /// (`scenarios/archetypes.toml`). `random` ignores the weights.
    ///
    /// The defaults below are the `balanced` archetype: the archetypes file
    /// spells it out and a test keeps the two equal.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct StrategySpec {
        pub kind: StrategyKind = StrategyKind::Weighted,
        /// Start from another strategy's keys and change only those given here.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub extends: Option<String> = None,

        // EP spending (E-06..E-15): utility of each purchase; the best one above
        // 0 is bought, then the list is scored again.
        pub capture: f64 = 3.0,
        pub conquer: f64 = 5.0,
        pub castle: f64 = 2.0,
        pub city: f64 = 2.5,
        pub mine: f64 = 2.8,
        pub port: f64 = 0.8,
        pub tower: f64 = 0.5,
        pub bridge: f64 = 0.3,
        pub pillage: f64 = 1.5,
        /// Added to a capture where a mine may stand (a future mine site).
        pub mine_site: f64 = 0.4,
        /// Added to a conquest of a fortified hex.
        pub fortified: f64 = 1.0,
        /// Taken off a main building that replaces another one.
        pub replace: f64 = 2.0,
        /// Gold is worth less to a player who cannot spend what it holds:
        /// a mine's and a pillage's utility are divided by (1 + this ×
        /// gold held ÷ 100). 0 values gold the same however much is held.
        pub gold_glut: f64 = 0.0,
        /// Season-aware purchases: each purchase's utility above grows by
        /// its slope times the share of the campaign's seasons still to
        /// come, (seasons − season) ÷ seasons, so a positive slope buys it
        /// early (a mine's paydays) and a negative one late.
        pub capture_slope: f64 = 0.0,
        pub conquer_slope: f64 = 0.0,
        pub castle_slope: f64 = 0.0,
        pub city_slope: f64 = 0.0,
        pub mine_slope: f64 = 0.0,
        pub port_slope: f64 = 0.0,
        pub tower_slope: f64 = 0.0,
        pub bridge_slope: f64 = 0.0,
        pub pillage_slope: f64 = 0.0,

        // Recruiting (G-13).
        pub unit: f64 = 3.0,
        pub ship: f64 = 0.8,
        pub spy: f64 = 1.0,
        pub engine: f64 = 2.0,
        /// An army of at least this many units and no engine gets the full
        /// `engine` utility; any other army gets `engine × engine_extra`.
        pub engine_min_units: i32 = 3,
        pub engine_extra: f64 = 0.3,
        /// Gold never spent on recruits.
        pub reserve: i32 = 0,
        /// A unit's utility is divided by (1 + own units / this).
        pub unit_saturation: f64 = 6.0,
        /// A unit recruited where no army of the player stands starts an
        /// army of one, and so does a transport that lands one unit: their
        /// utilities are multiplied by this (a transport at 0 is never taken).
        pub unit_alone: f64 = 1.0,

        // Action phase (G-04): utility of each kind of move.
        pub attack: f64 = 10.0,
        pub siege: f64 = 9.0,
        pub naval: f64 = 6.0,
        pub coastal: f64 = 4.0,
        /// Moving an army one step closer to a target.
        pub advance: f64 = 2.0,
        /// Carrying an army by ship toward the enemy (W-17).
        pub transport: f64 = 2.5,
        /// Moving a ship or a spy one step closer to a target.
        pub sail: f64 = 1.5,
        /// Attack (army, naval) when the expected score gap is at least this.
        pub aggression: f64 = 0.0,
        /// Assault a city when the expected score gap is at least this.
        pub siege_aggression: f64 = -1.0,
        /// Added to an army attack's utility per EP its result is expected
        /// to earn above a season at peace (`ep.no_battle`), exactly over
        /// the dice: a battle lost earns less than peace (E-01, G-11).
        pub attack_ep: f64 = 0.0,
        /// Added to an army attack's utility per unit it is expected to
        /// cost the enemy beyond what it costs the attacker (W-03).
        pub attack_units: f64 = 0.0,
        /// Armies with fewer units stay where they are, as a garrison.
        pub garrison: i32 = 3,
        /// Moving an army without getting closer to its goal (still more than
        /// one hex away): a small utility that keeps armies circling.
        pub hold: f64 = 0.2,

        // Spy targets (W-20..W-25).
        pub spy_sabotage: f64 = 5.0,
        pub spy_steal: f64 = 4.5,
        pub spy_destabilize: f64 = 3.0,
        pub spy_damage: f64 = 2.5,
        pub spy_duel: f64 = 3.5,
        /// Share of `spy_steal` when the victim holds less than `spy.steal_gold`.
        pub spy_steal_poor: f64 = 0.1,
        /// Utility taken off a spy action per point of the target's defence.
        pub spy_defence: f64 = 0.5,
        /// Scale of the random noise added to every score but `Done`'s, which
        /// breaks ties between equal options (drawn from the strategy's own stream).
        pub jitter: f64 = 1e-3,

        // Bids (G-07): share of the remaining initiative pool bid.
        pub bid_attack: f64 = 0.67,
        pub bid_defend: f64 = 0.67,
        pub formation: FormationChoice = FormationChoice::Assault,
        pub siege_outcome: SiegeChoice = SiegeChoice::Conquer,

        // Lookahead only.
        /// The strategy every player follows in the rollouts.
        pub base: String = "balanced".into(),
        /// Rollouts per candidate.
        pub rollouts: u32 = 8,
        /// Seasons each rollout plays: 1 ends with the current season, 0 plays to the campaign's end.
        pub horizon: u32 = 2,
        /// Candidates tried per decision: the best by the weights, plus `Done`.
        pub width: u32 = 4,
        /// The decisions that get rollouts (`LOOK_AT`); the others follow the weights.
        pub look_at: Vec<String> = LOOK_AT_ALL.iter().map(|s| s.to_string()).collect(),

        // Search only (`base`, `horizon` and `look_at` above too).
        /// Rollouts per decision, shared among the candidates by sequential
        /// halving.
        pub budget: u32 = 64,
        /// Options sampled per decision from the policy (Gumbel top-k),
        /// plus `Done` where stopping is an option.
        pub top_k: u32 = 6,
        /// Temperature of the policy: its logits are the weights' scores
        /// divided by this. Larger spreads the sample over more options.
        pub temperature: f64 = 1.0,
        /// Share of the policy spread evenly over the legal options (a
        /// mixture with uniform), so an option the weights score far below
        /// the best (a mine, to a player that never built one) keeps a real
        /// chance of being searched.
        pub explore: f64 = 0.0,
        /// Share of the policy spread evenly over the kinds of action among
        /// the options (move, attack, siege, mine, recruit, ...), then
        /// evenly over each kind's options. Where forty moves and one mine
        /// are legal, `explore` gives the mine 1/41 of its share and this
        /// gives it half: every kind keeps a real chance however many
        /// options another kind has.
        pub explore_kinds: f64 = 0.0,
        /// The strategy whose policy the candidates are sampled from: a
        /// weighted player, or a mixture of weighted players whose
        /// members' policies are averaged by weight (the population
        /// `empires psro` found). Empty: the search's own weights.
        pub prior: String = String::new(),
        /// What a rollout's size margin over the largest rival (as a share
        /// of the map's land) counts for next to a win, which counts 1:
        /// small (the default) judges mostly by who leads where the
        /// rollout stops, large mostly by how much.
        pub margin_weight: f64 = 0.25,
        /// Coefficients of a learned value (`empires value`), empty or
        /// `VALUE_FEATURES` long: a rollout cut short by `horizon` is
        /// valued by the win probability they give its last state, not by
        /// who leads there. Empty: who leads, plus a share of the margin.
        pub value: Vec<f64> = Vec::new(),

        // Mixture only.
        /// The strategies a mixture draws from, once per campaign.
        pub members: Vec<String> = Vec::new(),
        /// Each member's weight, in `members` order (empty: equal weights);
        /// the chance of a member is its weight over their sum.
        pub weights: Vec<f64> = Vec::new(),
        /// How far the best response `empires psro` found beats this
        /// mixture, in win-rate points over the fair share: `[estimate,
        /// 95% low, 95% high]` (empty: not measured). `psro --install`
        /// writes it; every answer that rests on this field quotes it, since
        /// a claim about strong play is only as strong as the field's
        /// distance from an equilibrium.
        pub exploitability: Vec<f64> = Vec::new(),

        /// Restricted play (Jaffe et al. 2012): action kinds this player never
        /// takes, e.g. `["pillage"]`. Names are those of `ActionKind`.
        pub forbid: Vec<ActionKind> = Vec::new(),
        /// Action kinds taken first whenever legal and affordable, e.g. `["mine"]`.
        pub force: Vec<ActionKind> = Vec::new(),
        /// Restricted play: an army standing where its garrison defends it
        /// (W-05: its own city, or a garrison building under its banner)
        /// never moves or sails away from there. The over-use check's
        /// "garrison everything" probe: a player whose armies march out
        /// where they should hold loses to a copy that holds.
        pub hold_garrisons: bool = false,

        /// Numeric keys a tuning started from this player leaves as they
        /// are (`tune --keys all`, every `--best-response`), e.g.
        /// `["unit_alone", "gold_glut"]`: values set from the competence
        /// check (`empires probe`) for what the tuning's own campaigns
        /// rarely show, such as a gift of gold, which a search fitted to
        /// those campaigns alone would trade away.
        pub tune_keep: Vec<String> = Vec::new(),
    }
}

impl StrategySpec {
    /// A mixture's stated exploitability in win-rate points, `[estimate,
    /// low, high]`; `None` where none is stated (validation keeps it three
    /// numbers or none).
    pub fn stated_exploitability(&self) -> Option<[f64; 3]> {
        <[f64; 3]>::try_from(self.exploitability.as_slice()).ok()
    }
}
