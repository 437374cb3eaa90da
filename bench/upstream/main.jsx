// Memscope's side-by-side bench (bench/upstream.py): the upstream
// @supermemory/memory-graph MemoryGraph, full page, fed the documents a Supermemory
// `POST /v3/documents/documents` feed would give for a demo store (all pages merged,
// served as one static JSON file on 127.0.0.1). Only this file, index.html and
// package.json are ours; the package itself is installed into bench/out/upstream/.
import { MemoryGraph } from "@supermemory/memory-graph";
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";

// bench/upstream.py's init script creates window.__up (the canvas paint log) first.
const up = (window.__up = window.__up || { paints: [], marks: {} });
const mark = (name) => {
  up.marks[name] = performance.now();
};

// The v3 feed names a document's memories `memoryEntries` and its kind `type`;
// MemoryGraph reads `memories` and `documentType` (its DocumentWithMemories type).
// Renaming is what any app using the component over the API has to do; it is
// timed as part of the page (it is O(documents)).
function toGraphDocuments(feed) {
  return feed.map((doc) => ({
    ...doc,
    documentType: doc.documentType ?? doc.type ?? "text",
    memories: doc.memories ?? doc.memoryEntries ?? [],
  }));
}

function App({ url }) {
  const [documents, setDocuments] = useState([]);
  const [isLoading, setIsLoading] = useState(true);
  const [error, setError] = useState(null);
  useEffect(() => {
    mark("fetchStart");
    fetch(url)
      .then((res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status} for ${url}`);
        return res.json();
      })
      .then((data) => {
        mark("dataParsed");
        const docs = toGraphDocuments(data.documents);
        up.documents = docs.length;
        up.memories = docs.reduce((n, d) => n + d.memories.length, 0);
        setDocuments(docs);
        setIsLoading(false);
        mark("documentsSet");
      })
      .catch((err) => {
        up.error = String(err);
        setError(err instanceof Error ? err : new Error(String(err)));
        setIsLoading(false);
      });
  }, [url]);
  return (
    <div style={{ position: "fixed", inset: 0 }}>
      <MemoryGraph documents={documents} isLoading={isLoading} error={error} variant="console" />
    </div>
  );
}

const url = new URLSearchParams(window.location.search).get("data") || "data.json";
createRoot(document.getElementById("root")).render(<App url={url} />);
