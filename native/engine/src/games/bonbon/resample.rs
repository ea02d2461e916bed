//! A full Bon-Bon state that a seat cannot tell from the real one, as `resample_observation`
//! in `boneyard/games/bonbon/rules.py` deals it, draw for draw from the same generator.
//!
//! Every card the seat has not seen (face-down cards of others, another's drawn card, another's
//! peek, the deck) is dealt from the unseen cards, shuffled once, keeping to what the seat can
//! infer: a face-down card is a plain chocolate that may be played face down (an effect card
//! shows itself by its effect, unless it was the card that emptied the deck), and a card still
//! being placed may be played face down.

use super::deck::Effect;
use super::observation::{knows, unseen_counts};
use super::rules::{holds, BonBonRules, Phase};
use crate::core::{python_shuffle, EngineError, Randomness};

/// The cards a seat has not seen, shuffled, dealt one at a time to a hidden card by what it may
/// be; `counts` keeps the deck's counts of those not dealt.
struct UnseenCards {
    pool: Vec<usize>,
    counts: Vec<i64>,
    seat: usize,
}

impl UnseenCards {
    /// The last card of the pool of a kind `allowed`, taken from the pool and the counts.
    fn deal(&mut self, allowed: impl Fn(usize) -> bool) -> Result<usize, EngineError> {
        let index = self
            .pool
            .iter()
            .rposition(|&kind| allowed(kind))
            .ok_or_else(|| {
                EngineError::InvalidState(format!(
                    "no unseen card fits the observation of seat {}",
                    self.seat
                ))
            })?;
        let kind = self.pool.remove(index);
        self.counts[kind] -= 1;
        Ok(kind)
    }
}

pub fn resample(
    state: &BonBonRules,
    seat: usize,
    rng: &mut dyn Randomness,
) -> Result<BonBonRules, EngineError> {
    let table = state.table.clone();
    if seat >= table.players {
        return Err(EngineError::BadSeat(format!(
            "bad seat {seat} for bonbon: seats are 0 to {}, or None for a spectator",
            table.players - 1
        )));
    }
    let kinds = &table.deck.kinds;
    let choosable = |kind: usize| !kinds[kind].face_up_only;
    let plain = |kind: usize| choosable(kind) && kinds[kind].effect == Effect::None;
    let counts = unseen_counts(state, Some(seat));
    let mut pool: Vec<usize> = counts
        .iter()
        .enumerate()
        .flat_map(|(kind, &count)| std::iter::repeat_n(kind, count.max(0) as usize))
        .collect();
    python_shuffle(rng, &mut pool);
    let mut unseen = UnseenCards { pool, counts, seat };
    let mut new = state.clone();

    // The card that emptied the deck may be anything its drawer could play face down.
    let special = match state.last_drawer {
        Some(last) if state.deck_left == 0 => state.runs[last]
            .last()
            .filter(|card| !knows(card, Some(seat)))
            .map(|_| (last, state.runs[last].len() - 1)),
        _ => None,
    };
    for (owner, run) in state.runs.iter().enumerate() {
        for (index, card) in run.iter().enumerate() {
            if !knows(card, Some(seat)) && Some((owner, index)) != special {
                new.runs[owner][index].kind = unseen.deal(plain)?;
            }
        }
    }
    if let Some((owner, index)) = special {
        new.runs[owner][index].kind = unseen.deal(choosable)?;
    }
    for card in new.runs.iter_mut().flatten() {
        if card.up {
            card.seen_by = table.all_seats;
        }
    }
    // The view shows a drawn card's seers only while it is being played.
    if state.drawn.is_none() {
        new.drawn_mask = 0;
    }
    if let Some(kind) = state.drawn {
        if !holds(state.drawn_mask, seat) {
            new.drawn = Some(unseen.deal(choosable)?);
        } else {
            new.drawn = Some(kind);
        }
    }
    if let Some((kind, peeker)) = state.peek {
        // The peeked card is still in the deck: it stays in the counts.
        let kind = if peeker == seat {
            kind
        } else {
            unseen.deal(|_| true)?
        };
        unseen.counts[kind] += 1;
        new.peek = Some((kind, peeker));
    }
    new.counts = unseen
        .counts
        .iter()
        .map(|&count| u32::try_from(count).unwrap_or(0))
        .collect();
    if matches!(state.phase, Phase::Tiles | Phase::Over) {
        new.turn = state.round_starter;
    }
    Ok(new)
}
