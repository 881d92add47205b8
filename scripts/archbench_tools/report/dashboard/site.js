// The history table's search box and toggles, and the front page's model choice. Nothing else.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const model = document.getElementById("search-model");
  if (model) model.addEventListener("change", () => { document.getElementById("front-search").action = model.value; });
  const box = document.getElementById("search");
  if (!box) return;
  const steps = document.getElementById("steps-only"), drawn = document.getElementById("drawn-only");
  const rows = Array.from(document.querySelectorAll("#history tbody tr"));
  const count = document.getElementById("count");
  const apply = () => {
    const q = box.value.trim().toLowerCase();
    let shown = 0;
    for (const r of rows) {
      const ok = (!q || r.dataset.name.includes(q)) && (!steps.checked || r.dataset.step === "1") &&
                 (!drawn.checked || r.dataset.drawn === "1");
      r.hidden = !ok;
      if (ok && !r.classList.contains("plot")) shown++;
    }
    count.textContent = shown + " shown";
    count.dataset.shown = shown;
  };
  const q = new URLSearchParams(window.location.search).get("q");
  if (q) box.value = q;
  for (const el of [box, steps, drawn]) el.addEventListener("input", apply);
  apply();
});
