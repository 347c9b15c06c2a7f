//! Terrains (G-22) and per-terrain tables of scenario values.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum Terrain {
    Plains = 0,
    Forest = 1,
    River = 2,
    Mountain = 3,
    Marsh = 4,
    Sea = 5,
}

impl Terrain {
    pub const ALL: [Terrain; 6] =
        [Terrain::Plains, Terrain::Forest, Terrain::River, Terrain::Mountain, Terrain::Marsh, Terrain::Sea];

    #[inline]
    pub fn is_land(self) -> bool {
        self != Terrain::Sea
    }

    #[inline]
    pub fn bit(self) -> u8 {
        1 << self as u8
    }

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Plains => "plains",
            Terrain::Forest => "forest",
            Terrain::River => "river",
            Terrain::Mountain => "mountain",
            Terrain::Marsh => "marsh",
            Terrain::Sea => "sea",
        }
    }

    /// The letter used in drawn maps (`map.rows`).
    pub fn letter(self) -> char {
        match self {
            Terrain::Plains => 'p',
            Terrain::Forest => 'f',
            Terrain::River => 'r',
            Terrain::Mountain => 'm',
            Terrain::Marsh => 'w',
            Terrain::Sea => '~',
        }
    }

    pub fn from_letter(c: char) -> Option<Terrain> {
        Terrain::ALL.into_iter().find(|t| t.letter() == c.to_ascii_lowercase())
    }
}

/// A set of terrains as a bit mask, read from a TOML list such as
/// `["plains", "forest"]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TerrainSet(pub u8);

impl TerrainSet {
    #[inline]
    pub fn contains(self, t: Terrain) -> bool {
        self.0 & t.bit() != 0
    }
    pub fn of(ts: &[Terrain]) -> Self {
        TerrainSet(ts.iter().fold(0, |m, t| m | t.bit()))
    }
    pub fn iter(self) -> impl Iterator<Item = Terrain> {
        Terrain::ALL.into_iter().filter(move |t| self.contains(*t))
    }
}

impl Serialize for TerrainSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.iter().collect::<Vec<_>>().serialize(s)
    }
}

impl<'de> Deserialize<'de> for TerrainSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(TerrainSet::of(&Vec::<Terrain>::deserialize(d)?))
    }
}

/// Declares a struct with one field per terrain and the given defaults, so a
/// designer may override a single terrain and keep the others' defaults.
macro_rules! terrain_table {
    ($(#[$m:meta])* $name:ident : $t:ty { $($field:ident = $val:expr),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct $name {
            pub plains: $t,
            pub forest: $t,
            pub river: $t,
            pub mountain: $t,
            pub marsh: $t,
            pub sea: $t,
        }

        impl Default for $name {
            fn default() -> Self {
                #[allow(unused_mut)]
                let mut t = $name {
                    plains: Default::default(),
                    forest: Default::default(),
                    river: Default::default(),
                    mountain: Default::default(),
                    marsh: Default::default(),
                    sea: Default::default(),
                };
                $( t.$field = $val; )*
                t
            }
        }

        impl $name {
            #[inline]
            pub fn get(&self, t: $crate::map::Terrain) -> &$t {
                use $crate::map::Terrain::*;
                match t {
                    Plains => &self.plains,
                    Forest => &self.forest,
                    River => &self.river,
                    Mountain => &self.mountain,
                    Marsh => &self.marsh,
                    Sea => &self.sea,
                }
            }
        }
    };
}
pub(crate) use terrain_table;
