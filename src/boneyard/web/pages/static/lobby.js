// The lobby: open a game for someone to join, join a waiting game, or watch a live one.
import { ensurePerson, loadPerson, post, proof, rememberedName } from "./identity.js";
import { loadGames } from "./mygames.js";
import { playedTime } from "./when.js";

const $ = (id) => document.getElementById(id);
const nameInput = $("your-name");
// A signed-in page comes with the account's name; the browser's own goes first.
nameInput.value = loadPerson()?.name ?? (rememberedName() || nameInput.value);

async function me() {
  const name = nameInput.value.trim();
  if (!name) {
    $("lobby-message").textContent = "Write your name first, so the others know who they play.";
    nameInput.focus();
    return null;
  }
  return ensurePerson(name);
}

// Settings that name seats by number are left out: the lobby decides who sits where.
const SEAT_NUMBERS = new Set(["first"]);
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// The chosen game's simple settings (numbers, yes/no, lists of choices), with their defaults.
async function showParams() {
  const box = $("open-params");
  box.replaceChildren();
  const kind = await (await fetch(`/api/kinds/${encodeURIComponent($("open-kind").value)}`)).json();
  for (const spec of kind.info.parameter_specs ?? []) {
    const simple = ["int", "bool"].includes(spec.type) || spec.choices;
    if (spec.local_only || spec.advanced || !simple || SEAT_NUMBERS.has(spec.name)) continue;
    const label = document.createElement("label");
    label.textContent = capital(spec.question ?? spec.description);
    let input;
    if (spec.choices) {
      input = document.createElement("select");
      spec.choices.forEach((choice, index) => {
        const words = spec.choice_labels?.[index] ?? String(choice); // as the Custom game form
        input.append(new Option(words, String(choice)));
      });
    } else if (spec.type === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = Boolean(spec.default);
    } else {
      input = document.createElement("input");
      input.type = "number";
      if (spec.minimum !== null) input.min = spec.minimum;
      if (spec.maximum !== null) input.max = spec.maximum;
    }
    if (input.type !== "checkbox") input.value = String(spec.default);
    input.dataset.param = spec.name;
    input.dataset.default = String(spec.default);
    label.append(input);
    box.append(label);
  }
}

function chosenParams() {
  const params = {};
  for (const input of $("open-params").querySelectorAll("[data-param]")) {
    const value = input.type === "checkbox" ? String(input.checked) : input.value;
    if (value !== input.dataset.default) params[input.dataset.param] = value;
  }
  return params;
}

/** The chosen preset as the API's time control: "180+2" -> {initial, increment}, "3d" -> {days}. */
function clockOf(value) {
  if (!value) return null;
  if (value.endsWith("d")) return { days: Number(value.slice(0, -1)) };
  const [initial, increment] = value.split("+").map(Number);
  return { initial, increment };
}

$("open-kind").addEventListener("change", showParams);
showParams();

$("open-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const person = await me();
    if (!person) return;
    const opened = await post("/api/open", {
      game: $("open-kind").value,
      params: chosenParams(),
      hints: $("open-hints").checked,
      rated: $("open-rated")?.checked ?? false,
      clock: clockOf($("open-clock").value),
      person: proof(person),
    });
    location.assign(opened.url);
  } catch (error) {
    $("lobby-message").textContent = `The game could not be opened: ${error.message}`;
  }
});

/** A game in the lobby; ``mine``: this browser's seats in it (its own open game), if any. */
function row(game, join, mine) {
  const li = document.createElement("li");
  li.className = "lobby-game";
  li.dataset.gameId = game.id;
  const title = document.createElement("strong");
  title.textContent = game.title;
  const about = document.createElement("span");
  // A seat's account shows its rating in this game: "Ann (1512?)".
  const rated = (name, seat) => (game.ratings?.[seat] ? `${name} (${game.ratings[seat].shown})` : name);
  const names = game.people.map((name, seat) => name && rated(name, seat)).filter(Boolean);
  const waits = names.length ? `${names.join(", ")} waits` : "someone waits";
  const who = mine && game.open_seats.length ? "you wait for an opponent" : join ? waits : names.join(" against ");
  const hints = game.hints_on ? ", hints on" : "";
  const clock = game.clock?.control ? `, ${game.clock.words}` : "";
  const ratedGame = game.rated ? ", rated" : "";
  about.textContent = ` (${game.params}${clock}${hints}${ratedGame}) ${who}`;
  li.append(title, about, " ");
  if (typeof game.created === "number") {
    const when = document.createElement("span");
    when.className = "small";
    when.append(playedTime(game.created));
    li.append(when, " ");
  }
  if (mine) {
    const back = document.createElement("a");
    back.className = "yours";
    back.href = `/game/${encodeURIComponent(game.id)}?t=${mine.tokens.map(encodeURIComponent).join(",")}`;
    back.textContent = "Back to your game";
    li.append(back);
    return li;
  }
  if (join) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "join";
    button.textContent = "Join";
    button.addEventListener("click", async () => {
      try {
        const person = await me();
        if (!person) return;
        button.disabled = true;
        const joined = await post(`/api/open/${game.id}/join`, { person: proof(person) });
        location.assign(joined.url);
      } catch (error) {
        $("lobby-message").textContent = `Could not join: ${error.message}`;
        button.disabled = false;
        refresh();
      }
    });
    li.append(button, " ");
  }
  const watch = document.createElement("a");
  watch.className = "watch";
  watch.href = game.watch_url;
  watch.textContent = "Watch";
  li.append(watch);
  return li;
}

/** Whether a waiting game's accounts are all within the chosen range of ratings (a game
 * without accounts is shown only while no range is chosen). */
function inRange(game) {
  const lowest = Number($("rating-from").value || "0");
  const highest = Number($("rating-to").value || "0");
  if (!lowest && !highest) return true;
  const ratings = (game.ratings ?? []).filter(Boolean).map((r) => r.rating);
  if (!ratings.length) return false;
  return ratings.every((r) => (!lowest || r >= lowest) && (!highest || r <= highest));
}

/** Whether a waiting game's time control is of the chosen speed (none chosen: any). */
function ofSpeed(game) {
  const speed = $("speed-filter").value;
  return !speed || game.clock?.speed === speed;
}

let lastLobby = null;

function show(lobby) {
  const mine = new Map(loadGames().map((g) => [g.id, g]));
  const waiting = lobby.waiting.filter((g) => mine.has(g.id) || (inRange(g) && ofSpeed(g)));
  $("waiting").replaceChildren(...waiting.map((g) => row(g, !mine.has(g.id), mine.get(g.id))));
  $("live").replaceChildren(...lobby.live.map((g) => row(g, false, mine.get(g.id))));
  $("waiting-empty").hidden = waiting.length > 0;
  $("waiting-empty").textContent = lobby.waiting.length
    ? "Nobody waiting matches the rating and time control chosen."
    : "Nobody is waiting right now.";
  $("live-empty").hidden = lobby.live.length > 0;
}

for (const id of ["rating-from", "rating-to", "speed-filter"]) {
  $(id).addEventListener("input", () => lastLobby && show(lastLobby));
}

async function refresh() {
  try {
    const lobby = await (await fetch("/api/lobby")).json();
    lastLobby = lobby;
    show(lobby);
  } catch {
    // The next refresh tries again.
  }
}

refresh();
setInterval(refresh, 5000);
