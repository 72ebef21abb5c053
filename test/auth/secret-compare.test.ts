import t from 'tap';
import { createSecretMatcher } from '../../src/auth/secret-compare.js';

t.test('createSecretMatcher matches exactly the configured secret', async (t) => {
  const matches = createSecretMatcher('s3cret-value');
  const rows: { name: string; candidate: string; expected: boolean }[] = [
    { name: 'the secret', candidate: 's3cret-value', expected: true },
    { name: 'a prefix', candidate: 's3cret', expected: false },
    { name: 'longer', candidate: 's3cret-value!', expected: false },
    { name: 'different case', candidate: 'S3CRET-VALUE', expected: false },
    { name: 'empty', candidate: '', expected: false },
    { name: 'non-ASCII of another length', candidate: 's3cret-valué', expected: false },
  ];
  for (const row of rows) t.equal(matches(row.candidate), row.expected, row.name);
});
