// What this browser keeps of an account (its games' seat tokens, its light identity, its
// puzzle results) is forgotten as soon as a page shows that account is no longer signed in
// here: a log-out, a session ended from another device, another person signing in on a shared
// browser. The next person then finds nothing of the account's; the account itself keeps
// everything on the server (/api/me/games), for whenever it logs in again.
const OWNER_KEY = "boneyard.account";
// (turns.js keeps the last "your turn" answer and the games it told of: the account's too.)
const ACCOUNT_KEYS = [
  "boneyard.mygames",
  "boneyard.person",
  "boneyard-name",
  "boneyard.ladder",
  "boneyard.turns",
  "boneyard.turns.told",
];

function signedInName() {
  return document.querySelector("header.top .signed-in")?.textContent.trim() || null;
}

function forgetAccount() {
  for (const key of ACCOUNT_KEYS) localStorage.removeItem(key);
}

try {
  const owner = localStorage.getItem(OWNER_KEY);
  const now = signedInName();
  if (owner && owner !== now) forgetAccount();
  // A guest's games become the account's at sign-up (they are claimed): kept as its from now on.
  if (now) localStorage.setItem(OWNER_KEY, now);
  else localStorage.removeItem(OWNER_KEY);
  document.querySelector("header.top form.logout")?.addEventListener("submit", forgetAccount);
} catch {
  // Storage switched off: nothing is kept to forget.
}
