//! Several keys: damped Newton on the sample-average gaps, then the region
//! by test inversion on a grid of played points around the root.
//!
//! **The search.** The Jacobian comes from finite differences on the same
//! seeds, where a difference is the rules' doing only; a step that does not
//! shrink the gaps (in units of their standard errors) is halved up to six
//! times. Every point it stops at was played: the written value is the
//! point played with the smallest joint statistic, and a root is reported
//! only when each target holds within noise there. **The region.** A grid
//! of points around it, one delta-method standard error apart (one whole
//! value for a whole-number key), played on the same seeds and grown while
//! the region touches its edge; the region is where the joint test is not
//! rejected (`Region`). Its cost is the grid's, `7ᵏ` points and up for `k`
//! keys, which is why the command offers two.

use super::eval::{Eval, apply, chi2_95, inverse, matrix};
use super::region::{Interval, Region, each_point};
use super::root::{Domain, Grid, Located, NoRoot, NoRootKind, Played, Root, RootError};
use crate::error::Error;
use crate::stats::z;

/// Grid points each side of the solution to start with, and at most.
const GRID_START: isize = 3;
const GRID_MAX: isize = 6;

/// Newton's steps at most.
const STEPS: usize = 30;

/// The root of several keys' gaps (`find_root` with two keys or more).
pub(super) fn find<F: FnMut(&[f64]) -> Result<Eval, Error>>(played: &mut Played<'_, F>) -> Result<Root, RootError> {
    let z = z(0.95);
    let domains: Vec<Domain> = played.domains.to_vec();
    let keys = domains.len();
    let step = |i: usize| if domains[i].integer { 1.0 } else { (domains[i].hi - domains[i].lo) / 64.0 };
    let mut cur = played.at(&domains.iter().map(|d| (d.lo + d.hi) / 2.0).collect::<Vec<_>>())?;
    if cur.gap.len() != keys {
        return Err(RootError::Failed(Error::input(format!(
            "give as many targets as keys to vary ({} targets, {keys} keys)",
            cur.gap.len()
        ))));
    }
    let scale: Vec<f64> = cur.gap_se.iter().map(|s| s.max(1e-12)).collect();
    // The gaps in units of their standard errors at the search's start,
    // squared and summed: what a Newton step must shrink.
    let norm = |e: &Eval| e.gap.iter().zip(&scale).map(|(g, s)| (g / s).powi(2)).sum::<f64>();
    // The Jacobian at `at`, a row per target: one step up each key (down
    // at the top of its range).
    let jacobian = |at: &Eval, played: &mut Played<'_, F>| -> Result<Vec<Vec<f64>>, Error> {
        let mut j = vec![vec![0.0; keys]; keys];
        for k in 0..keys {
            let h = step(k);
            let mut x = at.x.clone();
            x[k] = if at.x[k] + h <= domains[k].hi { at.x[k] + h } else { at.x[k] - h };
            let e = played.at(&x)?;
            let dx = e.x[k] - at.x[k];
            for (t, row) in j.iter_mut().enumerate() {
                row[k] = if dx != 0.0 { (e.gap[t] - at.gap[t]) / dx } else { 0.0 };
            }
        }
        Ok(j)
    };
    let count = match keys {
        2 => "two".to_string(),
        3 => "three".to_string(),
        k => k.to_string(),
    };
    let mut j = jacobian(&cur, played)?;
    for _ in 0..STEPS {
        let ji = inverse(&j).ok_or_else(|| {
            Error::input(format!(
                "the {count} targets do not move independently with the {count} keys near the search's start (their Jacobian is singular): vary other keys, or solve one target at a time"
            ))
        })?;
        let delta: Vec<f64> = apply(&ji, &cur.gap).iter().map(|d| -d).collect();
        let small = (0..keys).all(|i| delta[i].abs() < if domains[i].integer { 0.5 } else { step(i) / 64.0 });
        if small {
            break;
        }
        let mut t = 1.0;
        let mut moved = false;
        for _ in 0..7 {
            let to: Vec<f64> = cur.x.iter().zip(&delta).map(|(x, d)| x + t * d).collect();
            let cand = played.at(&to)?;
            if norm(&cand) < norm(&cur) {
                cur = cand;
                moved = true;
                break;
            }
            t /= 2.0;
        }
        if !moved {
            break;
        }
        j = jacobian(&cur, played)?;
    }
    // Whole-number keys: the whole values around Newton's linear root
    // (every corner of its cell), each played, never an extrapolation left
    // unchecked.
    if domains.iter().any(|d| d.integer)
        && let Some(ji) = inverse(&j)
    {
        let lin: Vec<f64> = cur.x.iter().zip(apply(&ji, &cur.gap)).map(|(x, d)| x - d).collect();
        let mut corners = Vec::new();
        each_point(&vec![2; keys], |c| {
            corners
                .push(c.iter().zip(&lin).map(|(&s, v)| if s == 0 { v.floor() } else { v.ceil() }).collect::<Vec<_>>())
        });
        for corner in corners {
            let e = played.at(&corner)?;
            if e.chi2() < cur.chi2() {
                cur = e;
            }
        }
    }
    // The smallest joint statistic, then the smallest gaps.
    let key = |e: &Eval| (e.chi2(), e.gap.iter().zip(&scale).map(|(g, s)| g.abs() / s).sum::<f64>());
    let best =
        |evals: &[Eval]| -> Option<Eval> { evals.iter().reduce(|b, e| if key(e) < key(b) { e } else { b }).cloned() };
    let found = best(&played.evals).ok_or_else(|| Error::internal("the search played no point"))?;
    if !found.accepted(z) {
        let evals = played.sorted();
        let at_end = played.at_end(&found.x);
        let kind = NoRootKind::NotJointly;
        return Err(RootError::NoRoot(Box::new(NoRoot {
            kind,
            best: found,
            at_end,
            between: None,
            crossing: None,
            evals,
        })));
    }
    // The region: a grid around the solution, one delta-method standard
    // error of the root apart (`Cov = J⁻¹ Σ J⁻ᵀ`), grown while the region
    // touches an edge of the grid inside the range.
    let centre = found;
    let sd: Vec<f64> = match inverse(&j) {
        Some(ji) => {
            let c = &ji * matrix(&centre.cov) * ji.transpose();
            (0..keys).map(|k| c[(k, k)].max(0.0).sqrt()).collect()
        }
        None => vec![f64::NAN; keys],
    };
    let grid_step: Vec<f64> = (0..keys)
        .map(|k| {
            let span = domains[k].hi - domains[k].lo;
            let s = if sd[k].is_finite() && sd[k] > 0.0 { sd[k].min(span / 4.0) } else { span / 64.0 };
            if domains[k].integer { s.round().max(1.0) } else { s.max(span * 1e-9) }
        })
        .collect();
    let axis = |k: usize, [from, to]: [isize; 2]| -> Vec<f64> {
        let mut v: Vec<f64> = (from..=to)
            .map(|i| {
                let x = (centre.x[k] + i as f64 * grid_step[k]).clamp(domains[k].lo, domains[k].hi);
                if domains[k].integer { x.round() } else { x }
            })
            .collect();
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    };
    let mut ext = vec![[-GRID_START, GRID_START]; keys];
    let region = loop {
        let axes: Vec<Vec<f64>> = (0..keys).map(|k| axis(k, ext[k])).collect();
        let mut points = Vec::new();
        each_point(&axes.iter().map(Vec::len).collect::<Vec<_>>(), |i| {
            points.push(i.iter().zip(&axes).map(|(&i, a)| a[i]).collect::<Vec<f64>>())
        });
        let cells = points.iter().map(|p| played.at(p)).collect::<Result<Vec<_>, _>>()?;
        let region = Region { axes, cells, integer: domains.iter().map(|d| d.integer).collect() };
        let inside = region.points();
        let mut grown = false;
        for k in 0..keys {
            let axis = &region.axes[k];
            let (first, last) = (axis[0], axis[axis.len() - 1]);
            if first > domains[k].lo && ext[k][0] > -GRID_MAX && inside.iter().any(|p| p[k] == first) {
                ext[k][0] -= 1;
                grown = true;
            }
            if last < domains[k].hi && ext[k][1] < GRID_MAX && inside.iter().any(|p| p[k] == last) {
                ext[k][1] += 1;
                grown = true;
            }
        }
        if !grown {
            break region;
        }
    };
    let found = best(&played.evals).ok_or_else(|| Error::internal("the search played no point"))?;
    let interval = region.projections().map(|iv| {
        (0..keys)
            .map(|k| {
                let axis = &region.axes[k];
                let (first, last) = (axis[0], axis[axis.len() - 1]);
                let open = [iv[k].0 <= domains[k].lo, iv[k].1 >= domains[k].hi];
                let truncated = [!open[0] && iv[k].0 <= first, !open[1] && iv[k].1 >= last];
                Interval { lo: iv[k].0, hi: iv[k].1, open, truncated }
            })
            .collect()
    });
    Ok(Root {
        value: found.x.clone(),
        inside: found.chi2() <= chi2_95(keys),
        at_value: found,
        integer: domains.iter().map(|d| d.integer).collect(),
        interval,
        identified: true,
        located: Located::Grid(Grid { region, jacobian: j }),
        evals: played.sorted(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{
        Domain, Eval, Interval, Located, NoRoot, NoRootKind, Region, Root, RootError, confirm, find_root,
    };
    use crate::error::Error;
    use crate::seed::splitmix64;
    use crate::stats::z;

    /// Per-campaign gaps, each its own left side.
    fn eval(x: &[f64], gaps: Vec<Vec<f64>>, n: u64) -> Eval {
        let sides: Vec<(Vec<f64>, Vec<f64>)> = gaps.into_iter().map(|g| (g.clone(), g)).collect();
        Eval::from_sides(x.to_vec(), &sides, n)
    }

    /// Campaign `i`'s noise for target `k`: uniform, mean 0, the same at
    /// every point for one master seed (common random numbers).
    fn noise(master: u64, i: u64, k: u64) -> f64 {
        let u = (splitmix64(master ^ (i << 20) ^ (k << 40)) >> 11) as f64 / (1u64 << 53) as f64;
        (u - 0.5) * 0.4
    }

    /// Two targets over two keys with campaign noise common to every point
    /// (correlated between the targets): `g0 = a x0² + 2 x1 − 4a − 6`,
    /// `g1 = 3 x0 − x1 − 3 + noise`, root (2, 3) whatever `a` (0: linear).
    fn two(a: f64, master: u64, n: u64) -> impl FnMut(&[f64]) -> Result<Eval, Error> {
        move |x: &[f64]| -> Result<Eval, Error> {
            let noise = |i, k| noise(master, i, k);
            let g0: Vec<f64> =
                (0..n).map(|i| a * x[0] * x[0] + 2.0 * x[1] - 4.0 * a - 6.0 + x[0] - 2.0 + noise(i, 0)).collect();
            let g1: Vec<f64> = (0..n).map(|i| 3.0 * x[0] - x[1] - 3.0 + noise(i, 1) + 0.5 * noise(i, 0)).collect();
            Ok(eval(x, vec![g0, g1], n))
        }
    }

    /// Three targets linear in three keys, root (2, 3, 5): `g = A (x − r)`
    /// plus `scale` times campaign noise (correlated between targets).
    fn three(master: u64, n: u64, scale: f64) -> impl FnMut(&[f64]) -> Result<Eval, Error> {
        const A: [[f64; 3]; 3] = [[2.0, 1.0, 0.0], [-1.0, 3.0, 1.0], [0.0, 1.0, -2.0]];
        const R: [f64; 3] = [2.0, 3.0, 5.0];
        move |x: &[f64]| -> Result<Eval, Error> {
            let gaps = (0..3)
                .map(|t| {
                    (0..n)
                        .map(|i| {
                            let exact: f64 = (0..3).map(|k| A[t][k] * (x[k] - R[k])).sum();
                            exact + scale * (noise(master, i, t as u64) + 0.3 * noise(master, i, 3))
                        })
                        .collect()
                })
                .collect();
            Ok(eval(x, gaps, n))
        }
    }

    fn region(r: &Root) -> &Region {
        match &r.located {
            Located::Grid(g) => &g.region,
            Located::Bracket(_) => panic!("several keys are solved on a grid: {r:?}"),
        }
    }

    fn intervals(r: &Root) -> &[Interval] {
        r.interval.as_deref().expect("the region holds a point of the grid")
    }

    fn no_root(r: Result<Root, RootError>) -> NoRoot {
        match r {
            Err(RootError::NoRoot(n)) => *n,
            other => panic!("expected no root: {other:?}"),
        }
    }

    fn real(lo: f64, hi: f64) -> Domain {
        Domain { lo, hi, integer: false, max_steps: 12 }
    }

    fn whole(lo: f64, hi: f64) -> Domain {
        Domain { lo, hi, integer: true, max_steps: 12 }
    }

    /// Newton lands on the known root, the written value was played and
    /// meets both targets within noise, the region (test inversion on the
    /// grid) holds the root and the written value, its projections hold
    /// each key's root, and held-out seeds confirm it. Linear and mildly
    /// nonlinear.
    #[test]
    fn two_keys_two_targets_give_the_known_root() {
        let d = [real(0.0, 10.0); 2];
        for a in [0.0, 0.1] {
            let r = find_root(&d, two(a, 3, 400)).unwrap();
            let z = z(0.95);
            assert!(r.at_value.x == r.value && r.at_value.accepted(z) && r.inside, "{r:?}");
            assert!(r.evals.iter().any(|e| e.x == r.value), "played");
            let iv = intervals(&r);
            for (i, want) in [2.0, 3.0].into_iter().enumerate() {
                assert!((r.value[i] - want).abs() < 0.05, "{r:?}");
                assert!(iv[i].lo <= want && want <= iv[i].hi, "{iv:?}");
                assert!(iv[i].lo <= r.value[i] && r.value[i] <= iv[i].hi, "{iv:?}");
                assert!(iv[i].hi - iv[i].lo < 0.1, "the region is the noise's: {iv:?}");
                assert_eq!((iv[i].open, iv[i].truncated), ([false; 2], [false; 2]));
            }
            assert!(region(&r).contains(&[2.0, 3.0]) && region(&r).contains(&r.value));
            assert!(!region(&r).contains(&[2.2, 3.0]));
            assert!(r.evals.len() < 120, "{} evaluations", r.evals.len());
            let c = confirm(&r, two(a, 99, 400), 99).unwrap();
            assert!(c.met && c.widened && !c.vacuous, "{c:?}");
        }
        // Whole-number keys: the written value is the best whole point,
        // itself in the region.
        let r = find_root(&[whole(0.0, 10.0); 2], two(0.0, 3, 400)).unwrap();
        assert_eq!(r.value, [2.0, 3.0], "{r:?}");
        assert!(r.inside && region(&r).points().contains(&vec![2.0, 3.0]));
        let c = confirm(&r, two(0.0, 99, 400), 99).unwrap();
        assert!(c.met && !c.widened, "{c:?}");
    }

    /// Over 200 master seeds the region holds the true root about 95% of
    /// the time (the joint χ² test at its level), and the two projections
    /// together at least as often.
    #[test]
    fn the_two_key_region_covers_the_root_at_its_level() {
        let d = [real(0.0, 10.0); 2];
        let (mut covered, mut boxed, mut confirmed) = (0, 0, 0);
        for master in 0..200u64 {
            let r = find_root(&d, two(0.0, master, 200)).unwrap();
            covered += region(&r).contains(&[2.0, 3.0]) as u32;
            let iv = intervals(&r);
            boxed += (iv[0].lo <= 2.0 && 2.0 <= iv[0].hi && iv[1].lo <= 3.0 && 3.0 <= iv[1].hi) as u32;
            confirmed += confirm(&r, two(0.0, master + 1_000_000, 200), 0).unwrap().met as u32;
        }
        assert!((180..=198).contains(&covered), "covered {covered} of 200");
        assert!((covered..=200).contains(&boxed), "projections {boxed} of 200");
        assert!((180..=198).contains(&confirmed), "confirmed {confirmed} of 200");
    }

    /// Targets the range cannot meet: no root, with the best point played
    /// (at the ends of both ranges) and its gaps.
    #[test]
    fn two_keys_without_a_root_say_so() {
        let play = |x: &[f64]| -> Result<Eval, Error> {
            let g0: Vec<f64> = (0..50).map(|i| x[0] + x[1] + 100.0 + (i % 7) as f64 * 0.1).collect();
            let g1: Vec<f64> = (0..50).map(|i| x[0] - x[1] + (i % 5) as f64 * 0.1).collect();
            Ok(eval(x, vec![g0, g1], 50))
        };
        let n = no_root(find_root(&[real(0.0, 10.0); 2], play));
        assert_eq!(n.kind, NoRootKind::NotJointly);
        assert!(!n.best.accepted(z(0.95)) && n.best.gap[0] > 99.0, "{n:?}");
        assert_eq!(n.best.x, [0.0, 0.0], "{n:?}");
        assert_eq!(n.at_end, [[true, false], [true, false]]);
        assert_eq!((n.between, n.crossing), (None, None));
    }

    #[test]
    fn targets_that_move_together_are_refused() {
        let play = |x: &[f64]| -> Result<Eval, Error> {
            let g: Vec<f64> = (0..10).map(|i| x[0] + x[1] - 5.0 + i as f64 * 1e-3).collect();
            Ok(eval(x, vec![g.clone(), g], 10))
        };
        match find_root(&[real(0.0, 10.0); 2], play) {
            Err(RootError::Failed(m)) => {
                assert!(m.message().contains("the two targets") && m.message().contains("singular"), "{m}")
            }
            other => panic!("{other:?}"),
        }
    }

    /// Three whole-number keys and three noise-free linear targets: Newton
    /// and the corners of its cell land on the root exactly, and a region
    /// of gaps without noise is that point alone (every other point has a
    /// gap that is not 0 with no noise to excuse it).
    #[test]
    fn three_keys_without_noise_give_the_exact_root() {
        let d = [whole(0.0, 10.0), whole(0.0, 10.0), whole(0.0, 10.0)];
        let r = find_root(&d, three(1, 20, 0.0)).unwrap();
        assert_eq!(r.value, [2.0, 3.0, 5.0], "{r:?}");
        assert_eq!((r.at_value.gap.clone(), r.at_value.chi2()), (vec![0.0; 3], 0.0));
        assert!(r.inside && r.identified);
        assert_eq!(region(&r).points(), vec![vec![2.0, 3.0, 5.0]]);
        for (iv, want) in intervals(&r).iter().zip([2.0, 3.0, 5.0]) {
            assert_eq!((iv.lo, iv.hi, iv.open, iv.truncated), (want, want, [false; 2], [false; 2]));
        }
        // The grid is 7 whole values a key around the root, and the search
        // played little besides it.
        assert_eq!(
            region(&r).axes,
            vec![
                vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0],
                vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                vec![2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
            ]
        );
        assert!(r.evals.len() <= 6 * 7 * 7 + 12, "{} evaluations", r.evals.len());
        let c = confirm(&r, three(2, 20, 0.0), 2).unwrap();
        assert!(c.met && !c.widened && !c.vacuous && c.chi2 == 0.0, "{c:?}");
    }

    /// Three real keys with correlated noise: the written point is within
    /// the noise of the root (2, 3, 5), the region holds the root and the
    /// written point, each projection is narrow and holds its key's root,
    /// and the held-out check passes. The joint test uses χ² on 3 degrees
    /// of freedom (7.81).
    #[test]
    fn three_keys_with_noise_give_the_known_root_and_its_region() {
        let d = [real(0.0, 10.0); 3];
        let r = find_root(&d, three(5, 200, 1.0)).unwrap();
        assert!(r.at_value.x == r.value && r.at_value.accepted(z(0.95)) && r.inside, "{r:?}");
        let reg = region(&r);
        assert!(reg.contains(&[2.0, 3.0, 5.0]) && reg.contains(&r.value), "{r:?}");
        assert!(!reg.contains(&[2.3, 3.0, 5.0]));
        for ((iv, want), v) in intervals(&r).iter().zip([2.0, 3.0, 5.0]).zip(&r.value) {
            assert!((v - want).abs() < 0.05, "{r:?}");
            assert!(iv.lo <= want && want <= iv.hi && iv.lo <= *v && *v <= iv.hi, "{iv:?}");
            assert!(iv.hi - iv.lo < 0.2, "the region is the noise's: {iv:?}");
            assert_eq!((iv.open, iv.truncated), ([false; 2], [false; 2]));
        }
        let jacobian = match &r.located {
            Located::Grid(g) => g.jacobian.clone(),
            Located::Bracket(_) => unreachable!(),
        };
        let want = [[2.0, 1.0, 0.0], [-1.0, 3.0, 1.0], [0.0, 1.0, -2.0]];
        for (row, want) in jacobian.iter().zip(want) {
            for (j, w) in row.iter().zip(want) {
                assert!((j - w).abs() < 1e-9, "common random numbers: the finite differences are exact: {jacobian:?}");
            }
        }
        let c = confirm(&r, three(6, 200, 1.0), 6).unwrap();
        assert!(c.met && c.widened && !c.vacuous, "{c:?}");
    }

    /// As many targets as keys, or the system is not square.
    #[test]
    fn keys_and_targets_must_match() {
        let play = |x: &[f64]| -> Result<Eval, Error> { Ok(eval(x, vec![vec![x[0] - 1.0, x[0] - 1.1]], 2)) };
        match find_root(&[real(0.0, 10.0); 2], play) {
            Err(RootError::Failed(m)) => assert!(m.message().contains("as many targets as keys"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
