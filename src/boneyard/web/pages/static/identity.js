// A light identity: a display name and a secret this browser keeps (no sign-up). The secret
// goes only to this server, to prove the name is this browser's.
const KEY = "boneyard.person";

export function loadPerson() {
  try {
    const person = JSON.parse(localStorage.getItem(KEY) ?? "null");
    return person && person.id && person.secret ? person : null;
  } catch {
    return null;
  }
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.detail ?? "try again");
  return answer;
}

/** This browser's identity with ``name``: made on first use, renamed when the name changes. */
export async function ensurePerson(name) {
  const person = loadPerson();
  if (person && person.name === name) return person;
  let saved;
  if (person) {
    await post(`/api/people/${encodeURIComponent(person.id)}/name`, { secret: person.secret, name });
    saved = { ...person, name };
  } else {
    saved = await post("/api/people", { name });
  }
  localStorage.setItem(KEY, JSON.stringify(saved));
  rememberName(name);
  return saved;
}

const NAME_KEY = "boneyard-name"; // the name last typed on the home page or a game page

/** The name this browser goes by: the one last typed, else its light identity's, else "". */
export function rememberedName() {
  try {
    return (localStorage.getItem(NAME_KEY) || loadPerson()?.name || "").trim();
  } catch {
    return "";
  }
}

export function rememberName(name) {
  try {
    localStorage.setItem(NAME_KEY, name.trim());
  } catch {
    // Storage switched off: the name is only not remembered.
  }
}

export function proof(person) {
  return person ? { id: person.id, secret: person.secret } : null;
}

export { post };
