// Demo checks: three checks an integrator might run, with results (and findings where they pinpoint something)
// on the newest versions of some demo files, so the explorer's badges and findings have something to show.
import type { Seeder } from './seeder';
import { CHECK_CATEGORIES } from './fixed';
import { CHECK_ACTION_TYPE_ID } from '../../core/contract';

type Outcome = 'pass' | 'fail' | 'warning' | 'info';

const CHECKS = [
  { name: 'Brand logo usage', category: 'Brand Consistency' },
  { name: 'Claims and disclaimers', category: 'Risk & Compliance' },
  { name: 'Alt text and captions', category: 'Channel Readiness' },
];

const FINDINGS: { finding: string; outcome: Outcome; explanation: string; recommendation: string }[] = [
  { finding: 'Logo', outcome: 'fail', explanation: 'The logo is smaller than the **minimum size** of 48 px.', recommendation: 'Use the large logo from the brand kit.' },
  { finding: 'best in class', outcome: 'warning', explanation: 'A comparative claim needs evidence.', recommendation: 'Add a footnote citing the source.' },
  { finding: 'Colour', outcome: 'pass', explanation: 'The palette matches the brand colours.', recommendation: 'No change needed.' },
  { finding: 'Caption', outcome: 'info', explanation: 'Captions help screen-reader users.', recommendation: 'Consider adding one.' },
];

export const demoChecksSeeder: Seeder = {
  name: 'demo-checks',
  kind: 'demo',
  async run(store, rng) {
    const versions = await store.query<{ id: string; record_id: string }>(
      `SELECT DISTINCT ON (record_id) id, record_id FROM file_versions ORDER BY record_id, version_number DESC`,
    );
    if (!versions.length) return;
    const checkIds: string[] = [];
    for (const c of CHECKS) {
      const id = rng.guid();
      const category = CHECK_CATEGORIES.find((k) => k.name === c.category)!.id;
      await store.query('INSERT INTO checks (id, name, action_type_id, check_category_id) VALUES ($1, $2, $3, $4)', [id, c.name, CHECK_ACTION_TYPE_ID, category]);
      checkIds.push(id);
    }
    // Every third version gets a result per check: some with findings (outcome null, so the rollup decides), some plain.
    for (const [i, v] of versions.entries()) {
      if (i % 3) continue;
      for (const checkId of checkIds) {
        const resultId = rng.guid();
        const findings = rng.next() < 0.5 ? FINDINGS.filter(() => rng.next() < 0.5) : [];
        const outcome: Outcome | null = findings.length ? null : rng.pick<Outcome>(['pass', 'pass', 'info', 'warning']);
        await store.query(
          `INSERT INTO check_results (id, file_version_id, check_id, record_id, outcome, description) VALUES ($1, $2, $3, $4, $5, $6)`,
          [resultId, v.id, checkId, v.record_id, outcome, findings.length ? `${findings.length} item(s) to review.` : outcome === 'info' ? 'See the [guidelines](https://example.com/guidelines).' : 'Checked automatically.'],
        );
        for (const [n, f] of findings.entries()) {
          await store.query(
            `INSERT INTO check_findings (result_id, occurrence, id, finding, explanation, recommendation, outcome) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
            [resultId, n + 1, rng.guid(), f.finding, f.explanation, f.recommendation, f.outcome],
          );
        }
      }
    }
  },
};
