import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { PartialType } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { isIP } from 'node:net';
import { describeValidationErrors } from '../pipes/validation.pipe.js';
import {
  checkField,
  fieldProblem,
  fieldSchema,
  optionalTextRule,
  textRule,
  type FieldRule,
} from './field-rule.js';
import { Field } from './field.decorator.js';
import {
  ASSET_FIELD_RULES,
  ASSET_ID_RULE,
  RELATION_FIELDS,
  VULNERABILITY_FIELDS,
} from './inventory-fields.js';

describe('fieldProblem', () => {
  const cases: [string, FieldRule, unknown[], [unknown, string][]][] = [
    [
      'a required text',
      ASSET_FIELD_RULES.name,
      ['a', 'n'.repeat(255), 'é🙂'],
      [
        [null, 'must be a string'],
        [42, 'must be a string'],
        ['', 'must be 1 to 255 characters long'],
        ['n'.repeat(256), 'must be 1 to 255 characters long'],
        ['a\0b', 'must not contain NUL characters'],
        ['a\ud800b', 'must not contain lone UTF-16 surrogates'],
        ['\udc00', 'must not contain lone UTF-16 surrogates'],
      ],
    ],
    [
      'a nullable text',
      ASSET_FIELD_RULES.type,
      [null, '', 't'.repeat(64)],
      [
        ['t'.repeat(65), 'must be at most 64 characters long'],
        [1, 'must be a string'],
      ],
    ],
    [
      'a printable id',
      ASSET_ID_RULE,
      ['fw-1', 'é', 'x'.repeat(200)],
      [
        ['a\nb', 'must hold printable characters only'],
        ['a\ud800', 'must hold printable characters only'],
        ['x'.repeat(201), 'must be 1 to 200 characters long'],
        [null, 'must be a string'],
      ],
    ],
    [
      'an ip',
      ASSET_FIELD_RULES.ip,
      [null, '10.0.0.1', '2001:db8::1', 'fe80::1%eth0'],
      [
        ['10.0.0.256', 'must be an IP address'],
        ['router.local', 'must be an IP address'],
        [`fe80::1%${'z'.repeat(60)}`, 'must be an IP address'],
        [167772161, 'must be an IP address'],
      ],
    ],
    [
      'a port list',
      RELATION_FIELDS.toPorts,
      [null, '443', '22,80,8000-8080', '1-65535'],
      [
        ['0', 'must be comma-separated ports or port ranges from 1 to 65535'],
        ['80-', 'must be comma-separated ports or port ranges from 1 to 65535'],
        ['70000', 'must be comma-separated ports or port ranges from 1 to 65535'],
        ['90-80', 'must be comma-separated ports or port ranges from 1 to 65535'],
        ['080', 'must be comma-separated ports or port ranges from 1 to 65535'],
        ['80, 443', 'must be comma-separated ports or port ranges from 1 to 65535'],
        [`${'1,'.repeat(500)}1`, 'must be comma-separated ports or port ranges from 1 to 65535'],
        [443, 'must be comma-separated ports or port ranges from 1 to 65535'],
      ],
    ],
    [
      'an integer range',
      ASSET_FIELD_RULES.risk_score,
      [null, 0, 100, 40],
      [
        [101, 'must be an integer from 0 to 100'],
        [-1, 'must be an integer from 0 to 100'],
        [1.5, 'must be an integer from 0 to 100'],
        ['5', 'must be an integer from 0 to 100'],
        [1e308, 'must be an integer from 0 to 100'],
      ],
    ],
    [
      'a number range',
      VULNERABILITY_FIELDS.score,
      [null, 0, 10, 7.5],
      [
        [10.01, 'must be from 0 to 10'],
        [-0.1, 'must be from 0 to 10'],
        [Number.NaN, 'must be a number'],
        [Infinity, 'must be a number'],
        ['7', 'must be a number'],
      ],
    ],
    [
      'a date',
      VULNERABILITY_FIELDS.publishedDate,
      [null, '2024-04-12', '2024-02-29', '2000-02-29'],
      [
        ['2023-02-29', 'must be a date as YYYY-MM-DD'],
        ['1900-02-29', 'must be a date as YYYY-MM-DD'],
        ['2024-13-01', 'must be a date as YYYY-MM-DD'],
        ['2024-04-31', 'must be a date as YYYY-MM-DD'],
        ['2024-4-1', 'must be a date as YYYY-MM-DD'],
        ['2024-04-12T00:00:00Z', 'must be a date as YYYY-MM-DD'],
        [20240412, 'must be a date as YYYY-MM-DD'],
      ],
    ],
    [
      'an enum',
      RELATION_FIELDS.direction,
      ['bi', 'mono'],
      [
        [null, 'must be bi or mono'],
        ['BI', 'must be bi or mono'],
        ['', 'must be bi or mono'],
      ],
    ],
  ];

  describe.each(cases)('of %s', (_name, rule, good, bad) => {
    it.each(good.map((value) => [value]))('accepts %p', (value) => {
      expect(fieldProblem(rule, value)).toBeNull();
    });
    it.each(bad)('refuses %p: %s', (value, problem) => {
      expect(fieldProblem(rule, value)).toBe(problem);
    });
  });

  it('names the field by its path in checkField, and returns the value when accepted', () => {
    expect(checkField(ASSET_FIELD_RULES.ip, '10.0.0.1', 'assets[3]', 'ip')).toBe('10.0.0.1');
    expect(() => checkField(ASSET_FIELD_RULES.ip, 'x', 'assets[3]', 'ip')).toThrow(
      'assets[3].ip must be an IP address',
    );
  });
});

describe('fieldSchema', () => {
  it('documents each kind with the limits that are checked', () => {
    expect(fieldSchema(ASSET_FIELD_RULES.name)).toEqual({
      type: String,
      minLength: 1,
      maxLength: 255,
      example: 'core-switch',
    });
    expect(fieldSchema(optionalTextRule(32))).toEqual({
      type: String,
      maxLength: 32,
      nullable: true,
    });
    expect(fieldSchema(ASSET_FIELD_RULES.risk_score)).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 100,
      nullable: true,
    });
    expect(fieldSchema(VULNERABILITY_FIELDS.publishedDate)).toMatchObject({ format: 'date' });
    expect(fieldSchema(RELATION_FIELDS.direction)).toMatchObject({
      enum: ['bi', 'mono'],
      enumName: 'RelationDirection',
    });
  });

  it('gives the ip a pattern that accepts exactly what isIP accepts', () => {
    // As a JSON Schema validator compiles it (ajv: with the u flag).
    const pattern = new RegExp(fieldSchema(ASSET_FIELD_RULES.ip).pattern as string, 'u');
    const pieces = ['1', '0', '01', '255', '256', 'ffff', 'FFFF', 'g', '12345', ':', '::', '.'];
    const zones = ['', '%eth0', '%1', '%', '%a b', '%a-b.c:d'];
    const values = [
      ...['10.0.0.1', '0.0.0.0', '255.255.255.255', '256.0.0.1', '1.2.3.04', '1.2.3', '1.2.3.4.'],
      ...['::ffff:10.0.0.1', '1::1.2.3.4', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', '1::2::3'],
      ...['[::1]', ' ::1', '::1 ', 'fe80::1%eth0'],
    ];
    // Every spelling of up to four pieces and a zone: addresses, near misses and junk.
    const spell = (prefix: string, left: number): void => {
      for (const zone of zones) values.push(prefix + zone);
      if (left > 0) for (const piece of pieces) spell(prefix + piece, left - 1);
    };
    spell('', 4);
    const disagreements = values.filter((value) => pattern.test(value) !== (isIP(value) !== 0));
    expect(disagreements).toEqual([]);
    expect(
      values.filter((value) => isIP(value) === 6 && value.includes('%')).length,
    ).toBeGreaterThan(10);
  });

  it('gives the port list a pattern that matches what the check accepts, not the spelling it refuses', () => {
    const pattern = new RegExp(fieldSchema(RELATION_FIELDS.toPorts).pattern as string);
    for (const value of ['443', '22,80,8000-8080']) expect(pattern.test(value)).toBe(true);
    for (const value of ['080', '80, 443', '80-', '']) expect(pattern.test(value)).toBe(false);
  });
});

describe('Field', () => {
  class CreateThing {
    @Field(textRule(1, 10))
    name: string;

    @Field(RELATION_FIELDS.direction, { required: false })
    direction?: string;

    @Field(ASSET_FIELD_RULES.ip)
    ip?: string | null;
  }
  class UpdateThing extends PartialType(CreateThing, { skipNullProperties: false }) {}

  const problems = (type: new () => object, body: object) =>
    describeValidationErrors(validateSync(plainToInstance(type, body), { stopAtFirstError: true }));

  it('checks a DTO with the ingestion messages', () => {
    expect(problems(CreateThing, { name: 'ok' })).toEqual([]);
    expect(problems(CreateThing, { name: 'x'.repeat(11), direction: 'up', ip: 'nope' })).toEqual([
      'name must be 1 to 10 characters long',
      'direction must be bi or mono',
      'ip must be an IP address',
    ]);
  });

  it('requires a non-nullable field unless told otherwise, and lets a nullable one be null', () => {
    expect(problems(CreateThing, {})).toEqual(['name must be a string']);
    expect(problems(CreateThing, { name: 'ok', ip: null })).toEqual([]);
    expect(problems(CreateThing, { name: 'ok', direction: null })).toEqual([
      'direction must be bi or mono',
    ]);
  });

  it('makes an update DTO where any field may be left out but a required one not nulled', () => {
    expect(problems(UpdateThing, {})).toEqual([]);
    expect(problems(UpdateThing, { ip: null })).toEqual([]);
    expect(problems(UpdateThing, { name: null, direction: null })).toEqual([
      'name must be a string',
      'direction must be bi or mono',
    ]);
    expect(problems(UpdateThing, { name: '' })).toEqual(['name must be 1 to 10 characters long']);
  });
});
