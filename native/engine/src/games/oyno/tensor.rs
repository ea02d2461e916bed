//! The observation tensors of both OYNO games, as `boneyard/games/oyno/tensor.py` lays them out:
//! planes of `size * size` cells, cell `rank0 * size + file0` (`a1` first), each 1.0 where the
//! position notation shows the plane's character. The center is in no plane.
//!
//! * the duel (`oyno`), flat `5 * cells + 3`: red up, red down, white up, white down, empty; then
//!   red's and white's supply as fractions of `bones_per_player`, and 1.0 when white is to move.
//!   A wild bone being rolled is left out of the position, so its cell shows empty.
//! * the puzzle (`oyno_puzzle`), `[3, size, size]`: up bones, down bones, empty resting cells. A
//!   bone whose side is still being dealt is not yet on the board.
//!
//! Both games have perfect information: every seat and a spectator see the same position, so
//! the tensor is the same for every `seat`, made from nothing the observation does not show.

use super::board::CellMask;
use super::duel::DuelRules;
use super::puzzle::PuzzleRules;
use crate::core::Rules;

/// The duel's planes before its three numbers.
pub const DUEL_PLANES: usize = 5;
/// The puzzle's planes.
pub const PUZZLE_PLANES: usize = 3;

/// The shape of the duel's tensor on a board of `cells` cells.
pub fn duel_shape(cells: usize) -> Vec<usize> {
    vec![DUEL_PLANES * cells + 3]
}

/// The shape of the puzzle's tensor on a `size` x `size` board.
pub fn puzzle_shape(size: usize) -> Vec<usize> {
    vec![PUZZLE_PLANES, size, size]
}

/// 1.0 at each cell of `mask` in `plane` (which the caller has zeroed).
fn mark<M: CellMask>(plane: &mut [f32], mask: M) {
    for cell in mask.cells() {
        if let Some(value) = plane.get_mut(cell) {
            *value = 1.0;
        }
    }
}

/// Writes each mask as a plane of `cells` values, one after another, over a zeroed `out`.
fn write_planes<M: CellMask>(out: &mut [f32], cells: usize, masks: &[M]) {
    out.fill(0.0);
    for (plane, &mask) in out.chunks_exact_mut(cells).zip(masks) {
        mark(plane, mask);
    }
}

/// `supply / per_player` as Python divides the two integers (the nearest float64), then as the
/// float32 of the batch arrays. The Python game allows no `per_player` of 0; 0.0 rather than a
/// NaN if one came anyway.
fn fraction(supply: u32, per_player: u32) -> f32 {
    if per_player == 0 {
        return 0.0;
    }
    // float64 first, as Python does: rounding straight to float32 could differ in the last bit
    (f64::from(supply) / f64::from(per_player)) as f32
}

/// The duel tensor of `_seat`'s view (every seat's is the same) written into `out`; `false` (and
/// nothing written) when `out` is not `5 * cells + 3` long.
pub fn write_duel<M: CellMask>(
    state: &DuelRules<M>,
    _seat: Option<usize>,
    out: &mut [f32],
) -> bool {
    let setup = &state.setup;
    let board = &setup.board;
    let cells = board.cells;
    if out.len() != DUEL_PLANES * cells + 3 {
        return false;
    }
    let shown = match state.rolling {
        Some(cell) => board.resting & !M::bit(cell),
        None => board.resting,
    };
    let red = state.occupied[0] & shown;
    let white = state.occupied[1] & shown;
    let up = state.up;
    let empty = board.resting & !(red | white);
    let (planes, numbers) = out.split_at_mut(DUEL_PLANES * cells);
    write_planes(
        planes,
        cells,
        &[red & up, red & !up, white & up, white & !up, empty],
    );
    let per_player = setup.bones_per_player;
    numbers[0] = fraction(state.supply[0], per_player);
    numbers[1] = fraction(state.supply[1], per_player);
    // the observation's `current_player`: a chance node or the end is not white's turn
    numbers[2] = if state.current_player() == 1 {
        1.0
    } else {
        0.0
    };
    true
}

/// The puzzle tensor written into `out`; `false` (and nothing written) when `out` is not
/// `3 * cells` long.
pub fn write_puzzle<M: CellMask>(
    state: &PuzzleRules<M>,
    _seat: Option<usize>,
    out: &mut [f32],
) -> bool {
    let board = &state.setup.board;
    let cells = board.cells;
    if out.len() != PUZZLE_PLANES * cells {
        return false;
    }
    let occupied = state.occupied & board.resting;
    let up = state.up;
    write_planes(
        out,
        cells,
        &[occupied & up, occupied & !up, board.resting & !occupied],
    );
    true
}

#[cfg(test)]
mod tests {
    use crate::core::{DynState, NativeGame, Params};
    use serde_json::{json, Value};

    fn load(
        defaults: Value,
        params: Value,
        loader: fn(&Params) -> Result<Box<dyn NativeGame>, crate::core::EngineError>,
    ) -> Box<dyn NativeGame> {
        let mut all = defaults;
        for (key, value) in params.as_object().unwrap() {
            all[key] = value.clone();
        }
        loader(&Params::from_json(&all.to_string()).unwrap()).unwrap()
    }

    fn duel(params: Value) -> Box<dyn NativeGame> {
        let defaults = json!({
            "size": 5, "bones_per_player": 8, "wild": false, "max_moves": 300,
            "place_rule": "all_up", "start": null,
        });
        load(defaults, params, super::super::load_duel)
    }

    fn puzzle(params: Value) -> Box<dyn NativeGame> {
        let defaults = json!({
            "size": 5, "bones": 8, "max_moves": 200, "start": null, "difficulty": 0,
        });
        load(defaults, params, super::super::load_puzzle)
    }

    /// The tensor of every seat and the spectator, checked to be one and the same.
    fn tensor(game: &dyn NativeGame, state: &dyn DynState) -> Vec<f32> {
        let size: usize = game.observation_tensor_shape().unwrap().iter().product();
        let mut out = vec![0.5; size];
        assert!(state.observation_tensor(None, &mut out));
        for seat in 0..state.num_players() {
            let mut seen = vec![0.5; size];
            assert!(state.observation_tensor(Some(seat), &mut seen));
            assert_eq!(seen, out);
        }
        out
    }

    fn play(state: &mut Box<dyn DynState>, actions: &[&str]) {
        for action in actions {
            let id = state.string_to_action(action).unwrap();
            state.apply_action(i64::from(id)).unwrap();
        }
    }

    fn plane(out: &[f32], index: usize, cells: usize) -> &[f32] {
        &out[index * cells..(index + 1) * cells]
    }

    #[test]
    fn the_duel_planes_show_each_colour_and_side_then_supplies_and_the_turn() {
        let game = duel(json!({"bones_per_player": 3, "start": "...../...../..o../W.w../.R... w"}));
        let state = game.new_initial_state();
        assert_eq!(game.observation_tensor_shape(), Some(vec![5 * 25 + 3]));
        let out = tensor(&*game, &*state);
        assert_eq!(plane(&out, 0, 25)[1], 1.0); // red up on b1
        assert_eq!(plane(&out, 2, 25)[5], 1.0); // white up on a2
        assert_eq!(plane(&out, 3, 25)[7], 1.0); // white down on c2
        assert_eq!(plane(&out, 1, 25).iter().sum::<f32>(), 0.0); // no red bone is down
        assert_eq!(plane(&out, 4, 25).iter().sum::<f32>(), 21.0); // 24 resting cells, 3 bones
        assert_eq!(plane(&out, 4, 25)[12], 0.0); // the center is in no plane
        let third = (2.0f64 / 3.0) as f32;
        assert_eq!(out[125..], [third, (1.0f64 / 3.0) as f32, 1.0]);
    }

    #[test]
    fn a_rolled_bone_shows_as_an_empty_cell_and_the_turn_as_nobodys() {
        let game = duel(json!({"wild": true, "bones_per_player": 3}));
        let mut state = game.new_initial_state();
        play(&mut state, &["place b2 wild"]);
        let out = tensor(&*game, &*state);
        assert_eq!(plane(&out, 4, 25)[6], 1.0);
        assert_eq!(out[..100].iter().sum::<f32>(), 0.0);
        assert_eq!(out[125..], [(2.0f64 / 3.0) as f32, 1.0, 0.0]);
        play(&mut state, &["down"]);
        let out = tensor(&*game, &*state);
        assert_eq!((plane(&out, 1, 25)[6], plane(&out, 4, 25)[6]), (1.0, 0.0));
        assert_eq!(out[127], 1.0); // white to move
    }

    #[test]
    fn the_puzzle_planes_show_up_down_and_empty_cells() {
        let game = puzzle(json!({"start": "U...D/.D.../..o../...U./D...U"}));
        let state = game.new_initial_state();
        assert_eq!(game.observation_tensor_shape(), Some(vec![3, 5, 5]));
        let out = tensor(&*game, &*state);
        let up: Vec<usize> = (0..25).filter(|&c| plane(&out, 0, 25)[c] == 1.0).collect();
        let down: Vec<usize> = (0..25).filter(|&c| plane(&out, 1, 25)[c] == 1.0).collect();
        assert_eq!(up, vec![4, 8, 20]); // e1, d2, a5
        assert_eq!(down, vec![0, 16, 24]); // a1, b4, e5
        assert_eq!(plane(&out, 2, 25).iter().sum::<f32>(), 18.0);
        assert_eq!(plane(&out, 2, 25)[12], 0.0);
    }

    #[test]
    fn a_bone_being_dealt_is_not_yet_on_the_board() {
        let game = puzzle(json!({"size": 3, "bones": 2}));
        let mut state = game.new_initial_state();
        play(&mut state, &["bone a1"]);
        let out = tensor(&*game, &*state);
        assert_eq!(out[..18].iter().sum::<f32>(), 0.0);
        assert_eq!(plane(&out, 2, 9).iter().sum::<f32>(), 8.0);
    }

    #[test]
    fn a_buffer_of_another_size_is_left_alone() {
        for game in [duel(json!({})), puzzle(json!({"size": 3, "bones": 2}))] {
            let state = game.new_initial_state();
            let mut short = vec![0.5; 10];
            assert!(!state.observation_tensor(Some(0), &mut short));
            assert!(short.iter().all(|&v| v == 0.5));
        }
    }
}
