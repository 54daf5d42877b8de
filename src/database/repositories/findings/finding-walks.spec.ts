import { describe, expect, it } from '@jest/globals';
import { EXPIRED, orderedWalks, storedStatuses } from './finding-walks.js';

describe('storedStatuses', () => {
  it('is each status asked, once, when no acceptance has expired', () => {
    expect(storedStatuses(['open', 'fixed', 'open'], true)).toEqual([
      { status: 'open' },
      { status: 'fixed' },
    ]);
  });

  it('adds the expired acceptances to open, and keeps them from accepted', () => {
    expect(storedStatuses(['open'], false)).toEqual([
      { status: 'open' },
      { status: 'accepted', also: EXPIRED },
    ]);
    expect(storedStatuses(['accepted', 'fixed'], false)).toEqual([
      { status: 'accepted', also: `NOT ${EXPIRED}` },
      { status: 'fixed' },
    ]);
    expect(storedStatuses(['open', 'accepted'], false)).toEqual([
      { status: 'open' },
      { status: 'accepted' },
    ]);
  });
});

describe('orderedWalks', () => {
  it('walks each status and severity asked, by score, the rest of the filters shared', () => {
    expect(
      orderedWalks(
        { statuses: ['open'], severities: ['critical', 'high'], site: 'paris' },
        'score',
        true,
      ),
    ).toEqual({
      rest: { statuses: undefined, severities: undefined, site: 'paris' },
      walks: [
        {
          condition: 'status = :walkStatus0 AND severity = :walkSeverity0',
          parameters: { walkStatus0: 'open', walkSeverity0: 'critical' },
        },
        {
          condition: 'status = :walkStatus1 AND severity = :walkSeverity1',
          parameters: { walkStatus1: 'open', walkSeverity1: 'high' },
        },
      ],
    });
  });

  it('walks the expired acceptances apart from the open findings', () => {
    expect(
      orderedWalks({ statuses: ['open'], severities: ['critical'] }, 'score', false)?.walks,
    ).toEqual([
      {
        condition: 'status = :walkStatus0 AND severity = :walkSeverity0',
        parameters: { walkStatus0: 'open', walkSeverity0: 'critical' },
      },
      {
        condition: `status = :walkStatus1 AND ${EXPIRED} AND severity = :walkSeverity1`,
        parameters: { walkStatus1: 'accepted', walkSeverity1: 'critical' },
      },
    ]);
  });

  it('walks statuses alone by fixedAt, whose index leads with the status only', () => {
    expect(
      orderedWalks(
        { statuses: ['fixed', 'false_positive'], severities: ['high'] },
        'fixedAt',
        true,
      ),
    ).toEqual({
      rest: { statuses: undefined, severities: ['high'] },
      walks: [
        { condition: 'status = :walkStatus0', parameters: { walkStatus0: 'fixed' } },
        { condition: 'status = :walkStatus1', parameters: { walkStatus1: 'false_positive' } },
      ],
    });
  });

  it('is null for one walk, for a column of the index not filtered, or an order no index holds', () => {
    expect(orderedWalks({ statuses: ['open'], severities: ['critical'] }, 'score', true)).toBe(
      null,
    );
    expect(orderedWalks({ statuses: ['open'], severities: ['high', 'high'] }, 'score', true)).toBe(
      null,
    );
    expect(orderedWalks({ severities: ['critical', 'high'] }, 'score', true)).toBe(null);
    expect(orderedWalks({ statuses: ['open', 'fixed'] }, 'score', true)).toBe(null);
    expect(orderedWalks({ statuses: ['fixed'] }, 'fixedAt', true)).toBe(null);
    expect(
      orderedWalks({ statuses: ['open', 'fixed'], severities: ['critical'] }, 'firstSeenAt', true),
    ).toBe(null);
  });
});
