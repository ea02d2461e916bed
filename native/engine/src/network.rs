//! The policy-value network of `boneyard/ai/network.py`, evaluated in Rust: the same MLP over a
//! seat's observation tensor and the same three action heads, so a native search can value its
//! leaves without Python. The weights come from a model file (`.npz`), which the Python side
//! reads and hands over (`Network::new`); this module only computes.
//!
//! ```text
//! x = relu(... relu(tensor @ W0 + b0) ... @ Wn + bn)
//! head logits = x @ Wp + bp        kind | row | column of each flat id
//! values      = tanh(x @ Wv + bv)  one per seat, the mover first (or the mover's alone)
//! ```
//!
//! An action's logit is the sum of its three heads' logits (`heads[action]` are their positions
//! in the concatenated head logits), and the policy is their softmax over the legal actions,
//! computed in `f32` as numpy computes it.

use crate::core::{Action, EngineError};

/// One affine layer `x @ weight + bias`, `weight` row-major `[inputs][outputs]` (numpy's layout).
#[derive(Debug, Clone)]
pub struct Dense {
    inputs: usize,
    outputs: usize,
    weight: Vec<f32>,
    bias: Vec<f32>,
}

impl Dense {
    /// A layer of `inputs x outputs` weights (row-major) and `outputs` biases; `name` is its
    /// name in the model file, for the error.
    pub fn new(
        name: &str,
        inputs: usize,
        outputs: usize,
        weight: Vec<f32>,
        bias: Vec<f32>,
    ) -> Result<Dense, EngineError> {
        if inputs == 0 || outputs == 0 || weight.len() != inputs * outputs {
            return Err(EngineError::InvalidParameter(format!(
                "layer {name}: {} weights for {inputs} inputs and {outputs} outputs (it needs \
                 {inputs} x {outputs}, neither 0)",
                weight.len()
            )));
        }
        if bias.len() != outputs {
            return Err(EngineError::InvalidParameter(format!(
                "layer {name}: {} biases for {outputs} outputs",
                bias.len()
            )));
        }
        Ok(Dense {
            inputs,
            outputs,
            weight,
            bias,
        })
    }

    pub fn inputs(&self) -> usize {
        self.inputs
    }

    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// `rows` rows of `x` (`[rows][inputs]`) through the layer into `out` (`[rows][outputs]`).
    /// Observation tensors are mostly zeros (one-hot planes), so a zero input's row of weights
    /// is skipped: the sum is the same.
    fn apply(&self, x: &[f32], rows: usize, out: &mut Vec<f32>) {
        out.clear();
        out.resize(rows * self.outputs, 0.0);
        for (row, sums) in x
            .chunks_exact(self.inputs)
            .zip(out.chunks_exact_mut(self.outputs))
        {
            for (&input, weights) in row.iter().zip(self.weight.chunks_exact(self.outputs)) {
                if input == 0.0 {
                    continue;
                }
                for (sum, &weight) in sums.iter_mut().zip(weights) {
                    *sum += input * weight;
                }
            }
            for (sum, &bias) in sums.iter_mut().zip(&self.bias) {
                *sum += bias;
            }
        }
        debug_assert_eq!(out.len(), rows * self.outputs);
    }
}

/// The head logits and values of a batch of observations: `rows` rows each.
#[derive(Debug, Clone, Default)]
pub struct Forward {
    pub head_logits: Vec<f32>,
    pub values: Vec<f32>,
}

/// A loaded policy-value network (`boneyard.ai.network.Network`'s numbers).
#[derive(Debug, Clone)]
pub struct Network {
    hidden: Vec<Dense>,
    policy: Dense,
    value: Dense,
    /// Per flat action id, the positions of its kind, row and column in the head logits.
    heads: Vec<[u32; 3]>,
}

impl Network {
    /// A network from its layers (`w0, b0, ...`), its policy head (`wp, bp`), its value head
    /// (`wv, bv`) and each flat id's three head positions (`Network.index`); the shapes must
    /// chain and every head position must fall inside the policy head's outputs.
    pub fn new(
        hidden: Vec<Dense>,
        policy: Dense,
        value: Dense,
        heads: Vec<[u32; 3]>,
    ) -> Result<Network, EngineError> {
        let bad = |message: String| EngineError::InvalidParameter(message);
        let Some(last) = hidden.last() else {
            return Err(bad("a network needs at least one hidden layer".to_string()));
        };
        for (i, pair) in hidden.windows(2).enumerate() {
            if pair[0].outputs != pair[1].inputs {
                return Err(bad(format!(
                    "layer w{} has {} outputs but layer w{} takes {} inputs",
                    i,
                    pair[0].outputs,
                    i + 1,
                    pair[1].inputs
                )));
            }
        }
        for (name, head) in [("wp", &policy), ("wv", &value)] {
            if head.inputs != last.outputs {
                return Err(bad(format!(
                    "head {name} takes {} inputs but the last hidden layer has {} outputs",
                    head.inputs, last.outputs
                )));
            }
        }
        if heads.is_empty() {
            return Err(bad(
                "a network needs the head positions of its actions".to_string()
            ));
        }
        if let Some((id, position)) = heads
            .iter()
            .enumerate()
            .find(|(_, p)| p.iter().any(|&k| k as usize >= policy.outputs))
        {
            return Err(bad(format!(
                "action {id}'s head positions {position:?} are past the policy head's {} outputs",
                policy.outputs
            )));
        }
        Ok(Network {
            hidden,
            policy,
            value,
            heads,
        })
    }

    /// The observation tensor's size the network reads.
    pub fn input_size(&self) -> usize {
        self.hidden[0].inputs
    }

    /// The number of head logits (`sum(head_sizes)`).
    pub fn head_outputs(&self) -> usize {
        self.policy.outputs
    }

    /// 1: an older file's mover's value of a two-player game; else one per seat, the mover first.
    pub fn value_outputs(&self) -> usize {
        self.value.outputs
    }

    /// The flat action ids the heads cover.
    pub fn num_actions(&self) -> usize {
        self.heads.len()
    }

    /// Head logits `[rows][head_outputs]` and values `[rows][value_outputs]` of `rows` flat
    /// observation tensors (`features`, `[rows][input_size]`): `Network.forward`.
    pub fn forward(&self, features: &[f32], rows: usize) -> Result<Forward, EngineError> {
        if features.len() != rows * self.input_size() {
            return Err(EngineError::InvalidParameter(format!(
                "{} numbers are not {rows} observations of {}",
                features.len(),
                self.input_size()
            )));
        }
        let mut x = features.to_vec();
        let mut next = Vec::new();
        for layer in &self.hidden {
            layer.apply(&x, rows, &mut next);
            for v in next.iter_mut() {
                *v = v.max(0.0);
            }
            std::mem::swap(&mut x, &mut next);
        }
        let mut out = Forward::default();
        self.policy.apply(&x, rows, &mut out.head_logits);
        self.value.apply(&x, rows, &mut out.values);
        for v in out.values.iter_mut() {
            *v = v.tanh();
        }
        Ok(out)
    }

    /// The logits of `actions` from one row of head logits: the sum of their heads' logits.
    pub fn action_logits(
        &self,
        head_logits: &[f32],
        actions: &[Action],
    ) -> Result<Vec<f32>, EngineError> {
        actions
            .iter()
            .map(|&action| match self.heads.get(action as usize) {
                Some(&[kind, row, column]) => Ok(head_logits[kind as usize]
                    + head_logits[row as usize]
                    + head_logits[column as usize]),
                None => Err(EngineError::InvalidParameter(format!(
                    "action {action} is past the network's {} actions: it was made for \
                     another game or variant",
                    self.heads.len()
                ))),
            })
            .collect()
    }

    /// The policy over `actions` (legal ones, in their order) from one row of head logits: the
    /// softmax of their logits, in `f32` as numpy computes it.
    pub fn policy(&self, head_logits: &[f32], actions: &[Action]) -> Result<Vec<f64>, EngineError> {
        let logits = self.action_logits(head_logits, actions)?;
        let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let weights: Vec<f32> = logits.iter().map(|&l| (l - top).exp()).collect();
        let total: f32 = weights.iter().sum();
        Ok(weights.iter().map(|&w| f64::from(w / total)).collect())
    }

    /// One row of value outputs as values by seat number (-1 to 1) for a game of `players`
    /// seats whose mover is `mover`: `Network.seat_values` (an older file's one value is the
    /// mover's; each other seat gets its share of the negation).
    pub fn seat_values(
        &self,
        values: &[f32],
        mover: usize,
        players: usize,
    ) -> Result<Vec<f64>, EngineError> {
        if self.value_outputs() == 1 {
            let mine = f64::from(values[0]);
            let share = (players.max(2) - 1) as f64;
            return Ok((0..players)
                .map(|seat| if seat == mover { mine } else { -mine / share })
                .collect());
        }
        if self.value_outputs() != players {
            return Err(EngineError::InvalidParameter(format!(
                "this network values {} seats, the game has {players}",
                self.value_outputs()
            )));
        }
        let mut seats = vec![0.0; players];
        for (k, &value) in values.iter().enumerate() {
            seats[(mover + k) % players] = f64::from(value);
        }
        Ok(seats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Network {
        // 2 inputs -> 2 hidden -> 3 head logits, 2 values; 2 actions
        let hidden = Dense::new("w0", 2, 2, vec![1.0, -1.0, 0.5, 2.0], vec![0.0, 0.1]).unwrap();
        let policy = Dense::new(
            "wp",
            2,
            3,
            vec![1.0, 0.0, 2.0, 0.0, 1.0, -1.0],
            vec![0.0; 3],
        );
        let value = Dense::new("wv", 2, 2, vec![0.1, -0.1, 0.2, 0.3], vec![0.0, 0.0]);
        Network::new(
            vec![hidden],
            policy.unwrap(),
            value.unwrap(),
            vec![[0, 1, 2], [0, 2, 2]],
        )
        .unwrap()
    }

    #[test]
    fn a_forward_pass_is_the_formula() {
        let network = tiny();
        let out = network.forward(&[1.0, 2.0, 0.0, 0.0], 2).unwrap();
        // hidden: relu([1 + 1, -1 + 4 + 0.1]) = [2, 3.1]; the zero row: relu(b) = [0, 0.1]
        let head = [2.0, 3.1, 4.0 - 3.1];
        for (got, want) in out.head_logits[..3].iter().zip(head) {
            assert!((got - want).abs() < 1e-6, "{got} {want}");
        }
        assert!((out.values[0] - (0.2f32 + 0.62).tanh()).abs() < 1e-6);
        assert!((out.head_logits[4] - 0.1).abs() < 1e-6);
        let policy = network.policy(&out.head_logits[..3], &[0, 1]).unwrap();
        assert!((policy.iter().sum::<f64>() - 1.0).abs() < 1e-6);
        assert!(policy[0] > policy[1]); // 2 + 3.1 + 0.9 against 2 + 0.9 + 0.9
    }

    #[test]
    fn bad_shapes_and_ids_are_refused_with_a_sentence() {
        assert!(Dense::new("w0", 2, 2, vec![0.0; 3], vec![0.0; 2]).is_err());
        let network = tiny();
        let error = network.policy(&[0.0; 3], &[5]).unwrap_err();
        assert!(error.message().contains("past the network's 2 actions"));
        assert!(network.forward(&[0.0; 3], 2).is_err());
        assert_eq!(
            network.seat_values(&[0.5, -0.5], 1, 2).unwrap(),
            [-0.5, 0.5]
        );
    }
}
