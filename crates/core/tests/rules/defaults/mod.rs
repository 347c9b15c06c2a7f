//! G defaults: each is a scenario value, and changing it changes play,
//! proved one gap at a time with scripted dice; one file per layer of the
//! game the gap is in. The small drawn maps several of them share are
//! here.

mod combat;
mod empire;
mod season;

use crate::common::*;

/// PLAINS with a river mine at (2,1).
const MINE_MAP: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 rn p p p  ~", "~ p  p p p p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

/// PLAINS with forest at (3,2) and mountain at (4,2).
const WOODS: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p  ~", "~ p  p f m p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

/// Coastal plains (2,1); inland plains (2,2), river (3,2), marsh (4,2).
const SITES: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p  ~", "~ p  p r w p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

/// PLAINS with a neutral city at (3,2).
const NEUTRAL: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p  ~", "~ p  p pc p p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

const SPY_MAP: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p  ~", "~ p  p r p p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];

/// PLAINS with a third capital at (5,1).
const THREE: &[&str] =
    &["~ ~  ~ ~ ~ ~  ~", " ~ p1 p p p p3 ~", "~ p  p p p p  ~", " ~ p  p p p p2 ~", "~ ~  ~ ~ ~ ~  ~"];
