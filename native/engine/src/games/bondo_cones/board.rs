//! Bond O Cones board geometry, the cones on bitboards, and move generation, as
//! `boneyard/games/bondo_cones/board.py` states them.
//!
//! A bitboard is a `u128` whose bit `sq` stands for square `sq` (`rank0 * 10 + file0`; 120 squares
//! fit in one word). Ordinary cones move by shifting whole bitboards a step at a time in each of
//! the eight directions; BondO cones walk king steps without revisiting a square, found by a
//! depth-first search that stops exploring a branch once every square it could still end on is
//! already known to be reachable. Every table is a constant, worked out by the compiler.

use crate::core::Action;

pub const WIDTH: usize = 10;
pub const HEIGHT: usize = 12;
pub const SQUARES: usize = WIDTH * HEIGHT;

/// A set of squares, bit `sq` for square `sq`.
pub type Bits = u128;

pub const BOARD: Bits = (1 << SQUARES) - 1;

const fn file_mask(file: usize) -> Bits {
    let mut mask = 0;
    let mut rank = 0;
    while rank < HEIGHT {
        mask |= 1 << (rank * WIDTH + file);
        rank += 1;
    }
    mask
}

const NOT_A: Bits = BOARD & !file_mask(0);
const NOT_J: Bits = BOARD & !file_mask(WIDTH - 1);

/// The eight directions as (file step, rank step), in `board.DIRECTIONS`' order.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Per direction: the index step and the mask that removes squares wrapped around a side.
const SHIFTS: [(i32, Bits); 8] = {
    let mut shifts = [(0, 0); 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRECTIONS[d];
        let wrap = if df == 1 {
            NOT_A
        } else if df == -1 {
            NOT_J
        } else {
            BOARD
        };
        shifts[d] = (df + dr * WIDTH as i32, wrap);
        d += 1;
    }
    shifts
};

/// `bits` moved `delta` squares up the index (down where negative); bits pushed past the top of
/// the word fall away, and the caller's wrap mask removes those past square 119.
#[inline]
fn shift(bits: Bits, delta: i32) -> Bits {
    if delta > 0 {
        bits << delta
    } else {
        bits >> -delta
    }
}

/// Each square's king neighbours.
pub static KING_MASK: [Bits; SQUARES] = {
    let mut masks = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = ((sq % WIDTH) as i32, (sq / WIDTH) as i32);
        let mut d = 0;
        while d < 8 {
            let (f, r) = (file + DIRECTIONS[d].0, rank + DIRECTIONS[d].1);
            if f >= 0 && f < WIDTH as i32 && r >= 0 && r < HEIGHT as i32 {
                masks[sq] |= 1 << (r as usize * WIDTH + f as usize);
            }
            d += 1;
        }
        sq += 1;
    }
    masks
};

/// The longest walk: a Double BondO rolling 4.
pub const MAX_STEPS: usize = 8;

/// `BALL[sq][r]`: the squares within `r` king steps of `sq` on an empty board.
static BALL: [[Bits; MAX_STEPS + 1]; SQUARES] = {
    let mut balls = [[0; MAX_STEPS + 1]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = ((sq % WIDTH) as i32, (sq / WIDTH) as i32);
        let mut other = 0;
        while other < SQUARES {
            let df = (other % WIDTH) as i32 - file;
            let dr = (other / WIDTH) as i32 - rank;
            let distance = if df.abs() > dr.abs() {
                df.abs()
            } else {
                dr.abs()
            };
            let mut radius = distance as usize;
            while radius <= MAX_STEPS {
                balls[sq][radius] |= 1 << other;
                radius += 1;
            }
            other += 1;
        }
        sq += 1;
    }
    balls
};

// ----- start fields ------------------------------------------------------------------------------

/// The start fields of black (seat 0) from its own side: all of rank 1, b-i of rank 2, c-h of
/// rank 3, d and g of rank 4. White's are the same ranks counted from the top.
const START_ROWS: [(&str, usize); 4] =
    [("abcdefghij", 0), ("bcdefghi", 1), ("cdefgh", 2), ("dg", 3)];

/// Each seat's 26 start fields, as sorted square indices.
pub const START_FIELDS: [[u8; 26]; 2] = {
    let mut fields = [[0u8; 26]; 2];
    let mut seat = 0;
    while seat < 2 {
        let mut mask: Bits = 0;
        let mut row = 0;
        while row < START_ROWS.len() {
            let (files, rank_from_home) = START_ROWS[row];
            let rank = if seat == 0 {
                rank_from_home
            } else {
                HEIGHT - 1 - rank_from_home
            };
            let bytes = files.as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                mask |= 1 << (rank * WIDTH + (bytes[i] - b'a') as usize);
                i += 1;
            }
            row += 1;
        }
        let mut count = 0;
        let mut sq = 0;
        while sq < SQUARES {
            if mask & (1 << sq) != 0 {
                fields[seat][count] = sq as u8;
                count += 1;
            }
            sq += 1;
        }
        seat += 1;
    }
    fields
};

/// d4, g4 for seat 0; d9, g9 for seat 1: where the ring starts.
pub const RED_FIELDS: [[u8; 2]; 2] = [[33, 36], [83, 86]];

// ----- move generation ---------------------------------------------------------------------------

/// The squares of a bitboard, in increasing order.
pub fn squares_of(mut bits: Bits) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let square = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        Some(square)
    })
}

/// Where the cones of `movers` go on a straight move of `steps`, added per origin to `reach`
/// (and the origins to `origins`): every square before the last in `empty`, the last in
/// `target`. All cones move at once, a shift of the whole bitboard per step and direction.
fn straight_reach(
    movers: Bits,
    empty: Bits,
    target: Bits,
    steps: usize,
    reach: &mut [Bits; SQUARES],
    origins: &mut Bits,
) {
    for &(delta, wrap) in &SHIFTS {
        let through = wrap & empty;
        let mut front = movers;
        for _ in 1..steps {
            front = shift(front, delta) & through;
        }
        front = shift(front, delta) & wrap & target;
        let travelled = delta * steps as i32;
        for to in squares_of(front) {
            let from = (to as i32 - travelled) as usize;
            reach[from] |= 1 << to;
            *origins |= 1 << from;
        }
    }
}

/// The squares next to any square of `mask`.
fn expand(mask: Bits) -> Bits {
    squares_of(mask).fold(0, |grown, square| grown | KING_MASK[square])
}

/// Squares a king walk from `start` can reach through `empty` squares in 1..=steps steps,
/// ignoring the no-revisit rule (a superset of every walk's squares).
fn reachable(start: usize, steps: usize, empty: Bits) -> Bits {
    let mut seen: Bits = 1 << start;
    let mut front = seen;
    for _ in 0..steps {
        let mut grown = 0;
        for &(delta, wrap) in &SHIFTS {
            grown |= shift(front, delta) & wrap;
        }
        front = grown & !seen;
        seen |= front;
        front &= empty;
        if front == 0 {
            break;
        }
    }
    seen & !(1 << start)
}

/// One BondO walk's search: where it may pass, which squares it may still end on, and what it
/// has found so far.
struct Walk {
    empty: Bits,
    candidates: Bits,
    found: Bits,
}

impl Walk {
    /// Extend a walk standing on `square` with `left` steps to go (3 or more on entry, so the
    /// last two steps are always taken at once), having visited `visited`.
    fn extend(&mut self, square: usize, left: usize, visited: Bits) {
        let free = self.empty & !visited;
        if left == 2 {
            // From here the walk ends on any square next to a free neighbour, outside `visited`.
            self.found |= expand(KING_MASK[square] & free) & !visited;
            return;
        }
        for next in squares_of(KING_MASK[square] & free) {
            let now = visited | 1 << next;
            // Go on only where a square not found yet can still be reached.
            if BALL[next][left - 1] & self.candidates & !self.found & !now != 0 {
                self.extend(next, left - 1, now);
            }
        }
    }
}

/// The squares a BondO cone on `start` can end on after exactly `steps` king steps, never
/// revisiting a square (`start` included), passing only through `empty` squares and ending on a
/// `target` square (empty or an opponent's cone).
pub fn bondo_destinations(start: usize, steps: usize, empty: Bits, target: Bits) -> Bits {
    let start_bit: Bits = 1 << start;
    match steps {
        0 => 0,
        1 => KING_MASK[start] & target,
        2 => expand(KING_MASK[start] & empty) & target & !start_bit,
        _ => {
            let steps = steps.min(MAX_STEPS);
            let mut candidates = BALL[start][steps] & target & !start_bit;
            if steps > 4 {
                candidates &= reachable(start, steps, empty);
            }
            let mut walk = Walk {
                empty,
                candidates,
                found: 0,
            };
            walk.extend(start, steps, start_bit);
            walk.found & candidates
        }
    }
}

/// `(square, steps, empty, target) -> destinations` of a BondO walk: `bondo_destinations`, or a
/// cache of it (`board.Walk`).
pub trait Walker: FnMut(usize, usize, Bits, Bits) -> Bits {}

impl<F: FnMut(usize, usize, Bits, Bits) -> Bits> Walker for F {}

/// The squares within `steps` king steps of `square` on an empty board: nothing farther can
/// change a walk of `steps` from it (a cache's key).
pub fn ball(square: usize, steps: usize) -> Bits {
    BALL[square][steps.min(MAX_STEPS)]
}

/// Where each side's cones stand and which carry rings (`board.ConeBoards`): `cones[s]` seat
/// s's cones, `ringed[s]` those carrying a ring, `double[s]` those carrying both (in `ringed`
/// too).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConeBoards {
    pub cones: [Bits; 2],
    pub ringed: [Bits; 2],
    pub double: [Bits; 2],
}

impl ConeBoards {
    /// The squares no cone stands on.
    pub fn empty(&self) -> Bits {
        BOARD & !(self.cones[0] | self.cones[1])
    }

    /// How many rings `seat`'s cone on `square` carries (0 where it has none there).
    pub fn rings_on(&self, seat: usize, square: usize) -> u8 {
        ((self.ringed[seat] >> square & 1) + (self.double[seat] >> square & 1)) as u8
    }

    pub fn has_double(&self, seat: usize) -> bool {
        self.double[seat] != 0
    }

    /// A cone of `seat` with `rings` rings on the empty `square`.
    pub fn put_cone(&mut self, seat: usize, square: usize, rings: u8) {
        self.cones[seat] |= 1 << square;
        self.set_rings(seat, square, rings);
    }

    /// `seat`'s cone off `square`.
    pub fn lift_cone(&mut self, seat: usize, square: usize) {
        let keep = !(1 << square);
        self.cones[seat] &= keep;
        self.ringed[seat] &= keep;
        self.double[seat] &= keep;
    }

    /// `seat`'s cone on `square` carries `rings` rings (0, 1 or 2).
    pub fn set_rings(&mut self, seat: usize, square: usize, rings: u8) {
        let bit: Bits = 1 << square;
        if rings > 0 {
            self.ringed[seat] |= bit;
        } else {
            self.ringed[seat] &= !bit;
        }
        if rings >= 2 {
            self.double[seat] |= bit;
        } else {
            self.double[seat] &= !bit;
        }
    }

    /// `seat`'s cone from `origin` to `target`. A cone of the other side there is captured, and
    /// the rings it carried pass to the mover. True where it captured.
    pub fn move_cone(&mut self, seat: usize, origin: usize, target: usize) -> bool {
        let other = 1 - seat;
        let mut rings = self.rings_on(seat, origin);
        let captured = self.cones[other] >> target & 1 != 0;
        if captured {
            rings += self.rings_on(other, target);
            self.lift_cone(other, target);
        }
        self.lift_cone(seat, origin);
        self.put_cone(seat, target, rings);
        captured
    }

    /// The ring(s) of `seat`'s cone on `origin` onto its cone on `target` (the die's ring face);
    /// `origin` `None`: the ring set aside after a won battle.
    pub fn move_rings(&mut self, seat: usize, origin: Option<usize>, target: usize) {
        let rings = match origin {
            None => 1,
            Some(origin) => {
                let rings = self.rings_on(seat, origin);
                self.set_rings(seat, origin, 0);
                rings
            }
        };
        self.set_rings(seat, target, rings);
    }

    /// A won battle: the other side's ring(s) come off its cone on `origin` and one goes onto
    /// `seat`'s cone on `target`. True where the cone carried both: the second ring is set aside
    /// until the ring face.
    pub fn take_ring(&mut self, seat: usize, origin: usize, target: usize) -> bool {
        let other = 1 - seat;
        let both = self.rings_on(other, origin) == 2;
        self.set_rings(other, origin, 0);
        self.set_rings(seat, target, 1);
        both
    }

    /// Every move (`origin * 120 + target`, the rules' action ids) of `seat` for a rolled 1-4,
    /// sorted: its cones without a ring straight, the ringed ones (twice as far where they carry
    /// both rings) on a BondO walk. Empty where there is none.
    pub fn cone_moves(&self, seat: usize, roll: usize) -> Vec<Action> {
        self.cone_moves_by(seat, roll, &mut bondo_destinations)
    }

    /// `cone_moves` with the BondO walks found by `walk` (`bondo_destinations`, or a cache).
    pub fn cone_moves_by(&self, seat: usize, roll: usize, walk: &mut impl Walker) -> Vec<Action> {
        let empty = self.empty();
        let target = empty | self.cones[1 - seat];
        let ringed = self.ringed[seat];
        // Destinations per origin, so the moves come out sorted with no sort.
        let mut reach = [0; SQUARES];
        let mut origins = 0;
        straight_reach(
            self.cones[seat] & !ringed,
            empty,
            target,
            roll,
            &mut reach,
            &mut origins,
        );
        for square in squares_of(ringed) {
            let steps = if self.double[seat] >> square & 1 != 0 {
                roll * 2
            } else {
                roll
            };
            reach[square] = walk(square, steps, empty, target);
            origins |= 1 << square;
        }
        let count = squares_of(origins)
            .map(|from| reach[from].count_ones() as usize)
            .sum();
        let mut moves = Vec::with_capacity(count);
        for from in squares_of(origins) {
            let base = from * SQUARES;
            moves.extend(squares_of(reach[from]).map(|to| (base + to) as Action));
        }
        moves
    }

    /// `ConeBoards.hit_masks`: for each roll 1-4 (index 0 unused) the other side's cones that
    /// `attacker` could capture with it, each attacker cone's reach worked out once: the cones
    /// without a ring shifted a step at a time in each direction, the ring cones walked.
    pub fn hit_masks(&self, attacker: usize) -> [Bits; 5] {
        self.hit_masks_by(attacker, &mut bondo_destinations)
    }

    /// `hit_masks` with the BondO walks found by `walk` (`bondo_destinations`, or a cache).
    pub fn hit_masks_by(&self, attacker: usize, walk: &mut impl Walker) -> [Bits; 5] {
        let defender = self.cones[1 - attacker];
        let mut hits = [0; 5];
        if defender == 0 {
            return hits;
        }
        let empty = self.empty();
        let ringed = self.ringed[attacker];
        let ordinary = self.cones[attacker] & !ringed;
        for &(delta, wrap) in &SHIFTS {
            let mut front = ordinary;
            for hit in hits.iter_mut().skip(1) {
                front = shift(front, delta) & wrap;
                *hit |= front & defender;
                front &= empty;
                if front == 0 {
                    break;
                }
            }
        }
        let land = empty | defender;
        for square in squares_of(ringed) {
            let factor = if self.double[attacker] >> square & 1 != 0 {
                2
            } else {
                1
            };
            for (roll, hit) in hits.iter_mut().enumerate().skip(1) {
                *hit |= walk(square, roll * factor, empty, land) & defender;
            }
        }
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Every walk tried one path at a time: the oracle of the pruned search.
    fn brute_force(start: usize, steps: usize, empty: Bits, target: Bits) -> Bits {
        let mut found = 0;
        let mut stack = vec![(start, steps, 1u128 << start)];
        while let Some((square, left, visited)) = stack.pop() {
            for next in squares_of(KING_MASK[square] & !visited) {
                let bit = 1u128 << next;
                if left == 1 {
                    found |= bit & target;
                } else if empty & bit != 0 {
                    stack.push((next, left - 1, visited | bit));
                }
            }
        }
        found
    }

    #[test]
    fn start_fields_are_26_a_side_as_ruled() {
        let names = |seat: usize| -> Vec<String> {
            START_FIELDS[seat]
                .iter()
                .map(|&sq| super::super::notation::square_name(sq as usize))
                .collect()
        };
        let black = names(0);
        assert_eq!(black.len(), 26);
        assert!(black.contains(&"d4".to_string()) && black.contains(&"g4".to_string()));
        assert!(!black.contains(&"a2".to_string()) && !black.contains(&"b3".to_string()));
        let white = names(1);
        assert!(white.contains(&"d9".to_string()) && white.contains(&"j12".to_string()));
        assert!(!white.contains(&"a11".to_string()));
        assert!(START_FIELDS[0].windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn bondo_walks_match_the_brute_force() {
        let mut rng = SmallRng::seed_from_u64(7);
        for trial in 0..300 {
            let steps = [1, 2, 3, 4, 6, 8][trial % 6];
            let density = if steps <= 4 {
                rng.random::<f64>() * 0.6
            } else {
                0.45 + rng.random::<f64>() * 0.2
            };
            let mut occupied = [0u128; 2];
            for sq in 0..SQUARES {
                if rng.random::<f64>() < density {
                    occupied[rng.random_range(0..2)] |= 1 << sq;
                }
            }
            let start = rng.random_range(0..SQUARES);
            occupied[0] |= 1 << start;
            occupied[1] &= !(1u128 << start);
            let empty = BOARD & !(occupied[0] | occupied[1]);
            let target = empty | occupied[1];
            assert_eq!(
                bondo_destinations(start, steps, empty, target),
                brute_force(start, steps, empty, target),
                "trial {trial}"
            );
        }
    }
}
