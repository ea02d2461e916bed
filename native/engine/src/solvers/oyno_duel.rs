//! The two-player OYNO duel solved exactly, as `boneyard/solvers/oyno_duel.py` solves it: the
//! same layers, the same passes, the same values and plies, in Rust.
//!
//! A position is the red bones, the white bones and the up bones on the resting cells (the
//! supplies follow from the counts) and the player to move. A bone never leaves the board, so
//! the positions fall into layers by the number of red and white bones, and an action either
//! stays in its layer (a move, a flip) or goes to the layer with one bone more (a place). The
//! layers are solved from the fullest down; inside a layer pass `d` settles every position that
//! wins in `d` plies (one action reaches a position lost in `d - 1`) or loses in `d` (every
//! action reaches a position won in at most `d - 1`, one in exactly `d - 1`). What no pass
//! settles is a draw. The repetition rule is not modelled (a value does not depend on the
//! history), as in the Python solver.
//!
//! Where the Python solver finds a position by binary search in a sorted array of base-5 codes,
//! this one ranks it: the red cells' combination, the white cells' combination among the cells
//! red leaves, then the up bits of the occupied cells in cell order. A layer of at most
//! [`MAX_LAYER_EDGES`] keeps its in-layer edges (children's indices) while it is solved, then
//! drops them; a larger one generates its actions again at every pass (the same values, in the
//! memory of the values alone, [`MAX_POSITIONS`]).
//!
//! The greedy-restricted solve of the Python solver (`restrict`) is not here: it stays Python.

use std::fmt;

use crate::games::oyno::Board;

/// The value of a position for the player to move.
pub const WIN: i8 = 1;
pub const DRAW: i8 = 0;
pub const LOSS: i8 = -1;

/// The most in-layer edges (both players together) one layer keeps in memory while it is
/// solved: about 4 bytes each, so some 400 MB. The 5x5 duel with two bones a side has 86 million
/// in its fullest layer; a layer with more generates its actions again at every pass.
pub const MAX_LAYER_EDGES: u64 = 100_000_000;

/// The most positions a solve holds: for each player to move a value byte, two plies bytes and
/// the byte of a pass's verdict, so some 2.4 GB. The 5x5 duel with three bones a side has 202
/// million, with four 16.8 billion.
pub const MAX_POSITIONS: u128 = 300_000_000;

/// Why a duel cannot be solved here, or why a position is not one of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveError(pub String);

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How the bones of one layer and the empty cells sit: the counts that fix a layer's rows.
#[derive(Debug, Clone, Copy)]
struct Shape {
    red: u32,
    white: u32,
}

/// The values of one layer's positions, by rank, for each player to move.
#[derive(Debug)]
struct Layer {
    /// `value[player][rank]`: WIN, DRAW or LOSS for `player` to move.
    value: [Vec<i8>; 2],
    /// `plies[player][rank]`: actions to the end under best play (0 for a draw).
    plies: [Vec<u16>; 2],
}

/// The edges of one player's rows in a layer: the in-layer children (other player to move) as
/// rows of a compressed table, and what the other actions (ends, places) give, summed up.
struct Edges {
    /// `children[start[i]..start[i + 1]]`: the ranks of row `i`'s in-layer children.
    start: Vec<u64>,
    children: Vec<u32>,
    /// The fewest plies of an action that wins at once or places into a won position, 0: none.
    fixed_win: Vec<u32>,
    /// The most plies of an action that loses at once or places into a lost position, 0: none.
    fixed_loss: Vec<u32>,
    /// Whether a place reaches a drawn position.
    fixed_draw: Vec<bool>,
}

/// What one action reaches: an end known without this layer (the result for the mover and the
/// plies to the end, 0 for a draw), or a child in this layer (its rank, the other to move).
enum Reach {
    End(i8, u32),
    Child(u32),
}

/// One pass's reading of a row's actions: does it win in exactly `depth`, or lose in `depth`?
struct Tally {
    depth: u32,
    wins: bool,
    all_lose: bool,
    longest: u32,
    real: bool,
}

impl Tally {
    fn new(depth: u32) -> Tally {
        Tally {
            depth,
            wins: false,
            all_lose: true,
            longest: 0,
            real: false,
        }
    }

    /// An action with a known result for the mover.
    fn end(&mut self, result: i8, plies: u32) {
        self.real = true;
        match result {
            WIN => {
                self.all_lose = false;
                self.wins |= plies == self.depth;
            }
            LOSS => self.longest = self.longest.max(plies),
            _ => self.all_lose = false,
        }
    }

    /// An action into this layer: the child's value for the other player (settled in an
    /// earlier pass, or DRAW while open).
    fn child(&mut self, value: i8, plies: u16) {
        let length = if value == DRAW {
            0
        } else {
            u32::from(plies) + 1
        };
        self.end(-value, length);
    }

    fn verdict(&self) -> Option<i8> {
        if self.wins {
            Some(WIN)
        } else if self.all_lose && self.real && self.longest == self.depth {
            Some(LOSS)
        } else {
            None
        }
    }
}

/// Every position of one duel, solved: build with [`DuelSolution::solve`].
#[derive(Debug)]
pub struct DuelSolution {
    pub size: usize,
    pub bones: u32,
    /// `place_rule == "supply"`: a bone may be placed whenever the supply holds one.
    pub place_any_time: bool,
    /// The board cell of each resting cell, in cell order: the solver's cells are these indices.
    resting: Vec<usize>,
    /// `neighbours[c]`: the resting cells beside resting cell `c`, as a mask of resting indices.
    neighbours: Vec<u32>,
    binomial: Vec<Vec<u64>>,
    /// The most in-layer edges a layer keeps in memory while it is solved.
    edge_budget: u64,
    /// `layers[red * (bones + 1) + white]`.
    layers: Vec<Layer>,
}

/// How many positions (board and supplies, without the player to move) a duel has: the Python
/// solver's `position_count`.
pub fn position_count(resting: u64, bones: u64) -> u128 {
    let mut total: u128 = 0;
    for red in 0..=bones {
        for white in 0..=bones {
            if red + white > resting {
                continue;
            }
            total += u128::from(choose(resting, red))
                * u128::from(choose(resting - red, white))
                * (1u128 << (red + white));
        }
    }
    total
}

fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut result: u128 = 1;
    for i in 0..k {
        result = result * u128::from(n - i) / u128::from(i + 1);
    }
    u64::try_from(result).unwrap_or(u64::MAX)
}

/// The bits of `x` at the set positions of `mask`, packed low (BMI2's `pext`).
fn extract(x: u32, mask: u32) -> u32 {
    let (mut result, mut out, mut rest) = (0u32, 0u32, mask);
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        if x & low != 0 {
            result |= 1 << out;
        }
        out += 1;
        rest ^= low;
    }
    result
}

/// The low bits of `x` spread onto the set positions of `mask` (BMI2's `pdep`).
fn deposit(x: u32, mask: u32) -> u32 {
    let (mut result, mut bit, mut rest) = (0u32, 0u32, mask);
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        if x & (1 << bit) != 0 {
            result |= low;
        }
        bit += 1;
        rest ^= low;
    }
    result
}

/// The next larger number with as many set bits (Gosper's hack); `x` is not 0.
fn next_combination(x: u32) -> u32 {
    let low = x & x.wrapping_neg();
    let ripple = x + low;
    (((ripple ^ x) >> 2) / low) | ripple
}

/// Calls `visit` with every `count`-cell subset of `bits` cells, in rank (numeric) order.
fn for_each_combination(bits: u32, count: u32, mut visit: impl FnMut(u32)) {
    if count == 0 {
        visit(0);
        return;
    }
    let mut x = (1u32 << count) - 1;
    while x < (1u32 << bits) {
        visit(x);
        x = next_combination(x);
    }
}

impl DuelSolution {
    /// Solves every position of the `size` x `size` duel with `bones` bones a side.
    pub fn solve(
        size: usize,
        bones: u32,
        place_any_time: bool,
    ) -> Result<DuelSolution, SolveError> {
        Self::solve_within(size, bones, place_any_time, MAX_LAYER_EDGES)
    }

    /// [`DuelSolution::solve`], keeping a layer's edges in memory only where it has at most
    /// `edge_budget` of them (the others generate their actions again at every pass: the same
    /// values, slower, in a sixth of the memory).
    pub fn solve_within(
        size: usize,
        bones: u32,
        place_any_time: bool,
        edge_budget: u64,
    ) -> Result<DuelSolution, SolveError> {
        let board = Board::<u64>::new(size).map_err(|e| SolveError(e.message().to_string()))?;
        if board.cells > 25 {
            return Err(SolveError(format!(
                "the duel solver handles boards of at most 25 cells, not {size}x{size}"
            )));
        }
        let resting: Vec<usize> = (0..board.cells).filter(|&c| c != board.center).collect();
        let cells = resting.len() as u32;
        if bones < 1 || bones > (cells - 1) / 2 {
            return Err(SolveError(format!(
                "bones_per_player {bones} does not fit a {size}x{size} board"
            )));
        }
        let positions = position_count(u64::from(cells), u64::from(bones));
        if positions > MAX_POSITIONS {
            return Err(SolveError(format!(
                "the {size}x{size} duel with {bones} bones a side has {positions} positions, \
                 over the {MAX_POSITIONS} one solve may hold (8 bytes each)"
            )));
        }
        let compact = |mask: u64| -> u32 {
            resting
                .iter()
                .enumerate()
                .filter(|(_, &cell)| mask >> cell & 1 == 1)
                .fold(0u32, |m, (i, _)| m | 1 << i)
        };
        let neighbours = resting
            .iter()
            .map(|&cell| compact(board.neighbours[cell]))
            .collect();
        let binomial = (0..=32u64)
            .map(|n| (0..=32u64).map(|k| choose(n, k)).collect())
            .collect();
        let mut solution = DuelSolution {
            size,
            bones,
            place_any_time,
            resting,
            neighbours,
            binomial,
            edge_budget,
            layers: Vec::new(),
        };
        let width = bones as usize + 1;
        solution.layers = (0..width * width)
            .map(|_| Layer {
                value: [Vec::new(), Vec::new()],
                plies: [Vec::new(), Vec::new()],
            })
            .collect();
        for total in (0..=2 * bones).rev() {
            for red in (0..=bones.min(total)).rev() {
                let white = total - red;
                if white > bones {
                    continue;
                }
                let layer = solution.solve_layer(Shape { red, white })?;
                solution.layers[red as usize * width + white as usize] = layer;
            }
        }
        Ok(solution)
    }

    /// An upper bound on a layer's in-layer edges, both players: rows times moves and flips.
    fn layer_edges(cells: u32, red: u32, white: u32) -> u64 {
        let rows = (choose(u64::from(cells), u64::from(red))
            * choose(u64::from(cells - red), u64::from(white)))
            << (red + white);
        let empties = u64::from(cells - red - white);
        rows * (u64::from(red) * (empties + 1) + u64::from(white) * (empties + 1))
    }

    fn cells(&self) -> u32 {
        self.resting.len() as u32
    }

    fn layer(&self, red: u32, white: u32) -> &Layer {
        &self.layers[red as usize * (self.bones as usize + 1) + white as usize]
    }

    fn rows(&self, shape: Shape) -> usize {
        let cells = u64::from(self.cells());
        let count = (self.binomial[cells as usize][shape.red as usize]
            * self.binomial[(cells - u64::from(shape.red)) as usize][shape.white as usize])
            << (shape.red + shape.white);
        count as usize
    }

    /// The colex rank of a set of `k` cells among all sets of `k`.
    fn rank_combination(&self, mut mask: u32) -> u64 {
        let (mut rank, mut k) = (0u64, 1usize);
        while mask != 0 {
            let position = mask.trailing_zeros() as usize;
            rank += self.binomial[position][k];
            k += 1;
            mask &= mask - 1;
        }
        rank
    }

    /// The rank of a position (resting-cell masks) in its layer.
    fn rank(&self, red: u32, white: u32, up: u32) -> usize {
        let cells = self.cells();
        let full = if cells == 32 {
            u32::MAX
        } else {
            (1 << cells) - 1
        };
        let (r, w) = (red.count_ones(), white.count_ones());
        let whites = self.binomial[(cells - r) as usize][w as usize];
        let combination = self.rank_combination(red) * whites
            + self.rank_combination(extract(white, full & !red));
        ((combination << (r + w)) | u64::from(extract(up, red | white))) as usize
    }

    /// Calls `visit(rank, red, white, up)` for every position of a layer, in rank order.
    fn for_each_position(&self, shape: Shape, mut visit: impl FnMut(usize, u32, u32, u32)) {
        let cells = self.cells();
        let full = (1u32 << cells) - 1;
        let bones = shape.red + shape.white;
        let mut rank = 0usize;
        for_each_combination(cells, shape.red, |red| {
            let free = full & !red;
            for_each_combination(cells - shape.red, shape.white, |packed| {
                let white = deposit(packed, free);
                let occupied = red | white;
                for pattern in 0..1u32 << bones {
                    visit(rank, red, white, deposit(pattern, occupied));
                    rank += 1;
                }
            });
        });
    }

    /// Calls `visit` with what each action of `player` reaches from a position of the layer
    /// `shape` (resting-cell masks): an end (a win or a loss at once, or a place, read in the
    /// layer with one bone more, `grown`) or a child in this layer, in the Python solver's slots.
    #[allow(clippy::too_many_arguments)]
    fn for_each_action(
        &self,
        shape: Shape,
        player: usize,
        grown: Option<&Layer>,
        red: u32,
        white: u32,
        up: u32,
        mut visit: impl FnMut(Reach),
    ) {
        let full = (1u32 << self.cells()) - 1;
        let counts = [shape.red, shape.white];
        let supply_own = self.bones - counts[player];
        let supply_opp = self.bones - counts[1 - player];
        let neighbours = &self.neighbours;
        let (own, opp) = if player == 0 {
            (red, white)
        } else {
            (white, red)
        };
        let occupied = red | white;
        let empty = full & !occupied;
        let must_place = supply_own > 0 && own & !up == 0;
        let may_place = must_place || (self.place_any_time && supply_own > 0);
        let mut reach = |o: u32, u: u32, placed: bool| {
            let supply_o = supply_own - u32::from(placed);
            let mover_won = supply_o == 0 && o & !u == 0;
            let opp_won = !mover_won && supply_opp == 0 && opp & !u == 0;
            if mover_won {
                return visit(Reach::End(WIN, 1));
            }
            if opp_won {
                return visit(Reach::End(LOSS, 1));
            }
            let (r, w) = if player == 0 { (o, opp) } else { (opp, o) };
            let rank = self.rank(r, w, u);
            if !placed {
                return visit(Reach::Child(rank as u32));
            }
            let target = grown.expect("a place has a supply and the layer beyond");
            let value = target.value[1 - player][rank];
            let plies = if value == DRAW {
                0
            } else {
                u32::from(target.plies[1 - player][rank]) + 1
            };
            visit(Reach::End(-value, plies));
        };
        if may_place {
            let mut rest = empty;
            while rest != 0 {
                let y = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let bit = 1u32 << y;
                reach(own | bit, (up | bit) ^ (neighbours[y] & occupied), true);
            }
        }
        if must_place {
            return;
        }
        let mut from = own;
        while from != 0 {
            let x = from.trailing_zeros() as usize;
            from &= from - 1;
            let xbit = 1u32 << x;
            let own0 = own & !xbit;
            let occupied0 = occupied & !xbit;
            let up0 = (up & !xbit) ^ (neighbours[x] & occupied0);
            let mut to = empty;
            while to != 0 {
                let y = to.trailing_zeros() as usize;
                to &= to - 1;
                let ybit = 1u32 << y;
                reach(
                    own0 | ybit,
                    (up0 | ybit) ^ (neighbours[y] & occupied0),
                    false,
                );
            }
            if up & xbit == 0 {
                reach(own, up | xbit, false);
            }
        }
    }

    /// The layer with one bone more for `player`'s places, if it has a bone to place.
    fn grown(&self, shape: Shape, player: usize) -> Option<&Layer> {
        let counts = [shape.red, shape.white];
        match (self.bones - counts[player], player) {
            (0, _) => None,
            (_, 0) => Some(self.layer(shape.red + 1, shape.white)),
            _ => Some(self.layer(shape.red, shape.white + 1)),
        }
    }

    /// The edges of `player`'s rows in a layer (the layer with one bone more is solved).
    fn edges(&self, shape: Shape, player: usize) -> Edges {
        let rows = self.rows(shape);
        let mut edges = Edges {
            start: Vec::with_capacity(rows + 1),
            children: Vec::new(),
            fixed_win: vec![0; rows],
            fixed_loss: vec![0; rows],
            fixed_draw: vec![false; rows],
        };
        let grown = self.grown(shape, player);
        edges.start.push(0);
        self.for_each_position(shape, |row, red, white, up| {
            self.for_each_action(shape, player, grown, red, white, up, |reach| match reach {
                Reach::Child(rank) => edges.children.push(rank),
                Reach::End(WIN, plies) => {
                    let best = &mut edges.fixed_win[row];
                    *best = if *best == 0 {
                        plies
                    } else {
                        (*best).min(plies)
                    };
                }
                Reach::End(LOSS, plies) => {
                    edges.fixed_loss[row] = edges.fixed_loss[row].max(plies);
                }
                Reach::End(_, _) => edges.fixed_draw[row] = true,
            });
            edges.start.push(edges.children.len() as u64);
        });
        edges
    }

    /// Solves a layer, the layers with a bone more solved: from edges kept in memory where they
    /// fit ([`MAX_LAYER_EDGES`]), else from the actions generated again at every pass.
    fn solve_layer(&self, shape: Shape) -> Result<Layer, SolveError> {
        let rows = self.rows(shape);
        let stored = Self::layer_edges(self.cells(), shape.red, shape.white) <= self.edge_budget;
        let edges = if stored {
            Some([self.edges(shape, 0), self.edges(shape, 1)])
        } else {
            None
        };
        let mut value = [vec![DRAW; rows], vec![DRAW; rows]];
        let mut plies = [vec![0u16; rows], vec![0u16; rows]];
        // the outcome of every end is known at once; the in-layer children are read pass by pass
        let mut fixed_top = edges.as_ref().map_or(0, |edges| {
            edges
                .iter()
                .flat_map(|e| e.fixed_win.iter().chain(e.fixed_loss.iter()))
                .copied()
                .max()
                .unwrap_or(0)
        });
        let mut depth = 0u32;
        loop {
            depth += 1;
            let stamp = u16::try_from(depth).map_err(|_| {
                SolveError(format!("a win longer than {} plies: not held", u16::MAX))
            })?;
            // this pass's verdicts, read by no one before the next pass (a byte a row)
            let mut settled = value.clone();
            for (player, next) in settled.iter_mut().enumerate() {
                let (other_value, other_plies) = (&value[1 - player], &plies[1 - player]);
                if let Some(edges) = &edges {
                    let e = &edges[player];
                    for (row, &known) in value[player].iter().enumerate() {
                        if known != DRAW {
                            continue;
                        }
                        let mut tally = Tally::new(depth);
                        if e.fixed_win[row] != 0 {
                            tally.end(WIN, e.fixed_win[row]);
                        }
                        if e.fixed_loss[row] != 0 {
                            tally.end(LOSS, e.fixed_loss[row]);
                        }
                        if e.fixed_draw[row] {
                            tally.end(DRAW, 0);
                        }
                        let children =
                            &e.children[e.start[row] as usize..e.start[row + 1] as usize];
                        for &child in children {
                            let child = child as usize;
                            tally.child(other_value[child], other_plies[child]);
                        }
                        if let Some(result) = tally.verdict() {
                            next[row] = result;
                        }
                    }
                    continue;
                }
                let grown = self.grown(shape, player);
                let own_value = &value[player];
                self.for_each_position(shape, |row, red, white, up| {
                    if own_value[row] != DRAW {
                        return;
                    }
                    let mut tally = Tally::new(depth);
                    self.for_each_action(
                        shape,
                        player,
                        grown,
                        red,
                        white,
                        up,
                        |reach| match reach {
                            Reach::End(result, length) => {
                                fixed_top = fixed_top.max(length);
                                tally.end(result, length);
                            }
                            Reach::Child(child) => {
                                let child = child as usize;
                                tally.child(other_value[child], other_plies[child]);
                            }
                        },
                    );
                    if let Some(result) = tally.verdict() {
                        next[row] = result;
                    }
                });
            }
            let mut changed = false;
            for (player, next) in settled.into_iter().enumerate() {
                for (row, (&new, &old)) in next.iter().zip(&value[player]).enumerate() {
                    if new != old {
                        plies[player][row] = stamp;
                        changed = true;
                    }
                }
                value[player] = next;
            }
            if !changed && depth > fixed_top {
                break;
            }
        }
        Ok(Layer { value, plies })
    }

    /// A position given as board-cell masks, as resting-cell masks; an error where it is not one
    /// of this duel.
    fn position(&self, red: u64, white: u64, up: u64) -> Result<(u32, u32, u32), SolveError> {
        let resting = self.resting.iter().fold(0u64, |m, &c| m | 1 << c);
        let bones = u64::from(self.bones);
        let occupied = red | white;
        if red & white != 0
            || occupied & !resting != 0
            || up & !occupied != 0
            || u64::from(red.count_ones()) > bones
            || u64::from(white.count_ones()) > bones
        {
            return Err(SolveError(format!(
                "not a position of the {0}x{0} duel with {1} bones a side: red {red:#x}, white \
                 {white:#x}, up {up:#x} (disjoint resting cells, at most {1} a colour, up bones \
                 on the board)",
                self.size, self.bones
            )));
        }
        let compact = |mask: u64| -> u32 {
            self.resting
                .iter()
                .enumerate()
                .filter(|(_, &cell)| mask >> cell & 1 == 1)
                .fold(0u32, |m, (i, _)| m | 1 << i)
        };
        Ok((compact(red), compact(white), compact(up)))
    }

    /// `(WIN/DRAW/LOSS for the player to move, plies to the end)` of a position given by its
    /// board-cell masks (bit `c` is cell `c`, as `boneyard.games.oyno.board` numbers them).
    pub fn value(
        &self,
        red: u64,
        white: u64,
        up: u64,
        player: usize,
    ) -> Result<(i8, u32), SolveError> {
        if player > 1 {
            return Err(SolveError(format!(
                "the player to move is 0 (red) or 1 (white), not {player}"
            )));
        }
        let (r, w, u) = self.position(red, white, up)?;
        let layer = self.layer(r.count_ones(), w.count_ones());
        let rank = self.rank(r, w, u);
        Ok((
            layer.value[player][rank],
            u32::from(layer.plies[player][rank]),
        ))
    }

    /// How many positions (with the player to move) are won, drawn and lost for the mover,
    /// leaving out those where a side has already won: the Python solver's `counts`.
    pub fn counts(&self) -> [u64; 3] {
        let mut totals = [0u64; 3];
        for red in 0..=self.bones {
            for white in 0..=self.bones {
                let shape = Shape { red, white };
                let layer = self.layer(red, white);
                self.for_each_position(shape, |rank, r, w, up| {
                    let red_done = red == self.bones && r & !up == 0;
                    let white_done = white == self.bones && w & !up == 0;
                    if red_done || white_done {
                        return;
                    }
                    for player in 0..2 {
                        let slot = match layer.value[player][rank] {
                            WIN => 0,
                            DRAW => 1,
                            _ => 2,
                        };
                        totals[slot] += 1;
                    }
                });
            }
        }
        totals
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_number_each_layer_in_order() {
        let solution = DuelSolution::solve(3, 2, false).unwrap();
        for red in 0..=2 {
            for white in 0..=2 {
                let shape = Shape { red, white };
                let mut seen = 0;
                solution.for_each_position(shape, |rank, r, w, u| {
                    assert_eq!(rank, seen);
                    assert_eq!(solution.rank(r, w, u), rank);
                    seen += 1;
                });
                assert_eq!(seen, solution.rows(shape));
            }
        }
    }

    #[test]
    fn counts_positions_as_python_does() {
        // position_count(5, 2) and (5, 8) of boneyard.solvers.oyno_duel
        assert_eq!(position_count(24, 2), 1_121_761);
        assert_eq!(position_count(8, 1), 1 + 2 * 8 * 2 + 8 * 7 * 4);
    }

    #[test]
    fn a_side_with_every_bone_up_to_place_wins_by_placing() {
        // 3x3, one bone a side, nothing on the board: red places its one bone up and wins
        let solution = DuelSolution::solve(3, 1, false).unwrap();
        assert_eq!(solution.value(0, 0, 0, 0), Ok((WIN, 1)));
    }

    #[test]
    fn generating_the_actions_at_every_pass_gives_the_kept_edges_values() {
        for (size, bones) in [(3, 2), (3, 3), (5, 1)] {
            for place_any_time in [false, true] {
                let kept = DuelSolution::solve(size, bones, place_any_time).unwrap();
                let streamed = DuelSolution::solve_within(size, bones, place_any_time, 0).unwrap();
                for (a, b) in kept.layers.iter().zip(&streamed.layers) {
                    assert_eq!(a.value, b.value);
                    assert_eq!(a.plies, b.plies);
                }
                assert_eq!(kept.counts(), streamed.counts());
            }
        }
    }

    #[test]
    fn refuses_what_it_cannot_hold() {
        let error = DuelSolution::solve(5, 8, false).unwrap_err();
        assert!(error.0.contains("positions"), "{error}");
        assert!(DuelSolution::solve(7, 1, false).is_err());
        assert!(DuelSolution::solve(3, 4, false).is_err());
        let solution = DuelSolution::solve(3, 1, false).unwrap();
        // the center (cell 4) holds no bone
        assert!(solution.value(1 << 4, 0, 0, 0).is_err());
        assert!(solution.value(0, 0, 0, 2).is_err());
    }
}
