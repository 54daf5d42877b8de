import { describe, expect, it } from '@jest/globals';
import { PageQueryDto } from '../dto/page-query.dto.js';
import { createValidationPipe } from './validation.pipe.js';

// The same rules as PageQueryDto's, but not PageQueryDto itself: it inherits PageQueryDto's
// quickCheck, which the pipe does not use for it, so it always gets the full validation.
class FullyValidatedPageQuery extends PageQueryDto {}

const pipe = createValidationPipe();

/** The pipe's answer for `query` as a query of type `metatype`: its fields, or its message. */
async function answer(query: object, metatype: typeof PageQueryDto) {
  try {
    const page = (await pipe.transform(query, { type: 'query', metatype })) as PageQueryDto;
    return { limit: page.limit, offset: page.offset, type: page.constructor.name };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const ownProto = JSON.parse('{"__proto__": "1"}') as object;

describe('validation pipe, a bare paging query', () => {
  it.each([
    ['none', {}],
    ['a limit', { limit: '5' }],
    ['an offset', { offset: '7' }],
    ['both at their maximum', { limit: '1000', offset: '2147483647' }],
    ['leading zeros', { limit: '007', offset: '000' }],
    ['limit 0', { limit: '0' }],
    ['limit 1001', { limit: '1001' }],
    ['offset past its maximum', { offset: '2147483648' }],
    ['a huge number', { limit: '99999999999999999999' }],
    ['an empty value', { limit: '' }],
    ['an exponent', { limit: '1e1' }],
    ['a space', { limit: ' 5' }],
    ['a sign', { offset: '-1' }],
    ['a decimal', { limit: '5.0' }],
    ['a repeated parameter', { limit: ['1', '2'] }],
    ['an unknown key', { limit: '5', sort: 'name' }],
    ['a numeric key', { sort: 'x', 0: '1', limit: 'x' }],
    ['a prototype key', ownProto],
    ['constructor', { constructor: '1' }],
  ])('answers %s as the full validation does', async (_name, query) => {
    const { type, ...full } = await answer(query, FullyValidatedPageQuery);
    const { type: quickType, ...quick } = await answer(query, PageQueryDto);
    expect(quick).toEqual(full);
    if (!('error' in full)) {
      expect(type).toBe('FullyValidatedPageQuery');
      expect(quickType).toBe('PageQueryDto');
    }
  });

  it('gives valid ones as a PageQueryDto with the defaults filled in', async () => {
    expect(await answer({ offset: '3' }, PageQueryDto)).toEqual({
      limit: 100,
      offset: 3,
      type: 'PageQueryDto',
    });
  });
});

describe('validation pipe, a repeated query parameter', () => {
  it.each([
    ['limit', { limit: ['1', '2'] }, 'limit must be given once'],
    ['offset after a valid limit', { limit: '5', offset: ['0', '0'] }, 'offset must be given once'],
  ])('refuses %s by its name', async (_name, query, message) => {
    expect(await answer(query, PageQueryDto)).toEqual({ error: message });
    expect(await answer(query, FullyValidatedPageQuery)).toEqual({ error: message });
  });

  it('names an unknown one as unknown', async () => {
    expect(await answer({ sort: ['a', 'b'] }, PageQueryDto)).toEqual({
      error: 'sort is not an accepted property',
    });
  });

  it('leaves a value that is not a query to the other rules', async () => {
    const body = pipe.transform({ limit: ['1', '2'] }, { type: 'body', metatype: PageQueryDto });
    await expect(body).rejects.toThrow('limit must be an integer from 1 to 1000');
  });
});
