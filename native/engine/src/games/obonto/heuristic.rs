//! The Obonto heuristic the bots use (`boneyard/games/obonto/heuristic.py`, number for number):
//! points already won plus an estimate of the game under way. During play it weighs, for the seat
//! against its opponent, **mobility** (legal moves now) and **room** (light empty squares its
//! animals reach before the opponent's: a flood over light squares from both sides at once, one
//! step a round, squares reached in the same round counting for nobody). In the solo phase the
//! winner's points are 1 + its solo moves + half the light empty squares it can still reach. The
//! value is clipped into the match's utility range.

use super::notation::{SIZE, SQUARES};
use super::rules::ObontoRules;

pub const MOBILITY_WEIGHT: f64 = 0.2;
pub const ROOM_WEIGHT: f64 = 0.2;
pub const SOLO_REMAINING_SHARE: f64 = 0.5;
/// `MAX_MOVES_PER_GAME + 1` of the Python rules: 77 light squares less 6 animals, and one for a
/// game whose first player is stuck before anyone moves.
pub const MAX_SCORE_PER_GAME: u32 = 72;

const FULL: u128 = (1 << SQUARES) - 1;

const fn file_mask(file: usize) -> u128 {
    let mut mask = 0;
    let mut rank = 0;
    while rank < SIZE {
        mask |= 1 << (rank * SIZE + file);
        rank += 1;
    }
    mask
}

const NOT_FILE_A: u128 = FULL & !file_mask(0);
const NOT_FILE_I: u128 = FULL & !file_mask(SIZE - 1);

/// The squares one orthogonal step from `squares` (and `squares` themselves), on the board.
fn grow(squares: u128) -> u128 {
    (squares
        | (squares << SIZE)
        | (squares >> SIZE)
        | ((squares & NOT_FILE_I) << 1)
        | ((squares & NOT_FILE_A) >> 1))
        & FULL
}

fn seeds(animals: &[u8; 6], seat: usize) -> u128 {
    animals[seat * 3..seat * 3 + 3]
        .iter()
        .fold(0, |mask, &square| mask | 1 << square)
}

/// How many light empty squares `seat`'s animals can reach by any chain of light squares.
pub fn reachable_light(dark: u128, animals: &[u8; 6], seat: usize) -> u32 {
    let light = FULL & !dark;
    let mut region = seeds(animals, seat);
    loop {
        let grown = grow(region) & light;
        if grown == region {
            break;
        }
        region = grown;
    }
    let occupied = seeds(animals, 0) | seeds(animals, 1);
    (region & !occupied).count_ones()
}

/// Light empty squares `seat` reaches first minus those the opponent reaches first.
pub fn room_difference(dark: u128, animals: &[u8; 6], seat: usize) -> i64 {
    let light = FULL & !dark;
    let (mut mine, mut theirs) = (seeds(animals, seat), seeds(animals, 1 - seat));
    let mut claimed = mine | theirs;
    let (mut own, mut other) = (mine, theirs);
    loop {
        let new_mine = grow(mine) & light & !claimed;
        let new_theirs = grow(theirs) & light & !claimed;
        if new_mine | new_theirs == 0 {
            break;
        }
        let contested = new_mine & new_theirs;
        mine = new_mine & !contested;
        theirs = new_theirs & !contested;
        own |= mine;
        other |= theirs;
        claimed |= new_mine | new_theirs;
    }
    let occupied = seeds(animals, 0) | seeds(animals, 1);
    i64::from((own & !occupied).count_ones()) - i64::from((other & !occupied).count_ones())
}

/// The match's utility range: `Game.utility_range()` of the Python rules.
pub fn utility_range(games: u32, target: u32) -> (f64, f64) {
    let mut bound = MAX_SCORE_PER_GAME * games;
    if target > 0 {
        // Before the last game both totals are below target.
        bound = bound.min(target - 1 + MAX_SCORE_PER_GAME);
    }
    (-f64::from(bound), f64::from(bound))
}

/// `evaluate(state, seat)`: a value of `state` for `seat`, inside the utility range.
pub fn evaluate(state: &ObontoRules, seat: usize) -> f64 {
    let (low, high) = utility_range(state.match_rules.games, state.match_rules.target);
    let mut value = f64::from(state.totals[seat]) - f64::from(state.totals[1 - seat]);
    match (state.phase(), state.loser) {
        ("solo", Some(loser)) => {
            let winner = 1 - usize::from(loser);
            let remaining = SOLO_REMAINING_SHARE
                * f64::from(reachable_light(state.dark, &state.animals, winner));
            let points = 1.0 + f64::from(state.solo_moves) + remaining;
            value += if winner == seat { points } else { -points };
        }
        ("play", _) => {
            let to_move = usize::from(state.to_move);
            let mover = state.mobility(state.to_move) as f64;
            let waiting = state.mobility(1 - state.to_move) as f64;
            let (own, other) = if seat == to_move {
                (mover, waiting)
            } else {
                (waiting, mover)
            };
            value += MOBILITY_WEIGHT * (own - other);
            value += ROOM_WEIGHT * room_difference(state.dark, &state.animals, seat) as f64;
        }
        _ => {}
    }
    value.clamp(low, high)
}
