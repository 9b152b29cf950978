// What a seeder is: a named step that fills a new store, run for every seed ('fixed') or only the demo tenant.
import type { Rng } from '../rng';
import type { Store } from '../storage/store';

export interface Seeder {
  name: string;
  kind: 'fixed' | 'demo';
  run(store: Store, rng: Rng): Promise<void>;
}
