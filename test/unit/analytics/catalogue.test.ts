// The catalogue against the spec's table and against the emulator's SQL columns: every member has one.
import * as assert from 'node:assert/strict';
import { factDomainNames, joinsOf, membersOf, lookupMember, joinedGroupNames } from '../../../src/core/analytics';
import { columnOf } from '../../../src/emulator/analytics/compile';

describe('analytics catalogue', () => {
  it('has the five domains and their measures', () => {
    assert.deepEqual(factDomainNames, ['Downloads', 'Views', 'ContentEngagement', 'ZeroDownloadRecords', 'ZeroViewRecords']);
    assert.deepEqual(membersOf('ContentEngagement').filter((m) => m.kind === 'measure').map((m) => m.name), [
      'ContentEngagement.downloadsCount',
      'ContentEngagement.impressionsCount',
      'ContentEngagement.viewsCount',
    ]);
  });

  it('follows the spec on joins', () => {
    assert.deepEqual([...joinsOf('ZeroViewRecords')].sort(), ['Classifications', 'RecordMetadata']);
    assert.ok(joinsOf('Views').includes('Collections') && joinsOf('Views').includes('Spaces'));
    assert.ok(!joinsOf('Downloads').includes('Collections') && !joinsOf('ContentEngagement').includes('Spaces'));
  });

  it('keeps the odd names exactly as the spec writes them', () => {
    assert.equal(lookupMember('RecordMetadata.aprimoContentUsage')?.type, 'string');
    assert.equal(lookupMember('DateDimension.fiscalQuarter')?.type, 'string');
    assert.equal(lookupMember('Views.hasNoContext')?.type, 'boolean');
    assert.equal(lookupMember('Downloads.downloadDate')?.type, 'time');
  });

  it('every member of every domain and joined group has an SQL column in the emulator', () => {
    for (const domain of factDomainNames) {
      for (const m of membersOf(domain)) assert.ok(columnOf(domain, m).sql, m.name);
      for (const g of joinsOf(domain)) for (const m of membersOf(g)) assert.ok(columnOf(domain, m).sql, `${domain} → ${m.name}`);
    }
    assert.equal(joinedGroupNames.length, 14);
  });
});
