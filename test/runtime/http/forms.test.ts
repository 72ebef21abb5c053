/**
 * Form fields of the run routes: booleans as FastAPI reads them, text and JSON fields, and the
 * file types a run accepts.
 */
import t from 'tap';
import { HttpError } from '../../../src/runtime/http/errors.js';
import {
  checkFiles,
  formBoolean,
  formJson,
  formString,
  type Form,
} from '../../../src/runtime/http/forms.js';

const form = (fields: Record<string, string>, files: Form['files'] = []): Form => ({
  fields,
  files,
});

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return null;
}

t.test('formBoolean: the words FastAPI accepts, the fallback, and 422 otherwise', async (t) => {
  const rows: { value: string | undefined; fallback: boolean; expected: boolean }[] = [
    { value: 'true', fallback: false, expected: true },
    { value: 'TRUE', fallback: false, expected: true },
    { value: '1', fallback: false, expected: true },
    { value: 'yes', fallback: false, expected: true },
    { value: 'On', fallback: false, expected: true },
    { value: 'false', fallback: true, expected: false },
    { value: '0', fallback: true, expected: false },
    { value: 'no', fallback: true, expected: false },
    { value: 'OFF', fallback: true, expected: false },
    { value: undefined, fallback: true, expected: true },
    { value: undefined, fallback: false, expected: false },
    { value: '', fallback: true, expected: true },
    { value: '', fallback: false, expected: false },
  ];
  for (const row of rows) {
    const fields: Record<string, string> = row.value === undefined ? {} : { stream: row.value };
    t.equal(
      formBoolean(form(fields), 'stream', row.fallback),
      row.expected,
      `${JSON.stringify(row.value)} (fallback ${row.fallback})`,
    );
  }
  for (const bad of ['maybe', 'y', 'n', 't', '2', ' true', 'truee']) {
    const caught = thrown(() => formBoolean(form({ background: bad }), 'background', true));
    t.ok(caught instanceof HttpError, `${bad}: an HttpError`);
    t.match(caught, {
      status: 422,
      detail: [
        {
          type: 'bool_parsing',
          loc: ['body', 'background'],
          msg: 'Input should be a valid boolean, unable to interpret input',
          input: bad,
        },
      ],
    });
  }
});

t.test('formString: a non-empty value or null', async (t) => {
  t.equal(formString(form({ a: 'x' }), 'a'), 'x');
  t.equal(formString(form({ a: '' }), 'a'), null);
  t.equal(formString(form({}), 'a'), null);
});

t.test('formJson: parsed, null when absent, 400 naming the field when not JSON', async (t) => {
  t.same(formJson(form({ tools: '[{"a":1}]' }), 'tools'), [{ a: 1 }]);
  t.equal(formJson(form({}), 'tools'), null);
  t.match(
    thrown(() => formJson(form({ tools: '[' }), 'tools')),
    {
      status: 400,
      detail: 'Invalid JSON in tools field',
    },
  );
});

t.test('checkFiles: media and documents pass, anything else is 400', async (t) => {
  const file = (mimetype: string) => ({
    field: 'files',
    filename: 'f',
    mimetype,
    size: 1,
    data: Buffer.from('x'),
  });
  for (const ok of ['image/png', 'audio/mpeg', 'video/mp4', 'application/pdf', 'text/csv']) {
    t.doesNotThrow(() => checkFiles(form({}, [file(ok)])), ok);
  }
  t.match(
    thrown(() => checkFiles(form({}, [file('application/x-msdownload')]))),
    {
      status: 400,
      detail: 'Unsupported file type',
    },
  );
});
