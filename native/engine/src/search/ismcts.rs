//! `ismcts`: single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012), the
//! twin of `boneyard/ai/mcts.py`'s `ISMCTSBot`.
//!
//! Every iteration draws a fresh world from the acting seat's information alone
//! (`Rules::resample(seat, ..)` from the search's seeded generator: the true hidden cards and
//! cones are never read) and walks one tree whose chance edges are keyed by what the seat sees of
//! each outcome (`action_string_for(seat, ..)`), so the tree's nodes are the seat's information
//! sets and every determinization adds to the same statistics.
//!
//! Why this one and not determinized UCT over N resamples with the root statistics summed: a
//! separate tree per resample spends its iterations on positions it then throws away and plans
//! each world as if its hidden cards were known (strategy fusion: a move that only pays in some
//! worlds looks good in each); one tree over information sets shares every iteration, chooses
//! the same move in every world the seat cannot tell apart, and is the Python reference's
//! algorithm, so the two can be held to each other.

use super::mcts::run_tree_search;
use super::{SearchOutcome, SearchRequest};
use crate::core::{EngineError, Played, Rules};

pub fn search<R: Rules>(
    state: &Played<R>,
    request: &SearchRequest,
) -> Result<SearchOutcome, EngineError> {
    run_tree_search("ismcts", state, request, true)
}
