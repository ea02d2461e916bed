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

// An empty field means "the default": it is not sent at all.
form.addEventListener("submit", () => {
  for (const input of form.querySelectorAll("input, select")) {
    if (input.name && input.value.trim() === "") input.disabled = true;
  }
});
// Coming back to the page (the browser's back button) must find the fields usable.
window.addEventListener("pageshow", () => {
  for (const input of form.querySelectorAll("input, select")) input.disabled = false;
});
