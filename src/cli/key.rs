//! What an output folder's key is made of: each command lists, by hand,
//! the flags that change its result (`ResultKey`), and `out::Request`
//! hashes that text with the scenarios played.
//!
//! Why a list and not the parsed flags: the key was once the flags' Debug
//! text with the result-neutral ones blanked by hand in each command, so a
//! new flag changed every folder's key (no `--resume` found its folder
//! again), and a neutral flag forgotten in one command's blanking split
//! its folders. Now a flag is in a key only when its command names it here.
//!
//! The text keeps the shape the Debug text had (`Name { field: value, ..
//! }`), and a neutral flag that once stood in it is written as the value it
//! was blanked to (`neutral`), the same in every key: so every key made
//! before is the key made now, and an existing folder still resumes (the
//! tests below pin the texts, and the hash of one real folder's key). A flag
//! that changes the result and is added later goes in with `added`, which
//! writes it only when it differs from its default, so the keys of the
//! requests that do not give it stay as they were.

use std::fmt::Debug;

/// The flags of a request that change its result, as the text its key is
/// a hash of.
pub trait ResultKey {
    /// Every flag that changes the result, by name and value; never
    /// `--out`, `--overwrite`, `--threads`, `--jobs`, `--quiet`, `--resume`
    /// or the shard (a shard's folder adds it itself).
    fn key(&self) -> String;
}

/// A group of flags written as `Name { field: value, .. }`.
#[must_use]
pub struct Shape {
    name: &'static str,
    fields: Vec<(&'static str, String)>,
    added: Vec<(&'static str, String)>,
}

impl Shape {
    pub fn new(name: &'static str) -> Shape {
        Shape { name, fields: Vec::new(), added: Vec::new() }
    }

    /// A flag that changes the result, written as `{:?}` writes its value
    /// (a number, a string, a list, an option): a leaf, never a struct of
    /// flags, whose fields could change under the key.
    pub fn field(mut self, name: &'static str, value: &dyn Debug) -> Shape {
        self.fields.push((name, format!("{value:?}")));
        self
    }

    /// A group of flags, written in place.
    pub fn group(mut self, name: &'static str, shape: Shape) -> Shape {
        self.fields.push((name, shape.to_string()));
        self
    }

    /// Where a result-neutral flag stood in the keys made before it was
    /// left out: the value it was blanked to, the same in every key.
    pub fn neutral(mut self, name: &'static str, blank: &'static str) -> Shape {
        self.fields.push((name, blank.to_string()));
        self
    }

    /// [`neutral`](Self::neutral) for `--out` and `--overwrite`, where
    /// they stood side by side.
    pub fn neutral_out(self) -> Shape {
        self.neutral("out", blank::NONE).neutral("overwrite", blank::OVERWRITE)
    }

    /// [`neutral`](Self::neutral) for `--threads`, `--out` and
    /// `--overwrite`, in the order most commands declared them.
    pub fn neutral_threads_out(self) -> Shape {
        self.neutral("threads", blank::THREADS).neutral_out()
    }

    /// A flag added after keys were made: written, after the others, only
    /// when it is not at its default, so that a request that does not give
    /// it keeps the key it had.
    pub fn added<T: Debug + PartialEq>(mut self, name: &'static str, value: &T, default: &T) -> Shape {
        if value != default {
            self.added.push((name, format!("{value:?}")));
        }
        self
    }
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fields: Vec<String> =
            self.fields.iter().chain(&self.added).map(|(name, value)| format!("{name}: {value}")).collect();
        if fields.is_empty() {
            write!(f, "{}", self.name)
        } else {
            write!(f, "{} {{ {} }}", self.name, fields.join(", "))
        }
    }
}

/// The blanked text of the neutral groups, as they stood in every key.
pub mod blank {
    pub const THREADS: &str = "ThreadsArg { threads: None }";
    pub const OVERWRITE: &str = "OverwriteArg { overwrite: false }";
    pub const LONG: &str = "LongArgs { quiet: false, resume: false }";
    pub const SHARDS: &str = "ShardArgs { shard: None, shards: None }";
    pub const NONE: &str = "None";
    pub const FALSE: &str = "false";
}

#[cfg(test)]
mod tests {
    use super::super::{Cli, Command};
    use super::*;
    use clap::Parser;

    /// The key text of a command's request, for the commands whose folder
    /// a key names.
    fn key_of(c: &Command) -> Option<String> {
        match c {
            Command::Run(a) => Some(a.key()),
            Command::Check(a) => Some(a.key()),
            Command::Compare(a) => Some(a.key()),
            Command::Sweep(a) => Some(a.key()),
            Command::Experiment(e) => Some(e.key()),
            Command::Tables(a) => Some(a.key()),
            Command::Tune(a) => Some(a.key()),
            Command::Styles(a) => Some(a.key()),
            Command::Psro(a) => Some(a.key()),
            Command::Deviate(a) => Some(a.key()),
            Command::Probe(a) => Some(a.key()),
            Command::Value(a) => Some(a.key()),
            Command::Ladder(a) => Some(a.key()),
            Command::Metagame(a) => Some(a.key()),
            Command::Sensitivity(a) => Some(a.key()),
            Command::Solve(a) => Some(a.key()),
            // Their requests are what they read (`merge`, `report`), or
            // they write no folder (`play`, `validate`).
            Command::Play(_) | Command::Merge(_) | Command::Report(_) | Command::Validate(_) => None,
        }
    }

    /// The key text of a command line, as its command builds it.
    fn key(line: &str) -> String {
        let words = shlex(line);
        let cli = Cli::try_parse_from(std::iter::once("empires".to_string()).chain(words))
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        key_of(&cli.command).unwrap_or_else(|| panic!("{line}: no key"))
    }

    /// Split a test's command line at spaces, keeping '...' together.
    fn shlex(line: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut word = String::new();
        let mut quoted = false;
        for c in line.chars() {
            match c {
                '\'' => quoted = !quoted,
                ' ' if !quoted => {
                    if !word.is_empty() {
                        out.push(std::mem::take(&mut word));
                    }
                }
                c => word.push(c),
            }
        }
        if !word.is_empty() {
            out.push(word);
        }
        out
    }

    /// Each command line with the key text the binary before this module
    /// built for it (captured from that binary, request by request): a
    /// changed text is a changed folder, so a failure here means existing
    /// folders no longer resume.
    const PINNED: &[(&str, &str)] = &[
        (
            "run --campaigns 4 --quiet",
            r#"run RunArgs { scenario: ScenarioArgs { scenario: None, set: [] }, players: PlayersArg { players: None }, campaigns: 4, master: SeedArg { seed: 1 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, seats: SeatArgs { rotate_seats: false, fixed_seats: false }, shards: ShardArgs { shard: None, shards: None }, resume: false, precision: None, max_campaigns: None, check_invariants: false, detail: [], csv: false, quiet: false }"#,
        ),
        (
            "run --campaigns 4 --seed 7 --set costs.capture=3 --players balanced --fixed-seats --detail seasons,combats --csv --check-invariants",
            r#"run RunArgs { scenario: ScenarioArgs { scenario: None, set: ["costs.capture=3"] }, players: PlayersArg { players: Some("balanced") }, campaigns: 4, master: SeedArg { seed: 7 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, seats: SeatArgs { rotate_seats: false, fixed_seats: true }, shards: ShardArgs { shard: None, shards: None }, resume: false, precision: None, max_campaigns: None, check_invariants: true, detail: [Seasons, Combats], csv: true, quiet: false }"#,
        ),
        (
            "run --precision 0.3 --max-campaigns 1000 --quiet",
            r#"run RunArgs { scenario: ScenarioArgs { scenario: None, set: [] }, players: PlayersArg { players: None }, campaigns: 10000, master: SeedArg { seed: 1 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, seats: SeatArgs { rotate_seats: false, fixed_seats: false }, shards: ShardArgs { shard: None, shards: None }, resume: false, precision: Some(0.3), max_campaigns: Some(1000), check_invariants: false, detail: [], csv: false, quiet: false }"#,
        ),
        (
            "compare --vary costs.capture=3 --campaigns 4 --quiet",
            r#"compare None [] [] ["costs.capture=3"] BestResponseArgs { best_response: false, generations: 20, campaigns_per_eval: 400, probe_campaigns: 1000, best_response_player: Weighted } StudyFlags { campaigns: 4, master: SeedArg { seed: 1 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, seats: SeatArgs { rotate_seats: false, fixed_seats: false }, players: None, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "compare --vary costs.capture=3 --campaigns 4 --seed 3 --players balanced --set economy.pillage=2D6x10 --rotate-seats",
            r#"compare None [] ["economy.pillage=2D6x10"] ["costs.capture=3"] BestResponseArgs { best_response: false, generations: 20, campaigns_per_eval: 400, probe_campaigns: 1000, best_response_player: Weighted } StudyFlags { campaigns: 4, master: SeedArg { seed: 3 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, seats: SeatArgs { rotate_seats: true, fixed_seats: false }, players: Some("balanced"), long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "compare --vary costs.capture=3 --campaigns 4 --best-response --generations 2 --campaigns-per-eval 8 --probe-campaigns 0 --best-response-player search",
            r#"compare None [] [] ["costs.capture=3"] BestResponseArgs { best_response: true, generations: 2, campaigns_per_eval: 8, probe_campaigns: 0, best_response_player: Search } StudyFlags { campaigns: 4, master: SeedArg { seed: 1 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, seats: SeatArgs { rotate_seats: false, fixed_seats: false }, players: None, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "compare --scenario duel.toml --vary costs.capture=3 --campaigns 4",
            r#"compare Some("duel.toml") [] [] ["costs.capture=3"] BestResponseArgs { best_response: false, generations: 20, campaigns_per_eval: 400, probe_campaigns: 1000, best_response_player: Weighted } StudyFlags { campaigns: 4, master: SeedArg { seed: 1 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, seats: SeatArgs { rotate_seats: false, fixed_seats: false }, players: None, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "compare duel.toml duel2.toml --campaigns 4",
            r#"compare None ["duel.toml", "duel2.toml"] [] [] BestResponseArgs { best_response: false, generations: 20, campaigns_per_eval: 400, probe_campaigns: 1000, best_response_player: Weighted } StudyFlags { campaigns: 4, master: SeedArg { seed: 1 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, seats: SeatArgs { rotate_seats: false, fixed_seats: false }, players: None, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "sweep --values costs.capture=2,3 --campaigns 4",
            r#"sweep [] ["costs.capture=2,3"] [] BestResponseArgs { best_response: false, generations: 20, campaigns_per_eval: 400, probe_campaigns: 1000, best_response_player: Weighted } StudyFlags { campaigns: 4, master: SeedArg { seed: 1 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, seats: SeatArgs { rotate_seats: false, fixed_seats: false }, players: None, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "sweep --values costs.capture=2,3 --values economy.pillage=1D6x10,2D6x10 --metric 'mean empire size' --campaigns 4 --seed 2 --set economy.mine.river=3D6x10 --scenario duel.toml",
            r#"sweep ["economy.mine.river=3D6x10"] ["costs.capture=2,3", "economy.pillage=1D6x10,2D6x10"] ["mean empire size"] BestResponseArgs { best_response: false, generations: 20, campaigns_per_eval: 400, probe_campaigns: 1000, best_response_player: Weighted } StudyFlags { campaigns: 4, master: SeedArg { seed: 2 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, seats: SeatArgs { rotate_seats: false, fixed_seats: false }, players: None, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "experiment mine-vs-pillage --campaigns 4 --loss-campaigns 0 --readings-campaigns 0",
            r#"mine-vs-pillage "equilibrium" 0 0 "equilibrium" BestResponseArgs { best_response: false, generations: 20, campaigns_per_eval: 400, probe_campaigns: 1000, best_response_player: Weighted } [] StudyFlags { campaigns: 4, master: SeedArg { seed: 1 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, seats: SeatArgs { rotate_seats: false, fixed_seats: false }, players: None, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "experiment mine-vs-pillage --campaigns 4 --loss-from balanced --loss-campaigns 4 --readings-players balanced --readings-campaigns 2 --seed 5 --set costs.capture=3",
            r#"mine-vs-pillage "balanced" 4 2 "balanced" BestResponseArgs { best_response: false, generations: 20, campaigns_per_eval: 400, probe_campaigns: 1000, best_response_player: Weighted } ["costs.capture=3"] StudyFlags { campaigns: 4, master: SeedArg { seed: 5 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, seats: SeatArgs { rotate_seats: false, fixed_seats: false }, players: None, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "experiment restrict --forbid mine --levels random --campaigns 4",
            r#"restrict Restriction { forbid: [Mine], force: [] } "random" BestResponseArgs { best_response: false, generations: 20, campaigns_per_eval: 400, probe_campaigns: 1000, best_response_player: Weighted } [] StudyFlags { campaigns: 4, master: SeedArg { seed: 1 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, seats: SeatArgs { rotate_seats: false, fixed_seats: false }, players: None, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "experiment restrict --forbid pillage --force mine --levels random,balanced --campaigns 4 --players balanced --fixed-seats",
            r#"restrict Restriction { forbid: [Pillage], force: [Mine] } "random,balanced" BestResponseArgs { best_response: false, generations: 20, campaigns_per_eval: 400, probe_campaigns: 1000, best_response_player: Weighted } [] StudyFlags { campaigns: 4, master: SeedArg { seed: 1 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, seats: SeatArgs { rotate_seats: false, fixed_seats: true }, players: Some("balanced"), long: LongArgs { quiet: false, resume: false } }"#,
        ),
        // `tune`'s default objective became rank points (it was the win
        // rate): a request that names none gained `objective: Rank`, so a
        // folder tuned on wins before is never resumed as a rank run.
        (
            "tune --generations 1 --campaigns-per-eval 8 --eval-campaigns 8 --keys mine",
            r#"tune TuneArgs { scenario: ScenarioArgs { scenario: None, set: [] }, strategy: "balanced", against: "self", keys: "mine", budget: 240000, generations: Some(1), campaigns_per_eval: 8, population: None, sigma: 0.2, vary: [], variants: 8, master: SeedArg { seed: 1 }, eval_campaigns: 8, eval_seed: None, threads: ThreadsArg { threads: None }, name: "tuned", out: None, overwrite: OverwriteArg { overwrite: false }, install: None, long: LongArgs { quiet: false, resume: false }, objective: Rank }"#,
        ),
        (
            "tune --generations 1 --campaigns-per-eval 8 --eval-campaigns 8 --keys mine --gift-gold 500",
            r#"tune TuneArgs { scenario: ScenarioArgs { scenario: None, set: [] }, strategy: "balanced", against: "self", keys: "mine", budget: 240000, generations: Some(1), campaigns_per_eval: 8, population: None, sigma: 0.2, vary: [], variants: 8, master: SeedArg { seed: 1 }, eval_campaigns: 8, eval_seed: None, threads: ThreadsArg { threads: None }, name: "tuned", out: None, overwrite: OverwriteArg { overwrite: false }, install: None, long: LongArgs { quiet: false, resume: false }, gift_gold: 500, objective: Rank }"#,
        ),
        (
            "tune --budget 1000 --campaigns-per-eval 8 --eval-campaigns 8 --range start.gold=100..800 --variants 2 --name t2 --against random --sigma 0.3 --population 3 --eval-seed 4 --strategy miner",
            r#"tune TuneArgs { scenario: ScenarioArgs { scenario: None, set: [] }, strategy: "miner", against: "random", keys: "all", budget: 1000, generations: None, campaigns_per_eval: 8, population: Some(3), sigma: 0.3, vary: ["start.gold=100..800"], variants: 2, master: SeedArg { seed: 1 }, eval_campaigns: 8, eval_seed: Some(4), threads: ThreadsArg { threads: None }, name: "t2", out: None, overwrite: OverwriteArg { overwrite: false }, install: None, long: LongArgs { quiet: false, resume: false }, objective: Rank }"#,
        ),
        (
            "deviate --campaigns 4 --keys mine",
            r#"deviate DeviateArgs { scenario: ScenarioArgs { scenario: None, set: [] }, strategy: "tuned", factor: 4.0, keys: Some("mine"), campaigns: 4, master: SeedArg { seed: 1 }, top: 15, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, strict: false, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "deviate --strategy balanced --factor 2 --campaigns 4 --top 3 --strict --seed 3",
            r#"deviate DeviateArgs { scenario: ScenarioArgs { scenario: None, set: [] }, strategy: "balanced", factor: 2.0, keys: None, campaigns: 4, master: SeedArg { seed: 3 }, top: 3, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, strict: true, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "probe --campaigns 4 --topics mine",
            r#"probe ProbeArgs { scenario: ScenarioArgs { scenario: None, set: [] }, strategy: "tuned", campaigns: 4, master: SeedArg { seed: 1 }, topics: Some("mine"), gold: 500, tolerance: 1.0, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, strict: false, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "probe --strategy balanced --campaigns 4 --gold 100 --tolerance 5 --seed 2",
            r#"probe ProbeArgs { scenario: ScenarioArgs { scenario: None, set: [] }, strategy: "balanced", campaigns: 4, master: SeedArg { seed: 2 }, topics: None, gold: 100, tolerance: 5.0, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, strict: false, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "value --campaigns 4 --held-out 4",
            r#"value ValueArgs { scenario: ScenarioArgs { scenario: None, set: [] }, strategy: "tuned", campaigns: 4, held_out: 4, search: "search", master: SeedArg { seed: 1 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "value --strategy balanced --search search --campaigns 4 --held-out 4 --seed 9",
            r#"value ValueArgs { scenario: ScenarioArgs { scenario: None, set: [] }, strategy: "balanced", campaigns: 4, held_out: 4, search: "search", master: SeedArg { seed: 9 }, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "ladder --strategies random,balanced --campaigns 4 --bootstrap 100",
            r#"ladder LadderArgs { strategies: "random,balanced", scenario: ScenarioArgs { scenario: None, set: [] }, duels: false, campaigns: 4, master: SeedArg { seed: 1 }, anchor: None, bootstrap: 100, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "ladder --strategies random,balanced --duels --anchor balanced --campaigns 4 --bootstrap 100 --seed 2",
            r#"ladder LadderArgs { strategies: "random,balanced", scenario: ScenarioArgs { scenario: None, set: [] }, duels: true, campaigns: 4, master: SeedArg { seed: 2 }, anchor: Some("balanced"), bootstrap: 100, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "metagame --strategies random,balanced --campaigns 4 --bootstrap 100",
            r#"metagame MetagameArgs { strategies: "random,balanced", scenario: ScenarioArgs { scenario: None, set: [] }, campaigns: 4, master: SeedArg { seed: 1 }, bootstrap: 100, alpha: 100.0, population: 50, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, shards: ShardArgs { shard: None, shards: None }, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "metagame --strategies random,balanced --campaigns 4 --bootstrap 100 --shard 0/2 --intensity 10 --rank-population 20",
            r#"metagame MetagameArgs { strategies: "random,balanced", scenario: ScenarioArgs { scenario: None, set: [] }, campaigns: 4, master: SeedArg { seed: 1 }, bootstrap: 100, alpha: 10.0, population: 20, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, shards: ShardArgs { shard: None, shards: None }, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "sensitivity --metric 'win rate: seat 0' --inputs costs.capture --trajectories 2 --campaigns 4",
            r#"sensitivity SensitivityArgs { metric: "win rate: seat 0", keys: ["costs.capture"], trajectories: 2, campaigns: 4, sobol_keys: [], sobol_top: None, sobol_rows: 64, merge: [], shard: ShardArgs { shard: None, shards: None }, out: None, overwrite: OverwriteArg { overwrite: false }, flags: BalanceFlags { scenario: ScenarioArgs { scenario: None, set: [] }, players: None, seats: SeatArgs { rotate_seats: false, fixed_seats: false }, master: SeedArg { seed: 1 }, threads: ThreadsArg { threads: None }, long: LongArgs { quiet: false, resume: false } } }"#,
        ),
        (
            "sensitivity --metric 'win rate: seat 0' --inputs costs.capture,economy.pillage.mult --trajectories 2 --campaigns 4 --shard 0/2 --sobol-keys costs.capture --players balanced",
            r#"sensitivity SensitivityArgs { metric: "win rate: seat 0", keys: ["costs.capture", "economy.pillage.mult"], trajectories: 2, campaigns: 4, sobol_keys: ["costs.capture"], sobol_top: None, sobol_rows: 64, merge: [], shard: ShardArgs { shard: None, shards: None }, out: None, overwrite: OverwriteArg { overwrite: false }, flags: BalanceFlags { scenario: ScenarioArgs { scenario: None, set: [] }, players: Some("balanced"), seats: SeatArgs { rotate_seats: false, fixed_seats: false }, master: SeedArg { seed: 1 }, threads: ThreadsArg { threads: None }, long: LongArgs { quiet: false, resume: false } } }"#,
        ),
        (
            "solve --range costs.capture=1..4 --target 'win rate: seat 0 = 0.25' --campaigns 4",
            r#"solve SolveArgs { vary: ["costs.capture=1..4"], target: ["win rate: seat 0 = 0.25"], campaigns: 4, steps: 12, curve_points: 5, out: None, overwrite: OverwriteArg { overwrite: false }, flags: BalanceFlags { scenario: ScenarioArgs { scenario: None, set: [] }, players: None, seats: SeatArgs { rotate_seats: false, fixed_seats: false }, master: SeedArg { seed: 1 }, threads: ThreadsArg { threads: None }, long: LongArgs { quiet: false, resume: false } }, best: BestResponseArgs { best_response: false, generations: 20, campaigns_per_eval: 400, probe_campaigns: 1000, best_response_player: Weighted } }"#,
        ),
        (
            "solve --range economy.pillage.mult=5..40 --target 'share of gold from pillage = 0.3' --campaigns 4 --steps 3 --seed 4 --fixed-seats --best-response --probe-campaigns 0",
            r#"solve SolveArgs { vary: ["economy.pillage.mult=5..40"], target: ["share of gold from pillage = 0.3"], campaigns: 4, steps: 3, curve_points: 5, out: None, overwrite: OverwriteArg { overwrite: false }, flags: BalanceFlags { scenario: ScenarioArgs { scenario: None, set: [] }, players: None, seats: SeatArgs { rotate_seats: false, fixed_seats: true }, master: SeedArg { seed: 4 }, threads: ThreadsArg { threads: None }, long: LongArgs { quiet: false, resume: false } }, best: BestResponseArgs { best_response: true, generations: 20, campaigns_per_eval: 400, probe_campaigns: 0, best_response_player: Weighted } }"#,
        ),
        (
            "check b.toml",
            r#"check CheckArgs { file: Some("b.toml"), update: false, jobs: 1, players: None, threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        (
            "check b.toml --players balanced --update --jobs 2",
            r#"check CheckArgs { file: Some("b.toml"), update: true, jobs: 1, players: Some("balanced"), threads: ThreadsArg { threads: None }, out: None, overwrite: OverwriteArg { overwrite: false }, long: LongArgs { quiet: false, resume: false } }"#,
        ),
        ("tables --readings-campaigns 0", "tables readings 0 seed 1"),
        ("tables --readings-campaigns 10 --seed 3", "tables readings 10 seed 3"),
    ];

    #[test]
    fn the_keys_made_before_are_the_keys_made_now() {
        for (line, want) in PINNED {
            assert_eq!(key(line), *want, "{line}");
        }
    }

    /// The hash step too: this text under the default scenario of the day
    /// named a real folder, `reports/runs/default-s1-8c488c47`.
    #[test]
    fn the_hash_of_a_key_text_is_the_one_folders_are_named_by() {
        let hash = "d0b34e7e8d9267c19634fe6e82b65ec25ff1927dec733021004ac9ee86f8610d";
        let r = super::super::out::Request::new(PINNED[0].1, hash);
        assert_eq!(r.key, "8c488c470b76ad82");
    }

    /// The flags that change nothing in a result change no key: the
    /// folder, `--overwrite`, the threads, the bar, `--resume`, `--jobs`,
    /// `--install`, and a shard (a shard's folder adds it itself).
    #[test]
    fn result_neutral_flags_change_no_key() {
        let neutral: &[&str] = &["--threads 3", "--out elsewhere", "--overwrite", "--quiet", "--resume"];
        for (line, want) in PINNED {
            let command = line.split(' ').next().unwrap_or_default();
            for flag in neutral {
                // `tables` plays no long computation: it has no bar to hide and no resume.
                if command == "tables" && !flag.starts_with("--out") && *flag != "--overwrite" {
                    continue;
                }
                if line.contains(flag) {
                    continue; // given already
                }
                let line = format!("{line} {flag}");
                assert_eq!(key(&line), *want, "{line}");
            }
        }
        let extra = [
            ("run --campaigns 4 --quiet", "--shard 1/2"),
            ("metagame --strategies random,balanced --campaigns 4 --bootstrap 100", "--shard 0/2"),
            ("metagame --strategies random,balanced --campaigns 4 --bootstrap 100", "--shards 2"),
            (
                "sensitivity --metric 'win rate: seat 0' --inputs costs.capture --trajectories 2 --campaigns 4",
                "--shard 1/2",
            ),
            ("check b.toml", "--jobs 4"),
            ("tune --generations 1 --campaigns-per-eval 8 --eval-campaigns 8 --keys mine", "--install s.toml"),
            ("tables --readings-campaigns 0", "--format json"),
        ];
        for (line, flag) in extra {
            assert_eq!(key(&format!("{line} {flag}")), key(line), "{line} {flag}");
        }
    }

    /// `line` with `flag` set to `value`: the flag's value replaced where
    /// the line gives it, the flag added where it does not.
    fn with(line: &str, flag: &str, value: &str) -> String {
        let words = shlex(line);
        match words.iter().position(|w| w == flag) {
            Some(i) => {
                let mut w = words.clone();
                w[i + 1] = value.to_string();
                w.iter()
                    .map(|w| if w.contains(' ') { format!("'{w}'") } else { w.clone() })
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            None => format!("{line} {flag} {value}"),
        }
    }

    /// The flags that do change a result change the key, in every command
    /// that takes them.
    #[test]
    fn result_changing_flags_change_the_key() {
        let changing = [("--seed", "99"), ("--campaigns", "77"), ("--set", "costs.capture=2"), ("--players", "random")];
        let mut tried = 0;
        for (line, want) in PINNED {
            for (flag, value) in changing {
                // `tables` names its scenario, and so its `--set`, only
                // through the scenario's hash, which `Request` adds.
                if line.starts_with("tables") && flag == "--set" {
                    continue;
                }
                let changed = with(line, flag, value);
                let Ok(cli) = Cli::try_parse_from(std::iter::once("empires".to_string()).chain(shlex(&changed))) else {
                    continue; // the command does not take it
                };
                assert_ne!(key_of(&cli.command).expect("a key"), *want, "{changed}");
                tried += 1;
            }
        }
        assert!(tried > 60, "{tried}");
        // And the flags of one command each.
        for (line, flag) in [
            ("probe --campaigns 4 --topics mine", "--strict"),
            ("probe --campaigns 4 --topics mine", "--best-response-probe"),
            ("probe --campaigns 4 --best-response-probe", "--best-response-generations 3"),
            ("probe --campaigns 4 --best-response-probe", "--best-response-campaigns 8"),
            ("deviate --campaigns 4 --keys mine", "--strict"),
            ("check b.toml", "--update"),
            ("run --campaigns 4 --quiet", "--csv"),
            ("compare --vary costs.capture=3 --campaigns 4 --quiet", "--best-response"),
            ("tune --generations 1 --campaigns-per-eval 8 --eval-campaigns 8 --keys mine", "--name other"),
            ("tune --generations 1 --campaigns-per-eval 8 --eval-campaigns 8 --keys mine", "--objective share"),
            ("tune --generations 1 --campaigns-per-eval 8 --eval-campaigns 8 --keys mine", "--restarts 2"),
            ("tune --generations 1 --campaigns-per-eval 8 --eval-campaigns 8 --keys mine", "--starts warlord"),
            ("tune --generations 1 --campaigns-per-eval 8 --eval-campaigns 8 --keys mine", "--regime bipop"),
            ("tune --generations 1 --campaigns-per-eval 8 --eval-campaigns 8 --keys mine", "--select-campaigns 50"),
        ] {
            assert_ne!(key(&format!("{line} {flag}")), key(line), "{line} {flag}");
        }
    }

    /// Flags that change no result (`result_neutral_flags_change_no_key`
    /// holds each): the folder, the threads, the bar, `--resume`, the
    /// jobs, a shard, where a strategy is installed, the table's format.
    const NEUTRAL: &[&str] =
        &["threads", "out", "overwrite", "quiet", "resume", "jobs", "shard", "shards", "install", "format", "help"];

    /// A value to set each flag to that differs from any default, by long
    /// name (flags with a fixed set of values take one of those).
    const SAMPLE: &[(&str, &str)] = &[
        ("seed", "99"),
        ("campaigns", "77"),
        ("set", "costs.capture=2"),
        ("players", "random"),
        ("scenario", "other.toml"),
        ("vary", "economy.pillage=3D6x10"),
        ("values", "economy.pillage=2D6x10,3D6x10"),
        ("range", "economy.pillage.mult=5..40"),
        ("inputs", "economy.pillage.mult=5..40"),
        ("members", "balanced"),
        ("metric", "mean empire size"),
        ("target", "mean empire size = 5"),
        ("generations", "3"),
        ("campaigns-per-eval", "9"),
        ("probe-campaigns", "11"),
        ("strategy", "miner"),
        ("strategies", "random,miner"),
        ("keys", "capture"),
        ("field", "miner"),
        ("candidates", "miner"),
        ("against", "random"),
        ("forbid", "castle"),
        ("force", "castle"),
        ("levels", "miner"),
        ("loss-from", "miner"),
        ("loss-campaigns", "13"),
        ("readings-campaigns", "13"),
        ("readings-players", "miner"),
        ("worth-campaigns", "13"),
        ("payback", "3"),
        ("budget", "1234"),
        ("population", "7"),
        ("sigma", "0.3"),
        ("variants", "3"),
        ("eval-campaigns", "13"),
        ("eval-seed", "5"),
        ("name", "other"),
        ("starts", "warlord"),
        ("restarts", "2"),
        ("select-campaigns", "13"),
        ("gift-gold", "300"),
        ("precision", "0.4"),
        ("max-campaigns", "99"),
        ("detail", "seasons"),
        ("topics", "pillage"),
        ("best-response-generations", "3"),
        ("best-response-campaigns", "9"),
        ("trajectories", "3"),
        ("levels-per-key", "6"),
        ("steps", "5"),
        ("curve-points", "4"),
        ("bootstrap", "50"),
        ("rounds", "2"),
        ("meta-campaigns", "13"),
        ("styles-budget", "999"),
        ("batch", "3"),
        ("emitters", "2"),
        ("objective", "share"),
        ("regime", "bipop"),
        ("axes", "mines,raids"),
        ("bins", "5"),
        ("cma-population", "9"),
        ("factor", "3"),
        ("top", "2"),
        ("gold", "300"),
        ("tolerance", "0.03"),
        ("held-out", "13"),
        ("search", "lookahead_tuned"),
        ("anchor", "balanced"),
        ("intensity", "20"),
        ("rank-population", "9"),
        ("sobol-keys", "costs.capture"),
        ("sobol-top", "1"),
        ("sobol-rows", "9"),
        ("merge", "shard-0"),
    ];

    /// Flags a command's `ResultKey` leaves out for a reason other than
    /// being neutral: `--scenario` everywhere (its text's hash is in the
    /// folder's key, `out::Request`, so the file's name is not), `tables`'
    /// `--set` (the same hash), and `tables`' `--against-run`, `--diff` and
    /// `--alpha`, which print a check and write no folder.
    const KEYED_ELSEWHERE: &[(&str, &str)] =
        &[("", "scenario"), ("tables", "set"), ("tables", "against-run"), ("tables", "diff"), ("tables", "alpha")];

    /// Every argument of every command whose folder a key names changes
    /// that key, or is declared result-neutral above: a flag added to a
    /// command and forgotten in its `ResultKey` would name two results by
    /// one folder (and `--resume` would mix them), so this walks clap's own
    /// list of arguments rather than one kept by hand.
    #[test]
    fn every_argument_of_a_keyed_command_changes_its_key_or_is_declared_neutral() {
        use clap::CommandFactory;
        let extra_bases = ["tables", "styles", "psro", "experiment worth --campaigns 4"];
        let bases: Vec<&str> = PINNED.iter().map(|(l, _)| *l).chain(extra_bases).collect();
        let mut problems = Vec::new();
        let mut tried = 0;
        let mut root = Cli::command();
        // Built, so each argument knows how many values it takes.
        root.build();
        let mut leaves: Vec<(String, &clap::Command)> = Vec::new();
        for c in root.get_subcommands() {
            if c.has_subcommands() {
                leaves.extend(c.get_subcommands().map(|s| (format!("{} {}", c.get_name(), s.get_name()), s)));
            } else {
                leaves.push((c.get_name().to_string(), c));
            }
        }
        for (path, cmd) in leaves {
            if ["play", "merge", "report", "validate"].contains(&path.as_str())
                || path.starts_with("help")
                || path.ends_with(" help")
            {
                continue; // no key: their requests are what they read, or no folder
            }
            let mine: Vec<&str> =
                bases.iter().copied().filter(|l| *l == path || l.starts_with(&format!("{path} "))).collect();
            if mine.is_empty() {
                problems.push(format!("{path}: no base command line to vary"));
                continue;
            }
            for arg in cmd.get_arguments().filter(|a| !a.is_positional()) {
                let Some(long) = arg.get_long() else { continue };
                if NEUTRAL.contains(&long)
                    || KEYED_ELSEWHERE.iter().any(|(c, f)| *f == long && (c.is_empty() || *c == path))
                {
                    continue;
                }
                let takes = arg.get_num_args().is_some_and(|n| n.takes_values());
                let flag = format!("--{long}");
                // The first base line of the command that takes the change.
                let mut found = None;
                for base in &mine {
                    let changed = if !takes {
                        if shlex(base).contains(&flag) {
                            continue; // given already: its absence is another key, tested by the pinned lines
                        }
                        format!("{base} {flag}")
                    } else {
                        let defaults: Vec<String> =
                            arg.get_default_values().iter().map(|v| v.to_string_lossy().to_string()).collect();
                        let fixed: Vec<String> = arg
                            .get_possible_values()
                            .iter()
                            .map(|v| v.get_name().to_string())
                            .filter(|v| !defaults.contains(v))
                            .collect();
                        let value = match (fixed.first(), SAMPLE.iter().find(|(k, _)| *k == long)) {
                            (Some(v), _) => v.clone(),
                            (None, Some((_, v))) => v.to_string(),
                            (None, None) => {
                                problems.push(format!("{path} {flag}: no sample value (add one to SAMPLE)"));
                                break;
                            }
                        };
                        if shlex(base).contains(&flag) {
                            with(base, &flag, &value)
                        } else if value.contains(' ') {
                            format!("{base} {flag} '{value}'")
                        } else {
                            format!("{base} {flag} {value}")
                        }
                    };
                    // A budget flag needs `--best-response` (`probe`'s
                    // `--best-response-probe`) beside it.
                    let needs = ["", " --best-response", " --best-response-probe"];
                    let parsed = needs.iter().map(|n| format!("{changed}{n}")).find_map(|l| {
                        Cli::try_parse_from(std::iter::once("empires".to_string()).chain(shlex(&l))).ok()
                    });
                    if let Some(cli) = parsed {
                        found = Some((changed, cli, key(base)));
                        break;
                    }
                }
                let Some((changed, cli, want)) = found else {
                    problems.push(format!("{path} {flag}: parses with no base line"));
                    continue;
                };
                tried += 1;
                if key_of(&cli.command).as_deref() == Some(want.as_str()) {
                    problems.push(format!("{changed}: the key did not change"));
                }
            }
        }
        assert!(problems.is_empty(), "{} of the arguments tried:\n{}", tried, problems.join("\n"));
        assert!(tried > 150, "{tried}");
    }

    #[test]
    fn an_added_flag_keeps_the_keys_of_requests_that_do_not_give_it() {
        let base = Shape::new("X").field("a", &1);
        let before = base.to_string();
        assert_eq!(Shape::new("X").field("a", &1).added("b", &0, &0).to_string(), before);
        assert_eq!(Shape::new("X").field("a", &1).added("b", &3, &0).to_string(), "X { a: 1, b: 3 }");
        assert_eq!(Shape::new("X").to_string(), "X");
    }
}
