//! The process exit codes, written once: `empires --help` prints this
//! table, and a test holds the README's copy to it. Scripts and CI jobs
//! tell a failed balance check (1) from a typo (2) and a full disk (3).

/// Everything asked for was done.
pub const SUCCESS: i32 = 0;
/// A verdict: a check did its job and found a problem.
pub const VERDICT: i32 = 1;
/// Bad input: clap's own code for a usage error, kept for every input.
pub const BAD_INPUT: i32 = 2;
/// An output could not be written, or the program failed (a bug).
pub const IO_OR_INTERNAL: i32 = 3;
/// Stopped by Ctrl-C: the shell's convention, 128 + SIGINT.
pub const INTERRUPTED: i32 = 130;

/// Each code with what it means, for `--help` and the README.
pub const CODES: &[(i32, &str)] = &[
    (SUCCESS, "success"),
    (
        VERDICT,
        "a verdict: `check` found a metric outside its bounds, `tables --against-run` found played combats that disagree with the exact tables, `deviate --strict` found a deviant that beats the strategy, or `solve` found no root (or its written value misses the target on held-out seeds)",
    ),
    (
        BAD_INPUT,
        "bad input: a flag, a scenario (reported as file:line:col) or an input directory is wrong; nothing was run",
    ),
    (
        IO_OR_INTERNAL,
        "an IO or internal error: an output could not be written (a full disk, a read-only directory), or the program failed (a broken rules invariant, a panic: a bug to report)",
    ),
    (INTERRUPTED, "interrupted by Ctrl-C; what finished is kept, and `--resume` continues"),
];

/// The table as `--help` shows it.
pub fn help() -> String {
    let mut s = String::from("Exit codes:\n");
    for (code, meaning) in CODES {
        s.push_str(&format!("  {code:>3}  {meaning}\n"));
    }
    s
}
