/**
 * The runtime's OpenAPI document as served today, kept as a snapshot: any change to it shows as
 * a diff of the document, path by path, in review. Regenerate it on purpose with
 * `npx tap test/runtime/http/openapi-snapshot.test.ts --snapshot` and commit the result with the
 * change that explains it. When the document comes to be generated from the routes' own
 * schemas, this snapshot is what the generated one is held against.
 */
import t from 'tap';
import { runtimeApp } from '../fixtures/runtime.js';

t.test('GET /openapi.json with the default settings matches the committed snapshot', async (t) => {
  const rt = runtimeApp(t);
  const res = await rt.app.inject({ url: '/openapi.json' });
  t.equal(res.statusCode, 200);
  const document = res.json() as { paths: Record<string, unknown> };
  // One snapshot per path, so a change names the path it touched; then the rest of the document.
  for (const [path, item] of Object.entries(document.paths)) t.matchSnapshot(item, path);
  t.matchSnapshot(
    { ...document, paths: Object.keys(document.paths) },
    'the document without its paths',
  );
});
