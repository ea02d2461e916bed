// The "My games" page: the games this browser remembers (static/mygames.js), each refreshed
// from the server with this browser's own seat token, with a "your move" mark, a link to carry
// on and a button to forget it.
import { loadPerson, post, proof } from "./identity.js";
import { entryFromView, forgetGame, loadGames, rememberGame } from "./mygames.js";
import { notifying, startTelling, stopTelling } from "./turns.js";
import { playedTime } from "./when.js";

const list = document.getElementById("mine");

function item(game) {
  const li = document.createElement("li");
  li.className = "mine-game";
  li.dataset.gameId = game.id;
  li.dataset.yourMove = game.yourMove ? "yes" : "no";
  const title = document.createElement("a");
  title.className = "title";
  title.href = `/game/${game.id}?t=${game.tokens.join(",")}`;
  title.textContent = game.title ?? "A game";
  const mark = document.createElement("span");
  mark.className = "your-move";
  mark.textContent = "Your move";
  mark.hidden = !game.yourMove;
  const who = document.createElement("span");
  who.className = "small";
  if (game.alone) who.textContent = "on your own";
  else if (game.opponents?.length) {
    who.textContent = `${game.you ? `you play ${game.you}, ` : ""}against ${game.opponents.join(", ")}`;
  } else who.textContent = "every seat at this screen";
  if (game.continuing) who.textContent += " (your continuing game)";
  // When it was played, then its status, on one line; the status keeps a span of its own.
  const line = document.createElement("span");
  line.className = "mine-line";
  const status = document.createElement("span");
  status.className = "status-line";
  status.textContent = game.status ?? "";
  if (typeof game.created === "number") line.append(playedTime(game.created), game.status ? " · " : "");
  line.append(status);
  const resume = document.createElement("a");
  resume.className = "button";
  resume.href = title.href;
  resume.textContent = game.over ? "Look at it" : "Carry on";
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "secondary";
  remove.textContent = "Remove";
  remove.addEventListener("click", () => {
    forgetGame(game.id);
    show();
  });
  const buttons = document.createElement("div");
  buttons.className = "mine-buttons";
  buttons.append(resume, remove);
  li.append(title, " ", mark, " ", who, line, buttons);
  return li;
}

function show() {
  const games = loadGames();
  // Games waiting for this browser's move first, then the rest as they were last seen.
  games.sort((a, b) => Number(b.yourMove) - Number(a.yourMove) || (b.updated ?? 0) - (a.updated ?? 0));
  list.replaceChildren(...games.map(item));
  document.getElementById("mine-empty").hidden = games.length > 0;
}

async function refresh() {
  if (list.dataset.signedIn === "yes") {
    // The account's games, from any device it played on: each with its seat's token.
    try {
      const response = await fetch("/api/me/games");
      if (response.ok) {
        const known = new Set(loadGames().map((game) => game.id));
        for (const game of await response.json()) {
          if (!known.has(game.id)) rememberGame({ id: game.id, tokens: [game.token], game: game.game });
        }
      }
    } catch {
      // Offline: the remembered list still shows.
    }
  }
  const person = loadPerson();
  if (person) {
    // The continuing games of this name (Obonto with the same person), with this seat's link.
    try {
      for (const entry of await post(`/api/people/${encodeURIComponent(person.id)}/games`, proof(person))) {
        rememberGame(entry);
      }
    } catch {
      // Offline or forgotten by the server: the remembered list still shows.
    }
  }
  for (const game of loadGames()) {
    const query = new URLSearchParams({ token: game.tokens[0] ?? "", draw: "false" });
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(game.id)}?${query}`);
      if (response.status === 403 && (await response.json()).error === "account_seat") {
        forgetGame(game.id); // another account's seat: not this browser's to carry on
        continue;
      }
      if (!response.ok) continue;
      const view = await response.json();
      const entry = entryFromView(view, game.tokens);
      rememberGame({ ...entry, updated: game.updated });
    } catch {
      // Offline: keep what was remembered.
    }
  }
  show();
  list.dataset.refreshed = "yes";
}

/** The one way this site asks to show notifications: the person's click, never by itself. */
function showNotifyButton() {
  const button = document.getElementById("notify-turns");
  const words = document.getElementById("notify-words");
  if (!("Notification" in window)) {
    button.hidden = true;
    words.textContent = "This browser cannot tell you when it is your turn.";
  } else if (Notification.permission === "denied") {
    button.disabled = true;
    words.textContent = "Notifications are blocked for this site: allow them in the browser's site settings.";
  } else if (notifying()) {
    button.textContent = "Stop telling me";
    words.textContent = "This browser tells you when a game comes to your move.";
  } else {
    button.textContent = "Tell me when it is my turn";
    words.textContent = "";
  }
}

document.getElementById("notify-turns").addEventListener("click", async () => {
  if (notifying()) stopTelling();
  else if ((await Notification.requestPermission()) === "granted") startTelling();
  showNotifyButton();
});

showNotifyButton();
show();
refresh();
