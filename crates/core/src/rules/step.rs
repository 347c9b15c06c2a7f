//! The engine as a state machine, after OpenSpiel's `State`: the state
//! says what happens next (`State::step`), `next_decision` runs every step
//! that needs no one's choice up to the next decision and lists its legal
//! actions, and `apply` plays one of them. The dice are rolled from the
//! engine's `Dice` inside `apply` and `next_decision`; `rules::Game` makes
//! each of those rolls a chance node of its own.
//!
//! Because the position inside a rule lives in the state, a copy of the
//! state can be played on from any decision, a combat's bids and hits
//! included: that is what a search does. Nothing here asks a player: the
//! one loop that does, `rules::Driver`, runs over these functions (the
//! `begin_*` ones for an action played whole from any position), and
//! `turn_decision` serves a test that plays one phase of a season alone.

use super::action::{Action, Decision};
use super::state::{Fight, NOBODY, PlayerId, State, Step};
use super::{Dice, Engine, Log};
use crate::scenario::{FormationChoice, SiegeChoice};

impl<D: Dice, L: Log> Engine<'_, D, L> {
    /// Run every step that needs no decision (a season's start and payday,
    /// the initiative pools, EP, the end of a season, a turn in which the
    /// player has nothing to do) up to the next decision: its player and
    /// kind, with its legal actions in `options()`. `None` when a season
    /// has just ended (`st.step` is `SeasonStart` again) or the campaign is
    /// over (`Step::Over`).
    ///
    /// Called at `SeasonStart`, it begins that season.
    pub fn next_decision(&mut self, st: &mut State) -> Option<(PlayerId, Decision)> {
        if st.step == Step::SeasonStart {
            self.begin_season(st);
        }
        loop {
            match st.step {
                Step::SeasonStart | Step::Over => return None,
                Step::Recruit | Step::Act | Step::Spend => {
                    if let Some(next) = self.turn_decision(st) {
                        return Some(next);
                    }
                }
                _ => return Some(self.inside_options(st)),
            }
            // The phase's last player is done: the steps up to the next phase.
            st.turn = 0;
            match st.step {
                Step::Recruit => {
                    // 3. initiative pools, then 4. the action phase.
                    self.refill_pools(st);
                    st.step = Step::Act;
                }
                Step::Act => {
                    // 5. empire points, then 6. conquest and construction.
                    self.earn_ep(st);
                    self.reorder_for_spending(st);
                    st.step = Step::Spend;
                }
                // 7. the end of the season.
                _ => self.end_season(st),
            }
        }
    }

    /// In a turn loop (recruit, act, spend): the decision of the player at
    /// `st.turn`, or of the next player with something to do (a player
    /// with nothing to do is done; a player done spending loses its EP,
    /// E-05). `None` when the phase's last player is done.
    pub fn turn_decision(&mut self, st: &mut State) -> Option<(PlayerId, Decision)> {
        while (st.turn as usize) < st.order.len() {
            let p = st.order[st.turn as usize];
            let d = self.turn_options(st, p);
            if !self.buf.is_empty() {
                self.buf.push(Action::Done);
                return Some((p, d));
            }
            if d == Decision::Spend {
                self.close_spending(st, p);
            }
            st.turn += 1;
        }
        None
    }

    /// The options of `p`'s turn in the phase `st.step` names (recruit,
    /// act or spend), into `options()`, without `Done`.
    fn turn_options(&mut self, st: &State, p: PlayerId) -> Decision {
        match st.step {
            Step::Recruit => {
                self.recruit_options(st, p);
                Decision::Recruit
            }
            Step::Act => {
                self.act_options(st, p);
                Decision::Act
            }
            _ => {
                self.spend_options(st, p);
                Decision::Spend
            }
        }
    }

    /// The legal actions of the decision the state rests at, into
    /// `options()`, without running anything (OpenSpiel's
    /// `legal_actions`): its player and kind, or `None` when the state is
    /// not at a decision (a season's start, the end, or a turn whose player
    /// has nothing to do, which `next_decision` would pass over).
    /// `next_decision` leaves the state at a decision, so after it this
    /// lists the same actions again.
    pub fn legal_actions(&mut self, st: &State) -> Option<(PlayerId, Decision)> {
        self.buf.clear();
        match (st.step, st.order.get(st.turn as usize)) {
            (Step::Recruit | Step::Act | Step::Spend, Some(&p)) => {
                let d = self.turn_options(st, p);
                if self.buf.is_empty() {
                    return None;
                }
                self.buf.push(Action::Done);
                Some((p, d))
            }
            (s, _) if s.inside_action() => Some(self.inside_options(st)),
            _ => None,
        }
    }

    /// Whether `a` is among the legal actions at the decision `st` rests at
    /// (what `legal_actions` lists), leaving `options()` as it was: the
    /// membership `apply` asserts in debug builds, and the property tests
    /// check for every action they play.
    pub fn is_legal(&mut self, st: &State, a: Action) -> bool {
        std::mem::swap(&mut self.buf, &mut self.check);
        let listed = self.legal_actions(st).is_some() && self.buf.contains(&a);
        std::mem::swap(&mut self.buf, &mut self.check);
        listed
    }

    /// The player and legal actions of a decision inside an action.
    fn inside_options(&mut self, st: &State) -> (PlayerId, Decision) {
        let f = &st.fight;
        self.buf.clear();
        match st.step {
            Step::Bid { attacking } => {
                let p = if attacking { f.rec.attacker } else { f.rec.defender };
                for b in 0..=bid_max(st, p, f.bid_cap) {
                    self.buf.push(Action::Bid(b as u8));
                }
                (p, Decision::Bid { kind: f.rec.kind, attacking })
            }
            Step::TakeHit { attacking, .. } => {
                let (p, h) = if attacking { (f.rec.attacker, f.rec.from) } else { (f.rec.defender, f.rec.target) };
                hit_options(st, attacking, &mut self.buf);
                (p, Decision::TakeHit { hex: h })
            }
            Step::Formation { army } => {
                for f in [FormationChoice::Light, FormationChoice::Assault, FormationChoice::Siege] {
                    self.buf.push(Action::Formation(f));
                }
                (st.armies[army as usize].owner, Decision::Formation { army })
            }
            Step::SiegeOutcome { city } => {
                for c in [SiegeChoice::Conquer, SiegeChoice::Federate, SiegeChoice::Pillage] {
                    self.buf.push(Action::Outcome(c));
                }
                (f.rec.attacker, Decision::SiegeOutcome { city })
            }
            s => unreachable!("{s:?} is not a decision inside an action"),
        }
    }

    /// Play `a`, one of the actions `next_decision` listed, at the decision
    /// `st.step` waits for, and the rule on from it as far as it goes
    /// without another decision. The turn loops move on lazily: the next
    /// `next_decision` finds whether the player has more to do.
    ///
    /// The unchecked door, for the driver (`Driver`), which passes an
    /// action from the list it was just given, at every decision of every
    /// campaign: membership in that list is asserted in debug builds only
    /// (`is_legal`; the property tests check it for every action they
    /// play). A release build plays a recruit, act or purchase as given,
    /// so an action from elsewhere may break the rules (only the answers
    /// inside a combat keep a cheap guard: a bid above its cap is the cap,
    /// a hit is placed on a ship that may take it). The checked door for
    /// an untrusted caller is `Game::apply`, which refuses an action that
    /// is not legal (`Illegal::NotLegal`) in every build.
    pub fn apply(&mut self, st: &mut State, a: Action) {
        debug_assert!(self.is_legal(st, a), "{a:?} is not among the legal actions at {:?}", st.step);
        match st.step {
            Step::Recruit => {
                let p = st.order[st.turn as usize];
                match a {
                    Action::Recruit { hex, item } => self.recruit(st, p, hex, item),
                    _ => st.turn += 1,
                }
            }
            Step::Act => {
                let p = st.order[st.turn as usize];
                match a {
                    Action::Done => st.turn += 1,
                    a => self.begin_act(st, p, a),
                }
            }
            Step::Spend => {
                let p = st.order[st.turn as usize];
                match a {
                    Action::Done => {
                        self.close_spending(st, p);
                        st.turn += 1;
                    }
                    a => self.spend(st, p, a),
                }
            }
            Step::Bid { attacking } => {
                let f = st.fight;
                let p = if attacking { f.rec.attacker } else { f.rec.defender };
                let b = match a {
                    Action::Bid(b) => (b as i32).min(bid_max(st, p, f.bid_cap)),
                    _ => 0,
                };
                if attacking {
                    // Kept by the engine, not written in the state: the
                    // defender bids without seeing it (G-07).
                    self.attacker_bid = Some(b);
                    self.after_attacker_bid(st);
                } else {
                    self.bids_done(st, b);
                }
            }
            Step::TakeHit { attacking, left } => {
                let mut ships = std::mem::take(&mut self.check);
                ships.clear();
                hit_options(st, attacking, &mut ships);
                let hit = if ships.contains(&a) { Some(a) } else { ships.first().copied() };
                self.check = ships;
                if let Some(Action::TakeHit { ship }) = hit {
                    self.take_hit(st, attacking, ship as usize);
                }
                self.begin_hits(st, attacking, left as i32 - 1);
            }
            Step::Formation { army } => {
                let f = match a {
                    Action::Formation(f) => f,
                    _ => FormationChoice::Light,
                };
                // Light's extra movement applies from the next season's reset.
                st.armies[army as usize].formation = Some(f);
                self.emit(|| super::Event::Formation { army, formation: f });
                self.army_done(st);
            }
            Step::SiegeOutcome { city } => {
                let choice = match a {
                    Action::Outcome(c) => c,
                    _ => SiegeChoice::Conquer,
                };
                self.apply_outcome(st, st.fight.rec.attacker, city as usize, choice);
                self.fight_done(st);
            }
            Step::SeasonStart | Step::Over => debug_assert!(false, "no decision is pending at {:?}", st.step),
        }
    }

    /// A combat begins: its record so far, then the bids (G-07), or its
    /// resolution at once when neither side can bid.
    pub(crate) fn begin_fight(&mut self, st: &mut State, fight: Fight) {
        st.fight = fight;
        // An attacker that cannot bid bids 0; no earlier combat's bid or
        // guess carries over.
        self.attacker_bid = None;
        if bid_max(st, fight.rec.attacker, fight.bid_cap) > 0 {
            st.step = Step::Bid { attacking: true };
            return;
        }
        self.after_attacker_bid(st);
    }

    fn after_attacker_bid(&mut self, st: &mut State) {
        let f = st.fight;
        if f.defender_bids && bid_max(st, f.rec.defender, f.bid_cap) > 0 {
            st.step = Step::Bid { attacking: false };
            return;
        }
        self.bids_done(st, 0);
    }

    /// Both sides have bid in secret: both bids are spent, and the combat
    /// is fought.
    fn bids_done(&mut self, st: &mut State, defender_bid: i32) {
        let f = st.fight;
        // A copy of a state played on from a defender's bid by an engine
        // that was given no guess fights as if the attacker bid 0.
        let ab = self.attacker_bid.take().unwrap_or(0);
        let (a, d) = (f.rec.attacker, f.rec.defender);
        if a != NOBODY {
            st.players[a as usize].initiative -= ab;
        }
        // `defender_bid` is 0 when the defender does not bid.
        if d != NOBODY {
            st.players[d as usize].initiative -= defender_bid;
        }
        st.fight.rec.a.bid = ab;
        st.fight.rec.d.bid = defender_bid;
        match f.rec.kind {
            super::CombatKind::Army => self.resolve_army(st),
            super::CombatKind::Siege => self.resolve_siege(st),
            super::CombatKind::Naval => self.resolve_naval(st),
            super::CombatKind::Coastal => self.resolve_coastal(st),
            super::CombatKind::SpyDuel => self.resolve_duel(st),
            // A spy's action has no bids and is fought at once (W-20).
            super::CombatKind::Spy => unreachable!("spy actions are not fought through bids"),
        }
    }

    /// The combat is over: back to the acting player's turn.
    pub(crate) fn fight_done(&mut self, st: &mut State) {
        st.step = Step::Act;
        st.fleet.clear();
    }
}

/// The most `p` may bid (G-07): the combat's cap, within its pool.
/// `NOBODY` (a neutral defender) never bids.
pub fn bid_max(st: &State, p: PlayerId, cap: i32) -> i32 {
    if p == NOBODY { 0 } else { cap.min(st.players[p as usize].initiative).max(0) }
}

/// G-26: the ships a side's next point of damage may fall on: for the
/// attacker, the ships that fought (`State::fleet`) still afloat; for the
/// defender, every ship it has on the hex.
pub fn hit_options(st: &State, attacking: bool, out: &mut Vec<Action>) {
    let f = &st.fight;
    if attacking {
        for &i in &st.fleet {
            if st.ships[i as usize].alive {
                out.push(Action::TakeHit { ship: i });
            }
        }
    } else {
        for (i, s) in st.ships.iter().enumerate() {
            if s.alive && s.owner == f.rec.defender && s.hex == f.rec.target {
                out.push(Action::TakeHit { ship: i as u16 });
            }
        }
    }
}
