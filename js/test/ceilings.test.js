// The host's ceilings (docs/limits.md): a request may lower options.limits, never raise them;
// only the host raises a ceiling, through setCeilings().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, applyRequestSync, setCeilings } from '../src/index.js';

await init();

const request = (limits) => ({ format: 'replace', files: { a: 'x\n' }, edit: { old_string: 'x', new_string: 'y' }, options: { limits } });

test('a request cannot raise a limit past the build ceiling', () => {
  const res = applyRequestSync(request({ max_files: 20000 }));
  assert.equal(res.status, 'error');
  assert.equal(res.error.code, 'INVALID_PARAM');
  assert.match(res.error.message, /max_files is above its ceiling 10000/);
  assert.equal(applyRequestSync(request({ max_files: 5 })).status, 'success');
});

test('setCeilings raises and lowers what a request may ask; {} restores the build', () => {
  try {
    setCeilings({ max_files: 30000, max_input_bytes: 8 });
    assert.equal(applyRequestSync(request({ max_files: 20000, max_input_bytes: 8 })).status, 'success');
    const res = applyRequestSync({ ...request({}), files: { a: 'x = 1234567\n' } });
    assert.equal(res.error.code, 'TOO_LARGE');
    assert.match(res.error.message, /max_input_bytes\) is 8/);
  } finally {
    setCeilings({});
  }
  assert.equal(applyRequestSync(request({ max_files: 20000 })).error.code, 'INVALID_PARAM');
});

test('setCeilings refuses unknown names and values that are not positive integers', () => {
  assert.throws(() => setCeilings({ max_bogus: 1 }), /not a limit/);
  assert.throws(() => setCeilings({ max_files: -1 }), /positive integer/);
  assert.throws(() => setCeilings({ max_files: 1.5 }), /positive integer/);
  assert.equal(applyRequestSync(request({})).status, 'success');
});
