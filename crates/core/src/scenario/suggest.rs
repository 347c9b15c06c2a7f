//! "Did you mean ...?" for a misspelled key or name: the closest known
//! name by Jaro-Winkler similarity (`strsim`), offered only when it is
//! close, so a wild guess never sends a designer the wrong way.

/// The known name closest to `wrong`, when it is close enough (a
/// similarity of at least 0.8: `pillag` finds `pillage`, `tunned` finds
/// `tuned`, `zzz` finds nothing).
pub fn closest<'a>(wrong: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .map(|k| (strsim::jaro_winkler(wrong, k), k))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

/// ` (did you mean `X`?)`, or nothing.
pub fn hint<'a>(wrong: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    closest(wrong, known).map_or(String::new(), |k| format!(" (did you mean `{k}`?)"))
}

/// serde's "unknown field `X`, expected one of `a`, `b`, ..." (or
/// "expected `a` or `b`") with a did-you-mean right after the wrong name,
/// before a list that may run to 60 keys; any other message as it is.
pub fn unknown_field(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else { return message.to_string() };
    let Some((wrong, expected)) = rest.split_once('`') else { return message.to_string() };
    let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    format!("unknown field `{wrong}`{}{expected}", hint(wrong, known.iter().copied()))
}

/// A serde message as a designer reads it: a did-you-mean for an unknown
/// key (`unknown_field`), and Rust's type names (`expected i32`) said as
/// the form to give (`expected a whole number`).
pub fn readable(message: &str) -> String {
    let message = unknown_field(message);
    let Some((head, ty)) = message.rsplit_once("expected ") else { return message };
    let form = match ty {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number",
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number, at least 0",
        "f32" | "f64" => "a number",
        "a boolean" => "true or false",
        _ => return message,
    };
    format!("{head}expected {form}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_type_names_the_form_to_give() {
        assert_eq!(
            readable("invalid type: string \"abc\", expected i32"),
            "invalid type: string \"abc\", expected a whole number"
        );
        assert_eq!(
            readable("invalid type: floating point `1.5`, expected u32"),
            "invalid type: floating point `1.5`, expected a whole number, at least 0"
        );
        assert_eq!(
            readable("invalid type: string \"x\", expected f64"),
            "invalid type: string \"x\", expected a number"
        );
        assert_eq!(
            readable("invalid type: integer `3`, expected a string"),
            "invalid type: integer `3`, expected a string"
        );
    }

    #[test]
    fn a_near_miss_is_named_and_a_wild_guess_is_not() {
        assert_eq!(closest("tunned", ["balanced", "tuned", "turtle"]), Some("tuned"));
        assert_eq!(closest("zzz", ["balanced", "tuned", "turtle"]), None);
        assert_eq!(
            unknown_field("unknown field `pillag`, expected `mine` or `pillage`"),
            "unknown field `pillag` (did you mean `pillage`?), expected `mine` or `pillage`"
        );
        assert_eq!(
            unknown_field("unknown field `captur`, expected one of `capture`, `conquer`, `castle`"),
            "unknown field `captur` (did you mean `capture`?), expected one of `capture`, `conquer`, `castle`"
        );
        assert_eq!(unknown_field("invalid type: string, expected i32"), "invalid type: string, expected i32");
    }
}
