//! Reading a scenario from TOML text, with every problem reported as
//! `FILE:LINE:COL: message`.
//!
//! Two passes over the same text: serde (through `toml`) gives the typed
//! `Scenario` and points syntax, type and unknown-key errors at their span;
//! `check.rs` then finds semantic problems, which it names by key path. The
//! key paths are turned back into positions with `toml_edit`, which keeps the
//! spans of the original document. That keeps position handling in this one
//! file and lets `check.rs` stay about rules.

use super::Scenario;
use super::check::{self, KeyPath, PathSeg};
use serde::Deserialize;
use std::fmt;

/// Where scenario text came from, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub name: String,
}

impl Source {
    pub fn file(path: impl Into<String>) -> Self {
        Source { name: path.into() }
    }
    pub fn embedded(name: &str) -> Self {
        Source { name: format!("<embedded {name}>") }
    }
}

/// One problem, located.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Line 0: the problem is in a command-line flag, not in a file.
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}:{}: {}", self.file, self.line, self.col, self.message)
        }
    }
}

/// Every problem found in a scenario, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub problems: Vec<Problem>,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ScenarioError {}

impl From<ScenarioError> for crate::error::Error {
    /// A scenario's problems are the user's input, each `file:line:col`.
    fn from(e: ScenarioError) -> Self {
        crate::error::Error::input(e.to_string())
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..text.floor_char_boundary(offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// Parse and check a scenario with no overrides.
pub fn load_str(text: &str, source: &Source) -> Result<Scenario, ScenarioError> {
    load_with_overrides(text, source, &[])
}

/// A `KEY=VALUE` given on the command line, with the flag that gave it, so
/// a problem with the value is reported against that flag (`--set` for an
/// override, `--vary` for a variant's value). The caller names the flag:
/// the library does not know the command line's spelling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flagged {
    pub flag: &'static str,
    pub key: String,
    pub value: String,
}

/// Split `KEY=VALUE`, given with `flag`, into the dotted key and the value.
pub fn parse_flagged(flag: &'static str, s: &str) -> Result<Flagged, crate::error::Error> {
    use crate::error::Error;
    let (k, v) = s.split_once('=').ok_or_else(|| Error::input(format!("{flag} {s}: expected KEY=VALUE")))?;
    let k = k.trim();
    if k.is_empty() || k.split('.').any(str::is_empty) {
        return Err(Error::input(format!("{flag} {s}: the key must be a dotted path such as economy.mine.river")));
    }
    Ok(Flagged { flag, key: k.to_string(), value: v.trim().to_string() })
}

/// A `--set` value as TOML: a number, boolean, array or quoted string as
/// written, anything else as a bare string (so `3D6x10` needs no quotes).
fn override_value(v: &str) -> toml::Value {
    match toml::from_str::<toml::Table>(&format!("v = {v}")) {
        Ok(mut t) => t.remove("v").unwrap_or_else(|| toml::Value::String(v.to_string())),
        Err(_) => toml::Value::String(v.to_string()),
    }
}

/// One step of a `--set` key: `players` or `players[2]` (1-based, as in
/// the messages of `check`).
fn key_step(part: &str) -> Result<(&str, Option<usize>), String> {
    let Some((name, rest)) = part.split_once('[') else { return Ok((part, None)) };
    let idx = rest
        .strip_suffix(']')
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n >= 1)
        .ok_or_else(|| format!("{part}: an index is written [N] with N from 1"))?;
    Ok((name, Some(idx - 1)))
}

/// Put `value` at the dotted `key` of `t`, creating tables on the way. A
/// step may index an array (`players[2].strategy`, `naval.table[1].loser_pv`):
/// one the file gives, or else the default's, copied into the file first, so
/// one row of a table the file leaves out changes that row of the default
/// table (a table of rows replaces the default whole).
fn set_path(t: &mut toml::Table, key: &str, value: toml::Value) -> Result<(), String> {
    let defaults = defaults_table();
    let mut def: Option<&toml::Table> = Some(&defaults);
    let mut parts: Vec<&str> = key.split('.').collect();
    let last = parts.pop().unwrap_or(key);
    let mut cur = t;
    for part in parts {
        let (name, idx) = key_step(part)?;
        let def_entry = def.and_then(|d| d.get(name));
        if idx.is_some() {
            given_or_default(cur, name, def_entry, part, key)?;
        }
        let entry = cur.entry(name.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        let (entry, def_entry) = match idx {
            None => (entry, def_entry),
            Some(i) => (index(entry, name, i)?, def_entry.and_then(|d| d.as_array()).and_then(|a| a.get(i))),
        };
        def = def_entry.and_then(|d| d.as_table());
        cur = match entry {
            toml::Value::Table(tt) => tt,
            _ => return Err(format!("{part} is not a table")),
        };
    }
    let (name, idx) = key_step(last)?;
    match idx {
        None => {
            cur.insert(name.to_string(), value);
        }
        Some(i) => {
            given_or_default(cur, name, def.and_then(|d| d.get(name)), last, key)?;
            let slot = cur.get_mut(name).ok_or_else(|| format!("{name} is not given, so {last} cannot be set"))?;
            *index(slot, name, i)? = value;
        }
    }
    Ok(())
}

/// Make sure the array `name` is in `cur` before `part` indexes it: the
/// file's, or a copy of the default's (`default`); with neither, say how
/// to give it.
fn given_or_default(
    cur: &mut toml::Table,
    name: &str,
    default: Option<&toml::Value>,
    part: &str,
    key: &str,
) -> Result<(), String> {
    if cur.contains_key(name) {
        return Ok(());
    }
    match default {
        Some(v @ toml::Value::Array(_)) => {
            cur.insert(name.to_string(), v.clone());
            Ok(())
        }
        _ => {
            let whole = &key[..key.find(part).unwrap_or(0) + name.len()];
            Err(format!(
                "{name} is not given in the file and has no default rows, so {part} cannot be set; \
                 give the whole array in the file or as {whole}=[...]"
            ))
        }
    }
}

/// Element `i` (0-based) of the array `v`, named `name` for messages.
fn index<'a>(v: &'a mut toml::Value, name: &str, i: usize) -> Result<&'a mut toml::Value, String> {
    match v {
        toml::Value::Array(a) => {
            let n = a.len();
            a.get_mut(i).ok_or_else(|| {
                format!("{name}[{}]: {name} has {n} entries (to change how many, give the whole {name})", i + 1)
            })
        }
        _ => Err(format!("{name} is not an array")),
    }
}

/// What [`load_with_overrides`] reports a problem with an override
/// against: a caller that has a flag for them names it with
/// [`load_flagged`].
pub const OVERRIDE: &str = "override";

/// Parse and check a scenario, with `--set KEY=VALUE` overrides applied on
/// top of the file. Overrides get the same checks as the file; their
/// problems are reported as `override KEY=VALUE: message`.
///
/// A key left out takes its default, and a table given in part keeps the
/// defaults of its other keys: the file is merged over the defaults before
/// it becomes a `Scenario`. Arrays (tables of rows, players, map rows)
/// replace the default whole.
pub fn load_with_overrides(
    text: &str,
    source: &Source,
    overrides: &[(String, String)],
) -> Result<Scenario, ScenarioError> {
    let flagged: Vec<Flagged> =
        overrides.iter().map(|(k, v)| Flagged { flag: OVERRIDE, key: k.clone(), value: v.clone() }).collect();
    load_flagged(text, source, &flagged)
}

/// [`load_with_overrides`] with values from several flags (`--set`, then
/// `--vary`), each problem reported against the flag that gave the value.
pub fn load_flagged(text: &str, source: &Source, overrides: &[Flagged]) -> Result<Scenario, ScenarioError> {
    let at = |e: toml::de::Error| {
        let (line, col) = e.span().map_or((1, 1), |s| line_col(text, s.start));
        let message = super::suggest::readable(&e.message().trim().replace('\n', " "));
        ScenarioError { problems: vec![Problem { file: source.name.clone(), line, col, message }] }
    };
    // First pass on the file alone: syntax, types and unknown keys, located.
    let _: Scenario = toml::from_str(text).map_err(at)?;
    let mut user: toml::Table = toml::from_str(text).map_err(at)?;
    let flag = |o: &Flagged, m: String| ScenarioError {
        problems: vec![Problem { file: format!("{} {}={}", o.flag, o.key, o.value), line: 0, col: 0, message: m }],
    };
    for o in overrides {
        set_path(&mut user, &o.key, override_value(&o.value)).map_err(|m| flag(o, m))?;
        // The file with the overrides so far must still be a scenario:
        // unknown keys and wrong types are reported against the flag.
        Scenario::deserialize(toml::Value::Table(user.clone()))
            .map_err(|e| flag(o, super::suggest::readable(&e.message().trim().replace('\n', " "))))?;
    }
    let scenario = merged(user).map_err(|m| ScenarioError {
        problems: vec![Problem { file: source.name.clone(), line: 1, col: 1, message: m }],
    })?;
    let found = check::check(&scenario);
    if found.is_empty() {
        return Ok(scenario);
    }
    let doc = toml_edit::Document::parse(text.to_string()).ok();
    let mut problems: Vec<Problem> = found
        .into_iter()
        .map(|(path, message)| {
            let key = path_string(&path);
            let message = format!("{key}: {message}");
            // A value that came from a flag is reported against the flag.
            if let Some(o) = overrides.iter().rev().find(|o| {
                let k = &o.key;
                key == *k
                    || key.starts_with(&format!("{k}."))
                    || key.starts_with(&format!("{k}["))
                    || k.starts_with(&format!("{key}."))
            }) {
                return Problem { file: format!("{} {}={}", o.flag, o.key, o.value), line: 0, col: 0, message };
            }
            let offset = doc.as_ref().map_or(0, |d| locate(d, text, &path));
            let (line, col) = line_col(text, offset);
            Problem { file: source.name.clone(), line, col, message }
        })
        .collect();
    problems.sort_by_key(|p| (p.line, p.col));
    Err(ScenarioError { problems })
}

/// The defaults as a TOML table, for merging.
fn defaults_table() -> toml::Table {
    match toml::Value::try_from(Scenario::default()) {
        Ok(toml::Value::Table(t)) => t,
        _ => toml::Table::new(),
    }
}

/// Deep-merge `over` into `base`: tables merge key by key, anything else
/// (numbers, strings, arrays) replaces.
pub fn merge(base: &mut toml::Table, over: toml::Table) {
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

/// The scenario from a user table merged over the defaults.
pub fn merged(mut user: toml::Table) -> Result<Scenario, String> {
    let mut t = defaults_table();
    let user_strategies = match user.remove("strategies") {
        Some(toml::Value::Table(s)) => s,
        _ => toml::Table::new(),
    };
    merge(&mut t, user);
    if let Some(toml::Value::Table(strategies)) = t.get_mut("strategies") {
        merge_strategies(strategies, user_strategies);
    }
    Scenario::deserialize(toml::Value::Table(t)).map_err(|e| e.to_string())
}

/// Merge the file's `[strategies.*]` over the archetypes. A table with
/// `extends = "BASE"` starts from BASE as finally resolved (an archetype, a
/// table of the file, or one that extends in turn), so chains work in any
/// order. A table without `extends` changes the archetype of its name key
/// by key. An unknown base or a cycle is left unresolved for `check` to
/// report with its position.
pub(crate) fn merge_strategies(all: &mut toml::Table, user: toml::Table) {
    let mut pending: Vec<(String, toml::Table)> = Vec::new();
    for (name, v) in user {
        match v {
            toml::Value::Table(tbl) if tbl.get("extends").is_some_and(|e| e.is_str()) => pending.push((name, tbl)),
            v => merge(all, toml::Table::from_iter([(name, v)])),
        }
    }
    loop {
        let before = pending.len();
        let waiting: Vec<String> = pending.iter().map(|(n, _)| n.clone()).collect();
        pending.retain(|(name, tbl)| {
            let base = tbl.get("extends").and_then(|e| e.as_str()).unwrap_or_default();
            if waiting.iter().any(|w| w == base) {
                return true;
            }
            let Some(toml::Value::Table(b)) = all.get(base) else { return true };
            let mut resolved = b.clone();
            merge(&mut resolved, tbl.clone());
            all.insert(name.clone(), toml::Value::Table(resolved));
            false
        });
        if pending.is_empty() || pending.len() == before {
            break;
        }
    }
    for (name, tbl) in pending {
        all.insert(name, toml::Value::Table(tbl));
    }
}

/// A dotted key path for messages: `army.losses[2].from`.
pub fn path_string(path: &KeyPath) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            PathSeg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            PathSeg::Index(i) => s.push_str(&format!("[{}]", i + 1)),
            PathSeg::Char(_) => {}
        }
    }
    if s.is_empty() { "scenario".into() } else { s }
}

/// Byte offset of the deepest part of `path` present in the document. A key
/// that is absent (its default applies) points at its nearest present parent.
fn locate(doc: &toml_edit::Document<String>, text: &str, path: &KeyPath) -> usize {
    let mut item = doc.as_item();
    let mut best = 0usize;
    for seg in path {
        let next = match seg {
            PathSeg::Key(k) => {
                if let Some(t) = item.as_table_like()
                    && let Some((key, _)) = t.get_key_value(k)
                    && let Some(s) = key.span()
                {
                    best = s.start;
                }
                item.get(k.as_str())
            }
            PathSeg::Index(i) => item.get(*i),
            PathSeg::Char(c) => {
                // A position inside a string value: skip the opening quote.
                if let Some(s) = item.span() {
                    let start = s.start + 1;
                    let inner = &text[start.min(text.len())..s.end.min(text.len())];
                    best = start + inner.char_indices().nth(*c).map_or(0, |(b, _)| b);
                }
                return best;
            }
        };
        match next {
            Some(n) => {
                if let Some(s) = n.span() {
                    best = s.start;
                }
                item = n;
            }
            None => return best,
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value's problem names the flag that gave it, whichever flag that
    /// was, and the later of two flags for one key is the one named.
    #[test]
    fn a_problem_is_reported_against_the_flag_that_gave_the_value() {
        let source = Source::embedded("default.toml");
        let text = super::super::DEFAULT_TOML;
        let f = |flag: &'static str, s: &str| parse_flagged(flag, s).unwrap();
        let problems = |o: &[Flagged]| load_flagged(text, &source, o).unwrap_err().problems;
        let p = problems(&[f("--set", "costs.capture=2"), f("--vary", "costs.capture=-1")]);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].file, "--vary costs.capture=-1");
        let p = problems(&[f("--set", "costs.capture=-1"), f("--vary", "economy.pillage=3D6x10")]);
        assert_eq!(p[0].file, "--set costs.capture=-1");
        let p = problems(&[f("--vary", "costs.capture=abc")]);
        assert_eq!(p[0].file, "--vary costs.capture=abc");
        assert!(p[0].message.contains("whole number"), "{}", p[0].message);
        assert_eq!(parse_flagged("--vary", "costs").unwrap_err().message(), "--vary costs: expected KEY=VALUE");
    }

    #[test]
    fn line_col_counts_characters() {
        let t = "a = 1\nbé = 2\n";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 6), (2, 1));
        assert_eq!(line_col(t, t.find('=').unwrap()), (1, 3));
        let second_eq = t.rfind('=').unwrap();
        assert_eq!(line_col(t, second_eq), (2, 4));
    }
}
