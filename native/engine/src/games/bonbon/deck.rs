//! Bon-Bon decks as data, as `boneyard/games/bonbon/deck.py` reads them: a TOML file with one
//! `[[card]]` table per kind of card (`name`, `value`, `count`, `face_up_only`, `effect`).
//!
//! The Python game has already checked the file (its errors are the ones a person sees); this
//! reader refuses anything it cannot use rather than guessing, and keeps the kinds in the
//! canonical order that fixes their chance-outcome ids: with `V` the highest value of a plain
//! chocolate, plain `v` is id `v`, face-up-only `v!` is `V + 1 + v`, and the effects follow at
//! `2 (V + 1)`: wrapper, peek, second, gift, caught.

use toml_edit::{DocumentMut, Item, TableLike};

use crate::core::{Action, EngineError};

/// The packaged deck (`deck = "default"`): the very file the Python engine reads.
const DEFAULT_DECK_TEXT: &str =
    include_str!("../../../../../src/boneyard/games/bonbon/decks/default.toml");
/// The `deck` parameter value that means the packaged deck.
const DEFAULT_DECK: &str = "default";
const MAX_VALUE: i64 = 99;
const MAX_CARDS: i64 = 500;

/// What a card does beyond its value; the order is that of the outcome ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Effect {
    None,
    Wrapper,
    Peek,
    Second,
    Gift,
    Caught,
}

/// The effects with their names in the deck file and in notation, in id order.
const EFFECTS: [(Effect, &str); 5] = [
    (Effect::Wrapper, "wrapper"),
    (Effect::Peek, "peek"),
    (Effect::Second, "second"),
    (Effect::Gift, "gift"),
    (Effect::Caught, "caught"),
];

impl Effect {
    fn named(name: &str) -> Option<Effect> {
        if name == "none" {
            return Some(Effect::None);
        }
        EFFECTS.iter().find(|&&(_, n)| n == name).map(|&(e, _)| e)
    }

    fn name(self) -> &'static str {
        EFFECTS
            .iter()
            .find(|&&(e, _)| e == self)
            .map_or("none", |&(_, n)| n)
    }

    /// The effect's place among the effects (wrapper 0 ... caught 4).
    fn index(self) -> usize {
        EFFECTS.iter().position(|&(e, _)| e == self).unwrap_or(0)
    }

    /// Wrapper, gift and caught cards can only lie face up.
    fn needs_face_up(self) -> bool {
        matches!(self, Effect::Wrapper | Effect::Gift | Effect::Caught)
    }
}

/// One kind of card: what a draw reveals.
#[derive(Clone, Debug, PartialEq)]
pub struct CardKind {
    /// The kind in notation: `3`, `3!`, `wrapper`, `peek`, ...
    pub label: String,
    pub value: i64,
    pub count: u32,
    pub face_up_only: bool,
    pub effect: Effect,
}

impl CardKind {
    fn sort_key(&self) -> (u8, i64) {
        match self.effect {
            Effect::None => (u8::from(self.face_up_only), self.value),
            effect => (2, effect.index() as i64),
        }
    }
}

/// The kinds of a deck in canonical order.
#[derive(Clone, Debug, PartialEq)]
pub struct Deck {
    pub kinds: Vec<CardKind>,
}

impl Deck {
    pub fn size(&self) -> u32 {
        self.kinds.iter().map(|kind| kind.count).sum()
    }

    fn max_plain_value(&self) -> i64 {
        self.kinds
            .iter()
            .filter(|kind| kind.effect == Effect::None)
            .map(|kind| kind.value)
            .max()
            .unwrap_or(0)
    }

    /// How many card outcome ids the deck's id scheme spans (the tile draws come after them).
    pub fn outcome_space(&self) -> Action {
        (2 * (self.max_plain_value() + 1)) as Action + EFFECTS.len() as Action
    }

    pub fn outcome_id(&self, kind: &CardKind) -> Action {
        let top = self.max_plain_value() + 1;
        let id = match kind.effect {
            Effect::None if kind.face_up_only => top + kind.value,
            Effect::None => kind.value,
            effect => 2 * top + effect.index() as i64,
        };
        id as Action
    }
}

/// The deck of the `deck` parameter: the packaged one, or the TOML file at that path.
pub fn load_deck(path: &str) -> Result<Deck, EngineError> {
    let text = if path == DEFAULT_DECK {
        DEFAULT_DECK_TEXT.to_string()
    } else {
        std::fs::read_to_string(path).map_err(|error| {
            EngineError::InvalidParameter(format!("deck {path:?}: cannot read it ({error})"))
        })?
    };
    parse_deck(&text)
        .map_err(|problem| EngineError::InvalidParameter(format!("deck {path:?}: {problem}")))
}

fn parse_deck(text: &str) -> Result<Deck, String> {
    let document: DocumentMut = text
        .parse()
        .map_err(|error| format!("not valid TOML: {error}"))?;
    let tables: Vec<&dyn TableLike> = match document.get("card") {
        Some(Item::ArrayOfTables(tables)) => tables.iter().map(|t| t as &dyn TableLike).collect(),
        Some(Item::Value(toml_edit::Value::Array(items))) => items
            .iter()
            .map(|item| item.as_inline_table().map(|t| t as &dyn TableLike))
            .collect::<Option<Vec<_>>>()
            .ok_or("a card is not a table")?,
        _ => return Err("needs [[card]] tables, one per kind of card".to_string()),
    };
    if tables.is_empty() {
        return Err("needs [[card]] tables, one per kind of card".to_string());
    }
    let mut kinds: Vec<CardKind> = Vec::with_capacity(tables.len());
    for (number, table) in tables.into_iter().enumerate() {
        let kind = card_kind(table).map_err(|problem| format!("card {}: {problem}", number + 1))?;
        if kinds.iter().any(|seen| seen.label == kind.label) {
            return Err(format!(
                "card {}: repeats kind {:?}",
                number + 1,
                kind.label
            ));
        }
        kinds.push(kind);
    }
    kinds.sort_by_key(CardKind::sort_key);
    let deck = Deck { kinds };
    if i64::from(deck.size()) > MAX_CARDS {
        return Err(format!("{} cards; at most {MAX_CARDS}", deck.size()));
    }
    Ok(deck)
}

fn card_kind(table: &dyn TableLike) -> Result<CardKind, String> {
    let integer = |field: &str, low: i64, high: i64| {
        table
            .get(field)
            .and_then(Item::as_integer)
            .filter(|n| (low..=high).contains(n))
            .ok_or(format!("field '{field}' is an integer {low} to {high}"))
    };
    let value = integer("value", 0, MAX_VALUE)?;
    let count = integer("count", 1, MAX_CARDS)? as u32;
    let face_up_only = table
        .get("face_up_only")
        .and_then(Item::as_bool)
        .ok_or("field 'face_up_only' is true or false")?;
    let effect = table
        .get("effect")
        .and_then(Item::as_str)
        .and_then(Effect::named)
        .ok_or("field 'effect' is one of none, wrapper, peek, second, gift, caught")?;
    if effect.needs_face_up() && !face_up_only {
        return Err(format!(
            "field 'face_up_only' must be true for a {} card",
            effect.name()
        ));
    }
    let label = match effect {
        Effect::None if face_up_only => format!("{value}!"),
        Effect::None => value.to_string(),
        effect => effect.name().to_string(),
    };
    Ok(CardKind {
        label,
        value,
        count,
        face_up_only,
        effect,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_deck_has_77_cards_in_canonical_order() {
        let deck = load_deck(DEFAULT_DECK).unwrap();
        assert_eq!(deck.size(), 77);
        let labels: Vec<&str> = deck.kinds.iter().map(|k| k.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "1", "2", "3", "4", "5", "3!", "4!", "5!", "6!", "wrapper", "peek", "second",
                "gift", "caught"
            ]
        );
        // V = 6: plain v is v, v! is 7 + v, the effects start at 14.
        let ids: Vec<Action> = deck.kinds.iter().map(|k| deck.outcome_id(k)).collect();
        assert_eq!(ids, [1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
        assert_eq!(deck.outcome_space(), 19);
    }

    #[test]
    fn a_wrapper_must_lie_face_up() {
        let text = "[[card]]\nname = \"w\"\nvalue = 0\ncount = 1\nface_up_only = false\neffect = \"wrapper\"\n";
        assert!(parse_deck(text).unwrap_err().contains("must be true"));
    }
}
