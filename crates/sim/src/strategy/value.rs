//! A learned value for the search's rollouts: the chance that a player
//! wins the campaign, read off a position by a logistic model fitted to
//! self-play outcomes (`strength::value`, `empires value`).
//!
//! Why: a rollout played to the campaign's end gives a 0-or-1 result, so
//! tens of rollouts barely separate two candidates, and each costs the
//! whole rest of the campaign. A rollout cut after `horizon` seasons and
//! valued by who leads there is cheap but throws away how far ahead, with
//! how much gold, how many units and how many seasons to go. The model
//! keeps those: the features are the player's margins over its strongest
//! rival (empire size, gold, units, EP), each also scaled by the share of
//! the campaign still to play, so a lead late counts for more than the
//! same lead early.
//!
//! The coefficients are scenario data (`strategies.NAME.value`): the fit
//! depends on the rules and the players, so a designer refits them for a
//! variant (`empires value`) and nothing in code changes.

use crate::rules::empire::sizes;
use crate::rules::{PlayerId, Rules, State};
use crate::scenario::VALUE_FEATURES;

/// The names of the features, in order (for the fit's report).
pub const NAMES: [&str; VALUE_FEATURES] = [
    "constant",
    "seasons left",
    "size margin",
    "size margin × left",
    "gold margin",
    "gold margin × left",
    "units margin",
    "units margin × left",
    "EP margin",
    "EP margin × left",
];

/// `me`'s features at `st` (the end of a season): see the module's text.
/// Margins are over the largest of `me`'s rivals in each measure; size in
/// land hexes' share, gold per 100, units per 10, EP per 10.
///
/// A search calls this once per cut-short rollout, so it allocates
/// nothing beyond `sizes`; units are counted over living armies only.
pub fn features(r: Rules<'_>, st: &State, me: PlayerId) -> [f64; VALUE_FEATURES] {
    let sz = sizes(r, st);
    let seasons = r.sc.campaign.seasons.max(1) as f64;
    let left = (seasons - st.season.min(r.sc.campaign.seasons) as f64) / seasons;
    let n = st.players.len();
    let units =
        |p: usize| st.armies.iter().filter(|a| a.alive && a.owner as usize == p).map(|a| a.units as i64).sum::<i64>();
    let measure = |m: &dyn Fn(usize) -> f64| -> f64 {
        let mine = m(me as usize);
        let rival = (0..n).filter(|&p| r.rivals(me, p as PlayerId)).map(m).fold(f64::NEG_INFINITY, f64::max);
        if rival.is_finite() { mine - rival } else { mine }
    };
    let land = r.map.land_count.max(1) as f64;
    let size = measure(&|p| sz[p].size as f64) / land;
    let gold = measure(&|p| st.players[p].gold as f64) / 100.0;
    let unit = measure(&|p| units(p) as f64) / 10.0;
    let ep = measure(&|p| st.players[p].ep as f64) / 10.0;
    [1.0, left, size, size * left, gold, gold * left, unit, unit * left, ep, ep * left]
}

/// The model's win probability for features `x` and coefficients `coef`.
pub fn win_probability(coef: &[f64], x: &[f64; VALUE_FEATURES]) -> f64 {
    let z: f64 = coef.iter().zip(x).map(|(c, v)| c * v).sum();
    1.0 / (1.0 + (-z).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::setup::{initial_state, make_map};
    use crate::scenario::Scenario;

    /// At the start every margin is 0; 60 more gold than the richest rival
    /// is a gold margin of exactly 0.6, and a late season scales it by the
    /// share of the campaign left.
    #[test]
    fn features_are_margins_over_the_strongest_rival() {
        let sc = Scenario::default();
        let map = make_map(&sc, 1).unwrap();
        let r = Rules::new(&sc, &map);
        let mut st = initial_state(r);
        let seasons = sc.campaign.seasons as f64;
        let left = (seasons - st.season as f64) / seasons;
        assert_eq!(features(r, &st, 0), [1.0, left, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        st.players[0].gold += 100;
        st.players[2].gold += 40;
        st.season = sc.campaign.seasons - 3;
        let x = features(r, &st, 0);
        assert_eq!((x[1], x[4], x[5]), (0.25, 0.6, 0.15));
        // Player 2 trails the richest rival (player 0) by 60.
        assert_eq!(features(r, &st, 2)[4], -0.6);
        // With every coefficient 0 the model says a coin flip.
        assert_eq!(win_probability(&[0.0; VALUE_FEATURES], &x), 0.5);
    }
}
