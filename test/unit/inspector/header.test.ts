// The Dam-Emulator-Findings header: a structured-field list that stays ASCII and bounded, and reads back.
import { strict as assert } from 'node:assert';
import { encodeFindingsHeader, parseFindingsHeader, type Finding } from '../../../src/core/inspector';

describe('Dam-Emulator-Findings header', () => {
  it('is absent without findings', () => assert.equal(encodeFindingsHeader([]), undefined));

  it('round-trips codes, severities and messages with quotes and backslashes', () => {
    const findings: Finding[] = [
      { code: 'DE1003', severity: 'refuse', message: 'The request has no API-Version header.' },
      { code: 'DE6001', severity: 'frown', message: `JSON property 'FileName' matched "filename" \\ case-insensitively` },
    ];
    const value = encodeFindingsHeader(findings)!;
    assert.match(value, /^DE1003;severity=refuse;message="The request has no API-Version header\.", DE6001;severity=frown;message=/);
    assert.deepEqual(parseFindingsHeader(value), findings.map((f) => ({ code: f.code, severity: f.severity, message: f.message })));
  });

  it('carries only printable ASCII', () => {
    const value = encodeFindingsHeader([{ code: 'DE2010', severity: 'refuse', message: 'Statut « Publié »\r\nInjected: yes' }])!;
    assert.match(value, /^[\x20-\x7e]+$/);
    assert.doesNotMatch(value, /\r|\n/);
  });

  it('spells arrows, quotes and accents in ASCII instead of question marks', () => {
    const value = encodeFindingsHeader([{ code: 'DE6001', severity: 'frown', message: 'FileName \u2192 filename: \u2018Publi\u00e9\u2019 \u2265 1\u2026' }])!;
    assert.equal(parseFindingsHeader(value)[0].message, "FileName -> filename: 'Publie' >= 1...");
  });

  it('stays under its bound: messages go first, then items, counted in a last "more" item', () => {
    const many: Finding[] = Array.from({ length: 300 }, (_, i) => ({ code: `DE2${String(i % 1000).padStart(3, '0')}`, severity: 'frown', message: 'x'.repeat(150) }));
    const value = encodeFindingsHeader(many, 2048)!;
    assert.ok(value.length <= 2048, `length ${value.length}`);
    const parsed = parseFindingsHeader(value);
    const more = parsed[parsed.length - 1];
    assert.equal(more.code, 'more');
    assert.ok(parsed.length > 10);
    assert.ok(parsed.every((p) => p.message === undefined));
    const few = encodeFindingsHeader(many.slice(0, 3), 2048)!;
    assert.equal(parseFindingsHeader(few).length, 3);
  });
});
