//! Puzzle set-ups by difficulty (`boneyard/games/oyno/generator.py`): a `difficulty` game deals
//! its set-up in one chance event of 1024 equally likely tickets, and ticket `t` is one set-up,
//! drawn by a generator seeded by `(size, bones, K, t)`:
//!
//! - usually by rejection sampling: legal set-ups drawn uniformly (distinct random cells, sides
//!   at random until at least one is up and one down), the first whose best solution takes
//!   exactly K moves;
//! - for the rarest difficulties of the 5x5 board, a uniform pick from the complete list of those
//!   set-ups that the exhaustive analysis wrote to `data/rare_5x5.npz`.
//!
//! The draws are CPython's (`python_random`), so a ticket deals the same puzzle in either engine.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::board::{Board, CellMask};
use super::python_random::PythonRandom;
use super::search::optimal_length;
use crate::core::EngineError;

/// Draws tried for one ticket before the difficulty counts as out of reach.
const MAX_DRAWS: usize = 20_000;

/// The complete lists of the rarest 5x5 set-ups, shared with the Python package.
const RARE_FILE: &[u8] = include_bytes!("../../../../../src/boneyard/games/oyno/data/rare_5x5.npz");

/// The set-up of `ticket` for a game of `difficulty`, as `generator.ticket_setup` deals it.
pub fn ticket_setup<M: CellMask>(
    board: &Board<M>,
    bones: u32,
    difficulty: u32,
    ticket: u32,
) -> Result<(M, M), EngineError> {
    let size = board.size;
    let mut rng = PythonRandom::from_text(&format!(
        "oyno-difficulty/{size}/{bones}/{difficulty}/{ticket}"
    ));
    if let Some(listed) = rare_setups(size, bones, difficulty) {
        if !listed.is_empty() {
            let index = listed[rng.below(listed.len() as u32) as usize];
            return Ok(decode_position(board, bones, index));
        }
    }
    for _ in 0..MAX_DRAWS {
        let (occupied, up) = random_setup(board, bones, &mut rng);
        if optimal_length(board, occupied, up, difficulty) == Some(difficulty) {
            return Ok((occupied, up));
        }
    }
    if ticket != 0 {
        // as in Python: a ticket that finds nothing deals ticket 0's set-up (checked at load)
        return ticket_setup(board, bones, difficulty, 0);
    }
    Err(EngineError::InvalidParameter(format!(
        "bad value {difficulty} for parameter 'difficulty': no set-up of {bones} bones on \
         {size}x{size} solved in exactly {difficulty} moves was found in {MAX_DRAWS} random \
         set-ups; choose a smaller difficulty"
    )))
}

/// A uniform legal set-up (`generator.random_setup`): the cells drawn by `sample`, then one
/// `random()` a bone for its side until at least one is up and one down.
fn random_setup<M: CellMask>(board: &Board<M>, bones: u32, rng: &mut PythonRandom) -> (M, M) {
    let resting: Vec<usize> = board.resting.cells().collect();
    let cells = rng.sample(&resting, bones as usize);
    let occupied = cells.iter().fold(M::EMPTY, |mask, &c| mask | M::bit(c));
    loop {
        let up = cells
            .iter()
            .filter(|_| rng.random() < 0.5)
            .fold(M::EMPTY, |mask, &c| mask | M::bit(c));
        if !up.is_empty() && up != occupied {
            return (occupied, up);
        }
    }
}

/// The sorted `k`-subset of colex rank `rank` (`generator.colex_unrank`).
fn colex_unrank(mut rank: u64, k: u32) -> Vec<usize> {
    let mut cells = Vec::with_capacity(k as usize);
    for j in (1..=u64::from(k)).rev() {
        let mut c = j - 1;
        while binomial(c + 1, j) <= rank {
            c += 1;
        }
        cells.push(c as usize);
        rank -= binomial(c, j);
    }
    cells.reverse();
    cells
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |value, i| value * (n - i) / (i + 1))
}

/// The masks of an analysis position index (`generator.decode_position`): the colex rank of
/// the resting cells taken, then one bit a bone for its side.
fn decode_position<M: CellMask>(board: &Board<M>, bones: u32, index: u32) -> (M, M) {
    let resting: Vec<usize> = board.resting.cells().collect();
    let rank = u64::from(index).checked_shr(bones).unwrap_or(0);
    let sides = index & 1u32.checked_shl(bones).map_or(u32::MAX, |bit| bit - 1);
    let mut occupied = M::EMPTY;
    let mut up = M::EMPTY;
    for (j, c) in colex_unrank(rank, bones).into_iter().enumerate() {
        let Some(&cell) = resting.get(c) else {
            continue;
        };
        occupied = occupied | M::bit(cell);
        if sides.checked_shr(j as u32).unwrap_or(0) & 1 == 1 {
            up = up | M::bit(cell);
        }
    }
    (occupied, up)
}

/// Every set-up of a rare difficulty as analysis position indices, if listed.
fn rare_setups(size: usize, bones: u32, difficulty: u32) -> Option<&'static [u32]> {
    static LISTS: OnceLock<HashMap<String, Vec<u32>>> = OnceLock::new();
    if size != 5 {
        return None;
    }
    let lists = LISTS.get_or_init(|| npz_arrays(RARE_FILE).unwrap_or_default());
    lists
        .get(&format!("b{bones}_k{difficulty}"))
        .map(Vec::as_slice)
}

/// The one-dimensional `<i4` arrays of an `.npz` file (a zip of `.npy` files, as `numpy.savez`
/// writes it), by name without `.npy`; `None` for anything else.
fn npz_arrays(file: &[u8]) -> Option<HashMap<String, Vec<u32>>> {
    let u16_at = |at: usize| -> Option<usize> {
        Some(u16::from_le_bytes(file.get(at..at + 2)?.try_into().ok()?) as usize)
    };
    let u32_at = |at: usize| -> Option<usize> {
        Some(u32::from_le_bytes(file.get(at..at + 4)?.try_into().ok()?) as usize)
    };
    // the end-of-central-directory record: where the directory of members is
    let end = (0..file.len().saturating_sub(21))
        .rev()
        .find(|&at| file[at..].starts_with(b"PK\x05\x06"))?;
    let (members, mut entry) = (u16_at(end + 10)?, u32_at(end + 16)?);
    let mut arrays = HashMap::new();
    for _ in 0..members {
        if !file.get(entry..)?.starts_with(b"PK\x01\x02") {
            return None;
        }
        let method = u16_at(entry + 10)?;
        let packed = u32_at(entry + 20)?;
        let (name_len, extra_len, comment_len) = (
            u16_at(entry + 28)?,
            u16_at(entry + 30)?,
            u16_at(entry + 32)?,
        );
        let local = u32_at(entry + 42)?;
        let name = std::str::from_utf8(file.get(entry + 46..entry + 46 + name_len)?).ok()?;
        entry += 46 + name_len + extra_len + comment_len;
        let data_at = local + 30 + u16_at(local + 26)? + u16_at(local + 28)?;
        let data = file.get(data_at..data_at + packed)?;
        let npy = match method {
            0 => data.to_vec(),
            8 => miniz_oxide::inflate::decompress_to_vec(data).ok()?,
            _ => return None,
        };
        arrays.insert(name.trim_end_matches(".npy").to_string(), npy_int32(&npy)?);
    }
    Some(arrays)
}

/// The values of a one-dimensional little-endian int32 `.npy` array.
fn npy_int32(npy: &[u8]) -> Option<Vec<u32>> {
    if !npy.starts_with(b"\x93NUMPY") {
        return None;
    }
    let (header_len, header_at) = match npy.get(6)? {
        1 => (
            u16::from_le_bytes(npy.get(8..10)?.try_into().ok()?) as usize,
            10,
        ),
        _ => (
            u32::from_le_bytes(npy.get(8..12)?.try_into().ok()?) as usize,
            12,
        ),
    };
    let header = std::str::from_utf8(npy.get(header_at..header_at + header_len)?).ok()?;
    if !header.contains("'descr': '<i4'") || !header.contains("'fortran_order': False") {
        return None;
    }
    let values = npy.get(header_at + header_len..)?;
    Some(
        values
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rare_lists_are_read_from_the_packages_file() {
        let lists = npz_arrays(RARE_FILE).unwrap();
        // b3_k7.npy is 272 bytes: a 128-byte header and 36 set-ups
        assert_eq!(lists.len(), 8);
        assert_eq!(lists["b3_k7"].len(), 36);
        let board = Board::<u64>::new(5).unwrap();
        for &index in &lists["b3_k7"] {
            let (occupied, up) = decode_position(&board, 3, index);
            assert_eq!(occupied.count(), 3);
            assert_eq!(optimal_length(&board, occupied, up, 7), Some(7));
        }
    }

    #[test]
    fn colex_ranks_list_the_subsets_in_order() {
        assert_eq!(colex_unrank(0, 3), vec![0, 1, 2]);
        assert_eq!(colex_unrank(1, 3), vec![0, 1, 3]);
        assert_eq!(colex_unrank(2, 3), vec![0, 2, 3]);
        assert_eq!(colex_unrank(3, 3), vec![1, 2, 3]);
        assert_eq!(colex_unrank(binomial(24, 3) - 1, 3), vec![21, 22, 23]);
    }
}
