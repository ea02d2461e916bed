// The home page: the optional name travels with whichever form is sent, and is remembered.
import { rememberName, rememberedName } from "./identity.js";

const field = document.getElementById("your-name");
field.value = rememberedName();
field.addEventListener("input", () => rememberName(field.value));
for (const form of document.querySelectorAll("form")) {
  form.addEventListener("submit", () => {
    for (const hidden of form.querySelectorAll(".name-field")) hidden.value = field.value.trim();
  });
}
