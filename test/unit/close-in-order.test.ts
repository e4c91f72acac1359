import { describe, expect, it } from 'vitest';
import { closeInOrder } from '../../app/close-in-order.js';

describe('closeInOrder', () => {
  const recorder = () => {
    const ran: string[] = [];
    const step = (name: string, failure?: Error) => async () => {
      ran.push(name);
      if (failure) throw failure;
    };
    return { ran, step };
  };

  it('runs the steps one after another, in order', async () => {
    const { ran, step } = recorder();
    await closeInOrder([step('http'), step('queue'), step('database')]);
    expect(ran).toEqual(['http', 'queue', 'database']);
  });

  it('runs the later steps when one fails, then throws that failure', async () => {
    const { ran, step } = recorder();
    const failure = new Error('the queue did not stop');
    await expect(closeInOrder([step('http'), step('queue', failure), step('database')])).rejects.toBe(failure);
    expect(ran).toEqual(['http', 'queue', 'database']);
  });

  it('throws every failure together when several steps fail', async () => {
    const { ran, step } = recorder();
    const first = new Error('http');
    const second = new Error('database');
    const error = await closeInOrder([step('http', first), step('queue'), step('database', second)]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AggregateError);
    expect((error as AggregateError).errors).toEqual([first, second]);
    expect((error as AggregateError).message).toBe('2 shutdown steps failed');
    expect(ran).toEqual(['http', 'queue', 'database']);
  });
});
