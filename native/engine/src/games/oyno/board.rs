//! The OYNO board, shared by the puzzle and the two-player game, as `boneyard/games/oyno/board.py`
//! states it: an odd `size` x `size` board, cell `rank0 * size + file0` (`a1` is 0), the middle
//! cell the round *center* where no bone rests. Bones live in bit masks over the cells, and
//! reversing the bones beside a cell is one XOR with that cell's neighbour mask.
//!
//! A board of up to 25x25 has 625 cells, so a mask is as wide as the board needs: one `u64` up to
//! 7x7, a `u128` up to 11x11, and arrays of words beyond (`Wide`). The rules are written once over
//! `CellMask` and the game picks the width when it is loaded.

use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::ops::{BitAnd, BitOr, BitXor, Not};

use crate::core::EngineError;

/// The character of the center in position notation.
pub const CENTER_CHAR: char = 'o';
/// The character of an empty cell in position notation.
pub const EMPTY_CHAR: char = '.';

/// A set of cells as bits: the one vocabulary the rules speak (occupied, up, neighbours).
pub trait CellMask:
    Copy
    + Eq
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// How many cells a mask of this width holds.
    const CAPACITY: usize;
    const EMPTY: Self;

    fn bit(cell: usize) -> Self;
    fn count(self) -> u32;
    /// The lowest cell of the set, if any.
    fn lowest(self) -> Option<usize>;
    /// The set without its lowest cell.
    fn without_lowest(self) -> Self;

    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }

    fn has(self, cell: usize) -> bool {
        !(self & Self::bit(cell)).is_empty()
    }

    /// The cells of the set, ascending.
    fn cells(self) -> Cells<Self> {
        Cells(self)
    }
}

/// The cells of a mask, ascending (lowest bit first).
pub struct Cells<M>(M);

impl<M: CellMask> Iterator for Cells<M> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let cell = self.0.lowest()?;
        self.0 = self.0.without_lowest();
        Some(cell)
    }
}

macro_rules! machine_word_mask {
    ($word:ty) => {
        impl CellMask for $word {
            const CAPACITY: usize = <$word>::BITS as usize;
            const EMPTY: Self = 0;

            fn bit(cell: usize) -> Self {
                1 << cell
            }

            fn count(self) -> u32 {
                self.count_ones()
            }

            fn lowest(self) -> Option<usize> {
                (self != 0).then(|| self.trailing_zeros() as usize)
            }

            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}

machine_word_mask!(u64);
machine_word_mask!(u128);

/// A mask of `WORDS` 64-bit words, for the boards past 11x11.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Wide<const WORDS: usize>([u64; WORDS]);

impl<const WORDS: usize> BitAnd for Wide<WORDS> {
    type Output = Self;
    fn bitand(self, other: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }
}

impl<const WORDS: usize> BitOr for Wide<WORDS> {
    type Output = Self;
    fn bitor(self, other: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }
}

impl<const WORDS: usize> BitXor for Wide<WORDS> {
    type Output = Self;
    fn bitxor(self, other: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] ^ other.0[i]))
    }
}

impl<const WORDS: usize> Not for Wide<WORDS> {
    type Output = Self;
    fn not(self) -> Self {
        Wide(self.0.map(|word| !word))
    }
}

impl<const WORDS: usize> CellMask for Wide<WORDS> {
    const CAPACITY: usize = 64 * WORDS;
    const EMPTY: Self = Wide([0; WORDS]);

    fn bit(cell: usize) -> Self {
        let mut words = [0; WORDS];
        words[cell / 64] = 1 << (cell % 64);
        Wide(words)
    }

    fn count(self) -> u32 {
        self.0.iter().map(|word| word.count_ones()).sum()
    }

    fn lowest(self) -> Option<usize> {
        let (index, word) = self.0.iter().enumerate().find(|(_, &word)| word != 0)?;
        Some(64 * index + word.trailing_zeros() as usize)
    }

    fn without_lowest(mut self) -> Self {
        if let Some(word) = self.0.iter_mut().find(|word| **word != 0) {
            *word &= *word - 1;
        }
        self
    }
}

/// Geometry of one board size: the cells' names, the center, the neighbour masks. Built once per
/// loaded game and shared by all its states.
#[derive(Debug)]
pub struct Board<M> {
    pub size: usize,
    /// `size * size`: the cells, the center among them.
    pub cells: usize,
    pub center: usize,
    /// Every cell but the center.
    pub resting: M,
    /// `neighbours[c]`: the resting cells that share a side with cell `c`.
    pub neighbours: Vec<M>,
    names: Vec<String>,
}

/// Why `size` is not an OYNO board size, as `board.check_size` says it.
fn check_size(size: usize) -> Option<&'static str> {
    if size < 3 || size % 2 == 0 {
        Some("the board size is odd and at least 3")
    } else if size > 25 {
        Some("the board size is at most 25")
    } else {
        None
    }
}

impl<M: CellMask> Board<M> {
    pub fn new(size: usize) -> Result<Board<M>, EngineError> {
        if let Some(problem) = check_size(size) {
            return Err(EngineError::InvalidParameter(format!(
                "bad OYNO board size {size}: {problem}"
            )));
        }
        let cells = size * size;
        if cells > M::CAPACITY {
            return Err(EngineError::InvalidParameter(format!(
                "a {size}x{size} board does not fit a mask of {} cells",
                M::CAPACITY
            )));
        }
        let center = cells / 2;
        let resting = (0..cells)
            .filter(|&c| c != center)
            .fold(M::EMPTY, |mask, c| mask | M::bit(c));
        let neighbours = (0..cells)
            .map(|cell| {
                let (file, rank) = (cell % size, cell / size);
                let mut beside = M::EMPTY;
                // the four sides, never a diagonal (RULINGS: adjacent cells share a side)
                for (df, dr) in [(0i64, 1i64), (1, 0), (0, -1), (-1, 0)] {
                    let (f, r) = (file as i64 + df, rank as i64 + dr);
                    if (0..size as i64).contains(&f) && (0..size as i64).contains(&r) {
                        beside = beside | M::bit(r as usize * size + f as usize);
                    }
                }
                beside & resting
            })
            .collect();
        let names = (0..cells)
            .map(|cell| {
                format!(
                    "{}{}",
                    (b'a' + (cell % size) as u8) as char,
                    cell / size + 1
                )
            })
            .collect();
        Ok(Board {
            size,
            cells,
            center,
            resting,
            neighbours,
            names,
        })
    }

    /// `0 -> "a1"`.
    pub fn name(&self, cell: usize) -> &str {
        &self.names[cell]
    }

    /// The name of the last cell (`e5` on 5x5), which error messages quote.
    pub fn last_name(&self) -> &str {
        self.name(self.cells - 1)
    }

    /// The cell named `text` (as `Grid.parse` reads it: surrounding spaces ignored), if any.
    pub fn cell_named(&self, text: &str) -> Option<usize> {
        let text = text.trim();
        self.names.iter().position(|name| name == text)
    }

    /// Position notation of a board whose bones are `symbol(cell)` (`None`: no bone).
    pub fn format_position(&self, symbol: impl Fn(usize) -> Option<char>) -> String {
        let mut text = String::with_capacity(self.cells + self.size);
        for rank in (0..self.size).rev() {
            if rank + 1 != self.size {
                text.push('/');
            }
            for file in 0..self.size {
                let cell = rank * self.size + file;
                text.push(if cell == self.center {
                    CENTER_CHAR
                } else {
                    symbol(cell).unwrap_or(EMPTY_CHAR)
                });
            }
        }
        text
    }
}

/// The bones of position notation, `(cell, character)`, for a board of `size`; the Python game
/// has already checked the text (`board.parse_position`), so a fault here only refuses the load.
pub fn parse_position(
    text: &str,
    size: usize,
    pieces: &str,
) -> Result<Vec<(usize, char)>, EngineError> {
    let bad = || EngineError::InvalidParameter(format!("bad position {text:?}"));
    let ranks: Vec<&str> = text.trim().split('/').collect();
    if ranks.len() != size {
        return Err(bad());
    }
    let center = size * size / 2;
    let mut bones = Vec::new();
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = size - 1 - row;
        let chars: Vec<char> = rank_text.chars().collect();
        if chars.len() != size {
            return Err(bad());
        }
        for (file, &char) in chars.iter().enumerate() {
            let cell = rank * size + file;
            match char {
                CENTER_CHAR if cell == center => {}
                _ if cell == center => return Err(bad()),
                EMPTY_CHAR => {}
                _ if pieces.contains(char) => bones.push((cell, char)),
                _ => return Err(bad()),
            }
        }
    }
    Ok(bones)
}

/// The number of ranks of position notation (how `OynoPuzzle` reads a start's board size).
pub fn ranks_of(text: &str) -> usize {
    text.trim().split('/').count()
}

pub use crate::core::python_repr;

/// A fast hasher for sets of positions (the repetition counts, the solver's levels): the keys
/// are whole machine words, hashed by
/// multiply-and-rotate (FxHash), with no need for SipHash's resistance to chosen keys.
#[derive(Default, Clone, Copy)]
pub struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u128(&mut self, word: u128) {
        self.write_u64(word as u64);
        self.write_u64((word >> 64) as u64);
    }

    fn write_u32(&mut self, word: u32) {
        self.write_u64(u64::from(word));
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_board_has_its_center_at_c3() {
        let board = Board::<u64>::new(5).unwrap();
        assert_eq!(board.center, 12);
        assert_eq!(board.name(board.center), "c3");
        assert_eq!(board.resting.count(), 24);
        assert_eq!(board.cell_named(" b2"), Some(6));
        assert_eq!(board.cell_named("f1"), None);
    }

    #[test]
    fn adjacency_is_by_side_only_and_never_the_center() {
        let board = Board::<u64>::new(5).unwrap();
        // b3 touches b4, c3 (the center: left out), b2 and a3
        let b3: Vec<usize> = board.neighbours[11].cells().collect();
        assert_eq!(b3, vec![6, 10, 16]);
        // a1 touches a2 and b1, not b2
        assert_eq!(board.neighbours[0].cells().collect::<Vec<_>>(), vec![1, 5]);
    }

    #[test]
    fn every_width_reads_the_same_cells() {
        let cells = [0usize, 63, 64, 127, 200, 624];
        let wide = cells
            .iter()
            .fold(Wide::<10>::EMPTY, |m, &c| m | Wide::bit(c));
        assert_eq!(wide.cells().collect::<Vec<_>>(), cells);
        assert_eq!(wide.count(), 6);
        assert!(wide.has(127) && !wide.has(128));
        let narrow = [0usize, 5, 127]
            .iter()
            .fold(0u128, |m, &c| m | u128::bit(c));
        assert_eq!(narrow.cells().collect::<Vec<_>>(), vec![0, 5, 127]);
    }

    #[test]
    fn the_example_position_round_trips() {
        let board = Board::<u64>::new(5).unwrap();
        let text = "U...D/.D.../..o../...U./D...U";
        let bones = parse_position(text, 5, "UD").unwrap();
        let shown = board.format_position(|cell| {
            bones
                .iter()
                .find(|&&(c, _)| c == cell)
                .map(|&(_, char)| char)
        });
        assert_eq!(shown, text);
        assert!(parse_position("U...D/.D.../..U../...U./D...U", 5, "UD").is_err());
    }

    #[test]
    fn strings_are_quoted_as_python_quotes_them() {
        assert_eq!(python_repr("b2-d4"), "'b2-d4'");
        assert_eq!(python_repr("it's"), "\"it's\"");
        assert_eq!(python_repr("a'\"b"), "'a\\'\"b'");
    }
}
