/**
 * Renders compiled tries as text trees for `scopegate check --routes`: one tree per method,
 * children in lookup order (literals, then `*`, then `**`). Pure: returns a string.
 */
import { formatOrigin, type CompiledPolicy, type RouteEntry } from './compile.js';
import type { TrieNode } from './trie.js';

function label(entry: RouteEntry): string {
  const scopes =
    entry.required.length === 0 ? '(no scopes)' : entry.required.map((r) => r.raw).join(', ');
  return `  → ${scopes}  (${formatOrigin(entry.origin)})`;
}

/** Renders every method's trie, methods in alphabetical order. */
export function printRoutes(policy: CompiledPolicy): string {
  const out: string[] = [];
  for (const method of [...policy.routes.keys()].sort()) {
    const trie = policy.routes.get(method) as { root: TrieNode<RouteEntry> };
    out.push(method + (trie.root.value ? label(trie.root.value) : ''));
    printChildren(trie.root, '', out);
  }
  return out.join('\n') + '\n';
}

function printChildren(node: TrieNode<RouteEntry>, indent: string, out: string[]): void {
  const children: Array<[string, TrieNode<RouteEntry> | null, RouteEntry | undefined]> = [];
  if (node.literals)
    for (const name of [...node.literals.keys()].sort()) {
      const child = node.literals.get(name) as TrieNode<RouteEntry>;
      children.push([`/${name}`, child, child.value]);
    }
  if (node.param) children.push(['/*', node.param, node.param.value]);
  if (node.glob) children.push(['/**', null, node.glob]);
  children.forEach(([name, child, entry], i) => {
    const last = i === children.length - 1;
    out.push(`${indent}${last ? '└── ' : '├── '}${name}${entry ? label(entry) : ''}`);
    if (child) printChildren(child, indent + (last ? '    ' : '│   '), out);
  });
}
