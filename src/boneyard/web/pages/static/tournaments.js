// The tournaments page: the form that makes an arena (POST /api/tournaments), then its page.
const form = document.getElementById("new-tournament");
const message = document.getElementById("tournament-message");

function number(id) {
  return Number(document.getElementById(id).value);
}

form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  message.textContent = "";
  const body = {
    game: document.getElementById("tournament-game").value,
    kind: "arena",
    minutes: number("tournament-minutes"),
    clock: {
      initial: Math.round(number("tournament-clock-minutes") * 60),
      increment: Math.round(number("tournament-clock-increment")),
    },
    starts_in: Math.round(number("tournament-starts-in")),
  };
  try {
    const response = await fetch("/api/tournaments", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (response.ok) location.assign(answer.url);
    else message.textContent = answer.detail ?? "The tournament could not be made; try again.";
  } catch {
    message.textContent = "The server could not be reached; try again.";
  }
});
