//! A strategy as a `[strategies.NAME]` table in a scenario file, and that
//! file edited in place (a table put in or taken out, the rest of its
//! layout and comments kept): what `tune`, `psro` and the studies' best
//! responses hand the designer to read, probe or replay.

use crate::error::Error;
use std::fmt::Write;

/// A whole strategy as a `[strategies.NAME]` table, every key spelled out
/// (a best response's player, so the designer can read, probe or replay
/// it): the text to append to a scenario file, `header` as comments above.
pub fn spec_toml(spec: &crate::scenario::StrategySpec, name: &str, header: &[String]) -> Result<String, Error> {
    let mut out = String::new();
    for line in header {
        let _ = writeln!(out, "# {line}");
    }
    let mut one = toml::Table::new();
    one.insert(name.to_string(), toml::Value::try_from(spec).map_err(|e| Error::internal(format!("{e}")))?);
    let mut top = toml::Table::new();
    top.insert("strategies".into(), toml::Value::Table(one));
    out += &toml::to_string(&top).map_err(|e| Error::internal(format!("{e}")))?;
    Ok(out)
}

/// `file_text` (a scenario file) with the `[strategies.NAME]` table of
/// `strategy_toml` (as `strategy_toml` writes it, its comments kept) put
/// in, replacing a table of that name: the new text, and whether one was
/// replaced. The rest of the file keeps its layout and comments: a
/// replaced table takes the old one's place, a new one goes at the end.
/// (A table keeps the place it had in the text it came from, which put a
/// population's first member between a file's first two `[[players]]`.)
pub fn install(file_text: &str, strategy_toml: &str, name: &str) -> Result<(String, bool), Error> {
    let mut doc: toml_edit::DocumentMut = file_text.parse().map_err(|e| Error::input(format!("{e}")))?;
    let new: toml_edit::DocumentMut =
        strategy_toml.parse().map_err(|e| Error::internal(format!("the tuned table: {e}")))?;
    let mut table = new
        .get("strategies")
        .and_then(|s| s.get(name))
        .cloned()
        .ok_or_else(|| Error::input(format!("the tuned table has no [strategies.{name}]")))?;
    let old_place = doc.get("strategies").and_then(|s| s.get(name)).and_then(|t| t.as_table()).map(|t| t.position());
    let place = match old_place {
        Some(p) => p,
        None => Some(last_position(doc.as_table()).map_or(0, |p| p + 1)),
    };
    if let Some(t) = table.as_table_mut() {
        t.set_position(place);
    }
    let strategies = doc.entry("strategies").or_insert_with(|| {
        let mut t = toml_edit::Table::new();
        t.set_implicit(true);
        toml_edit::Item::Table(t)
    });
    let strategies =
        strategies.as_table_mut().ok_or_else(|| Error::input("`strategies` in the file is not a table"))?;
    let replaced = strategies.insert(name, table).is_some();
    Ok((doc.to_string(), replaced))
}

/// The members the file's `[strategies.MIXTURE]` mixture lists now, in
/// order (empty when it has none): what a new install may leave behind.
pub fn mixture_members(file_text: &str, mixture: &str) -> Vec<String> {
    let Ok(doc) = file_text.parse::<toml_edit::DocumentMut>() else { return Vec::new() };
    doc.get("strategies")
        .and_then(|s| s.get(mixture))
        .and_then(|t| t.get("members"))
        .and_then(|m| m.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
        .unwrap_or_default()
}

/// `file_text` without its `[strategies.NAME]` table (and the comment
/// above it), or `None` when it has no such table.
pub fn uninstall(file_text: &str, name: &str) -> Result<Option<String>, Error> {
    let mut doc: toml_edit::DocumentMut = file_text.parse().map_err(|e| Error::input(format!("{e}")))?;
    let removed = doc.get_mut("strategies").and_then(|s| s.as_table_mut()).and_then(|s| s.remove(name));
    Ok(removed.map(|_| doc.to_string()))
}

/// The last document position of any table in `t`, nested ones and
/// arrays of tables included.
fn last_position(t: &toml_edit::Table) -> Option<isize> {
    let mut last = t.position();
    for (_, item) in t.iter() {
        let p = match item {
            toml_edit::Item::Table(sub) => last_position(sub),
            toml_edit::Item::ArrayOfTables(a) => a.iter().filter_map(last_position).max(),
            _ => None,
        };
        last = last.max(p);
    }
    last
}

#[cfg(test)]
mod tests {
    use super::install;

    const FILE: &str = "name = \"x\"\n\n[[players]]\nname = \"A\"\n\n[[players]]\nname = \"B\"\n\n[map]\nrows = []\n\n\
                        # old comment\n[strategies.eq]\nkind = \"weighted\"\n\n[campaign]\nseasons = 3\n";
    const NEW: &str = "# header\n# of the file\n\n# round 1\n[strategies.psro_1]\nattack = 1.0\n\n# the mixture\n\
                       [strategies.eq]\nkind = \"mixture\"\nmembers = [\"psro_1\"]\n";

    /// A new table goes at the end of the file and a replaced one takes
    /// the old one's place, whatever place each had in the text it came
    /// from; every other table stays where it was.
    #[test]
    fn install_appends_new_tables_and_replaces_in_place() {
        let (text, replaced) = install(FILE, NEW, "psro_1").unwrap();
        assert!(!replaced);
        let order = |t: &str| t.lines().filter(|l| l.starts_with('[')).map(String::from).collect::<Vec<_>>();
        assert_eq!(
            order(&text),
            ["[[players]]", "[[players]]", "[map]", "[strategies.eq]", "[campaign]", "[strategies.psro_1]"]
        );
        let (text, replaced) = install(&text, NEW, "eq").unwrap();
        assert!(replaced);
        assert_eq!(
            order(&text),
            ["[[players]]", "[[players]]", "[map]", "[strategies.eq]", "[campaign]", "[strategies.psro_1]"]
        );
        assert!(text.contains("# the mixture\n[strategies.eq]\nkind = \"mixture\""), "{text}");
        assert!(!text.contains("old comment"), "{text}");
    }

    /// Removing a table takes its comment with it and leaves the rest;
    /// the mixture's members are read in order.
    #[test]
    fn uninstall_removes_a_table_and_its_comment() {
        let (text, _) = install(FILE, NEW, "psro_1").unwrap();
        let (text, _) = install(&text, NEW, "eq").unwrap();
        assert_eq!(super::mixture_members(&text, "eq"), ["psro_1"]);
        assert!(super::mixture_members(FILE, "eq").is_empty());
        let out = super::uninstall(&text, "psro_1").unwrap().expect("the table is there");
        assert!(!out.contains("[strategies.psro_1]") && !out.contains("# round 1"), "{out}");
        assert!(out.contains("[strategies.eq]") && out.contains("[campaign]"), "{out}");
        assert_eq!(super::uninstall(&out, "psro_1").unwrap(), None);
    }
}
