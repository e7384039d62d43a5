import { expandCells, loadStudy, rowsKey } from '../dist/index.js';
const dataAffinity = (c) => rowsKey(c.dataset, c.seed);
const cells = await expandCells(loadStudy('article'));
const l = cells.filter((c) => c.plan.method === 'limi');
const old = new Set(l.map((c) => JSON.stringify([c.dataset.label, c.dataset.null, c.seed])));
const now = new Set(l.map(dataAffinity));
const all = new Set(cells.map(dataAffinity));
console.log(l.length, old.size, now.size, 'queues', all.size);
