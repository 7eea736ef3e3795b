import { readFileSync, writeFileSync } from 'node:fs';
import { startTestApp, TestApp } from '../support/test-app';
import { CLIENT_TYPES_PATH, generateClientTypes } from './generate-client';

/**
 * The committed client is the one the served document generates today: `npm test` regenerates it and
 * fails on any difference. `npm run client:generate` rewrites it after a change of the API.
 */
describe('Generated client types', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('match the served OpenAPI document (openapi-typescript, default options)', async () => {
    const generated = await generateClientTypes((await app.request('GET', '/api/openapi.json')).body);
    if (process.env.UPDATE_CLIENT === '1') writeFileSync(CLIENT_TYPES_PATH, generated);
    const committed = readFileSync(CLIENT_TYPES_PATH, 'utf8');
    if (committed !== generated)
      throw new Error(`${CLIENT_TYPES_PATH} is out of date with the API: run npm run client:generate and commit it`);
    expect(committed).toContain('export interface paths');
  });
});
