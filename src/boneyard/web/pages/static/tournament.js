// A tournament's page: live standings over the tournament's socket (polling the charged read
// when no socket can be had), the join and withdraw buttons, "your game is ready" with the
// link to the board, and the winners once it is over.
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

function untilStart(view) {
  const seconds = Math.max(0, Math.round(view.starts - view.now));
  if (seconds < 60) return `Starts in ${seconds} seconds.`;
  return `Starts in ${Math.round(seconds / 60)} minutes.`;
}

function show(view) {
  if (view.error) {
    $("tournament-message").textContent = view.detail ?? "";
    return;
  }
  root.dataset.live = "yes";
  root.dataset.status = view.status;
  root.dataset.version = String(view.version);
  $("tournament-status").textContent = view.status === "upcoming" ? untilStart(view) : STATUS[view.status];
  const rows = view.standings.map((player) => {
    const row = document.createElement("tr");
    const cells = [
      String(player.rank),
      player.name + (player.on_streak ? " (on a streak)" : "") + (player.withdrawn ? " (withdrew)" : ""),
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
  const me = view.me;
  const over = view.status === "ending" || view.status === "finished";
  const join = $("tournament-join");
  const withdraw = $("tournament-withdraw");
  if (join) join.hidden = over || Boolean(me?.joined);
  if (withdraw) withdraw.hidden = over || !me?.joined;
  const ready = me?.game_url ?? null;
  $("tournament-game").hidden = !ready;
  root.dataset.game = ready ? ready.split("?")[0].replace("/game/", "") : "";
  if (ready) $("tournament-game-link").href = ready;
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
  socket.addEventListener("message", (event) => show(JSON.parse(event.data)));
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

$("tournament-join")?.addEventListener("click", () => ask("join"));
$("tournament-withdraw")?.addEventListener("click", () => ask("withdraw"));
listen();
