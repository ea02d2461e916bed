// "My games": what this browser remembers of the games it joined, kept in localStorage only.
// An entry holds the game's id, this browser's seat tokens, the game's title, the opponents'
// names, the status and whether it is this browser's move. The tokens never leave the browser
// except to open their own seats.
const KEY = "boneyard.mygames";

export function loadGames() {
  try {
    const games = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(games) ? games.filter((g) => g && typeof g.id === "string") : [];
  } catch {
    return [];
  }
}

function saveGames(games) {
  try {
    localStorage.setItem(KEY, JSON.stringify(games.slice(0, 200)));
  } catch {
    // Storage full or switched off: the page still works, it is just not remembered.
  }
}

/** Remember (or update) one game; the newest first. */
export function rememberGame(entry) {
  const games = loadGames().filter((g) => g.id !== entry.id);
  const before = loadGames().find((g) => g.id === entry.id);
  games.unshift({ ...before, ...entry, updated: Date.now() });
  saveGames(games);
}

export function forgetGame(id) {
  saveGames(loadGames().filter((g) => g.id !== id));
}

/** The entry for one seat's view: who plays against whom, and whose move it is. */
export function entryFromView(view, tokens) {
  const mine = new Set(tokens.map((_, i) => i));
  const seats = view.seats ?? [];
  const own = view.seat === null || view.seat === undefined ? [] : [view.seat];
  const named = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  const opponents = seats.filter((s) => !own.includes(s.seat)).map((s) => named(s.label));
  return {
    you: own.length && tokens.length === 1 ? named(seats[own[0]]?.label ?? "") : null,
    alone: seats.length === 1,
    id: view.game_id,
    tokens,
    title: view.title,
    game: view.game,
    opponents: tokens.length > 1 ? [] : opponents,
    status: view.status,
    yourMove: Boolean(mine.size) && !view.terminal && view.current_player !== null && view.current_player === view.seat,
    over: Boolean(view.terminal),
  };
}
