// The new-game form: the seat rows follow the "players" parameter where a game has one.
const form = document.getElementById("new-game");
const players = form.querySelector('[name="p_players"]');

function update() {
  if (form.dataset.seatsFromPlayers !== "yes" || !players) return;
  const count = Number.parseInt(players.value, 10);
  if (!Number.isFinite(count)) return;
  for (const row of form.querySelectorAll("label.seat")) {
    row.hidden = Number(row.dataset.seat) >= count;
  }
}

players?.addEventListener("input", update);
players?.addEventListener("change", update);
update();
