import { describe, expect, it } from '@jest/globals';
import { openJsonInWorker } from './json-worker.js';

/** The whole body, from its top level and its slices put back together. */
async function parseJsonInWorker(bytes: Buffer): Promise<unknown> {
  const { head, slices } = await openJsonInWorker(bytes);
  for await (const { part, items } of slices) {
    (head as Record<string, unknown[]>)[part].push(...items);
  }
  return head;
}

const parse = (value: unknown) => parseJsonInWorker(Buffer.from(JSON.stringify(value)));

describe('openJsonInWorker', () => {
  it('gives back long arrays whole and in order, however many messages they take', async () => {
    const body = {
      options: { mode: 'merge', source: 'scan' },
      assets: Array.from({ length: 4_001 }, (_, i) => ({ id: `a-${i}`, vulnerabilities: [{ i }] })),
      relations: Array.from({ length: 2_000 }, (_, i) => ({ sourceAssetId: `a-${i}` })),
      extra: [1, 2],
    };
    await expect(parse(body)).resolves.toEqual(body);
  });

  it('gives back empty arrays, a lone part, and values that are not objects', async () => {
    await expect(parse({ assets: [], relations: [] })).resolves.toEqual({
      assets: [],
      relations: [],
    });
    await expect(parse({ relations: [{ type: 'x' }] })).resolves.toEqual({
      relations: [{ type: 'x' }],
    });
    await expect(parse({ assets: 'many' })).resolves.toEqual({ assets: 'many' });
    await expect(parse('text')).resolves.toBe('text');
    await expect(parse(null)).resolves.toBeNull();
    // A top-level array is refused by the validator anyway; its items are not worth sending.
    await expect(parse([1, 2, 3])).resolves.toEqual([]);
  });

  it('keeps "__proto__" an own key, as JSON.parse leaves it, for the validator to refuse', async () => {
    const parsed = (await parseJsonInWorker(
      Buffer.from('{"__proto__": {"admin": true}, "assets": [{"__proto__": {"x": 1}}]}'),
    )) as Record<string, unknown>;
    // An ordinary object again (Jest's own realm has another Object.prototype to compare with).
    expect(typeof parsed.hasOwnProperty).toBe('function');
    expect(Object.keys(parsed)).toEqual(['__proto__', 'assets']);
    expect(Object.keys((parsed.assets as object[])[0])).toEqual(['__proto__']);
    expect((parsed as { admin?: unknown }).admin).toBeUndefined();
  });

  it('reads UTF-8, with or without a byte order mark, from a buffer cut from a shared pool', async () => {
    const text = '{"assets": [{"name": "caf\u00e9 \u{1f600}"}]}';
    const pooled = Buffer.from(text);
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.byteLength);
    await expect(parseJsonInWorker(pooled)).resolves.toEqual(JSON.parse(text));
    expect(pooled.toString()).toBe(text);
    await expect(
      parseJsonInWorker(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])),
    ).resolves.toEqual(JSON.parse(text));
  });

  it('cuts slices between whole characters and strings, whatever bytes they hold', async () => {
    // The scanner reads bytes: many-byte characters and escaped quotes on every slice.
    const names = ['caf\u00e9', '\u{1f600} "quoted" \\', '\u00fcber\\', '\u2713 ]},{'];
    const body = {
      assets: Array.from({ length: 3_000 }, (_, i) => ({ name: names[i % names.length], i })),
      relations: Array.from({ length: 1_500 }, (_, i) => ({ type: names[(i + 1) % 4] })),
    };
    await expect(parse(body)).resolves.toEqual(body);
  });

  it('rejects malformed JSON with the error of Fastify’s own parser', async () => {
    await expect(
      parseJsonInWorker(Buffer.from('{"assets": [{"name": "x"},')),
    ).rejects.toMatchObject({ code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 });
  });

  it('reads what JSON.parse reads: escapes, brackets and quotes in strings, any spacing', async () => {
    const texts = [
      '{"assets":[{"name":"a\\"]},[{"},{"name":"\\\\"},{"name":"\\\\\\""}],"relations":[ ]}',
      '{ "options" : { "mode" : "merge" } ,\n\t"assets" : [ 1 , -2.5e3 , true , null , "x" , [ ] , { } ]\r\n}',
      '{"\\u0061ssets": [{"id": "escaped key"}], "relations": []}',
      '{"assets": [], "relations": [{"type": "\\u005d\\u002c"}]}',
      '{}',
    ];
    for (const text of texts) {
      await expect(parseJsonInWorker(Buffer.from(text))).resolves.toEqual(JSON.parse(text));
    }
  });

  it('keeps the last of a key given twice, as JSON.parse does', async () => {
    const text = '{"assets": [{"id": "first"}], "assets": [{"id": "second"}], "relations": 5}';
    await expect(parseJsonInWorker(Buffer.from(text))).resolves.toEqual(JSON.parse(text));
  });

  it('rejects malformed JSON inside an item, or between items, like any other', async () => {
    for (const text of [
      '{"assets": [{"name": tru}]}',
      '{"assets": [{"name": "x"},]}',
      '{"assets": [,{"name": "x"}]}',
      '{"assets": [{"name": "x"} {"name": "y"}]}',
      '{"assets": [{"name": "x"}]] }',
      '{"assets": [{"name": "x"}]} extra',
      '{"assets": [{"name": "x\u0001"}]}',
      `{"assets": [${'{"id": "a"},'.repeat(2_500)}{"id": 01}]}`,
    ]) {
      await expect(parseJsonInWorker(Buffer.from(text))).rejects.toMatchObject({
        code: 'FST_ERR_CTP_INVALID_JSON_BODY',
      });
    }
  });

  it('hands the long arrays over in slices, in order, and stops when told to', async () => {
    const body = {
      assets: Array.from({ length: 4_500 }, (_, i) => ({ id: `a-${i}` })),
      relations: [{ type: 'r' }],
    };
    const parsed = await openJsonInWorker(Buffer.from(JSON.stringify(body)));
    expect(parsed.head).toEqual({ assets: [], relations: [] });
    const slices: [string, number][] = [];
    for await (const { part, items } of parsed.slices) slices.push([part, items.length]);
    expect(slices).toEqual([
      ['assets', 2_000],
      ['assets', 2_000],
      ['assets', 500],
      ['relations', 1],
    ]);

    // Left early, or never read: the worker stops either way (Jest would report it left open).
    const early = await openJsonInWorker(Buffer.from(JSON.stringify(body)));
    for await (const slice of early.slices) {
      expect(slice.items).toHaveLength(2_000);
      break;
    }
    const unread = await openJsonInWorker(Buffer.from(JSON.stringify(body)));
    await Promise.all([unread.close(), unread.close()]);
  });
});
