// The record document's version model (STYLE.md principle 15), one transition at a time: what a stat answers (with or
// without asking the tenant), which read moves the base, and how a save's re-read and reload go off the critical path.
import { strict as assert } from 'node:assert';
import { RecordVersionModel, type Version } from '../../../src/extension/records/recordVersions';

/** A version as the document model serves it: modifiedOn at `minute`, text of `text`. */
function v(minute: number, text: string): Version {
  const modifiedOn = new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
  return { modifiedOn, text, mtime: Date.parse(modifiedOn), size: text.length };
}

const always = () => true;

describe('record document versions', () => {
  it('open: the read for the editor is base and tenant; a stat at that modifiedOn reports it', () => {
    const m = new RecordVersionModel<Version>();
    const read = v(1, 'one');
    m.opened(read);
    assert.equal(m.known, false, 'a stat before the editor read asks nothing of its own');
    m.served(read, false);
    assert.equal(m.base, read);
    assert.equal(m.tenant, read);
    assert.equal(m.statWithoutRequest(always), undefined, 'a stat (the conflict check) asks the tenant');
    assert.equal(m.statAt(read.modifiedOn), read);
    assert.equal(m.statAt(v(2, 'x').modifiedOn), undefined, 'a newer modifiedOn needs a read');
  });

  it('Compare: a read while the editor is dirty after a newer version was reported leaves the base', () => {
    const m = new RecordVersionModel<Version>();
    const mine = v(1, 'one');
    m.opened(mine);
    m.served(mine, false);
    const theirs = v(2, 'theirs');
    m.read(theirs);
    m.reported(theirs);
    m.served(theirs, true);
    assert.equal(m.base, mine, 'the edits lost the version they were made on');
    assert.equal(m.tenant, theirs);
    assert.equal(m.against(theirs.modifiedOn), theirs, 'Overwrite is computed against the version shown');
    assert.equal(m.against(v(3, '').modifiedOn), undefined, 'a change since is a conflict');
  });

  // The cause of last round's squiggle: VS Code may tell the extension host that a reverted document is clean only
  // after it read the file, so a Revert looked like a Compare and the base stayed behind.
  it('Revert: a read while the extension host still sees the editor dirty moves the base when no conflict was reported', () => {
    const m = new RecordVersionModel<Version>();
    const first = v(1, 'one');
    m.opened(first);
    m.served(first, false);
    m.served(first, true);
    assert.equal(m.base, first);
    const after = v(2, 'two');
    m.read(after);
    m.served(after, true);
    assert.equal(m.base, after);
  });

  it('Revert after a conflict: the text becoming the tenant’s version moves the base', () => {
    const m = new RecordVersionModel<Version>();
    const mine = v(1, 'one');
    m.opened(mine);
    m.served(mine, false);
    const theirs = v(2, 'theirs');
    m.read(theirs);
    m.reported(theirs);
    m.served(theirs, true);
    assert.equal(m.base, mine);
    m.textChanged('theirs');
    assert.equal(m.base, theirs);
  });

  describe('Save', () => {
    function saved() {
      const m = new RecordVersionModel<Version>();
      const read = v(1, 'one');
      m.opened(read);
      m.served(read, false);
      const stat = m.written(m.against(read.modifiedOn)!, 'mine', 4);
      return { m, read, stat };
    }

    it('the stat right after the write is answered from what was written, once, without a request', () => {
      const { m, read, stat } = saved();
      assert.deepEqual(stat, { mtime: read.mtime, size: 4 });
      assert.deepEqual(m.statWithoutRequest(always), stat);
      assert.equal(m.statWithoutRequest(always), undefined);
    });

    it('the editor reloads only once both the re-read answered and VS Code finished its save, in either order', () => {
      for (const order of ['reread first', 'VS Code first']) {
        const { m } = saved();
        const fresh = v(5, 'fresh');
        const savedAt = { ...v(5, 'mine'), size: 4 };
        if (order === 'reread first') {
          assert.equal(m.reread(fresh, savedAt), false, order);
          assert.equal(m.vscodeSaved(), true, order);
        } else {
          assert.equal(m.vscodeSaved(), false, order);
          assert.equal(m.reread(fresh, savedAt), true, order);
        }
        assert.equal(m.base, savedAt, 'until the reload, the text is the saved one at the new version');
        assert.equal(m.tenant, fresh);
      }
    });

    it('the reload: its stat needs no request, and its read sets the base even while the host still sees the editor dirty', () => {
      const { m } = saved();
      m.statWithoutRequest(always);
      const fresh = v(5, 'fresh');
      m.reread(fresh, { ...v(5, 'mine'), size: 4 });
      m.vscodeSaved();
      m.reloadStarted();
      assert.equal(m.statWithoutRequest(always), fresh);
      assert.equal(m.statWithoutRequest(() => false), undefined, 'an old read is not served for a stat');
      m.served(fresh, true);
      assert.equal(m.base, fresh, 'the reload did not set the base');
      assert.equal(m.statWithoutRequest(always), undefined, 'after the reload, stats ask again');
    });

    it('typing on right after a save: the tenant at the version the save made is what VS Code holds, not a conflict', () => {
      const { m, stat } = saved();
      m.statWithoutRequest(always);
      const fresh = v(5, 'fresh');
      m.reread(fresh, { ...v(5, 'mine'), size: 4 });
      m.vscodeSaved();
      // No reload (the editor is dirty): the next save's conflict check finds the version our save made.
      assert.deepEqual(m.statAt(fresh.modifiedOn), stat);
      assert.equal(m.against(fresh.modifiedOn)?.text, 'mine', 'the next save is computed against the text saved');
      assert.equal(m.statAt(v(6, 'other').modifiedOn), undefined, 'a change by someone else since is seen');
    });

    it('a version of the same length as the text VS Code holds reports one byte more', () => {
      const { m } = saved();
      const same = { ...v(1, 'same'), size: 4 };
      assert.equal(m.distinct(same).size, 5);
      const fresh = v(5, 'fresh');
      assert.equal(m.distinct(fresh).size, 5, 'a different length stays');
    });

    it('a failed re-read forgets the tenant: the next stat reads again', () => {
      const { m } = saved();
      m.rereadFailed();
      assert.equal(m.tenant, undefined);
      assert.equal(m.vscodeSaved(), false, 'nothing to reload');
    });
  });
  // Seen in the full suite: a save's reload was read while the user typed on; VS Code kept the edit (it does not reload
  // a document that became dirty) and the read-only section, still the saved version's, was checked against the read.
  it('a read the editor did not take: the base goes back when the text shows it is on the earlier one', () => {
    const m = new RecordVersionModel<Version>();
    const saved = v(1, 'saved');
    m.opened(saved);
    m.served(saved, false);
    const fresh = v(2, 'fresh');
    m.read(fresh);
    m.reloadStarted();
    m.served(fresh, true, 'saved, and typed on');
    assert.equal(m.base, fresh, 'a reload read is the base until the text says otherwise');
    assert.equal(m.previousBase, saved, 'the text may still be on the earlier base');
    m.textChanged('saved, typed on again');
    assert.equal(m.previousBase, saved, 'an edit does not tell which version the text is on');
    m.keptPrevious();
    assert.equal(m.base, saved);
    assert.equal(m.previousBase, undefined);
    assert.equal(m.against(saved.modifiedOn), saved, 'the next save is computed against the version the text is on');
  });

  it('a read the editor took: its text arriving confirms it as the base', () => {
    const m = new RecordVersionModel<Version>();
    const saved = v(1, 'saved');
    m.opened(saved);
    m.served(saved, false);
    const fresh = v(2, 'fresh');
    m.read(fresh);
    m.reloadStarted();
    m.served(fresh, false, 'saved');
    m.textChanged('fresh');
    assert.equal(m.previousBase, undefined, 'confirmed');
    m.keptPrevious();
    assert.equal(m.base, fresh, 'nothing to go back to once confirmed');
    m.served(v(3, 'three'), false, 'three');
    assert.equal(m.previousBase, undefined, 'a read of the text the editor holds needs no confirmation');
  });
});
