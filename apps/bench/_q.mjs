import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(process.argv[2], { access_mode: 'READ_ONLY' });
const c = await db.connect();
const r = await c.runAndReadAll(process.argv[3]);
for (const row of r.getRowObjects()) console.log(JSON.stringify(row, (k, v) => typeof v === 'bigint' ? Number(v) : v));
