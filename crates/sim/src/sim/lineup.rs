//! A lineup: one strategy spec per seat, played over many campaigns with
//! the seats rotated, counting who won. It is the measuring stick of every
//! strength study (tuning, one-key deviations, the ladder): "how often does
//! this player win against those?", on seeds the caller chooses.
//!
//! Campaign `i` of master seed `m` has the same map, dice stream and
//! strategy streams in every lineup (G-31), so two lineups measured on the
//! same `(m, range)` are paired: common random numbers. Slot `k` sits in
//! seat `(k - i) mod n` of campaign `i` (the runner's rotation), so over a
//! multiple of `n` campaigns every slot plays every seat equally often.

use super::Campaign;
use super::watch;
use crate::map::Map;
use crate::rules::setup::{Gift, SetupError, make_map, map_is_fixed};
use crate::scenario::{Scenario, StrategySpec};
use crate::seed;
use rayon::prelude::*;
use std::ops::{ControlFlow, Range};

/// Campaigns per kept piece of a lineup's work: at most what Ctrl-C loses
/// of each lineup in flight, small next to the thousands a study plays.
pub const PIECE: u64 = 512;

/// A scenario whose seats play the given specs.
#[derive(Clone, Debug)]
pub struct Lineup {
    sc: Scenario,
    names: Vec<String>,
    fixed_map: Option<Map>,
    /// Names this lineup's drawn maps in the cache every lineup shares.
    map_key: super::maps::MapKey,
    /// `(slot, gift)`: handed to whichever seat the slot sits in.
    gifts: Vec<(usize, Gift)>,
}

/// Wins of each slot of a lineup over some campaigns.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Wins {
    pub campaigns: u64,
    /// `by_slot[k]`: campaigns won by slot `k`.
    pub by_slot: Vec<u64>,
}

/// One campaign of a lineup: the slot that won it, and a fingerprint of
/// how it ended (every player's tallies and the map's banners, buildings,
/// armies and cities): two lineups whose fingerprints agree on a campaign
/// played the same game there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlayedCampaign {
    pub winner: usize,
    pub print: u64,
}

/// A fingerprint of the final state for `PlayedCampaign::print`: the state's Debug
/// text fed straight into a hasher (no string is built), so every field
/// counts without a hash derived on each type. Only `Lineup::game` pays
/// for it; `winner` and `wins` (tuning, the ladder) do not.
pub fn fingerprint(st: &crate::rules::State) -> u64 {
    use std::fmt::Write;
    use std::hash::Hasher;
    struct Feed(std::collections::hash_map::DefaultHasher);
    impl Write for Feed {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0.write(s.as_bytes());
            Ok(())
        }
    }
    let mut h = Feed(std::collections::hash_map::DefaultHasher::new());
    let _ = write!(h, "{:?}{:?}{:?}{:?}{:?}", st.players, st.hexes, st.armies, st.cities, st.season);
    h.0.finish()
}

/// How campaign `i` of a lineup ended for each slot, as a tuning scores
/// it: who won, and each slot's share of the final empire sizes and its
/// rank points. Win rates are flat where a field wins everything (every
/// candidate wins about 0), so a search that follows them alone wanders;
/// a share of the sizes moves with every hex a candidate holds.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Finish {
    pub winner: usize,
    /// `share[k]`: slot `k`'s final size over the sum of every player's
    /// (G-03 sizes; an even share when every empire is gone).
    pub share: Vec<f64>,
    /// `points[k]`: `(n − rank) / (n − 1)` for slot `k`'s final rank
    /// (1 the winner, 0 the last; ties already broken by G-02's die).
    pub points: Vec<f64>,
    /// `did[k]`: what slot `k` did over the campaign (the style map's axes).
    pub did: Vec<Behaviour>,
}

/// What one player did over one campaign, from its tallies and its final
/// empire: the counts the style map's axes are made of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Behaviour {
    /// Seasons the campaign lasted.
    pub seasons: u32,
    /// Army battles it started (every result of the scale).
    pub battles: u32,
    pub sieges: u32,
    /// Naval combats it fought, won or lost.
    pub naval: u32,
    /// Castles (not cities) it held at the end.
    pub castles: u32,
    pub gold_spent: i64,
    pub gold_mines: i64,
    /// Gold from pillage and loot.
    pub gold_raids: i64,
}

impl std::ops::AddAssign for Behaviour {
    fn add_assign(&mut self, o: Behaviour) {
        self.seasons += o.seasons;
        self.battles += o.battles;
        self.sieges += o.sieges;
        self.naval += o.naval;
        self.castles += o.castles;
        self.gold_spent += o.gold_spent;
        self.gold_mines += o.gold_mines;
        self.gold_raids += o.gold_raids;
    }
}

impl Finish {
    fn of(st: &crate::rules::State, outcome: &crate::rules::season::Outcome, slot_of: &[usize]) -> Finish {
        let n = slot_of.len();
        let mut did = vec![Behaviour::default(); n];
        let total: u32 = outcome.standings.iter().map(|s| s.size.size).sum();
        let mut share = vec![1.0 / n as f64; n];
        let mut points = vec![0.0; n];
        for s in &outcome.standings {
            let k = slot_of[s.player as usize];
            if total > 0 {
                share[k] = s.size.size as f64 / total as f64;
            }
            points[k] = (n - s.rank as usize) as f64 / (n - 1).max(1) as f64;
            let t = &st.players[s.player as usize].tally;
            did[k] = Behaviour {
                seasons: outcome.seasons,
                battles: t.army_results.iter().sum(),
                sieges: t.sieges,
                naval: t.naval_won + t.naval_lost,
                castles: s.size.castles,
                gold_spent: t.gold_spent,
                gold_mines: t.gold_mines,
                gold_raids: t.gold_pillage + t.gold_loot,
            };
        }
        Finish { winner: slot_of[outcome.winner() as usize], share, points, did }
    }
}

impl Wins {
    pub fn rate(&self, slot: usize) -> f64 {
        if self.campaigns == 0 { f64::NAN } else { self.by_slot[slot] as f64 / self.campaigns as f64 }
    }
}

impl Lineup {
    /// Slot `k` plays `specs[k]`; the scenario must have one seat per spec.
    /// The specs are stored in a copy of the scenario under names of their
    /// own, so a lookahead spec's `base` still finds the scenario's strategies.
    pub fn new(sc: &Scenario, specs: &[StrategySpec]) -> Result<Lineup, SetupError> {
        if specs.len() != sc.players.len() {
            return Err(SetupError::Invalid(format!(
                "a lineup of {} strategies does not fit the scenario's {} seats",
                specs.len(),
                sc.players.len()
            )));
        }
        let mut sc = sc.clone();
        let names: Vec<String> = (0..specs.len()).map(|k| format!("lineup slot {k}")).collect();
        for (name, spec) in names.iter().zip(specs) {
            sc.strategies.insert(name.clone(), spec.clone());
        }
        for (p, name) in sc.players.iter_mut().zip(&names) {
            p.strategy = name.clone();
        }
        let fixed_map = if map_is_fixed(&sc) { Some(make_map(&sc, 0)?) } else { None };
        let map_key = super::maps::MapKey::of(&sc);
        Ok(Lineup { sc, names, fixed_map, map_key, gifts: Vec::new() })
    }

    /// The same lineup with `gift` handed to slot `slot` at the start of
    /// every campaign (the competence check's gift probes).
    pub fn with_gift(mut self, slot: usize, gift: Gift) -> Lineup {
        self.gifts.push((slot, gift));
        self
    }

    pub fn seats(&self) -> usize {
        self.names.len()
    }

    /// The slot that won campaign `i` of master seed `master`.
    fn winner(&self, master: u64, i: u64) -> Result<usize, SetupError> {
        Ok(self.play(master, i)?.1)
    }

    /// Campaign `i` of master seed `master`: who won, and how it ended.
    fn game(&self, master: u64, i: u64) -> Result<PlayedCampaign, SetupError> {
        let (st, winner) = self.play(master, i)?;
        Ok(PlayedCampaign { winner, print: fingerprint(&st) })
    }

    /// Play campaign `i` of master seed `master`: its final state and the
    /// winning slot.
    fn play(&self, master: u64, i: u64) -> Result<(crate::rules::State, usize), SetupError> {
        self.play_watched(master, i, |_, _, _| {})
    }

    /// Play campaign `i` of master seed `master` as `game` does (the same
    /// game), calling `after(rules, state, slot_of)` at the end of every
    /// season, where `slot_of[seat]` is the slot seated there: its final
    /// state and the winning slot.
    pub(crate) fn play_watched(
        &self,
        master: u64,
        i: u64,
        after: impl FnMut(crate::rules::Rules<'_>, &crate::rules::State, &[usize]),
    ) -> Result<(crate::rules::State, usize), SetupError> {
        let (st, outcome, slot_of) = self.play_full(master, i, after)?;
        Ok((st, slot_of[outcome.winner() as usize]))
    }

    /// How campaign `i` of master seed `master` ended for each slot (the
    /// same game as `game` and `winner`).
    fn finish(&self, master: u64, i: u64) -> Result<Finish, SetupError> {
        let (st, outcome, slot_of) = self.play_full(master, i, |_, _, _| {})?;
        Ok(Finish::of(&st, &outcome, &slot_of))
    }

    /// `finish` for every campaign of `range`, in campaign order (played in
    /// parallel; the order and values do not depend on threads).
    pub fn finishes(&self, master: u64, range: Range<u64>) -> Result<Vec<Finish>, SetupError> {
        self.each("finishes", master, range, |i| self.finish(master, i))
    }

    /// Campaign `i`: its final state, its outcome, and the slot in each seat.
    fn play_full(
        &self,
        master: u64,
        i: u64,
        mut after: impl FnMut(crate::rules::Rules<'_>, &crate::rules::State, &[usize]),
    ) -> Result<(crate::rules::State, crate::rules::season::Outcome, Vec<usize>), SetupError> {
        let n = self.names.len();
        let cs = seed::campaign_seed(master, i);
        let shift = (i % n as u64) as usize;
        // Seat s plays slot (s + i) mod n, as `runner::seat_strategies` seats a rotated run.
        let seated: Vec<&str> = (0..n).map(|s| self.names[(s + shift) % n].as_str()).collect();
        let made;
        let map = match &self.fixed_map {
            Some(m) => m,
            None => {
                made = super::maps::map(&self.sc, &self.map_key, cs)?;
                &*made
            }
        };
        // Slot k sits in seat (k - shift) mod n.
        let gifts: Vec<_> = self.gifts.iter().map(|&(k, g)| (((k + n - shift) % n) as u8, g)).collect();
        let slot_of: Vec<usize> = (0..n).map(|s| (s + shift) % n).collect();
        let played = Campaign::new(&self.sc, cs).on(map).seats(&seated).gifts(&gifts).watch(|r, st| {
            after(r, st, &slot_of);
            ControlFlow::Continue(())
        });
        Ok((played.state, played.outcome, slot_of))
    }

    /// Every campaign of `range`, in campaign order (played in parallel;
    /// the order and values do not depend on threads).
    pub fn games(&self, master: u64, range: Range<u64>) -> Result<Vec<PlayedCampaign>, SetupError> {
        self.each("games", master, range, |i| self.game(master, i))
    }

    /// The winning slot of each campaign of `range`, in campaign order
    /// (played in parallel; the order and values do not depend on threads).
    pub fn winners(&self, master: u64, range: Range<u64>) -> Result<Vec<usize>, SetupError> {
        self.each("winners", master, range, |i| self.winner(master, i))
    }

    /// `one(i)` for every campaign of `range`, in order, reporting to the
    /// thread's `watch`: each campaign counted, a stop seen before each,
    /// and, when the watch keeps cells, the range played in pieces of
    /// `PIECE` campaigns (aligned to multiples of it, so a resumed call
    /// finds them) that are kept as they finish.
    fn each<T>(
        &self,
        what: &str,
        master: u64,
        range: Range<u64>,
        one: impl Fn(u64) -> Result<T, SetupError> + Sync,
    ) -> Result<Vec<T>, SetupError>
    where
        T: serde::Serialize + serde::de::DeserializeOwned + Send,
    {
        let play = |r: Range<u64>| -> Result<Vec<T>, SetupError> {
            r.into_par_iter()
                .map(|i| {
                    watch::check()?;
                    let v = one(i)?;
                    watch::played(1);
                    Ok(v)
                })
                .collect()
        };
        if !watch::keeping() {
            return play(range);
        }
        // The gifts and the scenario's whole text name the lineup: every
        // strategy, every rule.
        let name = format!("{:?} {:?}", self.gifts, self.sc);
        let pieces = watch::pieces(range, PIECE)
            .into_iter()
            .enumerate()
            .map(|(i, r)| (i, format!("lineup {what} master {master} {r:?} {name}"), r));
        // This process's pieces first, then the others' (shards sharing
        // the cells: by then most of those are found, not waited for).
        let (mine, theirs): (Vec<_>, Vec<_>) = pieces.partition(|(_, key, _)| watch::mine(key));
        let mut kept: Vec<(usize, Vec<T>)> = Vec::new();
        for part in [mine, theirs] {
            let done: Vec<(usize, Vec<T>)> = part
                .into_par_iter()
                .map(|(i, key, r)| watch::memo(r.end - r.start, || key, || play(r.clone())).map(|v| (i, v)))
                .collect::<Result<_, _>>()?;
            kept.extend(done);
        }
        kept.sort_by_key(|(i, _)| *i);
        Ok(kept.into_iter().flat_map(|(_, v)| v).collect())
    }

    /// Wins of each slot over campaigns `range` of `master`, in parallel;
    /// the counts do not depend on the thread count.
    pub fn wins(&self, master: u64, range: Range<u64>) -> Result<Wins, SetupError> {
        let n = self.names.len();
        let won = self.winners(master, range.clone())?;
        let mut by_slot = vec![0; n];
        for w in won {
            by_slot[w] += 1;
        }
        Ok(Wins { campaigns: range.end - range.start, by_slot })
    }
}
