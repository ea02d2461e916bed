//! `boneyard.native._engine`: the native engines as Python objects. The bindings only bind:
//! every rule, every message and the contract's bookkeeping live in `boneyard-engine`; this
//! file turns Python values into Rust ones and errors into boneyard's exception classes.

use std::cell::RefCell;
use std::sync::Arc;

use boneyard_engine::network::{Dense, Network};
use boneyard_engine::search::expert::{search_many, ExpertOptions};
use boneyard_engine::search::SearchRequest;
use boneyard_engine::solvers::oyno_duel::{position_count, DuelSolution, MAX_LAYER_EDGES};
use boneyard_engine::{Batch, BatchArrays, DynState, EngineError, NativeGame, Params, Randomness};
use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::{PyNotImplementedError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyType};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// The Python exception of an engine error: the class of the same name in `boneyard.core.errors`.
fn raise(py: Python<'_>, error: EngineError) -> PyErr {
    let class = match &error {
        EngineError::IllegalAction(_) => "IllegalActionError",
        EngineError::InvalidActionString(_) => "InvalidActionStringError",
        EngineError::InvalidParameter(_) => "InvalidParameterError",
        EngineError::InvalidState(_) => "InvalidStateError",
        EngineError::UnknownGame(_) => "UnknownGameError",
        EngineError::BadSeat(message) => return PyValueError::new_err(message.clone()),
        EngineError::NotSupported(message) => {
            return PyNotImplementedError::new_err(message.clone())
        }
    };
    let message = error.message().to_string();
    match py
        .import("boneyard.core.errors")
        .and_then(|module| module.getattr(class))
        .and_then(|found| found.cast_into::<PyType>().map_err(PyErr::from))
    {
        Ok(class) => PyErr::from_type(class, message),
        Err(_) => PyRuntimeError::new_err(message),
    }
}

fn json_to_python<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value).map_err(|error| PyRuntimeError::new_err(error.to_string()))
}

/// A seat as Python gives it: `None` (a spectator) or an int of the game's seats; anything else
/// is the Python engine's `ValueError`.
fn read_seat(seat: &Bound<'_, PyAny>, name: &str, players: usize) -> PyResult<Option<usize>> {
    if seat.is_none() {
        return Ok(None);
    }
    let number = if seat.is_instance_of::<PyBool>() {
        None
    } else {
        seat.extract::<i64>().ok()
    };
    match number {
        Some(n) if (0..players as i64).contains(&n) => Ok(Some(n as usize)),
        _ => Err(PyValueError::new_err(format!(
            "bad seat {} for {name}: seats are 0 to {}, or None for a spectator",
            seat.repr()?,
            players - 1
        ))),
    }
}

/// Python's `random.Random`, drawn from as the Python rules draw (`randrange`, `random`), so a
/// native resample gives what the Python engine gives from the same generator. The first error a
/// call raises is kept and raised once the engine returns.
struct PythonRandom<'a, 'py> {
    rng: &'a Bound<'py, PyAny>,
    error: RefCell<Option<PyErr>>,
}

impl Randomness for PythonRandom<'_, '_> {
    fn below(&mut self, n: u64) -> u64 {
        if self.error.borrow().is_some() {
            return 0;
        }
        match self
            .rng
            .call_method1("randrange", (n,))
            .and_then(|v| v.extract::<u64>())
        {
            Ok(value) if value < n => value,
            Ok(_) => 0,
            Err(error) => {
                self.error.replace(Some(error));
                0
            }
        }
    }

    fn unit(&mut self) -> f64 {
        if self.error.borrow().is_some() {
            return 0.0;
        }
        match self
            .rng
            .call_method0("random")
            .and_then(|v| v.extract::<f64>())
        {
            Ok(value) => value,
            Err(error) => {
                self.error.replace(Some(error));
                0.0
            }
        }
    }
}

/// The Python ints of a game's action ids, made once per loaded game: a list of legal actions is
/// then built from references, not from new int objects (Python keeps only -5..256 ready made,
/// and most games' ids go far past that).
type ActionIds = Arc<[Py<PyAny>]>;

fn python_int(py: Python<'_>, value: usize) -> Bound<'_, PyAny> {
    match value.into_pyobject(py) {
        Ok(int) => int.into_any(),
        Err(never) => match never {},
    }
}

fn action_list<'py>(
    py: Python<'py>,
    ids: &ActionIds,
    actions: &[u32],
) -> PyResult<Bound<'py, PyList>> {
    let items = actions
        .iter()
        .map(|&action| match ids.get(action as usize) {
            Some(id) => id.clone_ref(py).into_bound(py),
            None => python_int(py, action as usize),
        });
    PyList::new(py, items)
}

/// A loaded native game: `boneyard.native.NativeGame` holds one and asks it for states.
#[pyclass(name = "Game", module = "boneyard.native._engine", frozen)]
struct PyGame {
    inner: Box<dyn NativeGame>,
    ids: ActionIds,
}

#[pymethods]
impl PyGame {
    /// The game `name` with `params_json` (Python's resolved parameters); `ids` how many action
    /// ids it has (player actions or chance outcomes, whichever are more).
    #[new]
    fn new(py: Python<'_>, name: &str, params_json: &str, ids: usize) -> PyResult<PyGame> {
        let params = Params::from_json(params_json).map_err(|e| raise(py, e))?;
        let inner = boneyard_engine::load_game(name, &params).map_err(|e| raise(py, e))?;
        let ids: Vec<Py<PyAny>> = (0..ids).map(|id| python_int(py, id).unbind()).collect();
        Ok(PyGame {
            inner,
            ids: ids.into(),
        })
    }

    /// A new state; `owner` is what its `game` attribute gives (the Python-side game).
    fn new_initial_state(&self, owner: Py<PyAny>) -> PyState {
        PyState {
            inner: self.inner.new_initial_state(),
            game: owner,
            ids: self.ids.clone(),
        }
    }

    /// A state from the Python engine's snapshot (JSON text) and its history.
    fn state_from_snapshot(
        &self,
        py: Python<'_>,
        owner: Py<PyAny>,
        snapshot_json: &str,
        history: Vec<u32>,
    ) -> PyResult<PyState> {
        let snapshot: serde_json::Value = serde_json::from_str(snapshot_json).map_err(|error| {
            raise(
                py,
                EngineError::InvalidState(format!("bad snapshot: {error}")),
            )
        })?;
        let inner = self
            .inner
            .state_from_snapshot(&snapshot, history)
            .map_err(|e| raise(py, e))?;
        Ok(PyState {
            inner,
            game: owner,
            ids: self.ids.clone(),
        })
    }

    /// Play `games` uniformly random games to the end inside Rust, without the GIL; returns
    /// `(games, actions)` played.
    fn random_playouts(&self, py: Python<'_>, games: usize, seed: u64) -> (usize, usize) {
        let game = &self.inner;
        py.detach(|| {
            let mut rng = SmallRng::seed_from_u64(seed);
            let actions = (0..games)
                .map(|_| game.new_initial_state().play_out(&mut rng))
                .sum();
            (games, actions)
        })
    }
}

/// One position of a native game, with the engine contract of `boneyard.core.game.State`.
#[pyclass(name = "State", module = "boneyard.native._engine")]
struct PyState {
    inner: Box<dyn DynState>,
    game: Py<PyAny>,
    ids: ActionIds,
}

impl PyState {
    fn refuse(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyErr {
        let shown = action
            .repr()
            .map(|r| r.to_string())
            .unwrap_or_else(|_| "?".to_string());
        raise(py, self.inner.refusal(&shown))
    }

    /// An action given as a Python int (never a bool), else `None`.
    fn action_id(action: &Bound<'_, PyAny>) -> Option<i64> {
        if action.is_instance_of::<PyBool>() || !action.is_instance_of::<PyInt>() {
            return None;
        }
        // An int past i64 is no action of any game: -1 is refused the same way.
        Some(action.extract::<i64>().unwrap_or(-1))
    }
}

#[pymethods]
impl PyState {
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<PyAny> {
        self.game.clone_ref(py)
    }

    fn current_player(&self) -> i32 {
        self.inner.current_player()
    }

    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    fn is_chance_node(&self) -> bool {
        self.inner.is_chance_node()
    }

    fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        action_list(py, &self.ids, self.inner.legal_actions())
    }

    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        self.inner.chance_outcomes()
    }

    /// Play `action`; an illegal one raises `IllegalActionError` and changes nothing.
    fn apply_action(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        match Self::action_id(action) {
            Some(id) => self.inner.apply_action(id).map_err(|e| raise(py, e)),
            None => Err(self.refuse(py, action)),
        }
    }

    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }

    fn history(&self) -> Vec<u32> {
        self.inner.history().to_vec()
    }

    fn move_number(&self) -> usize {
        self.inner.history().len()
    }

    /// The game's heuristic value of this state for `seat` (`Rules::heuristic`, the twin of the
    /// Python `Game.evaluate`), or `None` where the native game has not ported it.
    fn heuristic(&self, seat: i64) -> PyResult<Option<f64>> {
        let players = self.inner.num_players();
        match usize::try_from(seat).ok().filter(|&s| s < players) {
            Some(seat) => Ok(self.inner.heuristic(seat)),
            None => Err(PyValueError::new_err(format!(
                "bad seat {seat} for {}: seats are 0 to {}",
                self.inner.name(),
                players - 1
            ))),
        }
    }

    fn action_to_string(&self, py: Python<'_>, action: i64) -> PyResult<String> {
        self.inner
            .action_to_string(action)
            .map_err(|e| raise(py, e))
    }

    fn string_to_action(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<u32> {
        let Ok(text) = text.cast::<PyString>() else {
            let kind = text.get_type().name()?;
            return Err(raise(
                py,
                EngineError::InvalidActionString(format!("an action string is text, not {kind}")),
            ));
        };
        self.inner
            .string_to_action(&text.to_cow()?)
            .map_err(|e| raise(py, e))
    }

    fn action_string_for(
        &self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        action: i64,
    ) -> PyResult<String> {
        let seat = read_seat(seat, self.inner.name(), self.inner.num_players())?;
        self.inner
            .action_string_for(seat, action)
            .map_err(|e| raise(py, e))
    }

    /// All that `seat` may know, as JSON-safe data; `None` is a spectator.
    #[pyo3(signature = (seat=None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = match seat {
            Some(seat) => read_seat(seat, self.inner.name(), self.inner.num_players())?,
            None => None,
        };
        let view = self.inner.observation(seat).map_err(|e| raise(py, e))?;
        json_to_python(py, &view)
    }

    /// The native observation tensor of `seat` (`None`: the spectator), flattened, for a game
    /// whose tensor has `size` numbers (the tests reach every seat's tensor through it; the
    /// batch writes only the player to move's).
    #[pyo3(signature = (seat, size))]
    fn observation_tensor(&self, seat: &Bound<'_, PyAny>, size: usize) -> PyResult<Vec<f32>> {
        let seat = read_seat(seat, self.inner.name(), self.inner.num_players())?;
        let mut out = vec![0.0; size];
        if self.inner.observation_tensor(seat, &mut out) {
            Ok(out)
        } else {
            Err(PyNotImplementedError::new_err(format!(
                "{} has no native observation tensor of {size} numbers",
                self.inner.name()
            )))
        }
    }

    /// One short reason in plain words why `action` (an id or its notation) is refused now.
    fn why_illegal(&mut self, action: &Bound<'_, PyAny>) -> String {
        let id = match action.cast::<PyString>() {
            Ok(text) => match text.to_cow() {
                Ok(text) => self.inner.string_to_action(&text).ok().map(i64::from),
                Err(_) => None,
            },
            Err(_) => Self::action_id(action),
        };
        self.inner.why_illegal(id.unwrap_or(-1))
    }

    /// A full state consistent with `observation(seat)`, its unknowns drawn from `rng` (a
    /// `random.Random`).
    fn resample(
        &self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        rng: &Bound<'_, PyAny>,
    ) -> PyResult<PyState> {
        let Some(seat) = read_seat(seat, self.inner.name(), self.inner.num_players())? else {
            return Err(PyValueError::new_err("resample takes a seat, not None"));
        };
        let mut random = PythonRandom {
            rng,
            error: RefCell::new(None),
        };
        let sampled = self.inner.resample(seat, &mut random);
        if let Some(error) = random.error.take() {
            return Err(error);
        }
        let inner = sampled.map_err(|e| raise(py, e))?;
        Ok(PyState {
            inner,
            game: self.game.clone_ref(py),
            ids: self.ids.clone(),
        })
    }

    /// Search for the mover's action with the native search `search` (its `options` a JSON
    /// object), within `time_limit_ms` and/or `iterations`, seeded by `seed`; the GIL is released
    /// while it thinks. A dict: `action`, `values` (per seat), `visits` (per root action),
    /// `iterations`, `elapsed_ms`, `action_values` (per root action its value, where the search
    /// gives one: Bond O Cones' `lookahead`).
    #[pyo3(signature = (search, options_json, time_limit_ms, iterations, seed))]
    fn search<'py>(
        &self,
        py: Python<'py>,
        search: &str,
        options_json: &str,
        time_limit_ms: Option<u64>,
        iterations: Option<u64>,
        seed: u64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let options: serde_json::Value = serde_json::from_str(options_json)
            .map_err(|e| PyValueError::new_err(format!("search options are not JSON: {e}")))?;
        let request = SearchRequest {
            search: search.to_string(),
            options,
            time_limit_ms,
            iterations,
            seed,
        };
        let state = &self.inner;
        let outcome = py
            .detach(|| state.search(&request))
            .map_err(|e| raise(py, e))?;
        let found = PyDict::new(py);
        found.set_item("action", outcome.action)?;
        found.set_item("values", outcome.values)?;
        found.set_item("visits", outcome.visits)?;
        found.set_item("iterations", outcome.iterations)?;
        found.set_item("elapsed_ms", outcome.elapsed_ms)?;
        found.set_item("action_values", outcome.action_values)?;
        Ok(found)
    }

    fn clone(&self, py: Python<'_>) -> PyState {
        PyState {
            inner: self.inner.clone_box(),
            game: self.game.clone_ref(py),
            ids: self.ids.clone(),
        }
    }

    fn __copy__(&self, py: Python<'_>) -> PyState {
        self.clone(py)
    }

    /// A JSON-safe document that `game.state_from_json` (of either engine) turns back into it.
    fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let doc = PyDict::new(py);
        let game = self.game.bind(py);
        doc.set_item("game", self.inner.name())?;
        let params = PyDict::new(py);
        params.update(game.getattr("params")?.cast::<pyo3::types::PyMapping>()?)?;
        doc.set_item("params", params)?;
        doc.set_item("history", PyList::new(py, self.inner.history())?)?;
        if let Some(snapshot) = self.inner.snapshot() {
            doc.set_item("snapshot", json_to_python(py, &snapshot)?)?;
        }
        Ok(doc)
    }

    /// Pickled as its JSON document, rebuilt by its game.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        Ok((
            self.game.bind(py).getattr("state_from_json")?,
            (self.to_json(py)?,),
        ))
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        let view = json_to_python(py, &self.inner.text_view())?;
        self.game
            .bind(py)
            .call_method1("render_text", (view,))?
            .extract()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let game = self.game.bind(py).repr()?;
        Ok(format!(
            "<native State of {game} after {} actions>",
            self.inner.history().len()
        ))
    }
}

/// Many games of one game stepped in Rust threads (`boneyard.native.batch.NativeBatch` holds one
/// and owns the numpy arrays it copies into).
#[pyclass(name = "Batch", module = "boneyard.native._engine")]
struct PyBatch {
    batch: Batch,
    game: Py<PyGame>,
    arrays: BatchArrays,
    threads: usize,
}

fn copy_into<T: Element + Copy>(
    py: Python<'_>,
    target: &Bound<'_, PyAny>,
    data: &[T],
) -> PyResult<()> {
    PyBuffer::<T>::get(target)?.copy_from_slice(py, data)
}

#[pymethods]
impl PyBatch {
    #[new]
    #[allow(clippy::too_many_arguments)] // the keywords of NativeBatch's constructor, one each
    fn new(
        py: Python<'_>,
        game: Py<PyGame>,
        games: usize,
        seed: u64,
        num_actions: usize,
        players: usize,
        tensor_size: usize,
        threads: usize,
    ) -> PyResult<PyBatch> {
        let batch = Batch::new(
            game.get().inner.as_ref(),
            games,
            seed,
            num_actions,
            players,
            tensor_size,
        )
        .map_err(|e| raise(py, e))?;
        Ok(PyBatch {
            batch,
            game,
            arrays: BatchArrays::default(),
            threads: threads.max(1),
        })
    }

    /// Every game new, game `i` drawing from `seed + i`, without the GIL.
    fn reset(&mut self, py: Python<'_>, seed: u64) {
        let (batch, arrays, threads) = (&mut self.batch, &mut self.arrays, self.threads);
        let game = self.game.get().inner.as_ref();
        py.detach(|| batch.reset(game, seed, threads, arrays));
    }

    /// One action a game (an int64 buffer), played without the GIL.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let actions: Vec<i64> = PyBuffer::<i64>::get(actions)?.to_vec(py)?;
        let (batch, arrays, threads) = (&mut self.batch, &mut self.arrays, self.threads);
        let game = self.game.get().inner.as_ref();
        py.detach(|| batch.step(game, &actions, threads, arrays))
            .map_err(|e| raise(py, e))
    }

    /// A uniformly random legal action of each game, as an int64 buffer's contents.
    fn random_actions(&mut self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut actions = Vec::with_capacity(self.batch.len());
        self.batch.random_actions(&mut actions);
        copy_into(py, out, &actions)
    }

    /// Copy the arrays into the given buffers (uint8 mask and flags, int32 players, float32
    /// rewards and observations; `observation` may be None).
    fn read_into(
        &self,
        py: Python<'_>,
        mask: &Bound<'_, PyAny>,
        current_player: &Bound<'_, PyAny>,
        rewards: &Bound<'_, PyAny>,
        terminated: &Bound<'_, PyAny>,
        observation: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let arrays = &self.arrays;
        copy_into(py, mask, &arrays.legal_action_mask)?;
        copy_into(py, current_player, &arrays.current_player)?;
        copy_into(py, rewards, &arrays.rewards)?;
        copy_into(py, terminated, &arrays.terminated)?;
        if let Some(observation) = observation {
            copy_into(py, observation, &arrays.observation)?;
        }
        Ok(())
    }

    /// Game `index` as a state (a copy), `owner` its Python-side game.
    fn state(&self, owner: Py<PyAny>, index: usize) -> PyResult<PyState> {
        match self.batch.state(index) {
            Some(state) => Ok(PyState {
                inner: state.clone_box(),
                game: owner,
                ids: self.game.get().ids.clone(),
            }),
            None => Err(PyValueError::new_err(format!(
                "no game {index} in a batch of {}",
                self.batch.len()
            ))),
        }
    }
}

/// A 2-D (or 1-D) float32 array's numbers and shape, read through the buffer protocol.
fn read_f32(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    name: &str,
) -> PyResult<(Vec<f32>, Vec<usize>)> {
    let buffer = PyBuffer::<f32>::get(array)
        .map_err(|e| PyValueError::new_err(format!("{name} must be a float32 array: {e}")))?;
    Ok((buffer.to_vec(py)?, buffer.shape().to_vec()))
}

fn read_dense(py: Python<'_>, name: &str, pair: &Bound<'_, PyAny>) -> PyResult<Dense> {
    let (weight, bias): (Bound<'_, PyAny>, Bound<'_, PyAny>) = pair.extract()?;
    let (weight, shape) = read_f32(py, &weight, name)?;
    let (bias, _) = read_f32(py, &bias, name)?;
    let [inputs, outputs] = shape[..] else {
        return Err(PyValueError::new_err(format!(
            "layer {name}'s weights must be 2-D, not of shape {shape:?}"
        )));
    };
    Dense::new(name, inputs, outputs, weight, bias)
        .map_err(|e| PyValueError::new_err(e.message().to_string()))
}

/// A policy-value network evaluated in Rust (`boneyard_engine::network`): `boneyard.native.network`
/// holds one, made from a `boneyard.ai.network.Network`'s arrays.
#[pyclass(name = "Network", module = "boneyard.native._engine", frozen)]
struct PyNetwork {
    inner: Arc<Network>,
}

#[pymethods]
impl PyNetwork {
    /// `layers`: `(weight, bias)` float32 arrays of each hidden layer; `policy`, `value`: the
    /// heads'; `heads`: an int64 array `[num_actions, 3]` of each id's head positions.
    #[new]
    fn new(
        py: Python<'_>,
        layers: Vec<Bound<'_, PyAny>>,
        policy: Bound<'_, PyAny>,
        value: Bound<'_, PyAny>,
        heads: Bound<'_, PyAny>,
    ) -> PyResult<PyNetwork> {
        let hidden = layers
            .iter()
            .enumerate()
            .map(|(i, pair)| read_dense(py, &format!("w{i}"), pair))
            .collect::<PyResult<Vec<_>>>()?;
        let policy = read_dense(py, "wp", &policy)?;
        let value = read_dense(py, "wv", &value)?;
        let buffer = PyBuffer::<i64>::get(&heads)
            .map_err(|e| PyValueError::new_err(format!("heads must be an int64 array: {e}")))?;
        if buffer.shape().len() != 2 || buffer.shape()[1] != 3 {
            return Err(PyValueError::new_err(format!(
                "heads must be of shape [num_actions, 3], not {:?}",
                buffer.shape()
            )));
        }
        let flat = buffer.to_vec(py)?;
        let heads = flat
            .chunks_exact(3)
            .map(|row| {
                let mut out = [0u32; 3];
                for (slot, &k) in out.iter_mut().zip(row) {
                    *slot = u32::try_from(k).map_err(|_| {
                        PyValueError::new_err(format!("a head position is {k}, not 0 or more"))
                    })?;
                }
                Ok(out)
            })
            .collect::<PyResult<Vec<_>>>()?;
        let inner = Network::new(hidden, policy, value, heads)
            .map_err(|e| PyValueError::new_err(e.message().to_string()))?;
        Ok(PyNetwork {
            inner: Arc::new(inner),
        })
    }

    #[getter]
    fn input_size(&self) -> usize {
        self.inner.input_size()
    }

    #[getter]
    fn value_outputs(&self) -> usize {
        self.inner.value_outputs()
    }

    /// Head logits and values of `rows` observations (`features`, float32 `[rows, input_size]`),
    /// flat, without the GIL.
    fn forward(
        &self,
        py: Python<'_>,
        features: &Bound<'_, PyAny>,
        rows: usize,
    ) -> PyResult<(Vec<f32>, Vec<f32>)> {
        let (features, _) = read_f32(py, features, "features")?;
        let network = &self.inner;
        let out = py
            .detach(|| network.forward(&features, rows))
            .map_err(|e| PyValueError::new_err(e.message().to_string()))?;
        Ok((out.head_logits, out.values))
    }

    /// `(legal actions, the policy over them, every seat's value -1..1 by seat number)` of a
    /// state a seat is to move in, from that seat's native observation tensor.
    fn evaluate(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyState>,
    ) -> PyResult<(Vec<u32>, Vec<f64>, Vec<f64>)> {
        let mut state = state.borrow_mut();
        let inner = &mut state.inner;
        let mover = usize::try_from(inner.current_player()).map_err(|_| {
            PyValueError::new_err(
                "a network values a state a seat is to move in, not a chance node or the end",
            )
        })?;
        let mut features = vec![0.0; self.inner.input_size()];
        if !inner.observation_tensor(Some(mover), &mut features) {
            return Err(PyNotImplementedError::new_err(format!(
                "{} has no native observation tensor of {} numbers",
                inner.name(),
                features.len()
            )));
        }
        let legal = inner.legal_actions().to_vec();
        let players = inner.num_players();
        let network = &self.inner;
        let found = network.forward(&features, 1).and_then(|out| {
            let priors = network.policy(&out.head_logits, &legal)?;
            let values = network.seat_values(&out.values, mover, players)?;
            Ok((priors, values))
        });
        let (priors, values) = found.map_err(|e| raise(py, e))?;
        Ok((legal, priors, values))
    }
}

/// A search's root as Python gets it: the legal actions, their visits and mean values, and
/// the iterations it ran.
type RootCounts = (Vec<u32>, Vec<u64>, Vec<f64>, u64);

/// The expert's PUCT search (`boneyard_engine::search::expert`) of every state in `states` for
/// its mover, search `i` seeded `seeds[i]`, their leaves evaluated together; the GIL released.
/// One `(actions, visits, values, iterations)` a state: per legal action its root visits and
/// mean value, and the iterations run. `threads`: the searches split over that many threads
/// (the same results). `time_limit_ms`: each search stops there even short of `iterations`
/// (after its first), from when the call starts.
#[pyfunction]
#[pyo3(signature = (states, network, *, hidden, iterations, exploration, exact_chance, utility_range, seeds, threads = 1, time_limit_ms = None))]
#[allow(clippy::too_many_arguments)] // the search's settings, one keyword each
fn expert_search(
    py: Python<'_>,
    states: Vec<PyRef<'_, PyState>>,
    network: &PyNetwork,
    hidden: bool,
    iterations: u64,
    exploration: f64,
    exact_chance: usize,
    utility_range: (f64, f64),
    seeds: Vec<u64>,
    threads: usize,
    time_limit_ms: Option<u64>,
) -> PyResult<Vec<RootCounts>> {
    let boxes: Vec<Box<dyn DynState>> = states.iter().map(|s| s.inner.clone_box()).collect();
    drop(states);
    // The clock starts here, before the searches are built, as a bot's move does.
    let deadline =
        time_limit_ms.map(|ms| std::time::Instant::now() + std::time::Duration::from_millis(ms));
    let options = ExpertOptions {
        exploration,
        exact_chance,
        iterations,
        utility_range,
        deadline,
    };
    let network = network.inner.clone();
    let found = py
        .detach(|| search_many(boxes, hidden, &network, &options, &seeds, threads))
        .map_err(|e| raise(py, e))?;
    Ok(found
        .into_iter()
        .map(|outcome| {
            (
                outcome.actions,
                outcome.visits,
                outcome.values,
                outcome.iterations,
            )
        })
        .collect())
}

/// The names of the games with a native engine.
#[pyfunction]
fn game_names() -> Vec<&'static str> {
    boneyard_engine::game_names()
}

/// Every position of one OYNO duel solved exactly (`boneyard_engine::solvers::oyno_duel`):
/// built by `solve_oyno_duel`, read by `value` and `counts`.
#[pyclass(name = "OynoDuelSolution", module = "boneyard.native._engine", frozen)]
struct PyOynoDuelSolution {
    inner: DuelSolution,
}

#[pymethods]
impl PyOynoDuelSolution {
    #[getter]
    fn size(&self) -> usize {
        self.inner.size
    }

    #[getter]
    fn bones(&self) -> u32 {
        self.inner.bones
    }

    #[getter]
    fn place_rule(&self) -> &'static str {
        if self.inner.place_any_time {
            "supply"
        } else {
            "all_up"
        }
    }

    /// `(WIN/DRAW/LOSS for the player to move, plies to the end)` of the position given by its
    /// red, white and up masks (bit `c` is cell `c`).
    fn value(&self, red: u64, white: u64, up: u64, player: usize) -> PyResult<(i8, u32)> {
        self.inner
            .value(red, white, up, player)
            .map_err(|error| PyValueError::new_err(error.0))
    }

    /// `value` of many positions at once: the values and the plies, in order.
    fn values(
        &self,
        red: Vec<u64>,
        white: Vec<u64>,
        up: Vec<u64>,
        player: usize,
    ) -> PyResult<(Vec<i8>, Vec<u32>)> {
        if red.len() != white.len() || red.len() != up.len() {
            return Err(PyValueError::new_err(format!(
                "red, white and up are as long as each other, not {}, {} and {}",
                red.len(),
                white.len(),
                up.len()
            )));
        }
        let mut values = Vec::with_capacity(red.len());
        let mut plies = Vec::with_capacity(red.len());
        for ((r, w), u) in red.into_iter().zip(white).zip(up) {
            let (value, length) = self
                .inner
                .value(r, w, u, player)
                .map_err(|error| PyValueError::new_err(error.0))?;
            values.push(value);
            plies.push(length);
        }
        Ok((values, plies))
    }

    /// Won, drawn and lost positions for the mover, finished ones left out.
    fn counts(&self) -> (u64, u64, u64) {
        let [win, draw, loss] = self.inner.counts();
        (win, draw, loss)
    }
}

/// Solves the `size` x `size` OYNO duel with `bones` bones a side under `place_rule` (`all_up`
/// or `supply`), the GIL released; a layer keeps its edges in memory where it has at most
/// `edge_budget` (default the solver's `MAX_LAYER_EDGES`).
#[pyfunction]
#[pyo3(signature = (size, bones, place_rule, edge_budget = None))]
fn solve_oyno_duel(
    py: Python<'_>,
    size: usize,
    bones: u32,
    place_rule: &str,
    edge_budget: Option<u64>,
) -> PyResult<PyOynoDuelSolution> {
    let place_any_time = match place_rule {
        "supply" => true,
        "all_up" => false,
        other => {
            return Err(PyValueError::new_err(format!(
                "place_rule is one of all_up, supply, not {other:?}"
            )))
        }
    };
    let edge_budget = edge_budget.unwrap_or(MAX_LAYER_EDGES);
    py.detach(|| DuelSolution::solve_within(size, bones, place_any_time, edge_budget))
        .map(|inner| PyOynoDuelSolution { inner })
        .map_err(|error| PyValueError::new_err(error.0))
}

/// How many positions the duel of `resting` resting cells and `bones` bones a side has.
#[pyfunction]
fn oyno_duel_position_count(resting: u64, bones: u64) -> u128 {
    position_count(resting, bones)
}

#[pymodule]
fn _engine(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PyGame>()?;
    module.add_class::<PyState>()?;
    module.add_class::<PyBatch>()?;
    module.add_class::<PyNetwork>()?;
    module.add_function(wrap_pyfunction!(expert_search, module)?)?;
    module.add_function(wrap_pyfunction!(game_names, module)?)?;
    module.add_class::<PyOynoDuelSolution>()?;
    module.add_function(wrap_pyfunction!(solve_oyno_duel, module)?)?;
    module.add_function(wrap_pyfunction!(oyno_duel_position_count, module)?)?;
    Ok(())
}
