//! One campaign as a game, after OpenSpiel's `State`: it says whose move it
//! is (`node`), lists the legal actions, applies one or refuses it
//! (`apply -> Result`), exposes every die as a chance node with its
//! outcomes and their probabilities (`chance_outcomes`, `apply_chance`),
//! says when the game is over and what each seat gets (`returns`), and
//! keeps the history that replays it (`history`, `Game::replay`).
//!
//! Nothing here draws a die: whoever drives the game picks each chance
//! outcome. A driver that draws them from the campaign's dice stream, in
//! the order the nodes come, plays exactly the campaign the fast drivers
//! play (which roll from that stream inside the engine), so every
//! campaign is the same game through either door (`tests/it/game_api.rs`
//! holds that for every shipped scenario).
//!
//! How a die becomes a node without cutting every rule into resumable
//! pieces: the rules between two decisions run as straight-line code over
//! a tape of faces (`Tape`). When the code asks for a face the tape does
//! not hold yet, the attempt is thrown away and the game rests at a chance
//! node for that die; the face picked is appended and the same transition
//! is run again from the last decision. A transition rolls few dice (a
//! combat's two, a payday's few mines, a roll-off's ties), so the replays
//! cost little, and the rule code stays the one the fast drivers run.
//!
//! Hidden information: the one secret of the rules, the attacker's bid
//! while the defender bids (G-07), is kept by the game beside its state,
//! not in it, and handed to the engine of each transition; no method
//! returns it. Everything else every player may see, so `observation(p)`
//! is the state as player `p` is handed it (`Observation`).

use super::action::{Action, Decision};
use super::observation::Observation;
use super::season::Outcome;
use super::state::{PlayerId, State, Step};
use super::{Dice, Engine, Event, Log, NoLog, Rules};

/// Whose move it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// A player picks one of `legal_actions`.
    Decision { player: PlayerId, decision: Decision },
    /// A die with `sides` faces is rolled: every face 1 to `sides` has
    /// probability `1 / sides`.
    Chance { sides: u8 },
    /// The campaign is over; `outcome` and `returns` say how.
    Terminal,
}

/// One move of a game's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A player's action at a decision.
    Action(Action),
    /// A die's face at a chance node.
    Chance(u8),
}

/// A move the game refuses, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("{action:?} is not among the legal actions of player {player} at {decision:?}")]
    NotLegal { action: Action, player: PlayerId, decision: Decision },
    #[error("face {face} cannot be rolled on a die of {sides} sides")]
    NoSuchFace { face: u8, sides: u8 },
    #[error("{what} is not what the game waits for: it waits for {node:?}")]
    WrongNode { what: &'static str, node: Node },
}

/// A campaign as a game: see the module's comment.
#[derive(Clone)]
pub struct Game<'a> {
    rules: Rules<'a>,
    /// The position at the last decision (or the start).
    base: State,
    /// The attacker's secret bid when `base` rests at the defender's bid
    /// (G-07): the engine's, kept between transitions and read by none of
    /// the game's methods.
    attacker_bid: Option<i32>,
    /// The action played at `base`'s decision, whose consequences wait
    /// for the faces of `tape`.
    pending: Option<Action>,
    /// The faces picked since `base`, in the order the rules ask for them.
    tape: Vec<u8>,
    node: Node,
    legal: Vec<Action>,
    history: Vec<Move>,
    outcome: Option<Outcome>,
    /// The log of every transition done, when asked for (`with_log`).
    log: Option<Vec<Event>>,
}

impl<'a> Game<'a> {
    /// The game from `start` (a campaign's initial state, gifts included,
    /// or any state resting at a season's start or a decision; a state
    /// holds no attacker's bid, so at a defender's bid the attacker is
    /// taken to have bid 0).
    pub fn new(rules: Rules<'a>, start: State) -> Self {
        Self::build(rules, start, None)
    }

    /// As `new`, keeping the log of everything that happens (the events
    /// the engine writes), for `events`.
    pub fn with_log(rules: Rules<'a>, start: State) -> Self {
        Self::build(rules, start, Some(Vec::new()))
    }

    fn build(rules: Rules<'a>, start: State, log: Option<Vec<Event>>) -> Self {
        let mut g = Game {
            rules,
            base: start,
            attacker_bid: None,
            pending: None,
            tape: Vec::new(),
            node: Node::Terminal,
            legal: Vec::new(),
            history: Vec::new(),
            outcome: None,
            log,
        };
        g.advance();
        g
    }

    /// Play `history` from `start`: the game it recorded, or the first
    /// move it cannot play.
    pub fn replay(rules: Rules<'a>, start: State, history: &[Move]) -> Result<Self, Illegal> {
        let mut g = Self::new(rules, start);
        for &m in history {
            g.play(m)?;
        }
        Ok(g)
    }

    pub fn rules(&self) -> Rules<'a> {
        self.rules
    }

    /// What the game waits for.
    pub fn node(&self) -> Node {
        self.node
    }

    /// The player to move, at a decision (OpenSpiel's `current_player`).
    pub fn current_player(&self) -> Option<PlayerId> {
        match self.node {
            Node::Decision { player, .. } => Some(player),
            _ => None,
        }
    }

    pub fn is_chance_node(&self) -> bool {
        matches!(self.node, Node::Chance { .. })
    }

    pub fn is_terminal(&self) -> bool {
        self.node == Node::Terminal
    }

    /// The legal actions at a decision (empty anywhere else), in the
    /// engine's order: the index a player returns is into this list.
    pub fn legal_actions(&self) -> &[Action] {
        &self.legal
    }

    /// The outcomes of the chance node and their probabilities (empty
    /// anywhere else).
    pub fn chance_outcomes(&self) -> Vec<(u8, f64)> {
        match self.node {
            Node::Chance { sides } => (1..=sides).map(|f| (f, 1.0 / sides as f64)).collect(),
            _ => Vec::new(),
        }
    }

    /// The position: at a decision, the state the decision is taken in; at
    /// a chance node, the state at the last decision (the action taken
    /// there and the faces rolled since are the end of `history`); at the
    /// end, the final state.
    pub fn state(&self) -> &State {
        &self.base
    }

    /// What `player` sees, as a player is handed it: the position, which
    /// holds no secret (the attacker's bid is the game's, module comment).
    pub fn observation(&self, player: PlayerId) -> Observation<'_> {
        Observation::new(&self.base, player)
    }

    /// The moves played so far; `Game::replay` plays them again.
    pub fn history(&self) -> &[Move] {
        &self.history
    }

    /// How the campaign ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Each seat's return once the game is over: 1 for the seat ranked
    /// first (the win the studies count, G-02), 0 for the others; all 0
    /// before the end.
    pub fn returns(&self) -> Vec<f64> {
        let mut r = vec![0.0; self.base.players.len()];
        if let Some(o) = &self.outcome {
            r[o.winner() as usize] = 1.0;
        }
        r
    }

    /// The events of every transition done so far (`with_log` only).
    pub fn events(&self) -> &[Event] {
        self.log.as_deref().unwrap_or(&[])
    }

    /// Play a move: an action at a decision, a face at a chance node.
    pub fn play(&mut self, m: Move) -> Result<(), Illegal> {
        match m {
            Move::Action(a) => self.apply(a),
            Move::Chance(f) => self.apply_chance(f),
        }
    }

    /// Play `action` at the decision the game waits for; refused, with
    /// nothing changed, when it is not one of `legal_actions`.
    pub fn apply(&mut self, action: Action) -> Result<(), Illegal> {
        let Node::Decision { player, decision } = self.node else {
            return Err(Illegal::WrongNode { what: "an action", node: self.node });
        };
        if !self.legal.contains(&action) {
            return Err(Illegal::NotLegal { action, player, decision });
        }
        self.history.push(Move::Action(action));
        self.pending = Some(action);
        self.tape.clear();
        self.advance();
        Ok(())
    }

    /// Roll `face` at the chance node the game waits for; refused when the
    /// die cannot show it or no die is being rolled.
    pub fn apply_chance(&mut self, face: u8) -> Result<(), Illegal> {
        let Node::Chance { sides } = self.node else {
            return Err(Illegal::WrongNode { what: "a die's face", node: self.node });
        };
        if face == 0 || face > sides {
            return Err(Illegal::NoSuchFace { face, sides });
        }
        self.history.push(Move::Chance(face));
        self.tape.push(face);
        self.advance();
        Ok(())
    }

    /// Run the rules from `base` (with the pending action and the faces of
    /// the tape) up to the next decision, die or end.
    fn advance(&mut self) {
        match self.log.is_some() {
            true => self.attempt(Vec::new()),
            false => self.attempt(NoLog),
        }
    }

    fn attempt<L: Log + Into<Option<Vec<Event>>>>(&mut self, log: L) {
        let mut st = self.base.clone();
        let mut eng = Engine::new(self.rules, Tape::new(&self.tape), log);
        eng.attacker_bid = self.attacker_bid;
        if let Some(a) = self.pending {
            eng.apply(&mut st, a);
        }
        let mut outcome = None;
        let mut decision = None;
        while eng.dice.wants.is_none() {
            match eng.next_decision(&mut st) {
                Some(pd) => {
                    decision = Some(pd);
                    break;
                }
                None if st.step == Step::Over => {
                    let reason = st.ended.expect("a campaign over has its reason");
                    outcome = Some(eng.finish(&mut st, reason));
                    break;
                }
                // A season has ended: the next one begins.
                None => {}
            }
        }
        if let Some(sides) = eng.dice.wants {
            // The attempt ran past a face nobody picked: thrown away.
            self.node = Node::Chance { sides };
            self.legal.clear();
            return;
        }
        self.legal.clear();
        self.node = match decision {
            Some((player, decision)) => {
                self.legal.extend_from_slice(eng.options());
                Node::Decision { player, decision }
            }
            None => Node::Terminal,
        };
        self.outcome = outcome;
        if let (Some(log), Some(done)) = (self.log.as_mut(), eng.log.into()) {
            log.extend(done);
        }
        self.base = st;
        // Held only while the new position waits for the defender's bid.
        self.attacker_bid = eng.attacker_bid;
        self.pending = None;
        self.tape.clear();
    }
}

/// The faces picked so far; past them, the face of a die nobody picked is
/// wanted (`wants`, its sides) and any face is returned, since the attempt
/// will be thrown away.
struct Tape<'t> {
    faces: &'t [u8],
    next: usize,
    wants: Option<u8>,
}

impl<'t> Tape<'t> {
    fn new(faces: &'t [u8]) -> Self {
        Tape { faces, next: 0, wants: None }
    }
}

impl Dice for Tape<'_> {
    fn roll(&mut self, sides: u8) -> u8 {
        match self.faces.get(self.next) {
            Some(&f) if self.wants.is_none() => {
                self.next += 1;
                f
            }
            _ => {
                self.wants.get_or_insert(sides);
                1
            }
        }
    }
}

impl From<NoLog> for Option<Vec<Event>> {
    fn from(_: NoLog) -> Self {
        None
    }
}
