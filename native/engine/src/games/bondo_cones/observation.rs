//! What a Bond O Cones seat sees, with the keys of
//! `boneyard.games.bondo_cones.observation.BondoObservation`: every cone on the board (a seat's
//! own values; the opponent's only where spied), except the cones of a seat still setting up,
//! which only that seat sees.

use serde_json::{json, Map, Value};

use super::board::squares_of;
use super::notation::{observed_token, square_name, FACES};
use super::rules::{BondoConesRules, Phase, DRAW, PEEKED, PUTS, SETUP_ORDER, SPIED};
use crate::core::Rules;

/// Who looks: a seat, a spectator, or the whole truth (what `str(state)` draws in Python).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    Seat(usize),
    Spectator,
    Everything,
}

impl Viewer {
    pub fn of(seat: Option<usize>) -> Viewer {
        seat.map_or(Viewer::Spectator, Viewer::Seat)
    }

    fn is(self, seat: usize) -> bool {
        self == Viewer::Seat(seat)
    }
}

/// A cone as a viewer sees it: whose it is, its value where the viewer knows it, its rings and
/// its public flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeenCone {
    pub square: usize,
    pub seat: usize,
    pub value: Option<u8>,
    pub rings: u8,
    pub peeked: bool,
    pub spied: bool,
}

/// The cones `viewer` sees, in square order, as `_typed_observation` decides: a seat's cones
/// only once its set-up puts are done (to anyone but itself), a value only for its owner or,
/// once spied, for the other seat. The observation and the tensor both read this, so what a
/// seat is shown is decided here once.
pub fn seen_cones(state: &BondoConesRules, viewer: Viewer) -> impl Iterator<Item = SeenCone> + '_ {
    let boards = &state.boards;
    squares_of(boards.cones[0] | boards.cones[1]).filter_map(move |square| {
        // The bitboards say whose cone it is (the per-square record agrees with them).
        let who = usize::from(boards.cones[1] >> square & 1 == 1);
        let everything = viewer == Viewer::Everything;
        if !everything && !viewer.is(who) && (state.setup_progress[who] as usize) < PUTS {
            return None;
        }
        let flag = state.flags[square];
        let known = everything || viewer.is(who) || (flag & SPIED != 0 && viewer.is(1 - who));
        Some(SeenCone {
            square,
            seat: who,
            value: known
                .then(|| u8::try_from(state.value[square]).ok())
                .flatten(),
            rings: state.rings[square],
            peeked: flag & PEEKED != 0,
            spied: flag & SPIED != 0,
        })
    })
}

/// The cones `viewer` sees, square name -> token.
fn cones(state: &BondoConesRules, viewer: Viewer) -> Map<String, Value> {
    let mut cones = Map::new();
    for cone in seen_cones(state, viewer) {
        let token = observed_token(cone.seat, cone.value, cone.rings, cone.peeked, cone.spied);
        cones.insert(square_name(cone.square), Value::String(token));
    }
    cones
}

/// `observation(seat)`, key for key as the Python engine's `_typed_observation`.
pub fn observe(state: &BondoConesRules, viewer: Viewer) -> Value {
    let seat = match viewer {
        Viewer::Seat(seat) => Some(seat),
        _ => None,
    };
    let progress = state.setup_progress;
    json!({
        "seat": seat,
        "current_player": state.current_player(),
        "phase": state.phase.name(),
        "actor": state.actor,
        "turn_player": state.turn_player,
        "turn": state.turns,
        "max_turns": state.config.max_turns,
        "target": state.config.target,
        "setup": state.config.setup,
        "setup_progress": progress,
        "next_value": (state.phase == Phase::SetupPut)
            .then(|| SETUP_ORDER.get(progress[state.actor] as usize).copied())
            .flatten(),
        "first_player": state.first,
        "die": state.die.map(|face| FACES[face]),
        "scores": state.scores,
        "captured": state.captured,
        "battle_windows": state.windows,
        "set_aside_ring": state.set_aside,
        "cones": cones(state, viewer),
        "last_move": state.last_move.map(|(origin, target)| {
            [square_name(origin as usize), square_name(target as usize)]
        }),
        "last_peek": state.last_peek.map(|square| square_name(square as usize)),
        "winner": winner_json(state.winner),
    })
}

/// `None` while the game runs, a seat, or `"draw"`.
pub fn winner_json(winner: Option<u8>) -> Value {
    match winner {
        None => Value::Null,
        Some(DRAW) => Value::String("draw".to_string()),
        Some(seat) => json!(seat),
    }
}
