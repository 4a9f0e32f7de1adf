// The bridge between a Durable Object's SQLite storage and MiniS3's Go
// storage (package deploy/cloudflare/dostore, which documents the calls).
//
// Every item of the store is kept in one table:
//
//   items(kind, key, part, value)
//
// kind is the item's core.Kind (1 meta, 2 bucket, 3 record, 4 upload,
// 5 body), key its key as bytes, and value its bytes. SQLite in a Durable
// Object holds at most 2 MB in a row, so a value is cut into parts of
// PART_SIZE bytes, numbered from 0; every item has at least part 0, an
// empty value an empty part 0.

/** The kind of a body, which load leaves out. */
const BODY = 5;

/** The most bytes of a value one row holds. */
export const PART_SIZE = 1 << 20;

/**
 * The storage bridge over a Durable Object's ctx.storage.
 * @param {DurableObjectStorage} storage
 */
export function sqlStorage(storage) {
  const sql = storage.sql;
  let closed = false;
  const open = () => {
    if (closed) {
      throw new Error("this store was reset");
    }
  };
  sql.exec(`CREATE TABLE IF NOT EXISTS items (
    kind INTEGER NOT NULL,
    key BLOB NOT NULL,
    part INTEGER NOT NULL,
    value BLOB NOT NULL,
    PRIMARY KEY (kind, key, part))`);

  return {
    /** Every item but bodies, as [kind, key, value]. */
    load() {
      open();
      const items = [];
      const rows = sql.exec(
        "SELECT kind, key, part, value FROM items WHERE kind != ? ORDER BY kind, key, part", BODY);
      for (const { kind, key, part, value } of rows) {
        if (part === 0) {
          items.push([kind, new Uint8Array(key), [value]]);
        } else {
          items[items.length - 1][2].push(value);
        }
      }
      return items.map(([kind, key, parts]) => [kind, key, joined(parts)]);
    },

    /** Applies every change, in order, or none: [kind, key, value or null]. */
    commit(changes) {
      open();
      storage.transactionSync(() => {
        for (const [kind, key, value] of changes) {
          sql.exec("DELETE FROM items WHERE kind = ? AND key = ?", kind, key);
          if (value === null) {
            continue;
          }
          const parts = Math.max(1, Math.ceil(value.length / PART_SIZE));
          for (let part = 0; part < parts; part++) {
            const bytes = value.slice(part * PART_SIZE, (part + 1) * PART_SIZE);
            sql.exec("INSERT INTO items (kind, key, part, value) VALUES (?, ?, ?, ?)",
              kind, key, part, bytes);
          }
        }
      });
    },

    /** The body stored under key, or null. */
    readBody(key) {
      open();
      const rows = sql.exec(
        "SELECT value FROM items WHERE kind = ? AND key = ? ORDER BY part", BODY, key).toArray();
      if (rows.length === 0) {
        return null;
      }
      return joined(rows.map((row) => row.value));
    },

    /** Makes every later call throw: the store was reset under a program still running. */
    close() {
      closed = true;
    },
  };
}

/** The ArrayBuffers parts, one after the other, in one Uint8Array. */
function joined(parts) {
  if (parts.length === 1) {
    return new Uint8Array(parts[0]);
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    all.set(new Uint8Array(p), at);
    at += p.byteLength;
  }
  return all;
}
