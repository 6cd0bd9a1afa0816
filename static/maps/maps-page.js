// The staff map page: show only the size field of the chosen game (cells for Berrymandering,
// counties for Mapmaker).  Without this script both show; the server reads the right one.
for (const form of document.querySelectorAll("form[data-kind-form]")) {
  const kind = form.querySelector("select[name$='kind']");
  const sync = () => {
    for (const input of form.querySelectorAll("[data-for-kind]")) {
      const row = input.closest(".field") || input;
      row.hidden = input.dataset.forKind !== kind.value;
    }
  };
  if (kind) {
    kind.addEventListener("change", sync);
    sync();
  }
}
