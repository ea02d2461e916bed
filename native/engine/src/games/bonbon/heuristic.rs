//! The greedy heuristic of Bon-Bon, the twin of `boneyard/games/bonbon/heuristic.py`'s
//! `evaluate(state, seat)`: (chocolates won + the seat's share of the round) / 3, the share
//! estimated from what `seat` sees alone (cards it does not know count at the mean of its unseen
//! cards, `observation::knows` and `unseen_counts` deciding which), never the hidden cards.

use super::observation::{knows, unseen_counts};
use super::rules::{holds, BonBonRules, Card, Phase, Status, PERSONAL_LIMIT, WINS_TO_WIN};
use crate::core::{Rules, TERMINAL};

/// The share of a trailing face-down card's value the estimate gives up.
const TRAILING_RISK: f64 = 0.25;

/// What `seat` sees, read once for every seat's estimate.
struct View<'a> {
    state: &'a BonBonRules,
    seat: usize,
    unseen: Vec<i64>,
}

impl View<'_> {
    fn value(&self, kind: usize) -> i64 {
        self.state.table.deck.kinds[kind].value
    }

    fn label(&self, kind: usize) -> &str {
        self.state.table.deck.kinds[kind].label.as_str()
    }

    fn knows(&self, card: &Card) -> bool {
        knows(card, Some(self.seat))
    }

    /// The room left under the tighter of `seat`'s personal limit and the collective limit.
    fn room(&self, seat: usize) -> i64 {
        let state = self.state;
        let personal = PERSONAL_LIMIT - state.wins[seat] - state.up_total[seat];
        personal.min(state.table.collective_limit - state.marker)
    }

    /// `_unseen_mean`.
    fn unseen_mean(&self) -> f64 {
        let cards: i64 = self.unseen.iter().sum();
        if cards == 0 {
            return 0.0;
        }
        let total: i64 = self
            .unseen
            .iter()
            .enumerate()
            .map(|(kind, &n)| self.value(kind) * n)
            .sum();
        total as f64 / cards as f64
    }

    /// `bust_probability(observation, seat)` for the viewing seat.
    fn bust_probability(&self) -> f64 {
        let state = self.state;
        let seat = self.seat;
        let chances: Vec<(usize, i64)> = match state.peek {
            Some((kind, peeker)) if peeker == seat => vec![(kind, 1)],
            _ => self
                .unseen
                .iter()
                .enumerate()
                .filter(|&(_, &n)| n != 0)
                .map(|(kind, &n)| (kind, n))
                .collect(),
        };
        let total: i64 = chances.iter().map(|&(_, n)| n).sum();
        if total == 0 {
            return 0.0;
        }
        let room = self.room(seat);
        let others_in_play = state
            .status
            .iter()
            .enumerate()
            .any(|(other, &status)| other != seat && status == Status::InPlay);
        let trailing: i64 = trailing_face_down(&state.runs[seat])
            .iter()
            .filter(|card| self.knows(card))
            .map(|card| self.value(card.kind))
            .sum();
        let mut breaking = 0;
        for &(kind, count) in &chances {
            let mut added = self.value(kind);
            match self.label(kind) {
                "wrapper" => added += trailing,
                "gift" if others_in_play => added = 0,
                _ => {}
            }
            if added > room {
                breaking += count;
            }
        }
        breaking as f64 / total as f64
    }

    /// `estimated_score(observation, seat)`: `seat`'s round score as the viewer can tell it.
    fn estimated_score(&self, seat: usize) -> f64 {
        let state = self.state;
        let mean = self.unseen_mean();
        let run = &state.runs[seat];
        let trailing = trailing_face_down(run).len();
        let mut total = 0.0;
        let mut group: i64 = 0;
        for (index, card) in run.iter().enumerate() {
            let value = if self.knows(card) {
                self.value(card.kind) as f64
            } else {
                mean
            };
            total += if index >= run.len() - trailing {
                value * (1.0 - TRAILING_RISK)
            } else {
                value
            };
            if card.up {
                total += (group - 1).max(0) as f64;
                group = 0;
            } else {
                group += 1;
            }
        }
        if let Some(kind) = state.drawn {
            if state.turn == seat && holds(state.drawn_mask, self.seat) {
                total += self.value(kind) as f64;
            }
        }
        let taken = state.tile_taken[seat].unwrap_or(0);
        total + (group - 1).max(0) as f64 + taken as f64
    }

    /// `_safe_gain`: the mean value of the unseen cards that would break no limit.
    fn safe_gain(&self) -> f64 {
        let room = self.room(self.seat);
        let (mut count, mut total) = (0i64, 0i64);
        for (kind, &n) in self.unseen.iter().enumerate() {
            let value = self.value(kind);
            if n != 0 && value <= room {
                count += n;
                total += value * n;
            }
        }
        if count == 0 {
            0.0
        } else {
            total as f64 / count as f64
        }
    }
}

/// The face-down cards after the run's last face-up card, last first.
fn trailing_face_down(run: &[Card]) -> Vec<Card> {
    run.iter()
        .rev()
        .take_while(|card| !card.up)
        .copied()
        .collect()
}

/// `evaluate(state, seat)`: the end's return, else a value in [0, 1] for `seat`.
pub fn evaluate(state: &BonBonRules, seat: usize) -> f64 {
    if state.current_player() == TERMINAL {
        return state.returns()[seat];
    }
    let view = View {
        state,
        seat,
        unseen: unseen_counts(state, Some(seat)),
    };
    let wins = state.wins[seat] as f64;
    let mut share = 0.0;
    if state.status[seat] != Status::Eliminated {
        let mine = view.estimated_score(seat);
        let best = (0..state.status.len())
            .filter(|&other| other != seat && state.status[other] != Status::Eliminated)
            .map(|other| view.estimated_score(other))
            .fold(None, |best: Option<f64>, score| {
                Some(best.map_or(score, |b| if score > b { score } else { b }))
            })
            .unwrap_or(0.0);
        let part = |score: f64| {
            if score + best > 0.0 {
                score / (score + best)
            } else {
                0.5
            }
        };
        if state.status[seat] == Status::Passed {
            share = part(mine);
        } else {
            let gain = view.safe_gain();
            let draw = (1.0 - view.bust_probability()) * part(mine + gain);
            if state.phase == Phase::Drawing && state.turn == seat {
                share = draw;
            } else {
                let best_tile = if state.tiles_open {
                    state.tile_values().iter().copied().max().unwrap_or(0)
                } else {
                    0
                };
                let pass = part(mine + f64::from(best_tile));
                share = if draw > pass { draw } else { pass };
            }
        }
    }
    ((wins + share) / WINS_TO_WIN as f64).clamp(0.0, 1.0)
}
