//! Tests of the command line's contracts that no one command can hold:
//! one grammar per flag name, and flag names only in the command line.
//!
//! Both walk clap's own list of every command's arguments
//! (`Cli::command()`, every subcommand down), so a flag added anywhere is
//! checked without anyone listing it here.

use super::Cli;
use clap::CommandFactory;
use std::collections::BTreeMap;

/// Every declaration of a long flag: the command's path and the argument.
fn declarations() -> BTreeMap<String, Vec<(String, clap::Arg)>> {
    fn walk(c: &clap::Command, path: &str, out: &mut BTreeMap<String, Vec<(String, clap::Arg)>>) {
        for a in c.get_arguments() {
            if let Some(long) = a.get_long() {
                out.entry(long.to_string()).or_default().push((path.to_string(), a.clone()));
            }
        }
        for s in c.get_subcommands() {
            walk(s, format!("{path} {}", s.get_name()).trim(), out);
        }
    }
    let mut root = Cli::command();
    // Built, so each argument knows how many values it takes.
    root.build();
    let mut out = BTreeMap::new();
    walk(&root, "", &mut out);
    out
}

/// What a flag takes, as clap parses it: its value names, the type its
/// parser makes, how many values, the values it allows, and whether it
/// takes a value or is a switch (whether a command lets it repeat is that
/// command's business).
fn grammar(a: &clap::Arg) -> String {
    let names: Vec<String> = a.get_value_names().unwrap_or_default().iter().map(|n| n.to_string()).collect();
    let fixed: Vec<String> = a.get_possible_values().iter().map(|v| v.get_name().to_string()).collect();
    let action = match a.get_action() {
        clap::ArgAction::Append => "Set".to_string(),
        other => format!("{other:?}"),
    };
    format!("{names:?} {:?} {:?} {fixed:?} {action}", a.get_value_parser().type_id(), a.get_num_args())
}

/// The first paragraph of a flag's help: what it means.
fn summary(a: &clap::Arg) -> String {
    a.get_help().map(|h| h.to_string()).unwrap_or_default()
}

/// Flags whose one grammar and meaning is a count or a choice *of the
/// command's own work*, so each command's help says what it is of
/// ("Campaigns per pair", "Campaigns per composition"): the grammar is
/// still held equal. Any other name repeated must say the same thing
/// everywhere; an entry here that no longer needs to be is an error too.
const SAID_PER_COMMAND: &[&str] = &[
    "against",
    "budget",
    "campaigns",
    "campaigns-per-eval",
    "eval-campaigns",
    "generations",
    "install",
    "keys",
    "objective",
    "out",
    "population",
    "regime",
    "restarts",
    "select-campaigns",
    "sigma",
    "starts",
    "strategies",
    "strategy",
    "strict",
];

/// One long flag name is one grammar, in every command that takes it: a
/// designer who learned `--range` on one command can write it on the next.
/// Where two commands need different grammars (or meanings), the flags
/// have different names.
#[test]
fn one_flag_name_has_one_grammar_and_one_meaning() {
    let mut problems = Vec::new();
    let mut all = declarations();
    // clap's own, the same everywhere but for a hint of a longer help.
    all.retain(|long, _| !["help", "version"].contains(&long.as_str()));
    for (long, decls) in &all {
        let (first_path, first) = &decls[0];
        for (path, a) in &decls[1..] {
            if grammar(a) != grammar(first) {
                problems.push(format!(
                    "--{long}: `{first_path}` takes {}, `{path}` takes {}",
                    grammar(first),
                    grammar(a)
                ));
            }
        }
        let said_apart = decls.iter().any(|(_, a)| summary(a) != summary(first));
        let listed = SAID_PER_COMMAND.contains(&long.as_str());
        if said_apart && !listed {
            let helps: Vec<String> = decls.iter().map(|(p, a)| format!("  `{p}`: {}", summary(a))).collect();
            problems.push(format!("--{long} means different things:\n{}", helps.join("\n")));
        }
        if listed && !said_apart {
            problems.push(format!("--{long} says one thing everywhere: take it out of SAID_PER_COMMAND"));
        }
    }
    for long in SAID_PER_COMMAND {
        if !all.contains_key(*long) {
            problems.push(format!("--{long} is no flag: take it out of SAID_PER_COMMAND"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(all.len() > 100, "{} flag names", all.len());
}

/// `text` with its comments blanked and each `#[cfg(test)]` item left
/// out: the code and the string literals a build of the library holds.
fn shipped_code(text: &str) -> String {
    let b = text.as_bytes();
    let mut code = String::with_capacity(text.len());
    // The byte offsets in `code` of the code (not string) braces, to skip
    // a test module by its matching brace.
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
        } else if rest.starts_with("#[cfg(test)]") {
            i += skip_item(&text[i + "#[cfg(test)]".len()..]) + "#[cfg(test)]".len();
        } else if rest.starts_with("r#\"") || rest.starts_with("r\"") {
            let hashes = rest[1..].find('"').unwrap_or(0);
            let close = format!("\"{}", "#".repeat(hashes));
            let end = rest[2 + hashes..].find(&close).map_or(rest.len(), |e| 2 + hashes + e + close.len());
            code += &rest[..end];
            i += end;
        } else if rest.starts_with('"') {
            let mut j = 1;
            while j < rest.len() && b[i + j] != b'"' {
                j += if b[i + j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(rest.len());
            code += &rest[..end];
            i += end;
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            code.push(c);
            i += c.len_utf8();
        }
    }
    code
}

/// How many bytes of `text` the next item takes: to its `;`, or to the
/// brace that closes its body (braces in strings and char literals and
/// comments are not counted).
fn skip_item(text: &str) -> usize {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
            continue;
        }
        if rest.starts_with('"') {
            let mut j = 1;
            while j < rest.len() && b[i + j] != b'"' {
                j += if b[i + j] == b'\\' { 2 } else { 1 };
            }
            i += j + 1;
            continue;
        }
        if rest.starts_with("'{'") || rest.starts_with("'}'") {
            i += 3;
            continue;
        }
        match b[i] {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            b';' if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    text.len()
}

/// Whether `code` writes `--NAME` as a whole flag (not `--NAME-more`, nor
/// the tail of `--other-NAME`).
fn names_flag(code: &str, long: &str) -> bool {
    let flag = format!("--{long}");
    let part = |c: u8| c.is_ascii_alphanumeric() || c == b'-' || c == b'_';
    code.match_indices(&flag).any(|(at, _)| {
        let before = at.checked_sub(1).map(|i| code.as_bytes()[i]);
        let after = code.as_bytes().get(at + flag.len()).copied();
        !before.is_some_and(part) && !after.is_some_and(part)
    })
}

/// Every `.rs` file under `dir`.
fn sources(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The library (`crates/core`, `crates/sim`) does not know how the command
/// line spells its inputs: an error names the input that was wrong
/// (`error::Input`) and the command line words it with its flag
/// (`cli::input_flag`); a command line for the designer to run again is
/// written in `src/`. So a renamed flag is renamed in `src/cli` alone,
/// and the library serves any front end. Comments and tests may name flags.
#[test]
fn no_flag_name_is_written_in_the_library() {
    let longs: Vec<String> =
        declarations().into_keys().filter(|l| !["help", "version"].contains(&l.as_str())).collect();
    let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut files = Vec::new();
    for c in std::fs::read_dir(&crates).expect("crates/").flatten() {
        let src = c.path().join("src");
        if src.is_dir() {
            sources(&src, &mut files);
        }
    }
    assert!(files.len() > 50, "{} files", files.len());
    let mut problems = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a source file");
        let code = shipped_code(&text);
        for long in &longs {
            if names_flag(&code, long) {
                problems.push(format!("{}: --{long}", f.strip_prefix(&crates).unwrap_or(f).display()));
            }
        }
    }
    assert!(problems.is_empty(), "flag names in the library:\n{}", problems.join("\n"));
}

/// The scan itself: comments and test modules are left out, strings are
/// kept, and a flag is matched whole.
#[test]
fn the_scan_sees_strings_and_skips_comments_and_tests() {
    let text = "fn a() { f(\"--seed\"); } // --players\n/* --set */\n#[cfg(test)]\nmod tests {\n fn b() { g(\"--out\", '{'); }\n}\nfn c() {}\n";
    let code = shipped_code(text);
    assert!(names_flag(&code, "seed"));
    assert!(!names_flag(&code, "players"));
    assert!(!names_flag(&code, "set"));
    assert!(!names_flag(&code, "out"));
    assert!(code.contains("fn c()"), "{code}");
    assert!(!names_flag("--eval-seed --seeds", "seed"));
}
