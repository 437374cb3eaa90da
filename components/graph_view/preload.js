// The graph's files, asked for as soon as the page's HTML arrives (issue 33, item 2).
// preload.py puts this in every page Streamlit serves, after `FILES` (the same as
// loader.js's). Without it the element's loader (loader.js) only asks for the files once
// Streamlit has rendered the graph's element, after the script's run: a wait of about
// 100 ms for a returning visitor (from the HTTP cache) and 300 ms for a new one, between
// the graph's data arriving and its first frame. Here the modules and the stylesheet are
// fetched at once, as the loader fetches them (`force-cache`), and vis-network runs from
// its URL once the page has parsed (after Streamlit's own module), so it is defined long
// before the graph's data arrives. The loader takes what is here when it names the same
// versions, and fetches anything that failed itself. Nothing is fetched from elsewhere.
(() => {
  const url = (name) => `${FILES.base}${name}?v=${FILES.versions[name]}`;
  const texts = {};
  const fetchText = (name) => fetch(url(name), { cache: "force-cache" }).then((response) => (
    response.ok ? response.text() : Promise.reject(new Error(`HTTP ${response.status}`))));
  let library = null;
  if (FILES.immutable) {
    library = new Promise((resolve, reject) => {
      const run = () => {
        const script = document.createElement("script");
        script.src = url(FILES.library);
        script.onload = () => resolve();
        script.onerror = () => reject(new Error(`${FILES.library} did not load`));
        document.head.appendChild(script);
      };
      if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
      else run();
    });
    library.catch(() => {}); // the loader runs it again itself
  }
  for (const name of Object.keys(FILES.versions)) {
    if (library && name === FILES.library) continue;
    texts[name] = fetchText(name);
    texts[name].catch(() => {}); // the loader fetches it again itself
  }
  globalThis.__memscopeGraphFiles = { versions: FILES.versions, texts, library };
})();
