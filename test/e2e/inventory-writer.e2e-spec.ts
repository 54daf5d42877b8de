import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Asset } from '../../src/database/entities/asset.entity.js';
import { Relation } from '../../src/database/entities/relation.entity.js';
import { InventoryWriter } from '../../src/database/writer/inventory-writer.js';
import { TestApp } from '../support/test-app.js';

/** Every write to the inventory goes through InventoryWriter: anything else is refused. */
describe('the inventory writer', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });

  afterAll(async () => {
    await t.close();
  });

  const row = (id: string) => ({ id, name: id, createdAt: new Date(), updatedAt: new Date() });
  const count = async () => t.dataSource.getRepository(Asset).count();

  it('refuses a write to the inventory that goes around it, before it runs', async () => {
    await expect(t.dataSource.getRepository(Asset).insert(row('around-1'))).rejects.toThrow(
      'a write to assets did not go through InventoryWriter',
    );
    await expect(
      t.dataSource.query(`UPDATE assets SET name = 'renamed' WHERE id = 'none'`),
    ).rejects.toThrow('a write to assets did not go through InventoryWriter');
    await expect(t.dataSource.getRepository(Relation).delete({ id: 'none' })).rejects.toThrow(
      'a write to relations did not go through InventoryWriter',
    );
    expect(await count()).toBe(0);
  });

  it('lets its own units write, and reads stay free', async () => {
    const writer = t.app.get(InventoryWriter);
    await writer.write(null, ({ manager }) => manager.getRepository(Asset).insert(row('written')));
    expect(await count()).toBe(1);
    expect(await t.dataSource.query('SELECT id FROM assets')).toEqual([{ id: 'written' }]);
  });

  it('refuses a write again once a unit is over', async () => {
    await t.app.get(InventoryWriter).write(null, async () => {});
    await expect(t.dataSource.getRepository(Asset).delete({ id: 'written' })).rejects.toThrow(
      'did not go through InventoryWriter',
    );
    expect(await count()).toBe(1);
  });
});
