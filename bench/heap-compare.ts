// What a process kept between two heap snapshots of it (e.g. bench:soak's snapshots=DIR): the objects of the later
// snapshot that the earlier one did not have (V8 keeps an object's id across snapshots of one process), summed by
// constructor, and for the largest groups the shortest path that keeps one of them reachable.
//   npx tsx bench/heap-compare.ts early.heapsnapshot late.heapsnapshot [top=25 paths=8 code=1]
import { readFile } from 'node:fs/promises';

interface TSnapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const [earlyFile, lateFile, ...rest] = process.argv.slice(2);
if (!earlyFile || !lateFile) {
  console.error('usage: npx tsx bench/heap-compare.ts early.heapsnapshot late.heapsnapshot [top=25 paths=8]');
  process.exit(1);
}
const options = Object.fromEntries(rest.map((arg) => arg.split('=') as [string, string]));
const top = Number(options.top ?? 25);
const pathCount = Number(options.paths ?? 8);
/** V8's own compiled code, shapes and feedback grow while the process warms up; `code=1` lists them too. */
const withCode = options.code === '1';

async function load(file: string): Promise<TSnapshot> {
  return JSON.parse(await readFile(file, 'utf8')) as TSnapshot;
}

/** The snapshot's nodes as columns, with their names resolved. */
function index(heap: TSnapshot) {
  const { meta } = heap.snapshot;
  const width = meta.node_fields.length;
  const at = (field: string) => meta.node_fields.indexOf(field);
  const [typeAt, nameAt, idAt, sizeAt, edgesAt] = ['type', 'name', 'id', 'self_size', 'edge_count'].map(
    at,
  ) as [number, number, number, number, number];
  const count = heap.nodes.length / width;
  const types = meta.node_types[0];
  const node = (i: number) => ({
    type: types[heap.nodes[i * width + typeAt]!]!,
    name: heap.strings[heap.nodes[i * width + nameAt]!]!,
    id: heap.nodes[i * width + idAt]!,
    size: heap.nodes[i * width + sizeAt]!,
    edgeCount: heap.nodes[i * width + edgesAt]!,
  });
  return { count, node, width };
}

/** A group name that tells what kind of thing was kept: the constructor for objects, the kind otherwise. */
function groupOf(node: { type: string; name: string }): string {
  if (node.type === 'object' || node.type === 'closure' || node.type === 'native')
    return `${node.name} (${node.type})`;
  if (node.type === 'string' || node.type === 'concatenated string' || node.type === 'sliced string')
    return '(string)';
  return `(${node.type}) ${node.name.slice(0, 40)}`;
}

const early = await load(earlyFile);
const earlyIds = new Set<number>();
{
  const { count, node } = index(early);
  for (let i = 0; i < count; i += 1) earlyIds.add(node(i).id);
}
const earlyTotal = earlyIds.size;
(early as Partial<TSnapshot>).nodes = undefined;

const late = await load(lateFile);
const { count, node, width } = index(late);
const groups = new Map<string, { count: number; size: number; sample: number[] }>();
/** Nodes of the late snapshot that are new, as V8 numbers them (the embedder's native nodes get new ids anyway). */
const isNew = new Uint8Array(count);
for (let i = 0; i < count; i += 1) {
  const n = node(i);
  if (earlyIds.has(n.id) || n.type === 'native' || n.type === 'synthetic') continue;
  if (!withCode && (n.type === 'code' || n.type === 'object shape' || n.type === 'hidden')) continue;
  isNew[i] = 1;
  const key = groupOf(n);
  const group = groups.get(key) ?? { count: 0, size: 0, sample: [] };
  group.count += 1;
  group.size += n.size;
  if (group.sample.length < 3) group.sample.push(i);
  groups.set(key, group);
}
console.log(`nodes: ${earlyTotal} early, ${count} late; kept from after the early snapshot, by count:\n`);
const sorted = [...groups.entries()].sort((a, b) => b[1].count - a[1].count).slice(0, top);
for (const [key, group] of sorted) {
  console.log(`${String(group.count).padStart(8)}  ${String(group.size).padStart(10)} B  ${key}`);
}

// Retainer paths: breadth-first from the roots gives each node its distance and the edge that first reached it.
const edgeFields = late.snapshot.meta.edge_fields;
const edgeWidth = edgeFields.length;
const [edgeTypeAt, edgeNameAt, edgeToAt] = ['type', 'name_or_index', 'to_node'].map((f) =>
  edgeFields.indexOf(f),
) as [number, number, number];
const edgeTypes = late.snapshot.meta.edge_types[0];
const firstEdge = new Uint32Array(count + 1);
for (let i = 0; i < count; i += 1) firstEdge[i + 1] = firstEdge[i]! + node(i).edgeCount;
const parent = new Int32Array(count).fill(-1);
const parentEdge = new Int32Array(count).fill(-1);
const seen = new Uint8Array(count);
const queue = [0];
seen[0] = 1;
for (let head = 0; head < queue.length; head += 1) {
  const from = queue[head]!;
  for (let e = firstEdge[from]!; e < firstEdge[from + 1]!; e += 1) {
    const type = edgeTypes[late.edges[e * edgeWidth + edgeTypeAt]!];
    if (type === 'weak' || type === 'shortcut') continue;
    const to = late.edges[e * edgeWidth + edgeToAt]! / width;
    if (seen[to]) continue;
    seen[to] = 1;
    parent[to] = from;
    parentEdge[to] = e;
    queue.push(to);
  }
}
const edgeLabel = (e: number) => {
  const type = edgeTypes[late.edges[e * edgeWidth + edgeTypeAt]!];
  const nameOrIndex = late.edges[e * edgeWidth + edgeNameAt]!;
  return type === 'element' || type === 'hidden' ? `[${nameOrIndex}]` : `.${late.strings[nameOrIndex]}`;
};

// A leak is an old object that keeps gathering new ones: each new object is counted against its nearest ancestor
// (on its shortest path from the roots) that the early snapshot already had, and the edge leading out of it.
const holders = new Map<string, { count: number; size: number; sample: number }>();
for (let i = 0; i < count; i += 1) {
  if (!isNew[i]) continue;
  let at = i;
  while (parent[at]! >= 0 && isNew[parent[at]!]) at = parent[at]!;
  const holder = parent[at]!;
  if (holder < 0) continue;
  const h = node(holder);
  // Elements of one array or map count together; named properties apart.
  const label = edgeLabel(parentEdge[at]!);
  const key = `${h.name.slice(0, 60)} (${h.type} @${h.id})${label.startsWith('[') ? '[…]' : label}`;
  const entry = holders.get(key) ?? { count: 0, size: 0, sample: i };
  entry.count += 1;
  entry.size += node(i).size;
  holders.set(key, entry);
}
console.log('\nOld objects holding the most new ones (count, bytes, holder and the edge out of it):\n');
for (const [key, entry] of [...holders.entries()].sort((a, b) => b[1].count - a[1].count).slice(0, top)) {
  const example = node(entry.sample);
  console.log(
    `${String(entry.count).padStart(8)}  ${String(entry.size).padStart(10)} B  ${key}  e.g. ${example.name.slice(0, 40)} (${example.type} @${example.id})`,
  );
}

/** The shortest path from the roots to node index `target`, one step a line. */
function pathTo(target: number): string {
  const steps: string[] = [];
  for (let at = target; parent[at]! >= 0 && steps.length < 30; at = parent[at]!) {
    const n = node(parent[at]!);
    steps.push(`${n.name.slice(0, 50)} (${n.type} @${n.id})${edgeLabel(parentEdge[at]!)}`);
  }
  return steps.reverse().join('\n  → ');
}

console.log('\nWhat keeps one of each of the largest groups (root first):\n');
for (const [key, group] of sorted.slice(0, pathCount))
  console.log(`${key}:\n  ${pathTo(group.sample[0]!)}\n`);

// largest=N: the N largest single objects of the later snapshot and what keeps each (e.g. buffers outside the heap).
for (const i of [...Array(Number(options.largest ?? 0) > 0 ? count : 0).keys()]
  .sort((a, b) => node(b).size - node(a).size)
  .slice(0, Number(options.largest ?? 0))) {
  const n = node(i);
  console.log(`${n.size} B ${n.type} ${n.name.slice(0, 60)} @${n.id}:\n  ${pathTo(i)}\n`);
}

// show=ID,ID: the path to these nodes (by the @id printed above), and what their new children are.
for (const id of (options.show ?? '').split(',').filter(Boolean).map(Number)) {
  let target = -1;
  for (let i = 0; i < count && target < 0; i += 1) if (node(i).id === id) target = i;
  if (target < 0) continue;
  const children = new Map<string, number>();
  for (let e = firstEdge[target]!; e < firstEdge[target + 1]!; e += 1) {
    const to = late.edges[e * edgeWidth + edgeToAt]! / width;
    if (!isNew[to]) continue;
    const key = groupOf(node(to));
    children.set(key, (children.get(key) ?? 0) + 1);
  }
  const listed = [...children.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
  console.log(
    `@${id} ${node(target).name.slice(0, 60)}:\n  ${pathTo(target)}\n  new children: ${listed.map(([k, n]) => `${n} × ${k}`).join(', ')}\n`,
  );
}
