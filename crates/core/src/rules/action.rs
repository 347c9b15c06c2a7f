//! Actions: every choice a player can make (G-30), as one small `Copy` enum.
//!
//! The engine lists the legal actions for the decision at hand (`action_phase.rs`),
//! the player's strategy picks one by index, and the engine applies it. A
//! campaign's history is the list of picked indices plus the dice faces, which
//! is enough to replay it exactly.

use crate::map::HexId;
use crate::scenario::{BuildingKind, FormationChoice, SiegeChoice};

/// What is recruited at a castle or city (G-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    Unit,
    Ship,
    Spy,
    Engine,
}

impl Item {
    pub const ALL: [Item; 4] = [Item::Unit, Item::Ship, Item::Spy, Item::Engine];
    pub fn name(self) -> &'static str {
        match self {
            Item::Unit => "army unit",
            Item::Ship => "ship",
            Item::Spy => "spy",
            Item::Engine => "siege engine",
        }
    }
}

/// A spy's hostile action (G-28).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpyKind {
    /// The mine pays nothing at the next payday.
    Sabotage,
    /// -1 stability to a city.
    Destabilize,
    /// -1 PV to the castle or city.
    DamageMain,
    /// -1 PV to the port, tower or bridge.
    DamageExtra,
    /// Steal gold from the target's owner.
    Steal,
}

impl SpyKind {
    pub fn name(self) -> &'static str {
        match self {
            SpyKind::Sabotage => "sabotage mine",
            SpyKind::Destabilize => "destabilize city",
            SpyKind::DamageMain => "damage building",
            SpyKind::DamageExtra => "damage building",
            SpyKind::Steal => "steal gold",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// End this decision loop (recruiting, a turn, spending).
    Done,
    Recruit {
        hex: HexId,
        item: Item,
    },
    MoveArmy {
        army: u16,
        to: HexId,
    },
    /// W-02: attack the enemy army on an adjacent hex.
    Attack {
        army: u16,
        target: u16,
    },
    /// W-08: assault the city at `city`.
    Siege {
        army: u16,
        city: u16,
    },
    MoveShip {
        ship: u16,
        to: HexId,
    },
    /// W-12: every ready ship on `from` attacks the ships on `to`.
    NavalAttack {
        from: HexId,
        to: HexId,
    },
    /// W-16: every ready ship on `from` attacks the coastal building on `target`.
    Coastal {
        from: HexId,
        target: HexId,
    },
    /// W-17: the ship carries the army and lands it on `to`.
    Transport {
        ship: u16,
        army: u16,
        to: HexId,
    },
    MoveSpy {
        spy: u16,
        to: HexId,
    },
    SpyAct {
        spy: u16,
        target: HexId,
        kind: SpyKind,
    },
    /// W-25.
    SpyDuel {
        spy: u16,
        target: u16,
    },
    /// Initiative bid (G-07), from 0 to the cap.
    Bid(u8),
    /// W-07.
    Formation(FormationChoice),
    /// W-11.
    Outcome(SiegeChoice),
    /// G-26: which ship takes the next point of damage.
    TakeHit {
        ship: u16,
    },
    /// E-06.
    Capture(HexId),
    /// E-07.
    Conquer(HexId),
    /// E-08, E-12, G-15.
    Build {
        hex: HexId,
        kind: BuildingKind,
    },
    /// E-09.
    Pillage,
}

/// The decision a player is asked to make; the options come with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Recruit,
    /// The action phase: move, attack, sail, spy, or `Done`.
    Act,
    Bid {
        kind: CombatKind,
        attacking: bool,
    },
    Formation {
        army: u16,
    },
    SiegeOutcome {
        city: u16,
    },
    TakeHit {
        hex: HexId,
    },
    Spend,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CombatKind {
    Army,
    Siege,
    Naval,
    Coastal,
    Spy,
    SpyDuel,
}

impl CombatKind {
    pub const ALL: [CombatKind; 6] = [
        CombatKind::Army,
        CombatKind::Siege,
        CombatKind::Naval,
        CombatKind::Coastal,
        CombatKind::Spy,
        CombatKind::SpyDuel,
    ];
    pub fn name(self) -> &'static str {
        match self {
            CombatKind::Army => "army",
            CombatKind::Siege => "siege",
            CombatKind::Naval => "naval",
            CombatKind::Coastal => "coastal",
            CombatKind::Spy => "spy",
            CombatKind::SpyDuel => "spy_vs_spy",
        }
    }
}

pub use crate::scenario::ActionKind;

impl Action {
    /// The action's kind: the vocabulary of restricted play and of the
    /// coverage table.
    pub fn kind(&self) -> ActionKind {
        use ActionKind as K;
        match self {
            Action::Done => K::Done,
            Action::Recruit { item, .. } => match item {
                Item::Unit => K::RecruitUnit,
                Item::Ship => K::RecruitShip,
                Item::Spy => K::RecruitSpy,
                Item::Engine => K::RecruitEngine,
            },
            Action::MoveArmy { .. } => K::MoveArmy,
            Action::Attack { .. } => K::Attack,
            Action::Siege { .. } => K::Siege,
            Action::MoveShip { .. } => K::MoveShip,
            Action::NavalAttack { .. } => K::NavalAttack,
            Action::Coastal { .. } => K::CoastalAttack,
            Action::Transport { .. } => K::Transport,
            Action::MoveSpy { .. } => K::MoveSpy,
            Action::SpyAct { .. } => K::SpyAction,
            Action::SpyDuel { .. } => K::SpyDuel,
            Action::Bid(_) => K::Bid,
            Action::Formation(_) => K::Formation,
            Action::Outcome(o) => match o {
                SiegeChoice::Conquer => K::OutcomeConquer,
                SiegeChoice::Federate => K::OutcomeFederate,
                SiegeChoice::Pillage => K::OutcomePillage,
            },
            Action::TakeHit { .. } => K::TakeHit,
            Action::Capture(_) => K::Capture,
            Action::Conquer(_) => K::Conquer,
            Action::Build { kind, .. } => match kind {
                BuildingKind::Castle => K::Castle,
                BuildingKind::City => K::City,
                BuildingKind::Mine => K::Mine,
                BuildingKind::Port => K::Port,
                BuildingKind::Tower => K::Tower,
                BuildingKind::Bridge => K::Bridge,
            },
            Action::Pillage => K::Pillage,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_one_action_and_its_own_name() {
        use BuildingKind as B;
        let one_of_each = [
            (Action::Done, "done"),
            (Action::Recruit { hex: 0, item: Item::Unit }, "recruit_unit"),
            (Action::Recruit { hex: 0, item: Item::Ship }, "recruit_ship"),
            (Action::Recruit { hex: 0, item: Item::Spy }, "recruit_spy"),
            (Action::Recruit { hex: 0, item: Item::Engine }, "recruit_engine"),
            (Action::MoveArmy { army: 0, to: 0 }, "move_army"),
            (Action::Attack { army: 0, target: 0 }, "attack"),
            (Action::Siege { army: 0, city: 0 }, "siege"),
            (Action::MoveShip { ship: 0, to: 0 }, "move_ship"),
            (Action::NavalAttack { from: 0, to: 0 }, "naval_attack"),
            (Action::Coastal { from: 0, target: 0 }, "coastal_attack"),
            (Action::Transport { ship: 0, army: 0, to: 0 }, "transport"),
            (Action::MoveSpy { spy: 0, to: 0 }, "move_spy"),
            (Action::SpyAct { spy: 0, target: 0, kind: SpyKind::Steal }, "spy_action"),
            (Action::SpyDuel { spy: 0, target: 0 }, "spy_duel"),
            (Action::Bid(0), "bid"),
            (Action::Formation(FormationChoice::Light), "formation"),
            (Action::Outcome(SiegeChoice::Conquer), "outcome_conquer"),
            (Action::Outcome(SiegeChoice::Federate), "outcome_federate"),
            (Action::Outcome(SiegeChoice::Pillage), "outcome_pillage"),
            (Action::TakeHit { ship: 0 }, "take_hit"),
            (Action::Capture(0), "capture"),
            (Action::Conquer(0), "conquer"),
            (Action::Build { hex: 0, kind: B::Castle }, "castle"),
            (Action::Build { hex: 0, kind: B::City }, "city"),
            (Action::Build { hex: 0, kind: B::Mine }, "mine"),
            (Action::Build { hex: 0, kind: B::Port }, "port"),
            (Action::Build { hex: 0, kind: B::Tower }, "tower"),
            (Action::Build { hex: 0, kind: B::Bridge }, "bridge"),
            (Action::Pillage, "pillage"),
        ];
        assert_eq!(one_of_each.len(), ActionKind::ALL.len());
        for (i, (a, name)) in one_of_each.iter().enumerate() {
            assert_eq!(a.kind().index(), i, "{name}");
            assert_eq!(a.kind().name(), *name);
        }
    }
}
