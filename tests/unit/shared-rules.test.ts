import { describe, expect, it } from 'vitest';
import { versionTagOf } from '../../src/engine/data/entity-queries.js';
import { etagOf, ifMatchSatisfied } from '../../src/server/operations/etag.js';
import { parseRecordId } from '../../src/shared/record-id.js';
import { ifMatchNames, versionTag } from '../../src/shared/record-version.js';
import { containsPattern, likeLiteral, uniqueViolationField } from '../../src/shared/sql-text.js';

describe('rules the browser and the server share', () => {
  it('reads a record id the same way on both sides: plain positive integers only', () => {
    expect(parseRecordId('7')).toBe(7);
    expect(parseRecordId(7)).toBe(7);
    expect(parseRecordId('2147483647')).toBe(2147483647);
    for (const raw of ['07', '0', '-1', '+7', '7.0', ' 7', '1e3', '2147483648', '', undefined, null, 7.5]) expect(parseRecordId(raw)).toBeNull();
  });

  it('writes one ETag format, sent by the server and sent back by the browser', () => {
    const record = { id: 7, updated_at: '2025-01-02T03:04:05.006Z' };
    expect(versionTag(record)).toBe('W/"7-1735787045006"');
    expect(versionTag({ ...record, updated_at: new Date(record.updated_at) })).toBe('W/"7-1735787045006"');
    expect(versionTagOf(record)).toBe(etagOf(record));
    expect(versionTag({ id: 7 })).toBeUndefined();
    expect(ifMatchSatisfied(versionTagOf(record)!, record)).toBe(true);
    expect(ifMatchSatisfied('"7-1735787045006"', record)).toBe(true);
    expect(ifMatchSatisfied('W/"7-1", *', record)).toBe(true);
    expect(ifMatchNames('W/"7-1"', versionTag(record))).toBe(false);
  });

  it('escapes LIKE wildcards and reads the field of a unique violation', () => {
    expect(likeLiteral('a_b%c\\d')).toBe('a\\_b\\%c\\\\d');
    expect(containsPattern('50%')).toBe('%50\\%%');
    expect(uniqueViolationField('Key (email)=(a@b.co) already exists.')).toBe('email');
    expect(uniqueViolationField('Key (lower(email))=(a@b.co) already exists.')).toBe('email');
    expect(uniqueViolationField('Key (lower(email::text))=(a@b.co) already exists.')).toBe('email');
    expect(uniqueViolationField('Key (exam_id, contest_id)=(1, 2) already exists.')).toBe('exam_id');
    expect(uniqueViolationField(undefined)).toBe('');
  });
});
