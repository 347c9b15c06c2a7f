//! What one player may see of a campaign, after OpenSpiel's information
//! state: everything every player sees (the `State`, which holds no
//! secret) and who is looking. It is the only thing a player is handed
//! (`rules::Players`, `strategy::Strategy`, `Game::observation`).
//!
//! The rules' one secret, the attacker's bid while the defender bids
//! (G-07), is not in it: the engine that took the bid keeps it, so two
//! observations of positions that differ only in that bid are equal (`==`),
//! and a copy of the state played on by another engine fights with the
//! bid that engine is given (`Engine::assume_attacker_bid`: a guess),
//! never with the real one. `crates/core/tests/rules/game.rs`
//! `g07_*` holds both.

use super::state::{PlayerId, State};

/// What `player` sees: see the module's comment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observation<'a> {
    state: &'a State,
    player: PlayerId,
}

impl<'a> Observation<'a> {
    /// `player`'s view of `state`.
    #[inline]
    pub fn new(state: &'a State, player: PlayerId) -> Self {
        Observation { state, player }
    }

    /// The position, all of it public.
    #[inline]
    pub fn state(&self) -> &'a State {
        self.state
    }

    /// Who is looking: the player to decide.
    #[inline]
    pub fn player(&self) -> PlayerId {
        self.player
    }
}
