/** The shoe calls of the shoe tests, on the app `app()` answers (set in a beforeAll). */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { ShoeEnvelopeSchema, ShoesEnvelopeSchema, type Shoe } from '../../core/shoes.js';
import { EntryEnvelopeSchema, type Entry } from '../../core/schemas.js';
import { call, type Account } from './helpers.js';

export function shoeCalls(app: () => FastifyInstance) {
  async function addShoe(runner: Account, body: Record<string, unknown>): Promise<Shoe> {
    const res = await call(app(), 'POST', '/api/v1/shoes', { token: runner.token, body });
    expect(res.statusCode, res.body).toBe(201);
    return ShoeEnvelopeSchema.parse(res.json()).shoe;
  }

  async function shoesOf(runner: Account): Promise<Shoe[]> {
    const res = await call(app(), 'GET', '/api/v1/shoes', { token: runner.token });
    expect(res.statusCode, res.body).toBe(200);
    return ShoesEnvelopeSchema.parse(res.json()).shoes;
  }

  async function shoeOf(runner: Account, id: number): Promise<Shoe | undefined> {
    return (await shoesOf(runner)).find((shoe) => shoe.id === id);
  }

  const putShoe = (runner: Account, id: number, body: Record<string, unknown>) =>
    call(app(), 'PUT', `/api/v1/shoes/${id}`, { token: runner.token, body });

  /** A run on 2026-03-10 of an hour, with `body`'s fields over those. */
  async function addRun(runner: Account, body: Record<string, unknown>): Promise<Entry> {
    const res = await call(app(), 'POST', '/api/v1/entry', {
      token: runner.token,
      body: { date: '2026-03-10', time: '01:00:00', ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return EntryEnvelopeSchema.parse(res.json()).entry;
  }

  return { addShoe, shoesOf, shoeOf, putShoe, addRun };
}
