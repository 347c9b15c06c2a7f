//! Which shard of a run this process plays: `--shard I/K`, else a Slurm
//! job array task, else a Kubernetes Indexed Job's completion index with
//! `--shards K`. Shared by `run` and `metagame`.

use super::CliError;
use clap::Args;

/// `--shard I/K` and `--shards K`.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct ShardArgs {
    /// Run only shard I of K (0-based), e.g. 2/8. Without it, a Slurm job
    /// array (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT) or a Kubernetes
    /// Indexed Job (JOB_COMPLETION_INDEX with --shards K) picks the shard.
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// The number of shards of a Kubernetes Indexed Job (JOB_COMPLETION_INDEX
    /// gives this task's index).
    #[arg(long, value_name = "K")]
    pub shards: Option<u64>,
}

impl ShardArgs {
    /// The shard to play, from the flags or the process environment.
    pub fn resolve(&self) -> Result<Option<(u64, u64)>, CliError> {
        shard_of(self.shard, self.shards, |k| std::env::var(k).ok())
    }
}

/// The shard of a command whose shards share one output folder (`psro`,
/// `tune`, `styles`: `Long::start_shard`), said on standard output.
pub fn said(args: ShardArgs, out: &std::path::Path) -> Result<Option<(u64, u64)>, CliError> {
    let shard = args.resolve()?;
    if let Some((i, k)) = shard {
        sayln!(
            "shard {i} of {k}: plays its share of the pieces and reads the other shards' from {} (every shard runs \
             this command with the same flags and --out)",
            out.join(super::cells::DIR).display()
        );
    }
    Ok(shard)
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (i, k) = s.split_once('/').ok_or_else(|| format!("expected I/K such as 0/4, got {s:?}"))?;
    let i: u64 = i.trim().parse().map_err(|_| format!("shard index {i:?} is not a whole number"))?;
    let k: u64 = k.trim().parse().map_err(|_| format!("shard count {k:?} is not a whole number"))?;
    if k == 0 || i >= k {
        return Err(format!("shard {i}/{k}: need 0 <= I < K"));
    }
    Ok((i, k))
}

/// The shard from `--shard`, `--shards` and `env` (a parameter so that
/// tests can give an environment).
pub fn shard_of(
    shard: Option<(u64, u64)>,
    shards: Option<u64>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Option<(u64, u64)>, CliError> {
    if let Some(s) = shard {
        if shards.is_some() {
            return Err(CliError::input("give --shard I/K or --shards K, not both"));
        }
        return Ok(Some(s));
    }
    let num = |k: &str| -> Result<Option<u64>, CliError> {
        match env(k) {
            None => Ok(None),
            Some(v) => v
                .trim()
                .parse::<u64>()
                .map(Some)
                .map_err(|_| CliError::input(format!("{k}={v:?} is not a whole number"))),
        }
    };
    if let Some(k) = shards {
        let i = num("JOB_COMPLETION_INDEX")?.ok_or_else(|| {
            CliError::input("--shards K takes the shard index from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), which is not set; use --shard I/K")
        })?;
        if k == 0 || i >= k {
            return Err(CliError::input(format!("JOB_COMPLETION_INDEX={i} with --shards {k}: need 0 <= index < K")));
        }
        return Ok(Some((i, k)));
    }
    if let (Some(id), Some(count)) = (num("SLURM_ARRAY_TASK_ID")?, num("SLURM_ARRAY_TASK_COUNT")?) {
        // Array ids need not start at 0 (`--array=1-4`).
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let i = id
            .checked_sub(min)
            .ok_or_else(|| CliError::input(format!("SLURM_ARRAY_TASK_ID={id} is below SLURM_ARRAY_TASK_MIN={min}")))?;
        if count == 0 || i >= count {
            return Err(CliError::input(format!(
                "Slurm array task {id} (from {min}) of {count}: the array's ids must be consecutive"
            )));
        }
        return Ok(Some((i, count)));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    }

    #[test]
    fn the_flag_then_slurm_then_kubernetes() {
        assert_eq!(shard_of(Some((1, 4)), None, env(&[("SLURM_ARRAY_TASK_ID", "3")])).unwrap(), Some((1, 4)));
        let slurm = [("SLURM_ARRAY_TASK_ID", "7"), ("SLURM_ARRAY_TASK_COUNT", "4"), ("SLURM_ARRAY_TASK_MIN", "5")];
        assert_eq!(shard_of(None, None, env(&slurm)).unwrap(), Some((2, 4)), "ids need not start at 0");
        assert_eq!(shard_of(None, Some(8), env(&[("JOB_COMPLETION_INDEX", "6")])).unwrap(), Some((6, 8)));
        assert_eq!(shard_of(None, None, env(&[])).unwrap(), None);
    }

    #[test]
    fn impossible_shards_are_bad_input() {
        let bad = |r: Result<Option<(u64, u64)>, CliError>| r.unwrap_err().code;
        assert_eq!(bad(shard_of(Some((0, 2)), Some(2), env(&[]))), super::super::exit::BAD_INPUT);
        assert_eq!(bad(shard_of(None, Some(4), env(&[]))), super::super::exit::BAD_INPUT, "no index set");
        assert_eq!(bad(shard_of(None, Some(4), env(&[("JOB_COMPLETION_INDEX", "4")]))), super::super::exit::BAD_INPUT);
        let gap = [("SLURM_ARRAY_TASK_ID", "9"), ("SLURM_ARRAY_TASK_COUNT", "4")];
        assert_eq!(bad(shard_of(None, None, env(&gap))), super::super::exit::BAD_INPUT);
        assert!(parse_shard("3/3").is_err() && parse_shard("x/3").is_err() && parse_shard("2/3") == Ok((2, 3)));
    }
}
