import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMigrationsFromDir, orderMigrations, splitSqlStatements } from './migrations';

describe('splitSqlStatements', () => {
  it('ends a statement only at a ; that closes its line', () => {
    const sql = [
      '-- positions per keyword;',
      'CREATE TABLE IF NOT EXISTS a',
      "(x String DEFAULT 'a;b') ENGINE = Memory;  ",
      '',
      'ALTER TABLE a ADD COLUMN y UInt8; -- not split here',
      'ALTER TABLE a ADD COLUMN z UInt8',
    ].join('\n');

    expect(splitSqlStatements(sql)).toEqual([
      "-- positions per keyword;\nCREATE TABLE IF NOT EXISTS a\n(x String DEFAULT 'a;b') ENGINE = Memory",
      'ALTER TABLE a ADD COLUMN y UInt8; -- not split here\nALTER TABLE a ADD COLUMN z UInt8',
    ]);
  });

  it('drops statements made only of comments and blank lines', () => {
    expect(splitSqlStatements('SELECT 1;\n\n-- the end\n')).toEqual(['SELECT 1']);
  });
});

describe('loadMigrationsFromDir', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'read-store-migrations-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads NNN_name.sql files in numeric order and ignores other files', () => {
    writeFileSync(join(dir, '10_add_url.sql'), 'ALTER TABLE p ADD COLUMN url String;\n');
    writeFileSync(join(dir, '002_create_positions.sql'), 'CREATE TABLE p (a UInt8) ENGINE = Memory;\nINSERT INTO p VALUES (1);\n');
    writeFileSync(join(dir, 'README.md'), 'notes');

    expect(loadMigrationsFromDir(dir)).toEqual([
      { name: '002_create_positions', statements: ['CREATE TABLE p (a UInt8) ENGINE = Memory', 'INSERT INTO p VALUES (1)'] },
      { name: '10_add_url', statements: ['ALTER TABLE p ADD COLUMN url String'] },
    ]);
  });

  it('rejects two files with the same number', () => {
    writeFileSync(join(dir, '001_a.sql'), 'SELECT 1;');
    writeFileSync(join(dir, '1_b.sql'), 'SELECT 2;');

    expect(() => loadMigrationsFromDir(dir)).toThrow(/001_a and 1_b share the number 1/);
  });

  it('rejects a .sql file that is not numbered, and an empty one', () => {
    writeFileSync(join(dir, 'create.sql'), 'SELECT 1;');
    expect(() => loadMigrationsFromDir(dir)).toThrow(/must be named NNN_name\.sql/);

    rmSync(join(dir, 'create.sql'));
    writeFileSync(join(dir, '001_empty.sql'), '-- nothing yet\n');
    expect(() => loadMigrationsFromDir(dir)).toThrow(/has no statements/);
  });
});

describe('orderMigrations', () => {
  it('rejects a name without a leading number', () => {
    expect(() => orderMigrations([{ name: 'accounts', statements: ['SELECT 1'] }])).toThrow(/must look like NNN_name/);
  });
});
