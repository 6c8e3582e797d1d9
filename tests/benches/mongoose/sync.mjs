// Mongoose peer of odm's sync bench (tests/benches/sync.rs): the same 100 collections `bench_item0..99`, each with
// `{n: 1, p: -1}` named `idx_n_p` and the TTL index `{at: 1}` (86,400 s) named `idx_at`, and a schema that accepts
// what odm's closed validator accepts (n: string, p: number, at: date, nothing else). It makes sure the collections
// and indexes exist, checks that the state is steady (nothing to create or drop), then times steady-state
// `syncIndexes` of all 100 models with the documented `mongoose.syncIndexes()`, which visits the models one after
// the other and never reads validators, in two variants, alternating iteration by iteration:
// - `default`: Mongoose's defaults, a `create` (answered "already exists") and a `listIndexes` per model;
// - `reads_only`: `syncIndexes({ autoCreate: false })`, only the `listIndexes` per model (Mongoose's fastest).
//
//   npm ci --prefix tests/benches/mongoose
//   node tests/benches/mongoose/sync.mjs <uri> <db> [iterations]     (or MONGODB_URI / ODM_BENCH_DB)
//
// Prints one machine-readable line per variant, times in milliseconds:
//   mongoose_sync variant=default models=100 iterations=40 min_ms=61.234 median_ms=66.789 times_ms=66.1,61.2,...
//
// With `--serve` it stays connected and reads an iteration count per line on stdin, answering each with those
// lines and `mongoose_batch_end`: the Rust bench uses this to alternate odm and Mongoose batches on the same server
// in one run.

import mongoose from 'mongoose';
import { createInterface } from 'node:readline';

const MODELS = 100;
const WARMUP = 5;

const args = process.argv.slice(2);
const serve = args.includes('--serve');
const [uri = process.env.MONGODB_URI, dbName = process.env.ODM_BENCH_DB ?? 'bench_sync', iterations = '40'] =
  args.filter((a) => a !== '--serve');
if (!uri) {
  console.error('usage: node sync.mjs <mongodb-uri> <db> [iterations] [--serve]');
  process.exit(2);
}

// autoIndex off: indexes are made by `syncIndexes` below, not behind the timed runs' backs at connect.
const conn = mongoose.createConnection(uri, { dbName, autoIndex: false });
for (let i = 0; i < MODELS; i++) {
  const schema = new mongoose.Schema(
    {
      n: { type: String, required: true },
      p: { type: Number, required: true },
      at: { type: Date, required: true },
    },
    { strict: 'throw', versionKey: false, collection: `bench_item${i}` },
  );
  schema.index({ n: 1, p: -1 }, { name: 'idx_n_p' });
  schema.index({ at: 1 }, { name: 'idx_at', expireAfterSeconds: 86400 });
  conn.model(`BenchItem${i}`, schema);
}
await conn.asPromise();
await Promise.all(Object.values(conn.models).map((m) => m.init()));

// Setup: create what is missing, then require a steady state (a run that drops or builds would time other work).
await conn.syncIndexes();
for (const model of Object.values(conn.models)) {
  const { toDrop, toCreate } = await model.diffIndexes();
  if (toDrop.length || toCreate.length) {
    console.error(`${model.collection.collectionName} is not steady: drop ${toDrop}, create ${JSON.stringify(toCreate)}`);
    process.exit(1);
  }
}

const VARIANTS = { default: {}, reads_only: { autoCreate: false } };

async function timed(n) {
  const ms = Object.fromEntries(Object.keys(VARIANTS).map((v) => [v, []]));
  for (let i = 0; i < n; i++) {
    for (const [variant, options] of Object.entries(VARIANTS)) {
      const start = process.hrtime.bigint();
      const result = await conn.syncIndexes({ ...options });
      ms[variant].push(Number(process.hrtime.bigint() - start) / 1e6);
      const dropped = Object.values(result).flat();
      if (dropped.length) throw new Error(`steady-state syncIndexes dropped ${dropped}`);
    }
  }
  return Object.entries(ms).map(([variant, times]) => {
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    return `mongoose_sync variant=${variant} models=${MODELS} iterations=${n} min_ms=${sorted[0].toFixed(3)} ` +
      `median_ms=${median.toFixed(3)} times_ms=${times.map((t) => t.toFixed(3)).join(',')}`;
  }).join('\n');
}

await timed(WARMUP);
if (serve) {
  for await (const line of createInterface({ input: process.stdin })) {
    const n = Number.parseInt(line, 10);
    if (n > 0) console.log(`${await timed(n)}\nmongoose_batch_end`);
  }
} else {
  console.log(await timed(Number.parseInt(iterations, 10)));
}
await conn.close();
