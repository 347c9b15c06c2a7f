//! How a run's seating is written for a designer: the line a summary
//! prints, and the flag that seats a run the same way again. Here rather
//! than beside `sim::runner::SeatRotation` because both name the command
//! line's flags, which the library does not know.

use crate::sim::runner::SeatRotation;

/// The line the summaries print.
pub fn describe(s: SeatRotation) -> &'static str {
    match s {
        SeatRotation::RotatedStrategiesDiffer => "seats rotated (strategies differ)",
        SeatRotation::RotatedByFlag => "seats rotated (--rotate-seats)",
        SeatRotation::FixedByFlag => "seats fixed (--fixed-seats)",
        SeatRotation::FixedSameStrategy => "seats fixed (all seats play the same strategy)",
    }
}

/// The flag that makes `empires run` (or `empires play --campaign I`, which
/// seats players by the same default) seat a run this way again: with a
/// leading space, or empty when the default does.
pub fn flag(s: SeatRotation) -> &'static str {
    match s {
        SeatRotation::RotatedStrategiesDiffer | SeatRotation::FixedSameStrategy => "",
        SeatRotation::RotatedByFlag => " --rotate-seats",
        SeatRotation::FixedByFlag => " --fixed-seats",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words follow the decision, and a flag is written exactly when
    /// the default would seat the run otherwise.
    #[test]
    fn the_words_and_the_flag_follow_the_seating() {
        for s in [
            SeatRotation::RotatedStrategiesDiffer,
            SeatRotation::RotatedByFlag,
            SeatRotation::FixedByFlag,
            SeatRotation::FixedSameStrategy,
        ] {
            assert_eq!(s.rotate(), describe(s).starts_with("seats rotated"));
            let by_flag = matches!(s, SeatRotation::RotatedByFlag | SeatRotation::FixedByFlag);
            assert_eq!(!flag(s).is_empty(), by_flag, "{s:?}");
        }
    }
}
