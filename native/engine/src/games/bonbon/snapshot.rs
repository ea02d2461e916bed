//! A Bon-Bon state's saved fields in the Python engine's snapshot format (`to_json()["snapshot"]`,
//! made by `boneyard/core/record.py` from `BonBonState`'s declared record), and their restore
//! with the checks of `BonBonState._after_restore`, so either engine reads the other's document.
//!
//! A resampled state has no history to replay: its snapshot is the state. Restoring refuses,
//! beyond what the Python engine refuses, a document that would leave a player or chance node
//! with nothing to play (a panic-free engine needs every state it holds to be playable).

use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::notation::MAX_TILE_VALUE;
use super::rules::{BonBonRules, Card, Phase, Status, Table};

/// Saved numbers stay far from overflow however the rules add to them.
const BIG: i64 = 1 << 40;

pub fn save(state: &BonBonRules) -> Value {
    let seat_or_none = |seat: Option<usize>| seat.map_or(-1, |s| s as i64);
    let runs: Vec<Vec<Value>> = state
        .runs
        .iter()
        .map(|run| {
            run.iter()
                .map(|c| json!([c.kind, c.up, c.seen_by]))
                .collect()
        })
        .collect();
    json!({
        "wins": state.wins,
        "rounds_played": state.rounds_played,
        "round_starter": state.round_starter,
        "last_drawer": seat_or_none(state.last_drawer),
        "last_scores": state.last_scores,
        "last_cards": state.last_cards,
        "last_winners": state.last_winners,
        "winners": state.winners,
        "phase": state.phase.saved_name(),
        "turn": state.turn,
        "tiles": state.tile_values(),
        "tiles_open": state.tiles_open,
        "tile_taken": state.tile_taken.iter().map(|t| t.unwrap_or(-1)).collect::<Vec<_>>(),
        "status": state.status.iter().map(|&s| s as u8).collect::<Vec<_>>(),
        "runs": runs,
        "up_total": state.up_total,
        "marker": state.marker,
        "counts": state.counts,
        "deck_left": state.deck_left,
        "drawn": seat_or_none(state.drawn),
        "drawn_mask": state.drawn_mask,
        "peek_kind": seat_or_none(state.peek.map(|(kind, _)| kind)),
        "peeker": seat_or_none(state.peek.map(|(_, peeker)| peeker)),
    })
}

/// The fields of one snapshot document, read with the words of `record.decode`.
struct Saved<'a>(&'a Map<String, Value>);

impl<'a> Saved<'a> {
    fn field(&self, name: &str) -> Result<&'a Value, String> {
        self.0
            .get(name)
            .ok_or_else(|| format!("the snapshot lacks '{name}'"))
    }

    fn int(&self, name: &str) -> Result<i64, String> {
        as_int(self.field(name)?, name)
    }

    fn in_range(&self, name: &str, low: i64, high: i64) -> Result<i64, String> {
        let value = self.int(name)?;
        if (low..=high).contains(&value) {
            Ok(value)
        } else {
            Err(format!("'{name}' is {value}; allowed: {low} to {high}"))
        }
    }

    fn flag(&self, name: &str) -> Result<bool, String> {
        self.field(name)?
            .as_bool()
            .ok_or_else(|| format!("'{name}' is {}; allowed: true or false", self.0[name]))
    }

    fn list(&self, name: &str) -> Result<&'a Vec<Value>, String> {
        list(self.field(name)?, name)
    }

    fn ints(&self, name: &str, low: i64, high: i64) -> Result<Vec<i64>, String> {
        self.list(name)?
            .iter()
            .map(|item| {
                let value = as_int(item, name)?;
                if (low..=high).contains(&value) {
                    Ok(value)
                } else {
                    Err(format!("'{name}' holds {value}; allowed: {low} to {high}"))
                }
            })
            .collect()
    }

    /// A list with one entry per seat.
    fn per_seat(
        &self,
        name: &str,
        players: usize,
        low: i64,
        high: i64,
    ) -> Result<Vec<i64>, String> {
        let values = self.ints(name, low, high)?;
        if values.len() == players {
            Ok(values)
        } else {
            Err(format!("field {name} needs {players} entries"))
        }
    }
}

fn as_int(value: &Value, name: &str) -> Result<i64, String> {
    value
        .as_i64()
        .filter(|v| v.abs() < BIG)
        .ok_or_else(|| format!("'{name}' is {value}; allowed: an integer"))
}

fn list<'a>(value: &'a Value, name: &str) -> Result<&'a Vec<Value>, String> {
    value
        .as_array()
        .ok_or_else(|| format!("'{name}' is {value}; allowed: a list"))
}

fn optional_seat(value: i64) -> Option<usize> {
    usize::try_from(value).ok()
}

pub fn restore(table: Arc<Table>, document: &Value) -> Result<BonBonRules, String> {
    let map = document
        .as_object()
        .ok_or_else(|| "a snapshot is an object".to_string())?;
    let saved = Saved(map);
    let n = table.players;
    let seats = n as i64 - 1;
    let kinds = table.deck.kinds.len() as i64;
    let phase_name = saved.field("phase")?;
    let phase = Phase::ALL
        .into_iter()
        .find(|p| phase_name.as_str() == Some(p.saved_name()))
        .ok_or_else(|| {
            format!(
                "'phase' is {phase_name}; allowed: {}",
                Phase::SAVED.join(", ")
            )
        })?;
    let last_scores = {
        let scores = saved.list("last_scores")?;
        if scores.len() != n {
            return Err(format!("field last_scores needs {n} entries"));
        }
        scores
            .iter()
            .map(|s| {
                if s.is_null() {
                    Ok(None)
                } else {
                    as_int(s, "last_scores").map(Some)
                }
            })
            .collect::<Result<Vec<_>, _>>()?
    };
    let tile_values = saved.ints("tiles", 0, i64::from(MAX_TILE_VALUE))?;
    let tile_values: Vec<u8> = tile_values.iter().map(|&v| v as u8).collect();
    let tiles = if tile_values.is_empty() {
        None
    } else {
        Some(
            table
                .triples
                .iter()
                .position(|t| t[..] == tile_values[..])
                .ok_or("three bonus tiles, ascending")?,
        )
    };
    if phase != Phase::Tiles && tiles.is_none() {
        return Err("three bonus tiles, ascending".to_string());
    }
    let status = saved
        .per_seat("status", n, 0, 2)?
        .into_iter()
        .map(|s| Status::ALL[s as usize])
        .collect();
    let mask_high = i64::from(table.all_seats);
    let runs = {
        let runs = saved.list("runs")?;
        if runs.len() != n {
            return Err("runs: one list per seat".to_string());
        }
        runs.iter()
            .map(|run| {
                list(run, "runs")?
                    .iter()
                    .map(|card| read_card(card, kinds, mask_high))
                    .collect::<Result<Vec<Card>, String>>()
            })
            .collect::<Result<Vec<_>, String>>()?
    };
    let counts = saved.ints("counts", 0, BIG)?;
    if counts.len() as i64 != kinds {
        return Err("counts: one non-negative count per kind".to_string());
    }
    let deck_left = saved.int("deck_left")?;
    if counts.iter().sum::<i64>() != deck_left {
        return Err("deck_left differs from the counts".to_string());
    }
    let counts: Vec<u32> = counts.iter().map(|&c| c as u32).collect();
    let full: Vec<u32> = table.deck.kinds.iter().map(|k| k.count).collect();
    if deck_left == i64::from(table.deck_size) && counts != full {
        return Err("a deck of full size is the whole deck".to_string());
    }
    let drawn = optional_seat(saved.in_range("drawn", -1, kinds - 1)?);
    let peek_kind = optional_seat(saved.in_range("peek_kind", -1, kinds - 1)?);
    let peeker = saved.in_range("peeker", -1, seats)?;
    let peek = match (peek_kind, optional_seat(peeker)) {
        (Some(kind), Some(by)) if counts[kind] > 0 => Some((kind, by)),
        (None, None) => None,
        _ => return Err("a peek needs its peeker, and its card in the deck".to_string()),
    };
    if matches!(phase, Phase::Place | Phase::Gifting) && drawn.is_none() {
        return Err("no drawn card to play".to_string());
    }
    let state = BonBonRules {
        wins: saved.per_seat("wins", n, 0, BIG)?,
        rounds_played: saved.in_range("rounds_played", 0, BIG)?,
        round_starter: saved.in_range("round_starter", 0, seats)? as usize,
        last_drawer: optional_seat(saved.in_range("last_drawer", -1, seats)?),
        last_scores,
        last_cards: saved.per_seat("last_cards", n, 0, BIG)?,
        last_winners: saved
            .ints("last_winners", 0, seats)?
            .into_iter()
            .map(|s| s as usize)
            .collect(),
        winners: saved
            .ints("winners", 0, seats)?
            .into_iter()
            .map(|s| s as usize)
            .collect(),
        phase,
        turn: saved.in_range("turn", 0, seats)? as usize,
        tiles,
        tiles_open: saved.flag("tiles_open")?,
        tile_taken: saved
            .per_seat("tile_taken", n, -1, i64::from(MAX_TILE_VALUE))?
            .into_iter()
            .map(|t| (t >= 0).then_some(t))
            .collect(),
        status,
        runs,
        up_total: saved.per_seat("up_total", n, -BIG, BIG)?,
        marker: saved.int("marker")?,
        counts,
        deck_left: deck_left as u32,
        drawn,
        drawn_mask: saved.in_range("drawn_mask", 0, mask_high)? as u8,
        peek,
        table,
    };
    check_playable(&state)?;
    Ok(state)
}

fn read_card(card: &Value, kinds: i64, mask_high: i64) -> Result<Card, String> {
    let fields = list(card, "runs")?;
    let bad = || format!("bad card {card}");
    let [kind, up, mask] = fields.as_slice() else {
        return Err(format!("'runs' needs 3 items, not {}", fields.len()));
    };
    let kind = kind
        .as_i64()
        .filter(|k| (0..kinds).contains(k))
        .ok_or_else(bad)?;
    let up = up.as_bool().ok_or_else(bad)?;
    let mask = mask
        .as_i64()
        .filter(|m| (0..=mask_high).contains(m))
        .ok_or_else(|| format!("bad card mask {mask}"))?;
    Ok(Card {
        kind: kind as usize,
        up,
        seen_by: mask as u8,
    })
}

/// Every node the document may be at has something to play: a card to draw, a seat to give or
/// to catch.
fn check_playable(state: &BonBonRules) -> Result<(), String> {
    let playable = match state.phase {
        Phase::Drawing => state.peek.is_some() || state.deck_left > 0,
        Phase::Peeking => state.deck_left > 0,
        Phase::Gifting | Phase::Catching => state.others_in_play().next().is_some(),
        _ => true,
    };
    if playable {
        Ok(())
    } else {
        Err(format!(
            "nothing can be played in phase {}",
            state.phase.saved_name()
        ))
    }
}
