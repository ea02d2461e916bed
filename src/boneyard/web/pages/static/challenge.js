// The profile's *Challenge*: send this account a challenge (a game of two, its clock, rated or
// not); the answer shows in the banner on every page (challenges.js).
const form = document.getElementById("challenge-form");
const sent = document.getElementById("challenge-sent");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const body = { to: form.dataset.to, game: data.get("game"), clock: data.get("clock"), rated: data.has("rated") };
  let response;
  try {
    response = await fetch("/api/challenges", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    sent.textContent = "The challenge could not be sent: check your connection and try again.";
    return;
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    sent.textContent = answer.detail ? `Not sent: ${answer.detail}.` : "Not sent: try again.";
    return;
  }
  sent.textContent = `Challenge sent to ${answer.to}: ${answer.title}, ${answer.clock}${answer.rated ? ", rated" : ""}. You will see the answer at the top of the page.`;
  document.dispatchEvent(new CustomEvent("challenges-changed"));
});
