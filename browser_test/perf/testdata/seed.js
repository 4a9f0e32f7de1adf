// seed fills the playground's IndexedDB database for the page benchmarks:
// bucket "bench", versioning enabled, keys×versions data versions, the
// version j of every key created at clock j, and the clock left at versions.
import ready from "/minis3.js";

globalThis.seed = async (keys, versions) => {
  const minis3 = await ready;
  const store = await minis3.open({ db: "playground" });
  const encoder = new TextEncoder();
  try {
    await store.createBucket("bench");
    await store.setBucketVersioning("bench", "enabled");
    for (let j = 0; j < versions; j++) {
      await store.setClock(j);
      const puts = [];
      for (let k = 0; k < keys; k++) {
        const key = `k/${String(k).padStart(3, "0")}`;
        puts.push(store.put("bench", key, encoder.encode(`${key} version ${j}`)));
      }
      await Promise.all(puts);
    }
    await store.setClock(versions);
    return (await store.listVersions("bench", {})).length;
  } finally {
    store.close();
  }
};
