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

/// A failure with a message for the user and its [`Class`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    class: Class,
    message: String,
}

impl Error {
    pub fn new(class: Class, message: impl Into<String>) -> Self {
        Error { class, message: message.into() }
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

    pub fn message(&self) -> &str {
        &self.message
    }

    /// The same error, its message prefixed with where it happened
    /// ("PATH: ..." or "--vary: ..."); the class is kept.
    pub fn at(self, place: impl Display) -> Self {
        Error { class: self.class, message: format!("{place}: {}", self.message) }
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

    #[test]
    fn an_internal_error_says_so_once() {
        assert_eq!(Error::internal("x").message(), "internal: x");
        assert_eq!(Error::internal("internal: x").message(), "internal: x");
    }
}
