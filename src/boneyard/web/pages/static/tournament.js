// A tournament's page: live standings over the tournament's socket (polling the charged read
// when no socket can be had), the time left, the games being played, the join, pause and
// resume buttons, the player's new game opened by itself (arena_watch.js), and the winners
// once it is over.
import { applyUpdate, followArena } from "./arena_watch.js";

const root = document.getElementById("tournament");
const id = root.dataset.tournamentId;
const $ = (name) => document.getElementById(name);
const STATUS = {
  upcoming: "Starts soon.",
  running: "Being played.",
  ending: "Time is up: the last games are being finished.",
  finished: "Finished.",
};
const POLL_MS = 3000;

// The server's time at the last view, against this browser's: the countdown is the server's.
let times = { starts: Number(root.dataset.starts), ends: Number(root.dataset.ends), status: root.dataset.status };
let offset = Number(root.dataset.now) * 1000 - Date.now();

function clockWords(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

function showClock() {
  const now = (Date.now() + offset) / 1000;
  const clock = $("tournament-clock");
  if (times.status === "upcoming") clock.textContent = `Starts in ${clockWords(times.starts - now)}`;
  else if (times.status === "running") clock.textContent = `Time left: ${clockWords(times.ends - now)}`;
  clock.hidden = !(times.status === "upcoming" || times.status === "running");
}

function untilStart(view) {
  const seconds = Math.max(0, Math.round(view.starts - view.now));
  if (seconds < 60) return `Starts in ${seconds} seconds.`;
  return `Starts in ${Math.round(seconds / 60)} minutes.`;
}

function gameItem(game) {
  const item = document.createElement("li");
  const link = document.createElement("a");
  link.href = game.url;
  link.textContent = game.names.join(" against ");
  item.append(link);
  return item;
}

// The view last shown: a socket's "update" carries only what changed since it.
let current = null;

function show(view) {
  if (view.error) {
    $("tournament-message").textContent = view.detail ?? "";
    return;
  }
  current = view;
  root.dataset.live = "yes";
  root.dataset.status = view.status;
  root.dataset.version = String(view.version);
  times = { starts: view.starts, ends: view.ends, status: view.status };
  offset = view.now * 1000 - Date.now();
  showClock();
  $("tournament-status").textContent = view.status === "upcoming" ? untilStart(view) : STATUS[view.status];
  const rows = view.standings.map((player) => {
    const row = document.createElement("tr");
    const cells = [
      String(player.rank),
      player.name + (player.on_streak ? " (on a streak)" : "") + (player.paused ? " (paused)" : ""),
      player.sheet.join(" "),
      String(player.score),
    ];
    for (const text of cells) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    if (player.playing) row.classList.add("playing");
    return row;
  });
  $("standings").replaceChildren(...rows);
  $("standings-empty").hidden = rows.length > 0;
  $("podium-places").replaceChildren(
    ...view.podium.map((name) => {
      const item = document.createElement("li");
      item.textContent = name;
      return item;
    }),
  );
  $("podium").hidden = view.podium.length === 0;
  const games = view.games ?? [];
  $("tournament-games-list").replaceChildren(...games.map(gameItem));
  $("tournament-games").hidden = games.length === 0;
  const me = view.me;
  const over = view.status === "ending" || view.status === "finished";
  const join = $("tournament-join");
  const withdraw = $("tournament-withdraw");
  if (join) {
    join.hidden = over || Boolean(me?.joined);
    join.textContent = me?.paused ? "Resume" : "Join";
  }
  if (withdraw) withdraw.hidden = over || !me?.joined;
  const signIn = $("tournament-sign-in");
  if (signIn) signIn.hidden = over;
  $("tournament-paused").hidden = over || !me?.paused;
  root.dataset.paused = me?.paused ? "yes" : "no";
  const ready = me?.game_url ?? null;
  $("tournament-game").hidden = !ready;
  $("tournament-next").hidden = over || !me?.joined || Boolean(ready);
  root.dataset.game = ready ? ready.split("?")[0].replace("/game/", "") : "";
  if (ready) $("tournament-game-link").href = ready;
  followArena(view); // a new game opens by itself
}

async function read() {
  try {
    const response = await fetch(`/api/tournaments/${encodeURIComponent(id)}`);
    if (response.ok) show(await response.json());
  } catch {
    // offline for a moment: the next poll tries again
  }
}

let polling = null;
function poll() {
  if (polling === null) polling = setInterval(read, POLL_MS);
}

function listen() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${encodeURIComponent(id)}`);
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "update" && current) show(applyUpdate(current, message));
    else show(message);
  });
  socket.addEventListener("close", () => {
    if (root.dataset.status !== "finished") poll();
  });
}

async function ask(what) {
  $("tournament-message").textContent = "";
  const response = await fetch(`/api/tournaments/${encodeURIComponent(id)}/${what}`, { method: "POST" });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    $("tournament-message").textContent = body.detail ?? "That did not work; try again.";
  }
  await read();
}

setInterval(showClock, 1000);
showClock();
$("tournament-join")?.addEventListener("click", () => ask("join"));
$("tournament-withdraw")?.addEventListener("click", () => ask("withdraw"));
listen();
