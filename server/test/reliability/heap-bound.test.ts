/**
 * The server runs with a bounded heap (docs/decisions/018-bounded-heap.md): `npm start`'s flags
 * cap the old generation, which is what keeps V8 from letting an import's garbage grow the
 * process by hundreds of MiB, and keep a request's short-lived objects out of the old
 * generation; every server the tests start gets the same flags.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../../scripts/support/server-process.js';

const MiB = 1024 * 1024;

/**
 * Objects from two allocation sites, every one of them kept: V8 counts how many of a site's
 * objects survive a scavenge and, past a share, decides to allocate the site's objects in the
 * old generation directly ("pretenuring"); its statistics trace prints each site it weighs.
 */
const KEPT_OBJECTS = `
  const kept = [];
  for (let i = 0; i < 2000000; i++) kept.push({ n: i, tag: [i] });
  console.log(kept.length);
`;

function pretenuringTrace(flags: readonly string[]): string {
  return execFileSync(process.execPath, [...flags, '--trace-pretenuring-statistics', '-e', KEPT_OBJECTS], {
    encoding: 'utf8',
    maxBuffer: 64 * MiB,
  });
}

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

  it('never pretenures an allocation site, so that objects of requests in flight die young', (context) => {
    // Without the flags, this Node weighs the sites; a Node whose V8 traces otherwise (or not
    // at all) cannot tell.
    let control = '';
    try {
      control = pretenuringTrace([]);
    } catch {
      // An unknown trace flag: node refuses to start.
    }
    if (!/pretenuring: AllocationSite/.test(control)) context.skip();
    const trace = pretenuringTrace(SERVER_NODE_FLAGS);
    expect(trace).toContain('2000000');
    expect(trace).not.toMatch(/pretenuring: AllocationSite/);
  });
});
