// Game choice forms (lobby, assignment): show only the options of the chosen game and mode.
//
// The game select has [data-game-select] and values "kind:mode"; each option select has
// [data-game-option="kind"] and [data-modes="m1,m2"] (empty: every mode of that game).  The
// server ignores options that do not apply, so this is only about what the page shows.

export function syncOptions(form) {
  const select = form.querySelector("[data-game-select]");
  if (!select) return;
  const [kind, mode] = select.value.split(":");
  for (const option of form.querySelectorAll("[data-game-option]")) {
    const modes = (option.dataset.modes || "").split(",").filter(Boolean);
    const shown = option.dataset.gameOption === kind && (!modes.length || modes.includes(mode));
    const row = option.closest(".field") || option;
    row.hidden = !shown;
    option.disabled = !shown;
  }
  form.dispatchEvent(new CustomEvent("game-change", { detail: { kind, mode } }));
}

for (const form of document.querySelectorAll("form[data-game-form]")) {
  const select = form.querySelector("[data-game-select]");
  if (select) select.addEventListener("change", () => syncOptions(form));
  syncOptions(form);
}
