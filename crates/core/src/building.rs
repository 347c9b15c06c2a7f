//! The kinds of building (E-13 to E-15, G-22): the vocabulary the map's
//! placements and the scenario's building tables share, in a module of its
//! own so that neither of those imports the other (`scenario` re-exports
//! it, so `scenario::BuildingKind` names it too).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BuildingKind {
    Castle,
    City,
    Mine,
    Port,
    Tower,
    Bridge,
}

impl BuildingKind {
    pub const ALL: [BuildingKind; 6] = [
        BuildingKind::Castle,
        BuildingKind::City,
        BuildingKind::Mine,
        BuildingKind::Port,
        BuildingKind::Tower,
        BuildingKind::Bridge,
    ];

    /// Castle, city and mine share one slot per hex; port, tower and bridge
    /// share the other (G-22).
    #[inline]
    pub fn is_main(self) -> bool {
        matches!(self, BuildingKind::Castle | BuildingKind::City | BuildingKind::Mine)
    }

    pub fn name(self) -> &'static str {
        match self {
            BuildingKind::Castle => "castle",
            BuildingKind::City => "city",
            BuildingKind::Mine => "mine",
            BuildingKind::Port => "port",
            BuildingKind::Tower => "tower",
            BuildingKind::Bridge => "bridge",
        }
    }
}
