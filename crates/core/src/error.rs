//! The one error type of the library: a message for the user and its
//! class.
//!
//! Why a class and not only a message: the command line turns an error into
//! an exit code (2 for bad input, 3 for a failed write or a bug), and a
//! scripted user acts on that code. Only the place that failed knows which
//! it was (reading a run directory and writing its page can fail in the
//! same function), so the class is set there, once, and travels with the
//! message through every layer, instead of being guessed at each call site.
//!
//! Core itself does no IO, so it makes only [`Class::Input`] and
//! [`Class::Internal`] errors; the reporting layer makes [`Class::Io`] ones.
//! [`Class::Interrupted`] is no failure at all: a long computation told to
//! stop (Ctrl-C) returns it instead of a partial answer, and it travels the
//! same way, so the command line can exit 130 on the error's class alone.

use std::fmt::Display;

/// What kind of failure an [`Error`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// Something the user gave is wrong: a flag, a scenario, an input file
    /// or directory. Running again with other input can succeed.
    Input,
    /// An output could not be written (a full disk, a read-only folder).
    Io,
    /// The program broke its own rules (a bug to report).
    Internal,
    /// The computation was told to stop (Ctrl-C) before it finished: what
    /// finished is kept, and nothing is wrong with the input or the program.
    Interrupted,
}

/// The message of an [`Error::interrupted`] (the command line names the
/// folder and what to do next in its own).
pub const INTERRUPTED: &str = "stopped by Ctrl-C";

/// An input a library function was handed, named by what it is rather
/// than by how a front end spells it: an error names the input that was
/// wrong, and the command line words it with its flag
/// (`cli::input_flag`), so a renamed flag is renamed there alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Input {
    /// The strategy every seat plays.
    Players,
    /// A strategy's keys to vary or tune.
    Keys,
    /// Whether a study answers under best response.
    BestResponse,
    /// The kind of player a best response tunes.
    BestResponsePlayer,
    /// Going on with the record a stopped run kept.
    Resume,
    /// A scenario number and the interval it varies over (`KEY=LO..HI`).
    Range,
    /// A key and the values a sweep plays (`KEY=V1,V2,...`).
    Values,
    /// A metric named to show.
    Metric,
    /// What a solve aims at (`METRIC = VALUE`).
    Target,
    /// The kinds of action a restriction forbids.
    Forbid,
    /// The kinds of action a restriction forces.
    Force,
    /// The strategies a restriction is played at.
    Levels,
}

impl Input {
    /// How [`Error`]'s `Display` names the input when no front end words
    /// it: its name in angle brackets.
    pub fn plain(self) -> String {
        format!("<{self:?}>").to_lowercase()
    }
}

/// A piece of an error's message: text, or an input the front end names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Text(String),
    Input(Input),
}

impl From<&str> for Part {
    fn from(s: &str) -> Self {
        Part::Text(s.to_string())
    }
}

impl From<String> for Part {
    fn from(s: String) -> Self {
        Part::Text(s)
    }
}

impl From<Input> for Part {
    fn from(i: Input) -> Self {
        Part::Input(i)
    }
}

/// A failure with a message for the user and its [`Class`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render(Input::plain))]
pub struct Error {
    class: Class,
    parts: Vec<Part>,
}

impl Error {
    pub fn new(class: Class, message: impl Into<String>) -> Self {
        Error { class, parts: vec![Part::Text(message.into())] }
    }

    /// Bad input whose message names inputs, each worded by the front end
    /// ([`render`](Self::render)): `Error::input_naming(["give ".into(),
    /// Input::Forbid.into(), " or both".into()])`.
    pub fn input_naming(parts: impl IntoIterator<Item = Part>) -> Self {
        Error { class: Class::Input, parts: parts.into_iter().collect() }
    }

    /// The message, each input worded by `name` (the command line passes
    /// its flags).
    pub fn render<S: AsRef<str>>(&self, name: impl Fn(Input) -> S) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Text(t) => t.clone(),
                Part::Input(i) => name(*i).as_ref().to_string(),
            })
            .collect()
    }

    /// The same error, prefixed with the input it is about ("INPUT: ...").
    pub fn at_input(self, input: Input) -> Self {
        self.prefixed([Part::Input(input), Part::Text(": ".into())])
    }

    /// The same error, prefixed with the input and the value it was given
    /// ("INPUT VALUE: ...").
    pub fn at_input_value(self, input: Input, value: impl Display) -> Self {
        self.prefixed([Part::Input(input), Part::Text(format!(" {value}: "))])
    }

    fn prefixed<const N: usize>(mut self, before: [Part; N]) -> Self {
        self.parts.splice(0..0, before);
        self
    }

    /// Bad input; see [`Class::Input`].
    pub fn input(message: impl Into<String>) -> Self {
        Error::new(Class::Input, message)
    }

    /// An output that could not be written; see [`Class::Io`].
    pub fn io(message: impl Into<String>) -> Self {
        Error::new(Class::Io, message)
    }

    /// A bug; see [`Class::Internal`]. The message says "internal:" so the
    /// user knows to report it.
    pub fn internal(message: impl Into<String>) -> Self {
        let m = message.into();
        let m = if m.starts_with("internal:") { m } else { format!("internal: {m}") };
        Error::new(Class::Internal, m)
    }

    /// Stopped before the end; see [`Class::Interrupted`].
    pub fn interrupted() -> Self {
        Error::new(Class::Interrupted, INTERRUPTED)
    }

    /// Whether this is an interruption rather than a failure.
    pub fn is_interrupted(&self) -> bool {
        self.class == Class::Interrupted
    }

    pub fn class(&self) -> Class {
        self.class
    }

    /// The message as `Display` writes it.
    pub fn message(&self) -> String {
        self.to_string()
    }

    /// The same error, its message prefixed with where it happened
    /// ("PATH: ..."); the class is kept.
    pub fn at(self, place: impl Display) -> Self {
        self.prefixed([Part::Text(format!("{place}: "))])
    }
}

/// Why a campaign was not played: what every function that plays
/// campaigns returns as its error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The scenario cannot be set up: a map that cannot be drawn or
    /// generated, a lineup that does not fit its seats.
    Invalid(String),
    /// Whoever runs the campaigns asked them to stop before this one (the
    /// command line's Ctrl-C, through `sim::watch`). Its own variant, not a
    /// message, so that it reaches the exit code as an interruption, never
    /// as bad input, through every layer that passes it on.
    Interrupted,
}

impl SetupError {
    /// This error as the library's [`Error`], its
    /// message as it is (the `From` conversion says "cannot set up a
    /// campaign: " first), an interruption kept as one.
    pub fn into_error(self) -> Error {
        match self {
            SetupError::Invalid(m) => Error::input(m),
            SetupError::Interrupted => Error::interrupted(),
        }
    }
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Invalid(m) => f.write_str(m),
            SetupError::Interrupted => f.write_str(INTERRUPTED),
        }
    }
}

impl std::error::Error for SetupError {}

impl From<SetupError> for Error {
    /// A campaign that cannot be set up comes from its scenario; a stop
    /// stays a stop.
    fn from(e: SetupError) -> Self {
        match e {
            SetupError::Invalid(m) => Error::input(format!("cannot set up a campaign: {m}")),
            SetupError::Interrupted => Error::interrupted(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_class_travels_with_the_message_through_at() {
        let e = Error::io("cannot write").at("out/page").at("report");
        assert_eq!(e.class(), Class::Io);
        assert_eq!(e.to_string(), "report: out/page: cannot write");
    }

    #[test]
    fn an_interruption_stays_one_through_every_conversion() {
        for e in [Error::from(SetupError::Interrupted), SetupError::Interrupted.into_error()] {
            assert_eq!(e.class(), Class::Interrupted);
            assert!(e.clone().at("out").is_interrupted());
        }
        let bad = SetupError::Invalid("map.rows: ragged".into());
        assert_eq!(Error::from(bad.clone()).class(), Class::Input);
        assert_eq!(bad.into_error().message(), "map.rows: ragged");
    }

    /// The front end words the inputs; the class and the text around them
    /// are kept.
    #[test]
    fn an_input_is_worded_by_the_front_end() {
        let e = Error::input_naming(["give ".into(), Input::Forbid.into(), " or both".into()])
            .at_input_value(Input::Levels, "x")
            .at("study");
        let flag = |i: Input| format!("--{i:?}").to_lowercase();
        assert_eq!(e.render(flag), "study: --levels x: give --forbid or both");
        assert_eq!(e.to_string(), "study: <levels> x: give <forbid> or both");
        assert_eq!(e.class(), Class::Input);
    }

    #[test]
    fn an_internal_error_says_so_once() {
        assert_eq!(Error::internal("x").message(), "internal: x");
        assert_eq!(Error::internal("internal: x").message(), "internal: x");
    }
}
