//! The README is a user guide: short, with the commands a designer needs
//! and no development diary; the findings, the history and the speed
//! figures live in docs/, and every link between the pages lands.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Dates (`2026-11-30`) and issue numbers (`issue 24`, `(issue`) in `text`,
/// as `line: text`.
fn diary(text: &str) -> Vec<String> {
    let mut hits = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let lower = line.to_lowercase();
        let issue = lower.contains("(issue")
            || lower.match_indices("issue ").any(|(i, _)| lower[i + 6..].starts_with(|c: char| c.is_ascii_digit()));
        let date = line.as_bytes().windows(8).any(|w| {
            w[..2] == *b"20"
                && w[2..4].iter().all(u8::is_ascii_digit)
                && w[4] == b'-'
                && w[5..7].iter().all(u8::is_ascii_digit)
                && w[7] == b'-'
        });
        if issue || date {
            hits.push(format!("{}: {line}", n + 1));
        }
    }
    hits
}

#[test]
fn the_readme_is_a_user_guide_of_at_most_300_lines() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 300, "the README has {lines} lines; at most 300");
    let hits = diary(&readme);
    assert!(hits.is_empty(), "the README names dates or issues:\n{}", hits.join("\n"));
    // The two commands for a fresh machine, and .ci/run runs the second.
    for cmd in ["cargo run --release -- run\n", "cargo test --release\n"] {
        assert!(readme.contains(&format!("```\n{cmd}```")), "the README shows {cmd:?} as a command");
    }
    assert!(read(".ci/run").contains("cargo test --release --locked\n"));
    // The three questions and the gate: each a command, then an output.
    for (heading, command) in [
        ("### 1. Is a mine worth more than a pillage", "empires experiment mine-vs-pillage"),
        ("### 2. Are the siege, naval, army and spy tables fair?", "empires tables"),
        ("### 3. Did a rule change shift the balance?", "empires compare"),
        ("### The CI gate", "empires check scenarios/balance.toml"),
    ] {
        let at = readme.find(heading).unwrap_or_else(|| panic!("{heading}"));
        let section = &readme[at..];
        let section = &section[..section[4..].find("\n### ").map_or(section.len(), |i| i + 4)];
        let blocks: Vec<&str> = section.split("```").skip(1).step_by(2).collect();
        assert!(blocks.len() >= 2, "{heading}: a command and an excerpt");
        assert!(blocks[0].trim().starts_with(command), "{heading}: {}", blocks[0]);
        assert!(blocks[1].lines().count() >= 3, "{heading}: an excerpt of the output");
        assert!(section.contains("How to read it"), "{heading}: one sentence on how to read it");
    }
    assert!(readme.contains("### Exit codes"));
}

/// The pages the README's diary moved to keep their figures without dates
/// or issue numbers; only docs/history.md has those.
#[test]
fn only_the_history_names_dates_and_issues() {
    for page in ["docs/findings.md", "docs/strength.md", "docs/performance.md", "docs/commands.md"] {
        let hits = diary(&read(page));
        assert!(hits.is_empty(), "{page} names dates or issues (they belong in docs/history.md):\n{}", hits.join("\n"));
    }
    assert!(!diary(&read("docs/history.md")).is_empty(), "the history keeps its dates");
}

/// GitHub's anchor of a heading: lower case, spaces to dashes, most
/// punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

/// Every relative link of the README and of docs/ names a file that exists
/// and, with `#anchor`, a heading of it.
#[test]
fn every_link_between_the_pages_lands() {
    let mut pages: Vec<PathBuf> = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    for e in std::fs::read_dir(root().join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            pages.push(p);
        }
    }
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let mut rest = text.as_str();
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = &rest[..end];
            if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
            let file = if file.is_empty() { page.clone() } else { page.parent().unwrap().join(file) };
            let name = page.strip_prefix(root()).unwrap().display();
            if !file.exists() {
                broken.push(format!("{name}: {target}: no such file"));
            } else if !anchor.is_empty() && file.extension().is_some_and(|x| x == "md") {
                let there = std::fs::read_to_string(&file).unwrap();
                if !anchors(&there).iter().any(|a| a == anchor) {
                    broken.push(format!("{name}: {target}: no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "links that do not land:\n{}", broken.join("\n"));
}
