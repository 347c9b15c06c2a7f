//! `random`: uniform over the legal options.

use super::Strategy;
use crate::rules::{Action, Decision, Observation, Rules};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

pub struct RandomStrategy {
    rng: Pcg64Mcg,
}

impl RandomStrategy {
    pub fn new(rng: Pcg64Mcg) -> Self {
        RandomStrategy { rng }
    }
}

impl Strategy for RandomStrategy {
    fn choose(&mut self, _: Rules<'_>, _: Observation<'_>, _: Decision, options: &[Action]) -> usize {
        self.rng.random_range(0..options.len())
    }
}
