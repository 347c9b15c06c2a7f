//! Maps made once for many lineups. A tuning plays every candidate of a
//! generation on the same campaigns (common random numbers), and so do the
//! ladder, the deviation check and the meta-game: campaign `i` of master
//! seed `m` has the same map for each of them, and making it was a tenth
//! of every such campaign. The cache hands each map out again.
//!
//! A map depends only on `setup::map_inputs` and the campaign seed, so the
//! key holds exactly those, and a map found is the map `make_map` would
//! make (a test below holds it): results do not depend on the cache, on
//! what it evicted, or on which thread filled it. A plain `run` plays each
//! campaign once and does not use it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::map::Map;
use crate::rules::setup::{SetupError, make_map, map_inputs};
use crate::scenario::Scenario;

/// Maps held at most: a few generations of a tuning's campaigns. A map of
/// the default island is about 3 KB, so the cache stays under 30 MB.
const CAPACITY: usize = 8192;

/// What names a scenario's maps: the text of its map inputs, worked out
/// once per lineup.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MapKey(Arc<str>);

impl MapKey {
    pub fn of(sc: &Scenario) -> MapKey {
        MapKey(format!("{:?}", map_inputs(sc)).into())
    }
}

type Cache = HashMap<(MapKey, u64), Arc<Map>>;

static CACHE: Mutex<Option<Cache>> = Mutex::new(None);

/// The map of campaign seed `campaign_seed` for a scenario whose key is
/// `key` (`MapKey::of(sc)`): the cached one, or one made now and kept.
/// When the cache is full it is emptied and starts again, which only costs
/// the maps being made again.
pub fn map(sc: &Scenario, key: &MapKey, campaign_seed: u64) -> Result<Arc<Map>, SetupError> {
    let k = (key.clone(), campaign_seed);
    if let Some(m) = lock().as_ref().and_then(|c| c.get(&k)) {
        return Ok(m.clone());
    }
    // Made outside the lock, so two threads never wait on each other's
    // map; if both make the same one, the maps are equal and either is kept.
    let m = Arc::new(make_map(sc, campaign_seed)?);
    let mut guard = lock();
    let cache = guard.get_or_insert_with(HashMap::new);
    if cache.len() >= CAPACITY {
        cache.clear();
    }
    cache.insert(k, m.clone());
    Ok(m)
}

/// The cache, whatever a thread that panicked while holding it left: every
/// entry in it is a whole map, so a poisoned lock holds nothing half made.
fn lock() -> std::sync::MutexGuard<'static, Option<Cache>> {
    CACHE.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{GenerateSpec, Scenario};

    #[test]
    fn a_cached_map_is_the_map_make_map_makes() {
        let sc = Scenario::embedded_default();
        let key = MapKey::of(&sc);
        for cs in [1u64, 2, 3, u64::MAX] {
            let fresh = make_map(&sc, cs).unwrap();
            assert_eq!(*map(&sc, &key, cs).unwrap(), fresh, "first, made");
            assert_eq!(*map(&sc, &key, cs).unwrap(), fresh, "second, found");
        }
    }

    #[test]
    fn scenarios_whose_map_inputs_differ_get_their_own_maps() {
        let sc = Scenario::embedded_default();
        let mut bigger = sc.clone();
        bigger.map.generate = Some(GenerateSpec { land: sc.map.generator().land + 12, ..sc.map.generator() });
        let mut rules_only = sc.clone();
        rules_only.economy.pillage.mult += 5;
        assert_ne!(MapKey::of(&sc), MapKey::of(&bigger));
        // A change the map does not read keeps the key: the maps are shared.
        assert_eq!(MapKey::of(&sc), MapKey::of(&rules_only));
        let (a, b) = (map(&sc, &MapKey::of(&sc), 7).unwrap(), map(&bigger, &MapKey::of(&bigger), 7).unwrap());
        assert_eq!(*b, make_map(&bigger, 7).unwrap());
        assert_ne!(a.land_count, b.land_count);
    }
}
