//! Bon-Bon's rules, as `boneyard/games/bonbon/rules.py` and RULINGS.md ("Bon-Bon") state them.
//!
//! A round: three bonus tiles are drawn (chance); in turn each player in play passes or draws a
//! card (chance, seen by the drawer alone) and plays it face up or face down at the right end of
//! its run. Face-up values move the collective marker and count toward the player's personal
//! limit (10 minus rounds won); breaking the collective limit ends the round. Round winners take
//! a chocolate; the first to three wins the game.

use std::sync::Arc;

use serde_json::Value;

use super::deck::{load_deck, Deck, Effect};
use super::notation::{self as nt, python_repr};
use super::{observation, resample, snapshot, tensor};
use crate::core::{
    Action, DynState, EngineError, NativeGame, Params, Played, Randomness, Rules, CHANCE, TERMINAL,
};

pub const PERSONAL_LIMIT: i64 = 10;
pub const WINS_TO_WIN: i64 = 3;

/// The collective limit by the number of players (2 to 6).
fn collective_limit(players: usize) -> Option<i64> {
    match players {
        2 => Some(10),
        3 => Some(15),
        4 => Some(20),
        5 => Some(30),
        6 => Some(36),
        _ => None,
    }
}

/// What a state waits for. `NAMES` are the observation's words, `SAVED` the snapshot's (the
/// Python enum's member names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Tiles,
    Turn,
    Drawing,
    Place,
    Gifting,
    Catching,
    Wrapped,
    Peeking,
    Over,
}

impl Phase {
    pub const ALL: [Phase; 9] = [
        Phase::Tiles,
        Phase::Turn,
        Phase::Drawing,
        Phase::Place,
        Phase::Gifting,
        Phase::Catching,
        Phase::Wrapped,
        Phase::Peeking,
        Phase::Over,
    ];
    const NAMES: [&'static str; 9] = [
        "tiles", "turn", "draw", "place", "gift", "catch", "wrapper", "peek", "over",
    ];
    pub const SAVED: [&'static str; 9] = [
        "tiles", "turn", "drawing", "place", "gifting", "catching", "wrapped", "peeking", "over",
    ];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn saved_name(self) -> &'static str {
        Self::SAVED[self as usize]
    }
}

/// Where a seat stands this round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    InPlay,
    Passed,
    Eliminated,
}

impl Status {
    pub const ALL: [Status; 3] = [Status::InPlay, Status::Passed, Status::Eliminated];
    const NAMES: [&'static str; 3] = ["in play", "passed", "eliminated"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// A card in a run: its kind, whether it lies face up, and the seats that know its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card {
    pub kind: usize,
    pub up: bool,
    pub seen_by: u8,
}

/// Whether seat mask `mask` holds `seat` (any seat, even one past the table).
pub fn holds(mask: u8, seat: usize) -> bool {
    seat < 8 && mask >> seat & 1 == 1
}

/// What every state of one game shares: the deck, the tiles, and the tables worked out once.
#[derive(Debug)]
pub struct Table {
    pub players: usize,
    pub max_rounds: i64,
    pub collective_limit: i64,
    pub deck: Deck,
    pub deck_size: u32,
    /// The chance outcome id of each kind.
    pub kind_outcome: Vec<Action>,
    /// The kind of each card outcome id (`None`: no card of this deck has it).
    pub outcome_kind: Vec<Option<usize>>,
    pub full_deck_outcomes: Vec<(Action, f64)>,
    pub tile_values: Vec<u8>,
    /// The id of the first tile draw: the deck's card ids come before it.
    pub tile_base: Action,
    pub triples: Vec<[u8; 3]>,
    pub tile_outcomes: Vec<(Action, f64)>,
    /// The first pass of a round by the triple on offer: `[without draw, with draw]`.
    pub bonus_actions: Vec<[Vec<Action>; 2]>,
    pub all_seats: u8,
}

impl Table {
    fn new(
        players: usize,
        max_rounds: i64,
        deck: Deck,
        tiles: Vec<u8>,
    ) -> Result<Table, EngineError> {
        let limit = collective_limit(players).ok_or_else(|| {
            EngineError::InvalidParameter(format!("bonbon is for 2 to 6 players, not {players}"))
        })?;
        let mut tile_values = tiles;
        tile_values.sort_unstable();
        let top = *tile_values.last().ok_or_else(|| {
            EngineError::InvalidParameter("bonbon needs at least 3 bonus tiles".to_string())
        })?;
        if tile_values.len() < 3 {
            return Err(EngineError::InvalidParameter(
                "bonbon needs at least 3 bonus tiles".to_string(),
            ));
        }
        let deck_size = deck.size();
        let kind_outcome: Vec<Action> = deck
            .kinds
            .iter()
            .map(|kind| deck.outcome_id(kind))
            .collect();
        let tile_base = deck.outcome_space();
        let mut outcome_kind = vec![None; tile_base as usize];
        for (kind, &outcome) in kind_outcome.iter().enumerate() {
            outcome_kind[outcome as usize] = Some(kind);
        }
        let full_deck_outcomes = kind_outcome
            .iter()
            .zip(&deck.kinds)
            .map(|(&outcome, kind)| (outcome, f64::from(kind.count) / f64::from(deck_size)))
            .collect();
        let triples = nt::tile_triples(top);
        let tile_outcomes = tile_draw_odds(&tile_values, &triples, tile_base);
        let bonus_actions = triples
            .iter()
            .map(|triple| {
                let mut bonuses: Vec<Action> = triple
                    .iter()
                    .map(|&v| nt::BONUS + Action::from(v))
                    .collect();
                bonuses.dedup();
                let mut with_draw = vec![nt::DRAW];
                with_draw.extend(&bonuses);
                [bonuses, with_draw]
            })
            .collect();
        Ok(Table {
            players,
            max_rounds,
            collective_limit: limit,
            deck,
            deck_size,
            kind_outcome,
            outcome_kind,
            full_deck_outcomes,
            tile_values,
            tile_base,
            triples,
            tile_outcomes,
            bonus_actions,
            all_seats: ((1u16 << players) - 1) as u8,
        })
    }

    pub fn labels(&self) -> impl Iterator<Item = &str> {
        self.deck.kinds.iter().map(|kind| kind.label.as_str())
    }

    pub fn kind_of_label(&self, label: &str) -> Option<usize> {
        self.deck.kinds.iter().position(|kind| kind.label == label)
    }

    fn triple_index(&self, triple: &[u8]) -> Option<usize> {
        self.triples.iter().position(|t| t[..] == *triple)
    }
}

/// Each distinct ascending triple that three of the `tiles` can make, with its probability: the
/// number of ways to draw it over the number of ways to draw any three.
fn tile_draw_odds(tiles: &[u8], triples: &[[u8; 3]], tile_base: Action) -> Vec<(Action, f64)> {
    let have = |value: u8| tiles.iter().filter(|&&t| t == value).count() as u64;
    let total = choose(tiles.len() as u64, 3);
    let mut outcomes = Vec::new();
    for (index, triple) in triples.iter().enumerate() {
        let mut ways = 1;
        let mut values = triple.to_vec();
        values.dedup();
        for value in values {
            let wanted = triple.iter().filter(|&&t| t == value).count() as u64;
            ways *= choose(have(value), wanted);
        }
        if ways > 0 {
            outcomes.push((tile_base + index as Action, ways as f64 / total as f64));
        }
    }
    outcomes
}

fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// A loaded Bon-Bon game: its parameters and the tables its states share.
pub struct BonBonGame {
    params: Params,
    table: Arc<Table>,
}

pub fn load(params: &Params) -> Result<Box<dyn NativeGame>, EngineError> {
    let players = params.int("players")?;
    let players = usize::try_from(players).map_err(|_| {
        EngineError::InvalidParameter(format!("bonbon is for 2 to 6 players, not {players}"))
    })?;
    let deck = load_deck(params.text("deck")?)?;
    let tiles_text = params.text("tiles")?;
    let tiles = nt::parse_tiles(tiles_text).ok_or_else(|| {
        EngineError::InvalidParameter(format!("bad value for parameter 'tiles': {tiles_text}"))
    })?;
    let table = Table::new(players, params.int("max_rounds")?, deck, tiles)?;
    Ok(Box::new(BonBonGame {
        params: params.clone(),
        table: Arc::new(table),
    }))
}

impl NativeGame for BonBonGame {
    fn name(&self) -> &'static str {
        BonBonRules::NAME
    }

    fn params(&self) -> &Params {
        &self.params
    }

    fn new_initial_state(&self) -> Box<dyn DynState> {
        Box::new(Played::new(BonBonRules::new(self.table.clone())))
    }

    fn observation_tensor_shape(&self) -> Option<Vec<usize>> {
        Some(vec![tensor::size(
            self.table.players,
            self.table.deck.kinds.len(),
        )])
    }

    fn state_from_snapshot(
        &self,
        saved: &Value,
        history: Vec<Action>,
    ) -> Result<Box<dyn DynState>, EngineError> {
        let rules = snapshot::restore(self.table.clone(), saved).map_err(|problem| {
            EngineError::InvalidState(format!("bad bonbon state snapshot: {problem}"))
        })?;
        Ok(Box::new(Played::with_history(rules, history)))
    }
}

/// A Bon-Bon position. The deck is a count per kind: its order is a chance event.
#[derive(Clone, Debug)]
pub struct BonBonRules {
    pub table: Arc<Table>,
    pub wins: Vec<i64>,
    pub rounds_played: i64,
    pub round_starter: usize,
    /// The seat that drew last in the game.
    pub last_drawer: Option<usize>,
    pub last_scores: Vec<Option<i64>>,
    pub last_cards: Vec<i64>,
    pub last_winners: Vec<usize>,
    pub winners: Vec<usize>,
    pub phase: Phase,
    pub turn: usize,
    /// The round's three bonus tiles (an index into `table.triples`; `None` before the draw).
    pub tiles: Option<usize>,
    pub tiles_open: bool,
    pub tile_taken: Vec<Option<i64>>,
    pub status: Vec<Status>,
    pub runs: Vec<Vec<Card>>,
    pub up_total: Vec<i64>,
    pub marker: i64,
    /// The deck: how many cards of each kind it holds.
    pub counts: Vec<u32>,
    pub deck_left: u32,
    /// The kind of the card being played.
    pub drawn: Option<usize>,
    pub drawn_mask: u8,
    /// The card a peek showed (still the deck's next card) and who peeked.
    pub peek: Option<(usize, usize)>,
}

impl BonBonRules {
    pub fn new(table: Arc<Table>) -> BonBonRules {
        let n = table.players;
        let mut state = BonBonRules {
            wins: vec![0; n],
            rounds_played: 0,
            round_starter: 0,
            last_drawer: None,
            last_scores: vec![None; n],
            last_cards: vec![0; n],
            last_winners: Vec::new(),
            winners: Vec::new(),
            phase: Phase::Tiles,
            turn: 0,
            tiles: None,
            tiles_open: true,
            tile_taken: vec![None; n],
            status: vec![Status::InPlay; n],
            runs: vec![Vec::new(); n],
            up_total: vec![0; n],
            marker: 0,
            counts: Vec::new(),
            deck_left: 0,
            drawn: None,
            drawn_mask: 0,
            peek: None,
            table,
        };
        state.start_round();
        state
    }

    /// A new round: the deck whole again, every seat in play, the tiles still to draw.
    fn start_round(&mut self) {
        let n = self.table.players;
        self.phase = Phase::Tiles;
        self.turn = self.round_starter;
        self.tiles = None;
        self.tiles_open = true;
        self.tile_taken = vec![None; n];
        self.status = vec![Status::InPlay; n];
        for run in &mut self.runs {
            run.clear();
        }
        self.up_total = vec![0; n];
        self.marker = 0;
        self.counts = self
            .table
            .deck
            .kinds
            .iter()
            .map(|kind| kind.count)
            .collect();
        self.deck_left = self.table.deck_size;
        self.drawn = None;
        self.drawn_mask = 0;
        self.peek = None;
    }

    pub fn tile_values(&self) -> &[u8] {
        self.tiles
            .and_then(|index| self.table.triples.get(index))
            .map_or(&[], |t| &t[..])
    }

    /// The seats other than the one to act that are still in play, in seat order.
    pub fn others_in_play(&self) -> impl Iterator<Item = usize> + '_ {
        let turn = self.turn;
        self.status
            .iter()
            .enumerate()
            .filter(move |&(seat, &status)| seat != turn && status == Status::InPlay)
            .map(|(seat, _)| seat)
    }

    fn effect(&self, kind: usize) -> Effect {
        self.table.deck.kinds[kind].effect
    }

    /// The seat to act draws, or passes (taking a tile where `action` is a bonus).
    fn choose(&mut self, action: Action) {
        if action == nt::DRAW {
            self.phase = Phase::Drawing;
            return;
        }
        self.status[self.turn] = Status::Passed;
        if action >= nt::BONUS {
            self.tile_taken[self.turn] = Some(i64::from(action - nt::BONUS));
            self.tiles_open = false;
        }
        self.end_turn();
    }

    /// The seat to act draws a card of `kind`: seen by it (and by a peeker), then placed face
    /// down or up by its choice, or, where it must lie face up, at once (a gift waits face up,
    /// seen by all, for its receiver).
    fn draw(&mut self, kind: usize) {
        self.counts[kind] -= 1;
        self.deck_left -= 1;
        let mut mask = 1u8 << self.turn;
        if let Some((_, peeker)) = self.peek.take() {
            mask |= 1 << peeker;
        }
        self.last_drawer = Some(self.turn);
        self.drawn = Some(kind);
        self.drawn_mask = mask;
        let card = &self.table.deck.kinds[kind];
        if !card.face_up_only {
            self.phase = Phase::Place;
        } else if card.effect == Effect::Gift && self.others_in_play().next().is_some() {
            self.drawn_mask = self.table.all_seats;
            self.phase = Phase::Gifting;
        } else {
            self.place_up(self.turn);
            self.after_placing(kind);
        }
    }

    /// The drawn card goes onto the seat's run, face up or face down (seen by those who saw it
    /// drawn).
    fn place(&mut self, face_up: bool) {
        let Some(kind) = self.drawn else { return };
        if face_up {
            self.place_up(self.turn);
        } else {
            self.runs[self.turn].push(Card {
                kind,
                up: false,
                seen_by: self.drawn_mask,
            });
            self.drawn = None;
        }
        self.after_placing(kind);
    }

    /// The seat to act catches `target`: its trailing face-down cards are turned up, and the
    /// target answers for a limit they break.
    fn catch(&mut self, target: usize) {
        let added = self.reveal_trailing(target);
        if !self.check_limits(target, added) {
            self.end_turn();
        }
    }

    /// The drawn card goes face up at the end of `owner`'s run (an empty wrapper first turns up
    /// the face-down cards before it); the owner's limits are checked.
    fn place_up(&mut self, owner: usize) {
        let Some(kind) = self.drawn else { return };
        let mut added = self.table.deck.kinds[kind].value;
        if self.effect(kind) == Effect::Wrapper {
            added += self.reveal_trailing(owner);
        }
        let everyone = self.table.all_seats;
        self.runs[owner].push(Card {
            kind,
            up: true,
            seen_by: everyone,
        });
        self.drawn = None;
        self.check_limits(owner, added);
    }

    /// Turn face up the face-down cards after `owner`'s last face-up card; their sum.
    fn reveal_trailing(&mut self, owner: usize) -> i64 {
        let everyone = self.table.all_seats;
        let kinds = &self.table.deck.kinds;
        let mut total = 0;
        for card in self.runs[owner]
            .iter_mut()
            .rev()
            .take_while(|card| !card.up)
        {
            total += kinds[card.kind].value;
            card.up = true;
            card.seen_by = everyone;
        }
        total
    }

    /// Add `added` face-up value to `owner`: over the collective limit the owner is out and the
    /// round ends (the others in play lose their trailing face-down cards); else over its
    /// personal limit the owner is out. True if the round ended.
    fn check_limits(&mut self, owner: usize, added: i64) -> bool {
        self.marker += added;
        self.up_total[owner] += added;
        if self.marker > self.table.collective_limit {
            self.status[owner] = Status::Eliminated;
            for (run, &status) in self.runs.iter_mut().zip(&self.status) {
                if status == Status::InPlay {
                    while run.last().is_some_and(|card| !card.up) {
                        run.pop();
                    }
                }
            }
            self.end_round();
            return true;
        }
        if self.up_total[owner] > PERSONAL_LIMIT - self.wins[owner] {
            self.status[owner] = Status::Eliminated;
        }
        false
    }

    /// The card's effect, if its drawer is still in play and the round goes on; none of wrapper,
    /// peek and second helping once the deck is empty.
    fn after_placing(&mut self, kind: usize) {
        if matches!(self.phase, Phase::Tiles | Phase::Over) {
            return;
        }
        if self.status[self.turn] != Status::InPlay {
            self.end_turn();
            return;
        }
        match self.effect(kind) {
            Effect::None | Effect::Gift => self.end_turn(),
            Effect::Caught => {
                if self.others_in_play().next().is_some() {
                    self.phase = Phase::Catching;
                } else {
                    self.end_turn();
                }
            }
            _ if self.deck_left == 0 => self.end_turn(),
            Effect::Wrapper => self.phase = Phase::Wrapped,
            effect => {
                // The effect shows what the card is, even when it was played face down.
                let everyone = self.table.all_seats;
                if let Some(card) = self.runs[self.turn].last_mut() {
                    card.seen_by = everyone;
                }
                self.phase = if effect == Effect::Second {
                    Phase::Drawing
                } else {
                    Phase::Peeking
                };
            }
        }
    }

    /// The turn passes clockwise to the next seat in play; with none, the round ends.
    fn end_turn(&mut self) {
        let n = self.status.len();
        for step in 1..=n {
            let seat = (self.turn + step) % n;
            if self.status[seat] == Status::InPlay {
                self.turn = seat;
                self.phase = Phase::Turn;
                return;
            }
        }
        self.end_round();
    }

    /// Each player's score as the round stands (`None`: eliminated): printed values, the bonus
    /// tile, and one point per card of a face-down group after its first.
    pub fn round_scores(&self) -> Vec<Option<i64>> {
        let kinds = &self.table.deck.kinds;
        self.runs
            .iter()
            .zip(&self.status)
            .zip(&self.tile_taken)
            .map(|((run, &status), &tile)| {
                if status == Status::Eliminated {
                    return None;
                }
                let cards = run.iter().map(|card| (kinds[card.kind].value, card.up));
                Some(score_run(cards, tile.unwrap_or(0)))
            })
            .collect()
    }

    /// The round's winners take a chocolate; the game ends at a third win or the round cap, or
    /// the next round starts with the seat after the last one that drew.
    fn end_round(&mut self) {
        let n = self.status.len();
        let scores = self.round_scores();
        let cards: Vec<i64> = self.runs.iter().map(|run| run.len() as i64).collect();
        let mut ranked: Vec<(i64, i64, usize)> = scores
            .iter()
            .enumerate()
            .filter_map(|(seat, score)| score.map(|s| (s, cards[seat], seat)))
            .collect();
        ranked.sort_unstable_by(|a, b| b.cmp(a));
        let places = if n >= 5 { 2 } else { 1 };
        let mut winners: Vec<usize> = ranked
            .iter()
            .take(places)
            .map(|&(_, _, seat)| seat)
            .collect();
        if ranked.len() > places {
            let (score, count, _) = ranked[places - 1];
            winners.extend(
                ranked[places..]
                    .iter()
                    .filter(|&&(s, c, _)| (s, c) == (score, count))
                    .map(|&(_, _, seat)| seat),
            );
        }
        for &seat in &winners {
            self.wins[seat] += 1;
        }
        self.rounds_played += 1;
        winners.sort_unstable();
        let champions: Vec<usize> = winners
            .iter()
            .copied()
            .filter(|&s| self.wins[s] >= WINS_TO_WIN)
            .collect();
        self.last_winners = winners;
        self.last_cards = cards;
        if !champions.is_empty() || self.rounds_played >= self.table.max_rounds {
            self.end_game(scores, champions);
            return;
        }
        self.last_scores = scores;
        self.round_starter = match self.last_drawer {
            Some(drawer) => (drawer + 1) % n,
            None => (self.round_starter + 1) % n,
        };
        self.start_round();
    }

    /// Simultaneous third wins go to the best score of the last round, then the most cards; at
    /// the round cap the most chocolates win. The scored runs are shown to all.
    fn end_game(&mut self, scores: Vec<Option<i64>>, champions: Vec<usize>) {
        let cards = &self.last_cards;
        self.winners = if champions.is_empty() {
            let most = self.wins.iter().copied().max().unwrap_or(0);
            (0..self.wins.len())
                .filter(|&s| self.wins[s] == most)
                .collect()
        } else {
            let key = |s: usize| (scores[s], cards[s]);
            let best = champions.iter().map(|&s| key(s)).max();
            champions
                .iter()
                .copied()
                .filter(|&s| Some(key(s)) == best)
                .collect()
        };
        let everyone = self.table.all_seats;
        for (run, score) in self.runs.iter_mut().zip(&scores) {
            if score.is_some() {
                for card in run.iter_mut() {
                    card.seen_by = everyone;
                }
            }
        }
        self.last_scores = scores;
        self.drawn = None;
        self.peek = None;
        self.phase = Phase::Over;
    }

    fn chance_outcomes_now(&self) -> Vec<(Action, f64)> {
        let table = &self.table;
        match self.phase {
            Phase::Tiles => table.tile_outcomes.clone(),
            Phase::Drawing if self.peek.is_some() => self
                .peek
                .map(|(kind, _)| vec![(table.kind_outcome[kind], 1.0)])
                .unwrap_or_default(),
            _ if self.deck_left == table.deck_size => table.full_deck_outcomes.clone(),
            _ => {
                let left = f64::from(self.deck_left);
                table
                    .kind_outcome
                    .iter()
                    .zip(&self.counts)
                    .filter(|&(_, &count)| count > 0)
                    .map(|(&outcome, &count)| (outcome, f64::from(count) / left))
                    .collect()
            }
        }
    }

    fn chance_string(&self, action: Action) -> Result<String, EngineError> {
        let table = &self.table;
        if self.phase == Phase::Tiles {
            let triple = action
                .checked_sub(table.tile_base)
                .and_then(|index| table.triples.get(index as usize))
                .ok_or_else(|| {
                    EngineError::InvalidActionString(format!("no tile draw has id {action}"))
                })?;
            return Ok(format!("tiles {} {} {}", triple[0], triple[1], triple[2]));
        }
        match table.outcome_kind.get(action as usize).copied().flatten() {
            Some(kind) => Ok(format!("card {}", table.deck.kinds[kind].label)),
            None => Err(EngineError::InvalidActionString(format!(
                "no card of this deck has id {action}"
            ))),
        }
    }
}

/// A run's score: printed values, the bonus tile, and (size - 1) per face-down group.
///
/// `cards` gives (value, face up?) from left to right. The rule text's example: 3, (2), 1,
/// (2), (2), (2) prints 12 and its face-down groups of one and three cards add 2: 14.
pub fn score_run(cards: impl IntoIterator<Item = (i64, bool)>, tile: i64) -> i64 {
    let mut total = tile.max(0);
    let mut group = 0;
    for (value, up) in cards {
        total += value;
        if up {
            total += (group - 1).max(0);
            group = 0;
        } else {
            group += 1;
        }
    }
    total + (group - 1).max(0)
}

impl Rules for BonBonRules {
    const NAME: &'static str = "bonbon";
    const HIDDEN_INFORMATION: bool = true;
    /// A resample is a new state dealt from a view: its snapshot, not a replay, is the state.
    const RESAMPLE_KEEPS_HISTORY: bool = false;

    fn num_players(&self) -> usize {
        self.table.players
    }

    fn utility_range(&self) -> Option<(f64, f64)> {
        Some((0.0, 1.0))
    }

    fn current_player(&self) -> i32 {
        match self.phase {
            Phase::Tiles | Phase::Drawing | Phase::Peeking => CHANCE,
            Phase::Over => TERMINAL,
            _ => self.turn as i32,
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::Turn if self.tiles_open => self
                .tiles
                .and_then(|index| self.table.bonus_actions.get(index))
                .map(|[without, with]| {
                    if self.deck_left > 0 {
                        with.clone()
                    } else {
                        without.clone()
                    }
                })
                .unwrap_or_default(),
            Phase::Turn if self.deck_left > 0 => vec![nt::PASS, nt::DRAW],
            Phase::Turn => vec![nt::PASS],
            Phase::Place => vec![nt::UP, nt::DOWN],
            Phase::Wrapped => vec![nt::DRAW, nt::END],
            Phase::Gifting => self
                .others_in_play()
                .map(|s| nt::GIFT + s as Action)
                .collect(),
            Phase::Catching => self
                .others_in_play()
                .map(|s| nt::CATCH + s as Action)
                .collect(),
            Phase::Tiles | Phase::Drawing | Phase::Peeking | Phase::Over => Vec::new(),
        }
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        self.chance_outcomes_now()
    }

    fn apply_action(&mut self, action: Action) {
        let card_kind = self
            .table
            .outcome_kind
            .get(action as usize)
            .copied()
            .flatten();
        match self.phase {
            Phase::Turn => self.choose(action),
            Phase::Drawing => {
                if let Some(kind) = card_kind {
                    self.draw(kind);
                }
            }
            Phase::Place => self.place(action == nt::UP),
            Phase::Gifting => {
                self.place_up((action - nt::GIFT) as usize);
                if self.phase == Phase::Gifting {
                    self.end_turn();
                }
            }
            Phase::Catching => self.catch((action - nt::CATCH) as usize),
            Phase::Wrapped => {
                if action == nt::DRAW {
                    self.phase = Phase::Drawing;
                } else {
                    self.end_turn();
                }
            }
            Phase::Peeking => {
                self.peek = card_kind.map(|kind| (kind, self.turn));
                self.end_turn();
            }
            Phase::Tiles => {
                self.tiles = Some((action - self.table.tile_base) as usize);
                self.phase = Phase::Turn;
                self.turn = self.round_starter;
            }
            Phase::Over => {}
        }
    }

    fn returns(&self) -> Vec<f64> {
        let n = self.table.players;
        if self.phase != Phase::Over {
            return vec![0.0; n];
        }
        (0..n)
            .map(|s| if self.winners.contains(&s) { 1.0 } else { 0.0 })
            .collect()
    }

    fn action_to_string(&self, action: Action) -> Result<String, EngineError> {
        if self.current_player() == CHANCE {
            return self.chance_string(action);
        }
        nt::player_action_to_string(action).ok_or_else(|| {
            EngineError::InvalidActionString(format!("no Bon-Bon player action has id {action}"))
        })
    }

    fn string_to_action(&self, text: &str) -> Result<Action, EngineError> {
        if let Some(action) = nt::parse_player_action(text) {
            return Ok(action);
        }
        let table = &self.table;
        let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
        if word == "card" {
            if let Some(kind) = table.kind_of_label(rest) {
                return Ok(table.kind_outcome[kind]);
            }
        }
        if word == "tiles" {
            let values: Option<Vec<u8>> = rest
                .split(' ')
                .map(|part| nt::small_number(part).and_then(|v| u8::try_from(v).ok()))
                .collect();
            if let Some(index) = values
                .filter(|v| v.len() == 3)
                .and_then(|v| table.triple_index(&v))
            {
                return Ok(table.tile_base + index as Action);
            }
        }
        let top = table.tile_values.iter().max().copied().unwrap_or(0);
        Err(EngineError::InvalidActionString(format!(
            "not a bonbon action: {}; actions: pass, bonus V, draw, up, down, end, gift S, catch S; \
             chance: tiles A B C (ascending, values 0 to {top}), card L with L one of {}",
            python_repr(text),
            table.labels().collect::<Vec<_>>().join(", ")
        )))
    }

    /// A drawn card reads `card ?` to all but its drawer (and a peeker who saw it coming); a
    /// peek, to all but the peeker.
    fn action_string_for(
        &self,
        seat: Option<usize>,
        action: Action,
    ) -> Result<String, EngineError> {
        let hidden = match self.phase {
            Phase::Drawing => {
                let mut mask = 1u8 << self.turn;
                if let Some((_, peeker)) = self.peek {
                    mask |= 1 << peeker;
                }
                seat.is_none_or(|s| !holds(mask, s))
            }
            Phase::Peeking => seat != Some(self.turn),
            _ => false,
        };
        if hidden {
            return Ok("card ?".to_string());
        }
        self.action_to_string(action)
    }

    fn observation(&self, seat: Option<usize>) -> Value {
        observation::observe(self, seat)
    }

    fn observation_tensor(&self, seat: Option<usize>, out: &mut [f32]) -> bool {
        tensor::write(self, seat, out)
    }

    fn why_illegal(&self, action: Action) -> Option<String> {
        if action >= nt::NUM_ACTIONS {
            // Python asks the rule only of ids the game has.
            return None;
        }
        let reason = match self.phase {
            Phase::Turn if action == nt::DRAW => {
                "the deck is empty: only passing is left".to_string()
            }
            Phase::Turn if action == nt::PASS && self.tiles_open => {
                "you are the first to pass: take one of the bonus tiles as you pass".to_string()
            }
            Phase::Turn if action >= nt::BONUS && !self.tiles_open => {
                "only the first player to pass takes a bonus tile".to_string()
            }
            Phase::Turn if action >= nt::BONUS => {
                let offered: Vec<String> = self.tile_values().iter().map(u8::to_string).collect();
                format!(
                    "no bonus tile is worth {} (the tiles are {})",
                    action - nt::BONUS,
                    offered.join(", ")
                )
            }
            Phase::Turn => "draw a card or pass".to_string(),
            Phase::Place => "play the card you drew, face up or face down".to_string(),
            Phase::Wrapped => {
                "after an empty wrapper: draw another card or end your turn".to_string()
            }
            Phase::Gifting | Phase::Catching => "choose another player still in play".to_string(),
            _ => return None,
        };
        Some(reason)
    }

    fn resample(&self, seat: usize, rng: &mut dyn Randomness) -> Result<Self, EngineError> {
        resample::resample(self, seat, rng)
    }

    fn heuristic(&self, seat: usize) -> Option<f64> {
        Some(super::heuristic::evaluate(self, seat))
    }

    fn snapshot(&self) -> Option<Value> {
        Some(snapshot::save(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::python_shuffle;
    use proptest::prelude::*;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    fn game(players: usize) -> Box<dyn NativeGame> {
        let text = format!(
            "{{\"players\": {players}, \"deck\": \"default\", \"tiles\": \"1,1,2,2,3,3\", \"max_rounds\": 40}}"
        );
        load(&Params::from_json(&text).unwrap()).unwrap()
    }

    /// A new game of `players` after `moves` (chance outcomes too, in notation).
    fn new(players: usize, moves: &[&str]) -> Box<dyn DynState> {
        let mut state = game(players).new_initial_state();
        play(&mut *state, moves);
        state
    }

    fn play(state: &mut dyn DynState, moves: &[&str]) {
        for &text in moves {
            let action = state.string_to_action(text).unwrap();
            state.apply_action(i64::from(action)).unwrap();
        }
    }

    fn strings(state: &mut dyn DynState) -> Vec<String> {
        let legal = state.legal_actions().to_vec();
        legal
            .into_iter()
            .map(|a| state.action_to_string(i64::from(a)).unwrap())
            .collect()
    }

    /// The spectator-free truth of a run: `3` face up, `(3)` face down.
    fn run_of(state: &dyn DynState, seat: usize) -> Vec<String> {
        let saved = state.snapshot().unwrap();
        let labels = [
            "1", "2", "3", "4", "5", "3!", "4!", "5!", "6!", "wrapper", "peek", "second", "gift",
            "caught",
        ];
        saved["runs"][seat]
            .as_array()
            .unwrap()
            .iter()
            .map(|card| {
                let label = labels[card[0].as_u64().unwrap() as usize];
                if card[1].as_bool().unwrap() {
                    label.to_string()
                } else {
                    format!("({label})")
                }
            })
            .collect()
    }

    fn saved(state: &dyn DynState, field: &str) -> Value {
        state.snapshot().unwrap()[field].clone()
    }

    #[test]
    fn the_score_of_14() {
        // Rule text example: printed values 12, face-down groups of one and of three cards.
        let run = [
            (3, true),
            (2, false),
            (1, true),
            (2, false),
            (2, false),
            (2, false),
        ];
        assert_eq!(score_run(run, 0), 14);
        assert_eq!(score_run(run, 3), 17);
        assert_eq!(score_run([(1, false), (1, false)], -1), 3);
        assert_eq!(score_run([], 0), 0);
    }

    #[test]
    fn the_score_of_14_in_play() {
        let mut state = new(2, &["tiles 1 2 3", "bonus 1"]);
        play(
            &mut *state,
            &[
                "draw", "card 3", "up", "draw", "card 2", "down", "draw", "card 1", "up",
            ],
        );
        for _ in 0..3 {
            play(&mut *state, &["draw", "card 2", "down"]);
        }
        play(&mut *state, &["pass"]);
        assert_eq!(saved(&*state, "last_scores"), serde_json::json!([1, 14]));
        assert_eq!(saved(&*state, "last_winners"), serde_json::json!([1]));
    }

    #[test]
    fn the_tile_draw_is_weighted_by_the_ways_to_draw_it() {
        let state = new(2, &[]);
        let odds: Vec<(String, f64)> = state
            .chance_outcomes()
            .into_iter()
            .map(|(a, p)| (state.action_to_string(i64::from(a)).unwrap(), p))
            .collect();
        assert_eq!(odds.len(), 7);
        assert_eq!(odds[3], ("tiles 1 2 3".to_string(), 0.4));
        assert!(odds.iter().all(|(t, p)| t == "tiles 1 2 3" || *p == 0.1));
    }

    #[test]
    fn johns_run_loses_its_last_two_face_down_cards() {
        // Rule text example: the collective limit breaks; face-down cards after the last
        // face-up card are discarded, the earlier ones are safe.
        let mut state = new(3, &["tiles 1 2 3"]);
        play(&mut *state, &["draw", "card 2", "down"]); // seat 0: (2)
        play(&mut *state, &["draw", "card 5", "up"]); // seat 1, marker 5
        play(&mut *state, &["draw", "card 5", "up"]); // seat 2, marker 10
        play(&mut *state, &["draw", "card 1", "up"]); // seat 0: (2) 1, marker 11
        play(&mut *state, &["bonus 3"]); // seat 1 passes with the tile worth 3
        play(&mut *state, &["draw", "card 4", "down"]); // seat 2
        play(&mut *state, &["draw", "card 3", "down"]); // seat 0: (2) 1 (3)
        play(&mut *state, &["draw", "card 1", "down"]); // seat 2
        play(&mut *state, &["draw", "card 2", "down"]); // seat 0: (2) 1 (3) (2)
        assert_eq!(run_of(&*state, 0), ["(2)", "1", "(3)", "(2)"]);
        play(&mut *state, &["draw", "card 5!"]); // seat 2 takes the marker to 16 > 15
        assert_eq!(saved(&*state, "rounds_played"), 1);
        assert_eq!(saved(&*state, "last_cards"), serde_json::json!([2, 1, 4]));
        assert_eq!(
            saved(&*state, "last_scores"),
            serde_json::json!([3, 8, null])
        );
        assert_eq!(saved(&*state, "last_winners"), serde_json::json!([1]));
    }

    #[test]
    fn susans_wrapper_reveals_3_points_and_offers_another_card() {
        let mut state = new(3, &["tiles 1 2 3"]);
        play(&mut *state, &["draw", "card 2", "down", "bonus 1", "pass"]);
        play(
            &mut *state,
            &[
                "draw", "card 1", "up", "draw", "card 2", "down", "draw", "card 1", "down",
            ],
        );
        assert_eq!(run_of(&*state, 0), ["(2)", "1", "(2)", "(1)"]);
        play(&mut *state, &["draw", "card wrapper"]);
        assert_eq!(run_of(&*state, 0), ["(2)", "1", "2", "1", "wrapper"]);
        assert_eq!(saved(&*state, "marker"), 4);
        assert_eq!(strings(&mut *state), ["draw", "end"]);
        play(&mut *state, &["draw"]);
        assert_eq!(state.current_player(), CHANCE);
    }

    #[test]
    fn a_peeked_card_is_the_next_draw_and_seen_by_the_peeker_only() {
        let mut state = new(3, &["tiles 1 2 3", "draw", "card peek", "down", "card 4"]);
        assert_eq!(state.current_player(), 1);
        play(&mut *state, &["draw"]);
        let outcomes = state.chance_outcomes();
        assert_eq!(outcomes.len(), 1);
        assert_eq!(
            state.action_to_string(i64::from(outcomes[0].0)).unwrap(),
            "card 4"
        );
        assert_eq!(outcomes[0].1, 1.0);
        let peek = &state.observation(Some(0)).unwrap()["peek"];
        assert_eq!(peek["card"], "4");
        assert!(state.observation(Some(2)).unwrap()["peek"]["card"].is_null());
    }

    #[test]
    fn a_tie_goes_to_the_player_with_more_cards() {
        let mut state = new(
            2,
            &[
                "tiles 1 2 3",
                "draw",
                "card 4",
                "down",
                "draw",
                "card 1",
                "down",
                "bonus 1",
            ],
        );
        play(
            &mut *state,
            &["draw", "card 1", "down", "draw", "card 1", "down", "pass"],
        );
        // seat 0: 4 + tile 1 = 5 with 1 card; seat 1: 1+1+1 + 2 = 5 with 3 cards.
        assert_eq!(saved(&*state, "last_scores"), serde_json::json!([5, 5]));
        assert_eq!(saved(&*state, "last_winners"), serde_json::json!([1]));
    }

    #[test]
    fn a_gift_goes_face_up_to_another_player_in_play() {
        let mut state = new(3, &["tiles 1 2 3", "draw", "card gift"]);
        assert_eq!(strings(&mut *state), ["gift 1", "gift 2"]);
        play(&mut *state, &["gift 2"]);
        assert_eq!(run_of(&*state, 2), ["gift"]);
        assert_eq!(saved(&*state, "up_total"), serde_json::json!([0, 0, 2]));
        assert_eq!(state.current_player(), 1);
    }

    #[test]
    fn python_shuffle_draws_from_the_top_down() {
        // CPython: for i in reversed(range(1, len)): j = randbelow(i + 1); swap(i, j).
        struct Fixed(Vec<u64>);
        impl Randomness for Fixed {
            fn below(&mut self, n: u64) -> u64 {
                self.0.remove(0) % n
            }
            fn unit(&mut self) -> f64 {
                0.0
            }
        }
        let mut items = [0, 1, 2];
        python_shuffle(&mut Fixed(vec![0, 0]), &mut items);
        assert_eq!(items, [1, 2, 0]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// Any sequence of integers, legal or not, never panics, a refused one changes nothing,
        /// and a resample and a snapshot's restore play on.
        #[test]
        fn arbitrary_actions_never_panic(
            players in 2usize..=6,
            actions in proptest::collection::vec(any::<i64>(), 0..120),
            seed in any::<u64>(),
        ) {
            let loaded = game(players);
            let mut state = loaded.new_initial_state();
            let mut rng = SmallRng::seed_from_u64(seed);
            for (step, action) in actions.into_iter().enumerate() {
                // Mostly small ids, so the game goes on; any i64 sometimes.
                let action = if step % 3 == 0 { action } else { action.rem_euclid(48) };
                let before = state.snapshot();
                let history = state.history().to_vec();
                if state.apply_action(action).is_err() {
                    prop_assert_eq!(state.snapshot(), before);
                    prop_assert_eq!(state.history(), &history[..]);
                }
                let _ = state.why_illegal(action);
                let _ = state.action_to_string(action);
                for seat in 0..players {
                    let _ = state.action_string_for(Some(seat), action);
                }
                let snapshot = state.snapshot().unwrap();
                let restored = loaded.state_from_snapshot(&snapshot, state.history().to_vec()).unwrap();
                prop_assert_eq!(restored.snapshot(), Some(snapshot));
                let seat = (seed as usize + step) % players;
                let mut sampled = state.resample(seat, &mut rng).unwrap();
                prop_assert_eq!(sampled.observation(Some(seat)).unwrap(), state.observation(Some(seat)).unwrap());
                sampled.play_out(&mut rng);
                prop_assert!(sampled.is_terminal());
            }
        }
    }
}
