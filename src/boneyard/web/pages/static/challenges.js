// Challenges on every page of a signed-in account: one waiting for an answer (Accept /
// Decline), and the answer to one's own (Play / Close); looked at on load and every 10 s
// while the page is seen.
const box = document.getElementById("challenges");
const closedKey = "boneyard.challenges.closed";
const closed = new Set(JSON.parse(sessionStorage.getItem(closedKey) ?? "[]"));

function button(text, onClick, secondary = false) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  if (secondary) element.className = "secondary";
  element.addEventListener("click", onClick);
  return element;
}

function terms(challenge) {
  return `${challenge.title}, ${challenge.clock}${challenge.rated ? ", rated" : ""}`;
}

let refusal = ""; // the last answer the server refused, said above the challenges

async function answer(challenge, what) {
  let response;
  try {
    response = await fetch(`/api/challenges/${encodeURIComponent(challenge.id)}/${what}`, { method: "POST" });
  } catch {
    refusal = "That did not reach the server: check your connection and try again.";
    look();
    return;
  }
  const body = await response.json().catch(() => ({}));
  refusal = response.ok ? "" : `${body.detail ?? "That did not work; try again"}.`;
  if (response.ok && body.url) location.assign(body.url);
  else look();
}

function line(challenge) {
  const item = document.createElement("p");
  item.dataset.challenge = challenge.id;
  item.dataset.status = challenge.status;
  const words = document.createElement("span");
  item.append(words);
  if (!challenge.mine) {
    words.textContent = `${challenge.from} challenges you: ${terms(challenge)}.`;
    item.append(button("Accept", () => answer(challenge, "accept")), button("Decline", () => answer(challenge, "decline"), true));
  } else if (challenge.status === "open") {
    words.textContent = `Your challenge to ${challenge.to} (${terms(challenge)}) waits for an answer.`;
    item.append(button("Take it back", () => answer(challenge, "cancel"), true));
  } else {
    words.textContent = challenge.status === "cancelled"
      ? `Your challenge to ${challenge.to} was taken back.`
      : `${challenge.to} ${challenge.status} your challenge (${terms(challenge)}).`;
    if (challenge.url) {
      const play = document.createElement("a");
      play.className = "button";
      play.href = challenge.url;
      play.textContent = "Play";
      item.append(play);
    }
    item.append(button("Close", () => {
      closed.add(challenge.id);
      sessionStorage.setItem(closedKey, JSON.stringify([...closed]));
      look();
    }, true));
  }
  return item;
}

async function look() {
  let found;
  try {
    const response = await fetch("/api/challenges");
    if (!response.ok) return;
    found = await response.json();
  } catch {
    return; // offline: the next look
  }
  const shown = [...found.incoming, ...found.outgoing].filter((c) => !closed.has(c.id));
  // the game page a challenge led to says no more about it
  const here = shown.filter((c) => !(c.url && location.pathname === c.url.split("?")[0]));
  const lines = here.map(line);
  if (refusal) {
    const said = document.createElement("p");
    said.className = "message";
    said.setAttribute("role", "alert");
    said.textContent = refusal;
    lines.unshift(said);
  }
  box.replaceChildren(...lines);
  box.hidden = lines.length === 0;
}

document.addEventListener("challenges-changed", look);
setInterval(() => {
  if (document.visibilityState === "visible") look();
}, 10000);
look();
