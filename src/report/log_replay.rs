//! A reader of the campaign log (`report::log`) that rebuilds the position
//! from the records alone: no scenario, no map file, no engine. It is the
//! proof that the log is self-sufficient: a test feeds it the JSON lines of
//! many campaigns and compares its position with the engine's after every
//! season (`tests/it/log_replay.rs`).
//!
//! The position it rebuilds is everything that lasts from one season to the
//! next (`Position`): banners, buildings and their PV, cities, the pieces
//! and where they stand, gold. What the rules reset every season (movement
//! points, initiative, EP, who attacked) is not part of it.

use super::log::{CityRecord, Record};
use crate::error::Error;
use crate::rules::state::State;
use crate::scenario::{BuildingKind, FormationChoice};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HexPos {
    pub owner: Option<u8>,
    pub main: Option<BuildingKind>,
    pub main_pv: i32,
    pub extra: Option<BuildingKind>,
    pub extra_pv: i32,
    pub sabotaged: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CityPos {
    pub hex: u16,
    pub controller: Option<u8>,
    pub influence: i32,
    pub defence: i32,
    pub level: i32,
    pub stability: i32,
    pub pv: i32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmyPos {
    pub owner: u8,
    pub hex: u16,
    pub units: i32,
    pub xp: i32,
    pub engines: i32,
    pub formation: Option<FormationChoice>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShipPos {
    pub owner: u8,
    pub hex: u16,
    pub pv: i32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpyPos {
    pub owner: u8,
    pub hex: u16,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerPos {
    pub gold: i64,
    pub eliminated: bool,
}

/// The lasting part of a campaign's state. Pieces keep their ids for the
/// whole campaign; a destroyed one is `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    pub hexes: Vec<HexPos>,
    pub cities: Vec<CityPos>,
    pub armies: Vec<Option<ArmyPos>>,
    pub ships: Vec<Option<ShipPos>>,
    pub spies: Vec<Option<SpyPos>>,
    pub players: Vec<PlayerPos>,
}

fn who(p: u8) -> Option<u8> {
    (p != crate::rules::NOBODY).then_some(p)
}

impl Position {
    /// The engine's state, seen as a reader of the log sees it.
    pub fn of(st: &State) -> Position {
        Position {
            hexes: st
                .hexes
                .iter()
                .map(|h| HexPos {
                    owner: who(h.owner().id()),
                    main: h.main,
                    main_pv: h.main_pv,
                    extra: h.extra,
                    extra_pv: h.extra_pv,
                    sabotaged: h.sabotaged,
                })
                .collect(),
            cities: st
                .cities
                .iter()
                .map(|c| CityPos {
                    hex: c.hex,
                    controller: who(c.controller.id()),
                    influence: c.influence,
                    defence: c.defence,
                    level: c.level,
                    stability: c.stability,
                    pv: c.pv,
                })
                .collect(),
            armies: st
                .armies
                .iter()
                .map(|a| {
                    a.alive.then_some(ArmyPos {
                        owner: a.owner,
                        hex: a.hex,
                        units: a.units,
                        xp: a.xp,
                        engines: a.engines,
                        formation: a.formation,
                    })
                })
                .collect(),
            ships: st
                .ships
                .iter()
                .map(|s| s.alive.then_some(ShipPos { owner: s.owner, hex: s.hex, pv: s.pv }))
                .collect(),
            spies: st.spies.iter().map(|s| s.alive.then_some(SpyPos { owner: s.owner, hex: s.hex })).collect(),
            players: st.players.iter().map(|p| PlayerPos { gold: p.gold, eliminated: p.eliminated }).collect(),
        }
    }
}

/// Why a log could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// 0-based index of the record.
    pub record: usize,
    pub message: String,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "record {}: {}", self.record + 1, self.message)
    }
}

fn building(name: &str) -> Result<BuildingKind, Error> {
    BuildingKind::ALL
        .into_iter()
        .find(|b| b.name() == name)
        .ok_or_else(|| Error::input(format!("unknown building {name:?}")))
}

fn formation(name: &str) -> Result<FormationChoice, Error> {
    [FormationChoice::Light, FormationChoice::Assault, FormationChoice::Siege]
        .into_iter()
        .find(|f| format!("{f:?}").eq_ignore_ascii_case(name))
        .ok_or_else(|| Error::input(format!("unknown formation {name:?}")))
}

/// The reader: a position, and the rules of the log that move it.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    pub pos: Position,
    new_ship_pv: i32,
    read: usize,
}

impl Replay {
    /// Read one record. The first must be the header.
    pub fn apply(&mut self, r: &Record) -> Result<(), ReplayError> {
        let at = self.read;
        self.read += 1;
        self.step(r).map_err(|e| ReplayError { record: at, message: e.to_string() })
    }

    fn army(&mut self, id: u16) -> Result<&mut ArmyPos, Error> {
        self.pos
            .armies
            .get_mut(id as usize)
            .and_then(|a| a.as_mut())
            .ok_or_else(|| Error::input(format!("no army {id}")))
    }

    fn ship(&mut self, id: u16) -> Result<&mut ShipPos, Error> {
        self.pos
            .ships
            .get_mut(id as usize)
            .and_then(|a| a.as_mut())
            .ok_or_else(|| Error::input(format!("no ship {id}")))
    }

    fn spy(&mut self, id: u16) -> Result<&mut SpyPos, Error> {
        self.pos.spies.get_mut(id as usize).and_then(|a| a.as_mut()).ok_or_else(|| Error::input(format!("no spy {id}")))
    }

    fn hex(&mut self, h: u16) -> Result<&mut HexPos, Error> {
        self.pos.hexes.get_mut(h as usize).ok_or_else(|| Error::input(format!("no hex {h}")))
    }

    fn gold(&mut self, p: u8, g: i64) -> Result<(), Error> {
        self.pos.players.get_mut(p as usize).ok_or_else(|| Error::input(format!("no player {p}")))?.gold += g;
        Ok(())
    }

    fn set_city(&mut self, c: &CityRecord) -> Result<(), Error> {
        let pos = CityPos {
            hex: c.hex,
            controller: c.controller,
            influence: c.influence,
            defence: c.defence,
            level: c.level,
            stability: c.stability,
            pv: c.pv,
        };
        let i = c.city as usize;
        if i == self.pos.cities.len() {
            // A new city stands in the main slot, replacing a castle (G-16).
            self.pos.cities.push(pos);
            let h = self.hex(c.hex)?;
            h.main = Some(BuildingKind::City);
            h.main_pv = 0;
        } else {
            *self.pos.cities.get_mut(i).ok_or_else(|| Error::input(format!("no city {i}")))? = pos;
        }
        self.hex(c.hex)?.owner = c.banner;
        Ok(())
    }

    fn step(&mut self, r: &Record) -> Result<(), Error> {
        match r {
            Record::Header(h) => {
                let p = &mut self.pos;
                p.hexes = h.hexes.iter().map(|x| HexPos { owner: x.owner, ..HexPos::default() }).collect();
                for b in &h.buildings {
                    let kind = building(&b.building)?;
                    let hx =
                        p.hexes.get_mut(b.hex as usize).ok_or_else(|| Error::input(format!("no hex {}", b.hex)))?;
                    if kind.is_main() {
                        (hx.main, hx.main_pv) = (Some(kind), b.pv);
                    } else {
                        (hx.extra, hx.extra_pv) = (Some(kind), b.pv);
                    }
                }
                p.players = h.players.iter().map(|x| PlayerPos { gold: x.gold, eliminated: false }).collect();
                p.armies = Vec::new();
                for a in &h.armies {
                    let formation = a.formation.as_deref().map(formation).transpose()?;
                    let (owner, hex, units, xp, engines) = (a.owner, a.hex, a.units, a.xp, a.engines);
                    p.armies.push(Some(ArmyPos { owner, hex, units, xp, engines, formation }));
                }
                p.ships = h.ships.iter().map(|s| Some(ShipPos { owner: s.owner, hex: s.hex, pv: s.pv })).collect();
                p.spies = h.spies.iter().map(|s| Some(SpyPos { owner: s.owner, hex: s.hex })).collect();
                p.cities = Vec::new();
                for c in &h.cities {
                    self.set_city(c)?;
                }
                self.new_ship_pv = h.new_ship_pv;
            }
            _ if self.pos.hexes.is_empty() => return Err(Error::input("the log must open with its header")),
            Record::Season { .. }
            | Record::TieBreak { .. }
            | Record::Order { .. }
            | Record::Ep { .. }
            | Record::EpLost { .. }
            | Record::End { .. }
            | Record::Standing { .. } => {}
            Record::Payday { player, hex, gold, sabotaged, .. } => {
                self.gold(*player, *gold)?;
                if *sabotaged {
                    self.hex(*hex)?.sabotaged = false;
                }
            }
            Record::Recruit { player, item, cost, piece, at, .. } => {
                self.gold(*player, -cost)?;
                let (owner, hex, id) = (*player, *at, *piece as usize);
                match item.as_str() {
                    "unit" if id == self.pos.armies.len() => {
                        let formation = None;
                        self.pos.armies.push(Some(ArmyPos { owner, hex, units: 1, xp: 0, engines: 0, formation }));
                    }
                    "unit" => self.army(*piece)?.units += 1,
                    "engine" => self.army(*piece)?.engines += 1,
                    "spy" => self.pos.spies.push(Some(SpyPos { owner, hex })),
                    "ship" => self.pos.ships.push(Some(ShipPos { owner, hex, pv: self.new_ship_pv })),
                    other => return Err(Error::input(format!("unknown item {other:?}"))),
                }
            }
            Record::Move { piece, id, to, .. } => match piece.as_str() {
                "army" => self.army(*id)?.hex = *to,
                "ship" => self.ship(*id)?.hex = *to,
                "spy" => self.spy(*id)?.hex = *to,
                other => return Err(Error::input(format!("unknown piece {other:?}"))),
            },
            Record::Transport { ship, army, landed, units, sea, to, fresh, .. } => {
                self.ship(*ship)?.hex = *sea;
                if landed == army {
                    self.army(*army)?.hex = *to;
                } else {
                    let a = self.army(*army)?;
                    a.units -= units;
                    let mut detached = ArmyPos { hex: *to, units: *units, engines: 0, ..a.clone() };
                    if *fresh {
                        (detached.xp, detached.formation) = (0, None);
                    }
                    if *landed as usize != self.pos.armies.len() {
                        return Err(Error::input(format!("detachment {landed} is not the next army id")));
                    }
                    self.pos.armies.push(Some(detached));
                }
            }
            Record::Combat(c) => {
                let (ap, dp) = (c.attacker_piece, c.defender_piece);
                match c.kind.as_str() {
                    "army" | "siege" => {
                        let a = ap.ok_or_else(|| Error::input("an army combat without its army"))?;
                        if c.attacker_destroyed {
                            self.pos.armies[a as usize] = None;
                        } else {
                            self.army(a)?.units -= c.attacker_loss;
                        }
                        if c.kind == "army" {
                            let d = dp.ok_or_else(|| Error::input("an army combat without the defending army"))?;
                            if c.defender_destroyed {
                                self.pos.armies[d as usize] = None;
                            } else {
                                self.army(d)?.units -= c.defender_loss;
                            }
                        }
                    }
                    "spy" | "spy_vs_spy" => {
                        if c.attacker_destroyed {
                            let s = ap.ok_or_else(|| Error::input("a spy action without its spy"))?;
                            self.spy(s)?;
                            self.pos.spies[s as usize] = None;
                        }
                        if c.defender_destroyed && c.kind == "spy_vs_spy" {
                            let s = dp.ok_or_else(|| Error::input("a spy duel without the defending spy"))?;
                            self.spy(s)?;
                            self.pos.spies[s as usize] = None;
                        }
                        if c.success {
                            match c.spy_action.as_deref() {
                                Some("sabotage") => self.hex(c.target)?.sabotaged = true,
                                Some("steal") => {
                                    self.gold(c.attacker, c.defender_loss as i64)?;
                                    if let Some(d) = c.defender {
                                        self.gold(d, -(c.defender_loss as i64))?;
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                    // Ships are hit one point at a time (`ship_hit`); a coastal
                    // building's PV follows in `building_pv` or `building_destroyed`.
                    "naval" | "coastal" => {}
                    other => return Err(Error::input(format!("unknown combat kind {other:?}"))),
                }
            }
            Record::Loot { player, gold } => self.gold(*player, *gold)?,
            Record::Experience { army, xp } => self.army(*army)?.xp = *xp,
            Record::Formation { army, formation: f } => self.army(*army)?.formation = Some(formation(f)?),
            Record::ShipHit { ship, pv, .. } | Record::ShipRepaired { ship, pv } => {
                if *pv <= 0 {
                    self.ship(*ship)?;
                    self.pos.ships[*ship as usize] = None;
                } else {
                    self.ship(*ship)?.pv = *pv;
                }
            }
            Record::City(c) => self.set_city(c)?,
            Record::BuildingPv { hex, building: b, pv } => {
                let kind = building(b)?;
                let h = self.hex(*hex)?;
                if kind.is_main() {
                    (h.main, h.main_pv) = (Some(kind), *pv);
                } else {
                    (h.extra, h.extra_pv) = (Some(kind), *pv);
                }
            }
            Record::CityTaken { player, gold, .. } => self.gold(*player, *gold)?,
            Record::BuildingDestroyed { hex, building: b } => {
                let h = self.hex(*hex)?;
                if building(b)?.is_main() {
                    (h.main, h.main_pv) = (None, 0);
                } else {
                    (h.extra, h.extra_pv) = (None, 0);
                }
            }
            Record::Spend { player, what, hex, gold, .. } => {
                self.gold(*player, *gold)?;
                match (what.as_str(), hex) {
                    ("capture" | "conquer", Some(h)) => self.hex(*h)?.owner = Some(*player),
                    // A new castle or mine starts unsabotaged; its PV follows.
                    (w, Some(h)) if w == "build_castle" || w == "build_mine" => self.hex(*h)?.sabotaged = false,
                    _ => {}
                }
            }
            Record::Eliminated { player } => {
                let p = *player;
                self.pos
                    .players
                    .get_mut(p as usize)
                    .ok_or_else(|| Error::input(format!("no player {p}")))?
                    .eliminated = true;
                for a in self.pos.armies.iter_mut().filter(|a| a.as_ref().is_some_and(|a| a.owner == p)) {
                    *a = None;
                }
                for s in self.pos.ships.iter_mut().filter(|s| s.as_ref().is_some_and(|s| s.owner == p)) {
                    *s = None;
                }
                for s in self.pos.spies.iter_mut().filter(|s| s.as_ref().is_some_and(|s| s.owner == p)) {
                    *s = None;
                }
            }
        }
        Ok(())
    }
}
