//! The engine's dice (G-05). The engine owns every roll: strategies never see a
//! `Dice`. Two sources exist: a seeded PCG stream for play, and a scripted
//! list for tests that fix every roll.

use crate::scenario::DiceExpr;
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

pub trait Dice {
    /// One die with `sides` faces: 1 to `sides`.
    fn roll(&mut self, sides: u8) -> u8;

    /// Roll a dice expression; returns (sum of faces, value).
    fn roll_expr(&mut self, e: &DiceExpr) -> (u32, i64) {
        let mut sum = 0u32;
        for _ in 0..e.count {
            sum += self.roll(e.sides) as u32;
        }
        (sum, e.apply(sum))
    }
}

/// Dice from a PCG stream (one per campaign, see `seed`).
#[derive(Clone, Debug)]
pub struct RngDice(pub Pcg64Mcg);

impl Dice for RngDice {
    #[inline]
    fn roll(&mut self, sides: u8) -> u8 {
        self.0.random_range(1..=sides)
    }
}

/// Dice that return a fixed list of faces, in order. Running out, or a face
/// that the die cannot show, is a bug in the test that scripted them, so it
/// panics with the position.
#[derive(Clone, Debug, Default)]
pub struct ScriptedDice {
    faces: Vec<u8>,
    next: usize,
}

impl ScriptedDice {
    pub fn new(faces: &[u8]) -> Self {
        ScriptedDice { faces: faces.to_vec(), next: 0 }
    }

    /// How many faces were used.
    pub fn used(&self) -> usize {
        self.next
    }

    /// Faces not yet used.
    pub fn remaining(&self) -> usize {
        self.faces.len() - self.next
    }
}

impl Dice for ScriptedDice {
    fn roll(&mut self, sides: u8) -> u8 {
        let Some(&f) = self.faces.get(self.next) else {
            panic!("scripted dice ran out after {} rolls", self.next);
        };
        assert!(f >= 1 && f <= sides, "scripted roll #{} is {f}, but the die has {sides} sides", self.next + 1);
        self.next += 1;
        f
    }
}

/// Dice that record every face another source gave: a history to replay.
#[derive(Clone, Debug)]
pub struct RecordingDice<D> {
    pub inner: D,
    pub faces: Vec<u8>,
}

impl<D: Dice> Dice for RecordingDice<D> {
    fn roll(&mut self, sides: u8) -> u8 {
        let f = self.inner.roll(sides);
        self.faces.push(f);
        f
    }
}
