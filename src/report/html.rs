//! Self-contained HTML pages: `index.html` next to its charts (SVG shown,
//! PNG linked), with tables and provenance. No external scripts, styles or
//! fonts. A small inline script checks that every image loaded and records
//! the result on `<body data-images="...">`, and whatever sticks out of
//! the page on `data-overflow`, which the browser test reads. Every page
//! opens with its answer (`Page::answer`).

use super::charts::{self, Chart};
use super::files::write_file;
use crate::error::Error;
use std::fmt::Write;
use std::path::Path;

/// HTML-escape text.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A page being built; charts are written as they are added.
pub struct Page {
    title: String,
    answer: Option<String>,
    body: String,
    charts: Vec<String>,
}

impl Page {
    pub fn new(title: &str) -> Self {
        Page { title: title.to_string(), answer: None, body: String::new(), charts: Vec::new() }
    }

    /// The page's answer in a sentence or two, computed from its data:
    /// shown first, under the title. Every page has one (`finish` refuses
    /// a page without), so a designer can read the finding before the
    /// evidence.
    pub fn answer(&mut self, text: &str) {
        self.answer = Some(text.to_string());
    }

    pub fn h2(&mut self, text: &str) {
        let _ = writeln!(self.body, "<h2>{}</h2>", esc(text));
    }

    /// A paragraph of plain text.
    pub fn p(&mut self, text: &str) {
        let _ = writeln!(self.body, "<p>{}</p>", esc(text));
    }

    /// Preformatted text (a summary, a command).
    pub fn pre(&mut self, text: &str) {
        let _ = writeln!(self.body, "<pre>{}</pre>", esc(text));
    }

    /// A table: the first row is the header.
    pub fn table(&mut self, rows: &[Vec<String>]) {
        let Some((head, rest)) = rows.split_first() else { return };
        let _ = write!(self.body, "<div class=\"wide\"><table><thead><tr>");
        for h in head {
            let _ = write!(self.body, "<th>{}</th>", esc(h));
        }
        let _ = writeln!(self.body, "</tr></thead><tbody>");
        for r in rest {
            let _ = write!(self.body, "<tr>");
            for c in r {
                let _ = write!(self.body, "<td>{}</td>", esc(c));
            }
            let _ = writeln!(self.body, "</tr>");
        }
        let _ = writeln!(self.body, "</tbody></table></div>");
    }

    /// Draw `chart` into `dir` as `stem.svg` and `stem.png` and show it.
    pub fn chart(&mut self, dir: &Path, stem: &str, chart: &Chart, caption: &str) -> Result<(), Error> {
        charts::write(chart, dir, stem)?;
        let _ = writeln!(
            self.body,
            "<figure><img src=\"{stem}.svg\" alt=\"{}\" width=\"{}\" height=\"{}\"><figcaption>{} <a href=\"{stem}.png\">PNG</a></figcaption></figure>",
            esc(caption),
            charts::SIZE.0,
            charts::SIZE.1,
            esc(caption)
        );
        self.charts.push(stem.to_string());
        Ok(())
    }

    /// The chart files written so far.
    pub fn files(&self) -> Vec<String> {
        self.charts.iter().flat_map(|s| [format!("{s}.svg"), format!("{s}.png")]).collect()
    }

    /// Write `dir/index.html`.
    pub fn finish(self, dir: &Path) -> Result<(), Error> {
        let answer = match self.answer.as_deref().map(str::trim) {
            Some(a) if !a.is_empty() => a.to_string(),
            _ => return Err(Error::internal(format!("the page {:?} states no answer", self.title))),
        };
        let html = format!(
            r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: "DejaVu Sans", Verdana, sans-serif; margin: 2em auto; max-width: 960px; color: #222; }}
h1 {{ font-size: 1.6em; }} h2 {{ font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }}
table {{ border-collapse: collapse; margin: 1em 0; font-size: 0.8em; }}
th, td {{ border: 1px solid #ccc; padding: 0.2em 0.4em; text-align: right; }}
th:first-child, td:first-child {{ text-align: left; }}
figure {{ margin: 1em 0; }} figcaption {{ font-size: 0.9em; color: #555; }}
pre {{ background: #f6f6f6; padding: 0.8em; overflow-x: auto; font-size: 0.8em; }}
img {{ max-width: 100%; height: auto; }}
.answer {{ font-size: 1.1em; background: #eef4fb; border-left: 4px solid #3b6ea5; padding: 0.6em 0.9em; }}
.wide {{ overflow-x: auto; max-width: 100%; }}
pre {{ white-space: pre-wrap; overflow-wrap: anywhere; }}
</style>
</head>
<body data-images="pending">
<h1>{title}</h1>
<p class="answer">{answer}</p>
{body}
<script>
window.addEventListener("load", function () {{
  var imgs = document.images, missing = 0;
  for (var i = 0; i < imgs.length; i++) {{
    if (!imgs[i].complete || imgs[i].naturalWidth === 0) missing++;
  }}
  document.body.setAttribute("data-images", missing === 0 ? "ok " + imgs.length : "missing " + missing);
  // What sticks out of the page (a wide table scrolls in its own box).
  var wide = [], all = document.querySelectorAll("body > *, pre, figure, p");
  for (var j = 0; j < all.length; j++) {{
    var e = all[j];
    if (e.scrollWidth > e.clientWidth + 1 && !e.classList.contains("wide")) wide.push(e.tagName.toLowerCase());
  }}
  var d = document.documentElement;
  if (d.scrollWidth > d.clientWidth + 1) wide.push("page");
  document.body.setAttribute("data-overflow", wide.length === 0 ? "none" : wide.join(","));
  // Tables wider than their box, which scroll there and hide their last
  // columns until scrolled.
  var boxes = document.querySelectorAll(".wide"), scrolled = 0;
  for (var k = 0; k < boxes.length; k++) {{
    if (boxes[k].scrollWidth > boxes[k].clientWidth + 1) scrolled++;
  }}
  document.body.setAttribute("data-scrolled", String(scrolled));
}});
</script>
</body>
</html>
"#,
            title = esc(&self.title),
            answer = esc(&answer),
            body = self.body
        );
        write_file(&dir.join("index.html"), html.as_bytes())
    }
}
