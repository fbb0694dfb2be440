/**
 * The server runs with a bounded heap (docs/decisions/018-bounded-heap.md): `npm start`'s flags
 * cap the old generation, which is what keeps V8 from letting an import's garbage grow the
 * process by hundreds of MiB; and every server the tests start gets the same flags.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../../scripts/support/server-process.js';

const MiB = 1024 * 1024;

describe('the heap of the server npm start runs', () => {
  it('is bounded at about 1 GiB, below where V8 lets the old generation grow fourfold', () => {
    const limit = Number(
      execFileSync(
        process.execPath,
        [...SERVER_NODE_FLAGS, '-p', 'require("node:v8").getHeapStatistics().heap_size_limit'],
        {
          encoding: 'utf8',
        },
      ),
    );
    expect(limit).toBeGreaterThan(512 * MiB);
    expect(limit).toBeLessThan(2048 * MiB);
  });
});
