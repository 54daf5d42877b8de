/** Keys that reach an object's prototype rather than naming a property of its own. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

/**
 * The path (`assets[0].constructor`) of the first own key of a parsed body or query that
 * names a prototype, or null. Walked with a stack of its own: a body may nest deeper than the
 * call stack goes.
 */
export function prototypeKeyPath(value: unknown): string | null {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    // Bytes (an ingestion body left unparsed) have no keys to look at.
    if (current === null || typeof current !== 'object' || ArrayBuffer.isView(current)) continue;
    if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, path: `${path}[${index}]` }));
      continue;
    }
    for (const key of Object.keys(current)) {
      const keyPath = path ? `${path}.${key}` : key;
      if (PROTOTYPE_KEYS.includes(key)) return keyPath;
      stack.push({ value: (current as Record<string, unknown>)[key], path: keyPath });
    }
  }
  return null;
}
