//! Obonto's observation tensor, as `boneyard/games/obonto/tensor.py` lays it out: nine 9x9
//! planes, flattened plane by plane, rank 1 first within a plane (index `rank0 * 9 + file0`):
//!
//! * plane 0: light squares (1.0) versus dark ones (0.0)
//! * planes 1-3: the observer's lion, zebra, camel
//! * planes 4-6: the opponent's lion, zebra, camel
//! * plane 7: all 1.0 when the observer is the player to move
//! * plane 8: all 1.0 in the solo phase
//!
//! The observer is `seat`; for a spectator it is the seat to move. Obonto hides nothing, so the
//! state's fields show a seat nothing its observation does not.

use super::notation::{SIZE, SQUARES};
use super::rules::ObontoRules;
use crate::core::Rules;

pub const PLANES: usize = 9;
pub const SHAPE: [usize; 3] = [PLANES, SIZE, SIZE];

/// The planes of `seat`'s view written into `out`; `false` (and nothing written) when `out` is
/// not `PLANES * 81` long.
pub fn write(state: &ObontoRules, seat: Option<usize>, out: &mut [f32]) -> bool {
    if out.len() != PLANES * SQUARES {
        return false;
    }
    let observer = seat.unwrap_or(usize::from(state.to_move));
    let (light, rest) = out.split_at_mut(SQUARES);
    for (square, value) in light.iter_mut().enumerate() {
        *value = if state.dark >> square & 1 == 1 {
            0.0
        } else {
            1.0
        };
    }
    rest.fill(0.0);
    let plane = |index: usize| index * SQUARES..(index + 1) * SQUARES;
    for (slot, &square) in state.animals.iter().enumerate() {
        let (owner, kind) = (slot / 3, slot % 3);
        let first_plane = if owner == observer { 1 } else { 4 };
        if let Some(value) = out.get_mut((first_plane + kind) * SQUARES + usize::from(square)) {
            *value = 1.0;
        }
    }
    if usize::try_from(state.current_player()) == Ok(observer) {
        out[plane(7)].fill(1.0);
    }
    if state.phase() == "solo" {
        out[plane(8)].fill(1.0);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Params;
    use crate::games::obonto::rules::load;

    fn planes(seat: Option<usize>) -> Vec<f32> {
        let params = Params::from_json(
            r#"{"games": 1, "target": 0, "start": "d1,e1,f1,f9,e9,d9", "first": 0}"#,
        )
        .unwrap();
        let state = load(&params).unwrap().new_initial_state();
        let mut out = vec![0.5; PLANES * SQUARES];
        assert!(state.observation_tensor(seat, &mut out));
        out
    }

    fn plane(out: &[f32], index: usize) -> &[f32] {
        &out[index * SQUARES..(index + 1) * SQUARES]
    }

    #[test]
    fn the_planes_show_light_squares_own_and_other_animals_and_the_turn() {
        let south = planes(Some(0));
        assert_eq!(plane(&south, 0).iter().sum::<f32>(), 77.0); // c3, g3, c7, g7 dark
        assert_eq!(plane(&south, 1)[3], 1.0); // South's lion on d1
        assert_eq!(plane(&south, 4)[77], 1.0); // North's lion on f9
        assert!(plane(&south, 7).iter().all(|&v| v == 1.0));
        assert!(plane(&south, 8).iter().all(|&v| v == 0.0));
        let north = planes(Some(1));
        assert_eq!((plane(&north, 1)[77], plane(&north, 4)[3]), (1.0, 1.0));
        assert!(plane(&north, 7).iter().all(|&v| v == 0.0));
        assert_eq!(planes(None), south); // a spectator sees as the seat to move
        assert_eq!(
            planes(Some(0)).iter().filter(|&&v| v == 1.0).count(),
            77 + 6 + 81
        );
    }

    #[test]
    fn a_buffer_of_another_size_is_left_alone() {
        let params = Params::from_json(
            r#"{"games": 1, "target": 0, "start": "d1,e1,f1,f9,e9,d9", "first": 0}"#,
        )
        .unwrap();
        let state = load(&params).unwrap().new_initial_state();
        let mut short = vec![0.5; 10];
        assert!(!state.observation_tensor(Some(0), &mut short));
        assert!(short.iter().all(|&v| v == 0.5));
    }
}
