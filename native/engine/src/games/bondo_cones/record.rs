//! The saved record of a Bond O Cones state: field for field the Python engine's snapshot
//! (`to_json()["snapshot"]`, `boneyard.core.record`), so either engine reads the other's
//! document, and its restore checked as `BondoConesState._after_restore` checks it, with the
//! same words: a document that breaks what the rules keep true is refused.

use std::sync::Arc;

use serde_json::{json, Value};

use super::board::SQUARES;
use super::notation::{self as nt, square_name};
use super::rules::{
    BondoConesRules, Config, Phase, DRAW, PEEKED, PUTS, SETUP_DONE, SPIED, VALUES, WINDOW,
};

impl BondoConesRules {
    /// The saved record, field for field the Python engine's `to_json()["snapshot"]`.
    pub fn saved_record(&self) -> Value {
        let or_minus_one = |value: Option<i64>| value.unwrap_or(-1);
        json!({
            "owner": self.owner.as_slice(),
            "value": self.value.as_slice(),
            "rings": self.rings.as_slice(),
            "flags": self.flags.as_slice(),
            "scores": self.scores,
            "captured": self.captured,
            "phase": self.phase.name(),
            "actor": self.actor,
            "turn_player": self.turn_player,
            "setup_progress": self.setup_progress,
            "die": or_minus_one(self.die.map(|d| d as i64)),
            "windows": self.windows,
            "set_aside": self.set_aside,
            "turns": self.turns,
            "first": or_minus_one(self.first.map(i64::from)),
            "winner": or_minus_one(self.winner.map(i64::from)),
            "last_move": self.last_move.map(|(origin, target)| [origin, target]),
            "last_peek": or_minus_one(self.last_peek.map(i64::from)),
        })
    }

    /// A state from a saved record, checked as the Python engine's `restore` and
    /// `_after_restore` check it (the same words): a document that breaks what the rules keep
    /// true is refused.
    pub fn restore(config: Arc<Config>, saved: &Value) -> Result<BondoConesRules, String> {
        let Some(saved) = saved.as_object() else {
            return Err(format!(
                "a snapshot is an object, not {}",
                python_type_name(saved)
            ));
        };
        let field = |name: &str| {
            saved
                .get(name)
                .ok_or_else(|| format!("the snapshot lacks '{name}'"))
        };
        // The types first, in the record's order, as `record.restore` decodes them.
        let owner = int_list(field("owner")?, "owner")?;
        let value = int_list(field("value")?, "value")?;
        let rings = int_list(field("rings")?, "rings")?;
        let flags = int_list(field("flags")?, "flags")?;
        let scores = int_list(field("scores")?, "scores")?;
        let captured = match field("captured")? {
            Value::Array(items) => items
                .iter()
                .map(|item| int_list(item, "captured"))
                .collect::<Result<Vec<_>, _>>()?,
            other => return Err(not_allowed("captured", other, "a list")),
        };
        let phase_value = field("phase")?;
        let phase = phase_value
            .as_str()
            .and_then(Phase::named)
            .ok_or_else(|| not_allowed("phase", phase_value, &Phase::NAMES.join(", ")))?;
        let actor = int(field("actor")?, "actor")?;
        let turn_player = int(field("turn_player")?, "turn_player")?;
        let setup_progress = int_list(field("setup_progress")?, "setup_progress")?;
        let die = int(field("die")?, "die")?;
        let windows = int_list(field("windows")?, "windows")?;
        let set_aside = match field("set_aside")? {
            Value::Bool(flag) => *flag,
            other => return Err(not_allowed("set_aside", other, "true or false")),
        };
        let turns = int(field("turns")?, "turns")?;
        let first = int(field("first")?, "first")?;
        let winner = int(field("winner")?, "winner")?;
        let last_move = match field("last_move")? {
            Value::Null => None,
            Value::Array(items) if items.len() == 2 => {
                Some((int(&items[0], "last_move")?, int(&items[1], "last_move")?))
            }
            Value::Array(items) => {
                return Err(format!("'last_move' needs 2 items, not {}", items.len()))
            }
            other => return Err(not_allowed("last_move", other, "a list")),
        };
        let last_peek = int(field("last_peek")?, "last_peek")?;

        // Then what `_after_restore` checks, in its order.
        let squares = SQUARES as i64;
        for (name, items, length, low, high) in [
            ("owner", &owner, squares, -1, 1),
            ("value", &value, squares, -1, 8),
            ("rings", &rings, squares, 0, 2),
            ("flags", &flags, squares, 0, i64::from(PEEKED | SPIED)),
            ("scores", &scores, 2, 0, 41),
            (
                "setup_progress",
                &setup_progress,
                2,
                0,
                i64::from(SETUP_DONE),
            ),
            ("windows", &windows, 2, 0, i64::from(WINDOW)),
        ] {
            if items.len() as i64 != length {
                return Err(format!("'{name}' must be a list of {length} integers"));
            }
            for &item in items {
                in_range(item, name, low, high)?;
            }
        }
        let mut state = BondoConesRules::new(config);
        for sq in 0..SQUARES {
            if owner[sq] >= 0 {
                if !VALUES.contains(&(value[sq] as u8)) || value[sq] < 0 {
                    return Err(format!(
                        "cone on {} has value {}",
                        square_name(sq),
                        value[sq]
                    ));
                }
                state.place(sq, owner[sq] as usize, value[sq] as u8, rings[sq] as u8);
                state.flags[sq] = flags[sq] as u8;
            } else if value[sq] != -1 || rings[sq] != 0 || flags[sq] != 0 {
                return Err(format!("empty square {} has cone data", square_name(sq)));
            }
        }
        if captured.len() != 2 {
            return Err("'captured' must be two lists of values".to_string());
        }
        for (seat, taken) in captured.iter().enumerate() {
            for &item in taken {
                in_range(item, "captured", 0, 8)?;
            }
            state.captured[seat] = taken.iter().map(|&v| v as u8).collect();
        }
        let max_turns = i64::from(state.config.max_turns);
        for (name, item, low, high) in [
            ("actor", actor, 0, 1),
            ("turn_player", turn_player, 0, 1),
            ("die", die, -1, 5),
            ("turns", turns, 0, max_turns),
            ("first", first, -1, 1),
            ("winner", winner, -1, i64::from(DRAW)),
            ("last_peek", last_peek, -1, squares - 1),
        ] {
            in_range(item, name, low, high)?;
        }
        if let Some((origin, target)) = last_move {
            in_range(origin, "last_move", 0, squares - 1)?;
            in_range(target, "last_move", 0, squares - 1)?;
        }
        if phase == Phase::Act && die < 0 {
            return Err("phase 'act' needs a die".to_string());
        }
        state.scores = [scores[0] as u32, scores[1] as u32];
        state.phase = phase;
        state.actor = actor as usize;
        state.turn_player = turn_player as usize;
        state.setup_progress = [setup_progress[0] as u8, setup_progress[1] as u8];
        state.die = usize::try_from(die).ok();
        state.windows = [windows[0] as u8, windows[1] as u8];
        state.set_aside = set_aside;
        state.turns = turns as u32;
        state.first = u8::try_from(first).ok();
        state.winner = u8::try_from(winner).ok();
        state.last_move = last_move.map(|(origin, target)| (origin as u8, target as u8));
        state.last_peek = u8::try_from(last_peek).ok();
        state.check_coherent()?;
        Ok(state)
    }

    /// What the rules keep true that a restored snapshot might break (`_check_coherent`).
    fn check_coherent(&self) -> Result<(), String> {
        let progress = self.setup_progress;
        let own = progress[self.actor] as usize;
        if self.phase == Phase::SetupPut && own >= PUTS {
            return Err("phase 'setup_put' for a seat that has placed its cones".to_string());
        }
        if self.phase == Phase::SetupRing && own != PUTS {
            return Err("phase 'setup_ring' before the cones are placed".to_string());
        }
        if self.phase > Phase::SetupRing && progress != [SETUP_DONE, SETUP_DONE] {
            return Err(format!(
                "phase '{}' before both set-ups are done",
                self.phase.name()
            ));
        }
        for seat in 0..2 {
            let mut count = [0i32; 9];
            for &v in &VALUES {
                count[v as usize] -= 1;
            }
            for sq in 0..SQUARES {
                if self.owner[sq] == seat as i8 {
                    count[self.value[sq] as usize] += 1;
                }
            }
            for &v in &self.captured[1 - seat] {
                count[v as usize] += 1;
            }
            if count.iter().any(|&c| c > 0) {
                return Err(format!("seat {seat} has cones beyond its 26 values"));
            }
        }
        let rings: u32 = self.rings.iter().map(|&r| u32::from(r)).sum();
        if rings + u32::from(self.set_aside) > 2 {
            return Err("more than two rings".to_string());
        }
        Ok(())
    }
}

fn python_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

/// A JSON value as Python's `repr` shows it (for the messages).
fn python_shown(value: &Value) -> String {
    match value {
        Value::Null => "None".to_string(),
        Value::Bool(true) => "True".to_string(),
        Value::Bool(false) => "False".to_string(),
        Value::String(text) => nt::python_repr(text),
        other => other.to_string(),
    }
}

fn not_allowed(name: &str, value: &Value, allowed: &str) -> String {
    format!("'{name}' is {}; allowed: {allowed}", python_shown(value))
}

fn int(value: &Value, name: &str) -> Result<i64, String> {
    match value {
        Value::Number(n) if n.is_i64() || n.is_u64() => {
            // A whole number beyond i64 is out of every range: keep it as the largest.
            Ok(n.as_i64().unwrap_or(i64::MAX))
        }
        other => Err(not_allowed(name, other, "an integer")),
    }
}

fn int_list(value: &Value, name: &str) -> Result<Vec<i64>, String> {
    match value {
        Value::Array(items) => items.iter().map(|item| int(item, name)).collect(),
        other => Err(not_allowed(name, other, "a list")),
    }
}

fn in_range(item: i64, name: &str, low: i64, high: i64) -> Result<i64, String> {
    if (low..=high).contains(&item) {
        Ok(item)
    } else {
        Err(format!("'{name}' is {item}; allowed are {low} to {high}"))
    }
}
