//! Scratch buffers of weighted players handed on from one player to the
//! next built on the same thread.

use super::Weighted;
use super::goals::Goals;

/// The most spare buffers a thread keeps: enough for every seat of a
/// campaign and a search's rollout players, with room to spare.
const SPARES: usize = 64;

thread_local! {
    /// Scratch buffers of weighted players dropped on this thread, handed
    /// to the next ones built on it. A campaign builds its players afresh
    /// and drops them at its end; growing each player's goal columns,
    /// distances and scores from nothing every campaign was 3% of a run.
    /// Only buffers are handed on, reset as a new decision resets them,
    /// and nothing reads one before that reset, so which buffers a player
    /// gets, and so the thread and the order campaigns ran in, changes no
    /// choice (a test in this file holds it).
    static SPARE: std::cell::RefCell<Vec<(Goals, Vec<f64>)>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Drop for Weighted {
    fn drop(&mut self) {
        let mut goals = std::mem::take(&mut self.goals);
        goals.forget();
        let spare = (goals, std::mem::take(&mut self.scores));
        // `try_`: a player dropped while its thread is being torn down
        // simply frees its buffers.
        let _ = SPARE.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut()
                && s.len() < SPARES
            {
                s.push(spare);
            }
        });
    }
}

/// A dropped player's buffers, or new ones when this thread has none.
pub(super) fn take() -> (Goals, Vec<f64>) {
    SPARE.try_with(|s| s.try_borrow_mut().ok()?.pop()).ok().flatten().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use crate::strategy::shipped;

    /// A campaign's players built on the buffers of players dropped before
    /// them, who played other campaigns on another map (the straits'
    /// corsairs), play the campaign they play on new buffers.
    #[test]
    fn a_weighted_player_plays_the_same_on_another_players_buffers() {
        fn play(sc: &Scenario, seed: u64) -> crate::sim::Played<'_, crate::rules::NoLog> {
            crate::sim::Campaign::new(sc, seed).play().unwrap()
        }
        let (island, straits) = (shipped("default.toml"), shipped("straits.toml"));
        SPARE.with_borrow_mut(|s| s.clear());
        let fresh = play(&island, 5);
        for seed in 0..3 {
            play(&straits, seed);
        }
        assert!(SPARE.with_borrow(|s| s.len()) >= island.players.len(), "no buffers were handed on");
        let again = play(&island, 5);
        assert_eq!(again.state, fresh.state);
        assert_eq!(again.taken, fresh.taken);
    }
}
