// Passkeys: add one to the signed-in account (its profile page), or log in with one (the log-in
// page). The browser and the authenticator do the cryptography; the server checks it.
const $ = (id) => document.getElementById(id);

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

function say(text) {
  $("passkey-status").textContent = text;
}

const supported = Boolean(window.PublicKeyCredential?.parseCreationOptionsFromJSON);

const add = $("passkey-add");
if (add) {
  add.hidden = !supported;
  add.addEventListener("click", async () => {
    add.disabled = true;
    try {
      const { id, options } = await post("/api/passkeys/options", {});
      const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options);
      const credential = await navigator.credentials.create({ publicKey });
      const added = await post("/api/passkeys", { id, credential: credential.toJSON() });
      say(`Passkey added: you have ${added.passkeys}. Log in with it on this device.`);
      if (add.dataset.reload === "yes") location.reload(); // the settings page lists it
    } catch (error) {
      say(`No passkey was added: ${error.message}`);
    } finally {
      add.disabled = false;
    }
  });
}

const login = $("passkey-login");
if (login) {
  login.hidden = !supported;
  login.addEventListener("click", async () => {
    login.disabled = true;
    try {
      const { id, options } = await post("/api/login/passkey/options", {});
      const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options);
      const credential = await navigator.credentials.get({ publicKey });
      await post("/api/login/passkey", { id, credential: credential.toJSON() });
      location.assign("/mine");
    } catch (error) {
      say(`You are not logged in: ${error.message}`);
      login.disabled = false;
    }
  });
}
