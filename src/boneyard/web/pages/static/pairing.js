// Quick pairing: look for an opponent in the chosen game; the server pairs the two nearest
// seekers. While waiting, this page asks every two seconds (which also keeps the search alive).
import { post, rememberName } from "./identity.js";

const $ = (id) => document.getElementById(id);
const signedIn = Boolean(document.querySelector("header.top .signed-in"));
let waiting = null; // the seek's id while looking

function status(text) {
  $("quick-status").textContent = text;
}

function stop() {
  waiting = null;
  $("quick-pairing").disabled = false;
  $("quick-cancel").hidden = true;
}

async function ask(seek) {
  if (waiting !== seek) return;
  try {
    const answer = await post(`/api/pairing/${encodeURIComponent(seek)}`, {});
    if (answer.url) {
      location.assign(answer.url);
      return;
    }
  } catch (error) {
    status(`The search stopped: ${error.message}`);
    stop();
    return;
  }
  setTimeout(() => ask(seek), 2000);
}

$("quick-pairing").addEventListener("click", async () => {
  const name = $("your-name").value.trim();
  if (!signedIn && !name) {
    status("Write your name first (under Open a game), so your opponent knows who they play.");
    $("your-name").focus();
    return;
  }
  $("quick-pairing").disabled = true;
  try {
    if (!signedIn) rememberName(name);
    const answer = await post("/api/pairing", { game: $("quick-kind").value, name: signedIn ? null : name });
    if (answer.url) {
      location.assign(answer.url);
      return;
    }
    waiting = answer.seek;
    $("quick-cancel").hidden = false;
    status("Looking for an opponent…");
    setTimeout(() => ask(answer.seek), 2000);
  } catch (error) {
    status(`No search started: ${error.message}`);
    stop();
  }
});

$("quick-cancel").addEventListener("click", async () => {
  const seek = waiting;
  stop();
  status("");
  if (seek) await post(`/api/pairing/${encodeURIComponent(seek)}/cancel`, {}).catch(() => {});
});
