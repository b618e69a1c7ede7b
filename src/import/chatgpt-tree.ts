/**
 * The active path through a ChatGPT conversation's message tree: from `current_node` up the parent chain to the
 * root, reversed. Other branches (edited prompts, regenerated answers) are not part of what the user saw last.
 */
import { isObject, type JsonObject } from './common.js';

export interface PathNode {
  id: string;
  message: unknown;
}

export type ActivePath = { ok: true; nodes: PathNode[]; warnings: string[] } | { ok: false; reason: string };

interface Walk {
  ids: string[]; // leaf first
  cycleAt?: string;
  missingParent?: { child: string; parent: string };
}

function nodeOf(mapping: JsonObject, id: string): JsonObject | undefined {
  const node = mapping[id];
  return isObject(node) ? node : undefined;
}

function parentOf(node: JsonObject): string | null {
  const parent = node.parent;
  return typeof parent === 'string' && parent !== '' ? parent : null;
}

function walkUp(mapping: JsonObject, leaf: string): Walk {
  const ids: string[] = [];
  const seen = new Set<string>();
  let id: string | null = leaf;
  while (id !== null) {
    if (seen.has(id)) return { ids, cycleAt: id };
    const node = nodeOf(mapping, id);
    if (!node) {
      const child = ids[ids.length - 1];
      return child === undefined ? { ids } : { ids, missingParent: { child, parent: id } };
    }
    seen.add(id);
    ids.push(id);
    id = parentOf(node);
  }
  return { ids };
}

function createTime(node: JsonObject | undefined): number | null {
  const message = node?.message;
  if (!isObject(message)) return null;
  const t = message.create_time;
  return typeof t === 'number' && Number.isFinite(t) ? t : null;
}

/** Nodes none of whose children exist in the mapping. */
function leaves(mapping: JsonObject): string[] {
  return Object.keys(mapping).filter((id) => {
    const children = nodeOf(mapping, id)?.children;
    return !Array.isArray(children) || !children.some((c) => typeof c === 'string' && nodeOf(mapping, c));
  });
}

/** The latest message time on the path ending at `leaf` (the leaf's own, else its nearest timed ancestor). */
function latestTime(mapping: JsonObject, leaf: string): number | null {
  for (const id of walkUp(mapping, leaf).ids) {
    const t = createTime(nodeOf(mapping, id));
    if (t !== null) return t;
  }
  return null;
}

/**
 * Without a usable `current_node`, the most recently created branch is the best guess, but only when it is
 * unambiguous: a single leaf, or one leaf strictly newer than all others.
 */
function guessLeaf(mapping: JsonObject): { leaf: string } | { reason: string } {
  const candidates = leaves(mapping).map((id) => ({ id, time: latestTime(mapping, id) }));
  if (candidates.length === 0) return { reason: 'its message tree has no end node' };
  if (candidates.length === 1) return { leaf: (candidates[0] as { id: string }).id };
  const timed = candidates.filter((c): c is { id: string; time: number } => c.time !== null);
  timed.sort((a, b) => b.time - a.time);
  const [first, second] = timed;
  if (first && (second === undefined || first.time > second.time)) return { leaf: first.id };
  return { reason: `it has ${candidates.length} branches and none is clearly the latest` };
}

export function activePath(opts: { mapping: JsonObject; currentNode: unknown; ref: string }): ActivePath {
  const { mapping, currentNode, ref } = opts;
  const warnings: string[] = [];
  let leaf: string;
  if (typeof currentNode === 'string' && nodeOf(mapping, currentNode)) {
    leaf = currentNode;
  } else {
    const problem =
      typeof currentNode === 'string' && currentNode !== ''
        ? `its current_node ${currentNode} is not in the message tree`
        : 'it has no current_node';
    const guess = guessLeaf(mapping);
    if ('reason' in guess) {
      return { ok: false, reason: `${ref} cannot be linearized: ${problem} and ${guess.reason}; skipped.` };
    }
    leaf = guess.leaf;
    warnings.push(`${ref}: ${problem}; the most recent branch (ending at node ${leaf}) was imported instead.`);
  }
  const walk = walkUp(mapping, leaf);
  if (walk.cycleAt !== undefined) {
    return { ok: false, reason: `${ref} has a cycle in its message tree at node ${walk.cycleAt}; skipped.` };
  }
  if (walk.missingParent) {
    warnings.push(
      `${ref}: node ${walk.missingParent.child} points to a parent ${walk.missingParent.parent} that is not in the export; the messages before it are missing and were not imported.`,
    );
  }
  const nodes = walk.ids.reverse().map((id) => ({ id, message: nodeOf(mapping, id)?.message }));
  return { ok: true, nodes, warnings };
}
