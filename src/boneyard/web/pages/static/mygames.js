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
  // Labels as the server wrote them: a person's name as its owner wrote it ("alice" stays so).
  const opponents = seats.filter((s) => !own.includes(s.seat)).map((s) => s.label);
  return {
    you: own.length && tokens.length === 1 ? (seats[own[0]]?.label ?? "") : null,
    alone: seats.length === 1,
    id: view.game_id,
    tokens,
    title: view.title,
    game: view.game,
    created: view.created,
    opponents: tokens.length > 1 ? [] : opponents,
    status: statusLine(view, tokens.length === 1 ? own : []),
    yourMove: Boolean(mine.size) && !view.terminal && view.current_player !== null && view.current_player === view.seat,
    over: Boolean(view.terminal),
  };
}

/** Where the game stands, in a few words, from a view without its drawing (no game words):
 * who won, or whom it waits for. Nothing when it is this browser's one seat's move (the mark
 * says so). ``own``: that seat, or empty when this browser plays several seats. */
function statusLine(view, own) {
  const seats = view.seats ?? [];
  const label = (seat) => seats[seat]?.label ?? "";
  if (view.terminal) {
    // called off: every seat's returns alike, and yet no draw
    if (view.session?.ending?.kind === "abort") return "Game called off";
    const returns = view.returns ?? [];
    if (!returns.length) return "Game over";
    const best = Math.max(...returns);
    const winners = returns.flatMap((r, seat) => (r === best ? [seat] : []));
    if (winners.length === returns.length && returns.length > 1) return "Game over: a draw";
    if (own.length === 1 && returns.length > 1) return winners.includes(own[0]) ? "Game over: you won" : "Game over: you lost";
    return returns.length === 1 ? "Game over" : `Game over: ${winners.map(label).join(" and ")} won`;
  }
  if (view.current_player === null || view.current_player === undefined || view.current_player < 0) return "";
  if (!own.length) return `${label(view.current_player)} to move`; // every seat at this screen
  if (view.current_player === own[0]) return "";
  return `Waiting for ${label(view.current_player)}`;
}
