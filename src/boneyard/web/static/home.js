// The home page: the optional name travels with whichever form is sent, and is remembered.
const field = document.getElementById("your-name");
field.value = localStorage.getItem("boneyard-name") ?? "";
field.addEventListener("input", () => localStorage.setItem("boneyard-name", field.value.trim()));
for (const form of document.querySelectorAll("form")) {
  form.addEventListener("submit", () => {
    for (const hidden of form.querySelectorAll(".name-field")) hidden.value = field.value.trim();
  });
}
