//! The repository stands alone: a user's clone has no sibling directories,
//! so no file may send its reader outside the project. The rules reading
//! lives in `docs/rules.md`.

use std::path::{Path, PathBuf};

/// Text files of the project: everything but build output, VCS data and
/// generated reports (which quote the scenario, not these pointers).
fn project_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !["target", ".git", "fonts"].contains(&name.as_str()) {
                project_files(&path, out);
            }
        } else if ["rs", "md", "toml", "sh", "sbatch", "yaml", "yml", "py", "html", "js", ""]
            .contains(&path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default().as_str())
        {
            out.push(path);
        }
    }
}

#[test]
fn nothing_in_the_repository_points_outside_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    project_files(root, &mut files);
    assert!(files.iter().any(|f| f.ends_with("docs/rules.md")), "the walk found the docs");
    // Spelled in pieces so that this file does not match itself.
    let needles = [format!("..{}shared", '/'), format!("RULES-{}", "READING")];
    let mut hits = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        for (n, line) in text.lines().enumerate() {
            if needles.iter().any(|needle| line.contains(needle.as_str())) {
                hits.push(format!("{}:{}: {}", f.strip_prefix(root).unwrap().display(), n + 1, line.trim()));
            }
        }
    }
    assert!(hits.is_empty(), "files that point outside the repository:\n{}", hits.join("\n"));
}

/// Every rule ID the tests are named after has its row in `docs/rules.md`,
/// so the rules reading and the tests cannot drift apart.
#[test]
fn every_rule_id_tested_is_written_in_the_rules_reading() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = std::fs::read_to_string(root.join("docs/rules.md")).unwrap();
    let mut missing = Vec::new();
    let mut seen = 0;
    let files = [
        "crates/core/tests/rules/rules_e.rs",
        "crates/core/tests/rules/rules_w/army.rs",
        "crates/core/tests/rules/rules_w/siege.rs",
        "crates/core/tests/rules/rules_w/naval.rs",
        "crates/core/tests/rules/rules_w/spy.rs",
        "crates/core/tests/rules/defaults/season.rs",
        "crates/core/tests/rules/defaults/combat.rs",
        "crates/core/tests/rules/defaults/empire.rs",
        "tests/it/seeds.rs",
    ];
    for file in files {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        for line in text.lines() {
            let Some(rest) = line.trim().strip_prefix("fn ") else { continue };
            // `fn g17_g18_cities_...`: each leading `[ewg]NN_` is an ID.
            for part in rest.split('_') {
                let mut chars = part.chars();
                let (Some(letter @ ('e' | 'w' | 'g')), digits) = (chars.next(), chars.as_str()) else { break };
                if digits.len() != 2 || !digits.chars().all(|c| c.is_ascii_digit()) {
                    break;
                }
                seen += 1;
                let id = format!("| {}-{digits} |", letter.to_ascii_uppercase());
                if !rules.contains(&id) {
                    missing.push(format!("{file}: {rest}"));
                }
            }
        }
    }
    assert!(seen > 60, "found only {seen} rule-named tests");
    assert!(missing.is_empty(), "tests named after IDs docs/rules.md does not hold:\n{}", missing.join("\n"));
}
