//! Kinds of action (G-30): the vocabulary of restricted play (`forbid`,
//! `force` in a strategy), of the coverage table and of the counts a run
//! keeps. Each kind and its name are declared once, below; the enum, its
//! list, its names and its serde form all come from that one list, so a
//! scenario naming an unknown kind fails where it is read, with its line.
//!
//! The kinds live with the scenario because scenarios name them; the rules
//! map each `Action` to its kind (`rules::action::Action::kind`).

macro_rules! action_kinds {
    ($($(#[$doc:meta])* $kind:ident = $name:literal,)*) => {
        /// A kind of action. The order is the order of `ActionKind::ALL`,
        /// the coverage counts and the dataset's columns.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ActionKind {
            $($(#[$doc])* $kind,)*
        }

        impl ActionKind {
            /// Every kind, in declaration order (`kind.index()` is its place).
            pub const ALL: &[ActionKind] = &[$(ActionKind::$kind,)*];

            /// The kind's name in scenario files and outputs.
            pub fn name(self) -> &'static str {
                match self {
                    $(ActionKind::$kind => $name,)*
                }
            }

            /// The kind with this name.
            pub fn from_name(name: &str) -> Option<ActionKind> {
                match name {
                    $($name => Some(ActionKind::$kind),)*
                    _ => None,
                }
            }
        }
    };
}

action_kinds! {
    /// Stop: end recruiting, acting or spending for this season.
    Done = "done",
    RecruitUnit = "recruit_unit",
    RecruitShip = "recruit_ship",
    RecruitSpy = "recruit_spy",
    RecruitEngine = "recruit_engine",
    MoveArmy = "move_army",
    /// An army attacks an army.
    Attack = "attack",
    Siege = "siege",
    MoveShip = "move_ship",
    NavalAttack = "naval_attack",
    CoastalAttack = "coastal_attack",
    Transport = "transport",
    MoveSpy = "move_spy",
    SpyAction = "spy_action",
    SpyDuel = "spy_duel",
    /// An initiative bid (any amount).
    Bid = "bid",
    Formation = "formation",
    OutcomeConquer = "outcome_conquer",
    OutcomeFederate = "outcome_federate",
    OutcomePillage = "outcome_pillage",
    TakeHit = "take_hit",
    Capture = "capture",
    Conquer = "conquer",
    Castle = "castle",
    City = "city",
    Mine = "mine",
    Port = "port",
    Tower = "tower",
    Bridge = "bridge",
    Pillage = "pillage",
}

/// How many kinds there are: the length of per-kind count arrays.
pub const ACTION_KIND_COUNT: usize = ActionKind::ALL.len();

impl ActionKind {
    /// The kind's place in `ALL`, for per-kind count arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Every name, for error messages.
    pub fn names() -> String {
        ActionKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
    }
}

impl std::fmt::Display for ActionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for ActionKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ActionKind::from_name(s).ok_or_else(|| format!("unknown action kind {s:?} (known: {})", ActionKind::names()))
    }
}

impl serde::Serialize for ActionKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for ActionKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_index_is_the_place_in_all() {
        for (i, k) in ActionKind::ALL.iter().enumerate() {
            assert_eq!(k.index(), i);
            assert_eq!(ActionKind::from_name(k.name()), Some(*k));
            assert_eq!(k.name().parse::<ActionKind>(), Ok(*k));
        }
        let err = "dance".parse::<ActionKind>().unwrap_err();
        assert!(err.contains("unknown action kind \"dance\"") && err.contains("pillage"), "{err}");
    }
}
