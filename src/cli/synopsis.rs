//! The synopsis of every command in docs/commands.md, generated from the
//! clap definitions, so it cannot miss a flag: a test holds that page's
//! `## Every command` block to `synopsis()` (run it with
//! `EMPIRES_WRITE_SYNOPSIS=1` to rewrite the block).

use clap::{ArgAction, CommandFactory};

const WIDTH: usize = 110;

/// One line (wrapped) per command: `empires NAME [--flag VALUE] ...`.
pub fn synopsis() -> String {
    leaves().into_iter().map(|(name, cmd)| line(&format!("empires {name}"), &cmd)).collect()
}

/// Every command a user can run, as typed after `empires` ("run",
/// "experiment restrict"), for tests that must cover each one.
pub fn commands() -> Vec<String> {
    leaves().into_iter().map(|(name, _)| name).collect()
}

fn leaves() -> Vec<(String, clap::Command)> {
    let cli = super::Cli::command();
    let mut out = Vec::new();
    for sub in cli.get_subcommands() {
        if sub.has_subcommands() {
            for leaf in sub.get_subcommands() {
                out.push((format!("{} {}", sub.get_name(), leaf.get_name()), leaf.clone()));
            }
        } else {
            out.push((sub.get_name().to_string(), sub.clone()));
        }
    }
    out
}

/// The value of a flag that names none: the short names the docs have
/// always used (FILE, DIR, N), the flag's own name otherwise.
fn placeholder(id: &str) -> String {
    match id {
        "scenario" => "FILE".into(),
        "out" => "DIR".into(),
        "seed" | "eval_seed" => "S".into(),
        "threads" => "T".into(),
        "sigma" | "factor" | "alpha" => "X".into(),
        _ if id.ends_with("campaigns")
            || id.starts_with("campaigns")
            || matches!(
                id,
                "generations"
                    | "budget"
                    | "trajectories"
                    | "steps"
                    | "bootstrap"
                    | "top"
                    | "jobs"
                    | "sobol_rows"
                    | "curve_points"
                    | "population"
            ) =>
        {
            "N".into()
        }
        _ => id.to_uppercase().replace('_', "-"),
    }
}

fn line(head: &str, cmd: &clap::Command) -> String {
    let mut words: Vec<String> = Vec::new();
    for a in cmd.get_arguments() {
        let id = a.get_id().as_str();
        if id == "help" || id == "version" || a.is_hide_set() {
            continue;
        }
        // clap's derive names a value after its field (SCENARIO); a name
        // given on purpose (KEY=VALUE) is kept.
        let value = a
            .get_value_names()
            .map(|v| v.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" "))
            .filter(|v| *v != id.to_uppercase())
            .unwrap_or_else(|| placeholder(id));
        let many = matches!(a.get_action(), ArgAction::Append) || a.get_num_args().is_some_and(|n| n.max_values() > 1);
        let word = match a.get_long() {
            None => {
                let v = if many { format!("{value}...") } else { value };
                if a.is_required_set() { v } else { format!("[{v}]") }
            }
            Some(long) => {
                let takes = a.get_action().takes_values();
                let body = if takes { format!("--{long} {value}") } else { format!("--{long}") };
                let body = if many { format!("{body} ...") } else { body };
                if a.is_required_set() { body } else { format!("[{body}]") }
            }
        };
        words.push(word);
    }
    let indent = " ".repeat(head.len() + 1);
    let mut s = head.to_string();
    let mut width = s.len();
    for w in words {
        if width + 1 + w.len() > WIDTH {
            s += "\n";
            s += &indent;
            s += &w;
            width = indent.len() + w.len();
        } else {
            s += " ";
            s += &w;
            width += 1 + w.len();
        }
    }
    s + "\n"
}
