//! G-31: a campaign depends only on the master seed and its index. Proved
//! here rather than with the other G defaults (`crates/core/tests/rules`)
//! because it plays whole campaigns with the scenario's strategies.

use empires::scenario::Scenario;

#[test]
fn g31_a_campaign_depends_only_on_master_seed_and_index() {
    use empires::sim::Campaign;
    let sc = Scenario::embedded_default();
    let a = Campaign::numbered(&sc, 42, 3).log(Vec::new()).play().expect("campaign runs");
    let log_a = &a.log;
    assert!(log_a.len() > 100, "a real campaign: {} events", log_a.len());
    // Another campaign in between, then the same one again on another thread.
    let c = Campaign::numbered(&sc, 42, 4).log(Vec::new()).play().expect("campaign runs");
    let log_c = &c.log;
    let sc2 = sc.clone();
    let (b, log_b) = std::thread::spawn(move || {
        let f = Campaign::numbered(&sc2, 42, 3).log(Vec::new()).play().expect("campaign runs");
        ((f.outcome, f.state, f.map.into_owned()), f.log)
    })
    .join()
    .expect("thread");
    assert_eq!(*log_a, log_b);
    assert_eq!((&a.outcome, &a.state, &*a.map), (&b.0, &b.1, &b.2));
    // A different index is a different campaign, on its own generated map.
    assert_ne!(log_a, log_c);
    assert_ne!(a.map, c.map);
}
