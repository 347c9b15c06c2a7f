//! G-31: a campaign depends only on the master seed and its index. Proved
//! here rather than with the other G defaults (`crates/core/tests/rules`)
//! because it plays whole campaigns with the scenario's strategies.

use empires::scenario::Scenario;

#[test]
fn g31_a_campaign_depends_only_on_master_seed_and_index() {
    use empires::sim::play_campaign;
    let sc = Scenario::embedded_default();
    let mut log_a = Vec::new();
    let a = play_campaign(&sc, 42, 3, &mut log_a).expect("campaign runs");
    assert!(log_a.len() > 100, "a real campaign: {} events", log_a.len());
    // Another campaign in between, then the same one again on another thread.
    let mut log_c = Vec::new();
    let c = play_campaign(&sc, 42, 4, &mut log_c).expect("campaign runs");
    let sc2 = sc.clone();
    let (b, log_b) = std::thread::spawn(move || {
        let mut log = Vec::new();
        let f = play_campaign(&sc2, 42, 3, &mut log).expect("campaign runs");
        (f, log)
    })
    .join()
    .expect("thread");
    assert_eq!(log_a, log_b);
    assert_eq!((&a.outcome, &a.state, &a.map), (&b.outcome, &b.state, &b.map));
    // A different index is a different campaign, on its own generated map.
    assert_ne!(log_a, log_c);
    assert_ne!(a.map, c.map);
}
