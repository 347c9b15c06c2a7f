//! Events: what happened, as plain data. The engine emits them through a
//! `Log`; `NoLog` compiles every emission away, so a Monte Carlo run pays
//! nothing for the log nobody asked for. Formatting lives in `report/`.

use super::action::{CombatKind, Item, SpyKind};
use super::state::{EndReason, Piece, PlayerId};
use crate::map::HexId;
use crate::scenario::{BattleResult, BuildingKind, FormationChoice, SiegeChoice};

pub trait Log {
    /// False for `NoLog`: callers skip building events entirely.
    const ENABLED: bool;
    fn push(&mut self, e: Event);
}

/// The log of a run that asked for none.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoLog;

impl Log for NoLog {
    const ENABLED: bool = false;
    #[inline(always)]
    fn push(&mut self, _: Event) {}
}

impl Log for Vec<Event> {
    const ENABLED: bool = true;
    #[inline]
    fn push(&mut self, e: Event) {
        Vec::push(self, e)
    }
}

/// One side's score, broken into its parts (W-02, W-09, W-12, W-20, W-25).
/// Parts that do not apply to a combat kind stay 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScoreParts {
    pub units: i32,
    pub xp: i32,
    pub bid: i32,
    /// Battle order (G-06): terrain and Assault formation.
    pub order: i32,
    /// Garrison or building defence (W-05, W-16, G-28), city defence (W-09).
    pub defence: i32,
    pub engines: i32,
    pub level: i32,
    pub stability: i32,
    /// Naval strength (W-12) or the spy's fixed base (W-20).
    pub strength: i32,
    /// Port defence (W-14).
    pub port: i32,
    pub die: i32,
}

impl ScoreParts {
    pub fn total(&self) -> i32 {
        self.units
            + self.xp
            + self.bid
            + self.order
            + self.defence
            + self.engines
            + self.level
            + self.stability
            + self.strength
            + self.port
            + self.die
    }
}

/// Everything about one combat resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CombatRecord {
    pub kind: CombatKind,
    pub attacker: PlayerId,
    /// `NOBODY` for a neutral city.
    pub defender: PlayerId,
    pub from: HexId,
    pub target: HexId,
    /// The pieces that fought, by id (`state::NONE` where none): the
    /// attacking army (army, siege) or spy (spy, duel); the defending army
    /// (army), city (siege) or spy (duel). Ships name themselves in `Hit`.
    pub a_piece: u16,
    pub d_piece: u16,
    pub a: ScoreParts,
    pub d: ScoreParts,
    /// Attacker total minus defender total.
    pub gap: i32,
    /// Index of the table row hit.
    pub row: u8,
    /// Units (army, siege) or PV (naval, coastal, city) lost by each side.
    pub a_loss: i32,
    pub d_loss: i32,
    pub a_destroyed: bool,
    pub d_destroyed: bool,
    /// Battle result for EP (army and siege only, G-10).
    pub a_result: Option<BattleResult>,
    pub d_result: Option<BattleResult>,
    /// Spy actions: which action, and whether it worked.
    pub spy_kind: Option<SpyKind>,
    pub success: bool,
}

impl CombatRecord {
    /// A combat about to be fought: who, where and with which pieces;
    /// everything it resolves is still zero.
    pub fn new(kind: CombatKind, attacker: PlayerId, defender: PlayerId, from: HexId, target: HexId) -> Self {
        CombatRecord {
            kind,
            attacker,
            defender,
            from,
            target,
            a_piece: super::state::NONE,
            d_piece: super::state::NONE,
            a: ScoreParts::default(),
            d: ScoreParts::default(),
            gap: 0,
            row: 0,
            a_loss: 0,
            d_loss: 0,
            a_destroyed: false,
            d_destroyed: false,
            a_result: None,
            d_result: None,
            spy_kind: None,
            success: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpendKind {
    Capture,
    Conquer,
    Build(BuildingKind),
    Pillage,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    SeasonStart {
        season: u32,
    },
    /// G-02 / G-03: a tie-break die rolled by a player tied with others on
    /// size and every other tie-break, before the `Order` or `Standing`
    /// events it decides (a roll-off: equal rolls roll again).
    TieBreak {
        player: PlayerId,
        die: i32,
    },
    /// Position in this season's order (E-04), smallest empire first.
    Order {
        pos: u8,
        player: PlayerId,
        size: u32,
    },
    /// E-15: a mine's yield at payday.
    Payday {
        player: PlayerId,
        hex: HexId,
        faces: u32,
        gold: i64,
        sabotaged: bool,
    },
    /// G-13: `item` bought at `hex`. `piece` is the army that got the unit
    /// or engine (a new army when its id is new), or the new ship or spy;
    /// `at` is where that piece stands (a ship is launched on the sea).
    Recruit {
        player: PlayerId,
        hex: HexId,
        item: Item,
        cost: i64,
        piece: u16,
        at: HexId,
    },
    Move {
        player: PlayerId,
        piece: Piece,
        from: HexId,
        to: HexId,
    },
    /// W-17: `units` of `army` sail on `ship` (which ends on `sea`) and land
    /// on `to` as army `landed`: the same army when all of it fits aboard,
    /// else a new detachment.
    Transport {
        player: PlayerId,
        ship: u16,
        army: u16,
        landed: u16,
        units: i32,
        sea: HexId,
        from: HexId,
        to: HexId,
        /// A detachment that lands without the army's experience and
        /// formation (`naval.detachment_keeps_xp = false`).
        fresh: bool,
    },
    Combat(CombatRecord),
    /// Gold for a victory (W-01, W-15, G-14).
    Loot {
        player: PlayerId,
        gold: i64,
    },
    Xp {
        army: u16,
        xp: i32,
    },
    Formation {
        army: u16,
        formation: FormationChoice,
    },
    /// G-26: a point of damage on `ship`, which has `pv` left (sunk at 0).
    Hit {
        player: PlayerId,
        ship: u16,
        pv: i32,
    },
    /// G-26: a ship next to its own port regained PV at the season's end.
    ShipRepaired {
        ship: u16,
        pv: i32,
    },
    /// A city after any change to it (siege, spy, outcome, conquest, a new
    /// city, recovery, its holder's elimination): every value a reader
    /// needs, and the banner on its hex.
    City {
        city: u16,
        hex: HexId,
        controller: PlayerId,
        influence: i32,
        defence: i32,
        level: i32,
        stability: i32,
        pv: i32,
        banner: PlayerId,
    },
    /// A castle, mine, port, tower or bridge after a PV change (built,
    /// damaged); `BuildingDestroyed` when it falls.
    BuildingPv {
        hex: HexId,
        kind: BuildingKind,
        pv: i32,
    },
    CityTaken {
        player: PlayerId,
        city: u16,
        hex: HexId,
        outcome: SiegeChoice,
        gold: i64,
    },
    /// E-01..E-03 and G-11: EP earned this season.
    Ep {
        player: PlayerId,
        battles: i32,
        sum: i32,
        earned: i32,
    },
    /// E-04..E-14: one purchase, in spending order.
    Spend {
        player: PlayerId,
        kind: SpendKind,
        hex: HexId,
        cost: i32,
        ep_left: i32,
        gold: i64,
    },
    /// E-05.
    EpLost {
        player: PlayerId,
        ep: i32,
    },
    BuildingDestroyed {
        hex: HexId,
        kind: BuildingKind,
    },
    Eliminated {
        player: PlayerId,
    },
    End {
        season: u32,
        reason: EndReason,
    },
    Standing {
        rank: u8,
        player: PlayerId,
        size: u32,
        hexes: u32,
        cities: u32,
        castles: u32,
        tie: bool,
    },
}

impl<T: Log> Log for &mut T {
    const ENABLED: bool = T::ENABLED;
    #[inline(always)]
    fn push(&mut self, e: Event) {
        (**self).push(e)
    }
}
