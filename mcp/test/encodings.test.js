// Every encoding kept through editcore-mcp (issue 27 items 1 and 8): the MCP server's column of
// the encodings matrix (js/test/encodings_matrix.mjs: 7 encodings x the tools it serves, over
// stdio with the SDK's Client). A file that is not UTF-8 is edited byte for byte, never called
// binary; read_text_file, read_file and read_multiple_files show it marked (U+FFFD, a note that
// it is not UTF-8), read_media_file sends its exact bytes; UTF-16 and BOMs are kept. ~5 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runMatrix } from '../../js/test/encodings_matrix.mjs';

test('every encoding through every tool: the MCP server', async () => {
  const rows = await runMatrix(['mcp']);
  assert.ok(!rows.some((r) => r.skipped), 'the MCP server or its SDK is not installed (npm ci in mcp/)');
  const bad = rows.filter((r) => !r.ok).map((r) => `${r.enc} / ${r.call}: ${r.got}`);
  assert.ok(rows.length > 50, `only ${rows.length} cells ran`);
  assert.deepEqual(bad, [], `${bad.length} of ${rows.length} cells:\n${bad.join('\n')}`);
});
