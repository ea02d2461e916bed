//! What the bots' evaluation of the two-player game uses (`boneyard/games/oyno/heuristic.py`,
//! number for number): each side's progress counts placed bones twice and up bones once, a side
//! to move that wins next move (with no luck needed) is worth 0.9 to it, a finished game +-1
//! (a draw 0).

use super::board::CellMask;
use super::duel::DuelRules;

/// Whether `player`, to move, has a winning action that needs no luck: one own bone down and
/// none left in supply (flip it), or one bone left in supply with every own bone up (the forced
/// place wins on an empty cell next to no own bone).
pub fn wins_next<M: CellMask>(
    occupied: [M; 2],
    up: M,
    supply: [u32; 2],
    player: usize,
    neighbours: &[M],
    resting: M,
) -> bool {
    let own = occupied[player];
    let down = own & !up;
    if supply[player] == 0 {
        return down.count() == 1;
    }
    if supply[player] == 1 && down.is_empty() {
        let empty = resting & !(occupied[0] | occupied[1]);
        return empty
            .cells()
            .any(|cell| (neighbours[cell] & own).is_empty());
    }
    false
}

/// `duel_score`: the value of a running game for `seat`, strictly inside (-1, 1), read as the
/// Python reads the observation: a bone being rolled is not on the board yet.
pub fn duel_score<M: CellMask>(state: &DuelRules<M>, seat: usize) -> f64 {
    let board = &state.setup.board;
    let player = state.player;
    let rolled = state.rolling.map_or(M::EMPTY, M::bit);
    let occupied = state.occupied.map(|mask| mask & !rolled);
    let up = state.up & !rolled;
    if wins_next(
        occupied,
        up,
        state.supply,
        player,
        &board.neighbours,
        board.resting,
    ) {
        return if player == seat { 0.9 } else { -0.9 };
    }
    let per_player = state.setup.bones_per_player;
    let other = 1 - seat;
    let progress = |s: usize| {
        i64::from(2 * (per_player - state.supply[s])) + i64::from((occupied[s] & up).count())
    };
    let (mut mine, mut theirs) = (progress(seat), progress(other));
    if state.supply[player] > 0 && (occupied[player] & !up).is_empty() {
        // the player to move must place: a bone comes out of its supply next
        if player == seat {
            mine += 1;
        } else {
            theirs += 1;
        }
    }
    0.8 * (mine - theirs) as f64 / f64::from(3 * per_player + 1)
}

/// `DuelHeuristic.evaluate`: +-1 (a draw 0) once the game is over, `duel_score` before.
pub fn evaluate<M: CellMask>(state: &DuelRules<M>, seat: usize) -> f64 {
    if let Some(winner) = state.winner {
        return if winner == seat { 1.0 } else { -1.0 };
    }
    if state.draw {
        return 0.0;
    }
    duel_score(state, seat)
}
