//! Fewest-move search for the OYNO puzzle on bit masks (`boneyard/games/oyno/search.py`): a
//! breadth-first search forward from the position, level by level, each position seen once.
//! The difficulty generator asks only how long the best solution is, so no path is kept.

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

use super::board::{Board, CellMask, WordHasher};

/// The masks after moving the up bone on `from` to the empty cell `to` (the puzzle's move).
pub fn apply_move<M: CellMask>(
    board: &Board<M>,
    occupied: M,
    up: M,
    from: usize,
    to: usize,
) -> (M, M) {
    let neighbours = &board.neighbours;
    let left = occupied & !M::bit(from);
    let up = (up & !M::bit(from)) ^ (neighbours[from] & left);
    let up = (up | M::bit(to)) ^ (neighbours[to] & left);
    (left | M::bit(to), up)
}

/// How many moves the best solution of `(occupied, up)` takes, if it takes at most
/// `max_length`; `None` when it takes more or the position cannot be solved.
pub fn optimal_length<M: CellMask>(
    board: &Board<M>,
    occupied: M,
    up: M,
    max_length: u32,
) -> Option<u32> {
    if up == occupied {
        return Some(0);
    }
    let mut seen: HashSet<(M, M), BuildHasherDefault<WordHasher>> = HashSet::default();
    seen.insert((occupied, up));
    let mut level = vec![(occupied, up)];
    for depth in 1..=max_length {
        let mut next = Vec::new();
        for &(occupied, up) in &level {
            let empty = board.resting & !occupied;
            for from in up.cells() {
                for to in empty.cells() {
                    let after = apply_move(board, occupied, up, from, to);
                    if after.0 == after.1 {
                        return Some(depth);
                    }
                    // the last level is only searched for a finish, never kept
                    if depth < max_length && seen.insert(after) {
                        next.push(after);
                    }
                }
            }
        }
        if next.is_empty() {
            return None;
        }
        level = next;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_solutions_have_their_known_lengths() {
        let board = Board::<u64>::new(5).unwrap();
        // a1 up, c1 down: a1-d1 lands beside c1 and turns it up, one move
        let (occupied, up) = (1u64 | 1 << 2, 1u64);
        assert_eq!(optimal_length(&board, occupied, up, 5), Some(1));
        assert_eq!(optimal_length(&board, occupied, up, 0), None);
        assert_eq!(optimal_length(&board, up, up, 3), Some(0));
    }
}
