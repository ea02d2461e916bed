//! What a Bon-Bon seat sees, with the keys of `boneyard.games.bonbon.observation`
//! (`BonBonObservation`): the face-up cards, its own secrets, and counts of what it has not seen.

use serde_json::{json, Map, Value};

use super::rules::{holds, BonBonRules, Card, Phase};
use crate::core::Rules;

/// Whether `seat` (`None`: a spectator, who sees the face-up cards only) knows `card`'s kind.
pub fn knows(card: &Card, seat: Option<usize>) -> bool {
    card.up || seat.is_some_and(|s| holds(card.seen_by, s))
}

/// How many cards of each kind `seat` has not seen: the deck, the hidden cards in runs and a
/// hidden drawn card, less a peeked card it saw (still in the deck).
pub fn unseen_counts(state: &BonBonRules, seat: Option<usize>) -> Vec<i64> {
    let mut unseen: Vec<i64> = state.counts.iter().map(|&c| i64::from(c)).collect();
    for card in state.runs.iter().flatten() {
        if !knows(card, seat) {
            unseen[card.kind] += 1;
        }
    }
    if let Some(kind) = state.drawn {
        if !seat.is_some_and(|s| holds(state.drawn_mask, s)) {
            unseen[kind] += 1;
        }
    }
    if let Some((kind, peeker)) = state.peek {
        if seat == Some(peeker) {
            unseen[kind] -= 1;
        }
    }
    unseen
}

fn seats_of(mask: u8, players: usize) -> Vec<usize> {
    (0..players).filter(|&s| holds(mask, s)).collect()
}

pub fn observe(state: &BonBonRules, seat: Option<usize>) -> Value {
    let table = &state.table;
    let players = table.players;
    let label = |kind: usize| table.deck.kinds[kind].label.as_str();
    let runs: Vec<Value> = state
        .runs
        .iter()
        .map(|run| {
            run.iter()
                .map(|card| {
                    json!({
                        "card": knows(card, seat).then(|| label(card.kind)),
                        "up": card.up,
                        "seen_by": seats_of(card.seen_by, players),
                    })
                })
                .collect()
        })
        .collect();
    let drawn = state.drawn.map(|kind| {
        json!({
            "by": state.turn,
            "card": seat.is_some_and(|s| holds(state.drawn_mask, s)).then(|| label(kind)),
            "seen_by": seats_of(state.drawn_mask, players),
        })
    });
    let peek = state.peek.map(
        |(kind, peeker)| json!({"by": peeker, "card": (seat == Some(peeker)).then(|| label(kind))}),
    );
    let unseen = unseen_counts(state, seat);
    let over = state.phase == Phase::Over;
    let by_label = |numbers: &mut dyn Iterator<Item = i64>| -> Map<String, Value> {
        table
            .labels()
            .map(str::to_string)
            .zip(numbers.map(Value::from))
            .collect()
    };
    json!({
        "seat": seat,
        "players": players,
        "current_player": state.current_player(),
        "phase": state.phase.name(),
        "turn": (!matches!(state.phase, Phase::Tiles | Phase::Over)).then_some(state.turn),
        "round": state.rounds_played + if over { 0 } else { 1 },
        "max_rounds": table.max_rounds,
        "wins": state.wins,
        "personal_limits": state.wins.iter().map(|w| super::rules::PERSONAL_LIMIT - w).collect::<Vec<_>>(),
        "collective_limit": table.collective_limit,
        "marker": state.marker,
        "up_totals": state.up_total,
        "status": state.status.iter().map(|s| s.name()).collect::<Vec<_>>(),
        "tiles": state.tile_values(),
        "tiles_open": state.tiles_open,
        "tile_taken": state.tile_taken,
        "runs": runs,
        "drawn": drawn,
        "peek": peek,
        "deck_left": state.deck_left,
        "values": by_label(&mut table.deck.kinds.iter().map(|k| k.value)),
        "unseen": by_label(&mut unseen.into_iter()),
        "round_starter": state.round_starter,
        "last_drawer": state.last_drawer,
        "last_round": {
            "scores": state.last_scores,
            "cards": state.last_cards,
            "winners": state.last_winners,
        },
        "winners": state.winners,
    })
}
