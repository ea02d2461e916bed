//! The greedy heuristic of Bond O Cones, the twin of `boneyard/games/bondo_cones/heuristic.py`'s
//! `evaluate(state, seat)`: material (scores and rings) minus exposure (what the opponent's next
//! roll could take), over the target, read from what `seat` sees alone (`seen_cones`: the
//! opponent's values only where spied, its cones only once its set-up is done), never the hidden
//! values.

use super::board::{Bits, ConeBoards, SQUARES};
use super::observation::{seen_cones, SeenCone, Viewer};
use super::rules::{BondoConesRules, DRAW};

/// `RING_WORTH`: how many points a ring is worth to its holder.
pub(super) const RING_WORTH: f64 = 3.0;

/// `evaluate(state, seat)`: a value in (-1, 1) for `seat` (the end's result once decided).
pub fn evaluate(state: &BondoConesRules, seat: usize) -> f64 {
    if let Some(winner) = state.winner {
        return if winner == DRAW {
            0.0
        } else if usize::from(winner) == seat {
            1.0
        } else {
            -1.0
        };
    }
    let cones: Vec<SeenCone> = seen_cones(state, Viewer::Seat(seat)).collect();
    let mut board = ConeBoards::default();
    for cone in &cones {
        board.put_cone(cone.seat, cone.square, cone.rings);
    }
    let mut points = material(state, seat, &cones);
    // The opponent's next roll threatens fully on its turn, and half as much from ours.
    let weight = if state.turn_player == 1 - seat {
        1.0
    } else {
        0.5
    };
    points -= weight * exposure(seat, &cones, &board);
    let value = points / (f64::from(state.config.target) + 2.0 * RING_WORTH);
    value.clamp(-0.99, 0.99)
}

/// Points ahead plus the worth of the rings each side holds, for `seat`.
fn material(state: &BondoConesRules, seat: usize, cones: &[SeenCone]) -> f64 {
    let mut rings = [0i64; 2];
    for cone in cones {
        rings[cone.seat] += i64::from(cone.rings);
    }
    let scores = state.scores;
    (f64::from(scores[seat]) - f64::from(scores[1 - seat]))
        + RING_WORTH * (rings[seat] - rings[1 - seat]) as f64
}

/// Expected points `seat` stands to lose to the opponent's next roll: per roll 1-4 the most its
/// hit cones worth 2 or more are worth, over six faces.
fn exposure(seat: usize, cones: &[SeenCone], board: &ConeBoards) -> f64 {
    let mut worths: Vec<(Bits, f64)> = Vec::new();
    let mut valuable: Bits = 0;
    for cone in cones.iter().filter(|cone| cone.seat == seat) {
        let worth = f64::from(cone.value.unwrap_or(0)) + RING_WORTH * f64::from(cone.rings);
        if worth >= 2.0 {
            let bit: Bits = 1 << cone.square;
            worths.push((bit, worth));
            valuable |= bit;
        }
    }
    if valuable == 0 {
        return 0.0;
    }
    let hits = hit_masks(board, 1 - seat, valuable);
    if hits[1] | hits[2] | hits[3] | hits[4] == 0 {
        return 0.0;
    }
    let mut lost_by_roll = [0.0f64; 5];
    for &(bit, worth) in &worths {
        for roll in 1..5 {
            if hits[roll] & bit != 0 && worth > lost_by_roll[roll] {
                lost_by_roll[roll] = worth;
            }
        }
    }
    lost_by_roll.iter().sum::<f64>() / 6.0
}

/// `Cones.hit_masks`: per roll 1-4 the other side's cones within `targets` that `attacker` could
/// capture with it (the captures among its cone moves).
fn hit_masks(board: &ConeBoards, attacker: usize, targets: Bits) -> [Bits; 5] {
    let defender = board.cones[1 - attacker] & targets;
    let mut hits = [0; 5];
    if defender == 0 {
        return hits;
    }
    for (roll, hit) in hits.iter_mut().enumerate().skip(1) {
        for action in board.cone_moves(attacker, roll) {
            let target = action as usize % SQUARES;
            *hit |= defender & (1 << target);
        }
    }
    hits
}
